//! The VRM humanoid map of any humanoid skeleton: which bone is the hips, the spine,
//! each arm, leg and finger, found from the skeleton itself.
//!
//! Two routes, the names first:
//!
//! 1. **Template names.** A skeleton that uses the names of one of rigsmith's templates
//!    (`vrm`, `game`, `basic`, `mixamo`, see [`crate::fit::humanoid_map`]; a namespace
//!    such as `mixamorig1:` is ignored when the name is unique without it) is mapped by
//!    them, when that map has every required bone, is a valid VRM hierarchy and its
//!    left bones lie on the character's left (+X); optional bones the names leave out
//!    (a `basic` rig's fingers) come from the structure where they fit.
//! 2. **Structure and geometry**, names as hints, for every other skeleton (MakeHuman's
//!    `default` and `cmu_mb`, Quaternius, Blender exports...), the way a rigger reads a
//!    rig:
//!    * the **hips** are where the two leg branches and the spine branch meet: the
//!      nearest common ancestor of the lowest joint on each side (of the joints within
//!      0.05 H of the floor there, the deepest in the hierarchy: an IK foot target
//!      under the root is not a leg) and the highest joint of the body's centre line
//!      (the top of the head);
//!    * each **leg** is the path from the hips down to the lowest joint on its side:
//!      the upper leg is the first bone on it that runs downward (a sideways hip helper
//!      such as MakeHuman's `pelvis.L` or CMU's `LHipJoint` is skipped), the foot the
//!      first joint within a quarter of the hip height above the floor, the lower leg
//!      the joint between them nearest half way down (the knee; twist segments such as
//!      `upperleg02.L` stay unmapped), the toes the foot's only child when it has one;
//!    * each **arm** is the path from the trunk out to the joint furthest out on its
//!      side: the hand is the first bone on it that branches into two or more fingers
//!      (or the last bone when there are no fingers); the bones between the trunk and
//!      the hand, twist segments removed (a `twist`/`roll` token, or a bone named like
//!      its parent plus a number that continues its parent's line, as `upperarm02.L`),
//!      give the lower arm (last), the upper arm (the one before) and the shoulder
//!      (the first, when there are three or more). Five or more bones there mean twist
//!      segments whose names do not say so: the elbow is then the joint past the
//!      first two that bends most, the upper arm the first bone of the straight run
//!      (within 12 degrees) before it (a straight T-pose arm gives no such clue);
//!    * the **spine** is the path from the hips to the bone the arms hang from: bones
//!      at its bottom whose head is not above the hips or starts where a leg branch
//!      starts (MakeHuman's `spine05` shares its head with `pelvis.L`) are part of the
//!      pelvis and skipped; of the rest the first is `spine`, with two `chest` is
//!      the second, with three or more `upperChest` is the last (the one below the
//!      neck) and `chest` the one below it (the ribcage's lower half);
//!    * **neck and head** are on the path from there to the top: a centre bone named
//!      `head` is the head, else the first bone past the first that ends the path or
//!      branches in two; the neck is the first bone when it is not the head;
//!    * **fingers** are the hand's branches, each followed to its tip: a finger named
//!      `thumb`, `index`, `middle`, `ring`, `pinky`/`little` is that finger; a hand of
//!      five unnamed branches has its thumb found as the branch whose base is nearest
//!      the wrist (the thumb's carpometacarpal joint; the others start at the
//!      knuckles, past a metacarpal bone when there is one) and the rest ordered by
//!      distance from the thumb's tip (index nearest).
//!      A finger's first bone is a metacarpal when its head sits by the wrist (nearer
//!      than half way to the next joint): a finger skips it, then maps proximal,
//!      intermediate and distal (a fourth bone, Mixamo's end bone, stays out); a
//!      thumb maps metacarpal, proximal and distal from its first bone (two bones:
//!      metacarpal and proximal when the first sits by the wrist, else proximal and
//!      distal);
//!    * **eyes and jaw** when named clearly (`eye`, `jaw`) below the head.
//!
//!    Sides come from positions (+X is the character's left), never from names, so a
//!    skeleton whose `.L`/`.R` names are swapped still maps its left arm to
//!    `leftUpperArm`. The structure route keeps the template's other bones where they
//!    fit the hierarchy.
//!
//! Every map is checked as a VRM hierarchy: each mapped bone's nearest mapped ancestor
//! in the skeleton must be the bone mapped to its VRM parent (or that parent's nearest
//! mapped VRM ancestor when the parent is optional and unmapped). A skeleton that is not
//! a humanoid (a quadruped, a rig whose feet are not under its shins) gets a partial
//! map and a [`HumanoidMap::problem`] saying why; exporters refuse it naming the missing
//! bones.
//!
//! Everything is measured in units of the body height H.

