//! The accuracy half of the polygon report: every method's verdict on random
//! pairs against the exact reference, and its translation vector against the
//! minimum-translation oracle (`src/polygon/evaluate.rs`), tallied per
//! scenario and size.

use std::path::PathBuf;

use crate::polygon::evaluate::{MethodTally, evaluate_pair};
use crate::polygon::generate::{Rng, random_pair};
use crate::polygon::{Method, PreparedPair, Relation};

use super::error::PolygonReportError;
use super::experiment::{ReportConfig, Scenario, seed_for};

/// The verdict tallies of one scenario and size.
pub(super) struct AccuracyRow {
    /// The workload.
    pub(super) scenario: Scenario,
    /// Vertices per polygon.
    pub(super) n: usize,
    /// Pairs by exact relation: disjoint, boundaries meet, B in A, A in B.
    pub(super) truth: [usize; 4],
    /// Whether the minimum-translation oracle ran.
    pub(super) oracle: bool,
    /// Per method.
    pub(super) tallies: Vec<(Method, MethodTally)>,
}

/// The accuracy rows of `config`, one per scenario and size; `progress` hears
/// of each one done.
pub(super) fn measure_accuracy(
    config: &ReportConfig,
    progress: &mut dyn FnMut(&str),
) -> Result<Vec<AccuracyRow>, PolygonReportError> {
    let mut accuracy = Vec::new();
    for scenario in Scenario::ALL {
        for &n in &config.sizes {
            let mut rng = Rng::new(seed_for(config.seed, scenario, n, 1));
            let oracle = n <= config.oracle_max_vertices;
            let mut tallies: Vec<(Method, MethodTally)> = Method::ALL
                .iter()
                .map(|&m| (m, MethodTally::default()))
                .collect();
            let mut truth = [0usize; 4];
            for _ in 0..config.accuracy_pairs {
                let (a, b) = random_pair(&mut rng, scenario.layout(n, config.spikiness));
                let pair =
                    PreparedPair::new(a, b).map_err(|source| PolygonReportError::Prepare {
                        path: PathBuf::from("<generated>"),
                        source,
                    })?;
                let e = evaluate_pair(&pair, oracle);
                truth[match e.truth {
                    Relation::Disjoint => 0,
                    Relation::BoundariesMeet => 1,
                    Relation::SecondInsideFirst => 2,
                    Relation::FirstInsideSecond => 3,
                }] += 1;
                for (r, (_, t)) in e.results.iter().zip(tallies.iter_mut()) {
                    t.add(r);
                }
            }
            progress(&format!("accuracy: {} n={n} done", scenario.name()));
            accuracy.push(AccuracyRow {
                scenario,
                n,
                truth,
                oracle,
                tallies,
            });
        }
    }
    Ok(accuracy)
}
