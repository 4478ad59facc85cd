//! Garment weights by transfer from the body: a shirt, tights or a skirt must move
//! with the skin under it. Weighting a garment by its own proximity to bones makes
//! bands slide and lets the hands pull the shirt; transfer from the skin does not.
//!
//! # Plain copy
//!
//! [`transfer`] gives each target point the weights of the closest point of the body
//! surface, interpolated barycentrically from that triangle's three vertices (Blender's
//! Data Transfer, "nearest face interpolated"). It is right where the garment lies on
//! the skin, and wrong where it does not: the hem of a skirt between the legs copies
//! one leg and tears when the legs part, the far edge of a cape copies whatever arm is
//! closest, a collar bridging neck and shoulders takes one of the two, a sleeve hanging
//! past the hand copies the fingers.
//!
//! # Robust transfer (copy where the match is good, inpaint where it is not)
//!
//! [`transfer_robust`] follows Abdrashitov, Raichstat, Monsen and Hill, *Robust Skin
//! Weights Transfer via Weight Inpainting* (SIGGRAPH Asia 2023 technical
//! communications):
//!
//! 1. **Match.** For each garment vertex `p` with normal `n_g`, the closest body point
//!    `q` and the body normal `n_b` there (the body's vertex normals interpolated
//!    barycentrically). The match is good when `|p - q| <= d_max` and the angle between
//!    `n_g` and `n_b` is at most [`TransferOptions::max_angle_deg`] (35 degrees).
//!    * `d_max = clamp(3 x median offset, 0.02 H, 0.08 H)`, with the median offset the
//!      median distance of the garment's vertices to the skin. A garment lies at its
//!      own typical distance (tights 0.5 % H, a coat 3 % H); a vertex three times
//!      farther than that is not lying on the skin it is nearest to (a bridge, a flare,
//!      a hem). The floor keeps a tight garment's natural variation (0.5-1.5 % H) and
//!      coarse tessellation matched. The ceiling bounds loose garments: the paper's
//!      5 % of the bounding-box diagonal is 0.06-0.07 H on a standing figure. On
//!      MakeHuman's artist-weighted skirt the error is flat for ceilings from 0.065 to
//!      0.12 H and grows below 0.05 H (docs/weights.md, *Garments*). At 0.08 H about
//!      half of a flared ankle-long skirt matches (51 %, against 32 % at 0.05 H); a
//!      cape or a sleeve hanging farther than that from the skin is inpainted.
//!    * The angle catches what distance cannot: the hem between the legs is near the
//!      inner thigh but faces forward while the thigh faces sideways; a collar slopes
//!      45 degrees from both the neck and the shoulder. 35 degrees leaves room for the
//!      normals of a coarse mesh (10-20 degrees off the smooth surface) and rejects
//!      those.
//!    * **Orientation.** Normals are compared with their sign: the inner side of a
//!      sleeve faces the torso, and accepting a flipped normal there would match it to
//!      the torso across the armpit (and trousers to the other leg). Single-sided cloth
//!      is often wound inward, though, which would reject the whole garment. So the
//!      orientation is decided per island of the garment, not per vertex: an island
//!      whose vertices within `d_max` mostly face into the skin (the sum of
//!      `n_g . n_b` is negative) is flipped as a whole, and said so in the counts.
//!      A garment modelled with thickness (two layers, one closed island) keeps its
//!      inner layer facing the skin; that layer is then inpainted from the outer layer
//!      through the rims.
//! 2. **Inpaint.** The unmatched vertices get the harmonic interpolation of the matched
//!    ones over the garment's own surface: with `L` the cotangent Laplacian of the
//!    garment ([`super::laplacian`]), `U` the unmatched vertices and `K` the matched
//!    ones, `L_UU W_U = -L_UK W_K`, one factorization per garment and one right-hand
//!    side per bone ([`super::solve::solve_columns`]). Each column is a weight in 0..1
//!    on `K` and the columns sum to 1 there, so the solution sums to 1 on `U`.
//!    * The cotangent weights of a Delaunay mesh are non-negative, but where a garment
//!      leaves the skin its triangles are often stretched, and a negative weight lets
//!      the interpolation overshoot (a vertex weighted more to a bone than any vertex
//!      around it: measured 0.59 between neighbours of 0.45-0.55 on a pulled vertex).
//!      Every edge weight is therefore raised to at least 1 % of the mean absolute
//!      edge weight. The system is then an M-matrix: every inpainted weight is a
//!      convex combination of matched ones (maximum principle), in 0..1.
//!    * Harmonic, not bi-Laplacian, interpolation: the bi-Laplacian is smoother at the
//!      boundary but overshoots; the binder's smoothing passes afterwards round the
//!      kink at the boundary instead.
//!    * If the system cannot be factored, the uniform graph Laplacian (also an
//!      M-matrix) is used instead.
//! 3. **Fallback.** An island of the garment (connected over its non-degenerate
//!    triangles) with no matched vertex has no boundary values: its vertices keep the
//!    plain copy, and are counted as fallback.
//!
//! All distances are in the units of the positions given, which the binder normalizes
//! so that the body height H is 1; the thresholds are then fractions of H and the
//! result does not depend on the character's scale.

