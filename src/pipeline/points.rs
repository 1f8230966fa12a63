//! The codimensional points' pairs of a step (docs/design.md §1 and §6):
//! a vertex in no face and no edge against every edge and every other such
//! vertex, decided by the exact edge–edge test with the point as an edge of
//! length zero, after the points' filter in contact.

use std::sync::atomic::{AtomicBool, Ordering};

use super::bodies::within_one_group;
use super::config::PipelineConfig;
use super::decide::{KEEP_BATCH, PairCtx, earliest, solve};
use super::report::{ContactPair, PairCounts, PointCounts};
use crate::broad_phase::fold_point_candidates;
use crate::filter::{point_point_apart, point_segment_apart};
use crate::math::Vec3;
use crate::mesh::{Feature, Step, TriMesh};
use crate::narrow_phase::{Solver, Toi};
use crate::pair_kernel::QueryKind;

/// The pairs of the codimensional points of `step` (none when it has
/// none): their candidates ([`fold_point_candidates`], less those within
/// one skipped group of `skip` and, by vertex, of
/// [`PairCtx::vertex_group`]) decided as they are found by the exact
/// edge–edge test with the point as a zero-length edge (whatever
/// `cfg.solver`: the cubic solver does not handle zero-length edges), in
/// contact after the points' filter ([`point_segment_apart`],
/// [`point_point_apart`]), in parallel, keeping no candidate; the colliding
/// ones folded into `toi` and, when collected, appended to `pairs`
/// ascending. Gives up (`None`) when `cancel` is set.
pub(super) fn codim_points(
    ctx: &PairCtx<'_>,
    step: &Step<'_>,
    cfg: &PipelineConfig,
    skip: &[u32],
    cancel: Option<&AtomicBool>,
    toi: &mut Option<Toi>,
    pairs: &mut Vec<ContactPair>,
) -> Option<Option<PointCounts>> {
    let mesh = step.mesh;
    if mesh.codim_vertices().is_empty() {
        return Some(None);
    }
    let stop = || cancel.is_some_and(|c| c.load(Ordering::Relaxed)) || ctx.overflowed();
    // In contact, the points' filter first (in its range); then the exact
    // edge–edge test of `p p` against `a b` (`a == b` for a point).
    let filter = ctx.in_range && ctx.min_distance == 0.0;
    let test = |p: u32, [a, b]: [u32; 2]| {
        if stop() {
            return None;
        }
        let [p, a, b] = [p, a, b].map(|i| &ctx.x[i as usize]);
        let q =
            [p[0], p[0], a[0], b[0], p[1], p[1], a[1], b[1]].map(|[x, y, z]| Vec3::new(x, y, z));
        let apart = match filter {
            false => false,
            true if a == b => point_point_apart(&q[0], &q[2], &q[4], &q[6]),
            true => point_segment_apart(&q[0], &q[2], &q[3], &q[4], &q[6], &q[7]),
        };
        if apart {
            return None;
        }
        solve(
            Solver::Exact,
            QueryKind::EdgeEdge,
            ctx.in_range,
            ctx.min_distance,
            &q,
        )
        .0
    };
    let edges = mesh.edges();
    // Pairs within one body that does not collide with itself, where the
    // components' groups (`skip`) do not tell.
    let in_one_body = |vertices: &[u32]| {
        ctx.vertex_group
            .is_some_and(|group| within_one_group(group, vertices))
    };
    let collect = cfg.collect_pairs;
    let tally = |out: &mut PointTally, pair: [u32; 2], verdict: Option<Toi>| {
        out.candidates += 1;
        if let Some(t) = verdict {
            out.colliding += 1;
            out.toi = Some(earliest(out.toi, t));
            if collect {
                out.hits.push((pair, t));
                out.unreported += 1;
                if out.unreported >= KEEP_BATCH {
                    ctx.keep(out.unreported);
                    out.unreported = 0;
                }
            }
        }
    };
    let [vertex_edge, vertex_vertex] = fold_point_candidates(
        step,
        cfg.axes,
        cfg.min_distance,
        skip,
        |out, [v, e]| {
            let [a, b] = edges[e as usize];
            if !in_one_body(&[v, a, b]) {
                tally(out, [v, e], test(v, [a, b]));
            }
        },
        |out, [v, w]| {
            if !in_one_body(&[v, w]) {
                tally(out, [v, w], test(v, [w, w]));
            }
        },
        PointTally::merge,
    );
    if stop() {
        return None;
    }
    let vertex_edge = vertex_edge.finish(Feature::Edge, mesh, toi, pairs);
    let vertex_vertex = vertex_vertex.finish(Feature::Vertex, mesh, toi, pairs);
    Some(Some(PointCounts {
        vertex_edge,
        vertex_vertex,
    }))
}

/// One worker's share of a kind of the points' pairs: its candidates, the
/// colliding ones and their earliest time of impact, and (when collected)
/// the colliding pairs with their brackets.
#[derive(Default)]
struct PointTally {
    candidates: u64,
    colliding: u64,
    toi: Option<Toi>,
    hits: Vec<([u32; 2], Toi)>,
    /// Hits not yet added to the step's total ([`PairCtx::keep`]).
    unreported: u64,
}

impl PointTally {
    fn merge(mut self, mut other: PointTally) -> PointTally {
        self.candidates += other.candidates;
        self.colliding += other.colliding;
        if let Some(t) = other.toi {
            self.toi = Some(earliest(self.toi, t));
        }
        self.hits.append(&mut other.hits);
        self
    }

    /// The counts; the earliest time folded into `toi`; the colliding
    /// pairs (the point, then `second(other)`) appended to `pairs`,
    /// ascending.
    fn finish(
        mut self,
        second: fn(u32) -> Feature,
        mesh: &TriMesh,
        toi: &mut Option<Toi>,
        pairs: &mut Vec<ContactPair>,
    ) -> PairCounts {
        if let Some(t) = self.toi {
            *toi = Some(earliest(*toi, t));
        }
        self.hits.sort_unstable_by_key(|&(pair, _)| pair);
        pairs.extend(self.hits.iter().map(|&([v, other], t)| ContactPair {
            kind: QueryKind::EdgeEdge,
            a: mesh.global_id(Feature::Vertex(v)),
            b: mesh.global_id(second(other)),
            toi_lower: t.lower,
            toi_upper: t.upper,
        }));
        PairCounts {
            candidates: self.candidates,
            colliding: self.colliding,
        }
    }
}
