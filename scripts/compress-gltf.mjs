#!/usr/bin/env node
// Compresses a GLB the way common tools do, so the reader can be tested on such files.
//
// Usage: node scripts/compress-gltf.mjs MODE IN.glb OUT.glb
//   quantize           KHR_mesh_quantization (positions 14 bits, normals 10, UVs 12,
//                      weights 8), as gltf-transform's `quantize`
//   meshopt            EXT_meshopt_compression at level "high": reorder, quantize, and
//                      compress with filters (OCTAHEDRAL normals, EXPONENTIAL where used)
//   meshopt-medium     the same at level "medium" (quantized, no filters)
//   draco              KHR_draco_mesh_compression, edgebreaker (the encoder's default)
//   draco-sequential   KHR_draco_mesh_compression, sequential connectivity
// Prints one JSON line: {"out": "...", "bytes": N, "extensionsUsed": [...]}.
// Exits 2 on usage errors, 1 when compression fails.
import { NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { draco, meshopt, quantize } from '@gltf-transform/functions';
import draco3d from 'draco3dgltf';
import { MeshoptEncoder, MeshoptDecoder } from 'meshoptimizer';

const [mode, input, output] = process.argv.slice(2);
const modes = ['quantize', 'meshopt', 'meshopt-medium', 'draco', 'draco-sequential'];
if (!modes.includes(mode) || !input || !output) {
  console.error(`usage: compress-gltf.mjs (${modes.join('|')}) IN.glb OUT.glb`);
  process.exit(2);
}
try {
  await MeshoptEncoder.ready;
  await MeshoptDecoder.ready;
  const io = new NodeIO().registerExtensions(ALL_EXTENSIONS).registerDependencies({
    'draco3d.encoder': await draco3d.createEncoderModule(),
    'draco3d.decoder': await draco3d.createDecoderModule(),
    'meshopt.encoder': MeshoptEncoder,
    'meshopt.decoder': MeshoptDecoder,
  });
  const doc = await io.read(input);
  if (mode === 'quantize') await doc.transform(quantize());
  if (mode === 'meshopt') await doc.transform(meshopt({ encoder: MeshoptEncoder, level: 'high' }));
  if (mode === 'meshopt-medium') await doc.transform(meshopt({ encoder: MeshoptEncoder, level: 'medium' }));
  if (mode === 'draco') await doc.transform(draco({ method: 'edgebreaker' }));
  if (mode === 'draco-sequential') await doc.transform(draco({ method: 'sequential' }));
  await io.write(output, doc);
  const used = doc.getRoot().listExtensionsUsed().map((e) => e.extensionName);
  const { size } = await import('node:fs').then((fs) => fs.promises.stat(output));
  console.log(JSON.stringify({ out: output, bytes: size, extensionsUsed: used }));
} catch (e) {
  console.error(`compress-gltf: ${e.stack || e}`);
  process.exit(1);
}
