//! Weight numbers the review measures with the character's part classes: rigid parts
//! and garments weighted unlike the body under them. Every other weight check
//! (unweighted, empty majors, normalization, influences, non-deform bones, symmetry) is
//! defined once, in [`crate::bind::report`].
//!
//! Each function returns plain numbers; [`super::rubric`] turns them into checks.

use std::collections::HashMap;

use glam::Vec3;

use crate::model::Weights;

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

/// A uniform grid over points for nearest-neighbour lookups.
pub struct Grid {
    cell: f32,
    map: HashMap<(i32, i32, i32), Vec<u32>>,
    pts: Vec<Vec3>,
}

impl Grid {
    /// Builds a grid with cell size `cell` (metres, > 0).
    pub fn new(pts: &[Vec3], cell: f32) -> Grid {
        let cell = cell.max(1e-9);
        let mut map: HashMap<(i32, i32, i32), Vec<u32>> = HashMap::new();
        for (i, p) in pts.iter().enumerate() {
            map.entry(key(*p, cell)).or_default().push(i as u32);
        }
        Grid {
            cell,
            map,
            pts: pts.to_vec(),
        }
    }

    /// The nearest point within `r` (<= cell) of `q`, lowest index on ties.
    pub fn nearest_within(&self, q: Vec3, r: f32) -> Option<usize> {
        let k = key(q, self.cell);
        let mut best: Option<(f32, usize)> = None;
        for dx in -1..=1 {
            for dy in -1..=1 {
                for dz in -1..=1 {
                    if let Some(v) = self.map.get(&(k.0 + dx, k.1 + dy, k.2 + dz)) {
                        for &i in v {
                            let d = (self.pts[i as usize] - q).length();
                            if d <= r && best.map_or(true, |(bd, bi)| (d, i as usize) < (bd, bi)) {
                                best = Some((d, i as usize));
                            }
                        }
                    }
                }
            }
        }
        best.map(|b| b.1)
    }

    /// The nearest point to `q`, searching rings of cells outward (up to `max_rings`).
    pub fn nearest(&self, q: Vec3, max_rings: i32) -> Option<usize> {
        let k = key(q, self.cell);
        let mut best: Option<(f32, usize)> = None;
        for ring in 0..=max_rings {
            for dx in -ring..=ring {
                for dy in -ring..=ring {
                    for dz in -ring..=ring {
                        if dx.abs().max(dy.abs()).max(dz.abs()) != ring {
                            continue;
                        }
                        if let Some(v) = self.map.get(&(k.0 + dx, k.1 + dy, k.2 + dz)) {
                            for &i in v {
                                let d = (self.pts[i as usize] - q).length();
                                if best.map_or(true, |(bd, bi)| (d, i as usize) < (bd, bi)) {
                                    best = Some((d, i as usize));
                                }
                            }
                        }
                    }
                }
            }
            if let Some((d, _)) = best {
                if d <= ring as f32 * self.cell {
                    break;
                }
            }
        }
        best.map(|b| b.1)
    }
}

fn key(p: Vec3, cell: f32) -> (i32, i32, i32) {
    let k = (p / cell).floor();
    (k.x as i32, k.y as i32, k.z as i32)
}

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