use glam::{DVec3, Vec3};
use rayon::prelude::*;

use super::report::GarmentTransfer;
use crate::geom::bvh::Bvh;
use crate::model::{Influence, Mesh, Weights};

/// Transfers `body_weights` (one list per body vertex) to the `target` points through
/// the body's BVH (built over `body_triangles`): the plain copy (see the module docs).
/// Targets get no influence when the body has no triangle.
pub fn transfer(
    body_bvh: &Bvh,
    body_triangles: &[[u32; 3]],
    body_weights: &Weights,
    target: &[Vec3],
) -> Weights {
    let mut out = Weights::empty(target.len());
    for (v, p) in target.iter().enumerate() {
        let Some(c) = body_bvh.closest(*p) else {
            continue;
        };
        out.vertices[v] = copy_at(body_triangles, body_weights, c.triangle, c.bary);
    }
    out.sort();
    out.normalize();
    out
}

/// The body's weights at a point of triangle `tri` with barycentric coordinates `bary`
/// (unsorted, not normalized).
fn copy_at(
    body_triangles: &[[u32; 3]],
    body_weights: &Weights,
    tri: u32,
    bary: [f32; 3],
) -> Vec<Influence> {
    let tri = body_triangles[tri as usize];
    let mut list: Vec<Influence> = Vec::new();
    for k in 0..3 {
        let b = bary[k];
        if b <= 0.0 {
            continue;
        }
        let Some(src) = body_weights.vertices.get(tri[k] as usize) else {
            continue;
        };
        for inf in src {
            match list.iter_mut().find(|i| i.bone == inf.bone) {
                Some(i) => i.weight += b * inf.weight,
                None => list.push(Influence {
                    bone: inf.bone,
                    weight: b * inf.weight,
                }),
            }
        }
    }
    list
}

/// The body a garment copies from, in the normalized frame (H = 1).
#[derive(Debug, Clone, Copy)]
pub struct BodySurface<'a> {
    /// The BVH over the body's triangles.
    pub bvh: &'a Bvh,
    /// The body's triangles (m), indices into its vertices.
    pub triangles: &'a [[u32; 3]],
    /// The body's weights (one list per body vertex).
    pub weights: &'a Weights,
    /// The body's unit vertex normals (one per body vertex; zero where unknown).
    pub normals: &'a [Vec3],
}

/// Thresholds of [`transfer_robust`] (see the module docs for the reasons).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TransferOptions {
    /// Largest angle between the garment's and the body's normals of a good match,
    /// degrees.
    pub max_angle_deg: f32,
    /// `d_max` is this multiple of the garment's median distance to the skin...
    pub offset_factor: f32,
    /// ...but at least this (units of H)...
    pub min_distance: f32,
    /// ...and at most this (units of H).
    pub max_distance: f32,
}

