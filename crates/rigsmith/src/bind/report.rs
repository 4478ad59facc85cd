//! The weight report: numbers that catch a silent bone-heat failure and the problems a
//! game engine will refuse (rubric section C).
//!
//! | field | meaning | check id | limit | severity |
//! |---|---|---|---|---|
//! | `unweighted` | vertices whose deform weights sum below 1e-4 ([`UNWEIGHTED_BELOW`]: they will not move), over all parts; a part without weights counts all its vertices | `weights.unweighted` | at most 0 | blocker |
//! | `non_finite` | vertices with a NaN or infinite weight | `weights.finite` | at most 0 | blocker |
//! | `empty_major` | deform bones at least 0.05 H long whose middle lies inside the body (winding number > 1/2) but which weight nothing (total below 1e-3, counting the weight of the twist bones that lie along the bone: children whose ends lie on its segment, [`lies_along`]); eye, teeth, tongue and jaw bones are exempt | `weights.empty_major` | at most 0 | blocker |
//! | `sum_dev`, `sum_dev_max` | weighted vertices whose weights do not sum to 1 within 0.01; the largest deviation | `weights.normalization` (value: the largest deviation) | at most 0.01 | major |
//! | `max_influences`, `over4` | influences per vertex (weight above 1e-4); vertices with more than 4 | `weights.max_influences` (value: the largest count) | at most 4 (or the export limit asked) | major |
//! | `non_deform_groups` | bones that carry weight but are not deform bones | `structure.deform_hygiene` (section B) | at most 0 | major |
//! | `far_bone` | vertices weighted mostly to a bone far beyond one they see, on parts that are not rigid parts or accessories (which follow the bone they sit on) | `weights.far_bone` | at most 2% of the vertices | blocker |
//! | `unlike_nearest` | parts (not rigid parts or accessories, which follow the bone they sit on) where most vertices follow a bone not near them; the bones a part may be near are those that carry the skin and its own (a hair chain's bones carry only the hair) | `weights.unlike_nearest` | at most 0 | major |
//! | `garment_far` | garment vertices farther than 15% H from any skin, on an island of the garment that comes nowhere within 5% H of it ([`GARMENT_FAR_H`], [`GARMENT_TOUCH_H`]: a flared skirt's hem hangs from the hips) | `weights.garment_far` | at most 0 | major |
//! | `garment_transfer` | per garment (and hair) part weighted by transfer from the skin: vertices, the share whose closest skin point matched (near enough, normals agreeing) and got the skin's weights, the count inpainted from them over the garment, the count that kept the plain nearest copy (islands with no match); filled by [`crate::bind::bind`], empty from [`weight_report`] | none (information) | - | - |
//! | `mirror_err` | worst left/right weight difference over mirrored vertex pairs of the body (every 7th vertex; its mirror is the nearest vertex within 0.002 H of its mirror image about the mid-plane; bones mirrored by name) | `weights.symmetry` (not emitted when no pair is found: an asymmetric mesh) | at most 0.05 | minor |
//!
//! These are the only definitions of the weight checks: the bind, `rigsmith weights`
//! and the review all report them from [`WeightReport::checks_with`].
//!
//! H is the body height, [`Character::height`] (the skin's vertical extent).

use std::collections::BTreeMap;

use glam::Vec3;
use serde::Serialize;

use crate::model::naming::tokens;
use crate::model::{Character, Weights};
use crate::report::{Check, Severity};

/// A vertex whose deform weights sum below this is unweighted (it will not move): the
/// one definition of "unweighted" (`weights.unweighted`, `rigsmith inspect`).
pub const UNWEIGHTED_BELOW: f32 = 1e-4;
/// A weighted vertex whose deform weights sum farther than this from 1 is not
/// normalized (`weights.normalization`).
pub const SUM_TOLERANCE: f32 = 0.01;
/// The largest left/right weight difference `weights.symmetry` allows.
pub const MIRROR_MAX: f32 = 0.05;

