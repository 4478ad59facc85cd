//! Fitting: from landmarks to a named skeleton, with the rigger's placement rules.
//!
//! [`fit`] finds the landmarks ([`find_landmarks`]), applies the rules below to the
//! left side, mirrors it to the right about the body's centre plane (so left and right
//! mirror exactly), writes the joint set under the chosen [`Template`]'s names, adds
//! twist bones if asked (children of the upper arm, forearm, thigh and calf, spread
//! along the limb and shifted half a step toward the end that does not roll with it;
//! [`crate::deform::twist`] says how they follow), and runs [`placement_checks`] on the result.
//!
//! Rules (rubric A):
//! * **Clavicle inside.** When the clavicle's middle (clavicle head to shoulder) lies
//!   outside the body, the shoulder moves out along the arm axis in 0.2% H steps, at
//!   most 6% H, until it lies inside (a lowered arm under a bulging deltoid); the
//!   clavicle head stays. An overridden shoulder is never moved.
//! * **Pre-bend.** The knee lies forward of the hip-ankle line and the elbow behind
//!   the shoulder-wrist line. A limb modelled straight (or bent the wrong way) gets
//!   [`DEFAULT_BEND_DEG`]. Otherwise the joint keeps the bend of the limb's middle
//!   section (at least [`MIN_BEND_DEG`]), at most 15 deg when the limb is modelled
//!   straight ([`modelled_bend`](super::modelled_bend) at most 15 deg) and at most
//!   [`MAX_BEND_DEG`] when it is modelled bent. In the other view the
//!   chain is straight (the joint is moved onto the plane of the line and the bend
//!   direction).
//! * **Hinge on local X.** Thigh, calf, upper arm and forearm get `x_axis` normal to
//!   their bend plane; every finger and thumb bone gets `x_axis` = bone direction x
//!   palm normal, so all curl on the same local axis.
//! * Spine joints lie on the centre plane; everything else is mirrored.

use std::collections::BTreeMap;

use glam::Vec3;
use serde::Serialize;

use super::landmarks::{
    body_mesh, find_landmarks_on, mirror_mesh, other_side, LandmarkOptions, Landmarks,
};
use super::limb_bend::{bend_angle, modelled_bend};
use super::placement::{landmark_checks, placement_checks_with, STRAIGHT_DEG};
use super::solid::Solid;
use crate::error::{Error, Result};
use crate::humanoid::{bone_name, template_map, twist_name, BoneKind, Template, CENTRE, LEFT};
use crate::model::{Bone, Character, Mesh, Skeleton};
use crate::report::Check;

/// The smallest knee/elbow pre-bend the fitter leaves, degrees.
pub const MIN_BEND_DEG: f32 = 2.0;
/// The largest knee/elbow bend the fitter keeps from the mesh, degrees: a limb
/// modelled bent (MakeHuman's A pose has elbows bent about 40 deg) keeps its bend so
/// the bones stay in the middle of the volume; beyond this the bend is clamped.
pub const MAX_BEND_DEG: f32 = 60.0;

/// How far under the rubric's 15 deg the fitter keeps the pre-bend of a limb modelled
/// straight, degrees.
pub const BEND_MARGIN_DEG: f32 = 0.25;
/// The pre-bend given to a straight (or wrongly bent) knee or elbow, degrees.
pub const DEFAULT_BEND_DEG: f32 = 4.0;

/// Options of [`fit`].
#[derive(Debug, Clone, Default)]
pub struct FitOptions {
    /// The naming scheme.
    pub template: Template,
    /// Twist bones per limb segment (upper arm, forearm, thigh, calf); 0 for none.
    pub twist: usize,
    /// Landmarks to force, by name (`knee_l`, `wrist_r`, ...), metres, glTF space.
    pub overrides: Vec<(String, Vec3)>,
    /// Which parts are skin pieces, garments or rigid (overrides of
    /// [`crate::model::Body::of`]).
    pub parts: crate::model::BodyOptions,
}

