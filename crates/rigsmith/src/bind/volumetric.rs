//! The volumetric route: when bone heat on the surface fails (holes, intersecting
//! primitives, islands that see no bone), weights are computed in the character's
//! volume instead and carried to the surface.
//!
//! 1. **Voxelize** at side `h = H/180` (then `H/90`, `H/45` until the volume closes):
//!    cells touched by a triangle are *surface*; a 6-connected flood fill from the
//!    grid's border finds the *outside*; everything else is *solid*. An open mesh
//!    voxelizes into a thin shell that the flood fills through, leaving the bones
//!    outside; a coarser voxel closes holes smaller than itself. The volume *closes*
//!    when at least 90% of the deform bones' middles fall in solid cells. A voxel whose
//!    solid exceeds [`MAX_SOLID`] cells is skipped for the next coarser one.
//! 2. **Solve** the bone-heat equation on the solid cells: the 6-neighbour graph
//!    Laplacian plus `c/d²` heat (`c` = [`HEAT_SCALE`], `d` in voxels, at least 1/2) from the nearest bone
//!    each cell sees through the solid ([`nearest_seen`]: not across the air between an
//!    arm hanging beside the trunk and the trunk), one factorization for all bones
//!    ([`super::solve`]).
//! 3. **Interpolate** to the surface: trilinear over the solid cells around each vertex
//!    (renormalized over those that are solid), or the nearest solid cell within 3
//!    cells.
//!
//! Everything is in units of the body height H, so the result does not depend on scale.

use glam::{IVec3, Vec3};

use super::bones::Segment;
use super::solve;
use crate::error::{Error, Result};
use crate::model::{Influence, Weights};

/// Voxel sides tried, as fractions of H.
pub const VOXEL_STEPS: [f32; 3] = [1.0 / 180.0, 1.0 / 90.0, 1.0 / 45.0];

/// Largest solid volume solved, in cells: the sparse factorization of a 3D grid grows
/// quickly with its size, so a bulky character is solved on a coarser voxel.
pub const MAX_SOLID: usize = 60_000;

/// The heat conductance constant `c` of `c / d²` in the volume (`d` in voxels). With
/// Baran and Popović's 1 the weights cross a joint over about the limb's radius on
/// each side: at the elbow of the Quaternius men the forearm kept 9 % of the weight a
/// third of the upper arm's length above the joint, where the artist has none, and the
/// elbow bent 120 degrees and the wrist twisted 80 fell behind Blender's. 3 narrows the
/// blend (3 % there) and is the closest of 1, 2, 3, 5 and 10 to the artist weights on
/// the three characters that take the volume (pooled p95 under the test poses,
/// BENCHMARKS.md, *Re-weighting real characters*); 10, bone heat's constant, loses
/// the legs and the hips.
pub const HEAT_SCALE: f64 = 3.0;

/// Largest grid, in cells (the voxel grows until the grid fits).
pub const MAX_CELLS: usize = 24_000_000;

/// What the volumetric route produced.
#[derive(Debug, Clone)]
pub struct VoxelOutcome {
    /// Weights per vertex (n), not yet limited.
    pub weights: Weights,
    /// The voxel side used, in units of H.
    pub voxel: f32,
    /// Solid cells of the grid used.
    pub solid: usize,
    /// One line per voxel size tried.
    pub attempts: Vec<String>,
    /// Vertices no solid cell reached.
    pub unreached: usize,
}

/// The six face neighbours of a voxel (shared with [`super::geodesic`]).
pub(super) const N6: [IVec3; 6] = [
    IVec3::X,
    IVec3::NEG_X,
    IVec3::Y,
    IVec3::NEG_Y,
    IVec3::Z,
    IVec3::NEG_Z,
];

/// A voxel grid over a mesh and its bones (shared with [`super::geodesic`]).
pub(super) struct Grid {
    /// Corner of cell (0, 0, 0).
    pub(super) lo: Vec3,
    /// Cell side, same unit as the mesh.
    pub(super) h: f32,
    /// Cells per axis.
    pub(super) dim: IVec3,
    /// Per cell (x fastest): 0 empty inside, 1 surface, 2 outside.
    pub(super) cell: Vec<u8>,
}

