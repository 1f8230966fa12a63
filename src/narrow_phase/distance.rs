//! Distances between two features at one instant, in doubles: what a
//! barrier method evaluates on the pairs that
//! [`crate::pipeline::proximity`] finds within `d` (the IPC Toolkit's
//! `point_triangle_distance` and `edge_edge_distance`, not squared).
//! docs/design.md §5, "Proximity".
//!
//! Each is the least distance over a few candidates: the interior one (the
//! foot on the triangle's plane, the lines' closest points) when its
//! weights lie in the features, measured as the distance to the plane or
//! between the lines (`|w·n| / |n|`, which keeps its digits for slivers
//! and nearly parallel segments, where the nearest points themselves do
//! not), and the boundary ones (a corner or an end against the other
//! feature's edges or segment), so that degenerate triangles, zero-length
//! segments (points) and parallel segments need no special case. The
//! weights use the cross-product forms (Lagrange's identity), not
//! differences of dot products, which cancel for nearly parallel
//! segments. The result is the true distance up to rounding errors of the
//! size of `f64::EPSILON` times the features' extent; it is not certified.
//! Which pairs lie within `d` is decided exactly elsewhere (the pipeline);
//! these are the values to weigh them by. The tests hold them against the
//! exact minimum-separation oracle.
//!
//! The points are scaled by a power of two (exactly) so that their
//! differences do not overflow, taken relative to one of them, and the
//! differences scaled again to about a unit extent, so that subnormal or
//! huge coordinates lose nothing more to underflow or overflow.
//!
//! The interior candidate is left out when the normal `n` is shorter than
//! [`INTERIOR_MIN_NORMAL`] (at that extent): its weights would divide by a
//! squared length near or below the subnormal range and lose their digits.
//! Nothing is lost by it: every point of such a triangle lies within
//! `min(longest edge, |n| / longest edge) ≤ √|n|` of its edges, and two such
//! segments' interior nearest points within as much of an end's, so the
//! boundary candidates are within `2⁻⁶⁰` of the extent.

use super::min_distance::on_segment;
use crate::math::{Vec3, two_prod, two_sum};

/// The least length of the normal `n` (a cross product of differences at
/// about a unit extent) for which the interior candidate is measured
/// (module doc): `2⁻¹²⁰`, so that `|n|²` and the weights' numerators stay
/// normal doubles.
const INTERIOR_MIN_NORMAL: f64 = 1.0 / ((1u64 << 60) as f64 * (1u64 << 60) as f64);

/// The Euclidean distance from the point `p` to the closed triangle
/// `a b c` (a degenerate one included), in doubles: the true distance up to
/// rounding errors of the size of `f64::EPSILON` times the features'
/// extent, not certified (which pairs lie within `d` is decided exactly by
/// [`crate::pipeline::proximity()`]). Huge or subnormal coordinates lose
/// nothing more to overflow or underflow.
pub fn point_triangle_distance(p: &Vec3, a: &Vec3, b: &Vec3, c: &Vec3) -> f64 {
    let ([a, b, c], k) = relative([p, a, b, c]);
    // Relative to p: the foot on the plane, when it lies in the triangle,
    // at the plane's distance |a·n| / |n|; the edges' nearest points.
    let (u, v) = (b - a, c - a);
    let n = cross(&u, &v);
    let nn = n.norm_squared();
    let mut best = [(a, b), (a, c), (b, c)]
        .map(|(x, y)| length(&nearest_on_segment(&Vec3::zeros(), &x, &y)))
        .into_iter()
        .fold(f64::INFINITY, f64::min);
    if nn >= INTERIOR_MIN_NORMAL * INTERIOR_MIN_NORMAL {
        let w = -a;
        let beta = dot(&cross(&w, &v), &n) / nn;
        let gamma = dot(&cross(&u, &w), &n) / nn;
        if beta >= 0.0 && gamma >= 0.0 && beta + gamma <= 1.0 {
            best = best.min(dot(&a, &n).abs() / nn.sqrt());
        }
    }
    times_pow2(best, -k)
}

/// The Euclidean distance between the closed segments `a₀ a₁` and `b₀ b₁`
/// (of length zero included: a point), in doubles, as accurate as
/// [`point_triangle_distance`] (not certified).
pub fn segment_segment_distance(a0: &Vec3, a1: &Vec3, b0: &Vec3, b1: &Vec3) -> f64 {
    let ([a1, b0, b1], k) = relative([a0, a1, b0, b1]);
    let a0 = Vec3::zeros();
    // The lines' closest points, when both lie on the segments, at the
    // lines' distance |w·n| / |n| (`n = u × v`; their parameters in the
    // cross-product forms of Lagrange's identity, which keep their digits
    // for nearly parallel segments); an end against the other segment.
    let (u, v, w) = (a1 - a0, b1 - b0, a0 - b0);
    let n = cross(&u, &v);
    let nn = n.norm_squared();
    let mut best = [
        (&a0, &b0, &b1),
        (&a1, &b0, &b1),
        (&b0, &a0, &a1),
        (&b1, &a0, &a1),
    ]
    .map(|(p, x, y)| length(&(nearest_on_segment(p, x, y))))
    .into_iter()
    .fold(f64::INFINITY, f64::min);
    if nn >= INTERIOR_MIN_NORMAL * INTERIOR_MIN_NORMAL {
        let s = dot(&n, &cross(&v, &w)) / nn;
        let r = dot(&n, &cross(&u, &w)) / nn;
        if (0.0..=1.0).contains(&s) && (0.0..=1.0).contains(&r) {
            best = best.min(dot(&w, &n).abs() / nn.sqrt());
        }
    }
    times_pow2(best, -k)
}

