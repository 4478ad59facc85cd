//! Checks as data: every stage that judges a rig (placement, weights, deformation,
//! structure) reports a list of [`Check`]s with the same shape, so `rigsmith check`
//! can gather them into one report.
//!
//! A check's `id` is stable and dotted (`weights.unweighted`, `place.knee_bend.L`,
//! `deform.elbow_120.L.band`); `value` is the measured number, `limit` the [`Limit`]
//! that decides it (at most, at least, between), `threshold` its bound as one number,
//! and `passed` the verdict: always `limit.passes(value)`.
//!
//! Each id is defined in exactly one place: placement checks (`place.*`) in
//! [`crate::fit::placement`], weight checks (`weights.*`, `structure.deform_hygiene`)
//! in [`crate::bind::report`], deformation (`deform.*`) and the rest of the rubric in
//! [`crate::review::rubric`], cloth rules (`parts.*`) in [`crate::parts`].

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

/// The limit that decides a check: the verdict is `limit.passes(value)`, nothing else,
/// so a report's JSON always explains its verdict. Serialized as `{"at_most": 0.0}`,
/// `{"at_least": 0.98}` or `{"between": [1.0, 15.0]}` (bounds included).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Limit {
    /// Passes when `value <= max`.
    AtMost(f64),
    /// Passes when `value >= min`.
    AtLeast(f64),
    /// Passes when `lo <= value <= hi`.
    Between(f64, f64),
}

impl Limit {
    /// Whether `value` passes (a NaN value never does).
    pub fn passes(&self, value: f64) -> bool {
        match *self {
            Limit::AtMost(m) => value <= m,
            Limit::AtLeast(m) => value >= m,
            Limit::Between(lo, hi) => (lo..=hi).contains(&value),
        }
    }

    /// The single number reported as `threshold`: the bound itself, or for a range the
    /// bound nearer to `value` (the one it failed, when it failed).
    pub fn threshold(&self, value: f64) -> f64 {
        match *self {
            Limit::AtMost(m) | Limit::AtLeast(m) => m,
            Limit::Between(lo, hi) => {
                if (value - lo).abs() <= (value - hi).abs() {
                    lo
                } else {
                    hi
                }
            }
        }
    }

    /// The limit in words for a table: `<= 0`, `>= 0.98`, `1 to 15`.
    pub fn text(&self) -> String {
        let n = |x: f64| {
            let s = format!("{x:.4}");
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        };
        match *self {
            Limit::AtMost(m) => format!("<= {}", n(m)),
            Limit::AtLeast(m) => format!(">= {}", n(m)),
            Limit::Between(lo, hi) => format!("{} to {}", n(lo), n(hi)),
        }
    }
}

/// One check: what was measured, the limit, and the verdict.
///
/// Built with [`Check::new`] and named setters, then judged by one of
/// [`Check::at_most`], [`Check::at_least`], [`Check::between`], which set the value,
/// the [`Limit`] and the verdict together:
///
/// ```
/// use rigsmith::report::{Check, Severity};
/// let k = Check::new("weights.unweighted", "C", Severity::Blocker)
///     .title("Every vertex weighted")
///     .measure("vertices with total deform weight below 1e-4")
///     .at_most(3.0, 0.0)
///     .detail("body: 3");
/// assert!(!k.passed && k.judged() == k.passed);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(from = "CheckRepr")]
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
    /// The bound `value` is compared with (for a range, the nearer bound; see [`Limit`]).
    pub threshold: f64,
    /// The limit that decides `passed`.
    pub limit: Limit,
    /// Severity when it fails.
    pub severity: Severity,
    /// Whether it passed: always `limit.passes(value)`.
    pub passed: bool,
    /// Plain-words detail (which vertices, bones, where).
    pub detail: String,
    /// What to do when it fails, with the flag or command that applies it (from
    /// [`remedy_for`]: one table for every check id).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub remedy: String,
}

