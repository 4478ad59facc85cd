//! Humanoid roles of a skeleton's bones (hips, spine, head, legs, arms), found from a
//! VRM humanoid map when the character carries one, else from the skeleton's own
//! complete humanoid map ([`super::map_humanoid`]), else from whole name tokens.
//!
//! The parts stage needs only a few roles: where the trunk is (cloth may parent only
//! to it), which bones are legs (cloth is never skinned to them; colliders sit on
//! them) and where the head is (hair hangs from it). Every common spelling is read:
//! `thigh_l`, `DEF-thigh.L`, `mixamorig:LeftUpLeg`, `leftUpperLeg`, `calf_r`, `shin.R`.

use std::collections::BTreeMap;

use crate::model::naming::{cosmetic_class, tokens};
use crate::model::{Side, Skeleton};

/// A limb a bone belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limb {
    /// A leg (thigh, shin, foot, toes and their twist bones) on this side.
    Leg(Side),
    /// An arm (upper arm, forearm, hand, fingers) on this side.
    Arm(Side),
}

/// The humanoid roles found in a skeleton: bone indices, `None` when not found.
/// Arrays indexed `[left, right]`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Roles {
    /// Pelvis / hips.
    pub hips: Option<usize>,
    /// Lowest spine bone above the hips.
    pub spine: Option<usize>,
    /// Highest spine/chest bone below the neck.
    pub chest: Option<usize>,
    /// Neck.
    pub neck: Option<usize>,
    /// Head.
    pub head: Option<usize>,
    /// Thighs `[L, R]`.
    pub upper_leg: [Option<usize>; 2],
    /// Shins `[L, R]`.
    pub lower_leg: [Option<usize>; 2],
    /// Feet `[L, R]`.
    pub foot: [Option<usize>; 2],
    /// Upper arms `[L, R]`.
    pub upper_arm: [Option<usize>; 2],
    /// Forearms `[L, R]`.
    pub lower_arm: [Option<usize>; 2],
    /// Per bone: the limb it belongs to, if any.
    pub limb: Vec<Option<Limb>>,
}

fn side_index(s: Side) -> Option<usize> {
    match s {
        Side::Left => Some(0),
        Side::Right => Some(1),
        Side::Center => None,
    }
}