/// Whether a vertex with influences `list` is unweighted: its weights on deform bones
/// of `s` sum below [`UNWEIGHTED_BELOW`] (the one definition, used by
/// [`weight_report`] and `rigsmith inspect`).
pub fn is_unweighted(list: &[crate::model::Influence], s: &crate::model::Skeleton) -> bool {
    deform_sum(list, s) < UNWEIGHTED_BELOW
}

/// The sum of the finite weights of `list` on deform bones of `s`.
fn deform_sum(list: &[crate::model::Influence], s: &crate::model::Skeleton) -> f32 {
    list.iter()
        .filter(|i| s.bones.get(i.bone as usize).is_some_and(|b| b.deform))
        .map(|i| i.weight)
        .sum()
}

/// Whether a bone may legitimately weight nothing on the skin: a bone of an internal
/// part (its name has a token of the rigid part names,
/// [`crate::model::body::RIGID_NAMES`]: eyes, iris, teeth, tongue) or the jaw.
fn moves_internal_part(bone: &str) -> bool {
    tokens(bone)
        .iter()
        .any(|t| t == "jaw" || crate::model::body::RIGID_NAMES.contains(&t.as_str()))
}

/// The numbers of a weight report (see the module docs for each field).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct WeightReport {
    /// Vertices over all parts.
    pub vertices: usize,
    /// Body height H used for relative tolerances, in the character's unit.
    pub height: f32,
    /// Vertices with total weight below 1e-4.
    pub unweighted: usize,
    /// Unweighted vertices per part name (only parts that have some).
    pub unweighted_by_part: BTreeMap<String, usize>,
    /// Vertices with a non-finite weight.
    pub non_finite: usize,
    /// Major deform bones inside the body that weight nothing.
    pub empty_major: Vec<String>,
    /// Weighted vertices whose weights do not sum to 1 within [`SUM_TOLERANCE`].
    pub sum_dev: usize,
    /// Largest `abs(sum - 1)` over weighted vertices.
    pub sum_dev_max: f32,
    /// Largest number of influences (weight > 1e-4) on a vertex.
    pub max_influences: usize,
    /// Vertices with more than 4 influences.
    pub over4: usize,
    /// Bones carrying weight that are not deform bones.
    pub non_deform_groups: Vec<String>,
    /// Worst mirrored weight difference, `None` when no mirrored pair was found.
    pub mirror_err: Option<f32>,
    /// Mirrored vertex pairs sampled.
    pub mirror_pairs: usize,
    /// Vertices weighted mostly (>= 0.5) to a bone more than 2.5 times and 8% H
    /// farther than the nearest deform bone, which they see through no skin.
    pub far_bone: usize,
    /// [`WeightReport::far_bone`] per part name (only parts that have some).
    pub far_bone_by_part: BTreeMap<String, usize>,
    /// Parts (of 20 vertices or more) where more than half of the vertices are weighted
    /// mostly to a bone that is neither their nearest bone nor next to it: share.
    pub unlike_nearest: BTreeMap<String, f32>,
    /// Garment vertices farther than 15% H from any skin.
    pub garment_far: usize,
    /// The route that weighted the body (filled by [`crate::bind::bind`]; the default,
    /// bone heat, when the report is computed from a skinned character alone).
    pub route: super::Route,
    /// Why that route (filled by [`crate::bind::bind`]: the route decision's reason,
    /// "... forced", or the fallback; empty from [`weight_report`]).
    pub route_reason: String,
    /// Body vertices that lost the other side's weights in the cross-side pass (filled
    /// by [`crate::bind::bind`]; 0 from [`weight_report`]).
    pub stripped_cross_side: usize,
    /// How each garment (and hair) part was weighted by transfer from the skin, in part
    /// order. Filled by [`crate::bind::bind`]; empty when the report is computed from a
    /// skinned character alone ([`weight_report`]).
    pub garment_transfer: Vec<GarmentTransfer>,
}

