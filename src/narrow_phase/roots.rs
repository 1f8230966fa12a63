//! Certified floating-point root isolation of the coplanarity cubic on
//! `[0, 1]`, for the filtered fast path.
//!
//! The cubic is held in Bernstein form with certified coefficient bounds
//! ([`crate::primitive::coplanarity_scaled`]). Roots are isolated by midpoint
//! subdivision (de Casteljau, exact halving) and Descartes' rule of signs for
//! Bernstein coefficients: when every coefficient's sign is certified and the
//! sequence changes sign once, the interval holds exactly one (simple) root;
//! no change, no root (Lane & Riesenfeld, "Bounds on a polynomial", BIT 21,
//! 1981). Each isolated root is then bracketed tightly: Newton iterations in
//! plain floating point propose a point, and the bracket is accepted only where
//! the cubic's sign is certified at both ends.
//!
//! The scan gives up ([`Scan::Undecided`]) rather than guess: when a sign at
//! `t = 0`, `t = 1` or a split point is uncertain (a root there or very close),
//! when subdivision reaches [`MAX_DEPTH`] (a multiple or clustered root), or
//! when the caller cannot decide a root. The exact path then takes over.

use crate::math::{Bounded, UNIT_ROUNDOFF};

/// Subdivision depth after which the scan gives up.
pub const MAX_DEPTH: u32 = 24;

/// The smallest positive evaluation parameter the error model admits
/// ([`crate::math::Bounded`], "Range").
pub const T_MIN: f64 = 1.0 / (1u64 << 60) as f64;

/// An interval `(lo, hi)` that contains exactly one root of the cubic.
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
    /// The float path cannot decide.
    Undecided,
}

#[derive(Clone, Copy)]
struct Node {
    l: f64,
    r: f64,
    b: [Bounded; 4],
    depth: u32,
}

