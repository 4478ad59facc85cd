//! The glTF reader on the files people actually have: repaired weights, required
//! extensions, quantized attributes, meshopt and Draco compression (made by the common
//! tools through `scripts/compress-gltf.mjs`, and hand-built streams that need no Node),
//! and skeletons rebuilt from joints that keep no tails.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use glam::{Vec2, Vec3};
use rigsmith::io::gltf::{container, read_gltf, read_gltf_bytes, write_glb_bytes, WriteOptions};
use rigsmith::model::{Character, Influence, Mesh, Part, Weights};
use serde_json::{json, Value};

use crate::common::{quaternius_dir, tmpdir};
use crate::gltf_io::{err_of, glb_of, read_tiny, synthetic, tiny};

// ---------------------------------------------------------------- weights

/// `tiny()` with float weights: vertex 0 `[1, NaN]`, vertex 1 `[0.6, -0.2]`, vertex 2
/// `[NaN, -1]`.
fn tiny_float_weights() -> (Value, Vec<u8>) {
    let (mut doc, mut bin) = tiny();
    let at = bin.len();
    for w in [
        [1.0f32, f32::NAN, 0.0, 0.0],
        [0.6, -0.2, 0.0, 0.0],
        [f32::NAN, -1.0, 0.0, 0.0],
    ] {
        bin.extend(w.iter().flat_map(|x| x.to_le_bytes()));
    }
    doc["buffers"][0]["byteLength"] = json!(bin.len());
    doc["bufferViews"]
        .as_array_mut()
        .unwrap()
        .push(json!({"buffer": 0, "byteOffset": at, "byteLength": 48}));
    doc["accessors"]
        .as_array_mut()
        .unwrap()
        .push(json!({"bufferView": 7, "componentType": 5126, "count": 3, "type": "VEC4"}));
    doc["meshes"][0]["primitives"][0]["attributes"]["WEIGHTS_0"] = json!(6);
    (doc, bin)
}

#[test]
fn nan_and_negative_weights_are_zeroed_renormalized_and_reported() {
    let (doc, bin) = tiny_float_weights();
    let c = read_tiny(&doc, &bin).expect("NaN or negative weights are repaired, not refused");
    let w = c.parts[0].weights.as_ref().unwrap();
    assert_eq!(
        w.vertices[0],
        vec![Influence {
            bone: 0,
            weight: 1.0
        }]
    );
    assert_eq!(
        w.vertices[1],
        vec![Influence {
            bone: 0,
            weight: 1.0
        }],
        "0.6 alone, renormalized"
    );
    assert!(w.vertices[2].is_empty(), "nothing valid left: unweighted");
    let warning = c
        .warnings
        .iter()
        .find(|s| s.contains("WEIGHTS_0"))
        .unwrap_or_else(|| panic!("a warning names the accessor: {:?}", c.warnings));
    for needle in [
        "meshes[0].primitives[0]",
        "WEIGHTS_0",
        "4 NaN or negative weights on 3 vertices",
        "1 vertices are left with no weight",
    ] {
        assert!(warning.contains(needle), "{warning:?} lacks {needle:?}");
    }
}

#[test]
fn valid_weights_are_not_renormalized_by_the_repair() {
    // tiny()'s vertex 1 weighs 128/255 + 127/255 = 1; make it sum to 0.5 on purpose.
    let (doc, mut bin) = tiny();
    bin[60..62].copy_from_slice(&[64, 64]);
    let c = read_tiny(&doc, &bin).unwrap();
    let w = c.parts[0].weights.as_ref().unwrap();
    assert!((w.get(1, 0) + w.get(1, 1) - 128.0 / 255.0).abs() < 1e-6);
    assert!(!c.warnings.iter().any(|s| s.contains("NaN")));
}

/// `tiny()` with normals (vertex 0 `NaN`, vertex 1 zero, vertex 2 `+Z`) and UVs (vertex
/// 1 `(inf, 0.5)`), as some exporters leave them.
fn tiny_bad_normals_and_uvs() -> (Value, Vec<u8>) {
    let (mut doc, mut bin) = tiny();
    let at = bin.len();
    let f = |b: &mut Vec<u8>, v: &[f32]| b.extend(v.iter().flat_map(|x| x.to_le_bytes()));
    f(
        &mut bin,
        &[f32::NAN, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0],
    );
    f(&mut bin, &[0.0, 0.0, f32::INFINITY, 0.5, 0.25, 0.75]);
    doc["buffers"][0]["byteLength"] = json!(bin.len());
    let views = doc["bufferViews"].as_array_mut().unwrap();
    views.push(json!({"buffer": 0, "byteOffset": at, "byteLength": 36}));
    views.push(json!({"buffer": 0, "byteOffset": at + 36, "byteLength": 24}));
    let accessors = doc["accessors"].as_array_mut().unwrap();
    accessors.push(json!({"bufferView": 7, "componentType": 5126, "count": 3, "type": "VEC3"}));
    accessors.push(json!({"bufferView": 8, "componentType": 5126, "count": 3, "type": "VEC2"}));
    let attributes = &mut doc["meshes"][0]["primitives"][0]["attributes"];
    attributes["NORMAL"] = json!(6);
    attributes["TEXCOORD_0"] = json!(7);
    (doc, bin)
}

