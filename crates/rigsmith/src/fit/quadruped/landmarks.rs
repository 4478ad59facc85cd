//! Quadruped landmarks from cross-sections (see the module docs of
//! [`crate::fit::quadruped`] for the method of each).

use std::collections::BTreeMap;

use glam::Vec3;

use super::classify::Classification;
use super::track::{self, Station};
use super::QuadrupedKind;
use crate::error::{Error, Result};
use crate::fit::landmarks::{put_landmark, Landmark, Landmarks};
use crate::fit::sections::{bounds, Loop, Slicer};
use crate::model::Mesh;

/// Heights of the leg joints as fractions of the leg's free length (floor to where the
/// leg joins the trunk), per build: (knee, hock, hind paw, elbow, wrist, front paw).
fn fractions(kind: QuadrupedKind) -> [f32; 6] {
    match kind {
        QuadrupedKind::Horse => [0.9, 0.36, 0.1, 0.9, 0.33, 0.1],
        QuadrupedKind::Cat => [0.9, 0.3, 0.07, 0.9, 0.26, 0.07],
        QuadrupedKind::Quadruped | QuadrupedKind::Wolf => [0.9, 0.33, 0.08, 0.9, 0.28, 0.08],
    }
}

/// The smallest bend (deg) the fitter leaves at the knee, hock and elbow.
pub const MIN_BEND_DEG: f32 = 4.0;
/// How far a pre-bend may move a joint off the leg's centre line, in units of the
/// leg section's radius there.
const PREBEND_REACH: f32 = 0.5;

/// The quadruped's measurement frame: facing +Z. A body facing -Z is turned half a
/// turn about the vertical through its box centre (`flip`) and turned back after.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Frame {
    pub flip: bool,
    pub cx: f32,
    pub cz: f32,
}

impl Frame {
    /// Maps a point between the body's space and the frame (its own inverse).
    pub fn map(&self, p: Vec3) -> Vec3 {
        if self.flip {
            Vec3::new(2.0 * self.cx - p.x, p.y, 2.0 * self.cz - p.z)
        } else {
            p
        }
    }
}

struct Lm {
    points: BTreeMap<String, Landmark>,
    notes: Vec<String>,
}

impl Lm {
    fn put(&mut self, name: &str, p: Vec3, method: &str, confidence: f32) {
        put_landmark(&mut self.points, name, p, method, confidence);
    }
}

/// The angle (deg) by which the path a-b-c bends at `b` toward `dir` (negative when
/// it bends away), measured in the plane of a-c and `dir`.
pub(crate) fn bend_toward(a: Vec3, b: Vec3, c: Vec3, dir: Vec3) -> f32 {
    let u = (c - a).normalize_or_zero();
    let side = (dir - u * dir.dot(u)).normalize_or_zero();
    let off = (b - a).dot(side);
    let t = (b - a).dot(u);
    let l = (c - a).length();
    if t <= 0.0 || t >= l {
        return 0.0;
    }
    (off.atan2(t) + off.atan2(l - t)).to_degrees()
}

