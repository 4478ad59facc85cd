//! The one error type of the crate.
//!
//! Bad input is always one of these, never a panic: a document that does not parse
//! says which file and which JSON path (`skins.default.slots.leg.leg.y`) is wrong; a
//! rig that parses but cannot be built says why in rigging terms.

/// Everything that can go wrong reading, checking, building or rendering a 2D rig.
#[derive(Debug, thiserror::Error)]
pub enum RigError {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The operating-system error.
        source: std::io::Error,
    },
    /// A document is malformed; `at` is the JSON path of the fault (`bones[2].x`).
    #[error("{file}: {at}: {msg}")]
    Format {
        /// The file (or `<document>` for in-memory input).
        file: String,
        /// The JSON path of the fault.
        at: String,
        /// What is wrong there.
        msg: String,
    },
    /// The rig's structure cannot be built: a cycle, a dangling reference, a duplicate name.
    #[error("the rig cannot be built: {0}")]
    Structure(String),
    /// A nested chain asks for a draw order the stage cannot give.
    #[error("the rig cannot be built: {0}")]
    DrawOrder(String),
    /// A nested chain carries a rest pose the stage cannot apply.
    #[error("the rig cannot be built: {0}")]
    Pose(String),
    /// A document kind the rest-pose registry does not know.
    #[error("{0}")]
    UnknownKind(String),
    /// A bone names a pivot the skeleton art does not have, or the art has no skeleton.
    #[error("{file}: {msg}")]
    Pivot {
        /// The skeleton SVG.
        file: String,
        /// Which bone and what is wrong.
        msg: String,
    },
    /// A part's art is missing and the build is strict.
    #[error("missing art (strict): {0}")]
    MissingArt(String),
    /// A part's art is present but cannot be decoded or drawn.
    #[error("{path}: {msg}")]
    Art {
        /// The art file.
        path: String,
        /// What is wrong with it.
        msg: String,
    },
}

impl RigError {
    /// A [`RigError::Format`] for an in-memory document.
    pub fn format(at: impl Into<String>, msg: impl Into<String>) -> Self {
        RigError::Format {
            file: "<document>".into(),
            at: at.into(),
            msg: msg.into(),
        }
    }

    /// The same error, naming `file` when it is a format error.
    pub fn in_file(self, file: &std::path::Path) -> Self {
        match self {
            RigError::Format { at, msg, .. } => RigError::Format {
                file: file.display().to_string(),
                at,
                msg,
            },
            e => e,
        }
    }

    /// An [`RigError::Io`] for `path`.
    pub fn io(path: &std::path::Path, source: std::io::Error) -> Self {
        RigError::Io {
            path: path.display().to_string(),
            source,
        }
    }
}

/// Formats a float the way the rig's messages always have (Python's `repr`):
/// `512.0`, `0.5`, `nan`, `inf`.
pub fn num(v: f64) -> String {
    if v.is_nan() {
        "nan".into()
    } else if v.is_infinite() {
        if v > 0.0 { "inf" } else { "-inf" }.into()
    } else {
        format!("{v:?}")
    }
}
