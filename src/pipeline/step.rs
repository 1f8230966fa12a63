//! One step through the whole pipeline (Wan, Fu & Yao 2022, Fig. 1):
//! swept k-DOP BVH with a feature level → SLPF / DNF → exact VF / EE tests →
//! colliding pairs and the earliest time of impact.
//!
//! The BVH is built on the first step and refitted on later ones (the
//! topology is fixed across a sequence), unless a rebuild is asked for
//! ([`Pipeline::rebuild_next`]): the new tree then reuses the old one's
//! memory. The filters' per-vertex arrays are likewise kept from step to
//! step and written over, so that repeated steps fault in few fresh pages
//! (measured: docs/notes/pipeline.md).
//!
//! **Fused traversal, filters and exact tests.** The traversal hands its
//! candidates to the filters in batches of a few thousand as it finds them
//! (each traversal task has its own [`CandidateSink`]), and the exact test
//! runs on each batch's survivors right after the filters, while their
//! points are still in the cache. Neither the candidates nor the survivors
//! are stored (which saves a pass over every candidate and a second gather
//! of the survivors' positions; docs/notes/pipeline.md). Per pair: SLPF on per-vertex projections ([`SlpfTable`],
//! verdicts equal to the per-pair kernels' except within about 10⁻¹⁵ of
//! touching), then on its survivors DNF and the coplanar-window filter
//! sharing one coplanarity cubic ([`crate::filter::dnf_window_vertex_face`];
//! DNF's verdicts are exactly [`crate::filter::dnf_vertex_face`]'s), then
//! the exact test. The counts are the paper's stages: candidates (BVH),
//! culled by SLPF, by DNF, `after_filter`, colliding; the window filter (not
//! the paper's; [`PipelineConfig::window`]) is counted apart
//! (`culled_window`). Each task keeps its counts and its earliest time of
//! impact, and its colliding pairs only when they are collected
//! ([`PipelineConfig::collect_pairs`]). Stage times: `traverse`, `filter`
//! and `solve` split the fused stage's wall time by the filters' and the
//! exact tests' busy times, each summed over the tasks and spread over the
//! workers.
//!
//! The exact tests run inside the traversal's tasks rather than as a
//! stage of their own, and the counts are added up per task rather than
//! gathered afterwards; the few costly pairs (coplanar motion) are spread
//! by the traversal's own tasks. Other designs: docs/notes/pipeline.md.
//!
//! **The filters' setup beside the BVH.** The filters' per-vertex arrays
//! (the positions side by side, the range check, SLPF's table) need only
//! the positions, so they are written alongside the build or refit
//! (`rayon::join`, so that the two overlap),
//! and count in the `refit` stage.
//!
//! **Time-aligned pruning** ([`PipelineConfig::time_aligned`], off by
//! default): the BVH is built with [`Bvh::build_time_aligned`] and drops
//! leaf pairs and feature pairs by SLPF's test on all its slabs; the counts
//! are then those of the pruned candidates (SLPF culls almost none, the
//! colliding pairs are the same). With [`TimeAligned::Auto`] the step
//! decides whenever it builds the BVH, from how far the vertices move
//! against the edges' length (`super::motion`), and leaves SLPF out when it
//! prunes; the report says what ran (`time_aligned`, `filters`).
//! A BVH built with the other setting is built anew.
//!
//! **Loose brackets at a minimum separation.** A step that does not collect
//! its pairs asks for verdicts with loose brackets
//! ([`WithinVerdict`]: a pair that touches is within `d`, its earliest time
//! between the first advancement step and its contact) and, once the
//! traversal is done, narrows those that may hold the earliest time
//! (`collect`); the report is that of a step with every bracket tight
//! (docs/design.md §5).
//!
//! **Bodies** ([`PipelineConfig::bodies`], `super::bodies`): unless every
//! body collides with itself, the traversal skips the leaf pairs within one
//! body that does not ([`Bvh::self_candidates_par_skipping`]), before their
//! features are tested; the candidates are the pairs tested.
//!
//! **Determinism.** The traversal runs fixed chunks of leaves, each with
//! its own filters and exact tests; their pairs are concatenated and their
//! counts and times of impact combined in chunk order, so counts, pairs and
//! the time of impact are identical for any number of threads.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use super::bodies::BodiesError;
use super::clock::{Clock, busy_ms};
use super::config::{PipelineConfig, TimeAligned};
use super::motion::{AUTO_MIN_MOTION, motion_ratio};
use super::report::{
    BvhCounts, BvhMode, ContactPair, KindCounts, PairCounts, PointCounts, StageTimes, StepReport,
};
use crate::broad_phase::{BroadPhaseError, Bvh, EePair, VfPair};
use crate::broad_phase::{CandidateSink, fold_point_candidates};
use crate::filter::{
    CulledBy, FilterSet, Points, SlpfTable, dnf_window_edge_edge, dnf_window_vertex_face,
    dnf_window_within, point_point_apart, point_segment_apart,
};
use crate::math::{Vec3, all_coordinates_in_filter_range};
use crate::mesh::{Feature, MeshError, Step, TriMesh};
use crate::narrow_phase::{
    LOOSE_MARGIN, SeparationError, Solver, SolverTier, Toi, WithinVerdict, edge_edge_traced_with,
    edge_edge_within_traced_with, edge_edge_within_verdict_with, vertex_face_traced_with,
    vertex_face_within_traced_with, vertex_face_within_verdict_with,
};
use crate::pair_kernel::QueryKind;

