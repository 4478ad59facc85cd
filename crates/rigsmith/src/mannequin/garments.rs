//! The mannequin's optional parts: a shirt (an offset copy of the torso: an overlapping
//! garment), a flared skirt hanging from the waist, and hair (a scalp cap with bangs and
//! twin tails). All in generator units, built around the body's distance field so they
//! never cut into the body.

use glam::Vec3;

use super::layout::{Layout, Region};
use super::primitives::{append, tube};
use super::sdf::Union;

/// Keeps the triangles whose corners are all selected, re-indexed with vertex order
/// preserved; unreferenced selected vertices are dropped.
fn submesh(pos: &[Vec3], tris: &[[u32; 3]], keep: &[bool]) -> (Vec<u32>, Vec<[u32; 3]>) {
    let kept: Vec<[u32; 3]> = tris
        .iter()
        .filter(|t| t.iter().all(|&i| keep[i as usize]))
        .copied()
        .collect();
    let mut used = vec![false; pos.len()];
    for t in &kept {
        for &i in t {
            used[i as usize] = true;
        }
    }
    let mut map = vec![u32::MAX; pos.len()];
    let mut verts = Vec::new();
    for (i, u) in used.iter().enumerate() {
        if *u {
            map[i] = verts.len() as u32;
            verts.push(i as u32);
        }
    }
    (
        verts,
        kept.into_iter()
            .map(|t| t.map(|i| map[i as usize]))
            .collect(),
    )
}

/// The shirt: torso, shoulders and the upper 45 % of the upper arms, from the waist to
/// the neck, pushed out along the normals by `offset`.
pub(crate) fn shirt(
    pos: &[Vec3],
    tris: &[[u32; 3]],
    normals: &[Vec3],
    lay: &Layout,
    offset: f32,
) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let keep: Vec<bool> = pos
        .iter()
        .map(|p| {
            let mut best = (f32::INFINITY, Region::Head, 0.0f32);
            for (s, r) in &lay.shapes {
                let d = s.distance(*p);
                if d < best.0 {
                    let t = match s {
                        super::sdf::Shape::Capsule { a, b, .. } => {
                            let ab = *b - *a;
                            ((*p - *a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0)
                        }
                        _ => 0.0,
                    };
                    best = (d, *r, t);
                }
            }
            match best.1 {
                Region::Chest | Region::Abdomen | Region::Deltoid => true,
                Region::Pelvis => p.y > 0.575,
                Region::UpperArm => best.2 < 0.45,
                _ => false,
            }
        })
        .collect();
    let (verts, t) = submesh(pos, tris, &keep);
    let p = verts
        .iter()
        .map(|&i| pos[i as usize] + normals[i as usize] * offset)
        .collect();
    (p, t)
}

/// The distance from `center` along `dir` (horizontal) at which the ray leaves the first
/// piece of body it meets (closer than `margin`), or 0.
fn body_extent(body: &Union, center: Vec3, dir: Vec3, margin: f32) -> f32 {
    // An arm hanging beside the hips, beyond a gap, is not wrapped by the garment.
    let step = 0.002;
    let mut last = 0.0;
    let mut r = 0.0;
    let mut seen = false;
    while r < 0.45 {
        if body.distance(center + dir * r) < margin {
            last = r;
            seen = true;
        } else if seen && r - last > 4.0 * margin {
            break;
        }
        r += step;
    }
    last
}

