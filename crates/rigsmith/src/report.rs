//! Checks as data: every stage that judges a rig (placement, weights, deformation,
//! structure) reports a list of [`Check`]s with the same shape, so `rigsmith check`
//! can gather them into one report.
//!
//! A check's `id` is stable and dotted (`weights.unweighted`, `place.knee_bend.L`,
//! `deform.elbow_120.L.band`); `value` is the measured number and `threshold` the limit
//! it is compared with; `passed` is the verdict.

use serde::{Deserialize, Serialize};

/// How bad a failed check is (the rubric's severities).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Cosmetic or easy to live with.
    Minor,
    /// Visibly wrong in motion; fix before shipping.
    Major,
    /// The rig is not usable.
    Blocker,
}

/// One check: what was measured, the limit, and the verdict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Check {
    /// Stable dotted id, e.g. `weights.unweighted`.
    pub id: String,
    /// Rubric section letter: `A` placement, `B` structure, `C` weights, `D` deformation,
    /// `E` correctives and face, `F` report honesty.
    pub section: String,
    /// Short human title.
    pub title: String,
    /// What the value measures, with its unit (`vertices`, `% of height`, `deg`).
    pub measure: String,
    /// The measured value.
    pub value: f64,
    /// The limit (`value` is compared with it as the check's doc says).
    pub threshold: f64,
    /// Severity when it fails.
    pub severity: Severity,
    /// Whether it passed.
    pub passed: bool,
    /// Plain-words detail (which vertices, bones, where).
    pub detail: String,
    /// What to do when it fails, with the flag or command that applies it (from
    /// [`remedy_for`]: one table for every check id).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub remedy: String,
}

impl Check {
    /// A check that passes when `value <= threshold`.
    ///
    /// Every field of a check is named at the call site, in the order of the report.
    #[allow(clippy::too_many_arguments)]
    pub fn at_most(
        id: impl Into<String>,
        section: &str,
        title: impl Into<String>,
        measure: impl Into<String>,
        value: f64,
        threshold: f64,
        severity: Severity,
        detail: impl Into<String>,
    ) -> Check {
        let mut c = Check {
            id: id.into(),
            section: section.into(),
            title: title.into(),
            measure: measure.into(),
            value,
            threshold,
            severity,
            passed: value <= threshold,
            detail: detail.into(),
            remedy: String::new(),
        };
        c.remedy = remedy_for(&c.id).to_string();
        c
    }

    /// A check that passes when `value >= threshold`.
    #[allow(clippy::too_many_arguments)]
    pub fn at_least(
        id: impl Into<String>,
        section: &str,
        title: impl Into<String>,
        measure: impl Into<String>,
        value: f64,
        threshold: f64,
        severity: Severity,
        detail: impl Into<String>,
    ) -> Check {
        let mut c = Check::at_most(
            id, section, title, measure, value, threshold, severity, detail,
        );
        c.passed = value >= threshold;
        c
    }
}

/// Failed checks counted by severity.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Failed blockers.
    pub blocker: usize,
    /// Failed majors.
    pub major: usize,
    /// Failed minors.
    pub minor: usize,
}

impl Counts {
    /// Counts the failed checks in `checks`.
    pub fn of(checks: &[Check]) -> Counts {
        let mut c = Counts::default();
        for k in checks.iter().filter(|k| !k.passed) {
            match k.severity {
                Severity::Blocker => c.blocker += 1,
                Severity::Major => c.major += 1,
                Severity::Minor => c.minor += 1,
            }
        }
        c
    }
}

