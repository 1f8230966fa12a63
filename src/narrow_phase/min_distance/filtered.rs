//! The minimum-separation fast path (docs/design.md §5, tier 3): decides a
//! query in certified floating point or defers it (`None`) to the solver's
//! later tiers (rescaling, the exact steps near the start, the oracle).
//!
//! 1. Features that share a point at `t = 0` are within `d` there
//!    ([`Features::touch_at_start`]): the time of impact is exactly 0.
//! 2. Range: every coordinate passes [`crate::math::in_filter_range`]
//!    (the model of [`super::certificates`]). With coordinates at most
//!    `2²⁰⁰` in magnitude no two points are more than `√3·2²⁰¹ < 2²⁰²`
//!    apart, so a `d ≥ 2²⁰²` holds at `t = 0`.
//! 3. Features at rest (every point the same at `t = 0` and `t = 1`, as in
//!    a proximity query or a still obstacle): decided at `t = 0` alone
//!    when a certificate there succeeds
//!    ([`super::certificates::at_rest_within`]).
//! 4. Cheap exclusion: apart along a coordinate axis over all of `[0, 1]`.
//!    A pair at rest still undecided is deferred (its distance is the same
//!    at every time).
//! 5. Inclusion at `t = 0`: certified within `d` there — the time of impact
//!    is exactly 0.
//! 6. Conservative advancement: a first step along the nearest-point
//!    direction ([`super::certificates::advance`]), then plane steps
//!    ([`super::plane::advance_by_plane`]) while they succeed, then
//!    nearest-point steps again: `[0, l]` certified apart in a few steps,
//!    usually close to the time of impact. Deferred when the first step
//!    fails and the start is not certified apart either (features within
//!    a rounding of `d` at `t = 0`).
//! 7. The search ([`super::search`]) for the earliest time after `l`,
//!    with an exact test at `t = 1` last (features arriving exactly `d`
//!    apart at the end of the step).
//!
//! A `d` outside the range of the model is replaced where that is sound:
//! exclusion against any `d' ≥ d` is exclusion against `d`, so a tiny `d`
//! (below `2⁻⁸⁷` and not a multiple of `2⁻¹⁴⁰`, subnormals included)
//! excludes with `2⁻⁸⁷`; inclusion has no such substitute and is not
//! attempted. A query deferred with its coordinates or `d` out of range is
//! tried again scaled into it with `d` ([`scaled_query`]), by the solvers,
//! or, where its coordinates span more bits than the range, on the query
//! snapped into it, with `d` widened and narrowed by the snap
//! ([`snapped`]).

use super::certificates::{Features, advance, apart, apart_on_an_axis, at_rest_within, within};
use super::plane::{advance_by_plane, apart_by_plane};
use super::search;
use crate::math::{
    FILTER_LSB_MIN, FILTER_MAX_MAGNITUDE, RangeCheck, Vec3, in_filter_range, scaled_into_range,
    snapped_into_range, times_pow2,
};
use crate::narrow_phase::Toi;

/// Every pair of points in the filter range is closer than this (`2²⁰²`).
const BEYOND_RANGE: f64 = f64::from_bits((1023 + 202) << 52);

/// Conservative advancement steps before the bisection takes over.
const MAX_ADVANCES: u32 = 24;

/// The stand-in for a tiny `d` in exclusions (`2⁻⁸⁷`, in range).
const TINY_D: f64 = 1.0 / (1u128 << 87) as f64;

/// The fast path for a finite `d > 0`: `Some(decision)` when certified,
/// `None` to defer; the coordinates' range checked as `range` says.
pub(super) fn filtered<F: Features>(
    f: &F,
    points: [&Vec3; 8],
    d: f64,
    range: RangeCheck,
) -> Option<Option<Toi>> {
    searched(f, advanced(f, points, d, range))
}