/// A flared skirt: `rings` rings from the waist (y = 0.575) to the hem (y = 0.36),
/// `seg` vertices a ring, an open tube at least `margin` outside the body everywhere.
pub(crate) fn skirt(
    body: &Union,
    seg: usize,
    rings: usize,
    margin: f32,
) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let (top, hem) = (0.575f32, 0.36f32);
    let mut p = Vec::with_capacity(seg * rings);
    for i in 0..rings {
        let t = i as f32 / (rings - 1) as f32;
        let y = top + (hem - top) * t;
        let f = t.powf(0.8);
        let (rx, rz) = (0.112 + (0.2 - 0.112) * f, 0.08 + (0.17 - 0.08) * f);
        let c = Vec3::new(0.0, y, -0.004);
        for j in 0..seg {
            let ph = std::f32::consts::TAU * j as f32 / seg as f32;
            let dir = Vec3::new(ph.cos(), 0.0, ph.sin());
            let design = Vec3::new(ph.cos() * rx, 0.0, ph.sin() * rz).length();
            let r = design.max(body_extent(body, c, dir, margin) + margin);
            p.push(c + dir * r);
        }
    }
    let v = |i: usize, j: usize| (i * seg + j % seg) as u32;
    let mut t = Vec::new();
    for i in 0..rings - 1 {
        for j in 0..seg {
            t.push([v(i, j), v(i, j + 1), v(i + 1, j + 1)]);
            t.push([v(i, j), v(i + 1, j + 1), v(i + 1, j)]);
        }
    }
    (p, t)
}

/// Hair: a cap over the scalp (down to the hairline at the back and sides, to just
/// above the eyes at the front: the bangs) and two twin tails hanging down the back.
pub(crate) fn hair(body: &Union, lay: &Layout, margin: f32) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let hc = lay.head_center;
    let hr = lay.head_radii + Vec3::splat(margin * 1.5);
    let (seg, rings) = (48usize, 14usize);
    // Azimuth from the front (+Z); polar angle from the top.
    let theta_max = |ph: f32| 1.2 + 0.55 * (1.0 - ph.cos()) * 0.5;
    let at = |th: f32, ph: f32| {
        hc + Vec3::new(
            th.sin() * ph.sin() * hr.x,
            th.cos() * hr.y,
            th.sin() * ph.cos() * hr.z,
        )
    };
    let mut p = vec![hc + Vec3::Y * hr.y];
    for i in 1..=rings {
        for j in 0..seg {
            let ph = std::f32::consts::TAU * j as f32 / seg as f32;
            p.push(at(theta_max(ph) * i as f32 / rings as f32, ph));
        }
    }
    let v = |i: usize, j: usize| (1 + (i - 1) * seg + j % seg) as u32;
    let mut t = Vec::new();
    for j in 0..seg {
        t.push([0, v(1, j), v(1, j + 1)]);
    }
    for i in 1..rings {
        for j in 0..seg {
            t.push([v(i, j), v(i + 1, j), v(i + 1, j + 1)]);
            t.push([v(i, j), v(i + 1, j + 1), v(i, j + 1)]);
        }
    }
    let mut m = (p, t);
    // Twin tails: quadratic curves from the back of the scalp, out and down the back.
    let hs = lay.head_radii.y / 0.075;
    for s in [1.0f32, -1.0] {
        let u0 = Vec3::new(0.75 * s, 0.25, -0.55).normalize();
        let p0 = hc + u0 * hr;
        let p1 = Vec3::new(s * (hr.x + 0.05 * hs), hc.y - 0.03, hc.z - hr.z - 0.01);
        let p2 = Vec3::new(s * 0.1, hc.y - 0.3, -0.13);
        let n = 16;
        let mut path = Vec::with_capacity(n);
        let mut rad = Vec::with_capacity(n);
        for k in 0..n {
            let u = k as f32 / (n - 1) as f32;
            let mut q = p0 * (1.0 - u) * (1.0 - u) + p1 * 2.0 * u * (1.0 - u) + p2 * u * u;
            let r = 0.02 * hs * (1.0 - u) + 0.004 * u;
            // Keep the lock clear of the body: push it horizontally away from the
            // head's vertical axis until the whole tube is outside.
            let away = Vec3::new(q.x - hc.x, 0.0, q.z - hc.z).normalize_or(Vec3::NEG_Z);
            let mut guard = 0;
            while body.distance(q) < r + margin && guard < 200 {
                q += away * 0.002;
                guard += 1;
            }
            path.push(q);
            rad.push(r);
        }
        append(&mut m, tube(&path, &rad, 8));
    }
    m
}
