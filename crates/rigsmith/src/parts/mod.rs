//! Separate parts and secondary motion: surface classes, cloth and hair chains,
//! measured colliders, the spring solver and the `.rig.json` sidecar.
//!
//! An anime-style character is body, face, hair and each garment as SEPARATE named
//! parts. This module acts on that separation:
//!
//! 1. [`chains_from_skeleton`] finds the cosmetic bone chains of a rigged model (hair,
//!    skirt, ribbon... matched on whole name tokens) and measures, per bone, where it
//!    points (`tips`), a sample of the geometry it drives (`hulls`) and which other
//!    chains share vertices with it (`neighbours`).
//! 2. [`build_chains`] gives an unrigged skirt a radial grid of chains and each hair lock
//!    a chain of 2 to 4 bones from the scalp, with weights from those chains only; an
//!    artist's skirt chains with too few panels or segments are extended to that grid,
//!    their own bones kept.
//! 3. [`surface_classes`] tags every material (skin, face, eye, hair, cloth, line-work,
//!    other) from its name, then the chain weights, then its flags.
//! 4. [`measure_colliders`] measures capsules on thighs and shins, a waist lid, and
//!    spheres/capsules on head, neck and chest from the body's own cross-sections.
//! 5. [`rule_checks`] checks the three rules (cloth parents only to the trunk, is never
//!    skinned to a leg, carries no animation tracks) and the joined-garment symptom.
//! 6. [`simulate`] drives the body with a procedural [`Motion`] and runs the VRM 1.0
//!    spring-bone model plus sideways links between skirt panels, reporting the worst
//!    collider penetration, skirt joints between the legs, hair in the head, stability.
//! 7. [`Sidecar`] is the `.rig.json` file holding all of it (schema in `docs/sidecar.md`).
//!
//! ```no_run
//! use rigsmith::parts;
//! # fn demo(mut c: rigsmith::Character) -> rigsmith::Result<()> {
//! let chains = parts::build_chains(&mut c, &parts::ChainOptions::default())?;
//! let colliders = parts::measure_colliders(&c);
//! let sidecar = parts::Sidecar::build(&c, &chains, &colliders);
//! let report = parts::simulate(&c, &sidecar, parts::Motion::Walk, 2.0)?;
//! assert!(report.stable);
//! # Ok(()) }
//! ```
//!
//! Everything is measured in units of the body height H, so a 0.5 m figure and a
//! figure in centimetres behave like a 1.8 m one.

pub mod animal;
mod chain_build;
mod chains;
mod colliders;
pub mod face_controls;
mod leg_gap;
mod motion;
mod rest_clearance;
mod rules;
mod sidecar;
mod simulate;
mod skirt_extend;
mod springs;
mod surfaces;
pub mod vrm_face;
pub mod vrm_write;

pub use chain_build::{hang_cloth_from_trunk, ChainOptions, SKIRT_WAIST};
pub use chains::{chains_from_skeleton, is_spring_class, Chain, FACE_CLASSES, SPRING_CLASSES};
pub use colliders::{measure_colliders, Collider, ColliderShape};
pub use leg_gap::{LegWeb, LEG_UPRIGHT_COS, WEB_THICKNESS};
pub use motion::{Motion, MotionPose};
pub use rest_clearance::{clear_rest_pose, MIN_SHRINK, REST_MARGIN};
pub use rules::rule_checks;
pub use sidecar::{
    sidecar_path, Link, PartInfo, Sidecar, SourceFacts, SpringParams, SIDECAR_VERSION,
};
pub use simulate::{
    simulate, simulate_driven, simulate_frames, simulate_model, spring_system, FrameCollider,
    SimFrame, SimReport, SpringModel, STEPS_PER_SECOND,
};
pub use springs::{LinkIndex, SpringJoint, SpringSystem};
pub(crate) use surfaces::{hip_height, is_loose_garment};
pub use surfaces::{surface_classes, SurfaceClass};

/// Re-hangs cloth chains found under a limb from the trunk ([`hang_cloth_from_trunk`]),
/// extends an artist's skirt chains that fall short of the radial grid
/// (`parts/skirt_extend.rs`: missing panels and segments added, the artist's bones
/// kept), adds chains and their weights for every unrigged
/// skirt-like garment and hair part, then returns ALL chains of the character
/// ([`chains_from_skeleton`]).
///
/// Errors when there is no skeleton, or when a skirt needs hips / hair needs a head and
/// the skeleton has none.
pub fn build_chains(
    c: &mut crate::model::Character,
    opts: &ChainOptions,
) -> crate::error::Result<Vec<Chain>> {
    chain_build::build_chains_with(c, opts, skirt_extend::extend_skirt)
}
