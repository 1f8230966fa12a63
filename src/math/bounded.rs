//! Floating-point values that carry a rigorous bound on their rounding error.
//!
//! A [`Bounded`] is the computed value `v` of an expression over exact double
//! inputs, its computed *magnitude* `m` (the same expression evaluated on the
//! absolute values of the inputs, with every subtraction turned into an
//! addition) and a rounding count `k`. The invariant, for the exact value `x`
//! of the expression and the exact magnitude `M`, is
//!
//! ```text
//! |v − x| ≤ γ_k · M,        m ≥ M · (1 − u)^k,
//! ```
//!
//! with `γ_k = k·u / (1 − k·u)` (Higham 2002, Lemma 3.1 and §3.4). It holds
//! for exact inputs (`k = 0`) and is preserved by
//!
//! - `a ± b`: `k = max(k_a, k_b) + 1`, since
//!   `|fl(ã ± b̃) − (a ± b)| ≤ γ_{k−1}(M_a + M_b) + u·(1 + γ_{k−1})(M_a + M_b)`;
//! - `a · b`: `k = k_a + k_b + 1`, since `(1 + γ_i)(1 + γ_j)(1 + u) ≤ 1 + γ_{i+j+1}`;
//! - halving, which is exact.
//!
//! A difference of two exact doubles is a better leaf than the two doubles:
//! `fl(a − b) = (a − b)(1 + δ)`, so `v = fl(a − b)`, `m = |v|`, `k = 1`
//! satisfies the invariant with `M = |a − b|` (Shewchuk, "Adaptive precision
//! floating-point arithmetic and fast robust geometric predicates", DCG 18,
//! 1997, §4.2: bounds in terms of the differences, not the coordinates). Every
//! CCD quantity is a polynomial in such differences, so magnitudes — and
//! bounds — scale with the geometry's size, not its distance from the origin.
//!
//! Hence `|v − x| ≤ γ_k (1 − u)^{−k} m ≤ γ_{2k} m`, and the sign of `x` is
//! certified when `|v| > fl((2k + 2)·u · m)` ([`Bounded::error_bound`]).
//!
//! **Range.** The relative model needs every operation to stay clear of
//! underflow and overflow. The fast paths use it only when every input
//! coordinate is an integer multiple of `2⁻¹⁴⁰` with magnitude at most `2²⁰⁰`
//! ([`in_filter_range`]; any double in `[2⁻⁸⁷, 2²⁰⁰]` qualifies, and so do
//! short dyadics below), and every evaluation parameter `t` is `0`, `1` or a
//! double in `[2⁻⁶⁰, 1]` (hence a multiple of `2⁻¹¹²`). Rounding to nearest
//! maps a multiple of `2^−q` to a multiple of `2^−q`, so every computed
//! quantity is a multiple of the product of its factors' granularities:
//! differences of inputs `2⁻¹⁴⁰`; the cubic's coefficients `2⁻⁴²⁰`, and after
//! 24 subdivisions and an evaluation at `t` at most `2⁻⁸²⁸`; relative
//! positions at `t` `2⁻²⁵²`, and the degree-4 inside conditions `2⁻¹⁰⁰⁸`. All
//! exceed the smallest normal `2⁻¹⁰²²`, so no result is subnormal, and the
//! largest magnitudes (degree 4 in quantities `≤ 2²⁰²`) stay far below
//! overflow. Outside that range the callers go straight to the exact path.
//!
//! docs/design.md §8.

use super::scalar::{UNIT_ROUNDOFF, Vec3, each3};

/// Inputs of the filtered paths are integer multiples of `2^FILTER_LSB_MIN`.
pub const FILTER_LSB_MIN: i32 = -140;
/// Largest coordinate magnitude of the filtered paths (`2²⁰⁰`). Not an input
/// limit: the solvers decide larger (finite) coordinates exactly (the
/// contact solvers scale a query into the range by a power of two when one
/// does, else take the slower exact path), and the filters cull such pairs only by bounds that
/// hold there.
pub const FILTER_MAX_MAGNITUDE: f64 = f64::from_bits((1023 + 200) << 52);