/// What to do when the check `id` fails, with the flag or command that applies it: the
/// one table of remedies (the rubric's fixes and the chain rules).
/// `docs/check.md` lists the same text. Ids are matched by prefix and suffix, the most
/// specific rule first; every id gets a line.
pub fn remedy_for(id: &str) -> &'static str {
    let has = |p: &str| id.contains(p);
    let starts = |p: &str| id.starts_with(p);
    if starts("place.joints_inside") || starts("place.inside") {
        "move the joint into the limb: refit with `rigsmith fit --override NAME=X,Y,Z`, or rig again with `rigsmith rig --rerig`"
    } else if starts("place.knee_bend_modelled") || starts("place.elbow_bend_modelled") {
        "let the joint follow the modelled bend: move it with `rigsmith fit --override knee_l=X,Y,Z` (elbow_l, ...)"
    } else if starts("place.knee_bend") || starts("place.knee_prebend") {
        "pre-bend the knee 1 to 15 deg forward (an IK solver bends the way the limb is pre-bent): move the knee forward with `rigsmith fit --override knee_l=X,Y,Z`"
    } else if starts("place.elbow_bend") || starts("place.elbow_prebend") {
        "pre-bend the elbow 1 to 15 deg backward: move the elbow back with `rigsmith fit --override elbow_l=X,Y,Z`"
    } else if starts("place.knee_straight") || starts("place.elbow_straight") {
        "line the joint up with the limb in the front view: move it with `rigsmith fit --override NAME=X,Y,Z`"
    } else if starts("place.hinge_roll") {
        "roll the bone so its local X is the hinge axis (recalculate roll); a skeleton fitted by `rigsmith rig --rerig` has it"
    } else if starts("place.finger_axes") {
        "give the bones of each finger the same roll (local X along the finger's hinge)"
    } else if starts("place.disjoint") {
        "connect the bone's head to its parent's tail, or refit with `rigsmith rig --rerig`"
    } else if starts("place.symmetry") {
        "mirror the skeleton from one side (symmetrize), or refit with `rigsmith rig --rerig`"
    } else if starts("place.landmarks") {
        "give the landmark yourself with `rigsmith fit --override NAME=X,Y,Z`"
    } else if starts("structure.root_follows") {
        "parent every bone under one root and weight no vertex to a second root"
    } else if starts("structure.deform_hygiene") || starts("weights.non_deform") {
        "move the weights of non-deform bones onto deform bones (or mark those bones deform)"
    } else if starts("weights.unweighted") || starts("weights.empty_major") {
        "bind again with the voxel route: `rigsmith weights --route volumetric` (or `rigsmith rig --rerig`); a loose accessory takes `--rigid PART=BONE`"
    } else if starts("weights.normalization") || starts("weights.sum") {
        "normalize the weights (`rigsmith weights` and `rigsmith rig` write them normalized)"
    } else if starts("weights.max_influences") || starts("weights.influences") {
        "keep 4 influences a vertex and normalize: `rigsmith weights --max-influences 4` (or `rigsmith rig --max-influences 4`)"
    } else if starts("weights.rigid") {
        "weight the part 1.0 to one bone: `rigsmith rig --rigid PART=BONE`"
    } else if starts("weights.symmetry") || starts("weights.mirror") {
        "mirror the weights from one side to the other"
    } else if starts("weights.garment") {
        "take the garment's weights from the body under it: `rigsmith rig --garment PART` (or `rigsmith weights --garment PART`)"
    } else if starts("weights.cross_side_leak") || has(".leak") {
        "remove the weight that reaches past the mid-plane from the other side's bones; smoothing helps: `rigsmith weights --smooth 2`"
    } else if has("wrist_twist") {
        "add forearm twist bones (`rigsmith rig --twist 1`) or skin with DQS (`rigsmith check --dqs` measures it)"
    } else if has(".bulge") {
        "spread the shoulder weights onto the clavicle, or add a corrective shape for the pose"
    } else if has(".band") {
        "add a corrective shape for the pose (linear blend collapses a bent joint), or skin with DQS (`rigsmith check --dqs` measures it)"
    } else if has(".strain") {
        "smooth the weights around the joint: `rigsmith weights --smooth 2`"
    } else if has(".self_intersections") {
        "smooth the weights at the crease; add a corrective shape for the pose if it shows in the sheet"
    } else if has(".penetration") {
        "take the garment's weights from the body (`rigsmith rig --garment PART`) and keep it a little off the skin"
    } else if starts("face.morphs_move") {
        "sculpt the empty morph target or remove it"
    } else if starts("parts.cloth_parent") {
        "hang the cloth chain from the pelvis or the spine, never from a leg or an arm"
    } else if starts("parts.cloth_on_leg") {
        "weight the cloth to its chain bones only, never to a leg bone (`rigsmith rig --rerig` builds the chains)"
    } else if starts("parts.cloth_animated") {
        "delete the animation tracks of the cloth bones: springs move them"
    } else if starts("parts.joined_garment") {
        "separate the garment from the body into its own part, then rig again"
    } else if starts("weights.") {
        "bind again: `rigsmith weights` (or `rigsmith rig --rerig`); see docs/weights.md"
    } else {
        "see docs/check.md for this check's measure and fix"
    }
}
