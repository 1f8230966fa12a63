//! Reading meshes and steps from files: format dispatch, and the checks that
//! turn two frames into a [`TriMesh`] with two position arrays.
//!
//! Every error names the file (and the line or element where one is known);
//! no input makes these functions panic.

use std::path::Path;

use super::{MeshError, TriMesh, check_finite, check_mesh, obj, ply};
use crate::math::Vec3;

/// The content of one mesh file: vertex positions and triangles, as stored.
///
/// Face indices are checked against the vertex count; repeated corners and
/// non-finite coordinates are not refused here (see [`read_step`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MeshData {
    /// Vertex positions (f32 files widened exactly).
    pub positions: Vec<Vec3>,
    /// Triangles, 0-based vertex indices.
    pub faces: Vec<[u32; 3]>,
    /// Codimensional edges (OBJ `l` lines, a PLY `edge` element), 0-based
    /// vertex indices, as stored (see [`TriMesh::with_edges`]).
    pub edges: Vec<[u32; 2]>,
}

/// The mesh formats [`read_mesh`] knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MeshFormat {
    /// Stanford PLY (ASCII or binary).
    Ply,
    /// Wavefront OBJ.
    Obj,
}

impl MeshFormat {
    /// The format named by `path`'s extension (case-insensitive).
    pub fn from_path(path: &Path) -> Result<MeshFormat, MeshError> {
        let extension = path
            .extension()
            .map(|e| e.to_string_lossy().into_owned())
            .unwrap_or_default();
        match extension.to_ascii_lowercase().as_str() {
            "ply" => Ok(MeshFormat::Ply),
            "obj" => Ok(MeshFormat::Obj),
            _ => Err(MeshError::UnsupportedFormat {
                path: path.to_path_buf(),
                extension,
            }),
        }
    }
}

