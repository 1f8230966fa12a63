//! One step through the whole pipeline (Wan, Fu & Yao 2022, Fig. 1):
//! swept k-DOP BVH with a feature level → SLPF / DNF → exact VF / EE tests →
//! colliding pairs and the earliest time of impact.
//!
//! The BVH is built on the first step and refitted on later ones (the
//! topology is fixed across a sequence), unless a rebuild is asked for
//! ([`Pipeline::rebuild_next`]): the new tree then reuses the old one's
//! memory. The filters' per-vertex arrays and the survivors' arrays are
//! likewise kept from step to step and written over: on cloth-ball 92→93,
//! repeated steps fault in about 1,000 fresh pages each instead of 2,400
//! (refit) or 10,000 (rebuild), which cost milliseconds of a step.
//!
//! **Fused traversal and filters.** The traversal hands its candidates to
//! the filters in batches of a few thousand as it finds them (each traversal
//! task has its own [`CandidateSink`]); only the survivors are stored. The
//! candidates are never materialised (on cloth-ball 92→93 that saves 3.2 M
//! pairs, 26 MB, and a pass over them). Per pair: SLPF on per-vertex
//! projections ([`SlpfTable`], verdicts equal to the per-pair kernels'
//! except within about 10⁻¹⁵ of touching), then on its survivors DNF and
//! the coplanar-window filter sharing one coplanarity cubic
//! ([`crate::filter::dnf_window_vertex_face`]; DNF's verdicts are exactly
//! [`crate::filter::dnf_vertex_face`]'s). The counts are the paper's stages':
//! candidates (BVH), culled by SLPF, by DNF, `after_filter`; the window
//! filter (not the paper's; [`PipelineConfig::window`]) is counted apart
//! (`culled_window`). Stage times: `traverse` and `filter` split the fused
//! stage's wall time by the filters' busy time, summed over the tasks and
//! spread over the workers.
//! (Running SLPF first over a whole batch, its survivors compacted without
//! a branch on its near coin-toss verdict, then DNF and the window filter
//! on them, was measured on cloth-ball 92→93: no change in time.)
//!
//! **Time-aligned pruning** ([`PipelineConfig::time_aligned`], off by
//! default): the BVH is built with [`Bvh::build_time_aligned`] and drops
//! leaf pairs and feature pairs by SLPF's test on all its slabs; the counts
//! are then those of the pruned candidates (SLPF culls almost none, the
//! colliding pairs are the same).
//! A BVH built with the other setting is built anew.
//!
//! **Determinism.** The traversal runs fixed chunks of leaves, the solver
//! fixed chunks of pairs; results are concatenated in chunk order, so counts,
//! pairs and the time of impact are identical for any number of threads.

use rayon::prelude::*;

use super::clock::{Clock, busy_ms};
use super::config::PipelineConfig;
use super::report::{ContactPair, KindCounts, StageTimes, StepReport};
use crate::broad_phase::CandidateSink;
use crate::broad_phase::{BroadPhaseError, Bvh, EePair, VfPair};
use crate::filter::{CulledBy, FilterSet, SlpfTable, dnf_window_edge_edge, dnf_window_vertex_face};
use crate::math::Vec3;
use crate::mesh::{Feature, Step, TriMesh};
use crate::narrow_phase::{Path, Solver, Toi, edge_edge_traced, vertex_face_traced};
use crate::primitive::QueryKind;

/// The solve stage's tasks: about this many per kind of pair, each of
/// [`MIN_CHUNK`] to [`MAX_CHUNK`] pairs. Where few pairs survive, a few of
/// them can cost most of the stage (funnel 227→228: 16 of its 200 edge–edge
/// pairs move coplanar, each about 100 times the average), so even a small
/// stage is split; cloth-ball 92→93 (130 K pairs) gets chunks of 2,000.
const SOLVE_TASKS: usize = 64;
const MIN_CHUNK: usize = 16;
const MAX_CHUNK: usize = 4096;

