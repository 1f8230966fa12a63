//! Measurement, not algorithms: data sets, ground truth, replay and reports.

pub mod data;
pub mod ground_truth;
pub mod output;
pub mod stamp;