/// `true` when `x` is zero, or a multiple of `2⁻¹⁴⁰` with `|x| ≤ 2²⁰⁰`: the
/// range where the filtered paths' rounding bounds hold (no product of
/// differences underflows or overflows; docs/design.md §8, the
/// [`design`](crate::design) page). Every double in `[2⁻⁸⁷, 2²⁰⁰]` is in it.
/// Not an input limit: outside it the filters cull a pair only by bounds
/// that hold there, and the solvers scale the query into it by a power of
/// two (contact solvers, when one does) or take the exact path. NaN and
/// infinities are outside.
#[inline]
pub fn in_filter_range(x: f64) -> bool {
    if x == 0.0 {
        return true;
    }
    // Also refuses NaN and infinities.
    if x.is_nan() || x.abs() > FILTER_MAX_MAGNITUDE {
        return false;
    }
    let bits = x.to_bits();
    let exp_bits = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    // Exponent of the lowest set bit: x = odd · 2^lsb.
    let (mantissa, exp) = if exp_bits == 0 {
        (frac, -1074)
    } else {
        (frac | (1u64 << 52), exp_bits - 1075)
    };
    exp + mantissa.trailing_zeros() as i32 >= FILTER_LSB_MIN
}

/// `true` when every coordinate of the points passes [`in_filter_range`].
///
/// Fast path: a double of magnitude in `[2⁻⁸⁷, 2²⁰⁰)` has its lowest bit at
/// `2⁻⁸⁷⁻⁵² = 2⁻¹³⁹` or above, so it passes, and so does zero: two
/// comparisons per coordinate, without branches. Only when one fails (tiny,
/// exactly `2²⁰⁰`, huge, NaN) is each coordinate checked exactly.
#[inline(always)]
pub fn all_in_filter_range<const M: usize>(points: &[&Vec3; M]) -> bool {
    let mut ok = true;
    for p in points {
        for x in [p.x, p.y, p.z] {
            ok &= surely_in_filter_range(x);
        }
    }
    ok || points.iter().all(|p| p.iter().all(|&x| in_filter_range(x)))
}

/// `true` when every coordinate of the eight points is finite (neither NaN
/// nor infinite).
#[inline]
pub fn all_finite(points: &[&Vec3; 8]) -> bool {
    let mut ok = true;
    for p in points {
        for x in [p.x, p.y, p.z] {
            ok &= x.is_finite();
        }
    }
    ok
}

/// `true` when every value passes [`in_filter_range`]; the fast path of
/// [`all_in_filter_range`] first. For checking a whole frame step once.
pub fn all_coordinates_in_filter_range(xs: &[f64]) -> bool {
    let fast = xs
        .iter()
        .fold(true, |ok, &x| ok & surely_in_filter_range(x));
    fast || xs.iter().all(|&x| in_filter_range(x))
}

/// [`in_filter_range`]'s cheap sufficient test (doc of
/// [`all_in_filter_range`]): magnitude in `[2⁻⁸⁷, 2²⁰⁰)`, or zero.
#[inline(always)]
fn surely_in_filter_range(x: f64) -> bool {
    // 2⁻⁸⁷ and 2²⁰⁰ (FILTER_MAX_MAGNITUDE), exact powers of two.
    const LOW: f64 = 1.0 / (1u128 << 87) as f64;
    let a = x.abs();
    // NaN fails the first comparison.
    (a < FILTER_MAX_MAGNITUDE) & ((a >= LOW) | (a == 0.0))
}

/// A computed value with its magnitude and rounding count, which bound its
/// rounding error (Higham 2002, §3; docs/design.md §8, the
/// [`design`](crate::design) page): the sign is certified when
/// `|v| > fl((2k + 2)·u·m)` ([`Bounded::error_bound`]), for inputs in
/// [`in_filter_range`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounded {
    /// Computed value.
    pub v: f64,
    /// Computed magnitude (bounds the exact magnitude up to `(1 − u)^k`).
    pub m: f64,
    /// Rounding count `k`.
    pub k: u32,
}

impl Bounded {
    /// An exact double.
    #[inline]
    pub fn exact(x: f64) -> Bounded {
        Bounded {
            v: x,
            m: x.abs(),
            k: 0,
        }
    }

    /// `a − b` for exact doubles `a`, `b`, with the magnitude of the result
    /// (see the module doc).
    #[inline]
    pub fn difference(a: f64, b: f64) -> Bounded {
        let v = a - b;
        Bounded {
            v,
            m: v.abs(),
            k: 1,
        }
    }

    /// A value known to within `γ_k·m` of the exact one, for a caller that
    /// established the invariant itself (e.g. a perturbed input).
    #[inline]
    pub fn with_error(v: f64, m: f64, k: u32) -> Bounded {
        Bounded { v, m, k }
    }

    /// The constant `1/3`, rounded (`|fl(1/3) − 1/3| ≤ u/3`, so `k = 1`).
    #[inline]
    pub fn third() -> Bounded {
        Bounded {
            v: 1.0 / 3.0,
            m: 1.0 / 3.0,
            k: 1,
        }
    }

