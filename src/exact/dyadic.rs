//! Dyadic rationals `k / 2^j`: the isolating-interval endpoints of root
//! isolation, and the exact form of every double (the exact oracles of
//! docs/design.md §9, item 8, and §5).

use std::cmp::Ordering;

use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive, Zero};

use super::poly::SignOrdering;
use super::scale::decompose;

/// The number `num / 2^exp`.
///
/// Exact: adding or comparing two dyadics first brings them to a common
/// denominator, shifting one numerator by the difference of their
/// exponents, so memory and time grow with that difference (in bits). The
/// crate's own dyadics (doubles, and intervals bisected from them) keep it
/// below a few thousand bits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dyadic {
    /// Numerator.
    pub num: BigInt,
    /// Power of two in the denominator.
    pub exp: u64,
}

impl Dyadic {
    /// `num / 2^exp`, reduced.
    pub fn new(num: BigInt, exp: u64) -> Dyadic {
        let mut d = Dyadic { num, exp };
        if d.num.is_zero() {
            d.exp = 0;
            return d;
        }
        let tz = d.num.trailing_zeros().unwrap_or(0).min(d.exp);
        if tz > 0 {
            d.num >>= tz;
            d.exp -= tz;
        }
        d
    }

    /// Zero.
    pub fn zero() -> Dyadic {
        Dyadic::new(BigInt::zero(), 0)
    }

    /// One.
    pub fn one() -> Dyadic {
        Dyadic::new(BigInt::from(1), 0)
    }

    /// The exact value of a finite double.
    ///
    /// # Panics
    /// When `x` is NaN or infinite.
    pub fn from_f64(x: f64) -> Dyadic {
        let (m, e) = decompose(x);
        if e >= 0 {
            Dyadic::new(BigInt::from(m) << e as u32, 0)
        } else {
            Dyadic::new(BigInt::from(m), (-e) as u64)
        }
    }

    /// Numerators of `self` and `other` over the common denominator `2^j`.
    pub fn common(&self, other: &Dyadic) -> (BigInt, BigInt, u64) {
        let j = self.exp.max(other.exp);
        (
            &self.num << (j - self.exp),
            &other.num << (j - other.exp),
            j,
        )
    }

    /// `(self + other) / 2`.
    pub fn midpoint(&self, other: &Dyadic) -> Dyadic {
        let (a, b, j) = self.common(other);
        Dyadic::new(a + b, j + 1)
    }

    /// `self − other`.
    pub fn sub(&self, other: &Dyadic) -> Dyadic {
        let (a, b, j) = self.common(other);
        Dyadic::new(a - b, j)
    }

    /// The largest double `≤ self`.
    pub fn to_f64_down(&self) -> f64 {
        if self.num.is_negative() {
            -magnitude_to_f64(&self.num.abs(), self.exp, true)
        } else {
            magnitude_to_f64(&self.num, self.exp, false)
        }
    }

    /// The smallest double `≥ self`.
    pub fn to_f64_up(&self) -> f64 {
        if self.num.is_negative() {
            -magnitude_to_f64(&self.num.abs(), self.exp, false)
        } else {
            magnitude_to_f64(&self.num, self.exp, true)
        }
    }
}

