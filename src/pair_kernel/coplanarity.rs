//! The coplanarity cubic of four linearly moving points, in Bernstein form,
//! with certified error bounds.
//!
//! Four points `a, b, c, d` (VF: triangle `a b c`, vertex `d`; EE: edges
//! `a–b`, `c–d`) are coplanar at `t` iff
//! `f(t) = det[b(t)−a(t), c(t)−a(t), d(t)−a(t)] = 0` (Provot 1997). With
//! `u = b − a`, `v = c − a`, `w = d − a` each linear in `t`, the determinant is
//! trilinear, so its Bernstein coefficients on `[0, 1]` are averages of the
//! eight determinants `det[u_i, v_j, w_k]`, `i, j, k ∈ {0, 1}`. Grouped as in
//! Tang, Manocha & Tong, "Fast continuous collision detection using deforming
//! non-penetration filters", I3D 2010, §4 (the core paper's ref. \[6\]):
//!
//! ```text
//! n₀ = u₀×v₀    n₁ = u₁×v₁    s = u₀×v₁ + u₁×v₀   (= n₀ + n₁ − δ = 2·n_X)
//! 3·b₀ … : b₀ = n₀·w₀,  3b₁ = s·w₀ + n₀·w₁,  3b₂ = s·w₁ + n₁·w₀,  b₃ = n₁·w₁
//! ```
//!
//! which is docs/design.md §2.2's `{A, (2C+F)/3, (2D+E)/3, B}` with `2C = s·w₀`,
//! `F = n₀·w₁`, `2D = s·w₁`, `E = n₁·w₀`. (A widely copied public port swaps
//! `C` and `F`; that version is not the Bernstein form and not conservative.)
//!
//! The differences `u, v, w` are the leaves of the error analysis
//! ([`Bounded::difference`]), so bounds scale with the query's size.
//!
//! The **scaled** coefficients `c_k = C(3,k)·b_k` have the signs of `b_k` and
//! need no division; [`coplanarity_scaled`] returns them. Every coefficient
//! carries its rounding bound ([`Bounded`]), so signs read from them are
//! certified where the model holds: no product underflows, which every
//! coordinate in the filter range guarantees ([`crate::math::in_filter_range`];
//! docs/design.md §8). Outside it (coordinates far below `2⁻¹⁴⁰`, or
//! subnormal) a bound can underflow to zero and a sign be wrong: callers
//! check the range first, as the filters and the exact solvers do.

use std::ops::{Add, Mul, Sub};

use crate::math::{Bounded, BoundedVec3, Vec3};

/// Scaled Bernstein coefficients `[b₀, 3b₁, 3b₂, b₃]` of the coplanarity cubic
/// `det[b−a, c−a, d−a]` on `t ∈ [0, 1]`, with certified error bounds for
/// coordinates in the filter range (module doc). Arguments: the four points
/// at `t = 0`, then at `t = 1`.
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn coplanarity_scaled(
    a_t0: &Vec3,
    b_t0: &Vec3,
    c_t0: &Vec3,
    d_t0: &Vec3,
    a_t1: &Vec3,
    b_t1: &Vec3,
    c_t1: &Vec3,
    d_t1: &Vec3,
) -> [Bounded; 4] {
    let d = |p, q| BoundedVec3::difference(p, q).0;
    coplanarity_of_differences(
        &[d(b_t0, a_t0), d(c_t0, a_t0), d(d_t0, a_t0)],
        &[d(b_t1, a_t1), d(c_t1, a_t1), d(d_t1, a_t1)],
    )
}

