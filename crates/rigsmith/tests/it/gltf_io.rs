//! glTF/GLB/VRM/OBJ reading and writing: round trips on synthetic characters and the
//! Quaternius files, the Khronos validator on every written file, and bad input.

use std::path::{Path, PathBuf};

use glam::{Vec2, Vec3};
use rigsmith::io::gltf::{
    container, read_gltf, read_gltf_bytes, write_glb_bytes, write_gltf, GltfBuffers, WriteOptions,
};
use rigsmith::io::{read_character, write_character};
use rigsmith::model::{Bone, Character, Influence, Mesh, MorphTarget, Part, Skeleton, Weights};
use rigsmith::Error;
use serde_json::{json, Value};

use crate::common::{quaternius_dir, tmpdir, validate_gltf};

// ---------------------------------------------------------------- helpers

/// A small skinned character: a 4-bone chain (pelvis -> spine -> thigh.L / thigh.R),
/// a "body" grid skinned with up to `infl` influences, a morph target and UVs, and an
/// unweighted "eyes" part with another material.
pub(crate) fn synthetic(infl: usize) -> Character {
    let bones = vec![
        Bone::new(
            "pelvis",
            None,
            Vec3::new(0.0, 1.0, 0.0),
            Vec3::new(0.0, 1.2, 0.0),
        ),
        Bone::new(
            "spine",
            Some(0),
            Vec3::new(0.0, 1.2, 0.0),
            Vec3::new(0.0, 1.5, 0.05),
        ),
        Bone::new(
            "thigh.L",
            Some(0),
            Vec3::new(0.1, 1.0, 0.0),
            Vec3::new(0.12, 0.55, 0.02),
        ),
        Bone::new(
            "thigh.R",
            Some(0),
            Vec3::new(-0.1, 1.0, 0.0),
            Vec3::new(-0.12, 0.55, 0.02),
        ),
        Bone::new(
            "shin.L",
            Some(2),
            Vec3::new(0.12, 0.55, 0.02),
            Vec3::new(0.12, 0.1, -0.02),
        ),
        Bone::new(
            "shin.R",
            Some(3),
            Vec3::new(-0.12, 0.55, 0.02),
            Vec3::new(-0.12, 0.1, -0.02),
        ),
        Bone::new(
            "hair_01",
            Some(1),
            Vec3::new(0.0, 1.5, -0.05),
            Vec3::new(0.0, 1.4, -0.15),
        ),
        Bone::new(
            "hair_02",
            Some(6),
            Vec3::new(0.0, 1.4, -0.15),
            Vec3::new(0.0, 1.3, -0.2),
        ),
    ];
    let mut skel = Skeleton { bones };
    let y = skel.bones[2].y_axis();
    let x = Vec3::new(1.0, 0.0, 0.3);
    skel.bones[2].x_axis = (x - y * x.dot(y)).normalize();
    let nb = skel.len() as u32;
    let (w, h) = (6usize, 10usize);
    let mut positions = Vec::new();
    let mut uvs = Vec::new();
    for j in 0..h {
        for i in 0..w {
            let a = i as f32 / w as f32 * std::f32::consts::TAU;
            positions.push(Vec3::new(
                0.15 * a.cos(),
                0.1 + 1.5 * j as f32 / (h - 1) as f32,
                0.15 * a.sin(),
            ));
            uvs.push(Vec2::new(i as f32 / w as f32, j as f32 / h as f32));
        }
    }
    let mut triangles = Vec::new();
    for j in 0..h - 1 {
        for i in 0..w {
            let a = (j * w + i) as u32;
            let b = (j * w + (i + 1) % w) as u32;
            let (c, d) = (a + w as u32, b + w as u32);
            triangles.push([a, b, d]);
            triangles.push([a, d, c]);
        }
    }
    let n = positions.len();
    let mut weights = Weights::empty(n);
    for v in 0..n {
        let k = 1 + v % infl; // 1..=infl influences, varied
        let mut s = 0.0;
        for m in 0..k {
            let wt = 1.0 + (v * 7 + m * 3) as f32 % 5.0;
            s += wt;
            weights.vertices[v].push(Influence {
                bone: ((v + m * 3) as u32) % nb,
                weight: wt,
            });
        }
        for i in &mut weights.vertices[v] {
            i.weight /= s;
        }
    }
    weights.sort();
    let morph = MorphTarget {
        name: "bulge".into(),
        position_deltas: positions
            .iter()
            .map(|p| Vec3::new(p.x, 0.0, p.z) * 0.1)
            .collect(),
        normal_deltas: None,
    };
    let body = Part {
        name: "body".into(),
        material: Some("Skin".into()),
        mesh: Mesh {
            positions,
            triangles,
            normals: None,
            uvs: Some(uvs),
        },
        weights: Some(weights),
        morphs: vec![morph],
    };
    let eyes = Part {
        name: "eyes".into(),
        material: Some("Eye".into()),
        mesh: Mesh {
            positions: vec![
                Vec3::new(0.05, 1.6, 0.1),
                Vec3::new(0.07, 1.6, 0.1),
                Vec3::new(0.06, 1.62, 0.1),
            ],
            triangles: vec![[0, 1, 2]],
            normals: Some(vec![Vec3::Z; 3]),
            uvs: None,
        },
        weights: None,
        morphs: vec![],
    };
    Character {
        parts: vec![body, eyes],
        skeleton: Some(skel),
        vrm: None,
        warnings: vec![],
        ..Default::default()
    }
}

fn assert_valid(path: &Path) {
    let (errors, _warnings) = validate_gltf(path);
    assert_eq!(errors, 0, "glTF-Validator errors in {}", path.display());
}