/// Moves `b` toward `dir` (across the line a-c) until the path bends by `min_deg`
/// there, but by at most `reach` (the joint stays in its limb); a joint bent more
/// already stays. Returns the joint and whether it moved.
fn prebend(a: Vec3, b: Vec3, c: Vec3, dir: Vec3, min_deg: f32, reach: f32) -> (Vec3, bool) {
    if bend_toward(a, b, c, dir) >= min_deg {
        return (b, false);
    }
    let u = (c - a).normalize_or_zero();
    let side = (dir - u * dir.dot(u)).normalize_or_zero();
    let off = (b - a).dot(side);
    let base = b - side * off;
    let (mut lo, mut hi) = (0.0f32, (c - a).length());
    for _ in 0..40 {
        let mid = 0.5 * (lo + hi);
        if bend_toward(a, base + side * mid, c, dir) < min_deg {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let to = base + side * hi;
    let moved = to - b;
    if moved.length() > reach {
        return (b + moved.normalize_or_zero() * reach, true);
    }
    (to, true)
}

/// Spine height at `z`: belly and back where the vertical cut normal to Z crosses the
/// centre plane (the largest loop spanning it).
fn belly_back(m: &Mesh, cx: f32, z: f32, above: f32) -> Option<(f32, f32)> {
    let loops = crate::fit::sections::cross_sections(&[m], Vec3::new(cx, 0.0, z), Vec3::Z);
    let l = loops
        .iter()
        .filter(|l| l.lo.x < cx && l.hi.x > cx)
        .max_by(|a, b| a.perimeter.total_cmp(&b.perimeter))?;
    let ys: Vec<f32> = l
        .crossings(0, cx, 1)
        .into_iter()
        .filter(|y| *y > above)
        .collect();
    if ys.len() >= 2 {
        Some((ys[0], ys[ys.len() - 1]))
    } else {
        Some((l.lo.y.max(above), l.hi.y))
    }
}

/// The trunk's rear and front along Z on the horizontal cut at `y`: the largest loop
/// spanning the centre plane.
fn trunk_extent(slicer: &Slicer<'_>, y: f32, cx: f32) -> Option<(f32, f32)> {
    let l = slicer
        .cut(Vec3::new(0.0, y, 0.0))
        .into_iter()
        .filter(|l| l.lo.x < cx && l.hi.x > cx)
        .max_by(|a, b| a.perimeter.total_cmp(&b.perimeter))?;
    let z = l.crossings(0, cx, 2);
    if z.len() >= 2 {
        Some((z[0], z[z.len() - 1]))
    } else {
        Some((l.lo.z, l.hi.z))
    }
}

/// One leg's joints (in the measuring frame): names and points from the hip (or
/// shoulder) down to the toe tip.
struct LegJoints {
    top: Vec3,
    upper: Vec3,
    low: Vec3,
    ball: Vec3,
    tip: Vec3,
    plantigrade: bool,
}

/// The hock of a hind leg whose centre line bends back visibly: of the stations between
/// the paw `ball` and the height `below`, the one farthest behind (toward -Z) the
/// chord from the leg's top `top` to the paw, when it lies more than its section's
/// radius behind it.
fn hock_corner(st: &[Station], top: Vec3, ball: Vec3, below: f32) -> Option<Vec3> {
    let u = (top - ball).normalize_or_zero();
    let back = {
        let b = -Vec3::Z - u * (-Vec3::Z).dot(u);
        b.try_normalize()?
    };
    st.iter()
        .filter(|s| s.center.y > ball.y && s.center.y < below)
        .map(|s| ((s.center - ball).dot(back), s))
        .filter(|(d, s)| *d > s.radius)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, s)| s.center)
}

