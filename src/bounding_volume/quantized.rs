//! A compact k-DOP for tree nodes: every slab's bounds quantized to 16 bits
//! on a per-slab grid over a reference k-DOP (the root's), rounded outward,
//! so that it contains the `f64` k-DOP it stands for (docs/design.md §6,
//! *Quantized nodes*).
//!
//! **Why 16 bits.** A BVH node test reads the k-DOPs of two children; on the
//! real frames the node level is limited by how many bytes a test reads (the
//! nodes do not fit in the core's cache) and how many instructions it costs,
//! not by arithmetic. A 26-DOP in `f64` is 208 bytes, in `f32` 104; quantized,
//! 52, and an overlap test is four 8-lane vector comparisons. The grid has
//! 65,536 steps per slab over the scene's extent, so on the cloth frames a step
//! is well under a percent of a triangle: the node tests prune almost exactly
//! as well as `f64` ones would. Node tests only steer the descent; every
//! candidate is decided as the exact `f64` feature k-DOPs decide it (outer
//! images can only refute an overlap, inner ones only prove it; see the module
//! doc of `broad_phase::bvh`).
//!
//! **Rounding.** A bound `x` of slab `i` maps to `f(x) = (x − oᵢ)·sᵢ` with
//! `sᵢ = 65,000 / (extent of slab i)`. `f` is increasing, so `x ≤ y` implies
//! `f(x) ≤ f(y)`. The computed `f̃(x) = fl(fl(x − oᵢ)·sᵢ)` is within
//! `2u·|f(x)|(1 + u) + …` of `f(x)`: well under one step while
//! `|f(x)| < 2⁵⁰` (an exact zero difference maps to exactly 0). A lower bound
//! is stored as at most `⌊f̃⌋ − 1` and an upper bound as at least `⌈f̃⌉ + 1`,
//! both clamped to `[0, 65535]` (clamping is monotone too, and a large `f̃`,
//! including ±∞, clamps to the end of the range on the safe side). Since
//! the map is monotone, quantizing the merge of k-DOPs gives exactly the
//! merge of their quantized images. Hence if two `f64`
//! k-DOPs overlap in slab `i` (`a.lo ≤ b.hi`), their quantized images do
//! (`qlo(a) ≤ f(a.lo) ≤ f(b.hi) ≤ qhi(b)`): the quantized test never prunes
//! an overlapping pair. The same holds for k-DOPs outside the reference one
//! (they clamp), which is what a traversal of two trees with different grids
//! needs: a query is quantized on the grid of the tree it descends. A slab
//! of zero (or non-finite) extent gets `sᵢ = 0`: everything overlaps there.
//!
//! **Inner rounding** ([`Quantizer::quantize_inner`]) turns the argument
//! around, to *prove* overlaps: a lower bound is stored as at least
//! `⌊f̃⌋ + 2 > f(x)` and an upper bound as at most `⌈f̃⌉ − 2 < f(x)`, clamped to
//! `[1, 65535]` and `[0, 65534]` (a lower bound at the top end, or an upper
//! one at the bottom, then overlaps nothing: `f̃` beyond the grid proves
//! nothing). If two inner images overlap in slab `i` (`ilo(a) ≤ ihi(b)`),
//! then `f(a.lo) < ilo(a) ≤ ihi(b) < f(b.hi)`, so `a.lo < b.hi`: the `f64`
//! k-DOPs overlap. A slab of zero extent (`sᵢ = 0`, `f̃ = 0`) stores
//! `[2, 0]`, which overlaps nothing, as it must (`f` is constant there and
//! proves nothing). The inner image is monotone like the outer one, so the
//! inner image of a merge is the merge of the inner images.
//!
//! Stored values are offset by 32,768 into `i16`, so that the comparisons are
//! the signed 16-bit ones every x86-64 has (SSE2, 8 lanes: a k-DOP of
//! `8 ≤ N ≤ 16` slabs is compared as two overlapping groups of 8).

use super::Kdop;

/// Grid steps per slab span of the reference k-DOP (a little under 65,535,
/// so that the reference's own bounds stay inside after the ±1 margins).
const STEPS: f64 = 65_000.0;

/// [`Quantizer::image`] clamps `f̃` into `[IMAGE_MIN, IMAGE_MAX]` before
/// truncating it.
const IMAGE_MIN: f64 = -4.0;
const IMAGE_MAX: f64 = 65540.0;

/// A k-DOP with its bounds quantized on a [`Quantizer`]'s grid, stored as
/// `i16` (value − 32,768), one per slab (module doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C)]
pub struct QuantizedKdop<const N: usize> {
    /// Lower bounds.
    pub lo: [i16; N],
    /// Upper bounds.
    pub hi: [i16; N],
}

impl<const N: usize> QuantizedKdop<N> {
    /// The empty k-DOP (identity of [`QuantizedKdop::merge`]; overlaps nothing).
    pub const EMPTY: QuantizedKdop<N> = QuantizedKdop {
        lo: [i16::MAX; N],
        hi: [i16::MIN; N],
    };

