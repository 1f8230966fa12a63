//! The coplanar-window filter: SLPF restricted to the times at which the pair
//! can be coplanar, with directions chosen per pair. Not one of the core
//! paper's filters; it combines the two it uses — the Bernstein bound of DNF
//! (Tang, Manocha & Tong, I3D 2010, §4; docs/design.md §2.2) and the projection test of
//! SLPF (Wan, Fu & Yao 2022, §2, Eqs. (1)–(2)) — and runs after them, on the
//! pairs they pass, before the exact solver.
//!
//! **Why it is sound.** A vertex–face or edge–edge contact at time `t` needs
//! (i) the four points coplanar at `t`: `f(t) = 0` for the coplanarity cubic
//! `f` ([`crate::pair_kernel::coplanarity_scaled`]), and (ii) the vertex in the
//! triangle (the segments crossing) at `t`, so that along *every* direction
//! `s` the projections of the two primitives overlap at `t`. Let `[l, r]` be a
//! sub-interval of `[0, 1]`.
//!
//! - If the Bernstein coefficients of `f` on `[l, r]` (de Casteljau, with
//!   certified rounding bounds, [`Bounded`]) all have one strict sign, `f`
//!   has no root in `[l, r]` (convex hull property): no contact there.
//! - For a constant direction `s`, each difference `g(t) = (P(t) − Q(t))·s` of
//!   a vertex of one primitive and a vertex of the other is linear in `t`
//!   (SLPF's observation), so it keeps the strict sign of `g(l)` on `[l, r]`
//!   when `g(l)` and `g(r)` have the same strict sign. If all of the 6 (VF:
//!   `P − A, P − B, P − C`) or 8 (EE: `A − C, A − D, B − C, B − D`) differences
//!   have one strict sign at both `l` and `r`, the projections are disjoint on
//!   the whole window: no contact there.
//!
//! The filter first halves the cubic's windows (up to [`WINDOW_DEPTH`]
//! times; a cubic with one certified sign change is bisected towards its
//! single root instead) and merges the windows its test cannot free into
//! at most `MAX_RUNS` runs of adjacent windows (more, and the pair
//! passes); then each run needs one direction along which the projections
//! are apart over the whole run, and the pair is culled when every run has
//! one. `s` need not be exact or unit: any constant vector works, so the
//! directions are computed in plain floating point at the run's mid-time:
//! for VF the in-plane normals `e × n` of the triangle's edges whose line
//! has the vertex outside (the separating axes of a point and a triangle in
//! their common plane), for EE `e_a × m` and `e_b × m` (`m = e_a × e_b`) of
//! an edge whose line has both ends of the other edge on one side. The
//! normals `n` and `m` themselves are not tried.
//!
//! **Rounding.** The cubic's coefficients come with one static bound
//! ([`super::cubic`]); its subdivisions run in plain floating point, each
//! coefficient at depth `d` a convex combination of the coefficients (weights
//! products of ½) computed through at most `3d` additions, so one bound
//! covers them all (see `coplanar_runs`). The projections use one bound per
//! pair and direction. With `d̃ = fl(P − Q)` (exact difference `δ`,
//! `|d̃ᵢ| ≤ (1 + u)|δᵢ|`), `g̃₀ = fl(d̃·s)` satisfies
//! `|g̃₀ − δ·s| ≤ γ₃Σ|d̃ᵢ||sᵢ| + uΣ|δᵢ||sᵢ| ≤ γ₄·Δ·‖s‖₁` (Higham 2002, §3.1,
//! dot product of length 3), `Δ` the largest `|δᵢ|` over all the pair's
//! differences at both times. The window ends `l, r` are dyadics with at most
//! `WITHIN_WINDOW_DEPTH + 1` bits (the larger depth), so `1 − l` and `l` are
//! exact, and
//! `g̃(l) = fl(fl((1 − l)g̃₀) + fl(l·g̃₁))` has error at most
//! `γ₄Δ‖s‖₁ + γ₂(1 + γ₄)Δ‖s‖₁ ≤ γ₇Δ‖s‖₁`. With `Δ ≤ (1 + u)Δ̃` for the
//! computed `Δ̃` (a rounded difference is the exact one divided by some
//! `1 + δ`, `|δ| ≤ u`: Higham 2002, (2.5); one in the subnormal range is
//! exact), and the threshold itself computed in three roundings,
//! `E = fl(fl(γ₁₂·Δ̃)·‖s‖₁)` exceeds `γ₇Δ‖s‖₁`; a value counts as positive
//! only above `E + 2⁻¹⁰²²` and negative only below its negation (the `2⁻¹⁰²²`
//! covers the absolute error of any product that underflows, at most
//! `2⁻¹⁰⁷⁵` each). A pair whose differences exceed `2²⁰⁰` passes (no
//! projection can then overflow).
//!
//! **Within `d`** ([`dnf_window_within`], minimum separation `d > 0`,
//! docs/design.md §5). The features stay more than `d` apart on a window
//! when (i) `|f(t)| > d·|n(t)|` there, `n` the normal `f` is the triple
//! product with (`|f|/|n|` is the vertex's distance to the triangle's plane,
//! or the distance between the edges' lines, at most the features'
//! distance): it holds where every subdivided Bernstein coefficient exceeds
//! the margin `D ≥ d·max|n|` of [`mod@super::dnf_within`] (or all are below
//! `−D`), with the rounding bound of `near_plane_runs`; or (ii) along a
//! constant direction `s` all the differences above exceed `d·|s|` at `l`
//! and at `r` (or are all below its negation): every point of one feature
//! minus every point of the other is a convex combination of those
//! differences (barycentric weights for a vertex and a face, products of
//! the edge parameters for two edges), so its projection on `s` exceeds
//! `d·|s|` on the whole window (linearity), and so does its length times
//! `|s|`. The runs are those where (i) fails, found by subdivision alone
//! down to [`WITHIN_WINDOW_DEPTH`] (the single-root bisection tracks a root,
//! not the band `|f| ≤ D` around it), and each is tested with the directions
//! above (variants: docs/notes/min-distance.md). Rounding of (ii): `d` is
//! raised to at least `2⁻⁴⁰⁰` (a larger `d` culls less) and directions with
//! `‖s‖₁ < 2⁻³⁰⁰` are not used, so the largest `|sᵢ|` is at least `2⁻³⁰²`,
//! its square is normal and the squares that underflow change the sum `S`
//! by far less than its rounding; `|s| ≤ fl(√S)·(1 + 2.6u)`, so
//! `N = fl(fl(√S)·(1 + 4u)) ≥ |s|`, `d·N` is normal, and the threshold
//! `fl(fl(E + fl(d·N))·(1 + 4u)) ≥ (E + d·|s|)(1 − u)³(1 + 4u)` exceeds
//! `E + d·|s|`, `E` the contact threshold above.
//!
//! **Cost.** The filter runs on the pairs DNF passes, culls most of them,
//! and costs less than the exact tests it saves. The usual case, a cubic
//! whose Bernstein coefficients change sign once with certainty, has
//! exactly one root, which [`bisect_single_root`] tracks down to its window
//! by the sign of the middle value alone, picking halves with masks instead
//! of branches. Other variants: docs/notes/window-filter.md.
//!
//! **Guarantee:** [`Verdict::Culled`] ⇒ no contact in `[0, 1]`; within `d`,
//! the features stay more than `d` apart on `[0, 1]`. Tested against the
//! exact oracle on random and near-degenerate pairs, and on the real steps
//! against the exact solver run on every candidate with no filter
//! (`tests/integration/pipeline.rs`).

