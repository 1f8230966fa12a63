//! Exact incidences of moving features at one algebraic time `t`: where a
//! point lies in a closed triangle, whether two closed segments meet (and
//! how), coplanarity and degeneracy (Yu, Shen & Chang 2000; docs/design.md
//! §3).
//!
//! Every test is the sign of an integer polynomial (built from
//! [`super::trajectories`]) at `t`, decided by
//! [`crate::exact::Algebraic::sign_of`], so every answer is exact. The
//! formulas are those of the crate's oracle (`narrow_phase::oracle`), written
//! here as tests at a given time rather than searches for the earliest one:
//!
//! - point `p` in triangle `x₀x₁x₂` (the paper's Eqs. (1) and (3)): with
//!   `n = (x₁ − x₀) × (x₂ − x₀)`, `p` is in the plane iff `n·(p − x₀) = 0`,
//!   and then `g_k = ((x_{k+1} − x_k) × (p − x_k))·n = |n|²·λ_{k+2}` is the
//!   barycentric coordinate of the corner opposite edge `k`, scaled by
//!   `|n|² > 0`; `p` is in the closed triangle iff all `g_k ≥ 0`, and its
//!   carrier (smallest face containing it) is `{k + 2 : g_k > 0}`;
//! - segments `p₀p₁`, `q₀q₁` (Eqs. (5) and (7)): with `m = (p₁ − p₀) × (q₁ − q₀)
//!   ≠ 0` and the four points coplanar, `p₀ + s(p₁ − p₀) = q₀ + r(q₁ − q₀)`
//!   with `s|m|² = ((q₀ − p₀) × (q₁ − q₀))·m`, `(1 − s)|m|² = ((p₁ − q₀) ×
//!   (q₁ − q₀))·m`, `r|m|² = ((q₀ − p₀) × (p₁ − p₀))·m`, `(1 − r)|m|² =
//!   ((p₁ − p₀) × (q₁ − p₀))·m`. Where `m = 0` (parallel, collinear or
//!   zero-length edges) the segments meet iff an end point of one lies on
//!   the other (the paper's "non-unique solution" case, a segment).
//!
//! **Zero-area triangles.** Where `n = 0` at `t`, the closed triangle is the
//! union of its edges, and a point's carrier is chosen by a fixed rule: the
//! first corner (0, 1, 2) it coincides with, else the first edge (0, 1, 2)
//! containing it. The minimal face is not unique there (a point inside the
//! middle corner's two short edges lies on the long edge too), so the rule
//! is a convention; contacts involving such a triangle are flagged
//! `degenerate`.

use std::cmp::Ordering::{Equal, Greater, Less};

use super::feature::Corners;
use crate::exact::{Algebraic, IntPoly, VecPoly, cross, dot, vsub};

fn zero_at(p: &IntPoly, t: &mut Algebraic) -> bool {
    t.sign_of(p) == Equal
}

fn normal(x: [&VecPoly; 3]) -> VecPoly {
    cross(&vsub(x[1], x[0]), &vsub(x[2], x[0]))
}

/// Whether the triangle has zero area at `t` (`|n|² = 0`).
pub fn degenerate(x: [&VecPoly; 3], t: &mut Algebraic) -> bool {
    let n = normal(x);
    zero_at(&dot(&n, &n), t)
}

/// Whether `p` lies in the plane of the triangle at `t` (always, for a
/// zero-area triangle).
pub fn in_plane(p: &VecPoly, x: [&VecPoly; 3], t: &mut Algebraic) -> bool {
    zero_at(&dot(&normal(x), &vsub(p, x[0])), t)
}

/// Whether the segments are parallel at `t` (`|m|² = 0`; a zero-length
/// segment is parallel to everything).
pub fn parallel(p0: &VecPoly, p1: &VecPoly, q0: &VecPoly, q1: &VecPoly, t: &mut Algebraic) -> bool {
    let m = cross(&vsub(p1, p0), &vsub(q1, q0));
    zero_at(&dot(&m, &m), t)
}

/// Whether `p` lies on the closed segment `a b` at `t` (a zero-length
/// segment is its point).
pub fn on_segment(p: &VecPoly, a: &VecPoly, b: &VecPoly, t: &mut Algebraic) -> bool {
    let e = vsub(b, a);
    let pa = vsub(p, a);
    if zero_at(&dot(&e, &e), t) {
        return zero_at(&dot(&pa, &pa), t);
    }
    let w = cross(&e, &pa);
    zero_at(&dot(&w, &w), t)
        && t.sign_of(&dot(&pa, &e)) != Less
        && t.sign_of(&dot(&vsub(b, p), &e)) != Less
}

