//! Writing a [`Character`] as glTF 2.0.
//!
//! The document:
//! * one node per bone, named as the bone, children = the skeleton's children, local
//!   transforms such that each node's world rest matrix is [`Bone::rest_matrix`] (so the
//!   node's +Y runs head -> tail and +X is the bone's hinge axis, as Blender imports
//!   with "bone orientation"); one skin over all bones, inverse bind matrices =
//!   inverse rest matrices;
//! * every part its own mesh (one primitive) and node, both named as the part; skinned
//!   parts reference the skin, unweighted parts are written unskinned;
//! * application vertex attributes given in [`super::WriteOptions::vertex_attributes`]
//!   (`_DQS_BLEND`), as float scalars;
//! * attributes `POSITION`, `NORMAL` (computed when absent), `TEXCOORD_0`, `JOINTS_0` /
//!   `WEIGHTS_0` (u16 joints, f32 weights) and, with `max_influences > 4`, `JOINTS_1` /
//!   `WEIGHTS_1`; each vertex's strongest influences kept and renormalized to sum to 1.
//!   A vertex of a skinned part with no influence at all is bound to the first root
//!   bone with weight 1 (glTF requires weights that sum to one);
//! * morph targets (`POSITION`, `NORMAL` deltas) as sparse accessors (only the moved
//!   vertices are stored), with names in `mesh.extras.targetNames`;
//! * one material per distinct material name, in order of first use.
//!
//! Output is deterministic: the same character gives the same bytes.

use std::collections::BTreeMap;

use glam::{Mat4, Quat, Vec3};
use serde_json::{json, Value};

use super::WriteOptions;
use crate::error::{Error, Result};
use crate::model::{Character, Part, Skeleton};

const ARRAY_BUFFER: u32 = 34962;
const ELEMENT_ARRAY_BUFFER: u32 = 34963;

struct Builder {
    bin: Vec<u8>,
    views: Vec<Value>,
    accessors: Vec<Value>,
}

impl Builder {
    fn view(&mut self, bytes: &[u8], target: Option<u32>) -> usize {
        while self.bin.len() % 4 != 0 {
            self.bin.push(0);
        }
        let mut v = json!({"buffer": 0, "byteOffset": self.bin.len(), "byteLength": bytes.len()});
        if let Some(t) = target {
            v["target"] = json!(t);
        }
        self.bin.extend_from_slice(bytes);
        self.views.push(v);
        self.views.len() - 1
    }

    fn floats(
        &mut self,
        data: &[f32],
        ty: &str,
        comps: usize,
        target: Option<u32>,
        minmax: bool,
    ) -> usize {
        let bytes: Vec<u8> = data.iter().flat_map(|f| f.to_le_bytes()).collect();
        let view = self.view(&bytes, target);
        let mut a = json!({"bufferView": view, "componentType": 5126, "count": data.len() / comps, "type": ty});
        if minmax {
            let mut lo = vec![f32::INFINITY; comps];
            let mut hi = vec![f32::NEG_INFINITY; comps];
            for e in data.chunks_exact(comps) {
                for c in 0..comps {
                    lo[c] = lo[c].min(e[c]);
                    hi[c] = hi[c].max(e[c]);
                }
            }
            a["min"] = json!(lo);
            a["max"] = json!(hi);
        }
        self.accessors.push(a);
        self.accessors.len() - 1
    }

    /// A VEC3 float accessor of `data.len()` elements holding mostly zeros: only the
    /// non-zero elements are stored, as a sparse accessor (no buffer view at all when
    /// every element is zero); `min`/`max` over every element, zeros included.
    fn sparse_vec3(&mut self, data: &[Vec3]) -> usize {
        let idx: Vec<u32> = (0..data.len() as u32)
            .filter(|&i| data[i as usize] != Vec3::ZERO)
            .collect();
        let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
        for d in data {
            lo = lo.min(*d);
            hi = hi.max(*d);
        }
        if data.is_empty() {
            (lo, hi) = (Vec3::ZERO, Vec3::ZERO);
        }
        let mut a = json!({"componentType": 5126, "count": data.len(), "type": "VEC3", "min": lo.to_array(), "max": hi.to_array()});
        if !idx.is_empty() {
            let ib: Vec<u8> = idx.iter().flat_map(|i| i.to_le_bytes()).collect();
            let vb: Vec<u8> = idx
                .iter()
                .flat_map(|&i| data[i as usize].to_array())
                .flat_map(f32::to_le_bytes)
                .collect();
            let iv = self.view(&ib, None);
            let vv = self.view(&vb, None);
            a["sparse"] = json!({"count": idx.len(), "indices": {"bufferView": iv, "componentType": 5125}, "values": {"bufferView": vv}});
        }
        self.accessors.push(a);
        self.accessors.len() - 1
    }

