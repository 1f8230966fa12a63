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
//! (each traversal task has its own sink, [`super::tasks::TaskSink`], a
//! [`crate::broad_phase::CandidateSink`]), and the exact test runs on each
//! batch's survivors right after the filters, while their points are still
//! in the cache. Neither the candidates nor the survivors are stored (which
//! saves a pass over every candidate and a second gather of the survivors'
//! positions; docs/notes/pipeline.md). Per pair ([`super::decide`], the
//! filters composed by [`crate::filter::FilterSet::chain`]): SLPF on
//! per-vertex projections ([`crate::filter::SlpfTable`], verdicts equal to
//! the per-pair kernels' except within about 10⁻¹⁵ of touching), then on its
//! survivors DNF and the coplanar-window filter sharing one coplanarity
//! cubic ([`crate::filter::dnf_window_vertex_face`]; DNF's verdicts are
//! exactly [`crate::filter::dnf_vertex_face`]'s), then the exact test. The
//! counts are the paper's stages: candidates (BVH), culled by SLPF, by DNF,
//! `after_filter`, colliding; the window filter (not the paper's;
//! [`PipelineConfig::window`]) is counted apart (`culled_window`). Each task
//! keeps its counts and its earliest time of impact, and its colliding pairs
//! only when they are collected ([`PipelineConfig::collect_pairs`]). Stage
//! times: `traverse`, `filter` and `solve` split the fused stage's wall time
//! by the filters' and the exact tests' busy times, each summed over the
//! tasks and spread over the workers. The codimensional points' pairs come
//! after the fused stage ([`super::points`]).
//!
//! The exact tests run inside the traversal's tasks rather than as a
//! stage of their own, and the counts are added up per task rather than
//! gathered afterwards; the few costly pairs (coplanar motion) are spread
//! by the traversal's own tasks. Other designs: docs/notes/pipeline.md.
//!
//! **The filters' setup beside the BVH.** The filters' per-vertex arrays
//! (the positions side by side, the range check, SLPF's table) need only
//! the positions, so they are written alongside the build or refit
//! (`rayon::join`, so that the two overlap), and count in the BVH's stage
//! ([`StageTimes::bvh`]).
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
//! ([`crate::narrow_phase::WithinVerdict`]: a pair that touches is within `d`, its earliest time
//! between the first advancement step and its contact) and, once the
//! traversal is done, narrows those that may hold the earliest time
//! ([`super::tasks::collect`]); the report is that of a step with every bracket tight
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

use std::sync::atomic::AtomicBool;

use super::bodies::{BodiesError, BodyParts};
use super::clock::Clock;
use super::config::{PipelineConfig, TimeAligned};
use super::decide::{PairBuffers, PairCtx};
use super::motion::{AUTO_MIN_MOTION, motion_ratio};
use super::points::codim_points;
use super::report::{
    BvhCounts, BvhMode, ContactPair, KindCounts, PointCounts, StageTimes, StepReport,
};
use super::tasks::{Busy, LOOSE_CAP, TaskSink, collect, is_set, take_listed};
use crate::broad_phase::{BroadPhaseError, Bvh, EePair, VfPair};
use crate::mesh::{MeshError, Step};
use crate::narrow_phase::{SeparationError, Solver, Toi};

/// What a [`PipelineError::BroadPhase`] adds to the broad phase's message:
/// the pipeline's way to rebuild, where the fault is another mesh.
fn rebuild_advice(e: &BroadPhaseError) -> &'static str {
    match e {
        BroadPhaseError::TopologyMismatch { .. }
        | BroadPhaseError::FacesMismatch { .. }
        | BroadPhaseError::EdgesMismatch { .. } => {
            ": Pipeline::rebuild_next() makes the next step build it anew"
        }
        _ => "",
    }
}

