//! A filter for the codimensional points' pairs (docs/design.md §1): a
//! point `p` against a segment `a b`, or against another point `q`, all
//! moving linearly, decided before the exact edge–edge test that treats the
//! point as a zero-length edge. That test spends its time on such pairs
//! (the four points are always coplanar, so the coplanarity cubic is
//! identically zero); almost every candidate is proven apart here. Beyond
//! Wan, Fu & Yao 2022, whose meshes have no points; contact (`d = 0`) only.
//!
//! **Point–segment.** With `w(t) = p(t) − a(t)` and `u(t) = b(t) − a(t)`,
//! both linear, contact needs `w(t) × u(t) = 0`. Each component of the cross
//! product is a quadratic with Bernstein coefficients `w₀ × u₀`,
//! `(w₀ × u₁ + w₁ × u₀) / 2` and `w₁ × u₁` on `[0, 1]` (subscripts: the
//! times), so when all three have one certified sign the component never
//! vanishes and the pair never touches (a segment collapsed to a point at
//! some `t` makes every component vanish there, so it is never culled).
//! Where no component keeps its sign on `[0, 1]` (a point passing beside
//! the segment turns the cross product), the interval is halved (de
//! Casteljau, exact halvings) a few times, and the pair is apart when on
//! every piece some component keeps one sign.
//!
//! **Point–point.** With `D(t) = p(t) − q(t)`, contact needs every
//! component `D_i(t) = D_i(0)(1 − t) + D_i(1)t` to vanish at one `t`; two
//! such linear functions share a root only when
//! `D_i(0)·D_j(1) − D_j(0)·D_i(1) = 0` (both vectors `(D_i(0), D_i(1))` are
//! then orthogonal to `(1 − t, t)`), so a certified nonzero determinant for
//! some `i ≠ j`, or a component of one certified sign at both times, proves
//! the points apart.
//!
//! The signs are certified by [`Bounded`] (rigorous rounding-error bounds
//! from `f64::EPSILON`, on differences of the inputs), whose model needs
//! every coordinate in the filter range ([`crate::math::in_filter_range`]):
//! both functions check it, and a pair outside it is not called apart.

use crate::math::{Bounded, BoundedVec3, Vec3, all_in_filter_range};

/// Whether a quadratic with these Bernstein coefficients is certainly
/// nonzero on its interval (all three of one certified sign).
#[inline]
fn one_sign(b: &[Bounded; 3]) -> bool {
    b.iter().all(Bounded::certainly_positive) || b.iter().all(Bounded::certainly_negative)
}

/// The Bernstein coefficients of a quadratic on the two halves of its
/// interval (de Casteljau at `1/2`: sums and exact halvings).
#[inline]
fn halves([b0, b1, b2]: [Bounded; 3]) -> [[Bounded; 3]; 2] {
    let (l1, r1) = ((b0 + b1).half(), (b1 + b2).half());
    let m = (l1 + r1).half();
    [[b0, l1, m], [m, r1, b2]]
}

/// Halvings of `[0, 1]` tried before a pair is left to the solver: a point
/// passing beside a segment turns the cross product, whose components then
/// change sign at different times; on short enough pieces one of them
/// keeps its sign.
const HALVINGS: u32 = 5;

/// Whether on every piece of the interval some component keeps one
/// certified sign (`c[i]`: component `i`'s Bernstein coefficients).
fn apart_on(c: [[Bounded; 3]; 3], depth: u32) -> bool {
    if c.iter().any(one_sign) {
        return true;
    }
    if depth == 0 {
        return false;
    }
    let [x, y, z] = c.map(halves);
    (0..2).all(|h| apart_on([x[h], y[h], z[h]], depth - 1))
}

/// `true` when the point `p` and the segment `a b` (positions at `t = 0`,
/// then at `t = 1`) certainly do not touch on `[0, 1]` (module doc). The
/// cross products' bounds hold only in the filter range
/// ([`crate::math::in_filter_range`]): outside it, `false`.
#[allow(clippy::too_many_arguments)]
pub fn point_segment_apart(
    p0: &Vec3,
    a0: &Vec3,
    b0: &Vec3,
    p1: &Vec3,
    a1: &Vec3,
    b1: &Vec3,
) -> bool {
    if !all_in_filter_range(&[p0, a0, b0, p1, a1, b1]) {
        return false;
    }
    let (w0, u0) = (
        BoundedVec3::difference(p0, a0),
        BoundedVec3::difference(b0, a0),
    );
    let (w1, u1) = (
        BoundedVec3::difference(p1, a1),
        BoundedVec3::difference(b1, a1),
    );
    let (c0, c2) = (w0.cross(&u0), w1.cross(&u1));
    let c1 = w0.cross(&u1).add(&w1.cross(&u0));
    apart_on(
        std::array::from_fn(|i| [c0.0[i], c1.0[i].half(), c2.0[i]]),
        HALVINGS,
    )
}

