//! The reference joint set and its names under every naming scheme rigsmith writes.
//!
//! The joint set is the MakeHuman `game_engine` rig's (the Unreal-mannequin layout):
//! `Root`, `pelvis`, `spine_01..03`, `neck_01`, `head`, and per side `clavicle`,
//! `upperarm`, `lowerarm`, `hand`, fifteen finger bones (`thumb_01..03`, `index_01..03`,
//! `middle`, `ring`, `pinky`), `thigh`, `calf`, `foot`, `ball`. Each [`Template`]
//! renames it:
//!
//! | template | names | fingers | root |
//! |---|---|---|---|
//! | `game` | `pelvis`, `upperarm_l`, `index_02_r` (exactly as `game_engine`) | yes | `Root` |
//! | `basic` | as `game` | no | `Root` |
//! | `mixamo` | `mixamorig:Hips`, `mixamorig:LeftForeArm`, ... | yes | `Hips` is the root |
//! | `vrm` | VRM 1.0 humanoid names: `hips`, `leftUpperArm`, ... | yes | `hips` is the root |
//!
//! Optional twist bones (`upperarm_twist_01_l` ...) are added by the fitter.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::error::{Error, Result};

/// A naming scheme for the fitted skeleton.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Template {
    /// Unreal-mannequin names exactly as MakeHuman's `game_engine` rig, with fingers.
    #[default]
    Game,
    /// As `Game` without fingers.
    Basic,
    /// Mixamo names (`mixamorig:` prefix), no `Root`.
    Mixamo,
    /// VRM 1.0 humanoid bone names, no `Root`.
    Vrm,
}

impl Template {
    /// Parses `game`, `basic`, `mixamo` or `vrm`.
    pub fn parse(s: &str) -> Result<Template> {
        match s.to_ascii_lowercase().as_str() {
            "game" => Ok(Template::Game),
            "basic" => Ok(Template::Basic),
            "mixamo" => Ok(Template::Mixamo),
            "vrm" => Ok(Template::Vrm),
            _ => Err(Error::invalid(
                "template",
                format!("{s:?} is not one of game, basic, mixamo, vrm"),
            )),
        }
    }

    /// Whether the template has finger bones.
    pub fn has_fingers(self) -> bool {
        self != Template::Basic
    }

    /// Whether the template has a `Root` bone at the floor.
    pub fn has_root(self) -> bool {
        matches!(self, Template::Game | Template::Basic)
    }
}

/// What a bone of the joint set does, for fitting rules (hinges, pre-bends) and checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum BoneKind {
    /// The root at the floor.
    Root,
    /// Pelvis, spine, neck, head.
    Spine,
    /// Clavicle.
    Clavicle,
    /// Upper arm (bends at its tail, the elbow).
    UpperArm,
    /// Forearm.
    LowerArm,
    /// Hand.
    Hand,
    /// A finger or thumb bone.
    Finger,
    /// Thigh (bends at its tail, the knee).
    Thigh,
    /// Shin.
    Calf,
    /// Foot.
    Foot,
    /// Toes.
    Toe,
}

/// One bone of the joint set, in `game` names, on the centre or the left side.
#[derive(Debug, Clone, Copy)]
pub struct Joint {
    /// `game` name (left side for paired bones).
    pub game: &'static str,
    /// Parent's `game` name (`""` for the root).
    pub parent: &'static str,
    /// Landmark at the head (side suffix added for paired bones).
    pub head: &'static str,
    /// Landmark at the tail.
    pub tail: &'static str,
    /// VRM 1.0 humanoid name (left side), `""` when none.
    pub vrm: &'static str,
    /// Mixamo name without prefix (left side).
    pub mixamo: &'static str,
    /// What the bone does.
    pub kind: BoneKind,
}

const fn r(
    game: &'static str,
    parent: &'static str,
    head: &'static str,
    tail: &'static str,
    vrm: &'static str,
    mixamo: &'static str,
    kind: BoneKind,
) -> Joint {
    Joint {
        game,
        parent,
        head,
        tail,
        vrm,
        mixamo,
        kind,
    }
}

