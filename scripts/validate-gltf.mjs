#!/usr/bin/env node
// Validates glTF/GLB/VRM files with the Khronos glTF-Validator.
//
// Usage: node scripts/validate-gltf.mjs FILE...
// Prints one JSON object per file (one per line):
//   {"file": "...", "errors": 0, "warnings": 2, "infos": 1, "hints": 0, "messages": [...]}
// where `messages` lists the errors and warnings (code, pointer, message), at most 20.
// Exits 1 when any file has an error, 2 on usage or unreadable files.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import validator from 'gltf-validator';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: validate-gltf.mjs FILE...');
  process.exit(2);
}
let failed = false;
for (const file of files) {
  let bytes;
  try {
    bytes = new Uint8Array(await readFile(file));
  } catch (e) {
    console.error(`${file}: ${e.message}`);
    process.exit(2);
  }
  const report = await validator.validateBytes(bytes, {
    uri: path.basename(file),
    maxIssues: 1000,
    externalResourceFunction: (uri) =>
      readFile(path.join(path.dirname(file), decodeURIComponent(uri))).then((b) => new Uint8Array(b)),
  });
  const i = report.issues;
  const messages = i.messages
    .filter((m) => m.severity <= 1)
    .slice(0, 20)
    .map((m) => ({ code: m.code, severity: m.severity === 0 ? 'error' : 'warning', pointer: m.pointer, message: m.message }));
  console.log(JSON.stringify({ file, errors: i.numErrors, warnings: i.numWarnings, infos: i.numInfos, hints: i.numHints, messages }));
  if (i.numErrors > 0) failed = true;
}
process.exit(failed ? 1 : 0);