impl Grid {
    pub(super) fn idx(&self, c: IVec3) -> usize {
        (c.x as usize) + self.dim.x as usize * ((c.y as usize) + self.dim.y as usize * c.z as usize)
    }
    pub(super) fn inb(&self, c: IVec3) -> bool {
        c.cmpge(IVec3::ZERO).all() && c.cmplt(self.dim).all()
    }
    pub(super) fn of(&self, p: Vec3) -> IVec3 {
        ((p - self.lo) / self.h).floor().as_ivec3()
    }
    pub(super) fn solid(&self, c: IVec3) -> bool {
        self.inb(c) && self.cell[self.idx(c)] != 2
    }
    /// The nearest cell to `p` within 3 cells whose number in `id` (`u32::MAX`: none)
    /// `usable` accepts: `(distance from p to its centre in cells, number)`, the lower
    /// number on a tie.
    pub(super) fn nearest_cell(
        &self,
        p: Vec3,
        id: &[u32],
        usable: impl Fn(u32) -> bool,
    ) -> Option<(f32, u32)> {
        let c0 = self.of(p);
        let mut best: Option<(f32, u32)> = None;
        for dz in -3..=3 {
            for dy in -3..=3 {
                for dx in -3..=3 {
                    let c = c0 + IVec3::new(dx, dy, dz);
                    if !self.inb(c) {
                        continue;
                    }
                    let j = id[self.idx(c)];
                    if j == u32::MAX || !usable(j) {
                        continue;
                    }
                    let q = self.lo + (c.as_vec3() + Vec3::splat(0.5)) * self.h;
                    let d = (q - p).length() / self.h;
                    if best.map_or(true, |(bd, bj)| d < bd || (d == bd && j < bj)) {
                        best = Some((d, j));
                    }
                }
            }
        }
        best
    }
}

/// The grid's first cell boundary and its number of cells across `lo..hi` (cell size
/// `h`), symmetric about the middle of the extent: the middle runs through the centre
/// of a column of cells (as the mid-line vertices of a welded body are shared by its
/// two sides), and at least two cells of margin lie beyond each extreme.
///
/// A grid started at the lowest vertex is not symmetric: men_Farmer's fingers, one or
/// two cells thick at H/90, took their middle and tip phalanges 0.89 / 0.01 on the left
/// hand and 0.48 / 0.49 on the right (`weights.symmetry` 0.38, limit 0.05). With the
/// middle on a cell boundary instead, its hips' worst band in `leg_forward` fell from
/// 0.79 to 0.77 (limit 0.78); through a cell's centre, 0.79.
pub(super) fn mirror_cells(lo: f32, hi: f32, h: f32) -> (f32, f32) {
    let (c, half) = (0.5 * (lo + hi), 0.5 * (hi - lo));
    let m = (half / h + 2.0).ceil();
    (c - (m + 0.5) * h, 2.0 * m + 1.0)
}

fn voxelize(positions: &[Vec3], triangles: &[[u32; 3]], segs: &[Segment], h: f32) -> Option<Grid> {
    let mut lo = Vec3::splat(f32::INFINITY);
    let mut hi = Vec3::splat(f32::NEG_INFINITY);
    for p in positions
        .iter()
        .chain(segs.iter().flat_map(|s| [&s.head, &s.tail]))
    {
        lo = lo.min(*p);
        hi = hi.max(*p);
    }
    if !lo.is_finite() || !hi.is_finite() {
        return None;
    }
    // Across x the cells lie symmetric about the middle of the extent: a character
    // symmetric about its mid-plane is voxelized alike on both sides, so its left and
    // right weights agree (see [`mirror_cells`]).
    let (x0, nx) = mirror_cells(lo.x, hi.x, h);
    // Across y and z, two and a half cells of margin: the extreme vertices sit in the
    // middle of a cell, never on a cell boundary where rounding would move them from one
    // cell to the next.
    let mut lo = lo - Vec3::splat(2.5 * h);
    let mut dimf = ((hi - lo) / h).ceil() + Vec3::splat(2.0);
    (lo.x, dimf.x) = (x0, nx);
    if dimf.x * dimf.y * dimf.z > MAX_CELLS as f32 {
        return None;
    }
    let dim = dimf.as_ivec3();
    let mut g = Grid {
        lo,
        h,
        dim,
        cell: vec![0u8; (dim.x * dim.y * dim.z) as usize],
    };
    for t in triangles {
        let [a, b, c] = t.map(|i| positions[i as usize]);
        let longest = (b - a).length().max((c - b).length()).max((a - c).length());
        let n = ((longest / (0.5 * h)).ceil() as usize).clamp(1, 4096);
        for i in 0..=n {
            for j in 0..=(n - i) {
                let p = a + (b - a) * (i as f32 / n as f32) + (c - a) * (j as f32 / n as f32);
                let cc = g.of(p);
                if g.inb(cc) {
                    let k = g.idx(cc);
                    g.cell[k] = 1;
                }
            }
        }
    }
    // Flood the outside from the border.
    let mut stack: Vec<IVec3> = Vec::new();
    for z in 0..dim.z {
        for y in 0..dim.y {
            for x in 0..dim.x {
                if x == 0 || y == 0 || z == 0 || x == dim.x - 1 || y == dim.y - 1 || z == dim.z - 1
                {
                    let c = IVec3::new(x, y, z);
                    let k = g.idx(c);
                    if g.cell[k] == 0 {
                        g.cell[k] = 2;
                        stack.push(c);
                    }
                }
            }
        }
    }
    while let Some(c) = stack.pop() {
        for d in N6 {
            let q = c + d;
            if g.inb(q) {
                let k = g.idx(q);
                if g.cell[k] == 0 {
                    g.cell[k] = 2;
                    stack.push(q);
                }
            }
        }
    }
    Some(g)
}

