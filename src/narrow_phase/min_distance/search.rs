//! The fast path's search for the earliest time within `d`
//! (docs/design.md §5): `[0, 1]` is bisected depth first, earliest half
//! first; an interval certified apart ([`super::certificates::apart`]) is
//! dropped, any other is halved until it is [`WIDTH`] wide. When every
//! earlier interval was dropped, the first undropped narrow `[l, r]` holds
//! the earliest time `t*` from below (`t* ≥ l`), and a certified *within*
//! at `r` (or at `r + WIDTH`) bounds it from above: the bracket. Anything
//! else is left to the exact path.

use super::super::toi::{EXACT_TOI_WIDTH, Toi};

/// The width at which the search stops halving, the exact path's bracket
/// width (`2⁻⁴⁰`): bisection points stay dyadics in `[2⁻⁴¹, 1]`, inside the
/// certificates' time range.
pub(super) const WIDTH: f64 = EXACT_TOI_WIDTH;

/// Intervals the search examines before it gives up (a near-tangency needs
/// many; a generic contact about `2·40`).
const MAX_VISITS: u32 = 256;

/// The bracket of the earliest time within `d`: `Some(None)` when every
/// interval is certified apart, `Some(Some(toi))` when bracketed, `None`
/// when undecided. `apart(l, r)` and `within(t)` must be certificates;
/// `within(0)` has already failed (a time of impact `0` is left to the
/// exact path, which returns it exactly).
pub(super) fn earliest(
    mut apart: impl FnMut(f64, f64) -> bool,
    mut within: impl FnMut(f64) -> bool,
) -> Option<Option<Toi>> {
    // Depth-first stack, earliest interval on top; depth ≤ 41, so at most
    // 42 entries.
    let mut stack = [(0.0, 0.0); 48];
    stack[0] = (0.0, 1.0);
    let mut len = 1;
    let mut visits = 0;
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
        if r - l <= WIDTH {
            if l == 0.0 {
                return None;
            }
            // A contact at exactly r (at distance exactly d there) is not
            // certifiable at r; one step later usually is.
            let later = r + (r - l);
            let upper = if within(r) {
                r
            } else if later <= 1.0 && within(later) {
                later
            } else {
                return None;
            };
            return Some(Some(Toi { lower: l, upper }));
        }
        let m = 0.5 * (l + r);
        stack[len] = (m, r);
        stack[len + 1] = (l, m);
        len += 2;
    }
    Some(None)
}
