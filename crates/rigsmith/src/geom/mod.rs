//! Geometry shared by the stages: the triangle BVH every surface query goes through
//! (bone visibility, closest points, overlaps, inside tests), segments, the spatial
//! hash grid and welding.

pub mod bvh;
pub mod grid;
pub mod segment;
pub mod weld;
