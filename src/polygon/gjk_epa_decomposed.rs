//! Baseline 2 of the paper's comparison: GJK/EPA with convex decomposition,
//! through parry2d-f64 0.31.
//!
//! Each convex piece becomes a `parry2d_f64::shape::ConvexPolygon`
//! (`from_convex_polyline_unmodified`, so parry keeps our exact vertices;
//! its `from_convex_polyline` would drop nearly collinear ones with a
//! √ε angle tolerance). A pair is queried with
//! `query::details::contact_support_map_support_map` with prediction 0:
//! GJK (Gilbert, Johnson & Keerthi, *IEEE J. Robotics and Automation* 4(2),
//! 1988) for the closest points, falling back to EPA (van den Bergen,
//! "Proximity queries and penetration depth computation on 3D game objects",
//! GDC 2001) when the origin is inside the Minkowski difference. This is the
//! routine `parry2d_f64::query::contact` dispatches to for two convex
//! polygons; calling it directly skips the `dyn Shape` dispatch.
//!
//! parry 0.31 uses `glamx` types: `Vector` = `glam::DVec2`, `Pose` =
//! `glamx::DPose2`. A returned `Contact` has `dist ≤ 0` when penetrating and
//! `normal1` pointing out of the first shape, so the first shape's shift is
//! `normal1 · dist`. Pairs are combined by the rule of [`super::resolution`].
//!
//! GJK/EPA iterate to parry's tolerances, so its verdicts on near-touching
//! pairs and its depths are approximate; the evaluation measures how often.

use parry2d_f64::math::{Pose, Vector};
use parry2d_f64::query::details::contact_support_map_support_map;
use parry2d_f64::shape::ConvexPolygon;

use super::decompose::ConvexDecomposition;
use super::polygon::Vec2;
use super::resolution::{Resolution, ResolutionStats};

/// parry refused a piece (fewer than three points or a zero-length edge).
/// Unreachable for pieces of a validated polygon; reported, not panicked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("parry2d rejected convex piece {piece} ({len} vertices)")]
pub struct ParryPieceError {
    /// Index of the piece.
    pub piece: usize,
    /// Its vertex count.
    pub len: usize,
}

/// A polygon's convex pieces as parry shapes.
#[derive(Debug, Clone)]
pub struct ParryPieces {
    pieces: Vec<ConvexPolygon>,
}

impl ParryPieces {
    /// Converts a decomposition.
    pub fn new(d: &ConvexDecomposition) -> Result<ParryPieces, ParryPieceError> {
        let pieces = d
            .pieces()
            .enumerate()
            .map(|(piece, p)| {
                let pts: Vec<Vector> = p.iter().map(|v| Vector::new(v.x, v.y)).collect();
                ConvexPolygon::from_convex_polyline_unmodified(pts).ok_or(ParryPieceError {
                    piece,
                    len: p.len(),
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(ParryPieces { pieces })
    }

    /// Number of pieces.
    pub fn len(&self) -> usize {
        self.pieces.len()
    }

    /// Always `false` for pieces of a polygon.
    pub fn is_empty(&self) -> bool {
        self.pieces.is_empty()
    }

    /// The parry shapes.
    pub fn pieces(&self) -> &[ConvexPolygon] {
        &self.pieces
    }
}

/// GJK/EPA on one pair: `p` shifted by `offset` against `q` (both in world
/// coordinates). `Some(shift of p)` when touching or penetrating.
pub fn convex_convex(p: &ConvexPolygon, offset: Vec2, q: &ConvexPolygon) -> Option<Vec2> {
    // pos12 = pos1⁻¹·pos2 with pos1 = translation(offset), pos2 = identity.
    let pos12 = Pose::from_translation(Vector::new(-offset.x, -offset.y));
    let c = contact_support_map_support_map(&pos12, p, q, 0.0)?;
    if c.dist > 0.0 {
        return None;
    }
    let shift = c.normal1 * c.dist;
    Some(Vec2::new(shift.x, shift.y))
}

/// GJK/EPA over all piece pairs of `a` (shifted as it resolves) and `b`.
pub fn resolve(a: &ParryPieces, b: &ParryPieces) -> Resolution {
    let mut stats = ResolutionStats::default();
    let mut t = Vec2::zeros();
    for pa in &a.pieces {
        for pb in &b.pieces {
            stats.pairs_tested += 1;
            if let Some(v) = convex_convex(pa, t, pb) {
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