/// Asserts `b` keeps what a round trip must keep from `a`: parts (names, vertex order
/// and count, positions to 1e-6 relative, triangles), weights (1e-4, after
/// normalization and limiting to `infl`), joint names and hierarchy, morph targets.
fn assert_same(a: &Character, b: &Character, infl: usize) {
    let (lo, hi) = a.bounds();
    let size = (hi - lo).max_element().max(1e-6);
    assert_eq!(a.parts.len(), b.parts.len());
    for (pa, pb) in a.parts.iter().zip(&b.parts) {
        assert_eq!(pa.name, pb.name);
        assert_eq!(pa.material, pb.material, "material of {}", pa.name);
        assert_eq!(
            pa.mesh.positions.len(),
            pb.mesh.positions.len(),
            "vertex count of {}",
            pa.name
        );
        for (p, q) in pa.mesh.positions.iter().zip(&pb.mesh.positions) {
            assert!((*p - *q).length() <= 1e-6 * size, "{}: {p} vs {q}", pa.name);
        }
        assert_eq!(
            pa.mesh.triangles, pb.mesh.triangles,
            "triangles of {}",
            pa.name
        );
        assert_eq!(
            pa.weights.is_some(),
            pb.weights.is_some(),
            "skinned? {}",
            pa.name
        );
        if let (Some(wa), Some(wb)) = (&pa.weights, &pb.weights) {
            let (sa, sb) = (a.skeleton.as_ref().unwrap(), b.skeleton.as_ref().unwrap());
            let mut wa = wa.clone();
            wa.limit(infl);
            for (v, (la, lb)) in wa.vertices.iter().zip(&wb.vertices).enumerate() {
                if la.is_empty() {
                    continue;
                }
                assert_eq!(
                    la.len(),
                    lb.len(),
                    "{} vertex {v}: {la:?} vs {lb:?}",
                    pa.name
                );
                for i in la {
                    let name = &sa.bones[i.bone as usize].name;
                    let j = sb.find(name).unwrap();
                    let wbv: f32 = lb
                        .iter()
                        .filter(|x| x.bone as usize == j)
                        .map(|x| x.weight)
                        .sum();
                    assert!(
                        (i.weight - wbv).abs() < 1e-4,
                        "{} vertex {v} bone {name}: {} vs {wbv}",
                        pa.name,
                        i.weight
                    );
                }
            }
        }
        assert_eq!(pa.morphs.len(), pb.morphs.len());
        for (ma, mb) in pa.morphs.iter().zip(&pb.morphs) {
            assert_eq!(ma.name, mb.name);
            for (d, e) in ma.position_deltas.iter().zip(&mb.position_deltas) {
                assert!((*d - *e).length() <= 1e-6 * size);
            }
        }
    }
    match (&a.skeleton, &b.skeleton) {
        (Some(sa), Some(sb)) => {
            assert_eq!(sa.len(), sb.len());
            for (ba, bb) in sa.bones.iter().zip(&sb.bones) {
                assert_eq!(ba.name, bb.name);
                assert_eq!(
                    ba.parent.map(|p| &sa.bones[p].name),
                    bb.parent.map(|p| &sb.bones[p].name),
                    "parent of {}",
                    ba.name
                );
                assert!(
                    (ba.head - bb.head).length() <= 1e-5 * size,
                    "head of {}: {} vs {}",
                    ba.name,
                    ba.head,
                    bb.head
                );
            }
        }
        (None, None) => {}
        _ => panic!("skeleton present on one side only"),
    }
}

fn write_read(c: &Character, dir: &Path, name: &str, opts: &WriteOptions) -> (PathBuf, Character) {
    let path = dir.join(name);
    write_character(&path, c, opts).unwrap();
    assert_valid(&path);
    let back = read_character(&path).unwrap();
    (path, back)
}

// ---------------------------------------------------------------- round trips

#[test]
fn synthetic_round_trip_glb() {
    let c = synthetic(4);
    c.validate().unwrap();
    let dir = tmpdir();
    let (_, back) = write_read(&c, dir.path(), "s.glb", &WriteOptions::default());
    assert_same(&c, &back, 4);
    // Bones come back with the same rest frame: heads, tails' direction, hinge axis.
    let (sa, sb) = (
        c.skeleton.as_ref().unwrap(),
        back.skeleton.as_ref().unwrap(),
    );
    for (a, b) in sa.bones.iter().zip(&sb.bones) {
        assert!(
            (a.x_axis - b.x_axis).length() < 1e-4,
            "{}: {} vs {}",
            a.name,
            a.x_axis,
            b.x_axis
        );
        assert_eq!(a.side, b.side);
    }
    // thigh.L has a single child: its tail is the child's head.
    assert!((sb.bones[2].tail - sa.bones[2].tail).length() < 1e-5);
    // Normals were computed (unit), UVs kept, eyes unskinned.
    let body = &back.parts[0];
    assert!(body
        .mesh
        .normals
        .as_ref()
        .unwrap()
        .iter()
        .all(|n| (n.length() - 1.0).abs() < 1e-4));
    assert_eq!(
        body.mesh.uvs.as_ref().unwrap()[7],
        c.parts[0].mesh.uvs.as_ref().unwrap()[7]
    );
    assert!(back.parts[1].weights.is_none());
    assert!(back.warnings.is_empty(), "{:?}", back.warnings);
}