/// What [`fit`] returns.
#[derive(Debug, Clone, Serialize)]
pub struct FitResult {
    /// The fitted skeleton, in the template's names, parents first.
    #[serde(skip)]
    pub skeleton: Skeleton,
    /// The landmarks it was fitted to (after pre-bend rules).
    pub landmarks: Landmarks,
    /// Placement checks (rubric A) on the fitted skeleton, and landmark confidence.
    pub checks: Vec<Check>,
    /// VRM 1.0 humanoid bone -> bone name.
    pub humanoid: BTreeMap<String, String>,
}

/// Fits the template to the character's body (see the module docs).
pub fn fit(c: &Character, o: &FitOptions) -> Result<FitResult> {
    if o.twist > 8 {
        return Err(Error::invalid(
            "fit options",
            format!("twist {} is more than 8 bones a segment", o.twist),
        ));
    }
    let lo = LandmarkOptions {
        body_part: None,
        parts: o.parts.clone(),
        overrides: o.overrides.clone(),
    };
    // The skin is found once and serves the landmarks and the checks below.
    let (body, what) = body_mesh(c, &lo)?;
    let body = &body;
    let mut lm = find_landmarks_on(c, body, &what, &lo)?;
    let bvh = Solid::new(body);
    root_and_prebends(&mut lm, body, &bvh, o);
    let (protos, n_left) = protos(&lm, o)?;
    let bones = bones(&protos, n_left, o);
    let skeleton = Skeleton { bones };
    skeleton.validate()?;
    let mut checks = placement_checks_with(c, &skeleton, Some(&bvh));
    let used: Vec<String> = CENTRE
        .iter()
        .flat_map(|r| [r.head.to_string(), r.tail.to_string()])
        .chain(LEFT.iter().flat_map(|r| {
            [
                format!("{}_l", r.head),
                format!("{}_l", r.tail),
                format!("{}_r", r.head),
                format!("{}_r", r.tail),
            ]
        }))
        .collect();
    checks.extend(landmark_checks(&lm, &used));
    checks.extend(super::model_check::model_check(c).checks());
    Ok(FitResult {
        skeleton,
        landmarks: lm,
        checks,
        humanoid: template_map(o.template),
    })
}

/// The root (on the floor between the ankles) and the pre-bends of the left knee and
/// elbow, mirrored to the right; the shoulder moved out along the arm until the
/// clavicle lies inside the body. Overridden landmarks are left as given. When each
/// side keeps its own landmarks ([`Landmarks::per_side`]) the right side gets the same
/// rules on its own, on the mirror image of the body.
fn root_and_prebends(lm: &mut Landmarks, body: &Mesh, bvh: &Solid, o: &FitOptions) {
    let overridden: Vec<String> = o.overrides.iter().map(|(n, _)| n.clone()).collect();
    let given = lm.clone();
    side_rules(lm, body, bvh, &overridden);
    if given.per_side() {
        let mut m = given.mirrored();
        let mesh = mirror_mesh(body, given.center_x);
        let swapped: Vec<String> = overridden.iter().map(|n| other_side(n)).collect();
        side_rules(&mut m, &mesh, &Solid::new(&mesh), &swapped);
        let back = m.mirrored();
        for (n, l) in back.points.iter().filter(|(n, _)| n.ends_with("_r")) {
            lm.points.insert(n.clone(), l.clone());
        }
    }
}

