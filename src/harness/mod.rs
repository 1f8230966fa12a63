//! Measurement, not algorithms: data sets, ground truth, replay and reports.

pub mod data;
pub mod discrete_report;
pub mod figure;
pub mod generate;
pub mod ground_truth;
pub mod limits;
pub mod memory;
pub mod output;
pub mod polygon_report;
pub mod query_eval;
pub mod replay;
pub mod reproduction;
pub mod route_report;
pub mod sequence;
pub mod stamp;
pub mod thread_time;
