//! Exact sums of products of doubles in a fixed-point accumulator: the exact
//! sign (zero included) of a polynomial in coordinate differences, without
//! big integers or allocation.
//!
//! A product of doubles is expanded exactly into a sum of doubles by the
//! error-free transformation `TwoProd` ([`super::two_prod`]): `a·b = p + e`,
//! and each term times the next factor again. The terms are added to a
//! *superaccumulator* (Kulisch & Miranker, "The arithmetic of the digital
//! computer", SIAM Review 28(1), 1986; in the lazily normalised form of
//! Neal, "Fast exact summation using small and large superaccumulators",
//! arXiv:1505.05571, 2015): a fixed-point number with [`LIMBS`] digits of 32
//! bits, each held in an `i64`, so that up to `2³¹` additions need no carry
//! propagation. The accumulator spans `[2^LSB, 2^(LSB + 32·LIMBS))`.
//!
//! **Range.** The callers add only terms that are multiples of `2^LSB`
//! (`LSB = −576`) and below `2⁸⁶⁴` in magnitude: products of at most four
//! differences of inputs in the filter range ([`super::in_filter_range`]:
//! multiples of `2⁻¹⁴⁰`, magnitude `≤ 2²⁰⁰`) are multiples of `2⁻⁵⁶⁰` below
//! `2⁸⁰⁸`, and `TwoProd` keeps every term a multiple of the product's
//! granularity. Terms outside that range are refused ([`ExactSum::add`]
//! returns `false`), never rounded.
//!
//! docs/design.md §8 ("Exact sums").

use super::BoundedDd;
use super::bounded_dd::{two_prod, two_sum};

/// Number of 32-bit digits.
pub const LIMBS: usize = 46;
/// Exponent of the accumulator's least significant bit.
pub const LSB: i32 = -576;

/// An exact sum of doubles and of products of doubles, in a fixed-point
/// accumulator of 46 32-bit digits from `2⁻⁵⁷⁶` (Kulisch & Miranker
/// 1986; Neal 2015): its exact sign, zero included, without big integers or
/// allocation. Terms outside that range are refused ([`ExactSum::add`]
/// returns `false`), never rounded (docs/design.md §8, "Exact sums").
/// Products ([`ExactSum::add_product`]) are exact for factors formed from
/// inputs in [`super::in_filter_range`], as every caller's are: there no
/// partial product underflows. Outside it a product whose error term
/// underflows would be lost without the sum being marked inexact.
#[derive(Clone, Debug)]
pub struct ExactSum {
    limbs: [i64; LIMBS],
    /// `false` once a term outside the range was refused.
    ok: bool,
}

impl Default for ExactSum {
    fn default() -> Self {
        ExactSum::new()
    }
}

impl ExactSum {
    /// Zero.
    pub fn new() -> ExactSum {
        ExactSum {
            limbs: [0; LIMBS],
            ok: true,
        }
    }

    /// `true` when every term was in range, so that the sum is exact.
    pub fn is_exact(&self) -> bool {
        self.ok
    }

    /// Adds the double `x` exactly; `false` (and the sum marked inexact) if
    /// `x` is not a finite multiple of `2^LSB` within range.
    pub fn add(&mut self, x: f64) -> bool {
        if x == 0.0 {
            return true;
        }
        let bits = x.to_bits();
        let exp_bits = ((bits >> 52) & 0x7ff) as i32;
        if exp_bits == 0x7ff {
            self.ok = false;
            return false;
        }
        let frac = bits & ((1u64 << 52) - 1);
        let (mut mant, mut exp) = if exp_bits == 0 {
            (frac, -1074)
        } else {
            (frac | (1u64 << 52), exp_bits - 1075)
        };
        let tz = mant.trailing_zeros();
        mant >>= tz;
        exp += tz as i32;
        let pos = exp - LSB;
        // mant < 2⁵³ shifted by < 32 fits three digits.
        if pos < 0 || (pos as usize) / 32 + 3 > LIMBS {
            self.ok = false;
            return false;
        }
        let (i, s) = ((pos / 32) as usize, (pos % 32) as u32);
        let v = (mant as u128) << s;
        let sign = if bits >> 63 == 1 { -1 } else { 1 };
        for (j, limb) in self.limbs[i..i + 3].iter_mut().enumerate() {
            *limb += sign * ((v >> (32 * j)) as u64 & 0xffff_ffff) as i64;
        }
        true
    }