#[allow(clippy::too_many_arguments)]
fn leg_joints(
    m: &Mesh,
    st: &[Station],
    floor: f32,
    cx: f32,
    spine_y: f32,
    joint_z: f32,
    hind: bool,
    f: [f32; 6],
    notes: &mut Vec<String>,
) -> LegJoints {
    let top = st[st.len() - 1];
    let len = (top.center.y - floor).max(1e-6);
    let (fu, fl, fb) = if hind {
        (f[0], f[1], f[2])
    } else {
        (f[3], f[4], f[5])
    };
    let at = |fr: f32| track::at_height(st, floor + fr * len).center;
    let joint = Vec3::new(
        top.center.x * 0.95 + cx * 0.05,
        top.center.y + 0.55 * (spine_y - top.center.y).max(0.0),
        if hind {
            // The hip lies above its thigh: within half the top section's radius of its
            // centre along the body (a rump sloping up to the tail leaves the trunk's
            // fraction in front of the thigh).
            joint_z.clamp(
                top.center.z - 0.5 * top.radius,
                top.center.z + 0.5 * top.radius,
            )
        } else {
            joint_z
        },
    );
    let mut upper = at(fu);
    let mut low = at(fl);
    let ball = at(fb);
    if hind {
        if let Some(c) = hock_corner(st, top.center, ball, floor + 0.75 * len) {
            low = c;
        }
    }
    // The foot: vertices near the paw and close to the floor.
    let r = track::at_height(st, floor + fl * len).radius.max(1e-6);
    let foot: Vec<Vec3> = m
        .positions
        .iter()
        .copied()
        .filter(|p| {
            p.y < floor + 0.12 * len
                && Vec3::new(p.x - ball.x, 0.0, p.z - ball.z).length() < 4.0 * r
        })
        .collect();
    let (_, fhi) = bounds(&foot);
    let tip = if foot.is_empty() {
        ball + Vec3::Z * r
    } else {
        Vec3::new(ball.x, floor + 0.25 * (ball.y - floor), fhi.z - 0.1 * r)
    };
    // Contact: the foot's length within 3% of the leg length of the floor.
    let contact: Vec<Vec3> = foot
        .iter()
        .copied()
        .filter(|p| p.y < floor + 0.03 * len)
        .collect();
    let (clo, chi) = bounds(&contact);
    let plantigrade = hind && !contact.is_empty() && (chi.z - clo.z) > 3.5 * r;
    if plantigrade {
        low = Vec3::new(ball.x, floor + 0.06 * len, clo.z + 0.5 * r);
        notes.push(format!(
            "hind foot plantigrade: {:.3} on the floor against a leg {:.3} across at the hock",
            chi.z - clo.z,
            2.0 * r
        ));
    }
    // Pre-bends: the hind knee forward and the hock back; the front elbow back and the
    // wrist forward.
    let (d_up, d_low) = if hind {
        (Vec3::Z, -Vec3::Z)
    } else {
        (-Vec3::Z, Vec3::Z)
    };
    // A pre-bend moves a joint at most half its section's radius off the leg's centre
    // line: a leg modelled bent the other way (a fox's wrist behind its elbow-paw line)
    // keeps its bones inside.
    let r_up = PREBEND_REACH * track::at_height(st, upper.y).radius;
    let (u2, _) = prebend(joint, upper, low, d_up, MIN_BEND_DEG, r_up);
    upper = u2;
    let r_low = PREBEND_REACH * track::at_height(st, low.y).radius;
    let (l2, _) = prebend(upper, low, ball, d_low, MIN_BEND_DEG, r_low);
    low = l2;
    LegJoints {
        top: joint,
        upper,
        low,
        ball,
        tip,
        plantigrade,
    }
}

/// The body in the measuring frame and the measures every step reads.
struct Scene<'a> {
    m: &'a Mesh,
    slicer: &'a Slicer<'a>,
    frame: Frame,
    /// Height, floor and top.
    h: f32,
    floor: f32,
    top: f32,
    /// The centre plane's x.
    cx: f32,
    /// The body's length along Z.
    lb: f32,
}

/// The four legs tracked up from the floor: (section centre, stations), hind left and
/// right, front left and right; and the lower of the hind and front leg tops.
struct Tracked {
    hind: Vec<(Vec3, Vec<Station>)>,
    front: Vec<(Vec3, Vec<Station>)>,
    leg_top: f32,
}

/// The trunk along Z and the spine points from the sacrum to the chest.
struct Trunk {
    z_hip: f32,
    z_sh: f32,
    /// `z_sh - z_hip` (positive).
    len: f32,
    /// Sacrum, three points along the trunk, chest.
    spine: Vec<Vec3>,
}

fn top_of(st: &[Station]) -> Vec3 {
    st[st.len() - 1].center
}