/// How one garment was weighted by robust transfer
/// ([`crate::bind::transfer::transfer_robust`]). Distances in units of H.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct GarmentTransfer {
    /// The part's name.
    pub part: String,
    /// Vertices of the part.
    pub vertices: usize,
    /// Vertices whose closest skin point matched (near enough, normals agreeing): they
    /// copy the skin's weights there.
    pub matched: usize,
    /// `matched / vertices` (0 for an empty part).
    pub matched_fraction: f32,
    /// Unmatched vertices weighted by harmonic interpolation of the matched ones over
    /// the garment.
    pub inpainted: usize,
    /// Unmatched vertices that kept the plain nearest copy: their island of the garment
    /// has no matched vertex.
    pub fallback: usize,
    /// Islands (connected pieces) of the garment.
    pub islands: usize,
    /// Islands with no matched vertex (their vertices are the fallback ones).
    pub fallback_islands: usize,
    /// Islands wound inward (facing the skin), whose normals were flipped for the test.
    pub flipped_islands: usize,
    /// Median distance of the garment's vertices to the skin, H.
    pub median_offset: f32,
    /// The distance within which a match is good, H.
    pub distance_limit: f32,
    /// The largest angle between the normals of a good match, degrees.
    pub max_angle_deg: f32,
    /// The bone the whole garment was made rigid to, and the share of its transferred
    /// weight that bone held (at least [`crate::bind::RIGID_GARMENT_SHARE`]: glasses,
    /// a helmet); `None` when it deforms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rigid_to: Option<(String, f32)>,
}

impl GarmentTransfer {
    /// One line for a text report: `shirt: 97.1% matched, 40 inpainted, 0 fallback`.
    pub fn line(&self) -> String {
        let mut s = format!(
            "{}: {:.1}% of {} vertices matched the skin, {} inpainted, {} fallback",
            self.part,
            100.0 * self.matched_fraction,
            self.vertices,
            self.inpainted,
            self.fallback
        );
        if self.fallback_islands > 0 {
            s.push_str(&format!(
                " ({} islands with no match kept the nearest copy)",
                self.fallback_islands
            ));
        }
        if self.flipped_islands > 0 {
            s.push_str(&format!(
                "; {} islands wound inward, normals flipped",
                self.flipped_islands
            ));
        }
        s.push_str(&format!(
            " (match within {:.1}% H, normals within {:.0} deg)",
            100.0 * self.distance_limit,
            self.max_angle_deg
        ));
        if let Some((bone, share)) = &self.rigid_to {
            s.push_str(&format!(
                "; {:.1}% of its weight on {bone}: rigid to it",
                100.0 * share
            ));
        }
        s
    }
}

