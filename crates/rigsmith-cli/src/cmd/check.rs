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
    /// Measure plain skinning (with the twist rules): ignore the preserve-volume mask
    /// and the corrective shapes the sidecar beside the input names.
    #[arg(long)]
    pub no_fixes: bool,
    /// Influence limit per vertex.
    #[arg(long, default_value_t = 4)]
    pub max_influences: usize,
    /// The part roles told (`--body`, `--garment`, `--rigid`) where geometry judges a
    /// part wrongly; the checks then take each part as told.
    #[command(flatten)]
    pub parts: crate::util::PartsArgs,
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
    let (mut c, notes) = crate::util::read_in(&a.input, &a.space)?;
    for n in &notes {
        ctx.info(n);
    }
    a.parts.tell(&mut c, &a.input)?;
    // A helper shape the exporter wrote out unskinned (Blender's bone-display ball) is no
    // piece of the figure: judged as it comes it moved the floor and the body's bounds.
    let helpers = crate::util::leave_out_helpers(
        &mut c,
        rigsmith::fit::quadruped::Plan::Auto,
        rigsmith::pipeline::UNSKINNED_LEFT_OUT,
        ctx,
    );
    let other = match &a.compare {
        Some(b) => {
            let (mut o, notes) = crate::util::read_in(b, &a.space)?;
            a.parts.tell(&mut o, b)?;
            for n in &notes {
                ctx.info(n);
            }
            Some(o)
        }
        None => None,
    };
    let o = options(&a, &c, ctx)?;
    let mech = mech_spec(&a.input)?;
    let pb = ctx.stage("checking");
    let r = match &mech {
        // A mechanical character (its sidecar's `mech`): its own review.
        Some(spec) => rigsmith::review::mech::check_report(&c, spec, &o),
        None => check(&c, &o),
    }
    .map_err(|e| BadInput(format!("{}: {e}", a.input.display())));
    pb.finish_and_clear();
    let mut r = r?;
    for p in r.parts.iter_mut().filter(|p| helpers.contains(&p.part)) {
        p.reason = rigsmith::pipeline::UNSKINNED_LEFT_OUT.to_string();
    }
    let control = control_checks(&a.input, &mut r)?;
    add_face_checks(&mut r, &c, &a.input)?;
    let out = Written {
        a: &a,
        c: &c,
        r: &r,
        skinning: o.skinning,
        plan: &plan,
        ctx,
        control: control.as_ref(),
        mech: mech.as_ref(),
        hidden: &helpers,
    };
    let mut html_path = match &a.report {
        Some(dir) => Some(out.report_dir(dir, other.as_ref())?),
        None => None,
    };
    if a.sheets.is_some() || a.html.is_some() {
        if let Some(h) = out.sheets_and_html()? {
            html_path.get_or_insert(h);
        }
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&r)?);
    } else if !ctx.quiet {
        print_summary(&r, html_path.as_deref(), ctx);
    }
    Ok(if r.has_blocker() {
        Outcome::CheckFailed
    } else {
        Outcome::Ok
    })
}

/// The check's options: the runtime model the sidecar beside the input names (its
/// preserve-volume mask and correctives, unless `--no-fixes`), the clips' keyed bones.
fn options(a: &Args, c: &rigsmith::Character, ctx: &Ctx) -> anyhow::Result<CheckOptions> {
    let mut o = CheckOptions {
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
    let sp = rigsmith::parts::sidecar_path(&a.input);
    if a.no_fixes || !sp.exists() {
        return Ok(o);
    }
    let side = rigsmith::parts::Sidecar::read(&sp).map_err(|e| BadInput(e.to_string()))?;
    o.dqs_blend = !side.dqs_blend.is_empty() && !a.dqs;
    o.dqs_masks = side.dqs_blend;
    o.correctives = side.correctives;
    if o.dqs_blend || !o.correctives.is_empty() {
        ctx.info(&format!(
            "measured with the fixes {} names (the preserve-volume mask, {} correctives); --no-fixes for plain skinning",
            sp.display(),
            o.correctives.len()
        ));
    }
    Ok(o)
}

/// The mechanical spec the sidecar beside `input` carries (`mech`), if any.
fn mech_spec(input: &std::path::Path) -> anyhow::Result<Option<rigsmith::mech::MechSpec>> {
    let sp = rigsmith::parts::sidecar_path(input);
    if !sp.exists() {
        return Ok(None);
    }
    let side = rigsmith::parts::Sidecar::read(&sp).map_err(|e| BadInput(e.to_string()))?;
    Ok(side.mech)
}

/// What the report and the sheets are written from.
struct Written<'a> {
    a: &'a Args,
    c: &'a rigsmith::Character,
    r: &'a rigsmith::review::CheckReport,
    skinning: Skinning,
    plan: &'a Outputs,
    ctx: &'a Ctx,
    control: Option<&'a rigsmith::control::ControlRig>,
    mech: Option<&'a rigsmith::mech::MechSpec>,
    /// Parts the sheets do not draw (helper shapes left out of the figure).
    hidden: &'a [String],
}

