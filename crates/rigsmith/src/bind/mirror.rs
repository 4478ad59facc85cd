//! Weights made alike on both sides of a symmetric character.
//!
//! A rigger paints one side and mirrors it to the other. The binder's routes are not
//! symmetric by construction: bone heat casts its visibility rays from a set of seed
//! vertices chosen in vertex order and breaks ties by bone order, and a character's
//! vertex order is not mirrored; on a low-poly limb one vertex seeing one bone or the
//! other moves a whole edge ring. The knight's right shoulder took `upperarm_twist_01`
//! 0.71 where the left one took 0.47 (`weights.symmetry` 0.072, limit 0.05).
//!
//! So when the skeleton is symmetric about a plane x = c (every deform bone's mirror by
//! name lies at its mirror image within [`BONE_TOL_H`] of H, every centre bone on the
//! plane), every vertex of the welded skin whose mirror image lies within
//! [`MIRROR_TOL_H`] of a skin vertex (itself, on the mid-line) takes the mean of its
//! own weights and that vertex's, bones mirrored by name. The binder does it before the
//! garments and the hair copy the skin, so they follow it. A vertex without a mirror
//! (a sleeve rolled up on one arm, a wound modelled on one cheek) keeps its weights,
//! and a skeleton that is not symmetric (a pose modelled into it, a bone on one side
//! only) leaves every weight as it is, with the reason.

use glam::Vec3;
use rayon::prelude::*;

use crate::geom::grid::Grid;
use crate::model::naming::{mirror_name, Side};
use crate::model::{Influence, Skeleton, Weights};

/// A bone's mirror must lie at its mirror image within this share of H.
pub const BONE_TOL_H: f32 = 5e-3;

/// How far (H) from a vertex's mirror image its mirror vertex may lie: the nearest
/// vertex within this distance is its mirror (here, in `weights.symmetry` and in the
/// mirror fix alike).
pub const MIRROR_TOL_H: f32 = 2e-3;

/// Each bone's mirror by name (`hand_l` -> `hand_r`): its index, the bone itself for a
/// centre bone or a bone whose mirror the skeleton lacks.
pub fn bone_mirrors(s: &Skeleton) -> Vec<u32> {
    s.bones
        .iter()
        .enumerate()
        .map(|(i, b)| match b.side {
            Side::Center => i as u32,
            _ => s.find(&mirror_name(&b.name)).map_or(i as u32, |j| j as u32),
        })
        .collect()
}

/// For each of `positions`, the nearest of them within `tol` of its mirror image about
/// the plane x = `plane` (itself on the plane), if any.
pub fn mirror_partners(positions: &[Vec3], plane: f32, tol: f32) -> Vec<Option<usize>> {
    let grid = Grid::new(positions, tol);
    positions
        .par_iter()
        .map(|p| grid.nearest_within(Vec3::new(2.0 * plane - p.x, p.y, p.z), tol))
        .collect()
}

/// The mirror plane x = c of `s` and each bone's mirror ([`bone_mirrors`]), or why the
/// skeleton is not symmetric. `h`: the character's height.
pub fn mirror_plane(s: &Skeleton, h: f32) -> Result<(f32, Vec<u32>), String> {
    let mirror = bone_mirrors(s);
    let deform = |i: usize| s.bones[i].deform;
    if let Some(b) = (0..s.len())
        .find(|&i| deform(i) && s.bones[i].side != Side::Center && mirror[i] as usize == i)
    {
        return Err(format!("bone {} has no mirror", s.bones[b].name));
    }
    let sided: Vec<usize> = (0..s.len())
        .filter(|&i| deform(i) && mirror[i] as usize != i)
        .collect();
    if sided.is_empty() {
        return Err("the skeleton has no left and right bones".into());
    }
    let c = sided
        .iter()
        .map(|&i| 0.5 * (s.bones[i].head.x + s.bones[mirror[i] as usize].head.x))
        .sum::<f32>()
        / sided.len() as f32;
    let tol = BONE_TOL_H * h;
    let flip = |p: Vec3| Vec3::new(2.0 * c - p.x, p.y, p.z);
    for (i, b) in s.bones.iter().enumerate().filter(|(_, b)| b.deform) {
        let m = &s.bones[mirror[i] as usize];
        let off = (flip(b.head) - m.head)
            .length()
            .max((flip(b.tail) - m.tail).length());
        if off > tol {
            return Err(format!(
                "bone {} lies {:.4} H from the mirror image of {}",
                b.name,
                off / h,
                m.name
            ));
        }
    }
    Ok((c, mirror))
}

