//! The review of a mechanical character: its own report, not the biped's.
//!
//! A robot, an armour set or a prop is closed hard-surface islands, each on one bone.
//! The biped rubric judges a skin and the garments over it: on rigid islands it reads
//! plates and pistons as garments (`weights.garment.*`, their penetration in poses)
//! and a piece rigid to its own bone as weighted "far" from the bone it sees
//! (`weights.far_bone`), so it fails a sound rig. [`check_report`] runs instead:
//!
//! | id | measure | limit | severity |
//! |---|---|---|---|
//! | `weights.unweighted`, `weights.finite` | the weight report's ([`crate::bind::report`]) | 0 | blocker |
//! | `weights.normalization`, `weights.max_influences`, `structure.deform_hygiene` | the weight report's | as there | major |
//! | `mech.rigid` | largest relative edge change of an island in any test pose ([`super::rigid_check`]) | at most [`super::RIGID_TOL`] | major |
//! | `mech.action.<name>` | per keyed action, largest departure of a driven bone's turn at half travel from half its turn at full travel, and of its full turn from its key, as a share of the key | at most [`ACTION_TOL`] | major |
//!
//! The poses are [`super::test_poses`] (every deform bone bent on its own, every action
//! at half and full travel): the report's sheets and viewer show them. Islands that
//! interpenetrate at rest ([`super::rest_overlaps`]: a rod in its cylinder) are listed
//! as not judged, never as a failure.

use glam::Mat4;

use super::{CheckOptions, CheckReport, PartLine};
use crate::error::{Error, Result};
use crate::mech::{test_poses, Action, MechSpec};
use crate::model::{Character, Skeleton};
use crate::pose::{posed_matrices, Pose};
use crate::report::{Check, Counts, Severity};

/// The largest departure `mech.action.<name>` allows, as a share of the key's angle.
pub const ACTION_TOL: f64 = 1e-4;

/// The weight report's checks that hold for rigid islands. The others judge a skin
/// (`weights.empty_major`, `weights.far_bone`, `weights.unlike_nearest`,
/// `weights.symmetry`) or garments (`weights.garment_far`).
const WEIGHT_CHECKS: [&str; 5] = [
    "weights.unweighted",
    "weights.finite",
    "weights.normalization",
    "weights.max_influences",
    "structure.deform_hygiene",
];

/// The review of a mechanical character `c` (bound, with its skeleton) under `spec`:
/// the checks of the module docs over [`test_poses`]. `o.max_influences` is the
/// influence limit; the other options are the biped rubric's and do not apply.
///
/// Errors: `c` is structurally invalid or has no skeleton.
pub fn check_report(c: &Character, spec: &MechSpec, o: &CheckOptions) -> Result<CheckReport> {
    c.validate()?;
    let s = c.skeleton.as_ref().ok_or_else(|| {
        Error::stage(
            "check",
            "the mechanical character has no skeleton: nothing to check",
        )
    })?;
    let poses = test_poses(s, &spec.actions);
    let report = crate::bind::weight_report(c);
    let mut checks: Vec<Check> = report
        .checks_with(o.max_influences)
        .into_iter()
        .filter(|k| WEIGHT_CHECKS.contains(&k.id.as_str()))
        .collect();
    let (rigid, per, overlaps) = crate::mech::review(c, s, spec);
    checks.push(rigid);
    checks.extend(spec.actions.iter().map(|a| action_check(s, a)));
    let mut not_verified = vec![
        "skin checks (joint bands, strain, cross-side leak, self-intersections, far bones, empty major bones) and garment checks: a mechanical character has no skin, each island is rigid on one bone".to_string(),
        "weight symmetry: islands are bound one by one, each to its own or its nearest bone".to_string(),
    ];
    not_verified.extend(overlaps.iter().map(|n| {
        format!("{n} (reported, not judged: a rod in its cylinder, a pin through its plate)")
    }));
    let route = format!(
        "mechanical: linear blend skinning of {} islands in {} parts, each on one bone at 1.0, on {} bones; {} test poses (each deform bone bent {} deg on its own, each of {} keyed actions at half and full travel) measured for rigid islands; {} island pairs interpenetrate at rest",
        per.len(),
        c.parts.len(),
        s.len(),
        poses.len(),
        crate::mech::TEST_BEND_DEG,
        spec.actions.len(),
        overlaps.len()
    );
    let counts = Counts::of(&checks);
    Ok(CheckReport {
        checks,
        counts,
        not_verified,
        route,
        weights: report,
        poses,
        flagged_joints: Vec::new(),
        flagged_before: Vec::new(),
        runtime: Default::default(),
        parts: part_lines(c),
    })
}

/// Every part as rigid islands.
fn part_lines(c: &Character) -> Vec<PartLine> {
    let isl = crate::mech::islands(c);
    c.parts
        .iter()
        .enumerate()
        .map(|(i, p)| PartLine {
            part: p.name.clone(),
            class: "rigid".into(),
            reason: format!(
                "mechanical: {} islands, each on one bone at 1.0",
                isl.iter().filter(|x| x.part == i).count()
            ),
        })
        .collect()
}

/// The turn of bone `b` in pose `p` from rest, degrees (from its skinning matrix).
fn turn_deg(s: &Skeleton, p: &Pose, b: usize) -> f32 {
    let m: Mat4 = posed_matrices(s, p)[b];
    let (_, q, _) = m.to_scale_rotation_translation();
    q.to_axis_angle().1.to_degrees()
}

/// `mech.action.<name>`: the action posed on the skeleton at half and full travel;
/// each driven bone's turn measured from its skinning matrix. A key on a bone the
/// skeleton lacks, or one that turns nothing, fails it (value 1: the whole key).
fn action_check(s: &Skeleton, a: &Action) -> Check {
    let at = |f: f32| {
        let mut p = Pose::rest(s);
        a.apply(s, &mut p, f * a.travel);
        p
    };
    let (half, full) = (at(0.5), at(1.0));
    let mut worst = (0.0f64, String::from("no keys"));
    for k in &a.keys {
        let Some(b) = s.find(&k.bone) else {
            worst = (1.0, format!("{}: no such bone", k.bone));
            break;
        };
        let want = k.degrees.abs() as f64;
        if want <= 0.0 {
            worst = (1.0, format!("{}: the key turns it 0 deg", k.bone));
            break;
        }
        let (h, f) = (turn_deg(s, &half, b) as f64, turn_deg(s, &full, b) as f64);
        let e = ((h - 0.5 * f).abs() + (f - want).abs()) / want;
        if e >= worst.0 {
            worst = (
                e,
                format!(
                    "{}: {h:.4} deg at half travel, {f:.4} at full (key {want})",
                    k.bone
                ),
            );
        }
    }
    Check::new(format!("mech.action.{}", a.name), "B", Severity::Major)
        .title(format!("Action {:?}: half the travel turns half", a.name))
        .measure("largest |turn at half travel - half the turn at full| + |turn at full - key|, over the key's angle")
        .detail(format!(
            "{} keys driven by {}; worst {}",
            a.keys.len(),
            a.control,
            worst.1
        ))
        .at_most(worst.0, ACTION_TOL)
}
