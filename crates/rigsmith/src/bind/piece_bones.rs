//! The bones each closed piece of the skin carries.
//!
//! A game character's skin is often several closed pieces that interpenetrate instead
//! of meeting at seams: a head set over the neck, arms sunk into the torso, feet sunk
//! into the legs. Each piece is one solid: the bones that run inside it move it, a
//! bone that stays outside it does not. Left to distance (bone heat's reach, the
//! volume's heat), the pieces take the bones beside them: the platformer chibi's head,
//! a ball a third of its height resting on its shoulders, took a quarter of its lower
//! half from the upper arms and clavicles, so the head sagged with the arm in `arm_down`
//! and the eyes sank into it; its torso took the upper arm's weight over the chest,
//! which lifted with the arm in `arm_up`. The artist gives the head piece only `Head`,
//! the torso no `UpperArm`.
//!
//! So when at least two pieces (islands of the welded skin) hold bones, each such piece
//! is restricted to the bones it **holds**, at least [`MIN_INSIDE`] of their length
//! inside it ([`SAMPLES`] points along the bone's interior, [`Bvh::contains`]). A sunk
//! end is held by the bone at its joint too (the chibi's arm piece holds 0.7 of
//! `Shoulder`). The parents of the held bones were allowed as well at first: the arm
//! piece's sunk end then took the torso bone (0.45 where the artist paints `Shoulder`
//! and `UpperArm`), and the arm poses lost 0.03 to 0.10 % H. A bone no piece holds is left free to every piece. A piece that holds no bone but is
//! sunk into one that does (the chibi's ears set into its head ball, a tuft of hair
//! modelled as skin, a button: at least [`SUNK_MIN`] of its triangle corners inside
//! the other) follows one bone: of the bones that piece holds, the nearest to the
//! junction (the mean of its corners inside the other). Free, the chibi's ear tips
//! took 6 units of weight from the right forearm and hand, and the ear bent down with
//! the arm in `arm_down`; given the bones the head ball holds (it rests sunk on the
//! shoulders and holds 0.15 of each clavicle), 10 units from the clavicles. A piece holding no bone and sunk into none is not restricted. A skin that is one surface (a welded
//! or seam-split body) has one island and is never restricted, so it weighs exactly as
//! before.
//!
//! The threshold, measured on the Quaternius characters against their artist weights:
//! the bones the artist uses on a piece lie in it for at least 0.22 of their length
//! (men_Farmer's trousers hold 0.22 of `Abdomen`, men_Casual's feet 0.22 of
//! `LowerLeg`); the chibi's torso holds 0.075 of each `UpperArm` (the arm piece's
//! sunk end), which the artist does not use there.

use glam::Vec3;
use rayon::prelude::*;

use super::bones::Segment;
use crate::geom::bvh::Bvh;
use crate::geom::segment::closest_on_segment;

/// The share of a bone's length that must lie inside a piece for the piece to hold it.
pub const MIN_INSIDE: f32 = 0.15;

/// Points sampled along a bone's interior (at `(k + 0.5) / SAMPLES`) for the share
/// inside a piece.
pub const SAMPLES: usize = 40;

/// The bones each island of a skin may take.
#[derive(Debug, Clone, Default)]
pub struct PieceBones {
    /// Per island, per segment: whether a vertex of that island may take the bone;
    /// `None`: every bone (a piece that holds none). Empty: no restriction at all.
    allowed: Vec<Option<Vec<bool>>>,
}