/// Why a step could not run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PipelineError {
    /// The step's mesh does not match the BVH of earlier steps (another
    /// vertex count or other faces); [`Pipeline::rebuild_next`] first to
    /// step another mesh. The message says so where that is the fault.
    #[error("{0}{advice}", advice = rebuild_advice(.0))]
    BroadPhase(#[from] BroadPhaseError),
    /// The positions do not fit the mesh (a length other than its vertex
    /// count) or hold a non-finite coordinate: the frame given to
    /// [`super::intersections()`] or [`super::proximity()`] ([`Step::new`]
    /// refuses the same, so a step's frames always fit).
    #[error("the positions: {0}")]
    Frames(#[from] MeshError),
    /// [`PipelineConfig::bodies`] do not fit the step's mesh.
    #[error("bodies: {0}")]
    Bodies(#[from] BodiesError),
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
        "solver: the {0} solver has no minimum separation (it decides contact only); {names} has",
        names = crate::narrow_phase::min_distance_solvers()
    )]
    NoSeparation(Solver),
    /// The distance of [`super::proximity()`] is negative or not finite.
    #[error("distance: {0}")]
    Distance(#[from] super::DistanceError),
    /// A given candidate pair is no candidate of the step's mesh
    /// ([`Pipeline::step_on_candidates`]).
    #[error("candidates: {0}")]
    Candidates(#[from] super::CandidateError),
    /// The step was cancelled ([`Pipeline::step_cancellable`]) before it
    /// ended; the BVH stays that of this step's frames.
    #[error("the step was cancelled")]
    Cancelled,
    /// The step has more pairs to keep than [`PipelineConfig::max_pairs`]:
    /// it stopped before its lists grew past that. Its counts alone
    /// (`collect_pairs` off) need no list; or a smaller minimum separation
    /// or distance, or a larger limit. The BVH stays that of this step's
    /// frames.
    #[error(
        "more than {limit} pairs to keep (max_pairs, the bound on a step's lists); ask for the counts only (pairs not collected), a larger max_pairs or, at a minimum separation, a smaller one"
    )]
    TooManyPairs {
        /// [`PipelineConfig::max_pairs`].
        limit: u64,
    },
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

/// What [`Pipeline::run`] does with a step's pairs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Run {
    /// Tests them: a step.
    Test,
    /// Lists those the filters pass instead of testing them
    /// ([`Pipeline::candidates`]: nothing collides, and the codimensional
    /// points' pairs are left out).
    List,
    /// Tests them on a step at rest ([`Pipeline::proximity`]): every pair
    /// kept and decided by the exact solver; a tree it builds under
    /// [`TimeAligned::Auto`] is marked [`Pipeline::built_at_rest`].
    AtRest,
    /// Tests them until one collides ([`Pipeline::is_collision_free`]):
    /// once a task finds one, every task drops its candidates untested and
    /// the codimensional points are left out; the counts are then partial,
    /// and say only that one collides.
    FirstHit,
    /// Tests them for the earliest time of impact alone
    /// ([`Pipeline::earliest_toi`]): with an exact solver, a pair whose
    /// features stay apart until past the smallest upper end found so far
    /// is skipped; the counts are then partial.
    Earliest,
}

/// A pipeline that keeps its BVH between the steps of a sequence.
#[derive(Debug)]
pub struct Pipeline {
    config: PipelineConfig,
    bvh: Option<Bvh>,
    /// The next step builds a new BVH instead of refitting.
    rebuild: bool,
    /// The kept tree was built at rest by [`Pipeline::proximity`] under
    /// [`TimeAligned::Auto`], whose pruning choice then saw no motion: the
    /// next step (or candidates' listing) under `Auto` builds anew, choosing
    /// from its own motion, while further proximity calls refit it.
    built_at_rest: bool,
    /// The filters' per-vertex arrays, kept for the next step.
    pub(super) buffers: PairBuffers,
    /// How many loose brackets' pairs a traversal task keeps
    /// ([`LOOSE_CAP`]; smaller in tests, to reach the narrowing it starts).
    pub(super) loose_cap: usize,
}

impl Pipeline {
    /// A pipeline with `config`; the BVH is built by the first step.
    pub fn new(config: PipelineConfig) -> Pipeline {
        Pipeline {
            config,
            bvh: None,
            rebuild: false,
            built_at_rest: false,
            buffers: PairBuffers::default(),
            loose_cap: LOOSE_CAP,
        }
    }

