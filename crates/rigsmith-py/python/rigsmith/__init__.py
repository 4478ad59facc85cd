"""rigsmith: headless character rigging from Python.

Give it a character mesh and it returns a rig it has checked: a skeleton fitted to the
body, skin weights, a report. The same library as the ``rigsmith`` command line, called
in-process (the GIL is released while it works, so threads run in parallel)::

    import rigsmith
    out = rigsmith.rig("character.glb", output="rigged.glb")
    print(out["report"]["counts"])

    V, F = ...                      # numpy arrays: n x 3 positions (metres, +Y up), m x 3 faces
    skel = rigsmith.fit((V, F))["skeleton"]
    W = rigsmith.weights(V, F, skel)  # n x len(skel["bones"]) float32

A *character* is a file path (``.glb``, ``.gltf``, ``.vrm``, ``.obj``, ``.fbx``; read into
glTF space with the unit read from the height, as the CLI does), a ``(vertices, faces)``
pair, or a list of parts ``(name, vertices, faces)``. Arrays are in glTF space: metres,
+Y up, the character facing +Z.

Errors: bad arrays raise ``ValueError`` naming the argument; what the library refuses
raises :class:`InputError` (a ``ValueError``) with the CLI's message; a file that cannot
be read or written raises ``OSError``.
"""
from __future__ import annotations

import json
import os
from typing import Any

import numpy as np

from . import _rigsmith
from ._rigsmith import InputError, __version__

__all__ = [
    "InputError",
    "__version__",
    "check",
    "fit",
    "fix_weights",
    "inspect",
    "load",
    "pose",
    "rig",
    "simulate",
    "weights",
]


def _vertices(v: Any, name: str) -> np.ndarray:
    a = np.asarray(v)
    if a.dtype == object or not (np.issubdtype(a.dtype, np.floating) or np.issubdtype(a.dtype, np.integer)):
        raise ValueError(f"{name}: dtype {a.dtype} is not a real number type (expected float32 or float64)")
    if a.ndim != 2 or a.shape[1] != 3:
        raise ValueError(f"{name}: expected shape (n, 3), got {a.shape}")
    if a.shape[0] == 0:
        raise ValueError(f"{name}: no vertices")
    a = np.ascontiguousarray(a, dtype="<f4")
    bad = ~np.isfinite(a).all(axis=1)
    if bad.any():
        i = int(np.argmax(bad))
        raise ValueError(f"{name}: row {i} is not finite ({a[i].tolist()}); {int(bad.sum())} such rows")
    return a


def _faces(f: Any, n: int, name: str) -> np.ndarray:
    a = np.asarray(f)
    if not np.issubdtype(a.dtype, np.integer):
        raise ValueError(f"{name}: dtype {a.dtype} is not an integer type (expected int32, int64 or uint32)")
    if a.ndim != 2 or a.shape[1] != 3:
        raise ValueError(f"{name}: expected shape (m, 3) triangles, got {a.shape}")
    if a.size:
        lo, hi = int(a.min()), int(a.max())
        if lo < 0 or hi >= n:
            bad = int(np.argmax(((a < 0) | (a >= n)).any(axis=1)))
            raise ValueError(
                f"{name}: row {bad} {a[bad].tolist()} has an index out of range for {n} vertices"
            )
    return np.ascontiguousarray(a, dtype="<u4")


def _part(name: str, v: Any, f: Any, label: str) -> tuple[str, bytes, bytes]:
    V = _vertices(v, f"{label}vertices")
    F = _faces(f, len(V), f"{label}faces")
    return (str(name), V.tobytes(), F.tobytes())


