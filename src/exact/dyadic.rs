//! Dyadic rationals `k / 2^j`: the isolating-interval endpoints of root
//! isolation, and the exact form of every double.

use std::cmp::Ordering;

use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive, Zero};

use super::poly::SignOrdering;
use super::scale::decompose;

/// The number `num / 2^exp`.
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

/// `2^e` for `e` in the normal range.
fn pow2(e: i64) -> f64 {
    debug_assert!((-1022..=1023).contains(&e));
    f64::from_bits(((e + 1023) as u64) << 52)
}

/// `mag / 2^exp` for `mag ≥ 0`, rounded up (`up`) or down.
fn magnitude_to_f64(mag: &BigInt, exp: u64, up: bool) -> f64 {
    if mag.is_zero() {
        return 0.0;
    }
    let bits = mag.bits() as i64;
    let shift = (bits - 53).max(0);
    let m = mag >> shift as u64;
    let exact = shift == 0 || (&m << shift as u64) == *mag;
    // value = m' · 2^e with m' = mag / 2^shift ∈ [m, m + 1).
    let e = shift - exp as i64;
    let top = e + 53; // value < 2^top
    if top > 1024 {
        return if up { f64::INFINITY } else { f64::MAX };
    }
    if e < -1022 {
        // Below the normal range: too small to matter for a time of impact,
        // kept conservative.
        return if up { f64::MIN_POSITIVE } else { 0.0 };
    }
    let mut mf = m.to_u64().expect("at most 53 bits") as f64;
    if up && !exact {
        mf += 1.0; // m < 2^53, so m + 1 ≤ 2^53 is exact
    }
    if e > 1023 {
        return mf * pow2(1023) * pow2(e - 1023);
    }
    mf * pow2(e)
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
}
