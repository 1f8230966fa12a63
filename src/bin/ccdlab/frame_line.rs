//! The line `ccdlab intersections` and `ccdlab proximity` open with: the
//! frame read and its mesh.

use std::path::Path;

use ccdlab::mesh::TriMesh;

/// `path: #V V, #E E, #F F; n threads`.
pub fn frame_line(path: &Path, mesh: &TriMesh, threads: usize) -> String {
    format!(
        "{}: {} V, {} E, {} F; {threads} threads",
        path.display(),
        mesh.num_vertices(),
        mesh.num_edges(),
        mesh.num_faces()
    )
}
