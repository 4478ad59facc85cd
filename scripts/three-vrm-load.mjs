#!/usr/bin/env node
// Loads a VRM 1.0 file in the reference runtime, @pixiv/three-vrm, under Node.
//
// Usage: node scripts/three-vrm-load.mjs FILE.vrm
// Parses the file with three's GLTFLoader and the VRMLoaderPlugin, lists the humanoid
// bones and the spring joints, swings the hips for one second at 60 steps per second
// while the springs run, and checks every joint's world position stays finite.
// Prints one JSON object:
//   {"file", "specVersion", "humanBones": [...], "springs", "joints", "colliders",
//    "constraints", "steps", "maxTailTravel", "finite"}
// Exits 0 when the file loads as VRM 1.0 with springs and every result is finite,
// 1 when not, 2 on usage or unreadable files.
import { readFile } from 'node:fs/promises';

// The loader expects a few browser globals; a GLB without textures needs no more.
globalThis.self ??= globalThis;
globalThis.window ??= globalThis;

const THREE = await import('three');
const { GLTFLoader } = await import('three/examples/jsm/loaders/GLTFLoader.js');
const { VRMLoaderPlugin } = await import('@pixiv/three-vrm');

const file = process.argv[2];
if (!file) {
  console.error('usage: three-vrm-load.mjs FILE.vrm');
  process.exit(2);
}
let bytes;
try {
  bytes = await readFile(file);
} catch (e) {
  console.error(`${file}: ${e.message}`);
  process.exit(2);
}
const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
const loader = new GLTFLoader();
loader.register((parser) => new VRMLoaderPlugin(parser));
const gltf = await new Promise((resolve, reject) => loader.parse(buffer, '', resolve, reject)).catch((e) => {
  console.log(JSON.stringify({ file, error: String(e && e.message ? e.message : e) }));
  process.exit(1);
});
const vrm = gltf.userData.vrm;
if (!vrm) {
  console.log(JSON.stringify({ file, error: 'no VRM in the file' }));
  process.exit(1);
}
const humanBones = Object.keys(vrm.humanoid.humanBones).filter((k) => vrm.humanoid.getRawBoneNode(k));
const sbm = vrm.springBoneManager;
const joints = sbm ? [...sbm.joints] : [];
const colliders = sbm ? [...sbm.colliders] : [];
const springs = new Set(joints.map((j) => j.bone.name.replace(/\.\d{3}$/, ''))).size;
const constraints = vrm.nodeConstraintManager ? vrm.nodeConstraintManager.constraints.size : 0;

vrm.scene.updateMatrixWorld(true);
const start = joints.map((j) => j.bone.getWorldPosition(new THREE.Vector3()));
const hips = vrm.humanoid.getRawBoneNode('hips');
const hips0 = hips.quaternion.clone();
const dt = 1 / 60;
let finite = true;
let maxTravel = 0;
for (let i = 1; i <= 60; i++) {
  const t = i * dt;
  const q = new THREE.Quaternion().setFromEuler(new THREE.Euler(0, 0.8 * Math.sin(2 * Math.PI * t), 0));
  hips.quaternion.copy(hips0).multiply(q);
  hips.position.x += 0.01 * Math.cos(2 * Math.PI * t);
  vrm.scene.updateMatrixWorld(true);
  vrm.update(dt);
  for (let k = 0; k < joints.length; k++) {
    const p = joints[k].bone.getWorldPosition(new THREE.Vector3());
    if (!Number.isFinite(p.x) || !Number.isFinite(p.y) || !Number.isFinite(p.z)) finite = false;
    else maxTravel = Math.max(maxTravel, p.distanceTo(start[k]));
  }
}
const out = {
  file,
  specVersion: vrm.meta && vrm.meta.metaVersion,
  humanBones,
  springs,
  joints: joints.length,
  colliders: colliders.length,
  constraints,
  steps: 60,
  maxTailTravel: Number(maxTravel.toFixed(5)),
  finite,
};
console.log(JSON.stringify(out));
process.exit(finite && joints.length > 0 && humanBones.length >= 15 ? 0 : 1);
