//! One step through the whole pipeline (Wan, Fu & Yao 2022, Fig. 1):
//! swept k-DOP BVH with a feature level → SLPF / DNF → exact VF / EE tests →
//! colliding pairs and the earliest time of impact.
//!
//! The BVH is built on the first step and refitted on later ones (the
//! topology is fixed across a sequence). Every stage is parallel over fixed
//! chunks of pairs with rayon, and results are concatenated in chunk order,
//! so counts, pairs and the time of impact are identical for any number of
//! threads. DNF and the solvers are the pure pair functions of
//! [`crate::filter`] and [`crate::narrow_phase`]; SLPF uses the per-vertex
//! projection form ([`crate::filter::SlpfProjections`]), equivalent up to
//! roundoff to its per-pair kernel and conservative like it.

use std::time::Instant;

use rayon::prelude::*;

use super::config::PipelineConfig;
use super::report::{ContactPair, KindCounts, StageTimes, StepReport};
use crate::broad_phase::{BroadPhaseError, Bvh, EePair, VfPair};
use crate::filter::{
    CulledBy, FilterSet, SlpfProjections, Verdict, dnf_edge_edge, dnf_vertex_face,
};
use crate::math::Vec3;
use crate::mesh::{Feature, Step, TriMesh};
use crate::narrow_phase::{Path, Solver, Toi, edge_edge_traced, vertex_face_traced};
use crate::primitive::QueryKind;

/// Pairs per parallel task in the filter and solve stages.
const CHUNK: usize = 4096;

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
}

impl Pipeline {
    /// A pipeline with `config`; the BVH is built by the first step.
    pub fn new(config: PipelineConfig) -> Pipeline {
        Pipeline { config, bvh: None }
    }

    /// The configuration.
    pub fn config(&self) -> &PipelineConfig {
        &self.config
    }

    /// Runs one step on the current rayon thread pool.
    pub fn step(&mut self, step: &Step<'_>) -> Result<StepOutcome, PipelineError> {
        let start = Instant::now();
        let cfg = &self.config;
        let mesh = step.mesh;

        // Stage 1–2a: build or refit the BVH of swept k-DOPs.
        let t = Instant::now();
        let built = match self.bvh.as_mut() {
            Some(bvh) if bvh.axes() == cfg.axes => {
                bvh.refit(step)?;
                false
            }
            _ => {
                self.bvh = Some(Bvh::build(step, cfg.axes));
                true
            }
        };
        let bvh = self.bvh.as_ref().expect("built above");
        let refit_ms = ms(t);

        // Stage 2b: traversal.
        let t = Instant::now();
        let (candidates, bp) = bvh.self_candidate_set_par();
        let traverse_ms = ms(t);

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

        // Stage 3: filters. SLPF runs on per-vertex projection intervals
        // computed once per step; DNF on each pair's coplanarity cubic.
        let t = Instant::now();
        let uses_slpf = matches!(cfg.filters, FilterSet::Slpf | FilterSet::SlpfDnf);
        let uses_dnf = matches!(cfg.filters, FilterSet::Dnf | FilterSet::SlpfDnf);
        let projections =
            uses_slpf.then(|| SlpfProjections::new(step.x_t0, step.x_t1, &cfg.directions));
        let faces = mesh.faces();
        let edges = mesh.edges();
        let vf_pass = filter_stage(
            cfg.filters,
            &candidates.vertex_face,
            &mut vf,
            |p: &VfPair| {
                if projections
                    .as_ref()
                    .is_some_and(|pr| pr.cull_vertex_face(p.v, faces[p.f as usize]))
                {
                    return Some(CulledBy::Slpf);
                }
                let [a, b, c, d, e, f, g, h] = vf_points(step, p);
                (uses_dnf && dnf_vertex_face(&a, &b, &c, &d, &e, &f, &g, &h) == Verdict::Culled)
                    .then_some(CulledBy::Dnf)
            },
        );
        let ee_pass = filter_stage(cfg.filters, &candidates.edge_edge, &mut ee, |p: &EePair| {
            if projections
                .as_ref()
                .is_some_and(|pr| pr.cull_edge_edge(edges[p.e0 as usize], edges[p.e1 as usize]))
            {
                return Some(CulledBy::Slpf);
            }
            let [a, b, c, d, e, f, g, h] = ee_points(step, p);
            (uses_dnf && dnf_edge_edge(&a, &b, &c, &d, &e, &f, &g, &h) == Verdict::Culled)
                .then_some(CulledBy::Dnf)
        });
        let filter_ms = ms(t);

        // Stage 4: exact tests.
        let t = Instant::now();
        let vf_hits = solve_stage(
            vf_pass.as_deref().unwrap_or(&candidates.vertex_face),
            &mut vf,
            |p| vf_points(step, p),
            QueryKind::VertexFace,
            cfg.solver,
        );
        let ee_hits = solve_stage(
            ee_pass.as_deref().unwrap_or(&candidates.edge_edge),
            &mut ee,
            |p| ee_points(step, p),
            QueryKind::EdgeEdge,
            cfg.solver,
        );
        let solve_ms = ms(t);

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
                total: ms(start),
            },
            peak_rss_mb: 0.0,
        };
        Ok(StepOutcome { report, pairs })
    }
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
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

/// Runs `cull` on `pairs` in parallel chunks; returns the survivors in order
/// (`None` when no filter is configured: all pass, nothing copied).
fn filter_stage<P: Copy + Send + Sync>(
    filters: FilterSet,
    pairs: &[P],
    counts: &mut KindCounts,
    cull: impl Fn(&P) -> Option<CulledBy> + Sync,
) -> Option<Vec<P>> {
    if filters == FilterSet::None {
        counts.after_filter = pairs.len() as u64;
        return None;
    }
    let parts: Vec<(Vec<P>, u64, u64)> = pairs
        .par_chunks(CHUNK)
        .map(|chunk| {
            let (mut pass, mut slpf, mut dnf) = (Vec::with_capacity(chunk.len()), 0, 0);
            for p in chunk {
                match cull(p) {
                    Some(CulledBy::Slpf) => slpf += 1,
                    Some(CulledBy::Dnf) => dnf += 1,
                    None => pass.push(*p),
                }
            }
            (pass, slpf, dnf)
        })
        .collect();
    let mut survivors = Vec::with_capacity(parts.iter().map(|p| p.0.len()).sum());
    for (pass, slpf, dnf) in parts {
        survivors.extend(pass);
        counts.culled_slpf += slpf;
        counts.culled_dnf += dnf;
    }
    counts.after_filter = survivors.len() as u64;
    Some(survivors)
}

/// Runs the exact test on `pairs` in parallel chunks; returns the colliding
/// ones with their time of impact, in order.
fn solve_stage<P: Copy + Send + Sync>(
    pairs: &[P],
    counts: &mut KindCounts,
    points: impl Fn(&P) -> [Vec3; 8] + Sync,
    kind: QueryKind,
    solver: Solver,
) -> Vec<(P, Toi)> {
    let parts: Vec<(Vec<(P, Toi)>, u64)> = pairs
        .par_chunks(CHUNK)
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