/// Reads the whole file, naming it in the error.
pub(crate) fn read_bytes(path: &Path) -> Result<Vec<u8>, MeshError> {
    crate::io::read_input(path).map_err(|source| MeshError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Reads a `.ply` or `.obj` mesh (extension case-insensitive).
pub fn read_mesh(path: &Path) -> Result<MeshData, MeshError> {
    read_mesh_located(path).map(|(m, _)| m)
}

/// [`read_mesh`], and, in a text file, the line of the first vertex with a
/// non-finite coordinate, if any.
fn read_mesh_located(path: &Path) -> Result<(MeshData, Option<usize>), MeshError> {
    let format = MeshFormat::from_path(path)?;
    let bytes = read_bytes(path)?;
    match format {
        MeshFormat::Ply => ply::parse_ply_located(path, &bytes),
        MeshFormat::Obj => obj::parse_obj_located(path, &bytes),
    }
}

/// Reads the two frames of one step and builds their shared topology.
///
/// Each frame is checked on its own first, and a fault is reported against
/// the file that has it: faces and edges (at least one of them,
/// [`MeshError::NoFaces`]; [`check_mesh`]: indices in range, three distinct
/// corners, two distinct ends) and
/// finite coordinates ([`MeshError::NonFinite`]). Then the second frame must
/// hold as many vertices as the first ([`MeshError::VertexCountMismatch`]),
/// the same faces ([`MeshError::FaceMismatch`]) and the same edges
/// ([`MeshError::EdgeMismatch`]), reported against the second file. Last,
/// building the topology refuses a face with the corners of an earlier one
/// ([`MeshError::RepeatedFace`]), reported against the first file.
pub fn read_step(
    path_t0: &Path,
    path_t1: &Path,
) -> Result<(TriMesh, Vec<Vec3>, Vec<Vec3>), MeshError> {
    let m0 = read_frame(path_t0)?;
    let m1 = read_frame(path_t1)?;
    check_same_topology(m0.positions.len(), &m0.faces, &m0.edges, &m1)
        .map_err(|e| e.in_file(path_t1))?;
    let mesh = TriMesh::with_edges(m0.positions.len(), m0.faces, &m0.edges)
        .map_err(|e| e.in_file(path_t0))?;
    Ok((mesh, m0.positions, m1.positions))
}

/// Reads one frame ([`read_frame`]: checked on its own, the file named in
/// every error) and builds its topology: the mesh and the positions that
/// [`crate::pipeline::intersections()`] and [`crate::pipeline::proximity()`]
/// take, as [`read_step`] reads a step's.
pub fn read_frame_mesh(path: &Path) -> Result<(TriMesh, Vec<Vec3>), MeshError> {
    let frame = read_frame(path)?;
    let mesh = TriMesh::with_edges(frame.positions.len(), frame.faces, &frame.edges)
        .map_err(|e| e.in_file(path))?;
    Ok((mesh, frame.positions))
}

/// Reads one frame and checks it on its own (faces, edges and finite
/// coordinates), naming the file in every error, and the line of a
/// non-finite coordinate in a text file. A file with no faces and no edges
/// is refused ([`MeshError::NoFaces`]): far more often a misread file (a
/// misspelt element, say) than a frame of points alone, which the library
/// takes in memory.
pub fn read_frame(path: &Path) -> Result<MeshData, MeshError> {
    let (m, non_finite_line) = read_mesh_located(path)?;
    if m.faces.is_empty() && m.edges.is_empty() {
        return Err(MeshError::NoFaces.in_file(path));
    }
    check_mesh(m.positions.len(), &m.faces, &m.edges).map_err(|e| e.in_file(path))?;
    check_finite(&m.positions).map_err(|e| match non_finite_line {
        Some(line) => e.at_line(path, line),
        None => e.in_file(path),
    })?;
    Ok(m)
}

/// `Ok` when `frame` has `num_vertices` vertices and exactly `faces` and
/// `edges` as stored (those of a sequence's first frame).
pub fn check_same_topology(
    num_vertices: usize,
    faces: &[[u32; 3]],
    edges: &[[u32; 2]],
    frame: &MeshData,
) -> Result<(), MeshError> {
    if frame.positions.len() != num_vertices {
        return Err(MeshError::VertexCountMismatch {
            expected: num_vertices,
            found: frame.positions.len(),
        });
    }
    if let Some(face) = first_face_difference(faces, &frame.faces) {
        return Err(MeshError::FaceMismatch {
            face,
            expected: faces.len(),
            found: frame.faces.len(),
            first: faces.get(face).copied(),
            here: frame.faces.get(face).copied(),
        });
    }
    if let Some(edge) = first_difference(edges, &frame.edges) {
        return Err(MeshError::EdgeMismatch {
            edge,
            expected: edges.len(),
            found: frame.edges.len(),
            first: edges.get(edge).copied(),
            here: frame.edges.get(edge).copied(),
        });
    }
    Ok(())
}

/// The first face at which two face lists differ (the shorter one's length
/// when one continues the other), or `None` when they are equal.
pub(crate) fn first_face_difference(a: &[[u32; 3]], b: &[[u32; 3]]) -> Option<usize> {
    first_difference(a, b)
}

/// The first index at which two lists differ (the shorter one's length when
/// one continues the other), or `None` when they are equal.
fn first_difference<T: PartialEq>(a: &[T], b: &[T]) -> Option<usize> {
    if a == b {
        return None;
    }
    Some(
        a.iter()
            .zip(b)
            .position(|(x, y)| x != y)
            .unwrap_or(a.len().min(b.len())),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::Scratch;

    /// One frame and its topology; a repeated face is named in the file.
    #[test]
    fn read_frame_mesh_builds_the_topology_and_names_the_file() {
        let dir = Scratch::new("read-frame-mesh");
        let square = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3\nf 1 3 4\n";
        let (mesh, x) = read_frame_mesh(&dir.file("square.obj", square)).unwrap();
        assert_eq!(
            (mesh.num_vertices(), mesh.num_faces(), mesh.num_edges()),
            (4, 2, 5)
        );
        assert_eq!(x[2], Vec3::new(1.0, 1.0, 0.0));
        let twice = dir.file("twice.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 2 3 1\n");
        let e = read_frame_mesh(&twice).unwrap_err();
        assert!(
            matches!(e.innermost(), MeshError::RepeatedFace { .. }),
            "{e}"
        );
        assert!(e.to_string().contains("twice.obj"), "{e}");
    }

    #[test]
    fn extensions_are_case_insensitive_and_unknown_ones_refused() {
        assert_eq!(
            MeshFormat::from_path(Path::new("a/B.PLY")).unwrap(),
            MeshFormat::Ply
        );
        assert_eq!(
            MeshFormat::from_path(Path::new("x.Obj")).unwrap(),
            MeshFormat::Obj
        );
        for bad in ["mesh.stl", "mesh", "ply"] {
            let e = MeshFormat::from_path(Path::new(bad)).unwrap_err();
            assert!(matches!(e, MeshError::UnsupportedFormat { .. }), "{bad}");
            assert!(e.to_string().contains(bad), "{e}");
        }
        let e = MeshFormat::from_path(Path::new("")).unwrap_err();
        assert!(
            e.to_string().starts_with("(empty path): no file extension"),
            "{e}"
        );
        let e = MeshFormat::from_path(Path::new("/dev/null")).unwrap_err();
        assert!(e.to_string().contains("no file extension"), "{e}");
        let e = MeshFormat::from_path(Path::new("mesh.stl")).unwrap_err();
        assert!(e.to_string().contains("`stl`"), "{e}");
    }
}
