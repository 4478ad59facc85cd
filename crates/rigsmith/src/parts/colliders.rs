//! Colliders measured from the body: the small set of shapes the spring solver keeps
//! hair and cloth out of.
//!
//! The convention (Hoyoverse-class rigs, VRM's spring bones): capsules on the thighs
//! and shins, a big horizontal capsule at the waist acting as a lid, and a sphere on the
//! head plus capsules on the neck and across the chest for hair. A technical artist
//! usually authors them by hand; here they are MEASURED from the body's own geometry,
//! and hand-authored colliders in the sidecar override them by name
//! ([`super::Sidecar::merge_colliders`]).
//!
//! How each is measured (all in units of the body height H, so scale does not matter):
//! * **Body geometry**: every part that is not hair, eyes, line-work, a loose garment
//!   (a skirt-like tube) or driven by spring-chain bones. Cloth that hugs the body
//!   (tights) counts; a skirt never does, so it can never fatten a thigh.
//! * **Limb capsules**: each body vertex goes to its nearest bone segment; the capsule
//!   runs along the bone (head to tail) with the radius at the 85th percentile of its
//!   vertices' distances to the bone, over the middle 80 % of its length. Legs taper,
//!   so each thigh and shin gets two capsules, one per half bone (`thigh.L` and
//!   `thigh.L.lower`), each measured over the middle 80 % of its half.
//! * **Waist and chest lids**: a horizontal capsule across the body at the height of
//!   the hip joints (chest: the chest bone's middle), radius the half-depth (90th percentile of |z| over the front and back) of
//!   the body in a band 0.03 H high, ends inset by the radius from the body's sides.
//! * **Head**: a sphere at the centroid of the vertices above the neck, radius their
//!   75th-percentile distance.
//!
//! Shapes are stored in the rest frame of the bone they ride (`offset`, `tail`: metres
//! in that bone's frame, as [`crate::model::Bone::rest_matrix`] defines it).

use glam::{Mat4, Vec3};
use serde::{Deserialize, Serialize};

use super::chains::bone_class;
use super::surfaces::{class_from_name, is_loose_garment, SurfaceClass};
use crate::geom::segment::{closest_between_segments, closest_on_segment};
use crate::humanoid::Roles;
use crate::model::{Character, Skeleton};

/// A collider's shape, in the rest frame of the bone it rides (metres).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ColliderShape {
    /// A sphere at `offset`.
    Sphere {
        /// Centre, bone frame.
        offset: [f32; 3],
        /// Radius, metres.
        radius: f32,
    },
    /// A capsule from `offset` to `tail`.
    Capsule {
        /// One end, bone frame.
        offset: [f32; 3],
        /// The other end, bone frame.
        tail: [f32; 3],
        /// Radius, metres.
        radius: f32,
    },
    /// A plane through `offset`; joints are kept on the side `normal` points to.
    Plane {
        /// A point on the plane, bone frame.
        offset: [f32; 3],
        /// Unit normal, bone frame.
        normal: [f32; 3],
    },
}

/// One collider.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Collider {
    /// Unique name (`thigh.L`, `shin.R`, `waist`, `head`, `neck`, `chest`, or the author's).
    pub name: String,
    /// The bone it rides.
    pub bone: String,
    /// Its shape in that bone's rest frame.
    pub shape: ColliderShape,
    /// The group springs refer to: `legs`, `waist`, `head`, `chest` (or the author's).
    pub group: String,
    /// An inside collider (extended-collider draft): joints are kept INSIDE the shape.
    #[serde(default)]
    pub inside: bool,
    /// `true` when measured by rigsmith, `false` when authored by hand (authored wins).
    #[serde(default = "yes")]
    pub measured: bool,
}

fn yes() -> bool {
    true
}

/// A shape in world space at a bone transform.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum WorldShape {
    Sphere(Vec3, f32),
    Capsule(Vec3, Vec3, f32),
    Plane(Vec3, Vec3),
}

