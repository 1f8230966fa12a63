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

use crate::math::Vec3;

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
    if nn > 0.0 {
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
    if nn > 0.0 {
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
}
