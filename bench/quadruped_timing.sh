#!/usr/bin/env bash
# Fit plus weights on a procedural animal of about 5k vertices: `rigsmith rig --template
# auto --no-review` on the built-in wolf (`rigsmith mannequin --animal wolf --grid G`),
# RUNS times; prints each run's fit and weights stage times (the rig command's own
# timings) and the best and median of fit + weights.
#
#   bench/quadruped_timing.sh [OUT_DIR]     (default target/quadruped_timing)
#
# Env: RUNS (default 7), GRID (default 0.018: about 5k vertices), BEAST (wolf|horse|cat).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-target/quadruped_timing}
RUNS=${RUNS:-7}
GRID=${GRID:-0.018}
BEAST=${BEAST:-wolf}
mkdir -p "$OUT"
cargo build -q --release -p rigsmith-cli --bin rigsmith
CLI=target/release/rigsmith
"$CLI" -q mannequin --animal "$BEAST" --grid "$GRID" --height 0.9 -o "$OUT/animal.glb"
: > "$OUT/runs.jsonl"
for i in $(seq "$RUNS"); do
  "$CLI" rig "$OUT/animal.glb" -o "$OUT/rigged.glb" --template auto --no-review --json \
    | python3 -c 'import json,sys; r=json.load(sys.stdin)["result"]; t={x["stage"]: x["seconds"] for x in r["timings"]}; print(json.dumps({"fit": t["fit"], "weights": t["weights"], "route": r["route"]}))' \
    >> "$OUT/runs.jsonl"
done
python3 - "$OUT/runs.jsonl" "$OUT/animal.glb" <<'PY'
import json, statistics, sys, struct
runs = [json.loads(l) for l in open(sys.argv[1])]
b = open(sys.argv[2], "rb").read()
j = json.loads(b[20:20 + struct.unpack("<I", b[12:16])[0]])
nv = sum(j["accessors"][p["attributes"]["POSITION"]]["count"] for m in j["meshes"] for p in m["primitives"])
tot = [r["fit"] + r["weights"] for r in runs]
print(f"{nv} vertices, {len(runs)} runs, route {runs[0]['route']}")
for r in runs:
    print(f"  fit {1000 * r['fit']:.1f} ms  weights {1000 * r['weights']:.1f} ms")
print(f"fit + weights: best {1000 * min(tot):.1f} ms, median {1000 * statistics.median(tot):.1f} ms")
PY
