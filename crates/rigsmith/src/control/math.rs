//! Matrix helpers that follow Blender's conventions, so the evaluator and Blender agree:
//! XYZ Euler angles (`R = Rz * Ry * Rx`, the solution with the smaller angle sum),
//! decomposition into location, rotation and per-axis scale, and the blend a
//! constraint's influence applies (rotation slerped, scale and location lerped).

use glam::{EulerRot, Mat3, Mat4, Quat, Vec3};

/// Location, rotation and per-axis scale of a matrix without shear (negative scale is
/// not represented).
pub fn decompose(m: &Mat4) -> (Vec3, Mat3, Vec3) {
    let c = [
        m.x_axis.truncate(),
        m.y_axis.truncate(),
        m.z_axis.truncate(),
    ];
    let s = Vec3::new(c[0].length(), c[1].length(), c[2].length());
    let n = |v: Vec3, l: f32| if l > 0.0 { v / l } else { v };
    let r = Mat3::from_cols(n(c[0], s.x), n(c[1], s.y), n(c[2], s.z));
    (m.w_axis.truncate(), r, s)
}

/// The matrix with this location, rotation and scale.
pub fn compose(loc: Vec3, rot: Mat3, scale: Vec3) -> Mat4 {
    let r = Mat3::from_cols(
        rot.x_axis * scale.x,
        rot.y_axis * scale.y,
        rot.z_axis * scale.z,
    );
    Mat4::from_cols(
        r.x_axis.extend(0.0),
        r.y_axis.extend(0.0),
        r.z_axis.extend(0.0),
        loc.extend(1.0),
    )
}

/// XYZ Euler angles of a rotation, as Blender extracts them: of the two solutions, the
/// one with the smaller sum of absolute angles.
pub fn to_euler(r: &Mat3) -> Vec3 {
    let (x, y, z) = (r.x_axis, r.y_axis, r.z_axis);
    let cy = x.x.hypot(x.y);
    if cy > 16.0 * f32::EPSILON {
        let e1 = Vec3::new(y.z.atan2(z.z), (-x.z).atan2(cy), x.y.atan2(x.x));
        let e2 = Vec3::new((-y.z).atan2(-z.z), (-x.z).atan2(-cy), (-x.y).atan2(-x.x));
        let sum = |e: Vec3| e.x.abs() + e.y.abs() + e.z.abs();
        if sum(e1) > sum(e2) {
            e2
        } else {
            e1
        }
    } else {
        Vec3::new((-z.y).atan2(y.y), (-x.z).atan2(cy), 0.0)
    }
}

/// The rotation of XYZ Euler angles (`Rz * Ry * Rx`).
pub fn from_euler(e: Vec3) -> Mat3 {
    Mat3::from_euler(EulerRot::ZYX, e.z, e.y, e.x)
}

/// The rotation of a 3x3 matrix with orthonormal columns, as a unit quaternion.
pub fn quat_of(r: &Mat3) -> Quat {
    Quat::from_mat3(r).normalize()
}

/// Blends `a` toward `b` by `t` (0 = a, 1 = b) as Blender blends a constraint's result
/// by its influence: rotation by [`blend_rotation`], scale and location lerped.
pub fn interp(a: &Mat4, b: &Mat4, t: f32) -> Mat4 {
    let (la, ra, sa) = decompose(a);
    let (lb, rb, sb) = decompose(b);
    let r = blend_rotation(quat_of(&ra), quat_of(&rb), t);
    compose(la.lerp(lb, t), r, sa.lerp(sb, t))
}

/// The cosine of half the angle between two rotations above which Blender blends them
/// component-wise.
const LERP_ABOVE: f32 = 1.0 - 1e-4;

/// The rotation `t` of the way from `a` to `b` (unit quaternions) as Blender's
/// quaternion blend gives it: slerped the short way, except that two rotations less
/// than about 1.6 deg apart (the cosine of half their angle above `1 - 1e-4`) are
/// blended component-wise without renormalising, and the unit-quaternion matrix
/// formula is applied to that shorter quaternion. The result then falls short of a
/// rotation by up to about 1e-4 on its diagonal (a twist bone keeping part of a small
/// twist is the common case); rigsmith keeps it too, so both pose the same bones alike.
pub fn blend_rotation(a: Quat, b: Quat, t: f32) -> Mat3 {
    let mut c = a.dot(b);
    let a = if c < 0.0 {
        c = -c;
        -a
    } else {
        a
    };
    let (wa, wb) = if c < LERP_ABOVE {
        let omega = c.acos();
        let s = omega.sin();
        (((1.0 - t) * omega).sin() / s, (t * omega).sin() / s)
    } else {
        (1.0 - t, t)
    };
    let q = a * wa + b * wb;
    let (x2, y2, z2) = (q.x + q.x, q.y + q.y, q.z + q.z);
    let (xx, xy, xz) = (q.x * x2, q.x * y2, q.x * z2);
    let (yy, yz, zz) = (q.y * y2, q.y * z2, q.z * z2);
    let (wx, wy, wz) = (q.w * x2, q.w * y2, q.w * z2);
    Mat3::from_cols(
        Vec3::new(1.0 - (yy + zz), xy + wz, xz - wy),
        Vec3::new(xy - wz, 1.0 - (xx + zz), yz + wx),
        Vec3::new(xz + wy, yz - wx, 1.0 - (xx + yy)),
    )
}

