//! The body as a solid for inside tests: the placement checks, the hand landmarks and
//! the fit ask whether a point lies inside the skin.

use glam::Vec3;

use crate::geom::bvh::Bvh;

/// The body as solids: one bounding-volume hierarchy per connected piece of the skin
/// union. Pieces that overlap without being welded (an arm pushed into a torso,
/// trousers over the hips) would flip a single crossing parity where they overlap; a
/// point is inside the body when it is inside any piece.
pub(crate) struct Solid {
    pieces: Vec<Bvh>,
}

impl Solid {
    /// The pieces of `m` (its connected triangle islands), each with its BVH.
    pub(crate) fn new(m: &crate::Mesh) -> Solid {
        let (isl, n) = crate::geom::weld::islands(m.positions.len(), &m.triangles);
        let mut tris: Vec<Vec<[u32; 3]>> = vec![Vec::new(); n];
        for t in &m.triangles {
            tris[isl[t[0] as usize] as usize].push(*t);
        }
        Solid {
            pieces: tris
                .into_iter()
                .filter(|t| !t.is_empty())
                .map(|t| Bvh::build(&m.positions, &t))
                .collect(),
        }
    }

    /// Whether `p` lies inside any piece (see [`inside`]).
    pub(crate) fn contains(&self, p: Vec3) -> bool {
        self.pieces.iter().any(|b| b.contains(p))
    }
}

/// Whether `p` lies inside the body: inside any of its pieces, each judged by the
/// majority of three skew-ray crossing parities over a bounding-volume hierarchy of
/// its triangles (a ray that slips through a small hole or grazes an edge is
/// outvoted).
pub(crate) fn inside(solid: &Solid, p: Vec3) -> bool {
    solid.contains(p)
}
