//! The candidate pairs of a step that reach the exact test: those the BVH
//! finds (Wan, Fu & Yao 2022, §3.1) and the configured filters pass (§2),
//! listed instead of tested (docs/design.md §2). They are the pairs to give
//! another narrow phase, or a filter of one's own, to compare it with the
//! exact one on a real step.

use std::sync::atomic::AtomicBool;

use super::report::StepReport;
use super::step::Run;
use super::{Pipeline, PipelineConfig, PipelineError};
use crate::broad_phase::{EePair, VfPair};
use crate::mesh::Step;

/// The pairs of a step that reach the exact test ([`Pipeline::candidates`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Candidates {
    /// Vertex–face pairs (vertex and face indices of the mesh), ascending.
    pub vertex_face: Vec<VfPair>,
    /// Edge–edge pairs (indices into the mesh's
    /// [`edges`](crate::mesh::TriMesh::edges), `e0 < e1`), ascending.
    pub edge_edge: Vec<EePair>,
    /// What ran and what it removed: the filters and time-aligned pruning
    /// (`filters`, `window`, `time_aligned`), the BVH's candidates
    /// (`vf.candidates`, `ee.candidates`) and each filter's culls
    /// (`culled_slpf`, `culled_dnf`, `culled_window`), so that
    /// `vertex_face.len() == vf.after_filter - vf.culled_window`. Nothing was
    /// tested: `colliding` is 0, `toi` is `None`, and so are `points` (the
    /// codimensional points' pairs are not listed).
    pub report: StepReport,
}

impl Pipeline {
    /// The pairs of `step` that reach the exact test, listed instead of
    /// tested: those the BVH (built or refitted as [`Pipeline::step`] would)
    /// finds and the configured filters pass. A step with the same
    /// configuration decides exactly these pairs: tested one by one with the
    /// exact solver ([`crate::narrow_phase::vertex_face`],
    /// [`crate::narrow_phase::edge_edge`], or their `_within` forms at a
    /// minimum separation, on [`Step::vertex_face_points`] and
    /// [`Step::edge_edge_points`]), they give the colliding pairs of that
    /// step with [`crate::narrow_phase::Solver::Exact`], the default. The
    /// codimensional points' pairs are not listed.
    ///
    /// With [`crate::filter::FilterSet::None`], `window: false` and
    /// [`super::TimeAligned::Off`], every pair the BVH finds: those whose
    /// features' swept k-DOPs overlap (the time-aligned pruning removes
    /// pairs inside the traversal, before the filters).
    pub fn candidates(&mut self, step: &Step<'_>) -> Result<Candidates, PipelineError> {
        self.list(step, None)
    }

    /// [`Pipeline::candidates`], given up when `cancel` is set, as
    /// [`Pipeline::step_cancellable`].
    pub fn candidates_cancellable(
        &mut self,
        step: &Step<'_>,
        cancel: &AtomicBool,
    ) -> Result<Candidates, PipelineError> {
        self.list(step, Some(cancel))
    }

    fn list(
        &mut self,
        step: &Step<'_>,
        cancel: Option<&AtomicBool>,
    ) -> Result<Candidates, PipelineError> {
        let (outcome, (vertex_face, edge_edge)) = self.run(step, cancel, Run::List)?;
        Ok(Candidates {
            vertex_face,
            edge_edge,
            report: outcome.report,
        })
    }
}

/// [`Pipeline::candidates`] of a fresh pipeline with `config`.
pub fn candidates(step: &Step<'_>, config: &PipelineConfig) -> Result<Candidates, PipelineError> {
    Pipeline::new(config.clone()).candidates(step)
}
