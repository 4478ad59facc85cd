//! Segments: the point of a segment nearest a point, and the closest points of two
//! segments. Every stage that needs them (colliders, the spring solver, the motion
//! picture) uses these.

use glam::Vec3;

/// The closest points of segments `p0`-`p1` and `q0`-`q1`: parameters `(s, t)` in
/// 0..1 along each.
pub fn closest_between_segments(p0: Vec3, p1: Vec3, q0: Vec3, q1: Vec3) -> (f32, f32) {
    let d1 = p1 - p0;
    let d2 = q1 - q0;
    let r = p0 - q0;
    let a = d1.length_squared();
    let e = d2.length_squared();
    let f = d2.dot(r);
    if a <= 1e-12 && e <= 1e-12 {
        return (0.0, 0.0);
    }
    if a <= 1e-12 {
        return (0.0, (f / e).clamp(0.0, 1.0));
    }
    let c = d1.dot(r);
    if e <= 1e-12 {
        return ((-c / a).clamp(0.0, 1.0), 0.0);
    }
    let b = d1.dot(d2);
    let denom = a * e - b * b;
    // Parallel segments: any s works; start from the first segment's start.
    let mut s = if denom > 1e-12 * a * e {
        ((b * f - c * e) / denom).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let mut t = (b * s + f) / e;
    if t < 0.0 {
        t = 0.0;
        s = (-c / a).clamp(0.0, 1.0);
    } else if t > 1.0 {
        t = 1.0;
        s = ((b - c) / a).clamp(0.0, 1.0);
    }
    (s, t)
}

/// The point of segment `a`-`b` nearest `q`.
pub fn closest_on_segment(q: Vec3, a: Vec3, b: Vec3) -> Vec3 {
    let ab = b - a;
    let l2 = ab.length_squared();
    if l2 <= 0.0 {
        return a;
    }
    a + ab * ((q - a).dot(ab) / l2).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closest_on_segment_clamps_to_the_ends() {
        let (a, b) = (Vec3::ZERO, Vec3::X);
        assert_eq!(
            closest_on_segment(Vec3::new(0.5, 1.0, 0.0), a, b),
            Vec3::new(0.5, 0.0, 0.0)
        );
        assert_eq!(closest_on_segment(Vec3::new(-2.0, 1.0, 0.0), a, b), a);
        assert_eq!(closest_on_segment(Vec3::new(3.0, -1.0, 0.0), a, b), b);
        // A segment of zero length is its point.
        assert_eq!(closest_on_segment(Vec3::Y, a, a), a);
    }
}
