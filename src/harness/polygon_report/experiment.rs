//! The design of the polygon experiment (Fayzrakhmanov et al., ≈2015;
//! `docs/design.md` §3): its options and their limits, the two workloads
//! (scenarios), the decompositions and methods timed, and the seeds of the
//! random pairs.

use std::path::PathBuf;

use crate::enum_with_all::enum_with_all;
use crate::polygon::generate::PairLayout;
use crate::polygon::{DecompositionKind, Method};

use super::error::{PolygonReportError, argument};

/// Default of `--oracle-max-vertices` (`report` and `query`). The
/// minimum-translation oracle's cost grows steeply with the vertex count
/// (measured: docs/notes/side-track-limits.md).
pub const ORACLE_MAX_VERTICES: usize = 32;

/// Most vertices of a polygon (`report --sizes`, `query` files). The paper's
/// method costs about n³ operations per pair, so far beyond this a query
/// would not end (measured: docs/notes/side-track-limits.md).
pub const MAX_VERTICES: usize = 4096;

/// Most `report --accuracy-pairs`: each pair is generated and resolved by
/// every method (and, up to `--oracle-max-vertices`, the oracles) in turn.
pub const MAX_ACCURACY_PAIRS: usize = 1_000_000;

/// Most vertices of the timing pairs of one size, `--timing-pairs` times
/// the largest of `--sizes`: the timing keeps its pairs, decomposed, in
/// memory (a few hundred bytes per vertex).
pub const MAX_TIMING_VERTICES: usize = 1_000_000;

/// Most `report --samples`.
pub const MAX_SAMPLES: usize = 1_000;

/// Most `report --sample-seconds` (per method, scenario, size and sample).
pub const MAX_SAMPLE_SECONDS: f64 = 10.0;

/// The experiment: what `ccdlab polygons report` measures, and where the
/// report goes (the command line's options, one field each).
#[derive(Debug, Clone)]
pub struct ReportConfig {
    /// Output folder.
    pub out: PathBuf,
    /// Seed of the random polygons.
    pub seed: u64,
    /// Vertex counts of both polygons (comma separated, each ≥ 3).
    pub sizes: Vec<usize>,
    /// Random pairs per scenario and size for the accuracy tables (at most
    /// 1,000,000).
    pub accuracy_pairs: usize,
    /// Run the (slow) minimum-translation oracle up to this vertex count.
    pub oracle_max_vertices: usize,
    /// Overlapping pairs per scenario and size for the timing (times the
    /// largest size, at most 1,000,000 vertices).
    pub timing_pairs: usize,
    /// Seconds per timing sample (per method, scenario and size; at most 10).
    pub sample_seconds: f64,
    /// Timing samples (the median is reported; at most 1000).
    pub samples: usize,
    /// Spikiness of the star polygons, in [0, 1).
    pub spikiness: f64,
}

impl ReportConfig {
    /// Refuses values that are out of range, or that would never finish or
    /// exhaust memory (the limits above); the error names the option.
    pub fn check(&self) -> Result<(), PolygonReportError> {
        let a = self;
        if a.sizes.is_empty() {
            return Err(argument("sizes", "give at least one vertex count"));
        }
        if let Some(&n) = a.sizes.iter().find(|&&n| !(3..=MAX_VERTICES).contains(&n)) {
            return Err(argument(
                "sizes",
                format!("{n} is outside 3..={MAX_VERTICES}"),
            ));
        }
        let count = |name: &'static str, value: usize, max: usize| {
            crate::harness::limits::count(value, max).map_err(|m| argument(name, m.to_string()))
        };
        count("accuracy-pairs", a.accuracy_pairs, MAX_ACCURACY_PAIRS)?;
        count("timing-pairs", a.timing_pairs, MAX_TIMING_VERTICES)?;
        count("samples", a.samples, MAX_SAMPLES)?;
        // Both factors are bounded above (sizes by `MAX_VERTICES`): no overflow.
        let largest = a.sizes.iter().copied().max().unwrap_or(0);
        if a.timing_pairs * largest > MAX_TIMING_VERTICES {
            return Err(argument(
                "timing-pairs",
                format!(
                    "{} pairs of {largest}-vertex polygons exceed the limit of {MAX_TIMING_VERTICES} \
                     vertices per size (the timing keeps its pairs in memory)",
                    a.timing_pairs
                ),
            ));
        }
        crate::harness::limits::seconds(a.sample_seconds, MAX_SAMPLE_SECONDS)
            .map_err(|m| argument("sample-seconds", m.to_string()))?;
        if !(0.0..1.0).contains(&a.spikiness) {
            return Err(argument("spikiness", "must be in [0, 1)"));
        }
        Ok(())
    }
}