    fn u16s(&mut self, data: &[u16], ty: &str, comps: usize) -> usize {
        let bytes: Vec<u8> = data.iter().flat_map(|f| f.to_le_bytes()).collect();
        let view = self.view(&bytes, Some(ARRAY_BUFFER));
        self.accessors.push(json!({"bufferView": view, "componentType": 5123, "count": data.len() / comps, "type": ty}));
        self.accessors.len() - 1
    }

    fn indices(&mut self, data: &[u32]) -> usize {
        let bytes: Vec<u8> = data.iter().flat_map(|f| f.to_le_bytes()).collect();
        let view = self.view(&bytes, Some(ELEMENT_ARRAY_BUFFER));
        self.accessors.push(json!({"bufferView": view, "componentType": 5125, "count": data.len(), "type": "SCALAR"}));
        self.accessors.len() - 1
    }
}

fn flat(v: &[Vec3]) -> Vec<f32> {
    v.iter().flat_map(|p| p.to_array()).collect()
}

/// Per vertex, `slots` (bone, weight) pairs: the strongest influences, renormalized so
/// the f32 weights sum to 1 (the remainder goes to the strongest).
fn pack_weights(part: &Part, slots: usize, fallback: u16) -> (Vec<u16>, Vec<f32>) {
    let w = part.weights.as_ref().expect("skinned part");
    let n = part.mesh.positions.len();
    let mut joints = vec![0u16; n * slots];
    let mut weights = vec![0f32; n * slots];
    for (v, list) in w.vertices.iter().enumerate() {
        let mut l: Vec<_> = list
            .iter()
            .filter(|i| i.weight > 0.0 && i.weight.is_finite())
            .copied()
            .collect();
        crate::model::sort_influences(&mut l);
        // Merge duplicate bones.
        let mut merged: Vec<(u32, f64)> = Vec::new();
        for i in l {
            match merged.iter_mut().find(|m| m.0 == i.bone) {
                Some(m) => m.1 += i.weight as f64,
                None => merged.push((i.bone, i.weight as f64)),
            }
        }
        merged.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        merged.truncate(slots);
        if merged.is_empty() {
            merged.push((fallback as u32, 1.0));
        }
        let s: f64 = merged.iter().map(|m| m.1).sum();
        let mut vals: Vec<f32> = merged.iter().map(|m| (m.1 / s) as f32).collect();
        let rest: f32 = 1.0 - vals[1..].iter().sum::<f32>();
        vals[0] = rest;
        for (k, (b, _)) in merged.iter().enumerate() {
            joints[v * slots + k] = *b as u16;
            weights[v * slots + k] = vals[k];
        }
    }
    (joints, weights)
}

/// What the writer needs beyond [`Character::validate`]: a normal delta a vertex for
/// every morph that has them, and at least one part.
fn check_writable(c: &Character) -> Result<()> {
    c.validate()?;
    for p in &c.parts {
        for m in &p.morphs {
            if m.normal_deltas
                .as_ref()
                .is_some_and(|d| d.len() != p.mesh.positions.len())
            {
                return Err(Error::invalid(
                    format!("part {:?}", p.name),
                    format!(
                        "morph {:?} has a normal delta count unlike its vertex count",
                        m.name
                    ),
                ));
            }
        }
    }
    if c.parts.is_empty() {
        return Err(Error::invalid("character", "has no parts to write"));
    }
    Ok(())
}

/// The nodes a writer adds to the scene, and which of them are bones.
struct SceneNodes<'a> {
    nodes: &'a mut Vec<Value>,
    scene_nodes: &'a mut Vec<usize>,
    bone_nodes: &'a mut Vec<u32>,
}

