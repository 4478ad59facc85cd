//! The deform bones as the weighting routes see them: segments in the frame of the
//! mesh, each with the skeleton index its weights are written to.

use glam::Vec3;

/// A bone as the heat sees it: a segment and the skeleton index it stands for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Segment {
    /// Index of the bone in the skeleton (written into the weights).
    pub bone: u32,
    /// Head, same unit as the mesh.
    pub head: Vec3,
    /// Tail, same unit as the mesh.
    pub tail: Vec3,
}

impl Segment {
    /// The closest point of the segment to `p`.
    pub fn closest(&self, p: Vec3) -> Vec3 {
        crate::geom::segment::closest_on_segment(p, self.head, self.tail)
    }
}
