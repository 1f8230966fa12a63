//! Double-double values that carry a rigorous bound on their rounding error:
//! [`Bounded`](super::Bounded) with about twice the precision.
//!
//! A [`BoundedDd`] is the computed value `x̃ = hi + lo` of an expression over
//! exact double inputs (an unevaluated sum of two doubles with
//! `hi = fl(hi + lo)`, so `|lo| ≤ u·|hi|`), an upper bound `m` on the
//! expression's exact *magnitude* `M` (the same expression on the absolute
//! values of its inputs, subtractions turned into additions) and a count `k`.
//! The invariant, for the exact value `x`, is
//!
//! ```text
//! |x̃ − x| ≤ k·u²·M,        m ≥ M,
//! ```
//!
//! with `u = ε/2`. The building blocks are the error-free transformations
//! `TwoSum` (Knuth) and `TwoProd` (with a fused multiply–add) — Muller et
//! al., *Handbook of Floating-Point Arithmetic*, 2nd ed., 2018, §4.3 and
//! §4.4 — and the double-word algorithms analysed by Joldes, Muller &
//! Popescu, "Tight and rigorous error bounds for basic building blocks of
//! double-word arithmetic", ACM TOMS 44(2), 2017. The bounds used here are
//! derived below for the exact variants coded, and are looser than theirs.
//!
//! **Magnitudes** are rounded upward: `fl(fl(a ∘ b)·(1 + 4u))` for
//! `∘ ∈ {+, ×}` on non-negative `a`, `b` is at least `a ∘ b`, because
//! `(1 − u)²(1 + 4u) ≥ 1`. So `m ≥ M` holds exactly, and `m = 0` iff `M = 0`:
//! a value whose magnitude is zero is an **exact zero** (a structural zero of
//! the expression, such as a coordinate difference of two equal inputs).
//!
//! **Operations** (`|xl| ≤ u|xh|` for normalised operands; `M ≥ |x̃|/(1 + ku²)`
//! and `|xh| ≤ |x̃|/(1 − u)`):
//!
//! - leaf `a − b` of doubles: `TwoSum` is exact, `k = 0`;
//! - `x ± y`: `(s, e₁) = TwoSum(xh, ±yh)`, `e₂ = fl(e₁ + fl(xl ± yl))`,
//!   `TwoSum(s, e₂)`. The two roundings are at most
//!   `u·|xl ± yl| ≤ u²(|xh| + |yh|)` and
//!   `u·|e₁ + t| ≤ u(2u + 2u²)(|xh| + |yh|)`, in all at most
//!   `4u²(M_x + M_y)`, so `k = max(k_x, k_y) + 4`;
//! - `x · y`: `(p, e) = TwoProd(xh, yh)`, `t = fl(xh·yl + fl(xl·yh))` (one
//!   fused multiply–add), `e₂ = fl(e + t)`, `FastTwoSum(p, e₂)`. Dropping
//!   `xl·yl` costs `u²|xh yh|`, the roundings `u²`, `u(2u + u²)` and
//!   `u(3u + O(u²))` times `|xh yh|`; in all at most `8u²·M_x M_y`, and with
//!   the propagated errors (`k_x k_y u² ≤ 1` for counts below `2²⁶`)
//!   `k = k_x + k_y + 9`;
//! - `x · d` for an exact double `d`: `TwoProd(xh, d)`, `fl(xl·d)`,
//!   `fl(e + ·)`, `FastTwoSum`: at most `3u²|xh d|`, `k = k_x + 4`;
//! - halving and negation are exact.
//!
//! **Signs.** `|x̃ − x| ≤ k u² m ≤ fl((k + 2)·u²·m) =: E`, and
//! `x̃ ≥ hi − |lo| ≥ hi(1 − u) > fl(hi·(1 − 4u))`, so `fl(hi·(1 − 4u)) > E`
//! certifies `x > 0` (and symmetrically `x < 0`).
//!
//! **Range.** As for [`Bounded`](super::Bounded), the callers guarantee that
//! every input is a multiple of `2⁻¹⁴⁰` of magnitude at most `2²⁰⁰` and that
//! every product's exact value is a multiple of at least `2⁻¹⁰⁷⁴`, so that
//! `TwoProd` is exact, no magnitude is subnormal and `u²·m` is normal (see
//! [`crate::narrow_phase`]'s precise tier for the count).
//!
//! docs/design.md §8 (`BoundedDd`) and §9 (the precise tier).

use super::scalar::UNIT_ROUNDOFF;

/// `u²`.
const U2: f64 = UNIT_ROUNDOFF * UNIT_ROUNDOFF;
/// `1 + 4u`: rounds a non-negative sum or product upward (module doc).
const UP: f64 = 1.0 + 4.0 * UNIT_ROUNDOFF;
/// `1 − 4u`: shrinks `hi` below the double-double value (module doc).
const DOWN: f64 = 1.0 - 4.0 * UNIT_ROUNDOFF;

