#!/usr/bin/env node
// Loads a VRM 1.0 file in @pixiv/three-vrm under Node and measures what its face
// expressions do.
//
// Usage: FACE_PROBE='{"mesh": "body", "lids": [[U, L], ...], "lips": [U, L]}' \
//          node scripts/three-vrm-face.mjs FILE.vrm
// `lids` are pairs of vertex indices (upper and lower lid margin) and `lips` a pair
// (upper and lower lip) of the mesh named `mesh`. For each measured state the
// expression is set through the expression manager, `vrm.update` runs, and the
// vertices are morphed on the CPU as three.js does on the GPU (base + sum of
// influence x relative target; the skeleton stays at rest).
// Prints one JSON object:
//   {"file", "expressions": N, "names": [...], "lookAtType", "lidGap": {"rest", "blink"},
//    "mouthGap": {"rest", "aa"}}
// where a lid gap is the largest height of an upper lid margin over its lower one
// (metres, 0 once it passes below) and the mouth gap the distance between the two lip
// vertices.
// Exits 0 when the file loads, 1 when it does not, 2 on usage or unreadable files.
import { THREE, loadGltf } from './three-node.mjs';

const file = process.argv[2];
if (!file) {
  console.error('usage: three-vrm-face.mjs FILE.vrm');
  process.exit(2);
}
let probe;
try {
  probe = JSON.parse(process.env.FACE_PROBE ?? '{}');
} catch (e) {
  console.error(`FACE_PROBE: ${e.message}`);
  process.exit(2);
}
const gltf = await loadGltf(file, { vrm: true });
const vrm = gltf.userData.vrm;
if (!vrm || !vrm.expressionManager) {
  console.log(JSON.stringify({ file, error: 'no VRM expressions in the file' }));
  process.exit(1);
}
const em = vrm.expressionManager;
const names = em.expressions.map((e) => e.expressionName);

// The meshes of the probed part (a node with one primitive is itself the mesh).
const meshes = [];
vrm.scene.traverse((o) => {
  if (o.isMesh && (o.name === probe.mesh || (o.parent && o.parent.name === probe.mesh))) meshes.push(o);
});
const mesh = meshes[0];

function position(i) {
  const g = mesh.geometry;
  const p = new THREE.Vector3().fromBufferAttribute(g.attributes.position, i);
  const targets = g.morphAttributes.position ?? [];
  const infl = mesh.morphTargetInfluences ?? [];
  for (let k = 0; k < targets.length; k++) {
    if (infl[k]) p.addScaledVector(new THREE.Vector3().fromBufferAttribute(targets[k], i), infl[k]);
  }
  return p;
}
function state(name) {
  for (const n of names) em.setValue(n, 0);
  if (name) em.setValue(name, 1);
  vrm.update(1 / 60);
  const lid = Math.max(0, ...(probe.lids ?? []).map(([u, l]) => position(u).y - position(l).y));
  const lips = probe.lips ? position(probe.lips[0]).distanceTo(position(probe.lips[1])) : null;
  return { lid, lips };
}
const out = { file, expressions: names.length, names, lookAtType: vrm.lookAt ? vrm.lookAt.applier?.constructor?.type ?? 'bone' : null };
if (mesh) {
  const rest = state(null);
  const blink = state('blink');
  const aa = state('aa');
  out.lidGap = { rest: rest.lid, blink: blink.lid };
  out.mouthGap = { rest: rest.lips, aa: aa.lips };
} else {
  out.error = `no mesh named ${probe.mesh}`;
}
console.log(JSON.stringify(out));
process.exit(out.error ? 1 : 0);
