//! Measurement, not algorithms: data sets, ground truth, replay and reports.

pub mod data;
#[cfg(all(feature = "discrete", feature = "reports"))]
pub mod discrete_report;
#[cfg(feature = "reports")]
pub mod figure;
pub mod generate;
pub mod ground_truth;
#[cfg(feature = "reports")]
pub mod limits;
pub mod memory;
pub mod output;
#[cfg(all(feature = "polygon", feature = "reports"))]
pub mod polygon_report;
pub mod query_eval;
pub mod replay;
#[cfg(feature = "reports")]
pub mod reproduction;
#[cfg(all(feature = "tin-contact", feature = "reports"))]
pub mod route_report;
pub mod separation_sampler;
pub mod sequence;
pub mod stamp;
pub mod thread_time;