    /// Whether the closed quantized k-DOPs overlap in every slab;
    /// branch-free.
    #[inline(always)]
    pub fn overlaps(&self, other: &QuantizedKdop<N>) -> bool {
        #[cfg(target_arch = "x86_64")]
        if (8..=16).contains(&N) {
            return simd::overlaps(self, other);
        }
        let mut apart = false;
        for i in 0..N {
            apart |= (self.lo[i] > other.hi[i]) | (other.lo[i] > self.hi[i]);
        }
        !apart
    }

    /// Whether `self` overlaps the merge of `parts`: `self.overlaps(&m)`
    /// for `m` the merge of `parts` (its vertices', for an edge or a face),
    /// computed in registers. (Merging into memory and testing the result
    /// costs a failed store-to-load forwarding: the merge stores 26 bytes in
    /// pieces that the test's overlapping 16-byte loads straddle.)
    #[inline(always)]
    pub fn overlaps_merge<const M: usize>(&self, parts: [&QuantizedKdop<N>; M]) -> bool {
        #[cfg(target_arch = "x86_64")]
        if (8..=16).contains(&N) && M > 0 {
            return simd::overlaps_merge(self, parts);
        }
        let mut m = QuantizedKdop::<N>::EMPTY;
        for p in parts {
            m = m.merge(p);
        }
        self.overlaps(&m)
    }

    /// Makes `self` the merge of `parts` (at least one), in vectors when
    /// there are 8 to 16 slabs, written in place.
    ///
    /// In place, because a vector result returned by value goes through a
    /// local whose copy to its destination reads back, in wider pieces,
    /// what the vector stores just wrote, and stalls on store-to-load
    /// forwarding.
    #[inline(always)]
    pub fn set_merge<const M: usize>(&mut self, parts: [&QuantizedKdop<N>; M]) {
        #[cfg(target_arch = "x86_64")]
        if (8..=16).contains(&N) && M > 0 {
            simd::set_merge(self, parts);
            return;
        }
        *self = parts.iter().fold(QuantizedKdop::EMPTY, |m, p| m.merge(p));
    }

    /// The smallest quantized k-DOP containing both, one slab at a time.
    /// To store a merge into an array, [`QuantizedKdop::set_merge`] is faster.
    #[inline(always)]
    pub fn merge(&self, other: &QuantizedKdop<N>) -> QuantizedKdop<N> {
        let mut out = *self;
        for i in 0..N {
            out.lo[i] = out.lo[i].min(other.lo[i]);
            out.hi[i] = out.hi[i].max(other.hi[i]);
        }
        out
    }
}

/// A quantized k-DOP held in registers, to test many k-DOPs against it
/// ([`QuantizedKdopQuery::overlaps`] equals [`QuantizedKdop::overlaps`]).
///
/// A `QuantizedKdop` copied into a local for that purpose is stored to the stack,
/// and the test's first loads straddle those stores: a failed
/// store-to-load forwarding per query (the traversal's leaf filter and
/// descents run one per leaf and per cluster).
#[derive(Clone, Copy, Debug)]
pub struct QuantizedKdopQuery<const N: usize> {
    /// Slabs `0..8` and `N − 8..N` of the lower bounds, then of the upper
    /// ones (8 to 16 slabs, on x86-64).
    #[cfg(target_arch = "x86_64")]
    v: [std::arch::x86_64::__m128i; 4],
    /// The k-DOP itself (the other cases).
    q: QuantizedKdop<N>,
}

impl<const N: usize> QuantizedKdopQuery<N> {
    /// `q` in the form the overlap test reads (its slabs in SIMD registers
    /// on x86-64), for testing one k-DOP against many.
    #[inline(always)]
    pub fn new(q: &QuantizedKdop<N>) -> QuantizedKdopQuery<N> {
        QuantizedKdopQuery::merge_of(std::slice::from_ref(q))
    }

    /// The merge of `parts` (empty: [`QuantizedKdop::EMPTY`]), merged in registers.
    #[inline(always)]
    pub fn merge_of(parts: &[QuantizedKdop<N>]) -> QuantizedKdopQuery<N> {
        #[cfg(target_arch = "x86_64")]
        if (8..=16).contains(&N) {
            return QuantizedKdopQuery {
                v: simd::merge_regs(parts),
                q: QuantizedKdop::EMPTY,
            };
        }
        QuantizedKdopQuery {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: a register operation; SSE2 is part of x86-64.
            v: [unsafe { std::arch::x86_64::_mm_setzero_si128() }; 4],
            q: parts.iter().fold(QuantizedKdop::EMPTY, |m, p| m.merge(p)),
        }
    }

    /// Whether the k-DOP overlaps `other`.
    #[inline(always)]
    pub fn overlaps(&self, other: &QuantizedKdop<N>) -> bool {
        #[cfg(target_arch = "x86_64")]
        if (8..=16).contains(&N) {
            return simd::overlaps_regs(&self.v, other);
        }
        self.q.overlaps(other)
    }

