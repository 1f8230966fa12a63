//! Within `d` at `t = 0`, decided exactly: the test the fast path's
//! floating-point certificates cannot make when features start exactly `d`
//! apart, or within a rounding of it (a line search whose rounded positions
//! land on `d`). It runs on queries the fast path defers, before the oracle
//! ([`crate::narrow_phase::oracle::min_distance`]): when the features start
//! within `d`, the time of impact is exactly 0 and the oracle is not needed.
//! On the end positions it is the search's last test at `t = 1`
//! ([`super::certificates::Features::within_at_end`]).
//!
//! **Method.** The distance between a point and a closed triangle (between
//! two closed segments) is at most `d` exactly when one of its closest-point
//! regions holds (docs/design.md §5, written without division; the regions
//! of Ericson, *Real-Time Collision Detection*, 2005, §5.1.5 and §5.1.9):
//! a corner within `d`; a point whose foot on a non-degenerate segment lies
//! on it within `d` (`|u|² > 0`, `0 ≤ w·u ≤ |u|²`,
//! `|w|²|u|² − (w·u)² ≤ d²|u|²`); a point whose foot on
//! the plane of a non-degenerate triangle lies in it within `d` (the three
//! edge functions `≥ 0`, `(w·n)² ≤ d²|n|²`); two non-parallel segments
//! whose lines' closest points lie on both within `d`. The start positions
//! and `d` go onto one integer scale and every condition is evaluated in
//! 768-bit integers ([`crate::math::I768`], degree at most six); `None`
//! when the scale needs more than [`crate::math::SCALED_BITS`] bits.

use crate::math::{I768, Vec3, on_common_scale};

/// A point, or a difference of two, on the integer scale (below `2¹⁰¹`).
pub(super) type IVec = [i128; 3];

/// A vector of products of two differences.
pub(super) type Wide = [I768; 3];

pub(super) fn sub(a: &IVec, b: &IVec) -> IVec {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: &IVec, b: &IVec) -> I768 {
    I768::product(a[0], b[0]) + I768::product(a[1], b[1]) + I768::product(a[2], b[2])
}

pub(super) fn dot_wide(n: &Wide, w: &IVec) -> I768 {
    n[0].mul_i128(w[0]) + n[1].mul_i128(w[1]) + n[2].mul_i128(w[2])
}

fn dot_wides(a: &Wide, b: &Wide) -> I768 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// `a ≤ b`.
fn at_most(a: I768, b: I768) -> bool {
    (b - a).signum() >= 0
}

/// The four start points (`q[0..4]`) and `d²` on one integer scale.
fn start_on_scale(q: [&Vec3; 8], d: f64) -> Option<([IVec; 4], I768)> {
    let mut xs = [0.0; 13];
    for (i, p) in q[..4].iter().enumerate() {
        xs[3 * i..3 * i + 3].copy_from_slice(&[p.x, p.y, p.z]);
    }
    xs[12] = d;
    let ints = on_common_scale(xs)?;
    let point = |i: usize| [ints[3 * i], ints[3 * i + 1], ints[3 * i + 2]];
    Some((
        [point(0), point(1), point(2), point(3)],
        I768::product(ints[12], ints[12]),
    ))
}

/// Point `p` within `d` of corner `q`.
fn point_point(p: &IVec, q: &IVec, d2: I768) -> bool {
    let w = sub(p, q);
    at_most(dot(&w, &w), d2)
}

/// Point `p` within `d` of the closed segment `ab`: a corner, or its foot
/// on the line inside the (non-degenerate) segment.
fn point_segment(p: &IVec, a: &IVec, b: &IVec, d2: I768) -> bool {
    if point_point(p, a, d2) || point_point(p, b, d2) {
        return true;
    }
    let u = sub(b, a);
    let uu = dot(&u, &u);
    if uu.signum() == 0 {
        return false;
    }
    let w = sub(p, a);
    let wu = dot(&w, &u);
    wu.signum() >= 0 && at_most(wu, uu) && at_most(dot(&w, &w) * uu - wu * wu, d2 * uu)
}

/// Point `p` within `d` of the closed triangle `abc`.
fn point_triangle(p: &IVec, a: &IVec, b: &IVec, c: &IVec, d2: I768) -> bool {
    let n = I768::cross(&sub(b, a), &sub(c, a));
    let nn = dot_wides(&n, &n);
    if nn.signum() > 0 {
        let inside = [(a, b), (b, c), (c, a)]
            .iter()
            .all(|(x, y)| dot_wides(&I768::cross(&sub(y, x), &sub(p, x)), &n).signum() >= 0);
        if inside {
            let wn = dot_wide(&n, &sub(p, a));
            // Inside: the foot is the nearest point, so this decides.
            return at_most(wn * wn, d2 * nn);
        }
    }
    point_segment(p, a, b, d2) || point_segment(p, b, c, d2) || point_segment(p, c, a, d2)
}

/// The closed segments `a0 a1` and `b0 b1` within `d`.
fn segment_segment(a0: &IVec, a1: &IVec, b0: &IVec, b1: &IVec, d2: I768) -> bool {
    let (u, v, w) = (sub(a1, a0), sub(b1, b0), sub(a0, b0));
    let n = I768::cross(&u, &v);
    let nn = dot_wides(&n, &n);
    if nn.signum() > 0 {
        let (uu, vv, uv) = (dot(&u, &u), dot(&v, &v), dot(&u, &v));
        let (uw, vw) = (dot(&u, &w), dot(&v, &w));
        let s = uv * vw - vv * uw;
        let r = uu * vw - uv * uw;
        let on_both = s.signum() >= 0 && at_most(s, nn) && r.signum() >= 0 && at_most(r, nn);
        if on_both {
            let wn = dot_wide(&n, &w);
            // The lines' closest points on both segments are the nearest.
            return at_most(wn * wn, d2 * nn);
        }
    }
    point_segment(a0, b0, b1, d2)
        || point_segment(a1, b0, b1, d2)
        || point_segment(b0, a0, a1, d2)
        || point_segment(b1, a0, a1, d2)
}

/// Vertex `q[0]` within `d` of triangle `q[1] q[2] q[3]` at `t = 0`
/// (data set row order), exactly; `None` outside the integers' range.
pub(super) fn vertex_face(q: [&Vec3; 8], d: f64) -> Option<bool> {
    let ([p, a, b, c], d2) = start_on_scale(q, d)?;
    Some(point_triangle(&p, &a, &b, &c, d2))
}

/// Edge `q[0] q[1]` within `d` of edge `q[2] q[3]` at `t = 0` (data set row
/// order), exactly; `None` outside the integers' range.
pub(super) fn edge_edge(q: [&Vec3; 8], d: f64) -> Option<bool> {
    let ([a0, a1, b0, b1], d2) = start_on_scale(q, d)?;
    Some(segment_segment(&a0, &a1, &b0, &b1, d2))
}