/// The scaled coefficients `[b₀, 3b₁, 3b₂, b₃]` (module doc) from the
/// differences `[u₀, v₀, w₀]` at `t = 0` and `[u₁, v₁, w₁]` at `t = 1`, in any
/// number type: plain doubles (the filters' and the solver's static bounds),
/// [`Bounded`] and the solver's certified types. The one place the formula is
/// written; every caller's error analysis assumes exactly this order of
/// operations.
#[inline(always)]
pub(crate) fn coplanarity_of_differences<N>(at_t0: &[[N; 3]; 3], at_t1: &[[N; 3]; 3]) -> [N; 4]
where
    N: Copy + Add<Output = N> + Sub<Output = N> + Mul<Output = N>,
{
    #[inline(always)]
    fn cross<N: Copy + Sub<Output = N> + Mul<Output = N>>(a: &[N; 3], b: &[N; 3]) -> [N; 3] {
        [
            a[1] * b[2] - a[2] * b[1],
            a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0],
        ]
    }
    #[inline(always)]
    fn dot<N: Copy + Add<Output = N> + Mul<Output = N>>(a: &[N; 3], b: &[N; 3]) -> N {
        a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
    }
    let [u0, v0, w0] = at_t0;
    let [u1, v1, w1] = at_t1;
    let n0 = cross(u0, v0);
    let n1 = cross(u1, v1);
    let (p, q) = (cross(u0, v1), cross(u1, v0));
    let s = [p[0] + q[0], p[1] + q[1], p[2] + q[2]];
    [
        dot(&n0, w0),
        dot(&s, w0) + dot(&n0, w1),
        dot(&s, w1) + dot(&n1, w0),
        dot(&n1, w1),
    ]
}

/// Bernstein coefficients `[b₀, b₁, b₂, b₃]` of the coplanarity cubic (see
/// [`coplanarity_scaled`]; the middle two are divided by 3, with the rounding
/// of `1/3` accounted for).
#[inline]
pub fn bernstein_from_scaled(c: &[Bounded; 4]) -> [Bounded; 4] {
    [c[0], c[1] * Bounded::third(), c[2] * Bounded::third(), c[3]]
}

/// The certified common sign of all four coefficients: `Some(1)` if all are
/// certainly positive, `Some(-1)` if all certainly negative, else `None`.
/// When `Some`, and the coefficients' bounds hold (module doc), the cubic has
/// no root in `[0, 1]` (the Bernstein polynomial lies in the convex hull of
/// its coefficients).
#[inline]
pub fn certified_common_sign(c: &[Bounded; 4]) -> Option<i8> {
    if c.iter().all(Bounded::certainly_positive) {
        Some(1)
    } else if c.iter().all(Bounded::certainly_negative) {
        Some(-1)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plain determinant at `t`.
    fn det_at(p: &[Vec3; 8], t: f64) -> f64 {
        let x = |i: usize| p[i] * (1.0 - t) + p[i + 4] * t;
        (x(1) - x(0)).cross(&(x(2) - x(0))).dot(&(x(3) - x(0)))
    }

    #[test]
    fn bernstein_form_matches_the_determinant() {
        let p = [
            Vec3::new(0.1, 0.2, 0.3),
            Vec3::new(1.0, -0.5, 0.25),
            Vec3::new(-0.75, 1.5, 0.5),
            Vec3::new(0.3, 0.1, 2.0),
            Vec3::new(0.2, 0.1, 0.4),
            Vec3::new(1.5, -0.25, 0.0),
            Vec3::new(-1.0, 1.0, 1.0),
            Vec3::new(0.5, 0.6, -1.0),
        ];
        let c = coplanarity_scaled(&p[0], &p[1], &p[2], &p[3], &p[4], &p[5], &p[6], &p[7]);
        let b = bernstein_from_scaled(&c);
        for t in [0.0, 0.25, 0.5, 0.9, 1.0] {
            let s = 1.0 - t;
            let f = b[0].v * s * s * s
                + 3.0 * b[1].v * s * s * t
                + 3.0 * b[2].v * s * t * t
                + b[3].v * t * t * t;
            assert!((f - det_at(&p, t)).abs() < 1e-12, "t = {t}");
        }
    }
}
