//! The static tier: the fast path in plain doubles, with one error bound per
//! quantity derived in advance from the query's coordinate magnitudes
//! (a semi-static filter in the sense of Shewchuk, "Adaptive precision
//! floating-point arithmetic and fast robust geometric predicates", DCG 18,
//! 1997, §4, and Meyer & Pion, "FPG: a code generator for fast and certified
//! geometric predicates", RNC 2008). It decides the common queries with
//! less work than the [`crate::math::Bounded`] tier, which tracks a
//! magnitude and a rounding count through every operation, and defers every
//! doubt to it (`None`).
//!
//! **Bounds.** Every value here is computed by the same operations, in the
//! same order, as in the [`crate::math::Bounded`] tier, so the rounding
//! counts `k` of that tier apply: `|x̃ − x| ≤ γ_k·M` with `γ_k ≤ (k + 1)u`
//! ([`crate::math::gamma`]) and `M` the magnitude of the expression (its
//! monomials in absolute value). Here `M` is bounded instead by per-axis
//! maxima:
//!
//! - *Cubic coefficients.* Each monomial of `det[uᵢ, vⱼ, wₖ]` is
//!   `±u_a v_b w_c` over a permutation `(a, b, c)` of the axes, so
//!   `|monomial| ≤ D_x D_y D_z` with `D_a` the largest `|a|`-coordinate of
//!   the six differences (exact ones are at most the computed ones over
//!   `(1 − u)`). `b₀`, `b₃` have 6 monomials and `k = 8`, `3b₁`, `3b₂` have
//!   18 and `k = 10`: `|error| ≤ 9u·6·P` resp. `11u·18·P` with
//!   `P = D_x D_y D_z/(1 − u)³`; rounding `P` and the bound's product costs
//!   `(1 − u)³` more, covered by taking `55u·P̃` resp. `199u·P̃`.
//! - *Subdivision and evaluation.* The Bernstein coefficients `B` of the
//!   cubic have computed values within `ε` of the exact ones, which lie in
//!   `[−β, β]` for `β = max|B̃ᵢ| + ε`; subdivided coefficients are convex
//!   combinations of them. A midpoint average `fl(ã + b̃)/2` is within
//!   `ε + u(β + ε)` of the exact one, so one subdivision (three levels) adds
//!   at most `3u(β + ε + 4uβ) ≤ 4uβ` while `ε ≤ β/4`. A de Casteljau level
//!   at `t` computes `fl(fl(p̃·s̃) + fl(q̃·t))` with `s̃ = fl(1 − t)`,
//!   `|s̃ − s| ≤ u·s`, for the exact `p·s + q·t`: the inputs' errors give
//!   `ε(s̃ + t) ≤ ε(1 + u)`, the factor `s̃` gives `u·s·|p| ≤ uβ`, the three
//!   roundings `u(β + ε)(1 + u)(2 + u) ≤ 3u(β + ε)`; so `ε ↦ ε(1 + 4u) +
//!   4uβ` per level and three levels stay within `ε(1 + 13u) + 12.01uβ`,
//!   covered by `e_eval = fl(fl(ε + fl(14u·β))·(1 + 64u))` (three more
//!   roundings leave a factor `≥ 1 + 60u`).
//! - *Conditions.* At a root bracket the leaves (relative positions at the
//!   midpoint, [`super::leaf`]) have count `ℓ = 8 + K` relative to
//!   `U = |u₀| + |u₁|`. With `Λ_a` the largest computed `|u₀_a| + |u₁_a|`
//!   over the leaves and `Q = Σⱼ (Λ_{j+1} Λ_{j+2})²`, the vertex–face
//!   conditions have magnitude at most `16·Q` (`(v − u)` doubles a factor)
//!   and count at most `4ℓ + 9`; the edge–edge ones `32·Q` and `4ℓ + 10`
//!   (`e2 = da − ca`). The exact leaf magnitudes are at most the computed
//!   ones over `(1 − u)²`, and the computed `Q̃` and bound `fl(C·u·Q̃)` lose
//!   `(1 − u)⁶` more, so with `k` the count the bound must cover
//!   `γ_k·(1 − u)⁻¹⁴ = k·u/((1 − k·u)(1 − u)¹⁴)`. The tier accepts brackets of
//!   `K ≤ 2²⁰` only (wider ones are deferred), so `k ≤ 2²²+42`, `k·u < 2⁻³⁰`
//!   and that is below `(k + 2)·u`: the bounds are `16·(4ℓ + 11)·u·Q̃` and
//!   `32·(4ℓ + 12)·u·Q̃`.
//!
//! A sign is certified when the value's magnitude exceeds its bound. The
//! tier decides: no root (one common certified sign), or at each simple root
//! in increasing order (at most [`MAX_DEPTH`] subdivisions), contact when
//! every condition is certainly positive and none when one is certainly
//! negative. Exact zeros, near-degenerate conditions and coplanar motion are
//! the [`crate::math::Bounded`] tier's.
//!
//! docs/design.md §8.

