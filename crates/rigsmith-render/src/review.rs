//! The review sheets of a checked character, as `rigsmith check --report` writes them
//! and the Python package returns them: placement, poses, flagged joints.

use glam::Vec3;
use rigsmith::model::Character;
use rigsmith::review::{self, CheckReport, Skinning};

use crate::sheets::{JointItem, PoseRow};
use crate::{joint_sheet, placement_sheet, pose_sheet, Image};

/// Renders the three review sheets of a rigged character as `(name, image)`:
/// `placement` (bones over an x-ray body: front, right, top and a head close-up),
/// `poses` (a row per pose of the report) and `joints` (close-ups of every flagged
/// joint; absent when none is flagged). Posed with `skinning`. Nothing without a
/// skeleton.
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
    let items: Vec<JointItem> = r
        .flagged_joints
        .iter()
        .filter_map(|f| {
            let p = r.poses.iter().find(|p| p.name == f.pose)?;
            let (parts, _): (Vec<Vec<Vec3>>, _) = review::posed_character(c, p, skinning);
            Some((
                format!("{} {}", f.pose, f.joint),
                parts,
                f.centre,
                3.0 * f.radius,
            ))
        })
        .collect();
    if !items.is_empty() {
        out.push(("joints".to_string(), joint_sheet(&items, c, 512)));
    }
    out
}
