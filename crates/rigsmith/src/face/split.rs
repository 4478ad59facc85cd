//! Left/right split of a symmetric shape key with a smooth seam.
//!
//! A key `S` (per-vertex offsets) is split into `L = m * S` and `R = S - L`, where the
//! mask `m` is a smoothstep of the vertex's rest `x` across the centre plane: 0 at
//! `cx - w` and 1 at `cx + w`, `w` = [`SEAM_HALF_WIDTH`] H. So `L + R == S` for every
//! vertex (to f32 rounding: `R` is computed as `S - L`), each side fires only on its
//! side beyond the seam, and the seam is smooth.
//!
//! **Seam smoothness** is the largest second difference of the split weight at the
//! mesh's own resolution: with `e` the median length of the mesh's edges inside the
//! seam band (`|x - cx| < w`), the largest `|m(x + e) - 2 m(x) + m(x - e)|` over `x`
//! across the band. The smoothstep gives `1.5 (e / w)^2` at most; a hard split (a
//! step at `cx`) gives 1. The threshold is [`SEAM_MAX_SECOND_DIFFERENCE`]: it passes
//! while the seam is at least about 2.5 edges wide on each side.

use glam::Vec3;

use crate::model::Mesh;

/// Half width of the seam, in units of H.
pub const SEAM_HALF_WIDTH: f32 = 0.01;
/// The largest second difference of the split mask that passes (see the module docs).
pub const SEAM_MAX_SECOND_DIFFERENCE: f32 = 0.25;
/// The seam spans at least this many of the mesh's edges each side of the centre
/// ([`seam_half_width`]): a coarse mesh (the mannequin's head, edges 0.8% H) gets a
/// wider seam, so its second difference stays under the threshold.
pub const SEAM_MIN_EDGES: f32 = 3.0;

/// The seam's half width on `mesh`, metres: [`SEAM_HALF_WIDTH`] H, or
/// [`SEAM_MIN_EDGES`] of its edges in the seam band when that is wider.
pub fn seam_half_width(mesh: &Mesh, cx: f32, h: f32) -> f32 {
    let e = seam_edge_length(mesh, cx, h).unwrap_or(0.0);
    (SEAM_HALF_WIDTH * h).max(SEAM_MIN_EDGES * e)
}

/// The split weight at `x` for a seam of half width `w` metres about `cx`.
pub fn mask_of_width(x: f32, cx: f32, w: f32) -> f32 {
    smoothstep(cx - w, cx + w, x)
}

pub(crate) use crate::geom::smoothstep;

/// The left mask of each vertex (1 on the left, +X; 0 on the right).
pub fn left_mask(positions: &[Vec3], cx: f32, h: f32) -> Vec<f32> {
    let w = SEAM_HALF_WIDTH * h;
    positions
        .iter()
        .map(|p| smoothstep(cx - w, cx + w, p.x))
        .collect()
}

/// Splits `deltas` into `(left, right)` with `left + right == deltas` (see the module
/// docs).
pub fn split_lr(deltas: &[Vec3], mask: &[f32]) -> (Vec<Vec3>, Vec<Vec3>) {
    let left: Vec<Vec3> = deltas.iter().zip(mask).map(|(d, m)| *d * *m).collect();
    let right = deltas.iter().zip(&left).map(|(d, l)| *d - *l).collect();
    (left, right)
}

/// The smooth split weight at `x` (see the module docs).
pub fn smooth_mask(x: f32, cx: f32, h: f32) -> f32 {
    let w = SEAM_HALF_WIDTH * h;
    smoothstep(cx - w, cx + w, x)
}

/// The median length of `mesh`'s edges with both ends within the seam band, or `None`
/// when no edge lies there.
pub fn seam_edge_length(mesh: &Mesh, cx: f32, h: f32) -> Option<f32> {
    let w = SEAM_HALF_WIDTH * h;
    let mut l: Vec<f32> = mesh
        .edges()
        .into_iter()
        .map(|(a, b)| (mesh.positions[a as usize], mesh.positions[b as usize]))
        .filter(|(a, b)| (a.x - cx).abs() < w && (b.x - cx).abs() < w)
        .map(|(a, b)| (a - b).length())
        .filter(|d| *d > 0.0)
        .collect();
    if l.is_empty() {
        return None;
    }
    l.sort_by(f32::total_cmp);
    Some(l[l.len() / 2])
}

/// The largest second difference of the split weight `mask` sampled every `e` across
/// the seam band of half width `w` around `cx` (see the module docs).
pub fn seam_second_difference(mask: impl Fn(f32) -> f32, cx: f32, w: f32, e: f32) -> f32 {
    if e <= 0.0 || w <= 0.0 {
        return 0.0;
    }
    let steps = ((4.0 * w / e) * 8.0).ceil().min(1.0e5) as usize;
    (0..=steps)
        .map(|k| cx - 2.0 * w + 4.0 * w * k as f32 / steps as f32)
        .map(|x| (mask(x + e) - 2.0 * mask(x) + mask(x - e)).abs())
        .fold(0.0, f32::max)
}
