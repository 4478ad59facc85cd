//! Placement checks (rubric A) on any skeleton, as data.
//!
//! Bones are recognised by their [`Roles`] (any common spelling, `thigh_l`,
//! `LeftUpLeg`, `upper_leg.L`, `leftUpperLeg`..., or the skeleton's structure), so the
//! checks judge a fitted skeleton, an artist's rig or an imported one alike. Distances are in % of the body height `H`.
//!
//! | id | measure | passes when | severity |
//! |---|---|---|---|
//! | `place.inside` | bones whose middle lies outside the body (majority of three ray parities) | 0 | major |
//! | `place.knee_bend.L` / `.R` | knee bend toward the front, deg (negative = backward) | 1 to 60 | blocker |
//! | `place.elbow_bend.L` / `.R` | elbow bend toward the back, deg | 1 to 60 | blocker |
//! | `place.knee_bend_modelled.L`, `place.elbow_bend_modelled.L` / `.R` | limb modelled straight (bent <= 15 deg, see [`modelled_bend`](super::limb_bend::modelled_bend)): the bend, deg; modelled bent more: the bend minus the modelled bend, deg | modelled straight: 1 to 15 toward the front (knee) / back (elbow); modelled bent: within 15 and the right way | minor |
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
use super::landmarks::{body_mesh, LandmarkOptions, Landmarks};
use super::limb_bend::modelled_bend;
use super::sections::bounds;
use crate::geom::bvh::Bvh;
use crate::humanoid::{is_twist_name, Roles};
use crate::model::naming::Side;
use crate::model::{Character, Skeleton};
use crate::report::{Check, Severity};

/// A limb modelled bent at most this much (deg) counts as modelled straight: its bones
/// get the rubric's pre-bend of 1 to 15 deg.
pub const STRAIGHT_DEG: f32 = 15.0;
/// How closely (deg) the bones of a limb modelled bent must follow the modelled bend.
pub const FOLLOW_TOL_DEG: f32 = 15.0;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Limb {
    Thigh,
    Shin,
    UpperArm,
    Forearm,
    Finger,
}

/// The limb bones the bend, hinge and finger checks judge, per bone, from the
/// skeleton's [`Roles`]: thighs, shins, upper arms, forearms, and the bones below each
/// hand (twist bones left out).
fn limbs(s: &Skeleton) -> Vec<Option<(Limb, Side)>> {
    let roles = Roles::of(s, None);
    let mut out = vec![None; s.len()];
    for (k, side) in [Side::Left, Side::Right].into_iter().enumerate() {
        if let Some(hand) = roles.hand[k] {
            for (i, b) in s.bones.iter().enumerate() {
                if i != hand && s.is_ancestor(hand, i) && roles.is_arm(i) && !is_twist_name(&b.name)
                {
                    out[i] = Some((Limb::Finger, side));
                }
            }
        }
        for (b, l) in [
            (roles.upper_leg[k], Limb::Thigh),
            (roles.lower_leg[k], Limb::Shin),
            (roles.upper_arm[k], Limb::UpperArm),
            (roles.lower_arm[k], Limb::Forearm),
        ] {
            if let Some(b) = b {
                out[b] = Some((l, side));
            }
        }
    }
    out
}

/// The body as solids: one bounding-volume hierarchy per connected piece of the skin
/// union. Pieces that overlap without being welded (an arm pushed into a torso,
/// trousers over the hips) would flip a single crossing parity where they overlap; a
/// point is inside the body when it is inside any piece.
pub(crate) struct Solid {
    pieces: Vec<Bvh>,
}

impl Solid {
    /// The pieces of `m` (its connected triangle islands), each with its BVH.
    pub(crate) fn new(m: &crate::Mesh) -> Solid {
        let (isl, n) = crate::geom::weld::islands(m.positions.len(), &m.triangles);
        let mut tris: Vec<Vec<[u32; 3]>> = vec![Vec::new(); n];
        for t in &m.triangles {
            tris[isl[t[0] as usize] as usize].push(*t);
        }
        Solid {
            pieces: tris
                .into_iter()
                .filter(|t| !t.is_empty())
                .map(|t| Bvh::build(&m.positions, &t))
                .collect(),
        }
    }

    /// Whether `p` lies inside any piece (see [`inside`]).
    pub(crate) fn contains(&self, p: Vec3) -> bool {
        self.pieces.iter().any(|b| b.contains(p))
    }
}