/// Makes the weights `w` of the mesh `positions` alike on both sides of the skeleton
/// `s` (same frame; `h` the character's height in it; see the module docs), keeping at
/// most `max_influences` per vertex. Returns the number of vertices that took their
/// mirror's share, or why nothing changed. ([`super::fix::mirror_weights`] instead
/// copies one side onto the other, as a fix the user asks for.)
pub fn symmetrize(
    positions: &[Vec3],
    w: &mut Weights,
    s: &Skeleton,
    h: f32,
    max_influences: usize,
) -> Result<usize, String> {
    let (plane, mirror) = mirror_plane(s, h)?;
    let n = positions.len().min(w.vertices.len());
    let partner = mirror_partners(&positions[..n], plane, MIRROR_TOL_H * h);
    let old = &w.vertices;
    let new: Vec<Option<Vec<Influence>>> = (0..n)
        .into_par_iter()
        .map(|v| {
            let u = partner[v]?;
            let flipped = old[u].iter().map(|i| Influence {
                bone: mirror.get(i.bone as usize).copied().unwrap_or(i.bone),
                weight: i.weight,
            });
            Some(super::cleanup::mix(&old[v], flipped, 0.5))
        })
        .collect();
    let mut changed = 0;
    for (v, l) in new.into_iter().enumerate() {
        if let Some(l) = l {
            w.vertices[v] = l;
            changed += 1;
        }
    }
    super::cleanup::keep_largest_smooth(w, max_influences);
    Ok(changed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Bone, Mesh};

    /// A spine and two arms, symmetric about x = 0.1.
    fn skeleton() -> Skeleton {
        let v = |x: f32, y: f32| Vec3::new(x, y, 0.0);
        Skeleton {
            bones: vec![
                Bone::new("spine", None, v(0.1, 0.0), v(0.1, 1.0)),
                Bone::new("arm_l", Some(0), v(0.3, 0.9), v(0.9, 0.9)),
                Bone::new("arm_r", Some(0), v(-0.1, 0.9), v(-0.7, 0.9)),
            ],
        }
    }

    /// Two boxes mirrored about x = 0.1 and a box on one side only, as one mesh.
    fn mesh() -> Vec<Vec3> {
        [
            (Vec3::new(0.3, 0.8, -0.1), Vec3::new(0.9, 1.0, 0.1)),
            (Vec3::new(-0.7, 0.8, -0.1), Vec3::new(-0.1, 1.0, 0.1)),
            (Vec3::new(1.2, 0.0, 0.5), Vec3::new(1.4, 0.3, 0.7)),
        ]
        .iter()
        .flat_map(|(lo, hi)| Mesh::cuboid(*lo, *hi).positions)
        .collect()
    }

    fn two(a: (u32, f32), b: (u32, f32)) -> Vec<Influence> {
        vec![
            Influence {
                bone: a.0,
                weight: a.1,
            },
            Influence {
                bone: b.0,
                weight: b.1,
            },
        ]
    }

    #[test]
    fn a_symmetric_skeleton_has_its_plane_and_a_moved_bone_breaks_it() {
        let s = skeleton();
        let (c, m) = mirror_plane(&s, 1.0).unwrap();
        assert!((c - 0.1).abs() < 1e-6, "{c}");
        assert_eq!(m, vec![0u32, 2, 1]);
        let mut moved = s.clone();
        moved.bones[2].tail.y += 0.05;
        let why = mirror_plane(&moved, 1.0).unwrap_err();
        assert!(why.contains("arm_l") || why.contains("arm_r"), "{why}");
        let mut lone = s.clone();
        lone.bones[2].name = "hand_r".into();
        assert!(mirror_plane(&lone, 1.0).unwrap_err().contains("no mirror"));
    }

    #[test]
    fn mirrored_vertices_take_the_mean_and_the_rest_keep_theirs() {
        let p = mesh();
        let s = skeleton();
        // The left box 0.9 arm / 0.1 spine, the right one 0.5 / 0.5: a lopsided bind;
        // the box on one side only 0.6 / 0.4.
        let lopsided = || Weights {
            vertices: (0..24)
                .map(|v| match v / 8 {
                    0 => two((1, 0.9), (0, 0.1)),
                    1 => two((2, 0.5), (0, 0.5)),
                    _ => two((1, 0.6), (0, 0.4)),
                })
                .collect(),
        };
        let mut w = lopsided();
        assert_eq!(symmetrize(&p, &mut w, &s, 1.0, 4).unwrap(), 16);
        for v in 0..8 {
            assert!((w.get(v, 1) - 0.7).abs() < 1e-5, "{:?}", w.vertices[v]);
            assert!(
                (w.get(v + 8, 2) - 0.7).abs() < 1e-5,
                "{:?}",
                w.vertices[v + 8]
            );
            assert!((w.get(v, 0) - 0.3).abs() < 1e-5);
        }
        // The box with no mirror keeps its weights.
        assert!((w.get(16, 1) - 0.6).abs() < 1e-6);
        // A skeleton that is not symmetric: nothing changes.
        let mut moved = s.clone();
        moved.bones[1].head.x += 0.1;
        let mut w2 = lopsided();
        assert!(symmetrize(&p, &mut w2, &moved, 1.0, 4).is_err());
        assert_eq!(w2, lopsided());
    }
}