/// The shortest rotation taking unit vector `from` to unit vector `to` (a half turn
/// about an axis perpendicular to `from` when they are opposite).
pub fn arc(from: Vec3, to: Vec3) -> Quat {
    let axis = from.cross(to);
    let c = from.dot(to);
    // atan2 of sine and cosine: acos of a cosine near 1 loses half the digits.
    let angle = axis.length().atan2(c);
    if axis.length_squared() < 1e-30 {
        if c > 0.0 {
            return Quat::IDENTITY;
        }
        let perp = if from.x.abs() < 0.9 { Vec3::X } else { Vec3::Y };
        let ax = from.cross(perp).normalize();
        return Quat::from_axis_angle(ax, std::f32::consts::PI);
    }
    Quat::from_axis_angle(axis.normalize(), angle)
}

/// A rotation by `q` about the point `p`, applied to `m` from the left.
pub fn rotate_about(m: &Mat4, q: Quat, p: Vec3) -> Mat4 {
    Mat4::from_translation(p) * Mat4::from_quat(q) * Mat4::from_translation(-p) * *m
}

/// The largest difference between two matrices, the translation column divided by `h`
/// (so rotation and position errors are both in units of a body height for unit-length
/// axes).
pub fn matrix_error(a: &Mat4, b: &Mat4, h: f32) -> f32 {
    let mut e = 0.0f32;
    for c in 0..3 {
        e = e.max((a.col(c) - b.col(c)).abs().max_element());
    }
    e.max((a.w_axis - b.w_axis).abs().max_element() / h.max(1e-9))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn euler_round_trip() {
        let e = Vec3::new(0.3, -0.7, 1.2);
        let r = from_euler(e);
        assert!((to_euler(&r) - e).abs().max_element() < 1e-5);
        // Rz * Ry * Rx: X applied first.
        let m =
            Mat3::from_rotation_z(1.2) * Mat3::from_rotation_y(-0.7) * Mat3::from_rotation_x(0.3);
        assert!((m.x_axis - r.x_axis).length() < 1e-6);
    }

    #[test]
    fn interp_halfway_rotation_and_scale() {
        let a = Mat4::IDENTITY;
        let b = Mat4::from_scale_rotation_translation(
            Vec3::splat(3.0),
            Quat::from_rotation_y(1.0),
            Vec3::new(2.0, 0.0, 0.0),
        );
        let m = interp(&a, &b, 0.5);
        let (l, r, s) = decompose(&m);
        assert!((l - Vec3::new(1.0, 0.0, 0.0)).length() < 1e-6);
        assert!((s - Vec3::splat(2.0)).length() < 1e-5);
        assert!((quat_of(&r).angle_between(Quat::from_rotation_y(0.5))) < 1e-5);
    }

    #[test]
    fn close_rotations_blend_component_wise_as_blender_does() {
        // A base turned 2 rad, and 1 deg further: inside the component-wise range. The
        // halfway quaternion is short of unit length by 1 - cos(0.25 deg) ~ 1e-5, and
        // its matrix's diagonal keeps that as Blender's does.
        let a = Quat::from_axis_angle(Vec3::new(1.0, 0.2, -0.4).normalize(), 2.0);
        let b = a * Quat::from_axis_angle(Vec3::new(0.3, 0.5, 0.8).normalize(), 1f32.to_radians());
        let r = blend_rotation(a, b, 0.5);
        let exact = Mat3::from_quat(a.slerp(b, 0.5).normalize());
        let off = (0..3)
            .map(|i| (r.col(i) - exact.col(i)).abs().max_element())
            .fold(0.0, f32::max);
        assert!(off > 5e-6 && off < 1e-4, "{off}");
        // Far apart: slerped, a rotation.
        let b = a * Quat::from_rotation_y(10f32.to_radians());
        let r = blend_rotation(a, b, 0.3);
        let exact = Mat3::from_quat(a * Quat::from_rotation_y(3f32.to_radians()));
        assert!((r.x_axis - exact.x_axis).length() < 1e-5);
        assert!((r.y_axis.length() - 1.0).abs() < 1e-5);
    }
}