/// Writes one node a bone (local rest transform, bone length in the extras) into `out`
/// and the inverse bind matrices into `b`; returns the skin.
fn write_skeleton(sk: &Skeleton, b: &mut Builder, out: &mut SceneNodes) -> Result<Value> {
    if sk.len() > u16::MAX as usize {
        return Err(Error::invalid(
            "skeleton",
            format!("{} bones: glTF joints are written as u16", sk.len()),
        ));
    }
    let rest: Vec<Mat4> = sk.rest_matrices();
    let children = sk.children();
    for (i, bone) in sk.bones.iter().enumerate() {
        let local = match bone.parent {
            Some(p) => rest[p].inverse() * rest[i],
            None => rest[i],
        };
        let (_, r, t) = local.to_scale_rotation_translation();
        let r = if r.w < 0.0 { -r } else { r }.normalize();
        let mut node = json!({"name": bone.name});
        // glTF has no bone tails: the length along the joint's +Y (its bone
        // direction) is kept in the node's extras, so reading the file back gives
        // the same bones (the same twist axes and the same checks).
        let length = (bone.tail - bone.head).length();
        if length.is_finite() && length > 0.0 {
            node["extras"] = json!({ "rigsmith_bone_length": length });
        }
        if t != Vec3::ZERO {
            node["translation"] = json!(t.to_array());
        }
        if r != Quat::IDENTITY {
            node["rotation"] = json!(r.to_array());
        }
        if !children[i].is_empty() {
            node["children"] = json!(children[i]);
        }
        out.nodes.push(node);
        out.bone_nodes.push(i as u32);
        if bone.parent.is_none() {
            out.scene_nodes.push(i);
        }
    }
    let ibm: Vec<f32> = rest
        .iter()
        .flat_map(|m| {
            // Rigid inverse with an exact last row (0, 0, 0, 1), as the validator requires.
            let mut a = m.inverse().to_cols_array();
            a[3] = 0.0;
            a[7] = 0.0;
            a[11] = 0.0;
            a[15] = 1.0;
            a
        })
        .collect();
    let ibm_acc = b.floats(&ibm, "MAT4", 16, None, false);
    let mut s =
        json!({"inverseBindMatrices": ibm_acc, "joints": (0..sk.len()).collect::<Vec<_>>()});
    if sk.roots().len() == 1 {
        s["skeleton"] = json!(sk.roots()[0]);
    }
    Ok(s)
}

/// The glTF material named `name`: a plain grey, with the source's double-sided and
/// alpha flags.
fn material_json(c: &Character, name: &str) -> Value {
    let mut mat = json!({"name": name, "pbrMetallicRoughness": {"baseColorFactor": [0.8, 0.8, 0.8, 1.0], "metallicFactor": 0.0, "roughnessFactor": 0.8}});
    // The source's flags survive the round trip (defaults are not written).
    if let Some(f) = c.materials.get(name) {
        if f.double_sided {
            mat["doubleSided"] = json!(true);
        }
        match f.alpha_mode {
            crate::model::AlphaMode::Opaque => {}
            crate::model::AlphaMode::Mask => mat["alphaMode"] = json!("MASK"),
            crate::model::AlphaMode::Blend => mat["alphaMode"] = json!("BLEND"),
        }
    }
    mat
}

/// The morph targets of `part`, as sparse position (and normal) deltas.
fn morph_targets(part: &Part, b: &mut Builder) -> Value {
    let mut targets = Vec::new();
    for mt in &part.morphs {
        let mut t = serde_json::Map::new();
        t.insert("POSITION".into(), json!(b.sparse_vec3(&mt.position_deltas)));
        if let Some(nd) = &mt.normal_deltas {
            t.insert("NORMAL".into(), json!(b.sparse_vec3(nd)));
        }
        targets.push(Value::Object(t));
    }
    json!(targets)
}

