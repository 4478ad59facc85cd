// What the Node scripts that load a glTF or VRM file in three.js share: the browser
// globals three's loader expects, reading the file and parsing it.
//
//   import { THREE, loadGltf } from './three-node.mjs';
//   const gltf = await loadGltf(file, { vrm: true });
//
// `loadGltf` exits 2 (naming the file) when the file cannot be read, and prints
// {"file", "error"} and exits 1 when it does not parse.
import { readFile } from 'node:fs/promises';

// The loader expects a few browser globals; a GLB without textures needs no more.
globalThis.self ??= globalThis;
globalThis.window ??= globalThis;

export const THREE = await import('three');
const { GLTFLoader } = await import('three/examples/jsm/loaders/GLTFLoader.js');

// Reads `file` and parses it with three's GLTFLoader; with `vrm`, through
// @pixiv/three-vrm's VRMLoaderPlugin (the result's `userData.vrm`).
export async function loadGltf(file, { vrm = false } = {}) {
  let bytes;
  try {
    bytes = await readFile(file);
  } catch (e) {
    console.error(`${file}: ${e.message}`);
    process.exit(2);
  }
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const loader = new GLTFLoader();
  if (vrm) {
    const { VRMLoaderPlugin } = await import('@pixiv/three-vrm');
    loader.register((parser) => new VRMLoaderPlugin(parser));
  }
  return new Promise((resolve, reject) => loader.parse(buffer, '', resolve, reject)).catch((e) => {
    console.log(JSON.stringify({ file, error: String(e && e.message ? e.message : e) }));
    process.exit(1);
  });
}
