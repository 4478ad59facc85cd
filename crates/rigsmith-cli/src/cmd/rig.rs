//! `rigsmith rig`: from an unrigged character to a verified, game-ready rig in one
//! command (model check and fix, fit, weights with verification and fallback, chains
//! for skirts and hair, review, export).
//!
//! `rigsmith rig INPUT -o OUT.glb`, `rigsmith rig --demo -o OUT.glb` (the built-in
//! mannequin), or `rigsmith rig DIR -o OUTDIR [--jobs N]` for every model in a folder.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{bail, Context};
use indicatif::{ProgressBar, ProgressStyle};
use rigsmith::fit::Template;
use rigsmith::io::gltf::WriteOptions;
use rigsmith::mannequin::{self, MannequinOptions};
use rigsmith::model::Character;
use rigsmith::parts;
use rigsmith::pipeline::{self, RigOptions, RigOutput, Rigged};
use serde::Serialize;

use crate::util::{Ctx, Outcome, Outputs, REPORT_FILES};

/// Arguments of `rigsmith rig`.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  rigsmith rig body.glb -o rigged.glb --report review/   # then open review/report.html
  rigsmith rig --demo -o mannequin.glb
  rigsmith rig scan.obj -o rigged.glb --units cm --up z
  rigsmith rig characters/ -o rigged/ --report reviews/ --jobs 2")]
pub struct Args {
    /// The character (.glb, .gltf, .vrm, .obj, .fbx) or a folder of them.
    pub input: Option<PathBuf>,
    /// Output .glb/.gltf (or, for a folder input, the output folder).
    #[arg(short = 'o', long)]
    pub output: PathBuf,
    /// Skeleton template: game, basic, mixamo or vrm (bipeds); quadruped, horse, wolf,
    /// cat; auto (the default: biped with game names or quadruped, read from the
    /// sections, saying why); chain.
    #[arg(long, value_enum, ignore_case = true, default_value = "auto")]
    pub template: crate::util::TemplateArg,
    /// Twist bones per limb segment (upper arm, forearm, thigh, calf), following the
    /// hand, foot, clavicle or pelvis by rules written to the sidecar [default: 1 for
    /// the game template, 0 for the others].
    #[arg(long)]
    pub twist: Option<usize>,
    /// Influences per vertex (4 for game engines, up to 8).
    #[arg(long, default_value_t = 4)]
    pub max_influences: usize,
    /// Write the JSON report, the HTML report and the sheets into this folder.
    #[arg(long)]
    pub report: Option<PathBuf>,
    /// Print the result as one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
    /// Rig the built-in mannequin (no input needed).
    #[arg(long)]
    pub demo: bool,
    /// Rig the built-in robot (no input needed): every hard-surface island on one bone
    /// of its own skeleton, its visor action in the sidecar, the rigid check in the
    /// review and a sheet of its test poses (`mech.png`).
    #[arg(long, conflicts_with = "demo")]
    pub robot: bool,
    /// Replace the skeleton and weights of an input that is already rigged.
    #[arg(long)]
    pub rerig: bool,
    /// Skip the review (no deformation numbers, no sheets).
    #[arg(long)]
    pub no_review: bool,
    /// The part roles told (`--body`, `--garment`, `--rigid`).
    #[command(flatten)]
    pub parts: crate::util::PartsArgs,
    /// Parallel jobs for a folder input (default: the number of cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Keep the input's origin: do not move the model to the floor and the centre.
    #[arg(long)]
    pub keep_origin: bool,
    /// Scale every part so the body is this tall, in metres, before rigging (the feet
    /// stay on the floor).
    #[arg(long, value_name = "METRES")]
    pub height: Option<f32>,
    /// Force a weight route (bone-heat, volumetric, geodesic) instead of letting the
    /// route decision and the weight report decide.
    #[arg(long, value_enum)]
    pub route: Option<crate::cmd::weights::RouteArg>,
    /// The face (`--face`, `--expressions`).
    #[command(flatten)]
    pub face: crate::util::FaceArgs,
    /// Build the control rig too (FK/IK, foot roll, settings switches): in the sidecar,
    /// checked in the review (rubric B), and as `OUT.control.py` for Blender.
    #[arg(long)]
    pub control: bool,
    /// How to read the input's axes and units.
    #[command(flatten)]
    pub space: crate::util::SpaceArgs,
}

