//! `rigsmith check`: check a rig the way a lead rigger would (the rubric).
//!
//! Reads any skinned glTF/GLB/VRM, runs [`rigsmith::review::check`] and prints a
//! summary: counts per severity and section, the worst failures of each section with
//! what to do (or, with `--json`, the report as one JSON object). `--report DIR` writes
//! `report.html` (self-contained, sheets embedded), `report.json` and the placement,
//! pose and joint sheets into DIR. Exit code 1 when any blocker fails, 2 on bad input.
//!
//! The older `--html FILE` and `--sheets DIR` still work (hidden from the help).

use std::path::PathBuf;

use rigsmith::review::{check, html_report, CheckOptions, Page, Skinning};

use crate::util::{BadInput, Ctx, Outcome, Outputs, REPORT_FILES};

/// Arguments of `rigsmith check`.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  rigsmith check rigged.glb
  rigsmith check rigged.glb --report review/     # then open review/report.html
  rigsmith check rigged.vrm --dqs --json > check.json
  rigsmith check artist.glb --compare rigged.glb --report review/   # side by side in the viewer")]
pub struct Args {
    /// The skinned character (.glb, .gltf, .vrm, .fbx).
    pub input: PathBuf,
    /// Print the report as one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
    /// Write report.html, report.json and the sheets (PNG) into this folder.
    #[arg(long, value_name = "DIR")]
    pub report: Option<PathBuf>,
    /// Write only the HTML report, to this file (older form of --report).
    #[arg(long, value_name = "FILE", hide = true)]
    pub html: Option<PathBuf>,
    /// Write only the sheets, into this folder (older form of --report).
    #[arg(long, value_name = "DIR", hide = true)]
    pub sheets: Option<PathBuf>,
    /// Show this second rig (the same character, vertex for vertex) beside the input
    /// in the report's viewer: both in the same pose and camera, the per-vertex
    /// distance as colour. Needs --report.
    #[arg(long, value_name = "B.glb", requires = "report")]
    pub compare: Option<PathBuf>,
    /// Also draw a weight heat map per deform bone (`weights_<bone>.png`, front and back).
    #[arg(long)]
    pub heatmaps: bool,
    /// Measure poses with dual-quaternion skinning instead of linear blend.
    #[arg(long)]
    pub dqs: bool,
    /// Influence limit per vertex.
    #[arg(long, default_value_t = 4)]
    pub max_influences: usize,
    /// How to read the input's axes and units.
    #[command(flatten)]
    pub space: crate::util::SpaceArgs,
}