    /// Adds `sign · Π factors` exactly, each factor an exact two-term sum
    /// `(hi, lo)` (as from [`two_sum`]) of differences of inputs in
    /// [`super::in_filter_range`] (the type's doc). At most four factors.
    pub fn add_product(&mut self, sign: f64, factors: &[(f64, f64)]) {
        debug_assert!(factors.len() <= 4);
        // 128 terms suffice only because the sign is ±1 (one term to start).
        debug_assert!(sign.abs() == 1.0);
        // Terms of the exact product, expanded factor by factor: at most
        // 2⁴ choices of parts, each a product of ≤ 4 doubles = ≤ 8 terms.
        let mut terms = [0.0f64; 128];
        terms[0] = sign;
        let mut n = 1;
        for &(hi, lo) in factors {
            let mut next = [0.0f64; 128];
            let mut m = 0;
            for &t in &terms[..n] {
                for part in [hi, lo] {
                    if part == 0.0 || t == 0.0 {
                        continue;
                    }
                    let (p, e) = two_prod(t, part);
                    next[m] = p;
                    next[m + 1] = e;
                    m += 2;
                }
            }
            terms = next;
            n = m;
        }
        for &t in &terms[..n] {
            self.add(t);
        }
    }

    /// The digits with carries propagated, and the sign: digits `0..LIMBS`
    /// in `[0, 2³²)` holding `|sum|`.
    fn magnitude(&self) -> (i8, [i64; LIMBS]) {
        let mut d = self.limbs;
        for i in 0..LIMBS - 1 {
            let carry = d[i] >> 32;
            d[i] -= carry << 32;
            d[i + 1] += carry;
        }
        let top = d[LIMBS - 1];
        let sign = if top < 0 {
            -1
        } else if top > 0 || d.iter().any(|&x| x != 0) {
            1
        } else {
            0
        };
        if sign < 0 {
            // |sum| = −sum: negate and normalise again.
            for x in &mut d {
                *x = -*x;
            }
            for i in 0..LIMBS - 1 {
                let carry = d[i] >> 32;
                d[i] -= carry << 32;
                d[i + 1] += carry;
            }
        }
        (sign, d)
    }

    /// The exact sign of the sum.
    pub fn sign(&self) -> i8 {
        self.magnitude().0
    }

    /// A double within relative `2⁻⁵²` of the sum (`0` exactly for zero),
    /// which is a multiple of `2^LSB` (the sum is, and rounding to 53 bits
    /// keeps that).
    fn approx(&self) -> f64 {
        let (sign, d) = self.magnitude();
        if sign == 0 {
            return 0.0;
        }
        let top = (0..LIMBS).rev().find(|&i| d[i] != 0).unwrap_or(0);
        let lo = top.saturating_sub(2);
        let mut v: u128 = 0;
        for i in (lo..=top).rev() {
            v = (v << 32) | d[i] as u128;
        }
        // At most 96 bits; the dropped digits are below 2⁻⁶⁴ of it.
        let scale = LSB + 32 * lo as i32;
        f64::from(sign) * (v as f64) * 2f64.powi(scale)
    }

