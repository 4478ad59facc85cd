//! Colliders that clear the springs' rest pose.
//!
//! A garment at rest lies on the body, never inside it, so at rest no spring joint may
//! be inside a collider of its chain's groups (by its hit radius). A collider measured
//! from a body whose garment hugs it (a pencil skirt over the hips, a skirt top on the
//! buttocks) can overlap the rest joints: the solver then kicks those joints out on the
//! first step and the whole chain swings like a struck pendulum, straight into the gap
//! between the legs. A rigger shrinks such a collider until the rest pose is clear;
//! this does the same, for the cloth chains, to every MEASURED sphere and capsule
//! they collide with (authored ones are kept; hair rests on the scalp by design):
//! its radius becomes at most the smallest distance from its axis to a rest joint of
//! the chains that collide with it, less that joint's hit radius, and never less than
//! [`MIN_SHRINK`] of the measured radius.

use glam::{Mat4, Vec3};

use super::chains::is_cloth_class;
use super::colliders::{closest_on_segment, ColliderShape};
use super::sidecar::{Sidecar, SpringParams};
use crate::model::Skeleton;

/// The smallest fraction of its measured radius a collider is shrunk to.
pub const MIN_SHRINK: f32 = 0.5;

/// Shrinks the measured colliders of `sc` that overlap the rest pose of the spring
/// chains colliding with them (see the module docs). Returns one line per shrunk
/// collider (`"waist: radius 0.124 -> 0.088 m"`).
pub fn clear_rest_pose(sc: &mut Sidecar, skel: &Skeleton) -> Vec<String> {
    let h = if sc.height > 0.0 {
        sc.height
    } else {
        skel.height().max(1e-6)
    };
    // Rest tails with hit radius (metres) and the groups they collide with; a class
    // without an entry uses its defaults, as the solver does.
    let mut joints: Vec<(Vec3, f32, Vec<String>)> = Vec::new();
    for ch in sc
        .chains
        .iter()
        .filter(|c| c.springs() && is_cloth_class(&c.class))
    {
        let p = sc
            .springs
            .get(&ch.class)
            .cloned()
            .unwrap_or_else(|| SpringParams::for_class(&ch.class));
        for t in ch.world_tips(skel) {
            joints.push((t, p.hit_radius * h, p.collider_groups.clone()));
        }
    }
    let mut notes = Vec::new();
    for col in sc.colliders.iter_mut().filter(|c| c.measured && !c.inside) {
        let Some(bi) = skel.find(&col.bone) else {
            continue;
        };
        let m: Mat4 = skel.bones[bi].rest_matrix();
        let p = |a: [f32; 3]| m.transform_point3(Vec3::from_array(a));
        let (a, b, r) = match col.shape {
            ColliderShape::Sphere { offset, radius } => (p(offset), p(offset), radius),
            ColliderShape::Capsule {
                offset,
                tail,
                radius,
            } => (p(offset), p(tail), radius),
            ColliderShape::Plane { .. } => continue,
        };
        let room = joints
            .iter()
            .filter(|(_, _, g)| g.contains(&col.group))
            .map(|(t, hr, _)| (*t - closest_on_segment(*t, a, b)).length() - hr)
            .fold(f32::INFINITY, f32::min);
        if room < r {
            let nr = room.max(MIN_SHRINK * r);
            notes.push(format!("{}: radius {r:.3} -> {nr:.3} m", col.name));
            match &mut col.shape {
                ColliderShape::Sphere { radius, .. } | ColliderShape::Capsule { radius, .. } => {
                    *radius = nr
                }
                ColliderShape::Plane { .. } => {}
            }
        }
    }
    notes
}
