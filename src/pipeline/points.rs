//! The codimensional points' pairs of a step (docs/design.md §1 and §6):
//! a vertex in no face and no edge against every edge and every other such
//! vertex, decided by the exact edge–edge test with the point as an edge of
//! length zero, after the points' filter in contact.
//!
//! Points with the same positions at both times and the same groups (the
//! component's skipped group and the body's) get the same verdict against
//! every other feature, and any two of them collide at `t = 0`: each such
//! class is paired and decided once, through one of its points, and its
//! pairs are counted by multiplication. Coincident points (a simulator's
//! unused vertices parked at the origin, say) cost as much as one, except
//! for the pairs listed when the step collects them.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use super::bodies::within_one_group;
use super::config::PipelineConfig;
use super::decide::{KEEP_BATCH, PairCtx, earliest, solve};
use super::report::{ContactPair, PairCounts, PointCounts};
use crate::broad_phase::{NOT_SKIPPED, fold_point_candidates};
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
/// [`point_point_apart`]), in parallel, keeping no candidate, once per
/// class of coincident points ([`Classes`]); the colliding ones folded
/// into `toi` and, when collected, appended to `pairs` ascending. Gives up
/// (`None`) when `cancel` is set.
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
    let filter = ctx.range.step_checked() && ctx.min_distance == 0.0;
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
            ctx.range,
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
    let comp = mesh.component();
    let skipped_group =
        |v: u32| (skip.get(comp[v as usize] as usize).copied()).unwrap_or(NOT_SKIPPED);
    let body_group = |v: u32| ctx.vertex_group.map_or(NOT_SKIPPED, |g| g[v as usize]);
    let classes = Classes::new(mesh.codim_vertices(), &ctx.x, |v| {
        [skipped_group(v), body_group(v)]
    });
    let collect = cfg.collect_pairs;
    // Each class's first point stands for it: its verdict is that of
    // every pair of the class's points with the other feature.
    let [vertex_edge, vertex_vertex] = fold_point_candidates(
        step,
        &classes.first,
        cfg.axes,
        cfg.min_distance,
        skip,
        |out, [i, e]| {
            let (v, [a, b]) = (classes.first[i as usize], edges[e as usize]);
            if !in_one_body(&[v, a, b]) {
                let class = classes.points(i);
                let verdict = test(v, [a, b]);
                out.add(ctx, collect, class.len() as u64, verdict, || {
                    class.iter().map(move |&p| [p, e])
                });
            }
        },
        |out, [i, j]| {
            let (v, w) = (classes.first[i as usize], classes.first[j as usize]);
            if !in_one_body(&[v, w]) {
                let (ci, cj) = (classes.points(i), classes.points(j));
                let verdict = test(v, [w, w]);
                out.add(ctx, collect, (ci.len() * cj.len()) as u64, verdict, || {
                    ci.iter()
                        .flat_map(move |&p| cj.iter().map(move |&q| [p.min(q), p.max(q)]))
                });
            }
        },
        PointTally::merge,
    );
    // The pairs within a class: candidates (their k-DOPs are equal) unless
    // skipped, and colliding at `t = 0` (decided by the test all the same).
    let within = (0..classes.first.len() as u32)
        .into_par_iter()
        .fold(PointTally::default, |mut out, i| {
            let (v, class) = (classes.first[i as usize], classes.points(i));
            let n = class.len() as u64;
            if n > 1 && skipped_group(v) == NOT_SKIPPED && !in_one_body(&[v, v]) {
                let verdict = test(v, [v, v]);
                out.add(ctx, collect, n * (n - 1) / 2, verdict, || {
                    (class.iter().enumerate())
                        .flat_map(move |(k, &p)| class[k + 1..].iter().map(move |&q| [p, q]))
                });
            }
            out
        })
        .reduce(PointTally::default, PointTally::merge);
    let vertex_vertex = vertex_vertex.merge(within);
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

/// The codimensional points in classes that share their positions at both
/// times (bit for bit) and their two groups (the component's skipped
/// group and the body's): the exact test sees the same numbers for each
/// point of a class against a given feature.
struct Classes {
    /// The least point of each class, ascending.
    first: Vec<u32>,
    /// Where each class's points start in `members`, and the end.
    start: Vec<u32>,
    /// The points, class by class, each class ascending.
    members: Vec<u32>,
}

impl Classes {
    /// The classes of `points` (ascending) at the positions `x` (at `t = 0`
    /// and `t = 1`, by vertex), with each point's `groups`.
    fn new(
        points: &[u32],
        x: &[[[f64; 3]; 2]],
        groups: impl Fn(u32) -> [u32; 2] + Sync,
    ) -> Classes {
        let key = |v: u32| (x[v as usize].map(|p| p.map(f64::to_bits)), groups(v));
        let mut sorted = points.to_vec();
        sorted.par_sort_unstable_by(|&u, &v| key(u).cmp(&key(v)).then(u.cmp(&v)));
        let mut runs: Vec<[usize; 2]> = Vec::new();
        for (i, &v) in sorted.iter().enumerate() {
            match runs.last_mut() {
                Some(run) if key(sorted[run[0]]) == key(v) => run[1] = i + 1,
                _ => runs.push([i, i + 1]),
            }
        }
        runs.sort_unstable_by_key(|&[s, _]| sorted[s]);
        let mut classes = Classes {
            first: Vec::with_capacity(runs.len()),
            start: Vec::with_capacity(runs.len() + 1),
            members: Vec::with_capacity(points.len()),
        };
        for [s, e] in runs {
            classes.first.push(sorted[s]);
            classes.start.push(classes.members.len() as u32);
            classes.members.extend_from_slice(&sorted[s..e]);
        }
        classes.start.push(classes.members.len() as u32);
        classes
    }

    /// The points of class `i`, ascending.
    fn points(&self, i: u32) -> &[u32] {
        let i = i as usize;
        &self.members[self.start[i] as usize..self.start[i + 1] as usize]
    }
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
    /// `n` candidate pairs with the one `verdict`, listed by `pairs` (only
    /// when `collect`, and not once the step has passed its limit).
    fn add<I: Iterator<Item = [u32; 2]>>(
        &mut self,
        ctx: &PairCtx<'_>,
        collect: bool,
        n: u64,
        verdict: Option<Toi>,
        pairs: impl FnOnce() -> I,
    ) {
        self.candidates += n;
        let Some(t) = verdict else {
            return;
        };
        self.colliding += n;
        self.toi = Some(earliest(self.toi, t));
        if collect {
            self.unreported += n;
            if self.unreported >= KEEP_BATCH {
                ctx.keep(self.unreported);
                self.unreported = 0;
            }
            if !ctx.overflowed() {
                self.hits.extend(pairs().map(|pair| (pair, t)));
            }
        }
    }

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
