//! The coplanarity cubic of a pair with one static error bound, for the
//! filters' fast paths: the scaled Bernstein coefficients of
//! [`crate::pair_kernel::coplanarity_scaled`] (Tang, Manocha & Tong, I3D 2010,
//! §4; docs/design.md §2.2), evaluated in plain floating point, with a single bound that
//! holds for all four, computed from the largest difference coordinate
//! instead of carried through every operation.
//!
//! **Bound.** With `u, v, w` the differences `b − a, c − a, d − a` at `t = 0`
//! and `t = 1` (18 computed coordinates, largest magnitude `U`), every scaled
//! coefficient `c_k` is a signed sum of `N_k` monomials of degree 3 in the
//! exact differences, `N = (6, 18, 18, 6)` (`n₀·w₀` is a 3×3 determinant;
//! `s·w₀ + n₀·w₁` has 12 + 6 terms). Every monomial goes through at most 10
//! roundings on its way to `c̃_k` (its three rounded differences, the product
//! and the subtraction of a cross product, the sum of the two cross products
//! of `s`, the product and the two sums of a dot product, the final sum), so
//! `|c̃_k − c_k| ≤ γ₁₀ N_k (U/(1 − u))³` (Higham 2002, §3.1, Lemma 3.3; `u`
//! the unit roundoff). [`Cubic::err`] is `fl(fl(fl(U·U)·U)·C)` with
//! `C = 24·18·u`, which exceeds that bound and also the bound
//! [`crate::math::Bounded`] attaches to each coefficient (rounding count at
//! most 10, `(2·10 + 2)·u·m`, `m ≤ 18U³(1 + γ)`), so a sign this bound
//! certifies is also certified there.
//!
//! **Range.** The coefficients are computed only for `2⁻³⁰⁰ ≤ U ≤ 2²⁰⁰`
//! (else `None`), so that no product overflows and underflow stays within
//! the bound's slack. A difference that falls below the normal range is
//! exact; a product that underflows is off by at most `2⁻¹⁰⁷⁵` (Higham
//! 2002, §2.1: an absolute term beside the relative one). A coefficient
//! holds at most 18 products of two differences (a cross product's terms),
//! each then multiplied by a difference of magnitude at most `U(1 + u)`,
//! and at most 18 such second products; with the at most 6 roundings after
//! them, underflow adds at most `(18·U(1 + u) + 18)·2⁻¹⁰⁷⁵·(1 + u)⁶
//! ≤ 2⁻¹⁰⁶⁸·max(U, 1)`. The bound leaves that much to spare: `err ≥ 431u·U³`
//! (three roundings down from `U³·C`) against the relative part's
//! `γ₁₀·18·(U/(1 − u))³ ≤ 181u·U³`, and `250u·U³ ≥ 2⁻⁴⁶·U³` exceeds
//! `2⁻¹⁰⁶⁸·max(U, 1)` for every `U ≥ 2⁻³⁰⁰` (`2⁻⁹⁴⁶` at `U = 2⁻³⁰⁰`).

use super::points::{P3, Points, sub};
use crate::math::UNIT_ROUNDOFF;
use crate::pair_kernel::coplanarity_of_differences;

/// Smallest largest difference coordinate the bound is used for (`2⁻³⁰⁰`).
const U_MIN: f64 = f64::from_bits((1023 - 300) << 52);
/// Largest one (`2²⁰⁰`).
const U_MAX: f64 = f64::from_bits((1023 + 200) << 52);

/// Scaled Bernstein coefficients `[b₀, 3b₁, 3b₂, b₃]` of the coplanarity
/// cubic `det[b − a, c − a, d − a]` on `[0, 1]`, each within `err` of the
/// exact value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Cubic {
    /// The computed scaled coefficients.
    pub(crate) c: [f64; 4],
    /// A bound on every coefficient's error.
    pub(crate) err: f64,
}

impl Cubic {
    /// `Some(1)` when every coefficient is certainly positive, `Some(-1)`
    /// when every one is certainly negative, `Some(0)` when two have
    /// certainly opposite signs, `None` when this bound cannot tell.
    /// (Variants measured: docs/notes/dnf.md.)
    #[inline(always)]
    pub(crate) fn common_sign(&self) -> Option<i8> {
        let (e, c) = (self.err, &self.c);
        let min = |a: f64, b: f64| if a < b { a } else { b };
        let max = |a: f64, b: f64| if a > b { a } else { b };
        let lo = min(min(c[0], c[1]), min(c[2], c[3]));
        let hi = max(max(c[0], c[1]), max(c[2], c[3]));
        if lo > e {
            Some(1)
        } else if hi < -e {
            Some(-1)
        } else if lo < -e && hi > e {
            Some(0)
        } else {
            None
        }
    }
}

