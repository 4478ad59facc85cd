//! Every check of a rig in one report ([`check`]).
//!
//! Errors are what the builder refuses (structure, chain draw order, chain pose);
//! warnings are what a person should hear but the builder accepts (an origin outside
//! the view_box, a rotated part offset from its joint).

use serde_json::{json, Value};

use crate::chain_pose::chain_pose_problems;
use crate::model::RigDocument;
use crate::paint_order::chain_draw_order_problems;
use crate::positions::rig_origin_problems;
use crate::rest_pose::rig_rest_problems;
use crate::structure::rig_problems;

/// One finding.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// `"error"` (the builder refuses it) or `"warning"`.
    pub severity: &'static str,
    /// Which check: `structure`, `chain_draw_order`, `chain_pose`, `origin`, `rest_pose`.
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
    add("error", "chain_draw_order", chain_draw_order_problems(doc));
    add("error", "chain_pose", chain_pose_problems(doc));
    add(
        "warning",
        "origin",
        rig_origin_problems(doc.origin, doc.view_box()),
    );
    add("warning", "rest_pose", rig_rest_problems(doc));
    Report { findings }
}