    /// Whether the k-DOP overlaps `other` and no element of `mine` equals
    /// one of `theirs` (two edges' k-DOPs and endpoints: the edges are
    /// distinct and share no endpoint). One test: on x86-64 the four
    /// element comparisons join the slabs' in the mask of one vector test,
    /// cheaper than four scalar comparisons `&`-ed to the overlap test.
    #[inline(always)]
    pub fn overlaps_and_disjoint(
        &self,
        other: &QuantizedKdop<N>,
        mine: [u32; 2],
        theirs: &[u32; 2],
    ) -> bool {
        #[cfg(target_arch = "x86_64")]
        if (8..=16).contains(&N) {
            return simd::overlaps_regs_disjoint(&self.v, other, mine, theirs);
        }
        let [r, u] = *theirs;
        let disjoint = mine.iter().all(|&m| m != r && m != u);
        disjoint && self.q.overlaps(other)
    }

    /// Whether the k-DOP overlaps `other` and `x` is none of `set` (a
    /// vertex's k-DOP against a face's, and the face's corners), in one
    /// vector test as [`QuantizedKdopQuery::overlaps_and_disjoint`].
    #[inline(always)]
    pub fn overlaps_and_not_in(&self, other: &QuantizedKdop<N>, x: u32, set: &[u32; 3]) -> bool {
        #[cfg(target_arch = "x86_64")]
        if (8..=16).contains(&N) {
            return simd::overlaps_regs_not_in(&self.v, other, x, set);
        }
        !set.contains(&x) && self.q.overlaps(other)
    }

    /// The k-DOP, stored.
    #[inline(always)]
    pub fn get(&self) -> QuantizedKdop<N> {
        #[cfg(target_arch = "x86_64")]
        if (8..=16).contains(&N) {
            let mut out = QuantizedKdop::EMPTY;
            simd::store_regs(&self.v, &mut out);
            return out;
        }
        self.q
    }
}

impl<const N: usize> Default for QuantizedKdop<N> {
    /// [`QuantizedKdop::EMPTY`].
    fn default() -> QuantizedKdop<N> {
        QuantizedKdop::EMPTY
    }
}

/// The overlap test on SSE2 (part of every x86-64): slabs `0..8` and
/// `N − 8..N` (overlapping when `N < 16`; comparing a slab twice changes
/// nothing).
#[cfg(target_arch = "x86_64")]
mod simd {
    use super::{IMAGE_MAX, IMAGE_MIN, Kdop, QuantizedKdop};
    use std::arch::x86_64::*;

    /// [`super::Quantizer::quantize_to`] on SSE2, slabs `0..8` and `N − 8..N` as
    /// in `overlaps` (a slab computed twice is stored twice, the same
    /// value). The same operations as the scalar version in the same order
    /// (no fused multiply–add), so the same results: `minpd`/`maxpd`
    /// return their second operand for a NaN, as the scalar clamps do; the
    /// truncation is `cvttpd2dq`; the offset into `i16` and the clamp to
    /// `[0, 65535]` are a saturating pack, the inner image's tighter ends
    /// one more `pmaxsw`/`pminsw`.
    #[inline(always)]
    pub(super) fn image_to<const N: usize, const INNER: bool>(
        origin: &[f64; N],
        scale: &[f64; N],
        b: &Kdop<N>,
        out: &mut QuantizedKdop<N>,
    ) {
        debug_assert!((8..=16).contains(&N));
        // SAFETY: each `f64` load reads 2 lanes at `at + 2j ≤ N − 2` of an
        // `[f64; N]`, each store 8 `i16` at `at ≤ N − 8` of an `[i16; N]`:
        // all within the arrays (`8 ≤ N`). SSE2 is part of x86-64.
        unsafe {
            let (min, max) = (_mm_set1_pd(IMAGE_MIN), _mm_set1_pd(IMAGE_MAX));
            // `f̃` of slabs `i, i + 1` truncated, in the low two `i32`
            // lanes; a NaN clamps high when `nan_high`.
            let trunc = |x: &[f64; N], i: usize, nan_high: bool| {
                let v = _mm_loadu_pd(x.as_ptr().add(i));
                let o = _mm_loadu_pd(origin.as_ptr().add(i));
                let s = _mm_loadu_pd(scale.as_ptr().add(i));
                let f = _mm_mul_pd(_mm_sub_pd(v, o), s);
                let f = if nan_high {
                    _mm_max_pd(_mm_min_pd(f, max), min)
                } else {
                    _mm_min_pd(_mm_max_pd(f, min), max)
                };
                _mm_cvttpd_epi32(f)
            };
            // Slabs `at..at + 8` of `x`, truncated, plus `offset`, packed.
            let eight = |x: &[f64; N], at: usize, nan_high: bool, offset: i32| {
                let t: [__m128i; 4] = std::array::from_fn(|j| trunc(x, at + 2 * j, nan_high));
                let off = _mm_set1_epi32(offset);
                let q0 = _mm_add_epi32(_mm_unpacklo_epi64(t[0], t[1]), off);
                let q1 = _mm_add_epi32(_mm_unpacklo_epi64(t[2], t[3]), off);
                _mm_packs_epi32(q0, q1)
            };
            let step = if INNER { 2 } else { -2 };
            for at in [0, N - 8] {
                let mut lo = eight(&b.lo, at, INNER, step - 32768);
                let mut hi = eight(&b.hi, at, !INNER, -step - 32768);
                if INNER {
                    lo = _mm_max_epi16(lo, _mm_set1_epi16((1 - 32768) as i16));
                    hi = _mm_min_epi16(hi, _mm_set1_epi16((65534 - 32768) as i16));
                }
                _mm_storeu_si128(out.lo.as_mut_ptr().add(at).cast(), lo);
                _mm_storeu_si128(out.hi.as_mut_ptr().add(at).cast(), hi);
            }
        }
    }

