//! Welding coincident vertices, and the connected islands of the welded mesh.
//!
//! Split normals and UV seams duplicate vertices at the same position. The heat system
//! must see one vertex there (otherwise each copy is its own island and the system is
//! singular), so the binder solves on the welded mesh and copies the result back.
//!
//! Two vertices weld when they lie within `tol` of each other (the binder uses 1e-6 of
//! the body height), whichever cells of a grid of that side they fall in. Rounded to
//! the grid, two copies of a seam vertex a rounding apart (a mesh read back from
//! another format: men_Farmer through FBX has its positions up to 4e-7 H off) stayed
//! two vertices whenever a cell's border passed between them, and the seam opened
//! there. The welded index of a vertex is the order in which it is first met, so the
//! result is deterministic.

use std::collections::HashMap;

use glam::Vec3;

/// A welded mesh and the map back to the input vertices.
#[derive(Debug, Clone)]
pub struct Welded {
    /// Welded positions (k), the first input vertex of each cell.
    pub positions: Vec<Vec3>,
    /// Triangles (<= m) on welded indices; triangles that collapse are dropped.
    pub triangles: Vec<[u32; 3]>,
    /// For each input vertex (n), its welded index.
    pub map: Vec<u32>,
}

/// Welds vertices of `positions` within `tol` of each other (same unit), whichever grid
/// cells they fall in ([`weld_near`]).
pub fn weld(positions: &[Vec3], triangles: &[[u32; 3]], tol: f32) -> Welded {
    let (map, k) = weld_near(positions, tol);
    // Welded indices are numbered in order of first occurrence: a new one is the next.
    let mut out = Vec::with_capacity(k);
    for (p, &id) in positions.iter().zip(&map) {
        if id as usize == out.len() {
            out.push(*p);
        }
    }
    let tris = triangles
        .iter()
        .map(|t| t.map(|i| map[i as usize]))
        .filter(|t| t[0] != t[1] && t[1] != t[2] && t[0] != t[2])
        .collect();
    Welded {
        positions: out,
        triangles: tris,
        map,
    }
}

/// Connected islands of a mesh: for each of the `n` vertices its island id (0..k, in
/// order of first vertex), and the number of islands `k`. Isolated vertices are their
/// own islands.
pub fn islands(n: usize, triangles: &[[u32; 3]]) -> (Vec<u32>, usize) {
    let mut parent: Vec<u32> = (0..n as u32).collect();
    fn find(p: &mut [u32], mut x: u32) -> u32 {
        while p[x as usize] != x {
            p[x as usize] = p[p[x as usize] as usize];
            x = p[x as usize];
        }
        x
    }
    for t in triangles {
        for k in 0..3 {
            let a = find(&mut parent, t[k]);
            let b = find(&mut parent, t[(k + 1) % 3]);
            if a != b {
                let (lo, hi) = (a.min(b), a.max(b));
                parent[hi as usize] = lo;
            }
        }
    }
    let mut id = vec![u32::MAX; n];
    let mut label = vec![0u32; n];
    let mut k = 0u32;
    for v in 0..n {
        let r = find(&mut parent, v as u32) as usize;
        if id[r] == u32::MAX {
            id[r] = k;
            k += 1;
        }
        label[v] = id[r];
    }
    (label, k as usize)
}

/// Welds points closer than `tol` (same unit), whichever grid cells they fall in: each
/// point joins the first earlier point within `tol` in its own or a neighbouring cell.
/// Returns for each point its welded index (in order of first occurrence) and the
/// number of welded points. Deterministic.
pub fn weld_near(positions: &[Vec3], tol: f32) -> (Vec<u32>, usize) {
    let inv = 1.0 / tol.max(f32::MIN_POSITIVE);
    let cell = |p: Vec3| {
        [
            (p.x * inv).floor() as i64,
            (p.y * inv).floor() as i64,
            (p.z * inv).floor() as i64,
        ]
    };
    let mut cells: HashMap<[i64; 3], Vec<u32>> = HashMap::with_capacity(positions.len());
    let mut reps: Vec<Vec3> = Vec::new();
    let mut map = Vec::with_capacity(positions.len());
    let t2 = tol * tol;
    for p in positions {
        let c = cell(*p);
        let mut found = None;
        'search: for dx in -1..=1 {
            for dy in -1..=1 {
                for dz in -1..=1 {
                    if let Some(list) = cells.get(&[c[0] + dx, c[1] + dy, c[2] + dz]) {
                        for &r in list {
                            if (reps[r as usize] - *p).length_squared() <= t2 {
                                found = Some(r);
                                break 'search;
                            }
                        }
                    }
                }
            }
        }
        let id = match found {
            Some(r) => r,
            None => {
                reps.push(*p);
                let r = (reps.len() - 1) as u32;
                cells.entry(c).or_default().push(r);
                r
            }
        };
        map.push(id);
    }
    (map, reps.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_either_side_of_a_cell_border_weld() {
        // Two copies of a seam vertex 4e-7 apart, straddling a border of the 1e-6 grid
        // (0.4999 and 0.5003 cells from the origin): one vertex, the first one's.
        let p = vec![
            Vec3::new(0.49999e-6, 0.0, 0.0),
            Vec3::new(0.50030e-6, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
        ];
        let w = weld(&p, &[[0, 2, 3], [1, 3, 2]], 1e-6);
        assert_eq!(w.positions.len(), 3);
        assert_eq!(w.map[0], w.map[1]);
        assert_eq!(w.positions[0], p[0]);
        // Farther apart than the tolerance, they stay two.
        let q = [Vec3::ZERO, Vec3::new(1.5e-6, 0.0, 0.0)];
        assert_eq!(weld(&q, &[], 1e-6).positions.len(), 2);
    }

    #[test]
    fn duplicates_weld_and_islands_count() {
        let p = vec![
            Vec3::ZERO,
            Vec3::X,
            Vec3::Y,
            Vec3::X, // duplicate of 1
            Vec3::new(1.0, 1.0, 0.0),
            Vec3::splat(5.0), // isolated
        ];
        let w = weld(&p, &[[0, 1, 2], [3, 4, 2]], 1e-6);
        assert_eq!(w.positions.len(), 5);
        assert_eq!(w.map[3], 1);
        let (lab, k) = islands(w.positions.len(), &w.triangles);
        assert_eq!(k, 2);
        assert_eq!(lab[0], lab[3]);
    }
}
