//! Which bone is what: the one answer every stage uses.
//!
//! A humanoid skeleton arrives with names from any tool (Unreal / MakeHuman
//! `game_engine`, Mixamo, Rigify, VRM, VRoid, Quaternius-style `Arm.L`) or with names
//! that say nothing. This module reads it once and answers for fit, bind, pose,
//! review, parts and io:
//!
//! * [`names`]: the name maps. A bone name reduced to a side and a stem
//!   ([`normalized_stem`]) and the stems of each [`Role`]; face and eye names.
//! * [`joints`]: rigsmith's reference joint set (the `game_engine` layout) and the name
//!   each [`Template`] gives each bone (`upperarm_l`, `mixamorig:LeftArm`,
//!   `leftUpperArm`), with its [`BoneKind`].
//! * [`structure`]: for names that match nothing, the hips, spine, head, limbs and
//!   fingers from the hierarchy and the joints' positions.
//! * [`map_humanoid`]: the VRM humanoid map of any skeleton, template names first,
//!   then structure.
//! * [`vrm`]: the VRM 1.0 humanoid bone table (each bone's VRM parent, the required
//!   bones) and the checks a map must pass to be written.
//! * [`Roles`]: the roles every stage asks for (hips, spine, chest, neck, head, each
//!   limb's bones, which bones belong to which limb), resolved from the character's
//!   VRM map, else the skeleton's humanoid map, else names, else the hierarchy.
//! * [`twist`]: which bones are twist (roll) bones.
//!
//! ```
//! use rigsmith::humanoid::{map_humanoid, Role, Roles};
//! use rigsmith::mannequin::{self, MannequinOptions};
//! use rigsmith::fit::{fit, FitOptions};
//! let c = mannequin::build(&MannequinOptions::default());
//! let s = fit(&c, &FitOptions::default()).unwrap().skeleton;
//! let roles = Roles::of(&s, None);
//! let thigh = roles.get(Role::Thigh(rigsmith::Side::Left)).unwrap();
//! assert_eq!(s.bones[thigh].name, "thigh_l");
//! assert_eq!(map_humanoid(&s).bones["leftUpperLeg"], "thigh_l");
//! ```
//!
//! Everything here depends only on [`crate::model`]: the stages above read it, it
//! reads none of them.

pub mod joints;
mod map;
pub mod names;
mod roles;
pub mod structure;
pub mod twist;
pub mod vrm;

pub use joints::{
    bone_name, kind_of, template_map, to_right, twist_name, BoneKind, Joint, Template, CENTRE, LEFT,
};
pub use map::{map_humanoid, HumanoidMap, MappedBy};
pub use names::{is_face_name, is_twist_name, normalized_stem, Role};
pub use roles::{Limb, Roles};
pub use structure::{structure_map, StructureMap};
pub use twist::{character_twist_bones, is_twist, twist_bones};
pub use vrm::{
    hierarchy_problems, missing_required, require_complete, sides_agree, vrm_parent,
    REQUIRED_BONES, VRM_PARENTS,
};