#[test]
fn nan_normals_and_uvs_are_repaired_reported_and_written_valid() {
    let (doc, bin) = tiny_bad_normals_and_uvs();
    let c = read_tiny(&doc, &bin).expect("NaN normals and UVs are repaired, not refused");
    let m = &c.parts[0].mesh;
    let n = m.normals.as_ref().unwrap();
    // The triangle (0,0,0), (1,0,0), (0,1,0) faces +Z: the repaired normals are its.
    assert!((n[0] - Vec3::Z).length() < 1e-6, "{:?}", n[0]);
    assert!((n[1] - Vec3::Z).length() < 1e-6, "{:?}", n[1]);
    assert!((n[2] - Vec3::Z).length() < 1e-6, "{:?}", n[2]);
    let uv = m.uvs.as_ref().unwrap();
    assert_eq!(uv[0], Vec2::new(0.0, 0.0));
    assert_eq!(uv[1], Vec2::ZERO, "(inf, 0.5) becomes (0, 0)");
    assert_eq!(uv[2], Vec2::new(0.25, 0.75), "a finite UV is kept");
    for needle in [
        "meshes[0].primitives[0].attributes.NORMAL: 2 normals NaN, infinite or zero",
        "meshes[0].primitives[0].attributes.TEXCOORD_0: 1 texture coordinates NaN or infinite",
    ] {
        assert!(
            c.warnings.iter().any(|w| w.contains(needle)),
            "no warning {needle:?}: {:?}",
            c.warnings
        );
    }
    // Positive control: the same file with finite attributes reads without a warning.
    let (mut doc, mut bin) = tiny_bad_normals_and_uvs();
    let at = bin.len() - 60;
    bin[at..at + 4].copy_from_slice(&0f32.to_le_bytes());
    bin[at + 12..at + 24].copy_from_slice(&[0f32, 0.0, 1.0].map(f32::to_le_bytes).concat());
    bin[at + 44..at + 48].copy_from_slice(&0.5f32.to_le_bytes());
    doc["asset"]["generator"] = json!("finite");
    let clean = read_tiny(&doc, &bin).unwrap();
    assert!(
        !clean.warnings.iter().any(|w| w.contains("NaN")),
        "{:?}",
        clean.warnings
    );
    // The written file holds finite attributes only, whatever the character holds.
    let mut raw = c.clone();
    raw.parts[0].mesh.uvs.as_mut().unwrap()[2] = Vec2::new(f32::NAN, 1.0);
    let glb = write_glb_bytes(&raw, &WriteOptions::default()).unwrap();
    let back = read_gltf_bytes(&glb, Path::new("back.glb")).unwrap();
    assert!(
        !back.warnings.iter().any(|w| w.contains("TEXCOORD_0")),
        "{:?}",
        back.warnings
    );
    let dir = tmpdir();
    let path = dir.path().join("repaired.glb");
    std::fs::write(&path, &glb).unwrap();
    let (errors, _) = crate::common::validate_gltf(&path);
    assert_eq!(errors, 0, "the written file validates");
}

// ---------------------------------------------------------------- required extensions

#[test]
fn unknown_required_extension_is_refused_by_name() {
    let (mut doc, bin) = tiny();
    doc["extensionsUsed"] = json!(["KHR_mesh_quantization", "EXT_made_up_geometry"]);
    doc["extensionsRequired"] = json!(["KHR_mesh_quantization", "EXT_made_up_geometry"]);
    let e = err_of(
        read_tiny(&doc, &bin),
        &["extensionsRequired", "EXT_made_up_geometry", "not support"],
    );
    assert!(!e.contains("KHR_mesh_quantization"), "{e}");
}

#[test]
fn known_required_extensions_are_accepted() {
    let (mut doc, bin) = tiny();
    let req = json!([
        "KHR_mesh_quantization",
        "KHR_texture_transform",
        "KHR_materials_emissive_strength",
        "EXT_meshopt_compression",
        "KHR_draco_mesh_compression"
    ]);
    doc["extensionsUsed"] = req.clone();
    doc["extensionsRequired"] = req;
    read_tiny(&doc, &bin).expect("handled extensions are accepted");
}

#[test]
fn extensions_used_but_not_required_never_refuse() {
    let (mut doc, bin) = tiny();
    doc["extensionsUsed"] = json!(["EXT_made_up_geometry"]);
    read_tiny(&doc, &bin).unwrap();
}

// ---------------------------------------------------------------- skins

#[test]
fn a_skin_without_joints_is_refused_naming_it_and_a_draft_file_says_so() {
    // glTF 2.0 requires `skins[i].joints`; files from a pre-release draft of 2.0 (old
    // COLLADA2GLTF) name the joints in `jointNames` instead.
    let (mut doc, bin) = tiny();
    let joints = doc["skins"][0]["joints"].take();
    doc["skins"][0].as_object_mut().unwrap().remove("joints");
    let e = err_of(
        read_tiny(&doc, &bin),
        &["skins[0].joints", "missing or empty"],
    );
    assert!(!e.contains("jointNames"), "{e}");
    doc["skins"][0]["jointNames"] = json!(["a", "b"]);
    err_of(
        read_tiny(&doc, &bin),
        &[
            "skins[0].joints",
            "jointNames",
            "pre-release draft",
            "re-export",
        ],
    );
    // The positive control: with its joints back the file reads.
    doc["skins"][0]["joints"] = joints;
    read_tiny(&doc, &bin).expect("the skin with its joints reads");
}

// ---------------------------------------------------------------- bind matrices

/// `tiny()` scaled by `k` at its root joint (as an exporter scales an armature): the
/// positions times `k` and the inverse bind matrices carrying `1 / k`.
fn tiny_scaled(k: f32) -> (Value, Vec<u8>) {
    let (mut doc, mut bin) = tiny();
    let put = |bin: &mut Vec<u8>, at: usize, v: &[f32]| {
        for (j, x) in v.iter().enumerate() {
            bin[at + 4 * j..at + 4 * j + 4].copy_from_slice(&x.to_le_bytes());
        }
    };
    put(&mut bin, 0, &[0.0, 0.0, 0.0, k, 0.0, 0.0, 0.0, k, 0.0]);
    let s = glam::Mat4::from_scale(Vec3::splat(1.0 / k));
    put(&mut bin, 68, &s.to_cols_array());
    let up = glam::Mat4::from_translation(Vec3::new(0.0, -1.0, 0.0)) * s;
    put(&mut bin, 132, &up.to_cols_array());
    doc["nodes"][0]["scale"] = json!([k, k, k]);
    doc["accessors"][0]["max"] = json!([k, k, 0.0]);
    (doc, bin)
}