    /// Makes the next step build its BVH anew rather than refit it (after
    /// large deformations, say, where a refitted tree culls less), for any
    /// mesh: without it, a step of a mesh other than the last step's
    /// (another vertex count or other faces) is refused
    /// ([`PipelineError::BroadPhase`]). The new tree is written over the old
    /// one's arrays, so a rebuild does not fault in fresh memory. The outcome
    /// is a fresh pipeline's. A [`Pipeline::candidates`] or
    /// [`Pipeline::proximity`] call counts as a step here: it builds or
    /// refits the tree, and takes a pending rebuild.
    pub fn rebuild_next(&mut self) {
        self.rebuild = true;
    }

    /// The configuration.
    pub fn config(&self) -> &PipelineConfig {
        &self.config
    }

    /// Replaces the configuration (another minimum separation or filter
    /// set, say, between the steps of one mesh). The next step refits the
    /// kept BVH when the tree fits the new configuration (the same
    /// [`PipelineConfig::axes`], time-aligned pruning and minimum
    /// separation), and builds one otherwise; a change to
    /// [`TimeAligned::Auto`], which decides when a tree is built, builds
    /// one. Its outcome is a fresh pipeline's with `config`.
    pub fn set_config(&mut self, config: PipelineConfig) {
        if config.time_aligned == TimeAligned::Auto && self.config.time_aligned != TimeAligned::Auto
        {
            self.rebuild = true;
        }
        self.config = config;
    }

    /// The BVH the pipeline keeps for its next step, if any (after a step
    /// that succeeded: that step's, built or refitted by it).
    pub(super) fn bvh(&self) -> Option<&Bvh> {
        self.bvh.as_ref()
    }

    /// Runs one step: every vertex–face and edge–edge pair of `step`'s mesh
    /// (but those that share a vertex, and those that
    /// [`PipelineConfig::bodies`] skips) that touches, or comes within
    /// [`PipelineConfig::min_distance`], at some `t ∈ [0, 1]` is colliding;
    /// the report counts them per stage and gives the earliest time of
    /// impact ([`StepReport::toi`]), and [`StepOutcome::pairs`] lists them
    /// when [`PipelineConfig::collect_pairs`] is set. With an exact solver
    /// (the default) no pair is missed and none invented.
    ///
    /// The first step builds the BVH; later ones refit it for their frames
    /// ([`StepReport::bvh`]), so a sequence of one mesh steps through one
    /// pipeline; after [`Pipeline::rebuild_next`] (needed before a step of
    /// another mesh) the next step builds anew.
    ///
    /// Runs on the current rayon thread pool (the global one, all CPUs,
    /// outside any [`rayon::ThreadPool::install`]); the pairs, their order,
    /// the counts and the time of impact are the same for any number of
    /// threads.
    ///
    /// # Errors
    ///
    /// [`PipelineError::BroadPhase`] when the mesh is not the kept BVH's;
    /// [`PipelineError::Bodies`], [`PipelineError::MinDistance`],
    /// [`PipelineError::Direction`] and [`PipelineError::NoSeparation`] for
    /// a configuration that does not fit the step or is invalid
    /// ([`PipelineConfig::check`]); [`PipelineError::TooManyPairs`] when
    /// more than [`PipelineConfig::max_pairs`] pairs would be kept.
    pub fn step(&mut self, step: &Step<'_>) -> Result<StepOutcome, PipelineError> {
        Ok(self.run(step, None, Run::Test)?.0)
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
        Ok(self.run(step, Some(cancel), Run::Test)?.0)
    }

