//! The contact conditions at a coplanar instant, on [`Bounded`] leaves valid
//! over a time bracket ([`super::leaf`]), for the solver's float tiers
//! (the inside tests of Provot 1997 at a root of the coplanarity cubic: the
//! contact definition of docs/design.md §1 written as signs, the same conditions as the
//! exact [`super::oracle`]).
//!
//! - Vertex–face, relative to `f0`: `u = f1 − f0`, `v = f2 − f0`,
//!   `w = vertex − f0`, `n = u × v`; the vertex is inside the closed triangle
//!   iff `gᵢ = cᵢ·n ≥ 0` for `c₁ = u×w`, `c₂ = (v−u)×(w−u)`, `c₃ = (w−v)×v`
//!   (valid where `n ≠ 0`; see [`super::oracle`]).
//! - Edge–edge, relative to `ea0`: `e1 = ea1 − ea0`, `ca = eb0 − ea0`,
//!   `da = eb1 − ea0`, `e2 = da − ca`, `m = e1 × e2`; the segments cross iff
//!   `qᵢ = cᵢ·m ≥ 0` for `c₁ = ca×e2`, `c₂ = (e1−ca)×e2`, `c₃ = ca×e1`,
//!   `c₄ = e1×da` (valid where `m ≠ 0`).
//!
//! **Decision.** One certainly negative condition decides that there is no
//! contact at this root (it implies `n ≠ 0`, resp. `m ≠ 0`, and the point is
//! outside). Every condition certainly positive or exactly zero, at least one
//! positive, decides contact (the positive one implies `n ≠ 0`).
//!
//! When the conditions leave it open — typically because `n` or `m` is tiny
//! (a sliver triangle, nearly parallel edges) and every `gᵢ`, `qᵢ` carries
//! it as a factor — products of the `cᵢ` themselves decide, without `n` or
//! `m`. At a coplanar instant every `cᵢ` is normal to the common plane.
//! VF: `c₁ + c₂ + c₃ = n` for any vertex position, so if every
//! `cᵢ·cⱼ > 0` then every `gᵢ = cᵢ·n > 0` (contact); if some `cᵢ·cⱼ < 0`
//! the `cᵢ` point different ways, which no point of the closed triangle
//! allows (inside a proper triangle every `cᵢ` is a non-negative multiple of
//! `n`, on a degenerate one every `cᵢ` is zero). EE: `c₃·c₄ = −(ca×e1)·(da×e1)`
//! is negative iff `eb0` and `eb1` are strictly on the same side of line
//! `a`, and `c₁·c₂` likewise for `ea0`, `ea1` and line `b`: either certainly
//! negative means no contact, both certainly positive a proper crossing.
//! Last, an edge direction along which the two objects' projections are
//! certainly disjoint separates them (nearly collinear edges, a vertex
//! beyond a sliver triangle's ends): no contact.
//!
//! **Exact zeros.** A condition is exactly zero when its magnitude is zero
//! (a structural zero; [`super::certified`]), or by this lemma: the
//! coplanarity cubic is `f = ±aᵢ·cᵢ` for each condition, with
//!
//! ```text
//! VF: f = −v·c₁ = u·c₂ = −(u − v)·c₃   EE: f = −e1·c₁ = e1·c₂ = e2·c₃ = ca·c₄
//! ```
//!
//! (expand `det[u, v, w]`, resp. `det[e1, e2, ca]`, by columns; for the
//! lemma each `cᵢ` is taken as the cross product of two differences of input
//! points, e.g. `c₂ = (f2 − f1) × (vertex − f1)`, which equals the one above
//! as a polynomial). If two components of `cᵢ` vanish identically — its
//! factors have coordinates that are differences of equal inputs at both
//! ends — then `cᵢ = (cᵢ)ⱼ·eⱼ` at every time and `f = ±(aᵢ)ⱼ (cᵢ)ⱼ`. At a
//! root `α` of `f` in the bracket, if `(aᵢ)ⱼ(α)` is certainly non-zero then `(cᵢ)ⱼ(α) = 0`, hence `cᵢ(α) = 0` and the
//! condition `cᵢ(α)·n(α)` is exactly zero: the point touches an edge (VF) or
//! an end point lies on the other edge's line (EE) exactly. This is the case
//! of meshes whose vertices share a coordinate exactly (flat cloth, axis-
//! aligned boxes).