def _source(character: Any, faces: Any = None) -> Any:
    """A path string, or the parts list the native module takes."""
    if isinstance(character, (str, os.PathLike)):
        if faces is not None:
            raise ValueError("faces: given with a file path (give arrays, or the path alone)")
        return os.fspath(character)
    if faces is not None:
        return [_part("body", character, faces, "")]
    if isinstance(character, tuple) and len(character) == 2:
        return [_part("body", character[0], character[1], "")]
    if isinstance(character, (list, tuple)):
        out = []
        for i, p in enumerate(character):
            if isinstance(p, dict):
                name, v, f = p.get("name", f"part{i}"), p.get("vertices"), p.get("faces")
            elif isinstance(p, (list, tuple)) and len(p) == 3:
                name, v, f = p
            else:
                raise ValueError(f"character: part {i} is not (name, vertices, faces) or a dict with them")
            out.append(_part(name, v, f, f"part {name!r}: "))
        if not out:
            raise ValueError("character: no parts")
        return out
    raise ValueError(
        "character: expected a file path, (vertices, faces) arrays, or a list of (name, vertices, faces)"
    )


def _skeleton_text(skeleton: Any) -> tuple[str, list[str]]:
    """skeleton.json text and the bone names in the caller's order."""
    if isinstance(skeleton, (str, os.PathLike)) and os.path.isfile(skeleton):
        with open(skeleton, encoding="utf-8") as fh:
            skeleton = json.load(fh)
    elif isinstance(skeleton, str):
        skeleton = json.loads(skeleton)
    if not isinstance(skeleton, dict) or not isinstance(skeleton.get("bones"), list):
        raise ValueError('skeleton: expected a dict {"bones": [...]} (skeleton.json), its text or its path')
    names = [str(b.get("name")) for b in skeleton["bones"]]
    return json.dumps(skeleton), names


def _weights(buf: bytes | None, n: int) -> np.ndarray | None:
    if buf is None:
        return None
    w = np.frombuffer(buf, dtype="<f4")
    return w.reshape(n, -1).copy() if n else w.reshape(0, 0).copy()


def _character(d: dict) -> dict:
    parts = []
    for p in d["parts"]:
        V = np.frombuffer(p["vertices"], dtype="<f4").reshape(-1, 3).copy()
        F = np.frombuffer(p["faces"], dtype="<u4").reshape(-1, 3).astype(np.int64)
        parts.append({
            "name": p["name"],
            "material": p["material"],
            "vertices": V,
            "faces": F,
            "weights": _weights(p["weights"], len(V)),
        })
    skel = json.loads(d["skeleton"]) if d["skeleton"] else None
    out = {
        "parts": parts,
        "skeleton": skel,
        "bones": [b["name"] for b in skel["bones"]] if skel else [],
        "warnings": list(d["warnings"]),
        "notes": list(d["notes"]),
    }
    if "report" in d:
        out["report"] = json.loads(d["report"])
        out["written"] = [os.fspath(p) for p in d["written"]]
    return out


def load(path: str | os.PathLike) -> dict:
    """Reads a character file into glTF space.

    Returns ``{"parts": [{"name", "material", "vertices" (n x 3 float32), "faces"
    (m x 3 int64), "weights" (n x bones float32, or None)}], "skeleton": dict or None,
    "bones": [names, the weights' columns], "warnings": [...], "notes": [...]}``.
    """
    if not isinstance(path, (str, os.PathLike)):
        raise ValueError("path: expected a file path")
    return _character(_rigsmith.load(os.fspath(path)))


def inspect(character: Any, faces: Any = None) -> dict:
    """A quick look at a model (``rigsmith inspect --json``): parts, skeleton, chains,
    weights."""
    return json.loads(_rigsmith.inspect(_source(character, faces)))


def fit(character: Any, faces: Any = None, *, template: str = "game", twist: int = 0) -> dict:
    """Fits a skeleton to an unrigged character (``rigsmith fit``).

    Returns ``{"skeleton": {"bones": [...]}, "checks": [...], "humanoid": {...}}``; the
    skeleton is in skeleton.json form (pass it to :func:`weights`). ``template``: game,
    basic, mixamo or vrm.
    """
    if not isinstance(twist, int) or twist < 0:
        raise ValueError(f"twist: expected a whole number >= 0, got {twist!r}")
    return json.loads(_rigsmith.fit(_source(character, faces), template, twist))


