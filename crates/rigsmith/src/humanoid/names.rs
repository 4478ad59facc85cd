//! Name maps: which bone is the left upper arm, the right knee, the head, by its name.
//!
//! Rigs name bones in many ways. [`super::Roles`] resolves each [`Role`] once, and its
//! name route reads the spellings of Unreal / MakeHuman `game_engine` (`upperarm_l`, `lowerarm_l`, `calf_l`),
//! Mixamo (`mixamorig:LeftArm`, `LeftForeArm`, `LeftUpLeg`, `LeftLeg`), Rigify
//! (`DEF-upper_arm.L`, `DEF-forearm.L`, `DEF-shin.L`), VRM humanoid names
//! (`leftUpperArm`, through the file's humanoid map or the bone names themselves),
//! VRoid (`J_Bip_L_UpperArm`) and common variants (`UpperArm.L`, `Shin_R`, `Hips`).
//!
//! Names are split into a side and a side-less stem with
//! [`crate::model::naming::split_side`], then the stem (lower case, prefixes such as
//! `def-` and `j_bip_` removed, separators removed) is looked up in [`Role::stems`].

use crate::model::naming::{split_side, tokens, Side};

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

    /// The side of the role (`Center` for pelvis, neck, head and jaw).
    pub fn side(self) -> Side {
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

/// Face and eye bone names: cosmetic, but they must never swing.
pub fn is_face_name(name: &str) -> bool {
    let t = tokens(name);
    t.iter().any(|x| {
        matches!(
            x.as_str(),
            "eye"
                | "eyes"
                | "eyelid"
                | "brow"
                | "eyebrow"
                | "jaw"
                | "mouth"
                | "lip"
                | "lips"
                | "tongue"
                | "cheek"
                | "face"
                | "teeth"
                | "nose"
        )
    })
}

/// Whether a bone name says twist: a whole `twist` or `roll` token.
pub fn is_twist_name(name: &str) -> bool {
    tokens(name).iter().any(|t| t == "twist" || t == "roll")
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