impl Collider {
    /// The shape placed in world space by `m` (the bone's posed world transform, i.e.
    /// posed skinning matrix times rest matrix).
    pub(crate) fn world(&self, m: &Mat4) -> WorldShape {
        let p = |a: [f32; 3]| m.transform_point3(Vec3::from_array(a));
        match self.shape {
            ColliderShape::Sphere { offset, radius } => WorldShape::Sphere(p(offset), radius),
            ColliderShape::Capsule {
                offset,
                tail,
                radius,
            } => WorldShape::Capsule(p(offset), p(tail), radius),
            ColliderShape::Plane { offset, normal } => WorldShape::Plane(
                p(offset),
                m.transform_vector3(Vec3::from_array(normal))
                    .normalize_or_zero(),
            ),
        }
    }
}

impl WorldShape {
    /// Signed distance of `q` from the shape's surface (negative inside).
    pub(crate) fn signed_distance(&self, q: Vec3) -> f32 {
        match *self {
            WorldShape::Sphere(c, r) => (q - c).length() - r,
            WorldShape::Capsule(a, b, r) => (q - closest_on_segment(q, a, b)).length() - r,
            WorldShape::Plane(o, n) => (q - o).dot(n),
        }
    }

    /// The deepest point of the segment `p`-`q` in the shape: `(s, d)` with `s` its
    /// parameter along the segment (0 at `p`) and `d` its signed distance from the
    /// surface (negative inside).
    pub(crate) fn segment_depth(&self, p: Vec3, q: Vec3) -> (f32, f32) {
        let at = |s: f32| (s, self.signed_distance(p + (q - p) * s));
        match *self {
            WorldShape::Sphere(c, _) => {
                let pq = q - p;
                let l2 = pq.length_squared();
                let s = if l2 > 0.0 {
                    ((c - p).dot(pq) / l2).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                at(s)
            }
            WorldShape::Capsule(a, b, _) => at(closest_between_segments(p, q, a, b).0),
            WorldShape::Plane(..) => {
                let (x, y) = (at(0.0), at(1.0));
                if x.1 <= y.1 {
                    x
                } else {
                    y
                }
            }
        }
    }

    /// The surface point nearest `q` and the outward normal there.
    pub(crate) fn surface(&self, q: Vec3) -> (Vec3, Vec3) {
        match *self {
            WorldShape::Sphere(c, r) => {
                let n = (q - c).try_normalize().unwrap_or(Vec3::Y);
                (c + n * r, n)
            }
            WorldShape::Capsule(a, b, r) => {
                let c = closest_on_segment(q, a, b);
                let axis = (b - a).try_normalize().unwrap_or(Vec3::Y);
                let n = (q - c)
                    .try_normalize()
                    .unwrap_or_else(|| axis.any_orthonormal_vector());
                (c + n * r, n)
            }
            WorldShape::Plane(o, n) => (q - n * (q - o).dot(n), n),
        }
    }
}

/// The vertices colliders are measured from (see the module docs), in part order.
/// The cell, in H, within which the head's skin points count once when its sphere is
/// fitted: a skin finer in one place (around the eyes, the face) does not pull the
/// sphere toward it.
pub(crate) const HEAD_CELL_H: f32 = 0.008;

/// `pts` with the points of each cube of side `cell` replaced by their mean, in the
/// order of the cells (deterministic).
pub(crate) fn one_per_cell(pts: &[Vec3], cell: f32) -> Vec<Vec3> {
    if !(cell > 0.0) {
        return pts.to_vec();
    }
    let mut cells: std::collections::BTreeMap<[i32; 3], (Vec3, u32)> = Default::default();
    for p in pts {
        let k = (*p / cell).floor();
        let e = cells
            .entry([k.x as i32, k.y as i32, k.z as i32])
            .or_insert((Vec3::ZERO, 0));
        e.0 += *p;
        e.1 += 1;
    }
    cells.values().map(|(s, n)| *s / *n as f32).collect()
}

pub(crate) fn body_points(c: &Character) -> Vec<Vec3> {
    let skel = c.skeleton.as_ref();
    let mut out = Vec::new();
    for p in &c.parts {
        let class = p
            .material
            .as_deref()
            .and_then(class_from_name)
            .or_else(|| class_from_name(&p.name));
        if matches!(
            class,
            Some(SurfaceClass::Hair | SurfaceClass::Eye | SurfaceClass::LineWork)
        ) {
            continue;
        }
        if is_loose_garment(c, p) {
            continue;
        }
        if let (Some(w), Some(s)) = (&p.weights, skel) {
            let chain_share: f32 = w
                .vertices
                .iter()
                .flatten()
                .filter(|i| {
                    s.bones.get(i.bone as usize).is_some_and(|b| {
                        bone_class(&b.name).is_some_and(super::chains::is_spring_class)
                    })
                })
                .map(|i| i.weight)
                .sum();
            if chain_share > 0.05 * w.vertices.len().max(1) as f32 {
                continue;
            }
        }
        out.extend_from_slice(&p.mesh.positions);
    }
    out
}

fn percentile(mut v: Vec<f32>, q: f32) -> Option<f32> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(f32::total_cmp);
    let i = ((v.len() - 1) as f32 * q).round() as usize;
    Some(v[i.min(v.len() - 1)])
}

