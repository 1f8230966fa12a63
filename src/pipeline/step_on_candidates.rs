//! A step on candidates the caller gives: the pipeline's filters and exact
//! tests (Wan, Fu & Yao 2022, §2–§3; docs/design.md §6, "Candidates from
//! elsewhere") run on vertex–face and edge–edge pairs found by another
//! broad phase, a researcher's own or a simulator's, instead of the BVH's.
//!
//! The pairs are checked (indices in range; a vertex that is not a corner
//! of its face, edges that share no endpoint), put in canonical order
//! (`e0 < e1`), sorted and deduplicated, then decided in fixed chunks, each
//! by a traversal task's sink ([`super::tasks::TaskSink`]): the same filters,
//! the same exact tests, the same loose-bracket narrowing at a minimum
//! separation, and the same counts, added up in chunk order. So for the
//! BVH's own candidate set the outcome is the step's (less the
//! codimensional points' pairs, which are not vertex–face or edge–edge
//! pairs); for a superset of it, the colliding pairs and the earliest time
//! of impact are the step's; and it is the same for any thread count
//! (docs/design.md §10).

use std::sync::atomic::AtomicBool;

use rayon::prelude::*;

use super::clock::Clock;
use super::config::PipelineConfig;
use super::decide::{Pair, PairCtx};
use super::report::{BvhCounts, BvhMode, KindCounts, StageTimes, StepReport};
use super::step::{Pipeline, PipelineError, Run, StepOutcome, fused_shares, stopped};
use super::tasks::{TaskSink, collect, is_set};
use crate::broad_phase::{CandidateSink, EePair, VfPair};
use crate::mesh::{Step, TriMesh};

/// Candidates a task decides at a time: about the batches the BVH's
/// traversal hands its sinks.
const CHUNK: usize = 4096;

/// A given candidate pair that is no candidate of the step's mesh.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CandidateError {
    /// A vertex or face index past the mesh's counts.
    #[error(
        "vertex–face pair {index} (numbered from 0): vertex {v}, face {f}: out of range (the mesh has {vertices} vertices, {faces} faces)"
    )]
    VertexFaceOutOfRange {
        /// The pair's index in the given list.
        index: usize,
        /// The vertex.
        v: u32,
        /// The face.
        f: u32,
        /// The mesh's vertex count.
        vertices: usize,
        /// The mesh's face count.
        faces: usize,
    },
    /// A vertex that is a corner of the face: the pair touches throughout,
    /// and no broad phase reports it.
    #[error(
        "vertex–face pair {index} (numbered from 0): vertex {v} is a corner of face {f}, not a candidate"
    )]
    CornerOfFace {
        /// The pair's index in the given list.
        index: usize,
        /// The vertex.
        v: u32,
        /// The face.
        f: u32,
    },
    /// An edge index past the mesh's edge count.
    #[error(
        "edge–edge pair {index} (numbered from 0): edges {e0}, {e1}: out of range (the mesh has {edges} edges)"
    )]
    EdgeOutOfRange {
        /// The pair's index in the given list.
        index: usize,
        /// The pair's first edge.
        e0: u32,
        /// Its second edge.
        e1: u32,
        /// The mesh's edge count.
        edges: usize,
    },
    /// Two edges that share an endpoint (or one edge twice): they touch
    /// throughout, and no broad phase reports them.
    #[error(
        "edge–edge pair {index} (numbered from 0): edges {e0} and {e1} share an endpoint, not a candidate"
    )]
    SharedEndpoint {
        /// The pair's index in the given list.
        index: usize,
        /// The pair's first edge.
        e0: u32,
        /// Its second edge.
        e1: u32,
    },
}

