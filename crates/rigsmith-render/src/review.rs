//! The review sheets of a checked character, as `rigsmith check --report` writes them
//! and the Python package returns them: placement, poses, flagged joints.

use glam::Vec3;
use rigsmith::model::Character;
use rigsmith::review::{self, CheckReport, Skinning};

use crate::sheets::{JointItem, PoseRow};
use crate::{joint_sheet_across, placement_sheet, pose_sheet, Image};

/// Renders the three review sheets of a rigged character as `(name, image)`:
/// `placement` (bones over an x-ray body: front, right, top and a head close-up),
/// `poses` (a row per pose of the report) and `joints` (close-ups of every flagged
/// joint seen across its bend plane, posed as the review played them: its fixes, else
/// `skinning`; absent when none is flagged). With the fixes on, `joints_before` draws
/// the joints that fail without them. Nothing without a skeleton.
pub fn review_sheets(c: &Character, r: &CheckReport, skinning: Skinning) -> Vec<(String, Image)> {
    let Some(s) = c.skeleton.as_ref() else {
        return Vec::new();
    };
    let mut out = vec![("placement".to_string(), placement_sheet(c, s, 1024))];
    let rows: Vec<PoseRow> = r
        .poses
        .iter()
        .map(|p| {
            let (parts, bones) = review::posed_character(c, p, skinning);
            (p.name.clone(), parts, bones)
        })
        .collect();
    if !rows.is_empty() {
        out.push(("poses".to_string(), pose_sheet(&rows, c, 512)));
    }
    let fixes = !r.runtime.correctives.is_empty() || !r.runtime.dqs_masks.is_empty();
    // With the fixes on: the joints that fail without them, drawn without them.
    if let Some(img) = closeups(
        c,
        r,
        &r.flagged_before,
        None,
        ", without the fixes",
        skinning,
    ) {
        out.push(("joints_before".to_string(), img));
    }
    let tag = if fixes { ", with the fixes" } else { "" };
    if let Some(img) = closeups(c, r, &r.flagged_joints, Some(&r.runtime), tag, skinning) {
        out.push(("joints".to_string(), img));
    }
    out
}

/// The close-up sheet of `flagged` joints, each seen across its bend plane, posed under
/// `runtime` (its twist rules, correctives and DQS masks) or plainly with `skinning`
/// when `runtime` is `None`; `None` when no flagged joint has its pose in the report.
fn closeups(
    c: &Character,
    r: &CheckReport,
    flagged: &[review::FlaggedJoint],
    runtime: Option<&review::Runtime>,
    tag: &str,
    skinning: Skinning,
) -> Option<Image> {
    let shown: Vec<&review::FlaggedJoint> = flagged
        .iter()
        .filter(|f| r.poses.iter().any(|p| p.name == f.pose))
        .collect();
    let items: Vec<JointItem> = shown
        .iter()
        .filter_map(|f| {
            let p = r.poses.iter().find(|p| p.name == f.pose)?;
            let parts = match runtime {
                Some(rt) => review::posed_runtime(c, p, skinning, rt),
                None => review::posed_character(c, p, skinning).0,
            };
            Some((
                format!("{} {}{tag}", f.pose, f.joint),
                parts,
                f.centre,
                3.0 * f.radius,
            ))
        })
        .collect();
    let across: Vec<Option<Vec3>> = shown.iter().map(|f| f.across).collect();
    (!items.is_empty()).then(|| joint_sheet_across(&items, &across, c, 512))
}
