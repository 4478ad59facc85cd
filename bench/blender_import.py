"""Does Blender import a rigsmith GLB with the same weights?

Run with the bpy venv (see weights_vs_blender.sh):
    $BPY_VENV/bin/python bench/blender_import.py rigged.glb [more.glb ...]

For every file: import it with Blender's own glTF importer, then for every mesh
compare each vertex's vertex-group weights with the JOINTS_n/WEIGHTS_n stored in the
file (read here directly from the GLB), matched by position (glTF Y-up -> Blender Z-up).
Then the morph targets: every target named in the file (mesh extras.targetNames) must
come in as a shape key of the same name with the same largest displacement (within
1e-4 m), and the shape keys listed.
Prints per file: meshes, vertices matched, bones, the largest weight difference and
the shape keys. Exits 1 when a vertex is unmatched, a weight differs by more than 1e-3
or a morph target is missing or differs.
"""
import json
import struct
import sys

import bpy
import mathutils.kdtree
import numpy as np

COMP = {5121: (np.uint8, 1), 5123: (np.uint16, 2), 5125: (np.uint32, 4), 5126: (np.float32, 4)}
NCOMP = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}


def read_glb(path):
    data = open(path, "rb").read()
    magic, _, _ = struct.unpack_from("<III", data, 0)
    assert magic == 0x46546C67, f"{path}: not a GLB"
    jlen, _ = struct.unpack_from("<II", data, 12)
    doc = json.loads(data[20:20 + jlen])
    off = 20 + jlen
    blen, _ = struct.unpack_from("<II", data, off)
    return doc, data[off + 8:off + 8 + blen]


def accessor(doc, bin_, i):
    a = doc["accessors"][i]
    bv = doc["bufferViews"][a["bufferView"]]
    dt, size = COMP[a["componentType"]]
    n = NCOMP[a["type"]]
    stride = bv.get("byteStride", size * n)
    start = bv.get("byteOffset", 0) + a.get("byteOffset", 0)
    out = np.zeros((a["count"], n), dtype=np.float64)
    for k in range(a["count"]):
        out[k] = np.frombuffer(bin_, dtype=dt, count=n, offset=start + k * stride)
    if a.get("normalized"):
        out /= np.iinfo(dt).max
    return out


def file_weights(doc, bin_):
    """mesh name -> (positions n x 3, list of {joint name: weight})"""
    joints = [doc["nodes"][j]["name"] for j in doc["skins"][0]["joints"]] if doc.get("skins") else []
    out = {}
    for node in doc["nodes"]:
        if "mesh" not in node:
            continue
        mesh = doc["meshes"][node["mesh"]]
        for prim in mesh["primitives"]:
            attrs = prim["attributes"]
            pos = accessor(doc, bin_, attrs["POSITION"])
            w = [dict() for _ in range(len(pos))]
            n = 0
            while f"JOINTS_{n}" in attrs:
                J = accessor(doc, bin_, attrs[f"JOINTS_{n}"])
                W = accessor(doc, bin_, attrs[f"WEIGHTS_{n}"])
                for v in range(len(pos)):
                    for j, wt in zip(J[v], W[v]):
                        if wt > 0:
                            w[v][joints[int(j)]] = w[v].get(joints[int(j)], 0) + wt
                n += 1
            out[node.get("name", mesh.get("name"))] = (pos, w)
    return out


def file_targets(doc, bin_):
    """target name -> largest position delta (metres) over the primitives that carry it"""
    out = {}
    for mesh in doc["meshes"]:
        names = mesh.get("extras", {}).get("targetNames", [])
        for prim in mesh["primitives"]:
            for name, t in zip(names, prim.get("targets", [])):
                if "POSITION" not in t:
                    continue
                a = doc["accessors"][t["POSITION"]]
                if "bufferView" in a:
                    d = accessor(doc, bin_, t["POSITION"])
                    big = float(np.linalg.norm(d, axis=1).max()) if len(d) else 0.0
                else:  # sparse only: the values are the deltas
                    sp = a["sparse"]
                    bv = doc["bufferViews"][sp["values"]["bufferView"]]
                    start = bv.get("byteOffset", 0) + sp["values"].get("byteOffset", 0)
                    d = np.frombuffer(bin_, dtype=np.float32, count=3 * sp["count"], offset=start)
                    big = float(np.linalg.norm(d.reshape(-1, 3), axis=1).max()) if sp["count"] else 0.0
                out[name] = max(out.get(name, 0.0), big)
    return out


