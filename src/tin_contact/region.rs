//! The contact region: a point, a segment or a convex polygon, in `f64`
//! coordinates (Yu et al. 2000: the point `S` of Eqs. (4) and (8), the
//! segment `S₁S₂` of Eq. (12), the bounded planar region of §2.4;
//! docs/design.md §3, "Moving TINs in the crate").
//!
//! The region's *kind* (its dimension) is decided exactly by the caller
//! ([`super::triangle_pair()`]); its coordinates are approximations: the
//! generating points (vertices at the time of impact, edge crossings) are
//! evaluated in floating point at a double `t̃` within `f64::EPSILON` of the
//! exact time, and a polygon's corners are ordered by a floating-point convex
//! hull in the contact plane. Near-coincident generating points (closer than
//! [`merge_tolerance`]) are merged, so a polygon may list fewer corners than
//! the exact region has when two of them are that close.

use crate::math::{Real, Vec3};

/// A contact region.
#[derive(Debug, Clone, PartialEq)]
pub enum Region {
    /// A single point.
    Point(Vec3),
    /// A segment with two distinct end points.
    Segment([Vec3; 2]),
    /// A convex polygon, corners in counter-clockwise order seen from the
    /// side the first triangle's normal points to.
    Polygon(Vec<Vec3>),
}

impl Region {
    /// 0, 1 or 2.
    pub fn dimension(&self) -> usize {
        match self {
            Region::Point(_) => 0,
            Region::Segment(_) => 1,
            Region::Polygon(_) => 2,
        }
    }

    /// The defining points: the point, the two end points, or the corners.
    pub fn points(&self) -> &[Vec3] {
        match self {
            Region::Point(p) => std::slice::from_ref(p),
            Region::Segment(s) => s,
            Region::Polygon(c) => c,
        }
    }

    /// The mean of [`Region::points`].
    pub fn centroid(&self) -> Vec3 {
        let pts = self.points();
        pts.iter().fold(Vec3::zeros(), |s, p| s + p) / pts.len().max(1) as Real
    }

    /// The region of dimension `dim` spanned by `points` (at least one):
    /// the first point; the two farthest apart; or their convex hull in the
    /// plane with normal `normal` (or, when that is zero, the plane the
    /// points span).
    pub(crate) fn from_points(dim: usize, points: &[Vec3], normal: Vec3) -> Region {
        debug_assert!(!points.is_empty());
        match dim {
            0 => Region::Point(points[0]),
            1 => {
                let mut best = (0, 0, -1.0);
                for i in 0..points.len() {
                    for j in i + 1..points.len() {
                        let d = (points[i] - points[j]).norm_squared();
                        if d > best.2 {
                            best = (i, j, d);
                        }
                    }
                }
                Region::Segment([points[best.0], points[best.1]])
            }
            _ => Region::Polygon(convex_hull(points, normal)),
        }
    }

    /// The region with every point multiplied by `factor`.
    pub(crate) fn scaled(self, factor: Real) -> Region {
        match self {
            Region::Point(p) => Region::Point(p * factor),
            Region::Segment(s) => Region::Segment(s.map(|p| p * factor)),
            Region::Polygon(c) => Region::Polygon(c.into_iter().map(|p| p * factor).collect()),
        }
    }

    /// A floating-point estimate of the dimension of the convex hull of
    /// `points`, used only where the exact rule does not apply (a triangle of
    /// zero area at the time of impact): points within [`merge_tolerance`]
    /// of each other, or of a line, count as one.
    pub(crate) fn estimate_dimension(points: &[Vec3]) -> usize {
        let tol = merge_tolerance(points);
        let Some(&p0) = points.first() else {
            return 0;
        };
        let Some(&p1) = points.iter().max_by(|a, b| {
            (*a - p0)
                .norm_squared()
                .total_cmp(&(*b - p0).norm_squared())
        }) else {
            return 0;
        };
        let axis = p1 - p0;
        if axis.norm() <= tol {
            return 0;
        }
        let u = axis / axis.norm();
        let off_line = points.iter().any(|p| {
            let d = p - p0;
            (d - u * d.dot(&u)).norm() > tol
        });
        if off_line { 2 } else { 1 }
    }
}

/// Distance below which two computed region points are taken as one:
/// `2²⁰·ε` times the largest coordinate magnitude, about a million rounding
/// errors of the evaluation — far above the rounding of the computed points,
/// far below any feature size of a sensibly scaled mesh.
pub fn merge_tolerance(points: &[Vec3]) -> Real {
    let scale = points
        .iter()
        .flat_map(|p| p.iter().copied())
        .fold(Real::MIN_POSITIVE, |m, x| m.max(x.abs()));
    (1u64 << 20) as Real * Real::EPSILON * scale
}

