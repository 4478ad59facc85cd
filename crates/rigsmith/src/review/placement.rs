//! Placement checks (rubric A) measured on the rest skeleton and the body: joints
//! inside the volume, knee and elbow pre-bend direction, hinge roll.

use glam::Vec3;

use crate::geom::bvh::Bvh;
use crate::humanoid::{Role, Roles};
use crate::model::naming::Side;
use crate::model::Skeleton;
use crate::pose::ops::hinge_alignment;

/// Joint centres that must lie inside the body: `(role key, bone, head position)`.
pub fn joints_to_check(s: &Skeleton, rig: &Roles) -> Vec<(String, usize, Vec3)> {
    let mut out = Vec::new();
    let mut roles = vec![Role::Pelvis, Role::Neck, Role::Head];
    for side in [Side::Left, Side::Right] {
        roles.extend([
            Role::UpperArm(side),
            Role::Forearm(side),
            Role::Hand(side),
            Role::Thigh(side),
            Role::Calf(side),
            Role::Foot(side),
        ]);
    }
    for r in roles {
        if let Some(i) = rig.get(r) {
            out.push((r.key(), i, s.bones[i].head));
        }
    }
    for i in rig.spine_chain(s) {
        out.push((format!("spine:{}", s.bones[i].name), i, s.bones[i].head));
    }
    out
}

/// Names of the joints whose heads lie outside the body.
pub fn joints_outside(body: &Bvh, s: &Skeleton, rig: &Roles) -> (Vec<String>, usize) {
    let js = joints_to_check(s, rig);
    let out = js
        .iter()
        .filter(|(_, _, p)| !body.contains(*p))
        .map(|(k, i, _)| format!("{k} ({})", s.bones[*i].name))
        .collect();
    (out, js.len())
}

/// Signed bend at a hinge joint, degrees: the angle between the upper and the lower
/// segment, positive when the joint sits on the `forward` side of the line from the
/// upper segment's head to the lower segment's end (knee: forward = +Z; elbow:
/// forward = -Z). A straight limb gives 0, a joint bent the wrong way a negative angle.
pub fn signed_bend(upper_head: Vec3, joint: Vec3, lower_end: Vec3, forward: Vec3) -> f32 {
    let u = (joint - upper_head).normalize_or_zero();
    let l = (lower_end - joint).normalize_or_zero();
    let ang = u.dot(l).clamp(-1.0, 1.0).acos().to_degrees();
    // Offset of the joint from the straight line, along `forward`.
    let line = lower_end - upper_head;
    let t = (joint - upper_head).dot(line) / line.length_squared().max(1e-20);
    let off = joint - (upper_head + line * t);
    if off.dot(forward) < 0.0 {
        -ang
    } else {
        ang
    }
}

/// Knee or elbow pre-bend on one side: `(label, signed degrees)`, `None` when the rig
/// lacks the bones. `knee`: thigh/calf/foot, forward +Z; `elbow`: upper arm/forearm/hand,
/// forward -Z (elbows point back).
pub fn pre_bend(s: &Skeleton, rig: &Roles, knee: bool, side: Side) -> Option<f32> {
    let (a, b, c, fwd) = if knee {
        (
            Role::Thigh(side),
            Role::Calf(side),
            Role::Foot(side),
            Vec3::Z,
        )
    } else {
        (
            Role::UpperArm(side),
            Role::Forearm(side),
            Role::Hand(side),
            Vec3::NEG_Z,
        )
    };
    let (a, b) = (rig.get(a)?, rig.get(b)?);
    let end = rig.get(c).map_or(s.bones[b].tail, |c| s.bones[c].head);
    Some(signed_bend(s.bones[a].head, s.bones[b].head, end, fwd))
}

/// Hinge roll of the forearm (bends toward +Z) or calf (toward -Z): `|x . n|`, 1 when
/// the bone's x axis is the hinge axis, 0 when rolled 90 deg.
pub fn hinge_roll(s: &Skeleton, rig: &Roles, knee: bool, side: Side) -> Option<(usize, f32)> {
    let (r, toward) = if knee {
        (Role::Calf(side), Vec3::NEG_Z)
    } else {
        (Role::Forearm(side), Vec3::Z)
    };
    let i = rig.get(r)?;
    Some((i, hinge_alignment(s, i, toward)))
}
