//! Where a query's coordinates are checked against the filtered paths'
//! range ([`in_filter_range`](super::in_filter_range), finiteness included): per query, or once for
//! a whole frame step, which then carries a [`StepInRange`] proof that only
//! the check can make.
//!
//! The exact solvers' float tiers hold their error bounds only in that
//! range (module doc of `bounded.rs`; docs/design.md §8). A single query
//! checks its eight points; the pipeline checks every coordinate of a step
//! once instead (the same verdicts, less work per pair). Passing the proof,
//! not a flag, keeps the polarity of "already checked" unmistakable.

use rayon::prelude::*;

use super::bounded::{all_coordinates_in_filter_range, all_finite, all_in_filter_range};
use super::scalar::Vec3;

/// Proof that every coordinate of a frame step passed [`in_filter_range`]
/// (so is finite); made only by [`StepInRange::check`].
///
/// [`in_filter_range`]: super::in_filter_range
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct StepInRange(());

impl StepInRange {
    /// The proof when every coordinate of the step's points (each vertex at
    /// `t = 0` and `t = 1`) is in range, else `None`; checked in parallel.
    pub(crate) fn check(points: &[[[f64; 3]; 2]]) -> Option<StepInRange> {
        points
            .par_iter()
            .with_min_len(4096)
            .all(|p| all_coordinates_in_filter_range(p.as_flattened()))
            .then_some(StepInRange(()))
    }
}

/// Who checks a query's coordinates against the filtered paths' range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RangeCheck {
    /// Each query checks its own points (single queries and batches).
    PerQuery,
    /// The whole step was checked: the queries skip the check (debug
    /// builds still assert it).
    Step(StepInRange),
}

impl RangeCheck {
    /// `RangeCheck::Step` with the proof when there is one, else per query.
    pub(crate) fn of(step: Option<StepInRange>) -> RangeCheck {
        step.map_or(RangeCheck::PerQuery, RangeCheck::Step)
    }

    /// Whether the whole step was checked.
    pub(crate) fn step_checked(self) -> bool {
        matches!(self, RangeCheck::Step(_))
    }

    /// Whether every coordinate of the points is finite.
    #[inline(always)]
    pub(crate) fn finite(self, points: &[&Vec3; 8]) -> bool {
        match self {
            RangeCheck::PerQuery => all_finite(points),
            RangeCheck::Step(_) => {
                debug_assert!(
                    all_finite(points),
                    "a query of a checked step is not finite"
                );
                true
            }
        }
    }

    /// Whether every coordinate of the points is in the filtered paths'
    /// range.
    #[inline(always)]
    pub(crate) fn in_range<const M: usize>(self, points: &[&Vec3; M]) -> bool {
        match self {
            RangeCheck::PerQuery => all_in_filter_range(points),
            RangeCheck::Step(_) => {
                debug_assert!(
                    all_in_filter_range(points),
                    "a query of a checked step out of the filter range"
                );
                true
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_is_proved_in_range_only_when_every_coordinate_is() {
        let ok = [[[1.0, -2.5, 0.0], [3.0, 0.125, 1e10]]; 5000];
        assert!(StepInRange::check(&ok).is_some());
        assert!(StepInRange::check(&[]).is_some());
        // One bad coordinate anywhere among many (past the parallel split).
        for bad in [f64::NAN, f64::INFINITY, 1e300, 1e-300] {
            let mut points = ok.to_vec();
            points[4321][1][2] = bad;
            assert_eq!(StepInRange::check(&points), None, "{bad}");
        }
    }

    #[test]
    fn per_query_checks_and_a_checked_step_does_not() {
        let p = Vec3::new(1.0, 2.0, 3.0);
        let far = Vec3::new(1e300, 0.0, 0.0);
        let nan = Vec3::new(f64::NAN, 0.0, 0.0);
        let per = RangeCheck::of(None);
        assert_eq!(per, RangeCheck::PerQuery);
        assert!(!per.step_checked());
        assert!(per.in_range(&[&p, &p]) && !per.in_range(&[&p, &far]));
        assert!(per.finite(&[&p; 8]) && !per.finite(&[&p, &p, &p, &nan, &p, &p, &p, &p]));
        let step = RangeCheck::of(StepInRange::check(&[[[1.0, 2.0, 3.0]; 2]]));
        assert!(step.step_checked());
        assert!(step.in_range(&[&p, &p]) && step.finite(&[&p; 8]));
    }
}