/// Runs the volumetric route on one mesh (positions in units of H) for the given
/// bone segments (same unit).
pub fn volumetric(
    positions: &[Vec3],
    triangles: &[[u32; 3]],
    segs: &[Segment],
) -> Result<VoxelOutcome> {
    volumetric_at(positions, triangles, segs, &VOXEL_STEPS)
}

/// [`volumetric`] with the voxel sides to try (fractions of H, in order; the first whose
/// volume holds 90 % of the bones' middles is kept): one side alone measures that
/// voxel size (`cargo run --release --example voxel_stop`).
pub fn volumetric_at(
    positions: &[Vec3],
    triangles: &[[u32; 3]],
    segs: &[Segment],
    steps: &[f32],
) -> Result<VoxelOutcome> {
    if segs.is_empty() || steps.is_empty() {
        return Err(Error::stage("bind", "no deform bone to weight to"));
    }
    let (g, h, attempts) = solid_grid(positions, triangles, segs, steps, MAX_SOLID)?;

    // Unknowns: solid cells.
    let ncell = g.cell.len();
    let mut id = vec![u32::MAX; ncell];
    let mut cells: Vec<IVec3> = Vec::new();
    for z in 0..g.dim.z {
        for y in 0..g.dim.y {
            for x in 0..g.dim.x {
                let c = IVec3::new(x, y, z);
                let k = g.idx(c);
                if g.cell[k] != 2 {
                    id[k] = cells.len() as u32;
                    cells.push(c);
                }
            }
        }
    }
    let n = cells.len();
    let mut diag = vec![0.0f64; n];
    let mut off = Vec::with_capacity(3 * n);
    for (i, &c) in cells.iter().enumerate() {
        for d in [IVec3::X, IVec3::Y, IVec3::Z] {
            let q = c + d;
            if g.inb(q) {
                let j = id[g.idx(q)];
                if j != u32::MAX {
                    off.push((i as u32, j, -1.0));
                    diag[i] += 1.0;
                    diag[j as usize] += 1.0;
                }
            }
        }
    }
    let mut heat = vec![0.0f64; n];
    let mut sources: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut by_dist: Vec<(f32, u32)> = Vec::with_capacity(segs.len());
    for (i, &c) in cells.iter().enumerate() {
        let p = g.lo + (c.as_vec3() + Vec3::splat(0.5)) * h;
        by_dist.clear();
        by_dist.extend(
            segs.iter()
                .enumerate()
                .map(|(b, s)| ((s.closest(p) - p).length() / h, b as u32)),
        );
        let (best, list) = nearest_seen(&g, p, segs, &mut by_dist);
        let d = best.max(0.5) as f64;
        heat[i] = HEAT_SCALE / (d * d);
        sources[i] = list;
    }
    let sols = solve::solve(&solve::HeatSystem {
        n,
        diag: &diag,
        off: &off,
        heat: &heat,
        sources: &sources,
        shares: None,
        bones: segs.len(),
    })?;
    let mut col_of = vec![usize::MAX; segs.len()];
    for (k, (b, _)) in sols.iter().enumerate() {
        col_of[*b] = k;
    }

    // Interpolate to the surface.
    let mut weights = Weights::empty(positions.len());
    let mut unreached = 0;
    let mut acc = vec![0.0f64; segs.len()];
    for (v, p) in positions.iter().enumerate() {
        acc.iter_mut().for_each(|a| *a = 0.0);
        let gp = (*p - g.lo) / h - Vec3::splat(0.5);
        let base = gp.floor().as_ivec3();
        let f = gp - base.as_vec3();
        let mut total = 0.0f64;
        for corner in 0..8 {
            let o = IVec3::new(corner & 1, (corner >> 1) & 1, (corner >> 2) & 1);
            let c = base + o;
            if !g.inb(c) {
                continue;
            }
            let j = id[g.idx(c)];
            if j == u32::MAX {
                continue;
            }
            let t = (if o.x == 1 { f.x } else { 1.0 - f.x })
                * (if o.y == 1 { f.y } else { 1.0 - f.y })
                * (if o.z == 1 { f.z } else { 1.0 - f.z });
            let t = t as f64;
            if t <= 0.0 {
                continue;
            }
            total += t;
            for (k, (b, x)) in sols.iter().enumerate() {
                let _ = k;
                acc[*b] += t * x[j as usize];
            }
        }
        if total <= 0.0 {
            // Nearest solid cell within 3 cells.
            if let Some((_, j)) = g.nearest_cell(*p, &id, |_| true) {
                total = 1.0;
                for (b, x) in &sols {
                    acc[*b] += x[j as usize];
                }
            }
        }
        if total <= 0.0 {
            unreached += 1;
            continue;
        }
        let list = &mut weights.vertices[v];
        for (b, &a) in acc.iter().enumerate() {
            let w = a / total;
            if col_of[b] != usize::MAX && w.is_finite() && w > 1e-6 {
                list.push(Influence {
                    bone: segs[b].bone,
                    weight: w.min(1.0) as f32,
                });
            }
        }
        if list.is_empty() {
            unreached += 1;
        }
    }
    weights.sort();
    weights.normalize();
    Ok(VoxelOutcome {
        weights,
        voxel: h,
        solid: n,
        attempts,
        unreached,
    })
}

