//! A discrete oriented polytope with `N = k/2` slabs (Wan, Fu & Yao 2022,
//! §1.1: the bounding volume of the high-level cull), stored as `N` lower and
//! `N` upper bounds of `d·p` over the enclosed points, `d` running over
//! [`slab_directions`]`(N)`.
//!
//! **Outward rounding.** A coordinate slab stores coordinates themselves: no
//! rounding. A diagonal projection is a sum of two or three coordinates (with
//! signs, which are exact) and is rounded once per addition. For a correctly
//! rounded sum `s = fl(a + b)` the exact `a + b` lies strictly between the
//! neighbours of `s` (round-to-nearest picks the nearest double, so `a + b` is
//! at most half-way to either neighbour; this also holds for subnormal results,
//! and for overflow: `s = +∞` means `a + b > f64::MAX = s.next_down()`). Hence
//! `s.next_down() ≤ a + b ≤ s.next_up()`. For three terms we chain directed
//! bounds: with `l ≤ x + y` from the first step, `fl(l + z).next_down() ≤ l + z
//! ≤ x + y + z`, and likewise upward. So every stored slab contains the exact
//! projection of every enclosed point, at the cost of at most two ulps per
//! bound (one when the sum happens to be exact). No constant from
//! [`crate::math`] is needed: the bound is the neighbour, not a relative error.
//!
//! Overlap is **closed**: touching slabs overlap. (The data sets' published
//! swept-AABB counts use the same convention; see the module doc of
//! `broad_phase::brute_force`.)
//!
//! docs/design.md §6.

use super::axes::{DIRECTIONS, slab_directions};
use crate::math::Vec3;

/// The 6-DOP (an axis-aligned box): [`Kdop`] with 3 slabs.
pub type Kdop6 = Kdop<3>;
/// The 8-DOP (the four corner diagonals): [`Kdop`] with 4 slabs.
pub type Kdop8 = Kdop<4>;
/// The 14-DOP (axes and corner diagonals): [`Kdop`] with 7 slabs.
pub type Kdop14 = Kdop<7>;
/// The 18-DOP (axes and edge diagonals): [`Kdop`] with 9 slabs.
pub type Kdop18 = Kdop<9>;
/// The 26-DOP of Wan, Fu & Yao 2022 (all 13 directions): [`Kdop`] with 13 slabs.
pub type Kdop26 = Kdop<13>;

/// A k-DOP with `N` slabs: `N` counts slab directions, `k = 2N` counts
/// faces (`N` = 3, 4, 7, 9, 13 for k = 6, 8, 14, 18, 26; the aliases
/// [`Kdop6`] … [`Kdop26`] name them by k).
///
/// `lo[i] ≤ d_i·p ≤ hi[i]` for every enclosed point `p`, where `d_i` is
/// [`DIRECTIONS`]`[`[`slab_directions`]`(N)[i]]`. The empty
/// k-DOP has `lo = +∞`, `hi = −∞`.
#[derive(Debug, Clone, Copy, PartialEq)]
#[repr(C)]
pub struct Kdop<const N: usize> {
    /// Lower bounds, one per slab.
    pub lo: [f64; N],
    /// Upper bounds, one per slab.
    pub hi: [f64; N],
}

/// How far [`Kdop::inflate_by`] moves each slab out to grow a k-DOP by a
/// Euclidean distance `r > 0`: slab `i` by `r·‖dᵢ‖₁ ≥ r·‖dᵢ‖₂` (the
/// directions' components are 0 or ±1, so `‖dᵢ‖₁` is 1, 2 or 3; `2r` is
/// exact and `3r` is rounded up).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Inflation<const N: usize> {
    margin: [f64; N],
}

impl<const N: usize> Inflation<N> {
    /// The slabs' moves for `r`, or `None` for `r = 0` (nothing moves).
    ///
    /// # Panics
    /// When `r` is negative or NaN.
    pub fn new(r: f64) -> Option<Inflation<N>> {
        assert!(r >= 0.0, "a k-DOP grows by a distance r >= 0, not {r}");
        if r == 0.0 {
            return None;
        }
        let margin = std::array::from_fn(|i| {
            let l1 = DIRECTIONS[Kdop::<N>::SLABS[i]]
                .iter()
                .map(|c| c.unsigned_abs())
                .sum::<u8>();
            match l1 {
                1 => r,
                2 => 2.0 * r,
                // 3 for the corner diagonals; any larger ‖d‖₁ (a direction
                // with a component beyond ±1, none today) rounds up too,
                // rather than silently growing by 3r.
                n => (f64::from(n) * r).next_up(),
            }
        });
        Some(Inflation { margin })
    }
}

