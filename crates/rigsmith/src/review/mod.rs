//! Review: test poses, deformation numbers, the rubric check and its reports.
//!
//! A rig is judged in motion. [`check`] takes any skinned [`Character`] (read from a
//! glTF/VRM, or built by rigsmith) and:
//!
//! 1. checks placement on the rest skeleton (section A: joints inside the body, knee
//!    and elbow bend direction, hinge roll) and structure (B: the root carries
//!    everything, only deform bones weigh);
//! 2. checks the weights as numbers (C: unweighted vertices, empty major bones,
//!    normalization, influences, rigid parts, symmetry, garments, cross-side leak);
//! 3. poses the rig through the default library ([`crate::pose::library`]), skins
//!    every part and measures each pose (D): edge [`strain`], joint [`volume`] bands,
//!    cross-side [`leak`], new self-[`intersect`]ions (BVH) and garment
//!    [`penetration`] into the body;
//! 4. notes morph targets (E) and writes section F: the route taken and what was NOT
//!    verified, in plain words.
//!
//! ```no_run
//! # fn demo(c: &rigsmith::Character) -> rigsmith::Result<()> {
//! use rigsmith::review::{check, html_report, CheckOptions};
//! let report = check(c, &CheckOptions::default())?;
//! println!("{}", serde_json::to_string_pretty(&report).unwrap());
//! if report.counts.blocker > 0 { /* the rig is not usable */ }
//! let page = html_report(&report, &[]);
//! # let _ = page; Ok(()) }
//! ```
//!
//! Every check has a stable id (`weights.unweighted`, `deform.elbow_120.L.band`),
//! documented with its measure and threshold in `docs/check.md`.

pub mod correctives;
pub mod findings;
pub mod garment_correctives;
pub mod html;
pub mod intersect;
pub mod leak;
pub mod mech;
mod nod_corrective;
mod offset_field;
pub mod penetration;
pub mod rubric;
pub mod runtime_masks;
pub mod strain;
pub mod structure;
pub mod volume;
pub mod weights;

use glam::Vec3;
use serde::Serialize;

pub use html::{html_page, html_report, Page};
pub use rubric::{chain_bones, check, posed_character, posed_runtime};

use crate::pose::NamedPose;
use crate::report::{Check, Counts};

pub use crate::pose::skinning::Skinning;

/// Options of [`check`].
#[derive(Debug, Clone, PartialEq)]
pub struct CheckOptions {
    /// Skinning used to pose the mesh.
    pub skinning: Skinning,
    /// A custom pose library; `None` builds the default one from the bone names.
    pub library: Option<Vec<NamedPose>>,
    /// Count new self-intersections (the most expensive number).
    pub self_intersections: bool,
    /// Influence limit per vertex (4 for game export).
    pub max_influences: usize,
    /// The bones the file's animation clips key, by name, when the clips were read
    /// ([`crate::io::gltf::animation::Animations::keyed_bones`]): rule 3 of the parts
    /// stage (cloth and hair bones carry no tracks) is judged on them. `None` when the
    /// clips were not read: the rule is then listed as not verified.
    pub animated_bones: Option<Vec<String>>,
    /// Apply the twist bones' follow rules ([`crate::deform::twist`]) to every test
    /// pose, as an engine running the rig's roll constraints does (the default); off,
    /// the twist bones stay at rest under their limb bones.
    pub twist_rules: bool,
    /// Blend dual-quaternion skinning in through the preserve-volume mask
    /// ([`crate::deform::dqs_mask`], measured on the rig over the test poses), as an
    /// engine reading `_DQS_BLEND` does; off by default (plain [`Skinning`]).
    pub dqs_blend: bool,
    /// The preserve-volume mask the file carries, per part name (sparse, as the
    /// sidecar's `dqs_blend`): with `dqs_blend` on, the review plays this mask (a part
    /// it lacks blends nothing) instead of measuring one. Empty by default.
    pub dqs_masks: std::collections::BTreeMap<String, Vec<(u32, f32)>>,
    /// Corrective shapes the runtime plays ([`crate::deform::correctives`]): each adds
    /// the skin's morph target of its name, at its driver's value, before skinning; and
    /// each is judged (section E). Empty by default.
    pub correctives: Vec<crate::deform::correctives::Corrective>,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            skinning: Skinning::Lbs,
            library: None,
            self_intersections: true,
            max_influences: 4,
            animated_bones: None,
            twist_rules: true,
            dqs_blend: false,
            dqs_masks: Default::default(),
            correctives: Vec::new(),
        }
    }
}

