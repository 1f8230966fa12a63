//! The fast path's search for the earliest time within `d`
//! (docs/design.md §5), after `start` (everything before it certified
//! apart): first an upper end, the first of `start + 2⁻⁴⁰·2ᵏ` certified
//! within; then `[start, upper]` (or `[start, 1]` when none is) is bisected
//! depth first, earliest half first; an interval certified apart
//! ([`super::certificates::apart`], or [`super::plane::apart_by_plane`]
//! while the plane steps of the advancement held) is dropped, any other is halved until it is [`WIDTH`] wide (an interval
//! `[0, r]` until [`FIRST_WIDTH`]: a time of impact in `(0, 2⁻⁴⁰)`, as in a
//! line search that has driven a gap to within ulps of `d`, gets a bracket
//! with a positive lower end). When every
//! earlier interval was dropped, the first undropped narrow `[l, r]` holds
//! the earliest time `t*` from below (`t* ≥ l`), and a certified *within*
//! at `r`, or at a later time tried at doubling steps up to
//! `l + MAX_WIDTH`, bounds it from above: the bracket. Anything else is left
//! to the exact path.
//!
//! Why later times: near `t*` the features are about `d` apart, and the
//! direction between their nearest points, computed in doubles from
//! sides of size `L`, is only accurate to about `u·L/d` (cancellation);
//! over a feature of size `L` that is an error of `u·L²/d` in the
//! separation, so intervals closer to `t*` than that (in distance) cannot
//! be certified apart. For small `d` the undropped narrow interval then
//! ends before `t*`, and the bracket must reach past it. (Where the nearest
//! points are interior to both features the certificate takes the normal
//! instead, whose accuracy does not depend on `d`.)

use super::super::toi::{EXACT_TOI_WIDTH, Toi};

/// The width at which the search stops halving, the exact path's bracket
/// width (`2⁻⁴⁰`): bisection points stay doubles in `[2⁻⁶⁰, 1]` (down to
/// [`FIRST_WIDTH`] from `[0, r]`), inside the certificates' time range. (From `start = 0` they are exact dyadics; from
/// another start a midpoint may round, which is harmless: the two halves
/// still share it, and each certificate holds at the double it is
/// evaluated at.)
pub(super) const WIDTH: f64 = EXACT_TOI_WIDTH;

/// The narrowest interval `[0, r]` the search halves (`2⁻⁶⁰`, the least
/// positive time in the certificates' model): a time of impact below it,
/// or exactly `0`, is left to the exact path.
pub(super) const FIRST_WIDTH: f64 = 1.0 / (1u64 << 60) as f64;

/// The widest bracket the fast path returns (`2⁻³⁰`); wider ones are left
/// to the exact path.
pub(super) const MAX_WIDTH: f64 = 1.0 / (1u64 << 30) as f64;

/// Intervals the search examines before it gives up. A generic contact
/// needs about `2·40`; a pair whose distance only grazes `d` (its least
/// within a few per cent of `d`) needs hundreds (why this many:
/// docs/notes/min-distance.md).
const MAX_VISITS: u32 = 1024;

/// The search's upper end: the first of `start + 2⁻⁴⁰·2ᵏ` (up to 1) at which
/// `within` holds. The time of impact is at most any time within `d`.
pub(super) fn first_within(start: f64, mut within: impl FnMut(f64) -> bool) -> Option<f64> {
    let mut step = WIDTH;
    while start + step <= 1.0 {
        if within(start + step) {
            return Some(start + step);
        }
        step *= 2.0;
    }
    None
}

/// The bracket of the earliest time within `d`: `Some(None)` when every
/// interval is certified apart, `Some(Some(toi))` when bracketed, `None`
/// when undecided. `[0, start]` is certified apart (`start` a multiple of
/// `2⁻⁴⁰` in `[0, 1)`); `apart(l, r)` and `within(t)` must be certificates;
/// `within(0)` has already failed (a time of impact `0` is left to the
/// exact path, which returns it exactly); `known` is [`first_within`]'s
/// answer for the same `start` and `within`. `within_at_one` is an exact
/// test at `t = 1`, tried last on a narrow interval within [`MAX_WIDTH`] of
/// it: features that arrive exactly `d` apart at the end of the step are
/// within no floating-point certificate's reach.
pub(super) fn earliest(
    start: f64,
    known: Option<f64>,
    mut apart: impl FnMut(f64, f64) -> bool,
    mut within: impl FnMut(f64) -> bool,
    within_at_one: impl FnOnce() -> bool,
) -> Option<Option<Toi>> {
    // Depth-first stack, earliest interval on top; depth ≤ 61 (down to
    // `FIRST_WIDTH`), each level leaving one entry, so at most 62 entries.
    let mut stack = [(0.0, 0.0); 64];
    stack[0] = (start, known.unwrap_or(1.0));
    let mut len = 1;
    let mut visits = 0;
    let mut start_apart = None;
    while len > 0 {
        len -= 1;
        let (l, r) = stack[len];
        visits += 1;
        if visits > MAX_VISITS {
            return None;
        }
        if apart(l, r) {
            continue;
        }
        // Near `t = 0` the halving goes on below `WIDTH`, down to
        // `FIRST_WIDTH`: a time of impact in `(0, WIDTH)` gets a bracket
        // whose lower end is positive when `[0, l]` is certified apart. That
        // needs the start itself certified apart, tried once: features that
        // start within a rounding of `d` go to the exact path at once.
        if r - l <= WIDTH && l == 0.0 {
            if r <= FIRST_WIDTH || !*start_apart.get_or_insert_with(|| apart(0.0, 0.0)) {
                return None;
            }
        } else if r - l <= WIDTH {
            // r, r + w, r + 2w, r + 4w, … (certified wherever they round to).
            let mut upper = r;
            let mut step = r - l;
            while upper <= 1.0 && upper - l <= MAX_WIDTH {
                if within(upper) {
                    return Some(Some(Toi { lower: l, upper }));
                }
                upper = r + step;
                step *= 2.0;
            }
            let upper = known.or((1.0 - l <= MAX_WIDTH && within_at_one()).then_some(1.0));
            return upper
                .filter(|&upper| upper - l <= MAX_WIDTH)
                .map(|upper| Some(Toi { lower: l, upper }));
        }
        let m = 0.5 * (l + r);
        stack[len] = (m, r);
        stack[len + 1] = (l, m);
        len += 2;
    }
    // Every interval of [start, 1] apart: no contact. (With a known upper
    // end, only [start, upper] was searched, and it holds the time of
    // impact, so its intervals cannot all be apart; defer rather than
    // trust that.)
    known.is_none().then_some(None)
}