/// Where `p` lies in the closed triangle `x` at `t`: `None` outside, else
/// the carrier (smallest face containing it; the fixed rule of the module
/// doc for a zero-area triangle).
pub fn locate_point(p: &VecPoly, x: [&VecPoly; 3], t: &mut Algebraic) -> Option<Corners> {
    let n = normal(x);
    if !zero_at(&dot(&n, &vsub(p, x[0])), t) {
        return None;
    }
    if zero_at(&dot(&n, &n), t) {
        return locate_point_degenerate(p, x, t);
    }
    let mut bits = 0u8;
    for k in 0..3 {
        let (u, w) = (x[k], x[(k + 1) % 3]);
        let g = dot(&cross(&vsub(w, u), &vsub(p, u)), &n);
        match t.sign_of(&g) {
            Less => return None,
            Greater => bits |= 1 << ((k + 2) % 3),
            Equal => {}
        }
    }
    // Σ g_k = |n|² > 0, so some g_k is positive.
    Corners::from_bits(bits)
}

/// [`locate_point`] for a triangle of zero area at `t`: the first corner `p`
/// coincides with, else the first edge containing it.
fn locate_point_degenerate(p: &VecPoly, x: [&VecPoly; 3], t: &mut Algebraic) -> Option<Corners> {
    for (i, xi) in x.iter().enumerate() {
        let d = vsub(p, xi);
        if zero_at(&dot(&d, &d), t) {
            return Some(Corners::vertex(i));
        }
    }
    (0..3)
        .find(|&k| on_segment(p, x[k], x[(k + 1) % 3], t))
        .map(Corners::edge)
}

/// How two closed segments meet at `t`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EdgeMeeting {
    /// No common point.
    Apart,
    /// Not parallel, crossing at a point interior to both (`0 < s, r < 1`).
    Crossing,
    /// They meet, but not as a [`EdgeMeeting::Crossing`]: at an end point of
    /// one of them, or along a collinear overlap (parallel segments).
    Touching,
}

