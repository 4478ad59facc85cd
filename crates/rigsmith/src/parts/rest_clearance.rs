//! Colliders and hit radii that let the springs' rest pose stand, as a VRM runtime
//! will run them.
//!
//! A garment at rest lies on the body, never inside it, so at rest no spring joint may
//! be held by a collider of its chain's groups. A VRM runtime keeps every joint's tail
//! outside each collider by that joint's hit radius: a joint resting closer is kicked
//! out on the first step and its whole chain swings like a struck pendulum (into the
//! gap between the legs, for a skirt). A rigger fixes this in two moves, and so does
//! this module:
//!
//! 1. **Shrink colliders that hold a joint.** A collider measured from a body whose
//!    garment hugs it (a pencil skirt over the hips, a skirt top on the buttocks, twin
//!    tails lying on a broad neck capsule) can contain rest joints. Each MEASURED sphere
//!    and capsule the spring chains collide with gets a radius of at most the smallest
//!    distance from its axis to such a joint, less [`REST_MARGIN`], never less than
//!    [`MIN_SHRINK`] of the measured radius. Authored colliders are kept.
//! 2. **Give joints resting close a smaller hit radius.** Each spring joint's hit radius
//!    becomes at most its rest distance from the nearest collider of its groups (never
//!    negative): stored per bone in [`super::Chain::hit_radii`] and written per joint
//!    to the VRM. The colliders then keep (almost) their measured size, which is what
//!    keeps the skirt out of the legs in motion.

use glam::{Mat4, Vec3};

use super::colliders::ColliderShape;
use super::sidecar::{Sidecar, SpringParams};
use crate::geom::segment::closest_on_segment;
use crate::model::Skeleton;

/// The smallest fraction of its measured radius a collider is shrunk to.
pub const MIN_SHRINK: f32 = 0.5;

/// How far (units of H) a shrunk collider stays inside the nearest spring joint at rest.
pub const REST_MARGIN: f32 = 0.002;

/// A rest-pose spring joint: its chain and bone, tail (world, metres), class hit radius
/// (metres) and collider groups.
struct RestJoint {
    chain: usize,
    bone: usize,
    tail: Vec3,
    hit: f32,
    groups: Vec<String>,
}

/// A collider at rest for the hit radii: its group, its axis and radius (spheres and
/// capsules) or its point and normal (planes), world, metres.
type RestShape = (String, Option<(Vec3, Vec3, f32)>, Option<(Vec3, Vec3)>);

/// A collider's axis (`a`, `b`, equal for a sphere) and radius at rest, metres; `None`
/// for planes.
fn axis(skel: &Skeleton, bone: &str, shape: &ColliderShape) -> Option<(Vec3, Vec3, f32)> {
    let m: Mat4 = skel.bones[skel.find(bone)?].rest_matrix();
    let p = |a: [f32; 3]| m.transform_point3(Vec3::from_array(a));
    match *shape {
        ColliderShape::Sphere { offset, radius } => Some((p(offset), p(offset), radius)),
        ColliderShape::Capsule {
            offset,
            tail,
            radius,
        } => Some((p(offset), p(tail), radius)),
        ColliderShape::Plane { .. } => None,
    }
}

/// Shrinks the measured colliders of `sc` that hold a spring joint at rest and sets the
/// spring joints' hit radii to their rest clearance (see the module docs). Returns one
/// line per change (`"waist: radius 0.124 -> 0.088 m"`, `"hit radii: 40 of 187 joints
/// below their class's, down to 0.000 H"`).
pub fn clear_rest_pose(sc: &mut Sidecar, skel: &Skeleton) -> Vec<String> {
    let h = if sc.height > 0.0 {
        sc.height
    } else {
        skel.height().max(1e-6)
    };
    // Rest tails with class hit radius and the groups they collide with; a class
    // without an entry uses its defaults, as the solver does.
    let mut joints: Vec<RestJoint> = Vec::new();
    for (ci, ch) in sc.chains.iter().enumerate().filter(|(_, c)| c.springs()) {
        let p = sc
            .springs
            .get(&ch.class)
            .cloned()
            .unwrap_or_else(|| SpringParams::for_class(&ch.class));
        for (k, t) in ch.world_tips(skel).into_iter().enumerate() {
            joints.push(RestJoint {
                chain: ci,
                bone: k,
                tail: t,
                hit: p.hit_radius * h,
                groups: p.collider_groups.clone(),
            });
        }
    }
    let mut notes = Vec::new();
    for col in sc.colliders.iter_mut().filter(|c| c.measured && !c.inside) {
        let Some((a, b, r)) = axis(skel, &col.bone, &col.shape) else {
            continue;
        };
        let room = joints
            .iter()
            .filter(|j| j.groups.contains(&col.group))
            .map(|j| (j.tail - closest_on_segment(j.tail, a, b)).length() - REST_MARGIN * h)
            .fold(f32::INFINITY, f32::min);
        if room < r - 1e-6 {
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
    // Hit radii: each joint's rest clearance from the (shrunk) colliders of its groups.
    let shapes: Vec<RestShape> = sc
        .colliders
        .iter()
        .filter(|c| !c.inside)
        .map(|c| {
            let plane = match c.shape {
                ColliderShape::Plane { offset, normal } => skel.find(&c.bone).map(|i| {
                    let m = skel.bones[i].rest_matrix();
                    (
                        m.transform_point3(Vec3::from_array(offset)),
                        m.transform_vector3(Vec3::from_array(normal))
                            .normalize_or_zero(),
                    )
                }),
                _ => None,
            };
            (c.group.clone(), axis(skel, &c.bone, &c.shape), plane)
        })
        .collect();
    let mut radii: Vec<Vec<f32>> = sc
        .chains
        .iter()
        .map(|c| vec![f32::INFINITY; c.bones.len()])
        .collect();
    let (mut smaller, mut lowest) = (0usize, f32::INFINITY);
    for j in &joints {
        let clearance = shapes
            .iter()
            .filter(|(g, _, _)| j.groups.contains(g))
            .filter_map(|(_, ax, pl)| match (ax, pl) {
                (Some((a, b, r)), _) => {
                    Some((j.tail - closest_on_segment(j.tail, *a, *b)).length() - r)
                }
                (None, Some((o, n))) => Some((j.tail - *o).dot(*n)),
                _ => None,
            })
            .fold(f32::INFINITY, f32::min);
        let hr = j.hit.min(clearance.max(0.0));
        if hr < j.hit - 1e-6 {
            smaller += 1;
            lowest = lowest.min(hr / h);
        }
        radii[j.chain][j.bone] = hr / h;
    }
    for (ch, r) in sc.chains.iter_mut().zip(radii) {
        if !ch.springs() {
            continue;
        }
        let p = sc
            .springs
            .get(&ch.class)
            .cloned()
            .unwrap_or_else(|| SpringParams::for_class(&ch.class));
        let r: Vec<f32> = r
            .into_iter()
            .map(|x| if x.is_finite() { x } else { p.hit_radius })
            .collect();
        let new = if r.iter().all(|x| (x - p.hit_radius).abs() < 1e-7) {
            Vec::new()
        } else {
            r
        };
        if new != ch.hit_radii {
            ch.hit_radii = new;
            if smaller > 0 && !notes.iter().any(|n: &String| n.starts_with("hit radii")) {
                notes.push(format!(
                    "hit radii: {smaller} of {} joints below their class's, down to {lowest:.3} H",
                    joints.len()
                ));
            }
        }
    }
    notes
}
