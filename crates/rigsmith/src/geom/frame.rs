//! Principal frames: the eigenvectors of a symmetric 3x3 matrix (a point cloud's
//! covariance): the arm's and the hand's axes, a piece's principal extents.

use glam::{Mat3, Vec3};

/// The eigenvector of the largest eigenvalue of a symmetric 3x3 matrix.
pub(crate) fn principal_axis(m: Mat3) -> Vec3 {
    principal_frame(m).0
}

/// Eigenvectors of a symmetric 3x3 matrix by decreasing eigenvalue (Jacobi rotations).
pub(crate) fn principal_frame(m: Mat3) -> (Vec3, Vec3, Vec3) {
    let mut a = [[0.0f64; 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            a[i][j] = m.col(j)[i] as f64;
        }
    }
    let mut v = [[1.0f64, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    for _ in 0..50 {
        let mut off = 0.0;
        for (p, q) in [(0, 1), (0, 2), (1, 2)] {
            off += a[p][q] * a[p][q];
        }
        if off < 1e-24 {
            break;
        }
        for (p, q) in [(0usize, 1usize), (0, 2), (1, 2)] {
            if a[p][q].abs() < 1e-30 {
                continue;
            }
            let theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
            let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
            let t = if theta == 0.0 { 1.0 } else { t };
            let c = 1.0 / (t * t + 1.0).sqrt();
            let s = t * c;
            for k in 0..3 {
                let (akp, akq) = (a[k][p], a[k][q]);
                a[k][p] = c * akp - s * akq;
                a[k][q] = s * akp + c * akq;
            }
            for k in 0..3 {
                let (apk, aqk) = (a[p][k], a[q][k]);
                a[p][k] = c * apk - s * aqk;
                a[q][k] = s * apk + c * aqk;
            }
            for k in 0..3 {
                let (vkp, vkq) = (v[k][p], v[k][q]);
                v[k][p] = c * vkp - s * vkq;
                v[k][q] = s * vkp + c * vkq;
            }
        }
    }
    let mut idx = [0usize, 1, 2];
    idx.sort_by(|&i, &j| a[j][j].total_cmp(&a[i][i]));
    let col =
        |i: usize| Vec3::new(v[0][i] as f32, v[1][i] as f32, v[2][i] as f32).normalize_or_zero();
    (col(idx[0]), col(idx[1]), col(idx[2]))
}

/// The extents of `pos` along its principal axes (of the covariance of its points),
/// largest first.
pub(crate) fn principal_extents(pos: &[Vec3]) -> [f32; 3] {
    if pos.is_empty() {
        return [0.0; 3];
    }
    let n = pos.len() as f32;
    let mean = pos.iter().copied().sum::<Vec3>() / n;
    let mut m = Mat3::ZERO;
    for q in pos {
        let d = *q - mean;
        m += Mat3::from_cols(d * d.x, d * d.y, d * d.z);
    }
    let (a, b, c) = principal_frame(m * (1.0 / n));
    let mut e = [a, b, c].map(|ax| {
        let (lo, hi) = pos
            .iter()
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(l, h), q| {
                let t = q.dot(ax);
                (l.min(t), h.max(t))
            });
        hi - lo
    });
    e.sort_by(|x, y| y.total_cmp(x));
    e
}
