//! Weight fixes as data, the whole list of the rigging notes' brush-free edits in one
//! call a script (the Python package, the Blender add-on) can drive: mirror one side
//! onto the other, strip the opposite side, smooth some bones on some vertices, clean
//! (drop small influences, limit the count), normalize.
//!
//! ```
//! use rigsmith::bind::fix::{fix_weights, WeightFixes};
//! use rigsmith::model::{Bone, Mesh, Skeleton};
//! use rigsmith::{Influence, Weights};
//! use glam::Vec3;
//! let s = Skeleton { bones: vec![Bone::new("pelvis", None, Vec3::ZERO, Vec3::Y)] };
//! let mesh = Mesh { positions: vec![Vec3::ZERO, Vec3::Y], ..Default::default() };
//! let mut w = Weights { vertices: vec![
//!     vec![Influence { bone: 0, weight: 0.5 }],
//!     vec![Influence { bone: 0, weight: 2.0 }]] };
//! let r = fix_weights(&mut w, &mesh, &s, &WeightFixes::default());
//! assert_eq!((w.vertices[0][0].weight, w.vertices[1][0].weight), (1.0, 1.0));
//! assert_eq!(r.changed, 2);
//! ```
//!
//! The steps run in this order, each only when asked: [`WeightFixes::mirror`],
//! [`WeightFixes::strip_opposite_side`], [`WeightFixes::smooth`], the clean
//! ([`WeightFixes::limit`], [`WeightFixes::max_influences`]), [`WeightFixes::normalize`].
//! Mirroring, stripping and smoothing leave the vertices they change summing to 1; the
//! clean does not renormalize by itself (as Blender's Clean and Limit Total), so
//! `normalize: false` keeps what the clean took away as missing weight.

use glam::Vec3;
use serde::Serialize;

use super::cleanup::{drop_below_unnormalized, mid_x, mix, smooth_masked, strip_cross_side};
use crate::model::{Influence, Mesh, Side, Skeleton, Weights};

/// Smoothing restricted as a rigger restricts the brush.
#[derive(Debug, Clone, PartialEq)]
pub struct SmoothFix {
    /// Passes (Blender's `repeat`).
    pub iterations: usize,
    /// How far each pass moves a weight toward its neighbours' mean, in 0..=1
    /// (Blender's `factor`).
    pub factor: f32,
    /// The bones whose weights are smoothed (indices into the skeleton); empty: every
    /// deform bone.
    pub bones: Vec<u32>,
    /// The vertices that may change (one flag per vertex); `None`: all.
    pub mask: Option<Vec<bool>>,
}

/// Which weight fixes to run (see the module docs for the order).
#[derive(Debug, Clone, PartialEq)]
pub struct WeightFixes {
    /// Copy the weights of this side's vertices onto their mirror vertices of the other
    /// side (bones renamed to their mirror: `upperarm_l` -> `upperarm_r`); `None`: no
    /// mirroring. The mirror vertex is the nearest within [`MIRROR_TOL_H`] H of the
    /// mirror image; vertices within [`super::CENTRE_BAND`] H of the mid-plane keep
    /// theirs.
    pub mirror: Option<Side>,
    /// Take one side's bones off the other half of the body ([`strip_cross_side`]).
    pub strip_opposite_side: bool,
    /// Smooth some bones' weights over the mesh's edges.
    pub smooth: Option<SmoothFix>,
    /// Drop influences below this weight (a vertex whose influences are all below it
    /// keeps its largest); 0 keeps them all.
    pub limit: f32,
    /// Keep at most this many influences per vertex (the largest); 0: no limit.
    pub max_influences: usize,
    /// Scale every vertex's weights to sum to 1 at the end.
    pub normalize: bool,
}

impl Default for WeightFixes {
    /// The export cleanup: no mirror, strip, no smoothing, limit 0.001, 4 influences,
    /// normalize.
    fn default() -> Self {
        WeightFixes {
            mirror: None,
            strip_opposite_side: true,
            smooth: None,
            limit: 0.001,
            max_influences: 4,
            normalize: true,
        }
    }
}

/// What [`fix_weights`] did, in vertices.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct FixReport {
    /// Vertices that took their mirror vertex's weights.
    pub mirrored: usize,
    /// Vertices of the mirror's target side that have no mirror vertex (kept theirs).
    pub unmatched: usize,
    /// Vertices that lost weight of the other side's bones.
    pub stripped: usize,
    /// Vertices the smoothing changed (by more than 1e-6).
    pub smoothed: usize,
    /// Vertices whose weights changed in all (by more than 1e-6).
    pub changed: usize,
}

pub use super::mirror::MIRROR_TOL_H;

