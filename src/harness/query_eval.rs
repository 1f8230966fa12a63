//! Scoring a narrow-phase solver on query sets with ground truth: the numbers
//! of `ccdlab queries` and of the narrow-phase report.
//!
//! The ground truth is contact (`d = 0`). At a minimum separation `d > 0`
//! (docs/design.md §5) it no longer decides the answer, but it still bounds
//! it: a pair that touches comes within every `d > 0`, no later than it
//! touches. So at `d > 0` each set is also solved with the exact
//! minimum-separation solvers, and scored by that monotonicity (every contact
//! positive at `d`, its time at `d` no later) and, on request, query by query
//! against the exact oracle ([`WithinScore`]).

use std::cmp::Ordering;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::ground_truth::QuerySet;
use super::stamp::Stamp;
use crate::exact::{Algebraic, Dyadic};
use crate::math::Vec3;
use crate::narrow_phase::{
    SeparationError, Solver, SolverTier, Toi, edge_edge_within, edge_edge_within_traced, oracle,
    validate_separation, vertex_face_within, vertex_face_within_traced,
};
use crate::pair_kernel::QueryKind;

/// The score of one solver on one query set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SetScore {
    /// The query file.
    pub path: String,
    /// Vertex–face or edge–edge (`"vf"` or `"ee"` in JSON).
    pub kind: QueryKind,
    /// Number of queries.
    pub queries: usize,
    /// Queries that collide according to the ground truth.
    pub positives: usize,
    /// Reported colliding, truly not.
    pub false_positives: usize,
    /// Reported not colliding, truly colliding: missed collisions.
    pub false_negatives: usize,
    /// The false positives and negatives themselves: the queries whose
    /// verdict differs from the ground truth, ascending, numbered from 0 in
    /// the file's order (query `k` is rows `8k + 1` to `8k + 8` of a query
    /// CSV, blank lines not counted, or pair `k` of a boxes file). The exact
    /// solver is certified: a query it lists has a wrong ground truth (or
    /// shows a bug). Left out of JSON when empty.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub disagreements: Vec<usize>,
    /// Mean wall time per query, nanoseconds, one thread.
    pub mean_ns: f64,
    /// For the `exact` solver: queries the float fast path left to the exact
    /// fallback.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub exact_fallbacks: Option<usize>,
    /// At a minimum separation `d > 0`: the verdicts at `d`
    /// ([`WithinScore`]); absent at `d = 0`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub within: Option<WithinScore>,
}

/// The verdicts of the exact minimum-separation solvers
/// ([`crate::narrow_phase::vertex_face_within`],
/// [`crate::narrow_phase::edge_edge_within`]) at one distance `d > 0` on a
/// query set, or summed over several ([`Totals`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WithinScore {
    /// Queries positive at `d`: within distance `d` at some `t ∈ [0, 1]`.
    pub positives: usize,
    /// Ground-truth contacts negative at `d`. A pair that touches comes
    /// within every `d > 0`: must be 0.
    pub contact_misses: usize,
    /// Ground-truth contacts whose time at `d` is bracketed after their
    /// time of contact (the bracket at `d` starts after the contact
    /// solver's ends). A pair comes within `d` no later than it touches:
    /// must be 0.
    pub later_than_contact: usize,
    /// Mean wall time per query at `d`, nanoseconds, one thread; timed in
    /// the same run and the same way as [`SetScore::mean_ns`], the time at
    /// `d = 0`.
    pub mean_ns: f64,
    /// Queries the float fast path left to the exact oracle at `d`.
    pub exact_fallbacks: usize,
    /// When asked for: queries whose verdict at `d` differs from the exact
    /// oracle's ([`oracle::vertex_face_within`],
    /// [`oracle::edge_edge_within`]), or whose time bracket does not hold
    /// the oracle's time. Must be 0.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub oracle_disagreements: Option<usize>,
}

impl WithinScore {
    /// The queries that break a rule (contact misses, later than contact,
    /// oracle disagreements): 0 when the scores hold.
    pub fn failures(&self) -> usize {
        self.contact_misses + self.later_than_contact + self.oracle_disagreements.unwrap_or(0)
    }
}

/// What to ask of each query besides contact: the verdict at a minimum
/// separation, and whether to check it against the exact oracle.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct WithinOptions {
    /// The distance `d ≥ 0`; `0` (or `−0`) asks contact only, as
    /// [`score`].
    pub min_distance: f64,
    /// Compare every verdict at `d` with the exact oracle (slow: about a
    /// millisecond a query).
    pub oracle: bool,
}