/// `(s, e)` with `s = fl(a + b)` and `s + e = a + b` exactly (Knuth's
/// TwoSum; no condition on the operands' order).
#[inline]
pub fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

/// `(s, e)` with `s = fl(a + b)` and `s + e = a + b` exactly, for `|a| ≥ |b|`
/// or `a = 0` (Dekker's FastTwoSum).
#[inline]
fn fast_two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    (s, b - (s - a))
}

/// `(p, e)` with `p = fl(a·b)` and `p + e = a·b` exactly, when the exact
/// product is a multiple of `2⁻¹⁰⁷⁴` and does not overflow.
#[inline]
pub fn two_prod(a: f64, b: f64) -> (f64, f64) {
    let p = a * b;
    (p, a.mul_add(b, -p))
}

/// A double-double value `hi + lo` with a certified error bound
/// ([`BoundedDd::error_bound`]), for inputs in [`super::in_filter_range`]:
/// the precise tier of the exact solvers (docs/design.md §8, the
/// [`design`](crate::design) page).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoundedDd {
    /// Leading part: the computed value rounded to a double.
    pub hi: f64,
    /// Trailing part, `|lo| ≤ u·|hi|`.
    pub lo: f64,
    /// Upper bound on the exact magnitude.
    pub m: f64,
    /// Error count, in units of `u²·M`.
    pub k: u32,
}

impl BoundedDd {
    /// An exact double.
    #[inline]
    pub fn exact(x: f64) -> BoundedDd {
        BoundedDd {
            hi: x,
            lo: 0.0,
            m: x.abs(),
            k: 0,
        }
    }

    /// `a − b` for exact doubles, exactly.
    #[inline]
    pub fn difference(a: f64, b: f64) -> BoundedDd {
        let (hi, lo) = two_sum(a, -b);
        BoundedDd {
            hi,
            lo,
            // M = |hi + lo| ≤ |hi|(1 + u) ≤ fl(|hi|·(1 + 4u)).
            m: hi.abs() * UP,
            k: 0,
        }
    }

    /// `1 − t` for an exact double `t`, exactly.
    #[inline]
    pub fn one_minus(t: f64) -> BoundedDd {
        BoundedDd::difference(1.0, t)
    }

    /// `true` when the exact value is certainly zero (its magnitude is zero).
    #[inline]
    pub fn is_exact_zero(&self) -> bool {
        self.m == 0.0
    }

    /// A bound `E ≥ |x̃ − x|` (module doc).
    #[inline]
    pub fn error_bound(&self) -> f64 {
        (self.k as f64 + 2.0) * (U2 * self.m)
    }

    /// `true` when the exact value is certainly `> 0`.
    #[inline]
    pub fn certainly_positive(&self) -> bool {
        self.hi * DOWN > self.error_bound()
    }

    /// `true` when the exact value is certainly `< 0`.
    #[inline]
    pub fn certainly_negative(&self) -> bool {
        -self.hi * DOWN > self.error_bound()
    }

    /// The certified sign: `Some(1)`, `Some(-1)`, `Some(0)` for an exact zero,
    /// `None` when unknown.
    #[inline]
    pub fn sign(&self) -> Option<i8> {
        if self.is_exact_zero() {
            Some(0)
        } else if self.certainly_positive() {
            Some(1)
        } else if self.certainly_negative() {
            Some(-1)
        } else {
            None
        }
    }

    /// `self · d` for an exact double `d`.
    #[inline]
    pub fn scale(self, d: f64) -> BoundedDd {
        let (p, e) = two_prod(self.hi, d);
        let (hi, lo) = fast_two_sum(p, e + self.lo * d);
        BoundedDd {
            hi,
            lo,
            m: self.m * d.abs() * UP,
            k: self.k + 4,
        }
    }

    /// `self / 2`, exact.
    #[inline]
    pub fn half(self) -> BoundedDd {
        BoundedDd {
            hi: 0.5 * self.hi,
            lo: 0.5 * self.lo,
            m: 0.5 * self.m,
            k: self.k,
        }
    }
}

impl std::ops::Add for BoundedDd {
    type Output = BoundedDd;
    #[inline]
    fn add(self, o: BoundedDd) -> BoundedDd {
        let (s, e1) = two_sum(self.hi, o.hi);
        let (hi, lo) = two_sum(s, e1 + (self.lo + o.lo));
        BoundedDd {
            hi,
            lo,
            m: (self.m + o.m) * UP,
            k: self.k.max(o.k) + 4,
        }
    }
}

impl std::ops::Neg for BoundedDd {
    type Output = BoundedDd;
    #[inline]
    fn neg(self) -> BoundedDd {
        BoundedDd {
            hi: -self.hi,
            lo: -self.lo,
            m: self.m,
            k: self.k,
        }
    }
}

impl std::ops::Sub for BoundedDd {
    type Output = BoundedDd;
    #[inline]
    fn sub(self, o: BoundedDd) -> BoundedDd {
        self + (-o)
    }
}

