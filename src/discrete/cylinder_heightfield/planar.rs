//! Planar tests on one element, done in 3D with the element normal `n_P` for
//! orientation (no 2D frame is built): closest points, point in polygon, SAT
//! between convex polygons, Cyrus–Beck clipping (Cyrus & Beck 1978, the
//! paper's ref. \[18\]) and segment–polygon closest points. Polygons are convex
//! and counter-clockwise seen from `+n`.
//!
//! The SAT and the clipping are those of lateral contact (Strashnov &
//! Torgashev 2020, §IV-B, refs. \[3\] and \[18\]); the closest points serve base,
//! lateral and one-point contact and the second pass (§IV-A–D).
//! docs/design.md §3.

use crate::math::{Real, Vec3};

/// The closest point of segment `[a, b]` to `p` and its parameter.
#[inline]
pub(crate) fn closest_on_segment(a: &Vec3, b: &Vec3, p: &Vec3) -> (Vec3, Real) {
    let ab = b - a;
    let len2 = ab.norm_squared();
    let t = if len2 > 0.0 {
        ((p - a).dot(&ab) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (a + t * ab, t)
}

/// Whether the in-plane point `p` lies in the polygon, allowing `tol` of
/// distance outside any edge.
#[inline]
pub(crate) fn contains(poly: &[Vec3], n: &Vec3, p: &Vec3, tol: Real) -> bool {
    let m = poly.len();
    (0..m).all(|k| {
        let e = poly[(k + 1) % m] - poly[k];
        let len = e.norm();
        // (e × (p − P_k))·n is len × signed distance to the edge line.
        e.cross(&(p - poly[k])).dot(n) >= -tol * len
    })
}

/// The closest point of the polygon (interior included) to the in-plane
/// point `p`.
pub(crate) fn closest_on_polygon(poly: &[Vec3], n: &Vec3, p: &Vec3) -> Vec3 {
    if contains(poly, n, p, 0.0) {
        return *p;
    }
    let m = poly.len();
    let mut best = (poly[0], Real::INFINITY);
    for k in 0..m {
        let (q, _) = closest_on_segment(&poly[k], &poly[(k + 1) % m], p);
        let d = (q - p).norm_squared();
        if d < best.1 {
            best = (q, d);
        }
    }
    best.0
}

/// Separating-axis test of two convex in-plane polygons (the paper's SAT,
/// ref. \[3\]): the axes are the in-plane normals `e × n` of every edge of
/// both. `true` when some axis separates them by more than `tol`.
pub(crate) fn separated(p: &[Vec3], q: &[Vec3], n: &Vec3, tol: Real) -> bool {
    for poly in [p, q] {
        let m = poly.len();
        for k in 0..m {
            let axis = (poly[(k + 1) % m] - poly[k]).cross(n);
            let len = axis.norm();
            if len == 0.0 {
                continue;
            }
            let axis = axis / len;
            let (lo1, hi1) = interval(p, &axis);
            let (lo2, hi2) = interval(q, &axis);
            if hi1 < lo2 - tol || hi2 < lo1 - tol {
                return true;
            }
        }
    }
    false
}

fn interval(poly: &[Vec3], axis: &Vec3) -> (Real, Real) {
    poly.iter()
        .map(|v| v.dot(axis))
        .fold((Real::INFINITY, Real::NEG_INFINITY), |(lo, hi), x| {
            (lo.min(x), hi.max(x))
        })
}

/// Cyrus–Beck clipping of the in-plane segment `a + t(b − a)`, `t ∈ [0, 1]`,
/// by the convex polygon: `Some((t₁, t₂))`, `t₁ ≤ t₂`, when a part is inside
/// (with `tol` of distance allowed outside each edge).
pub(crate) fn cyrus_beck(
    a: &Vec3,
    b: &Vec3,
    poly: &[Vec3],
    n: &Vec3,
    tol: Real,
) -> Option<(Real, Real)> {
    let (mut t_in, mut t_out) = (0.0, 1.0);
    let d = b - a;
    let m = poly.len();
    for k in 0..m {
        let e = poly[(k + 1) % m] - poly[k];
        let len = e.norm();
        if len == 0.0 {
            continue;
        }
        // Outward in-plane normal of edge k, unit.
        let out = e.cross(n) / len;
        let num = out.dot(&(a - poly[k])) - tol;
        let den = out.dot(&d);
        if den == 0.0 {
            if num > 0.0 {
                return None;
            }
            continue;
        }
        let t = -num / den;
        if den < 0.0 {
            t_in = Real::max(t_in, t);
        } else {
            t_out = Real::min(t_out, t);
        }
        if t_in > t_out {
            return None;
        }
    }
    Some((t_in, t_out))
}

/// Closest points of the polygon to the in-plane segment `[a, b]` when they do
/// not meet: `(d_min, [Q₁, Q₂], count)`. When an edge runs parallel to the
/// segment at the minimal distance, `Q₁`, `Q₂` are the two ends of that
/// stretch (the paper's `Q_i, i = 1, 2`); otherwise one point.
pub(crate) fn closest_to_segment(
    a: &Vec3,
    b: &Vec3,
    poly: &[Vec3],
    n: &Vec3,
    tol: Real,
) -> (Real, [Vec3; 2], usize) {
    // Candidates: each polygon vertex (closest to the segment), and the
    // polygon's closest points to each segment end.
    let mut cands = [(Vec3::zeros(), Real::INFINITY); 6];
    let m = poly.len();
    for (k, v) in poly.iter().enumerate() {
        let (s, _) = closest_on_segment(a, b, v);
        cands[k] = (*v, (s - v).norm());
    }
    for (k, p) in [a, b].into_iter().enumerate() {
        let q = closest_on_polygon(poly, n, p);
        cands[m + k] = (q, (q - p).norm());
    }
    let cands = &cands[..m + 2];
    let d_min = cands.iter().map(|c| c.1).fold(Real::INFINITY, Real::min);
    let near = |c: &&(Vec3, Real)| c.1 <= d_min + tol;
    let first = cands.iter().find(near).map(|c| c.0).unwrap_or(poly[0]);
    let second = cands
        .iter()
        .filter(near)
        .map(|c| (c.0, (c.0 - first).norm()))
        .fold((first, 0.0), |best, c| if c.1 > best.1 { c } else { best });
    if second.1 > tol {
        (d_min, [first, second.0], 2)
    } else {
        (d_min, [first, first], 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square() -> [Vec3; 4] {
        [
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(1.0, 1.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
        ]
    }

    #[test]
    fn cyrus_beck_clips_to_the_square() {
        let n = Vec3::z();
        let (t1, t2) = cyrus_beck(
            &Vec3::new(-1.0, 0.5, 0.0),
            &Vec3::new(3.0, 0.5, 0.0),
            &square(),
            &n,
            0.0,
        )
        .unwrap();
        assert_eq!((t1, t2), (0.25, 0.5));
        assert!(
            cyrus_beck(
                &Vec3::new(-1.0, 1.5, 0.0),
                &Vec3::new(3.0, 1.5, 0.0),
                &square(),
                &n,
                0.0
            )
            .is_none()
        );
    }

    #[test]
    fn sat_and_closest_points() {
        let n = Vec3::z();
        let sq = square();
        let tri = [
            Vec3::new(1.5, 0.0, 0.0),
            Vec3::new(3.0, 0.0, 0.0),
            Vec3::new(1.5, 1.0, 0.0),
        ];
        assert!(separated(&sq, &tri, &n, 0.0));
        let moved: Vec<Vec3> = tri.iter().map(|v| v - Vec3::new(0.6, 0.0, 0.0)).collect();
        assert!(!separated(&sq, &moved, &n, 0.0));
        assert_eq!(
            closest_on_polygon(&sq, &n, &Vec3::new(2.0, 0.5, 0.0)),
            Vec3::new(1.0, 0.5, 0.0)
        );
        // A segment parallel to the right edge: two closest points.
        let (d, q, k) = closest_to_segment(
            &Vec3::new(1.5, 0.2, 0.0),
            &Vec3::new(1.5, 2.0, 0.0),
            &sq,
            &n,
            1e-12,
        );
        assert_eq!((d, k), (0.5, 2));
        assert!(q.contains(&Vec3::new(1.0, 1.0, 0.0)));
        assert!(q.contains(&Vec3::new(1.0, 0.2, 0.0)));
    }
}