/// Computes the weight report of a skinned character (parts without weights count as
/// unweighted; without a skeleton every vertex is unweighted).
pub fn weight_report(c: &Character) -> WeightReport {
    let mut r = WeightReport {
        vertices: c.vertex_count(),
        ..Default::default()
    };
    let body = c
        .parts
        .iter()
        .enumerate()
        .max_by_key(|(i, p)| (p.mesh.positions.len(), std::cmp::Reverse(*i)))
        .map(|(i, _)| i);
    r.height = c.height();
    let Some(s) = &c.skeleton else {
        r.unweighted = r.vertices;
        for p in &c.parts {
            if !p.mesh.positions.is_empty() {
                r.unweighted_by_part
                    .insert(p.name.clone(), p.mesh.positions.len());
            }
        }
        return r;
    };
    let nb = s.len();
    let mut bone_sum = vec![0.0f64; nb];
    let mut non_deform = vec![false; nb];
    for p in &c.parts {
        let n = p.mesh.positions.len();
        let mut unw = 0;
        match &p.weights {
            None => unw = n,
            Some(w) => {
                for v in 0..n {
                    let list = w.vertices.get(v).map(Vec::as_slice).unwrap_or(&[]);
                    if list.iter().any(|i| !i.weight.is_finite()) {
                        r.non_finite += 1;
                        continue;
                    }
                    let mut tot = 0.0f32;
                    let mut cnt = 0;
                    for i in list {
                        let b = i.bone as usize;
                        if b >= nb {
                            continue;
                        }
                        if !s.bones[b].deform {
                            if i.weight > 1e-4 {
                                non_deform[b] = true;
                            }
                            continue;
                        }
                        tot += i.weight;
                        bone_sum[b] += i.weight as f64;
                        if i.weight > 1e-4 {
                            cnt += 1;
                        }
                    }
                    if tot < UNWEIGHTED_BELOW {
                        unw += 1;
                    } else {
                        let d = (tot - 1.0).abs();
                        r.sum_dev_max = r.sum_dev_max.max(d);
                        if d > SUM_TOLERANCE {
                            r.sum_dev += 1;
                        }
                    }
                    r.max_influences = r.max_influences.max(cnt);
                    if cnt > 4 {
                        r.over4 += 1;
                    }
                }
            }
        }
        if unw > 0 {
            r.unweighted += unw;
            *r.unweighted_by_part.entry(p.name.clone()).or_default() += unw;
        }
    }
    r.non_deform_groups = (0..nb)
        .filter(|&b| non_deform[b])
        .map(|b| s.bones[b].name.clone())
        .collect();
    // The skin: the welded union of the skin pieces for a character in parts.
    let union = if c.parts.is_empty() || c.is_one_welded_part() {
        None
    } else {
        c.body().ok()
    };
    let body_mesh_weights = match &union {
        Some(u) => Some((&u.mesh, u.union_weights(c))),
        None => body.map(|b| (&c.parts[b].mesh, c.parts[b].weights.clone())),
    };
    if let Some((mesh, bw)) = body_mesh_weights {
        for (i, bone) in s.bones.iter().enumerate() {
            // A twist bone lying along the bone carries the bone's flesh (the twist
            // chain shares it back between them: `deform::twist_weights`).
            let carried: f64 = bone_sum[i]
                + (0..nb)
                    .filter(|&k| lies_along(s, i, k))
                    .map(|k| bone_sum[k])
                    .sum::<f64>();
            if !bone.deform || carried >= 1e-3 || bone.length() < 0.05 * r.height {
                continue;
            }
            if moves_internal_part(&bone.name) {
                continue;
            }
            if super::winding::inside(mesh, bone.middle()) {
                r.empty_major.push(bone.name.clone());
            }
        }
        if let Some(w) = &bw {
            let (err, pairs) = mirror_error(&mesh.positions, w, s, r.height);
            r.mirror_err = err;
            r.mirror_pairs = pairs;
        }
    }
    let far = far_weights(c, s, r.height, union.as_ref());
    r.far_bone = far.far_bone;
    r.far_bone_by_part = far.far_bone_by_part;
    r.unlike_nearest = far.unlike_nearest;
    r.garment_far = far.garment_far;
    r
}

struct Far {
    far_bone: usize,
    far_bone_by_part: BTreeMap<String, usize>,
    unlike_nearest: BTreeMap<String, f32>,
    garment_far: usize,
}

