//! Dense univariate polynomials with big-integer coefficients, `Z[t]`, for
//! the exact oracle (docs/design.md §9, item 8).
//!
//! Every polynomial of the CCD problem has exact integer coefficients once the
//! double inputs are put on a common scale (see [`super::scale`]): positions
//! are linear in `t`, and the coplanarity and inside conditions are products
//! and sums of them. Division is needed only for gcds and exact quotients;
//! both stay in `Z[t]` (pseudo-remainders and Gauss's lemma), so no rational
//! arithmetic is used.

use std::cmp::Ordering;

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};

/// A polynomial `Σ c[i] tⁱ` with integer coefficients. The zero polynomial has
/// no coefficients; otherwise the last coefficient is non-zero.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct IntPoly {
    c: Vec<BigInt>,
}

/// A 3-vector of polynomials.
pub type VecPoly = [IntPoly; 3];

impl IntPoly {
    /// The zero polynomial.
    pub fn zero() -> IntPoly {
        IntPoly { c: Vec::new() }
    }

    /// From coefficients, lowest degree first.
    pub fn from_coeffs(c: Vec<BigInt>) -> IntPoly {
        let mut p = IntPoly { c };
        p.trim();
        p
    }

    /// The constant `a`.
    pub fn constant(a: BigInt) -> IntPoly {
        IntPoly::from_coeffs(vec![a])
    }

    /// `a0 + a1·t`.
    pub fn linear(a0: BigInt, a1: BigInt) -> IntPoly {
        IntPoly::from_coeffs(vec![a0, a1])
    }

    fn trim(&mut self) {
        while self.c.last().is_some_and(Zero::is_zero) {
            self.c.pop();
        }
    }

    /// Coefficients, lowest degree first.
    pub fn coeffs(&self) -> &[BigInt] {
        &self.c
    }

    /// `true` for the zero polynomial.
    pub fn is_zero(&self) -> bool {
        self.c.is_empty()
    }

    /// Degree; `None` for the zero polynomial.
    pub fn degree(&self) -> Option<usize> {
        self.c.len().checked_sub(1)
    }

    /// Leading coefficient (zero for the zero polynomial).
    pub fn leading(&self) -> BigInt {
        self.c.last().cloned().unwrap_or_default()
    }

    /// `self + other`.
    pub fn add(&self, other: &IntPoly) -> IntPoly {
        let (long, short) = if self.c.len() >= other.c.len() {
            (self, other)
        } else {
            (other, self)
        };
        let mut c = long.c.clone();
        for (a, b) in c.iter_mut().zip(&short.c) {
            *a += b;
        }
        IntPoly::from_coeffs(c)
    }

    /// `self − other`.
    pub fn sub(&self, other: &IntPoly) -> IntPoly {
        let n = self.c.len().max(other.c.len());
        let mut c = Vec::with_capacity(n);
        for i in 0..n {
            let a = self.c.get(i);
            let b = other.c.get(i);
            c.push(match (a, b) {
                (Some(a), Some(b)) => a - b,
                (Some(a), None) => a.clone(),
                (None, Some(b)) => -b,
                (None, None) => BigInt::zero(),
            });
        }
        IntPoly::from_coeffs(c)
    }

    /// `self · other`.
    pub fn mul(&self, other: &IntPoly) -> IntPoly {
        if self.is_zero() || other.is_zero() {
            return IntPoly::zero();
        }
        let mut c = vec![BigInt::zero(); self.c.len() + other.c.len() - 1];
        for (i, a) in self.c.iter().enumerate() {
            if a.is_zero() {
                continue;
            }
            for (j, b) in other.c.iter().enumerate() {
                c[i + j] += a * b;
            }
        }
        IntPoly::from_coeffs(c)
    }

    /// `−self`.
    pub fn neg(&self) -> IntPoly {
        IntPoly {
            c: self.c.iter().map(|a| -a).collect(),
        }
    }

    /// `a · self`.
    pub fn scale(&self, a: &BigInt) -> IntPoly {
        IntPoly::from_coeffs(self.c.iter().map(|x| x * a).collect())
    }

    /// The derivative `d/dt`.
    pub fn derivative(&self) -> IntPoly {
        IntPoly::from_coeffs(
            self.c
                .iter()
                .enumerate()
                .skip(1)
                .map(|(i, a)| a * BigInt::from(i))
                .collect(),
        )
    }

