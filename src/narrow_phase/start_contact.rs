//! Contact at the start of the step, decided by equality alone: features
//! that share a point at `t = 0` touch at `t = 0`, the earliest time there
//! is, so the time of impact is exactly 0.
//!
//! Coincident points are common in real meshes (duplicated seam vertices,
//! collapsed triangles, a frame whose vertices all sit at one point) and
//! are the queries that the float tiers cannot sign: the distance is
//! exactly zero at a root of the coplanarity cubic, so they try every tier
//! and then defer them to the exact fallback, at big-integer cost. This
//! test decides them with a few comparisons, exactly (point equality of
//! doubles, `-0.0 == 0.0`, is equality of the points), before any tier:
//! for other queries it costs a few comparisons, the first of which
//! usually fails.
//!
//! A vertex equal to a corner of the triangle touches the closed triangle;
//! an endpoint of one edge equal to an endpoint of the other makes the
//! closed segments meet (see `docs/design.md` §9).

use crate::math::Vec3;

/// `true` when the vertex coincides with a corner of the triangle at
/// `t = 0`: they touch at `t = 0`.
#[inline]
pub(crate) fn vertex_face_touch_at_start(v: &Vec3, f0: &Vec3, f1: &Vec3, f2: &Vec3) -> bool {
    v == f0 || v == f1 || v == f2
}

/// `true` when an endpoint of edge `a` coincides with an endpoint of edge
/// `b` at `t = 0`: they touch at `t = 0`.
#[inline]
pub(crate) fn edge_edge_touch_at_start(a0: &Vec3, a1: &Vec3, b0: &Vec3, b1: &Vec3) -> bool {
    a0 == b0 || a0 == b1 || a1 == b0 || a1 == b1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coincident_points_touch_and_others_are_left_to_the_solver() {
        let p = Vec3::new(0.5, -0.0, 2.0);
        let q = Vec3::new(0.5, 0.0, 2.0); // the same point
        let r = Vec3::new(0.5, 0.0, 2.0f64.next_up());
        let o = Vec3::zeros();
        assert!(vertex_face_touch_at_start(&p, &o, &r, &q));
        assert!(!vertex_face_touch_at_start(&p, &o, &r, &o));
        assert!(edge_edge_touch_at_start(&o, &p, &r, &q));
        assert!(!edge_edge_touch_at_start(&o, &p, &r, &r));
        // A degenerate edge is not a contact between two edges.
        assert!(!edge_edge_touch_at_start(&p, &q, &o, &r));
    }
}
