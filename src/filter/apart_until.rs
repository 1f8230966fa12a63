//! Whether a pair's features stay more than `d` apart on an axis through
//! the first part `[0, t]` of the step: the bounding-box test of a BVH
//! (Wan, Fu & Yao 2022, §3.1; docs/design.md §2.1 and §7) on boxes swept
//! over `[0, t]` instead of `[0, 1]`, for a step that looks only for its
//! earliest time of impact and has already found one at or before `t`
//! (docs/design.md §10, *The earliest time alone*).
//!
//! Each vertex moves on the segment from `x₀` to `x₁`, so over `[0, t]` it
//! stays in the box of `x₀` and `x(t) = x₀ + t·(x₁ − x₀)`; a feature (the
//! convex hull of its vertices at each time) stays in the union of its
//! vertices' boxes. `x(t)` is computed in floating point, three roundings
//! (the difference, the product, the sum) of at most `u = ε/2` each
//! (`ε = f64::EPSILON`): for `t ∈ [0, 1]` the result is within
//! `3u·(|x₀| + |x₁|)` of the exact point, up to terms in `u²`, and the
//! boxes are grown by `2ε·(|x₀| + |x₁|) = 4u·(…)`, whose slack also covers
//! the rounding of the growth and of the box's ends; plus
//! `f64::MIN_POSITIVE` for an underflowing product. A sum `|x₀| + |x₁|`
//! that overflows grows the box to the whole axis. Two boxes more than `d`
//! apart on an axis hold points more than `d` apart in Euclidean distance;
//! the gap is compared with `d` added to the
//! lower box's top and rounded up, so that a rounding never shows a gap
//! that is not there.

use super::Points;
use crate::pair_kernel::QueryKind;

/// Whether the pair of `kind` with the eight points `q` (data set row
/// order: vertex–face `v a b c`, edge–edge `a b c d`, at `t = 0` then
/// `t = 1`) keeps its two features more than `d ≥ 0` apart (Euclidean) at
/// every time in `[0, t]`, `0 ≤ t ≤ 1`, as shown by their boxes over that
/// span on one coordinate axis. `false` is no claim: the boxes overlap.
#[inline]
pub fn apart_until(kind: QueryKind, q: &Points, t: f64, d: f64) -> bool {
    debug_assert!((0.0..=1.0).contains(&t) && d >= 0.0);
    // The first feature's vertices: the vertex alone, or the first edge.
    let split = match kind {
        QueryKind::VertexFace => 1,
        QueryKind::EdgeEdge => 2,
    };
    (0..3).any(|k| {
        let (lo_a, hi_a) = span(&q[..split], &q[4..4 + split], k, t);
        let (lo_b, hi_b) = span(&q[split..4], &q[4 + split..], k, t);
        lo_a > (hi_b + d).next_up() || lo_b > (hi_a + d).next_up()
    })
}

