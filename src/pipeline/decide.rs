//! How a step decides one candidate pair: the filters the configuration
//! asks for (SLPF on its per-vertex table, then DNF and the coplanar window
//! sharing one coplanarity cubic; Wan, Fu & Yao 2022, §2–§3), then the
//! exact test, in contact or within the minimum separation
//! (docs/design.md §2.2–§2.3, §5, §7 and §9). [`PairCtx`] holds what every traversal task
//! shares for that; [`Pair`] gives the vertex–face and edge–edge
//! candidates one interface.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;

use super::config::PipelineConfig;
use super::report::ContactPair;
use super::step::Run;
use crate::broad_phase::{EePair, VfPair};
use crate::filter::{CulledBy, FilterSet, Points, SlpfTable};
use crate::math::{RangeCheck, StepInRange, Vec3};
use crate::mesh::{Feature, Step, TriMesh};
use crate::narrow_phase::{
    Solver, SolverTier, Toi, WithinVerdict, edge_edge_within_traced_with,
    edge_edge_within_verdict_with, vertex_face_within_traced_with, vertex_face_within_verdict_with,
};
use crate::pair_kernel::QueryKind;

/// The exact test of a pair, the coordinates' range checked as `range`
/// says (skipped when the step was checked whole); within `min_distance`
/// when it is positive (the exact minimum-separation solver:
/// [`PipelineConfig::check`] has refused any other at `d > 0`).
#[inline]
pub(super) fn solve(
    solver: Solver,
    kind: QueryKind,
    range: RangeCheck,
    min_distance: f64,
    q: &[Vec3; 8],
) -> (Option<Toi>, SolverTier) {
    let [a, b, c, d, e, f, g, h] = q;
    if min_distance > 0.0 {
        return match kind {
            QueryKind::VertexFace => {
                vertex_face_within_traced_with(a, b, c, d, e, f, g, h, min_distance, range)
            }
            QueryKind::EdgeEdge => {
                edge_edge_within_traced_with(a, b, c, d, e, f, g, h, min_distance, range)
            }
        };
    }
    solver.solve_traced_with(kind, q, range)
}

/// The minimum-separation test of a pair (`min_distance > 0`) whose bracket
/// may be loose ([`WithinVerdict`]); `range` as for [`solve`].
#[inline]
pub(super) fn solve_verdict(
    kind: QueryKind,
    range: RangeCheck,
    min_distance: f64,
    q: &[Vec3; 8],
) -> (WithinVerdict, SolverTier) {
    let [a, b, c, d, e, f, g, h] = q;
    match kind {
        QueryKind::VertexFace => {
            vertex_face_within_verdict_with(a, b, c, d, e, f, g, h, min_distance, range)
        }
        QueryKind::EdgeEdge => {
            edge_edge_within_verdict_with(a, b, c, d, e, f, g, h, min_distance, range)
        }
    }
}

/// How many kept pairs a task adds to the step's total at a time
/// ([`PairCtx::keep`]).
pub(super) const KEEP_BATCH: u64 = 1 << 12;

/// The filters' per-vertex arrays, reused from step to step.
#[derive(Debug, Default)]
pub(super) struct PairBuffers {
    x: Vec<[[f64; 3]; 2]>,
    slpf: Option<SlpfTable>,
}

