//! The control rig: what an animator moves, on top of the fitted deform skeleton.
//!
//! * [`model`]: bones with roles (DEF deform, MCH mechanism, CTRL control, ORG
//!   reference), constraints (copy location / rotation / scale / transforms with spaces,
//!   mix modes and influence; damped track; stretch-to; limit rotation and location;
//!   IK with chain length, pole and pole angle; transformation; child-of), drivers
//!   (single property, rotation difference; sum, scale and clamp expressions) and the
//!   custom properties of a settings bone.
//! * [`eval`]: the evaluator: control transforms and properties in, the deform bones'
//!   world matrices out, through a dependency graph that refuses cycles.
//! * [`build`]: the generator for the humanoid templates (root, torso, FK/IK limbs on
//!   MCH chains with switches, solved pole angles, six-pivot foot roll, limb isolation,
//!   finger curl, twist follow, left and right by one code path).
//! * [`checks`]: the rig test suite (rubric B), each check with its limit.
//! * [`blender`]: the script that builds the same rig in Blender on the imported GLB.
//! * [`bake`]: control animation (JSON) -> deform-bone animation in the GLB.
//! * [`posing`]: a pose of the deform skeleton posed through the rig (the review sheets).
//!
//! ```
//! use glam::Vec3;
//! use rigsmith::control::model::*;
//! use rigsmith::control::eval::Evaluator;
//!
//! // A bone that copies another's transforms, its influence driven by a switch.
//! let bone = |name: &str, role| ControlBone {
//!     name: name.into(), role, parent: None, head: Vec3::ZERO, tail: Vec3::Y,
//!     x_axis: Vec3::X, deform: role == BoneRole::Def, constraints: vec![],
//!     ik_lock: [false; 3], widget: Widget::None,
//! };
//! let mut def = bone("arm", BoneRole::Def);
//! def.constraints.push(
//!     Constraint::new("follow", Kind::CopyTransforms { target: "ctrl".into(), mix: TransMix::Replace })
//!         .driven(Driver::prop("ctrl", "follow")),
//! );
//! let rig = ControlRig {
//!     height: 1.0, settings: "ctrl".into(),
//!     bones: vec![bone("ctrl", BoneRole::Ctrl), def],
//!     properties: vec![Property { bone: "ctrl".into(), name: "follow".into(), default: 1.0,
//!         min: 0.0, max: 1.0, switch: true, description: String::new() }],
//!     missing: vec![],
//! };
//! let ev = Evaluator::new(&rig)?;
//! let mut pose = ControlPose::default();
//! pose.bones.insert("ctrl".into(), Transform { location: Vec3::new(0.0, 0.0, 0.5), ..Default::default() });
//! let mut out = Vec::new();
//! ev.evaluate(&ev.channels(&pose)?, &mut out);
//! assert!((out[1].w_axis.z - 0.5).abs() < 1e-6);
//! # Ok::<(), rigsmith::Error>(())
//! ```

pub mod bake;
pub mod blender;
pub mod build;
pub mod checks;
pub mod eval;
pub mod math;
pub mod model;
pub mod posing;
pub mod sweep;

pub use build::build;
pub use checks::checks;
pub use eval::{Channels, Evaluator};
pub use model::{BoneRole, ControlBone, ControlPose, ControlRig, Transform};

#[cfg(test)]
mod eval_tests;
