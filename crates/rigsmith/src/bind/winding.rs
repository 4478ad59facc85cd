//! Inside tests by the generalized winding number (Jacobson et al. 2013): the sum of
//! the solid angles of the triangles seen from the point, over 4π. It is 1 inside a
//! closed, outward-oriented mesh, 0 outside, and degrades gracefully (to a fraction)
//! near holes, which makes it the right test for real, imperfect character meshes.

use glam::DVec3;

use crate::model::Mesh;

/// Winding number of `mesh` at `q` (same unit as the mesh). Cost: one pass over the
/// triangles.
pub(crate) fn winding_number(mesh: &Mesh, q: glam::Vec3) -> f64 {
    let q = q.as_dvec3();
    let mut total = 0.0;
    for t in &mesh.triangles {
        let [a, b, c] = t.map(|i| mesh.positions[i as usize].as_dvec3() - q);
        total += solid_angle(a, b, c);
    }
    total / (4.0 * std::f64::consts::PI)
}

/// Signed solid angle of the triangle (a, b, c) seen from the origin (Van Oosterom and
/// Strackee).
fn solid_angle(a: DVec3, b: DVec3, c: DVec3) -> f64 {
    let (la, lb, lc) = (a.length(), b.length(), c.length());
    let num = a.dot(b.cross(c));
    let den = la * lb * lc + a.dot(b) * lc + b.dot(c) * la + c.dot(a) * lb;
    2.0 * num.atan2(den)
}

/// Whether `q` is inside `mesh` (winding number above one half).
pub fn inside(mesh: &Mesh, q: glam::Vec3) -> bool {
    winding_number(mesh, q) > 0.5
}