/// Visits the roots of the cubic with Bernstein coefficients `b` in `[0, 1]`
/// in increasing order. `accept(bracket)` returns `Some(true)` for a root at
/// which contact occurs (the scan stops with [`Scan::Contact`]), `Some(false)`
/// for one without contact, `None` when it cannot decide.
pub fn scan(b: &[Bounded; 4], mut accept: impl FnMut(Bracket) -> Option<bool>) -> Scan {
    let (Some(s0), Some(s1)) = (b[0].sign(), b[3].sign()) else {
        return Scan::Undecided;
    };
    if s0 == 0 || s1 == 0 {
        // An exact zero at an end point (contact exactly at t = 0 or 1 is
        // possible): the exact path decides.
        return Scan::Undecided;
    }
    let power = power_form(b);
    let mut stack = [Node {
        l: 0.0,
        r: 1.0,
        b: *b,
        depth: 0,
    }; MAX_DEPTH as usize + 2];
    let mut top = 1;
    while top > 0 {
        top -= 1;
        let node = stack[top];
        match variations(&node.b) {
            Some(0) => continue,
            Some(1) => {
                let sign_l = node.b[0].sign().unwrap_or(0);
                let bracket = narrow(b, &power, node.l, node.r, sign_l);
                match accept(bracket) {
                    Some(true) => return Scan::Contact(bracket),
                    Some(false) => continue,
                    None => return Scan::Undecided,
                }
            }
            _ => {}
        }
        if node.depth >= MAX_DEPTH {
            return Scan::Undecided;
        }
        let (left, right) = split(&node.b);
        if !matches!(left[3].sign(), Some(1 | -1)) {
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

/// Sign variations of the coefficients, or `None` if any sign is uncertain.
fn variations(b: &[Bounded; 4]) -> Option<u32> {
    let mut v = 0;
    let mut last = 0i8;
    for c in b {
        let s = c.sign()?;
        if s == 0 {
            return None;
        }
        if last != 0 && s != last {
            v += 1;
        }
        last = s;
    }
    Some(v)
}

/// de Casteljau subdivision at the midpoint (halving is exact).
fn split(b: &[Bounded; 4]) -> ([Bounded; 4], [Bounded; 4]) {
    let b01 = (b[0] + b[1]).half();
    let b12 = (b[1] + b[2]).half();
    let b23 = (b[2] + b[3]).half();
    let b012 = (b01 + b12).half();
    let b123 = (b12 + b23).half();
    let m = (b012 + b123).half();
    ([b[0], b01, b012, m], [m, b123, b23, b[3]])
}

/// The cubic at `t` with a certified bound (`t` = 0, 1 or in `[2⁻⁶⁰, 1]`).
pub fn eval(b: &[Bounded; 4], t: f64) -> Bounded {
    let tt = Bounded::exact(t);
    let s = Bounded::exact(1.0) - tt;
    let lerp = |p: Bounded, q: Bounded| p * s + q * tt;
    let (p0, p1, p2) = (lerp(b[0], b[1]), lerp(b[1], b[2]), lerp(b[2], b[3]));
    let (q0, q1) = (lerp(p0, p1), lerp(p1, p2));
    lerp(q0, q1)
}

/// Power-basis coefficients `a₀ + a₁t + a₂t² + a₃t³` in plain floating point,
/// only to steer Newton's method.
fn power_form(b: &[Bounded; 4]) -> [f64; 4] {
    let [b0, b1, b2, b3] = b.map(|c| c.v);
    [
        b0,
        3.0 * (b1 - b0),
        3.0 * (b0 - 2.0 * b1 + b2),
        b3 - b0 + 3.0 * (b1 - b2),
    ]
}

/// A tight certified bracket of the single root in `(l, r)`, where the cubic
/// has the certified sign `sign_l` at `l` and `−sign_l` at `r`. Falls back to
/// `(l, r)` itself when no tighter one can be certified.
fn narrow(b: &[Bounded; 4], a: &[f64; 4], l: f64, r: f64, sign_l: i8) -> Bracket {
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
    for _ in 0..16 {
        let ft = f(t);
        if ft * sl > 0.0 {
            lo = t;
        } else if ft * sl < 0.0 {
            hi = t;
        } else {
            break;
        }
        let step = ft / df(t);
        if step.abs() <= 4.0 * UNIT_ROUNDOFF * t {
            // Converged: a step this small may land on the bracket's end,
            // which must not be mistaken for a wild step.
            break;
        }
        let next = t - step;
        t = if next > lo && next < hi {
            next
        } else {
            0.5 * (lo + hi)
        };
    }
    // Certify a bracket around t. The sign of the cubic is uncertain within
    // about e/|f'| of the root (e = the certified bound at t), so start there
    // and widen a few times.
    let slope = df(t).abs();
    let e = eval(b, t).error_bound();
    let mut delta =
        (8.0 * UNIT_ROUNDOFF * t.max(T_MIN)).max(if slope > 0.0 { 2.0 * e / slope } else { 0.0 });
    for _ in 0..5 {
        let tl = if t - delta > l && t - delta >= T_MIN {
            t - delta
        } else {
            l
        };
        let tr = if t + delta < r { t + delta } else { r };
        let ok_l = tl == l || eval(b, tl).sign() == Some(sign_l);
        let ok_r = tr == r || eval(b, tr).sign() == Some(-sign_l);
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

    fn cubic_with_roots(r: [f64; 3]) -> [Bounded; 4] {
        // (t − r0)(t − r1)(t − r2) in Bernstein form via exact-ish power form;
        // these tests use roots with short binary expansions.
        let a0 = -r[0] * r[1] * r[2];
        let a1 = r[0] * r[1] + r[1] * r[2] + r[0] * r[2];
        let a2 = -(r[0] + r[1] + r[2]);
        let a3 = 1.0;
        let b0 = a0;
        let b1 = a0 + a1 / 3.0;
        let b2 = a0 + 2.0 * a1 / 3.0 + a2 / 3.0;
        let b3 = a0 + a1 + a2 + a3;
        [b0, b1, b2, b3].map(Bounded::exact)
    }

    #[test]
    fn finds_roots_in_order_with_tight_brackets() {
        let b = cubic_with_roots([0.25, 0.625, 2.0]);
        let mut seen = vec![];
        let scan = scan(&b, |br| {
            seen.push(br);
            Some(false)
        });
        assert_eq!(scan, Scan::NoContact);
        assert_eq!(seen.len(), 2);
        assert!(seen[0].lo <= 0.25 && 0.25 <= seen[0].hi);
        assert!(seen[1].lo <= 0.625 && 0.625 <= seen[1].hi);
        assert!(seen[0].hi - seen[0].lo < 1e-12);
    }

    #[test]
    fn stops_at_the_first_accepted_root() {
        let b = cubic_with_roots([0.25, 0.625, 0.875]);
        let mut n = 0;
        let s = scan(&b, |_| {
            n += 1;
            Some(n == 2)
        });
        match s {
            Scan::Contact(br) => assert!(br.lo <= 0.625 && 0.625 <= br.hi),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn double_roots_and_end_roots_are_left_to_the_exact_path() {
        let b = cubic_with_roots([0.5, 0.5, 3.0]);
        assert_eq!(scan(&b, |_| Some(true)), Scan::Undecided);
        let b = cubic_with_roots([0.0, 0.5, 3.0]);
        assert_eq!(scan(&b, |_| Some(true)), Scan::Undecided);
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
        let br = narrow(&b, &power_form(&b), 0.0, 1.0, 1);
        assert!(br.lo <= 0.5104238399822778 && 0.5104238399822778 <= br.hi);
        assert!(br.hi - br.lo < 1e-12, "{br:?}");
    }

    #[test]
    fn certified_evaluation_encloses_the_value() {
        let b = cubic_with_roots([0.1, 0.2, 0.3]);
        for t in [0.0, 0.15, 0.5, 1.0] {
            let v = eval(&b, t);
            let exact = (t - 0.1) * (t - 0.2) * (t - 0.3);
            assert!((v.v - exact).abs() <= v.error_bound() + 1e-15);
        }
    }
}
