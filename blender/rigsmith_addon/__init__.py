"""rigsmith in Blender: rig the selected meshes, check a rig, fix its weights.

Needs the ``rigsmith`` Python package in Blender's Python (the wheel the README names:
``BLENDER_PYTHON -m pip install rigsmith-*.whl``). Three operators, in the 3D view's
sidebar (N), tab "rigsmith", and in F3 search:

* **Rig with rigsmith** (``rigsmith.rig``): the selected meshes are one character (each
  stays its own object); rigsmith fits a skeleton and computes weights; an armature
  is created with the fitted bones (heads, tails, rolls from the hinge axes), each mesh
  gets one vertex group per bone and an Armature modifier, parented to it. With
  "Control rig" the control rig (IK/FK limbs, foot roll, root, settings) is built on
  the armature by the script ``rigsmith rig --control`` writes (kept as the text block
  ``rigsmith_control.py``).
* **Check rig** (``rigsmith.check``): the active armature's skeleton (without the
  control rig's MCH and control bones) and the vertex groups of the meshes it deforms
  are checked in test poses; the report is kept as the text block
  ``rigsmith_report.json`` and shown in the panel, the review sheets are loaded as the
  images ``rigsmith_placement``, ``rigsmith_poses``, ``rigsmith_joints`` (panel buttons
  open them in an Image Editor).
* **Fix weights** (``rigsmith.fix_weights``): weight fixes as data on every mesh the
  armature deforms: mirror one side onto the other, take one side's bones off the other
  half, smooth (every deform bone or the selected pose bones; every vertex or the
  selected ones), drop influences below the limit, keep the largest, normalize.

Space: Blender is Z up, rigsmith works in glTF space (Y up, facing +Z); the add-on maps
``(x, y, z) -> (x, z, -y)`` going in and back coming out. Meshes are read in world
space (their object transforms applied), without modifiers, so vertex counts and order
are Blender's.
"""

bl_info = {
    "name": "rigsmith",
    "author": "rigsmith",
    "version": (0, 1, 0),
    "blender": (4, 2, 0),
    "location": "View3D > Sidebar > rigsmith",
    "description": "Fit a skeleton and skin weights, check a rig, fix weights (rigsmith)",
    "category": "Rigging",
}

import json

import bpy
import numpy as np
from mathutils import Vector

from . import review
from .review import REPORT_TEXT, report_lines, store_report

CONTROL_TEXT = "rigsmith_control.py"
# The control rig's own bones (the script puts them in these bone collections).
CONTROL_COLLECTIONS = ("MCH", "Controls")


def _rigsmith():
    try:
        import rigsmith
    except ImportError as e:  # pragma: no cover - said to the user
        raise RuntimeError(
            "the rigsmith Python package is not installed in Blender's Python "
            "(install the wheel: BLENDER_PYTHON -m pip install rigsmith-*.whl)"
        ) from e
    return rigsmith


def to_gl(a):
    """Blender (Z up) -> glTF space (Y up), rows of n x 3."""
    a = np.asarray(a, dtype=np.float64)
    return np.stack([a[:, 0], a[:, 2], -a[:, 1]], axis=1)


def to_bl(a):
    """glTF space -> Blender, rows of n x 3."""
    a = np.asarray(a, dtype=np.float64)
    return np.stack([a[:, 0], -a[:, 2], a[:, 1]], axis=1)


def mesh_arrays(obj):
    """World-space vertices (glTF space, n x 3) and triangles (m x 3) of a mesh object."""
    me = obj.data
    n = len(me.vertices)
    co = np.empty(n * 3, dtype=np.float64)
    me.vertices.foreach_get("co", co)
    co = co.reshape(n, 3)
    mw = np.array(obj.matrix_world, dtype=np.float64)
    co = co @ mw[:3, :3].T + mw[:3, 3]
    me.calc_loop_triangles()
    tri = np.empty(len(me.loop_triangles) * 3, dtype=np.int64)
    me.loop_triangles.foreach_get("vertices", tri)
    return to_gl(co).astype(np.float32), tri.reshape(-1, 3)


def deformed_meshes(arm):
    """The mesh objects an armature deforms (Armature modifier or parent)."""
    out = []
    for o in bpy.data.objects:
        if o.type != "MESH":
            continue
        if o.parent == arm or any(m.type == "ARMATURE" and m.object == arm for m in o.modifiers):
            out.append(o)
    return sorted(out, key=lambda o: o.name)


def control_bone(b):
    """Whether a bone is one the control rig added (mechanism or control)."""
    return any(c.name in CONTROL_COLLECTIONS for c in b.collections)