    #[inline(always)]
    pub(super) fn overlaps<const N: usize>(a: &QuantizedKdop<N>, b: &QuantizedKdop<N>) -> bool {
        debug_assert!((8..=16).contains(&N));
        // SAFETY: each load reads 8 `i16` at offset 0 or `N − 8` of an
        // `[i16; N]` with `8 ≤ N`, i.e. within the array; SSE2 is part of
        // x86-64.
        unsafe {
            let load = |x: &[i16; N], at: usize| _mm_loadu_si128(x.as_ptr().add(at).cast());
            let mut apart = _mm_setzero_si128();
            for at in [0, N - 8] {
                let (al, ah) = (load(&a.lo, at), load(&a.hi, at));
                let (bl, bh) = (load(&b.lo, at), load(&b.hi, at));
                apart = _mm_or_si128(
                    apart,
                    _mm_or_si128(_mm_cmpgt_epi16(al, bh), _mm_cmpgt_epi16(bl, ah)),
                );
            }
            _mm_movemask_epi8(apart) == 0
        }
    }

    /// `[lo@0, lo@N−8, hi@0, hi@N−8]` of the merge of `parts`.
    #[inline(always)]
    pub(super) fn merge_regs<'a, const N: usize>(
        parts: impl IntoIterator<Item = &'a QuantizedKdop<N>>,
    ) -> [__m128i; 4] {
        debug_assert!((8..=16).contains(&N));
        // SAFETY: as in `overlaps`.
        unsafe {
            let load = |x: &[i16; N], at: usize| _mm_loadu_si128(x.as_ptr().add(at).cast());
            let mut v = [
                _mm_set1_epi16(i16::MAX),
                _mm_set1_epi16(i16::MAX),
                _mm_set1_epi16(i16::MIN),
                _mm_set1_epi16(i16::MIN),
            ];
            for p in parts {
                v[0] = _mm_min_epi16(v[0], load(&p.lo, 0));
                v[1] = _mm_min_epi16(v[1], load(&p.lo, N - 8));
                v[2] = _mm_max_epi16(v[2], load(&p.hi, 0));
                v[3] = _mm_max_epi16(v[3], load(&p.hi, N - 8));
            }
            v
        }
    }

    /// The lanes (16-bit slabs) in which the k-DOP in `v` ([`merge_regs`])
    /// and `b` are apart, all ones.
    #[inline(always)]
    fn apart_regs<const N: usize>(v: &[__m128i; 4], b: &QuantizedKdop<N>) -> __m128i {
        debug_assert!((8..=16).contains(&N));
        // SAFETY: as in `overlaps`.
        unsafe {
            let load = |x: &[i16; N], at: usize| _mm_loadu_si128(x.as_ptr().add(at).cast());
            let a0 = _mm_or_si128(
                _mm_cmpgt_epi16(v[0], load(&b.hi, 0)),
                _mm_cmpgt_epi16(load(&b.lo, 0), v[2]),
            );
            let a1 = _mm_or_si128(
                _mm_cmpgt_epi16(v[1], load(&b.hi, N - 8)),
                _mm_cmpgt_epi16(load(&b.lo, N - 8), v[3]),
            );
            _mm_or_si128(a0, a1)
        }
    }

    /// [`QuantizedKdop::overlaps`] of the k-DOP in `v` ([`merge_regs`]) and `b`.
    #[inline(always)]
    pub(super) fn overlaps_regs<const N: usize>(v: &[__m128i; 4], b: &QuantizedKdop<N>) -> bool {
        // SAFETY: a register operation; SSE2 is part of x86-64.
        unsafe { _mm_movemask_epi8(apart_regs(v, b)) == 0 }
    }

    /// [`overlaps_regs`], and no element of `mine` equals one of `theirs`.
    #[inline(always)]
    pub(super) fn overlaps_regs_disjoint<const N: usize>(
        v: &[__m128i; 4],
        b: &QuantizedKdop<N>,
        mine: [u32; 2],
        theirs: &[u32; 2],
    ) -> bool {
        // SAFETY: the 8-byte load reads `theirs` exactly; SSE2 is part of
        // x86-64.
        unsafe {
            // Lanes `[m₀, m₀, m₁, m₁]` against `[t₀, t₁, t₀, t₁]`: all four
            // pairs.
            let m = _mm_set_epi32(
                mine[1] as i32,
                mine[1] as i32,
                mine[0] as i32,
                mine[0] as i32,
            );
            let t = _mm_shuffle_epi32(_mm_loadl_epi64(theirs.as_ptr().cast()), 0x44);
            overlaps_regs_unless(v, b, _mm_cmpeq_epi32(m, t))
        }
    }

    /// [`overlaps_regs`], and no lane of `shared` is set (one mask for the
    /// slabs and the element comparisons).
    #[inline(always)]
    fn overlaps_regs_unless<const N: usize>(
        v: &[__m128i; 4],
        b: &QuantizedKdop<N>,
        shared: __m128i,
    ) -> bool {
        // SAFETY: register operations; SSE2 is part of x86-64.
        unsafe { _mm_movemask_epi8(_mm_or_si128(apart_regs(v, b), shared)) == 0 }
    }

    /// [`overlaps_regs`], and `x` is none of `set`.
    #[inline(always)]
    pub(super) fn overlaps_regs_not_in<const N: usize>(
        v: &[__m128i; 4],
        b: &QuantizedKdop<N>,
        x: u32,
        set: &[u32; 3],
    ) -> bool {
        // SAFETY: register operations; SSE2 is part of x86-64.
        unsafe {
            // `[x; 4]` against `[s₀, s₁, s₂, s₂]`.
            let m = _mm_set1_epi32(x as i32);
            let t = _mm_set_epi32(set[2] as i32, set[2] as i32, set[1] as i32, set[0] as i32);
            overlaps_regs_unless(v, b, _mm_cmpeq_epi32(m, t))
        }
    }

    /// Stores the k-DOP in `v` ([`merge_regs`]) into `out`.
    #[inline(always)]
    pub(super) fn store_regs<const N: usize>(v: &[__m128i; 4], out: &mut QuantizedKdop<N>) {
        // SAFETY: each store covers 8 `i16` at offset 0 or `N − 8` of an
        // `[i16; N]` with `8 ≤ N`, i.e. within the array; the two stores
        // overlap when `N < 16` and write equal values there.
        unsafe {
            let store =
                |x: &mut [i16; N], at: usize, v| _mm_storeu_si128(x.as_mut_ptr().add(at).cast(), v);
            store(&mut out.lo, 0, v[0]);
            store(&mut out.lo, N - 8, v[1]);
            store(&mut out.hi, 0, v[2]);
            store(&mut out.hi, N - 8, v[3]);
        }
    }

    #[inline(always)]
    pub(super) fn set_merge<const N: usize, const M: usize>(
        out: &mut QuantizedKdop<N>,
        parts: [&QuantizedKdop<N>; M],
    ) {
        // Every part is loaded before `out` is written.
        store_regs(&merge_regs(parts), out);
    }

    #[inline(always)]
    pub(super) fn overlaps_merge<const N: usize, const M: usize>(
        a: &QuantizedKdop<N>,
        parts: [&QuantizedKdop<N>; M],
    ) -> bool {
        debug_assert!(M > 0);
        overlaps_regs(&merge_regs(parts), a)
    }
}

