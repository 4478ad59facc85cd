//! The structure route of the humanoid map: which bone is the hips, the spine, each
//! arm, leg and finger, from the hierarchy and the joints' positions, names serving
//! only as hints, the way a rigger reads a rig:
//! * the **hips** are where the two leg branches and the spine branch meet: the
//!   nearest common ancestor of the lowest joint on each side (of the joints within
//!   0.05 H of the floor there, the deepest in the hierarchy: an IK foot target
//!   under the root is not a leg) and the highest joint of the body's centre line
//!   (the top of the head);
//! * each **leg** is the path from the hips down to the lowest joint on its side:
//!   the upper leg is the first bone on it that runs downward (a sideways hip helper
//!   such as MakeHuman's `pelvis.L` or CMU's `LHipJoint` is skipped), the foot the
//!   first joint within a quarter of the hip height above the floor, the lower leg
//!   the joint between them nearest half way down (the knee; twist segments such as
//!   `upperleg02.L` stay unmapped), the toes the foot's only child when it has one;
//! * each **arm** is the path from the trunk out to the joint furthest out on its
//!   side: the hand is the first bone on it that branches into two or more fingers
//!   (or the last bone when there are no fingers); the bones between the trunk and
//!   the hand, twist segments removed (a `twist`/`roll` token, or a bone named like
//!   its parent plus a number that continues its parent's line, as `upperarm02.L`),
//!   give the lower arm (last), the upper arm (the one before) and the shoulder
//!   (the first, when there are three or more). Five or more bones there mean twist
//!   segments whose names do not say so: the elbow is then the joint past the
//!   first two that bends most, the upper arm the first bone of the straight run
//!   (within 12 degrees) before it (a straight T-pose arm gives no such clue);
//! * the **spine** is the path from the hips to the bone the arms hang from: bones
//!   at its bottom whose head is not above the hips or starts where a leg branch
//!   starts (MakeHuman's `spine05` shares its head with `pelvis.L`) are part of the
//!   pelvis and skipped; of the rest the first is `spine`, with two `chest` is
//!   the second, with three or more `upperChest` is the last (the one below the
//!   neck) and `chest` the one below it (the ribcage's lower half);
//! * **neck and head** are on the path from there to the top: a centre bone named
//!   `head` is the head, else the first bone past the first that ends the path or
//!   branches in two; the neck is the first bone when it is not the head;
//! * **fingers** are the hand's branches, each followed to its tip: a finger named
//!   `thumb`, `index`, `middle`, `ring`, `pinky`/`little` is that finger; a hand of
//!   five unnamed branches has its thumb found as the branch whose base is nearest
//!   the wrist (the thumb's carpometacarpal joint; the others start at the
//!   knuckles, past a metacarpal bone when there is one) and the rest ordered by
//!   distance from the thumb's tip (index nearest).
//!   A finger's first bone is a metacarpal when its head sits by the wrist (nearer
//!   than half way to the next joint): a finger skips it, then maps proximal,
//!   intermediate and distal (a fourth bone, Mixamo's end bone, stays out); a
//!   thumb maps metacarpal, proximal and distal from its first bone (two bones:
//!   metacarpal and proximal when the first sits by the wrist, else proximal and
//!   distal);
//! * **eyes and jaw** when named clearly (`eye`, `jaw`) below the head.
//!
//! Sides come from positions (+X is the character's left), never from names, so a
//! skeleton whose `.L`/`.R` names are swapped still maps its left arm to
//! `leftUpperArm`. The structure route keeps the template's other bones where they
//! fit the hierarchy.

use std::collections::BTreeMap;

use crate::model::Skeleton;

mod arms;
mod ctx;
mod fingers;
mod legs;
mod trunk;

use ctx::Ctx;

/// What [`structure_map`] found.
#[derive(Debug, Clone, Default)]
pub struct StructureMap {
    /// VRM bone -> skeleton bone index.
    pub slots: BTreeMap<&'static str, usize>,
    /// Why slots could not be filled (empty when all required bones were found).
    pub problems: Vec<String>,
    /// Decisions worth telling (skipped helpers, unmapped toes).
    pub notes: Vec<String>,
}

/// Maps `skel` to the VRM humanoid by its structure and geometry alone (see the module
/// docs); names serve only as hints for the head, fingers, eyes and jaw.
pub fn structure_map(skel: &Skeleton) -> StructureMap {
    let mut out = StructureMap::default();
    let found = Ctx::new(skel).and_then(|cx| cx.hips().map(|h| (cx, h)));
    let (cx, (hips, feet)) = match found {
        Ok(x) => x,
        Err(e) => {
            out.problems.push(e);
            return out;
        }
    };
    out.slots.insert("hips", hips);
    let leg_roots = legs::map_legs(&cx, hips, feet, &mut out);
    let trunk = cx.path(hips, cx.top).unwrap_or_default();
    let (shoulder_t, arm_slots) = arms::map_arms(&cx, hips, &trunk, &leg_roots, &mut out);
    if trunk::map_trunk(&cx, hips, &trunk, &shoulder_t, &leg_roots, &mut out) {
        // The arms, once the spine has its slots.
        for (k, v) in arm_slots {
            out.slots.insert(k, v);
        }
    }
    out
}

/// Bone names joined with ` > `, for notes and problems.
fn names_of(skel: &Skeleton, bones: &[usize]) -> String {
    bones
        .iter()
        .map(|&b| skel.bones[b].name.as_str())
        .collect::<Vec<_>>()
        .join(" > ")
}
