//! Candidates of a mesh's static intersections at one instant
//! (docs/design.md §11): every edge and every face that share no vertex and
//! whose axis-aligned boxes at that instant overlap (closed). An edge that
//! crosses a triangle's interior meets it at a point of both boxes, so no
//! such pair is missed; the boxes are the coordinates' own minima and
//! maxima, exact. Beyond Wan, Fu & Yao 2022, whose CCD assumes meshes that
//! do not interpenetrate at `t = 0`.
//!
//! The pairs are found by the broad phase oracle's sort and sweep over one
//! axis in cells along another (`brute_force`; edges and faces sorted
//! apart, so that no pair of one kind is visited) and handed to a visitor
//! as they are found: the set is that of a test of every pair. The oracle
//! of the BVH's edge–face pairs ([`Bvh::fold_edge_face_pairs`], which a
//! mesh's intersections use), equal to them for the 6-DOPs of a step that
//! does not move, at no minimum separation.
//!
//! [`Bvh::fold_edge_face_pairs`]: super::Bvh::fold_edge_face_pairs

use super::brute_force::{Entry, entry, sweep_cells_across};
use super::point_pairs::densest_last;
use crate::bounding_volume::Kdop;
use crate::math::Vec3;
use crate::mesh::TriMesh;

/// The pairs `[edge, face]` (indices into [`TriMesh::edges`] and
/// [`TriMesh::faces`]) of `mesh` at the positions `x` that share no vertex
/// and whose boxes overlap, handed as they are found, in no set order, to
/// `visit(out, [edge, face])`, in parallel: each worker fills its own `T`,
/// merged with `merge`.
///
/// # Panics
/// When `x` has another length than the mesh's vertex count.
pub fn fold_edge_face_candidates<T: Default + Send>(
    mesh: &TriMesh,
    x: &[Vec3],
    visit: impl Fn(&mut T, [u32; 2]) + Sync,
    merge: impl Fn(T, T) -> T + Sync + Send,
) -> T {
    assert_eq!(x.len(), mesh.num_vertices(), "one position per vertex");
    let (edges, faces) = (mesh.edges(), mesh.faces());
    if edges.is_empty() || faces.is_empty() {
        return T::default();
    }
    let boxes = |vs: &[u32]| Kdop::<3>::from_points(vs.iter().map(|&v| &x[v as usize]));
    let edge_box: Vec<Kdop<3>> = edges.iter().map(|e| boxes(e)).collect();
    let face_box: Vec<Kdop<3>> = faces.iter().map(|f| boxes(f)).collect();
    let all: Vec<&Kdop<3>> = edge_box.iter().chain(&face_box).collect();
    let slabs = densest_last(&all);
    let entries = (edge_box.iter().enumerate())
        .map(|(i, b)| entry(b, slabs, 0, i))
        .chain((face_box.iter().enumerate()).map(|(i, b)| entry(b, slabs, 1, i)))
        .collect();
    sweep_cells_across(
        entries,
        |out: &mut T, e: &Entry, f: &Entry| {
            let (ei, fi) = (e.id as usize, f.id as usize);
            let shared = edges[ei].iter().any(|v| faces[fi].contains(v));
            if !shared && edge_box[ei].overlaps(&face_box[fi]) {
                visit(out, [e.id, f.id]);
            }
        },
        merge,
    )
}
