//! Reading meshes and steps from files: format dispatch, and the checks that
//! turn two frames into a [`TriMesh`] with two position arrays.
//!
//! Every error names the file (and the line or element where one is known);
//! no input makes these functions panic.

use std::path::Path;

use super::{MeshError, TriMesh, check_finite, obj, ply};
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
    std::fs::read(path).map_err(|source| MeshError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Reads a `.ply` or `.obj` mesh (extension case-insensitive).
pub fn read_mesh(path: &Path) -> Result<MeshData, MeshError> {
    match MeshFormat::from_path(path)? {
        MeshFormat::Ply => ply::read_ply(path),
        MeshFormat::Obj => obj::read_obj(path),
    }
}

/// Reads the two frames of one step and builds their shared topology.
///
/// Both files must hold the same number of vertices
/// ([`MeshError::VertexCountMismatch`]) and identical faces
/// ([`MeshError::FaceMismatch`]), and every coordinate must be finite
/// ([`MeshError::NonFinite`]); each error names the file it was found in.
pub fn read_step(
    path_t0: &Path,
    path_t1: &Path,
) -> Result<(TriMesh, Vec<Vec3>, Vec<Vec3>), MeshError> {
    let m0 = read_mesh(path_t0)?;
    let m1 = read_mesh(path_t1)?;
    check_finite(&m0.positions).map_err(|e| e.in_file(path_t0))?;
    check_finite(&m1.positions).map_err(|e| e.in_file(path_t1))?;
    if m1.positions.len() != m0.positions.len() {
        return Err(MeshError::VertexCountMismatch {
            expected: m0.positions.len(),
            found: m1.positions.len(),
        }
        .in_file(path_t1));
    }
    if m1.faces != m0.faces {
        let face = m0
            .faces
            .iter()
            .zip(&m1.faces)
            .position(|(a, b)| a != b)
            .unwrap_or(m0.faces.len().min(m1.faces.len()));
        return Err(MeshError::FaceMismatch { face }.in_file(path_t1));
    }
    let mesh = TriMesh::new(m0.positions.len(), m0.faces).map_err(|e| e.in_file(path_t0))?;
    Ok((mesh, m0.positions, m1.positions))
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let e = MeshFormat::from_path(Path::new("/dev/null")).unwrap_err();
        assert!(e.to_string().contains("no file extension"), "{e}");
        let e = MeshFormat::from_path(Path::new("mesh.stl")).unwrap_err();
        assert!(e.to_string().contains("`stl`"), "{e}");
    }
}
