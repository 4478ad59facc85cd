//! Bone heat (Baran and Popović 2007, "Automatic rigging and animation of 3D
//! characters"): each bone's weight is the equilibrium temperature of the surface when
//! that bone is held at 1 and every other at 0.
//!
//! For every vertex `j` the nearest *visible* bone segment (the straight segment from the
//! vertex to the closest point of the bone crosses no triangle), nearest by reach
//! ([`super::bone_reach`]: distance relative to the body's thickness around the bone),
//! at true distance `d_j` heats it with conductance `H_jj = min(c / d_j², 1 / w_j²)`
//! (`c` = [`HEAT_SCALE`]; `w_j` the narrowest transition, [`MIN_WIDTH_BONE`] of the
//! bone's length or [`MIN_WIDTH_EDGE`] of the vertex's mean edge length, whichever is
//! larger; `d_j` at least [`SPINE_NEAR`] of the flesh's thickness for a spine bone, whose
//! back lies close over it); `p_ij = 1` when bone `i` is that bone (split evenly between bones tied
//! within 1e-4 in reach; near an arm joint, split between the joint's two bones in
//! shares linear across the limb, [`super::joint_blend`]). The weights of bone `i` solve
//!
//! ```text
//! (L + M H) w_i = M H p_i
//! ```
//!
//! with `L` the cotangent Laplacian and `M` the lumped mass ([`super::laplacian`]). `L`
//! is dimensionless and `M H` is area over squared distance, so the system, and hence
//! the weights, do not change when the character is scaled: scale invariance holds by
//! construction. The matrix is the same for every bone: it is factored once (sparse
//! Cholesky, faer) and the per-bone right-hand sides are solved in parallel (rayon).
//! The weights of all bones sum to 1 on every vertex the heat reaches (the constant is
//! a solution for `p = 1`).
//!
//! Robustness:
//! * coincident vertices are welded first ([`super::weld`]), so split seams are not islands;
//! * degenerate triangles are skipped by the Laplacian;
//! * an island of the welded mesh that sees no bone has no heat source and would make
//!   the system singular: it is left out of the solve and its vertices are reported as
//!   unreached (the binder then takes the volumetric route).
//!
//! Visibility costs at most one ray per vertex in the common case: bones are tried in
//! increasing reach and the search stops at the first visible one (a later bone can only
//! reach less), or after [`MAX_RAYS`] rays or beyond [`FAR_FACTOR`] times the smallest
//! reach. Rays are cast first from a maximal independent set of vertices (in index
//! order); a vertex whose seed neighbours all saw their first bone with one ray, the
//! same bone that comes first (untied) for it, takes it without a ray; every other
//! vertex casts its own. Rays are tested against the bound mesh only, on its own
//! [`Bvh`]; a ray to a bone point inside the vertex's own island of the mesh only
//! against that island ([`super::sight`]: a skin piece sunk into another does not hide
//! the bones inside it).

use glam::{DVec3, Vec3};
use rayon::prelude::*;

use super::bone_reach;
use super::bones::Segment;
use super::joint_blend::{JointBlend, BAND, SPINE_BAND};
use super::laplacian;
use super::solve;
use super::weld;
use crate::error::Result;
use crate::geom::bvh::Bvh;
use crate::model::{Influence, Weights};

