"""Export a glTF/GLB character as FBX with Blender (the FBX reader's test input).

Run with the bpy venv:
    $BPY_VENV/bin/python bench/fbx_from_glb_blender.py in.glb out.fbx

Blender's own glTF importer reads the file (vertices are not merged, so every part keeps
its vertex count and order) and its FBX exporter writes it with the settings a user
exporting to a game engine picks: binary FBX 7.4, Y up, -Z forward (Blender's defaults),
no leaf bones, no animation, the armature as a null; the importer's bone display
shapes are left out. Prints what it wrote.
"""
import sys

import bpy


def main(src, dst):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_scene.gltf(filepath=src)
    # The importer's bone display shapes are scene objects of their own: not the character.
    shapes = {pb.custom_shape for o in bpy.data.objects if o.type == "ARMATURE"
              for pb in o.pose.bones if pb.custom_shape}
    for o in shapes:
        bpy.data.objects.remove(o, do_unlink=True)
    bpy.ops.export_scene.fbx(
        filepath=dst,
        use_selection=False,
        object_types={"ARMATURE", "MESH", "EMPTY"},
        add_leaf_bones=False,
        bake_anim=False,
        use_armature_deform_only=False,
        mesh_smooth_type="OFF",
    )
    meshes = [o for o in bpy.data.objects if o.type == "MESH"]
    arms = [o for o in bpy.data.objects if o.type == "ARMATURE"]
    print(f"{dst}: {len(meshes)} meshes, {sum(len(o.data.vertices) for o in meshes)} vertices, "
          f"{sum(len(a.data.bones) for a in arms)} bones")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: fbx_from_glb_blender.py IN.glb OUT.fbx")
    main(sys.argv[1], sys.argv[2])
