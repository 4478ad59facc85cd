//! `rigsmith rig`: Rig a character in one command: fit, weight, check, export.

use crate::util::{Ctx, Outcome};

/// Arguments of `rigsmith rig`.
#[derive(clap::Args)]
pub struct Args {
    /// Input file.
    pub input: Option<std::path::PathBuf>,
}

/// Runs the command.
pub fn run(_a: Args, _ctx: &Ctx) -> anyhow::Result<Outcome> {
    anyhow::bail!("`rig` is not available in this build")
}
