//! Offset fields over a mesh, shared by the skin's and the garments' correctives: each
//! vertex's neighbours, the Smooth-brush relax, the strain bound, and the inverse
//! skinning map that takes posed offsets back to rest space.

use glam::{Mat3, Vec3};

use crate::model::Weights;

/// Each vertex's neighbours over `edges`.
pub(crate) fn neighbours(n: usize, edges: &[(u32, u32)]) -> Vec<Vec<u32>> {
    let mut nb: Vec<Vec<u32>> = vec![Vec::new(); n];
    for &(a, b) in edges {
        nb[a as usize].push(b);
        nb[b as usize].push(a);
    }
    nb
}

/// Bounds the offset field's strain: along every edge `(a, b)` the two offsets may
/// differ by at most `k` times the edge's rest length; an edge over it pulls its two
/// offsets together (an unmoved end stays put), repeated until no edge is over (at
/// most [`STRAIN_ITERATIONS`] sweeps). A crease the inverse map amplified is flattened
/// where it spikes and nowhere else.
pub(crate) fn limit_strain(field: &mut [Vec3], rest: &[Vec3], edges: &[(u32, u32)], k: f32) {
    let live: Vec<bool> = field.iter().map(|o| *o != Vec3::ZERO).collect();
    for _ in 0..STRAIN_ITERATIONS {
        let mut over = false;
        for &(a, b) in edges {
            let (a, b) = (a as usize, b as usize);
            if !live[a] && !live[b] {
                continue;
            }
            let d = field[a] - field[b];
            let lim = k * (rest[a] - rest[b]).length();
            let len = d.length();
            if len <= lim * 1.001 {
                continue;
            }
            over = true;
            let fix = d * ((len - lim) / len);
            match (live[a], live[b]) {
                (true, true) => {
                    field[a] -= 0.5 * fix;
                    field[b] += 0.5 * fix;
                }
                (true, false) => field[a] -= fix,
                _ => field[b] += fix,
            }
        }
        if !over {
            break;
        }
    }
}

/// Most sweeps of [`limit_strain`].
pub const STRAIN_ITERATIONS: usize = 60;

/// `passes` passes of the Smooth brush on `field` where `live`: each vertex halfway
/// to the mean of its neighbours.
pub(crate) fn relax(field: &mut [Vec3], live: &[bool], nb: &[Vec<u32>], passes: usize) {
    for _ in 0..passes {
        let prev = field.to_vec();
        for v in 0..field.len() {
            if !live[v] || nb[v].is_empty() {
                continue;
            }
            let avg = nb[v].iter().map(|&k| prev[k as usize]).sum::<Vec3>() / nb[v].len() as f32;
            field[v] = 0.5 * prev[v] + 0.5 * avg;
        }
    }
}

/// The rest-space offsets (n) of the posed offsets `off` of points `cur` skinned by
/// `w` (preserve-volume blend `mask`) under `m`, through each moved point's measured
/// 3x3 skinning map (exact at the pose); and how many points had a singular map (they
/// get no offset). `h`: body height, metres.
pub(crate) fn inverse_map(
    cur: &[Vec3],
    off: &[Vec3],
    w: &Weights,
    mask: &[f32],
    m: &[glam::Mat4],
    h: f32,
) -> (Vec<Vec3>, usize) {
    let n = cur.len();
    let moved: Vec<usize> = (0..n).filter(|&v| off[v].length() > 1e-6 * h).collect();
    let step = 1e-3 * h;
    let mut pts = Vec::with_capacity(4 * moved.len());
    let mut lists = Vec::with_capacity(4 * moved.len());
    let mut blend = Vec::with_capacity(4 * moved.len());
    for &v in &moved {
        for d in [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z] {
            pts.push(cur[v] + d * step);
            lists.push(w.vertices.get(v).cloned().unwrap_or_default());
            blend.push(mask.get(v).copied().unwrap_or(0.0));
        }
    }
    let sk = crate::deform::dqs_mask::skin_blend(&pts, &Weights { vertices: lists }, m, &blend);
    let mut out = vec![Vec3::ZERO; n];
    let mut singular = 0;
    for (k, &v) in moved.iter().enumerate() {
        let p0 = sk[4 * k];
        let jm = Mat3::from_cols(
            (sk[4 * k + 1] - p0) / step,
            (sk[4 * k + 2] - p0) / step,
            (sk[4 * k + 3] - p0) / step,
        );
        if jm.determinant().abs() < 1e-4 {
            singular += 1;
            continue;
        }
        let o = jm.inverse() * off[v];
        if o.is_finite() {
            out[v] = o;
        } else {
            singular += 1;
        }
    }
    (out, singular)
}
