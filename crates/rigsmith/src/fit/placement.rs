//! Placement checks (rubric A) on any skeleton, as data.
//!
//! Bones are recognised by name in any common spelling (`thigh_l`, `LeftUpLeg`,
//! `upper_leg.L`, `leftUpperLeg`...), so the checks judge a fitted skeleton, an artist's
//! rig or an imported one alike. Distances are in % of the body height `H`.
//!
//! | id | measure | passes when | severity |
//! |---|---|---|---|
//! | `place.inside` | bones whose middle lies outside the body (majority of three ray parities) | 0 | major |
//! | `place.knee_bend.L` / `.R` | knee bend toward the front, deg (negative = backward) | 1 to 60 | blocker |
//! | `place.elbow_bend.L` / `.R` | elbow bend toward the back, deg | 1 to 60 | blocker |
//! | `place.knee_bend_small.L`, `place.elbow_bend_small.L` / `.R` | bend, deg | <= 15 (the rubric's pre-bend; more is right only for a limb modelled bent) | minor |
//! | `place.knee_straight.L` / `.R` | knee bend sideways (front view), deg | <= 2 | major |
//! | `place.elbow_straight.L` / `.R` | elbow bend out of the front-back plane, deg | <= 2 | major |
//! | `place.hinge_roll` | smallest abs(x_axis . bend-plane normal) over thighs, shins, upper arms, forearms | >= 0.98 | major |
//! | `place.finger_axes` | smallest x_axis agreement between successive finger bones | >= 0.95 | major |
//! | `place.disjoint` | bones whose head is off their only-child parent's tail by > 0.5% H | 0 | blocker |
//! | `place.symmetry` | largest left/right mirror mismatch of heads and tails, % H | <= 1 | major |
//! | `place.landmarks` (fit only) | landmarks used by bones, missing or with confidence < 0.5 | 0 | minor |
//!
//! A bend check whose bones are missing (a skeleton without legs) is not emitted.

use glam::Vec3;

use super::fitting::{bend_angle, MAX_BEND_DEG};
use super::landmarks::{body_index, LandmarkOptions, Landmarks};
use super::sections::bounds;
use crate::model::naming::{split_side, Side};
use crate::model::{Character, Mesh, Skeleton};
use crate::report::{Check, Severity};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Limb {
    Thigh,
    Shin,
    UpperArm,
    Forearm,
    Finger,
}

fn limb_of(name: &str) -> Option<(Limb, Side)> {
    let (stem, side) = split_side(name);
    if side == Side::Center || stem.contains("twist") {
        return None;
    }
    let s: String = stem.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
    let s = s
        .trim_start_matches("def")
        .trim_start_matches("mixamorig")
        .to_string();
    let limb = if s.contains("thumb")
        || s.contains("index")
        || s.contains("middle")
        || s.contains("ring")
        || s.contains("pinky")
        || s.contains("little")
    {
        Limb::Finger
    } else if s.contains("thigh")
        || s.contains("upperleg")
        || s.contains("upleg")
        || s.starts_with("thigh")
    {
        Limb::Thigh
    } else if s.contains("calf") || s.contains("shin") || s.contains("lowerleg") || s == "leg" {
        Limb::Shin
    } else if s.contains("upperarm") || s == "arm" {
        Limb::UpperArm
    } else if s.contains("forearm") || s.contains("lowerarm") {
        Limb::Forearm
    } else {
        return None;
    };
    Some((limb, side))
}

