//! Fixed-width signed integers, 768 bits in two's complement, for exact
//! signs of polynomials of degree up to six in integers on a common scale:
//! no allocation and no big-integer library, so a few hundred operations
//! cost about a microsecond.
//!
//! **Scale.** [`on_common_scale`] writes doubles as integers on one
//! scale: every finite double is `m·2^e` with an odd integer `m` (or zero),
//! and with `E` the least such `e` among them, `x/2^E` is an integer. A
//! polynomial condition homogeneous in the doubles has the same sign on
//! both scales. (The same idea as [`crate::exact::to_common_scale`], written
//! apart so that the exact steps that use it share no code with the oracle
//! they are tested against.) The conversion is refused (`None`) when an
//! integer would need more than [`SCALED_BITS`] bits, so that differences are below
//! `2¹⁰¹`, a product of six of them below `2⁶⁰⁶`, and a sum of up to
//! `2³²` such products below `2⁶³⁸`. The largest values the callers form
//! are the near-start test's squared gaps along an exact normal
//! (`crate::narrow_phase`'s minimum separation: degree 6, with
//! positions scaled by up to `2⁶⁰`), below `2⁷⁴⁰`: inside the type's range.
//!
//! **Range.** Addition and subtraction wrap, as two's complement does; the
//! callers keep every value below `2⁷⁶⁷` in magnitude by the bounds above.
//! A product whose magnitude would not fit is a caller's error, caught by a
//! debug assertion.
//!
//! docs/design.md §8 ("Exact sums").

use std::ops::{Add, Mul, Neg, Shl, Sub};

/// Number of 64-bit digits.
const LIMBS: usize = 12;

/// The most bits an integer from [`on_common_scale`] may need.
pub const SCALED_BITS: u32 = 100;

/// A signed integer of 768 bits, two's complement, least significant digit
/// first (module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct I768([u64; LIMBS]);

impl I768 {
    /// Zero.
    pub const ZERO: I768 = I768([0; LIMBS]);

    /// `x`, exactly.
    pub fn from_i128(x: i128) -> I768 {
        let fill = if x < 0 { u64::MAX } else { 0 };
        let mut limbs = [fill; LIMBS];
        limbs[0] = x as u64;
        limbs[1] = (x >> 64) as u64;
        I768(limbs)
    }

    /// The cross product `x × y` of integer vectors, exactly (each
    /// coordinate of magnitude below `2¹²⁶`).
    pub fn cross(x: &[i128; 3], y: &[i128; 3]) -> [I768; 3] {
        std::array::from_fn(|c| {
            let (i, j) = ((c + 1) % 3, (c + 2) % 3);
            I768::product(x[i], y[j]) - I768::product(x[j], y[i])
        })
    }

    /// `a·b`, exactly.
    pub fn product(a: i128, b: i128) -> I768 {
        let (x, y) = (a.unsigned_abs(), b.unsigned_abs());
        let low = |v: u128| u128::from(v as u64);
        let (x0, x1, y0, y1) = (low(x), x >> 64, low(y), y >> 64);
        let (p00, p01, p10, p11) = (x0 * y0, x0 * y1, x1 * y0, x1 * y1);
        // x·y = p00 + (p01 + p10)·2⁶⁴ + p11·2¹²⁸, digit by digit.
        let mid = (p00 >> 64) + low(p01) + low(p10);
        let high = (mid >> 64) + (p01 >> 64) + (p10 >> 64) + low(p11);
        let mut limbs = [0u64; LIMBS];
        limbs[0] = p00 as u64;
        limbs[1] = mid as u64;
        limbs[2] = high as u64;
        limbs[3] = ((high >> 64) + (p11 >> 64)) as u64;
        let p = I768(limbs);
        if (a < 0) != (b < 0) { -p } else { p }
    }

