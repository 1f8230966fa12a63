//! Certified floating-point root isolation of the coplanarity cubic on
//! `[0, 1]`, for the solver's float tiers.
//!
//! The cubic comes as its scaled Bernstein coefficients
//! `c = [b₀, 3b₁, 3b₂, b₃]` (`f(t) = Σ cᵢ tⁱ (1−t)³⁻ⁱ`) in a [`Certified`]
//! type. First, **exact zeros at the ends** are divided out: a structural
//! zero `c₀ = 0` is a root at `t = 0` and `f/t = Σ cᵢ₊₁ tⁱ (1−t)²⁻ⁱ` keeps
//! the other coefficients unchanged (likewise `c₃ = 0` at `t = 1`, with
//! `f/(1−t)`); all four zero means `f ≡ 0` ([`Scan::Identical`]). The
//! remaining polynomial of degree `d ≤ 3` is converted to Bernstein form up
//! to a positive factor (`d = 3`: `[3c₀, c₁, c₂, 3c₃]`; `d = 2`:
//! `[c₀, c₁/2, c₂]`).
//!
//! Roots in `(0, 1)` are isolated by midpoint subdivision (de Casteljau,
//! exact halving) and Descartes' rule of signs for Bernstein coefficients:
//! when every coefficient's sign is certified and the sequence changes sign
//! once, the interval holds exactly one (simple) root; no change, no root
//! (Lane & Riesenfeld, "Bounds on a polynomial", BIT 21, 1981; exact zeros
//! are skipped, as in Descartes' rule). Each isolated root is then bracketed
//! tightly: Newton iterations in plain floating point propose a point, and the
//! bracket is accepted only where the cubic's sign is certified at both ends.
//!
//! The caller decides contact at each root, in increasing order: the root at
//! `t = 0` first, the one at `t = 1` last. The scan gives up
//! ([`Scan::Undecided`]) rather than guess: when a sign at an end or a split
//! point is uncertain (a root there or very close), when subdivision reaches
//! its depth limit (a multiple or clustered root), or when the caller cannot
//! decide a root. A more precise tier or the exact path then takes over.
//!
//! docs/design.md §9.

use super::certified::Certified;
use crate::math::UNIT_ROUNDOFF;

/// Subdivision depth after which the fast ([`crate::math::Bounded`]) tier
/// gives up: with it, every quantity stays a multiple of `2⁻⁸²⁸` (see the
/// range model of [`crate::math::Bounded`]).
pub const MAX_DEPTH: u32 = 24;

/// The subdivision stack of the fast tier ([`MAX_DEPTH`] + 2 nodes).
pub const FAST: usize = MAX_DEPTH as usize + 2;

/// Subdivision depth of the precise ([`crate::math::BoundedDd`]) tier: with
/// the cubic's coefficients multiples of `2⁻⁴²⁰`, 48 halvings of three
/// levels each and an evaluation at a time `t` (a multiple of `2⁻¹¹²`, three
/// levels), every exact product stays a multiple of
/// `2⁻⁴²⁰⁻¹⁴⁴⁻³³⁶ = 2⁻⁹⁰⁰`, so `TwoProd` is exact and `u²·m ≥ 2⁻¹⁰⁰⁶` is
/// normal.
pub const MAX_DEPTH_PRECISE: u32 = 48;

/// The subdivision stack of the precise tier ([`MAX_DEPTH_PRECISE`] + 2
/// nodes).
pub const PRECISE: usize = MAX_DEPTH_PRECISE as usize + 2;

/// The smallest positive evaluation parameter the error model admits
/// ([`crate::math::Bounded`], "Range").
pub const T_MIN: f64 = 1.0 / (1u64 << 60) as f64;

/// An interval `[lo, hi]` that contains exactly one root of the cubic (a
/// single point for a root exactly at `t = 0` or `t = 1`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bracket {
    /// Lower end.
    pub lo: f64,
    /// Upper end.
    pub hi: f64,
}

/// Outcome of a scan.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scan {
    /// No root in `[0, 1]` was accepted by the caller.
    NoContact,
    /// The earliest accepted root lies in this bracket.
    Contact(Bracket),
    /// The cubic is identically zero (coplanar motion).
    Identical,
    /// The float path cannot decide.
    Undecided,
}

