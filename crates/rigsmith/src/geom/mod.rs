//! Geometry shared by the stages: the triangle BVH every surface query goes through
//! (bone visibility, closest points, overlaps, inside tests).

pub mod bvh;
pub mod weld;
