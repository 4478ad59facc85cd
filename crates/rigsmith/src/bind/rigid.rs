//! Rigid parts: eyes, teeth, a tongue, hard-surface islands. They must not bend, so
//! every vertex gets exactly one bone at weight 1.0.
//!
//! A part is detected as rigid when
//! * its name has a whole-word token from [`RIGID_NAMES`] (`eyes`, `teeth_lower`,
//!   `EyeLeft`...), or
//! * by shape: every island is closed (each edge shared by exactly two triangles) and
//!   small (bounding-box diagonal below [`SMALL_ISLAND`] of the body height).
//!
//! The bone is the one given, or per island the bone that carries most of the body's
//! weight at the skin nearest to the island ([`rigid_weights_voted`]: teeth follow the
//! head that moves the lips, a ring the finger it sits on), or, when there is no body
//! weight to ask, the deform bone nearest to the island's centroid.
//!
//! An island that votes nearly alike for both sides ([`MIRROR_TIE`]) follows the
//! common ancestor of its bone and that bone's mirror: a part centred between the legs
//! would otherwise follow one leg and cross the mid-plane with its every move.
//!
//! Islands that touch (a vertex of one lies on a vertex of the other, within
//! [`TOUCH`] of the part's size) are one island here ([`touching_islands`]): a hat
//! modelled as a crown and a brim that meet along a seam moves as one piece. Voted
//! apart, men_Farmer's straw hat had its back brim (48 of 512 vertices, over the nape)
//! on `neck_01` and the rest on `head`, so a nod or a turn split the hat.

use glam::Vec3;

use super::bones::Segment;
use super::weld;
use crate::model::{Mesh, Skeleton, Weights};

pub use crate::model::body::RIGID_NAMES;

pub use crate::model::{rigid_by_name, rigid_by_shape, SMALL_ISLAND};

/// Islands that touch are one: vertices within this fraction of the mesh's bounding-box
/// diagonal of each other are welded before the islands are found.
pub const TOUCH: f32 = 1e-5;

/// The islands of `mesh` with touching ones joined ([`TOUCH`]): for each vertex its
/// island id (0..k, in order of first vertex) and the number of islands `k`.
pub fn touching_islands(mesh: &Mesh) -> (Vec<u32>, usize) {
    if mesh.positions.is_empty() {
        return (Vec::new(), 0);
    }
    let (lo, hi) = mesh.bounds();
    let (map, m) = weld::weld_near(&mesh.positions, TOUCH * (hi - lo).length());
    let tris: Vec<[u32; 3]> = mesh
        .triangles
        .iter()
        .map(|t| t.map(|v| map[v as usize]))
        .collect();
    let (welded, k) = weld::islands(m, &tris);
    (map.iter().map(|&w| welded[w as usize]).collect(), k)
}

/// Rigid weights for `mesh`: every vertex 1.0 on `bone` when given, else per island on
/// the segment nearest to the island's centroid. `segments` are the deform bones.
pub(crate) fn rigid_weights(mesh: &Mesh, segments: &[Segment], bone: Option<u32>) -> Weights {
    let n = mesh.positions.len();
    if let Some(b) = bone {
        return Weights::rigid(n, b);
    }
    let (label, k) = touching_islands(mesh);
    let pick = nearest_by_island(mesh, &label, k, segments);
    let mut w = Weights::empty(n);
    for v in 0..n {
        w.add(v, pick[label[v] as usize], 1.0);
    }
    w
}

/// Per island (`label` of each vertex, `k` islands) the segment's bone nearest to the
/// island's centroid (ties to the lower bone index; 0 without segments).
fn nearest_by_island(mesh: &Mesh, label: &[u32], k: usize, segments: &[Segment]) -> Vec<u32> {
    let mut sum = vec![Vec3::ZERO; k];
    let mut cnt = vec![0u32; k];
    for (v, p) in mesh.positions.iter().enumerate() {
        sum[label[v] as usize] += *p;
        cnt[label[v] as usize] += 1;
    }
    (0..k)
        .map(|l| {
            let c = sum[l] / cnt[l].max(1) as f32;
            segments
                .iter()
                .map(|s| ((s.closest(c) - c).length_squared(), s.bone))
                .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
                .map_or(0, |x| x.1)
        })
        .collect()
}

/// An island whose vote for the bones of one side is at least this share of its vote
/// for the other side's straddles the mid-plane: it follows the nearest common deform
/// ancestor of its bone and that bone's mirror.
pub const MIRROR_TIE: f64 = 0.6;

/// The bone an island goes to from its `tally` of votes: the largest (ties to the lower
/// bone index); when `s` is given, that bone is sided and the island votes for the
/// other side's bones nearly as much as for its side's ([`MIRROR_TIE`]), the nearest
/// common deform ancestor of the bone and its mirror instead: a part centred between
/// the legs (a belt's buckle, a helper shape around the feet) follows the pelvis, not
/// one leg, whose every move it would carry across the mid-plane.
fn island_bone(tally: &std::collections::BTreeMap<u32, f64>, s: Option<&Skeleton>) -> Option<u32> {
    use crate::model::naming::{mirror_name, side_of, Side};
    let (&b, _) = tally
        .iter()
        .max_by(|a, b| a.1.total_cmp(b.1).then(b.0.cmp(a.0)))?;
    let Some(s) = s else { return Some(b) };
    let name = &s.bones.get(b as usize)?.name;
    let side = side_of(name);
    let Some(m) = (side != Side::Center)
        .then(|| s.find(&mirror_name(name)))
        .flatten()
    else {
        return Some(b);
    };
    let on = |want: Side| {
        tally
            .iter()
            .filter(|(&k, _)| {
                s.bones
                    .get(k as usize)
                    .is_some_and(|x| side_of(&x.name) == want)
            })
            .map(|(_, v)| v)
            .sum::<f64>()
    };
    let (own, other) = (on(side), on(side.mirror()));
    if other < MIRROR_TIE * own {
        return Some(b);
    }
    let mut a = s.bones[b as usize].parent;
    while let Some(k) = a {
        if s.is_ancestor(k, m) && s.bones[k].deform {
            return Some(k as u32);
        }
        a = s.bones[k].parent;
    }
    Some(b)
}

