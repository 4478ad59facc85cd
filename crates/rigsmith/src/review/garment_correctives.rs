//! Garments under a corrective: a garment over a corrected joint gets its own shape of
//! the corrective's name, built so that in the corrective's pose it moves the same way
//! as the skin under it and stays out of the body.
//!
//! A garment is weighted by transfer, so its weights near a joint differ from the
//! skin's: the skin's rest-space offsets copied onto it would move it differently in
//! the pose, and the flesh a corrective restores can pass through it. So, for every
//! garment vertex within [`GARMENT_REACH_H`] of the skin at rest (its link: the nearest
//! skin vertex), in the corrective's pose as the runtime plays it (the preserve-volume
//! mask of the garment and of the skin applied):
//!
//! 1. **the same move**: its target is its own posed position plus the posed
//!    displacement the corrective gives its link (the skin skinned with and without the
//!    offsets);
//! 2. **out of the body**: a vertex linked to the joint's flesh that is outside the body
//!    at rest but whose target lies inside the corrected posed body goes to the nearest
//!    point of that body's surface plus its rest clearance (its rest distance from the
//!    skin, at least [`MIN_CLEARANCE_H`]);
//! 3. **inverse skinning** through the garment vertex's own skinning map, as the skin's
//!    offsets are ([`super::correctives`]), then relaxed over the garment's edges where
//!    non-zero and its edge strain bounded as the skin's is;
//! 4. **again**: [`GARMENT_PASSES`] passes in all; each later one pushes out, from where
//!    the offsets so far put it, every vertex of the joint's region still inside the
//!    corrected body (one relax pass each).
//!
//! Only the corrective's own side moves: the same factor as the skin's.

use std::collections::BTreeMap;

use glam::{Mat4, Vec3};

use super::offset_field::{inverse_map, limit_strain, neighbours, relax};
use crate::deform::dqs_mask::{dense, skin_blend};
use crate::geom::bvh::Bvh;
use crate::model::{Body, Character, PartClass, Weights};

/// How far (H) a garment vertex may lie from the skin and still follow its corrective
/// (a shirt over the shoulder moves with the flesh it covers).
pub const GARMENT_REACH_H: f32 = 0.03;
/// The least clearance (H) a garment vertex pushed out of the body keeps from it.
pub const MIN_CLEARANCE_H: f32 = 0.002;

/// A weighted garment part with what its correctives are built from.
pub(crate) struct Worn {
    /// The part's index in the character.
    pub part: usize,
    rest: Vec<Vec3>,
    w: Weights,
    /// Its preserve-volume mask (dense; zeros without one).
    mask: Vec<f32>,
    edges: Vec<(u32, u32)>,
    nb: Vec<Vec<u32>>,
    /// Per vertex: the nearest skin vertex within [`GARMENT_REACH_H`].
    near: Vec<Option<u32>>,
    /// Per vertex: its rest distance from the skin (at least [`MIN_CLEARANCE_H`]).
    clearance: Vec<f32>,
    /// Per vertex: inside the rest body (such a vertex is never pushed out).
    rest_inside: Vec<bool>,
}

/// Every weighted garment part of `c` (its skin `body`) with its links to the skin;
/// `masks` is the preserve-volume mask per part name (sparse).
pub(crate) fn worn_parts(
    c: &Character,
    body: &Body,
    masks: &BTreeMap<String, Vec<(u32, f32)>>,
) -> Vec<Worn> {
    let h = body.height;
    let reach = GARMENT_REACH_H * h;
    let grid = crate::geom::grid::Grid::new(&body.mesh.positions, reach);
    let rest_bvh = Bvh::build(&body.mesh.positions, &body.mesh.triangles);
    c.parts
        .iter()
        .enumerate()
        .filter(|(i, _)| {
            body.roles
                .get(*i)
                .is_some_and(|r| r.class == PartClass::Garment)
        })
        .filter_map(|(i, p)| {
            let w = p.weights.clone()?;
            let rest = p.mesh.positions.clone();
            let near: Vec<Option<u32>> = rest
                .iter()
                .map(|q| grid.nearest_within(*q, reach).map(|v| v as u32))
                .collect();
            let (clearance, rest_inside): (Vec<f32>, Vec<bool>) = rest
                .iter()
                .zip(&near)
                .map(|(q, u)| match u {
                    Some(_) => (
                        rest_bvh
                            .closest(*q)
                            .map_or(0.0, |cl| cl.dist2.sqrt())
                            .max(MIN_CLEARANCE_H * h),
                        rest_bvh.contains(*q),
                    ),
                    None => (0.0, false),
                })
                .unzip();
            let n = rest.len();
            let mask = masks
                .get(&p.name)
                .map_or_else(|| vec![0.0; n], |sp| dense(sp, n));
            let edges = p.mesh.edges();
            let nb = neighbours(n, &edges);
            Some(Worn {
                part: i,
                rest,
                w,
                mask,
                edges,
                nb,
                near,
                clearance,
                rest_inside,
            })
        })
        .collect()
}

