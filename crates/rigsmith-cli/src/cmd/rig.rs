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
use rigsmith::parts::{self, Sidecar};
use rigsmith::pipeline::{self, RigOptions, RigOutput};
use serde::Serialize;

use crate::util::{Ctx, Outcome};

/// Arguments of `rigsmith rig`.
#[derive(clap::Args)]
pub struct Args {
    /// The character (.glb, .gltf, .vrm, .obj) or a folder of them.
    pub input: Option<PathBuf>,
    /// Output .glb/.gltf (or, for a folder input, the output folder).
    #[arg(short = 'o', long)]
    pub output: PathBuf,
    /// Skeleton template: game, basic, mixamo or vrm.
    #[arg(long, default_value = "game")]
    pub template: String,
    /// Twist bones per limb segment.
    #[arg(long, default_value_t = 0)]
    pub twist: usize,
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
    /// Replace the skeleton and weights of an input that is already rigged.
    #[arg(long)]
    pub rerig: bool,
    /// Skip the review (no deformation numbers, no sheets).
    #[arg(long)]
    pub no_review: bool,
    /// Parts (or materials) that are pieces of the skin, comma-separated; by default
    /// every part's role comes from geometry.
    #[arg(long, value_delimiter = ',', value_name = "PART,...")]
    pub body: Vec<String>,
    /// Parts (or materials) that are garments over the skin, comma-separated.
    #[arg(long, value_delimiter = ',', value_name = "PART,...")]
    pub garment: Vec<String>,
    /// A rigid part, optionally with its bone: `PART` or `PART=BONE` (repeatable).
    #[arg(long = "rigid", value_name = "PART[=BONE]")]
    pub rigid: Vec<String>,
    /// Parallel jobs for a folder input (default: the number of cores).
    #[arg(long)]
    pub jobs: Option<usize>,
}

const MODEL_EXTS: [&str; 4] = ["glb", "gltf", "vrm", "obj"];

/// Runs the command.
pub fn run(a: Args, ctx: &Ctx) -> anyhow::Result<Outcome> {
    let template = Template::parse(&a.template)?;
    let opts = RigOptions {
        template,
        twist: a.twist,
        max_influences: a.max_influences,
        rerig: a.rerig,
        review: !a.no_review,
        parts: rigsmith::model::BodyOptions {
            body: a.body.clone(),
            garment: a.garment.clone(),
            rigid: a
                .rigid
                .iter()
                .map(|r| match r.split_once('=') {
                    Some((p, b)) => (p.to_string(), Some(b.to_string())),
                    None => (r.clone(), None),
                })
                .collect(),
        },
        ..RigOptions::default()
    };
    if a.demo {
        if a.input.is_some() {
            bail!("--demo rigs the built-in mannequin: give no input with it");
        }
        let c = mannequin::build(&MannequinOptions::default());
        return rig_one_and_report(&c, Path::new("mannequin (built-in)"), &a, &opts, ctx);
    }
    let Some(input) = a.input.clone() else {
        bail!("give a character file or folder, or --demo for the built-in mannequin");
    };
    if input.is_dir() {
        return run_batch(&input, &a, &opts, ctx);
    }
    rigsmith::io::atomic::ensure_not_input(&a.output, &[&input])?;
    let c = rigsmith::io::read_character(&input)?;
    rig_one_and_report(&c, &input, &a, &opts, ctx)
}

