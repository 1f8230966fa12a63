//! Exact edge–edge CCD: segments `a(t)b(t)` and `c(t)d(t)` share a point for
//! some `t ∈ [0, 1]` (docs/design.md §1), parallel, collinear and zero-length edges
//! included.
//!
//! With `m = (b−a)×(d−c)` and the coplanarity cubic `f = m·(c−a)`, coplanar
//! non-parallel segments meet iff `a + s(b−a) = c + r(d−c)` with
//! `s = q₁/|m|²`, `r = q₃/|m|²` in `[0, 1]`, that is iff
//! `q₁ = ((c−a)×(d−c))·m`, `q₂ = ((b−c)×(d−c))·m = |m|² − q₁`,
//! `q₃ = ((c−a)×(b−a))·m`, `q₄ = ((b−a)×(d−a))·m = |m|² − q₃` are all
//! `≥ 0` (the difference forms avoid a cancellation). Where `m = 0` the
//! segments are parallel and meet iff an endpoint of one lies on the other.
//!
//! As for vertex–face, the certified float conditions are tried first at each
//! candidate time, and exact polynomials are built only for the conditions
//! they leave undecided.

use std::cell::OnceCell;
use std::cmp::Ordering;

use super::earliest::{Candidates, earliest};
use super::float_filter;
use super::point_segment::PointSegment;
use super::trajectories;
use crate::exact::{Algebraic, IntPoly, cross, dot, vsub};
use crate::math::{Vec3, in_filter_range};

