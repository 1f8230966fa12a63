//! The contact conditions, exactly, at a root of the coplanarity cubic that
//! lies exactly at an end of the step (`t = 0` or `t = 1`, a structural zero
//! the scan divides out; [`super::roots`]): a vertex exactly on a slanted
//! edge of the triangle at the start, lifting off; an edge end landing
//! exactly on the other edge at the end of the step (docs/design.md §9).
//!
//! There the float tiers' conditions ([`super::conditions`]) leave a
//! condition that is exactly zero uncertain unless a structural argument
//! proves the zero (shared coordinates), and the query went to the exact
//! oracle. At an end, though, every position is an input double: the
//! conditions `gᵢ = cᵢ·n` (vertex–face) and `qᵢ = cᵢ·m` (edge–edge) are
//! polynomials of degree 4 in the coordinates at that end, each `cᵢ` and the
//! normal a cross product of two differences of input points (the forms of
//! [`super::conditions`]' lemma), signed exactly in integers on the common
//! scale of those coordinates ([`crate::math::on_common_scale`], [`I768`]:
//! differences below `2¹⁰¹`, cross products below `2²⁰³`, the conditions
//! below `2⁴⁰⁸`). The decision is the float tiers' primary rule with exact
//! signs (Provot 1997): one condition negative, no contact at this root (it
//! implies a non-zero normal and the point outside); all non-negative and
//! one positive, contact; all zero (a collapsed triangle, parallel edges),
//! undecided.
//!
//! Such a root also leaves the cubic's value at that end unsigned in the
//! precise tier; [`zero_ends`] signs it exactly (the four points'
//! orientation, degree 3 on the same scale), so that the root is found
//! without computing the whole cubic exactly.

use super::roots::Bracket;
use crate::math::{BoundedDd, I768, Vec3, on_common_scale};

/// Vertex–face contact at a root exactly at an end of the step (`bracket`
/// is `[0, 0]` or `[1, 1]`): `Some(decision)`, or `None` when undecided or
/// the bracket is not at an end. Points in data set order.
pub fn vertex_face(points: [&Vec3; 8], bracket: &Bracket) -> Option<bool> {
    let [v, f0, f1, f2] = at_an_end(points, bracket)?;
    let n = I768::cross(&diff(&f1, &f0), &diff(&f2, &f0));
    let c = [
        I768::cross(&diff(&f1, &f0), &diff(&v, &f0)),
        I768::cross(&diff(&f2, &f1), &diff(&v, &f1)),
        I768::cross(&diff(&f0, &f2), &diff(&v, &f2)),
    ];
    decide(c.map(|ci| dot(&ci, &n).signum()))
}

/// Edge–edge contact at a root exactly at an end of the step, as
/// [`vertex_face`].
pub fn edge_edge(points: [&Vec3; 8], bracket: &Bracket) -> Option<bool> {
    let [a0, a1, b0, b1] = at_an_end(points, bracket)?;
    let (e1, e2) = (diff(&a1, &a0), diff(&b1, &b0));
    let m = I768::cross(&e1, &e2);
    let c = [
        I768::cross(&diff(&b0, &a0), &e2),
        I768::cross(&diff(&a1, &b0), &e2),
        I768::cross(&diff(&b0, &a0), &e1),
        I768::cross(&e1, &diff(&b1, &a0)),
    ];
    decide(c.map(|ci| dot(&ci, &m).signum()))
}

/// The precise tier's coplanarity coefficients `c` (scaled Bernstein, so
/// `c₀` and `c₃` are the cubic's values at `t = 0` and `t = 1`) with each
/// unsigned end value replaced by an exact zero, where the cubic is exactly
/// zero there: a root exactly at an end of the step, as a vertex resting on
/// a slanted edge makes, found without the exact cubic. The end value is
/// `det[b − a, c − a, d − a]` of the four input points at that end, in the
/// order [`super::certified::coplanarity`] takes them, signed exactly.
/// `None` unless both middle coefficients are signed, some end value is
/// not, and every end value that is not is exactly zero (the exact cubic
/// decides the rest).
pub fn zero_ends(
    c: &[BoundedDd; 4],
    at_t0: [&Vec3; 4],
    at_t1: [&Vec3; 4],
) -> Option<[BoundedDd; 4]> {
    if c[1].sign().is_none() || c[2].sign().is_none() {
        return None;
    }
    if c[0].sign().is_some() && c[3].sign().is_some() {
        return None;
    }
    let mut zeroed = *c;
    for (k, at) in [(0, at_t0), (3, at_t1)] {
        if c[k].sign().is_none() {
            if orientation(at)? != 0 {
                return None;
            }
            zeroed[k] = BoundedDd::exact(0.0);
        }
    }
    Some(zeroed)
}

