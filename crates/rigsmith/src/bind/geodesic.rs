//! Geodesic voxel binding (after Dionne and de Lasa 2013, "Geodesic voxel binding for
//! production character meshes"): weights from distances taken *through the solid* of
//! the character, for characters that are no single closed skin (pieces that do not
//! touch, open shells, intersecting garments). Every part that follows the body is put
//! into one volume and every vertex of every such part is weighted from it.
//!
//! 1. **Voxelize** the union of the given meshes (skin pieces, garments, hair; all in
//!    units of H) at side `h` = H/256, then H/180, H/90, H/45 until the volume closes
//!    ([`super::volumetric::solid_grid`]: surface cells plus what a 6-connected flood
//!    from the grid's border does not reach; closed when 90% of the bones' middles are
//!    solid). A solid above [`MAX_SOLID`] cells is skipped for the next coarser voxel.
//!    The flood comes in through holes larger than the voxel (eye sockets, a mouth,
//!    gaps between pieces); around each bone whose middle it left outside, the outside
//!    cells within [`WINDING_RADIUS`] whose generalized winding number is above 1/2 are
//!    put back inside ([`super::winding`], sampled every third cell).
//! 2. **Seeds.** Each deform bone segment is rasterized into the grid; its solid cells
//!    are its seeds (a bone that passes through no solid cell seeds its own cells).
//! 3. **Distances.** One multi-source Dijkstra over the solid cells (26 neighbours,
//!    Euclidean step lengths 1, √2, √3 voxels) gives every cell its distance to the
//!    nearest bone, `dmin`. A piece of the solid that no bone reaches (a hair card or a
//!    garment that touches nothing) is joined to the nearest reached cell by one
//!    straight edge of its true length, so it takes the weights of the body where it is
//!    closest. Then per bone (in parallel) a Dijkstra from the bone's seeds gives its
//!    geodesic distance `d_b`, bounded: a cell is not expanded past
//!    `(reach + 1) · dmin + margin + 2 voxels`, so each bone visits only the cells where
//!    it can still weigh something and the cost stays near-linear in the solid.
//! 4. **To the vertices.** A vertex's distance to bone `b` is the trilinear
//!    interpolation of `d_b` over the solid cells around it (renormalized over those
//!    that are solid), or the nearest solid cell within 3 cells plus the straight
//!    distance to it. The distances through the cells stand for the geodesic leg and the
//!    interpolation (or the straight hop) for the Euclidean leg from the vertex into the
//!    solid.
//! 5. **Falloff.** The paper weights bone `b` at a vertex by
//!    `f(d) = 1 / ((1 - α) d + α d²)^p`: `α` (here [`GeodesicOptions::alpha`]) blends a
//!    linear and a quadratic distance, so that a larger `α` makes far bones fall off
//!    faster (stiffer, more rigid bindings), and `p` ([`GeodesicOptions::exponent`], 2
//!    in the paper) sets how sharply nearer bones win. Distances are in units of H and
//!    at least half a voxel. To give each bone a bounded support, the weight is
//!    `max(0, f(d_b) - f(D))` with `D = reach · d_min + margin` (`d_min` the vertex's
//!    nearest bone): it falls continuously to zero where a bone is `reach` times as far
//!    as the nearest one. The weights are normalized per vertex; the binder then limits
//!    the influences ([`super::keep_largest_smooth`]).
//!
//! Everything is in units of H, so the weights do not depend on the character's scale.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, VecDeque};

use glam::{IVec3, Vec3};
use rayon::prelude::*;

use super::bones::Segment;
use super::volumetric::{solid_grid, Grid, N6};
use crate::error::{Error, Result};
use crate::model::{Influence, Weights};

/// Voxel sides tried, as fractions of H.
pub const GEODESIC_STEPS: [f32; 4] = [1.0 / 256.0, 1.0 / 180.0, 1.0 / 90.0, 1.0 / 45.0];

