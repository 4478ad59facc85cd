//! `rigsmith`: the command-line tool. Argument parsing, progress and output only; all
//! logic lives in the library crates.
//!
//! Exit codes: 0 ok, 1 a check failed (a blocker), 2 bad input or usage.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cmd;
mod sheets;
mod util;

/// Headless character rigging.
#[derive(Parser)]
#[command(
    name = "rigsmith",
    version,
    about = "Headless character rigging: fit, weight, check and export game-ready rigs"
)]
struct Cli {
    /// Less output (errors only).
    #[arg(short, long, global = true)]
    quiet: bool,
    /// More output.
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    verbose: u8,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Quick check of a model: parts, skeleton, chains, weights.
    Inspect(cmd::inspect::Args),
    /// Build characters from the MakeHuman (MPFB2) corpus.
    Corpus(cmd::corpus::Args),
    /// Write the built-in procedural mannequin.
    Mannequin(cmd::mannequin::Args),
    /// Fit a skeleton to an unrigged character.
    Fit(cmd::fit::Args),
    /// Compute skin weights for a character and a skeleton.
    Weights(cmd::weights::Args),
    /// Check a rig the way a lead rigger would (the rubric).
    Check(cmd::check::Args),
    /// Rig a character in one command: fit, weight, check, export.
    Rig(cmd::rig::Args),
    /// Simulate secondary motion (springs) on a rigged character.
    Simulate(cmd::simulate::Args),
    /// Export a rigged character as VRM 1.0.
    Vrm(cmd::vrm::Args),
    /// 2D cut-out rigs.
    #[command(name = "2d")]
    TwoD(cmd::twod::Args),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let ctx = util::Ctx {
        quiet: cli.quiet,
        verbose: cli.verbose,
    };
    let res = match cli.command {
        Command::Inspect(a) => cmd::inspect::run(a, &ctx),
        Command::Corpus(a) => cmd::corpus::run(a, &ctx),
        Command::Mannequin(a) => cmd::mannequin::run(a, &ctx),
        Command::Fit(a) => cmd::fit::run(a, &ctx),
        Command::Weights(a) => cmd::weights::run(a, &ctx),
        Command::Check(a) => cmd::check::run(a, &ctx),
        Command::Rig(a) => cmd::rig::run(a, &ctx),
        Command::Simulate(a) => cmd::simulate::run(a, &ctx),
        Command::Vrm(a) => cmd::vrm::run(a, &ctx),
        Command::TwoD(a) => cmd::twod::run(a, &ctx),
    };
    util::finish(res)
}
