//! Twist rules: how each twist bone follows, as data, and the evaluator that applies
//! them to a pose the way an engine with roll constraints plays it.
//!
//! A twist chain is a limb bone (`lowerarm_l`) and the twist bones that are its
//! children (`lowerarm_twist_01_l`, ...). Each twist bone gets one [`TwistRule`]:
//!
//! * **distal** (forearm, calf): the twist bone takes `weight` of its `source`'s roll
//!   (the hand, the foot) about its own Y axis; `weight` is the twist bone's place along
//!   the limb (0 at the elbow, 1 at the wrist), so the roll grows along the forearm as
//!   it does in an arm (seed P6: 1.0 / 0.66 / 0.33 / 0.1 from the wrist);
//! * **proximal** (upper arm, thigh): the twist bone follows its limb bone's swing but
//!   cancels `weight` of the limb bone's roll about its own axis, so it keeps the roll of
//!   its `source` (the clavicle, the pelvis) near the body and grows toward the elbow or
//!   knee; `weight` is 1 minus its place along the limb.
//!
//! The roll is measured as the VRM roll constraint does (`VRMC_node_constraint`): the
//! source's rotation delta from rest, expressed in the twist bone's rest frame, is split
//! into swing and twist about Y (the bone's axis) and the twist part is scaled. A
//! distal rule is written to VRM as a roll constraint (source, axis Y, weight); a
//! proximal one needs a negative weight, which VRM does not allow, so the VRM export
//! leaves proximal twist bones following their limb bone and says so.

use glam::{Quat, Vec3};
use serde::{Deserialize, Serialize};

use crate::humanoid::{is_twist, Role, Roles};
use crate::model::naming::Side;
use crate::model::Skeleton;
use crate::pose::Pose;

/// How a twist bone follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TwistKind {
    /// Takes `weight` of the source's roll (a forearm or calf twist bone, source the
    /// hand or foot).
    Distal,
    /// Cancels `weight` of its limb bone's roll, keeping the source's (an upper arm or
    /// thigh twist bone, source the clavicle or pelvis).
    Proximal,
}

/// One twist bone's follow rule, as the sidecar stores it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TwistRule {
    /// The twist bone (`lowerarm_twist_01_l`).
    pub bone: String,
    /// Its limb bone, the twist bone's parent (`lowerarm_l`).
    pub limb: String,
    /// Where its roll comes from: the hand or foot (distal), the clavicle or pelvis
    /// (proximal).
    pub source: String,
    /// Distal or proximal.
    pub kind: TwistKind,
    /// The roll axis in the twist bone's frame: always `Y`, the bone's axis.
    pub axis: String,
    /// Distal: the fraction of the source's roll taken; proximal: the fraction of the
    /// limb bone's roll cancelled. 0..1.
    pub weight: f32,
    /// The twist bone's place along its limb bone, 0 at the head, 1 at the tail.
    pub at: f32,
}

/// The rules of every twist bone of `s` that hangs under an upper arm, forearm, thigh
/// or calf (roles from `rig`), in skeleton order. Twist bones elsewhere, or whose limb
/// has no source bone, get no rule.
pub fn twist_rules(s: &Skeleton, rig: &Roles) -> Vec<TwistRule> {
    let mut out = Vec::new();
    for i in 0..s.len() {
        if !is_twist(s, rig, i) {
            continue;
        }
        let Some(limb) = s.bones[i].parent else {
            continue;
        };
        let Some((kind, source)) = limb_source(s, rig, limb) else {
            continue;
        };
        let (a, b) = (s.bones[limb].head, s.bones[limb].tail);
        let d = b - a;
        let at = ((s.bones[i].head - a).dot(d) / d.length_squared().max(1e-20)).clamp(0.0, 1.0);
        let weight = match kind {
            TwistKind::Distal => at,
            TwistKind::Proximal => 1.0 - at,
        };
        let round = |x: f32| (x * 1e4).round() / 1e4;
        out.push(TwistRule {
            bone: s.bones[i].name.clone(),
            limb: s.bones[limb].name.clone(),
            source: s.bones[source].name.clone(),
            kind,
            axis: "Y".into(),
            weight: round(weight),
            at: round(at),
        });
    }
    out
}

