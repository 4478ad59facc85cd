//! Procedural body motion to drive the spring solver: walk, run, jump and spin.
//!
//! A [`MotionPose`] is a whole-body transform (`root`) plus, per bone, a rotation about
//! the bone's head expressed in world-rest axes. Skinning matrices follow as
//! `S_i = S_parent * T(head_i) * R_i * T(-head_i)`, with `S_parent = root` for root
//! bones; `S_i` maps a rest position to its posed position, so a bone's posed world
//! transform is `S_i * rest_matrix_i`.
//!
//! The gaits move the thighs and shins (hinge about world X: a negative angle swings
//! the leg forward, +Z), swing the arms against the legs, bob the hips and carry the
//! body forward; jump crouches, flies a ballistic arc and lands; spin turns the body
//! about the vertical through the hips at one turn per second. Walk and run ease in
//! over their first half second, as a body starts moving. Speeds and heights are
//! in units of the body height H (the run carries the body 2.5 H per second).

use glam::{Mat4, Quat, Vec3};
use serde::{Deserialize, Serialize};

use crate::humanoid::Roles;
use crate::model::Skeleton;

/// A procedural motion.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Motion {
    /// Standing still (the rest pose): the springs settle.
    Rest,
    /// A walk: 1.1 s cycle, thighs +-25 deg, forward 0.8 H/s.
    Walk,
    /// A run: 0.7 s cycle, thighs +-45 deg, knees to 90 deg, forward 2.5 H/s.
    Run,
    /// A jump every 1.6 s: crouch, ballistic flight 0.26 H high, landing.
    Jump,
    /// A spin about the vertical: ramps to one turn per second over 0.5 s.
    Spin,
    /// The hips sway: yaw 0.8 sin(2 pi t) rad about the vertical through their head,
    /// and a slide along X of 0.01 cos(2 pi k / 60) m added at every 60 Hz step k (not
    /// scaled by H). The motion `scripts/three-vrm-load.mjs` plays in
    /// `@pixiv/three-vrm`, to compare the runtimes.
    Sway,
    /// A glTF animation drives the body ([`super::simulate_driven`]); as a procedural
    /// motion it is the rest pose.
    Animation,
}

impl Motion {
    /// All moving motions, in report order.
    pub const ALL: [Motion; 4] = [Motion::Walk, Motion::Run, Motion::Jump, Motion::Spin];

    /// Parses `walk`, `run`, `jump`, `spin`, `rest`, `sway`.
    pub fn parse(s: &str) -> Option<Motion> {
        Some(match s.to_ascii_lowercase().as_str() {
            "rest" => Motion::Rest,
            "walk" => Motion::Walk,
            "run" => Motion::Run,
            "jump" => Motion::Jump,
            "spin" => Motion::Spin,
            "sway" => Motion::Sway,
            _ => return None,
        })
    }