impl std::ops::Mul for BoundedDd {
    type Output = BoundedDd;
    #[inline]
    fn mul(self, o: BoundedDd) -> BoundedDd {
        let (p, e) = two_prod(self.hi, o.hi);
        let t = self.hi.mul_add(o.lo, self.lo * o.hi);
        let (hi, lo) = fast_two_sum(p, e + t);
        BoundedDd {
            hi,
            lo,
            m: (self.m * o.m) * UP,
            k: self.k + o.k + 9,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::{Dyadic, SignOrdering};
    use crate::math::in_filter_range;
    use num_traits::Signed;
    use proptest::prelude::*;

    fn add(a: &Dyadic, b: &Dyadic) -> Dyadic {
        let (x, y, j) = a.common(b);
        Dyadic::new(x + y, j)
    }

    fn mul(a: &Dyadic, b: &Dyadic) -> Dyadic {
        Dyadic::new(&a.num * &b.num, a.exp + b.exp)
    }

    fn neg(a: &Dyadic) -> Dyadic {
        Dyadic::new(-a.num.clone(), a.exp)
    }

    /// The exact value of the unevaluated sum `hi + lo`.
    fn value(x: &BoundedDd) -> Dyadic {
        add(&Dyadic::from_f64(x.hi), &Dyadic::from_f64(x.lo))
    }

    /// A bounded value and its exact counterpart, built by the same random
    /// expression tree (depth ≤ 4) over differences of the inputs.
    fn eval(ops: &[u8], xs: &[f64]) -> (BoundedDd, Dyadic) {
        let mut stack: Vec<(BoundedDd, Dyadic)> = Vec::new();
        let mut next = 0;
        let mut leaf = |stack: &mut Vec<(BoundedDd, Dyadic)>| {
            let (a, b) = (xs[next % xs.len()], xs[(next + 1) % xs.len()]);
            next += 2;
            let exact = add(&Dyadic::from_f64(a), &neg(&Dyadic::from_f64(b)));
            stack.push((BoundedDd::difference(a, b), exact));
        };
        for &op in ops {
            if stack.len() < 2 {
                leaf(&mut stack);
                continue;
            }
            let (y, ey) = stack.pop().unwrap();
            let (x, ex) = stack.pop().unwrap();
            stack.push(match op % 5 {
                0 => (x + y, add(&ex, &ey)),
                1 => (x - y, add(&ex, &neg(&ey))),
                2 => (x * y, mul(&ex, &ey)),
                3 => (x.scale(xs[0]), mul(&ex, &Dyadic::from_f64(xs[0]))),
                _ => (x.half(), mul(&ex, &Dyadic::new(1.into(), 1))),
            });
        }
        if stack.is_empty() {
            leaf(&mut stack);
        }
        stack.pop().unwrap()
    }

    fn coord() -> impl Strategy<Value = f64> {
        prop_oneof![
            Just(0.0),
            Just(1.0),
            (-1e3f64..1e3).prop_filter("range", |x| in_filter_range(*x)),
            (-1e-17f64..1e-17).prop_filter("range", |x| in_filter_range(*x)),
            (1u32..1000).prop_map(|n| n as f64 / 64.0),
        ]
    }

    proptest! {
        /// The error bound holds and certified signs are exact, for random
        /// expressions over differences of doubles (including exact zeros,
        /// cancellations, and mixed scales).
        #[test]
        fn bound_and_sign_are_honest(
            ops in proptest::collection::vec(0u8..5, 1..12),
            xs in proptest::collection::vec(coord(), 4..10),
        ) {
            let (x, exact) = eval(&ops, &xs);
            let err = add(&value(&x), &neg(&exact));
            let bound = Dyadic::from_f64(x.error_bound());
            prop_assert!(Dyadic::new(err.num.abs(), err.exp) <= bound, "{x:?}");
            prop_assert!(x.lo.abs() <= UNIT_ROUNDOFF * x.hi.abs());
            let s = exact.num.sign_ordering() as i8;
            if let Some(got) = x.sign() {
                prop_assert_eq!(got, s, "{:?}", x);
            }
            if x.is_exact_zero() {
                prop_assert_eq!(s, 0);
            }
        }
    }

    #[test]
    fn resolves_what_doubles_cannot() {
        // (1 + 2⁻⁶⁰) − 1 − 2⁻⁶⁰ as (a − b) − (c − d): exactly zero, but each
        // difference is exact only in double-double.
        let a = 1.0;
        let tiny = 2f64.powi(-60);
        let x = BoundedDd::difference(a, -tiny) - BoundedDd::difference(a, 0.0);
        assert!(x.certainly_positive());
        let y = x - BoundedDd::exact(tiny);
        assert_eq!(y.hi, 0.0);
        assert_eq!(y.sign(), None);
        assert_eq!(BoundedDd::difference(3.0, 3.0).sign(), Some(0));
    }
}
