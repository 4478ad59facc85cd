//! The Blender script (`OUT.control.py`): run in Blender on the imported GLB, it builds
//! the same control rig on the imported armature: bones (the skeleton's own bones
//! reset to rigsmith's frames, so constraints in local space mean the same thing),
//! constraints, drivers, the settings bone's properties with their UI ranges, bone
//! collections (DEF, MCH hidden, Controls, ORG), side colours and simple widgets.
//!
//! The script carries the rig as JSON and interprets it, so what Blender builds is
//! exactly what the evaluator poses. One addition is Blender's own: each two-bone IK
//! chain is warm-started by a hidden copy of itself that solves first (Blender's
//! iterative solver stops about 1e-4 of a chain's length short of the goal when it
//! starts from rest; from the copy's answer it ends on the closed form the evaluator
//! uses). Drivers use Blender's simple expressions (sums,
//! scaling, `clamp`), which run without Python auto-run. Axes: glTF's (x, y, z) is
//! Blender's (x, -z, y), as Blender's glTF importer converts them.

use super::model::ControlRig;

/// The script for `rig` (Python for Blender 4.x/5.x).
pub fn script(rig: &ControlRig) -> String {
    let mut v = serde_json::to_value(rig).unwrap_or_default();
    // Each driver carries its expression as Blender reads it.
    if let Some(bones) = v.get_mut("bones").and_then(|b| b.as_array_mut()) {
        for (bv, b) in bones.iter_mut().zip(&rig.bones) {
            let Some(cons) = bv.get_mut("constraints").and_then(|c| c.as_array_mut()) else {
                continue;
            };
            for (cv, c) in cons.iter_mut().zip(&b.constraints) {
                if let (Some(d), Some(dv)) = (&c.driver, cv.get_mut("driver")) {
                    dv["expression"] = d.expression().into();
                }
            }
        }
    }
    let json = v.to_string();
    // Raw strings cannot hold ''' ; JSON never contains it unescaped, but be safe.
    let json = json.replace("'''", "\\u0027\\u0027\\u0027");
    SCRIPT.replace("@RIG_JSON@", &json)
}

const SCRIPT: &str = r#####"# Built by rigsmith: the control rig of this character.
# Run in Blender on the imported GLB (File > Import > glTF, then run this script):
# it adds controls, mechanism bones, constraints, drivers and the settings bone's
# switches to the imported armature.
import json

import bpy
from mathutils import Matrix, Vector

RIG = json.loads(r'''@RIG_JSON@''')

SPACE = {"world": "WORLD", "local": "LOCAL", "local_with_parent": "LOCAL_WITH_PARENT"}
ROTMIX = {"replace": "REPLACE", "add": "ADD", "before": "BEFORE", "after": "AFTER"}
TRANSMIX = {"replace": "REPLACE", "before_full": "BEFORE_FULL", "after_full": "AFTER_FULL"}
CHANNEL = {"location": "LOCATION", "rotation": "ROTATION", "scale": "SCALE"}
TYPES = {
    "copy_location": "COPY_LOCATION", "copy_rotation": "COPY_ROTATION",
    "copy_scale": "COPY_SCALE", "copy_transforms": "COPY_TRANSFORMS",
    "damped_track": "DAMPED_TRACK", "stretch_to": "STRETCH_TO",
    "limit_rotation": "LIMIT_ROTATION", "limit_location": "LIMIT_LOCATION",
    "ik": "IK", "transformation": "TRANSFORM", "child_of": "CHILD_OF",
}
# glTF (x, y, z) -> Blender (x, -z, y)
C = Matrix(((1, 0, 0, 0), (0, 0, -1, 0), (0, 1, 0, 0), (0, 0, 0, 1)))


def vec(v):
    return Vector((v[0], -v[2], v[1]))