/// What the filters need, shared by the traversal's tasks.
pub(super) struct PairCtx<'a> {
    /// The mesh's faces and edges (read per pair: one load less each time
    /// than through the step).
    faces: &'a [[u32; 3]],
    edges: &'a [[u32; 2]],
    /// Every vertex's connected component.
    component: &'a [u32],
    /// Every vertex's group by body, when pairs are checked one by one
    /// against their bodies ([`super::bodies::BodyParts::vertex_group`]).
    pub(super) vertex_group: Option<&'a [u32]>,
    /// Every vertex's positions at `t = 0` and `t = 1`, side by side (one
    /// cache line per vertex for the pair gathers).
    ///
    /// The mesh's vertex order hardly matters to these gathers: the filters
    /// are bound by their arithmetic, not by the loads (vertex orders,
    /// prefetching and gathering measured: docs/notes/pipeline.md).
    pub(super) x: Vec<[[f64; 3]; 2]>,
    /// SLPF (when it runs).
    slpf: Option<SlpfTable>,
    /// The filters that run (SLPF among them when `slpf` is set).
    filters: FilterSet,
    window: bool,
    pub(super) solver: Solver,
    /// Minimum separation (0: contact).
    pub(super) min_distance: f64,
    /// Checked per pair, or (the proof) every coordinate of `x` is in the
    /// exact solver's filter range ([`crate::math::in_filter_range`]),
    /// checked once here instead of per pair (the same outputs, less work
    /// per pair).
    pub(super) range: RangeCheck,
    /// Keep the colliding pairs, not only their counts.
    pub(super) collect_pairs: bool,
    /// Brackets may be loose: a minimum-separation step that does not
    /// collect its pairs needs the tight bracket of only the pairs that may
    /// hold its earliest time (module doc).
    pub(super) loose: bool,
    /// The step lists the pairs the filters pass
    /// ([`super::Pipeline::candidates`]) instead of testing them.
    pub(super) list_only: bool,
    /// The step stops at its first colliding pair
    /// ([`super::Pipeline::is_collision_free`]): the first task to find one
    /// sets `hit`, and every task then drops its candidates untested.
    pub(super) first_hit: bool,
    hit: AtomicBool,
    /// The step looks only for its earliest time of impact
    /// ([`super::Pipeline::earliest_toi`]) with an exact solver: a pair
    /// whose features stay apart until past the smallest upper end found so
    /// far (`least_upper`, shared by the tasks) is skipped.
    pub(super) earliest_only: bool,
    least_upper: AtomicU64,
    /// How many of those pairs a traversal task keeps ([`super::tasks::LOOSE_CAP`]).
    pub(super) loose_cap: usize,
    /// Pairs kept so far by all tasks (collected or listed), their limit
    /// ([`PipelineConfig::max_pairs`]), and whether it was passed.
    kept: AtomicU64,
    max_pairs: u64,
    pub(super) overflowed: AtomicBool,
}

