//! The bend a limb is MODELLED with, measured from the mesh's volume alone.
//!
//! The rubric's 1 to 15 deg pre-bend is meant for a limb modelled straight. A limb
//! modelled bent (MakeHuman's A pose has its elbows bent about 40 deg) needs bones
//! that follow the bend, or their middles leave the volume. This file measures the
//! modelled bend so that the placement check can tell the two apart.
//!
//! Given the limb's root `a` (shoulder or hip) and end `e` (wrist or ankle), the mesh
//! is cut by planes normal to `e - a` at fractions 0.22 to 0.42 of the way (the upper
//! segment: upper arm or thigh) and 0.60 to 0.84 (the lower segment: forearm or
//! shin). The centre of the loop nearest each plane's point on the line is a point of
//! the segment's axis (an oblique cut of a tube is centred on its axis). A line is
//! fitted through each segment's centres; the modelled bend is the angle between the
//! two lines, measured in the plane of the limb's line and the expected bend direction
//! `dir` (front for a knee, back for an elbow), positive when the joint lies toward
//! `dir`. Only `a` and `e` locate the limb: the middle joint of the skeleton under
//! judgement plays no part.
//!
//! The cuts are made on the triangles near the limb only (a box around `a`-`e`
//! widened by 12% of the body height `H`), so a measure costs well under a millisecond
//! on a 13k-vertex body.

use glam::{Mat3, Vec3};

use super::landmarks::principal_axis;
use super::sections::cross_sections;
use crate::model::Mesh;

/// Fractions of the root-to-end line at which the upper segment is cut.
const UPPER: [f32; 5] = [0.22, 0.27, 0.32, 0.37, 0.42];
/// Fractions of the root-to-end line at which the lower segment is cut.
const LOWER: [f32; 5] = [0.60, 0.66, 0.72, 0.78, 0.84];

/// The modelled bend of the limb from `a` (root joint) to `e` (end joint), degrees,
/// positive when the limb bends toward `dir` (its joint lies on the `dir` side of the
/// line a-e), negative the other way; `None` when fewer than three sections of either
/// segment are found. `h` is the body height (metres), `m` the body mesh.
pub fn modelled_bend(m: &Mesh, a: Vec3, e: Vec3, dir: Vec3, h: f32) -> Option<f32> {
    let l = e - a;
    let len = l.length();
    if !(len > 0.0) || !(h > 0.0) {
        return None;
    }
    let u = l / len;
    let fwd = (dir - u * dir.dot(u)).try_normalize()?;
    let near = limb_mesh(m, a, e, 0.12 * h);
    // Centres of cuts at fractions `ts` of a-e, with planes normal to `n`.
    let centres = |ts: &[f32], n: Vec3| -> Vec<Vec3> {
        ts.iter()
            .filter_map(|&t| {
                let p = a + l * t;
                cross_sections(&[&near], p, n)
                    .into_iter()
                    .filter(|c| c.perimeter > 0.01 * h && (c.center - p).length() < 0.1 * h)
                    .min_by(|x, y| (x.center - p).length().total_cmp(&(y.center - p).length()))
                    .map(|c| c.center)
            })
            .collect()
    };
    let (mut d1, mut d2) = (u, u);
    // First cuts normal to the limb line, then once more normal to each segment's
    // own axis (an oblique cut of a tapered limb is centred slightly off its axis).
    for _ in 0..2 {
        let (up, lo) = (centres(&UPPER, d1), centres(&LOWER, d2));
        if up.len() < 3 || lo.len() < 3 {
            return None;
        }
        d1 = line_direction(&up, u)?;
        d2 = line_direction(&lo, u)?;
    }
    // Both directions in the plane of the limb line and the bend direction.
    let plane = |d: Vec3| Vec3::new(d.dot(u), d.dot(fwd), 0.0);
    let (p1, p2) = (plane(d1), plane(d2));
    // Angle from p1 to p2: the lower segment turning away from `dir` puts the joint
    // toward `dir`.
    let ang = p1.y.atan2(p1.x) - p2.y.atan2(p2.x);
    Some(ang.to_degrees())
}

/// Direction of the best line through `pts`, oriented along `along`.
fn line_direction(pts: &[Vec3], along: Vec3) -> Option<Vec3> {
    let mean = pts.iter().copied().sum::<Vec3>() / pts.len() as f32;
    let mut cov = Mat3::ZERO;
    for p in pts {
        let d = *p - mean;
        cov += Mat3::from_cols(d * d.x, d * d.y, d * d.z);
    }
    let d = principal_axis(cov);
    let d = if d.dot(along) < 0.0 { -d } else { d };
    d.try_normalize()
}

/// The triangles of `m` with a corner in the box around the segment a-e widened by
/// `pad` (same vertices, fewer triangles).
fn limb_mesh(m: &Mesh, a: Vec3, e: Vec3, pad: f32) -> Mesh {
    let (lo, hi) = (a.min(e) - Vec3::splat(pad), a.max(e) + Vec3::splat(pad));
    let inb = |i: u32| {
        m.positions
            .get(i as usize)
            .is_some_and(|p| p.cmpge(lo).all() && p.cmple(hi).all())
    };
    Mesh {
        positions: m.positions.clone(),
        triangles: m
            .triangles
            .iter()
            .copied()
            .filter(|t| t.iter().any(|&i| inb(i)))
            .collect(),
        normals: None,
        uvs: None,
    }
}

/// The bend angle at `b` of the chain a-b-c, degrees (0 = straight).
pub fn bend_angle(a: Vec3, b: Vec3, c: Vec3) -> f32 {
    let u = (b - a).normalize_or_zero();
    let v = (c - b).normalize_or_zero();
    // atan2 of sine and cosine: the acos of a dot product near 1 turns one rounding
    // step into 0.02 deg, so a straight limb read back from a file would bend.
    u.cross(v).length().atan2(u.dot(v)).to_degrees()
}