#[test]
fn synthetic_round_trip_eight_influences() {
    let c = synthetic(6);
    let dir = tmpdir();
    let opts = WriteOptions {
        max_influences: 8,
        ..Default::default()
    };
    let (path, back) = write_read(&c, dir.path(), "s8.glb", &opts);
    assert_same(&c, &back, 8);
    assert_eq!(back.parts[0].weights.as_ref().unwrap().max_influences(), 6);
    let json = std::str::from_utf8(&std::fs::read(&path).unwrap()[..])
        .map(|_| ())
        .is_err();
    assert!(json, "a GLB is binary");
    let bytes = std::fs::read(&path).unwrap();
    let (j, _) = container::split_glb(&bytes, &path).unwrap();
    let v: Value = serde_json::from_slice(j).unwrap();
    assert!(v
        .pointer("/meshes/0/primitives/0/attributes/JOINTS_1")
        .is_some());
    assert!(v
        .pointer("/meshes/0/primitives/0/attributes/WEIGHTS_1")
        .is_some());
    // With 4, the 5th and 6th influences are dropped and the rest renormalized.
    let (_, back4) = write_read(&c, dir.path(), "s4.glb", &WriteOptions::default());
    assert_eq!(back4.parts[0].weights.as_ref().unwrap().max_influences(), 4);
    assert_same(&c, &back4, 4);
}

#[test]
fn synthetic_round_trip_gltf_embedded_and_sidecar() {
    let c = synthetic(4);
    let dir = tmpdir();
    let emb = dir.path().join("e.gltf");
    write_gltf(&emb, &c, &WriteOptions::default(), GltfBuffers::Embedded).unwrap();
    assert_valid(&emb);
    assert_same(&c, &read_character(&emb).unwrap(), 4);
    let side = dir.path().join("s.gltf");
    write_gltf(&side, &c, &WriteOptions::default(), GltfBuffers::Sidecar).unwrap();
    assert!(dir.path().join("s.bin").exists());
    assert_valid(&side);
    assert_same(&c, &read_character(&side).unwrap(), 4);
    // write_character picks the sidecar form for .gltf.
    let w = dir.path().join("w.gltf");
    write_character(&w, &c, &WriteOptions::default()).unwrap();
    assert!(dir.path().join("w.bin").exists());
}

#[test]
fn written_bytes_are_deterministic() {
    let c = synthetic(4);
    let a = write_glb_bytes(&c, &WriteOptions::default()).unwrap();
    let b = write_glb_bytes(&c.clone(), &WriteOptions::default()).unwrap();
    assert_eq!(a, b);
}

#[test]
fn unweighted_vertex_of_a_skinned_part_is_bound_to_the_root() {
    let mut c = synthetic(4);
    c.parts[0].weights.as_mut().unwrap().vertices[5].clear();
    let dir = tmpdir();
    let (_, back) = write_read(&c, dir.path(), "u.glb", &WriteOptions::default());
    let l = &back.parts[0].weights.as_ref().unwrap().vertices[5];
    assert_eq!(l.len(), 1);
    assert_eq!(l[0].bone, 0);
    assert!((l[0].weight - 1.0).abs() < 1e-6);
}

#[test]
fn writer_rejects_an_invalid_character() {
    let mut c = synthetic(4);
    c.parts[0].mesh.triangles[0] = [0, 1, 9999];
    let e = write_glb_bytes(&c, &WriteOptions::default()).unwrap_err();
    assert!(e.to_string().contains("body"), "{e}");
    // Clean twin.
    assert!(write_glb_bytes(&synthetic(4), &WriteOptions::default()).is_ok());
}

#[test]
fn write_character_refuses_other_extensions() {
    let dir = tmpdir();
    let e = write_character(
        &dir.path().join("x.fbx"),
        &synthetic(4),
        &WriteOptions::default(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("x.fbx"), "{e}");
}

/// The five Quaternius characters: expected parts, vertices and joints (from their
/// README), then read -> write -> validate -> read keeps everything.
#[test]
fn quaternius_read_and_round_trip() {
    let dir = quaternius_dir();
    let expect = [
        ("men_Casual.glb", 10, Some(12_516), 49),
        ("men_Farmer.glb", 12, None, 49), // 12 primitives in 4 meshes (its README says 10)
        ("knight_KnightCharacter.glb", 3, Some(2_058), 31),
        ("platformer_Character_HumanoidRig.glb", 11, Some(1_895), 27),
        ("animals_Fox.glb", 5, Some(3_752), 51),
    ];
    let tmp = tmpdir();
    for (file, parts, verts, joints) in expect {
        let c = read_gltf(&dir.join(file)).unwrap();
        c.validate().unwrap();
        assert_eq!(c.parts.len(), parts, "{file} parts");
        if let Some(v) = verts {
            assert_eq!(c.vertex_count(), v, "{file} vertices");
        }
        let s = c.skeleton.as_ref().unwrap();
        assert_eq!(s.len(), joints, "{file} joints");
        assert!(
            c.parts.iter().all(|p| p.weights.is_some()),
            "{file}: every part skinned"
        );
        // Bone tails are in proportion to the body (no zero-length or absurd bones).
        let h = (c.bounds().1 - c.bounds().0).max_element();
        for b in &s.bones {
            assert!(
                b.length() > 0.002 * h && b.length() < 0.6 * h,
                "{file} {}: length {} of {h}",
                b.name,
                b.length()
            );
        }
        // The skeleton sits in the mesh: every head inside the bounds grown by 5 %
        // (IK pole targets float in front of the knees by design).
        let (lo, hi) = c.bounds();
        for b in s.bones.iter().filter(|b| !b.name.starts_with("PoleTarget")) {
            let inside =
                (b.head - lo).min_element() > -0.05 * h && (hi - b.head).min_element() > -0.05 * h;
            assert!(
                inside,
                "{file} {} head {} outside {lo}..{hi}",
                b.name, b.head
            );
        }
        let (_, back) = write_read(&c, tmp.path(), file, &WriteOptions::default());
        assert_same(&c, &back, 4);
    }
}

#[test]
fn a_mesh_only_glb_from_another_tool_reads() {
    // One unskinned primitive, no indices, no normals, no scene: what a simple exporter writes.
    let pos: Vec<f32> = vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0];
    let bin: Vec<u8> = pos.iter().flat_map(|f| f.to_le_bytes()).collect();
    let doc = json!({
        "asset": {"version": "2.0", "generator": "someone else"},
        "buffers": [{"byteLength": 36}],
        "bufferViews": [{"buffer": 0, "byteLength": 36}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0,0,0], "max": [1,1,0]}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        "nodes": [{"mesh": 0, "translation": [0.0, 2.0, 0.0]}]
    });
    let glb = container::pack(&serde_json::to_vec(&doc).unwrap(), &bin);
    let dir = tmpdir();
    let p = dir.path().join("other.glb");
    std::fs::write(&p, &glb).unwrap();
    assert_valid(&p);
    let c = read_character(&p).unwrap();
    assert_eq!(c.parts.len(), 1);
    assert_eq!(c.parts[0].name, "mesh0");
    assert_eq!(c.parts[0].mesh.triangles, vec![[0, 1, 2]]);
    assert!(
        (c.parts[0].mesh.positions[2] - Vec3::new(0.0, 3.0, 0.0)).length() < 1e-6,
        "node transform baked"
    );
    assert!(c.skeleton.is_none());
}