/// Why a step could not run.
#[derive(Debug, thiserror::Error)]
pub enum PipelineError {
    /// The step's mesh does not match the BVH of earlier steps.
    #[error(transparent)]
    BroadPhase(#[from] BroadPhaseError),
}

/// The result of one step.
#[derive(Debug, Clone, PartialEq)]
pub struct StepOutcome {
    /// Counts, times and the time of impact.
    pub report: StepReport,
    /// Colliding pairs, in candidate order (empty unless
    /// [`PipelineConfig::collect_pairs`]).
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
    /// The survivors' arrays, likewise.
    survivors: (Vec<VfPair>, Vec<EePair>),
}

impl Pipeline {
    /// A pipeline with `config`; the BVH is built by the first step.
    pub fn new(config: PipelineConfig) -> Pipeline {
        Pipeline {
            config,
            bvh: None,
            rebuild: false,
            buffers: FilterBuffers::default(),
            survivors: Default::default(),
        }
    }

    /// Makes the next step build its BVH anew rather than refit it (after
    /// large deformations, say, where a refitted tree culls less), for any
    /// mesh. The new tree is written over the old one's arrays, so a
    /// rebuild does not fault in fresh memory. The outcome is a fresh
    /// pipeline's.
    pub fn rebuild_next(&mut self) {
        self.rebuild = true;
    }

    /// The configuration.
    pub fn config(&self) -> &PipelineConfig {
        &self.config
    }

