//! The contact manifold `Υ_CP` (Strashnov & Torgashev 2020, §V).
//!
//! `L(C_P)` is split into groups `L_k(C_P)` of points with the same normal
//! (one contact patch each). A group of more than four points is reduced to
//! four: `P₁` of largest depth; `P₂` farthest from `P₁`; `P₃` farthest from the
//! segment `P₁P₂`; `P₄` making the quadrilateral `P₁P₂P₃P₄` of largest area. If
//! `‖P₁P₂ × P₂P₃‖ ≤ ε₂` (the points are collinear, typical of lateral
//! contact) only the two most distant points are kept.
//!
//! Readings and deviations:
//! - "Same normal": normals within `normal_tolerance` (`n·n′ ≥ 1 − tol`) of
//!   the group's first normal; groups in order of first appearance.
//! - Points of one group closer than the rounding slack are merged first
//!   (an edge shared by two coplanar elements yields its crossing point twice;
//!   the paper dedupes only vertices, through `G_F`).
//! - The paper checks collinearity only while reducing a group of more than
//!   four; docs/design.md §3 keeps "only two when the group is collinear". We check every group of
//!   three or more, so a lying barrel gives 2 points however many elements
//!   its generatrix crosses.
//! - "Only the two most distant points are kept" can mean the pair found so
//!   far (`P₁`, the deepest, and `P₂`, the farthest from it) or the two
//!   extremes of the line. We keep the extremes (they span the contact line,
//!   as a solver needs), unless `P₁` is deeper than both: then `P₁`, `P₂`
//!   (so a wheel across a convex crest keeps its deepest point).
//! - `ε₂` is made scale-free: `‖P₁P₂ × P₂P₃‖ ≤ ε₂·‖P₁P₂‖²`, i.e. `P₃` is within
//!   `ε₂·|P₁P₂|` of the line `P₁P₂`.
//! - The quadrilateral's area is that of the convex hull of the four points
//!   (the largest `|shoelace|` over the three orderings), measured in the
//!   plane of the group's normal.

use crate::math::{Real, Vec3};

/// Which formula produced a contact point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PointSource {
    /// (8): an element edge crossing the projected base ellipse.
    BaseEdgeCrossing,
    /// (8) at an end of the ellipse's axes inside an element (ccdlab's
    /// addition for an ellipse inside one element).
    BaseRim,
    /// The analogue of (8) for a `G_I` vertex left after the second pass.
    BaseVertex,
    /// (10): an end of the lowest generatrix clipped by an element.
    LateralClip,
    /// (12): the single contact point `A₁`.
    SinglePoint,
    /// (13): second pass, point on a base.
    SecondPassBase,
    /// (14): second pass, point on the lateral surface.
    SecondPassLateral,
    /// A point of the element inside the cylinder, used only when every
    /// other rule left the manifold empty although an element meets the
    /// cylinder (never happens in the tests; counted in the stats).
    Fallback,
}

/// One element of the manifold: `C_P = {P, d, n}`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContactPoint {
    /// `P`: the contact point (on the cylinder).
    pub point: Vec3,
    /// `d`: the depth along `n`.
    pub depth: Real,
    /// `n`: unit normal, the push-out direction for the cylinder.
    pub normal: Vec3,
    /// The formula that produced it.
    pub source: PointSource,
}

/// Reused buffers of [`reduce`].
#[derive(Debug, Clone, Default)]
pub(crate) struct ReduceScratch {
    group_of: Vec<(usize, usize)>,
    group_normals: Vec<Vec3>,
    kept: Vec<usize>,
    by_x: Vec<(Real, usize)>,
}