/// Projections of `p` onto all 13 directions, rounded outward: `(lo, hi)`.
///
/// Unused entries are dead code after inlining into a fixed `N`.
#[inline(always)]
fn project13(p: &Vec3) -> ([f64; 13], [f64; 13]) {
    let (x, y, z) = (p.x, p.y, p.z);
    // Edge diagonals: one rounding each.
    let e = [x + y, x - y, x + z, x - z, y + z, y - z];
    let e_lo = e.map(f64::next_down);
    let e_hi = e.map(f64::next_up);
    // Corner diagonals (1,1,1), (1,1,-1), (1,-1,1), (1,-1,-1): chained from
    // the directed bounds of x + y and x − y.
    let c_lo = [
        (e_lo[0] + z).next_down(),
        (e_lo[0] - z).next_down(),
        (e_lo[1] + z).next_down(),
        (e_lo[1] - z).next_down(),
    ];
    let c_hi = [
        (e_hi[0] + z).next_up(),
        (e_hi[0] - z).next_up(),
        (e_hi[1] + z).next_up(),
        (e_hi[1] - z).next_up(),
    ];
    let lo = [
        x, y, z, c_lo[0], c_lo[1], c_lo[2], c_lo[3], e_lo[0], e_lo[1], e_lo[2], e_lo[3], e_lo[4],
        e_lo[5],
    ];
    let hi = [
        x, y, z, c_hi[0], c_hi[1], c_hi[2], c_hi[3], e_hi[0], e_hi[1], e_hi[2], e_hi[3], e_hi[4],
        e_hi[5],
    ];
    (lo, hi)
}

impl<const N: usize> Kdop<N> {
    /// Indices into [`DIRECTIONS`] of the slabs; a bad `N`
    /// fails to compile where this is used.
    pub const SLABS: &'static [usize] = slab_directions(N);

    /// The empty k-DOP (contains nothing, overlaps nothing; identity of
    /// [`Kdop::merge`]).
    pub const EMPTY: Kdop<N> = Kdop {
        lo: [f64::INFINITY; N],
        hi: [f64::NEG_INFINITY; N],
    };

    /// The k-DOP of one point, diagonal slabs rounded outward (module doc).
    #[inline(always)]
    pub fn from_point(p: &Vec3) -> Kdop<N> {
        let (lo13, hi13) = project13(p);
        let slabs = Self::SLABS;
        let mut lo = [0.0; N];
        let mut hi = [0.0; N];
        for i in 0..N {
            lo[i] = lo13[slabs[i]];
            hi[i] = hi13[slabs[i]];
        }
        Kdop { lo, hi }
    }

    /// The swept k-DOP of a point moving linearly from `p_t0` to `p_t1`: it
    /// contains the whole segment, since `d·p(t)` is linear in `t`.
    #[inline(always)]
    pub fn from_swept_point(p_t0: &Vec3, p_t1: &Vec3) -> Kdop<N> {
        let mut out = Kdop::EMPTY;
        out.set_swept_point(p_t0, p_t1);
        out
    }

