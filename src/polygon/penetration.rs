//! Slow oracle for the minimum translation vector of two simple polygons
//! (their penetration depth), to judge the three methods' vectors
//! (docs/design.md §3).
//!
//! Shifting A by `v` makes the interiors of A and B overlap iff `v` lies in
//! the open set `U = ∪ᵢⱼ int(Bⱼ ⊖ Aᵢ)`, where `Aᵢ`, `Bⱼ` are convex pieces
//! and `Bⱼ ⊖ Aᵢ = {b − a}` is the convex hull of the vertex differences (the
//! Minkowski difference of two convex polygons; a common point of the open
//! interiors exists iff some pair of pieces shares one, because the piece
//! boundaries have no area). The minimum translation is the point of the
//! closed complement of `U` nearest the origin. If the origin is not in `U`
//! it is zero; otherwise it lies on the boundary of `U`, either at the foot
//! of the perpendicular from the origin to one hull edge, at a hull vertex,
//! or where edges of two hulls cross. All those candidates are generated and
//! the nearest one not inside any hull is returned.
//!
//! **Not exact.** Hull membership of the origin uses the exact `orient2d` on
//! the rounded differences, but candidate points are computed in floating
//! point and accepted when no hull contains them deeper than
//! [`acceptance_tolerance`] (a point computed on a hull's own edge must not
//! be rejected by that hull because of rounding). The returned depth is
//! therefore correct to within about that tolerance, which is far below the
//! differences between methods that the evaluation reports.
//!
//! Cost: `O(P²·k)` hull building for `P` pieces per polygon, `O(E·P²·k)` per
//! candidate sweep plus pruned edge–edge crossings: for small polygons only.

use std::cmp::Ordering;

use crate::math::{Real, gamma};

use super::decompose::ConvexDecomposition;
use super::polygon::Vec2;
use super::predicates::orient2d;

/// The depth tolerance for a candidate at coordinate scale `scale`: points
/// inside a hull by no more than this are on its boundary. A candidate is
/// the result of ≲ 20 roundings on values of magnitude ≤ `scale`, so its
/// signed distance to a line through two hull vertices is off by at most
/// `γ₂₀·scale`-ish; `γ₆₄` leaves margin.
pub fn acceptance_tolerance(scale: Real) -> Real {
    gamma(64) * scale
}