impl PieceBones {
    /// The bones of every island: `pieces` one tree per island of the skin (in island
    /// order, as [`super::sight::Sight::pieces`]), `segments` the deform bones.
    pub fn new(pieces: &[Bvh], segments: &[Segment]) -> PieceBones {
        let n = segments.len();
        let held: Vec<Vec<bool>> = pieces
            .par_iter()
            .map(|tree| {
                segments
                    .iter()
                    .map(|s| !tree.is_empty() && inside_share(tree, s) >= MIN_INSIDE)
                    .collect()
            })
            .collect();
        let holds = |p: usize| held[p].iter().any(|&h| h);
        if (0..pieces.len()).filter(|&p| holds(p)).count() < 2 {
            return PieceBones::default();
        }
        let free: Vec<bool> = (0..n).map(|i| !held.iter().any(|h| h[i])).collect();
        let own = |p: usize| {
            let mut a = free.clone();
            for i in (0..n).filter(|&i| held[p][i]) {
                a[i] = true;
            }
            a
        };
        let allowed = (0..pieces.len())
            .map(|p| {
                if holds(p) {
                    return Some(own(p));
                }
                let (q, junction) = host(pieces, p, &holds)?;
                let seg_dist =
                    |s: &Segment, p: Vec3| (closest_on_segment(p, s.head, s.tail) - p).length();
                let near = (0..n).filter(|&i| held[q][i]).min_by(|&a, &b| {
                    seg_dist(&segments[a], junction).total_cmp(&seg_dist(&segments[b], junction))
                })?;
                Some((0..n).map(|i| i == near).collect())
            })
            .collect();
        PieceBones { allowed }
    }

    /// Whether a vertex of island `island` (`None`: the skin is one island) may take
    /// segment `seg`.
    pub fn allows(&self, island: Option<u32>, seg: usize) -> bool {
        match island.and_then(|i| self.allowed.get(i as usize)) {
            Some(Some(a)) => a.get(seg).copied().unwrap_or(true),
            _ => true,
        }
    }

    /// Whether any island is restricted.
    pub fn restricts(&self) -> bool {
        self.allowed.iter().any(|a| a.is_some())
    }

    /// Pieces restricted to the bones they hold.
    pub fn restricted_pieces(&self) -> usize {
        self.allowed.iter().filter(|a| a.is_some()).count()
    }
}

/// The piece that piece `p` (holding no bone) is sunk into, and the junction (the mean
/// of `p`'s triangle corners inside it): of the pieces that hold bones (`holds`), the
/// one containing the most of `p`'s corners, when it contains at least [`SUNK_MIN`] of
/// them; `None` for a piece lying apart.
fn host(pieces: &[Bvh], p: usize, holds: &dyn Fn(usize) -> bool) -> Option<(usize, Vec3)> {
    let corners: Vec<Vec3> = pieces[p].tris().iter().flatten().copied().collect();
    if corners.is_empty() {
        return None;
    }
    let (best, inside) = (0..pieces.len())
        .filter(|&q| q != p && holds(q) && !pieces[q].is_empty())
        .map(|q| {
            let inside: Vec<Vec3> = corners
                .iter()
                .copied()
                .filter(|&c| pieces[q].contains(c))
                .collect();
            (q, inside)
        })
        .max_by_key(|(q, c)| (c.len(), std::cmp::Reverse(*q)))?;
    if inside.is_empty() || (inside.len() as f32) < SUNK_MIN * corners.len() as f32 {
        return None;
    }
    Some((best, inside.iter().sum::<Vec3>() / inside.len() as f32))
}

/// The share of its triangle corners a piece holding no bone must have inside a piece
/// that holds bones to take that piece's bones ([`host`]).
pub const SUNK_MIN: f32 = 0.02;

