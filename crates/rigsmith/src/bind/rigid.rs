//! Rigid parts: eyes, teeth, a tongue, hard-surface islands. They must not bend, so
//! every vertex gets exactly one bone at weight 1.0.
//!
//! A part is detected as rigid when
//! * its name has a whole-word token from [`RIGID_NAMES`] (`eyes`, `teeth_lower`,
//!   `EyeLeft`...), or
//! * by shape: every island is closed (each edge shared by exactly two triangles) and
//!   small (bounding-box diagonal below [`SMALL_ISLAND`] of the body height).
//!
//! The bone is the one given, or per island the bone that carries most of the body's
//! weight at the skin nearest to the island ([`rigid_weights_voted`]: teeth follow the
//! head that moves the lips, a ring the finger it sits on), or, when there is no body
//! weight to ask, the deform bone nearest to the island's centroid.

use glam::Vec3;

use super::bones::Segment;
use super::weld;
use crate::model::{Mesh, Weights};

pub use crate::model::body::RIGID_NAMES;

pub use crate::model::{rigid_by_name, rigid_by_shape, SMALL_ISLAND};

/// Rigid weights for `mesh`: every vertex 1.0 on `bone` when given, else per island on
/// the segment nearest to the island's centroid. `segments` are the deform bones.
pub(crate) fn rigid_weights(mesh: &Mesh, segments: &[Segment], bone: Option<u32>) -> Weights {
    let n = mesh.positions.len();
    if let Some(b) = bone {
        return Weights::rigid(n, b);
    }
    let (label, k) = weld::islands(n, &mesh.triangles);
    let mut sum = vec![Vec3::ZERO; k];
    let mut cnt = vec![0u32; k];
    for (v, p) in mesh.positions.iter().enumerate() {
        sum[label[v] as usize] += *p;
        cnt[label[v] as usize] += 1;
    }
    let pick: Vec<u32> = (0..k)
        .map(|l| {
            let c = sum[l] / cnt[l].max(1) as f32;
            segments
                .iter()
                .map(|s| ((s.closest(c) - c).length_squared(), s.bone))
                .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
                .map_or(0, |x| x.1)
        })
        .collect();
    let mut w = Weights::empty(n);
    for v in 0..n {
        w.add(v, pick[label[v] as usize], 1.0);
    }
    w
}

/// Rigid weights chosen by the skin around each island: `votes` are the body weights
/// transferred onto the part's vertices ([`super::transfer`]); each island goes, 1.0,
/// to the bone with the largest summed vote (ties to the lower bone index). Teeth thus
/// follow the head that moves the lips around them, not the nearer neck bone.
/// Islands without any vote fall back to the nearest segment.
pub fn rigid_weights_voted(mesh: &Mesh, votes: &Weights, segments: &[Segment]) -> Weights {
    let n = mesh.positions.len();
    let (label, k) = weld::islands(n, &mesh.triangles);
    let mut tally: Vec<std::collections::BTreeMap<u32, f64>> = vec![Default::default(); k];
    for v in 0..n.min(votes.len()) {
        for i in &votes.vertices[v] {
            *tally[label[v] as usize].entry(i.bone).or_default() += i.weight as f64;
        }
    }
    let fallback = rigid_weights(mesh, segments, None);
    let mut w = Weights::empty(n);
    for v in 0..n {
        let t = &tally[label[v] as usize];
        let best = t
            .iter()
            .max_by(|a, b| a.1.total_cmp(b.1).then(b.0.cmp(a.0)))
            .map(|(b, _)| *b);
        match best {
            Some(b) => w.add(v, b, 1.0),
            None => w.vertices[v] = fallback.vertices[v].clone(),
        }
    }
    w
}