impl Default for TransferOptions {
    /// 35 degrees; `d_max = clamp(3 x median offset, 0.02 H, 0.08 H)`.
    fn default() -> Self {
        TransferOptions {
            max_angle_deg: 35.0,
            offset_factor: 3.0,
            min_distance: 0.02,
            max_distance: 0.08,
        }
    }
}

/// The result of [`transfer_robust`].
#[derive(Debug, Clone)]
pub struct RobustTransfer {
    /// Weights per garment vertex, sorted and normalized (not limited).
    pub weights: Weights,
    /// Per garment vertex: whether its match was good (copied).
    pub matched: Vec<bool>,
    /// Per garment vertex: whether it was inpainted.
    pub inpainted: Vec<bool>,
    /// Per garment vertex: its distance to the closest body point (infinite when the
    /// body has none).
    pub distance: Vec<f32>,
    /// The counts (the part name is left empty for the caller to fill).
    pub stats: GarmentTransfer,
}

/// Robust transfer of the body's weights to a garment mesh (see the module docs).
///
/// * `garment`: the garment's positions (n) and triangles, in the frame of `body`.
///
/// Never fails: where nothing better can be done a vertex keeps the plain copy, and the
/// counts say how many did.
pub fn transfer_robust(body: &BodySurface, garment: &Mesh, o: &TransferOptions) -> RobustTransfer {
    let n = garment.positions.len();
    let mut stats = GarmentTransfer {
        vertices: n,
        max_angle_deg: o.max_angle_deg,
        ..Default::default()
    };
    // Closest body point, copied weights and body normal per garment vertex.
    let found: Vec<Option<(f32, Vec3, Vec<Influence>)>> = garment
        .positions
        .par_iter()
        .map(|p| {
            let c = body.bvh.closest(*p)?;
            let tri = body.triangles[c.triangle as usize];
            let mut nb = Vec3::ZERO;
            for k in 0..3 {
                if let Some(nk) = body.normals.get(tri[k] as usize) {
                    nb += c.bary[k] * *nk;
                }
            }
            let nb = nb.try_normalize().unwrap_or_else(|| {
                let t = body.bvh.tris()[c.triangle as usize];
                (t[1] - t[0]).cross(t[2] - t[0]).normalize_or_zero()
            });
            let copy = copy_at(body.triangles, body.weights, c.triangle, c.bary);
            Some((c.dist2.max(0.0).sqrt(), nb, copy))
        })
        .collect();
    let distance: Vec<f32> = found
        .iter()
        .map(|f| f.as_ref().map_or(f32::INFINITY, |f| f.0))
        .collect();
    let mut copy = Weights::empty(n);
    for (v, f) in found.iter().enumerate() {
        if let Some((_, _, list)) = f {
            copy.vertices[v] = list.clone();
        }
    }
    copy.sort();
    copy.normalize();
    if found.iter().all(Option::is_none) {
        stats.fallback = n;
        return RobustTransfer {
            weights: copy,
            matched: vec![false; n],
            inpainted: vec![false; n],
            distance,
            stats,
        };
    }

    // The distance limit from the garment's typical offset.
    let mut dists: Vec<f32> = found.iter().flatten().map(|f| f.0).collect();
    dists.sort_by(f32::total_cmp);
    let median = dists[dists.len() / 2];
    let d_max = (o.offset_factor * median).clamp(o.min_distance, o.max_distance);
    stats.median_offset = median;
    stats.distance_limit = d_max;

    // Islands over all triangles, and their orientation.
    let island = crate::geom::weld::islands(n, &garment.triangles).0;
    let n_islands = island.iter().copied().max().map_or(0, |m| m as usize + 1);
    stats.islands = n_islands;
    let gn = garment.compute_normals();
    let mut facing = vec![0.0f64; n_islands];
    for v in 0..n {
        if let Some((d, nb, _)) = &found[v] {
            if *d <= d_max {
                facing[island[v] as usize] += gn[v].dot(*nb) as f64;
            }
        }
    }
    let flipped: Vec<bool> = facing.iter().map(|&f| f < 0.0).collect();
    stats.flipped_islands = flipped.iter().filter(|&&f| f).count();
    let cos_max = o.max_angle_deg.to_radians().cos();
    let matched: Vec<bool> = (0..n)
        .map(|v| {
            let Some((d, nb, _)) = &found[v] else {
                return false;
            };
            let ng = if flipped[island[v] as usize] {
                -gn[v]
            } else {
                gn[v]
            };
            *d <= d_max && (ng == Vec3::ZERO || ng.dot(*nb) >= cos_max)
        })
        .collect();
    stats.matched = matched.iter().filter(|&&m| m).count();
    stats.matched_fraction = if n > 0 {
        stats.matched as f32 / n as f32
    } else {
        0.0
    };

    // Inpainting over the garment's own surface.
    let (mut weights, inpainted) = inpaint(garment, &matched, &copy, &mut stats);
    weights.sort();
    weights.normalize();
    RobustTransfer {
        weights,
        matched,
        inpainted,
        distance,
        stats,
    }
}