/// [`root_and_prebends`] on the left side, mirrored to the right.
fn side_rules(lm: &mut Landmarks, body: &Mesh, bvh: &Solid, overridden: &[String]) {
    let h = lm.height;
    let cx = lm.center_x;
    let overridden: Vec<&str> = overridden.iter().map(String::as_str).collect();
    // Root at the floor between the ankles, pointing forward.
    let ankle_z = lm.get("ankle_l").map_or(0.0, |a| a.z);
    let root = Vec3::new(cx, lm.floor, ankle_z);
    let put = |lm: &mut Landmarks, n: &str, p: Vec3, m: &str| {
        lm.points.insert(
            n.to_string(),
            super::landmarks::Landmark {
                position: p,
                method: m.to_string(),
                confidence: 1.0,
            },
        );
    };
    put(lm, "root", root, "floor below the body centre");
    put(
        lm,
        "root_front",
        root + Vec3::Z * 0.05 * h,
        "forward of the root",
    );
    // Pre-bends, on the left; the right mirrors.
    let mir = |p: Vec3| Vec3::new(2.0 * cx - p.x, p.y, p.z);
    // Shoulder deep enough for the clavicle: where the arm leaves the trunk through a
    // narrow gap (a lowered arm under a bulging deltoid), the sections' armpit can sit
    // inward of the joint, and the clavicle's middle then falls in the air between
    // neck and deltoid. Move the shoulder out along the arm axis, in steps of 0.2% H
    // up to 6% H, until that middle lies inside the body; the clavicle head stays.
    if !overridden.contains(&"shoulder_l") {
        if let (Some(cl), Some(sh), Some(a)) = (
            lm.get("clavicle_l"),
            lm.get("shoulder_l"),
            lm.axes.get("arm_l").copied(),
        ) {
            let mut s = sh;
            let mut k = 0;
            while !bvh.contains(0.5 * (cl + s)) && k < 30 {
                s += a * 0.002 * h;
                k += 1;
            }
            if k > 0 && bvh.contains(0.5 * (cl + s)) && bvh.contains(s) {
                for (n, p) in [("shoulder_l", s), ("shoulder_r", mir(s))] {
                    if let Some(l) = lm.points.get_mut(n) {
                        l.position = p;
                        l.method = format!(
                            "{}; moved {:.1}% H out along the arm so the clavicle lies inside",
                            l.method,
                            100.0 * (s - sh).length() / h
                        );
                    }
                }
            }
        }
    }
    for (a, b, c2, dir) in [
        ("hip", "knee", "ankle", Vec3::Z),
        ("shoulder", "elbow", "wrist", -Vec3::Z),
    ] {
        let (Some(pa), Some(pb), Some(pc)) = (
            lm.get(&format!("{a}_l")),
            lm.get(&format!("{b}_l")),
            lm.get(&format!("{c2}_l")),
        ) else {
            continue;
        };
        if overridden.contains(&format!("{b}_l").as_str()) {
            continue;
        }
        // A limb modelled straight gets at most the rubric's 15 deg, less a margin so
        // that rounding (and the file round trip) never lands it past the limit; a limb
        // modelled bent keeps its bend.
        let straight = modelled_bend(body, pa, pc, dir, h).map_or(true, |m| m <= STRAIGHT_DEG);
        let max = if straight {
            STRAIGHT_DEG - BEND_MARGIN_DEG
        } else {
            MAX_BEND_DEG
        };
        let nb = prebend(pa, pb, pc, dir, max);
        let l = lm.points.get_mut(&format!("{b}_l")).unwrap();
        l.position = nb;
        let r = lm.points.get_mut(&format!("{b}_r")).unwrap();
        r.position = mir(nb);
    }
}

/// A bone in game names before the template renames it.
struct Proto {
    game: String,
    parent: String,
    head: Vec3,
    tail: Vec3,
    x: Vec3,
    role: BoneKind,
}

/// The centre and left bones in game names from the landmarks, with their hinge (x)
/// axes, then the left ones mirrored (or, when each side keeps its own landmarks, the
/// left bones of the mirrored landmarks, mirrored back); returns them and the number
/// before the right ones.
fn protos(lm: &Landmarks, o: &FitOptions) -> Result<(Vec<Proto>, usize)> {
    let cx = lm.center_x;
    let mir = |p: Vec3| Vec3::new(2.0 * cx - p.x, p.y, p.z);
    let mut protos = side_protos(lm, o)?;
    let n_left = protos.len();
    let other = if lm.per_side() {
        Some(side_protos(&lm.mirrored(), o)?)
    } else {
        None
    };
    let source = other.as_deref().unwrap_or(&protos[..n_left]);
    let right: Vec<Proto> = source
        .iter()
        .filter(|p| p.game.ends_with("_l"))
        .map(|p| Proto {
            game: format!("{}_r", &p.game[..p.game.len() - 2]),
            parent: match p.parent.strip_suffix("_l") {
                Some(b) => format!("{b}_r"),
                None => p.parent.clone(),
            },
            head: mir(p.head),
            tail: mir(p.tail),
            x: Vec3::new(-p.x.x, p.x.y, p.x.z),
            role: p.role,
        })
        .collect();
    protos.extend(right);
    Ok((protos, n_left))
}

