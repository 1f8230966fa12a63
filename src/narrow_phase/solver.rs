//! The solvers behind one interface, for the pipeline, the command line,
//! benches and reports. What a solver may be used for is said by its
//! capabilities ([`Solver::is_exact`], [`Solver::has_min_distance`]), each
//! an exhaustive `match`: a new solver is a new variant, and the compiler
//! then points at what it must say about itself. Contact queries go through
//! [`Solver::solve`] and [`Solver::solve_traced`]; a minimum separation
//! `d > 0` is decided by the exact minimum-separation functions whatever
//! the solver (see [`Solver::has_min_distance`]).
//!
//! The solvers: `exact`, docs/design.md §9; `cubic`, the float baseline of
//! §2.3 (Provot 1997); minimum separation, §5.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::edge_edge::edge_edge_traced_with;
use super::toi::{SolverTier, Toi};
use super::vertex_face::vertex_face_traced_with;
use super::{edge_edge, provot, vertex_face};
use crate::enum_with_all::enum_with_all;
use crate::math::{RangeCheck, Vec3};
use crate::pair_kernel::QueryKind;

enum_with_all! {
    /// A narrow-phase method (in reports and JSON, its [`name`](Solver::name)).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
    #[serde(rename_all = "lowercase")]
    pub enum Solver {
        /// Certified fast path + exact fallback: no false negatives or positives.
        #[default]
        Exact,
        /// The classical float cubic method (Provot 1997): the baseline.
        Cubic,
    }
    /// All solvers, in declaration order.
    const ALL;
}

impl Solver {
    /// Name on the command line and in reports.
    pub fn name(&self) -> &'static str {
        match self {
            Solver::Exact => "exact",
            Solver::Cubic => "cubic",
        }
    }

    /// Whether the solver decides every query exactly (no false negative,
    /// no false positive) and its [`Toi`] brackets the earliest time of
    /// impact: what the ground-truth and oracle tests hold every such
    /// solver to. [`Solver::Cubic`], the float baseline, is not: its
    /// verdicts may be wrong, and its `Toi` is an estimate that may miss
    /// the true time (so a step's `toi` with it is no bound either).
    pub const fn is_exact(self) -> bool {
        match self {
            Solver::Exact => true,
            Solver::Cubic => false,
        }
    }

    /// Whether a minimum separation `d > 0` (features within Euclidean
    /// distance `d`; docs/design.md §5) may be asked with this solver
    /// chosen; a configuration with `d > 0` and a solver without is refused
    /// ([`crate::pipeline::PipelineConfig::check`],
    /// [`crate::harness::query_eval::WithinOptions::check`], the Python
    /// package). At `d > 0` a step, the query scores and the Python batches
    /// run the exact minimum-separation solver ([`super::vertex_face_within`],
    /// [`super::edge_edge_within`]) whatever is chosen: only
    /// [`Solver::Exact`], whose functions they are, has this capability. A
    /// solver that decides `d > 0` its own way would be dispatched where the
    /// step, the query scores and the Python batches choose the
    /// minimum-separation solver (docs/design.md §5).
    pub const fn has_min_distance(self) -> bool {
        match self {
            Solver::Exact => true,
            Solver::Cubic => false,
        }
    }

    /// Solves one query given as its eight points in data set row order.
    #[inline]
    pub fn solve(&self, kind: QueryKind, q: &[Vec3; 8]) -> Option<Toi> {
        let [p0, p1, p2, p3, p4, p5, p6, p7] = q;
        match (self, kind) {
            (Solver::Exact, QueryKind::VertexFace) => vertex_face(p0, p1, p2, p3, p4, p5, p6, p7),
            (Solver::Exact, QueryKind::EdgeEdge) => edge_edge(p0, p1, p2, p3, p4, p5, p6, p7),
            (Solver::Cubic, QueryKind::VertexFace) => {
                provot::vertex_face(p0, p1, p2, p3, p4, p5, p6, p7)
            }
            (Solver::Cubic, QueryKind::EdgeEdge) => {
                provot::edge_edge(p0, p1, p2, p3, p4, p5, p6, p7)
            }
        }
    }

    /// [`Solver::solve`], and which tier decided: [`SolverTier::Exact`]
    /// when an exact solver fell back on exact arithmetic (the reports'
    /// `exact_fallbacks` count these answers: an exact solver with a
    /// fallback answers so for each call of it); [`SolverTier::Float`]
    /// otherwise, and from a solver without tiers.
    #[inline]
    pub fn solve_traced(self, kind: QueryKind, q: &[Vec3; 8]) -> (Option<Toi>, SolverTier) {
        self.solve_traced_with(kind, q, RangeCheck::PerQuery)
    }

    /// [`Solver::solve_traced`], with the range check `range` says: per
    /// query, or skipped for a pipeline that checked its whole step
    /// ([`RangeCheck`]). The same results.
    #[inline]
    pub(crate) fn solve_traced_with(
        self,
        kind: QueryKind,
        q: &[Vec3; 8],
        range: RangeCheck,
    ) -> (Option<Toi>, SolverTier) {
        let [a, b, c, d, e, f, g, h] = q;
        match (self, kind) {
            (Solver::Exact, QueryKind::VertexFace) => {
                vertex_face_traced_with(a, b, c, d, e, f, g, h, range)
            }
            (Solver::Exact, QueryKind::EdgeEdge) => {
                edge_edge_traced_with(a, b, c, d, e, f, g, h, range)
            }
            (Solver::Cubic, kind) => (self.solve(kind, q), SolverTier::Float),
        }
    }
}

