//! Minimum-separation verdicts whose time-of-impact bracket may be loose
//! (docs/design.md §5, "Loose brackets"): for a caller that needs every
//! pair's verdict but the tight bracket of only the pairs that may hold the
//! step's earliest time (a pipeline step that does not collect its pairs).
//!
//! Features held exactly `d` apart along an axis are decided first, as the
//! tight solver decides them ([`super::axis_planes`]). Then the contact
//! solver's certified tiers run (except on a pair at
//! rest, which the fast path decides at `t = 0`, usually in its first
//! steps). A pair that touches comes within every `d > 0`: its earliest
//! time within `d` is no later than its contact bracket's upper end
//! ([`WithinVerdict::Touching`]); a lower end, when the caller needs one,
//! is the end of the span `[0, s]` that the fast path's first advancement
//! step certifies apart ([`touching_lower_end`]). That skips the rest of the
//! advancement and the search, which converge on the time of impact in many
//! small steps on pairs that cross.
//! A pair that does not touch (or is at rest, or whose contact the
//! certified tiers leave open) runs the fast path; if a time certified
//! within `d` then comes at the search's upper end, `[start, that time]` is
//! its loose bracket, without the search's bisection. What the fast path
//! leaves open is scaled into the filter range where it is out of it, and
//! decided again (or, where no exact scale exists, tried snapped into it);
//! what is still open goes to the exact steps: the contact oracle first
//! where the certified tiers left contact open (a pair that touches is
//! decided there, far more cheaply than by the minimum-separation oracle),
//! then, as in the tight solver, the exact steps near the start and the
//! oracle of [`super::vertex_face_within`] / [`super::edge_edge_within`].
//! The contact oracle thus runs only on pairs the fast path cannot decide
//! (a triangle on a line at the start that opens into a plane, say).

use super::axis_planes;
use super::certificates::{EdgeEdge, Features, VertexFace};
use super::distance_arg::Separation;
use super::filtered::{
    Advanced, advanced, at_rest, first_step_end, first_within, scaled_query, search_below, snapped,
};
use super::near_start;
use super::search;
use crate::exact::Algebraic;
use crate::math::{RangeCheck, Vec3};
use crate::narrow_phase::QueryKind;
use crate::narrow_phase::oracle;
use crate::narrow_phase::oracle::{
    edge_edge as edge_edge_oracle, vertex_face as vertex_face_oracle,
};
use crate::narrow_phase::toi::{SolverTier, Toi};
use crate::narrow_phase::{edge_edge_certified_with, vertex_face_certified_with};

/// How far past the smallest upper end of a step's brackets a loose
/// bracket's lower end must lie for its pair to be left loose: a tight
/// bracket is at most [`search::MAX_WIDTH`] wide, and the exact path's lower
/// end may lie up to one exact bracket width (and a rounding) below the span
/// certified apart; twice the widest bracket covers both.
pub(crate) const LOOSE_MARGIN: f64 = 2.0 * search::MAX_WIDTH;

/// A minimum-separation verdict.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum WithinVerdict {
    /// What [`super::vertex_face_within`] / [`super::edge_edge_within`]
    /// return: no time within `d`, or the tight bracket of the earliest.
    Tight(Option<Toi>),
    /// Within `d` at some time; the earliest lies in this bracket, whose
    /// `lower` is the end of the span certified apart (the tight bracket's
    /// `lower` is at least as large, or below it by less than one exact
    /// bracket width when the exact path decides).
    Loose(Toi),
    /// Touching (in contact) at some time no later than `upper`, so within
    /// `d` then: the earliest time within `d` lies in `[0, upper]`. With
    /// `lower` from [`touching_lower_end`], for the caller that needs it,
    /// `[lower, upper]` is a loose bracket as [`WithinVerdict::Loose`]'s.
    Touching {
        /// The contact bracket's upper end.
        upper: f64,
    },
}

/// The lower end of a [`WithinVerdict::Touching`] pair's loose bracket: the
/// end of the span `[0, s]` that the fast path's first advancement step
/// certifies more than `d` apart, or `0`. `q`: the query's eight points,
/// data set row order; `d > 0` and `range` as for the verdict.
pub(crate) fn touching_lower_end(kind: QueryKind, q: &[Vec3; 8], d: f64, range: RangeCheck) -> f64 {
    let p = [&q[0], &q[1], &q[2], &q[3], &q[4], &q[5], &q[6], &q[7]];
    if let Some((q, d)) = scaled(&p, d, range) {
        return touching_lower_end(kind, &q, d, RangeCheck::PerQuery);
    }
    match Separation::of(d) {
        Separation::Positive(d) => match kind {
            QueryKind::VertexFace => first_step_end(&VertexFace::new(p), p, d, range),
            QueryKind::EdgeEdge => first_step_end(&EdgeEdge::new(p), p, d, range),
        },
        _ => 0.0,
    }
}

