//! Process memory, for the reports' peak-memory column.

use serde::{Deserialize, Serialize};

use crate::pipeline::StepReport;

/// A pipeline step's report with the process's peak memory after it: the
/// pipeline does not measure memory, its callers do. Serialised flat, the
/// report's fields then `peak_rss_mb` (the JSON of `ccdlab step --json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MeasuredStep {
    /// The pipeline's report.
    #[serde(flatten)]
    pub report: StepReport,
    /// Peak resident memory of the process after the step, MiB ([`peak_rss_mb`]).
    pub peak_rss_mb: f64,
}

impl MeasuredStep {
    /// `report` with the peak memory measured now.
    pub fn now(report: StepReport) -> MeasuredStep {
        MeasuredStep {
            report,
            peak_rss_mb: peak_rss_mb(),
        }
    }
}

/// Peak resident set size of this process so far (`VmHWM`), MiB; `0.0`
/// where the platform does not say.
pub fn peak_rss_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

#[cfg(test)]
mod tests {
    #[test]
    #[cfg(target_os = "linux")]
    fn a_running_process_has_a_peak() {
        assert!(super::peak_rss_mb() > 0.0);
    }
}
