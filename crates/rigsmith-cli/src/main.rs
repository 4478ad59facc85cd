//! `rigsmith`: the command-line tool. Argument parsing, progress and output only; all
//! logic lives in the library crates.
//!
//! Exit codes: 0 ok, 1 a check failed (a blocker), 2 bad input or usage, 3 a file could
//! not be read or written ([`util::exit_code`]; `docs/troubleshooting.md`).
//!
//! One grammar for every command: `-o FILE` is the main output, `--report DIR` the
//! review (HTML, JSON, sheets), `--json` the result as JSON on stdout, `-q`/`-v` less
//! or more text. No command writes over one of its inputs, and every output path is
//! checked before anything is written.

use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

mod cmd;
mod sheets;
mod summary;
mod util;

/// Headless character rigging.
#[derive(Parser)]
#[command(
    name = "rigsmith",
    version,
    about = "Headless character rigging: fit, weight, check and export game-ready rigs",
    after_help = "Examples:
  rigsmith rig body.glb -o rigged.glb --report review/   # rig, check, export; open review/report.html
  rigsmith check rigged.glb --report review/
  rigsmith vrm rigged.glb -o avatar.vrm
  rigsmith rig --demo -o mannequin.glb                   # the built-in mannequin

`rigsmith COMMAND --help` shows each command's options and examples."
)]
struct Cli {
    /// Less output (errors only).
    #[arg(short, long, global = true)]
    quiet: bool,
    /// More output (every failed check, notes).
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    verbose: u8,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Rig a character in one command: fit, weight, check, export.
    Rig(cmd::rig::Args),
    /// Check a rig the way a lead rigger would (the rubric).
    Check(cmd::check::Args),
    /// Bake a control animation into deform-bone animation (needs `rig --control`).
    Bake(cmd::bake::Args),
    /// Export a rigged character as VRM 1.0 (rigging it first if needed).
    Vrm(cmd::vrm::Args),
    /// Simulate secondary motion (springs) on a rigged character.
    Simulate(cmd::simulate::Args),
    /// Fit a skeleton to an unrigged character.
    Fit(cmd::fit::Args),
    /// Compute skin weights for a character and a skeleton.
    Weights(cmd::weights::Args),
    /// Quick look at a model: parts, skeleton, chains, weights.
    Inspect(cmd::inspect::Args),
    /// Write the built-in procedural mannequin.
    Mannequin(cmd::mannequin::Args),
    /// Build characters from the MakeHuman (MPFB2) corpus.
    Corpus(cmd::corpus::Args),
    /// 2D cut-out rigs.
    #[command(name = "2d")]
    TwoD(cmd::twod::Args),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    #[command(after_help = "Examples:
  rigsmith completions bash > ~/.local/share/bash-completion/completions/rigsmith
  rigsmith completions zsh > ~/.zfunc/_rigsmith
  rigsmith completions fish > ~/.config/fish/completions/rigsmith.fish")]
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

/// A closed pipe (`rigsmith check x.glb | head -1`) ends the process quietly with the
/// status a shell gives a process ended by SIGPIPE (141), as other command-line tools
/// do, instead of a panic message on the next print.
fn quiet_broken_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let p = info.payload();
        let msg = p
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| p.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if msg.contains("Broken pipe") || msg.contains("os error 32") {
            std::process::exit(141);
        }
        default(info);
    }));
}

fn main() -> ExitCode {
    quiet_broken_pipe();
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
        Command::Bake(a) => cmd::bake::run(a, &ctx),
        Command::Simulate(a) => cmd::simulate::run(a, &ctx),
        Command::Vrm(a) => cmd::vrm::run(a, &ctx),
        Command::TwoD(a) => cmd::twod::run(a, &ctx),
        Command::Completions { shell } => {
            let mut cmd = Cli::command();
            clap_complete::generate(shell, &mut cmd, "rigsmith", &mut std::io::stdout());
            Ok(util::Outcome::Ok)
        }
    };
    util::finish(res)
}
