//! `rigsmith check`: Check a rig the way a lead rigger would (the rubric).

use crate::util::{Ctx, Outcome};

/// Arguments of `rigsmith check`.
#[derive(clap::Args)]
pub struct Args {
    /// Input file.
    pub input: Option<std::path::PathBuf>,
}

/// Runs the command.
pub fn run(_a: Args, _ctx: &Ctx) -> anyhow::Result<Outcome> {
    anyhow::bail!("`check` is not available in this build")
}
