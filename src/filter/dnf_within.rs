//! DNF at a minimum separation `d > 0` (docs/design.md §5): the deforming
//! non-penetration filter of Tang, Manocha & Tong (I3D 2010; the core
//! paper's ref. \[6\]) with a margin, for
//! [`crate::narrow_phase::vertex_face_within`] and
//! [`crate::narrow_phase::edge_edge_within`].
//!
//! **Guarantee:** [`Verdict::Culled`] ⇒ the features stay more than `d`
//! apart on all of `[0, 1]`.
//!
//! **Why.** With `det(t)` the coplanarity cubic of the four points
//! (docs/design.md §2.2) and `n(t)` the normal it is the triple product
//! with:
//! - vertex–face: `det = n·(v − f₀)`, `n = (f₁ − f₀)×(f₂ − f₀)`, and
//!   `|det|/|n|` is the vertex's distance to the triangle's plane, at most
//!   its distance to the triangle;
//! - edge–edge: `det = det[a₁ − a₀, b₀ − a₀, b₁ − a₀] = (a₁ − a₀)×(b₁ − b₀)·(b₀ − a₀)`
//!   up to sign, `n = (a₁ − a₀)×(b₁ − b₀)`, and `|det|/|n|` is the distance
//!   between the two lines, at most the segments' distance.
//!
//! So `det(t) > d·|n(t)|` on `[0, 1]` (or `det(t) < −d·|n(t)|`) keeps the
//! features more than `d` apart (and `n(t) ≠ 0`). `n(t) = a(t)×b(t)` for two
//! linearly moving differences, and `|a(t)| ≤ max(|a(0)|, |a(1)|)` (the norm
//! is convex), so `|n(t)| ≤ A·B` with `A`, `B` the larger end norms; and the
//! cubic lies in the convex hull of its Bernstein coefficients `b_k`. Hence
//! every `b_k > d·A·B` (or every `b_k < −d·A·B`) suffices. At `d = 0` this
//! is DNF's test.
//!
//! **Rounding.** The scaled coefficients `c = [b₀, 3b₁, 3b₂, b₃]` come from
//! [`super::cubic::coplanarity_static`], each within its `err` of the exact
//! one. The end norms are bounded from the computed differences (`u` the
//! unit roundoff, `f64::EPSILON / 2`): `|x − y| ≤ |fl(x − y)|/(1 − u)`, the
//! sum of squares `S` loses at most `(1 − u)³` and the square root
//! `(1 − u)`, so the exact norm is at most `fl(√S)/(1 − u)^3.5`. With
//! `A = fl(fl(√S)·(1 + 4u))` (the larger end's), `B` likewise and
//! `D = fl(fl(fl(d·A)·B)·(1 + 16u))`, the margin is
//! `D ≥ d·|a|·|b|·(1 + 4u)²(1 + 16u)(1 − u)¹²`, more than `d·|a|·|b|`.
//! A coefficient counts when `c_k > θ_k = fl(fl(err + fl(m_k·D))·(1 + 4u))`
//! (`m = 1, 3, 3, 1`), and `θ_k ≥ (err + m_k·D)(1 − u)³(1 + 4u)`, more than
//! `err + m_k·D`, so the exact `c_k > m_k·D`.
//!
//! Range: the cubic is computed only for differences between `2⁻³⁰⁰`
//! and `2²⁰⁰`; the end norms must be at least `2⁻³⁰⁰` (else the pair
//! passes), so a square that underflows changes `S ≥ 2⁻⁶⁰⁰` by far less
//! than the slack above; `d` below `2⁻⁴⁰⁰` is replaced by `2⁻⁴⁰⁰` (a larger
//! `d` only culls less), so every product is normal; an overflow gives `∞`
//! and the pair passes.

use super::Verdict;
use super::cubic::{Cubic, ee_cubic, vf_cubic};
use super::points::{P3, Points, sub};
use crate::math::UNIT_ROUNDOFF;
use crate::pair_kernel::QueryKind;

/// Smallest end norm the bound is used for (`2⁻³⁰⁰`).
pub(super) const NORM_MIN: f64 = f64::from_bits((1023 - 300) << 52);

/// Smallest `d` the products use (`2⁻⁴⁰⁰`; a smaller `d` is replaced by it).
pub(super) const D_MIN: f64 = f64::from_bits((1023 - 400) << 52);

/// DNF at separation `d > 0` on a pair's eight points (data set row order:
/// `v, f0, f1, f2` or `ea0, ea1, eb0, eb1`, at `t = 0` then `t = 1`):
/// [`Verdict::Culled`] only when the features stay more than `d` apart on
/// `[0, 1]` (module doc). A `d` that is NaN, negative or infinite culls
/// nothing.
#[inline]
pub fn dnf_within(kind: QueryKind, p: &Points, d: f64) -> Verdict {
    if !(d >= 0.0 && d.is_finite()) {
        return Verdict::Pass;
    }
    let cubic = match kind {
        QueryKind::VertexFace => vf_cubic(p),
        QueryKind::EdgeEdge => ee_cubic(p),
    };
    match (cubic, normal_margin(kind, p, d)) {
        (Some(cubic), Some(margin)) => dnf_beyond(&cubic, margin),
        _ => Verdict::Pass,
    }
}

