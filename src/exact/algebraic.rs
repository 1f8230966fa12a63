//! Real algebraic numbers in `[0, 1]`, and the exact sign of a polynomial at
//! one of them.
//!
//! A number is either an exact dyadic, or the unique root of a square-free
//! integer polynomial `R` in an open dyadic interval `(lo, hi)` with
//! `R(lo)·R(hi) < 0` (an isolating interval). Roots come from
//! [`roots_in_unit_interval`], which isolates them with the
//! Vincent–Collins–Akritas bisection (Descartes' rule of signs on the Möbius
//! transform `(t+1)ⁿ R(1/(t+1))`; Collins & Akritas, SYMSAC 1976). A node
//! that may still hold a close pair of roots after a few halvings is split at
//! the critical point between them (`split_pair`) instead of being halved
//! until they part; plain bisection is the tests' oracle there too. A
//! polynomial that a gcd modulo a prime does not prove square-free is
//! isolated within a depth limit first, and on failure again on its
//! square-free part.
//!
//! The sign of another polynomial `Q` at an isolated root `α` is decided
//! exactly: `Q(α) = 0` iff `G = gcd(R, Q)` changes sign on `(lo, hi)` (the
//! roots of `G` are simple roots of `R`, and `α` is the only one there); a
//! gcd modulo a prime that proves `R` and `Q` coprime saves that exact gcd.
//! Otherwise the interval is refined until Descartes' rule certifies that `Q`
//! has no root in it, and the sign is read at its midpoint. The refinement is
//! quadratic interval refinement (Abbott, ACM Commun. Comput. Algebra 48,
//! 2014), which gains twice the bits per step near a simple root where
//! bisection gains one; plain bisection is the tests' oracle.
//!
//! docs/design.md §9.

use std::cmp::Ordering;

use num_bigint::BigInt;
use num_traits::{One, Signed, ToPrimitive, Zero};

use super::dyadic::Dyadic;
use super::poly::{IntPoly, SignOrdering};

/// Relative width to which [`Algebraic::refine_with_float`] shrinks an
/// interval (`2⁻⁴⁰`).
const FLOAT_REFINE_WIDTH: f64 = 1.0 / (1u64 << 40) as f64;

