//! The VRM 1.0 humanoid bone table, in one place: every humanoid bone with its VRM
//! parent, the bones VRM requires, and the checks a map must pass to be written as a
//! VRM humanoid (every required bone, a valid VRM hierarchy, left bones on the left).

use std::collections::BTreeMap;

use crate::error::{Error, Result};
use crate::model::Skeleton;

/// The humanoid bones VRM 1.0 requires.
pub const REQUIRED_BONES: [&str; 15] = [
    "hips",
    "spine",
    "head",
    "leftUpperArm",
    "leftLowerArm",
    "leftHand",
    "rightUpperArm",
    "rightLowerArm",
    "rightHand",
    "leftUpperLeg",
    "leftLowerLeg",
    "leftFoot",
    "rightUpperLeg",
    "rightLowerLeg",
    "rightFoot",
];

/// VRM 1.0 humanoid bone -> its parent in the VRM humanoid hierarchy (`hips` has none).
pub const VRM_PARENTS: [(&str, &str); 54] = [
    ("spine", "hips"),
    ("chest", "spine"),
    ("upperChest", "chest"),
    ("neck", "upperChest"),
    ("head", "neck"),
    ("leftEye", "head"),
    ("rightEye", "head"),
    ("jaw", "head"),
    ("leftUpperLeg", "hips"),
    ("leftLowerLeg", "leftUpperLeg"),
    ("leftFoot", "leftLowerLeg"),
    ("leftToes", "leftFoot"),
    ("rightUpperLeg", "hips"),
    ("rightLowerLeg", "rightUpperLeg"),
    ("rightFoot", "rightLowerLeg"),
    ("rightToes", "rightFoot"),
    ("leftShoulder", "upperChest"),
    ("leftUpperArm", "leftShoulder"),
    ("leftLowerArm", "leftUpperArm"),
    ("leftHand", "leftLowerArm"),
    ("rightShoulder", "upperChest"),
    ("rightUpperArm", "rightShoulder"),
    ("rightLowerArm", "rightUpperArm"),
    ("rightHand", "rightLowerArm"),
    ("leftThumbMetacarpal", "leftHand"),
    ("leftThumbProximal", "leftThumbMetacarpal"),
    ("leftThumbDistal", "leftThumbProximal"),
    ("leftIndexProximal", "leftHand"),
    ("leftIndexIntermediate", "leftIndexProximal"),
    ("leftIndexDistal", "leftIndexIntermediate"),
    ("leftMiddleProximal", "leftHand"),
    ("leftMiddleIntermediate", "leftMiddleProximal"),
    ("leftMiddleDistal", "leftMiddleIntermediate"),
    ("leftRingProximal", "leftHand"),
    ("leftRingIntermediate", "leftRingProximal"),
    ("leftRingDistal", "leftRingIntermediate"),
    ("leftLittleProximal", "leftHand"),
    ("leftLittleIntermediate", "leftLittleProximal"),
    ("leftLittleDistal", "leftLittleIntermediate"),
    ("rightThumbMetacarpal", "rightHand"),
    ("rightThumbProximal", "rightThumbMetacarpal"),
    ("rightThumbDistal", "rightThumbProximal"),
    ("rightIndexProximal", "rightHand"),
    ("rightIndexIntermediate", "rightIndexProximal"),
    ("rightIndexDistal", "rightIndexIntermediate"),
    ("rightMiddleProximal", "rightHand"),
    ("rightMiddleIntermediate", "rightMiddleProximal"),
    ("rightMiddleDistal", "rightMiddleIntermediate"),
    ("rightRingProximal", "rightHand"),
    ("rightRingIntermediate", "rightRingProximal"),
    ("rightRingDistal", "rightRingIntermediate"),
    ("rightLittleProximal", "rightHand"),
    ("rightLittleIntermediate", "rightLittleProximal"),
    ("rightLittleDistal", "rightLittleIntermediate"),
];

