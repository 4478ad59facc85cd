//! [`Roles`]: the one answer to "which bone is what" on a skeleton, for every stage.
//!
//! Each [`Role`] is resolved once, by three routes in order of trust:
//!
//! 1. **A humanoid map.** The character's own VRM humanoid map when it has one, else
//!    the skeleton's map from [`map_humanoid`] (template names, else structure and
//!    geometry) when that map is complete. MakeHuman's `default` rig names no hips and
//!    its `pelvis.L` is a leg's hip helper: only the map gets its trunk right.
//! 2. **Names**, for the roles the map leaves out: the stem of a role
//!    ([`Role::stems`]; when two bones claim a role, deform bones win, then the
//!    shallower bone, then the first), else whole name tokens for the trunk, thighs and
//!    upper arms (a quadruped's `BackUpperLeg.L`; the shallowest bone). The pelvis,
//!    when nothing names it, is the nearest common ancestor of both thighs (Rigify
//!    calls its pelvis `DEF-spine`).
//! 3. **The hierarchy**: the chest is the highest trunk bone below the neck (or head);
//!    a lower leg, foot or forearm that nothing names is the next bone down its limb,
//!    past twist segments and bones of the limb's own kind.
//!
//! A role nothing claims is listed in [`Roles::unknown`] with the spellings tried; it
//! is never guessed from geometry alone. Each bone below a found thigh or upper arm
//! (cosmetic bones left out) belongs to that [`Limb`]; a sided bone outside them whose
//! name has a leg or arm token (`knee`, `wrist`...) does too.

use std::collections::BTreeMap;

use super::map::map_humanoid;
use super::names::is_twist_name;
use super::names::{is_face_name, normalized_stem, Role};
use crate::model::naming::{cosmetic_class, tokens};
use crate::model::{Character, Side, Skeleton};

/// A limb a bone belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limb {
    /// A leg (thigh, shin, foot, toes and their twist bones) on this side.
    Leg(Side),
    /// An arm (upper arm, forearm, hand, fingers) on this side.
    Arm(Side),
}

/// The humanoid roles of a skeleton's bones: bone indices, `None` when not found.
/// Arrays are indexed `[left, right]`.
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
    /// Jaw.
    pub jaw: Option<usize>,
    /// Clavicles (shoulders) `[L, R]`.
    pub clavicle: [Option<usize>; 2],
    /// Upper arms `[L, R]`.
    pub upper_arm: [Option<usize>; 2],
    /// Forearms `[L, R]`.
    pub lower_arm: [Option<usize>; 2],
    /// Hands `[L, R]`.
    pub hand: [Option<usize>; 2],
    /// Thighs `[L, R]`.
    pub upper_leg: [Option<usize>; 2],
    /// Shins `[L, R]`.
    pub lower_leg: [Option<usize>; 2],
    /// Feet `[L, R]`.
    pub foot: [Option<usize>; 2],
    /// Toes `[L, R]`.
    pub toe: [Option<usize>; 2],
    /// Per bone: the limb it belongs to, if any.
    pub limb: Vec<Option<Limb>>,
    /// Roles nothing claimed, each with the spellings tried, in plain words.
    pub unknown: Vec<String>,
}

/// `[left, right]` index of a side (`None` for the centre).
pub(crate) fn side_index(s: Side) -> Option<usize> {
    match s {
        Side::Left => Some(0),
        Side::Right => Some(1),
        Side::Center => None,
    }
}

/// The looser names rule, for a role no stem names: whole name tokens (a quadruped's
/// `BackUpperLeg.L` is an upper leg, `LeftArm_Upper` an upper arm), the shallowest
/// non-cosmetic, non-twist bone of the role's side.
fn by_tokens(s: &Skeleton, role: Role, cosmetic: &[bool], depths: &[usize]) -> Option<usize> {
    let side = role.side();
    let want = |i: usize| -> bool {
        let b = &s.bones[i];
        if cosmetic[i] || is_twist_name(&b.name) || b.side != side {
            return false;
        }
        let t = tokens(&b.name);
        let has = |w: &str| t.iter().any(|x| x == w);
        match role {
            Role::Pelvis => has("hips") || has("pelvis") || has("hip"),
            Role::Neck => has("neck"),
            Role::Head => has("head") && !has("end") && !has("top"),
            Role::Thigh(_) => {
                has("thigh")
                    || has("upperleg")
                    || has("upleg")
                    || (has("leg") && (has("up") || has("upper")))
            }
            Role::UpperArm(_) => {
                let plain = t
                    .iter()
                    .filter(|x| {
                        !["left", "right", "l", "r", "def", "mixamorig"].contains(&x.as_str())
                    })
                    .count();
                has("upperarm") || (has("arm") && (has("up") || has("upper") || plain == 1))
            }
            _ => false,
        }
    };
    (0..s.len())
        .filter(|&i| want(i))
        .min_by_key(|&i| (depths[i], i))
}

