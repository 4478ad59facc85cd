#!/usr/bin/env node
// Loads a VRM 1.0 file in the reference runtime, @pixiv/three-vrm, under Node.
//
// Usage: node scripts/three-vrm-load.mjs FILE.vrm
// Parses the file with three's GLTFLoader and the VRMLoaderPlugin, lists the humanoid
// bones and the spring joints, swings the hips for one second at 60 steps per second
// (yaw 0.8 sin(2 pi t) rad about the vertical, and 0.01 cos(2 pi t) m along X added
// each step) while the springs run, and checks every joint's world position stays finite.
// Then, when the file has node constraints, turns the source of the first roll
// constraint 60 degrees about its roll axis and measures how far the constrained node
// followed (a roll constraint of weight 0.5 follows half: 30 degrees).
// Prints one JSON object:
//   {"file", "specVersion", "humanBones": [...], "springs", "joints", "colliders",
//    "colliderShapes": {"sphere", "capsule", "plane", "insideSphere", "insideCapsule"},
//    "constraints", "rollFollowDeg", "steps", "maxTailTravel", "finite"}
// and, with THREE_VRM_POSITIONS set, "positions": {glTF node index: [x, y, z]} of every
// spring joint's node after the 60 steps (world, metres).
// Exits 0 when the file loads as VRM 1.0 with springs and every result is finite,
// 1 when not, 2 on usage or unreadable files.
import { THREE, loadGltf } from './three-node.mjs';

const file = process.argv[2];
if (!file) {
  console.error('usage: three-vrm-load.mjs FILE.vrm');
  process.exit(2);
}
const gltf = await loadGltf(file, { vrm: true });
const vrm = gltf.userData.vrm;
if (!vrm) {
  console.log(JSON.stringify({ file, error: 'no VRM in the file' }));
  process.exit(1);
}
const humanBones = Object.keys(vrm.humanoid.humanBones).filter((k) => vrm.humanoid.getRawBoneNode(k));
const sbm = vrm.springBoneManager;
const joints = sbm ? [...sbm.joints] : [];
const colliders = sbm ? [...sbm.colliders] : [];
// Chains: joints whose bone's parent is not itself a spring joint's bone.
const jointBones = new Set(joints.map((j) => j.bone));
const springs = joints.filter((j) => !jointBones.has(j.bone.parent)).length;
const constraints = vrm.nodeConstraintManager ? vrm.nodeConstraintManager.constraints.size : 0;
const colliderShapes = { sphere: 0, capsule: 0, plane: 0, insideSphere: 0, insideCapsule: 0 };
for (const c of colliders) {
  const t = c.shape.type;
  const key = c.shape.inside ? `inside${t[0].toUpperCase()}${t.slice(1)}` : t;
  colliderShapes[key] = (colliderShapes[key] ?? 0) + 1;
}

vrm.scene.updateMatrixWorld(true);
const start = joints.map((j) => j.bone.getWorldPosition(new THREE.Vector3()));
// The hips are driven through the NORMALIZED humanoid (rest rotation identity, axes of
// the world): three-vrm copies the normalized bones onto the raw ones on every update,
// so a rotation set on the raw bone would be overwritten.
const hips = vrm.humanoid.getNormalizedBoneNode('hips');
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
// Where every spring joint's node ended, by glTF node index (for comparing runtimes).
const positions = {};
for (const j of joints) {
  const a = gltf.parser.associations.get(j.bone);
  if (a && a.nodes !== undefined) {
    positions[a.nodes] = j.bone.getWorldPosition(new THREE.Vector3()).toArray().map((v) => Number(v.toFixed(6)));
  }
}
// Roll constraints: turn the first one's source and see the destination follow.
let rollFollowDeg = null;
if (constraints > 0) {
  const c = [...vrm.nodeConstraintManager.constraints][0];
  const axis = { X: new THREE.Vector3(1, 0, 0), Y: new THREE.Vector3(0, 1, 0), Z: new THREE.Vector3(0, 0, 1) }[c.rollAxis] ?? new THREE.Vector3(0, 1, 0);
  const dest0 = c.destination.quaternion.clone();
  c.source.quaternion.multiply(new THREE.Quaternion().setFromAxisAngle(axis, Math.PI / 3));
  vrm.scene.updateMatrixWorld(true);
  vrm.nodeConstraintManager.update();
  const delta = dest0.clone().invert().multiply(c.destination.quaternion);
  rollFollowDeg = Number(((2 * Math.acos(Math.min(1, Math.abs(delta.w))) * 180) / Math.PI).toFixed(3));
  if (!Number.isFinite(rollFollowDeg)) finite = false;
}
const out = {
  file,
  specVersion: vrm.meta && vrm.meta.metaVersion,
  humanBones,
  springs,
  joints: joints.length,
  colliders: colliders.length,
  colliderShapes,
  constraints,
  rollFollowDeg,
  steps: 60,
  maxTailTravel: Number(maxTravel.toFixed(5)),
  finite,
};
if (process.env.THREE_VRM_POSITIONS) out.positions = positions;
console.log(JSON.stringify(out));
process.exit(finite && joints.length > 0 && humanBones.length >= 15 ? 0 : 1);
