//! Exact 2D predicates on `f64` inputs: orientation, closed segment
//! intersection, point on segment.
//!
//! `orient2d` follows the filter-then-exact pattern of Shewchuk, "Adaptive
//! Precision Floating-Point Arithmetic and Fast Robust Geometric Predicates",
//! *Discrete & Computational Geometry* 18(3), 1997, §4 (stage A of
//! `orient2d`). The floating-point stage decides when the computed determinant
//! clears an error bound derived below from [`UNIT_ROUNDOFF`]; otherwise the
//! determinant is evaluated exactly in big-integer arithmetic on the doubles'
//! integer mantissas (every finite double is `m·2^e` with integer `m`, `|m| <
//! 2⁵³`), instead of Shewchuk's expansion stages B–D. The exact stage is exact
//! for every finite input, including subnormals and values whose differences
//! overflow, which the expansion arithmetic does not promise.
//!
//! Every predicate here returns the sign of the exact real-number quantity for
//! the doubles it is given; nothing is rounded into the answer.
//!
//! docs/design.md §3, "2D polygons in the crate".

use crate::math::{Real, TINY, UNIT_ROUNDOFF, gamma};
use num_bigint::BigInt;
use num_traits::Signed;
use std::cmp::Ordering;

use super::polygon::Vec2;

/// Relative bound for the floating-point stage of [`orient2d`].
///
/// With `L = (ax−cx)(by−cy)` and `R = (ay−cy)(bx−cx)`, each computed factor
/// carries one rounding and each product another, so the computed `L̂ = L(1+θ₃)`,
/// `R̂ = R(1+θ₃')` with `|θ₃| ≤ γ₃` (Higham 2002, Lemma 3.1), and the final
/// subtraction one more: `|D̂ − (L−R)| ≤ u|D̂| + γ₃/(1−γ₃)·(|L̂|+|R̂|)`. The sum
/// `S = |L̂|+|R̂|` itself is rounded once. `|D̂| > γ₄·Ŝ` then implies
/// `|D̂|(1−u) > γ₃/(1−γ₃)·S`, so the sign of `D̂` is the sign of `L−R`
/// (γ₄ = 5u against the ≈3u needed; Shewchuk's `ccwerrboundA` is `(3+16ε)ε`).
fn orient_bound() -> Real {
    gamma(4)
}

/// Below this `S` the relative model can fail through underflow of the
/// products (absolute error up to 2⁻¹⁰⁷⁵ each). For `S ≥ TINY/u = 2⁻⁹⁶⁹` the
/// slack `(5u − 3.0001u)·S ≥ 2⁻¹⁰²¹` covers those absolute errors.
const MIN_FILTERED: Real = TINY / UNIT_ROUNDOFF;

/// Sign of the orientation determinant
/// `det(b − a, c − a) = (ax−cx)(by−cy) − (ay−cy)(bx−cx)`:
/// `Greater` when `a, b, c` turn counter-clockwise (c left of a→b), `Less`
/// when clockwise, `Equal` when collinear. Exact for all finite inputs.
#[inline]
pub fn orient2d(a: Vec2, b: Vec2, c: Vec2) -> Ordering {
    let detleft = (a.x - c.x) * (b.y - c.y);
    let detright = (a.y - c.y) * (b.x - c.x);
    let det = detleft - detright;
    let detsum = detleft.abs() + detright.abs();
    if detsum.is_finite() && detsum >= MIN_FILTERED {
        let bound = orient_bound() * detsum;
        if det > bound {
            return Ordering::Greater;
        }
        if -det > bound {
            return Ordering::Less;
        }
    }
    orient2d_exact(a, b, c)
}

/// `x = m·2^e` with integer `m` (sign included) for a finite double `x`.
fn mantissa_exponent(x: Real) -> (i64, i32) {
    let bits = x.to_bits();
    let negative = bits >> 63 != 0;
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let frac = (bits & ((1u64 << 52) - 1)) as i64;
    let (m, e) = if biased == 0 {
        (frac, -1074)
    } else {
        (frac | (1i64 << 52), biased - 1075)
    };
    (if negative { -m } else { m }, e)
}

