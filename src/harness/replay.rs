//! Replaying a frame sequence through the pipeline: one record per step
//! (JSON lines) and an aggregate summary.

use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::memory::peak_rss_mb;
use super::sequence::{FrameSequence, SequenceError};
use super::stamp::Stamp;
use crate::filter::FilterSet;
use crate::mesh::Step;
use crate::narrow_phase::Solver;
use crate::pipeline::{
    BodyCounts, KindCounts, Pipeline, PipelineConfig, PipelineError, PointCounts, StageTimes,
    StepReport, culling_rate_percent,
};

/// Why a replay stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReplayError {
    /// A frame could not be read.
    #[error(transparent)]
    Sequence(#[from] SequenceError),
    /// The pipeline refused a step.
    #[error(transparent)]
    Pipeline(#[from] PipelineError),
    /// Building a step failed (non-finite positions, …).
    #[error(transparent)]
    Mesh(#[from] crate::mesh::MeshError),
}

/// One step of a replay (a line of the JSON-lines log).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepRecord {
    /// Sequence name.
    pub sequence: String,
    /// Step index (0 for frames 0 → 1).
    pub step: usize,
    /// Label of the frame at `t = 0`.
    pub frame_t0: String,
    /// Label of the frame at `t = 1`.
    pub frame_t1: String,
    /// The pipeline's report.
    #[serde(flatten)]
    pub report: StepReport,
    /// Peak resident memory of the process after the step, MiB.
    pub peak_rss_mb: f64,
}

/// Sums of [`KindCounts`] over the steps.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct KindTotals {
    /// Candidates from the BVH.
    pub candidates: u64,
    /// Removed by SLPF.
    pub culled_slpf: u64,
    /// Removed by DNF.
    pub culled_dnf: u64,
    /// Left after the paper's filters (SLPF, DNF).
    pub after_filter: u64,
    /// Removed by the coplanar-window filter (from `after_filter`).
    #[serde(default)]
    pub culled_window: u64,
    /// Colliding.
    pub colliding: u64,
    /// Overall culling rate, percent.
    pub culling_rate_percent: f64,
}

impl KindTotals {
    fn add(&mut self, c: &KindCounts) {
        // Every field named, so that a count added to `KindCounts` is
        // summed here or left out on purpose.
        let KindCounts {
            candidates,
            candidates_same_component: _,
            culled_slpf,
            culled_dnf,
            after_filter,
            culled_window,
            colliding,
            colliding_same_component: _,
            culling_rate_percent: _,
            exact_fallbacks: _,
        } = *c;
        self.candidates += candidates;
        self.culled_slpf += culled_slpf;
        self.culled_dnf += culled_dnf;
        self.after_filter += after_filter;
        self.culled_window += culled_window;
        self.colliding += colliding;
        self.culling_rate_percent = culling_rate_percent(self.candidates, self.after_filter);
    }
}

/// One pipeline setting that ran in a replay, and on how many steps.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SettingRun {
    /// The filters that ran ([`StepReport::filters`]).
    pub filters: FilterSet,
    /// Whether the BVH pruned by time-aligned k-DOPs.
    pub time_aligned: bool,
    /// Whether the coplanar-window filter ran.
    pub window: bool,
    /// Steps that ran this setting.
    pub steps: usize,
}

/// The aggregate of a replay.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReplaySummary {
    /// Sequence name.
    pub sequence: String,
    /// Vertices, edges, faces.
    pub mesh: [usize; 3],
    /// Steps replayed.
    pub steps: usize,
    /// Steps with at least one collision.
    pub steps_with_collisions: usize,
    /// Numbering gaps in the frame files, `(before, after)`.
    pub gaps: Vec<(u64, u64)>,
    /// Bounding-volume planes.
    pub k: usize,
    /// The settings that ran (what the steps' reports say, which with
    /// [`crate::pipeline::TimeAligned::Auto`] can differ from the
    /// configuration and from step to step), with their step counts, in the
    /// order they first ran.
    pub ran: Vec<SettingRun>,
    /// Solver (at `min_distance > 0`, the exact minimum-separation one).
    pub solver: Solver,
    /// The minimum separation the steps were decided for (pairs within it
    /// collide); absent from the JSON at 0 (contact).
    #[serde(default, skip_serializing_if = "crate::pipeline::is_zero_distance")]
    pub min_distance: f64,
    /// The last step's bodies, when the steps tested pairs by body
    /// ([`PipelineConfig::bodies`]; with
    /// [`crate::pipeline::Bodies::StillObstacle`] they are decided at each
    /// step); absent from the JSON when they tested every pair.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bodies: Option<BodyCounts>,
    /// Vertex–face totals.
    pub vf: KindTotals,
    /// Edge–edge totals.
    pub ee: KindTotals,
    /// Totals of the codimensional points' pairs, when the mesh has points
    /// ([`StepReport::points`]); absent from the JSON otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<PointCounts>,
    /// Smallest per-step time of impact (lower bound) over the steps with a
    /// collision.
    pub min_step_toi: Option<f64>,
    /// Mean stage times per step, ms.
    pub mean_time_ms: StageTimes,
    /// Wall time of the whole replay including frame reading, ms.
    pub wall_ms: f64,
    /// Peak resident memory, MiB.
    pub peak_rss_mb: f64,
    /// Machine, threads, commit.
    pub stamp: Stamp,
}

