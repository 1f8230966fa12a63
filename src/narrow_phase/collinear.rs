//! Collinear motion: the four points of a query on one line at `t = 0`, and
//! on one parallel line at `t = 1`, hence on one line at every time
//! ([`common_line_axis`]). A mesh collapsed onto a line, at rest or moving,
//! makes every query of this kind; the coplanarity cubic vanishes and so do
//! the normals that the coplanar tier ([`super::coplanar`]) needs, so the
//! float tiers defer them all (docs/design.md §9). Also a triangle collapsed
//! onto such a line with the vertex off it, and edges on parallel lines
//! ([`crossing`]): apart all along, or on one line.
//!
//! On the line, contact is one-dimensional. Positions along the line are
//! ordered (increasing or decreasing) by any coordinate in which the line is
//! not constant, so the closed triangle is the interval between its
//! corners' least and greatest coordinate, and two closed segments meet iff
//! an endpoint of one lies in the other. A point `p(t)` lies in the hull
//! of points `sᵢ(t)` iff `gᵢ = p − sᵢ ≥ 0` for some `i` and `gⱼ ≤ 0` for some
//! `j`. If that fails at `t = 0`, every `gᵢ(0)` has the same strict sign and
//! the earliest contact is the first time one of them reaches zero: the
//! least root `gᵢ(0) / (gᵢ(0) − gᵢ(1))` of the linear `gᵢ` in `[0, 1]`.
//!
//! Every decision is exact, in doubles: the lines are checked with exact
//! cross products of coordinate differences, the signs of `gᵢ(0)` and
//! `gᵢ(1)` are comparisons of coordinates, two roots compare by the sign of
//! a 2×2 determinant of exact differences ([`det2_sign`]: a float filter,
//! then `TwoProd`, then [`ExactSum`]), and the time of impact is bracketed by
//! neighbouring doubles of the root, each side checked exactly. Requires
//! every coordinate in the filter range ([`crate::math::in_filter_range`]),
//! which keeps all of these products exact.

use std::cmp::Ordering;

use super::det2::{Diff, det2_sign};
use super::toi::Toi;
use crate::math::{ExactSum, Vec3};

/// `p − q`, exactly.
fn difference(p: &Vec3, q: &Vec3) -> [Diff; 3] {
    [0, 1, 2].map(|k| Diff::of(p[k], q[k]))
}

/// `u × w = 0`, exactly.
fn parallel(u: &[Diff; 3], w: &[Diff; 3]) -> bool {
    CROSS
        .into_iter()
        .all(|(i, j)| det2_sign(u[i], w[j], u[j], w[i]) == Ordering::Equal)
}

/// The direction of the line through the points: `Some(Some(u))` when
/// they lie on one line and not all at one point, `Some(None)` when they
/// coincide, `None` when they are not on one line.
fn line_direction(points: &[&Vec3]) -> Option<Option<[Diff; 3]>> {
    let p = points[0];
    let Some(&q) = points.iter().find(|x| **x != p) else {
        return Some(None);
    };
    let u = difference(q, p);
    points
        .iter()
        .filter(|r| **r != p && **r != q)
        .all(|r| parallel(&u, &difference(r, p)))
        .then_some(Some(u))
}

/// The direction shared by moving features whose points lie on one line at
/// each end of the step, all these lines parallel: `Some(Some(u))`;
/// `Some(None)` when every feature sits at one point at both ends; `None`
/// otherwise. Each feature is given by its points at `t = 0` and at `t = 1`.
///
/// A feature with `aᵢ = A + sᵢu` at `t = 0` and `bᵢ = B + rᵢu` at `t = 1`
/// (either end may be one point) lies at time `t` on the line through
/// `(1 − t)A + tB` with direction `u`: its point `(1 − t)aᵢ + t bᵢ` is
/// `(1 − t)A + tB + ((1 − t)sᵢ + t rᵢ)u`.
fn shared_direction(features: &[(&[&Vec3], &[&Vec3])]) -> Option<Option<[Diff; 3]>> {
    let mut shared: Option<[Diff; 3]> = None;
    for (at_start, at_end) in features {
        for points in [at_start, at_end] {
            if let Some(u) = line_direction(points)? {
                match &shared {
                    Some(d) if !parallel(d, &u) => return None,
                    Some(_) => {}
                    None => shared = Some(u),
                }
            }
        }
    }
    Some(shared)
}

