//! Placement checks (rubric A) on any skeleton, as data.
//!
//! Bones are recognised by their [`Roles`] (any common spelling, `thigh_l`,
//! `LeftUpLeg`, `upper_leg.L`, `leftUpperLeg`..., or the skeleton's structure), so the
//! checks judge a fitted skeleton, an artist's rig or an imported one alike. Distances
//! are in % of the body height `H`.
//!
//! | id | measure | limit | severity |
//! |---|---|---|---|
//! | `place.inside` | bones whose middle lies outside the body (majority of three ray parities) | at most 0 | major |
//! | `place.knee_bend.L` / `.R`, `place.elbow_bend.L` / `.R` | bend toward the front (knee) / back (elbow), deg (negative = the wrong way) | limb modelled straight (bent <= 15 deg, see [`modelled_bend`](super::limb_bend::modelled_bend)): between 1 and 15; modelled bent more: within 15 of the modelled bend, the right way | blocker |
//! | `place.knee_straight.L` / `.R`, `place.elbow_straight.L` / `.R` | bend out of its plane (front view for a knee), deg | at most 2 | major |
//! | `place.hinge_roll.leg.L` / `.R`, `place.hinge_roll.arm.L` / `.R` | smaller abs(x_axis . n) of the limb's two bones, n the normal of the bent limb's plane (ideal hinge axis for a limb bent under 1 deg) | at least 0.98 | major |
//! | `place.finger_axes` | smallest x_axis agreement between successive finger bones | at least 0.95 | major |
//! | `place.disjoint` | bones whose head is off their parent's tail by > 1e-4 H, at the child continuing each chain ([`chain_child`]) | at most 0 | blocker |
//! | `place.symmetry` | largest left/right mirror mismatch of heads and tails, % H (on a body posed asymmetrically, of the bones whose flesh mirrors) | at most 1 | major |
//! | `place.landmarks` (fit only) | landmarks used by bones, missing or with confidence < 0.5 | at most 0 | minor |
//!
//! These are the only definitions of the `place.*` ids: the fit runs them on the
//! skeleton it made, the review ([`crate::review::check`]) on any skeleton it reads,
//! each passing the body's solid it built once.
//!
//! A bend check whose bones are missing (a skeleton without legs) is not emitted.

use glam::Vec3;

use super::landmarks::{body_mesh, LandmarkOptions, Landmarks};
use super::limb_bend::{bend_angle, modelled_bend};
use super::sections::bounds;
pub(crate) use super::solid::{inside, Solid};
use crate::humanoid::{is_twist_name, Roles};
use crate::model::naming::Side;
use crate::model::{Character, Mesh, Skeleton};
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

/// Runs the placement checks of the table above on skeleton `s` against the body of
/// `c` (its skin, [`crate::model::Character::body`]).
pub fn placement_checks(c: &Character, s: &Skeleton) -> Vec<Check> {
    placement_checks_with(c, s, None)
}

/// [`placement_checks`] with the body's solid when the caller has built it already
/// (the fit and the review build it once and pass it here).
pub(crate) fn placement_checks_with(
    c: &Character,
    s: &Skeleton,
    solid: Option<&Solid>,
) -> Vec<Check> {
    let mut out = Vec::new();
    let body_owned = body_mesh(c, &LandmarkOptions::default()).ok().map(|b| b.0);
    let body = body_owned.as_ref();
    let (lo, hi) = body.map_or((Vec3::ZERO, Vec3::ONE), |m| bounds(&m.positions));
    let h = c.height().max(1e-9);
    let cx = body.map_or(0.5 * (lo.x + hi.x), |m| {
        super::landmarks::centre_plane(&m.positions, lo, hi)
    });
    let built;
    let solid = match (solid, body.filter(|m| !m.triangles.is_empty())) {
        (Some(b), Some(_)) => Some(b),
        (None, Some(m)) => {
            built = Solid::new(m);
            Some(&built)
        }
        _ => None,
    };
    if let Some(solid) = solid {
        out.push(inside_check(s, solid, &rigid_pieces(c)));
    }
    out.extend(limb_checks(s, body, h));
    out.extend(finger_axes_check(s));
    out.push(disjoint_check(s, h));
    out.push(symmetry_check(s, cx, h, body));
    out
}

