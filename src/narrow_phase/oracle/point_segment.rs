//! Point–segment contact: the degenerate case of both queries (a triangle
//! that collapses to a segment, parallel edges, zero-length edges), part
//! of the exact oracle (docs/design.md §9, item 8).

use std::cmp::Ordering;

use super::earliest::Candidates;
use crate::exact::{Algebraic, IntPoly, VecPoly, cross, dot, vsub};

/// The polynomials of "point `p(t)` lies on the closed segment `a(t)b(t)`".
pub(super) struct PointSegment {
    /// `|b − a|²`: zero iff the segment is a point.
    e2: IntPoly,
    /// `|(b − a) × (p − a)|²`: zero iff `p` is on the line (or the segment is a point).
    w2: IntPoly,
    /// `(p − a)·(b − a) ≥ 0`: `p` beyond `a` towards `b`.
    h1: IntPoly,
    /// `(b − p)·(b − a) ≥ 0`: `p` before `b`.
    h2: IntPoly,
    /// `|p − a|²`: zero iff `p = a`.
    pa2: IntPoly,
}

impl PointSegment {
    pub fn new(p: &VecPoly, a: &VecPoly, b: &VecPoly) -> PointSegment {
        let e = vsub(b, a);
        let pa = vsub(p, a);
        let w = cross(&e, &pa);
        PointSegment {
            e2: dot(&e, &e),
            w2: dot(&w, &w),
            h1: dot(&pa, &e),
            h2: dot(&vsub(b, p), &e),
            pa2: dot(&pa, &pa),
        }
    }

    /// Exact membership at `t`.
    pub fn member(&self, t: &mut Algebraic) -> bool {
        if t.sign_of(&self.e2) == Ordering::Equal {
            return t.sign_of(&self.pa2) == Ordering::Equal;
        }
        t.sign_of(&self.w2) == Ordering::Equal
            && t.sign_of(&self.h1) != Ordering::Less
            && t.sign_of(&self.h2) != Ordering::Less
    }

    /// Candidates containing the earliest contact time.
    pub fn candidates(&self) -> Candidates {
        if !self.w2.is_zero() {
            // Contact needs p on the line: finitely many times.
            Candidates::roots_of(self.w2.clone())
        } else if !self.e2.is_zero() {
            // p stays on the line; contact is h1 ≥ 0 ∧ h2 ≥ 0 where a ≠ b.
            Candidates::zero_and_roots_of([self.h1.clone(), self.h2.clone(), self.e2.clone()])
        } else if !self.pa2.is_zero() {
            // a ≡ b: contact iff p = a.
            Candidates::roots_of(self.pa2.clone())
        } else {
            // p ≡ a ≡ b: contact at every time.
            Candidates::zero_and_roots_of([])
        }
    }
}
