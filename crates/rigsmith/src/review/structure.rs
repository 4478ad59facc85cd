//! Structure checks (rubric B) that a skinned file allows: the root carries every
//! vertex rigidly ("root follows everything").

use glam::{Mat4, Quat, Vec3};

use crate::model::Character;
use crate::pose::{posed_matrices, skin_lbs, Pose};

/// Moves and turns the first root bone (30 deg about Y, 0.1 H sideways, 0.05 H up,
/// 0.2 H forward) and returns the largest distance, in units of `h`, between a skinned
/// vertex and where the rigid motion puts it. Vertices of unskinned parts and those
/// left behind by other roots show here.
pub(crate) fn root_follow_error(c: &Character, h: f32) -> f32 {
    let Some(s) = &c.skeleton else { return 0.0 };
    let Some(root) = s.roots().first().copied() else {
        return 0.0;
    };
    let r = Quat::from_rotation_y(30f32.to_radians());
    let d = Vec3::new(0.1, 0.05, 0.2) * h;
    let head = s.bones[root].head;
    // World motion about the root's head: p -> r (p - head) + head + d.
    let world =
        Mat4::from_translation(head + d) * Mat4::from_quat(r) * Mat4::from_translation(-head);
    let mut p = Pose::rest(s);
    crate::pose::ops::apply_world_rotation(s, &mut p, root, r);
    crate::pose::ops::move_by(s, &mut p, root, d / h.max(1e-12), h.max(1e-12));
    let m = posed_matrices(s, &p);
    let mut worst = 0.0f32;
    for part in &c.parts {
        let posed = match &part.weights {
            Some(w) => skin_lbs(&part.mesh.positions, w, &m),
            None => part.mesh.positions.clone(),
        };
        for (a, b) in part.mesh.positions.iter().zip(&posed) {
            worst = worst.max((world.transform_point3(*a) - *b).length());
        }
    }
    worst / h.max(1e-12)
}