/// The pieces (islands) of the character's rigid parts (eyes, teeth, tongue), each as
/// its centre and the distance of its farthest vertex from it.
fn rigid_pieces(c: &Character) -> Vec<(Vec3, f32)> {
    let Ok(body) = c.body() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (p, role) in c.parts.iter().zip(&body.roles) {
        if role.class != crate::model::PartClass::Rigid {
            continue;
        }
        let (island, n) = crate::geom::weld::islands(p.mesh.positions.len(), &p.mesh.triangles);
        let mut sum = vec![(Vec3::ZERO, 0usize); n];
        for (v, q) in p.mesh.positions.iter().enumerate() {
            let e = &mut sum[island[v] as usize];
            e.0 += *q;
            e.1 += 1;
        }
        let centres: Vec<Vec3> = sum.iter().map(|(s, k)| *s / (*k).max(1) as f32).collect();
        let mut reach = vec![0.0f32; n];
        for (v, q) in p.mesh.positions.iter().enumerate() {
            let k = island[v] as usize;
            reach[k] = reach[k].max((*q - centres[k]).length());
        }
        out.extend(centres.into_iter().zip(reach));
    }
    out
}

/// `place.inside`: deform bones (not roots) whose middle lies outside the body and
/// outside every piece of a rigid part (an eye bone's middle in its eyeball, which may
/// stand out of the skin, is in the character's volume).
fn inside_check(s: &Skeleton, solid: &Solid, rigid: &[(Vec3, f32)]) -> Check {
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
        .filter(|b| {
            let m = b.middle();
            !inside(solid, m) && !rigid.iter().any(|(c, r)| (m - *c).length() <= *r)
        })
        .map(|b| b.name.clone())
        .collect();
    Check::new("place.inside", "A", Severity::Major)
        .title("Joints in the volume")
        .measure("bones whose middle is outside the body")
        .at_most(outside.len() as f64, 0.0)
        .detail(if outside.is_empty() {
            format!("all {n} bone middles inside")
        } else {
            format!("outside: {}", outside.join(", "))
        })
}

/// One limb's hinge: upper bone `(head a)`, lower bone `(head j, tail e)`.
struct Hinge<'a> {
    upper: &'a crate::model::Bone,
    lower: &'a crate::model::Bone,
    /// `knee` or `elbow`.
    joint: &'static str,
    /// `leg` or `arm`.
    limb: &'static str,
    /// The way the joint must bend: +Z (knee forward), -Z (elbow back).
    dir: Vec3,
    letter: &'static str,
}

/// The knee and elbow hinges of `s`, found by role: a thigh with a shin child, an
/// upper arm with a forearm child.
fn hinges(s: &Skeleton) -> Vec<Hinge<'_>> {
    let children = s.children();
    let limb_of = limbs(s);
    let mut out = Vec::new();
    for (i, b) in s.bones.iter().enumerate() {
        let Some((limb, side)) = limb_of[i] else {
            continue;
        };
        let (lower, joint, name, dir) = match limb {
            Limb::Thigh => (Limb::Shin, "knee", "leg", Vec3::Z),
            Limb::UpperArm => (Limb::Forearm, "elbow", "arm", -Vec3::Z),
            _ => continue,
        };
        let Some(&ci) = children[i]
            .iter()
            .find(|&&k| limb_of[k] == Some((lower, side)))
        else {
            continue;
        };
        out.push(Hinge {
            upper: b,
            lower: &s.bones[ci],
            joint,
            limb: name,
            dir,
            letter: side.letter(),
        });
    }
    out
}

