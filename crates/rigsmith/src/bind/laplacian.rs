//! The cotangent Laplacian of a triangle mesh and its lumped mass.
//!
//! For an edge `(i, j)` shared by triangles with opposite angles `a` and `b`, the
//! stiffness weight is `w_ij = (cot a + cot b) / 2`; `L = D - W` with `D_ii = sum_j w_ij`
//! is symmetric positive semi-definite (it is the Dirichlet energy of the piecewise
//! linear hat functions), zero on constants over each island. The lumped mass `M_ii` is a
//! third of the area of the triangles around `i`.
//!
//! Units: weights are dimensionless (scale-invariant), mass is in (length unit)².
//! Triangles whose area is below `1e-10` of their longest edge squared are skipped: a
//! degenerate triangle contributes nothing instead of an infinite cotangent.

use glam::DVec3;
use rayon::slice::ParallelSliceMut;

/// A sparse symmetric Laplacian (see the module docs).
#[derive(Debug, Clone, Default)]
pub struct Laplacian {
    /// Number of vertices.
    pub n: usize,
    /// Off-diagonal weights `(i, j, w_ij)` with `i < j`, sorted, one entry per edge.
    pub edges: Vec<(u32, u32, f64)>,
    /// Diagonal `D_ii = sum_j w_ij` (n).
    pub diag: Vec<f64>,
    /// Lumped vertex mass (n), a third of the adjacent area.
    pub mass: Vec<f64>,
    /// Number of triangles skipped as degenerate.
    pub degenerate: usize,
}

/// Builds the cotangent Laplacian of `n` vertices at `positions` with `triangles`.
pub fn cotangent(positions: &[DVec3], triangles: &[[u32; 3]]) -> Laplacian {
    let n = positions.len();
    let mut e: Vec<(u32, u32, f64)> = Vec::with_capacity(triangles.len() * 3);
    let mut mass = vec![0.0f64; n];
    let mut degenerate = 0;
    for t in triangles {
        let p = t.map(|i| positions[i as usize]);
        let cross = (p[1] - p[0]).cross(p[2] - p[0]);
        let area2 = cross.length();
        let longest = (p[1] - p[0])
            .length_squared()
            .max((p[2] - p[1]).length_squared())
            .max((p[0] - p[2]).length_squared());
        if area2.is_nan() || area2 <= 1e-10 * longest || longest == 0.0 {
            degenerate += 1;
            continue;
        }
        for k in 0..3 {
            // Angle at corner k, opposite edge (k+1, k+2).
            let (i, j) = (t[(k + 1) % 3], t[(k + 2) % 3]);
            let u = p[(k + 1) % 3] - p[k];
            let v = p[(k + 2) % 3] - p[k];
            let cot = u.dot(v) / area2;
            e.push((i.min(j), i.max(j), 0.5 * cot));
            mass[t[k] as usize] += area2 / 6.0;
        }
    }
    e.par_sort_unstable_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)).then(a.2.total_cmp(&b.2)));
    let mut edges: Vec<(u32, u32, f64)> = Vec::with_capacity(e.len());
    for (i, j, w) in e {
        match edges.last_mut() {
            Some(last) if last.0 == i && last.1 == j => last.2 += w,
            _ => edges.push((i, j, w)),
        }
    }
    let mut diag = vec![0.0f64; n];
    for &(i, j, w) in &edges {
        diag[i as usize] += w;
        diag[j as usize] += w;
    }
    Laplacian {
        n,
        edges,
        diag,
        mass,
        degenerate,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_sum_to_zero_and_mass_is_area() {
        let p = vec![DVec3::ZERO, DVec3::X, DVec3::new(1.0, 1.0, 0.0), DVec3::Y];
        let l = cotangent(&p, &[[0, 1, 2], [0, 2, 3]]);
        let mut row = l.diag.clone();
        for &(i, j, w) in &l.edges {
            row[i as usize] -= w;
            row[j as usize] -= w;
        }
        assert!(row.iter().all(|r| r.abs() < 1e-12));
        assert!((l.mass.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        // Right isoceles triangles: the diagonal edge has cot 0 twice, sides cot 1 / 2.
        let diag_edge = l.edges.iter().find(|e| (e.0, e.1) == (0, 2)).unwrap();
        assert!(diag_edge.2.abs() < 1e-12);
    }
}
