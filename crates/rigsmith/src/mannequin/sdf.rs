//! Signed distance fields of the mannequin's primitives and their smooth union.
//!
//! Distances are in the generator's units (body height ≈ 1), negative inside. The
//! capsules taper linearly from `r1` to `r2` and the ellipsoids use the usual
//! first-order approximation `k0 (k0 - 1) / k1` (`k0 = |p/r|`, `k1 = |p/r²|`): both
//! have the right sign and zero set, which is all the surface extraction needs.

use glam::{Mat3, Vec3};

/// One primitive of the body.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Shape {
    /// A segment `a -> b` with radius `r1` at `a` tapering to `r2` at `b`.
    Capsule { a: Vec3, b: Vec3, r1: f32, r2: f32 },
    /// An ellipsoid: centre, semi-axes along the columns of `frame`.
    Ellipsoid { c: Vec3, r: Vec3, frame: Mat3 },
}

impl Shape {
    /// Approximate signed distance from `p`.
    pub(crate) fn distance(&self, p: Vec3) -> f32 {
        match *self {
            Shape::Capsule { a, b, r1, r2 } => {
                let ab = b - a;
                let t = ((p - a).dot(ab) / ab.length_squared().max(1e-12)).clamp(0.0, 1.0);
                (p - (a + ab * t)).length() - (r1 + (r2 - r1) * t)
            }
            Shape::Ellipsoid { c, r, frame } => {
                let q = frame.transpose() * (p - c);
                let k0 = (q / r).length();
                let k1 = (q / (r * r)).length();
                if k1 < 1e-12 {
                    -r.min_element()
                } else {
                    k0 * (k0 - 1.0) / k1
                }
            }
        }
    }

    /// Axis-aligned bounds `(min, max)`.
    pub(crate) fn bounds(&self) -> (Vec3, Vec3) {
        match *self {
            Shape::Capsule { a, b, r1, r2 } => {
                let r = r1.max(r2);
                (a.min(b) - Vec3::splat(r), a.max(b) + Vec3::splat(r))
            }
            Shape::Ellipsoid { c, r, frame } => {
                let e =
                    frame.x_axis.abs() * r.x + frame.y_axis.abs() * r.y + frame.z_axis.abs() * r.z;
                (c - e, c + e)
            }
        }
    }
}

/// Polynomial smooth minimum: blends two distances over a band of width `k`.
pub(crate) fn smooth_min(a: f32, b: f32, k: f32) -> f32 {
    if k <= 0.0 {
        return a.min(b);
    }
    let h = (k - (a - b).abs()).max(0.0) / k;
    a.min(b) - h * h * k * 0.25
}

/// The smooth union of shapes, with per-shape bounds for culling.
#[derive(Debug, Clone)]
pub(crate) struct Union {
    shapes: Vec<(Shape, Vec3, Vec3)>,
    k: f32,
}

impl Union {
    /// A union blending with band `k`.
    pub(crate) fn new(shapes: &[Shape], k: f32) -> Union {
        Union {
            shapes: shapes
                .iter()
                .map(|s| {
                    let (lo, hi) = s.bounds();
                    (*s, lo, hi)
                })
                .collect(),
            k,
        }
    }

    /// Overall bounds.
    pub(crate) fn bounds(&self) -> (Vec3, Vec3) {
        self.shapes.iter().fold(
            (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
            |(lo, hi), (_, a, b)| (lo.min(*a), hi.max(*b)),
        )
    }

    /// Signed distance of the union at `p`. Shapes whose bounds are farther than the
    /// current best distance plus the blend band cannot change the result and are skipped.
    pub(crate) fn distance(&self, p: Vec3) -> f32 {
        let mut d = f32::INFINITY;
        for (s, lo, hi) in &self.shapes {
            let gap = (*lo - p).max(p - *hi).max(Vec3::ZERO).length();
            if gap > d + self.k {
                continue;
            }
            let ds = s.distance(p);
            d = if d.is_finite() {
                smooth_min(d, ds, self.k)
            } else {
                ds
            };
        }
        d
    }
}