/// A spot flagged in a pose, for close-up sheets: a joint whose band or bulge check
/// failed, or where a failed strain, self-intersection, collar-and-chin or garment
/// penetration check sits (the densest cluster of the offending edges, triangles or
/// vertices).
#[derive(Debug, Clone, PartialEq)]
pub struct FlaggedJoint {
    /// The pose (`elbow_120.L`).
    pub pose: String,
    /// The joint (`elbow.L`) or what failed there (`strain`, `self-intersections`,
    /// `collar and chin`, `shirt penetration`).
    pub joint: String,
    /// The joint or spot centre in the pose, metres.
    pub centre: Vec3,
    /// Local limb radius at the joint (the spot's spread), metres.
    pub radius: f32,
    /// The normal of the joint's bend plane in the pose (unit), when the limb is bent:
    /// a close-up looks along it, across the bend. `None` for a straight limb or a
    /// spot that is not a joint.
    pub across: Option<Vec3>,
}

/// The result of [`check`]. Serializes to exactly
/// `{"checks": [...], "counts": {"blocker", "major", "minor"}, "not_verified": [...], "route", "weights": {...}}`.
#[derive(Debug, Clone, Serialize)]
pub struct CheckReport {
    /// Every check run, in section order.
    pub checks: Vec<Check>,
    /// Failed checks by severity.
    pub counts: Counts,
    /// What was NOT verified, in plain words (section F).
    pub not_verified: Vec<String>,
    /// The route taken, in plain words (section F).
    pub route: String,
    /// The weight report of the rig (section F: "the numbers from the weight report"):
    /// unweighted, empty majors, sum deviation, influences, vertices over 4,
    /// non-deform bones, mirror error; see [`crate::bind::report`].
    pub weights: crate::bind::WeightReport,
    /// The poses measured (not serialized).
    #[serde(skip)]
    pub poses: Vec<NamedPose>,
    /// Every flagged spot of every pose (not serialized): joints whose band or bulge
    /// failed, and where strain, self-intersection and penetration failures sit.
    #[serde(skip)]
    pub flagged_joints: Vec<FlaggedJoint>,
    /// With the fixes on (a mask or correctives): the joints that fail without them
    /// (plain skinning, the twist rules kept), for the "before" close-ups (not
    /// serialized; each band and bulge check's detail gives both figures).
    #[serde(skip)]
    pub flagged_before: Vec<FlaggedJoint>,
    /// The fixes the review played (not serialized: the route names them).
    #[serde(skip)]
    pub runtime: Runtime,
    /// Every part's role and why, in part order (the HTML report shows it; `check
    /// --json` and `report.json` carry it, so a part judged wrongly can be told with
    /// `--body`, `--garment` or `--rigid`).
    pub parts: Vec<PartLine>,
}

/// The fixes a review played, for drawing the poses as it measured them
/// ([`rubric::posed_runtime`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Runtime {
    /// The preserve-volume mask the review played, per part name of the character
    /// (sparse; a multi-piece skin's pieces each get their welded vertices' weights:
    /// [`runtime_masks::masks_on_parts`]); empty without the DQS blend.
    pub dqs_masks: std::collections::BTreeMap<String, Vec<(u32, f32)>>,
    /// The corrective shapes played.
    pub correctives: Vec<crate::deform::correctives::Corrective>,
}

/// One part's role in the character, and why (see [`crate::model::Body`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PartLine {
    /// The part's name.
    pub part: String,
    /// Its class: skin, garment, hair, rigid or accessory.
    pub class: String,
    /// Why, in plain words.
    pub reason: String,
}

impl CheckReport {
    /// Whether any blocker failed.
    pub fn has_blocker(&self) -> bool {
        self.counts.blocker > 0
    }

    /// The check with this id.
    pub fn get(&self, id: &str) -> Option<&Check> {
        self.checks.iter().find(|c| c.id == id)
    }
}