/// Pre-bend, straightness and hinge roll of every knee and elbow.
fn limb_checks(s: &Skeleton, body: Option<&crate::Mesh>, h: f32) -> Vec<Check> {
    let mut out = Vec::new();
    for g in hinges(s) {
        let (a, j, e) = (g.upper.head, g.lower.head, g.lower.tail);
        let u = (e - a).normalize_or_zero();
        let o = (j - a) - u * (j - a).dot(u);
        let fwd = (g.dir - u * g.dir.dot(u)).normalize_or_zero();
        let lat = u.cross(fwd).normalize_or_zero();
        let base = a + u * (j - a).dot(u);
        let ang_f = bend_angle(a, base + fwd * o.dot(fwd), e) * o.dot(fwd).signum();
        let ang_l = bend_angle(a, base + lat * o.dot(lat), e);
        let modelled = body.and_then(|m| modelled_bend(m, a, e, g.dir, h));
        out.push(bend_check(&g, ang_f, modelled));
        let Hinge { joint, letter, .. } = g;
        let cap = capital(joint);
        out.push(
            Check::new(
                format!("place.{joint}_straight.{letter}"),
                "A",
                Severity::Major,
            )
            .title(format!("{cap} straight in the other view"))
            .measure(format!("{joint} bend out of its plane, deg"))
            .at_most(ang_l as f64, 2.0)
            .detail(format!("{} -> {}", g.upper.name, g.lower.name)),
        );
        out.push(hinge_roll_check(&g, lat));
    }
    out
}

fn capital(joint: &str) -> &'static str {
    if joint == "knee" {
        "Knee"
    } else {
        "Elbow"
    }
}

/// `place.{knee,elbow}_bend.{L,R}`: the bend toward the front (knee) or back (elbow),
/// deg, negative the wrong way. A limb modelled straight (its mesh bent at most
/// [`STRAIGHT_DEG`]) passes between 1 and [`STRAIGHT_DEG`]; a limb modelled bent more
/// passes within [`FOLLOW_TOL_DEG`] of the modelled bend (and the right way).
fn bend_check(g: &Hinge<'_>, ang_f: f32, modelled: Option<f32>) -> Check {
    let Hinge { joint, letter, .. } = *g;
    let toward = if joint == "knee" { "front" } else { "back" };
    let k = Check::new(
        format!("place.{joint}_bend.{letter}"),
        "A",
        Severity::Blocker,
    )
    .title(format!("{} pre-bend", capital(joint)))
    .measure(format!(
        "{joint} bend toward the {toward}, deg (negative: the wrong way)"
    ));
    let bones = format!("{} -> {}", g.upper.name, g.lower.name);
    match modelled {
        Some(mb) if mb > STRAIGHT_DEG => {
            let lo = (mb - FOLLOW_TOL_DEG).max(0.0);
            k.between(ang_f as f64, lo as f64, (mb + FOLLOW_TOL_DEG) as f64)
                .detail(format!(
                    "{bones}: {ang_f:.1} deg; the limb is modelled bent {mb:.0} deg toward the \
                     {toward}, so the bones follow it within {FOLLOW_TOL_DEG} deg"
                ))
        }
        _ => k
            .between(ang_f as f64, 1.0, STRAIGHT_DEG as f64)
            .detail(format!(
                "{bones}: {ang_f:.1} deg; {}: the rubric's pre-bend of 1 to {STRAIGHT_DEG} deg \
                 toward the {toward} gives an IK solver its direction",
                match modelled {
                    Some(mb) => format!("the limb is modelled straight ({mb:.0} deg)"),
                    None => "modelled bend not measured (limb sections not found)".to_string(),
                }
            )),
    }
}

/// A limb bent less than this (deg) has no reliable bend plane: its hinge roll is
/// judged against the ideal hinge axis instead.
const PLANE_MIN_DEG: f32 = 1.0;

