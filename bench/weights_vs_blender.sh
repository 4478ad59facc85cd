#!/usr/bin/env bash
# Skin weights: rigsmith vs Blender's Automatic Weights, side by side in one run.
#
# For each named MakeHuman body variant (rigsmith::io::mpfb2::VARIANTS; and a 0.3x adult, and the body subdivided to 53k and
# 214k vertices) with the game_engine skeleton: rigsmith binds the body
# (examples/bind_mpfb2.rs), Blender 5.0 (bpy 5.0.1 in a Python 3.11 venv) runs
# parent-with-automatic-weights on the same mesh and skeleton, both are timed, and both
# are compared with the artist weights under 13 test poses (bench/weights_compare.py).
#
#   bench/weights_vs_blender.sh [OUT_DIR]      (default target/weights_bench)
#
# Env: RIGSMITH_DATA (corpus, default ../shared/data/mpfb2), BPY_VENV (default
# ~/.cache/rigsmith/bpy-venv), CASES (default: all), SKIP_BIG=1 to skip 214k.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-target/weights_bench}
DATA=${RIGSMITH_DATA:-../shared/data/mpfb2}
VENV=${BPY_VENV:-$HOME/.cache/rigsmith/bpy-venv}
mkdir -p "$OUT"
if [ ! -x "$VENV/bin/python" ]; then
  python3.11 -m venv "$VENV"
  "$VENV/bin/pip" install -q bpy==5.0.1 numpy
fi
cargo build -q -p rigsmith --release --example bind_mpfb2
EX=target/release/examples/bind_mpfb2
# name variant scale subdiv repeat
CASES_DEFAULT="base:base:1:0:3 female:female:1:0:3 male:male:1:0:3 heavy:heavy:1:0:3 heavy_female:heavy_female:1:0:3 thin:thin:1:0:3 muscular:muscular:1:0:3 tall:tall:1:0:3 short:short:1:0:3 old:old:1:0:3 old_female:old_female:1:0:3 child:child:1:0:3 child_male:child_male:1:0:3 baby:baby:1:0:3 adult_0.3x:base:0.3:0:3 base_53k:base:1:1:3 base_214k:base:1:2:3"
CASES=${CASES:-$CASES_DEFAULT}
: > "$OUT/results.jsonl"
for c in $CASES; do
  IFS=: read -r name variant scale subdiv repeat <<< "$c"
  if [ "${SKIP_BIG:-0}" = 1 ] && [ "$subdiv" = 2 ]; then continue; fi
  d="$OUT/$name"
  mkdir -p "$d"
  "$EX" --data "$DATA" --variant "$variant" --scale "$scale" --subdiv "$subdiv" --repeat "$repeat" --out "$d"
  "$VENV/bin/python" bench/weights_blender.py "$d" "$repeat"
  echo "{\"case\": \"$name\", \"result\": $("$VENV/bin/python" bench/weights_compare.py "$d")}" >> "$OUT/results.jsonl"
done
"$VENV/bin/python" - "$OUT/results.jsonl" <<'PY'
import json, sys
# The peer is Blender's run that succeeded: the plain one, or, where the plain one left
# vertices unweighted (small figures, fine meshes), the rerun scaled up to 17 m.
rows = [json.loads(l) for l in open(sys.argv[1])]
print("| case | vertices | rigsmith mean / p95 / max (% H) | Blender mean / p95 / max (% H) | p95 ratio | max ratio | unweighted rigsmith / Blender plain | time rigsmith / Blender (s) | time ratio |")
print("|---|---|---|---|---|---|---|---|---|")
nan = float("nan")
for r in rows:
    x = r["result"]; a = x.get("rigsmith", {})
    scaled = "blender_scaled" in x
    b = x.get("blender_scaled" if scaled else "blender", {})
    f = lambda m: f"{m.get('mean', nan):.3f} / {m.get('p95', nan):.3f} / {m.get('max', nan):.3f}"
    rp = a.get("p95", 0) / b["p95"] if b.get("p95") else nan
    rm = a.get("max", 0) / b["max"] if b.get("max") else nan
    ts = x.get("rigsmith_seconds", nan)
    tb = x.get("blender_scaled_seconds" if scaled else "blender_seconds", nan)
    note = ""
    if scaled:
        note = f" (scaled x{x.get('blender_scaled_factor', nan):.1f}; plain run {x.get('blender_seconds', nan):.3f} s, nothing weighted)"
    print(f"| {r['case']} | {x['vertices']} | {f(a)} | {f(b)}{' *' if scaled else ''} | {rp:.2f} | {rm:.2f} | {x.get('rigsmith_unweighted')} / {x.get('blender_unweighted')} | {ts:.3f} / {tb:.3f}{note} | {ts / tb:.2f} |")
PY
