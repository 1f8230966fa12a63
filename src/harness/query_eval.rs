//! Scoring a narrow-phase solver on query sets with ground truth: the numbers
//! of `ccdlab queries` and of the narrow-phase report.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::ground_truth::QuerySet;
use super::stamp::Stamp;
use crate::narrow_phase::{Solver, SolverTier, edge_edge_traced, vertex_face_traced};
use crate::pair_kernel::QueryKind;

/// The score of one solver on one query set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SetScore {
    /// The query file.
    pub path: String,
    /// `"vf"` or `"ee"`.
    pub kind: String,
    /// Number of queries.
    pub queries: usize,
    /// Queries that collide according to the ground truth.
    pub positives: usize,
    /// Reported colliding, truly not.
    pub false_positives: usize,
    /// Reported not colliding, truly colliding: missed collisions.
    pub false_negatives: usize,
    /// Mean wall time per query, nanoseconds, one thread.
    pub mean_ns: f64,
    /// For the `exact` solver: queries the float fast path left to the exact
    /// fallback.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub exact_fallbacks: Option<usize>,
}

/// Totals over several sets (the mean time is per query over all of them).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Totals {
    /// Number of queries.
    pub queries: usize,
    /// Ground-truth positives.
    pub positives: usize,
    /// False positives.
    pub false_positives: usize,
    /// False negatives.
    pub false_negatives: usize,
    /// Mean wall time per query, nanoseconds.
    pub mean_ns: f64,
}

/// The output of `ccdlab queries --json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QueriesReport {
    /// `"exact"` or `"cubic"`.
    pub solver: String,
    /// One score per query set.
    pub sets: Vec<SetScore>,
    /// Totals over all sets.
    pub total: Totals,
    /// Machine, threads, commit, date.
    pub stamp: Stamp,
}

impl Totals {
    /// Sums `sets`.
    pub fn of(sets: &[SetScore]) -> Totals {
        let queries: usize = sets.iter().map(|s| s.queries).sum();
        let time: f64 = sets.iter().map(|s| s.mean_ns * s.queries as f64).sum();
        Totals {
            queries,
            positives: sets.iter().map(|s| s.positives).sum(),
            false_positives: sets.iter().map(|s| s.false_positives).sum(),
            false_negatives: sets.iter().map(|s| s.false_negatives).sum(),
            mean_ns: if queries > 0 {
                time / queries as f64
            } else {
                0.0
            },
        }
    }
}

/// Scores `solver` on `set`: one pass to count right and wrong answers, then
/// timed passes over the whole set, repeated until at least `min_time` has
/// elapsed, for the mean time per query.
pub fn score(set: &QuerySet, solver: Solver, min_time: Duration) -> SetScore {
    let truth = set.truth.as_deref();
    let (mut positives, mut fp, mut fneg, mut fallbacks) = (0, 0, 0, 0);
    for (i, q) in set.points.iter().enumerate() {
        let (hit, path) = solve_traced(solver, set.kind, q);
        if path == SolverTier::Exact && solver == Solver::Exact {
            fallbacks += 1;
        }
        if let Some(t) = truth.map(|t| t[i]) {
            positives += usize::from(t);
            fp += usize::from(hit && !t);
            fneg += usize::from(!hit && t);
        }
    }
    let mut reps = 0usize;
    let start = Instant::now();
    // An empty set has nothing to time (its mean is reported as 0).
    while !set.points.is_empty() && (reps == 0 || start.elapsed() < min_time) {
        for q in &set.points {
            std::hint::black_box(solver.solve(set.kind, std::hint::black_box(q)));
        }
        reps += 1;
    }
    let elapsed = start.elapsed();
    let n = reps * set.points.len();
    SetScore {
        path: set.path.display().to_string(),
        kind: set.kind.suffix().to_string(),
        queries: set.points.len(),
        positives,
        false_positives: fp,
        false_negatives: fneg,
        mean_ns: if n > 0 {
            elapsed.as_nanos() as f64 / n as f64
        } else {
            0.0
        },
        exact_fallbacks: (solver == Solver::Exact).then_some(fallbacks),
    }
}

fn solve_traced(solver: Solver, kind: QueryKind, q: &[crate::math::Vec3; 8]) -> (bool, SolverTier) {
    let [a, b, c, d, e, f, g, h] = q;
    match (solver, kind) {
        (Solver::Exact, QueryKind::VertexFace) => {
            let (r, p) = vertex_face_traced(a, b, c, d, e, f, g, h);
            (r.is_some(), p)
        }
        (Solver::Exact, QueryKind::EdgeEdge) => {
            let (r, p) = edge_edge_traced(a, b, c, d, e, f, g, h);
            (r.is_some(), p)
        }
        (Solver::Cubic, kind) => (solver.solve(kind, q).is_some(), SolverTier::Float),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec3;

    #[test]
    fn counts_false_negatives_of_a_missing_solver() {
        // One coplanar sliding query the float cubic misses, one plain hit.
        let (a, b, c) = (
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
        );
        let set = QuerySet {
            path: "mem.csv".into(),
            kind: QueryKind::VertexFace,
            points: vec![
                [
                    Vec3::new(2.0, 0.25, 0.0),
                    a,
                    b,
                    c,
                    Vec3::new(0.0, 0.25, 0.0),
                    a,
                    b,
                    c,
                ],
                [
                    Vec3::new(0.2, 0.2, 1.0),
                    a,
                    b,
                    c,
                    Vec3::new(0.2, 0.2, -1.0),
                    a,
                    b,
                    c,
                ],
            ],
            truth: Some(vec![true, true]),
        };
        let cubic = score(&set, Solver::Cubic, Duration::ZERO);
        assert_eq!((cubic.positives, cubic.false_negatives), (2, 1));
        let exact = score(&set, Solver::Exact, Duration::ZERO);
        assert_eq!((exact.false_negatives, exact.false_positives), (0, 0));
        // The coplanar sliding query is decided by the float coplanar-motion
        // tier (its motion is exactly in the plane z = 0), so nothing falls
        // back to rational arithmetic; the counter is still reported.
        assert_eq!(exact.exact_fallbacks, Some(0));
        let t = Totals::of(&[cubic, exact]);
        assert_eq!((t.queries, t.false_negatives), (4, 1));
    }

    /// An empty set (a step with no candidates) has no time per query: it
    /// used to report the whole timing budget as the mean of one query.
    #[test]
    fn an_empty_set_reports_no_time() {
        let set = QuerySet {
            path: "none.json".into(),
            kind: QueryKind::EdgeEdge,
            points: Vec::new(),
            truth: Some(Vec::new()),
        };
        let s = score(&set, Solver::Exact, Duration::from_millis(5));
        assert_eq!((s.queries, s.positives, s.mean_ns), (0, 0, 0.0));
    }
}