/// Whether `p` lies inside a triangle mesh: crossings of three axis rays (+X, -X, +Z)
/// are counted and the majority of the three parities decides, so a ray that slips
/// through a small hole or grazes an edge is outvoted.
pub(crate) fn inside(m: &Mesh, p: Vec3) -> bool {
    // (axis along the ray, sign, the two other axes)
    let rays: [(usize, f32, usize, usize); 3] = [(0, 1.0, 1, 2), (0, -1.0, 1, 2), (2, 1.0, 0, 1)];
    let mut votes = 0;
    for (k, (ax, sign, u, v)) in rays.into_iter().enumerate() {
        // Two agreeing rays already make the majority.
        if k == 2 && votes != 1 {
            break;
        }
        let mut n = 0u32;
        for t in &m.triangles {
            let (Some(&a), Some(&b), Some(&c)) = (
                m.positions.get(t[0] as usize),
                m.positions.get(t[1] as usize),
                m.positions.get(t[2] as usize),
            ) else {
                continue;
            };
            let (pu, pv) = (p[u], p[v]);
            if (a[u] < pu && b[u] < pu && c[u] < pu) || (a[u] > pu && b[u] > pu && c[u] > pu) {
                continue;
            }
            if (a[v] < pv && b[v] < pv && c[v] < pv) || (a[v] > pv && b[v] > pv && c[v] > pv) {
                continue;
            }
            // Barycentric coordinates of (pu, pv) in the projected triangle.
            let d = (b[u] - a[u]) * (c[v] - a[v]) - (c[u] - a[u]) * (b[v] - a[v]);
            if d.abs() < 1e-30 {
                continue;
            }
            let l1 = ((pu - a[u]) * (c[v] - a[v]) - (c[u] - a[u]) * (pv - a[v])) / d;
            let l2 = ((b[u] - a[u]) * (pv - a[v]) - (pu - a[u]) * (b[v] - a[v])) / d;
            if l1 < 0.0 || l2 < 0.0 || l1 + l2 > 1.0 {
                continue;
            }
            let x = a[ax] + l1 * (b[ax] - a[ax]) + l2 * (c[ax] - a[ax]);
            if (x - p[ax]) * sign > 0.0 {
                n += 1;
            }
        }
        votes += (n % 2) as u32;
    }
    votes >= 2
}

