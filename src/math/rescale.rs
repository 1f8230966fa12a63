//! A query scaled by a power of two into the filtered paths' range
//! ([`in_filter_range`]): coordinates far from 1 (every one below about
//! `2⁻⁸⁷`, or some above `2²⁰⁰`) otherwise send every query to the exact
//! path.
//!
//! Multiplying every coordinate by `2ˢ` is exact when each product is a
//! normal double, and it scales every distance by `2ˢ` while keeping every
//! time: contact, its time and the solvers' brackets are questions about
//! the scaled query as much as about the original (docs/design.md §8,
//! "Range"). The scale exists when the coordinates span at most the range's
//! width: with `E` the largest exponent (`2ᴱ ≤ |x| < 2ᴱ⁺¹`) and `L` the
//! lowest set bit (`x` a multiple of `2ᴸ`) over the non-zero coordinates,
//! `s` must satisfy `L + s ≥ −140` and `E + s ≤ 199`; of those, the one
//! nearest to `−E` is taken (the largest coordinate near 1).

use super::bounded::{FILTER_LSB_MIN, in_filter_range};
use super::scalar::Vec3;

/// The largest exponent `E + s` a scaled coordinate may have
/// (`|x·2ˢ| < 2²⁰⁰`).
const TOP_EXPONENT: i32 = 199;

/// The points times `2ˢ` for the `s` of the module doc, or `None` when no
/// power of two brings every coordinate into [`in_filter_range`] (or one is
/// not finite).
pub(crate) fn scaled_into_range<const M: usize>(points: &[&Vec3; M]) -> Option<[Vec3; M]> {
    let mut top = i32::MIN;
    let mut lowest = i32::MAX;
    for p in points {
        for x in [p.x, p.y, p.z] {
            if !x.is_finite() {
                return None;
            }
            if x == 0.0 {
                continue;
            }
            let bits = x.to_bits();
            let exp_bits = ((bits >> 52) & 0x7ff) as i32;
            let frac = bits & ((1u64 << 52) - 1);
            let (mantissa, exp) = if exp_bits == 0 {
                (frac, -1074)
            } else {
                (frac | (1u64 << 52), exp_bits - 1075)
            };
            top = top.max(exp + 63 - mantissa.leading_zeros() as i32);
            lowest = lowest.min(exp + mantissa.trailing_zeros() as i32);
        }
    }
    if top == i32::MIN {
        return Some(std::array::from_fn(|i| *points[i]));
    }
    let (least, most) = (FILTER_LSB_MIN - lowest, TOP_EXPONENT - top);
    if least > most {
        return None;
    }
    let s = (-top).clamp(least, most);
    // |s| ≤ 1074 + 140: in two factors, each a normal power of two.
    let (a, b) = (s / 2, s - s / 2);
    let scaled = |x: f64| x * 2f64.powi(a) * 2f64.powi(b);
    let q: [Vec3; M] = std::array::from_fn(|i| {
        Vec3::new(
            scaled(points[i].x),
            scaled(points[i].y),
            scaled(points[i].z),
        )
    });
    debug_assert!(q.iter().all(|p| p.iter().all(|&x| in_filter_range(x))));
    Some(q)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refs<const M: usize>(q: &[Vec3; M]) -> [&Vec3; M] {
        std::array::from_fn(|i| &q[i])
    }

    #[test]
    fn tiny_and_huge_queries_are_brought_into_range_exactly() {
        for k in [-1000, -600, -150, -100, 250, 600, 1000] {
            let q = [Vec3::new(1.0, -0.75, 0.5), Vec3::new(3.0, 0.0, -1.25)];
            let scaled: [Vec3; 2] = q.map(|p| p * 2f64.powi(k));
            let back = scaled_into_range(&refs(&scaled)).expect("a scale");
            // The largest coordinate, 3·2ᵏ, lands at 1.5: the query times 2⁻¹.
            for (b, p) in back.iter().zip(&q) {
                assert_eq!(*b, *p * 0.5, "k = {k}");
            }
        }
        // Subnormal coordinates, exactly.
        let tiny = [Vec3::new(5e-324, 0.0, -1e-320)];
        let back = scaled_into_range(&refs(&tiny)).expect("a scale");
        assert!(back[0].iter().all(|&x| in_filter_range(x)));
        assert_eq!(back[0].z / back[0].x, -1e-320 / 5e-324);
        // Spans wider than the range, and non-finite values, have no scale.
        let wide = [Vec3::new(1e-300, 1e300, 0.0)];
        assert_eq!(scaled_into_range(&refs(&wide)), None);
        let nan = [Vec3::new(f64::NAN, 1.0, 0.0)];
        assert_eq!(scaled_into_range(&refs(&nan)), None);
        // All zero: unchanged.
        let zero = [Vec3::new(0.0, 0.0, 0.0)];
        assert_eq!(scaled_into_range(&refs(&zero)), Some(zero));
    }
}
