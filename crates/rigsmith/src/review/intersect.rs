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

/// The closed pieces of a skin that interpenetrate instead of meeting at seams (a
/// chibi's head ball resting on its torso, an arm sunk into the torso), for telling a
/// hidden junction from a fold. Where one piece is sunk into another, a pose that moves
/// one against the other (the head turning on the torso) slides the line where they
/// cut through each other across the triangles near it: new intersecting pairs, all
/// hidden inside the piece they are sunk into. A pair counts as such a **hidden
/// junction** when its two triangles lie on different pieces and, at rest, either one
/// of them lies inside the other's piece (its centre does), or both cross the junction
/// (each has a corner inside the other's piece). A low-poly neck crosses a shirt's
/// collar in one row of long triangles, half hidden in the shirt, and the shirt's top
/// crosses the neck: turning the head slides the line where they cut through each
/// other along those same triangles (men_Casual: 14 such pairs under `head_turn`, none
/// of them in sight). A chin folding into the throat of a one-surface body (one piece),
/// a head sagging into the visible part of the torso (the torso's triangles were
/// outside the head at rest), or a neck crossing a collar's outer face (the collar's
/// triangle has no corner in the neck) still counts.
pub(crate) struct Pieces {
    /// Piece (island) of each triangle.
    island: Vec<u32>,
    /// One tree per piece, at rest.
    trees: Vec<Bvh>,
    /// Rest corners of each triangle.
    corners: Vec<[Vec3; 3]>,
}

impl Pieces {
    /// The pieces of the mesh (`positions`: n x 3 at rest, `triangles`: m x 3), `None`
    /// when it is one piece.
    pub(crate) fn of(positions: &[Vec3], triangles: &[[u32; 3]]) -> Option<Pieces> {
        let (vi, count) = crate::geom::weld::islands(positions.len(), triangles);
        let island: Vec<u32> = triangles.iter().map(|t| vi[t[0] as usize]).collect();
        let mut tris: Vec<Vec<[u32; 3]>> = vec![Vec::new(); count];
        for (t, &i) in triangles.iter().zip(&island) {
            tris[i as usize].push(*t);
        }
        if tris.iter().filter(|t| !t.is_empty()).count() < 2 {
            return None;
        }
        let trees = tris.iter().map(|t| Bvh::build(positions, t)).collect();
        let corners = triangles
            .iter()
            .map(|t| t.map(|v| positions[v as usize]))
            .collect();
        Some(Pieces {
            island,
            trees,
            corners,
        })
    }

    /// Whether the pair of triangles `(a, b)` is a hidden junction (see [`Pieces`]).
    pub(crate) fn hidden(&self, a: u32, b: u32) -> bool {
        let (a, b) = (a as usize, b as usize);
        let (ia, ib) = (self.island[a] as usize, self.island[b] as usize);
        let centre_in = |t: usize, piece: usize| {
            self.trees[piece].contains(self.corners[t].iter().sum::<Vec3>() / 3.0)
        };
        let crosses = |t: usize, piece: usize| {
            self.corners[t]
                .iter()
                .any(|&p| self.trees[piece].contains(p))
        };
        ia != ib && (centre_in(a, ib) || centre_in(b, ia) || (crosses(a, ib) && crosses(b, ia)))
    }
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
    fn a_sunk_piece_hides_its_junction_and_nothing_else() {
        // A torso box and a head box whose bottom is sunk onto it.
        let mut m =
            crate::model::Mesh::cuboid(Vec3::new(-1.0, 0.0, -0.5), Vec3::new(1.0, 2.0, 0.5));
        let torso_tris = m.triangles.len() as u32;
        m.append(&crate::model::Mesh::cuboid(
            Vec3::new(-1.2, 1.8, -0.8),
            Vec3::new(1.2, 4.0, 0.8),
        ));
        let (p, t) = (&m.positions, &m.triangles);
        let pieces = Pieces::of(p, t).expect("two pieces");
        let centroid = |i: usize| t[i].iter().map(|&v| p[v as usize]).sum::<Vec3>() / 3.0;
        let find = |range: std::ops::Range<u32>, f: &dyn Fn(Vec3) -> bool| {
            range
                .clone()
                .find(|&i| f(centroid(i as usize)))
                .expect("a triangle")
        };
        let n = t.len() as u32;
        let torso_top = find(0..torso_tris, &|c| c.y > 1.99);
        let torso_side = find(0..torso_tris, &|c| c.y < 1.7 && c.x > 0.99);
        let head_top = find(torso_tris..n, &|c| c.y > 3.99);
        // The torso's top, hidden inside the head, is the junction...
        assert!(pieces.hidden(torso_top, head_top));
        // ...its visible side is not (the head sagging into it would show).
        assert!(!pieces.hidden(torso_side, head_top));
        // Two triangles of one piece are never a junction.
        assert!(!pieces.hidden(torso_top, torso_side));
        // One piece: no junction at all.
        let one = crate::model::Mesh::cuboid(Vec3::ZERO, Vec3::ONE);
        assert!(Pieces::of(&one.positions, &one.triangles).is_none());
    }

    #[test]
    fn triangles_crossing_each_others_piece_are_a_junction_and_a_face_beside_them_is_not() {
        // A torso box whose top is a fan around its centre (a shirt closed over the
        // neck), and a neck box sunk through that top: each of the fan's triangles has
        // its centre corner inside the neck, each of the neck's sides its bottom corners
        // inside the torso, and no centre of either lies inside the other piece.
        let mut m =
            crate::model::Mesh::cuboid(Vec3::new(-1.0, 0.0, -0.5), Vec3::new(1.0, 2.0, 0.5));
        let top: Vec<bool> = m
            .triangles
            .iter()
            .map(|t| t.iter().all(|&v| m.positions[v as usize].y > 1.99))
            .collect();
        let mut keep = top.iter().map(|&t| !t);
        m.triangles.retain(|_| keep.next().unwrap_or(true));
        m.positions.push(Vec3::new(0.0, 2.0, 0.0));
        // The top quad 2-6-7-3 (counter-clockwise from outside) as a fan around 8.
        m.triangles
            .extend([[2, 6, 8], [6, 7, 8], [7, 3, 8], [3, 2, 8]]);
        let torso_tris = m.triangles.len() as u32;
        m.append(&crate::model::Mesh::cuboid(
            Vec3::new(-0.3, 1.5, -0.3),
            Vec3::new(0.3, 3.3, 0.3),
        ));
        let (p, t) = (&m.positions, &m.triangles);
        let pieces = Pieces::of(p, t).expect("two pieces");
        let centroid = |i: u32| t[i as usize].iter().map(|&v| p[v as usize]).sum::<Vec3>() / 3.0;
        let n = t.len() as u32;
        let fan = (0..torso_tris)
            .find(|&i| t[i as usize].contains(&8))
            .expect("fan");
        let torso_side = (0..torso_tris)
            .find(|&i| centroid(i).x > 0.99)
            .expect("torso side");
        let neck_side = (torso_tris..n)
            .find(|&i| centroid(i).x > 0.29)
            .expect("neck side");
        assert!(centroid(neck_side).y > 2.0 && centroid(fan).x.abs() > 0.3);
        // The shirt's top and the neck both cross the junction: its line sliding along
        // them is hidden...
        assert!(pieces.hidden(fan, neck_side));
        // ...the torso's outer face has no corner in the neck: the neck pushed through
        // it would show.
        assert!(!pieces.hidden(torso_side, neck_side));
    }

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
