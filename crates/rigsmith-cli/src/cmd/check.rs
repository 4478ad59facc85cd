//! `rigsmith check`: check a rig the way a lead rigger would (the rubric).
//!
//! Reads any skinned glTF/GLB/VRM, runs [`rigsmith::review::check`] and prints a
//! summary (or, with `--json`, the report as one JSON object). `--html FILE` writes a
//! self-contained HTML report. Exit code 1 when any blocker fails, 2 on bad input.

use std::path::PathBuf;

use rigsmith::review::{check, html_report, CheckOptions, Skinning};

use crate::util::{BadInput, Ctx, Outcome};

/// Arguments of `rigsmith check`.
#[derive(clap::Args)]
pub struct Args {
    /// The skinned character (.glb, .gltf, .vrm).
    pub input: PathBuf,
    /// Print the report as one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
    /// Write a self-contained HTML report to this file.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Write review sheets (PNG) into this folder.
    #[arg(long, value_name = "DIR")]
    pub sheets: Option<PathBuf>,
    /// Measure poses with dual-quaternion skinning instead of linear blend.
    #[arg(long)]
    pub dqs: bool,
    /// Influence limit per vertex.
    #[arg(long, default_value_t = 4)]
    pub max_influences: usize,
}

/// Runs the command.
pub fn run(a: Args, ctx: &Ctx) -> anyhow::Result<Outcome> {
    let c = rigsmith::io::read_character(&a.input).map_err(|e| BadInput(e.to_string()))?;
    let o = CheckOptions {
        skinning: if a.dqs { Skinning::Dqs } else { Skinning::Lbs },
        max_influences: a.max_influences,
        ..CheckOptions::default()
    };
    let pb = ctx.stage("checking");
    let r = check(&c, &o).map_err(|e| BadInput(format!("{}: {e}", a.input.display())))?;
    pb.finish_and_clear();
    if a.sheets.is_some() {
        return Err(BadInput(
            "--sheets needs the renderer (rigsmith-render), which this build does not provide yet"
                .into(),
        )
        .into());
    }
    if let Some(h) = &a.html {
        let page = html_report(&r, &[]);
        rigsmith::io::atomic::write_atomic(h, page.as_bytes())
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        ctx.info(&format!("wrote {}", h.display()));
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&r)?);
    } else if !ctx.quiet {
        for k in r.checks.iter().filter(|k| !k.passed) {
            println!(
                "FAIL {:<7} {:<40} {:.4} (limit {:.4}) {}",
                format!("{:?}", k.severity).to_lowercase(),
                k.id,
                k.value,
                k.threshold,
                k.detail
            );
        }
        println!(
            "{} checks: {} blocker, {} major, {} minor failed",
            r.checks.len(),
            r.counts.blocker,
            r.counts.major,
            r.counts.minor
        );
        println!("route: {}", r.route);
        for n in &r.not_verified {
            println!("not verified: {n}");
        }
    }
    Ok(if r.has_blocker() {
        Outcome::CheckFailed
    } else {
        Outcome::Ok
    })
}
