"""The Blender add-on in the bpy module (5.0.1): installed from its zip, each operator
run on the built-in mannequin. Skipped, saying why, without bpy (scripts/test-python.sh
runs it with the bpy venv's Python when there is one)."""
import ctypes
import json
import os
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest

bpy = pytest.importorskip("bpy", reason="no bpy module in this Python (pip install bpy==5.0.1 in a Python 3.11 venv)")

import rigsmith  # noqa: E402
from conftest import ROOT, run_cli  # noqa: E402


@contextmanager
def blender_output():
    """What Blender's C code prints to file descriptors 1 and 2 while the block runs
    (the dependency graph reports cycles there): a list holding the text afterwards."""
    out = []
    with tempfile.TemporaryFile(mode="w+b") as f:
        sys.stdout.flush()
        sys.stderr.flush()
        saved = os.dup(1), os.dup(2)
        os.dup2(f.fileno(), 1)
        os.dup2(f.fileno(), 2)
        try:
            yield out
        finally:
            ctypes.CDLL(None).fflush(None)
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])
            f.seek(0)
            out.append(f.read().decode("utf-8", "replace"))


def gl_to_bl(a):
    a = np.asarray(a, dtype=np.float64)
    return np.stack([a[:, 0], -a[:, 2], a[:, 1]], axis=1)


def bl_to_gl(a):
    a = np.asarray(a, dtype=np.float64)
    return np.stack([a[:, 0], a[:, 2], -a[:, 1]], axis=1)


@pytest.fixture(scope="module")
def scene(tmp_path_factory):
    """A fresh scene with the add-on installed from the zip and the mannequin's parts as
    mesh objects (vertex order kept), plus the CLI's rig of the same mannequin."""
    d = tmp_path_factory.mktemp("blender")
    zip_path = os.environ.get("RIGSMITH_ADDON_ZIP")
    if not zip_path:
        zip_path = str(d / "rigsmith_addon.zip")
        import subprocess
        subprocess.run(["bash", str(ROOT / "scripts" / "zip-addon.sh"), zip_path], check=True, capture_output=True)
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.preferences.addon_install(filepath=zip_path, overwrite=True)
    bpy.ops.preferences.addon_enable(module="rigsmith_addon")
    glb = d / "mannequin.glb"
    run_cli("mannequin", "-o", glb, "-q")
    cli_out = d / "cli.glb"
    run_cli("rig", glb, "-o", cli_out, "--keep-origin", "-q")
    src = rigsmith.load(glb)
    return {"objects": mesh_objects(src), "src": src, "cli": rigsmith.load(cli_out), "dir": d}


def mesh_objects(src):
    """The parts of a loaded character as new mesh objects (vertex order kept)."""
    objs = []
    for p in src["parts"]:
        me = bpy.data.meshes.new(p["name"])
        me.from_pydata(gl_to_bl(p["vertices"]).tolist(), [], p["faces"].tolist())
        me.update()
        o = bpy.data.objects.new(p["name"], me)
        bpy.context.collection.objects.link(o)
        objs.append(o)
    return objs


def addon():
    return sys.modules["rigsmith_addon"]


def run_rig(scene):
    for o in bpy.context.scene.objects:
        o.select_set(o in scene["objects"])
    bpy.context.view_layer.objects.active = scene["objects"][0]
    assert bpy.ops.rigsmith.rig() == {"FINISHED"}
    return next(o for o in bpy.context.scene.objects if o.type == "ARMATURE")


def groups(o, names):
    W = np.zeros((len(o.data.vertices), len(names)), dtype=np.float64)
    idx = {g.index: names.index(g.name) for g in o.vertex_groups if g.name in names}
    for v in o.data.vertices:
        for ge in v.groups:
            if ge.group in idx:
                W[v.index, idx[ge.group]] = ge.weight
    return W


def test_rig_with_rigsmith_builds_the_clis_armature_and_vertex_groups(scene):
    arm = run_rig(scene)
    cli = scene["cli"]
    # Blender keeps its bones in its own order: compared by name.
    assert sorted(b.name for b in arm.data.bones) == sorted(cli["bones"])
    for sb in cli["skeleton"]["bones"]:
        b = arm.data.bones[sb["name"]]
        assert np.abs(np.array(b.head_local) - gl_to_bl([sb["head"]])[0]).max() < 1e-5
        assert np.abs(np.array(b.tail_local) - gl_to_bl([sb["tail"]])[0]).max() < 1e-5
        assert (b.parent.name if b.parent else None) == sb["parent"]
    worst = 0.0
    for o, p in zip(scene["objects"], cli["parts"]):
        assert o.parent == arm and any(m.type == "ARMATURE" and m.object == arm for m in o.modifiers)
        W = groups(o, cli["bones"])
        worst = max(worst, float(np.abs(W - p["weights"]).max()))
    print(f"vertex groups vs the CLI's weights: largest difference {worst:.2e}")
    assert worst <= 1e-4
    assert bpy.data.texts.get("rigsmith_report.json") is not None