def armature():
    obj = bpy.context.view_layer.objects.active
    if obj is not None and obj.type == "ARMATURE":
        return obj
    arms = [o for o in bpy.context.scene.objects if o.type == "ARMATURE"]
    if not arms:
        raise RuntimeError("no armature in the scene: import the rigged GLB first")
    return arms[0]


def side(name):
    if name.endswith((".L", "_l", "_L")):
        return "L"
    if name.endswith((".R", "_r", "_R")):
        return "R"
    return "C"


def widget(kind, collection):
    name = "WGT-" + kind
    if name in bpy.data.objects:
        return bpy.data.objects[name]
    import math
    verts, edges = [], []
    if kind == "circle":
        n = 24
        verts = [(0.5 * math.cos(2 * math.pi * i / n), 0.5, 0.5 * math.sin(2 * math.pi * i / n)) for i in range(n)]
        edges = [(i, (i + 1) % n) for i in range(n)]
    elif kind == "box":
        verts = [(x, y, z) for x in (-0.5, 0.5) for y in (0.0, 1.0) for z in (-0.5, 0.5)]
        edges = [(0, 1), (0, 2), (1, 3), (2, 3), (4, 5), (4, 6), (5, 7), (6, 7), (0, 4), (1, 5), (2, 6), (3, 7)]
    else:
        n = 16
        for axis in range(3):
            base = len(verts)
            for i in range(n):
                a = 2 * math.pi * i / n
                p = [0.0, 0.0, 0.0]
                p[axis] = 0.25 * math.cos(a)
                p[(axis + 1) % 3] = 0.25 * math.sin(a)
                p[1] += 0.5
                verts.append(tuple(p))
                edges.append((base + i, base + (i + 1) % n))
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(verts, edges, [])
    obj = bpy.data.objects.new(name, mesh)
    collection.objects.link(obj)
    return obj


def warm_name(name):
    for sfx in (".L", ".R"):
        if name.endswith(sfx):
            return name[:-2] + "_warm" + sfx
    return name + "_warm"


def ik_chains():
    """(upper, lower, IK constraint) of every two-bone IK chain."""
    out = []
    for b in RIG["bones"]:
        for c in b.get("constraints", []):
            if c["type"] == "ik" and c["chain"] == 2 and b.get("parent"):
                out.append((b["parent"], b["name"], c))
    return out


def add_warm_bones(eb):
    """A hidden copy of each two-bone IK chain (edit mode): see warm_start."""
    for upper, lower, _ in ik_chains():
        for name in (upper, lower):
            w = eb.get(warm_name(name)) or eb.new(warm_name(name))
            w.use_connect = False
            w.head, w.tail, w.roll = eb[name].head, eb[name].tail, eb[name].roll
            w.use_deform = False
        eb[warm_name(upper)].parent = eb[upper].parent
        eb[warm_name(lower)].parent = eb[warm_name(upper)]


def warm_start(obj, mch):
    """Blender's IK solver stops once an iteration turns no joint by 1e-3 rad or more,
    which can leave a chain's tip about 1e-4 of its length short of the goal. So each
    two-bone chain starts from the answer of a hidden copy of itself: the copy solves
    first, the chain copies its pose (Copy Transforms, first in its stack) and its own
    solve starts next to the answer and ends on it."""
    for upper, lower, c in ik_chains():
        for name in (upper, lower):
            w = obj.pose.bones[warm_name(name)]
            mch.assign(obj.data.bones[w.name])
            w.rotation_mode = "QUATERNION"
            src = obj.pose.bones[name]
            w.lock_ik_x, w.lock_ik_y, w.lock_ik_z = src.lock_ik_x, src.lock_ik_y, src.lock_ik_z
            for old in list(w.constraints):
                w.constraints.remove(old)
        add_constraint(obj, obj.pose.bones[warm_name(lower)], c)
        for name in (upper, lower):
            pb = obj.pose.bones[name]
            con = pb.constraints.new("COPY_TRANSFORMS")
            con.name = "warm start"
            con.target = obj
            con.subtarget = warm_name(name)
            pb.constraints.move(len(pb.constraints) - 1, 0)


