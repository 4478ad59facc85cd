//! `rigsmith weights`: computes skin weights for a character and a skeleton.
//!
//! ```text
//! rigsmith weights body.glb --skeleton skeleton.json -o rigged.glb [--max-influences 4]
//!     [--rigid eyes] [--rigid teeth=head] [--body body] [--route geodesic] [--json]
//!     [--smooth 2 --smooth-bones hand_l,lowerarm_l --smooth-vertices body:100-180]
//! ```
//!
//! The skeleton comes from a `skeleton.json` or from any rigged file (its skeleton is
//! used, its weights ignored). Every part is kept with its vertex order and count;
//! joints are named as the skeleton's bones. `--json` prints the weight report, the
//! route and why, and each part's role. Exit 1 when the weight report has a failed
//! blocker (unweighted vertices, an empty major bone), 2 on bad input.

use std::path::PathBuf;

use anyhow::Context;
use rigsmith::bind::{bind, BindOptions, Route};
use rigsmith::io::gltf::WriteOptions;
use rigsmith::report::{Counts, Severity};

use crate::util::{BadInput, Ctx, Outcome, Outputs};

/// The route to force.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum RouteArg {
    /// Bone heat on the surface (no fallback).
    BoneHeat,
    /// The voxel route (heat in the skin's volume).
    Volumetric,
    /// Geodesic voxel binding over every part that follows the body.
    Geodesic,
}

impl RouteArg {
    /// The library's route.
    pub fn route(self) -> Route {
        match self {
            RouteArg::BoneHeat => Route::BoneHeat,
            RouteArg::Volumetric => Route::Volumetric,
            RouteArg::Geodesic => Route::Geodesic,
        }
    }
}

/// Arguments of `rigsmith weights`.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  rigsmith fit body.glb -o skeleton.json
  rigsmith weights body.glb --skeleton skeleton.json -o rigged.glb
  rigsmith weights body.glb --skeleton other_rig.glb -o rigged.glb --rigid eyes=head --route volumetric
  rigsmith weights body.glb --skeleton skeleton.json -o rigged.glb --smooth 2 --smooth-bones hand_l,lowerarm_l --smooth-vertices body:100-180")]
pub struct Args {
    /// The character: .glb, .gltf, .vrm, .obj or .fbx.
    pub input: PathBuf,
    /// The skeleton: skeleton.json or a rigged .glb/.gltf/.vrm.
    #[arg(long)]
    pub skeleton: PathBuf,
    /// Output .glb or .gltf.
    #[arg(short = 'o', long)]
    pub output: PathBuf,
    /// Influences kept per vertex.
    #[arg(long, default_value_t = 4)]
    pub max_influences: usize,
    /// The part roles told (`--body`, `--garment`, `--rigid`; by default every part's
    /// role comes from geometry).
    #[command(flatten)]
    pub parts: crate::util::PartsArgs,
    /// Smoothing passes on the body weights.
    #[arg(long, default_value_t = 0)]
    pub smooth: usize,
    /// Smooth only these bones' weights (the others are kept), after binding: the
    /// `--smooth` passes, restricted as a rigger restricts the brush.
    #[arg(long, value_delimiter = ',', value_name = "BONE,...")]
    pub smooth_bones: Vec<String>,
    /// Smooth only these vertices (the mask), after binding: `I`, `I-J`, or
    /// `PART:I-J` (vertex indices of one part; without PART, the input's first part).
    #[arg(long, value_delimiter = ',', value_name = "[PART:]I-J,...")]
    pub smooth_vertices: Vec<String>,
    /// Export cleanup after binding: remove influences below LIMIT (a weight, 0..1),
    /// keep the `--max-influences` largest, renormalize.
    #[arg(long, value_name = "LIMIT")]
    pub clean: Option<f32>,
    /// Force a route instead of letting the route decision and the weight report decide.
    #[arg(long, value_enum)]
    pub route: Option<RouteArg>,
    /// Print the weight report, route and part roles as JSON on stdout.
    #[arg(long)]
    pub json: bool,
    /// How to read the input's axes and units (the skeleton is read the same way).
    #[command(flatten)]
    pub space: crate::util::SpaceArgs,
}