use std::collections::BTreeMap;

use glam::Vec3;

use crate::error::{Error, Result};
use crate::fit::{humanoid_map, Template};
use crate::io::vrm_write::REQUIRED_BONES;
use crate::model::naming::{cosmetic_class, strip_namespace, tokens};
use crate::model::Skeleton;

/// VRM 1.0 humanoid bone -> its parent in the VRM humanoid hierarchy (`hips` has none).
pub const VRM_PARENTS: [(&str, &str); 54] = [
    ("spine", "hips"),
    ("chest", "spine"),
    ("upperChest", "chest"),
    ("neck", "upperChest"),
    ("head", "neck"),
    ("leftEye", "head"),
    ("rightEye", "head"),
    ("jaw", "head"),
    ("leftUpperLeg", "hips"),
    ("leftLowerLeg", "leftUpperLeg"),
    ("leftFoot", "leftLowerLeg"),
    ("leftToes", "leftFoot"),
    ("rightUpperLeg", "hips"),
    ("rightLowerLeg", "rightUpperLeg"),
    ("rightFoot", "rightLowerLeg"),
    ("rightToes", "rightFoot"),
    ("leftShoulder", "upperChest"),
    ("leftUpperArm", "leftShoulder"),
    ("leftLowerArm", "leftUpperArm"),
    ("leftHand", "leftLowerArm"),
    ("rightShoulder", "upperChest"),
    ("rightUpperArm", "rightShoulder"),
    ("rightLowerArm", "rightUpperArm"),
    ("rightHand", "rightLowerArm"),
    ("leftThumbMetacarpal", "leftHand"),
    ("leftThumbProximal", "leftThumbMetacarpal"),
    ("leftThumbDistal", "leftThumbProximal"),
    ("leftIndexProximal", "leftHand"),
    ("leftIndexIntermediate", "leftIndexProximal"),
    ("leftIndexDistal", "leftIndexIntermediate"),
    ("leftMiddleProximal", "leftHand"),
    ("leftMiddleIntermediate", "leftMiddleProximal"),
    ("leftMiddleDistal", "leftMiddleIntermediate"),
    ("leftRingProximal", "leftHand"),
    ("leftRingIntermediate", "leftRingProximal"),
    ("leftRingDistal", "leftRingIntermediate"),
    ("leftLittleProximal", "leftHand"),
    ("leftLittleIntermediate", "leftLittleProximal"),
    ("leftLittleDistal", "leftLittleIntermediate"),
    ("rightThumbMetacarpal", "rightHand"),
    ("rightThumbProximal", "rightThumbMetacarpal"),
    ("rightThumbDistal", "rightThumbProximal"),
    ("rightIndexProximal", "rightHand"),
    ("rightIndexIntermediate", "rightIndexProximal"),
    ("rightIndexDistal", "rightIndexIntermediate"),
    ("rightMiddleProximal", "rightHand"),
    ("rightMiddleIntermediate", "rightMiddleProximal"),
    ("rightMiddleDistal", "rightMiddleIntermediate"),
    ("rightRingProximal", "rightHand"),
    ("rightRingIntermediate", "rightRingProximal"),
    ("rightRingDistal", "rightRingIntermediate"),
    ("rightLittleProximal", "rightHand"),
    ("rightLittleIntermediate", "rightLittleProximal"),
    ("rightLittleDistal", "rightLittleIntermediate"),
];

/// The VRM parent of humanoid bone `vrm` (`None` for `hips` and unknown names).
pub fn vrm_parent(vrm: &str) -> Option<&'static str> {
    VRM_PARENTS.iter().find(|(b, _)| *b == vrm).map(|(_, p)| *p)
}

/// How a humanoid bone was mapped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// By the names of a template.
    Template(Template),
    /// By the skeleton's structure and geometry.
    Structure,
}

/// A skeleton's VRM humanoid map and how it was found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HumanoidMap {
    /// VRM 1.0 humanoid bone name (`leftUpperArm`) -> skeleton bone name.
    pub bones: BTreeMap<String, String>,
    /// VRM bone name -> the route that mapped it.
    pub routes: BTreeMap<String, Route>,
    /// One line per decision (which route mapped which bones, what was skipped).
    pub notes: Vec<String>,
    /// Why required bones are missing, when some are (`None` for a complete map).
    pub problem: Option<String>,
}

impl HumanoidMap {
    /// The VRM 1.0 required bones the map lacks, in [`REQUIRED_BONES`] order.
    pub fn missing_required(&self) -> Vec<&'static str> {
        missing_required(&self.bones)
    }

    /// `Ok` when every required bone is mapped, else an error naming `what` (the file),
    /// the missing bones and the reason.
    pub fn require_complete(&self, what: &str) -> Result<()> {
        require_complete(&self.bones, self.problem.as_deref(), what)
    }
}