/// The margin `D ≥ d·|n(t)|` on `[0, 1]` of the module doc for a pair's
/// eight points and a finite `d ≥ 0`; `None` when an end norm is below
/// `2⁻³⁰⁰` (the pair then passes).
#[inline(always)]
pub(super) fn normal_margin(kind: QueryKind, p: &Points, d: f64) -> Option<f64> {
    // The two differences whose cross product is the normal, at both ends.
    let ([a0, a1], [b0, b1]) = match kind {
        QueryKind::VertexFace => (
            [sub(&p[2], &p[1]), sub(&p[6], &p[5])],
            [sub(&p[3], &p[1]), sub(&p[7], &p[5])],
        ),
        QueryKind::EdgeEdge => (
            [sub(&p[1], &p[0]), sub(&p[5], &p[4])],
            [sub(&p[3], &p[2]), sub(&p[7], &p[6])],
        ),
    };
    let (a, b) = (norm_bound(&a0, &a1)?, norm_bound(&b0, &b1)?);
    Some(d.max(D_MIN) * a * b * (1.0 + 16.0 * UNIT_ROUNDOFF))
}

/// DNF's test with the margin `D` ([`normal_margin`]): culled when every
/// Bernstein coefficient of the cubic exceeds `D`, or every one is below
/// `−D`, with the rounding of the module doc.
#[inline(always)]
pub(super) fn dnf_beyond(cubic: &Cubic, margin: f64) -> Verdict {
    let u = UNIT_ROUNDOFF;
    let theta = |m: f64| (cubic.err + m * margin) * (1.0 + 4.0 * u);
    let (t1, t3) = (theta(1.0), theta(3.0));
    let c = &cubic.c;
    let above = c[0] > t1 && c[1] > t3 && c[2] > t3 && c[3] > t1;
    let below = c[0] < -t1 && c[1] < -t3 && c[2] < -t3 && c[3] < -t1;
    Verdict::culled_if(above || below)
}

