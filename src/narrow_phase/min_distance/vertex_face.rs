//! Minimum-separation vertex–face CCD (docs/design.md §5): features held
//! exactly `d` apart along an axis as their projections' contact
//! ([`super::axis_planes`]), the certified
//! fast path ([`super::filtered`]), then for what it defers the exact
//! steps near the start ([`super::near_start`]) and the exact oracle
//! ([`crate::narrow_phase::oracle::vertex_face_within`]);
//! `d = 0` is [`crate::narrow_phase::vertex_face()`] itself.

use super::axis_planes;
use super::certificates::VertexFace;
use super::distance_arg::Separation;
use super::filtered::{filtered, scaled_query, snapped};
use super::near_start;
use crate::math::{RangeCheck, Vec3};
use crate::narrow_phase::oracle;
use crate::narrow_phase::toi::{SolverTier, Toi};
use crate::narrow_phase::vertex_face_traced_with;

/// Vertex–face CCD with a minimum separation, exact: `Some(toi)` iff for
/// some `t ∈ [0, 1]` the vertex is within Euclidean distance `d` of the
/// closed triangle, with the earliest such time in
/// `[toi.lower, toi.upper]` (`lower` never late; `Toi::exact(0.0)` when
/// they start within `d`). Arguments as [`crate::narrow_phase::vertex_face()`],
/// then `d`.
///
/// `d = 0` (or `−0`) is [`crate::narrow_phase::vertex_face()`], bit for bit.
/// Panic-free for every `d`: a negative or NaN `d` is never met (`None`),
/// `+∞` always (`Toi::exact(0.0)`); validate a user's `d` with
/// [`crate::narrow_phase::validate_separation`]. A non-finite coordinate
/// gives `None`, as for the contact solvers.
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn vertex_face_within(
    v_t0: &Vec3,
    f0_t0: &Vec3,
    f1_t0: &Vec3,
    f2_t0: &Vec3,
    v_t1: &Vec3,
    f0_t1: &Vec3,
    f1_t1: &Vec3,
    f2_t1: &Vec3,
    d: f64,
) -> Option<Toi> {
    vertex_face_within_traced(v_t0, f0_t0, f1_t0, f2_t0, v_t1, f0_t1, f1_t1, f2_t1, d).0
}

/// [`vertex_face_within`], also telling which path decided.
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn vertex_face_within_traced(
    v_t0: &Vec3,
    f0_t0: &Vec3,
    f1_t0: &Vec3,
    f2_t0: &Vec3,
    v_t1: &Vec3,
    f0_t1: &Vec3,
    f1_t1: &Vec3,
    f2_t1: &Vec3,
    d: f64,
) -> (Option<Toi>, SolverTier) {
    vertex_face_within_traced_with(
        v_t0,
        f0_t0,
        f1_t0,
        f2_t0,
        v_t1,
        f0_t1,
        f1_t1,
        f2_t1,
        d,
        RangeCheck::PerQuery,
    )
}

/// [`vertex_face_within_traced`], with the range check `range` says (as for
/// the contact solvers' `_with` variants). The same results.
#[allow(clippy::too_many_arguments)]
pub(crate) fn vertex_face_within_traced_with(
    v_t0: &Vec3,
    f0_t0: &Vec3,
    f1_t0: &Vec3,
    f2_t0: &Vec3,
    v_t1: &Vec3,
    f0_t1: &Vec3,
    f1_t1: &Vec3,
    f2_t1: &Vec3,
    d: f64,
    range: RangeCheck,
) -> (Option<Toi>, SolverTier) {
    // A non-finite coordinate: never within `d` (as for contact).
    if !range.finite(&[v_t0, f0_t0, f1_t0, f2_t0, v_t1, f0_t1, f1_t1, f2_t1]) {
        return (None, SolverTier::Float);
    }
    let d = match Separation::of(d) {
        Separation::Contact => {
            return vertex_face_traced_with(
                v_t0, f0_t0, f1_t0, f2_t0, v_t1, f0_t1, f1_t1, f2_t1, range,
            );
        }
        Separation::Never => return (None, SolverTier::Float),
        Separation::Always => return (Some(Toi::exact(0.0)), SolverTier::Float),
        Separation::Positive(d) => d,
    };
    let points = [v_t0, f0_t0, f1_t0, f2_t0, v_t1, f0_t1, f1_t1, f2_t1];
    // Held exactly `d` apart along an axis: the projections' contact.
    if let Some(decided) = axis_planes::vertex_face(points, d, range) {
        return decided;
    }
    let features = VertexFace::new(points);
    if let Some(decided) = filtered(&features, points, d, range) {
        return (decided, SolverTier::Float);
    }
    // Deferred with coordinates or `d` outside the filter range: the query
    // scaled into it.
    if let Some((q, d)) = scaled_query(&points, d, range) {
        let [a, b, c, e, f, g, h, i] = &q;
        return vertex_face_within_traced_with(a, b, c, e, f, g, h, i, d, RangeCheck::PerQuery);
    }
    // Coordinates spanning more bits than the range: snapped into it.
    if let Some(decided) = snapped(&points, d, range, VertexFace::new) {
        return (decided, SolverTier::Float);
    }
    if let Some(decided) = near_start::decide(&features, points, d, range) {
        return (decided, SolverTier::Exact);
    }
    let exact = oracle::vertex_face_within(v_t0, f0_t0, f1_t0, f2_t0, v_t1, f0_t1, f1_t1, f2_t1, d)
        .map(Toi::of_exact);
    (exact, SolverTier::Exact)
}
