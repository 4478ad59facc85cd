//! `rigsmith fit MESH`: fit a named skeleton to an unrigged character.
//!
//! ```text
//! rigsmith fit body.glb [--template game|basic|mixamo|vrm] [--twist N] [--check-only]
//!                       [--fix] [--override name=x,y,z]... [-o fitted.glb | -o skeleton.json]
//!                       [--skeleton-out skeleton.json] [--json]
//! ```
//!
//! The model check runs first (`--fix` moves all parts together to the floor, the
//! centre and +Z); `--check-only` stops there. Then the fit: `-o` writes the main
//! output, chosen by its extension: a `.glb`/`.gltf` is the character with the fitted
//! skeleton (no weights), a `.json` the skeleton as `skeleton.json`;
//! `--skeleton-out` writes the skeleton as well (the older `--glb FILE` still works).
//! `--json` prints the model report, the landmarks (method, confidence), the placement
//! checks and the VRM humanoid map as one JSON object. Exit 0 when no blocker check
//! fails, 1 when one does (or the model check finds a problem with `--check-only`), 2
//! on bad input (a file that cannot be read, a body whose landmarks cannot be found).

use std::path::PathBuf;

use anyhow::Context;
use glam::Vec3;
use rigsmith::fit::quadruped::{fit_plan, PlanFit};
use rigsmith::fit::{fix_model, model_check, scale_to_height, FitOptions, ModelReport, Template};
use rigsmith::{Counts, Severity};

use crate::util::{BadInput, Ctx, Outcome, Outputs};

/// Arguments of `rigsmith fit`.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  rigsmith fit body.glb -o fitted.glb                 # the character with its skeleton
  rigsmith fit body.glb -o skeleton.json --template mixamo
  rigsmith fit body.glb --check-only --fix
  rigsmith fit body.glb --override knee_l=0.1,0.5,0.02 -o fitted.glb")]
pub struct Args {
    /// The unrigged character: .glb, .gltf, .vrm, .obj or .fbx.
    pub input: PathBuf,
    /// Naming scheme of the skeleton: game, basic, mixamo or vrm (bipeds); quadruped,
    /// horse, wolf, cat; auto (the default: biped with game names or quadruped, read
    /// from the sections, saying why); chain.
    #[arg(long, value_enum, ignore_case = true, default_value = "auto")]
    pub template: crate::util::TemplateArg,
    /// Twist bones per limb segment (upper arm, forearm, thigh, calf).
    #[arg(long, default_value_t = 0)]
    pub twist: usize,
    /// Only run the model check.
    #[arg(long)]
    pub check_only: bool,
    /// Fix what the model check can fix (floor, centre, facing) before fitting.
    #[arg(long)]
    pub fix: bool,
    /// Scale every part (and the skeleton) so the body is this tall, in metres, after
    /// the fix (the feet stay on the floor).
    #[arg(long, value_name = "METRES")]
    pub height: Option<f32>,
    /// Force a landmark: `name=x,y,z` (metres, glTF space), e.g. `knee_l=0.1,0.5,0.02`.
    #[arg(long = "override", value_name = "NAME=X,Y,Z")]
    pub overrides: Vec<String>,
    /// The part roles told (`--body`, `--garment`, `--rigid`): the skeleton is fitted to
    /// the skin pieces, so a part geometry judges wrongly can be told.
    #[command(flatten)]
    pub parts: crate::util::PartsArgs,
    /// The output: a .glb/.gltf (the character with the fitted skeleton, no weights)
    /// or a .json (the skeleton as skeleton.json).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Also write the skeleton as skeleton.json here.
    #[arg(long, value_name = "JSON")]
    pub skeleton_out: Option<PathBuf>,
    /// Write the character with the fitted skeleton here (older form of `-o x.glb`).
    #[arg(long, hide = true)]
    pub glb: Option<PathBuf>,
    /// Print one JSON object (model report, landmarks, checks, humanoid map).
    #[arg(long)]
    pub json: bool,
    /// How to read the input's axes and units.
    #[command(flatten)]
    pub space: crate::util::SpaceArgs,
}

