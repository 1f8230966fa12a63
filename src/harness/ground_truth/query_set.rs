//! Elementary CCD queries with their ground truth.

use std::path::PathBuf;

use crate::math::Vec3;

/// The two elementary query kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum QueryKind {
    /// Vertex–face: rows `v, f0, f1, f2` at `t = 0`, then the same at `t = 1`.
    VertexFace,
    /// Edge–edge: rows `ea0, ea1, eb0, eb1` at `t = 0`, then the same at
    /// `t = 1`.
    EdgeEdge,
}

impl QueryKind {
    /// The data sets' folder name: `vertex-face` or `edge-edge`.
    pub fn folder_name(self) -> &'static str {
        match self {
            QueryKind::VertexFace => "vertex-face",
            QueryKind::EdgeEdge => "edge-edge",
        }
    }

    /// The data sets' file-name suffix: `vf` or `ee`.
    pub fn suffix(self) -> &'static str {
        match self {
            QueryKind::VertexFace => "vf",
            QueryKind::EdgeEdge => "ee",
        }
    }

    /// The kind named by a folder name (`vertex-face`, `edge-edge`).
    pub fn from_folder_name(name: &str) -> Option<QueryKind> {
        [QueryKind::VertexFace, QueryKind::EdgeEdge]
            .into_iter()
            .find(|k| k.folder_name() == name)
    }

    /// The kind named by the end of a file stem (`227vf`, `92ee`).
    pub fn from_stem(stem: &str) -> Option<QueryKind> {
        [QueryKind::VertexFace, QueryKind::EdgeEdge]
            .into_iter()
            .find(|k| stem.ends_with(k.suffix()))
    }
}

impl std::fmt::Display for QueryKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.folder_name())
    }
}

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
