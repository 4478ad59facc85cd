//! Closing a procedural blink over an eye that stands out of its skin.
//!
//! A modelled face has lids: skin around an opening, the eyeball behind it, so turning
//! each lid about the eye centre ([`super::expressions::blink_rotations`]) closes the
//! eye. A sculpt or a toy (the mannequin) often has none: the eyeball stands half out
//! of a head whose skin passes straight through it. The ring of skin where the head
//! meets the eyeball turns down, but the skin inside the eyeball stays inside it and
//! the eyeball's front is never covered (42 % of it on the mannequin).
//!
//! Such an eye **stands out** when its eye part is a ball ([`round_eye_part`]: a flat
//! or boxy painted eye is not) and at least [`INSIDE_MIN`] skin vertices lie inside
//! it in front of its centre at rest (a socketed eye has none). For it, the
//! blink closes the skin over the eyeball as a lid does: after the lid bones' turn,
//! each skin vertex near the eye that ends closer to the centre than the lid's radius
//! `R` = (1 + [`CLEARANCE`]) eyeball radii, in front of the centre's depth less half a
//! radius, is pushed out along its direction from the centre onto the sphere of radius
//! `R` (`|q|` becomes `max(|q|, R)`: continuous, so the closed lid meets the head
//! without a step), and a lid vertex outside it comes down toward it by its weight on
//! the eye's lid bones (the closed margin lies on the lid's sphere, not in the air
//! where the coarse ring of skin stood). The skin
//! that stood inside the eyeball becomes the closed lid's dome; nothing is pushed on
//! an eye that does not stand out.

use glam::Vec3;

use super::fit::Eye;

/// Skin vertices inside the eyeball, in front of its centre, that make an eye stand
/// out of its skin.
pub const INSIDE_MIN: usize = 3;
/// The closed lid's clearance over the eyeball, in eyeball radii.
pub const CLEARANCE: f32 = 0.08;
/// Share of an eye part's vertices near eye `e` (within 2 radii of its centre) that lie
/// within [`ROUND_TOL`] of its radius, at or above which the eye part is a ball.
pub const ROUND_MIN: f32 = 0.8;
/// Relative tolerance on the radius for [`round_eye_part`].
pub const ROUND_TOL: f32 = 0.15;

/// Whether the character's eye parts ([`super::fit::is_eye_part`]) hold a
/// ball at eye `e`: a flat or boxy painted eye is no eyeball the skin can close over,
/// and an eye with no eye part (a socket) has none standing out.
pub fn round_eye_part(c: &crate::model::Character, e: &Eye) -> bool {
    let (mut near, mut round) = (0usize, 0usize);
    for p in c.parts.iter().filter(|p| super::fit::is_eye_part(p)) {
        for q in &p.mesh.positions {
            let d = (*q - e.centre).length();
            if d < 2.0 * e.radius {
                near += 1;
                if (d - e.radius).abs() <= ROUND_TOL * e.radius {
                    round += 1;
                }
            }
        }
    }
    near >= 8 && round as f32 >= ROUND_MIN * near as f32
}

/// Skin vertices (rest positions) inside eyeball `e`, in front of its centre.
pub fn inside_count(positions: &[Vec3], e: &Eye) -> usize {
    positions
        .iter()
        .filter(|p| {
            let q = **p - e.centre;
            q.z > 0.0 && q.length() < 0.98 * e.radius
        })
        .count()
}

/// Relax passes over the closed lid's neighbourhood (within [`REACH`] eyeball radii).
pub const PASSES: usize = 12;
/// The neighbourhood relaxed, in eyeball radii from the centre.
pub const REACH: f32 = 2.2;

/// Pushes the blinked skin `rest + deltas` of one skin part out over eye `e` (see the
/// module docs), changing `deltas`; `nb` holds each vertex's neighbours over the
/// part's edges and `lid[v]` vertex `v`'s weight on this eye's lid bones. Only the
/// vertices within [`REACH`] radii of the eye are read or moved.
pub fn close_over(rest: &[Vec3], nb: &[Vec<u32>], deltas: &mut [Vec3], lid: &[f32], e: &Eye) {
    let near: Vec<usize> = (0..rest.len())
        .filter(|&v| {
            let q = rest[v] - e.centre;
            q.length() < REACH * e.radius && q.z > -e.radius
        })
        .collect();
    // Relaxed where the lid bones hold little (the turn's falloff, stretched over a
    // coarse skin); the lid itself keeps its turn, so the margins meet where it put
    // them.
    let mut next = vec![Vec3::ZERO; near.len()];
    for _ in 0..PASSES {
        push_onto_lid(rest, &near, deltas, lid, e);
        for (k, &v) in near.iter().enumerate() {
            let n = &nb[v];
            next[k] = if n.is_empty() {
                deltas[v]
            } else {
                let mean = n.iter().map(|&u| deltas[u as usize]).sum::<Vec3>() / n.len() as f32;
                let free = 1.0 - lid[v].clamp(0.0, 1.0).powi(2);
                deltas[v] + 0.5 * free * (mean - deltas[v])
            };
        }
        for (k, &v) in near.iter().enumerate() {
            deltas[v] = next[k];
        }
    }
    push_onto_lid(rest, &near, deltas, lid, e);
}

/// One push of the blinked skin onto the lid's front (see the module docs).
fn push_onto_lid(rest: &[Vec3], near: &[usize], deltas: &mut [Vec3], lid: &[f32], e: &Eye) {
    let big_r = (1.0 + CLEARANCE) * e.radius;
    for &v in near {
        let (d, w) = (&mut deltas[v], lid[v]);
        let q = rest[v] + *d - e.centre;
        let rho = q.x.hypot(q.y);
        if rho >= big_r || q.z < -big_r {
            continue;
        }
        // The lid's front over this point, seen along the eye's axis (+Z).
        let front = (big_r * big_r - rho * rho).sqrt();
        // Behind it: onto it. In front: a lid vertex comes back onto it by its lid
        // weight (the margin lies on the lid, as on a modelled eye).
        let z = if q.z < front {
            front
        } else {
            q.z - w.clamp(0.0, 1.0) * (q.z - front)
        };
        d.z += z - q.z;
    }
}
