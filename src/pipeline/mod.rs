//! Stage composition: the only module that knows every stage. A step of a
//! deforming mesh goes through the broad phase, the filters and the exact
//! tests, and comes out as colliding pairs, counts, stage times and the
//! earliest time of impact. A mesh's static intersections at one instant
//! compose the same stages ([`intersections()`]), and so do the pairs within
//! a distance of each other ([`proximity()`]).
//!
//! With an exact solver ([`crate::narrow_phase::Solver::Exact`], the
//! default) a step's colliding pairs are exactly those that touch, or come
//! within [`PipelineConfig::min_distance`], at some `t ∈ [0, 1]`: the
//! filters cull only pairs provably apart under rounding, and the BVH's
//! candidates hold every pair the brute force would test (docs/design.md
//! §6–§8). The outcome is the same for any number of threads.

mod bodies;
mod candidates;
mod clock;
mod config;
mod decide;
mod intersections;
mod motion;
mod points;
mod proximity;
mod report;
mod step;
mod step_on_candidates;
mod tasks;

pub use bodies::{Bodies, BodiesError, BodyLabels, SelfColliding};
pub use candidates::{Candidates, candidates};
pub use config::{MAX_PAIRS, PipelineConfig, TimeAligned};
pub use intersections::{Intersections, has_intersections, intersections, intersections_with};
pub use motion::{AUTO_MIN_MOTION, motion_ratio};
pub use proximity::{
    DistanceError, Proximity, ProximityOptions, proximity, proximity_distance, proximity_with,
};
pub use report::{
    BodyCounts, BvhCounts, BvhMode, ContactPair, KindCounts, PairCounts, PointCounts, StageTimes,
    StepReport,
};
pub(crate) use report::{culling_rate_percent, is_zero_distance};
pub use step::{Pipeline, PipelineError, StepOutcome};
pub use step_on_candidates::{CandidateError, step_on_candidates};