/// A character whose bind matrices carry a large scale is read: men_Casual scaled to
/// centimetres in Blender has inverse bind matrices of scale 0.0001 (determinant 1e-12),
/// which an absolute test on the determinant (below 1e-12) refused as "not invertible";
/// here the scale is 0.00005 (determinant 1.25e-13). A matrix
/// that flattens an axis still is refused, naming the matrix.
#[test]
fn bind_matrices_of_any_scale_read_and_a_flat_one_is_refused() {
    let (doc, bin) = tiny_scaled(2.0e4);
    let c = read_tiny(&doc, &bin).expect("a bind matrix of scale 0.0001 is invertible");
    let s = c.skeleton.as_ref().unwrap();
    assert!(
        (s.bones[1].head - Vec3::new(0.0, 2.0e4, 0.0)).length() < 1.0,
        "{:?}",
        s.bones[1].head
    );
    let (doc, mut bin) = tiny();
    let flat = glam::Mat4::from_scale(Vec3::new(1.0, 1.0, 0.0)).to_cols_array();
    for (j, x) in flat.iter().enumerate() {
        bin[132 + 4 * j..136 + 4 * j].copy_from_slice(&x.to_le_bytes());
    }
    err_of(
        read_tiny(&doc, &bin),
        &["inverseBindMatrices", "matrix 1", "not invertible"],
    );
}

// ---------------------------------------------------------------- quantization

/// A quad (two triangles) stored as `KHR_mesh_quantization` does: positions as
/// unnormalized SHORT with the dequantizing scale and offset on the node, normals as
/// normalized BYTE, UVs as normalized UNSIGNED_SHORT, weights as normalized
/// UNSIGNED_SHORT, joints as UNSIGNED_BYTE.
fn quantized_quad(pos_type: u32) -> (Value, Vec<u8>) {
    let mut bin: Vec<u8> = Vec::new();
    let pos: [[i32; 3]; 4] = [[0, 0, 0], [100, 0, 0], [100, 200, 0], [0, 200, 0]];
    let pos_at = bin.len();
    for p in pos {
        for c in p {
            match pos_type {
                5122 => bin.extend((c as i16).to_le_bytes()),
                5123 => bin.extend((c as u16).to_le_bytes()),
                5120 => bin.push((c / 2) as i8 as u8),
                _ => bin.push((c / 2) as u8),
            }
        }
        // Each element padded to 4 bytes, as the specification asks of vertex attributes.
        let (el, stride) = if matches!(pos_type, 5122 | 5123) {
            (6, 8)
        } else {
            (3, 4)
        };
        bin.resize(bin.len() + stride - el, 0);
    }
    let pos_stride = if matches!(pos_type, 5122 | 5123) {
        8
    } else {
        4
    };
    let scale = if matches!(pos_type, 5122 | 5123) {
        0.01
    } else {
        0.02
    };
    // The dequantization (scale, then offset) goes into the inverse bind matrices, as
    // gltf-transform writes it for skinned meshes: world(joint) * IBM = D.
    let dq = glam::Mat4::from_translation(Vec3::new(0.5, 0.0, 0.0))
        * glam::Mat4::from_scale(Vec3::splat(scale));
    let nrm_at = bin.len();
    for _ in 0..4 {
        bin.extend([0u8, 0, 127, 0]); // +Z, padded
    }
    let uv_at = bin.len();
    for uv in [[0u16, 0], [65535, 0], [65535, 65535], [0, 65535]] {
        bin.extend(uv.iter().flat_map(|x| x.to_le_bytes()));
    }
    let j_at = bin.len();
    for _ in 0..4 {
        bin.extend([0u8, 1, 0, 0]);
    }
    let w_at = bin.len();
    for v in 0..4u16 {
        let a = 65535 - v * 16384;
        bin.extend([a, 65535 - a, 0, 0].iter().flat_map(|x| x.to_le_bytes()));
    }
    let i_at = bin.len();
    bin.extend([0u16, 1, 2, 0, 2, 3].iter().flat_map(|x| x.to_le_bytes()));
    let ibm_at = bin.len();
    let mut ibm = dq.to_cols_array().to_vec();
    ibm.extend((glam::Mat4::from_translation(-Vec3::Y) * dq).to_cols_array());
    bin.extend(ibm.iter().flat_map(|x| x.to_le_bytes()));
    let pmax = if matches!(pos_type, 5122 | 5123) {
        [100, 200, 0]
    } else {
        [50, 100, 0]
    };
    let doc = json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": ["KHR_mesh_quantization"],
        "extensionsRequired": ["KHR_mesh_quantization"],
        "scene": 0,
        "scenes": [{"nodes": [0, 2]}],
        "nodes": [
            {"name": "root", "children": [1]},
            {"name": "child", "translation": [0.0, 1.0, 0.0]},
            {"name": "quad", "mesh": 0, "skin": 0}
        ],
        "skins": [{"joints": [0, 1], "inverseBindMatrices": 6}],
        "meshes": [{"name": "quad", "primitives": [{
            "attributes": {"POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2, "JOINTS_0": 3, "WEIGHTS_0": 4},
            "indices": 5
        }]}],
        "buffers": [{"byteLength": bin.len()}],
        "bufferViews": [
            {"buffer": 0, "byteOffset": pos_at, "byteLength": nrm_at - pos_at, "byteStride": pos_stride},
            {"buffer": 0, "byteOffset": nrm_at, "byteLength": 16, "byteStride": 4},
            {"buffer": 0, "byteOffset": uv_at, "byteLength": 16},
            {"buffer": 0, "byteOffset": j_at, "byteLength": 16},
            {"buffer": 0, "byteOffset": w_at, "byteLength": 32},
            {"buffer": 0, "byteOffset": i_at, "byteLength": 12},
            {"buffer": 0, "byteOffset": ibm_at, "byteLength": 128}
        ],
        "accessors": [
            {"bufferView": 0, "componentType": pos_type, "count": 4, "type": "VEC3",
             "min": [0, 0, 0], "max": pmax},
            {"bufferView": 1, "componentType": 5120, "normalized": true, "count": 4, "type": "VEC3"},
            {"bufferView": 2, "componentType": 5123, "normalized": true, "count": 4, "type": "VEC2"},
            {"bufferView": 3, "componentType": 5121, "count": 4, "type": "VEC4"},
            {"bufferView": 4, "componentType": 5123, "normalized": true, "count": 4, "type": "VEC4"},
            {"bufferView": 5, "componentType": 5123, "count": 6, "type": "SCALAR"},
            {"bufferView": 6, "componentType": 5126, "count": 2, "type": "MAT4"}
        ]
    });
    (doc, bin)
}