/// `a × b`, each component a 2 × 2 determinant by Kahan's method (the
/// product's rounding error recovered with a fused multiply–add): within
/// about 2 ulps however much the two products cancel, so that the normal
/// of a sliver, or of two nearly parallel segments, keeps its digits.
fn cross(a: &Vec3, b: &Vec3) -> Vec3 {
    // p·q − r·s
    let det = |p: f64, q: f64, r: f64, s: f64| {
        let (rs, e) = two_prod(r, s);
        p.mul_add(q, -rs) - e
    };
    Vec3::new(
        det(a.y, b.z, a.z, b.y),
        det(a.z, b.x, a.x, b.z),
        det(a.x, b.y, a.y, b.x),
    )
}

/// `a · b`, compensated (Ogita, Rump & Oishi 2005, Dot2): as if summed in
/// twice the precision, then rounded, so that a point near the plane, or
/// two nearly meeting lines, keep the digits of their distance.
fn dot(a: &Vec3, b: &Vec3) -> f64 {
    let (mut sum, mut err) = (0.0, 0.0);
    for k in 0..3 {
        let (p, pe) = two_prod(a[k], b[k]);
        let (t, se) = two_sum(sum, p);
        err += se + pe;
        sum = t;
    }
    sum + err
}

/// The point of segment `x y` nearest `p`, minus `p`.
fn nearest_on_segment(p: &Vec3, x: &Vec3, y: &Vec3) -> Vec3 {
    x + (y - x) * on_segment(p, x, y) - p
}

/// The last three of `points` relative to the first, scaled by `2^k`
/// (exactly): first all four, so that their differences do not overflow,
/// then the differences, so that their products neither underflow nor
/// overflow; and `k`.
fn relative(points: [&Vec3; 4]) -> ([Vec3; 3], i32) {
    let k0 = scale(points.iter().map(|p| p.amax()));
    let [o, x, y, z] = points.map(|p| p.map(|c| times_pow2(c, k0)));
    let d = [x - o, y - o, z - o];
    let k1 = scale(d.iter().map(Vec3::amax));
    (d.map(|q| q.map(|c| times_pow2(c, k1))), k0 + k1)
}

/// The power of two `k` that brings the largest of `magnitudes` to
/// `[1, 2)`; 0 when they are all zero.
fn scale(magnitudes: impl Iterator<Item = f64>) -> i32 {
    let m = magnitudes.fold(0.0, f64::max);
    if m == 0.0 {
        return 0;
    }
    -(m.log2().floor() as i32)
}