    /// A bound on `|v − x|`: `fl((2k + 2)·u·m) ≥ γ_{2k}·m`.
    #[inline]
    pub fn error_bound(&self) -> f64 {
        (2.0 * self.k as f64 + 2.0) * UNIT_ROUNDOFF * self.m
    }

    /// The certified sign: `Some(1)`, `Some(-1)`, or `None` when the value is
    /// within its error bound of zero (the sign is then unknown; the value
    /// may or may not be zero). An exact zero (`k = 0`, `v = 0`) is `Some(0)`.
    #[inline]
    pub fn sign(&self) -> Option<i8> {
        let e = self.error_bound();
        if self.v > e {
            Some(1)
        } else if self.v < -e {
            Some(-1)
        } else if self.k == 0 && self.v == 0.0 {
            Some(0)
        } else {
            None
        }
    }

    /// `true` when the exact value is certainly `> 0`.
    #[inline]
    pub fn certainly_positive(&self) -> bool {
        self.v > self.error_bound()
    }

    /// `true` when the exact value is certainly `< 0`.
    #[inline]
    pub fn certainly_negative(&self) -> bool {
        self.v < -self.error_bound()
    }

    /// `self / 2`, exact.
    #[inline]
    pub fn half(self) -> Bounded {
        Bounded {
            v: 0.5 * self.v,
            m: 0.5 * self.m,
            k: self.k,
        }
    }
}

impl std::ops::Add for Bounded {
    type Output = Bounded;
    #[inline]
    fn add(self, o: Bounded) -> Bounded {
        Bounded {
            v: self.v + o.v,
            m: self.m + o.m,
            k: self.k.max(o.k) + 1,
        }
    }
}

impl std::ops::Sub for Bounded {
    type Output = Bounded;
    #[inline]
    fn sub(self, o: Bounded) -> Bounded {
        Bounded {
            v: self.v - o.v,
            m: self.m + o.m,
            k: self.k.max(o.k) + 1,
        }
    }
}

impl std::ops::Mul for Bounded {
    type Output = Bounded;
    #[inline]
    fn mul(self, o: Bounded) -> Bounded {
        Bounded {
            v: self.v * o.v,
            m: self.m * o.m,
            k: self.k + o.k + 1,
        }
    }
}

impl std::ops::Neg for Bounded {
    type Output = Bounded;
    #[inline]
    fn neg(self) -> Bounded {
        Bounded {
            v: -self.v,
            m: self.m,
            k: self.k,
        }
    }
}

/// A 3-vector of [`Bounded`] values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoundedVec3(pub [Bounded; 3]);

impl BoundedVec3 {
    /// The exact coordinates of a point.
    #[inline]
    pub fn exact(p: &Vec3) -> BoundedVec3 {
        BoundedVec3([p.x, p.y, p.z].map(Bounded::exact))
    }

    /// `p − q` for exact points, each coordinate a [`Bounded::difference`].
    #[inline]
    pub fn difference(p: &Vec3, q: &Vec3) -> BoundedVec3 {
        BoundedVec3(each3(|i| Bounded::difference(p[i], q[i])))
    }

    /// `self − o`.
    #[inline]
    pub fn sub(&self, o: &BoundedVec3) -> BoundedVec3 {
        BoundedVec3(each3(|i| self.0[i] - o.0[i]))
    }

    /// `self + o`.
    #[inline]
    pub fn add(&self, o: &BoundedVec3) -> BoundedVec3 {
        BoundedVec3(each3(|i| self.0[i] + o.0[i]))
    }

    /// `self × o`.
    #[inline]
    pub fn cross(&self, o: &BoundedVec3) -> BoundedVec3 {
        let [a0, a1, a2] = self.0;
        let [b0, b1, b2] = o.0;
        BoundedVec3([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0])
    }

