//! Joint volume: does a joint keep its flesh when it bends or twists?
//!
//! A [`JointPolyline`] is a polyline `a -> c -> e` along the limb: `a` on the proximal
//! segment, `c` the joint centre, `e` on the distal segment, each point carried by a
//! bone. Its flesh is every body vertex within 1.8 local radii of the polyline and
//! within half a segment of the centre each way (seed P5), and that the joint carries:
//! its heaviest bone is the proximal bone or one of its twist bones, or the centre
//! bone or a bone under it ([`carried`]; a chest vertex beside an A-pose upper arm lies
//! within reach of the arm's axis but the spine carries it). The flesh is cut into
//! [`BANDS`] bands along the limb; in each, the volume ratio is
//!
//! ```text
//! mean(d_posed^2) / mean(d_rest^2)
//! ```
//!
//! with `d` the distance to the (posed or rest) polyline. 1.0 keeps volume; linear
//! skinning collapses a bent elbow to about 0.7 and a twisted wrist far lower (the
//! candy wrapper); a bulge shows as a ratio above 1. The report keeps the worst (lowest)
//! and the best (highest) band.

use glam::{Mat4, Vec3};

use crate::humanoid::{Role, Roles};
use crate::model::naming::Side;
use crate::model::Skeleton;

/// Number of bands along the limb.
pub const BANDS: usize = 6;
/// Flesh radius, in local limb radii.
pub const FLESH_RADII: f32 = 1.8;
/// Fewest vertices a band needs to be measured.
pub const MIN_BAND_VERTICES: usize = 6;

/// A joint: three points along the limb, each `(bone, rest position)`.
#[derive(Debug, Clone, PartialEq)]
pub struct JointPolyline {
    /// `shoulder.L`, `elbow.R`, `wrist.L`, `hip.R`, `knee.L`.
    pub name: String,
    /// Proximal point, centre, distal point.
    pub points: [(usize, Vec3); 3],
}

impl JointPolyline {
    /// Positions of the three points under skinning matrices `m` (rest when `m` is empty).
    pub fn posed(&self, m: &[Mat4]) -> [Vec3; 3] {
        self.points
            .map(|(b, p)| m.get(b).map_or(p, |m| m.transform_point3(p)))
    }
}

/// The limb joints a rig allows: shoulder, elbow, wrist, hip, knee on each side.
pub fn joints(s: &Skeleton, rig: &Roles) -> Vec<JointPolyline> {
    let mut out = Vec::new();
    for side in [Side::Left, Side::Right] {
        let l = side.letter();
        let g = |r: Role| rig.get(r);
        let head = |i: usize| s.bones[i].head;
        let tail = |i: usize| s.bones[i].tail;
        if let Some(ua) = g(Role::UpperArm(side)) {
            let a = match g(Role::Clavicle(side)).or(s.bones[ua].parent) {
                Some(c) => (c, head(c)),
                None => (ua, head(ua) - (tail(ua) - head(ua))),
            };
            let e = g(Role::Forearm(side)).map_or(tail(ua), head);
            out.push(JointPolyline {
                name: format!("shoulder.{l}"),
                points: [a, (ua, head(ua)), (ua, e)],
            });
            if let Some(fa) = g(Role::Forearm(side)) {
                let e = g(Role::Hand(side)).map_or(tail(fa), head);
                out.push(JointPolyline {
                    name: format!("elbow.{l}"),
                    points: [(ua, head(ua)), (fa, head(fa)), (fa, e)],
                });
                if let Some(h) = g(Role::Hand(side)) {
                    out.push(JointPolyline {
                        name: format!("wrist.{l}"),
                        points: [(fa, head(fa)), (h, head(h)), (h, tail(h))],
                    });
                }
            }
        }
        if let Some(th) = g(Role::Thigh(side)) {
            let len = (tail(th) - head(th)).length();
            let carrier = g(Role::Pelvis).or(s.bones[th].parent).unwrap_or(th);
            let e = g(Role::Calf(side)).map_or(tail(th), head);
            out.push(JointPolyline {
                name: format!("hip.{l}"),
                points: [
                    (carrier, head(th) + Vec3::Y * 0.5 * len),
                    (th, head(th)),
                    (th, e),
                ],
            });
            if let Some(ca) = g(Role::Calf(side)) {
                let e = g(Role::Foot(side)).map_or(tail(ca), head);
                out.push(JointPolyline {
                    name: format!("knee.{l}"),
                    points: [(th, head(th)), (ca, head(ca)), (ca, e)],
                });
            }
        }
    }
    out
}

/// Closest point parameter on the polyline: `(distance, signed coordinate)` where the
/// coordinate is negative (metres before the centre) on the proximal segment and
/// positive on the distal one.
pub fn polyline(p: Vec3, [a, c, e]: [Vec3; 3]) -> (f32, f32) {
    let seg = |x: Vec3, y: Vec3| {
        let d = y - x;
        let l2 = d.length_squared().max(1e-20);
        let t = ((p - x).dot(d) / l2).clamp(0.0, 1.0);
        ((p - (x + d * t)).length(), t, l2.sqrt())
    };
    let (d1, t1, l1) = seg(a, c);
    let (d2, t2, l2) = seg(c, e);
    if d1 < d2 {
        (d1, -(1.0 - t1) * l1)
    } else {
        (d2, t2 * l2)
    }
}

/// The flesh of a joint on one mesh: vertex indices and their band (0..BANDS).
#[derive(Debug, Clone, PartialEq)]
pub struct Flesh {
    /// The joint.
    pub joint: JointPolyline,
    /// `(vertex, band)` pairs.
    pub vertices: Vec<(u32, u8)>,
    /// Local limb radius at the joint, metres.
    pub radius: f32,
}

