//! Nearest points of the two features at one time, in plain doubles: hints
//! for the certificates of [`super::certificates`], never trusted. A wrong
//! or non-finite hint only makes a certificate fail; every value returned is
//! a weight in `[0, 1]`, finite whatever the input.
//!
//! Each routine follows the case decomposition of docs/design.md §5: the
//! interior candidate (the foot on the face's plane, or the closest points
//! of the two lines) when it lies on the features, since it is then the
//! nearest; otherwise the nearest of the boundary candidates (corners and
//! edges), so degenerate triangles and parallel edges get a sensible answer
//! without special cases.
//!
//! The interior candidate is taken only where it is well conditioned: a
//! sliver triangle's barycentric weights, and nearly parallel lines' closest
//! points, are quotients by `|n|²` (the squared normal: `sin²θ` times the
//! sides' squared lengths `ℓ²m²`), which is computed with an error of a few
//! `u·ℓ²m²` (`u = f64::EPSILON / 2`); exactly parallel edges, whose relative
//! tracks interpolated in doubles are a rounding off parallel, then give
//! closest points anywhere along the lines, far from the nearest points.
//! At an angle `θ` the interior candidate's gap is off by about `u·|w|/θ`
//! (`w` the features' offset), a boundary candidate's by at most about
//! `θ·ℓ`; below [`NEAR_PARALLEL`] (`sin²θ ≤ 10⁻¹²`, a thousand times the
//! rounding of `|n|²`, where `u/θ` is still below `θ`) the boundary is
//! taken.

use crate::math::Vec3;

/// The interior candidate is taken only where `|n|²` exceeds this times the
/// product of the two sides' squared lengths (angles above about `10⁻⁶`
/// radians): module doc.
pub(super) const NEAR_PARALLEL: f64 = 1e-12;

/// `x + t·(y − x)` in doubles.
#[inline]
pub(super) fn lerp(x: &Vec3, y: &Vec3, t: f64) -> Vec3 {
    x + (y - x) * t
}

/// The parameter in `[0, 1]` of the point of segment `a b` nearest `p`
/// (0 for a zero-length segment).
#[inline]
pub(crate) fn on_segment(p: &Vec3, a: &Vec3, b: &Vec3) -> f64 {
    let u = b - a;
    let uu = u.dot(&u);
    let h = (p - a).dot(&u);
    if h > 0.0 && uu > 0.0 {
        (h / uu).min(1.0)
    } else {
        0.0
    }
}

/// `(β, γ)` of a point `a + β(b − a) + γ(c − a)` of triangle `a b c` near
/// `p`, and that point minus `p`.
pub(super) fn point_triangle(p: &Vec3, a: &Vec3, b: &Vec3, c: &Vec3) -> ([f64; 2], Vec3) {
    let point = |w: [f64; 2]| a + (b - a) * w[0] + (c - a) * w[1];
    // The foot on the plane, when it lies in the triangle, is the nearest
    // point (the nearest point of the plane); else the nearest point is on
    // an edge.
    let (u, v, w) = (b - a, c - a, p - a);
    let n = u.cross(&v);
    let nn = n.norm_squared();
    if nn > NEAR_PARALLEL * (u.norm_squared() * v.norm_squared()) {
        let beta = w.cross(&v).dot(&n) / nn;
        let gamma = u.cross(&w).dot(&n) / nn;
        if beta >= 0.0 && gamma >= 0.0 && beta + gamma <= 1.0 {
            let best = [beta, gamma];
            return (best, point(best) - p);
        }
    }
    let mut best = [0.0, 0.0];
    let mut best_d2 = f64::INFINITY;
    let mut consider = |w: [f64; 2]| {
        let d2 = (point(w) - p).norm_squared();
        if d2 < best_d2 {
            best_d2 = d2;
            best = w;
        }
    };
    let s = on_segment(p, a, b);
    consider([s, 0.0]);
    let s = on_segment(p, a, c);
    consider([0.0, s]);
    let s = on_segment(p, b, c);
    consider([1.0 - s, s]);
    (best, point(best) - p)
}