/// Largest solid, in cells. Dijkstra's cost is near-linear in the solid, so the grid can
/// be much finer than the volumetric route's, whose factorization grows faster; a bulky
/// character (a chibi's large head) takes H/180 and stays near a second.
pub const MAX_SOLID: usize = 600_000;

/// Options of [`geodesic`] (the paper's falloff and the support bound).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GeodesicOptions {
    /// Blend of the linear (0) and quadratic (1) distance in the falloff, in `[0, 1]`
    /// (default 0: with distances in units of H the quadratic term changes little).
    pub alpha: f32,
    /// Exponent of the falloff (the paper's 2; larger: sharper transitions). The default,
    /// 8, was chosen on the re-weighting benchmark (BENCHMARKS.md): 2 blends every joint
    /// over a wide band and doubles the error at elbows, knees and the neck.
    pub exponent: f32,
    /// A bone weighs nothing where it is this many times as far as the nearest bone.
    pub reach: f32,
    /// Added to the support bound, in units of H (so that bones meeting at a joint
    /// blend near it).
    pub margin: f32,
    /// Stretch of the distance past a bone's ends along its axis, `k >= 1`: the distance
    /// used is `sqrt(d² + (k² - 1) o²)` with `o` how far the vertex lies past the head or
    /// the tail. 1 is the paper's plain geodesic distance; above 1, past a joint the bone
    /// beyond it wins (the face goes to the head, not to the neck below it), as bone
    /// heat's reach does ([`super::bone_reach`]).
    pub past_end: f32,
}

impl Default for GeodesicOptions {
    fn default() -> Self {
        GeodesicOptions {
            alpha: 0.0,
            exponent: 8.0,
            reach: 4.0,
            margin: 0.02,
            past_end: 1.0,
        }
    }
}

/// One mesh put into the volume: positions (n x 3, units of H) and triangles.
#[derive(Debug, Clone, Copy)]
pub struct MeshRef<'a> {
    /// Vertex positions, units of H.
    pub positions: &'a [Vec3],
    /// Triangles (vertex indices).
    pub triangles: &'a [[u32; 3]],
}

/// What [`geodesic`] produced.
#[derive(Debug, Clone)]
pub struct GeodesicOutcome {
    /// Weights per input mesh, in input order: normalized, not yet limited.
    pub weights: Vec<Weights>,
    /// The voxel side used, in units of H.
    pub voxel: f32,
    /// Solid cells of the grid used (bone cells outside the solid included).
    pub solid: usize,
    /// One line per voxel size tried.
    pub attempts: Vec<String>,
    /// Pieces of the solid no bone reached, joined to the nearest reached cell.
    pub bridged: usize,
    /// Vertices no solid cell reached (weighted 1.0 to their nearest bone).
    pub unreached: usize,
    /// Cells the flood fill took for outside (it came in through a hole) that the
    /// winding number put back inside, around bones whose middle lay outside.
    pub filled: usize,
}

/// The solid cells as a graph: node ids per grid cell, 26-neighbour steps, and the
/// straight edges that join pieces no bone reaches.
struct Solid {
    /// Node id per grid cell (`u32::MAX`: not solid).
    id: Vec<u32>,
    /// Grid index per node.
    cells: Vec<u32>,
    /// 26 neighbour steps: grid index delta and length in voxels.
    steps: Vec<(isize, f32)>,
    /// Extra edges per node: (other node, length in voxels).
    extra: BTreeMap<u32, Vec<(u32, f32)>>,
}