/// The VRM 1.0 required bones `map` lacks, in [`REQUIRED_BONES`] order.
pub fn missing_required(map: &BTreeMap<String, String>) -> Vec<&'static str> {
    REQUIRED_BONES
        .iter()
        .copied()
        .filter(|b| !map.contains_key(*b))
        .collect()
}

/// `Ok` when `map` has every VRM required bone, else an error naming `what` (the file),
/// the missing bones and `reason` when given.
pub fn require_complete(
    map: &BTreeMap<String, String>,
    reason: Option<&str>,
    what: &str,
) -> Result<()> {
    let missing = missing_required(map);
    if missing.is_empty() {
        return Ok(());
    }
    let why = reason.map(|r| format!(" ({r})")).unwrap_or_default();
    Err(Error::invalid(
        what,
        format!(
            "not a VRM humanoid: required bones not mapped: {}{why}",
            missing.join(", ")
        ),
    ))
}

/// Problems of `map` (VRM bone -> skeleton bone name) as a VRM humanoid hierarchy: bones
/// the skeleton lacks, one bone in two slots, and each mapped bone whose nearest mapped
/// ancestor is not the bone of its (nearest mapped) VRM parent. Empty when valid.
pub fn hierarchy_problems(skel: &Skeleton, map: &BTreeMap<String, String>) -> Vec<String> {
    let mut out = Vec::new();
    let mut idx: BTreeMap<&str, usize> = BTreeMap::new();
    let mut owner: BTreeMap<usize, &str> = BTreeMap::new();
    for (v, b) in map {
        match skel.find(b) {
            None => out.push(format!("{v}: bone {b:?} is not in the skeleton")),
            Some(i) => {
                if let Some(o) = owner.insert(i, v) {
                    out.push(format!("{b:?} is both {o} and {v}"));
                }
                idx.insert(v, i);
            }
        }
    }
    let mapped: BTreeMap<usize, &str> = idx.iter().map(|(v, i)| (*i, *v)).collect();
    for (v, &i) in &idx {
        // The nearest mapped VRM ancestor.
        let mut p = vrm_parent(v);
        while let Some(pv) = p {
            if idx.contains_key(pv) {
                break;
            }
            p = vrm_parent(pv);
        }
        // The nearest mapped skeleton ancestor.
        let mut a = skel.bones[i].parent;
        while let Some(k) = a {
            if mapped.contains_key(&k) {
                break;
            }
            a = skel.bones[k].parent;
        }
        let got = a.map(|k| mapped[&k]);
        if got != p {
            out.push(format!(
                "{v} ({}) hangs from {} in the skeleton, not from its VRM parent {}",
                skel.bones[i].name,
                got.unwrap_or("nothing"),
                p.unwrap_or("(none)")
            ));
        }
    }
    out
}

/// Whether the left/right pairs of `map` lie on the right sides (+X is the left):
/// `false` when a mapped left upper arm, hand, upper leg or foot is not further to +X
/// than its right twin.
pub fn sides_agree(skel: &Skeleton, map: &BTreeMap<String, String>) -> bool {
    for part in ["UpperArm", "Hand", "UpperLeg", "Foot"] {
        let x = |side: &str| {
            map.get(&format!("{side}{part}"))
                .and_then(|b| skel.find(b))
                .map(|i| skel.bones[i].head.x)
        };
        if let (Some(l), Some(r)) = (x("left"), x("right")) {
            if l <= r {
                return false;
            }
        }
    }
    true
}

