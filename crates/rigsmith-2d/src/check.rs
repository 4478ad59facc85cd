//! Every check of a rig in one report ([`check`]).
//!
//! This is the asset validator. Errors are what no stage can draw (structure, a chain
//! pose on a slotless bone, a pivot the skeleton art does not have); warnings are what
//! a person should hear about an asset that is still a valid rig: an origin outside the
//! view_box, a rotated part offset from its joint, a legacy rest pose left unapplied,
//! and a chain whose draw order interleaves with an unrelated part.
//!
//! The last one is a warning here and an error in the builder, as the rig model's
//! reference has it ("refused by the stage compiler; the asset validators only warn"):
//! the asset is drawable by a runtime that paints by the global paint order
//! ([`crate::paint_order::global_paint_order`]), but the stage's per-container sort
//! cannot paint it, so [`crate::build::build_rig`] refuses it unless
//! [`crate::build::BuildOptions::interleave`] is set.

use serde_json::{json, Value};

use crate::chain_pose::chain_pose_problems;
use crate::model::RigDocument;
use crate::paint_order::chain_draw_order_problems;
use crate::positions::rig_origin_problems;
use crate::read::ReadRig;
use crate::rest_pose::rig_rest_problems;
use crate::structure::rig_problems;

/// One finding.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// `"error"` (no stage can draw it) or `"warning"` (a valid rig, but say it).
    pub severity: &'static str,
    /// Which check: `structure`, `pivot`, `chain_draw_order`, `chain_pose`, `origin`,
    /// `legacy_rest_pose`, `rest_pose`.
    pub check: &'static str,
    /// The sentence.
    pub message: String,
}

/// All findings of a rig.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// In check order.
    pub findings: Vec<Finding>,
}

impl Report {
    /// No errors and no warnings.
    pub fn is_clean(&self) -> bool {
        self.findings.is_empty()
    }
    /// Number of errors.
    pub fn errors(&self) -> usize {
        self.findings
            .iter()
            .filter(|f| f.severity == "error")
            .count()
    }
    /// Number of warnings.
    pub fn warnings(&self) -> usize {
        self.findings.len() - self.errors()
    }
    /// As JSON: `{"errors": n, "warnings": n, "findings": [{severity, check, message}]}`.
    pub fn to_value(&self) -> Value {
        json!({
            "errors": self.errors(),
            "warnings": self.warnings(),
            "findings": self.findings.iter().map(|f| json!({
                "severity": f.severity, "check": f.check, "message": f.message
            })).collect::<Vec<_>>(),
        })
    }
    /// One line per finding: `error[structure]: ...`.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for f in &self.findings {
            s.push_str(&format!("{}[{}]: {}\n", f.severity, f.check, f.message));
        }
        s
    }
}

/// Runs every check on a rig.
pub fn check(doc: &RigDocument) -> Report {
    let mut findings = Vec::new();
    let mut add = |severity, check, list: Vec<String>| {
        findings.extend(list.into_iter().map(|message| Finding {
            severity,
            check,
            message,
        }))
    };
    add("error", "structure", rig_problems(doc));
    add(
        "warning",
        "chain_draw_order",
        chain_draw_order_problems(doc),
    );
    add("error", "chain_pose", chain_pose_problems(doc));
    add(
        "warning",
        "origin",
        rig_origin_problems(doc.origin, doc.view_box()),
    );
    add("warning", "rest_pose", rig_rest_problems(doc));
    Report { findings }
}

/// Runs every check on a rig as read ([`crate::read`]): a pose the read left unapplied
/// (`legacy_rest_pose`, a warning) first, then [`check`] on the model, then, when
/// `pivots` is given (the problems of [`crate::pivot::pivot_problems`] against the
/// skeleton SVG), one `pivot` error per bone whose pivot is no skeleton circle.
pub fn check_read(read: &ReadRig, pivots: Option<Vec<String>>) -> Report {
    let mut findings: Vec<Finding> = read
        .rest_pose_warnings
        .iter()
        .map(|w| Finding {
            severity: "warning",
            check: "legacy_rest_pose",
            message: w.message.clone(),
        })
        .collect();
    let rest = check(&read.doc).findings;
    let (structure, others): (Vec<_>, Vec<_>) =
        rest.into_iter().partition(|f| f.check == "structure");
    findings.extend(structure);
    findings.extend(pivots.into_iter().flatten().map(|message| Finding {
        severity: "error",
        check: "pivot",
        message,
    }));
    findings.extend(others);
    Report { findings }
}
