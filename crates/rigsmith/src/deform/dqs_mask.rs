//! The preserve-volume mask: where dual-quaternion skinning should replace linear
//! blend skinning, per vertex (seed P10, done for engines).
//!
//! DQS keeps volume in twists and bends but bulges elsewhere (the shoulder raised);
//! LBS is what every engine runs. The mask confines DQS to where it matters: the
//! hinge and twist joints. Over the one-sided test poses that bend the elbow or the
//! knee or twist the wrist ([`mask_poses`]; not the shoulder's and the hip's swings,
//! where DQS bulges), a vertex whose DQS position differs from its LBS position by
//! more than [`DQS_MASK_H`] of the body height in any of them gets blend weight 1, and
//! so does one whose DQS position differs by more than [`DQS_MASK_RADIUS`] of its
//! distance from its heaviest bone's axis (a thin forearm collapses as much, for its
//! size, as a thick one, but by fewer millimetres; this one counts above a tenth of
//! the first); below a quarter of either it gets
//! 0, linearly in between; then [`SMOOTH_PASSES`] passes over the mesh edges spread
//! the weight so no seam shows (a vertex never loses weight in a pass). An engine that can blend the two skinnings
//! plays `lerp(LBS, DQS, blend)` ([`skin_blend`]); rigsmith writes the weights as the
//! glTF vertex attribute `_DQS_BLEND` and in the sidecar (`dqs_blend`).

use glam::{Mat4, Vec3};

use crate::model::{Mesh, Skeleton, Weights};
use crate::pose::{posed_matrices, skin_dqs, skin_lbs, Pose};

/// How far (units of H) DQS must move a vertex from LBS in some test pose for the
/// vertex to get the full DQS blend.
pub const DQS_MASK_H: f32 = 0.004;
/// How far DQS must move a vertex from LBS in some test pose, as a fraction of the
/// vertex's rest distance from its heaviest bone's axis, for the full DQS blend.
pub const DQS_MASK_RADIUS: f32 = 0.05;
/// Edge-smoothing passes over the mask.
pub const SMOOTH_PASSES: usize = 6;

/// The knobs of [`dqs_mask_with`] (the defaults are the shipped values).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MaskOptions {
    /// Full blend above this DQS-to-LBS distance, units of H ([`DQS_MASK_H`]).
    pub threshold_h: f32,
    /// Full blend above this DQS-to-LBS distance over the vertex's distance from its
    /// heaviest bone's axis ([`DQS_MASK_RADIUS`]); 0 turns the measure off.
    pub radius: f32,
    /// Edge-smoothing passes ([`SMOOTH_PASSES`]).
    pub smooth_passes: usize,
}

impl Default for MaskOptions {
    fn default() -> Self {
        MaskOptions {
            threshold_h: DQS_MASK_H,
            radius: DQS_MASK_RADIUS,
            smooth_passes: SMOOTH_PASSES,
        }
    }
}

/// The blend weight (0..1) of every vertex of `mesh` with weights `w` on skeleton `s`
/// over `poses`, for a body of height `h` metres (see the module docs).
pub fn dqs_mask(mesh: &Mesh, w: &Weights, s: &Skeleton, poses: &[Pose], h: f32) -> Vec<f32> {
    dqs_mask_with(mesh, w, s, poses, h, &MaskOptions::default())
}

/// [`dqs_mask`] with its knobs.
pub fn dqs_mask_with(
    mesh: &Mesh,
    w: &Weights,
    s: &Skeleton,
    poses: &[Pose],
    h: f32,
    o: &MaskOptions,
) -> Vec<f32> {
    let n = mesh.positions.len();
    let mut far = vec![0.0f32; n];
    for p in poses {
        let m = posed_matrices(s, p);
        let a = skin_lbs(&mesh.positions, w, &m);
        let b = skin_dqs(&mesh.positions, w, &m);
        for (f, (x, y)) in far.iter_mut().zip(a.iter().zip(&b)) {
            *f = f.max((*x - *y).length());
        }
    }
    let thr = o.threshold_h * h;
    let mut mask: Vec<f32> = far
        .iter()
        .zip(&mesh.positions)
        .zip(&w.vertices)
        .map(|((&d, p), list)| {
            // The larger of the two measures, each 1 at its threshold; the radius's
            // only above a tenth of the height's (no noise near a bone's axis).
            let mut x = d / thr;
            if o.radius > 0.0 && d > 0.1 * thr {
                let r = axis_distance(s, list, *p).max(1e-4 * h);
                x = x.max(d / (o.radius * r));
            }
            ((x - 0.25) / 0.75).clamp(0.0, 1.0)
        })
        .collect();
    smooth(&mut mask, &mesh.edges(), o.smooth_passes);
    mask
}