/// The centre and left bones in game names from the landmarks, with their hinge (x)
/// axes.
fn side_protos(lm: &Landmarks, o: &FitOptions) -> Result<Vec<Proto>> {
    // Left and centre bones in game names.
    let n_palm = lm.axes.get("palm_normal_l").copied().unwrap_or(-Vec3::Y);
    let mut protos: Vec<Proto> = Vec::new();
    let get = |lm: &Landmarks, n: &str| -> Result<Vec3> {
        lm.get(n)
            .ok_or_else(|| Error::stage("fit", format!("{n}: landmark missing")))
    };
    for row in CENTRE {
        let head = get(lm, row.head)?;
        let tail = get(lm, row.tail)?;
        protos.push(Proto {
            game: row.game.into(),
            parent: row.parent.into(),
            head,
            tail,
            x: Vec3::X,
            role: row.kind,
        });
    }
    let knee_l = get(lm, "knee_l")?;
    let elbow_l = get(lm, "elbow_l")?;
    let (hip_l, ankle_l) = (get(lm, "hip_l")?, get(lm, "ankle_l")?);
    let (sh_l, wr_l) = (get(lm, "shoulder_l")?, get(lm, "wrist_l")?);
    let leg_x = hinge_axis(hip_l, knee_l, ankle_l, Vec3::X);
    let arm_x = hinge_axis(sh_l, elbow_l, wr_l, Vec3::Y);
    for row in LEFT {
        if row.kind == BoneKind::Finger && !o.template.has_fingers() {
            continue;
        }
        let head = get(lm, &format!("{}_l", row.head))?;
        let tail = get(lm, &format!("{}_l", row.tail))?;
        let d = (tail - head).normalize_or_zero();
        let x = match row.kind {
            BoneKind::Thigh | BoneKind::Calf => leg_x,
            BoneKind::UpperArm | BoneKind::LowerArm => arm_x,
            BoneKind::Finger | BoneKind::Hand => {
                // One curl axis per chain: the chain's overall direction x palm normal.
                // The chains are planar (see landmarks): the plane's normal, oriented
                // like chain direction x palm normal.
                let mut x = d.cross(n_palm).normalize_or_zero();
                if row.kind == BoneKind::Finger {
                    let stem = row.head.rsplit_once('_').map_or(row.head, |(a, _)| a);
                    let j = |k: u32| lm.get(&format!("{stem}_{k:02}_l"));
                    if let (Some(a), Some(b), Some(c), Some(e)) = (j(1), j(2), j(3), j(4)) {
                        let hint = (e - a).cross(n_palm);
                        let pn = (b - a).cross(c - b);
                        x = if pn.length() > 1e-6 * (e - a).length_squared() {
                            let pn = pn.normalize();
                            if pn.dot(hint) < 0.0 {
                                -pn
                            } else {
                                pn
                            }
                        } else {
                            hint.normalize_or_zero()
                        };
                    }
                }
                if x == Vec3::ZERO {
                    Vec3::Z
                } else {
                    x
                }
            }
            _ => Vec3::X,
        };
        protos.push(Proto {
            game: row.game.into(),
            parent: row.parent.into(),
            head,
            tail,
            x,
            role: row.kind,
        });
    }
    Ok(protos)
}

