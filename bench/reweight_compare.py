"""Compares re-computed skin weights with a character's own (artist) weights under the 13
test poses of weights_compare.py, for a case folder written by examples/reweight_case.rs
(+ reweight_blender.py).

Methods: `rigsmith` (rigsmith_weights.json), `geodesic` (rigsmith with the geodesic
route forced, geodesic_weights.json), `blender` (Blender's Automatic Weights: the
plain run, or its 17 m rerun when that left fewer vertices unweighted), `nearest` (the
baseline computed here: each vertex 1.0 on the closest deform bone segment).

The poses move the bones named in roles.json (the skeleton's own upper arm, forearm,
thigh, calf, middle spine bone and head stand in for weights_compare.py's
game_engine names). Skinning is linear blend skinning with weights normalized per
vertex; a vertex with no weight stays where it is (for every method, the artist's
included), and the count of such vertices is reported apart. Over the vertices a pose
moves (artist skinning moves them more than 0.1 % of H; H = the vertical extent of all
parts), the distance to the artist-skinned position in % of H: mean, p95 and max over
all poses pooled, and p95 per pose.

python reweight_compare.py CASE_DIR  ->  prints one JSON line
"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from weights_compare import load, pose_matrices, poses, weights  # noqa: E402


def nearest_bone(V, sk, idx):
    deform = [i for i, b in enumerate(sk) if b.get("deform", True)]
    best = np.full(len(V), np.inf)
    arg = np.zeros(len(V), int)
    for i in deform:
        a = np.asarray(sk[i]["head"], float)
        b = np.asarray(sk[i]["tail"], float)
        ab = b - a
        L = ab @ ab
        t = np.clip(((V - a) @ ab) / L, 0, 1) if L > 0 else np.zeros(len(V))
        d = np.linalg.norm(V - (a + t[:, None] * ab), axis=1)
        m = d < best
        best[m] = d[m]
        arg[m] = i
    W = np.zeros((len(V), len(sk)))
    W[np.arange(len(V)), arg] = 1.0
    return W


def skin_rest(V, W, M):
    """LBS; the missing weight (1 - sum) keeps the vertex at rest."""
    Vh = np.c_[V, np.ones(len(V))]
    out = (1.0 - W.sum(1))[:, None] * V
    for b in np.nonzero(W.sum(0) > 0)[0]:
        out += W[:, b, None] * (Vh @ M[b].T)[:, :3]
    return out


def blender_weights(case, idx, n):
    """Blender's weights as compared: its plain run, or its scaled-up rerun when that
    leaves fewer vertices unweighted. `(W, unweighted, plain_unweighted)`, the last
    `None` when the plain run is taken; `None` without a plain run."""
    plain = weights(case, "blender_weights.json", idx, n)
    if plain is None:
        return None
    scaled = weights(case, "blender_scaled_weights.json", idx, n)
    if scaled is not None and scaled[1] < plain[1]:
        return scaled[0], scaled[1], plain[1]
    return plain[0], plain[1], None


def pose_skinning(case, roles, idx, parent, head, tail, missing):
    """Each test pose's skinning matrices, by name: the biped poses on the bones `roles`
    names (they stand in for the game_engine names; poses whose bones are missing are
    appended to `missing`), or a quadruped's from its `poses.json` (column-major)."""
    if os.path.exists(f"{case}/poses.json"):
        quad = json.load(open(f"{case}/poses.json"))
        order = [idx[n] for n in quad["bones"]]
        out = {}
        for k, v in quad["poses"].items():
            M = np.tile(np.eye(4), (len(idx), 1, 1))
            M[order] = np.array(v, float).reshape(-1, 4, 4).transpose(0, 2, 1)
            out[k] = M
        missing.extend(quad.get("skipped", []))
        return out
    pidx = dict(idx)
    for key, name in roles.items():
        pidx[key] = idx[name]
    return {pname: pose_matrices(pose, pidx, parent, head)
            for pname, pose in poses_safe(pidx, head, tail, missing).items()}


def main(case):
    V, names, idx, parent, head, tail = load(case)
    sk = json.load(open(f"{case}/skeleton.json"))["bones"]
    roles = json.load(open(f"{case}/roles.json"))
    H = V[:, 1].max() - V[:, 1].min()
    art, art_unw = weights(case, "artist_weights.json", idx, len(V))
    res = {"vertices": len(V), "height": round(float(H), 4), "artist_unweighted": art_unw,
           "roles": roles}
    sets = {}
    w = weights(case, "rigsmith_weights.json", idx, len(V))
    if w is not None:
        sets["rigsmith"] = w
    w = weights(case, "geodesic_weights.json", idx, len(V))
    if w is not None:
        sets["geodesic"] = w
    blender = blender_weights(case, idx, len(V))
    if blender is not None:
        sets["blender"] = blender[:2]
        if blender[2] is not None:
            res["blender_scaled"] = True
            res["blender_plain_unweighted"] = blender[2]
    sets["nearest"] = (nearest_bone(V, sk, idx), 0)
    for k, (_, u) in sets.items():
        res[f"{k}_unweighted"] = u
    missing = []
    pose_list = pose_skinning(case, roles, idx, parent, head, tail, missing)
    if os.path.exists(f"{case}/poses.json"):
        res["library"] = "quadruped"
    res["poses_skipped"] = missing
    dists = {k: [] for k in sets}
    per_pose = {}
    for pname, M in pose_list.items():
        Pa = skin_rest(V, art, M)
        moved = np.linalg.norm(Pa - V, axis=1) > 1e-3 * H
        if not moved.any():
            continue
        per_pose[pname] = {}
        for k, (W, _) in sets.items():
            dd = np.linalg.norm(skin_rest(V, W, M) - Pa, axis=1)[moved] / H * 100
            dists[k].append(dd)
            per_pose[pname][k] = round(float(np.percentile(dd, 95)), 3)
    for k, l in dists.items():
        a = np.concatenate(l)
        res[k] = {
            "mean": round(float(a.mean()), 3),
            "p95": round(float(np.percentile(a, 95)), 3),
            "max": round(float(a.max()), 3),
            "pose_p95_mean": round(float(np.mean([per_pose[p][k] for p in per_pose])), 3),
        }
    res["per_pose_p95"] = per_pose
    for k, f, key in [("rigsmith", "rigsmith.json", "seconds"),
                      ("geodesic", "rigsmith.json", "geodesic_seconds"),
                      ("blender", "blender_weights.json", "seconds")]:
        try:
            res[f"{k}_seconds"] = json.load(open(f"{case}/{f}"))[key]
        except (FileNotFoundError, KeyError):
            pass
    print(json.dumps(res))


def poses_safe(pidx, head, tail, missing):
    """weights_compare.poses, leaving out the poses whose bones the skeleton lacks."""
    need = ["upperarm_l", "lowerarm_l", "thigh_l", "thigh_r", "calf_l", "calf_r", "spine_02", "head"]
    have = {k: pidx[k] for k in need if k in pidx}
    stub = dict(pidx)
    for k in need:
        if k not in have:
            stub[k] = next(iter(have.values()))
    out = {}
    for pname, pose in poses(stub, head, tail).items():
        if all(b in have for b, _, _ in pose):
            out[pname] = pose
        else:
            missing.append(pname)
    return out


if __name__ == "__main__":
    main(sys.argv[1])