/// Maps `skel` to the VRM humanoid (see the module docs): template names when they
/// give a complete, valid map with the sides where their positions are, else the
/// skeleton's structure, filled with the template's other bones where they fit.
pub fn map_humanoid(skel: &Skeleton) -> HumanoidMap {
    let mut notes = Vec::new();
    // Best template by number of bones present.
    let mut best: Option<(Template, BTreeMap<String, String>)> = None;
    for t in [
        Template::Vrm,
        Template::Game,
        Template::Basic,
        Template::Mixamo,
    ] {
        let present: BTreeMap<String, String> = humanoid_map(t)
            .into_iter()
            .filter_map(|(v, b)| find_by_name(skel, &b).map(|i| (v, skel.bones[i].name.clone())))
            .collect();
        if present.len() > best.as_ref().map_or(0, |(_, m)| m.len()) {
            best = Some((t, present));
        }
    }
    if let Some((t, m)) = &best {
        let missing = missing_required(m);
        let hier = hierarchy_problems(skel, m);
        let sides = sides_agree(skel, m);
        if missing.is_empty() && hier.is_empty() && sides {
            notes.push(format!(
                "humanoid map from bone names ({} template): {} bones",
                template_name(*t),
                m.len()
            ));
            let mut bones = m.clone();
            let mut routes: BTreeMap<String, Route> =
                m.keys().map(|k| (k.clone(), Route::Template(*t))).collect();
            // Optional bones the names leave out (fingers of a `basic` rig, eyes),
            // from the structure where they keep the hierarchy valid.
            let st = structure_map(skel);
            let extra: BTreeMap<String, String> = st
                .slots
                .iter()
                .map(|(k, &i)| (k.to_string(), skel.bones[i].name.clone()))
                .collect();
            let filled = fill(skel, &mut bones, &extra);
            if !filled.is_empty() {
                for k in &filled {
                    routes.insert(k.clone(), Route::Structure);
                }
                notes.push(format!(
                    "{} more from the skeleton's structure: {}",
                    filled.len(),
                    filled.join(", ")
                ));
            }
            return HumanoidMap {
                routes,
                bones,
                notes,
                problem: None,
            };
        }
        let why = if !missing.is_empty() {
            format!("lacks {}", missing.join(", "))
        } else if !sides {
            "its left bones are not on the character's left (+X)".to_string()
        } else {
            format!("is not a VRM hierarchy: {}", hier.join("; "))
        };
        notes.push(format!(
            "{} template names give {} bones but the map {why}: mapping from the skeleton's structure",
            template_name(*t),
            m.len()
        ));
    } else {
        notes.push("no template bone names: mapping from the skeleton's structure".to_string());
    }
    let found = structure_map(skel);
    let mut bones: BTreeMap<String, String> = found
        .slots
        .iter()
        .map(|(k, &i)| (k.to_string(), skel.bones[i].name.clone()))
        .collect();
    let mut routes: BTreeMap<String, Route> = bones
        .keys()
        .map(|k| (k.clone(), Route::Structure))
        .collect();
    notes.push(format!(
        "humanoid map from the skeleton's structure: {} bones ({})",
        bones.len(),
        bones
            .iter()
            .filter(|(k, _)| !is_finger(k))
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    notes.extend(found.notes);
    // Fill slots the structure left empty from the template, where they fit.
    if let Some((t, m)) = best {
        if sides_agree(skel, &m) {
            let filled = fill(skel, &mut bones, &m);
            for k in &filled {
                routes.insert(k.clone(), Route::Template(t));
            }
            if !filled.is_empty() {
                notes.push(format!(
                    "{} filled from {} template names: {}",
                    filled.len(),
                    template_name(t),
                    filled.join(", ")
                ));
            }
        }
    }
    let hier = hierarchy_problems(skel, &bones);
    let mut problems = found.problems;
    problems.extend(hier);
    let problem = if missing_required(&bones).is_empty() && problems.is_empty() {
        None
    } else if problems.is_empty() {
        Some("the skeleton's structure does not show them".to_string())
    } else {
        Some(problems.join("; "))
    };
    if let Some(p) = &problem {
        notes.push(format!("not a complete VRM humanoid: {p}"));
    }
    HumanoidMap {
        bones,
        routes,
        notes,
        problem,
    }
}

/// Adds to `bones` each entry of `extra` whose slot is empty and whose bone is unused,
/// when the map stays a valid VRM hierarchy; returns the slots added.
fn fill(
    skel: &Skeleton,
    bones: &mut BTreeMap<String, String>,
    extra: &BTreeMap<String, String>,
) -> Vec<String> {
    let mut filled = Vec::new();
    for (k, b) in extra {
        if bones.contains_key(k) || bones.values().any(|x| x == b) {
            continue;
        }
        bones.insert(k.clone(), b.clone());
        if hierarchy_problems(skel, bones).is_empty() {
            filled.push(k.clone());
        } else {
            bones.remove(k);
        }
    }
    filled
}

/// The bone named `name`, else, for a namespaced template name (`mixamorig:Hips`), the
/// only bone in another namespace with the same name (`mixamorig1:Hips`). A bare
/// `Hips` does not match: CMU's BVH names are Mixamo's without the namespace, and
/// the structure maps them better (its `LowerBack` is the spine).
fn find_by_name(skel: &Skeleton, name: &str) -> Option<usize> {
    if let Some(i) = skel.find(name) {
        return Some(i);
    }
    if !name.contains(':') {
        return None;
    }
    let want = strip_namespace(name);
    let mut hits = skel
        .bones
        .iter()
        .enumerate()
        .filter(|(_, b)| b.name.contains(':') && strip_namespace(&b.name) == want)
        .map(|(i, _)| i);
    let first = hits.next()?;
    hits.next().is_none().then_some(first)
}

fn template_name(t: Template) -> &'static str {
    match t {
        Template::Game => "game",
        Template::Basic => "basic",
        Template::Mixamo => "mixamo",
        Template::Vrm => "vrm",
    }
}

fn is_finger(vrm: &str) -> bool {
    ["Thumb", "Index", "Middle", "Ring", "Little"]
        .iter()
        .any(|f| vrm.contains(f))
}

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

/// Per-skeleton facts the structural rules share.
struct Ctx<'a> {
    skel: &'a Skeleton,
    heads: Vec<Vec3>,
    children: Vec<Vec<usize>>,
    /// Hair, skirt and other cosmetic bones: never part of the body's chains.
    cosmetic: Vec<bool>,
    toks: Vec<Vec<String>>,
    /// Body height over the main tree's joints.
    h: f32,
    floor: f32,
}

