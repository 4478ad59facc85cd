//! The spatial hash grid: points bucketed in cubic cells for nearest-neighbour
//! lookups. The one grid the stages use (the model check's symmetry, the review's
//! weight checks); welding keeps its own rounding grid ([`super::weld`]).

use std::collections::HashMap;

use glam::Vec3;

/// A uniform grid over points for nearest-neighbour lookups.
pub struct Grid {
    cell: f32,
    map: HashMap<(i64, i64, i64), Vec<u32>>,
    pts: Vec<Vec3>,
}

impl Grid {
    /// Builds a grid with cell size `cell` (metres, > 0).
    pub fn new(pts: &[Vec3], cell: f32) -> Grid {
        let cell = cell.max(1e-9);
        let mut map: HashMap<(i64, i64, i64), Vec<u32>> = HashMap::new();
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
                        let c = (k.0 + dx as i64, k.1 + dy as i64, k.2 + dz as i64);
                        if let Some(v) = self.map.get(&c) {
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

/// The cell of `p`: `floor(p / cell)` per axis.
fn key(p: Vec3, cell: f32) -> (i64, i64, i64) {
    let k = (p / cell).floor();
    (k.x as i64, k.y as i64, k.z as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_within_and_nearest_find_the_closest_point() {
        let pts = [
            Vec3::ZERO,
            Vec3::new(0.3, 0.0, 0.0),
            Vec3::new(1.0, 1.0, 1.0),
        ];
        let g = Grid::new(&pts, 0.25);
        assert_eq!(g.nearest_within(Vec3::new(0.2, 0.0, 0.0), 0.25), Some(1));
        assert_eq!(g.nearest_within(Vec3::new(0.6, 0.6, 0.6), 0.25), None);
        assert_eq!(g.nearest(Vec3::new(0.9, 0.9, 0.9), 8), Some(2));
        // Ties go to the lower index.
        assert_eq!(g.nearest_within(Vec3::new(0.15, 0.0, 0.0), 0.25), Some(0));
    }
}