/// Rigs one character with a progress line per stage and writes its outputs.
fn rig_one_and_report(
    c: &Character,
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
    let files = write_outputs(&out, &a.output, a.report.as_deref(), opts)?;
    let total = t0.elapsed().as_secs_f64();
    let counts = out.counts();
    if a.json {
        let v = serde_json::json!({
            "input": input.display().to_string(),
            "output": a.output.display().to_string(),
            "result": &out,
            "counts": counts,
            "files": files.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
            "seconds": total,
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else if !ctx.quiet {
        print_summary(&out, input, &files, a.report.as_deref(), total);
    }
    Ok(if counts.blocker > 0 {
        Outcome::CheckFailed
    } else {
        Outcome::Ok
    })
}

/// Writes the rigged file, its `.rig.json` sidecar and, when asked, the review folder.
fn write_outputs(
    out: &RigOutput,
    output: &Path,
    report: Option<&Path>,
    opts: &RigOptions,
) -> anyhow::Result<Vec<PathBuf>> {
    let ext = output
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    if ext != "glb" && ext != "gltf" {
        bail!("{}: the output must be .glb or .gltf", output.display());
    }
    if let Some(dir) = output.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("{}: cannot create folder", dir.display()))?;
    }
    let wo = WriteOptions {
        max_influences: opts.max_influences,
        ..WriteOptions::default()
    };
    rigsmith::io::write_character(output, &out.character, &wo)?;
    let mut files = vec![output.to_path_buf()];
    let colliders = parts::measure_colliders(&out.character);
    let sidecar = Sidecar::build(&out.character, &out.chains, &colliders);
    let sc_path = parts::sidecar_path(output);
    sidecar.write(&sc_path)?;
    files.push(sc_path);
    if let (Some(dir), Some(r)) = (report, &out.review) {
        let extra = serde_json::json!({
            "model": &out.model,
            "fixes": &out.fixes,
            "placement": &out.placement,
            "route_reasons": &out.route_reasons,
            "part_roles": &out.part_roles,
            "parts": &out.parts,
            "timings": &out.timings,
        });
        files.extend(crate::sheets::write_review_dir(
            dir,
            &out.character,
            r,
            Some(extra),
        )?);
    }
    Ok(files)
}

/// The human summary: what was rigged and how, then where every output went and which
/// one to open first. `files`: what [`write_outputs`] wrote (the rigged file first, its
/// sidecar second, then the review folder's files).
fn print_summary(
    out: &RigOutput,
    input: &Path,
    files: &[PathBuf],
    report: Option<&Path>,
    total: f64,
) {
    let output = &files[0];
    let c = &out.character;
    let nb = c.skeleton.as_ref().map_or(0, |s| s.len());
    let counts = out.counts();
    println!("rigged {} -> {}", input.display(), output.display());
    println!(
        "  parts     {}",
        out.part_roles
            .iter()
            .map(|(n, r)| format!("{n} ({r})"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    for p in out.parts.iter().filter(|p| p.class != "skin") {
        println!("            {}: {}, {}", p.part, p.class, p.reason);
    }
    println!("  skeleton  {nb} bones, {} chains", out.chains.len());
    println!(
        "  route     {:?}{}",
        out.route,
        if out.route_reasons.is_empty() {
            String::new()
        } else {
            format!(": {}", out.route_reasons.join("; "))
        }
    );
    if !out.fixes.is_empty() {
        println!("  fixes     {}", out.fixes.join("; "));
    }
    if let Some(r) = &out.review {
        println!(
            "  review    {} checks: {} blocker, {} major, {} minor failed",
            r.checks.len(),
            counts.blocker,
            counts.major,
            counts.minor
        );
        for k in r
            .checks
            .iter()
            .filter(|k| !k.passed && k.severity >= rigsmith::Severity::Major)
            .take(12)
        {
            println!(
                "    {:?} {}: {} = {:.4} (limit {:.4}) {}",
                k.severity, k.id, k.measure, k.value, k.threshold, k.detail
            );
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
    let report_html = report
        .map(|d| d.join("report.html"))
        .filter(|h| files.contains(h));
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

fn run_batch(dir: &Path, a: &Args, opts: &RigOptions, ctx: &Ctx) -> anyhow::Result<Outcome> {
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("{}: cannot list folder", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.is_file()
                && p.extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| MODEL_EXTS.contains(&e.to_ascii_lowercase().as_str()))
        })
        .collect();
    inputs.sort();
    if inputs.is_empty() {
        bail!(
            "{}: no .glb, .gltf, .vrm or .obj files in this folder",
            dir.display()
        );
    }
    std::fs::create_dir_all(&a.output)
        .with_context(|| format!("{}: cannot create folder", a.output.display()))?;
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
        for input in &inputs {
            let rows = &rows;
            let bar = &bar;
            s.spawn(move |_| {
                let t0 = Instant::now();
                let stem = input
                    .file_stem()
                    .map(|s| s.to_string_lossy().to_string())
                    .unwrap_or_default();
                let out_path = a.output.join(format!("{stem}.glb"));
                let report_dir = a.report.as_ref().map(|r| r.join(&stem));
                let res = (|| -> anyhow::Result<RigOutput> {
                    rigsmith::io::atomic::ensure_not_input(&out_path, &[input.as_path()])?;
                    let c = rigsmith::io::read_character(input)?;
                    let out = pipeline::rig(&c, opts, &mut |_, _| {})?;
                    write_outputs(&out, &out_path, report_dir.as_deref(), opts)?;
                    Ok(out)
                })();
                let secs = t0.elapsed().as_secs_f64();
                let row = match res {
                    Ok(out) => {
                        let k = out.counts();
                        BatchRow {
                            input: input.display().to_string(),
                            output: Some(out_path.display().to_string()),
                            ok: k.blocker == 0,
                            blockers: k.blocker,
                            majors: k.major,
                            minors: k.minor,
                            route: Some(format!("{:?}", out.route)),
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
                };
                bar.set_message(stem);
                bar.inc(1);
                rows.lock().unwrap_or_else(|p| p.into_inner()).push(row);
            });
        }
    });
    bar.finish_and_clear();
    let mut rows = rows.into_inner().unwrap_or_else(|p| p.into_inner());
    rows.sort_by(|x, y| x.input.cmp(&y.input));
    let summary = a.output.join("summary.json");
    rigsmith::io::atomic::write_atomic(
        &summary,
        (serde_json::to_string_pretty(&rows)? + "\n").as_bytes(),
    )?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
    } else if !ctx.quiet {
        println!(
            "{:<40} {:>6} {:>5} {:>5} {:>5} {:>8}  note",
            "input", "ok", "block", "major", "minor", "seconds"
        );
        for r in &rows {
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
        println!("summary: {}", summary.display());
    }
    let failed = rows.iter().filter(|r| !r.ok).count();
    Ok(if failed > 0 {
        Outcome::CheckFailed
    } else {
        Outcome::Ok
    })
}
