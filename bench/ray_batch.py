"""Throughput of rigsmith.batch.ray on one machine against `rigsmith rig DIR --jobs 2`.

    $PY_VENV/bin/python bench/ray_batch.py [N]      # N mannequins (default 8)

Makes N mannequins of different builds with the CLI, then rigs the folder twice: with
the CLI (`--jobs 2`, threads in one process) and with `rig_library` on a local Ray
started with 2 CPUs (one process per worker). Prints seconds and characters per minute
of each round (the two alternate), Ray's start-up apart, and the ratio of the best. Needs the wheel installed (scripts/
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


def main(n, rounds=2):
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
        ray.init(num_cpus=2, include_dashboard=False)
        start = time.perf_counter() - t0
        cli, rs = [], []
        # Alternated, so a change of load on a shared machine hits both alike.
        for k in range(rounds):
            t0 = time.perf_counter()
            r = subprocess.run([CLI, "rig", str(lib), "-o", str(Path(d) / f"cli{k}"), "--jobs", "2", "-q"])
            cli.append(time.perf_counter() - t0)
            assert r.returncode in (0, 1), r.returncode
            t0 = time.perf_counter()
            s = rig_library(lib, Path(d) / f"ray{k}")
            rs.append(time.perf_counter() - t0)
            assert all(row["error"] is None for row in s["rigged"]), s
        ray.shutdown()
    print(f"{n} characters, 2 workers, {rounds} alternated rounds, load average {os.getloadavg()[0]:.1f} at the end")
    print(f"rig DIR --jobs 2      " + "  ".join(f"{t:6.1f} s" for t in cli) + f"   best {60 * n / min(cli):5.1f} characters/min")
    print(f"rigsmith.batch.ray    " + "  ".join(f"{t:6.1f} s" for t in rs) + f"   best {60 * n / min(rs):5.1f} characters/min (+ {start:.1f} s ray.init, once)")
    print(f"ratio ray / CLI       {min(rs) / min(cli):7.2f} (best of each)")

if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 8)
