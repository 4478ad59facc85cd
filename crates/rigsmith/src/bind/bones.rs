//! The deform bones as the weighting routes see them: segments in the frame of the
//! mesh, each with the skeleton index its weights are written to.

use glam::Vec3;

use crate::model::Skeleton;

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
    /// The deform bones of `s`, in skeleton order, each end mapped by `frame` (the
    /// routes work in the mesh's own frame: centred, in units of the body height).
    pub fn deform_bones(s: &Skeleton, frame: impl Fn(Vec3) -> Vec3) -> Vec<Segment> {
        s.bones
            .iter()
            .enumerate()
            .filter(|(_, b)| b.deform)
            .map(|(i, b)| Segment {
                bone: i as u32,
                head: frame(b.head),
                tail: frame(b.tail),
            })
            .collect()
    }

    /// The closest point of the segment to `p`.
    pub fn closest(&self, p: Vec3) -> Vec3 {
        crate::geom::segment::closest_on_segment(p, self.head, self.tail)
    }
}
