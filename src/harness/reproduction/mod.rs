//! The reproduction of Wan, Fu & Yao 2022 (Tables 1–2, Fig. 6) beside the
//! parry3d baseline and the ipctk peer: which scene steps are measured, what
//! the benches and scripts record (JSON), and the report (`ccdlab report`)
//! regenerated from those records — Markdown, PNG and SVG figures.

mod figures;
mod inputs;
mod markdown;
mod markdown_steps;
pub mod paper;
mod record;
mod report;
mod scenes;

pub use inputs::{
    BenchEstimate, BenchTimings, MAX_TIME_MS, ReplayRun, ReportInputs, StepRun, read_criterion,
};
pub use record::{
    BroadPhaseTimes, FilterCounts, KdopRecord, Motion, ParryRecord, PeerKind, PeerRecord,
    PeerTimes, RECORD_FORMAT, SceneRecord,
};
pub use report::{ReportError, ReportOptions, ReportSummary, generate};
pub use scenes::{SCENES, SceneSpec, scene_order};
