//! The arms: from the trunk out to the joint furthest out on each side, and the hand.

use super::ctx::Ctx;
use super::fingers::fingers;
use super::{names_of, StructureMap};
use crate::humanoid::vrm::slot;

/// Maps both arms: returns the trunk bone each arm hangs from and the arms' slots
/// (added to `out` once the spine is mapped); problems and notes go to `out`.
pub(super) fn map_arms(
    cx: &Ctx,
    hips: usize,
    trunk: &[usize],
    leg_roots: &[usize],
    out: &mut StructureMap,
) -> (Vec<usize>, Vec<(&'static str, usize)>) {
    let in_leg = |i: usize| {
        leg_roots
            .iter()
            .any(|&r| cx.skel.is_ancestor(r, i) || r == i)
    };
    // Arms: the joint furthest out on each side, off the legs and the trunk.
    let mut shoulder_t: Vec<usize> = Vec::new();
    let mut arm_slots: Vec<(&'static str, usize)> = Vec::new();
    for (sign, side) in [(1.0f32, "left"), (-1.0, "right")] {
        let tip = (0..cx.skel.len())
            .filter(|&i| {
                cx.in_main[i]
                    && !cx.cosmetic[i]
                    && !in_leg(i)
                    && !trunk.contains(&i)
                    && i != hips
                    && cx.heads[i].x * sign > 0.05 * cx.h
            })
            .max_by(|&a, &b| {
                (cx.heads[a].x * sign)
                    .total_cmp(&(cx.heads[b].x * sign))
                    .then(b.cmp(&a))
            });
        let Some(tip) = tip else {
            out.problems.push(format!(
                "no arm on the {side} ({}X) side",
                if sign > 0.0 { "+" } else { "-" }
            ));
            continue;
        };
        let anc = cx.ancestors(tip);
        let Some(&t) = anc.iter().find(|a| trunk.contains(a)) else {
            out.problems.push(format!(
                "the {side} arm ({}) does not hang from the spine",
                cx.skel.bones[tip].name
            ));
            continue;
        };
        shoulder_t.push(t);
        let path = cx.path(t, tip).unwrap_or_default();
        match arm(cx, &path, side, &mut out.notes) {
            Ok(slots) => arm_slots.extend(slots),
            Err(e) => out
                .problems
                .push(format!("{side} arm ({}): {e}", names_of(cx.skel, &path))),
        }
    }
    (shoulder_t, arm_slots)
}

/// Shoulder, upper arm, lower arm, hand and fingers from the path trunk -> furthest
/// joint of a side.
fn arm(
    cx: &Ctx,
    path: &[usize],
    side: &str,
    notes: &mut Vec<String>,
) -> std::result::Result<Vec<(&'static str, usize)>, String> {
    let fingers_of = |b: usize| -> Vec<usize> {
        cx.body_children(b)
            .into_iter()
            .filter(|&c| !cx.is_twist(c))
            .collect()
    };
    let hk = (2..path.len())
        .find(|&k| fingers_of(path[k]).len() >= 2)
        .unwrap_or(path.len().saturating_sub(1));
    let hand = *path.get(hk).ok_or("the arm chain is empty")?;
    let before: Vec<usize> = path[..hk]
        .iter()
        .copied()
        .filter(|&b| !cx.is_twist(b))
        .collect();
    if before.len() < 2 {
        return Err(format!(
            "{} bone(s) between the trunk and the hand: an arm needs an upper and a lower arm",
            before.len()
        ));
    }
    let part = |s: &str| -> &'static str { slot(side, s) };
    // Up to four bones: shoulder(s), upper arm, lower arm. More means twist segments
    // whose names do not say so: the elbow is then the joint that bends most past the
    // first two, the upper arm the first of the straight run before it.
    let (lower, upper) = if before.len() <= 4 {
        (before.len() - 1, before.len() - 2)
    } else {
        let joint = |k: usize| {
            if k == before.len() {
                cx.heads[hand]
            } else {
                cx.heads[before[k]]
            }
        };
        let bend = |k: usize| {
            let a = (joint(k) - joint(k - 1)).normalize_or_zero();
            let b = (joint(k + 1) - joint(k)).normalize_or_zero();
            a.dot(b).clamp(-1.0, 1.0).acos().to_degrees()
        };
        let e = (2..before.len())
            .max_by(|&a, &b| bend(a).total_cmp(&bend(b)).then(b.cmp(&a)))
            .expect("five or more bones");
        let mut u = e - 1;
        while u >= 2 && bend(u) < 12.0 {
            u -= 1;
        }
        notes.push(format!(
            "{side} arm: {} bones between the trunk and the hand: elbow at {} (bends {:.0} degrees)",
            before.len(),
            cx.skel.bones[before[e]].name,
            bend(e)
        ));
        (e, u)
    };
    let mut out = vec![
        (part("Hand"), hand),
        (part("LowerArm"), before[lower]),
        (part("UpperArm"), before[upper]),
    ];
    if upper >= 1 {
        out.push((part("Shoulder"), before[0]));
    }
    let skipped: Vec<usize> = path[..hk]
        .iter()
        .copied()
        .filter(|b| !out.iter().any(|(_, x)| x == b))
        .collect();
    if !skipped.is_empty() {
        notes.push(format!(
            "{side} arm: helper/twist bones left unmapped: {}",
            names_of(cx.skel, &skipped)
        ));
    }
    out.extend(fingers(cx, hand, side, fingers_of, notes));
    Ok(out)
}
