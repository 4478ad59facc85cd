"""Rig a library of characters on a Ray cluster: one task per character.

    import ray
    from rigsmith.batch.ray import rig_library
    ray.init()                       # or ray.init(address="auto") on a cluster
    summary = rig_library("characters/", "rigged/", template="game")

It writes what ``rigsmith rig characters/ -o rigged/`` writes: ``rigged/STEM.glb`` and
``rigged/STEM.rig.json`` for every character, and ``rigged/summary.json`` with one row
per input (``input``, ``output``, ``ok``, ``blockers``, ``majors``, ``minors``, ``route``,
``seconds``, ``error``) and the files it skipped and why, chosen by the same rules as
the CLI (hidden files ignored; folders, buffers, textures, JSON and unknown extensions
skipped; a second file with the same stem skipped). The output folder must be one every
Ray worker can write (local for a one-machine cluster, a shared file system otherwise).

Failures are isolated: a character that fails (bad input, a crash of its worker) is
retried once, then recorded with its error in its row; the others go on. The function
returns the summary dict.

Priority: Ray starts its worker processes at niceness 15 (its ``worker_niceness``), so
on a machine that also runs other work they get a small share of the CPU (a fifth of
the CLI's throughput was measured on a shared machine). When ``rig_library`` starts
Ray itself it starts it with ``worker_niceness`` 0; a cluster started otherwise keeps
its own setting (``RAY_worker_niceness=0 ray start ...`` gives workers normal priority).
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

MODEL_EXTS = ("glb", "gltf", "vrm", "obj", "fbx")


def batch_inputs(folder: str | os.PathLike) -> tuple[list[Path], list[tuple[Path, str]]]:
    """The characters of ``folder`` (sorted) and the skipped entries with the reason,
    as ``rigsmith rig DIR`` chooses them."""
    inputs: list[Path] = []
    skipped: list[tuple[Path, str]] = []
    stems: dict[str, Path] = {}
    for p in sorted(Path(folder).iterdir()):
        if p.name.startswith("."):
            continue
        ext = p.suffix[1:].lower()
        if p.is_dir():
            skipped.append((p, "a folder (folders are not searched)"))
        elif ext == "bin" or ext.endswith("json") or ext in ("png", "jpg"):
            skipped.append((p, f"not a character (.{ext})"))
        elif ext not in MODEL_EXTS:
            why = ("no extension: not a .glb, .gltf, .vrm, .obj or .fbx file" if not ext
                   else f".{ext} is not read (convert it to .glb, .gltf, .vrm, .obj or .fbx)")
            skipped.append((p, why))
        elif p.stem in stems:
            skipped.append((p, f"same name as {stems[p.stem]}: its output {p.stem}.glb would be overwritten"))
        else:
            stems[p.stem] = p
            inputs.append(p)
    return inputs, skipped


def rig_one(input_path: str, output_path: str, options: dict[str, Any]) -> dict[str, Any]:
    """Rigs one character and writes it; the summary row. Raises on failure (so Ray
    retries the task)."""
    options = dict(options)
    # Before rigsmith's first parallel work in this worker process: its thread pool size.
    os.environ.setdefault("RAYON_NUM_THREADS", str(options.pop("_threads", 1)))
    import rigsmith

    t0 = time.perf_counter()
    out = rigsmith.rig(input_path, output=output_path, **options)
    k = out["report"]["counts"]
    return {
        "input": input_path,
        "output": output_path,
        "ok": k["blocker"] == 0,
        "blockers": k["blocker"],
        "majors": k["major"],
        "minors": k["minor"],
        "route": out["report"]["route"],
        "seconds": time.perf_counter() - t0,
        "error": None,
    }


def rig_library(
    input_dir: str | os.PathLike,
    output_dir: str | os.PathLike,
    *,
    retries: int = 1,
    threads: int = 1,
    **options: Any,
) -> dict[str, Any]:
    """Rigs every character of ``input_dir`` into ``output_dir`` with one Ray task
    each (Ray must be initialised, or is started locally); ``options`` go to
    :func:`rigsmith.rig` (``template``, ``max_influences``, ``rerig``, ``route``,
    ``height``, ``body``, ``garment``, ``rigid``) and apply to every character. Ray is started locally when it is not initialised (workers at normal
    priority, see the module docs). A failed task is retried ``retries`` times. Each task takes one CPU
    and rigs with ``threads`` threads (``RAYON_NUM_THREADS`` of its worker process, set
    before its first rig), so Ray's scheduling decides the parallelism. Writes and returns the summary
    (``{"rigged": [rows], "skipped": [{"path", "why"}]}``)."""
    import ray

    inputs, skipped = batch_inputs(input_dir)
    if not inputs:
        raise ValueError(f"{input_dir}: no .glb, .gltf, .vrm, .obj or .fbx files in this folder")
    out_dir = Path(output_dir)
    if out_dir.exists() and not out_dir.is_dir():
        raise ValueError(f"{out_dir}: exists and is a file; a folder input writes into an output folder")
    out_dir.mkdir(parents=True, exist_ok=True)
    if not ray.is_initialized():
        # Normal priority for the workers (Ray's default niceness 15 starves them on a
        # machine that does anything else), no dashboard.
        ray.init(include_dashboard=False, _system_config={"worker_niceness": 0})
    task = ray.remote(num_cpus=1, max_retries=retries, retry_exceptions=True)(rig_one)
    options = {**options, "_threads": max(1, int(threads))}
    started = []
    for p in inputs:
        out_path = str(out_dir / f"{p.stem}.glb")
        started.append((p, out_path, time.perf_counter(), task.remote(str(p), out_path, options)))
    rows = []
    for p, out_path, t0, ref in started:
        try:
            rows.append(ray.get(ref))
        except Exception as e:  # noqa: BLE001 - one character's failure is its row
            cause = getattr(e, "cause", None) or e
            rows.append({
                "input": str(p), "output": None, "ok": False, "blockers": 0, "majors": 0,
                "minors": 0, "route": None, "seconds": time.perf_counter() - t0,
                "error": str(cause),
            })
    rows.sort(key=lambda r: r["input"])
    summary = {
        "rigged": rows,
        "skipped": [{"path": str(p), "why": why} for p, why in skipped],
    }
    tmp = out_dir / ".summary.json.tmp"
    tmp.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    tmp.replace(out_dir / "summary.json")
    return summary