fn check_quantized_quad(c: &Character) {
    let m = &c.parts[0].mesh;
    let want = [
        Vec3::new(0.5, 0.0, 0.0),
        Vec3::new(1.5, 0.0, 0.0),
        Vec3::new(1.5, 2.0, 0.0),
        Vec3::new(0.5, 2.0, 0.0),
    ];
    for (p, w) in m.positions.iter().zip(want) {
        assert!((*p - w).length() < 1e-5, "{p} != {w}");
    }
    for n in m.normals.as_ref().unwrap() {
        assert!((*n - Vec3::Z).length() < 1e-6, "{n}");
    }
    let uvs = m.uvs.as_ref().unwrap();
    assert_eq!(uvs[2], Vec2::new(1.0, 1.0));
    let w = c.parts[0].weights.as_ref().unwrap();
    assert!((w.get(1, 0) - (65535.0 - 16384.0) / 65535.0).abs() < 1e-6);
    assert!((w.get(1, 1) - 16384.0 / 65535.0).abs() < 1e-6);
    assert_eq!(m.triangles, vec![[0, 1, 2], [0, 2, 3]]);
}

#[test]
fn quantized_short_positions_and_normalized_attributes_read() {
    for pos_type in [5122, 5123] {
        let (doc, bin) = quantized_quad(pos_type);
        let c = read_tiny(&doc, &bin).unwrap();
        check_quantized_quad(&c);
    }
}

#[test]
fn quantized_byte_positions_read() {
    for pos_type in [5120, 5121] {
        let (doc, bin) = quantized_quad(pos_type);
        let c = read_tiny(&doc, &bin).unwrap();
        check_quantized_quad(&c);
    }
}

#[test]
fn quantized_quad_passes_the_validator() {
    let (doc, bin) = quantized_quad(5122);
    let dir = tmpdir();
    let p = dir.path().join("quad.glb");
    std::fs::write(&p, glb_of(&doc, &bin)).unwrap();
    let (errors, _) = crate::common::validate_gltf(&p);
    assert_eq!(errors, 0);
}

// ---------------------------------------------------------------- meshopt, no Node

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

// Streams written by meshoptimizer's own encoder (`encodeGltfBuffer`, `encodeFilter*`).
const VERTS: &str = "44fd24fa00000000a8fd49fafdff00000cfeb8fafaff000070fe71fbf7ff0000d4fe74fcf4ff000038ffc1fdf1ff00009cff58ffeeff000000003901ebff000064006403e8ff0000c800d905e5ff00002c01e0fce2ff00009001e9ffdfff0000f4013c03dcff0000580221fbd9ff0000bc0208ffd6ff000020033903d3ff00008403fcfbd0ff0000e803c100cdff00004c04d005caff0000b00471ffc7ff0000";
const VERTS_V0: &str = "a00700c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8ff000000c8c8c8c805082208220800000007004ade8d069ad13d56ea0e12a6353162ff00000079751ebd060002224444f68f88110fff0000000f0a0a0b0a055555555555555555550000000000000110000000000000000000000000000000000000000000000000000000000044fd24fa00000000";
const VERTS_V1: &str = "a17ba900c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8004ade72069a2ec256eaf112a635ce62798a1ebd020001223344f66f7811100f000e090a0c0205555555555555550f0005050505000000000000000000000000000044fd24fa000000000101";
const IDX: [u32; 18] = [0, 1, 2, 2, 1, 3, 3, 4, 2, 5, 6, 7, 19, 18, 17, 0, 2, 4];
const TRIS: &str = "e1f01000f0ff6aff260101007687566778a9866589689801690000";
const SEQ: &str = "d10004040002080004060c040430020242080800000000";
const OCT: &str = "a0013f0000006ceea6013f00000092264a00000000000000000000000000000000000000000000000000000000000000007f00";
const EXP: &str = "a001300000002f000001300000000b01300000000801300000003a012000000001300000000b0130000000fc01300000003b0001300000000b000130000000480001300000000b00000000000000000000000000000000180000fcfcfffffc823e00fc000000fc";
const QUAT: &str = "a0013c000000b1b2013c0000000a09013c000000b1b0013c0000000a04013c000000b1b2013c0000000a0901380000000500000000000000000000000000000000000000000000000000000000000000ff07";

use rigsmith::io::gltf::meshopt::decode;

#[test]
fn meshopt_vertex_codec_v0_and_v1_decode_the_encoders_streams() {
    let want = hex(VERTS);
    assert_eq!(
        decode(&hex(VERTS_V0), 20, 8, "ATTRIBUTES", "NONE").unwrap(),
        want
    );
    assert_eq!(
        decode(&hex(VERTS_V1), 20, 8, "ATTRIBUTES", "NONE").unwrap(),
        want
    );
}

fn u32s(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

#[test]
fn meshopt_triangle_codec_keeps_every_triangle_and_its_winding() {
    let got = u32s(&decode(&hex(TRIS), 18, 4, "TRIANGLES", "NONE").unwrap());
    // The codec may rotate a triangle's corners; it keeps the set and the winding.
    let canon = |t: &[u32]| {
        let k = (0..3).min_by_key(|&k| t[k]).unwrap();
        [t[k], t[(k + 1) % 3], t[(k + 2) % 3]]
    };
    let mut a: Vec<_> = got.chunks(3).map(canon).collect();
    let mut b: Vec<_> = IDX.chunks(3).map(canon).collect();
    a.sort();
    b.sort();
    assert_eq!(a, b);
}

#[test]
fn meshopt_index_sequence_decodes_exactly() {
    let got = u32s(&decode(&hex(SEQ), 18, 4, "INDICES", "NONE").unwrap());
    assert_eq!(got, IDX);
    let got16 = decode(&hex(SEQ), 18, 2, "INDICES", "NONE").unwrap();
    let got16: Vec<u32> = got16
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]) as u32)
        .collect();
    assert_eq!(got16, IDX);
}

#[test]
fn meshopt_octahedral_filter_restores_unit_normals() {
    let b = decode(&hex(OCT), 4, 4, "ATTRIBUTES", "OCTAHEDRAL").unwrap();
    let want = [
        Vec3::Z,
        Vec3::new(0.6, 0.8, 0.0),
        Vec3::new(-0.48, 0.6, -0.64),
        -Vec3::Y,
    ];
    for (k, w) in want.iter().enumerate() {
        let n = Vec3::new(
            b[k * 4] as i8 as f32,
            b[k * 4 + 1] as i8 as f32,
            b[k * 4 + 2] as i8 as f32,
        ) / 127.0;
        assert!(n.dot(*w) > 0.999, "normal {k}: {n} vs {w}");
    }
}

