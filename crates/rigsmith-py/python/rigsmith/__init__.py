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


def _roles(body: Any, garment: Any, rigid: Any) -> tuple[list[str], list[str], list[str]]:
    """The part roles told, as ``--body``, ``--garment`` and ``--rigid PART[=BONE]``:
    ``body`` and ``garment`` a list of part (or material) names or one comma-separated
    string; ``rigid`` a list of ``"PART"`` / ``"PART=BONE"`` or a dict ``{part: bone or
    None}``."""

    def names(what: str, v: Any) -> list[str]:
        if v is None:
            return []
        if isinstance(v, str):
            v = [n for n in v.split(",") if n]
        if not isinstance(v, (list, tuple)) or not all(isinstance(n, str) and n for n in v):
            raise ValueError(f"{what}: expected part names (a list of strings), got {v!r}")
        return list(v)

    if isinstance(rigid, dict):
        if not all(isinstance(k, str) and k and (b is None or isinstance(b, str)) for k, b in rigid.items()):
            raise ValueError(f"rigid: expected {{part: bone or None}}, got {rigid!r}")
        told = [k if b is None else f"{k}={b}" for k, b in rigid.items()]
    else:
        told = names("rigid", [rigid] if isinstance(rigid, str) else rigid)
    return names("body", body), names("garment", garment), told


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


def _native_weights(weights: Any, n: int, order: list[str], names: list[str], what: str) -> bytes:
    """``weights`` (n x len(order), columns in the caller's bone order), checked, as
    little-endian f32 bytes with the columns in the native order ``names``."""
    W = np.asarray(weights)
    if W.dtype == object or not (np.issubdtype(W.dtype, np.floating) or np.issubdtype(W.dtype, np.integer)):
        raise ValueError(f"{what}: dtype {W.dtype} is not a real number type")
    if W.ndim != 2 or W.shape != (n, len(order)):
        raise ValueError(f"{what}: expected shape ({n}, {len(order)}), got {W.shape}")
    if not np.isfinite(W).all():
        raise ValueError(f"{what}: holds NaN or infinite values")
    if (W < 0).any():
        raise ValueError(f"{what}: holds negative weights")
    return np.ascontiguousarray(np.asarray(W, dtype="<f4")[:, [order.index(b) for b in names]]).tobytes()


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


def fit(
    character: Any,
    faces: Any = None,
    *,
    template: str = "auto",
    twist: int = 0,
    body: Any = None,
    garment: Any = None,
    rigid: Any = None,
) -> dict:
    """Fits a skeleton to an unrigged character (``rigsmith fit``).

    Returns ``{"skeleton": {"bones": [...]}, "checks": [...], "humanoid": {...}, "plan",
    "plan_why"}``; the skeleton is in skeleton.json form (pass it to :func:`weights`).
    ``template``, as ``--template``: ``auto`` (the default: a biped with game names or a
    quadruped, read from the sections; ``plan_why`` says why), a biped naming scheme
    (game, basic, mixamo, vrm), a quadruped build (quadruped, horse, wolf, cat) or chain.
    ``body``, ``garment``, ``rigid``: the part roles told, as
    ``--body``, ``--garment`` and ``--rigid`` (see :func:`rig`).
    """
    if not isinstance(twist, int) or twist < 0:
        raise ValueError(f"twist: expected a whole number >= 0, got {twist!r}")
    return json.loads(_rigsmith.fit(_source(character, faces), template, twist, *_roles(body, garment, rigid)))


