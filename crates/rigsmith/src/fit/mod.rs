//! Skeleton fitting: model check, cross-sections, landmarks, placement checks.
//!
//! The stage takes an unrigged humanoid [`Character`](crate::Character) (one body part,
//! maybe eyes, garments and hair as other parts) and places a named skeleton the way a
//! rigger places a metarig:
//!
//! 1. [`model_check`] reports what would break rigging (height, floor, centring, facing,
//!    symmetry, parts left behind); [`fix_model`] moves all parts together.
//! 2. [`cross_sections`] cuts the body with planes and splits each cut into loops by
//!    topology.
//! 3. [`find_landmarks`] finds crotch, hips, knees, ankles, feet, spine, neck, head,
//!    clavicles, shoulders, elbows, wrists, finger chains and face points, each with its
//!    method and confidence.
//! 4. [`fit`] writes the joints as a [`Template`] (`game`, `basic`, `mixamo`, `vrm`) with
//!    pre-bent knees and elbows, hinges on local X and exact left/right symmetry.
//! 5. [`placement_checks`] judges any skeleton against the body (rubric A).
//!
//! ```no_run
//! # fn demo(c: &rigsmith::Character) -> rigsmith::Result<()> {
//! use rigsmith::fit::{fit, FitOptions, Template};
//! let r = fit(c, &FitOptions { template: Template::Game, ..Default::default() })?;
//! assert!(r.checks.iter().all(|k| k.passed || k.severity != rigsmith::Severity::Blocker));
//! println!("{} bones, pelvis at {:?}", r.skeleton.len(), r.landmarks.get("pelvis"));
//! # Ok(()) }
//! ```
//!
//! All measures are in units of the body height `H`: the same body scaled by 0.3 or
//! 100 fits the same skeleton, scaled.

mod fitting;
mod landmarks;
mod limb_bend;
mod model_check;
pub mod placement;
pub mod quadruped;
mod sections;
mod solid;

/// The naming scheme of [`FitOptions::template`] (defined with the other name maps in
/// [`crate::humanoid`]).
pub use crate::humanoid::Template;
pub use fitting::{fit, FitOptions, FitResult, DEFAULT_BEND_DEG, MAX_BEND_DEG, MIN_BEND_DEG};
pub(crate) use landmarks::says_eye;
pub use landmarks::{find_landmarks, Landmark, LandmarkOptions, Landmarks, FINGERS};
pub use limb_bend::{bend_angle, modelled_bend};
pub use model_check::{
    facing_from_knees, fix_model, model_check, scale_to_height, ModelReport, Problem, FACING_MIN_H,
    MODEL_TOL_H,
};
pub use placement::{
    chain_child, landmark_checks, placement_checks, DISJOINT_TOL_H, FOLLOW_TOL_DEG, STRAIGHT_DEG,
};
pub use sections::{cross_sections, Loop, Slicer};
