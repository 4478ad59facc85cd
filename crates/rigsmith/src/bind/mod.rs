//! Skin weights: bone heat, volumetric fallback, garment transfer, rigid parts, cleanup,
//! the weight report.
//!
//! # How a character is bound
//!
//! ```text
//! parts ──► roles: Body | Garment | Rigid(bone)
//! body  ──► bone heat ──► cleanup ──► weight report ──ok──► body weights
//!                                        └─fail──► volumetric route ──► body weights
//! garments ◄── robust transfer from the body weights: copy where the match is
//!              good, inpaint where it is not (+ smoothing)
//! rigid    ◄── one bone at 1.0 per island
//! ```
//!
//! ```no_run
//! use rigsmith::bind::{bind, BindOptions};
//! # fn demo(c: &rigsmith::Character, s: &rigsmith::Skeleton) -> rigsmith::Result<()> {
//! let r = bind(c, s, &BindOptions::default())?;
//! println!("route {:?}: {}", r.route, r.reasons.join("; "));
//! assert_eq!(r.report.unweighted, 0);
//! # Ok(()) }
//! ```
//!
//! * **Roles.** The body is [`BindOptions::body`], else the skin found from geometry
//!   ([`crate::model::Body`]): the skin pieces welded into one surface, so that heat
//!   flows across the seams as on a welded body, and each piece takes the weights of
//!   its own vertices. Parts named in [`BindOptions::rigid`], eyes and teeth, and
//!   accessories get one bone; garments and hair are weighted by transfer
//!   ([`transfer::transfer_robust`]): a garment vertex whose closest skin point is near
//!   and faces the same way copies the skin's weights there, the others are inpainted
//!   from those over the garment; the counts are in
//!   [`WeightReport::garment_transfer`] and one line per garment in the reasons.
//! * **Scale.** Positions and bones are moved to the body's centre and divided by its
//!   height H before anything is computed, so the weights do not depend on the unit or
//!   size of the character.
//! * **Route.** Bone heat ([`bone_heat`]) runs first. The weight report of the result
//!   decides ([`WeightReport::heat_failed`]: unweighted vertices or an empty major bone),
//!   as does a failed factorization; then the fallback ([`FALLBACK`], the volumetric
//!   route [`volumetric`]) runs. The geodesic route ([`geodesic`]: geodesic voxel binding
//!   over the skin, garments and hair together, which then take its weights instead of a
//!   transfer) runs when forced.
//!   [`BindResult::route`] and [`BindResult::reasons`] say which route was taken and why.
//! * **Cleanup** (body, in order): [`strip_cross_side`] (band 0.01 H), [`fade_below`]
//!   (0.01), optional [`smooth`], [`keep_largest_smooth`] (`max_influences`), normalize.
//!   When the skin is several pieces, [`exact_seams_among`] then gives their coincident
//!   vertices (within [`SEAM_TOL`] H) one weight vector, the mean of theirs (the rigging
//!   notes' exact seams), and the reasons say how many changed.
//!   The continuous forms of the limits keep the weights a continuous function of the
//!   input, so a rescaled character gets the same weights to 1e-4.
//!
//! Only deform bones receive weight. Vertex order and count of every part are kept.

pub mod bone_heat;
pub mod bone_reach;
pub mod cleanup;
pub mod geodesic;
pub mod laplacian;
pub mod report;
pub mod rigid;
pub mod solve;
pub mod transfer;
pub mod volumetric;
pub use crate::geom::weld;
pub mod winding;

use glam::Vec3;
use serde::Serialize;

pub use bone_heat::Segment;
pub use cleanup::{
    clean, drop_below, exact_seams, exact_seams_among, fade_below, keep_largest,
    keep_largest_smooth, smooth, smooth_masked, strip_cross_side,
};
pub use report::{weight_report, WeightReport};

use crate::error::{Error, Result};
use crate::model::{Character, Skeleton, Weights};

/// Which algorithm weighted the body.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Route {
    /// Bone heat on the surface (Baran and Popović).
    #[default]
    BoneHeat,
    /// Heat diffusion in the voxelized volume, interpolated to the surface.
    Volumetric,
    /// Geodesic voxel binding over the union of every part that follows the body (skin
    /// pieces, garments, hair): distances through the solid ([`geodesic`]).
    Geodesic,
}

impl Route {
    /// The route's name as the command line and reports spell it (`bone-heat`,
    /// `volumetric`, `geodesic`).
    pub fn name(self) -> &'static str {
        match self {
            Route::BoneHeat => "bone-heat",
            Route::Volumetric => "volumetric",
            Route::Geodesic => "geodesic",
        }
    }
}