/// A coordinate in which the direction `u` is not zero: it orders the
/// points of a line with that direction.
fn axis_along(u: &[Diff; 3]) -> Option<usize> {
    (0..3).find(|&k| u[k].hi != 0.0)
}

/// The coordinate that measures positions along the line when the points
/// at every time of the step lie on one line (any coordinate in which it
/// is not constant; coordinate 0 when the points at each end coincide);
/// `None` when they may not.
///
/// The four points at `t = 0` on a line (or a point) and the four at
/// `t = 1` on a parallel one (or a point) suffice ([`shared_direction`]).
/// A point's coordinate `k` is then the line's own plus
/// `((1 − t)sᵢ + t rᵢ)·u_k`, so the differences between points in
/// coordinate `k` are linear in `t` and, for `u_k ≠ 0`, order the points
/// along the line at every time.
fn common_line_axis(points: &[&Vec3; 8]) -> Option<usize> {
    match shared_direction(&[(&points[..4], &points[4..])])? {
        Some(u) => axis_along(&u),
        None => Some(0),
    }
}

/// Where a moving point `q` stands to the moving line through the moving
/// point `p` with the fixed direction `u` ([`shared_direction`]).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Crossing {
    /// Off the line at every time.
    Apart,
    /// On the line at every time.
    On,
    /// Neither is certain.
    Unknown,
}

/// The index pairs of the components of a cross product.
const CROSS: [(usize, usize); 3] = [(1, 2), (2, 0), (0, 1)];

/// `w = (q − p) × u` is linear in `t` (`u` is fixed), and `q` is on the
/// line exactly where `w = 0`. All components zero at both ends of the step
/// keep `q` on the line. Otherwise each component that is not identically
/// zero must vanish, at its one root: a component with the same strict
/// sign at both ends has none in `[0, 1]`, and two components whose roots
/// differ have no common one; either keeps `q` off the line all along.
fn crossing(u: &[Diff; 3], p: (&Vec3, &Vec3), q: (&Vec3, &Vec3)) -> Crossing {
    let (a0, a1) = (difference(q.0, p.0), difference(q.1, p.1));
    let w = |a: &[Diff; 3]| CROSS.map(|(i, j)| det2_sign(a[i], u[j], a[j], u[i]));
    let (w0, w1) = (w(&a0), w(&a1));
    if (0..3).any(|k| w0[k] != Ordering::Equal && w0[k] == w1[k]) {
        return Crossing::Apart;
    }
    let moving = [0, 1, 2].map(|k| w0[k] != Ordering::Equal || w1[k] != Ordering::Equal);
    if !moving.contains(&true) {
        return Crossing::On;
    }
    // Roots rᵢ = wᵢ(0) / (wᵢ(0) − wᵢ(1)) (each denominator non-zero: the
    // component changes sign or leaves zero): rᵢ ≠ rⱼ iff
    // wⱼ(0)·wᵢ(1) − wᵢ(0)·wⱼ(1) ≠ 0, a sum of products of four exact
    // differences.
    let component = |a: &[Diff; 3], k: usize| {
        let (i, j) = CROSS[k];
        [(1.0, [a[i], u[j]]), (-1.0, [a[j], u[i]])]
    };
    for (i, j) in [(0, 1), (0, 2), (1, 2)] {
        if moving[i] && moving[j] {
            let mut acc = ExactSum::new();
            for (sign, (x, y)) in [(1.0, (j, i)), (-1.0, (i, j))] {
                // sign · w_x(0) · w_y(1)
                for (s0, f0) in component(&a0, x) {
                    for (s1, f1) in component(&a1, y) {
                        let factors = [f0[0].pair(), f0[1].pair(), f1[0].pair(), f1[1].pair()];
                        acc.add_product(sign * s0 * s1, &factors);
                    }
                }
            }
            if acc.is_exact() && acc.sign() != 0 {
                return Crossing::Apart;
            }
        }
    }
    Crossing::Unknown
}