/// The head end: the end beyond the legs (along Z) with the highest point. Returns
/// whether it is toward -Z and the highest points beyond the +Z and the -Z legs.
pub(crate) fn head_end(body: &Mesh, cls: &Classification) -> (bool, f32, f32) {
    let mut zs: Vec<f32> = cls.leg_centres.iter().map(|c| c.z).collect();
    zs.sort_by(f32::total_cmp);
    let (Some(&z_back), Some(&z_front)) = (zs.first(), zs.last()) else {
        return (false, 0.0, 0.0);
    };
    let top_beyond = |front: bool| {
        body.positions
            .iter()
            .filter(|p| if front { p.z > z_front } else { p.z < z_back })
            .fold(f32::NEG_INFINITY, |a, p| a.max(p.y))
    };
    let (tf, tb) = (top_beyond(true), top_beyond(false));
    (tb > tf, tf, tb)
}

/// Facing: the end beyond the legs with the highest point holds the head. Returns the
/// frame and the facing's confidence.
fn facing(body: &Mesh, cls: &Classification, lo: Vec3, hi: Vec3, lm: &mut Lm) -> (Frame, f32) {
    let h = hi.y - lo.y;
    let (cx, cz) = (0.5 * (lo.x + hi.x), 0.5 * (lo.z + hi.z));
    let (flip, tf, tb) = head_end(body, cls);
    let facing_conf = ((tf - tb).abs() / (0.1 * h)).clamp(0.2, 1.0);
    lm.notes.push(format!(
        "facing {}: the highest point beyond the front legs is {:.3} and beyond the back legs \
         {:.3} (the head is the higher end)",
        if flip { "-Z" } else { "+Z" },
        tf,
        tb
    ));
    (Frame { flip, cx, cz }, facing_conf)
}

/// Finds the quadruped landmarks of `body` (classified as a quadruped by `cls`).
/// Returns the landmarks (in the body's space) and the measuring frame.
pub(crate) fn find(
    body: &Mesh,
    cls: &Classification,
    kind: QuadrupedKind,
) -> Result<(Landmarks, Frame)> {
    let (lo, hi) = bounds(&body.positions);
    let mut lm = Lm {
        points: BTreeMap::new(),
        notes: Vec::new(),
    };
    let (frame, facing_conf) = facing(body, cls, lo, hi, &mut lm);
    let m = Mesh {
        positions: body.positions.iter().map(|p| frame.map(*p)).collect(),
        triangles: body.triangles.clone(),
        normals: None,
        uvs: None,
    };
    let slicer = Slicer::new(&m, Vec3::Y, 256);
    let sc = Scene {
        m: &m,
        slicer: &slicer,
        frame,
        h: hi.y - lo.y,
        floor: lo.y,
        top: hi.y,
        cx: frame.cx,
        lb: hi.z - lo.z,
    };
    let legs = sc.track_legs(cls)?;
    let trunk = sc.trunk(&legs, &mut lm);
    let plantigrade = sc.leg_landmarks(&legs, &trunk, kind, &mut lm);
    let snout = sc.head(&legs, &trunk, &mut lm)?;
    let tail_bones = sc.tail(&trunk, kind, &mut lm);
    let mut out = sc.finish(lm, &trunk, plantigrade);
    out.points.insert(
        "facing".into(),
        Landmark {
            position: frame.map(snout),
            method: "the head end: the higher end beyond the legs".into(),
            confidence: facing_conf,
        },
    );
    out.notes.push(format!("tail: {tail_bones} bones"));
    Ok((out, frame))
}

