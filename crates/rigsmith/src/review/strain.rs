//! Edge strain: how much each mesh edge stretches or shrinks in a pose.
//!
//! For every unique edge, `strain = posed length / rest length`. A clean deformation
//! keeps nearly all edges between 0.5 and 1.6 (rubric D, seed P5); the report gives
//! the 1st and 99th percentiles and the share of edges outside that range, flagged
//! above 0.2 %. Zero-length rest edges are ignored.

use glam::Vec3;

/// Strain statistics of one posed mesh.
#[derive(Debug, Clone, Copy, PartialEq, Default, serde::Serialize)]
pub struct Strain {
    /// 1st percentile of posed/rest edge length.
    pub p1: f32,
    /// 99th percentile of posed/rest edge length.
    pub p99: f32,
    /// Share of edges with strain outside [0.5, 1.6], in percent.
    pub outside_pct: f32,
    /// Number of edges measured.
    pub edges: usize,
}

/// Lower and upper strain limits (rubric D).
pub const STRAIN_RANGE: (f32, f32) = (0.5, 1.6);
/// Share of edges outside [`STRAIN_RANGE`] above which the pose is flagged, percent.
pub const STRAIN_FLAG_PCT: f32 = 0.2;

/// Strain of `posed` against `rest` over `edges` (pairs of vertex indices; out-of-range
/// pairs are skipped).
pub fn strain(rest: &[Vec3], posed: &[Vec3], edges: &[(u32, u32)]) -> Strain {
    let n = rest.len().min(posed.len());
    let mut r: Vec<f32> = edges
        .iter()
        .filter(|(a, b)| (*a as usize) < n && (*b as usize) < n)
        .filter_map(|&(a, b)| {
            let l0 = (rest[a as usize] - rest[b as usize]).length();
            if l0 <= 1e-12 {
                return None;
            }
            Some((posed[a as usize] - posed[b as usize]).length() / l0)
        })
        .collect();
    if r.is_empty() {
        return Strain::default();
    }
    let outside = r
        .iter()
        .filter(|&&x| x < STRAIN_RANGE.0 || x > STRAIN_RANGE.1)
        .count();
    r.sort_unstable_by(f32::total_cmp);
    let q = |f: f32| r[((r.len() - 1) as f32 * f).round() as usize];
    Strain {
        p1: q(0.01),
        p99: q(0.99),
        outside_pct: 100.0 * outside as f32 / r.len() as f32,
        edges: r.len(),
    }
}

/// Posed midpoints of the edges whose strain lies outside [`STRAIN_RANGE`] (where a
/// close-up of a strained pose looks).
pub(crate) fn strained_midpoints(rest: &[Vec3], posed: &[Vec3], edges: &[(u32, u32)]) -> Vec<Vec3> {
    let n = rest.len().min(posed.len());
    edges
        .iter()
        .filter(|(a, b)| (*a as usize) < n && (*b as usize) < n)
        .filter_map(|&(a, b)| {
            let (a, b) = (a as usize, b as usize);
            let l0 = (rest[a] - rest[b]).length();
            if l0 <= 1e-12 {
                return None;
            }
            let r = (posed[a] - posed[b]).length() / l0;
            (!(STRAIN_RANGE.0..=STRAIN_RANGE.1).contains(&r)).then(|| 0.5 * (posed[a] + posed[b]))
        })
        .collect()
}
