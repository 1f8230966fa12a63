//! Time-aligned quantized k-DOPs: a triangle's k-DOP at `t = 0` and its
//! k-DOP at `t = 1`, kept apart instead of merged into one swept k-DOP,
//! and the overlap test that SLPF's theorem gives them (Wan, Fu & Yao,
//! *Intelligent Computer and Applications* 12(2), 2022, §2, Theorem 1 and
//! Eqs. (1)–(2), applied to sets of points instead of one pair's corners;
//! not in the paper, which uses the theorem only per pair).
//!
//! **Why it is sound.** Let `A` and `B` be sets of points moving linearly
//! (the corners of two triangles; each of their points is a fixed convex
//! combination of the corners), `s` one of the k-DOP's directions, and
//! `hi_A(t) = max_{a∈A} a(t)·s`, `lo_B(t) = min_{b∈B} b(t)·s`. Each `a(t)·s`
//! is linear in `t`, so `hi_A` is convex and `lo_B` concave:
//! `hi_A(t) ≤ (1 − t)·hi_A(0) + t·hi_A(1)` and
//! `lo_B(t) ≥ (1 − t)·lo_B(0) + t·lo_B(1)`. If `hi_A(0) < lo_B(0)` and
//! `hi_A(1) < lo_B(1)`, then `hi_A(t) < lo_B(t)` on all of `[0, 1]`: no
//! point of `A` meets a point of `B` at any time, so no vertex–face or
//! edge–edge pair of their corners collides. The `f64` bounds contain the
//! exact projections (rounded outward, [`super::Kdop::from_point`]), and
//! their quantized images ([`super::Quantizer`], rounded outward again)
//! keep strict separations: with `f` the grid's non-decreasing map,
//! `q(hi_A) < q(lo_B)` gives `f(hi_A) ≤ q(hi_A) < q(lo_B) ≤ f(lo_B)`, hence
//! `hi_A < lo_B`. So the test below, a separation in one slab at both
//! times and in the same order, proves the same.
//!
//! Against the swept k-DOPs of the same triangles (the merge of the two
//! times), this refutes every pair they refute (a swept separation is a
//! separation at both times in the same order) and more: of the 2,708,361
//! pairs of triangles of cloth-ball 92→93 whose quantized swept 26-DOPs
//! overlap, 1,217,951 overlap here (1,197,858 with their exact `f64`
//! k-DOPs).
//!
//! docs/design.md §6.

use super::quantized::QuantizedKdop;

/// A triangle's quantized k-DOPs at `t = 0` and at `t = 1`, on one grid.
pub type AlignedQuantizedKdop<const N: usize> = [QuantizedKdop<N>; 2];

/// The merge of `a` and `b` at each time.
#[inline(always)]
pub fn aligned_merge<const N: usize>(
    a: &AlignedQuantizedKdop<N>,
    b: &AlignedQuantizedKdop<N>,
) -> AlignedQuantizedKdop<N> {
    [a[0].merge(&b[0]), a[1].merge(&b[1])]
}

/// Whether no slab separates `a` and `b` at both `t = 0` and `t = 1` with
/// the same one below (module doc: `false` proves that no point of one
/// meets a point of the other on `[0, 1]`); branch-free.
#[inline(always)]
pub fn aligned_overlap<const N: usize>(
    a: &AlignedQuantizedKdop<N>,
    b: &AlignedQuantizedKdop<N>,
) -> bool {
    #[cfg(target_arch = "x86_64")]
    if (8..=16).contains(&N) {
        return simd::aligned_overlap_merge(a, [b]);
    }
    let mut apart = false;
    for i in 0..N {
        let below = (a[0].hi[i] < b[0].lo[i]) & (a[1].hi[i] < b[1].lo[i]);
        let above = (b[0].hi[i] < a[0].lo[i]) & (b[1].hi[i] < a[1].lo[i]);
        apart |= below | above;
    }
    !apart
}

