//! Errors of the ground-truth files.

use std::path::PathBuf;

use crate::mesh::MeshError;
use crate::printable::Printable;

/// Why a query, truth or boxes file (or a folder of them) was refused. Every
/// variant names the file, and the line (and field) or entry where one is
/// known.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DataError {
    /// The file or folder could not be read.
    #[error("{path}: {source}", path = path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// A JSON file (truth, boxes) is malformed or has the wrong shape; the
    /// JSON error carries the line and column.
    #[error("{path}: {source}", path = path.display())]
    Json {
        /// The file.
        path: PathBuf,
        /// The parser's error (with line and column).
        #[source]
        source: serde_json::Error,
    },
    /// A row of a query CSV could not be understood (the file's text that
    /// the message quotes is displayed with its control characters escaped).
    #[error("{path}:{line}{field}: {message}", path = path.display(),
        field = column.map(|c| format!(": field {c}")).unwrap_or_default(),
        message = Printable(message))]
    Csv {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// 1-based field (column), where one is to blame.
        column: Option<usize>,
        /// What was wrong.
        message: String,
    },
    /// A query CSV holds no rows.
    #[error("{path}: the file holds no queries", path = path.display())]
    Empty {
        /// The file.
        path: PathBuf,
    },
    /// The number of rows is not a multiple of 8 (8 rows per query).
    #[error("{path}: {rows} rows is not a multiple of 8 (8 rows per query); the last query, from line {line}, is incomplete", path = path.display())]
    IncompleteQuery {
        /// The file.
        path: PathBuf,
        /// Number of data rows.
        rows: usize,
        /// 1-based line of the incomplete query's first row.
        line: usize,
    },
    /// A truth file has a different number of entries than its query file
    /// has queries.
    #[error("{truth} has {num_truth} truth values, but {queries} has {num_queries} queries", truth = truth.display(), queries = queries.display())]
    TruthCount {
        /// The query file (CSV or boxes).
        queries: PathBuf,
        /// The truth file.
        truth: PathBuf,
        /// Number of queries.
        num_queries: usize,
        /// Number of truth values.
        num_truth: usize,
    },
    /// A query file's own truth column disagrees with a separate truth file.
    #[error("{truth}: query {query} is {in_truth}, but {queries} says {in_queries}", truth = truth.display(), queries = queries.display())]
    TruthConflict {
        /// The query file.
        queries: PathBuf,
        /// The truth file.
        truth: PathBuf,
        /// 0-based index of the first differing query.
        query: usize,
        /// Its truth in the query file.
        in_queries: bool,
        /// Its truth in the truth file.
        in_truth: bool,
    },
    /// A candidate pair names features that do not exist or do not form a
    /// vertex–face / edge–edge pair.
    #[error("pair {pair} {ids:?}: {message}")]
    Pair {
        /// 0-based index of the pair.
        pair: usize,
        /// Its two global IDs.
        ids: [u64; 2],
        /// What was wrong.
        message: String,
    },
    /// The queries of a candidate list need more memory than can be
    /// reserved (a whole Scalable-CCD step's candidates, say).
    #[error(
        "{pairs} candidate pairs need {bytes} bytes of queries, more than could be reserved; score a smaller step"
    )]
    TooManyPairs {
        /// The pairs.
        pairs: usize,
        /// The bytes their queries need.
        bytes: usize,
    },
    /// A path holds no query files, or files whose role cannot be told.
    #[error("{path}: {message}", path = path.display())]
    Discovery {
        /// The file or folder.
        path: PathBuf,
        /// What was wrong.
        message: String,
    },
    /// An error inside a file, with the file's path.
    #[error("{path}: {source}", path = path.display())]
    InFile {
        /// The file.
        path: PathBuf,
        /// The error.
        #[source]
        source: Box<DataError>,
    },
    /// A mesh file (frames behind a boxes file) was refused; the mesh error
    /// names the file.
    #[error(transparent)]
    Mesh(#[from] MeshError),
}
