//! On-face controls: one control bone drives opposing shape keys by axis and sign.
//!
//! A [`FaceControl`] sits on the face (at a mouth corner), moves only along its free
//! axes (every other channel locked), and carries a limit-location constraint in its
//! local space with *affect transform* on (the control itself stops at the limit, not
//! only its effect). Each [`ShapeKeyDriver`] reads one location channel and sets one key:
//! `value = clamp(sign x location / travel, 0, 1)`; `mouth_smile.L` on `+Y` and
//! `mouth_frown.L` on `-Y` (so the two are never both on). The right control mirrors
//! the left and drives only the right keys. The controls and their drivers are data:
//! they are written into the sidecar ([`crate::parts::Sidecar`]) and evaluated here
//! ([`FaceControl::evaluate`]) for the checks.

use glam::Vec3;
use serde::{Deserialize, Serialize};

/// One driver: a location channel of the control sets a shape key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShapeKeyDriver {
    /// The shape key driven.
    pub key: String,
    /// The channel read (`LOC_X`, `LOC_Y`, `LOC_Z`), in the control's local space.
    pub channel: String,
    /// +1 or -1: which way of the channel turns the key on.
    pub sign: f32,
    /// Location (metres) that gives the key 1.
    pub travel: f32,
}

/// A limit-location constraint in the control's local space.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LimitLocation {
    /// Lower bounds (metres) per axis X, Y, Z.
    pub min: [f32; 3],
    /// Upper bounds (metres) per axis X, Y, Z.
    pub max: [f32; 3],
    /// The constraint's space (`LOCAL`).
    pub space: String,
    /// Affect transform: the control itself is held inside the limit.
    pub affect_transform: bool,
}

/// An on-face control (see the module docs).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FaceControl {
    /// Control bone name (`SK-mouth_corner.L`).
    pub name: String,
    /// The bone it is parented to.
    pub parent: String,
    /// Head, metres, glTF space.
    pub head: [f32; 3],
    /// Tail, metres, glTF space.
    pub tail: [f32; 3],
    /// Locked channels (`LOC_X`, `LOC_Z`, `ROT_W`, `ROT_X`, `ROT_Y`, `ROT_Z`, `SCALE_X`,
    /// `SCALE_Y`, `SCALE_Z`).
    pub locked: Vec<String>,
    /// The limit-location constraint.
    pub limit: LimitLocation,
    /// The keys it drives.
    pub drivers: Vec<ShapeKeyDriver>,
}

const AXES: [&str; 3] = ["LOC_X", "LOC_Y", "LOC_Z"];

impl FaceControl {
    /// A control moving along local Y only, driving `plus` on +Y and `minus` on -Y,
    /// each reaching 1 at `travel` metres.
    pub fn up_down(
        name: &str,
        parent: &str,
        head: Vec3,
        tail: Vec3,
        plus: &str,
        minus: &str,
        travel: f32,
    ) -> FaceControl {
        let mut locked: Vec<String> = vec!["LOC_X".into(), "LOC_Z".into()];
        for c in [
            "ROT_W", "ROT_X", "ROT_Y", "ROT_Z", "SCALE_X", "SCALE_Y", "SCALE_Z",
        ] {
            locked.push(c.into());
        }
        FaceControl {
            name: name.into(),
            parent: parent.into(),
            head: head.to_array(),
            tail: tail.to_array(),
            locked,
            limit: LimitLocation {
                min: [0.0, -travel, 0.0],
                max: [0.0, travel, 0.0],
                space: "LOCAL".into(),
                affect_transform: true,
            },
            drivers: vec![
                ShapeKeyDriver {
                    key: plus.into(),
                    channel: "LOC_Y".into(),
                    sign: 1.0,
                    travel,
                },
                ShapeKeyDriver {
                    key: minus.into(),
                    channel: "LOC_Y".into(),
                    sign: -1.0,
                    travel,
                },
            ],
        }
    }

    /// The control's location after its locks and its limit (affect transform), for a
    /// requested local location `loc`.
    pub fn constrained(&self, loc: Vec3) -> Vec3 {
        let mut l = loc.to_array();
        for (k, ax) in AXES.iter().enumerate() {
            if self.locked.iter().any(|c| c == ax) {
                l[k] = 0.0;
            }
            if self.limit.affect_transform {
                l[k] = l[k].clamp(self.limit.min[k], self.limit.max[k]);
            }
        }
        Vec3::from_array(l)
    }

    /// The key values the control gives at requested local location `loc`: each
    /// driver's `clamp(sign x channel / travel, 0, 1)` on the constrained location.
    pub fn evaluate(&self, loc: Vec3) -> Vec<(String, f32)> {
        let l = self.constrained(loc).to_array();
        self.drivers
            .iter()
            .map(|d| {
                let k = AXES.iter().position(|a| *a == d.channel).unwrap_or(1);
                let v = if d.travel > 0.0 {
                    (d.sign * l[k] / d.travel).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                (d.key.clone(), v)
            })
            .collect()
    }
}
