//! One interface over the certified number types of the solver's tiers:
//! [`Bounded`] (doubles, the fast tier) and [`BoundedDd`] (double-doubles,
//! the precise tier), so that the coplanarity cubic and its root isolation
//! are written once.
//!
//! Both carry a computed value, a magnitude and a rounding count with a
//! rigorous error bound (see their module docs). Both are used only on inputs
//! that pass [`crate::math::in_filter_range`]; in that range no magnitude
//! underflows, so a magnitude of zero means that the exact value is zero: the
//! value is a *structural* zero of its expression (for example a coordinate
//! difference of two equal inputs), and [`Certified::sign`] reports it as
//! `Some(0)`.
//!
//! Error analysis after Higham, *Accuracy and Stability of Numerical
//! Algorithms*, 2nd ed., 2002, §3; docs/design.md §8.

use std::ops::{Add, Mul, Sub};

use crate::math::{Bounded, BoundedDd, ExactSum, Vec3, each3, two_sum};
use crate::pair_kernel::coplanarity_of_differences;

/// A certified number (module doc).
pub trait Certified: Copy + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> {
    /// An exact double.
    fn exact(x: f64) -> Self;
    /// `a − b` for exact doubles.
    fn difference(a: f64, b: f64) -> Self;
    /// `1 − t` for an exact double `t`.
    fn one_minus(t: f64) -> Self;
    /// `self · d` for an exact double `d`.
    fn scale(self, d: f64) -> Self;
    /// `self / 2`, exact.
    fn half(self) -> Self;
    /// The computed value rounded to a double.
    fn approx(&self) -> f64;
    /// A bound on the distance between the computed and the exact value.
    fn uncertainty(&self) -> f64;
    /// The certified sign: `Some(1)`, `Some(-1)`, `Some(0)` for a structural
    /// zero, `None` when unknown.
    fn sign(&self) -> Option<i8>;
}

impl Certified for Bounded {
    #[inline]
    fn exact(x: f64) -> Self {
        Bounded::exact(x)
    }
    #[inline]
    fn difference(a: f64, b: f64) -> Self {
        Bounded::difference(a, b)
    }
    #[inline]
    fn one_minus(t: f64) -> Self {
        Bounded::exact(1.0) - Bounded::exact(t)
    }
    #[inline]
    fn scale(self, d: f64) -> Self {
        self * Bounded::exact(d)
    }
    #[inline]
    fn half(self) -> Self {
        Bounded::half(self)
    }
    #[inline]
    fn approx(&self) -> f64 {
        self.v
    }
    #[inline]
    fn uncertainty(&self) -> f64 {
        self.error_bound()
    }
    #[inline]
    fn sign(&self) -> Option<i8> {
        if self.m == 0.0 {
            Some(0)
        } else if self.certainly_positive() {
            Some(1)
        } else if self.certainly_negative() {
            Some(-1)
        } else {
            None
        }
    }
}

impl Certified for BoundedDd {
    #[inline]
    fn exact(x: f64) -> Self {
        BoundedDd::exact(x)
    }
    #[inline]
    fn difference(a: f64, b: f64) -> Self {
        BoundedDd::difference(a, b)
    }
    #[inline]
    fn one_minus(t: f64) -> Self {
        BoundedDd::one_minus(t)
    }
    #[inline]
    fn scale(self, d: f64) -> Self {
        BoundedDd::scale(self, d)
    }
    #[inline]
    fn half(self) -> Self {
        BoundedDd::half(self)
    }
    #[inline]
    fn approx(&self) -> f64 {
        self.hi
    }
    #[inline]
    fn uncertainty(&self) -> f64 {
        self.error_bound()
    }
    #[inline]
    fn sign(&self) -> Option<i8> {
        BoundedDd::sign(self)
    }
}

/// A 3-vector of certified numbers.
#[derive(Clone, Copy, Debug)]
pub struct CVec3<N>(pub [N; 3]);