/// Why a step could not run.
#[derive(Debug, thiserror::Error)]
pub enum PipelineError {
    /// The step's mesh does not match the BVH of earlier steps (another
    /// vertex count or other faces); [`Pipeline::rebuild_next`] first to
    /// step another mesh.
    #[error(transparent)]
    BroadPhase(#[from] BroadPhaseError),
    /// The positions do not fit the mesh (a length other than its vertex
    /// count) or hold a non-finite coordinate: a [`Step`] built from its
    /// fields rather than by [`Step::new`] (which checks the same), or the
    /// frame given to [`super::intersections()`] or [`super::proximity()`].
    #[error("the step's frames: {0}")]
    Frames(#[source] MeshError),
    /// [`PipelineConfig::bodies`] do not fit the step's mesh.
    #[error("bodies: {0}")]
    Bodies(#[source] BodiesError),
    /// [`PipelineConfig::min_distance`] is not a finite distance.
    #[error("min_distance: {0}")]
    MinDistance(#[from] SeparationError),
    /// An SLPF direction ([`PipelineConfig::directions`]) that is zero or
    /// not finite: it could never cull, and is most likely a mistake.
    #[error("directions[{index}]: {direction:?} is no direction (zero or not finite)")]
    Direction {
        /// Its index in the list.
        index: usize,
        /// The direction.
        direction: [f64; 3],
    },
    /// A minimum separation `d > 0` with a solver that decides contact only.
    #[error(
        "solver: the {0} solver has no minimum separation (it decides contact only); the exact one has"
    )]
    NoSeparation(Solver),
    /// The distance of [`super::proximity()`] is negative or not finite.
    #[error("distance: {0}")]
    Distance(#[from] super::DistanceError),
    /// The step was cancelled ([`Pipeline::step_cancellable`]) before it
    /// ended; the BVH stays that of this step's frames.
    #[error("the step was cancelled")]
    Cancelled,
}

/// The result of one step.
#[derive(Debug, Clone, PartialEq)]
pub struct StepOutcome {
    /// Counts, times and the time of impact.
    pub report: StepReport,
    /// Colliding pairs (empty unless [`PipelineConfig::collect_pairs`]):
    /// vertex–face, edge–edge, then the codimensional points'
    /// ([`ContactPair::vertex_edge`], [`ContactPair::vertex_vertex`]), each
    /// of these groups ascending by `(a, b)`, so that a step lists the same
    /// pairs in the same order whether its BVH was built or refitted, at any
    /// thread count and in any filter setting.
    pub pairs: Vec<ContactPair>,
}

/// A pipeline that keeps its BVH between the steps of a sequence.
#[derive(Debug)]
pub struct Pipeline {
    config: PipelineConfig,
    bvh: Option<Bvh>,
    /// The next step builds a new BVH instead of refitting.
    rebuild: bool,
    /// The filters' per-vertex arrays, kept for the next step.
    buffers: FilterBuffers,
    /// How many loose brackets' pairs a traversal task keeps
    /// ([`LOOSE_CAP`]; smaller in tests, to reach the narrowing it starts).
    loose_cap: usize,
}

impl Pipeline {
    /// A pipeline with `config`; the BVH is built by the first step.
    pub fn new(config: PipelineConfig) -> Pipeline {
        Pipeline {
            config,
            bvh: None,
            rebuild: false,
            buffers: FilterBuffers::default(),
            loose_cap: LOOSE_CAP,
        }
    }

    /// Makes the next step build its BVH anew rather than refit it (after
    /// large deformations, say, where a refitted tree culls less), for any
    /// mesh: without it, a step of a mesh other than the last step's
    /// (another vertex count or other faces) is refused
    /// ([`PipelineError::BroadPhase`]). The new tree is written over the old
    /// one's arrays, so a rebuild does not fault in fresh memory. The outcome
    /// is a fresh pipeline's.
    pub fn rebuild_next(&mut self) {
        self.rebuild = true;
    }

    /// The configuration.
    pub fn config(&self) -> &PipelineConfig {
        &self.config
    }

    /// The BVH the pipeline keeps for its next step, if any (after a step
    /// that succeeded: that step's, built or refitted by it).
    pub(super) fn bvh(&self) -> Option<&Bvh> {
        self.bvh.as_ref()
    }

    /// Runs one step on the current rayon thread pool.
    pub fn step(&mut self, step: &Step<'_>) -> Result<StepOutcome, PipelineError> {
        self.run(step, None)
    }

    /// [`Pipeline::step`], given up when `cancel` is set (by another thread:
    /// a caller that takes an interrupt, say): the traversal's tasks then
    /// skip their candidates and the tasks not begun, and the step answers
    /// [`PipelineError::Cancelled`]. A step that ends before `cancel` is set
    /// is a plain step's. After a cancelled step the pipeline carries on as
    /// after any step: its BVH was built or refitted for these frames.
    pub fn step_cancellable(
        &mut self,
        step: &Step<'_>,
        cancel: &AtomicBool,
    ) -> Result<StepOutcome, PipelineError> {
        self.run(step, Some(cancel))
    }

    fn run(
        &mut self,
        step: &Step<'_>,
        cancel: Option<&AtomicBool>,
    ) -> Result<StepOutcome, PipelineError> {
        let start = Clock::start();
        let cfg = &self.config;
        let mesh = step.mesh;
        // Minimum separation: at d > 0 the time-aligned pruning runs on
        // k-DOPs grown by d / 2, DNF and the window filter with a margin of
        // d (`crate::filter::dnf_window_within`); SLPF, proven for contact
        // only, is off.
        cfg.check()?;
        // `Step`'s fields are public: check what `Step::new` checks (a
        // position per vertex, finite coordinates), in linear time.
        Step::new(mesh, step.x_t0, step.x_t1).map_err(PipelineError::Frames)?;
        let min_distance = cfg.min_distance;
        let within = min_distance > 0.0;
        let parts = (cfg.bodies.as_ref())
            .map(|b| b.parts(step))
            .transpose()
            .map_err(PipelineError::Bodies)?;

        // Stage 1–2a: build or refit the BVH of swept k-DOPs and, alongside
        // it, write the filters' per-vertex arrays (they read the positions
        // only; module doc).
        let t = Clock::start();
        let (bvh, rebuild) = (&mut self.bvh, self.rebuild);
        // Time-aligned pruning, and the filters that go with it
        // (`TimeAligned::Auto` decides whenever the BVH is built).
        let prune = match cfg.time_aligned {
            TimeAligned::Off => false,
            TimeAligned::On => true,
            TimeAligned::Auto => match bvh {
                Some(tree) if tree.axes() == cfg.axes && !rebuild => tree.time_aligned(),
                _ => motion_ratio(step) >= AUTO_MIN_MOTION,
            },
        };
        let filters = match cfg.time_aligned {
            _ if within => cfg.filters.without_slpf(),
            TimeAligned::Auto if prune => cfg.filters.without_slpf(),
            _ => cfg.filters,
        };
        let reusable = |bvh: &Bvh| {
            bvh.axes() == cfg.axes
                && bvh.time_aligned() == prune
                && bvh.min_distance() == min_distance
        };
        let buffers = std::mem::take(&mut self.buffers);
        let loose_cap = self.loose_cap;
        let (built, ctx) = rayon::join(
            || -> Result<bool, BroadPhaseError> {
                Ok(match bvh.as_mut() {
                    Some(tree) if reusable(tree) && !rebuild => {
                        tree.refit(step)?;
                        false
                    }
                    Some(tree) if reusable(tree) => {
                        tree.rebuild(step);
                        true
                    }
                    _ => {
                        *bvh = Some(Bvh::build_within(step, cfg.axes, prune, min_distance));
                        true
                    }
                })
            },
            || FilterCtx::new(cfg, filters, step, buffers, loose_cap),
        );
        let built = match built {
            Ok(built) => built,
            Err(e) => {
                self.buffers = ctx.into_buffers();
                return Err(e.into());
            }
        };
        self.rebuild = false;
        let bvh = self.bvh.as_ref().expect("built above");
        let refit_ms = t.ms();

        // Stages 2b–4, fused: traversal, with the filters and then the
        // exact tests run on each batch of candidates as the traversal
        // emits it (neither the candidates nor the survivors are stored).
        let t = Clock::start();
        let make_sink = || FilterSink::new(&ctx, cancel);
        let (sinks, bp) = match parts.as_ref().filter(|p| !p.all_self_colliding()) {
            Some(p) => bvh.self_candidates_par_skipping(&p.skip_within, make_sink),
            None => bvh.self_candidates_par(make_sink),
        };
        if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            drop(sinks);
            self.buffers = ctx.into_buffers();
            return Err(PipelineError::Cancelled);
        }
        let mut vf = KindCounts {
            candidates: bp.vf_candidates,
            candidates_same_component: bp.vf_same_component,
            ..KindCounts::default()
        };
        let mut ee = KindCounts {
            candidates: bp.ee_candidates,
            candidates_same_component: bp.ee_same_component,
            ..KindCounts::default()
        };
        let (busy, mut toi, mut pairs) = collect(&ctx, sinks, &mut vf, &mut ee, mesh);
        let fused_ms = t.ms();
        // Stage 5: the codimensional points' pairs (none in most meshes).
        let t = Clock::start();
        let skip = parts
            .as_ref()
            .filter(|p| !p.all_self_colliding())
            .map_or(&[][..], |p| &p.skip_within[..]);
        let Some(points) = codim_points(&ctx, step, cfg, skip, cancel, &mut toi, &mut pairs) else {
            self.buffers = ctx.into_buffers();
            return Err(PipelineError::Cancelled);
        };
        let points_ms = t.ms();
        // The filters and the exact tests ran inside the traversal's tasks:
        // their shares of the fused stage are their summed busy times spread
        // over the workers. (Their setup ran alongside the BVH's stage, and
        // counts there.)
        let threads = rayon::current_num_threads() as f64;
        let filter_ms = (busy.filter / threads).min(fused_ms);
        let solve_ms = (busy.solve / threads).min(fused_ms - filter_ms) + points_ms;
        self.buffers = ctx.into_buffers();
        let traverse_ms = fused_ms + points_ms - filter_ms - solve_ms;
        vf.finish();
        ee.finish();

        let report = StepReport {
            vertices: mesh.num_vertices(),
            edges: mesh.num_edges(),
            faces: mesh.num_faces(),
            k: cfg.axes.k(),
            filters,
            window: cfg.window,
            time_aligned: prune,
            solver: cfg.solver,
            min_distance,
            threads: rayon::current_num_threads(),
            bodies: parts.map(|p| p.counts),
            bvh: if built {
                BvhMode::Build
            } else {
                BvhMode::Refit
            },
            vf,
            ee,
            points,
            bvh_tests: BvhCounts {
                node_tests: bp.node_tests,
                leaf_pairs: bp.leaf_pairs,
                leaf_pairs_pruned: bp.leaf_pairs_pruned,
                feature_tests: bp.feature_tests,
            },
            toi: toi.map(|t| t.lower),
            toi_upper: toi.map(|t| t.upper),
            time_ms: StageTimes {
                bvh: refit_ms,
                traverse: traverse_ms,
                filter: filter_ms,
                solve: solve_ms,
                total: start.ms(),
            },
        };
        Ok(StepOutcome { report, pairs })
    }
}

/// The pairs of the codimensional points of `step` (none when it has
/// none): their candidates ([`fold_point_candidates`], less those within
/// one skipped group of `skip`) decided as they are found by the exact
/// edge–edge test with the point as a zero-length edge (whatever
/// `cfg.solver`: the cubic solver does not handle zero-length edges), in
/// contact after the points' filter ([`point_segment_apart`],
/// [`point_point_apart`]), in parallel, keeping no candidate; the colliding
/// ones folded into `toi` and, when collected, appended to `pairs`
/// ascending. Gives up (`None`) when `cancel` is set.
fn codim_points(
    ctx: &FilterCtx<'_>,
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
    let stop = || cancel.is_some_and(|c| c.load(Ordering::Relaxed));
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
    let collect = cfg.collect_pairs;
    let tally = |out: &mut PointTally, pair: [u32; 2], verdict: Option<Toi>| {
        out.candidates += 1;
        if let Some(t) = verdict {
            out.colliding += 1;
            out.toi = Some(earliest(out.toi, t));
            if collect {
                out.hits.push((pair, t));
            }
        }
    };
    let [vertex_edge, vertex_vertex] = fold_point_candidates(
        step,
        cfg.axes,
        cfg.min_distance,
        skip,
        |out, [v, e]| tally(out, [v, e], test(v, edges[e as usize])),
        |out, [v, w]| tally(out, [v, w], test(v, [w, w])),
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

/// The exact test of a pair; `in_range` when the step's every coordinate
/// is in the solver's filter range (its fast tiers then skip the check);
/// within `min_distance` when it is positive.
#[inline]
fn solve(
    solver: Solver,
    kind: QueryKind,
    in_range: bool,
    min_distance: f64,
    q: &[Vec3; 8],
) -> (Option<Toi>, SolverTier) {
    let [a, b, c, d, e, f, g, h] = q;
    if min_distance > 0.0 {
        return match kind {
            QueryKind::VertexFace => {
                vertex_face_within_traced_with(a, b, c, d, e, f, g, h, min_distance, !in_range)
            }
            QueryKind::EdgeEdge => {
                edge_edge_within_traced_with(a, b, c, d, e, f, g, h, min_distance, !in_range)
            }
        };
    }
    match (solver, kind) {
        (Solver::Exact, QueryKind::VertexFace) => {
            vertex_face_traced_with(a, b, c, d, e, f, g, h, !in_range)
        }
        (Solver::Exact, QueryKind::EdgeEdge) => {
            edge_edge_traced_with(a, b, c, d, e, f, g, h, !in_range)
        }
        (Solver::Cubic, kind) => (solver.solve(kind, q), SolverTier::Float),
    }
}

/// The minimum-separation test of a pair (`min_distance > 0`) whose bracket
/// may be loose ([`WithinVerdict`]); `in_range` as for [`solve`].
#[inline]
fn solve_verdict(
    kind: QueryKind,
    in_range: bool,
    min_distance: f64,
    q: &[Vec3; 8],
) -> (WithinVerdict, SolverTier) {
    let [a, b, c, d, e, f, g, h] = q;
    match kind {
        QueryKind::VertexFace => {
            vertex_face_within_verdict_with(a, b, c, d, e, f, g, h, min_distance, !in_range)
        }
        QueryKind::EdgeEdge => {
            edge_edge_within_verdict_with(a, b, c, d, e, f, g, h, min_distance, !in_range)
        }
    }
}

/// The filters' per-vertex arrays, reused from step to step.
#[derive(Debug, Default)]
struct FilterBuffers {
    x: Vec<[[f64; 3]; 2]>,
    slpf: Option<SlpfTable>,
}

/// What the filters need, shared by the traversal's tasks.
struct FilterCtx<'a> {
    /// The mesh's faces and edges (read per pair: one load less each time
    /// than through the step).
    faces: &'a [[u32; 3]],
    edges: &'a [[u32; 2]],
    /// Every vertex's connected component.
    component: &'a [u32],
    /// Every vertex's positions at `t = 0` and `t = 1`, side by side (one
    /// cache line per vertex for the pair gathers).
    ///
    /// The mesh's vertex order hardly matters to these gathers: the filters
    /// are bound by their arithmetic, not by the loads (vertex orders,
    /// prefetching and gathering measured: docs/notes/pipeline.md).
    x: Vec<[[f64; 3]; 2]>,
    /// SLPF (when it runs).
    slpf: Option<SlpfTable>,
    dnf: bool,
    window: bool,
    solver: Solver,
    /// Minimum separation (0: contact).
    min_distance: f64,
    /// Every coordinate of `x` is in the exact solver's filter range
    /// ([`crate::math::in_filter_range`]), checked once here instead of
    /// per pair by the solver (the same outputs, less work per pair).
    in_range: bool,
    /// Keep the colliding pairs, not only their counts.
    collect_pairs: bool,
    /// Brackets may be loose: a minimum-separation step that does not
    /// collect its pairs needs the tight bracket of only the pairs that may
    /// hold its earliest time (module doc).
    loose: bool,
    /// How many of those pairs a traversal task keeps ([`LOOSE_CAP`]).
    loose_cap: usize,
}

impl<'a> FilterCtx<'a> {
    /// The `filters` (with the rest of `cfg`) on `step`, their arrays
    /// written over `buffers`; `loose_cap` as [`FilterCtx::loose_cap`].
    fn new(
        cfg: &PipelineConfig,
        filters: FilterSet,
        step: &'a Step<'a>,
        buffers: FilterBuffers,
        loose_cap: usize,
    ) -> FilterCtx<'a> {
        let uses_slpf = filters.uses_slpf();
        let FilterBuffers { mut x, slpf } = buffers;
        x.clear();
        x.par_extend(
            step.x_t0
                .par_iter()
                .with_min_len(4096)
                .zip(step.x_t1)
                .map(|(a, b)| [[a.x, a.y, a.z], [b.x, b.y, b.z]]),
        );
        let in_range = x
            .par_iter()
            .with_min_len(4096)
            .all(|p| all_coordinates_in_filter_range(p.as_flattened()));
        let slpf = uses_slpf.then(|| {
            let mut table = slpf.unwrap_or_default();
            table.update(step.x_t0, step.x_t1, &cfg.directions);
            table
        });
        FilterCtx {
            faces: step.mesh.faces(),
            edges: step.mesh.edges(),
            component: step.mesh.component(),
            x,
            slpf,
            dnf: filters.uses_dnf(),
            window: cfg.window,
            solver: cfg.solver,
            min_distance: cfg.min_distance,
            in_range,
            collect_pairs: cfg.collect_pairs,
            loose: cfg.min_distance > 0.0 && !cfg.collect_pairs,
            loose_cap,
        }
    }

    /// The arrays, for the next step.
    fn into_buffers(self) -> FilterBuffers {
        FilterBuffers {
            x: self.x,
            slpf: self.slpf,
        }
    }

    /// No filter runs.
    fn filters_off(&self) -> bool {
        self.slpf.is_none() && !self.dnf && !self.window
    }

    /// The filters on a vertex–face pair: `Some(filter)` when culled.
    #[inline(always)]
    fn cull_vertex_face(&self, p: &VfPair) -> Option<CulledBy> {
        let face = self.faces[p.f as usize];
        if self
            .slpf
            .as_ref()
            .is_some_and(|t| t.cull_vertex_face(p.v, face))
        {
            return Some(CulledBy::Slpf);
        }
        if !(self.dnf || self.window) {
            return None;
        }
        if self.min_distance > 0.0 {
            return dnf_window_within(
                QueryKind::VertexFace,
                self.dnf,
                self.window,
                &self.vf_points(p),
                self.min_distance,
            );
        }
        dnf_window_vertex_face(self.dnf, self.window, &self.vf_points(p))
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
        if self.slpf.as_ref().is_some_and(|t| t.cull_edge_edge(ea, eb)) {
            return Some(CulledBy::Slpf);
        }
        if !(self.dnf || self.window) {
            return None;
        }
        if self.min_distance > 0.0 {
            return dnf_window_within(
                QueryKind::EdgeEdge,
                self.dnf,
                self.window,
                &self.ee_points(p),
                self.min_distance,
            );
        }
        dnf_window_edge_edge(self.dnf, self.window, &self.ee_points(p))
    }
}

/// Pairs removed by each filter, in one task.
#[derive(Debug, Default, Clone, Copy)]
struct Culled {
    slpf: u64,
    dnf: u64,
    window: u64,
}

impl Culled {
    #[inline]
    fn count(&mut self, by: CulledBy) {
        match by {
            CulledBy::Slpf => self.slpf += 1,
            CulledBy::Dnf => self.dnf += 1,
            CulledBy::Window => self.window += 1,
        }
    }
}

/// Time a task spent in the filters and in the exact tests, ms.
#[derive(Debug, Default, Clone, Copy)]
struct Busy {
    filter: f64,
    solve: f64,
}

/// A kind of candidate pair, as the filters and the exact test see it.
trait Pair: Copy {
    const KIND: QueryKind;
    /// The filters on the pair: `Some(filter)` when culled.
    fn cull(&self, ctx: &FilterCtx<'_>) -> Option<CulledBy>;
    /// Its eight points, data set row order.
    fn points(&self, ctx: &FilterCtx<'_>) -> Points;
    /// Whether its two features lie in one connected component.
    fn same_component(&self, ctx: &FilterCtx<'_>) -> bool;
    /// Its features by global ID.
    fn contact(&self, mesh: &TriMesh, toi: &Toi) -> ContactPair;
}

impl Pair for VfPair {
    const KIND: QueryKind = QueryKind::VertexFace;

    #[inline(always)]
    fn cull(&self, ctx: &FilterCtx<'_>) -> Option<CulledBy> {
        ctx.cull_vertex_face(self)
    }

    #[inline(always)]
    fn points(&self, ctx: &FilterCtx<'_>) -> Points {
        ctx.vf_points(self)
    }

    #[inline(always)]
    fn same_component(&self, ctx: &FilterCtx<'_>) -> bool {
        let c = ctx.component;
        c[self.v as usize] == c[ctx.faces[self.f as usize][0] as usize]
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
    fn cull(&self, ctx: &FilterCtx<'_>) -> Option<CulledBy> {
        ctx.cull_edge_edge(self)
    }

    #[inline(always)]
    fn points(&self, ctx: &FilterCtx<'_>) -> Points {
        ctx.ee_points(self)
    }

    #[inline(always)]
    fn same_component(&self, ctx: &FilterCtx<'_>) -> bool {
        let (c, e) = (ctx.component, ctx.edges);
        c[e[self.e0 as usize][0] as usize] == c[e[self.e1 as usize][0] as usize]
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

/// One kind of pair in one traversal task: the current batch's survivors,
/// what the filters culled, what the exact test found.
struct KindSink<P> {
    survivors: Vec<P>,
    culled: Culled,
    /// Survivors so far.
    passed: u64,
    /// Pairs the exact solver's float tiers left to its exact oracle.
    fallbacks: u64,
    /// Colliding pairs, and those within one component.
    colliding: u64,
    colliding_same_component: u64,
    /// The smallest lower and upper bounds of their times of impact.
    toi: Option<Toi>,
    /// The colliding pairs, in candidate order (only when the pairs are
    /// collected: the counts and the earliest time of impact need none).
    hits: Vec<(P, Toi)>,
    /// Colliding pairs whose bracket is loose, with its lower end (not in
    /// `toi`; the step narrows those that may hold its earliest time).
    loose: Vec<(P, f64)>,
    /// The smallest upper end of the loose brackets.
    loose_upper: f64,
}

/// How many loose brackets' pairs one traversal task keeps before it
/// narrows them itself ([`KindSink::keep_loose`]): 16 bytes each.
const LOOSE_CAP: usize = 1 << 14;

impl<P: Pair> KindSink<P> {
    fn new() -> KindSink<P> {
        KindSink {
            survivors: Vec::new(),
            culled: Culled::default(),
            passed: 0,
            fallbacks: 0,
            colliding: 0,
            colliding_same_component: 0,
            toi: None,
            hits: Vec::new(),
            loose: Vec::new(),
            loose_upper: f64::INFINITY,
        }
    }

    /// Runs the filters on a batch of candidates, then the exact test on
    /// their survivors.
    #[inline(always)]
    fn batch(&mut self, ctx: &FilterCtx<'_>, pairs: &[P], busy: &mut Busy) {
        let t = busy_ms();
        self.survivors.clear();
        if ctx.filters_off() {
            self.survivors.extend_from_slice(pairs);
        } else {
            for p in pairs {
                match p.cull(ctx) {
                    Some(by) => self.culled.count(by),
                    None => self.survivors.push(*p),
                }
            }
        }
        let t1 = busy_ms();
        self.passed += self.survivors.len() as u64;
        // Taken out for the loop (and put back) so that the loop may update
        // the rest of the sink.
        let survivors = std::mem::take(&mut self.survivors);
        for p in &survivors {
            let q = p.points(ctx).map(|[x, y, z]| Vec3::new(x, y, z));
            let (toi, tier) = if ctx.loose {
                let (verdict, tier) = solve_verdict(P::KIND, ctx.in_range, ctx.min_distance, &q);
                match verdict {
                    WithinVerdict::Tight(toi) => (toi, tier),
                    WithinVerdict::Loose(toi) => {
                        self.fallbacks += u64::from(tier == SolverTier::Exact);
                        self.colliding += 1;
                        self.colliding_same_component += u64::from(p.same_component(ctx));
                        self.keep_loose(ctx, *p, toi);
                        continue;
                    }
                }
            } else {
                solve(ctx.solver, P::KIND, ctx.in_range, ctx.min_distance, &q)
            };
            self.fallbacks += u64::from(tier == SolverTier::Exact);
            if let Some(toi) = toi {
                self.colliding += 1;
                self.colliding_same_component += u64::from(p.same_component(ctx));
                self.toi = Some(earliest(self.toi, toi));
                if ctx.collect_pairs {
                    self.hits.push((*p, toi));
                }
            }
        }
        self.survivors = survivors;
        busy.filter += t1 - t;
        busy.solve += busy_ms() - t1;
    }

    /// Keeps a loose bracket's pair while it may hold the step's earliest
    /// time. `collect` narrows only the pairs whose loose lower end is at
    /// most `U +` [`LOOSE_MARGIN`], `U` the smallest upper end of all the
    /// step's brackets; this sink's own smallest upper end is at least `U`,
    /// so a pair beyond it here is beyond it there too and is dropped at
    /// once. When this sink already holds the tight bracket `[0, 0]`, no
    /// pair can change the step's result, and none is kept. The kept list
    /// is bounded: at [`FilterCtx::loose_cap`] pairs it is cut to those
    /// still in reach and, if that leaves more than half, they are narrowed here (their
    /// tight brackets folded into `toi`, as `collect` would fold them), so
    /// that a step whose pairs are all within `d` (a collapsed mesh, a `d`
    /// larger than the mesh) keeps bounded memory.
    fn keep_loose(&mut self, ctx: &FilterCtx<'_>, p: P, toi: Toi) {
        self.loose_upper = self.loose_upper.min(toi.upper);
        if toi.lower <= self.loose_bound() {
            self.loose.push((p, toi.lower));
        }
        if self.loose.len() >= ctx.loose_cap {
            let bound = self.loose_bound();
            self.loose.retain(|&(_, lower)| lower <= bound);
            if self.loose.len() > ctx.loose_cap / 2 {
                for (p, _) in self.loose.drain(..) {
                    let (t, fallbacks) = tight_bracket(ctx, &p);
                    self.fallbacks += fallbacks;
                    if let Some(t) = t {
                        self.toi = Some(earliest(self.toi, t));
                    }
                }
            }
        }
    }

    /// The largest loose lower end that may still hold the step's earliest
    /// time, as far as this sink knows (`-∞` once its earliest time is
    /// exactly `0`).
    fn loose_bound(&self) -> f64 {
        let tight_upper = self.toi.map_or(f64::INFINITY, |t| t.upper);
        if self.toi.is_some_and(|t| t.lower == 0.0 && t.upper == 0.0) {
            f64::NEG_INFINITY
        } else {
            tight_upper.min(self.loose_upper) + LOOSE_MARGIN
        }
    }
}

/// The smallest lower and upper bounds of `a` (if any) and `b`.
#[inline(always)]
fn earliest(a: Option<Toi>, b: Toi) -> Toi {
    match a {
        Some(a) => Toi {
            lower: a.lower.min(b.lower),
            upper: a.upper.min(b.upper),
        },
        None => b,
    }
}

/// One traversal task's sink: runs the filters on each batch, then the
/// exact test on the batch's survivors (module doc).
struct FilterSink<'c> {
    ctx: &'c FilterCtx<'c>,
    /// Set: the step is cancelled, candidates are dropped untested.
    cancel: Option<&'c AtomicBool>,
    vf: KindSink<VfPair>,
    ee: KindSink<EePair>,
    busy: Busy,
}

impl<'c> FilterSink<'c> {
    fn new(ctx: &'c FilterCtx<'c>, cancel: Option<&'c AtomicBool>) -> FilterSink<'c> {
        FilterSink {
            ctx,
            cancel,
            vf: KindSink::new(),
            ee: KindSink::new(),
            busy: Busy::default(),
        }
    }
}

impl CandidateSink for FilterSink<'_> {
    fn vertex_face(&mut self, pairs: &[VfPair]) {
        if !self.stopped() {
            self.vf.batch(self.ctx, pairs, &mut self.busy);
        }
    }

    fn edge_edge(&mut self, pairs: &[EePair]) {
        if !self.stopped() {
            self.ee.batch(self.ctx, pairs, &mut self.busy);
        }
    }

    fn stopped(&self) -> bool {
        self.cancel.is_some_and(|c| c.load(Ordering::Relaxed))
    }
}

/// One kind's counts from all tasks, added up into `counts`; its earliest
/// time of impact; its colliding pairs (when collected) by global ID
/// appended to `pairs`, ascending by `(a, b)` (the tasks' order follows the
/// tree, which a refit keeps and a build changes). Returns its loose brackets' pairs and the
/// smallest of their upper ends.
fn collect_kind<P: Pair>(
    parts: impl Iterator<Item = KindSink<P>>,
    counts: &mut KindCounts,
    mesh: &TriMesh,
    toi: &mut Option<Toi>,
    pairs: &mut Vec<ContactPair>,
) -> (Vec<(P, f64)>, f64) {
    let mut passed = 0;
    let (mut loose, mut loose_upper) = (Vec::new(), f64::INFINITY);
    let first = pairs.len();
    for mut k in parts {
        passed += k.passed;
        counts.exact_fallbacks += k.fallbacks;
        counts.culled_slpf += k.culled.slpf;
        counts.culled_dnf += k.culled.dnf;
        counts.culled_window += k.culled.window;
        counts.colliding += k.colliding;
        counts.colliding_same_component += k.colliding_same_component;
        if let Some(t) = k.toi {
            *toi = Some(earliest(*toi, t));
        }
        pairs.extend(k.hits.iter().map(|(p, t)| p.contact(mesh, t)));
        loose.append(&mut k.loose);
        loose_upper = loose_upper.min(k.loose_upper);
    }
    counts.after_filter = passed + counts.culled_window;
    pairs[first..].sort_unstable_by_key(|p| (p.a, p.b));
    (loose, loose_upper)
}

/// The tasks' counts added up into `vf` and `ee`; returns the summed busy
/// times, the earliest time of impact's bracket, and the
/// colliding pairs (vertex–face, then edge–edge, each ascending; empty
/// unless collected).
///
/// Loose brackets (a minimum-separation step that does not collect its
/// pairs, [`WithinVerdict`]) are narrowed here where they may hold the
/// earliest time: a pair whose loose lower end is at most `U +`
/// [`LOOSE_MARGIN`], `U` the smallest upper end of all brackets, tight or
/// loose, gets its tight bracket from [`solve`]. Every other pair's tight
/// bracket would lie wholly after the smallest tight upper end, so the
/// result is that of a step with every bracket tight.
fn collect(
    ctx: &FilterCtx<'_>,
    sinks: Vec<FilterSink<'_>>,
    vf: &mut KindCounts,
    ee: &mut KindCounts,
    mesh: &TriMesh,
) -> (Busy, Option<Toi>, Vec<ContactPair>) {
    let mut busy = Busy::default();
    let (mut vf_parts, mut ee_parts) = (Vec::new(), Vec::new());
    for s in sinks {
        busy.filter += s.busy.filter;
        busy.solve += s.busy.solve;
        vf_parts.push(s.vf);
        ee_parts.push(s.ee);
    }
    let (mut toi, mut pairs) = (None, Vec::new());
    let (vf_loose, vf_upper) = collect_kind(vf_parts.into_iter(), vf, mesh, &mut toi, &mut pairs);
    let (ee_loose, ee_upper) = collect_kind(ee_parts.into_iter(), ee, mesh, &mut toi, &mut pairs);
    if !(vf_loose.is_empty() && ee_loose.is_empty()) {
        let t = busy_ms();
        let bound = toi
            .map_or(f64::INFINITY, |t| t.upper)
            .min(vf_upper)
            .min(ee_upper)
            + LOOSE_MARGIN;
        vf.exact_fallbacks += narrow(ctx, &vf_loose, bound, &mut toi);
        ee.exact_fallbacks += narrow(ctx, &ee_loose, bound, &mut toi);
        // Spread over the workers like the tasks' busy times.
        busy.solve += (busy_ms() - t) * rayon::current_num_threads() as f64;
    }
    (busy, toi, pairs)
}

/// The tight bracket of a pair whose loose one said it comes within `d`,
/// and whether the exact path decided it (`1`) or not (`0`).
fn tight_bracket<P: Pair>(ctx: &FilterCtx<'_>, p: &P) -> (Option<Toi>, u64) {
    let q = p.points(ctx).map(|[x, y, z]| Vec3::new(x, y, z));
    let (t, tier) = solve(ctx.solver, P::KIND, ctx.in_range, ctx.min_distance, &q);
    debug_assert!(t.is_some(), "a pair within d without a time of impact");
    (t, u64::from(tier == SolverTier::Exact))
}

/// The tight brackets of the `loose` pairs whose lower end is at most
/// `bound`, folded into `toi`; returns how many of them the exact path
/// decided.
fn narrow<P: Pair + Sync>(
    ctx: &FilterCtx<'_>,
    loose: &[(P, f64)],
    bound: f64,
    toi: &mut Option<Toi>,
) -> u64 {
    let (found, fallbacks) = loose
        .par_iter()
        .filter(|(_, lower)| *lower <= bound)
        .map(|(p, _)| tight_bracket(ctx, p))
        .reduce(
            || (None, 0),
            |(a, f), (b, g)| (b.map(|b| earliest(a, b)).or(a), f + g),
        );
    if let Some(t) = found {
        *toi = Some(earliest(*toi, t));
    }
    fallbacks
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two sheets of `n × n` vertices, spacing 1: one still at z = 0, the
    /// other shifted in the plane and tilted, crossing it from above to
    /// below, so that many pairs touch, each at its own time.
    fn crossing_sheets(n: u32) -> (TriMesh, Vec<Vec3>, Vec<Vec3>) {
        let (mut faces, mut x0, mut x1) = (Vec::new(), Vec::new(), Vec::new());
        for sheet in 0..2 {
            let base = sheet * n * n;
            for j in 0..n {
                for i in 0..n {
                    let (x, y) = (f64::from(i), f64::from(j));
                    if sheet == 0 {
                        x0.push(Vec3::new(x, y, 0.0));
                        x1.push(Vec3::new(x, y, 0.0));
                    } else {
                        let tilt = 0.05 * x + 0.03 * y;
                        x0.push(Vec3::new(x + 0.3, y + 0.2, 1.5 + tilt));
                        x1.push(Vec3::new(x + 0.3, y + 0.2, -1.5 + tilt));
                    }
                }
            }
            for j in 0..n - 1 {
                for i in 0..n - 1 {
                    let a = base + j * n + i;
                    faces.push([a, a + 1, a + n + 1]);
                    faces.push([a, a + n + 1, a + n]);
                }
            }
        }
        let mesh = TriMesh::new(x0.len(), faces).expect("valid faces");
        (mesh, x0, x1)
    }

    /// A step's report, on `threads` workers, with at most `loose_cap` loose
    /// brackets' pairs kept per traversal task.
    fn report(
        step: &Step<'_>,
        config: PipelineConfig,
        threads: usize,
        loose_cap: usize,
    ) -> StepReport {
        let mut pipeline = Pipeline::new(config);
        pipeline.loose_cap = loose_cap;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a pool");
        pool.install(|| pipeline.step(step))
            .expect("a valid step")
            .report
    }

    /// What a step reports apart from its times and the exact path's count.
    fn outcome(r: &StepReport) -> impl PartialEq + std::fmt::Debug {
        let counts = |k: &KindCounts| {
            (
                k.candidates,
                k.after_filter,
                k.colliding,
                k.colliding_same_component,
            )
        };
        (counts(&r.vf), counts(&r.ee), r.toi, r.toi_upper)
    }

    /// The cubic solver decides contact only: a step at `d > 0` with it is
    /// refused, naming the solver; at `d = 0` it runs.
    #[test]
    fn the_cubic_solver_is_refused_at_a_min_distance() {
        let (mesh, x0, x1) = crossing_sheets(3);
        let step = Step::new(&mesh, &x0, &x1).expect("matching frames");
        let cubic = PipelineConfig {
            solver: Solver::Cubic,
            ..PipelineConfig::default()
        };
        let within = PipelineConfig {
            min_distance: 1e-3,
            ..cubic.clone()
        };
        assert!(matches!(
            within.check(),
            Err(PipelineError::NoSeparation(Solver::Cubic))
        ));
        let e = Pipeline::new(within).step(&step).expect_err("refused");
        assert!(
            e.to_string()
                .starts_with("solver: the cubic solver has no minimum separation"),
            "{e}"
        );
        assert!(cubic.check().is_ok());
        assert_eq!(report(&step, cubic, 1, LOOSE_CAP).solver, Solver::Cubic);
    }

    /// An SLPF direction that is zero or not finite is refused, naming it.
    #[test]
    fn directions_that_are_zero_or_not_finite_are_refused() {
        for bad in [[0.0; 3], [1.0, f64::NAN, 0.0], [f64::INFINITY, 0.0, 0.0]] {
            let config = PipelineConfig {
                directions: vec![[1.0, 0.0, 0.0], bad],
                ..PipelineConfig::default()
            };
            let e = config.check().expect_err("refused");
            assert!(
                matches!(e, PipelineError::Direction { index: 1, .. }),
                "{e}"
            );
            assert!(e.to_string().starts_with("directions[1]: "), "{e}");
        }
        assert!(PipelineConfig::default().check().is_ok());
    }

    /// A pipeline's next step on a mesh of the same counts but other faces
    /// (an edge flipped) is refused, not run on the old tree's features;
    /// after `rebuild_next` it is a fresh pipeline's step.
    #[test]
    fn a_step_of_another_mesh_with_the_same_counts_is_refused_until_a_rebuild() {
        let (mesh, x0, x1) = crossing_sheets(3);
        let mut flipped = mesh.faces().to_vec();
        // The quad [0, 1, 4, 3] split along 1–3 instead of 0–4.
        let (a, b) = (flipped[0], flipped[1]);
        assert_eq!((a, b), ([0, 1, 4], [0, 4, 3]));
        flipped[0] = [0, 1, 3];
        flipped[1] = [1, 4, 3];
        let other = TriMesh::new(mesh.num_vertices(), flipped).expect("valid faces");
        assert_eq!(
            (other.num_edges(), other.num_faces()),
            (mesh.num_edges(), mesh.num_faces())
        );
        let first = Step::new(&mesh, &x0, &x1).expect("matching frames");
        let second = Step::new(&other, &x0, &x1).expect("matching frames");
        let mut pipeline = Pipeline::new(PipelineConfig::default());
        pipeline.step(&first).expect("a valid step");
        let e = pipeline.step(&second).expect_err("another mesh");
        assert!(
            matches!(
                e,
                PipelineError::BroadPhase(BroadPhaseError::FacesMismatch { face: 0 })
            ),
            "{e}"
        );
        pipeline.rebuild_next();
        let rebuilt = pipeline.step(&second).expect("rebuilt").report;
        let fresh = report(&second, PipelineConfig::default(), 1, LOOSE_CAP);
        assert_eq!(outcome(&rebuilt), outcome(&fresh));
    }

    /// A step cancelled before it runs answers `Cancelled`; the pipeline's
    /// next step is a plain one (over the cancelled step's tree), and a step
    /// given a flag that stays clear is a plain step.
    #[test]
    fn a_cancelled_step_says_so_and_the_pipeline_carries_on() {
        let (mesh, x0, x1) = crossing_sheets(6);
        let step = Step::new(&mesh, &x0, &x1).expect("matching frames");
        let config = PipelineConfig {
            collect_pairs: true,
            ..PipelineConfig::default()
        };
        let fresh = Pipeline::new(config.clone()).step(&step).expect("a step");
        assert!(fresh.report.vf.colliding + fresh.report.ee.colliding > 0);

        let mut pipeline = Pipeline::new(config.clone());
        let e = pipeline
            .step_cancellable(&step, &AtomicBool::new(true))
            .expect_err("cancelled");
        assert!(matches!(e, PipelineError::Cancelled), "{e}");
        let next = pipeline.step(&step).expect("a step");
        assert_eq!(next.report.bvh, BvhMode::Refit);
        assert_eq!(outcome(&next.report), outcome(&fresh.report));
        assert_eq!(next.pairs, fresh.pairs);

        let clear = Pipeline::new(config)
            .step_cancellable(&step, &AtomicBool::new(false))
            .expect("not cancelled");
        assert_eq!(outcome(&clear.report), outcome(&fresh.report));
        assert_eq!(clear.pairs, fresh.pairs);
    }

    /// A collected pair's global IDs come back as the mesh's own indices.
    #[test]
    fn contact_pairs_give_the_mesh_indices_of_their_features() {
        let (mesh, x0, x1) = crossing_sheets(4);
        let step = Step::new(&mesh, &x0, &x1).expect("matching frames");
        let config = PipelineConfig {
            collect_pairs: true,
            ..PipelineConfig::default()
        };
        let pairs = Pipeline::new(config).step(&step).expect("a step").pairs;
        let kinds = |k| pairs.iter().filter(|p| p.kind == k).count();
        assert!(kinds(QueryKind::VertexFace) > 0 && kinds(QueryKind::EdgeEdge) > 0);
        for p in &pairs {
            let ids = match (p.vertex_face(&mesh), p.edge_edge(&mesh)) {
                (Some((v, f)), None) => (Feature::Vertex(v), Feature::Face(f)),
                (None, Some((a, b))) => (Feature::Edge(a), Feature::Edge(b)),
                other => panic!("{p:?}: {other:?}"),
            };
            assert_eq!((mesh.global_id(ids.0), mesh.global_id(ids.1)), (p.a, p.b));
        }
        // IDs of no feature of the mesh give no indices.
        let stray = ContactPair {
            a: u64::MAX,
            ..pairs[0]
        };
        assert_eq!(
            (stray.vertex_face(&mesh), stray.edge_edge(&mesh)),
            (None, None)
        );
    }

    /// A `Step` built from its fields with frames that do not fit the mesh
    /// is refused with an error, not a panic or a silent result.
    #[test]
    fn a_step_built_from_its_fields_is_checked_as_step_new_checks() {
        let (mesh, x0, x1) = crossing_sheets(3);
        let short = &x1[..x1.len() - 1];
        let mut nan = x1.clone();
        nan[4].y = f64::NAN;
        for (x_t1, says) in [(short, "vertices"), (&nan[..], "non-finite")] {
            let step = Step {
                mesh: &mesh,
                x_t0: &x0,
                x_t1,
            };
            let e = Pipeline::new(PipelineConfig::default())
                .step(&step)
                .expect_err("bad frames");
            assert!(
                matches!(e, PipelineError::Frames(_)) && e.to_string().contains(says),
                "{e}"
            );
            // The BVH's own refit refuses a short frame too.
            if x_t1.len() != x0.len() {
                let good = Step::new(&mesh, &x0, &x1).expect("matching frames");
                let mut bvh = Bvh::build(&good, crate::bounding_volume::KdopAxes::Dop26);
                assert!(matches!(
                    bvh.refit(&step),
                    Err(BroadPhaseError::FrameLength { time: 1, .. })
                ));
            }
        }
    }

    /// However few loose brackets a task may keep (so that it narrows them
    /// itself, often), on one thread or two, a step that does not collect
    /// its pairs reports what one that brackets every pair tightly does:
    /// on crossing sheets (pairs touching at many times) and on a mesh
    /// collapsed to one point (every pair within `d` at `t = 0`).
    #[test]
    fn loose_brackets_kept_in_bounded_memory_give_the_tight_report() {
        let (mesh, x0, x1) = crossing_sheets(10);
        let collapsed = vec![Vec3::new(0.25, -1.0, 3.0); x0.len()];
        for (x0, x1, d) in [
            (&x0, &x1, 0.4),
            (&x0, &x1, 1e-3),
            (&collapsed, &collapsed, 0.1),
        ] {
            let step = Step::new(&mesh, x0, x1).expect("matching frames");
            let config = PipelineConfig {
                min_distance: d,
                ..PipelineConfig::default()
            };
            let tight = report(
                &step,
                PipelineConfig {
                    collect_pairs: true,
                    ..config.clone()
                },
                1,
                LOOSE_CAP,
            );
            assert!(
                tight.vf.colliding > 100 && tight.ee.colliding > 100,
                "d = {d}: {tight:?}"
            );
            for cap in [1, 2, 8, 64, LOOSE_CAP] {
                for threads in [1, 2] {
                    let counted = report(&step, config.clone(), threads, cap);
                    assert_eq!(
                        outcome(&counted),
                        outcome(&tight),
                        "d = {d}, cap {cap}, {threads} threads"
                    );
                }
            }
        }
    }
}
