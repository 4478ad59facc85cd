#!/usr/bin/env bash
# Zips the Blender add-on (blender/rigsmith_addon) for Edit > Preferences > Add-ons >
# Install from Disk: scripts/zip-addon.sh [OUT.zip] (default target/rigsmith_addon.zip).
# The add-on needs the rigsmith wheel in Blender's Python (docs/blender.md).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-target/rigsmith_addon.zip}
mkdir -p "$(dirname "$OUT")"
OUT=$(cd "$(dirname "$OUT")" && pwd)/$(basename "$OUT")
rm -f "$OUT"
cd blender
python3 - "$OUT" <<'PY'
import os, sys, zipfile
out = sys.argv[1]
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    for root, _, files in os.walk("rigsmith_addon"):
        for f in sorted(files):
            if f.endswith(".pyc") or "__pycache__" in root:
                continue
            p = os.path.join(root, f)
            z.write(p, p)
print(out)
PY