use super::roots::{Bracket, Scan, T_MIN};
use crate::math::{UNIT_ROUNDOFF, Vec3};
use crate::pair_kernel::coplanarity_of_differences;

const U: f64 = UNIT_ROUNDOFF;

/// Subdivisions of `[0, 1]` before deferring to the next tier.
pub const MAX_DEPTH: u32 = 8;

/// Largest time term `K` of a bracket (module doc, *Conditions*): keeps
/// `k·u < 2⁻³⁰` for the conditions' counts `k`, so that two extra units
/// cover `γ_k` and the roundings of the bound.
const MAX_TIME_COUNT: f64 = (1u32 << 20) as f64;

/// `γ₈·6` rounded up for `b₀`, `b₃` (module doc).
const COEFFICIENT_END: f64 = (9.0 * 6.0 + 1.0) * U;
/// `γ₁₀·18` rounded up for `3b₁`, `3b₂` (module doc).
const COEFFICIENT_MIDDLE: f64 = (11.0 * 18.0 + 1.0) * U;

type V3 = [f64; 3];

#[inline(always)]
fn sub(a: &Vec3, b: &Vec3) -> V3 {
    [a.x - b.x, a.y - b.y, a.z - b.z]
}

#[inline(always)]
fn vsub(a: &V3, b: &V3) -> V3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

#[inline(always)]
fn cross(a: &V3, b: &V3) -> V3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

#[inline(always)]
fn dot(a: &V3, b: &V3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

#[inline(always)]
fn max_abs(vs: [&V3; 3]) -> V3 {
    std::array::from_fn(|i| vs[0][i].abs().max(vs[1][i].abs()).max(vs[2][i].abs()))
}

/// The certified sign of `x` with error bound `e`: `±1`, or `0` if unknown.
#[inline(always)]
fn sign(x: f64, e: f64) -> i8 {
    if x > e {
        1
    } else if x < -e {
        -1
    } else {
        0
    }
}

/// The coplanarity cubic of points `a b c d` (at `t = 0`, then `t = 1`) as
/// Bernstein coefficients times 3 with a uniform error bound and `β`, or
/// `Err(s)` with the common certified sign `s` of its coefficients (no root),
/// or `Err(0)` when a coefficient's sign is uncertain.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn cubic(
    a0: &Vec3,
    b0: &Vec3,
    c0: &Vec3,
    d0: &Vec3,
    a1: &Vec3,
    b1: &Vec3,
    c1: &Vec3,
    d1: &Vec3,
) -> Result<([f64; 4], f64, f64), i8> {
    let (u0, v0, w0) = (sub(b0, a0), sub(c0, a0), sub(d0, a0));
    let (u1, v1, w1) = (sub(b1, a1), sub(c1, a1), sub(d1, a1));
    let c = coplanarity_of_differences(&[u0, v0, w0], &[u1, v1, w1]);
    let e = coefficient_bounds(&max_abs([&u0, &v0, &w0]), &max_abs([&u1, &v1, &w1]));
    let s: [i8; 4] = std::array::from_fn(|i| sign(c[i], e[i]));
    if s[0] * s[1] * s[2] * s[3] == 0 {
        return Err(0);
    }
    if s[0] == s[1] && s[1] == s[2] && s[2] == s[3] {
        return Err(s[0]);
    }
    // Bernstein coefficients times 3: fl(3c) is within 3e + 2u|fl(3c)|.
    let b = [3.0 * c[0], c[1], c[2], 3.0 * c[3]];
    let eb = (3.0 * e[0] + 2.0 * U * b[0].abs())
        .max(e[1])
        .max(e[2])
        .max(3.0 * e[3] + 2.0 * U * b[3].abs())
        * (1.0 + 4.0 * U);
    let beta = (b[0].abs().max(b[1].abs()).max(b[2].abs()).max(b[3].abs()) + eb) * (1.0 + 4.0 * U);
    Ok((b, eb, beta))
}

/// The bounds on the errors of the cubic's coefficients `[b₀, 3b₁, 3b₂,
/// b₃]` (module doc, *Cubic coefficients*), from the per-axis maxima `m0`,
/// `m1` of the differences' coordinates at `t = 0` and at `t = 1`.
#[inline(always)]
fn coefficient_bounds(m0: &V3, m1: &V3) -> [f64; 4] {
    let p0 = m0[0] * m0[1] * m0[2];
    let p1 = m1[0] * m1[1] * m1[2];
    let p = m0[0].max(m1[0]) * m0[1].max(m1[1]) * m0[2].max(m1[2]);
    [
        COEFFICIENT_END * p0,
        COEFFICIENT_MIDDLE * p,
        COEFFICIENT_MIDDLE * p,
        COEFFICIENT_END * p1,
    ]
}

