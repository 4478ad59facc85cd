//! The library's error type. Every error that comes from a file names the file and,
//! where there is one, the path of the fault inside it (`meshes[2].primitives[0].JOINTS_0`).

use std::path::PathBuf;

/// Result alias for the library.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong in rigsmith.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The file is malformed; `at` is the path of the fault inside it (may be empty).
    #[error("{path}: {at}{sep}{msg}", sep = if at.is_empty() { "" } else { ": " })]
    Format {
        /// The file.
        path: PathBuf,
        /// Where in the file, e.g. `meshes[2].primitives[0].JOINTS_0`.
        at: String,
        /// What is wrong.
        msg: String,
    },
    /// The data is structurally invalid (a skeleton with a cycle, weights on a missing bone...).
    #[error("invalid {what}: {msg}")]
    Invalid {
        /// What was checked (`skeleton`, `weights`, `part "shirt"`...).
        what: String,
        /// What is wrong.
        msg: String,
    },
    /// A stage could not do its job on this input (a landmark could not be found...).
    #[error("{stage}: {msg}")]
    Stage {
        /// The stage (`fit`, `bind`, ...).
        stage: &'static str,
        /// What failed and why, in plain words.
        msg: String,
    },
    /// The character already has a skeleton and the caller did not ask to replace or
    /// keep it ([`crate::pipeline::Rigged`]).
    #[error("character is already rigged ({joints} joints); its skeleton and weights are not replaced unless asked")]
    AlreadyRigged {
        /// Joints in its skeleton.
        joints: usize,
    },
}

/// The two kinds of failure a caller tells apart (a command line maps them to exit
/// codes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The input is wrong: malformed, invalid, or something a stage cannot work on.
    Input,
    /// Reading or writing a file failed (missing, permissions, a full disk).
    Io,
}

impl Error {
    /// Which kind of failure this is.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::Io { .. } => ErrorKind::Io,
            _ => ErrorKind::Input,
        }
    }
    /// A format error in `path` at `at`.
    pub fn format(path: impl Into<PathBuf>, at: impl Into<String>, msg: impl Into<String>) -> Self {
        Error::Format {
            path: path.into(),
            at: at.into(),
            msg: msg.into(),
        }
    }
    /// An I/O error on `path`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }
    /// An invariant violation.
    pub fn invalid(what: impl Into<String>, msg: impl Into<String>) -> Self {
        Error::Invalid {
            what: what.into(),
            msg: msg.into(),
        }
    }
    /// A stage failure.
    pub fn stage(stage: &'static str, msg: impl Into<String>) -> Self {
        Error::Stage {
            stage,
            msg: msg.into(),
        }
    }
}
