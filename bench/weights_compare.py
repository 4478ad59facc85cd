"""Compares skin weights under test poses: for a case folder holding mesh.obj,
skeleton.json, artist_weights.json, rigsmith_weights.json, blender_weights.json and,
when Blender's plain run failed, blender_scaled_weights.json (its scaled-up rerun),
skins the mesh with each weight set (linear blend skinning, weights normalized per
vertex) under each test pose and measures, over the vertices the pose moves (artist
skinning moves them more than 0.1% of H), the distance to the artist-weighted result
in % of body height H: mean, p95, max over all poses together.

python weights_compare.py CASE_DIR            ->  prints one JSON line
python weights_compare.py CASE_DIR --detail   ->  also prints, per pose, rigsmith's
    worst vertices (index, position in % of H from the feet, error of each tool,
    the three largest weights of rigsmith, the artist and Blender) to stderr
"""
import json
import sys

import numpy as np


def load(case):
    V = []
    F = []
    for line in open(f"{case}/mesh.obj"):
        if line.startswith("v "):
            V.append([float(x) for x in line.split()[1:4]])
    V = np.array(V)
    sk = json.load(open(f"{case}/skeleton.json"))["bones"]
    names = [b["name"] for b in sk]
    idx = {n: i for i, n in enumerate(names)}
    parent = [idx[b["parent"]] if b.get("parent") is not None else -1 for b in sk]
    head = np.array([b["head"] for b in sk], float)
    tail = np.array([b["tail"] for b in sk], float)
    return V, names, idx, parent, head, tail


def weights(case, fname, idx, n):
    try:
        d = json.load(open(f"{case}/{fname}"))
    except FileNotFoundError:
        return None
    W = np.zeros((n, len(idx)))
    for name, lst in d["weights"].items():
        if name not in idx or not lst:
            continue
        a = np.array(lst)
        W[a[:, 0].astype(int), idx[name]] += a[:, 1]
    s = W.sum(1)
    unweighted = int((s < 1e-4).sum())
    W[s > 0] /= s[s > 0, None]
    return W, unweighted


def rot(axis, deg):
    a = np.asarray(axis, float)
    a = a / np.linalg.norm(a)
    t = np.radians(deg)
    K = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    return np.eye(3) + np.sin(t) * K + (1 - np.cos(t)) * K @ K


def bend(bone_dir, toward):
    ax = np.cross(bone_dir, toward)
    return ax / np.linalg.norm(ax)


X, Y, Z = np.eye(3)


def poses(idx, head, tail):
    d = lambda b: (tail[idx[b]] - head[idx[b]]) / np.linalg.norm(tail[idx[b]] - head[idx[b]])
    P = {
        "arm_down": [("upperarm_l", bend(d("upperarm_l"), -Y), 30)],
        "arm_up": [("upperarm_l", bend(d("upperarm_l"), Y), 80)],
        "arm_forward": [("upperarm_l", bend(d("upperarm_l"), Z), 80)],
        "elbow_120": [("lowerarm_l", bend(d("lowerarm_l"), Z), 120)],
        "wrist_twist_80": [("lowerarm_l", d("lowerarm_l"), 80)],
        "leg_forward": [("thigh_l", bend(d("thigh_l"), Z), 70)],
        "leg_side": [("thigh_l", bend(d("thigh_l"), X), 45)],
        "knee_120": [("calf_l", bend(d("calf_l"), -Z), 120)],
        "squat": [
            ("thigh_l", bend(d("thigh_l"), Z), 90),
            ("thigh_r", bend(d("thigh_r"), Z), 90),
            ("calf_l", bend(d("calf_l"), -Z), 110),
            ("calf_r", bend(d("calf_r"), -Z), 110),
        ],
        "spine_twist": [("spine_02", Y, 40)],
        "spine_bend": [("spine_02", X, 40)],
        "head_turn": [("head", Y, 60)],
        "head_nod": [("head", X, 30)],
    }
    return P


