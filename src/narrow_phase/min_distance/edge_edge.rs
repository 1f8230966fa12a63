//! Minimum-separation edge–edge CCD (docs/design.md §5): features held
//! exactly `d` apart along an axis as their projections' contact
//! ([`super::axis_planes`]), the certified fast path ([`super::filtered`]),
//! then for what it defers the exact steps near the start
//! ([`super::near_start`]) and the exact oracle
//! ([`crate::narrow_phase::oracle::edge_edge_within`]);
//! `d = 0` is [`crate::narrow_phase::edge_edge()`] itself.

use super::axis_planes;
use super::certificates::EdgeEdge;
use super::distance_arg::Separation;
use super::filtered::{filtered, scaled_query, snapped};
use super::near_start;
use crate::math::{RangeCheck, Vec3};
use crate::narrow_phase::edge_edge_traced_with;
use crate::narrow_phase::oracle;
use crate::narrow_phase::toi::{SolverTier, Toi};

/// Edge–edge CCD with a minimum separation, exact: `Some(toi)` iff for
/// some `t ∈ [0, 1]` the closed segments `ea0 ea1` and `eb0 eb1` are
/// within Euclidean distance `d`, with the earliest such time in
/// `[toi.lower, toi.upper]` (`lower` never late; `Toi::exact(0.0)` when
/// they start within `d`). Arguments as [`crate::narrow_phase::edge_edge()`],
/// then `d`.
///
/// `d = 0` (or `−0`) is [`crate::narrow_phase::edge_edge()`], bit for bit.
/// Panic-free for every `d`: a negative or NaN `d` is never met (`None`),
/// `+∞` always (`Toi::exact(0.0)`); validate a user's `d` with
/// [`crate::narrow_phase::validate_separation`]. A non-finite coordinate
/// gives `None`, as for the contact solvers.
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn edge_edge_within(
    ea0_t0: &Vec3,
    ea1_t0: &Vec3,
    eb0_t0: &Vec3,
    eb1_t0: &Vec3,
    ea0_t1: &Vec3,
    ea1_t1: &Vec3,
    eb0_t1: &Vec3,
    eb1_t1: &Vec3,
    d: f64,
) -> Option<Toi> {
    edge_edge_within_traced(
        ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1, d,
    )
    .0
}

/// [`edge_edge_within`], also telling which path decided.
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn edge_edge_within_traced(
    ea0_t0: &Vec3,
    ea1_t0: &Vec3,
    eb0_t0: &Vec3,
    eb1_t0: &Vec3,
    ea0_t1: &Vec3,
    ea1_t1: &Vec3,
    eb0_t1: &Vec3,
    eb1_t1: &Vec3,
    d: f64,
) -> (Option<Toi>, SolverTier) {
    edge_edge_within_traced_with(
        ea0_t0,
        ea1_t0,
        eb0_t0,
        eb1_t0,
        ea0_t1,
        ea1_t1,
        eb0_t1,
        eb1_t1,
        d,
        RangeCheck::PerQuery,
    )
}

/// [`edge_edge_within_traced`], with the range check `range` says (as for
/// the contact solvers' `_with` variants). The same results.
#[allow(clippy::too_many_arguments)]
pub(crate) fn edge_edge_within_traced_with(
    ea0_t0: &Vec3,
    ea1_t0: &Vec3,
    eb0_t0: &Vec3,
    eb1_t0: &Vec3,
    ea0_t1: &Vec3,
    ea1_t1: &Vec3,
    eb0_t1: &Vec3,
    eb1_t1: &Vec3,
    d: f64,
    range: RangeCheck,
) -> (Option<Toi>, SolverTier) {
    // A non-finite coordinate: never within `d` (as for contact).
    if !range.finite(&[
        ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1,
    ]) {
        return (None, SolverTier::Float);
    }
    let d = match Separation::of(d) {
        Separation::Contact => {
            return edge_edge_traced_with(
                ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1, range,
            );
        }
        Separation::Never => return (None, SolverTier::Float),
        Separation::Always => return (Some(Toi::exact(0.0)), SolverTier::Float),
        Separation::Positive(d) => d,
    };
    let points = [
        ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1,
    ];
    // Held exactly `d` apart along an axis: the projections' contact.
    if let Some(decided) = axis_planes::edge_edge(points, d, range) {
        return decided;
    }
    let features = EdgeEdge::new(points);
    if let Some(decided) = filtered(&features, points, d, range) {
        return (decided, SolverTier::Float);
    }
    // Deferred with coordinates or `d` outside the filter range: the query
    // scaled into it.
    if let Some((q, d)) = scaled_query(&points, d, range) {
        let [a, b, c, e, f, g, h, i] = &q;
        return edge_edge_within_traced_with(a, b, c, e, f, g, h, i, d, RangeCheck::PerQuery);
    }
    // Coordinates spanning more bits than the range: snapped into it.
    if let Some(decided) = snapped(&points, d, range, EdgeEdge::new) {
        return (decided, SolverTier::Float);
    }
    if let Some(decided) = near_start::decide(&features, points, d, range) {
        return (decided, SolverTier::Exact);
    }
    let exact = oracle::edge_edge_within(
        ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1, d,
    )
    .map(Toi::of_exact);
    (exact, SolverTier::Exact)
}