#[test]
fn meshopt_exponential_filter_restores_floats() {
    let b = decode(&hex(EXP), 2, 16, "ATTRIBUTES", "EXPONENTIAL").unwrap();
    let f: Vec<f32> = b
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let want = [1.5f32, -0.25, 1000.125, 3.0e-3, 0.0, 7.0, 8.0, 9.0];
    // One exponent per 4-float vector, 15-bit mantissas: error up to 2^-14 of the
    // vector's largest value.
    for (k, (g, w)) in f.iter().zip(want).enumerate() {
        let big = want[k / 4 * 4..k / 4 * 4 + 4]
            .iter()
            .fold(0.0f32, |m, x| m.max(x.abs()));
        assert!((g - w).abs() <= big / 8192.0, "{k}: {g} vs {w}");
    }
}

#[test]
fn meshopt_quaternion_filter_restores_rotations() {
    use std::f32::consts::FRAC_1_SQRT_2;
    let b = decode(&hex(QUAT), 3, 8, "ATTRIBUTES", "QUATERNION").unwrap();
    let want = [
        [0.0f32, 0.0, 0.0, 1.0],
        [0.5, 0.5, 0.5, 0.5],
        [0.0, FRAC_1_SQRT_2, 0.0, FRAC_1_SQRT_2],
    ];
    for (k, w) in want.iter().enumerate() {
        let q: Vec<f32> = (0..4)
            .map(|c| i16::from_le_bytes([b[k * 8 + c * 2], b[k * 8 + c * 2 + 1]]) as f32 / 32767.0)
            .collect();
        let dot: f32 = q.iter().zip(w).map(|(a, b)| a * b).sum();
        assert!(dot.abs() > 0.999, "quaternion {k}: {q:?} vs {w:?}");
    }
}

/// The 20 vertices (as normalized SHORT positions) and the triangles above, in a GLB
/// whose views are meshopt-compressed, with an empty fallback buffer.
fn meshopt_glb(corrupt: bool) -> Vec<u8> {
    let mut bin = hex(VERTS_V0);
    while bin.len() % 4 != 0 {
        bin.push(0);
    }
    let tri_at = bin.len();
    let mut tris = hex(TRIS);
    if corrupt {
        tris.truncate(5);
    }
    bin.extend(&tris);
    let doc = json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": ["EXT_meshopt_compression", "KHR_mesh_quantization"],
        "extensionsRequired": ["EXT_meshopt_compression", "KHR_mesh_quantization"],
        "scenes": [{"nodes": [0]}],
        "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
        "buffers": [
            {"byteLength": bin.len()},
            {"byteLength": 160 + 72, "extensions": {"EXT_meshopt_compression": {"fallback": true}}}
        ],
        "bufferViews": [
            {"buffer": 1, "byteOffset": 0, "byteLength": 160, "byteStride": 8,
             "extensions": {"EXT_meshopt_compression": {"buffer": 0, "byteOffset": 0,
                "byteLength": hex(VERTS_V0).len(), "byteStride": 8, "count": 20, "mode": "ATTRIBUTES"}}},
            {"buffer": 1, "byteOffset": 160, "byteLength": 72,
             "extensions": {"EXT_meshopt_compression": {"buffer": 0, "byteOffset": tri_at,
                "byteLength": tris.len(), "byteStride": 4, "count": 18, "mode": "TRIANGLES"}}}
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5122, "normalized": true, "count": 20, "type": "VEC3"},
            {"bufferView": 1, "componentType": 5125, "count": 18, "type": "SCALAR"}
        ]
    });
    container::pack(&serde_json::to_vec(&doc).unwrap(), &bin)
}

#[test]
fn meshopt_compressed_glb_reads_its_real_vertices() {
    let c = read_gltf_bytes(&meshopt_glb(false), Path::new("tiny.glb")).unwrap();
    let m = &c.parts[0].mesh;
    let raw = hex(VERTS);
    assert_eq!(m.positions.len(), 20);
    for (k, p) in m.positions.iter().enumerate() {
        let c = |i: usize| {
            i16::from_le_bytes([raw[k * 8 + i * 2], raw[k * 8 + i * 2 + 1]]) as f32 / 32767.0
        };
        assert!(
            (*p - Vec3::new(c(0), c(1), c(2))).length() < 1e-6,
            "{k}: {p}"
        );
    }
    assert_eq!(m.triangles.len(), 6);
    assert!(m.positions.iter().any(|p| p.length() > 0.01), "not zeros");
}

#[test]
fn corrupt_meshopt_stream_is_an_error_naming_the_view() {
    err_of(
        read_gltf_bytes(&meshopt_glb(true), Path::new("tiny.glb")),
        &["bufferViews[1]", "meshopt"],
    );
}

// ---------------------------------------------------------------- with the common tools

/// A skinned cylinder of 24 x 30 vertices (more than one meshopt block) on the synthetic
/// skeleton, with normals, UVs and 1 to 4 influences per vertex; no morph targets
/// (Draco leaves those uncompressed), plus the unweighted eyes.
fn rich() -> Character {
    let mut c = synthetic(4);
    let nb = c.skeleton.as_ref().unwrap().len() as u32;
    let (w, h) = (24usize, 30usize);
    let mut positions = Vec::new();
    let mut uvs = Vec::new();
    for j in 0..h {
        for i in 0..w {
            let a = i as f32 / w as f32 * std::f32::consts::TAU;
            let r = 0.12 + 0.04 * (j as f32 * 0.4).sin();
            positions.push(Vec3::new(
                r * a.cos(),
                0.1 + 1.5 * j as f32 / (h - 1) as f32,
                r * a.sin(),
            ));
            uvs.push(Vec2::new(i as f32 / w as f32, j as f32 / h as f32));
        }
    }
    let mut triangles = Vec::new();
    for j in 0..h - 1 {
        for i in 0..w {
            let a = (j * w + i) as u32;
            let b = (j * w + (i + 1) % w) as u32;
            let (cc, d) = (a + w as u32, b + w as u32);
            triangles.push([a, b, d]);
            triangles.push([a, d, cc]);
        }
    }
    let n = positions.len();
    let mut weights = Weights::empty(n);
    for v in 0..n {
        let k = 1 + v % 4;
        let mut s = 0.0;
        for m in 0..k {
            let wt = 1.0 + (v * 7 + m * 3) as f32 % 5.0;
            s += wt;
            weights.vertices[v].push(Influence {
                bone: ((v / 90 + m * 3) as u32) % nb,
                weight: wt,
            });
        }
        for i in &mut weights.vertices[v] {
            i.weight /= s;
        }
    }
    weights.sort();
    let mut mesh = Mesh {
        positions,
        triangles,
        normals: None,
        uvs: Some(uvs),
    };
    mesh.normals = Some(mesh.compute_normals());
    c.parts[0] = Part {
        name: "body".into(),
        material: Some("Skin".into()),
        mesh,
        weights: Some(weights),
        morphs: vec![],
    };
    c
}

fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs `scripts/compress-gltf.mjs MODE` on `src`, returning the compressed file. Fails
/// loudly when Node or the scripts' modules are missing (`cd scripts && npm ci`).
fn compress(mode: &str, src: &Path, dir: &Path) -> PathBuf {
    let scripts = repo_root().join("scripts");
    assert!(
        scripts.join("node_modules/@gltf-transform/functions").exists()
            && scripts.join("node_modules/draco3dgltf").exists()
            && scripts.join("node_modules/meshoptimizer").exists(),
        "scripts/node_modules lacks @gltf-transform, draco3dgltf or meshoptimizer: run `cd scripts && npm ci`"
    );
    let out = dir.join(format!("{mode}.glb"));
    let o = std::process::Command::new("node")
        .arg(scripts.join("compress-gltf.mjs"))
        .arg(mode)
        .arg(src)
        .arg(&out)
        .output()
        .unwrap_or_else(|e| panic!("node is missing or does not run ({e}): install Node.js"));
    assert!(
        o.status.success(),
        "compress-gltf.mjs {mode}: {}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

/// Checks a character read from a compressed copy against its source: same parts,
/// vertex and triangle counts; every vertex matches a source vertex within `tol`
/// (metres) and carries its normal, UV and weights within quantization error; the
/// triangles are the source's (winding kept) through that matching; the skeleton has the
/// same joints at the same places.
fn assert_matches(src: &Character, got: &Character, tol: f32, what: &str) {
    assert_eq!(got.parts.len(), src.parts.len(), "{what}: parts");
    let sk_s = src.skeleton.as_ref().unwrap();
    let sk_g = got.skeleton.as_ref().unwrap();
    assert_eq!(sk_s.len(), sk_g.len(), "{what}: bones");
    let bone_map: Vec<u32> = sk_g
        .bones
        .iter()
        .map(|b| {
            let i = sk_s.find(&b.name).unwrap();
            assert!(
                (sk_s.bones[i].head - b.head).length() < tol,
                "{what}: bone {} head {} vs {}",
                b.name,
                b.head,
                sk_s.bones[i].head
            );
            i as u32
        })
        .collect();
    for ps in &src.parts {
        let pg = got
            .parts
            .iter()
            .find(|p| {
                p.mesh.positions.len() == ps.mesh.positions.len() && p.material == ps.material
            })
            .unwrap_or_else(|| panic!("{what}: no part like {}", ps.name));
        let (ms, mg) = (&ps.mesh, &pg.mesh);
        assert!(
            mg.positions.iter().any(|p| p.length() > 0.01),
            "{what}: all zeros"
        );
        // Match each decoded vertex to the nearest source vertex (a grid of tol-sized cells).
        let cell = |p: Vec3| (p / tol).floor().as_ivec3();
        let mut grid: HashMap<glam::IVec3, Vec<usize>> = HashMap::new();
        for (i, p) in ms.positions.iter().enumerate() {
            grid.entry(cell(*p)).or_default().push(i);
        }
        let map: Vec<usize> = mg
            .positions
            .iter()
            .enumerate()
            .map(|(k, p)| {
                let c = cell(*p);
                let mut best = (f32::MAX, usize::MAX);
                for dx in -1..=1 {
                    for dy in -1..=1 {
                        for dz in -1..=1 {
                            for &i in grid
                                .get(&(c + glam::IVec3::new(dx, dy, dz)))
                                .into_iter()
                                .flatten()
                            {
                                let d = (ms.positions[i] - *p).length();
                                if d < best.0 {
                                    best = (d, i);
                                }
                            }
                        }
                    }
                }
                assert!(
                    best.0 < tol,
                    "{what}: {}: vertex {k} at {p} has no source within {tol}",
                    ps.name
                );
                best.1
            })
            .collect();
        if let (Some(ns), Some(ng)) = (&ms.normals, &mg.normals) {
            for (k, &i) in map.iter().enumerate() {
                assert!(
                    ng[k].dot(ns[i]) > 0.99,
                    "{what}: normal {k}: {} vs {}",
                    ng[k],
                    ns[i]
                );
            }
        }
        if let (Some(us), Some(ug)) = (&ms.uvs, &mg.uvs) {
            for (k, &i) in map.iter().enumerate() {
                assert!(
                    (ug[k] - us[i]).length() < 2e-3,
                    "{what}: uv {k}: {} vs {}",
                    ug[k],
                    us[i]
                );
            }
        }
        if let Some(ws) = &ps.weights {
            let wg = pg.weights.as_ref().expect("weights kept");
            for (k, &i) in map.iter().enumerate() {
                for inf in &ws.vertices[i] {
                    let g: f32 = wg.vertices[k]
                        .iter()
                        .filter(|x| bone_map[x.bone as usize] == inf.bone)
                        .map(|x| x.weight)
                        .sum();
                    assert!(
                        (g - inf.weight).abs() < 0.01,
                        "{what}: vertex {k} bone {}: {g} vs {}",
                        inf.bone,
                        inf.weight
                    );
                }
            }
        }
        let canon = |t: [u32; 3]| {
            let k = (0..3).min_by_key(|&k| t[k]).unwrap();
            [t[k], t[(k + 1) % 3], t[(k + 2) % 3]]
        };
        let mut a: Vec<_> = mg
            .triangles
            .iter()
            .map(|t| canon(t.map(|v| map[v as usize] as u32)))
            .collect();
        let mut b: Vec<_> = ms.triangles.iter().map(|t| canon(*t)).collect();
        a.sort();
        b.sort();
        assert_eq!(a, b, "{what}: {} triangles", ps.name);
    }
}

fn compressed_round_trip(mode: &str, needs: &str) {
    let src = rich();
    let dir = tmpdir();
    let p = dir.path().join("src.glb");
    std::fs::write(&p, write_glb_bytes(&src, &WriteOptions::default()).unwrap()).unwrap();
    let out = compress(mode, &p, dir.path());
    let json = rigsmith::io::gltf::load_doc(&std::fs::read(&out).unwrap(), &out)
        .unwrap()
        .json;
    assert!(
        json["extensionsUsed"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e == needs),
        "{mode} should use {needs}: {}",
        json["extensionsUsed"]
    );
    let got = read_gltf(&out).unwrap();
    assert_matches(&src, &got, 2e-3, mode);
}

#[test]
fn quantized_file_from_gltf_transform_reads_like_its_source() {
    compressed_round_trip("quantize", "KHR_mesh_quantization");
}

#[test]
fn meshopt_file_with_filters_reads_like_its_source() {
    compressed_round_trip("meshopt", "EXT_meshopt_compression");
}

#[test]
fn meshopt_file_without_filters_reads_like_its_source() {
    compressed_round_trip("meshopt-medium", "EXT_meshopt_compression");
}

#[test]
fn draco_edgebreaker_file_reads_like_its_source() {
    compressed_round_trip("draco", "KHR_draco_mesh_compression");
}

#[test]
fn draco_sequential_file_reads_like_its_source() {
    compressed_round_trip("draco-sequential", "KHR_draco_mesh_compression");
}

#[test]
fn corrupt_draco_data_is_an_error_naming_the_extension() {
    let src = rich();
    let dir = tmpdir();
    let p = dir.path().join("src.glb");
    std::fs::write(&p, write_glb_bytes(&src, &WriteOptions::default()).unwrap()).unwrap();
    let out = compress("draco", &p, dir.path());
    let doc = rigsmith::io::gltf::load_doc(&std::fs::read(&out).unwrap(), &out).unwrap();
    let mut json = doc.json.clone();
    let mut bin = doc.buffers[0].clone();
    let vi = json["meshes"][0]["primitives"][0]["extensions"]["KHR_draco_mesh_compression"]
        ["bufferView"]
        .as_u64()
        .unwrap() as usize;
    let off = json["bufferViews"][vi]["byteOffset"].as_u64().unwrap_or(0) as usize;
    let len = json["bufferViews"][vi]["byteLength"].as_u64().unwrap() as usize;
    bin[off + 8..off + len].fill(0xA5);
    json["buffers"][0]["byteLength"] = json!(bin.len());
    let g = container::pack(&serde_json::to_vec(&json).unwrap(), &bin);
    let e = read_gltf_bytes(&g, Path::new("tiny.glb"))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("KHR_draco_mesh_compression") && e.contains("tiny.glb"),
        "{e}"
    );
}

// ---------------------------------------------------------------- skeletons

/// A leg made by hand: hip (root, at the floor, unweighted) -> thigh -> shin -> foot
/// (leaf), plus a pole target under the root, a 1 mm bone between thigh and shin, and a
/// box of foot vertices reaching 0.2 forward of the ankle.
fn leg_file() -> Vec<u8> {
    // Joints (world): root (0,0,0); thigh (0,1,0); knee_fix (0,0.55,0); shin (0,0.549,0)
    // ... ankle (0,0.1,0); pole (0,0.5,0.5).
    let heads = [
        Vec3::ZERO,
        Vec3::new(0.0, 1.0, 0.0),
        Vec3::new(0.0, 0.55, 0.0),
        Vec3::new(0.0, 0.549, 0.0),
        Vec3::new(0.0, 0.1, 0.0),
        Vec3::new(0.0, 0.5, 0.5),
    ];
    let names = ["Root", "Thigh", "KneeFix", "Shin", "Foot", "PoleTarget.L"];
    let parents = [None, Some(0), Some(1), Some(2), Some(3), Some(0)];
    let mut nodes: Vec<Value> = (0..6)
        .map(|i| {
            let t = heads[i] - parents[i].map_or(Vec3::ZERO, |p: usize| heads[p]);
            json!({"name": names[i], "translation": [t.x, t.y, t.z]})
        })
        .collect();
    for (i, p) in parents.iter().enumerate() {
        if let Some(p) = p {
            let ch = nodes[*p].get("children").cloned().unwrap_or(json!([]));
            let mut ch = ch.as_array().unwrap().clone();
            ch.push(json!(i));
            nodes[*p]["children"] = json!(ch);
        }
    }
    nodes.push(json!({"name": "mesh", "mesh": 0, "skin": 0}));
    // Vertices: a leg column (thigh/shin) and a foot box from the ankle forward.
    let mut pos: Vec<Vec3> = Vec::new();
    let mut joint: Vec<u8> = Vec::new();
    for k in 0..10 {
        let y = 1.0 - k as f32 * 0.1;
        for x in [-0.05f32, 0.05] {
            pos.push(Vec3::new(x, y, 0.0));
            joint.push(if y > 0.55 { 1 } else { 3 });
        }
    }
    for z in [-0.05f32, 0.05, 0.1, 0.15, 0.2] {
        for y in [0.0f32, 0.1] {
            for x in [-0.05f32, 0.05] {
                pos.push(Vec3::new(x, y, z));
                joint.push(4);
            }
        }
    }
    let nv = pos.len();
    let mut bin: Vec<u8> = Vec::new();
    bin.extend(
        pos.iter()
            .flat_map(|p| p.to_array())
            .flat_map(|x| x.to_le_bytes()),
    );
    let j_at = bin.len();
    for j in &joint {
        bin.extend([*j, 0, 0, 0]);
    }
    let w_at = bin.len();
    for _ in 0..nv {
        bin.extend([255u8, 0, 0, 0]);
    }
    let i_at = bin.len();
    let idx: Vec<u16> = (0..nv as u16 - 2).flat_map(|k| [k, k + 1, k + 2]).collect();
    bin.extend(idx.iter().flat_map(|x| x.to_le_bytes()));
    while bin.len() % 4 != 0 {
        bin.push(0);
    }
    let ibm_at = bin.len();
    for h in heads {
        bin.extend(
            glam::Mat4::from_translation(-h)
                .to_cols_array()
                .iter()
                .flat_map(|x| x.to_le_bytes()),
        );
    }
    let (lo, hi) = pos
        .iter()
        .fold((Vec3::MAX, Vec3::MIN), |(a, b), p| (a.min(*p), b.max(*p)));
    let doc = json!({
        "asset": {"version": "2.0"},
        "scenes": [{"nodes": [0, 6]}],
        "nodes": nodes,
        "skins": [{"joints": [0, 1, 2, 3, 4, 5], "inverseBindMatrices": 4}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "JOINTS_0": 1, "WEIGHTS_0": 2}, "indices": 3}]}],
        "buffers": [{"byteLength": bin.len()}],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": j_at},
            {"buffer": 0, "byteOffset": j_at, "byteLength": nv * 4},
            {"buffer": 0, "byteOffset": w_at, "byteLength": nv * 4},
            {"buffer": 0, "byteOffset": i_at, "byteLength": idx.len() * 2},
            {"buffer": 0, "byteOffset": ibm_at, "byteLength": 6 * 64}
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": nv, "type": "VEC3",
             "min": lo.to_array(), "max": hi.to_array()},
            {"bufferView": 1, "componentType": 5121, "count": nv, "type": "VEC4"},
            {"bufferView": 2, "componentType": 5121, "normalized": true, "count": nv, "type": "VEC4"},
            {"bufferView": 3, "componentType": 5123, "count": idx.len(), "type": "SCALAR"},
            {"bufferView": 4, "componentType": 5126, "count": 6, "type": "MAT4"}
        ]
    });
    glb_of(&doc, &bin)
}

