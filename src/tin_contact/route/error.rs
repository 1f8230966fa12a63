//! Errors of the route application: every way a terrain, an object or a
//! route can be refused, naming the file (or `<inline>`) and the element.

use std::path::PathBuf;

use crate::mesh::MeshError;
use crate::printable::Printable;

/// Why a route scenario was refused. Each variant says what to fix; text
/// quoted from a file is displayed with its control characters escaped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RouteError {
    /// A mesh file (terrain or object) could not be read or is not a valid
    /// triangle mesh (out-of-range indices, no faces, NaN coordinates, …);
    /// the inner error names the file and line or element.
    #[error("{role} mesh: {source}")]
    Mesh {
        /// `terrain` or `object`.
        role: &'static str,
        /// The cause.
        #[source]
        source: MeshError,
    },
    /// A mesh file holds no triangle, only edges in no face (OBJ `l`
    /// lines, a PLY `edge` element), which a TIN surface does not use.
    #[error("{role} mesh: {path}: no triangles, only {edges} edge(s) in no face; a TIN is a triangle surface", path = path.display())]
    NoTriangles {
        /// `terrain` or `object`.
        role: &'static str,
        /// The file.
        path: PathBuf,
        /// How many edges it holds.
        edges: usize,
    },
    /// A file could not be read. Check the path.
    #[error("{path}: {source}", path = path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// A line of a route or grid file could not be understood.
    #[error("{path}:{line}: {message}", path = path.display(), message = Printable(message))]
    Syntax {
        /// The file (`<inline>` for an inline route).
        path: PathBuf,
        /// 1-based line (for an inline route: 1-based waypoint).
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A route needs at least two waypoints (one segment).
    #[error("{path}: the route has {waypoints} waypoint(s); give at least 2", path = path.display())]
    TooFewWaypoints {
        /// The file.
        path: PathBuf,
        /// How many it has.
        waypoints: usize,
    },
    /// A waypoint has a NaN or infinite coordinate or time.
    #[error("{path}: waypoint {waypoint} (line {line}) has a non-finite value {value}", path = path.display())]
    NonFiniteWaypoint {
        /// The file.
        path: PathBuf,
        /// 0-based waypoint index.
        waypoint: usize,
        /// 1-based line.
        line: usize,
        /// The value.
        value: f64,
    },
    /// Waypoint times must be given for all waypoints or none, and increase
    /// strictly.
    #[error("{path}: waypoint {waypoint} (line {line}): {message}", path = path.display(), message = Printable(message))]
    BadTime {
        /// The file.
        path: PathBuf,
        /// 0-based waypoint index.
        waypoint: usize,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A height grid is not usable (too small, bad step, wrong count, NaN
    /// height); the message names the row and column where one is at fault.
    #[error("{path}: height grid: {message}", path = path.display(), message = Printable(message))]
    Grid {
        /// The file (`<generated>` for a grid built in code).
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// A value is too large for the route application: a coordinate (of a
    /// mesh vertex, a waypoint or a height grid) beyond
    /// ±[`MAX_COORDINATE`](super::MAX_COORDINATE), or a route whose length
    /// overflows. Rescale the units.
    #[error("{path}: {element}: {message}", path = path.display(), message = Printable(message))]
    OutOfRange {
        /// The file (`<inline>` for an inline route).
        path: PathBuf,
        /// The vertex, waypoint (with its line) or sample.
        element: String,
        /// What is wrong.
        message: String,
    },
    /// A parameter of the flight is invalid (speed, heading, turn step).
    #[error("invalid {what}: {message}")]
    Parameter {
        /// The parameter.
        what: &'static str,
        /// What is wrong.
        message: String,
    },
}