/// Measures the colliders of a rigged character (empty without a skeleton or body).
pub fn measure_colliders(c: &Character) -> Vec<Collider> {
    let Some(skel) = &c.skeleton else {
        return Vec::new();
    };
    let roles = Roles::of(skel, c.vrm.as_ref().map(|v| &v.humanoid));
    let pts = body_points(c);
    let h = c.height();
    if pts.is_empty() || h <= 0.0 {
        return Vec::new();
    }
    let owned = Owned::measure(skel, &pts, h);
    let mut out = Vec::new();
    for (k, s) in ["L", "R"].iter().enumerate() {
        owned.leg(
            roles.upper_leg[k],
            roles.lower_leg[k],
            format!("thigh.{s}"),
            &mut out,
        );
        owned.leg(
            roles.lower_leg[k],
            roles.foot[k],
            format!("shin.{s}"),
            &mut out,
        );
    }
    // Waist lid at the hip joints' height, riding the hips.
    let hip_y = match (roles.upper_leg[0], roles.upper_leg[1]) {
        (Some(l), Some(r)) => Some(0.5 * (skel.bones[l].head.y + skel.bones[r].head.y)),
        _ => roles.hips.map(|i| skel.bones[i].head.y),
    };
    if let (Some(y), Some(hips)) = (hip_y, roles.hips) {
        if let Some(col) = lid(&pts, y, h, skel, hips, "waist") {
            out.push(col);
        }
    }
    if let Some(ch) = roles.chest {
        let b = &skel.bones[ch];
        if let Some(col) = lid(&pts, b.middle().y, h, skel, ch, "chest") {
            out.push(col);
        }
    }
    if let Some(n) = roles.neck {
        let b = &skel.bones[n];
        if let Some(col) = owned.capsule(
            &owned.owned[n],
            n,
            (b.head, b.tail),
            (0.0, 1.0),
            "neck".into(),
            "head",
        ) {
            out.push(col);
        }
    }
    if let Some(col) = roles.head.and_then(|hd| head_sphere(&pts, skel, hd)) {
        out.push(col);
    }
    out
}