/// The coplanarity cubic of `a, b, c, d` moving from `*_t0` to `*_t1`, or
/// `None` outside the range of the bound (module doc).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn coplanarity_static(
    a_t0: &P3,
    b_t0: &P3,
    c_t0: &P3,
    d_t0: &P3,
    a_t1: &P3,
    b_t1: &P3,
    c_t1: &P3,
    d_t1: &P3,
) -> Option<Cubic> {
    let (u0, v0, w0) = (sub(b_t0, a_t0), sub(c_t0, a_t0), sub(d_t0, a_t0));
    let (u1, v1, w1) = (sub(b_t1, a_t1), sub(c_t1, a_t1), sub(d_t1, a_t1));
    // The largest magnitude, as a tree of plain comparisons (one
    // instruction each, and independent ones side by side). A NaN
    // coordinate may be skipped or come out as `big`; either way the pair
    // gets `None`: from the range check, or from the check of the
    // coefficients below (every coordinate enters `c₀` or `c₃`).
    let max = |a: f64, b: f64| if a > b { a } else { b };
    let abs = |v: &P3| [v[0].abs(), v[1].abs(), v[2].abs()];
    let max3 = |a: [f64; 3], b: [f64; 3]| [max(a[0], b[0]), max(a[1], b[1]), max(a[2], b[2])];
    let m = max3(
        max3(max3(abs(&u0), abs(&v0)), max3(abs(&w0), abs(&u1))),
        max3(abs(&v1), abs(&w1)),
    );
    let big = max(max(m[0], m[1]), m[2]);
    if !(U_MIN..=U_MAX).contains(&big) {
        return None;
    }
    let c = coplanarity_of_differences(&[u0, v0, w0], &[u1, v1, w1]);
    if !(c[0] + c[1] + c[2] + c[3]).is_finite() {
        return None;
    }
    let err = big * big * big * (24.0 * 18.0 * UNIT_ROUNDOFF);
    Some(Cubic { c, err })
}

/// [`coplanarity_static`] of a vertex–face pair's eight points (data set row
/// order), in the order `f0, f1, f2, v` of DNF and the solver.
#[inline(always)]
pub(crate) fn vf_cubic(p: &Points) -> Option<Cubic> {
    coplanarity_static(&p[1], &p[2], &p[3], &p[0], &p[5], &p[6], &p[7], &p[4])
}

