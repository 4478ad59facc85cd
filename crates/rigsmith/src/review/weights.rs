//! Weight numbers the review measures with the character's part classes: rigid parts
//! and garments weighted unlike the body under them. Every other weight check
//! (unweighted, empty majors, normalization, influences, non-deform bones, symmetry) is
//! defined once, in [`crate::bind::report`].
//!
//! Each function returns plain numbers; [`super::rubric`] turns them into checks.

use glam::Vec3;

use crate::model::Weights;

/// For a rigid part: the largest `1 - top weight` over its vertices plus 1 for every
/// extra bone used as the top influence within one island of `mesh` (each piece of a
/// rigid part follows exactly one bone: both eyeballs of an `eyes` part, each on its
/// own eye bone, are rigid).
pub(crate) fn rigid_error(mesh: &crate::model::Mesh, w: &Weights) -> f32 {
    let (island, n) = crate::geom::weld::islands(mesh.positions.len(), &mesh.triangles);
    let mut tops = vec![std::collections::BTreeSet::new(); n.max(1)];
    let mut dev = 0.0f32;
    for (v, l) in w.vertices.iter().enumerate() {
        let k = island.get(v).map_or(0, |&k| k as usize).min(n.max(1) - 1);
        match l.iter().max_by(|a, b| a.weight.total_cmp(&b.weight)) {
            Some(t) => {
                tops[k].insert(t.bone);
                dev = dev.max((1.0 - t.weight).abs());
            }
            None => dev = 1.0,
        }
    }
    dev + tops
        .iter()
        .map(|t| t.len().saturating_sub(1) as f32)
        .sum::<f32>()
}

/// The spatial hash grid, defined in [`crate::geom::grid`].
pub use crate::geom::grid::Grid;

/// Half the L1 distance between two vertices' weights, with `b`'s bones mapped
/// through `map` (0 = identical, 1 = disjoint).
pub(crate) fn weight_distance(
    a: &[crate::Influence],
    b: &[crate::Influence],
    map: &[usize],
) -> f32 {
    let mut acc: Vec<(usize, f32)> = a.iter().map(|i| (i.bone as usize, i.weight)).collect();
    for i in b {
        let bone = map.get(i.bone as usize).copied().unwrap_or(i.bone as usize);
        match acc.iter_mut().find(|x| x.0 == bone) {
            Some(x) => x.1 -= i.weight,
            None => acc.push((bone, -i.weight)),
        }
    }
    0.5 * acc.iter().map(|x| x.1.abs()).sum::<f32>()
}

/// Share (percent) of a garment's vertices whose weights differ from the nearest body
/// vertex's by more than half (weight distance > 0.5): a garment not weighted from
/// the body it covers.
pub(crate) fn garment_mismatch(
    garment: &[Vec3],
    gw: &Weights,
    body_grid: &Grid,
    bw: &Weights,
    nb: usize,
) -> f32 {
    let ident: Vec<usize> = (0..nb).collect();
    let mut bad = 0;
    for (i, p) in garment.iter().enumerate() {
        let Some(j) = body_grid.nearest(*p, 8) else {
            continue;
        };
        let (Some(a), Some(b)) = (gw.vertices.get(i), bw.vertices.get(j)) else {
            continue;
        };
        if weight_distance(a, b, &ident) > 0.5 {
            bad += 1;
        }
    }
    100.0 * bad as f32 / garment.len().max(1) as f32
}

#[cfg(test)]
mod tests {
    use super::rigid_error;
    use crate::model::{Influence, Mesh, Weights};
    use glam::Vec3;

    /// Two separate triangles (two islands), their vertices on the bones given.
    fn two_pieces(bones: [u32; 6]) -> (Mesh, Weights) {
        let m = Mesh {
            positions: (0..6)
                .map(|i| Vec3::new(i as f32, 0.0, (i % 3) as f32))
                .collect(),
            triangles: vec![[0, 1, 2], [3, 4, 5]],
            ..Default::default()
        };
        let w = Weights {
            vertices: bones
                .iter()
                .map(|&b| {
                    vec![Influence {
                        bone: b,
                        weight: 1.0,
                    }]
                })
                .collect(),
        };
        (m, w)
    }

    #[test]
    fn each_piece_of_a_rigid_part_follows_one_bone() {
        // Two eyeballs, each on its own eye bone: rigid.
        let (m, w) = two_pieces([3, 3, 3, 4, 4, 4]);
        assert_eq!(rigid_error(&m, &w), 0.0);
        // Positive control: one eyeball split between two bones.
        let (m, w) = two_pieces([3, 3, 5, 4, 4, 4]);
        assert_eq!(rigid_error(&m, &w), 1.0);
        // And a vertex at half weight.
        let (m, mut w) = two_pieces([3, 3, 3, 4, 4, 4]);
        w.vertices[0][0].weight = 0.5;
        assert_eq!(rigid_error(&m, &w), 0.5);
    }
}
