//! Weight checks (rubric C) measured on the weights alone: unweighted vertices, empty
//! major bones, normalization, influence count, weights on non-deform bones, rigid
//! parts, left/right symmetry and garments weighted unlike the body under them.
//!
//! Each function returns plain numbers; [`super::rubric`] turns them into checks.

use glam::Vec3;

use crate::model::naming::mirror_name;
use crate::model::{Character, Skeleton, Weights};

/// Vertices (over all parts of a skinned character) with no weight: no influence or
/// a weight sum of 0. Parts without weights count whole. Returns the count and a
/// detail naming the parts.
pub fn unweighted(c: &Character) -> (usize, String) {
    let mut total = 0;
    let mut detail = Vec::new();
    for p in &c.parts {
        let n = match &p.weights {
            None => p.mesh.positions.len(),
            Some(w) => w
                .vertices
                .iter()
                .filter(|l| l.iter().map(|i| i.weight).sum::<f32>() <= 1e-6)
                .count(),
        };
        if n > 0 {
            let why = if p.weights.is_none() {
                " (part not skinned)"
            } else {
                ""
            };
            detail.push(format!("{}: {n}{why}", p.name));
        }
        total += n;
    }
    (total, detail.join("; "))
}

/// Total weight each bone carries over all parts (n bones).
pub fn bone_mass(c: &Character, nb: usize) -> Vec<f64> {
    let mut m = vec![0.0f64; nb];
    for w in c.parts.iter().filter_map(|p| p.weights.as_ref()) {
        for l in &w.vertices {
            for i in l {
                if let Some(x) = m.get_mut(i.bone as usize) {
                    *x += i.weight as f64;
                }
            }
        }
    }
    m
}

/// Largest `|sum of weights - 1|` over weighted vertices, and how many vertices are
/// off by more than `tol`.
pub fn normalization(c: &Character, tol: f32) -> (f32, usize) {
    let mut worst = 0.0f32;
    let mut n = 0;
    for w in c.parts.iter().filter_map(|p| p.weights.as_ref()) {
        for l in &w.vertices {
            if l.is_empty() {
                continue;
            }
            let d = (l.iter().map(|i| i.weight).sum::<f32>() - 1.0).abs();
            worst = worst.max(d);
            if d > tol {
                n += 1;
            }
        }
    }
    (worst, n)
}

/// Largest number of non-zero influences on one vertex, and how many vertices exceed `limit`.
pub fn influences(c: &Character, limit: usize) -> (usize, usize) {
    let mut worst = 0;
    let mut over = 0;
    for w in c.parts.iter().filter_map(|p| p.weights.as_ref()) {
        for l in &w.vertices {
            let k = l.iter().filter(|i| i.weight > 0.0).count();
            worst = worst.max(k);
            if k > limit {
                over += 1;
            }
        }
    }
    (worst, over)
}

/// Vertices with weight on a non-deform bone, and those bones' names.
pub fn non_deform(c: &Character, s: &Skeleton) -> (usize, Vec<String>) {
    let mut n = 0;
    let mut bones = std::collections::BTreeSet::new();
    for w in c.parts.iter().filter_map(|p| p.weights.as_ref()) {
        for l in &w.vertices {
            let mut hit = false;
            for i in l {
                if let Some(b) = s.bones.get(i.bone as usize) {
                    if !b.deform && i.weight > 0.0 {
                        hit = true;
                        bones.insert(b.name.clone());
                    }
                }
            }
            n += hit as usize;
        }
    }
    (n, bones.into_iter().collect())
}

/// For a rigid part: the largest `1 - top weight` over its vertices plus 1 for every
/// extra bone used as the top influence (a rigid part follows exactly one bone).
pub fn rigid_error(w: &Weights) -> f32 {
    let mut tops = std::collections::BTreeSet::new();
    let mut dev = 0.0f32;
    for l in &w.vertices {
        match l.iter().max_by(|a, b| a.weight.total_cmp(&b.weight)) {
            Some(t) => {
                tops.insert(t.bone);
                dev = dev.max((1.0 - t.weight).abs());
            }
            None => dev = 1.0,
        }
    }
    dev + tops.len().saturating_sub(1) as f32
}

/// The spatial hash grid, defined in [`crate::geom::grid`].
pub use crate::geom::grid::Grid;

/// Half the L1 distance between two vertices' weights, with `b`'s bones mapped
/// through `map` (0 = identical, 1 = disjoint).
pub fn weight_distance(a: &[crate::Influence], b: &[crate::Influence], map: &[usize]) -> f32 {
    let mut acc: Vec<(usize, f32)> = a.iter().map(|i| (i.bone as usize, i.weight)).collect();
    for i in b {
        let bone = map.get(i.bone as usize).copied().unwrap_or(i.bone as usize);
        match acc.iter_mut().find(|x| x.0 == bone) {
            Some(x) => x.1 -= i.weight,
            None => acc.push((bone, -i.weight)),
        }
    }
    0.5 * acc.iter().map(|x| x.1.abs()).sum::<f32>()
}

/// Left/right weight symmetry of one part: mean weight distance between each vertex
/// and its mirror vertex (found within `tol` metres at `(-x, y, z)` about `mid_x`),
/// with bones mapped to their mirror names. Returns `(mean error, share of vertices
/// with a mirror)`.
pub fn mirror_error(pos: &[Vec3], w: &Weights, s: &Skeleton, mid_x: f32, tol: f32) -> (f32, f32) {
    let map: Vec<usize> = s
        .bones
        .iter()
        .enumerate()
        .map(|(i, b)| s.find(&mirror_name(&b.name)).unwrap_or(i))
        .collect();
    let grid = Grid::new(pos, tol.max(1e-6));
    let mut sum = 0.0f64;
    let mut n = 0usize;
    for (i, p) in pos.iter().enumerate() {
        let q = Vec3::new(2.0 * mid_x - p.x, p.y, p.z);
        if let Some(j) = grid.nearest_within(q, tol) {
            if let (Some(a), Some(b)) = (w.vertices.get(i), w.vertices.get(j)) {
                sum += weight_distance(a, b, &map) as f64;
                n += 1;
            }
        }
    }
    if n == 0 {
        return (0.0, 0.0);
    }
    ((sum / n as f64) as f32, n as f32 / pos.len().max(1) as f32)
}

/// Share (percent) of a garment's vertices whose weights differ from the nearest body
/// vertex's by more than half (weight distance > 0.5): a garment not weighted from
/// the body it covers.
pub fn garment_mismatch(
    garment: &[Vec3],
    gw: &Weights,
    body_grid: &Grid,
    bw: &Weights,
    nb: usize,
) -> f32 {
    let ident: Vec<usize> = (0..nb).collect();
    let mut bad = 0;
    for (i, p) in garment.iter().enumerate() {
        let Some(j) = body_grid.nearest(*p, 8) else {
            continue;
        };
        let (Some(a), Some(b)) = (gw.vertices.get(i), bw.vertices.get(j)) else {
            continue;
        };
        if weight_distance(a, b, &ident) > 0.5 {
            bad += 1;
        }
    }
    100.0 * bad as f32 / garment.len().max(1) as f32
}
