//! Twist (roll) bones: one definition, used by `inspect`, the sidecar and the VRM
//! export's roll constraints.
//!
//! A bone is a twist bone when
//! * its name has a whole `twist` or `roll` token (`upperarm_twist_01_l`,
//!   `DEF-forearm_roll.L`, `LeftArmRoll`), or
//! * it is on a limb ([`Roles::limb`]) and is named like its parent plus a numeric
//!   segment: Blender's numbered copy (`DEF-thigh.L.001` under `DEF-thigh.L`).
//!
//! A numbered copy off the limbs is not a twist bone: a subdivided skirt panel
//! (`skirt_03.001` under `skirt_03`) or hair strand is a cosmetic chain.

use super::names::is_twist_name;
use super::roles::Roles;
use crate::model::{Character, Skeleton};

/// Whether bone `i` of `skel` is a twist bone (see the module docs).
pub fn is_twist(skel: &Skeleton, roles: &Roles, i: usize) -> bool {
    let b = &skel.bones[i];
    if is_twist_name(&b.name) {
        return true;
    }
    let Some(p) = b.parent else { return false };
    let pn = skel.bones[p].name.as_str();
    (roles.is_leg(i) || roles.is_arm(i))
        && b.name.len() > pn.len() + 1
        && b.name.starts_with(pn)
        && b.name[pn.len() + 1..].chars().all(|c| c.is_ascii_digit())
}

/// The twist bones of `skel`, in skeleton order.
pub fn twist_bones(skel: &Skeleton, roles: &Roles) -> Vec<usize> {
    (0..skel.len())
        .filter(|&i| is_twist(skel, roles, i))
        .collect()
}

/// The names of a character's twist bones, its roles read through its own VRM
/// humanoid map when it has one: the list `inspect` reports and the sidecar keeps.
pub fn character_twist_bones(c: &Character) -> Vec<String> {
    let Some(skel) = c.skeleton.as_ref() else {
        return Vec::new();
    };
    let roles = Roles::of(skel, c.vrm.as_ref().map(|v| &v.humanoid));
    twist_bones(skel, &roles)
        .into_iter()
        .map(|i| skel.bones[i].name.clone())
        .collect()
}