/// Replays every step of `seq` on the current rayon pool, calling `on_step`
/// after each.
pub fn replay(
    seq: &FrameSequence,
    config: PipelineConfig,
    mut on_step: impl FnMut(&StepRecord),
) -> Result<ReplaySummary, ReplayError> {
    let start = Instant::now();
    let mut pipeline = Pipeline::new(config);
    let mesh = seq.mesh();
    let (mut vf, mut ee) = (KindTotals::default(), KindTotals::default());
    let mut points = None::<PointCounts>;
    let mut sum = StageTimes::default();
    let (mut with_collisions, mut min_toi) = (0, None::<f64>);
    let mut ran: Vec<SettingRun> = Vec::new();
    let mut bodies = None;
    let steps = seq.num_frames() - 1;
    let mut x_t0 = seq.frame(0)?;
    for i in 0..steps {
        let x_t1 = seq.frame(i + 1)?;
        let step = Step::new(mesh, &x_t0, &x_t1)?;
        let outcome = pipeline.step(&step)?;
        let r = &outcome.report;
        vf.add(&r.vf);
        ee.add(&r.ee);
        if let Some(p) = r.points {
            *points.get_or_insert_default() += p;
        }
        bodies = r.bodies;
        match ran.iter_mut().find(|s| {
            (s.filters, s.time_aligned, s.window) == (r.filters, r.time_aligned, r.window)
        }) {
            Some(s) => s.steps += 1,
            None => ran.push(SettingRun {
                filters: r.filters,
                time_aligned: r.time_aligned,
                window: r.window,
                steps: 1,
            }),
        }
        for (s, t) in [
            (&mut sum.bvh, r.time_ms.bvh),
            (&mut sum.traverse, r.time_ms.traverse),
            (&mut sum.filter, r.time_ms.filter),
            (&mut sum.solve, r.time_ms.solve),
            (&mut sum.total, r.time_ms.total),
        ] {
            *s += t;
        }
        if let Some(t) = r.toi {
            with_collisions += 1;
            min_toi = Some(min_toi.map_or(t, |m| m.min(t)));
        }
        on_step(&StepRecord {
            sequence: seq.name().to_string(),
            step: i,
            frame_t0: seq.frame_label(i),
            frame_t1: seq.frame_label(i + 1),
            report: outcome.report,
            peak_rss_mb: peak_rss_mb(),
        });
        x_t0 = x_t1;
    }
    let n = steps.max(1) as f64;
    let cfg = pipeline.config();
    Ok(ReplaySummary {
        sequence: seq.name().to_string(),
        mesh: [mesh.num_vertices(), mesh.num_edges(), mesh.num_faces()],
        steps,
        steps_with_collisions: with_collisions,
        gaps: seq.gaps(),
        k: cfg.axes.k(),
        ran,
        solver: cfg.solver,
        min_distance: cfg.min_distance,
        bodies,
        vf,
        ee,
        points,
        min_step_toi: min_toi,
        mean_time_ms: StageTimes {
            bvh: sum.bvh / n,
            traverse: sum.traverse / n,
            filter: sum.filter / n,
            solve: sum.solve / n,
            total: sum.total / n,
        },
        wall_ms: start.elapsed().as_secs_f64() * 1e3,
        peak_rss_mb: peak_rss_mb(),
        stamp: Stamp::new(rayon::current_num_threads()),
    })
}
