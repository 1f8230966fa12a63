//! The exact first time of impact `t*` of two moving closed triangles.
//!
//! `t* = min { t ∈ [0, 1] : A(t) ∩ B(t) ≠ ∅ }`. It is `0` when the triangles
//! already meet at `t = 0`, and otherwise the smallest time of impact of the
//! fifteen elementary pairs (6 vertex–face, 9 edge–edge; docs/design.md §1): at a first
//! contact `t* > 0` every extreme point of `A ∩ B` is a vertex of one
//! triangle in the other, or a crossing of two edges (see [`super`] for the
//! argument). At `t = 0` an edge of one triangle may also pierce the other's
//! interior with no elementary pair touching
//! ([`crate::narrow_phase::segment_pierces_triangle`]).
//!
//! **Fast path.** The elementary pairs are first decided by the crate's
//! certified solvers ([`crate::narrow_phase::vertex_face`],
//! [`crate::narrow_phase::edge_edge`]: zero false negatives and zero false
//! positives), which return a bracket `[lower, upper]` of each pair's time of
//! impact. Only the pairs whose bracket can hold the minimum
//! (`lower ≤ min upper`) are then solved exactly by the oracle
//! ([`crate::narrow_phase::oracle`]), unless the bracket is a single double
//! (then it is the exact time), and the exact minimum is taken by
//! [`Algebraic::compare`].

use std::cmp::Ordering;

use super::feature::Elementary;
use crate::bounding_volume::Kdop6;
use crate::exact::{Algebraic, Dyadic};
use crate::math::Vec3;
use crate::narrow_phase::segment_pierces_triangle;
use crate::narrow_phase::{Toi, edge_edge, oracle, vertex_face};

/// The first time of impact of a triangle pair, with what decided it.
#[derive(Debug, Clone)]
pub struct FirstTime {
    /// `t*`, exact.
    pub time: Algebraic,
    /// The certified bracket of every elementary pair's own time of impact
    /// (`None`: that pair never touches in `[0, 1]`), by
    /// [`Elementary::index`].
    pub tois: [Option<Toi>; 15],
    /// Whether the triangles interpenetrate at `t = 0` (an edge pierces the
    /// other triangle's interior); then `t* = 0`.
    pub pierced_at_start: bool,
}

/// The corners of the two features of an elementary pair, in data set row
/// order (`t = 0` then `t = 1`).
fn rows<'a>(
    e: Elementary,
    a_t0: &'a [Vec3; 3],
    a_t1: &'a [Vec3; 3],
    b_t0: &'a [Vec3; 3],
    b_t1: &'a [Vec3; 3],
) -> [&'a Vec3; 8] {
    match e {
        Elementary::VertexFace(i) => [
            &a_t0[i], &b_t0[0], &b_t0[1], &b_t0[2], &a_t1[i], &b_t1[0], &b_t1[1], &b_t1[2],
        ],
        Elementary::FaceVertex(j) => [
            &b_t0[j], &a_t0[0], &a_t0[1], &a_t0[2], &b_t1[j], &a_t1[0], &a_t1[1], &a_t1[2],
        ],
        Elementary::EdgeEdge(k, l) => {
            let (k1, l1) = ((k + 1) % 3, (l + 1) % 3);
            [
                &a_t0[k], &a_t0[k1], &b_t0[l], &b_t0[l1], &a_t1[k], &a_t1[k1], &b_t1[l], &b_t1[l1],
            ]
        }
    }
}

/// The certified bracket of one elementary pair's time of impact.
pub fn elementary_toi(
    e: Elementary,
    a_t0: &[Vec3; 3],
    a_t1: &[Vec3; 3],
    b_t0: &[Vec3; 3],
    b_t1: &[Vec3; 3],
) -> Option<Toi> {
    let r = rows(e, a_t0, a_t1, b_t0, b_t1);
    match e {
        Elementary::EdgeEdge(..) => edge_edge(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]),
        _ => vertex_face(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]),
    }
}

/// One elementary pair's exact time of impact (the oracle).
pub fn elementary_exact(
    e: Elementary,
    a_t0: &[Vec3; 3],
    a_t1: &[Vec3; 3],
    b_t0: &[Vec3; 3],
    b_t1: &[Vec3; 3],
) -> Option<Algebraic> {
    let r = rows(e, a_t0, a_t1, b_t0, b_t1);
    match e {
        Elementary::EdgeEdge(..) => {
            oracle::edge_edge(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7])
        }
        _ => oracle::vertex_face(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]),
    }
}