/// Why a score is refused: [`WithinOptions`] that do not fit the solver,
/// or a query set without ground truth.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ScoreError {
    /// The distance is no finite double `≥ 0`.
    #[error(transparent)]
    Separation(#[from] SeparationError),
    /// A solver without a minimum separation at `d > 0`.
    #[error(
        "the {0} solver has no minimum separation (it decides contact only); {names} has",
        names = crate::narrow_phase::min_distance_solvers()
    )]
    NoSeparation(Solver),
    /// The oracle comparison at `d = 0`, where the ground truth decides.
    #[error(
        "the oracle comparison is of the verdicts at a minimum separation d > 0 (at d = 0 the \
         ground truth decides)"
    )]
    OracleWithoutSeparation,
    /// A query set without ground truth: every count would read 0, a
    /// perfect score ([`require_truth`]).
    #[error(
        "{}: no ground truth to score against (a query CSV needs the seventh column; a \
         Scalable-CCD set, its mma_bool/<name>_mma_bool.json)",
        .0.display()
    )]
    NoTruth(PathBuf),
}

/// `Ok` when `set` has its ground truth, which every score counts against;
/// [`ScoreError::NoTruth`] naming its file otherwise. The scores check it;
/// a caller scoring many sets can check them all first, before any output.
pub fn require_truth(set: &QuerySet) -> Result<(), ScoreError> {
    match set.truth {
        Some(_) => Ok(()),
        None => Err(ScoreError::NoTruth(set.path.clone())),
    }
}

impl WithinOptions {
    /// The options, when they make sense with `solver`: a finite `d ≥ 0`
    /// ([`validate_separation`]); at `d > 0` the `exact` solver only, and
    /// the oracle comparison only at `d > 0`.
    pub fn check(self, solver: Solver) -> Result<WithinOptions, ScoreError> {
        validate_separation(self.min_distance)?;
        if self.is_contact() {
            if self.oracle {
                return Err(ScoreError::OracleWithoutSeparation);
            }
        } else if !solver.has_min_distance() {
            return Err(ScoreError::NoSeparation(solver));
        }
        Ok(self)
    }

    /// `true` when only contact is asked (`d = 0` or `−0`).
    pub fn is_contact(&self) -> bool {
        self.min_distance == 0.0
    }
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
    /// At a minimum separation `d > 0`: the sets' [`WithinScore`]s summed
    /// (the mean time per query over all of them); absent at `d = 0`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub within: Option<WithinScore>,
}

/// The output of `ccdlab queries --json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QueriesReport {
    /// The solver (`"exact"` or `"cubic"` in JSON).
    pub solver: Solver,
    /// The minimum separation `d > 0` asked for; absent at `d = 0`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub min_distance: Option<f64>,
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
            mean_ns: mean(time, queries),
            within: WithinScore::sum(sets),
        }
    }
}

impl WithinScore {
    /// The sets' scores at `d` summed, when every set has one.
    fn sum(sets: &[SetScore]) -> Option<WithinScore> {
        let scores: Vec<&WithinScore> = sets
            .iter()
            .map(|s| s.within.as_ref())
            .collect::<Option<_>>()?;
        if scores.is_empty() {
            return None;
        }
        let sum = |f: fn(&WithinScore) -> usize| scores.iter().map(|w| f(w)).sum::<usize>();
        let queries: usize = sets.iter().map(|s| s.queries).sum();
        let time: f64 = sets
            .iter()
            .zip(&scores)
            .map(|(s, w)| w.mean_ns * s.queries as f64)
            .sum();
        let oracle = scores
            .iter()
            .map(|w| w.oracle_disagreements)
            .collect::<Option<Vec<usize>>>()
            .map(|v| v.iter().sum());
        Some(WithinScore {
            positives: sum(|w| w.positives),
            contact_misses: sum(|w| w.contact_misses),
            later_than_contact: sum(|w| w.later_than_contact),
            mean_ns: mean(time, queries),
            exact_fallbacks: sum(|w| w.exact_fallbacks),
            oracle_disagreements: oracle,
        })
    }
}

/// `time / n`, or 0 for no queries.
fn mean(time: f64, n: usize) -> f64 {
    if n > 0 { time / n as f64 } else { 0.0 }
}

