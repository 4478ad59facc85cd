//! Faces: jaw, eyes and lids fitted from the mesh, face weights, expression keys
//! (from units by recipes, or procedural), left/right splits, on-face controls and
//! the face checks.
//!
//! [`build`] runs after the body is fitted and bound ([`crate::pipeline::rig`] with
//! [`FaceOptions::mode`] other than [`FaceMode::None`]):
//!
//! 1. [`fit`]: the eyes (centres and radii), the lids' margins, the lips' line, the jaw
//!    pivot and chin, measured on the skin; the bones are added below the head
//!    (`jaw`, `eye_l`/`eye_r`, `lid_upper_l`/`lid_lower_l` and their right mirrors;
//!    [`FaceMode::Full`] adds `brow_*`, `cheek_*`, `lip_corner_*`, `nose` and the lip
//!    bones `lip_upper_*`, `lip_lower_*`);
//! 2. [`weights`]: the head's share of the skin divided between head, lids and jaw by
//!    smooth masks; eyes, teeth and tongue rigid to their bones;
//! 3. [`expressions`]: keys from expression units by recipes (the VRM presets), or a
//!    procedural `blink` and `aa` through the lid and jaw bones; the splits with a
//!    smooth seam ([`split`]); `happy` and `relaxed` eased where they cross `aa` and
//!    `blink` ([`combine`]);
//! 4. [`controls`] (kept with the sidecar, in [`crate::parts`]): the on-face controls for the split smile/frown keys, as data for
//!    the sidecar;
//! 5. [`checks`]: rubric A placement and rubric E checks on what was built
//!    ([`review`] measures the keys, and puts the face's checks into the review).
//!
//! A head without a mouth opening gets no jaw (a note says so); eyes without eye parts
//! or sockets get no eye or lid bones.
//!
//! ```
//! use rigsmith::face::{FaceMode, FaceOptions};
//! use rigsmith::{rig, RigOptions};
//! let c = rigsmith::mannequin::build(&Default::default());
//! let o = RigOptions {
//!     review: false,
//!     face: FaceOptions { mode: FaceMode::Basic, ..Default::default() },
//!     ..RigOptions::default()
//! };
//! let out = rig(&c, &o, &mut |_, _| {}).unwrap();
//! let face = out.face.expect("a face was built");
//! assert!(!face.notes.is_empty() || !face.bones.is_empty());
//! ```

pub mod checks;
pub mod combine;
pub mod cover;
pub mod expressions;
pub mod fit;
pub mod review;
pub mod split;
pub mod weights;

use std::collections::BTreeMap;

use glam::Vec3;
use serde::Serialize;

pub use crate::parts::face_controls::{self as controls, FaceControl};
pub use crate::parts::vrm_face as vrm;
pub use expressions::{default_recipes, parse_recipes, read_recipes, Recipes, VRM_PRESETS};
pub use fit::{fit_face, FaceFit};

use crate::error::{Error, Result};
use crate::fit::Landmarks;
use crate::model::Character;
use crate::report::Check;
use weights::FaceBones;

/// How much face to build.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FaceMode {
    /// No face bones, weights or keys.
    #[default]
    None,
    /// Jaw, eyes and lids; blink and aa (or the unit presets).
    Basic,
    /// Basic plus brows, cheeks, lip corners, the nose and the lip bones (upper and
    /// lower, each side: from the middle of the lip to its mouth corner).
    Full,
}

impl std::str::FromStr for FaceMode {
    type Err = Error;
    fn from_str(s: &str) -> Result<FaceMode> {
        match s.to_ascii_lowercase().as_str() {
            "none" => Ok(FaceMode::None),
            "basic" => Ok(FaceMode::Basic),
            "full" => Ok(FaceMode::Full),
            _ => Err(Error::invalid(
                "face",
                format!("{s:?}: expected basic, full or none"),
            )),
        }
    }
}

/// Options of [`build`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FaceOptions {
    /// How much face to build.
    pub mode: FaceMode,
    /// The user's expression recipes (`--expressions FILE`), added to the built-in
    /// ones.
    pub recipes: Option<Recipes>,
}

