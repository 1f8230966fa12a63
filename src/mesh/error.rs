//! Errors of mesh construction and mesh files.

use std::path::PathBuf;

use crate::printable::Printable;

/// Why a mesh or a mesh file was refused. Every variant names the element (and,
/// for files, the path and line or element index) so that the input can be
/// fixed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MeshError {
    /// The file could not be opened or read. Check the path and permissions.
    #[error("{path}: {source}", path = path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// A text line (ASCII PLY, OBJ) could not be understood. The message
    /// may quote the file's text: its control characters are displayed
    /// escaped (`\u{7f}`, `\t`, …).
    #[error("{path}:{line}: {message}", path = path.display(), message = Printable(message))]
    Syntax {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What was wrong.
        message: String,
    },
    /// An element of a binary file (PLY) is missing or malformed. Control
    /// characters of the message are shown escaped, as for
    /// [`MeshError::Syntax`].
    #[error("{path}: {element} {index}: {message}", path = path.display(), message = Printable(message))]
    Element {
        /// The file.
        path: PathBuf,
        /// The element kind (`vertex`, `face`, `header`).
        element: &'static str,
        /// 0-based index of the element.
        index: usize,
        /// What was wrong.
        message: String,
    },
    /// A binary file holds more data than its header declares.
    #[error("{path}: {bytes} bytes follow the last element the header declares (element counts do not match the data)", path = path.display())]
    TrailingData {
        /// The file.
        path: PathBuf,
        /// Number of unread bytes.
        bytes: usize,
    },
    /// A mesh file with no triangle and no edge (refused by the readers,
    /// and as a TIN; in memory such a mesh is points alone).
    #[error("the mesh has no faces and no edges")]
    NoFaces,
    /// A face refers to a vertex that does not exist.
    #[error(
        "face {face} refers to vertex {index} (both numbered from 0), but the mesh has {num_vertices} vertices"
    )]
    FaceIndexOutOfRange {
        /// 0-based face index.
        face: usize,
        /// The offending vertex index.
        index: u64,
        /// Number of vertices of the mesh.
        num_vertices: usize,
    },
    /// A face repeats a vertex (it has fewer than three distinct corners).
    /// Zero-area triangles with three distinct vertices are accepted: the exact
    /// solvers handle them.
    #[error("face {face} repeats a vertex: {indices:?} (numbered from 0)")]
    DegenerateFace {
        /// 0-based face index.
        face: usize,
        /// Its vertex indices.
        indices: [u32; 3],
    },
    /// A face has the corners of an earlier face (in any order): a repeated
    /// triangle, whose pairs would be tested twice (and a mesh of many
    /// repeats would make the BVH's work quadratic).
    #[error(
        "face {face} has the corners of face {first} (numbered from 0): a repeated triangle; drop the repeats"
    )]
    RepeatedFace {
        /// 0-based index of the repeat.
        face: usize,
        /// 0-based index of the first face with those corners.
        first: usize,
    },
    /// An edge refers to a vertex that does not exist.
    #[error(
        "edge {edge} refers to vertex {index} (both numbered from 0), but the mesh has {num_vertices} vertices"
    )]
    EdgeIndexOutOfRange {
        /// 0-based index of the edge in the list given.
        edge: usize,
        /// The offending vertex index.
        index: u64,
        /// Number of vertices of the mesh.
        num_vertices: usize,
    },
    /// An edge joins a vertex to itself.
    #[error("edge {edge} joins vertex {vertex} to itself (numbered from 0)")]
    DegenerateEdge {
        /// 0-based index of the edge in the list given.
        edge: usize,
        /// Its vertex.
        vertex: u32,
    },
    /// A face has a number of corners other than three.
    #[error("face {face} (numbered from 0) has {corners} corners; ccdlab needs triangles")]
    NotATriangle {
        /// 0-based face index.
        face: usize,
        /// Its number of corners.
        corners: usize,
    },
    /// A coordinate is NaN or infinite.
    #[error("vertex {vertex} (numbered from 0) has a non-finite coordinate {value}")]
    NonFinite {
        /// 0-based vertex index.
        vertex: usize,
        /// The offending value.
        value: f64,
    },
    /// Two frames of one step (or sequence) disagree in vertex count.
    #[error("frame has {found} vertices, expected {expected}")]
    VertexCountMismatch {
        /// The count of the first frame.
        expected: usize,
        /// The count of this frame.
        found: usize,
    },
    /// Two frames of one step (or sequence) disagree in their faces.
    #[error("{}", mismatch(("face", "faces"), *face, *expected, *found, first.as_ref().map(|f| &f[..]), here.as_ref().map(|f| &f[..])))]
    FaceMismatch {
        /// First differing face (or the shorter face count).
        face: usize,
        /// The face count of the first frame.
        expected: usize,
        /// The face count of this frame.
        found: usize,
        /// That face in the first frame (`None` past its end).
        first: Option<[u32; 3]>,
        /// That face in this frame (`None` past its end).
        here: Option<[u32; 3]>,
    },
    /// Two frames of one step (or sequence) disagree in their edges
    /// (codimensional edges, as stored).
    #[error("{}", mismatch(("edge", "edges"), *edge, *expected, *found, first.as_ref().map(|e| &e[..]), here.as_ref().map(|e| &e[..])))]
    EdgeMismatch {
        /// First differing edge (or the shorter edge count).
        edge: usize,
        /// The edge count of the first frame.
        expected: usize,
        /// The edge count of this frame.
        found: usize,
        /// That edge in the first frame (`None` past its end).
        first: Option<[u32; 2]>,
        /// That edge in this frame (`None` past its end).
        here: Option<[u32; 2]>,
    },
    /// A mesh of too many elements for 32-bit indices.
    #[error("the mesh has {count} {what}; at most 2^32 - 2 are supported")]
    TooLarge {
        /// `vertices`, `faces` or `edges`.
        what: &'static str,
        /// The count.
        count: usize,
    },
    /// The topology's arrays for this many vertices or faces do not fit in
    /// memory (a vertex count far above what the faces use, say).
    #[error("the topology of {count} {what} does not fit in memory")]
    OutOfMemory {
        /// `vertices`, `edges` or `faces`.
        what: &'static str,
        /// The count.
        count: usize,
    },
    /// The file's extension names no format ccdlab reads (`.ply`, `.obj`).
    #[error(
        "{path}: {what}; ccdlab reads .ply and .obj",
        path = if path.as_os_str().is_empty() { "(empty path)".into() } else { path.display().to_string() },
        what = if extension.is_empty() {
            "no file extension to tell the mesh format".to_string()
        } else {
            format!("unknown mesh format `{extension}`")
        }
    )]
    UnsupportedFormat {
        /// The file.
        path: PathBuf,
        /// Its extension (empty when it has none).
        extension: String,
    },
    /// An error on a given line of a text file (ASCII PLY, OBJ), such as a
    /// face that is not a triangle or refers to a missing vertex.
    #[error("{path}:{line}: {source}", path = path.display())]
    AtLine {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// The error.
        #[source]
        source: Box<MeshError>,
    },
    /// An error inside a file, with the file's path.
    #[error("{path}: {source}", path = path.display())]
    InFile {
        /// The file.
        path: PathBuf,
        /// The error.
        #[source]
        source: Box<MeshError>,
    },
    /// An error in positions given in memory, with the argument's name
    /// (`x_t0` or `x_t1` of [`super::Step::new`], `x` of a query on one
    /// frame).
    #[error("{frame}: {source}")]
    InFrame {
        /// The argument's name.
        frame: &'static str,
        /// The error.
        #[source]
        source: Box<MeshError>,
    },
}