use super::cubic::{Cubic, ee_cubic, vf_cubic};
use super::dnf_within::{D_MIN, NORM_MIN, dnf_beyond, normal_margin};
use super::points::{P3, Points, cross, dot, lerp, points, sub};
use super::{CulledBy, Verdict};
use crate::math::{Bounded, TINY, UNIT_ROUNDOFF, Vec3, gamma};
use crate::pair_kernel::{QueryKind, coplanarity_scaled};

/// How many times a window is halved at most at contact (windows are `2⁻ᵈ`
/// wide at depth `d`); the depth that cost the least in measurement
/// (docs/notes/window-filter.md).
pub const WINDOW_DEPTH: u32 = 4;

/// How many times a window is halved at most within `d > 0`
/// ([`dnf_window_within`]): deeper than at contact, because there the runs
/// come from subdivision alone (no single-root bisection), and a pair it
/// passes that stays apart costs the solver's advancement, several times a
/// contact solve (docs/notes/min-distance.md).
pub const WITHIN_WINDOW_DEPTH: u32 = 5;

/// Differences larger than this (`2²⁰⁰`) are left to the exact solver: the
/// directions (cubic in the differences) and projections then stay far from
/// overflow.
const MAX_DIFFERENCE: f64 = f64::from_bits((1023 + 200) << 52);

/// Most windows a pair is tested on; a cubic with more separate runs of
/// possibly coplanar windows passes.
const MAX_RUNS: usize = 4;

/// Runs `[l[i], r[i]]` of adjacent windows of the finest depth on which
/// the cubic may vanish, in increasing order. Written in place by
/// `coplanar_runs`, the ends in two arrays: returned by value as pairs, the
/// runs were copied out with wide loads of values just stored narrow (a
/// failed store-to-load forwarding).
struct Runs {
    l: [f64; MAX_RUNS],
    r: [f64; MAX_RUNS],
    n: usize,
}

impl Runs {
    /// Adds window `[l, r]` (windows come left to right); `false` when
    /// that would make more than [`MAX_RUNS`] runs.
    #[inline(always)]
    fn push(&mut self, l: f64, r: f64) -> bool {
        if self.n > 0 && self.r[self.n - 1] == l {
            self.r[self.n - 1] = r;
        } else if self.n == MAX_RUNS {
            return false;
        } else {
            self.l[self.n] = l;
            self.r[self.n] = r;
            self.n += 1;
        }
        true
    }
}

/// Whether all four values exceed `e`, or all are below `−e`.
#[inline(always)]
fn free(b: &[f64; 4], e: f64) -> bool {
    // Plain comparisons (one instruction each); a NaN makes both tests fail.
    let lo = min(min(b[0], b[1]), min(b[2], b[3]));
    let hi = max(max(b[0], b[1]), max(b[2], b[3]));
    (lo > e) | (hi < -e)
}

/// `a` if `a < b`, else `b` (propagates a NaN `b`).
#[inline(always)]
fn min(a: f64, b: f64) -> f64 {
    if a < b { a } else { b }
}

/// `a` if `a > b`, else `b` (propagates a NaN `b`).
#[inline(always)]
fn max(a: f64, b: f64) -> f64 {
    if a > b { a } else { b }
}

/// The Bernstein coefficients on the left and right halves of the window
/// with coefficients `b` (de Casteljau at the middle, whose value ends the
/// one and starts the other).
#[inline(always)]
fn split(b: &[f64; 4]) -> ([f64; 4], [f64; 4]) {
    let b01 = 0.5 * (b[0] + b[1]);
    let b12 = 0.5 * (b[1] + b[2]);
    let b23 = 0.5 * (b[2] + b[3]);
    let b012 = 0.5 * (b01 + b12);
    let b123 = 0.5 * (b12 + b23);
    let m = 0.5 * (b012 + b123);
    ([b[0], b01, b012, m], [m, b123, b23, b[3]])
}

/// Subdivides the Bernstein coefficients `b` of the cubic on `[0, 1]` down to
/// depth `D`, depth first, pushing the windows on which the
/// cubic may vanish, left to right: a window is free when its four
/// coefficients are all above `e` or all below `−e`, `e` a bound on the error
/// of every coefficient at every depth. `false` when there are too many runs.
#[inline]
fn subdivide<const D: usize>(b: [f64; 4], e: f64, runs: &mut Runs) -> bool {
    // Pending right halves: coefficients, left end and depth.
    let mut stack = [([0.0; 4], 0.0, 0usize); D];
    let mut top = 0;
    let (mut b, mut l, mut depth) = (b, 0.0, 0usize);
    if free(&b, e) {
        return true;
    }
    loop {
        if depth == D {
            let w = 1.0 / (1u32 << D) as f64;
            if !runs.push(l, l + w) {
                return false;
            }
            if top == 0 {
                return true;
            }
            top -= 1;
            (b, l, depth) = stack[top];
            continue;
        }
        let (left, right) = split(&b);
        depth += 1;
        let half = 1.0 / (1u32 << depth) as f64;
        match (free(&left, e), free(&right, e)) {
            (false, false) => {
                stack[top] = (right, l + half, depth);
                top += 1;
                b = left;
            }
            (false, true) => b = left,
            (true, false) => {
                b = right;
                l += half;
            }
            (true, true) => {
                if top == 0 {
                    return true;
                }
                top -= 1;
                (b, l, depth) = stack[top];
            }
        }
    }
}

/// Whether all four values are beyond `±e` (a NaN is not) and their signs
/// change exactly once along them.
#[inline(always)]
fn one_sign_change(b: &[f64; 4], e: f64) -> bool {
    let certain = (b[0].abs() > e) & (b[1].abs() > e) & (b[2].abs() > e) & (b[3].abs() > e);
    let p = b.map(|x| x > 0.0);
    let changes = u32::from(p[0] != p[1]) + u32::from(p[1] != p[2]) + u32::from(p[2] != p[3]);
    certain & (changes == 1)
}