// ---------------------------------------------------------------- hand-built documents

/// A valid skinned one-triangle document with two joints (root at the origin, child
/// 1 m up), a sparse morph target, and its buffer. Tests break one thing at a time.
pub(crate) fn tiny() -> (Value, Vec<u8>) {
    let mut bin: Vec<u8> = Vec::new();
    let f = |b: &mut Vec<u8>, v: &[f32]| b.extend(v.iter().flat_map(|x| x.to_le_bytes()));
    f(&mut bin, &[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]); // 0..36 positions
    bin.extend([0u16, 1, 2].iter().flat_map(|x| x.to_le_bytes())); // 36..42 indices
    bin.extend([0, 0]); // pad to 44
    bin.extend([0u8, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0]); // 44..56 joints u8
    bin.extend([255u8, 0, 0, 0, 128, 127, 0, 0, 0, 255, 0, 0]); // 56..68 weights u8 normalized
    let id = glam::Mat4::IDENTITY.to_cols_array();
    let up = glam::Mat4::from_translation(Vec3::new(0.0, -1.0, 0.0)).to_cols_array();
    f(&mut bin, &id); // 68..132
    f(&mut bin, &up); // 132..196
    bin.extend(2u32.to_le_bytes()); // 196..200 sparse index: vertex 2
    f(&mut bin, &[0.0, 0.5, 0.0]); // 200..212 sparse value
    let doc = json!({
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0, 2]}],
        "nodes": [
            {"name": "root", "children": [1]},
            {"name": "child", "translation": [0.0, 1.0, 0.0]},
            {"name": "tri", "mesh": 0, "skin": 0}
        ],
        "skins": [{"joints": [0, 1], "inverseBindMatrices": 4}],
        "meshes": [{"name": "tri", "extras": {"targetNames": ["lift"]}, "primitives": [{
            "attributes": {"POSITION": 0, "JOINTS_0": 2, "WEIGHTS_0": 3},
            "indices": 1,
            "targets": [{"POSITION": 5}]
        }]}],
        "buffers": [{"byteLength": 212}],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": 36},
            {"buffer": 0, "byteOffset": 36, "byteLength": 6},
            {"buffer": 0, "byteOffset": 44, "byteLength": 12},
            {"buffer": 0, "byteOffset": 56, "byteLength": 12},
            {"buffer": 0, "byteOffset": 68, "byteLength": 128},
            {"buffer": 0, "byteOffset": 196, "byteLength": 4},
            {"buffer": 0, "byteOffset": 200, "byteLength": 12}
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0,0,0], "max": [1,1,0]},
            {"bufferView": 1, "componentType": 5123, "count": 3, "type": "SCALAR"},
            {"bufferView": 2, "componentType": 5121, "count": 3, "type": "VEC4"},
            {"bufferView": 3, "componentType": 5121, "normalized": true, "count": 3, "type": "VEC4"},
            {"bufferView": 4, "componentType": 5126, "count": 2, "type": "MAT4"},
            {"componentType": 5126, "count": 3, "type": "VEC3", "min": [0,0,0], "max": [0,0.5,0],
             "sparse": {"count": 1, "indices": {"bufferView": 5, "componentType": 5125}, "values": {"bufferView": 6}}}
        ]
    });
    (doc, bin)
}

pub(crate) fn glb_of(doc: &Value, bin: &[u8]) -> Vec<u8> {
    container::pack(&serde_json::to_vec(doc).unwrap(), bin)
}

pub(crate) fn read_tiny(doc: &Value, bin: &[u8]) -> rigsmith::Result<Character> {
    read_gltf_bytes(&glb_of(doc, bin), Path::new("tiny.glb"))
}

/// The error of reading, as text; asserts it names the file and each of `needles`.
pub(crate) fn err_of(r: rigsmith::Result<Character>, needles: &[&str]) -> String {
    let e = r.expect_err("bad input must be an error");
    assert!(
        matches!(e, Error::Format { .. } | Error::Io { .. }),
        "{e:?}"
    );
    let s = e.to_string();
    assert!(
        s.contains("tiny.glb") || s.contains(".gltf"),
        "names the file: {s}"
    );
    for n in needles {
        assert!(s.contains(n), "{s:?} should contain {n:?}");
    }
    s
}