/// `place.hinge_roll.{leg,arm}.{L,R}`: the smaller `|x_axis . n|` of the two bones of
/// the limb, `n` the normal of the plane of the bent limb (Rigify's convention), or,
/// for a limb bent less than [`PLANE_MIN_DEG`], the ideal hinge axis `lat` (normal to
/// the limb and to its bend direction).
fn hinge_roll_check(g: &Hinge<'_>, lat: Vec3) -> Check {
    let (a, j, e) = (g.upper.head, g.lower.head, g.lower.tail);
    let straight = bend_angle(a, j, e) < PLANE_MIN_DEG;
    let n = if straight {
        Some(lat)
    } else {
        (j - a).cross(e - j).try_normalize()
    };
    let dots: Vec<(String, f32)> = match n.filter(|n| n.length_squared() > 0.5) {
        Some(n) => [g.upper, g.lower]
            .iter()
            .map(|b| (b.name.clone(), b.frame().x_axis.dot(n).abs()))
            .collect(),
        None => Vec::new(),
    };
    let worst = dots.iter().map(|d| d.1).fold(f32::INFINITY, f32::min);
    let Hinge { limb, letter, .. } = *g;
    Check::new(
        format!("place.hinge_roll.{limb}.{letter}"),
        "A",
        Severity::Major,
    )
    .title(format!("{} hinge on local X ({letter})", capital(g.joint)))
    .measure("smaller |x_axis . hinge axis| of the two bones")
    .at_least(if worst.is_finite() { worst as f64 } else { 0.0 }, 0.98)
    .detail(format!(
        "{}; hinge axis: {}",
        dots.iter()
            .map(|(n, d)| format!("{n} {d:.3}"))
            .collect::<Vec<_>>()
            .join(", "),
        if straight {
            "the limb is straight, the ideal axis"
        } else {
            "normal of the bent limb's plane"
        }
    ))
}

/// `place.finger_axes`: successive finger bones share their local X (one curl axis).
fn finger_axes_check(s: &Skeleton) -> Option<Check> {
    let mut fmin = f32::INFINITY;
    let mut fbad = Vec::new();
    let limb_of = limbs(s);
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
    fmin.is_finite().then(|| {
        Check::new("place.finger_axes", "A", Severity::Major)
            .title("Fingers curl on one local axis")
            .measure("smallest x_axis agreement of successive finger bones")
            .at_least(fmin as f64, 0.95)
            .detail(if fbad.is_empty() {
                "every finger chain curls on local X".to_string()
            } else {
                format!("off: {}", fbad.join(", "))
            })
    })
}

/// `place.disjoint` limit: a chain's joint may open at most this much, in H (the rigging
/// notes' 1e-4, in Blender's metres on a body of about 1.8 m, read as a share of H).
pub const DISJOINT_TOL_H: f32 = 1e-4;

/// Largest angle (deg) between a bone and the direction from its head to a child's head
/// for that child to continue the bone's chain (a bone pointing elsewhere is
/// disconnected by design: the rigging notes' "disconnected parents are fine when
/// connecting would move a pivot").
pub const CHAIN_ANGLE_DEG: f32 = 15.0;

/// A bone with several children that stops short of its chain child by more than this
/// share of its own length ends there by design: MakeHuman's `game_engine` chest
/// (`spine_03`) stops 9.4 % H below the neck, about its own length, with the clavicles
/// nearer its tail than the neck (`cargo run --release --example chain_gaps`).
pub const SHORT_OF_CHILD: f32 = 0.5;

/// The humanoid chains by role, each from its first bone to its last: the trunk (hips,
/// spine, chest, neck, head), each arm (clavicle, upper arm, forearm, hand), each leg
/// (thigh, shin, foot, toes). Per bone, the chain it lies on (every bone on the path
/// between two successive roles of a chain belongs to it).
fn role_chains(s: &Skeleton) -> Vec<Option<usize>> {
    let r = Roles::of(s, None);
    let mut chains: Vec<Vec<Option<usize>>> = vec![vec![r.hips, r.spine, r.chest, r.neck, r.head]];
    for k in 0..2 {
        chains.push(vec![
            r.clavicle[k],
            r.upper_arm[k],
            r.lower_arm[k],
            r.hand[k],
        ]);
        chains.push(vec![r.upper_leg[k], r.lower_leg[k], r.foot[k], r.toe[k]]);
    }
    let mut on = vec![None; s.len()];
    for (ci, chain) in chains.iter().enumerate() {
        let found: Vec<usize> = chain.iter().flatten().copied().collect();
        for w in found.windows(2) {
            let (a, b) = (w[0], w[1]);
            if a == b || !s.is_ancestor(a, b) {
                continue;
            }
            let mut cur = Some(b);
            while let Some(c) = cur {
                on[c] = Some(ci);
                if c == a {
                    break;
                }
                cur = s.bones[c].parent;
            }
        }
    }
    on
}