/// What a part is to the binder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PartRole {
    /// The bound body.
    Body,
    /// Weighted by transfer from the body.
    Garment,
    /// One bone at 1.0: the named bone, or `None` for the nearest deform bone per island.
    Rigid(Option<String>),
}

/// Options of [`bind`].
#[derive(Debug, Clone, PartialEq)]
pub struct BindOptions {
    /// Influences kept per vertex (game engines take 4).
    pub max_influences: usize,
    /// Parts to make rigid: `(part name, bone name)`; no bone = nearest per island.
    pub rigid: Vec<(String, Option<String>)>,
    /// Parts that are skin pieces (by part or material name); default: found from
    /// geometry ([`crate::model::Body`]).
    pub body: Vec<String>,
    /// Parts that are garments, weighted by transfer from the skin.
    pub garment: Vec<String>,
    /// Smoothing passes on the body weights after heat (garments always get 2).
    pub smooth: usize,
    /// Skip the decision and use this route.
    pub force_route: Option<Route>,
    /// Falloff of the geodesic route.
    pub geodesic: geodesic::GeodesicOptions,
}

impl Default for BindOptions {
    fn default() -> Self {
        BindOptions {
            max_influences: 4,
            rigid: Vec::new(),
            body: Vec::new(),
            garment: Vec::new(),
            smooth: 0,
            force_route: None,
            geodesic: geodesic::GeodesicOptions::default(),
        }
    }
}

