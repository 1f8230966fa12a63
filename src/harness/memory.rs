//! Process memory, for the reports' peak-memory column.

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