    /// The gcd of the coefficients, positive (zero for the zero polynomial).
    pub fn content(&self) -> BigInt {
        let mut g = BigInt::zero();
        for a in &self.c {
            g = g.gcd(a);
            if g.is_one() {
                break;
            }
        }
        g
    }

    /// `self / content`: same signs everywhere (the content is positive).
    pub fn primitive(&self) -> IntPoly {
        let g = self.content();
        if g.is_zero() || g.is_one() {
            return self.clone();
        }
        IntPoly {
            c: self.c.iter().map(|a| a / &g).collect(),
        }
    }

    /// Sign of `self(0)`.
    pub fn sign_at_zero(&self) -> Ordering {
        self.c
            .first()
            .map_or(Ordering::Equal, |a| a.sign_ordering())
    }

    /// Sign of `self(1)`.
    pub fn sign_at_one(&self) -> Ordering {
        let s: BigInt = self.c.iter().sum();
        s.sign_ordering()
    }

    /// `2^(j·n) · self(k / 2^j)` for `n = deg self`: an integer with the sign of
    /// `self(k / 2^j)`.
    pub fn eval_dyadic_scaled(&self, k: &BigInt, j: u64) -> BigInt {
        let Some(n) = self.degree() else {
            return BigInt::zero();
        };
        let mut acc = self.c[n].clone();
        for i in (0..n).rev() {
            acc *= k;
            acc += &self.c[i] << (j * (n - i) as u64);
        }
        acc
    }

    /// Sign of `self(k / 2^j)`.
    pub fn sign_at_dyadic(&self, k: &BigInt, j: u64) -> Ordering {
        self.eval_dyadic_scaled(k, j).sign_ordering()
    }

    /// The pseudo-remainder `prem(self, d)`: the remainder of
    /// `|lc(d)|^(deg self − deg d + 1) · self` divided by `d`. The multiplier is
    /// positive, so the remainder carries the signs a Sturm-style sequence
    /// needs.
    ///
    /// The multiplier has exactly that power even when a reduction step is
    /// skipped (a coefficient of the running remainder is already zero): the
    /// subresultant sequence in [`IntPoly::gcd_up_to_scalar`] divides by
    /// factors that only divide the full-power remainder.
    ///
    /// # Panics
    /// When `d` is the zero polynomial.
    pub fn pseudo_rem(&self, d: &IntPoly) -> IntPoly {
        let dd = d.degree().expect("pseudo-remainder by the zero polynomial");
        let mut r = self.clone();
        let lc = d.leading();
        let lc_abs = lc.abs();
        let flip = lc.is_negative();
        // δ + 1 multiplications by |lc| in all: one per degree from deg self
        // down to deg d, whether or not that degree needs a reduction.
        let mut steps_left = match self.degree() {
            Some(sd) if sd >= dd => sd - dd + 1,
            _ => 0,
        };
        while let Some(rd) = r.degree() {
            if rd < dd {
                break;
            }
            // Degrees skipped since the last step (their coefficient was
            // already zero) still owe their factor |lc|.
            let skipped = steps_left - (rd - dd + 1);
            if skipped > 0 {
                r = r.scale(&num_traits::pow(lc_abs.clone(), skipped));
            }
            steps_left = rd - dd;
            // r ← |lc|·r − sign(lc)·lead(r)·t^(rd−dd)·d  (lead term cancels).
            let lead = r.c[rd].clone();
            let lead = if flip { -lead } else { lead };
            let mut c: Vec<BigInt> = r.c.iter().map(|a| a * &lc_abs).collect();
            for (i, b) in d.c.iter().enumerate() {
                c[i + rd - dd] -= &lead * b;
            }
            debug_assert!(c[rd].is_zero());
            r = IntPoly::from_coeffs(c);
        }
        if steps_left > 0 {
            r = r.scale(&num_traits::pow(lc_abs, steps_left));
        }
        r
    }