/// The result of [`bind`].
#[derive(Debug, Clone)]
pub struct BindResult {
    /// Weights per part, in the character's part order (`None` only for a part with no
    /// vertices).
    pub weights: Vec<Option<Weights>>,
    /// The route that weighted the body.
    pub route: Route,
    /// Why: one line per decision (heat failures, voxel sizes tried).
    pub reasons: Vec<String>,
    /// The weight report of the whole bound character.
    pub report: WeightReport,
    /// What each part was taken for, in part order.
    pub part_roles: Vec<PartRole>,
    /// Wall-clock seconds per stage, in order (profiling only; varies run to run).
    pub stages: Vec<(&'static str, f64)>,
}

/// Cross-side strip band, in units of H.
pub const CENTRE_BAND: f32 = 0.01;
/// Weights below this are dropped from the body before limiting.
pub const DROP_LIMIT: f32 = 0.01;
/// The route taken when bone heat fails the weight report. The volumetric route, not
/// the geodesic one: on the re-weighting benchmark (BENCHMARKS.md, *Geodesic voxel
/// binding*) forced onto every character it is the closer of the two to the artist on all
/// of them; the geodesic route is taken only when asked for ([`BindOptions::force_route`]).
pub const FALLBACK: Route = Route::Volumetric;
/// Skin-piece vertices this close (in H) are one seam vertex for the exact seams pass
/// ([`cleanup::exact_seams_among`]): the rubric's 1e-4.
pub const SEAM_TOL: f32 = 1e-4;
/// Smoothing passes on garments after transfer.
pub const GARMENT_SMOOTH: usize = 2;

/// Computes skin weights for every part of `c` on skeleton `s` (see the module docs).
///
/// Errors: an invalid skeleton or mesh, no deform bone, an unknown part or bone in the
/// options, or a body of zero size. Weighting problems are never errors: they switch
/// the route and are in the result's report.
pub fn bind(c: &Character, s: &Skeleton, o: &BindOptions) -> Result<BindResult> {
    s.validate()?;
    for p in &c.parts {
        p.mesh.validate(&format!("part {:?}", p.name))?;
    }
    if c.parts.is_empty() {
        return Err(Error::invalid("character", "has no parts to weight"));
    }
    for (name, _) in &o.rigid {
        if c.find_part(name).is_none() {
            return Err(Error::invalid(
                "bind options",
                format!("rigid part {name:?} is not a part of the character"),
            ));
        }
    }
    for name in o.body.iter().chain(&o.garment) {
        if !c
            .parts
            .iter()
            .any(|p| p.name == *name || p.material.as_deref() == Some(name))
        {
            return Err(Error::invalid(
                "bind options",
                format!("no part named {name:?}"),
            ));
        }
    }
    // The skin: the part named in the options, the only part, or the union of the
    // skin pieces found from geometry (model::Body).
    let mut bo = crate::model::BodyOptions {
        body: o.body.clone(),
        garment: o.garment.clone(),
        rigid: o.rigid.clone(),
    };
    if bo.body.is_empty() && c.parts.len() == 1 && o.rigid.is_empty() {
        bo.body.push(c.parts[0].name.clone());
    }
    let body_info = crate::model::Body::of(c, &bo)?;
    let bm = &body_info.mesh;
    let body_name = if body_info.skin.len() == 1 {
        format!("part {:?}", c.parts[body_info.skin[0]].name)
    } else {
        format!("the skin ({} parts)", body_info.skin.len())
    };
    if bm.triangles.is_empty() {
        return Err(Error::invalid(body_name, "the body has no triangles"));
    }
    let (lo, hi) = bm.bounds();
    let h = body_info.height;
    if !(h.is_finite() && h > 0.0) {
        return Err(Error::invalid(body_name, "the body has zero size"));
    }
    let centre = 0.5 * (lo + hi);
    let norm = |p: Vec3| (p - centre) / h;

    let segs: Vec<Segment> = s
        .bones
        .iter()
        .enumerate()
        .filter(|(_, b)| b.deform)
        .map(|(i, b)| Segment {
            bone: i as u32,
            head: norm(b.head),
            tail: norm(b.tail),
        })
        .collect();
    if segs.is_empty() {
        return Err(Error::invalid("skeleton", "has no deform bone"));
    }
    let ns = Skeleton {
        bones: s
            .bones
            .iter()
            .map(|b| {
                let mut b = b.clone();
                b.head = norm(b.head);
                b.tail = norm(b.tail);
                b
            })
            .collect(),
    };

    // Roles.
    let mut roles = Vec::with_capacity(c.parts.len());
    for (i, r) in body_info.roles.iter().enumerate() {
        let role = match r.class {
            _ if body_info.is_skin(i) => PartRole::Body,
            crate::model::PartClass::Skin => PartRole::Body,
            crate::model::PartClass::Garment | crate::model::PartClass::Hair => PartRole::Garment,
            crate::model::PartClass::Rigid | crate::model::PartClass::Accessory => {
                if let Some(b) = &r.bone {
                    if s.find(b).is_none() {
                        return Err(Error::invalid(
                            "bind options",
                            format!("rigid part {:?}: no bone named {b:?}", c.parts[i].name),
                        ));
                    }
                }
                PartRole::Rigid(r.bone.clone())
            }
        };
        roles.push(role);
    }
    let bpos: Vec<Vec3> = bm.positions.iter().map(|p| norm(*p)).collect();
    let mut reasons = Vec::new();
    let clock = std::time::Instant::now();
    let mut stages: Vec<(&'static str, f64)> = Vec::new();
    let lap = |name: &'static str, stages: &mut Vec<(&'static str, f64)>| {
        let total: f64 = stages.iter().map(|s| s.1).sum();
        stages.push((name, clock.elapsed().as_secs_f64() - total));
    };
    let mut body_w: Option<Weights> = None;
    // The report of the body alone, reused as the final one when it is the only part.
    let mut body_report: Option<WeightReport> = None;
    let mut route = Route::BoneHeat;
    let mut stripped = 0;
    let forced_volume = matches!(o.force_route, Some(Route::Volumetric | Route::Geodesic));
    if !forced_volume {
        match bone_heat::bone_heat(&bpos, &bm.triangles, &segs) {
            Ok(out) => {
                let total: f64 = stages.iter().map(|s| s.1).sum();
                stages.extend(out.stages.iter().map(|&(n, t)| (n, t)));
                let heat: f64 = out.stages.iter().map(|s| s.1).sum();
                stages.push((
                    "bone heat, other",
                    clock.elapsed().as_secs_f64() - total - heat,
                ));
                let mut w = out.weights;
                stripped = finish_body(&mut w, &bpos, bm, &ns, o);
                lap("cleanup", &mut stages);
                let probe = single_part(bm, s, &w);
                let rep = weight_report(&probe);
                if c.parts.len() == 1 {
                    body_report = Some(rep.clone());
                }
                lap("weight report", &mut stages);
                if out.welded > 0 {
                    reasons.push(format!(
                        "bone heat: welded {} coincident vertices",
                        out.welded
                    ));
                }
                if out.degenerate > 0 {
                    reasons.push(format!(
                        "bone heat: skipped {} degenerate triangles",
                        out.degenerate
                    ));
                }
                let failed = rep.heat_failed();
                if failed && o.force_route != Some(Route::BoneHeat) {
                    body_report = None;
                    if rep.unweighted > 0 {
                        reasons.push(format!(
                            "bone heat left {} vertices unweighted ({} islands see no bone)",
                            rep.unweighted, out.dark_islands
                        ));
                    }
                    if !rep.empty_major.is_empty() {
                        reasons.push(format!(
                            "bone heat gave no weight to major bones inside the body: {}",
                            rep.empty_major.join(", ")
                        ));
                    }
                } else {
                    if failed {
                        reasons.push("bone heat failed the weight report; kept as forced".into());
                    } else {
                        reasons.push("bone heat passed the weight report".into());
                    }
                    body_w = Some(w);
                }
            }
            Err(e) if o.force_route != Some(Route::BoneHeat) => {
                reasons.push(format!("bone heat failed: {e}"));
            }
            Err(e) => return Err(e),
        }
    } else if let Some(r) = o.force_route {
        reasons.push(format!("{} route forced", r.name()));
    }
    // Weights of the garment and hair parts when the geodesic route weighted them with
    // the skin, in part order.
    let mut follower_w: Vec<Option<Weights>> = vec![None; c.parts.len()];
    let fallback = match o.force_route {
        Some(r @ (Route::Volumetric | Route::Geodesic)) => r,
        _ => FALLBACK,
    };
    if body_w.is_none() && fallback == Route::Geodesic {
        route = Route::Geodesic;
        let followers: Vec<(usize, crate::model::Mesh)> = roles
            .iter()
            .enumerate()
            .filter(|(_, r)| **r == PartRole::Garment)
            .map(|(i, _)| {
                let m = &c.parts[i].mesh;
                let nm = crate::model::Mesh {
                    positions: m.positions.iter().map(|q| norm(*q)).collect(),
                    triangles: m.triangles.clone(),
                    ..Default::default()
                };
                (i, nm)
            })
            .collect();
        let meshes: Vec<geodesic::MeshRef<'_>> = std::iter::once(geodesic::MeshRef {
            positions: &bpos,
            triangles: &bm.triangles,
        })
        .chain(followers.iter().map(|(_, m)| geodesic::MeshRef {
            positions: &m.positions,
            triangles: &m.triangles,
        }))
        .collect();
        let out = geodesic::geodesic(&meshes, &segs, &o.geodesic)?;
        reasons.extend(out.attempts.iter().cloned());
        reasons.push(format!(
            "geodesic route: the skin and {} garment or hair parts in one volume of {} cells at H/{:.0}",
            followers.len(),
            out.solid,
            1.0 / out.voxel
        ));
        if out.filled > 0 {
            reasons.push(format!(
                "geodesic route: {} voxels inside by winding number around bones the flood fill left outside",
                out.filled
            ));
        }
        if out.bridged > 0 {
            reasons.push(format!(
                "geodesic route: {} pieces of the volume reached by no bone were joined to the nearest piece",
                out.bridged
            ));
        }
        if out.unreached > 0 {
            reasons.push(format!(
                "geodesic route: {} vertices reached by no solid voxel took their nearest bone",
                out.unreached
            ));
        }
        let mut ws = out.weights.into_iter();
        let mut w = ws.next().expect("the skin's weights");
        finish_body(&mut w, &bpos, bm, &ns, o);
        body_w = Some(w);
        for ((i, m), mut w) in followers.iter().zip(ws) {
            finish_body(&mut w, &m.positions, m, &ns, o);
            follower_w[*i] = Some(w);
        }
        lap("geodesic route", &mut stages);
    }
    if body_w.is_none() {
        route = Route::Volumetric;
        let out = volumetric::volumetric(&bpos, &bm.triangles, &segs)?;
        reasons.extend(out.attempts.iter().cloned());
        if out.unreached > 0 {
            reasons.push(format!(
                "volumetric route: {} vertices reached by no solid voxel",
                out.unreached
            ));
        }
        let mut w = out.weights;
        stripped = finish_body(&mut w, &bpos, bm, &ns, o);
        // The transferred weights pass through the same weight report as bone heat's.
        let rep = weight_report(&single_part(bm, s, &w));
        reasons.push(format!(
            "volumetric route verified by the weight report: {} unweighted vertices, empty major bones: {} ({})",
            rep.unweighted,
            if rep.empty_major.is_empty() { "none".to_string() } else { rep.empty_major.join(", ") },
            if rep.heat_failed() { "FAILED" } else { "passed" }
        ));
        if c.parts.len() == 1 {
            body_report = Some(rep);
        }
        body_w = Some(w);
        lap("volumetric route", &mut stages);
    }

    // Everything else.
    // Built only when a part other than the body needs it.
    let body_bvh = std::sync::OnceLock::new();
    let body_bvh = || body_bvh.get_or_init(|| crate::geom::bvh::Bvh::build(&bpos, &bm.triangles));
    let body_normals = std::sync::OnceLock::new();
    let body_normals = || {
        body_normals.get_or_init(|| {
            crate::model::Mesh {
                positions: bpos.clone(),
                triangles: bm.triangles.clone(),
                ..Default::default()
            }
            .compute_normals()
        })
    };
    let mut garment_transfer: Vec<report::GarmentTransfer> = Vec::new();
    let mut weights: Vec<Option<Weights>> = Vec::with_capacity(c.parts.len());
    for (i, p) in c.parts.iter().enumerate() {
        let w = match &roles[i] {
            PartRole::Body => body_info.spread_weights(i, body_w.as_ref()),
            PartRole::Rigid(bone) => {
                let b = bone.as_deref().and_then(|b| s.find(b)).map(|b| b as u32);
                let pm = crate::model::Mesh {
                    positions: p.mesh.positions.iter().map(|q| norm(*q)).collect(),
                    triangles: p.mesh.triangles.clone(),
                    ..Default::default()
                };
                match (b, &body_w) {
                    (None, Some(bw)) => {
                        let votes =
                            transfer::transfer(body_bvh(), &bm.triangles, bw, &pm.positions);
                        rigid::rigid_weights_voted(&pm, &votes, &segs)
                    }
                    _ => rigid::rigid_weights(&pm, &segs, b),
                }
            }
            PartRole::Garment if follower_w[i].is_some() => follower_w[i].take().expect("checked"),
            PartRole::Garment => {
                let gm = crate::model::Mesh {
                    positions: p.mesh.positions.iter().map(|q| norm(*q)).collect(),
                    triangles: p.mesh.triangles.clone(),
                    ..Default::default()
                };
                let bw = body_w
                    .as_ref()
                    .expect("body weights exist when a garment does");
                let surface = transfer::BodySurface {
                    bvh: body_bvh(),
                    triangles: &bm.triangles,
                    weights: bw,
                    normals: body_normals(),
                };
                let out =
                    transfer::transfer_robust(&surface, &gm, &transfer::TransferOptions::default());
                let mut stats = out.stats;
                stats.part = p.name.clone();
                garment_transfer.push(stats);
                let mut w = out.weights;
                smooth(&mut w, &p.mesh, GARMENT_SMOOTH);
                keep_largest_smooth(&mut w, o.max_influences);
                w
            }
        };
        weights.push(if p.mesh.positions.is_empty() {
            None
        } else {
            Some(w)
        });
    }
    // Exact seams (P8): coincident vertices of two skin pieces get one weight vector.
    if body_info.skin.len() > 1 {
        let n = cleanup::exact_seams_among(c, &mut weights, &body_info.skin, SEAM_TOL * h);
        reasons.push(format!(
            "exact seams: {n} vertices of the skin pieces coincident within {SEAM_TOL} H took one weight vector"
        ));
    }
    let mut bound = c.clone();
    bound.skeleton = Some(s.clone());
    for (p, w) in bound.parts.iter_mut().zip(&weights) {
        p.weights = w.clone();
    }
    let mut report = match body_report {
        Some(rep) => rep,
        None => weight_report(&bound),
    };
    for g in &garment_transfer {
        reasons.push(format!("garment transfer: {}", g.line()));
    }
    report.garment_transfer = garment_transfer;
    report.route = route;
    report.stripped_cross_side = stripped;
    lap("other parts, final report", &mut stages);
    Ok(BindResult {
        weights,
        route,
        reasons,
        report,
        part_roles: roles,
        stages,
    })
}

/// The body cleanup chain (see the module docs); `bpos` and `ns` (the skeleton) are
/// in the same normalized frame.
fn finish_body(
    w: &mut Weights,
    bpos: &[Vec3],
    mesh: &crate::model::Mesh,
    ns: &Skeleton,
    o: &BindOptions,
) -> usize {
    let stripped = strip_cross_side(w, bpos, ns, CENTRE_BAND);
    fade_below(w, DROP_LIMIT);
    if o.smooth > 0 {
        smooth(w, mesh, o.smooth);
    }
    keep_largest_smooth(w, o.max_influences);
    stripped
}

/// A one-part character holding `w` on the body mesh, for the report.
fn single_part(m: &crate::model::Mesh, s: &Skeleton, w: &Weights) -> Character {
    let p = crate::model::Part {
        name: "body".into(),
        mesh: m.clone(),
        weights: Some(w.clone()),
        ..Default::default()
    };
    Character {
        parts: vec![p],
        skeleton: Some(s.clone()),
        ..Default::default()
    }
}
