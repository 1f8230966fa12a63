//! Real algebraic numbers in `[0, 1]`, and the exact sign of a polynomial at
//! one of them.
//!
//! A number is either an exact dyadic, or the unique root of a square-free
//! integer polynomial `R` in an open dyadic interval `(lo, hi)` with
//! `R(lo)·R(hi) < 0` (an isolating interval). Roots come from
//! [`roots_in_unit_interval`], which isolates them with the
//! Vincent–Collins–Akritas bisection (Descartes' rule of signs on the Möbius
//! transform `(t+1)ⁿ R(1/(t+1))`; Collins & Akritas, SYMSAC 1976).
//!
//! The sign of another polynomial `Q` at an isolated root `α` is decided
//! exactly: `Q(α) = 0` iff `G = gcd(R, Q)` changes sign on `(lo, hi)` (the
//! roots of `G` are simple roots of `R`, and `α` is the only one there);
//! otherwise the interval is bisected until Descartes' rule certifies that `Q`
//! has no root in it, and the sign is read at its midpoint.
//!
//! docs/design.md §9.

use std::cmp::Ordering;

use num_bigint::BigInt;
use num_traits::{One, ToPrimitive};

use super::dyadic::Dyadic;
use super::poly::{IntPoly, SignOrdering};

/// Relative width to which [`Algebraic::refine_with_float`] shrinks an
/// interval (`2⁻⁴⁰`).
const FLOAT_REFINE_WIDTH: f64 = 1.0 / (1u64 << 40) as f64;

/// A floating-point estimate of the single root of `p` in `(l, r)`, where `p`
/// has sign `sign_l` at `l` (bisection safeguarded Newton on coefficients
/// scaled by a power of two into the double range). Only a hint.
fn float_root(p: &IntPoly, l: f64, r: f64, sign_l: Ordering) -> Option<f64> {
    let bits = p.coeffs().iter().map(|c| c.bits()).max()?;
    let shift = bits.saturating_sub(900);
    let c: Vec<f64> = p
        .coeffs()
        .iter()
        .map(|x| (x >> shift).to_f64().unwrap_or(0.0))
        .collect();
    let f = |t: f64| c.iter().rev().fold(0.0, |acc, &a| acc * t + a);
    let df = |t: f64| {
        c.iter()
            .enumerate()
            .skip(1)
            .rev()
            .fold(0.0, |acc, (i, &a)| acc * t + a * i as f64)
    };
    let sl = if sign_l == Ordering::Less { -1.0 } else { 1.0 };
    let (mut lo, mut hi) = (l, r);
    let mut t = 0.5 * (lo + hi);
    for _ in 0..100 {
        let ft = f(t);
        if !ft.is_finite() {
            return None;
        }
        if ft * sl > 0.0 {
            lo = t;
        } else if ft * sl < 0.0 {
            hi = t;
        } else {
            return Some(t);
        }
        let mut next = t - ft / df(t);
        if !(next > lo && next < hi) {
            next = 0.5 * (lo + hi);
        }
        if (next - t).abs() <= 1e-3 * FLOAT_REFINE_WIDTH * t
            || hi - lo <= 1e-3 * FLOAT_REFINE_WIDTH * t
        {
            return Some(next);
        }
        t = next;
    }
    Some(t)
}

/// A real algebraic number in `[0, 1]`.
#[derive(Clone, Debug)]
pub struct Algebraic {
    repr: Repr,
}

#[derive(Clone, Debug)]
enum Repr {
    Exact(Dyadic),
    Isolated {
        poly: IntPoly,
        lo: Dyadic,
        hi: Dyadic,
        sign_lo: Ordering,
    },
}

impl Algebraic {
    /// The exact dyadic `d`.
    pub fn exact(d: Dyadic) -> Algebraic {
        Algebraic {
            repr: Repr::Exact(d),
        }
    }

    /// The exact value, when the number is a known dyadic.
    pub fn as_exact(&self) -> Option<&Dyadic> {
        match &self.repr {
            Repr::Exact(d) => Some(d),
            Repr::Isolated { .. } => None,
        }
    }

    /// Lower and upper ends of the current enclosing interval (equal when exact).
    pub fn bounds(&self) -> (&Dyadic, &Dyadic) {
        match &self.repr {
            Repr::Exact(d) => (d, d),
            Repr::Isolated { lo, hi, .. } => (lo, hi),
        }
    }