def pose_matrices(pose, idx, parent, head):
    nb = len(parent)
    local = [np.eye(4) for _ in range(nb)]
    for b, axis, deg in pose:
        i = idx[b]
        R = np.eye(4)
        R[:3, :3] = rot(axis, deg)
        T = np.eye(4)
        T[:3, 3] = head[i]
        Ti = np.eye(4)
        Ti[:3, 3] = -head[i]
        local[i] = T @ R @ Ti
    M = [None] * nb
    for i in range(nb):  # parents first
        M[i] = local[i] if parent[i] < 0 else M[parent[i]] @ local[i]
    return np.array(M)


def skin(V, W, M):
    Vh = np.c_[V, np.ones(len(V))]
    out = np.zeros_like(V)
    for b in np.nonzero(W.sum(0) > 0)[0]:
        out += W[:, b, None] * (Vh @ M[b].T)[:, :3]
    return out


def top(W, names, v, k=3):
    o = np.argsort(-W[v])[:k]
    return " ".join(f"{names[b]}:{W[v, b]:.2f}" for b in o if W[v, b] > 0.005)


def detail(pname, V, H, names, moved, errs, sets, art, k=6):
    if "rigsmith" not in errs:
        return
    e = errs["rigsmith"]
    idxs = np.nonzero(moved)[0]
    order = np.argsort(-e)[:k]
    lo = V.min(0)
    print(f"== {pname}: rigsmith p95 {np.percentile(e, 95):.2f} max {e.max():.2f}"
          + (f" | blender p95 {np.percentile(errs['blender'], 95):.2f} max {errs['blender'].max():.2f}" if "blender" in errs else ""),
          file=sys.stderr)
    for o in order:
        v = idxs[o]
        p = (V[v] - lo) / H * 100
        be = errs["blender"][o] if "blender" in errs else float("nan")
        print(f"  v{v} at ({p[0]:.1f},{p[1]:.1f},{p[2]:.1f})%H err rs {e[o]:.2f} bl {be:.2f}", file=sys.stderr)
        print(f"     rs [{top(sets['rigsmith'][0], names, v)}] art [{top(art, names, v)}]"
              + (f" bl [{top(sets['blender'][0], names, v)}]" if "blender" in sets else ""), file=sys.stderr)


def main(case, show_detail=False):
    V, names, idx, parent, head, tail = load(case)
    H = V[:, 1].max() - V[:, 1].min()
    art, _ = weights(case, "artist_weights.json", idx, len(V))
    res = {"vertices": len(V), "height": H}
    sets = {}
    for key, f in [
        ("rigsmith", "rigsmith_weights.json"),
        ("blender", "blender_weights.json"),
        ("blender_scaled", "blender_scaled_weights.json"),
    ]:
        w = weights(case, f, idx, len(V))
        if w is not None:
            sets[key] = w
            res[f"{key}_unweighted"] = w[1]
    dists = {k: [] for k in sets}
    per_pose = {}
    for pname, pose in poses(idx, head, tail).items():
        M = pose_matrices(pose, idx, parent, head)
        Pa = skin(V, art, M)
        moved = np.linalg.norm(Pa - V, axis=1) > 1e-3 * H
        per_pose[pname] = {}
        errs = {}
        for k, (W, _) in sets.items():
            P = skin(V, W, M)
            dd = np.linalg.norm(P - Pa, axis=1)[moved] / H * 100
            dists[k].append(dd)
            errs[k] = dd
            per_pose[pname][k] = round(float(np.percentile(dd, 95)), 3)
        if show_detail:
            detail(pname, V, H, names, moved, errs, sets, art)
    for k, l in dists.items():
        a = np.concatenate(l)
        res[k] = {
            "mean": round(float(a.mean()), 3),
            "p95": round(float(np.percentile(a, 95)), 3),
            "max": round(float(a.max()), 3),
        }
    res["per_pose_p95"] = per_pose
    for k, f in [
        ("rigsmith", "rigsmith.json"),
        ("blender", "blender_weights.json"),
        ("blender_scaled", "blender_scaled_weights.json"),
    ]:
        try:
            d = json.load(open(f"{case}/{f}"))
            res[f"{k}_seconds"] = d["seconds"]
            if "scale" in d:
                res[f"{k}_factor"] = d["scale"]
        except (FileNotFoundError, KeyError):
            pass
    print(json.dumps(res))


if __name__ == "__main__":
    main(sys.argv[1], "--detail" in sys.argv[2:])
