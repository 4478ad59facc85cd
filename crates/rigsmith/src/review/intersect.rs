//! Self-intersections: pairs of triangles of one mesh that cut through each other.
//!
//! Pairs that share a vertex are never counted (neighbours touch by construction).
//! Candidate pairs come from a [`Bvh`] overlap query, so counting is about
//! `O(m log m)` for m triangles, not `O(m^2)`. The test is Möller's triangle/triangle
//! interval test; coplanar pairs are not counted.
//!
//! A posed mesh is compared with its rest: [`new_pairs`] counts the pairs that
//! intersect in the pose but not at rest, looking only at triangles the pose moved.

use std::collections::HashSet;

use glam::Vec3;

use crate::geom::bvh::{Aabb, Bvh};

/// All intersecting pairs `(i, j)`, `i < j`, where at least one of the two triangles
/// is flagged in `active` (`None`: every triangle). Sorted.
pub fn intersecting_pairs(
    positions: &[Vec3],
    triangles: &[[u32; 3]],
    active: Option<&[bool]>,
) -> Vec<(u32, u32)> {
    let bvh = Bvh::build(positions, triangles);
    let mut out = Vec::new();
    for i in 0..triangles.len() {
        if let Some(a) = active {
            if !a[i] {
                continue;
            }
        }
        let ti = bvh.tris()[i];
        let bb: Aabb = Aabb::of_tri(ti);
        bvh.query(&bb, |j| {
            if j == i {
                return;
            }
            // Count each pair once: when both are active only from the smaller index.
            let j_active = active.is_none_or_true(j);
            if j_active && j < i {
                return;
            }
            let (a, b) = (triangles[i], triangles[j]);
            if a.iter().any(|v| b.contains(v)) {
                return;
            }
            if tri_tri(&ti, &bvh.tris()[j]) {
                out.push((i.min(j) as u32, i.max(j) as u32));
            }
        });
    }
    out.sort_unstable();
    out.dedup();
    out
}

trait ActiveExt {
    fn is_none_or_true(&self, j: usize) -> bool;
}
impl ActiveExt for Option<&[bool]> {
    fn is_none_or_true(&self, j: usize) -> bool {
        match self {
            None => true,
            Some(a) => a[j],
        }
    }
}

/// Number of pairs intersecting in `posed` that do not intersect at rest, among pairs
/// with at least one triangle that moved more than `eps` (metres).
pub fn new_pairs(
    rest: &[Vec3],
    posed: &[Vec3],
    triangles: &[[u32; 3]],
    rest_pairs: &HashSet<(u32, u32)>,
    eps: f32,
) -> usize {
    new_pair_list(rest, posed, triangles, rest_pairs, eps).len()
}

/// The pairs [`new_pairs`] counts: `(triangle, triangle)` indices, lower first.
pub(crate) fn new_pair_list(
    rest: &[Vec3],
    posed: &[Vec3],
    triangles: &[[u32; 3]],
    rest_pairs: &HashSet<(u32, u32)>,
    eps: f32,
) -> Vec<(u32, u32)> {
    let moved: Vec<bool> = rest
        .iter()
        .zip(posed)
        .map(|(a, b)| (*a - *b).length_squared() > eps * eps)
        .collect();
    let active: Vec<bool> = triangles
        .iter()
        .map(|t| {
            t.iter()
                .any(|&v| moved.get(v as usize).copied().unwrap_or(false))
        })
        .collect();
    if !active.iter().any(|&a| a) {
        return Vec::new();
    }
    intersecting_pairs(posed, triangles, Some(&active))
        .into_iter()
        .filter(|p| !rest_pairs.contains(p))
        .collect()
}

fn plane_dists(n: Vec3, d: f32, t: &[Vec3; 3]) -> [f32; 3] {
    t.map(|p| {
        let x = n.dot(p) + d;
        if x.abs() < 1e-12 {
            0.0
        } else {
            x
        }
    })
}

/// Möller's test: whether two (non-coplanar) triangles intersect.
pub(crate) fn tri_tri(a: &[Vec3; 3], b: &[Vec3; 3]) -> bool {
    let n2 = (b[1] - b[0]).cross(b[2] - b[0]);
    let d2 = -n2.dot(b[0]);
    let da = plane_dists(n2, d2, a);
    if (da[0] > 0.0 && da[1] > 0.0 && da[2] > 0.0) || (da[0] < 0.0 && da[1] < 0.0 && da[2] < 0.0) {
        return false;
    }
    let n1 = (a[1] - a[0]).cross(a[2] - a[0]);
    let d1 = -n1.dot(a[0]);
    let db = plane_dists(n1, d1, b);
    if (db[0] > 0.0 && db[1] > 0.0 && db[2] > 0.0) || (db[0] < 0.0 && db[1] < 0.0 && db[2] < 0.0) {
        return false;
    }
    if da.iter().all(|&x| x == 0.0) {
        return false; // coplanar: not counted
    }
    let dir = n1.cross(n2);
    let ax = dir.abs();
    let k = if ax.x >= ax.y && ax.x >= ax.z {
        0
    } else if ax.y >= ax.z {
        1
    } else {
        2
    };
    let ia = interval(a, &da, k);
    let ib = interval(b, &db, k);
    match (ia, ib) {
        (Some((a0, a1)), Some((b0, b1))) => a0 <= b1 && b0 <= a1,
        _ => false,
    }
}

/// The interval the triangle covers on the intersection line (projected on axis k).
fn interval(t: &[Vec3; 3], d: &[f32; 3], k: usize) -> Option<(f32, f32)> {
    let p = [t[0][k], t[1][k], t[2][k]];
    // Find the vertex alone on its side.
    let (lone, o1, o2) = if (d[0] > 0.0) == (d[1] > 0.0) && d[0] != 0.0 && d[1] != 0.0 {
        (2, 0, 1)
    } else if (d[0] > 0.0) == (d[2] > 0.0) && d[0] != 0.0 && d[2] != 0.0 {
        (1, 0, 2)
    } else if ((d[1] > 0.0) == (d[2] > 0.0) && d[1] != 0.0 && d[2] != 0.0) || d[0] != 0.0 {
        (0, 1, 2)
    } else if d[1] != 0.0 {
        (1, 0, 2)
    } else if d[2] != 0.0 {
        (2, 0, 1)
    } else {
        return None;
    };
    let cut = |o: usize| {
        let den = d[lone] - d[o];
        if den.abs() < 1e-30 {
            p[o]
        } else {
            p[lone] + (p[o] - p[lone]) * d[lone] / den
        }
    };
    let x0 = cut(o1);
    let x1 = cut(o2);
    Some((x0.min(x1), x0.max(x1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crossing_triangles() {
        let a = [
            Vec3::new(-1.0, 0.0, -1.0),
            Vec3::new(1.0, 0.0, -1.0),
            Vec3::new(0.0, 0.0, 1.0),
        ];
        let b = [
            Vec3::new(0.0, -1.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
            Vec3::new(0.1, 1.0, 0.5),
        ];
        assert!(tri_tri(&a, &b));
        let c = b.map(|p| p + Vec3::new(5.0, 0.0, 0.0));
        assert!(!tri_tri(&a, &c));
    }
}