/// Whether `p` lies inside the body: inside any of its pieces, each judged by the
/// majority of three skew-ray crossing parities over a bounding-volume hierarchy of
/// its triangles (a ray that slips through a small hole or grazes an edge is
/// outvoted).
pub(crate) fn inside(solid: &Solid, p: Vec3) -> bool {
    solid.contains(p)
}

/// Runs the placement checks of the table above on skeleton `s` against the body of
/// `c` (the part named `body`, else the largest part).
pub fn placement_checks(c: &Character, s: &Skeleton) -> Vec<Check> {
    placement_checks_with(c, s, None)
}

/// [`placement_checks`] with the body's BVH when the caller has built it already.
pub(crate) fn placement_checks_with(
    c: &Character,
    s: &Skeleton,
    bvh: Option<&Solid>,
) -> Vec<Check> {
    let mut out = Vec::new();
    let body_owned = body_mesh(c, &LandmarkOptions::default()).ok().map(|b| b.0);
    let body = body_owned.as_ref();
    let (lo, hi) = body.map_or((Vec3::ZERO, Vec3::ONE), |m| bounds(&m.positions));
    let h = (hi.y - lo.y).max(1e-9);
    let cx = 0.5 * (lo.x + hi.x);
    // Inside the volume.
    let built;
    let bvh = match (bvh, body.filter(|m| !m.triangles.is_empty())) {
        (Some(b), Some(_)) => Some(b),
        (None, Some(m)) => {
            built = Solid::new(m);
            Some(&built)
        }
        _ => None,
    };
    if let Some(bvh) = bvh {
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
            .iter()
            .filter(|b| !inside(bvh, b.middle()))
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
    let limb_of = limbs(s);
    let mut min_dot = f32::INFINITY;
    let mut bad_roll = Vec::new();
    for (i, b) in s.bones.iter().enumerate() {
        let Some((limb, side)) = limb_of[i] else {
            continue;
        };
        let (lower, joint, dir, letter) = match limb {
            Limb::Thigh => (Limb::Shin, "knee", Vec3::Z, side.letter()),
            Limb::UpperArm => (Limb::Forearm, "elbow", -Vec3::Z, side.letter()),
            _ => continue,
        };
        let Some(&ci) = children[i]
            .iter()
            .find(|&&k| limb_of[k] == Some((lower, side)))
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
        let title = format!(
            "{} bend follows the modelled limb",
            if joint == "knee" { "Knee" } else { "Elbow" }
        );
        let toward = if joint == "knee" { "front" } else { "back" };
        let modelled = body.and_then(|m| modelled_bend(m, a, e, dir, h));
        out.push(match modelled {
            Some(mb) if mb > STRAIGHT_DEG => {
                let dev = (ang_f - mb).abs();
                Check {
                    passed: dev <= FOLLOW_TOL_DEG && ang_f > 0.0,
                    ..Check::at_most(
                        format!("place.{joint}_bend_modelled.{letter}"),
                        "A",
                        title,
                        format!("{joint} bend minus the modelled bend, deg"),
                        dev as f64,
                        FOLLOW_TOL_DEG as f64,
                        Severity::Minor,
                        format!(
                            "{} -> {}: modelled bent {mb:.0} deg toward the {toward}; the bones \
                             bend {ang_f:.1} deg and must follow within {FOLLOW_TOL_DEG} deg, \
                             toward the {toward}",
                            b.name, cb.name
                        ),
                    )
                }
            }
            _ => Check {
                passed: (1.0..=STRAIGHT_DEG).contains(&ang_f),
                ..Check::at_most(
                    format!("place.{joint}_bend_modelled.{letter}"),
                    "A",
                    title,
                    format!("{joint} bend toward the {toward}, deg"),
                    ang_f as f64,
                    STRAIGHT_DEG as f64,
                    Severity::Minor,
                    format!(
                        "{} -> {}: {}; a limb modelled straight gets a pre-bend of 1 to \
                         {STRAIGHT_DEG} deg toward the {toward}",
                        b.name,
                        cb.name,
                        match modelled {
                            Some(mb) => format!("modelled bent {mb:.0} deg"),
                            None =>
                                "modelled bend not measured (limb sections not found)".to_string(),
                        }
                    ),
                )
            },
        });
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
        if limb_of[i].map(|l| l.0) != Some(Limb::Finger) {
            continue;
        }
        if let Some(p) = b
            .parent
            .filter(|&p| limb_of[p].map(|l| l.0) == Some(Limb::Finger))
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