    /// A greatest common divisor over `Q[t]`, up to a non-zero integer factor
    /// of either sign, by the subresultant pseudo-remainder sequence (Knuth,
    /// TAOCP vol. 2, §4.6.1, Algorithm C): the divisions by `g·h^δ` are exact,
    /// so coefficients grow only linearly and no integer gcds are computed.
    /// Returns the constant `1` when the gcd is a constant, and `0` only for
    /// `gcd(0, 0)`.
    pub fn gcd_up_to_scalar(a: &IntPoly, b: &IntPoly) -> IntPoly {
        let (mut a, mut b) = if a.degree() >= b.degree() {
            (a.strip_twos(), b.strip_twos())
        } else {
            (b.strip_twos(), a.strip_twos())
        };
        if b.is_zero() {
            return a;
        }
        let mut g = BigInt::one();
        let mut h = BigInt::one();
        loop {
            if b.degree() == Some(0) {
                return IntPoly::constant(BigInt::one());
            }
            let delta = (a.degree().unwrap_or(0) - b.degree().unwrap_or(0)) as u32;
            let r = a.pseudo_rem(&b);
            if r.is_zero() {
                return b;
            }
            let beta = &g * num_traits::pow(h.clone(), delta as usize);
            a = b;
            b = IntPoly {
                c: r.c
                    .into_iter()
                    .map(|x| {
                        let (q, rem) = x.div_rem(&beta);
                        debug_assert!(rem.is_zero(), "subresultant division is exact");
                        q
                    })
                    .collect(),
            };
            g = a.leading();
            h = if delta == 0 {
                h
            } else {
                num_traits::pow(g.clone(), delta as usize) / num_traits::pow(h, delta as usize - 1)
            };
        }
    }

    /// Greatest common divisor over `Q[t]`, as a primitive polynomial with a
    /// positive leading coefficient. `gcd(0, 0) = 0`.
    pub fn gcd(a: &IntPoly, b: &IntPoly) -> IntPoly {
        let g = IntPoly::gcd_up_to_scalar(a, b).primitive();
        if g.leading().is_negative() {
            g.neg()
        } else {
            g
        }
    }

    /// `self / 2^z` for the largest `z` that divides every coefficient: a
    /// positive factor, so signs are kept; much cheaper than the content.
    pub fn strip_twos(&self) -> IntPoly {
        let z = self
            .c
            .iter()
            .filter_map(|a| a.trailing_zeros())
            .min()
            .unwrap_or(0);
        if z == 0 {
            return self.clone();
        }
        IntPoly {
            c: self.c.iter().map(|a| a >> z).collect(),
        }
    }

    /// `self / d` for a `d` that divides `self` over `Q[t]` and is primitive;
    /// the quotient is then in `Z[t]` (Gauss's lemma). Returns `None` if the
    /// division is not exact.
    pub fn div_exact(&self, d: &IntPoly) -> Option<IntPoly> {
        let dd = d.degree()?;
        let lc = d.leading();
        let mut r = self.clone();
        let Some(n) = r.degree() else {
            return Some(IntPoly::zero());
        };
        if n < dd {
            return None;
        }
        let mut q = vec![BigInt::zero(); n - dd + 1];
        while let Some(rd) = r.degree() {
            if rd < dd {
                return None;
            }
            let (qk, rem) = r.c[rd].div_rem(&lc);
            if !rem.is_zero() {
                return None;
            }
            for (i, b) in d.c.iter().enumerate() {
                r.c[i + rd - dd] -= &qk * b;
            }
            q[rd - dd] = qk;
            r.trim();
        }
        Some(IntPoly::from_coeffs(q))
    }

    /// Whether `self` is certainly square-free (no repeated factor of
    /// positive degree): [`IntPoly::certainly_coprime`] with `self′`, the
    /// derivative taken modulo the prime. `false` for constants and zero.
    pub fn certainly_square_free(&self) -> bool {
        self.constant_gcd_modulo_a_prime(|reduced, p| {
            (reduced.iter().enumerate().skip(1))
                .map(|(i, &c)| mul_mod(i as u64, c, p))
                .collect()
        })
    }

    /// Whether `self` and `other` certainly have no common factor of positive
    /// degree, by a gcd modulo a prime: for a prime `p` that does not divide
    /// the leading coefficient of `self`, a common factor `h` (primitive, in
    /// `ℤ[t]` by Gauss's lemma) keeps its degree modulo `p` and divides both
    /// images there, so `deg gcd(self mod p, other mod p) ≥ deg h`: a
    /// constant gcd modulo `p` proves `gcd(self, other)` constant. `false`
    /// when that gcd is not constant for either prime tried (a common factor,
    /// or an unlucky prime: then not known) and when `self` is a constant or
    /// zero. Costs one reduction of each coefficient and a Euclid's algorithm
    /// on words.
    pub fn certainly_coprime(&self, other: &IntPoly) -> bool {
        self.constant_gcd_modulo_a_prime(|_, p| reduce_modulo(other, p))
    }

