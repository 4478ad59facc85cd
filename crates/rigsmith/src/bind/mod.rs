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
//! * **Route.** [`route_choice`] decides from the character: the volumetric route for
//!   a coarse skin (median edge longer than the voxel) whose bones the volume's plain
//!   distance finds as the reach does, bone heat otherwise
//!   ([`WeightReport::route_reason`] says which and why). Bone heat ([`bone_heat`]) runs first. The weight report of the result
//!   decides ([`WeightReport::heat_failed`]: unweighted vertices or an empty major bone),
//!   as does a failed factorization; then the fallback ([`FALLBACK`], the volumetric
//!   route [`volumetric`]) runs. The geodesic route ([`geodesic`]: geodesic voxel binding
//!   over the skin, garments and hair together, which then take its weights instead of a
//!   transfer) runs when forced.
//!   [`BindResult::route`] and [`BindResult::reasons`] say which route was taken and why.
//! * **Twist chains** ([`twist_chain`]): a twist bone lying along its limb bone is no
//!   bone of its own for the routes; the limb's weight is shared along the chain in the
//!   cleanup.
//! * **Cleanup** (body, in order): [`strip_cross_side`] (band 0.01 H), [`fade_below`]
//!   (0.01), optional [`smooth`], the twist chains' spread, [`keep_largest_smooth`]
//!   (`max_influences`), normalize.
//!   When the skin is several pieces, [`exact_seams_among`] then gives their coincident
//!   vertices (within [`SEAM_TOL`] H) one weight vector, the mean of theirs (the rigging
//!   notes' exact seams), and the reasons say how many changed.
//!   The continuous forms of the limits keep the weights a continuous function of the
//!   input, so a rescaled character gets the same weights to 1e-4. A garment's
//!   transferred weights are smoothed ([`GARMENT_SMOOTH`] passes), lose past the same
//!   band the other side's bones (but those the inpainting gave a vertex off the skin:
//!   a skirt's hem between the legs), and are limited.
//! * **Ears hung beside the head** (a four-legged skeleton whose ear chains do not
//!   descend from the head): the head takes its share of every ear vertex, the share
//!   that keeps the larger of the ear's lags behind the head and behind its own turn
//!   smallest ([`ears`]).
//! * **Mirrored** ([`mirror`]): when the skeleton is symmetric about a plane, every
//!   vertex of the skin whose mirror image lies on a skin vertex takes the mean of its
//!   weights and that vertex's, bones mirrored by name, as a rigger mirrors one painted
//!   side to the other (before the garments copy the skin); the reasons say how many,
//!   or why not.
//!
//! Only deform bones receive weight. Vertex order and count of every part are kept.

pub mod bone_heat;
pub mod bone_reach;
pub mod bones;
pub mod cleanup;
pub mod ears;
pub mod fix;
pub mod geodesic;
pub mod joint_blend;
pub mod laplacian;
pub mod leg_level;
pub mod mirror;
pub mod piece_bones;
pub mod report;
pub mod rigid;
pub mod route_choice;
pub mod sight;
pub mod solve;
pub mod transfer;
pub mod twist_chain;
pub mod volumetric;
pub use crate::geom::weld;
pub mod winding;

use glam::Vec3;
use serde::Serialize;