/// Vertices weighted mostly to a bone much farther than another bone they can see;
/// per part, the share of vertices whose top bone is neither the nearest bone nor one
/// next to it; garment vertices far from any skin.
fn far_weights(
    c: &Character,
    s: &crate::model::Skeleton,
    h: f32,
    body: Option<&crate::model::Body>,
) -> Far {
    let mut out = Far {
        far_bone: 0,
        far_bone_by_part: BTreeMap::new(),
        unlike_nearest: BTreeMap::new(),
        garment_far: 0,
    };
    let deform: Vec<usize> = (0..s.len()).filter(|&b| s.bones[b].deform).collect();
    if deform.is_empty() || !(h > 0.0) {
        return out;
    }
    // The bones a part may be near: those that carry the skin, and its own. A hair
    // chain's bones carry only the hair: a helmet over it sits nearest them and still
    // follows the head.
    let carries = |parts: &[usize]| {
        let mut on = vec![false; s.len()];
        for &i in parts {
            for x in c.parts[i]
                .weights
                .iter()
                .flat_map(|w| w.vertices.iter().flatten())
            {
                if x.weight > 0.0 && (x.bone as usize) < s.len() {
                    on[x.bone as usize] = true;
                }
            }
        }
        on
    };
    let skin_bones = body.map(|b| carries(&b.skin));
    let skin_bvh = body.map(|b| crate::geom::bvh::Bvh::build(&b.mesh.positions, &b.mesh.triangles));
    let seg = |b: usize, p: Vec3| {
        let (a, t) = (s.bones[b].head, s.bones[b].tail);
        let d = t - a;
        let k = if d.length_squared() > 0.0 {
            ((p - a).dot(d) / d.length_squared()).clamp(0.0, 1.0)
        } else {
            0.0
        };
        a + d * k
    };
    let near = |b1: usize, b2: usize| {
        b1 == b2 || s.bones[b1].parent == Some(b2) || s.bones[b2].parent == Some(b1)
    };
    for (pi, p) in c.parts.iter().enumerate() {
        let Some(w) = &p.weights else { continue };
        let role = body.map(|b| b.roles[pi].class);
        // A rigid part or an accessory follows the bone it sits on, not the nearest
        // (a sword in a hand is nearest the fingers; an eyeball the lid bones that
        // start at its centre; a spear's butt passes the knee): `weights.rigid.*`
        // judges it.
        let rigid = matches!(
            role,
            Some(crate::model::PartClass::Rigid | crate::model::PartClass::Accessory)
        );
        let candidates: Vec<usize> = match &skin_bones {
            Some(on_skin) => {
                let own = carries(&[pi]);
                deform
                    .iter()
                    .copied()
                    .filter(|&b| on_skin[b] || own[b])
                    .collect()
            }
            None => deform.clone(),
        };
        let mut far = 0;
        let mut unlike = 0;
        let mut counted = 0;
        for (v, q) in p.mesh.positions.iter().enumerate() {
            let Some(top) = w.vertices.get(v).and_then(|l| {
                l.iter()
                    .filter(|i| (i.bone as usize) < s.len())
                    .max_by(|a, b| a.weight.total_cmp(&b.weight))
            }) else {
                continue;
            };
            let tb = top.bone as usize;
            if top.weight < 0.5 {
                continue;
            }
            let (mut nb, mut nd) = (tb, f32::INFINITY);
            for &b in &candidates {
                let d = (seg(b, *q) - *q).length();
                if d < nd {
                    nd = d;
                    nb = b;
                }
            }
            counted += 1;
            let td = (seg(tb, *q) - *q).length();
            if !near(tb, nb) {
                unlike += 1;
                if td > 2.5 * nd && td - nd > 0.08 * h {
                    let sees = skin_bvh.as_ref().map_or(true, |bvh| {
                        !bvh.segment_blocked(*q, seg(nb, *q), 1e-3, 0.999)
                    });
                    if sees {
                        far += 1;
                    }
                }
            }
        }
        if role == Some(crate::model::PartClass::Garment) {
            if let Some(bvh) = skin_bvh.as_ref() {
                out.garment_far += garment_far(&p.mesh, bvh, h);
            }
        }
        if far > 0 && !rigid {
            out.far_bone += far;
            out.far_bone_by_part.insert(p.name.clone(), far);
        }
        if counted >= 20 && !rigid {
            let share = unlike as f32 / counted as f32;
            if share > UNLIKE_NEAREST {
                out.unlike_nearest.insert(p.name.clone(), share);
            }
        }
    }
    out
}

/// A garment vertex farther than this (units of H) from any skin is far from it.
pub const GARMENT_FAR_H: f32 = 0.15;
/// A garment island with a vertex within this (units of H) of the skin hangs from it.
pub const GARMENT_TOUCH_H: f32 = 0.05;

/// The vertices of garment `mesh` farther than [`GARMENT_FAR_H`] from the skin (`bvh`)
/// on an island of the garment that comes nowhere within [`GARMENT_TOUCH_H`] of it: a
/// part taken for a garment that no skin carries (the legs of a character whose head
/// was taken for the body). A flared skirt's hem, 15-20 % H from the legs, hangs from
/// the hips it lies on and is not counted.
fn garment_far(mesh: &crate::model::Mesh, bvh: &crate::geom::bvh::Bvh, h: f32) -> usize {
    let d: Vec<f32> = mesh
        .positions
        .iter()
        .map(|q| bvh.closest(*q).map_or(f32::INFINITY, |c| c.dist2.sqrt()))
        .collect();
    let (island, k) = crate::geom::weld::islands(mesh.positions.len(), &mesh.triangles);
    let mut touches = vec![false; k];
    for (v, &dv) in d.iter().enumerate() {
        if dv <= GARMENT_TOUCH_H * h {
            touches[island[v] as usize] = true;
        }
    }
    d.iter()
        .zip(&island)
        .filter(|(&dv, &i)| dv > GARMENT_FAR_H * h && !touches[i as usize])
        .count()
}

