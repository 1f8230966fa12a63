//! Exact minimum-separation edge–edge CCD (docs/design.md §5): the earliest
//! `t ∈ [0, 1]` at which the two closed segments are within `d`, as the
//! union of nine regions (four endpoint pairs, four endpoint–segment, the
//! interiors; [`super::regions`]).

use super::regions::{earliest_within, point_point, point_segment, scaled, segment_segment};
use crate::exact::{Algebraic, Dyadic};
use crate::math::Vec3;

/// The earliest time at which the closed segments `ea0 ea1` and `eb0 eb1` are
/// within Euclidean distance `d`, exactly; `None` when they never are in
/// `[0, 1]`. Arguments in data set row order, then `d`.
///
/// The same contract for `d` as [`crate::narrow_phase::edge_edge_within`]:
/// a negative or NaN `d` admits no time (`None`), `d = +∞` every time (`0`).
///
/// # Panics
/// When a coordinate is NaN or infinite and `d` is a finite `d ≥ 0` (the
/// other `d` are answered before the coordinates are read).
#[allow(clippy::too_many_arguments)]
pub fn edge_edge_within(
    ea0_t0: &Vec3,
    ea1_t0: &Vec3,
    eb0_t0: &Vec3,
    eb1_t0: &Vec3,
    ea0_t1: &Vec3,
    ea1_t1: &Vec3,
    eb0_t1: &Vec3,
    eb1_t1: &Vec3,
    d: f64,
) -> Option<Algebraic> {
    if d.is_nan() || d < 0.0 {
        return None;
    }
    if d == f64::INFINITY {
        return Some(Algebraic::exact(Dyadic::zero()));
    }
    let ([a0, a1, b0, b1], d2) = scaled(
        [
            ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1,
        ],
        d,
    );
    let regions = [
        point_point(&a0, &b0, &d2),
        point_point(&a0, &b1, &d2),
        point_point(&a1, &b0, &d2),
        point_point(&a1, &b1, &d2),
        point_segment(&a0, &b0, &b1, &d2),
        point_segment(&a1, &b0, &b1, &d2),
        point_segment(&b0, &a0, &a1, &d2),
        point_segment(&b1, &a0, &a1, &d2),
        segment_segment(&a0, &a1, &b0, &b1, &d2),
    ];
    earliest_within(&regions)
}

#[cfg(test)]
mod tests {
    use super::super::super::edge_edge as contact;
    use super::*;

    fn v(x: f64, y: f64, z: f64) -> Vec3 {
        Vec3::new(x, y, z)
    }

    /// The time's bracket after refining to `2⁻⁶⁰`; `(t, t)` for a dyadic
    /// time (the roots that are dyadics are found exactly).
    fn bracket(q: [Vec3; 8], d: f64) -> Option<(f64, f64)> {
        edge_edge_within(&q[0], &q[1], &q[2], &q[3], &q[4], &q[5], &q[6], &q[7], d).map(|mut t| {
            t.refine_to(1.0 / (1u64 << 60) as f64);
            (t.lower_f64(), t.upper_f64())
        })
    }

    /// The time, asserted to be a dyadic (all the hand-made cases but one).
    fn toi(q: [Vec3; 8], d: f64) -> Option<f64> {
        bracket(q, d).map(|(lo, hi)| {
            assert_eq!(lo, hi, "not a dyadic time");
            lo
        })
    }

    #[test]
    fn skew_edges_approach_across() {
        // a along x in z = 0; b along y at height 2 − 2t: within 1 at t = ½.
        let (a0, a1) = (v(-1.0, 0.0, 0.0), v(1.0, 0.0, 0.0));
        let q = [
            a0,
            a1,
            v(0.0, -1.0, 2.0),
            v(0.0, 1.0, 2.0),
            a0,
            a1,
            v(0.0, -1.0, 0.0),
            v(0.0, 1.0, 0.0),
        ];
        assert_eq!(toi(q, 1.0), Some(0.5));
        assert_eq!(toi(q, 0.0), Some(1.0));
        assert_eq!(toi(q, 3.0), Some(0.0));
    }