def test_blenders_pose_deforms_like_rigsmiths_lbs(scene):
    arm = next(o for o in bpy.context.scene.objects if o.type == "ARMATURE")
    cli = scene["cli"]
    skel = cli["skeleton"]
    names = cli["bones"]
    # Bend an arm, a leg and the spine, each about an axis of its own frame.
    picks = [n for n in names if any(k in n.lower() for k in ("upperarm_l", "lowerarm_l", "thigh_r", "calf_r", "spine_02", "neck"))]
    picks = picks or names[1:6]
    rng = np.random.default_rng(7)
    rotations = {}
    for n in picks:
        axis = rng.normal(size=3)
        axis /= np.linalg.norm(axis)
        ang = np.radians(35.0)
        q = np.concatenate([[np.cos(ang / 2)], np.sin(ang / 2) * axis])
        rotations[n] = q
        pb = arm.pose.bones[n]
        pb.rotation_mode = "QUATERNION"
        pb.rotation_quaternion = q.tolist()
    bpy.context.view_layer.update()
    dg = bpy.context.evaluated_depsgraph_get()
    H = 1.75
    worst = 0.0
    for o, p in zip(scene["objects"], cli["parts"]):
        ev = o.evaluated_get(dg)
        me = ev.to_mesh()
        co = np.array([ev.matrix_world @ v.co for v in me.vertices])
        ev.to_mesh_clear()
        mine = rigsmith.pose(p["vertices"], p["weights"], skel, rotations)
        worst = max(worst, float(np.abs(bl_to_gl(co) - mine).max()))
    for n in picks:
        arm.pose.bones[n].rotation_quaternion = (1, 0, 0, 0)
    bpy.context.view_layer.update()
    print(f"Blender's pose vs rigsmith's LBS on {picks}: largest difference {worst / H:.2e} H")
    assert worst / H <= 1e-4


def test_check_rig_shows_the_report_and_opens_the_sheets_as_images(scene):
    arm = next(o for o in bpy.context.scene.objects if o.type == "ARMATURE")
    bpy.context.view_layer.objects.active = arm
    assert bpy.ops.rigsmith.check() == {"FINISHED"}
    rep = json.loads(bpy.data.texts["rigsmith_report.json"].as_string())
    assert rep["checks"] and set(rep["counts"]) == {"blocker", "major", "minor"}
    assert json.loads(bpy.context.scene["rigsmith_counts"]) == rep["counts"]
    # Blender's armature and vertex groups are the CLI's rig: the same verdicts as the
    # package's check of the CLI's file.
    cli = rigsmith.check(scene["cli"], sheets=scene["dir"] / "sheets")
    assert rep["counts"] == cli["counts"]
    assert {c["id"]: c["passed"] for c in rep["checks"]} == {c["id"]: c["passed"] for c in cli["checks"]}
    # The panel: counts, each failed check (up to 12), how many passed.
    lines = addon().review.report_lines(rep)
    failed = sum(rep["counts"].values())
    assert lines[0] == "failed: {blocker} blocker, {major} major, {minor} minor".format(**rep["counts"])
    assert len(lines) == 2 + min(failed, 12) + (1 if failed > 12 else 0)
    assert lines[-1] == f"passed: {len(rep['checks']) - failed} of {len(rep['checks'])} checks"
    # The sheets are images in Blender, packed, the size of the package's PNGs.
    assert rep["sheets"] and set(rep["sheets"]) <= {"rigsmith_placement", "rigsmith_poses", "rigsmith_joints"}
    for path in cli["sheets"]:
        name = "rigsmith_" + Path(path).stem
        img = bpy.data.images[name]
        assert img.packed_file is not None
        with open(path, "rb") as f:
            head = f.read(24)
        w, h = int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
        assert tuple(img.size) == (w, h), name
        px = np.empty(img.size[0] * img.size[1] * img.channels, dtype=np.float32)
        img.pixels.foreach_get(px)
        assert px.std() > 0.05, f"{name} is blank"
    assert bpy.ops.rigsmith.show_sheet(name="placement") == {"FINISHED"}
    with pytest.raises(RuntimeError, match="no sheet"):
        bpy.ops.rigsmith.show_sheet(name="nothing")