impl Solid {
    /// Dijkstra from `seeds` (distance 0) into `dist` (voxels; must be infinite on
    /// entry at every node), recording the nodes it set in `touched`. With `bound =
    /// (dmin, k, m)` a node is settled only while its distance is at most
    /// `k · dmin[node] + m`.
    fn dijkstra(
        &self,
        seeds: &[u32],
        bound: Option<(&[f32], f32, f32)>,
        dist: &mut [f32],
        touched: &mut Vec<u32>,
    ) {
        let mut heap: BinaryHeap<Reverse<u64>> = BinaryHeap::new();
        let key = |d: f32, n: u32| Reverse(((d.to_bits() as u64) << 32) | n as u64);
        for &s in seeds {
            if dist[s as usize] > 0.0 {
                if !dist[s as usize].is_finite() {
                    touched.push(s);
                }
                dist[s as usize] = 0.0;
                heap.push(key(0.0, s));
            }
        }
        while let Some(Reverse(k)) = heap.pop() {
            let i = (k & 0xffff_ffff) as u32;
            let d = f32::from_bits((k >> 32) as u32);
            if d > dist[i as usize] {
                continue;
            }
            let mut relax = |j: u32, len: f32| {
                let nd = d + len;
                let ju = j as usize;
                if nd >= dist[ju] {
                    return;
                }
                if let Some((dmin, k, m)) = bound {
                    if nd > k * dmin[ju] + m {
                        return;
                    }
                }
                if !dist[ju].is_finite() {
                    touched.push(j);
                }
                dist[ju] = nd;
                heap.push(key(nd, j));
            };
            let c = self.cells[i as usize] as isize;
            for &(delta, len) in &self.steps {
                let j = self.id[(c + delta) as usize];
                if j != u32::MAX {
                    relax(j, len);
                }
            }
            if let Some(list) = self.extra.get(&i) {
                for &(j, len) in list {
                    relax(j, len);
                }
            }
        }
    }
}

/// Grid coordinates of grid index `k`.
fn coords(g: &Grid, k: usize) -> IVec3 {
    let dx = g.dim.x as usize;
    let dy = g.dim.y as usize;
    IVec3::new(
        (k % dx) as i32,
        ((k / dx) % dy) as i32,
        (k / (dx * dy)) as i32,
    )
}

