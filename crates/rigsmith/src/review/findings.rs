//! The vertices behind a failed pose check, for a viewer to highlight: the triangles of
//! the new self-intersections (all of them, or those at the collar and the chin) and
//! the garment vertices newly inside the body, found by the review's own measures
//! ([`super::intersect::new_pair_list`], [`super::penetration::new_inside`]) on the same
//! welded skin ([`crate::model::Body`]).

use std::cell::OnceCell;
use std::collections::{BTreeSet, HashSet};

use glam::Vec3;

use super::rubric::poses::{collar_chin_segment, COLLAR_CHIN_RADIUS_H};
use super::{intersect, penetration, Skinning};
use crate::geom::bvh::Bvh;
use crate::humanoid::Roles;
use crate::model::Character;
use crate::pose::NamedPose;

/// The skin of `c` as the review welds it: the union mesh and, per part, each
/// vertex's index in it (empty for parts that are not skin).
fn skin(c: &Character) -> Option<(crate::model::Mesh, Vec<Vec<u32>>)> {
    if c.is_one_welded_part() {
        let n = c.parts[0].mesh.positions.len() as u32;
        return Some((c.parts[0].mesh.clone(), vec![(0..n).collect()]));
    }
    let b = c.body().ok()?;
    Some((b.mesh, b.map))
}

/// The offending vertices of the pose check `kind` (the id's end after
/// `deform.POSE.`: `self_intersections`, `collar_chin`, `penetration.PART`) of `c` in
/// pose `np`, as `(part, vertex)` pairs in part order, posed with `skinning` as the
/// review measured. Empty for another kind, or when the rig lacks what the measure
/// needs.
pub fn offending_vertices(
    c: &Character,
    np: &NamedPose,
    kind: &str,
    skinning: Skinning,
) -> Vec<(usize, usize)> {
    Findings::new(c).offending_vertices(np, kind, skinning)
}

/// What [`offending_vertices`] measures at rest, computed once for every pose and
/// check of one character: the welded skin, its intersecting triangle pairs and its
/// BVH. A report with many flagged poses asks for each of them.
pub struct Findings<'a> {
    c: &'a Character,
    skin: OnceCell<Option<(crate::model::Mesh, Vec<Vec<u32>>)>>,
    rest_pairs: OnceCell<HashSet<(u32, u32)>>,
    /// The skin's interpenetrating pieces (hidden junctions are not a collar-and-chin
    /// finding).
    rest_pieces: OnceCell<Option<intersect::Pieces>>,
    rest_bvh: OnceCell<Bvh>,
}

impl<'a> Findings<'a> {
    /// Nothing is computed until a check asks for it.
    pub fn new(c: &'a Character) -> Self {
        Findings {
            c,
            skin: OnceCell::new(),
            rest_pairs: OnceCell::new(),
            rest_pieces: OnceCell::new(),
            rest_bvh: OnceCell::new(),
        }
    }

    /// [`offending_vertices`] of this character, sharing the rest measures.
    pub fn offending_vertices(
        &self,
        np: &NamedPose,
        kind: &str,
        skinning: Skinning,
    ) -> Vec<(usize, usize)> {
        let c = self.c;
        let Some(s) = c.skeleton.as_ref() else {
            return Vec::new();
        };
        let Some((mesh, map)) = self.skin.get_or_init(|| skin(c)).as_ref() else {
            return Vec::new();
        };
        self.measure(s, mesh, map, np, kind, skinning)
    }

    fn measure(
        &self,
        s: &crate::model::Skeleton,
        mesh: &crate::model::Mesh,
        map: &[Vec<u32>],
        np: &NamedPose,
        kind: &str,
        skinning: Skinning,
    ) -> Vec<(usize, usize)> {
        let c = self.c;
        let (lo, hi) = c.bounds();
        let h = hi.y - lo.y;
        let (posed, _) = super::posed_character(c, np, skinning);
        let mut posed_skin = mesh.positions.clone();
        for (pi, m) in map.iter().enumerate() {
            for (v, &u) in m.iter().enumerate() {
                posed_skin[u as usize] = posed[pi][v];
            }
        }
        let mut out = BTreeSet::new();
        match kind {
            "self_intersections" | "collar_chin" => {
                let rest = self.rest_pairs.get_or_init(|| {
                    intersect::intersecting_pairs(&mesh.positions, &mesh.triangles, None)
                        .into_iter()
                        .collect()
                });
                let pairs = intersect::new_pair_list(
                    &mesh.positions,
                    &posed_skin,
                    &mesh.triangles,
                    rest,
                    1e-4 * h,
                );
                let near = if kind == "collar_chin" {
                    let rig = Roles::of_character(c).unwrap_or_default();
                    let m = crate::pose::posed_matrices(s, &np.pose);
                    let Some((a, b)) = collar_chin_segment(s, &rig, &m) else {
                        return Vec::new();
                    };
                    Some((a, b, COLLAR_CHIN_RADIUS_H * h))
                } else {
                    None
                };
                let centroid = |t: u32| -> Vec3 {
                    mesh.triangles[t as usize]
                        .iter()
                        .map(|&v| posed_skin[v as usize])
                        .sum::<Vec3>()
                        / 3.0
                };
                let pieces = self
                    .rest_pieces
                    .get_or_init(|| intersect::Pieces::of(&mesh.positions, &mesh.triangles));
                let mut tris = BTreeSet::new();
                for (t1, t2) in pairs {
                    if pieces.as_ref().is_some_and(|x| x.hidden(t1, t2)) {
                        continue;
                    }
                    let keep = near.map_or(true, |(a, b, r)| {
                        [t1, t2].iter().any(|&t| {
                            let p = centroid(t);
                            (crate::geom::segment::closest_on_segment(p, a, b) - p).length() <= r
                        })
                    });
                    if keep {
                        tris.insert(t1);
                        tris.insert(t2);
                    }
                }
                let union: BTreeSet<u32> = tris
                    .iter()
                    .flat_map(|&t| mesh.triangles[t as usize])
                    .collect();
                for (pi, m) in map.iter().enumerate() {
                    for (v, u) in m.iter().enumerate() {
                        if union.contains(u) {
                            out.insert((pi, v));
                        }
                    }
                }
            }
            _ => {
                let Some(part) = kind.strip_prefix("penetration.") else {
                    return Vec::new();
                };
                let Some(g) = c.parts.iter().position(|p| p.name == part) else {
                    return Vec::new();
                };
                let rest_bvh = self
                    .rest_bvh
                    .get_or_init(|| Bvh::build(&mesh.positions, &mesh.triangles));
                let rest_inside = penetration::inside_flags(rest_bvh, &c.parts[g].mesh.positions);
                let posed_bvh = Bvh::build(&posed_skin, &mesh.triangles);
                for v in penetration::new_inside(&posed_bvh, &posed[g], &rest_inside) {
                    out.insert((g, v));
                }
            }
        }
        out.into_iter().collect()
    }
}