/// Runs the command.
pub fn run(a: Args, ctx: &Ctx) -> anyhow::Result<Outcome> {
    if a.max_influences == 0 || a.max_influences > 8 {
        return Err(BadInput(format!(
            "--max-influences must be between 1 and 8, got {}",
            a.max_influences
        ))
        .into());
    }
    let mut plan = Outputs::new(&[&a.input, &a.skeleton]);
    plan.file(&a.output).verify()?;
    let (mut c, notes) = crate::util::read_in(&a.input, &a.space)?;
    for n in &notes {
        ctx.info(n);
    }
    a.parts.tell(&mut c, &a.input)?;
    crate::util::check_input(&a.skeleton)?;
    let is_json = a
        .skeleton
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("json"));
    let s = if is_json {
        rigsmith::io::skeleton_json::read(&a.skeleton)?
    } else {
        crate::util::read_in(&a.skeleton, &a.space)?
            .0
            .skeleton
            .ok_or_else(|| BadInput(format!("{}: has no skeleton", a.skeleton.display())))?
    };
    crate::util::leave_out_helpers(
        &mut c,
        rigsmith::fit::quadruped::Plan::Auto,
        rigsmith::pipeline::UNSKINNED_RIGID,
        ctx,
    );
    let told = c.body_options.clone();
    let masked =
        super::weights_mask::Masked::parse(&a.smooth_bones, &a.smooth_vertices, a.smooth, &c, &s)?;
    let o = BindOptions {
        max_influences: a.max_influences,
        rigid: told.rigid,
        body: told.body,
        garment: told.garment,
        smooth: if masked.is_some() { 0 } else { a.smooth },
        force_route: a.route.map(RouteArg::route),
        ..BindOptions::default()
    };
    if let Some(l) = a.clean {
        if !(0.0..1.0).contains(&l) {
            return Err(BadInput(format!("--clean must be a weight in 0..1, got {l}")).into());
        }
    }
    let pb = ctx.stage("computing skin weights");
    let r = bind(&c, &s, &o).with_context(|| format!("weighting {}", a.input.display()))?;
    pb.finish_and_clear();
    let mut out = c.clone();
    out.skeleton = Some(s);
    for (p, w) in out.parts.iter_mut().zip(&r.weights) {
        p.weights = w.clone();
    }
    let mut r = r;
    if let Some(m) = &masked {
        r.reasons.push(m.apply(&mut out, a.smooth));
        let before = std::mem::take(&mut r.report);
        r.report = rigsmith::bind::weight_report(&out);
        r.report.route = before.route;
        r.report.stripped_cross_side = before.stripped_cross_side;
        r.report.garment_transfer = before.garment_transfer;
    }
    if let Some(limit) = a.clean {
        for w in out.parts.iter_mut().filter_map(|p| p.weights.as_mut()) {
            rigsmith::bind::clean(w, limit, a.max_influences);
        }
        // The report of the cleaned weights, keeping what the bind knew.
        let before = std::mem::take(&mut r.report);
        r.report = rigsmith::bind::weight_report(&out);
        r.report.route = before.route;
        r.report.route_reason = before.route_reason;
        r.report.stripped_cross_side = before.stripped_cross_side;
        r.report.garment_transfer = before.garment_transfer;
        r.reasons.push(format!(
            "cleaned: influences below {limit} removed, {} kept a vertex, renormalized",
            a.max_influences
        ));
    }
    plan.character(
        &a.output,
        &out,
        &WriteOptions {
            max_influences: a.max_influences,
            ..Default::default()
        },
    )?;
    let checks = r.report.checks_with(a.max_influences);
    if a.json {
        let roles: Vec<serde_json::Value> = c
            .parts
            .iter()
            .zip(&r.part_roles)
            .map(|(p, role)| serde_json::json!({"part": p.name, "role": role}))
            .collect();
        let v = serde_json::json!({
            "route": r.route,
            "reasons": r.reasons,
            "parts": roles,
            "report": r.report,
            "checks": checks,
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        ctx.info(&format!("route {:?}: {}", r.route, r.reasons.join("; ")));
        for k in checks.iter().filter(|k| !k.passed) {
            ctx.info(&format!("FAILED {} ({}): {}", k.id, k.title, k.detail));
        }
        ctx.info(&format!("wrote {}", a.output.display()));
    }
    let counts = Counts::of(&checks);
    let _ = Severity::Blocker;
    Ok(if counts.blocker > 0 {
        Outcome::CheckFailed
    } else {
        Outcome::Ok
    })
}
