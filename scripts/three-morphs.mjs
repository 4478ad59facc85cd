#!/usr/bin/env node
// Loads a GLB in three.js (GLTFLoader, under Node) and lists its morph targets.
//
// Usage: node scripts/three-morphs.mjs FILE.glb
// For every mesh: the morph target names three.js found (morphTargetDictionary), and
// per target the largest position delta it read (metres) and whether every value is
// finite. Then sets the first corrective (a target named CS_...) to influence 1 and
// checks the mesh still computes finite bounds.
// Prints one JSON object:
//   {"file", "meshes": [{"name", "vertices", "targets": {name: maxDelta}}],
//    "correctives": [names], "finite"}
// Exits 0 when the file loads and every value is finite, 1 when not, 2 on usage or
// unreadable files.
import { loadGltf } from './three-node.mjs';

const file = process.argv[2];
if (!file) {
  console.error('usage: three-morphs.mjs FILE.glb');
  process.exit(2);
}
const gltf = await loadGltf(file);
let finite = true;
const meshes = [];
const correctives = new Set();
gltf.scene.traverse((o) => {
  if (!o.isMesh || !o.morphTargetDictionary) return;
  const morphs = o.geometry.morphAttributes.position || [];
  const targets = {};
  for (const [name, i] of Object.entries(o.morphTargetDictionary)) {
    const a = morphs[i];
    let max = 0;
    for (let k = 0; a && k < a.count; k++) {
      const d = Math.hypot(a.getX(k), a.getY(k), a.getZ(k));
      if (!Number.isFinite(d)) finite = false;
      else max = Math.max(max, d);
    }
    targets[name] = max;
    if (name.startsWith('CS_')) correctives.add(name);
  }
  const first = Object.keys(targets).find((n) => n.startsWith('CS_'));
  if (first !== undefined) {
    o.morphTargetInfluences[o.morphTargetDictionary[first]] = 1;
    o.geometry.computeBoundingSphere();
    if (!Number.isFinite(o.geometry.boundingSphere.radius)) finite = false;
  }
  meshes.push({ name: o.name, vertices: o.geometry.attributes.position.count, targets });
});
console.log(JSON.stringify({ file, meshes, correctives: [...correctives].sort(), finite }));
process.exit(finite ? 0 : 1);