    /// A double `≤` the number.
    pub fn lower_f64(&self) -> f64 {
        self.bounds().0.to_f64_down()
    }

    /// A double `≥` the number.
    pub fn upper_f64(&self) -> f64 {
        self.bounds().1.to_f64_up()
    }

    /// Halves the enclosing interval (no-op when exact).
    pub fn bisect(&mut self) {
        let Repr::Isolated {
            poly,
            lo,
            hi,
            sign_lo,
        } = &mut self.repr
        else {
            return;
        };
        let mid = lo.midpoint(hi);
        match poly.sign_at_dyadic(&mid.num, mid.exp) {
            Ordering::Equal => self.repr = Repr::Exact(mid),
            s if s == *sign_lo => *lo = mid,
            _ => *hi = mid,
        }
    }

    /// Refines until the enclosing interval is at most `width` wide, or the
    /// number is known exactly. A `width` that is not positive (or NaN)
    /// refines to the smallest positive double, `2⁻¹⁰⁷⁴`: an irrational
    /// number never reaches width 0.
    pub fn refine_to(&mut self, width: f64) {
        if width == f64::INFINITY {
            return;
        }
        let smallest = f64::from_bits(1);
        let w = Dyadic::from_f64(if width > 0.0 { width } else { smallest });
        loop {
            let (lo, hi) = self.bounds();
            if hi.sub(lo) <= w || self.as_exact().is_some() {
                return;
            }
            self.bisect();
        }
    }

    /// The exact sign of `q` at this number (may refine the interval).
    ///
    /// The interval is first shrunk around a floating-point estimate of the
    /// root ([`Algebraic::refine_with_float`]). Then the gcd test decides an
    /// exact zero, and otherwise bisection continues until Descartes' rule
    /// certifies that `q` has no root in the interval.
    pub fn sign_of(&mut self, q: &IntPoly) -> Ordering {
        match q.degree() {
            None => return Ordering::Equal,
            Some(0) => return q.leading().sign_ordering(),
            _ => {}
        }
        self.refine_with_float();
        if let Some(s) = self.try_sign(q) {
            return s;
        }
        if let Repr::Isolated { poly, lo, hi, .. } = &self.repr {
            let g = IntPoly::gcd_up_to_scalar(poly, q);
            if g.degree().is_some_and(|d| d > 0)
                && g.sign_at_dyadic(&lo.num, lo.exp) != g.sign_at_dyadic(&hi.num, hi.exp)
            {
                return Ordering::Equal;
            }
        }
        loop {
            self.bisect();
            if let Some(s) = self.try_sign(q) {
                return s;
            }
        }
    }

    /// Shrinks a wide isolating interval to about `2⁻⁴⁰·t` around the root:
    /// Newton's method in floating point on the polynomial (coefficients
    /// scaled into range) proposes `t̃`, and `[t̃ − δ, t̃ + δ]` replaces the
    /// interval only if the polynomial's exact signs at its ends bracket the
    /// root. A no-op for exact numbers, narrow intervals, or when the estimate
    /// cannot be certified; correctness never depends on the float estimate.
    pub fn refine_with_float(&mut self) {
        let Repr::Isolated {
            poly,
            lo,
            hi,
            sign_lo,
        } = &mut self.repr
        else {
            return;
        };
        let (l, r) = (lo.to_f64_down(), hi.to_f64_up());
        if r - l <= FLOAT_REFINE_WIDTH * r {
            return;
        }
        let Some(t) = float_root(poly, l, r, *sign_lo) else {
            return;
        };
        let mut delta = FLOAT_REFINE_WIDTH * t.max(f64::MIN_POSITIVE);
        for _ in 0..3 {
            let (a, b) = (Dyadic::from_f64(t - delta), Dyadic::from_f64(t + delta));
            if &a > lo && &b < hi {
                let sa = poly.sign_at_dyadic(&a.num, a.exp);
                let sb = poly.sign_at_dyadic(&b.num, b.exp);
                if sa == Ordering::Equal {
                    self.repr = Repr::Exact(a);
                    return;
                }
                if sb == Ordering::Equal {
                    self.repr = Repr::Exact(b);
                    return;
                }
                if sa == *sign_lo && sb != *sign_lo {
                    *lo = a;
                    *hi = b;
                    return;
                }
            }
            delta *= 1024.0;
        }
    }

