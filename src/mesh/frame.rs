//! Vertex positions of one frame, and a step between two frames.

use super::{MeshError, TriMesh};
use crate::math::Vec3;

/// Checks that every coordinate is finite.
pub fn check_finite(positions: &[Vec3]) -> Result<(), MeshError> {
    for (vertex, p) in positions.iter().enumerate() {
        for value in [p.x, p.y, p.z] {
            if !value.is_finite() {
                return Err(MeshError::NonFinite { vertex, value });
            }
        }
    }
    Ok(())
}

/// One step of a deforming mesh: every vertex moves linearly from `x_t0` to
/// `x_t1` over `t ∈ [0, 1]`.
#[derive(Debug, Clone, Copy)]
pub struct Step<'a> {
    /// Topology, shared by both frames.
    pub mesh: &'a TriMesh,
    /// Positions at `t = 0`.
    pub x_t0: &'a [Vec3],
    /// Positions at `t = 1`.
    pub x_t1: &'a [Vec3],
}

impl<'a> Step<'a> {
    /// Pairs two frames of `mesh`, checking vertex counts and finiteness.
    pub fn new(mesh: &'a TriMesh, x_t0: &'a [Vec3], x_t1: &'a [Vec3]) -> Result<Self, MeshError> {
        for x in [x_t0, x_t1] {
            if x.len() != mesh.num_vertices() {
                return Err(MeshError::VertexCountMismatch {
                    expected: mesh.num_vertices(),
                    found: x.len(),
                });
            }
            check_finite(x)?;
        }
        Ok(Step { mesh, x_t0, x_t1 })
    }
}
