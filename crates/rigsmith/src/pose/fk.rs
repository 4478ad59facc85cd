//! Forward kinematics: per-bone local rotations and translations on top of the rest
//! pose, composed parents first into world matrices and skinning matrices.

use glam::{Mat4, Quat, Vec3};

use crate::model::Skeleton;

/// A pose: for each bone of a skeleton (same order), a rotation and a translation on
/// top of its rest transform, both expressed in the bone's own rest frame (X = the
/// bone's `x_axis`, Y = head -> tail). The identity everywhere is the rest pose.
///
/// The posed world transform of bone `i` is
/// `W[i] = W[parent] * (R[parent]^-1 * R[i]) * T(translation[i]) * rot(rotation[i])`
/// where `R` are the rest transforms ([`crate::model::Bone::rest_matrix`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Pose {
    /// Local rotation of each bone (n), unit quaternions.
    pub rotations: Vec<Quat>,
    /// Local translation of each bone's head (n), metres, in the bone's rest frame.
    pub translations: Vec<Vec3>,
}

impl Pose {
    /// The rest pose of `s`.
    pub fn rest(s: &Skeleton) -> Pose {
        Pose {
            rotations: vec![Quat::IDENTITY; s.len()],
            translations: vec![Vec3::ZERO; s.len()],
        }
    }

    /// Whether every bone is at rest (within `1e-7`).
    pub fn is_rest(&self) -> bool {
        self.rotations
            .iter()
            .all(|q| q.abs_diff_eq(Quat::IDENTITY, 1e-7) || q.abs_diff_eq(-Quat::IDENTITY, 1e-7))
            && self.translations.iter().all(|t| t.length_squared() < 1e-14)
    }
}

/// Posed world transforms of every bone (n 4x4 matrices, metres). A pose whose length
/// differs from the skeleton's is treated as rest for the missing bones.
pub fn world_matrices(s: &Skeleton, p: &Pose) -> Vec<Mat4> {
    let rest = s.rest_matrices();
    let mut out: Vec<Mat4> = Vec::with_capacity(s.len());
    for (i, b) in s.bones.iter().enumerate() {
        let q = p.rotations.get(i).copied().unwrap_or(Quat::IDENTITY);
        let t = p.translations.get(i).copied().unwrap_or(Vec3::ZERO);
        let local = Mat4::from_rotation_translation(q.normalize(), t);
        let m = match b.parent {
            Some(pi) => out[pi] * (rest[pi].inverse() * rest[i]) * local,
            None => rest[i] * local,
        };
        out.push(m);
    }
    out
}

/// Skinning matrices (n 4x4): `world_posed[i] * rest[i]^-1`, mapping a rest-pose point
/// to where bone `i` carries it in the pose.
pub fn posed_matrices(s: &Skeleton, p: &Pose) -> Vec<Mat4> {
    let rest = s.rest_matrices();
    world_matrices(s, p)
        .into_iter()
        .zip(rest)
        .map(|(w, r)| w * r.inverse())
        .collect()
}

/// Posed bones as `(head, tail)` pairs in world space (n), for drawing.
pub fn posed_bones(s: &Skeleton, m: &[Mat4]) -> Vec<(Vec3, Vec3)> {
    s.bones
        .iter()
        .zip(m)
        .map(|(b, m)| (m.transform_point3(b.head), m.transform_point3(b.tail)))
        .collect()
}