    /// Makes `self` [`Kdop::from_swept_point`]`(p_t0, p_t1)`, written in
    /// place (to store it into an array: no copy through a local).
    ///
    /// On x86-64 both points are projected at once, one per SSE2 lane,
    /// with the outward roundings done on the bits (`simd::next_up`) in
    /// place of [`f64::next_up`]'s branches; the results are bit for bit
    /// those of `from_point(p_t0).merge(&from_point(p_t1))` (tested; a NaN
    /// may differ in sign). The refit spends much of its time here.
    #[inline(always)]
    pub fn set_swept_point(&mut self, p_t0: &Vec3, p_t1: &Vec3) {
        #[cfg(target_arch = "x86_64")]
        {
            let (lo13, hi13) = simd::swept_project13(p_t0, p_t1);
            let slabs = Self::SLABS;
            for i in 0..N {
                self.lo[i] = lo13[slabs[i]];
                self.hi[i] = hi13[slabs[i]];
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            *self = Kdop::from_point(p_t0).merge(&Kdop::from_point(p_t1));
        }
    }

    /// `[from_point(p_t0), from_point(p_t1)]` (the same bits), written in
    /// place; on x86-64 both points are projected at once, one per SSE2
    /// lane, as in [`Kdop::set_swept_point`].
    #[inline(always)]
    pub fn set_points(out: &mut [Kdop<N>; 2], p_t0: &Vec3, p_t1: &Vec3) {
        #[cfg(target_arch = "x86_64")]
        {
            let each = simd::project13_each(p_t0, p_t1);
            let slabs = Self::SLABS;
            for (o, (lo13, hi13)) in out.iter_mut().zip(&each) {
                for i in 0..N {
                    o.lo[i] = lo13[slabs[i]];
                    o.hi[i] = hi13[slabs[i]];
                }
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            *out = [Kdop::from_point(p_t0), Kdop::from_point(p_t1)];
        }
    }

    /// The k-DOP of a set of points (empty for no points).
    pub fn from_points<'a>(points: impl IntoIterator<Item = &'a Vec3>) -> Kdop<N> {
        points
            .into_iter()
            .fold(Kdop::EMPTY, |b, p| b.merge(&Kdop::from_point(p)))
    }

    /// The smallest k-DOP containing both (exact: only min and max).
    #[inline(always)]
    pub fn merge(&self, other: &Kdop<N>) -> Kdop<N> {
        #[cfg(target_arch = "x86_64")]
        if N >= 2 {
            let mut out = Kdop::EMPTY;
            simd::merge(&mut out, self, other);
            return out;
        }
        let mut out = *self;
        out.merge_in(other);
        out
    }

    /// Grows `self` to contain `other`. Plain comparisons rather than
    /// `f64::min`/`max` (whose NaN rules cost several instructions per
    /// lane): bounds are never NaN, and on them the two agree (up to the
    /// sign of a zero).
    #[inline(always)]
    pub fn merge_in(&mut self, other: &Kdop<N>) {
        #[cfg(target_arch = "x86_64")]
        if N >= 2 {
            simd::merge_in(&mut self.lo, &mut self.hi, &other.lo, &other.hi);
            return;
        }
        for i in 0..N {
            let (a, b) = (self.lo[i], other.lo[i]);
            self.lo[i] = if b < a { b } else { a };
            let (a, b) = (self.hi[i], other.hi[i]);
            self.hi[i] = if b > a { b } else { a };
        }
    }

    /// Grows `self` by `r ≥ 0` in every direction: afterwards it contains
    /// every point within Euclidean distance `r` of what it contained
    /// ([`Inflation`] says by how much each slab moves). Two k-DOPs grown by
    /// `r` each overlap whenever they held points within `2r` of each other.
    /// The empty k-DOP stays empty; `r = 0` changes nothing.
    ///
    /// # Panics
    /// When `r` is negative or NaN.
    pub fn inflate_in(&mut self, r: f64) {
        if let Some(by) = Inflation::new(r) {
            self.inflate_by(&by);
        }
    }

    /// [`Kdop::inflate_in`] with the slabs' moves computed once
    /// ([`Inflation::new`]), for the many k-DOPs of a step: every bound
    /// moves out by its slab's margin and is rounded outward (one
    /// neighbour past the rounded sum, as in the module doc).
    #[inline]
    pub fn inflate_by(&mut self, by: &Inflation<N>) {
        if self.is_empty() {
            return;
        }
        for i in 0..N {
            self.lo[i] = (self.lo[i] - by.margin[i]).next_down();
            self.hi[i] = (self.hi[i] + by.margin[i]).next_up();
        }
    }

    /// Whether the two closed k-DOPs share a point in every slab (touching
    /// counts). Symmetric. Branch-free over the slabs, accumulating lane
    /// masks, so that it vectorises. (Bounds are never NaN; a NaN bound
    /// would count as overlapping, the safe side.)
    #[inline(always)]
    pub fn overlaps(&self, other: &Kdop<N>) -> bool {
        #[cfg(target_arch = "x86_64")]
        if N >= 2 {
            return simd::overlaps(&self.lo, &self.hi, &other.lo, &other.hi);
        }
        let mut apart = false;
        for i in 0..N {
            apart |= (self.lo[i] > other.hi[i]) | (other.lo[i] > self.hi[i]);
        }
        !apart
    }

    /// Whether `self` overlaps the merge of `parts` (`self.overlaps(&m)`,
    /// `m` their merge), computed in registers: merging into memory and
    /// testing the result stalls on store-to-load forwarding (the odd
    /// slab's overlapping store).
    #[inline(always)]
    pub fn overlaps_merge<const M: usize>(&self, parts: [&Kdop<N>; M]) -> bool {
        #[cfg(target_arch = "x86_64")]
        if N >= 2 && M > 0 {
            return simd::overlaps_merge(self, parts);
        }
        let mut m = Kdop::<N>::EMPTY;
        for p in parts {
            m.merge_in(p);
        }
        self.overlaps(&m)
    }

    /// Whether `other` lies inside `self` (every slab of `other` within the
    /// slab of `self`). The empty k-DOP is inside everything.
    pub fn contains(&self, other: &Kdop<N>) -> bool {
        other.is_empty() || (0..N).all(|i| self.lo[i] <= other.lo[i] && other.hi[i] <= self.hi[i])
    }

    /// Whether some slab is empty (`lo > hi`, or a NaN bound), i.e. the k-DOP
    /// contains no point.
    pub fn is_empty(&self) -> bool {
        (0..N).any(|i| {
            self.lo[i]
                .partial_cmp(&self.hi[i])
                .is_none_or(|o| o.is_gt())
        })
    }

    /// Sum of the slab widths: a size measure for build heuristics and
    /// traversal order (not a volume).
    #[inline]
    pub fn extent_sum(&self) -> f64 {
        (0..N).map(|i| self.hi[i] - self.lo[i]).sum()
    }
}

/// The overlap test and the merge on SSE2 (part of every x86-64), two slabs
/// per instruction. An odd slab count handles its last slab with a second,
/// overlapping load of the last two: comparisons and min/max are idempotent,
/// so doing slab `N − 2` twice changes nothing. Same results as the scalar
/// loops (`_mm_min_pd(a, b)` is `a < b ? a : b`).
#[cfg(target_arch = "x86_64")]
mod simd {
    use super::Kdop;
    use crate::math::Vec3;
    use std::arch::x86_64::*;