/// Scores `solver` on `set`: one pass to count right and wrong answers, then
/// timed passes over the whole set, repeated until at least `min_time` has
/// elapsed, for the mean time per query.
///
/// # Errors
/// [`ScoreError::NoTruth`] when `set` has no ground truth.
pub fn score(set: &QuerySet, solver: Solver, min_time: Duration) -> Result<SetScore, ScoreError> {
    require_truth(set)?;
    Ok(score_contact(set, solver, min_time).0)
}

/// [`score`], and at `within.min_distance > 0` the verdicts at that distance
/// ([`SetScore::within`]): one pass to count them against the ground truth
/// and the contact verdicts (and, with `within.oracle`, against the exact
/// oracle), then timed passes as [`score`]'s, right after its own. At
/// `d = 0` the same as [`score`]. The options are checked first
/// ([`WithinOptions::check`]), then the ground truth ([`require_truth`]).
pub fn score_within(
    set: &QuerySet,
    solver: Solver,
    min_time: Duration,
    within: WithinOptions,
) -> Result<SetScore, ScoreError> {
    let within = within.check(solver)?;
    require_truth(set)?;
    let (mut score, contact) = score_contact(set, solver, min_time);
    if !within.is_contact() {
        score.within = Some(score_at(set, &contact, min_time, within));
    }
    Ok(score)
}

/// Scores a solver of one's own on `set` as [`score`] scores the built-in
/// ones: one pass to count its answers against the ground truth, then timed
/// passes over the whole set on the calling thread, repeated until at least
/// `min_time` has elapsed, for the mean time per query. `collides` answers
/// whether a query of `set.kind` (its eight points in the data sets' row
/// order) collides. `exact_fallbacks` and `within` are `None`; [`Totals::of`]
/// sums the scores of several sets.
///
/// `ccdlab queries` times each set for at least 50 ms by default
/// (`--min-time-ms`); the example, for 1 ms. It scores one folder of the
/// data sets; `discover_query_sets_in(&["datasets"])` finds every set of
/// them (Sample-Queries' and the Scalable-CCD scenes'), as `ccdlab queries
/// datasets` does.
///
/// ```
/// use std::time::Duration;
/// use ccdlab::harness::ground_truth::{discover_query_sets_in, load};
/// use ccdlab::harness::query_eval::{Totals, score_with};
/// use ccdlab::math::Vec3;
/// use ccdlab::narrow_phase::{QueryKind, edge_edge, vertex_face};
///
/// let sources = discover_query_sets_in(&["datasets/ccd-queries/unit-tests"])?;
/// let mut scores = Vec::new();
/// for source in &sources {
///     let set = load(source)?;
///     // Your method here; the exact one scores no false positive or negative.
///     let collides = |kind, q: &[Vec3; 8]| {
///         let [a, b, c, d, e, f, g, h] = q;
///         match kind {
///             QueryKind::VertexFace => vertex_face(a, b, c, d, e, f, g, h).is_some(),
///             QueryKind::EdgeEdge => edge_edge(a, b, c, d, e, f, g, h).is_some(),
///         }
///     };
///     scores.push(score_with(&set, Duration::from_millis(1), collides)?);
/// }
/// let totals = Totals::of(&scores);
/// println!("{} false negatives, {} false positives", totals.false_negatives, totals.false_positives);
/// assert_eq!((totals.false_negatives, totals.false_positives), (0, 0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`ScoreError::NoTruth`] when `set` has no ground truth.
pub fn score_with(
    set: &QuerySet,
    min_time: Duration,
    collides: impl Fn(QueryKind, &[Vec3; 8]) -> bool,
) -> Result<SetScore, ScoreError> {
    require_truth(set)?;
    let hits = set.points.iter().map(|q| collides(set.kind, q));
    let Tally {
        positives,
        false_positives,
        false_negatives,
        disagreements,
    } = tally(set, hits);
    Ok(SetScore {
        path: set.path.display().to_string(),
        kind: set.kind,
        queries: set.points.len(),
        positives,
        false_positives,
        false_negatives,
        disagreements,
        mean_ns: mean_time(set, min_time, collides),
        exact_fallbacks: None,
        within: None,
    })
}

/// A solver's answers counted against the ground truth.
#[derive(Default)]
struct Tally {
    positives: usize,
    false_positives: usize,
    false_negatives: usize,
    /// The queries counted as false positives or negatives, ascending.
    disagreements: Vec<usize>,
}

