//! The neck's collision correctives (`CS_neck_nod`, and `CS_neck_turn_l` / `_r` built
//! the same way in the head turns): the chin that meets the chest when the head nods is
//! flattened against it, as the chin of a real neck is, instead of cutting through it;
//! the jaw's corner that meets the collar when the head turns is pushed back out of it.
//!
//! A volume-restore corrective ([`super::correctives`]) pushes flesh back out from a
//! limb's axis. A nod is another failure: on a short, chubby neck (the MakeHuman baby)
//! the chin, which follows the head, swings down into the collar and the chest, which
//! follow the spine, and the review counts new intersecting triangle pairs there
//! (`deform.head_nod.collar_chin`). Weights cannot clear it: a chin weighted less to the
//! head follows the nod less and folds into the throat instead.
//!
//! The shape is built in `head_nod` as the runtime plays it (twist rules and the
//! preserve-volume mask applied), over the skin within [`REGION_H`] of the neck's axis
//! (the collar to the chin's level, the segment the review measures around):
//!
//! 1. **Contact.** The nod's new intersecting triangle pairs there are found (pairs
//!    already intersecting at rest are left alone, and so are the hidden junctions of
//!    interpenetrating skin pieces, which the review does not count either:
//!    [`super::intersect::Pieces`]; counted, the platformer chibi's head ball sliding
//!    inside its torso made 10 pairs that no push clears, and the shape was dropped
//!    with the 6 visible ones left; skipped, 6 -> 0). In each pair the triangle the nod
//!    moved more is the mover: the chin against the chest, the chin's underside
//!    against the throat. Each vertex of the mover that lies on the other side of the
//!    other triangle's plane than it did at rest, or within [`MARGIN_H`] of it, is
//!    pushed along the plane's normal back to [`MARGIN_H`] on its rest side (its
//!    largest push when it is in several pairs); when only a vertex of the other
//!    pokes through the mover, the mover moves away from it along its own normal.
//! 2. **Relax and invert.** The pushes are relaxed over the region's edges
//!    ([`RELAX_PASSES`]), so the push fades into the chin instead of denting it, and
//!    taken back to rest space through the per-vertex skinning map, as the
//!    volume-restore correctives are ([`super::offset_field::inverse_map`]); then
//!    relaxed again in rest space.
//! 3. **Again.** [`PASSES`] passes each find the pairs the shape so far leaves and
//!    push again; each pass ends with the strain bound, which keeps the field within
//!    the smoothness check, so the next pass pushes back what the bound undid (bound
//!    once after the last pass, the baby kept 1 pair).
//! 4. **The better of two rules.** Pushing the mover only where it crossed clears the
//!    baby's chin (77 pairs to 0; pushing both ways, when measured, left 24); where skin pieces
//!    meet at the neck (Quaternius' `men_Farmer`: 12 to 2 against 12 to 12) the
//!    other's vertices poke through the mover and both pushes are needed. Both rules
//!    are run and the shape that leaves fewer pairs is kept.
//!
//! On the baby the pairs near the collar and the chin go from 77 to 0 (the chin rests
//! flattened on the chest); the volume-restore correctives' checks judge it as they
//! judge the others (0 at rest, 1 in `head_nod`, late ramp, no spike).
//!
//! The driver reads the head's swing toward its nodded direction from the neck's
//! parent (the chest), so a nod made by the neck and the head together drives it. It
//! is built only when the nod leaves new pairs near the collar and the chin.

use std::collections::HashSet;

use glam::Vec3;

use super::offset_field::{inverse_map, limit_strain, relax};
use crate::humanoid::Role;
use crate::model::{Body, Weights};

/// How far from the neck's axis (collar to chin level), in H, the corrective reaches.
pub const REGION_H: f32 = 0.12;
/// How far in front of the chest's surface (H) a pushed chin vertex comes to rest.
pub const MARGIN_H: f32 = 0.002;
/// Relax passes over the posed pushes.
pub const RELAX_PASSES: usize = 6;
/// Target-and-invert passes.
pub const PASSES: usize = 16;

