//! `rigsmith 2d`: 2D cut-out rigs (check, build, paint order, render, Spine interop).
//!
//! Exit codes: 0 ok; 1 `check` found errors (what the builder refuses); 2 bad input
//! (unreadable or malformed files, a rig that cannot be built, missing art under
//! `--strict`). Every output file is written atomically.

use std::path::{Path, PathBuf};

use anyhow::Context;
use rigsmith_2d::art::PartProbe;
use rigsmith_2d::build::{build_rig_subtree, BuildOptions};
use rigsmith_2d::check::check;
use rigsmith_2d::paint_order::{chain_paint_order, global_paint_order};
use rigsmith_2d::render::{render, Pose, RenderOptions};
use rigsmith_2d::spine::{export_spine, import_spine};
use rigsmith_2d::RigDocument;

use crate::util::{Ctx, Outcome, Outputs};

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
        /// Output scene JSON.
        #[arg(short, long)]
        output: PathBuf,
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

fn read_rig(path: &Path) -> anyhow::Result<(RigDocument, serde_json::Value)> {
    crate::util::check_input(path)?;
    Ok(RigDocument::read(path)?)
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
        TwoD::Check { rig, json } => {
            let (doc, _) = read_rig(&rig)?;
            let report = check(&doc);
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
                }
            }
            Ok(if report.errors() > 0 {
                Outcome::CheckFailed
            } else {
                Outcome::Ok
            })
        }
        TwoD::Build {
            rig,
            art,
            strict,
            interleave,
            entity,
            art_prefix,
            output,
        } => {
            plan(&output, &[&rig])?;
            let (doc, raw) = read_rig(&rig)?;
            art_dir(&art)?;
            let entity = entity_of(&doc, &rig, entity);
            let opts = BuildOptions {
                probe: Some(PartProbe {
                    root: art.clone(),
                    prefix: format!("{art_prefix}{entity}/"),
                }),
                art_prefix,
                strict,
                interleave,
                ..BuildOptions::default()
            };
            let built = build_rig_subtree(&entity, &raw, &opts)
                .with_context(|| format!("{}", rig.display()))?;
            for w in &built.warnings {
                ctx.info(&format!("warning: {w}"));
            }
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
        TwoD::PaintOrder { rig, containers } => {
            let (doc, _) = read_rig(&rig)?;
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
            plan(&output, &[&rig, &art])?;
            let (doc, raw) = read_rig(&rig)?;
            art_dir(&art)?;
            let pose = match &pose {
                Some(p) => {
                    let bytes = std::fs::read(p).with_context(|| format!("{}", p.display()))?;
                    Pose::parse(&bytes).with_context(|| format!("{}", p.display()))?
                }
                None => Pose::default(),
            };
            let entity = entity_of(&doc, &rig, None);
            let probe = PartProbe {
                root: art.clone(),
                prefix: format!("characters/{entity}/"),
            };
            let opts = BuildOptions {
                probe: Some(probe.clone()),
                interleave: true,
                ..BuildOptions::default()
            };
            let built = build_rig_subtree(&entity, &raw, &opts)
                .with_context(|| format!("{}", rig.display()))?;
            let img = render(
                &built.to_value(),
                &probe,
                &pose,
                &RenderOptions {
                    size,
                    joints,
                    ..RenderOptions::default()
                },
            )?;
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
        TwoD::ImportSpine { input, output } => {
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
        TwoD::ExportSpine { rig, art, output } => {
            plan(&output, &[&rig])?;
            let (doc, _) = read_rig(&rig)?;
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
    }
}