/// The sign of `det[b − a, c − a, d − a]` for input points `[a, b, c, d]`,
/// exactly on their common scale (`None` when it is refused).
fn orientation(p: [&Vec3; 4]) -> Option<i8> {
    let xs: [f64; 12] = std::array::from_fn(|i| p[i / 3][i % 3]);
    let v = on_common_scale(xs)?;
    let q: [Point; 4] = std::array::from_fn(|p| std::array::from_fn(|c| v[3 * p + c]));
    let n = I768::cross(&diff(&q[1], &q[0]), &diff(&q[2], &q[0]));
    let w = diff(&q[3], &q[0]).map(I768::from_i128);
    Some(dot(&n, &w).signum())
}

/// A point as integers on the common scale.
type Point = [i128; 3];

/// The four points at the end that `bracket` is, on their common scale;
/// `None` when the bracket is not an end or the scale is refused.
fn at_an_end(points: [&Vec3; 8], bracket: &Bracket) -> Option<[Point; 4]> {
    let first = match (bracket.lo, bracket.hi) {
        (0.0, 0.0) => 0,
        (1.0, 1.0) => 4,
        _ => return None,
    };
    let xs: [f64; 12] = std::array::from_fn(|i| points[first + i / 3][i % 3]);
    let v = on_common_scale(xs)?;
    Some(std::array::from_fn(|p| {
        std::array::from_fn(|c| v[3 * p + c])
    }))
}

/// `x − y`.
fn diff(x: &Point, y: &Point) -> Point {
    std::array::from_fn(|c| x[c] - y[c])
}

/// `x · y`.
fn dot(x: &[I768; 3], y: &[I768; 3]) -> I768 {
    x[0] * y[0] + x[1] * y[1] + x[2] * y[2]
}

