//! Candidates of the codimensional points (vertices in no face and no edge,
//! [`TriMesh::codim_vertices`]): each point against every codimensional
//! edge ([`TriMesh::codim_edges`]) and every other point whose swept k-DOP
//! its own overlaps. These are the contacts that no vertex–face or
//! edge–edge pair covers (a point meets a face's edge or corner only where
//! it meets the face); the IPC Toolkit adds them as its edge–vertex and
//! vertex–vertex candidates. Beyond Wan, Fu & Yao 2022, whose meshes have
//! no points (docs/design.md §1, §6).
//!
//! A pair is a candidate when its swept k-DOPs overlap (those of the BVH:
//! each vertex's swept k-DOP, grown by half the minimum separation and
//! rounded up; an edge's is its ends' merge; the overlap closed) and no slab
//! separates its k-DOPs at `t = 0` and at `t = 1` with the same one below
//! (the BVH's time-aligned pruning, `bounding_volume::aligned`, on the
//! `f64` k-DOPs of each time, grown alike: each projection is linear in
//! `t`, so a separation at both times holds on all of `[0, 1]`, and by
//! more than the minimum separation). The pairs are found by sorts and
//! sweeps over one slab in cells along another (the broad phase oracle's,
//! `brute_force`; the point–edge pairs with each kind sorted apart, so
//! that no pair of edges is visited): every pair that overlaps in the
//! sweep slab gets the full tests, so the set is exactly that of the tests
//! on every pair. [`point_candidates`] lists them in ascending order
//! whatever the thread count; [`fold_point_candidates`] hands each to a
//! visitor as it is found, so that a step keeps none of them, and pairs
//! only the points it is given (a step gives one point of each set of
//! coincident ones, which have quadratically many pairs).
//!
//! [`TriMesh::codim_vertices`]: crate::mesh::TriMesh::codim_vertices
//! [`TriMesh::codim_edges`]: crate::mesh::TriMesh::codim_edges

use rayon::prelude::*;

use super::brute_force::{Entry, entry, sweep_cells, sweep_cells_across};
use super::bvh::half_up;
use super::bvh_traverse::NOT_SKIPPED;
use crate::bounding_volume::{Inflation, Kdop, KdopAxes};
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
    let points = step.mesh.codim_vertices();
    let [mut vertex_edge, mut vertex_vertex] = fold_point_candidates(
        step,
        points,
        axes,
        min_distance,
        skip,
        |out: &mut Vec<[u32; 2]>, [i, e]| out.push([points[i as usize], e]),
        |out: &mut Vec<[u32; 2]>, [i, j]| out.push([points[i as usize], points[j as usize]]),
        |mut a, b| {
            a.extend(b);
            a
        },
    );
    vertex_edge.sort_unstable();
    vertex_vertex.sort_unstable();
    PointCandidates {
        vertex_edge,
        vertex_vertex,
    }
}

/// The candidates of [`point_candidates`] among `points` (codimensional
/// points of `step`'s mesh, ascending: all of them, or some) handed, as
/// they are found and in no set order, to `vertex_edge(out, [i, edge])`
/// and `vertex_vertex(out, [i, j])` (`i < j`), where `i` and `j` are
/// positions in `points`, in parallel: each worker fills its own `T`,
/// merged with `merge`. Returns the point–edge and the point–point
/// results.
///
/// # Panics
/// As [`point_candidates`].
#[allow(clippy::too_many_arguments)]
pub fn fold_point_candidates<T: Default + Send>(
    step: &Step<'_>,
    points: &[u32],
    axes: KdopAxes,
    min_distance: f64,
    skip: &[u32],
    vertex_edge: impl Fn(&mut T, [u32; 2]) + Sync,
    vertex_vertex: impl Fn(&mut T, [u32; 2]) + Sync,
    merge: impl Fn(T, T) -> T + Sync + Send,
) -> [T; 2] {
    assert!(
        min_distance.is_finite() && min_distance >= 0.0,
        "min_distance {min_distance} is not a finite distance"
    );
    assert!(skip.is_empty() || skip.len() == step.mesh.num_components());
    let r = half_up(min_distance);
    let visit = Visit {
        vertex_edge,
        vertex_vertex,
        merge,
    };
    match axes {
        KdopAxes::Dop6 => candidates::<3, T>(step, points, r, skip, visit),
        KdopAxes::Dop8 => candidates::<4, T>(step, points, r, skip, visit),
        KdopAxes::Dop14 => candidates::<7, T>(step, points, r, skip, visit),
        KdopAxes::Dop18 => candidates::<9, T>(step, points, r, skip, visit),
        KdopAxes::Dop26 => candidates::<13, T>(step, points, r, skip, visit),
    }
}

/// The visitors of [`fold_point_candidates`].
struct Visit<E, V, M> {
    vertex_edge: E,
    vertex_vertex: V,
    merge: M,
}