/// The positives, false positives and false negatives of `hits` (one per
/// query of `set`) against its ground truth (all 0 without one: the scores
/// check for it first), and which queries are wrong.
fn tally(set: &QuerySet, hits: impl Iterator<Item = bool>) -> Tally {
    let mut tally = Tally::default();
    let Some(truth) = set.truth.as_deref() else {
        return tally;
    };
    for (i, (hit, &t)) in hits.zip(truth).enumerate() {
        tally.positives += usize::from(t);
        tally.false_positives += usize::from(hit && !t);
        tally.false_negatives += usize::from(!hit && t);
        if hit != t {
            tally.disagreements.push(i);
        }
    }
    tally
}

/// [`score`], and the solver's answer to each query.
fn score_contact(
    set: &QuerySet,
    solver: Solver,
    min_time: Duration,
) -> (SetScore, Vec<Option<Toi>>) {
    let mut fallbacks = 0;
    let mut answers = Vec::with_capacity(set.points.len());
    for q in &set.points {
        let (toi, path) = solver.solve_traced(set.kind, q);
        answers.push(toi);
        fallbacks += usize::from(path == SolverTier::Exact);
    }
    let tally = tally(set, answers.iter().map(Option::is_some));
    let mean_ns = mean_time(set, min_time, |kind, q| solver.solve(kind, q));
    let score = SetScore {
        path: set.path.display().to_string(),
        kind: set.kind,
        queries: set.points.len(),
        positives: tally.positives,
        false_positives: tally.false_positives,
        false_negatives: tally.false_negatives,
        disagreements: tally.disagreements,
        mean_ns,
        exact_fallbacks: solver.is_exact().then_some(fallbacks),
        within: None,
    };
    (score, answers)
}

/// The verdicts at `within.min_distance > 0`, given the contact solver's
/// answers.
fn score_at(
    set: &QuerySet,
    contact: &[Option<Toi>],
    min_time: Duration,
    within: WithinOptions,
) -> WithinScore {
    let d = within.min_distance;
    let truth = set.truth.as_deref();
    let (mut positives, mut misses, mut later, mut fallbacks, mut wrong) = (0, 0, 0, 0, 0);
    for (i, q) in set.points.iter().enumerate() {
        let (toi, path) = solve_within_traced(set.kind, q, d);
        positives += usize::from(toi.is_some());
        fallbacks += usize::from(path == SolverTier::Exact);
        if truth.is_some_and(|t| t[i]) {
            match (toi, contact[i]) {
                (None, _) => misses += 1,
                // The earliest time within d is at most the contact time,
                // which the contact bracket holds: the bracket at d cannot
                // start after it ends.
                (Some(at_d), Some(touch)) => later += usize::from(at_d.lower > touch.upper),
                // The contact solver missed it: counted as a false negative.
                (Some(_), None) => {}
            }
        }
        if within.oracle && !agrees_with_oracle(set.kind, q, d, toi) {
            wrong += 1;
        }
    }
    WithinScore {
        positives,
        contact_misses: misses,
        later_than_contact: later,
        mean_ns: mean_time(set, min_time, |kind, q| solve_within(kind, q, d)),
        exact_fallbacks: fallbacks,
        oracle_disagreements: within.oracle.then_some(wrong),
    }
}

/// Mean wall time per query of `solve` on `set`, nanoseconds: timed passes
/// over the whole set, repeated until at least `min_time` has elapsed. An
/// empty set has nothing to time (its mean is reported as 0).
#[inline]
fn mean_time<T>(
    set: &QuerySet,
    min_time: Duration,
    solve: impl Fn(QueryKind, &[Vec3; 8]) -> T,
) -> f64 {
    let mut reps = 0usize;
    let start = Instant::now();
    while !set.points.is_empty() && (reps == 0 || start.elapsed() < min_time) {
        for q in &set.points {
            std::hint::black_box(solve(set.kind, std::hint::black_box(q)));
        }
        reps += 1;
    }
    let elapsed = start.elapsed();
    let n = reps * set.points.len();
    if n > 0 {
        elapsed.as_nanos() as f64 / n as f64
    } else {
        0.0
    }
}

#[inline]
fn solve_within(kind: QueryKind, q: &[Vec3; 8], dist: f64) -> Option<Toi> {
    let [a, b, c, d, e, f, g, h] = q;
    match kind {
        QueryKind::VertexFace => vertex_face_within(a, b, c, d, e, f, g, h, dist),
        QueryKind::EdgeEdge => edge_edge_within(a, b, c, d, e, f, g, h, dist),
    }
}

