//! Finding bones by role: which bone is the left upper arm, the right knee, the head.
//!
//! Rigs name bones in many ways. A [`Rig`] resolves each [`Role`] once through name
//! maps for Unreal / MakeHuman `game_engine` (`upperarm_l`, `lowerarm_l`, `calf_l`),
//! Mixamo (`mixamorig:LeftArm`, `LeftForeArm`, `LeftUpLeg`, `LeftLeg`), Rigify
//! (`DEF-upper_arm.L`, `DEF-forearm.L`, `DEF-shin.L`), VRM humanoid names
//! (`leftUpperArm`, through the file's humanoid map or the bone names themselves),
//! VRoid (`J_Bip_L_UpperArm`) and common variants (`UpperArm.L`, `Shin_R`, `Hips`).
//!
//! Names are split into a side and a side-less stem with
//! [`crate::model::naming::split_side`], then the stem (lower case, prefixes such as
//! `def-` and `j_bip_` removed, separators removed) is looked up. When two bones claim a
//! role, deform bones win, then the shallower bone. A role nothing claims is listed in
//! [`Rig::unknown`] with the spellings that were tried: never guessed from geometry.
//! The pelvis alone has a structural fallback: the nearest common ancestor of both
//! thighs (Rigify calls its pelvis `DEF-spine`).

use std::collections::BTreeMap;

use crate::model::naming::{split_side, Side};
use crate::model::{Character, Skeleton};

/// A bone's job in a humanoid, independent of naming.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// Hips / pelvis (centre).
    Pelvis,
    /// First neck bone (centre).
    Neck,
    /// Head (centre).
    Head,
    /// Jaw (centre), optional.
    Jaw,
    /// Clavicle / shoulder.
    Clavicle(Side),
    /// Upper arm.
    UpperArm(Side),
    /// Forearm (lower arm).
    Forearm(Side),
    /// Hand.
    Hand(Side),
    /// Thigh (upper leg).
    Thigh(Side),
    /// Calf / shin (lower leg).
    Calf(Side),
    /// Foot.
    Foot(Side),
    /// Toe / ball.
    Toe(Side),
}

impl Role {
    /// A stable short name: `upperarm.L`, `pelvis`.
    pub fn key(self) -> String {
        let (stem, side) = match self {
            Role::Pelvis => ("pelvis", None),
            Role::Neck => ("neck", None),
            Role::Head => ("head", None),
            Role::Jaw => ("jaw", None),
            Role::Clavicle(s) => ("clavicle", Some(s)),
            Role::UpperArm(s) => ("upperarm", Some(s)),
            Role::Forearm(s) => ("forearm", Some(s)),
            Role::Hand(s) => ("hand", Some(s)),
            Role::Thigh(s) => ("thigh", Some(s)),
            Role::Calf(s) => ("calf", Some(s)),
            Role::Foot(s) => ("foot", Some(s)),
            Role::Toe(s) => ("toe", Some(s)),
        };
        match side {
            Some(s) => format!("{stem}.{}", s.letter()),
            None => stem.to_string(),
        }
    }

    /// Every role, centre first, then left and right limbs.
    pub fn all() -> Vec<Role> {
        let mut v = vec![Role::Pelvis, Role::Neck, Role::Head, Role::Jaw];
        for s in [Side::Left, Side::Right] {
            v.extend([
                Role::Clavicle(s),
                Role::UpperArm(s),
                Role::Forearm(s),
                Role::Hand(s),
                Role::Thigh(s),
                Role::Calf(s),
                Role::Foot(s),
                Role::Toe(s),
            ]);
        }
        v
    }

    fn side(self) -> Side {
        match self {
            Role::Pelvis | Role::Neck | Role::Head | Role::Jaw => Side::Center,
            Role::Clavicle(s)
            | Role::UpperArm(s)
            | Role::Forearm(s)
            | Role::Hand(s)
            | Role::Thigh(s)
            | Role::Calf(s)
            | Role::Foot(s)
            | Role::Toe(s) => s,
        }
    }