/// Pushes onto `runs` (empty) the window of depth [`WINDOW_DEPTH`] that
/// holds the only root of a cubic whose Bernstein coefficients `b` on
/// `[0, 1]`, each within `e` of the exact one, pass [`one_sign_change`];
/// `false`, with `runs` left empty, where the value at a window's middle
/// has no certain sign (a root there or close to it: [`subdivide`] then
/// decides).
///
/// The exact coefficients have the signs of `b` (each is beyond its error),
/// so they change sign once, and by the variation-diminishing property of
/// the Bernstein basis (Descartes' rule of signs for `[0, 1]`) the cubic has
/// exactly one root in `(0, 1)`, a simple one; none at the ends. Halving a
/// window that contains it, the middle value `m` (de Casteljau, as in
/// [`subdivide`], within the same `e`) has a certain sign when `|m| > e`;
/// then the root lies in the half whose ends' values differ in sign (the
/// left end's sign is known: `b₀`'s, then that of each `m` moved past), and
/// the other half has none. The windows [`subdivide`] keeps always include
/// the one found here (a window with a root is never free), so this
/// decides the same pairs or more.
#[inline]
fn bisect_single_root(b: [f64; 4], e: f64, runs: &mut Runs) -> bool {
    // The window is `[k·w, (k + 1)·w]`. The cubic keeps the sign of `b₀`
    // at its left end: the right half is taken only when the middle value
    // `m` (`right[0]`) has that sign.
    let positive = b[0] > 0.0;
    let (mut b, mut k, mut w) = (b, 0u32, 1.0);
    for _ in 0..WINDOW_DEPTH {
        let (left, right) = split(&b);
        // Finite: averages of the finite `b` (`one_sign_change`).
        if right[0].abs() <= e {
            return false;
        }
        let took_right;
        (b, took_right) = halve(positive, left, right);
        k = 2 * k + u32::from(took_right);
        w *= 0.5;
    }
    let l = f64::from(k) * w;
    runs.push(l, l + w)
}

/// `right` when the middle value `right[0]` has the sign `positive`, else
/// `left`; and whether it is `right`. Without a branch: which half holds
/// the root is a coin toss for the predictor, and a select on a scalar
/// condition is compiled into one (a vector compare's mask is not).
#[inline(always)]
fn halve(positive: bool, left: [f64; 4], right: [f64; 4]) -> ([f64; 4], bool) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is part of x86_64.
        unsafe {
            let m = _mm_set1_pd(right[0]);
            let flip = _mm_castsi128_pd(_mm_set1_epi64x(if positive { 0 } else { -1 }));
            // All ones where `m > 0` equals `positive`.
            let mask = _mm_xor_pd(_mm_cmpgt_pd(m, _mm_setzero_pd()), flip);
            let pick =
                |l: __m128d, r: __m128d| _mm_or_pd(_mm_and_pd(mask, r), _mm_andnot_pd(mask, l));
            let lo = pick(_mm_set_pd(left[1], left[0]), _mm_set_pd(right[1], right[0]));
            let hi = pick(_mm_set_pd(left[3], left[2]), _mm_set_pd(right[3], right[2]));
            let mut b = [0.0; 4];
            _mm_storeu_pd(b.as_mut_ptr(), lo);
            _mm_storeu_pd(b.as_mut_ptr().add(2), hi);
            (b, _mm_movemask_pd(mask) & 1 != 0)
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let r = positive == (right[0] > 0.0);
        (if r { right } else { left }, r)
    }
}

/// Writes into `runs` (empty) the runs of windows on which the coplanarity
/// cubic may vanish; `false` when there are too many.
///
/// The Bernstein coefficients are `b = (c₀, c₁/3, c₂/3, c₃)` of the scaled
/// ones, each within `err + u·max|c̃|` of the exact value (the division by 3
/// is correctly rounded). The subdivision runs in plain floating point. Every
/// coefficient at depth `d` is a convex combination of `b`'s values (weights
/// are products of ½), computed through at most `3d` additions, each followed
/// by a halving (exact, or off by at most `2⁻¹⁰⁷⁵` when subnormal, far below
/// `err ≥ 2⁻⁹⁴⁴`); every intermediate is at most `(1 + γ)·max|b̃ᵢ|`. So its
/// error is at most the largest error of the `b̃ᵢ` plus
/// `γ_{3d}(1 + γ)·max|b̃ᵢ|`; `e` below adds a few more γ steps for its own
/// roundings.
#[inline]
fn coplanar_runs(cubic: &Cubic, runs: &mut Runs) -> bool {
    const D: usize = WINDOW_DEPTH as usize;
    let (v, e) = bernstein::<D>(cubic);
    (one_sign_change(&v, e) && bisect_single_root(v, e, runs)) || subdivide::<D>(v, e, runs)
}

/// The Bernstein coefficients of the cubic on `[0, 1]` and the bound `e` on
/// the error of every coefficient of their subdivisions down to depth `D`
/// (see [`coplanar_runs`]).
#[inline(always)]
fn bernstein<const D: usize>(cubic: &Cubic) -> ([f64; 4], f64) {
    let c = &cubic.c;
    let v = [c[0], c[1] / 3.0, c[2] / 3.0, c[3]];
    let big_c = c.iter().fold(0.0f64, |m, x| max(x.abs(), m));
    let big = v.iter().fold(0.0f64, |m, x| max(x.abs(), m));
    let err = cubic.err + gamma(1) * big_c;
    (v, err * (1.0 + gamma(2)) + gamma(3 * D as u32 + 3) * big)
}

/// Writes into `runs` (empty) the runs of windows on which the cubic may
/// come within `margin` of zero (`margin ≥ d·|n(t)|` on `[0, 1]`, from
/// [`mod@super::dnf_within`]); `false` when there are too many. Outside them
/// `|f| > d·|n|`: the features are more than `d` apart (module doc). A
/// window is free when its coefficients all exceed `e + margin` (or are all
/// below its negation), rounded up: `fl(fl(e + margin)·(1 + 2u))` is at
/// least `(e + margin)(1 − u)²(1 + 2u) ≥ e + margin`. The single-root
/// bisection does not apply: it tracks a root, not the band around it.
#[inline]
fn near_plane_runs(cubic: &Cubic, margin: f64, runs: &mut Runs) -> bool {
    const D: usize = WITHIN_WINDOW_DEPTH as usize;
    let (v, e) = bernstein::<D>(cubic);
    subdivide::<D>(v, (e + margin) * (1.0 + 2.0 * UNIT_ROUNDOFF), runs)
}

/// Covers `[0, 1]` by windows (module doc): `true` when `runs_of` finds
/// the runs of undecided windows and every one is `separated(l, r)`.
#[inline]
fn all_windows_decided(
    runs_of: impl FnOnce(&mut Runs) -> bool,
    mut separated: impl FnMut(f64, f64) -> bool,
) -> bool {
    let mut runs = Runs {
        l: [0.0; MAX_RUNS],
        r: [0.0; MAX_RUNS],
        n: 0,
    };
    runs_of(&mut runs) && (0..runs.n).all(|i| separated(runs.l[i], runs.r[i]))
}

