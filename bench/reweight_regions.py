"""Which vertices decide a pose: rigsmith's weights with another method's swapped in on
one region at a time, each pose's p95 taken again.

Usage (a case directory written by bench/reweight.sh):

    python3 bench/reweight_regions.py target/reweight_bench/platformer_Character_HumanoidRig \
        [--from blender|artist] [--poses arm_down,arm_up] \
        [--region 'shoulder tops=Body.0:y>0.39'] [--region 'arm=Arms.0,Arms.1']

A region is `NAME=PARTS[:COND[:COND...]]`: the vertices of the named parts (comma
separated; `*` for every part) meeting every condition, a condition being an axis
(`x`, `y`, `z`, or `|x|` for the distance from the centre plane), `<` or `>`, and a
value in units of the character's height H (y from the lowest vertex). Without
`--region`, every part is a region of its own, and `all` the whole character.
`--keep K` blends instead of swapping: K of rigsmith's weights and 1 - K of the other's.

Printed: a Markdown table, one row per pose: Blender's p95, rigsmith's, the other
method's, then rigsmith's with the region swapped (% of H over the vertices the pose
moves, skinned as bench/reweight_compare.py skins them). A region whose swap takes
rigsmith's p95 to the other method's own decides the pose in that method's favour.
"""

import argparse
import json
import re
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from reweight_compare import blender_weights, pose_skinning, skin_rest  # noqa: E402
from weights_compare import load, weights  # noqa: E402

COND = re.compile(r"^(\|x\||x|y|z)([<>])(-?[0-9.]+)$")


def labels(case, n):
    lab = np.empty(n, object)
    for p in json.load(open(f"{case}/parts.json")):
        lab[p["start"]:p["start"] + p["count"]] = p["name"]
    return lab


def region(spec, lab, q):
    """The mask of `NAME=PARTS[:COND...]` (see the module docs)."""
    name, _, body = spec.partition("=")
    if not body:
        sys.exit(f"region {spec!r}: expected NAME=PARTS[:COND...]")
    parts, *conds = body.split(":")
    if parts.strip() == "*":
        m = np.ones(len(lab), bool)
    else:
        want = [s.strip() for s in parts.split(",")]
        unknown = [w for w in want if w not in set(lab)]
        if unknown:
            sys.exit(f"region {name!r}: no part {unknown} (parts: {sorted(set(lab))})")
        m = np.isin(lab, want)
    for c in conds:
        k = COND.match(c.replace(" ", ""))
        if not k:
            sys.exit(f"region {name!r}: condition {c!r} is not like 'y>0.39' or '|x|<0.09'")
        axis, op, val = k.group(1), k.group(2), float(k.group(3))
        col = np.abs(q[:, 0]) if axis == "|x|" else q[:, "xyz".index(axis)]
        m &= (col < val) if op == "<" else (col > val)
    return name, m


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("case")
    ap.add_argument("--from", dest="source", choices=["blender", "artist"], default="blender")
    ap.add_argument("--poses", default="")
    ap.add_argument("--region", action="append", default=[])
    ap.add_argument("--keep", type=float, default=0.0,
                    help="share of rigsmith's weights kept in the region (0: swapped whole)")
    a = ap.parse_args()
    case = a.case.rstrip("/")
    V, names, idx, parent, head, tail = load(case)
    n = len(V)
    lo = V[:, 1].min()
    H = V[:, 1].max() - lo
    q = (V - np.array([0.0, lo, 0.0])) / H
    lab = labels(case, n)
    art = (weights(case, "artist_weights.json", idx, n) or (None,))[0]
    rig = (weights(case, "rigsmith_weights.json", idx, n) or (None,))[0]
    # Blender's run as bench/reweight_compare.py takes it.
    blender = blender_weights(case, idx, n)
    if rig is None or art is None or blender is None:
        sys.exit(f"{case}: needs rigsmith_, artist_ and blender_weights.json (bench/reweight.sh)")
    bl = blender[0]
    other = bl if a.source == "blender" else art
    roles = json.load(open(f"{case}/roles.json"))
    P = pose_skinning(case, roles, idx, parent, head, tail, [])
    wanted = [p for p in a.poses.split(",") if p] or list(P)
    bad = [p for p in wanted if p not in P]
    if bad:
        sys.exit(f"no pose {bad} (poses: {list(P)})")
    if a.region:
        regs = [region(s, lab, q) for s in a.region]
    else:
        regs = [(p, lab == p) for p in sorted(set(lab))] + [("all", np.ones(n, bool))]
    head_row = ["pose", "Blender", "rigsmith", a.source] + [
        f"{nm} ({int(m.sum())} v)" for nm, m in regs]
    print("| " + " | ".join(head_row) + " |")
    print("|" + "---|" * len(head_row))
    for pname in wanted:
        M = P[pname]
        Pa = skin_rest(V, art, M)
        moved = np.linalg.norm(Pa - V, axis=1) > 1e-3 * H

        def p95(W):
            e = np.linalg.norm(skin_rest(V, W, M) - Pa, axis=1)[moved] / H * 100
            return np.percentile(e, 95)

        row = [pname, f"{p95(bl):.3f}", f"{p95(rig):.3f}", f"{p95(other):.3f}"]
        for _, m in regs:
            W = rig.copy()
            # A vertex the other method left unweighted keeps rigsmith's.
            m = m & (other.sum(1) > 0.5)
            W[m] = a.keep * rig[m] + (1.0 - a.keep) * other[m]
            row.append(f"{p95(W):.3f}")
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