/// The kind of chain limb bone `limb` carries and its rule source.
fn limb_source(s: &Skeleton, rig: &Roles, limb: usize) -> Option<(TwistKind, usize)> {
    for side in [Side::Left, Side::Right] {
        let is = |r: Role| rig.get(r) == Some(limb);
        if is(Role::Forearm(side)) {
            return Some((TwistKind::Distal, rig.get(Role::Hand(side))?));
        }
        if is(Role::Calf(side)) {
            return Some((TwistKind::Distal, rig.get(Role::Foot(side))?));
        }
        if is(Role::UpperArm(side)) {
            let src = rig.get(Role::Clavicle(side)).or(s.bones[limb].parent)?;
            return Some((TwistKind::Proximal, src));
        }
        if is(Role::Thigh(side)) {
            let src = rig.get(Role::Pelvis).or(s.bones[limb].parent)?;
            return Some((TwistKind::Proximal, src));
        }
    }
    None
}

/// The roll (radians) about `dst`'s Y axis of bone `src`'s rotation delta in `pose`,
/// the delta expressed in `dst`'s rest frame (the VRM roll constraint's measure).
pub fn roll_of(s: &Skeleton, pose: &Pose, src: usize, dst: usize) -> f32 {
    let q = pose.rotations.get(src).copied().unwrap_or(Quat::IDENTITY);
    let fs = Quat::from_mat3(&s.bones[src].frame()).normalize();
    let fd = Quat::from_mat3(&s.bones[dst].frame()).normalize();
    let c = (fd.inverse() * fs).normalize();
    let q = c * q.normalize() * c.inverse();
    twist_angle(q, Vec3::Y)
}

/// The angle (radians, -pi..pi) of the twist part of `q` about unit `axis`
/// (swing-twist decomposition).
pub fn twist_angle(q: Quat, axis: Vec3) -> f32 {
    let v = Vec3::new(q.x, q.y, q.z);
    let p = axis * v.dot(axis);
    let (s, w) = if q.w < 0.0 {
        (-p.dot(axis), -q.w)
    } else {
        (p.dot(axis), q.w)
    };
    if s.abs() < 1e-12 && w.abs() < 1e-12 {
        return 0.0;
    }
    2.0 * s.atan2(w)
}

/// `pose` with every rule applied: each twist bone's own rotation is replaced by its
/// rule's roll about Y. Rules naming bones `s` lacks are skipped.
pub fn apply_twist_rules(s: &Skeleton, rules: &[TwistRule], pose: &Pose) -> Pose {
    let mut out = pose.clone();
    for r in rules {
        let (Some(t), Some(limb), Some(src)) =
            (s.find(&r.bone), s.find(&r.limb), s.find(&r.source))
        else {
            continue;
        };
        if t >= out.rotations.len() {
            continue;
        }
        let angle = match r.kind {
            TwistKind::Distal => r.weight * roll_of(s, pose, src, t),
            TwistKind::Proximal => -r.weight * roll_of(s, pose, limb, t),
        };
        out.rotations[t] = Quat::from_axis_angle(Vec3::Y, angle);
    }
    out
}

/// Every pose of `library` with `rules` applied ([`apply_twist_rules`]).
pub fn library_with_rules(
    s: &Skeleton,
    rules: &[TwistRule],
    library: Vec<crate::pose::NamedPose>,
) -> Vec<crate::pose::NamedPose> {
    if rules.is_empty() {
        return library;
    }
    library
        .into_iter()
        .map(|mut np| {
            np.pose = apply_twist_rules(s, rules, &np.pose);
            np
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twist_angle_reads_the_roll_and_ignores_the_swing() {
        let roll = Quat::from_axis_angle(Vec3::Y, 0.7);
        let swing = Quat::from_axis_angle(Vec3::X, 0.4);
        assert!((twist_angle(roll, Vec3::Y) - 0.7).abs() < 1e-5);
        assert!(twist_angle(swing, Vec3::Y).abs() < 1e-6);
        assert!((twist_angle(swing * roll, Vec3::Y) - 0.7).abs() < 1e-5);
        assert!((twist_angle(-roll, Vec3::Y) - 0.7).abs() < 1e-5);
    }
}
