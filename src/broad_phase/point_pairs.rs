//! Candidates of the codimensional points (vertices in no face and no edge,
//! [`TriMesh::codim_vertices`]): each point against every codimensional
//! edge ([`TriMesh::codim_edges`]) and every other point whose swept k-DOP
//! its own overlaps. These are the contacts that no vertex–face or
//! edge–edge pair covers (a point meets a face's edge or corner only where
//! it meets the face); the IPC Toolkit adds them as its edge–vertex and
//! vertex–vertex candidates. Beyond Wan, Fu & Yao 2022, whose meshes have
//! no points (docs/design.md §1, §6).
//!
//! The k-DOPs are those of the BVH (each vertex's swept k-DOP, grown by
//! half the minimum separation and rounded up; an edge's is its ends'
//! merge), the overlap closed. The pairs are found by the broad phase
//! oracle's sort and sweep (`brute_force`): every pair that overlaps in the
//! sweep slab gets the full k-DOP test, so the set is exactly that of a
//! test of every pair, in ascending order whatever the thread count.
//!
//! [`TriMesh::codim_vertices`]: crate::mesh::TriMesh::codim_vertices
//! [`TriMesh::codim_edges`]: crate::mesh::TriMesh::codim_edges

use super::brute_force::{Entry, entry, sweep_cells, sweep_slabs};
use super::bvh::half_up;
use super::bvh_traverse::NOT_SKIPPED;
use crate::bounding_volume::{Kdop, KdopAxes};
use crate::mesh::Step;

/// The candidate pairs of the codimensional points, ascending.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PointCandidates {
    /// `[point, edge]`: a point (vertex index) and a codimensional edge
    /// (index into [`crate::mesh::TriMesh::edges`]).
    pub vertex_edge: Vec<[u32; 2]>,
    /// `[point, point]`: two points (vertex indices), the smaller first.
    pub vertex_vertex: Vec<[u32; 2]>,
}

impl PointCandidates {
    fn merge(mut self, other: PointCandidates) -> PointCandidates {
        self.vertex_edge.extend(other.vertex_edge);
        self.vertex_vertex.extend(other.vertex_vertex);
        self
    }
}

/// The point–edge and point–point candidates of `step` for the k-DOP
/// `axes` at the minimum separation `min_distance` (0: contact), less the
/// pairs within one skipped group: `skip[c]` is component `c`'s group, or
/// [`NOT_SKIPPED`] (an empty `skip` skips nothing), as for
/// [`crate::broad_phase::KdopBvh::self_candidates_skipping`].
///
/// # Panics
/// When `min_distance` is negative or not finite, or `skip` is neither
/// empty nor one group per component.
pub fn point_candidates(
    step: &Step<'_>,
    axes: KdopAxes,
    min_distance: f64,
    skip: &[u32],
) -> PointCandidates {
    assert!(
        min_distance.is_finite() && min_distance >= 0.0,
        "min_distance {min_distance} is not a finite distance"
    );
    assert!(skip.is_empty() || skip.len() == step.mesh.num_components());
    let r = half_up(min_distance);
    match axes {
        KdopAxes::Dop6 => candidates::<3>(step, r, skip),
        KdopAxes::Dop8 => candidates::<4>(step, r, skip),
        KdopAxes::Dop14 => candidates::<7>(step, r, skip),
        KdopAxes::Dop18 => candidates::<9>(step, r, skip),
        KdopAxes::Dop26 => candidates::<13>(step, r, skip),
    }
}

fn candidates<const N: usize>(step: &Step<'_>, margin: f64, skip: &[u32]) -> PointCandidates {
    let mesh = step.mesh;
    let points = mesh.codim_vertices();
    if points.is_empty() {
        return PointCandidates::default();
    }
    let swept = |v: u32| {
        let mut bv = Kdop::<N>::from_swept_point(&step.x_t0[v as usize], &step.x_t1[v as usize]);
        bv.inflate_in(margin);
        bv
    };
    let point_bv: Vec<Kdop<N>> = points.iter().map(|&v| swept(v)).collect();
    let edges = mesh.codim_edges();
    let edge_bv: Vec<Kdop<N>> = edges
        .iter()
        .map(|&[a, b]| swept(a).merge(&swept(b)))
        .collect();
    let all: Vec<&Kdop<N>> = point_bv.iter().chain(&edge_bv).collect();
    let slabs = sweep_slabs(&all);
    let entries = (point_bv.iter().enumerate())
        .map(|(i, b)| entry(b, slabs, 0, i))
        .chain(
            edge_bv
                .iter()
                .enumerate()
                .map(|(i, b)| entry(b, slabs, 1, i)),
        )
        .collect();
    let comp = mesh.component();
    let group = |v: u32| {
        skip.get(comp[v as usize] as usize)
            .copied()
            .unwrap_or(NOT_SKIPPED)
    };
    let skipped = |u: u32, v: u32| group(u) != NOT_SKIPPED && group(u) == group(v);
    let first_codim = mesh.num_face_edges() as u32;
    let mut found = sweep_cells(
        entries,
        |out: &mut PointCandidates, a: &Entry, b: &Entry| {
            let (a, b) = if a.kind <= b.kind { (a, b) } else { (b, a) };
            match (a.kind, b.kind) {
                (0, 0) => {
                    let (u, v) = (points[a.id as usize], points[b.id as usize]);
                    if point_bv[a.id as usize].overlaps(&point_bv[b.id as usize]) && !skipped(u, v)
                    {
                        out.vertex_vertex.push([u.min(v), u.max(v)]);
                    }
                }
                (0, _) => {
                    let (v, e) = (points[a.id as usize], edges[b.id as usize]);
                    if point_bv[a.id as usize].overlaps(&edge_bv[b.id as usize])
                        && !skipped(v, e[0])
                    {
                        out.vertex_edge.push([v, first_codim + b.id]);
                    }
                }
                _ => {}
            }
        },
        PointCandidates::merge,
    );
    found.vertex_edge.sort_unstable();
    found.vertex_vertex.sort_unstable();
    found
}
