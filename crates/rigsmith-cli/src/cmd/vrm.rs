//! `rigsmith vrm`: Export a rigged character as VRM 1.0.

use crate::util::{Ctx, Outcome};

/// Arguments of `rigsmith vrm`.
#[derive(clap::Args)]
pub struct Args {
    /// Input file.
    pub input: Option<std::path::PathBuf>,
}

/// Runs the command.
pub fn run(_a: Args, _ctx: &Ctx) -> anyhow::Result<Outcome> {
    anyhow::bail!("`vrm` is not available in this build")
}
