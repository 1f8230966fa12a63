//! Why the discrete report could not be made.

use std::path::PathBuf;

/// Why the discrete report could not be made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DiscreteReportError {
    /// A bad command-line value.
    #[error("invalid --{name}: {message}")]
    Argument {
        /// The option.
        name: &'static str,
        /// What is wrong (with the value given).
        message: String,
    },
    /// `--out` cannot be used as the output folder.
    #[error("invalid --out {path}: {message}", path = path.display())]
    Out {
        /// The folder given.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// An output file could not be written or moved into place.
    #[error("cannot write {path}: {message}", path = path.display())]
    Write {
        /// The file or folder.
        path: PathBuf,
        /// The cause.
        message: String,
    },
    /// The results could not be written as JSON.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
}

/// A bad value of the option `--name`.
pub(super) fn argument(name: &'static str, message: impl Into<String>) -> DiscreteReportError {
    DiscreteReportError::Argument {
        name,
        message: message.into(),
    }
}
