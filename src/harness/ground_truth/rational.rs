//! Exact conversion of a decimal rational `numerator / denominator` to `f64`.
//!
//! The query files of Wang et al. 2021 store every coordinate as a pair of
//! integers whose quotient is exactly a double. Numerators and denominators
//! can exceed 64 bits (a subnormal needs a denominator up to 2¹⁰⁷⁴), so the
//! general path uses `num-bigint`; a `u64` path covers the common case. Both
//! compose the double from its bits, so no rounding ever happens: a value that
//! is not exactly a double is refused, with the reason.
//!
//! A double is `m · 2^e` with `m` odd, `bits(m) ≤ 53`, `e ≥ −1074` (the
//! lowest subnormal bit) and top bit `e + bits(m) − 1 ≤ 1023` (IEEE 754-2019,
//! §3.4, binary64).

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{ToPrimitive, Zero};

use crate::printable::excerpt;

/// Why `numerator / denominator` was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RationalError {
    /// A field is not an integer (optional sign, then decimal digits).
    #[error("`{0}` is not an integer")]
    NotAnInteger(String),
    /// A field with more digits than [`MAX_DIGITS`], refused before it is
    /// converted (a million-digit field would take minutes).
    #[error("an integer of {0} digits; a coordinate needs at most {MAX_DIGITS}")]
    TooManyDigits(usize),
    /// The denominator is zero.
    #[error("zero denominator")]
    ZeroDenominator,
    /// In lowest terms the denominator is not a power of two.
    #[error(
        "not a double: in lowest terms the denominator {0} is not a power of two (the value is not a binary fraction)"
    )]
    NotDyadic(String),
    /// More significant bits than the 53 of a double.
    #[error("not a double: {0} significant bits (a double has 53)")]
    TooManyBits(u64),
    /// Beyond the largest finite double, or needing a bit below `2^−1074`.
    #[error("not a double: {0}")]
    OutOfRange(&'static str),
}

/// The sign and magnitude of an integer field: `u64` when it fits.
enum Magnitude {
    Small(u64),
    Big(BigUint),
}

/// The most decimal digits (leading zeros included) a numerator or
/// denominator may have. In lowest terms a double needs at most 324: its
/// numerator is below `2^1024` (309 digits), its denominator at most
/// `2^1074` (324 digits); the margin admits fractions not in lowest terms.
pub const MAX_DIGITS: usize = 1_000;

/// `true` when `field` is `[+-]digits` (surrounding spaces allowed).
pub(crate) fn is_integer(field: &str) -> bool {
    parse_integer(field).is_ok()
}

/// Parses `[+-]digits` (surrounding spaces allowed).
fn parse_integer(field: &str) -> Result<(bool, Magnitude), RationalError> {
    let t = field.trim();
    let (negative, digits) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(RationalError::NotAnInteger(
            excerpt(field.trim()).into_owned(),
        ));
    }
    if digits.len() > MAX_DIGITS {
        return Err(RationalError::TooManyDigits(digits.len()));
    }
    let magnitude = match digits.parse::<u64>() {
        Ok(v) => Magnitude::Small(v),
        // Only overflow can fail here: the digits were checked.
        Err(_) => Magnitude::Big(
            BigUint::parse_bytes(digits.as_bytes(), 10)
                .ok_or_else(|| RationalError::NotAnInteger(excerpt(field.trim()).into_owned()))?,
        ),
    };
    Ok((negative, magnitude))
}

/// `numerator / denominator` as the double it equals exactly.
///
/// Zero is returned as `+0.0` whatever the signs.
pub fn rational_to_f64(numerator: &str, denominator: &str) -> Result<f64, RationalError> {
    let (neg_n, n) = parse_integer(numerator)?;
    let (neg_d, d) = parse_integer(denominator)?;
    let negative = neg_n != neg_d;
    match (n, d) {
        (Magnitude::Small(n), Magnitude::Small(d)) => ratio_u64(negative, n, d),
        (n, d) => ratio_big(negative, n.into_big(), d.into_big()),
    }
}