const MODEL_EXTS: [&str; 5] = ["glb", "gltf", "vrm", "obj", "fbx"];

/// Runs the command.
pub fn run(a: Args, ctx: &Ctx) -> anyhow::Result<Outcome> {
    let template = Template::from(a.template);
    let opts = RigOptions {
        template,
        plan: a.template.plan(),
        twist: a.twist.unwrap_or(usize::from(template == Template::Game)),
        max_influences: a.max_influences,
        rigged: if a.rerig {
            Rigged::Replace
        } else {
            Rigged::Refuse
        },
        review: !a.no_review,
        keep_origin: a.keep_origin,
        height: a.height,
        route: a.route.map(crate::cmd::weights::RouteArg::route),
        face: a.face.options()?,
        control: a.control,
        parts: a.parts.options(),
        ..RigOptions::default()
    };
    if a.demo {
        if a.input.is_some() {
            bail!("--demo rigs the built-in mannequin: give no input with it");
        }
        plan(&a.output, a.report.as_deref(), &[])?;
        let c = mannequin::build(&MannequinOptions::default());
        let notes = Vec::new();
        return rig_one_and_report(
            &c,
            &notes,
            Path::new("mannequin (built-in)"),
            &a,
            &opts,
            ctx,
        );
    }
    if a.robot {
        if a.input.is_some() {
            bail!("--robot rigs the built-in robot: give no input with it");
        }
        plan(&a.output, a.report.as_deref(), &[])?;
        let (c, own) = rigsmith::mannequin::robot::build(1.8);
        let mech = rigsmith::mech::MechSpec::of(
            &c,
            &own,
            vec![rigsmith::mannequin::robot::visor_action(1.8)],
        );
        let opts = RigOptions {
            mech: Some(mech),
            ..opts
        };
        return rig_one_and_report(&c, &[], Path::new("robot (built-in)"), &a, &opts, ctx);
    }
    let Some(input) = a.input.clone() else {
        bail!("give a character file or folder, or --demo for the built-in mannequin");
    };
    if input.is_dir() {
        return run_batch(&input, &a, &opts, ctx);
    }
    plan(&a.output, a.report.as_deref(), &[&input])?;
    let (c, notes) = crate::util::read_in(&input, &a.space)?;
    let opts = with_authored(&opts, &input)?;
    rig_one_and_report(&c, &notes, &input, &a, &opts, ctx)
}

/// `opts` with the sidecar beside `input`, when there is one: its hand-authored
/// colliders and spring parameters are kept in the rig's sidecar.
fn with_authored(opts: &RigOptions, input: &Path) -> anyhow::Result<RigOptions> {
    let path = parts::sidecar_path(input);
    let mut o = opts.clone();
    if path.is_file() {
        o.authored = Some(
            rigsmith::parts::Sidecar::read(&path)
                .with_context(|| format!("{}: cannot read the sidecar", path.display()))?,
        );
        // A mechanical character's sidecar: its islands are bound on its own skeleton.
        o.mech = o.authored.as_ref().and_then(|a| a.mech.clone());
    }
    Ok(o)
}

/// Every file one rigged character writes (the rigged file, its sidecar, the review
/// folder), checked against the inputs before anything is read or written.
fn plan(output: &Path, report: Option<&Path>, inputs: &[&Path]) -> anyhow::Result<Outputs> {
    let ext = output
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    if ext != "glb" && ext != "gltf" {
        bail!(crate::util::BadInput(format!(
            "{}: the output must be .glb or .gltf",
            output.display()
        )));
    }
    let mut p = Outputs::new(inputs);
    p.file(output).file(&parts::sidecar_path(output));
    p.file(&crate::cmd::bake::script_path(output));
    if let Some(d) = report {
        p.dir(d, &REPORT_FILES);
    }
    p.verify()?;
    Ok(p)
}

