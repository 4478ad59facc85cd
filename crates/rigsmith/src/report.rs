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
        Check {
            id: id.into(),
            section: section.into(),
            title: title.into(),
            measure: measure.into(),
            value,
            threshold,
            severity,
            passed: value <= threshold,
            detail: detail.into(),
        }
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