/// Capsules along whole bones, measured as the leg colliders are (the 85th percentile
/// of the distances of the body points each bone owns): `(bone, name, group)` each;
/// a bone with too few points near it gets none. The body points are every weighted
/// vertex whose largest weight is on a bone not in `swinging` (per bone: the chains
/// that will swing against the capsules are not the body).
pub(crate) fn bone_capsules(
    c: &Character,
    wanted: &[(usize, String, &str)],
    swinging: &[bool],
) -> Vec<Collider> {
    let Some(skel) = &c.skeleton else {
        return Vec::new();
    };
    let mut pts = Vec::new();
    for p in &c.parts {
        let Some(w) = &p.weights else { continue };
        for (v, list) in p.mesh.positions.iter().zip(&w.vertices) {
            let top = list.iter().max_by(|a, b| a.weight.total_cmp(&b.weight));
            if top.is_some_and(|i| !swinging.get(i.bone as usize).copied().unwrap_or(true)) {
                pts.push(*v);
            }
        }
    }
    let h = c.height();
    if pts.is_empty() || h <= 0.0 {
        return Vec::new();
    }
    let owned = Owned::measure(skel, &pts, h);
    wanted
        .iter()
        .filter(|(i, _, _)| *i < skel.len())
        .filter_map(|(i, name, group)| {
            let b = &skel.bones[*i];
            owned.capsule(
                &owned.owned[*i],
                *i,
                (b.head, b.tail),
                (0.0, 1.0),
                name.clone(),
                group,
            )
        })
        .collect()
}

/// The body points each bone owns: per point the nearest segment over the bones that
/// are not cosmetic and longer than 0.01 H, with the distance and the parameter along
/// the bone (0 = head, 1 = tail).
struct Owned<'a> {
    skel: &'a Skeleton,
    h: f32,
    /// Per bone: `(distance, t)` of each point it owns.
    owned: Vec<Vec<(f32, f32)>>,
    /// Per bone: the points it owns.
    owned_pts: Vec<Vec<Vec3>>,
}