/// The exact value of a finite double as `(numerator, denominator)` in
/// decimal and in lowest terms, the denominator a power of two: what
/// [`rational_to_f64`] reads back as `x` (`−0.0` is written `0/1`, which
/// reads back as `+0.0`). The form the query files store coordinates in.
///
/// # Panics
/// When `x` is NaN or infinite (no rational is).
pub fn f64_to_rational(x: f64) -> (String, String) {
    assert!(x.is_finite(), "{x} is not a rational number");
    if x == 0.0 {
        return ("0".into(), "1".into());
    }
    // x = ±m · 2^e (IEEE 754 binary64: a biased exponent field of 0 is the
    // subnormals' 2^−1074 scale without the implicit bit).
    let bits = x.to_bits();
    let field = ((bits >> 52) & 0x7ff) as i64;
    let fraction = bits & ((1 << 52) - 1);
    let (m, e) = if field == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1 << 52), field - 1075)
    };
    let tz = m.trailing_zeros();
    let (m, e) = (m >> tz, e + i64::from(tz));
    let sign = if x < 0.0 { "-" } else { "" };
    if e >= 0 {
        (
            format!("{sign}{}", BigUint::from(m) << e as u64),
            "1".into(),
        )
    } else {
        (
            format!("{sign}{m}"),
            (BigUint::from(1u8) << (-e) as u64).to_string(),
        )
    }
}

impl Magnitude {
    fn into_big(self) -> BigUint {
        match self {
            Magnitude::Small(v) => BigUint::from(v),
            Magnitude::Big(v) => v,
        }
    }
}

/// The fast path: both magnitudes fit in 64 bits.
pub(crate) fn ratio_u64(negative: bool, n: u64, d: u64) -> Result<f64, RationalError> {
    if d == 0 {
        return Err(RationalError::ZeroDenominator);
    }
    if n == 0 {
        return Ok(0.0);
    }
    let g = n.gcd(&d);
    let (n, d) = (n / g, d / g);
    if !d.is_power_of_two() {
        return Err(RationalError::NotDyadic(d.to_string()));
    }
    let tz = n.trailing_zeros();
    compose(
        negative,
        n >> tz,
        i64::from(tz) - i64::from(d.trailing_zeros()),
    )
}

/// The general path.
pub(crate) fn ratio_big(negative: bool, n: BigUint, d: BigUint) -> Result<f64, RationalError> {
    if d.is_zero() {
        return Err(RationalError::ZeroDenominator);
    }
    if n.is_zero() {
        return Ok(0.0);
    }
    let g = n.gcd(&d);
    let (n, d) = (n / &g, d / &g);
    // d ≠ 0, so trailing_zeros is Some; a power of two has one bit set.
    let k = d.trailing_zeros().unwrap_or(0);
    if d.bits() != k + 1 {
        return Err(RationalError::NotDyadic(d.to_string()));
    }
    let tz = n.trailing_zeros().unwrap_or(0);
    let m = n >> tz;
    let bits = m.bits();
    let Some(m) = m.to_u64().filter(|_| bits <= 53) else {
        return Err(RationalError::TooManyBits(bits));
    };
    // Both below 2^64 bits' worth of exponent; i128 cannot overflow.
    let e = i128::from(tz) - i128::from(k);
    let e = i64::try_from(e).map_err(|_| {
        RationalError::OutOfRange(if e > 0 {
            "larger than the largest double"
        } else {
            "needs a bit below 2^-1074, the smallest subnormal"
        })
    })?;
    compose(negative, m, e)
}

