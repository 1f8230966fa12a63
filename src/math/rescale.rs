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
    let Some((top, lowest)) = exponent_span(points)? else {
        return Some(std::array::from_fn(|i| *points[i]));
    };
    let (least, most) = (FILTER_LSB_MIN - lowest, TOP_EXPONENT - top);
    if least > most {
        return None;
    }
    // |s| ≤ 1074 + 140.
    let s = (-top).clamp(least, most);
    let q = each_coordinate(points, |x| times_pow2(x, s));
    debug_assert!(q.iter().all(|p| p.iter().all(|&x| in_filter_range(x))));
    Some(q)
}

/// `(E, L)` over the non-zero coordinates (module doc: the largest
/// exponent, `2ᴱ ≤ |x| < 2ᴱ⁺¹`, and the lowest set bit, `x` a multiple of
/// `2ᴸ`; subnormals included); `Some(None)` when every one is zero, `None`
/// when one is not finite.
fn exponent_span<const M: usize>(points: &[&Vec3; M]) -> Option<Option<(i32, i32)>> {
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
    Some((top != i32::MIN).then_some((top, lowest)))
}

/// The points with `f` applied to every coordinate.
fn each_coordinate<const M: usize>(points: &[&Vec3; M], f: impl Fn(f64) -> f64) -> [Vec3; M] {
    std::array::from_fn(|i| Vec3::new(f(points[i].x), f(points[i].y), f(points[i].z)))
}

/// `x·2ˢ` for `|s| ≤ 1500`, in two factors, each a normal power of two:
/// exact where the product is a normal double, else rounded once (an
/// underflow, by at most `2⁻¹⁰⁷⁵`).
#[inline]
pub(crate) fn times_pow2(x: f64, s: i32) -> f64 {
    debug_assert!(s.abs() <= 1500);
    let (a, b) = (s / 2, s - s / 2);
    x * 2f64.powi(a) * 2f64.powi(b)
}

/// For coordinates that span more bits than the filter range, where
/// [`scaled_into_range`] finds no exact scale: the points times `2ˢ`, each
/// coordinate rounded to the nearest multiple of `2⁻¹⁴⁰`, and `s`, chosen
/// to put the largest coordinate just below `2²⁰⁰` (the scale that keeps
/// the most bits of the small ones). Every coordinate then passes
/// [`in_filter_range`], and each moved by at most `2⁻¹⁴¹` (plus, where an
/// intermediate product underflowed, `2⁻¹²¹⁴`): every point by less than
/// `2⁻¹⁴⁰` in the Euclidean norm. Not exact: a caller must widen its
/// distances by that move (docs/design.md §5, tier 4). `None` when a
/// coordinate is not finite or every one is zero.
pub(crate) fn snapped_into_range<const M: usize>(points: &[&Vec3; M]) -> Option<([Vec3; M], i32)> {
    let (top, _) = exponent_span(points)??;
    let s = TOP_EXPONENT - top;
    let grid = -FILTER_LSB_MIN;
    let q = each_coordinate(points, |x| {
        times_pow2(times_pow2(x, s + grid).round(), -grid)
    });
    debug_assert!(q.iter().all(|p| p.iter().all(|&x| in_filter_range(x))));
    Some((q, s))
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

    #[test]
    fn wide_spans_are_snapped_into_range_within_half_a_grid_step() {
        let wide = [
            Vec3::new(1e-300, 1e300, 0.0),
            Vec3::new(5e-324, -3.0, 1.0),
            Vec3::new(-1e300, 2f64.powi(900), -1e-30),
        ];
        let (q, s) = snapped_into_range(&refs(&wide)).expect("a snap");
        // The largest coordinate, 1e300 (2⁹⁹⁶ ≤ 1e300 < 2⁹⁹⁷), lands just below 2²⁰⁰.
        assert_eq!(s, 199 - 996);
        for (a, b) in q.iter().zip(&wide) {
            for k in 0..3 {
                assert!(in_filter_range(a[k]), "{a:?}");
                let moved = (a[k] - times_pow2(b[k], s)).abs();
                assert!(moved <= 2f64.powi(-141), "{} → {}", b[k], a[k]);
            }
        }
        // What the scale keeps is exact, what falls below the grid is zero.
        assert_eq!(q[0].y, times_pow2(1e300, s));
        assert_eq!((q[1].x, q[1].y, q[0].x), (0.0, 0.0, 0.0));
        // Subnormal leading bits, and no finite non-zero coordinate.
        let (q, s) = snapped_into_range(&refs(&[Vec3::new(5e-324, 0.0, 0.0)])).expect("a snap");
        assert_eq!((q[0].x, s), (2f64.powi(199), 199 + 1074));
        assert_eq!(snapped_into_range(&refs(&[Vec3::zeros()])), None);
        assert_eq!(
            snapped_into_range(&refs(&[Vec3::new(f64::INFINITY, 0.0, 0.0)])),
            None
        );
    }
}