/// The coordinate for the one-dimensional test when the second feature's
/// reference point `q` is on the first feature's line at every time
/// (`Some(Ok(k))`), `Some(Err(()))` when it is off that line at every time
/// (the features never meet), `None` when neither is certain or the points
/// are not on parallel lines. `first` are the first feature's points (at
/// `t = 0`, at `t = 1`), `second` the other's, whose first point is `q`.
#[allow(clippy::type_complexity)]
fn line_or_apart(
    points: &[&Vec3; 8],
    first: (&[&Vec3], &[&Vec3]),
    second: (&[&Vec3], &[&Vec3]),
) -> Option<Result<usize, ()>> {
    match shared_direction(&[first, second])? {
        // Every point at one point at each end: the eight on one line?
        None => common_line_axis(points).map(Ok),
        Some(u) => match crossing(&u, (first.0[0], first.1[0]), (second.0[0], second.1[0])) {
            Crossing::Apart => Some(Err(())),
            Crossing::On => axis_along(&u).map(Ok),
            Crossing::Unknown => None,
        },
    }
}

/// A time in `[0, 1]`.
#[derive(Clone, Copy, Debug)]
pub(super) enum Time {
    Zero,
    /// The root `g0 / (g0 − g1)` of the linear `g0 (1 − t) + g1 t`, with
    /// `g0 ≠ 0` and `g1` zero or of the other sign, so that the root lies
    /// in `(0, 1]`.
    Root {
        g0: Diff,
        g1: Diff,
    },
}

impl Time {
    /// The exact order.
    pub(super) fn cmp(&self, other: &Time) -> Ordering {
        match (self, other) {
            (Time::Zero, Time::Zero) => Ordering::Equal,
            (Time::Zero, Time::Root { .. }) => Ordering::Less,
            (Time::Root { .. }, Time::Zero) => Ordering::Greater,
            (Time::Root { g0: a0, g1: a1 }, Time::Root { g0: b0, g1: b1 }) => {
                // r_a − r_b = (b0·a1 − a0·b1) / ((a0 − a1)(b0 − b1)), and
                // each denominator has its `g0`'s sign.
                let s = det2_sign(*b0, *a1, *a0, *b1);
                if (a0.sign() == Ordering::Less) != (b0.sign() == Ordering::Less) {
                    s.reverse()
                } else {
                    s
                }
            }
        }
    }

    fn min(self, other: Time) -> Time {
        if self.cmp(&other) == Ordering::Greater {
            other
        } else {
            self
        }
    }
}

/// The earliest time at which the moving coordinate `p` (at `t = 0`,
/// `t = 1`) lies between the least and the greatest of the moving
/// coordinates `s`, or `None` if never.
fn earliest_in_hull(p: (f64, f64), s: &[(f64, f64)]) -> Option<Time> {
    let below = s.iter().any(|si| si.0 <= p.0);
    let above = s.iter().any(|si| si.0 >= p.0);
    if below && above {
        return Some(Time::Zero);
    }
    // Outside at the start, on the same side of every `sᵢ`: `p` stays
    // outside until it first meets one of them, where `p − sᵢ` changes
    // sign or reaches zero.
    s.iter()
        .filter_map(|si| {
            let (g0, g1) = (Diff::of(p.0, si.0), Diff::of(p.1, si.1));
            (g1.sign() != g0.sign()).then_some(Time::Root { g0, g1 })
        })
        .reduce(Time::min)
}

/// The most ulps [`bracket`] steps from the float estimate of a root
/// towards it; the estimate is within a few (each of its two roundings and
/// the dropped low parts cost about one).
const MAX_STEPS: u32 = 64;

/// The sign of `r − q` for the root `r = g0 / (g0 − g1)` and a double `q`,
/// or `None` if a product leaves the exact range.
fn root_minus(g0: Diff, g1: Diff, q: f64) -> Option<Ordering> {
    // r − q = (g0 − q·g0 + q·g1) / (g0 − g1), and the denominator has the
    // sign of g0.
    let mut acc = ExactSum::new();
    acc.add(g0.hi);
    acc.add(g0.lo);
    acc.add_product(-1.0, &[(q, 0.0), g0.pair()]);
    acc.add_product(1.0, &[(q, 0.0), g1.pair()]);
    if !acc.is_exact() {
        return None;
    }
    let s = acc.sign().cmp(&0);
    Some(if g0.sign() == Ordering::Less {
        s.reverse()
    } else {
        s
    })
}