/// Visits the roots in `[0, 1]` of the cubic with scaled Bernstein
/// coefficients `c`, in increasing order, subdividing at most `STACK − 2`
/// times ([`FAST`] or [`PRECISE`]). `accept(bracket)` returns `Some(true)` for a root at which contact
/// occurs (the scan stops with [`Scan::Contact`]), `Some(false)` for one
/// without contact, `None` when it cannot decide.
pub fn scan<N: Certified, const STACK: usize>(
    c: &[N; 4],
    mut accept: impl FnMut(Bracket) -> Option<bool>,
) -> Scan {
    // Structural zeros at the ends: roots at t = 0 and t = 1.
    let mut first = 0;
    while first < 4 && c[first].sign() == Some(0) {
        first += 1;
    }
    if first == 4 {
        return Scan::Identical;
    }
    let mut last = 3;
    while c[last].sign() == Some(0) {
        last -= 1;
    }
    let (Some(s0), Some(s1)) = (c[first].sign(), c[last].sign()) else {
        return Scan::Undecided;
    };
    debug_assert!(s0 != 0 && s1 != 0);
    if first > 0 {
        match accept(Bracket { lo: 0.0, hi: 0.0 }) {
            Some(true) => return Scan::Contact(Bracket { lo: 0.0, hi: 0.0 }),
            Some(false) => {}
            None => return Scan::Undecided,
        }
    }
    let inner = match last - first {
        3 => isolate::<N, 3, STACK>([c[0].scale(3.0), c[1], c[2], c[3].scale(3.0)], &mut accept),
        2 => isolate::<N, 2, STACK>(
            [c[first], c[first + 1].half(), c[first + 2], c[first + 2]],
            &mut accept,
        ),
        1 => isolate::<N, 1, STACK>([c[first], c[last], c[last], c[last]], &mut accept),
        _ => Scan::NoContact,
    };
    if inner != Scan::NoContact {
        return inner;
    }
    if last < 3 {
        return match accept(Bracket { lo: 1.0, hi: 1.0 }) {
            Some(true) => Scan::Contact(Bracket { lo: 1.0, hi: 1.0 }),
            Some(false) => Scan::NoContact,
            None => Scan::Undecided,
        };
    }
    Scan::NoContact
}

#[derive(Clone, Copy)]
struct Node<N> {
    l: f64,
    r: f64,
    b: [N; 4],
    depth: u32,
}

/// The roots in `(0, 1)` of the degree-`D` Bernstein polynomial `b[0..=D]`,
/// whose end coefficients have certified non-zero signs.
fn isolate<N: Certified, const D: usize, const STACK: usize>(
    b: [N; 4],
    accept: &mut impl FnMut(Bracket) -> Option<bool>,
) -> Scan {
    let power = power_form::<N, D>(&b);
    let mut stack = [Node {
        l: 0.0,
        r: 1.0,
        b,
        depth: 0,
    }; STACK];
    let mut top = 1;
    while top > 0 {
        top -= 1;
        let node = stack[top];
        match variations::<N, D>(&node.b) {
            Some(0) => continue,
            Some(1) => {
                let sign_l = node.b[0].sign().unwrap_or(0);
                let bracket = narrow::<N, D>(&b, &power, node.l, node.r, sign_l);
                match accept(bracket) {
                    Some(true) => return Scan::Contact(bracket),
                    Some(false) => continue,
                    None => return Scan::Undecided,
                }
            }
            _ => {}
        }
        if node.depth as usize + 2 >= STACK {
            return Scan::Undecided;
        }
        let (left, right) = split::<N, D>(&node.b);
        if !matches!(left[D].sign(), Some(1 | -1)) {
            return Scan::Undecided;
        }
        let m = 0.5 * (node.l + node.r);
        let depth = node.depth + 1;
        stack[top] = Node {
            l: m,
            r: node.r,
            b: right,
            depth,
        };
        stack[top + 1] = Node {
            l: node.l,
            r: m,
            b: left,
            depth,
        };
        top += 2;
    }
    Scan::NoContact
}