    /// [`f64::next_up`] of both lanes, on their bits: `+1` for a positive
    /// value, `−1` for a negative one (toward zero, so `−MIN_SUBNORMAL`
    /// goes to `−0`, `−∞` to `−MAX`, and `MAX` to `+∞` by the carry into
    /// the exponent), the bits of `MIN_SUBNORMAL` for either zero, and
    /// `+∞` and NaN unchanged: exactly `f64::next_up` (tested on random
    /// bit patterns).
    #[inline(always)]
    pub(super) fn next_up(x: __m128d) -> __m128d {
        // SAFETY: register operations only; SSE2 is part of x86-64.
        unsafe {
            let zero = _mm_setzero_pd();
            let neg = _mm_castpd_si128(_mm_cmplt_pd(x, zero));
            let keep = _mm_castpd_si128(_mm_or_pd(
                _mm_cmpeq_pd(x, _mm_set1_pd(f64::INFINITY)),
                _mm_cmpunord_pd(x, x),
            ));
            // +1, or −1 where `x < 0` (`neg` is −1 there), or 0 to keep.
            let delta = _mm_andnot_si128(
                keep,
                _mm_add_epi64(_mm_add_epi64(neg, neg), _mm_set1_epi64x(1)),
            );
            let bits =
                _mm_andnot_si128(_mm_castpd_si128(_mm_cmpeq_pd(x, zero)), _mm_castpd_si128(x));
            _mm_castsi128_pd(_mm_add_epi64(bits, delta))
        }
    }

    /// [`f64::next_down`] of both lanes: `−next_up(−x)`.
    #[inline(always)]
    pub(super) fn next_down(x: __m128d) -> __m128d {
        // SAFETY: register operations only; SSE2 is part of x86-64.
        unsafe {
            let sign = _mm_set1_pd(-0.0);
            _mm_xor_pd(next_up(_mm_xor_pd(x, sign)), sign)
        }
    }

    /// The 13 projections of the swept point (`super::project13` of both
    /// points, merged): lane 0 computes `p_t0`'s, lane 1 `p_t1`'s, in the
    /// same operations; the merge takes `min(p_t1, p_t0)` and
    /// `max(p_t1, p_t0)` as `Kdop::merge` does.
    #[inline(always)]
    pub(super) fn swept_project13(p_t0: &Vec3, p_t1: &Vec3) -> ([f64; 13], [f64; 13]) {
        let (lo, hi) = project13_lanes(p_t0, p_t1);
        // SAFETY: register operations, and stores of lanes `k, k + 1 ≤ 12`
        // (or lane 12 alone) of a `[f64; 13]`; SSE2 is part of x86-64.
        unsafe {
            let (mut lo13, mut hi13) = ([0.0; 13], [0.0; 13]);
            for k in (0..12).step_by(2) {
                // Slabs `k, k + 1`: `p_t0`'s in the low lanes, `p_t1`'s in
                // the high ones.
                let (l0, l1) = (
                    _mm_unpacklo_pd(lo[k], lo[k + 1]),
                    _mm_unpackhi_pd(lo[k], lo[k + 1]),
                );
                let (h0, h1) = (
                    _mm_unpacklo_pd(hi[k], hi[k + 1]),
                    _mm_unpackhi_pd(hi[k], hi[k + 1]),
                );
                _mm_storeu_pd(lo13.as_mut_ptr().add(k), _mm_min_pd(l1, l0));
                _mm_storeu_pd(hi13.as_mut_ptr().add(k), _mm_max_pd(h1, h0));
            }
            let (l, h) = (lo[12], hi[12]);
            _mm_store_sd(&mut lo13[12], _mm_min_sd(_mm_unpackhi_pd(l, l), l));
            _mm_store_sd(&mut hi13[12], _mm_max_sd(_mm_unpackhi_pd(h, h), h));
            (lo13, hi13)
        }
    }

    /// `super::project13` of each point, apart: `[(lo, hi) of p_t0, (lo, hi)
    /// of p_t1]`, from the same lanes as [`swept_project13`] (so the same
    /// bits as `project13` of each).
    #[inline(always)]
    pub(super) fn project13_each(p_t0: &Vec3, p_t1: &Vec3) -> [([f64; 13], [f64; 13]); 2] {
        let (lo, hi) = project13_lanes(p_t0, p_t1);
        let mut out = [([0.0; 13], [0.0; 13]); 2];
        // SAFETY: stores of one lane into an `f64`; SSE2 is part of x86-64.
        unsafe {
            for k in 0..13 {
                _mm_store_sd(&mut out[0].0[k], lo[k]);
                _mm_storeh_pd(&mut out[1].0[k], lo[k]);
                _mm_store_sd(&mut out[0].1[k], hi[k]);
                _mm_storeh_pd(&mut out[1].1[k], hi[k]);
            }
        }
        out
    }