    /// `−1`, `0` or `1`.
    pub fn signum(&self) -> i8 {
        if self.0[LIMBS - 1] >> 63 == 1 {
            -1
        } else if self.0.iter().any(|&x| x != 0) {
            1
        } else {
            0
        }
    }

    /// The value rounded to a double, to within a few units in the last
    /// place (from its two leading digits): an estimate, for exact
    /// comparisons to check (no value in range overflows a double).
    pub fn approx(&self) -> f64 {
        let (m, used, negative) = self.magnitude();
        let v = match used {
            0 => 0.0,
            1 => m[0] as f64,
            n => {
                let top = (m[n - 1] as f64) * 2f64.powi(64) + m[n - 2] as f64;
                top * 2f64.powi(64 * (n as i32 - 2))
            }
        };
        if negative { -v } else { v }
    }

    /// The magnitude's digits and how many of them are in use, and whether
    /// the value is negative.
    fn magnitude(self) -> ([u64; LIMBS], usize, bool) {
        let negative = self.signum() < 0;
        let m = if negative { -self } else { self };
        let used = m.0.iter().rposition(|&x| x != 0).map_or(0, |i| i + 1);
        (m.0, used, negative)
    }
}

/// The doubles `xs` as integers on a common scale (module doc): `None`
/// when one is not finite or would need more than [`SCALED_BITS`] bits.
pub fn on_common_scale<const N: usize>(xs: [f64; N]) -> Option<[i128; N]> {
    let mut parts = [(0i64, 0i32); N];
    for (part, &x) in parts.iter_mut().zip(&xs) {
        *part = odd_mantissa(x)?;
    }
    let least = parts
        .iter()
        .filter(|(m, _)| *m != 0)
        .map(|&(_, e)| e)
        .min()
        .unwrap_or(0);
    let mut out = [0i128; N];
    for (o, &(m, e)) in out.iter_mut().zip(&parts) {
        if m == 0 {
            continue;
        }
        let shift = (e - least) as u32;
        if 64 - m.unsigned_abs().leading_zeros() + shift > SCALED_BITS {
            return None;
        }
        *o = i128::from(m) << shift;
    }
    Some(out)
}

/// Whether the double `c` is at least `p/q`, exactly, for `q > 0`; `None`
/// when `c` is not finite or the comparison would leave the type's range
/// (`c = m·2^e` compares as `m·q` against `p·2⁻ᵉ`, or `m·q·2ᵉ` against `p`).
pub fn at_least_ratio(c: f64, p: I768, q: I768) -> Option<bool> {
    debug_assert!(q.signum() > 0);
    let (m, e) = odd_mantissa(c)?;
    let bits = |x: &I768| {
        let (digits, used, _) = x.magnitude();
        (64 * used as u32).saturating_sub(digits[used.max(1) - 1].leading_zeros())
    };
    if bits(&q) + 54 >= 64 * LIMBS as u32 - 2 {
        return None;
    }
    let (mut lhs, mut rhs) = (q.mul_i128(i128::from(m)), p);
    let (big, k) = if e < 0 {
        (&mut rhs, e.unsigned_abs())
    } else {
        (&mut lhs, e.unsigned_abs())
    };
    if bits(big) + k >= 64 * LIMBS as u32 - 2 {
        return None;
    }
    *big = *big << k;
    Some((lhs - rhs).signum() >= 0)
}

/// `x = m·2^e` with `m` odd (or `x = 0`: `(0, 0)`); `None` when `x` is not
/// finite.
fn odd_mantissa(x: f64) -> Option<(i64, i32)> {
    if !x.is_finite() {
        return None;
    }
    if x == 0.0 {
        return Some((0, 0));
    }
    let bits = x.to_bits();
    let exp_bits = ((bits >> 52) & 0x7ff) as i32;
    let frac = (bits & ((1u64 << 52) - 1)) as i64;
    let (m, e) = if exp_bits == 0 {
        (frac, -1074)
    } else {
        (frac | (1i64 << 52), exp_bits - 1075)
    };
    let tz = m.trailing_zeros();
    let m = m >> tz;
    Some((if x < 0.0 { -m } else { m }, e + tz as i32))
}

