//! `rigsmith 2d`: 2D cut-out rigs.

use crate::util::{Ctx, Outcome};

/// Arguments of `rigsmith 2d`.
#[derive(clap::Args)]
pub struct Args {
    /// Input file.
    pub input: Option<std::path::PathBuf>,
}

/// Runs the command.
pub fn run(_a: Args, _ctx: &Ctx) -> anyhow::Result<Outcome> {
    anyhow::bail!("`twod` is not available in this build")
}
