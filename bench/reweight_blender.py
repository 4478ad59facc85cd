"""Blender side of the re-weighting benchmark: loads a case folder written by
examples/reweight_case.rs (mesh.obj with one `o` block per part, skeleton.json, glTF
space), makes one mesh object per part and the armature, selects them all and runs
Automatic Weights (Ctrl+P > With Automatic Weights, as a user does on a character that
arrives in pieces), and writes blender_weights.json ({"weights": {bone: [[vertex,
weight], ...]}, "seconds": s, "unweighted": n}; vertex = OBJ index).

As in weights_blender.py: when the plain run leaves vertices unweighted, the script also
runs the user's workaround (figure and armature scaled to 17 m, weights kept) into
blender_scaled_weights.json, and the comparison takes whichever run left fewer vertices
unweighted.

Run with the bpy venv's python:  python reweight_blender.py CASE_DIR
"""
import json
import os
import sys
import time

import bpy


def to_blender(p, k=1.0):
    # glTF (x, y, z), Y up, facing +Z  ->  Blender (x, -z, y), Z up, facing -Y; scaled by k.
    return (k * p[0], -k * p[2], k * p[1])


def load_obj(path, k=1.0):
    """[(name, first vertex, verts, faces with local indices)]"""
    objs = []
    n = 0
    for line in open(path):
        if line.startswith("o "):
            objs.append([line[2:].strip(), n, [], []])
        elif line.startswith("v "):
            x, y, z = map(float, line.split()[1:4])
            objs[-1][2].append(to_blender((x, y, z), k))
            n += 1
        elif line.startswith("f "):
            s = objs[-1][1]
            objs[-1][3].append([int(t.split("/")[0]) - 1 - s for t in line.split()[1:]])
    return objs, n


def run(case, k=1.0, out="blender_weights.json"):
    objs, n = load_obj(f"{case}/mesh.obj", k)
    sk = json.load(open(f"{case}/skeleton.json"))
    bpy.ops.wm.read_factory_settings(use_empty=True)
    obs = []
    for name, start, verts, faces in objs:
        me = bpy.data.meshes.new(name)
        me.from_pydata(verts, [], faces)
        me.update()
        ob = bpy.data.objects.new(name, me)
        bpy.context.scene.collection.objects.link(ob)
        obs.append((ob, start))
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
    for ob, _ in obs:
        ob.select_set(True)
    arm.select_set(True)
    bpy.context.view_layer.objects.active = arm
    t = time.perf_counter()
    bpy.ops.object.parent_set(type="ARMATURE_AUTO")
    dt = time.perf_counter() - t
    weights = {}
    weighted = set()
    for ob, start in obs:
        names = [g.name for g in ob.vertex_groups]
        for v in ob.data.vertices:
            for g in v.groups:
                if g.weight > 0.0:
                    weights.setdefault(names[g.group], []).append([start + v.index, g.weight])
                    weighted.add(start + v.index)
    unweighted = n - len(weighted)
    json.dump({"weights": weights, "seconds": dt, "scale": k, "unweighted": unweighted},
              open(f"{case}/{out}", "w"))
    print(f"blender {case} x{k:.3g}: {len(obs)} parts, {n} vertices, {dt:.3f} s, {unweighted} unweighted")
    ys = [v[2] for _, _, verts, _ in objs for v in verts]
    return max(ys) - min(ys), unweighted


if __name__ == "__main__":
    case = sys.argv[1]
    height, unweighted = run(case)
    try:
        os.remove(f"{case}/blender_scaled_weights.json")
    except FileNotFoundError:
        pass
    if unweighted:
        run(case, 17.0 / height, "blender_scaled_weights.json")