#[derive(Clone, Copy)]
struct Node {
    l: f64,
    r: f64,
    b: [f64; 4],
    e: f64,
    depth: u32,
}

/// Visits the roots in `(0, 1)` of the Bernstein cubic `b` (uniform error
/// `eb`, exact coefficients within `β`) in increasing order, as
/// [`super::roots::scan`] does.
#[inline(always)]
fn scan(b: [f64; 4], eb: f64, beta: f64, mut accept: impl FnMut(Bracket) -> Option<bool>) -> Scan {
    let power = [
        b[0],
        3.0 * (b[1] - b[0]),
        3.0 * (b[0] - 2.0 * b[1] + b[2]),
        b[3] - b[0] + 3.0 * (b[1] - b[2]),
    ];
    // Evaluations of the original cubic anywhere in [0, 1] (module doc).
    let e_eval = (eb + 14.0 * U * beta) * (1.0 + 64.0 * U);
    let mut stack = [Node {
        l: 0.0,
        r: 1.0,
        b,
        e: eb,
        depth: 0,
    }; MAX_DEPTH as usize + 2];
    let mut top = 1;
    while top > 0 {
        top -= 1;
        let node = stack[top];
        let s: [i8; 4] = std::array::from_fn(|i| sign(node.b[i], node.e));
        if s[0] * s[1] * s[2] * s[3] == 0 {
            return Scan::Undecided;
        }
        let v = (s[0] != s[1]) as u32 + (s[1] != s[2]) as u32 + (s[2] != s[3]) as u32;
        if v == 0 {
            continue;
        }
        if v == 1 {
            let Some(bracket) = narrow(&b, &power, e_eval, node.l, node.r, s[0]) else {
                return Scan::Undecided;
            };
            match accept(bracket) {
                Some(true) => return Scan::Contact(bracket),
                Some(false) => continue,
                None => return Scan::Undecided,
            }
        }
        if node.depth >= MAX_DEPTH || 4.0 * node.e > beta {
            return Scan::Undecided;
        }
        let nb = node.b;
        let (b01, b12, b23) = (
            0.5 * (nb[0] + nb[1]),
            0.5 * (nb[1] + nb[2]),
            0.5 * (nb[2] + nb[3]),
        );
        let (b012, b123) = (0.5 * (b01 + b12), 0.5 * (b12 + b23));
        let mid = 0.5 * (b012 + b123);
        let e = (node.e + 4.0 * U * beta) * (1.0 + 4.0 * U);
        if sign(mid, e) == 0 {
            return Scan::Undecided;
        }
        let m = 0.5 * (node.l + node.r);
        let depth = node.depth + 1;
        stack[top] = Node {
            l: m,
            r: node.r,
            b: [mid, b123, b23, nb[3]],
            e,
            depth,
        };
        stack[top + 1] = Node {
            l: node.l,
            r: m,
            b: [nb[0], b01, b012, mid],
            e,
            depth,
        };
        top += 2;
    }
    Scan::NoContact
}

/// The cubic `b` at `t`, plain de Casteljau (within `e_eval`, module doc).
#[inline(always)]
fn eval(b: &[f64; 4], t: f64) -> f64 {
    let s = 1.0 - t;
    let (p0, p1, p2) = (
        b[0] * s + b[1] * t,
        b[1] * s + b[2] * t,
        b[2] * s + b[3] * t,
    );
    let (q0, q1) = (p0 * s + p1 * t, p1 * s + p2 * t);
    q0 * s + q1 * t
}

/// A tight certified bracket of the single root in `(l, r)` (signs `sign_l`
/// at `l`, `−sign_l` at `r`), as in [`super::roots`]: Newton on the power
/// form, then certified signs at `t ± δ`. `None` if no bracket narrower
/// than the conditions admit can be certified.
#[inline(always)]
fn narrow(b: &[f64; 4], a: &[f64; 4], e_eval: f64, l: f64, r: f64, sign_l: i8) -> Option<Bracket> {
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
        if step.abs() <= 4.0 * U * t {
            break;
        }
        let next = t - step;
        t = if next > lo && next < hi {
            next
        } else {
            0.5 * (lo + hi)
        };
    }
    let slope = df(t).abs();
    let mut delta = (8.0 * U * t.max(T_MIN)).max(if slope > 0.0 {
        2.0 * e_eval / slope
    } else {
        0.0
    });
    for _ in 0..4 {
        let tl = if t - delta > l && t - delta >= T_MIN {
            t - delta
        } else {
            l
        };
        let tr = if t + delta < r { t + delta } else { r };
        let ok_l = tl == l || sign(eval(b, tl), e_eval) == sign_l;
        let ok_r = tr == r || sign(eval(b, tr), e_eval) == -sign_l;
        if ok_l && ok_r {
            return Some(Bracket { lo: tl, hi: tr });
        }
        delta *= 4.0;
    }
    None
}

