//! What a CCD query returns: the time of impact of docs/design.md §1, as a
//! bracket of doubles (from an exact solver its lower end is never late,
//! §9; the float baseline's is an estimate, §2.3).

use crate::exact::Algebraic;

/// The earliest time of impact of a colliding query, as a bracket: from an
/// exact solver ([`super::Solver::is_exact`]) the true time lies in
/// `[lower, upper]`, and `lower` is the conservative value (never later than
/// the truth) that a simulator should use. The float baseline
/// ([`super::Solver::Cubic`]) gives an estimate in this shape, which may
/// miss the true time.
///
/// The contract is the containment and the lower end, not the width: the
/// exact path's brackets are at most [`EXACT_TOI_WIDTH`] wide (or a known
/// time), the float tiers' are narrowed by Newton's method as far as their
/// error bounds certify, and within a distance `d > 0` every bracket is at
/// most `2⁻³⁰` wide (the fast path's, and the exact path's steps near the
/// start; docs/design.md §5). A simulator steps by `lower`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Toi {
    /// A lower bound on the earliest contact time.
    pub lower: f64,
    /// An upper bound on the earliest contact time.
    pub upper: f64,
}

impl Toi {
    /// A time known exactly.
    pub fn exact(t: f64) -> Toi {
        Toi { lower: t, upper: t }
    }

    /// The exact path's bracket of the real time `t`: refined to at most
    /// [`EXACT_TOI_WIDTH`] (unless `t` is a dyadic), its ends rounded
    /// outward to doubles.
    pub(crate) fn of_exact(mut t: Algebraic) -> Toi {
        t.refine_to(EXACT_TOI_WIDTH);
        Toi {
            lower: t.lower_f64(),
            upper: t.upper_f64(),
        }
    }
}

/// Which tier of the `exact` solver decided a query (a solver without tiers,
/// the `cubic` baseline, answers [`SolverTier::Float`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SolverTier {
    /// The floating-point fast path with certified error bounds.
    Float,
    /// An exact fallback: the big-integer oracle ([`super::oracle`]) or,
    /// within a distance `d > 0`, the exact steps near the start before it
    /// (in wide integers, with a float certificate for a bracket's upper
    /// end; docs/design.md §5).
    Exact,
}

/// The exact path refines a time of impact until its bracket is at most this
/// wide (`2⁻⁴⁰ ≈ 9.1e-13`), or until the time is known exactly (`t = 0`, or
/// a bisection or refinement point that lands on it): not bound to happen
/// for a dyadic time such as `0.5`, since the bracket's ends may have been
/// moved off that grid around a float estimate first.
pub const EXACT_TOI_WIDTH: f64 = 1.0 / (1u64 << 40) as f64;
