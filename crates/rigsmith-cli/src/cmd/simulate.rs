//! `rigsmith simulate FILE --motion walk|run|jump|spin [--animation NAME|INDEX]
//! [--seconds S] [--json] [--report DIR]`: drives the body procedurally (or with one
//! of the file's glTF animations, looped), runs the spring bones (VRM 1.0 model plus skirt links) and
//! reports the skirt's worst entry into the body (beyond its rest depth, against the
//! colliders at their measured size) and its worst depth in the solver's colliders,
//! skirt joints between the legs, hair in the head and stability. Exit 0 when it passes
//! (body entry under 5 mm at 1.7 m, no
//! joint between the legs, no hair in the head, stable), 1 when not, 2 on bad input.
//! The character is prepared as `rigsmith vrm` does (an unrigged one is rigged first;
//! a `FILE.rig.json` beside it is used). `--report DIR` writes `motion.png` (the
//! picture of the motion) and `simulate.json` into DIR (the older `--sheet PNG` still
//! writes the picture alone).

use std::path::PathBuf;

use anyhow::Context;
use rigsmith::parts::{
    simulate_driven, simulate_frames, simulate_model, Motion, SpringModel, STEPS_PER_SECOND,
};
use rigsmith_render::motion::{motion_sheet, SHEET_FRAMES};

use crate::util::{Ctx, Outcome, Outputs};

/// A motion to drive the body with.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum MotionArg {
    /// Standing still.
    Rest,
    /// A walk.
    Walk,
    /// A run.
    Run,
    /// Repeated jumps.
    Jump,
    /// A spin about the vertical.
    Spin,
    /// The hips sway (yaw and slide) as `scripts/three-vrm-load.mjs` plays them in
    /// three-vrm.
    Sway,
}

/// The spring model to run.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum ModelArg {
    /// rigsmith's solver: colliders at their measured size, each skirt bone kept at
    /// its rest distance from them along its whole length, links between panels.
    Fitted,
    /// What a VRM 1.0 runtime runs on the exported file: its colliders and hit radii,
    /// tails only, one collision pass, no links.
    Vrm,
}

/// Arguments of `rigsmith simulate`.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  rigsmith simulate rigged.glb --motion walk
  rigsmith simulate avatar.vrm --model vrm --motion jump --report sim/   # sim/motion.png
  rigsmith simulate rigged.glb --animation Run --seconds 5 --json")]
pub struct Args {
    /// The character: .glb, .gltf, .vrm, .obj or .fbx.
    pub input: PathBuf,
    /// The motion.
    #[arg(long, value_enum, default_value = "walk")]
    pub motion: MotionArg,
    /// Seconds to simulate (0 < S <= 600).
    #[arg(long, default_value_t = 3.0)]
    pub seconds: f32,
    /// The spring model: rigsmith's solver, or the one a VRM runtime runs on the file
    /// `rigsmith vrm` writes (measured the same way).
    #[arg(long, value_enum, default_value = "fitted")]
    pub model: ModelArg,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Drive the body with the file's glTF animation NAME (or INDEX) instead of the
    /// procedural motion; the clip loops for `--seconds`.
    #[arg(long, value_name = "NAME|INDEX")]
    pub animation: Option<String>,
    /// Write the review into this folder: `motion.png` (six frames from the front and
    /// the right: body, spring chains, colliders, the deepest joint marked) and
    /// `simulate.json`.
    #[arg(long, value_name = "DIR")]
    pub report: Option<PathBuf>,
    /// Write the picture of the motion alone to this PNG (older form of --report).
    #[arg(long, value_name = "PNG", hide = true)]
    pub sheet: Option<PathBuf>,
    /// How to read the input's axes and units.
    #[command(flatten)]
    pub space: crate::util::SpaceArgs,
    /// The part roles of an unrigged input (`--body`, `--garment`, `--rigid`), as `rig`
    /// takes them.
    #[command(flatten)]
    pub parts: crate::util::PartsArgs,
}

