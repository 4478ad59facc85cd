//! Pose operations, forward kinematics and skinning (LBS, DQS).
//!
//! A [`Pose`] holds, for every bone, a rotation and a translation on top of the rest
//! pose, expressed in the bone's own rest frame. You rarely write those numbers by
//! hand: the [`ops`] are written in world terms ("aim the upper arm down", "hinge the
//! forearm 120 deg toward the front", "rotate the head 60 deg about world Y"), so the
//! same pose works on a T-pose and an A-pose rig and on any naming. Bones are found by
//! role through [`crate::humanoid::Roles`].
//!
//! ```
//! use glam::Vec3;
//! use rigsmith::model::{Bone, Skeleton, Weights};
//! use rigsmith::pose::{ops, posed_matrices, skin_lbs, Pose};
//!
//! // A two-bone arm along +X, hinge axis about world Y... bent 90 deg about world Z.
//! let upper = Bone::new("upperarm_l", None, Vec3::ZERO, Vec3::X);
//! let lower = Bone::new("lowerarm_l", Some(0), Vec3::X, Vec3::new(2.0, 0.0, 0.0));
//! let s = Skeleton { bones: vec![upper, lower] };
//! let mut p = Pose::rest(&s);
//! ops::rotate_world(&s, &mut p, 1, Vec3::Z, 90.0);
//! let m = posed_matrices(&s, &p);
//! let w = Weights::rigid(1, 1);
//! let out = skin_lbs(&[Vec3::new(2.0, 0.0, 0.0)], &w, &m);
//! assert!((out[0] - Vec3::new(1.0, 1.0, 0.0)).length() < 1e-5);
//! ```
//!
//! Skinning matrices map rest positions to posed positions: `world_posed * rest^-1`.
//! [`skin_lbs`] blends them linearly (fast, collapses at twisted joints: the "candy
//! wrapper"); [`skin_dqs`] blends them as dual quaternions (keeps volume in twists,
//! bulges slightly in bends).

pub mod fk;
pub mod library;
pub mod ops;
pub mod quadruped;
pub mod skinning;

pub use fk::{posed_matrices, world_matrices, Pose};
pub use library::{default_library, NamedPose};
pub use skinning::{skin_dqs, skin_lbs};
