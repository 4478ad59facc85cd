//! `rigsmith check`: check a rig the way a lead rigger would (the rubric).
//!
//! Reads any skinned glTF/GLB/VRM, runs [`rigsmith::review::check`] and prints a
//! summary (or, with `--json`, the report as one JSON object). `--html FILE` writes a
//! self-contained HTML report with the sheets embedded; `--sheets DIR` writes the
//! placement, pose and joint sheets as PNG. Exit code 1 when any blocker fails, 2 on
//! bad input.

use std::path::PathBuf;

use rigsmith::review::{check, html_report, posed_character, CheckOptions, Skinning};

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
        for (name, img) in sheets(&c, &r, o.skinning) {
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

/// Renders the three review sheets: placement, poses (a row per pose) and joint
/// close-ups of every flagged joint (or of the band poses when none is flagged).
fn sheets(
    c: &rigsmith::Character,
    r: &rigsmith::review::CheckReport,
    skinning: Skinning,
) -> Vec<(String, rigsmith_render::Image)> {
    let Some(s) = c.skeleton.as_ref() else {
        return Vec::new();
    };
    let mut out = vec![(
        "placement".to_string(),
        rigsmith_render::placement_sheet(c, s, 1024),
    )];
    let rows: Vec<(String, Vec<Vec<glam::Vec3>>, Vec<(glam::Vec3, glam::Vec3)>)> = r
        .poses
        .iter()
        .map(|p| {
            let (parts, bones) = posed_character(c, p, skinning);
            (p.name.clone(), parts, bones)
        })
        .collect();
    out.push((
        "poses".to_string(),
        rigsmith_render::pose_sheet(&rows, c, 512),
    ));
    let items: Vec<(String, Vec<Vec<glam::Vec3>>, glam::Vec3, f32)> = r
        .flagged_joints
        .iter()
        .filter_map(|f| {
            let p = r.poses.iter().find(|p| p.name == f.pose)?;
            let (parts, _) = posed_character(c, p, skinning);
            Some((
                format!("{} {}", f.pose, f.joint),
                parts,
                f.centre,
                3.0 * f.radius,
            ))
        })
        .collect();
    out.push((
        "joints".to_string(),
        rigsmith_render::joint_sheet(&items, c, 512),
    ));
    out
}
