//! Separation along the edges' own directions: SLPF's theorem (Wan, Fu &
//! Yao 2022, §2, Theorem 1; [`crate::pair_kernel::edge_edge_apart_along`])
//! inside the exact edge–edge solver.
//!
//! If along a constant direction every point of one edge lies strictly
//! below every point of the other at `t = 0` and again at `t = 1`, the
//! edges never touch. Any constant direction will do, so the directions
//! may be rounded; the primitive certifies the signs (inputs in the filter
//! range, which the solver's float tiers have checked).
//!
//! The solver asks this of queries that its float tiers leave undecided,
//! and first of coplanar motion, before the coplanar tier's subdivision.
//! The directions are the two edges' own, at `t = 0` and at `t = 1`: they
//! separate edges that lie end to end along one line, which the coplanar
//! tier cannot decide (its conditions are products with
//! `(ea1 − ea0) × (eb1 − eb0)`, which nearly vanishes). On cloth-ball 92→93
//! these are boundary edges of the cloth lying flat on the floor: ten pairs
//! that reach the solver with `--filters dnf` or `none` (SLPF culls them),
//! and went to the slow oracle before (docs/notes/narrow-phase.md). The vertex–face solver has
//! no such case in the data sets and does not ask.
//!
//! docs/design.md §9.

use crate::math::Vec3;
use crate::pair_kernel::edge_edge_apart_along;

/// `true` when the edges are certified apart, at `t = 0` and at `t = 1`,
/// along the direction of one of them at one of the two times (module doc).
/// Arguments in data set row order, every coordinate in the filter range.
#[allow(clippy::too_many_arguments)]
pub fn edge_edge_separated(
    ea0_t0: &Vec3,
    ea1_t0: &Vec3,
    eb0_t0: &Vec3,
    eb1_t0: &Vec3,
    ea0_t1: &Vec3,
    ea1_t1: &Vec3,
    eb0_t1: &Vec3,
    eb1_t1: &Vec3,
) -> bool {
    [
        ea1_t0 - ea0_t0,
        eb1_t0 - eb0_t0,
        ea1_t1 - ea0_t1,
        eb1_t1 - eb0_t1,
    ]
    .iter()
    .any(|d| {
        edge_edge_apart_along(
            &[d.x, d.y, d.z],
            ea0_t0,
            ea1_t0,
            eb0_t0,
            eb1_t0,
            ea0_t1,
            ea1_t1,
            eb0_t1,
            eb1_t1,
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f64, y: f64, z: f64) -> Vec3 {
        Vec3::new(x, y, z)
    }

    #[test]
    fn edges_end_to_end_on_a_line_are_apart() {
        // On the x axis: [0, 1] and [2, 3], both moving by 0.5 along y.
        let s = v(0.0, 0.5, 0.0);
        let (a0, a1, b0, b1) = (
            v(0.0, 0.0, 0.0),
            v(1.0, 0.0, 0.0),
            v(2.0, 0.0, 0.0),
            v(3.0, 0.0, 0.0),
        );
        assert!(edge_edge_separated(
            &a0,
            &a1,
            &b0,
            &b1,
            &(a0 + s),
            &(a1 + s),
            &(b0 + s),
            &(b1 + s)
        ));
        // Edge b slides back over edge a by t = 1: they overlap then.
        let back = v(-1.5, 0.0, 0.0);
        assert!(!edge_edge_separated(
            &a0,
            &a1,
            &b0,
            &b1,
            &a0,
            &a1,
            &(b0 + back),
            &(b1 + back)
        ));
        // Touching end to end: a zero, not a certified sign.
        assert!(!edge_edge_separated(&a0, &a1, &a1, &b1, &a0, &a1, &a1, &b1));
    }

    #[test]
    fn edges_crossing_in_projection_are_not_apart() {
        // Apart along z (0.5), but not along either edge's direction.
        let (a0, a1) = (v(-1.0, 0.0, 0.0), v(1.0, 0.0, 0.0));
        let (b0, b1) = (v(0.0, -1.0, 0.5), v(0.0, 1.0, 0.5));
        assert!(!edge_edge_separated(&a0, &a1, &b0, &b1, &a0, &a1, &b0, &b1));
    }
}
