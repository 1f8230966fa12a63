//! DNF, the deforming non-penetration filter (Tang, Manocha & Tong, "Fast
//! continuous collision detection using deforming non-penetration filters",
//! I3D 2010, pp. 7–13; the core paper's ref. \[6\]).
//!
//! **Guarantee:** [`Verdict::Culled`] ⇒ the four points are never coplanar in
//! `[0, 1]`, hence no contact. A VF or EE contact needs coplanarity, and the
//! coplanarity cubic lies in the convex hull of its Bernstein coefficients
//! (docs/design.md §2.2): if all four have the same strict sign, it has no root. The
//! coefficients come with rigorous rounding bounds
//! ([`crate::pair_kernel::coplanarity_scaled`]) and a sign counts only when it
//! is certified, so the guarantee holds in floating point.
//!
//! Deviation from the original: the paper evaluates the coefficients in plain
//! floating point; here an uncertain sign means "pass". The coefficients are
//! first evaluated with one static error bound ([`super::cubic`]); only when
//! that bound cannot decide are they recomputed with per-operation bounds,
//! so the verdicts are those of the certified coefficients alone. Those
//! bounds hold where no product underflows, which inputs in the filter
//! range guarantee ([`crate::math::in_filter_range`]; docs/design.md §8):
//! outside it the recomputation is not trusted, and the pair passes.

use super::Verdict;
use super::cubic::{Cubic, coplanarity_static};
use super::points::{Points, points};
use crate::math::{Bounded, Vec3, all_coordinates_in_filter_range};
use crate::pair_kernel::{certified_common_sign, coplanarity_scaled};

/// DNF on a vertex–face pair (data set row order).
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn dnf_vertex_face(
    v_t0: &Vec3,
    f0_t0: &Vec3,
    f1_t0: &Vec3,
    f2_t0: &Vec3,
    v_t1: &Vec3,
    f0_t1: &Vec3,
    f1_t1: &Vec3,
    f2_t1: &Vec3,
) -> Verdict {
    let q = points([f0_t0, f1_t0, f2_t0, v_t0, f0_t1, f1_t1, f2_t1, v_t1]);
    let cubic = coplanarity_static(&q[0], &q[1], &q[2], &q[3], &q[4], &q[5], &q[6], &q[7]);
    dnf_verdict(cubic.as_ref(), &q, || {
        coplanarity_scaled(f0_t0, f1_t0, f2_t0, v_t0, f0_t1, f1_t1, f2_t1, v_t1)
    })
}

/// DNF on an edge–edge pair (data set row order).
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn dnf_edge_edge(
    ea0_t0: &Vec3,
    ea1_t0: &Vec3,
    eb0_t0: &Vec3,
    eb1_t0: &Vec3,
    ea0_t1: &Vec3,
    ea1_t1: &Vec3,
    eb0_t1: &Vec3,
    eb1_t1: &Vec3,
) -> Verdict {
    let q = points([
        ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1,
    ]);
    let cubic = coplanarity_static(&q[0], &q[1], &q[2], &q[3], &q[4], &q[5], &q[6], &q[7]);
    dnf_verdict(cubic.as_ref(), &q, || {
        coplanarity_scaled(
            ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1,
        )
    })
}

