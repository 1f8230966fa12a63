//! The oracle's own certified floating-point filter for the contact
//! conditions at a candidate time, so that the oracle depends on no code of
//! the fast path it is the reference for.
//!
//! At a candidate time `α` known to lie in `[lo, hi]` (its isolating interval
//! shrunk to about `2⁻⁴⁰·α`), relative positions are evaluated at the
//! midpoint `t̃` as [`Bounded`] values valid for every time in the interval:
//! with `u(t) = u₀ + t(u₁ − u₀)`, `ũ₀ = fl(x₀ − y₀)`, `ũ₁ = fl(x₁ − y₁)`,
//! `ũ = fl(ũ₀ + fl(t̃·fl(ũ₁ − ũ₀)))` and `U = |u₀| + |u₁|`,
//!
//! ```text
//! inputs   |lerp(ũ₀, ũ₁; t̃) − u(t̃)| ≤ u·U
//! rounding |ũ − lerp(ũ₀, ũ₁; t̃)|    ≤ 2γ₃(1 + u)·U
//! time     |u(t̃) − u(α)| ≤ h·U ≤ γ_K·U          (K = ⌈h/u⌉, h = hi − lo)
//! ```
//!
//! so `ũ` has magnitude `fl(|ũ₀| + |ũ₁|)` and rounding count `8 + K` (Higham
//! 2002, Lemma 3.1; `u + 2γ₃(1 + u) ≤ γ₈`). The conditions (vertex–face
//! `g₁ g₂ g₃`, edge–edge `q₁ … q₄`; see [`super::vertex_face()`],
//! [`super::edge_edge()`]) are then evaluated in [`Bounded`] arithmetic.
//!
//! Valid only when every input coordinate passes
//! [`crate::math::in_filter_range`] and `t̃` is `0` or in `[2⁻⁶⁰, 1]`
//! (the range model of [`crate::math::Bounded`]); otherwise `None`.
//!
//! docs/design.md §9, item 8 (the oracle), with the `Bounded` model and range
//! of §8.

use crate::math::{Bounded, BoundedVec3, UNIT_ROUNDOFF, Vec3};

/// Smallest positive evaluation time of the error model.
const T_MIN: f64 = 1.0 / (1u64 << 60) as f64;

/// The evaluation time and the leaves' rounding count for `[lo, hi]`, or
/// `None` when the interval is wider than `2²⁶·u` or its midpoint outside the
/// error model's range.
fn time_and_count(lo: f64, hi: f64) -> Option<(f64, u32)> {
    let t = 0.5 * (lo + hi);
    if t != 0.0 && !(T_MIN..=1.0).contains(&t) {
        return None;
    }
    let k = ((hi - lo).next_up() / UNIT_ROUNDOFF).ceil();
    (k <= (1u32 << 26) as f64).then(|| (t, 8 + k as u32))
}

/// `x(t) − y(t)` at `t` as a leaf with rounding count `k` (module doc).
fn relative(x_t0: &Vec3, x_t1: &Vec3, y_t0: &Vec3, y_t1: &Vec3, t: f64, k: u32) -> BoundedVec3 {
    BoundedVec3(std::array::from_fn(|i| {
        let u0 = x_t0[i] - y_t0[i];
        let u1 = x_t1[i] - y_t1[i];
        Bounded::with_error(u0 + t * (u1 - u0), u0.abs() + u1.abs(), k)
    }))
}

/// `g₁, g₂, g₃` for a time in `[lo, hi]`.
pub(super) fn vertex_face(points: [&Vec3; 8], lo: f64, hi: f64) -> Option<[Bounded; 3]> {
    let [v_t0, f0_t0, f1_t0, f2_t0, v_t1, f0_t1, f1_t1, f2_t1] = points;
    let (t, k) = time_and_count(lo, hi)?;
    let u = relative(f1_t0, f1_t1, f0_t0, f0_t1, t, k);
    let v = relative(f2_t0, f2_t1, f0_t0, f0_t1, t, k);
    let w = relative(v_t0, v_t1, f0_t0, f0_t1, t, k);
    let n = u.cross(&v);
    Some(
        [
            u.cross(&w),
            v.sub(&u).cross(&w.sub(&u)),
            w.sub(&v).cross(&v),
        ]
        .map(|e| e.dot(&n)),
    )
}

/// `q₁ … q₄` for a time in `[lo, hi]`.
pub(super) fn edge_edge(points: [&Vec3; 8], lo: f64, hi: f64) -> Option<[Bounded; 4]> {
    let [
        ea0_t0,
        ea1_t0,
        eb0_t0,
        eb1_t0,
        ea0_t1,
        ea1_t1,
        eb0_t1,
        eb1_t1,
    ] = points;
    let (t, k) = time_and_count(lo, hi)?;
    let e1 = relative(ea1_t0, ea1_t1, ea0_t0, ea0_t1, t, k);
    let ca = relative(eb0_t0, eb0_t1, ea0_t0, ea0_t1, t, k);
    let da = relative(eb1_t0, eb1_t1, ea0_t0, ea0_t1, t, k);
    let e2 = da.sub(&ca);
    let m = e1.cross(&e2);
    Some([
        ca.cross(&e2).dot(&m),
        e1.sub(&ca).cross(&e2).dot(&m),
        ca.cross(&e1).dot(&m),
        e1.cross(&da).dot(&m),
    ])
}

/// `Some(true)` if every condition is certainly positive (contact, and the
/// normal is non-zero), `Some(false)` if one is certainly negative, else
/// `None`.
pub(super) fn decide(conditions: &[Bounded]) -> Option<bool> {
    if conditions.iter().all(Bounded::certainly_positive) {
        Some(true)
    } else if conditions.iter().any(Bounded::certainly_negative) {
        Some(false)
    } else {
        None
    }
}