/// The skin in a corrective's pose, as its garments read it.
pub(crate) struct PosedSkin<'a> {
    /// The skinning matrices of the pose.
    pub m: &'a [Mat4],
    /// Per skin vertex: the posed displacement the corrective gives it.
    moved: Vec<Vec3>,
    /// Per skin vertex: in the joint's flesh.
    region: Vec<bool>,
    /// The corrected posed skin.
    bvh: Bvh,
}

/// The skin `body` (weights `w`, mask `mask`) under matrices `m` with and without the
/// rest-space `offsets`; `flesh` lists the joint's vertices.
pub(crate) fn posed_skin<'a>(
    body: &Body,
    w: &Weights,
    mask: &[f32],
    offsets: &[Vec3],
    m: &'a [Mat4],
    flesh: &[(u32, u8)],
) -> PosedSkin<'a> {
    let rest = &body.mesh.positions;
    let with: Vec<Vec3> = rest.iter().zip(offsets).map(|(p, d)| *p + *d).collect();
    let p0 = skin_blend(rest, w, m, mask);
    let p1 = skin_blend(&with, w, m, mask);
    let moved = p1.iter().zip(&p0).map(|(a, b)| *a - *b).collect();
    let mut region = vec![false; rest.len()];
    for &(v, _) in flesh {
        region[v as usize] = true;
    }
    PosedSkin {
        m,
        moved,
        region,
        bvh: Bvh::build(&p1, &body.mesh.triangles),
    }
}

/// The knobs of [`garment_offsets`], the skin's own.
pub(crate) struct Knobs {
    /// Body height H, metres.
    pub h: f32,
    /// Relax passes over the rest-space offsets.
    pub rest_relax_passes: usize,
    /// The edge strain bound ([`limit_strain`]).
    pub edge_strain: f32,
}

/// Target-and-invert passes over a garment: each pushes out what the relaxed offsets
/// of the previous ones left inside the body.
pub const GARMENT_PASSES: usize = 4;

/// The rest-space offsets of garment `g` for the corrective whose pose `sk` gives (see
/// the module docs); `own` is the corrective's side factor at a rest position. Returns
/// the offsets and how many vertices had a singular skinning map.
pub(crate) fn garment_offsets(
    g: &Worn,
    sk: &PosedSkin<'_>,
    own: &dyn Fn(Vec3) -> f32,
    k: &Knobs,
) -> (Vec<Vec3>, usize) {
    let n = g.rest.len();
    let pg0 = skin_blend(&g.rest, &g.w, sk.m, &g.mask);
    // Per linked vertex on the corrective's side: its link, side factor and target
    // (first the same move as its link).
    let mut targets: Vec<Option<(usize, f32, Vec3)>> = (0..n)
        .map(|v| {
            let u = g.near[v]? as usize;
            let f = own(g.rest[v]);
            (f > 0.0).then(|| (u, f, pg0[v] + sk.moved[u]))
        })
        .collect();
    let mut total = vec![Vec3::ZERO; n];
    let mut singular = 0;
    for pass in 0..GARMENT_PASSES {
        let cur: Vec<Vec3> = g.rest.iter().zip(&total).map(|(p, d)| *p + *d).collect();
        let pg = if pass == 0 {
            pg0.clone()
        } else {
            skin_blend(&cur, &g.w, sk.m, &g.mask)
        };
        let mut off = vec![Vec3::ZERO; n];
        for (v, tg) in targets.iter_mut().enumerate() {
            let Some((u, f, t)) = tg else { continue };
            // Where it stands now (the target on the first pass): still inside the
            // corrected body, it goes out to the surface plus its clearance.
            let at = if pass == 0 { *t } else { pg[v] };
            if sk.region[*u] && !g.rest_inside[v] && sk.bvh.contains(at) {
                if let Some(q) = closest_point(&sk.bvh, at) {
                    let d = q - at;
                    if d.length() > 1e-9 * k.h {
                        *t = q + d.normalize() * g.clearance[v];
                    }
                }
            }
            off[v] = *f * (*t - pg[v]);
        }
        let (mut step, sing) = inverse_map(&cur, &off, &g.w, &g.mask, sk.m, k.h);
        if pass == 0 {
            singular = sing;
        }
        let live: Vec<bool> = step.iter().map(|o| *o != Vec3::ZERO).collect();
        let passes = if pass == 0 { k.rest_relax_passes } else { 1 };
        relax(&mut step, &live, &g.nb, passes);
        for (t, d) in total.iter_mut().zip(&step) {
            *t += *d;
        }
        limit_strain(&mut total, &g.rest, &g.edges, k.edge_strain);
    }
    (total, singular)
}

/// The closest point of the surface in `bvh` to `p`.
fn closest_point(bvh: &Bvh, p: Vec3) -> Option<Vec3> {
    let cl = bvh.closest(p)?;
    let t = bvh.tris()[cl.triangle as usize];
    Some(t[0] * cl.bary[0] + t[1] * cl.bary[1] + t[2] * cl.bary[2])
}
