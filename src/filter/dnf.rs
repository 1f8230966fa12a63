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
//! so the verdicts are those of the certified coefficients alone.

use super::Verdict;
use super::cubic::{Cubic, coplanarity_static};
use super::points::points;
use crate::math::{Bounded, Vec3};
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
    dnf_verdict(cubic.as_ref(), || {
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
    dnf_verdict(cubic.as_ref(), || {
        coplanarity_scaled(
            ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1,
        )
    })
}

/// DNF's verdict from the pair's statically bounded cubic
/// ([`super::cubic`]), falling back to the certified coefficients
/// (`certified()`, [`coplanarity_scaled`]) when that bound cannot decide.
///
/// The verdict is the certified coefficients' verdict in every case: the
/// static bound is at least the certified one, so a common sign it
/// certifies is certified there too, and two signs it certifies as opposite
/// are true signs, which no rigorous bound can certify as equal.
#[inline(always)]
pub(crate) fn dnf_verdict(
    cubic: Option<&Cubic>,
    certified: impl FnOnce() -> [Bounded; 4],
) -> Verdict {
    match cubic.and_then(Cubic::common_sign) {
        Some(0) => Verdict::Pass,
        Some(_) => Verdict::Culled,
        None => Verdict::culled_if(certified_common_sign(&certified()).is_some()),
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
