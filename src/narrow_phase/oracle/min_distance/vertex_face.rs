//! Exact minimum-separation vertex–face CCD (docs/design.md §5): the earliest
//! `t ∈ [0, 1]` at which the vertex is within `d` of the closed triangle,
//! as the union of seven regions (the three corners, the three edges, the
//! face; [`super::regions`]).

use super::regions::{earliest_within, point_face, point_point, point_segment, scaled};
use crate::exact::{Algebraic, Dyadic};
use crate::math::Vec3;

/// The earliest time at which vertex `v` is within Euclidean distance `d` of
/// the closed triangle `f0 f1 f2`, exactly; `None` when it never is in
/// `[0, 1]`. Arguments in data set row order, then `d`.
///
/// The same contract for `d` as [`crate::narrow_phase::vertex_face_within`]:
/// a negative or NaN `d` admits no time (`None`), `d = +∞` every time (`0`).
///
/// # Panics
/// When a coordinate is NaN or infinite and `d` is a finite `d ≥ 0` (the
/// other `d` are answered before the coordinates are read).
#[allow(clippy::too_many_arguments)]
pub fn vertex_face_within(
    v_t0: &Vec3,
    f0_t0: &Vec3,
    f1_t0: &Vec3,
    f2_t0: &Vec3,
    v_t1: &Vec3,
    f0_t1: &Vec3,
    f1_t1: &Vec3,
    f2_t1: &Vec3,
    d: f64,
) -> Option<Algebraic> {
    if d.is_nan() || d < 0.0 {
        return None;
    }
    if d == f64::INFINITY {
        return Some(Algebraic::exact(Dyadic::zero()));
    }
    let ([p, a, b, c], d2) = scaled([v_t0, f0_t0, f1_t0, f2_t0, v_t1, f0_t1, f1_t1, f2_t1], d);
    let regions = [
        point_point(&p, &a, &d2),
        point_point(&p, &b, &d2),
        point_point(&p, &c, &d2),
        point_segment(&p, &a, &b, &d2),
        point_segment(&p, &b, &c, &d2),
        point_segment(&p, &c, &a, &d2),
        point_face(&p, &a, &b, &c, &d2),
    ];
    earliest_within(&regions)
}

#[cfg(test)]
mod tests {
    use super::super::super::vertex_face as contact;
    use super::*;

    fn v(x: f64, y: f64, z: f64) -> Vec3 {
        Vec3::new(x, y, z)
    }

    /// The time's bracket after refining to `2⁻⁶⁰`; `(t, t)` for a dyadic
    /// time (the roots that are dyadics are found exactly).
    fn bracket(q: [Vec3; 8], d: f64) -> Option<(f64, f64)> {
        vertex_face_within(&q[0], &q[1], &q[2], &q[3], &q[4], &q[5], &q[6], &q[7], d).map(
            |mut t| {
                t.refine_to(1.0 / (1u64 << 60) as f64);
                (t.lower_f64(), t.upper_f64())
            },
        )
    }

    /// The time, asserted to be a dyadic (all the hand-made cases but one).
    fn toi(q: [Vec3; 8], d: f64) -> Option<f64> {
        bracket(q, d).map(|(lo, hi)| {
            assert_eq!(lo, hi, "not a dyadic time");
            lo
        })
    }

    /// A static right triangle in `z = 0`, legs 4 along `x` and `y`.
    fn tri() -> [Vec3; 3] {
        [v(0.0, 0.0, 0.0), v(4.0, 0.0, 0.0), v(0.0, 4.0, 0.0)]
    }

    fn query(p0: Vec3, p1: Vec3) -> [Vec3; 8] {
        let [a, b, c] = tri();
        [p0, a, b, c, p1, a, b, c]
    }

    #[test]
    fn falling_onto_the_face_interior() {
        // Height 2 − 2t over (1, 1): within 1 from t = ½.
        let q = query(v(1.0, 1.0, 2.0), v(1.0, 1.0, 0.0));
        assert_eq!(toi(q, 1.0), Some(0.5));
        assert_eq!(toi(q, 2.0), Some(0.0));
        assert_eq!(toi(q, 0.0), Some(1.0));
    }