/// The inpainting step of [`transfer_robust`]: the unmatched vertices of a garment
/// island that has matched ones take the harmonic interpolation of the matched
/// vertices' copies over the garment (`matched`: per vertex, `copy`: the plain copy);
/// the others keep the copy. Returns the weights and which vertices were inpainted,
/// and fills the inpainted and fallback counts of `stats`.
fn inpaint(
    garment: &Mesh,
    matched: &[bool],
    copy: &Weights,
    stats: &mut GarmentTransfer,
) -> (Weights, Vec<bool>) {
    let n = garment.positions.len();
    let mut weights = copy.clone();
    let mut inpainted = vec![false; n];
    if stats.matched < n {
        let pos: Vec<DVec3> = garment.positions.iter().map(|p| p.as_dvec3()).collect();
        let mut lap = super::laplacian::cotangent(&pos, &garment.triangles);
        clamp_negative(&mut lap);
        // Components of the Laplacian's graph (non-degenerate triangles only).
        let edges: Vec<[u32; 3]> = lap.edges.iter().map(|&(i, j, _)| [i, j, j]).collect();
        let comp = crate::geom::weld::islands(n, &edges).0;
        let nc = comp.iter().copied().max().map_or(0, |m| m as usize + 1);
        let mut has_match = vec![false; nc];
        for v in 0..n {
            if matched[v] {
                has_match[comp[v] as usize] = true;
            }
        }
        let unknown: Vec<usize> = (0..n)
            .filter(|&v| !matched[v] && has_match[comp[v] as usize])
            .collect();
        stats.fallback = (0..n)
            .filter(|&v| !matched[v] && !has_match[comp[v] as usize])
            .count();
        stats.fallback_islands = {
            let mut seen = vec![false; nc];
            for v in 0..n {
                if !matched[v] && !has_match[comp[v] as usize] {
                    seen[comp[v] as usize] = true;
                }
            }
            seen.iter().filter(|&&s| s).count()
        };
        if !unknown.is_empty() {
            let solved = harmonic(&lap, &unknown, matched, copy).or_else(|_| {
                // Uniform weights: an M-matrix, definite whenever each unknown
                // reaches a matched vertex.
                let mut uni = lap.clone();
                uni.diag.iter_mut().for_each(|d| *d = 0.0);
                for e in uni.edges.iter_mut() {
                    e.2 = 1.0;
                    uni.diag[e.0 as usize] += 1.0;
                    uni.diag[e.1 as usize] += 1.0;
                }
                harmonic(&uni, &unknown, matched, copy)
            });
            if let Ok(rows) = solved {
                for (&v, row) in unknown.iter().zip(rows) {
                    if !row.is_empty() {
                        weights.vertices[v] = row;
                        inpainted[v] = true;
                    }
                }
            }
        }
        stats.inpainted = inpainted.iter().filter(|&&i| i).count();
        // Unknowns the solve could not weight keep the copy: they are fallbacks too.
        stats.fallback += unknown.len() - stats.inpainted;
    }
    (weights, inpainted)
}