/// [`super::vertex_face_within_traced_with`], with a loose bracket or none
/// for a pair that touches. Arguments as there.
#[allow(clippy::too_many_arguments)]
pub(crate) fn vertex_face_within_verdict_with(
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
) -> (WithinVerdict, SolverTier) {
    let p = [v_t0, f0_t0, f1_t0, f2_t0, v_t1, f0_t1, f1_t1, f2_t1];
    verdict(
        &VertexFace::new(p),
        p,
        d,
        range,
        || vertex_face_certified_with(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], range),
        || {
            let (q, d) = scaled(&p, d, range)?;
            let [a, b, c, e, f, g, h, i] = &q;
            Some(vertex_face_within_verdict_with(
                a,
                b,
                c,
                e,
                f,
                g,
                h,
                i,
                d,
                RangeCheck::PerQuery,
            ))
        },
        || snapped(&p, d, range, VertexFace::new),
        |d| axis_planes::vertex_face(p, d, range),
        || vertex_face_oracle(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]).map(Toi::of_exact),
        || oracle::vertex_face_within(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], d),
    )
}

/// [`super::edge_edge_within_traced_with`], with a loose bracket or none for
/// a pair that touches. Arguments as there.
#[allow(clippy::too_many_arguments)]
pub(crate) fn edge_edge_within_verdict_with(
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
) -> (WithinVerdict, SolverTier) {
    let p = [
        ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1,
    ];
    verdict(
        &EdgeEdge::new(p),
        p,
        d,
        range,
        || edge_edge_certified_with(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], range),
        || {
            let (q, d) = scaled(&p, d, range)?;
            let [a, b, c, e, f, g, h, i] = &q;
            Some(edge_edge_within_verdict_with(
                a,
                b,
                c,
                e,
                f,
                g,
                h,
                i,
                d,
                RangeCheck::PerQuery,
            ))
        },
        || snapped(&p, d, range, EdgeEdge::new),
        |d| axis_planes::edge_edge(p, d, range),
        || edge_edge_oracle(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]).map(Toi::of_exact),
        || oracle::edge_edge_within(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], d),
    )
}

/// A query of a finite positive `d` outside the filter range, scaled into
/// it with `d` ([`scaled_query`]): the same verdict and times.
#[inline]
fn scaled(p: &[&Vec3; 8], d: f64, range: RangeCheck) -> Option<([Vec3; 8], f64)> {
    match Separation::of(d) {
        Separation::Positive(d) => scaled_query(p, d, range),
        _ => None,
    }
}