/// Step 7 where steps 1–6 left the query open: the decision, or `None` to
/// defer.
fn searched<F: Features>(f: &F, advanced: Advanced) -> Option<Option<Toi>> {
    match advanced {
        Advanced::Decided(decision) => Some(decision),
        Advanced::Defer => None,
        Advanced::From(from) => search_from(f, &from),
    }
}

/// Where steps 1–6 left a query.
pub(super) enum Advanced {
    /// Decided: no time within `d`, or the time of impact.
    Decided(Option<Toi>),
    /// Outside the model of the certificates: for the exact path.
    Defer,
    /// `[0, start]` certified apart; the search goes on from there.
    From(Start),
}

/// What the search needs from the advancement.
#[derive(Clone, Copy)]
pub(super) struct Start {
    /// `[0, start]` is certified farther apart than `d`.
    pub(super) start: f64,
    /// The plane certificate succeeded at every step (the bisection tries it
    /// too).
    plane: bool,
    /// `d` for exclusions (`d` itself, or `2⁻⁸⁷` for a tiny one).
    d_out: f64,
    /// `d` for inclusions, when in range.
    d_in: Option<f64>,
}

/// Steps 1–6 of the fast path (module doc).
pub(super) fn advanced<F: Features>(
    f: &F,
    points: [&Vec3; 8],
    d: f64,
    range: RangeCheck,
) -> Advanced {
    advanced_from(f, prelude(f, points, d, range))
}

/// Step 6 where steps 1–5 left the query open.
fn advanced_from<F: Features>(f: &F, prelude: Advanced) -> Advanced {
    match prelude {
        Advanced::From(from) => advance_steps(f, from),
        other => other,
    }
}

/// Steps 1–5 of the fast path (module doc): `Advanced::From` with
/// `start = 0` when they decide nothing.
fn prelude<F: Features>(f: &F, points: [&Vec3; 8], d: f64, range: RangeCheck) -> Advanced {
    // Features sharing a point at `t = 0` (duplicated seam vertices, a
    // collapsed frame) are within `d` there, at any magnitude: decided by
    // equality, also outside the range, where they would go to the exact
    // path.
    if F::touch_at_start(points) {
        return Advanced::Decided(Some(Toi::exact(0.0)));
    }
    let (d_out, d_in) = match separations(points, d, range) {
        Ok(ds) => ds,
        Err(other) => return other,
    };
    prelude_with(f, points, d_out, d_in)
}

/// Steps 3–5 with `d_out` for exclusions and `d_in` for inclusions, both in
/// the filter range, as are the points.
fn prelude_with<F: Features>(f: &F, points: [&Vec3; 8], d_out: f64, d_in: Option<f64>) -> Advanced {
    let rest = at_rest(&points);
    if rest {
        match at_rest_within(f, d_out, d_in) {
            Some(true) => return Advanced::Decided(Some(Toi::exact(0.0))),
            Some(false) => return Advanced::Decided(None),
            None => {}
        }
    }
    if apart_on_an_axis(f, d_out) {
        return Advanced::Decided(None);
    }
    // At rest, the distance is the same at every time: what the certificates
    // cannot decide at `t = 0` (features exactly `d` apart, or within a
    // rounding of it) no later time decides either.
    if rest {
        return Advanced::Defer;
    }
    if d_in.is_some_and(|d| within(f, d, 0.0)) {
        return Advanced::Decided(Some(Toi::exact(0.0)));
    }
    Advanced::From(Start {
        start: 0.0,
        plane: true,
        d_out,
        d_in,
    })
}

/// Every point at the same place at `t = 0` and at `t = 1` (so at every
/// time: the query's features are at rest).
#[inline]
pub(super) fn at_rest(points: &[&Vec3; 8]) -> bool {
    (0..4).all(|i| points[i] == points[i + 4])
}