/// What [`build`] made.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FaceOutput {
    /// What the fit measured.
    pub fit: FaceFit,
    /// Bones added, in order.
    pub bones: Vec<String>,
    /// Keys made, by name, with how.
    pub keys: BTreeMap<String, String>,
    /// The on-face controls (written into the sidecar).
    pub controls: Vec<FaceControl>,
    /// VRM humanoid entries for the face (`jaw`, `leftEye`, `rightEye`).
    pub humanoid: BTreeMap<String, String>,
    /// Placement (rubric A) and face-key (rubric E) checks.
    pub checks: Vec<Check>,
    /// One line per decision (what was left out and why).
    pub notes: Vec<String>,
}

/// Builds the face of a fitted and bound character (see the module docs). `lm` are
/// the landmarks it was fitted to, `head` the head bone's name.
pub fn build(c: &mut Character, lm: &Landmarks, head: &str, o: &FaceOptions) -> Result<FaceOutput> {
    let body = c.body()?;
    let f = fit_face(c, &body.mesh, lm, o.mode);
    let mut notes = f.notes.clone();
    let skel = c
        .skeleton
        .as_mut()
        .ok_or_else(|| Error::stage("face", "the character has no skeleton"))?;
    let hi = skel
        .find(head)
        .ok_or_else(|| Error::stage("face", format!("no head bone {head:?}")))?;
    let mut added = Vec::new();
    for (b, _) in &f.bones {
        if skel.find(&b.name).is_some() {
            notes.push(format!(
                "face: the skeleton already has a bone {:?}: face bones not added",
                b.name
            ));
            added.clear();
            break;
        }
        added.push(b.name.clone());
    }
    if !added.is_empty() {
        for (b, _) in &f.bones {
            let mut b = b.clone();
            b.parent = Some(hi);
            skel.bones.push(b);
        }
        skel.validate()?;
    }
    let fb = FaceBones::find(skel, hi as u32);
    let mut humanoid = BTreeMap::new();
    if fb.jaw.is_some() {
        humanoid.insert("jaw".to_string(), fit::names::JAW.to_string());
    }
    if fb.eye[0].is_some() && fb.eye[1].is_some() {
        humanoid.insert("leftEye".to_string(), fit::names::EYE[0].to_string());
        humanoid.insert("rightEye".to_string(), fit::names::EYE[1].to_string());
    }
    notes.extend(weights::apply(c, &body, &f, &fb));
    let built = expressions::build(c, &body, &f, &fb, o.recipes.as_ref())?;
    notes.extend(built.notes.iter().cloned());
    let controls = face_controls(c, &f, head, &body.mesh);
    let mut checks = checks::placement(&f, &body.mesh);
    checks.extend(review::key_checks(c, &body, &f, &controls));
    Ok(FaceOutput {
        fit: f,
        bones: added,
        keys: built.keys,
        controls,
        humanoid,
        checks,
        notes,
    })
}

/// The mouth-corner controls, when the split smile and frown keys exist.
fn face_controls(
    c: &Character,
    f: &FaceFit,
    head: &str,
    skin: &crate::model::Mesh,
) -> Vec<FaceControl> {
    let has = |k: &str| c.parts.iter().any(|p| p.morphs.iter().any(|m| m.name == k));
    let (Some(m), Some(eyes)) = (&f.mouth, &f.eyes) else {
        return Vec::new();
    };
    let h = f.height;
    let mut out = Vec::new();
    for (k, side) in ["L", "R"].into_iter().enumerate() {
        let (smile, frown) = (format!("mouth_smile.{side}"), format!("mouth_frown.{side}"));
        if !(has(&smile) && has(&frown)) {
            continue;
        }
        let x = f.center_x + 0.8 * (eyes[k].centre.x - f.center_x);
        let p =
            fit::surface_at(skin, x, m.line_y, h).unwrap_or(Vec3::new(x, m.line_y, m.upper_lip.z));
        let head_pt = p + Vec3::Z * 0.01 * h;
        out.push(FaceControl::up_down(
            &format!("SK-mouth_corner.{side}"),
            head,
            head_pt,
            head_pt + Vec3::Y * 0.01 * h,
            &smile,
            &frown,
            0.01 * h,
        ));
    }
    out
}
