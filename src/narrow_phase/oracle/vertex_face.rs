//! Exact vertex–face CCD: `p(t) ∈ conv{a(t), b(t), c(t)}` for some
//! `t ∈ [0, 1]` (docs/design.md §1), degenerate triangles included.
//!
//! With `n = (b−a)×(c−a)` and the coplanarity cubic `f = n·(p−a)` (Provot
//! 1997), a coplanar `p` lies in the closed triangle iff
//! `g₁ = ((b−a)×(p−a))·n ≥ 0`, `g₂ = ((c−b)×(p−b))·n ≥ 0` and
//! `g₃ = ((a−c)×(p−c))·n ≥ 0`, provided `n ≠ 0`. Where `n = 0` the triangle is
//! a segment (or a point) and contact is `p` on one of its three edges.
//!
//! At each candidate time the certified float conditions
//! ([`super::float_filter`], on the candidate's isolating interval) are
//! tried first; an exact polynomial is built and signed only for a condition they leave undecided (typically the one that
//! is exactly zero when the vertex touches an edge).

use std::cell::OnceCell;
use std::cmp::Ordering;

use super::earliest::{Candidates, earliest};
use super::float_filter;
use super::point_segment::PointSegment;
use super::trajectories;
use crate::exact::{Algebraic, IntPoly, cross, dot, vsub};
use crate::math::{Vec3, in_filter_range};