impl Roles {
    /// Finds the roles of `skel`; `humanoid` (VRM bone name -> skeleton bone name, VRM 1.0
    /// spelling) wins where given.
    pub fn find(skel: &Skeleton, humanoid: Option<&BTreeMap<String, String>>) -> Roles {
        let n = skel.len();
        let toks: Vec<Vec<String>> = skel.bones.iter().map(|b| tokens(&b.name)).collect();
        let cosmetic: Vec<bool> = skel
            .bones
            .iter()
            .map(|b| cosmetic_class(&b.name).is_some() || is_face_name(&b.name))
            .collect();
        let has = |i: usize, t: &str| toks[i].iter().any(|x| x == t);
        let depth = skel.depths();
        // Candidates sorted by depth then index, so the first match is the highest bone.
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| (depth[i], i));
        let first = |pred: &dyn Fn(usize) -> bool| order.iter().copied().find(|&i| pred(i));
        let mut r = Roles {
            limb: vec![None; n],
            ..Roles::default()
        };
        let is_twist = |i: usize| has(i, "twist") || has(i, "roll");
        r.hips = first(&|i| {
            !cosmetic[i]
                && (has(i, "hips")
                    || has(i, "pelvis")
                    || has(i, "hip") && skel.bones[i].side == Side::Center)
        });
        r.spine = first(&|i| !cosmetic[i] && has(i, "spine"));
        r.neck = first(&|i| !cosmetic[i] && has(i, "neck") && !is_twist(i));
        r.head = first(&|i| {
            !cosmetic[i]
                && has(i, "head")
                && !has(i, "end")
                && !has(i, "top")
                && skel.bones[i].side == Side::Center
        });
        for side in [Side::Left, Side::Right] {
            let k = side_index(side).unwrap();
            let on = |i: usize| skel.bones[i].side == side && !cosmetic[i] && !is_twist(i);
            r.upper_leg[k] = first(&|i| {
                on(i)
                    && (has(i, "thigh")
                        || has(i, "upperleg")
                        || has(i, "upleg")
                        || (has(i, "leg") && (has(i, "up") || has(i, "upper"))))
            });
            r.upper_arm[k] = first(&|i| {
                on(i)
                    && (has(i, "upperarm")
                        || (has(i, "arm") && (has(i, "up") || has(i, "upper")))
                        || (has(i, "arm")
                            && toks[i]
                                .iter()
                                .filter(|t| {
                                    *t != "left"
                                        && *t != "right"
                                        && *t != "l"
                                        && *t != "r"
                                        && *t != "def"
                                        && *t != "mixamorig"
                                })
                                .count()
                                == 1))
            });
        }
        // VRM humanoid map wins; without one, the skeleton's own humanoid map when it
        // is complete (MakeHuman's `default` rig names no hips, and its `pelvis.L` is
        // a leg's hip helper, not the trunk).
        let auto;
        let humanoid = match humanoid {
            Some(h) => Some(h),
            None => {
                auto = super::humanoid_map::map_humanoid(skel);
                auto.problem.is_none().then_some(&auto.bones)
            }
        };
        if let Some(h) = humanoid {
            let get = |k: &str| h.get(k).and_then(|b| skel.find(b));
            let set = |slot: &mut Option<usize>, k: &str| {
                if let Some(i) = get(k) {
                    *slot = Some(i);
                }
            };
            set(&mut r.hips, "hips");
            set(&mut r.spine, "spine");
            set(&mut r.neck, "neck");
            set(&mut r.head, "head");
            set(&mut r.upper_leg[0], "leftUpperLeg");
            set(&mut r.upper_leg[1], "rightUpperLeg");
            set(&mut r.lower_leg[0], "leftLowerLeg");
            set(&mut r.lower_leg[1], "rightLowerLeg");
            set(&mut r.foot[0], "leftFoot");
            set(&mut r.foot[1], "rightFoot");
            set(&mut r.upper_arm[0], "leftUpperArm");
            set(&mut r.upper_arm[1], "rightUpperArm");
            set(&mut r.lower_arm[0], "leftLowerArm");
            set(&mut r.lower_arm[1], "rightLowerArm");
            if let Some(i) = get("upperChest").or_else(|| get("chest")) {
                r.chest = Some(i);
            }
        }
        // Chest: the highest trunk bone on the path from the hips to the neck/head.
        if r.chest.is_none() {
            if let Some(top) = r.neck.or(r.head) {
                let mut cur = skel.bones[top].parent;
                while let Some(c) = cur {
                    if Some(c) == r.hips {
                        break;
                    }
                    if !cosmetic[c] {
                        r.chest = Some(c);
                        break;
                    }
                    cur = skel.bones[c].parent;
                }
            }
        }
        if r.spine.is_none() {
            r.spine = r.chest;
        }
        let children = skel.children();
        // Descendants of a limb root: the limb (cosmetic bones stay out).
        let mark = |root: Option<usize>, limb: Limb, out: &mut Vec<Option<Limb>>| {
            let Some(root) = root else { return };
            let mut stack = vec![root];
            while let Some(i) = stack.pop() {
                if cosmetic[i] {
                    continue;
                }
                out[i] = Some(limb);
                stack.extend(children[i].iter().copied());
            }
        };
        let mut limb = vec![None; n];
        for side in [Side::Left, Side::Right] {
            let k = side_index(side).unwrap();
            mark(r.upper_leg[k], Limb::Leg(side), &mut limb);
            mark(r.upper_arm[k], Limb::Arm(side), &mut limb);
        }
        // Fallback by name tokens for limb bones outside the found roots.
        for i in 0..n {
            if limb[i].is_some() || cosmetic[i] {
                continue;
            }
            let s = skel.bones[i].side;
            if s == Side::Center {
                continue;
            }
            let legish = [
                "thigh", "leg", "calf", "shin", "knee", "foot", "toe", "toes", "ankle", "upleg",
            ];
            let armish = [
                "arm", "forearm", "upperarm", "lowerarm", "hand", "elbow", "wrist",
            ];
            if legish.iter().any(|t| has(i, t)) {
                limb[i] = Some(Limb::Leg(s));
            } else if armish.iter().any(|t| has(i, t)) {
                limb[i] = Some(Limb::Arm(s));
            }
        }
        r.limb = limb;
        // Lower legs, feet and forearms: along each limb's first chain.
        for k in 0..2 {
            if r.lower_leg[k].is_none() {
                r.lower_leg[k] = next_in_limb(
                    skel,
                    &children,
                    &cosmetic,
                    &toks,
                    r.upper_leg[k],
                    &["thigh", "upleg", "upperleg"],
                );
            }
            if r.foot[k].is_none() {
                r.foot[k] = next_in_limb(
                    skel,
                    &children,
                    &cosmetic,
                    &toks,
                    r.lower_leg[k],
                    &["calf", "shin", "lowerleg"],
                );
            }
            if r.lower_arm[k].is_none() {
                r.lower_arm[k] = next_in_limb(
                    skel,
                    &children,
                    &cosmetic,
                    &toks,
                    r.upper_arm[k],
                    &["upperarm", "upper"],
                );
            }
        }
        r
    }

    /// Whether bone `i` is on a leg.
    pub fn is_leg(&self, i: usize) -> bool {
        matches!(self.limb.get(i), Some(Some(Limb::Leg(_))))
    }

    /// Whether bone `i` is on an arm.
    pub fn is_arm(&self, i: usize) -> bool {
        matches!(self.limb.get(i), Some(Some(Limb::Arm(_))))
    }

    /// The side of the leg bone `i` is on, if it is a leg bone.
    pub fn leg_side(&self, i: usize) -> Option<Side> {
        match self.limb.get(i) {
            Some(Some(Limb::Leg(s))) => Some(*s),
            _ => None,
        }
    }
}

/// Face and eye bone names: cosmetic, but they must never swing.
pub(crate) fn is_face_name(name: &str) -> bool {
    let t = tokens(name);
    t.iter().any(|x| {
        matches!(
            x.as_str(),
            "eye"
                | "eyes"
                | "eyelid"
                | "brow"
                | "eyebrow"
                | "jaw"
                | "mouth"
                | "lip"
                | "lips"
                | "tongue"
                | "cheek"
                | "face"
                | "teeth"
                | "nose"
        )
    })
}

/// The next bone down a limb from `from`: the first descendant (depth-first, skipping
/// twist/roll segments) whose name is not one of `same` (the bone's own kind).
fn next_in_limb(
    skel: &Skeleton,
    children: &[Vec<usize>],
    cosmetic: &[bool],
    toks: &[Vec<String>],
    from: Option<usize>,
    same: &[&str],
) -> Option<usize> {
    let from = from?;
    let mut cur = from;
    for _ in 0..skel.len() {
        let next = children[cur].iter().copied().find(|&c| !cosmetic[c])?;
        let t = &toks[next];
        let twist = t.iter().any(|x| x == "twist" || x == "roll");
        let samekind = t.iter().any(|x| same.contains(&x.as_str()));
        if twist || samekind {
            cur = next;
            continue;
        }
        return Some(next);
    }
    None
}