    /// The sum as a [`BoundedDd`] with its exact sign: `hi + lo` within
    /// `k·u²·m` of the sum, `m` within a few ulps of `|sum|`; an exact zero
    /// has `m = 0`.
    pub fn to_bounded_dd(&self) -> BoundedDd {
        let mut rest = self.clone();
        let hi = rest.approx();
        rest.add(-hi);
        let lo = rest.approx();
        rest.add(-lo);
        // |rest| ≤ |approx|/(1 − 2⁻⁵²) ≤ 2·|approx|.
        let r = 2.0 * rest.approx().abs();
        let (hi, lo) = two_sum(hi, lo);
        let mut x = BoundedDd::exact(hi);
        x.lo = lo;
        // m ≥ |sum| (|hi + lo| ≤ |hi|(1 + u), plus the rest).
        x.m = (hi.abs() * (1.0 + 4.0 * super::UNIT_ROUNDOFF) + r)
            * (1.0 + 4.0 * super::UNIT_ROUNDOFF);
        let u2 = super::UNIT_ROUNDOFF * super::UNIT_ROUNDOFF;
        x.k = if r == 0.0 {
            0
        } else {
            // k·u²·m ≥ r; r ≤ 2⁻¹⁰⁰·m in practice, so k stays small.
            (r / (u2 * x.m)).ceil().min(f64::from(u32::MAX >> 8)) as u32 + 1
        };
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::{Dyadic, SignOrdering};
    use proptest::prelude::*;

    fn exact_product(sign: f64, factors: &[(f64, f64)]) -> Dyadic {
        let mut p = Dyadic::from_f64(sign);
        for &(hi, lo) in factors {
            let (a, b, j) = Dyadic::from_f64(hi).common(&Dyadic::from_f64(lo));
            let f = Dyadic::new(a + b, j);
            p = Dyadic::new(&p.num * &f.num, p.exp + f.exp);
        }
        p
    }

    fn coord() -> impl Strategy<Value = f64> {
        prop_oneof![
            Just(0.0),
            Just(1.0),
            (-1e3f64..1e3).prop_filter("range", |x| crate::math::in_filter_range(*x)),
            (-1e-17f64..1e-17).prop_filter("range", |x| crate::math::in_filter_range(*x)),
            (1u32..100).prop_map(|n| n as f64 / 3.0),
        ]
    }

    proptest! {
        /// Sums of signed products of differences: the sign is exact and the
        /// double-double encloses the sum.
        #[test]
        fn sign_and_rounding_are_exact(
            terms in proptest::collection::vec(
                (any::<bool>(), proptest::collection::vec((coord(), coord()), 1..5)),
                1..6,
            ),
        ) {
            let mut acc = ExactSum::new();
            let mut want = Dyadic::zero();
            for (neg, diffs) in &terms {
                let factors: Vec<(f64, f64)> = diffs.iter().map(|&(a, b)| two_sum(a, -b)).collect();
                let sign = if *neg { -1.0 } else { 1.0 };
                acc.add_product(sign, &factors);
                let p = exact_product(sign, &factors);
                let (x, y, j) = want.common(&p);
                want = Dyadic::new(x + y, j);
            }
            prop_assert!(acc.is_exact());
            prop_assert_eq!(acc.sign(), want.num.sign_ordering() as i8);
            let dd = acc.to_bounded_dd();
            let (a, b, j) = Dyadic::from_f64(dd.hi).common(&Dyadic::from_f64(dd.lo));
            let got = Dyadic::new(a + b, j);
            let (x, y, j) = got.common(&want);
            let err = Dyadic::new((x - y).magnitude().clone().into(), j);
            prop_assert!(err <= Dyadic::from_f64(dd.error_bound()), "{dd:?}");
            prop_assert_eq!(dd.sign(), Some(acc.sign()));
        }
    }

    #[test]
    fn cancellation_to_an_exact_zero() {
        let mut acc = ExactSum::new();
        let third = 1.0 / 3.0;
        // (a − b)(c − d) − (c − d)(a − b) = 0 with inexact differences.
        let ab = two_sum(1.0, -third);
        let cd = two_sum(third, -1e-17);
        acc.add_product(1.0, &[ab, cd]);
        acc.add_product(-1.0, &[cd, ab]);
        assert_eq!(acc.sign(), 0);
        assert!(acc.to_bounded_dd().is_exact_zero());
        acc.add(2f64.powi(-560));
        assert_eq!(acc.sign(), 1);
        assert!(!ExactSum::new().add(2f64.powi(-600)));
    }
}
