//! Corrective shapes as an engine plays them: the driver of each (the angle between
//! two bones through a late ramp) and the morph targets added to the rest positions
//! before skinning. The review builds and judges them
//! ([`crate::review::correctives`]); the sidecar keeps the drivers.

use glam::Vec3;
use serde::{Deserialize, Serialize};

use crate::model::naming::Side;
use crate::model::Skeleton;
use crate::pose::{posed_matrices, Pose};

/// The driver of a corrective: the angle between the Y axes of bones `a` and `b`,
/// mapped through the ramp. A ball joint (the shoulder, the hip) swings in every
/// direction, so its drivers carry a `toward` direction: the angle is then how far
/// `b`'s axis has come toward that direction (given in the rest frame, carried by `a`)
/// from its rest direction, 0 when it moved away; the arm raised and the arm lowered
/// drive two different shapes. A turn (the head turning on the neck) swings no axis,
/// so its drivers carry a `twist` axis instead: the angle is how far `b` has turned
/// about that axis relative to `a`, 0 when it turned the other way; the head turned
/// left and turned right drive two different shapes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CorrectiveDriver {
    /// The proximal bone (`upperarm_l`).
    pub a: String,
    /// The distal bone (`lowerarm_l`).
    pub b: String,
    /// 0 at or below this angle, degrees.
    pub from_deg: f32,
    /// 1 at or above this angle, degrees.
    pub to_deg: f32,
    /// For a ball joint: the direction `b`'s axis swings toward (unit, rest frame,
    /// carried by `a`); `None` for a hinge (the plain angle between the two axes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub toward: Option<[f32; 3]>,
    /// For a turn: the axis `b` turns about (unit, rest frame), signed so that the
    /// turn that drives the shape is positive about it; `None` for a swing or a hinge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub twist: Option<[f32; 3]>,
}

impl CorrectiveDriver {
    /// The ramp at angle `deg`: smoothstep between the keys, constant outside.
    pub fn ramp(&self, deg: f32) -> f32 {
        let span = self.to_deg - self.from_deg;
        if span.abs() < 1e-6 {
            return if deg >= self.to_deg { 1.0 } else { 0.0 };
        }
        let x = ((deg - self.from_deg) / span).clamp(0.0, 1.0);
        x * x * (3.0 - 2.0 * x)
    }

    /// The angle between the two bones' axes in `pose`, degrees; `None` when a bone is
    /// missing.
    pub fn angle(&self, s: &Skeleton, pose: &Pose) -> Option<f32> {
        let (a, b) = (s.find(&self.a)?, s.find(&self.b)?);
        let m = posed_matrices(s, pose);
        let yb = m[b]
            .transform_vector3(s.bones[b].y_axis())
            .normalize_or_zero();
        let deg = |u: Vec3, v: Vec3| u.dot(v).clamp(-1.0, 1.0).acos().to_degrees();
        if let Some(axis) = self.twist {
            return Some(turn_about(m[a], m[b], Vec3::from(axis)).max(0.0));
        }
        match self.toward {
            None => {
                let ya = m[a]
                    .transform_vector3(s.bones[a].y_axis())
                    .normalize_or_zero();
                Some(deg(ya, yb))
            }
            Some(t) => {
                let t = m[a].transform_vector3(Vec3::from(t)).normalize_or_zero();
                let rest = m[a]
                    .transform_vector3(s.bones[b].y_axis())
                    .normalize_or_zero();
                Some((deg(rest, t) - deg(yb, t)).max(0.0))
            }
        }
    }

    /// The corrective's weight in `pose` (0 when a bone is missing).
    pub fn value(&self, s: &Skeleton, pose: &Pose) -> f32 {
        self.angle(s, pose).map_or(0.0, |d| self.ramp(d))
    }
}

/// How far (degrees, signed) the skinning matrix `mb` has turned about `axis` (unit,
/// rest frame) relative to `ma`: the twist of their relative rotation about it (its
/// swing about any other axis left out).
pub fn turn_about(ma: glam::Mat4, mb: glam::Mat4, axis: Vec3) -> f32 {
    let (_, ra, _) = ma.to_scale_rotation_translation();
    let (_, rb, _) = mb.to_scale_rotation_translation();
    let mut q = (ra.inverse() * rb).normalize();
    if q.w < 0.0 {
        q = -q;
    }
    let along = glam::Vec3::new(q.x, q.y, q.z).dot(axis.normalize_or_zero());
    2.0 * along.atan2(q.w).to_degrees()
}

/// The start of every corrective's morph target name (`CS_elbow_l`): what tells a
/// corrective from the other morph targets of a skin read from a file.
pub const NAME_PREFIX: &str = "CS_";

/// Whether a morph target named `name` is a corrective ([`NAME_PREFIX`]).
pub fn is_corrective(name: &str) -> bool {
    name.starts_with(NAME_PREFIX)
}

/// One corrective, as the sidecar stores it (its offsets are the skin parts' morph
/// target of the same name).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Corrective {
    /// The morph target's name (`CS_elbow_l`).
    pub name: String,
    /// The joint it restores (`elbow.L`).
    pub joint: String,
    /// The pose it was built in (`elbow_120.L`).
    pub pose: String,
    /// Its side.
    pub side: Side,
    /// Its driver.
    pub driver: CorrectiveDriver,
}

/// The rest positions of `part` with every corrective of `list` applied at its
/// driver's value in `pose` (the morph targets added before skinning, as an engine
/// does).
pub fn morphed_rest(
    part: &crate::model::Part,
    s: &Skeleton,
    list: &[Corrective],
    pose: &Pose,
) -> Option<Vec<Vec3>> {
    let mut out: Option<Vec<Vec3>> = None;
    for k in list {
        let Some(mt) = part.morphs.iter().find(|m| m.name == k.name) else {
            continue;
        };
        let wgt = k.driver.value(s, pose);
        if wgt <= 0.0 {
            continue;
        }
        let pts = out.get_or_insert_with(|| part.mesh.positions.clone());
        for (p, d) in pts.iter_mut().zip(&mt.position_deltas) {
            *p += wgt * *d;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Mat4, Quat};

    #[test]
    fn a_turn_is_read_about_its_axis_signed_and_without_the_swing() {
        let rot = |axis: Vec3, deg: f32| {
            Mat4::from_quat(Quat::from_axis_angle(axis.normalize(), deg.to_radians()))
        };
        let a = rot(Vec3::X, 25.0);
        // b turned 50 deg about Y on top of a's rotation (in the rest frame).
        let b = a * rot(Vec3::Y, 50.0);
        assert!((turn_about(a, b, Vec3::Y) - 50.0).abs() < 1e-3);
        assert!((turn_about(a, b, Vec3::NEG_Y) + 50.0).abs() < 1e-3);
        // A pure swing (a nod about X) turns nothing about Y.
        assert!(turn_about(a, a * rot(Vec3::X, 30.0), Vec3::Y).abs() < 1e-3);
        // A turn with a swing keeps the turn's sign and most of its size.
        let both = turn_about(a, a * rot(Vec3::X, 20.0) * rot(Vec3::Y, 40.0), Vec3::Y);
        assert!(both > 35.0 && both < 45.0, "{both}");
    }
}