impl<'a> Owned<'a> {
    fn measure(skel: &'a Skeleton, pts: &[Vec3], h: f32) -> Owned<'a> {
        let cand: Vec<usize> = (0..skel.len())
            .filter(|&i| {
                bone_class(&skel.bones[i].name).is_none() && skel.bones[i].length() > 0.01 * h
            })
            .collect();
        let mut owned: Vec<Vec<(f32, f32)>> = vec![Vec::new(); skel.len()];
        let mut owned_pts: Vec<Vec<Vec3>> = vec![Vec::new(); skel.len()];
        for &q in pts {
            let mut best = (f32::INFINITY, 0.0, usize::MAX);
            for &i in &cand {
                let b = &skel.bones[i];
                let ab = b.tail - b.head;
                let t = ((q - b.head).dot(ab) / ab.length_squared()).clamp(0.0, 1.0);
                let d = (q - (b.head + ab * t)).length();
                if d < best.0 {
                    best = (d, t, i);
                }
            }
            if best.2 != usize::MAX {
                owned[best.2].push((best.0, best.1));
                owned_pts[best.2].push(q);
            }
        }
        Owned {
            skel,
            h,
            owned,
            owned_pts,
        }
    }

    /// A capsule riding bone `i` along the segment `a`-`b` over its parameter range
    /// `t0..t1`, radius the 85th percentile of the distances `near` (`(distance, t)`)
    /// in the inner 80 % of that range; `None` when none are there or the radius is
    /// below 0.002 H.
    fn capsule(
        &self,
        near: &[(f32, f32)],
        i: usize,
        (a, b): (Vec3, Vec3),
        (t0, t1): (f32, f32),
        name: String,
        group: &str,
    ) -> Option<Collider> {
        let pad = 0.1 * (t1 - t0);
        let r = percentile(
            near.iter()
                .filter(|(_, t)| (t0 + pad..=t1 - pad).contains(t))
                .map(|(d, _)| *d)
                .collect(),
            0.85,
        )?;
        if r <= 0.002 * self.h {
            return None;
        }
        let bone = &self.skel.bones[i];
        let inv = bone.rest_matrix().inverse();
        let at = |t: f32| inv.transform_point3(a.lerp(b, t)).to_array();
        Some(Collider {
            name,
            bone: bone.name.clone(),
            shape: ColliderShape::Capsule {
                offset: at(t0),
                tail: at(t1),
                radius: r,
            },
            group: group.into(),
            inside: false,
            measured: true,
        })
    }

    /// Legs taper (a thigh is twice as thick at the top as at the knee): one capsule
    /// per half segment, each with its own radius, so a knee-length skirt is not held
    /// off a thin knee by the width of the hip. A segment runs from its bone's head to
    /// the next joint of the leg (the knee, the ankle) over every bone between them: a
    /// rig that splits a thigh in two bones in line (MakeHuman's `upperleg01.L`,
    /// `upperleg02.L`) gets the whole thigh, riding its first bone.
    fn leg(&self, bone: Option<usize>, next: Option<usize>, name: String, out: &mut Vec<Collider>) {
        let skel = self.skel;
        let Some(i) = bone else { return };
        let mut owners = vec![i];
        let mut end = skel.bones[i].tail;
        if let Some(j) = next {
            let mut path = Vec::new();
            let mut k = skel.bones[j].parent;
            while let Some(b) = k {
                path.push(b);
                if b == i {
                    break;
                }
                k = skel.bones[b].parent;
            }
            if path.last() == Some(&i) && path.len() > 1 {
                owners = path;
                end = skel.bones[j].head;
            }
        }
        let halves = [
            ((0.0, 0.5), name.clone()),
            ((0.5, 1.0), format!("{name}.lower")),
        ];
        let a = skel.bones[i].head;
        if owners.len() == 1 {
            for (range, n) in halves {
                let seg = (a, skel.bones[i].tail);
                if let Some(col) = self.capsule(&self.owned[i], i, seg, range, n, "legs") {
                    out.push(col);
                }
            }
            return;
        }
        // The segment spans several bones: measure every vertex they own against it.
        let ab = end - a;
        let l2 = ab.length_squared();
        if l2 <= 0.0 {
            return;
        }
        let near: Vec<(f32, f32)> = owners
            .iter()
            .flat_map(|&o| self.owned_pts[o].iter())
            .map(|&q| {
                let t = ((q - a).dot(ab) / l2).clamp(0.0, 1.0);
                ((q - (a + ab * t)).length(), t)
            })
            .collect();
        for (range, n) in halves {
            if let Some(col) = self.capsule(&near, i, (a, end), range, n, "legs") {
                out.push(col);
            }
        }
    }
}

/// The head's sphere: centred on the body points above the head bone's head, radius
/// their 75th-percentile distance (at least 8 points).
fn head_sphere(pts: &[Vec3], skel: &Skeleton, hd: usize) -> Option<Collider> {
    let b = &skel.bones[hd];
    let top: Vec<Vec3> = pts.iter().copied().filter(|p| p.y > b.head.y).collect();
    let top = one_per_cell(&top, HEAD_CELL_H * skel.height());
    if top.len() < 8 {
        return None;
    }
    let centre = top.iter().copied().sum::<Vec3>() / top.len() as f32;
    let r = percentile(top.iter().map(|p| (*p - centre).length()).collect(), 0.75)?;
    Some(Collider {
        name: "head".into(),
        bone: b.name.clone(),
        shape: ColliderShape::Sphere {
            offset: b
                .rest_matrix()
                .inverse()
                .transform_point3(centre)
                .to_array(),
            radius: r,
        },
        group: "head".into(),
        inside: false,
        measured: true,
    })
}

/// A horizontal capsule across the body at height `y` (see the module docs).
fn lid(pts: &[Vec3], y: f32, h: f32, skel: &Skeleton, bone: usize, name: &str) -> Option<Collider> {
    let band: Vec<Vec3> = pts
        .iter()
        .copied()
        .filter(|p| (p.y - y).abs() < 0.015 * h)
        .collect();
    if band.len() < 8 {
        return None;
    }
    // The trunk's cross-section: keep points within 0.2 H of the mid-plane (drops arms
    // hanging beside the hips).
    let cx = band.iter().map(|p| p.x).sum::<f32>() / band.len() as f32;
    let trunk: Vec<Vec3> = band
        .into_iter()
        .filter(|p| (p.x - cx).abs() < 0.12 * h)
        .collect();
    if trunk.len() < 8 {
        return None;
    }
    let cz = 0.5
        * (trunk.iter().map(|p| p.z).fold(f32::INFINITY, f32::min)
            + trunk.iter().map(|p| p.z).fold(f32::NEG_INFINITY, f32::max));
    let w = percentile(trunk.iter().map(|p| (p.x - cx).abs()).collect(), 0.95)?;
    let d = percentile(
        trunk
            .iter()
            .filter(|p| (p.x - cx).abs() < 0.5 * w)
            .map(|p| (p.z - cz).abs())
            .collect(),
        0.9,
    )?;
    if d <= 0.002 * h {
        return None;
    }
    let half = (w - d).max(0.01 * h);
    let b = &skel.bones[bone];
    let inv = b.rest_matrix().inverse();
    Some(Collider {
        name: name.into(),
        bone: b.name.clone(),
        shape: ColliderShape::Capsule {
            offset: inv.transform_point3(Vec3::new(cx - half, y, cz)).to_array(),
            tail: inv.transform_point3(Vec3::new(cx + half, y, cz)).to_array(),
            radius: d,
        },
        group: name.into(),
        inside: false,
        measured: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closest_points_of_crossing_skew_and_parallel_segments() {
        // Crossing at right angles 1 apart: closest at the middles.
        let (s, t) = closest_between_segments(
            Vec3::new(-1.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, -1.0, 1.0),
            Vec3::new(0.0, 1.0, 1.0),
        );
        assert!((s - 0.5).abs() < 1e-6 && (t - 0.5).abs() < 1e-6, "{s} {t}");
        // Beyond the end of the second: clamped to its end.
        let (s, t) = closest_between_segments(
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(3.0, 1.0, 0.0),
            Vec3::new(3.0, 2.0, 0.0),
        );
        assert!((s - 1.0).abs() < 1e-6 && t.abs() < 1e-6, "{s} {t}");
        // Parallel: a valid pair at the true distance.
        let (p0, p1, q0, q1) = (
            Vec3::ZERO,
            Vec3::X,
            Vec3::new(0.5, 1.0, 0.0),
            Vec3::new(2.0, 1.0, 0.0),
        );
        let (s, t) = closest_between_segments(p0, p1, q0, q1);
        let d = ((p0 + (p1 - p0) * s) - (q0 + (q1 - q0) * t)).length();
        assert!((d - 1.0).abs() < 1e-5, "{d}");
    }

    #[test]
    fn a_bone_across_a_capsule_is_deepest_in_its_middle() {
        // A shin capsule along Y (radius 0.05) and a bone lying across it whose two
        // ends are outside (signed distance +0.01) but whose middle passes 0.03 from the
        // axis: the tail alone says "outside", the bone says 2 cm inside.
        let shin = WorldShape::Capsule(Vec3::ZERO, Vec3::Y, 0.05);
        let (a, b) = (Vec3::new(-0.06, 0.5, 0.03), Vec3::new(0.06, 0.5, 0.03));
        assert!(shin.signed_distance(a) > 0.0 && shin.signed_distance(b) > 0.0);
        let (s, d) = shin.segment_depth(a, b);
        assert!((s - 0.5).abs() < 1e-4, "{s}");
        assert!((d + 0.02).abs() < 1e-5, "{d}");
        // A sphere: the point nearest its centre; a plane: the lower end.
        let (s, d) = WorldShape::Sphere(Vec3::new(0.0, 0.5, 0.0), 0.05).segment_depth(a, b);
        assert!((s - 0.5).abs() < 1e-4 && (d + 0.02).abs() < 1e-5, "{s} {d}");
        let floor = WorldShape::Plane(Vec3::ZERO, Vec3::Y);
        let (s, d) = floor.segment_depth(Vec3::new(0.0, 0.2, 0.0), Vec3::new(0.0, -0.1, 0.0));
        assert!((s - 1.0).abs() < 1e-6 && (d + 0.1).abs() < 1e-6, "{s} {d}");
    }
}