    /// Runs one step on the current rayon thread pool.
    pub fn step(&mut self, step: &Step<'_>) -> Result<StepOutcome, PipelineError> {
        let start = Clock::start();
        let cfg = &self.config;
        let mesh = step.mesh;

        // Stage 1–2a: build or refit the BVH of swept k-DOPs.
        let t = Clock::start();
        let reusable = |bvh: &Bvh| bvh.axes() == cfg.axes && bvh.time_aligned() == cfg.time_aligned;
        let built = match self.bvh.as_mut() {
            Some(bvh) if reusable(bvh) && !self.rebuild => {
                bvh.refit(step)?;
                false
            }
            Some(bvh) if reusable(bvh) => {
                bvh.rebuild(step);
                true
            }
            _ => {
                self.bvh = Some(Bvh::build_time_aligned(step, cfg.axes, cfg.time_aligned));
                true
            }
        };
        self.rebuild = false;
        let bvh = self.bvh.as_ref().expect("built above");
        let refit_ms = t.ms();

        // Stages 2b–3, fused: traversal, with the filters run on each batch
        // of candidates as the traversal emits it (the candidates are never
        // stored; only the survivors are).
        let t = Clock::start();
        let ctx = FilterCtx::new(cfg, step, std::mem::take(&mut self.buffers));
        let (sinks, bp) = bvh.self_candidates_par(|| FilterSink::new(&ctx));
        let fused_ms = t.ms();
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
        let (mut vf_pass, mut ee_pass) = std::mem::take(&mut self.survivors);
        let filter_busy_ms = collect_survivors(sinks, &mut vf, &mut ee, &mut vf_pass, &mut ee_pass);
        // The filters ran inside the traversal's tasks: their share of the
        // fused stage is their summed busy time spread over the workers.
        let filter_ms =
            (ctx.setup_ms + filter_busy_ms / rayon::current_num_threads() as f64).min(fused_ms);
        self.buffers = ctx.into_buffers();
        let traverse_ms = fused_ms - filter_ms;

        // Stage 4: exact tests.
        let t = Clock::start();
        let vf_hits = solve_stage(
            &vf_pass,
            &mut vf,
            |p| vf_points(step, p),
            QueryKind::VertexFace,
            cfg.solver,
        );
        let ee_hits = solve_stage(
            &ee_pass,
            &mut ee,
            |p| ee_points(step, p),
            QueryKind::EdgeEdge,
            cfg.solver,
        );
        let solve_ms = t.ms();
        self.survivors = (vf_pass, ee_pass);

        let component = mesh.component();
        vf.colliding_same_component = vf_hits
            .iter()
            .filter(|(p, _)| {
                component[p.v as usize] == component[mesh.faces()[p.f as usize][0] as usize]
            })
            .count() as u64;
        ee.colliding_same_component = ee_hits
            .iter()
            .filter(|(p, _)| {
                let (a, b) = (mesh.edges()[p.e0 as usize], mesh.edges()[p.e1 as usize]);
                component[a[0] as usize] == component[b[0] as usize]
            })
            .count() as u64;
        vf.finish();
        ee.finish();

        let tois = vf_hits
            .iter()
            .map(|h| h.1)
            .chain(ee_hits.iter().map(|h| h.1));
        let toi = tois.clone().map(|t| t.lower).reduce(f64::min);
        let toi_upper = tois.map(|t| t.upper).reduce(f64::min);

        let pairs = if cfg.collect_pairs {
            contact_pairs(mesh, &vf_hits, &ee_hits)
        } else {
            Vec::new()
        };
        let report = StepReport {
            vertices: mesh.num_vertices(),
            edges: mesh.num_edges(),
            faces: mesh.num_faces(),
            k: cfg.axes.k(),
            filters: cfg.filters.name().to_string(),
            window: cfg.window,
            time_aligned: cfg.time_aligned,
            solver: cfg.solver.name().to_string(),
            threads: rayon::current_num_threads(),
            bvh: if built { "build" } else { "refit" }.to_string(),
            vf,
            ee,
            toi,
            toi_upper,
            time_ms: StageTimes {
                refit: refit_ms,
                traverse: traverse_ms,
                filter: filter_ms,
                solve: solve_ms,
                total: start.ms(),
            },
            peak_rss_mb: 0.0,
        };
        Ok(StepOutcome { report, pairs })
    }
}

/// The eight points of a vertex–face pair, data set row order.
#[inline]
fn vf_points(step: &Step<'_>, p: &VfPair) -> [Vec3; 8] {
    let [a, b, c] = step.mesh.faces()[p.f as usize];
    let (x0, x1) = (step.x_t0, step.x_t1);
    let v = p.v as usize;
    let (a, b, c) = (a as usize, b as usize, c as usize);
    [x0[v], x0[a], x0[b], x0[c], x1[v], x1[a], x1[b], x1[c]]
}

/// The eight points of an edge–edge pair, data set row order.
#[inline]
fn ee_points(step: &Step<'_>, p: &EePair) -> [Vec3; 8] {
    let edges = step.mesh.edges();
    let [a, b] = edges[p.e0 as usize].map(|i| i as usize);
    let [c, d] = edges[p.e1 as usize].map(|i| i as usize);
    let (x0, x1) = (step.x_t0, step.x_t1);
    [x0[a], x0[b], x0[c], x0[d], x1[a], x1[b], x1[c], x1[d]]
}

/// Runs the exact test on `pairs` in parallel chunks (their size depends on
/// the number of pairs only); returns the colliding ones with their time of
/// impact, in order.
fn solve_stage<P: Copy + Send + Sync>(
    pairs: &[P],
    counts: &mut KindCounts,
    points: impl Fn(&P) -> [Vec3; 8] + Sync,
    kind: QueryKind,
    solver: Solver,
) -> Vec<(P, Toi)> {
    let chunk = (pairs.len() / SOLVE_TASKS).clamp(MIN_CHUNK, MAX_CHUNK);
    let parts: Vec<(Vec<(P, Toi)>, u64)> = pairs
        .par_chunks(chunk)
        .map(|chunk| {
            let (mut hits, mut fallbacks) = (Vec::new(), 0);
            for p in chunk {
                let q = points(p);
                let (toi, path) = solve(solver, kind, &q);
                fallbacks += u64::from(path == Path::Exact);
                if let Some(toi) = toi {
                    hits.push((*p, toi));
                }
            }
            (hits, fallbacks)
        })
        .collect();
    let mut hits = Vec::new();
    for (h, f) in parts {
        hits.extend(h);
        counts.exact_fallbacks += f;
    }
    counts.colliding = hits.len() as u64;
    hits
}

#[inline]
fn solve(solver: Solver, kind: QueryKind, q: &[Vec3; 8]) -> (Option<Toi>, Path) {
    let [a, b, c, d, e, f, g, h] = q;
    match (solver, kind) {
        (Solver::Exact, QueryKind::VertexFace) => vertex_face_traced(a, b, c, d, e, f, g, h),
        (Solver::Exact, QueryKind::EdgeEdge) => edge_edge_traced(a, b, c, d, e, f, g, h),
        (Solver::Cubic, kind) => (solver.solve(kind, q), Path::Filtered),
    }
}

/// Colliding pairs by global ID.
fn contact_pairs(mesh: &TriMesh, vf: &[(VfPair, Toi)], ee: &[(EePair, Toi)]) -> Vec<ContactPair> {
    let vf = vf.iter().map(|(p, t)| ContactPair {
        kind: QueryKind::VertexFace,
        a: mesh.global_id(Feature::Vertex(p.v)),
        b: mesh.global_id(Feature::Face(p.f)),
        toi_lower: t.lower,
        toi_upper: t.upper,
    });
    let ee = ee.iter().map(|(p, t)| ContactPair {
        kind: QueryKind::EdgeEdge,
        a: mesh.global_id(Feature::Edge(p.e0)),
        b: mesh.global_id(Feature::Edge(p.e1)),
        toi_lower: t.lower,
        toi_upper: t.upper,
    });
    vf.chain(ee).collect()
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
    /// Every vertex's positions at `t = 0` and `t = 1`, side by side (one
    /// cache line per vertex for the pair gathers).
    ///
    /// The mesh's vertex order hardly matters to these gathers: cloth-ball
    /// 92→93 with its vertices renumbered at random, or in Morton order
    /// with the faces in Morton order of their centroids, took as long as
    /// the original numbering within this machine's noise (2 threads, two
    /// interleaved rounds: whole step 210–231 ms, filters 80–97 ms, no
    /// order consistently ahead); the filters are bound by their arithmetic.
    x: Vec<[[f64; 3]; 2]>,
    /// SLPF (when it runs).
    slpf: Option<SlpfTable>,
    dnf: bool,
    window: bool,
    /// Time spent preparing, ms.
    setup_ms: f64,
}

impl<'a> FilterCtx<'a> {
    /// The filters of `cfg` on `step`, their arrays written over `buffers`.
    fn new(cfg: &PipelineConfig, step: &'a Step<'a>, buffers: FilterBuffers) -> FilterCtx<'a> {
        let t = Clock::start();
        let uses_slpf = matches!(cfg.filters, FilterSet::Slpf | FilterSet::SlpfDnf);
        let FilterBuffers { mut x, slpf } = buffers;
        x.clear();
        x.par_extend(
            step.x_t0
                .par_iter()
                .with_min_len(4096)
                .zip(step.x_t1)
                .map(|(a, b)| [[a.x, a.y, a.z], [b.x, b.y, b.z]]),
        );
        let slpf = uses_slpf.then(|| {
            let mut table = slpf.unwrap_or_default();
            table.update(step.x_t0, step.x_t1, &cfg.directions);
            table
        });
        FilterCtx {
            faces: step.mesh.faces(),
            edges: step.mesh.edges(),
            x,
            slpf,
            dnf: matches!(cfg.filters, FilterSet::Dnf | FilterSet::SlpfDnf),
            window: cfg.window,
            setup_ms: t.ms(),
        }
    }

