//! A rest pose the stage cannot apply in a nested chain ([`chain_pose_problems`]).
//!
//! A node exists only for a bone that carries a slot. In `bones` nesting, a bone with
//! no slot between a part and the part it nests under (or above a root part) has no
//! node to rotate or scale, so its `rotation_deg`/`scale_*` would be lost (its `x`/`y`
//! are kept: positions sum along the chain). The builder refuses it.

use std::collections::{BTreeMap, BTreeSet};

use crate::error::num;
use crate::model::{Nesting, RigDocument};
use crate::nesting::slot_parent_chain;

/// One sentence per bone whose rest pose would be lost. Nothing in `flat` nesting or
/// when the rig keeps its legacy pose (`rest_rotation: false`).
pub fn chain_pose_problems(doc: &RigDocument) -> Vec<String> {
    if doc.nesting() != Nesting::Bones || !doc.applies_rest_pose() {
        return Vec::new();
    }
    let chain = slot_parent_chain(doc);
    let bone_of_slot: BTreeMap<&str, &str> = doc
        .slots
        .iter()
        .rev()
        .map(|s| (s.name.as_str(), s.bone.as_str()))
        .collect();
    let bones: BTreeMap<&str, &crate::model::Bone> = doc
        .bones
        .iter()
        .rev()
        .map(|b| (b.name.as_str(), b))
        .collect();
    let mut reported = BTreeSet::new();
    let mut out = Vec::new();
    for s in &doc.slots {
        let parent_slot = chain.get(&s.name).cloned().flatten();
        let stop = parent_slot
            .as_deref()
            .and_then(|p| bone_of_slot.get(p).copied());
        if stop == Some(s.bone.as_str()) {
            continue;
        }
        let mut seen = BTreeSet::from([s.bone.as_str()]);
        let mut cur = bones.get(s.bone.as_str()).and_then(|b| b.parent.as_deref());
        while let Some(name) = cur {
            if Some(name) == stop || !seen.insert(name) {
                break;
            }
            let Some(b) = bones.get(name).copied() else {
                break;
            };
            if b.carries_rest_pose() && reported.insert(name.to_string()) {
                let above = match &parent_slot {
                    Some(p) => format!("'{p}'"),
                    None => "the entity".into(),
                };
                out.push(format!(
                    "bone '{}' carries no slot between '{}' and {}, so its rest pose (rotation {}°, scale {} x {}) \
                     has no node to apply to; give the bone a slot or move its pose to the bone below it",
                    name,
                    s.name,
                    above,
                    num(b.rotation_deg),
                    num(b.scale_x),
                    num(b.scale_y)
                ));
            }
            cur = b.parent.as_deref();
        }
    }
    out
}