/// The verdict of one pair: `contact` is the `d = 0` solver's certified
/// tiers (`None` where its oracle would decide), `rescaled` the verdict of
/// the query scaled into the filter range (`None` where it is in range or
/// cannot be), `snapped` the fast path on the query snapped into it where
/// no exact scale exists ([`snapped`]), `projected` the contact solver on
/// the projections of features held exactly `d` apart along an axis
/// (`None` where they are not: [`super::axis_planes`]), `contact_exact` the
/// contact oracle, `exact` the minimum-separation oracle (before its
/// bracket is narrowed), after the exact steps near the start
/// ([`super::near_start`]).
#[allow(clippy::too_many_arguments)]
fn verdict<F: Features>(
    features: &F,
    points: [&Vec3; 8],
    d: f64,
    range: RangeCheck,
    contact: impl FnOnce() -> Option<Option<Toi>>,
    rescaled: impl FnOnce() -> Option<(WithinVerdict, SolverTier)>,
    snapped: impl FnOnce() -> Option<Option<Toi>>,
    projected: impl FnOnce(f64) -> Option<(Option<Toi>, SolverTier)>,
    contact_exact: impl FnOnce() -> Option<Toi>,
    exact: impl FnOnce() -> Option<Algebraic>,
) -> (WithinVerdict, SolverTier) {
    let d = match Separation::of(d) {
        Separation::Contact => {
            return match contact() {
                Some(toi) => (WithinVerdict::Tight(toi), SolverTier::Float),
                None => (WithinVerdict::Tight(contact_exact()), SolverTier::Exact),
            };
        }
        Separation::Never => return (WithinVerdict::Tight(None), SolverTier::Float),
        Separation::Always => {
            return (
                WithinVerdict::Tight(Some(Toi::exact(0.0))),
                SolverTier::Float,
            );
        }
        Separation::Positive(d) => d,
    };
    // Held exactly `d` apart along an axis: the projections' contact.
    if let Some((toi, tier)) = projected(d) {
        return (WithinVerdict::Tight(toi), tier);
    }
    // Touching at some time in [l0, u0]: within d then, so the earliest
    // time within d is at most u0 (its lower end, when a caller needs it,
    // is `touching_lower_end`). A pair at rest is decided at `t = 0` by the
    // fast path's own first steps, usually at once: the contact solver
    // would only add its cost.
    let touch = if at_rest(&points) {
        Some(None)
    } else {
        contact()
    };
    if let Some(Some(t0)) = touch {
        let upper = t0.upper;
        return (WithinVerdict::Touching { upper }, SolverTier::Float);
    }
    // Not touching, or left open: the fast path, as the tight solver runs
    // it.
    let from = match advanced(features, points, d, range) {
        Advanced::Decided(decision) => return (WithinVerdict::Tight(decision), SolverTier::Float),
        Advanced::Defer => None,
        Advanced::From(from) => Some(from),
    };
    if let Some(f) = from.as_ref() {
        // Certified within `d` at the search's upper end: the earliest time
        // within `d` is in [start, upper], without the search's bisection
        // (which, on a pair that approaches slowly while its features turn,
        // needs many intervals and often leaves the pair to the exact path).
        if let Some(upper) = first_within(features, f) {
            let toi = Toi {
                lower: f.start,
                upper,
            };
            return (WithinVerdict::Loose(toi), SolverTier::Float);
        }
        if let Some(decision) = search_below(features, f, None) {
            return (WithinVerdict::Tight(decision), SolverTier::Float);
        }
    }
    // Coordinates or `d` outside the filter range: the query scaled into it.
    if let Some(decided) = rescaled() {
        return decided;
    }
    // Coordinates spanning more bits than the range: snapped into it.
    if let Some(decision) = snapped() {
        return (WithinVerdict::Tight(decision), SolverTier::Float);
    }
    // Contact left open by the certified tiers: the contact oracle first.
    if touch.is_none()
        && let Some(t0) = contact_exact()
    {
        let upper = t0.upper;
        return (WithinVerdict::Touching { upper }, SolverTier::Exact);
    }
    if let Some(decided) = near_start::decide(features, points, d, range) {
        return (WithinVerdict::Tight(decided), SolverTier::Exact);
    }
    let toi = exact().map(Toi::of_exact);
    (WithinVerdict::Tight(toi), SolverTier::Exact)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contact_left_open_by_the_certified_tiers_waits_for_the_fast_path() {
        // A triangle on the slanted line (0,0,0)–(2,2,2) at t = 0 that opens
        // into the plane y = z; the vertex crosses that plane. The contact
        // solver's float tiers cannot decide it, the minimum-separation fast
        // path can: no exact step runs.
        let v = Vec3::new;
        let (f0, f1) = (v(0.0, 0.0, 0.0), v(2.0, 2.0, 2.0));
        let q = [
            v(1.0, 1.125, 0.875),
            f0,
            f1,
            v(1.0, 1.0, 1.0),
            v(1.0, 0.875, 1.125),
            f0,
            f1,
            v(2.0, 0.0, 0.0),
        ];
        let p: [&Vec3; 8] = std::array::from_fn(|i| &q[i]);
        let range = RangeCheck::PerQuery;
        let [a, b, c, d, e, f, g, h] = p;
        assert_eq!(
            vertex_face_certified_with(a, b, c, d, e, f, g, h, range),
            None
        );
        let (verdict, tier) = vertex_face_within_verdict_with(a, b, c, d, e, f, g, h, 0.01, range);
        assert_eq!(tier, SolverTier::Float);
        let WithinVerdict::Loose(toi) = verdict else {
            panic!("{verdict:?}");
        };
        let mut exact = oracle::vertex_face_within(a, b, c, d, e, f, g, h, 0.01).expect("a hit");
        let at = |x: f64| Algebraic::exact(crate::exact::Dyadic::from_f64(x));
        assert_ne!(
            at(toi.lower).compare(&mut exact),
            std::cmp::Ordering::Greater
        );
        assert_ne!(at(toi.upper).compare(&mut exact), std::cmp::Ordering::Less);
    }
}