impl Pipeline {
    /// One step decided on the candidate pairs given, instead of the BVH's:
    /// the filters and exact tests of [`Pipeline::step`] on each pair, with
    /// its counts, earliest time of impact and (when collected) colliding
    /// pairs. The pairs may come in any order, with repeats and either edge
    /// first; each distinct pair is decided once and counted once. The
    /// pipeline's BVH is neither used nor touched (the next
    /// [`Pipeline::step`] refits it as before); the filters' arrays are
    /// reused.
    ///
    /// For a broad phase of your own: its candidates must hold every pair
    /// whose features' swept volumes come within
    /// [`PipelineConfig::min_distance`] (touch, at `d = 0`), as the BVH's
    /// do; a superset costs filter work, never a wrong verdict. Of the
    /// configuration, [`PipelineConfig::axes`] and
    /// [`PipelineConfig::time_aligned`] (the BVH's) play no part, and SLPF
    /// runs when the filters name it, at `d = 0`. Bodies
    /// ([`PipelineConfig::bodies`]) drop the pairs within one body that does
    /// not collide with itself, uncounted, as in a step. The codimensional
    /// points' pairs (point–edge, point–point) are not vertex–face or
    /// edge–edge pairs and are not decided here.
    ///
    /// The report says [`BvhMode::Given`], with no BVH tests; its
    /// candidates are the distinct pairs given (less those bodies drop),
    /// and its BVH time is the filters' setup.
    ///
    /// # Errors
    /// [`PipelineError::Candidates`] for a pair that is no candidate (an
    /// index out of range, a vertex that is a corner of its face, edges
    /// that share an endpoint), naming the first such pair's kind and
    /// index in its list; otherwise as [`Pipeline::step`].
    pub fn step_on_candidates(
        &mut self,
        step: &Step<'_>,
        vertex_face: &[VfPair],
        edge_edge: &[EePair],
    ) -> Result<StepOutcome, PipelineError> {
        self.decide_given(step, vertex_face, edge_edge, None)
    }

    /// [`Pipeline::step_on_candidates`], given up when `cancel` is set, as
    /// [`Pipeline::step_cancellable`].
    pub fn step_on_candidates_cancellable(
        &mut self,
        step: &Step<'_>,
        vertex_face: &[VfPair],
        edge_edge: &[EePair],
        cancel: &AtomicBool,
    ) -> Result<StepOutcome, PipelineError> {
        self.decide_given(step, vertex_face, edge_edge, Some(cancel))
    }

    fn decide_given(
        &mut self,
        step: &Step<'_>,
        vertex_face: &[VfPair],
        edge_edge: &[EePair],
        cancel: Option<&AtomicBool>,
    ) -> Result<StepOutcome, PipelineError> {
        let start = Clock::start();
        let cfg = self.config();
        cfg.check()?;
        // The frames need no check here: every `Step` this is given was made
        // by `Step::new` (the crate's unchecked ones go to `run` alone).
        let mesh = step.mesh;
        let (vf, ee) = canonical(mesh, vertex_face, edge_edge)?;
        let parts = (cfg.bodies.as_ref())
            .map(|b| b.parts(step))
            .transpose()
            .map_err(PipelineError::Bodies)?;
        let body_counts = parts.as_ref().map(|p| p.counts);
        let vertex_group = parts.as_ref().and_then(|p| p.vertex_groups(mesh));
        let filters = match cfg.min_distance > 0.0 {
            true => cfg.filters.without_slpf(),
            false => cfg.filters,
        };

        // Checked: the filters' arrays are taken, and given back however
        // the call ends.
        let buffers = std::mem::take(&mut self.buffers);
        let cfg = self.config();
        let t = Clock::start();
        let ctx = PairCtx::new(
            cfg,
            filters,
            step,
            vertex_group.as_deref(),
            buffers,
            self.loose_cap,
            Run::Test,
        );
        let setup_ms = t.ms();
        let t = Clock::start();
        let sinks = decide(&ctx, &vf, &ee, cancel);
        let mut vf_counts = KindCounts {
            candidates: vf.len() as u64,
            candidates_same_component: same_component(&ctx, &vf),
            ..KindCounts::default()
        };
        let mut ee_counts = KindCounts {
            candidates: ee.len() as u64,
            candidates_same_component: same_component(&ctx, &ee),
            ..KindCounts::default()
        };
        let outcome = match is_set(cancel) || ctx.overflowed() {
            true => Err(stopped(&ctx, cfg)),
            false => Ok(collect(
                &ctx,
                cancel,
                sinks,
                &mut vf_counts,
                &mut ee_counts,
                mesh,
            )),
        };
        let outcome = outcome.and_then(|(busy, toi, pairs)| {
            ctx.check_kept(pairs.len() as u64);
            if is_set(cancel) || ctx.overflowed() {
                return Err(stopped(&ctx, cfg));
            }
            vf_counts.finish();
            ee_counts.finish();
            let fused_ms = t.ms();
            let (filter_ms, solve_ms) = fused_shares(busy, fused_ms, 0.0);
            let report = StepReport {
                vertices: mesh.num_vertices(),
                edges: mesh.num_edges(),
                faces: mesh.num_faces(),
                k: cfg.axes.k(),
                filters,
                window: cfg.window,
                time_aligned: false,
                solver: cfg.solver,
                min_distance: cfg.min_distance,
                threads: rayon::current_num_threads(),
                bodies: body_counts,
                bvh: BvhMode::Given,
                vf: vf_counts,
                ee: ee_counts,
                points: None,
                bvh_tests: BvhCounts::default(),
                toi: toi.map(|t| t.lower),
                toi_upper: toi.map(|t| t.upper),
                time_ms: StageTimes {
                    bvh: setup_ms,
                    traverse: fused_ms - filter_ms - solve_ms,
                    filter: filter_ms,
                    solve: solve_ms,
                    total: start.ms(),
                },
            };
            Ok(StepOutcome { report, pairs })
        });
        self.buffers = ctx.into_buffers();
        outcome
    }
}