/// The bracket of doubles around `t`: the neighbouring doubles of a root
/// (or the root itself when it is a double); `None` if it could not be
/// bracketed exactly.
pub(super) fn bracket(t: Time) -> Option<Toi> {
    let Time::Root { g0, g1 } = t else {
        return Some(Toi::exact(0.0));
    };
    let estimate = (g0.hi / (g0.hi - g1.hi)).clamp(0.0, 1.0);
    let side = root_minus(g0, g1, estimate)?;
    if side == Ordering::Equal {
        return Some(Toi::exact(estimate));
    }
    // Step away from the estimate towards the root until it is passed.
    let step = |x: f64| {
        if side == Ordering::Greater {
            x.next_up()
        } else {
            x.next_down()
        }
    };
    let mut near = estimate;
    for _ in 0..MAX_STEPS {
        let far = step(near);
        match root_minus(g0, g1, far)? {
            Ordering::Equal => return Some(Toi::exact(far)),
            s if s == side => near = far,
            _ => {
                let (lower, upper) = if side == Ordering::Greater {
                    (near, far)
                } else {
                    (far, near)
                };
                return Some(Toi { lower, upper });
            }
        }
    }
    None
}

/// The moving coordinate `k` of a point (at `t = 0`, `t = 1`).
#[inline]
fn along(k: usize, at0: &Vec3, at1: &Vec3) -> (f64, f64) {
    (at0[k], at1[k])
}

/// Vertex–face contact when the triangle's corners lie on one line at
/// every time ([`shared_direction`]): `Some(None)` when the vertex stays off
/// that line; the one-dimensional decision when it stays on it; `None`
/// otherwise (or, never in practice, when the time of impact could not be
/// bracketed). Every coordinate must be in the filter range.
pub(super) fn vertex_face(points: [&Vec3; 8]) -> Option<Option<Toi>> {
    let [v0, a0, b0, c0, v1, a1, b1, c1] = points;
    let k = match line_or_apart(&points, (&[a0, b0, c0], &[a1, b1, c1]), (&[v0], &[v1]))? {
        Ok(k) => k,
        Err(()) => return Some(None),
    };
    let corners = [along(k, a0, a1), along(k, b0, b1), along(k, c0, c1)];
    match earliest_in_hull(along(k, v0, v1), &corners) {
        None => Some(None),
        Some(t) => bracket(t).map(Some),
    }
}