/// Sign variations of `b[0..=D]`, structural zeros skipped, or `None` if
/// they are uncertain. An uncertain coefficient between two certified
/// neighbours of opposite signs (structural zeros skipped) counts one
/// variation whatever its sign; any other uncertain one makes the count
/// uncertain.
#[inline]
fn variations<N: Certified, const D: usize>(b: &[N; 4]) -> Option<u32> {
    let mut v = 0;
    let mut last = 0i8;
    let mut pending = false;
    for c in &b[..=D] {
        match c.sign() {
            Some(0) => continue,
            Some(s) => {
                if last != 0 && s != last {
                    v += 1;
                } else if pending {
                    return None;
                }
                pending = false;
                last = s;
            }
            None => {
                if pending || last == 0 {
                    return None;
                }
                pending = true;
            }
        }
    }
    (!pending).then_some(v)
}

/// de Casteljau subdivision at the midpoint (halving is exact).
#[inline]
fn split<N: Certified, const D: usize>(b: &[N; 4]) -> ([N; 4], [N; 4]) {
    let mut work = *b;
    let mut left = *b;
    let mut right = *b;
    for level in 1..=D {
        for i in 0..=D - level {
            work[i] = (work[i] + work[i + 1]).half();
        }
        left[level] = work[0];
        right[D - level] = work[D - level];
    }
    (left, right)
}

/// The degree-`D` Bernstein polynomial `b` at `t` (`t` = 0, 1 or in
/// `[2⁻⁶⁰, 1]`), certified.
#[inline]
pub fn eval<N: Certified, const D: usize>(b: &[N; 4], t: f64) -> N {
    let tt = N::exact(t);
    let s = N::one_minus(t);
    let mut work = *b;
    for level in 1..=D {
        for i in 0..=D - level {
            work[i] = work[i] * s + work[i + 1] * tt;
        }
    }
    work[0]
}

/// Power-basis coefficients `a₀ + a₁t + … + a_D t^D` in plain floating
/// point, only to steer Newton's method.
#[inline]
fn power_form<N: Certified, const D: usize>(b: &[N; 4]) -> [f64; 4] {
    let [b0, b1, b2, b3] = b.map(|c| c.approx());
    match D {
        3 => [
            b0,
            3.0 * (b1 - b0),
            3.0 * (b0 - 2.0 * b1 + b2),
            b3 - b0 + 3.0 * (b1 - b2),
        ],
        2 => [b0, 2.0 * (b1 - b0), b0 - 2.0 * b1 + b2, 0.0],
        _ => [b0, b1 - b0, 0.0, 0.0],
    }
}

/// A tight certified bracket of the single root in `(l, r)`, where the
/// polynomial has the certified sign `sign_l` at `l` and `−sign_l` at `r`.
/// Falls back to `(l, r)` itself when no tighter one can be certified.
///
/// Newton's method runs on the power form in plain floating point, then —
/// when the certified evaluation is more precise than that (the precise
/// tier) — one or two more steps on the certified evaluation itself.
fn narrow<N: Certified, const D: usize>(
    b: &[N; 4],
    a: &[f64; 4],
    l: f64,
    r: f64,
    sign_l: i8,
) -> Bracket {
    let f = |t: f64| ((a[3] * t + a[2]) * t + a[1]) * t + a[0];
    let df = |t: f64| (3.0 * a[3] * t + 2.0 * a[2]) * t + a[1];
    let sl = f64::from(sign_l);
    let (mut lo, mut hi) = (l, r);
    let (fl, fr) = (f(l), f(r));
    let mut t = if fl * sl > 0.0 && fr * sl < 0.0 {
        (l * fr - r * fl) / (fr - fl)
    } else {
        0.5 * (l + r)
    };
    if !(t > lo && t < hi) {
        t = 0.5 * (lo + hi);
    }
    let mut newton = |t: &mut f64, ft: f64| -> bool {
        if ft * sl > 0.0 {
            lo = *t;
        } else if ft * sl < 0.0 {
            hi = *t;
        } else {
            return true;
        }
        let step = ft / df(*t);
        if step.abs() <= 4.0 * UNIT_ROUNDOFF * *t {
            // Converged: a step this small may land on the bracket's end,
            // which must not be mistaken for a wild step.
            return true;
        }
        let next = *t - step;
        *t = if next > lo && next < hi {
            next
        } else {
            0.5 * (lo + hi)
        };
        false
    };
    for _ in 0..16 {
        let ft = f(t);
        if newton(&mut t, ft) {
            break;
        }
    }
    // Certify a bracket around t. The sign of the cubic is uncertain within
    // about e/|f'| of the root (e = the certified bound at t), so start there
    // and widen a few times.
    let mut at_t = eval::<N, D>(b, t);
    if at_t.uncertainty() < 0.5 * at_t.approx().abs() {
        // The certified value is more accurate than the double Newton steps
        // assumed (precise tier): polish on it.
        for _ in 0..3 {
            let ft = at_t.approx();
            if newton(&mut t, ft) {
                break;
            }
            at_t = eval::<N, D>(b, t);
        }
    }
    let slope = df(t).abs();
    let e = at_t.uncertainty();
    let mut delta =
        (8.0 * UNIT_ROUNDOFF * t.max(T_MIN)).max(if slope > 0.0 { 2.0 * e / slope } else { 0.0 });
    // The evaluations stay in the range model: a lower end below `T_MIN`
    // falls back to `l`; an upper end needs no such check, since
    // `δ ≥ 8u·T_MIN = 2⁻¹¹⁰` keeps `t + δ` a multiple of `2⁻¹⁶²` or coarser.
    for _ in 0..5 {
        let tl = if t - delta > l && t - delta >= T_MIN {
            t - delta
        } else {
            l
        };
        let tr = if t + delta < r { t + delta } else { r };
        let ok_l = tl == l || eval::<N, D>(b, tl).sign() == Some(sign_l);
        let ok_r = tr == r || eval::<N, D>(b, tr).sign() == Some(-sign_l);
        if ok_l && ok_r {
            return Bracket { lo: tl, hi: tr };
        }
        delta *= 4.0;
    }
    Bracket { lo: l, hi: r }
}

