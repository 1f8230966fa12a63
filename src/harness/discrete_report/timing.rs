//! The timer of the discrete report: the median over 5 samples of the mean
//! wall-clock time per query (one thread).

use std::time::Instant;

use serde::Serialize;

/// One timed measurement: its id, the queries it ran over, the median µs.
#[derive(Debug, Serialize)]
pub(super) struct TimingRow {
    pub(super) id: String,
    pub(super) queries: usize,
    pub(super) us_per_query: f64,
}

/// Median over 5 samples of the mean µs per call of `f` over `n` items,
/// each sample repeating the whole set for at least `secs`.
pub(super) fn time_per_query(n: usize, secs: f64, mut f: impl FnMut(usize)) -> f64 {
    let mut samples = Vec::with_capacity(5);
    for _ in 0..5 {
        let start = Instant::now();
        let mut calls = 0usize;
        while calls == 0 || start.elapsed().as_secs_f64() < secs {
            for k in 0..n {
                f(k);
            }
            calls += n;
        }
        samples.push(start.elapsed().as_secs_f64() * 1e6 / calls as f64);
    }
    samples.sort_by(f64::total_cmp);
    samples[2]
}