/// What bone heat produced and what it could not do.
#[derive(Debug, Clone)]
pub struct HeatOutcome {
    /// Weights per input vertex (n), influences with weight above 1e-6, not yet
    /// limited; unreached vertices have none.
    pub weights: Weights,
    /// Input vertices the heat did not reach (no visible bone on their island, or not
    /// on any valid triangle).
    pub unreached: usize,
    /// Islands of the welded mesh that see no bone.
    pub dark_islands: usize,
    /// Vertices merged by welding.
    pub welded: usize,
    /// Degenerate triangles skipped.
    pub degenerate: usize,
    /// Visibility rays cast.
    pub rays: usize,
    /// Closed skin pieces heated only by the bones they hold ([`super::piece_bones`]).
    pub restricted_pieces: usize,
    /// Wall-clock seconds per stage, in order (for profiling; not part of the result).
    pub stages: Vec<(&'static str, f64)>,
}

/// A bone farther than this many times the nearest bone (visible or not) is not tried:
/// a vertex that sees none of the bones near it gets no heat source and takes its
/// weights from its neighbours, as a rigger would want (a far bone seen through a gap
/// is the wrong bone).
pub const FAR_FACTOR: f32 = 4.0;

/// Most visibility rays cast from one vertex (same reasoning as [`FAR_FACTOR`]).
pub const MAX_RAYS: usize = 12;

/// Hits closer than this to the bone (in units of body height) do not block it: a
/// bone that touches or pierces the skin is seen through the skin it pierces, and the
/// verdict does not flip with rounding.
pub const END_TOL: f32 = 2e-3;

/// The heat conductance constant `c` of `H_jj = c / d_j²`. Baran and Popović use 1 with
/// area-normalized rows; with the lumped mass here, 10 gives firmer weights, measured
/// closer to the MakeHuman artist weights under test poses (mean vertex error 0.46% ->
/// 0.38% of H on the base body).
pub const HEAT_SCALE: f64 = 10.0;

/// The narrowest weight transition, as a fraction of the length of the bone that heats
/// the vertex: the heat conductance of a vertex is capped at `1 / w²` with `w` the
/// larger of this times the bone's length and [`MIN_WIDTH_EDGE`] times the vertex's
/// mean edge length. The heat's diffusion length is about `d / sqrt(c)` (`d` the
/// distance to the bone); with `c` = [`HEAT_SCALE`] that is a third of the limb's
/// radius, a step across the elbow or knee much sharper than an artist paints it (the
/// elbow bent 120 degrees and the forearm twisted 80 showed it, on MakeHuman bodies
/// and on low-poly game characters alike). Long bones get a blend at least this share
/// of their length; short bones (spine, pelvis, clavicle) keep the firm heat that
/// their thick surroundings need.
pub const MIN_WIDTH_BONE: f64 = 0.07;

/// The narrowest weight transition in units of the vertex's mean edge length (see
/// [`MIN_WIDTH_BONE`]): on a low-poly limb a firmer step would put a whole edge ring on
/// one bone, and the ring would tear away from its neighbours under a bend.
pub const MIN_WIDTH_EDGE: f64 = 0.5;

/// A vertex nearer a spine bone ([`JointBlend::is_spine`]) than this share
/// of the flesh's thickness around that bone (the mean of its profile,
/// [`super::bone_reach`]) is heated as if it lay that far.
///
/// The spine runs close to the back: MakeHuman's lies 0.02-0.04 H under the skin of
/// the back and 0.08-0.09 H behind the front's (its thickness 0.075-0.087 H, so the
/// floor is 0.05-0.06 H). Heated at `c / d²`, the back's skin over it took the firmest
/// heat of the trunk and its hand-over from one spine bone to the next was a step,
/// where the artist blends it over about the height it does at the flanks. Measured
/// on the re-weighting benchmark (`bench/reweight.sh`, 13 cases, character-poses
/// behind Blender of 169) and on `bench/weights_vs_blender.sh` (14 MakeHuman bodies,
/// body-poses behind of 182): none 26 / 24; 0.6: 24 / 17; 0.65: 24 / 16; **0.7: 23 /
/// 15**; 0.75-0.85: 23 / 16-17, `child_male` leg forward lost (1.859 -> 1.90 % H,
/// Blender 1.890); 1.3: 40 on the second (the arm poses lost: the chest's heat
/// softened). A floor from the vertex's edge length (1.75 edges) did as well on
/// MakeHuman but depends on the mesh's resolution; one from the bone's length (0.13
/// of it) did nothing (24 of 182).
pub const SPINE_NEAR: f64 = 0.7;

/// Weld tolerance in the mesh's unit (the binder passes positions in units of H).
pub const WELD_TOL: f32 = 1e-6;

/// Runs bone heat on one mesh (`positions`: n x 3, `triangles`: m x 3) for the given
/// bone segments, all in the same unit (the binder uses units of body height so that
/// tolerances are relative). `kin`: per segment, the segments that are its bone's
/// parent or children ([`bone_reach::skeleton_kin`]); with it, the thickness in the
/// reach is the flesh each bone carries ([`bone_reach::carried_thickness`]), without it
/// the plain [`bone_reach::bone_thickness`]. `by_piece`: when the skin is several
/// closed pieces, each piece is heated only by the bones it holds
/// ([`super::piece_bones`]); `false`, every bone heats every piece.
///
/// Errors when the sparse factorization fails (a singular or indefinite system).
pub fn bone_heat(
    positions: &[Vec3],
    triangles: &[[u32; 3]],
    segments: &[Segment],
    kin: Option<&[Vec<u32>]>,
    by_piece: bool,
) -> Result<HeatOutcome> {
    let n = positions.len();
    let clock = std::time::Instant::now();
    let mut stages: Vec<(&'static str, f64)> = Vec::new();
    let lap_time = |name: &'static str, stages: &mut Vec<(&'static str, f64)>| {
        let total: f64 = stages.iter().map(|s| s.1).sum();
        stages.push((name, clock.elapsed().as_secs_f64() - total));
    };
    let w = weld::weld(positions, triangles, WELD_TOL);
    let k = w.positions.len();
    let dpos: Vec<DVec3> = w.positions.iter().map(|p| p.as_dvec3()).collect();
    let lap = laplacian::cotangent(&dpos, &w.triangles);
    let bvh = Bvh::build(&w.positions, &w.triangles);
    let sight = super::sight::Sight::new(&w.positions, &w.triangles, &bvh);
    lap_time("weld, laplacian, bvh", &mut stages);

    // Nearest visible bone(s) of each welded vertex.
    let (lo, hi) = w.positions.iter().fold(
        (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
        |(l, h), p| (l.min(*p), h.max(*p)),
    );
    let far = (hi - lo).length().max(f32::MIN_POSITIVE);
    let thick0 = match kin {
        Some(k) => bone_reach::carried_thickness_in(&bvh, sight.pieces(), segments, k, far),
        None => bone_reach::bone_thickness(&bvh, segments, far),
    };
    let thick: Vec<[f32; 5]> = thick0
        .iter()
        .map(|p| p.map(|r| r.powf(bone_reach::THICKNESS_POWER)))
        .collect();
    let pieces = if by_piece {
        super::piece_bones::PieceBones::new(sight.pieces(), segments)
    } else {
        super::piece_bones::PieceBones::default()
    };
    let allow = |v: usize, b: usize| pieces.allows(sight.island(v), b);
    let near = nearest_bones(&w.positions, &lap, segments, &thick, &sight, &allow);
    let rays = near.iter().map(|x| x.2).sum();
    lap_time("visibility", &mut stages);

    // Islands over the Laplacian's edges; an island is lit when a vertex sees a bone.
    let edge_tris: Vec<[u32; 3]> = lap.edges.iter().map(|e| [e.0, e.1, e.1]).collect();
    let (label, nisl) = weld::islands(k, &edge_tris);
    let mut lit = vec![false; nisl];
    for v in 0..k {
        if !near[v].1.is_empty() {
            lit[label[v] as usize] = true;
        }
    }
    // A vertex of a lit island that sees no bone (hidden in a fold: under the chin, in
    // the mouth's corners) is heated by its nearest bone by reach: left to diffusion
    // alone it takes its weights from the skin across the fold (the under-chin from the
    // chest). A bone whose closest point is a free end (the clavicle's inner end) is
    // passed over: the vertex lies beyond what that bone carries.
    let joined = bone_reach::joined_ends(segments);
    let near: Vec<(f32, Vec<u32>, usize)> = near
        .into_par_iter()
        .enumerate()
        .map(|(v, x)| {
            if !x.1.is_empty() || lap.mass[v] <= 0.0 || !lit[label[v] as usize] {
                return x;
            }
            let p = w.positions[v];
            segments
                .iter()
                .zip(&thick)
                .enumerate()
                .filter(|(i, _)| allow(v, *i))
                .map(|(i, (s, t))| (i, bone_reach::reach(s, t, p)))
                .filter(|(i, r)| !bone_reach::past_free_end(&segments[*i], joined[*i], r))
                .min_by(|a, b| a.1.reach.total_cmp(&b.1.reach).then(a.0.cmp(&b.0)))
                .map_or(x.clone(), |(i, r)| (r.dist, vec![i as u32], x.2))
        })
        .collect();
    let dark_islands = (0..nisl)
        .filter(|&i| !lit[i])
        .filter(|&i| (0..k).any(|v| label[v] as usize == i && lap.mass[v] > 0.0))
        .count();
    let mut active = vec![u32::MAX; k];
    let mut order = Vec::with_capacity(k);
    for v in 0..k {
        if lap.mass[v] > 0.0 && lit[label[v] as usize] {
            active[v] = order.len() as u32;
            order.push(v);
        }
    }
    let na = order.len();

    let mut per_vertex: Vec<Vec<Influence>> = vec![Vec::new(); k];
    let edge_len = mean_edge_length(&dpos, &lap.edges);
    if na > 0 {
        let blend = JointBlend::new(segments, &thick0, BAND, SPINE_BAND);
        let near_floor = near_floors(&blend, &thick0);
        let heat = conductance(&order, &near, segments, &edge_len, &lap.mass, &near_floor);
        let diag: Vec<f64> = order.iter().map(|&v| lap.diag[v]).collect();
        let off: Vec<(u32, u32, f64)> = lap
            .edges
            .iter()
            .filter_map(|&(i, j, wij)| {
                let (ai, aj) = (active[i as usize], active[j as usize]);
                (ai != u32::MAX && aj != u32::MAX).then_some((ai, aj, -wij))
            })
            .collect();
        let (sources, shares): (Vec<Vec<u32>>, Vec<Vec<f32>>) = order
            .iter()
            .map(|&v| blended_sources(&near[v].1, w.positions[v], &blend, |b| allow(v, b)))
            .unzip();
        let sols = solve::solve(&solve::HeatSystem {
            n: na,
            diag: &diag,
            off: &off,
            heat: &heat,
            sources: &sources,
            shares: Some(&shares),
            bones: segments.len(),
        })?;
        lap_time("factor and solve", &mut stages);
        let lists = normalized_lists(&sols, segments, na);
        let lists = hand_overs_painted(lists, &blend, segments, &order, &w.positions, &allow);
        for (a, l) in lists.into_iter().enumerate() {
            per_vertex[order[a]] = l;
        }
    }

    let weights = Weights {
        vertices: w
            .map
            .par_iter()
            .map(|&m| per_vertex[m as usize].clone())
            .collect(),
    };
    let unreached = weights.vertices.iter().filter(|l| l.is_empty()).count();
    Ok(HeatOutcome {
        weights,
        unreached,
        dark_islands,
        welded: n - k,
        degenerate: lap.degenerate,
        rays,
        restricted_pieces: pieces.restricted_pieces(),
        stages,
    })
}

/// The nearest visible bone(s) of each welded vertex, with the rays cast (see
/// [`nearest_visible`]); a vertex without mass gets none. Rays from a maximal
/// independent set of seed vertices come first; every other vertex whose seed
/// neighbours all saw their first bone, the same one, tries that bone first.
fn nearest_bones(
    positions: &[Vec3],
    lap: &laplacian::Laplacian,
    segments: &[Segment],
    thick: &[[f32; 5]],
    sight: &super::sight::Sight,
    allow: &(dyn Fn(usize, usize) -> bool + Sync),
) -> Vec<(f32, Vec<u32>, usize)> {
    // Rays from a maximal independent set of seed vertices first; every other vertex
    // whose seed neighbours all saw their first bone, the same one that comes first
    // for it, takes that bone without a ray (neighbours that disagree cast their own).
    let k = positions.len();
    let mut nbr: Vec<Vec<u32>> = vec![Vec::new(); k];
    for &(i, j, _) in &lap.edges {
        nbr[i as usize].push(j);
        nbr[j as usize].push(i);
    }
    let mut seed = vec![false; k];
    for v in 0..k {
        seed[v] = lap.mass[v] > 0.0 && !nbr[v].iter().any(|&u| seed[u as usize]);
    }
    let first_pass: Vec<Option<(f32, Vec<u32>, usize)>> = (0..k)
        .into_par_iter()
        .map(|v| {
            (seed[v]).then(|| nearest_visible(positions[v], v, segments, thick, sight, None, allow))
        })
        .collect();
    first_pass
        .par_iter()
        .enumerate()
        .map(|(v, done)| {
            if let Some(r) = done {
                return r.clone();
            }
            if lap.mass[v] <= 0.0 {
                return (0.0, Vec::new(), 0);
            }
            let mut hint: Option<u32> = None;
            let mut agree = true;
            for &u in &nbr[v] {
                if let Some((_, b, rays)) = &first_pass[u as usize] {
                    if *rays != 1 || b.len() != 1 || hint.is_some_and(|h| h != b[0]) {
                        agree = false;
                        break;
                    }
                    hint = Some(b[0]);
                }
            }
            let hint = if agree { hint } else { None };
            nearest_visible(positions[v], v, segments, thick, sight, hint, allow)
        })
        .collect()
}

/// Per segment, the nearest a vertex is taken to lie to it: [`SPINE_NEAR`] of the mean
/// of its thickness profile `thick` for a spine bone ([`JointBlend::is_spine`]), else 0.
fn near_floors(blend: &JointBlend, thick: &[[f32; 5]]) -> Vec<f64> {
    thick
        .iter()
        .enumerate()
        .map(|(i, t)| {
            if blend.is_spine(i) {
                SPINE_NEAR * (t.iter().sum::<f32>() / t.len() as f32) as f64
            } else {
                0.0
            }
        })
        .collect()
}

/// The heat conductance `H_jj` of each solved vertex (`order`, welded indices) times
/// its lumped mass `mass`: from the true distance to its nearest visible bone (`near`),
/// capped by the transition width floor ([`MIN_WIDTH_BONE`] of that bone's length,
/// [`MIN_WIDTH_EDGE`] of the vertex's mean edge length `edge_len`), the distance at
/// least `near_floor` of its bone (per segment: [`SPINE_NEAR`] of the thickness for a
/// spine bone); 0 without a bone.
fn conductance(
    order: &[usize],
    near: &[(f32, Vec<u32>, usize)],
    segments: &[Segment],
    edge_len: &[f64],
    mass: &[f64],
    near_floor: &[f64],
) -> Vec<f64> {
    order
        .iter()
        .map(|&v| {
            let (d, ref b, _) = near[v];
            if b.is_empty() {
                return 0.0;
            }
            let i = b[0] as usize;
            let sg = &segments[i];
            let d = (d as f64).max(1e-6).max(near_floor[i]);
            let width = (MIN_WIDTH_BONE * (sg.tail - sg.head).length() as f64)
                .max(MIN_WIDTH_EDGE * edge_len[v]);
            let h = (HEAT_SCALE / (d * d)).min(1.0 / (width * width).max(1e-12));
            h * mass[v]
        })
        .collect()
}

/// The heat sources of a vertex at `p` whose nearest visible bones are `near`, with
/// their shares: both bones of a limb joint when `p` lies in its band
/// ([`super::joint_blend`]) and the vertex may take both (`allow`, the bones of its
/// piece), else the bones of `near`, shared evenly.
fn blended_sources(
    near: &[u32],
    p: Vec3,
    blend: &super::joint_blend::JointBlend,
    allow: impl Fn(usize) -> bool,
) -> (Vec<u32>, Vec<f32>) {
    if let [b] = near {
        if let Some([(a, fa), (c, fc)]) = blend.shares(*b, p) {
            if allow(a as usize) && allow(c as usize) {
                return (vec![a, c], vec![fa, fc]);
            }
        }
    }
    let even = 1.0 / near.len().max(1) as f32;
    (near.to_vec(), vec![even; near.len()])
}

/// The solved lists (one per active vertex `a`, the welded vertex `order[a]` at
/// `positions[order[a]]`) with the trunk's and the hips' hand-overs painted
/// ([`JointBlend::paint_trunk`], [`JointBlend::paint_hip`]; `may(v, seg)`: whether
/// welded vertex `v` may take segment `seg`, its piece's bones); a painted list is
/// sorted again.
fn hand_overs_painted(
    mut lists: Vec<Vec<Influence>>,
    blend: &JointBlend,
    segments: &[Segment],
    order: &[usize],
    positions: &[Vec3],
    may: &(impl Fn(usize, usize) -> bool + Sync),
) -> Vec<Vec<Influence>> {
    lists.par_iter_mut().enumerate().for_each(|(a, l)| {
        let (v, p) = (order[a], positions[order[a]]);
        let trunk = blend.paint_trunk(segments, p, l);
        let hip = blend.paint_hip(segments, p, l, |b| may(v, b));
        let knee = blend.paint_knee(segments, p, l, |b| may(v, b));
        if trunk || hip || knee {
            crate::model::sort_influences(l);
        }
    });
    lists
}

/// Each of the `na` solved vertices' influences from the per-bone solutions `sols`
/// (values above 1e-6, capped at 1), sorted and normalized as `Weights::sort` and
/// `Weights::normalize` do.
fn normalized_lists(
    sols: &[(usize, Vec<f64>)],
    segments: &[Segment],
    na: usize,
) -> Vec<Vec<Influence>> {
    (0..na)
        .into_par_iter()
        .map(|a| {
            let mut l: Vec<Influence> = sols
                .iter()
                .filter(|(_, x)| x[a].is_finite() && x[a] > 1e-6)
                .map(|(b, x)| Influence {
                    bone: segments[*b].bone,
                    weight: x[a].min(1.0) as f32,
                })
                .collect();
            // As `Weights::sort` then `Weights::normalize`, per vertex.
            l.retain(|i| i.weight > 0.0);
            crate::model::sort_influences(&mut l);
            let s: f32 = l.iter().map(|i| i.weight).sum();
            if s > 0.0 {
                for i in l.iter_mut() {
                    i.weight /= s;
                }
            }
            l
        })
        .collect()
}

/// The mean length of the edges at each vertex (n; 0 for a vertex on no edge), from
/// the Laplacian's edge list.
fn mean_edge_length(pos: &[DVec3], edges: &[(u32, u32, f64)]) -> Vec<f64> {
    let mut sum = vec![0.0f64; pos.len()];
    let mut count = vec![0u32; pos.len()];
    for &(i, j, _) in edges {
        let l = (pos[i as usize] - pos[j as usize]).length();
        for v in [i as usize, j as usize] {
            sum[v] += l;
            count[v] += 1;
        }
    }
    sum.iter()
        .zip(&count)
        .map(|(s, &c)| if c > 0 { s / c as f64 } else { 0.0 })
        .collect()
}

/// Distance to the nearest visible bone by reach ([`bone_reach`]) from welded vertex `v`
/// at `p` (rays tested as [`super::sight::Sight::blocked`] says), the bones tied with
/// it, rays cast. `seen`: a bone the neighbours see; when it comes first for `p` too
/// (no tie), it is taken without a ray. Only the bones `allow` gives the vertex are
/// tried (the bones of its piece, [`super::piece_bones`]).
fn nearest_visible(
    p: Vec3,
    v: usize,
    segments: &[Segment],
    thick: &[[f32; 5]],
    sight: &super::sight::Sight,
    seen: Option<u32>,
    allow: &(dyn Fn(usize, usize) -> bool + Sync),
) -> (f32, Vec<u32>, usize) {
    let mut cand: Vec<(f32, u32, bone_reach::Reach)> = segments
        .iter()
        .zip(thick)
        .enumerate()
        .filter(|(i, _)| allow(v, *i))
        .map(|(i, (s, t))| {
            let r = bone_reach::reach(s, t, p);
            (r.reach, i as u32, r)
        })
        .collect();
    let mut rays = 0;
    let mut best: Option<(f32, f32)> = None;
    let mut out = Vec::new();
    let first = cand
        .iter()
        .map(|c| c.0)
        .min_by(|a, b| a.total_cmp(b))
        .unwrap_or(0.0);
    let reach = first * FAR_FACTOR;
    if let Some(b) = seen {
        let mut at = cand.iter().filter(|c| c.0 <= first * (1.0 + 1e-4));
        if let (Some(c), None) = (at.next(), at.next()) {
            if c.1 == b {
                return (c.2.dist, vec![b], 0);
            }
        }
    }
    // Bones in increasing reach (ties by index), taken one at a time: most vertices see
    // the first one, so the list is never sorted whole.
    let mut left = cand.len();
    while left > 0 {
        let k = (0..left)
            .min_by(|&a, &b| {
                cand[a]
                    .0
                    .total_cmp(&cand[b].0)
                    .then(cand[a].1.cmp(&cand[b].1))
            })
            .unwrap_or(0);
        let (d, i, r) = cand.swap_remove(k);
        left -= 1;
        if let Some((bd, _)) = best {
            if d > bd * (1.0 + 1e-4) {
                break;
            }
        } else if d > reach || rays >= MAX_RAYS {
            break;
        }
        rays += 1;
        let t_end = 1.0 - (END_TOL / r.dist.max(1e-12)).min(0.5);
        if !sight.blocked(v, p, r.closest, 1e-4, t_end) {
            if best.is_none() {
                best = Some((d, r.dist));
            }
            out.push(i);
        }
    }
    (best.map_or(0.0, |b| b.1), out, rays)
}