/// Parses `name=x,y,z`.
fn parse_override(s: &str) -> Result<(String, Vec3), BadInput> {
    let bad = || {
        BadInput(format!(
            "--override {s:?}: expected name=x,y,z (three numbers)"
        ))
    };
    let (name, xyz) = s.split_once('=').ok_or_else(bad)?;
    let v: Vec<f32> = xyz
        .split(',')
        .map(|t| t.trim().parse::<f32>())
        .collect::<Result<_, _>>()
        .map_err(|_| bad())?;
    if name.is_empty() || v.len() != 3 || !v.iter().all(|x| x.is_finite()) {
        return Err(bad());
    }
    Ok((name.to_string(), Vec3::new(v[0], v[1], v[2])))
}

/// The skeleton JSON and character outputs the flags ask for (`-o` by its extension).
fn output_paths(a: &Args) -> anyhow::Result<(Vec<PathBuf>, Vec<PathBuf>)> {
    let is_json = |p: &PathBuf| {
        p.extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case("json"))
    };
    let mut skeleton_paths: Vec<PathBuf> = a.skeleton_out.iter().cloned().collect();
    let mut glb_paths: Vec<PathBuf> = a.glb.iter().cloned().collect();
    if let Some(o) = &a.output {
        let ext = o
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("")
            .to_ascii_lowercase();
        if is_json(o) {
            skeleton_paths.push(o.clone());
        } else if ext == "glb" || ext == "gltf" {
            glb_paths.push(o.clone());
        } else {
            return Err(BadInput(format!(
                "{}: -o takes a .glb/.gltf (the character with its skeleton) or a .json (the skeleton)",
                o.display()
            ))
            .into());
        }
    }
    Ok((skeleton_paths, glb_paths))
}

/// Prints the model check (`--check-only`): as JSON, or a line a finding.
fn print_model_report(report: &ModelReport, fixed: &[String], json: bool) -> anyhow::Result<()> {
    if json {
        let v = serde_json::json!({ "model": report, "fixed": fixed });
        println!(
            "{}",
            serde_json::to_string_pretty(&v).context("serializing the report")?
        );
    } else {
        println!(
            "body {:?}: height {:.3} m, floor {:.4}, centre x {:.4}, facing {}",
            report.body, report.height, report.floor, report.center_x, report.facing
        );
        println!(
            "symmetry: {:.2}% of height (general), {:.0}% of vertices mirrored exactly",
            report.symmetry_general,
            100.0 * report.symmetry_vertex
        );
        for p in &report.problems {
            println!(
                "problem {}: {}{}",
                p.id,
                p.message,
                if p.fixable { " (--fix fixes it)" } else { "" }
            );
        }
        for w in &report.warnings {
            println!("warning: {w}");
        }
    }
    Ok(())
}

/// Prints the fit: the plan, the bones, and a line a placement check.
fn print_fit(planned: &PlanFit, template: Template, report: &ModelReport, counts: &Counts) {
    println!("body plan {}: {}", planned.plan, planned.why);
    println!(
        "fitted {} bones ({} template) to {:?}: height {:.3} m, {} pose, arms {:.1} deg below horizontal",
        planned.fit.skeleton.bones.len(),
        if planned.plan == "biped" {
            format!("{template:?}")
        } else {
            planned.plan.clone()
        },
        report.body,
        planned.fit.landmarks.height,
        planned.fit.landmarks.pose,
        planned.fit.landmarks.arm_angle_deg
    );
    for n in planned.fit.landmarks.notes.iter() {
        if n.contains("under cloth") {
            println!("{n}");
        }
    }
    for k in &planned.fit.checks {
        let mark = if k.passed { "ok  " } else { "FAIL" };
        println!(
            "{mark} {:<28} {:>9.3} (limit {}, {:?}) {}",
            k.id,
            k.value,
            k.limit.text(),
            k.severity,
            k.detail
        );
    }
    println!(
        "failed: {} blocker, {} major, {} minor",
        counts.blocker, counts.major, counts.minor
    );
}

