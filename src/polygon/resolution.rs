//! What every collision-resolution method of [`crate::polygon`] returns, and
//! the one combination rule they share (Fayzrakhmanov et al. ≈2015;
//! docs/design.md §3).
//!
//! All three methods test convex pairs (the paper: the whole first polygon
//! against each convex piece of the second; the baselines: piece against
//! piece) and must turn several pairwise translation vectors into one. The
//! paper's step 15 ("shift polygon PA by V") applied pair after pair is the
//! rule used for all three: pairs are visited in a fixed order, each pair is
//! tested with the first polygon already shifted by the sum of the previous
//! pairs' vectors, and the result is that sum. Until the first intersecting
//! pair the shift is zero, so [`Resolution::intersects`] (= some pair
//! intersected) is the verdict for the polygons as given. One pass is made,
//! as in the paper; a later shift can undo an earlier one, so the final
//! translation is *not* guaranteed to separate — the evaluation measures how
//! often it does.

use super::polygon::Vec2;

/// Counters of one resolution query.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ResolutionStats {
    /// Convex pairs tested.
    pub pairs_tested: u32,
    /// Convex pairs found intersecting (each contributed a shift).
    pub pairs_hit: u32,
    /// Separating-axis candidates evaluated (SAT methods; 0 for GJK/EPA).
    pub axes_tested: u32,
    /// Pairs that the paper's step 10 declared separate (no edge of the
    /// non-convex polygon meets the other's projection). Paper method only.
    pub step10_exits: u32,
}

/// The outcome of resolving one polygon pair.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Resolution {
    /// The method's verdict for the polygons as given.
    pub intersects: bool,
    /// The total shift of the first polygon (zero when `!intersects`).
    pub translation: Vec2,
    /// Counters.
    pub stats: ResolutionStats,
}