impl<'a> PairCtx<'a> {
    /// The `filters` (with the rest of `cfg`) on `step`, their arrays
    /// written over `buffers`; `vertex_group` and `loose_cap` as
    /// [`PairCtx::vertex_group`] and [`PairCtx::loose_cap`]; `run` sets
    /// [`PairCtx::list_only`], [`PairCtx::first_hit`] and
    /// [`PairCtx::earliest_only`].
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
        cfg: &PipelineConfig,
        filters: FilterSet,
        step: &'a Step<'a>,
        vertex_group: Option<&'a [u32]>,
        buffers: PairBuffers,
        loose_cap: usize,
        run: Run,
    ) -> PairCtx<'a> {
        let uses_slpf = filters.uses_slpf();
        let PairBuffers { mut x, slpf } = buffers;
        x.clear();
        x.par_extend(
            step.x_t0
                .par_iter()
                .with_min_len(4096)
                .zip(step.x_t1)
                .map(|(a, b)| [[a.x, a.y, a.z], [b.x, b.y, b.z]]),
        );
        let range = RangeCheck::of(StepInRange::check(&x));
        let slpf = uses_slpf.then(|| {
            let mut table = slpf.unwrap_or_default();
            table.update(step.x_t0, step.x_t1, &cfg.directions);
            table
        });
        PairCtx {
            faces: step.mesh.faces(),
            edges: step.mesh.edges(),
            component: step.mesh.component(),
            vertex_group,
            x,
            slpf,
            filters,
            window: cfg.window,
            solver: cfg.solver,
            min_distance: cfg.min_distance,
            range,
            collect_pairs: cfg.collect_pairs,
            loose: cfg.min_distance > 0.0 && !cfg.collect_pairs,
            loose_cap,
            list_only: run == Run::List,
            first_hit: run == Run::FirstHit,
            hit: AtomicBool::new(false),
            earliest_only: run == Run::Earliest && cfg.solver.is_exact(),
            least_upper: AtomicU64::new(f64::INFINITY.to_bits()),
            kept: AtomicU64::new(0),
            max_pairs: cfg.max_pairs,
            overflowed: AtomicBool::new(false),
        }
    }

    /// Adds `n` pairs that a task has kept to the step's total; past
    /// [`PipelineConfig::max_pairs`] the step has overflowed and its tasks
    /// stop. Tasks add their pairs in batches of [`KEEP_BATCH`] (one shared
    /// counter per pair would be contended), so a step keeps at most that
    /// many more per task before it stops; whether it overflows is decided
    /// on the exact total ([`PairCtx::check_kept`]).
    #[inline]
    pub(super) fn keep(&self, n: u64) {
        let total = self.kept.fetch_add(n, Ordering::Relaxed) + n;
        if total > self.max_pairs {
            self.overflowed.store(true, Ordering::Relaxed);
        }
    }

    /// Marks the step overflowed when `total` pairs (all it kept) pass the
    /// limit.
    pub(super) fn check_kept(&self, total: u64) {
        if total > self.max_pairs {
            self.overflowed.store(true, Ordering::Relaxed);
        }
    }

    /// A task found a colliding pair in a step that stops at the first
    /// ([`PairCtx::first_hit`]).
    #[inline]
    pub(super) fn record_hit(&self) {
        self.hit.store(true, Ordering::Relaxed);
    }

    /// Whether a task found a colliding pair in a step that stops at the
    /// first (always `false` in any other step).
    #[inline]
    pub(super) fn hit(&self) -> bool {
        self.hit.load(Ordering::Relaxed)
    }

    /// Makes `upper`, the upper end of a colliding pair's bracket, the
    /// smallest known to every task if it is ([`PairCtx::earliest_only`]).
    /// The bits of doubles `≥ 0` order as the doubles do.
    #[inline]
    pub(super) fn publish_upper(&self, upper: f64) {
        debug_assert!(!upper.is_nan(), "an upper end that is not a number");
        if upper.is_nan() {
            return;
        }
        let upper = if upper > 0.0 { upper } else { 0.0 };
        self.least_upper
            .fetch_min(upper.to_bits(), Ordering::Relaxed);
    }

    /// The smallest upper end of a colliding pair's bracket that a task has
    /// published (`∞` before any).
    #[inline]
    pub(super) fn least_upper(&self) -> f64 {
        f64::from_bits(self.least_upper.load(Ordering::Relaxed))
    }

    /// Whether more pairs were to be kept than the limit allows.
    pub(super) fn overflowed(&self) -> bool {
        self.overflowed.load(Ordering::Relaxed)
    }

    /// The arrays, for the next step.
    pub(super) fn into_buffers(self) -> PairBuffers {
        PairBuffers {
            x: self.x,
            slpf: self.slpf,
        }
    }

    /// No filter runs: the setting (SLPF already left out where it does
    /// not apply) is [`FilterSet::None`] and the window is off. Read off the
    /// setting itself, so that a new one is never taken for no filter.
    pub(super) fn filters_off(&self) -> bool {
        self.filters == FilterSet::None && !self.window
    }

    /// The filters on a vertex–face pair: `Some(filter)` when culled.
    #[inline(always)]
    fn cull_vertex_face(&self, p: &VfPair) -> Option<CulledBy> {
        let face = self.faces[p.f as usize];
        let slpf_culls = (self.slpf.as_ref()).is_some_and(|t| t.cull_vertex_face(p.v, face));
        let points = || self.vf_points(p);
        (self.filters).chain(
            QueryKind::VertexFace,
            self.window,
            self.min_distance,
            slpf_culls,
            points,
        )
    }

    /// The eight points of a vertex–face pair, data set row order.
    #[inline(always)]
    fn vf_points(&self, p: &VfPair) -> Points {
        let [a, b, c] = self.faces[p.f as usize];
        let [v, a, b, c] = [p.v, a, b, c].map(|i| &self.x[i as usize]);
        [v[0], a[0], b[0], c[0], v[1], a[1], b[1], c[1]]
    }

    /// The eight points of an edge–edge pair, data set row order.
    #[inline(always)]
    fn ee_points(&self, p: &EePair) -> Points {
        let (ea, eb) = (self.edges[p.e0 as usize], self.edges[p.e1 as usize]);
        let [a, b, c, d] = [ea[0], ea[1], eb[0], eb[1]].map(|i| &self.x[i as usize]);
        [a[0], b[0], c[0], d[0], a[1], b[1], c[1], d[1]]
    }

    /// The filters on an edge–edge pair: `Some(filter)` when culled.
    #[inline(always)]
    fn cull_edge_edge(&self, p: &EePair) -> Option<CulledBy> {
        let (ea, eb) = (self.edges[p.e0 as usize], self.edges[p.e1 as usize]);
        let slpf_culls = self.slpf.as_ref().is_some_and(|t| t.cull_edge_edge(ea, eb));
        let points = || self.ee_points(p);
        (self.filters).chain(
            QueryKind::EdgeEdge,
            self.window,
            self.min_distance,
            slpf_culls,
            points,
        )
    }
}