#[test]
fn tiny_document_reads_with_u8_weights_and_sparse_morph() {
    let (doc, bin) = tiny();
    let dir = tmpdir();
    let p = dir.path().join("tiny.glb");
    std::fs::write(&p, glb_of(&doc, &bin)).unwrap();
    assert_valid(&p);
    let c = read_tiny(&doc, &bin).unwrap();
    let s = c.skeleton.as_ref().unwrap();
    assert_eq!(
        s.bones.iter().map(|b| b.name.as_str()).collect::<Vec<_>>(),
        ["root", "child"]
    );
    assert_eq!(s.bones[1].parent, Some(0));
    assert!((s.bones[1].head - Vec3::Y).length() < 1e-6);
    assert!(
        (s.bones[0].tail - Vec3::Y).length() < 1e-6,
        "root points at its child"
    );
    let w = c.parts[0].weights.as_ref().unwrap();
    assert_eq!(
        w.vertices[0],
        vec![Influence {
            bone: 0,
            weight: 1.0
        }]
    );
    assert!(
        (w.get(1, 0) - 128.0 / 255.0).abs() < 1e-6 && (w.get(1, 1) - 127.0 / 255.0).abs() < 1e-6
    );
    let m = &c.parts[0].morphs[0];
    assert_eq!(m.name, "lift");
    assert_eq!(
        m.position_deltas,
        vec![Vec3::ZERO, Vec3::ZERO, Vec3::new(0.0, 0.5, 0.0)]
    );
}

#[test]
fn several_skins_merge_into_one_skeleton_by_node() {
    let (mut doc, bin) = tiny();
    // A second mesh node using a second skin over the same joints in another order.
    doc["skins"]
        .as_array_mut()
        .unwrap()
        .push(json!({"joints": [1, 0]}));
    doc["nodes"]
        .as_array_mut()
        .unwrap()
        .push(json!({"name": "tri2", "mesh": 0, "skin": 1}));
    doc["scenes"][0]["nodes"]
        .as_array_mut()
        .unwrap()
        .push(json!(3));
    let c = read_tiny(&doc, &bin).unwrap();
    assert_eq!(c.skeleton.as_ref().unwrap().len(), 2);
    assert_eq!(c.parts.len(), 2);
    assert_eq!(c.parts[1].name, "tri.1");
    // Joint 0 of skin 1 is node 1 = bone "child".
    assert_eq!(c.parts[1].weights.as_ref().unwrap().vertices[0][0].bone, 1);
}

// ---------------------------------------------------------------- bad input (each a test)

#[test]
fn bad_truncated_glb() {
    let (doc, bin) = tiny();
    let g = glb_of(&doc, &bin);
    err_of(
        read_gltf_bytes(&g[..g.len() - 40], Path::new("tiny.glb")),
        &["header.length", "truncated"],
    );
    err_of(
        read_gltf_bytes(&g[..7], Path::new("tiny.glb")),
        &["truncated"],
    );
}

#[test]
fn bad_wrong_magic() {
    let (doc, bin) = tiny();
    let mut g = glb_of(&doc, &bin);
    g[..4].copy_from_slice(b"GLTF");
    err_of(read_gltf_bytes(&g, Path::new("tiny.glb")), &["magic"]);
}

#[test]
fn bad_json_chunk_not_json() {
    let g = container::pack(b"{\"asset\": {\"version\": \"2.0\"", &[]);
    err_of(
        read_gltf_bytes(&g, Path::new("tiny.glb")),
        &["chunks[0]", "not valid JSON"],
    );
}

#[test]
fn bad_accessor_past_its_buffer() {
    let (mut doc, bin) = tiny();
    doc["accessors"][0]["count"] = json!(4);
    err_of(
        read_tiny(&doc, &bin),
        &[
            "meshes[0].primitives[0].attributes.POSITION",
            "past the end",
        ],
    );
    let (mut doc, bin) = tiny();
    doc["bufferViews"][3]["byteLength"] = json!(400);
    err_of(read_tiny(&doc, &bin), &["bufferViews[3]", "past the end"]);
}

#[test]
fn bad_index_out_of_range() {
    let (doc, mut bin) = tiny();
    bin[40..42].copy_from_slice(&7u16.to_le_bytes());
    err_of(
        read_tiny(&doc, &bin),
        &["meshes[0].primitives[0].indices", "index 7 is out of range"],
    );
}

#[test]
fn bad_nan_and_inf_positions() {
    for bad in [f32::NAN, f32::INFINITY] {
        let (doc, mut bin) = tiny();
        bin[16..20].copy_from_slice(&bad.to_le_bytes());
        err_of(
            read_tiny(&doc, &bin),
            &["attributes.POSITION", "vertex 1", "non-finite"],
        );
    }
}

#[test]
fn bad_missing_external_buffer() {
    let (mut doc, _) = tiny();
    doc["buffers"][0]["uri"] = json!("missing.bin");
    let dir = tmpdir();
    let p = dir.path().join("tiny.gltf");
    std::fs::write(&p, serde_json::to_vec(&doc).unwrap()).unwrap();
    err_of(read_character(&p), &["buffers[0].uri", "missing.bin"]);
}

#[test]
fn bad_zero_triangles() {
    let (mut doc, bin) = tiny();
    doc["accessors"][1]["count"] = json!(0);
    err_of(
        read_tiny(&doc, &bin),
        &["meshes[0].primitives[0]", "no triangles"],
    );
}