/// Runs the command.
pub fn run(a: Args, ctx: &Ctx) -> anyhow::Result<Outcome> {
    let mut inputs = vec![a.input.as_path()];
    if let Some(b) = &a.compare {
        inputs.push(b.as_path());
    }
    let mut plan = Outputs::new(&inputs);
    if let Some(d) = &a.report {
        plan.dir(d, &REPORT_FILES);
    }
    if let Some(h) = &a.html {
        plan.file(h);
    }
    if let Some(d) = &a.sheets {
        plan.dir(d, &["placement.png", "poses.png", "joints.png"]);
    }
    plan.verify()?;
    let (c, notes) = crate::util::read_in(&a.input, &a.space)?;
    for n in &notes {
        ctx.info(n);
    }
    let other = match &a.compare {
        Some(b) => {
            let (o, notes) = crate::util::read_in(b, &a.space)?;
            for n in &notes {
                ctx.info(n);
            }
            Some(o)
        }
        None => None,
    };
    let o = CheckOptions {
        skinning: if a.dqs { Skinning::Dqs } else { Skinning::Lbs },
        max_influences: a.max_influences,
        animated_bones: match &c.skeleton {
            Some(s) => Some(
                rigsmith::io::gltf::animation::keyed_bone_names(&a.input, s)
                    .map_err(|e| BadInput(e.to_string()))?,
            ),
            None => None,
        },
        ..CheckOptions::default()
    };
    let pb = ctx.stage("checking");
    let r = check(&c, &o).map_err(|e| BadInput(format!("{}: {e}", a.input.display())));
    pb.finish_and_clear();
    let mut r = r?;
    add_sidecar_checks(&mut r, &c, &a.input)?;
    let heatmaps = || {
        if a.heatmaps {
            crate::sheets::render_heatmaps(&c)
        } else {
            Vec::new()
        }
    };
    let mut html_path = None;
    if let Some(dir) = &a.report {
        let pb = ctx.stage("writing the report");
        let name = |p: &PathBuf| {
            p.file_name()
                .unwrap_or(p.as_os_str())
                .to_string_lossy()
                .to_string()
        };
        let viewer = match (&a.compare, &other) {
            (Some(b), Some(bc)) => crate::sheets::viewer_html(
                &c,
                &r,
                o.skinning,
                &name(&a.input),
                Some((&name(b), bc)),
            ),
            _ => String::new(),
        };
        let page = Page {
            title: format!("rigsmith check: {}", name(&a.input)),
            changes: Vec::new(),
            viewer,
        };
        let files = crate::sheets::write_review_dir(
            &plan,
            dir,
            &c,
            &r,
            crate::sheets::ReviewExtras {
                extra: None,
                page: &page,
                skinning: o.skinning,
                extra_sheets: heatmaps(),
            },
        );
        pb.finish_and_clear();
        let files = files?;
        ctx.info(&format!(
            "wrote {} files into {}",
            files.len(),
            dir.display()
        ));
        html_path = Some(dir.join("report.html"));
    }
    if a.sheets.is_some() || a.html.is_some() {
        let pb = ctx.stage("drawing sheets");
        let mut imgs = crate::sheets::render_sheets(&c, &r, o.skinning);
        imgs.extend(heatmaps());
        let mut pngs: Vec<(String, Vec<u8>)> = Vec::new();
        for (name, img) in imgs {
            let png = img.to_png_bytes();
            if let Some(dir) = &a.sheets {
                plan.write(&dir.join(format!("{name}.png")), &png)?;
            }
            pngs.push((name, png));
        }
        pb.finish_and_clear();
        if let Some(dir) = &a.sheets {
            ctx.info(&format!(
                "wrote {} sheets into {}",
                pngs.len(),
                dir.display()
            ));
        }
        if let Some(h) = &a.html {
            plan.write(h, html_report(&r, &pngs).as_bytes())?;
            ctx.info(&format!("wrote {}", h.display()));
            html_path.get_or_insert(h.clone());
        }
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&r)?);
    } else if !ctx.quiet {
        for l in crate::summary::review_lines(&r, html_path.as_deref(), ctx.verbose > 0, "") {
            println!("{l}");
        }
        println!("route: {}", r.route);
        if ctx.verbose > 0 {
            for n in &r.not_verified {
                println!("not verified: {n}");
            }
        } else if !r.not_verified.is_empty() {
            println!(
                "not verified: {} items (listed with -v and in the report)",
                r.not_verified.len()
            );
        }
    }
    Ok(if r.has_blocker() {
        Outcome::CheckFailed
    } else {
        Outcome::Ok
    })
}

/// The checks of what the sidecar beside `input` adds: the control rig's (rubric B),
/// and the face's (placement from the face bones, the keys, the sidecar's face
/// controls) when `c` carries a face rigsmith built; into the review `r`.
fn add_sidecar_checks(
    r: &mut rigsmith::review::CheckReport,
    c: &rigsmith::Character,
    input: &std::path::Path,
) -> anyhow::Result<()> {
    if let Some(rig) = crate::cmd::bake::control_rig(input)? {
        rigsmith::control::checks::add_to(&mut r.checks, &mut r.not_verified, &rig);
        r.counts = rigsmith::Counts::of(&r.checks);
    }
    if !rigsmith::face::review::has_face(c) {
        return Ok(());
    }
    let sc = rigsmith::parts::sidecar_path(input);
    let controls = if sc.is_file() {
        rigsmith::parts::Sidecar::read(&sc)
            .map_err(|e| BadInput(format!("{}: {e}", sc.display())))?
            .face_controls
    } else {
        Vec::new()
    };
    match rigsmith::face::review::file_checks(c, &controls) {
        Ok(k) => rigsmith::face::review::add_to(r, &k),
        Err(e) => r.not_verified.push(format!(
            "E face: the face could not be measured again ({e})"
        )),
    }
    Ok(())
}
