"""Throughput of rigsmith.batch.ray on one machine against `rigsmith rig DIR --jobs 2`.

    $PY_VENV/bin/python bench/ray_batch.py [N]      # N mannequins (default 8)

Makes N mannequins of different builds with the CLI, then rigs the folder twice: with
the CLI (`--jobs 2`, threads in one process) and with `rig_library` on a local Ray
started with 2 CPUs (one process per worker). Prints seconds and characters per minute
of each, Ray's start-up apart, and the ratio. Needs the wheel installed (scripts/
test-python.sh does it) and target/release/rigsmith.
"""
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLI = os.environ.get("RIGSMITH_BIN", str(ROOT / "target" / "release" / "rigsmith"))


def main(n):
    import ray
    from rigsmith.batch.ray import rig_library

    with tempfile.TemporaryDirectory() as d:
        lib = Path(d) / "lib"
        lib.mkdir()
        for i in range(n):
            h = 1.5 + 0.5 * i / max(n - 1, 1)
            pose = "a" if i % 2 else "t"
            subprocess.run([CLI, "mannequin", "--height", f"{h:.2f}", "--pose", pose, "-o",
                            str(lib / f"m{i}.glb"), "-q"], check=True)
        t0 = time.perf_counter()
        r = subprocess.run([CLI, "rig", str(lib), "-o", str(Path(d) / "cli"), "--jobs", "2", "-q"])
        cli = time.perf_counter() - t0
        assert r.returncode in (0, 1), r.returncode
        t0 = time.perf_counter()
        ray.init(num_cpus=2, include_dashboard=False)
        start = time.perf_counter() - t0
        t0 = time.perf_counter()
        s = rig_library(lib, Path(d) / "ray")
        rs = time.perf_counter() - t0
        ray.shutdown()
        assert all(row["error"] is None for row in s["rigged"]), s
    print(f"{n} characters, 2 workers, load average {os.getloadavg()[0]:.1f}")
    print(f"rig DIR --jobs 2      {cli:7.1f} s  {60 * n / cli:6.1f} characters/min")
    print(f"rigsmith.batch.ray    {rs:7.1f} s  {60 * n / rs:6.1f} characters/min (+ {start:.1f} s ray.init)")
    print(f"ratio ray / CLI       {rs / cli:7.2f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 8)