pub use bones::Segment;
pub use cleanup::{
    clean, drop_below, exact_seams, exact_seams_among, fade_below, keep_largest,
    keep_largest_smooth, smooth, smooth_masked, strip_cross_side, strip_smoothed_across,
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
pub enum PartWeighting {
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
    pub part_roles: Vec<PartWeighting>,
    /// Each part's class (skin, garment, hair, rigid, accessory), in part order.
    pub part_classes: Vec<crate::model::PartClass>,
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
    check_inputs(c, s, o)?;
    let x = Frame::new(c, s, o)?;
    let roles = part_roles(&x)?;
    let mut log = Log::new();
    let mut skin = Skin::default();
    let kin = bone_reach::skeleton_kin(s, &x.segs);
    // The route decision (route_choice): the volume for a coarse skin whose bones sit
    // where plain distance finds them.
    let choice = o
        .force_route
        .is_none()
        .then(|| route_choice::choose(&x.bpos, &x.body.mesh.triangles, &x.segs, &kin));
    if let Some(c) = &choice {
        log.reasons.push(format!("route decision: {}", c.reason));
    }
    let chosen_volume = choice.as_ref().is_some_and(|c| c.volume);
    if !matches!(o.force_route, Some(Route::Volumetric | Route::Geodesic)) && !chosen_volume {
        bone_heat_route(&x, &kin, &mut log, &mut skin)?;
    } else if let Some(r) = o.force_route {
        log.reasons.push(format!("{} route forced", r.name()));
    }
    let fallback = match o.force_route {
        Some(r @ (Route::Volumetric | Route::Geodesic)) => r,
        _ => FALLBACK,
    };
    if skin.weights.is_none() && fallback == Route::Geodesic {
        geodesic_route(&x, &roles, &mut log, &mut skin)?;
    }
    if skin.weights.is_none() {
        volumetric_route(&x, &mut log, &mut skin)?;
    }
    // A symmetric character weighs alike on both sides (bind::mirror); the garments
    // then copy the mirrored skin.
    if let Some(w) = skin.weights.as_mut() {
        log.reasons.push(
            match mirror::symmetrize(&x.bpos, w, &x.ns, 1.0, o.max_influences) {
                Ok(n) => format!(
                    "mirrored: {n} vertices of the skin took the mean of their weights and their mirror's (bind::mirror)"
                ),
                Err(why) => format!("not mirrored: {why}"),
            },
        );
    }
    let (mut weights, garment_transfer) = weigh_other_parts(&x, &roles, &mut skin);
    // Exact seams: coincident vertices of two skin pieces get one weight vector.
    if x.body.skin.len() > 1 {
        let n = cleanup::exact_seams_among(c, &mut weights, &x.body.skin, SEAM_TOL * x.h);
        log.reasons.push(format!(
            "exact seams: {n} vertices of the skin pieces coincident within {SEAM_TOL} H took one weight vector"
        ));
    }
    if x.chains.any() {
        log.reasons.push(format!(
            "twist chains: {} twist bones bound as their limb, the limb's weight then shared along the chain by each vertex's place (bind::twist_chain)",
            x.chains.rules.len()
        ));
    }
    let carried = ears::carry_ears(c, s, &mut weights, o.max_influences);
    if carried > 0 {
        log.reasons.push(format!(
            "ears hung beside the head: {carried} vertices give the head its share (bind::ears)"
        ));
    }
    let mut report = final_report(&x, &weights, garment_transfer, &skin, &mut log);
    report.route_reason = match (o.force_route, &choice) {
        (Some(r), _) => format!("{} route forced", r.name()),
        (None, Some(c)) if (skin.route == Route::Volumetric) == c.volume => c.reason.clone(),
        _ => "bone heat failed the weight report: the volumetric route took over".into(),
    };
    Ok(BindResult {
        weights,
        route: skin.route,
        reasons: log.reasons,
        report,
        part_roles: roles,
        part_classes: x.body.roles.iter().map(|r| r.class).collect(),
        stages: log.stages,
    })
}

/// Refuses an invalid skeleton or mesh, a character without parts, and options that
/// name a part the character does not have.
fn check_inputs(c: &Character, s: &Skeleton, o: &BindOptions) -> Result<()> {
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
    Ok(())
}

/// The inputs of [`bind`] and the skin, moved to the skin's centre and divided by its
/// height H: every step works in this frame.
struct Frame<'a> {
    c: &'a Character,
    s: &'a Skeleton,
    o: &'a BindOptions,
    /// The skin and the role of every part.
    body: crate::model::Body,
    /// The centre of the skin's bounds.
    centre: Vec3,
    /// H.
    h: f32,
    /// The deform bones as segments, normalized; a twist bone lying along its limb is
    /// not one (it binds as its limb, [`twist_chain`]).
    segs: Vec<Segment>,
    /// The twist chains, spread back after the routes.
    chains: twist_chain::Chains,
    /// The skeleton, normalized.
    ns: Skeleton,
    /// The skin's positions, normalized.
    bpos: Vec<Vec3>,
}