    #[test]
    fn parallel_edges_at_exactly_d() {
        // a = [0, 2] on the x axis; b = [1, 3] at y = 3 − 4t: within 1 at ½.
        let (a0, a1) = (v(0.0, 0.0, 0.0), v(2.0, 0.0, 0.0));
        let q = [
            a0,
            a1,
            v(1.0, 3.0, 0.0),
            v(3.0, 3.0, 0.0),
            a0,
            a1,
            v(1.0, -1.0, 0.0),
            v(3.0, -1.0, 0.0),
        ];
        assert_eq!(toi(q, 1.0), Some(0.5));
        // b = [3, 5]: the gap to a's end is 1 when collinear, at t = ¾.
        let q = [
            a0,
            a1,
            v(3.0, 3.0, 0.0),
            v(5.0, 3.0, 0.0),
            a0,
            a1,
            v(3.0, -1.0, 0.0),
            v(5.0, -1.0, 0.0),
        ];
        assert_eq!(toi(q, 1.0), Some(0.75));
        assert_eq!(toi(q, 1.0f64.next_down()), None);
    }

    #[test]
    fn parallel_edges_gliding_at_exactly_d() {
        // b slides along a at distance exactly 1.25 (0.75² + 1² = 1.25²),
        // overlapping a's span from x = 0, t = ¼.
        let (a0, a1) = (v(0.0, 0.0, 0.0), v(4.0, 0.0, 0.0));
        let q = [
            a0,
            a1,
            v(-4.0, 0.75, 1.0),
            v(-2.0, 0.75, 1.0),
            a0,
            a1,
            v(4.0, 0.75, 1.0),
            v(6.0, 0.75, 1.0),
        ];
        assert_eq!(toi(q, 1.25), Some(0.25));
        assert_eq!(toi(q, 1.25f64.next_down()), None);
    }

    #[test]
    fn zero_length_edges_are_points() {
        let p = v(0.0, 0.0, 0.0);
        let q = [
            p,
            p,
            v(0.0, 3.0, 0.0),
            v(0.0, 3.0, 0.0),
            p,
            p,
            v(0.0, -1.0, 0.0),
            v(0.0, -1.0, 0.0),
        ];
        assert_eq!(toi(q, 1.0), Some(0.5));
    }

    #[test]
    fn starting_within_d_is_time_zero() {
        let (a0, a1) = (v(0.0, 0.0, 0.0), v(2.0, 0.0, 0.0));
        let (b0, b1) = (v(1.0, -1.0, 0.5), v(1.0, 1.0, 0.5));
        let far = v(50.0, 50.0, 50.0);
        let q = [a0, a1, b0, b1, a0, a1, b0 + far, b1 + far];
        assert_eq!(toi(q, 0.5), Some(0.0));
        assert_eq!(toi(q, 0.25), None);
    }

    #[test]
    fn zero_distance_is_contact() {
        let (a0, a1) = (v(-1.0, 0.0, 0.0), v(1.0, 0.0, 0.0));
        let cases = [
            [
                a0,
                a1,
                v(0.0, -1.0, 1.0),
                v(0.0, 1.0, 1.0),
                a0,
                a1,
                v(0.0, -1.0, -1.0),
                v(0.0, 1.0, -1.0),
            ],
            [
                a0,
                a1,
                v(3.0, -1.0, 1.0),
                v(3.0, 1.0, 1.0),
                a0,
                a1,
                v(3.0, -1.0, -1.0),
                v(3.0, 1.0, -1.0),
            ],
            [
                a0,
                a1,
                v(2.0, 0.0, 0.0),
                v(3.0, 0.0, 0.0),
                a0,
                a1,
                v(0.0, 0.0, 0.0),
                v(1.0, 0.0, 0.0),
            ],
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