#[test]
fn bad_joints_pointing_at_missing_nodes() {
    let (mut doc, bin) = tiny();
    doc["skins"][0]["joints"] = json!([0, 99]);
    err_of(read_tiny(&doc, &bin), &["skins[0].joints[1]", "99"]);
    // A JOINTS_0 entry past the skin's joint list.
    let (doc, mut bin) = tiny();
    bin[44] = 5;
    err_of(read_tiny(&doc, &bin), &["attributes.JOINTS_0", "joint 5"]);
}

#[test]
fn bad_weights_all_zero() {
    let (doc, mut bin) = tiny();
    bin[56..68].fill(0);
    err_of(read_tiny(&doc, &bin), &["attributes.WEIGHTS_0", "all zero"]);
}

#[test]
fn bad_declared_length_of_gigabytes() {
    let (doc, bin) = tiny();
    // GLB header.
    let mut g = glb_of(&doc, &bin);
    g[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
    err_of(
        read_gltf_bytes(&g, Path::new("tiny.glb")),
        &["header.length", "4294967295"],
    );
    // Chunk length.
    let mut g = glb_of(&doc, &bin);
    g[12..16].copy_from_slice(&0xF000_0000u32.to_le_bytes());
    err_of(
        read_gltf_bytes(&g, Path::new("tiny.glb")),
        &["chunks[0].length"],
    );
    // Buffer byteLength.
    let (mut d, b) = tiny();
    d["buffers"][0]["byteLength"] = json!(8_000_000_000u64);
    err_of(read_tiny(&d, &b), &["buffers[0].byteLength", "8000000000"]);
    // Accessor count, with and without a buffer view.
    let (mut d, b) = tiny();
    d["accessors"][0]["count"] = json!(4_000_000_000u64);
    err_of(read_tiny(&d, &b), &["attributes.POSITION", "past the end"]);
    let (mut d, b) = tiny();
    d["accessors"][5]["count"] = json!(4_000_000_000u64);
    err_of(read_tiny(&d, &b), &["targets[0].POSITION"]);
}

#[test]
fn bad_node_cycle_and_two_parents() {
    let (mut doc, bin) = tiny();
    doc["nodes"][1]["children"] = json!([0]);
    err_of(read_tiny(&doc, &bin), &["nodes["]);
    let (mut doc, bin) = tiny();
    doc["nodes"][2]["children"] = json!([1]);
    err_of(
        read_tiny(&doc, &bin),
        &["nodes[2].children[0]", "more than one parent"],
    );
}

#[test]
fn bad_unsupported_extension() {
    let e = read_character(Path::new("model.blend")).unwrap_err();
    assert!(
        e.to_string().contains("model.blend") && e.to_string().contains("unsupported"),
        "{e}"
    );
}

// ---------------------------------------------------------------- OBJ and VRM

#[test]
fn obj_groups_and_materials_become_parts() {
    let dir = tmpdir();
    std::fs::write(
        dir.path().join("m.mtl"),
        "newmtl Skin\nKd 1 0.8 0.7\nnewmtl Cloth\nKd 0 0 1\n",
    )
    .unwrap();
    let obj = "mtllib m.mtl\n\
        v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 2 0\nv 1 2 0\n\
        o body\nusemtl Skin\nf 1 2 3 4\n\
        o shirt\nusemtl Cloth\nf 4 3 6\nf 4 6 5\n";
    let p = dir.path().join("m.obj");
    std::fs::write(&p, obj).unwrap();
    let c = read_character(&p).unwrap();
    assert_eq!(c.parts.len(), 2);
    assert_eq!(c.parts[0].name, "body");
    assert_eq!(c.parts[0].material.as_deref(), Some("Skin"));
    assert_eq!(c.parts[0].mesh.triangles.len(), 2, "quad fan-triangulated");
    assert_eq!(c.parts[1].name, "shirt");
    assert_eq!(c.parts[1].material.as_deref(), Some("Cloth"));
    assert_eq!(c.parts[1].mesh.positions.len(), 4);
    assert!(c.skeleton.is_none());
    // Written back, the OBJ character passes the validator.
    let out = dir.path().join("m.glb");
    write_character(&out, &c, &WriteOptions::default()).unwrap();
    assert_valid(&out);
    assert_same(&c, &read_character(&out).unwrap(), 4);
}

#[test]
fn obj_vertices_keep_their_file_order() {
    // Faces use the vertices out of order; the part keeps the order of the `v` lines.
    let dir = tmpdir();
    let obj = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0.5 2 0.25\n\
        o body\nf 5 4 3\nf 3 2 1\nf 1 4 3\n";
    let p = dir.path().join("order.obj");
    std::fs::write(&p, obj).unwrap();
    let c = read_character(&p).unwrap();
    let m = &c.parts[0].mesh;
    let want = [
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [1.0, 1.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.5, 2.0, 0.25],
    ];
    assert_eq!(m.positions.len(), 5);
    for (p, w) in m.positions.iter().zip(want) {
        assert_eq!(p.to_array(), w);
    }
    // Triangles still name the same corners.
    assert_eq!(m.triangles[0], [4, 3, 2]);
    assert_eq!(m.triangles[1], [2, 1, 0]);
}

#[test]
fn obj_nan_normals_and_uvs_are_repaired_and_reported() {
    let dir = tmpdir();
    let p = dir.path().join("nan.obj");
    let obj = "o tri\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt nan 0.5\nvt 1 1\n\
        vn nan 0 1\nvn 0 0 0\nvn 0 0 1\nf 1/1/1 2/2/2 3/3/3\n";
    std::fs::write(&p, obj).unwrap();
    let c = read_character(&p).unwrap();
    let m = &c.parts[0].mesh;
    assert!(m
        .normals
        .as_ref()
        .unwrap()
        .iter()
        .all(|n| (*n - Vec3::Z).length() < 1e-6));
    assert_eq!(m.uvs.as_ref().unwrap()[1], Vec2::ZERO);
    assert_eq!(m.uvs.as_ref().unwrap()[2], Vec2::ONE);
    for needle in [
        "object \"tri\": 2 normals NaN, infinite or zero",
        "object \"tri\": 1 texture coordinates NaN or infinite",
    ] {
        assert!(
            c.warnings.iter().any(|w| w.contains(needle)),
            "{needle:?}: {:?}",
            c.warnings
        );
    }
    let out = dir.path().join("nan.glb");
    write_character(&out, &c, &WriteOptions::default()).unwrap();
    assert_valid(&out);
    // Positive control: finite attributes, no warning.
    std::fs::write(
        &p,
        obj.replace("nan", "0.5").replace("vn 0 0 0", "vn 0 0 1"),
    )
    .unwrap();
    let clean = read_character(&p).unwrap();
    assert!(
        !clean.warnings.iter().any(|w| w.contains("NaN")),
        "{:?}",
        clean.warnings
    );
}

#[test]
fn obj_bad_input() {
    let dir = tmpdir();
    let p = dir.path().join("bad.obj");
    std::fs::write(&p, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n").unwrap();
    let e = read_character(&p).unwrap_err().to_string();
    assert!(e.contains("bad.obj"), "{e}");
    std::fs::write(&p, "v 0 0 0\nv 1 0 0\nv 0 1 0\n").unwrap();
    let e = read_character(&p).unwrap_err().to_string();
    assert!(e.contains("bad.obj") && e.contains("no triangles"), "{e}");
    let e = read_character(&dir.path().join("none.obj"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("none.obj"), "{e}");
}

/// Adds a VRM extension to the synthetic character's document.
pub(crate) fn vrm_bytes(version: u8) -> Vec<u8> {
    let c = synthetic(4);
    let (root, bin, nodes) =
        rigsmith::io::gltf::build_document(&c, &WriteOptions::default()).unwrap();
    let mut v = serde_json::to_value(&root).unwrap();
    let (hips, thigh) = (nodes[0], nodes[2]);
    if version == 1 {
        v["extensionsUsed"] = json!(["VRMC_vrm", "VRMC_springBone"]);
        v["extensions"] = json!({
            "VRMC_vrm": {"specVersion": "1.0", "meta": {"name": "test"},
                "humanoid": {"humanBones": {"hips": {"node": hips}, "leftUpperLeg": {"node": thigh}}}},
            "VRMC_springBone": {"specVersion": "1.0", "springs": [{"joints": [{"node": 6}, {"node": 7}]}]}
        });
    } else {
        v["extensionsUsed"] = json!(["VRM"]);
        v["extensions"] = json!({"VRM": {"meta": {"title": "old"},
            "humanoid": {"humanBones": [{"bone": "hips", "node": hips}, {"bone": "leftThumbProximal", "node": thigh}]},
            "secondaryAnimation": {"boneGroups": []}}});
    }
    container::pack(&serde_json::to_vec(&v).unwrap(), &bin)
}

#[test]
fn vrm1_humanoid_and_springs() {
    let dir = tmpdir();
    let p = dir.path().join("a.vrm");
    std::fs::write(&p, vrm_bytes(1)).unwrap();
    let c = read_character(&p).unwrap();
    let vrm = c.vrm.as_ref().unwrap();
    assert_eq!(vrm.version, 1);
    assert_eq!(vrm.humanoid["hips"], "pelvis");
    assert_eq!(vrm.humanoid["leftUpperLeg"], "thigh.L");
    assert!(vrm.spring_bone.as_ref().unwrap()["springs"].is_array());
    assert_same(&synthetic(4), &c, 4);
}

#[test]
fn vrm0_names_translated_and_turned_to_face_plus_z() {
    let dir = tmpdir();
    let p = dir.path().join("old.vrm");
    std::fs::write(&p, vrm_bytes(0)).unwrap();
    let c = read_character(&p).unwrap();
    let vrm = c.vrm.as_ref().unwrap();
    assert_eq!(vrm.version, 0);
    assert_eq!(vrm.humanoid["leftThumbMetacarpal"], "thigh.L");
    assert!(vrm.spring_bone.is_some());
    let src = synthetic(4);
    let (a, b) = (src.parts[0].mesh.positions[3], c.parts[0].mesh.positions[3]);
    assert!(
        (Vec3::new(-a.x, a.y, -a.z) - b).length() < 1e-6,
        "{a} turned is {b}"
    );
    let hb = c.skeleton.as_ref().unwrap().bones[2].head;
    assert!((hb - Vec3::new(-0.1, 1.0, 0.0)).length() < 1e-6);
    // A GLB without VRM extensions is not a VRM.
    let q = dir.path().join("plain.vrm");
    std::fs::write(&q, write_glb_bytes(&src, &WriteOptions::default()).unwrap()).unwrap();
    let e = read_character(&q).unwrap_err().to_string();
    assert!(e.contains("plain.vrm") && e.contains("not a VRM"), "{e}");
}

// ---------------------------------------------------------------- inspect (the quick check)

/// The synthetic character with every body vertex weighted 1.0 to the pelvis: a clean
/// twin on which no weight check fires.
fn clean_for_inspect() -> Character {
    let mut c = synthetic(4);
    let n = c.parts[0].mesh.positions.len();
    c.parts[0].weights = Some(Weights::rigid(n, 0));
    c
}

#[test]
fn inspect_clean_twin() {
    let r = rigsmith::inspect::inspect(&clean_for_inspect());
    assert_eq!(r.parts.len(), 2);
    assert_eq!((r.parts[0].vertices, r.parts[0].triangles), (60, 108));
    assert!(r.parts[0].skinned && !r.parts[1].skinned);
    let s = r.skeleton.as_ref().unwrap();
    assert_eq!((s.joints, s.depth), (8, 4));
    assert_eq!(s.roots, ["pelvis"]);
    assert!(r.twist_bones.is_empty());
    assert_eq!(r.cosmetic_chains.len(), 1);
    assert_eq!(r.cosmetic_chains[0].class, "hair");
    assert_eq!(r.cosmetic_chains[0].root_parent.as_deref(), Some("spine"));
    assert_eq!(r.cosmetic_chains[0].bones, ["hair_01", "hair_02"]);
    let w = &r.weights;
    assert_eq!(
        w.legs.as_ref().unwrap(),
        &["thigh.L".to_string(), "thigh.R".to_string()]
    );
    assert_eq!(
        (
            w.unweighted_vertices,
            w.non_normalized_vertices,
            w.both_legs_vertices
        ),
        (0, 0, 0)
    );
    assert_eq!(w.influence_histogram, vec![0, 60, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!((w.skinned_vertices, w.unskinned_vertices), (60, 3));
    assert!(w.authored);
}

#[test]
fn inspect_positive_controls() {
    let mut c = clean_for_inspect();
    {
        let w = c.parts[0].weights.as_mut().unwrap();
        w.vertices[0].clear();
        w.vertices[1].clear();
        w.vertices[2][0].weight = 0.5; // sums to 0.5
        for v in 3..6 {
            // Pulled 50/50 by both legs (shin.L is in the left chain).
            w.vertices[v] = vec![
                Influence {
                    bone: 4,
                    weight: 0.5,
                },
                Influence {
                    bone: 3,
                    weight: 0.5,
                },
            ];
        }
        // A 15/85 split still counts, 5/95 does not.
        w.vertices[6] = vec![
            Influence {
                bone: 2,
                weight: 0.85,
            },
            Influence {
                bone: 3,
                weight: 0.15,
            },
        ];
        w.vertices[7] = vec![
            Influence {
                bone: 2,
                weight: 0.95,
            },
            Influence {
                bone: 3,
                weight: 0.05,
            },
        ];
    }
    let sk = c.skeleton.as_mut().unwrap();
    sk.bones.push(Bone::new(
        "thigh.L.001",
        Some(2),
        Vec3::new(0.11, 0.8, 0.0),
        Vec3::new(0.12, 0.55, 0.02),
    ));
    sk.bones.push(Bone::new(
        "upperarm_twist_01_l",
        Some(1),
        Vec3::new(0.2, 1.4, 0.0),
        Vec3::new(0.4, 1.4, 0.0),
    ));
    sk.bones.push(Bone::new(
        "chairbone",
        Some(1),
        Vec3::new(0.0, 1.4, 0.0),
        Vec3::new(0.0, 1.5, 0.0),
    ));
    sk.bones.push(Bone::new(
        "skirt_front",
        Some(0),
        Vec3::new(0.0, 1.0, 0.1),
        Vec3::new(0.0, 0.8, 0.15),
    ));
    let r = rigsmith::inspect::inspect(&c);
    assert_eq!(r.twist_bones, ["thigh.L.001", "upperarm_twist_01_l"]);
    let classes: Vec<&str> = r.cosmetic_chains.iter().map(|c| c.class.as_str()).collect();
    assert_eq!(classes, ["hair", "skirt"], "chairbone is not hair");
    let w = &r.weights;
    assert_eq!(w.unweighted_vertices, 2);
    assert_eq!(w.non_normalized_vertices, 1);
    assert_eq!(w.both_legs_vertices, 4);
    assert_eq!(w.influence_histogram, vec![2, 53, 5, 0, 0, 0, 0, 0, 0]);
    // Every vertex at exactly 4 influences: the signature of automatic weights.
    let mut auto = clean_for_inspect();
    for l in &mut auto.parts[0].weights.as_mut().unwrap().vertices {
        *l = (0..4)
            .map(|b| Influence {
                bone: b,
                weight: 0.25,
            })
            .collect();
    }
    assert!(!rigsmith::inspect::inspect(&auto).weights.authored);
    // No skeleton: nothing to report but parts.
    let mut bare = clean_for_inspect();
    bare.skeleton = None;
    bare.parts[0].weights = None;
    let r = rigsmith::inspect::inspect(&bare);
    assert!(r.skeleton.is_none() && !r.weights.authored && r.weights.legs.is_none());
    assert!(r.to_text().contains("skeleton: none"));
}

#[test]
fn corrupted_files_never_panic() {
    // Every truncation, and 3000 deterministic random byte changes, of a valid skinned
    // GLB (and of a written synthetic character): each reads or fails with an error.
    let (doc, bin) = tiny();
    let files = [
        glb_of(&doc, &bin),
        write_glb_bytes(&synthetic(4), &WriteOptions::default()).unwrap(),
    ];
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let (mut ok, mut err) = (0, 0);
    for g in &files {
        for len in 0..g.len().min(400) {
            assert!(read_gltf_bytes(&g[..len], Path::new("t.glb")).is_err());
        }
        for _ in 0..1500 {
            let mut m = g.clone();
            for _ in 0..1 + next() % 3 {
                let at = (next() % m.len() as u64) as usize;
                m[at] = (next() & 0xFF) as u8;
            }
            match read_gltf_bytes(&m, Path::new("t.glb")) {
                Ok(c) => {
                    ok += 1;
                    c.validate().expect("a character that reads is valid");
                }
                Err(_) => err += 1,
            }
        }
    }
    assert!(ok > 0 && err > 0, "ok {ok} err {err}");
}
