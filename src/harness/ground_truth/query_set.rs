//! Elementary CCD queries with their ground truth.

use std::path::PathBuf;

use crate::math::Vec3;
pub use crate::pair_kernel::QueryKind;

/// A file's worth of elementary queries, in the data sets' row order (see
/// [`QueryKind`]).
#[derive(Debug, Clone, PartialEq)]
pub struct QuerySet {
    /// The file the queries came from (query CSV, or boxes JSON).
    pub path: PathBuf,
    /// Vertex–face or edge–edge.
    pub kind: QueryKind,
    /// Eight points per query: the four at `t = 0`, then the four at `t = 1`.
    pub points: Vec<[Vec3; 8]>,
    /// The exact answer per query (`true`: they collide in `[0, 1]`), when
    /// known.
    pub truth: Option<Vec<bool>>,
}

impl QuerySet {
    /// Number of queries.
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// `true` when the set holds no query.
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }
}
