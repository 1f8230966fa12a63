//! Separation along a fixed direction: SLPF's theorem (Wan, Fu & Yao 2022,
//! §2.2) inside the exact edge–edge solver, with directions taken from the
//! query itself.
//!
//! If along a constant direction `d` every point of one edge lies strictly
//! below every point of the other at `t = 0` and again at `t = 1`, then for
//! each pair `(a, b)` of their end points the linear function
//! `(b(t) − a(t))·d` is positive at both ends of the step, hence on all of
//! `[0, 1]`: the segments' convex hulls never meet, so they never touch.
//! Any constant `d` will do, so `d` may be rounded; what must be certified
//! are the signs of the eight `(b − a)·d` (two ends of each edge, two
//! times). Each is the dot product of an exact difference (one rounding per
//! coordinate) with a vector of exact doubles, signed by
//! [`crate::math::Bounded`]; the caller guarantees the filter range
//! ([`crate::math::in_filter_range`]), under which that model holds.
//!
//! The solver asks this only of queries that its float tiers leave
//! undecided, before the exact oracle. The directions are the two edges'
//! own, at `t = 0` and at `t = 1`: they separate edges that lie end to end
//! along one line, which the coplanar tier cannot decide when the motion is
//! coplanar (its conditions are products with `(ea1 − ea0) × (eb1 − eb0)`,
//! which nearly vanishes). On cloth-ball 92→93 these are boundary edges of
//! the cloth lying flat on the floor: ten pairs that reach the solver with
//! `--filters dnf` or `none` (SLPF culls them), each of which took the
//! oracle about 250 µs. The vertex–face solver has no such case in the
//! data sets and does not ask.

use crate::math::{BoundedVec3, Vec3};

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
    let a = [[ea0_t0, ea1_t0], [ea0_t1, ea1_t1]];
    let b = [[eb0_t0, eb1_t0], [eb0_t1, eb1_t1]];
    [
        ea1_t0 - ea0_t0,
        eb1_t0 - eb0_t0,
        ea1_t1 - ea0_t1,
        eb1_t1 - eb0_t1,
    ]
    .iter()
    .any(|d| apart_along(d, &a, &b))
}

/// `true` when `(q − p)·d` has one certified, non-zero sign for every point
/// `p` of `a[t]` and `q` of `b[t]`, at both times `t`.
fn apart_along(d: &Vec3, a: &[[&Vec3; 2]; 2], b: &[[&Vec3; 2]; 2]) -> bool {
    let d = BoundedVec3::exact(d);
    let (mut above, mut below) = (true, true);
    for (at, bt) in a.iter().zip(b) {
        for p in at {
            for q in bt {
                match BoundedVec3::difference(q, p).dot(&d).sign() {
                    Some(1) => below = false,
                    Some(-1) => above = false,
                    _ => return false,
                }
            }
        }
    }
    above || below
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