/// The runs a window test looks at: those where the pair may be coplanar
/// (contact, `WITHIN` false) or within `margin` of it (`WITHIN`).
#[inline(always)]
fn runs_of<const WITHIN: bool>(cubic: &Cubic, margin: f64) -> impl FnOnce(&mut Runs) -> bool {
    move |runs| {
        if WITHIN {
            near_plane_runs(cubic, margin, runs)
        } else {
            coplanar_runs(cubic, runs)
        }
    }
}

/// Largest absolute coordinate of the differences.
#[inline(always)]
fn max_abs<const K: usize>(d: &[P3; K]) -> f64 {
    // A NaN coordinate is skipped here; it makes every projection test
    // fail instead.
    let mut m = 0.0f64;
    for v in d {
        m = max(max(v[0].abs(), v[1].abs()), max(v[2].abs(), m));
    }
    m
}

/// Whether the linear functions `g_j(t) = (d0[j] + t(d1[j] − d0[j]))·s`
/// (computed as in the module doc) all have one certified strict sign at
/// `t = l` and at `t = r`, `delta` the largest difference coordinate; with
/// `WITHIN`, all exceed `d·|s|` (or are all below its negation), `d ≥ 2⁻⁴⁰⁰`.
#[inline(always)]
fn one_side<const K: usize, const WITHIN: bool>(
    d0: &[P3; K],
    d1: &[P3; K],
    delta: f64,
    s: &P3,
    l: f64,
    r: f64,
    d: f64,
) -> bool {
    let s1 = s[0].abs() + s[1].abs() + s[2].abs();
    // Threshold (module doc); NaN or ∞ directions make every test fail.
    let mut e = gamma(12) * delta * s1 + TINY;
    if WITHIN {
        // Directions shorter than `2⁻³⁰⁰` are not used (module doc,
        // "Within d"); a NaN one fails the finiteness test below.
        if s1 < NORM_MIN {
            return false;
        }
        let norm = dot(s, s).sqrt() * (1.0 + 4.0 * UNIT_ROUNDOFF);
        e = (e + d * norm) * (1.0 + 4.0 * UNIT_ROUNDOFF);
    }
    if !e.is_finite() {
        return false;
    }
    let (ml, mr) = (1.0 - l, 1.0 - r);
    let (mut pos, mut neg) = (true, true);
    for j in 0..K {
        let g0 = dot(&d0[j], s);
        let g1 = dot(&d1[j], s);
        let gl = ml * g0 + l * g1;
        let gr = mr * g0 + r * g1;
        pos &= (gl > e) & (gr > e);
        neg &= (gl < -e) & (gr < -e);
    }
    pos | neg
}

/// The coplanar-window filter on a vertex–face pair (data set row order).
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn window_vertex_face(
    v_t0: &Vec3,
    f0_t0: &Vec3,
    f1_t0: &Vec3,
    f2_t0: &Vec3,
    v_t1: &Vec3,
    f0_t1: &Vec3,
    f1_t1: &Vec3,
    f2_t1: &Vec3,
) -> Verdict {
    let p = points([v_t0, f0_t0, f1_t0, f2_t0, v_t1, f0_t1, f1_t1, f2_t1]);
    match vf_cubic(&p) {
        Some(cubic) => Verdict::culled_if(window_vf::<false>(&cubic, &p, 0.0, 0.0)),
        None => Verdict::Pass,
    }
}

/// The coplanar-window filter on an edge–edge pair (data set row order).
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn window_edge_edge(
    ea0_t0: &Vec3,
    ea1_t0: &Vec3,
    eb0_t0: &Vec3,
    eb1_t0: &Vec3,
    ea0_t1: &Vec3,
    ea1_t1: &Vec3,
    eb0_t1: &Vec3,
    eb1_t1: &Vec3,
) -> Verdict {
    let p = points([
        ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1,
    ]);
    match ee_cubic(&p) {
        Some(cubic) => Verdict::culled_if(window_ee::<false>(&cubic, &p, 0.0, 0.0)),
        None => Verdict::Pass,
    }
}

/// DNF (when `dnf`), then the coplanar-window filter (when `window`) on a
/// vertex–face pair, sharing the coplanarity cubic; which one culled it, if
/// any. DNF's verdict is exactly [`dnf_vertex_face`](super::dnf_vertex_face)'s.
#[inline]
pub fn dnf_window_vertex_face(dnf: bool, window: bool, p: &Points) -> Option<CulledBy> {
    let cubic = vf_cubic(p);
    if dnf && super::dnf::dnf_verdict(cubic.as_ref(), p, || vf_certified(p)) == Verdict::Culled {
        return Some(CulledBy::Dnf);
    }
    (window && cubic.is_some_and(|c| window_vf::<false>(&c, p, 0.0, 0.0)))
        .then_some(CulledBy::Window)
}

/// [`dnf_window_vertex_face`] for an edge–edge pair.
#[inline]
pub fn dnf_window_edge_edge(dnf: bool, window: bool, p: &Points) -> Option<CulledBy> {
    let cubic = ee_cubic(p);
    if dnf && super::dnf::dnf_verdict(cubic.as_ref(), p, || ee_certified(p)) == Verdict::Culled {
        return Some(CulledBy::Dnf);
    }
    (window && cubic.is_some_and(|c| window_ee::<false>(&c, p, 0.0, 0.0)))
        .then_some(CulledBy::Window)
}

/// At a minimum separation `d > 0`: DNF with a margin (when `dnf`; exactly
/// [`dnf_within`](super::dnf_within())'s verdict), then the window filter
/// within `d` (when `window`), sharing the cubic and the margin; which one
/// culled the pair, if any. Culled ⇒ the features stay more than `d` apart
/// on `[0, 1]`. A `d` that is NaN, negative or infinite culls nothing.
#[inline]
pub fn dnf_window_within(
    kind: QueryKind,
    dnf: bool,
    window: bool,
    p: &Points,
    d: f64,
) -> Option<CulledBy> {
    if !(d >= 0.0 && d.is_finite()) {
        return None;
    }
    let cubic = match kind {
        QueryKind::VertexFace => vf_cubic(p),
        QueryKind::EdgeEdge => ee_cubic(p),
    }?;
    let margin = normal_margin(kind, p, d)?;
    if dnf && dnf_beyond(&cubic, margin) == Verdict::Culled {
        return Some(CulledBy::Dnf);
    }
    let d = d.max(D_MIN);
    let culled = window
        && match kind {
            QueryKind::VertexFace => window_vf::<true>(&cubic, p, margin, d),
            QueryKind::EdgeEdge => window_ee::<true>(&cubic, p, margin, d),
        };
    culled.then_some(CulledBy::Window)
}