    /// The sign of `q` here if it is already certain: exact numbers always;
    /// isolated ones when `q` has no root in the interval (Descartes).
    fn try_sign(&self, q: &IntPoly) -> Option<Ordering> {
        match &self.repr {
            Repr::Exact(d) => Some(q.sign_at_dyadic(&d.num, d.exp)),
            Repr::Isolated { lo, hi, .. } => {
                let (a, b, j) = lo.common(hi);
                (q.to_interval(&a, &b, j).descartes_01() == 0).then(|| {
                    let mid = lo.midpoint(hi);
                    q.sign_at_dyadic(&mid.num, mid.exp)
                })
            }
        }
    }

    /// Exact comparison (may refine both numbers).
    pub fn compare(&mut self, other: &mut Algebraic) -> Ordering {
        loop {
            match (&self.repr, &other.repr) {
                (Repr::Exact(a), Repr::Exact(b)) => return a.cmp(b),
                (Repr::Exact(_), Repr::Isolated { .. }) => return other.compare(self).reverse(),
                (Repr::Isolated { .. }, Repr::Exact(e)) => {
                    let e = e.clone();
                    return self.compare_with_dyadic(&e);
                }
                (
                    Repr::Isolated {
                        lo: lo_a, hi: hi_a, ..
                    },
                    Repr::Isolated {
                        lo: lo_b,
                        hi: hi_b,
                        poly: poly_b,
                        ..
                    },
                ) => {
                    if hi_a <= lo_b {
                        return Ordering::Less;
                    }
                    if hi_b <= lo_a {
                        return Ordering::Greater;
                    }
                    let poly_b = poly_b.clone();
                    if self.sign_of(&poly_b) == Ordering::Equal {
                        // self is a root of other's polynomial, whose only root
                        // in other's (open) interval is other, and whose
                        // interval ends are not roots: refine self alone until
                        // its interval nests inside other's (equal) or leaves
                        // it (ordered by the outer loop).
                        loop {
                            let (lo_a, hi_a) = self.bounds();
                            let (lo_b, hi_b) = other.bounds();
                            if lo_b <= lo_a && hi_a <= hi_b {
                                return Ordering::Equal;
                            }
                            if hi_a <= lo_b || hi_b <= lo_a {
                                break;
                            }
                            self.bisect();
                        }
                        continue;
                    }
                    self.bisect();
                    other.bisect();
                }
            }
        }
    }

    fn compare_with_dyadic(&mut self, e: &Dyadic) -> Ordering {
        let Repr::Isolated {
            poly,
            lo,
            hi,
            sign_lo,
        } = &self.repr
        else {
            unreachable!("called on an isolated number");
        };
        if e <= lo {
            return Ordering::Greater;
        }
        if e >= hi {
            return Ordering::Less;
        }
        match poly.sign_at_dyadic(&e.num, e.exp) {
            Ordering::Equal => Ordering::Equal,
            // Same sign as at lo: e lies left of the root.
            s if s == *sign_lo => Ordering::Greater,
            _ => Ordering::Less,
        }
    }
}

/// All roots of `p` in the closed interval `[0, 1]`, in increasing order,
/// each once.
///
/// # Panics
/// When `p` is the zero polynomial (every point is a root).
///
/// Root isolation runs on `p` itself first: when it finishes within
/// `DIRECT_VCA_DEPTH` (48) halvings, finds no root at a dyadic point, and ends
/// with one sign variation per interval, every root in `[0, 1]` is simple and
/// the square-free part is not needed. Otherwise (a multiple or dyadic root)
/// it restarts on the square-free part.
pub fn roots_in_unit_interval(p: &IntPoly) -> Vec<Algebraic> {
    assert!(!p.is_zero(), "the zero polynomial has no isolated roots");
    if p.degree() == Some(0) {
        return Vec::new();
    }
    let p = p.strip_twos();
    if let Some(roots) = isolate(&p, Some(DIRECT_VCA_DEPTH)).filter(|(exact, _)| exact.is_empty()) {
        return assemble(&p, roots.0, roots.1);
    }
    let q = p.square_free();
    let (exact, intervals) = isolate(&q, None).expect("no depth limit");
    assemble(&q, exact, intervals)
}

