//! Which elementary query: vertex–face or edge–edge.

/// The two elementary query kinds (serialised as `"vf"` / `"ee"`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum QueryKind {
    /// Vertex–face: rows `v, f0, f1, f2` at `t = 0`, then the same at `t = 1`.
    #[serde(rename = "vf")]
    VertexFace,
    /// Edge–edge: rows `ea0, ea1, eb0, eb1` at `t = 0`, then the same at
    /// `t = 1`.
    #[serde(rename = "ee")]
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