/// Step 2, and `d` for exclusions and for inclusions (module doc); `Err`
/// with the decision when the range decides.
fn separations(
    points: [&Vec3; 8],
    d: f64,
    range: RangeCheck,
) -> Result<(f64, Option<f64>), Advanced> {
    if !range.in_range(&points) {
        return Err(Advanced::Defer);
    }
    if d >= BEYOND_RANGE {
        return Err(Advanced::Decided(Some(Toi::exact(0.0))));
    }
    let d_in = in_filter_range(d).then_some(d);
    match d_in {
        Some(d) => Ok((d, d_in)),
        None if d < TINY_D => Ok((TINY_D, None)),
        None => Err(Advanced::Defer),
    }
}

/// A query whose coordinates or `d` are outside the filter range, and `d`,
/// times the one power of two that brings every coordinate and `d` into it
/// ([`scaled_into_range`]). That is exact, and it scales every distance with
/// `d` while keeping every time, so the scaled query has the same answer;
/// `None` where all are in range already or no power of two brings them in
/// (a `d` tiny against the coordinates: step 2's substitute then).
#[inline]
pub(super) fn scaled_query(
    points: &[&Vec3; 8],
    d: f64,
    range: RangeCheck,
) -> Option<([Vec3; 8], f64)> {
    if in_filter_range(d) && range.in_range(points) {
        return None;
    }
    scaled_with(points, d)
}

/// [`scaled_query`]'s scaling.
#[cold]
fn scaled_with(points: &[&Vec3; 8], d: f64) -> Option<([Vec3; 8], f64)> {
    let at_d = Vec3::new(d, 0.0, 0.0);
    let all: [&Vec3; 9] = std::array::from_fn(|i| points.get(i).copied().unwrap_or(&at_d));
    let q = scaled_into_range(&all)?;
    Some((std::array::from_fn(|i| q[i]), q[8].x))
}

/// How far the snap of [`snapped`] may change the distance between the
/// two features, with room to spare: each point moves by less than
/// `2⁻¹⁴⁰` ([`snapped_into_range`]), so each feature's points (convex
/// combinations of its corners) too, and their distance by less than
/// `2⁻¹³⁹`; the margin `2⁻¹³⁸` also covers `d`'s rounding where its
/// scaling underflows.
const SNAP_MARGIN: f64 = 1.0 / (1u128 << 69) as f64 / (1u128 << 69) as f64;

/// Steps 1–7 on a query whose coordinates span more bits than the filter
/// range, where rescaling finds no exact scale (docs/design.md §5, tier
/// 4): the query scaled by `2ˢ` and snapped to the range's
/// grid ([`snapped_into_range`]), `d` scaled with it and widened by
/// [`SNAP_MARGIN`] for exclusions (`d_out`, rounded up to the grid) and
/// narrowed by it for inclusions (`d_in`, rounded down; none when that
/// leaves nothing). The snapped features are farther than `d_out` apart
/// only where the scaled originals are farther than `d·2ˢ`, and within
/// `d_in` only where they are within `d·2ˢ`; scaling keeps every time. So
/// what the fast path certifies on the snapped query, with those two
/// separations, holds for the original: a verdict and a bracket. `None`
/// where it defers, and where the coordinates fit the range already (the
/// snap would change nothing) or `d` scales beyond it.
pub(super) fn snapped<F: Features>(
    points: &[&Vec3; 8],
    d: f64,
    range: RangeCheck,
    features: impl FnOnce([&Vec3; 8]) -> F,
) -> Option<Option<Toi>> {
    if range.in_range(points) {
        return None;
    }
    let (q, s) = snapped_into_range(points)?;
    let grid = 2f64.powi(-FILTER_LSB_MIN);
    let d_scaled = times_pow2(d, s);
    // Rounded outward: one neighbour past each rounded sum, then to the grid.
    let d_out = ((d_scaled + SNAP_MARGIN).next_up() * grid).ceil() / grid;
    if d_out > FILTER_MAX_MAGNITUDE {
        return None;
    }
    let d_in =
        Some(((d_scaled - SNAP_MARGIN).next_down() * grid).floor() / grid).filter(|&x| x > 0.0);
    let p: [&Vec3; 8] = std::array::from_fn(|i| &q[i]);
    let f = features(p);
    // Snapped points that coincide were at most twice the snap apart.
    if d_in.is_some() && F::touch_at_start(p) {
        return Some(Some(Toi::exact(0.0)));
    }
    searched(&f, advanced_from(&f, prelude_with(&f, p, d_out, d_in)))
}