/// The child that continues bone `p`'s chain, the bone whose head must sit on `p`'s
/// tail: of `p`'s children that are not twist bones, the only one; with several (a
/// chest with its neck and clavicles, a pelvis with its spine and thighs), the one on
/// the same humanoid chain as `p` (the trunk, an arm, a leg: [`Roles`]), when `p`
/// points at it (within [`CHAIN_ANGLE_DEG`]) and does not stop short of it by more than
/// [`SHORT_OF_CHILD`] of its length. A hand with its fingers, a head with its
/// face bones, a bone no role names: a branch, whose children start chains of their
/// own. `None` for a leaf or a branch.
pub fn chain_child(s: &Skeleton, p: usize) -> Option<usize> {
    chain_child_with(s, p, &role_chains(s))
}

fn chain_child_with(s: &Skeleton, p: usize, on: &[Option<usize>]) -> Option<usize> {
    let b = &s.bones[p];
    let kids: Vec<usize> = s
        .bones
        .iter()
        .enumerate()
        .filter(|(_, k)| k.parent == Some(p) && !is_twist_name(&k.name))
        .map(|(i, _)| i)
        .collect();
    match kids[..] {
        [] => None,
        [c] => Some(c),
        _ => {
            let chain = on[p]?;
            let c = kids.iter().copied().find(|&c| on[c] == Some(chain))?;
            let cos = (s.bones[c].head - b.head).try_normalize()?.dot(b.y_axis());
            let gap = (s.bones[c].head - b.tail).length();
            (cos >= CHAIN_ANGLE_DEG.to_radians().cos() && gap < SHORT_OF_CHILD * b.length())
                .then_some(c)
        }
    }
}

/// `place.disjoint`: bones whose head is off their parent's tail by more than
/// [`DISJOINT_TOL_H`], for every parent below a root, each judged at the child that
/// continues its chain ([`chain_child`]). Twist bones are not chain children.
fn disjoint_check(s: &Skeleton, h: f32) -> Check {
    let mut disjoint = Vec::new();
    let on = role_chains(s);
    for (p, pb) in s.bones.iter().enumerate() {
        if pb.parent.is_none() || is_twist_name(&pb.name) {
            continue;
        }
        let Some(c) = chain_child_with(s, p, &on) else {
            continue;
        };
        let gap = (s.bones[c].head - pb.tail).length();
        if gap > DISJOINT_TOL_H * h {
            disjoint.push(format!(
                "{} ({:.3}% H from {})",
                s.bones[c].name,
                100.0 * gap / h,
                pb.name
            ));
        }
    }
    Check::new("place.disjoint", "A", Severity::Blocker)
        .title("Chain integrity")
        .measure(
            "bones off their parent's tail (the child continuing the chain) by more than 1e-4 H",
        )
        .at_most(disjoint.len() as f64, 0.0)
        .detail(if disjoint.is_empty() {
            "all chains connected".to_string()
        } else {
            disjoint.join(", ")
        })
}

/// How many of the body's vertices nearest a bone are the flesh it lies in
/// ([`flesh_centroid`]).
pub const MISMATCH_SAMPLES: usize = 32;

/// The share of the body's vertices whose mirror image may lie off the body before the
/// body counts as posed asymmetrically ([`posed_asymmetrically`]).
pub const MIRROR_GAP_QUANTILE: f32 = 0.99;

/// Whether the body itself is not symmetric about `x = cx`: the
/// [`MIRROR_GAP_QUANTILE`] of the distances from its vertices' mirror images to its
/// surface is over 1 % of `h`. A symmetric mesh measures rounding; a character exported
/// in a pose with one hand hanging farther out than the other, several % H.
fn posed_asymmetrically(body: &Mesh, cx: f32, h: f32) -> bool {
    let tree = crate::geom::bvh::Bvh::build(&body.positions, &body.triangles);
    let mut d: Vec<f32> = body
        .positions
        .iter()
        .filter_map(|p| tree.closest(Vec3::new(2.0 * cx - p.x, p.y, p.z)))
        .map(|c| c.dist2.sqrt())
        .collect();
    if d.is_empty() {
        return false;
    }
    let k = ((MIRROR_GAP_QUANTILE * d.len() as f32) as usize).min(d.len() - 1);
    d.select_nth_unstable_by(k, f32::total_cmp);
    d[k] > 0.01 * h
}