def skeleton_of(arm, skip_control=False):
    """The armature's bones as a skeleton.json dict (glTF space, world); without the
    control rig's own bones when ``skip_control`` (the skeleton a game engine gets)."""
    mw = arm.matrix_world
    bones = []
    for b in arm.data.bones:
        if skip_control and control_bone(b):
            continue
        head = mw @ b.head_local
        tail = mw @ b.tail_local
        x = (mw.to_3x3() @ b.matrix_local.to_3x3().col[0]).normalized()
        bones.append({
            "name": b.name,
            "parent": b.parent.name if b.parent else None,
            "head": [head.x, head.z, -head.y],
            "tail": [tail.x, tail.z, -tail.y],
            "deform": b.use_deform,
            "x_axis": [x.x, x.z, -x.y],
        })
    return {"bones": bones}


def weight_matrix(obj, names):
    """Dense n x len(names) weights of a mesh's vertex groups named as bones."""
    n = len(obj.data.vertices)
    W = np.zeros((n, len(names)), dtype=np.float32)
    col = {}
    for g in obj.vertex_groups:
        if g.name in names:
            col[g.index] = names.index(g.name)
    for v in obj.data.vertices:
        for ge in v.groups:
            c = col.get(ge.group)
            if c is not None:
                W[v.index, c] = ge.weight
    return W


def write_weights(obj, W, names):
    """Replaces the mesh's bone vertex groups by the columns of W (zeros left out)."""
    for name in names:
        g = obj.vertex_groups.get(name)
        if g is not None:
            obj.vertex_groups.remove(g)
    for c, name in enumerate(names):
        col = W[:, c]
        nz = np.nonzero(col > 0.0)[0]
        if len(nz) == 0:
            continue
        g = obj.vertex_groups.new(name=name)
        # One call per distinct value keeps this fast on large meshes.
        vals = col[nz]
        order = np.argsort(vals, kind="stable")
        nz, vals = nz[order], vals[order]
        cuts = np.nonzero(np.diff(vals))[0] + 1
        for idx, val in zip(np.split(nz, cuts), np.split(vals, cuts)):
            g.add(idx.tolist(), float(val[0]), "REPLACE")


def build_armature(context, skeleton, name="rigsmith_rig"):
    """An armature object with the skeleton's bones (glTF space in, Blender out)."""
    data = bpy.data.armatures.new(name)
    arm = bpy.data.objects.new(name, data)
    context.collection.objects.link(arm)
    prev = context.view_layer.objects.active
    for o in context.selected_objects:
        o.select_set(False)
    context.view_layer.objects.active = arm
    arm.select_set(True)
    bpy.ops.object.mode_set(mode="EDIT")
    eb = {}
    for b in skeleton["bones"]:
        e = data.edit_bones.new(b["name"])
        h = to_bl([b["head"]])[0]
        t = to_bl([b["tail"]])[0]
        e.head = Vector(h)
        e.tail = Vector(t)
        y = np.asarray(b["tail"], dtype=np.float64) - np.asarray(b["head"], dtype=np.float64)
        x = np.asarray(b.get("x_axis") or [1.0, 0.0, 0.0], dtype=np.float64)
        z = np.cross(x, y)
        if np.linalg.norm(z) > 1e-12:
            e.align_roll(Vector(to_bl([z])[0]))
        e.use_deform = bool(b.get("deform", True))
        eb[b["name"]] = e
    for b in skeleton["bones"]:
        if b.get("parent"):
            eb[b["name"]].parent = eb[b["parent"]]
            eb[b["name"]].use_connect = False
    bpy.ops.object.mode_set(mode="OBJECT")
    if prev is not None:
        context.view_layer.objects.active = prev
    return arm