/// [`coplanarity_static`] of an edge–edge pair's eight points.
#[inline(always)]
pub(crate) fn ee_cubic(p: &Points) -> Option<Cubic> {
    coplanarity_static(&p[0], &p[1], &p[2], &p[3], &p[4], &p[5], &p[6], &p[7])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::Dyadic;
    use crate::math::Bounded;
    use crate::math::Vec3;
    use crate::pair_kernel::coplanarity_scaled;
    use proptest::prelude::*;

    fn exact_sub(a: f64, b: f64) -> Dyadic {
        Dyadic::from_f64(a).sub(&Dyadic::from_f64(b))
    }

    fn mul(a: &Dyadic, b: &Dyadic) -> Dyadic {
        Dyadic::new(&a.num * &b.num, a.exp + b.exp)
    }

    fn add(a: &Dyadic, b: &Dyadic) -> Dyadic {
        let (x, y, j) = a.common(b);
        Dyadic::new(x + y, j)
    }

    fn det(u: &[Dyadic; 3], v: &[Dyadic; 3], w: &[Dyadic; 3]) -> Dyadic {
        let c = |i: usize, j: usize| mul(&u[i], &v[j]).sub(&mul(&u[j], &v[i]));
        let n = [c(1, 2), c(2, 0), c(0, 1)];
        add(
            &add(&mul(&n[0], &w[0]), &mul(&n[1], &w[1])),
            &mul(&n[2], &w[2]),
        )
    }

    /// The exact scaled coefficients: `b₀ = D(u₀,v₀,w₀)`, `3b₁ = D(u₀,v₁,w₀)
    /// + D(u₁,v₀,w₀) + D(u₀,v₀,w₁)`, and so on (trilinearity).
    fn exact(p: &[Vec3; 8]) -> [Dyadic; 4] {
        let d = |i: usize, j: usize| -> [Dyadic; 3] {
            std::array::from_fn(|k| exact_sub(p[i][k], p[j][k]))
        };
        let (u0, v0, w0) = (d(1, 0), d(2, 0), d(3, 0));
        let (u1, v1, w1) = (d(5, 4), d(6, 4), d(7, 4));
        let sum3 = |a: Dyadic, b: Dyadic, c: Dyadic| add(&add(&a, &b), &c);
        [
            det(&u0, &v0, &w0),
            sum3(det(&u0, &v1, &w0), det(&u1, &v0, &w0), det(&u0, &v0, &w1)),
            sum3(det(&u1, &v1, &w0), det(&u1, &v0, &w1), det(&u0, &v1, &w1)),
            det(&u1, &v1, &w1),
        ]
    }

    fn coord() -> impl Strategy<Value = f64> {
        prop_oneof![
            3 => -4.0..4.0f64,
            2 => (-64i32..=64).prop_map(|i| f64::from(i) / 16.0),
            1 => (-1.0..1.0f64).prop_map(|x| 1e-30 * x),
            1 => (-1.0..1.0f64).prop_map(|x| 1e40 * x),
            1 => Just(0.0),
        ]
    }

    fn point() -> impl Strategy<Value = Vec3> {
        (coord(), coord(), coord()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
    }

    /// Every difference coordinate `±1`: every monomial of every
    /// coefficient has magnitude 1, so the certified bound is at its
    /// largest (`22u·18` for the middle coefficients, 18 monomials), which
    /// random coordinates never come near; `err` still covers it.
    #[test]
    fn bound_covers_the_certified_one_at_its_largest() {
        let v = Vec3::new;
        let o = v(0.0, 0.0, 0.0);
        let q = [
            o,
            v(1.0, 1.0, 1.0),
            v(1.0, -1.0, 1.0),
            v(1.0, 1.0, -1.0),
            o,
            v(-1.0, 1.0, 1.0),
            v(1.0, 1.0, 1.0),
            v(1.0, -1.0, -1.0),
        ];
        let [a, b, c, d, e, f, g, h] = &q;
        let p = crate::filter::points::points([a, b, c, d, e, f, g, h]);
        let cubic =
            coplanarity_static(&p[0], &p[1], &p[2], &p[3], &p[4], &p[5], &p[6], &p[7]).unwrap();
        let certified = coplanarity_scaled(a, b, c, d, e, f, g, h);
        for (k, (c, certified)) in cubic.c.iter().zip(&certified).enumerate() {
            assert_eq!(*c, certified.v, "k = {k}");
            assert!(certified.error_bound() <= cubic.err, "k = {k}");
        }
        assert!(Bounded::error_bound(&certified[1]) > 18.0 * 21.0 * UNIT_ROUNDOFF);
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

        /// Every coefficient is within `err` of the exact one, and `err`
        /// covers the certified bound of `coplanarity_scaled`.
        #[test]
        fn bound_holds_and_covers_the_certified_one(q in proptest::array::uniform8(point())) {
            let [a, b, c, d, e, f, g, h] = &q;
            let p = crate::filter::points::points([a, b, c, d, e, f, g, h]);
            let Some(cubic) = coplanarity_static(&p[0], &p[1], &p[2], &p[3], &p[4], &p[5], &p[6], &p[7]) else {
                return Ok(());
            };
            let ex = exact(&q);
            let certified = coplanarity_scaled(a, b, c, d, e, f, g, h);
            for k in 0..4 {
                let lo = Dyadic::from_f64(cubic.c[k] - cubic.err);
                let hi = Dyadic::from_f64(cubic.c[k] + cubic.err);
                // c ± err rounded: widen by the rounding of the sum.
                let slack = Dyadic::from_f64(UNIT_ROUNDOFF * 4.0 * (cubic.c[k].abs() + cubic.err));
                prop_assert!(lo.sub(&slack) <= ex[k] && ex[k] <= add(&hi, &slack), "k = {k}: {q:?}");
                prop_assert_eq!(cubic.c[k], certified[k].v);
                prop_assert!(Bounded::error_bound(&certified[k]) <= cubic.err, "k = {k}");
            }
        }
    }
}
