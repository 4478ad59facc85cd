//! Geometry shared by the stages: the triangle BVH every surface query goes through
//! (bone visibility, closest points, overlaps, inside tests), segments, the spatial
//! hash grid, welding and the smooth step the masks share.

pub mod bvh;
pub(crate) mod frame;
pub mod grid;
pub mod segment;
pub mod weld;

/// 0 below `e0`, 1 above `e1`, the cubic `3t^2 - 2t^3` between.
pub fn smoothstep(e0: f32, e1: f32, x: f32) -> f32 {
    let t = ((x - e0) / (e1 - e0)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}
