"""The Blender add-on in the bpy module (5.0.1): installed from its zip, each operator
run on the built-in mannequin. Skipped, saying why, without bpy (scripts/test-python.sh
runs it with the bpy venv's Python when there is one)."""
import json
import os
from pathlib import Path

import numpy as np
import pytest

bpy = pytest.importorskip("bpy", reason="no bpy module in this Python (pip install bpy==5.0.1 in a Python 3.11 venv)")

import rigsmith  # noqa: E402
from conftest import ROOT, run_cli  # noqa: E402


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
    objs = []
    for p in src["parts"]:
        me = bpy.data.meshes.new(p["name"])
        me.from_pydata(gl_to_bl(p["vertices"]).tolist(), [], p["faces"].tolist())
        me.update()
        o = bpy.data.objects.new(p["name"], me)
        bpy.context.collection.objects.link(o)
        objs.append(o)
    return {"objects": objs, "cli": rigsmith.load(cli_out), "dir": d}


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


def test_check_rig_puts_the_report_in_the_scene(scene):
    arm = next(o for o in bpy.context.scene.objects if o.type == "ARMATURE")
    bpy.context.view_layer.objects.active = arm
    assert bpy.ops.rigsmith.check() == {"FINISHED"}
    rep = json.loads(bpy.data.texts["rigsmith_report.json"].as_string())
    assert rep["checks"] and set(rep["counts"]) == {"blocker", "major", "minor"}
    assert json.loads(bpy.context.scene["rigsmith_counts"]) == rep["counts"]


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