    /// Normalized stems that name this role (see the module docs).
    pub fn stems(self) -> &'static [&'static str] {
        match self {
            Role::Pelvis => &["pelvis", "hips", "hip"],
            Role::Neck => &["neck", "neck01", "neck1", "neck001", "spine004"],
            Role::Head => &["head", "spine006"],
            Role::Jaw => &["jaw", "jaw01", "mandible"],
            Role::Clavicle(_) => &["clavicle", "shoulder", "collar", "collarbone"],
            Role::UpperArm(_) => &["upperarm", "arm", "uparm", "upperarm01", "humerus"],
            Role::Forearm(_) => &["lowerarm", "forearm", "lowerarm01", "elbow", "radius"],
            Role::Hand(_) => &["hand", "wrist"],
            Role::Thigh(_) => &["thigh", "upleg", "upperleg", "femur", "thigh01"],
            Role::Calf(_) => &["calf", "shin", "leg", "lowerleg", "knee", "calf01", "tibia"],
            Role::Foot(_) => &["foot", "ankle"],
            Role::Toe(_) => &["ball", "toe", "toes", "toebase", "toe01", "toes01"],
        }
    }

    /// The VRM humanoid name (VRM 1.0 spelling).
    pub fn vrm_name(self) -> &'static str {
        use Side::*;
        match self {
            Role::Pelvis => "hips",
            Role::Neck => "neck",
            Role::Head => "head",
            Role::Jaw => "jaw",
            Role::Clavicle(Left) => "leftShoulder",
            Role::Clavicle(_) => "rightShoulder",
            Role::UpperArm(Left) => "leftUpperArm",
            Role::UpperArm(_) => "rightUpperArm",
            Role::Forearm(Left) => "leftLowerArm",
            Role::Forearm(_) => "rightLowerArm",
            Role::Hand(Left) => "leftHand",
            Role::Hand(_) => "rightHand",
            Role::Thigh(Left) => "leftUpperLeg",
            Role::Thigh(_) => "rightUpperLeg",
            Role::Calf(Left) => "leftLowerLeg",
            Role::Calf(_) => "rightLowerLeg",
            Role::Foot(Left) => "leftFoot",
            Role::Foot(_) => "rightFoot",
            Role::Toe(Left) => "leftToes",
            Role::Toe(_) => "rightToes",
        }
    }
}

/// A bone name reduced for lookup: side removed, lower case, common prefixes and all
/// separators removed (`DEF-upper_arm.L` -> `upperarm`, `J_Bip_L_LowerLeg` ->
/// `lowerleg`, `spine_01` -> `spine01`).
pub fn normalized_stem(name: &str) -> (String, Side) {
    let (stem, side) = split_side(name);
    let mut s = stem.as_str();
    for pre in [
        "def-", "def_", "def.", "j_bip_", "j_bip", "bip01_", "bip01 ", "b_", "bone_",
    ] {
        if let Some(r) = s.strip_prefix(pre) {
            s = r;
            break;
        }
    }
    // VRoid centre bones: `J_Bip_C_Hips` -> `c_hips` -> `hips`.
    if let Some(r) = s.strip_prefix("c_") {
        s = r;
    }
    let out: String = s.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
    (out, side)
}

/// Roles resolved on one skeleton.
#[derive(Debug, Clone, Default)]
pub struct Rig {
    /// Role key (`upperarm.L`) -> bone index.
    pub bones: BTreeMap<String, usize>,
    /// Roles nothing claimed, each with the spellings tried, in plain words.
    pub unknown: Vec<String>,
}