/// The double `±m · 2^e`, for odd `m > 0`, built from its bits.
fn compose(negative: bool, m: u64, e: i64) -> Result<f64, RationalError> {
    debug_assert!(m % 2 == 1);
    let bits = u64::from(64 - m.leading_zeros());
    if bits > 53 {
        return Err(RationalError::TooManyBits(bits));
    }
    // Exponent of the top bit.
    let top = e.saturating_add(bits as i64 - 1);
    if top > 1023 {
        return Err(RationalError::OutOfRange("larger than the largest double"));
    }
    if e < -1074 {
        return Err(RationalError::OutOfRange(
            "needs a bit below 2^-1074, the smallest subnormal",
        ));
    }
    let magnitude = if top >= -1022 {
        // Normal: 52 fraction bits below the implicit leading one.
        let fraction = (m << (53 - bits)) & ((1u64 << 52) - 1);
        (((top + 1023) as u64) << 52) | fraction
    } else {
        // Subnormal: value = field · 2^−1074, with field < 2^52 since top < −1022.
        m << (e + 1074)
    };
    let sign = if negative { 1u64 << 63 } else { 0 };
    Ok(f64::from_bits(sign | magnitude))
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt;
    use proptest::prelude::*;

    /// The exact rational value of a finite double: (numerator, denominator).
    fn exact_ratio(x: f64) -> (BigInt, BigUint) {
        let bits = x.to_bits();
        let sign = if bits >> 63 == 1 { -1 } else { 1 };
        let field = ((bits >> 52) & 0x7ff) as i64;
        let fraction = bits & ((1 << 52) - 1);
        let (m, e) = if field == 0 {
            (fraction, -1074)
        } else {
            (fraction | (1 << 52), field - 1075)
        };
        let m = BigInt::from(sign) * BigInt::from(m);
        if e >= 0 {
            (m << e, BigUint::from(1u8))
        } else {
            (m, BigUint::from(1u8) << (-e) as u64)
        }
    }

    /// `x` written as `n/d`, scaled by `2^s` on both sides (and by an odd
    /// factor `f`), as strings.
    fn as_fields(x: f64, s: u64, f: u64) -> (String, String) {
        let (n, d) = exact_ratio(x);
        let n = (n << s) * BigInt::from(f);
        let d = (d << s) * BigUint::from(f);
        (n.to_string(), d.to_string())
    }

    #[test]
    fn doubles_written_as_rationals() {
        let w = |x: f64| f64_to_rational(x);
        assert_eq!(w(0.75), ("3".into(), "4".into()));
        assert_eq!(w(-6.0), ("-6".into(), "1".into()));
        assert_eq!(w(-0.0), ("0".into(), "1".into()));
        assert_eq!(
            w(f64::from_bits(1)).1,
            (BigUint::from(1u8) << 1074u32).to_string()
        );
        assert_eq!(w(f64::MAX).1, "1");
    }

    #[test]
    fn simple_values() {
        assert_eq!(rational_to_f64("3", "4"), Ok(0.75));
        assert_eq!(rational_to_f64(" -6 ", "8"), Ok(-0.75));
        assert_eq!(rational_to_f64("6", "-8"), Ok(-0.75));
        assert_eq!(rational_to_f64("-0", "1").map(f64::to_bits), Ok(0));
        assert_eq!(rational_to_f64("0", "7"), Ok(0.0));
        assert_eq!(rational_to_f64("3", "6"), Ok(0.5));
        assert_eq!(
            rational_to_f64("1", "3"),
            Err(RationalError::NotDyadic("3".into()))
        );
        assert_eq!(
            rational_to_f64("1", "0"),
            Err(RationalError::ZeroDenominator)
        );
        assert_eq!(
            rational_to_f64("1.5", "1"),
            Err(RationalError::NotAnInteger("1.5".into()))
        );
        assert!(matches!(
            rational_to_f64("", "1"),
            Err(RationalError::NotAnInteger(_))
        ));
        assert!(matches!(
            rational_to_f64("-", "1"),
            Err(RationalError::NotAnInteger(_))
        ));
        // 2^53 + 1 has 54 significant bits.
        assert_eq!(
            rational_to_f64("9007199254740993", "1"),
            Err(RationalError::TooManyBits(54))
        );
    }

    #[test]
    fn extremes_of_the_double_range() {
        for x in [
            f64::MAX,
            f64::MIN_POSITIVE,
            f64::MIN_POSITIVE / 2.0,
            f64::from_bits(1),
            -f64::from_bits(0x000f_ffff_ffff_ffff),
            1.0 - f64::EPSILON / 2.0,
        ] {
            let (n, d) = as_fields(x, 0, 1);
            assert_eq!(rational_to_f64(&n, &d).map(f64::to_bits), Ok(x.to_bits()));
        }
        // 2^1024 and 2^-1075 are not doubles.
        let two = BigUint::from(2u8);
        let big = two.pow(1024u32).to_string();
        assert!(matches!(
            rational_to_f64(&big, "1"),
            Err(RationalError::OutOfRange(_))
        ));
        let tiny = two.pow(1075u32).to_string();
        assert!(matches!(
            rational_to_f64("1", &tiny),
            Err(RationalError::OutOfRange(_))
        ));
        // 3 · 2^-1075: two bits, the lower one below the subnormal range.
        assert!(matches!(
            rational_to_f64("3", &tiny),
            Err(RationalError::OutOfRange(_))
        ));
    }

    fn finite_f64() -> impl Strategy<Value = f64> {
        any::<u64>()
            .prop_map(f64::from_bits)
            .prop_filter("finite", |x| x.is_finite())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Every finite double, subnormals and extremes included, is written
        /// in lowest terms as [`exact_ratio`] gives it, and read back.
        #[test]
        fn written_rationals_read_back(x in finite_f64()) {
            let (n, d) = f64_to_rational(x);
            let (en, ed) = exact_ratio(x);
            let g = num_integer::Integer::gcd(&en.magnitude().clone(), &ed);
            if x != 0.0 {
                prop_assert_eq!(&n, &(en / BigInt::from(g.clone())).to_string());
                prop_assert_eq!(&d, &(ed / g).to_string());
            }
            let back = rational_to_f64(&n, &d).unwrap();
            prop_assert_eq!(back, x);
            prop_assert!(x == 0.0 || back.to_bits() == x.to_bits());
        }

        /// Any double, written as an unreduced ratio, comes back bit for bit.
        #[test]
        fn every_double_round_trips(x in finite_f64(), s in 0u64..80, f in prop::sample::select(vec![1u64, 3, 5, 7, 9, 15, 1_000_001])) {
            let (n, d) = as_fields(x, s, f);
            let y = rational_to_f64(&n, &d).unwrap();
            // ±0 both come back as +0.
            let expected = if x == 0.0 { 0.0f64 } else { x };
            prop_assert_eq!(y.to_bits(), expected.to_bits());
        }

        /// The u64 path agrees with the big-integer path (its oracle).
        #[test]
        fn fast_path_matches_big_path(neg: bool, n: u64, d: u64) {
            let fast = ratio_u64(neg, n, d);
            let big = ratio_big(neg, BigUint::from(n), BigUint::from(d));
            prop_assert_eq!(fast.map(f64::to_bits), big.map(f64::to_bits));
        }

        /// Whatever the result, an `Ok` is exactly the ratio: x·d = n.
        #[test]
        fn accepted_values_are_exact(n in -(1i128 << 100)..(1i128 << 100), k in 0u32..1200, odd in prop::sample::select(vec![1u64, 1, 1, 3])) {
            let d = (BigUint::from(1u8) << k) * BigUint::from(odd);
            if let Ok(x) = rational_to_f64(&n.to_string(), &d.to_string()) {
                let (xn, xd) = exact_ratio(x);
                prop_assert_eq!(xn * BigInt::from(d), BigInt::from(n) * BigInt::from(xd));
            }
        }
    }
}
