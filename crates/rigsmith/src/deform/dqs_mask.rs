//! The preserve-volume mask: where dual-quaternion skinning should replace linear
//! blend skinning, per vertex (seed P10, done for engines).
//!
//! DQS keeps volume in twists and bends but bulges elsewhere (the shoulder raised);
//! LBS is what every engine runs. The mask confines DQS to where it matters: the
//! hinge and twist joints. Over the one-sided test poses that bend the elbow or the
//! knee or twist the wrist ([`mask_poses`]; not the shoulder's and the hip's swings,
//! where DQS bulges), a vertex whose DQS position differs from its LBS position by
//! more than [`DQS_MASK_H`] of the body height in any of them gets blend weight 1;
//! below a quarter of that it gets 0, linearly in between; then [`SMOOTH_PASSES`]
//! passes over the mesh edges spread the weight so no seam shows (a vertex never
//! loses weight in a pass). An engine that can blend the two skinnings
//! plays `lerp(LBS, DQS, blend)` ([`skin_blend`]); rigsmith writes the weights as the
//! glTF vertex attribute `_DQS_BLEND` and in the sidecar (`dqs_blend`).

use glam::{Mat4, Vec3};

use crate::model::{Mesh, Skeleton, Weights};
use crate::pose::{posed_matrices, skin_dqs, skin_lbs, Pose};

/// How far (units of H) DQS must move a vertex from LBS in some test pose for the
/// vertex to get the full DQS blend.
pub const DQS_MASK_H: f32 = 0.004;
/// Edge-smoothing passes over the mask.
pub const SMOOTH_PASSES: usize = 6;

/// The blend weight (0..1) of every vertex of `mesh` with weights `w` on skeleton `s`
/// over `poses`, for a body of height `h` metres (see the module docs).
pub fn dqs_mask(mesh: &Mesh, w: &Weights, s: &Skeleton, poses: &[Pose], h: f32) -> Vec<f32> {
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
    let thr = DQS_MASK_H * h;
    let mut mask: Vec<f32> = far
        .iter()
        .map(|&d| ((d - 0.25 * thr) / (0.75 * thr)).clamp(0.0, 1.0))
        .collect();
    let edges = mesh.edges();
    for _ in 0..SMOOTH_PASSES {
        let mut sum = vec![0.0f32; n];
        let mut cnt = vec![0u32; n];
        for &(a, b) in &edges {
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
    mask
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
        let m = sparse(&dqs_mask(&p.mesh, w, s, &poses, h));
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