/// The grid of one tree: per slab an origin and a scale (module doc).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Quantizer<const N: usize> {
    origin: [f64; N],
    scale: [f64; N],
}

impl<const N: usize> Quantizer<N> {
    /// The grid over `reference` (usually the root's k-DOP). An empty
    /// reference gives a grid on which everything overlaps.
    pub fn new(reference: &Kdop<N>) -> Quantizer<N> {
        let mut origin = [0.0; N];
        let mut scale = [0.0; N];
        for i in 0..N {
            let (lo, hi) = (reference.lo[i], reference.hi[i]);
            let s = STEPS / (hi - lo);
            if lo.is_finite() && s.is_finite() && s > 0.0 {
                origin[i] = lo;
                scale[i] = s;
            }
        }
        Quantizer { origin, scale }
    }

    /// The quantized k-DOP containing `b` (rounded outward, module doc).
    /// To store images into an array, [`Quantizer::quantize_to`] is faster.
    #[inline]
    pub fn quantize(&self, b: &Kdop<N>) -> QuantizedKdop<N> {
        self.image::<false>(b)
    }

    /// The quantized k-DOP inside `b` (rounded inward, module doc): when the
    /// inner images of two k-DOPs overlap, the k-DOPs do.
    #[inline]
    pub fn quantize_inner(&self, b: &Kdop<N>) -> QuantizedKdop<N> {
        self.image::<true>(b)
    }

    /// Writes [`Quantizer::quantize`]`(b)` into `out`, in vectors when
    /// there are 8 to 16 slabs (in place for the reason given at
    /// [`QuantizedKdop::set_merge`]).
    #[inline(always)]
    pub fn quantize_to(&self, b: &Kdop<N>, out: &mut QuantizedKdop<N>) {
        self.image_to::<false>(b, out)
    }

    /// Writes [`Quantizer::quantize_inner`]`(b)` into `out`, likewise.
    #[inline(always)]
    pub fn quantize_inner_to(&self, b: &Kdop<N>, out: &mut QuantizedKdop<N>) {
        self.image_to::<true>(b, out)
    }

    #[inline(always)]
    fn image_to<const INNER: bool>(&self, b: &Kdop<N>, out: &mut QuantizedKdop<N>) {
        #[cfg(target_arch = "x86_64")]
        if (8..=16).contains(&N) {
            simd::image_to::<N, INNER>(&self.origin, &self.scale, b, out);
            return;
        }
        *out = self.image::<INNER>(b);
    }