/// The collar-and-chin region of a head pose: within this distance (H) of the neck's
/// axis, from the neck's head (the collar) to 30 % up the head bone (the chin's level).
pub const COLLAR_CHIN_RADIUS_H: f32 = 0.08;

/// The posed neck axis from the collar (the neck's head) to the chin's level (30 % up
/// the head bone), when the rig has a neck and a head.
pub(crate) fn collar_chin_segment(
    s: &crate::model::Skeleton,
    rig: &crate::humanoid::Roles,
    m: &[glam::Mat4],
) -> Option<(Vec3, Vec3)> {
    let neck = rig.get(Role::Neck)?;
    let head = rig.get(Role::Head)?;
    let bones = crate::pose::fk::posed_bones(s, m);
    let (hh, ht) = bones[head];
    Some((bones[neck].0, hh + 0.3 * (ht - hh)))
}

/// What the corrective is built from: the skin, its weights and the nod's matrices.
pub(crate) struct NodInput<'a> {
    pub body: &'a Body,
    pub w: &'a Weights,
    /// The preserve-volume mask on the skin's vertices.
    pub mask: &'a [f32],
    pub nb: &'a [Vec<u32>],
    pub edges: &'a [(u32, u32)],
    /// The neck's axis at rest and posed: (collar, chin level).
    pub axis_rest: (Vec3, Vec3),
    pub axis_posed: (Vec3, Vec3),
    /// The nod's skinning matrices.
    pub m: &'a [glam::Mat4],
    pub rest_relax_passes: usize,
    pub edge_strain: f32,
}

/// The rest-space offsets of the corrective (one per skin vertex) and what they do.
pub(crate) struct NodShape {
    pub offsets: Vec<Vec3>,
    /// New intersecting pairs near the collar and the chin, before and after.
    pub pairs_before: usize,
    pub pairs_after: usize,
    /// Vertices with a singular skinning map (no offset).
    pub singular: usize,
}

/// Builds the shape (see the module docs): both push rules, the one that leaves fewer
/// pairs kept.
pub(crate) fn nod_offsets(x: &NodInput<'_>) -> NodShape {
    let r = Region::of(x);
    let mut total = vec![Vec3::ZERO; x.body.mesh.positions.len()];
    let pairs_before = r.count(x, &total);
    if pairs_before == 0 {
        return NodShape {
            offsets: total,
            pairs_before,
            pairs_after: 0,
            singular: 0,
        };
    }
    let mut best: Option<NodShape> = None;
    for rule in [Rule::MoverFirst, Rule::Both] {
        let (offsets, singular) = r.shape(x, rule);
        let pairs_after = r.count(x, &offsets);
        if best.as_ref().map_or(true, |b| pairs_after < b.pairs_after) {
            best = Some(NodShape {
                offsets,
                pairs_before,
                pairs_after,
                singular,
            });
        }
        if pairs_after == 0 {
            break;
        }
    }
    best.unwrap_or_else(|| {
        total.clear();
        NodShape {
            offsets: total,
            pairs_before,
            pairs_after: pairs_before,
            singular: 0,
        }
    })
}

/// How a pair's intersection is undone ([`pair_pushes`]).
#[derive(Clone, Copy, PartialEq)]
enum Rule {
    /// Push the mover's vertices that crossed the other's plane; only when none did,
    /// move the mover away from the other's vertices that poke through it.
    MoverFirst,
    /// Both, in every pair.
    Both,
}

/// The skin's triangles near the neck: the subset the shape is built and measured on.
struct Region {
    /// Per skin vertex: within [`REGION_H`] of the neck's axis at rest.
    near: Vec<bool>,
    /// The triangles with a vertex near, and their indices in the skin.
    tris: Vec<[u32; 3]>,
    /// Pairs (of `tris` indices) intersecting at rest.
    rest_pairs: HashSet<(u32, u32)>,
    /// The index in the skin of each of `tris`.
    global: Vec<u32>,
    /// The skin's interpenetrating closed pieces, when it has several: a pair that is
    /// their hidden junction ([`super::intersect::Pieces`]) is neither counted nor
    /// pushed, as the review does not count it.
    pieces: Option<super::intersect::Pieces>,
}