/// Share of a part's vertices whose top bone is neither the nearest bone nor next to
/// it, above which the part is reported as weighted unlike its own bones.
pub const UNLIKE_NEAREST: f32 = 0.5;

pub use super::mirror::MIRROR_TOL_H;

/// Worst mirrored weight difference over mirrored vertex pairs of one part (every 7th
/// vertex on the +X side of the mid-plane, the middle of the part's X extent; its
/// mirror is the nearest vertex within [`MIRROR_TOL_H`] of its mirror image; the
/// weights (from 1e-4) of left and right bones against their mirror bones', by name),
/// and the number of pairs.
fn mirror_error(
    positions: &[Vec3],
    w: &Weights,
    s: &crate::model::Skeleton,
    h: f32,
) -> (Option<f32>, usize) {
    let tol = MIRROR_TOL_H * h;
    if positions.is_empty() || !(tol > 0.0) {
        return (None, 0);
    }
    let (lo, hi) = positions
        .iter()
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), p| {
            (a.min(p.x), b.max(p.x))
        });
    let mid = 0.5 * (lo + hi);
    let grid = crate::geom::grid::Grid::new(positions, tol);
    let mirror = super::mirror::bone_mirrors(s);
    let mut worst = 0.0f32;
    let mut pairs = 0;
    let n = positions.len().min(w.vertices.len());
    for i in (0..n).step_by(7) {
        let p = positions[i];
        if p.x - mid <= tol {
            continue;
        }
        let q = Vec3::new(2.0 * mid - p.x, p.y, p.z);
        let Some(j) = grid.nearest_within(q, tol) else {
            continue;
        };
        if j >= n {
            continue;
        }
        pairs += 1;
        // Sided bones only, weights from 1e-4, as the rigging notes measure it.
        for inf in &w.vertices[i] {
            let b = inf.bone as usize;
            if b >= s.len() || inf.weight < 1e-4 {
                continue;
            }
            if mirror[b] as usize != b {
                worst = worst.max((inf.weight - w.get(j, mirror[b])).abs());
            }
        }
    }
    if pairs == 0 {
        (None, 0)
    } else {
        (Some(worst), pairs)
    }
}

impl WeightReport {
    /// Whether bone heat (or any weighting) failed: unweighted vertices, non-finite
    /// weights, or an empty major bone.
    pub fn heat_failed(&self) -> bool {
        self.unweighted > 0 || self.non_finite > 0 || !self.empty_major.is_empty()
    }

    /// The report as checks (see the module docs for the table), with the game-export
    /// limit of 4 influences a vertex.
    pub fn checks(&self) -> Vec<Check> {
        self.checks_with(4)
    }

