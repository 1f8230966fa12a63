//! The exact sign of a 2×2 determinant `a·b − c·d` whose entries are exact
//! differences of doubles (`TwoSum`): a float filter with a bound derived
//! from [`UNIT_ROUNDOFF`], then `TwoProd` where every entry is a double,
//! then [`ExactSum`] (Shewchuk, "Adaptive precision floating-point
//! arithmetic and fast robust geometric predicates", 1997, §2; the exact sum
//! of docs/design.md §8). Requires entries whose products neither
//! overflow nor underflow: the filter range of
//! [`crate::math::in_filter_range`].

use std::cmp::Ordering;

use crate::math::{ExactSum, UNIT_ROUNDOFF, two_prod, two_sum};

/// An exact difference of two doubles, `hi + lo` (`TwoSum`).
#[derive(Clone, Copy, Debug)]
pub(super) struct Diff {
    pub(super) hi: f64,
    pub(super) lo: f64,
}

impl Diff {
    /// `a − b`, exactly.
    #[inline]
    pub(super) fn of(a: f64, b: f64) -> Diff {
        let (hi, lo) = two_sum(a, -b);
        Diff { hi, lo }
    }

    /// The exact sign (`|lo| ≤ ulp(hi)/2`, and `hi = 0` only for zero).
    #[inline]
    pub(super) fn sign(self) -> Ordering {
        self.hi.partial_cmp(&0.0).unwrap_or(Ordering::Equal)
    }

    #[inline]
    pub(super) fn pair(self) -> (f64, f64) {
        (self.hi, self.lo)
    }
}

/// The exact sign of `a·b − c·d`.
pub(super) fn det2_sign(a: Diff, b: Diff, c: Diff, d: Diff) -> Ordering {
    // Float filter: `a·b` differs from `fl(a.hi·b.hi)` by at most
    // `(3u + u²)/(1 − u)` of the latter, likewise `c·d`, and the
    // subtraction rounds by `u` of the sum of magnitudes: `8u` covers it.
    let (x, y) = (a.hi * b.hi, c.hi * d.hi);
    let approx = x - y;
    if approx.abs() > 8.0 * UNIT_ROUNDOFF * (x.abs() + y.abs()) {
        return approx.partial_cmp(&0.0).unwrap_or(Ordering::Equal);
    }
    if a.lo == 0.0 && b.lo == 0.0 && c.lo == 0.0 && d.lo == 0.0 {
        // Exact products `p + e`, `q + f`: rounding to nearest is monotone,
        // so `p ≠ q` orders the products; `p = q` leaves `e − f`.
        let (p, e) = two_prod(a.hi, b.hi);
        let (q, f) = two_prod(c.hi, d.hi);
        return p
            .partial_cmp(&q)
            .unwrap_or(Ordering::Equal)
            .then(e.partial_cmp(&f).unwrap_or(Ordering::Equal));
    }
    let mut acc = ExactSum::new();
    acc.add_product(1.0, &[a.pair(), b.pair()]);
    acc.add_product(-1.0, &[c.pair(), d.pair()]);
    acc.sign().cmp(&0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn determinants_are_signed_exactly_beyond_the_float_filter() {
        // 0.1·0.3 against 0.3·0.1 with a difference of an ulp in one factor.
        let d = |v: f64| Diff::of(v, 0.0);
        assert_eq!(det2_sign(d(0.1), d(0.3), d(0.3), d(0.1)), Ordering::Equal);
        let up = d(0.1f64.next_up());
        assert_eq!(det2_sign(up, d(0.3), d(0.3), d(0.1)), Ordering::Greater);
        // Differences with low parts: (1 − 2⁻⁶⁰)·1 against 1·(1 − 2⁻⁶⁰).
        let e = Diff::of(1.0, 2f64.powi(-60));
        assert!(e.lo != 0.0);
        assert_eq!(det2_sign(e, d(1.0), d(1.0), e), Ordering::Equal);
        assert_eq!(det2_sign(e, d(1.0), d(1.0), d(1.0)), Ordering::Less);
    }
}