/// Rigid weights chosen by the skin around each island: `votes` are the body weights
/// transferred onto the part's vertices ([`super::transfer`]); each island goes, 1.0,
/// to the bone with the largest summed vote (ties to the lower bone index; with the
/// skeleton `s`, an island voting alike for a bone and its mirror to their common
/// ancestor: [`MIRROR_TIE`]). Teeth thus follow the head that moves the lips around
/// them, not the nearer neck bone. Islands without any vote fall back to the nearest
/// segment.
pub fn rigid_weights_voted(
    mesh: &Mesh,
    votes: &Weights,
    segments: &[Segment],
    s: Option<&Skeleton>,
) -> Weights {
    let n = mesh.positions.len();
    let (label, k) = touching_islands(mesh);
    let mut tally: Vec<std::collections::BTreeMap<u32, f64>> = vec![Default::default(); k];
    for v in 0..n.min(votes.len()) {
        for i in &votes.vertices[v] {
            *tally[label[v] as usize].entry(i.bone).or_default() += i.weight as f64;
        }
    }
    // Once per island; the nearest segment only for islands without a vote.
    let voted: Vec<Option<u32>> = tally.iter().map(|t| island_bone(t, s)).collect();
    let nearest = if voted.iter().any(Option::is_none) {
        nearest_by_island(mesh, &label, k, segments)
    } else {
        Vec::new()
    };
    let mut w = Weights::empty(n);
    for v in 0..n {
        let l = label[v] as usize;
        w.add(v, voted[l].unwrap_or_else(|| nearest[l]), 1.0);
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Influence;

    /// Two triangles with their own vertices: the second starts at `gap` along X from
    /// the first's corner (0: they touch there).
    fn two(gap: f32) -> Mesh {
        let a = [Vec3::ZERO, Vec3::X, Vec3::Y];
        let b = [
            Vec3::X * (1.0 + gap),
            Vec3::X * (2.0 + gap),
            Vec3::new(1.0 + gap, 1.0, 0.0),
        ];
        Mesh {
            positions: a.into_iter().chain(b).collect(),
            triangles: vec![[0, 1, 2], [3, 4, 5]],
            ..Default::default()
        }
    }

    #[test]
    fn islands_that_touch_vote_as_one() {
        // The first island's skin says bone 1, the second's (a little less) bone 2.
        let votes = |m: &Mesh| Weights {
            vertices: (0..m.positions.len())
                .map(|v| {
                    vec![Influence {
                        bone: if v < 3 { 1 } else { 2 },
                        weight: if v < 3 { 1.0 } else { 0.9 },
                    }]
                })
                .collect(),
        };
        let segs = [
            Segment {
                bone: 1,
                head: Vec3::ZERO,
                tail: Vec3::Y,
            },
            Segment {
                bone: 2,
                head: Vec3::X * 2.0,
                tail: Vec3::new(2.0, 1.0, 0.0),
            },
        ];
        let touching = two(0.0);
        assert_eq!(touching_islands(&touching).1, 1);
        let w = rigid_weights_voted(&touching, &votes(&touching), &segs, None);
        assert!(w
            .vertices
            .iter()
            .all(|v| v[0].bone == 1 && v[0].weight == 1.0));
        // Apart, each island takes its own skin's bone.
        let apart = two(0.1);
        assert_eq!(touching_islands(&apart).1, 2);
        let w = rigid_weights_voted(&apart, &votes(&apart), &segs, None);
        assert_eq!(w.vertices[0][0].bone, 1);
        assert_eq!(w.vertices[5][0].bone, 2);
    }

    #[test]
    fn an_island_voting_alike_for_both_legs_follows_their_common_ancestor() {
        use crate::model::Bone;
        let b = |n: &str, p: Option<usize>| Bone::new(n, p, Vec3::ZERO, Vec3::Y);
        let (mut s, _) = Skeleton::from_unordered(vec![
            b("root", None),
            b("pelvis", Some(0)),
            b("thigh_l", Some(1)),
            b("thigh_r", Some(1)),
        ])
        .unwrap();
        s.bones[0].deform = false;
        let tally = |l: f64, r: f64| std::collections::BTreeMap::from([(2u32, l), (3u32, r)]);
        // Alike (0.9 against 1.0): the pelvis; not alike (0.5): the larger leg.
        // (Sides are summed: men_Farmer's helper ball votes 7.7 left, 11.0 right.)
        assert_eq!(island_bone(&tally(1.0, 0.9), Some(&s)), Some(1));
        assert_eq!(island_bone(&tally(0.5, 1.0), Some(&s)), Some(3));
        // Without the skeleton, the larger vote as before.
        assert_eq!(island_bone(&tally(1.0, 0.9), None), Some(2));
        // A centre bone has no mirror: kept.
        let centre = std::collections::BTreeMap::from([(1u32, 1.0)]);
        assert_eq!(island_bone(&centre, Some(&s)), Some(1));
    }
}
