//! Every ground-truth query of the data sets, decided by every exact solver
//! ([`Solver::is_exact`]: `exact` today; a new one is held to the same), by
//! the exact oracle alone, and run through the filters. A single miss or
//! false alarm fails the test, naming the solver, the file and the query
//! index.
//!
//! Data: `ccd-queries/*` (Sample-Queries: unit tests and the erleben
//! handcrafted scenes, VF and EE), `scalable-ccd/cloth-funnel` (227 → 228,
//! truth in `mma_bool`), and `scalable-ccd/cloth-ball` (92 → 93, queries
//! rebuilt from the frames and `boxes/92{vf,ee}.json`); and any other set
//! found under the data root, with the sample queries.

use std::path::PathBuf;
use std::sync::OnceLock;

use ccdlab::filter::{FilterSet, PAPER_DIRECTIONS};
use ccdlab::harness::data::require_root;
use ccdlab::harness::ground_truth::{QueryKind, QuerySet, discover_query_sets, load};
use ccdlab::math::Vec3;
use ccdlab::narrow_phase::{Solver, SolverTier, oracle};

/// All query sets under the data root, loaded once.
fn sets() -> &'static [QuerySet] {
    static SETS: OnceLock<Vec<QuerySet>> = OnceLock::new();
    SETS.get_or_init(|| {
        let root = require_root().unwrap_or_else(|e| panic!("{e}"));
        let sources = discover_query_sets(&root).unwrap_or_else(|e| panic!("{e}"));
        sources
            .iter()
            .map(|s| load(s).unwrap_or_else(|e| panic!("{e}")))
            .collect()
    })
}

fn select(part: &str) -> Vec<&'static QuerySet> {
    let chosen: Vec<_> = sets()
        .iter()
        .filter(|s| s.path.to_string_lossy().contains(part))
        .collect();
    assert!(
        !chosen.is_empty(),
        "no query set matching {part:?} under the data root"
    );
    chosen
}

/// Runs `decide` on every query of `sets` and fails with the list of
/// (file, query index, truth) it gets wrong, under `name`.
fn assert_all_decided(
    name: &str,
    sets: &[&QuerySet],
    decide: impl Fn(QueryKind, &[Vec3; 8]) -> bool,
) {
    let mut wrong: Vec<(PathBuf, usize, bool)> = Vec::new();
    let mut total = 0;
    for set in sets {
        let truth = set
            .truth
            .as_ref()
            .expect("every data set query has a truth");
        for (i, (q, &t)) in set.points.iter().zip(truth).enumerate() {
            total += 1;
            if decide(set.kind, q) != t {
                wrong.push((set.path.clone(), i, t));
            }
        }
    }
    assert!(total > 0);
    assert!(
        wrong.is_empty(),
        "{name}: {} of {total} queries decided wrongly (file, query index, truth): {:?}",
        wrong.len(),
        &wrong[..wrong.len().min(20)]
    );
}

/// Every exact solver decides every query of `sets`.
fn assert_exact_solvers_decide(sets: &[&QuerySet]) {
    let exact: Vec<Solver> = Solver::ALL.into_iter().filter(|s| s.is_exact()).collect();
    assert!(exact.contains(&Solver::Exact));
    for solver in exact {
        assert_all_decided(solver.name(), sets, |kind, q| {
            solver.solve(kind, q).is_some()
        });
    }
}

fn oracle_only(kind: QueryKind, q: &[Vec3; 8]) -> bool {
    let [a, b, c, d, e, f, g, h] = q;
    match kind {
        QueryKind::VertexFace => oracle::vertex_face(a, b, c, d, e, f, g, h).is_some(),
        QueryKind::EdgeEdge => oracle::edge_edge(a, b, c, d, e, f, g, h).is_some(),
    }
}

/// Every set but the two simulation steps (which have tests of their own):
/// the sample queries, and any other set found under the data root (a new
/// source, or a larger copy), so that none goes unchecked.
fn all_but_the_simulation_steps() -> Vec<&'static QuerySet> {
    let simulation = ["cloth-funnel", "cloth-ball"];
    let rest: Vec<_> = sets()
        .iter()
        .filter(|s| {
            let path = s.path.to_string_lossy();
            !simulation.iter().any(|part| path.contains(part))
        })
        .collect();
    assert!(rest.len() >= select("ccd-queries").len(), "{}", rest.len());
    rest
}

#[test]
fn exact_solvers_decide_every_sample_and_other_query() {
    assert_exact_solvers_decide(&all_but_the_simulation_steps());
}

#[test]
fn exact_solvers_decide_cloth_funnel_227() {
    assert_exact_solvers_decide(&select("cloth-funnel"));
}

#[test]
fn exact_solvers_decide_cloth_ball_92_from_frames_and_boxes() {
    let sets = select("cloth-ball");
    let counts: Vec<usize> = sets.iter().map(|s| s.points.len()).collect();
    assert_eq!(counts.iter().sum::<usize>(), 19_034 + 94_825);
    assert_exact_solvers_decide(&sets);
}

#[test]
fn oracle_alone_decides_every_sample_and_funnel_query() {
    assert_all_decided("oracle", &all_but_the_simulation_steps(), oracle_only);
    assert_all_decided("oracle", &select("cloth-funnel"), oracle_only);
}

#[test]
fn oracle_alone_decides_cloth_ball_92() {
    assert_all_decided("oracle", &select("cloth-ball"), oracle_only);
}

/// Regression for the float tiers: every query of the two simulation steps
/// is decided without the exact fallback — cloth-funnel has vertices sharing
/// a coordinate exactly (contacts exactly on an edge, coplanar motion),
/// which the structural-zero lemma and the coplanar tier certify.
#[test]
fn float_tiers_decide_every_simulation_query() {
    let mut fallbacks = Vec::new();
    for set in select("cloth-funnel")
        .into_iter()
        .chain(select("cloth-ball"))
    {
        for (i, q) in set.points.iter().enumerate() {
            let (_, path) = Solver::Exact.solve_traced(set.kind, q);
            if path == SolverTier::Exact {
                fallbacks.push((set.path.clone(), i));
            }
        }
    }
    assert!(
        fallbacks.is_empty(),
        "{} queries fell back to the exact path (file, query index): {:?}",
        fallbacks.len(),
        &fallbacks[..fallbacks.len().min(20)]
    );
}

#[test]
fn no_filter_culls_a_colliding_query() {
    for setting in FilterSet::ALL {
        for window in [false, true] {
            let mut culled_collisions = Vec::new();
            for set in sets() {
                let truth = set.truth.as_ref().expect("truth");
                for (i, (q, &t)) in set.points.iter().zip(truth).enumerate() {
                    if t && setting
                        .cull(set.kind, &PAPER_DIRECTIONS, window, 0.0, q)
                        .is_some()
                    {
                        culled_collisions.push((set.path.clone(), i));
                    }
                }
            }
            assert!(
                culled_collisions.is_empty(),
                "{setting} (window {window}) culled colliding queries: {culled_collisions:?}"
            );
        }
    }
}
