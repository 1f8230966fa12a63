//! What a pipeline run is configured with.

use crate::bounding_volume::KdopAxes;
use crate::filter::{FilterSet, PAPER_DIRECTIONS};
use crate::narrow_phase::{Solver, validate_separation};

use super::{Bodies, PipelineError};

/// The choices of one pipeline run.
#[derive(Debug, Clone, PartialEq)]
pub struct PipelineConfig {
    /// Bounding-volume type of the BVH (k = 6, 8, 14, 18, 26).
    pub axes: KdopAxes,
    /// Low-level filters before the exact test.
    pub filters: FilterSet,
    /// SLPF projection directions (exact, need not be unit).
    pub directions: Vec<[f64; 3]>,
    /// The test that decides the pairs the filters pass: the exact solver
    /// (the default; no false negative or positive) or a baseline
    /// ([`Solver`]).
    pub solver: Solver,
    /// Run the coplanar-window filter ([`crate::filter::window_vertex_face`])
    /// on the pairs the paper's filters pass, before the solver. Not part of
    /// the paper's pipeline; its culls are counted separately
    /// ([`super::KindCounts::culled_window`]), so the paper's counts are the
    /// same with it on or off.
    pub window: bool,
    /// Whether the BVH drops the leaf pairs and feature pairs whose k-DOPs
    /// at `t = 0` and at `t = 1` one slab separates at both times in the
    /// same order ([`TimeAligned`]). Off by default (the paper's BVH); the
    /// command line and the Python package default to [`TimeAligned::Auto`].
    pub time_aligned: TimeAligned,
    /// Keep every colliding pair (global IDs and time of impact) in the
    /// outcome, not just the counts. At a minimum separation, a step that
    /// does not keep them brackets tightly only the pairs that may hold the
    /// earliest time (docs/design.md §5, "Loose brackets"): the same report,
    /// less work.
    pub collect_pairs: bool,
    /// Minimum separation `d ≥ 0` (a finite double): a pair collides when
    /// its features come within Euclidean distance `d` during the step
    /// (docs/design.md §5); `0` is contact. At `d > 0` the BVH's k-DOPs are
    /// grown by `d / 2` each ([`crate::broad_phase::KdopBvh::min_distance`]),
    /// the solver is the exact minimum-separation one
    /// ([`crate::narrow_phase::vertex_face_within`]; [`Solver::Cubic`], which
    /// decides contact only, is refused: [`PipelineConfig::check`]),
    /// time-aligned pruning runs on k-DOPs grown likewise, DNF and the
    /// coplanar window run with a margin of `d` ([`crate::filter::dnf_within`],
    /// [`crate::filter::dnf_window_within`]), and SLPF, proven for contact
    /// only, is off; the report says what ran. A `d` far below the
    /// coordinates' rounding (under about `10⁻¹⁶` of them) stays exact but
    /// is slow: every pair that comes within it is decided in big integers
    /// that grow with the bits between `d` and the coordinates; for
    /// contact, give `0`.
    pub min_distance: f64,
    /// Which feature pairs are tested, by body ([`Bodies`]): `None` tests
    /// every pair of the mesh, as the paper does. Pairs within a body that
    /// does not collide with itself (a static obstacle's, say) are dropped
    /// by the BVH's traversal before their features are tested, and not
    /// counted.
    pub bodies: Option<Bodies>,
    /// The most pairs a step keeps: colliding pairs when they are collected
    /// ([`PipelineConfig::collect_pairs`]), or the pairs a listing returns
    /// ([`super::Pipeline::candidates`]). A step with more fails with
    /// [`PipelineError::TooManyPairs`] rather than growing its lists without
    /// bound (a minimum separation as large as the mesh, a mesh of many
    /// coincident vertices); its counts alone need no such list. Default
    /// [`MAX_PAIRS`].
    pub max_pairs: u64,
}

/// The default [`PipelineConfig::max_pairs`]: `2²⁶`, about 67 million pairs
/// (some 2.7 GB as [`super::ContactPair`]s), hundreds of times the colliding
/// pairs of the data sets' largest step.
pub const MAX_PAIRS: u64 = 1 << 26;

impl PipelineConfig {
    /// Whether a step can run with this configuration: SLPF directions that
    /// are finite and not zero, a finite [`PipelineConfig::min_distance`]
    /// `≥ 0`, and at `d > 0` the exact solver (the cubic one has no minimum
    /// separation). [`Pipeline::step`] checks it; callers may check it before
    /// reading any frame.
    ///
    /// [`Pipeline::step`]: super::Pipeline::step
    pub fn check(&self) -> Result<(), PipelineError> {
        if let Some(index) = self
            .directions
            .iter()
            .position(|s| s.iter().any(|c| !c.is_finite()) || s.iter().all(|&c| c == 0.0))
        {
            return Err(PipelineError::Direction {
                index,
                direction: self.directions[index],
            });
        }
        let d = validate_separation(self.min_distance)?;
        if d > 0.0 && !self.solver.has_min_distance() {
            return Err(PipelineError::NoSeparation(self.solver));
        }
        Ok(())
    }
}

impl Default for PipelineConfig {
    /// The paper's choices: 26-DOP, SLPF then DNF, its five directions, and
    /// the exact solver; then the coplanar-window filter. Time-aligned
    /// pruning is off here (the paper's BVH); the command line and the
    /// Python package default to [`TimeAligned::Auto`], which finds the
    /// same pairs and is faster where vertices move far against the edges.
    fn default() -> Self {
        PipelineConfig {
            axes: KdopAxes::Dop26,
            filters: FilterSet::SlpfDnf,
            directions: PAPER_DIRECTIONS.to_vec(),
            solver: Solver::Exact,
            window: true,
            time_aligned: TimeAligned::Off,
            collect_pairs: false,
            min_distance: 0.0,
            bodies: None,
            max_pairs: MAX_PAIRS,
        }
    }
}

/// Time-aligned pruning ([`crate::broad_phase::KdopBvh::time_aligned`]).
/// Not part of the paper's pipeline: its candidates are then fewer than
/// the swept k-DOPs' and SLPF culls almost none of them (this is SLPF's
/// test on all the k-DOP's directions); the colliding pairs and the time
/// of impact are the same whatever the setting.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum TimeAligned {
    /// The swept k-DOPs alone (the paper's BVH).
    #[default]
    Off,
    /// Prune, with the filters as configured.
    On,
    /// Prune when the step's vertices move far against its edges
    /// ([`super::motion_ratio`] at least [`super::AUTO_MIN_MOTION`]), and
    /// then leave SLPF out of the filters, since the pruning has made its
    /// test on every slab ([`FilterSet::without_slpf`]); otherwise as
    /// [`TimeAligned::Off`]. Decided whenever the BVH is built; a refit
    /// keeps the tree's setting.
    Auto,
}
