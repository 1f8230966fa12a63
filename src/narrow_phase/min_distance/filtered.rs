//! The minimum-separation fast path (docs/design.md §5): decides a query in
//! certified floating point or defers it (`None`) to the exact oracle.
//!
//! 1. Range: every coordinate passes [`crate::math::in_filter_range`]
//!    (the model of [`super::certificates`]). With coordinates at most
//!    `2²⁰⁰` in magnitude no two points are `√3·2²⁰¹ < 2²⁰²` apart, so a
//!    `d ≥ 2²⁰²` holds at `t = 0`.
//! 2. Cheap exclusion: apart along a coordinate axis over all of `[0, 1]`.
//! 3. Inclusion at `t = 0`: certified within `d` there — the time of impact
//!    is exactly 0.
//! 4. Conservative advancement: a first step along the nearest-point
//!    direction ([`super::certificates::advance`]), then plane steps
//!    ([`super::plane::advance_by_plane`]) while they succeed, then
//!    nearest-point steps again: `[0, l]` certified apart in a few steps,
//!    usually close to the time of impact.
//! 5. The search ([`super::search`]) for the earliest time after `l`.
//!
//! A `d` outside the range of the model is replaced where that is sound:
//! exclusion against any `d' ≥ d` is exclusion against `d`, so a tiny `d`
//! (below `2⁻⁸⁷` and not a multiple of `2⁻¹⁴⁰`, subnormals included)
//! excludes with `2⁻⁸⁷`; inclusion has no such substitute and is not
//! attempted.

use super::certificates::{Features, advance, apart, apart_on_an_axis, within};
use super::plane::{advance_by_plane, apart_by_plane};
use super::search;
use crate::math::{Vec3, all_in_filter_range, in_filter_range};
use crate::narrow_phase::Toi;

/// Every pair of points in the filter range is closer than this (`2²⁰²`).
const BEYOND_RANGE: f64 = 6.427_752_177_035_961e60;

/// Conservative advancement steps before the bisection takes over.
const MAX_ADVANCES: u32 = 24;

/// The stand-in for a tiny `d` in exclusions (`2⁻⁸⁷`, in range).
const TINY_D: f64 = 1.0 / (1u128 << 87) as f64;

/// The fast path for a finite `d > 0`: `Some(decision)` when certified,
/// `None` to defer. `check` false: the caller has checked the coordinates'
/// range.
pub(super) fn filtered<F: Features>(
    f: &F,
    points: [&Vec3; 8],
    d: f64,
    check: bool,
) -> Option<Option<Toi>> {
    if check && !all_in_filter_range(&points) {
        return None;
    }
    debug_assert!(
        all_in_filter_range(&points),
        "a query out of the filter range"
    );
    if d >= BEYOND_RANGE {
        return Some(Some(Toi::exact(0.0)));
    }
    let d_in = in_filter_range(d).then_some(d);
    let d_out = match d_in {
        Some(d) => d,
        None if d < TINY_D => TINY_D,
        None => return None,
    };
    if apart_on_an_axis(f, d_out) {
        return Some(None);
    }
    let inside = |t: f64| d_in.is_some_and(|d| within(f, d, t));
    if inside(0.0) {
        return Some(Some(Toi::exact(0.0)));
    }
    // Conservative advancement first: usually within a few steps of the
    // time of impact, or past 1 (no contact). The first step goes along
    // the nearest-point direction; later ones by the plane certificate,
    // which follows turning features, for as long as it succeeds, and then
    // along the nearest-point direction again.
    let mut start = 0.0;
    let mut plane = true;
    for i in 0..MAX_ADVANCES {
        let by_plane = if plane && i > 0 {
            advance_by_plane(f, d_out, start)
        } else {
            None
        };
        plane &= i == 0 || by_plane.is_some();
        match by_plane.or_else(|| advance(f, d_out, start)) {
            Some(1.0) => return Some(None),
            Some(t) => start = t,
            None => break,
        }
    }
    search::earliest(
        start,
        |l, r| apart(f, d_out, l, r) || (plane && apart_by_plane(f, d_out, l, r)),
        inside,
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