impl PartialOrd for Dyadic {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Dyadic {
    fn cmp(&self, other: &Self) -> Ordering {
        let (a, b, _) = self.common(other);
        (a - b).sign_ordering()
    }
}

/// `2^e` for `e` from −1074 (the least subnormal) to 1023.
fn pow2(e: i64) -> f64 {
    debug_assert!((-1074..=1023).contains(&e));
    if e >= -1022 {
        f64::from_bits(((e + 1023) as u64) << 52)
    } else {
        f64::from_bits(1 << (e + 1074))
    }
}

/// `mag / 2^exp` for `mag ≥ 0`, rounded up (`up`) or down to a double.
///
/// With `2^(top−1) ≤ mag / 2^exp < 2^top`, the doubles in that binade are
/// the multiples of `2^q`, `q = max(top − 53, −1074)` (the subnormals'
/// spacing below `2^−1022`), and every multiple of `2^q` below `2^top` is a
/// double; so the result is `⌊mag / 2^(exp + q)⌋ · 2^q`, plus `2^q` when
/// rounding up a value that is not a multiple, the multiplier below `2^53`
/// (at most `2^53` after the `+ 1`) and the product exact. (It had been computed from the
/// lowest bit of a 53-bit numerator alone, and values below about
/// `2^−970` went to `0` or `2^−1022` whatever their size: rounded "up",
/// a value in `[2^−1022, 2^−970)` came out below itself.)
fn magnitude_to_f64(mag: &BigInt, exp: u64, up: bool) -> f64 {
    if mag.is_zero() {
        return 0.0;
    }
    let top = mag.bits() as i64 - exp as i64;
    if top > 1024 {
        return if up { f64::INFINITY } else { f64::MAX };
    }
    let q = (top - 53).max(-1074);
    // The numerator's bits below the spacing `2^q` (none if `drop ≤ 0`).
    let drop = q + exp as i64;
    let (m, exact) = if drop <= 0 {
        (mag << (-drop) as u64, true)
    } else {
        let m = mag >> drop as u64;
        let exact = (&m << drop as u64) == *mag;
        (m, exact)
    };
    let mut mf = m.to_u64().expect("below 2^53") as f64;
    if up && !exact {
        mf += 1.0; // m < 2^53, so m + 1 ≤ 2^53 is exact
    }
    // `mf · 2^q` is a double (or, at 2^1024, the overflow to infinity that
    // rounding up past `f64::MAX` asks for), so the product is exact.
    mf * pow2(q)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_doubles() {
        for x in [
            0.0,
            1.0,
            0.1,
            3.814697265625e-06,
            1.0 - f64::EPSILON / 2.0,
            -2.5,
        ] {
            let d = Dyadic::from_f64(x);
            assert_eq!(d.to_f64_down(), x);
            assert_eq!(d.to_f64_up(), x);
        }
    }

    #[test]
    fn rounds_in_the_asked_direction() {
        // ¾ + 2⁻⁵⁵ needs 55 significant bits.
        let odd = Dyadic::new((BigInt::from(3) << 53u32) + 1, 55);
        let down = odd.to_f64_down();
        let up = odd.to_f64_up();
        assert!(Dyadic::from_f64(down) < odd);
        assert!(Dyadic::from_f64(up) > odd);
        assert_eq!(down.next_up(), up);
    }

    #[test]
    fn ordering_and_midpoint() {
        let a = Dyadic::new(BigInt::from(1), 2);
        let b = Dyadic::new(BigInt::from(3), 3);
        assert!(a < b);
        assert_eq!(a.midpoint(&b), Dyadic::new(BigInt::from(5), 4));
        assert_eq!(
            Dyadic::new(BigInt::from(4), 3),
            Dyadic::new(BigInt::from(1), 1)
        );
    }

    /// `down ≤ d ≤ up`, each exact or the neighbour of the other, checked
    /// exactly (`Dyadic::from_f64`).
    fn assert_brackets(d: &Dyadic) {
        let (down, up) = (d.to_f64_down(), d.to_f64_up());
        if down.is_finite() {
            assert!(Dyadic::from_f64(down) <= *d, "{d:?}: down {down:e}");
        }
        if up.is_finite() {
            assert!(Dyadic::from_f64(up) >= *d, "{d:?}: up {up:e}");
        } else {
            assert!(Dyadic::from_f64(f64::MAX) < *d, "{d:?}: up {up:e}");
        }
        assert!(
            down == up || down.next_up() == up,
            "{d:?}: {down:e}, {up:e}"
        );
    }

    /// Regression (exact vertex–face oracle on coordinates of mixed
    /// magnitudes, a time of impact near 9.3e−302): 61 significant bits at
    /// about `2^−1000` rounded "up" to `2^−1022`, below the value.
    #[test]
    fn rounds_in_the_asked_direction_far_below_one() {
        let d = Dyadic::new((BigInt::from(1) << 60u32) + 1, 1060);
        assert_eq!(d.to_f64_up(), (2f64.powi(-1000)).next_up());
        assert_eq!(d.to_f64_down(), 2f64.powi(-1000));
        for (num, exp) in [
            ((BigInt::from(1) << 60u32) + 1, 1060u64),
            (BigInt::from(3), 1075), // 1.5 · 2⁻¹⁰⁷⁴: between subnormals
            (BigInt::from(1), 1076), // below the least subnormal
            ((BigInt::from(1) << 53u32) - 1, 1075), // just below 2⁻¹⁰²¹
            ((BigInt::from(1) << 80u32) + 7, 1102), // just above 2⁻¹⁰²²
            ((BigInt::from(1) << 1024u32) - 1, 0), // above f64::MAX
            (
                (BigInt::from(1) << 1024u32) - (BigInt::from(1) << 970u32),
                0,
            ), // f64::MAX
        ] {
            assert_brackets(&Dyadic::new(num.clone(), exp));
            assert_brackets(&Dyadic::new(-num, exp));
        }
    }

    proptest::proptest! {
        /// Over the whole range of doubles, subnormals and overflow
        /// included: numerators of up to 120 bits at any scale.
        #[test]
        fn rounding_brackets_the_value(
            bits in 1u32..120,
            low in proptest::prelude::any::<u128>(),
            exp in 0u64..1250,
            negative in proptest::prelude::any::<bool>(),
        ) {
            let num = (BigInt::from(1) << (bits - 1)) + (BigInt::from(low) >> (129 - bits));
            let num = if negative { -num } else { num };
            // Scales from 2⁻¹²⁵⁰ up to about 2¹²⁰ (exp 0 with a large numerator)
            // and, shifted, beyond 2¹⁰²⁴.
            assert_brackets(&Dyadic::new(num.clone(), exp));
            assert_brackets(&Dyadic::new(num << 960u32, exp));
        }
    }
}
