//! Skinning: linear blend (LBS) and dual-quaternion (DQS).
//!
//! Both take rest positions (n x 3, metres), sparse weights (n lists) and skinning
//! matrices (one per bone, from [`super::posed_matrices`]) and return posed positions
//! (n x 3). Weights are used as given (not renormalized): a vertex whose weights sum to
//! 0.5 shrinks toward the origin under LBS, which is the honest picture of what a game
//! engine does with it. A vertex with no influence stays where it is. Influences on a
//! bone index outside `m` are ignored (the character's `validate` rejects them first).

use glam::{Mat4, Quat, Vec3};

use crate::model::Weights;

/// Which skinning the poses are measured with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Skinning {
    /// Linear blend skinning: what glTF viewers and game engines do (the default).
    #[default]
    Lbs,
    /// Dual-quaternion skinning.
    Dqs,
}

/// Linear blend skinning: `p' = sum_i w_i M_i p` (plus `(1 - sum w) p` is NOT added).
///
/// Vertices without influences are returned unchanged.
pub fn skin_lbs(positions: &[Vec3], w: &Weights, m: &[Mat4]) -> Vec<Vec3> {
    positions
        .iter()
        .enumerate()
        .map(|(v, &p)| {
            let list = match w.vertices.get(v) {
                Some(l) if !l.is_empty() => l,
                _ => return p,
            };
            let mut acc = Vec3::ZERO;
            for inf in list {
                if let Some(mat) = m.get(inf.bone as usize) {
                    acc += inf.weight * mat.transform_point3(p);
                }
            }
            acc
        })
        .collect()
}

/// A unit dual quaternion `real + eps * dual` for a rigid transform.
#[derive(Clone, Copy)]
struct Dq {
    real: Quat,
    dual: Quat,
}

impl Dq {
    fn from_mat(m: &Mat4) -> Dq {
        let (_, r, t) = m.to_scale_rotation_translation();
        let r = r.normalize();
        let tq = Quat::from_xyzw(t.x, t.y, t.z, 0.0);
        let dual = (tq * r) * 0.5;
        Dq { real: r, dual }
    }
}

/// Dual-quaternion skinning (Kavan et al. 2007): the rigid parts of the skinning
/// matrices are blended as dual quaternions, with hemisphere alignment to the
/// vertex's strongest influence, then normalized. Scale in the matrices is ignored.
///
/// The weight sum scales nothing (dual quaternions are normalized), so non-normalized
/// weights do not shrink the mesh here; [`skin_lbs`] shows them.
pub fn skin_dqs(positions: &[Vec3], w: &Weights, m: &[Mat4]) -> Vec<Vec3> {
    let dqs: Vec<Dq> = m.iter().map(Dq::from_mat).collect();
    positions
        .iter()
        .enumerate()
        .map(|(v, &p)| {
            let list = match w.vertices.get(v) {
                Some(l) if !l.is_empty() => l,
                _ => return p,
            };
            let mut real = Quat::from_xyzw(0.0, 0.0, 0.0, 0.0);
            let mut dual = Quat::from_xyzw(0.0, 0.0, 0.0, 0.0);
            let mut pivot: Option<Quat> = None;
            for inf in list {
                let Some(d) = dqs.get(inf.bone as usize) else {
                    continue;
                };
                let piv = *pivot.get_or_insert(d.real);
                let s = if piv.dot(d.real) < 0.0 { -1.0 } else { 1.0 };
                real += d.real * (s * inf.weight);
                dual += d.dual * (s * inf.weight);
            }
            let n = real.length();
            if n < 1e-12 {
                return p;
            }
            let real = real / n;
            let dual = dual / n;
            // Translation = 2 * dual * conj(real) (with the dual made orthogonal).
            let t = (dual * real.conjugate()) * 2.0;
            real * p + Vec3::new(t.x, t.y, t.z)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Influence;

    #[test]
    fn dqs_matches_rigid() {
        let m = Mat4::from_rotation_translation(
            Quat::from_axis_angle(Vec3::new(1.0, 2.0, 3.0).normalize(), 1.1),
            Vec3::new(0.3, -2.0, 5.0),
        );
        let p = Vec3::new(0.7, 0.1, -0.4);
        let w = Weights {
            vertices: vec![vec![Influence {
                bone: 0,
                weight: 1.0,
            }]],
        };
        let a = skin_dqs(&[p], &w, &[m]);
        assert!((a[0] - m.transform_point3(p)).length() < 1e-5);
    }
}