/// Convex hull (Andrew's monotone chain) of `points` projected onto the
/// coordinate plane that drops the largest component of `normal`, returned
/// as the original 3D points, counter-clockwise about `normal`.
fn convex_hull(points: &[Vec3], normal: Vec3) -> Vec<Vec3> {
    let tol = merge_tolerance(points);
    let mut pts: Vec<Vec3> = Vec::new();
    for p in points {
        if pts.iter().all(|q| (p - q).norm() > tol) {
            pts.push(*p);
        }
    }
    let normal = if normal.norm_squared() > 0.0 {
        normal
    } else {
        spanned_normal(&pts)
    };
    if pts.len() < 3 {
        return pts;
    }
    let drop = (0..3)
        .max_by(|&a, &b| normal[a].abs().total_cmp(&normal[b].abs()))
        .unwrap_or(2);
    let (u, v) = ((drop + 1) % 3, (drop + 2) % 3);
    let proj = |p: &Vec3| (p[u], p[v]);
    let mut order: Vec<usize> = (0..pts.len()).collect();
    order.sort_by(|&a, &b| {
        let (pa, pb) = (proj(&pts[a]), proj(&pts[b]));
        pa.0.total_cmp(&pb.0).then(pa.1.total_cmp(&pb.1))
    });
    let cross = |o: usize, a: usize, b: usize| {
        let (o, a, b) = (proj(&pts[o]), proj(&pts[a]), proj(&pts[b]));
        (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
    };
    let mut hull: Vec<usize> = Vec::with_capacity(2 * pts.len());
    for pass in 0..2 {
        let start = hull.len();
        let iter: Box<dyn Iterator<Item = &usize>> = if pass == 0 {
            Box::new(order.iter())
        } else {
            Box::new(order.iter().rev())
        };
        for &i in iter {
            while hull.len() >= start + 2
                && cross(hull[hull.len() - 2], hull[hull.len() - 1], i) <= 0.0
            {
                hull.pop();
            }
            hull.push(i);
        }
        hull.pop();
    }
    // (u, v, drop) is a cyclic permutation of (x, y, z), so the projection
    // keeps orientation when normal[drop] > 0 and reverses it otherwise.
    if normal[drop] < 0.0 {
        hull.reverse();
    }
    hull.into_iter().map(|i| pts[i]).collect()
}

/// A normal of the plane the points span (largest cross product from the
/// first point), or zero.
fn spanned_normal(pts: &[Vec3]) -> Vec3 {
    let mut best = Vec3::zeros();
    for i in 1..pts.len() {
        for j in i + 1..pts.len() {
            let n = (pts[i] - pts[0]).cross(&(pts[j] - pts[0]));
            if n.norm_squared() > best.norm_squared() {
                best = n;
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f64, y: f64, z: f64) -> Vec3 {
        Vec3::new(x, y, z)
    }

    #[test]
    fn hull_orders_corners_counter_clockwise_about_the_normal() {
        let pts = [
            v(1.0, 1.0, 5.0),
            v(0.0, 0.0, 5.0),
            v(1.0, 0.0, 5.0),
            v(0.5, 0.5, 5.0),
            v(0.0, 1.0, 5.0),
            v(0.0, 0.0, 5.0),
        ];
        let Region::Polygon(up) = Region::from_points(2, &pts, v(0.0, 0.0, 1.0)) else {
            panic!("polygon expected");
        };
        assert_eq!(up.len(), 4);
        let area: f64 = (0..4)
            .map(|i| {
                let (a, b) = (up[i], up[(i + 1) % 4]);
                a.x * b.y - a.y * b.x
            })
            .sum();
        assert!(area > 0.0);
        let Region::Polygon(down) = Region::from_points(2, &pts, v(0.0, 0.0, -1.0)) else {
            panic!("polygon expected");
        };
        let rev: Vec<Vec3> = up.iter().rev().copied().collect();
        assert!((0..4).any(|s| (0..4).all(|i| down[i] == rev[(i + s) % 4])));
    }

    #[test]
    fn segment_is_the_farthest_pair_and_dimension_estimates() {
        let pts = [v(0.0, 0.0, 0.0), v(2.0, 0.0, 0.0), v(1.0, 0.0, 0.0)];
        assert_eq!(
            Region::from_points(1, &pts, Vec3::zeros()),
            Region::Segment([pts[0], pts[1]])
        );
        assert_eq!(Region::estimate_dimension(&pts), 1);
        assert_eq!(Region::estimate_dimension(&pts[..1]), 0);
        assert_eq!(
            Region::estimate_dimension(&[pts[0], pts[1], v(0.0, 1.0, 0.0)]),
            2
        );
    }
}