/// `(s, r)` of points `a₀ + s(a₁ − a₀)` and `b₀ + r(b₁ − b₀)` of the two
/// segments near each other, and the second minus the first.
pub(super) fn segment_segment(a0: &Vec3, a1: &Vec3, b0: &Vec3, b1: &Vec3) -> ([f64; 2], Vec3) {
    let gap = |w: [f64; 2]| (b0 + (b1 - b0) * w[1]) - (a0 + (a1 - a0) * w[0]);
    // The lines' closest points, when both lie on the segments, are the
    // nearest (the nearest of the lines); else an end of one segment is
    // nearest the other.
    let (u, v, w) = (a1 - a0, b1 - b0, a0 - b0);
    let (uu, vv, uv, uw, vw) = (u.dot(&u), v.dot(&v), u.dot(&v), u.dot(&w), v.dot(&w));
    let nn = uu * vv - uv * uv;
    if nn > NEAR_PARALLEL * (uu * vv) {
        let s = (uv * vw - vv * uw) / nn;
        let r = (uu * vw - uv * uw) / nn;
        if (0.0..=1.0).contains(&s) && (0.0..=1.0).contains(&r) {
            let best = [s, r];
            return (best, gap(best));
        }
    }
    let mut best = [0.0, 0.0];
    let mut best_d2 = f64::INFINITY;
    let mut consider = |w: [f64; 2]| {
        let d2 = gap(w).norm_squared();
        if d2 < best_d2 {
            best_d2 = d2;
            best = w;
        }
    };
    consider([0.0, on_segment(a0, b0, b1)]);
    consider([1.0, on_segment(a1, b0, b1)]);
    consider([on_segment(b0, a0, a1), 0.0]);
    consider([on_segment(b1, a0, a1), 1.0]);
    (best, gap(best))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_points_of_simple_configurations() {
        let v = Vec3::new;
        let (a, b, c) = (v(0.0, 0.0, 0.0), v(4.0, 0.0, 0.0), v(0.0, 4.0, 0.0));
        let (w, g) = point_triangle(&v(1.0, 1.0, 2.0), &a, &b, &c);
        assert_eq!((w, g), ([0.25, 0.25], v(0.0, 0.0, -2.0)));
        let (w, _) = point_triangle(&v(-1.0, -1.0, 0.0), &a, &b, &c);
        assert_eq!(w, [0.0, 0.0]);
        let (w, _) = point_triangle(&v(3.0, 3.0, 0.0), &a, &b, &c);
        assert_eq!(w, [0.5, 0.5]);
        // A degenerate triangle: the nearest point of its longest edge.
        let (w, g) = point_triangle(&v(1.5, 1.0, 0.0), &a, &v(1.0, 0.0, 0.0), &v(2.0, 0.0, 0.0));
        assert_eq!(g, v(0.0, -1.0, 0.0));
        assert!(w.iter().all(|x| (0.0..=1.0).contains(x)));
        let (w, g) = segment_segment(
            &v(-1.0, 0.0, 0.0),
            &v(1.0, 0.0, 0.0),
            &v(0.0, -1.0, 1.0),
            &v(0.0, 1.0, 1.0),
        );
        assert_eq!((w, g), ([0.5, 0.5], v(0.0, 0.0, 1.0)));
        // Parallel: an endpoint pair or an endpoint and its foot.
        let (_, g) = segment_segment(
            &v(0.0, 0.0, 0.0),
            &v(2.0, 0.0, 0.0),
            &v(1.0, 1.0, 0.0),
            &v(3.0, 1.0, 0.0),
        );
        assert_eq!(g, v(0.0, 1.0, 0.0));
    }

    #[test]
    fn nearly_parallel_segments_get_their_nearest_ends() {
        let v = Vec3::new;
        // End to end along x, 1.1·10⁻³ apart, the one above moving on: the
        // relative positions at t = 1/64, interpolated in doubles, make the
        // exactly parallel edges a tiny angle apart, and the lines' closest
        // points land anywhere; the nearest points are the touching ends.
        // (As the certificates' hints do: the differences at t = 0 and 1,
        // then the interpolation.)
        let drift = v(0.01, 0.005, -0.004);
        let (a0, a1) = (v(0.55, 0.0, 1.1e-3), v(0.6, 0.0, 1.1e-3));
        let rel = |y: Vec3, y_t1: Vec3| lerp(&(y - a0), &(y_t1 - (a0 + drift)), 1.0 / 64.0);
        let (b0, b1) = (v(0.5, 0.0, 0.0), v(0.55, 0.0, 0.0));
        let (w, g) = segment_segment(
            &Vec3::zeros(),
            &rel(a1, a1 + drift),
            &rel(b0, b0),
            &rel(b1, b1),
        );
        assert_eq!(w, [0.0, 1.0]);
        assert!(g.norm() < 1.1e-3, "{g:?}");
        // A sliver triangle (its third corner 10⁻¹³ off its first side's
        // line): the nearest point is on an edge, the point's foot.
        let (w, g) = point_triangle(
            &v(0.5, 1.0, 0.0),
            &v(0.0, 0.0, 0.0),
            &v(1.0, 0.0, 0.0),
            &v(2.0, 1e-13, 0.0),
        );
        assert!((g - v(0.0, -1.0, 0.0)).norm() < 1e-12, "{w:?} {g:?}");
    }
}