impl MeshError {
    /// Attach a file path to an error that has none.
    pub fn in_file(self, path: impl Into<PathBuf>) -> MeshError {
        match self {
            e @ (MeshError::Io { .. }
            | MeshError::Syntax { .. }
            | MeshError::Element { .. }
            | MeshError::UnsupportedFormat { .. }
            | MeshError::AtLine { .. }
            | MeshError::TrailingData { .. }
            | MeshError::InFile { .. }) => e,
            e => MeshError::InFile {
                path: path.into(),
                source: Box::new(e),
            },
        }
    }

    /// Attach a file path and a line to an error that has no path.
    pub fn at_line(self, path: impl Into<PathBuf>, line: usize) -> MeshError {
        match self {
            e @ (MeshError::Io { .. }
            | MeshError::Syntax { .. }
            | MeshError::Element { .. }
            | MeshError::UnsupportedFormat { .. }
            | MeshError::AtLine { .. }
            | MeshError::TrailingData { .. }
            | MeshError::InFile { .. }) => e,
            e => MeshError::AtLine {
                path: path.into(),
                line,
                source: Box::new(e),
            },
        }
    }

    /// The error without its file (and line) wrappers: what went wrong.
    pub fn innermost(&self) -> &MeshError {
        match self {
            MeshError::InFile { source, .. }
            | MeshError::AtLine { source, .. }
            | MeshError::InFrame { source, .. } => source.innermost(),
            e => e,
        }
    }
}

/// The message of a frame whose faces or edges (`(one, what)`: singular,
/// plural) are not the first frame's: the counts when they differ, else the
/// first element that does, as it is in each frame.
fn mismatch(
    (one, what): (&str, &str),
    index: usize,
    expected: usize,
    found: usize,
    first: Option<&[u32]>,
    here: Option<&[u32]>,
) -> String {
    match (first, here) {
        (Some(first), Some(here)) if expected == found => format!(
            "frame's {what} differ from the first frame's: {one} {index} has vertices {here:?} \
             here and {first:?} in the first frame ({what} and vertices numbered from 0)"
        ),
        _ => format!(
            "frame has {found} {what}, the first frame {expected} (the first {index} agree)"
        ),
    }
}