    /// The lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Motion::Rest => "rest",
            Motion::Walk => "walk",
            Motion::Run => "run",
            Motion::Jump => "jump",
            Motion::Spin => "spin",
            Motion::Sway => "sway",
            Motion::Animation => "animation",
        }
    }

    /// The pose at time `t` seconds for a body of height `h`.
    pub fn pose(self, skel: &Skeleton, roles: &Roles, h: f32, t: f32) -> MotionPose {
        let n = skel.len();
        let mut p = MotionPose {
            root: Mat4::IDENTITY,
            rotations: vec![Quat::IDENTITY; n],
        };
        let hips_c = roles
            .hips
            .map(|i| skel.bones[i].head)
            .unwrap_or_else(|| skel.bones.first().map_or(Vec3::ZERO, |b| b.head));
        let rx = |deg: f32| Quat::from_rotation_x(deg.to_radians());
        let mut set = |bone: Option<usize>, q: Quat| {
            if let Some(i) = bone {
                p.rotations[i] = q;
            }
        };
        // Gaits ease in over RAMP seconds (amplitude and speed), as a body starts moving.
        const RAMP: f32 = 0.5;
        let amp = (t / RAMP).min(1.0);
        let dist = if t < RAMP {
            t * t / (2.0 * RAMP)
        } else {
            t - 0.5 * RAMP
        };
        let gait =
            |period: f32, thigh: f32, knee: f32, arm: f32, bob: f32, speed: f32, lean: f32| {
                let ph = std::f32::consts::TAU * t / period;
                let s = ph.sin();
                let legs = [
                    (
                        -thigh * amp * s,
                        amp * knee * (0.5 + 0.5 * (ph - 1.2).sin()).max(0.0),
                    ),
                    (
                        thigh * amp * s,
                        amp * knee * (0.5 - 0.5 * (ph - 1.2).sin()).max(0.0),
                    ),
                ];
                let arms = [arm * amp * s, -arm * amp * s];
                let root = Mat4::from_translation(Vec3::new(
                    0.0,
                    amp * bob * h * (2.0 * ph).cos().abs(),
                    speed * h * dist,
                )) * Mat4::from_rotation_translation(Quat::IDENTITY, hips_c)
                    * Mat4::from_quat(Quat::from_rotation_y((4.0f32 * amp * s).to_radians()))
                    * Mat4::from_translation(-hips_c);
                (legs, arms, root, lean * amp)
            };
        match self {
            Motion::Rest | Motion::Animation => {}
            Motion::Walk | Motion::Run => {
                let (legs, arms, root, lean) = if self == Motion::Walk {
                    gait(1.1, 25.0, 40.0, 15.0, 0.01, 0.8, 0.0)
                } else {
                    gait(0.7, 45.0, 90.0, 35.0, 0.03, 2.5, 10.0)
                };
                p.root = root;
                for k in 0..2 {
                    set(roles.upper_leg[k], rx(legs[k].0));
                    set(roles.lower_leg[k], rx(legs[k].1));
                    set(roles.upper_arm[k], rx(arms[k]));
                }
                set(roles.spine, rx(lean));
            }
            Motion::Jump => {
                let g = 9.81 / 1.7; // H/s^2
                let c = t.rem_euclid(1.6);
                let ease = |x: f32| x * x * (3.0 - 2.0 * x);
                // crouch amount 0..1 and height above ground (H)
                let (crouch, y) = if c < 0.4 {
                    (ease(c / 0.4), 0.0)
                } else if c < 0.5 {
                    (1.0 - ease((c - 0.4) / 0.1), 0.0)
                } else if c < 1.1 {
                    let tt = c - 0.5;
                    (0.0, 0.3 * g * tt - 0.5 * g * tt * tt)
                } else if c < 1.3 {
                    (ease((c - 1.1) / 0.2), 0.0)
                } else {
                    (1.0 - ease((c - 1.3) / 0.3), 0.0)
                };
                let tuck = if (0.5..1.1).contains(&c) {
                    ((c - 0.5) / 0.6 * std::f32::consts::PI).sin()
                } else {
                    0.0
                };
                p.root = Mat4::from_translation(Vec3::new(0.0, (y - 0.08 * crouch) * h, 0.0));
                for k in 0..2 {
                    set(roles.upper_leg[k], rx(-55.0 * crouch - 30.0 * tuck));
                    set(roles.lower_leg[k], rx(100.0 * crouch + 50.0 * tuck));
                    set(roles.upper_arm[k], rx(30.0 * crouch - 60.0 * tuck));
                }
                set(roles.spine, rx(25.0 * crouch));
            }
            Motion::Sway => {
                let tau = std::f32::consts::TAU;
                let steps = (t * 60.0).round() as usize;
                let dx: f32 = (1..=steps)
                    .map(|k| 0.01 * (tau * k as f32 / 60.0).cos())
                    .sum();
                p.root = Mat4::from_translation(Vec3::X * dx);
                set(roles.hips, Quat::from_rotation_y(0.8 * (tau * t).sin()));
            }
            Motion::Spin => {
                let w = std::f32::consts::TAU; // rad/s at full speed
                let angle = if t < 0.5 {
                    w * t * t / 1.0
                } else {
                    w * (t - 0.25)
                };
                p.root = Mat4::from_translation(hips_c)
                    * Mat4::from_quat(Quat::from_rotation_y(angle))
                    * Mat4::from_translation(-hips_c);
            }
        }
        p
    }
}

/// A body pose: a root transform and per-bone rotations about each bone's head in
/// world-rest axes (identity = rest).
#[derive(Debug, Clone, PartialEq)]
pub struct MotionPose {
    /// Whole-body transform applied above the skeleton's roots.
    pub root: Mat4,
    /// One rotation per bone.
    pub rotations: Vec<Quat>,
}

impl MotionPose {
    /// Skinning matrices (rest -> posed), one per bone, parents first.
    pub fn skinning(&self, skel: &Skeleton) -> Vec<Mat4> {
        let mut s: Vec<Mat4> = Vec::with_capacity(skel.len());
        for (i, b) in skel.bones.iter().enumerate() {
            let parent = b.parent.map_or(self.root, |p| s[p]);
            let q = self.rotations.get(i).copied().unwrap_or(Quat::IDENTITY);
            let local = if q == Quat::IDENTITY {
                Mat4::IDENTITY
            } else {
                Mat4::from_translation(b.head)
                    * Mat4::from_quat(q)
                    * Mat4::from_translation(-b.head)
            };
            s.push(parent * local);
        }
        s
    }
}