/// Runs the command.
pub fn run(a: Args, ctx: &Ctx) -> anyhow::Result<Outcome> {
    let motion = match a.motion {
        MotionArg::Rest => Motion::Rest,
        MotionArg::Walk => Motion::Walk,
        MotionArg::Run => Motion::Run,
        MotionArg::Jump => Motion::Jump,
        MotionArg::Spin => Motion::Spin,
        MotionArg::Sway => Motion::Sway,
    };
    let model = match a.model {
        ModelArg::Fitted => SpringModel::Fitted,
        ModelArg::Vrm => SpringModel::Vrm,
    };
    let mut plan = Outputs::new(&[&a.input]);
    if let Some(d) = &a.report {
        plan.dir(d, &["motion.png", "simulate.json", "motion.html"]);
    }
    if let Some(p) = &a.sheet {
        plan.file(p);
    }
    plan.verify()?;
    let picture = a.report.is_some() || a.sheet.is_some();
    let clip = match &a.animation {
        None => None,
        Some(sel) => {
            let anims = rigsmith::io::gltf::animation::read_animations(&a.input)?;
            let i = anims
                .find(sel)
                .with_context(|| a.input.display().to_string())?;
            Some((anims, i))
        }
    };
    let p = super::vrm::load(&a.input, &a.space, &a.parts, ctx)?;
    let c = &p.character;
    let label = match &clip {
        Some((an, i)) => format!("animation {:?}", an.clips[*i].name),
        None => motion.name().to_string(),
    };
    let pb = ctx.stage(&format!("simulating {label}"));
    let steps = (a.seconds * STEPS_PER_SECOND).round().max(1.0) as usize;
    // The report's viewer plays the motion at 30 frames a second; the picture picks
    // its frames among them.
    let every = if a.report.is_some() {
        ((STEPS_PER_SECOND / 30.0).round() as usize).max(1)
    } else if picture {
        steps.div_ceil(SHEET_FRAMES).max(1)
    } else {
        usize::MAX
    };
    let rep = if let Some((anims, i)) = &clip {
        let parents: Vec<Option<usize>> = c
            .skeleton
            .as_ref()
            .map(|s| s.bones.iter().map(|b| b.parent).collect())
            .unwrap_or_default();
        let drive = |t: f32| anims.skinning(*i, t, &parents);
        simulate_driven(c, &p.sidecar, model, a.seconds, every, &drive)
    } else if picture {
        simulate_frames(c, &p.sidecar, motion, model, a.seconds, every)
    } else {
        simulate_model(c, &p.sidecar, motion, a.seconds, model).map(|r| (r, Vec::new()))
    };
    pb.finish_and_clear();
    let (rep, frames) = rep?;
    if picture {
        let png = motion_sheet(c, &p.sidecar, &rep, &label, &frames).to_png_bytes();
        if let Some(path) = &a.sheet {
            plan.write(path, &png)
                .with_context(|| format!("writing {}", path.display()))?;
        }
        if let Some(dir) = &a.report {
            plan.write(&dir.join("motion.png"), &png)?;
            plan.write(
                &dir.join("simulate.json"),
                (serde_json::to_string_pretty(&rep)? + "\n").as_bytes(),
            )?;
            let title = format!(
                "rigsmith simulate: {} ({label})",
                a.input
                    .file_name()
                    .unwrap_or(a.input.as_os_str())
                    .to_string_lossy()
            );
            let page = crate::sheets::motion_page(c, &title, &label, &frames);
            plan.write(&dir.join("motion.html"), page.as_bytes())?;
            ctx.info(&format!(
                "wrote {}, {} and {}",
                dir.join("motion.png").display(),
                dir.join("simulate.json").display(),
                dir.join("motion.html").display()
            ));
        }
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&rep)?);
    } else if !ctx.quiet {
        println!(
            "motion            {} ({} s, {} steps, {} model)",
            label,
            rep.seconds,
            rep.steps,
            match rep.model {
                SpringModel::Fitted => "fitted",
                SpringModel::Vrm => "VRM runtime",
            }
        );
        println!(
            "springs           {} chains, {} joints",
            rep.chains, rep.joints
        );
        println!(
            "body entry        {:.2} mm at 1.7 m beyond rest depth (worst {:.4} m{})",
            rep.worst_penetration_mm_at_1_7m,
            rep.worst_penetration_m,
            if rep.worst_at.is_empty() {
                String::new()
            } else {
                format!(": {}", rep.worst_at)
            }
        );
        println!(
            "sidecar colliders {:.2} mm at 1.7 m {}",
            rep.worst_collider_mm_at_1_7m, rep.worst_collider_at
        );
        println!(
            "between the legs  {} skirt joints {}",
            rep.skirt_joints_between_legs, rep.between_at
        );
        println!(
            "other springs     {:.2} mm at 1.7 m {}",
            rep.worst_other_mm_at_1_7m, rep.worst_other_at
        );
        println!("hair in head      {} joints", rep.hair_in_head);
        println!("swing             {:.1} deg max", rep.max_swing_deg);
        println!(
            "stable            {} (max speed {:.2} H/s)",
            rep.stable, rep.max_speed_h
        );
        if rep.passed {
            println!("verdict           pass");
        } else {
            println!("verdict           FAIL: {}", super::vrm::why(&rep));
        }
    }
    Ok(if rep.passed {
        Outcome::Ok
    } else {
        Outcome::CheckFailed
    })
}