impl<'a> Frame<'a> {
    /// The skin: the part named in the options, the only part, or the union of the
    /// skin pieces found from geometry (model::Body); and the frame it sets.
    fn new(c: &'a Character, s: &'a Skeleton, o: &'a BindOptions) -> Result<Frame<'a>> {
        let mut bo = crate::model::BodyOptions {
            body: o.body.clone(),
            garment: o.garment.clone(),
            rigid: o.rigid.clone(),
        };
        if bo.body.is_empty() && c.parts.len() == 1 && o.rigid.is_empty() {
            bo.body.push(c.parts[0].name.clone());
        }
        let body = crate::model::Body::of(c, &bo)?;
        let bm = &body.mesh;
        let body_name = if body.skin.len() == 1 {
            format!("part {:?}", c.parts[body.skin[0]].name)
        } else {
            format!("the skin ({} parts)", body.skin.len())
        };
        if bm.triangles.is_empty() {
            return Err(Error::invalid(body_name, "the body has no triangles"));
        }
        let (lo, hi) = bm.bounds();
        let h = body.height;
        if !(h.is_finite() && h > 0.0) {
            return Err(Error::invalid(body_name, "the body has zero size"));
        }
        let centre = 0.5 * (lo + hi);
        let norm = |p: Vec3| (p - centre) / h;
        let chains = twist_chain::Chains::of(s);
        let segs: Vec<Segment> = Segment::deform_bones(s, norm)
            .into_iter()
            .filter(|g| !chains.merged[g.bone as usize])
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
        let bpos = bm.positions.iter().map(|p| norm(*p)).collect();
        Ok(Frame {
            c,
            s,
            o,
            body,
            centre,
            h,
            segs,
            chains,
            ns,
            bpos,
        })
    }

    /// A point in the normalized frame.
    fn norm(&self, p: Vec3) -> Vec3 {
        (p - self.centre) / self.h
    }

    /// A part's mesh (positions and triangles) in the normalized frame.
    fn norm_mesh(&self, m: &crate::model::Mesh) -> crate::model::Mesh {
        crate::model::Mesh {
            positions: m.positions.iter().map(|q| self.norm(*q)).collect(),
            triangles: m.triangles.clone(),
            ..Default::default()
        }
    }
}

/// What the binder takes each part for (from the body's roles); a rigid part's named
/// bone must exist.
fn part_roles(x: &Frame) -> Result<Vec<PartWeighting>> {
    use crate::model::PartClass;
    let mut roles = Vec::with_capacity(x.c.parts.len());
    for (i, r) in x.body.roles.iter().enumerate() {
        let role = match r.class {
            _ if x.body.is_skin(i) => PartWeighting::Body,
            PartClass::Skin => PartWeighting::Body,
            PartClass::Garment | PartClass::Hair => PartWeighting::Garment,
            PartClass::Rigid | PartClass::Accessory => {
                if let Some(b) = &r.bone {
                    if x.s.find(b).is_none() {
                        return Err(Error::invalid(
                            "bind options",
                            format!("rigid part {:?}: no bone named {b:?}", x.c.parts[i].name),
                        ));
                    }
                }
                PartWeighting::Rigid(r.bone.clone())
            }
        };
        roles.push(role);
    }
    Ok(roles)
}

/// The reasons of [`BindResult`] and the wall-clock seconds per stage.
struct Log {
    reasons: Vec<String>,
    stages: Vec<(&'static str, f64)>,
    clock: std::time::Instant,
}

impl Log {
    fn new() -> Log {
        Log {
            reasons: Vec::new(),
            stages: Vec::new(),
            clock: std::time::Instant::now(),
        }
    }

    /// Records the reason `text` says of `count` things, when there are any.
    fn count(&mut self, count: usize, text: impl FnOnce(usize) -> String) {
        if count > 0 {
            self.reasons.push(text(count));
        }
    }

    /// Seconds of the stages recorded so far.
    fn recorded(&self) -> f64 {
        self.stages.iter().map(|s| s.1).sum()
    }

