"""Shared fixtures: the repository, the rigsmith CLI (to compare with), characters."""
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def cli() -> str:
    exe = os.environ.get("RIGSMITH_BIN") or str(ROOT / "target" / "release" / "rigsmith")
    if not Path(exe).is_file():
        pytest.fail(f"the rigsmith CLI is not built at {exe} (cargo build --release -p rigsmith-cli)")
    return exe


def run_cli(*args, check=True):
    r = subprocess.run([cli(), *map(str, args)], capture_output=True, text=True)
    if check and r.returncode not in (0, 1):
        raise AssertionError(f"rigsmith {' '.join(map(str, args))}: exit {r.returncode}\n{r.stderr}")
    return r


@pytest.fixture(scope="session")
def quaternius():
    return ROOT / "data" / "quaternius"


@pytest.fixture(scope="session")
def mannequin(tmp_path_factory):
    """The built-in mannequin (unrigged), written by the CLI."""
    p = tmp_path_factory.mktemp("mannequin") / "mannequin.glb"
    run_cli("mannequin", "-o", p, "-q")
    return p


@pytest.fixture(scope="session")
def makehuman_body(tmp_path_factory):
    """A MakeHuman body with its artist skeleton (the corpus, found as the Rust tests
    find it)."""
    p = tmp_path_factory.mktemp("mh") / "body.glb"
    args = ["corpus", "mpfb2", "--variant", "female", "--parts", "body", "-o", p, "-q"]
    data = os.environ.get("RIGSMITH_DATA")
    if not data and (ROOT.parent / "shared" / "data" / "mpfb2").is_dir():
        data = str(ROOT.parent / "shared" / "data" / "mpfb2")
    if not data:
        data = str(Path.home() / ".cache" / "rigsmith" / "mpfb2")
        if not Path(data).is_dir():
            subprocess.run(["bash", str(ROOT / "scripts" / "fetch-data.sh")], check=True,
                           env={**os.environ, "RIGSMITH_DATA": data})
    args += ["--data", data]
    run_cli(*args)
    return p


@pytest.fixture()
def tmp(tmp_path):
    yield tmp_path
    shutil.rmtree(tmp_path, ignore_errors=True)
