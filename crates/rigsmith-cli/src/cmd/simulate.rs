//! `rigsmith simulate`: Simulate secondary motion (springs) on a rigged character.

use crate::util::{Ctx, Outcome};

/// Arguments of `rigsmith simulate`.
#[derive(clap::Args)]
pub struct Args {
    /// Input file.
    pub input: Option<std::path::PathBuf>,
}

/// Runs the command.
pub fn run(_a: Args, _ctx: &Ctx) -> anyhow::Result<Outcome> {
    anyhow::bail!("`simulate` is not available in this build")
}
