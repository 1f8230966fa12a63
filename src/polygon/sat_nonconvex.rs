//! The paper's method: separating axes for a non-convex polygon without
//! decomposing it, with a minimum translation vector (MTV).
//!
//! Source: Р.А. Файзрахманов, Р.Т. Мурзакаев, М.Д. Швецов, А.С. Мехоношин,
//! А.Ф. Хабибулин, «Алгоритмы обнаружения коллизий плоских двумерных
//! объектов произвольной формы», *Инженерный вестник Дона* (≈2015; the
//! references are dated 26.09.15) — R.A. Fayzrakhmanov et al., "Collision
//! detection algorithms for flat two-dimensional objects of arbitrary shape".
//! The 16 numbered steps are implemented in [`nonconvex_convex`]; the step
//! numbers are in the comments. [`resolve`] is the paper's composition for
//! two non-convex polygons (text before the steps: "one is treated as an
//! indivisible object, the second is split into convex objects, and the first
//! is tested against each convex object of the second in turn").
//!
//! # Readings chosen where the paper is ambiguous
//!
//! 1. **Step 11, `Если (I < D) D = I`.** `I` from steps 7/9 is a signed gap,
//!    `≤ 0` when projections overlap, and `D` starts at `+∞`; taken
//!    literally, `I < D` keeps the *most negative* `I`, i.e. the axis of
//!    *largest* overlap, although `V` is defined as "the axis on which the
//!    overlap of the projections is minimal" and the result is called the
//!    minimum translation vector. Default [`Step11Reading::MinimumOverlap`]
//!    keeps the smallest overlap `−I`; [`Step11Reading::Literal`] does what
//!    the formula says (both are tested; the literal one is not minimal).
//! 2. **Step 10 → step 11.** Step 10 is reached from the last edge of PA with
//!    `I > 0`; its "else go to step 11" would feed that positive `I` to step
//!    11. Under the literal reading this is a no-op (`D ≤ 0` already, since
//!    some earlier PA edge took the `I ≤ 0` branch), so it is skipped under
//!    both readings.
//! 3. **Step 14, "centres of the objects".** The arithmetic mean of the
//!    vertices (of PA shifted so far, and of the current convex piece of PB).
//! 4. **Orientation.** The paper does not fix it. [`Polygon`] stores vertices
//!    counter-clockwise, so step 4's `A = (−Y, X)` is the *inward* normal of
//!    a PA edge; step 9's value `I = p[k]·A − max B` is then minus the depth
//!    by which PB reaches past the edge's line into PA's inner side.
//! 5. **Step 9's edge projection** is the single value `p[k]·A` (both ends of
//!    an edge project to the same point on its own normal), as the paper
//!    writes `min = max = p[k]·A`.
//! 6. **Step 7's distance** is used as written (`I = min B − max A` if
//!    `min A < min B`, else `min A − max B`). For nested intervals this is not
//!    the smaller of the two pushes, and step 14 picks the direction from the
//!    centres, not from the intervals; both are faithful and both can make the
//!    vector non-minimal or even wrong-way (see the evaluation).
//! 7. **Closed sets.** `I ≤ 0` (touching) counts as intersecting, as in step
//!    8. Step 9 is applied only when PA is non-convex (as written); with a
//!    convex PA the method is plain SAT.
//! 8. **Step 15** (shift PA by V) is applied pair after pair, see
//!    [`super::resolution`]; with a convex PB there is one pair.
//!
//! # What the method decides (proved in the tests, measured in the report)
//!
//! With a convex PA it is the separating axis theorem: exact up to
//! floating-point rounding. With a non-convex PA it reports "intersecting"
//! iff (a) no axis normal to an edge of PA or PB separates the *whole*
//! projections and (b) the supporting line of some edge of PA meets PB's
//! projection interval. This is neither necessary nor sufficient:
//! - **false negative (nested)**: PB inside PA, away from every edge line of
//!   PA: (b) fails, step 10 says "certainly not intersecting";
//! - **false positive (pocket)**: PB in a pocket of PA without touching it,
//!   while some edge line of PA passes through PB;
//! - **false positive (missing axis)**: PB outside PA's convex hull but
//!   separable only along a normal of a hull edge that bridges a pocket (not
//!   an edge of PA, so never tried), while (b) holds.

use crate::math::Real;

use super::decompose::ConvexDecomposition;
use super::polygon::{Polygon, Vec2};
use super::resolution::{Resolution, ResolutionStats};

/// Which reading of the paper's step 11 to use (module doc, reading 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Step11Reading {
    /// Keep the axis of smallest overlap (what the paper's prose and the
    /// name "minimum translation vector" ask for). The default.
    #[default]
    MinimumOverlap,
    /// `if I < D { D = I }` with signed `I ≤ 0`: keeps the largest overlap.
    Literal,
}

/// How [`nonconvex_convex`] finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Step 8: an axis separates the whole projections.
    SeparatingAxis,
    /// Step 10: no edge line of the non-convex PA meets PB's projection.
    NoEdgeMeetsB,
    /// Steps 13–14: intersecting, with a translation vector.
    Intersecting,
}

/// Result of the paper's steps 1–14 for one (PA, convex PB) pair.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairOutcome {
    /// Where the algorithm stopped.
    pub exit: Exit,
    /// Step 13–14's `V` (shift for PA) when [`Exit::Intersecting`], else zero.
    pub translation: Vec2,
    /// Axes evaluated (step 4 executions).
    pub axes_tested: u32,
}