    /// Whether no pair of `step` collides: exactly when [`Pipeline::step`]'s
    /// report would count no colliding pair (at the configuration's
    /// [`PipelineConfig::min_distance`], bodies and solver), but the step
    /// stops at the first colliding pair it finds and narrows no time of
    /// impact (at `d > 0` a pair's verdict is that of its loose bracket,
    /// docs/design.md §5, *Loose brackets*). The IPC Toolkit's
    /// `is_step_collision_free`. A step that collides ends early, one that
    /// does not costs what a step costs; the answer is the same for any
    /// number of threads. [`PipelineConfig::collect_pairs`] is ignored: no
    /// pair is kept. Gives up with [`PipelineError::Cancelled`] once
    /// `cancel` is set.
    ///
    /// The BVH is built or refitted as for [`Pipeline::step`], and kept.
    ///
    /// # Errors
    ///
    /// As [`Pipeline::step`], but for [`PipelineError::TooManyPairs`]; and
    /// [`PipelineError::Cancelled`].
    pub fn is_collision_free(
        &mut self,
        step: &Step<'_>,
        cancel: Option<&AtomicBool>,
    ) -> Result<bool, PipelineError> {
        let (outcome, _) = self.run(step, cancel, Run::FirstHit)?;
        Ok(outcome.report.colliding() == 0)
    }

    /// The earliest time of impact of `step` alone: the bracket
    /// `[toi, toi_upper]` of [`Pipeline::step`]'s report
    /// ([`StepReport::toi`], [`StepReport::toi_upper`]) or one within it,
    /// as exactly (with an exact solver the true time is in it, its lower
    /// end never late), and the same for any number of threads. `None`
    /// without contact (or, at [`PipelineConfig::min_distance`] `d > 0`,
    /// no pair within `d`). The IPC Toolkit's
    /// `compute_collision_free_stepsize` asks this.
    ///
    /// Faster than a step where a time is found early: once a pair's bracket
    /// ends at `U`, a pair whose features' boxes swept over
    /// `[0, U + 2⁻²⁹]` stay more than `d` apart is skipped before its
    /// filters and exact test ([`crate::filter::apart_until`]); such a
    /// pair's bracket would lie wholly after `U` (docs/design.md §10, *The
    /// earliest time alone*). A contact bracket wider than `2⁻³⁰` that may
    /// hold the earliest time is narrowed by the exact oracle, so the
    /// bracket may be narrower than the step's. With the cubic solver
    /// (an estimate) no pair is skipped and the answer is the step's.
    /// [`PipelineConfig::collect_pairs`] is ignored. Gives up with
    /// [`PipelineError::Cancelled`] once `cancel` is set.
    ///
    /// The BVH is built or refitted as for [`Pipeline::step`], and kept.
    ///
    /// # Errors
    ///
    /// As [`Pipeline::is_collision_free`].
    pub fn earliest_toi(
        &mut self,
        step: &Step<'_>,
        cancel: Option<&AtomicBool>,
    ) -> Result<Option<Toi>, PipelineError> {
        let (outcome, _) = self.run(step, cancel, Run::Earliest)?;
        let r = &outcome.report;
        Ok(r.toi
            .zip(r.toi_upper)
            .map(|(lower, upper)| Toi { lower, upper }))
    }

