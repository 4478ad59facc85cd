//! The legs: from the hips down to the lowest joint on each side.

use super::ctx::Ctx;
use super::{names_of, StructureMap};

/// Maps both legs into `out` from the hips and the lowest joint on each side
/// `[left, right]`; returns the first bone of each leg branch under the hips.
pub(super) fn map_legs(
    cx: &Ctx,
    hips: usize,
    feet: [usize; 2],
    out: &mut StructureMap,
) -> Vec<usize> {
    let mut leg_roots = Vec::new();
    for (sign, foot_low, names) in [
        (
            1.0f32,
            feet[0],
            ["leftUpperLeg", "leftLowerLeg", "leftFoot", "leftToes"],
        ),
        (
            -1.0,
            feet[1],
            ["rightUpperLeg", "rightLowerLeg", "rightFoot", "rightToes"],
        ),
    ] {
        let side = if sign > 0.0 { "left" } else { "right" };
        let path = cx.path(hips, foot_low).unwrap_or_default();
        if let Some(&r) = path.first() {
            leg_roots.push(r);
        }
        match leg(cx, &path) {
            Ok((u, k, a, helpers)) => {
                out.slots.insert(names[0], u);
                out.slots.insert(names[1], k);
                out.slots.insert(names[2], a);
                if !helpers.is_empty() {
                    out.notes.push(format!(
                        "{side} leg: helper/twist bones left unmapped: {}",
                        names_of(cx.skel, &helpers)
                    ));
                }
                let toes: Vec<usize> = cx
                    .body_children(a)
                    .into_iter()
                    .filter(|&c| !cx.is_twist(c) && (cx.heads[c].z - cx.heads[a].z) > 0.0)
                    .collect();
                if toes.len() == 1 {
                    out.slots.insert(names[3], toes[0]);
                } else if toes.len() > 1 {
                    out.notes.push(format!(
                        "{side} foot has {} toe chains: {} left unmapped",
                        toes.len(),
                        names[3]
                    ));
                }
            }
            Err(e) => out
                .problems
                .push(format!("{side} leg ({}): {e}", names_of(cx.skel, &path))),
        }
    }
    leg_roots
}

/// Upper leg, lower leg, foot (path indices resolved to bones) and the unmapped
/// helper bones before the foot, from the path hips -> lowest joint of a side.
fn leg(cx: &Ctx, path: &[usize]) -> Result<(usize, usize, usize, Vec<usize>), String> {
    let h = cx.h;
    let u = (0..path.len())
        .find(|&k| {
            let d = cx.dir_on(path, k);
            d.length() > 0.0 && -d.y > 0.7 * d.length()
        })
        .ok_or_else(|| {
            format!(
                "no bone runs down from the hips to the lowest joint on this side ({}): not a leg chain",
                path.last().map_or("none", |&b| cx.skel.bones[b].name.as_str())
            )
        })?;
    let hip = cx.heads[path[u]];
    if hip.y - cx.floor < 0.25 * h {
        return Err(format!(
            "the hip joint is {:.2} H above the floor (a humanoid's: about 0.5 H)",
            (hip.y - cx.floor) / h
        ));
    }
    let ankle_max = cx.floor + 0.25 * (hip.y - cx.floor);
    let a = (u + 2..path.len())
        .find(|&k| cx.heads[path[k]].y <= ankle_max)
        .ok_or_else(|| {
            format!(
                "no ankle: no joint two bones or more below the hip within {:.2} H of the floor",
                0.25 * (hip.y - cx.floor) / h
            )
        })?;
    let mid = 0.5 * (hip.y + cx.heads[path[a]].y);
    let k = (u + 1..a)
        .min_by(|&x, &y| {
            (cx.heads[path[x]].y - mid)
                .abs()
                .total_cmp(&(cx.heads[path[y]].y - mid).abs())
                .then(x.cmp(&y))
        })
        .expect("u + 1 < a");
    let helpers: Vec<usize> = (0..a)
        .filter(|&x| x != u && x != k)
        .map(|x| path[x])
        .collect();
    Ok((path[u], path[k], path[a], helpers))
}