/// The most bits one step of `Algebraic::refine_quadratic` may gain (`N` at
/// most `2^4096`): beyond the widths the crate's polynomials need, so that a
/// long run of successes cannot make one step's numbers grow without bound.
const MAX_LOG_PARTS: u64 = 4096;

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

    /// One step of quadratic interval refinement (Abbott, "Quadratic
    /// interval refinement for real roots", ACM Commun. Comput. Algebra 48,
    /// 2014): the interval is cut into `N = 2^log_n` equal parts, the secant
    /// through the polynomial's values at its ends picks one, and that part
    /// becomes the interval when the polynomial's exact signs at its ends
    /// bracket the root; then `N` is squared. Otherwise the interval keeps
    /// the side those signs leave the root on, and `N` is square-rooted. With
    /// `N = 2` a step is a bisection. Near a simple root (the isolating
    /// polynomial is square-free) the secant's error shrinks with the
    /// square of the width, so the bits gained per step double instead of
    /// growing by one. Only exact signs decide; the secant only proposes.
    fn refine_quadratic(&mut self, log_n: &mut u64) {
        let Repr::Isolated {
            poly,
            lo,
            hi,
            sign_lo,
        } = &mut self.repr
        else {
            return;
        };
        let m = *log_n;
        let (a, b, j) = lo.common(hi);
        let fa = poly.eval_dyadic_scaled(&a, j);
        let fb = poly.eval_dyadic_scaled(&b, j);
        // fa and fb are non-zero with opposite signs: fa/(fa − fb) ∈ (0, 1),
        // and the truncated quotient is the part holding the secant's root.
        let parts = BigInt::one() << m;
        let i = (&fa << m) / (&fa - &fb);
        debug_assert!(!i.is_negative() && i < parts);
        let width = &b - &a;
        let base = &a << m;
        let left = Dyadic::new(&base + &i * &width, j + m);
        let right = Dyadic::new(&base + (&i + 1) * &width, j + m);
        let sign_left = if i.is_zero() {
            *sign_lo
        } else {
            poly.sign_at_dyadic(&left.num, left.exp)
        };
        let sign_right = if &i + 1 == parts {
            sign_lo.reverse()
        } else {
            poly.sign_at_dyadic(&right.num, right.exp)
        };
        if sign_left == Ordering::Equal {
            self.repr = Repr::Exact(left);
        } else if sign_right == Ordering::Equal {
            self.repr = Repr::Exact(right);
        } else if sign_left == *sign_lo && sign_right != *sign_lo {
            *lo = left;
            *hi = right;
            *log_n = (2 * m).min(MAX_LOG_PARTS);
        } else {
            if sign_left != *sign_lo {
                *hi = left;
            } else {
                *lo = right;
            }
            *log_n = (m / 2).max(1);
        }
    }

    /// The exact sign of `q` at this number (may refine the interval).
    ///
    /// The interval is first shrunk around a floating-point estimate of the
    /// root ([`Algebraic::refine_with_float`]). Then the gcd test decides an
    /// exact zero (skipped when a gcd modulo a prime proves that `q` and
    /// this number's polynomial share no factor), and otherwise quadratic
    /// interval refinement (`refine_quadratic`) continues until Descartes'
    /// rule certifies that `q` has no root in the interval. Roots of `q`
    /// very close to this one (relative to the interval), which the double
    /// estimate cannot separate, then cost a number of steps logarithmic in
    /// the bits that separate them, not linear.
    pub fn sign_of(&mut self, q: &IntPoly) -> Ordering {
        self.sign_and_steps(q).0
    }

    /// [`Algebraic::sign_of`], also counting the refinement steps taken after
    /// the gcd test.
    fn sign_and_steps(&mut self, q: &IntPoly) -> (Ordering, usize) {
        match q.degree() {
            None => return (Ordering::Equal, 0),
            Some(0) => return (q.leading().sign_ordering(), 0),
            _ => {}
        }
        self.refine_with_float();
        if let Some(s) = self.try_sign(q) {
            return (s, 0);
        }
        if !self.certainly_not_a_root_of(q) && self.gcd_vanishes(q) {
            return (Ordering::Equal, 0);
        }
        self.refine_until_signed(q, None)
            .expect("q does not vanish here, so its sign is certified in finitely many steps")
    }

    /// Refines (`refine_quadratic`) until Descartes' rule certifies that `q`
    /// has no root in the interval: the sign of `q` here and the steps taken.
    /// With `finest`, gives up (`None`) once the interval is narrower than
    /// that width without a certificate. Without it, it ends exactly when `q`
    /// does not vanish here.
    fn refine_until_signed(
        &mut self,
        q: &IntPoly,
        finest: Option<&Dyadic>,
    ) -> Option<(Ordering, usize)> {
        let (mut log_parts, mut steps) = (1, 0);
        loop {
            let (lo, hi) = self.bounds();
            if finest.is_some_and(|w| &hi.sub(lo) < w) {
                return None;
            }
            self.refine_quadratic(&mut log_parts);
            steps += 1;
            if let Some(s) = self.try_sign(q) {
                return Some((s, steps));
            }
        }
    }

    /// Whether a gcd modulo a prime proves that `q` shares no factor with
    /// this number's polynomial `R` ([`IntPoly::certainly_coprime`]), so
    /// that `q` does not vanish here; `false` when not known and for an
    /// exact number. Saves the exact gcd in the common case.
    fn certainly_not_a_root_of(&self, q: &IntPoly) -> bool {
        matches!(&self.repr, Repr::Isolated { poly, .. } if poly.certainly_coprime(q))
    }

    /// Whether `q` vanishes at this isolated number: `gcd(R, q)` changes
    /// sign on the interval (its roots are simple roots of `R`, and this
    /// number is the only one there). `false` for an exact number.
    fn gcd_vanishes(&self, q: &IntPoly) -> bool {
        let Repr::Isolated { poly, lo, hi, .. } = &self.repr else {
            return false;
        };
        let g = IntPoly::gcd_up_to_scalar(poly, q);
        g.degree().is_some_and(|d| d > 0)
            && g.sign_at_dyadic(&lo.num, lo.exp) != g.sign_at_dyadic(&hi.num, hi.exp)
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
/// When a gcd modulo a prime proves `p` square-free
/// ([`IntPoly::certainly_square_free`]), its roots are isolated directly.
/// Otherwise root isolation runs on `p` itself first: when it finishes within
/// `DIRECT_VCA_DEPTH` (48) halvings, finds no root at a dyadic point, and ends
/// with intervals of one simple root each (one sign variation, or one side of
/// a split pair), every root in `[0, 1]` is simple and the square-free part is
/// not needed. Otherwise (a multiple or dyadic root)
/// it restarts on the square-free part.
pub fn roots_in_unit_interval(p: &IntPoly) -> Vec<Algebraic> {
    roots_splitting_pairs(p, Some(PAIR_SPLIT_DEPTH))
}

/// [`roots_in_unit_interval`], with close pairs split after
/// `pair_split_depth` halvings (`None`: plain Vincent–Collins–Akritas, the
/// tests' oracle).
fn roots_splitting_pairs(p: &IntPoly, pair_split_depth: Option<u64>) -> Vec<Algebraic> {
    assert!(!p.is_zero(), "the zero polynomial has no isolated roots");
    if p.degree() == Some(0) {
        return Vec::new();
    }
    let p = p.strip_twos();
    // Proven square-free: every root simple, no depth limit needed.
    let q = if p.certainly_square_free() {
        p
    } else {
        if let Some((exact, intervals)) = isolate(&p, Some(DIRECT_VCA_DEPTH), pair_split_depth)
            .filter(|(exact, _)| exact.is_empty())
        {
            return assemble(&p, exact, intervals);
        }
        p.square_free()
    };
    let (exact, intervals) =
        isolate(&q, None, pair_split_depth).expect("a square-free polynomial, no depth limit");
    assemble(&q, exact, intervals)
}

/// Halvings after which [`roots_in_unit_interval`] stops trying to isolate the
/// roots of a polynomial that may not be square-free.
const DIRECT_VCA_DEPTH: u64 = 48;

/// Halvings after which a node that Descartes' rule says may hold two roots
/// is split at its critical point (`split_pair`) instead of halved further.
const PAIR_SPLIT_DEPTH: u64 = 8;

/// An isolating interval `(lo, hi)`: one simple root inside (its ends may be
/// exact roots until `assemble` divides those out).
type Interval = (Dyadic, Dyadic);

/// Vincent–Collins–Akritas on `[0, 1]`: the dyadic roots found exactly, and
/// the isolating intervals. `None` when `max_depth` is exceeded or a multiple
/// root is found (then `q` may not be square-free; never for a square-free
/// `q` without a depth limit).
///
/// A node that still may hold two roots after `pair_split_depth` halvings is
/// split at the one root of `q′` in it instead, when Descartes' rule
/// certifies there is exactly one (`split_pair`): two roots `2⁻ᵐ` apart take
/// about `m` halvings to separate, the split a number of refinement steps
/// logarithmic in `m`.
fn isolate(
    q: &IntPoly,
    max_depth: Option<u64>,
    pair_split_depth: Option<u64>,
) -> Option<(Vec<Dyadic>, Vec<Interval>)> {
    let mut exact: Vec<Dyadic> = Vec::new();
    let mut intervals: Vec<Interval> = Vec::new();
    if q.sign_at_zero() == Ordering::Equal {
        exact.push(Dyadic::zero());
    }
    if q.sign_at_one() == Ordering::Equal {
        exact.push(Dyadic::one());
    }
    // q′, for the pair splits (computed at the first).
    let mut dq: Option<IntPoly> = None;
    // r(x) = 2^(kn)·q((c + x) / 2^k), x ∈ (0, 1).
    let mut stack = vec![(q.clone(), BigInt::from(0), 0u64)];
    while let Some((r, c, k)) = stack.pop() {
        match r.descartes_01() {
            0 => continue,
            1 => {
                let hi = Dyadic::new(&c + 1, k);
                intervals.push((Dyadic::new(c, k), hi));
                continue;
            }
            2 if pair_split_depth.is_some_and(|d| k >= d) => {
                let dq = dq.get_or_insert_with(|| q.derivative());
                match split_pair(q, dq, &c, k, max_depth) {
                    PairSplit::Split(found, pieces) => {
                        exact.extend(found);
                        intervals.extend(pieces);
                        continue;
                    }
                    PairSplit::Multiple => return None,
                    PairSplit::Unsplit => {}
                }
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

/// What `split_pair` made of a node.
enum PairSplit {
    /// `q′` does not have exactly one root in the node: halve it as usual.
    Unsplit,
    /// `q` may have a multiple root in the node (it may not be square-free).
    Multiple,
    /// The roots of `q` inside the node (none, one or two): exact ones, and
    /// isolating intervals.
    Split(Vec<Dyadic>, Vec<Interval>),
}

/// Splits the node `(lo, hi) = (c/2^k, (c+1)/2^k)` at the critical point of
/// `q` in it (`dq` is `q′`). When Descartes' rule certifies that `q′` has
/// exactly one root `γ` in the node (a simple one: `q′` changes sign between
/// the node's ends), `q` is strictly monotone on `[lo, γ]` and on
/// `[γ, hi]`, so it has at most one root on each side. `γ` is refined (`refine_until_signed`)
/// until `q` has no root strictly between its bounds `g₁ ≤ γ ≤ g₂`. Then
/// on each side the root, if any, is found by exact signs: `g₁` itself when
/// `q(g₁) = 0`, else in `(lo, g₁)` iff the signs of `q` at `lo` and `g₁` are
/// non-zero and opposite; `g₂` and `(g₂, hi)` likewise. A root at `lo` or `hi`
/// is the only one on its side and was recorded by the halving that made
/// that end, so a bound equal to a node end is not recorded again. `q(γ) = 0`
/// (a multiple root) never certifies: once `γ`'s interval is narrower than
/// `2^-max_depth`, the node counts as holding a multiple root. Every root
/// found is simple (`q′ ≠ 0` away from `γ`), and `g₁ ≠ g₂` when either is a root.
fn split_pair(q: &IntPoly, dq: &IntPoly, c: &BigInt, k: u64, max_depth: Option<u64>) -> PairSplit {
    let c1 = c + 1;
    if dq.to_interval(c, &c1, k).descartes_01() != 1 {
        return PairSplit::Unsplit;
    }
    let (lo, hi) = (Dyadic::new(c.clone(), k), Dyadic::new(c1, k));
    let sign = |p: &IntPoly, d: &Dyadic| p.sign_at_dyadic(&d.num, d.exp);
    let sign_lo = sign(dq, &lo);
    if sign_lo == Ordering::Equal || sign(dq, &hi) != sign_lo.reverse() {
        return PairSplit::Unsplit;
    }
    let mut critical = Algebraic {
        repr: Repr::Isolated {
            poly: dq.clone(),
            lo: lo.clone(),
            hi: hi.clone(),
            sign_lo,
        },
    };
    critical.refine_with_float();
    // With a depth limit, no finer than the halvings could have gone.
    let finest = max_depth.map(|d| Dyadic::new(BigInt::one(), d));
    let certified = match critical.try_sign(q) {
        Some(s) => Some(s),
        None => critical
            .refine_until_signed(q, finest.as_ref())
            .map(|(s, _)| s),
    };
    if certified.is_none_or(|s| s == Ordering::Equal) {
        return PairSplit::Multiple;
    }
    let (g1, g2) = critical.bounds();
    let (q_lo, q_g1, q_g2, q_hi) = (sign(q, &lo), sign(q, g1), sign(q, g2), sign(q, &hi));
    let crosses = |a: Ordering, b: Ordering| a != Ordering::Equal && b == a.reverse();
    let mut exact = Vec::new();
    let mut intervals = Vec::new();
    if q_g1 == Ordering::Equal {
        if g1 != &lo {
            exact.push(g1.clone());
        }
    } else if crosses(q_lo, q_g1) {
        intervals.push((lo, g1.clone()));
    }
    if q_g2 == Ordering::Equal {
        if g2 != &hi {
            exact.push(g2.clone());
        }
    } else if crosses(q_g2, q_hi) {
        intervals.push((g2.clone(), hi));
    }
    PairSplit::Split(exact, intervals)
}

/// The roots as algebraic numbers, sorted. `q` must have only simple roots in
/// `[0, 1]`; the exact (dyadic) roots are divided out of the polynomial kept
/// by the isolated ones, so that no interval end is a root.
fn assemble(q: &IntPoly, exact: Vec<Dyadic>, intervals: Vec<Interval>) -> Vec<Algebraic> {
    let mut reduced = q.clone();
    for d in &exact {
        // d = num / 2^exp with num odd (or d ∈ {0, 1}): factor 2^exp·t − num.
        let factor = IntPoly::linear(-d.num.clone(), BigInt::one() << d.exp);
        reduced = reduced
            .div_exact(&factor)
            .expect("an exact root's linear factor divides the polynomial");
    }
    let mut roots: Vec<Algebraic> = exact.into_iter().map(Algebraic::exact).collect();
    for (lo, hi) in intervals {
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

    /// The modular certificate spares the exact gcd for a `q` coprime with
    /// the root's polynomial, never for one sharing its factor.
    #[test]
    fn a_coprime_polynomial_is_known_not_to_vanish_without_the_exact_gcd() {
        let alpha = roots_in_unit_interval(&p(&[-1, 0, 2])).remove(0);
        assert!(alpha.certainly_not_a_root_of(&p(&[-7, 10])));
        assert!(alpha.certainly_not_a_root_of(&p(&[-1, 0, 0, 1])));
        assert!(!alpha.certainly_not_a_root_of(&p(&[-1, 0, 0, 0, 4])));
        assert!(!alpha.certainly_not_a_root_of(&p(&[-1, 0, 2]).mul(&p(&[3, 1]))));
        let half = Algebraic {
            repr: Repr::Exact(Dyadic::new(BigInt::one(), 1)),
        };
        assert!(
            !half.certainly_not_a_root_of(&p(&[-7, 10])),
            "an exact number"
        );
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

    /// The slow oracle of [`Algebraic::sign_of`]: the gcd test, then plain
    /// bisection until Descartes' rule certifies the sign (no float
    /// estimate, no secant).
    fn sign_by_bisection(mut a: Algebraic, q: &IntPoly) -> Ordering {
        if q.degree().is_none_or(|d| d == 0) {
            return q.leading().sign_ordering();
        }
        if a.gcd_vanishes(q) {
            return Ordering::Equal;
        }
        loop {
            if let Some(s) = a.try_sign(q) {
                return s;
            }
            a.bisect();
        }
    }

    /// The interval still isolates the same root: inside the one it started
    /// from, with the polynomial's sign `sign_lo` at its lower end and the
    /// other sign at its upper end; or an exact root of that polynomial there
    /// (an exact number stays as it was).
    fn still_isolates(after: &Algebraic, before: &Algebraic) -> bool {
        let Repr::Isolated {
            poly,
            lo: lo0,
            hi: hi0,
            ..
        } = &before.repr
        else {
            return after.as_exact() == before.as_exact();
        };
        let sign = |d: &Dyadic| poly.sign_at_dyadic(&d.num, d.exp);
        match &after.repr {
            Repr::Exact(d) => lo0 < d && d < hi0 && sign(d) == Ordering::Equal,
            Repr::Isolated {
                lo, hi, sign_lo, ..
            } => {
                lo0 <= lo
                    && hi <= hi0
                    && lo < hi
                    && sign(lo) == *sign_lo
                    && sign(hi) == sign_lo.reverse()
            }
        }
    }

    /// α = √10·2⁻²⁰⁰⁰ (the root of `2⁴⁰⁰⁰ t² − 10`), far below the float
    /// estimate's reach, against `2³⁰⁰⁰ t − m` whose root lies within
    /// `2⁻³⁰⁰⁰` of it (a relative `2⁻¹⁰⁰⁰`): the signs agree with
    /// bisection's, and quadratic refinement needs a few dozen steps where
    /// bisection needs about a thousand.
    #[test]
    fn close_tiny_roots_take_logarithmically_many_steps() {
        let r = IntPoly::from_coeffs(vec![
            BigInt::from(-10),
            BigInt::zero(),
            BigInt::one() << 4000u32,
        ]);
        // m = ⌊√10·2¹⁰⁰⁰⌋: m/2³⁰⁰⁰ < α < (m + 1)/2³⁰⁰⁰.
        let m = (BigInt::from(10) << 2000u32).sqrt();
        for (c, sign) in [(m.clone(), Ordering::Greater), (m + 1, Ordering::Less)] {
            let q = IntPoly::linear(-c, BigInt::one() << 3000u32);
            let alpha = roots_in_unit_interval(&r).remove(0);
            assert!(alpha.as_exact().is_none());
            assert_eq!(sign_by_bisection(alpha.clone(), &q), sign);
            let mut fast = alpha.clone();
            let (s, steps) = fast.sign_and_steps(&q);
            assert_eq!(s, sign);
            assert!(still_isolates(&fast, &alpha));
            assert!(steps <= 64, "{steps} steps");
        }
    }

    /// `2^(2k)·t² − c`: the root `√c/2^k`, irrational unless `c` is a
    /// square, tiny for a large `k`.
    fn scaled_square_root(c: i64, k: u32) -> IntPoly {
        IntPoly::from_coeffs(vec![
            BigInt::from(-c),
            BigInt::zero(),
            BigInt::one() << (2 * k),
        ])
    }

    proptest::proptest! {
        /// Against bisection at the roots of products of tiny square-root
        /// factors and a small polynomial, for a `q` with a root `near` bits
        /// (relative) beside the first factor's root (`off` = 0: on it when
        /// `c` is a square, else just below), times a small polynomial, and
        /// sharing that factor when `shared`: the same sign at every root,
        /// and the refined interval still isolates the root.
        #[test]
        fn signs_agree_with_bisection(
            r_factors in proptest::collection::vec((2i64..=11, 0u32..=600), 1..=2),
            r_small in proptest::collection::vec(-9i64..=9, 1..=3),
            near in 0u32..=600,
            off in -1i64..=1,
            q_small in proptest::collection::vec(-9i64..=9, 1..=3),
            shared in proptest::prelude::any::<bool>(),
        ) {
            let r = r_factors
                .iter()
                .fold(p(&r_small), |acc, &(c, k)| acc.mul(&scaled_square_root(c, k)));
            proptest::prop_assume!(!r.is_zero());
            let (c, k) = r_factors[0];
            // 2^(k+near)·t − m for m = ⌊√c·2^near⌋ + off.
            let m = (BigInt::from(c) << (2 * near)).sqrt() + off;
            let mut q = p(&q_small).mul(&IntPoly::linear(-m, BigInt::one() << (k + near)));
            if shared {
                q = q.mul(&scaled_square_root(c, k));
            }
            for alpha in roots_in_unit_interval(&r) {
                let expected = sign_by_bisection(alpha.clone(), &q);
                let mut fast = alpha.clone();
                proptest::prop_assert_eq!(fast.sign_of(&q), expected);
                proptest::prop_assert!(still_isolates(&fast, &alpha));
            }
        }
    }

    /// The roots' exact values agree pairwise (the same count, in order).
    fn same_roots(mut a: Vec<Algebraic>, mut b: Vec<Algebraic>) -> bool {
        a.len() == b.len()
            && a.iter_mut()
                .zip(b.iter_mut())
                .all(|(x, y)| x.compare(y) == Ordering::Equal)
    }

    /// √2·2⁻³⁰⁰ and a rational root `2⁻⁶⁰⁰` above it share every node down to
    /// depth 600; the node at depth 8 is split at the critical point between
    /// them into two isolating intervals, one root each, as plain halving
    /// finds them.
    #[test]
    fn a_close_pair_is_split_at_its_critical_point() {
        let m: BigInt = (BigInt::from(2) << 600u32).sqrt() + 1;
        let r = scaled_square_root(2, 300).mul(&IntPoly::linear(-m, BigInt::one() << 600u32));
        let PairSplit::Split(exact, intervals) =
            split_pair(&r, &r.derivative(), &BigInt::zero(), 8, None)
        else {
            panic!("the pair is split");
        };
        assert!(exact.is_empty());
        assert_eq!(intervals.len(), 2);
        assert!(intervals[0].1 <= intervals[1].0);
        let split = assemble(&r, exact, intervals);
        assert!(same_roots(split, roots_splitting_pairs(&r, None)));
    }

    /// A node without real roots that Descartes' rule counts as two (the
    /// complex pair `(m ± i)/2^k`) is split into nothing.
    #[test]
    fn a_complex_pair_splits_into_no_roots() {
        let k = 200u32;
        let m = BigInt::from(3);
        let r = IntPoly::from_coeffs(vec![
            &m * &m + 1,
            -(&m << (k + 1)),
            BigInt::one() << (2 * k),
        ]);
        assert!(matches!(
            split_pair(&r, &r.derivative(), &BigInt::zero(), 8, None),
            PairSplit::Split(e, i) if e.is_empty() && i.is_empty()
        ));
        assert!(roots_in_unit_interval(&r).is_empty());
    }

    /// A node whose ends are both roots of `q` (`t·(2^k·t − 1)`, the node
    /// `(0, 2⁻ᵏ)`), with no root inside and the critical point between: the
    /// split finds no interval (the ends were recorded by the halvings that
    /// made them).
    #[test]
    fn a_node_between_two_roots_splits_into_no_roots() {
        let k = 10u32;
        let q = IntPoly::linear(BigInt::zero(), BigInt::one())
            .mul(&IntPoly::linear(BigInt::from(-1), BigInt::one() << k));
        assert!(matches!(
            split_pair(&q, &q.derivative(), &BigInt::zero(), u64::from(k), None),
            PairSplit::Split(e, i) if e.is_empty() && i.is_empty()
        ));
    }

    /// A node end that is a root and stays the critical point's bound: `q =
    /// 2^(2k)·t³ − 2t` (roots 0 and `√2·2⁻ᵏ`, critical point `√(2/3)·2⁻ᵏ`,
    /// out of the float estimate's reach) on the node `(0, 2^(1−k))`, and its
    /// mirror image `q(2^(1−k) − t)` on the same node. The refined critical
    /// interval keeps the end that is a root; the split records it nowhere
    /// (the halving did) and isolates the other root.
    #[test]
    fn a_root_at_a_node_end_is_not_recorded_again() {
        let k = 1200u32;
        let q = IntPoly::from_coeffs(vec![
            BigInt::zero(),
            BigInt::from(-2),
            BigInt::zero(),
            BigInt::one() << (2 * k),
        ]);
        // q(w − t)·2^k for w = 2^(1−k), in u = 2^k·t: 4 − 10u + 6u² − u³
        // (roots 2, the node's upper end, and 2 − √2).
        let mirrored = IntPoly::from_coeffs(vec![
            BigInt::from(4),
            BigInt::from(-10) << k,
            BigInt::from(6) << (2 * k),
            -(BigInt::one() << (3 * k)),
        ]);
        for poly in [q, mirrored] {
            let PairSplit::Split(exact, intervals) = split_pair(
                &poly,
                &poly.derivative(),
                &BigInt::zero(),
                u64::from(k - 1),
                None,
            ) else {
                panic!("the node is split");
            };
            assert!(exact.is_empty(), "{exact:?}");
            assert_eq!(intervals.len(), 1);
        }
    }

    /// One factor of the proptest below: a close pair of tiny roots (the
    /// square root `√c/2^k` and `m/2^(k+near)` beside it, `m = ⌊√c·2^near⌋ +
    /// off`), a complex pair `(c ± i)/2^k`, a double root `√c/2^k`, or two
    /// dyadic roots `c/2^k` and `(c·2^near + 1 + off)/2^(k+near)` (equal when
    /// `near = 0` and `off = −1`).
    fn pair_factor(kind: u8, c: i64, k: u32, near: u32, off: i64) -> IntPoly {
        match kind {
            0 => {
                let m = (BigInt::from(c) << (2 * near)).sqrt() + off;
                scaled_square_root(c, k).mul(&IntPoly::linear(-m, BigInt::one() << (k + near)))
            }
            1 => IntPoly::from_coeffs(vec![
                BigInt::from(c * c + 1),
                -(BigInt::from(c) << (k + 1)),
                BigInt::one() << (2 * k),
            ]),
            2 => scaled_square_root(c, k).mul(&scaled_square_root(c, k)),
            _ => {
                let m: BigInt = (BigInt::from(c) << near) + 1 + off;
                IntPoly::linear(BigInt::from(-c), BigInt::one() << k)
                    .mul(&IntPoly::linear(-m, BigInt::one() << (k + near)))
            }
        }
    }

    proptest::proptest! {
        /// Splitting pairs finds the roots plain Vincent–Collins–Akritas
        /// finds, on products of close real pairs, complex pairs, double
        /// roots and close dyadic roots, tiny and not, with a small
        /// polynomial.
        #[test]
        fn pair_splitting_finds_the_roots_of_plain_isolation(
            factors in proptest::collection::vec(
                (0u8..=3, 2i64..=11, 0u32..=160, 0u32..=160, -1i64..=1),
                1..=3,
            ),
            small in proptest::collection::vec(-9i64..=9, 1..=3),
        ) {
            let r = factors.iter().fold(p(&small), |acc, &(kind, c, k, near, off)| {
                acc.mul(&pair_factor(kind, c, k, near, off))
            });
            proptest::prop_assume!(!r.is_zero());
            let split = roots_in_unit_interval(&r);
            let plain = roots_splitting_pairs(&r, None);
            proptest::prop_assert!(same_roots(split, plain));
        }
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
