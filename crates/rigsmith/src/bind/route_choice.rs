//! Which route weights the body when none is forced: bone heat on the surface, or heat
//! in the voxelized volume ([`super::volumetric`]), decided from the character.
//!
//! Bone heat diffuses over the skin's own triangles; the volumetric route diffuses
//! through voxels of the solid and reads the result back at the vertices. Which one
//! samples the body more finely, and whether the volume's heat source is sound, decide:
//!
//! 1. **The surface against the volume.** The median edge of the skin is compared with
//!    the voxel the volumetric route would solve on (the first of
//!    [`super::volumetric::VOXEL_STEPS`] within its cell budget). A fine surface (a
//!    MakeHuman body: median edge H/260 against voxels of H/90) keeps bone heat. A
//!    low-poly game character, whose limbs have a few edge rings (median edge H/70 to
//!    H/23), takes its weights from the finer volume, where heat crosses the seams and
//!    the pieces that interpenetrate as one solid.
//! 2. **The volume's heat source.** Inside the volume each voxel is heated by its
//!    nearest bone by plain distance; on the surface bone heat takes the nearest bone by
//!    reach ([`super::bone_reach`], distance relative to the flesh each bone carries).
//!    Where the two disagree on more than [`MAX_DISAGREE`] of the skin, plain distance
//!    is not to be trusted (a chibi: a head a third of the height, ear bones starting
//!    inside it, a belly bone along the front) and bone heat stays.
//!
//! Measured on the re-weighting benchmark (BENCHMARKS.md, *Route decision*).

use glam::Vec3;

use super::bone_reach;
use super::bones::Segment;
use super::volumetric;
use crate::geom::bvh::Bvh;

/// Largest share of skin vertices whose nearest bone by plain distance may differ from
/// their nearest bone by reach for the volume to be taken.
pub const MAX_DISAGREE: f32 = 0.25;

/// The decision and the figures behind it.
#[derive(Debug, Clone, PartialEq)]
pub struct RouteChoice {
    /// Take the volumetric route.
    pub volume: bool,
    /// Why, in one line (written to the reasons and the weight report).
    pub reason: String,
    /// The skin's median edge length, in units of H.
    pub median_edge: f32,
    /// The voxel side the volumetric route would use, in units of H (0 when not
    /// computed).
    pub voxel: f32,
    /// Share of skin vertices whose nearest bone by plain distance is not their nearest
    /// by reach (negative when not computed).
    pub disagree: f32,
}

/// The median edge length of a mesh (0 for a mesh with no triangle).
pub fn median_edge(positions: &[Vec3], triangles: &[[u32; 3]]) -> f32 {
    let mut e: Vec<f32> = triangles
        .iter()
        .flat_map(|t| {
            let p = t.map(|i| positions[i as usize]);
            [
                (p[0] - p[1]).length(),
                (p[1] - p[2]).length(),
                (p[2] - p[0]).length(),
            ]
        })
        .collect();
    if e.is_empty() {
        return 0.0;
    }
    let k = e.len() / 2;
    *e.select_nth_unstable_by(k, f32::total_cmp).1
}

/// Share of the vertices used by `triangles` whose nearest segment by plain distance is
/// not their nearest by reach, with the thickness bone heat itself uses: the flesh each
/// bone carries, measured through the skin pieces that hold the bone
/// ([`bone_reach::carried_thickness_in`] over the islands of the welded skin, as
/// [`super::bone_heat::bone_heat`] does). Measured on the whole surface instead, a
/// bone starting inside a sunk piece (a game character's shoulder, beside the sunk end
/// of its arm) is as thin as that piece's wall is near, and the reach the decision
/// judges is not the one bone heat would use.
pub fn reach_disagreement(
    positions: &[Vec3],
    triangles: &[[u32; 3]],
    segments: &[Segment],
    kin: &[Vec<u32>],
) -> f32 {
    let w = super::weld::weld(positions, triangles, super::bone_heat::WELD_TOL);
    let bvh = Bvh::build(&w.positions, &w.triangles);
    let sight = super::sight::Sight::new(&w.positions, &w.triangles, &bvh);
    let (lo, hi) = positions.iter().fold(
        (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
        |(l, h), p| (l.min(*p), h.max(*p)),
    );
    let far = (hi - lo).length().max(f32::MIN_POSITIVE);
    let thick: Vec<[f32; 5]> =
        bone_reach::carried_thickness_in(&bvh, sight.pieces(), segments, kin, far)
            .iter()
            .map(|p| p.map(|r| r.powf(bone_reach::THICKNESS_POWER)))
            .collect();
    let mut used = vec![false; positions.len()];
    for t in triangles {
        for &i in t {
            used[i as usize] = true;
        }
    }
    let (mut n, mut differ) = (0usize, 0usize);
    for (p, _) in positions.iter().zip(&used).filter(|(_, &u)| u) {
        let mut by_reach = (f32::INFINITY, 0usize);
        let mut by_dist = (f32::INFINITY, 0usize);
        for (i, (s, t)) in segments.iter().zip(&thick).enumerate() {
            let r = bone_reach::reach(s, t, *p);
            if r.reach < by_reach.0 {
                by_reach = (r.reach, i);
            }
            if r.dist < by_dist.0 {
                by_dist = (r.dist, i);
            }
        }
        n += 1;
        differ += usize::from(by_reach.1 != by_dist.1);
    }
    differ as f32 / n.max(1) as f32
}

/// Decides the route for a skin (`positions` in units of H, `triangles`) and its deform
/// bone `segments` (same unit; `kin` from [`bone_reach::skeleton_kin`]).
pub fn choose(
    positions: &[Vec3],
    triangles: &[[u32; 3]],
    segments: &[Segment],
    kin: &[Vec<u32>],
) -> RouteChoice {
    let edge = median_edge(positions, triangles);
    let finest = volumetric::VOXEL_STEPS[0];
    let mut c = RouteChoice {
        volume: false,
        reason: String::new(),
        median_edge: edge,
        voxel: 0.0,
        disagree: -1.0,
    };
    if edge < finest {
        c.reason = format!(
            "bone heat: the skin's median edge ({:.4} H) is finer than the finest voxel (H/{:.0})",
            edge,
            1.0 / finest
        );
        return c;
    }
    c.disagree = reach_disagreement(positions, triangles, segments, kin);
    if c.disagree > MAX_DISAGREE {
        c.reason = format!(
            "bone heat: nearest bone by distance and by reach differ on {:.0}% of the skin (over {:.0}%), so the volume's heat source is not trusted",
            100.0 * c.disagree,
            100.0 * MAX_DISAGREE
        );
        return c;
    }
    match volumetric::solid_grid(
        positions,
        triangles,
        segments,
        &volumetric::VOXEL_STEPS,
        volumetric::MAX_SOLID,
    ) {
        Ok((_, h, _)) => {
            c.voxel = h;
            c.volume = edge >= h;
            c.reason = if c.volume {
                format!(
                    "volumetric: the skin's median edge ({:.4} H) is coarser than the voxel (H/{:.0}), and nearest bone by distance and by reach agree on {:.0}% of the skin",
                    edge,
                    1.0 / h,
                    100.0 * (1.0 - c.disagree)
                )
            } else {
                format!(
                    "bone heat: the skin's median edge ({:.4} H) is finer than the voxel the volume fits in (H/{:.0})",
                    edge,
                    1.0 / h
                )
            };
        }
        Err(e) => c.reason = format!("bone heat: the body does not voxelize ({e})"),
    }
    c
}
