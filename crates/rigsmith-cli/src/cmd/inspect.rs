//! `rigsmith inspect FILE [--json]`: the quick check of a model (seed 003): parts,
//! skeleton, twist bones, cosmetic chains, weights. Human text by default; `--json`
//! prints the same as one JSON object whose field names are documented in
//! `docs/inspect.md`. Exit 0 when the file reads, 2 when it cannot be read.

use std::path::PathBuf;

use anyhow::Context;

use crate::util::{BadInput, Ctx, Outcome};

/// Arguments of `rigsmith inspect`.
#[derive(clap::Args)]
pub struct Args {
    /// The model: .glb, .gltf, .vrm or .obj.
    pub input: PathBuf,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs the command.
pub fn run(a: Args, ctx: &Ctx) -> anyhow::Result<Outcome> {
    let pb = ctx.stage(&format!("reading {}", a.input.display()));
    let c = rigsmith::io::read_character(&a.input).map_err(|e| BadInput(e.to_string()));
    pb.finish_and_clear();
    let c = c?;
    let report = rigsmith::inspect::inspect(&c);
    if a.json {
        let s = serde_json::to_string_pretty(&report).context("serializing the report")?;
        println!("{s}");
    } else {
        print!("{}", report.to_text());
    }
    Ok(Outcome::Ok)
}
