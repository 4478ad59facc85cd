//! `rigsmith mannequin`: Write the built-in procedural mannequin.

use crate::util::{Ctx, Outcome};

/// Arguments of `rigsmith mannequin`.
#[derive(clap::Args)]
pub struct Args {
    /// Input file.
    pub input: Option<std::path::PathBuf>,
}

/// Runs the command.
pub fn run(_a: Args, _ctx: &Ctx) -> anyhow::Result<Outcome> {
    anyhow::bail!("`mannequin` is not available in this build")
}
