//! The set of times at which two features are within `d`, as a union of
//! regions, each a conjunction of polynomial sign conditions in `t`
//! (docs/design.md §5), and its earliest member, exactly.
//!
//! **Scale.** The 24 coordinates and `d` go onto one integer scale together
//! ([`crate::exact::to_common_scale`]), so that `d²` is an exact integer on
//! that scale; every condition below is homogeneous in the coordinates and
//! `d` jointly (degree 2, 4 or 6), so its sign is the same on both scales.
//!
//! **Regions.** With `u = b − a`, `w = p − a`:
//!
//! - point–point: `|p − q|² − d² ≤ 0`;
//! - point–segment `[a, b]`: `|u|² > 0`, `0 ≤ w·u ≤ |u|²`,
//!   `|w × u|² − d²|u|² ≤ 0`;
//! - point–face, `n = (b − a) × (c − a)`: `|n|² > 0`, the three edge
//!   conditions `((b−a)×(p−a))·n ≥ 0`, `((c−b)×(p−b))·n ≥ 0`,
//!   `((a−c)×(p−c))·n ≥ 0`, and `(n·(p − a))² − d²|n|² ≤ 0`;
//! - segment–segment interiors, `u = a₁ − a₀`, `v = b₁ − b₀`, `w = a₀ − b₀`,
//!   `n = u × v`: `|n|² > 0`, `0 ≤ (u·v)(v·w) − |v|²(u·w) ≤ |n|²`,
//!   `0 ≤ |u|²(v·w) − (u·v)(u·w) ≤ |n|²` (the closest parameters of the two
//!   lines, times `|n|² = |u|²|v|² − (u·v)²`, in `[0, 1]`), and
//!   `(w·n)² − d²|n|² ≤ 0`.
//!
//! A point is within `d` of a closed segment iff it is within `d` of an
//! endpoint or its foot on the line lies on the segment within `d`; of a
//! closed triangle iff it is within `d` of one of its closed edges or its foot
//! on the (non-degenerate) plane lies in the triangle within `d`. Two closed
//! segments are within `d` iff an endpoint of one is within `d` of the other,
//! or the closest points of the two (non-parallel) lines lie on both segments
//! within `d`. The strict conditions `|u|² > 0`, `|n|² > 0` keep a region from
//! reading `0 ≤ 0` where its denominator vanishes; the lower regions cover
//! those instants.
//!
//! **Earliest member.** The within-set `S = {t : dist(t) ≤ d}` is closed (the
//! distance is continuous), so `min S` exists. If `t* = min S > 0` were a root
//! of none of the regions' polynomials, all of them would keep their signs
//! on a neighbourhood of `t*`, and the region holding at `t*` would hold just
//! before it. So `min S` is `0` or a root in `[0, 1]` of one of the
//! polynomials: the candidates are `0` and every such root, each decided
//! exactly ([`Algebraic::sign_of`]); the times between candidates need no
//! test for the *earliest* member (an open cell inside `S` has its left end,
//! a candidate, in the closed `S`).

use std::cmp::Ordering;

use num_bigint::BigInt;

use super::super::earliest::{Candidates, earliest};
use crate::exact::{Algebraic, IntPoly, VecPoly, cross, dot, to_common_scale, vsub};
use crate::math::Vec3;

/// The sign a condition requires.
#[derive(Clone, Copy, Debug)]
enum Required {
    /// `p(t) ≤ 0`.
    AtMostZero,
    /// `p(t) ≥ 0`.
    AtLeastZero,
    /// `p(t) > 0`.
    Positive,
}

/// One polynomial sign condition.
#[derive(Debug)]
struct Condition {
    poly: IntPoly,
    required: Required,
}

impl Condition {
    fn holds(&self, t: &mut Algebraic) -> bool {
        let s = t.sign_of(&self.poly);
        match self.required {
            Required::AtMostZero => s != Ordering::Greater,
            Required::AtLeastZero => s != Ordering::Less,
            Required::Positive => s == Ordering::Greater,
        }
    }
}

/// A conjunction of sign conditions.
#[derive(Debug)]
pub(super) struct Region(Vec<Condition>);

impl Region {
    fn holds(&self, t: &mut Algebraic) -> bool {
        self.0.iter().all(|c| c.holds(t))
    }
}

fn at_most_zero(poly: IntPoly) -> Condition {
    Condition {
        poly,
        required: Required::AtMostZero,
    }
}