/// A kind of candidate pair, as the filters and the exact test see it.
pub(super) trait Pair: Copy {
    const KIND: QueryKind;
    /// The filters on the pair: `Some(filter)` when culled.
    fn cull(&self, ctx: &PairCtx<'_>) -> Option<CulledBy>;
    /// Its eight points, data set row order.
    fn points(&self, ctx: &PairCtx<'_>) -> Points;
    /// Whether its two features lie in one connected component.
    fn same_component(&self, ctx: &PairCtx<'_>) -> bool;
    /// Its four vertices, data set row order.
    fn vertices(&self, ctx: &PairCtx<'_>) -> [u32; 4];
    /// Its features by global ID.
    fn contact(&self, mesh: &TriMesh, toi: &Toi) -> ContactPair;
}

impl Pair for VfPair {
    const KIND: QueryKind = QueryKind::VertexFace;

    #[inline(always)]
    fn cull(&self, ctx: &PairCtx<'_>) -> Option<CulledBy> {
        ctx.cull_vertex_face(self)
    }

    #[inline(always)]
    fn points(&self, ctx: &PairCtx<'_>) -> Points {
        ctx.vf_points(self)
    }

    #[inline(always)]
    fn same_component(&self, ctx: &PairCtx<'_>) -> bool {
        let c = ctx.component;
        c[self.v as usize] == c[ctx.faces[self.f as usize][0] as usize]
    }

    #[inline(always)]
    fn vertices(&self, ctx: &PairCtx<'_>) -> [u32; 4] {
        let [a, b, c] = ctx.faces[self.f as usize];
        [self.v, a, b, c]
    }

    fn contact(&self, mesh: &TriMesh, toi: &Toi) -> ContactPair {
        ContactPair {
            kind: Self::KIND,
            a: mesh.global_id(Feature::Vertex(self.v)),
            b: mesh.global_id(Feature::Face(self.f)),
            toi_lower: toi.lower,
            toi_upper: toi.upper,
        }
    }
}

impl Pair for EePair {
    const KIND: QueryKind = QueryKind::EdgeEdge;

    #[inline(always)]
    fn cull(&self, ctx: &PairCtx<'_>) -> Option<CulledBy> {
        ctx.cull_edge_edge(self)
    }

    #[inline(always)]
    fn points(&self, ctx: &PairCtx<'_>) -> Points {
        ctx.ee_points(self)
    }

    #[inline(always)]
    fn same_component(&self, ctx: &PairCtx<'_>) -> bool {
        let (c, e) = (ctx.component, ctx.edges);
        c[e[self.e0 as usize][0] as usize] == c[e[self.e1 as usize][0] as usize]
    }

    #[inline(always)]
    fn vertices(&self, ctx: &PairCtx<'_>) -> [u32; 4] {
        let (ea, eb) = (ctx.edges[self.e0 as usize], ctx.edges[self.e1 as usize]);
        [ea[0], ea[1], eb[0], eb[1]]
    }

    fn contact(&self, mesh: &TriMesh, toi: &Toi) -> ContactPair {
        ContactPair {
            kind: Self::KIND,
            a: mesh.global_id(Feature::Edge(self.e0)),
            b: mesh.global_id(Feature::Edge(self.e1)),
            toi_lower: toi.lower,
            toi_upper: toi.upper,
        }
    }
}

/// The smallest lower and upper bounds of `a` (if any) and `b`.
#[inline(always)]
pub(super) fn earliest(a: Option<Toi>, b: Toi) -> Toi {
    match a {
        Some(a) => Toi {
            lower: a.lower.min(b.lower),
            upper: a.upper.min(b.upper),
        },
        None => b,
    }
}