fn candidates<const N: usize, T: Default + Send>(
    step: &Step<'_>,
    points: &[u32],
    margin: f64,
    skip: &[u32],
    visit: Visit<
        impl Fn(&mut T, [u32; 2]) + Sync,
        impl Fn(&mut T, [u32; 2]) + Sync,
        impl Fn(T, T) -> T + Sync + Send,
    >,
) -> [T; 2] {
    let mesh = step.mesh;
    if points.is_empty() {
        return [T::default(), T::default()];
    }
    // A vertex's k-DOPs at t = 0 and at t = 1, grown; a feature's: swept
    // (their merge, as `Kdop::from_swept_point` gives it), then the two.
    let inflation = Inflation::<N>::new(margin);
    let at_times = |v: u32| {
        let mut bv = [&step.x_t0[v as usize], &step.x_t1[v as usize]].map(Kdop::<N>::from_point);
        if let Some(by) = &inflation {
            bv.iter_mut().for_each(|b| b.inflate_by(by));
        }
        bv
    };
    let feature = |[a, b]: [Kdop<N>; 2]| -> Kdops<N> { [a.merge(&b), a, b] };
    let point_bv: Vec<Kdops<N>> = (points.par_iter()).map(|&v| feature(at_times(v))).collect();
    let edges = mesh.codim_edges();
    let edge_bv: Vec<Kdops<N>> = (edges.par_iter())
        .map(|&[a, b]| {
            let (a, b) = (at_times(a), at_times(b));
            feature([a[0].merge(&b[0]), a[1].merge(&b[1])])
        })
        .collect();
    let comp = mesh.component();
    let group = |v: u32| (skip.get(comp[v as usize] as usize).copied()).unwrap_or(NOT_SKIPPED);
    let skipped = |u: u32, v: u32| group(u) != NOT_SKIPPED && group(u) == group(v);

    // Point–point: a sort and sweep over the points alone.
    let swept: Vec<&Kdop<N>> = point_bv.iter().map(|b| &b[0]).collect();
    let slabs = densest_last(&swept);
    let entries = (point_bv.iter().enumerate())
        .map(|(i, b)| entry(&b[0], slabs, 0, i))
        .collect();
    let vertex_vertex = sweep_cells(
        entries,
        |out: &mut T, a: &Entry, b: &Entry| {
            let (u, v) = (points[a.id as usize], points[b.id as usize]);
            if meet(&point_bv[a.id as usize], &point_bv[b.id as usize]) && !skipped(u, v) {
                (visit.vertex_vertex)(out, [a.id.min(b.id), a.id.max(b.id)]);
            }
        },
        &visit.merge,
    );

    // Point–edge: the same over points and edges, visiting no edge pair.
    let mut vertex_edge = T::default();
    if !edges.is_empty() {
        let swept: Vec<&Kdop<N>> = point_bv.iter().chain(&edge_bv).map(|b| &b[0]).collect();
        let slabs = densest_last(&swept);
        let entries = (point_bv.iter().enumerate())
            .map(|(i, b)| entry(&b[0], slabs, 0, i))
            .chain((edge_bv.iter().enumerate()).map(|(i, b)| entry(&b[0], slabs, 1, i)))
            .collect();
        let first_codim = mesh.num_face_edges() as u32;
        vertex_edge = sweep_cells_across(
            entries,
            |out: &mut T, p: &Entry, e: &Entry| {
                let (v, ends) = (points[p.id as usize], edges[e.id as usize]);
                if meet(&point_bv[p.id as usize], &edge_bv[e.id as usize]) && !skipped(v, ends[0]) {
                    (visit.vertex_edge)(out, [p.id, first_codim + e.id]);
                }
            },
            &visit.merge,
        );
    }
    [vertex_edge, vertex_vertex]
}

/// A feature's k-DOPs: swept, at `t = 0` and at `t = 1`.
type Kdops<const N: usize> = [Kdop<N>; 3];

/// Whether two features' swept k-DOPs overlap and no slab separates their
/// k-DOPs at `t = 0` and at `t = 1` with the same one below
/// (`bounding_volume::aligned`'s test, on `f64` k-DOPs).
fn meet<const N: usize>(a: &Kdops<N>, b: &Kdops<N>) -> bool {
    a[0].overlaps(&b[0])
        && (0..N).all(|i| {
            let below = a[1].hi[i] < b[1].lo[i] && a[2].hi[i] < b[2].lo[i];
            let above = b[1].hi[i] < a[1].lo[i] && b[2].hi[i] < a[2].lo[i];
            !(below || above)
        })
}

/// The two slabs along which the k-DOPs' intervals overlap least, least
/// first, estimated in one pass: the summed interval lengths over the
/// range they span (how many intervals cover a coordinate, on average).
/// Any slab gives the same pairs; the broad phase oracle's exact count per
/// slab (`brute_force::sweep_slabs`, a sort per slab) costs more than the
/// points' whole sweep.
pub(super) fn densest_last<const N: usize>(kdops: &[&Kdop<N>]) -> (usize, usize) {
    let mut by_density: Vec<(f64, usize)> = (0..N)
        .map(|i| {
            let (mut lo, mut hi, mut length) = (f64::INFINITY, f64::NEG_INFINITY, 0.0);
            for b in kdops {
                lo = lo.min(b.lo[i]);
                hi = hi.max(b.hi[i]);
                length += b.hi[i] - b.lo[i];
            }
            let density = length / (hi - lo);
            (
                if density.is_nan() {
                    f64::INFINITY
                } else {
                    density
                },
                i,
            )
        })
        .collect();
    by_density.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    (
        by_density[0].1,
        by_density.get(1).unwrap_or(&by_density[0]).1,
    )
}