/// The share of the interior of `s` inside the closed surface `tree`.
pub fn inside_share(tree: &Bvh, s: &Segment) -> f32 {
    let inside = (0..SAMPLES)
        .filter(|&k| {
            let t = (k as f32 + 0.5) / SAMPLES as f32;
            tree.contains(s.head + (s.tail - s.head) * t)
        })
        .count();
    inside as f32 / SAMPLES as f32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Mesh;
    use glam::Vec3;

    fn seg(bone: u32, a: [f32; 3], b: [f32; 3]) -> Segment {
        Segment {
            bone,
            head: Vec3::from(a),
            tail: Vec3::from(b),
        }
    }

    /// A torso box, a head box resting on it and an arm box sunk into the torso's side.
    fn pieces() -> Vec<Bvh> {
        let torso = Mesh::cuboid(Vec3::new(-1.0, 0.0, -0.5), Vec3::new(1.0, 2.0, 0.5));
        let head = Mesh::cuboid(Vec3::new(-1.2, 1.8, -0.8), Vec3::new(1.2, 4.0, 0.8));
        let arm = Mesh::cuboid(Vec3::new(0.95, 1.2, -0.3), Vec3::new(3.0, 1.7, 0.3));
        [torso, head, arm]
            .iter()
            .map(|m| Bvh::build(&m.positions, &m.triangles))
            .collect()
    }

    #[test]
    fn each_piece_takes_only_the_bones_it_holds() {
        let segs = [
            seg(0, [0.0, 0.2, 0.0], [0.0, 1.6, 0.0]), // spine, in the torso
            seg(1, [0.0, 1.9, 0.0], [0.0, 3.8, 0.0]), // head, 0.05 in the torso
            seg(2, [0.3, 1.45, 0.0], [0.9, 1.45, 0.0]), // clavicle, in the torso
            seg(3, [0.9, 1.45, 0.0], [2.9, 1.45, 0.0]), // upper arm, 0.05 in the torso
        ];
        let pb = PieceBones::new(&pieces(), &segs);
        assert!(pb.restricts());
        assert_eq!(pb.restricted_pieces(), 3);
        // The torso: spine and clavicle; not the head nor the arm beside it.
        assert!(pb.allows(Some(0), 0) && pb.allows(Some(0), 2));
        assert!(!pb.allows(Some(0), 1) && !pb.allows(Some(0), 3));
        // The head: its bone; not the spine it rests on, nor the arm under it.
        assert!(pb.allows(Some(1), 1) && !pb.allows(Some(1), 0));
        assert!(!pb.allows(Some(1), 2) && !pb.allows(Some(1), 3));
        // The arm: its bone, not the clavicle (its parent, outside the arm piece).
        assert!(pb.allows(Some(2), 3) && !pb.allows(Some(2), 2));
        assert!(!pb.allows(Some(2), 0) && !pb.allows(Some(2), 1));
        // One island: nothing restricted.
        assert!(pb.allows(None, 3));
    }

    #[test]
    fn a_piece_sunk_into_another_and_holding_no_bone_follows_its_nearest_bone() {
        // An ear box set into the top of the head box, holding no bone; a box floating
        // apart, holding none either.
        let mut trees = pieces();
        let ear = Mesh::cuboid(Vec3::new(0.8, 3.7, -0.2), Vec3::new(1.6, 5.0, 0.2));
        let apart = Mesh::cuboid(Vec3::new(5.0, 0.0, -0.2), Vec3::new(5.5, 0.5, 0.2));
        for m in [ear, apart] {
            trees.push(Bvh::build(&m.positions, &m.triangles));
        }
        let segs = [
            seg(0, [0.0, 0.2, 0.0], [0.0, 1.6, 0.0]),
            seg(1, [0.0, 1.9, 0.0], [0.0, 3.8, 0.0]),
            seg(2, [0.3, 1.45, 0.0], [0.9, 1.45, 0.0]),
            seg(3, [0.9, 1.45, 0.0], [2.9, 1.45, 0.0]),
        ];
        let pb = PieceBones::new(&trees, &segs);
        assert_eq!(pb.restricted_pieces(), 4);
        // The ear: the head's bone only, not the arm the reach might hand it.
        assert!(pb.allows(Some(3), 1));
        assert!((0..4).filter(|&i| i != 1).all(|i| !pb.allows(Some(3), i)));
        // The box apart: every bone.
        assert!((0..4).all(|i| pb.allows(Some(4), i)));
    }

    #[test]
    fn one_piece_holding_bones_restricts_nothing() {
        let trees = pieces();
        let segs = [seg(0, [0.0, 0.2, 0.0], [0.0, 1.6, 0.0])];
        let pb = PieceBones::new(&trees, &segs);
        assert!(!pb.restricts());
        assert!(pb.allows(Some(1), 0));
    }

    #[test]
    fn the_share_inside_counts_the_interior_samples() {
        let trees = pieces();
        let half = seg(0, [0.0, 1.0, 0.0], [0.0, 3.0, 0.0]);
        assert!((inside_share(&trees[0], &half) - 0.5).abs() < 1e-6);
        assert_eq!(inside_share(&trees[2], &half), 0.0);
    }
}