/// The interval on axis `k` that holds the vertices (at `t = 0` in `x0`,
/// at `t = 1` in `x1`) at every time in `[0, t]`.
#[inline(always)]
fn span(x0: &[[f64; 3]], x1: &[[f64; 3]], k: usize, t: f64) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for (p0, p1) in x0.iter().zip(x1) {
        let (a, b) = (p0[k], p1[k]);
        let at_t = a + t * (b - a);
        let err = 2.0 * f64::EPSILON * (a.abs() + b.abs()) + f64::MIN_POSITIVE;
        lo = lo.min(a.min(at_t) - err);
        hi = hi.max(a.max(at_t) + err);
    }
    (lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::Dyadic;
    use proptest::prelude::*;

    /// A vertex 1 above a still triangle falls to 1 below it: over
    /// `[0, 0.4]` it stays above `z = 0.2`, apart at `d = 0.1` and not at
    /// `d = 0.25`; over `[0, 0.5]` it reaches the plane.
    #[test]
    fn a_falling_vertex_is_apart_until_it_nears_the_face() {
        let tri = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
        let q: Points = [
            [0.2, 0.2, 1.0],
            tri[0],
            tri[1],
            tri[2],
            [0.2, 0.2, -1.0],
            tri[0],
            tri[1],
            tri[2],
        ];
        let vf = QueryKind::VertexFace;
        assert!(apart_until(vf, &q, 0.4, 0.1));
        assert!(!apart_until(vf, &q, 0.4, 0.25));
        assert!(!apart_until(vf, &q, 0.5, 0.0));
        assert!(apart_until(vf, &q, 0.0, 0.9));
        assert!(!apart_until(vf, &q, 1.0, 0.0));
    }

    /// The pair's features' distance at time `s`, in floating point.
    fn distance_at(kind: QueryKind, q: &Points, s: f64) -> f64 {
        use crate::math::Vec3;
        use crate::narrow_phase::{point_triangle_distance, segment_segment_distance};
        let p: Vec<Vec3> = (0..4)
            .map(|i| {
                let (a, b) = (q[i], q[i + 4]);
                Vec3::new(
                    a[0] + s * (b[0] - a[0]),
                    a[1] + s * (b[1] - a[1]),
                    a[2] + s * (b[2] - a[2]),
                )
            })
            .collect();
        match kind {
            QueryKind::VertexFace => point_triangle_distance(&p[0], &p[1], &p[2], &p[3]),
            QueryKind::EdgeEdge => segment_segment_distance(&p[0], &p[1], &p[2], &p[3]),
        }
    }

    /// A double from a sign, a 53-bit mantissa and an exponent over the
    /// whole range (subnormals and zero included).
    fn wide() -> impl Strategy<Value = f64> {
        prop_oneof![
            Just(0.0),
            (any::<bool>(), 0u64..1 << 53, -1100i32..1000).prop_map(|(neg, m, e)| {
                let x = m as f64 * 2f64.powi(e.max(-1074 + 52) - 52);
                if neg { -x } else { x }
            }),
            any::<f64>().prop_filter("finite", |x| x.is_finite()),
        ]
    }

    proptest! {
        /// The interval `span` gives holds, exactly, the start `a` and the
        /// point `a + t·(b − a)` at the span's end, for doubles over the
        /// whole range (the sum `|a| + |b|` finite) and `t` in `[0, 1]`:
        /// the rounding of the computed point is covered by the growth.
        #[test]
        fn span_holds_the_exact_positions(
            a in wide(),
            b in wide(),
            t in prop_oneof![Just(0.0), Just(1.0), 0.0f64..=1.0],
        ) {
            prop_assume!((a.abs() + b.abs()).is_finite());
            let (lo, hi) = span(&[[a, 0.0, 0.0]], &[[b, 0.0, 0.0]], 0, t);
            let (da, db, dt) = (Dyadic::from_f64(a), Dyadic::from_f64(b), Dyadic::from_f64(t));
            let (na, nb, e) = da.common(&db);
            let at_t = Dyadic::new((na.clone() << dt.exp) + dt.num * (nb - na), e + dt.exp);
            for x in [da, at_t] {
                prop_assert!(Dyadic::from_f64(lo) <= x && x <= Dyadic::from_f64(hi), "{} {} {}: [{}, {}]", a, b, t, lo, hi);
            }
        }

        /// The distance between the features at sampled times of `[0, t]`,
        /// in floating point with a margin for its rounding, is never at
        /// most `d` when the test says apart, on random pairs on a coarse
        /// grid, many of them with a vertex landing on the other feature
        /// within the span: the test's logic (which vertices, which axis,
        /// which span), where `span_holds_the_exact_positions` checks its
        /// rounding.
        #[test]
        fn apart_means_no_sample_within_d(
            raw in proptest::collection::vec(-4i32..4, 24),
            scale in prop::sample::select(vec![1.0, 1e-3, 1e6, 2f64.powi(-1000), 2f64.powi(900)]),
            t in prop::sample::select(vec![0.0, 0.25, 0.5, 0.75, 1.0]),
            d_steps in 0u32..4,
            ee in any::<bool>(),
        ) {
            let kind = if ee { QueryKind::EdgeEdge } else { QueryKind::VertexFace };
            let mut q: Points = [[0.0; 3]; 8];
            for (i, r) in raw.iter().enumerate() {
                q[i / 3][i % 3] = f64::from(*r) * scale;
            }
            let d = f64::from(d_steps) * 0.5 * scale;
            if apart_until(kind, &q, t, d) {
                for k in 0..=16 {
                    let s = t * f64::from(k) / 16.0;
                    // The sampled positions are rounded too: a margin of a
                    // few ulps of the scale keeps the check honest.
                    let dist = distance_at(kind, &q, s);
                    prop_assert!(dist > d - 1e-12 * scale, "at {s}: {dist} <= {d}");
                }
            }
        }
    }
}