    /// The 13 lower and upper projections of `p_t0` (low lanes) and `p_t1`
    /// (high lanes), rounded outward as `super::project13` does.
    #[inline(always)]
    fn project13_lanes(p_t0: &Vec3, p_t1: &Vec3) -> ([__m128d; 13], [__m128d; 13]) {
        // SAFETY: register operations; SSE2 is part of x86-64.
        unsafe {
            let x = _mm_set_pd(p_t1.x, p_t0.x);
            let y = _mm_set_pd(p_t1.y, p_t0.y);
            let z = _mm_set_pd(p_t1.z, p_t0.z);
            let e = [
                _mm_add_pd(x, y),
                _mm_sub_pd(x, y),
                _mm_add_pd(x, z),
                _mm_sub_pd(x, z),
                _mm_add_pd(y, z),
                _mm_sub_pd(y, z),
            ];
            let e_lo = e.map(next_down);
            let e_hi = e.map(next_up);
            let c_lo = [
                next_down(_mm_add_pd(e_lo[0], z)),
                next_down(_mm_sub_pd(e_lo[0], z)),
                next_down(_mm_add_pd(e_lo[1], z)),
                next_down(_mm_sub_pd(e_lo[1], z)),
            ];
            let c_hi = [
                next_up(_mm_add_pd(e_hi[0], z)),
                next_up(_mm_sub_pd(e_hi[0], z)),
                next_up(_mm_add_pd(e_hi[1], z)),
                next_up(_mm_sub_pd(e_hi[1], z)),
            ];
            let lo = [
                x, y, z, c_lo[0], c_lo[1], c_lo[2], c_lo[3], e_lo[0], e_lo[1], e_lo[2], e_lo[3],
                e_lo[4], e_lo[5],
            ];
            let hi = [
                x, y, z, c_hi[0], c_hi[1], c_hi[2], c_hi[3], e_hi[0], e_hi[1], e_hi[2], e_hi[3],
                e_hi[4], e_hi[5],
            ];
            (lo, hi)
        }
    }

    /// Lane offset `k` of the pairs covering `0..N` (`N ≥ 2`): `2k`, and
    /// `N − 2` for the last one when `N` is odd.
    #[inline(always)]
    const fn pair<const N: usize>(k: usize) -> usize {
        if 2 * k + 2 <= N { 2 * k } else { N - 2 }
    }

    #[inline(always)]
    pub(super) fn overlaps<const N: usize>(
        a_lo: &[f64; N],
        a_hi: &[f64; N],
        b_lo: &[f64; N],
        b_hi: &[f64; N],
    ) -> bool {
        // SAFETY: every load reads lanes `i, i + 1 < N` of an `[f64; N]`
        // (`pair` yields `i ≤ N − 2`); SSE2 is part of x86-64.
        unsafe {
            let mut apart = _mm_setzero_pd();
            for k in 0..N.div_ceil(2) {
                let i = pair::<N>(k);
                let al = _mm_loadu_pd(a_lo.as_ptr().add(i));
                let ah = _mm_loadu_pd(a_hi.as_ptr().add(i));
                let bl = _mm_loadu_pd(b_lo.as_ptr().add(i));
                let bh = _mm_loadu_pd(b_hi.as_ptr().add(i));
                apart = _mm_or_pd(apart, _mm_or_pd(_mm_cmpgt_pd(al, bh), _mm_cmpgt_pd(bl, ah)));
            }
            _mm_movemask_pd(apart) == 0
        }
    }

    #[inline(always)]
    pub(super) fn overlaps_merge<const N: usize, const M: usize>(
        a: &Kdop<N>,
        parts: [&Kdop<N>; M],
    ) -> bool {
        debug_assert!(N >= 2 && M > 0);
        // SAFETY: as in `overlaps`.
        unsafe {
            let mut apart = _mm_setzero_pd();
            for k in 0..N.div_ceil(2) {
                let i = pair::<N>(k);
                let mut bl = _mm_loadu_pd(parts[0].lo.as_ptr().add(i));
                let mut bh = _mm_loadu_pd(parts[0].hi.as_ptr().add(i));
                for p in &parts[1..] {
                    bl = _mm_min_pd(_mm_loadu_pd(p.lo.as_ptr().add(i)), bl);
                    bh = _mm_max_pd(_mm_loadu_pd(p.hi.as_ptr().add(i)), bh);
                }
                let al = _mm_loadu_pd(a.lo.as_ptr().add(i));
                let ah = _mm_loadu_pd(a.hi.as_ptr().add(i));
                apart = _mm_or_pd(apart, _mm_or_pd(_mm_cmpgt_pd(al, bh), _mm_cmpgt_pd(bl, ah)));
            }
            _mm_movemask_pd(apart) == 0
        }
    }

    /// `out = a ∪ b`.
    #[inline(always)]
    pub(super) fn merge<const N: usize>(out: &mut Kdop<N>, a: &Kdop<N>, b: &Kdop<N>) {
        // SAFETY: as in `overlaps`; stores write lanes `i, i + 1 < N`.
        unsafe {
            for k in 0..N.div_ceil(2) {
                let i = pair::<N>(k);
                let l = _mm_min_pd(
                    _mm_loadu_pd(b.lo.as_ptr().add(i)),
                    _mm_loadu_pd(a.lo.as_ptr().add(i)),
                );
                let h = _mm_max_pd(
                    _mm_loadu_pd(b.hi.as_ptr().add(i)),
                    _mm_loadu_pd(a.hi.as_ptr().add(i)),
                );
                _mm_storeu_pd(out.lo.as_mut_ptr().add(i), l);
                _mm_storeu_pd(out.hi.as_mut_ptr().add(i), h);
            }
        }
    }