/// The heat source of the cell at `p`: the nearest bone (and any within 1e-4 of its
/// distance) that the cell sees through the solid, with its distance in voxels; the
/// plain nearest when it sees none. `by_dist`: every bone's distance in voxels and
/// number; sorted, nearest first, only when the cell does not see its plain nearest
/// bone (most cells do, and keep the plain nearest and its ties).
///
/// A cell in the flank of a trunk that an arm hangs beside lies nearer the arm's bone
/// than the spine, but the line to the arm crosses the air between them. Heated by the
/// arm, the flank followed it: the knight written at its first animation frame (arms
/// hanging, 2 % H from its sides) raised its arms with the trunk's sides in a flap.
/// Bone heat on the surface asks the same question ([`super::sight`]).
fn nearest_seen(
    g: &Grid,
    p: Vec3,
    segs: &[Segment],
    by_dist: &mut [(f32, u32)],
) -> (f32, Vec<u32>) {
    let seen = |b: u32| sees_through_solid(g, p, segs[b as usize].closest(p));
    let order = |a: &(f32, u32), b: &(f32, u32)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
    let Some(&nearest) = by_dist.iter().min_by(|a, b| order(a, b)) else {
        return (f32::INFINITY, Vec::new());
    };
    if seen(nearest.1) {
        let best = nearest.0;
        let list = by_dist
            .iter()
            .filter(|&&(d, _)| d <= best * (1.0 + 1e-4) && d >= best * (1.0 - 1e-4))
            .map(|&(_, b)| b)
            .collect();
        return (best, list);
    }
    by_dist.sort_by(order);
    let first = by_dist.iter().position(|&(_, b)| seen(b)).unwrap_or(0);
    let best = by_dist[first].0;
    let list = by_dist
        .iter()
        .enumerate()
        .filter(|&(k, &(d, b))| {
            k == first
                || (d <= best * (1.0 + 1e-4) && d >= best * (1.0 - 1e-4) && (first == 0 || seen(b)))
        })
        .map(|(_, &(_, b))| b)
        .collect();
    (best, list)
}

/// Whether the straight line from `p` to `q` reaches `q` without crossing a gap: it
/// may leave the solid (a bone's end poking out of a thin limb, a head modelled as an
/// open shell whose inside the outside fills), but not enter it again after leaving
/// (the air between a hanging arm and the trunk). Sampled every half cell.
fn sees_through_solid(g: &Grid, p: Vec3, q: Vec3) -> bool {
    let d = q - p;
    let len = d.length() / g.h;
    let n = (2.0 * len).ceil() as usize;
    let mut left = false;
    for k in 1..=n {
        let inside = g.solid(g.of(p + d * (k as f32 / n as f32)));
        if !inside {
            left = true;
        } else if left {
            return false;
        }
    }
    true
}