/// Runs the command.
pub fn run(a: Args, ctx: &Ctx) -> anyhow::Result<Outcome> {
    let template = Template::from(a.template);
    let overrides = a
        .overrides
        .iter()
        .map(|s| parse_override(s))
        .collect::<Result<Vec<_>, _>>()?;
    // Every output is sorted out and checked before anything is read or written.
    let (skeleton_paths, glb_paths) = output_paths(&a)?;
    let mut plan = Outputs::new(&[&a.input]);
    for p in skeleton_paths.iter().chain(&glb_paths) {
        plan.file(p);
    }
    plan.verify()?;
    let pb = ctx.stage(&format!("reading {}", a.input.display()));
    let c = crate::util::read_in(&a.input, &a.space);
    pb.finish_and_clear();
    let (mut c, notes) = c?;
    for n in &notes {
        ctx.info(n);
    }
    a.parts.tell(&mut c, &a.input)?;
    // As `rig` does: the parts a rigged file leaves unskinned (Blender's bone-display
    // ball written out to FBX) are left out of the figure, rigid, when the fit refuses
    // with them; before the model check, which would measure the floor by them.
    crate::util::leave_out_helpers(
        &mut c,
        a.template.plan(),
        rigsmith::pipeline::UNSKINNED_LEFT_OUT,
        ctx,
    );
    // The body plan's own model check (a quadruped's when the sections show one).
    let model_check = |c: &rigsmith::Character| match a.template.plan() {
        rigsmith::fit::quadruped::Plan::Biped => model_check(c),
        _ => rigsmith::fit::quadruped::model_check_for(c),
    };
    let mut report = model_check(&c);
    let mut fixed = Vec::new();
    if a.fix {
        fixed = fix_model(&mut c, &report);
        for f in &fixed {
            ctx.info(&format!("fixed: {f}"));
        }
        report = model_check(&c);
    }
    if let Some(h) = a.height {
        let did = scale_to_height(&mut c, h).ok_or_else(|| {
            BadInput(format!(
                "--height {h}: expected a positive height in metres for a body with a height"
            ))
        })?;
        ctx.info(&did);
        fixed.push(did);
        report = model_check(&c);
    }
    if a.check_only {
        if ctx.quiet && !a.json {
            return Ok(if report.problems.is_empty() {
                Outcome::Ok
            } else {
                Outcome::CheckFailed
            });
        }
        print_model_report(&report, &fixed, a.json)?;
        return Ok(if report.problems.is_empty() {
            Outcome::Ok
        } else {
            Outcome::CheckFailed
        });
    }
    for p in &report.problems {
        ctx.info(&format!("model check: {}: {}", p.id, p.message));
    }
    let pb = ctx.stage("fitting the skeleton");
    let r = fit_plan(
        &c,
        &FitOptions {
            template,
            twist: a.twist,
            overrides,
            ..Default::default()
        },
        a.template.plan(),
    );
    pb.finish_and_clear();
    let planned = r.map_err(|e| BadInput(format!("{}: {e}", a.input.display())))?;
    let r = &planned.fit;
    for o in &skeleton_paths {
        plan.write(
            o,
            rigsmith::io::skeleton_json::to_string(&r.skeleton).as_bytes(),
        )?;
    }
    if !glb_paths.is_empty() {
        let mut out = c.clone();
        out.skeleton = Some(r.skeleton.clone());
        for p in &mut out.parts {
            p.weights = None;
        }
        for g in &glb_paths {
            plan.character(g, &out, &Default::default())?;
        }
    }
    for p in skeleton_paths.iter().chain(&glb_paths) {
        ctx.info(&format!("wrote {}", p.display()));
    }
    let counts = Counts::of(&r.checks);
    if a.json {
        let v = serde_json::json!({
            "template": template,
            "plan": planned.plan,
            "plan_why": planned.why,
            "bones": r.skeleton.bones.iter().map(|b| &b.name).collect::<Vec<_>>(),
            "model": report,
            "fixed": fixed,
            "landmarks": r.landmarks,
            "checks": r.checks,
            "failed": counts,
            "humanoid": r.humanoid,
        });
        println!(
            "{}",
            serde_json::to_string_pretty(&v).context("serializing the result")?
        );
    } else if !ctx.quiet {
        print_fit(&planned, template, &report, &counts);
    }
    let blocker = r
        .checks
        .iter()
        .any(|k| !k.passed && k.severity == Severity::Blocker);
    Ok(if blocker {
        Outcome::CheckFailed
    } else {
        Outcome::Ok
    })
}