def test_fix_weights_cleans_the_vertex_groups_as_data(scene):
    arm = next(o for o in bpy.context.scene.objects if o.type == "ARMATURE")
    body = scene["objects"][0]
    names = [b.name for b in arm.data.bones]
    # Dirty the weights: a right-side bone on a left-side vertex and a tiny influence.
    left = int(np.argmax([v.co.x for v in body.data.vertices]))
    right_bone = next(n for n in names if n.endswith("_r") or n.endswith(".R"))
    g = body.vertex_groups.get(right_bone) or body.vertex_groups.new(name=right_bone)
    g.add([left], 0.3, "REPLACE")
    bpy.context.view_layer.objects.active = arm
    assert bpy.ops.rigsmith.fix_weights() == {"FINISHED"}
    info = json.loads(bpy.context.scene["rigsmith_fix"])
    assert info["stripped"] >= 1 and info["changed"] >= 1
    W = groups(body, names)
    assert W[left, names.index(right_bone)] == 0.0
    assert np.allclose(W.sum(axis=1), 1.0, atol=1e-5)
    assert ((W > 0).sum(axis=1) <= 4).all()
    assert not ((W > 0) & (W < 0.001)).any()


def test_fix_weights_mirror_and_masked_smoothing_equal_the_package(scene):
    arm = next(o for o in bpy.context.scene.objects if o.type == "ARMATURE")
    body = scene["objects"][0]
    a = addon()
    skel = a.skeleton_of(arm)
    names = [b["name"] for b in skel["bones"]]
    V, F = a.mesh_arrays(body)
    W = a.weight_matrix(body, names)
    # The upper body selected: only those vertices are smoothed.
    sel = V[:, 1] > np.median(V[:, 1])
    body.data.vertices.foreach_set("select", sel)
    want, info = rigsmith.fix_weights(V, W, skel, faces=F, mirror="left", smooth=2, vertex_mask=sel)
    bpy.context.view_layer.objects.active = arm
    assert bpy.ops.rigsmith.fix_weights(mirror="LEFT", smooth=2, selected_vertices=True) == {"FINISHED"}
    got = groups(body, names)
    print(f"mirrored {info['mirrored']}, unmatched {info['unmatched']}, smoothed {info['smoothed']}; "
          f"largest difference from the package {np.abs(got - want).max():.1e}")
    assert np.abs(got - want).max() <= 1e-6
    assert info["mirrored"] > 1000 and info["smoothed"] > 0
    # Mirrored: a right-side vertex with a left twin (its mirror image within 1e-4 m)
    # carries the twin's weights on the mirror bones. (Below the selection, so
    # smoothing moved neither.)
    checked = 0
    for i in np.nonzero((V[:, 0] < -0.05) & ~sel)[0]:
        d = np.linalg.norm(V - V[i] * [-1, 1, 1], axis=1)
        twin = int(np.argmin(d))
        if d[twin] > 1e-4:
            continue
        checked += 1
        for b in np.nonzero(got[twin] > 0)[0]:
            mb = names.index(a_mirror(names[b], names))
            assert abs(got[i, mb] - got[twin, b]) < 1e-6, (i, names[b])
    print(f"{checked} right-side vertices carry their twin's weights")
    assert checked >= 50


def a_mirror(name, names):
    for x, y in (("_l", "_r"), ("_r", "_l"), (".L", ".R"), (".R", ".L")):
        if name.endswith(x) and name[: -len(x)] + y in names:
            return name[: -len(x)] + y
    return name