impl Scene<'_> {
    /// A loop that spans the centre plane.
    fn centred(&self, l: &Loop) -> bool {
        l.lo.x <= self.cx + 1e-4 * self.h && l.hi.x >= self.cx - 1e-4 * self.h
    }

    /// The four legs, tracked up and down from their sections and sorted.
    fn track_legs(&self, cls: &Classification) -> Result<Tracked> {
        let y0 = self.floor + cls.level * self.h;
        let mut legs: Vec<(Vec3, Vec<Station>)> = Vec::new();
        for c in &cls.leg_centres {
            let s = self.frame.map(*c);
            let st = track::leg(self.slicer, s, y0, self.floor, self.h, self.cx);
            if st.len() < 3 {
                return Err(Error::stage(
                    "fit",
                    format!(
                        "legs: the leg section at {} could not be followed up the leg",
                        fmt(*c)
                    ),
                ));
            }
            legs.push((s, st));
        }
        // Sort: hind left, hind right, front left, front right.
        legs.sort_by(|a, b| a.0.z.total_cmp(&b.0.z));
        let (mut hind, mut front) = (legs[..2].to_vec(), legs[2..].to_vec());
        hind.sort_by(|a, b| b.0.x.total_cmp(&a.0.x));
        front.sort_by(|a, b| b.0.x.total_cmp(&a.0.x));
        let leg_top = top_of(&hind[0].1).y.min(top_of(&front[0].1).y);
        Ok(Tracked {
            hind,
            front,
            leg_top,
        })
    }

    /// Hip and shoulder joints along the body: 18% of the trunk's length from the rump
    /// and 17% from the chest's front, the trunk read on a horizontal cut a little above
    /// where the legs join it (below the tail and the neck); the spine 62% of the way
    /// from the belly to the back on the centre plane.
    fn trunk(&self, legs: &Tracked, lm: &mut Lm) -> Trunk {
        let (cx, h, leg_top) = (self.cx, self.h, legs.leg_top);
        let (hind, front) = (&legs.hind, &legs.front);
        let spine_guess = leg_top + 0.3 * (self.top - leg_top);
        let (z_rear, z_chest) =
            trunk_extent(self.slicer, leg_top + 0.3 * (spine_guess - leg_top), cx).unwrap_or((
                0.5 * (top_of(&hind[0].1).z + top_of(&hind[1].1).z),
                0.5 * (top_of(&front[0].1).z + top_of(&front[1].1).z),
            ));
        let z_hip = z_rear + 0.18 * (z_chest - z_rear);
        let z_sh = z_chest - 0.17 * (z_chest - z_rear);
        let len = (z_sh - z_hip).max(1e-6);
        let spine_at = |z: f32| -> (Vec3, bool) {
            match belly_back(self.m, cx, z, leg_top - 0.05 * h) {
                Some((b, t)) => (Vec3::new(cx, b + 0.62 * (t - b), z), true),
                None => (Vec3::new(cx, leg_top + 0.1 * h, z), false),
            }
        };
        let spine_names = ["sacrum", "spine_1", "spine_2", "spine_3", "chest"];
        let spine_z = [
            z_hip - 0.15 * len,
            z_hip + 0.05 * len,
            z_hip + 0.38 * len,
            z_hip + 0.7 * len,
            z_sh,
        ];
        let mut spine = Vec::new();
        for (n, z) in spine_names.iter().zip(spine_z) {
            let (p, ok) = spine_at(z);
            lm.put(
                n,
                p,
                if ok {
                    "sections: 62% from belly to back on the centre plane"
                } else {
                    "estimate: above the leg tops (the cut missed the centre plane)"
                },
                if ok { 0.9 } else { 0.4 },
            );
            spine.push(p);
        }
        Trunk {
            z_hip,
            z_sh,
            len,
            spine,
        }
    }

    /// Legs: each side measured, the right mirrored onto the left and averaged; the
    /// pelvis wing and the scapula beside the spine. Returns whether both hind feet are
    /// plantigrade.
    fn leg_landmarks(&self, legs: &Tracked, t: &Trunk, kind: QuadrupedKind, lm: &mut Lm) -> bool {
        let cx = self.cx;
        let f = fractions(kind);
        let mir = |p: Vec3| Vec3::new(2.0 * cx - p.x, p.y, p.z);
        let mut plantigrade = false;
        for (pair, hind_leg, names) in [
            (&legs.hind, true, ["hip", "knee", "hock", "paw", "toe"]),
            (
                &legs.front,
                false,
                ["shoulder", "elbow", "wrist", "front_paw", "front_toe"],
            ),
        ] {
            let sy = if hind_leg { t.spine[1].y } else { t.spine[4].y };
            let jz = if hind_leg { t.z_hip } else { t.z_sh };
            let mut one = |st: &[Station]| {
                leg_joints(
                    self.m,
                    st,
                    self.floor,
                    cx,
                    sy,
                    jz,
                    hind_leg,
                    f,
                    &mut lm.notes,
                )
            };
            let l = one(&pair[0].1);
            let r = one(&pair[1].1);
            plantigrade |= l.plantigrade && r.plantigrade;
            let avg = |a: Vec3, b: Vec3| 0.5 * (a + mir(b));
            let pts = [
                avg(l.top, r.top),
                avg(l.upper, r.upper),
                avg(l.low, r.low),
                avg(l.ball, r.ball),
                avg(l.tip, r.tip),
            ];
            let methods = [
                "sections: above where the leg joins the trunk, 55% of the way to the spine; along the body 18% (17% front) of the trunk from its end",
                "sections: leg centre at its fraction of the leg, pre-bent",
                "sections: leg centre at its fraction of the leg, pre-bent",
                "sections: leg centre near the floor",
                "sections: the foot's front near the floor",
            ];
            for (k, n) in names.iter().enumerate() {
                let conf = if k == 1 || k == 2 { 0.7 } else { 0.85 };
                lm.put(&format!("{n}_l"), pts[k], methods[k], conf);
                lm.put(&format!("{n}_r"), mir(pts[k]), methods[k], conf);
            }
            // Where the scapula / pelvis wing starts: on the spine, toward the leg.
            let anchor = if hind_leg { t.spine[1] } else { t.spine[4] };
            let wing = Vec3::new(
                cx + 0.35 * (pts[0].x - cx),
                anchor.y,
                anchor.z + if hind_leg { 0.0 } else { -0.12 * t.len },
            );
            let n = if hind_leg { "pelvis_wing" } else { "scapula" };
            let how = "estimate: beside the spine above the joint";
            lm.put(&format!("{n}_l"), wing, how, 0.6);
            lm.put(&format!("{n}_r"), mir(wing), how, 0.6);
        }
        plantigrade
    }

    /// Neck and head: marched back from the snout tip (the front-most point above the
    /// legs) toward the chest; the jaw, the chin and the ears. Returns the snout.
    fn head(&self, legs: &Tracked, t: &Trunk, lm: &mut Lm) -> Result<Vec3> {
        let (m, cx, h, lb) = (self.m, self.cx, self.h, self.lb);
        let tip = m
            .positions
            .iter()
            .copied()
            .filter(|p| p.y > legs.leg_top)
            .max_by(|a, b| a.z.total_cmp(&b.z))
            .unwrap_or(t.spine[4]);
        let chest = t.spine[4];
        let track = track::march(m, tip, chest - tip, 0.015 * lb, 200, 2.2, &|l: &Loop| {
            self.centred(l) && l.center.z > chest.z
        });
        if track.len() < 4 {
            return Err(Error::stage(
                "fit",
                format!(
                    "head: no neck and head could be followed from the front-most point {} back to \
                     the chest {}",
                    fmt(self.frame.map(tip)),
                    fmt(self.frame.map(chest))
                ),
            ));
        }
        // The head pivot: the narrowest section behind the skull (the widest section of
        // the first 60% of the way back), before 90% of the way.
        let n = track.len();
        let skull = (0..((n as f32 * 0.6) as usize).max(1))
            .max_by(|&i, &j| track[i].perimeter.total_cmp(&track[j].perimeter))
            .unwrap_or(0);
        let b = ((n as f32 * 0.9) as usize).max(skull + 2).min(n);
        let pk = (skull + 1..b)
            .min_by(|&i, &j| track[i].perimeter.total_cmp(&track[j].perimeter))
            .unwrap_or(n / 2);
        let pivot = track[pk].center;
        let head_r = track[..pk.max(1)]
            .iter()
            .fold(0.0f32, |acc, s| acc.max(s.radius));
        lm.put(
            "head",
            pivot,
            "sections: narrowest cut behind the skull's widest, marched back from the snout",
            0.8,
        );
        let snout = Vec3::new(cx, track[0].center.y, tip.z);
        lm.put(
            "snout",
            snout,
            "sections: the front-most point above the legs",
            0.9,
        );
        // Neck points: chest to pivot along the track.
        let mut neck: Vec<Vec3> = track[pk..].iter().map(|s| s.center).collect();
        neck.reverse();
        neck.insert(0, chest);
        neck.push(pivot);
        let np = track::resample(&neck, 3);
        lm.put(
            "neck_1",
            np[1],
            "sections: neck centre line, a third up",
            0.8,
        );
        lm.put(
            "neck_2",
            np[2],
            "sections: neck centre line, two thirds up",
            0.8,
        );
        // Jaw: a hinge below and ahead of the pivot, to under the snout.
        let below = |k: usize| {
            let s = track[k.min(n - 1)];
            s.center - Vec3::Y * 0.45 * s.radius
        };
        lm.put(
            "jaw",
            below((0.6 * pk as f32) as usize),
            "estimate: in the lower half of the head's section, 40% of the way from the pivot to the snout",
            0.4,
        );
        lm.put(
            "chin",
            below((0.15 * pk as f32) as usize),
            "estimate: in the lower half of the snout's section near its tip",
            0.4,
        );
        // Ears: separate loops each side of the centre above the head, followed down
        // from the top until they join the skull.
        let head_lo_z = pivot.z - head_r;
        ears(m, self.slicer, pivot, head_lo_z, tip.z, cx, h, lm);
        Ok(snout)
    }

    /// Tail: marched back from the sacrum; the rump's loops give way to the tail's.
    /// Returns the number of tail bones (0 without a tail).
    fn tail(&self, t: &Trunk, kind: QuadrupedKind, lm: &mut Lm) -> usize {
        let lb = self.lb;
        let sacrum = t.spine[0];
        let tail = track::march_from(
            self.m,
            sacrum,
            -Vec3::Z,
            0.015 * lb,
            0.3 * self.h,
            300,
            2.0,
            &|l: &Loop| self.centred(l),
        );
        let rump_end = tail
            .iter()
            .position(|s| s.perimeter < 0.5 * tail[0].perimeter)
            .unwrap_or(tail.len());
        let mut tail_pts: Vec<Vec3> = vec![sacrum];
        tail_pts.extend(tail[rump_end.min(tail.len())..].iter().map(|s| s.center));
        let tail_len = track::length(&tail_pts[1.min(tail_pts.len())..]);
        if !(tail.len() > rump_end + 2 && tail_len > 0.05 * lb) {
            lm.notes
                .push("no tail: the sections behind the rump end within 5% of the length".into());
            return 0;
        }
        // Extend to the tip: the last station plus half a step along the last direction.
        let k = tail_pts.len();
        let d = (tail_pts[k - 1] - tail_pts[k - 2]).normalize_or_zero();
        let end = tail_pts[k - 1] + d * 0.5 * 0.015 * lb;
        tail_pts.push(end);
        let (lo_n, hi_n) = match kind {
            QuadrupedKind::Wolf | QuadrupedKind::Cat => (4, 8),
            QuadrupedKind::Quadruped | QuadrupedKind::Horse => (3, 6),
        };
        let tail_bones =
            ((track::length(&tail_pts) / (0.07 * lb)).round() as usize).clamp(lo_n, hi_n);
        let tp = track::resample(&tail_pts, tail_bones);
        for (k, p) in tp.iter().enumerate() {
            lm.put(
                &format!("tail_{k:02}"),
                *p,
                if k == 0 {
                    "sections: the sacrum"
                } else {
                    "sections: tail centre line, marched back from the rump"
                },
                0.85,
            );
        }
        tail_bones
    }

    /// The root on the floor under the trunk's middle; everything back into the body's
    /// space.
    fn finish(&self, mut lm: Lm, t: &Trunk, plantigrade: bool) -> Landmarks {
        let root = Vec3::new(self.cx, self.floor, 0.5 * (t.z_hip + t.z_sh));
        lm.put("root", root, "floor below the trunk's middle", 1.0);
        lm.put(
            "root_front",
            root + Vec3::Z * 0.1 * t.len,
            "forward of the root",
            1.0,
        );
        let frame = self.frame;
        let points: BTreeMap<String, Landmark> = lm
            .points
            .into_iter()
            .map(|(k, mut l)| {
                l.position = frame.map(l.position);
                (k, l)
            })
            .collect();
        let facing = if frame.flip { "-Z" } else { "+Z" };
        let mut axes = BTreeMap::new();
        axes.insert(
            "forward".to_string(),
            if frame.flip { -Vec3::Z } else { Vec3::Z },
        );
        Landmarks {
            height: self.h,
            floor: self.floor,
            center_x: self.cx,
            pose: format!(
                "quadruped, facing {facing}{}",
                if plantigrade {
                    ", plantigrade hind feet"
                } else {
                    ", digitigrade hind feet"
                }
            ),
            arm_angle_deg: 0.0,
            points,
            axes,
            notes: lm.notes,
            asymmetry: 0.0,
        }
    }
}