def blender_keys(meshes):
    """shape key name -> largest displacement from the basis (metres), over the meshes"""
    out = {}
    for obj in meshes:
        keys = obj.data.shape_keys
        if keys is None:
            continue
        basis = keys.reference_key
        for k in keys.key_blocks:
            if k == basis:
                continue
            big = max(((a.co - b.co).length for a, b in zip(k.data, basis.data)), default=0.0)
            out[k.name] = max(out.get(k.name, 0.0), big)
    return out


def check_targets(doc, bin_, meshes):
    """(lines, ok): every morph target of the file is a shape key of the same size"""
    want = file_targets(doc, bin_)
    got = blender_keys(meshes)
    bad = [n for n in want if n not in got or abs(got[n] - want[n]) > 1e-4]
    lines = [f"  shape keys: {len(got)} ({', '.join(sorted(got)) or 'none'}); "
             f"{len(want)} morph targets in the file"]
    for n in bad:
        lines.append(f"  {n}: file {want[n]:.4f} m, Blender {got.get(n, float('nan')):.4f} m")
    return lines, not bad


def main(paths):
    bad = 0
    for path in paths:
        doc, bin_ = read_glb(path)
        expected = file_weights(doc, bin_)
        bpy.ops.wm.read_factory_settings(use_empty=True)
        bpy.ops.import_scene.gltf(filepath=path)
        meshes = [o for o in bpy.data.objects if o.type == "MESH"]
        arms = [o for o in bpy.data.objects if o.type == "ARMATURE"]
        matched = unmatched = 0
        worst = 0.0
        for obj in meshes:
            if not any(m.type == "ARMATURE" for m in obj.modifiers) and not obj.vertex_groups:
                continue  # importer helpers (bone display shapes)
            mw = obj.matrix_world
            groups = {g.index: g.name for g in obj.vertex_groups}
            tree = mathutils.kdtree.KDTree(len(obj.data.vertices))
            got = []
            for v in obj.data.vertices:
                p = mw @ v.co
                tree.insert((p.x, p.z, -p.y), v.index)  # back to glTF axes
                got.append({groups[g.group]: g.weight for g in v.groups if g.weight > 0})
            tree.balance()
            exp = None
            for name, e in expected.items():
                if len(e[0]) == len(obj.data.vertices) or name == obj.name:
                    exp = e
                    if name == obj.name:
                        break
            if exp is None:
                print(f"  {obj.name}: no matching mesh in the file")
                bad += 1
                continue
            for p, w in zip(*exp):
                _, idx, dist = tree.find((p[0], p[1], p[2]))
                if idx is None or dist > 1e-5:
                    unmatched += 1
                    continue
                g = got[idx]
                matched += 1
                s = sum(w.values()) or 1.0
                for b in set(w) | set(g):
                    worst = max(worst, abs(w.get(b, 0) / s - g.get(b, 0)))
        nb = len(arms[0].data.bones) if arms else 0
        lines, keys_ok = check_targets(doc, bin_, meshes)
        ok = unmatched == 0 and worst <= 1e-3 and matched > 0 and keys_ok
        bad += 0 if ok else 1
        print(f"{path}: {len(meshes)} meshes, {matched} vertices matched, {unmatched} unmatched, "
              f"{nb} bones, largest weight difference {worst:.2e} -> {'OK' if ok else 'MISMATCH'}")
        for line in lines:
            print(line)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main(sys.argv[1:])
