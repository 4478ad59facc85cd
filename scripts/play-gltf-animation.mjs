#!/usr/bin/env node
// Plays a glTF animation in three.js (Node, no browser) and measures the skinned mesh.
//
// Usage: node scripts/play-gltf-animation.mjs FILE.glb STEP T1 [T2 ...]
// Parses the file with three's GLTFLoader, plays its first animation clip with an
// AnimationMixer at each time T (seconds), and records the world position of every
// STEP-th vertex of every skinned mesh as three.js skins it (SkinnedMesh
// getVertexPosition, then the mesh's world matrix).
// Prints one JSON object:
//   {"file", "clip", "duration", "tracks", "times": [...],
//    "meshes": {name: {"indices": [...], "frames": [[[x, y, z], ...] per time]}}}
// Exits 1 when the file has no animation or no skinned mesh, 2 on usage or unreadable
// files.
import { THREE, loadGltf } from './three-node.mjs';

const [file, stepArg, ...timeArgs] = process.argv.slice(2);
const step = Number(stepArg);
const times = timeArgs.map(Number);
if (!file || !(step >= 1) || times.length === 0 || times.some((t) => !Number.isFinite(t))) {
  console.error('usage: play-gltf-animation.mjs FILE.glb STEP T1 [T2 ...]');
  process.exit(2);
}
const gltf = await loadGltf(file);
const clip = gltf.animations[0];
const skinned = [];
gltf.scene.traverse((o) => { if (o.isSkinnedMesh) skinned.push(o); });
if (!clip || skinned.length === 0) {
  console.log(JSON.stringify({ file, error: !clip ? 'no animation' : 'no skinned mesh' }));
  process.exit(1);
}
const mixer = new THREE.AnimationMixer(gltf.scene);
mixer.clipAction(clip).play();
const out = { file, clip: clip.name, duration: clip.duration, tracks: clip.tracks.length, times, meshes: {} };
for (const m of skinned) {
  const n = m.geometry.attributes.position.count;
  const indices = [];
  for (let i = 0; i < n; i += step) indices.push(i);
  out.meshes[m.name] = { indices, frames: [] };
}
const v = new THREE.Vector3();
for (const t of times) {
  mixer.setTime(t);
  gltf.scene.updateMatrixWorld(true);
  for (const m of skinned) {
    m.skeleton.update();
    const rec = out.meshes[m.name];
    rec.frames.push(rec.indices.map((i) => {
      m.getVertexPosition(i, v);
      v.applyMatrix4(m.matrixWorld);
      return [v.x, v.y, v.z];
    }));
  }
}
console.log(JSON.stringify(out));
