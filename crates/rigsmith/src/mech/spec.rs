//! A mechanical character as `rig` binds and reviews it: which islands move on their
//! own bones and which keyed actions drive them ([`MechSpec`], stored in the sidecar),
//! the binding ([`MechSpec::bind`]), the test poses ([`test_poses`]) and the review
//! ([`review`]: the rigid check in every test pose and the islands that
//! interpenetrate at rest, as notes).

use glam::Vec3;
use serde::{Deserialize, Serialize};

use super::{bind_islands, rest_overlaps, rigid_check, Action, IslandStrain, OwnBone};
use crate::error::{Error, Result};
use crate::model::{Character, Skeleton, Weights};
use crate::pose::library::NamedPose;
use crate::pose::{ops, Pose};
use crate::report::Check;
use crate::Side;

/// An island bound to a bone of its own: a plate, a visor, a piston that moves on its
/// own. Parts by name, so the sidecar reads on the written file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OwnIsland {
    /// The part's name.
    pub part: String,
    /// The island's number within the part ([`super::islands`]).
    pub island: usize,
    /// The bone it rides.
    pub bone: String,
}

/// A mechanical character's rig data, stored in the sidecar's `mech`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MechSpec {
    /// The islands on their own bones; every other island rides the nearest deform bone.
    pub own: Vec<OwnIsland>,
    /// Keyed actions: one control's travel drives several parts.
    pub actions: Vec<Action>,
}

/// How far a test pose bends each deform bone, degrees.
pub const TEST_BEND_DEG: f32 = 45.0;

impl MechSpec {
    /// The spec of `own` (part indices of `c`) and `actions`.
    pub fn of(c: &Character, own: &[OwnBone], actions: Vec<Action>) -> MechSpec {
        MechSpec {
            own: own
                .iter()
                .filter_map(|(p, i, b)| {
                    Some(OwnIsland {
                        part: c.parts.get(*p)?.name.clone(),
                        island: *i,
                        bone: b.clone(),
                    })
                })
                .collect(),
            actions,
        }
    }

    /// Checks that every part and bone it names is in `c` and `s`, naming the first
    /// that is not.
    pub fn check(&self, c: &Character, s: &Skeleton) -> Result<()> {
        for (k, o) in self.own.iter().enumerate() {
            if c.find_part(&o.part).is_none() {
                return Err(Error::invalid(
                    format!("mech.own[{k}].part"),
                    format!("no part named {:?}", o.part),
                ));
            }
            if s.find(&o.bone).is_none() {
                return Err(Error::invalid(
                    format!("mech.own[{k}].bone"),
                    format!("no bone named {:?}", o.bone),
                ));
            }
        }
        for (k, a) in self.actions.iter().enumerate() {
            for (j, key) in a.keys.iter().enumerate() {
                if s.find(&key.bone).is_none() {
                    return Err(Error::invalid(
                        format!("mech.actions[{k}].keys[{j}].bone"),
                        format!("no bone named {:?}", key.bone),
                    ));
                }
            }
            if !(a.travel.is_finite() && a.travel > 0.0) {
                return Err(Error::invalid(
                    format!("mech.actions[{k}].travel"),
                    format!("{}: expected a positive travel", a.travel),
                ));
            }
        }
        Ok(())
    }

    /// Every part's weights: each island on one bone at 1.0 ([`bind_islands`]).
    pub fn bind(&self, c: &Character, s: &Skeleton) -> Vec<Weights> {
        let own: Vec<OwnBone> = self
            .own
            .iter()
            .filter_map(|o| Some((c.find_part(&o.part)?, o.island, o.bone.clone())))
            .collect();
        bind_islands(c, s, &own)
    }
}

/// The test poses of a mechanical rig: each deform bone that has a parent bent
/// [`TEST_BEND_DEG`] about its hinge (its local X) on its own (`bend.<bone>`), and
/// each action at half and full travel (`<action>_half`, `<action>_full`).
pub fn test_poses(s: &Skeleton, actions: &[Action]) -> Vec<NamedPose> {
    let np = |name: String, pose: Pose| NamedPose {
        name,
        pose,
        side: Side::Center,
        tests: vec![],
        planted: vec![],
    };
    let mut out = Vec::new();
    for (i, b) in s.bones.iter().enumerate() {
        if !b.deform || b.parent.is_none() {
            continue;
        }
        let mut p = Pose::rest(s);
        let axis = b.x_axis.try_normalize().unwrap_or(Vec3::X);
        ops::rotate_world(s, &mut p, i, axis, TEST_BEND_DEG);
        out.push(np(format!("bend.{}", b.name), p));
    }
    for a in actions {
        for (tag, f) in [("half", 0.5), ("full", 1.0)] {
            let mut p = Pose::rest(s);
            a.apply(s, &mut p, f * a.travel);
            out.push(np(format!("{}_{tag}", a.name), p));
        }
    }
    out
}

/// The review of a mechanical rig: `mech.rigid` over [`test_poses`], the islands
/// worst first, and the islands that interpenetrate at rest as notes (never a
/// failure).
pub fn review(
    c: &Character,
    s: &Skeleton,
    spec: &MechSpec,
) -> (Check, Vec<IslandStrain>, Vec<String>) {
    let poses = test_poses(s, &spec.actions);
    let (check, per) = rigid_check(c, s, &poses);
    let notes = rest_overlaps(c)
        .into_iter()
        .map(|n| format!("islands interpenetrate at rest: {n}"))
        .collect();
    (check, per, notes)
}