/// The evaluation time for a bracket and its leaves' count `ℓ = 8 + K`, as
/// in [`super::conditions`], for `K ≤ 2²⁰` ([`MAX_TIME_COUNT`]).
#[inline(always)]
fn time_and_count(br: &Bracket) -> Option<(f64, f64)> {
    let mut t = 0.5 * (br.lo + br.hi);
    if br.lo == 0.0 && t < T_MIN {
        t = 0.0;
    }
    if t != 0.0 && !(T_MIN..=1.0).contains(&t) {
        return None;
    }
    let k = ((br.hi - br.lo).next_up() / U).ceil();
    (k <= MAX_TIME_COUNT).then_some((t, 8.0 + k))
}

/// `x(t) − y(t)` at `t` ([`super::leaf`]), and its `|u₀| + |u₁|`.
#[inline(always)]
fn leaf(x0: &Vec3, x1: &Vec3, y0: &Vec3, y1: &Vec3, t: f64) -> (V3, V3) {
    let u0 = sub(x0, y0);
    let u1 = sub(x1, y1);
    (
        std::array::from_fn(|i| u0[i] + t * (u1[i] - u0[i])),
        std::array::from_fn(|i| u0[i].abs() + u1[i].abs()),
    )
}

/// `Σⱼ (Λ_{j+1} Λ_{j+2})²` for the per-axis maxima `Λ` of leaf magnitudes.
#[inline(always)]
fn q_bound(m: [&V3; 3]) -> f64 {
    let l = max_abs(m);
    let (xy, yz, zx) = (l[0] * l[1], l[1] * l[2], l[2] * l[0]);
    xy * xy + yz * yz + zx * zx
}

/// One certainly negative condition: no contact; all certainly positive:
/// contact; else undecided.
#[inline(always)]
fn decide<const K: usize>(g: [f64; K], e: f64) -> Option<bool> {
    if g.iter().any(|&x| x < -e) {
        Some(false)
    } else {
        g.iter().all(|&x| x > e).then_some(true)
    }
}

/// The three vertex–face conditions at `br`'s evaluation time and their
/// common error bound `16·(4ℓ + 11)·u·Q̃` (module doc, *Conditions*), or
/// `None` for a bracket the tier defers. Points in data set row order.
#[inline(always)]
fn vertex_face_conditions(q: [&Vec3; 8], br: &Bracket) -> Option<([f64; 3], f64)> {
    let [v_t0, f0_t0, f1_t0, f2_t0, v_t1, f0_t1, f1_t1, f2_t1] = q;
    let (t, l) = time_and_count(br)?;
    let (u, mu) = leaf(f1_t0, f1_t1, f0_t0, f0_t1, t);
    let (v, mv) = leaf(f2_t0, f2_t1, f0_t0, f0_t1, t);
    let (w, mw) = leaf(v_t0, v_t1, f0_t0, f0_t1, t);
    let n = cross(&u, &v);
    let g = [
        dot(&cross(&u, &w), &n),
        dot(&cross(&vsub(&v, &u), &vsub(&w, &u)), &n),
        dot(&cross(&vsub(&w, &v), &v), &n),
    ];
    Some((g, 16.0 * (4.0 * l + 11.0) * U * q_bound([&mu, &mv, &mw])))
}

/// The four edge–edge conditions at `br`'s evaluation time and their common
/// error bound `32·(4ℓ + 12)·u·Q̃` (module doc, *Conditions*), or `None` for
/// a bracket the tier defers. Points in data set row order.
#[inline(always)]
fn edge_edge_conditions(q: [&Vec3; 8], br: &Bracket) -> Option<([f64; 4], f64)> {
    let [
        ea0_t0,
        ea1_t0,
        eb0_t0,
        eb1_t0,
        ea0_t1,
        ea1_t1,
        eb0_t1,
        eb1_t1,
    ] = q;
    let (t, l) = time_and_count(br)?;
    let (e1, m1) = leaf(ea1_t0, ea1_t1, ea0_t0, ea0_t1, t);
    let (ca, mc) = leaf(eb0_t0, eb0_t1, ea0_t0, ea0_t1, t);
    let (da, md) = leaf(eb1_t0, eb1_t1, ea0_t0, ea0_t1, t);
    let e2 = vsub(&da, &ca);
    let m = cross(&e1, &e2);
    let g = [
        dot(&cross(&ca, &e2), &m),
        dot(&cross(&vsub(&e1, &ca), &e2), &m),
        dot(&cross(&ca, &e1), &m),
        dot(&cross(&e1, &da), &m),
    ];
    Some((g, 32.0 * (4.0 * l + 12.0) * U * q_bound([&m1, &mc, &md])))
}