/// The skeleton's bones from the protos in template names: centre, then left and
/// right interleaved per row, parents first, twist bones under limb segments.
fn bones(protos: &[Proto], n_left: usize, o: &FitOptions) -> Vec<Bone> {
    // Order: centre, then left and right interleaved per row, parents first.
    let mut order: Vec<usize> = (0..CENTRE.len()).collect();
    let lefts: Vec<usize> = (CENTRE.len()..n_left).collect();
    for (k, &i) in lefts.iter().enumerate() {
        order.push(i);
        order.push(n_left + k);
    }
    let mut bones: Vec<Bone> = Vec::new();
    let mut index: BTreeMap<String, usize> = BTreeMap::new();
    for &i in &order {
        let p = &protos[i];
        let Some(name) = bone_name(o.template, &p.game) else {
            continue;
        };
        let parent = if p.parent.is_empty() {
            None
        } else {
            index.get(&p.parent).copied()
        };
        let mut b = Bone::new(name, parent, p.head, p.tail);
        let y = (p.tail - p.head).normalize_or_zero();
        let x = (p.x - y * p.x.dot(y)).normalize_or_zero();
        if x != Vec3::ZERO {
            b.x_axis = x;
        }
        index.insert(p.game.clone(), bones.len());
        bones.push(b);
        // Twist bones under limb segments.
        if o.twist > 0
            && matches!(
                p.role,
                BoneKind::UpperArm | BoneKind::LowerArm | BoneKind::Thigh | BoneKind::Calf
            )
        {
            let me = bones.len() - 1;
            let n = o.twist;
            // Evenly spread, shifted half a step toward the end that does not roll
            // with the limb: a forearm's or calf's (distal) chain toward the hand or
            // foot, an upper arm's or thigh's (proximal) toward the body.
            let shift = if matches!(p.role, BoneKind::LowerArm | BoneKind::Calf) {
                0.5
            } else {
                -0.5
            };
            for k in 1..=n {
                let t0 = (k as f32 + shift) / (n + 1) as f32;
                let t1 = t0 + 0.5 / (n + 1) as f32;
                let mut tb = Bone::new(
                    twist_name(o.template, &p.game, k),
                    Some(me),
                    p.head.lerp(p.tail, t0),
                    p.head.lerp(p.tail, t1),
                );
                tb.x_axis = bones[me].x_axis;
                bones.push(tb);
            }
        }
    }
    bones
}

/// The hinge axis of a two-bone chain a-b-c: the normal of its bend plane, oriented to
/// agree with `hint`; `hint` made orthogonal to the chain when it is straight.
fn hinge_axis(a: Vec3, b: Vec3, c: Vec3, hint: Vec3) -> Vec3 {
    let n = (b - a).cross(c - b);
    let n = if n.length() > 1e-9 * (c - a).length_squared() {
        n.normalize()
    } else {
        let d = (c - a).normalize_or_zero();
        (hint - d * hint.dot(d)).normalize_or_zero()
    };
    if n.dot(hint) < 0.0 {
        -n
    } else {
        n
    }
}

/// Moves the middle joint `b` onto the plane of the line a-c and `dir`, with a bend
/// toward `dir` between [`MIN_BEND_DEG`] and `max_deg`.
fn prebend(a: Vec3, b: Vec3, c: Vec3, dir: Vec3, max_deg: f32) -> Vec3 {
    let l = c - a;
    let len = l.length();
    if len <= 0.0 {
        return b;
    }
    let u = l / len;
    let bend = (dir - u * dir.dot(u)).normalize_or_zero();
    let t = ((b - a).dot(u) / len).clamp(0.2, 0.8);
    let off = (b - a - u * (b - a).dot(u)).dot(bend);
    let base = a + u * (t * len);
    let angle = |o: f32| bend_angle(a, base + bend * o, c);
    let target = if off <= 0.0 || angle(off) < MIN_BEND_DEG {
        DEFAULT_BEND_DEG
    } else if angle(off) > max_deg {
        max_deg
    } else {
        return base + bend * off;
    };
    // Bisection on the offset for the target angle.
    let (mut lo, mut hi) = (0.0f32, 0.5 * len);
    for _ in 0..40 {
        let mid = 0.5 * (lo + hi);
        if angle(mid) < target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    base + bend * (0.5 * (lo + hi))
}