/// Rigs one character with a progress line per stage and writes its outputs.
fn rig_one_and_report(
    c: &Character,
    space_notes: &[String],
    input: &Path,
    a: &Args,
    opts: &RigOptions,
    ctx: &Ctx,
) -> anyhow::Result<Outcome> {
    let t0 = Instant::now();
    let pb = if a.json {
        ProgressBar::hidden()
    } else {
        ctx.stage("rigging")
    };
    let mut progress = |stage: &str, secs: Option<f64>| match secs {
        None => pb.set_message(format!("{stage}...")),
        Some(s) => pb.println(format!("  {stage:<8} {:>7.1} ms", s * 1000.0)),
    };
    let out = pipeline::rig(c, opts, &mut progress)
        .with_context(|| format!("{}: cannot rig", input.display()));
    pb.finish_and_clear();
    let out = out?;
    let inputs: Vec<&Path> = a.input.iter().map(|p| p.as_path()).collect();
    let outputs = plan(&a.output, a.report.as_deref(), &inputs)?;
    let files = write_outputs(&outputs, &out, input, &a.output, a.report.as_deref(), opts)?;
    let total = t0.elapsed().as_secs_f64();
    let counts = out.counts();
    if a.json {
        let v = serde_json::json!({
            "input": input.display().to_string(),
            "output": a.output.display().to_string(),
            "result": &out,
            "counts": counts,
            "space": space_notes,
            "input_warnings": &c.warnings,
            "files": files.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
            "seconds": total,
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else if !ctx.quiet {
        for w in &c.warnings {
            println!("  warning   input: {w}");
        }
        print_summary(
            &out,
            space_notes,
            input,
            &files,
            a.report.as_deref(),
            total,
            ctx,
        );
    }
    Ok(if counts.blocker > 0 {
        Outcome::CheckFailed
    } else {
        Outcome::Ok
    })
}

/// Writes the rigged file, its `.rig.json` sidecar and, when asked, the review folder,
/// each through `outputs` (checked, atomic).
fn write_outputs(
    outputs: &Outputs,
    out: &RigOutput,
    input: &Path,
    output: &Path,
    report: Option<&Path>,
    opts: &RigOptions,
) -> anyhow::Result<Vec<PathBuf>> {
    let wo = WriteOptions {
        max_influences: opts.max_influences,
        vertex_attributes: out.vertex_attributes(),
        ..WriteOptions::default()
    };
    outputs.character(output, &out.character, &wo)?;
    let mut files = vec![output.to_path_buf()];
    let sc_path = parts::sidecar_path(output);
    outputs.write(&sc_path, out.sidecar.to_string().as_bytes())?;
    files.push(sc_path);
    if let Some(rig) = &out.sidecar.control {
        let py = crate::cmd::bake::script_path(output);
        outputs.write(&py, rigsmith::control::blender::script(rig).as_bytes())?;
        files.push(py);
    }
    if let (Some(dir), Some(r)) = (report, &out.review) {
        let name = input
            .file_name()
            .unwrap_or(input.as_os_str())
            .to_string_lossy();
        // The viewer carries the rigged file (as a GLB: the bytes written for a .glb)
        // and plays the chains under a walk (the springs `simulate` runs).
        let glb = rigsmith::io::gltf::write_glb_bytes(&out.character, &wo)?;
        let (viewer, note) =
            crate::sheets::rig_viewer_html(&out.character, r, &name, &out.sidecar, Some(&glb));
        let mut changes = out.changes();
        changes.extend(note.map(|n| ("viewer".to_string(), n)));
        let page = rigsmith::review::Page {
            title: format!("rigsmith rig: {name}"),
            changes,
            viewer,
        };
        files.extend(crate::sheets::write_review_dir(
            outputs,
            dir,
            &out.character,
            r,
            crate::sheets::ReviewExtras {
                extra: Some(out.report_json()),
                page: &page,
                skinning: rigsmith::review::Skinning::Lbs,
                extra_sheets: {
                    let mut sheets = crate::sheets::face_sheets(out);
                    sheets.extend(crate::sheets::mech_sheet(
                        &out.character,
                        out.sidecar.mech.as_ref(),
                    ));
                    sheets
                },
                control: out.sidecar.control.as_ref(),
                hidden: &out.helpers,
            },
        )?);
    }
    Ok(files)
}

/// The human summary: what was rigged and how, then where every output went and which
/// one to open first. `files`: what [`write_outputs`] wrote (the rigged file first, its
/// sidecar second, then the review folder's files).
fn print_summary(
    out: &RigOutput,
    space_notes: &[String],
    input: &Path,
    files: &[PathBuf],
    report: Option<&Path>,
    total: f64,
    ctx: &Ctx,
) {
    let output = &files[0];
    let c = &out.character;
    let nb = c.skeleton.as_ref().map_or(0, |s| s.len());
    println!("rigged {} -> {}", input.display(), output.display());
    if !space_notes.is_empty() {
        println!("  input     {}", space_notes.join("; "));
    }
    println!("  parts     {}", out.part_roles_text());
    for p in out.parts.iter().filter(|p| p.class != "skin") {
        println!("            {}: {}, {}", p.part, p.class, p.reason);
    }
    for n in out.notes.iter().filter(|n| n.starts_with("body plan")) {
        println!("  plan      {}", n.trim_start_matches("body plan "));
    }
    for n in out.notes.iter().filter(|n| n.contains("under cloth")) {
        println!("  legs      {n}");
    }
    // Every other decision (chains, colliders, the correctives built, kept or not, and
    // why) with -v; they are in report.json's `notes` too.
    if ctx.verbose > 0 {
        for n in out
            .notes
            .iter()
            .filter(|n| !n.starts_with("body plan") && !n.contains("under cloth"))
        {
            println!("  note      {n}");
        }
    }
    println!("  skeleton  {nb} bones, {} chains", out.chains.len());
    println!("  route     {}", out.route_text());
    if !out.fixes.is_empty() {
        println!("  fixes     {}", out.fixes.join("; "));
    }
    // The front, when nothing told it: +Z assumed.
    for w in out
        .model
        .warnings
        .iter()
        .filter(|w| w.starts_with("model.facing:"))
    {
        println!("  warning   {w}");
    }
    let report_html = report
        .map(|d| d.join("report.html"))
        .filter(|h| files.contains(h));
    if let Some(r) = &out.review {
        let lines = crate::summary::review_lines(
            r,
            report_html.as_deref(),
            ctx.verbose > 0,
            "            ",
        );
        for (i, l) in lines.iter().enumerate() {
            if i == 0 {
                println!("  review    {}", l.trim_start());
            } else {
                println!("{l}");
            }
        }
    } else {
        println!("  review    skipped");
    }
    println!(
        "  time      {:.2} s ({})",
        total,
        out.timings
            .iter()
            .map(|t| format!("{} {:.0} ms", t.stage, t.seconds * 1000.0))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let mut rows = vec![(
        output.display().to_string(),
        "the rigged character (glTF: Blender, game engines, any glTF viewer)".to_string(),
    )];
    if let Some(sc) = files.get(1) {
        rows.push((
            sc.display().to_string(),
            "its sidecar: chains, colliders, springs".into(),
        ));
    }
    if let Some(py) = files
        .iter()
        .find(|f| f.to_string_lossy().ends_with(".control.py"))
    {
        rows.push((
            py.display().to_string(),
            "the control rig for Blender: import the GLB, then run this script".into(),
        ));
    }
    match (report, &report_html) {
        (Some(d), Some(_)) => rows.push((
            d.display().to_string(),
            format!(
                "the review: report.html, report.json and {} sheets",
                files
                    .iter()
                    .filter(|f| f.extension().is_some_and(|e| e == "png"))
                    .count()
            ),
        )),
        (Some(d), None) => rows.push((
            d.display().to_string(),
            "no review was run, so no report".into(),
        )),
        _ => {}
    }
    let w = rows
        .iter()
        .map(|(p, _)| p.chars().count())
        .max()
        .unwrap_or(0);
    println!("outputs");
    for (p, what) in &rows {
        println!("  {p:<w$}  {what}");
    }
    match report_html {
        Some(h) => println!("open first: {} (in a browser)", h.display()),
        None => println!(
            "open first: {} (add --report DIR for the review with pictures)",
            output.display()
        ),
    }
}

/// Where one input of a folder goes: `OUT/<stem>.glb` and, with `--report`,
/// `REPORT/<stem>/`.
fn batch_paths(input: &Path, a: &Args) -> (PathBuf, Option<PathBuf>) {
    let stem = input
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    (
        a.output.join(format!("{stem}.glb")),
        a.report.as_ref().map(|r| r.join(&stem)),
    )
}

/// One row of the batch summary.
#[derive(Serialize)]
struct BatchRow {
    input: String,
    output: Option<String>,
    ok: bool,
    blockers: usize,
    majors: usize,
    minors: usize,
    route: Option<String>,
    seconds: f64,
    error: Option<String>,
}

/// Entries of a folder that a batch does not rig, each with why.
type Skipped = Vec<(PathBuf, String)>;

/// A folder's entries split into the model files to rig (sorted) and the entries
/// skipped, each with why.
fn batch_inputs(dir: &Path) -> anyhow::Result<(Vec<PathBuf>, Skipped)> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("{}: cannot list folder", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    let mut inputs = Vec::new();
    let mut skipped = Vec::new();
    let mut stems: std::collections::BTreeMap<String, PathBuf> = Default::default();
    for p in entries {
        let name = p
            .file_name()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_default();
        if name.starts_with('.') {
            continue;
        }
        let ext = p
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("")
            .to_ascii_lowercase();
        if p.is_dir() {
            skipped.push((p, "a folder (folders are not searched)".to_string()));
        } else if ext == "bin" || ext.ends_with("json") || ext == "png" || ext == "jpg" {
            // A glTF's buffer or texture, a sidecar: not a character.
            skipped.push((p, format!("not a character (.{ext})")));
        } else if !MODEL_EXTS.contains(&ext.as_str()) {
            let why = if ext.is_empty() {
                "no extension: not a .glb, .gltf, .vrm, .obj or .fbx file".to_string()
            } else {
                format!(".{ext} is not read (convert it to .glb, .gltf, .vrm, .obj or .fbx)")
            };
            skipped.push((p, why));
        } else {
            let stem = p
                .file_stem()
                .map(|s| s.to_string_lossy().to_string())
                .unwrap_or_default();
            if let Some(first) = stems.get(&stem) {
                let why = format!(
                    "same name as {}: its output {stem}.glb would be overwritten",
                    first.display()
                );
                skipped.push((p, why));
            } else {
                stems.insert(stem, p.clone());
                inputs.push(p);
            }
        }
    }
    Ok((inputs, skipped))
}

fn run_batch(dir: &Path, a: &Args, opts: &RigOptions, ctx: &Ctx) -> anyhow::Result<Outcome> {
    let (inputs, skipped) = batch_inputs(dir)?;
    if inputs.is_empty() {
        bail!(no_models(dir, &skipped));
    }
    let summary = a.output.join("summary.json");
    let all = verify_batch_outputs(&inputs, &summary, a)?;
    std::fs::create_dir_all(&a.output)
        .with_context(|| format!("{}: cannot create folder", a.output.display()))?;
    let rows = rig_all(&inputs, a, opts, ctx)?;
    let skipped_json: Vec<serde_json::Value> = skipped
        .iter()
        .map(|(p, why)| serde_json::json!({"path": p.display().to_string(), "why": why}))
        .collect();
    let doc = serde_json::json!({"rigged": &rows, "skipped": skipped_json});
    all.write(
        &summary,
        (serde_json::to_string_pretty(&doc)? + "\n").as_bytes(),
    )?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&doc)?);
    } else if !ctx.quiet {
        print_batch(&rows, &skipped, &summary);
    }
    let failed = rows.iter().filter(|r| !r.ok).count();
    Ok(if failed > 0 {
        Outcome::CheckFailed
    } else {
        Outcome::Ok
    })
}

/// The refusal of a folder with nothing to rig, listing what was skipped and why.
fn no_models(dir: &Path, skipped: &Skipped) -> crate::util::BadInput {
    crate::util::BadInput(format!(
        "{}: no .glb, .gltf, .vrm, .obj or .fbx files in this folder{}",
        dir.display(),
        if skipped.is_empty() {
            String::new()
        } else {
            format!(
                " (skipped: {})",
                skipped
                    .iter()
                    .map(|(p, why)| format!(
                        "{} ({why})",
                        p.file_name().unwrap_or_default().to_string_lossy()
                    ))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
    ))
}

/// Checks every output of every input before anything is written; the plan that
/// writes `summary` at the end.
fn verify_batch_outputs(inputs: &[PathBuf], summary: &Path, a: &Args) -> anyhow::Result<Outputs> {
    if a.output.exists() && !a.output.is_dir() {
        bail!(crate::util::BadInput(format!(
            "{}: exists and is a file; a folder input writes into an output folder",
            a.output.display()
        )));
    }
    let mut all = Outputs::new(&[]);
    for input in inputs {
        all.input(input);
    }
    all.file(summary).verify()?;
    for input in inputs {
        let (out_path, report_dir) = batch_paths(input, a);
        let mut p = Outputs::new(&inputs.iter().map(|p| p.as_path()).collect::<Vec<_>>());
        p.file(&out_path).file(&parts::sidecar_path(&out_path));
        if let Some(d) = &report_dir {
            p.dir(d, &REPORT_FILES);
        }
        p.verify()?;
    }
    Ok(all)
}

/// Rigs every input on a pool of `--jobs` threads (a progress bar unless quiet); the
/// rows sorted by input.
fn rig_all(
    inputs: &[PathBuf],
    a: &Args,
    opts: &RigOptions,
    ctx: &Ctx,
) -> anyhow::Result<Vec<BatchRow>> {
    let jobs = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()))
        .max(1);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build()?;
    let bar = if ctx.quiet || a.json {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(inputs.len() as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let rows: Mutex<Vec<BatchRow>> = Mutex::new(Vec::new());
    pool.scope(|s| {
        for input in inputs {
            let rows = &rows;
            let bar = &bar;
            s.spawn(move |_| {
                let row = batch_row(input, a, opts);
                let stem = input
                    .file_stem()
                    .map(|s| s.to_string_lossy().to_string())
                    .unwrap_or_default();
                bar.set_message(stem);
                bar.inc(1);
                rows.lock().unwrap_or_else(|p| p.into_inner()).push(row);
            });
        }
    });
    bar.finish_and_clear();
    let mut rows = rows.into_inner().unwrap_or_else(|p| p.into_inner());
    rows.sort_by(|x, y| x.input.cmp(&y.input));
    Ok(rows)
}

/// Rigs one input of a batch and writes its files; its summary row (a failure is the
/// row's error, the batch goes on).
fn batch_row(input: &Path, a: &Args, opts: &RigOptions) -> BatchRow {
    let t0 = Instant::now();
    let (out_path, report_dir) = batch_paths(input, a);
    let res = (|| -> anyhow::Result<RigOutput> {
        let outputs = plan(&out_path, report_dir.as_deref(), &[input])?;
        let (c, _) = crate::util::read_in(input, &a.space)?;
        let opts = &with_authored(opts, input)?;
        let out = pipeline::rig(&c, opts, &mut |_, _| {})?;
        write_outputs(
            &outputs,
            &out,
            input,
            &out_path,
            report_dir.as_deref(),
            opts,
        )?;
        Ok(out)
    })();
    let secs = t0.elapsed().as_secs_f64();
    match res {
        Ok(out) => {
            let k = out.counts();
            BatchRow {
                input: input.display().to_string(),
                output: Some(out_path.display().to_string()),
                ok: k.blocker == 0,
                blockers: k.blocker,
                majors: k.major,
                minors: k.minor,
                route: out.route.map(|r| format!("{r:?}")),
                seconds: secs,
                error: None,
            }
        }
        Err(e) => BatchRow {
            input: input.display().to_string(),
            output: None,
            ok: false,
            blockers: 0,
            majors: 0,
            minors: 0,
            route: None,
            seconds: secs,
            error: Some(format!("{e:#}")),
        },
    }
}

/// The batch's table on stdout: one line per input, then the skipped entries.
fn print_batch(rows: &[BatchRow], skipped: &Skipped, summary: &Path) {
    println!(
        "{:<40} {:>6} {:>5} {:>5} {:>5} {:>8}  note",
        "input", "ok", "block", "major", "minor", "seconds"
    );
    for r in rows {
        let name = Path::new(&r.input)
            .file_name()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_default();
        println!(
            "{:<40} {:>6} {:>5} {:>5} {:>5} {:>8.2}  {}",
            name,
            if r.ok { "yes" } else { "NO" },
            r.blockers,
            r.majors,
            r.minors,
            r.seconds,
            r.error
                .as_deref()
                .unwrap_or(r.route.as_deref().unwrap_or(""))
        );
    }
    for (p, why) in skipped {
        println!(
            "skipped {}: {why}",
            p.file_name().unwrap_or_default().to_string_lossy()
        );
    }
    println!("summary: {}", summary.display());
}
