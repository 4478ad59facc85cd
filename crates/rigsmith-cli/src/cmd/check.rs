//! `rigsmith check`: check a rig the way a lead rigger would (the rubric).
//!
//! Reads any skinned glTF/GLB/VRM, runs [`rigsmith::review::check`] and prints a
//! summary (or, with `--json`, the report as one JSON object). `--html FILE` writes a
//! self-contained HTML report with the sheets embedded; `--sheets DIR` writes the
//! placement, pose and joint sheets as PNG. Exit code 1 when any blocker fails, 2 on
//! bad input.

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
    /// Write the review sheets (placement.png, poses.png, joints.png) into this folder.
    #[arg(long, value_name = "DIR")]
    pub sheets: Option<PathBuf>,
    /// Also draw a weight heat map per deform bone (`weights_<bone>.png`, front and back).
    #[arg(long)]
    pub heatmaps: bool,
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
    let mut pngs: Vec<(String, Vec<u8>)> = Vec::new();
    if a.sheets.is_some() || a.html.is_some() {
        let pb = ctx.stage("drawing sheets");
        let mut imgs = crate::sheets::render_sheets(&c, &r, o.skinning);
        if a.heatmaps {
            imgs.extend(crate::sheets::render_heatmaps(&c));
        }
        for (name, img) in imgs {
            if let Some(dir) = &a.sheets {
                std::fs::create_dir_all(dir)
                    .map_err(|e| anyhow::anyhow!("{}: {e}", dir.display()))?;
                let path = dir.join(format!("{name}.png"));
                img.save_png(&path).map_err(|e| anyhow::anyhow!("{e}"))?;
            }
            pngs.push((name, img.to_png_bytes()));
        }
        pb.finish_and_clear();
        if let Some(dir) = &a.sheets {
            ctx.info(&format!(
                "wrote {} sheets into {}",
                pngs.len(),
                dir.display()
            ));
        }
    }
    if let Some(h) = &a.html {
        let page = html_report(&r, &pngs);
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
