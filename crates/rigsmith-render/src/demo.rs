//! A small synthetic figure built from capsules, for examples, tests and benches.
//!
//! [`figure`] returns a 1.8 m [`Character`] standing in a T-pose-ish A-pose at the
//! origin (glTF space: +Y up, facing +Z, its left is +X) with three parts (a body of
//! capsules, a pair of eyes, an open shirt tube), a 19-bone skeleton with side names
//! (`upper_arm.L`...) and smooth weights (each vertex shared between its two nearest
//! bones). `segments` sets the tessellation: vertices grow as `segments^2`.
//!
//! ```
//! let c = rigsmith_render::demo::figure(16);
//! assert_eq!(c.parts.len(), 3);
//! assert!(c.validate().is_ok());
//! ```

use glam::Vec3;
use rigsmith::{Bone, Character, Influence, Mesh, Part, Skeleton, Weights};

/// Appends a closed capsule from `a` to `b` of radius `r` to `mesh`: `segments`
/// around, `segments / 2` rows per cap and `segments` rows along the length.
/// Triangles are counter-clockwise seen from outside.
pub fn capsule(mesh: &mut Mesh, a: Vec3, b: Vec3, r: f32, segments: u32) {
    let s = segments.max(3);
    let k = (s / 2).max(2);
    let d = b - a;
    let len = d.length();
    let y = d.try_normalize().unwrap_or(Vec3::Y);
    let x = if y.cross(Vec3::Z).length_squared() > 0.1 {
        y.cross(Vec3::Z).normalize()
    } else {
        y.cross(Vec3::X).normalize()
    };
    let z = x.cross(y);
    // Rows (distance along the axis from a, ring radius), poles excluded.
    let mut rows = Vec::new();
    for i in 1..=k {
        let phi = -std::f32::consts::FRAC_PI_2 + std::f32::consts::FRAC_PI_2 * i as f32 / k as f32;
        rows.push((r * phi.sin(), r * phi.cos()));
    }
    for j in 1..s {
        rows.push((len * j as f32 / s as f32, r));
    }
    for i in 0..k {
        let phi = std::f32::consts::FRAC_PI_2 * i as f32 / k as f32;
        rows.push((len + r * phi.sin(), r * phi.cos()));
    }
    let base = mesh.positions.len() as u32;
    let first_tri = mesh.triangles.len();
    mesh.positions.push(a - y * r);
    for &(t, rho) in &rows {
        for j in 0..s {
            let th = std::f32::consts::TAU * j as f32 / s as f32;
            mesh.positions
                .push(a + y * t + (x * th.cos() + z * th.sin()) * rho);
        }
    }
    mesh.positions.push(b + y * r);
    let ring = |row: u32, j: u32| base + 1 + row * s + (j % s);
    let top = base + 1 + rows.len() as u32 * s;
    for j in 0..s {
        mesh.triangles.push([base, ring(0, j + 1), ring(0, j)]);
    }
    for row in 0..rows.len() as u32 - 1 {
        for j in 0..s {
            mesh.triangles
                .push([ring(row, j), ring(row, j + 1), ring(row + 1, j + 1)]);
            mesh.triangles
                .push([ring(row, j), ring(row + 1, j + 1), ring(row + 1, j)]);
        }
    }
    let last = rows.len() as u32 - 1;
    for j in 0..s {
        mesh.triangles.push([top, ring(last, j), ring(last, j + 1)]);
    }
    // The rings turn clockwise seen from the tail end: flip to face outwards.
    for t in &mut mesh.triangles[first_tri..] {
        t.swap(1, 2);
    }
}