    /// The arrays, for the next step.
    fn into_buffers(self) -> FilterBuffers {
        FilterBuffers {
            x: self.x,
            slpf: self.slpf,
        }
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
        let [a, b, c] = face;
        let [v, a, b, c] = [p.v, a, b, c].map(|i| &self.x[i as usize]);
        let q = [v[0], a[0], b[0], c[0], v[1], a[1], b[1], c[1]];
        dnf_window_vertex_face(self.dnf, self.window, &q)
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
        let [a, b, c, d] = [ea[0], ea[1], eb[0], eb[1]].map(|i| &self.x[i as usize]);
        let q = [a[0], b[0], c[0], d[0], a[1], b[1], c[1], d[1]];
        dnf_window_edge_edge(self.dnf, self.window, &q)
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

/// One traversal task's sink: runs the filters on each batch and keeps the
/// survivors, in emission order.
struct FilterSink<'c> {
    ctx: &'c FilterCtx<'c>,
    vf: Vec<VfPair>,
    ee: Vec<EePair>,
    vf_culled: Culled,
    ee_culled: Culled,
    /// Time spent in the filters, ms.
    busy: f64,
}

impl<'c> FilterSink<'c> {
    fn new(ctx: &'c FilterCtx<'c>) -> FilterSink<'c> {
        FilterSink {
            ctx,
            vf: Vec::new(),
            ee: Vec::new(),
            vf_culled: Culled::default(),
            ee_culled: Culled::default(),
            busy: 0.0,
        }
    }