/// For a pair known to come within `d`: the end `s` of a span `[0, s]`
/// certified apart by the first advancement step alone, or `0` (also where
/// the range leaves the fast path out). Only steps 2 and 6 run: a pair that
/// comes within `d` is never apart on an axis, and one within `d` at `t = 0`
/// fails the step.
pub(super) fn first_step_end<F: Features>(
    f: &F,
    points: [&Vec3; 8],
    d: f64,
    range: RangeCheck,
) -> f64 {
    match separations(points, d, range) {
        Ok((d_out, _)) => advance(f, d_out, 0.0).unwrap_or(0.0),
        Err(_) => 0.0,
    }
}

/// Step 6, conservative advancement: `Decided(None)` when it passes 1 (no
/// time within `d`), `From` with `from.start` moved on when a step fails or
/// the steps run out, and `Defer` when the first step fails at a start that
/// cannot be certified apart either: features that start within a rounding
/// of `d` (exactly `d` apart, say, sliding or arriving), whose time `0`, or
/// one just after it, no floating-point search brackets (it would halve
/// `[0, 1]` down to its narrowest interval at `0` and defer there). The
/// exact steps near the start decide them.
///
/// Usually within a few steps of the time of impact, or past 1. The first
/// step goes along the nearest-point direction; later ones by the plane
/// certificate, which follows turning features, for as long as it
/// succeeds, and then along the nearest-point direction again.
fn advance_steps<F: Features>(f: &F, mut from: Start) -> Advanced {
    for i in 0..MAX_ADVANCES {
        let by_plane = if from.plane && i > 0 {
            advance_by_plane(f, from.d_out, from.start)
        } else {
            None
        };
        from.plane &= i == 0 || by_plane.is_some();
        match by_plane.or_else(|| advance(f, from.d_out, from.start)) {
            Some(1.0) => return Advanced::Decided(None),
            Some(t) => from.start = t,
            None if from.start == 0.0 && !apart(f, from.d_out, 0.0, 0.0) => {
                return Advanced::Defer;
            }
            None => break,
        }
    }
    Advanced::From(from)
}

/// Step 7: the search for the earliest time after `from.start`.
pub(super) fn search_from<F: Features>(f: &F, from: &Start) -> Option<Option<Toi>> {
    search_below(f, from, first_within(f, from))
}

/// The search's upper end after `from.start` ([`search::first_within`]): a
/// time certified within `d`, so the earliest one is in `[from.start, it]`.
pub(super) fn first_within<F: Features>(f: &F, from: &Start) -> Option<f64> {
    let d = from.d_in?;
    search::first_within(from.start, |t| within(f, d, t))
}

/// [`search_from`] with the upper end [`first_within`] already found.
pub(super) fn search_below<F: Features>(
    f: &F,
    from: &Start,
    known: Option<f64>,
) -> Option<Option<Toi>> {
    let Start {
        start,
        plane,
        d_out,
        d_in,
        ..
    } = *from;
    search::earliest(
        start,
        known,
        |l, r| apart(f, d_out, l, r) || (plane && apart_by_plane(f, d_out, l, r)),
        |t| d_in.is_some_and(|d| within(f, d, t)),
        || d_in.is_some_and(|d| f.within_at_end(d) == Some(true)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_range_constants_are_the_powers_of_two() {
        assert_eq!(BEYOND_RANGE, 2f64.powi(202));
        assert_eq!(TINY_D, 2f64.powi(-87));
        assert!(in_filter_range(TINY_D));
        assert!(BEYOND_RANGE > 3f64.sqrt() * 2f64.powi(201));
    }
}
