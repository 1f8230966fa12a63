//! Stage composition: the only module that knows every stage. A step of a
//! deforming mesh goes through the broad phase, the filters and the exact
//! tests, and comes out as colliding pairs, counts, stage times and the
//! earliest time of impact.

mod bodies;
mod clock;
mod config;
mod motion;
mod report;
mod step;

pub use bodies::{Bodies, BodiesError, BodyLabels, SelfColliding};
pub use config::{PipelineConfig, TimeAligned};
pub use motion::{AUTO_MIN_MOTION, motion_ratio};
pub(crate) use report::is_contact;
pub use report::{
    BodyCounts, BvhCounts, BvhMode, ContactPair, KindCounts, PairCounts, PointCounts, StageTimes,
    StepReport,
};
pub use step::{Pipeline, PipelineError, StepOutcome};