/// How segments `p₀p₁` and `q₀q₁` meet at `t` (module doc).
pub fn edge_meeting(
    p0: &VecPoly,
    p1: &VecPoly,
    q0: &VecPoly,
    q1: &VecPoly,
    t: &mut Algebraic,
) -> EdgeMeeting {
    let e1 = vsub(p1, p0);
    let e2 = vsub(q1, q0);
    let m = cross(&e1, &e2);
    if zero_at(&dot(&m, &m), t) {
        let meet = on_segment(p0, q0, q1, t)
            || on_segment(p1, q0, q1, t)
            || on_segment(q0, p0, p1, t)
            || on_segment(q1, p0, p1, t);
        return if meet {
            EdgeMeeting::Touching
        } else {
            EdgeMeeting::Apart
        };
    }
    let d = vsub(q0, p0);
    if !zero_at(&dot(&m, &d), t) {
        return EdgeMeeting::Apart;
    }
    let mut strict = true;
    for k in 0..4 {
        let q = match k {
            0 => dot(&cross(&d, &e2), &m),
            1 => dot(&cross(&vsub(p1, q0), &e2), &m),
            2 => dot(&cross(&d, &e1), &m),
            _ => dot(&cross(&e1, &vsub(q1, p0)), &m),
        };
        match t.sign_of(&q) {
            Less => return EdgeMeeting::Apart,
            Equal => strict = false,
            Greater => {}
        }
    }
    if strict {
        EdgeMeeting::Crossing
    } else {
        EdgeMeeting::Touching
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::Dyadic;
    use num_bigint::BigInt;

    /// A point that moves from `p0` to `p1` (integer coordinates).
    fn mov(p0: [i64; 3], p1: [i64; 3]) -> VecPoly {
        std::array::from_fn(|k| IntPoly::linear(BigInt::from(p0[k]), BigInt::from(p1[k] - p0[k])))
    }

    fn fixed(p: [i64; 3]) -> VecPoly {
        mov(p, p)
    }

    fn half() -> Algebraic {
        Algebraic::exact(Dyadic::new(BigInt::from(1), 1))
    }

    #[test]
    fn point_location_carriers() {
        let x = [fixed([0, 0, 0]), fixed([4, 0, 0]), fixed([0, 4, 0])];
        let xr = [&x[0], &x[1], &x[2]];
        let mut t = half();
        // Falls from z = 2 to z = −2 at (1, 1): inside at t = ½.
        assert_eq!(
            locate_point(&mov([1, 1, 2], [1, 1, -2]), xr, &mut t),
            Some(Corners::FACE)
        );
        // On edge 0 (corners 0, 1), at corner 2, outside, above.
        assert_eq!(
            locate_point(&mov([2, 0, 2], [2, 0, -2]), xr, &mut t),
            Some(Corners::edge(0))
        );
        assert_eq!(
            locate_point(&mov([0, 4, 2], [0, 4, -2]), xr, &mut t),
            Some(Corners::vertex(2))
        );
        assert_eq!(locate_point(&mov([3, 3, 2], [3, 3, -2]), xr, &mut t), None);
        assert_eq!(locate_point(&fixed([1, 1, 1]), xr, &mut t), None);
    }

    #[test]
    fn degenerate_triangle_uses_the_fixed_rule() {
        // Collinear corners 0, 2, 1 along x: (0,0,0), (4,0,0), (2,0,0).
        let x = [fixed([0, 0, 0]), fixed([4, 0, 0]), fixed([2, 0, 0])];
        let xr = [&x[0], &x[1], &x[2]];
        let mut t = half();
        assert!(degenerate(xr, &mut t));
        // (1,0,0) lies on edge 2 (corners 2, 0) and on edge 0 (0, 1): edge 0 first.
        assert_eq!(
            locate_point(&fixed([1, 0, 0]), xr, &mut t),
            Some(Corners::edge(0))
        );
        assert_eq!(
            locate_point(&fixed([2, 0, 0]), xr, &mut t),
            Some(Corners::vertex(2))
        );
        assert_eq!(locate_point(&fixed([5, 0, 0]), xr, &mut t), None);
    }

    #[test]
    fn edge_meetings() {
        let mut t = half();
        let (p0, p1) = (fixed([-2, 0, 0]), fixed([2, 0, 0]));
        // A crossing edge dropping through at t = ½.
        let (q0, q1) = (mov([0, -2, 2], [0, -2, -2]), mov([0, 2, 2], [0, 2, -2]));
        assert_eq!(
            edge_meeting(&p0, &p1, &q0, &q1, &mut t),
            EdgeMeeting::Crossing
        );
        // Ending on p's interior: touching at an end point.
        let (q0, q1) = (mov([0, 0, 2], [0, 0, -2]), mov([0, 2, 2], [0, 2, -2]));
        assert_eq!(
            edge_meeting(&p0, &p1, &q0, &q1, &mut t),
            EdgeMeeting::Touching
        );
        // Collinear overlap.
        let (q0, q1) = (fixed([1, 0, 0]), fixed([3, 0, 0]));
        assert!(parallel(&p0, &p1, &q0, &q1, &mut t));
        assert_eq!(
            edge_meeting(&p0, &p1, &q0, &q1, &mut t),
            EdgeMeeting::Touching
        );
        // Collinear, pointing apart from a common first end.
        let (q0, q1) = (fixed([-2, 0, 0]), fixed([-4, 0, 0]));
        assert_eq!(
            edge_meeting(&p0, &p1, &q0, &q1, &mut t),
            EdgeMeeting::Touching
        );
        // Collinear, meeting at their last ends.
        let (q0, q1) = (fixed([4, 0, 0]), fixed([2, 0, 0]));
        assert_eq!(
            edge_meeting(&p0, &p1, &q0, &q1, &mut t),
            EdgeMeeting::Touching
        );
        // Parallel, apart.
        let (q0, q1) = (fixed([1, 1, 0]), fixed([3, 1, 0]));
        assert_eq!(edge_meeting(&p0, &p1, &q0, &q1, &mut t), EdgeMeeting::Apart);
        // Skew.
        let (q0, q1) = (fixed([0, -2, 1]), fixed([0, 2, 1]));
        assert_eq!(edge_meeting(&p0, &p1, &q0, &q1, &mut t), EdgeMeeting::Apart);
    }
}
