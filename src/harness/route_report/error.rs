//! Why a route could not be flown or its report written.

use std::path::{Path, PathBuf};

use crate::tin_contact::route::RouteError;

/// Why a route could not be flown or its report written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RouteReportError {
    /// A bad input file or value.
    #[error(transparent)]
    Input(#[from] RouteError),
    /// A bad command-line combination.
    #[error("invalid --{name}: {message}")]
    Argument {
        /// The option.
        name: &'static str,
        /// What is wrong.
        message: String,
    },
    /// An output file could not be written.
    #[error("cannot write {path}: {message}", path = path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The cause.
        message: String,
    },
    /// The `--out` folder holds something that is not a report of this
    /// command; choose another folder or empty it.
    #[error(
        "{path}: {why}, so it is not a report of `ccdlab route`; refusing to replace it: choose another --out",
        path = path.display()
    )]
    NotARouteReport {
        /// The folder.
        path: PathBuf,
        /// What is there.
        why: String,
    },
}

/// A bad value of the option `--name`.
pub(super) fn argument(name: &'static str, message: impl Into<String>) -> RouteReportError {
    RouteReportError::Argument {
        name,
        message: message.into(),
    }
}

/// An I/O error on `path`, named.
pub(super) fn write_error(path: &Path, e: std::io::Error) -> RouteReportError {
    RouteReportError::Write {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}
