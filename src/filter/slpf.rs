//! SLPF, the spatial linear projection filter (Wan, Fu & Yao, "Continuous
//! collision detection algorithm based on spatial linear projection",
//! *Intelligent Computer and Applications* 12(2), 2022, §2, Eqs. (1)–(2)).
//!
//! Project the pair onto a line with direction `s`. Each difference
//! `(P(t) − A(t))·s = (1 − t)(P₀ − A₀)·s + t(P₁ − A₁)·s` is linear in `t`, so
//! its sign on `[0, 1]` is fixed when its values at `t = 0` and `t = 1` have
//! the same strict sign (Theorem 1: disjoint projections ⇒ disjoint
//! primitives).
//!
//! - VF (vertex `P`, triangle `A B C`), Eq. (1): cull if the six numbers
//!   `X₁ … X₆ = (P₀−A₀)·s, (P₁−A₁)·s, (P₀−B₀)·s, (P₁−B₁)·s, (P₀−C₀)·s,
//!   (P₁−C₁)·s` have one strict sign.
//! - EE (edges `A B`, `C D`), Eq. (2): cull if the eight numbers
//!   `(A₀−C₀)·s, (A₀−D₀)·s, (B₀−C₀)·s, (B₀−D₀)·s` and the same at `t = 1`
//!   have one strict sign.
//!
//! A pair is culled if any direction culls it.
//!
//! **Guarantee:** [`Verdict::Culled`] ⇒ no contact in `[0, 1]`: every sign is
//! certified ([`crate::pair_kernel::vertex_face_apart_along`],
//! [`crate::pair_kernel::edge_edge_apart_along`]: [`crate::math::Bounded`], with
//! the differences as exact-rounded leaves; along a coordinate axis the
//! rounded difference has the exact sign outright).
//!
//! The paper's five directions are [`PAPER_DIRECTIONS`] (it reports that
//! adding `y` and `z` to `x` culls nothing more). Directions need not be unit
//! vectors for a sign test, so they are kept exact (`(1,1,0)` instead of
//! `(√2/2, √2/2, 0)`); any set can be passed to study others.
//!
//! docs/design.md §2.2 (the filter) and §7 (its guarantee under rounding).

use super::Verdict;
use crate::math::Vec3;
use crate::pair_kernel::{edge_edge_apart_along, vertex_face_apart_along};

/// The paper's projection directions (§2.3): `x`, `(1,1,0)`, `(1,0,1)`,
/// `(0,1,1)`, `(1,1,1)`, unnormalised.
pub const PAPER_DIRECTIONS: [[f64; 3]; 5] = [
    [1.0, 0.0, 0.0],
    [1.0, 1.0, 0.0],
    [1.0, 0.0, 1.0],
    [0.0, 1.0, 1.0],
    [1.0, 1.0, 1.0],
];

/// SLPF on a vertex–face pair (data set row order) with the given
/// directions.
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn slpf_vertex_face(
    directions: &[[f64; 3]],
    v_t0: &Vec3,
    f0_t0: &Vec3,
    f1_t0: &Vec3,
    f2_t0: &Vec3,
    v_t1: &Vec3,
    f0_t1: &Vec3,
    f1_t1: &Vec3,
    f2_t1: &Vec3,
) -> Verdict {
    Verdict::culled_if(
        directions.iter().any(|s| {
            vertex_face_apart_along(s, v_t0, f0_t0, f1_t0, f2_t0, v_t1, f0_t1, f1_t1, f2_t1)
        }),
    )
}

/// SLPF on an edge–edge pair (data set row order) with the given directions.
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn slpf_edge_edge(
    directions: &[[f64; 3]],
    ea0_t0: &Vec3,
    ea1_t0: &Vec3,
    eb0_t0: &Vec3,
    eb1_t0: &Vec3,
    ea0_t1: &Vec3,
    ea1_t1: &Vec3,
    eb0_t1: &Vec3,
    eb1_t1: &Vec3,
) -> Verdict {
    Verdict::culled_if(directions.iter().any(|s| {
        edge_edge_apart_along(
            s, ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1,
        )
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tri() -> [Vec3; 3] {
        [
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
        ]
    }

    #[test]
    fn culls_a_vertex_that_stays_beside_the_triangle() {
        // The vertex crosses the triangle's plane, but stays at x > 1 (DNF
        // cannot cull this; SLPF along x can).
        let [a, b, c] = tri();
        let (p0, p1) = (Vec3::new(2.0, 0.5, 1.0), Vec3::new(2.0, 0.5, -1.0));
        let v = slpf_vertex_face(&PAPER_DIRECTIONS, &p0, &a, &b, &c, &p1, &a, &b, &c);
        assert_eq!(v, Verdict::Culled);
    }

    #[test]
    fn passes_a_vertex_falling_through() {
        let [a, b, c] = tri();
        let (p0, p1) = (Vec3::new(0.2, 0.2, 1.0), Vec3::new(0.2, 0.2, -1.0));
        let v = slpf_vertex_face(&PAPER_DIRECTIONS, &p0, &a, &b, &c, &p1, &a, &b, &c);
        assert_eq!(v, Verdict::Pass);
    }

    #[test]
    fn a_diagonal_direction_culls_what_the_axes_cannot() {
        // Vertex at (0.6, 0.6): inside the triangle's x- and y-extents, but on
        // the far side of the hypotenuse x + y = 1 along (1,1,0).
        let [a, b, c] = tri();
        let (p0, p1) = (Vec3::new(0.6, 0.6, 1.0), Vec3::new(0.6, 0.6, -1.0));
        let axes = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
        assert_eq!(
            slpf_vertex_face(&axes, &p0, &a, &b, &c, &p1, &a, &b, &c),
            Verdict::Pass
        );
        assert_eq!(
            slpf_vertex_face(&PAPER_DIRECTIONS, &p0, &a, &b, &c, &p1, &a, &b, &c),
            Verdict::Culled
        );
    }

    #[test]
    fn edges_on_separate_sides() {
        let (a, b) = (Vec3::new(0.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0));
        let (c, d) = (Vec3::new(3.0, -1.0, 0.0), Vec3::new(3.0, 1.0, 0.0));
        let v = slpf_edge_edge(&PAPER_DIRECTIONS, &a, &b, &c, &d, &a, &b, &c, &d);
        assert_eq!(v, Verdict::Culled);
        // Touching at x = 1: projections meet, no strict separation.
        let (c, d) = (Vec3::new(1.0, -1.0, 0.0), Vec3::new(1.0, 1.0, 0.0));
        let v = slpf_edge_edge(&PAPER_DIRECTIONS, &a, &b, &c, &d, &a, &b, &c, &d);
        assert_eq!(v, Verdict::Pass);
    }
}
