//! Posing a skeleton through its control rig: a pose of the deform skeleton (the review's
//! pose library speaks in deform-bone rotations) becomes control transforms, and the
//! evaluator turns them back into deform matrices. What the review then shows is what
//! the rig does with that pose: twist bones turn by the rig's twist rule, whatever the
//! pose said about them, and bones the rig drives from mechanism alone stay with it.
//!
//! The controls: each deform bone copies (Copy Transforms) either a control, or a
//! mechanism bone whose `FK` layer copies one (an FK/IK limb); that control is given
//! the deform bone's posed world matrix, level by level from the root down (its local
//! channel is its posed parent frame's inverse times that matrix, so a spine control
//! hanging on the torso still follows a turned pelvis; a level is the bones the
//! evaluator's dependency graph puts at the same distance from its roots). Every FK/IK
//! switch is set to 0 (FK), the other properties stay at their defaults.
//!
//! ```
//! use rigsmith::control::posing::RigPoser;
//! use rigsmith::fit::{fit, FitOptions};
//! use rigsmith::pose::{default_library, Pose};
//!
//! let c = rigsmith::mannequin::build(&Default::default());
//! let s = fit(&c, &FitOptions::default())?.skeleton;
//! let rig = rigsmith::control::build(&s, c.body()?.height)?;
//! let poser = RigPoser::new(&rig, &s)?;
//! // At rest the rig gives every skinning matrix the identity.
//! let m = poser.skinning(&Pose::rest(&s));
//! assert!(m.iter().all(|m| m.abs_diff_eq(glam::Mat4::IDENTITY, 1e-4)));
//! # Ok::<(), rigsmith::Error>(())
//! ```

use glam::{Mat4, Vec3};

use super::eval::{Channels, Evaluator};
use super::model::{BoneRole, ControlRig, Kind};
use crate::error::{Error, Result};
use crate::model::{Character, Skeleton};
use crate::pose::skinning::Skinning;
use crate::pose::{posed_matrices, skin_dqs, skin_lbs, world_matrices, Pose};

/// A control rig prepared to pose its skeleton (see the module docs).
#[derive(Debug, Clone)]
pub struct RigPoser {
    ev: Evaluator,
    skel: Skeleton,
    /// Rig index of each skeleton bone.
    bone: Vec<usize>,
    /// `(control, skeleton bone)` pairs in levels: whatever a control's frame depends
    /// on is posed in an earlier level.
    levels: Vec<Vec<(usize, usize)>>,
    /// The inputs every pose starts from: rest channels, switches at 0.
    base: Channels,
}

impl RigPoser {
    /// Prepares `rig` to pose `skel`: every skeleton bone must be in the rig (the rig
    /// was built for this skeleton), else the error names the first missing one.
    pub fn new(rig: &ControlRig, skel: &Skeleton) -> Result<RigPoser> {
        let ev = Evaluator::new(rig)?;
        let mut bone = Vec::with_capacity(skel.len());
        for b in &skel.bones {
            bone.push(ev.find(&b.name).ok_or_else(|| {
                Error::invalid(
                    "control rig",
                    format!(
                        "no bone {:?}: the rig was built for another skeleton",
                        b.name
                    ),
                )
            })?);
        }
        let depth = depths(&ev);
        let mut pairs: Vec<(usize, usize, usize)> = Vec::new();
        for (k, &i) in bone.iter().enumerate() {
            if let Some(c) = control_of(rig, i) {
                pairs.push((depth[c], c, k));
            }
        }
        pairs.sort_unstable();
        let mut levels: Vec<Vec<(usize, usize)>> = Vec::new();
        let mut last = usize::MAX;
        for (d, c, k) in pairs {
            if d != last {
                levels.push(Vec::new());
                last = d;
            }
            levels.last_mut().expect("pushed").push((c, k));
        }
        let mut base = ev.rest_channels();
        for (j, p) in rig.properties.iter().enumerate() {
            if p.switch {
                base.props[j] = 0.0;
            }
        }
        Ok(RigPoser {
            ev,
            skel: skel.clone(),
            bone,
            levels,
            base,
        })
    }

