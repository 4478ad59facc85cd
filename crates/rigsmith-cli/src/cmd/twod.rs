//! `rigsmith 2d`: 2D cut-out rigs (check, build, paint order, affordances, migrations,
//! render, Spine interop).
//!
//! Every command reads the rig through the library's one read path
//! (`rigsmith_2d::read`): migrated, and a legacy rest pose kept unapplied and said.
//!
//! Exit codes: 0 ok; 1 `check` found errors (what no stage can draw); 2 bad input
//! (unreadable or malformed files, a rig that cannot be built, missing art under
//! `--strict`, a pivot the skeleton art lacks). Every output file is written atomically.

use std::path::{Path, PathBuf};

use anyhow::Context;
use rigsmith_2d::affordances::rig_affordances;
use rigsmith_2d::art::PartProbe;
use rigsmith_2d::build::{build_rig, BuildOptions, BuiltRig};
use rigsmith_2d::check::check_read;
use rigsmith_2d::paint_order::{chain_paint_order, global_paint_order};
use rigsmith_2d::pivot::{read_pivot_problems, validate_pivots};
use rigsmith_2d::read::{read_file, ReadOptions, ReadRig};
use rigsmith_2d::render::{render, Pose, RenderOptions};
use rigsmith_2d::rest_pose::{RestPoseRegistry, DEFAULT_KIND};
use rigsmith_2d::spine::{export_spine, import_spine};
use rigsmith_2d::RigDocument;

use crate::util::{BadInput, Ctx, Outcome, Outputs};

/// Arguments of `rigsmith 2d`.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  rigsmith 2d check hero.json
  rigsmith 2d build hero.json --art art/ -o scene.json
  rigsmith 2d render hero.json --art art/ --pose wave.json -o hero.png
  rigsmith 2d import-spine hero_spine.json -o hero.json")]
pub struct Args {
    /// What to do.
    #[command(subcommand)]
    pub command: TwoD,
}