/// Appends an open tube (no caps) from `a` to `b` of radius `r`, like a sleeve.
pub fn tube(mesh: &mut Mesh, a: Vec3, b: Vec3, r: f32, segments: u32) {
    let s = segments.max(3);
    let d = b - a;
    let y = d.try_normalize().unwrap_or(Vec3::Y);
    let x = if y.cross(Vec3::Z).length_squared() > 0.1 {
        y.cross(Vec3::Z).normalize()
    } else {
        y.cross(Vec3::X).normalize()
    };
    let z = x.cross(y);
    let rows = s;
    let base = mesh.positions.len() as u32;
    let first_tri = mesh.triangles.len();
    for i in 0..=rows {
        for j in 0..s {
            let th = std::f32::consts::TAU * j as f32 / s as f32;
            mesh.positions
                .push(a + d * (i as f32 / rows as f32) + (x * th.cos() + z * th.sin()) * r);
        }
    }
    let at = |i: u32, j: u32| base + i * s + (j % s);
    for i in 0..rows {
        for j in 0..s {
            mesh.triangles
                .push([at(i, j), at(i, j + 1), at(i + 1, j + 1)]);
            mesh.triangles
                .push([at(i, j), at(i + 1, j + 1), at(i + 1, j)]);
        }
    }
    for t in &mut mesh.triangles[first_tri..] {
        t.swap(1, 2);
    }
}

/// The figure's skeleton: `(name, parent, head, tail)`.
fn bones() -> Vec<(&'static str, Option<usize>, Vec3, Vec3)> {
    let v = Vec3::new;
    vec![
        ("pelvis", None, v(0.0, 0.95, 0.0), v(0.0, 1.08, 0.0)),
        ("spine", Some(0), v(0.0, 1.08, 0.0), v(0.0, 1.25, 0.0)),
        ("chest", Some(1), v(0.0, 1.25, 0.0), v(0.0, 1.45, 0.0)),
        ("neck", Some(2), v(0.0, 1.45, 0.0), v(0.0, 1.56, 0.01)),
        ("head", Some(3), v(0.0, 1.56, 0.01), v(0.0, 1.78, 0.01)),
        (
            "upper_arm.L",
            Some(2),
            v(0.18, 1.42, 0.0),
            v(0.44, 1.30, 0.0),
        ),
        (
            "forearm.L",
            Some(5),
            v(0.44, 1.30, 0.0),
            v(0.68, 1.19, 0.02),
        ),
        ("hand.L", Some(6), v(0.68, 1.19, 0.02), v(0.78, 1.14, 0.02)),
        (
            "upper_arm.R",
            Some(2),
            v(-0.18, 1.42, 0.0),
            v(-0.44, 1.30, 0.0),
        ),
        (
            "forearm.R",
            Some(8),
            v(-0.44, 1.30, 0.0),
            v(-0.68, 1.19, 0.02),
        ),
        (
            "hand.R",
            Some(9),
            v(-0.68, 1.19, 0.02),
            v(-0.78, 1.14, 0.02),
        ),
        ("thigh.L", Some(0), v(0.1, 0.93, 0.0), v(0.11, 0.5, 0.02)),
        ("shin.L", Some(11), v(0.11, 0.5, 0.02), v(0.12, 0.08, -0.01)),
        (
            "foot.L",
            Some(12),
            v(0.12, 0.08, -0.01),
            v(0.13, 0.03, 0.14),
        ),
        ("thigh.R", Some(0), v(-0.1, 0.93, 0.0), v(-0.11, 0.5, 0.02)),
        (
            "shin.R",
            Some(14),
            v(-0.11, 0.5, 0.02),
            v(-0.12, 0.08, -0.01),
        ),
        (
            "foot.R",
            Some(15),
            v(-0.12, 0.08, -0.01),
            v(-0.13, 0.03, 0.14),
        ),
        (
            "eye.L",
            Some(4),
            v(0.032, 1.67, 0.085),
            v(0.032, 1.67, 0.11),
        ),
        (
            "eye.R",
            Some(4),
            v(-0.032, 1.67, 0.085),
            v(-0.032, 1.67, 0.11),
        ),
    ]
}

/// Distance from `p` to the segment `a`-`b`.
fn segment_distance(p: Vec3, a: Vec3, b: Vec3) -> f32 {
    let d = b - a;
    let t = if d.length_squared() > 0.0 {
        ((p - a).dot(d) / d.length_squared()).clamp(0.0, 1.0)
    } else {
        0.0
    };
    p.distance(a + d * t)
}

