//! # rigsmith
//!
//! A headless character-rigging toolkit. Data flows one way:
//!
//! ```text
//! io -> model -> fit -> bind -> pose/review -> io (export)
//! ```
//!
//! * [`model`]: the plain data every stage exchanges: [`model::Character`] (separate
//!   parts, never joined), [`model::Mesh`], [`model::Skeleton`], sparse [`model::Weights`].
//! * [`humanoid`]: which bone is what: name maps, structure, the VRM bone table, roles.
//! * [`io`]: glTF/GLB, VRM, OBJ, `skeleton.json` and the MakeHuman (MPFB2) corpus.
//! * [`fit`]: model check, cross-sections, landmarks, templates, skeleton fitting.
//! * [`bind`]: skin weights (bone heat, volumetric fallback, garments, rigid parts, cleanup).
//! * [`pose`]: pose operations, forward kinematics, skinning.
//! * [`review`]: test poses, deformation numbers, the rubric check.
//! * [`parts`]: surface classes, cloth and hair chains, colliders, springs, the sidecar.
//! * [`geom`]: the triangle BVH shared by the stages.
//! * [`mannequin`]: the built-in procedural test character.
//!
//! ## Conventions
//! glTF space everywhere: metres, +Y up, the character faces +Z, its left side is +X.
//! No algorithm depends on absolute size: work in units of the body height.
//! A stage takes plain data and returns plain data plus a report; it never reads files
//! (except [`io`]) and never prints.

pub mod bind;
pub mod error;
pub mod fit;
pub mod geom;
pub mod humanoid;
pub mod inspect;
pub mod io;
pub mod mannequin;
pub mod model;
pub mod parts;
pub mod pipeline;
pub mod pose;
pub mod report;
pub mod review;

pub use error::{Error, Result};
pub use model::{Bone, Character, Influence, Mesh, MorphTarget, Part, Side, Skeleton, Weights};
pub use report::{Check, Counts, Severity};