    /// The skeleton's skinning matrices (`posed * rest^-1`, one per skeleton bone) when
    /// the rig is posed to `pose` (a pose of the skeleton).
    pub fn skinning(&self, pose: &Pose) -> Vec<Mat4> {
        let want = world_matrices(&self.skel, pose);
        let mut ch = self.base.clone();
        let mut out = Vec::new();
        let (parents, rest) = (self.ev.parents(), self.ev.rest());
        for level in &self.levels {
            self.ev.evaluate(&ch, &mut out);
            for &(c, k) in level {
                let frame = match parents[c] {
                    Some(p) => out[p] * rest[p].inverse() * rest[c],
                    None => rest[c],
                };
                ch.local[c] = frame.inverse() * want[k];
            }
        }
        self.ev.evaluate(&ch, &mut out);
        self.bone
            .iter()
            .map(|&i| out[i] * rest[i].inverse())
            .collect()
    }

    /// Posed positions (per part) and posed bones `(head, tail)` of `c` (the character
    /// whose skeleton this poser was made for) in `pose`, ready for a pose sheet.
    pub fn posed_character(
        &self,
        c: &Character,
        pose: &Pose,
        skinning: Skinning,
    ) -> (Vec<Vec<Vec3>>, Vec<(Vec3, Vec3)>) {
        let m = self.skinning(pose);
        let parts = c
            .parts
            .iter()
            .map(|p| match &p.weights {
                Some(w) => match skinning {
                    Skinning::Lbs => skin_lbs(&p.mesh.positions, w, &m),
                    Skinning::Dqs => skin_dqs(&p.mesh.positions, w, &m),
                },
                None => p.mesh.positions.clone(),
            })
            .collect();
        (parts, crate::pose::fk::posed_bones(&self.skel, &m))
    }

    /// The largest difference (positions in units of `h`) between the rig's and plain
    /// forward kinematics' skinning matrices for `pose`, over the skeleton bones that
    /// `keep` accepts (by index).
    pub fn difference_from_fk(&self, pose: &Pose, h: f32, keep: impl Fn(usize) -> bool) -> f32 {
        let fk = posed_matrices(&self.skel, pose);
        let rig = self.skinning(pose);
        (0..fk.len())
            .filter(|&k| keep(k))
            .map(|k| super::math::matrix_error(&fk[k], &rig[k], h))
            .fold(0.0, f32::max)
    }
}

/// The control a rig bone's pose comes from: its Copy Transforms target when that is a
/// control, or the target of that target's `FK` layer (an FK/IK limb's mechanism).
fn control_of(rig: &ControlRig, i: usize) -> Option<usize> {
    let copied = |i: usize, layer: Option<&str>| {
        rig.bones[i]
            .constraints
            .iter()
            .filter(|c| layer.is_none() || layer == Some(c.name.as_str()))
            .find_map(|c| match &c.kind {
                Kind::CopyTransforms { target, .. } => rig.find(target),
                _ => None,
            })
    };
    let t = copied(i, None)?;
    match rig.bones[t].role {
        BoneRole::Ctrl => Some(t),
        BoneRole::Mch => copied(t, Some("FK")).filter(|&f| rig.bones[f].role == BoneRole::Ctrl),
        _ => None,
    }
}

/// Each rig bone's place in the evaluator's dependency graph: the length of the longest
/// chain of bones it waits for (a parent, a constraint target, a driver's bone), so a
/// bone's posed frame is final once every bone of a lower number is posed.
fn depths(ev: &Evaluator) -> Vec<usize> {
    let n = ev.len();
    let edges = ev.edges();
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut indeg = vec![0usize; n];
    for &(a, b) in &edges {
        out[a].push(b);
        indeg[b] += 1;
    }
    let mut depth = vec![0usize; n];
    let mut ready: Vec<usize> = (0..n).filter(|&i| indeg[i] == 0).collect();
    while let Some(i) = ready.pop() {
        for &j in &out[i] {
            depth[j] = depth[j].max(depth[i] + 1);
            indeg[j] -= 1;
            if indeg[j] == 0 {
                ready.push(j);
            }
        }
    }
    depth
}