use super::certified::{CVec3, Certified};
use super::leaf::relative;
use super::roots::{Bracket, T_MIN, leaf_rounding_count};
use crate::math::{Bounded, BoundedDd, UNIT_ROUNDOFF, Vec3};

/// The evaluation time for `bracket` and the leaves' rounding count, or
/// `None` if the bracket is too wide or outside the error model's time range
/// (`0` or `[2⁻⁶⁰, 1]`). The time is the midpoint, or `0` for a bracket
/// `[0, h]` with `h/2 < 2⁻⁶⁰` (the leaves' time term then covers `h`, the
/// bracket's whole width).
#[inline]
fn time_and_count(bracket: &Bracket) -> Option<(f64, u32)> {
    let mut t = 0.5 * (bracket.lo + bracket.hi);
    if bracket.lo == 0.0 && t < T_MIN {
        t = 0.0;
    }
    if t != 0.0 && !(T_MIN..=1.0).contains(&t) {
        return None;
    }
    Some((t, leaf_rounding_count(bracket)?))
}

/// Contact of the vertex with the closed triangle at the root in `bracket`:
/// `Some(decision)` when certified, `None` when undecided.
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
) -> Option<bool> {
    let (t, k) = time_and_count(bracket)?;
    let u = relative(f1_t0, f1_t1, f0_t0, f0_t1, t, k);
    let v = relative(f2_t0, f2_t1, f0_t0, f0_t1, t, k);
    let w = relative(v_t0, v_t1, f0_t0, f0_t1, t, k);
    let n = u.cross(&v);
    let c = [
        u.cross(&w),
        v.sub(&u).cross(&w.sub(&u)),
        w.sub(&v).cross(&v),
    ];
    let a = [v, u, u.sub(&v)];
    let zeros = vf_zeros([v_t0, f0_t0, f1_t0, f2_t0, v_t1, f0_t1, f1_t1, f2_t1]);
    primary(c.map(|ci| sign(&ci.dot(&n))), |i| {
        vanishes_at_the_root(zeros[i], |j| sign(&a[i].0[j]))
    })
    .or_else(|| secondary([c[0].dot(&c[1]), c[1].dot(&c[2]), c[2].dot(&c[0])].map(|x| sign(&x))))
    .or_else(|| {
        let to_p = [w, w.sub(&u), w.sub(&v)];
        separated([u, v, v.sub(&u)].map(|e| to_p.map(|d| sign(&d.dot(&e))))).then_some(false)
    })
}

/// Contact of the two closed segments at the root in `bracket`:
/// `Some(decision)` when certified, `None` when undecided.
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
) -> Option<bool> {
    let (t, k) = time_and_count(bracket)?;
    let e1 = relative(ea1_t0, ea1_t1, ea0_t0, ea0_t1, t, k);
    let ca = relative(eb0_t0, eb0_t1, ea0_t0, ea0_t1, t, k);
    let da = relative(eb1_t0, eb1_t1, ea0_t0, ea0_t1, t, k);
    let e2 = da.sub(&ca);
    let m = e1.cross(&e2);
    let c = [
        ca.cross(&e2),
        e1.sub(&ca).cross(&e2),
        ca.cross(&e1),
        e1.cross(&da),
    ];
    let a = [e1, e1, e2, ca];
    let zeros = ee_zeros([
        ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1,
    ]);
    primary(c.map(|ci| sign(&ci.dot(&m))), |i| {
        vanishes_at_the_root(zeros[i], |j| sign(&a[i].0[j]))
    })
    .or_else(|| secondary([c[2].dot(&c[3]), c[0].dot(&c[1])].map(|x| sign(&x))))
    .or_else(|| {
        let a_to_b = [ca, da, ca.sub(&e1), da.sub(&e1)];
        separated([e1, e2].map(|e| a_to_b.map(|d| sign(&d.dot(&e))))).then_some(false)
    })
}

