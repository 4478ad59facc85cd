#!/usr/bin/env bash
# The Python package's tests: builds the wheel (maturin, in a venv this script makes
# under ~/.cache/rigsmith/py-venv, or $RIGSMITH_PY_VENV), installs it with numpy, pytest
# and ray, and runs crates/rigsmith-py/tests (the Ray batch test among them). When the
# bpy module's venv is there ($BPY_VENV, default ~/.cache/rigsmith/bpy-venv), the same
# wheel is installed for it (into target/bpy-site, the venv is not changed) and the Blender add-on's test runs inside Blender's Python;
# without it that test is skipped with a message.
#
# Needs python3 (3.10+) with venv and network to PyPI on first use; the rigsmith binary
# is built here when target/release/rigsmith is missing (the tests compare with the CLI).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
VENV=${RIGSMITH_PY_VENV:-$HOME/.cache/rigsmith/py-venv}
BPY_VENV=${BPY_VENV:-$HOME/.cache/rigsmith/bpy-venv}
if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
fi
"$VENV/bin/python" -m pip install -q --disable-pip-version-check maturin pytest numpy ray
[ -x target/release/rigsmith ] || cargo build --release -p rigsmith-cli
rm -rf target/wheels
"$VENV/bin/maturin" build --release --quiet -m crates/rigsmith-py/Cargo.toml -o target/wheels
WHEEL=$(ls target/wheels/rigsmith-*.whl)
"$VENV/bin/python" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "$WHEEL"
export RIGSMITH_BIN=$ROOT/target/release/rigsmith
export RIGSMITH_WHEEL=$ROOT/$WHEEL
bash scripts/zip-addon.sh target/rigsmith_addon.zip >/dev/null
export RIGSMITH_ADDON_ZIP=$ROOT/target/rigsmith_addon.zip
cd crates/rigsmith-py
IGNORE=()
if [ -x "$BPY_VENV/bin/python" ] && "$BPY_VENV/bin/python" -c "import bpy" 2>/dev/null; then
    # For Blender's Python, into a folder of its own on PYTHONPATH: the bpy venv itself
    # is left as it is.
    SITE=$ROOT/target/bpy-site
    rm -rf "$SITE"
    "$BPY_VENV/bin/python" -m pip install -q --disable-pip-version-check --target "$SITE" pytest
    "$BPY_VENV/bin/python" -m pip install -q --disable-pip-version-check --target "$SITE" --no-deps "$RIGSMITH_WHEEL"
    PYTHONPATH=$SITE "$BPY_VENV/bin/python" -m pytest -q -rs -p no:cacheprovider tests/test_blender_addon.py
    IGNORE=(--ignore=tests/test_blender_addon.py)
fi
# Without bpy the add-on's test is collected here and skipped with its message.
"$VENV/bin/python" -m pytest -q -rs -p no:cacheprovider tests "${IGNORE[@]}"
