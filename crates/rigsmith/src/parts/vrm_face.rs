//! The face in a VRM 1.0 file: `VRMC_vrm.expressions` and `VRMC_vrm.lookAt`.
//!
//! * Every VRM preset ([`VRM_PRESETS`]) is written. A preset whose name is a
//!   morph target of some parts binds those targets (`morphTargetBinds`: the part's
//!   node, the target's index, weight 1); `lookUp`/`lookDown`/`lookLeft`/`lookRight`
//!   and `neutral` have no binds (the look directions are eye-bone rotations, the
//!   `lookAt` of type `bone`). `happy`, `angry`, `sad`, `relaxed` and `surprised`
//!   block the blink while on (`overrideBlink: block`, so a smile does not blink
//!   through half-closed lids); the mouth presets block nothing.
//! * Every other morph target name becomes a custom expression of the same name, but
//!   the corrective shapes (`CS_...`), which joint angles drive.
//! * `lookAt` is of type `bone` when the humanoid maps `leftEye` and `rightEye`: its
//!   origin is the eyes' midpoint in the head bone's rest frame, with 10 deg of eye
//!   turn over 90 deg of look, either way.
//!
//! Nothing is written when no part has a morph target and the eyes are not mapped.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use crate::model::Character;

/// The VRM 1.0 expression presets.
pub const VRM_PRESETS: [&str; 18] = [
    "happy",
    "angry",
    "sad",
    "relaxed",
    "surprised",
    "aa",
    "ih",
    "ou",
    "ee",
    "oh",
    "blink",
    "blinkLeft",
    "blinkRight",
    "lookUp",
    "lookDown",
    "lookLeft",
    "lookRight",
    "neutral",
];

/// The presets that block the blink while on.
const BLOCK_BLINK: [&str; 5] = ["happy", "angry", "sad", "relaxed", "surprised"];

/// The `expressions` and `lookAt` objects of `VRMC_vrm` for `c`, whose part `k` is the
/// glTF node `part_nodes[k]` (`None` for each when there is nothing to write).
pub fn vrm_face(
    c: &Character,
    part_nodes: &[usize],
    humanoid: &BTreeMap<String, String>,
) -> (Option<Value>, Option<Value>) {
    let mut binds: BTreeMap<&str, Vec<Value>> = BTreeMap::new();
    for (k, p) in c.parts.iter().enumerate() {
        let Some(&node) = part_nodes.get(k) else {
            continue;
        };
        for (i, m) in p.morphs.iter().enumerate() {
            binds
                .entry(m.name.as_str())
                .or_default()
                .push(json!({"node": node, "index": i, "weight": 1.0}));
        }
    }
    let eyes = humanoid.contains_key("leftEye") && humanoid.contains_key("rightEye");
    let expressions = if binds.is_empty() && !eyes {
        None
    } else {
        let entry = |name: &str| {
            let mut e = json!({
                "isBinary": false,
                "morphTargetBinds": binds.get(name).cloned().unwrap_or_default(),
                "overrideBlink": if BLOCK_BLINK.contains(&name) { "block" } else { "none" },
                "overrideLookAt": "none",
                "overrideMouth": "none",
            });
            if name.starts_with("blink") {
                e["isBinary"] = json!(false);
            }
            e
        };
        let mut preset = serde_json::Map::new();
        for n in VRM_PRESETS {
            preset.insert(n.to_string(), entry(n));
        }
        let mut custom = serde_json::Map::new();
        // Corrective shapes (`CS_...`) are driven by joint angles, not expressions.
        for n in binds
            .keys()
            .filter(|n| !VRM_PRESETS.contains(n) && !n.starts_with("CS_"))
        {
            custom.insert(n.to_string(), entry(n));
        }
        Some(json!({"preset": preset, "custom": custom}))
    };
    let look_at = match (
        eyes,
        c.skeleton.as_ref(),
        humanoid.get("head"),
        humanoid.get("leftEye"),
        humanoid.get("rightEye"),
    ) {
        (true, Some(s), Some(h), Some(l), Some(r)) => match (s.find(h), s.find(l), s.find(r)) {
            (Some(h), Some(l), Some(r)) => {
                let mid = 0.5 * (s.bones[l].head + s.bones[r].head);
                let off = s.bones[h].rest_matrix().inverse().transform_point3(mid);
                let range = json!({"inputMaxValue": 90.0, "outputScale": 10.0});
                Some(json!({
                    "type": "bone",
                    "offsetFromHeadBone": [off.x, off.y, off.z],
                    "rangeMapHorizontalInner": range,
                    "rangeMapHorizontalOuter": range,
                    "rangeMapVerticalDown": range,
                    "rangeMapVerticalUp": range,
                }))
            }
            _ => None,
        },
        _ => None,
    };
    (expressions, look_at)
}

/// The glTF node of each part in a document written by [`crate::io::gltf`] (mesh `k`
/// is part `k`).
pub fn part_nodes(doc: &Value, parts: usize) -> Vec<usize> {
    let mut out = vec![usize::MAX; parts];
    if let Some(nodes) = doc["nodes"].as_array() {
        for (i, n) in nodes.iter().enumerate() {
            if let Some(m) = n["mesh"].as_u64() {
                if let Some(slot) = out.get_mut(m as usize) {
                    *slot = i;
                }
            }
        }
    }
    out
}