enum_with_all! {
    /// The two workloads.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub(super) enum Scenario {
        /// Both polygons non-convex (the paper's method decomposes B).
        NonconvexNonconvex,
        /// A non-convex, B convex (the paper's method makes one pair).
        NonconvexConvex,
    }
    /// Both workloads, in report order.
    const ALL;
}

impl Scenario {
    pub(super) fn name(self) -> &'static str {
        match self {
            Scenario::NonconvexNonconvex => "nonconvex-nonconvex",
            Scenario::NonconvexConvex => "nonconvex-convex",
        }
    }

    pub(super) fn layout(self, n: usize, spikiness: f64) -> PairLayout {
        PairLayout {
            n_a: n,
            n_b: n,
            b_convex: self == Scenario::NonconvexConvex,
            spikiness,
        }
    }
}

/// The decompositions timed: Hertel–Mehlhorn (main) and plain triangles
/// (sensitivity: the paper does not say which its baselines used).
pub(super) const KINDS: [DecompositionKind; 2] = [
    DecompositionKind::HertelMehlhorn,
    DecompositionKind::Triangles,
];

/// The decomposition's name in the CSV and the progress lines.
pub(super) fn kind_name(kind: DecompositionKind) -> &'static str {
    match kind {
        DecompositionKind::HertelMehlhorn => "hertel-mehlhorn",
        DecompositionKind::Triangles => "triangles",
    }
}

/// The methods timed (the literal step-11 reading costs the same as the
/// default one; it is judged for accuracy only).
pub(super) const TIMED: [Method; 3] = [
    Method::Paper,
    Method::SatDecomposed,
    Method::GjkEpaDecomposed,
];

/// The seed of the pairs of one scenario and size, for one purpose (1:
/// accuracy, 2: timing).
pub(super) fn seed_for(base: u64, scenario: Scenario, n: usize, purpose: u64) -> u64 {
    base ^ ((n as u64) << 20) ^ ((scenario as u64) << 40) ^ (purpose << 48)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_arguments_are_checked() {
        let ok = ReportConfig {
            out: PathBuf::from("x"),
            seed: 1,
            sizes: vec![8],
            accuracy_pairs: 1,
            oracle_max_vertices: 8,
            timing_pairs: 1,
            sample_seconds: 0.01,
            samples: 1,
            spikiness: 0.5,
        };
        assert!(ReportConfig::check(&ok).is_ok());
        assert!(
            ReportConfig::check(&ReportConfig {
                sizes: vec![2],
                ..ok.clone()
            })
            .is_err()
        );
        assert!(
            ReportConfig::check(&ReportConfig {
                spikiness: 1.0,
                ..ok.clone()
            })
            .is_err()
        );
        assert!(
            ReportConfig::check(&ReportConfig {
                sample_seconds: f64::NAN,
                ..ok.clone()
            })
            .is_err()
        );
        assert!(
            ReportConfig::check(&ReportConfig {
                samples: 0,
                ..ok.clone()
            })
            .is_err()
        );
        // Upper limits: counts and times that would never finish or
        // exhaust memory.
        let refused = |a: ReportConfig| ReportConfig::check(&a).unwrap_err().to_string();
        for (name, a) in [
            (
                "accuracy-pairs",
                ReportConfig {
                    accuracy_pairs: MAX_ACCURACY_PAIRS + 1,
                    ..ok.clone()
                },
            ),
            (
                "samples",
                ReportConfig {
                    samples: usize::MAX,
                    ..ok.clone()
                },
            ),
            (
                "sample-seconds",
                ReportConfig {
                    sample_seconds: 1e300,
                    ..ok.clone()
                },
            ),
            (
                "timing-pairs",
                ReportConfig {
                    timing_pairs: usize::MAX,
                    ..ok.clone()
                },
            ),
            (
                "timing-pairs",
                ReportConfig {
                    sizes: vec![8, MAX_VERTICES],
                    timing_pairs: MAX_TIMING_VERTICES / MAX_VERTICES + 1,
                    ..ok.clone()
                },
            ),
        ] {
            let e = refused(a);
            assert!(e.starts_with(&format!("invalid --{name}: ")), "{e}");
        }
        for a in [
            ReportConfig {
                accuracy_pairs: MAX_ACCURACY_PAIRS,
                samples: MAX_SAMPLES,
                sample_seconds: MAX_SAMPLE_SECONDS,
                ..ok.clone()
            },
            ReportConfig {
                sizes: vec![MAX_VERTICES],
                timing_pairs: MAX_TIMING_VERTICES / MAX_VERTICES,
                ..ok.clone()
            },
        ] {
            assert!(ReportConfig::check(&a).is_ok());
        }
    }
}