/// The earliest contact time of edges `ea0 ea1` and `eb0 eb1`, exactly;
/// `None` when they do not touch in `[0, 1]`. Arguments in data set row order.
///
/// # Panics
/// When a coordinate is NaN or infinite (it has no exact value).
#[allow(clippy::too_many_arguments)]
pub fn edge_edge(
    ea0_t0: &Vec3,
    ea1_t0: &Vec3,
    eb0_t0: &Vec3,
    eb1_t0: &Vec3,
    ea0_t1: &Vec3,
    ea1_t1: &Vec3,
    eb0_t1: &Vec3,
    eb1_t1: &Vec3,
) -> Option<Algebraic> {
    let [a, b, c, d] = trajectories([
        ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1,
    ]);
    let e1 = vsub(&b, &a);
    let e2 = vsub(&d, &c);
    let ca = vsub(&c, &a);
    let m = cross(&e1, &e2);
    let f = dot(&m, &ca);
    // Polynomials needed only at candidate times are built on first use.
    let m2 = OnceCell::new();
    let m2 = || m2.get_or_init(|| dot(&m, &m));
    let q: [OnceCell<IntPoly>; 4] = Default::default();
    let q = |i: usize| {
        q[i].get_or_init(|| match i {
            0 => dot(&cross(&ca, &e2), &m),
            1 => dot(&cross(&vsub(&b, &c), &e2), &m),
            2 => dot(&cross(&ca, &e1), &m),
            _ => dot(&cross(&e1, &vsub(&d, &a)), &m),
        })
    };
    // Point–segment tests, needed only where the edges are parallel.
    let ends = OnceCell::new();
    let ends = || {
        ends.get_or_init(|| {
            [
                PointSegment::new(&a, &c, &d),
                PointSegment::new(&b, &c, &d),
                PointSegment::new(&c, &a, &b),
                PointSegment::new(&d, &a, &b),
            ]
        })
    };
    // The certified float conditions settle most candidate times cheaply.
    let in_range = [
        ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1,
    ]
    .iter()
    .all(|p| p.iter().all(|&x| in_filter_range(x)));
    let float = |t: &mut Algebraic| {
        in_range.then(|| {
            t.refine_with_float();
            float_filter::edge_edge(
                [
                    ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1,
                ],
                t.lower_f64(),
                t.upper_f64(),
            )
        })?
    };

    // Membership at a time where the four points are coplanar.
    let member = |t: &mut Algebraic| {
        let float = float(t);
        if let Some(decided) = float.as_ref().and_then(|qf| float_filter::decide(qf)) {
            return decided;
        }
        let positive = |i: usize| float.as_ref().is_some_and(|qf| qf[i].certainly_positive());
        if (0..4).any(positive) || t.sign_of(m2()) != Ordering::Equal {
            (0..4).all(|i| positive(i) || t.sign_of(q(i)) != Ordering::Less)
        } else {
            ends().iter().any(|e| e.member(t))
        }
    };
    let candidates = if !f.is_zero() {
        Candidates::roots_of(f)
    } else if !m2().is_zero() {
        Candidates::zero_and_roots_of((0..4).map(|i| q(i).clone()).chain([m2().clone()]))
    } else {
        ends()
            .iter()
            .map(PointSegment::candidates)
            .fold(Candidates::default(), Candidates::union)
    };
    earliest(candidates, member)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f64, y: f64, z: f64) -> Vec3 {
        Vec3::new(x, y, z)
    }

    fn toi(q: [Vec3; 8]) -> Option<f64> {
        edge_edge(&q[0], &q[1], &q[2], &q[3], &q[4], &q[5], &q[6], &q[7]).map(|mut t| {
            t.refine_to(1e-14);
            t.lower_f64()
        })
    }

    #[test]
    fn crossing_edges() {
        let (a, b) = (v(-1.0, 0.0, 0.0), v(1.0, 0.0, 0.0));
        let q = [
            a,
            b,
            v(0.0, -1.0, 1.0),
            v(0.0, 1.0, 1.0),
            a,
            b,
            v(0.0, -1.0, -1.0),
            v(0.0, 1.0, -1.0),
        ];
        assert_eq!(toi(q), Some(0.5));
    }

    #[test]
    fn edges_passing_beyond_an_end() {
        let (a, b) = (v(-1.0, 0.0, 0.0), v(1.0, 0.0, 0.0));
        let q = [
            a,
            b,
            v(2.0, -1.0, 1.0),
            v(2.0, 1.0, 1.0),
            a,
            b,
            v(2.0, -1.0, -1.0),
            v(2.0, 1.0, -1.0),
        ];
        assert_eq!(toi(q), None);
    }

    #[test]
    fn parallel_edges_meet_when_collinear_and_overlapping() {
        // Two parallel edges; the second drops onto the first's line at t = ¼.
        let (a, b) = (v(0.0, 0.0, 0.0), v(2.0, 0.0, 0.0));
        let q = [
            a,
            b,
            v(1.0, 0.0, 1.0),
            v(3.0, 0.0, 1.0),
            a,
            b,
            v(1.0, 0.0, -3.0),
            v(3.0, 0.0, -3.0),
        ];
        assert_eq!(toi(q), Some(0.25));
        // Same, but disjoint along the line.
        let q = [
            a,
            b,
            v(3.0, 0.0, 1.0),
            v(5.0, 0.0, 1.0),
            a,
            b,
            v(3.0, 0.0, -3.0),
            v(5.0, 0.0, -3.0),
        ];
        assert_eq!(toi(q), None);
    }

    #[test]
    fn touching_end_to_end_in_coplanar_motion() {
        // Collinear edges sliding towards each other: ends meet at t = ½.
        let q = [
            v(0.0, 0.0, 0.0),
            v(1.0, 0.0, 0.0),
            v(2.0, 0.0, 0.0),
            v(3.0, 0.0, 0.0),
            v(0.0, 0.0, 0.0),
            v(1.0, 0.0, 0.0),
            v(0.0, 0.0, 0.0),
            v(1.0, 0.0, 0.0),
        ];
        assert_eq!(toi(q), Some(0.5));
    }

    #[test]
    fn zero_length_edge_is_a_point() {
        let p = v(0.5, 0.0, 1.0);
        let p1 = v(0.5, 0.0, -1.0);
        let q = [
            p,
            p,
            v(0.0, 0.0, 0.0),
            v(1.0, 0.0, 0.0),
            p1,
            p1,
            v(0.0, 0.0, 0.0),
            v(1.0, 0.0, 0.0),
        ];
        assert_eq!(toi(q), Some(0.5));
    }
}
