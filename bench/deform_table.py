"""Prints the deformation table of BENCHMARKS.md from the reports bench/deform_fixes.sh
left in the current folder: per body, the major failures before -> after and every
joint band (worst band; the arm-up bulge is the best band) before -> after, then the
wall-clock seconds of `rig` with the fixes and of its stages.

    python3 bench/deform_table.py demo base female ...
"""
import json
import sys

COLS = [("elbow", "elbow_120", "band"), ("knee", "knee_120", "band"),
        ("wrist twist", "wrist_twist_80", "band"), ("arm down", "arm_down", "band"),
        ("arm up bulge", "arm_up", "bulge")]


def checks(path):
    d = json.load(open(path))
    r = d.get("result", {}).get("review") or d
    return r, {c["id"]: c for c in r["checks"]}, d.get("result", {}).get("timings", [])


def main(names):
    head = ["body", "majors before -> after"]
    for label, _, _ in COLS:
        head += [f"{label} L", f"{label} R"]
    head += ["rig s", "sidecar s"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for v in names:
        try:
            rb, b, _ = checks(f"{v}.before.json")
            ra, a, tim = checks(f"{v}.after.json")
        except (OSError, ValueError, KeyError) as e:
            print(f"| {v} | not measured: {e} |")
            continue
        row = [v, f"{rb['counts']['major']} -> {ra['counts']['major']}"]
        for _, pose, kind in COLS:
            for side in "LR":
                k = f"deform.{pose}.{side}.{kind}"
                x, y = b.get(k), a.get(k)
                cell = f"{x['value']:.2f} -> {y['value']:.2f}" if x and y else "-"
                if y and not y["passed"]:
                    cell += " !"
                row.append(cell)
        t = open(f"{v}.time").read().split()[-1] if True else ""
        side = sum(s["seconds"] for s in tim if s["stage"] == "sidecar")
        row += [t, f"{side:.2f}"]
        print("| " + " | ".join(row) + " |")
    print()
    for v in names:
        try:
            ra, a, _ = checks(f"{v}.after.json")
        except (OSError, ValueError, KeyError):
            continue
        bad = [f"{k} {c['value']:.3f}" for k, c in a.items()
               if not c["passed"] and c["severity"] in ("major", "blocker")]
        print(f"{v}: {len(bad)} majors left: {', '.join(bad)}")


if __name__ == "__main__":
    main(sys.argv[1:])
