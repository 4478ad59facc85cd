//! What a visibility ray of bone heat is tested against: the vertex's own surface.
//!
//! Bone heat heats a vertex from the nearest bone it can *see*: the segment from the
//! vertex to the bone must not cross the skin. On a welded body that is one surface.
//! A game character's skin is often several closed pieces that interpenetrate instead
//! of meeting at seams: an arm whose inner end is sunk into the torso, a head set over
//! the neck. The segment from the side of the torso to the shoulder bone then crosses
//! the arm piece's wall, although it never leaves the character: every bone inside the
//! sunk arm is hidden from the torso around it, and the torso takes a farther bone it
//! does see (the platformer chibi's flanks took the hips, its shoulder 40 % of the
//! artist's weight). So a ray to a bone point inside the vertex's own piece is blocked
//! only by that piece (the island of the welded skin the vertex lies on): leaving its
//! own piece is leaving the flesh, crossing another piece sunk into it is not. A ray to
//! a bone outside its own piece (the head bone inside the head piece, seen from the
//! torso under it) is blocked by every wall, as before: the chibi's torso otherwise
//! took its huge head bone. A skin that is one island (a welded or seam-split body) is
//! tested against the whole surface, exactly as before.

use glam::Vec3;

use crate::geom::bvh::Bvh;
use crate::geom::weld;

/// The surfaces the visibility rays of each vertex are tested against.
pub struct Sight<'a> {
    /// The whole skin.
    all: &'a Bvh,
    /// Island of each vertex (empty when the skin is one island).
    island: Vec<u32>,
    /// One tree per island (empty when the skin is one island).
    own: Vec<Bvh>,
}

impl<'a> Sight<'a> {
    /// The islands of the mesh (`positions`: n x 3, `triangles`: m x 3; `all` the tree
    /// over all of it).
    pub fn new(positions: &[Vec3], triangles: &[[u32; 3]], all: &'a Bvh) -> Sight<'a> {
        let (island, count) = weld::islands(positions.len(), triangles);
        let mut tris: Vec<Vec<[u32; 3]>> = vec![Vec::new(); count];
        for t in triangles {
            tris[island[t[0] as usize] as usize].push(*t);
        }
        if tris.iter().filter(|t| !t.is_empty()).count() <= 1 {
            return Sight {
                all,
                island: Vec::new(),
                own: Vec::new(),
            };
        }
        let own = tris.iter().map(|t| Bvh::build(positions, t)).collect();
        Sight { all, island, own }
    }

    /// The tree the rays of vertex `v` are tested against when they end inside its own
    /// island.
    pub fn of(&self, v: usize) -> &Bvh {
        match self.island.get(v) {
            Some(&i) => &self.own[i as usize],
            None => self.all,
        }
    }

    /// Whether the segment from vertex `v` (at `p`) to the bone point `c` leaves the
    /// flesh, over the segment's parameters `(t_min, t_max)`: when `c` lies inside the
    /// vertex's own island (a shoulder bone inside the torso), only that island's walls
    /// block it; otherwise every wall does (a head bone inside the head piece, seen
    /// from the torso under it, stays behind the head's wall).
    pub fn blocked(&self, v: usize, p: Vec3, c: Vec3, t_min: f32, t_max: f32) -> bool {
        let own = self.of(v);
        let tree = if std::ptr::eq(own, self.all) || own.contains(c) {
            own
        } else {
            self.all
        };
        tree.segment_blocked(p, c, t_min, t_max)
    }

    /// The island of vertex `v`; `None` when the skin is one island.
    pub fn island(&self, v: usize) -> Option<u32> {
        self.island.get(v).copied()
    }

    /// One tree per island; empty when the skin is one island.
    pub fn pieces(&self) -> &[Bvh] {
        &self.own
    }

    /// Islands with triangles (1 for a skin that is one surface).
    pub fn islands(&self) -> usize {
        self.own.len().max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Mesh;

    #[test]
    fn a_piece_sunk_into_another_does_not_hide_its_bone() {
        // A torso box and an arm box whose inner end is sunk into it; the arm's bone
        // runs inside the arm. From the torso's side under the arm, the segment to the
        // arm bone crosses the arm's wall: blocked on the whole skin, seen on the
        // torso's own island.
        let mut m = Mesh::cuboid(Vec3::new(-1.0, 0.0, -0.5), Vec3::new(1.0, 2.0, 0.5));
        m.append(&Mesh::cuboid(
            Vec3::new(0.5, 1.5, -0.2),
            Vec3::new(3.0, 1.9, 0.2),
        ));
        let (p, t) = (m.positions, m.triangles);
        let all = Bvh::build(&p, &t);
        let sight = Sight::new(&p, &t, &all);
        assert_eq!(sight.islands(), 2);
        let torso_corner = 1; // (1, 0, -0.5), the torso's lower right corner
        let (from, bone) = (p[torso_corner], Vec3::new(0.8, 1.7, 0.0));
        assert!(all.segment_blocked(from, bone, 1e-4, 0.999));
        assert!(!sight.blocked(torso_corner, from, bone, 1e-4, 0.999));
        // From the arm's far end, a point inside the torso but outside the arm stays
        // behind the arm's wall... and behind the torso's: every wall counts.
        let arm_end = 8 + 1; // (3, 1.5, -0.2)
        assert!(sight.blocked(arm_end, p[arm_end], Vec3::new(0.0, 1.0, 0.0), 1e-4, 0.999));
        // A bone outside the torso stays hidden behind the torso's own wall.
        let outside = Vec3::new(0.0, -1.0, 0.0);
        let inner = 2; // (-1, 2, -0.5), the torso's upper left corner
        assert!(sight.blocked(inner, p[inner], outside, 1e-4, 0.999));
        // One island: the whole surface, as before.
        let cube = Mesh::cuboid(Vec3::ZERO, Vec3::ONE);
        let (q, u) = (cube.positions, cube.triangles);
        let one = Bvh::build(&q, &u);
        let s1 = Sight::new(&q, &u, &one);
        assert_eq!(s1.islands(), 1);
        assert!(std::ptr::eq(s1.of(3), &one));
        assert!(!s1.blocked(3, q[3], Vec3::splat(0.5), 1e-4, 0.999));
    }
}