fn solve_within_traced(kind: QueryKind, q: &[Vec3; 8], dist: f64) -> (Option<Toi>, SolverTier) {
    let [a, b, c, d, e, f, g, h] = q;
    match kind {
        QueryKind::VertexFace => vertex_face_within_traced(a, b, c, d, e, f, g, h, dist),
        QueryKind::EdgeEdge => edge_edge_within_traced(a, b, c, d, e, f, g, h, dist),
    }
}

/// Whether `toi`, the answer at `dist`, is the exact oracle's: both none,
/// or a bracket that holds the oracle's earliest time.
fn agrees_with_oracle(kind: QueryKind, q: &[Vec3; 8], dist: f64, toi: Option<Toi>) -> bool {
    let [a, b, c, d, e, f, g, h] = q;
    let exact = match kind {
        QueryKind::VertexFace => oracle::vertex_face_within(a, b, c, d, e, f, g, h, dist),
        QueryKind::EdgeEdge => oracle::edge_edge_within(a, b, c, d, e, f, g, h, dist),
    };
    match (toi, exact) {
        (None, None) => true,
        (Some(toi), Some(mut t)) => {
            let mut lower = Algebraic::exact(Dyadic::from_f64(toi.lower));
            let mut upper = Algebraic::exact(Dyadic::from_f64(toi.upper));
            lower.compare(&mut t) != Ordering::Greater && upper.compare(&mut t) != Ordering::Less
        }
        _ => false,
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
        let cubic = score(&set, Solver::Cubic, Duration::ZERO).unwrap();
        assert_eq!((cubic.positives, cubic.false_negatives), (2, 1));
        let exact = score(&set, Solver::Exact, Duration::ZERO).unwrap();
        assert_eq!((exact.false_negatives, exact.false_positives), (0, 0));
        // The coplanar sliding query is decided by the float coplanar-motion
        // tier (its motion is exactly in the plane z = 0), so nothing falls
        // back to rational arithmetic; the counter is still reported.
        assert_eq!(exact.exact_fallbacks, Some(0));
        let t = Totals::of(&[cubic, exact]);
        assert_eq!((t.queries, t.false_negatives), (4, 1));
    }

    /// A solver of one's own is scored as the built-in ones are: the exact
    /// one through [`score_with`] gets [`score`]'s counts, and a solver
    /// that says yes to everything gets every negative as a false positive.
    #[test]
    fn a_solver_of_ones_own_is_scored_as_the_built_in_ones() {
        let mut set = falling_and_resting();
        set.truth = Some(vec![true, false]);
        let exact = score(&set, Solver::Exact, Duration::ZERO).unwrap();
        let own = score_with(&set, Duration::ZERO, |kind, q| {
            Solver::Exact.solve(kind, q).is_some()
        })
        .unwrap();
        let counts = |s: &SetScore| (s.queries, s.positives, s.false_positives, s.false_negatives);
        assert_eq!(counts(&own), counts(&exact));
        assert_eq!(counts(&own), (2, 1, 0, 0));
        assert_eq!((own.exact_fallbacks, own.within), (None, None));
        let yes = score_with(&set, Duration::ZERO, |_, _| true).unwrap();
        assert_eq!(counts(&yes), (2, 1, 1, 0));
        let no = score_with(&set, Duration::ZERO, |_, _| false).unwrap();
        assert_eq!(counts(&no), (2, 1, 0, 1));
        // Which queries are wrong, not only how many.
        assert!(exact.disagreements.is_empty() && own.disagreements.is_empty());
        assert_eq!((yes.disagreements, no.disagreements), (vec![1], vec![0]));
        // A wrong ground truth: the exact solver names the query.
        set.truth = Some(vec![true, true]);
        let wrong = score(&set, Solver::Exact, Duration::ZERO).unwrap();
        assert_eq!((wrong.false_negatives, wrong.disagreements), (1, vec![1]));
        // Without ground truth every count would read 0, a perfect score:
        // each score refuses the set instead, naming its file.
        set.truth = None;
        let error = ScoreError::NoTruth("mem.csv".into());
        assert!(error.to_string().starts_with("mem.csv: no ground truth"));
        let no_truth = Err(error);
        assert_eq!(score_with(&set, Duration::ZERO, |_, _| true), no_truth);
        assert_eq!(score(&set, Solver::Exact, Duration::ZERO), no_truth);
        let options = WithinOptions {
            min_distance: 1e-3,
            oracle: false,
        };
        assert_eq!(
            score_within(&set, Solver::Exact, Duration::ZERO, options),
            no_truth
        );
    }

    /// A vertex falling through a still triangle, and one resting `0.5`
    /// above it; the truth says both collide (the second wrongly).
    fn falling_and_resting() -> QuerySet {
        let (a, b, c) = (
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
        );
        let (up, down) = (Vec3::new(0.2, 0.2, 1.0), Vec3::new(0.2, 0.2, -1.0));
        let rest = Vec3::new(0.2, 0.2, 0.5);
        QuerySet {
            path: "mem.csv".into(),
            kind: QueryKind::VertexFace,
            points: vec![[up, a, b, c, down, a, b, c], [rest, a, b, c, rest, a, b, c]],
            truth: Some(vec![true, true]),
        }
    }

    #[test]
    fn scores_at_a_distance_beside_contact() {
        let set = falling_and_resting();
        let at = |d: f64, oracle: bool| {
            let options = WithinOptions {
                min_distance: d,
                oracle,
            };
            score_within(&set, Solver::Exact, Duration::ZERO, options).unwrap()
        };
        let contact = score(&set, Solver::Exact, Duration::ZERO).unwrap();
        assert_eq!((contact.positives, contact.false_negatives), (2, 1));
        // d = 0 and −0: contact only, the same counts.
        for zero in [0.0, -0.0] {
            let s = at(zero, false);
            assert_eq!(s.within, None);
            assert_eq!((s.positives, s.false_negatives), (2, 1));
        }
        // Below the resting gap: the wrong contact is missed at d.
        let near = at(0.25, true);
        let w = near.within.clone().unwrap();
        assert_eq!(
            (
                w.positives,
                w.contact_misses,
                w.later_than_contact,
                w.oracle_disagreements
            ),
            (1, 1, 0, Some(0))
        );
        assert_eq!(w.failures(), 1);
        assert_eq!((near.positives, near.false_negatives), (2, 1));
        // At exactly the gap (closed: a hit) both are positive.
        let w = at(0.5, true).within.unwrap();
        assert_eq!((w.positives, w.contact_misses, w.failures()), (2, 0, 0));
        // Totals sum the sets at d, and only when every set has them.
        let t = Totals::of(&[near.clone(), at(0.5, false)]);
        let tw = t.within.unwrap();
        assert_eq!((tw.positives, tw.contact_misses), (3, 1));
        assert_eq!(tw.oracle_disagreements, None);
        assert_eq!(Totals::of(&[near, contact]).within, None);
    }

    #[test]
    fn options_are_checked() {
        let opt = |min_distance, oracle| WithinOptions {
            min_distance,
            oracle,
        };
        assert_eq!(
            opt(-1.0, false).check(Solver::Exact),
            Err(ScoreError::Separation(SeparationError::Negative(-1.0)))
        );
        assert_eq!(
            opt(f64::NAN, false).check(Solver::Exact),
            Err(ScoreError::Separation(SeparationError::NotANumber))
        );
        assert_eq!(
            opt(f64::INFINITY, false).check(Solver::Exact),
            Err(ScoreError::Separation(SeparationError::Infinite))
        );
        assert_eq!(
            opt(1e-3, false).check(Solver::Cubic),
            Err(ScoreError::NoSeparation(Solver::Cubic))
        );
        assert_eq!(
            opt(-0.0, true).check(Solver::Exact),
            Err(ScoreError::OracleWithoutSeparation)
        );
        assert_eq!(opt(0.0, false).check(Solver::Cubic), Ok(opt(0.0, false)));
        assert_eq!(opt(1e-3, true).check(Solver::Exact), Ok(opt(1e-3, true)));
        let set = falling_and_resting();
        assert_eq!(
            score_within(&set, Solver::Cubic, Duration::ZERO, opt(1.0, false)),
            Err(ScoreError::NoSeparation(Solver::Cubic))
        );
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
        let s = score(&set, Solver::Exact, Duration::from_millis(5)).unwrap();
        assert_eq!((s.queries, s.positives, s.mean_ns), (0, 0, 0.0));
        let options = WithinOptions {
            min_distance: 1e-3,
            oracle: true,
        };
        let s = score_within(&set, Solver::Exact, Duration::from_millis(5), options).unwrap();
        let w = s.within.unwrap();
        assert_eq!(
            (w.positives, w.mean_ns, w.oracle_disagreements),
            (0, 0.0, Some(0))
        );
    }
}