    fn filters_off(&self) -> bool {
        let c = self.ctx;
        c.slpf.is_none() && !c.dnf && !c.window
    }
}

impl CandidateSink for FilterSink<'_> {
    fn vertex_face(&mut self, pairs: &[VfPair]) {
        let t = busy_ms();
        let ctx = self.ctx;
        if self.filters_off() {
            self.vf.extend_from_slice(pairs);
        } else {
            for p in pairs {
                match ctx.cull_vertex_face(p) {
                    Some(by) => self.vf_culled.count(by),
                    None => self.vf.push(*p),
                }
            }
        }
        self.busy += busy_ms() - t;
    }

    fn edge_edge(&mut self, pairs: &[EePair]) {
        let t = busy_ms();
        let ctx = self.ctx;
        if self.filters_off() {
            self.ee.extend_from_slice(pairs);
        } else {
            for p in pairs {
                match ctx.cull_edge_edge(p) {
                    Some(by) => self.ee_culled.count(by),
                    None => self.ee.push(*p),
                }
            }
        }
        self.busy += busy_ms() - t;
    }
}

/// Concatenates the tasks' survivors in task order into `vf_pass` and
/// `ee_pass` (written over) and adds up their counts; returns the summed
/// filter time, ms.
fn collect_survivors(
    sinks: Vec<FilterSink<'_>>,
    vf: &mut KindCounts,
    ee: &mut KindCounts,
    vf_pass: &mut Vec<VfPair>,
    ee_pass: &mut Vec<EePair>,
) -> f64 {
    vf_pass.clear();
    ee_pass.clear();
    vf_pass.reserve(sinks.iter().map(|s| s.vf.len()).sum());
    ee_pass.reserve(sinks.iter().map(|s| s.ee.len()).sum());
    let mut busy = 0.0;
    for s in sinks {
        vf_pass.extend_from_slice(&s.vf);
        ee_pass.extend_from_slice(&s.ee);
        vf.culled_slpf += s.vf_culled.slpf;
        vf.culled_dnf += s.vf_culled.dnf;
        vf.culled_window += s.vf_culled.window;
        ee.culled_window += s.ee_culled.window;
        ee.culled_slpf += s.ee_culled.slpf;
        ee.culled_dnf += s.ee_culled.dnf;
        busy += s.busy;
    }
    vf.after_filter = vf_pass.len() as u64 + vf.culled_window;
    ee.after_filter = ee_pass.len() as u64 + ee.culled_window;
    busy
}