    /// Records the time since the last stage as `name`.
    fn lap(&mut self, name: &'static str) {
        let t = self.clock.elapsed().as_secs_f64() - self.recorded();
        self.stages.push((name, t));
    }
}

/// The skin's weights as the routes leave them.
#[derive(Default)]
struct Skin {
    /// The skin's weights, once a route has given them.
    weights: Option<Weights>,
    /// The report of the skin alone, reused as the final one when it is the only part.
    report: Option<WeightReport>,
    /// The route that gave the weights.
    route: Route,
    /// Weights stripped across the centre line by the cleanup.
    stripped: usize,
    /// Weights of the garment and hair parts when the geodesic route weighted them with
    /// the skin, in part order (empty otherwise).
    followers: Vec<Option<Weights>>,
}

/// Bone heat on the skin: kept when the weight report passes it or when it is forced,
/// else the reasons say why not and the fallback runs.
fn bone_heat_route(x: &Frame, kin: &[Vec<u32>], log: &mut Log, skin: &mut Skin) -> Result<()> {
    let (o, bm) = (x.o, &x.body.mesh);
    let out = match bone_heat::bone_heat(&x.bpos, &bm.triangles, &x.segs, Some(kin), true) {
        Ok(out) => out,
        Err(e) if o.force_route != Some(Route::BoneHeat) => {
            log.reasons.push(format!("bone heat failed: {e}"));
            return Ok(());
        }
        Err(e) => return Err(e),
    };
    let total = log.recorded();
    log.stages.extend(out.stages.iter().map(|&(n, t)| (n, t)));
    let heat: f64 = out.stages.iter().map(|s| s.1).sum();
    log.stages.push((
        "bone heat, other",
        log.clock.elapsed().as_secs_f64() - total - heat,
    ));
    let mut w = out.weights;
    skin.stripped = finish_body(&mut w, &x.bpos, bm, (&x.ns, &x.chains), o);
    log.lap("cleanup");
    let rep = weight_report(&single_part(bm, x.s, &w));
    if x.c.is_one_welded_part() {
        skin.report = Some(rep.clone());
    }
    log.lap("weight report");
    log.count(out.welded, |n| {
        format!("bone heat: welded {n} coincident vertices")
    });
    log.count(out.degenerate, |n| {
        format!("bone heat: skipped {n} degenerate triangles")
    });
    log.count(out.restricted_pieces, |n| {
        format!("bone heat: {n} closed skin pieces heated only by the bones they hold (bind::piece_bones)")
    });
    let failed = rep.heat_failed();
    if failed && o.force_route != Some(Route::BoneHeat) {
        skin.report = None;
        if rep.unweighted > 0 {
            log.reasons.push(format!(
                "bone heat left {} vertices unweighted ({} islands see no bone)",
                rep.unweighted, out.dark_islands
            ));
        }
        if !rep.empty_major.is_empty() {
            log.reasons.push(format!(
                "bone heat gave no weight to major bones inside the body: {}",
                rep.empty_major.join(", ")
            ));
        }
    } else {
        log.reasons.push(if failed {
            "bone heat failed the weight report; kept as forced".into()
        } else {
            "bone heat passed the weight report".into()
        });
        skin.weights = Some(w);
    }
    Ok(())
}

/// The geodesic route: the skin, the garments and the hair in one volume; the
/// garments and hair keep its weights instead of a transfer.
fn geodesic_route(
    x: &Frame,
    roles: &[PartWeighting],
    log: &mut Log,
    skin: &mut Skin,
) -> Result<()> {
    let (o, bm) = (x.o, &x.body.mesh);
    skin.route = Route::Geodesic;
    let followers: Vec<(usize, crate::model::Mesh)> = roles
        .iter()
        .enumerate()
        .filter(|(_, r)| **r == PartWeighting::Garment)
        .map(|(i, _)| (i, x.norm_mesh(&x.c.parts[i].mesh)))
        .collect();
    let meshes: Vec<geodesic::MeshRef<'_>> = std::iter::once(geodesic::MeshRef {
        positions: &x.bpos,
        triangles: &bm.triangles,
    })
    .chain(followers.iter().map(|(_, m)| geodesic::MeshRef {
        positions: &m.positions,
        triangles: &m.triangles,
    }))
    .collect();
    let out = geodesic::geodesic(&meshes, &x.segs, &o.geodesic)?;
    log.reasons.extend(out.attempts.iter().cloned());
    log.reasons.push(format!(
        "geodesic route: the skin and {} garment or hair parts in one volume of {} cells at H/{:.0}",
        followers.len(),
        out.solid,
        1.0 / out.voxel
    ));
    log.count(out.filled, |n| {
        format!("geodesic route: {n} voxels inside by winding number around bones the flood fill left outside")
    });
    log.count(out.bridged, |n| {
        format!("geodesic route: {n} pieces of the volume reached by no bone were joined to the nearest piece")
    });
    log.count(out.unreached, |n| {
        format!("geodesic route: {n} vertices reached by no solid voxel took their nearest bone")
    });
    let mut ws = out.weights.into_iter();
    let mut w = ws.next().expect("the skin's weights");
    finish_body(&mut w, &x.bpos, bm, (&x.ns, &x.chains), o);
    skin.weights = Some(w);
    skin.followers = vec![None; x.c.parts.len()];
    for ((i, m), mut w) in followers.iter().zip(ws) {
        finish_body(&mut w, &m.positions, m, (&x.ns, &x.chains), o);
        skin.followers[*i] = Some(w);
    }
    log.lap("geodesic route");
    Ok(())
}