impl Add for I768 {
    type Output = I768;
    fn add(self, o: I768) -> I768 {
        let mut out = [0u64; LIMBS];
        let mut carry = false;
        for (i, digit) in out.iter_mut().enumerate() {
            let (s, c1) = self.0[i].overflowing_add(o.0[i]);
            let (s, c2) = s.overflowing_add(u64::from(carry));
            *digit = s;
            carry = c1 || c2;
        }
        I768(out)
    }
}

impl Neg for I768 {
    type Output = I768;
    fn neg(self) -> I768 {
        I768::ZERO - self
    }
}

impl Sub for I768 {
    type Output = I768;
    fn sub(self, o: I768) -> I768 {
        let mut out = [0u64; LIMBS];
        let mut borrow = false;
        for (i, digit) in out.iter_mut().enumerate() {
            let (s, b1) = self.0[i].overflowing_sub(o.0[i]);
            let (s, b2) = s.overflowing_sub(u64::from(borrow));
            *digit = s;
            borrow = b1 || b2;
        }
        I768(out)
    }
}

impl Shl<u32> for I768 {
    type Output = I768;
    /// `self·2ᵏ`, exactly, for `k < 768` and a product in range (a caller's
    /// error otherwise, as for [`Mul`]): two's complement shifts left as an
    /// unsigned number does.
    fn shl(self, k: u32) -> I768 {
        debug_assert!((k as usize) < 64 * LIMBS, "I768 shift out of range");
        let (whole, bits) = ((k / 64) as usize, k % 64);
        let mut out = [0u64; LIMBS];
        for (from, digit) in out[whole..].iter_mut().enumerate() {
            *digit = self.0[from] << bits;
            if bits > 0 && from > 0 {
                *digit |= self.0[from - 1] >> (64 - bits);
            }
        }
        debug_assert!(self.fits_shift(k), "I768 shift out of range");
        I768(out)
    }
}

impl Mul for I768 {
    type Output = I768;
    fn mul(self, o: I768) -> I768 {
        let (b, nb, b_negative) = o.magnitude();
        self.times_magnitude(&b[..nb], b_negative)
    }
}

impl I768 {
    /// Whether `self·2ᵏ` is in range: the bits the shift moves into and
    /// past the sign bit (the top `k + 1`) all equal the sign bit.
    fn fits_shift(&self, k: u32) -> bool {
        let bits = 64 * LIMBS as u32;
        let bit = |b: u32| (self.0[(b / 64) as usize] >> (b % 64)) & 1;
        let sign = bit(bits - 1);
        (bits.saturating_sub(k + 1)..bits).all(|b| bit(b) == sign)
    }

    /// `self·x`, exactly, for a product in range ([`Mul`] with a factor of
    /// two digits at most, which skips its magnitude's ten other digits).
    pub fn mul_i128(self, x: i128) -> I768 {
        let m = x.unsigned_abs();
        let digits = [m as u64, (m >> 64) as u64];
        let nb = digits.iter().rposition(|&d| d != 0).map_or(0, |i| i + 1);
        self.times_magnitude(&digits[..nb], x < 0)
    }