impl Region {
    fn of(x: &NodInput<'_>) -> Region {
        let rest = &x.body.mesh.positions;
        let h = x.body.height;
        let near: Vec<bool> = rest
            .iter()
            .map(|p| within(*p, x.axis_rest, REGION_H * h))
            .collect();
        let global: Vec<u32> = (0..x.body.mesh.triangles.len() as u32)
            .filter(|&t| {
                x.body.mesh.triangles[t as usize]
                    .iter()
                    .any(|&v| near[v as usize])
            })
            .collect();
        let tris: Vec<[u32; 3]> = global
            .iter()
            .map(|&t| x.body.mesh.triangles[t as usize])
            .collect();
        let rest_pairs = super::intersect::intersecting_pairs(rest, &tris, None)
            .into_iter()
            .collect();
        Region {
            near,
            tris,
            rest_pairs,
            global,
            pieces: super::intersect::Pieces::of(rest, &x.body.mesh.triangles),
        }
    }

    /// The new pairs (of `tris` indices) in `posed`.
    fn new_pairs(&self, posed: &[Vec3]) -> Vec<(u32, u32)> {
        super::intersect::intersecting_pairs(posed, &self.tris, None)
            .into_iter()
            .filter(|p| !self.rest_pairs.contains(p))
            .filter(|&(a, b)| {
                self.pieces.as_ref().map_or(true, |x| {
                    !x.hidden(self.global[a as usize], self.global[b as usize])
                })
            })
            .collect()
    }

    /// The rest positions with `off` added, and those skinned in the nod.
    fn skin(&self, x: &NodInput<'_>, off: &[Vec3]) -> (Vec<Vec3>, Vec<Vec3>) {
        let rest = &x.body.mesh.positions;
        let cur: Vec<Vec3> = rest.iter().zip(off).map(|(p, d)| *p + *d).collect();
        let posed = crate::deform::dqs_mask::skin_blend(&cur, x.w, x.m, x.mask);
        (cur, posed)
    }

    /// What the review counts with the rest-space offsets `off`: the new pairs with a
    /// triangle within its radius of the posed neck's axis.
    fn count(&self, x: &NodInput<'_>, off: &[Vec3]) -> usize {
        let posed = self.skin(x, off).1;
        let r = COLLAR_CHIN_RADIUS_H * x.body.height;
        let centroid = |t: u32| {
            self.tris[t as usize]
                .iter()
                .map(|&v| posed[v as usize])
                .sum::<Vec3>()
                / 3.0
        };
        self.new_pairs(&posed)
            .iter()
            .filter(|&&(a, b)| {
                within(centroid(a), x.axis_posed, r) || within(centroid(b), x.axis_posed, r)
            })
            .count()
    }

    /// The rest-space offsets by `rule` and how many vertices had a singular map.
    fn shape(&self, x: &NodInput<'_>, rule: Rule) -> (Vec<Vec3>, usize) {
        let rest = &x.body.mesh.positions;
        let h = x.body.height;
        let mut total = vec![Vec3::ZERO; rest.len()];
        let mut singular = 0;
        for pass in 0..PASSES {
            let (cur, posed) = self.skin(x, &total);
            let pairs = self.new_pairs(&posed);
            let mut off = pair_pushes(&posed, rest, &self.tris, &pairs, rule, h);
            if off.iter().all(|o| *o == Vec3::ZERO) {
                break;
            }
            relax(&mut off, &self.near, x.nb, RELAX_PASSES);
            let (mut back, sing) = inverse_map(&cur, &off, x.w, x.mask, x.m, h);
            if pass == 0 {
                singular = sing;
            }
            let moved: Vec<bool> = back.iter().map(|o| *o != Vec3::ZERO).collect();
            relax(&mut back, &moved, x.nb, x.rest_relax_passes);
            for (t, o) in total.iter_mut().zip(&back) {
                *t += *o;
            }
            limit_strain(&mut total, rest, x.edges, x.edge_strain);
        }
        (total, singular)
    }
}

