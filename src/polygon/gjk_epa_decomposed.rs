//! Baseline 2 of the paper's comparison: GJK/EPA with convex decomposition,
//! through parry2d-f64 0.31 (Fayzrakhmanov et al. ≈2015, Fig. 3;
//! docs/design.md §3, "2D polygons in the crate").
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

/// parry refused a piece: it needs a unit normal for every edge, computed
/// in floating point, and a validated polygon (decided exactly) can still
/// have an edge whose squared length overflows to infinity (far-out
/// coordinates) or underflows to zero (a tiny edge). Reported, not panicked.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("parry2d rejected convex piece {piece} ({len} vertices){}", edge_text(.edge.as_ref()))]
pub struct ParryPieceError {
    /// Index of the piece.
    pub piece: usize,
    /// Its vertex count.
    pub len: usize,
    /// The first edge without a unit normal; `None` when no edge explains
    /// the refusal (not expected).
    pub edge: Option<BadEdge>,
}

/// An edge of a convex piece that has no unit normal in floating point.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
pub enum BadEdge {
    /// Its squared length overflows (an edge longer than about 1.3e154).
    #[error(
        "the edge from ({:?}, {:?}) to ({:?}, {:?}) is too long: its squared length \
         overflows (edges must be shorter than about 1e154)",
        .from.x, .from.y, .to.x, .to.y
    )]
    TooLong {
        /// Its first vertex (counter-clockwise).
        from: Vec2,
        /// Its second vertex.
        to: Vec2,
    },
    /// Its squared length underflows to zero (an edge shorter than about
    /// 1.5e-162).
    #[error(
        "the edge from ({:?}, {:?}) to ({:?}, {:?}) is too short: its squared length \
         underflows to zero (edges must be longer than about 1e-162)",
        .from.x, .from.y, .to.x, .to.y
    )]
    TooShort {
        /// Its first vertex (counter-clockwise).
        from: Vec2,
        /// Its second vertex.
        to: Vec2,
    },
}

fn edge_text(edge: Option<&BadEdge>) -> String {
    edge.map_or_else(String::new, |e| format!(": {e}"))
}

impl BadEdge {
    /// The first edge of the closed outline `piece` whose squared length is
    /// not a positive finite number (what parry's `try_normalize` refuses).
    pub fn find(piece: &[Vec2]) -> Option<BadEdge> {
        let n = piece.len();
        (0..n).find_map(|i| {
            let (from, to) = (piece[i], piece[(i + 1) % n]);
            let d = to - from;
            let l2 = d.x * d.x + d.y * d.y;
            if !l2.is_finite() {
                Some(BadEdge::TooLong { from, to })
            } else if l2 == 0.0 {
                Some(BadEdge::TooShort { from, to })
            } else {
                None
            }
        })
    }
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
                ConvexPolygon::from_convex_polyline_unmodified(pts).ok_or_else(|| ParryPieceError {
                    piece,
                    len: p.len(),
                    edge: BadEdge::find(p),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::polygon::Polygon;

    fn refusal(points: &[[f64; 2]]) -> ParryPieceError {
        let polygon = Polygon::from_xy(points).unwrap();
        ParryPieces::new(&ConvexDecomposition::new(&polygon).unwrap()).unwrap_err()
    }

    #[test]
    fn a_refused_piece_names_its_edge_and_why() {
        // Was "parry2d rejected convex piece 0 (3 vertices)", no reason.
        let e = refusal(&[[-1e308, -1e308], [1e308, -1e308], [0.0, 1e308]]);
        assert_eq!(e.piece, 0);
        assert!(
            matches!(e.edge, Some(BadEdge::TooLong { from, to })
                if from == Vec2::new(-1e308, -1e308) && to == Vec2::new(1e308, -1e308)),
            "{e:?}"
        );
        let m = e.to_string();
        assert!(
            m.ends_with(
                "the edge from (-1e308, -1e308) to (1e308, -1e308) is too long: its squared \
                 length overflows (edges must be shorter than about 1e154)"
            ),
            "{m}"
        );
        let e = refusal(&[[0.0, 0.0], [5e-324, 0.0], [0.0, 5e-324]]);
        assert!(matches!(e.edge, Some(BadEdge::TooShort { .. })), "{e:?}");
        assert!(e.to_string().contains("is too short"), "{e}");
        // Far-out but representable: accepted.
        let ok = Polygon::from_xy(&[[0.0, 0.0], [1e150, 0.0], [0.0, 1e150]]).unwrap();
        assert!(ParryPieces::new(&ConvexDecomposition::new(&ok).unwrap()).is_ok());
    }
}
