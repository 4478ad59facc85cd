//! `rigsmith mannequin`: write the built-in mannequin.

use std::path::PathBuf;

use crate::util::{Ctx, Outcome};

/// Arguments of `rigsmith mannequin`.
#[derive(clap::Args)]
pub struct Args {
    /// Output file (.glb, .gltf or .obj).
    #[arg(short, long)]
    pub output: PathBuf,
}

/// Runs the command.
pub fn run(_a: Args, _ctx: &Ctx) -> anyhow::Result<Outcome> {
    anyhow::bail!("the mannequin writer is not built yet")
}