/// The centroid of the [`MISMATCH_SAMPLES`] vertices of `body` nearest segment `a`-`b`:
/// the flesh the bone lies in.
fn flesh_centroid(body: &Mesh, a: Vec3, b: Vec3) -> Option<Vec3> {
    let mut d: Vec<(f32, Vec3)> = body
        .positions
        .iter()
        .map(|&p| {
            (
                (crate::geom::segment::closest_on_segment(p, a, b) - p).length(),
                p,
            )
        })
        .collect();
    let k = MISMATCH_SAMPLES.min(d.len());
    if k == 0 {
        return None;
    }
    d.select_nth_unstable_by(k - 1, |x, y| x.0.total_cmp(&y.0));
    Some(d[..k].iter().map(|x| x.1).sum::<Vec3>() / k as f32)
}

/// `place.symmetry`: the largest left/right mirror mismatch of heads and tails about
/// the plane `x = cx`, % of `h`. A symmetric body must get a symmetric skeleton; a body
/// posed asymmetrically ([`posed_asymmetrically`], one arm hanging farther out) the
/// skeleton of its pose: there a pair of bones whose flesh does not mirror keeps the
/// pose (the flesh nearest the mean of the left bone and the right one's mirror image,
/// [`flesh_centroid`], and the flesh nearest its mirror image: their centroids, the
/// left one mirrored, more than 1 % H apart; on a body symmetric there the two are
/// mirror images whatever the bones, so a misplaced bone is not excused) and is named in the detail, and the others must
/// mirror to within 1 % H beyond their flesh's own mismatch.
fn symmetry_check(s: &Skeleton, cx: f32, h: f32, body: Option<&Mesh>) -> Check {
    let mut worst = 0.0f32;
    let mut worst_name = String::new();
    let mut excused: Vec<String> = Vec::new();
    // Whether the body is posed is asked once, and only when a pair is apart at all.
    let posed = std::cell::OnceCell::new();
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
        let raw = (mir(b.head) - r.head)
            .length()
            .max((mir(b.tail) - r.tail).length())
            / h
            * 100.0;
        // The body's own mismatch is only looked for where the skeleton's is.
        let own = match body
            .filter(|m| raw > 1.0 && *posed.get_or_init(|| posed_asymmetrically(m, cx, h)))
        {
            Some(m) => {
                // Both sides asked the same question: the flesh nearest the mean of the
                // left bone and the right one's mirror image, and nearest its mirror.
                let (a, t) = (0.5 * (b.head + mir(r.head)), 0.5 * (b.tail + mir(r.tail)));
                match (flesh_centroid(m, a, t), flesh_centroid(m, mir(a), mir(t))) {
                    (Some(fl), Some(fr)) => (mir(fl) - fr).length() / h * 100.0,
                    _ => 0.0,
                }
            }
            None => 0.0,
        };
        // Flesh that does not mirror is the body's pose: its bones are not compared.
        if own > 1.0 {
            excused.push(b.name.clone());
            continue;
        }
        let d = raw - own;
        if d > worst {
            worst = d;
            worst_name = b.name.clone();
        }
    }
    let mut detail = if worst_name.is_empty() {
        "symmetric".to_string()
    } else {
        format!("worst: {worst_name}")
    };
    if !excused.is_empty() {
        detail.push_str(&format!(
            "; the body is posed asymmetrically: {} bone pair(s) whose flesh does not mirror \
             keep the pose ({}{})",
            excused.len(),
            excused
                .iter()
                .take(6)
                .cloned()
                .collect::<Vec<_>>()
                .join(", "),
            if excused.len() > 6 { ", ..." } else { "" }
        ));
    }
    Check::new("place.symmetry", "A", Severity::Major)
        .title("Left and right mirror")
        .measure("largest mirror mismatch of heads and tails, % of height")
        .at_most(worst as f64, 1.0)
        .detail(detail)
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
    vec![Check::new("place.landmarks", "A", Severity::Minor)
        .title("Landmarks found with confidence")
        .measure("landmarks used by bones, missing or with confidence below 0.5")
        .at_most(low.len() as f64, 0.0)
        .detail(if low.is_empty() {
            "all landmarks the bones use were found".to_string()
        } else {
            low.join(", ")
        })]
}
