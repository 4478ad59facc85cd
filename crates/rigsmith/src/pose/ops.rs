//! Pose operations in world terms.
//!
//! Each op reads the current posed state of the skeleton (forward kinematics of the
//! pose so far) and changes one bone's local rotation or translation so that, in the
//! world, the bone does what the op says. So "aim the upper arm at -Y" lowers the arm
//! of a T-pose and of an A-pose rig alike.
//!
//! * [`aim`]: turn a bone (shortest arc) so head -> tail points along a world direction.
//! * [`hinge`]: rotate about the bone's OWN x axis (its hinge axis), choosing the sign
//!   that moves the tail toward a world direction. The axis is the rig's: a hinge
//!   rolled 90 deg bends sideways, and [`hinge_alignment`] measures that.
//! * [`twist`]: rotate about the bone's own Y (head -> tail).
//! * [`rotate_world`]: rotate a bone about a world axis through its head.
//! * [`move_by`]: move a bone's head by a world offset in units of body height H.
//! * [`two_bone_ik`]: turn a two-bone limb so its end reaches a world point, bending
//!   toward a pole direction (the squat's planted feet).
//!
//! Angles are in degrees; positive is counter-clockwise about the axis (right hand).

use glam::{Quat, Vec3};

use super::fk::{world_matrices, Pose};
use crate::model::Skeleton;

/// Posed world rotation of bone `i` and of its parent's frame composed with the rest
/// offset (the frame the local rotation acts in).
fn frames(s: &Skeleton, p: &Pose, i: usize) -> (Quat, Quat) {
    let w = world_matrices(s, p);
    let rest = s.rest_matrices();
    let base = match s.bones[i].parent {
        Some(pi) => w[pi] * (rest[pi].inverse() * rest[i]),
        None => rest[i],
    };
    let (_, wb, _) = base.to_scale_rotation_translation();
    let (_, wi, _) = w[i].to_scale_rotation_translation();
    (wi.normalize(), wb.normalize())
}

/// Applies a world-space rotation `r` to bone `i` (about its head).
pub(crate) fn apply_world_rotation(s: &Skeleton, p: &mut Pose, i: usize, r: Quat) {
    if i >= s.len() || i >= p.rotations.len() {
        return;
    }
    let (wi, wb) = frames(s, p, i);
    // base * local' = r * base * local  =>  local' = base^-1 * r * wi
    p.rotations[i] = (wb.inverse() * r * wi).normalize();
}

/// The posed world direction of bone `i` (head -> tail, unit).
pub(crate) fn posed_y(s: &Skeleton, p: &Pose, i: usize) -> Vec3 {
    let (wi, _) = frames(s, p, i);
    wi * Vec3::Y
}

/// The posed world hinge axis of bone `i` (its local X, unit).
pub(crate) fn posed_x(s: &Skeleton, p: &Pose, i: usize) -> Vec3 {
    let (wi, _) = frames(s, p, i);
    wi * Vec3::X
}

/// Turns bone `i` by the shortest arc so that it points along the world direction `dir`.
pub fn aim(s: &Skeleton, p: &mut Pose, i: usize, dir: Vec3) {
    let Some(d) = dir.try_normalize() else { return };
    if i >= s.len() {
        return;
    }
    let y = posed_y(s, p, i);
    apply_world_rotation(s, p, i, Quat::from_rotation_arc(y, d));
}

/// Rotates bone `i` by `deg` about its own posed x axis, with the sign that moves its
/// tail toward the world direction `toward` (the expected bend direction). Returns the
/// signed angle applied, degrees.
pub fn hinge(s: &Skeleton, p: &mut Pose, i: usize, deg: f32, toward: Vec3) -> f32 {
    if i >= s.len() {
        return 0.0;
    }
    let x = posed_x(s, p, i);
    let y = posed_y(s, p, i);
    // Rotating y about x by +a moves it along x cross y.
    let sign = if x.cross(y).dot(toward) >= 0.0 {
        1.0
    } else {
        -1.0
    };
    let a = sign * deg;
    apply_world_rotation(s, p, i, Quat::from_axis_angle(x, a.to_radians()));
    a
}

/// Hinges bone `i` about its own x axis (as [`hinge`]) until the angle between its
/// parent's posed direction and its own reaches `deg` (flexion from straight), bending
/// toward `toward`. A rig modelled with a pre-bent elbow or knee ends at the same
/// flexion as a straight one. Without a parent it is [`hinge`] by `deg`.
pub fn hinge_to(s: &Skeleton, p: &mut Pose, i: usize, deg: f32, toward: Vec3) {
    let Some(parent) = s.bones.get(i).and_then(|b| b.parent) else {
        hinge(s, p, i, deg, toward);
        return;
    };
    for _ in 0..16 {
        let cur = posed_y(s, p, parent)
            .dot(posed_y(s, p, i))
            .clamp(-1.0, 1.0)
            .acos()
            .to_degrees();
        let step = deg - cur;
        if step.abs() < 0.05 {
            break;
        }
        hinge(s, p, i, step, toward);
    }
}