/// `x · 2^k`, in two halves so that neither factor overflows (`|k|` up to
/// 1074 + 1023); exact unless the result leaves the normal range.
fn times_pow2(x: f64, k: i32) -> f64 {
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

    fn close(got: f64, want: f64, what: &str) {
        assert!(
            (got - want).abs() <= 1e-12 * want.abs().max(f64::MIN_POSITIVE),
            "{what}: {got} against {want}"
        );
    }

    /// Cases where the nearest points themselves are ill-conditioned but
    /// the distance is not: nearly parallel segments (an angle of 10⁻⁸,
    /// beyond the dot products' digits), a point just above a sliver, and
    /// features 1 apart whose coordinates' differences overflow.
    #[test]
    fn ill_conditioned_nearest_points_keep_the_distance() {
        let v = Vec3::new;
        let (a0, a1) = (v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0));
        let (b0, b1) = (v(0.0, -5e-9, 1e-9), v(1.0, 5e-9, 1e-9));
        close(
            segment_segment_distance(&a0, &a1, &b0, &b1),
            1e-9,
            "nearly parallel",
        );
        let (b0, b1) = (v(0.0, -1.5e-8, 0.0), v(1.0, 1.5e-8, 0.0));
        assert_eq!(
            segment_segment_distance(&a0, &a1, &b0, &b1),
            0.0,
            "crossing at 3·10⁻⁸"
        );
        // A sliver about 1 long and 10⁻⁸ wide in z = 0, a point 5·10⁻¹⁴
        // above its middle.
        let (a, b, c) = (v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(0.5, 1e-8, 0.0));
        close(
            point_triangle_distance(&v(0.5, 5e-9, 5e-14), &a, &b, &c),
            5e-14,
            "sliver",
        );
        let big = 1.5e308;
        let (a, b, c) = (v(-big, 0.0, 0.0), v(big, 0.0, 0.0), v(0.0, big, 0.0));
        close(
            point_triangle_distance(&v(-big, 0.0, 1.0), &a, &b, &c),
            1.0,
            "huge triangle",
        );
        close(
            segment_segment_distance(&v(-big, 0.0, 1.0), &v(-big, 0.0, 1.0), &a, &b),
            1.0,
            "huge rod",
        );
        let (c0, c1) = (v(-big, 0.0, 1.0), v(big, 0.0, 1.0));
        close(
            segment_segment_distance(&a, &b, &c0, &c1),
            1.0,
            "huge parallel rods",
        );
    }

    /// Slivers and nearly parallel segments thinner than the interior
    /// candidate's floor (widths 10⁻¹⁶⁰ to subnormal), with the point or
    /// the other segment beyond an end: the boundary gives the distance,
    /// and no foot outside the feature passes for one inside it.
    #[test]
    fn slivers_below_the_interior_floor_measure_to_their_boundary() {
        let v = Vec3::new;
        let h = 1e-9;
        for w in [1e-160, 5e-162, 1e-300, 1e-310, 0.0] {
            for delta in [1e-4, 5e-2] {
                let (a, b, c) = (v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(0.5, w, 0.0));
                let p = v(1.0 + delta, 0.0, h);
                let want = delta.hypot(h);
                close(point_triangle_distance(&p, &a, &b, &c), want, "sliver");
                let (b0, b1) = (v(1.0 + delta, 0.0, h), v(2.0 + delta, w, h));
                close(
                    segment_segment_distance(&a, &b, &b0, &b1),
                    want,
                    "nearly parallel, apart along their line",
                );
            }
            // Above the sliver's middle: on its long edge, h away.
            let (a, b, c) = (v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(0.5, w, 0.0));
            close(
                point_triangle_distance(&v(0.5, 0.0, h), &a, &b, &c),
                h,
                "above",
            );
        }
        // Just above the floor the interior candidate is still measured.
        let w = 1e-30;
        let (a, b, c) = (v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(0.5, w, 0.0));
        close(
            point_triangle_distance(&v(0.5, w / 2.0, 1e-40), &a, &b, &c),
            1e-40,
            "a point above a 10⁻³⁰ sliver's inside",
        );
    }

    /// The plane `x + y + z = 0` through the triangle `(4, −4, 0)`
    /// `(0, 4, −4)` `(−4, 0, 4)`, and a point over its inside whose
    /// coordinates sum to `2⁻⁵⁰`. Relative to the point, the corners'
    /// differences are exact and the normal is `(3, 3, 3)` times a power
    /// of two, but one product of the dot product with it rounds, by
    /// `2⁻⁵²` of a sum of `3·2⁻⁵²` (at that scale): only the compensated
    /// dot product keeps the distance `2⁻⁵⁰/√3`.
    #[test]
    fn a_point_near_a_plane_keeps_the_digits_of_its_distance() {
        let v = Vec3::new;
        let e = 2f64.powi(-50);
        let p = v(0.75 + e, 0.625 + 2.0 * e, -1.375 - 2.0 * e);
        let (a, b, c) = (v(4.0, -4.0, 0.0), v(0.0, 4.0, -4.0), v(-4.0, 0.0, 4.0));
        close(
            point_triangle_distance(&p, &a, &b, &c),
            e / 3f64.sqrt(),
            "near the plane",
        );
    }

    /// Two segments at an angle of about `2⁻²⁷` in the parallel planes
    /// `x + y + z = 0` and `3h`, each crossing the other's projection at
    /// its midpoint: `√3·h` apart. Their coordinates carry about 30 bits,
    /// so the products in the normal `u × v` round; only the compensated
    /// 2×2 determinants keep its direction (an error of `2⁻²⁹` in it shows
    /// as `10⁻⁸` of the distance).
    #[test]
    fn nearly_parallel_segments_in_tilted_planes_keep_their_distance() {
        let v = Vec3::new;
        let (e, h) = (2f64.powi(-27), 2f64.powi(-30));
        let (a, b) = (0.8125 + 5.0 * 2f64.powi(-29), 0.3125 - 3.0 * 2f64.powi(-29));
        let (u, w) = (v(a, b, -(a + b)), v(a + e, b - e, -(a + b)));
        let b0 = v(h - e / 2.0, h + e / 2.0, h);
        close(
            segment_segment_distance(&Vec3::zeros(), &u, &b0, &(b0 + w)),
            3f64.sqrt() * h,
            "nearly parallel, tilted",
        );
    }
}