/// Vertex–face in the static tier: `Some(decision)` or `None` to defer.
/// Arguments in data set row order; inputs in the filter range.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub fn vertex_face(
    v_t0: &Vec3,
    f0_t0: &Vec3,
    f1_t0: &Vec3,
    f2_t0: &Vec3,
    v_t1: &Vec3,
    f0_t1: &Vec3,
    f1_t1: &Vec3,
    f2_t1: &Vec3,
) -> Option<Option<Bracket>> {
    let (b, eb, beta) = match cubic(f0_t0, f1_t0, f2_t0, v_t0, f0_t1, f1_t1, f2_t1, v_t1) {
        Ok(c) => c,
        Err(0) => return None,
        Err(_) => return Some(None),
    };
    let inside = |br: Bracket| {
        let (g, e) =
            vertex_face_conditions([v_t0, f0_t0, f1_t0, f2_t0, v_t1, f0_t1, f1_t1, f2_t1], &br)?;
        decide(g, e)
    };
    match scan(b, eb, beta, inside) {
        Scan::NoContact => Some(None),
        Scan::Contact(br) => Some(Some(br)),
        Scan::Identical | Scan::Undecided => None,
    }
}

/// Edge–edge in the static tier: `Some(decision)` or `None` to defer.
/// Arguments in data set row order; inputs in the filter range.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub fn edge_edge(
    ea0_t0: &Vec3,
    ea1_t0: &Vec3,
    eb0_t0: &Vec3,
    eb1_t0: &Vec3,
    ea0_t1: &Vec3,
    ea1_t1: &Vec3,
    eb0_t1: &Vec3,
    eb1_t1: &Vec3,
) -> Option<Option<Bracket>> {
    let (b, eb, beta) = match cubic(
        ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1,
    ) {
        Ok(c) => c,
        Err(0) => return None,
        Err(_) => return Some(None),
    };
    let crossing = |br: Bracket| {
        let (q, e) = edge_edge_conditions(
            [
                ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1,
            ],
            &br,
        )?;
        decide(q, e)
    };
    match scan(b, eb, beta, crossing) {
        Scan::NoContact => Some(None),
        Scan::Contact(br) => Some(Some(br)),
        Scan::Identical | Scan::Undecided => None,
    }
}

#[cfg(test)]
mod tests {
    //! The static tier against the exact oracle ([`super::super::oracle`]):
    //! whenever it decides, the same decision, and a contact bracket that
    //! contains the exact earliest contact time. Random and near-degenerate
    //! queries (grid coincidences, few-ulp perturbations, shared vertices,
    //! tiny motions, near-coplanar motion, nearly parallel edges).
    use std::cmp::Ordering;

    use super::*;
    use crate::exact::{Algebraic, Dyadic};
    use crate::math::all_in_filter_range;
    use crate::narrow_phase::oracle;
    use proptest::prelude::*;

    /// A corner `(±s_x, ±s_y, ±s_z)` of the box `s`, its signs drawn from a
    /// xorshift `state`.
    fn corner(state: &mut u64, s: [f64; 3]) -> Vec3 {
        let p: [f64; 3] = std::array::from_fn(|a| {
            *state ^= *state << 13;
            *state ^= *state >> 7;
            *state ^= *state << 17;
            if *state & 1 == 0 { s[a] } else { -s[a] }
        });
        Vec3::new(p[0], p[1], p[2])
    }