    #[test]
    fn gliding_along_an_edge_at_exactly_d() {
        // Distance exactly 1.25 from the line of edge (0,0,0)–(4,0,0), outside
        // the face region (y < 0); over the edge from x = 0, t = ¼.
        // 0.75² + 1² = 1.25², all exact doubles.
        let q = query(v(-2.0, -0.75, 1.0), v(6.0, -0.75, 1.0));
        assert_eq!(toi(q, 1.25), Some(0.25));
        assert_eq!(toi(q, 1.25f64.next_down()), None);
    }

    #[test]
    fn touching_a_corner_at_one_instant() {
        // Closest to corner a = 0 at t = ½, at distance 5 (3-4-5), in a's
        // vertex region (x < 0, y < 0).
        let q = query(v(-3.0, -4.0, -4.0), v(-3.0, -4.0, 4.0));
        assert_eq!(toi(q, 5.0), Some(0.5));
        assert_eq!(toi(q, 5.0f64.next_down()), None);
        // Within 5 + δ: from before ½.
        let (lo, hi) = bracket(q, 5.0f64.next_up()).unwrap();
        assert!(lo < hi && hi < 0.5 && lo > 0.49, "{lo} {hi}");
    }

    #[test]
    fn degenerate_triangle_is_a_segment() {
        let (a, b, c) = (v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(2.0, 0.0, 0.0));
        let q = [v(1.5, 3.0, 0.0), a, b, c, v(1.5, -1.0, 0.0), a, b, c];
        assert_eq!(toi(q, 1.0), Some(0.5));
        let q = [v(3.0, 3.0, 0.0), a, b, c, v(3.0, -1.0, 0.0), a, b, c];
        // Nearest to the end (2, 0, 0): distance 1 at y = 0, t = ¾.
        assert_eq!(toi(q, 1.0), Some(0.75));
        assert_eq!(toi(q, 0.5), None);
        // All three corners at one point.
        let q = [v(0.0, 0.0, 2.0), a, a, a, v(0.0, 0.0, -2.0), a, a, a];
        assert_eq!(toi(q, 1.0), Some(0.25));
    }

    #[test]
    fn starting_within_d_is_time_zero() {
        let q = query(v(1.0, 1.0, 0.5), v(9.0, 9.0, 9.0));
        assert_eq!(toi(q, 0.5), Some(0.0));
        assert_eq!(toi(q, 0.25), None);
    }

    #[test]
    fn the_contract_for_d() {
        let q = query(v(1.0, 1.0, 2.0), v(1.0, 1.0, 0.0));
        assert_eq!(toi(q, -1.0), None);
        assert_eq!(toi(q, f64::NAN), None);
        assert_eq!(toi(q, f64::INFINITY), Some(0.0));
        assert_eq!(toi(q, -0.0), Some(1.0));
    }

    #[test]
    fn zero_distance_is_contact() {
        // The same verdicts and times as the contact oracle on a few queries.
        let [a, b, c] = tri();
        let cases = [
            query(v(1.0, 1.0, 1.0), v(1.0, 1.0, -1.0)),
            query(v(3.0, 3.0, 1.0), v(3.0, 3.0, -1.0)),
            query(v(2.0, 2.0, 1.0), v(2.0, 2.0, -3.0)),
            [v(7.0, 1.0, 0.0), a, b, c, v(-1.0, 1.0, 0.0), a, b, c],
        ];
        for q in cases {
            let expect =
                contact(&q[0], &q[1], &q[2], &q[3], &q[4], &q[5], &q[6], &q[7]).map(|mut t| {
                    t.refine_to(1.0 / (1u64 << 60) as f64);
                    assert_eq!(t.lower_f64(), t.upper_f64());
                    t.lower_f64()
                });
            assert_eq!(toi(q, 0.0), expect, "{q:?}");
        }
    }
}
