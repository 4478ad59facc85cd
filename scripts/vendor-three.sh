#!/usr/bin/env bash
# Vendors the three.js build the report's 3D viewer embeds: the classes the viewer
# uses plus OrbitControls, bundled and minified by esbuild into one classic script
# that defines the global `THREE`, with three.js's licence beside it. Both versions
# are pinned in scripts/package.json (and package-lock.json), so building rigsmith
# needs no Node: the output is committed.
#
#   scripts/vendor-three.sh          # writes crates/rigsmith-render/assets/three.min.js
#
# Run it again after changing the pinned three version or viewer-three-entry.mjs.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$here/../crates/rigsmith-render/assets"
cd "$here"
[ -d node_modules/three ] || npm ci --no-audit --no-fund
version="$(node -p 'require("./node_modules/three/package.json").version')"
mkdir -p "$out"
npx esbuild viewer-three-entry.mjs --bundle --minify --format=iife --global-name=THREE \
  --target=es2019 --legal-comments=none --log-level=warning \
  --banner:js="/* three.js ${version} (MIT, see three.LICENSE) bundled by scripts/vendor-three.sh */" \
  --outfile="$out/three.min.js"
cp node_modules/three/LICENSE "$out/three.LICENSE"
echo "$version" > "$out/three.VERSION"
echo "wrote $out/three.min.js ($(stat -c %s "$out/three.min.js") bytes, three $version)"