    /// The outer (`INNER = false`) or inner image of `b`, one slab at a
    /// time.
    ///
    /// `f̃` is clamped to [−4, 65540] first, with plain comparisons that send
    /// a NaN to the safe end (outer: −4 for a lower bound, 65540 for an
    /// upper one; inner: the other way round), which changes no stored
    /// value; then truncation toward zero. Outer: minus (plus) 2 is at most
    /// `⌊f̃⌋ − 1` (at least `⌈f̃⌉ + 1`); inner: plus (minus) 2 is at least
    /// `⌊f̃⌋ + 2` (at most `⌈f̃⌉ − 2`). One more step of margin than needed,
    /// for a conversion that is one instruction (x86-64's baseline has no
    /// rounding instruction; `floor` is a library call).
    #[inline(always)]
    fn image<const INNER: bool>(&self, b: &Kdop<N>) -> QuantizedKdop<N> {
        // Into [MIN, MAX]; a NaN goes to MAX when `nan_high`, else to MIN.
        const MIN: f64 = IMAGE_MIN;
        const MAX: f64 = IMAGE_MAX;
        let clamp = |f: f64, nan_high: bool| {
            if nan_high {
                let f = if f <= MAX { f } else { MAX };
                if f >= MIN { f } else { MIN }
            } else {
                let f = if f >= MIN { f } else { MIN };
                if f <= MAX { f } else { MAX }
            }
        };
        let (step, lo_min, hi_max) = if INNER { (2, 1, 65534) } else { (-2, 0, 65535) };
        let mut out = QuantizedKdop {
            lo: [0; N],
            hi: [0; N],
        };
        for i in 0..N {
            let f_lo = clamp((b.lo[i] - self.origin[i]) * self.scale[i], INNER);
            let f_hi = clamp((b.hi[i] - self.origin[i]) * self.scale[i], !INNER);
            let lo = (f_lo as i32 + step).clamp(lo_min, 65535);
            let hi = (f_hi as i32 - step).clamp(0, hi_max);
            out.lo[i] = (lo - 32768) as i16;
            out.hi[i] = (hi - 32768) as i16;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bounding_volume::{Kdop8, Kdop18, Kdop26};
    use crate::math::Vec3;
    use proptest::prelude::*;

    fn kdop(points: &[[f64; 3]]) -> Kdop26 {
        Kdop::from_points(
            points
                .iter()
                .map(|p| Vec3::from(*p))
                .collect::<Vec<_>>()
                .iter(),
        )
    }

    /// The grid over the k-DOP of `r`, or, when `tiny`, over a reference of
    /// (almost) no extent: huge scales.
    fn grid(r: &[[f64; 3]], tiny: bool) -> Quantizer<13> {
        let mut reference = kdop(r);
        if tiny {
            reference = kdop(&r[..1]);
            reference.hi[0] = reference.lo[0].next_up();
        }
        Quantizer::new(&reference)
    }

    proptest! {
        /// Quantized k-DOPs overlap whenever the exact ones do, on the grid
        /// of a reference that need not contain them.
        #[test]
        fn exact_overlap_implies_quantized_overlap(
            a in proptest::collection::vec(prop::array::uniform3(-2.0..2.0f64), 1..4),
            b in proptest::collection::vec(prop::array::uniform3(-2.0..2.0f64), 1..4),
            r in proptest::collection::vec(prop::array::uniform3(-1.0..1.0f64), 1..4),
            tiny in prop::bool::ANY,
        ) {
            let (ka, kb) = (kdop(&a), kdop(&b));
            let g = grid(&r, tiny);
            let (qa, qb) = (g.quantize(&ka), g.quantize(&kb));
            prop_assert!(!ka.overlaps(&kb) || qa.overlaps(&qb));
            prop_assert_eq!(qa.overlaps(&qb), qb.overlaps(&qa));
            prop_assert!(qa.overlaps(&qa));
            let m = qa.merge(&qb);
            prop_assert!(m.overlaps(&qa) && m.overlaps(&qb));
            // The merge of the exact ones quantizes inside the merged ones.
            let qm = g.quantize(&ka.merge(&kb));
            for i in 0..13 {
                prop_assert!(m.lo[i] <= qm.lo[i] && qm.hi[i] <= m.hi[i]);
            }
            // The vector test agrees with the scalar one, also on a merge
            // done in registers.
            let scalar = |x: &QuantizedKdop<13>, y: &QuantizedKdop<13>| {
                (0..13).all(|i| x.lo[i] <= y.hi[i] && y.lo[i] <= x.hi[i])
            };
            prop_assert_eq!(qa.overlaps(&qb), scalar(&qa, &qb));
            let qr = g.quantize(&kdop(&r));
            for q in [&qa, &qb, &qr] {
                prop_assert_eq!(q.overlaps_merge([&qb]), scalar(q, &qb));
                prop_assert_eq!(q.overlaps_merge([&qb, &qr]), scalar(q, &qb.merge(&qr)));
                let m3 = qb.merge(&qr).merge(&qa);
                prop_assert_eq!(q.overlaps_merge([&qb, &qr, &qa]), scalar(q, &m3));
            }
        }

        /// Inner images overlap only when the exact k-DOPs do, on any
        /// grid (also a tiny one, and for k-DOPs outside the reference);
        /// inner images lie inside the outer ones; the inner image of a
        /// merge is the merge of the inner images.
        #[test]
        fn inner_overlap_implies_exact_overlap(
            a in proptest::collection::vec(prop::array::uniform3(-2.0..2.0f64), 1..4),
            b in proptest::collection::vec(prop::array::uniform3(-2.0..2.0f64), 1..4),
            r in proptest::collection::vec(prop::array::uniform3(-1.0..1.0f64), 1..4),
            shift in prop::array::uniform3(-1e-4..1e-4f64),
            tiny in prop::bool::ANY,
        ) {
            // `b` may be `a` moved by a hair: the overlaps that are hardest
            // to prove or refute.
            let b = if shift[0] > 0.0 {
                a.iter().map(|p| [p[0] + shift[0], p[1] + shift[1], p[2] + shift[2]]).collect()
            } else {
                b
            };
            let (ka, kb) = (kdop(&a), kdop(&b));
            let g = grid(&r, tiny);
            let (ia, ib) = (g.quantize_inner(&ka), g.quantize_inner(&kb));
            prop_assert!(!ia.overlaps(&ib) || ka.overlaps(&kb));
            let (qa, qb) = (g.quantize(&ka), g.quantize(&kb));
            for i in 0..13 {
                prop_assert!(qa.lo[i] <= ia.lo[i] && ia.hi[i] <= qa.hi[i]);
                prop_assert!(qb.lo[i] <= ib.lo[i] && ib.hi[i] <= qb.hi[i]);
            }
            let im = g.quantize_inner(&ka.merge(&kb));
            prop_assert_eq!(im, ia.merge(&ib));
        }
    }

    /// Any `f64` bound, the awkward ones often: NaN, ±∞, huge, ±0 and
    /// values near the grid's ends.
    fn bound() -> impl Strategy<Value = f64> {
        prop_oneof![
            4 => -3.0..3.0f64,
            1 => Just(f64::NAN),
            1 => Just(f64::INFINITY),
            1 => Just(f64::NEG_INFINITY),
            1 => Just(0.0),
            1 => Just(-0.0),
            1 => prop::num::f64::NORMAL,
            1 => (-1e-9..1e-9f64).prop_map(|d| 1.0 + d),
            1 => (-1e-9..1e-9f64).prop_map(|d| -1.0 + d),
        ]
    }

    fn any_kdop<const N: usize>() -> impl Strategy<Value = Kdop<N>> {
        (
            prop::collection::vec(bound(), N),
            prop::collection::vec(bound(), N),
        )
            .prop_map(|(lo, hi)| Kdop {
                lo: std::array::from_fn(|i| lo[i]),
                hi: std::array::from_fn(|i| hi[i]),
            })
    }

    /// The vector image and merge equal the scalar ones for `N` slabs.
    fn check_vector_paths<const N: usize>(
        b: &Kdop<N>,
        c: &Kdop<N>,
        r: &Kdop<N>,
    ) -> Result<(), TestCaseError> {
        for g in [Quantizer::new(r), Quantizer::new(&Kdop::<N>::EMPTY)] {
            let (qb, qc) = (g.quantize(b), g.quantize_inner(c));
            let mut out = QuantizedKdop::<N>::EMPTY;
            g.quantize_to(b, &mut out);
            prop_assert_eq!(out, qb);
            g.quantize_inner_to(c, &mut out);
            prop_assert_eq!(out, qc);
            out.set_merge([&qb, &qc]);
            prop_assert_eq!(out, qb.merge(&qc));
            out.set_merge([&qb]);
            prop_assert_eq!(out, qb);
            let qe = g.quantize(c);
            out = qc;
            out.set_merge([&qb, &out.clone(), &qe]);
            prop_assert_eq!(out, qb.merge(&qc).merge(&qe));
            check_query(&[qb, qc, qe])?;
        }
        Ok(())
    }

    /// A [`QuantizedKdopQuery`] of any part of `parts` tests like the merged
    /// `QuantizedKdop` and stores it back.
    fn check_query<const N: usize>(parts: &[QuantizedKdop<N>]) -> Result<(), TestCaseError> {
        for k in 0..=parts.len() {
            let m = parts[..k]
                .iter()
                .fold(QuantizedKdop::EMPTY, |m, p| m.merge(p));
            let q = QuantizedKdopQuery::merge_of(&parts[..k]);
            prop_assert_eq!(q.get(), m);
            for p in parts.iter().chain([&m, &QuantizedKdop::EMPTY]) {
                prop_assert_eq!(q.overlaps(p), m.overlaps(p));
                // Each of the four element pairs equal, none, all; IDs
                // with the top bit set.
                for (mine, theirs) in [
                    ([1, 2], [3, 4]),
                    ([7, 3], [7, 9]),
                    ([3, 8], [1, 3]),
                    ([1, 2], [2, 5]),
                    ([5, 6], [8, 6]),
                    ([4, 4], [4, 4]),
                    ([u32::MAX, 0], [1, u32::MAX - 1]),
                    ([u32::MAX, 0], [0, 1]),
                ] {
                    let disjoint = mine.iter().all(|x| !theirs.contains(x));
                    prop_assert_eq!(
                        q.overlaps_and_disjoint(p, mine, &theirs),
                        disjoint && m.overlaps(p)
                    );
                }
                // Each corner equal, none, a repeated corner, the top bit.
                for (x, set) in [
                    (5, [5, 6, 7]),
                    (6, [5, 6, 7]),
                    (7, [5, 6, 7]),
                    (8, [5, 6, 7]),
                    (0, [1, 2, 3]),
                    (3, [3, 3, 3]),
                    (u32::MAX, [0, 1, u32::MAX]),
                    (u32::MAX, [0, 1, u32::MAX - 1]),
                ] {
                    prop_assert_eq!(
                        q.overlaps_and_not_in(p, x, &set),
                        !set.contains(&x) && m.overlaps(p)
                    );
                }
            }
            if k == 1 {
                prop_assert_eq!(QuantizedKdopQuery::new(&parts[0]).get(), parts[0]);
            }
        }
        Ok(())
    }

    proptest! {
        /// On SSE2 the images and merges of k-DOPs with 8 to 16 slabs are
        /// computed in vectors: they equal the slab-by-slab oracle, on
        /// any bounds (NaN and ±∞ included) and any grid.
        #[test]
        fn vector_image_and_merge_equal_the_scalar_ones(
            b in any_kdop::<13>(),
            c in any_kdop::<13>(),
            r in any_kdop::<13>(),
            b9 in any_kdop::<9>(),
            c9 in any_kdop::<9>(),
            pts in proptest::collection::vec(prop::array::uniform3(-2.0..2.0f64), 1..4),
        ) {
            check_vector_paths(&b, &c, &r)?;
            // A reference that is a real k-DOP: finite scales.
            check_vector_paths(&b, &c, &kdop(&pts))?;
            let r9 = Kdop18 {
                lo: std::array::from_fn(|i| r.lo[i]),
                hi: std::array::from_fn(|i| r.hi[i]),
            };
            check_vector_paths(&b9, &c9, &r9)?;
            // Fewer than 8 slabs: the scalar paths.
            let four = |k: &Kdop26| Kdop8 {
                lo: std::array::from_fn(|i| k.lo[i]),
                hi: std::array::from_fn(|i| k.hi[i]),
            };
            let g = Quantizer::new(&four(&kdop(&pts)));
            let [x, y] = [&b, &c].map(|k| g.quantize(&four(k)));
            check_query(&[x, y])?;
        }
    }

    #[test]
    fn inner_images_prove_clear_overlaps_and_nothing_on_a_flat_grid() {
        // The k-DOP of the cube [lo, hi]³ (extent in every slab).
        let cube = |lo: f64, hi: f64| {
            let corners: Vec<[f64; 3]> = (0..8)
                .map(|i| [0, 1, 2].map(|k| if i >> k & 1 == 0 { lo } else { hi }))
                .collect();
            kdop(&corners)
        };
        let g = Quantizer::new(&cube(0.0, 1.0));
        let a = cube(0.1, 0.3);
        assert!(
            g.quantize_inner(&a)
                .overlaps(&g.quantize_inner(&cube(0.2, 0.4)))
        );
        // Touching (at a corner, so in the (1, 1, 1) slab): not provable
        // with the margins, although the exact k-DOPs overlap.
        let c = cube(0.3, 0.5);
        assert!(a.overlaps(&c));
        assert!(!g.quantize_inner(&a).overlaps(&g.quantize_inner(&c)));
        // A slab of zero extent proves nothing there: points on the
        // diagonal x = y = z all project to 0 on (1, −1, 0).
        let d = kdop(&[[0.0, 0.0, 0.0], [1.0, 1.0, 1.0]]);
        let gd = Quantizer::new(&d);
        assert!(!gd.quantize_inner(&d).overlaps(&gd.quantize_inner(&d)));
        // Everything is one point of a flat grid: nothing is proven.
        let flat = Quantizer::new(&Kdop26::EMPTY);
        assert!(!flat.quantize_inner(&a).overlaps(&flat.quantize_inner(&a)));
    }

    #[test]
    fn separated_boxes_stay_separated_on_a_fine_grid() {
        let g = Quantizer::new(&kdop(&[[0.0, 0.0, 0.0], [1.0, 1.0, 1.0]]));
        let a = g.quantize(&kdop(&[[0.1, 0.1, 0.1], [0.2, 0.2, 0.2]]));
        let b = g.quantize(&kdop(&[[0.3, 0.1, 0.1], [0.4, 0.2, 0.2]]));
        assert!(!a.overlaps(&b));
        assert!(!QuantizedKdop::<13>::EMPTY.overlaps(&a));
        // On a degenerate grid everything overlaps.
        let flat = Quantizer::new(&Kdop26::EMPTY);
        let (c, d) = (kdop(&[[5.0, 5.0, 5.0]]), kdop(&[[-5.0, 0.0, 1.0]]));
        assert!(flat.quantize(&c).overlaps(&flat.quantize(&d)));
    }
}
