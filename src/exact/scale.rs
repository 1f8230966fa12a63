//! Exact conversion of doubles to integers on a common scale, the first
//! step of the exact oracle (docs/design.md §9, item 8).
//!
//! Every finite double is `m · 2^e` with an integer `m`. For a set of doubles,
//! `X_i = x_i / 2^E` with `E` the smallest exponent among them is an integer,
//! and every condition of the CCD problem is a homogeneous polynomial in the
//! coordinates, so its sign is the same for `x` and `X`.

use num_bigint::BigInt;
use num_traits::Zero;

/// Splits a finite double into `(m, e)` with `x = m · 2^e`, `m` odd (or zero).
///
/// # Panics
/// When `x` is NaN or infinite (it has no such form).
pub fn decompose(x: f64) -> (i64, i32) {
    assert!(x.is_finite(), "decompose: {x} is not a finite double");
    if x == 0.0 {
        return (0, 0);
    }
    let bits = x.to_bits();
    let sign = if bits >> 63 == 1 { -1 } else { 1 };
    let exp_bits = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    let (mut m, mut e) = if exp_bits == 0 {
        (frac as i64, -1074)
    } else {
        ((frac | (1u64 << 52)) as i64, exp_bits - 1075)
    };
    let tz = m.trailing_zeros() as i32;
    m >>= tz;
    e += tz;
    (sign * m, e)
}

/// The integers `x_i / 2^E` for the common exponent `E = min e_i`.
///
/// # Panics
/// When an `x_i` is NaN or infinite ([`decompose`]).
pub fn to_common_scale<const N: usize>(xs: &[f64; N]) -> [BigInt; N] {
    let parts = xs.map(decompose);
    let e_min = parts
        .iter()
        .filter(|(m, _)| *m != 0)
        .map(|&(_, e)| e)
        .min()
        .unwrap_or(0);
    parts.map(|(m, e)| {
        if m == 0 {
            BigInt::zero()
        } else {
            BigInt::from(m) << ((e - e_min) as u32)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decomposition_is_exact() {
        for x in [1.0, -0.75, 3.0e-310, f64::MAX, -f64::MIN_POSITIVE, 6.5] {
            let (m, e) = decompose(x);
            assert!(m % 2 != 0);
            // m · 2^e == x, checked in two steps to stay within range.
            let back = (m as f64) * 2f64.powi(e / 2) * 2f64.powi(e - e / 2);
            assert_eq!(back, x, "{x}");
        }
        assert_eq!(decompose(0.0), (0, 0));
    }

    #[test]
    fn common_scale_preserves_ratios() {
        let s = to_common_scale(&[0.5, -3.0, 0.0, 0.125]);
        assert_eq!(s, [4, -24, 0, 1].map(BigInt::from));
    }
}
