//! `rigsmith`: the command-line tool. Argument parsing, progress and output only; all
//! logic lives in the library crates.
//!
//! Exit codes: 0 ok, 1 a check failed (a blocker), 2 bad input or usage.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cmd;
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
    /// The built-in procedural mannequin.
    Mannequin(cmd::mannequin::Args),
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
        Command::Mannequin(a) => cmd::mannequin::run(a, &ctx),
    };
    util::finish(res)
}