def weights(
    vertices: Any,
    faces: Any = None,
    skeleton: Any = None,
    *,
    max_influences: int = 4,
    route: str | None = None,
    report: bool = False,
) -> Any:
    """Skin weights on a skeleton (``rigsmith weights``).

    ``weights(V, F, skeleton)`` returns an ``n x len(skeleton["bones"])`` float32 array,
    columns in the order of ``skeleton["bones"]``. ``weights("body.glb", skeleton=S)``
    (or a list of parts) returns ``{part name: array}``. ``skeleton``: a dict in
    skeleton.json form, its text, or its path. ``route``: bone-heat, volumetric or
    geodesic (default: bone heat with its verified fallback). ``report=True`` returns
    ``(weights, report dict)``.
    """
    if skeleton is None:
        raise ValueError("skeleton: required (a skeleton.json dict, its text or its path)")
    if not isinstance(max_influences, int) or not 1 <= max_influences <= 8:
        raise ValueError(f"max_influences: must be between 1 and 8, got {max_influences!r}")
    text, order = _skeleton_text(skeleton)
    src = _source(vertices, faces)
    bufs, names, rep = _rigsmith.weights(src, text, max_influences, route)
    cols = [names.index(n) for n in order]
    arrays = []
    for buf in bufs:
        w = np.frombuffer(buf, dtype="<f4").reshape(-1, len(names))
        arrays.append(np.ascontiguousarray(w[:, cols]))
    if isinstance(src, list) and (faces is not None or (isinstance(vertices, tuple) and len(vertices) == 2)):
        result: Any = arrays[0]
    else:
        got = _rigsmith.load(src)["parts"] if isinstance(src, str) else [{"name": p[0]} for p in src]
        result = {p["name"]: a for p, a in zip(got, arrays)}
    return (result, json.loads(rep)) if report else result


def rig(
    character: Any,
    faces: Any = None,
    *,
    template: str = "game",
    max_influences: int = 4,
    rerig: bool = False,
    route: str | None = None,
    height: float | None = None,
    output: str | os.PathLike | None = None,
    keep_origin: bool = False,
) -> dict:
    """The whole job (``rigsmith rig``): model check and fix, fit, weights with
    verification and fallback, chains, review.

    Returns the rigged character as :func:`load` does, plus ``"report"`` (``route``,
    ``counts`` of failed checks by severity, ``checks``: the review as ``check`` returns
    it, ``pipeline``: model, fixes, placement, part roles, timings; ``changes``) and
    ``"written"`` (the files written when ``output`` names a ``.glb``/``.gltf``: it and
    its ``.rig.json`` sidecar). An already rigged input is refused unless ``rerig``.
    ``keep_origin``: the rig stays where the input stood (it is rigged on the floor and
    centred, then moved back), as ``rig --keep-origin``.
    """
    if not isinstance(max_influences, int) or not 1 <= max_influences <= 8:
        raise ValueError(f"max_influences: must be between 1 and 8, got {max_influences!r}")
    if height is not None and not (isinstance(height, (int, float)) and np.isfinite(height) and height > 0):
        raise ValueError(f"height: must be a positive number of metres, got {height!r}")
    out = None if output is None else os.fspath(output)
    d = _rigsmith.rig(
        _source(character, faces), template, max_influences, bool(rerig), route,
        None if height is None else float(height), out, bool(keep_origin),
    )
    return _character(d)


def check(character: Any, *, max_influences: int = 4) -> dict:
    """The rubric check of a rigged character in the default test poses (``rigsmith
    check --json``): ``{"checks": [...], "counts": {...}, "not_verified": [...], ...}``."""
    if not isinstance(character, (str, os.PathLike)):
        raise ValueError("character: check reads a rigged file (a path)")
    return json.loads(_rigsmith.check(os.fspath(character), max_influences))


def simulate(character: Any, *, motion: str = "walk", seconds: float = 3.0) -> dict:
    """Spring-bone secondary motion (``rigsmith simulate --json``): the character is
    rigged as the VRM exporter does (a rigged one kept), then driven by ``motion``
    (rest, walk, run, jump, spin, sway) for ``seconds``."""
    return json.loads(_rigsmith.simulate(_source(character), motion, float(seconds)))


