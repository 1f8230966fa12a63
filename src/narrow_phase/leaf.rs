//! Relative positions at an uncertain time, as [`Bounded`] leaves (the
//! running error bounds of docs/design.md §8: Higham 2002, Lemma 3.1).
//!
//! At a root bracket `[lo, hi]` the contact time `α` is only known to lie in
//! the bracket. The inside conditions are polynomials in relative vectors
//! `u(t) = x(t) − y(t) = u₀ + t(u₁ − u₀)` with `u₀ = x₀ − y₀`, `u₁ = x₁ − y₁`.
//! We compute `ũ₀ = fl(x₀ − y₀)`, `ũ₁ = fl(x₁ − y₁)` and, at a double
//! `t̃ ∈ [lo, hi]`, `ũ = fl(ũ₀ + fl(t̃ · fl(ũ₁ − ũ₀)))`. With
//! `U = |u₀| + |u₁|` (which bounds `|u(t)|` on `[0, 1]`):
//!
//! ```text
//! inputs   |lerp(ũ₀, ũ₁; t̃) − u(t̃)| ≤ (1 − t̃)·u|u₀| + t̃·u|u₁| ≤ u·U
//! rounding |ũ − lerp(ũ₀, ũ₁; t̃)|    ≤ γ₃(|ũ₀| + t̃(|ũ₀| + |ũ₁|)) ≤ 2γ₃(1 + u)·U
//! time     |u(t̃) − u(α)| = |t̃ − α|·|u₁ − u₀| ≤ h·U ≤ γ_K·U   (K = ⌈h/u⌉, h = hi − lo)
//! ```
//!
//! so `ũ` is a [`Bounded`] for the exact `u(α)`, whatever `α` in the bracket,
//! with magnitude `m = fl(|ũ₀| + |ũ₁|) ≥ U(1 − u)²` and rounding count
//! `8 + K` (since `u + 2γ₃(1 + u) ≤ γ₈`). Everything computed from such leaves
//! carries a bound valid at the unknown root.

use crate::math::{Bounded, BoundedVec3, Vec3};

/// Rounding count of a leaf before the time term `K`.
pub const LEAF_BASE_COUNT: u32 = 8;

/// `x(t) − y(t)` for points moving `x_t0 → x_t1` and `y_t0 → y_t1`, computed
/// at `t` as a leaf valid for any time within the bracket that `k` was made
/// for ([`super::roots::leaf_rounding_count`]).
#[inline]
pub fn relative(x_t0: &Vec3, x_t1: &Vec3, y_t0: &Vec3, y_t1: &Vec3, t: f64, k: u32) -> BoundedVec3 {
    BoundedVec3(std::array::from_fn(|i| {
        let u0 = x_t0[i] - y_t0[i];
        let u1 = x_t1[i] - y_t1[i];
        Bounded::with_error(u0 + t * (u1 - u0), u0.abs() + u1.abs(), k)
    }))
}
