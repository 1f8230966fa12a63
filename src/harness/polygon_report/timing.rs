//! The timing half of the polygon report (the paper's Fig. 3: mean
//! collision-resolution time over polygon complexity): the three methods
//! interleaved on the same overlapping pairs, samples of their mean time per
//! query, medians and paired ratios to the paper's method.

use std::hint::black_box;
use std::path::PathBuf;

use crate::harness::thread_time::Timer;
use crate::polygon::generate::{Rng, overlapping_pair};
use crate::polygon::{DecompositionKind, Method, PreparedPair};

use super::error::PolygonReportError;
use super::experiment::{KINDS, ReportConfig, Scenario, TIMED, kind_name, seed_for};

/// The timing of one method on one decomposition, scenario and size.
pub(super) struct TimingRow {
    /// The decomposition.
    pub(super) kind: DecompositionKind,
    /// The workload.
    pub(super) scenario: Scenario,
    /// Vertices per polygon.
    pub(super) n: usize,
    /// The method timed.
    pub(super) method: Method,
    /// Median over samples of the mean time per pair.
    pub(super) ns_per_query: f64,
    /// Fastest and slowest sample.
    pub(super) ns_min: f64,
    /// Slowest sample.
    pub(super) ns_max: f64,
    /// Median over samples of (this method's time / the paper's time in the
    /// same sample): paired, so machine drift cancels.
    pub(super) ratio_to_paper: f64,
    /// Mean convex pieces of A.
    pub(super) pieces_a: f64,
    /// Mean convex pieces of B.
    pub(super) pieces_b: f64,
}

/// The timing rows of `config` with `timer`, for both decompositions (the
/// same pairs: the same seed); `progress` hears of each size done.
pub(super) fn measure_timing(
    config: &ReportConfig,
    timer: Timer,
    progress: &mut dyn FnMut(&str),
) -> Result<Vec<TimingRow>, PolygonReportError> {
    let mut timing = Vec::new();
    for kind in KINDS {
        for scenario in Scenario::ALL {
            for &n in &config.sizes {
                let mut rng = Rng::new(seed_for(config.seed, scenario, n, 2));
                let pairs: Vec<PreparedPair> = (0..config.timing_pairs)
                    .map(|_| {
                        let (a, b) =
                            overlapping_pair(&mut rng, scenario.layout(n, config.spikiness));
                        PreparedPair::with_kind(a, b, kind)
                    })
                    .collect::<Result<_, _>>()
                    .map_err(|source| PolygonReportError::Prepare {
                        path: PathBuf::from("<generated>"),
                        source,
                    })?;
                let pieces_a = pairs.iter().map(|p| p.a_pieces().len()).sum::<usize>() as f64
                    / pairs.len() as f64;
                let pieces_b = pairs.iter().map(|p| p.b_pieces().len()).sum::<usize>() as f64
                    / pairs.len() as f64;
                let samples = time_methods(&pairs, timer, config.sample_seconds, config.samples);
                for (k, method) in TIMED.iter().copied().enumerate() {
                    let ratios: Vec<f64> = samples[k]
                        .iter()
                        .zip(&samples[0])
                        .map(|(t, p)| t / p)
                        .collect();
                    timing.push(TimingRow {
                        kind,
                        scenario,
                        n,
                        method,
                        ns_per_query: median(&samples[k]),
                        ns_min: samples[k].iter().cloned().fold(f64::INFINITY, f64::min),
                        ns_max: samples[k].iter().cloned().fold(0.0, f64::max),
                        ratio_to_paper: median(&ratios),
                        pieces_a,
                        pieces_b,
                    });
                }
                progress(&format!(
                    "timing: {} {} n={n} done",
                    kind_name(kind),
                    scenario.name()
                ));
            }
        }
    }
    Ok(timing)
}

/// The middle value (the upper one of an even count); NaN for none.
fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(|a, b| a.total_cmp(b));
    if v.is_empty() {
        f64::NAN
    } else {
        v[v.len() / 2]
    }
}

/// `samples` samples of the mean time per query (ns) of each timed method
/// (in [`TIMED`] order, the paper's first) on `pairs`; the methods are
/// interleaved within each sample so that drift of a shared machine hits
/// all of them alike.
fn time_methods(
    pairs: &[PreparedPair],
    timer: Timer,
    sample_seconds: f64,
    samples: usize,
) -> Vec<Vec<f64>> {
    let run = |m: Method, reps: usize| {
        timer.time(|| {
            for _ in 0..reps {
                for p in pairs {
                    black_box(p.resolve(black_box(m)));
                }
            }
        })
    };
    let reps: Vec<usize> = TIMED
        .iter()
        .map(|&m| {
            run(m, 1); // warm-up
            let once = run(m, 1).max(1e-9);
            ((sample_seconds / once).ceil() as usize).max(1)
        })
        .collect();
    let mut per_query: Vec<Vec<f64>> = vec![Vec::with_capacity(samples); TIMED.len()];
    for _ in 0..samples {
        for (k, &m) in TIMED.iter().enumerate() {
            let s = run(m, reps[k]);
            per_query[k].push(s * 1e9 / (reps[k] * pairs.len()) as f64);
        }
    }
    per_query
}

/// The row of one method, decomposition, scenario and size.
fn find_row(
    rows: &[TimingRow],
    kind: DecompositionKind,
    scenario: Scenario,
    n: usize,
    m: Method,
) -> Option<&TimingRow> {
    rows.iter()
        .find(|r| r.kind == kind && r.scenario == scenario && r.n == n && r.method == m)
}

/// Its median ns per query, NaN where not measured.
pub(super) fn find_ns(
    rows: &[TimingRow],
    kind: DecompositionKind,
    scenario: Scenario,
    n: usize,
    m: Method,
) -> f64 {
    find_row(rows, kind, scenario, n, m).map_or(f64::NAN, |r| r.ns_per_query)
}

/// Its median time ratio to the paper's method, NaN where not measured.
pub(super) fn find_ratio(
    rows: &[TimingRow],
    kind: DecompositionKind,
    scenario: Scenario,
    n: usize,
    m: Method,
) -> f64 {
    find_row(rows, kind, scenario, n, m).map_or(f64::NAN, |r| r.ratio_to_paper)
}
