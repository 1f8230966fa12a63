//! The exact path's first steps (docs/design.md §5, tier 5): every query
//! the fast path defers, decided without the oracle where exact integers
//! suffice — chiefly features that start within `d`, or within a rounding
//! of it.
//!
//! 1. *Within `d` at `t = 0`*, exactly ([`super::within_at_start`]): the
//!    time of impact is `0`. Features at rest that are not: no time.
//! 2. Otherwise the features start farther than `d`, by perhaps less than
//!    the floating-point certificates resolve. *Apart on `[0, l]`*, exactly,
//!    along a constant direction `s`: each corner pair's gap
//!    `g(t) = s·(bⱼ(t) − aᵢ(t))` is linear in `t`, so `g > d|s|` at `t = 0`
//!    and at `t = l` holds on all of `[0, l]`, and then every pair of points
//!    of the two features is farther than `d` apart (convex combinations;
//!    the argument of [`super::certificates`]). With `l = 2⁻ᵏ`, the
//!    relative positions at `l` times `2ᵏ` are integers on one scale with
//!    the eight positions and `d` (below `2¹⁶³` for `k ≤ 60`; `None` when
//!    that scale needs more than 100 bits), and `g > d|s|` is `G > 0` and
//!    `G² > (2ᵏd)²|s|²`. Two directions are tried: the fast path's
//!    separating hint at `t = 0` as it is (its three doubles on a scale of
//!    their own), and the exact normal at `t = 0` (the triangle's, or the
//!    cross product of the edges, degree 2), which separates a vertex over
//!    a face's interior, or crossing edges, by exactly their distance
//!    where any rounded direction loses its rounding times the features'
//!    extent. `G = 2ᵏ·s·u₀ + s·(u₁ − u₀)` (`u₀`, `u₁` a corner pair's
//!    relative positions at `t = 0` and `t = 1`; both dot products formed
//!    once per direction) is below `2³⁶⁷`, and `G²`, of degree 6, below
//!    `2⁷⁴⁰`, in [`crate::math::I768`]. Apart on `[0, 1]`: no time within
//!    `d`.
//! 3. Else a bracket: the first `r = 2⁻ʲ` (`j` from 60 down to 30) certified
//!    within `d` in floating point ([`super::certificates::within`]), and
//!    the largest `l = 2⁻ᵏ < r` exactly apart on `[0, l]` (by bisection on
//!    `k`: apart on `[0, l]` is apart on any shorter span, and the direction
//!    was chosen apart on `[0, 2⁻⁶⁰]`): the earliest time within `d` is in
//!    `[l, r]`, at most `2⁻³⁰` wide as the fast path's brackets are.
//!
//! Anything else (`None`) is the oracle's. The coordinates' range is that
//! of the integers' scale and, for the float *within*, the fast path's.

use super::certificates::{Features, within};
use super::filtered::at_rest;
use super::search::{FIRST_WIDTH, MAX_WIDTH};
use super::within_at_start::{Wide, dot_wide, sub};
use crate::math::{I768, RangeCheck, Vec3, in_filter_range, on_common_scale};
use crate::narrow_phase::Toi;

