//! Control sweeps: what the report's viewer moves when the file has a control rig.
//!
//! A [`ControlSweep`] is one control an animator moves (an FK/IK switch, a foot roll)
//! sampled at slider steps: at each step the control rig is evaluated
//! ([`Evaluator`]) and the deform bones' posed matrices are turned into a
//! [`Pose`] of the skeleton (rotations and translations, the forward kinematics of
//! [`crate::pose::fk`]), so the viewer poses it as it poses the review's library and
//! interpolates between steps. At a step the skeleton posed by the sweep skins exactly
//! as the evaluator's deform matrices do.
//!
//! The sweeps, on each side the rig has:
//!
//! | control | slider | the other controls |
//! |---|---|---|
//! | `arm_ik.L` | the switch, 0 (FK) .. 1 (IK), 5 steps | `hand_ik.L` moved 35 % of the way to the shoulder and a quarter arm forward, so IK bends the elbow; FK at rest |
//! | `leg_ik.L` | the switch, 0 (FK) .. 1 (IK), 5 steps | `foot_ik.L` lifted a quarter leg and moved a fifth leg forward (a step); FK at rest |
//! | `foot_roll.L` | `foot_roll.L` turned about its X axis, -40 .. 40 deg, 9 steps (heel on one side of 0, toe on the other) | the leg in IK, at rest |

use glam::{Mat4, Quat, Vec3};

use super::eval::Evaluator;
use super::model::{ControlPose, ControlRig, Transform};
use crate::error::{Error, Result};
use crate::model::naming::Side;
use crate::model::Skeleton;
use crate::pose::Pose;

/// One control the viewer gives a slider: its values at the steps and the skeleton's
/// pose at each.
#[derive(Debug, Clone, PartialEq)]
pub struct ControlSweep {
    /// The control (`arm_ik.L`, `leg_ik.R`, `foot_roll.L`).
    pub name: String,
    /// What the slider does, in words.
    pub what: String,
    /// The slider's values at the steps, increasing.
    pub values: Vec<f32>,
    /// The value shown first.
    pub default: f32,
    /// The skeleton's pose at each step (same length as `values`).
    pub poses: Vec<Pose>,
    /// The skeleton bone the control moves most (the hand, the foot): the one to look at.
    pub focus: usize,
    /// The side it is on.
    pub side: Side,
}

/// The control pose a sweep evaluates at `value`: the demonstration setting of the
/// other controls (see the module docs) and the control itself at `value`. `None` when
/// the rig lacks the bones or the property the control needs.
pub fn sweep_pose(rig: &ControlRig, name: &str, value: f32) -> Option<ControlPose> {
    let (kind, s) = name.split_at(name.find('.')?);
    let head = |b: &str| rig.bone(b).map(|b| b.head);
    let mut p = ControlPose::default();
    match kind {
        "arm_ik" | "leg_ik" => {
            rig.property(name)?;
            let (goal, root) = if kind == "arm_ik" {
                (format!("hand_ik{s}"), format!("upperarm_fk{s}"))
            } else {
                (format!("foot_ik{s}"), format!("thigh_fk{s}"))
            };
            let (g, r) = (head(&goal)?, head(&root)?);
            let len = (g - r).length();
            let world = if kind == "arm_ik" {
                0.35 * (r - g) + Vec3::Z * 0.25 * len
            } else {
                Vec3::new(0.0, 0.25 * len, 0.2 * len)
            };
            p.bones.insert(
                goal.clone(),
                Transform {
                    location: local_offset(rig, &goal, world)?,
                    ..Transform::default()
                },
            );
            p.props.insert(name.to_string(), value);
        }
        "foot_roll" => {
            rig.bone(name)?;
            p.bones.insert(
                name.to_string(),
                Transform {
                    rotation: Quat::from_rotation_x(value.to_radians()),
                    ..Transform::default()
                },
            );
            if rig.property(&format!("leg_ik{s}")).is_some() {
                p.props.insert(format!("leg_ik{s}"), 1.0);
            }
        }
        _ => return None,
    }
    Some(p)
}

