//! Garment weights by transfer from the body: a shirt, tights or a skirt must move
//! with the skin under it, so each garment vertex takes the weights of the closest point
//! of the body surface, interpolated barycentrically from that triangle's three
//! vertices (Blender's Data Transfer, "nearest face interpolated"). Weighting a garment
//! by its own proximity to bones makes bands slide and lets the hands pull the shirt;
//! transfer does not. The binder smooths the result over the garment afterwards.

use glam::Vec3;

use crate::geom::bvh::Bvh;
use crate::model::Weights;

/// Transfers `body_weights` (one list per body vertex) to the `target` points through
/// the body's BVH (built over `body_triangles`). Targets get no influence when the body
/// has no triangle.
pub fn transfer(
    body_bvh: &Bvh,
    body_triangles: &[[u32; 3]],
    body_weights: &Weights,
    target: &[Vec3],
) -> Weights {
    let mut out = Weights::empty(target.len());
    for (v, p) in target.iter().enumerate() {
        let Some(c) = body_bvh.closest(*p) else {
            continue;
        };
        let tri = body_triangles[c.triangle as usize];
        for k in 0..3 {
            let b = c.bary[k];
            if b <= 0.0 {
                continue;
            }
            for inf in &body_weights.vertices[tri[k] as usize] {
                out.add(v, inf.bone, b * inf.weight);
            }
        }
    }
    out.sort();
    out.normalize();
    out
}
