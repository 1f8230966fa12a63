//! Separation along a fixed direction, certified: Theorem 1 of Wan, Fu &
//! Yao 2022 (§2, Eqs. (1)–(2)), on a pair's eight points. SLPF
//! ([`crate::filter`]) asks it along the paper's directions; the exact
//! edge–edge solver along the edges' own ([`crate::narrow_phase`]).
//!
//! Along a constant direction `s`, each difference `(P(t) − A(t))·s =
//! (1 − t)(P₀ − A₀)·s + t(P₁ − A₁)·s` is linear in `t`, so its sign on
//! `[0, 1]` is fixed when its values at `t = 0` and `t = 1` have the same
//! strict sign; when every point difference of the pair has one strict
//! sign at both times, the two features' convex hulls never meet. Every
//! sign is certified ([`crate::math::Bounded`], with the differences as
//! exact-rounded leaves; along a coordinate axis the rounded difference has
//! the exact sign outright), so a `true` holds in floating point wherever
//! that model does. Along a direction whose components are 0 or ±1 (the
//! paper's) only differences, sums and changes of sign are formed, and it
//! holds for all finite inputs (an overflow gives an infinite bound: no
//! sign). Along others the products must not underflow, which inputs in
//! the filter range ([`crate::math::in_filter_range`]) guarantee: for such a
//! direction the points are checked, and a pair outside the range is not
//! certified apart (`false`).
//!
//! docs/design.md §2.2.

use crate::math::{Bounded, BoundedVec3, Vec3, all_in_filter_range};

/// `true` when the vertex lies strictly on one side of the triangle's three
/// corners along `s` at `t = 0` and at `t = 1` (the paper's Eq. (1); data
/// set row order).
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn vertex_face_apart_along(
    s: &[f64; 3],
    v_t0: &Vec3,
    f0_t0: &Vec3,
    f1_t0: &Vec3,
    f2_t0: &Vec3,
    v_t1: &Vec3,
    f0_t1: &Vec3,
    f1_t1: &Vec3,
    f2_t1: &Vec3,
) -> bool {
    if needs_range(s)
        && !all_in_filter_range(&[v_t0, f0_t0, f1_t0, f2_t0, v_t1, f0_t1, f1_t1, f2_t1])
    {
        return false;
    }
    one_side(
        [
            (v_t0, f0_t0),
            (v_t1, f0_t1),
            (v_t0, f1_t0),
            (v_t1, f1_t1),
            (v_t0, f2_t0),
            (v_t1, f2_t1),
        ],
        s,
    )
}

/// `true` when each edge's ends lie strictly on one side of the other's
/// along `s` at `t = 0` and at `t = 1` (the paper's Eq. (2); data set row
/// order).
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn edge_edge_apart_along(
    s: &[f64; 3],
    ea0_t0: &Vec3,
    ea1_t0: &Vec3,
    eb0_t0: &Vec3,
    eb1_t0: &Vec3,
    ea0_t1: &Vec3,
    ea1_t1: &Vec3,
    eb0_t1: &Vec3,
    eb1_t1: &Vec3,
) -> bool {
    if needs_range(s)
        && !all_in_filter_range(&[
            ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1,
        ])
    {
        return false;
    }
    one_side(
        [
            (ea0_t0, eb0_t0),
            (ea0_t0, eb1_t0),
            (ea1_t0, eb0_t0),
            (ea1_t0, eb1_t0),
            (ea0_t1, eb0_t1),
            (ea0_t1, eb1_t1),
            (ea1_t1, eb0_t1),
            (ea1_t1, eb1_t1),
        ],
        s,
    )
}

/// Whether certifying along `s` multiplies (a component other than 0 or
/// ±1), so that the inputs must be in the filter range (module doc).
#[inline]
fn needs_range(s: &[f64; 3]) -> bool {
    s.iter().any(|&c| c != 0.0 && c != 1.0 && c != -1.0)
}

/// The certified sign of `(p − q)·s`: `Some(±1)`, or `None` when uncertain
/// or zero.
#[inline]
fn projected_sign(p: &Vec3, q: &Vec3, s: &[f64; 3]) -> Option<i8> {
    let d = BoundedVec3::difference(p, q);
    let mut sum: Option<Bounded> = None;
    for (&di, &si) in d.0.iter().zip(s) {
        if si != 0.0 {
            let term = if si == 1.0 {
                di
            } else {
                di * Bounded::exact(si)
            };
            sum = Some(match sum {
                None => term,
                Some(acc) => acc + term,
            });
        }
    }
    match sum?.sign()? {
        0 => None,
        s => Some(s),
    }
}

/// `true` when every `(p − q)·s` over `pairs` has the same certified strict
/// sign.
#[inline]
fn one_side<const N: usize>(pairs: [(&Vec3, &Vec3); N], s: &[f64; 3]) -> bool {
    let Some(first) = projected_sign(pairs[0].0, pairs[0].1, s) else {
        return false;
    };
    pairs[1..]
        .iter()
        .all(|(p, q)| projected_sign(p, q, s) == Some(first))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::narrow_phase::oracle;

    /// Along a direction with a component other than 0 or ±1, subnormal
    /// differences: the vertex lies on the triangle's edge `a b`, so every
    /// exact projection `(p − a)·s`, `(p − b)·s` is zero, but each computes
    /// to `+2⁻¹⁰⁷⁴` with a bound that underflows to zero. Outside the filter
    /// range no sign is certified, so the pair is not called apart.
    #[test]
    fn a_touch_in_the_subnormals_is_not_apart_along_a_scaled_direction() {
        let m = f64::from_bits(1);
        let w = Vec3::new(m, m, -3.0 * m);
        let p = Vec3::zeros();
        let (a, b) = (p - w, p + w * 3.0);
        let c = Vec3::new(-1.0, -1.0, -1.0) * 2f64.powi(-1000);
        assert!(oracle::vertex_face(&p, &a, &b, &c, &p, &a, &b, &c).is_some());
        let s = [1.5, 1.5, 1.0];
        assert!(!vertex_face_apart_along(&s, &p, &a, &b, &c, &p, &a, &b, &c));
        // The same pair scaled into the range is certified only if truly
        // apart: it touches, so it is not.
        let k = 2f64.powi(1000);
        let [p, a, b, c] = [p, a, b, c].map(|x| x * k);
        assert!(!vertex_face_apart_along(&s, &p, &a, &b, &c, &p, &a, &b, &c));
        // A pair truly apart along such a direction is still found apart.
        let far = Vec3::new(5.0, 5.0, 5.0);
        let tri = [
            Vec3::zeros(),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
        ];
        assert!(vertex_face_apart_along(
            &s, &far, &tri[0], &tri[1], &tri[2], &far, &tri[0], &tri[1], &tri[2]
        ));
    }
}