fn read_leg() -> Character {
    read_gltf_bytes(&leg_file(), Path::new("leg.glb")).unwrap()
}

#[test]
fn bone_with_one_child_reaches_it_however_short() {
    let c = read_leg();
    let s = c.skeleton.as_ref().unwrap();
    let b = &s.bones[s.find("KneeFix").unwrap()];
    assert!(
        (b.tail - Vec3::new(0.0, 0.549, 0.0)).length() < 1e-6,
        "a 1 mm bone reaches its child: {}",
        b.tail
    );
    let t = &s.bones[s.find("Thigh").unwrap()];
    assert!((t.tail - Vec3::new(0.0, 0.55, 0.0)).length() < 1e-6);
}

#[test]
fn leaf_foot_points_along_the_vertices_it_carries() {
    let c = read_leg();
    let s = c.skeleton.as_ref().unwrap();
    let f = &s.bones[s.find("Foot").unwrap()];
    assert!(
        f.tail.z > f.head.z + 0.1,
        "the foot points forward, toward the toes: head {} tail {}",
        f.head,
        f.tail
    );
    let (lo, hi) = (Vec3::new(-0.05, 0.0, -0.05), Vec3::new(0.05, 0.1, 0.2));
    assert!(
        f.tail.cmpge(lo - 1e-4).all() && f.tail.cmple(hi + 1e-4).all(),
        "the tail stays inside the foot's vertices: {}",
        f.tail
    );
}