impl Roles {
    /// Resolves the roles of `skel` (see the module docs). `humanoid` (VRM humanoid bone
    /// name -> skeleton bone name, VRM 1.0 spelling) is the character's own map, when
    /// it has one.
    pub fn of(skel: &Skeleton, humanoid: Option<&BTreeMap<String, String>>) -> Roles {
        let n = skel.len();
        let cosmetic: Vec<bool> = skel
            .bones
            .iter()
            .map(|b| cosmetic_class(&b.name).is_some() || is_face_name(&b.name))
            .collect();
        let mut r = Roles {
            limb: vec![None; n],
            ..Roles::default()
        };
        let auto;
        let map = match humanoid {
            Some(h) => Some(h),
            None => {
                auto = map_humanoid(skel);
                auto.problem.is_none().then_some(&auto.bones)
            }
        };
        let get = |k: &str| map.and_then(|h| h.get(k)).and_then(|b| skel.find(b));
        for role in Role::all() {
            if let Some(i) = get(role.vrm_name()) {
                *r.slot(role) = Some(i);
            }
        }
        r.spine = get("spine");
        r.chest = get("upperChest").or_else(|| get("chest"));
        r.by_name(skel, &cosmetic);
        r.chest_from_hierarchy(skel, &cosmetic);
        if r.spine.is_none() {
            let depths = skel.depths();
            r.spine = (0..n)
                .filter(|&i| {
                    !cosmetic[i] && tokens(&skel.bones[i].name).iter().any(|t| t == "spine")
                })
                .min_by_key(|&i| (depths[i], i))
                .or(r.chest);
        }
        r.mark_limbs(skel, &cosmetic);
        r.limb_chains(skel, &cosmetic);
        r
    }

    /// The roles of a character's skeleton, through its VRM humanoid map if it has one;
    /// `None` without a skeleton.
    pub fn of_character(c: &Character) -> Option<Roles> {
        let s = c.skeleton.as_ref()?;
        Some(Roles::of(s, c.vrm.as_ref().map(|v| &v.humanoid)))
    }

    fn slot(&mut self, role: Role) -> &mut Option<usize> {
        let k = |s: Side| side_index(s).unwrap_or(0);
        match role {
            Role::Pelvis => &mut self.hips,
            Role::Neck => &mut self.neck,
            Role::Head => &mut self.head,
            Role::Jaw => &mut self.jaw,
            Role::Clavicle(s) => &mut self.clavicle[k(s)],
            Role::UpperArm(s) => &mut self.upper_arm[k(s)],
            Role::Forearm(s) => &mut self.lower_arm[k(s)],
            Role::Hand(s) => &mut self.hand[k(s)],
            Role::Thigh(s) => &mut self.upper_leg[k(s)],
            Role::Calf(s) => &mut self.lower_leg[k(s)],
            Role::Foot(s) => &mut self.foot[k(s)],
            Role::Toe(s) => &mut self.toe[k(s)],
        }
    }

    /// The bone of a role.
    pub fn get(&self, role: Role) -> Option<usize> {
        let k = |s: Side| side_index(s).unwrap_or(0);
        match role {
            Role::Pelvis => self.hips,
            Role::Neck => self.neck,
            Role::Head => self.head,
            Role::Jaw => self.jaw,
            Role::Clavicle(s) => self.clavicle[k(s)],
            Role::UpperArm(s) => self.upper_arm[k(s)],
            Role::Forearm(s) => self.lower_arm[k(s)],
            Role::Hand(s) => self.hand[k(s)],
            Role::Thigh(s) => self.upper_leg[k(s)],
            Role::Calf(s) => self.lower_leg[k(s)],
            Role::Foot(s) => self.foot[k(s)],
            Role::Toe(s) => self.toe[k(s)],
        }
    }

    /// How many of [`Role::all`] were found.
    pub fn found(&self) -> usize {
        Role::all()
            .into_iter()
            .filter(|&r| self.get(r).is_some())
            .count()
    }

    /// The names route, for the roles the map left out, and the pelvis fallback.
    fn by_name(&mut self, s: &Skeleton, cosmetic: &[bool]) {
        let stems: Vec<(String, Side)> = s.bones.iter().map(|b| normalized_stem(&b.name)).collect();
        let depths = s.depths();
        for role in Role::all() {
            if self.slot(role).is_some() {
                continue;
            }
            let vrm_stem = normalized_stem(role.vrm_name()).0;
            let best = (0..s.len())
                .filter(|&i| {
                    let (stem, side) = &stems[i];
                    *side == role.side()
                        && (role.stems().contains(&stem.as_str()) || *stem == vrm_stem)
                })
                .min_by_key(|&i| (!s.bones[i].deform, depths[i], i))
                .or_else(|| by_tokens(s, role, cosmetic, &depths));
            match best {
                Some(i) => *self.slot(role) = Some(i),
                None if role == Role::Pelvis => {}
                None => self.unknown.push(format!(
                    "{}: no bone named like {} (side {})",
                    role.key(),
                    role.stems().join("/"),
                    role.side().letter()
                )),
            }
        }
        if self.hips.is_some() {
            return;
        }
        match (self.upper_leg[0], self.upper_leg[1]) {
            (Some(l), Some(r)) => {
                let mut cur = s.bones[l].parent;
                while let Some(c) = cur {
                    if s.is_ancestor(c, r) {
                        self.hips = Some(c);
                        return;
                    }
                    cur = s.bones[c].parent;
                }
                self.unknown
                    .push("pelvis: the thighs share no ancestor".to_string());
            }
            _ => self.unknown.push(format!(
                "pelvis: no bone named like {} and no pair of thighs",
                Role::Pelvis.stems().join("/")
            )),
        }
    }

