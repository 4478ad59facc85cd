#!/usr/bin/env bash
# The size of a report with its 3D viewer, on the MakeHuman base body (13,380
# vertices, the game_engine rig and its artist weights): the page, the viewer, and in
# the viewer the rigged GLB (base64, the geometry the page builds), the data, three.js
# and the viewer script.
#
#   bench/viewer_size.sh [rigsmith binary]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${1:-$root/target/release/rigsmith}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
"$bin" corpus mpfb2 --variant base -o "$out/mh.glb" -q
"$bin" check "$out/mh.glb" --report "$out/rep" -q || [ $? -eq 1 ]
python3 - "$out/rep/report.html" "$root" <<'PY'
import json, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
a = page.index('<section id="viewer">')
b = page.index("</section>", a)
data = re.search(r'id="rs-viewer-data">(.*?)</script>', page, re.S).group(1)
geo = re.search(r'id="rs-viewer-glb-0">(.*?)</script>', page, re.S).group(1)
three = len(open(sys.argv[2] + "/crates/rigsmith-render/assets/three.min.js", encoding="utf-8").read())
d = json.loads(data.replace("<\\/", "</"))
nv = sum(p["vertices"] for m in d["models"] for p in m["parts"])
print(f"report.html {len(page) / 1e6:.2f} MB; viewer {(b - a) / 1e6:.2f} MB: GLB {len(geo) / 1e6:.2f} MB "
      f"(base64, {nv} vertices), data {len(data) / 1e6:.2f} MB, three.js {three / 1e6:.2f} MB; "
      f"sheets and tables {(len(page) - (b - a)) / 1e6:.2f} MB")
PY