/// The distance of `p` from the axis (the line through head and tail) of its heaviest
/// bone in `list`; `f32::MAX` without one.
fn axis_distance(s: &Skeleton, list: &[crate::model::Influence], p: Vec3) -> f32 {
    let Some(b) = list
        .iter()
        .max_by(|a, b| a.weight.total_cmp(&b.weight))
        .and_then(|i| s.bones.get(i.bone as usize))
    else {
        return f32::MAX;
    };
    let d = p - b.head;
    let y = b.y_axis();
    (d - y * d.dot(y)).length()
}

/// `passes` passes over `edges` in which every vertex takes the larger of its weight
/// and the mean of its weight and its neighbours' mean.
fn smooth(mask: &mut [f32], edges: &[(u32, u32)], passes: usize) {
    let n = mask.len();
    for _ in 0..passes {
        let mut sum = vec![0.0f32; n];
        let mut cnt = vec![0u32; n];
        for &(a, b) in edges {
            let (a, b) = (a as usize, b as usize);
            sum[a] += mask[b];
            sum[b] += mask[a];
            cnt[a] += 1;
            cnt[b] += 1;
        }
        for v in 0..n {
            if cnt[v] > 0 {
                let avg = 0.5 * mask[v] + 0.5 * sum[v] / cnt[v] as f32;
                mask[v] = mask[v].max(avg);
            }
        }
    }
}

/// Skinning with the mask: `lerp(LBS, DQS, blend)` per vertex (`blend` shorter than
/// the positions counts as 0 for the rest).
pub fn skin_blend(positions: &[Vec3], w: &Weights, m: &[Mat4], blend: &[f32]) -> Vec<Vec3> {
    let a = skin_lbs(positions, w, m);
    if blend.iter().all(|&b| b <= 0.0) {
        return a;
    }
    let b = skin_dqs(positions, w, m);
    a.iter()
        .zip(&b)
        .enumerate()
        .map(|(v, (x, y))| x.lerp(*y, blend.get(v).copied().unwrap_or(0.0)))
        .collect()
}

/// The joints whose poses decide the mask: the hinges and the twisting wrist.
pub const MASK_JOINTS: [&str; 3] = ["elbow", "wrist", "knee"];

/// The poses of `library` the mask is measured over: the one-sided ones that test a
/// joint of [`MASK_JOINTS`] (the elbow bent, the wrist twisted, the knee bent).
pub fn mask_poses(library: &[crate::pose::NamedPose]) -> Vec<Pose> {
    library
        .iter()
        .filter(|np| {
            np.side != crate::model::naming::Side::Center
                && np.tests.iter().any(|t| {
                    MASK_JOINTS
                        .iter()
                        .any(|j| t.joint.split('.').next() == Some(*j))
                })
        })
        .map(|np| np.pose.clone())
        .collect()
}

/// The vertices with a blend weight, as `(vertex, weight)` pairs (weights rounded to
/// 1e-3): the sparse form the sidecar stores.
pub fn sparse(mask: &[f32]) -> Vec<(u32, f32)> {
    mask.iter()
        .enumerate()
        .map(|(v, &b)| (v as u32, (b * 1000.0).round() / 1000.0))
        .filter(|&(_, b)| b > 0.0)
        .collect()
}

/// The mask of every weighted part of `c` over the default pose library's
/// [`mask_poses`] with the twist rules applied, by part name, sparse ([`sparse`]); parts flagged in `rigid` (part
/// order) and parts without a blend weight are left out.
pub fn character_masks(
    c: &crate::model::Character,
    rigid: &[bool],
) -> std::collections::BTreeMap<String, Vec<(u32, f32)>> {
    character_masks_with(c, rigid, &MaskOptions::default())
}

/// [`character_masks`] with the mask's knobs.
pub fn character_masks_with(
    c: &crate::model::Character,
    rigid: &[bool],
    o: &MaskOptions,
) -> std::collections::BTreeMap<String, Vec<(u32, f32)>> {
    let mut out = std::collections::BTreeMap::new();
    let Some(s) = c.skeleton.as_ref() else {
        return out;
    };
    let roles = crate::humanoid::Roles::of(s, c.vrm.as_ref().map(|v| &v.humanoid));
    let rules = super::twist_rules(s, &roles);
    let (lib, _) = crate::pose::library::library_for(s, &roles);
    let poses = mask_poses(&super::twist::library_with_rules(s, &rules, lib));
    let h = c.height();
    for (k, p) in c.parts.iter().enumerate() {
        let Some(w) = p.weights.as_ref() else {
            continue;
        };
        if rigid.get(k).copied().unwrap_or(false) {
            continue;
        }
        let m = sparse(&dqs_mask_with(&p.mesh, w, s, &poses, h, o));
        if !m.is_empty() {
            out.insert(p.name.clone(), m);
        }
    }
    out
}

/// The dense mask of `n` vertices from its sparse form.
pub fn dense(sparse: &[(u32, f32)], n: usize) -> Vec<f32> {
    let mut v = vec![0.0; n];
    for &(i, b) in sparse {
        if let Some(x) = v.get_mut(i as usize) {
            *x = b;
        }
    }
    v
}