    /// Whether, for one of the primes tried, `self mod p` keeps its degree
    /// (positive) and has a constant gcd with `other_modulo(self mod p, p)`.
    fn constant_gcd_modulo_a_prime(&self, other_modulo: impl Fn(&[u64], u64) -> Vec<u64>) -> bool {
        if self.degree().is_none_or(|d| d == 0) {
            return false;
        }
        // The Mersenne primes 2⁶¹ − 1 and 2³¹ − 1: residues and their
        // products fit in words.
        [(1u64 << 61) - 1, (1u64 << 31) - 1].into_iter().any(|p| {
            let reduced = reduce_modulo(self, p);
            if reduced.last() == Some(&0) {
                return false;
            }
            let other = other_modulo(&reduced, p);
            gcd_mod_degree(reduced, other, p) == 0
        })
    }

    /// The square-free part `self / gcd(self, self')`, with a positive factor
    /// stripped (same sign wherever both are non-zero, up to the sign changes
    /// at even-multiplicity roots that the division removes).
    pub fn square_free(&self) -> IntPoly {
        let p = self.strip_twos();
        if p.degree().is_none_or(|d| d == 0) {
            return p;
        }
        let g = IntPoly::gcd(&p, &p.derivative());
        if g.degree() == Some(0) {
            return p;
        }
        p.primitive()
            .div_exact(&g)
            .expect("a gcd divides its argument")
            .strip_twos()
    }

    /// `self(t + 1)` (Taylor shift by one; additions only).
    pub fn taylor_shift_one(&self) -> IntPoly {
        let mut c = self.c.clone();
        let n = c.len();
        for i in 0..n {
            for j in (i..n - 1).rev() {
                let next = c[j + 1].clone();
                c[j] += next;
            }
        }
        IntPoly::from_coeffs(c)
    }

    /// `tⁿ · self(1/t)` for `n = deg self` (coefficients reversed).
    pub fn reversed(&self) -> IntPoly {
        let mut c = self.c.clone();
        c.reverse();
        IntPoly::from_coeffs(c)
    }

    /// `2ⁿ · self(t / 2)`: the left half `[0, ½]` mapped onto `[0, 1]`.
    pub fn halve_left(&self) -> IntPoly {
        let Some(n) = self.degree() else {
            return IntPoly::zero();
        };
        IntPoly {
            c: self
                .c
                .iter()
                .enumerate()
                .map(|(i, a)| a << (n - i))
                .collect(),
        }
    }

    /// Upper bound on the number of roots in the open interval `(0, 1)`, of the
    /// same parity (Descartes' rule of signs on `(t+1)ⁿ · self(1/(t+1))`).
    pub fn descartes_01(&self) -> usize {
        sign_variations(self.reversed().taylor_shift_one().coeffs())
    }

    /// `self(lo + (hi − lo)·t)` scaled by a positive power of two, for dyadic
    /// `lo = a / 2^j`, `hi = b / 2^j`: the interval `[lo, hi]` mapped onto
    /// `[0, 1]` with signs preserved.
    pub fn to_interval(&self, a: &BigInt, b: &BigInt, j: u64) -> IntPoly {
        let Some(n) = self.degree() else {
            return IntPoly::zero();
        };
        // s(y) = 2^(jn) · self(y / 2^j), then s(a + (b − a)·t).
        let s = IntPoly {
            c: self
                .c
                .iter()
                .enumerate()
                .map(|(i, x)| x << (j * (n - i) as u64))
                .collect(),
        };
        let shifted = s.taylor_shift(a);
        let w = b - a;
        let mut pw = BigInt::one();
        let mut c = Vec::with_capacity(n + 1);
        for x in shifted.c {
            c.push(x * &pw);
            pw *= &w;
        }
        IntPoly::from_coeffs(c)
    }

    /// `self(t + a)`.
    pub fn taylor_shift(&self, a: &BigInt) -> IntPoly {
        if a.is_zero() {
            return self.clone();
        }
        let mut c = self.c.clone();
        let n = c.len();
        for i in 0..n {
            for j in (i..n - 1).rev() {
                let next = &c[j + 1] * a;
                c[j] += next;
            }
        }
        IntPoly::from_coeffs(c)
    }
}