/// [`Pipeline::step_on_candidates`] of a fresh pipeline with `config`.
pub fn step_on_candidates(
    step: &Step<'_>,
    config: &PipelineConfig,
    vertex_face: &[VfPair],
    edge_edge: &[EePair],
) -> Result<StepOutcome, PipelineError> {
    Pipeline::new(config.clone()).step_on_candidates(step, vertex_face, edge_edge)
}

/// The given pairs checked against `mesh`, each edge–edge pair with
/// `e0 < e1`, both lists sorted without repeats.
fn canonical(
    mesh: &TriMesh,
    vertex_face: &[VfPair],
    edge_edge: &[EePair],
) -> Result<(Vec<VfPair>, Vec<EePair>), CandidateError> {
    let (vertices, faces, edges) = (mesh.num_vertices(), mesh.num_faces(), mesh.num_edges());
    let vf_error = |(index, p): (usize, &VfPair)| {
        let (v, f) = (p.v, p.f);
        if v as usize >= vertices || f as usize >= faces {
            Some(CandidateError::VertexFaceOutOfRange {
                index,
                v,
                f,
                vertices,
                faces,
            })
        } else if mesh.faces()[f as usize].contains(&v) {
            Some(CandidateError::CornerOfFace { index, v, f })
        } else {
            None
        }
    };
    let ee_error = |(index, p): (usize, &EePair)| {
        let (e0, e1) = (p.e0, p.e1);
        if e0 as usize >= edges || e1 as usize >= edges {
            return Some(CandidateError::EdgeOutOfRange {
                index,
                e0,
                e1,
                edges,
            });
        }
        let (a, b) = (mesh.edges()[e0 as usize], mesh.edges()[e1 as usize]);
        a.iter()
            .any(|v| b.contains(v))
            .then_some(CandidateError::SharedEndpoint { index, e0, e1 })
    };
    // The first bad pair of each list, by index (the same on any thread
    // count).
    let first = |found: Option<CandidateError>| found.map_or(Ok(()), Err);
    first(vertex_face.par_iter().enumerate().find_map_first(vf_error))?;
    first(edge_edge.par_iter().enumerate().find_map_first(ee_error))?;
    let mut vf = vertex_face.to_vec();
    let mut ee: Vec<EePair> = edge_edge
        .par_iter()
        .map(|p| EePair::new(p.e0, p.e1))
        .collect();
    vf.par_sort_unstable();
    vf.dedup();
    ee.par_sort_unstable();
    ee.dedup();
    Ok((vf, ee))
}

/// The sinks of the chunks of `vf`, then of `ee`, in order, each having
/// decided its chunk (or skipped it, once the step was cancelled or kept
/// more pairs than allowed).
fn decide<'c>(
    ctx: &'c PairCtx<'c>,
    vf: &[VfPair],
    ee: &[EePair],
    cancel: Option<&'c AtomicBool>,
) -> Vec<TaskSink<'c>> {
    let mut sinks: Vec<TaskSink<'c>> = (vf.par_chunks(CHUNK))
        .map(|chunk| {
            let mut sink = TaskSink::new(ctx, cancel);
            sink.vertex_face(chunk);
            sink
        })
        .collect();
    sinks.par_extend(ee.par_chunks(CHUNK).map(|chunk| {
        let mut sink = TaskSink::new(ctx, cancel);
        sink.edge_edge(chunk);
        sink
    }));
    sinks
}

/// How many of `pairs` have both features in one connected component.
fn same_component<P: Pair + Sync>(ctx: &PairCtx<'_>, pairs: &[P]) -> u64 {
    pairs.par_iter().filter(|p| p.same_component(ctx)).count() as u64
}