class RIGSMITH_OT_rig(bpy.types.Operator):
    """Fit a skeleton and skin weights to the selected meshes (one character)"""

    bl_idname = "rigsmith.rig"
    bl_label = "Rig with rigsmith"
    bl_options = {"REGISTER", "UNDO"}

    template: bpy.props.EnumProperty(
        name="Template",
        items=[("game", "Game", "Unreal-style names, with fingers"),
               ("basic", "Basic", "Game without fingers"),
               ("mixamo", "Mixamo", "mixamorig: names"),
               ("vrm", "VRM", "VRM humanoid names")],
        default="game",
    )
    max_influences: bpy.props.IntProperty(name="Max influences", default=4, min=1, max=8)
    control: bpy.props.BoolProperty(
        name="Control rig", default=False,
        description="Also build the control rig (IK/FK limbs, foot roll, root, settings) on the armature",
    )
    body: bpy.props.StringProperty(
        name="Skin pieces", default="",
        description="Meshes that are pieces of the skin, comma-separated (empty: judged from geometry)",
    )
    garment: bpy.props.StringProperty(
        name="Garments", default="",
        description="Meshes that are garments over the skin, comma-separated",
    )
    rigid: bpy.props.StringProperty(
        name="Rigid", default="",
        description="Rigid meshes, comma-separated, each MESH or MESH=BONE (a helmet on the head: Helmet=head)",
    )

    def execute(self, context):
        meshes = sorted((o for o in context.selected_objects if o.type == "MESH"), key=lambda o: o.name)
        if not meshes:
            self.report({"ERROR"}, "select the character's meshes")
            return {"CANCELLED"}
        try:
            rs = _rigsmith()
            parts = [(o.name,) + mesh_arrays(o) for o in meshes]
            told = [n.strip() for n in self.rigid.split(",") if n.strip()]
            out = rs.rig(parts, template=self.template, max_influences=self.max_influences,
                         keep_origin=True, control=self.control, body=self.body, garment=self.garment,
                         rigid=told)
        except (RuntimeError, ValueError, OSError) as e:
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}
        arm = build_armature(context, out["skeleton"])
        names = out["bones"]
        for o, p in zip(meshes, out["parts"]):
            if p["weights"] is not None:
                write_weights(o, p["weights"], names)
            mw = o.matrix_world.copy()
            o.parent = arm
            o.matrix_world = mw
            mod = next((m for m in o.modifiers if m.type == "ARMATURE"), None) or o.modifiers.new("rigsmith", "ARMATURE")
            mod.object = arm
        if out.get("control_script"):
            try:
                build_control_rig(context, arm, out["control_script"])
            except Exception as e:  # noqa: BLE001 - the script's error, said to the user
                self.report({"ERROR"}, f"the control rig script failed: {e}")
                return {"CANCELLED"}
        store_report(context, out["report"])
        k = out["report"]["counts"]
        self.report({"INFO"}, f"rigged: {len(names)} bones; failed checks {k['blocker']} blocker, "
                              f"{k['major']} major, {k['minor']} minor")
        return {"FINISHED"}


def _active_armature(context):
    o = context.active_object
    if o is not None and o.type == "MESH":
        o = o.parent if o.parent is not None and o.parent.type == "ARMATURE" else o
    return o if o is not None and o.type == "ARMATURE" else None


def build_control_rig(context, arm, script):
    """Runs the control rig's Blender script (``rig --control``'s ``OUT.control.py``) on
    ``arm``, kept as the text block ``rigsmith_control.py``; back to Object mode."""
    text = bpy.data.texts.get(CONTROL_TEXT) or bpy.data.texts.new(CONTROL_TEXT)
    text.clear()
    text.write(script)
    for o in context.selected_objects:
        o.select_set(False)
    arm.select_set(True)
    context.view_layer.objects.active = arm
    exec(compile(script, CONTROL_TEXT, "exec"), {"__name__": "__main__"})
    if arm.mode != "OBJECT":
        bpy.ops.object.mode_set(mode="OBJECT")
    context.view_layer.update()


class RIGSMITH_OT_check(bpy.types.Operator):
    """Check the active armature's rig in test poses: the rubric report in the panel, the review sheets as images"""

    bl_idname = "rigsmith.check"
    bl_label = "Check rig"

    def execute(self, context):
        arm = _active_armature(context)
        if arm is None:
            self.report({"ERROR"}, "make the rig's armature (or one of its meshes) active")
            return {"CANCELLED"}
        meshes = deformed_meshes(arm)
        if not meshes:
            self.report({"ERROR"}, f"{arm.name} deforms no mesh")
            return {"CANCELLED"}
        try:
            rs = _rigsmith()
            skel = skeleton_of(arm, skip_control=True)
            names = [b["name"] for b in skel["bones"]]
            parts = [(o.name,) + mesh_arrays(o) for o in meshes]
            weights = [weight_matrix(o, names) for o in meshes]
            report, sheets = review.check_with_sheets(rs, parts, skel, weights)
        except (RuntimeError, ValueError, OSError) as e:
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}
        store_report(context, report)
        k = report["counts"]
        self.report({"INFO"}, f"checked: {k['blocker']} blocker, {k['major']} major, {k['minor']} minor; "
                              f"{len(sheets)} sheets (images {', '.join(sheets)})")
        return {"FINISHED"}