/// The window filter alone at separation `d` ([`dnf_window_within`]):
/// [`Verdict::Culled`] only when the features stay more than `d` apart.
#[inline]
pub fn window_within(kind: QueryKind, p: &Points, d: f64) -> Verdict {
    Verdict::culled_if(dnf_window_within(kind, false, true, p, d).is_some())
}

#[inline(always)]
fn vf_certified(p: &Points) -> [Bounded; 4] {
    let v = p.map(Vec3::from);
    coplanarity_scaled(&v[1], &v[2], &v[3], &v[0], &v[5], &v[6], &v[7], &v[4])
}

#[inline(always)]
fn ee_certified(p: &Points) -> [Bounded; 4] {
    let v = p.map(Vec3::from);
    coplanarity_scaled(&v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7])
}

/// The window test on a vertex–face pair `[v, f0, f1, f2]` at `t = 0`, then
/// at `t = 1`, with its cubic; with `WITHIN`, at separation `d ≥ 2⁻⁴⁰⁰`
/// with the cubic's `margin` ([`mod@super::dnf_within`]).
#[inline]
fn window_vf<const WITHIN: bool>(cubic: &Cubic, p: &Points, margin: f64, d: f64) -> bool {
    let d0 = [sub(&p[0], &p[1]), sub(&p[0], &p[2]), sub(&p[0], &p[3])];
    let d1 = [sub(&p[4], &p[5]), sub(&p[4], &p[6]), sub(&p[4], &p[7])];
    let delta = max(max_abs(&d0), max_abs(&d1));
    if delta > MAX_DIFFERENCE {
        return false;
    }
    let separated = |l: f64, r: f64| {
        // Directions at mid-window `t`: the in-plane normals `s = e × n` of
        // the edges whose line has the vertex outside (`(p − a)·s > 0` for
        // edge `a → b`: the third corner `c` has `(c − a)·s = −|n|²`). A
        // vertex inside the triangle there has none, and no edge normal
        // could separate it. From `q_k = p(t) − corner_k(t)`: `e_k = q_k −
        // q_{k+1}`.
        let t = 0.5 * (l + r);
        let q: [P3; 3] = std::array::from_fn(|k| lerp(&d0[k], &d1[k], t));
        let e = [sub(&q[0], &q[1]), sub(&q[1], &q[2]), sub(&q[2], &q[0])];
        let n = cross(&e[0], &e[1]);
        (0..3).any(|k| {
            let s = cross(&e[k], &n);
            dot(&q[k], &s) > 0.0 && one_side::<3, WITHIN>(&d0, &d1, delta, &s, l, r, d)
        })
    };
    all_windows_decided(runs_of::<WITHIN>(cubic, margin), separated)
}