/// [`vertex_face`] in the precise tier: every quantity in double-double
/// arithmetic at the bracket's two ends (see [`at_the_root`]).
#[allow(clippy::too_many_arguments)]
pub fn vertex_face_precise(
    v_t0: &Vec3,
    f0_t0: &Vec3,
    f1_t0: &Vec3,
    f2_t0: &Vec3,
    v_t1: &Vec3,
    f0_t1: &Vec3,
    f1_t1: &Vec3,
    f2_t1: &Vec3,
    bracket: &Bracket,
) -> Option<bool> {
    let at = |t: f64| {
        let u = leaf_dd(f1_t0, f1_t1, f0_t0, f0_t1, t);
        let v = leaf_dd(f2_t0, f2_t1, f0_t0, f0_t1, t);
        let w = leaf_dd(v_t0, v_t1, f0_t0, f0_t1, t);
        let n = u.cross(&v);
        let c = [
            u.cross(&w),
            v.sub(&u).cross(&w.sub(&u)),
            w.sub(&v).cross(&v),
        ];
        let to_p = [w, w.sub(&u), w.sub(&v)];
        VfValues {
            g: c.map(|ci| ci.dot(&n)),
            pairs: [c[0].dot(&c[1]), c[1].dot(&c[2]), c[2].dot(&c[0])],
            projections: [u, v, v.sub(&u)].map(|e| to_p.map(|d| d.dot(&e))),
            a: [v, u, u.sub(&v)].map(|x| x.0),
        }
    };
    let root = Root::new(bracket, at)?;
    let zeros = vf_zeros([v_t0, f0_t0, f1_t0, f2_t0, v_t1, f0_t1, f1_t1, f2_t1]);
    primary::<3>(std::array::from_fn(|i| root.sign(|x| &x.g[i])), |i| {
        vanishes_at_the_root(zeros[i], |j| root.sign(|x| &x.a[i][j]))
    })
    .or_else(|| secondary::<3>(std::array::from_fn(|i| root.sign(|x| &x.pairs[i]))))
    .or_else(|| {
        separated::<3, 3>(std::array::from_fn(|e| {
            std::array::from_fn(|d| root.sign(|x| &x.projections[e][d]))
        }))
        .then_some(false)
    })
}

/// [`edge_edge`] in the precise tier: every quantity in double-double
/// arithmetic at the bracket's two ends (see [`at_the_root`]).
#[allow(clippy::too_many_arguments)]
pub fn edge_edge_precise(
    ea0_t0: &Vec3,
    ea1_t0: &Vec3,
    eb0_t0: &Vec3,
    eb1_t0: &Vec3,
    ea0_t1: &Vec3,
    ea1_t1: &Vec3,
    eb0_t1: &Vec3,
    eb1_t1: &Vec3,
    bracket: &Bracket,
) -> Option<bool> {
    let at = |t: f64| {
        let e1 = leaf_dd(ea1_t0, ea1_t1, ea0_t0, ea0_t1, t);
        let ca = leaf_dd(eb0_t0, eb0_t1, ea0_t0, ea0_t1, t);
        let da = leaf_dd(eb1_t0, eb1_t1, ea0_t0, ea0_t1, t);
        let e2 = da.sub(&ca);
        let m = e1.cross(&e2);
        let c = [
            ca.cross(&e2),
            e1.sub(&ca).cross(&e2),
            ca.cross(&e1),
            e1.cross(&da),
        ];
        let a_to_b = [ca, da, ca.sub(&e1), da.sub(&e1)];
        EeValues {
            q: c.map(|ci| ci.dot(&m)),
            sides: [c[2].dot(&c[3]), c[0].dot(&c[1])],
            projections: [e1, e2].map(|e| a_to_b.map(|d| d.dot(&e))),
            a: [e1, e1, e2, ca].map(|x| x.0),
        }
    };
    let root = Root::new(bracket, at)?;
    let zeros = ee_zeros([
        ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1,
    ]);
    primary::<4>(std::array::from_fn(|i| root.sign(|x| &x.q[i])), |i| {
        vanishes_at_the_root(zeros[i], |j| root.sign(|x| &x.a[i][j]))
    })
    .or_else(|| secondary::<2>(std::array::from_fn(|i| root.sign(|x| &x.sides[i]))))
    .or_else(|| {
        separated::<2, 4>(std::array::from_fn(|e| {
            std::array::from_fn(|d| root.sign(|x| &x.projections[e][d]))
        }))
        .then_some(false)
    })
}