/// Runs the fixes of `f` on the weights `w` of one part (`mesh`: its positions, and
/// its triangles when smoothing) bound to `s`. Deterministic.
pub fn fix_weights(w: &mut Weights, mesh: &Mesh, s: &Skeleton, f: &WeightFixes) -> FixReport {
    let before = w.clone();
    let mut r = FixReport::default();
    if let Some(from) = f.mirror {
        (r.mirrored, r.unmatched) = mirror_weights(w, &mesh.positions, s, from);
    }
    if f.strip_opposite_side {
        r.stripped = strip_cross_side(w, &mesh.positions, s, super::CENTRE_BAND);
    }
    if let Some(sm) = &f.smooth {
        let prev = w.clone();
        smooth_factor(w, mesh, s, sm);
        r.smoothed = changed(&prev, w);
    }
    clean_unnormalized(w, f.limit, f.max_influences);
    if f.normalize {
        w.normalize();
    }
    w.sort();
    r.changed = changed(&before, w);
    r
}

/// Drops influences below `limit` (keeping a vertex's largest when all are below) and
/// keeps the `max_influences` largest (0: all), without renormalizing.
fn clean_unnormalized(w: &mut Weights, limit: f32, max_influences: usize) {
    drop_below_unnormalized(w, limit);
    if max_influences > 0 {
        for list in &mut w.vertices {
            list.truncate(max_influences);
        }
    }
}

/// Smoothing with a factor: each pass blends every masked vertex's weights toward the
/// one-pass mean of [`smooth_masked`] by `factor`.
fn smooth_factor(w: &mut Weights, mesh: &Mesh, s: &Skeleton, sm: &SmoothFix) {
    let n = w.vertices.len();
    let bones: Vec<u32> = if sm.bones.is_empty() {
        (0..s.len() as u32)
            .filter(|&b| s.bones[b as usize].deform)
            .collect()
    } else {
        sm.bones.clone()
    };
    let all = vec![true; n];
    let mask = sm.mask.as_deref().unwrap_or(&all);
    let t = sm.factor.clamp(0.0, 1.0);
    for _ in 0..sm.iterations {
        let mut avg = w.clone();
        smooth_masked(&mut avg, mesh, 1, &bones, mask);
        for (v, list) in w.vertices.iter_mut().enumerate() {
            if !mask.get(v).copied().unwrap_or(false) {
                continue;
            }
            let out = mix(list, avg.vertices[v].iter().copied(), t);
            if !out.is_empty() {
                *list = out;
            }
        }
        w.sort();
        w.normalize();
    }
}

/// Copies the weights of `from`'s side onto the mirror vertices of the other side
/// (bones renamed to their mirror; a bone without a mirror keeps its name). Returns the
/// vertices mirrored and the target-side vertices without a mirror vertex.
pub fn mirror_weights(
    w: &mut Weights,
    positions: &[Vec3],
    s: &Skeleton,
    from: Side,
) -> (usize, usize) {
    let n = positions.len().min(w.vertices.len());
    if n == 0 || from == Side::Center {
        return (0, 0);
    }
    let (lo, hi) = Mesh {
        positions: positions.to_vec(),
        ..Default::default()
    }
    .bounds();
    let h = (hi - lo).y.max((hi - lo).max_element() * 1e-3);
    let (tol, band) = (MIRROR_TOL_H * h, super::CENTRE_BAND * h);
    let mid = mid_x(s);
    let partner = super::mirror::mirror_partners(&positions[..n], mid, tol);
    let map = super::mirror::bone_mirrors(s);
    // +X is the character's left.
    let sign = if from == Side::Left { 1.0 } else { -1.0 };
    let source = w.clone();
    let (mut mirrored, mut unmatched) = (0, 0);
    for v in 0..n {
        let p = positions[v];
        if sign * (mid - p.x) <= band {
            continue;
        }
        match partner[v] {
            Some(j) => {
                w.vertices[v] = source.vertices[j]
                    .iter()
                    .map(|i| Influence {
                        bone: map.get(i.bone as usize).copied().unwrap_or(i.bone),
                        weight: i.weight,
                    })
                    .collect();
                mirrored += 1;
            }
            None => unmatched += 1,
        }
    }
    w.sort();
    (mirrored, unmatched)
}