fn at_least_zero(poly: IntPoly) -> Condition {
    Condition {
        poly,
        required: Required::AtLeastZero,
    }
}

fn positive(poly: IntPoly) -> Condition {
    Condition {
        poly,
        required: Required::Positive,
    }
}

/// The query's four trajectories and `d²`, all on one integer scale: the
/// eight points in data set row order (four at `t = 0`, then the same four
/// at `t = 1`) and `d` (finite, `≥ 0`).
pub(super) fn scaled(points: [&Vec3; 8], d: f64) -> ([VecPoly; 4], IntPoly) {
    let mut xs = [0.0; 25];
    for (i, p) in points.iter().enumerate() {
        xs[3 * i..3 * i + 3].copy_from_slice(&[p.x, p.y, p.z]);
    }
    xs[24] = d;
    let ints = to_common_scale(&xs);
    let trajectories = std::array::from_fn(|k| {
        std::array::from_fn(|axis| {
            let x0 = &ints[3 * k + axis];
            let x1 = &ints[3 * (k + 4) + axis];
            IntPoly::linear(x0.clone(), x1 - x0)
        })
    });
    let d: &BigInt = &ints[24];
    (trajectories, IntPoly::constant(d * d))
}

/// `|p − q|² ≤ d²`.
pub(super) fn point_point(p: &VecPoly, q: &VecPoly, d2: &IntPoly) -> Region {
    let w = vsub(p, q);
    Region(vec![at_most_zero(dot(&w, &w).sub(d2))])
}

/// `p` within `d` of the segment's interior region (module doc).
pub(super) fn point_segment(p: &VecPoly, a: &VecPoly, b: &VecPoly, d2: &IntPoly) -> Region {
    let u = vsub(b, a);
    let w = vsub(p, a);
    let u2 = dot(&u, &u);
    let h = dot(&w, &u);
    let wu = cross(&w, &u);
    Region(vec![
        at_least_zero(h.clone()),
        at_least_zero(u2.sub(&h)),
        at_most_zero(dot(&wu, &wu).sub(&d2.mul(&u2))),
        positive(u2),
    ])
}

/// `p` within `d` of the triangle's face region (module doc).
pub(super) fn point_face(
    p: &VecPoly,
    a: &VecPoly,
    b: &VecPoly,
    c: &VecPoly,
    d2: &IntPoly,
) -> Region {
    let n = cross(&vsub(b, a), &vsub(c, a));
    let n2 = dot(&n, &n);
    let plane = dot(&n, &vsub(p, a));
    let edge = |u: &VecPoly, w: &VecPoly| at_least_zero(dot(&cross(&vsub(w, u), &vsub(p, u)), &n));
    Region(vec![
        edge(a, b),
        edge(b, c),
        edge(c, a),
        at_most_zero(plane.mul(&plane).sub(&d2.mul(&n2))),
        positive(n2),
    ])
}

/// The segments' interiors within `d` (module doc).
pub(super) fn segment_segment(
    a0: &VecPoly,
    a1: &VecPoly,
    b0: &VecPoly,
    b1: &VecPoly,
    d2: &IntPoly,
) -> Region {
    let u = vsub(a1, a0);
    let v = vsub(b1, b0);
    let w = vsub(a0, b0);
    let n = cross(&u, &v);
    let n2 = dot(&n, &n);
    let (uu, vv, uv) = (dot(&u, &u), dot(&v, &v), dot(&u, &v));
    let (uw, vw) = (dot(&u, &w), dot(&v, &w));
    let s = uv.mul(&vw).sub(&vv.mul(&uw));
    let r = uu.mul(&vw).sub(&uv.mul(&uw));
    let plane = dot(&w, &n);
    Region(vec![
        at_least_zero(s.clone()),
        at_least_zero(n2.sub(&s)),
        at_least_zero(r.clone()),
        at_least_zero(n2.sub(&r)),
        at_most_zero(plane.mul(&plane).sub(&d2.mul(&n2))),
        positive(n2),
    ])
}

/// The earliest `t ∈ [0, 1]` at which one of the regions holds (module doc).
pub(super) fn earliest_within(regions: &[Region]) -> Option<Algebraic> {
    let polys = regions
        .iter()
        .flat_map(|r| r.0.iter().map(|c| c.poly.clone()));
    earliest(Candidates::zero_and_roots_of(polys), |t| {
        regions.iter().any(|r| r.holds(t))
    })
}
