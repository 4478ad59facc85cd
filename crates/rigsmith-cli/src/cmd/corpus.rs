//! `rigsmith corpus`: Build characters from the MakeHuman (MPFB2) corpus.

use crate::util::{Ctx, Outcome};

/// Arguments of `rigsmith corpus`.
#[derive(clap::Args)]
pub struct Args {
    /// Input file.
    pub input: Option<std::path::PathBuf>,
}

/// Runs the command.
pub fn run(_a: Args, _ctx: &Ctx) -> anyhow::Result<Outcome> {
    anyhow::bail!("`corpus` is not available in this build")
}