/// The exact stage: all six coordinates scaled by one common power of two to
/// integers, then the determinant in big integers. Scaling every coordinate by
/// `2^k` scales the determinant by `2^{2k} > 0`, so its sign is unchanged.
#[cold]
pub fn orient2d_exact(a: Vec2, b: Vec2, c: Vec2) -> Ordering {
    let coords = [a.x, a.y, b.x, b.y, c.x, c.y];
    let parts = coords.map(mantissa_exponent);
    let emin = parts.iter().map(|&(_, e)| e).min().unwrap_or(0);
    let big = parts.map(|(m, e)| BigInt::from(m) << ((e - emin) as usize));
    let [ax, ay, bx, by, cx, cy] = big;
    let det = (&ax - &cx) * (&by - &cy) - (&ay - &cy) * (&bx - &cx);
    if det.is_positive() {
        Ordering::Greater
    } else if det.is_negative() {
        Ordering::Less
    } else {
        Ordering::Equal
    }
}

/// `true` when `p`, known to be collinear with `a` and `b`, lies on the closed
/// segment `[a, b]`. Coordinate comparisons only, hence exact.
#[inline]
fn collinear_point_within(p: Vec2, a: Vec2, b: Vec2) -> bool {
    a.x.min(b.x) <= p.x && p.x <= a.x.max(b.x) && a.y.min(b.y) <= p.y && p.y <= a.y.max(b.y)
}

/// `true` when `p` lies on the closed segment `[a, b]` (exact).
#[inline]
pub fn point_on_segment(p: Vec2, a: Vec2, b: Vec2) -> bool {
    collinear_point_within(p, a, b) && orient2d(a, b, p) == Ordering::Equal
}

