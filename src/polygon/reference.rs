//! The exact oracle: do two simple polygons (closed regions) intersect?
//!
//! Two closed simple polygons share a point iff an edge of one meets an edge
//! of the other, or (boundaries disjoint) one contains a vertex of the other
//! (then it contains the whole other polygon: nesting). Edge meetings use the
//! exact closed segment test of [`super::predicates`]; containment uses the
//! winding number (Sunday's crossing rule with a half-open vertical range),
//! where every decision is a coordinate comparison or an exact `orient2d`.
//! The answer is therefore exact for the given doubles: touching at a single
//! point counts as intersecting (closed sets), which is also what the paper's
//! `I ≤ 0` test means.
//!
//! This is the slow oracle (`O(n·m)` segment tests) for the three fast
//! methods of this module; it makes no claim about translation vectors (see
//! [`super::penetration`] for that).
//!
//! docs/design.md §3, "2D polygons in the crate".

use std::cmp::Ordering;

use super::polygon::Vec2;
use super::predicates::{orient2d, point_on_segment, segments_intersect};

/// Where a point lies with respect to a closed polygon.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Containment {
    /// In the open interior.
    Inside,
    /// On the boundary.
    Boundary,
    /// Outside the closed polygon.
    Outside,
}

/// How two closed polygons relate (exactly).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Relation {
    /// No common point.
    Disjoint,
    /// The boundaries share at least one point (touching or crossing).
    BoundariesMeet,
    /// Boundaries disjoint, the first polygon strictly inside the second.
    FirstInsideSecond,
    /// Boundaries disjoint, the second polygon strictly inside the first.
    SecondInsideFirst,
}

impl Relation {
    /// `true` unless [`Relation::Disjoint`].
    #[inline]
    pub fn intersects(self) -> bool {
        self != Relation::Disjoint
    }
}

/// Exact point-in-polygon for a closed polygon given by its vertex loop
/// (either orientation; the loop must be simple for the answer to mean
/// "inside", but the computation itself never fails).
pub fn point_in_polygon(p: Vec2, poly: &[Vec2]) -> Containment {
    let n = poly.len();
    let mut winding: i64 = 0;
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + 1) % n]);
        if point_on_segment(p, a, b) {
            return Containment::Boundary;
        }
        if a.y <= p.y {
            // An upward crossing with p strictly left of a→b.
            if b.y > p.y && orient2d(a, b, p) == Ordering::Greater {
                winding += 1;
            }
        } else if b.y <= p.y && orient2d(a, b, p) == Ordering::Less {
            // A downward crossing with p strictly right of a→b.
            winding -= 1;
        }
    }
    if winding != 0 {
        Containment::Inside
    } else {
        Containment::Outside
    }
}

/// `true` when some edge of `a` meets some edge of `b` (exact).
pub fn boundaries_meet(a: &[Vec2], b: &[Vec2]) -> bool {
    let (n, m) = (a.len(), b.len());
    (0..n).any(|i| {
        let (p0, p1) = (a[i], a[(i + 1) % n]);
        (0..m).any(|j| segments_intersect(p0, p1, b[j], b[(j + 1) % m]))
    })
}

/// The exact relation of two closed simple polygons given as vertex loops
/// (an empty loop is no region: disjoint from everything).
pub fn relation(a: &[Vec2], b: &[Vec2]) -> Relation {
    let (Some(&a0), Some(&b0)) = (a.first(), b.first()) else {
        return Relation::Disjoint;
    };
    if boundaries_meet(a, b) {
        return Relation::BoundariesMeet;
    }
    // Boundaries disjoint: containment is all-or-nothing, one vertex decides.
    if point_in_polygon(b0, a) == Containment::Inside {
        return Relation::SecondInsideFirst;
    }
    if point_in_polygon(a0, b) == Containment::Inside {
        return Relation::FirstInsideSecond;
    }
    Relation::Disjoint
}

/// `true` when the closed polygons share a point (exact).
#[inline]
pub fn polygons_intersect(a: &[Vec2], b: &[Vec2]) -> bool {
    relation(a, b).intersects()
}

/// The vertex loop `a` translated by `t`, rounded exactly as the fast
/// methods round `p + t`.
pub fn translated(a: &[Vec2], t: Vec2) -> Vec<Vec2> {
    a.iter().map(|p| p + t).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loop_of(p: &[[f64; 2]]) -> Vec<Vec2> {
        p.iter().map(|q| Vec2::new(q[0], q[1])).collect()
    }

    fn square(x: f64, y: f64, s: f64) -> Vec<Vec2> {
        loop_of(&[[x, y], [x + s, y], [x + s, y + s], [x, y + s]])
    }

    #[test]
    fn point_in_notch_polygon() {
        // U shape, notch between x = 1 and x = 2 above y = 1.
        let u = loop_of(&[
            [0.0, 0.0],
            [3.0, 0.0],
            [3.0, 3.0],
            [2.0, 3.0],
            [2.0, 1.0],
            [1.0, 1.0],
            [1.0, 3.0],
            [0.0, 3.0],
        ]);
        assert_eq!(
            point_in_polygon(Vec2::new(0.5, 2.0), &u),
            Containment::Inside
        );
        assert_eq!(
            point_in_polygon(Vec2::new(1.5, 2.0), &u),
            Containment::Outside
        );
        assert_eq!(
            point_in_polygon(Vec2::new(1.5, 1.0), &u),
            Containment::Boundary
        );
        assert_eq!(
            point_in_polygon(Vec2::new(2.0, 3.0), &u),
            Containment::Boundary
        );
        // On the horizontal line of a vertex, outside.
        assert_eq!(
            point_in_polygon(Vec2::new(-1.0, 3.0), &u),
            Containment::Outside
        );
        assert_eq!(
            point_in_polygon(Vec2::new(1.5, 3.0), &u),
            Containment::Outside
        );
        // The same polygon reversed gives the same answers.
        let mut r = u.clone();
        r.reverse();
        assert_eq!(
            point_in_polygon(Vec2::new(0.5, 2.0), &r),
            Containment::Inside
        );
        assert_eq!(
            point_in_polygon(Vec2::new(1.5, 2.0), &r),
            Containment::Outside
        );
    }

    #[test]
    fn relations() {
        let big = square(0.0, 0.0, 10.0);
        assert_eq!(
            relation(&big, &square(2.0, 2.0, 1.0)),
            Relation::SecondInsideFirst
        );
        assert_eq!(
            relation(&square(2.0, 2.0, 1.0), &big),
            Relation::FirstInsideSecond
        );
        assert_eq!(
            relation(&big, &square(10.0, 0.0, 1.0)),
            Relation::BoundariesMeet
        );
        assert_eq!(
            relation(&big, &square(10.0, 10.0, 1.0)),
            Relation::BoundariesMeet
        );
        assert_eq!(relation(&big, &square(10.5, 0.0, 1.0)), Relation::Disjoint);
        // One ulp apart.
        let x = 10.0f64.next_up();
        assert_eq!(relation(&big, &square(x, 0.0, 1.0)), Relation::Disjoint);
    }
}
