//! Slow oracle for the cylinder–terrain intersection decision of the
//! detector (docs/design.md §3), sharing no geometry code with it: every
//! cell of the grid as the two triangles `V₀V₁V₂`, `V₃V₂V₁` (a rectangle
//! cell is planar, so its two triangles are the same surface), the
//! cylinder's signed distance minimised over each triangle by nested
//! golden-section search. The signed distance of a convex body is convex,
//! and so is its partial minimum over one barycentric coordinate;
//! golden-section search is exact for such functions up to its interval
//! (here `0.618⁷⁰` of an edge, below rounding).
//!
//! A triangle is skipped when a lower bound of the distance (to the bounding
//! sphere, through the triangle's box) exceeds the best value so far or
//! `cap`; so the result is exact whenever it is `≤ cap`.

use super::super::heightfield::HeightGrid;
use super::super::shapes::Cylinder;
use crate::math::{Real, Vec3};

/// The oracle's answer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OracleResult {
    /// The smallest signed distance from the cylinder to the terrain
    /// surface (negative: they overlap); exact when `≤ cap`, else some value
    /// `> cap` (or `+∞`).
    pub min_signed_distance: Real,
    /// Where it is attained.
    pub witness: Vec3,
    /// No overlap with the surface, and the centre below it.
    pub buried: bool,
}

const ITERS: usize = 70;

/// Golden-section minimum of a convex `f` on `[lo, hi]`, endpoints included.
fn golden(lo: Real, hi: Real, f: &mut impl FnMut(Real) -> Real) -> (Real, Real) {
    let inv_phi = (5.0_f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (lo, hi);
    let mut c = b - inv_phi * (b - a);
    let mut d = a + inv_phi * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..ITERS {
        if fc <= fd {
            b = d;
            d = c;
            fd = fc;
            c = b - inv_phi * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + inv_phi * (b - a);
            fd = f(d);
        }
    }
    let mut best = if fc <= fd { (c, fc) } else { (d, fd) };
    for x in [lo, hi] {
        let fx = f(x);
        if fx < best.1 {
            best = (x, fx);
        }
    }
    best
}

/// Minimum of the cylinder's signed distance over triangle `p0 p1 p2`.
pub(crate) fn min_over_triangle(cyl: &Cylinder, p0: Vec3, p1: Vec3, p2: Vec3) -> (Real, Vec3) {
    let (e1, e2) = (p1 - p0, p2 - p0);
    let at = |s: Real, t: Real| p0 + s * e1 + t * e2;
    let mut outer = |s: Real| {
        let mut inner = |t: Real| cyl.signed_distance(&at(s, t));
        golden(0.0, 1.0 - s, &mut inner).1
    };
    let (s, _) = golden(0.0, 1.0, &mut outer);
    let mut inner = |t: Real| cyl.signed_distance(&at(s, t));
    let (t, f) = golden(0.0, 1.0 - s, &mut inner);
    (f, at(s, t))
}

/// The oracle (see the module doc).
pub fn cylinder_heightfield_oracle(cyl: &Cylinder, grid: &HeightGrid, cap: Real) -> OracleResult {
    let c = cyl.centre();
    let bound_r = cyl.radius().hypot(0.5 * cyl.height());
    let mut best = (Real::INFINITY, c);
    for i in 0..grid.rows() - 1 {
        for j in 0..grid.cols() - 1 {
            let v0 = grid.vertex(i, j);
            let v1 = grid.vertex(i, j + 1);
            let v2 = grid.vertex(i + 1, j);
            let v3 = grid.vertex(i + 1, j + 1);
            for [a, b, d] in [[v0, v1, v2], [v3, v2, v1]] {
                let lo = a.inf(&b).inf(&d);
                let hi = a.sup(&b).sup(&d);
                let gap = (lo - c).sup(&(c - hi)).sup(&Vec3::zeros()).norm();
                let lower = gap - bound_r;
                if lower > best.0.min(cap) {
                    continue;
                }
                let (f, p) = min_over_triangle(cyl, a, b, d);
                if f < best.0 {
                    best = (f, p);
                }
            }
        }
    }
    let buried = best.0 > 0.0 && grid.surface_height(c.x, c.y).is_some_and(|h| c.z < h);
    OracleResult {
        min_signed_distance: best.0,
        witness: best.1,
        buried,
    }
}