/// The precise tier's vertex–face quantities at one time.
#[derive(Clone, Copy)]
struct VfValues {
    g: [BoundedDd; 3],
    pairs: [BoundedDd; 3],
    projections: [[BoundedDd; 3]; 3],
    a: [[BoundedDd; 3]; 3],
}

/// The precise tier's edge–edge quantities at one time.
#[derive(Clone, Copy)]
struct EeValues {
    q: [BoundedDd; 4],
    sides: [BoundedDd; 2],
    projections: [[BoundedDd; 4]; 2],
    a: [[BoundedDd; 3]; 4],
}

/// `x(t) − y(t)` at an exact double `t` in double-double arithmetic, with
/// its magnitude raised to `U = |x₀ − y₀| + |x₁ − y₁|` (module doc of
/// [`at_the_root`]).
#[inline]
fn leaf_dd(x_t0: &Vec3, x_t1: &Vec3, y_t0: &Vec3, y_t1: &Vec3, t: f64) -> CVec3<BoundedDd> {
    CVec3(std::array::from_fn(|i| {
        let u0 = BoundedDd::difference(x_t0[i], y_t0[i]);
        let u1 = BoundedDd::difference(x_t1[i], y_t1[i]);
        let mut leaf = u0 + (u1 - u0).scale(t);
        // u0.m ≥ |x₀ − y₀| and u1.m ≥ |x₁ − y₁| (exact differences).
        leaf.m = leaf.m.max((u0.m + u1.m) * UP);
        leaf
    }))
}

/// The quantities at both ends of a root's bracket, and the bound on their
/// curvature over it.
///
/// **At the root.** Every quantity `P` here is a polynomial of degree
/// `d ≤ 4` in `t`, a sum of products of leaves `u(t) = u₀ + t(u₁ − u₀)`
/// with `|u(t)| ≤ U` and `|u₁ − u₀| ≤ U` on `[0, 1]`; its second derivative
/// is at most `d(d − 1)·M ≤ 12·M`, with `M` the magnitude on leaf magnitudes
/// `U` — which the leaves of [`leaf_dd`] carry, so each end's `m ≥ M`. For
/// the root `α` in `[lo, hi]`, `h = hi − lo`, linear interpolation gives
/// `P(α) ≥ min(P(lo), P(hi)) − (h²/8)·12·M` (and the mirror bound above): a
/// sign certified at both ends with margin `1.5·h²·M` is the sign at `α`.
/// Unlike a leaf evaluated once with a time error `h·U`, the time enters
/// squared, which resolves quantities that vanish to many more digits than
/// the root's position is known to (nearly parallel edges).
struct Root<V> {
    lo: V,
    hi: V,
    /// `1.5·h²`, rounded up generously (`2·h²`, `h` rounded up); or `8h`
    /// (twice the `4h` needed) for a bracket below the time range (see [`Root::new`]). Multiplied by
    /// the magnitude, a bound on how far the value at the root can be from
    /// the values at the ends.
    curvature: f64,
}