    /// `self` times the magnitude `b` (least significant digit first, no
    /// digit beyond the last nonzero one), negated when `b_negative`.
    fn times_magnitude(self, b: &[u64], b_negative: bool) -> I768 {
        let (a, na, a_negative) = self.magnitude();
        let nb = b.len();
        debug_assert!(na + nb <= LIMBS + 1, "I768 product out of range");
        let mut out = [0u64; LIMBS];
        for i in 0..na {
            let mut carry: u128 = 0;
            for j in 0..nb.min(LIMBS - i) {
                let t = u128::from(a[i]) * u128::from(b[j]) + u128::from(out[i + j]) + carry;
                out[i + j] = t as u64;
                carry = t >> 64;
            }
            if i + nb < LIMBS {
                out[i + nb] = carry as u64;
            } else {
                debug_assert!(carry == 0, "I768 product out of range");
            }
        }
        debug_assert!(out[LIMBS - 1] >> 63 == 0, "I768 product out of range");
        let p = I768(out);
        if a_negative != b_negative { -p } else { p }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt;
    use proptest::prelude::*;

    fn to_big(x: I768) -> BigInt {
        let (digits, _, negative) = x.magnitude();
        let mut v = BigInt::from(0);
        for &d in digits.iter().rev() {
            v = (v << 64) + BigInt::from(d);
        }
        if negative { -v } else { v }
    }

    #[test]
    fn scale_and_sign() {
        let ints = on_common_scale([1.5, -0.25, 3.0, 0.0]).unwrap();
        assert_eq!(ints, [6, -1, 12, 0]);
        let [a, b] = [ints[0], ints[1]].map(I768::from_i128);
        assert_eq!((b - a).signum(), -1);
        assert_eq!((a - a).signum(), 0);
        assert_eq!(on_common_scale([1.0, f64::NAN]), None);
        // 1 and 2⁻¹⁰⁰ need 101 bits on one scale; 2⁻⁹⁹ needs 100.
        assert_eq!(on_common_scale([1.0, 2f64.powi(-100)]), None);
        assert!(on_common_scale([1.0, 2f64.powi(-99)]).is_some());
        assert_eq!(on_common_scale([f64::from_bits(1)]), Some([1]));
        for (x, y) in [
            (i128::MAX, i128::MAX),
            (i128::MIN + 1, i128::MAX),
            (-3, 1 << 100),
        ] {
            assert_eq!(
                to_big(I768::product(x, y)),
                BigInt::from(x) * BigInt::from(y)
            );
        }
    }

    #[test]
    fn a_shift_past_the_range_is_told_apart() {
        let top = (I768::from_i128(1) << 765) + I768::from_i128(1);
        assert!(top.fits_shift(1) && !top.fits_shift(2));
        let minus_one = I768::from_i128(-1);
        assert!(minus_one.fits_shift(767));
        assert_eq!(to_big(minus_one << 767), -(BigInt::from(1) << 767u32));
        assert!(!I768::from_i128(1).fits_shift(767));
    }

    fn small() -> impl Strategy<Value = i128> {
        prop_oneof![
            Just(0i128),
            -3i128..=3,
            any::<i64>().prop_map(i128::from),
            any::<i128>().prop_map(|x| x >> 27),
        ]
    }

    proptest! {
        /// Products of up to six factors below 2¹⁰¹ and their sums, against
        /// big integers.
        #[test]
        fn products_and_sums_are_exact(
            xs in proptest::collection::vec(small(), 1..=6),
            ys in proptest::collection::vec(small(), 1..=6),
        ) {
            let product = |v: &[i128]| {
                v.iter().fold((I768::from_i128(1), BigInt::from(1)), |(p, q), &x| {
                    (p * I768::from_i128(x), q * BigInt::from(x))
                })
            };
            let (p, pb) = product(&xs);
            let (q, qb) = product(&ys);
            prop_assert_eq!(to_big(p), pb.clone());
            prop_assert_eq!(
                to_big(I768::product(xs[0], ys[0])),
                BigInt::from(xs[0]) * BigInt::from(ys[0])
            );
            prop_assert_eq!(to_big(p - q), &pb - &qb);
            prop_assert_eq!(to_big(p + q), &pb + &qb);
            prop_assert_eq!(to_big(-p), -pb.clone());
            let sign = |b: &BigInt| match b.sign() {
                num_bigint::Sign::Minus => -1,
                num_bigint::Sign::NoSign => 0,
                num_bigint::Sign::Plus => 1,
            };
            prop_assert_eq!((p - q).signum(), sign(&(&pb - &qb)));
        }

        /// A double against a ratio of products, against big integers:
        /// the double as `m·2^e` exactly, and the ratio's estimate within a
        /// few parts in `2⁵²`.
        #[test]
        fn doubles_compare_with_ratios_exactly(
            xs in proptest::collection::vec(small(), 1..=3),
            ys in proptest::collection::vec(small(), 1..=3),
            c in prop_oneof![0.0f64..2.0, -1.0f64..0.0, Just(0.5), Just(1.0)],
            nudge in -2i32..=2,
        ) {
            let product = |v: &[i128]| {
                v.iter().fold((I768::from_i128(1), BigInt::from(1)), |(p, q), &x| {
                    (p * I768::from_i128(x), q * BigInt::from(x))
                })
            };
            let (p, pb) = product(&xs);
            let (q, qb) = product(&ys);
            prop_assume!(q.signum() > 0);
            // Near the ratio itself, where the comparison is hardest.
            let mut c = if nudge == 0 { c } else { p.approx() / q.approx() };
            for _ in 0..nudge.abs() {
                c = if nudge > 0 { c.next_up() } else { c.next_down() };
            }
            let (m, e) = odd_mantissa(c).unwrap();
            let (lhs, rhs) = if e < 0 {
                (BigInt::from(m) * &qb, pb.clone() << e.unsigned_abs())
            } else {
                ((BigInt::from(m) * &qb) << e.unsigned_abs(), pb.clone())
            };
            // Refused only where a factor would leave the range (`p` and
            // `m·q` are below 2³⁹⁰ here).
            match at_least_ratio(c, p, q) {
                Some(at_least) => prop_assert_eq!(at_least, lhs >= rhs),
                None => prop_assert!(e.unsigned_abs() > 760 - 390, "{}", c),
            }
            let big = |x: f64| {
                let (m, e) = odd_mantissa(x).unwrap();
                if e < 0 { (BigInt::from(m), -e) } else { (BigInt::from(m) << e as u32, 0) }
            };
            // |approx − p| ≤ 2⁻⁵⁰·|p|, through the scaled integers.
            let (am, ae) = big(p.approx());
            let scaled = &pb << ae.unsigned_abs();
            prop_assert!(((am - &scaled).magnitude() << 50u32) <= *scaled.magnitude());
        }

        /// Shifts are products by powers of two, for either sign.
        #[test]
        fn shifts_are_exact(xs in proptest::collection::vec(small(), 1..=4), k in 0u32..=366) {
            let (p, pb) = xs.iter().fold((I768::from_i128(1), BigInt::from(1)), |(p, q), &x| {
                (p * I768::from_i128(x), q * BigInt::from(x))
            });
            prop_assert_eq!(to_big(p << k), pb.clone() << k);
            for x in [xs[0], -xs[0], i128::MAX, i128::MIN] {
                prop_assert_eq!(to_big(p.mul_i128(x)), &pb * BigInt::from(x));
            }
            prop_assert_eq!(to_big(-p << k), -(pb << k));
        }

        /// Doubles on a common scale keep their ratios: `x·2^k` for the
        /// scale's `2^k`, checked through big integers.
        #[test]
        fn the_common_scale_is_exact(xs in proptest::array::uniform4(-1e6f64..1e6)) {
            if let Some(ints) = on_common_scale(xs) {
                // Each integer times the least exponent's power is the double.
                let least = xs
                    .iter()
                    .filter(|x| **x != 0.0)
                    .map(|&x| odd_mantissa(x).unwrap().1)
                    .min()
                    .unwrap_or(0);
                for (x, i) in xs.iter().zip(ints) {
                    let (m, e) = odd_mantissa(*x).unwrap();
                    let want = BigInt::from(m) << ((e - least) as u32);
                    prop_assert_eq!(BigInt::from(i), if *x == 0.0 { BigInt::from(0) } else { want });
                }
            }
        }
    }
}