/// Runs the placement checks of the table above on skeleton `s` against the body of
/// `c` (the part named `body`, else the largest part).
pub fn placement_checks(c: &Character, s: &Skeleton) -> Vec<Check> {
    let mut out = Vec::new();
    let body = body_index(c, &LandmarkOptions::default())
        .ok()
        .map(|i| &c.parts[i].mesh);
    let (lo, hi) = body.map_or((Vec3::ZERO, Vec3::ONE), |m| bounds(&m.positions));
    let h = (hi.y - lo.y).max(1e-9);
    let cx = 0.5 * (lo.x + hi.x);
    // Inside the volume.
    if let Some(m) = body.filter(|m| !m.triangles.is_empty()) {
        use rayon::prelude::*;
        let tested: Vec<&crate::model::Bone> = s
            .bones
            .iter()
            .filter(|b| {
                b.deform
                    && b.parent.is_some()
                    && b.length() > 0.0
                    && !b.name.to_ascii_lowercase().contains("root")
            })
            .collect();
        let n = tested.len();
        let outside: Vec<String> = tested
            .par_iter()
            .filter(|b| !inside(m, b.middle()))
            .map(|b| b.name.clone())
            .collect();
        out.push(Check::at_most(
            "place.inside",
            "A",
            "Joints in the volume",
            "bones whose middle is outside the body",
            outside.len() as f64,
            0.0,
            Severity::Major,
            if outside.is_empty() {
                format!("all {n} bone middles inside")
            } else {
                format!("outside: {}", outside.join(", "))
            },
        ));
    }
    // Bends and hinge rolls.
    let children = s.children();
    let mut min_dot = f32::INFINITY;
    let mut bad_roll = Vec::new();
    for (i, b) in s.bones.iter().enumerate() {
        let Some((limb, side)) = limb_of(&b.name) else {
            continue;
        };
        let (lower, joint, dir, letter) = match limb {
            Limb::Thigh => (Limb::Shin, "knee", Vec3::Z, side.letter()),
            Limb::UpperArm => (Limb::Forearm, "elbow", -Vec3::Z, side.letter()),
            _ => continue,
        };
        let Some(&ci) = children[i]
            .iter()
            .find(|&&k| limb_of(&s.bones[k].name) == Some((lower, side)))
        else {
            continue;
        };
        let cb = &s.bones[ci];
        let (a, j, e) = (b.head, cb.head, cb.tail);
        let l = e - a;
        let u = l.normalize_or_zero();
        let o = (j - a) - u * (j - a).dot(u);
        let fwd = (dir - u * dir.dot(u)).normalize_or_zero();
        let lat = u.cross(fwd).normalize_or_zero();
        let base = a + u * (j - a).dot(u);
        let ang_f = bend_angle(a, base + fwd * o.dot(fwd), e) * o.dot(fwd).signum();
        let ang_l = bend_angle(a, base + lat * o.dot(lat), e);
        out.push(Check {
            passed: (1.0..=MAX_BEND_DEG).contains(&ang_f),
            ..Check::at_most(
                format!("place.{joint}_bend.{letter}"),
                "A",
                format!(
                    "{} pre-bend",
                    if joint == "knee" { "Knee" } else { "Elbow" }
                ),
                format!(
                    "{joint} bend toward the {}, deg",
                    if joint == "knee" { "front" } else { "back" }
                ),
                ang_f as f64,
                MAX_BEND_DEG as f64,
                Severity::Blocker,
                format!(
                    "{} -> {}: passes between 1 and {MAX_BEND_DEG} deg in the right direction",
                    b.name, cb.name
                ),
            )
        });
        out.push(Check::at_most(
            format!("place.{joint}_bend_small.{letter}"),
            "A",
            format!(
                "{} pre-bend is small",
                if joint == "knee" { "Knee" } else { "Elbow" }
            ),
            format!("{joint} bend, deg"),
            ang_f.abs() as f64,
            15.0,
            Severity::Minor,
            format!(
                "{} -> {}: over 15 deg is right only for a limb modelled bent",
                b.name, cb.name
            ),
        ));
        out.push(Check::at_most(
            format!("place.{joint}_straight.{letter}"),
            "A",
            format!(
                "{} straight in the other view",
                if joint == "knee" { "Knee" } else { "Elbow" }
            ),
            format!("{joint} bend out of its plane, deg"),
            ang_l as f64,
            2.0,
            Severity::Major,
            format!("{} -> {}", b.name, cb.name),
        ));
        // Hinge roll of both bones.
        let n = (j - a).cross(e - j);
        if n.length() > 1e-12 * l.length_squared() {
            let n = n.normalize();
            for bone in [b, cb] {
                let d = bone.frame().x_axis.dot(n).abs();
                if d < 0.98 {
                    bad_roll.push(format!("{} ({d:.3})", bone.name));
                }
                min_dot = min_dot.min(d);
            }
        }
    }
    if min_dot.is_finite() {
        out.push(Check::at_least(
            "place.hinge_roll",
            "A",
            "Hinge roll on local X",
            "smallest |x_axis . bend-plane normal| of the limb hinges",
            min_dot as f64,
            0.98,
            Severity::Major,
            if bad_roll.is_empty() {
                "all limb hinges on local X".to_string()
            } else {
                format!("off: {}", bad_roll.join(", "))
            },
        ));
    }
    // Finger axes agree along each chain.
    let mut fmin = f32::INFINITY;
    let mut fbad = Vec::new();
    for (i, b) in s.bones.iter().enumerate() {
        if limb_of(&b.name).map(|l| l.0) != Some(Limb::Finger) {
            continue;
        }
        if let Some(p) = b
            .parent
            .filter(|&p| limb_of(&s.bones[p].name).map(|l| l.0) == Some(Limb::Finger))
        {
            let d = s.bones[p].frame().x_axis.dot(s.bones[i].frame().x_axis);
            if d < 0.95 {
                fbad.push(b.name.clone());
            }
            fmin = fmin.min(d);
        }
    }
    if fmin.is_finite() {
        out.push(Check::at_least(
            "place.finger_axes",
            "A",
            "Fingers curl on one local axis",
            "smallest x_axis agreement of successive finger bones",
            fmin as f64,
            0.95,
            Severity::Major,
            if fbad.is_empty() {
                "every finger chain curls on local X".to_string()
            } else {
                format!("off: {}", fbad.join(", "))
            },
        ));
    }
    // Disjoint chains.
    let mut disjoint = Vec::new();
    for (i, b) in s.bones.iter().enumerate() {
        let Some(p) = b.parent else { continue };
        if s.bones[p].parent.is_none() || b.name.contains("twist") || b.name.contains("Twist") {
            continue;
        }
        let real: Vec<usize> = children[p]
            .iter()
            .copied()
            .filter(|&k| !s.bones[k].name.to_ascii_lowercase().contains("twist"))
            .collect();
        if real.len() == 1 && (b.head - s.bones[p].tail).length() > 0.005 * h {
            disjoint.push(format!(
                "{} ({:.1}% H from {})",
                b.name,
                100.0 * (b.head - s.bones[p].tail).length() / h,
                s.bones[p].name
            ));
        }
        let _ = i;
    }
    out.push(Check::at_most(
        "place.disjoint",
        "A",
        "Chain integrity",
        "bones off their only-child parent's tail by more than 0.5% H",
        disjoint.len() as f64,
        0.0,
        Severity::Blocker,
        if disjoint.is_empty() {
            "all chains connected".to_string()
        } else {
            disjoint.join(", ")
        },
    ));
    // Symmetry.
    let mut worst = 0.0f32;
    let mut worst_name = String::new();
    let names = s.index_map();
    for b in &s.bones {
        if b.side != Side::Left {
            continue;
        }
        let m = crate::model::naming::mirror_name(&b.name);
        let Some(&j) = names.get(m.as_str()) else {
            continue;
        };
        let r = &s.bones[j];
        let mir = |p: Vec3| Vec3::new(2.0 * cx - p.x, p.y, p.z);
        let d = (mir(b.head) - r.head)
            .length()
            .max((mir(b.tail) - r.tail).length())
            / h
            * 100.0;
        if d > worst {
            worst = d;
            worst_name = b.name.clone();
        }
    }
    out.push(Check::at_most(
        "place.symmetry",
        "A",
        "Left and right mirror",
        "largest mirror mismatch of heads and tails, % of height",
        worst as f64,
        1.0,
        Severity::Major,
        if worst_name.is_empty() {
            "symmetric".to_string()
        } else {
            format!("worst: {worst_name}")
        },
    ));
    out
}

/// The landmark check of a fit: landmarks among `used` (those bones were placed on)
/// that are missing or have a confidence below 0.5 (estimates).
pub fn landmark_checks(lm: &Landmarks, used: &[String]) -> Vec<Check> {
    let mut low: Vec<String> = used
        .iter()
        .filter(|n| !lm.points.contains_key(n.as_str()))
        .map(|n| format!("{n} (missing)"))
        .collect();
    low.extend(
        lm.points
            .iter()
            .filter(|(n, l)| l.confidence < 0.5 && used.iter().any(|u| u == *n))
            .map(|(n, l)| format!("{n} ({:.2}, {})", l.confidence, l.method)),
    );
    low.sort();
    low.dedup();
    vec![Check::at_most(
        "place.landmarks",
        "A",
        "Landmarks found with confidence",
        "landmarks used by bones, missing or with confidence below 0.5",
        low.len() as f64,
        0.0,
        Severity::Minor,
        if low.is_empty() {
            "all landmarks the bones use were found".to_string()
        } else {
            low.join(", ")
        },
    )]
}