impl fmt::Display for Solver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The names of the solvers with a minimum separation
/// ([`Solver::has_min_distance`]), for messages: `exact`, or `a or b`.
pub fn min_distance_solvers() -> String {
    let names: Vec<&str> = Solver::ALL
        .into_iter()
        .filter(|s| s.has_min_distance())
        .map(|s| s.name())
        .collect();
    names.join(" or ")
}

/// An unknown solver name.
#[derive(Debug, thiserror::Error)]
#[error("unknown solver {0:?}; expected one of: {names}", names = Solver::ALL.map(|s| s.name()).join(", "))]
pub struct UnknownSolver(
    /// The name given.
    pub String,
);

impl FromStr for Solver {
    type Err = UnknownSolver;
    fn from_str(s: &str) -> Result<Solver, UnknownSolver> {
        Solver::ALL
            .into_iter()
            .find(|v| v.name() == s)
            .ok_or_else(|| UnknownSolver(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::StepInRange;

    /// Names parse back to their solvers; an unknown name's error lists
    /// every name.
    #[test]
    fn names_round_trip_and_an_unknown_one_lists_them() {
        for s in Solver::ALL {
            assert_eq!(s.name().parse::<Solver>().unwrap(), s);
        }
        let err = "fast".parse::<Solver>().unwrap_err().to_string();
        for s in Solver::ALL {
            assert!(err.contains(s.name()), "{err}");
        }
    }

    /// `solve_traced` answers as `solve`, for every solver, with and
    /// without the range check; the exact solver's fast path decides a
    /// plain crossing and a plain miss without the fallback.
    #[test]
    fn traced_answers_are_the_plain_ones() {
        let v = |x: f64, y: f64, z: f64| Vec3::new(x, y, z);
        let (f0, f1, f2) = (v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(0.0, 1.0, 0.0));
        let hit = [v(0.2, 0.2, 1.0), f0, f1, f2, v(0.2, 0.2, -1.0), f0, f1, f2];
        let miss = [v(2.0, 2.0, 1.0), f0, f1, f2, v(2.0, 2.0, -1.0), f0, f1, f2];
        for s in Solver::ALL {
            for kind in [QueryKind::VertexFace, QueryKind::EdgeEdge] {
                for q in [&hit, &miss] {
                    let plain = s.solve(kind, q);
                    assert_eq!(s.solve_traced(kind, q).0, plain, "{s} {kind:?}");
                    let step = q.map(|p| [[p.x, p.y, p.z]; 2]);
                    let checked = RangeCheck::of(StepInRange::check(&step));
                    assert!(checked.step_checked());
                    assert_eq!(
                        s.solve_traced_with(kind, q, checked).0,
                        plain,
                        "{s} {kind:?}"
                    );
                }
            }
            let (toi, tier) = s.solve_traced(QueryKind::VertexFace, &hit);
            assert!(toi.is_some() && tier == SolverTier::Float, "{s}");
            assert_eq!(s.solve(QueryKind::VertexFace, &miss), None, "{s}");
        }
        let (toi, tier) = Solver::Exact.solve_traced(QueryKind::VertexFace, &miss);
        assert_eq!((toi, tier), (None, SolverTier::Float));
        assert_eq!(min_distance_solvers(), "exact");
    }
}
