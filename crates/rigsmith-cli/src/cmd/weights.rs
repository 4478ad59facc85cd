//! `rigsmith weights`: Compute skin weights for a character and a skeleton.

use crate::util::{Ctx, Outcome};

/// Arguments of `rigsmith weights`.
#[derive(clap::Args)]
pub struct Args {
    /// Input file.
    pub input: Option<std::path::PathBuf>,
}

/// Runs the command.
pub fn run(_a: Args, _ctx: &Ctx) -> anyhow::Result<Outcome> {
    anyhow::bail!("`weights` is not available in this build")
}