/// Whether `p` lies within `r` of the segment `a`-`b`.
pub(crate) fn within(p: Vec3, (a, b): (Vec3, Vec3), r: f32) -> bool {
    (crate::geom::segment::closest_on_segment(p, a, b) - p).length() <= r
}

/// The posed pushes that undo the intersecting `pairs`: in each pair the triangle that
/// the pose moved more (its vertices' mean displacement from `rest`) is the mover;
/// each of its vertices that lies on the other side of the other triangle's plane
/// than at rest, or within [`MARGIN_H`] of it, is pushed along the plane's normal back
/// to [`MARGIN_H`] on its rest side; when none did, a vertex of the other pokes
/// through the mover, and the mover's vertices move along the mover's normal until it
/// is [`MARGIN_H`] on its rest side (by [`Rule::Both`], in every pair). A vertex in
/// several pairs keeps its largest push.
fn pair_pushes(
    posed: &[Vec3],
    rest: &[Vec3],
    tris: &[[u32; 3]],
    pairs: &[(u32, u32)],
    rule: Rule,
    h: f32,
) -> Vec<Vec3> {
    let plane = |p: &[Vec3], t: &[u32; 3]| {
        let [a, b, c] = t.map(|v| p[v as usize]);
        ((b - a).cross(c - a).normalize_or_zero(), (a + b + c) / 3.0)
    };
    let moved = |t: &[u32; 3]| {
        t.iter()
            .map(|&v| (posed[v as usize] - rest[v as usize]).length())
            .sum::<f32>()
    };
    let margin = MARGIN_H * h;
    let mut off = vec![Vec3::ZERO; posed.len()];
    for &(a, b) in pairs {
        let (ta, tb) = (&tris[a as usize], &tris[b as usize]);
        let (mover, other) = if moved(ta) >= moved(tb) {
            (ta, tb)
        } else {
            (tb, ta)
        };
        let (n, q) = plane(posed, other);
        let (n0, q0) = plane(rest, other);
        // The side of the other's plane a point of the mover keeps (its rest side),
        // and how far it is on that side in the pose.
        let depth = |v: usize, n: Vec3, q: Vec3, n0: Vec3, q0: Vec3| {
            let side = if (rest[v] - q0).dot(n0) >= 0.0 {
                1.0
            } else {
                -1.0
            };
            (side, side * (posed[v] - q).dot(n))
        };
        let mut pushed = false;
        for &v in mover.iter().filter(|v| !other.contains(v)) {
            let v = v as usize;
            let (side, d) = depth(v, n, q, n0, q0);
            if d < margin {
                keep_largest(&mut off[v], side * (margin - d) * n);
                pushed = true;
            }
        }
        if pushed && rule == Rule::MoverFirst {
            continue;
        }
        // No vertex of the mover crossed: a vertex of the other pokes through the
        // mover, which moves away from it along its own normal.
        let (nm, qm) = plane(posed, mover);
        let (nm0, qm0) = plane(rest, mover);
        for &u in other.iter().filter(|u| !mover.contains(u)) {
            let (side, d) = depth(u as usize, nm, qm, nm0, qm0);
            if d < margin {
                for &v in mover.iter().filter(|v| !other.contains(v)) {
                    keep_largest(&mut off[v as usize], -side * (margin - d) * nm);
                }
            }
        }
    }
    off
}

/// Sets `slot` to `push` when it is the larger.
fn keep_largest(slot: &mut Vec3, push: Vec3) {
    if push.length_squared() > slot.length_squared() {
        *slot = push;
    }
}