impl Ctx<'_> {
    /// The path from `from` (exclusive) down to `to` (inclusive); `None` when `from`
    /// is not an ancestor of `to`.
    fn path(&self, from: usize, to: usize) -> Option<Vec<usize>> {
        let mut out = vec![];
        let mut cur = to;
        while cur != from {
            out.push(cur);
            cur = self.skel.bones[cur].parent?;
        }
        out.reverse();
        Some(out)
    }

    fn ancestors(&self, i: usize) -> Vec<usize> {
        let mut out = vec![i];
        let mut cur = i;
        while let Some(p) = self.skel.bones[cur].parent {
            out.push(p);
            cur = p;
        }
        out
    }

    /// Nearest common ancestor (a bone counts as its own ancestor).
    fn lca(&self, a: usize, b: usize) -> Option<usize> {
        let up = self.ancestors(a);
        self.ancestors(b).into_iter().find(|x| up.contains(x))
    }

    fn has(&self, i: usize, t: &str) -> bool {
        self.toks[i].iter().any(|x| x == t)
    }

    /// Where bone `i` points: the next joint on `path` after it, else its tail.
    fn dir_on(&self, path: &[usize], k: usize) -> Vec3 {
        let i = path[k];
        let next = path
            .get(k + 1)
            .map(|&n| self.heads[n])
            .unwrap_or(self.skel.bones[i].tail);
        next - self.heads[i]
    }

    /// The name without digits and side tokens (`upperarm02.L` -> `upperarm`).
    fn stem(&self, i: usize) -> String {
        self.toks[i]
            .iter()
            .filter(|t| {
                !t.chars().all(|c| c.is_ascii_digit())
                    && !matches!(t.as_str(), "l" | "r" | "left" | "right")
            })
            .cloned()
            .collect::<Vec<_>>()
            .join("_")
    }

    /// A twist/roll segment: a `twist`/`roll` token; or a bone lying along its parent
    /// (head on the parent's segment before 90 % of its length, within 5 % of its
    /// length off its axis, pointing its way within 20 degrees: rigsmith's and
    /// Unreal's twist bones beside the forearm); or named like its parent plus a
    /// number (a name stem at most four bones share, sides counted) and continuing the
    /// parent's line within 20 degrees.
    fn is_twist(&self, i: usize) -> bool {
        if self.has(i, "twist") || self.has(i, "roll") {
            return true;
        }
        let Some(p) = self.skel.bones[i].parent else {
            return false;
        };
        let pb = &self.skel.bones[p];
        let axis = pb.tail - pb.head;
        let len2 = axis.length_squared();
        let own = self.skel.bones[i].tail - self.heads[i];
        if len2 > 0.0 && own.length() > 0.0 {
            let rel = self.heads[i] - pb.head;
            let t = rel.dot(axis) / len2;
            let off = (rel - axis * t).length();
            let along = own.normalize().dot(axis.normalize()) > 0.94;
            if (-0.05..0.9).contains(&t) && off < 0.05 * len2.sqrt() && along {
                return true;
            }
        }
        let stem = self.stem(i);
        if stem != self.stem(p) || stem.is_empty() {
            return false;
        }
        // A stem shared by many bones (`Bone.001`, `finger1-2.L`) says nothing.
        let shared = (0..self.skel.len())
            .filter(|&k| self.stem(k) == stem)
            .take(5)
            .count();
        if shared > 4 {
            return false;
        }
        let a = self.heads[i] - self.heads[p];
        let b = self.skel.bones[i].tail - self.heads[i];
        a.length() > 0.0 && b.length() > 0.0 && a.normalize().dot(b.normalize()) > 0.94
    }

    fn body_children(&self, i: usize) -> Vec<usize> {
        self.children[i]
            .iter()
            .copied()
            .filter(|&c| !self.cosmetic[c])
            .collect()
    }
}