/// Whether the triangles interpenetrate at `t = 0`: an edge of one pierces
/// the other's relative interior transversally (exact).
///
/// # Panics
/// When a coordinate is NaN or infinite (it has no exact value).
pub fn pierced_at_start(a_t0: &[Vec3; 3], b_t0: &[Vec3; 3]) -> bool {
    if !Kdop6::from_points(a_t0).overlaps(&Kdop6::from_points(b_t0)) {
        return false;
    }
    let pierces = |x: &[Vec3; 3], y: &[Vec3; 3]| {
        (0..3).any(|k| segment_pierces_triangle(&x[k], &x[(k + 1) % 3], [&y[0], &y[1], &y[2]]))
    };
    pierces(a_t0, b_t0) || pierces(b_t0, a_t0)
}

/// The exact first time of impact of triangles A and B moving linearly from
/// `*_t0` to `*_t1`, or `None` when they never meet in `[0, 1]`.
pub fn first_time(
    a_t0: &[Vec3; 3],
    a_t1: &[Vec3; 3],
    b_t0: &[Vec3; 3],
    b_t1: &[Vec3; 3],
) -> Option<FirstTime> {
    let tois: [Option<Toi>; 15] =
        std::array::from_fn(|k| elementary_toi(Elementary::from_index(k), a_t0, a_t1, b_t0, b_t1));
    let touches_at_zero = tois.iter().flatten().any(|t| t.upper == 0.0);
    let pierced = !touches_at_zero && pierced_at_start(a_t0, b_t0);
    if touches_at_zero || pierced {
        return Some(FirstTime {
            time: Algebraic::exact(Dyadic::zero()),
            tois,
            pierced_at_start: pierced,
        });
    }
    let min_upper = tois
        .iter()
        .flatten()
        .map(|t| t.upper)
        .min_by(f64::total_cmp)?;
    let mut best: Option<Algebraic> = None;
    for (k, toi) in tois.iter().enumerate() {
        let Some(toi) = toi else { continue };
        if toi.lower > min_upper {
            continue;
        }
        let exact = if toi.lower == toi.upper {
            Some(Algebraic::exact(Dyadic::from_f64(toi.lower)))
        } else {
            elementary_exact(Elementary::from_index(k), a_t0, a_t1, b_t0, b_t1)
        };
        // The certified solver and the oracle agree on whether a pair
        // touches; should they not, the oracle (the definition) wins.
        let Some(mut t) = exact else { continue };
        let earlier = match best.as_mut() {
            None => true,
            Some(b) => t.compare(b) == Ordering::Less,
        };
        if earlier {
            best = Some(t);
        }
    }
    best.map(|time| FirstTime {
        time,
        tois,
        pierced_at_start: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn v(x: f64, y: f64, z: f64) -> Vec3 {
        Vec3::new(x, y, z)
    }

    /// B: the fixed triangle (0,0,0), (4,0,0), (0,4,0) in the plane z = 0.
    fn floor() -> [Vec3; 3] {
        [v(0.0, 0.0, 0.0), v(4.0, 0.0, 0.0), v(0.0, 4.0, 0.0)]
    }

    /// The definition, by the oracle alone: `0` when the triangles start
    /// interpenetrating, else the least exact time of the fifteen pairs.
    fn oracle_first_time(
        a_t0: &[Vec3; 3],
        a_t1: &[Vec3; 3],
        b_t0: &[Vec3; 3],
        b_t1: &[Vec3; 3],
    ) -> Option<Algebraic> {
        if pierced_at_start(a_t0, b_t0) {
            return Some(Algebraic::exact(Dyadic::zero()));
        }
        let mut best: Option<Algebraic> = None;
        for e in Elementary::all() {
            let Some(mut t) = elementary_exact(e, a_t0, a_t1, b_t0, b_t1) else {
                continue;
            };
            if best.as_mut().is_none_or(|b| t.compare(b) == Ordering::Less) {
                best = Some(t);
            }
        }
        best
    }

    fn equal(a: &Algebraic, b: &Algebraic) -> bool {
        a.clone().compare(&mut b.clone()) == Ordering::Equal
    }

    #[test]
    fn the_earliest_pair_wins_when_brackets_overlap() {
        // A's corner 0 lands on B's edge y = 0 at t = ½ exactly (a contact
        // on the triangle's boundary: a wider bracket); corner 1 lands in
        // B's interior at 1/(2 − 2⁻⁴⁵), about 7e-15 later, its narrower
        // bracket ending below corner 0's.
        let b = floor();
        let a0 = [v(2.0, 0.0, 1.0), v(1.0, 1.0, 1.0), v(1.0, 2.0, 2.0)];
        let a1 = [
            v(2.0, 0.0, -1.0),
            v(1.0, 1.0, -1.0 + 2f64.powi(-45)),
            v(1.0, 2.0, -1.0),
        ];
        let f = first_time(&a0, &a1, &b, &b).expect("contact");
        let (on_edge, inside) = (f.tois[0].unwrap(), f.tois[1].unwrap());
        assert!(on_edge.lower <= inside.upper && inside.upper < on_edge.upper);
        let half = Algebraic::exact(Dyadic::from_f64(0.5));
        assert!(equal(&f.time, &half));
        let mut later = elementary_exact(Elementary::VertexFace(1), &a0, &a1, &b, &b).unwrap();
        assert_eq!(later.compare(&mut half.clone()), Ordering::Greater);
        assert!(!f.pierced_at_start);
    }

    #[test]
    fn a_bracket_from_zero_is_not_a_touch_at_zero() {
        // Corner 0 starts 1e-300 above B and falls: its bracket starts at
        // 0, but the triangles first meet at about 1e-300, not at 0.
        let b = floor();
        let a0 = [v(1.0, 1.0, 1e-300), v(2.0, 1.0, 1.0), v(1.0, 2.0, 1.0)];
        let a1 = [v(1.0, 1.0, -1.0), v(2.0, 1.0, 1.0), v(1.0, 2.0, 1.0)];
        let f = first_time(&a0, &a1, &b, &b).expect("contact");
        let toi = f.tois[0].unwrap();
        assert!(toi.lower == 0.0 && toi.upper > 0.0);
        let mut zero = Algebraic::exact(Dyadic::zero());
        assert_eq!(f.time.clone().compare(&mut zero), Ordering::Greater);
        assert!(equal(
            &f.time,
            &oracle_first_time(&a0, &a1, &b, &b).unwrap()
        ));
    }

    #[test]
    fn touching_and_interpenetrating_at_the_start() {
        let b = floor();
        // Resting: corner 0 on B at t = 0, then lifting off.
        let a0 = [v(1.0, 1.0, 0.0), v(2.0, 1.0, 1.0), v(1.0, 2.0, 1.0)];
        let a1 = a0.map(|p| p + v(0.0, 0.0, 1.0));
        let f = first_time(&a0, &a1, &b, &b).expect("contact");
        assert_eq!(f.time.as_exact(), Some(&Dyadic::zero()));
        assert!(!f.pierced_at_start);
        // Linked like chain links: no elementary pair touches at t = 0.
        let a = [v(1.0, 1.0, -1.0), v(1.0, 1.0, 1.0), v(1.0, -3.0, 0.0)];
        let f = first_time(&a, &a, &b, &b).expect("contact");
        assert!(f.pierced_at_start && f.tois.iter().all(Option::is_none));
        assert_eq!(f.time.as_exact(), Some(&Dyadic::zero()));
        // Apart and still.
        let a = a0.map(|p| p + v(0.0, 0.0, 1.0));
        assert!(first_time(&a, &a, &b, &b).is_none());
    }

    /// Lattice triangles in `[-2, 2]³`, one corner's last coordinate nudged
    /// by a multiple of `2⁻⁴⁶`: elementary pairs whose times differ by less
    /// than their brackets' widths.
    fn scene() -> impl Strategy<Value = [[Vec3; 3]; 4]> {
        let point = || prop::array::uniform3(-2i32..=2).prop_map(|c| c.map(f64::from));
        (prop::array::uniform12(point()), -2i32..=2).prop_map(|(p, nudge)| {
            let p = p.map(|c| Vec3::new(c[0], c[1], c[2]));
            let mut s = [
                [p[0], p[1], p[2]],
                [p[3], p[4], p[5]],
                [p[6], p[7], p[8]],
                [p[9], p[10], p[11]],
            ];
            s[1][1].z += f64::from(nudge) * 2f64.powi(-46);
            s
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 96, failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn first_time_is_the_oracle_s([a0, a1, b0, b1] in scene()) {
            let fast = first_time(&a0, &a1, &b0, &b1);
            let slow = oracle_first_time(&a0, &a1, &b0, &b1);
            prop_assert_eq!(fast.is_some(), slow.is_some());
            if let (Some(f), Some(o)) = (fast, slow) {
                prop_assert!(equal(&f.time, &o));
            }
        }
    }
}