impl<N: Certified> CVec3<N> {
    /// `p − q` for exact points.
    #[inline]
    pub fn difference(p: &Vec3, q: &Vec3) -> CVec3<N> {
        CVec3(each3(|i| N::difference(p[i], q[i])))
    }

    /// `self × o`.
    #[inline]
    pub fn cross(&self, o: &CVec3<N>) -> CVec3<N> {
        let [a0, a1, a2] = self.0;
        let [b0, b1, b2] = o.0;
        CVec3([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0])
    }

    /// `self − o`.
    #[inline]
    pub fn sub(&self, o: &CVec3<N>) -> CVec3<N> {
        CVec3(each3(|i| self.0[i] - o.0[i]))
    }

    /// `self + o`.
    #[inline]
    pub fn add(&self, o: &CVec3<N>) -> CVec3<N> {
        CVec3(each3(|i| self.0[i] + o.0[i]))
    }

    /// `self · o`.
    #[inline]
    pub fn dot(&self, o: &CVec3<N>) -> N {
        self.0[0] * o.0[0] + self.0[1] * o.0[1] + self.0[2] * o.0[2]
    }
}

/// Scaled Bernstein coefficients `[b₀, 3b₁, 3b₂, b₃]` of the coplanarity cubic
/// `det[b−a, c−a, d−a]` on `[0, 1]`, certified: the computation of
/// [`crate::pair_kernel::coplanarity_scaled`] (Tang, Manocha & Tong 2010, §4)
/// in any [`Certified`] type. Arguments: the four points at `t = 0`, then at
/// `t = 1`.
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn coplanarity<N: Certified>(
    a_t0: &Vec3,
    b_t0: &Vec3,
    c_t0: &Vec3,
    d_t0: &Vec3,
    a_t1: &Vec3,
    b_t1: &Vec3,
    c_t1: &Vec3,
    d_t1: &Vec3,
) -> [N; 4] {
    let d = |p, q| CVec3::<N>::difference(p, q).0;
    coplanarity_of_differences(
        &[d(b_t0, a_t0), d(c_t0, a_t0), d(d_t0, a_t0)],
        &[d(b_t1, a_t1), d(c_t1, a_t1), d(d_t1, a_t1)],
    )
}

