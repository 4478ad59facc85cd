//! The review sheets of a checked character, as `rigsmith check --report` writes them
//! and the Python package returns them: placement, poses, flagged joints.

use glam::Vec3;
use rigsmith::control::posing::RigPoser;
use rigsmith::control::ControlRig;
use rigsmith::model::Character;
use rigsmith::pose::NamedPose;
use rigsmith::review::{self, CheckReport, Skinning};

use crate::sheets::{JointItem, PoseRow};
use crate::{joint_sheet_across, placement_sheet, pose_sheet, Image};

/// Renders the three review sheets of a rigged character as `(name, image)`:
/// `placement` (bones over an x-ray body: front, right, top and a head close-up),
/// `poses` (a row per pose of the report) and `joints` (close-ups of every flagged
/// joint seen across its bend plane; absent when none is flagged), both posed as the
/// review played them: its fixes (the correctives and the preserve-volume mask, on
/// every piece of a multi-piece skin), else `skinning`. With the fixes on, `joints_before` draws
/// the joints that fail without them. Nothing without a skeleton.
pub fn review_sheets(c: &Character, r: &CheckReport, skinning: Skinning) -> Vec<(String, Image)> {
    review_sheets_with(c, r, skinning, None)
}

/// As [`review_sheets`], posed through `control` when the file has a control rig that
/// fits its skeleton ([`RigPoser`]): the sheets then show what the rig does with each
/// pose (twist bones turning by the rig's rule).
pub fn review_sheets_with(
    c: &Character,
    r: &CheckReport,
    skinning: Skinning,
    control: Option<&ControlRig>,
) -> Vec<(String, Image)> {
    let Some(s) = c.skeleton.as_ref() else {
        return Vec::new();
    };
    let poser = control.and_then(|rig| RigPoser::new(rig, s).ok());
    let plain = |p: &NamedPose| match &poser {
        Some(rp) => rp.posed_character(c, &p.pose, skinning),
        None => review::posed_character(c, p, skinning),
    };
    let mut out = vec![("placement".to_string(), placement_sheet(c, s, 1024))];
    let fixes = !r.runtime.correctives.is_empty() || !r.runtime.dqs_masks.is_empty();
    let with = |p: &NamedPose| match &poser {
        Some(_) => plain(p).0,
        None if fixes => review::posed_runtime(c, p, skinning, &r.runtime),
        None => plain(p).0,
    };
    let rows: Vec<PoseRow> = r
        .poses
        .iter()
        .map(|p| {
            let (parts, bones) = plain(p);
            let parts = if fixes && poser.is_none() {
                with(p)
            } else {
                parts
            };
            (p.name.clone(), parts, bones)
        })
        .collect();
    if !rows.is_empty() {
        out.push(("poses".to_string(), pose_sheet(&rows, c, 512)));
    }
    // With the fixes on: the joints that fail without them, drawn without them.
    let without = |p: &NamedPose| plain(p).0;
    if let Some(img) = closeups(c, r, &r.flagged_before, &without, ", without the fixes") {
        out.push(("joints_before".to_string(), img));
    }
    let tag = if fixes { ", with the fixes" } else { "" };
    if let Some(img) = closeups(c, r, &r.flagged_joints, &with, tag) {
        out.push(("joints".to_string(), img));
    }
    out
}

/// The close-up sheet of `flagged` joints, each seen across its bend plane, posed by
/// `posed` (positions per part); `None` when no flagged joint has its pose in the report.
fn closeups(
    c: &Character,
    r: &CheckReport,
    flagged: &[review::FlaggedJoint],
    posed: &dyn Fn(&NamedPose) -> Vec<Vec<Vec3>>,
    tag: &str,
) -> Option<Image> {
    let shown: Vec<(&review::FlaggedJoint, &NamedPose)> = flagged
        .iter()
        .filter_map(|f| Some((f, r.poses.iter().find(|p| p.name == f.pose)?)))
        .collect();
    let items: Vec<JointItem> = shown
        .iter()
        .map(|(f, p)| {
            (
                format!("{} {}{tag}", f.pose, f.joint),
                posed(p),
                f.centre,
                3.0 * f.radius,
            )
        })
        .collect();
    let across: Vec<Option<Vec3>> = shown.iter().map(|(f, _)| f.across).collect();
    (!items.is_empty()).then(|| joint_sheet_across(&items, &across, c, 512))
}
