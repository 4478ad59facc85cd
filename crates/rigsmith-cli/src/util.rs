//! Shared CLI glue: output verbosity, progress bars, exit codes.

use std::process::ExitCode;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

/// Global output settings.
pub struct Ctx {
    /// Errors only.
    pub quiet: bool,
    /// Extra detail level.
    pub verbose: u8,
}

/// What a command reports back: success, or a failed check (exit 1).
pub enum Outcome {
    /// Exit 0.
    Ok,
    /// Exit 1: the command ran but a check failed.
    CheckFailed,
}

/// An error that is the user's input's fault (exit 2).
#[derive(Debug)]
pub struct BadInput(pub String);
impl std::fmt::Display for BadInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for BadInput {}

impl Ctx {
    /// A spinner for a stage that may take over a second; hidden when quiet or when
    /// stderr is not a terminal.
    pub fn stage(&self, msg: &str) -> ProgressBar {
        let pb = if self.quiet {
            ProgressBar::hidden()
        } else {
            ProgressBar::new_spinner()
        };
        pb.set_style(
            ProgressStyle::with_template("{spinner} {msg} {elapsed}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        pb.set_message(msg.to_string());
        pb.enable_steady_tick(Duration::from_millis(120));
        pb
    }
    /// Prints a line to stderr unless quiet.
    pub fn info(&self, msg: &str) {
        if !self.quiet {
            eprintln!("{msg}");
        }
    }
}

/// Maps a command's result to the process exit code: library errors about input
/// (format, invalid data, a stage that cannot do its job) exit 2.
pub fn finish(res: anyhow::Result<Outcome>) -> ExitCode {
    match res {
        Ok(Outcome::Ok) => ExitCode::SUCCESS,
        Ok(Outcome::CheckFailed) => ExitCode::from(1),
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
