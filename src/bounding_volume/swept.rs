//! Swept k-DOPs of every vertex, edge and face of a step (Wan, Fu & Yao 2022,
//! §1.1: the BVs of the features below the triangle leaves), in mesh order.
//!
//! An edge's or face's k-DOP is the merge of its vertices' swept k-DOPs, which
//! is exact (min/max only), so a feature's k-DOP contains the swept k-DOP of
//! each of its vertices bit for bit. The BVH (`broad_phase`) computes the same
//! values in its own memory layout, with the same functions.
//!
//! docs/design.md §2.1 (the swept BVs) and §6 (their outward rounding, closed
//! overlap).

use super::Kdop;
use crate::mesh::Step;

/// Swept k-DOP of every vertex: `Kdop::from_swept_point(x_t0[i], x_t1[i])`.
pub fn swept_vertex_kdops<const N: usize>(step: &Step<'_>) -> Vec<Kdop<N>> {
    step.x_t0
        .iter()
        .zip(step.x_t1)
        .map(|(p0, p1)| Kdop::from_swept_point(p0, p1))
        .collect()
}

/// Swept k-DOP of every edge (libigl order), from the vertices' k-DOPs.
pub fn swept_edge_kdops<const N: usize>(step: &Step<'_>, vertex: &[Kdop<N>]) -> Vec<Kdop<N>> {
    step.mesh
        .edges()
        .iter()
        .map(|&[a, b]| vertex[a as usize].merge(&vertex[b as usize]))
        .collect()
}

/// Swept k-DOP of every face, from the vertices' k-DOPs.
pub fn swept_face_kdops<const N: usize>(step: &Step<'_>, vertex: &[Kdop<N>]) -> Vec<Kdop<N>> {
    step.mesh
        .faces()
        .iter()
        .map(|&[a, b, c]| {
            vertex[a as usize]
                .merge(&vertex[b as usize])
                .merge(&vertex[c as usize])
        })
        .collect()
}