/// A world offset as a bone's location channel (its rest frame; the bone's parents at
/// rest).
fn local_offset(rig: &ControlRig, bone: &str, world: Vec3) -> Option<Vec3> {
    let b = rig.bone(bone)?;
    let rest = b.as_bone().rest_matrix();
    Some(rest.inverse().transform_vector3(world))
}

/// The skeleton's pose whose forward kinematics gives, for every bone of `s` in the
/// rig, the skinning matrix `posed * rest^-1` the evaluator gives it (`posed`: the
/// evaluator's world matrices). Bones not in the rig follow their parent.
pub fn pose_of(ev: &Evaluator, s: &Skeleton, posed: &[Mat4]) -> Pose {
    let rest = s.rest_matrices();
    let mut world: Vec<Mat4> = Vec::with_capacity(s.len());
    let mut pose = Pose::rest(s);
    for (i, b) in s.bones.iter().enumerate() {
        let offset = match b.parent {
            Some(p) => world[p] * rest[p].inverse() * rest[i],
            None => rest[i],
        };
        let w = match ev.find(&b.name) {
            Some(k) => posed[k] * ev.rest()[k].inverse() * rest[i],
            None => offset,
        };
        let (_, q, t) = (offset.inverse() * w).to_scale_rotation_translation();
        pose.rotations[i] = q.normalize();
        pose.translations[i] = t;
        world.push(w);
    }
    pose
}

/// The sweeps a rig allows on skeleton `s` (see the module docs), in the order arm
/// switch, leg switch, foot roll, left then right. `focus` bones are found by the
/// roles of `s`. Errors: the rig cannot be evaluated (a missing name, a cycle).
pub fn sweeps(rig: &ControlRig, s: &Skeleton) -> Result<Vec<ControlSweep>> {
    let ev = Evaluator::new(rig)?;
    let roles = crate::humanoid::Roles::of(s, None);
    let mut out = Vec::new();
    let mut posed = Vec::new();
    for side in [Side::Left, Side::Right] {
        let l = side.letter();
        let specs = [
            (
                "arm_ik",
                crate::humanoid::Role::Hand(side),
                steps(0.0, 1.0, 5),
                0.0,
                "FK (0) to IK (1) with the IK hand moved toward the shoulder",
            ),
            (
                "leg_ik",
                crate::humanoid::Role::Foot(side),
                steps(0.0, 1.0, 5),
                1.0,
                "FK (0) to IK (1) with the IK foot lifted and forward",
            ),
            (
                "foot_roll",
                crate::humanoid::Role::Foot(side),
                steps(-40.0, 40.0, 9),
                0.0,
                "the foot roll, degrees about its X axis",
            ),
        ];
        for (kind, role, values, default, what) in specs {
            let name = format!("{kind}.{l}");
            let Some(focus) = roles.get(role) else {
                continue;
            };
            let mut poses = Vec::with_capacity(values.len());
            for &v in &values {
                let Some(cp) = sweep_pose(rig, &name, v) else {
                    break;
                };
                let ch = ev
                    .channels(&cp)
                    .map_err(|e| Error::invalid("control rig", format!("{name}: {e}")))?;
                ev.evaluate(&ch, &mut posed);
                poses.push(pose_of(&ev, s, &posed));
            }
            if poses.len() == values.len() {
                out.push(ControlSweep {
                    name,
                    what: what.to_string(),
                    values,
                    default,
                    poses,
                    focus,
                    side,
                });
            }
        }
    }
    Ok(out)
}

/// `n` evenly spaced values from `a` to `b`.
fn steps(a: f32, b: f32, n: usize) -> Vec<f32> {
    (0..n)
        .map(|k| a + (b - a) * k as f32 / (n - 1) as f32)
        .collect()
}