/// Raises every edge weight of `lap` to at least 1 % of the mean absolute edge weight
/// and recomputes the diagonal (see the module docs: an M-matrix, so the harmonic
/// weights are convex combinations of the boundary ones).
fn clamp_negative(lap: &mut super::laplacian::Laplacian) {
    if lap.edges.is_empty() {
        return;
    }
    let mean = lap.edges.iter().map(|e| e.2.abs()).sum::<f64>() / lap.edges.len() as f64;
    let floor = 0.01 * mean;
    lap.diag.iter_mut().for_each(|d| *d = 0.0);
    for e in lap.edges.iter_mut() {
        e.2 = e.2.max(floor);
        lap.diag[e.0 as usize] += e.2;
        lap.diag[e.1 as usize] += e.2;
    }
}

/// Solves `L_UU W_U = -L_UK W_K` for the `unknown` vertices (every bone of the matched
/// vertices a column); returns one influence list per unknown, negatives clamped,
/// normalized (empty when nothing is left).
fn harmonic(
    lap: &super::laplacian::Laplacian,
    unknown: &[usize],
    matched: &[bool],
    copy: &Weights,
) -> crate::error::Result<Vec<Vec<Influence>>> {
    let n = lap.n;
    let mut index = vec![u32::MAX; n];
    for (k, &v) in unknown.iter().enumerate() {
        index[v] = k as u32;
    }
    // Bones seen on the matched vertices next to an unknown one (the others are 0 on
    // the whole boundary, so 0 everywhere).
    let mut bone_col: std::collections::BTreeMap<u32, usize> = Default::default();
    for &(i, j, _) in &lap.edges {
        for (a, b) in [(i, j), (j, i)] {
            if index[a as usize] != u32::MAX && matched[b as usize] {
                for inf in &copy.vertices[b as usize] {
                    let next = bone_col.len();
                    bone_col.entry(inf.bone).or_insert(next);
                }
            }
        }
    }
    // Columns in bone order, for a deterministic layout.
    let bones: Vec<u32> = bone_col.keys().copied().collect();
    let col_of: std::collections::BTreeMap<u32, usize> =
        bones.iter().enumerate().map(|(c, &b)| (b, c)).collect();
    let m = unknown.len();
    let diag: Vec<f64> = unknown.iter().map(|&v| lap.diag[v]).collect();
    let mut off = Vec::new();
    let mut rhs = vec![vec![0.0f64; m]; bones.len()];
    for &(i, j, w) in &lap.edges {
        let (ui, uj) = (index[i as usize], index[j as usize]);
        match (ui != u32::MAX, uj != u32::MAX) {
            (true, true) => off.push((ui, uj, -w)),
            (true, false) | (false, true) => {
                let (u, k) = if ui != u32::MAX { (ui, j) } else { (uj, i) };
                if matched[k as usize] {
                    for inf in &copy.vertices[k as usize] {
                        if let Some(&c) = col_of.get(&inf.bone) {
                            rhs[c][u as usize] += w * inf.weight as f64;
                        }
                    }
                }
            }
            (false, false) => {}
        }
    }
    let sol = super::solve::solve_columns(m, &diag, &off, &rhs)?;
    let mut rows: Vec<Vec<Influence>> = vec![Vec::new(); m];
    for (c, col) in sol.iter().enumerate() {
        for (u, &x) in col.iter().enumerate() {
            if !x.is_finite() {
                return Err(crate::error::Error::stage(
                    "bind",
                    "garment inpainting gave a non-finite weight",
                ));
            }
            if x > 1e-6 {
                rows[u].push(Influence {
                    bone: bones[c],
                    weight: x as f32,
                });
            }
        }
    }
    for r in &mut rows {
        let s: f32 = r.iter().map(|i| i.weight).sum();
        if s > 0.0 {
            r.iter_mut().for_each(|i| i.weight /= s);
        }
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An open tube around the Y axis through `c` (x, z), radius `r`, from `y0` to `y1`:
    /// `rings` rings of `segs` vertices, wound outward; closed with two fan caps when
    /// `capped`.
    fn tube(
        c: (f32, f32),
        r: f32,
        (y0, y1): (f32, f32),
        rings: usize,
        segs: usize,
        capped: bool,
    ) -> Mesh {
        let mut positions = Vec::new();
        for i in 0..rings {
            let y = y0 + (y1 - y0) * i as f32 / (rings - 1) as f32;
            for j in 0..segs {
                let a = std::f32::consts::TAU * j as f32 / segs as f32;
                positions.push(Vec3::new(c.0 + r * a.cos(), y, c.1 + r * a.sin()));
            }
        }
        let v = |i: usize, j: usize| (i * segs + j % segs) as u32;
        let mut triangles = Vec::new();
        for i in 0..rings - 1 {
            for j in 0..segs {
                triangles.push([v(i, j), v(i + 1, j), v(i, j + 1)]);
                triangles.push([v(i, j + 1), v(i + 1, j), v(i + 1, j + 1)]);
            }
        }
        if capped {
            let bottom = positions.len() as u32;
            positions.push(Vec3::new(c.0, y0, c.1));
            let top = positions.len() as u32;
            positions.push(Vec3::new(c.0, y1, c.1));
            for j in 0..segs {
                triangles.push([bottom, v(0, j), v(0, j + 1)]);
                triangles.push([top, v(rings - 1, j + 1), v(rings - 1, j)]);
            }
        }
        Mesh {
            positions,
            triangles,
            ..Default::default()
        }
    }

    /// Appends `b` to `a` (a second island).
    fn join(a: &Mesh, b: &Mesh) -> Mesh {
        let k = a.positions.len() as u32;
        let mut m = a.clone();
        m.positions.extend_from_slice(&b.positions);
        m.triangles
            .extend(b.triangles.iter().map(|t| t.map(|i| i + k)));
        m
    }

    /// A vertical sheet in the plane `z`, `nx` x `ny` vertices over `x0..x1`, `y0..y1`,
    /// facing +Z.
    fn sheet(z: f32, (x0, x1): (f32, f32), (y0, y1): (f32, f32), nx: usize, ny: usize) -> Mesh {
        let mut positions = Vec::new();
        for i in 0..nx {
            for j in 0..ny {
                positions.push(Vec3::new(
                    x0 + (x1 - x0) * i as f32 / (nx - 1) as f32,
                    y0 + (y1 - y0) * j as f32 / (ny - 1) as f32,
                    z,
                ));
            }
        }
        let v = |i: usize, j: usize| (i * ny + j) as u32;
        let mut triangles = Vec::new();
        for i in 0..nx - 1 {
            for j in 0..ny - 1 {
                triangles.push([v(i, j), v(i + 1, j), v(i, j + 1)]);
                triangles.push([v(i + 1, j), v(i + 1, j + 1), v(i, j + 1)]);
            }
        }
        Mesh {
            positions,
            triangles,
            ..Default::default()
        }
    }

    struct Fixture {
        body: Mesh,
        weights: Weights,
        bvh: Bvh,
        normals: Vec<Vec3>,
    }

    impl Fixture {
        fn new(body: Mesh, weights: Weights) -> Fixture {
            let bvh = Bvh::build(&body.positions, &body.triangles);
            let normals = body.compute_normals();
            Fixture {
                body,
                weights,
                bvh,
                normals,
            }
        }

        fn surface(&self) -> BodySurface<'_> {
            BodySurface {
                bvh: &self.bvh,
                triangles: &self.body.triangles,
                weights: &self.weights,
                normals: &self.normals,
            }
        }

        fn plain(&self, target: &[Vec3]) -> Weights {
            transfer(&self.bvh, &self.body.triangles, &self.weights, target)
        }
    }

    /// An arm: a capped cylinder of radius 0.1 from y = 0 to 1, bone 0 weighted `1 - y`
    /// and bone 1 weighted `y`.
    fn arm() -> Fixture {
        let body = tube((0.0, 0.0), 0.1, (0.0, 1.0), 21, 32, true);
        let weights = Weights {
            vertices: body
                .positions
                .iter()
                .map(|p| {
                    vec![
                        Influence {
                            bone: 0,
                            weight: 1.0 - p.y,
                        },
                        Influence {
                            bone: 1,
                            weight: p.y,
                        },
                    ]
                })
                .collect(),
        };
        Fixture::new(body, weights)
    }

    /// A sleeve over the arm: 1 % of the height outside it, from y = 0.2 to 0.8.
    fn sleeve() -> Mesh {
        tube((0.0, 0.0), 0.11, (0.2, 0.8), 13, 24, false)
    }

    fn diff(a: &Weights, b: &Weights, v: usize, bones: u32) -> f32 {
        (0..bones)
            .map(|k| (a.get(v, k) - b.get(v, k)).abs())
            .fold(0.0, f32::max)
    }

    #[test]
    fn a_garment_lying_on_the_body_is_the_plain_copy() {
        let f = arm();
        // The body's own surface as a garment: every vertex matches.
        let on = f.body.clone();
        let r = transfer_robust(&f.surface(), &on, &TransferOptions::default());
        assert_eq!(r.stats.matched, on.positions.len());
        assert_eq!((r.stats.inpainted, r.stats.fallback), (0, 0));
        let plain = f.plain(&on.positions);
        for v in 0..on.positions.len() {
            assert!(diff(&r.weights, &plain, v, 2) <= 1e-4, "vertex {v}");
        }
        // A close shell too.
        let s = sleeve();
        let r = transfer_robust(&f.surface(), &s, &TransferOptions::default());
        assert_eq!(r.stats.matched_fraction, 1.0);
        let plain = f.plain(&s.positions);
        for v in 0..s.positions.len() {
            assert!(diff(&r.weights, &plain, v, 2) <= 1e-4, "vertex {v}");
        }
    }

    #[test]
    fn a_vertex_pushed_far_from_the_body_is_inpainted_not_copied() {
        let f = arm();
        let mut s = sleeve();
        // Ring 6 (y = 0.5), segment 0: out and up, so that its closest skin is at
        // y = 0.65.
        let v = 6 * 24;
        s.positions[v] += Vec3::new(0.12, 0.15, 0.0);
        let r = transfer_robust(&f.surface(), &s, &TransferOptions::default());
        assert!(!r.matched[v]);
        assert!(r.inpainted[v]);
        assert!(r.stats.inpainted >= 1);
        assert_eq!(r.stats.fallback, 0);
        let plain = f.plain(&s.positions);
        assert!(
            (plain.get(v, 1) - 0.65).abs() < 0.01,
            "{:?}",
            plain.vertices[v]
        );
        // Inpainted from its ring (y = 0.5), not copied from y = 0.65.
        // A convex combination of its neighbours (rings at y = 0.45, 0.5, 0.55).
        let w = r.weights.get(v, 1);
        assert!((0.449..=0.551).contains(&w), "{:?}", r.weights.vertices[v]);
        // The vertices around it keep (close to) their own height's weights.
        for u in [v + 1, v + 23, v - 24, v + 24] {
            let y = (u / 24) as f32 * 0.05 + 0.2;
            assert!((r.weights.get(u, 1) - y).abs() < 0.03, "vertex {u}");
        }
    }

    #[test]
    fn the_hem_between_the_legs_mixes_both_legs() {
        // Two legs (x = +-0.1, radius 0.05): left (+X) weighted to bone 0, right to bone
        // 1; an apron in front of them at z = 0.08 bridging the gap.
        let left = tube((0.1, 0.0), 0.05, (0.0, 0.5), 11, 32, true);
        let right = tube((-0.1, 0.0), 0.05, (0.0, 0.5), 11, 32, true);
        let body = join(&left, &right);
        let nl = left.positions.len();
        let weights = Weights {
            vertices: (0..body.positions.len())
                .map(|v| {
                    vec![Influence {
                        bone: u32::from(v >= nl),
                        weight: 1.0,
                    }]
                })
                .collect(),
        };
        let f = Fixture::new(body, weights);
        let (nx, ny) = (21, 9);
        let apron = sheet(0.08, (-0.25, 0.25), (0.1, 0.4), nx, ny);
        let r = transfer_robust(&f.surface(), &apron, &TransferOptions::default());
        let plain = f.plain(&apron.positions);
        // The apron in front of each leg copies it.
        for j in 0..ny {
            for (i, bone) in [(14, 0u32), (6, 1u32)] {
                let v = i * ny + j;
                assert!(r.matched[v], "vertex {v} at {}", apron.positions[v]);
                assert!(r.weights.get(v, bone) > 0.999);
            }
        }
        // The middle column (x = 0) is matched to nothing: the plain copy takes one leg,
        // the inpainting half of each (symmetric within 0.05).
        for j in 0..ny {
            let v = 10 * ny + j;
            assert!(!r.matched[v] && r.inpainted[v]);
            let top = plain.vertices[v][0].weight;
            assert!(top > 0.99, "plain copy {:?}", plain.vertices[v]);
            let (a, b) = (r.weights.get(v, 0), r.weights.get(v, 1));
            assert!((a - 0.5).abs() < 0.05 && (b - 0.5).abs() < 0.05, "{a} {b}");
        }
        // The free edges beyond the legs follow their leg.
        for j in 0..ny {
            assert!(r.weights.get(20 * ny + j, 0) > 0.95);
            assert!(r.weights.get(j, 1) > 0.95);
        }
        assert_eq!(r.stats.fallback, 0);
        assert!(r.stats.matched_fraction > 0.2 && r.stats.matched_fraction < 0.8);
    }

    #[test]
    fn an_island_with_no_match_keeps_the_plain_copy() {
        let f = arm();
        let s = sleeve();
        let far = tube((0.5, 0.0), 0.05, (0.4, 0.6), 5, 12, false);
        let g = join(&s, &far);
        let r = transfer_robust(&f.surface(), &g, &TransferOptions::default());
        let n0 = s.positions.len();
        assert_eq!(r.stats.fallback, far.positions.len());
        assert_eq!(r.stats.fallback_islands, 1);
        assert_eq!(r.stats.islands, 2);
        assert_eq!(r.stats.matched, n0);
        let plain = f.plain(&g.positions);
        for v in n0..g.positions.len() {
            assert!(!r.inpainted[v]);
            assert!(diff(&r.weights, &plain, v, 2) <= 1e-6);
        }
    }

    #[test]
    fn a_garment_wound_inward_is_flipped_not_rejected() {
        let f = arm();
        let mut s = sleeve();
        s.triangles.iter_mut().for_each(|t| t.swap(1, 2));
        let r = transfer_robust(&f.surface(), &s, &TransferOptions::default());
        assert_eq!(r.stats.flipped_islands, 1);
        assert_eq!(r.stats.matched, s.positions.len());
    }

    #[test]
    fn the_distance_limit_follows_the_garment_offset_within_bounds() {
        let f = arm();
        let r = transfer_robust(&f.surface(), &sleeve(), &TransferOptions::default());
        assert!((r.stats.median_offset - 0.01).abs() < 1e-3);
        assert!((r.stats.distance_limit - 0.03).abs() < 3e-3);
        let loose = tube((0.0, 0.0), 0.13, (0.2, 0.8), 13, 24, false);
        let r = transfer_robust(&f.surface(), &loose, &TransferOptions::default());
        assert_eq!(r.stats.distance_limit, 0.08);
        assert_eq!(r.stats.matched_fraction, 1.0);
        let tight = tube((0.0, 0.0), 0.1005, (0.2, 0.8), 13, 24, false);
        let r = transfer_robust(&f.surface(), &tight, &TransferOptions::default());
        assert_eq!(r.stats.distance_limit, 0.02);
    }
}