def build():
    obj = armature()
    bpy.context.view_layer.objects.active = obj
    to_local = obj.matrix_world.inverted()
    bpy.ops.object.mode_set(mode="EDIT")
    eb = obj.data.edit_bones
    for b in RIG["bones"]:
        e = eb.get(b["name"]) or eb.new(b["name"])
        e.use_connect = False
    for b in RIG["bones"]:
        e = eb[b["name"]]
        head, tail = vec(b["head"]), vec(b["tail"])
        y = Vector(b["tail"]) - Vector(b["head"])
        x = Vector(b["x_axis"])
        x = (x - y.normalized() * x.dot(y.normalized())).normalized()
        z = x.cross(y.normalized())
        e.head = to_local @ head
        e.tail = to_local @ tail
        e.align_roll(to_local.to_3x3() @ vec(z))
        e.use_deform = bool(b["deform"])
    for b in RIG["bones"]:
        e = eb[b["name"]]
        e.parent = eb[b["parent"]] if b.get("parent") else None
    add_warm_bones(eb)
    bpy.ops.object.mode_set(mode="POSE")

    colls = {}
    for role, coll in (("DEF", "DEF"), ("MCH", "MCH"), ("CTRL", "Controls"), ("ORG", "ORG")):
        c = obj.data.collections.get(coll) or obj.data.collections.new(coll)
        c.is_visible = role == "CTRL"
        colls[role] = c
    wgt = bpy.data.collections.get("WGT") or bpy.data.collections.new("WGT")
    if wgt.name not in bpy.context.scene.collection.children:
        bpy.context.scene.collection.children.link(wgt)
    wgt.hide_viewport = True
    wgt.hide_render = True
    palette = {"L": "THEME01", "R": "THEME04", "C": "THEME09"}

    for b in RIG["bones"]:
        pb = obj.pose.bones[b["name"]]
        bone = obj.data.bones[b["name"]]
        colls[b["role"]].assign(bone)
        pb.rotation_mode = "QUATERNION"
        lock = b.get("ik_lock", [False, False, False])
        pb.lock_ik_x, pb.lock_ik_y, pb.lock_ik_z = lock
        if b["role"] == "CTRL":
            bone.color.palette = palette[side(b["name"])]
            kind = b.get("widget", "none")
            if kind != "none":
                pb.custom_shape = widget(kind, wgt)
        for c in list(pb.constraints):
            pb.constraints.remove(c)

    settings = obj.pose.bones[RIG["settings"]]
    for p in RIG["properties"]:
        pb = obj.pose.bones[p["bone"]]
        pb[p["name"]] = float(p["default"])
        ui = pb.id_properties_ui(p["name"])
        ui.update(min=p["min"], max=p["max"], soft_min=p["min"], soft_max=p["max"],
                  default=float(p["default"]), step=1 if p["switch"] else 0.1,
                  description=p["description"])

    for b in RIG["bones"]:
        pb = obj.pose.bones[b["name"]]
        for c in b.get("constraints", []):
            add_constraint(obj, pb, c)
    warm_start(obj, colls["MCH"])
    bpy.context.view_layer.update()
    return obj, settings