/// Ears: at the top of the head, a loop each side of the centre plane, followed down
/// by horizontal cuts until it joins the skull (spans the centre or grows past 2x).
#[allow(clippy::too_many_arguments)]
fn ears(
    m: &Mesh,
    slicer: &Slicer<'_>,
    pivot: Vec3,
    z_lo: f32,
    z_hi: f32,
    cx: f32,
    h: f32,
    lm: &mut Lm,
) {
    let in_head = |l: &Loop| l.center.z > z_lo && l.center.z < z_hi;
    let top = m
        .positions
        .iter()
        .filter(|p| p.z > z_lo && p.z < z_hi && p.x > cx)
        .fold(f32::NEG_INFINITY, |a, p| a.max(p.y));
    if !top.is_finite() || top < pivot.y {
        return;
    }
    let step = 0.005 * h;
    let mut y = top - step;
    let mut last: Option<Loop> = None;
    let mut tip: Option<Vec3> = None;
    while y > pivot.y {
        let loops: Vec<Loop> = slicer
            .cut(Vec3::new(0.0, y, 0.0))
            .into_iter()
            .filter(|l| in_head(l))
            .collect();
        let left = loops.iter().find(|l| l.lo.x > cx).cloned();
        match (&last, left) {
            (None, Some(l)) => {
                tip = Some(l.center);
                last = Some(l);
            }
            (Some(p), Some(l)) if l.perimeter < 2.0 * p.perimeter => last = Some(l),
            (None, None) if tip.is_none() && loops.iter().any(|l| l.lo.x < cx) => return,
            (None, None) => {}
            _ => break,
        }
        y -= step;
    }
    let (Some(t), Some(b)) = (tip, last) else {
        return;
    };
    if t.y - b.center.y < 0.04 * h {
        return;
    }
    let mir = |p: Vec3| Vec3::new(2.0 * cx - p.x, p.y, p.z);
    let tip_p = Vec3::new(t.x, top, t.z);
    for (n, p, how) in [
        (
            "ear_base",
            b.center,
            "sections: where the ear's loop joins the skull",
        ),
        ("ear_tip", tip_p, "sections: the ear's highest point"),
    ] {
        lm.put(&format!("{n}_l"), p, how, 0.8);
        lm.put(&format!("{n}_r"), mir(p), how, 0.8);
    }
    lm.put(
        "ear_mid_l",
        0.5 * (b.center + tip_p),
        "sections: half way up the ear",
        0.7,
    );
    lm.put(
        "ear_mid_r",
        mir(0.5 * (b.center + tip_p)),
        "sections: half way up the ear",
        0.7,
    );
}

fn fmt(p: Vec3) -> String {
    format!("({:.3}, {:.3}, {:.3})", p.x, p.y, p.z)
}