/// Vertices whose weights differ by more than 1e-6 between `a` and `b`.
fn changed(a: &Weights, b: &Weights) -> usize {
    let bones = |l: &[Influence]| l.iter().map(|i| i.bone).collect::<Vec<_>>();
    (0..a.vertices.len().min(b.vertices.len()))
        .filter(|&v| {
            let (x, y) = (&a.vertices[v], &b.vertices[v]);
            let mut all = bones(x);
            all.extend(bones(y));
            all.iter()
                .any(|&k| (a.get(v, k) - b.get(v, k)).abs() > 1e-6)
        })
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Bone;

    /// A centre bone and a left/right pair; four vertices at x = -1, -0.5, 0.5, 1
    /// (height 2 along Y).
    fn setup() -> (Skeleton, Mesh) {
        let s = Skeleton {
            bones: vec![
                Bone::new("spine", None, Vec3::ZERO, Vec3::Y),
                Bone::new(
                    "arm_l",
                    Some(0),
                    Vec3::new(0.5, 1.0, 0.0),
                    Vec3::new(1.0, 1.0, 0.0),
                ),
                Bone::new(
                    "arm_r",
                    Some(0),
                    Vec3::new(-0.5, 1.0, 0.0),
                    Vec3::new(-1.0, 1.0, 0.0),
                ),
            ],
        };
        let positions = vec![
            Vec3::new(-1.0, 0.0, 0.0),
            Vec3::new(-0.5, 2.0, 0.0),
            Vec3::new(0.5, 2.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
        ];
        let mesh = Mesh {
            positions,
            triangles: vec![[0, 1, 2], [1, 2, 3]],
            ..Default::default()
        };
        (s, mesh)
    }

    fn inf(bone: u32, weight: f32) -> Influence {
        Influence { bone, weight }
    }

    #[test]
    fn mirror_copies_the_left_weights_onto_the_right_with_mirror_bones() {
        let (s, mesh) = setup();
        let mut w = Weights {
            vertices: vec![
                vec![inf(0, 1.0)],
                vec![inf(0, 1.0)],
                vec![inf(1, 0.7), inf(0, 0.3)],
                vec![inf(1, 0.9), inf(0, 0.1)],
            ],
        };
        let (m, u) = mirror_weights(&mut w, &mesh.positions, &s, Side::Left);
        assert_eq!((m, u), (2, 0));
        assert_eq!(w.get(1, 2), 0.7);
        assert_eq!(w.get(1, 0), 0.3);
        assert_eq!(w.get(0, 2), 0.9);
        assert_eq!(w.get(0, 1), 0.0);
        // The source side is unchanged.
        assert_eq!(w.get(3, 1), 0.9);
    }

    #[test]
    fn a_vertex_without_a_mirror_keeps_its_weights_and_is_counted() {
        let (s, mut mesh) = setup();
        mesh.positions[0].z = 0.5;
        let mut w = Weights {
            vertices: vec![vec![inf(0, 1.0)]; 4],
        };
        let (m, u) = mirror_weights(&mut w, &mesh.positions, &s, Side::Left);
        assert_eq!((m, u), (1, 1));
        assert_eq!(w.get(0, 0), 1.0);
    }

    #[test]
    fn clean_without_normalize_leaves_the_weight_it_took_missing() {
        let (s, mesh) = setup();
        let mut w = Weights {
            vertices: vec![
                vec![inf(0, 0.6), inf(1, 0.3), inf(2, 0.0005)],
                vec![inf(0, 1.0)],
                vec![inf(0, 1.0)],
                vec![inf(0, 1.0)],
            ],
        };
        let f = WeightFixes {
            strip_opposite_side: false,
            limit: 0.001,
            max_influences: 1,
            normalize: false,
            ..Default::default()
        };
        let r = fix_weights(&mut w, &mesh, &s, &f);
        assert_eq!(w.vertices[0], vec![inf(0, 0.6)]);
        assert_eq!(r.changed, 1);
        let mut w2 = Weights {
            vertices: vec![vec![inf(0, 0.6), inf(1, 0.3)], vec![], vec![], vec![]],
        };
        fix_weights(
            &mut w2,
            &mesh,
            &s,
            &WeightFixes {
                max_influences: 1,
                ..f
            },
        );
        assert_eq!(w2.vertices[0], vec![inf(0, 0.6)]);
    }

    #[test]
    fn smoothing_moves_only_the_masked_vertices_and_the_named_bones() {
        let (s, mesh) = setup();
        let mut w = Weights {
            vertices: vec![
                vec![inf(0, 1.0)],
                vec![inf(0, 1.0)],
                vec![inf(1, 1.0)],
                vec![inf(1, 1.0)],
            ],
        };
        let f = WeightFixes {
            strip_opposite_side: false,
            smooth: Some(SmoothFix {
                iterations: 1,
                factor: 0.5,
                bones: vec![1],
                mask: Some(vec![false, true, false, false]),
            }),
            ..Default::default()
        };
        let r = fix_weights(&mut w, &mesh, &s, &f);
        assert_eq!(r.smoothed, 1);
        // Vertex 1's ring is 0, 2, 3 and itself: arm_l's mean is 2/4 beside the
        // spine's 1, renormalized 1/3 and 2/3; half way from (0, 1): 1/6 and 5/6.
        assert!(
            (w.get(1, 1) - 1.0 / 6.0).abs() < 1e-6,
            "{:?}",
            w.vertices[1]
        );
        assert!((w.get(1, 0) - 5.0 / 6.0).abs() < 1e-6);
        assert_eq!(w.vertices[0], vec![inf(0, 1.0)]);
        assert_eq!(w.vertices[2], vec![inf(1, 1.0)]);
    }
}
