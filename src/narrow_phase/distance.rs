//! Distances between two features at one instant, in doubles: what a
//! barrier method evaluates on the pairs that
//! [`crate::pipeline::proximity`] finds within `d` (the IPC Toolkit's
//! `point_triangle_distance` and `edge_edge_distance`, not squared).
//! docs/design.md §5, "Proximity".
//!
//! Each is the least distance over a few candidate pairs of points, one on
//! each feature: the interior candidate (the foot on the triangle's plane,
//! the lines' closest points) when its weights lie in the features, and the
//! boundary candidates (a corner or an end against the other feature's
//! edges or segment), so that degenerate triangles, zero-length segments
//! (points) and parallel segments need no special case. Every candidate is
//! a pair of points of the features up to the rounding of its weights, so
//! the result is the true distance up to rounding errors of the size of
//! `f64::EPSILON` times the features' extent; it is not certified. Which
//! pairs lie within `d` is decided exactly elsewhere (the pipeline); these
//! are the values to weigh them by. The tests hold them against the exact
//! minimum-separation oracle.
//!
//! The features are taken relative to one of their points and scaled by a
//! power of two (exactly) to about a unit extent first, so that subnormal
//! or huge coordinates lose nothing more to underflow or overflow
//! (features whose coordinates' differences overflow are infinitely far).

use super::min_distance::nearest::{point_triangle_least, segment_segment_least};
use crate::math::Vec3;

/// The Euclidean distance from the point `p` to the closed triangle
/// `a b c` (a degenerate one included), in doubles (module doc).
pub fn point_triangle_distance(p: &Vec3, a: &Vec3, b: &Vec3, c: &Vec3) -> f64 {
    let [a, b, c] = [a, b, c].map(|q| q - p);
    let k = scale(&[a, b, c]);
    let [a, b, c] = [a, b, c].map(|q| times_pow2(q, k));
    times_pow2_scalar(
        length(&point_triangle_least(&Vec3::zeros(), &a, &b, &c).1),
        -k,
    )
}

/// The Euclidean distance between the closed segments `a₀ a₁` and `b₀ b₁`
/// (of length zero included: a point), in doubles (module doc).
pub fn segment_segment_distance(a0: &Vec3, a1: &Vec3, b0: &Vec3, b1: &Vec3) -> f64 {
    let [a1, b0, b1] = [a1, b0, b1].map(|q| q - a0);
    let k = scale(&[a1, b0, b1]);
    let [a1, b0, b1] = [a1, b0, b1].map(|q| times_pow2(q, k));
    times_pow2_scalar(
        length(&segment_segment_least(&Vec3::zeros(), &a1, &b0, &b1).1),
        -k,
    )
}

/// The power of two `k` that brings the largest component of `vs` (the
/// features relative to one of their points) near 1, so that the products
/// of the nearest-point formulas neither underflow (subnormal inputs) nor
/// overflow; 0 when they are all zero or one is not finite.
fn scale(vs: &[Vec3; 3]) -> i32 {
    let m = vs.iter().map(Vec3::amax).fold(0.0, f64::max);
    if m == 0.0 || !m.is_finite() {
        return 0;
    }
    -(m.log2().floor() as i32)
}

/// `v · 2^k`, in two halves so that neither factor overflows (`|k|` up to
/// 1074 + 1023); exact unless the result leaves the normal range.
fn times_pow2(v: Vec3, k: i32) -> Vec3 {
    v.map(|x| times_pow2_scalar(x, k))
}

fn times_pow2_scalar(x: f64, k: i32) -> f64 {
    let half = k / 2;
    x * 2f64.powi(half) * 2f64.powi(k - half)
}

/// `|v|`, scaled by its largest component so that squaring neither
/// overflows nor underflows.
fn length(v: &Vec3) -> f64 {
    let m = v.amax();
    if m == 0.0 || !m.is_finite() {
        return m;
    }
    m * (v / m).norm()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_of_simple_configurations() {
        let v = Vec3::new;
        let (a, b, c) = (v(0.0, 0.0, 0.0), v(4.0, 0.0, 0.0), v(0.0, 4.0, 0.0));
        assert_eq!(point_triangle_distance(&v(1.0, 1.0, 2.0), &a, &b, &c), 2.0);
        assert_eq!(
            point_triangle_distance(&v(-3.0, -4.0, 0.0), &a, &b, &c),
            5.0
        );
        assert_eq!(point_triangle_distance(&v(1.0, 1.0, 0.0), &a, &b, &c), 0.0);
        // A triangle that is a segment, and one that is a point.
        let flat = v(2.0, 0.0, 0.0);
        assert_eq!(
            point_triangle_distance(&v(1.0, 3.0, 0.0), &a, &flat, &b),
            3.0
        );
        assert_eq!(point_triangle_distance(&v(0.0, 3.0, 4.0), &a, &a, &a), 5.0);
        // Crossing, parallel, and a point against a segment or a point.
        let s = |x0, y0, z0, x1, y1, z1| (v(x0, y0, z0), v(x1, y1, z1));
        let ((p, q), (r, t)) = (
            s(-1.0, 0.0, 0.0, 1.0, 0.0, 0.0),
            s(0.0, -1.0, 1.0, 0.0, 1.0, 1.0),
        );
        assert_eq!(segment_segment_distance(&p, &q, &r, &t), 1.0);
        let ((p, q), (r, t)) = (
            s(0.0, 0.0, 0.0, 2.0, 0.0, 0.0),
            s(1.0, 2.0, 0.0, 3.0, 2.0, 0.0),
        );
        assert_eq!(segment_segment_distance(&p, &q, &r, &t), 2.0);
        assert_eq!(
            segment_segment_distance(&v(1.0, 1.0, 0.0), &v(1.0, 1.0, 0.0), &p, &q),
            1.0
        );
        assert_eq!(segment_segment_distance(&p, &p, &q, &q), 2.0);
        // Far out of squaring's range, both ways.
        let big = 1e300;
        assert_eq!(point_triangle_distance(&v(0.0, 0.0, big), &a, &b, &c), big);
        let tiny = 1e-300;
        assert_eq!(
            segment_segment_distance(&a, &a, &v(0.0, 0.0, tiny), &v(0.0, 0.0, tiny)),
            tiny
        );
    }
}
