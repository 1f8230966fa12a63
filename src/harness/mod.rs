//! Measurement, not algorithms: data sets, ground truth, replay and reports.

pub mod data;
#[cfg(feature = "reports")]
pub mod figure;
pub mod generate;
pub mod ground_truth;
pub mod memory;
pub mod output;
pub mod query_eval;
pub mod replay;
#[cfg(feature = "reports")]
pub mod reproduction;
pub mod sequence;
pub mod stamp;