class RIGSMITH_OT_fix_weights(bpy.types.Operator):
    """Weight fixes as data: mirror, strip the opposite side, smooth, drop small influences, keep the largest, normalize"""

    bl_idname = "rigsmith.fix_weights"
    bl_label = "Fix weights"
    bl_options = {"REGISTER", "UNDO"}

    mirror: bpy.props.EnumProperty(
        name="Mirror",
        items=[("NONE", "None", "No mirroring"),
               ("LEFT", "Left to right", "The left side's weights onto the right side"),
               ("RIGHT", "Right to left", "The right side's weights onto the left side")],
        default="NONE",
    )
    strip_opposite_side: bpy.props.BoolProperty(name="Strip opposite side", default=True)
    smooth: bpy.props.IntProperty(name="Smooth passes", default=0, min=0, max=50)
    smooth_factor: bpy.props.FloatProperty(name="Smooth factor", default=0.5, min=0.0, max=1.0)
    smooth_bones: bpy.props.EnumProperty(
        name="Smooth bones",
        items=[("DEFORM", "Deform bones", "Every deform bone"),
               ("SELECTED", "Selected bones", "The selected pose bones")],
        default="DEFORM",
    )
    selected_vertices: bpy.props.BoolProperty(
        name="Selected vertices only", default=False,
        description="Smooth only the selected vertices (as the weight-paint vertex mask)",
    )
    limit: bpy.props.FloatProperty(name="Limit", default=0.001, min=0.0, max=0.5)
    max_influences: bpy.props.IntProperty(name="Max influences", default=4, min=0, max=8,
                                          description="0: no limit")
    normalize: bpy.props.BoolProperty(name="Normalize", default=True)

    def fix_options(self, arm):
        """The keyword arguments of ``rigsmith.fix_weights`` these settings give."""
        bones = None
        if self.smooth_bones == "SELECTED":
            bones = [b.name for b in arm.data.bones if b.select]
        return {
            "limit": self.limit,
            "max_influences": self.max_influences or None,
            "normalize": self.normalize,
            "strip_opposite_side": self.strip_opposite_side,
            "mirror": {"NONE": None, "LEFT": "left", "RIGHT": "right"}[self.mirror],
            "smooth": self.smooth,
            "smooth_factor": self.smooth_factor,
            "smooth_bones": bones,
        }

    def execute(self, context):
        arm = _active_armature(context)
        if arm is None:
            self.report({"ERROR"}, "make the rig's armature (or one of its meshes) active")
            return {"CANCELLED"}
        totals = {}
        try:
            rs = _rigsmith()
            skel = skeleton_of(arm)
            names = [b["name"] for b in skel["bones"]]
            opts = self.fix_options(arm)
            for o in deformed_meshes(arm):
                V, F = mesh_arrays(o)
                W = weight_matrix(o, names)
                mask = None
                if self.selected_vertices:
                    mask = np.zeros(len(V), dtype=bool)
                    o.data.vertices.foreach_get("select", mask)
                W2, info = rs.fix_weights(V, W, skel, faces=F, vertex_mask=mask, **opts)
                write_weights(o, W2, names)
                for k, v in info.items():
                    totals[k] = totals.get(k, 0) + v
        except (RuntimeError, ValueError, OSError) as e:
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}
        context.scene["rigsmith_fix"] = json.dumps(totals)
        self.report({"INFO"}, f"fixed weights: {totals.get('changed', 0)} vertices changed "
                              f"({totals.get('mirrored', 0)} mirrored, {totals.get('stripped', 0)} stripped, "
                              f"{totals.get('smoothed', 0)} smoothed)")
        return {"FINISHED"}


class RIGSMITH_PT_panel(bpy.types.Panel):
    bl_label = "rigsmith"
    bl_space_type = "VIEW_3D"
    bl_region_type = "UI"
    bl_category = "rigsmith"

    def draw(self, context):
        col = self.layout.column()
        col.operator(RIGSMITH_OT_rig.bl_idname)
        col.operator(RIGSMITH_OT_rig.bl_idname, text="Rig with control rig").control = True
        col.operator(RIGSMITH_OT_check.bl_idname)
        col.operator(RIGSMITH_OT_fix_weights.bl_idname)
        box = col.box()
        for line in report_lines(review.stored_report()):
            box.label(text=line)
        row = col.row()
        for name in review.SHEETS:
            if bpy.data.images.get(review.SHEET_PREFIX + name) is not None:
                row.operator(review.RIGSMITH_OT_show_sheet.bl_idname, text=name.capitalize()).name = name


CLASSES = (RIGSMITH_OT_rig, RIGSMITH_OT_check, RIGSMITH_OT_fix_weights, review.RIGSMITH_OT_show_sheet,
           RIGSMITH_PT_panel)


def register():
    for c in CLASSES:
        bpy.utils.register_class(c)


def unregister():
    for c in reversed(CLASSES):
        bpy.utils.unregister_class(c)
