//! `rigsmith fit`: Fit a skeleton to an unrigged character.

use crate::util::{Ctx, Outcome};

/// Arguments of `rigsmith fit`.
#[derive(clap::Args)]
pub struct Args {
    /// Input file.
    pub input: Option<std::path::PathBuf>,
}

/// Runs the command.
pub fn run(_a: Args, _ctx: &Ctx) -> anyhow::Result<Outcome> {
    anyhow::bail!("`fit` is not available in this build")
}
