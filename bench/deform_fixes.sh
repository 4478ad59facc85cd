#!/bin/bash
# Rigs the demo and every named MakeHuman variant plain (--twist 0, then check
# --no-fixes: plain LBS, no twist bones) and with the deformation fixes (rig: twist
# bones and rules, the preserve-volume mask, the correctives, measured under that
# runtime model), leaving the before/after reports as JSON in the output folder
# (default out/deform_fixes), then prints the BENCHMARKS.md table (bench/deform_table.py).
B=${RIGSMITH:-target/release/rigsmith}
HERE=$(dirname "$(realpath "$0")")
OUT=${1:-out/deform_fixes}; mkdir -p "$OUT"; B=$(realpath "$B"); cd "$OUT"
VARIANTS="demo base female male heavy heavy_female thin muscular tall short old old_female child child_male baby"
for v in $VARIANTS; do
  if [ $v = demo ]; then IN="--demo"; else
    $B corpus mpfb2 --variant $v -o $v.src.glb >/dev/null 2>&1; IN="$v.src.glb --rerig"; fi
  $B rig $IN --twist 0 -o $v.plain.glb --no-review >/dev/null 2>&1
  $B check $v.plain.glb --no-fixes --json > $v.before.json 2>/dev/null
  /usr/bin/time -f "%e" -o $v.time $B rig $IN -o $v.fixed.glb --json > $v.after.json 2>/dev/null
  echo "$v done" >&2
done
python3 "$HERE/deform_table.py" $VARIANTS