/// Cells of the grid a segment passes through (sampled at a quarter voxel).
fn segment_cells(g: &Grid, s: &Segment) -> Vec<usize> {
    let len = (s.tail - s.head).length();
    let n = ((len / (0.25 * g.h)).ceil() as usize).clamp(1, 1 << 16);
    let mut out: Vec<usize> = (0..=n)
        .map(|i| g.of(s.head + (s.tail - s.head) * (i as f32 / n as f32)))
        .filter(|&c| g.inb(c))
        .map(|c| g.idx(c))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The solid cells off the grid's border (so every neighbour step stays inside) as a
/// graph, and each bone's seed nodes (a bone through no solid cell seeds its own cells).
fn solid_and_seeds(g: &Grid, segs: &[Segment]) -> (Solid, Vec<Vec<u32>>) {
    // Nodes: solid cells off the grid's border (so every neighbour step stays inside).
    let (dx, dy) = (g.dim.x as usize, g.dim.y as usize);
    let on_border = |k: usize| {
        let c = coords(g, k);
        c.x == 0
            || c.y == 0
            || c.z == 0
            || c.x == g.dim.x - 1
            || c.y == g.dim.y - 1
            || c.z == g.dim.z - 1
    };
    let mut id = vec![u32::MAX; g.cell.len()];
    let mut cells: Vec<u32> = Vec::new();
    for (k, &v) in g.cell.iter().enumerate() {
        if v != 2 && !on_border(k) {
            id[k] = cells.len() as u32;
            cells.push(k as u32);
        }
    }
    // Bone seeds; a bone through no solid cell seeds its own cells.
    let mut seeds: Vec<Vec<u32>> = Vec::with_capacity(segs.len());
    for s in segs {
        let ks: Vec<usize> = segment_cells(g, s)
            .into_iter()
            .filter(|&k| !on_border(k))
            .collect();
        let mut list: Vec<u32> = ks
            .iter()
            .filter(|&&k| id[k] != u32::MAX)
            .map(|&k| id[k])
            .collect();
        if list.is_empty() {
            for &k in &ks {
                if id[k] == u32::MAX {
                    id[k] = cells.len() as u32;
                    cells.push(k as u32);
                }
                list.push(id[k]);
            }
        }
        seeds.push(list);
    }
    let mut steps = Vec::with_capacity(26);
    for oz in -1isize..=1 {
        for oy in -1isize..=1 {
            for ox in -1isize..=1 {
                if (ox, oy, oz) != (0, 0, 0) {
                    let delta = ox + dx as isize * (oy + dy as isize * oz);
                    let len = ((ox * ox + oy * oy + oz * oz) as f32).sqrt();
                    steps.push((delta, len));
                }
            }
        }
    }
    let solid = Solid {
        id,
        cells,
        steps,
        extra: BTreeMap::new(),
    };
    (solid, seeds)
}

/// Where each vertex reads the distance fields: per vertex, the solid nodes around it
/// with their trilinear factors (renormalized when read), or the nearest reached node
/// within 3 cells with the hop to it in voxels.
struct VertexSamples {
    /// Vertex `v`'s samples are `samples[start[v]..start[v + 1]]`.
    start: Vec<u32>,
    /// (node, trilinear factor, extra voxels).
    samples: Vec<(u32, f32, f32)>,
}

impl VertexSamples {
    /// `h`: the voxel side the grid was made with (units of H).
    fn new(g: &Grid, h: f32, solid: &Solid, dmin: &[f32], positions: &[Vec3]) -> VertexSamples {
        let mut start = Vec::with_capacity(positions.len() + 1);
        let mut samples: Vec<(u32, f32, f32)> = Vec::new();
        for p in positions {
            start.push(samples.len() as u32);
            let gp = (*p - g.lo) / h - Vec3::splat(0.5);
            let base = gp.floor().as_ivec3();
            let f = gp - base.as_vec3();
            for corner in 0..8 {
                let off = IVec3::new(corner & 1, (corner >> 1) & 1, (corner >> 2) & 1);
                let c = base + off;
                if !g.inb(c) {
                    continue;
                }
                let j = solid.id[g.idx(c)];
                if j == u32::MAX || !dmin[j as usize].is_finite() {
                    continue;
                }
                let t = (if off.x == 1 { f.x } else { 1.0 - f.x })
                    * (if off.y == 1 { f.y } else { 1.0 - f.y })
                    * (if off.z == 1 { f.z } else { 1.0 - f.z });
                // Corners with a vanishing share are left out, so that rounding (a vertex
                // on a cell's centre plane) cannot add or drop one.
                if t > 1e-3 {
                    samples.push((j, t, 0.0));
                }
            }
            if samples.len() as u32 == *start.last().expect("pushed") {
                // The nearest reached solid cell within 3 cells, plus the hop to it.
                if let Some((d, j)) =
                    g.nearest_cell(*p, &solid.id, |j| dmin[j as usize].is_finite())
                {
                    samples.push((j, 1.0, d));
                }
            }
        }
        start.push(samples.len() as u32);
        VertexSamples { start, samples }
    }

    /// The distance of each vertex in the field `dist` (voxels), for the vertices whose
    /// samples are all reached: (vertex, distance).
    fn read(&self, dist: &[f32]) -> Vec<(u32, f32)> {
        let mut out = Vec::new();
        for v in 0..self.start.len() - 1 {
            let (a, b) = (self.start[v] as usize, self.start[v + 1] as usize);
            if a == b {
                continue;
            }
            let mut acc = 0.0f32;
            let mut tot = 0.0f32;
            let mut ok = true;
            for &(j, t, add) in &self.samples[a..b] {
                let d = dist[j as usize];
                if !d.is_finite() {
                    ok = false;
                    break;
                }
                acc += t * (d + add);
                tot += t;
            }
            if ok && tot > 0.0 {
                out.push((v as u32, acc / tot));
            }
        }
        out
    }
}

/// The paper's falloff with its support bound (see the module docs), in units of H.
struct Falloff {
    alpha: f32,
    exponent: f32,
    reach: f32,
    margin: f32,
    /// Smallest distance (half a voxel).
    floor: f32,
}

impl Falloff {
    /// `f(d) = 1 / ((1 - α) d + α d²)^p`, `d` at least the floor.
    fn f(&self, d: f32) -> f32 {
        let d = d.max(self.floor);
        ((1.0 - self.alpha) * d + self.alpha * d * d).powf(-self.exponent)
    }
}

/// The influences of a vertex at `p` from its distances `list` (bone segment index,
/// distance in H), before normalization; `true` when no solid cell reached it (it then
/// takes its nearest bone in a straight line).
fn vertex_influences(
    list: &[(u32, f32)],
    p: Vec3,
    segs: &[Segment],
    fo: &Falloff,
) -> (Vec<Influence>, bool) {
    let Some(dm) = list.iter().map(|x| x.1).reduce(f32::min) else {
        // No solid cell reached the vertex: its nearest bone in a straight line.
        let near = |s: &Segment| (s.closest(p) - p).length_squared();
        let b = segs
            .iter()
            .min_by(|a, b| near(a).total_cmp(&near(b)))
            .expect("a bone");
        return (
            vec![Influence {
                bone: b.bone,
                weight: 1.0,
            }],
            true,
        );
    };
    let cut = fo.f(fo.reach * dm.max(fo.floor) + fo.margin);
    let mut out: Vec<Influence> = list
        .iter()
        .filter_map(|&(b, d)| {
            let w = fo.f(d) - cut;
            (w > 0.0 && w.is_finite()).then_some(Influence {
                bone: segs[b as usize].bone,
                weight: w,
            })
        })
        .collect();
    if out.is_empty() {
        // Only when every bone lies at the bound: keep the nearest.
        let (b, _) = list
            .iter()
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .expect("non-empty");
        out.push(Influence {
            bone: segs[*b as usize].bone,
            weight: 1.0,
        });
    }
    (out, false)
}

/// Weights every vertex of `meshes` (units of H) to the bone segments `segs` (same unit)
/// by geodesic distance through the voxelized union of the meshes (see the module docs).
///
/// Errors: no bone, or no voxel size whose grid fits.
pub fn geodesic(
    meshes: &[MeshRef<'_>],
    segs: &[Segment],
    o: &GeodesicOptions,
) -> Result<GeodesicOutcome> {
    if segs.is_empty() {
        return Err(Error::stage("bind", "no deform bone to weight to"));
    }
    let mut positions: Vec<Vec3> = Vec::new();
    let mut triangles: Vec<[u32; 3]> = Vec::new();
    for m in meshes {
        let base = positions.len() as u32;
        positions.extend_from_slice(m.positions);
        triangles.extend(m.triangles.iter().map(|t| t.map(|i| i + base)));
    }
    if positions.is_empty() {
        return Err(Error::stage("bind", "no vertex to weight"));
    }
    let (mut g, h, attempts) =
        solid_grid(&positions, &triangles, segs, &GEODESIC_STEPS, MAX_SOLID)?;
    let filled = fill_by_winding(&mut g, &positions, &triangles, segs);

    let (mut solid, seeds) = solid_and_seeds(&g, segs);
    let n = solid.cells.len();
    let all_seeds: Vec<u32> = seeds.iter().flatten().copied().collect();

    // Distance to the nearest bone; join the pieces no bone reaches.
    let nearest = |solid: &Solid| {
        let mut dmin = vec![f32::INFINITY; n];
        let mut touched = Vec::new();
        solid.dijkstra(&all_seeds, None, &mut dmin, &mut touched);
        dmin
    };
    let mut dmin = nearest(&solid);
    let bridged = bridge(&g, &mut solid, &dmin);
    if bridged > 0 {
        dmin = nearest(&solid);
    }

    let samples = VertexSamples::new(&g, h, &solid, &dmin, &positions);
    let nv = positions.len();

    // Per bone: bounded Dijkstra, then its distance at every vertex (voxels).
    let kc = o.reach + 1.0;
    let mc = o.margin / h + 2.0;
    let per_bone: Vec<Vec<(u32, f32)>> = seeds
        .par_iter()
        .map_init(
            || (vec![f32::INFINITY; n], Vec::<u32>::new()),
            |(dist, touched), sd| {
                solid.dijkstra(sd, Some((&dmin, kc, mc)), dist, touched);
                let out = samples.read(dist);
                for &j in touched.iter() {
                    dist[j as usize] = f32::INFINITY;
                }
                touched.clear();
                out
            },
        )
        .collect();

    // Falloff, support bound, normalization.
    let mut dists: Vec<Vec<(u32, f32)>> = vec![Vec::new(); nv];
    let stretch = (o.past_end * o.past_end - 1.0).max(0.0);
    for (b, list) in per_bone.iter().enumerate() {
        let s = &segs[b];
        let axis = s.tail - s.head;
        let len = axis.length();
        let u = if len > 0.0 { axis / len } else { Vec3::ZERO };
        for &(v, d) in list {
            let d = d * h;
            let t = (positions[v as usize] - s.head).dot(u);
            let past = (t - len).max(-t).max(0.0);
            dists[v as usize].push((b as u32, (d * d + stretch * past * past).sqrt()));
        }
    }
    let falloff = Falloff {
        alpha: o.alpha,
        exponent: o.exponent,
        reach: o.reach,
        margin: o.margin,
        floor: 0.5 * h,
    };
    let flat: Vec<(Vec<Influence>, bool)> = dists
        .par_iter()
        .zip(positions.par_iter())
        .map(|(list, p)| vertex_influences(list, *p, segs, &falloff))
        .collect();
    let unreached = flat.iter().filter(|x| x.1).count();
    let mut weights = Vec::with_capacity(meshes.len());
    let mut it = flat.into_iter();
    for m in meshes {
        let mut w = Weights {
            vertices: it.by_ref().take(m.positions.len()).map(|x| x.0).collect(),
        };
        w.sort();
        w.normalize();
        weights.push(w);
    }
    Ok(GeodesicOutcome {
        weights,
        voxel: h,
        solid: n,
        attempts,
        bridged,
        unreached,
        filled,
    })
}

/// Distance from a bone, in units of H, within which cells are tested by winding number.
pub const WINDING_RADIUS: f32 = 0.1;

/// Puts back inside the cells around bones whose middle the flood fill left outside (it
/// came in through an eye socket, a mouth or a gap between pieces): every outside cell
/// within [`WINDING_RADIUS`] of such a bone whose generalized winding number
/// ([`super::winding`]) is above 1/2, sampled on a lattice of every third cell. Returns
/// the number of cells filled.
fn fill_by_winding(
    g: &mut Grid,
    positions: &[Vec3],
    triangles: &[[u32; 3]],
    segs: &[Segment],
) -> usize {
    let open: Vec<&Segment> = segs
        .iter()
        .filter(|s| !g.solid(g.of(0.5 * (s.head + s.tail))))
        .collect();
    if open.is_empty() {
        return 0;
    }
    const STRIDE: i32 = 3;
    let r = WINDING_RADIUS;
    let centre = |c: IVec3| g.lo + (c.as_vec3() + Vec3::splat(0.5)) * g.h;
    // Outside cells near an open bone, and the lattice point each one reads.
    let mut cand: Vec<(usize, IVec3)> = Vec::new();
    for s in &open {
        let lo = g.of(s.head.min(s.tail) - Vec3::splat(r)).max(IVec3::ZERO);
        let hi = g
            .of(s.head.max(s.tail) + Vec3::splat(r))
            .min(g.dim - IVec3::ONE);
        for z in lo.z..=hi.z {
            for y in lo.y..=hi.y {
                for x in lo.x..=hi.x {
                    let c = IVec3::new(x, y, z);
                    let k = g.idx(c);
                    let p = centre(c);
                    if g.cell[k] == 2 && (s.closest(p) - p).length() <= r {
                        let l = (c + IVec3::splat(STRIDE / 2)).div_euclid(IVec3::splat(STRIDE))
                            * STRIDE;
                        cand.push((k, l));
                    }
                }
            }
        }
    }
    let mut lattice: Vec<IVec3> = cand.iter().map(|x| x.1).collect();
    lattice.sort_unstable_by_key(|c| (c.z, c.y, c.x));
    lattice.dedup();
    let mesh = crate::model::Mesh {
        positions: positions.to_vec(),
        triangles: triangles.to_vec(),
        ..Default::default()
    };
    let inside: Vec<bool> = lattice
        .par_iter()
        .map(|&c| super::winding::inside(&mesh, centre(c)))
        .collect();
    let mut filled = 0;
    for (k, l) in cand {
        let i = lattice
            .binary_search_by_key(&(l.z, l.y, l.x), |c| (c.z, c.y, c.x))
            .expect("sampled");
        if inside[i] && g.cell[k] == 2 {
            g.cell[k] = 0;
            filled += 1;
        }
    }
    filled
}

/// Joins each piece of the solid that no bone reaches (`dmin` infinite) to the nearest
/// reached node by one straight edge; returns the number of pieces joined.
fn bridge(g: &Grid, solid: &mut Solid, dmin: &[f32]) -> usize {
    let n = solid.cells.len();
    if dmin.iter().all(|d| d.is_finite()) {
        return 0;
    }
    // Nearest reached node of every grid cell, by a breadth-first walk over the grid.
    let mut origin = vec![u32::MAX; g.cell.len()];
    let mut queue = VecDeque::new();
    for (i, d) in dmin.iter().enumerate() {
        if d.is_finite() {
            let k = solid.cells[i] as usize;
            origin[k] = i as u32;
            queue.push_back(k);
        }
    }
    if queue.is_empty() {
        return 0;
    }
    while let Some(k) = queue.pop_front() {
        let c = coords(g, k);
        for d in N6 {
            let q = c + d;
            if g.inb(q) {
                let kq = g.idx(q);
                if origin[kq] == u32::MAX {
                    origin[kq] = origin[k];
                    queue.push_back(kq);
                }
            }
        }
    }
    // Pieces of unreached nodes; each joins at its node closest to its origin.
    let mut piece = vec![u32::MAX; n];
    let mut pieces = 0;
    for s in 0..n {
        if dmin[s].is_finite() || piece[s] != u32::MAX {
            continue;
        }
        piece[s] = pieces;
        let mut stack = vec![s as u32];
        let mut best: Option<(f32, u32, u32)> = None;
        while let Some(i) = stack.pop() {
            let k = solid.cells[i as usize] as usize;
            let o = origin[k];
            let gap = (coords(g, k) - coords(g, solid.cells[o as usize] as usize))
                .as_vec3()
                .length();
            if best.map_or(true, |(bd, bi, _)| gap < bd || (gap == bd && i < bi)) {
                best = Some((gap, i, o));
            }
            for &(delta, _) in &solid.steps {
                let j = solid.id[(k as isize + delta) as usize];
                if j != u32::MAX && !dmin[j as usize].is_finite() && piece[j as usize] == u32::MAX {
                    piece[j as usize] = pieces;
                    stack.push(j);
                }
            }
        }
        if let Some((gap, a, b)) = best {
            solid.extra.entry(a).or_default().push((b, gap));
            solid.extra.entry(b).or_default().push((a, gap));
        }
        pieces += 1;
    }
    pieces as usize
}