/// Edge–edge contact when both edges lie on parallel lines at every time:
/// `Some(None)` when the lines stay apart; the one-dimensional decision when
/// they are one line; `None` otherwise; as [`vertex_face`].
pub(super) fn edge_edge(points: [&Vec3; 8]) -> Option<Option<Toi>> {
    let [a0, b0, c0, d0, a1, b1, c1, d1] = points;
    let k = match line_or_apart(&points, (&[a0, b0], &[a1, b1]), (&[c0, d0], &[c1, d1]))? {
        Ok(k) => k,
        Err(()) => return Some(None),
    };
    let ea = [along(k, a0, a1), along(k, b0, b1)];
    let eb = [along(k, c0, c1), along(k, d0, d1)];
    // Two intervals meet iff an endpoint of one lies in the other.
    let earliest = [
        earliest_in_hull(ea[0], &eb),
        earliest_in_hull(ea[1], &eb),
        earliest_in_hull(eb[0], &ea),
        earliest_in_hull(eb[1], &ea),
    ]
    .into_iter()
    .flatten()
    .reduce(Time::min);
    match earliest {
        None => Some(None),
        Some(t) => bracket(t).map(Some),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn x(v: f64) -> Vec3 {
        Vec3::new(v, 0.0, 0.0)
    }

    /// Points `(1, 2, 3)·s` on a line through the origin that is parallel
    /// to no axis.
    fn on_diagonal(s: f64) -> Vec3 {
        Vec3::new(s, 2.0 * s, 3.0 * s)
    }

    #[test]
    fn vertex_entering_a_collapsed_triangle_at_its_root() {
        // v from 0 to 3, triangle [1, 2] at rest: contact at t = 1/3.
        let (v0, v1, a, b, c) = (x(0.0), x(3.0), x(1.0), x(2.0), x(1.5));
        let toi = vertex_face([&v0, &a, &b, &c, &v1, &a, &b, &c])
            .expect("collinear")
            .expect("contact");
        // The double nearest to 1/3 lies below it (0.0101…₂ rounds down).
        assert_eq!(
            toi,
            Toi {
                lower: 1.0 / 3.0,
                upper: (1.0f64 / 3.0).next_up()
            }
        );
        // The same along a line parallel to no axis.
        let p = [0.0, 1.0, 2.0, 1.5, 3.0].map(on_diagonal);
        let diagonal = vertex_face([&p[0], &p[1], &p[2], &p[3], &p[4], &p[1], &p[2], &p[3]]);
        assert_eq!(diagonal, Some(Some(toi)));
    }

    #[test]
    fn exact_times_and_misses() {
        // Inside at the start: 0. Reaching the corner at t = 1 exactly: 1.
        let (a, b) = (x(1.0), x(2.0));
        let inside = vertex_face([&x(1.5), &a, &b, &b, &x(9.0), &a, &b, &b]);
        assert_eq!(inside, Some(Some(Toi::exact(0.0))));
        let at_one = vertex_face([&x(0.0), &a, &b, &b, &x(1.0), &a, &b, &b]);
        assert_eq!(at_one, Some(Some(Toi::exact(1.0))));
        // Passing by the interval's end at t = 1/2, a dyadic root: exact.
        let half = vertex_face([&x(0.0), &a, &b, &b, &x(2.0), &a, &b, &b]);
        assert_eq!(half, Some(Some(Toi::exact(0.5))));
        // Moving along with the interval, never inside.
        let along = vertex_face([&x(0.0), &a, &b, &b, &x(5.0), &x(6.0), &x(7.0), &x(7.0)]);
        assert_eq!(along, Some(None));
        // Segments [0, 1] and [2, 3], the second sliding onto the first
        // by 1.5: its start reaches 1 at t = 2/3.
        let (s, e) = (x(0.0), x(1.0));
        let ee = edge_edge([&s, &e, &x(2.0), &x(3.0), &s, &e, &x(0.5), &x(1.5)])
            .expect("collinear")
            .expect("contact");
        // The double nearest to 2/3 lies below it, too.
        assert_eq!(
            ee,
            Toi {
                lower: 2.0 / 3.0,
                upper: (2.0f64 / 3.0).next_up()
            }
        );
        let apart = edge_edge([&s, &e, &x(2.0), &x(3.0), &s, &e, &x(1.5), &x(2.5)]);
        assert_eq!(apart, Some(None));
    }

    #[test]
    fn a_line_moving_sideways_is_one_line_at_every_time() {
        // The x-axis at t = 0 moves to the parallel line y = 1, z = 2 while
        // the vertex slides along it into the interval [1, 2].
        let shifted = |v: f64| Vec3::new(v, 1.0, 2.0);
        let (a, b) = (x(1.0), x(2.0));
        let q = [
            x(0.0),
            a,
            b,
            b,
            shifted(2.0),
            shifted(1.0),
            shifted(2.0),
            shifted(2.0),
        ];
        let [v0, a0, b0, c0, v1, a1, b1, c1] = q.each_ref();
        let toi = vertex_face([v0, a0, b0, c0, v1, a1, b1, c1]);
        assert_eq!(toi, Some(Some(Toi::exact(0.5))));
        // A line at t = 1 that is not parallel: the points at t = 1/2 are
        // not on one line, so another tier decides.
        let tilted = |v: f64| Vec3::new(v, v, 0.0);
        let q = [
            x(0.0),
            a,
            b,
            b,
            tilted(2.0),
            tilted(1.0),
            tilted(2.0),
            tilted(2.0),
        ];
        let [v0, a0, b0, c0, v1, a1, b1, c1] = q.each_ref();
        assert_eq!(vertex_face([v0, a0, b0, c0, v1, a1, b1, c1]), None);
    }

    #[test]
    fn features_on_parallel_lines_that_stay_apart_never_meet() {
        let (a, b) = (x(1.0), x(2.0));
        // A vertex sliding along y = 1 beside the collapsed triangle [1, 2].
        let (v0, v1) = (Vec3::new(0.0, 1.0, 0.0), Vec3::new(3.0, 1.0, 0.0));
        assert_eq!(vertex_face([&v0, &a, &b, &b, &v1, &a, &b, &b]), Some(None));
        // The same vertex crossing the line at t = 1/2, inside [1, 2]: not
        // certain either way, left to the other tiers.
        let (v0, v1) = (Vec3::new(1.5, 1.0, 0.0), Vec3::new(1.5, -1.0, 0.0));
        assert_eq!(vertex_face([&v0, &a, &b, &b, &v1, &a, &b, &b]), None);
        // Parallel edges on distinct lines (y = 0 and y = 1, both moving).
        let y1 = |v: f64| Vec3::new(v, 1.0, 0.0);
        let q = [
            x(0.0),
            x(1.0),
            y1(0.0),
            y1(1.0),
            x(5.0),
            x(6.0),
            y1(-3.0),
            y1(9.0),
        ];
        let [a0, b0, c0, d0, a1, b1, c1, d1] = q.each_ref();
        assert_eq!(edge_edge([a0, b0, c0, d0, a1, b1, c1, d1]), Some(None));
        // Lines that meet at t = 1 (y = 1 moves to y = 0): left to the
        // other tiers.
        let q = [
            x(0.0),
            x(1.0),
            y1(0.0),
            y1(1.0),
            x(0.0),
            x(1.0),
            x(0.5),
            x(2.0),
        ];
        let [a0, b0, c0, d0, a1, b1, c1, d1] = q.each_ref();
        assert_eq!(edge_edge([a0, b0, c0, d0, a1, b1, c1, d1]), None);
    }

    #[test]
    fn points_off_the_line_by_an_ulp_are_left_to_the_other_tiers() {
        let p = [0.0, 1.0, 2.0, 1.5, 3.0].map(on_diagonal);
        let mut off = p[3];
        off.z = off.z.next_up();
        assert_eq!(
            vertex_face([&p[0], &p[1], &p[2], &off, &p[4], &p[1], &p[2], &p[3]]),
            None
        );
        let mut q = p;
        q[4].y = q[4].y.next_down();
        assert_eq!(
            edge_edge([&q[0], &q[1], &q[2], &q[3], &q[4], &q[1], &q[2], &q[3]]),
            None
        );
    }

    #[test]
    fn a_vertex_resting_on_an_end_of_a_collapsed_triangle_touches_at_the_start() {
        // The vertex at the triangle's least corner, which it never leaves
        // (the other corners to one side): in the hull at t = 0.
        let (a, b) = (x(1.0), x(2.0));
        let toi = vertex_face([&a, &a, &b, &b, &a, &a, &b, &b]);
        assert_eq!(toi, Some(Some(Toi::exact(0.0))));
        let toi = vertex_face([&b, &a, &b, &b, &b, &a, &b, &b]);
        assert_eq!(toi, Some(Some(Toi::exact(0.0))));
    }

    #[test]
    fn roots_compare_exactly_whatever_the_signs() {
        // 1/(1 − (−1)) = ½ against −1/(−1 − 3) = ¼: the denominators'
        // signs differ, which reverses the sign of the cross difference.
        let root = |g0: f64, g1: f64| Time::Root {
            g0: Diff::of(g0, 0.0),
            g1: Diff::of(g1, 0.0),
        };
        let (half, quarter) = (root(1.0, -1.0), root(-1.0, 3.0));
        assert_eq!(half.cmp(&quarter), Ordering::Greater);
        assert_eq!(quarter.cmp(&half), Ordering::Less);
        assert_eq!(half.cmp(&root(-2.0, 2.0)), Ordering::Equal);
        assert_eq!(Time::Zero.cmp(&quarter), Ordering::Less);
    }
}