/// The volumetric route, verified by the same weight report as bone heat's.
fn volumetric_route(x: &Frame, log: &mut Log, skin: &mut Skin) -> Result<()> {
    let bm = &x.body.mesh;
    skin.route = Route::Volumetric;
    let out = volumetric::volumetric(&x.bpos, &bm.triangles, &x.segs)?;
    log.reasons.extend(out.attempts.iter().cloned());
    if out.unreached > 0 {
        log.reasons.push(format!(
            "volumetric route: {} vertices reached by no solid voxel",
            out.unreached
        ));
    }
    let mut w = out.weights;
    skin.stripped = finish_body(&mut w, &x.bpos, bm, (&x.ns, &x.chains), x.o);
    let rep = weight_report(&single_part(bm, x.s, &w));
    log.reasons.push(format!(
        "volumetric route verified by the weight report: {} unweighted vertices, empty major bones: {} ({})",
        rep.unweighted,
        if rep.empty_major.is_empty() { "none".to_string() } else { rep.empty_major.join(", ") },
        if rep.heat_failed() { "FAILED" } else { "passed" }
    ));
    if x.c.is_one_welded_part() {
        skin.report = Some(rep);
    }
    skin.weights = Some(w);
    log.lap("volumetric route");
    Ok(())
}

/// The skin's BVH and normals in the normalized frame, built only when a part other
/// than the skin needs them.
struct SkinSurface<'a> {
    x: &'a Frame<'a>,
    bvh: std::sync::OnceLock<crate::geom::bvh::Bvh>,
    normals: std::sync::OnceLock<Vec<Vec3>>,
}

impl SkinSurface<'_> {
    fn bvh(&self) -> &crate::geom::bvh::Bvh {
        self.bvh
            .get_or_init(|| crate::geom::bvh::Bvh::build(&self.x.bpos, &self.x.body.mesh.triangles))
    }

    fn normals(&self) -> &[Vec3] {
        self.normals.get_or_init(|| {
            crate::model::Mesh {
                positions: self.x.bpos.clone(),
                triangles: self.x.body.mesh.triangles.clone(),
                ..Default::default()
            }
            .compute_normals()
        })
    }
}

