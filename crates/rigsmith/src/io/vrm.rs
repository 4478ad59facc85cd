//! VRM 0.x and 1.0 reading: the glTF character plus the humanoid bone map and the
//! spring-bone data, kept for later stages in [`Character::vrm`].
//!
//! * VRM 1.0 (`VRMC_vrm`): `humanoid.humanBones` is `{ "leftUpperArm": { "node": 12 } }`;
//!   spring bones are the root extension `VRMC_springBone` (kept raw).
//! * VRM 0.x (`VRM`): `humanoid.humanBones` is a list of `{ "bone": ..., "node": ... }`;
//!   names are translated to VRM 1.0 spelling (the 0.x thumb `Proximal/Intermediate/
//!   Distal` become `Metacarpal/Proximal/Distal`); spring bones are
//!   `secondaryAnimation` (kept raw). VRM 0.x models face -Z; the whole character
//!   (parts, morphs, skeleton) is turned 180 degrees about +Y so it faces +Z like every
//!   other character in rigsmith.
//!
//! The humanoid map's values are skeleton bone names (the joint nodes' names).

use std::collections::BTreeMap;
use std::path::Path;

use glam::{Mat4, Vec3};
use serde_json::Value;

use super::gltf::{load_doc, read::read_scene};
use crate::error::{Error, Result};
use crate::model::{Character, VrmData};

/// Reads a `.vrm` file (VRM 0.x or 1.0).
pub fn read_vrm(path: &Path) -> Result<Character> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    read_vrm_bytes(&bytes, path)
}

fn vrm0_to_1(name: &str) -> String {
    for (side, s) in [("left", "left"), ("right", "right")] {
        for (from, to) in [
            ("ThumbProximal", "ThumbMetacarpal"),
            ("ThumbIntermediate", "ThumbProximal"),
            ("ThumbDistal", "ThumbDistal"),
        ] {
            if name == format!("{side}{from}") {
                return format!("{s}{to}");
            }
        }
    }
    name.to_string()
}

/// Reads VRM bytes; `path` names the file in errors.
pub fn read_vrm_bytes(bytes: &[u8], path: &Path) -> Result<Character> {
    let doc = load_doc(bytes, path)?;
    let scene = read_scene(&doc)?;
    let mut c = scene.character;
    let ext = doc.json.get("extensions");
    let bone_name = |node: u64, at: &str| -> Result<String> {
        let n = node as usize;
        if n >= scene.node_names.len() {
            return Err(doc.err(at, format!("node {node} does not exist")));
        }
        Ok(match (scene.node_bone[n], &c.skeleton) {
            (Some(b), Some(s)) => s.bones[b].name.clone(),
            _ => scene.node_names[n].clone(),
        })
    };
    let mut humanoid = BTreeMap::new();
    let data = if let Some(v1) = ext.and_then(|e| e.get("VRMC_vrm")) {
        if let Some(hb) = v1
            .pointer("/humanoid/humanBones")
            .and_then(Value::as_object)
        {
            for (k, v) in hb {
                let at = format!("extensions.VRMC_vrm.humanoid.humanBones.{k}.node");
                let node = v
                    .get("node")
                    .and_then(Value::as_u64)
                    .ok_or_else(|| doc.err(&at, "missing node"))?;
                humanoid.insert(k.clone(), bone_name(node, &at)?);
            }
        }
        VrmData {
            version: 1,
            humanoid,
            spring_bone: ext.and_then(|e| e.get("VRMC_springBone")).cloned(),
            meta: v1.get("meta").cloned(),
        }
    } else if let Some(v0) = ext.and_then(|e| e.get("VRM")) {
        if let Some(hb) = v0.pointer("/humanoid/humanBones").and_then(Value::as_array) {
            for (k, v) in hb.iter().enumerate() {
                let at = format!("extensions.VRM.humanoid.humanBones[{k}]");
                let (Some(bone), Some(node)) = (
                    v.get("bone").and_then(Value::as_str),
                    v.get("node").and_then(Value::as_u64),
                ) else {
                    return Err(doc.err(at, "needs a bone name and a node"));
                };
                humanoid.insert(vrm0_to_1(bone), bone_name(node, &at)?);
            }
        }
        let turn = Mat4::from_rotation_y(std::f32::consts::PI);
        for p in &mut c.parts {
            let flip = |v: &mut Vec3| *v = Vec3::new(-v.x, v.y, -v.z);
            p.mesh.positions.iter_mut().for_each(flip);
            if let Some(n) = &mut p.mesh.normals {
                n.iter_mut().for_each(flip);
            }
            for m in &mut p.morphs {
                m.position_deltas.iter_mut().for_each(flip);
                if let Some(n) = &mut m.normal_deltas {
                    n.iter_mut().for_each(flip);
                }
            }
        }
        if let Some(s) = &mut c.skeleton {
            s.transform(turn);
        }
        VrmData {
            version: 0,
            humanoid,
            spring_bone: v0.get("secondaryAnimation").cloned(),
            meta: v0.get("meta").cloned(),
        }
    } else {
        return Err(doc.err(
            "extensions",
            "not a VRM file: neither VRMC_vrm nor VRM extension",
        ));
    };
    c.vrm = Some(data);
    Ok(c)
}
