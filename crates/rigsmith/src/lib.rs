//! # rigsmith
//!
//! A headless character-rigging toolkit: give it a character mesh and it returns a
//! game-ready rig it has checked. Data flows one way:
//!
//! ```text
//!  file ──io::read_character──▶ Character (model)            parts kept separate
//!                                  │ Character::body(): skin parts, height H
//!                                  ▼
//!                  fit::model_check / fix_model               floor, centre, facing
//!                                  ▼
//!                  fit::fit ──▶ Skeleton + placement checks    landmarks → template
//!                                  ▼
//!                  bind::bind ──▶ Weights per part + report    bone heat / volumetric
//!                                  ▼
//!                  parts::build_chains, measure_colliders      skirts, hair, Sidecar
//!                                  ▼
//!                  review::check (pose library, rubric)        CheckReport
//!                                  ▼
//!  file ◀──io::write_character / vrm_write── RigOutput         rig, sidecar, report
//! ```
//!
//! [`rig`] runs the whole flow and returns everything a user writes ([`RigOutput`]:
//! the rigged character, its sidecar, the review, the chains); [`RigOptions`] selects
//! the template, what to do with an already rigged input ([`Rigged`]) and which stages
//! run. Each stage is also a function of its own, shown below.
//!
//! ## The modules, in dependency order
//!
//! A module only uses the ones above it (`docs/architecture.md` has the full map and
//! says where a new check, template or file format goes):
//!
//! * [`error`], [`report`]: the error type ([`Error`], [`ErrorKind`]) and [`Check`].
//! * [`geom`]: BVH, spatial hash grid, segments, welding.
//! * [`model`]: the plain data every stage exchanges: [`Character`] (separate parts,
//!   never joined) and its [`model::Body`], [`Mesh`], [`Skeleton`], sparse [`Weights`].
//! * [`humanoid`]: which bone is what: name maps, structure, the VRM bone table, roles.
//! * [`io`]: glTF/GLB, VRM, OBJ, FBX, `skeleton.json` and the MakeHuman (MPFB2) corpus.
//! * [`pose`]: pose operations, forward kinematics, skinning.
//! * [`deform`]: deformation fixes an engine plays: twist rules and twist-chain
//!   weights, the preserve-volume (DQS blend) mask, corrective drivers.
//! * [`bind`]: skin weights (bone heat, volumetric fallback, garments, rigid parts,
//!   cleanup) and the weight checks.
//! * [`fit`]: model check, cross-sections, landmarks, templates, skeleton fitting,
//!   placement checks.
//! * [`mech`], [`mannequin`]: mechanical characters (rigid islands on their own bones);
//!   the built-in test characters.
//! * [`control`]: the control rig an animator moves, its evaluator and checks.
//! * [`inspect`]: the quick look at a model.
//! * [`parts`]: surface classes, cloth and hair chains, colliders, springs, the sidecar,
//!   the VRM writer.
//! * [`review`]: test poses, deformation numbers, the rubric check, the HTML report.
//! * [`face`]: jaw, eyes and lids, face weights, expression keys, face checks.
//! * [`pipeline`]: the one orchestrator, [`rig`].
//!
//! ## One example per stage
//!
//! **The whole job** ([`pipeline`]):
//!
//! ```no_run
//! let c = rigsmith::io::read_character("body.glb".as_ref())?;
//! let out = rigsmith::rig(&c, &rigsmith::RigOptions::default(), &mut |_, _| {})?;
//! let wo = rigsmith::io::gltf::WriteOptions::default();
//! rigsmith::io::write_character("rigged.glb".as_ref(), &out.character, &wo)?;
//! std::fs::write("rigged.rig.json", out.sidecar.to_string())?;
//! println!("{} blockers", out.counts().blocker);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! **Reading and the body** ([`io`], [`model`]):
//!
//! ```no_run
//! let c = rigsmith::io::read_character("character.vrm".as_ref())?;
//! let body = c.body()?;
//! println!("skin parts {:?}, height {:.2} m", body.skin, body.height);
//! # Ok::<(), rigsmith::Error>(())
//! ```
//!
//! **Fitting a skeleton** ([`fit`]):
//!
//! ```no_run
//! use rigsmith::fit::{fit, FitOptions, Template};
//! let c = rigsmith::mannequin::build(&Default::default());
//! let r = fit(&c, &FitOptions { template: Template::Mixamo, ..Default::default() })?;
//! println!("{} bones, pelvis at {:?}", r.skeleton.len(), r.landmarks.get("pelvis"));
//! # Ok::<(), rigsmith::Error>(())
//! ```
//!
//! **Skin weights** ([`bind`]):
//!
//! ```no_run
//! # let c = rigsmith::mannequin::build(&Default::default());
//! # let skeleton = rigsmith::fit::fit(&c, &Default::default())?.skeleton;
//! let b = rigsmith::bind::bind(&c, &skeleton, &rigsmith::bind::BindOptions::default())?;
//! println!("route {:?}, {} parts weighted", b.route, b.weights.len());
//! # Ok::<(), rigsmith::Error>(())
//! ```
//!
//! **Posing and skinning** ([`pose`]):
//!
//! ```no_run
//! use rigsmith::pose::{default_library, posed_matrices, skin_lbs};
//! # let m = rigsmith::mannequin::build(&Default::default());
//! # let c = rigsmith::rig(&m, &Default::default(), &mut |_, _| {})?.character;
//! let skel = c.skeleton.as_ref().expect("a rigged character");
//! let (poses, _notes) = default_library(skel);
//! let m = posed_matrices(skel, &poses[0].pose);
//! let part = &c.parts[0];
//! let moved = skin_lbs(&part.mesh.positions, part.weights.as_ref().unwrap(), &m);
//! # let _ = moved;
//! # Ok::<(), rigsmith::Error>(())
//! ```
//!
//! **Checking a rig** ([`review`]):
//!
//! ```no_run
//! let c = rigsmith::io::read_character("rigged.glb".as_ref())?;
//! let r = rigsmith::review::check(&c, &rigsmith::review::CheckOptions::default())?;
//! for k in r.checks.iter().filter(|k| !k.passed) {
//!     println!("{:?} {} {}", k.severity, k.id, k.detail);
//! }
//! # Ok::<(), rigsmith::Error>(())
//! ```
//!
//! **Secondary motion** ([`parts`]):
//!
//! ```no_run
//! use rigsmith::parts::{simulate, Motion};
//! # let c = rigsmith::mannequin::build(&Default::default());
//! let out = rigsmith::rig(&c, &rigsmith::RigOptions::vrm(), &mut |_, _| {})?;
//! let r = simulate(&out.character, &out.sidecar, Motion::Walk, 2.0)?;
//! println!("worst entry {:.1} mm at 1.7 m", r.worst_penetration_mm_at_1_7m);
//! # Ok::<(), rigsmith::Error>(())
//! ```
//!
//! ## Conventions
//! glTF space everywhere: metres, +Y up, the character faces +Z, its left side is +X.
//! No algorithm depends on absolute size: work in units of the body height H
//! ([`model::Body::height`]). A stage takes plain data and returns plain data plus a
//! report; it never reads files (except [`io`]) and never prints. Errors say what is
//! wrong and where, never which command-line flag answers it ([`ErrorKind`] tells
//! bad input from a failed read or write).

#![warn(missing_docs)]

pub mod bind;
pub mod control;
pub mod deform;
pub mod error;
pub mod face;
pub mod fit;
pub mod geom;
pub mod humanoid;
pub mod inspect;
pub mod io;
pub mod mannequin;
pub mod mech;
pub mod model;
pub mod parts;
pub mod pipeline;
pub mod pose;
pub mod report;
pub mod review;

pub use error::{Error, ErrorKind, Result};
pub use model::{Bone, Character, Influence, Mesh, MorphTarget, Part, Side, Skeleton, Weights};
pub use pipeline::{rig, RigOptions, RigOutput, Rigged};
pub use report::{Check, Counts, Severity};
