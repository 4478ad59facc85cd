"""bench/reweight_regions.py on a case it can be checked on: a two-piece arm whose
rigsmith weights differ from the artist's on one piece only."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[3]
TOOL = ROOT / "bench" / "reweight_regions.py"


def arm_case(d: Path):
    """An arm along +x from a shoulder at (0.1, 1.5, 0): a grid of 11 rings of 8
    vertices, the first 6 rings part `upper`, the rest `lower`; the body's lowest
    vertex is a foot at y 0 (part `foot`). Artist and Blender: upper arm 1.0 on
    `upper`, forearm 1.0 on `lower`; rigsmith: the same but the root 0.5 on `upper`."""
    V = []
    for i in range(11):
        x = 0.1 + 0.06 * i
        for k in range(8):
            a = 2 * np.pi * k / 8
            V.append([x, 1.5 + 0.04 * np.cos(a), 0.04 * np.sin(a)])
    V.append([0.0, 0.0, 0.0])
    with open(d / "mesh.obj", "w") as f:
        for v in V:
            f.write("v {} {} {}\n".format(*v))
    bones = [
        {"name": "root", "parent": None, "head": [0, 0, 0], "tail": [0, 1.5, 0]},
        {"name": "up", "parent": "root", "head": [0.1, 1.5, 0], "tail": [0.4, 1.5, 0]},
        {"name": "fore", "parent": "up", "head": [0.4, 1.5, 0], "tail": [0.7, 1.5, 0]},
    ]
    (d / "skeleton.json").write_text(json.dumps({"bones": bones}))
    upper = list(range(48))
    lower = list(range(48, 88))
    art = {"root": [[88, 1.0]], "up": [[v, 1.0] for v in upper], "fore": [[v, 1.0] for v in lower]}
    rig = {"root": [[88, 1.0]] + [[v, 0.5] for v in upper], "up": [[v, 0.5] for v in upper],
           "fore": [[v, 1.0] for v in lower]}
    for name, w in [("artist", art), ("blender", art), ("rigsmith", rig)]:
        (d / f"{name}_weights.json").write_text(json.dumps({"weights": w}))
    (d / "roles.json").write_text(json.dumps({"upperarm_l": "up", "lowerarm_l": "fore"}))
    parts = [{"name": "upper", "start": 0, "count": 48}, {"name": "lower", "start": 48, "count": 40},
             {"name": "foot", "start": 88, "count": 1}]
    (d / "parts.json").write_text(json.dumps(parts))


def run(*args):
    return subprocess.run([sys.executable, str(TOOL), *map(str, args)],
                          capture_output=True, text=True)


def rows(out):
    """The table's rows as {pose: [numbers...]}."""
    table = {}
    for line in out.splitlines()[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        table[cells[0]] = [float(c) for c in cells[1:]]
    return table


def test_the_piece_that_differs_decides_the_arm_poses_and_the_others_do_not(tmp_path):
    arm_case(tmp_path)
    r = run(tmp_path, "--poses", "arm_up,arm_forward")
    assert r.returncode == 0, r.stderr
    head = r.stdout.splitlines()[0]
    assert "upper (48 v)" in head and "lower (40 v)" in head and "all (89 v)" in head, head
    t = rows(r.stdout)
    # columns: Blender, rigsmith, blender, then the parts sorted (foot, lower, upper), all
    for pose in ("arm_up", "arm_forward"):
        bl, rig, other, foot, lower, upper, every = t[pose]
        assert bl == 0.0 and other == 0.0, t[pose]
        assert rig > 1.0, t[pose]  # half the upper arm left behind: several % of H
        assert upper == 0.0 and every == 0.0, t[pose]
        assert lower == rig and foot == rig, t[pose]


def test_a_region_cut_by_a_box_swaps_only_its_vertices(tmp_path):
    arm_case(tmp_path)
    # The upper piece's rings past x = 0.25 H (of H 1.54): 3 rings of 8.
    r = run(tmp_path, "--from", "artist", "--poses", "arm_up",
            "--region", "outer rings=upper:x>0.16", "--region", "all of it=*")
    assert r.returncode == 0, r.stderr
    assert "outer rings (24 v)" in r.stdout and "all of it (89 v)" in r.stdout, r.stdout
    bl, rig, other, outer, every = rows(r.stdout)["arm_up"]
    assert 0.0 < outer < rig and every == 0.0, (outer, rig)


def test_a_region_that_names_no_part_or_a_bad_condition_is_refused_by_name(tmp_path):
    arm_case(tmp_path)
    r = run(tmp_path, "--region", "x=shoulder")
    assert r.returncode != 0 and "no part ['shoulder']" in r.stderr and "'upper'" in r.stderr, r.stderr
    r = run(tmp_path, "--region", "x=upper:y=3")
    assert r.returncode != 0 and "'y=3'" in r.stderr, r.stderr
    r = run(tmp_path, "--poses", "leg_side")
    assert r.returncode != 0 and "no pose ['leg_side']" in r.stderr, r.stderr


def test_keep_blends_the_region_and_the_error_shrinks_with_the_share_swapped(tmp_path):
    arm_case(tmp_path)
    r = run(tmp_path, "--poses", "arm_up", "--keep", "0.5", "--region", "upper=upper")
    assert r.returncode == 0, r.stderr
    bl, rig, other, half = rows(r.stdout)["arm_up"]
    # The root's wrong share on the upper piece goes 0.5 -> 0.25: each vertex's error
    # is linear in it (skinning is), so the p95 halves.
    assert abs(half - rig / 2) < 0.002, (half, rig)