    /// The chest, when no map gave it: the highest trunk bone on the path from the
    /// hips to the neck (or head).
    fn chest_from_hierarchy(&mut self, skel: &Skeleton, cosmetic: &[bool]) {
        if self.chest.is_some() {
            return;
        }
        let Some(top) = self.neck.or(self.head) else {
            return;
        };
        let mut cur = skel.bones[top].parent;
        while let Some(c) = cur {
            if Some(c) == self.hips {
                break;
            }
            if !cosmetic[c] {
                self.chest = Some(c);
                break;
            }
            cur = skel.bones[c].parent;
        }
    }

    /// Limb membership: the descendants of each thigh and upper arm, then sided bones
    /// with a leg or arm token.
    fn mark_limbs(&mut self, skel: &Skeleton, cosmetic: &[bool]) {
        let children = skel.children();
        let mut limb = vec![None; skel.len()];
        for side in [Side::Left, Side::Right] {
            let k = side_index(side).expect("a side");
            for (root, kind) in [
                (self.upper_leg[k], Limb::Leg(side)),
                (self.upper_arm[k], Limb::Arm(side)),
            ] {
                let mut stack: Vec<usize> = root.into_iter().collect();
                while let Some(i) = stack.pop() {
                    if cosmetic[i] {
                        continue;
                    }
                    limb[i] = Some(kind);
                    stack.extend(children[i].iter().copied());
                }
            }
        }
        const LEGISH: [&str; 10] = [
            "thigh", "leg", "calf", "shin", "knee", "foot", "toe", "toes", "ankle", "upleg",
        ];
        const ARMISH: [&str; 7] = [
            "arm", "forearm", "upperarm", "lowerarm", "hand", "elbow", "wrist",
        ];
        for (i, b) in skel.bones.iter().enumerate() {
            if limb[i].is_some() || cosmetic[i] || b.side == Side::Center {
                continue;
            }
            let t = tokens(&b.name);
            let has = |list: &[&str]| t.iter().any(|x| list.contains(&x.as_str()));
            if has(&LEGISH) {
                limb[i] = Some(Limb::Leg(b.side));
            } else if has(&ARMISH) {
                limb[i] = Some(Limb::Arm(b.side));
            }
        }
        self.limb = limb;
    }

    /// Lower legs, feet and forearms nothing named: the next bone down each limb.
    fn limb_chains(&mut self, skel: &Skeleton, cosmetic: &[bool]) {
        let children = skel.children();
        let next = |from: Option<usize>, same: &[&str]| -> Option<usize> {
            let mut cur = from?;
            for _ in 0..skel.len() {
                let nx = children[cur].iter().copied().find(|&c| !cosmetic[c])?;
                let t = tokens(&skel.bones[nx].name);
                if is_twist_name(&skel.bones[nx].name)
                    || t.iter().any(|x| same.contains(&x.as_str()))
                {
                    cur = nx;
                    continue;
                }
                return Some(nx);
            }
            None
        };
        for k in 0..2 {
            if self.lower_leg[k].is_none() {
                self.lower_leg[k] = next(self.upper_leg[k], &["thigh", "upleg", "upperleg"]);
            }
            if self.foot[k].is_none() {
                self.foot[k] = next(self.lower_leg[k], &["calf", "shin", "lowerleg"]);
            }
            if self.lower_arm[k].is_none() {
                self.lower_arm[k] = next(self.upper_arm[k], &["upperarm", "upper"]);
            }
        }
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

    /// The root of the leg chain on `side`: its thigh.
    pub fn leg_root(&self, side: Side) -> Option<usize> {
        self.upper_leg[side_index(side)?]
    }

    /// The spine chain: bones strictly between the pelvis and the neck (or, without a
    /// neck, the head), pelvis side first. Empty when either end is unknown.
    pub fn spine_chain(&self, s: &Skeleton) -> Vec<usize> {
        let (Some(p), Some(top)) = (self.hips, self.neck.or(self.head)) else {
            return Vec::new();
        };
        let mut chain = Vec::new();
        let mut cur = s.bones[top].parent;
        while let Some(c) = cur {
            if c == p {
                chain.reverse();
                return chain;
            }
            chain.push(c);
            cur = s.bones[c].parent;
        }
        Vec::new()
    }
}