/// Weights shared between the two nearest deform bones (by distance to the bone
/// segment, inverse fourth power), normalized.
fn smooth_weights(positions: &[Vec3], s: &Skeleton) -> Weights {
    let mut w = Weights::empty(positions.len());
    for (v, p) in positions.iter().enumerate() {
        let mut d: Vec<(f32, u32)> = s
            .bones
            .iter()
            .enumerate()
            .filter(|(_, b)| !b.name.starts_with("eye"))
            .map(|(i, b)| (segment_distance(*p, b.head, b.tail), i as u32))
            .collect();
        d.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let list: Vec<Influence> = d
            .iter()
            .take(2)
            .map(|&(dist, bone)| Influence {
                bone,
                weight: 1.0 / (dist.powi(4) + 1e-8),
            })
            .collect();
        w.vertices[v] = list;
    }
    w.normalize();
    w.sort();
    w
}

/// The synthetic figure (see the module docs); `segments` around each capsule (16 gives
/// about 10k vertices in the body).
pub fn figure(segments: u32) -> Character {
    let list = bones();
    let skeleton = Skeleton {
        bones: list
            .iter()
            .map(|&(n, p, h, t)| Bone::new(n, p, h, t))
            .collect(),
    };
    let v = Vec3::new;
    let s = segments.max(4);
    let mut body = Mesh::default();
    capsule(&mut body, v(0.0, 0.98, 0.0), v(0.0, 1.38, 0.0), 0.15, s); // torso
    capsule(&mut body, v(0.0, 1.42, 0.0), v(0.0, 1.56, 0.0), 0.05, s); // neck
    capsule(&mut body, v(0.0, 1.64, 0.01), v(0.0, 1.70, 0.01), 0.095, s); // head
    for x in [1.0f32, -1.0] {
        let b = |p: Vec3| v(p.x * x, p.y, p.z);
        capsule(
            &mut body,
            b(v(0.17, 1.42, 0.0)),
            b(v(0.44, 1.30, 0.0)),
            0.055,
            s,
        );
        capsule(
            &mut body,
            b(v(0.44, 1.30, 0.0)),
            b(v(0.68, 1.19, 0.02)),
            0.045,
            s,
        );
        capsule(
            &mut body,
            b(v(0.70, 1.18, 0.02)),
            b(v(0.76, 1.15, 0.02)),
            0.035,
            s,
        );
        capsule(
            &mut body,
            b(v(0.1, 0.92, 0.0)),
            b(v(0.11, 0.5, 0.02)),
            0.08,
            s,
        );
        capsule(
            &mut body,
            b(v(0.11, 0.5, 0.02)),
            b(v(0.12, 0.08, -0.01)),
            0.06,
            s,
        );
        capsule(
            &mut body,
            b(v(0.12, 0.05, -0.01)),
            b(v(0.13, 0.03, 0.14)),
            0.045,
            s,
        );
    }
    let mut eyes = Mesh::default();
    for x in [0.032f32, -0.032] {
        capsule(
            &mut eyes,
            v(x, 1.67, 0.085),
            v(x, 1.67, 0.086),
            0.018,
            (s / 2).max(4),
        );
    }
    let mut shirt = Mesh::default();
    tube(&mut shirt, v(0.0, 0.95, 0.0), v(0.0, 1.36, 0.0), 0.165, s);
    let body_w = smooth_weights(&body.positions, &skeleton);
    let shirt_w = smooth_weights(&shirt.positions, &skeleton);
    let eyes_w = Weights {
        vertices: eyes
            .positions
            .iter()
            .map(|p| {
                vec![Influence {
                    bone: if p.x > 0.0 { 17 } else { 18 },
                    weight: 1.0,
                }]
            })
            .collect(),
    };
    Character {
        parts: vec![
            Part {
                name: "body".into(),
                mesh: body,
                weights: Some(body_w),
                ..Part::default()
            },
            Part {
                name: "eyes".into(),
                mesh: eyes,
                weights: Some(eyes_w),
                ..Part::default()
            },
            Part {
                name: "shirt".into(),
                mesh: shirt,
                weights: Some(shirt_w),
                ..Part::default()
            },
        ],
        skeleton: Some(skeleton),
        ..Character::default()
    }
}