/// The scaled Bernstein coefficients of [`coplanarity`], computed exactly
/// ([`ExactSum`]) and rounded to double-doubles with their exact signs (an
/// exact zero has magnitude zero). `b₀ = det[u₀, v₀, w₀]`,
/// `3b₁ = det[u₀, v₀, w₁] + det[u₀, v₁, w₀] + det[u₁, v₀, w₀]`, `3b₂` alike,
/// `b₃ = det[u₁, v₁, w₁]`. `None` if a term falls outside the accumulator's
/// range (inputs outside [`crate::math::in_filter_range`]).
#[allow(clippy::too_many_arguments)]
pub fn coplanarity_exact(
    a_t0: &Vec3,
    b_t0: &Vec3,
    c_t0: &Vec3,
    d_t0: &Vec3,
    a_t1: &Vec3,
    b_t1: &Vec3,
    c_t1: &Vec3,
    d_t1: &Vec3,
) -> Option<[BoundedDd; 4]> {
    let d =
        |p: &Vec3, q: &Vec3| -> [(f64, f64); 3] { std::array::from_fn(|i| two_sum(p[i], -q[i])) };
    let u = [d(b_t0, a_t0), d(b_t1, a_t1)];
    let v = [d(c_t0, a_t0), d(c_t1, a_t1)];
    let w = [d(d_t0, a_t0), d(d_t1, a_t1)];
    let coefficient = |choices: &[[usize; 3]]| {
        let mut acc = ExactSum::new();
        for &[i, j, k] in choices {
            // det[u, v, w] = Σ over permutations (a, b, c) of sgn · u_a v_b w_c.
            for (a, b, c, sign) in [
                (0, 1, 2, 1.0),
                (1, 2, 0, 1.0),
                (2, 0, 1, 1.0),
                (0, 2, 1, -1.0),
                (1, 0, 2, -1.0),
                (2, 1, 0, -1.0),
            ] {
                acc.add_product(sign, &[u[i][a], v[j][b], w[k][c]]);
            }
        }
        acc.is_exact().then(|| acc.to_bounded_dd())
    };
    Some([
        coefficient(&[[0, 0, 0]])?,
        coefficient(&[[0, 0, 1], [0, 1, 0], [1, 0, 0]])?,
        coefficient(&[[0, 1, 1], [1, 0, 1], [1, 1, 0]])?,
        coefficient(&[[1, 1, 1]])?,
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pair_kernel::coplanarity_scaled;

    #[test]
    fn both_tiers_agree_with_the_filters_cubic() {
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
        let want = coplanarity_scaled(&p[0], &p[1], &p[2], &p[3], &p[4], &p[5], &p[6], &p[7]);
        let b: [Bounded; 4] = coplanarity(&p[0], &p[1], &p[2], &p[3], &p[4], &p[5], &p[6], &p[7]);
        let dd: [BoundedDd; 4] =
            coplanarity(&p[0], &p[1], &p[2], &p[3], &p[4], &p[5], &p[6], &p[7]);
        let exact =
            coplanarity_exact(&p[0], &p[1], &p[2], &p[3], &p[4], &p[5], &p[6], &p[7]).unwrap();
        for i in 0..4 {
            assert_eq!(b[i], want[i]);
            assert!((dd[i].hi - want[i].v).abs() <= want[i].error_bound());
            assert!(dd[i].error_bound() < 1e-20);
            assert!((exact[i].hi - dd[i].hi).abs() <= dd[i].error_bound());
            assert!(exact[i].error_bound() <= dd[i].error_bound());
        }
    }

    #[test]
    fn exact_coefficients_see_zeros_that_are_not_structural() {
        // All eight points on the tilted plane x + y + z = 1 (coordinates
        // with inexact sums): f ≡ 0, yet no difference is zero.
        let t = 1.0 / 3.0;
        let on_plane = |x: f64, y: f64| Vec3::new(x, y, 1.0 - x - y);
        let p = [
            on_plane(t, 0.1),
            on_plane(0.7, t),
            on_plane(0.2, 0.9),
            on_plane(0.5, 0.25),
            on_plane(0.3, t),
            on_plane(t, 0.6),
            on_plane(0.125, 0.8),
            on_plane(0.55, 0.375),
        ];
        let exact =
            coplanarity_exact(&p[0], &p[1], &p[2], &p[3], &p[4], &p[5], &p[6], &p[7]).unwrap();
        let dd: [BoundedDd; 4] =
            coplanarity(&p[0], &p[1], &p[2], &p[3], &p[4], &p[5], &p[6], &p[7]);
        for i in 0..4 {
            // 1 − x − y rounds, so the points are only nearly coplanar:
            // whatever the exact sign, the exact tier knows it.
            assert!(exact[i].sign().is_some());
            if dd[i].sign().is_some() {
                assert_eq!(dd[i].sign(), exact[i].sign());
            }
        }
        // Exactly representable plane z = x (x dyadic): f ≡ 0 exactly.
        let q = |x: f64, y: f64| Vec3::new(x, y, x);
        let p = [
            q(0.5, t),
            q(0.25, 0.1),
            q(0.75, 0.3),
            q(0.125, 0.7),
            q(0.375, 0.2),
            q(0.625, t),
            q(0.5, 0.9),
            q(0.875, 0.4),
        ];
        let exact =
            coplanarity_exact(&p[0], &p[1], &p[2], &p[3], &p[4], &p[5], &p[6], &p[7]).unwrap();
        assert!(exact.iter().all(|c| c.sign() == Some(0)));
    }
}