/// `Some(decision)` when decided (module doc), `None` for the oracle.
pub(super) fn decide<F: Features>(
    f: &F,
    points: [&Vec3; 8],
    d: f64,
    range: RangeCheck,
) -> Option<Option<Toi>> {
    if F::within_at_start(points, d)? {
        return Some(Some(Toi::exact(0.0)));
    }
    // At rest, the distance is the same at every time.
    if at_rest(&points) {
        return Some(None);
    }
    let tracks = Tracks::of(f, d)?;
    // The first direction that separates the start by more than `d`.
    let hint = f.separating_hint(0.0);
    let along = [
        on_common_scale([hint.x, hint.y, hint.z]).map(|s| s.map(I768::from_i128)),
        tracks.normal(),
    ]
    .into_iter()
    .flatten()
    .filter_map(|s| tracks.apart_at_start(&s))
    .find(|along| along.apart_until(60))?;
    if along.apart_until(0) {
        return Some(None);
    }
    if !(range.in_range(&points) && in_filter_range(d)) {
        return None;
    }
    let mut upper = FIRST_WIDTH;
    while !within(f, d, upper) {
        upper *= 2.0;
        if upper > MAX_WIDTH {
            return None;
        }
    }
    // The least `k` with `[0, 2⁻ᵏ]` apart, `2⁻ᵏ < upper`: apart on `[0, l]`
    // is apart on every `[0, l']` with `l' < l`, and `k = 60` is.
    let (mut lo, mut hi) = (1 - upper.log2() as i32, 60);
    // Within at `upper` and apart on `[0, 2⁻⁶⁰]` put `upper` above `2⁻⁶⁰`.
    debug_assert!(lo <= hi, "within at {upper:e}, apart until 2⁻⁶⁰");
    while lo < hi {
        let mid = (lo + hi) / 2;
        if along.apart_until(mid as u32) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    let lower = 2f64.powi(-hi);
    Some(Some(Toi { lower, upper }))
}

/// A point's position at `t = 0` and `t = 1`, or a difference of two, on
/// the integer scale.
type Track = [[i128; 3]; 2];

/// A direction, exact.
type Direction = Wide;

/// The corners' tracks, the corner pairs' relative tracks and `d²`, on one
/// integer scale (module doc).
struct Tracks {
    /// The corners of A, then of B.
    corners: [Track; 4],
    a_len: usize,
    /// `bⱼ − aᵢ` per corner pair.
    pairs: [Track; 4],
    len: usize,
    d2: I768,
}

impl Tracks {
    fn of<F: Features>(f: &F, d: f64) -> Option<Tracks> {
        let (a, b) = (f.a(), f.b());
        let mut xs = [0.0; 25];
        for (i, track) in a.iter().chain(b).enumerate() {
            for (k, p) in track.iter().enumerate() {
                xs[6 * i + 3 * k..6 * i + 3 * k + 3].copy_from_slice(&[p.x, p.y, p.z]);
            }
        }
        xs[24] = d;
        let ints = on_common_scale(xs)?;
        let corners: [Track; 4] = std::array::from_fn(|i| {
            [0, 1].map(|k| std::array::from_fn(|c| ints[6 * i + 3 * k + c]))
        });
        let mut pairs = [[[0; 3]; 2]; 4];
        let mut len = 0;
        for ai in 0..a.len() {
            for bj in a.len()..a.len() + b.len() {
                pairs[len] =
                    [0, 1].map(|k| std::array::from_fn(|c| corners[bj][k][c] - corners[ai][k][c]));
                len += 1;
            }
        }
        Some(Tracks {
            corners,
            a_len: a.len(),
            pairs,
            len,
            d2: I768::product(ints[24], ints[24]),
        })
    }

    /// The normal at `t = 0`, oriented from A towards B: the triangle's, or
    /// the two edges' cross product; `None` when it is zero.
    fn normal(&self) -> Option<Direction> {
        let c = |i: usize| self.corners[i][0];
        let n = if self.a_len == 1 {
            I768::cross(&sub(&c(2), &c(1)), &sub(&c(3), &c(1)))
        } else {
            I768::cross(&sub(&c(1), &c(0)), &sub(&c(3), &c(2)))
        };
        let along = dot_wide(&n, &self.pairs[0][0]).signum();
        match along {
            0 => None,
            1 => Some(n),
            _ => Some(n.map(|x| -x)),
        }
    }

    /// `s` when every corner pair's gap along it exceeds `d|s|` at `t = 0`,
    /// exactly, with what its tests at later times share ([`Along`]).
    fn apart_at_start(&self, s: &Direction) -> Option<Along> {
        let level0 = self.d2 * (s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
        let mut gaps = [(I768::ZERO, I768::ZERO); 4];
        for (gap, [u0, u1]) in gaps.iter_mut().zip(&self.pairs[..self.len]) {
            let g0 = dot_wide(s, u0);
            if !(g0.signum() > 0 && (g0 * g0 - level0).signum() > 0) {
                return None;
            }
            *gap = (g0, dot_wide(s, &sub(u1, u0)));
        }
        Some(Along {
            level0,
            gaps,
            len: self.len,
        })
    }
}

/// A direction `s` that separates the start by more than `d`: what its
/// tests at `t = 2⁻ᵏ` share.
struct Along {
    /// `d²|s|²`.
    level0: I768,
    /// Per corner pair, `g₀ = s·u₀` and `s·(u₁ − u₀)`: the gap at `2⁻ᵏ`
    /// times `2ᵏ` is `2ᵏ·g₀ + s·(u₁ − u₀)`.
    gaps: [(I768, I768); 4],
    len: usize,
}

impl Along {
    /// Every corner pair's gap exceeds `d|s|` at `t = 2⁻ᵏ` (`k ≤ 60`), so
    /// (with `t = 0`) on all of `[0, 2⁻ᵏ]`, exactly: `G = 2ᵏ·g(2⁻ᵏ) > 0` and
    /// `G² > (2ᵏd)²|s|²`.
    fn apart_until(&self, k: u32) -> bool {
        debug_assert!(k <= 60);
        let level = self.level0 << (2 * k);
        self.gaps[..self.len].iter().all(|&(g0, dg)| {
            let g = (g0 << k) + dg;
            g.signum() > 0 && (g * g - level).signum() > 0
        })
    }
}