#[test]
fn unweighted_root_and_pole_target_are_non_deform() {
    let c = read_leg();
    let s = c.skeleton.as_ref().unwrap();
    let deform = |n: &str| s.bones[s.find(n).unwrap()].deform;
    assert!(!deform("Root"));
    assert!(!deform("PoleTarget.L"));
    assert!(!deform("KneeFix"));
    assert!(deform("Thigh") && deform("Shin") && deform("Foot"));
}

fn quaternius(file: &str) -> Character {
    read_gltf(&quaternius_dir().join(file)).unwrap()
}

#[test]
fn quaternius_casual_root_is_non_deform_and_feet_point_forward_inside_the_feet() {
    let c = quaternius("men_Casual.glb");
    let s = c.skeleton.as_ref().unwrap();
    assert!(
        !s.bones[s.find("Root").unwrap()].deform,
        "Root carries no weight"
    );
    for foot in ["Foot.L", "Foot.R"] {
        let b = s.find(foot).unwrap();
        let f = &s.bones[b];
        assert!(
            f.tail.z > f.head.z,
            "{foot} points forward: {} -> {}",
            f.head,
            f.tail
        );
        // Inside the extent of the vertices weighted mostly to the foot.
        let (mut lo, mut hi) = (Vec3::MAX, Vec3::MIN);
        for p in &c.parts {
            let Some(w) = &p.weights else { continue };
            for (v, list) in w.vertices.iter().enumerate() {
                if list.first().map(|i| i.bone as usize) == Some(b) {
                    lo = lo.min(p.mesh.positions[v]);
                    hi = hi.max(p.mesh.positions[v]);
                }
            }
        }
        assert!(lo.x < hi.x, "{foot} carries vertices");
        let slack = 1e-3 * (hi - lo).length();
        assert!(
            f.tail.cmpge(lo - slack).all() && f.tail.cmple(hi + slack).all(),
            "{foot} tail {} outside its vertices {lo}..{hi}",
            f.tail
        );
    }
}

#[test]
fn quaternius_knight_pole_targets_are_non_deform() {
    let c = quaternius("knight_KnightCharacter.glb");
    let s = c.skeleton.as_ref().unwrap();
    for n in ["PoleTarget.L", "PoleTarget.R"] {
        assert!(!s.bones[s.find(n).unwrap()].deform, "{n}");
    }
    assert!(s.bones[s.find("Head").unwrap()].deform);
}

#[test]
fn quaternius_heads_reach_up_into_the_head() {
    for file in ["men_Casual.glb", "knight_KnightCharacter.glb"] {
        let c = quaternius(file);
        let s = c.skeleton.as_ref().unwrap();
        let h = &s.bones[s.find("Head").unwrap()];
        assert!(h.tail.y > h.head.y, "{file}: head points up");
        let (_, hi) = c.bounds();
        assert!(
            h.tail.y <= hi.y + 1e-4,
            "{file}: head tail stays within the body"
        );
    }
}
