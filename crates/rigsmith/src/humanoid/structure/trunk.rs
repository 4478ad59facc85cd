//! The trunk: spine, chest, neck and head on the path from the hips to the top of the
//! head, and the eyes and jaw below the head.

use super::ctx::Ctx;
use super::{names_of, StructureMap};

/// Maps the spine up to the bone the arms hang from (`shoulder_t`), then the neck and
/// head above it, into `out`. `false` when the trunk cannot be read (no arm on it, or
/// not upright): the arms are then left out too.
pub(super) fn map_trunk(
    cx: &Ctx,
    hips: usize,
    trunk: &[usize],
    shoulder_t: &[usize],
    leg_roots: &[usize],
    out: &mut StructureMap,
) -> bool {
    let h = cx.h;
    // Spine: the trunk up to the bone the arms hang from.
    let t_pos = shoulder_t
        .iter()
        .filter_map(|t| trunk.iter().position(|x| x == t))
        .max();
    let Some(t_pos) = t_pos else {
        out.problems
            .push("no arms hang from the spine: spine, chest and neck not found".into());
        return false;
    };
    let spine_bones = &trunk[..=t_pos];
    let neck_chain = &trunk[t_pos + 1..];
    let hip_y = cx.heads[hips].y;
    let neck_y = neck_chain
        .first()
        .map(|&b| cx.heads[b].y)
        .unwrap_or(cx.heads[cx.top].y);
    let rise = neck_y - hip_y;
    if rise < 0.15 * h {
        out.problems.push(format!(
            "the trunk is not upright: the neck is {:.2} H above the hips (an upright humanoid: over 0.15 H)",
            rise / h
        ));
        return false;
    }
    let frac = |b: usize| (cx.heads[b].y - hip_y) / rise;
    // Pelvis bones at the bottom of the chain: not above the hips, or starting where a
    // leg branch starts (MakeHuman's `spine05` and `pelvis.L` share their head).
    let at_leg_root = |b: usize| {
        leg_roots
            .iter()
            .any(|&r| (cx.heads[r] - cx.heads[b]).length() < 0.01 * h)
    };
    let n_pelvis = spine_bones
        .iter()
        .take_while(|&&b| frac(b) <= 0.0 || at_leg_root(b))
        .count();
    let pelvis: Vec<usize> = spine_bones[..n_pelvis].to_vec();
    let mut c: Vec<usize> = spine_bones[n_pelvis..].to_vec();
    if c.is_empty() {
        c = spine_bones.to_vec();
    } else if !pelvis.is_empty() {
        out.notes.push(format!(
            "spine bones at the hips' height left unmapped: {}",
            names_of(cx.skel, &pelvis)
        ));
    }
    out.slots.insert("spine", c[0]);
    if c.len() == 2 {
        out.slots.insert("chest", c[1]);
    } else if c.len() >= 3 {
        let last = c.len() - 1;
        out.slots.insert("upperChest", c[last]);
        // The bone below the upper chest: the ribcage's lower half. (The bone nearest
        // 40 % of the rise was tried: it flipped between MakeHuman's `spine02` and
        // `spine03` from one body shape to the next.)
        let chest = c[last - 1];
        out.slots.insert("chest", chest);
    }
    // Neck and head.
    if neck_chain.is_empty() {
        out.problems
            .push("nothing above the shoulders: no neck or head".into());
    } else {
        let named = neck_chain.iter().copied().find(|&b| {
            cx.has(b, "head")
                && !["end", "top", "nub", "tip"].iter().any(|t| cx.has(b, t))
                && cx.heads[b].x.abs() < 0.05 * h
        });
        let head = named.unwrap_or_else(|| {
            let branch = neck_chain
                .iter()
                .copied()
                .skip(1)
                .find(|&b| cx.body_children(b).len() != 1)
                .unwrap_or(*neck_chain.last().expect("non-empty"));
            face_root_parent(cx, neck_chain, branch).unwrap_or(branch)
        });
        if neck_chain.len() > 1 && head != neck_chain[0] {
            out.slots.insert("neck", neck_chain[0]);
        }
        out.slots.insert("head", head);
        // Eyes and jaw, when named clearly, below the head.
        let mut below: Vec<usize> = (0..cx.skel.len())
            .filter(|&i| cx.skel.is_ancestor(head, i) && i != head)
            .collect();
        below.sort_by_key(|&i| (cx.depth[i], i));
        let eye = |sign: f32| {
            below.iter().copied().find(|&i| {
                cx.has(i, "eye")
                    && !["lid", "brow", "lash", "end"].iter().any(|t| cx.has(i, t))
                    && cx.heads[i].x * sign > 0.005 * h
            })
        };
        if let (Some(l), Some(r)) = (eye(1.0), eye(-1.0)) {
            out.slots.insert("leftEye", l);
            out.slots.insert("rightEye", r);
        }
        if let Some(j) = below
            .iter()
            .copied()
            .find(|&i| cx.has(i, "jaw") && cx.heads[i].x.abs() < 0.02 * h && !cx.has(i, "end"))
        {
            out.slots.insert("jaw", j);
        }
    }
    true
}

/// The head bone when `branch` (where the chain above the neck branches) is the root of
/// the face's bones rather than the head: a bone that starts where its parent in the
/// chain starts (Rigify's `face`, hung from the head bone `spine.006` at its base) is
/// the parent's child root, and the parent, above the neck, is the head.
fn face_root_parent(cx: &Ctx, neck_chain: &[usize], branch: usize) -> Option<usize> {
    let p = cx.skel.bones[branch].parent?;
    let k = neck_chain.iter().position(|&b| b == p)?;
    (k >= 1 && (cx.heads[branch] - cx.heads[p]).length() < 0.01 * cx.h).then_some(p)
}