/// The coefficients of `a` modulo `p` (lowest degree first, each below `p`).
fn reduce_modulo(a: &IntPoly, p: u64) -> Vec<u64> {
    let modulus = BigInt::from(p);
    (a.c.iter())
        .map(|c| u64::try_from(c.mod_floor(&modulus)).expect("a residue is below the prime"))
        .collect()
}

/// `a·b mod p`.
fn mul_mod(a: u64, b: u64, p: u64) -> u64 {
    (u128::from(a) * u128::from(b) % u128::from(p)) as u64
}

/// `aᵉ mod p`.
fn pow_mod(mut a: u64, mut e: u64, p: u64) -> u64 {
    let mut r = 1 % p;
    while e > 0 {
        if e & 1 == 1 {
            r = mul_mod(r, a, p);
        }
        a = mul_mod(a, a, p);
        e >>= 1;
    }
    r
}

/// The degree of `gcd(a, b)` over the integers modulo the prime `p`
/// (coefficients lowest degree first, each below `p`; trailing zeros
/// allowed). `0` when the gcd is a non-zero constant; the degree of the
/// other when one is zero. Not both zero (their gcd has no degree).
fn gcd_mod_degree(mut a: Vec<u64>, mut b: Vec<u64>, p: u64) -> usize {
    let trim = |v: &mut Vec<u64>| {
        while v.last() == Some(&0) {
            v.pop();
        }
    };
    trim(&mut a);
    trim(&mut b);
    debug_assert!(!a.is_empty() || !b.is_empty(), "the gcd of zero and zero");
    while !b.is_empty() {
        // a ← a mod b.
        let inverse = pow_mod(*b.last().expect("b is not zero"), p - 2, p);
        while a.len() >= b.len() {
            let factor = mul_mod(*a.last().expect("a is not shorter than b"), inverse, p);
            let shift = a.len() - b.len();
            for (i, &bi) in b.iter().enumerate() {
                a[shift + i] = (a[shift + i] + p - mul_mod(factor, bi, p)) % p;
            }
            trim(&mut a);
        }
        std::mem::swap(&mut a, &mut b);
    }
    a.len().saturating_sub(1)
}

/// Sign variations of a coefficient sequence, zeros skipped.
pub fn sign_variations(c: &[BigInt]) -> usize {
    let mut last = 0i8;
    let mut v = 0;
    for a in c {
        let s = match a.sign_ordering() {
            Ordering::Less => -1,
            Ordering::Equal => continue,
            Ordering::Greater => 1,
        };
        if last != 0 && s != last {
            v += 1;
        }
        last = s;
    }
    v
}

/// Sign of an integer as an [`Ordering`] against zero.
pub trait SignOrdering {
    /// `Less`, `Equal` or `Greater` than zero.
    fn sign_ordering(&self) -> Ordering;
}

impl SignOrdering for BigInt {
    fn sign_ordering(&self) -> Ordering {
        match self.sign() {
            num_bigint::Sign::Minus => Ordering::Less,
            num_bigint::Sign::NoSign => Ordering::Equal,
            num_bigint::Sign::Plus => Ordering::Greater,
        }
    }
}

/// `a × b` for vectors of polynomials.
pub fn cross(a: &VecPoly, b: &VecPoly) -> VecPoly {
    [
        a[1].mul(&b[2]).sub(&a[2].mul(&b[1])),
        a[2].mul(&b[0]).sub(&a[0].mul(&b[2])),
        a[0].mul(&b[1]).sub(&a[1].mul(&b[0])),
    ]
}

/// `a · b` for vectors of polynomials.
pub fn dot(a: &VecPoly, b: &VecPoly) -> IntPoly {
    a[0].mul(&b[0]).add(&a[1].mul(&b[1])).add(&a[2].mul(&b[2]))
}

