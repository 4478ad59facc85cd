"""Throughput of rigsmith.batch.ray on one machine against `rigsmith rig DIR --jobs 2`,
and where Ray's time goes.

    $PY_VENV/bin/python bench/ray_batch.py [N] [ROUNDS] [NICE]
    # N mannequins (default 8), 2 rounds, Ray's workers at niceness NICE (default 0;
    # 15 is Ray's own default)

Makes N mannequins of different builds with the CLI, then rigs the folder ROUNDS times
with each, alternated: with the CLI (`--jobs 2`, threads in one process) and with
`rig_library` on a local Ray started with 2 CPUs (one process per worker). For each
round it prints the wall time, the sum of the per-character seconds of summary.json
(the rigging itself), and the CPU seconds (user + system) of the CLI process, or of
Ray's processes (the driver's descendants: GCS, raylet, agents, workers), read from
/proc before and after. Ray's start-up (`ray.init`) is measured apart, once. Needs
the wheel installed (scripts/test-python.sh does it) and target/release/rigsmith.
"""
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLI = os.environ.get("RIGSMITH_BIN", str(ROOT / "target" / "release" / "rigsmith"))
TICK = os.sysconf("SC_CLK_TCK")


def descendants_cpu(root_pid):
    """CPU seconds (user + system) of the live descendants of ``root_pid``, by name."""
    children = {}
    stats = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                s = f.read()
        except OSError:
            continue
        name = s[s.index("(") + 1:s.rindex(")")]
        rest = s[s.rindex(")") + 2:].split()
        ppid, utime, stime = int(rest[1]), int(rest[11]), int(rest[12])
        children.setdefault(ppid, []).append(int(d))
        stats[int(d)] = (name, (utime + stime) / TICK)
    out = {}
    todo = list(children.get(root_pid, []))
    while todo:
        p = todo.pop()
        name, cpu = stats[p]
        out[p] = (name, cpu)
        todo.extend(children.get(p, []))
    return out


def cpu_by_name(before, after):
    """CPU seconds spent between two samples, summed by process name (a process that
    started in between counts from 0)."""
    spent = {}
    for pid, (name, cpu) in after.items():
        key = "ray worker" if name.startswith("ray::") else name
        spent[key] = spent.get(key, 0.0) + cpu - before.get(pid, (name, 0.0))[1]
    return spent


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main(n, rounds=2, nice=0):
    import json

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
        ray.init(num_cpus=2, include_dashboard=False, _system_config={"worker_niceness": nice})
        start = time.perf_counter() - t0
        cli, rs = [], []
        # Alternated, so a change of load on a shared machine hits both alike.
        for k in range(rounds):
            c0 = children_cpu()
            t0 = time.perf_counter()
            r = subprocess.run([CLI, "rig", str(lib), "-o", str(Path(d) / f"cli{k}"), "--jobs", "2", "-q"])
            wall = time.perf_counter() - t0
            assert r.returncode in (0, 1), r.returncode
            rows = json.loads((Path(d) / f"cli{k}" / "summary.json").read_text())["rigged"]
            cli.append((wall, sum(x["seconds"] for x in rows), children_cpu() - c0, os.getloadavg()[0]))
            b = descendants_cpu(os.getpid())
            p0 = time.process_time()
            t0 = time.perf_counter()
            s = rig_library(lib, Path(d) / f"ray{k}")
            wall = time.perf_counter() - t0
            driver = time.process_time() - p0
            spent = cpu_by_name(b, descendants_cpu(os.getpid()))
            assert all(row["error"] is None for row in s["rigged"]), s
            rs.append((wall, sum(x["seconds"] for x in s["rigged"]), sum(spent.values()) + driver,
                       os.getloadavg()[0], spent, driver))
        ray.shutdown()
    print(f"{n} characters, 2 workers at niceness {nice}, {rounds} alternated rounds; "
          f"ray.init {start:.1f} s (once)")
    print(f"{'run':<22} {'wall s':>7} {'rig s (sum)':>12} {'CPU s':>7} {'load':>5}")
    for k in range(rounds):
        w, t, c, la = cli[k]
        print(f"{'rig DIR --jobs 2':<22} {w:7.1f} {t:12.1f} {c:7.1f} {la:5.1f}")
        w, t, c, la, spent, driver = rs[k]
        print(f"{'rigsmith.batch.ray':<22} {w:7.1f} {t:12.1f} {c:7.1f} {la:5.1f}")
        parts = sorted(spent.items(), key=lambda kv: -kv[1])
        print("    CPU s by process: " + ", ".join(f"{name} {v:.1f}" for name, v in parts if v >= 0.05)
              + f", driver {driver:.1f}")
    best_cli, best_ray = min(c[0] for c in cli), min(r[0] for r in rs)
    print(f"best: CLI {60 * n / best_cli:.1f}, Ray {60 * n / best_ray:.1f} characters/min; "
          f"ratio ray / CLI {best_ray / best_cli:.2f}")


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:4]]
    main(*args) if args else main(8)