def fix_weights(
    vertices: Any,
    weights: Any,
    skeleton: Any,
    *,
    limit: float = 0.001,
    max_influences: int = 4,
    strip_opposite_side: bool = True,
) -> tuple[np.ndarray, dict]:
    """Weight fixes as data (no brush) on one part.

    ``weights``: n x len(skeleton["bones"]) (columns in that order). Takes the weights of
    one side's bones off the other half of the body (``strip_opposite_side``), drops
    influences below ``limit``, keeps the ``max_influences`` largest and renormalizes
    (a vertex whose influences are all below the limit keeps its largest). Returns the
    fixed array and ``{"stripped": vertices that lost cross-side weight, "changed":
    vertices whose weights changed}``.
    """
    V = _vertices(vertices, "vertices")
    W = np.asarray(weights)
    if not np.issubdtype(W.dtype, np.floating):
        raise ValueError(f"weights: dtype {W.dtype} is not a float type")
    text, order = _skeleton_text(skeleton)
    if W.ndim != 2 or W.shape != (len(V), len(order)):
        raise ValueError(f"weights: expected shape ({len(V)}, {len(order)}), got {W.shape}")
    if not np.isfinite(W).all():
        raise ValueError("weights: holds NaN or infinite values")
    if not isinstance(max_influences, int) or not 1 <= max_influences <= 8:
        raise ValueError(f"max_influences: must be between 1 and 8, got {max_influences!r}")
    if not 0.0 <= limit < 1.0:
        raise ValueError(f"limit: must be in [0, 1), got {limit!r}")
    # To the native order (the parsed skeleton's) and back.
    names = _rigsmith.bone_order(text)
    to_native = [order.index(n) for n in names]
    Wn = np.ascontiguousarray(np.asarray(W, dtype="<f4")[:, to_native])
    buf, stripped = _rigsmith.fix_weights(
        V.tobytes(), Wn.tobytes(), text, float(limit), max_influences, bool(strip_opposite_side)
    )
    out_native = np.frombuffer(buf, dtype="<f4").reshape(len(V), len(names))
    out = np.ascontiguousarray(out_native[:, [names.index(n) for n in order]])
    changed = int((np.abs(out - np.asarray(W, dtype=np.float32)) > 1e-6).any(axis=1).sum())
    return out, {"stripped": int(stripped), "changed": changed}


def pose(vertices: Any, weights: Any, skeleton: Any, rotations: dict[str, Any]) -> np.ndarray:
    """Linear blend skinning of one part in a pose, as rigsmith's review poses it.

    ``rotations``: ``{bone name: (w, x, y, z)}`` unit quaternions in each bone's own rest
    frame (X = its ``x_axis``, Y = head -> tail: Blender's pose-bone convention); other
    bones stay at rest. ``weights``: n x len(skeleton["bones"]). Returns the posed
    n x 3 float32 positions.
    """
    V = _vertices(vertices, "vertices")
    text, order = _skeleton_text(skeleton)
    W = np.asarray(weights, dtype=np.float32)
    if W.shape != (len(V), len(order)):
        raise ValueError(f"weights: expected shape ({len(V)}, {len(order)}), got {W.shape}")
    names = _rigsmith.bone_order(text)
    Wn = np.ascontiguousarray(W[:, [order.index(n) for n in names]], dtype="<f4")
    rots = []
    for name, q in rotations.items():
        q = np.asarray(q, dtype=np.float64)
        if q.shape != (4,) or not np.isfinite(q).all():
            raise ValueError(f"rotations: {name!r} must be 4 finite numbers (w, x, y, z)")
        rots.append((str(name), [float(x) for x in q]))
    buf = _rigsmith.pose_lbs(V.tobytes(), Wn.tobytes(), text, rots)
    return np.frombuffer(buf, dtype="<f4").reshape(-1, 3).copy()