    /// Every difference coordinate `±D_a` on axis `a`: every monomial of a
    /// coefficient has the magnitude `P = D_x D_y D_z`, so the certified
    /// tier's magnitude `m` reaches `6P` (ends) and `18P` (middle), its
    /// largest against the per-axis maxima. Each static bound must still
    /// cover `γ_k·m ≤ (k + 1)·u·m` with that tier's rounding count `k`,
    /// for every choice of signs (module doc, *Bounds*).
    #[test]
    fn coefficient_bounds_cover_the_certified_ones_at_their_largest() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for scale in [[1.0, 1.0, 1.0], [0.5, 4.0, 3.0], [2.0, 0.25, 1.0]] {
            for _ in 0..2000 {
                let mut point = || corner(&mut state, scale);
                let o = Vec3::zeros();
                let q = [o, point(), point(), point(), o, point(), point(), point()];
                let [a, b, c, d, e, f, g, h] = &q;
                let certified = crate::narrow_phase::certified::coplanarity::<crate::math::Bounded>(
                    a, b, c, d, e, f, g, h,
                );
                let diffs = |x: [&Vec3; 3]| x.map(|p| [p.x, p.y, p.z]);
                let [u0, v0, w0] = diffs([b, c, d]);
                let [u1, v1, w1] = diffs([f, g, h]);
                let bounds =
                    coefficient_bounds(&max_abs([&u0, &v0, &w0]), &max_abs([&u1, &v1, &w1]));
                let p: f64 = scale.iter().product();
                for (k, (bound, c)) in bounds.iter().zip(&certified).enumerate() {
                    assert!(*bound >= f64::from(c.k + 1) * U * c.m, "{k}: {q:?}");
                }
                assert_eq!(certified[1].m, 18.0 * p, "{q:?}");
            }
        }
    }

    /// Relative to a still first point, every other point's coordinate
    /// `±D_a` on axis `a` at both times: every leaf has the magnitude
    /// `Λ_a = 2D_a` on every axis, so the certified tier's magnitudes of the
    /// conditions reach the module doc's `16·Q` (vertex–face) and `32·Q`
    /// (edge–edge). At brackets from a point to the widest the tier accepts,
    /// each condition must be the certified tier's value, computed by the
    /// same operations in the same order, and the static bound must cover
    /// that tier's `(k + 1)·u·m` (module doc, *Conditions*).
    #[test]
    fn condition_bounds_cover_the_certified_ones_at_their_largest() {
        use crate::math::Bounded;
        use crate::narrow_phase::leaf::relative;
        use crate::narrow_phase::roots::leaf_rounding_count;
        let brackets = [
            Bracket { lo: 0.0, hi: 0.0 },
            Bracket { lo: 0.0, hi: 1e-20 },
            Bracket { lo: 0.25, hi: 0.25 },
            Bracket {
                lo: 0.5,
                hi: 0.5 + 2f64.powi(-40),
            },
            Bracket {
                lo: 0.375,
                hi: 0.375 + (2f64.powi(-33) - 2f64.powi(-50)),
            },
            Bracket {
                lo: 1.0 - 2f64.powi(-34),
                hi: 1.0,
            },
        ];
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut largest = [0.0f64; 2];
        for scale in [[1.0, 1.0, 1.0], [0.5, 4.0, 3.0], [2.0, 0.25, 1.0]] {
            for _ in 0..500 {
                let mut point = || corner(&mut state, scale);
                let o = Vec3::zeros();
                let q = [o, point(), point(), point(), o, point(), point(), point()];
                // 2D_a per axis for every leaf; Q = Σ (Λ_{j+1} Λ_{j+2})².
                let lambda = scale.map(|x| 2.0 * x);
                let big_q = q_bound([&lambda, &lambda, &lambda]);
                // Edge–edge: the edges `q₀ q₁` and `q₂ q₃`, leaves relative
                // to `q₀`. Vertex–face: the vertex `q₁` and the face `q₀ q₂
                // q₃`, leaves relative to `q₀` too.
                let ee = q.each_ref();
                let vf = [1, 0, 2, 3, 5, 4, 6, 7].map(|i| &q[i]);
                for br in &brackets {
                    let k = leaf_rounding_count(br).unwrap();
                    let t = time_and_count(br).unwrap().0;
                    let rel = |x: usize| relative(&q[x], &q[x + 4], &q[0], &q[4], t, k);
                    let (x1, x2, x3) = (rel(1), rel(2), rel(3));
                    let covered = |got: &[f64], bound: f64, want: &[Bounded]| {
                        for (i, (g, w)) in got.iter().zip(want).enumerate() {
                            assert_eq!(g.to_bits(), w.v.to_bits(), "{i}: {q:?} {br:?}");
                            assert!(bound >= f64::from(w.k + 1) * U * w.m, "{i}: {q:?} {br:?}");
                        }
                    };
                    // As in `super::super::conditions::vertex_face`.
                    let (got, bound) = vertex_face_conditions(vf, br).unwrap();
                    let (u, v, w) = (x2, x3, x1);
                    let n = u.cross(&v);
                    let want = [
                        u.cross(&w).dot(&n),
                        v.sub(&u).cross(&w.sub(&u)).dot(&n),
                        w.sub(&v).cross(&v).dot(&n),
                    ];
                    covered(&got, bound, &want);
                    largest[0] = want.iter().fold(largest[0], |x, c| x.max(c.m / big_q));
                    // As in `super::super::conditions::edge_edge`.
                    let (got, bound) = edge_edge_conditions(ee, br).unwrap();
                    let (e1, ca, da) = (x1, x2, x3);
                    let e2 = da.sub(&ca);
                    let m = e1.cross(&e2);
                    let want = [
                        ca.cross(&e2).dot(&m),
                        e1.sub(&ca).cross(&e2).dot(&m),
                        ca.cross(&e1).dot(&m),
                        e1.cross(&da).dot(&m),
                    ];
                    covered(&got, bound, &want);
                    largest[1] = want.iter().fold(largest[1], |x, c| x.max(c.m / big_q));
                }
            }
        }
        // The magnitudes reach the doc's `16·Q` and `32·Q`: the bounds are
        // checked where they are tight.
        assert_eq!(largest, [16.0, 32.0]);
    }

    /// Checks the tier on `q` (if it decides); `true` when it decided.
    fn check(q: &[Vec3; 8], vf: bool) -> Result<bool, TestCaseError> {
        let [a, b, c, d, e, f, g, h] = q;
        if !all_in_filter_range(&[a, b, c, d, e, f, g, h]) {
            return Ok(false);
        }
        let got = if vf {
            vertex_face(a, b, c, d, e, f, g, h)
        } else {
            edge_edge(a, b, c, d, e, f, g, h)
        };
        let Some(got) = got else {
            return Ok(false);
        };
        let want = if vf {
            oracle::vertex_face(a, b, c, d, e, f, g, h)
        } else {
            oracle::edge_edge(a, b, c, d, e, f, g, h)
        };
        prop_assert_eq!(got.is_some(), want.is_some(), "query {:?}", q);
        if let (Some(br), Some(mut alpha)) = (got, want) {
            prop_assert!(0.0 <= br.lo && br.lo <= br.hi && br.hi <= 1.0);
            let mut lo = Algebraic::exact(Dyadic::from_f64(br.lo));
            let mut hi = Algebraic::exact(Dyadic::from_f64(br.hi));
            prop_assert_ne!(lo.compare(&mut alpha), Ordering::Greater, "{:?}", q);
            prop_assert_ne!(hi.compare(&mut alpha), Ordering::Less, "{:?}", q);
        }
        Ok(true)
    }

    fn grid() -> impl Strategy<Value = f64> + Clone {
        (-4i32..=4).prop_map(|k| f64::from(k) * 0.25)
    }

    fn wide() -> impl Strategy<Value = f64> + Clone {
        -2.0f64..2.0
    }

    fn query(s: impl Strategy<Value = f64> + Clone + 'static) -> impl Strategy<Value = [Vec3; 8]> {
        proptest::array::uniform8(
            (s.clone(), s.clone(), s).prop_map(|(x, y, z)| Vec3::new(x, y, z)),
        )
    }

    /// `x` moved by `k` ulps.
    fn ulps(x: f64, k: i32) -> f64 {
        (0..k.abs()).fold(x, |y, _| if k > 0 { y.next_up() } else { y.next_down() })
    }

    /// A query with a few coordinates moved by a few ulps.
    fn nudged(q: impl Strategy<Value = [Vec3; 8]>) -> impl Strategy<Value = [Vec3; 8]> {
        (q, proptest::collection::vec((0usize..24, -3i32..=3), 1..4)).prop_map(|(mut q, nudges)| {
            for (i, k) in nudges {
                q[i / 3][i % 3] = ulps(q[i / 3][i % 3], k);
            }
            q
        })
    }

    /// A vertex falling through a triangle (or an edge through an edge) at a
    /// generic time: the tier's common case.
    fn generic_hit() -> impl Strategy<Value = [Vec3; 8]> {
        (0.05f64..0.3, 0.05f64..0.3, 0.1f64..2.0, -2.0f64..-0.1).prop_map(|(x, y, z0, z1)| {
            let (a, b, c) = (
                Vec3::new(0.0, 0.0, 0.0),
                Vec3::new(1.0, 0.0, 0.0),
                Vec3::new(0.0, 1.0, 0.0),
            );
            [Vec3::new(x, y, z0), a, b, c, Vec3::new(x, y, z1), a, b, c]
        })
    }

    /// Contact (or a near miss) at an edge or a vertex of the triangle, up
    /// to a few ulps: `x`, `y` on the grid, `x + y` possibly exactly 1.
    fn boundary_hit() -> impl Strategy<Value = [Vec3; 8]> {
        nudged(
            (0i32..=4, 0i32..=4, 0.1f64..2.0, -2.0f64..-0.1).prop_map(|(i, j, z0, z1)| {
                let (x, y) = (f64::from(i) * 0.25, f64::from(j) * 0.25);
                let (a, b, c) = (
                    Vec3::new(0.0, 0.0, 0.0),
                    Vec3::new(1.0, 0.0, 0.0),
                    Vec3::new(0.0, 1.0, 0.0),
                );
                [Vec3::new(x, y, z0), a, b, c, Vec3::new(x, y, z1), a, b, c]
            }),
        )
    }

    /// The first point coincides with the second.
    fn shared() -> impl Strategy<Value = [Vec3; 8]> {
        query(grid()).prop_map(|mut q| {
            q[0] = q[1];
            q[4] = q[5];
            q
        })
    }

    /// `t = 1` positions within `1e-9` of `t = 0`.
    fn tiny_motion() -> impl Strategy<Value = [Vec3; 8]> {
        (query(wide()), proptest::array::uniform4(-1e-9f64..1e-9)).prop_map(|(mut q, d)| {
            for i in 0..4 {
                q[i + 4] = q[i] + Vec3::new(d[i], -d[i], 0.5 * d[i]);
            }
            q
        })
    }

    /// All points on the plane `z = x`, then every coordinate moved off it
    /// by a small multiple of `2⁻ᵖ`, `p ∈ [30, 56]`, and a few by some ulps:
    /// signs at the edge of the tier's bounds.
    fn near_coplanar() -> impl Strategy<Value = [Vec3; 8]> {
        let noise = proptest::collection::vec(-8i32..=8, 24);
        nudged(
            (query(wide()), noise, 30i32..=56).prop_map(|(mut q, noise, p)| {
                for (i, k) in noise.into_iter().enumerate() {
                    let x = q[i / 3].x;
                    q[i / 3].z = x;
                    q[i / 3][i % 3] += f64::from(k) * 2f64.powi(-p);
                }
                q
            }),
        )
    }

    /// A vertex falling through a triangle with tiny displacements: a root
    /// within `[2⁻⁷⁰, 1e-9]` of `t = 0`, or a whole motion within `1e-9`.
    fn tiny_hit() -> impl Strategy<Value = [Vec3; 8]> {
        (
            0.05f64..0.3,
            0.05f64..0.3,
            10i32..=70,
            -1e-9f64..-1e-12,
            -1e-9f64..1e-9,
        )
            .prop_map(|(x, y, p, z1, d)| {
                let (a, b, c) = (
                    Vec3::new(0.0, 0.0, 0.0),
                    Vec3::new(1.0, 0.0, 0.0),
                    Vec3::new(0.0, 1.0, 0.0),
                );
                let z0 = 2f64.powi(-p);
                let shift = Vec3::new(d, -d, 0.5 * d);
                [
                    Vec3::new(x, y, z0),
                    a,
                    b,
                    c,
                    Vec3::new(x, y, z1),
                    a + shift,
                    b - shift,
                    c + shift,
                ]
            })
    }

    /// Grid coordinates plus a few multiples of `2⁻⁶⁰`.
    fn noised() -> impl Strategy<Value = [Vec3; 8]> {
        (
            query(grid()),
            proptest::collection::vec((0usize..24, -64i32..=64), 1..5),
        )
            .prop_map(|(mut q, noise)| {
                for (i, k) in noise {
                    q[i / 3][i % 3] += f64::from(k) * 2f64.powi(-60);
                }
                q
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

        #[test]
        fn random(q in query(wide())) { check(&q, true)?; check(&q, false)?; }
        #[test]
        fn grid_coincidences(q in query(grid())) { check(&q, true)?; check(&q, false)?; }
        #[test]
        fn nudged_by_ulps(q in nudged(query(grid()))) { check(&q, true)?; check(&q, false)?; }
        #[test]
        fn shared_vertex(q in shared()) { check(&q, true)?; check(&q, false)?; }
        #[test]
        fn tiny_motions(q in tiny_motion()) { check(&q, true)?; check(&q, false)?; }
        #[test]
        fn tiny_motions_through_contact(q in tiny_hit()) { check(&q, true)?; check(&q, false)?; }
        #[test]
        fn near_coplanar_motion(q in near_coplanar()) { check(&q, true)?; check(&q, false)?; }
        #[test]
        fn grid_with_noise(q in noised()) { check(&q, true)?; check(&q, false)?; }
        #[test]
        fn boundary_contacts(q in boundary_hit()) { check(&q, true)?; check(&q, false)?; }

        /// The tier is not vacuous: a generic contact is decided here.
        #[test]
        fn generic_contact_is_decided(q in generic_hit()) {
            prop_assert!(check(&q, true)?, "{:?}", q);
        }
    }

    /// A generic miss and a generic edge–edge crossing are decided here too.
    #[test]
    fn generic_misses_and_crossings_are_decided() {
        let p = |x, y, z| Vec3::new(x, y, z);
        let (a, b, c) = (p(0.0, 0.0, 0.0), p(1.0, 0.0, 0.0), p(0.0, 1.0, 0.0));
        // The vertex falls beside the triangle.
        let (v0, v1) = (p(0.8, 0.7, 1.0), p(0.8, 0.7, -1.0));
        assert_eq!(vertex_face(&v0, &a, &b, &c, &v1, &a, &b, &c), Some(None));
        // A vertical edge sweeps across a fixed one.
        let (e0, e1) = (p(-1.0, 0.3, 0.0), p(1.0, 0.3, 0.0));
        let (f0, f1) = (p(0.2, -1.0, 1.0), p(0.2, 1.0, 1.3));
        let (g0, g1) = (p(0.2, -1.0, -1.0), p(0.2, 1.0, -0.7));
        let hit = edge_edge(&e0, &e1, &f0, &f1, &e0, &e1, &g0, &g1);
        assert!(matches!(hit, Some(Some(_))), "{hit:?}");
        // The same edge stopping above the fixed one.
        let (h0, h1) = (p(0.2, -1.0, 0.5), p(0.2, 1.0, 0.8));
        assert_eq!(
            edge_edge(&e0, &e1, &f0, &f1, &e0, &e1, &h0, &h1),
            Some(None)
        );
    }
}