/// The earliest contact time of vertex `v` and triangle `f0 f1 f2`, exactly;
/// `None` when they do not touch in `[0, 1]`. Arguments in data set row order.
///
/// # Panics
/// When a coordinate is NaN or infinite (it has no exact value).
#[allow(clippy::too_many_arguments)]
pub fn vertex_face(
    v_t0: &Vec3,
    f0_t0: &Vec3,
    f1_t0: &Vec3,
    f2_t0: &Vec3,
    v_t1: &Vec3,
    f0_t1: &Vec3,
    f1_t1: &Vec3,
    f2_t1: &Vec3,
) -> Option<Algebraic> {
    let [p, a, b, c] = trajectories([v_t0, f0_t0, f1_t0, f2_t0, v_t1, f0_t1, f1_t1, f2_t1]);
    let n = cross(&vsub(&b, &a), &vsub(&c, &a));
    let f = dot(&n, &vsub(&p, &a));
    // Polynomials needed only at candidate times are built on first use.
    let n2 = OnceCell::new();
    let n2 = || n2.get_or_init(|| dot(&n, &n));
    let g: [OnceCell<IntPoly>; 3] = Default::default();
    let corners = [(&a, &b), (&b, &c), (&c, &a)];
    let g = |i: usize| {
        g[i].get_or_init(|| {
            let (u, w) = corners[i];
            dot(&cross(&vsub(w, u), &vsub(&p, u)), &n)
        })
    };
    // Point–segment tests, needed only where the triangle degenerates.
    let edges = OnceCell::new();
    let edges = || edges.get_or_init(|| corners.map(|(u, w)| PointSegment::new(&p, u, w)));
    // The certified float conditions settle most candidate times cheaply.
    let in_range = [v_t0, f0_t0, f1_t0, f2_t0, v_t1, f0_t1, f1_t1, f2_t1]
        .iter()
        .all(|q| q.iter().all(|&x| in_filter_range(x)));
    let float = |t: &mut Algebraic| {
        in_range.then(|| {
            t.refine_with_float();
            float_filter::vertex_face(
                [v_t0, f0_t0, f1_t0, f2_t0, v_t1, f0_t1, f1_t1, f2_t1],
                t.lower_f64(),
                t.upper_f64(),
            )
        })?
    };

    // Membership at a time where the four points are coplanar.
    let member = |t: &mut Algebraic| {
        let float = float(t);
        if let Some(decided) = float.as_ref().and_then(|gf| float_filter::decide(gf)) {
            return decided;
        }
        let positive = |i: usize| float.as_ref().is_some_and(|gf| gf[i].certainly_positive());
        if (0..3).any(positive) || t.sign_of(n2()) != Ordering::Equal {
            (0..3).all(|i| positive(i) || t.sign_of(g(i)) != Ordering::Less)
        } else {
            edges().iter().any(|e| e.member(t))
        }
    };
    let candidates = if !f.is_zero() {
        Candidates::roots_of(f)
    } else if !n2().is_zero() {
        Candidates::zero_and_roots_of((0..3).map(|i| g(i).clone()).chain([n2().clone()]))
    } else {
        edges()
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
        vertex_face(&q[0], &q[1], &q[2], &q[3], &q[4], &q[5], &q[6], &q[7]).map(|mut t| {
            t.refine_to(1e-14);
            t.lower_f64()
        })
    }

    const A: (f64, f64, f64) = (0.0, 0.0, 0.0);

    fn tri() -> [Vec3; 3] {
        [v(A.0, A.1, A.2), v(1.0, 0.0, 0.0), v(0.0, 1.0, 0.0)]
    }

    #[test]
    fn point_falls_through_the_triangle() {
        let [a, b, c] = tri();
        let q = [v(0.2, 0.2, 1.0), a, b, c, v(0.2, 0.2, -1.0), a, b, c];
        assert_eq!(toi(q), Some(0.5));
    }

    #[test]
    fn point_passes_beside_the_triangle() {
        let [a, b, c] = tri();
        let q = [v(0.8, 0.8, 1.0), a, b, c, v(0.8, 0.8, -1.0), a, b, c];
        assert_eq!(toi(q), None);
    }

    #[test]
    fn point_hits_exactly_an_edge_and_a_vertex() {
        let [a, b, c] = tri();
        let q = [v(0.5, 0.5, 1.0), a, b, c, v(0.5, 0.5, -1.0), a, b, c];
        assert_eq!(toi(q), Some(0.5));
        let q = [v(1.0, 0.0, 1.0), a, b, c, v(1.0, 0.0, -3.0), a, b, c];
        assert_eq!(toi(q), Some(0.25));
    }

    #[test]
    fn coplanar_motion_enters_the_triangle() {
        // f ≡ 0: the point slides in the triangle's plane, entering at x = 1 − y.
        let [a, b, c] = tri();
        let q = [v(2.0, 0.25, 0.0), a, b, c, v(0.0, 0.25, 0.0), a, b, c];
        assert_eq!(toi(q), Some(0.625));
        let q = [v(2.0, 1.5, 0.0), a, b, c, v(1.0, 1.5, 0.0), a, b, c];
        assert_eq!(toi(q), None);
    }

    #[test]
    fn contact_at_the_start_and_at_the_end() {
        let [a, b, c] = tri();
        let q = [v(0.1, 0.1, 0.0), a, b, c, v(0.1, 0.1, 1.0), a, b, c];
        assert_eq!(toi(q), Some(0.0));
        let q = [v(0.1, 0.1, 1.0), a, b, c, v(0.1, 0.1, 0.0), a, b, c];
        assert_eq!(toi(q), Some(1.0));
    }

    #[test]
    fn degenerate_triangle_is_its_longest_edge() {
        // The triangle is the segment (0,0,0)–(2,0,0) with a middle vertex.
        let (a, b, c) = (v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(2.0, 0.0, 0.0));
        let q = [v(1.5, 0.0, 1.0), a, b, c, v(1.5, 0.0, -1.0), a, b, c];
        assert_eq!(toi(q), Some(0.5));
        let q = [v(2.5, 0.0, 1.0), a, b, c, v(2.5, 0.0, -1.0), a, b, c];
        assert_eq!(toi(q), None);
    }

    #[test]
    fn triangle_collapsing_through_the_point() {
        // c moves from (0,1,0) to (0,−1,0): the triangle is degenerate at t = ½,
        // the point (0.1, 0, 1) → (0.1, 0, −1) crosses z = 0 at t = ½, on edge ab.
        let (a, b) = (v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0));
        let q = [
            v(0.1, 0.0, 1.0),
            a,
            b,
            v(0.0, 1.0, 0.0),
            v(0.1, 0.0, -1.0),
            a,
            b,
            v(0.0, -1.0, 0.0),
        ];
        assert_eq!(toi(q), Some(0.5));
    }
}
