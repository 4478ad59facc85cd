//! Closed triangle meshes of the primitives (UV spheres, tapered tubes), used for the
//! eyes and for the `raw` mannequin: intersecting, unjoined shells.

use glam::{Mat3, Vec3};

use super::sdf::Shape;

/// Appends `b` to `a`, offsetting indices.
pub(crate) fn append(a: &mut (Vec<Vec3>, Vec<[u32; 3]>), b: (Vec<Vec3>, Vec<[u32; 3]>)) {
    let off = a.0.len() as u32;
    a.0.extend(b.0);
    a.1.extend(b.1.into_iter().map(|t| t.map(|i| i + off)));
}

/// A UV sphere of unit radius mapped by `frame * (p * r) + c`: `seg` segments around,
/// `rings` rings pole to pole, outward triangles.
pub(crate) fn uv_ellipsoid(
    c: Vec3,
    r: Vec3,
    frame: Mat3,
    seg: usize,
    rings: usize,
) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let mut p = vec![c + frame * Vec3::new(0.0, r.y, 0.0)];
    for i in 1..rings {
        let th = std::f32::consts::PI * i as f32 / rings as f32;
        for j in 0..seg {
            let ph = std::f32::consts::TAU * j as f32 / seg as f32;
            let u = Vec3::new(th.sin() * ph.sin(), th.cos(), th.sin() * ph.cos());
            p.push(c + frame * (u * r));
        }
    }
    p.push(c + frame * Vec3::new(0.0, -r.y, 0.0));
    let bottom = (p.len() - 1) as u32;
    let v = |i: usize, j: usize| (1 + (i - 1) * seg + j % seg) as u32;
    let mut t = Vec::new();
    for j in 0..seg {
        t.push([0, v(1, j), v(1, j + 1)]);
        t.push([bottom, v(rings - 1, j + 1), v(rings - 1, j)]);
    }
    for i in 1..rings - 1 {
        for j in 0..seg {
            t.push([v(i, j), v(i + 1, j), v(i + 1, j + 1)]);
            t.push([v(i, j), v(i + 1, j + 1), v(i, j + 1)]);
        }
    }
    (p, t)
}

/// A tube around the polyline `path` with radius `radius[i]` at each point, `seg`
/// vertices around, open ends, outward triangles.
pub(crate) fn tube(path: &[Vec3], radius: &[f32], seg: usize) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let n = path.len();
    let mut p = Vec::with_capacity(n * seg);
    for i in 0..n {
        let d = if i + 1 < n {
            path[i + 1] - path[i]
        } else {
            path[i] - path[i - 1]
        };
        let d = d.normalize_or_zero();
        let helper = if d.y.abs() < 0.9 { Vec3::Y } else { Vec3::X };
        let a = d.cross(helper).normalize();
        let b = a.cross(d);
        for j in 0..seg {
            let ph = std::f32::consts::TAU * j as f32 / seg as f32;
            p.push(path[i] + (a * ph.cos() + b * ph.sin()) * radius[i]);
        }
    }
    let v = |i: usize, j: usize| (i * seg + j % seg) as u32;
    let mut t = Vec::new();
    for i in 0..n - 1 {
        for j in 0..seg {
            t.push([v(i, j), v(i + 1, j + 1), v(i, j + 1)]);
            t.push([v(i, j), v(i + 1, j), v(i + 1, j + 1)]);
        }
    }
    (p, t)
}

/// The mesh of one SDF primitive (a capsule becomes a tube plus two end spheres).
pub(crate) fn shape_mesh(s: &Shape) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    match *s {
        Shape::Ellipsoid { c, r, frame } => uv_ellipsoid(c, r, frame, 24, 12),
        Shape::Capsule { a, b, r1, r2 } => {
            let mut m = tube(&[a, b], &[r1, r2], 24);
            append(
                &mut m,
                uv_ellipsoid(a, Vec3::splat(r1), Mat3::IDENTITY, 24, 12),
            );
            append(
                &mut m,
                uv_ellipsoid(b, Vec3::splat(r2), Mat3::IDENTITY, 24, 12),
            );
            m
        }
    }
}