/// Builds the glTF document (as JSON), the binary buffer, and each bone's node index.
pub(super) fn build_json(c: &Character, opts: &WriteOptions) -> Result<(Value, Vec<u8>, Vec<u32>)> {
    check_writable(c)?;
    let slots = if opts.max_influences > 4 { 8 } else { 4 };
    let mut b = Builder {
        bin: Vec::new(),
        views: Vec::new(),
        accessors: Vec::new(),
    };
    let mut nodes: Vec<Value> = Vec::new();
    let mut scene_nodes: Vec<usize> = Vec::new();
    let mut bone_nodes: Vec<u32> = Vec::new();
    let mut skin: Option<Value> = None;

    if let Some(sk) = c.skeleton.as_ref().filter(|s| !s.is_empty()) {
        let mut out = SceneNodes {
            nodes: &mut nodes,
            scene_nodes: &mut scene_nodes,
            bone_nodes: &mut bone_nodes,
        };
        skin = Some(write_skeleton(sk, &mut b, &mut out)?);
    }
    let fallback = c
        .skeleton
        .as_ref()
        .and_then(|s| s.roots().first().copied())
        .unwrap_or(0) as u16;

    let mut materials: BTreeMap<String, usize> = BTreeMap::new();
    let mut material_list: Vec<Value> = Vec::new();
    let mut meshes: Vec<Value> = Vec::new();
    for part in &c.parts {
        let m = &part.mesh;
        let mut attrs = serde_json::Map::new();
        attrs.insert(
            "POSITION".into(),
            json!(b.floats(&flat(&m.positions), "VEC3", 3, Some(ARRAY_BUFFER), true)),
        );
        let normals: Vec<Vec3> = match &m.normals {
            Some(n) => n
                .iter()
                .map(|v| v.try_normalize().unwrap_or(Vec3::Y))
                .collect(),
            None => m
                .compute_normals()
                .into_iter()
                .map(|v| if v == Vec3::ZERO { Vec3::Y } else { v })
                .collect(),
        };
        attrs.insert(
            "NORMAL".into(),
            json!(b.floats(&flat(&normals), "VEC3", 3, Some(ARRAY_BUFFER), false)),
        );
        if let Some(uv) = &m.uvs {
            // A glTF accessor holds finite numbers only.
            let f: Vec<f32> = uv
                .iter()
                .flat_map(|t| {
                    if t.is_finite() {
                        t.to_array()
                    } else {
                        [0.0; 2]
                    }
                })
                .collect();
            attrs.insert(
                "TEXCOORD_0".into(),
                json!(b.floats(&f, "VEC2", 2, Some(ARRAY_BUFFER), false)),
            );
        }
        for (name, v) in opts.vertex_attributes.get(&part.name).into_iter().flatten() {
            if v.len() == m.positions.len() {
                attrs.insert(
                    name.clone(),
                    json!(b.floats(v, "SCALAR", 1, Some(ARRAY_BUFFER), false)),
                );
            }
        }
        let skinned = part.weights.is_some() && skin.is_some();
        if skinned {
            let (j, w) = pack_weights(part, slots, fallback);
            for set in 0..slots / 4 {
                let js: Vec<u16> = j
                    .chunks_exact(slots)
                    .flat_map(|c| c[set * 4..set * 4 + 4].to_vec())
                    .collect();
                let ws: Vec<f32> = w
                    .chunks_exact(slots)
                    .flat_map(|c| c[set * 4..set * 4 + 4].to_vec())
                    .collect();
                attrs.insert(format!("JOINTS_{set}"), json!(b.u16s(&js, "VEC4", 4)));
                attrs.insert(
                    format!("WEIGHTS_{set}"),
                    json!(b.floats(&ws, "VEC4", 4, Some(ARRAY_BUFFER), false)),
                );
            }
        }
        let idx: Vec<u32> = m.triangles.iter().flatten().copied().collect();
        let mut prim =
            json!({"attributes": Value::Object(attrs), "indices": b.indices(&idx), "mode": 4});
        if let Some(name) = &part.material {
            let next = materials.len();
            let mi = *materials.entry(name.clone()).or_insert_with(|| {
                material_list.push(material_json(c, name));
                next
            });
            prim["material"] = json!(mi);
        }
        let mut mesh = json!({"name": part.name});
        if !part.morphs.is_empty() {
            prim["targets"] = morph_targets(part, &mut b);
            mesh["weights"] = json!(vec![0.0; part.morphs.len()]);
            mesh["extras"] = json!({"targetNames": part.morphs.iter().map(|m| m.name.clone()).collect::<Vec<_>>()});
        }
        mesh["primitives"] = json!([prim]);
        meshes.push(mesh);
        let mut node = json!({"name": part.name, "mesh": meshes.len() - 1});
        if skinned {
            node["skin"] = json!(0);
        }
        scene_nodes.push(nodes.len());
        nodes.push(node);
    }
    while b.bin.len() % 4 != 0 {
        b.bin.push(0);
    }
    let mut root = json!({
        "asset": {"version": "2.0", "generator": opts.generator},
        "scene": 0,
        "scenes": [{"nodes": scene_nodes}],
        "nodes": nodes,
        "meshes": meshes,
        "accessors": b.accessors,
        "bufferViews": b.views,
        "buffers": [{"byteLength": b.bin.len()}],
    });
    if !material_list.is_empty() {
        root["materials"] = json!(material_list);
    }
    if let Some(s) = skin {
        root["skins"] = json!([s]);
    }
    Ok((root, b.bin, bone_nodes))
}