/// Maps `skel` to the VRM humanoid by its structure and geometry alone (see the module
/// docs); names serve only as hints for the head, fingers, eyes and jaw.
pub fn structure_map(skel: &Skeleton) -> StructureMap {
    let mut out = StructureMap::default();
    if skel.is_empty() {
        out.problems.push("the skeleton has no bones".into());
        return out;
    }
    let n = skel.len();
    let heads: Vec<Vec3> = skel.bones.iter().map(|b| b.head).collect();
    let toks: Vec<Vec<String>> = skel.bones.iter().map(|b| tokens(&b.name)).collect();
    let cosmetic: Vec<bool> = skel
        .bones
        .iter()
        .map(|b| cosmetic_class(&b.name).is_some())
        .collect();
    let (lo, hi) = heads
        .iter()
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(l, h), p| {
            (l.min(p.y), h.max(p.y))
        });
    let h0 = (hi - lo).max(f32::MIN_POSITIVE);
    // Top: the highest joint on the centre line.
    let top = (0..n)
        .filter(|&i| !cosmetic[i] && heads[i].x.abs() < 0.05 * h0)
        .max_by(|&a, &b| heads[a].y.total_cmp(&heads[b].y).then(b.cmp(&a)));
    let Some(top) = top else {
        out.problems
            .push("no joint on the centre line (|x| < 0.05 H)".into());
        return out;
    };
    let children = skel.children();
    let mut cx = Ctx {
        skel,
        heads,
        children,
        cosmetic,
        toks,
        h: h0,
        floor: lo,
    };
    // The main tree: bones sharing the top's root.
    let root_of = |i: usize| *cx.ancestors(i).last().expect("non-empty");
    let main_root = root_of(top);
    let in_main: Vec<bool> = (0..n).map(|i| root_of(i) == main_root).collect();
    let floor = (0..n)
        .filter(|&i| in_main[i])
        .map(|i| cx.heads[i].y)
        .fold(f32::INFINITY, f32::min);
    cx.floor = floor;
    cx.h = (cx.heads[top].y - floor).max(f32::MIN_POSITIVE);
    let h = cx.h;
    // Lowest joint on each side; of the joints within 0.05 H of it the deepest in the
    // hierarchy, so an IK foot target hanging from the root beside the real foot
    // (Unreal's `ik_foot_l`) is not taken for the end of the leg.
    let depth = skel.depths();
    let lowest = |sign: f32| {
        let side: Vec<usize> = (0..n)
            .filter(|&i| in_main[i] && !cx.cosmetic[i] && cx.heads[i].x * sign > 0.02 * h)
            .collect();
        let min_y = side
            .iter()
            .map(|&i| cx.heads[i].y)
            .fold(f32::INFINITY, f32::min);
        side.into_iter()
            .filter(|&i| cx.heads[i].y <= min_y + 0.05 * h)
            .min_by(|&a, &b| {
                depth[b]
                    .cmp(&depth[a])
                    .then(cx.heads[a].y.total_cmp(&cx.heads[b].y))
                    .then(a.cmp(&b))
            })
    };
    let (Some(fl), Some(fr)) = (lowest(1.0), lowest(-1.0)) else {
        out.problems.push(
            "no joints on both sides of the centre line in the tree that holds the head".into(),
        );
        return out;
    };
    let Some(hips) = cx.lca(fl, fr).and_then(|a| cx.lca(a, top)) else {
        out.problems
            .push("the feet and the head share no ancestor".into());
        return out;
    };
    if cx.heads[top].y - cx.heads[hips].y < 0.25 * h {
        out.problems.push(format!(
            "not an upright body: the top of the head ({}) is {:.2} H above the bone where the legs and the spine meet ({}); a standing humanoid's is over 0.25 H",
            skel.bones[top].name,
            (cx.heads[top].y - cx.heads[hips].y) / h,
            skel.bones[hips].name
        ));
        return out;
    }
    out.slots.insert("hips", hips);
    // Legs.
    let mut leg_roots = Vec::new();
    for (sign, foot_low, names) in [
        (
            1.0f32,
            fl,
            ["leftUpperLeg", "leftLowerLeg", "leftFoot", "leftToes"],
        ),
        (
            -1.0,
            fr,
            ["rightUpperLeg", "rightLowerLeg", "rightFoot", "rightToes"],
        ),
    ] {
        let side = if sign > 0.0 { "left" } else { "right" };
        let path = cx.path(hips, foot_low).unwrap_or_default();
        if let Some(&r) = path.first() {
            leg_roots.push(r);
        }
        match leg(&cx, &path) {
            Ok((u, k, a, helpers)) => {
                out.slots.insert(names[0], u);
                out.slots.insert(names[1], k);
                out.slots.insert(names[2], a);
                if !helpers.is_empty() {
                    out.notes.push(format!(
                        "{side} leg: helper/twist bones left unmapped: {}",
                        names_of(skel, &helpers)
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
                .push(format!("{side} leg ({}): {e}", names_of(skel, &path))),
        }
    }
    // Trunk: hips to the top.
    let trunk = cx.path(hips, top).unwrap_or_default();
    let in_leg = |i: usize| leg_roots.iter().any(|&r| skel.is_ancestor(r, i) || r == i);
    // Arms: the joint furthest out on each side, off the legs and the trunk.
    let mut shoulder_t: Vec<usize> = Vec::new();
    let mut arm_slots: Vec<(&'static str, usize)> = Vec::new();
    for (sign, side) in [(1.0f32, "left"), (-1.0, "right")] {
        let tip = (0..n)
            .filter(|&i| {
                in_main[i]
                    && !cx.cosmetic[i]
                    && !in_leg(i)
                    && !trunk.contains(&i)
                    && i != hips
                    && cx.heads[i].x * sign > 0.05 * h
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
                skel.bones[tip].name
            ));
            continue;
        };
        shoulder_t.push(t);
        let path = cx.path(t, tip).unwrap_or_default();
        match arm(&cx, &path, side, &mut out.notes) {
            Ok(slots) => arm_slots.extend(slots),
            Err(e) => out
                .problems
                .push(format!("{side} arm ({}): {e}", names_of(skel, &path))),
        }
    }
    // Spine: the trunk up to the bone the arms hang from.
    let t_pos = shoulder_t
        .iter()
        .filter_map(|t| trunk.iter().position(|x| x == t))
        .max();
    let Some(t_pos) = t_pos else {
        out.problems
            .push("no arms hang from the spine: spine, chest and neck not found".into());
        return out;
    };
    let spine_bones = &trunk[..=t_pos];
    let neck_chain = &trunk[t_pos + 1..];
    let hip_y = cx.heads[hips].y;
    let neck_y = neck_chain
        .first()
        .map(|&b| cx.heads[b].y)
        .unwrap_or(cx.heads[top].y);
    let rise = neck_y - hip_y;
    if rise < 0.15 * h {
        out.problems.push(format!(
            "the trunk is not upright: the neck is {:.2} H above the hips (an upright humanoid: over 0.15 H)",
            rise / h
        ));
        return out;
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
            names_of(skel, &pelvis)
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
            neck_chain
                .iter()
                .copied()
                .skip(1)
                .find(|&b| cx.body_children(b).len() != 1)
                .unwrap_or(*neck_chain.last().expect("non-empty"))
        });
        if neck_chain.len() > 1 && head != neck_chain[0] {
            out.slots.insert("neck", neck_chain[0]);
        }
        out.slots.insert("head", head);
        // Eyes and jaw, when named clearly, below the head.
        let mut below: Vec<usize> = (0..n)
            .filter(|&i| skel.is_ancestor(head, i) && i != head)
            .collect();
        below.sort_by_key(|&i| (depth[i], i));
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
    // The arms, once the spine has its slots.
    for (k, v) in arm_slots {
        out.slots.insert(k, v);
    }
    out
}

fn names_of(skel: &Skeleton, bones: &[usize]) -> String {
    bones
        .iter()
        .map(|&b| skel.bones[b].name.as_str())
        .collect::<Vec<_>>()
        .join(" > ")
}

/// Upper leg, lower leg, foot (path indices resolved to bones) and the unmapped
/// helper bones before the foot, from the path hips -> lowest joint of a side.
fn leg(cx: &Ctx, path: &[usize]) -> std::result::Result<(usize, usize, usize, Vec<usize>), String> {
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

const FINGERS: [&str; 5] = ["Thumb", "Index", "Middle", "Ring", "Little"];

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
    let slot = |s: &str| -> &'static str { leak_slot(side, s) };
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
        (slot("Hand"), hand),
        (slot("LowerArm"), before[lower]),
        (slot("UpperArm"), before[upper]),
    ];
    if upper >= 1 {
        out.push((slot("Shoulder"), before[0]));
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
    // Fingers.
    let roots = fingers_of(hand);
    let chains: Vec<Vec<usize>> = roots.iter().map(|&r| finger_chain(cx, r)).collect();
    let mut which: Vec<Option<usize>> = vec![None; chains.len()];
    for (ci, ch) in chains.iter().enumerate() {
        // Substrings of tokens: CMU's `LThumb` is one token.
        let named = |t: &[&str]| {
            ch.iter().any(|&b| {
                cx.toks[b]
                    .iter()
                    .any(|tok| t.iter().any(|x| tok.starts_with(x) || tok.ends_with(x)))
            })
        };
        which[ci] = if named(&["thumb"]) {
            Some(0)
        } else if named(&["index", "pointer"]) {
            Some(1)
        } else if named(&["middle"]) {
            Some(2)
        } else if named(&["ring"]) {
            Some(3)
        } else if named(&["pinky", "little"]) {
            Some(4)
        } else {
            None
        };
    }
    let unique = (0..5).all(|f| which.iter().filter(|w| **w == Some(f)).count() <= 1);
    if !unique {
        which = vec![None; chains.len()];
    }
    if which.iter().all(|w| w.is_none()) && chains.len() == 5 {
        let wrist = cx.heads[hand];
        // The thumb's base (its carpometacarpal joint) is by the wrist; the other
        // fingers start at the knuckles, past a metacarpal bone when there is one.
        // (Tried first: the branch furthest to the front of the hand, and the one
        // splaying most: both took the little finger of rigsmith's T-pose fit.)
        let base = |i: usize| {
            let ch = &chains[i];
            let k = usize::from(
                ch.len() >= 2
                    && (cx.heads[ch[0]] - wrist).length()
                        < 0.5 * (cx.heads[ch[1]] - wrist).length(),
            );
            (cx.heads[ch[k]] - wrist).length()
        };
        let thumb = (0..5)
            .min_by(|&a, &b| base(a).total_cmp(&base(b)).then(a.cmp(&b)))
            .expect("five");
        let thumb_tip = cx.heads[*chains[thumb].last().expect("chain")];
        let mut rest: Vec<usize> = (0..5).filter(|&i| i != thumb).collect();
        let knuckle = |i: usize| {
            let ch = &chains[i];
            cx.heads[ch[ch.len().saturating_sub(3)]]
        };
        rest.sort_by(|&a, &b| {
            (knuckle(a) - thumb_tip)
                .length()
                .total_cmp(&(knuckle(b) - thumb_tip).length())
                .then(a.cmp(&b))
        });
        which[thumb] = Some(0);
        for (f, &i) in rest.iter().enumerate() {
            which[i] = Some(f + 1);
        }
        notes.push(format!(
            "{side} hand: five unnamed fingers ordered by position (thumb {})",
            cx.skel.bones[chains[thumb][0]].name
        ));
    } else if which.iter().any(|w| w.is_none()) && !chains.is_empty() {
        notes.push(format!(
            "{side} hand: {} finger chain(s) neither named nor five: left unmapped",
            which.iter().filter(|w| w.is_none()).count()
        ));
    }
    for (ci, w) in which.iter().enumerate() {
        let Some(f) = *w else { continue };
        let ch = &chains[ci];
        // A first bone whose head sits by the wrist (nearer than half way to the next
        // joint) is a metacarpal: a finger skips it, a thumb maps it. Past three
        // segments the rest is an end bone.
        let wrist = cx.heads[hand];
        let metacarpal = ch.len() >= 2
            && (cx.heads[ch[0]] - wrist).length() < 0.5 * (cx.heads[ch[1]] - wrist).length();
        let (segs, start): (&[&str], usize) = if f == 0 {
            match ch.len() {
                1 => (&["Proximal"], 0),
                2 if metacarpal => (&["Metacarpal", "Proximal"], 0),
                2 => (&["Proximal", "Distal"], 0),
                _ => (&["Metacarpal", "Proximal", "Distal"], 0),
            }
        } else {
            let s = usize::from(metacarpal);
            let all: &[&str] = &["Proximal", "Intermediate", "Distal"];
            (&all[..(ch.len() - s).min(3)], s)
        };
        for (seg, &b) in segs.iter().zip(&ch[start..]) {
            out.push((leak_slot(side, &format!("{}{seg}", FINGERS[f])), b));
        }
    }
    Ok(out)
}

/// A finger from its root bone to its tip, following the child that continues it;
/// end/nub leaves are left out.
fn finger_chain(cx: &Ctx, root: usize) -> Vec<usize> {
    let mut ch = vec![root];
    let mut cur = root;
    loop {
        let kids = cx.body_children(cur);
        let d = cx.skel.bones[cur].tail - cx.heads[cur];
        let next = kids.into_iter().max_by(|&a, &b| {
            let s = |c: usize| (cx.heads[c] - cx.heads[cur]).normalize_or_zero().dot(d);
            s(a).total_cmp(&s(b)).then(b.cmp(&a))
        });
        match next {
            Some(nx) if !["end", "nub", "tip"].iter().any(|t| cx.has(nx, t)) => {
                ch.push(nx);
                cur = nx;
            }
            _ => break,
        }
        if ch.len() > 8 {
            break;
        }
    }
    ch
}

/// The VRM slot name for `side` (`left`/`right`) and a part (`UpperArm`), as a static
/// string from [`VRM_PARENTS`].
fn leak_slot(side: &str, part: &str) -> &'static str {
    let want = format!("{side}{part}");
    VRM_PARENTS
        .iter()
        .map(|(b, _)| *b)
        .find(|b| *b == want)
        .expect("a VRM humanoid bone")
}