/// The VRM parent of humanoid bone `vrm` (`None` for `hips` and unknown names).
pub fn vrm_parent(vrm: &str) -> Option<&'static str> {
    VRM_PARENTS.iter().find(|(b, _)| *b == vrm).map(|(_, p)| *p)
}

/// The VRM 1.0 required bones `map` lacks, in [`REQUIRED_BONES`] order.
pub fn missing_required(map: &BTreeMap<String, String>) -> Vec<&'static str> {
    REQUIRED_BONES
        .iter()
        .copied()
        .filter(|b| !map.contains_key(*b))
        .collect()
}

/// `Ok` when `map` has every VRM required bone, else an error naming `what` (the file),
/// the missing bones and `reason` when given.
pub fn require_complete(
    map: &BTreeMap<String, String>,
    reason: Option<&str>,
    what: &str,
) -> Result<()> {
    let missing = missing_required(map);
    if missing.is_empty() {
        return Ok(());
    }
    let why = reason.map(|r| format!(" ({r})")).unwrap_or_default();
    Err(Error::invalid(
        what,
        format!(
            "not a VRM humanoid: required bones not mapped: {}{why}",
            missing.join(", ")
        ),
    ))
}

/// Problems of `map` (VRM bone -> skeleton bone name) as a VRM humanoid hierarchy: bones
/// the skeleton lacks, one bone in two slots, and each mapped bone whose nearest mapped
/// ancestor is not the bone of its (nearest mapped) VRM parent. Empty when valid.
pub fn hierarchy_problems(skel: &Skeleton, map: &BTreeMap<String, String>) -> Vec<String> {
    let mut out = Vec::new();
    let mut idx: BTreeMap<&str, usize> = BTreeMap::new();
    let mut owner: BTreeMap<usize, &str> = BTreeMap::new();
    for (v, b) in map {
        match skel.find(b) {
            None => out.push(format!("{v}: bone {b:?} is not in the skeleton")),
            Some(i) => {
                if let Some(o) = owner.insert(i, v) {
                    out.push(format!("{b:?} is both {o} and {v}"));
                }
                idx.insert(v, i);
            }
        }
    }
    let mapped: BTreeMap<usize, &str> = idx.iter().map(|(v, i)| (*i, *v)).collect();
    for (v, &i) in &idx {
        // The nearest mapped VRM ancestor.
        let mut p = vrm_parent(v);
        while let Some(pv) = p {
            if idx.contains_key(pv) {
                break;
            }
            p = vrm_parent(pv);
        }
        // The nearest mapped skeleton ancestor.
        let mut a = skel.bones[i].parent;
        while let Some(k) = a {
            if mapped.contains_key(&k) {
                break;
            }
            a = skel.bones[k].parent;
        }
        let got = a.map(|k| mapped[&k]);
        if got != p {
            out.push(format!(
                "{v} ({}) hangs from {} in the skeleton, not from its VRM parent {}",
                skel.bones[i].name,
                got.unwrap_or("nothing"),
                p.unwrap_or("(none)")
            ));
        }
    }
    out
}

/// Whether the left/right pairs of `map` lie on the right sides (+X is the left):
/// `false` when a mapped left upper arm, hand, upper leg or foot is not further to +X
/// than its right twin.
pub fn sides_agree(skel: &Skeleton, map: &BTreeMap<String, String>) -> bool {
    for part in ["UpperArm", "Hand", "UpperLeg", "Foot"] {
        let x = |side: &str| {
            map.get(&format!("{side}{part}"))
                .and_then(|b| skel.find(b))
                .map(|i| skel.bones[i].head.x)
        };
        if let (Some(l), Some(r)) = (x("left"), x("right")) {
            if l <= r {
                return false;
            }
        }
    }
    true
}

/// The VRM slot name for `side` (`left`/`right`) and a part (`UpperArm`), as a static
/// string from [`VRM_PARENTS`].
pub(crate) fn slot(side: &str, part: &str) -> &'static str {
    let want = format!("{side}{part}");
    VRM_PARENTS
        .iter()
        .map(|(b, _)| *b)
        .find(|b| *b == want)
        .expect("a VRM humanoid bone")
}