/// Halvings after which [`roots_in_unit_interval`] stops trying to isolate the
/// roots of a polynomial that may not be square-free.
const DIRECT_VCA_DEPTH: u64 = 48;

/// Vincent–Collins–Akritas on `[0, 1]`: the dyadic roots found exactly, and
/// the isolating intervals `(c/2^k, (c+1)/2^k)` as `(c, k)`. `None` when
/// `max_depth` is exceeded (then `q` may have a multiple root).
#[allow(clippy::type_complexity)]
fn isolate(q: &IntPoly, max_depth: Option<u64>) -> Option<(Vec<Dyadic>, Vec<(BigInt, u64)>)> {
    let mut exact: Vec<Dyadic> = Vec::new();
    let mut intervals: Vec<(BigInt, u64)> = Vec::new();
    if q.sign_at_zero() == Ordering::Equal {
        exact.push(Dyadic::zero());
    }
    if q.sign_at_one() == Ordering::Equal {
        exact.push(Dyadic::one());
    }
    // r(x) = 2^(kn)·q((c + x) / 2^k), x ∈ (0, 1).
    let mut stack = vec![(q.clone(), BigInt::from(0), 0u64)];
    while let Some((r, c, k)) = stack.pop() {
        match r.descartes_01() {
            0 => continue,
            1 => {
                intervals.push((c, k));
                continue;
            }
            _ => {}
        }
        if max_depth.is_some_and(|d| k >= d) {
            return None;
        }
        let left = r.halve_left();
        let right = left.taylor_shift_one();
        let c2: BigInt = &c << 1u32;
        if right.sign_at_zero() == Ordering::Equal {
            exact.push(Dyadic::new(&c2 + 1, k + 1));
        }
        stack.push((right, &c2 + 1, k + 1));
        stack.push((left, c2, k + 1));
    }
    Some((exact, intervals))
}