/// `A` of the module doc for a difference computed at its two ends `x`,
/// `y`: `fl(fl(√S)·(1 + 4u))` for the larger `S`, or `None` below `2⁻³⁰⁰`.
#[inline(always)]
fn norm_bound(x: &P3, y: &P3) -> Option<f64> {
    let sq = |v: &P3| v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    let (s0, s1) = (sq(x), sq(y));
    let n = if s0 > s1 { s0 } else { s1 }.sqrt();
    let n = n * (1.0 + 4.0 * UNIT_ROUNDOFF);
    (n >= NORM_MIN).then_some(n)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::filter::points;
    use crate::math::Vec3;
    use crate::narrow_phase::{edge_edge_within, vertex_face_within};
    use proptest::prelude::*;

    fn vf(q: [Vec3; 8]) -> Points {
        points(q.each_ref().map(|p| p))
    }

    #[test]
    fn culls_a_vertex_that_stays_farther_than_d_above_the_plane() {
        let (a, b, c) = (
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
        );
        let (p0, p1) = (Vec3::new(0.2, 0.2, 1.0), Vec3::new(0.3, 0.2, 0.5));
        let q = vf([p0, a, b, c, p1, a, b, c]);
        assert_eq!(dnf_within(QueryKind::VertexFace, &q, 0.25), Verdict::Culled);
        // Within 0.5 at t = 1: never culled, and the solver says within.
        assert_eq!(dnf_within(QueryKind::VertexFace, &q, 0.5), Verdict::Pass);
        assert_eq!(dnf_within(QueryKind::VertexFace, &q, 0.75), Verdict::Pass);
        assert!(vertex_face_within(&p0, &a, &b, &c, &p1, &a, &b, &c, 0.5).is_some());
        // Bad separations cull nothing.
        for d in [f64::NAN, -1.0, f64::INFINITY] {
            assert_eq!(dnf_within(QueryKind::VertexFace, &q, d), Verdict::Pass);
        }
    }

    #[test]
    fn culls_two_edges_on_parallel_planes_farther_than_d() {
        let (a0, a1) = (Vec3::new(0.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0));
        let (b0, b1) = (Vec3::new(0.5, -1.0, 0.3), Vec3::new(0.5, 1.0, 0.3));
        let q = vf([a0, a1, b0, b1, a0, a1, b0, b1]);
        assert_eq!(dnf_within(QueryKind::EdgeEdge, &q, 0.29), Verdict::Culled);
        assert_eq!(dnf_within(QueryKind::EdgeEdge, &q, 0.3), Verdict::Pass);
        // Parallel edges have no normal: never culled.
        let (c0, c1) = (Vec3::new(0.0, 0.0, 1.0), Vec3::new(1.0, 0.0, 1.0));
        let q = vf([a0, a1, c0, c1, a0, a1, c0, c1]);
        assert_eq!(dnf_within(QueryKind::EdgeEdge, &q, 0.5), Verdict::Pass);
    }

    /// Scaled coefficients `(1, 1, 1, 1)`: Bernstein `(1, 1/3, 1/3, 1)`,
    /// whose cubic is `1/2` at `t = 1/2`. Above a margin of `1/4` everywhere
    /// (culled); at `0.4` the middle ones (`1/3`) are not, and the cubic
    /// itself comes within `0.4·1.25`: never culled.
    #[test]
    fn middle_coefficients_are_compared_with_three_margins() {
        let cubic = Cubic {
            c: [1.0; 4],
            err: 0.0,
        };
        assert_eq!(dnf_beyond(&cubic, 0.25), Verdict::Culled);
        assert_eq!(dnf_beyond(&cubic, 0.4), Verdict::Pass);
        assert_eq!(dnf_beyond(&cubic, 0.5), Verdict::Pass);
    }

    /// A coordinate: uniform in `[−2, 2]`, on the eighths lattice, or 0.
    fn coord() -> impl Strategy<Value = f64> {
        prop_oneof![
            3 => -2.0..2.0f64,
            2 => (-16i32..=16).prop_map(|i| f64::from(i) / 8.0),
            1 => Just(0.0),
        ]
    }

    /// A point of [`coord`]s (shared with the window filter's tests).
    pub(in crate::filter) fn point() -> impl Strategy<Value = Vec3> {
        (coord(), coord(), coord()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

        /// A vertex on an edge at `t = 0` whose coefficients round
        /// ([`crate::filter::window::tests::vertex_on_an_edge_at_the_start`]):
        /// the pair touches, so it is within every `d`, however small, and
        /// the margin of a tiny `d` adds nothing to the cubic's own rounding
        /// bound: never culled.
        #[test]
        fn never_culls_a_touch_at_the_start_within_a_tiny_d(
            q in crate::filter::window::tests::vertex_on_an_edge_at_the_start(),
            d in prop_oneof![Just(1e-300), Just(1e-20), Just(f64::from_bits(1))],
        ) {
            prop_assert_eq!(dnf_within(QueryKind::VertexFace, &vf(q), d), Verdict::Pass);
        }

        /// A culled pair is never within `d` (the exact solver, whose
        /// verdicts are checked against the exact oracle elsewhere); at
        /// `d` it culls no more than DNF itself at 0.
        #[test]
        fn never_culls_a_pair_within_d(
            mut q in proptest::array::uniform8(point()),
            lift in prop_oneof![Just(0.0), Just(0.5), 0.0..3.0f64],
            d in prop_oneof![Just(1e-300), Just(1e-9), 0.0..1.0f64, Just(0.125)],
        ) {
            // Lifting the vertex (edge a's first end) at both times makes
            // culls, and near misses at d, common.
            q[0].z += lift;
            q[4].z += lift;
            let p = vf(q);
            let [a, b, c, e, f, g, h, i] = &q;
            if dnf_within(QueryKind::VertexFace, &p, d) == Verdict::Culled {
                prop_assert!(vertex_face_within(a, b, c, e, f, g, h, i, d).is_none(), "VF d = {d}: {q:?}");
                prop_assert_eq!(crate::filter::dnf_vertex_face(a, b, c, e, f, g, h, i), Verdict::Culled);
            }
            if dnf_within(QueryKind::EdgeEdge, &p, d) == Verdict::Culled {
                prop_assert!(edge_edge_within(a, b, c, e, f, g, h, i, d).is_none(), "EE d = {d}: {q:?}");
                prop_assert_eq!(crate::filter::dnf_edge_edge(a, b, c, e, f, g, h, i), Verdict::Culled);
            }
        }

        /// Separated by a plane at height `h` above a face in `z = 0`
        /// moving sideways, a vertex that stays above `h > d` is culled.
        #[test]
        fn culls_what_a_plane_keeps_apart(
            x0 in -1.0..1.0f64, y0 in -1.0..1.0f64, x1 in -1.0..1.0f64, y1 in -1.0..1.0f64,
            h0 in 0.5..2.0f64, h1 in 0.5..2.0f64, d in 0.0..0.45f64,
        ) {
            let (a, b, c) = (Vec3::new(0.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0), Vec3::new(0.0, 1.0, 0.0));
            let (p0, p1) = (Vec3::new(x0, y0, h0), Vec3::new(x1, y1, h1));
            let q = vf([p0, a, b, c, p1, a, b, c]);
            prop_assert_eq!(dnf_within(QueryKind::VertexFace, &q, d), Verdict::Culled);
        }
    }
}
