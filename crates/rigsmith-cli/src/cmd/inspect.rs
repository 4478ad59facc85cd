//! `rigsmith inspect`: Quick check of a model: parts, skeleton, chains, weights.

use crate::util::{Ctx, Outcome};

/// Arguments of `rigsmith inspect`.
#[derive(clap::Args)]
pub struct Args {
    /// Input file.
    pub input: Option<std::path::PathBuf>,
}

/// Runs the command.
pub fn run(_a: Args, _ctx: &Ctx) -> anyhow::Result<Outcome> {
    anyhow::bail!("`inspect` is not available in this build")
}