/// Groups `raw` by normal and reduces each group (see the module doc);
/// appends to `out`, returns the number of groups.
pub(crate) fn reduce(
    raw: &[ContactPoint],
    normal_tolerance: Real,
    eps_collinear: Real,
    dup_tol: Real,
    scratch: &mut ReduceScratch,
    out: &mut Vec<ContactPoint>,
) -> usize {
    let ReduceScratch {
        group_of,
        group_normals,
        kept,
        by_x,
    } = scratch;
    group_of.clear();
    group_normals.clear();
    for (k, p) in raw.iter().enumerate() {
        let g = group_normals
            .iter()
            .position(|n| n.dot(&p.normal) >= 1.0 - normal_tolerance)
            .unwrap_or_else(|| {
                group_normals.push(p.normal);
                group_normals.len() - 1
            });
        group_of.push((g, k));
    }
    group_of.sort_unstable();
    let mut start = 0;
    while start < group_of.len() {
        let g = group_of[start].0;
        let end = start + group_of[start..].iter().take_while(|e| e.0 == g).count();
        // Merge duplicates (keep the first): `by_x` holds the kept points
        // sorted by x, so only an x-window of them is compared.
        kept.clear();
        by_x.clear();
        for &(_, k) in &group_of[start..end] {
            let p = raw[k].point;
            let lo = by_x.partition_point(|&(x, _)| x < p.x - dup_tol);
            let dup = by_x[lo..]
                .iter()
                .take_while(|&&(x, _)| x <= p.x + dup_tol)
                .any(|&(_, j)| (raw[j].point - p).norm() <= dup_tol);
            if !dup {
                kept.push(k);
                let at = by_x.partition_point(|&(x, _)| x < p.x);
                by_x.insert(at, (p.x, k));
            }
        }
        select(raw, kept, &group_normals[g], eps_collinear, dup_tol, out);
        start = end;
    }
    group_normals.len()
}