    /// `self · o`.
    #[inline]
    pub fn dot(&self, o: &BoundedVec3) -> Bounded {
        self.0[0] * o.0[0] + self.0[1] * o.0[1] + self.0[2] * o.0[2]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::{Dyadic, SignOrdering};
    use num_traits::Signed;
    use proptest::prelude::*;

    /// Exact value of a double as a big rational `num / 2^exp`.
    fn exact(x: f64) -> Dyadic {
        Dyadic::from_f64(x)
    }

    fn mul(a: &Dyadic, b: &Dyadic) -> Dyadic {
        Dyadic::new(&a.num * &b.num, a.exp + b.exp)
    }

    fn add(a: &Dyadic, b: &Dyadic) -> Dyadic {
        let (x, y, j) = a.common(b);
        Dyadic::new(x + y, j)
    }

    fn coord() -> impl Strategy<Value = f64> {
        prop_oneof![
            Just(0.0),
            (-1e3f64..1e3).prop_filter("range", |x| in_filter_range(*x)),
            (-1e-20f64..1e-20).prop_filter("range", |x| in_filter_range(*x)),
            (1u32..1000).prop_map(|n| n as f64 / 64.0),
        ]
    }

    proptest! {
        /// The certified sign of an orient3d-like determinant always equals
        /// the exact sign.
        #[test]
        fn certified_sign_of_a_determinant_is_exact(
            c in proptest::collection::vec(coord(), 12),
        ) {
            let p: Vec<Vec3> = c.chunks(3).map(|w| Vec3::new(w[0], w[1], w[2])).collect();
            let b: Vec<BoundedVec3> = p.iter().map(BoundedVec3::exact).collect();
            let d = b[1].sub(&b[0]).cross(&b[2].sub(&b[0])).dot(&b[3].sub(&b[0]));
            let dd = BoundedVec3::difference(&p[1], &p[0])
                .cross(&BoundedVec3::difference(&p[2], &p[0]))
                .dot(&BoundedVec3::difference(&p[3], &p[0]));
            // Exact determinant in big rationals.
            let e: Vec<[Dyadic; 3]> = p.iter().map(|q| [q.x, q.y, q.z].map(exact)).collect();
            let neg = |a: &Dyadic| Dyadic::new(-a.num.clone(), a.exp);
            let sub = |a: &Dyadic, b: &Dyadic| add(a, &neg(b));
            let u: Vec<Dyadic> = (0..3).map(|i| sub(&e[1][i], &e[0][i])).collect();
            let v: Vec<Dyadic> = (0..3).map(|i| sub(&e[2][i], &e[0][i])).collect();
            let w: Vec<Dyadic> = (0..3).map(|i| sub(&e[3][i], &e[0][i])).collect();
            let cr = [
                sub(&mul(&u[1], &v[2]), &mul(&u[2], &v[1])),
                sub(&mul(&u[2], &v[0]), &mul(&u[0], &v[2])),
                sub(&mul(&u[0], &v[1]), &mul(&u[1], &v[0])),
            ];
            let det = add(&add(&mul(&cr[0], &w[0]), &mul(&cr[1], &w[1])), &mul(&cr[2], &w[2]));
            let s = det.num.sign_ordering() as i8;
            for d in [d, dd] {
                if let Some(got) = d.sign() {
                    prop_assert_eq!(got, s);
                }
                // The bound is honest: |v − x| ≤ error_bound.
                let diff = sub(&exact(d.v), &det);
                let bound = exact(d.error_bound());
                prop_assert!(Dyadic::new(diff.num.abs(), diff.exp) <= bound);
            }
        }
    }

    #[test]
    fn zero_is_certified_only_when_exact() {
        assert_eq!(Bounded::exact(0.0).sign(), Some(0));
        let z = Bounded::exact(1.0) - Bounded::exact(1.0);
        assert_eq!(z.sign(), None);
        assert_eq!(Bounded::exact(-2.0).sign(), Some(-1));
    }

    #[test]
    fn the_quick_range_check_agrees_with_the_exact_one() {
        let xs = [
            0.0,
            -0.0,
            1.0,
            -3.5,
            2f64.powi(-87),
            2f64.powi(-88),
            3.0 * 2f64.powi(-140),
            2f64.powi(-141),
            2f64.powi(199) * 1.5,
            2f64.powi(200),
            2f64.powi(200) * 1.5,
            f64::NAN,
            f64::INFINITY,
            5e-324,
        ];
        for &x in &xs {
            let p = Vec3::new(1.0, x, 0.5);
            let q = Vec3::new(1.0, 2.0, 3.0);
            assert_eq!(
                all_in_filter_range(&[&p, &q, &q, &q, &q, &q, &q, &q]),
                in_filter_range(x),
                "{x:e}"
            );
            assert_eq!(
                all_coordinates_in_filter_range(&[1.0, x, 0.5, 2.0]),
                in_filter_range(x),
                "{x:e}"
            );
        }
        assert!(all_coordinates_in_filter_range(&[]));
    }

    #[test]
    fn filter_range_is_a_granularity_and_a_magnitude() {
        assert_eq!(FILTER_MAX_MAGNITUDE, 2f64.powi(200));
        assert!(in_filter_range(0.0));
        assert!(in_filter_range(1e-17));
        assert!(in_filter_range(1e60));
        assert!(in_filter_range(2f64.powi(-140)));
        assert!(!in_filter_range(2f64.powi(-141)));
        assert!(!in_filter_range(1e-30));
        assert!(!in_filter_range(f64::NAN));
        assert!(!in_filter_range(f64::INFINITY));
        assert!(!in_filter_range(2e60));
    }
}
