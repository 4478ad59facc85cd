"""Blender side of the weights benchmark: loads mesh.obj + skeleton.json from a case
folder (glTF space: Y up, metres), builds the armature, runs Automatic Weights
(parent with automatic weights, i.e. bone heat) and writes blender_weights.json
({"weights": {bone: [[vertex, weight], ...]}, "seconds": s}).

Blender's bone heat works with absolute tolerances: on a small figure (a 0.6 m baby, an
adult at 0.3x) or a fine mesh (the body subdivided to 53k or 214k vertices) it leaves
every vertex unweighted with only a warning. When the plain run leaves any vertex
unweighted, the script also runs the workaround a Blender user applies (the figure and
its armature scaled up to 17 m tall, parented, weights kept; scale does not enter the
weights otherwise) and writes that to blender_scaled_weights.json with the factor, so
the benchmark compares against a Blender run that succeeded.

Run with the bpy venv's python:  python weights_blender.py CASE_DIR [REPEAT]
"""
import json
import sys
import time

import bpy


def to_blender(p, k=1.0):
    # glTF (x, y, z), Y up, facing +Z  ->  Blender (x, -z, y), Z up, facing -Y; scaled by k.
    return (k * p[0], -k * p[2], k * p[1])


def load_obj(path, k=1.0):
    verts, faces = [], []
    with open(path) as f:
        for line in f:
            if line.startswith("v "):
                x, y, z = map(float, line.split()[1:4])
                verts.append(to_blender((x, y, z), k))
            elif line.startswith("f "):
                faces.append([int(t.split("/")[0]) - 1 for t in line.split()[1:]])
    return verts, faces


def run(case, repeat, k=1.0, out="blender_weights.json"):
    verts, faces = load_obj(f"{case}/mesh.obj", k)
    sk = json.load(open(f"{case}/skeleton.json"))
    best = None
    weights = None
    for _ in range(repeat):
        bpy.ops.wm.read_factory_settings(use_empty=True)
        me = bpy.data.meshes.new("body")
        me.from_pydata(verts, [], faces)
        me.update()
        ob = bpy.data.objects.new("body", me)
        bpy.context.scene.collection.objects.link(ob)
        ad = bpy.data.armatures.new("rig")
        arm = bpy.data.objects.new("rig", ad)
        bpy.context.scene.collection.objects.link(arm)
        bpy.context.view_layer.objects.active = arm
        bpy.ops.object.mode_set(mode="EDIT")
        ebs = []
        for b in sk["bones"]:
            eb = ad.edit_bones.new(b["name"])
            eb.head = to_blender(b["head"], k)
            tail = to_blender(b["tail"], k)
            if sum((tail[i] - eb.head[i]) ** 2 for i in range(3)) < 1e-12:
                tail = (tail[0], tail[1], tail[2] + 1e-3 * k)
            eb.tail = tail
            eb.use_deform = bool(b.get("deform", True))
            ebs.append(eb)
        for eb, b in zip(ebs, sk["bones"]):
            if b.get("parent") is not None:
                p = b["parent"]
                eb.parent = ebs[p] if isinstance(p, int) else ad.edit_bones[p]
        bpy.ops.object.mode_set(mode="OBJECT")
        bpy.ops.object.select_all(action="DESELECT")
        ob.select_set(True)
        arm.select_set(True)
        bpy.context.view_layer.objects.active = arm
        t = time.perf_counter()
        bpy.ops.object.parent_set(type="ARMATURE_AUTO")
        dt = time.perf_counter() - t
        best = dt if best is None else min(best, dt)
        names = [g.name for g in ob.vertex_groups]
        weights = {}
        for v in me.vertices:
            for g in v.groups:
                if g.weight > 0.0:
                    weights.setdefault(names[g.group], []).append([v.index, g.weight])
    weighted = {v for lst in weights.values() for v, _ in lst}
    unweighted = len(verts) - len(weighted)
    json.dump(
        {"weights": weights, "seconds": best, "scale": k, "unweighted": unweighted},
        open(f"{case}/{out}", "w"),
    )
    print(f"blender {case} x{k:.3g}: {len(verts)} vertices, {best:.3f} s, {unweighted} unweighted")
    return verts, unweighted


if __name__ == "__main__":
    case = sys.argv[1]
    repeat = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    verts, unweighted = run(case, repeat)
    try:
        import os
        os.remove(f"{case}/blender_scaled_weights.json")
    except FileNotFoundError:
        pass
    if unweighted:
        ys = [v[2] for v in verts]
        k = 17.0 / (max(ys) - min(ys))
        run(case, repeat, k, "blender_scaled_weights.json")