/// The paper's selection of at most four points of one group.
fn select(
    raw: &[ContactPoint],
    idx: &[usize],
    normal: &Vec3,
    eps_collinear: Real,
    dup_tol: Real,
    out: &mut Vec<ContactPoint>,
) {
    if idx.len() <= 2 {
        out.extend(idx.iter().map(|&k| raw[k]));
        return;
    }
    let p = |k: usize| raw[k].point;
    let argmax = |f: &dyn Fn(usize) -> Real| {
        let mut best = (idx[0], Real::NEG_INFINITY);
        for &k in idx {
            let v = f(k);
            if v > best.1 {
                best = (k, v);
            }
        }
        best
    };
    let (i1, _) = argmax(&|k| raw[k].depth);
    let (i2, _) = argmax(&|k| (p(k) - p(i1)).norm());
    let d12 = p(i2) - p(i1);
    let (i3, _) = argmax(&|k| {
        let (q, _) = super::planar::closest_on_segment(&p(i1), &p(i2), &p(k));
        (p(k) - q).norm()
    });
    if d12.cross(&(p(i3) - p(i2))).norm() <= eps_collinear * d12.norm_squared() {
        // Collinear: "the two most distant points". The extremes along
        // P₁P₂, unless P₁ (the deepest) is deeper than both: then P₁ and P₂
        // (P₂ is the extreme farthest from P₁).
        let (lo, _) = argmax(&|k| -(p(k) - p(i1)).dot(&d12));
        let (hi, _) = argmax(&|k| (p(k) - p(i1)).dot(&d12));
        let d1 = raw[i1].depth;
        let (a, b) = if d1 > raw[lo].depth + dup_tol && d1 > raw[hi].depth + dup_tol {
            (i1, i2)
        } else {
            (lo, hi)
        };
        out.push(raw[a]);
        if b != a {
            out.push(raw[b]);
        }
        return;
    }
    if idx.len() <= 4 {
        out.extend(idx.iter().map(|&k| raw[k]));
        return;
    }
    let area = |a: Vec3, b: Vec3, c: Vec3, d: Vec3| {
        // Twice the signed area of the polygon a b c d, in the plane ⟂ normal.
        (a.cross(&b) + b.cross(&c) + c.cross(&d) + d.cross(&a))
            .dot(normal)
            .abs()
    };
    let (i4, _) = argmax(&|k| {
        if k == i1 || k == i2 || k == i3 {
            return Real::NEG_INFINITY;
        }
        let (a, b, c, d) = (p(i1), p(i2), p(i3), p(k));
        area(a, b, c, d).max(area(a, b, d, c)).max(area(a, c, b, d))
    });
    for k in [i1, i2, i3, i4] {
        out.push(raw[k]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cp(x: Real, y: Real, depth: Real, n: Vec3) -> ContactPoint {
        ContactPoint {
            point: Vec3::new(x, y, 0.0),
            depth,
            normal: n,
            source: PointSource::BaseEdgeCrossing,
        }
    }

    fn run(raw: &[ContactPoint]) -> (usize, Vec<ContactPoint>) {
        let mut out = Vec::new();
        let g = reduce(
            raw,
            1e-9,
            1e-6,
            1e-12,
            &mut ReduceScratch::default(),
            &mut out,
        );
        (g, out)
    }

    #[test]
    fn eight_rim_points_reduce_to_the_deepest_and_a_large_quad() {
        let n = Vec3::z();
        let raw: Vec<_> = (0..8)
            .map(|k| {
                let a = k as Real * std::f64::consts::FRAC_PI_4;
                cp(a.cos(), a.sin(), 0.1 + 0.01 * k as Real, n)
            })
            .collect();
        let (g, out) = run(&raw);
        assert_eq!((g, out.len()), (1, 4));
        // P₁: deepest (k = 7); P₂: opposite (k = 3); P₃, P₄: the two ends of
        // the perpendicular diameter (k = 1 and 5) — a square of area 2.
        assert_eq!(out[0], raw[7]);
        assert_eq!(out[1], raw[3]);
        let mut rest = [out[2].point, out[3].point];
        rest.sort_by(|a, b| a.y.total_cmp(&b.y));
        assert!((rest[0] - raw[5].point).norm() < 1e-12);
        assert!((rest[1] - raw[1].point).norm() < 1e-12);
    }

    #[test]
    fn collinear_points_keep_the_two_extremes_and_groups_split_by_normal() {
        let n = Vec3::z();
        let m = Vec3::new(0.0, 0.6, 0.8);
        let raw = vec![
            cp(0.5, 0.0, 0.2, n),
            cp(0.0, 0.0, 0.2, n),
            cp(2.0, 0.0, 0.2, n),
            cp(1.0, 0.0, 0.2, n),
            cp(5.0, 5.0, 0.1, m),
            cp(5.0, 5.0, 0.1, m), // duplicate
        ];
        let (g, out) = run(&raw);
        assert_eq!(g, 2);
        assert_eq!(out.len(), 3);
        let xs: Vec<Real> = out[..2].iter().map(|c| c.point.x).collect();
        assert!(xs.contains(&0.0) && xs.contains(&2.0), "{xs:?}");
        assert_eq!(out[2].normal, m);
    }

    #[test]
    fn collinear_inside_deepest_tied_with_an_end_keeps_the_extremes() {
        // P₁ (x = 0.5) is deeper than the end x = 0 but only as deep as the
        // end x = 2: not deeper than both, so the two extremes are kept.
        let n = Vec3::z();
        let raw = vec![
            cp(0.0, 0.0, 0.1, n),
            cp(0.5, 0.0, 0.3, n),
            cp(2.0, 0.0, 0.3, n),
            cp(1.0, 0.0, 0.2, n),
        ];
        let (_, out) = run(&raw);
        let mut xs: Vec<Real> = out.iter().map(|c| c.point.x).collect();
        xs.sort_by(Real::total_cmp);
        assert_eq!(xs, vec![0.0, 2.0]);
    }

    #[test]
    fn points_exactly_dup_tol_apart_are_duplicates() {
        // dup_tol = 1e-12 is closed: a point exactly that far from a kept one
        // is dropped; one twice as far is kept.
        let n = Vec3::z();
        let (_, out) = run(&[cp(0.0, 0.0, 0.2, n), cp(1e-12, 0.0, 0.1, n)]);
        assert_eq!(out.len(), 1);
        let (_, out) = run(&[cp(0.0, 0.0, 0.2, n), cp(2e-12, 0.0, 0.1, n)]);
        assert_eq!(out.len(), 2);
    }

    #[test]
    fn collinear_points_keep_the_deepest_when_it_is_inside() {
        // A crest: deepest in the middle → P₁ (x = 0.5) and P₂ (x = 2).
        let n = Vec3::z();
        let raw = vec![
            cp(0.0, 0.0, 0.1, n),
            cp(0.5, 0.0, 0.3, n),
            cp(2.0, 0.0, 0.2, n),
            cp(1.0, 0.0, 0.2, n),
        ];
        let (_, out) = run(&raw);
        let xs: Vec<Real> = out.iter().map(|c| c.point.x).collect();
        assert_eq!(xs, vec![0.5, 2.0]);
    }
}