impl<V> Root<V> {
    /// Evaluates at both ends (once for a point bracket); `None` outside the
    /// error model's time range. A bracket `[0, h]` with `h < 2⁻⁶⁰` is
    /// evaluated at `0` only, with the margin `8h·M ≥ 4h·M ≥ h·max|P'|` instead of
    /// the curvature term (`|P'| ≤ d·M` as for `P''`).
    fn new(bracket: &Bracket, at: impl Fn(f64) -> V) -> Option<Root<V>>
    where
        V: Clone,
    {
        let in_range = |t: f64| t == 0.0 || (T_MIN..=1.0).contains(&t);
        if bracket.lo == 0.0 && bracket.hi < T_MIN {
            let zero = at(0.0);
            return Some(Root {
                lo: zero.clone(),
                hi: zero,
                curvature: 8.0 * bracket.hi,
            });
        }
        if !in_range(bracket.lo) || !in_range(bracket.hi) {
            return None;
        }
        let lo = at(bracket.lo);
        let (hi, h) = if bracket.hi == bracket.lo {
            (lo.clone(), 0.0)
        } else {
            (at(bracket.hi), (bracket.hi - bracket.lo) * UP)
        };
        Some(Root {
            lo,
            hi,
            curvature: 2.0 * h * h,
        })
    }

    /// The certified sign at the root of the quantity `pick` selects.
    fn sign(&self, pick: impl Fn(&V) -> &BoundedDd) -> Option<i8> {
        at_the_root(pick(&self.lo), pick(&self.hi), self.curvature)
    }
}

/// The sign at the root of a quantity known at both ends of its bracket
/// (see [`Root`]): `Some(0)` for a structural zero.
#[inline]
fn at_the_root(lo: &BoundedDd, hi: &BoundedDd, curvature: f64) -> Option<i8> {
    if lo.is_exact_zero() && hi.is_exact_zero() {
        return Some(0);
    }
    let margin = |x: &BoundedDd| (x.error_bound() + curvature * lo.m.max(hi.m) * UP) * UP;
    let (ml, mh) = (margin(lo), margin(hi));
    if lo.hi * DOWN > ml && hi.hi * DOWN > mh {
        Some(1)
    } else if -lo.hi * DOWN > ml && -hi.hi * DOWN > mh {
        Some(-1)
    } else {
        None
    }
}

/// `1 + 4u`: rounds a non-negative sum or product of doubles upward.
const UP: f64 = 1.0 + 4.0 * UNIT_ROUNDOFF;
/// `1 − 4u`: keeps a double below the double-double value it leads.
const DOWN: f64 = 1.0 - 4.0 * UNIT_ROUNDOFF;

/// The certified sign of a fast-tier value, `Some(0)` for a structural zero.
#[inline]
fn sign(x: &Bounded) -> Option<i8> {
    Certified::sign(x)
}

/// The primary decision from the signs of the conditions (module doc);
/// `exact_zero(i)` tells whether an uncertain condition `i` is exactly zero
/// by the lemma.
#[inline]
fn primary<const K: usize>(
    signs: [Option<i8>; K],
    exact_zero: impl Fn(usize) -> bool,
) -> Option<bool> {
    if signs.contains(&Some(-1)) {
        return Some(false);
    }
    if !signs.contains(&Some(1)) {
        return None;
    }
    signs
        .iter()
        .enumerate()
        .all(|(i, s)| s.is_some() || exact_zero(i))
        .then_some(true)
}

/// The decision from products of the `cᵢ` (module doc): one certainly
/// negative, no contact; all certainly positive, contact.
#[inline]
fn secondary<const J: usize>(signs: [Option<i8>; J]) -> Option<bool> {
    if signs.contains(&Some(-1)) {
        Some(false)
    } else {
        signs.iter().all(|&s| s == Some(1)).then_some(true)
    }
}

/// `true` when, for some direction, every vector between the two objects
/// has a certainly positive projection, or every one a certainly negative
/// one: the direction separates them strictly.
#[inline]
fn separated<const D: usize, const M: usize>(signs: [[Option<i8>; M]; D]) -> bool {
    signs
        .iter()
        .any(|s| s.iter().all(|&x| x == Some(1)) || s.iter().all(|&x| x == Some(-1)))
}

/// Which coordinates of `x(t) − y(t)` are identically zero, for the two
/// factors `x`, `y` of each `cᵢ = x × y` of vertex–face (module doc):
/// `c₁ = (f1 − f0) × (v − f0)`, `c₂ = (f2 − f1) × (v − f1)`,
/// `c₃ = (f0 − f2) × (v − f2)`.
fn vf_zeros(q: [&Vec3; 8]) -> [([bool; 3], [bool; 3]); 3] {
    let [v, f0, f1, f2] = [0, 1, 2, 3].map(|i| (q[i], q[i + 4]));
    [
        (zeros(f1, f0), zeros(v, f0)),
        (zeros(f2, f1), zeros(v, f1)),
        (zeros(f0, f2), zeros(v, f2)),
    ]
}