/// Centre bones, parents first.
pub const CENTRE: &[Joint] = &[
    r("Root", "", "root", "root_front", "", "", BoneKind::Root),
    r(
        "pelvis",
        "Root",
        "pelvis",
        "spine_01",
        "hips",
        "Hips",
        BoneKind::Spine,
    ),
    r(
        "spine_01",
        "pelvis",
        "spine_01",
        "spine_02",
        "spine",
        "Spine",
        BoneKind::Spine,
    ),
    r(
        "spine_02",
        "spine_01",
        "spine_02",
        "spine_03",
        "chest",
        "Spine1",
        BoneKind::Spine,
    ),
    r(
        "spine_03",
        "spine_02",
        "spine_03",
        "neck",
        "upperChest",
        "Spine2",
        BoneKind::Spine,
    ),
    r(
        "neck_01",
        "spine_03",
        "neck",
        "head",
        "neck",
        "Neck",
        BoneKind::Spine,
    ),
    r(
        "head",
        "neck_01",
        "head",
        "head_top",
        "head",
        "Head",
        BoneKind::Spine,
    ),
];

/// Left bones, parents first (the right side mirrors them).
pub const LEFT: &[Joint] = &[
    r(
        "clavicle_l",
        "spine_03",
        "clavicle",
        "shoulder",
        "leftShoulder",
        "LeftShoulder",
        BoneKind::Clavicle,
    ),
    r(
        "upperarm_l",
        "clavicle_l",
        "shoulder",
        "elbow",
        "leftUpperArm",
        "LeftArm",
        BoneKind::UpperArm,
    ),
    r(
        "lowerarm_l",
        "upperarm_l",
        "elbow",
        "wrist",
        "leftLowerArm",
        "LeftForeArm",
        BoneKind::LowerArm,
    ),
    r(
        "hand_l",
        "lowerarm_l",
        "wrist",
        "knuckle",
        "leftHand",
        "LeftHand",
        BoneKind::Hand,
    ),
    r(
        "thumb_01_l",
        "hand_l",
        "thumb_01",
        "thumb_02",
        "leftThumbMetacarpal",
        "LeftHandThumb1",
        BoneKind::Finger,
    ),
    r(
        "thumb_02_l",
        "thumb_01_l",
        "thumb_02",
        "thumb_03",
        "leftThumbProximal",
        "LeftHandThumb2",
        BoneKind::Finger,
    ),
    r(
        "thumb_03_l",
        "thumb_02_l",
        "thumb_03",
        "thumb_04",
        "leftThumbDistal",
        "LeftHandThumb3",
        BoneKind::Finger,
    ),
    r(
        "index_01_l",
        "hand_l",
        "index_01",
        "index_02",
        "leftIndexProximal",
        "LeftHandIndex1",
        BoneKind::Finger,
    ),
    r(
        "index_02_l",
        "index_01_l",
        "index_02",
        "index_03",
        "leftIndexIntermediate",
        "LeftHandIndex2",
        BoneKind::Finger,
    ),
    r(
        "index_03_l",
        "index_02_l",
        "index_03",
        "index_04",
        "leftIndexDistal",
        "LeftHandIndex3",
        BoneKind::Finger,
    ),
    r(
        "middle_01_l",
        "hand_l",
        "middle_01",
        "middle_02",
        "leftMiddleProximal",
        "LeftHandMiddle1",
        BoneKind::Finger,
    ),
    r(
        "middle_02_l",
        "middle_01_l",
        "middle_02",
        "middle_03",
        "leftMiddleIntermediate",
        "LeftHandMiddle2",
        BoneKind::Finger,
    ),
    r(
        "middle_03_l",
        "middle_02_l",
        "middle_03",
        "middle_04",
        "leftMiddleDistal",
        "LeftHandMiddle3",
        BoneKind::Finger,
    ),
    r(
        "ring_01_l",
        "hand_l",
        "ring_01",
        "ring_02",
        "leftRingProximal",
        "LeftHandRing1",
        BoneKind::Finger,
    ),
    r(
        "ring_02_l",
        "ring_01_l",
        "ring_02",
        "ring_03",
        "leftRingIntermediate",
        "LeftHandRing2",
        BoneKind::Finger,
    ),
    r(
        "ring_03_l",
        "ring_02_l",
        "ring_03",
        "ring_04",
        "leftRingDistal",
        "LeftHandRing3",
        BoneKind::Finger,
    ),
    r(
        "pinky_01_l",
        "hand_l",
        "pinky_01",
        "pinky_02",
        "leftLittleProximal",
        "LeftHandPinky1",
        BoneKind::Finger,
    ),
    r(
        "pinky_02_l",
        "pinky_01_l",
        "pinky_02",
        "pinky_03",
        "leftLittleIntermediate",
        "LeftHandPinky2",
        BoneKind::Finger,
    ),
    r(
        "pinky_03_l",
        "pinky_02_l",
        "pinky_03",
        "pinky_04",
        "leftLittleDistal",
        "LeftHandPinky3",
        BoneKind::Finger,
    ),
    r(
        "thigh_l",
        "pelvis",
        "hip",
        "knee",
        "leftUpperLeg",
        "LeftUpLeg",
        BoneKind::Thigh,
    ),
    r(
        "calf_l",
        "thigh_l",
        "knee",
        "ankle",
        "leftLowerLeg",
        "LeftLeg",
        BoneKind::Calf,
    ),
    r(
        "foot_l",
        "calf_l",
        "ankle",
        "ball",
        "leftFoot",
        "LeftFoot",
        BoneKind::Foot,
    ),
    r(
        "ball_l",
        "foot_l",
        "ball",
        "toe",
        "leftToes",
        "LeftToeBase",
        BoneKind::Toe,
    ),
];