/// `true` when the points `p` and `q` (positions at `t = 0`, then at
/// `t = 1`) certainly do not meet on `[0, 1]` (module doc). The
/// determinants' bounds hold only in the filter range
/// ([`crate::math::in_filter_range`]): outside it, `false`.
pub fn point_point_apart(p0: &Vec3, q0: &Vec3, p1: &Vec3, q1: &Vec3) -> bool {
    if !all_in_filter_range(&[p0, q0, p1, q1]) {
        return false;
    }
    let (d0, d1) = (
        BoundedVec3::difference(p0, q0),
        BoundedVec3::difference(p1, q1),
    );
    let separated = (0..3).any(|i| {
        let (s, e) = (d0.0[i], d1.0[i]);
        (s.certainly_positive() && e.certainly_positive())
            || (s.certainly_negative() && e.certainly_negative())
    });
    let skew = [(0, 1), (1, 2), (2, 0)].into_iter().any(|(i, j)| {
        let det = d0.0[i] * d1.0[j] - d0.0[j] * d1.0[i];
        det.certainly_positive() || det.certainly_negative()
    });
    separated || skew
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::narrow_phase::oracle;
    use proptest::prelude::*;

    fn small_point() -> impl Strategy<Value = Vec3> {
        (-3i32..=3, -3i32..=3, -3i32..=3)
            .prop_map(|(x, y, z)| Vec3::new(f64::from(x), f64::from(y), f64::from(z)))
    }

    fn any_point() -> impl Strategy<Value = Vec3> {
        prop_oneof![
            3 => small_point(),
            1 => (-3.0..3.0f64, -3.0..3.0f64, -3.0..3.0f64).prop_map(|(x, y, z)| Vec3::new(x, y, z)),
        ]
    }

    /// Outside the filter range (here coordinates of `2⁻¹⁰⁰⁰`, whose
    /// products underflow) nothing is called apart, however far apart:
    /// the bounds do not hold there.
    #[test]
    fn nothing_outside_the_filter_range_is_called_apart() {
        let tiny = 2f64.powi(-1000);
        let (p, q, r) = (
            Vec3::new(tiny, 0.0, 0.0),
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(0.0, tiny, 0.0),
        );
        assert!(!point_point_apart(&p, &q, &p, &q));
        assert!(!point_segment_apart(&p, &q, &r, &p, &q, &r));
        // The same configuration scaled into the range is apart.
        let k = 2f64.powi(1000);
        let [p, q, r] = [p, q, r].map(|x| x * k);
        assert!(point_point_apart(&p, &q, &p, &q));
        assert!(point_segment_apart(&p, &q, &r, &p, &q, &r));
    }

    #[test]
    fn crossing_points_and_segments_are_kept_and_far_ones_culled() {
        let v = Vec3::new;
        let (o, x) = (v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0));
        // A point falling through the middle of a segment: kept.
        assert!(!point_segment_apart(
            &v(0.5, 0.0, 1.0),
            &o,
            &x,
            &v(0.5, 0.0, -1.0),
            &o,
            &x
        ));
        // Passing beside it: culled.
        assert!(point_segment_apart(
            &v(0.5, 1.0, 1.0),
            &o,
            &x,
            &v(0.5, 1.0, -1.0),
            &o,
            &x
        ));
        // Two points swapping along z meet; passing side by side they do not.
        let (p, q) = (v(0.0, 0.0, 0.0), v(0.0, 0.0, 1.0));
        assert!(!point_point_apart(&p, &q, &q, &p));
        assert!(point_point_apart(
            &p,
            &v(1.0, 0.0, 1.0),
            &q,
            &v(1.0, 0.0, 0.0)
        ));
    }

    /// `p − a = (0.5, 1 − 2t, −1 + 3t)` against a segment along `x`: the
    /// cross product's components `(0, w_z, −w_y)` vanish at `t = 1/3` and
    /// `t = 1/2`, so none keeps one sign on `[0, 1]`; on the pieces
    /// `[0, 3/8]`, `[3/8, 1]` one does (three halvings). Ending at
    /// `(0.5, −1, 1)` instead, both vanish at `t = 1/2`: a contact, kept.
    #[test]
    fn a_point_passing_beside_a_segment_is_culled_after_halvings() {
        let v = Vec3::new;
        let (o, x) = (v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0));
        let p0 = v(0.5, 1.0, -1.0);
        let (beside, through) = (v(0.5, -1.0, 2.0), v(0.5, -1.0, 1.0));
        assert!(oracle::edge_edge(&p0, &p0, &o, &x, &beside, &beside, &o, &x).is_none());
        assert!(point_segment_apart(&p0, &o, &x, &beside, &o, &x));
        assert!(oracle::edge_edge(&p0, &p0, &o, &x, &through, &through, &o, &x).is_some());
        assert!(!point_segment_apart(&p0, &o, &x, &through, &o, &x));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Never culls a pair the exact oracle finds touching (small
        /// integer points make contacts, collinear motion and collapsed
        /// segments common).
        #[test]
        fn culls_no_pair_the_oracle_finds_touching(
            p0 in any_point(), a0 in any_point(), b0 in any_point(),
            p1 in any_point(), a1 in any_point(), b1 in any_point(),
        ) {
            if oracle::edge_edge(&p0, &p0, &a0, &b0, &p1, &p1, &a1, &b1).is_some() {
                prop_assert!(!point_segment_apart(&p0, &a0, &b0, &p1, &a1, &b1));
            }
            if oracle::edge_edge(&p0, &p0, &a0, &a0, &p1, &p1, &a1, &a1).is_some() {
                prop_assert!(!point_point_apart(&p0, &a0, &p1, &a1));
            }
        }
    }
}
