"""Blender as the peer of rigsmith's control-rig evaluator.

Usage (Python 3.11 with the `bpy` 5.0.1 module):

    python bench/control_blender.py RIG.glb RIG.control.py POSES.json OUT.json

Imports the rigged GLB in a fresh Blender scene, runs the control script rigsmith wrote
beside it (errors counted), lists the "Dependency cycle detected" lines Blender's
dependency graph prints, then sets each control pose of POSES.json (bone channels and
settings properties) and compares Blender's deform-bone matrices with the ones
rigsmith's evaluator gave for the same pose (in POSES.json, glTF space). Writes OUT.json:

    {"script_errors": [...], "cycles": [...], "poses": N,
     "max_error_h": E, "worst": {"pose": i, "bone": name},
     "per_pose": [{"error_h", "bone", "errors_h": {bone: e}, "ik_residual_h",
                   "first_solve_residual_h"}]}

"ik_residual_h" is Blender's own IK residual in that pose: the largest distance from an
IK chain's tip to its goal, over H (rigsmith's closed form has none when the goal is in
reach). "first_solve_residual_h" is the same for the hidden copies the script solves
first to warm-start each chain: Blender's iterative solver stops once an iteration turns
no joint by 1e-3 rad or more, which leaves a chain solved from rest this far off.

Errors: rotation columns directly (unit axes), translations divided by the body height
H, as rigsmith's `matrix_error` measures them.
"""
import json
import os
import sys
import tempfile
import traceback


def main():
    glb, script, poses_path, out_path = sys.argv[1:5]
    log = tempfile.NamedTemporaryFile(prefix="blender-log-", suffix=".txt", delete=False)
    log.close()
    # Blender's C code prints to file descriptors 1 and 2: catch them in a file.
    saved = os.dup(1), os.dup(2)
    fd = os.open(log.name, os.O_WRONLY | os.O_TRUNC)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    result = {"script_errors": [], "cycles": [], "poses": 0, "max_error_h": None, "per_pose": []}
    try:
        run(glb, script, poses_path, result)
    except Exception:
        result["script_errors"].append(traceback.format_exc())
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        os.close(fd)
    with open(log.name, encoding="utf-8", errors="replace") as f:
        text = f.read()
    result["cycles"] = [l.strip() for l in text.splitlines() if "Dependency cycle" in l or "cycle detected" in l.lower()]
    result["log_tail"] = text[-2000:]
    os.unlink(log.name)
    with open(out_path, "w") as f:
        json.dump(result, f, indent=1)


def run(glb, script, poses_path, result):
    import bpy
    from mathutils import Matrix, Quaternion, Vector

    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_scene.gltf(filepath=glb)
    arms = [o for o in bpy.context.scene.objects if o.type == "ARMATURE"]
    if not arms:
        raise RuntimeError("the GLB imported no armature")
    arm = arms[0]
    for o in bpy.context.selected_objects:
        o.select_set(False)
    arm.select_set(True)
    bpy.context.view_layer.objects.active = arm
    try:
        code = compile(open(script, encoding="utf-8").read(), script, "exec")
        exec(code, {"__name__": "__main__"})
    except Exception:
        result["script_errors"].append(traceback.format_exc())
        return
    if bpy.context.object and bpy.context.object.mode != "POSE":
        bpy.ops.object.mode_set(mode="POSE")
    bpy.context.view_layer.update()
    bpy.context.evaluated_depsgraph_get().update()

    data = json.load(open(poses_path))
    h = data["height"]
    settings = data["settings"]
    # Blender (x, y, z) <- glTF (x, -z, y): C maps glTF to Blender.
    C = Matrix(((1, 0, 0, 0), (0, 0, -1, 0), (0, 1, 0, 0), (0, 0, 0, 1)))
    Ci = C.inverted()
    worst = (0.0, None, None)
    for i, pose in enumerate(data["poses"]):
        for pb in arm.pose.bones:
            pb.location = (0, 0, 0)
            pb.rotation_quaternion = (1, 0, 0, 0)
            pb.scale = (1, 1, 1)
        for p in data["properties"]:
            arm.pose.bones[settings][p] = float(data["properties"][p])
        for name, t in pose["bones"].items():
            pb = arm.pose.bones[name]
            pb.location = t.get("location", [0, 0, 0])
            q = t.get("rotation", [0, 0, 0, 1])
            pb.rotation_quaternion = Quaternion((q[3], q[0], q[1], q[2]))
            pb.scale = t.get("scale", [1, 1, 1])
        for name, v in pose["props"].items():
            arm.pose.bones[settings][name] = float(v)
        bpy.context.view_layer.update()
        pose_err = (0.0, None)
        errors = {}
        for name, m in pose["expected"].items():
            pb = arm.pose.bones[name]
            got = Ci @ (arm.matrix_world @ pb.matrix)
            want = Matrix([m[c * 4:(c + 1) * 4] for c in range(4)]).transposed()
            e = 0.0
            for r in range(3):
                for c in range(3):
                    e = max(e, abs(got[r][c] - want[r][c]))
                e = max(e, abs(got[r][3] - want[r][3]) / h)
            errors[name] = e
            if e > pose_err[0] or pose_err[1] is None:
                pose_err = (e, name)
        # Blender's own IK residual: how far each IK chain's tip ends from its goal,
        # for the rig's chains and for the hidden copies that warm-start them.
        residual = {"rig": 0.0, "warm": 0.0}
        for pb in arm.pose.bones:
            for con in pb.constraints:
                if con.type == "IK" and con.subtarget:
                    tip = arm.matrix_world @ pb.tail
                    goal = arm.matrix_world @ arm.pose.bones[con.subtarget].head
                    key = "warm" if "_warm" in pb.name else "rig"
                    residual[key] = max(residual[key], (tip - goal).length / h)
        result["per_pose"].append({"error_h": pose_err[0], "bone": pose_err[1],
                                   "errors_h": errors, "ik_residual_h": residual["rig"],
                                   "first_solve_residual_h": residual["warm"]})
        if pose_err[0] >= worst[0]:
            worst = (pose_err[0], i, pose_err[1])
        result["poses"] += 1
    result["max_error_h"] = worst[0]
    result["worst"] = {"pose": worst[1], "bone": worst[2]}


if __name__ == "__main__":
    main()