/// The `rigsmith 2d` subcommands.
#[derive(clap::Subcommand)]
pub enum TwoD {
    /// Check a rig document: structure, chain draw order and pose (errors, exit 1),
    /// origin and rest pose (warnings).
    Check {
        /// The rig document (JSON).
        rig: PathBuf,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
        /// The skeleton SVG: every bone's `pivot` must name a circle of its `skeleton`
        /// group (unchecked without it).
        #[arg(long)]
        skeleton: Option<PathBuf>,
        /// The document kind to read the rig as (its version rules).
        #[arg(long, default_value = DEFAULT_KIND)]
        kind: String,
    },
    /// Build the scene subtree of a rig.
    Build {
        /// The rig document (JSON).
        rig: PathBuf,
        /// The folder the attachments' paths are relative to.
        #[arg(long)]
        art: PathBuf,
        /// Missing art is an error (exit 2) instead of a recorded fallback.
        #[arg(long)]
        strict: bool,
        /// Accept a chain interleaved with an unrelated part (paint by the global order).
        #[arg(long)]
        interleave: bool,
        /// Entity name (default: the document's `name`, else the file stem).
        #[arg(long)]
        entity: Option<String>,
        /// Texture `src` prefix (`characters/` or `props/`).
        #[arg(long, default_value = "characters/")]
        art_prefix: String,
        /// A slot not to build (nor anything nested under it); repeatable.
        #[arg(long = "skip-slot", value_name = "SLOT")]
        skip_slots: Vec<String>,
        /// Load a part's texture from another `src` (a recoloured style pack):
        /// `PART=SRC`, PART an attachment path (`parts/torso.svg`), SRC under the
        /// entity's art prefix (`characters/kit/style/torso_red.svg`); repeatable.
        #[arg(long = "texture-src", value_name = "PART=SRC")]
        texture_src: Vec<String>,
        /// The same, as a JSON object `{"PART": "SRC"}` (the flags win).
        #[arg(long, value_name = "FILE")]
        texture_srcs: Option<PathBuf>,
        /// The skeleton SVG: refuse the rig when a bone's `pivot` names no circle of its
        /// `skeleton` group.
        #[arg(long)]
        skeleton: Option<PathBuf>,
        /// The document kind to read the rig as (its version rules).
        #[arg(long, default_value = DEFAULT_KIND)]
        kind: String,
        /// Output scene JSON.
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Print what the rig's structure affords (`rig.hierarchy`: the nested chains
    /// linking two bones or more, and the deepest one's number of bones).
    Affordances {
        /// The rig document (JSON).
        rig: PathBuf,
        /// Print as JSON (`{"rig.hierarchy": {"keys", "count", "chains"}}`).
        #[arg(long)]
        json: bool,
    },
    /// Bring a rig document to its kind's current version: run the migrations from the
    /// version it declares, keep a legacy rest pose unapplied (`rest_rotation: false`)
    /// and stamp the version. The output builds exactly as the input did.
    Migrate {
        /// The rig document (JSON).
        #[arg(required_unless_present = "list")]
        rig: Option<PathBuf>,
        /// The document kind to read the rig as.
        #[arg(long, default_value = DEFAULT_KIND)]
        kind: String,
        /// Print the registered kinds and migrations instead.
        #[arg(long)]
        list: bool,
        /// Output rig document.
        #[arg(short, long, required_unless_present = "list")]
        output: Option<PathBuf>,
    },
    /// Print the global paint order (node paths in declared draw order, one a line).
    PaintOrder {
        /// The rig document (JSON).
        rig: PathBuf,
        /// Print each container's paint order instead (`container: item item ...`;
        /// the entity's own container is `.`).
        #[arg(long)]
        containers: bool,
    },
    /// Render a (posed) rig to PNG.
    Render {
        /// The rig document (JSON).
        rig: PathBuf,
        /// The folder the attachments' paths are relative to.
        #[arg(long)]
        art: PathBuf,
        /// A pose: `{"bones": {"arm": {"rotation_deg": 30, "scale_x": 1, "scale_y": 1}}}`.
        #[arg(long)]
        pose: Option<PathBuf>,
        /// Longest side of the image, pixels.
        #[arg(long, default_value_t = 512)]
        size: u32,
        /// Mark each node's origin (the joints).
        #[arg(long)]
        joints: bool,
        /// Output PNG.
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Import a Spine JSON skeleton as a rig document.
    ImportSpine {
        /// The Spine JSON export.
        input: PathBuf,
        /// Output rig document.
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Export a rig document as Spine JSON.
    ExportSpine {
        /// The rig document (JSON).
        rig: PathBuf,
        /// The folder the attachments' paths are relative to (measures unsized art).
        #[arg(long)]
        art: Option<PathBuf>,
        /// Output Spine JSON.
        #[arg(short, long)]
        output: PathBuf,
    },
}

/// Reads a rig through the library's one read path, as `kind`.
fn read_rig(path: &Path, kind: &str) -> anyhow::Result<ReadRig> {
    let opts = ReadOptions {
        kind: kind.to_string(),
        ..ReadOptions::default()
    };
    crate::util::check_input(path)?;
    Ok(read_file(path, &opts)?)
}

/// Says every rest pose the read left unapplied.
fn say_rest_pose(ctx: &Ctx, read: &ReadRig) {
    for w in &read.rest_pose_warnings {
        ctx.info(&format!("warning[rest_pose]: {w}"));
    }
}

/// `PART=SRC` flags over a `{"PART": "SRC"}` file.
fn texture_srcs(
    flags: &[String],
    file: Option<&Path>,
) -> anyhow::Result<std::collections::BTreeMap<String, String>> {
    let mut out = std::collections::BTreeMap::new();
    if let Some(f) = file {
        let bytes = std::fs::read(f).with_context(|| format!("{}", f.display()))?;
        let v: serde_json::Value = serde_json::from_slice(&bytes)
            .map_err(|e| BadInput(format!("{}: not valid JSON: {e}", f.display())))?;
        let m = v.as_object().ok_or_else(|| {
            BadInput(format!(
                "{}: expected an object {{\"PART\": \"SRC\"}}",
                f.display()
            ))
        })?;
        for (k, src) in m {
            let src = src
                .as_str()
                .ok_or_else(|| BadInput(format!("{}: {k}: expected a string", f.display())))?;
            out.insert(k.clone(), src.to_string());
        }
    }
    for f in flags {
        let (part, src) = f
            .split_once('=')
            .filter(|(p, s)| !p.is_empty() && !s.is_empty())
            .ok_or_else(|| BadInput(format!("--texture-src {f}: expected PART=SRC")))?;
        out.insert(part.to_string(), src.to_string());
    }
    Ok(out)
}

fn print_built_warnings(ctx: &Ctx, built: &BuiltRig) {
    for w in &built.warnings {
        ctx.info(&format!("warning: {w}"));
    }
}

/// Checks `output` against `inputs`, then writes it atomically (see [`Outputs`]).
fn write(output: &Path, inputs: &[&Path], bytes: &[u8]) -> anyhow::Result<()> {
    let mut plan = Outputs::new(inputs);
    plan.file(output).verify()?;
    plan.write(output, bytes)
}

/// Checks `output` against `inputs` before any work is done.
fn plan(output: &Path, inputs: &[&Path]) -> anyhow::Result<()> {
    Outputs::new(inputs).file(output).verify()?;
    Ok(())
}

fn entity_of(doc: &RigDocument, rig: &Path, given: Option<String>) -> String {
    given
        .or_else(|| {
            doc.extra
                .get("name")
                .and_then(|v| v.as_str())
                .map(str::to_string)
        })
        .or_else(|| rig.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "rig".into())
}

fn art_dir(art: &Path) -> anyhow::Result<()> {
    anyhow::ensure!(
        art.is_dir(),
        "{}: the art folder does not exist",
        art.display()
    );
    Ok(())
}

/// Runs the command.
pub fn run(a: Args, ctx: &Ctx) -> anyhow::Result<Outcome> {
    match a.command {
        TwoD::Check {
            rig,
            json,
            skeleton,
            kind,
        } => check(ctx, rig, json, skeleton, kind),
        TwoD::Build {
            rig,
            art,
            strict,
            interleave,
            entity,
            art_prefix,
            skip_slots,
            texture_src,
            texture_srcs: srcs_file,
            skeleton,
            kind,
            output,
        } => {
            plan(&output, &[&rig])?;
            let read = read_rig(&rig, &kind)?;
            let doc = &read.doc;
            art_dir(&art)?;
            if let Some(svg) = &skeleton {
                validate_pivots(doc, svg)?;
            }
            for s in &skip_slots {
                if doc.slot(s).is_none() {
                    return Err(
                        BadInput(format!("--skip-slot {s}: the rig has no slot '{s}'")).into(),
                    );
                }
            }
            let srcs = texture_srcs(&texture_src, srcs_file.as_deref())?;
            for part in srcs.keys() {
                let used = doc
                    .skins
                    .iter()
                    .flat_map(|sk| sk.slots.iter().flat_map(|(_, l)| l.iter()))
                    .any(|(_, a)| &a.path == part);
                if !used {
                    ctx.info(&format!(
                        "warning: texture src for '{part}': no attachment draws that part"
                    ));
                }
            }
            let entity = entity_of(doc, &rig, entity);
            let opts = BuildOptions {
                probe: Some(PartProbe {
                    root: art.clone(),
                    prefix: format!("{art_prefix}{entity}/"),
                }),
                art_prefix,
                strict,
                interleave,
                skip_slots: Some(skip_slots),
                texture_srcs: srcs,
                ..BuildOptions::default()
            };
            let mut built =
                build_rig(&entity, doc, &opts).with_context(|| format!("{}", rig.display()))?;
            built.rest_pose_warnings = read.rest_pose_warnings.clone();
            say_rest_pose(ctx, &read);
            print_built_warnings(ctx, &built);
            for r in &built.resolutions {
                ctx.info(&format!(
                    "warning: slot '{}' attachment '{}': {} is missing (drawn as a fallback)",
                    r.slot, r.attachment, r.src
                ));
            }
            let mut text = serde_json::to_string_pretty(&built.to_value())?;
            text.push('\n');
            write(&output, &[&rig], text.as_bytes())?;
            ctx.info(&format!(
                "{}: {} part(s), {} texture(s), {} fallback(s)",
                output.display(),
                built.built.len(),
                built.textures.len(),
                built.resolutions.len()
            ));
            Ok(Outcome::Ok)
        }
        TwoD::Affordances { rig, json } => affordances(ctx, rig, json),
        TwoD::Migrate {
            rig,
            kind,
            list,
            output,
        } => migrate(ctx, rig, kind, list, output),
        TwoD::PaintOrder { rig, containers } => {
            let doc = read_rig(&rig, DEFAULT_KIND)?.doc;
            if containers {
                for (c, items) in chain_paint_order(&doc, None) {
                    println!("{}: {}", c.as_deref().unwrap_or("."), items.join(" "));
                }
            } else {
                for p in global_paint_order(&doc, None) {
                    println!("{p}");
                }
            }
            Ok(Outcome::Ok)
        }
        TwoD::Render {
            rig,
            art,
            pose,
            size,
            joints,
            output,
        } => {
            let opts = RenderOptions {
                size,
                joints,
                ..RenderOptions::default()
            };
            render_png(ctx, rig, art, pose, &opts, output)
        }
        TwoD::ImportSpine { input, output } => import_spine_file(ctx, input, output),
        TwoD::ExportSpine { rig, art, output } => export_spine_file(ctx, rig, art, output),
    }
}

/// `2d check`: the report, exit 1 on errors.
fn check(
    ctx: &Ctx,
    rig: PathBuf,
    json: bool,
    skeleton: Option<PathBuf>,
    kind: String,
) -> anyhow::Result<Outcome> {
    let read = read_rig(&rig, &kind)?;
    let pivots = match &skeleton {
        Some(svg) => Some(read_pivot_problems(&read.doc, svg)?),
        None => None,
    };
    let report = check_read(&read, pivots);
    if json {
        println!("{}", serde_json::to_string_pretty(&report.to_value())?);
    } else {
        print!("{}", report.to_text());
        if !ctx.quiet {
            eprintln!(
                "{}: {} error(s), {} warning(s)",
                rig.display(),
                report.errors(),
                report.warnings()
            );
            if skeleton.is_none() && read.doc.bones.iter().any(|b| b.pivot.is_some()) {
                eprintln!("note: bone pivots not checked (give --skeleton SVG)");
            }
        }
    }
    Ok(if report.errors() > 0 {
        Outcome::CheckFailed
    } else {
        Outcome::Ok
    })
}

/// `2d affordances`: what the structure affords.
fn affordances(ctx: &Ctx, rig: PathBuf, json: bool) -> anyhow::Result<Outcome> {
    let read = read_rig(&rig, DEFAULT_KIND)?;
    let aff = rig_affordances(&read.doc);
    if json {
        let m: serde_json::Map<String, serde_json::Value> =
            aff.iter().map(|(k, v)| (k.clone(), v.to_value())).collect();
        println!("{}", serde_json::to_string_pretty(&m)?);
    } else if aff.is_empty() {
        ctx.info(&format!(
            "{}: affords nothing (a {} rig with no chain linking two bones)",
            rig.display(),
            read.doc.nesting().as_str()
        ));
    } else {
        for (cap, a) in &aff {
            println!("{cap}: count {}", a.count);
            println!("  keys: {}", a.keys.join(" "));
            for c in &a.chains {
                println!("  chain: {}", c.join(" > "));
            }
        }
    }
    Ok(Outcome::Ok)
}

/// `2d migrate`: the document at its kind's current version (or `--list`).
fn migrate(
    ctx: &Ctx,
    rig: Option<PathBuf>,
    kind: String,
    list: bool,
    output: Option<PathBuf>,
) -> anyhow::Result<Outcome> {
    if list {
        let reg = RestPoseRegistry::default();
        for (name, k) in &reg.kinds {
            println!(
                "{name}: version field {}, current {}, rest pose applied since {}",
                k.version_field,
                k.current,
                reg.since.get(name).map(String::as_str).unwrap_or("-")
            );
        }
        for (k, from, to) in reg.migrations.keys() {
            println!(
                "{k}: {from} -> {to} (a posed document keeps its picture: rest_rotation: false)"
            );
        }
        return Ok(Outcome::Ok);
    }
    let (Some(rig), Some(output)) = (rig, output) else {
        return Err(BadInput("migrate: give RIG and -o OUTPUT, or --list".into()).into());
    };
    let read = read_rig(&rig, &kind)?;
    say_rest_pose(ctx, &read);
    let mut text = serde_json::to_string_pretty(&read.current_document())?;
    text.push('\n');
    write(&output, &[&rig], text.as_bytes())?;
    let steps: Vec<String> = read
        .steps
        .iter()
        .map(|(f, t)| format!("{f} -> {t}"))
        .collect();
    ctx.info(&format!(
        "{}: {} {} ({})",
        output.display(),
        read.kind.name,
        read.kind.current,
        if steps.is_empty() {
            "no migration step".to_string()
        } else {
            steps.join(", ")
        }
    ));
    Ok(Outcome::Ok)
}

/// `2d render`: the (posed) rig as a PNG.
fn render_png(
    ctx: &Ctx,
    rig: PathBuf,
    art: PathBuf,
    pose: Option<PathBuf>,
    render_opts: &RenderOptions,
    output: PathBuf,
) -> anyhow::Result<Outcome> {
    plan(&output, &[&rig, &art])?;
    let read = read_rig(&rig, DEFAULT_KIND)?;
    let doc = &read.doc;
    art_dir(&art)?;
    let pose = match &pose {
        Some(p) => {
            let bytes = std::fs::read(p).with_context(|| format!("{}", p.display()))?;
            Pose::parse(&bytes).with_context(|| format!("{}", p.display()))?
        }
        None => Pose::default(),
    };
    let entity = entity_of(doc, &rig, None);
    let probe = PartProbe {
        root: art.clone(),
        prefix: format!("characters/{entity}/"),
    };
    let opts = BuildOptions {
        probe: Some(probe.clone()),
        interleave: true,
        ..BuildOptions::default()
    };
    let built = build_rig(&entity, doc, &opts).with_context(|| format!("{}", rig.display()))?;
    say_rest_pose(ctx, &read);
    let img = render(&built.to_value(), &probe, &pose, render_opts)?;
    for n in built.warnings.iter().chain(&img.notes) {
        ctx.info(&format!("warning: {n}"));
    }
    write(&output, &[&rig, &art], &img.to_png()?)?;
    ctx.info(&format!(
        "{}: {} x {} px",
        output.display(),
        img.width,
        img.height
    ));
    Ok(Outcome::Ok)
}

/// `2d import-spine`: a Spine JSON skeleton as a rig document.
fn import_spine_file(ctx: &Ctx, input: PathBuf, output: PathBuf) -> anyhow::Result<Outcome> {
    plan(&output, &[&input])?;
    crate::util::check_input(&input)?;
    let bytes = std::fs::read(&input).with_context(|| format!("{}", input.display()))?;
    let (doc, rep) = import_spine(&bytes).map_err(|e| e.in_file(&input))?;
    for u in &rep.unmapped {
        ctx.info(&format!("not mapped: {u}"));
    }
    write(&output, &[&input], doc.to_json().as_bytes())?;
    ctx.info(&format!(
        "{}: {} bone(s), {} slot(s), {} skin(s)",
        output.display(),
        doc.bones.len(),
        doc.slots.len(),
        doc.skins.len()
    ));
    Ok(Outcome::Ok)
}

/// `2d export-spine`: a rig document as Spine JSON.
fn export_spine_file(
    ctx: &Ctx,
    rig: PathBuf,
    art: Option<PathBuf>,
    output: PathBuf,
) -> anyhow::Result<Outcome> {
    plan(&output, &[&rig])?;
    let read = read_rig(&rig, DEFAULT_KIND)?;
    say_rest_pose(ctx, &read);
    let doc = read.doc;
    let probe = match &art {
        Some(a) => {
            art_dir(a)?;
            Some(PartProbe {
                root: a.clone(),
                prefix: String::new(),
            })
        }
        None => None,
    };
    let (v, rep) =
        export_spine(&doc, probe.as_ref()).with_context(|| format!("{}", rig.display()))?;
    for u in &rep.unmapped {
        ctx.info(&format!("not mapped: {u}"));
    }
    let mut text = serde_json::to_string_pretty(&v)?;
    text.push('\n');
    write(&output, &[&rig], text.as_bytes())?;
    Ok(Outcome::Ok)
}