/// The weights of every part in part order: the skin's pieces take theirs from the
/// skin, rigid parts one bone per island, garments and hair a transfer from the skin
/// (or the geodesic route's own). Also the transfer's counts per garment.
fn weigh_other_parts(
    x: &Frame,
    roles: &[PartWeighting],
    skin: &mut Skin,
) -> (Vec<Option<Weights>>, Vec<report::GarmentTransfer>) {
    let surface = SkinSurface {
        x,
        bvh: std::sync::OnceLock::new(),
        normals: std::sync::OnceLock::new(),
    };
    let mut garment_transfer: Vec<report::GarmentTransfer> = Vec::new();
    let mut weights: Vec<Option<Weights>> = Vec::with_capacity(x.c.parts.len());
    for (i, p) in x.c.parts.iter().enumerate() {
        let follower = skin.followers.get_mut(i).and_then(Option::take);
        let w = match (&roles[i], follower) {
            (PartWeighting::Body, _) => x.body.spread_weights(i, skin.weights.as_ref()),
            (PartWeighting::Rigid(bone), _) => {
                let mut w = rigid_part(&surface, &p.mesh, bone, skin);
                if bone.is_none() && x.body.roles[i].class == crate::model::PartClass::Accessory {
                    held_in_the_hand(x, &mut w);
                }
                w
            }
            (PartWeighting::Garment, Some(w)) => w,
            (PartWeighting::Garment, None) => {
                let (mut w, mut stats) = garment_part(&surface, &p.mesh, skin);
                stats.part = p.name.clone();
                if x.body.roles[i].class == crate::model::PartClass::Garment {
                    stats.rigid_to = rigid_if_one_bone(&mut w)
                        .map(|(b, share)| (x.s.bones[b as usize].name.clone(), share));
                }
                garment_transfer.push(stats);
                w
            }
        };
        weights.push(if p.mesh.positions.is_empty() {
            None
        } else {
            Some(w)
        });
    }
    (weights, garment_transfer)
}

/// A rigid part: its named bone, else per island the bone the skin under it votes for
/// (the nearest deform bone when there are no skin weights).
fn rigid_part(
    surface: &SkinSurface,
    mesh: &crate::model::Mesh,
    bone: &Option<String>,
    skin: &Skin,
) -> Weights {
    let x = surface.x;
    let b = bone.as_deref().and_then(|b| x.s.find(b)).map(|b| b as u32);
    let pm = x.norm_mesh(mesh);
    match (b, &skin.weights) {
        (None, Some(bw)) => {
            let mut votes =
                transfer::transfer(surface.bvh(), &x.body.mesh.triangles, bw, &pm.positions);
            contact_votes(&pm, surface, bw, &mut votes);
            rigid::rigid_weights_voted(&pm, &votes, &x.segs, Some(x.s))
        }
        _ => rigid::rigid_weights(&pm, &x.segs, b),
    }
}

/// An accessory voted onto a finger (a sword's grip inside the fist the fingers wrap)
/// follows the hand that holds it: fingers curl around a held prop, which does not
/// curl with them. A ring is no accessory (small and closed: rigid) and keeps its
/// finger.
fn held_in_the_hand(x: &Frame, w: &mut Weights) {
    let roles = crate::humanoid::Roles::of(x.s, x.c.vrm.as_ref().map(|v| &v.humanoid));
    let hand_of = |b: usize| {
        let mut p = x.s.bones[b].parent;
        while let Some(q) = p {
            if roles.hand.contains(&Some(q)) {
                return Some(q);
            }
            p = x.s.bones[q].parent;
        }
        None
    };
    for list in &mut w.vertices {
        for i in list.iter_mut() {
            if let Some(h) = hand_of(i.bone as usize) {
                i.bone = h as u32;
            }
        }
    }
}

/// Distance (in H) from the skin within which a rigid part's vertex touches it.
pub const CONTACT: f32 = 0.01;
/// Deepest (in H) a rigid part's vertex inside the skin is taken to touch it.
pub const CONTACT_DEEP: f32 = 0.05;

