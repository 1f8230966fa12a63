//! Baseline 1 of the paper's comparison ("ТРО"/SAT with convex
//! decomposition; Fayzrakhmanov et al. ≈2015, Fig. 3; docs/design.md §3):
//! both polygons split into convex pieces
//! ([`ConvexDecomposition`]), the textbook separating axis theorem on every
//! piece pair, pairs combined by the shared rule of [`super::resolution`].
//!
//! The convex test is the standard one (e.g. Ericson, *Real-Time Collision
//! Detection*, 2005, on the separating-axis test; the paper's ref. \[10\],
//! Huynh's OBB note): the axes are the edge normals of both pieces;
//! an axis separates when the projection intervals are disjoint (touching
//! intervals overlap: closed sets, as in the paper); otherwise the overlap on
//! that axis is the *smaller* of the two pushes `max P − min Q` and
//! `max Q − min P`, with the direction of that push. For two convex polygons
//! the minimum over the edge normals is exactly their penetration depth, and
//! the test itself is exact up to rounding of the projections.
//!
//! Deviation from the paper's baselines: the paper does not describe them
//! further; no per-piece bounding-box culling is done here (nor in the other
//! two methods), so all three do the same kind of work per pair.

use crate::math::Real;

use super::decompose::ConvexDecomposition;
use super::polygon::Vec2;
use super::resolution::{Resolution, ResolutionStats};

/// Projection interval of `points + offset` on `axis`, written exactly as
/// the paper's method projects (see `sat_nonconvex`), so both SATs pay the
/// same per point.
#[inline]
fn project(points: &[Vec2], offset: Vec2, axis: Vec2) -> (Real, Real) {
    let p = points[0] + offset;
    let s = p.x * axis.x + p.y * axis.y;
    let (mut min, mut max) = (s, s);
    for q in &points[1..] {
        let p = q + offset;
        let s = p.x * axis.x + p.y * axis.y;
        min = if s < min { s } else { min };
        max = if s > max { s } else { max };
    }
    (min, max)
}

/// SAT for convex `p` (shifted by `offset`) against convex `q`: `None` when
/// an edge normal separates them, else the minimum translation of `p`, and
/// the number of axes evaluated. Allocates nothing.
pub fn convex_convex(p: &[Vec2], offset: Vec2, q: &[Vec2]) -> (Option<Vec2>, u32) {
    let (np, nq) = (p.len(), q.len());
    let mut best = Real::INFINITY;
    let mut mtv = Vec2::zeros();
    for k in 0..np + nq {
        let e = if k < np {
            p[(k + 1) % np] - p[k]
        } else {
            q[(k - np + 1) % nq] - q[k - np]
        };
        let axis = Vec2::new(-e.y, e.x) / e.norm();
        let (min_p, max_p) = project(p, offset, axis);
        let (min_q, max_q) = project(q, Vec2::zeros(), axis);
        if max_p < min_q || max_q < min_p {
            return (None, k as u32 + 1);
        }
        // Shift p by −axis·(max_p − min_q) or by +axis·(max_q − min_p).
        let down = max_p - min_q;
        let up = max_q - min_p;
        if down <= up {
            if down < best {
                best = down;
                mtv = -axis * down;
            }
        } else if up < best {
            best = up;
            mtv = axis * up;
        }
    }
    (Some(mtv), (np + nq) as u32)
}

/// SAT over all piece pairs of `a` (shifted as it resolves) and `b`.
pub fn resolve(a: &ConvexDecomposition, b: &ConvexDecomposition) -> Resolution {
    let mut stats = ResolutionStats::default();
    let mut t = Vec2::zeros();
    for i in 0..a.len() {
        let pa = a.piece(i);
        for j in 0..b.len() {
            let (hit, axes) = convex_convex(pa, t, b.piece(j));
            stats.pairs_tested += 1;
            stats.axes_tested += axes;
            if let Some(v) = hit {
                stats.pairs_hit += 1;
                t += v;
            }
        }
    }
    Resolution {
        intersects: stats.pairs_hit > 0,
        translation: t,
        stats,
    }
}
