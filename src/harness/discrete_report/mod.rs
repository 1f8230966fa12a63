//! The discrete detectors (Trushin 2015 sphere–sphere and sphere–box;
//! Strashnov & Torgashev 2020 cylinder–terrain) against parry3d-f64 on
//! seeded random configurations and the scripted scenes: the report of
//! `ccdlab discrete` (`results.json`, `summary.md` and figures).

mod error;
mod experiment;
mod markdown;
mod plot;
mod results;
mod statistics;
mod timing;

pub use error::DiscreteReportError;
pub use experiment::{
    MAX_FRAMES, MAX_PAIRS, MAX_TERRAIN_QUERIES, MAX_TERRAINS, ReportConfig, ReportSummary,
    write_report,
};