/// How far over the solid budget the enclosed volume alone must be before a voxel
/// size is refused without building its grid (the volume of a mesh that is not closed
/// is only an estimate).
const VOLUME_MARGIN: f32 = 2.0;

/// The volume a mesh encloses (divergence theorem over its triangles, absolute value),
/// in the positions' unit cubed.
fn enclosed_volume(positions: &[Vec3], triangles: &[[u32; 3]]) -> f32 {
    let v: f64 = triangles
        .iter()
        .filter_map(|t| {
            let [a, b, c] = t.map(|i| positions.get(i as usize).map(|p| p.as_dvec3()));
            Some(a?.dot(b?.cross(c?)))
        })
        .sum();
    (v / 6.0).abs() as f32
}

/// The solid of a mesh: voxel sides `steps` (fractions of the mesh unit) tried in order
/// until at least 90% of the bones' middles fall in solid cells, skipping grids whose
/// solid exceeds `max_solid` cells; when no listed size fits at all, coarser ones
/// (doubling the last). Returns the grid, its side and one line per size tried.
pub(super) fn solid_grid(
    positions: &[Vec3],
    triangles: &[[u32; 3]],
    segs: &[Segment],
    steps: &[f32],
    max_solid: usize,
) -> Result<(Grid, f32, Vec<String>)> {
    let last = steps[steps.len() - 1];
    let mut attempts = Vec::new();
    let mut chosen: Option<(Grid, f32)> = None;
    // The listed sizes, then coarser ones only while no grid fits at all.
    let sizes = steps
        .iter()
        .copied()
        .chain((1..6).map(|k| last * (1 << k) as f32));
    let enclosed = enclosed_volume(positions, triangles);
    for (step, h_frac) in sizes.enumerate() {
        if step >= steps.len() && chosen.is_some() {
            break;
        }
        // The solid covers at least the enclosed volume: a size whose volume alone is
        // well over the budget would be built only to be refused.
        let least = enclosed / (h_frac * h_frac * h_frac);
        if least > VOLUME_MARGIN * max_solid as f32 {
            attempts.push(format!(
                "voxel H/{:.0}: the enclosed volume alone is {least:.0} cells, over the {max_solid} budget",
                1.0 / h_frac
            ));
            continue;
        }
        let Some(g) = voxelize(positions, triangles, segs, h_frac) else {
            attempts.push(format!("voxel H/{:.0}: grid too large", 1.0 / h_frac));
            continue;
        };
        let inside = segs
            .iter()
            .filter(|s| g.solid(g.of(0.5 * (s.head + s.tail))))
            .count();
        let frac = inside as f32 / segs.len() as f32;
        let closed = frac >= 0.9;
        let solid = g.cell.iter().filter(|&&c| c != 2).count();
        if solid > max_solid {
            attempts.push(format!(
                "voxel H/{:.0}: {solid} solid cells, over the {max_solid} budget",
                1.0 / h_frac
            ));
            continue;
        }
        attempts.push(format!(
            "voxel H/{:.0}: {:.0}% of bone middles inside the volume{}",
            1.0 / h_frac,
            100.0 * frac,
            if closed { " (closed)" } else { "" }
        ));
        chosen = Some((g, h_frac));
        if closed {
            break;
        }
    }
    match chosen {
        Some((g, h)) => Ok((g, h, attempts)),
        None => Err(Error::stage(
            "bind",
            format!("could not voxelize the body: {}", attempts.join("; ")),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grid_lies_symmetric_about_the_middle_with_its_margin() {
        for (lo, hi, h) in [(-0.31, 0.37, 0.011), (0.2, 1.9, 0.05), (-1.0, 1.0, 0.1)] {
            let (x0, n) = mirror_cells(lo, hi, h);
            assert_eq!(n.fract(), 0.0);
            let c = 0.5 * (lo + hi);
            // Every boundary's mirror image about the middle is a boundary.
            let first = c - x0;
            let last = x0 + n * h - c;
            assert!((first - last).abs() < 1e-5, "{first} {last}");
            // The middle runs through a cell's centre.
            let k = (c - x0) / h;
            assert!((k.fract() - 0.5).abs() < 1e-4, "{k}");
            // At least two cells beyond each extreme.
            assert!(lo - x0 >= 2.0 * h - 1e-6 && x0 + n * h - hi >= 2.0 * h - 1e-6);
        }
    }
}