/// The roots as algebraic numbers, sorted. `q` must have only simple roots in
/// `[0, 1]`; the exact (dyadic) roots are divided out of the polynomial kept
/// by the isolated ones, so that no interval end is a root.
fn assemble(q: &IntPoly, exact: Vec<Dyadic>, intervals: Vec<(BigInt, u64)>) -> Vec<Algebraic> {
    let mut reduced = q.clone();
    for d in &exact {
        // d = num / 2^exp with num odd (or d ∈ {0, 1}): factor 2^exp·t − num.
        let factor = IntPoly::linear(-d.num.clone(), BigInt::one() << d.exp);
        reduced = reduced
            .div_exact(&factor)
            .expect("an exact root's linear factor divides the polynomial");
    }
    let mut roots: Vec<Algebraic> = exact.into_iter().map(Algebraic::exact).collect();
    for (c, k) in intervals {
        let lo = Dyadic::new(c.clone(), k);
        let hi = Dyadic::new(c + 1, k);
        let sign_lo = reduced.sign_at_dyadic(&lo.num, lo.exp);
        debug_assert_ne!(sign_lo, Ordering::Equal);
        debug_assert_eq!(
            reduced.sign_at_dyadic(&hi.num, hi.exp),
            sign_lo.reverse(),
            "an isolating interval brackets a sign change"
        );
        roots.push(Algebraic {
            repr: Repr::Isolated {
                poly: reduced.clone(),
                lo,
                hi,
                sign_lo,
            },
        });
    }
    roots.sort_by(|a, b| {
        let (la, _) = a.bounds();
        let (lb, _) = b.bounds();
        la.cmp(lb)
            .then_with(|| a.as_exact().is_none().cmp(&b.as_exact().is_none()))
    });
    roots
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(c: &[i64]) -> IntPoly {
        IntPoly::from_coeffs(c.iter().map(|&x| BigInt::from(x)).collect())
    }

    fn approx(a: &Algebraic) -> f64 {
        let mut a = a.clone();
        a.refine_to(1e-12);
        a.lower_f64()
    }

    /// √½ (irrational) refined to width 0, NaN or a negative width stops at
    /// the smallest double's width; to +∞ it does not refine.
    #[test]
    fn refining_to_no_width_terminates() {
        let root = || roots_in_unit_interval(&p(&[-1, 0, 2])).remove(0);
        let before = root();
        let width = |a: &Algebraic| a.upper_f64() - a.lower_f64();
        let mut a = root();
        a.refine_to(f64::INFINITY);
        assert_eq!(width(&a), width(&before));
        for w in [0.0, -1.0, f64::NAN] {
            let mut a = root();
            a.refine_to(w);
            let (lo, hi) = a.bounds();
            assert!(hi.sub(lo) <= Dyadic::from_f64(f64::from_bits(1)), "{w}");
            assert!(a.lower_f64() <= std::f64::consts::FRAC_1_SQRT_2);
            assert!(std::f64::consts::FRAC_1_SQRT_2 <= a.upper_f64() + f64::EPSILON);
        }
    }

    #[test]
    fn isolates_simple_exact_and_multiple_roots() {
        // (t − ½)² (3t − 1)(t − 1)(t + 2)
        let f = p(&[-1, 2])
            .mul(&p(&[-1, 2]))
            .mul(&p(&[-1, 3]))
            .mul(&p(&[-1, 1]))
            .mul(&p(&[2, 1]));
        let roots = roots_in_unit_interval(&f);
        let vals: Vec<f64> = roots.iter().map(approx).collect();
        assert_eq!(vals.len(), 3, "{vals:?}");
        assert!((vals[0] - 1.0 / 3.0).abs() < 1e-11);
        assert_eq!(vals[1], 0.5);
        assert_eq!(vals[2], 1.0);
        assert!(roots[1].as_exact().is_some());
    }

    #[test]
    fn sign_at_a_root_detects_exact_zeros() {
        // α = 1/√2 is the root of 2t² − 1 in [0, 1].
        let mut alpha = roots_in_unit_interval(&p(&[-1, 0, 2])).remove(0);
        assert_eq!(alpha.sign_of(&p(&[-1, 0, 2])), Ordering::Equal);
        // 4t⁴ − 1 = (2t² − 1)(2t² + 1) vanishes at α too.
        assert_eq!(alpha.sign_of(&p(&[-1, 0, 0, 0, 4])), Ordering::Equal);
        // 10t − 7 > 0 at 0.7071…, 100t − 71 < 0.
        assert_eq!(alpha.sign_of(&p(&[-7, 10])), Ordering::Greater);
        assert_eq!(alpha.sign_of(&p(&[-71, 100])), Ordering::Less);
    }

    #[test]
    fn comparison_of_close_and_equal_roots() {
        let mut a = roots_in_unit_interval(&p(&[-1, 0, 2])).remove(0);
        // Same number from another polynomial: (2t² − 1)(t + 5).
        let mut b = roots_in_unit_interval(&p(&[-1, 0, 2]).mul(&p(&[5, 1]))).remove(0);
        assert_eq!(a.compare(&mut b), Ordering::Equal);
        // 0.7071 < 1/√2.
        let mut c = roots_in_unit_interval(&p(&[-7071, 10000])).remove(0);
        assert_eq!(c.compare(&mut a), Ordering::Less);
        assert_eq!(a.compare(&mut c), Ordering::Greater);
    }

    #[test]
    fn equal_roots_with_overlapping_intervals_compare_equal() {
        // Regression (coplanar-motion proptest): 1/√2 isolated by two
        // polynomials in same-width intervals that overlap without nesting;
        // bisecting both forever never nested them.
        let d = |n: i64, e: u64| Dyadic::new(BigInt::from(n), e);
        let iso = |poly: IntPoly, lo: Dyadic, hi: Dyadic| {
            let sign_lo = poly.sign_at_dyadic(&lo.num, lo.exp);
            Algebraic {
                repr: Repr::Isolated {
                    poly,
                    lo,
                    hi,
                    sign_lo,
                },
            }
        };
        let mut a = iso(p(&[-1, 0, 2]), d(1, 1), d(3, 2));
        let mut b = iso(p(&[-1, 0, 2]).mul(&p(&[5, 1])), d(5, 3), d(7, 3));
        assert_eq!(a.compare(&mut b), Ordering::Equal);
        assert_eq!(b.compare(&mut a), Ordering::Equal);
    }

    #[test]
    fn bounds_enclose_the_root() {
        let mut a = roots_in_unit_interval(&p(&[-1, 0, 2])).remove(0);
        a.refine_to(1e-15);
        let r = std::f64::consts::FRAC_1_SQRT_2;
        assert!(a.lower_f64() <= r && r <= a.upper_f64());
        assert!(a.upper_f64() - a.lower_f64() < 2e-15);
    }
}