    #[inline(always)]
    pub(super) fn merge_in<const N: usize>(
        lo: &mut [f64; N],
        hi: &mut [f64; N],
        o_lo: &[f64; N],
        o_hi: &[f64; N],
    ) {
        // SAFETY: as in `overlaps`; stores write lanes `i, i + 1 < N`.
        unsafe {
            for k in 0..N.div_ceil(2) {
                let i = pair::<N>(k);
                let l = _mm_min_pd(
                    _mm_loadu_pd(o_lo.as_ptr().add(i)),
                    _mm_loadu_pd(lo.as_ptr().add(i)),
                );
                let h = _mm_max_pd(
                    _mm_loadu_pd(o_hi.as_ptr().add(i)),
                    _mm_loadu_pd(hi.as_ptr().add(i)),
                );
                _mm_storeu_pd(lo.as_mut_ptr().add(i), l);
                _mm_storeu_pd(hi.as_mut_ptr().add(i), h);
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::bounding_volume::DIRECTIONS;
    use num_bigint::BigInt;
    use proptest::prelude::*;

    /// `x · 2^1074` as an exact integer (every finite double is an integer
    /// multiple of `2^-1074`).
    pub(crate) fn scaled(x: f64) -> BigInt {
        assert!(x.is_finite());
        let bits = x.to_bits();
        let sign = if bits >> 63 == 1 { -1 } else { 1 };
        let exp = ((bits >> 52) & 0x7ff) as i64;
        let frac = bits & ((1 << 52) - 1);
        let (mant, shift) = if exp == 0 {
            (frac, 0)
        } else {
            (frac | (1 << 52), exp - 1)
        };
        BigInt::from(sign) * (BigInt::from(mant) << shift as usize)
    }

    /// The exact `2^1074 · (w0·d·p0 + w1·d·p1)` for integer weights `w`.
    pub(crate) fn exact_projection(d: [i8; 3], points: &[(i64, Vec3)]) -> BigInt {
        let mut s = BigInt::from(0);
        for (w, p) in points {
            for k in 0..3 {
                s += BigInt::from(i64::from(d[k]) * w) * scaled(p[k]);
            }
        }
        s
    }

    /// Whether `b` contains `(w0·p0 + w1·p1) / (w0 + w1)` exactly, checked in
    /// integers.
    pub(crate) fn contains_exactly<const N: usize>(b: &Kdop<N>, points: &[(i64, Vec3)]) -> bool {
        let wsum: i64 = points.iter().map(|(w, _)| w).sum();
        (0..N).all(|i| {
            let d = DIRECTIONS[Kdop::<N>::SLABS[i]];
            let proj = exact_projection(d, points);
            let wsum = BigInt::from(wsum);
            b.lo[i].is_finite()
                && b.hi[i].is_finite()
                && scaled(b.lo[i]) * &wsum <= proj
                && proj <= scaled(b.hi[i]) * &wsum
        })
    }

    fn coord() -> impl Strategy<Value = f64> {
        prop_oneof![
            -10.0..10.0f64,
            (-1e6..1e6f64),
            (-1e-300..1e-300f64),
            Just(0.0),
            Just(-0.0),
            Just(1.0),
            Just(0.1),
            Just(1e16),
            Just(-1e16),
            Just(f64::MIN_POSITIVE / 3.0),
        ]
    }

    fn point() -> impl Strategy<Value = Vec3> {
        (coord(), coord(), coord()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
    }

    fn check_swept<const N: usize>(p0: &Vec3, p1: &Vec3) {
        let b = Kdop::<N>::from_swept_point(p0, p1);
        // Both ends, and points of the segment at t = j/8 (exact rationals).
        for j in 0..=8i64 {
            assert!(
                contains_exactly(&b, &[(8 - j, *p0), (j, *p1)]),
                "N = {N}: t = {j}/8 of {p0:?} → {p1:?} escapes {b:?}"
            );
        }
    }

    /// The scalar definitions (the fallback off x86-64) that the SSE2 paths
    /// must reproduce exactly.
    fn scalar_overlaps<const N: usize>(a: &Kdop<N>, b: &Kdop<N>) -> bool {
        (0..N).all(|i| !(a.lo[i] > b.hi[i] || b.lo[i] > a.hi[i]))
    }

    fn scalar_merge<const N: usize>(a: &Kdop<N>, b: &Kdop<N>) -> Kdop<N> {
        let mut out = *a;
        for i in 0..N {
            out.lo[i] = if b.lo[i] < out.lo[i] {
                b.lo[i]
            } else {
                out.lo[i]
            };
            out.hi[i] = if b.hi[i] > out.hi[i] {
                b.hi[i]
            } else {
                out.hi[i]
            };
        }
        out
    }

    fn check_against_scalar<const N: usize>(a: &[Vec3], b: &[Vec3]) {
        let (ka, kb) = (Kdop::<N>::from_points(a), Kdop::<N>::from_points(b));
        for (x, y) in [
            (&ka, &kb),
            (&kb, &ka),
            (&ka, &Kdop::EMPTY),
            (&Kdop::EMPTY, &kb),
        ] {
            assert_eq!(
                x.overlaps(y),
                scalar_overlaps(x, y),
                "N = {N}: {x:?} vs {y:?}"
            );
            let (m, want) = (x.merge(y), scalar_merge(x, y));
            assert_eq!(m, want, "N = {N}");
            let mut m_in = *x;
            m_in.merge_in(y);
            assert_eq!(m_in, want, "N = {N}");
        }
        // The test against a merge done in registers, for one to three
        // parts, against the scalar loops on the merged k-DOP.
        let kc = scalar_merge(&ka, &Kdop::<N>::from_point(&b[0]));
        for q in [&ka, &kb, &kc, &Kdop::EMPTY] {
            let m2 = scalar_merge(&kb, &kc);
            assert_eq!(q.overlaps_merge([&kb]), scalar_overlaps(q, &kb), "N = {N}");
            assert_eq!(
                q.overlaps_merge([&kb, &kc]),
                scalar_overlaps(q, &m2),
                "N = {N}"
            );
            let m3 = scalar_merge(&m2, &ka);
            let got = q.overlaps_merge([&kb, &kc, &ka]);
            assert_eq!(got, scalar_overlaps(q, &m3), "N = {N}");
        }
    }

    /// Any double, the extreme ones often (±MAX, whose sums overflow,
    /// subnormals, zeros, ±∞, NaN).
    fn wide() -> impl Strategy<Value = f64> {
        prop_oneof![
            3 => coord(),
            1 => any::<u64>().prop_map(f64::from_bits),
            1 => Just(f64::MAX),
            1 => Just(-f64::MAX),
            1 => Just(f64::INFINITY),
            1 => Just(f64::NEG_INFINITY),
            1 => Just(f64::NAN),
            1 => Just(f64::from_bits(1)),
            1 => Just(-f64::from_bits(1)),
        ]
    }

    /// The bits of a k-DOP's bounds (`==` on `f64` calls `−0 = +0`), every
    /// NaN as one: Rust leaves the sign and payload of a NaN that
    /// arithmetic makes unspecified, and LLVM uses that (it may rewrite
    /// `(−a) + b` as `b − a`, which flips a NaN's sign).
    fn bits<const N: usize>(b: &Kdop<N>) -> Vec<u64> {
        b.lo.iter()
            .chain(&b.hi)
            .map(|x| if x.is_nan() { f64::NAN } else { *x }.to_bits())
            .collect()
    }

    fn check_swept_against_points<const N: usize>(p0: &Vec3, p1: &Vec3) {
        let want = Kdop::<N>::from_point(p0).merge(&Kdop::from_point(p1));
        let mut got = Kdop::<N>::EMPTY;
        got.set_swept_point(p0, p1);
        assert_eq!(bits(&got), bits(&want), "N = {N}: {p0:?} → {p1:?}");
        assert_eq!(bits(&Kdop::<N>::from_swept_point(p0, p1)), bits(&want));
        let mut each = [Kdop::<N>::EMPTY; 2];
        Kdop::set_points(&mut each, p0, p1);
        assert_eq!(
            bits(&each[0]),
            bits(&Kdop::<N>::from_point(p0)),
            "N = {N}: {p0:?}"
        );
        assert_eq!(
            bits(&each[1]),
            bits(&Kdop::<N>::from_point(p1)),
            "N = {N}: {p1:?}"
        );
    }

    proptest! {
        /// The vector roundings are `f64::next_up`/`next_down` bit for
        /// bit, on any bits.
        #[cfg(target_arch = "x86_64")]
        #[test]
        fn vector_next_up_and_down_are_the_std_ones(a in wide(), b in wide()) {
            use std::arch::x86_64::*;
            let lanes = |v: __m128d| {
                let mut out = [0.0; 2];
                // SAFETY: stores the two lanes into a `[f64; 2]`.
                unsafe { _mm_storeu_pd(out.as_mut_ptr(), v) };
                out.map(f64::to_bits)
            };
            // SAFETY: a register operation; SSE2 is part of x86-64.
            let v = unsafe { _mm_set_pd(b, a) };
            prop_assert_eq!(lanes(simd::next_up(v)), [a.next_up(), b.next_up()].map(f64::to_bits));
            prop_assert_eq!(
                lanes(simd::next_down(v)),
                [a.next_down(), b.next_down()].map(f64::to_bits)
            );
        }

        /// The swept point's k-DOP (both points at once on SSE2) is the
        /// merge of the two points' k-DOPs, and `set_points` gives the two
        /// points' k-DOPs, bit for bit, on any coordinates.
        #[test]
        fn swept_point_is_the_merge_of_its_ends(
            p0 in (wide(), wide(), wide()),
            p1 in (wide(), wide(), wide()),
        ) {
            let (p0, p1) = (Vec3::new(p0.0, p0.1, p0.2), Vec3::new(p1.0, p1.1, p1.2));
            check_swept_against_points::<3>(&p0, &p1);
            check_swept_against_points::<4>(&p0, &p1);
            check_swept_against_points::<7>(&p0, &p1);
            check_swept_against_points::<9>(&p0, &p1);
            check_swept_against_points::<13>(&p0, &p1);
        }

        #[test]
        fn simd_overlap_and_merge_equal_the_scalar_loops(
            a in proptest::collection::vec(point(), 1..4),
            b in proptest::collection::vec(point(), 1..4),
        ) {
            // Even and odd slab counts (the odd ones reload the last pair).
            check_against_scalar::<3>(&a, &b);
            check_against_scalar::<4>(&a, &b);
            check_against_scalar::<7>(&a, &b);
            check_against_scalar::<9>(&a, &b);
            check_against_scalar::<13>(&a, &b);
            // Touching: b's first point moved onto a's.
            let mut touching = b.clone();
            touching[0] = a[0];
            check_against_scalar::<13>(&a, &touching);
        }

        #[test]
        fn swept_kdop_contains_the_segment_exactly(p0 in point(), p1 in point()) {
            check_swept::<3>(&p0, &p1);
            check_swept::<4>(&p0, &p1);
            check_swept::<7>(&p0, &p1);
            check_swept::<9>(&p0, &p1);
            check_swept::<13>(&p0, &p1);
        }

        #[test]
        fn merge_contains_both_and_overlap_is_symmetric(
            a in proptest::collection::vec(point(), 1..4),
            b in proptest::collection::vec(point(), 1..4),
        ) {
            let ka = Kdop26::from_points(&a);
            let kb = Kdop26::from_points(&b);
            let m = ka.merge(&kb);
            prop_assert!(m.contains(&ka) && m.contains(&kb));
            prop_assert!(m.overlaps(&ka) && m.overlaps(&kb));
            prop_assert_eq!(ka.overlaps(&kb), kb.overlaps(&ka));
            prop_assert!(ka.overlaps(&ka));
            // A shared point makes them overlap.
            let kc = Kdop26::from_points(a.iter().chain(&b[..1]));
            prop_assert!(kc.overlaps(&kb));
        }
    }

    #[test]
    fn cancellation_in_a_corner_diagonal_is_bounded() {
        // fl(fl(1e16 + 1) - 1e16) = 0, but the exact x + y − z is 1.
        let p = Vec3::new(1e16, 1.0, 1e16);
        let b = Kdop8::from_point(&p);
        let i = 1; // (1, 1, -1)
        assert_eq!(DIRECTIONS[Kdop8::SLABS[i]], [1, 1, -1]);
        assert!(b.lo[i] <= 1.0 && 1.0 <= b.hi[i], "{:?}", (b.lo[i], b.hi[i]));
        assert!(contains_exactly(&b, &[(1, p)]));
    }

    #[test]
    fn aabb_slabs_are_exact_and_touching_counts() {
        let a = Kdop6::from_swept_point(&Vec3::new(0.0, 0.0, 0.0), &Vec3::new(1.0, 1.0, 1.0));
        assert_eq!(a.lo, [0.0; 3]);
        assert_eq!(a.hi, [1.0; 3]);
        let b = Kdop6::from_point(&Vec3::new(1.0, 0.5, 0.5));
        assert!(a.overlaps(&b));
        let c = Kdop6::from_point(&Vec3::new(1.0f64.next_up(), 0.5, 0.5));
        assert!(!a.overlaps(&c) && !c.overlaps(&a));
    }

    #[test]
    fn empty_is_the_merge_identity_and_overlaps_nothing() {
        let p = Kdop26::from_point(&Vec3::new(1.0, 2.0, 3.0));
        assert_eq!(Kdop::EMPTY.merge(&p), p);
        assert!(!Kdop26::EMPTY.overlaps(&p));
        assert!(Kdop26::EMPTY.is_empty() && !p.is_empty());
        assert!(p.contains(&Kdop::EMPTY));
        assert_eq!(Kdop26::from_points(&[]), Kdop::EMPTY);
    }

    #[test]
    fn diagonal_slabs_separate_what_an_aabb_cannot() {
        // A segment on the line x + y = 1 and a point with x + y = 1.8 inside
        // the segment's bounding box.
        let seg = [Vec3::new(0.0, 1.0, 0.0), Vec3::new(1.0, 0.0, 0.0)];
        let p = [Vec3::new(0.9, 0.9, 0.0)];
        assert!(Kdop6::from_points(&seg).overlaps(&Kdop6::from_points(&p)));
        for_each_n_without_aabb(&seg, &p);
    }

    fn for_each_n_without_aabb(a: &[Vec3], b: &[Vec3]) {
        fn sep<const N: usize>(a: &[Vec3], b: &[Vec3]) -> bool {
            !Kdop::<N>::from_points(a).overlaps(&Kdop::<N>::from_points(b))
        }
        assert!(sep::<4>(a, b) && sep::<7>(a, b) && sep::<9>(a, b) && sep::<13>(a, b));
    }
}