/// The window test on an edge–edge pair `[ea0, ea1, eb0, eb1]` at `t = 0`,
/// then at `t = 1`, with its cubic; `WITHIN`, `margin` and `d` as for
/// [`window_vf`].
#[inline]
fn window_ee<const WITHIN: bool>(cubic: &Cubic, p: &Points, margin: f64, d: f64) -> bool {
    let d0 = [
        sub(&p[0], &p[2]),
        sub(&p[0], &p[3]),
        sub(&p[1], &p[2]),
        sub(&p[1], &p[3]),
    ];
    let d1 = [
        sub(&p[4], &p[6]),
        sub(&p[4], &p[7]),
        sub(&p[5], &p[6]),
        sub(&p[5], &p[7]),
    ];
    let delta = max(max_abs(&d0), max_abs(&d1));
    if delta > MAX_DIFFERENCE {
        return false;
    }
    let separated = |l: f64, r: f64| {
        // Directions at mid-window `t`: the in-plane normal `s_a = e_a × m`
        // of edge a when both ends of edge b lie on one side of its line,
        // and the same for edge b (segments that cross there have neither).
        // From `q = (A − C, A − D, B − C)(t)`: `e_a = q₂ − q₀`,
        // `e_b = q₀ − q₁`.
        let t = 0.5 * (l + r);
        let q: [P3; 3] = std::array::from_fn(|k| lerp(&d0[k], &d1[k], t));
        let (ea, eb) = (sub(&q[2], &q[0]), sub(&q[0], &q[1]));
        let m = cross(&ea, &eb);
        let sa = cross(&ea, &m);
        let sb = cross(&eb, &m);
        let side = |s: &P3| one_side::<4, WITHIN>(&d0, &d1, delta, s, l, r, d);
        (dot(&q[0], &sa) * dot(&q[1], &sa) > 0.0 && side(&sa))
            || (dot(&q[0], &sb) * dot(&q[2], &sb) > 0.0 && side(&sb))
    };
    all_windows_decided(runs_of::<WITHIN>(cubic, margin), separated)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::filter::dnf_within::tests::point as dnf_within_point;
    use crate::narrow_phase::{edge_edge_within, oracle, vertex_face_within};
    use proptest::prelude::*;

    #[test]
    fn culls_a_vertex_passing_beside_the_triangle() {
        // The vertex crosses the triangle's plane at x = 2, outside the
        // triangle; it also crosses the plane x + y = 1 ... (no fixed SLPF
        // direction of the paper separates it over the whole step, since it
        // moves diagonally across the triangle's extent).
        let (a, b, c) = (
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
        );
        let (p0, p1) = (Vec3::new(-1.0, 2.0, 1.0), Vec3::new(2.0, -0.5, -1.0));
        assert_eq!(
            window_vertex_face(&p0, &a, &b, &c, &p1, &a, &b, &c),
            Verdict::Culled
        );
        // Through the triangle: never culled.
        let (p0, p1) = (Vec3::new(0.2, 0.2, 1.0), Vec3::new(0.3, 0.1, -1.0));
        assert_eq!(
            window_vertex_face(&p0, &a, &b, &c, &p1, &a, &b, &c),
            Verdict::Pass
        );
    }

    #[test]
    fn crossing_edges_pass_and_missing_ones_are_culled() {
        let (a, b) = (Vec3::new(-1.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0));
        // Edge c–d falls through a–b.
        let (c0, d0) = (Vec3::new(0.0, -1.0, 1.0), Vec3::new(0.0, 1.0, 1.0));
        let (c1, d1) = (Vec3::new(0.0, -1.0, -1.0), Vec3::new(0.0, 1.0, -1.0));
        assert_eq!(
            window_edge_edge(&a, &b, &c0, &d0, &a, &b, &c1, &d1),
            Verdict::Pass
        );
        // The same, beyond the end of a–b.
        let s = Vec3::new(3.0, 0.0, 0.0);
        let (c0, d0, c1, d1) = (c0 + s, d0 + s, c1 + s, d1 + s);
        assert_eq!(
            window_edge_edge(&a, &b, &c0, &d0, &a, &b, &c1, &d1),
            Verdict::Culled
        );
    }

    fn coord() -> impl Strategy<Value = f64> {
        prop_oneof![
            4 => (-8i32..=8).prop_map(|i| f64::from(i) / 4.0),
            2 => -1.0..1.0f64,
            1 => Just(0.0),
        ]
    }

    fn point() -> impl Strategy<Value = Vec3> {
        (coord(), coord(), coord()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
    }

    /// `4096·f(k/16)` exactly, for the cubic with Bernstein coefficients
    /// `b` (integers) on `[0, 1]`.
    fn value_at_sixteenths(b: &[f64; 4], k: i128) -> i128 {
        let (t, s) = (k, 16 - k);
        let b = b.map(|x| x as i128);
        b[0] * s * s * s + 3 * b[1] * t * s * s + 3 * b[2] * t * t * s + b[3] * t * t * t
    }

    /// Four coefficients of random magnitudes whose sign changes once,
    /// before a random index (all negated half of the time); and a bound
    /// below half of the smallest magnitude.
    fn one_change<T: std::ops::Neg<Output = T> + Copy + std::fmt::Debug + Into<f64>>(
        magnitude: impl Strategy<Value = T> + Clone,
    ) -> impl Strategy<Value = ([T; 4], f64)> {
        let signs = (1usize..4, any::<bool>());
        (proptest::array::uniform4(magnitude), signs, 0.0f64..0.5).prop_map(|(m, (j, neg), f)| {
            let b: [T; 4] = std::array::from_fn(|i| if (i < j) != neg { m[i] } else { -m[i] });
            let least = m.iter().fold(f64::INFINITY, |a, &x| a.min(x.into().abs()));
            (b, f * least)
        })
    }

    fn runs(b: [f64; 4], e: f64, single: bool) -> Option<Vec<(f64, f64)>> {
        let mut runs = Runs {
            l: [0.0; MAX_RUNS],
            r: [0.0; MAX_RUNS],
            n: 0,
        };
        let done = if single {
            bisect_single_root(b, e, &mut runs)
        } else {
            subdivide::<{ WINDOW_DEPTH as usize }>(b, e, &mut runs)
        };
        if !done {
            return None;
        }
        Some((0..runs.n).map(|i| (runs.l[i], runs.r[i])).collect())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

        /// Integer coefficients (their subdivision to depth 4 is exact, so
        /// `e = 0` is a valid bound): the single-root window has the root
        /// inside (the exact values at its ends differ in sign), and lies
        /// within a run that the general subdivision keeps.
        #[test]
        fn single_root_window_holds_the_root(
            (b, _) in one_change(1i32..=40),
        ) {
            let b = b.map(f64::from);
            prop_assert!(one_sign_change(&b, 0.0));
            let Some(single) = runs(b, 0.0, true) else {
                // A root at a window's end: `subdivide` decides.
                let k = (1..16).find(|&k| value_at_sixteenths(&b, k) == 0);
                prop_assert!(k.is_some(), "{b:?}");
                return Ok(());
            };
            prop_assert_eq!(single.len(), 1);
            let (l, r) = single[0];
            let (kl, kr) = ((l * 16.0) as i128, (r * 16.0) as i128);
            prop_assert_eq!((kl as f64 / 16.0, kr - kl), (l, 1));
            let (fl, fr) = (value_at_sixteenths(&b, kl), value_at_sixteenths(&b, kr));
            prop_assert!(fl.signum() * fr.signum() < 0, "{b:?}: [{l}, {r}]");
            if let Some(general) = runs(b, 0.0, false) {
                prop_assert!(general.iter().any(|&(gl, gr)| gl <= l && r <= gr), "{b:?}: {general:?}");
            }
        }

        /// Arbitrary coefficients and bounds: where the single-root path
        /// applies, its window lies within a run of the general subdivision
        /// (so it decides at least the pairs that one decides).
        #[test]
        fn single_root_window_is_within_the_general_runs(
            (b, e) in one_change(0.0f64..1.0),
        ) {
            prop_assume!(one_sign_change(&b, e));
            let Some(single) = runs(b, e, true) else {
                return Ok(());
            };
            let (l, r) = single[0];
            if let Some(general) = runs(b, e, false) {
                prop_assert!(general.iter().any(|&(gl, gr)| gl <= l && r <= gr), "{b:?} {e}: [{l}, {r}] {general:?}");
            }
        }
    }

    /// Cases the proptests once found: the single-root search gives up and
    /// the subdivision decides, where the middle value is exactly zero (a
    /// root at `t = 1/4`) or within the bound.
    #[test]
    fn a_middle_value_without_a_certain_sign_falls_back_to_the_subdivision() {
        let exact_root = [-27.0, 13.0, 40.0, 18.0];
        assert_eq!(value_at_sixteenths(&exact_root, 4), 0);
        let near = [
            0.1145788271596965,
            -0.07007493183366227,
            -0.6298587486615277,
            -0.21115361122430484,
        ];
        // `near`'s root, by bisection in plain floating point: 0.16330…
        for (b, e, root) in [
            (exact_root, 0.0, 0.25),
            (near, 0.041878376116751576, 0.1633),
        ] {
            assert!(one_sign_change(&b, e), "{b:?}");
            assert_eq!(runs(b, e, true), None, "{b:?}");
            let general = runs(b, e, false).unwrap();
            assert!(
                general.iter().any(|&(l, r)| l <= root && root <= r),
                "{b:?}: {general:?}"
            );
        }
    }

    #[test]
    fn halve_takes_the_right_half_where_the_middle_keeps_the_sign() {
        let (l, r) = ([1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]);
        assert_eq!(halve(true, l, r), (r, true));
        assert_eq!(halve(false, l, r), (l, false));
        let r = [-5.0, 6.0, 7.0, 8.0];
        assert_eq!(halve(true, l, r), (l, false));
        assert_eq!(halve(false, l, r), (r, true));
    }

    /// A projection whose exact value is zero (a touch) but whose
    /// products underflow: `−2⁻¹⁰⁷⁴ + 2⁻¹⁰⁷⁵ + 2⁻¹⁰⁷⁵` rounds to `−2⁻¹⁰⁷⁴`
    /// (each `2⁻¹⁰⁷⁵` ties to `0`), so it looks negative, like the other
    /// two. The relative part of the threshold underflows to `0` here; the
    /// absolute `2⁻¹⁰²²` is what keeps the pair from counting as apart.
    #[test]
    fn a_projection_zero_up_to_underflow_is_not_a_sign() {
        let (a, b) = (2f64.powi(-574), 2f64.powi(-575));
        let s = [2f64.powi(-500); 3];
        let zero = [-a, b, b];
        assert_eq!(dot(&zero, &s), -2f64.powi(-1074));
        let d = [zero, [-a; 3], [-a; 3]];
        assert!(!one_side::<3, false>(&d, &d, a, &s, 0.0, 1.0, 0.0));
        // Scaled up by 2⁴⁰⁰, nothing underflows: the zero stays zero.
        let up = |v: [f64; 3]| v.map(|x| x * 2f64.powi(400));
        let d = d.map(up);
        assert_eq!(dot(&d[0], &s), 0.0);
        assert!(!one_side::<3, false>(
            &d,
            &d,
            a * 2f64.powi(400),
            &s,
            0.0,
            1.0,
            0.0
        ));
    }

    #[test]
    fn one_sign_change_needs_certain_signs() {
        assert!(one_sign_change(&[1.0, 1.0, -1.0, -1.0], 0.5));
        assert!(one_sign_change(&[-1.0, 2.0, 2.0, 3.0], 0.5));
        // Two changes, or none.
        assert!(!one_sign_change(&[1.0, -1.0, 1.0, 1.0], 0.5));
        assert!(!one_sign_change(&[1.0, 2.0, 3.0, 4.0], 0.5));
        // A coefficient within the bound, or NaN.
        assert!(!one_sign_change(&[1.0, 0.25, -1.0, -1.0], 0.5));
        assert!(!one_sign_change(&[1.0, f64::NAN, -1.0, -1.0], 0.5));
    }

    /// A seeded sample of lattice pairs (many touching, coplanar and
    /// degenerate configurations): no collision is culled, and the filter
    /// removes most of the pairs that do not collide.
    #[test]
    fn lattice_sample_no_collision_culled_most_misses_culled() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            f64::from((state % 17) as u32) / 4.0 - 2.0
        };
        let (mut misses, mut culled) = ([0usize; 2], [0usize; 2]);
        for _ in 0..5000 {
            let q: [Vec3; 8] = std::array::from_fn(|_| Vec3::new(next(), next(), next()));
            let [a, b, c, d, e, f, g, h] = &q;
            let vf = window_vertex_face(a, b, c, d, e, f, g, h) == Verdict::Culled;
            let ee = window_edge_edge(a, b, c, d, e, f, g, h) == Verdict::Culled;
            let vf_hit = oracle::vertex_face(a, b, c, d, e, f, g, h).is_some();
            let ee_hit = oracle::edge_edge(a, b, c, d, e, f, g, h).is_some();
            assert!(!(vf && vf_hit), "VF {q:?}");
            assert!(!(ee && ee_hit), "EE {q:?}");
            misses[0] += usize::from(!vf_hit);
            misses[1] += usize::from(!ee_hit);
            culled[0] += usize::from(vf);
            culled[1] += usize::from(ee);
        }
        // More than nine in ten of the misses (docs/notes/window-filter.md).
        assert!(10 * culled[0] > 9 * misses[0], "{culled:?} of {misses:?}");
        assert!(10 * culled[1] > 9 * misses[1], "{culled:?} of {misses:?}");
    }

    /// A multiple of `2⁻²⁰` below `2⁸` in magnitude: the sums below are
    /// exact, products of two round.
    fn fine() -> impl Strategy<Value = f64> {
        (-(1i64 << 28)..(1i64 << 28)).prop_map(|i| i as f64 / f64::from(1u32 << 20))
    }

    fn fine_point() -> impl Strategy<Value = Vec3> {
        (fine(), fine(), fine()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
    }

    /// A vertex exactly on an edge of the triangle at `t = 0`, a quarter
    /// of the way along it, with [`fine`] coordinates whose directions and
    /// projections round; the triangle still or moving: the eight points
    /// in the data sets' order (also DNF's tests').
    pub(in crate::filter) fn vertex_on_an_edge_at_the_start() -> impl Strategy<Value = [Vec3; 8]> {
        let points = (fine_point(), fine_point(), fine_point());
        let moves = proptest::array::uniform4(fine_point());
        (points, moves, any::<bool>()).prop_map(|((a, d, c), moves, still)| {
            // `p0 − b = −3d` (exact): its projections round apart from
            // `−3` times those of `p0 − a = d`.
            let b = a + 4.0 * d;
            let p0 = a + d;
            let [ma, mb, mc] = if still {
                [Vec3::zeros(); 3]
            } else {
                [moves[0], moves[1], moves[2]]
            };
            [p0, a, b, c, p0 + moves[3], a + ma, b + mb, c + mc]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

        /// A vertex on an edge at `t = 0`
        /// ([`vertex_on_an_edge_at_the_start`]): the pair collides at
        /// `t = 0`, and the projections that decide it are zero up to
        /// rounding (the filter's margin is what keeps it from culling).
        #[test]
        fn never_culls_a_touch_at_the_start_that_rounding_blurs(
            q in vertex_on_an_edge_at_the_start(),
        ) {
            let [p0, a, b, c, p1, a1, b1, c1] = &q;
            prop_assert!(oracle::vertex_face(p0, a, b, c, p1, a1, b1, c1).is_some());
            prop_assert_eq!(window_vertex_face(p0, a, b, c, p1, a1, b1, c1), Verdict::Pass);
        }

        /// The same for two edges: an end of one exactly on the other at
        /// `t = 0`, a quarter of the way along it.
        #[test]
        fn never_culls_edges_touching_at_the_start_that_rounding_blurs(
            a in fine_point(), d in fine_point(), other_end in fine_point(),
            moves in proptest::array::uniform4(fine_point()),
            still in any::<bool>(),
        ) {
            let (eb0, eb1) = (a, a + 4.0 * d);
            let (ea0, ea1) = (a + d, other_end);
            let [m0, m1] = if still { [Vec3::zeros(); 2] } else { [moves[0], moves[1]] };
            let (ea0_1, ea1_1, eb0_1, eb1_1) = (ea0 + moves[2], ea1 + moves[3], eb0 + m0, eb1 + m1);
            prop_assert!(oracle::edge_edge(&ea0, &ea1, &eb0, &eb1, &ea0_1, &ea1_1, &eb0_1, &eb1_1).is_some());
            prop_assert_eq!(
                window_edge_edge(&ea0, &ea1, &eb0, &eb1, &ea0_1, &ea1_1, &eb0_1, &eb1_1),
                Verdict::Pass
            );
        }

        /// Never culls a pair the exact oracle finds colliding (lattice
        /// points make touching and coplanar configurations common).
        #[test]
        fn never_culls_a_collision(q in proptest::array::uniform8(point())) {
            let [a, b, c, d, e, f, g, h] = &q;
            if window_vertex_face(a, b, c, d, e, f, g, h) == Verdict::Culled {
                prop_assert!(oracle::vertex_face(a, b, c, d, e, f, g, h).is_none(), "VF {q:?}");
            }
            if window_edge_edge(a, b, c, d, e, f, g, h) == Verdict::Culled {
                prop_assert!(oracle::edge_edge(a, b, c, d, e, f, g, h).is_none(), "EE {q:?}");
            }
        }
    }

    /// A vertex passing beside the triangle, in its plane, `0.5` outside
    /// edge `x = 0` at its nearest: DNF's margin cannot cull it (the vertex
    /// crosses the plane), the window filter within `d` does for `d < 0.5`
    /// and never at `d ≥ 0.5`, where it comes within `d`.
    #[test]
    fn within_d_culls_a_vertex_passing_farther_than_d_beside_the_triangle() {
        let (a, b, c) = (
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
        );
        let (p0, p1) = (Vec3::new(-0.5, 0.25, 1.0), Vec3::new(-0.5, 0.25, -1.0));
        let q = points([&p0, &a, &b, &c, &p1, &a, &b, &c]);
        let kind = QueryKind::VertexFace;
        for d in [1e-300, 1e-6, 0.25, 0.49] {
            assert_eq!(
                dnf_window_within(kind, true, true, &q, d),
                Some(CulledBy::Window),
                "{d}"
            );
            assert_eq!(window_within(kind, &q, d), Verdict::Culled, "{d}");
        }
        for d in [0.5, 0.75, 10.0] {
            assert_eq!(window_within(kind, &q, d), Verdict::Pass, "{d}");
            assert!(oracle::vertex_face_within(&p0, &a, &b, &c, &p1, &a, &b, &c, d).is_some());
        }
        // Bad separations cull nothing.
        for d in [f64::NAN, -1.0, f64::INFINITY] {
            assert_eq!(dnf_window_within(kind, true, true, &q, d), None);
        }
    }

    /// Two edges crossing over each other at height `h` (their lines' distance
    /// is `h` when they cross): culled within `d < h`, never at `d ≥ h`.
    #[test]
    fn within_d_culls_edges_passing_farther_than_d() {
        let (a0, a1) = (Vec3::new(-1.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0));
        // Edge b, along y, slides along x from x = −3 to x = 3 at z = 0.5.
        let (b0, b1) = (Vec3::new(-3.0, -1.0, 0.5), Vec3::new(-3.0, 1.0, 0.5));
        let (c0, c1) = (Vec3::new(3.0, -1.0, 0.5), Vec3::new(3.0, 1.0, 0.5));
        let q = points([&a0, &a1, &b0, &b1, &a0, &a1, &c0, &c1]);
        let kind = QueryKind::EdgeEdge;
        assert_eq!(window_within(kind, &q, 0.4), Verdict::Culled);
        assert_eq!(window_within(kind, &q, 0.5), Verdict::Pass);
        assert!(oracle::edge_edge_within(&a0, &a1, &b0, &b1, &a0, &a1, &c0, &c1, 0.5).is_some());
    }

    fn separation() -> impl Strategy<Value = f64> {
        prop_oneof![
            Just(1e-300),
            Just(1e-9),
            0.0..1.0f64,
            Just(0.125),
            Just(0.5)
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

        /// Culled within `d` ⇒ never within `d` (the solver, whose verdicts
        /// are checked against the exact oracle elsewhere). Lifting the
        /// first point (the vertex, or an end of edge a) makes near misses
        /// at `d` common; the lattice makes touching and coplanar ones.
        #[test]
        fn within_d_never_culls_a_pair_within_d(
            mut q in proptest::array::uniform8(dnf_within_point()),
            lift in prop_oneof![Just(0.0), Just(0.5), 0.0..3.0f64],
            d in separation(),
        ) {
            q[0].z += lift;
            q[4].z += lift;
            let p = points(q.each_ref().map(|x| x));
            let [a, b, c, e, f, g, h, i] = &q;
            if window_within(QueryKind::VertexFace, &p, d) == Verdict::Culled {
                prop_assert!(vertex_face_within(a, b, c, e, f, g, h, i, d).is_none(), "VF d = {d}: {q:?}");
            }
            if window_within(QueryKind::EdgeEdge, &p, d) == Verdict::Culled {
                prop_assert!(edge_edge_within(a, b, c, e, f, g, h, i, d).is_none(), "EE d = {d}: {q:?}");
            }
        }

        /// A vertex (an edge's end) exactly at distance `d` from the other
        /// feature at a lattice time, beside it in a plane the motion keeps:
        /// never culled, and the exact oracle agrees that it is within `d`.
        #[test]
        fn within_d_never_culls_a_touch_at_exactly_d(
            x in -8i32..8, y in -8i32..8, k in 0i32..=8, dk in 1i32..4,
            side in 0usize..3, d in prop::sample::select(&[0.125, 0.25, 1.0, 3.0][..]),
        ) {
            // Triangle (0,0,0), (2,0,0), (0,2,0) moving by (x, y, 0)/8; the
            // vertex at distance d outside edge `side` at t = k/8, moving
            // across the plane at a rate dk.
            let shift = Vec3::new(f64::from(x), f64::from(y), 0.0) / 8.0;
            let (a, b, c) = (Vec3::new(0.0, 0.0, 0.0), Vec3::new(2.0, 0.0, 0.0), Vec3::new(0.0, 2.0, 0.0));
            let t = f64::from(k) / 8.0;
            // Outside the edge's line, in the plane, at distance d from the
            // triangle (beside the middle of edges y = 0 and x = 0; beyond
            // corner b along x for the slanted one).
            let at_t = [Vec3::new(1.0, -d, 0.0), Vec3::new(-d, 1.0, 0.0), Vec3::new(2.0 + d, 0.0, 0.0)][side] + shift * t;
            let v = Vec3::new(0.0, 0.0, f64::from(dk));
            let (p0, p1) = (at_t - v * t, at_t + v * (1.0 - t));
            let (a1, b1, c1) = (a + shift, b + shift, c + shift);
            let q = points([&p0, &a, &b, &c, &p1, &a1, &b1, &c1]);
            prop_assert!(oracle::vertex_face_within(&p0, &a, &b, &c, &p1, &a1, &b1, &c1, d).is_some());
            prop_assert_eq!(window_within(QueryKind::VertexFace, &q, d), Verdict::Pass);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

        /// The same against the exact oracle itself (slower, fewer cases).
        #[test]
        fn within_d_never_culls_what_the_oracle_finds_within_d(
            q in proptest::array::uniform8(dnf_within_point()),
            d in separation(),
        ) {
            let p = points(q.each_ref().map(|x| x));
            let [a, b, c, e, f, g, h, i] = &q;
            if window_within(QueryKind::VertexFace, &p, d) == Verdict::Culled {
                prop_assert!(oracle::vertex_face_within(a, b, c, e, f, g, h, i, d).is_none(), "VF d = {d}: {q:?}");
            }
            if window_within(QueryKind::EdgeEdge, &p, d) == Verdict::Culled {
                prop_assert!(oracle::edge_edge_within(a, b, c, e, f, g, h, i, d).is_none(), "EE d = {d}: {q:?}");
            }
        }
    }
}