/// `true` when the closed segments `[p0, p1]` and `[q0, q1]` share a point
/// (exact; touching at an endpoint and collinear overlap count).
pub fn segments_intersect(p0: Vec2, p1: Vec2, q0: Vec2, q1: Vec2) -> bool {
    // Cheap exact rejection on the bounding boxes.
    if p0.x.max(p1.x) < q0.x.min(q1.x)
        || q0.x.max(q1.x) < p0.x.min(p1.x)
        || p0.y.max(p1.y) < q0.y.min(q1.y)
        || q0.y.max(q1.y) < p0.y.min(p1.y)
    {
        return false;
    }
    let o1 = orient2d(p0, p1, q0);
    let o2 = orient2d(p0, p1, q1);
    if o1 != Ordering::Equal && o1 == o2 {
        return false;
    }
    let o3 = orient2d(q0, q1, p0);
    let o4 = orient2d(q0, q1, p1);
    if o3 != Ordering::Equal && o3 == o4 {
        return false;
    }
    if o1 == Ordering::Equal && o2 == Ordering::Equal {
        // All four collinear: the boxes overlap (checked above), and for
        // collinear segments box overlap is interval overlap along the line.
        return true;
    }
    // Not all collinear, and each segment's endpoints lie on both (closed)
    // sides of the other's line: the lines meet at one point inside both.
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn v(x: f64, y: f64) -> Vec2 {
        Vec2::new(x, y)
    }

    #[test]
    fn orientation_of_a_unit_triangle() {
        assert_eq!(
            orient2d(v(0.0, 0.0), v(1.0, 0.0), v(0.0, 1.0)),
            Ordering::Greater
        );
        assert_eq!(
            orient2d(v(0.0, 0.0), v(0.0, 1.0), v(1.0, 0.0)),
            Ordering::Less
        );
        assert_eq!(
            orient2d(v(0.0, 0.0), v(1.0, 1.0), v(3.0, 3.0)),
            Ordering::Equal
        );
    }

    /// The classic failure of naive orientation (Kettner et al., "Classroom
    /// examples of robustness problems in geometric computations", 2008):
    /// points on the line y = x near (0.5, 0.5) at one-ulp steps. The exact
    /// answer follows from the mantissas; the naive determinant gets many wrong.
    #[test]
    fn near_collinear_points_are_decided_exactly() {
        let a = v(12.0, 12.0);
        let b = v(24.0, 24.0);
        let mut disagreements_with_naive = 0;
        for i in 0..64 {
            for j in 0..64 {
                let x = 0.5 + i as f64 * f64::EPSILON / 2.0;
                let y = 0.5 + j as f64 * f64::EPSILON / 2.0;
                let p = v(x, y);
                // Exact: p is left of the line y = x iff y > x.
                let truth = y.partial_cmp(&x).unwrap();
                assert_eq!(orient2d(a, b, p), truth, "p = ({x:e}, {y:e})");
                let naive = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
                if naive.partial_cmp(&0.0).unwrap() != truth {
                    disagreements_with_naive += 1;
                }
            }
        }
        // The test is only meaningful if the naive formula does fail here.
        assert!(disagreements_with_naive > 0);
    }

    #[test]
    fn exact_stage_handles_subnormal_and_huge_values() {
        let tiny = f64::from_bits(1); // 2^-1074
        assert_eq!(
            orient2d(v(0.0, 0.0), v(tiny, 0.0), v(0.0, tiny)),
            Ordering::Greater
        );
        let huge = f64::MAX;
        // Differences overflow to infinity in floating point.
        assert_eq!(
            orient2d(v(-huge, -huge), v(huge, -huge), v(0.0, huge)),
            Ordering::Greater
        );
        assert_eq!(
            orient2d(v(-huge, -huge), v(huge, huge), v(0.0, 0.0)),
            Ordering::Equal
        );
    }

    #[test]
    fn segment_cases() {
        // Proper crossing.
        assert!(segments_intersect(
            v(0.0, 0.0),
            v(2.0, 2.0),
            v(0.0, 2.0),
            v(2.0, 0.0)
        ));
        // Touch at an endpoint (T-junction).
        assert!(segments_intersect(
            v(0.0, 0.0),
            v(2.0, 0.0),
            v(1.0, 0.0),
            v(1.0, 5.0)
        ));
        // Collinear, overlapping.
        assert!(segments_intersect(
            v(0.0, 0.0),
            v(2.0, 0.0),
            v(1.0, 0.0),
            v(3.0, 0.0)
        ));
        // Collinear, disjoint.
        assert!(!segments_intersect(
            v(0.0, 0.0),
            v(1.0, 0.0),
            v(2.0, 0.0),
            v(3.0, 0.0)
        ));
        // Parallel, disjoint.
        assert!(!segments_intersect(
            v(0.0, 0.0),
            v(2.0, 0.0),
            v(0.0, 1.0),
            v(2.0, 1.0)
        ));
        // Lines cross outside one segment.
        assert!(!segments_intersect(
            v(0.0, 0.0),
            v(1.0, 1.0),
            v(3.0, 0.0),
            v(3.0, 5.0)
        ));
        // Collinear, meeting end to end.
        assert!(segments_intersect(
            v(0.0, 0.0),
            v(1.0, 0.0),
            v(1.0, 0.0),
            v(2.0, 0.0)
        ));
        assert!(point_on_segment(v(1.0, 1.0), v(0.0, 0.0), v(2.0, 2.0)));
        assert!(!point_on_segment(v(3.0, 3.0), v(0.0, 0.0), v(2.0, 2.0)));
        // The closed segment: both ends, either way round, and the
        // axis-parallel segments (an equal coordinate is both bounds).
        for (a, b) in [(v(0.0, 0.0), v(2.0, 2.0)), (v(2.0, 2.0), v(0.0, 0.0))] {
            assert!(point_on_segment(a, a, b) && point_on_segment(b, a, b));
        }
        assert!(point_on_segment(v(1.0, 2.0), v(1.0, 0.0), v(1.0, 3.0)));
        assert!(point_on_segment(v(2.0, 1.0), v(0.0, 1.0), v(3.0, 1.0)));
        assert!(!point_on_segment(v(1.0, 4.0), v(1.0, 0.0), v(1.0, 3.0)));
    }

    proptest! {
        /// Filter and exact stage agree; orientation is antisymmetric and
        /// invariant under cyclic rotation.
        #[test]
        fn filter_agrees_with_exact_stage(
            ax in -1e3f64..1e3, ay in -1e3f64..1e3,
            bx in -1e3f64..1e3, by in -1e3f64..1e3,
            t in -2.0f64..2.0, off in -1e-12f64..1e-12,
        ) {
            let a = v(ax, ay);
            let b = v(bx, by);
            // c near the line a–b, where the filter most often gives up.
            let c = v(ax + t * (bx - ax) + off, ay + t * (by - ay));
            let o = orient2d(a, b, c);
            prop_assert_eq!(o, orient2d_exact(a, b, c));
            prop_assert_eq!(orient2d(b, a, c), o.reverse());
            prop_assert_eq!(orient2d(b, c, a), o);
        }

        /// Segment intersection is symmetric in both its arguments' order.
        #[test]
        fn segment_intersection_is_symmetric(
            c in proptest::collection::vec(-4i32..4, 8),
        ) {
            let p: Vec<Vec2> = c.chunks(2).map(|w| v(w[0] as f64, w[1] as f64)).collect();
            let r = segments_intersect(p[0], p[1], p[2], p[3]);
            prop_assert_eq!(r, segments_intersect(p[2], p[3], p[0], p[1]));
            prop_assert_eq!(r, segments_intersect(p[1], p[0], p[3], p[2]));
        }
    }
}
