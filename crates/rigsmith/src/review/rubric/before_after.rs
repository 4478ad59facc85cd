//! Each joint measure before and after the fixes: when the review plays the
//! preserve-volume mask or corrective shapes, the joint poses are measured a second
//! time without them (plain skinning, the twist rules kept), and every band and bulge
//! check says both figures. The joints that fail without the fixes are kept for the
//! close-up sheet of the "before" state.

use super::{poses, Ctx, Out};
use crate::pose::NamedPose;
use crate::review::CheckOptions;

/// Measures the joint poses of `library` (rules already applied) without the fixes and
/// writes the figures into the matching checks of `out`; returns the joints that fail
/// without the fixes.
pub(super) fn compare(
    cx: &Ctx<'_>,
    library: &[NamedPose],
    out: &mut Out,
) -> Vec<crate::review::FlaggedJoint> {
    let joint_poses: Vec<NamedPose> = library
        .iter()
        .filter(|p| {
            p.tests
                .iter()
                .any(|t| t.band_min.is_some() || t.bulge_max.is_some())
        })
        .cloned()
        .collect();
    if joint_poses.is_empty() {
        return Vec::new();
    }
    let plain = CheckOptions {
        library: Some(joint_poses),
        self_intersections: false,
        twist_rules: false,
        dqs_blend: false,
        dqs_masks: Default::default(),
        correctives: Vec::new(),
        ..cx.o.clone()
    };
    let pcx = Ctx {
        c: cx.c,
        classes: cx.classes,
        s: cx.s,
        rig: cx.rig.clone(),
        body: cx.body,
        bw: cx.bw,
        h: cx.h,
        mid_x: cx.mid_x,
        o: &plain,
    };
    let mut before = Out::default();
    poses::section(&pcx, &[], &mut before);
    for b in before
        .checks
        .iter()
        .filter(|k| k.id.ends_with(".band") || k.id.ends_with(".bulge"))
    {
        if let Some(a) = out.checks.iter_mut().find(|k| k.id == b.id) {
            a.detail = format!(
                "{}; without the fixes {:.2}{}",
                a.detail,
                b.value,
                if b.passed { "" } else { " (fails)" }
            );
        }
    }
    before.flagged
}
