//! The heat equilibrium solve shared by bone heat (on the surface) and the volumetric
//! route (on voxels): factor `A = L + diag(h)` once with faer's sparse Cholesky, then
//! solve `A w_b = h ∘ p_b` for every bone `b`, bones split into one chunk per rayon
//! thread (each chunk one multi-column solve).

use rayon::prelude::*;

use crate::error::{Error, Result};

/// One heat system: `n` unknowns.
pub struct HeatSystem<'a> {
    /// Number of unknowns.
    pub n: usize,
    /// Diagonal of `L` (n).
    pub diag: &'a [f64],
    /// Off-diagonal entries of `L` as `(i, j, -w_ij)` pairs with `i != j`, each pair once.
    pub off: &'a [(u32, u32, f64)],
    /// Heat conductance per unknown (n), `>= 0`.
    pub heat: &'a [f64],
    /// For each unknown the heat sources (indices into the bone list), shared evenly
    /// unless `shares` says otherwise.
    pub sources: &'a [Vec<u32>],
    /// For each unknown the share of each of its sources (parallel to `sources`, each
    /// list summing to 1); `None`: shared evenly.
    pub shares: Option<&'a [Vec<f32>]>,
    /// Number of bones.
    pub bones: usize,
}

/// Solves the system for every bone that is a source somewhere; returns `(bone, w)`
/// pairs with `w` of length `n`, in increasing bone order. Errors when the
/// factorization fails (singular or indefinite matrix).
pub fn solve(sys: &HeatSystem) -> Result<Vec<(usize, Vec<f64>)>> {
    let n = sys.n;
    let mut trip = Vec::with_capacity(n + sys.off.len());
    for i in 0..n {
        trip.push(faer::sparse::Triplet::new(i, i, sys.diag[i] + sys.heat[i]));
    }
    for &(i, j, v) in sys.off {
        let (r, c) = (i.max(j) as usize, i.min(j) as usize);
        trip.push(faer::sparse::Triplet::new(r, c, v));
    }
    let a = faer::sparse::SparseColMat::<usize, f64>::try_new_from_triplets(n, n, &trip)
        .map_err(|e| Error::stage("bind", format!("heat system: {e:?}")))?;
    let llt = a.sp_cholesky(faer::Side::Lower).map_err(|e| {
        Error::stage(
            "bind",
            format!("the heat system of {n} unknowns is singular or indefinite ({e})"),
        )
    })?;
    let mut used = vec![false; sys.bones];
    for s in sys.sources {
        for &b in s {
            used[b as usize] = true;
        }
    }
    let bones: Vec<usize> = (0..sys.bones).filter(|&b| used[b]).collect();
    let threads = rayon::current_num_threads().max(1);
    let chunk = bones.len().div_ceil(threads).max(1);
    let sols: Vec<(usize, Vec<f64>)> = bones
        .par_chunks(chunk)
        .flat_map_iter(|bs| {
            let mut rhs = faer::Mat::<f64>::zeros(n, bs.len());
            for i in 0..n {
                let src = &sys.sources[i];
                if src.is_empty() {
                    continue;
                }
                let even = sys.heat[i] / src.len() as f64;
                for (c, &b) in bs.iter().enumerate() {
                    for (k, _) in src.iter().enumerate().filter(|(_, &x)| x == b as u32) {
                        rhs[(i, c)] += match sys.shares {
                            Some(sh) => sys.heat[i] * f64::from(sh[i][k]),
                            None => even,
                        };
                    }
                }
            }
            faer::linalg::solvers::Solve::solve_in_place(&llt, rhs.as_mut());
            bs.iter()
                .enumerate()
                .map(|(c, &b)| (b, rhs.col(c).iter().copied().collect::<Vec<f64>>()))
                .collect::<Vec<_>>()
        })
        .collect();
    Ok(sols)
}

/// Solves `A x_c = b_c` for every column `b_c` of `rhs` (each of length `n`), with `A`
/// symmetric positive definite given as its diagonal (n) and off-diagonal entries
/// `(i, j, a_ij)`, `i != j`, each pair once (duplicates add up). `A` is factored once
/// (faer sparse Cholesky); the columns are solved in one chunk per rayon thread.
/// Returns the solutions in the order of `rhs`. Errors when the factorization fails.
pub(crate) fn solve_columns(
    n: usize,
    diag: &[f64],
    off: &[(u32, u32, f64)],
    rhs: &[Vec<f64>],
) -> Result<Vec<Vec<f64>>> {
    let mut trip = Vec::with_capacity(n + off.len());
    for (i, d) in diag.iter().enumerate().take(n) {
        trip.push(faer::sparse::Triplet::new(i, i, *d));
    }
    for &(i, j, v) in off {
        let (r, c) = (i.max(j) as usize, i.min(j) as usize);
        trip.push(faer::sparse::Triplet::new(r, c, v));
    }
    let a = faer::sparse::SparseColMat::<usize, f64>::try_new_from_triplets(n, n, &trip)
        .map_err(|e| Error::stage("bind", format!("linear system: {e:?}")))?;
    let llt = a.sp_cholesky(faer::Side::Lower).map_err(|e| {
        Error::stage(
            "bind",
            format!("the system of {n} unknowns is singular or indefinite ({e})"),
        )
    })?;
    let threads = rayon::current_num_threads().max(1);
    let chunk = rhs.len().div_ceil(threads).max(1);
    let sols: Vec<Vec<f64>> = rhs
        .par_chunks(chunk)
        .flat_map_iter(|cols| {
            let mut m = faer::Mat::<f64>::zeros(n, cols.len());
            for (c, col) in cols.iter().enumerate() {
                for (i, v) in col.iter().enumerate().take(n) {
                    m[(i, c)] = *v;
                }
            }
            faer::linalg::solvers::Solve::solve_in_place(&llt, m.as_mut());
            (0..cols.len())
                .map(|c| m.col(c).iter().copied().collect::<Vec<f64>>())
                .collect::<Vec<_>>()
        })
        .collect();
    Ok(sols)
}