    /// The step, its pairs tested, listed or tested at rest ([`Run`]); the
    /// pairs the filters pass are listed only for [`Run::List`].
    pub(super) fn run(
        &mut self,
        step: &Step<'_>,
        cancel: Option<&AtomicBool>,
        kind: Run,
    ) -> Result<(StepOutcome, Listed), PipelineError> {
        let start = Clock::start();
        let (at_rest, list_only) = (kind == Run::AtRest, kind == Run::List);
        if !at_rest
            && std::mem::take(&mut self.built_at_rest)
            && self.config.time_aligned == TimeAligned::Auto
        {
            self.rebuild = true;
        }
        // At rest every pair is kept and decided exactly (the cubic solver
        // misses pairs that touch at rest); a step that stops at its first
        // hit keeps no pair, and its verdicts at d > 0 are the loose
        // brackets' (the cheaper). The pipeline's own configuration is not
        // changed.
        let own_config;
        let cfg = match kind {
            Run::AtRest => {
                own_config = PipelineConfig {
                    collect_pairs: true,
                    solver: Solver::Exact,
                    ..self.config.clone()
                };
                &own_config
            }
            Run::FirstHit | Run::Earliest => {
                own_config = PipelineConfig {
                    collect_pairs: false,
                    ..self.config.clone()
                };
                &own_config
            }
            Run::Test | Run::List => &self.config,
        };
        let mesh = step.mesh;
        // Minimum separation: at d > 0 the time-aligned pruning runs on
        // k-DOPs grown by d / 2, DNF and the window filter with a margin of
        // d (`crate::filter::dnf_window_within`); SLPF, proven for contact
        // only, is off.
        cfg.check()?;
        // The frames of `intersections` and `proximity` become a `Step`
        // inside the crate: check what `Step::new` checks (a position per
        // vertex, finite coordinates), in linear time.
        Step::new(mesh, step.x_t0, step.x_t1)?;
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
        // (`TimeAligned::Auto` decides whenever the BVH is built: a tree
        // that will be refitted keeps its own setting).
        let fits = |tree: &Bvh| tree.axes() == cfg.axes && tree.min_distance() == min_distance;
        let prune = match cfg.time_aligned {
            TimeAligned::Off => false,
            TimeAligned::On => true,
            TimeAligned::Auto => match bvh {
                Some(tree) if fits(tree) && !rebuild => tree.time_aligned(),
                _ => motion_ratio(step) >= AUTO_MIN_MOTION,
            },
        };
        let filters = match cfg.time_aligned {
            _ if within => cfg.filters.without_slpf(),
            TimeAligned::Auto if prune => cfg.filters.without_slpf(),
            _ => cfg.filters,
        };
        let reusable = |tree: &Bvh| fits(tree) && tree.time_aligned() == prune;
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
            || {
                let vertex_group = parts.as_ref().and_then(|p| p.vertex_group.as_deref());
                PairCtx::new(cfg, filters, step, vertex_group, buffers, loose_cap, kind)
            },
        );
        let bvh_ms = t.ms();
        // Stages 2b–5 on the tree; the filters' arrays go back to the
        // pipeline however the step ends.
        let decided = match built {
            Err(e) => Err(e.into()),
            Ok(built) => {
                if at_rest && built {
                    // Kept whatever happens to the rest of this call.
                    self.built_at_rest = cfg.time_aligned == TimeAligned::Auto;
                }
                self.rebuild = false;
                let bvh = self.bvh.as_ref().expect("built above");
                decide_pairs(&ctx, bvh, step, cfg, parts.as_ref(), cancel, list_only)
                    .map(|decided| (built, decided))
            }
        };
        self.buffers = ctx.into_buffers();
        let (built, decided) = decided?;
        let Decided {
            vf,
            ee,
            points,
            bvh_tests,
            toi,
            pairs,
            listed,
            traverse_ms,
            filter_ms,
            solve_ms,
        } = decided;
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
            bvh_tests,
            toi: toi.map(|t| t.lower),
            toi_upper: toi.map(|t| t.upper),
            time_ms: StageTimes {
                bvh: bvh_ms,
                traverse: traverse_ms,
                filter: filter_ms,
                solve: solve_ms,
                total: start.ms(),
            },
        };
        Ok((StepOutcome { report, pairs }, listed))
    }
}

/// What a step's pairs came to ([`decide_pairs`]).
struct Decided {
    vf: KindCounts,
    ee: KindCounts,
    points: Option<PointCounts>,
    bvh_tests: BvhCounts,
    toi: Option<Toi>,
    pairs: Vec<ContactPair>,
    listed: Listed,
    traverse_ms: f64,
    filter_ms: f64,
    solve_ms: f64,
}