/// A check as read from JSON: reports written before checks carried their limit have
/// no `limit`; it is rebuilt from `threshold` and the verdict.
#[derive(Deserialize)]
struct CheckRepr {
    id: String,
    section: String,
    title: String,
    measure: String,
    value: f64,
    threshold: f64,
    #[serde(default)]
    limit: Option<Limit>,
    severity: Severity,
    passed: bool,
    detail: String,
    #[serde(default)]
    remedy: String,
}

impl From<CheckRepr> for Check {
    fn from(r: CheckRepr) -> Check {
        let limit = r.limit.unwrap_or({
            if (r.value <= r.threshold) == r.passed {
                Limit::AtMost(r.threshold)
            } else {
                Limit::AtLeast(r.threshold)
            }
        });
        Check {
            id: r.id,
            section: r.section,
            title: r.title,
            measure: r.measure,
            value: r.value,
            threshold: r.threshold,
            limit,
            severity: r.severity,
            passed: r.passed,
            detail: r.detail,
            remedy: r.remedy,
        }
    }
}

impl Check {
    /// A check `id` of rubric `section` with `severity`, its remedy from [`remedy_for`];
    /// not judged yet (value NaN, failing) until [`Check::at_most`],
    /// [`Check::at_least`] or [`Check::between`] gives the value and the limit.
    pub fn new(id: impl Into<String>, section: &str, severity: Severity) -> Check {
        let id = id.into();
        let remedy = remedy_for(&id).to_string();
        Check {
            id,
            section: section.into(),
            title: String::new(),
            measure: String::new(),
            value: f64::NAN,
            threshold: 0.0,
            limit: Limit::AtMost(0.0),
            severity,
            passed: false,
            detail: String::new(),
            remedy,
        }
    }

    /// Sets the short human title.
    pub fn title(mut self, t: impl Into<String>) -> Check {
        self.title = t.into();
        self
    }

    /// Sets what the value measures, with its unit.
    pub fn measure(mut self, m: impl Into<String>) -> Check {
        self.measure = m.into();
        self
    }

    /// Sets the plain-words detail.
    pub fn detail(mut self, d: impl Into<String>) -> Check {
        self.detail = d.into();
        self
    }

    /// Judges `value` against `limit`: sets the value, the limit, the threshold and the
    /// verdict together.
    pub fn judge(mut self, value: f64, limit: Limit) -> Check {
        self.value = value;
        self.limit = limit;
        self.threshold = limit.threshold(value);
        self.passed = limit.passes(value);
        self
    }

    /// Passes when `value <= max`.
    pub fn at_most(self, value: f64, max: f64) -> Check {
        self.judge(value, Limit::AtMost(max))
    }

    /// Passes when `value >= min`.
    pub fn at_least(self, value: f64, min: f64) -> Check {
        self.judge(value, Limit::AtLeast(min))
    }

    /// Passes when `lo <= value <= hi`.
    pub fn between(self, value: f64, lo: f64, hi: f64) -> Check {
        self.judge(value, Limit::Between(lo, hi))
    }