/// The right-side spelling of a left `game`/VRM/Mixamo name.
pub fn to_right(name: &str) -> String {
    if let Some(s) = name.strip_suffix("_l") {
        format!("{s}_r")
    } else if let Some(s) = name.strip_prefix("left") {
        format!("right{s}")
    } else if let Some(s) = name.strip_prefix("Left") {
        format!("Right{s}")
    } else {
        name.to_string()
    }
}

/// The name a template gives a bone of the joint set (`game` name in, either side),
/// `None` when the template leaves it out.
pub fn bone_name(t: Template, game: &str) -> Option<String> {
    let right = game.ends_with("_r");
    let left_name = if right {
        format!("{}_l", &game[..game.len() - 2])
    } else {
        game.to_string()
    };
    let row = CENTRE.iter().chain(LEFT).find(|r| r.game == left_name)?;
    let side = |s: &str| if right { to_right(s) } else { s.to_string() };
    match t {
        Template::Game => Some(game.to_string()),
        Template::Basic => (row.kind != BoneKind::Finger).then(|| game.to_string()),
        Template::Mixamo => {
            (row.kind != BoneKind::Root).then(|| format!("mixamorig:{}", side(row.mixamo)))
        }
        Template::Vrm => (row.kind != BoneKind::Root).then(|| side(row.vrm)),
    }
}

/// The kind of a joint-set bone by its `game` name (either side).
pub fn kind_of(game: &str) -> Option<BoneKind> {
    let left_name = match game.strip_suffix("_r") {
        Some(s) => format!("{s}_l"),
        None => game.to_string(),
    };
    CENTRE
        .iter()
        .chain(LEFT)
        .find(|r| r.game == left_name)
        .map(|r| r.kind)
}

/// VRM 1.0 humanoid bone -> the template's bone name, for every bone the template has.
pub fn template_map(t: Template) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for row in CENTRE {
        if row.vrm.is_empty() {
            continue;
        }
        if let Some(n) = bone_name(t, row.game) {
            out.insert(row.vrm.to_string(), n);
        }
    }
    for row in LEFT {
        for right in [false, true] {
            let g = if right {
                to_right(row.game)
            } else {
                row.game.to_string()
            };
            if let Some(n) = bone_name(t, &g) {
                let v = if right {
                    to_right(row.vrm)
                } else {
                    row.vrm.to_string()
                };
                out.insert(v, n);
            }
        }
    }
    out
}

/// The name of twist bone `k` (1-based) of a `game` limb bone (`upperarm_l`,
/// `lowerarm_r`, `thigh_l`, `calf_r`) in a template.
pub fn twist_name(t: Template, game: &str, k: usize) -> String {
    let (stem, side) = game.split_at(game.len() - 2);
    match t {
        Template::Game | Template::Basic => format!("{stem}_twist_{k:02}{side}"),
        Template::Mixamo => {
            let base = bone_name(t, game).unwrap_or_default();
            format!("{base}Twist{k:02}")
        }
        Template::Vrm => {
            let base = bone_name(t, game).unwrap_or_default();
            format!("{base}Twist{k:02}")
        }
    }
}