/// The rounding count `k` that makes a leaf computed at a point of `bracket`
/// valid for every `t` in it ([`super::leaf`]): `8 + ⌈h/u⌉` for the width
/// `h`, or `None` when the bracket is wider than `2²⁶·u ≈ 7.5e-9` (the leaves
/// would then be too coarse to decide anything, and the counts of degree-4
/// expressions must stay far from `u32` overflow).
pub fn leaf_rounding_count(bracket: &Bracket) -> Option<u32> {
    let h = (bracket.hi - bracket.lo).next_up();
    let k = (h / UNIT_ROUNDOFF).ceil();
    (k <= (1u32 << 26) as f64).then(|| super::leaf::LEAF_BASE_COUNT + k as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Bounded, BoundedDd};

    /// Scaled Bernstein coefficients `[b₀, 3b₁, 3b₂, b₃]` of
    /// `(t − r0)(t − r1)(t − r2)`; exact for roots with short binary
    /// expansions.
    fn cubic_with_roots(r: [f64; 3]) -> [f64; 4] {
        let a0 = -r[0] * r[1] * r[2];
        let a1 = r[0] * r[1] + r[1] * r[2] + r[0] * r[2];
        let a2 = -(r[0] + r[1] + r[2]);
        let a3 = 1.0;
        [
            a0,
            3.0 * a0 + a1,
            3.0 * a0 + 2.0 * a1 + a2,
            a0 + a1 + a2 + a3,
        ]
    }

    fn bounded(c: [f64; 4]) -> [Bounded; 4] {
        c.map(Bounded::exact)
    }

    #[test]
    fn finds_roots_in_order_with_tight_brackets() {
        let c = cubic_with_roots([0.25, 0.625, 2.0]);
        for precise in [false, true] {
            let mut seen = vec![];
            let s = if precise {
                scan::<_, PRECISE>(&c.map(BoundedDd::exact), |br| {
                    seen.push(br);
                    Some(false)
                })
            } else {
                scan::<_, FAST>(&bounded(c), |br| {
                    seen.push(br);
                    Some(false)
                })
            };
            assert_eq!(s, Scan::NoContact);
            assert_eq!(seen.len(), 2);
            assert!(seen[0].lo <= 0.25 && 0.25 <= seen[0].hi);
            assert!(seen[1].lo <= 0.625 && 0.625 <= seen[1].hi);
            assert!(seen[0].hi - seen[0].lo < 1e-12);
        }
    }

    #[test]
    fn stops_at_the_first_accepted_root() {
        let c = cubic_with_roots([0.25, 0.625, 0.875]);
        let mut n = 0;
        let s = scan::<_, FAST>(&bounded(c), |_| {
            n += 1;
            Some(n == 2)
        });
        match s {
            Scan::Contact(br) => assert!(br.lo <= 0.625 && 0.625 <= br.hi),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn double_roots_are_left_to_the_exact_path() {
        let c = cubic_with_roots([0.5, 0.5, 3.0]);
        assert_eq!(
            scan::<_, FAST>(&bounded(c), |_| Some(true)),
            Scan::Undecided
        );
    }

    #[test]
    fn exact_end_roots_are_visited_first_and_last() {
        // Roots 0, ½ and 1: t = 0 first, t = 1 last, ½ in between.
        let c = cubic_with_roots([0.0, 0.5, 1.0]);
        assert_eq!(c[0], 0.0);
        assert_eq!(c[3], 0.0);
        let mut seen = vec![];
        let s = scan::<_, FAST>(&bounded(c), |br| {
            seen.push(br);
            Some(false)
        });
        assert_eq!(s, Scan::NoContact);
        assert_eq!(seen.len(), 3);
        assert_eq!(seen[0], Bracket { lo: 0.0, hi: 0.0 });
        assert!(seen[1].lo <= 0.5 && 0.5 <= seen[1].hi);
        assert_eq!(seen[2], Bracket { lo: 1.0, hi: 1.0 });
        // A contact at t = 1 only.
        let s = scan::<_, FAST>(&bounded(c), |br| Some(br.lo == 1.0));
        assert_eq!(s, Scan::Contact(Bracket { lo: 1.0, hi: 1.0 }));
        // All zero: coplanar motion.
        assert_eq!(
            scan::<_, FAST>(&bounded([0.0; 4]), |_| Some(true)),
            Scan::Identical
        );
    }

    #[test]
    fn an_uncertain_coefficient_between_opposite_signs_is_harmless() {
        // 4 − 12t on [0, 1] as a cubic: Bernstein ×3 is [12, 0, −12, −24]; the
        // computed zero is uncertain, yet there is exactly one sign change
        // (and the root ⅓ keeps producing such zeros under subdivision).
        let zero = Bounded::exact(1.0) - Bounded::exact(1.0);
        let c = [
            Bounded::exact(4.0),
            zero,
            Bounded::exact(-12.0),
            Bounded::exact(-8.0),
        ];
        let mut seen = vec![];
        let s = scan::<_, FAST>(&c, |br| {
            seen.push(br);
            Some(true)
        });
        assert!(matches!(s, Scan::Contact(_)), "{s:?}");
        assert!(seen[0].lo <= 1.0 / 3.0 && 1.0 / 3.0 <= seen[0].hi);
        // Between equal signs it could add two variations: undecided.
        let c = [
            Bounded::exact(4.0),
            zero,
            Bounded::exact(4.0),
            Bounded::exact(4.0),
        ];
        assert_eq!(variations::<_, 3>(&c), None);
    }

    #[test]
    fn a_zero_that_is_not_structural_is_not_a_root_at_an_end() {
        // 1 − 1 is zero but computed: its sign is unknown, not zero.
        let zero = Bounded::exact(1.0) - Bounded::exact(1.0);
        let c = [
            zero,
            Bounded::exact(1.0),
            Bounded::exact(1.0),
            Bounded::exact(1.0),
        ];
        assert_eq!(scan::<_, FAST>(&c, |_| Some(true)), Scan::Undecided);
    }

    #[test]
    fn newton_converging_onto_a_bracket_end_keeps_its_root() {
        // Regression (cloth-ball 92 VF): Newton converges from above, its
        // last tiny step lands on the bracket end; treating that as a wild
        // step bisected away and left the whole interval as the bracket.
        let b = [
            0.0017323803968645173,
            0.001001841230673704,
            0.0015414854627369612,
            -0.008729259958236707,
        ]
        .map(Bounded::exact);
        let br = narrow::<Bounded, 3>(&b, &power_form::<Bounded, 3>(&b), 0.0, 1.0, 1);
        assert!(br.lo <= 0.5104238399822778 && 0.5104238399822778 <= br.hi);
        assert!(br.hi - br.lo < 1e-12, "{br:?}");
    }

    #[test]
    fn certified_evaluation_encloses_the_value() {
        let c = cubic_with_roots([0.1, 0.2, 0.3]);
        let b = [c[0] * 3.0, c[1], c[2], c[3] * 3.0].map(Bounded::exact);
        for t in [0.0, 0.15, 0.5, 1.0] {
            let v = eval::<Bounded, 3>(&b, t);
            let exact = 3.0 * (t - 0.1) * (t - 0.2) * (t - 0.3);
            assert!((v.v - exact).abs() <= v.error_bound() + 1e-15);
        }
    }

    #[test]
    fn leaf_rounding_count_covers_a_width_that_rounds_down() {
        // lo = 2⁻⁶⁰ − 2⁻¹¹³, hi = 2⁻⁴⁰ + 2⁻⁶⁰: the width 2⁻⁴⁰ + 2⁻¹¹³
        // rounds down to 2⁻⁴⁰ = 2¹³u, a multiple of u, so the count needs
        // one more than (hi − lo)/u to cover it.
        let p = |e: i32| 2f64.powi(e);
        let br = Bracket {
            lo: p(-60) - p(-113),
            hi: p(-40) + p(-60),
        };
        assert_eq!(br.hi - br.lo, p(-40));
        let k = leaf_rounding_count(&br).expect("narrow") - super::super::leaf::LEAF_BASE_COUNT;
        assert!(k > 1 << 13, "{k}");
        // Up to 2²⁶u wide a bracket has a count, beyond it none.
        let just = Bracket {
            lo: 0.5,
            hi: 0.5 + p(-27) - p(-53),
        };
        assert_eq!(
            leaf_rounding_count(&just),
            Some(super::super::leaf::LEAF_BASE_COUNT + (1 << 26))
        );
        let wider = Bracket {
            lo: 0.5,
            hi: 0.5 + p(-27) + p(-53),
        };
        assert_eq!(leaf_rounding_count(&wider), None);
    }

    #[test]
    fn the_bracket_is_certified_whatever_newton_proposes() {
        // Newton only steers. Given the power form of another cubic (its
        // root at ¼ instead of ¾, or the reverse), it converges to the wrong
        // point; the certified signs at the bracket's ends must refuse a
        // bracket there (the whole interval is the fallback).
        let bernstein = |r: [f64; 3]| {
            let c = cubic_with_roots(r);
            [3.0 * c[0], c[1], c[2], 3.0 * c[3]].map(Bounded::exact)
        };
        for (root, decoy) in [(0.75, 0.25), (0.25, 0.75)] {
            let b = bernstein([root, 2.0, 3.0]);
            let steered = power_form::<Bounded, 3>(&b);
            let br = narrow::<Bounded, 3>(&b, &steered, 0.0, 1.0, -1);
            assert!(
                br.lo <= root && root <= br.hi && br.hi - br.lo < 1e-12,
                "{br:?}"
            );
            let misled = power_form::<Bounded, 3>(&bernstein([decoy, 2.0, 3.0]));
            let br = narrow::<Bounded, 3>(&b, &misled, 0.0, 1.0, -1);
            assert!(br.lo <= root && root <= br.hi, "{root}: {br:?}");
        }
    }

    #[test]
    fn one_exact_end_root_leaves_a_quadratic_with_its_root() {
        // Roots 0 (or 1) and 3/8: dividing out the end root leaves a
        // quadratic, whose middle Bernstein coefficient is half the scaled
        // one; its root in (0, 1) is bracketed where it is.
        for r in [[0.0, 0.375, 2.0], [1.0, 0.375, -1.0]] {
            let c = cubic_with_roots(r);
            assert!(c[0] == 0.0 || c[3] == 0.0);
            let mut seen = vec![];
            let s = scan::<_, FAST>(&bounded(c), |br| {
                seen.push(br);
                Some(false)
            });
            assert_eq!(s, Scan::NoContact);
            assert_eq!(seen.len(), 2, "{seen:?}");
            let inner = seen[usize::from(r[0] == 0.0)];
            assert!(inner.lo <= 0.375 && 0.375 <= inner.hi, "{inner:?}");
            assert!(inner.hi - inner.lo < 1e-12, "{inner:?}");
        }
    }
}