/// Stages 2b–5 of a step on its built or refitted `bvh`: the traversal with
/// the filters and the exact tests fused into its tasks (neither the
/// candidates nor the survivors are stored), then the codimensional
/// points' pairs; with `list_only`, the pairs the filters pass are listed
/// instead of tested, and the points are left out, as they are once a step
/// that stops at its first hit has one ([`PairCtx::first_hit`]). `Err`
/// when the tasks stopped early (a cancellation, or more pairs to keep than
/// allowed).
#[allow(clippy::too_many_arguments)]
fn decide_pairs(
    ctx: &PairCtx<'_>,
    bvh: &Bvh,
    step: &Step<'_>,
    cfg: &PipelineConfig,
    parts: Option<&BodyParts>,
    cancel: Option<&AtomicBool>,
    list_only: bool,
) -> Result<Decided, PipelineError> {
    let t = Clock::start();
    let make_sink = || TaskSink::new(ctx, cancel);
    let skip = parts
        .filter(|p| !p.all_self_colliding())
        .map(|p| &p.skip_within[..]);
    let (mut sinks, bp) = match skip {
        Some(skip) => bvh.self_candidates_par_skipping(skip, make_sink),
        None => bvh.self_candidates_par(make_sink),
    };
    if is_set(cancel) || ctx.overflowed() {
        return Err(stopped(ctx, cfg));
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
    let listed = if list_only {
        take_listed(&mut sinks)
    } else {
        Listed::default()
    };
    let (busy, mut toi, mut pairs) = collect(ctx, cancel, sinks, &mut vf, &mut ee, step.mesh);
    if is_set(cancel) {
        return Err(stopped(ctx, cfg));
    }
    let fused_ms = t.ms();
    // Stage 5: the codimensional points' pairs (none in most meshes).
    let t = Clock::start();
    let points = if list_only || ctx.hit() {
        None
    } else {
        let skip = skip.unwrap_or(&[]);
        codim_points(ctx, step, cfg, skip, cancel, &mut toi, &mut pairs)
            .ok_or_else(|| stopped(ctx, cfg))?
    };
    let points_ms = t.ms();
    // The tasks add their kept pairs to the total in batches: the limit on
    // the exact total.
    ctx.check_kept((pairs.len() + listed.0.len() + listed.1.len()) as u64);
    if ctx.overflowed() {
        return Err(stopped(ctx, cfg));
    }
    // The filters and the exact tests ran inside the traversal's tasks.
    // (Their setup ran alongside the BVH's stage, and counts there.)
    let (filter_ms, solve_ms) = fused_shares(busy, fused_ms, points_ms);
    vf.finish();
    ee.finish();
    Ok(Decided {
        vf,
        ee,
        points,
        bvh_tests: BvhCounts {
            node_tests: bp.node_tests,
            leaf_pairs: bp.leaf_pairs,
            leaf_pairs_pruned: bp.leaf_pairs_pruned,
            feature_tests: bp.feature_tests,
        },
        toi,
        pairs,
        listed,
        traverse_ms: fused_ms + points_ms - filter_ms - solve_ms,
        filter_ms,
        solve_ms,
    })
}

/// The filters' and the exact tests' shares of a fused stage that took
/// `fused_ms`: their busy times, summed over the tasks, spread over the
/// workers; the exact tests' with `points_ms` (the codimensional points',
/// measured apart) added.
pub(super) fn fused_shares(busy: Busy, fused_ms: f64, points_ms: f64) -> (f64, f64) {
    let threads = rayon::current_num_threads() as f64;
    let filter_ms = (busy.filter / threads).min(fused_ms);
    let solve_ms = (busy.solve / threads).min(fused_ms - filter_ms) + points_ms;
    (filter_ms, solve_ms)
}

/// Why a step's tasks stopped early: more pairs to keep than allowed, or
/// else a cancellation.
pub(super) fn stopped(ctx: &PairCtx<'_>, cfg: &PipelineConfig) -> PipelineError {
    match ctx.overflowed() {
        true => PipelineError::TooManyPairs {
            limit: cfg.max_pairs,
        },
        false => PipelineError::Cancelled,
    }
}

/// The vertex–face and edge–edge pairs a listing step found
/// ([`Pipeline::run`] with `list_only`), each ascending.
pub(super) type Listed = (Vec<VfPair>, Vec<EePair>);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec3;
    use crate::mesh::{Feature, TriMesh};
    use crate::pair_kernel::QueryKind;

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
        assert!(
            e.to_string()
                .ends_with("Pipeline::rebuild_next() makes the next step build it anew"),
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

    /// `is_collision_free` answers what a step's colliding count says, on 1
    /// and 2 threads, at contact and within `d`: sheets that cross collide;
    /// sheets that stop 0.5 above each other are free at contact and at
    /// `d = 0.4`, not at `d = 0.6`. A set `cancel` is answered `Cancelled`;
    /// the pipeline steps on over the tree the call kept.
    #[test]
    fn is_collision_free_answers_what_the_steps_count_says() {
        let (mesh, x0, crossing) = crossing_sheets(6);
        let n = x0.len() / 2;
        let above: Vec<Vec3> = (x0.iter().enumerate())
            .map(|(i, p)| match i < n {
                true => *p,
                false => Vec3::new(p.x, p.y, 0.5 + (p.z - 1.5)),
            })
            .collect();
        for (x1, d, free) in [
            (&crossing, 0.0, false),
            (&crossing, 0.6, false),
            (&above, 0.0, true),
            (&above, 0.4, true),
            (&above, 0.6, false),
        ] {
            let step = Step::new(&mesh, &x0, x1).expect("matching frames");
            let config = PipelineConfig {
                min_distance: d,
                collect_pairs: true,
                ..PipelineConfig::default()
            };
            let counted = report(&step, config.clone(), 1, LOOSE_CAP);
            assert_eq!(counted.colliding() == 0, free, "d = {d}");
            for threads in [1, 2] {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .expect("a pool");
                let mut pipeline = Pipeline::new(config.clone());
                let got = pool.install(|| pipeline.is_collision_free(&step, None));
                assert_eq!(
                    got.expect("a valid step"),
                    free,
                    "d = {d}, {threads} threads"
                );
                let next = pool.install(|| pipeline.step(&step)).expect("a step");
                assert_eq!(next.report.bvh, BvhMode::Refit);
                assert_eq!(outcome(&next.report), outcome(&counted));
            }
            let e = Pipeline::new(config)
                .is_collision_free(&step, Some(&AtomicBool::new(true)))
                .expect_err("cancelled");
            assert!(matches!(e, PipelineError::Cancelled), "{e}");
        }
    }

    /// `earliest_toi` gives the step's bracket (or one inside it) on 1 and
    /// 2 threads, at contact and within `d`; `None` where the step has no
    /// contact; a set `cancel` is answered `Cancelled`.
    #[test]
    fn earliest_toi_is_the_steps_bracket() {
        let (mesh, x0, crossing) = crossing_sheets(6);
        let n = x0.len() / 2;
        let above: Vec<Vec3> = (x0.iter().enumerate())
            .map(|(i, p)| match i < n {
                true => *p,
                false => Vec3::new(p.x, p.y, p.z - 1.0),
            })
            .collect();
        for (x1, d) in [
            (&crossing, 0.0),
            (&crossing, 0.6),
            (&above, 0.0),
            (&above, 0.6),
        ] {
            let step = Step::new(&mesh, &x0, x1).expect("matching frames");
            let config = PipelineConfig {
                min_distance: d,
                ..PipelineConfig::default()
            };
            let r = report(&step, config.clone(), 1, LOOSE_CAP);
            let want = r.toi.zip(r.toi_upper);
            assert_eq!(want.is_some(), d > 0.0 || x1 == &crossing, "d = {d}");
            for threads in [1, 2] {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .expect("a pool");
                let mut pipeline = Pipeline::new(config.clone());
                let got = pool.install(|| pipeline.earliest_toi(&step, None));
                let got = got.expect("a valid step").map(|t| (t.lower, t.upper));
                match (got, want) {
                    (Some((lo, hi)), Some((l, u))) => {
                        assert!(l <= lo && lo <= hi && hi <= u, "d = {d}: {got:?} {want:?}")
                    }
                    _ => assert_eq!(got, want, "d = {d}"),
                }
            }
            let e = Pipeline::new(config)
                .earliest_toi(&step, Some(&AtomicBool::new(true)))
                .expect_err("cancelled");
            assert!(matches!(e, PipelineError::Cancelled), "{e}");
        }
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
                matches!(
                    &e,
                    PipelineError::Frames(MeshError::InFrame { frame: "x_t1", .. })
                ) && e.to_string().contains(says),
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

    /// A configuration replaced between steps: a new minimum separation
    /// builds the next step's tree, the same one refits it, and either
    /// step reports what a fresh pipeline does.
    #[test]
    fn a_replaced_configuration_gives_a_fresh_pipelines_step() {
        let (mesh, x0, x1) = crossing_sheets(6);
        let step = Step::new(&mesh, &x0, &x1).expect("matching frames");
        let at = |d: f64| PipelineConfig {
            min_distance: d,
            collect_pairs: true,
            ..PipelineConfig::default()
        };
        let mut kept = Pipeline::new(at(0.0));
        let touching = kept.step(&step).unwrap().pairs.len();
        for (d, mode) in [(0.5, BvhMode::Build), (0.5, BvhMode::Refit)] {
            kept.set_config(at(d));
            let got = kept.step(&step).unwrap();
            let fresh = Pipeline::new(at(d)).step(&step).unwrap();
            assert_eq!(got.report.bvh, mode);
            assert!(got.pairs.len() > touching);
            assert_eq!(got.pairs, fresh.pairs);
            assert_eq!(
                (got.report.vf, got.report.ee, got.report.toi),
                (fresh.report.vf, fresh.report.ee, fresh.report.toi)
            );
        }
        assert_eq!(kept.config().min_distance, 0.5);
        // `TimeAligned::Auto` decides anew for a tree that is built: after a
        // step that moves far (pruned) and a new separation, a step that
        // barely moves is not pruned, as in a fresh pipeline.
        let slow_x1: Vec<Vec3> = (x0.iter().zip(&x1))
            .map(|(a, b)| a + (b - a) * 0.02)
            .collect();
        let slow = Step::new(&mesh, &x0, &slow_x1).expect("matching frames");
        assert!(motion_ratio(&step) >= AUTO_MIN_MOTION && motion_ratio(&slow) < AUTO_MIN_MOTION);
        let auto = |d: f64| PipelineConfig {
            time_aligned: TimeAligned::Auto,
            ..at(d)
        };
        let mut kept = Pipeline::new(auto(0.0));
        assert!(kept.step(&step).unwrap().report.time_aligned);
        kept.set_config(auto(0.5));
        let got = kept.step(&slow).unwrap();
        let fresh = Pipeline::new(auto(0.5)).step(&slow).unwrap();
        assert_eq!(got.report.bvh, BvhMode::Build);
        assert!(!fresh.report.time_aligned);
        assert_eq!(got.pairs, fresh.pairs);
        assert_eq!(
            (got.report.time_aligned, got.report.filters),
            (fresh.report.time_aligned, fresh.report.filters)
        );
        assert_eq!(
            (got.report.vf, got.report.ee, got.report.bvh_tests),
            (fresh.report.vf, fresh.report.ee, fresh.report.bvh_tests)
        );
        // A tree pruned by `TimeAligned::On`, then `Auto` on the same
        // barely moving step: `Auto` decides, as in a fresh pipeline.
        let mut kept = Pipeline::new(PipelineConfig {
            time_aligned: TimeAligned::On,
            ..at(0.0)
        });
        assert!(kept.step(&slow).unwrap().report.time_aligned);
        kept.set_config(auto(0.0));
        let got = kept.step(&slow).unwrap();
        let fresh = Pipeline::new(auto(0.0)).step(&slow).unwrap();
        assert_eq!(got.report.bvh, BvhMode::Build);
        assert_eq!(got.pairs, fresh.pairs);
        assert_eq!(
            (
                got.report.time_aligned,
                got.report.filters,
                got.report.vf,
                got.report.ee
            ),
            (
                fresh.report.time_aligned,
                fresh.report.filters,
                fresh.report.vf,
                fresh.report.ee
            )
        );
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