/// Only the places where a rigid part (normalized mesh `pm`) touches the skin
/// (`surface`: within [`CONTACT`] of it, or inside it no deeper than [`CONTACT_DEEP`])
/// vote for its bone, in each island that touches it: a staff held in a fist follows
/// the hand that holds it, not the foot its lower end hangs beside; a backpack the back
/// it lies on. The places are points along the part's edges, [`CONTACT`] apart, so a
/// low-poly rod whose only vertices are its two ends votes where it passes through the
/// fist. A touching island's votes are the skin's weights at those points; an island
/// touching nothing keeps its vertices' votes (`votes`).
fn contact_votes(
    pm: &crate::model::Mesh,
    surface: &SkinSurface,
    bw: &Weights,
    votes: &mut Weights,
) {
    let bvh = surface.bvh();
    let touches = |q: Vec3| {
        bvh.closest(q).is_some_and(|h| {
            let d = h.dist2.sqrt();
            d <= CONTACT || (d <= CONTACT_DEEP && bvh.contains(q))
        })
    };
    let (label, k) = rigid::touching_islands(pm);
    // Per island, the points where it touches the skin.
    let mut at: Vec<Vec<Vec3>> = vec![Vec::new(); k];
    for t in &pm.triangles {
        for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
            let (pa, pb) = (pm.positions[a as usize], pm.positions[b as usize]);
            let n = ((pa - pb).length() / CONTACT).ceil().clamp(1.0, 256.0) as usize;
            let island = &mut at[label[a as usize] as usize];
            island.extend(
                (0..n)
                    .map(|s| pa.lerp(pb, s as f32 / n as f32))
                    .filter(|&q| touches(q)),
            );
        }
    }
    // A touching island's vertices vote no more; its first vertex casts the votes of
    // its touching points.
    let mut first: Vec<Option<usize>> = vec![None; k];
    for (v, list) in votes.vertices.iter_mut().enumerate() {
        let l = label[v] as usize;
        if !at[l].is_empty() {
            list.clear();
            first[l].get_or_insert(v);
        }
    }
    for (l, points) in at.iter().enumerate() {
        let Some(v0) = first[l] else {
            continue;
        };
        let w = transfer::transfer(bvh, &surface.x.body.mesh.triangles, bw, points);
        for list in &w.vertices {
            for i in list {
                votes.add(v0, i.bone, i.weight);
            }
        }
    }
}

/// A garment or hair part: the robust transfer from the skin, smoothed and limited.
fn garment_part(
    surface: &SkinSurface,
    mesh: &crate::model::Mesh,
    skin: &Skin,
) -> (Weights, report::GarmentTransfer) {
    let x = surface.x;
    let gm = x.norm_mesh(mesh);
    let bw = skin
        .weights
        .as_ref()
        .expect("body weights exist when a garment does");
    let body = transfer::BodySurface {
        bvh: surface.bvh(),
        triangles: &x.body.mesh.triangles,
        weights: bw,
        normals: surface.normals(),
    };
    let out = transfer::transfer_robust(&body, &gm, &transfer::TransferOptions::default());
    let mut w = out.weights;
    // What the inpainting gave a vertex off the skin may cross the mid-plane (a
    // skirt's hem between the legs is inpainted from both); a vertex copied from the
    // skin, or lying on it, holds what the skin under it holds, and past the skin's band
    // that is one side.
    let off_skin: Vec<bool> = out
        .inpainted
        .iter()
        .zip(&out.distance)
        .map(|(&k, &d)| k && d > crate::model::body::SHELL_NEAR)
        .collect();
    let mut inpainted = w.clone();
    for (list, &off) in inpainted.vertices.iter_mut().zip(&off_skin) {
        if !off {
            list.clear();
        }
    }
    smooth(&mut w, mesh, GARMENT_SMOOTH);
    // Past the skin's band a vertex keeps no other side's bone that the smoothing
    // carried across a garment's mid-line (the back of a shirt's collar took 0.04 of
    // the other clavicle) or that it took from a skin triangle straddling the band (a
    // belt on a low-poly body, 2 % H off the mid-plane, took 0.04 of the other thigh);
    // what the inpainting gave a vertex off the skin stays.
    strip_smoothed_across(&mut w, &inpainted, &gm.positions, &x.ns, CENTRE_BAND);
    // What hangs between the legs, off the skin, parts by side (a long skirt's hem).
    let roles = crate::humanoid::Roles::of(x.s, x.c.vrm.as_ref().map(|v| &v.humanoid));
    let mirror = mirror::bone_mirrors(&x.ns);
    cleanup::split_between_legs(&mut w, &gm.positions, &x.ns, &roles, &mirror, &off_skin);
    // Within a leg, what hangs off it shares the leg's weight as the skin at its level
    // does (a flared hem below the knee holds the shin, not the knee's blend).
    leg_level::level_along_legs(&mut w, &gm.positions, &off_skin, &x.bpos, bw, &x.ns, &roles);
    keep_largest_smooth(&mut w, x.o.max_influences);
    (w, out.stats)
}