    /// The verdict its limit gives its value (equal to `passed` for every check the
    /// library builds).
    pub fn judged(&self) -> bool {
        self.limit.passes(self.value)
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
    if starts("face.") {
        return face_remedy(id);
    }
    if starts("model.standing") || starts("model.empty") {
        "stand the character up along +Y (glTF's up; `--up z` reads a Z-up file) and give it a body mesh"
    } else if starts("model.part_apart") {
        "move the part back onto the body (it was left behind when the body moved), then rig again"
    } else if starts("model.") {
        "fix the model: `rigsmith fit --check-only --fix` shows and applies it (`rigsmith rig` fixes it first): feet on y = 0, centred on x = 0, facing +Z"
    } else if starts("place.inside") {
        "move the joint into the limb: refit with `rigsmith fit --override NAME=X,Y,Z`, or rig again with `rigsmith rig --rerig`"
    } else if starts("quad.legs") {
        "fit a quadruped template (`rigsmith rig --rerig --template auto`); a rig without four leg chains is not a quadruped"
    } else if starts("quad.") {
        "refit with `rigsmith fit --template quadruped|horse|wolf|cat --override NAME=X,Y,Z` (landmark names as in `fit --json`), or rig again with `rigsmith rig --rerig --template auto`"
    } else if starts("place.knee_bend") {
        "pre-bend the knee 1 to 15 deg forward (a leg modelled bent: follow its bend): move the knee with `rigsmith fit --override knee_l=X,Y,Z`; an IK solver bends the way the limb is pre-bent"
    } else if starts("place.elbow_bend") {
        "pre-bend the elbow 1 to 15 deg backward (an arm modelled bent: follow its bend): move the elbow with `rigsmith fit --override elbow_l=X,Y,Z`"
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
    } else if starts("structure.deform_hygiene") {
        "move the weights of non-deform bones onto deform bones (or mark those bones deform)"
    } else if starts("weights.unweighted") || starts("weights.empty_major") {
        "bind again with the voxel route: `rigsmith weights --route volumetric` (or `rigsmith rig --rerig`); a loose accessory takes `--rigid PART=BONE`"
    } else if starts("weights.normalization") {
        "normalize the weights (`rigsmith weights` and `rigsmith rig` write them normalized)"
    } else if starts("weights.max_influences") {
        "keep 4 influences a vertex and normalize: `rigsmith weights --max-influences 4` (or `rigsmith rig --max-influences 4`)"
    } else if starts("weights.rigid") {
        "weight the part 1.0 to one bone: `rigsmith rig --rigid PART=BONE`"
    } else if starts("weights.symmetry") {
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
    } else if has(".feet_planted") {
        "solve the legs with IK (feet planted) when posing: the pose moved a planted foot; check the leg chain's bones and the IK targets"
    } else if has(".collar_chin") {
        "smooth the neck and head weights so the collar and the chin keep clear in the head poses; add a corrective shape if it shows in the close-up"
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
    } else if starts("mech.rigid") {
        "put each island on one bone at 1.0: rig it as a mechanical character (its sidecar's `mech`, or `rigsmith rig --robot` for the built-in robot)"
    } else if starts("mech.action") {
        "key the action on bones the skeleton has, by name, each with a non-zero angle (the sidecar's `mech.actions`)"
    } else if starts("weights.") {
        "bind again: `rigsmith weights` (or `rigsmith rig --rerig`); see docs/weights.md"
    } else {
        "see docs/check.md for this check's measure and fix"
    }
}

/// Remedies of the face checks (`face.*`).
fn face_remedy(id: &str) -> &'static str {
    match id {
        "face.lids_around_eye" | "face.lid_order" => "give the eyes as separate eye parts (or model open eye sockets) so the lids are measured, then rig again with `--face basic`",
        "face.jaw_hinge" | "face.jaw_inside" => "check the mouth: the jaw pivot is placed from the lips' line and the eyes; a mouth modelled shut with no cavity gets no jaw",
        "face.surface" => "the nose tip or chin landmark is off the skin: give it with `rigsmith fit --override nose_tip=X,Y,Z` or `chin=X,Y,Z`",
        "face.controls_rest" | "face.controls_travel" | "face.opposing" => "fix the control's drivers in the sidecar: sign +1 on one key and -1 on the other, travel equal to the limit",
        "face.lr_sum" | "face.seam" => "split the key again with a wider seam (the split mask must sum to 1 across the centre)",
        "face.region" => "the key moves vertices outside the face: clean the unit or recipe so only the face moves",
        "face.jaw_chin" | "face.jaw_teeth" | "face.jaw_upper_lip" => "weight the lower lip, chin and lower teeth to the jaw and the upper lip to the head, then rebuild aa",
        "face.blink_gap" | "face.blink_clear" => "weight the lids around the eye opening only, or give an eye-closure unit; the lids must meet in front of the eyeball",
        "face.combinations" => "add a corrective for the combination, or reduce the weight of one key in its recipe",
        _ => "rig the face again with `--face basic` and look at the face sheet",
    }
}
