//! The contact conditions at a coplanar instant, on [`Bounded`] leaves valid
//! over a time bracket: shared by the fast path and the oracle's float filter.
//!
//! - Vertex–face, relative to `f0`: `u = f1 − f0`, `v = f2 − f0`,
//!   `w = vertex − f0`, `n = u × v`; the vertex is inside the closed triangle
//!   iff `g₁ = (u×w)·n`, `g₂ = ((v−u)×(w−u))·n`, `g₃ = ((w−v)×v)·n` are all
//!   `≥ 0` (valid where `n ≠ 0`; see [`super::oracle`]).
//! - Edge–edge, relative to `ea0`: `e1 = ea1 − ea0`, `ca = eb0 − ea0`,
//!   `da = eb1 − ea0`, `e2 = da − ca`, `m = e1 × e2`; the segments cross iff
//!   `q₁ = (ca×e2)·m`, `q₂ = ((e1−ca)×e2)·m`, `q₃ = (ca×e1)·m`,
//!   `q₄ = (e1×da)·m` are all `≥ 0` (valid where `m ≠ 0`).
//!
//! A certified strictly positive set decides contact (and implies `n ≠ 0` or
//! `m ≠ 0`); one certified negative value decides its absence; anything else
//! is undecided.

use super::leaf::relative;
use super::roots::{Bracket, T_MIN, leaf_rounding_count};
use crate::math::{Bounded, Vec3};

/// The evaluation time for `bracket` and the leaves' rounding count, or
/// `None` if the bracket is too wide or its midpoint outside the error
/// model's range (`0` or `[2⁻⁶⁰, 1]`).
#[inline]
fn time_and_count(bracket: &Bracket) -> Option<(f64, u32)> {
    let t = 0.5 * (bracket.lo + bracket.hi);
    if t != 0.0 && !(T_MIN..=1.0).contains(&t) {
        return None;
    }
    Some((t, leaf_rounding_count(bracket)?))
}

/// `g₁, g₂, g₃` at a time in `bracket`, or `None` if the bracket is too wide.
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn vertex_face(
    v_t0: &Vec3,
    f0_t0: &Vec3,
    f1_t0: &Vec3,
    f2_t0: &Vec3,
    v_t1: &Vec3,
    f0_t1: &Vec3,
    f1_t1: &Vec3,
    f2_t1: &Vec3,
    bracket: &Bracket,
) -> Option<[Bounded; 3]> {
    let (t, k) = time_and_count(bracket)?;
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

/// `q₁ … q₄` at a time in `bracket`, or `None` if the bracket is too wide.
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn edge_edge(
    ea0_t0: &Vec3,
    ea1_t0: &Vec3,
    eb0_t0: &Vec3,
    eb1_t0: &Vec3,
    ea0_t1: &Vec3,
    ea1_t1: &Vec3,
    eb0_t1: &Vec3,
    eb1_t1: &Vec3,
    bracket: &Bracket,
) -> Option<[Bounded; 4]> {
    let (t, k) = time_and_count(bracket)?;
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

/// `Some(true)` if every condition is certainly positive, `Some(false)` if
/// one is certainly negative, else `None`.
#[inline]
pub fn decide(conditions: &[Bounded]) -> Option<bool> {
    if conditions.iter().all(Bounded::certainly_positive) {
        Some(true)
    } else if conditions.iter().any(Bounded::certainly_negative) {
        Some(false)
    } else {
        None
    }
}
