//! `rigsmith simulate FILE --motion walk|run|jump|spin [--seconds S] [--json]`: drives
//! the body procedurally, runs the spring bones (VRM 1.0 model plus skirt links) and
//! reports the worst collider penetration, skirt joints between the legs, hair in the
//! head and stability. Exit 0 when it passes (penetration under 5 mm at 1.7 m, no
//! joint between the legs, no hair in the head, stable), 1 when not, 2 on bad input.
//! The character is prepared as `rigsmith vrm` does (an unrigged one is rigged first;
//! a `FILE.rig.json` beside it is used).

use std::path::PathBuf;

use rigsmith::parts::{simulate, Motion};

use crate::util::{BadInput, Ctx, Outcome};

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
}

/// Arguments of `rigsmith simulate`.
#[derive(clap::Args)]
pub struct Args {
    /// The character: .glb, .gltf, .vrm or .obj.
    pub input: PathBuf,
    /// The motion.
    #[arg(long, value_enum, default_value = "walk")]
    pub motion: MotionArg,
    /// Seconds to simulate (0 < S <= 600).
    #[arg(long, default_value_t = 3.0)]
    pub seconds: f32,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs the command.
pub fn run(a: Args, ctx: &Ctx) -> anyhow::Result<Outcome> {
    let motion = match a.motion {
        MotionArg::Rest => Motion::Rest,
        MotionArg::Walk => Motion::Walk,
        MotionArg::Run => Motion::Run,
        MotionArg::Jump => Motion::Jump,
        MotionArg::Spin => Motion::Spin,
    };
    let (c, p) = super::vrm::load(&a.input, ctx)?;
    let pb = ctx.stage(&format!("simulating {}", motion.name()));
    let rep = simulate(&c, &p.sidecar, motion, a.seconds).map_err(|e| BadInput(e.to_string()));
    pb.finish_and_clear();
    let rep = rep?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&rep)?);
    } else {
        println!(
            "motion            {} ({} s, {} steps)",
            motion.name(),
            rep.seconds,
            rep.steps
        );
        println!(
            "springs           {} chains, {} joints",
            rep.chains, rep.joints
        );
        println!(
            "penetration       {:.2} mm at 1.7 m (worst {:.4} m{})",
            rep.worst_penetration_mm_at_1_7m,
            rep.worst_penetration_m,
            if rep.worst_at.is_empty() {
                String::new()
            } else {
                format!(": {}", rep.worst_at)
            }
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
        println!(
            "verdict           {}",
            if rep.passed { "pass" } else { "FAIL" }
        );
    }
    Ok(if rep.passed {
        Outcome::Ok
    } else {
        Outcome::CheckFailed
    })
}