def weights(
    vertices: Any,
    faces: Any = None,
    skeleton: Any = None,
    *,
    max_influences: int = 4,
    route: str | None = None,
    report: bool = False,
    body: Any = None,
    garment: Any = None,
    rigid: Any = None,
) -> Any:
    """Skin weights on a skeleton (``rigsmith weights``).

    ``weights(V, F, skeleton)`` returns an ``n x len(skeleton["bones"])`` float32 array,
    columns in the order of ``skeleton["bones"]``. ``weights("body.glb", skeleton=S)``
    (or a list of parts) returns ``{part name: array}``. ``skeleton``: a dict in
    skeleton.json form, its text, or its path. ``route``: bone-heat, volumetric or
    geodesic (default: bone heat with its verified fallback). ``report=True`` returns
    ``(weights, report dict)``. ``body``, ``garment``, ``rigid``: the part roles told
    (see :func:`rig`).
    """
    if skeleton is None:
        raise ValueError("skeleton: required (a skeleton.json dict, its text or its path)")
    if not isinstance(max_influences, int) or not 1 <= max_influences <= 8:
        raise ValueError(f"max_influences: must be between 1 and 8, got {max_influences!r}")
    text, order = _skeleton_text(skeleton)
    src = _source(vertices, faces)
    bufs, names, rep = _rigsmith.weights(src, text, max_influences, route, *_roles(body, garment, rigid))
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
    template: str = "auto",
    max_influences: int = 4,
    rerig: bool = False,
    route: str | None = None,
    height: float | None = None,
    output: str | os.PathLike | None = None,
    keep_origin: bool = False,
    control: bool = False,
    body: Any = None,
    garment: Any = None,
    rigid: Any = None,
) -> dict:
    """The whole job (``rigsmith rig``): model check and fix, fit, weights with
    verification and fallback, chains, review.

    Returns the rigged character as :func:`load` does, plus ``"report"`` (``route``,
    ``counts`` of failed checks by severity, ``checks``: the review as ``check`` returns
    it, ``pipeline``: model, fixes, placement, part roles, timings, notes;
    ``changes``) and ``"written"`` (the files written when ``output`` names a ``.glb``/``.gltf``: it and
    its ``.rig.json`` sidecar). An already rigged input is refused unless ``rerig``.
    ``keep_origin``: the rig stays where the input stood (it is rigged on the floor and
    centred, then moved back), as ``rig --keep-origin``. ``control``: the control rig
    is built too (``rig --control``): checked in the review, and ``"control_script"``
    holds the Blender script that builds it on the armature (written beside ``output``
    as ``.control.py``); without it ``"control_script"`` is None. ``template`` is read
    as :func:`fit` reads it (``auto`` by default: a biped or a quadruped from the
    sections).

    ``body``, ``garment`` and ``rigid`` tell part roles where geometry judges a part
    wrongly, as ``--body``, ``--garment`` and ``--rigid PART[=BONE]`` do: ``body`` and
    ``garment`` are lists of part (or material) names (or one comma-separated string),
    ``rigid`` a list of ``"PART"`` / ``"PART=BONE"`` or a dict ``{part: bone or None}``.
    A name that is no part or material is an error listing those there are.
    """
    if not isinstance(max_influences, int) or not 1 <= max_influences <= 8:
        raise ValueError(f"max_influences: must be between 1 and 8, got {max_influences!r}")
    if height is not None and not (isinstance(height, (int, float)) and np.isfinite(height) and height > 0):
        raise ValueError(f"height: must be a positive number of metres, got {height!r}")
    out = None if output is None else os.fspath(output)
    d = _rigsmith.rig(
        _source(character, faces), template, max_influences, bool(rerig), route,
        None if height is None else float(height), out, bool(keep_origin), bool(control),
        *_roles(body, garment, rigid),
    )
    result = _character(d)
    result["control_script"] = d["control_script"]
    return result