def test_rig_with_the_control_rig_builds_it_in_the_scene_without_a_cycle(scene):
    objs = mesh_objects(scene["src"])
    before = {o.name for o in bpy.data.objects if o.type == "ARMATURE"}
    for o in bpy.context.scene.objects:
        o.select_set(o in objs)
    bpy.context.view_layer.objects.active = objs[0]
    with blender_output() as log:
        assert bpy.ops.rigsmith.rig(control=True) == {"FINISHED"}
        bpy.context.evaluated_depsgraph_get().update()
    arm = next(o for o in bpy.data.objects if o.type == "ARMATURE" and o.name not in before)
    cycles = [l for l in log[0].splitlines() if "cycle" in l.lower()]
    assert cycles == [], cycles
    assert bpy.data.texts.get("rigsmith_control.py") is not None
    colls = {c.name: c for c in arm.data.collections}
    ctrl = {b.name for b in colls["Controls"].bones}
    mch = {b.name for b in colls["MCH"].bones}
    print(f"control rig: {len(ctrl)} controls, {len(mch)} mechanism bones, {len(arm.data.bones)} bones in all")
    assert {"root", "settings"} <= ctrl and any("_ik" in n for n in ctrl) and mch
    # The deform bones are those of the rig without the control rig.
    first = next(o for o in bpy.data.objects if o.type == "ARMATURE" and o.name in before)
    deform = [b.name for b in arm.data.bones if b.use_deform]
    assert sorted(deform) == sorted(b.name for b in first.data.bones if b.use_deform)
    # Every bone of the control rig the script carries is there with its constraints.
    script = bpy.data.texts["rigsmith_control.py"].as_string()
    rig = json.loads(script[script.index("r'''") + 4:script.index("''')")])
    # Besides them, the script adds a hidden warm-start copy of each IK chain's bones
    # ("_warm"), which Blender's IK solves first.
    built = [b.name for b in arm.data.bones if "_warm" not in b.name]
    assert sorted(b["name"] for b in rig["bones"]) == sorted(built)
    warm = [b for b in arm.data.bones if "_warm" in b.name]
    assert warm and all(not b.use_deform and b.name in mch for b in warm)
    blender_type = {"transformation": "TRANSFORM"}
    for b in rig["bones"]:
        want = [blender_type.get(c["type"], c["type"].upper()) for c in b.get("constraints", [])]
        got = [
            c.type
            for c in arm.pose.bones[b["name"]].constraints
            if not (c.type == "COPY_TRANSFORMS" and "_warm" in c.subtarget)
        ]
        assert got == want, b["name"]
    kinds = {}
    for pb in arm.pose.bones:
        for c in pb.constraints:
            kinds[c.type] = kinds.get(c.type, 0) + 1
    print("constraints:", kinds)
    # Each deform bone follows the controls: a Copy Transforms, or its twist rule.
    for n in deform:
        types = {c.type for c in arm.pose.bones[n].constraints}
        assert "COPY_TRANSFORMS" in types or ("twist" in n and "COPY_ROTATION" in types), n
    assert kinds.get("IK", 0) >= 4, kinds
    # The controls drive the mesh: the root moved 0.3 m carries every vertex with it.
    dg = bpy.context.evaluated_depsgraph_get()
    body = objs[0]

    def posed():
        ev = body.evaluated_get(bpy.context.evaluated_depsgraph_get())
        me = ev.to_mesh()
        co = np.array([ev.matrix_world @ v.co for v in me.vertices])
        ev.to_mesh_clear()
        return co

    rest = posed()
    root = arm.pose.bones["root"]
    m0 = root.matrix.copy()
    from mathutils import Matrix
    root.matrix = Matrix.Translation((0.3, 0.0, 0.0)) @ m0
    bpy.context.view_layer.update()
    moved = posed() - rest
    root.matrix = m0
    bpy.context.view_layer.update()
    print(f"root moved 0.3 m: vertices moved {moved[:, 0].min():.5f}..{moved[:, 0].max():.5f} m in X")
    assert np.abs(moved - [0.3, 0.0, 0.0]).max() / 1.75 <= 1e-4
    del dg
    # Positive control: two bones tracking each other are reported as a cycle.
    a, b = arm.pose.bones[deform[1]], arm.pose.bones[deform[2]]
    with blender_output() as log:
        ca = a.constraints.new("DAMPED_TRACK")
        ca.target, ca.subtarget = arm, b.name
        cb = b.constraints.new("DAMPED_TRACK")
        cb.target, cb.subtarget = arm, a.name
        bpy.context.view_layer.update()
        bpy.context.evaluated_depsgraph_get().update()
    a.constraints.remove(ca)
    b.constraints.remove(cb)
    assert any("cycle" in l.lower() for l in log[0].splitlines()), log[0][-2000:]


def test_rig_takes_the_part_roles_told_and_refuses_a_name_that_is_no_mesh(scene):
    objs = mesh_objects(scene["src"])
    before = {o.name for o in bpy.data.objects if o.type == "ARMATURE"}
    for o in bpy.context.scene.objects:
        o.select_set(o in objs)
    bpy.context.view_layer.objects.active = objs[0]
    shirt = next(o for o in objs if o.name.startswith("shirt"))
    # Told rigid to the chest bone, the shirt follows it alone.
    assert bpy.ops.rigsmith.rig(rigid=f"{shirt.name}=spine_03") == {"FINISHED"}
    arm = next(o for o in bpy.data.objects if o.type == "ARMATURE" and o.name not in before)
    names = [b.name for b in arm.data.bones]
    W = groups(shirt, names)
    assert np.allclose(W[:, names.index("spine_03")], 1.0, atol=1e-4)
    assert np.allclose(W.sum(1), 1.0, atol=1e-4)
    for o in bpy.context.scene.objects:
        o.select_set(o in objs)
    with pytest.raises(RuntimeError, match='no part or material named "Nope"'):
        bpy.ops.rigsmith.rig(garment="Nope")