/// Step 6: the projection interval `[min, max]` of `points + offset` on `axis`.
#[inline]
fn project(points: &[Vec2], offset: Vec2, axis: Vec2) -> (Real, Real) {
    // 6.1: the first point.
    let p = points[0] + offset;
    let s = p.x * axis.x + p.y * axis.y;
    let (mut min, mut max) = (s, s);
    // 6.2: the other points.
    for q in &points[1..] {
        let p = q + offset;
        let s = p.x * axis.x + p.y * axis.y;
        if s < min {
            min = s;
        } else if s > max {
            max = s;
        }
    }
    (min, max)
}

/// Steps 1–14 of the paper for PA (`pa` shifted by `offset`; `pa_convex`
/// says whether step 9 applies; `pa_centre` unshifted) against a convex PB
/// (`pb`, centre `pb_centre`). Allocates nothing.
#[allow(clippy::too_many_arguments)]
pub fn nonconvex_convex(
    pa: &[Vec2],
    pa_convex: bool,
    pa_centre: Vec2,
    offset: Vec2,
    pb: &[Vec2],
    pb_centre: Vec2,
    reading: Step11Reading,
) -> PairOutcome {
    let na = pa.len();
    let nb = pb.len();
    // Step 2: m = total number of edges (PA's first, then PB's).
    let m = na + nb;
    // Step 11's state: D (default +∞) and V.
    let mut d = Real::INFINITY;
    let mut v = Vec2::zeros();
    // Step 10 needs to know whether any edge of PA met PB (step 9.3).
    let mut some_pa_edge_meets_b = false;
    let mut axes_tested = 0;
    // Step 3: k = 1; step 12 advances k.
    for k in 0..m {
        // Step 1: edge E[k] = p[i+1] − p[i] (p[1] − p[n] for the last).
        let (p_start, p_end) = if k < na {
            (pa[k] + offset, pa[(k + 1) % na] + offset)
        } else {
            let j = k - na;
            (pb[j], pb[(j + 1) % nb])
        };
        let e = p_end - p_start;
        // Step 4: axis perpendicular to E[k]: A = (−Y, X).
        let mut axis = Vec2::new(-e.y, e.x);
        // Step 5: normalise, L = √(X² + Y²).
        let l = (axis.x * axis.x + axis.y * axis.y).sqrt();
        axis /= l;
        axes_tested += 1;
        // Step 6: projections of PA and PB on A.
        let (min_a, max_a) = project(pa, offset, axis);
        let (min_b, max_b) = project(pb, Vec2::zeros(), axis);
        // Step 7: distance between the projections.
        let mut i_gap = if min_a < min_b {
            min_b - max_a
        } else {
            min_a - max_b
        };
        // Step 8: I > 0 ⇒ the polygons do not intersect (go to step 16).
        if i_gap > 0.0 {
            return PairOutcome {
                exit: Exit::SeparatingAxis,
                translation: Vec2::zeros(),
                axes_tested,
            };
        }
        // Step 9: an edge of a non-convex PA: distance between PB's
        // projection and the edge's (9.1: min = max = p[k]·A).
        if k < na && !pa_convex {
            let s = p_start.x * axis.x + p_start.y * axis.y;
            // 9.2.
            i_gap = if s < min_b { min_b - s } else { s - max_b };
            // 9.3.
            if i_gap > 0.0 {
                if k == na - 1 {
                    // Step 10: no edge of PA met PB ⇒ certainly apart.
                    if !some_pa_edge_meets_b {
                        return PairOutcome {
                            exit: Exit::NoEdgeMeetsB,
                            translation: Vec2::zeros(),
                            axes_tested,
                        };
                    }
                    // "else go to step 11" with this I > 0: a no-op
                    // (module doc, reading 2).
                }
                // Next edge (step 4).
                continue;
            }
            some_pa_edge_meets_b = true;
        }
        // Step 11: keep the axis of minimal overlap.
        match reading {
            Step11Reading::MinimumOverlap => {
                if -i_gap < d {
                    d = -i_gap;
                    v = axis;
                }
            }
            Step11Reading::Literal => {
                if i_gap < d {
                    d = i_gap;
                    v = axis;
                }
            }
        }
        // Step 12: next edge.
    }
    // Step 13: V = V·D.
    let mut v = v * d;
    // Step 14: sign from the centres, C = C_PA − C_PB.
    let c = (pa_centre + offset) - pb_centre;
    if c.x * v.x + c.y * v.y < 0.0 {
        v = -v;
    }
    PairOutcome {
        exit: Exit::Intersecting,
        translation: v,
        axes_tested,
    }
}

/// The paper's method for PA (whole) against PB (as convex pieces; a convex
/// PB is one piece): steps 1–14 per piece, step 15 (shift PA) after each
/// intersecting piece. Allocates nothing.
pub fn resolve(pa: &Polygon, pb: &ConvexDecomposition, reading: Step11Reading) -> Resolution {
    let mut stats = ResolutionStats::default();
    let mut t = Vec2::zeros();
    for j in 0..pb.len() {
        let out = nonconvex_convex(
            pa.vertices(),
            pa.is_convex(),
            pa.centre(),
            t,
            pb.piece(j),
            pb.centre(j),
            reading,
        );
        stats.pairs_tested += 1;
        stats.axes_tested += out.axes_tested;
        match out.exit {
            Exit::SeparatingAxis => {}
            Exit::NoEdgeMeetsB => stats.step10_exits += 1,
            Exit::Intersecting => {
                stats.pairs_hit += 1;
                // Step 15: shift PA by V.
                t += out.translation;
            }
        }
    }
    Resolution {
        intersects: stats.pairs_hit > 0,
        translation: t,
        stats,
    }
}