/// As [`vf_zeros`] for edge–edge: `c₁ = (eb0 − ea0) × (eb1 − eb0)`,
/// `c₂ = (ea1 − eb0) × (eb1 − eb0)`, `c₃ = (eb0 − ea0) × (ea1 − ea0)`,
/// `c₄ = (ea1 − ea0) × (eb1 − ea0)`.
fn ee_zeros(q: [&Vec3; 8]) -> [([bool; 3], [bool; 3]); 4] {
    let [a0, a1, b0, b1] = [0, 1, 2, 3].map(|i| (q[i], q[i + 4]));
    [
        (zeros(b0, a0), zeros(b1, b0)),
        (zeros(a1, b0), zeros(b1, b0)),
        (zeros(b0, a0), zeros(a1, a0)),
        (zeros(a1, a0), zeros(b1, a0)),
    ]
}

/// A point moving from `.0` at `t = 0` to `.1` at `t = 1`.
type Moving<'a> = (&'a Vec3, &'a Vec3);

/// Which coordinates of `x(t) − y(t)` are identically zero (equal inputs at
/// both ends).
#[inline]
fn zeros(x: Moving, y: Moving) -> [bool; 3] {
    std::array::from_fn(|j| x.0[j] == y.0[j] && x.1[j] == y.1[j])
}

/// `true` when `c(α) = 0` follows from `f(α) = 0` and `f = ±a·c` for
/// `c = x × y` (module doc): `(zx, zy)` tell which coordinates of `x`, `y`
/// are identically zero; exactly one component `j` of `c` may then be
/// non-zero, and `a_sign(j)`, the sign of `aⱼ` at the root, must be certainly
/// non-zero.
#[inline]
fn vanishes_at_the_root(
    (zx, zy): ([bool; 3], [bool; 3]),
    a_sign: impl Fn(usize) -> Option<i8>,
) -> bool {
    // (x × y)ⱼ = x_{j+1} y_{j+2} − x_{j+2} y_{j+1}.
    let zero: [bool; 3] = std::array::from_fn(|j| {
        let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
        (zx[j1] || zy[j2]) && (zx[j2] || zy[j1])
    });
    let live = match zero {
        [false, true, true] => 0,
        [true, false, true] => 1,
        [true, true, false] => 2,
        _ => return false,
    };
    matches!(a_sign(live), Some(1 | -1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f64, y: f64, z: f64) -> Vec3 {
        Vec3::new(x, y, z)
    }

    #[test]
    fn a_vertex_crossing_an_edge_of_a_flat_configuration_is_exact() {
        // v, f1, f2 all keep y = 0.3: the vertex meets the plane of the
        // triangle on the line f1 f2, so g₂ is exactly zero at the root
        // t = ½ (a contact on the closed triangle). The float value of g₂ is
        // not certified; the lemma is.
        let y = 0.3;
        let q = [
            v(0.5, y, 1.0),
            v(0.5, -1.0, 0.0),
            v(0.0, y, 0.0),
            v(1.0, y, 0.0),
            v(0.5, y, -1.0),
            v(0.5, -1.0, 0.0),
            v(0.0, y, 0.0),
            v(1.0, y, 0.0),
        ];
        let br = Bracket { lo: 0.5, hi: 0.5 };
        assert_eq!(
            vertex_face(&q[0], &q[1], &q[2], &q[3], &q[4], &q[5], &q[6], &q[7], &br),
            Some(true)
        );
        // Moved off the edge line: outside, g₂ certainly negative.
        let mut off = q;
        off[0].y = 0.5;
        off[4].y = 0.5;
        assert_eq!(
            vertex_face(
                &off[0], &off[1], &off[2], &off[3], &off[4], &off[5], &off[6], &off[7], &br
            ),
            Some(false)
        );
    }
}