/// The primary rule on exact signs (module doc).
fn decide<const K: usize>(signs: [i8; K]) -> Option<bool> {
    if signs.contains(&-1) {
        Some(false)
    } else if signs.contains(&1) {
        Some(true)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::narrow_phase::certified::coplanarity;
    use crate::narrow_phase::{SolverTier, Toi, edge_edge_traced, vertex_face_traced};

    fn v(x: f64, y: f64, z: f64) -> Vec3 {
        Vec3::new(x, y, z)
    }

    fn refs(q: &[Vec3; 8]) -> [&Vec3; 8] {
        std::array::from_fn(|i| &q[i])
    }

    const START: Bracket = Bracket { lo: 0.0, hi: 0.0 };
    const END: Bracket = Bracket { lo: 1.0, hi: 1.0 };

    /// A vertex at the midpoint of the slanted edge `f0 f1` at `t = 0`,
    /// lifting off along the triangle's normal `(0, 1, −1)`.
    fn lifting_off() -> [Vec3; 8] {
        let (f0, f1, f2) = (v(0.0, 0.0, 0.0), v(2.0, 2.0, 2.0), v(2.0, 0.0, 0.0));
        [v(1.0, 1.0, 1.0), f0, f1, f2, v(1.0, 1.25, 0.75), f0, f1, f2]
    }

    #[test]
    fn a_vertex_on_a_slanted_edge_touches_at_the_start_only() {
        let q = lifting_off();
        assert_eq!(vertex_face(refs(&q), &START), Some(true));
        // At t = 1 it is off the plane: the rule does not apply there, and
        // the coplanar vertex beyond the edge's end is outside.
        let mut beyond = q;
        beyond[0] = v(3.0, 3.0, 3.0);
        assert_eq!(vertex_face(refs(&beyond), &START), Some(false));
        // Not a bracket at an end: not this rule's.
        assert_eq!(vertex_face(refs(&q), &Bracket { lo: 0.0, hi: 0.5 }), None);
        // The solver: contact exactly at the start, without the oracle
        // (landing, the reverse motion, at the end).
        assert_eq!(
            vertex_face_traced(&q[0], &q[1], &q[2], &q[3], &q[4], &q[5], &q[6], &q[7]),
            (Some(Toi::exact(0.0)), SolverTier::Float)
        );
        let (toi, tier) =
            vertex_face_traced(&q[4], &q[5], &q[6], &q[7], &q[0], &q[1], &q[2], &q[3]);
        assert_eq!((toi.map(|t| t.upper), tier), (Some(1.0), SolverTier::Float));
    }

    /// The precise tier cannot sign the cubic's value at the start of
    /// [`lifting_off`] (exactly zero, from rounded products), nor at the end
    /// of the reverse motion: each is replaced by an exact zero, the rest
    /// kept; a signed end is not this rule's.
    #[test]
    fn an_exactly_zero_end_value_is_zeroed_without_the_exact_cubic() {
        let q = lifting_off();
        let [v0, f0, f1, f2, v1, g0, g1, g2] = refs(&q);
        let c: [BoundedDd; 4] = coplanarity(f0, f1, f2, v0, g0, g1, g2, v1);
        assert_eq!(c.map(|x| x.sign().is_some()), [false, true, true, true]);
        let zeroed = zero_ends(&c, [f0, f1, f2, v0], [g0, g1, g2, v1]).unwrap();
        assert_eq!(zeroed[0], BoundedDd::exact(0.0));
        assert_eq!(zeroed[1..], c[1..]);
        let c: [BoundedDd; 4] = coplanarity(g0, g1, g2, v1, f0, f1, f2, v0);
        let zeroed = zero_ends(&c, [g0, g1, g2, v1], [f0, f1, f2, v0]).unwrap();
        assert_eq!(zeroed[3], BoundedDd::exact(0.0));
        // Off the edge by a little at the start: that end is signed.
        let mut off = q;
        off[0] = v(1.0, 1.0, 1.0 + 2f64.powi(-20));
        let [v0, ..] = refs(&off);
        let c: [BoundedDd; 4] = coplanarity(f0, f1, f2, v0, g0, g1, g2, v1);
        assert_eq!(zero_ends(&c, [f0, f1, f2, v0], [g0, g1, g2, v1]), None);
    }

    #[test]
    fn an_edge_end_landing_on_a_slanted_edge_touches_at_the_end() {
        // Edge b, along z, moves by (0, −1, 0) until its end b0 lands on the
        // midpoint of edge a = (0,0,0)–(2,2,2): the cubic is 4t − 4.
        let (a0, a1) = (v(0.0, 0.0, 0.0), v(2.0, 2.0, 2.0));
        let q = [
            a0,
            a1,
            v(1.0, 2.0, 1.0),
            v(1.0, 2.0, 3.0),
            a0,
            a1,
            v(1.0, 1.0, 1.0),
            v(1.0, 1.0, 3.0),
        ];
        assert_eq!(edge_edge(refs(&q), &END), Some(true));
        let (toi, tier) = edge_edge_traced(&q[0], &q[1], &q[2], &q[3], &q[4], &q[5], &q[6], &q[7]);
        assert_eq!((toi.map(|t| t.upper), tier), (Some(1.0), SolverTier::Float));
    }

    #[test]
    fn collapsed_features_leave_every_condition_zero() {
        // A triangle on a line at t = 0, the vertex on it; two edges on one
        // line: undecided here.
        let (a, b, c) = (v(0.0, 0.0, 0.0), v(1.0, 1.0, 1.0), v(2.0, 2.0, 2.0));
        let q = [v(0.5, 0.5, 0.5), a, b, c, a, a, b, c];
        assert_eq!(vertex_face(refs(&q), &START), None);
        let q = [a, b, v(0.5, 0.5, 0.5), c, a, b, c, c];
        assert_eq!(edge_edge(refs(&q), &START), None);
    }
}