impl Written<'_> {
    /// The weight heat maps when asked for, and a mechanical character's own sheet.
    fn heatmaps(&self) -> Vec<(String, rigsmith_render::Image)> {
        let mut out = crate::sheets::mech_sheet(self.c, self.mech);
        if self.a.heatmaps {
            out.extend(crate::sheets::render_heatmaps(self.c));
        }
        out
    }

    /// Writes the report folder (`--report`); returns the HTML page's path.
    fn report_dir(
        &self,
        dir: &std::path::Path,
        other: Option<&rigsmith::Character>,
    ) -> anyhow::Result<PathBuf> {
        let (a, ctx) = (self.a, self.ctx);
        let pb = ctx.stage("writing the report");
        let name = |p: &PathBuf| {
            p.file_name()
                .unwrap_or(p.as_os_str())
                .to_string_lossy()
                .to_string()
        };
        let b_name = a.compare.as_ref().map(name);
        let viewer = crate::sheets::viewer_html(
            self.c,
            self.r,
            self.skinning,
            &name(&a.input),
            b_name.as_deref().zip(other),
            &crate::sheets::control_sweeps(self.c, self.control),
        );
        let page = Page {
            title: format!("rigsmith check: {}", name(&a.input)),
            changes: Vec::new(),
            viewer,
        };
        let files = crate::sheets::write_review_dir(
            self.plan,
            dir,
            self.c,
            self.r,
            crate::sheets::ReviewExtras {
                extra: None,
                page: &page,
                skinning: self.skinning,
                extra_sheets: self.heatmaps(),
                control: self.control,
                hidden: self.hidden,
            },
        );
        pb.finish_and_clear();
        let files = files?;
        ctx.info(&format!(
            "wrote {} files into {}",
            files.len(),
            dir.display()
        ));
        Ok(dir.join("report.html"))
    }

    /// Writes the older `--sheets DIR` and `--html FILE`; returns the HTML's path.
    fn sheets_and_html(&self) -> anyhow::Result<Option<PathBuf>> {
        let (a, ctx) = (self.a, self.ctx);
        let pb = ctx.stage("drawing sheets");
        let mut imgs = crate::sheets::render_sheets(self.c, self.r, self.skinning, self.control);
        imgs.extend(self.heatmaps());
        let mut pngs: Vec<(String, Vec<u8>)> = Vec::new();
        for (name, img) in imgs {
            let png = img.to_png_bytes();
            if let Some(dir) = &a.sheets {
                self.plan.write(&dir.join(format!("{name}.png")), &png)?;
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
        let Some(h) = &a.html else {
            return Ok(None);
        };
        self.plan.write(h, html_report(self.r, &pngs).as_bytes())?;
        ctx.info(&format!("wrote {}", h.display()));
        Ok(Some(h.clone()))
    }
}

/// The summary lines on stdout.
fn print_summary(r: &rigsmith::review::CheckReport, html: Option<&std::path::Path>, ctx: &Ctx) {
    for l in crate::summary::review_lines(r, html, ctx.verbose > 0, "") {
        println!("{l}");
    }
    // How each part was judged: the skin pieces in one line, every other part with why
    // (a part judged wrongly is told with --body, --garment or --rigid).
    let skin: Vec<&str> = r
        .parts
        .iter()
        .filter(|p| p.class == "skin")
        .map(|p| p.part.as_str())
        .collect();
    if !r.parts.is_empty() {
        println!("parts: skin {}", skin.join(", "));
    }
    for p in r.parts.iter().filter(|p| p.class != "skin") {
        println!("  {}: {}, {}", p.part, p.class, p.reason);
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

/// The control rig in `input`'s sidecar, if any, with its rubric-B checks added to `r`.
fn control_checks(
    input: &std::path::Path,
    r: &mut rigsmith::review::CheckReport,
) -> anyhow::Result<Option<rigsmith::control::ControlRig>> {
    let control = crate::cmd::bake::control_rig(input)?;
    if let Some(rig) = &control {
        rigsmith::control::checks::add_to(&mut r.checks, &mut r.not_verified, rig);
        r.counts = rigsmith::Counts::of(&r.checks);
    }
    Ok(control)
}

/// The face's checks (placement from the face bones, the keys, the sidecar's face
/// controls) into the review `r`, when `c` carries a face rigsmith built.
fn add_face_checks(
    r: &mut rigsmith::review::CheckReport,
    c: &rigsmith::Character,
    input: &std::path::Path,
) -> anyhow::Result<()> {
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
