#!/usr/bin/env bash
# Re-weighting real characters: strip a rigged character's weights, weight it again with
# its own skeleton, and compare with its own (artist) weights under 13 test poses.
#
# Methods: rigsmith (library bind, examples/reweight_case.rs), rigsmith with the
# geodesic route forced (same example; GEODESIC=alpha,exponent,reach,margin[,past_end] tunes it), Blender 5.0's Automatic
# Weights (bpy 5.0.1 in a Python 3.11 venv, every part selected with the armature), and a
# nearest-bone baseline (each vertex 1.0 on the closest deform bone segment).
#
# Characters (CASES, space separated):
#   NAME            a Quaternius GLB at $QUATERNIUS/NAME.glb, as it comes (multi-part)
#   VARIANT.welded  a MakeHuman body, one welded mesh (rigsmith corpus mpfb2 --variant)
#   VARIANT.split   the same body cut into head/torso/arms/legs/feet (--split)
#   VARIANT.dressed split, with shirt, trousers and hat (--split --dress shirt,trousers,hat)
#   VARIANT.skirted split, with shirt, ankle-long skirt and hat
#   VARIANT.mhskirt split, with MakeHuman's own skirt (artist-weighted), shirt and hat
#
#   bench/reweight.sh [OUT_DIR]          (default target/reweight_bench)
#   CASES="men_Casual base.split" bench/reweight.sh
#   ALL=1 bench/reweight.sh              (every MakeHuman variant welded, split, dressed, skirted, mhskirt)
#
# Env: RIGSMITH_DATA (MakeHuman corpus, default ../shared/data/mpfb2), QUATERNIUS
# (default: beside it), BPY_VENV (default ~/.cache/rigsmith/bpy-venv), NO_BLENDER=1 to
# skip Blender (its columns then read n/a), BLENDER_CACHE (default
# ~/.cache/rigsmith/reweight-blender). Writes OUT_DIR/results.jsonl and prints
# OUT_DIR/results.md (bench/reweight_table.py). Each case's folder OUT_DIR/CASE keeps
# the weights of every method: bench/reweight_regions.py OUT_DIR/CASE swaps the
# artist's or Blender's into rigsmith's one part or box at a time and says which
# vertices decide each pose.
#
# Blender's Automatic Weights outputs are cached (its run is the slow, external part:
# 1 to 2 s per default case on 2 shared cores, much more on large meshes), keyed by the SHA-256 of what it reads (mesh.obj, skeleton.json)
# and of bench/reweight_blender.py: a case whose inputs did not change reuses them.
# With NO_BLENDER=1 cached Blender outputs are still used when there are some.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-target/reweight_bench}
DATA=${RIGSMITH_DATA:-../shared/data/mpfb2}
QDIR=${QUATERNIUS:-$DATA/../quaternius}
VENV=${BPY_VENV:-$HOME/.cache/rigsmith/bpy-venv}
BCACHE=${BLENDER_CACHE:-$HOME/.cache/rigsmith/reweight-blender}
mkdir -p "$OUT"
if [ ! -x "$VENV/bin/python" ]; then
  python3.11 -m venv "$VENV"
  "$VENV/bin/pip" install -q bpy==5.0.1 numpy
fi
PY="$VENV/bin/python"
cargo build -q --release -p rigsmith-cli --bin rigsmith
cargo build -q --release -p rigsmith --example reweight_case
CLI=target/release/rigsmith
EX=target/release/examples/reweight_case
QUAT="men_Casual men_Farmer knight_KnightCharacter platformer_Character_HumanoidRig"
VARIANTS="base female male heavy heavy_female thin muscular tall short old old_female child child_male baby"
if [ "${ALL:-0}" = 1 ]; then
  DEFAULT="$QUAT"
  for v in $VARIANTS; do DEFAULT="$DEFAULT $v.welded $v.split $v.dressed $v.skirted $v.mhskirt"; done
else
  DEFAULT="$QUAT base.welded base.split base.dressed female.split female.skirted female.mhskirt base.mhskirt heavy.dressed child.dressed"
fi
CASES=${CASES:-$DEFAULT}
: > "$OUT/results.jsonl"
for c in $CASES; do
  d="$OUT/$c"
  mkdir -p "$d"
  if [ -f "$QDIR/$c.glb" ]; then
    in="$QDIR/$c.glb"
  else
    variant=${c%.*}
    kind=${c##*.}
    in="$d/input.glb"
    case "$kind" in
      welded) extra=() ;;
      split) extra=(--split) ;;
      dressed) extra=(--split --dress shirt,trousers,hat) ;;
      skirted) extra=(--split --dress shirt,skirt,hat) ;;
      mhskirt) extra=(--split --parts body,skirt --dress shirt,hat) ;;
      *) echo "unknown case $c" >&2; exit 2 ;;
    esac
    "$CLI" -q corpus mpfb2 --data "$DATA" --variant "$variant" "${extra[@]}" -o "$in"
  fi
  rm -f "$d/blender_weights.json" "$d/blender_scaled_weights.json"
  "$EX" "$in" "$d"
  key=$(cat "$d/mesh.obj" "$d/skeleton.json" bench/reweight_blender.py | sha256sum | cut -c1-32)
  kc="$BCACHE/$key"
  if [ -f "$kc/blender_weights.json" ]; then
    echo "blender $c: cached ($kc)"
    cp "$kc"/blender_*weights.json "$d/"
  elif [ "${NO_BLENDER:-0}" != 1 ]; then
    "$PY" bench/reweight_blender.py "$d"
    mkdir -p "$kc"
    cp "$d"/blender_*weights.json "$kc/"
  fi
  echo "{\"case\": \"$c\", \"result\": $("$PY" bench/reweight_compare.py "$d")}" >> "$OUT/results.jsonl"
done
"$PY" bench/reweight_table.py "$OUT/results.jsonl" | tee "$OUT/results.md"