/// How well bone `i`'s hinge axis suits a bend toward `toward`: `|x . n|` where `n` is
/// the axis that turns the bone straight toward `toward` (1 = perfect, 0 = rolled
/// 90 deg). Measured at rest.
pub fn hinge_alignment(s: &Skeleton, i: usize, toward: Vec3) -> f32 {
    let b = &s.bones[i];
    let y = b.y_axis();
    let t = toward - y * toward.dot(y);
    let Some(n) = y.cross(t).try_normalize() else {
        return 0.0;
    };
    let x: Vec3 = b.frame().x_axis;
    x.dot(n).abs()
}

/// Rotates bone `i` by `deg` about its own posed Y axis (head -> tail).
pub fn twist(s: &Skeleton, p: &mut Pose, i: usize, deg: f32) {
    if i >= s.len() {
        return;
    }
    let y = posed_y(s, p, i);
    apply_world_rotation(s, p, i, Quat::from_axis_angle(y, deg.to_radians()));
}

/// Rotates bone `i` by `deg` about the world axis `axis` through its head.
pub fn rotate_world(s: &Skeleton, p: &mut Pose, i: usize, axis: Vec3, deg: f32) {
    let Some(a) = axis.try_normalize() else {
        return;
    };
    apply_world_rotation(s, p, i, Quat::from_axis_angle(a, deg.to_radians()));
}

/// Moves bone `i`'s head by the world offset `delta_h` given in units of body height
/// `h` (metres per H).
pub fn move_by(s: &Skeleton, p: &mut Pose, i: usize, delta_h: Vec3, h: f32) {
    if i >= s.len() || i >= p.translations.len() {
        return;
    }
    let (_, wb) = frames(s, p, i);
    // Head = base * T(t) * 0  =>  world offset d maps to t += base_rot^-1 * d.
    p.translations[i] += wb.inverse() * (delta_h * h);
}

/// The posed world position of bone `i`'s head.
pub(crate) fn posed_head(s: &Skeleton, p: &Pose, i: usize) -> Vec3 {
    let w = world_matrices(s, p);
    (w[i] * s.rest_matrices()[i].inverse()).transform_point3(s.bones[i].head)
}

/// Two-bone inverse kinematics: turns `upper` (about its head) and `lower` so that the
/// head of `end` (a bone under `lower`: the foot, the hand) reaches the world point
/// `target`, the middle joint bending toward the world direction `pole`. The segment
/// lengths (upper head to lower head, lower head to end head) are kept; a target out
/// of reach is approached along the line to it. Returns the distance left between the
/// end and the target (0 up to rounding when it is in reach).
pub fn two_bone_ik(
    s: &Skeleton,
    p: &mut Pose,
    [upper, lower, end]: [usize; 3],
    target: Vec3,
    pole: Vec3,
) -> f32 {
    if upper >= s.len() || lower >= s.len() || end >= s.len() {
        return f32::INFINITY;
    }
    let a = posed_head(s, p, upper);
    let j = posed_head(s, p, lower);
    let e = posed_head(s, p, end);
    let (l1, l2) = ((j - a).length(), (e - j).length());
    let t = target - a;
    let Some(u) = t.try_normalize() else {
        return (e - target).length();
    };
    // Slightly inside the reachable shell, so the joint keeps a direction.
    let eps = 1e-5 * (l1 + l2);
    let d = t.length().clamp((l1 - l2).abs() + eps, l1 + l2 - eps);
    if let Some(side) = (pole - u * pole.dot(u)).try_normalize() {
        let cos_a = ((l1 * l1 + d * d - l2 * l2) / (2.0 * l1 * d)).clamp(-1.0, 1.0);
        let joint = a + u * (l1 * cos_a) + side * (l1 * (1.0 - cos_a * cos_a).sqrt());
        if let (Some(from), Some(to)) = ((j - a).try_normalize(), (joint - a).try_normalize()) {
            apply_world_rotation(s, p, upper, Quat::from_rotation_arc(from, to));
        }
    }
    let j = posed_head(s, p, lower);
    let e = posed_head(s, p, end);
    if let (Some(from), Some(to)) = ((e - j).try_normalize(), (a + u * d - j).try_normalize()) {
        apply_world_rotation(s, p, lower, Quat::from_rotation_arc(from, to));
    }
    (posed_head(s, p, end) - target).length()
}
