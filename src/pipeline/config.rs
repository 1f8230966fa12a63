//! What a pipeline run is configured with.

use crate::bounding_volume::KdopAxes;
use crate::filter::{FilterSet, PAPER_DIRECTIONS};
use crate::narrow_phase::Solver;

/// The choices of one pipeline run.
#[derive(Debug, Clone, PartialEq)]
pub struct PipelineConfig {
    /// Bounding-volume type of the BVH (k = 6, 8, 14, 18, 26).
    pub axes: KdopAxes,
    /// Low-level filters before the exact test.
    pub filters: FilterSet,
    /// SLPF projection directions (exact, need not be unit).
    pub directions: Vec<[f64; 3]>,
    /// Narrow-phase method.
    pub solver: Solver,
    /// Keep every colliding pair (global IDs and time of impact) in the
    /// outcome, not just the counts.
    pub collect_pairs: bool,
}

impl Default for PipelineConfig {
    /// The paper's choices: 26-DOP, SLPF then DNF, its five directions, and
    /// the exact solver.
    fn default() -> Self {
        PipelineConfig {
            axes: KdopAxes::Dop26,
            filters: FilterSet::SlpfDnf,
            directions: PAPER_DIRECTIONS.to_vec(),
            solver: Solver::Exact,
            collect_pairs: false,
        }
    }
}