/// DNF's verdict from the pair's statically bounded cubic
/// ([`super::cubic`]), falling back to the certified coefficients
/// (`certified()`, [`coplanarity_scaled`]) when that bound cannot decide,
/// for a pair whose points `p` are in the filter range only (elsewhere
/// their bounds do not hold, and the pair passes).
///
/// The verdict is the certified coefficients' verdict in every case: the
/// static bound is at least the certified one, so a common sign it
/// certifies is certified there too, and two signs it certifies as opposite
/// are true signs, which no rigorous bound can certify as equal.
#[inline(always)]
pub(crate) fn dnf_verdict(
    cubic: Option<&Cubic>,
    p: &Points,
    certified: impl FnOnce() -> [Bounded; 4],
) -> Verdict {
    match cubic.and_then(Cubic::common_sign) {
        Some(0) => Verdict::Pass,
        Some(_) => Verdict::Culled,
        None if all_coordinates_in_filter_range(p.as_flattened()) => {
            Verdict::culled_if(certified_common_sign(&certified()).is_some())
        }
        None => Verdict::Pass,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::filter::window::tests::vertex_on_an_edge_at_the_start;
    use crate::narrow_phase::oracle;
    use proptest::prelude::*;

    #[test]
    fn culls_a_vertex_that_stays_above_the_plane() {
        let (a, b, c) = (
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
        );
        let (p0, p1) = (Vec3::new(5.0, 5.0, 1.0), Vec3::new(-5.0, 5.0, 0.5));
        assert_eq!(
            dnf_vertex_face(&p0, &a, &b, &c, &p1, &a, &b, &c),
            Verdict::Culled
        );
        // Crossing the plane (outside the triangle): DNF cannot cull it.
        let p1 = Vec3::new(5.0, 5.0, -1.0);
        assert_eq!(
            dnf_vertex_face(&p0, &a, &b, &c, &p1, &a, &b, &c),
            Verdict::Pass
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

        /// A vertex exactly on an edge of the triangle at `t = 0` (so
        /// `b₀ = 0` exactly), with coordinates whose products round: the
        /// computed `b₀` is a rounding error of either sign, and the pair
        /// collides at `t = 0`; only a certified sign may cull it.
        #[test]
        fn never_culls_a_touch_at_the_start_that_rounding_blurs(
            q in vertex_on_an_edge_at_the_start(),
        ) {
            let [p0, a, b, c, p1, a1, b1, c1] = &q;
            prop_assert!(oracle::vertex_face(p0, a, b, c, p1, a1, b1, c1).is_some());
            prop_assert_eq!(dnf_vertex_face(p0, a, b, c, p1, a1, b1, c1), Verdict::Pass);
        }
    }

    /// A vertex falling through a static triangle at `2⁻³⁰⁰` scale, the
    /// vertex at `2⁻⁴⁷⁴`: every product of the coplanarity coefficients is
    /// subnormal, and `b₀`, negative, computes to `+2⁻¹⁰⁷⁴` with a rounding
    /// bound that underflows to zero. The static cubic cannot decide and the
    /// per-operation bounds do not hold there: the pair must pass DNF and
    /// the filter chain.
    pub(crate) fn fall_through_with_subnormal_products() -> [Vec3; 8] {
        let s = 2f64.powi(-300);
        let t = 2f64.powi(-474);
        let (f0, f1, f2) = (
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(s, 0.0, s),
            Vec3::new(0.0, s, s),
        );
        let p0 = Vec3::new(1.375 * t, 1.375 * t, (2.75 - 2f64.powi(-50)) * t);
        let p1 = Vec3::new(1.375 * t, 1.375 * t, 102.75 * t);
        [p0, f0, f1, f2, p1, f0, f1, f2]
    }

    #[test]
    fn never_culls_a_fall_through_whose_products_underflow() {
        let q = fall_through_with_subnormal_products();
        let [p0, a, b, c, p1, a1, b1, c1] = &q;
        assert!(oracle::vertex_face(p0, a, b, c, p1, a1, b1, c1).is_some());
        assert_eq!(dnf_vertex_face(p0, a, b, c, p1, a1, b1, c1), Verdict::Pass);
        let chain = super::super::FilterSet::SlpfDnf.cull(
            crate::pair_kernel::QueryKind::VertexFace,
            &super::super::PAPER_DIRECTIONS,
            true,
            0.0,
            &q,
        );
        assert_eq!(chain, None);
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

        /// Tiny and subnormal coordinates: a touch at the start
        /// ([`vertex_on_an_edge_at_the_start`]) scaled by `2⁻ᵉ`, which
        /// rounds where it reaches the subnormals. DNF culls none of the
        /// scaled pairs that the oracle finds colliding, for either kind.
        #[test]
        fn never_culls_a_colliding_pair_of_tiny_coordinates(
            q in vertex_on_an_edge_at_the_start(),
            e in 150i32..1070,
        ) {
            let q = q.map(|p| p * 2f64.powi(-e));
            let [p0, a, b, c, p1, a1, b1, c1] = &q;
            if oracle::vertex_face(p0, a, b, c, p1, a1, b1, c1).is_some() {
                prop_assert_eq!(dnf_vertex_face(p0, a, b, c, p1, a1, b1, c1), Verdict::Pass);
            }
            // The edge from the vertex's start to the triangle's first
            // corner against the triangle's second edge.
            if oracle::edge_edge(p0, a, b, c, p1, a1, b1, c1).is_some() {
                prop_assert_eq!(dnf_edge_edge(p0, a, b, c, p1, a1, b1, c1), Verdict::Pass);
            }
        }
    }

    #[test]
    fn never_culls_an_exactly_coplanar_start() {
        let (a, b, c) = (
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
        );
        let p = Vec3::new(0.2, 0.2, 0.0);
        let p1 = Vec3::new(0.2, 0.2, 1.0);
        assert_eq!(
            dnf_vertex_face(&p, &a, &b, &c, &p1, &a, &b, &c),
            Verdict::Pass
        );
    }
}
