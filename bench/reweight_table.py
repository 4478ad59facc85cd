"""Markdown tables from the re-weighting benchmark's results.jsonl (bench/reweight.sh):
one row per character and method (rigsmith's default, rigsmith with the geodesic route
forced, Blender, nearest bone; pooled mean / p95 / max deformation error in % of H,
the mean of the per-pose p95, unweighted vertices, pooled-p95 ratio to the nearest-bone
baseline and to Blender), then the per-pose p95 of each method.

python reweight_table.py results.jsonl
"""
import json
import sys

METHODS = ["rigsmith", "geodesic", "blender", "nearest"]
NAN = float("nan")


def fmt(x, d=2):
    return "n/a" if x is None or x != x else f"{x:.{d}f}"


def main(path):
    rows = [json.loads(l) for l in open(path) if l.strip()]
    print("| character | vertices | method | mean | p95 | max | mean of pose p95 | unweighted | p95 / nearest | p95 / Blender |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        x = r["result"]
        base = x.get("nearest", {}).get("p95")
        bl = x.get("blender", {}).get("p95")
        for m in METHODS:
            s = x.get(m)
            if s is None:
                print(f"| {r['case']} | {x['vertices']} | {m} | n/a | n/a | n/a | n/a | n/a | n/a | n/a |")
                continue
            name = m + (" (17 m rerun)" if m == "blender" and x.get("blender_scaled") else "")
            unw = x.get(f"{m}_unweighted")
            print(
                f"| {r['case']} | {x['vertices']} | {name} | {fmt(s['mean'], 3)} | {fmt(s['p95'], 3)} | {fmt(s['max'], 2)} "
                f"| {fmt(s['pose_p95_mean'], 3)} | {unw} | {fmt(s['p95'] / base if base else NAN)} "
                f"| {fmt(s['p95'] / bl if bl else NAN)} |"
            )
    print()
    poses = []
    for r in rows:
        for p in r["result"]["per_pose_p95"]:
            if p not in poses:
                poses.append(p)
    print("Per pose, p95 in % of H (rigsmith / geodesic route / Blender / nearest bone):")
    print()
    print("| character | " + " | ".join(poses) + " |")
    print("|---|" + "---|" * len(poses))
    for r in rows:
        pp = r["result"]["per_pose_p95"]
        cells = []
        for p in poses:
            if p not in pp:
                cells.append("-")
                continue
            cells.append(" / ".join(fmt(pp[p].get(m), 2) for m in METHODS))
        print(f"| {r['case']} | " + " | ".join(cells) + " |")
    skipped = [(r["case"], r["result"].get("poses_skipped")) for r in rows if r["result"].get("poses_skipped")]
    if skipped:
        print()
        for c, s in skipped:
            print(f"- {c}: poses left out (no such bone): {', '.join(s)}")


if __name__ == "__main__":
    main(sys.argv[1])