/// `a − b` for vectors of polynomials.
pub fn vsub(a: &VecPoly, b: &VecPoly) -> VecPoly {
    [a[0].sub(&b[0]), a[1].sub(&b[1]), a[2].sub(&b[2])]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(c: &[i64]) -> IntPoly {
        IntPoly::from_coeffs(c.iter().map(|&x| BigInt::from(x)).collect())
    }

    #[test]
    fn arithmetic_and_trimming() {
        let a = p(&[1, 2, 3]);
        let b = p(&[-1, -2, -3]);
        assert!(a.add(&b).is_zero());
        assert_eq!(a.mul(&p(&[0, 1])), p(&[0, 1, 2, 3]));
        assert_eq!(a.derivative(), p(&[2, 6]));
        assert_eq!(p(&[0, 0, 0]).degree(), None);
    }

    #[test]
    fn subresultant_gcd_matches_up_to_a_scalar() {
        // (t² + 1)(3t − 2) and (t² + 1)(t + 7)(5t + 1): gcd t² + 1.
        let f = p(&[1, 0, 1]);
        let a = f.mul(&p(&[-2, 3]));
        let b = f.mul(&p(&[7, 1])).mul(&p(&[1, 5]));
        let g = IntPoly::gcd_up_to_scalar(&a, &b);
        assert_eq!(g.degree(), Some(2));
        assert_eq!(
            g.primitive()
                .coeffs()
                .iter()
                .map(|c| c * g.leading().signum())
                .collect::<Vec<_>>(),
            f.coeffs()
        );
        assert_eq!(IntPoly::gcd_up_to_scalar(&p(&[1, 1]), &p(&[2, 1])), p(&[1]));
        assert_eq!(p(&[4, 8, 12]).strip_twos(), p(&[1, 2, 3]));
    }

    #[test]
    fn gcd_and_exact_division() {
        // (t − 1)(2t − 1)(t + 3) and (t − 1)(2t − 1)(t − 5)
        let f = p(&[-1, 1]).mul(&p(&[-1, 2]));
        let a = f.mul(&p(&[3, 1]));
        let b = f.mul(&p(&[-5, 1])).scale(&BigInt::from(-6));
        assert_eq!(IntPoly::gcd(&a, &b), f);
        assert_eq!(a.div_exact(&f), Some(p(&[3, 1])));
        assert_eq!(a.div_exact(&p(&[1, 1])), None);
        assert_eq!(IntPoly::gcd(&p(&[1, 1]), &p(&[2, 1])), p(&[1]));
    }

    #[test]
    fn square_free_removes_repeated_factors() {
        // (2t − 1)² (t − 3)
        let a = p(&[-1, 2]).mul(&p(&[-1, 2])).mul(&p(&[-3, 1]));
        assert_eq!(a.square_free(), p(&[-1, 2]).mul(&p(&[-3, 1])));
    }

    #[test]
    fn square_freeness_is_certified_modulo_a_prime() {
        let (a, b) = (p(&[-1, 2]), p(&[-3, 1]));
        assert!(a.mul(&b).certainly_square_free());
        assert!(!a.mul(&a).mul(&b).certainly_square_free());
        assert!(!p(&[5]).certainly_square_free() && !IntPoly::zero().certainly_square_free());
        let (p1, p2) = (
            BigInt::from((1u64 << 61) - 1),
            BigInt::from((1u64 << 31) - 1),
        );
        // A leading coefficient divisible by the first prime: the second decides.
        let q = IntPoly::from_coeffs(vec![BigInt::from(-1), BigInt::zero(), p1.clone()]);
        assert!(q.certainly_square_free());
        // (p₁t + 1)² would be the constant 1 modulo p₁: not a proof there.
        let r = IntPoly::linear(BigInt::one(), p1.clone());
        assert!(!r.mul(&r).certainly_square_free());
        // t² + p₁p₂ is square-free, but t² modulo both primes: not known.
        let q = IntPoly::from_coeffs(vec![&p1 * &p2, BigInt::zero(), BigInt::one()]);
        assert!(!q.certainly_square_free());
        assert_eq!(q.square_free(), q);
    }

    #[test]
    fn coprimality_is_certified_modulo_a_prime() {
        let (a, b, c) = (p(&[-1, 2]), p(&[-3, 1]), p(&[7, 1]));
        assert!(a.mul(&b).certainly_coprime(&c));
        assert!(!a.mul(&b).certainly_coprime(&b.mul(&c)));
        assert!(!a.mul(&b).certainly_coprime(&IntPoly::zero()));
        assert!(!p(&[5]).certainly_coprime(&c) && !IntPoly::zero().certainly_coprime(&c));
        let (p1, p2) = (
            BigInt::from((1u64 << 61) - 1),
            BigInt::from((1u64 << 31) - 1),
        );
        // p₁t + 1 is the constant 1 modulo p₁, so a shared factor p₁t + 1
        // is invisible there: the first prime, dividing the leading
        // coefficient, must not be used; the second sees the factor.
        let f = IntPoly::linear(BigInt::one(), p1.clone());
        assert!(!f.mul(&c).certainly_coprime(&f.mul(&b)));
        // ... and where the factor is not shared, the second prime proves it.
        assert!(f.mul(&c).certainly_coprime(&b));
        // t and t + p₁p₂ are coprime, but the same modulo both primes.
        let t = p(&[0, 1]);
        assert!(!t.certainly_coprime(&IntPoly::linear(&p1 * &p2, BigInt::one())));
    }

    #[test]
    fn dyadic_evaluation_has_the_right_sign() {
        let a = p(&[-1, 2]); // root ½
        let half = BigInt::from(1);
        assert_eq!(a.sign_at_dyadic(&half, 1), Ordering::Equal);
        assert_eq!(a.sign_at_dyadic(&BigInt::from(1), 2), Ordering::Less);
        assert_eq!(a.sign_at_dyadic(&BigInt::from(3), 2), Ordering::Greater);
    }

    #[test]
    fn shifts_and_interval_maps() {
        let a = p(&[1, 2, 3]);
        assert_eq!(a.taylor_shift_one(), p(&[6, 8, 3]));
        assert_eq!(a.taylor_shift(&BigInt::from(-2)), p(&[9, -10, 3]));
        // [¼, ¾]: a(¼ + ½t)·16 = 16(1 + ½ + t + 3(1/16 + t/4 + t²/4))
        let m = a.to_interval(&BigInt::from(1), &BigInt::from(3), 2);
        for (t_num, t_den) in [(0i64, 1i64), (1, 1), (1, 2)] {
            let t = t_num as f64 / t_den as f64;
            let x = 0.25 + 0.5 * t;
            let want = 16.0 * (1.0 + 2.0 * x + 3.0 * x * x);
            let got: f64 = m
                .coeffs()
                .iter()
                .enumerate()
                .map(|(i, c)| c.to_string().parse::<f64>().unwrap() * t.powi(i as i32))
                .sum();
            assert!((got - want).abs() < 1e-9, "{got} vs {want}");
        }
    }

    #[test]
    fn pseudo_remainder_keeps_sign_of_multiplier_positive() {
        let a = p(&[0, 0, 1]); // t²
        let d = p(&[1, -2]); // −2t + 1
        // |−2|² t² = 4t² = (−2t + 1)(−2t − 1) + 1
        assert_eq!(a.pseudo_rem(&d), p(&[1]));
    }

    #[test]
    fn pseudo_remainder_pays_for_skipped_degrees() {
        // t³ + 1 by 2t² + 1: the t² coefficient is zero after the first
        // step, so the loop reduces once, yet the multiplier is still 2².
        let a = p(&[1, 0, 0, 1]);
        let d = p(&[1, 0, 2]);
        // 4(t³ + 1) = (2t² + 1)(2t) − 2t + 4
        assert_eq!(a.pseudo_rem(&d), p(&[4, -2]));
        // A dividend of lower degree is its own remainder, multiplier 1.
        assert_eq!(p(&[3, 1]).pseudo_rem(&d), p(&[3, 1]));
    }

    /// Slow oracle for the subresultant gcd: Euclid over `Q[t]` as the
    /// primitive remainder sequence (content removed at every step), which is
    /// correct for any positive pseudo-remainder multiplier.
    fn gcd_primitive_prs(a: &IntPoly, b: &IntPoly) -> IntPoly {
        let (mut a, mut b) = if a.degree() >= b.degree() {
            (a.primitive(), b.primitive())
        } else {
            (b.primitive(), a.primitive())
        };
        while !b.is_zero() {
            let r = a.pseudo_rem(&b).primitive();
            a = b;
            b = r;
        }
        if a.is_zero() || a.degree() == Some(0) {
            return if a.is_zero() { a } else { p(&[1]) };
        }
        if a.leading().is_negative() {
            a.neg()
        } else {
            a
        }
    }

    fn small_poly(max_degree: usize) -> impl proptest::strategy::Strategy<Value = IntPoly> {
        use proptest::prelude::*;
        // Mostly zero coefficients: the remainder sequence then skips degrees.
        proptest::collection::vec(
            prop_oneof![3 => Just(0i64), 2 => -9i64..=9],
            1..=max_degree + 1,
        )
        .prop_map(|c| p(&c))
    }

    /// As [`small_poly`], with a nonzero leading coefficient: a divisor by
    /// construction (a filter would reject a third of the draws, and
    /// proptest gives up after 1,024 rejects when asked for many cases).
    fn nonzero_poly(max_degree: usize) -> impl proptest::strategy::Strategy<Value = IntPoly> {
        use proptest::prelude::*;
        (
            proptest::collection::vec(prop_oneof![3 => Just(0i64), 2 => -9i64..=9], 0..=max_degree),
            prop_oneof![-9i64..=-1, 1i64..=9],
        )
            .prop_map(|(mut c, lead)| {
                c.push(lead);
                p(&c)
            })
    }

    proptest::proptest! {
        #[test]
        fn subresultant_gcd_equals_the_primitive_prs(
            f in small_poly(3),
            a in small_poly(4),
            b in small_poly(4),
        ) {
            let (a, b) = (a.mul(&f), b.mul(&f));
            let g = IntPoly::gcd(&a, &b);
            proptest::prop_assert_eq!(&g, &gcd_primitive_prs(&a, &b));
            if !g.is_zero() {
                proptest::prop_assert!(a.div_exact(&g).is_some());
                proptest::prop_assert!(b.div_exact(&g).is_some());
            }
        }

        /// The certificate never calls a polynomial with a repeated factor
        /// square-free (the exact gcd is the oracle), and certifies the
        /// square-free ones (a prime is unlucky for one only when it divides
        /// its discriminant: not for these); big coefficients
        /// through a factor `2¹⁰⁰·t + 3⁶⁰·k`.
        #[test]
        fn square_freeness_certificates_agree_with_the_exact_gcd(
            a in nonzero_poly(3),
            b in nonzero_poly(2),
            k in -5i64..=5,
            squared in proptest::bool::ANY,
        ) {
            let big = IntPoly::linear(num_traits::pow(BigInt::from(3), 60) * k, BigInt::one() << 100u32);
            let q = a.mul(&big).mul(&if squared { b.mul(&b) } else { b.clone() });
            let exact = IntPoly::gcd(&q, &q.derivative()).degree() == Some(0);
            // Never true for a repeated factor (`squared` with `b` not
            // constant, or one shared by `a` and `b`); and both primes are
            // never unlucky at once for these factors.
            proptest::prop_assert_eq!(q.certainly_square_free(), exact, "{:?}", q);
        }

        /// The coprimality certificate against the exact gcd, on pairs
        /// sharing a factor `f` or not, with big coefficients through a
        /// factor `2¹⁰⁰·t + 3⁶⁰·k` of the first.
        #[test]
        fn coprimality_certificates_agree_with_the_exact_gcd(
            a in nonzero_poly(3),
            b in nonzero_poly(3),
            f in nonzero_poly(2),
            k in -5i64..=5,
            shared in proptest::bool::ANY,
        ) {
            let big = IntPoly::linear(num_traits::pow(BigInt::from(3), 60) * k, BigInt::one() << 100u32);
            let a = a.mul(&big).mul(&f);
            let b = if shared { b.mul(&f) } else { b };
            let exact = IntPoly::gcd(&a, &b).degree() == Some(0);
            // Never true for a common factor; both primes are never
            // unlucky at once for these small factors.
            proptest::prop_assert_eq!(a.certainly_coprime(&b), exact, "{:?} {:?}", a, b);
        }

        #[test]
        fn pseudo_remainder_is_the_full_power_remainder(a in small_poly(6), d in nonzero_poly(3)) {
            let dd = d.degree().unwrap();
            let r = a.pseudo_rem(&d);
            proptest::prop_assert!(r.degree().is_none_or(|rd| rd < dd));
            let power = a.degree().map_or(0, |ad| (ad + 1).saturating_sub(dd));
            let lifted = a.scale(&num_traits::pow(d.leading().abs(), power));
            let diff = lifted.sub(&r);
            proptest::prop_assert!(diff.is_zero() || diff.div_exact(&d).is_some());
        }
    }

    #[test]
    fn descartes_counts_roots_in_the_unit_interval() {
        let a = p(&[-1, 3]).mul(&p(&[-2, 3])); // roots ⅓, ⅔
        assert_eq!(a.descartes_01(), 2);
        assert_eq!(p(&[1, 1]).descartes_01(), 0);
    }
}