def check(
    character: Any,
    faces: Any = None,
    *,
    skeleton: Any = None,
    weights: Any = None,
    max_influences: int = 4,
    sheets: str | os.PathLike | None = None,
    fixes: bool = True,
    body: Any = None,
    garment: Any = None,
    rigid: Any = None,
) -> dict:
    """The rubric check of a rigged character in the default test poses (``rigsmith
    check --json``): ``{"checks": [...], "counts": {...}, "not_verified": [...], ...}``.

    ``character``: a rigged file (a path); the dict :func:`load` or :func:`rig` returns
    (its parts, weights and skeleton); or arrays with ``skeleton`` (skeleton.json dict,
    text or path) and ``weights``: ``check(V, F, skeleton=S, weights=W)`` or
    ``check((V, F), ...)`` with W n x len(S["bones"]), or a list of parts
    ``(name, V, F)`` with ``weights`` a list of such arrays (None for an unweighted
    part), or parts as dicts with a ``"weights"`` key. ``sheets``: a folder where the
    review sheets are written (``placement.png``, ``poses.png``, ``joints.png`` when a
    joint is flagged), listed under ``"sheets"`` in the result. A file is measured
    under the fixes its sidecar names (preserve-volume mask, correctives), as
    ``rigsmith check`` does; ``fixes=False`` for plain skinning. ``body``, ``garment``,
    ``rigid``: the part roles told, each part then judged as told (see :func:`rig`).
    """
    if not isinstance(max_influences, int) or not 1 <= max_influences <= 8:
        raise ValueError(f"max_influences: must be between 1 and 8, got {max_influences!r}")
    text = None
    wbufs = None
    if isinstance(character, dict) and "parts" in character:
        if faces is not None or weights is not None:
            raise ValueError("character: a rig dict carries its faces and weights (give it alone)")
        if skeleton is None:
            skeleton = character.get("skeleton")
        weights = [p.get("weights") for p in character["parts"]]
        character = [(p["name"], p["vertices"], p["faces"]) for p in character["parts"]]
    if isinstance(character, (str, os.PathLike)):
        if skeleton is not None or weights is not None:
            raise ValueError("skeleton: given with a file path (a rigged file carries its own)")
        src: Any = _source(character, faces)
    else:
        if skeleton is None:
            raise ValueError("skeleton: required to check arrays (a skeleton.json dict, its text or its path)")
        src = _source(character, faces)
        text, order = _skeleton_text(skeleton)
        names = _rigsmith.bone_order(text)
        # As _source reads it: an array with faces, or a (vertices, faces) pair.
        single = faces is not None or (isinstance(character, tuple) and len(character) == 2)
        if single:
            weights = [weights]
        elif weights is None and all(isinstance(p, dict) for p in character):
            weights = [p.get("weights") for p in character]
        if not isinstance(weights, (list, tuple)) or len(weights) != len(src):
            raise ValueError(f"weights: expected one array (or None) per part, {len(src)} parts")
        wbufs = []
        for (name, vb, _), w in zip(src, weights):
            what = "weights" if single else f"weights of part {name!r}"
            wbufs.append(None if w is None else _native_weights(w, len(vb) // 12, order, names, what))
        if all(w is None for w in wbufs):
            raise ValueError("weights: no part has weights")
    out_dir = None if sheets is None else os.fspath(sheets)
    roles = _roles(body, garment, rigid)
    rep, written = _rigsmith.check(src, max_influences, text, wbufs, out_dir, bool(fixes), *roles)
    result = json.loads(rep)
    result["sheets"] = [os.fspath(p) for p in written]
    return result


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
    faces: Any = None,
    limit: float = 0.001,
    max_influences: int | None = 4,
    normalize: bool = True,
    strip_opposite_side: bool = True,
    mirror: str | None = None,
    smooth: int = 0,
    smooth_factor: float = 0.5,
    smooth_bones: list[str] | None = None,
    vertex_mask: Any = None,
) -> tuple[np.ndarray, dict]:
    """Weight fixes as data (no brush) on one part, in this order, each when asked:

    * ``mirror="left"`` (or ``"right"``): the weights of that side's vertices are copied
      onto their mirror vertices of the other side, each bone renamed to its mirror
      (``upperarm_l`` -> ``upperarm_r``); a vertex without a mirror vertex (none within
      0.002 H of its mirror image) keeps its weights;
    * ``strip_opposite_side``: the weights of one side's bones are taken off the other
      half of the body;
    * ``smooth`` passes (needs ``faces``): each moves the weights of ``smooth_bones``
      (names; default every deform bone) by ``smooth_factor`` toward their mean over the
      vertex and its neighbours, on the vertices of ``vertex_mask`` (n booleans, or
      vertex indices; default all);
    * the clean: influences below ``limit`` dropped (a vertex keeps its largest), the
      ``max_influences`` largest kept (None: all);
    * ``normalize``: every vertex summed to 1 (mirroring, stripping and smoothing
      renormalize what they change; the clean alone does not).

    ``weights``: n x len(skeleton["bones"]) (columns in that order). Returns the fixed
    array and ``{"mirrored", "unmatched", "stripped", "smoothed", "changed"}`` (numbers
    of vertices).
    """
    V = _vertices(vertices, "vertices")
    text, order = _skeleton_text(skeleton)
    names = _rigsmith.bone_order(text)
    Wn = _native_weights(weights, len(V), order, names, "weights")
    if max_influences is None:
        max_influences = 0
    elif not isinstance(max_influences, int) or not 1 <= max_influences <= 8:
        raise ValueError(f"max_influences: must be between 1 and 8 (or None), got {max_influences!r}")
    if not (isinstance(limit, (int, float)) and 0.0 <= limit < 1.0):
        raise ValueError(f"limit: must be in [0, 1), got {limit!r}")
    if mirror not in (None, "left", "right"):
        raise ValueError(f"mirror: must be 'left', 'right' or None, got {mirror!r}")
    if not isinstance(smooth, int) or smooth < 0:
        raise ValueError(f"smooth: expected a whole number of passes >= 0, got {smooth!r}")
    if not (isinstance(smooth_factor, (int, float)) and 0.0 <= smooth_factor <= 1.0):
        raise ValueError(f"smooth_factor: must be in [0, 1], got {smooth_factor!r}")
    fb = None
    if faces is not None:
        fb = _faces(faces, len(V), "faces").tobytes()
    elif smooth > 0:
        raise ValueError("faces: required to smooth (the edges the weights are averaged over)")
    mask = None
    if vertex_mask is not None:
        m = np.asarray(vertex_mask)
        if m.dtype == bool:
            if m.shape != (len(V),):
                raise ValueError(f"vertex_mask: expected {len(V)} booleans, got shape {m.shape}")
        elif np.issubdtype(m.dtype, np.integer) and m.ndim == 1:
            if m.size and (m.min() < 0 or m.max() >= len(V)):
                raise ValueError(f"vertex_mask: an index is out of range for {len(V)} vertices")
            flags = np.zeros(len(V), dtype=bool)
            flags[m] = True
            m = flags
        else:
            raise ValueError("vertex_mask: expected n booleans or a 1-D array of vertex indices")
        mask = m.astype(np.uint8).tobytes()
    if smooth_bones is not None:
        smooth_bones = [str(b) for b in smooth_bones]
    buf, rep = _rigsmith.fix_weights(
        V.tobytes(), Wn, text, limit=float(limit), max_influences=max_influences,
        strip=bool(strip_opposite_side), faces=fb, normalize=bool(normalize), mirror=mirror,
        smooth=smooth, smooth_factor=float(smooth_factor), smooth_bones=smooth_bones, mask=mask,
    )
    out_native = np.frombuffer(buf, dtype="<f4").reshape(len(V), len(names))
    out = np.ascontiguousarray(out_native[:, [names.index(n) for n in order]])
    return out, json.loads(rep)


def pose(vertices: Any, weights: Any, skeleton: Any, rotations: dict[str, Any]) -> np.ndarray:
    """Linear blend skinning of one part in a pose, as rigsmith's review poses it.

    ``rotations``: ``{bone name: (w, x, y, z)}`` unit quaternions in each bone's own rest
    frame (X = its ``x_axis``, Y = head -> tail: Blender's pose-bone convention); other
    bones stay at rest. ``weights``: n x len(skeleton["bones"]). Returns the posed
    n x 3 float32 positions.
    """
    V = _vertices(vertices, "vertices")
    text, order = _skeleton_text(skeleton)
    names = _rigsmith.bone_order(text)
    Wn = _native_weights(weights, len(V), order, names, "weights")
    rots = []
    for name, q in rotations.items():
        q = np.asarray(q, dtype=np.float64)
        if q.shape != (4,) or not np.isfinite(q).all():
            raise ValueError(f"rotations: {name!r} must be 4 finite numbers (w, x, y, z)")
        rots.append((str(name), [float(x) for x in q]))
    buf = _rigsmith.pose_lbs(V.tobytes(), Wn, text, rots)
    return np.frombuffer(buf, dtype="<f4").reshape(-1, 3).copy()