impl Rig {
    /// Resolves every role on `s`. `vrm_humanoid` (VRM humanoid name -> bone name) is
    /// consulted first when given.
    pub fn resolve(s: &Skeleton, vrm_humanoid: Option<&BTreeMap<String, String>>) -> Rig {
        let stems: Vec<(String, Side)> = s.bones.iter().map(|b| normalized_stem(&b.name)).collect();
        let depths = s.depths();
        let mut rig = Rig::default();
        for role in Role::all() {
            if let Some(h) = vrm_humanoid {
                let found = h.get(role.vrm_name()).and_then(|n| s.find(n));
                if let Some(i) = found {
                    rig.bones.insert(role.key(), i);
                    continue;
                }
            }
            let vrm_stem = normalized_stem(role.vrm_name()).0;
            let mut best: Option<(bool, usize, usize)> = None; // (non-deform, depth, index)
            for (i, (stem, side)) in stems.iter().enumerate() {
                if *side != role.side() {
                    continue;
                }
                let hit = role.stems().contains(&stem.as_str()) || *stem == vrm_stem;
                if !hit {
                    continue;
                }
                let key = (!s.bones[i].deform, depths[i], i);
                if best.map_or(true, |b| key < b) {
                    best = Some(key);
                }
            }
            match best {
                Some((_, _, i)) => {
                    rig.bones.insert(role.key(), i);
                }
                None if role == Role::Pelvis => {}
                None => rig.unknown.push(format!(
                    "{}: no bone named like {} (side {})",
                    role.key(),
                    role.stems().join("/"),
                    role.side().letter()
                )),
            }
        }
        if !rig.bones.contains_key("pelvis") {
            let l = rig.get(Role::Thigh(Side::Left));
            let r = rig.get(Role::Thigh(Side::Right));
            match (l, r) {
                (Some(l), Some(r)) => {
                    let mut cur = s.bones[l].parent;
                    while let Some(c) = cur {
                        if s.is_ancestor(c, r) {
                            rig.bones.insert("pelvis".into(), c);
                            break;
                        }
                        cur = s.bones[c].parent;
                    }
                    if !rig.bones.contains_key("pelvis") {
                        rig.unknown
                            .push("pelvis: the thighs share no ancestor".to_string());
                    }
                }
                _ => rig.unknown.push(format!(
                    "pelvis: no bone named like {} and no pair of thighs",
                    Role::Pelvis.stems().join("/")
                )),
            }
        }
        rig
    }

    /// Resolves the roles of a character's skeleton (using its VRM humanoid map if any).
    /// `None` when the character has no skeleton.
    pub fn of(c: &Character) -> Option<Rig> {
        let s = c.skeleton.as_ref()?;
        Some(Rig::resolve(s, c.vrm.as_ref().map(|v| &v.humanoid)))
    }

    /// The bone of a role.
    pub fn get(&self, role: Role) -> Option<usize> {
        self.bones.get(&role.key()).copied()
    }

    /// The spine chain: bones strictly between the pelvis and the neck (or, without a
    /// neck, the head), pelvis side first. Empty when either end is unknown.
    pub fn spine(&self, s: &Skeleton) -> Vec<usize> {
        let (Some(p), Some(top)) = (
            self.get(Role::Pelvis),
            self.get(Role::Neck).or(self.get(Role::Head)),
        ) else {
            return Vec::new();
        };
        let mut chain = Vec::new();
        let mut cur = s.bones[top].parent;
        while let Some(c) = cur {
            if c == p {
                chain.reverse();
                return chain;
            }
            chain.push(c);
            cur = s.bones[c].parent;
        }
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems() {
        assert_eq!(normalized_stem("DEF-upper_arm.L").0, "upperarm");
        assert_eq!(
            normalized_stem("mixamorig:LeftForeArm"),
            ("forearm".into(), Side::Left)
        );
        assert_eq!(
            normalized_stem("J_Bip_L_LowerLeg"),
            ("lowerleg".into(), Side::Left)
        );
        assert_eq!(normalized_stem("spine_01").0, "spine01");
        assert_eq!(normalized_stem("calf_r"), ("calf".into(), Side::Right));
        assert_eq!(
            normalized_stem("leftUpperLeg"),
            ("upperleg".into(), Side::Left)
        );
    }
}
