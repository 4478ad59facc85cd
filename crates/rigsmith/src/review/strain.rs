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
/// Skin torn open ([`torn_area`], % of H²) above which a failed strain check is major.
/// The knight's flanks dragged up by its raised arms (the volume heated from the
/// straight-line nearest bone) tore 15.6; the largest over the poses of the five
/// shared characters rigged again and the built-in mannequin is 0.83 (the chibi's knee
/// bent 120 degrees), over the artists' own rigs of those characters and MakeHuman's
/// 4.59 (the fox's spine twist).
pub const TEAR_PCT: f32 = 5.0;

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

/// The skin torn open in a pose: over `triangles`, the area each gains beyond twice its
/// rest area, summed, in % of `h`². A flap of skin dragged off by a limb it does not
/// belong to stretches the strip of triangles along its border into a sheet whose area
/// is the border's length times the flap's travel, whatever the mesh's density; a
/// joint's crease stretches its triangles less than twice.
pub fn torn_area(rest: &[Vec3], posed: &[Vec3], triangles: &[[u32; 3]], h: f32) -> f32 {
    let n = rest.len().min(posed.len());
    let area = |p: &[Vec3], t: &[u32; 3]| {
        let [a, b, c] = t.map(|i| p[i as usize]);
        0.5 * (b - a).cross(c - a).length()
    };
    let torn: f32 = triangles
        .iter()
        .filter(|t| t.iter().all(|&i| (i as usize) < n))
        .map(|t| (area(posed, t) - 2.0 * area(rest, t)).max(0.0))
        .sum();
    100.0 * torn / (h * h).max(f32::MIN_POSITIVE)
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