def add_constraint(obj, pb, c):
    t = c["type"]
    con = pb.constraints.new(TYPES[t])
    con.name = c["name"]
    if "target" in c:
        con.target = obj
        con.subtarget = c["target"]
    if t not in ("damped_track", "stretch_to", "ik"):
        con.owner_space = SPACE[c.get("owner_space", "world")]
        if hasattr(con, "target_space"):
            con.target_space = SPACE[c.get("target_space", "world")]
    con.influence = c["influence"]
    if t == "copy_location":
        con.use_x, con.use_y, con.use_z = c["axes"]
        con.head_tail = c.get("head_tail", 0.0)
        con.use_offset = False
    elif t == "copy_rotation":
        con.use_x, con.use_y, con.use_z = c["axes"]
        con.mix_mode = ROTMIX[c.get("mix", "replace")]
    elif t == "copy_scale":
        con.use_x, con.use_y, con.use_z = c["axes"]
    elif t == "copy_transforms":
        con.mix_mode = TRANSMIX[c.get("mix", "replace")]
    elif t == "damped_track":
        con.head_tail = c.get("head_tail", 0.0)
        con.track_axis = "TRACK_Y"
    elif t == "stretch_to":
        con.head_tail = c.get("head_tail", 0.0)
        con.rest_length = c["rest_length"]
        con.volume = "NO_VOLUME"
        con.keep_axis = "PLANE_X"
    elif t == "limit_rotation":
        for i, ax in enumerate("xyz"):
            lim = c["limits"][i]
            setattr(con, "use_limit_" + ax, lim is not None)
            if lim is not None:
                setattr(con, "min_" + ax, lim[0])
                setattr(con, "max_" + ax, lim[1])
    elif t == "limit_location":
        for i, ax in enumerate("xyz"):
            lo, hi = c["limits"][i]
            setattr(con, "use_min_" + ax, lo is not None)
            setattr(con, "use_max_" + ax, hi is not None)
            if lo is not None:
                setattr(con, "min_" + ax, lo)
            if hi is not None:
                setattr(con, "max_" + ax, hi)
        con.use_transform_limit = c.get("affect_transform", False)
    elif t == "ik":
        if c.get("pole"):
            con.pole_target = obj
            con.pole_subtarget = c["pole"]
            con.pole_angle = c.get("pole_angle", 0.0)
        con.chain_count = c["chain"]
        con.use_tail = True
        con.use_stretch = False
    elif t == "transformation":
        con.map_from = CHANNEL[c["from"]]
        con.map_to = CHANNEL[c["to"]]
        con.map_to_x_from, con.map_to_y_from, con.map_to_z_from = ("XYZ"[k] for k in c["map"])
        fs = {"location": "", "rotation": "_rot", "scale": "_scale"}[c["from"]]
        ts = {"location": "", "rotation": "_rot", "scale": "_scale"}[c["to"]]
        for i, ax in enumerate("xyz"):
            setattr(con, "from_min_" + ax + fs, c["from_min"][i])
            setattr(con, "from_max_" + ax + fs, c["from_max"][i])
            setattr(con, "to_min_" + ax + ts, c["to_min"][i])
            setattr(con, "to_max_" + ax + ts, c["to_max"][i])
        con.use_motion_extrapolate = c.get("extrapolate", False)
        con.mix_mode_rot = ROTMIX[c.get("mix", "replace")]
        con.mix_mode = "ADD"
        con.mix_mode_scale = "REPLACE"
    elif t == "child_of":
        inv = Matrix([c["inverse"][i * 4:(i + 1) * 4] for i in range(4)]).transposed()
        con.inverse_matrix = inv @ C.inverted()
    d = c.get("driver")
    if d:
        fc = con.driver_add("influence")
        drv = fc.driver
        drv.type = "SCRIPTED"
        for i, v in enumerate(d["vars"]):
            var = drv.variables.new()
            var.name = "abcdefghijklmnopqrstuvwxyz"[i] if i < 26 else "v%d" % i
            if v["type"] == "single_prop":
                var.type = "SINGLE_PROP"
                var.targets[0].id_type = "OBJECT"
                var.targets[0].id = obj
                var.targets[0].data_path = 'pose.bones["%s"]["%s"]' % (v["bone"], v["prop"])
            else:
                var.type = "ROTATION_DIFF"
                var.targets[0].id = obj
                var.targets[0].bone_target = v["a"]
                var.targets[1].id = obj
                var.targets[1].bone_target = v["b"]
        drv.expression = d["expression"]
        for m in list(fc.modifiers):
            fc.modifiers.remove(m)


build()
"#####;