/// [`aligned_overlap`] of `a` and the merge of `parts` (at each time), the
/// merge computed in registers (stored to memory and read back by the test,
/// it would stall on store-to-load forwarding, as `QuantizedKdop::overlaps_merge`'s
/// doc says).
#[inline(always)]
pub fn aligned_overlap_merge<const N: usize, const M: usize>(
    a: &AlignedQuantizedKdop<N>,
    parts: [&AlignedQuantizedKdop<N>; M],
) -> bool {
    #[cfg(target_arch = "x86_64")]
    if (8..=16).contains(&N) && M > 0 {
        return simd::aligned_overlap_merge(a, parts);
    }
    let mut m = [QuantizedKdop::<N>::EMPTY; 2];
    for p in parts {
        m = aligned_merge(&m, p);
    }
    aligned_overlap(a, &m)
}

/// The test on SSE2 (part of every x86-64): slabs `0..8` and `N − 8..N`,
/// as [`QuantizedKdop::overlaps`] does.
#[cfg(target_arch = "x86_64")]
mod simd {
    use super::AlignedQuantizedKdop;
    use std::arch::x86_64::*;

    #[inline(always)]
    pub(super) fn aligned_overlap_merge<const N: usize, const M: usize>(
        a: &AlignedQuantizedKdop<N>,
        parts: [&AlignedQuantizedKdop<N>; M],
    ) -> bool {
        debug_assert!((8..=16).contains(&N) && M > 0);
        // SAFETY: each load reads 8 `i16` at offset 0 or `N − 8` of an
        // `[i16; N]` with `8 ≤ N`, i.e. within the array; SSE2 is part of
        // x86-64.
        unsafe {
            let load = |x: &[i16; N], at: usize| _mm_loadu_si128(x.as_ptr().add(at).cast());
            let mut apart = _mm_setzero_si128();
            for at in [0, N - 8] {
                // The merge's bounds at time `t`.
                let lo = |t: usize| {
                    parts[1..].iter().fold(load(&parts[0][t].lo, at), |m, p| {
                        _mm_min_epi16(m, load(&p[t].lo, at))
                    })
                };
                let hi = |t: usize| {
                    parts[1..].iter().fold(load(&parts[0][t].hi, at), |m, p| {
                        _mm_max_epi16(m, load(&p[t].hi, at))
                    })
                };
                let below = _mm_and_si128(
                    _mm_cmpgt_epi16(lo(0), load(&a[0].hi, at)),
                    _mm_cmpgt_epi16(lo(1), load(&a[1].hi, at)),
                );
                let above = _mm_and_si128(
                    _mm_cmpgt_epi16(load(&a[0].lo, at), hi(0)),
                    _mm_cmpgt_epi16(load(&a[1].lo, at), hi(1)),
                );
                apart = _mm_or_si128(apart, _mm_or_si128(below, above));
            }
            _mm_movemask_epi8(apart) == 0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bounding_volume::{Kdop, Quantizer};
    use crate::math::Vec3;
    use proptest::prelude::*;

    fn coord() -> impl Strategy<Value = f64> {
        prop_oneof![
            3 => -4.0..4.0f64,
            2 => (-16i32..=16).prop_map(|i| f64::from(i) / 4.0),
            1 => Just(0.0),
        ]
    }

    fn point() -> impl Strategy<Value = Vec3> {
        (coord(), coord(), coord()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
    }

    /// Two triangles' corners at both times, and their images on a grid
    /// over everything.
    fn images<const N: usize>(
        a: &[[Vec3; 3]; 2],
        b: &[[Vec3; 3]; 2],
    ) -> (AlignedQuantizedKdop<N>, AlignedQuantizedKdop<N>) {
        let all = a.iter().chain(b).flatten();
        let grid = Quantizer::new(&Kdop::<N>::from_points(all));
        let img = |t: &[[Vec3; 3]; 2]| t.each_ref().map(|c| grid.quantize(&Kdop::from_points(c)));
        (img(a), img(b))
    }

    /// The scalar test (the SIMD one must agree with it).
    fn scalar<const N: usize>(a: &AlignedQuantizedKdop<N>, b: &AlignedQuantizedKdop<N>) -> bool {
        (0..N).all(|i| {
            let below = a[0].hi[i] < b[0].lo[i] && a[1].hi[i] < b[1].lo[i];
            let above = b[0].hi[i] < a[0].lo[i] && b[1].hi[i] < a[1].lo[i];
            !(below || above)
        })
    }

    #[test]
    fn separates_what_the_swept_images_cannot() {
        // A triangle at x ∈ [0, 1] moving right by 3, and one at x ∈ [2, 3]
        // moving right by 3: their swept boxes overlap in x, but at each
        // time the first is left of the second.
        let tri = |x: f64| [0.0, 1.0].map(|dx| Vec3::new(x + dx, 0.0, 0.0));
        let corners = |x: f64| [tri(x)[0], tri(x)[1], Vec3::new(x, 1.0, 0.0)];
        let a = [corners(0.0), corners(3.0)];
        let b = [corners(2.0), corners(5.0)];
        let (qa, qb) = images::<13>(&a, &b);
        assert!(qa[0].merge(&qa[1]).overlaps(&qb[0].merge(&qb[1])));
        assert!(!aligned_overlap(&qa, &qb));
        // Crossing over: the first ends right of the second.
        let b = [corners(2.0), corners(-1.0)];
        let (qa, qb) = images::<13>(&a, &b);
        assert!(aligned_overlap(&qa, &qb));
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

        /// Triangles that share a point at some time `τ` (the second is
        /// moved so that its first corner meets a point of the first) are
        /// never separated, for every k; the SIMD and scalar tests agree.
        #[test]
        fn triangles_that_meet_are_never_separated(
            a in proptest::array::uniform2(proptest::array::uniform3(point())),
            b in proptest::array::uniform2(proptest::array::uniform3(point())),
            w in (0.0..1.0f64, 0.0..1.0f64),
            tau in prop_oneof![Just(0.0), Just(1.0), 0.0..1.0f64],
        ) {
            // The point of `a` with barycentric weights from `w` at `τ`, and
            // `b`'s first corner at `τ`; shift `b` (at both times) so that
            // they coincide (up to rounding, far below a grid step).
            let (u, v) = (w.0.min(1.0 - w.1), w.1.min(1.0 - w.0));
            let at = |c: &[[Vec3; 3]; 2], k: usize| c[0][k] * (1.0 - tau) + c[1][k] * tau;
            let pa = at(&a, 0) * (1.0 - u - v) + at(&a, 1) * u + at(&a, 2) * v;
            let shift = pa - at(&b, 0);
            let b = b.map(|c| c.map(|p| p + shift));
            let (qa, qb) = images::<13>(&a, &b);
            prop_assert_eq!(aligned_overlap(&qa, &qb), scalar(&qa, &qb));
            prop_assert!(aligned_overlap(&qa, &qb));
            let (qa, qb) = images::<9>(&a, &b);
            prop_assert_eq!(aligned_overlap(&qa, &qb), scalar(&qa, &qb));
            prop_assert!(aligned_overlap(&qa, &qb));
            let (qa, qb) = images::<3>(&a, &b);
            prop_assert!(aligned_overlap(&qa, &qb));
        }

        /// The SIMD and scalar tests agree on any images, and the test of a
        /// merge is the test of the merged images.
        #[test]
        fn simd_equals_scalar(
            a in proptest::array::uniform2(proptest::array::uniform3(point())),
            b in proptest::array::uniform2(proptest::array::uniform3(point())),
            c in proptest::array::uniform2(proptest::array::uniform3(point())),
        ) {
            let (qa, qb) = images::<13>(&a, &b);
            prop_assert_eq!(aligned_overlap(&qa, &qb), scalar(&qa, &qb));
            let (_, qc) = images::<13>(&a, &c);
            let merged = [qb[0].merge(&qc[0]), qb[1].merge(&qc[1])];
            prop_assert_eq!(aligned_overlap_merge(&qa, [&qb, &qc]), scalar(&qa, &merged));
            let (qa, qb) = images::<9>(&a, &b);
            prop_assert_eq!(aligned_overlap(&qa, &qb), scalar(&qa, &qb));
            prop_assert_eq!(aligned_overlap_merge(&qa, [&qb]), scalar(&qa, &qb));
        }
    }
}