/// Counter-clockwise convex hull (strict corners only) of `pts`, by Andrew's
/// monotone chain with the exact `orient2d`.
pub fn convex_hull(pts: &mut Vec<Vec2>) -> Vec<Vec2> {
    pts.sort_by(|p, q| p.x.total_cmp(&q.x).then(p.y.total_cmp(&q.y)));
    pts.dedup();
    if pts.len() < 3 {
        return pts.clone();
    }
    let mut hull: Vec<Vec2> = Vec::with_capacity(pts.len() + 1);
    let n = pts.len();
    // Lower chain left to right, then upper chain right to left.
    for pass in 0..2 {
        let start = hull.len();
        for k in 0..n {
            let p = if pass == 0 { pts[k] } else { pts[n - 1 - k] };
            while hull.len() >= start + 2
                && orient2d(hull[hull.len() - 2], hull[hull.len() - 1], p) != Ordering::Greater
            {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
    }
    hull
}

/// Signed depth of `c` inside the convex counter-clockwise loop `h`: the
/// minimum over edges of the distance to the edge line, positive inside.
fn depth_inside(c: Vec2, h: &[Vec2]) -> Real {
    let n = h.len();
    let mut d = Real::INFINITY;
    for i in 0..n {
        let (a, b) = (h[i], h[(i + 1) % n]);
        let e = b - a;
        let s = (e.x * (c.y - a.y) - e.y * (c.x - a.x)) / e.norm();
        d = d.min(s);
        if d <= 0.0 {
            break;
        }
    }
    d
}

/// Closest point of segment `[a, b]` to the origin.
fn closest_to_origin(a: Vec2, b: Vec2) -> Vec2 {
    let e = b - a;
    let len2 = e.norm_squared();
    if len2 == 0.0 {
        return a;
    }
    let t = (-a.dot(&e) / len2).clamp(0.0, 1.0);
    a + e * t
}

/// Crossing point of segments `[p0, p1]` and `[q0, q1]`, if they cross (not
/// parallel), in floating point.
fn crossing(p0: Vec2, p1: Vec2, q0: Vec2, q1: Vec2) -> Option<Vec2> {
    let r = p1 - p0;
    let s = q1 - q0;
    let den = r.x * s.y - r.y * s.x;
    if den == 0.0 {
        return None;
    }
    let w = q0 - p0;
    let t = (w.x * s.y - w.y * s.x) / den;
    let u = (w.x * r.y - w.y * r.x) / den;
    if (0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u) {
        Some(p0 + r * t)
    } else {
        None
    }
}

/// The minimum translation of the polygon decomposed as `a` that separates it
/// from the polygon decomposed as `b` (interiors disjoint; touching allowed).
/// Zero when the interiors do not overlap.
///
/// A slow oracle for small polygons: it builds a hull for every pair of
/// pieces (memory in `P_a · P_b` hulls of up to `k_a · k_b` points) and
/// tests every candidate point against every hull (module doc, *Cost*; the
/// command line caps it at 1024 vertices).
pub fn minimum_translation(a: &ConvexDecomposition, b: &ConvexDecomposition) -> Vec2 {
    minimum_translation_from(a, b, Vec2::zeros())
}

/// [`minimum_translation`] of `a` already shifted by `t`: the further shift
/// that separates `a + t` from `b`, so that its length is the distance from
/// `t` to the closed complement of `U` (module doc), the depth by which `a`
/// shifted by `t` still overlaps `b`. The differences are shifted by `t` in
/// floating point (one more rounding each); for `t = 0` the result is
/// [`minimum_translation`]'s, bit for bit.
pub fn minimum_translation_from(a: &ConvexDecomposition, b: &ConvexDecomposition, t: Vec2) -> Vec2 {
    let mut hulls: Vec<Vec<Vec2>> = Vec::with_capacity(a.len() * b.len());
    let mut scale: Real = 0.0;
    let mut buf = Vec::new();
    for pa in a.pieces() {
        for pb in b.pieces() {
            buf.clear();
            for q in pb {
                for p in pa {
                    buf.push(q - p - t);
                }
            }
            let h = convex_hull(&mut buf);
            for p in &h {
                scale = scale.max(p.x.abs()).max(p.y.abs());
            }
            if h.len() >= 3 {
                hulls.push(h);
            }
        }
    }
    let origin = Vec2::zeros();
    let strictly_inside = |h: &[Vec2]| {
        let n = h.len();
        (0..n).all(|i| orient2d(h[i], h[(i + 1) % n], origin) == Ordering::Greater)
    };
    if !hulls.iter().any(|h| strictly_inside(h)) {
        return Vec2::zeros();
    }
    let tol = acceptance_tolerance(scale);
    let valid = |c: Vec2| hulls.iter().all(|h| depth_inside(c, h) <= tol);
    // Edge-foot and hull-vertex candidates.
    let mut edges: Vec<(Vec2, Vec2, Real)> = Vec::new();
    for h in &hulls {
        for i in 0..h.len() {
            let (p, q) = (h[i], h[(i + 1) % h.len()]);
            let c = closest_to_origin(p, q);
            edges.push((p, q, c.norm()));
        }
    }
    let mut best: Option<(Real, Vec2)> = None;
    let mut order: Vec<usize> = (0..edges.len()).collect();
    order.sort_by(|&i, &j| edges[i].2.total_cmp(&edges[j].2));
    for &i in &order {
        let (p, q, _) = edges[i];
        let c = closest_to_origin(p, q);
        if valid(c) {
            best = Some((c.norm(), c));
            break;
        }
    }
    // Crossings of two edges; only edges nearer than the best so far matter
    // (a crossing lies on both edges).
    let bound = best.map_or(Real::INFINITY, |b| b.0);
    let near: Vec<usize> = order
        .iter()
        .copied()
        .take_while(|&i| edges[i].2 < bound)
        .collect();
    for (x, &i) in near.iter().enumerate() {
        for &j in &near[x + 1..] {
            let (p0, p1, di) = edges[i];
            let (q0, q1, dj) = edges[j];
            let cut = best.map_or(Real::INFINITY, |b| b.0);
            if di >= cut || dj >= cut {
                continue;
            }
            if let Some(c) = crossing(p0, p1, q0, q1) {
                let r = c.norm();
                if r < cut && valid(c) {
                    best = Some((r, c));
                }
            }
        }
    }
    // The candidate set is complete, so some candidate is valid. Should
    // rounding ever reject them all, leaving the union's bounding box along
    // an axis is always a valid (if not minimal) answer.
    best.map_or_else(
        || {
            let (mut lo, mut hi) = (
                Vec2::repeat(Real::INFINITY),
                Vec2::repeat(Real::NEG_INFINITY),
            );
            for p in hulls.iter().flatten() {
                lo = lo.inf(p);
                hi = hi.sup(p);
            }
            [
                Vec2::new(hi.x, 0.0),
                Vec2::new(lo.x, 0.0),
                Vec2::new(0.0, hi.y),
                Vec2::new(0.0, lo.y),
            ]
            .into_iter()
            .min_by(|u, w| u.norm().total_cmp(&w.norm()))
            .unwrap_or(Vec2::zeros())
        },
        |b| b.1,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::polygon::polygon::Polygon;

    fn dec(p: &[[f64; 2]]) -> ConvexDecomposition {
        ConvexDecomposition::new(&Polygon::from_xy(p).unwrap()).unwrap()
    }

    #[test]
    fn hull_of_a_square_with_inner_and_collinear_points() {
        let mut pts = vec![
            Vec2::new(0.0, 0.0),
            Vec2::new(1.0, 0.0),
            Vec2::new(0.5, 0.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(0.0, 1.0),
            Vec2::new(0.5, 0.5),
        ];
        let h = convex_hull(&mut pts);
        assert_eq!(h.len(), 4);
    }

    #[test]
    fn overlapping_squares() {
        let a = dec(&[[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]]);
        let b = dec(&[[1.5, 0.5], [3.5, 0.5], [3.5, 1.5], [1.5, 1.5]]);
        let v = minimum_translation(&a, &b);
        assert!((v - Vec2::new(-0.5, 0.0)).norm() < 1e-12, "{v:?}");
    }

    /// From a shift `t` part of the way out, the rest of the way; from the
    /// origin, exactly [`minimum_translation`]'s answer.
    #[test]
    fn overlapping_squares_from_a_shift() {
        let a = dec(&[[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]]);
        let b = dec(&[[1.5, 0.5], [3.5, 0.5], [3.5, 1.5], [1.5, 1.5]]);
        assert_eq!(
            minimum_translation_from(&a, &b, Vec2::zeros()),
            minimum_translation(&a, &b)
        );
        let v = minimum_translation_from(&a, &b, Vec2::new(-0.375, 0.0));
        assert!((v - Vec2::new(-0.125, 0.0)).norm() < 1e-12, "{v:?}");
        assert_eq!(
            minimum_translation_from(&a, &b, Vec2::new(-0.5, 0.0)),
            Vec2::zeros()
        );
    }

    #[test]
    fn touching_squares_need_no_shift() {
        let a = dec(&[[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]]);
        let b = dec(&[[2.0, 0.0], [3.0, 0.0], [3.0, 1.0], [2.0, 1.0]]);
        assert_eq!(minimum_translation(&a, &b), Vec2::zeros());
    }

    /// A bar through the middle of a U: leaving through the notch (a hole in
    /// the Minkowski union) is shorter than leaving sideways.
    #[test]
    fn bar_in_u_notch_uses_the_notch() {
        let u = dec(&[
            [0.0, 0.0],
            [5.0, 0.0],
            [5.0, 3.0],
            [3.0, 3.0],
            [3.0, 1.0],
            [2.0, 1.0],
            [2.0, 3.0],
            [0.0, 3.0],
        ]);
        // A thin vertical bar overlapping the U's base, inside the notch.
        let bar = dec(&[[2.4, 0.8], [2.6, 0.8], [2.6, 2.5], [2.4, 2.5]]);
        let v = minimum_translation(&bar, &u);
        // Shift up by 0.2 so the bar's bottom is at y = 1.
        assert!((v - Vec2::new(0.0, 0.2)).norm() < 1e-12, "{v:?}");
    }
}