/// Selects the flesh of `j` among `rest` positions (see the module docs). `None` when
/// the joint has degenerate segments or no flesh.
pub fn flesh(j: &JointPolyline, rest: &[Vec3]) -> Option<Flesh> {
    flesh_along(j, rest, 0.5)
}

/// [`flesh`] reaching `along` of each segment from the centre (0.5: half a segment
/// each way, the flesh the bands measure), its bands spread over that reach.
pub fn flesh_along(j: &JointPolyline, rest: &[Vec3], along: f32) -> Option<Flesh> {
    let [a, c, e] = j.posed(&[]);
    let lp = (c - a).length();
    let ld = (e - c).length();
    if lp < 1e-9 || ld < 1e-9 {
        return None;
    }
    let dir = (e - c) / ld;
    // Local radius: median distance to the distal axis of vertices near the joint's
    // cross-section plane.
    let mut near: Vec<f32> = rest
        .iter()
        .filter_map(|p| {
            let v = *p - c;
            let ax = v.dot(dir);
            if ax.abs() > 0.1 * ld {
                return None;
            }
            let r = (v - dir * ax).length();
            (r < 0.5 * ld.max(lp)).then_some(r)
        })
        .collect();
    if near.len() < 3 {
        return None;
    }
    near.sort_unstable_by(f32::total_cmp);
    let radius = near[near.len() / 2];
    let lo = -along * lp;
    let hi = along * ld;
    let vertices: Vec<(u32, u8)> = rest
        .iter()
        .enumerate()
        .filter_map(|(i, p)| {
            let (d, s) = polyline(*p, [a, c, e]);
            if d > FLESH_RADII * radius || s < lo || s > hi {
                return None;
            }
            Some((i as u32, band_of(s, lo, hi)))
        })
        .collect();
    if vertices.is_empty() {
        return None;
    }
    Some(Flesh {
        joint: j.clone(),
        vertices,
        radius,
    })
}

/// Whether bone `b` carries the flesh of `j` (see the module docs).
fn carries(s: &Skeleton, j: &JointPolyline, b: usize) -> bool {
    let (prox, centre) = (j.points[0].0, j.points[1].0);
    b == prox
        || s.is_ancestor(centre, b)
        || s.bones
            .get(b)
            .is_some_and(|x| x.parent == Some(prox) && crate::humanoid::is_twist_name(&x.name))
}

/// `f` without the vertices its joint does not carry: those whose heaviest bone in
/// `w` is not the proximal bone, one of its twist bones, the centre bone or a bone
/// under it (an unweighted vertex stays). `None` when nothing is left.
pub fn carried(f: Flesh, s: &Skeleton, w: &crate::model::Weights) -> Option<Flesh> {
    let vertices: Vec<(u32, u8)> = f
        .vertices
        .iter()
        .copied()
        .filter(|&(v, _)| {
            w.vertices
                .get(v as usize)
                .and_then(|l| l.iter().max_by(|a, b| a.weight.total_cmp(&b.weight)))
                .map_or(true, |i| carries(s, &f.joint, i.bone as usize))
        })
        .collect();
    (!vertices.is_empty()).then_some(Flesh { vertices, ..f })
}

/// How far (in bands) a coordinate may lie below a band's start and still count in it.
/// Every vertex whose nearest point on the polyline is the joint centre itself (the
/// outside of the bend) has the coordinate 0, and 0 is a band boundary when the
/// segments' halves divide evenly (the hip: a quarter and a half of the thigh's
/// length); without the slack, rounding in the joint's points (a skeleton read back
/// from a file) moved that whole group between two bands.
pub const BAND_SLACK: f32 = 1e-4;

/// The band (0..BANDS) of signed coordinate `s` between `lo` and `hi`.
fn band_of(s: f32, lo: f32, hi: f32) -> u8 {
    let x = (s - lo) / (hi - lo) * BANDS as f32 + BAND_SLACK;
    (x.floor().max(0.0) as usize).min(BANDS - 1) as u8
}

/// Worst and best band ratios of a joint in a pose.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Band {
    /// Lowest band ratio (volume loss).
    pub worst: f32,
    /// Highest band ratio (bulge).
    pub best: f32,
    /// Bands measured (with enough vertices).
    pub bands: usize,
}

/// Band ratios of `f` with `posed` positions (same indexing as the rest positions
/// `rest`) and skinning matrices `m`. `None` when no band has enough vertices.
pub(crate) fn band_ratio(f: &Flesh, rest: &[Vec3], posed: &[Vec3], m: &[Mat4]) -> Option<Band> {
    let r_pts = f.joint.posed(&[]);
    let p_pts = f.joint.posed(m);
    let mut num = [0.0f64; BANDS];
    let mut den = [0.0f64; BANDS];
    let mut cnt = [0usize; BANDS];
    for &(v, b) in &f.vertices {
        let (Some(r), Some(p)) = (rest.get(v as usize), posed.get(v as usize)) else {
            continue;
        };
        let dr = polyline(*r, r_pts).0 as f64;
        let dp = polyline(*p, p_pts).0 as f64;
        num[b as usize] += dp * dp;
        den[b as usize] += dr * dr;
        cnt[b as usize] += 1;
    }
    let ratios: Vec<f32> = (0..BANDS)
        .filter(|&b| cnt[b] >= MIN_BAND_VERTICES && den[b] > 0.0)
        .map(|b| (num[b] / den[b]) as f32)
        .collect();
    if ratios.is_empty() {
        return None;
    }
    Some(Band {
        worst: ratios.iter().copied().fold(f32::INFINITY, f32::min),
        best: ratios.iter().copied().fold(f32::NEG_INFINITY, f32::max),
        bands: ratios.len(),
    })
}
