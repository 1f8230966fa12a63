//! Why the polygon report or a single query could not be made.

use std::path::PathBuf;

use crate::harness::output::StageError;
use crate::polygon::PolygonError;
use crate::polygon::evaluate::PrepareError;

/// Errors of the polygon report and of `ccdlab polygons query`.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PolygonReportError {
    /// A bad command-line value.
    #[error("invalid --{name}: {message}")]
    Argument {
        /// The option.
        name: &'static str,
        /// What is wrong.
        message: String,
    },
    /// The input file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The input file is not the expected JSON.
    #[error("{path}: line {line}, column {column}: {message}")]
    Json {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What serde_json says.
        message: String,
    },
    /// A polygon in the input is invalid.
    #[error("{path}: polygon \"{which}\": {source}")]
    Polygon {
        /// The file.
        path: PathBuf,
        /// "a" or "b".
        which: &'static str,
        /// The cause (names the vertex or edge).
        source: PolygonError,
    },
    /// A polygon in the input has more than [`MAX_VERTICES`](super::MAX_VERTICES) vertices.
    #[error(
        "{path}: polygon \"{which}\" has {count} vertices; at most {max} are accepted \
         (the paper's method costs about n³ operations)"
    )]
    TooManyVertices {
        /// The file.
        path: PathBuf,
        /// "a" or "b".
        which: &'static str,
        /// Its vertex count.
        count: usize,
        /// The limit.
        max: usize,
    },
    /// A pair could not be prepared.
    #[error("{path}: {source}")]
    Prepare {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: PrepareError,
    },
    /// `--out` cannot be used, or the report could not be moved into it.
    #[error("cannot write {0}")]
    Out(StageError),
    /// An output file could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The figure could not be drawn.
    #[error("cannot draw {path}: {message}")]
    Plot {
        /// The file.
        path: PathBuf,
        /// What plotters says.
        message: String,
    },
}

/// A bad value of the option `--name`.
pub(super) fn argument(name: &'static str, message: impl Into<String>) -> PolygonReportError {
    PolygonReportError::Argument {
        name,
        message: message.into(),
    }
}