/// Share of a garment's transferred weight on one bone at and above which the garment
/// is made rigid to that bone: the skin under it moves as that bone, and the rest
/// would only bend it (a helmet over the hair; glasses, once the neck's blend has
/// given the head the face: 98.8 % on the head, the temples 1.2 % on the neck). A
/// hood, a collar, a belt, a glove, a shoe hold less and deform.
pub const RIGID_GARMENT_SHARE: f32 = 0.95;

/// A garment whose weight lies on one bone (at least [`RIGID_GARMENT_SHARE`] of it)
/// made rigid to that bone (1.0 on every vertex); returns the bone and its share, or
/// `None` and leaves `w` alone. [`bind`] runs it on every garment (not on hair, which
/// hangs on chains), and `rig` again after the neck's blend has given the head its
/// share over the face (glasses take 86 % head from the transfer, 99 % after).
pub fn rigid_if_one_bone(w: &mut Weights) -> Option<(u32, f32)> {
    let (bone, share) = one_bone(w)?;
    *w = Weights {
        vertices: vec![vec![crate::model::Influence { bone, weight: 1.0 }]; w.len()],
    };
    Some((bone, share))
}

/// The bone holding at least [`RIGID_GARMENT_SHARE`] of `w`'s weight, and its share.
fn one_bone(w: &Weights) -> Option<(u32, f32)> {
    let mut sum = std::collections::BTreeMap::<u32, f32>::new();
    let mut total = 0.0;
    for i in w.vertices.iter().flatten() {
        *sum.entry(i.bone).or_default() += i.weight;
        total += i.weight;
    }
    let (&bone, &top) = sum.iter().max_by(|a, b| a.1.total_cmp(b.1))?;
    let share = top / total;
    (total > 0.0 && share >= RIGID_GARMENT_SHARE).then_some((bone, share))
}

/// The weight report of the bound character (the skin's own when it is the only
/// part), with the garment transfers, the route and the cross-side strip count.
fn final_report(
    x: &Frame,
    weights: &[Option<Weights>],
    garment_transfer: Vec<report::GarmentTransfer>,
    skin: &Skin,
    log: &mut Log,
) -> WeightReport {
    let mut report = match &skin.report {
        Some(rep) => rep.clone(),
        None => {
            let mut bound = x.c.clone();
            bound.skeleton = Some(x.s.clone());
            for (p, w) in bound.parts.iter_mut().zip(weights) {
                p.weights = w.clone();
            }
            // The report judges each part in the role the bind was told (a part bound
            // rigid by `--rigid` follows its one bone, not the nearest).
            let told = crate::model::BodyOptions {
                body: x.o.body.clone(),
                garment: x.o.garment.clone(),
                rigid: x.o.rigid.clone(),
            };
            if told != crate::model::BodyOptions::default() {
                bound.body_options = told;
            }
            weight_report(&bound)
        }
    };
    for g in &garment_transfer {
        log.reasons.push(format!("garment transfer: {}", g.line()));
    }
    report.garment_transfer = garment_transfer;
    report.route = skin.route;
    report.stripped_cross_side = skin.stripped;
    log.lap("other parts, final report");
    report
}

/// The body cleanup chain (see the module docs); `bpos` and `ns` (the skeleton) are
/// in the same normalized frame.
fn finish_body(
    w: &mut Weights,
    bpos: &[Vec3],
    mesh: &crate::model::Mesh,
    (ns, chains): (&Skeleton, &twist_chain::Chains),
    o: &BindOptions,
) -> usize {
    let stripped = strip_cross_side(w, bpos, ns, CENTRE_BAND);
    fade_below(w, DROP_LIMIT);
    if o.smooth > 0 {
        smooth(w, mesh, o.smooth);
    }
    chains.spread(bpos, w, ns, twist_chain::UNLIMITED);
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
