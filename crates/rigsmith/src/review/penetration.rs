//! Garment penetration: garment vertices that end up inside the body in a pose.
//!
//! The body's triangles go into a [`Bvh`]; a garment vertex is inside when a majority
//! of three ray parities say so ([`Bvh::contains`]). A garment modelled tight can
//! already touch the body at rest, so the count is of vertices inside in the pose but
//! outside at rest, as a share of the garment's vertices.

use glam::Vec3;

use crate::geom::bvh::Bvh;

/// Flag threshold: share of a garment's vertices newly inside the body, percent.
pub const PENETRATION_MAX_PCT: f32 = 1.0;

/// Which of `points` are inside the body surface `bvh`.
pub fn inside_flags(bvh: &Bvh, points: &[Vec3]) -> Vec<bool> {
    points.iter().map(|p| bvh.contains(*p)).collect()
}

/// Share (percent) of garment vertices inside the posed body that were outside the
/// rest body (`rest_inside` from [`inside_flags`] at rest).
pub fn new_inside_pct(posed_body: &Bvh, posed_garment: &[Vec3], rest_inside: &[bool]) -> f32 {
    if posed_garment.is_empty() {
        return 0.0;
    }
    let n = new_inside(posed_body, posed_garment, rest_inside).len();
    100.0 * n as f32 / posed_garment.len() as f32
}

/// The garment vertices [`new_inside_pct`] counts: inside the posed body, outside at
/// rest.
pub(crate) fn new_inside(
    posed_body: &Bvh,
    posed_garment: &[Vec3],
    rest_inside: &[bool],
) -> Vec<usize> {
    posed_garment
        .iter()
        .zip(rest_inside)
        .enumerate()
        .filter(|(_, (p, &was))| !was && posed_body.contains(**p))
        .map(|(i, _)| i)
        .collect()
}
