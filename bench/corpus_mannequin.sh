#!/usr/bin/env bash
# Wall time of building and writing the corpus bodies and the mannequin with the
# release binary: median of N runs (default 5). Usage: bench/corpus_mannequin.sh [N]
# Build first: cargo build --release -p rigsmith-cli
set -euo pipefail
cd "$(dirname "$0")/.."
bin=target/release/rigsmith
n="${1:-5}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
median() {
    local name="$1"; shift
    local times=()
    for _ in $(seq "$n"); do
        local t0 t1
        t0=$(date +%s.%N)
        "$bin" -q "$@" >/dev/null
        t1=$(date +%s.%N)
        times+=("$(echo "$t1 - $t0" | bc -l)")
    done
    printf '%s\n' "${times[@]}" | sort -g | awk -v name="$name" '{a[NR]=$1} END {printf "%-44s %.3f s\n", name, a[int((NR+1)/2)]}'
}
median "corpus base, game_engine, body"             corpus mpfb2 --variant base -o "$out/a.glb"
median "corpus female, game_engine, all 8 parts"    corpus mpfb2 --variant female --parts body,eyes,eyelashes,teeth,tongue,tights,skirt,hair -o "$out/b.glb"
median "corpus base, default rig (163 bones)"       corpus mpfb2 --rig default -o "$out/c.glb"
median "mannequin T, body+eyes+shirt"               mannequin -o "$out/d.glb"
median "mannequin A, + skirt + hair"                mannequin --pose a --skirt --hair -o "$out/e.glb"
median "mannequin raw"                              mannequin --raw -o "$out/f.glb"