    /// The report as checks, with `max_influences` influences a vertex allowed. These
    /// are the only definitions of the weight checks: the bind, `rigsmith weights` and
    /// the review ([`crate::review::check`]) all report them from here.
    pub fn checks_with(&self, max_influences: usize) -> Vec<Check> {
        let list = |v: &[String]| {
            if v.is_empty() {
                "none".to_string()
            } else {
                v.join(", ")
            }
        };
        let per_part = |m: &BTreeMap<String, usize>| {
            m.iter()
                .map(|(k, v)| format!("{k}: {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut out = vec![
            Check::new("weights.unweighted", "C", Severity::Blocker)
                .title("Every vertex weighted")
                .measure(
                    "vertices whose deform weights sum below 1e-4 (unskinned parts count whole)",
                )
                .at_most(self.unweighted as f64, 0.0)
                .detail(if self.unweighted_by_part.is_empty() {
                    "every vertex is weighted".to_string()
                } else {
                    per_part(&self.unweighted_by_part)
                }),
            Check::new("weights.finite", "C", Severity::Blocker)
                .title("Non-finite weights")
                .measure("vertices with a NaN or infinite weight")
                .at_most(self.non_finite as f64, 0.0)
                .detail(format!(
                    "{} vertices with NaN or infinite weights",
                    self.non_finite
                )),
            Check::new("weights.empty_major", "C", Severity::Blocker)
                .title("Major bones inside the mesh carry weight")
                .measure(
                    "deform bones >= 0.05 H long, middle inside the body, total weight below 1e-3",
                )
                .at_most(self.empty_major.len() as f64, 0.0)
                .detail(list(&self.empty_major)),
            Check::new("weights.normalization", "C", Severity::Major)
                .title("Weights sum to 1")
                .measure("largest abs(sum - 1) over weighted vertices")
                .at_most(self.sum_dev_max as f64, SUM_TOLERANCE as f64)
                .detail(format!(
                    "{} vertices off by more than {SUM_TOLERANCE}",
                    self.sum_dev
                )),
            Check::new("weights.max_influences", "C", Severity::Major)
                .title("Influences per vertex")
                .measure("largest number of influences (weight above 1e-4) on a vertex")
                .at_most(self.max_influences as f64, max_influences as f64)
                .detail(format!("{} vertices over 4 influences", self.over4)),
            Check::new("structure.deform_hygiene", "B", Severity::Major)
                .title("Only deform bones carry weights")
                .measure("non-deform bones carrying weight")
                .at_most(self.non_deform_groups.len() as f64, 0.0)
                .detail(list(&self.non_deform_groups)),
            Check::new("weights.far_bone", "C", Severity::Blocker)
                .title("Vertices follow a bone near them")
                .measure("vertices weighted to a bone far beyond one they see")
                .at_most(self.far_bone as f64, (0.02 * self.vertices as f64).floor())
                .detail(if self.far_bone_by_part.is_empty() {
                    "none".to_string()
                } else {
                    per_part(&self.far_bone_by_part)
                }),
            Check::new("weights.unlike_nearest", "C", Severity::Major)
                .title("Parts follow their own bones")
                .measure("parts where most vertices follow a bone that is not near them")
                .at_most(self.unlike_nearest.len() as f64, 0.0)
                .detail(if self.unlike_nearest.is_empty() {
                    "none".to_string()
                } else {
                    self.unlike_nearest
                        .iter()
                        .map(|(k, v)| format!("{k}: {:.0}%", 100.0 * v))
                        .collect::<Vec<_>>()
                        .join(", ")
                }),
            Check::new("weights.garment_far", "C", Severity::Major)
                .title("Garments hang from the skin")
                .measure("garment vertices farther than 15% H from any skin, on an island of the garment nowhere within 5% H of it")
                .at_most(self.garment_far as f64, 0.0)
                .detail(format!("{} vertices", self.garment_far)),
        ];
        if let Some(e) = self.mirror_err {
            out.push(
                Check::new("weights.symmetry", "C", Severity::Minor)
                    .title("Left/right weights mirror")
                    .measure("worst weight difference between a vertex and its mirror vertex, bones mirrored by name")
                    .at_most(e as f64, MIRROR_MAX as f64)
                    .detail(format!("{} mirrored vertex pairs sampled", self.mirror_pairs)),
            );
        }
        out
    }
}

/// Whether bone `k` of `s` is a child of bone `i` lying along it (a twist bone): both of
/// its ends within 1 % of `i`'s length of `i`'s segment, and it is shorter.
pub fn lies_along(s: &crate::model::Skeleton, i: usize, k: usize) -> bool {
    let (b, c) = (&s.bones[i], &s.bones[k]);
    let l = b.length();
    c.parent == Some(i)
        && c.length() < l
        && [c.head, c.tail].iter().all(|&p| {
            (crate::geom::segment::closest_on_segment(p, b.head, b.tail) - p).length() <= 0.01 * l
        })
}
