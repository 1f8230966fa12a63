//! The two certificates of the minimum-separation fast path
//! (docs/design.md §5, §8): *apart* — the features stay more than `d` apart
//! over a time interval — and *within* — at one time they are less than `d`
//! apart. Both are signs of [`Bounded`] expressions, so each is proven, not
//! estimated.
//!
//! **Leaves.** The relative position of two tracked points,
//! `y(t) − x(t) = u₀ + t(u₁ − u₀)` with `u₀ = y₀ − x₀`, `u₁ = y₁ − x₁`, is
//! evaluated from the two differences of exact doubles ([`Bounded::difference`],
//! one rounding each) and an exact `t`: `fl(u₀ + fl(t·fl(u₁ − u₀)))`, rounding
//! count 4, magnitude `|u₀| + t(|u₁| + |u₀|)`; at `t = 0` and `t = 1` it is
//! the leaf itself. From there every operation follows [`Bounded`]'s
//! model: `|v − x| ≤ γ_k·M` with `γ_k = k·u/(1 − k·u)`, `u = ε/2 =
//! f64::EPSILON / 2` (Higham 2002, Lemma 3.1), and a sign counts only when
//! `|v| > (2k + 2)·u·m`.
//!
//! **Range.** The model needs no underflow or overflow (docs/design.md §8).
//! The callers run only when every coordinate passes
//! [`crate::math::in_filter_range`] (multiples of `2⁻¹⁴⁰`, at most `2²⁰⁰`),
//! with `d` in that range too, at times `0`, `1` or dyadics in `[2⁻⁶⁰, 1]`.
//! Directions and weights are constants that the certificates choose
//! freely, so they are rounded to multiples of `2⁻⁵⁰` of magnitude at most
//! `2` ([`direction`], [`weight`]): then relative positions are multiples of
//! `2⁻²⁵²` and their products with a direction or a weight multiples of
//! `2⁻³⁰²`, far above the smallest normal `2⁻¹⁰²²`, and nothing computed
//! exceeds `2²¹⁰`.
//!
//! **Apart on `[l, r]`.** For a constant direction `s` and every pair of a
//! corner `aᵢ` of feature A and `bⱼ` of feature B, `g = s·(bⱼ(t) − aᵢ(t))` is
//! linear in `t` (evaluated as `g(0) = s·u₀` and `g(1) = s·u₁` from the
//! leaves, then `g(0) + t·(g(1) − g(0))`, all in [`Bounded`]'s model); if
//! `g − d·N > 0` is certified at `t = l` and at `t = r`,
//! with `N ≥ |s|`, then `g > d|s|` on all of `[l, r]`, and for any points
//! `x = Σλᵢaᵢ`, `y = Σμⱼbⱼ` of the two features (convex weights)
//! `|y − x| ≥ s·(y − x)/|s| = Σλᵢμⱼ g/|s| > d`. `N = fl(fl(√σ)·(1 + 8u))`
//! with `σ = fl(s·s)`: `σ ≥ |s|²(1 − u)³`, `fl(√σ) ≥ |s|(1 − 2.6u)`, so
//! `N ≥ |s|(1 − 2.6u)(1 + 8u)(1 − u) > |s|` (`|s| ≥ ½`, all normal). The
//! comparison is linear in the distance, so the margin it needs is a few
//! ulps of the relative positions, not of their squares: a bracket of
//! `2⁻⁴⁰` is reachable for any `d` in range. The direction is the
//! difference of the features' nearest points at mid-interval
//! ([`super::nearest`]), which separates them by exactly their distance
//! (the separating hyperplane of two convex sets) up to the hint's error;
//! where those points are interior to both features, the normal, the same
//! direction computed more accurately ([`Features::separating_hint`]).
//!
//! **Within at `t`.** For exact weights (triangle `β, γ ≥ 0`, `β + γ ≤ 1`;
//! segments `s, r ∈ [0, 1]`) the witness `Δ = point of B − point of A` is
//! evaluated as a [`BoundedVec3`]. Each coordinate is at most
//! `aᵢ = next_up(fl(|vᵢ| + eᵢ))` in magnitude (`eᵢ` its error bound;
//! `fl(x) ≥ x(1 − u)` and one ulp more covers it), raised to `2⁻⁵⁰⁰` so that
//! `aᵢ²` is normal. Then `Σ = fl(Σ aᵢ²) ≥ Σaᵢ²·(1 − u)³` and
//! `fl(Σ·(1 + 8u)) ≥ Σaᵢ²`, while `fl(fl(d·d)·(1 − 8u)) < d²`
//! (`d ≥ 2⁻¹⁴⁰`, so `d²` is normal); the first below the second proves
//! `dist(t) ≤ |Δ| < d`, again with a margin linear in the distance.

use super::nearest::{lerp, point_triangle, segment_segment};
use crate::math::{Bounded, BoundedVec3, UNIT_ROUNDOFF, Vec3, each3};
use crate::narrow_phase::start_contact;

/// A point's positions at `t = 0` and `t = 1`.
pub(super) type Track = [Vec3; 2];

/// `y(t) − x(t)` for an exact `t` (module doc).
#[inline]
pub(super) fn relative(x: &Track, y: &Track, t: f64) -> BoundedVec3 {
    let u0 = BoundedVec3::difference(&y[0], &x[0]);
    if t == 0.0 {
        return u0;
    }
    between(&u0, &BoundedVec3::difference(&y[1], &x[1]), t)
}

/// A relative track at an exact `t` from its leaves `u₀` (at `t = 0`) and
/// `u₁` (at `t = 1`): `u₀ + t(u₁ − u₀)`, or a leaf itself at either end.
#[inline]
pub(super) fn between(u0: &BoundedVec3, u1: &BoundedVec3, t: f64) -> BoundedVec3 {
    if t == 0.0 {
        return *u0;
    }
    if t == 1.0 {
        return *u1;
    }
    let t = Bounded::exact(t);
    BoundedVec3(each3(|i| u0.0[i] + t * (u1.0[i] - u0.0[i])))
}

/// `y(t) − o(t)` in plain doubles, for the hints: the two differences
/// first, then the interpolation, so that rounding errors are of the order
/// of `u` times the features' size, not the coordinates' magnitude.
#[inline]
fn relative_hint(o: &Track, y: &Track, t: f64) -> Vec3 {
    lerp(&(y[0] - o[0]), &(y[1] - o[1]), t)
}

/// The normal `n` oriented along `gap`, or `gap` itself when `n` is short
/// (`|n|² ≤ 10⁻⁸·scale`, `scale` the product of the two sides' squared
/// lengths: sides within 10⁻⁴ radians of parallel).
///
/// Why not always `gap`: near the first time within `d` the features are
/// about `d` apart, and their nearest points' difference, computed from
/// sides of length `ℓ`, is only accurate to about `u·ℓ`, so its direction
/// is off by about `u·ℓ/d`; the apart certificate then fails on intervals
/// closer to that time than about `u·ℓ²/d` in distance, which for a small
/// `d` is more than the search's widest bracket (`super::search`). The
/// normal's direction is accurate to about `u` over the sine of the
/// angle between the sides, whatever `d`.
#[inline]
fn normal_hint(n: Vec3, scale: f64, gap: Vec3) -> Vec3 {
    if n.norm_squared() <= SLIVER * scale {
        gap
    } else if n.dot(&gap) < 0.0 {
        -n
    } else {
        n
    }
}

/// A normal whose squared length is at most this times the sides' scale is
/// too short to point anywhere useful: [`normal_hint`] takes the gap instead.
/// A hint only; the certificates decide.
const SLIVER: f64 = 1e-8;

/// Below this largest coordinate a direction is taken as zero: its scaling
/// to near 1 would leave the exponent range. A hint only; the certificates
/// decide.
const DIRECTION_FLOOR: f64 = 1e-280;

/// Granularity of directions and weights, `2⁻⁵⁰`.
const GRID: f64 = 1.0 / (1u64 << 50) as f64;

/// A weight in `[0, 1]`, a multiple of `2⁻⁵⁰` (NaN gives 0).
#[inline]
fn weight(x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 {
        0.0
    } else if x >= 1.0 {
        1.0
    } else {
        // x / GRID < 2⁵⁰: its rounding to an integer and the product are exact.
        (x / GRID).round() * GRID
    }
}

/// The direction of `s` with exact coordinates in the certificates' range:
/// scaled by a power of two to a largest coordinate near 1, each rounded to
/// a multiple of `2⁻⁵⁰`. `None` when `s` is zero, tiny or not finite.
#[inline]
pub(super) fn direction(s: Vec3) -> Option<[f64; 3]> {
    let m = s.amax();
    if !(s.iter().all(|x| x.is_finite()) && m > DIRECTION_FLOOR) {
        return None;
    }
    // A power of two within a factor 2 of 1/m (any scale would do: the
    // certificate holds for whatever direction comes out).
    let scale = 2f64.powi(-(m.log2().round() as i32));
    let q = [s.x, s.y, s.z].map(|x| ((x * scale).clamp(-2.0, 2.0) / GRID).round() * GRID);
    q.iter().any(|&x| x != 0.0).then_some(q)
}

/// The features of a query: their corners' tracks and how to find a witness
/// pair of points.
pub(super) trait Features {
    /// Corners of feature A (the vertex, or edge `a`).
    fn a(&self) -> &[Track];
    /// Corners of feature B (the triangle, or edge `b`).
    fn b(&self) -> &[Track];
    /// Weights of two nearby points at `t` (plain doubles, a hint) and the
    /// difference of those points, B's minus A's.
    fn nearest(&self, t: f64) -> ([f64; 2], Vec3);
    /// A direction that separates the features at `t` by about their
    /// distance (plain doubles, a hint): where the nearest points are
    /// interior to both features, the normal (the triangle's, or the cross
    /// product of the two edges), which is then the same direction and
    /// computed from the features' sides alone; elsewhere the difference of
    /// the nearest points ([`normal_hint`]).
    fn separating_hint(&self, t: f64) -> Vec3 {
        let (w, gap) = self.nearest(t);
        self.separating_hint_from(t, w, gap)
    }
    /// [`Features::separating_hint`] from what [`Features::nearest`] gave
    /// at `t`.
    fn separating_hint_from(&self, t: f64, w: [f64; 2], gap: Vec3) -> Vec3;
    /// The exact difference of the points with weights `w` (already rounded
    /// to valid exact weights) at `t`, certified.
    fn witness(&self, w: [f64; 2], t: f64) -> BoundedVec3;
    /// Valid exact weights near the hint `w`.
    fn valid_weights(w: [f64; 2]) -> [f64; 2];
    /// The relative tracks `U`, `E`, `W` of the plane certificate, each as
    /// `(x, y)` for `y − x` ([`super::plane`]).
    fn plane_tracks(&self) -> [(&Track, &Track); 3];
    /// Within `d` at `t = 0`, decided exactly ([`super::within_at_start`]),
    /// for a query's eight points.
    fn within_at_start(points: [&Vec3; 8], d: f64) -> Option<bool>;
    /// Within `d` at `t = 1`, decided exactly (the same test on the end
    /// positions).
    fn within_at_end(&self, d: f64) -> Option<bool> {
        let (a, b) = (self.a(), self.b());
        let end = |i: usize| match a.get(i) {
            Some(x) => &x[1],
            None => &b[i - a.len()][1],
        };
        Self::within_at_start(std::array::from_fn(|i| end(i % 4)), d)
    }
    /// A corner of A equal to a corner of B at `t = 0` (finite points): the
    /// features touch there, so they are within every `d` at `t = 0`
    /// (the contact solvers' first test, [`crate::narrow_phase::start_contact`]).
    fn touch_at_start(points: [&Vec3; 8]) -> bool;
}

/// Vertex `p` against triangle `f0 f1 f2`.
pub(super) struct VertexFace {
    pub a: [Track; 1],
    pub b: [Track; 3],
}

impl VertexFace {
    /// The tracks of a query's eight points, data set row order
    /// (`p, f0, f1, f2` at `t = 0`, then at `t = 1`).
    pub(super) fn new(q: [&Vec3; 8]) -> VertexFace {
        VertexFace {
            a: [[*q[0], *q[4]]],
            b: [[*q[1], *q[5]], [*q[2], *q[6]], [*q[3], *q[7]]],
        }
    }
}

impl Features for VertexFace {
    fn a(&self) -> &[Track] {
        &self.a
    }

    fn b(&self) -> &[Track] {
        &self.b
    }

    #[inline]
    fn nearest(&self, t: f64) -> ([f64; 2], Vec3) {
        let [f0, f1, f2] = &self.b;
        let at = |x: &Track| relative_hint(f0, x, t);
        point_triangle(&at(&self.a[0]), &Vec3::zeros(), &at(f1), &at(f2))
    }

    #[inline]
    fn separating_hint_from(&self, t: f64, [beta, gamma]: [f64; 2], gap: Vec3) -> Vec3 {
        if beta > 0.0 && gamma > 0.0 && beta + gamma < 1.0 {
            let [f0, f1, f2] = &self.b;
            let (u, v) = (relative_hint(f0, f1, t), relative_hint(f0, f2, t));
            normal_hint(u.cross(&v), u.norm_squared() * v.norm_squared(), gap)
        } else {
            gap
        }
    }

    #[inline]
    fn witness(&self, [beta, gamma]: [f64; 2], t: f64) -> BoundedVec3 {
        let [f0, f1, f2] = &self.b;
        let (beta, gamma) = (Bounded::exact(beta), Bounded::exact(gamma));
        let r0 = relative(&self.a[0], f0, t);
        let e1 = relative(f0, f1, t);
        let e2 = relative(f0, f2, t);
        BoundedVec3(each3(|i| r0.0[i] + beta * e1.0[i] + gamma * e2.0[i]))
    }

    #[inline]
    fn plane_tracks(&self) -> [(&Track, &Track); 3] {
        let [f0, f1, f2] = &self.b;
        [(f0, f1), (f0, f2), (f0, &self.a[0])]
    }

    fn within_at_start(points: [&Vec3; 8], d: f64) -> Option<bool> {
        super::within_at_start::vertex_face(points, d)
    }

    #[inline]
    fn touch_at_start(q: [&Vec3; 8]) -> bool {
        start_contact::vertex_face_touch_at_start(q[0], q[1], q[2], q[3])
    }

    #[inline]
    fn valid_weights(w: [f64; 2]) -> [f64; 2] {
        let [beta, mut gamma] = w.map(weight);
        // Multiples of 2⁻⁵⁰ in [0, 1]: the sum and 1 − β are exact.
        if beta + gamma > 1.0 {
            gamma = 1.0 - beta;
        }
        [beta, gamma]
    }
}

/// Edge `a0 a1` against edge `b0 b1`.
pub(super) struct EdgeEdge {
    pub a: [Track; 2],
    pub b: [Track; 2],
}

impl EdgeEdge {
    /// The tracks of a query's eight points, data set row order
    /// (`a0, a1, b0, b1` at `t = 0`, then at `t = 1`).
    pub(super) fn new(q: [&Vec3; 8]) -> EdgeEdge {
        EdgeEdge {
            a: [[*q[0], *q[4]], [*q[1], *q[5]]],
            b: [[*q[2], *q[6]], [*q[3], *q[7]]],
        }
    }
}

impl Features for EdgeEdge {
    fn a(&self) -> &[Track] {
        &self.a
    }

    fn b(&self) -> &[Track] {
        &self.b
    }

    #[inline]
    fn nearest(&self, t: f64) -> ([f64; 2], Vec3) {
        let ([a0, a1], [b0, b1]) = (&self.a, &self.b);
        let at = |x: &Track| relative_hint(a0, x, t);
        segment_segment(&Vec3::zeros(), &at(a1), &at(b0), &at(b1))
    }

    #[inline]
    fn separating_hint_from(&self, t: f64, [s, r]: [f64; 2], gap: Vec3) -> Vec3 {
        if s > 0.0 && s < 1.0 && r > 0.0 && r < 1.0 {
            let ([a0, a1], [b0, b1]) = (&self.a, &self.b);
            let (ea, eb) = (relative_hint(a0, a1, t), relative_hint(b0, b1, t));
            normal_hint(ea.cross(&eb), ea.norm_squared() * eb.norm_squared(), gap)
        } else {
            gap
        }
    }

    #[inline]
    fn witness(&self, [s, r]: [f64; 2], t: f64) -> BoundedVec3 {
        let ([a0, a1], [b0, b1]) = (&self.a, &self.b);
        let (s, r) = (Bounded::exact(s), Bounded::exact(r));
        let r0 = relative(a0, b0, t);
        let ea = relative(a0, a1, t);
        let eb = relative(b0, b1, t);
        BoundedVec3(each3(|i| r0.0[i] + r * eb.0[i] - s * ea.0[i]))
    }

    #[inline]
    fn plane_tracks(&self) -> [(&Track, &Track); 3] {
        let ([a0, a1], [b0, b1]) = (&self.a, &self.b);
        [(a0, a1), (b0, b1), (a0, b0)]
    }

    #[inline]
    fn valid_weights(w: [f64; 2]) -> [f64; 2] {
        w.map(weight)
    }

    fn within_at_start(points: [&Vec3; 8], d: f64) -> Option<bool> {
        super::within_at_start::edge_edge(points, d)
    }

    #[inline]
    fn touch_at_start(q: [&Vec3; 8]) -> bool {
        start_contact::edge_edge_touch_at_start(q[0], q[1], q[2], q[3])
    }
}

/// A double `≥ |s|` for a direction from [`direction`] (module doc).
#[inline]
fn norm_up(s: [f64; 3]) -> f64 {
    let ss = s[0] * s[0] + s[1] * s[1] + s[2] * s[2];
    ss.sqrt() * (1.0 + 8.0 * UNIT_ROUNDOFF)
}

/// A corner pair's gap along a direction `s`, `g(t) = s·(bⱼ(t) − aᵢ(t))`,
/// certified at `t = 0` and `t = 1`; linear in between (module doc, "Apart
/// on `[l, r]`").
#[derive(Clone, Copy)]
struct Gap {
    at0: Bounded,
    at1: Bounded,
}

impl Gap {
    #[inline]
    fn new(x: &Track, y: &Track, s: &BoundedVec3) -> Gap {
        Gap {
            at0: s.dot(&BoundedVec3::difference(&y[0], &x[0])),
            at1: s.dot(&BoundedVec3::difference(&y[1], &x[1])),
        }
    }

    /// `g(t)` for an exact `t`: `g(0) + t·(g(1) − g(0))`.
    #[inline]
    fn at(&self, t: f64) -> Bounded {
        if t == 0.0 {
            self.at0
        } else if t == 1.0 {
            self.at1
        } else {
            self.at0 + Bounded::exact(t) * (self.at1 - self.at0)
        }
    }
}

/// The gaps of every corner pair along `s` (the first `n` of the array; at
/// most four: a vertex and three corners, or two edges' two each).
#[inline]
fn gaps<F: Features>(f: &F, s: [f64; 3]) -> ([Gap; 4], usize) {
    let s = BoundedVec3(s.map(Bounded::exact));
    let zero = Gap {
        at0: Bounded::exact(0.0),
        at1: Bounded::exact(0.0),
    };
    let mut out = [zero; 4];
    let mut n = 0;
    for x in f.a() {
        for y in f.b() {
            out[n] = Gap::new(x, y, &s);
            n += 1;
        }
    }
    (out, n)
}

/// `d·N` with `N ≥ |s|`, certified.
#[inline]
fn level(d: f64, s: [f64; 3]) -> Bounded {
    Bounded::exact(d) * Bounded::exact(norm_up(s))
}

/// Certified: the features are more than `d` apart at every time of
/// `[l, r]`, by the direction `s` (module doc).
fn apart_along<F: Features>(f: &F, s: [f64; 3], d: f64, l: f64, r: f64) -> bool {
    let dn = level(d, s);
    let (gaps, n) = gaps(f, s);
    gaps[..n]
        .iter()
        .all(|g| (g.at(l) - dn).certainly_positive() && (g.at(r) - dn).certainly_positive())
}

/// Certified: the features are more than `d` apart at every time of
/// `[l, r]`, along the separating direction at mid-interval
/// ([`Features::separating_hint`]).
pub(super) fn apart<F: Features>(f: &F, d: f64, l: f64, r: f64) -> bool {
    direction(f.separating_hint(0.5 * (l + r))).is_some_and(|s| apart_along(f, s, d, l, r))
}

/// The grid of advancement times: the search's narrowest width
/// ([`super::search::WIDTH`], `2⁻⁴⁰`).
pub(super) const ADVANCE_GRID: f64 = super::search::WIDTH;

/// The greatest time on the [`ADVANCE_GRID`] at or below `t`.
#[inline]
pub(super) fn advance_grid_below(t: f64) -> f64 {
    (t / ADVANCE_GRID).floor() * ADVANCE_GRID
}

/// Conservative advancement from `l`: a time `t₁ ∈ (l, 1]`, a multiple of
/// `2⁻⁴⁰`, with the features certified apart on all of `[l, t₁]`, or `None`.
///
/// Along the nearest-point direction `s` at `l`, each corner pair's gap
/// `g(t) = s·(bⱼ(t) − aᵢ(t))` is linear in `t`; in plain doubles, the first
/// time some gap falls to `d·|s|` is estimated from `g(l)` and `g(1)`
/// (never after the time of impact, since `g/|s|` never exceeds the
/// distance), `t₁` is taken 95 % of the way there, and the interval is
/// certified as [`apart_along`] does, from the same gaps. The estimate is
/// only a proposal; the certificate decides.
pub(super) fn advance<F: Features>(f: &F, d: f64, l: f64) -> Option<f64> {
    let (_, gap) = f.nearest(l);
    let s = direction(gap)?;
    let dn = level(d, s);
    let (gaps, n) = gaps(f, s);
    let gaps = &gaps[..n];
    let mut at_l = [Bounded::exact(0.0); 4];
    let mut cross = f64::INFINITY;
    for (g, at_l) in gaps.iter().zip(&mut at_l) {
        *at_l = g.at(l) - dn;
        let (g0, g1) = (at_l.v, g.at1.v - dn.v);
        if g0.is_nan() || g0 <= 0.0 {
            return None;
        }
        // A gap that reaches `d·|s|` exactly at `t = 1` (features arriving
        // exactly `d` apart) counts as crossing there: the steps then close
        // in on 1 rather than try all of `[l, 1]` at once and fail.
        if g1 <= 0.0 {
            cross = cross.min(l + g0 / (g0 - g1) * (1.0 - l));
        }
    }
    let t1 = if cross > 1.0 {
        1.0
    } else {
        advance_grid_below(l + 0.95 * (cross - l))
    };
    let certified = t1 > l
        && t1 <= 1.0
        && gaps
            .iter()
            .zip(&at_l)
            .all(|(g, at_l)| at_l.certainly_positive() && (g.at(t1) - dn).certainly_positive());
    certified.then_some(t1)
}

/// Certified: the features are more than `d` apart over all of `[0, 1]`
/// along a coordinate axis (their swept boxes, pair by pair).
pub(super) fn apart_on_an_axis<F: Features>(f: &F, d: f64) -> bool {
    (0..3).any(|axis| {
        [1.0, -1.0].into_iter().any(|sign| {
            let mut s = [0.0; 3];
            s[axis] = sign;
            apart_along(f, s, d, 0.0, 1.0)
        })
    })
}

/// The least coordinate bound [`shorter_than`] (and the plane certificate's
/// norm) squares, `2⁻⁵⁰⁰` (its square is normal).
pub(super) const COORD_FLOOR: f64 = f64::from_bits((1023 - 500) << 52);

/// Certified: `|Δ| < d`, for `d` a positive double in the filter range
/// (module doc).
#[inline]
fn shorter_than(delta: &BoundedVec3, d: f64) -> bool {
    let mut sum = 0.0;
    for c in &delta.0 {
        // `a ≥ |exact coordinate|`, and `a ≥ 2⁻⁵⁰⁰` so that `a²` is normal.
        let a = (c.v.abs() + c.error_bound()).next_up().max(COORD_FLOOR);
        sum += a * a;
    }
    sum * (1.0 + 8.0 * UNIT_ROUNDOFF) < d * d * (1.0 - 8.0 * UNIT_ROUNDOFF)
}

/// Certified: at time `t` the features are less than `d` apart.
pub(super) fn within<F: Features>(f: &F, d: f64, t: f64) -> bool {
    let (w, _) = f.nearest(t);
    shorter_than(&f.witness(F::valid_weights(w), t), d)
}

/// Features at rest (every corner at the same place at `t = 0` and `t = 1`,
/// hence at every time): `Some(true)` when certified less than `d_in` apart
/// ("Within at `t`" at `t = 0`), `Some(false)` when certified more than
/// `d_out` apart ("Apart on `[l, r]`" with `l = r = 0`: each corner pair's
/// gap is constant in time, so the one comparison at `t = 0` covers the
/// whole step), `None` when neither. One nearest-point hint serves both.
pub(super) fn at_rest_within<F: Features>(f: &F, d_out: f64, d_in: Option<f64>) -> Option<bool> {
    let (w, gap) = f.nearest(0.0);
    if d_in.is_some_and(|d| shorter_than(&f.witness(F::valid_weights(w), 0.0), d)) {
        return Some(true);
    }
    let s = direction(f.separating_hint_from(0.0, w, gap))?;
    let dn = level(d_out, s);
    let s = BoundedVec3(s.map(Bounded::exact));
    let apart = f.a().iter().all(|x| {
        f.b()
            .iter()
            .all(|y| (s.dot(&BoundedVec3::difference(&y[0], &x[0])) - dn).certainly_positive())
    });
    apart.then_some(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directions_and_weights_are_on_the_grid() {
        assert_eq!(
            direction(Vec3::new(3.0, 0.0, -1.5)),
            Some([0.75, 0.0, -0.375])
        );
        assert_eq!(direction(Vec3::zeros()), None);
        assert_eq!(direction(Vec3::new(f64::NAN, 1.0, 0.0)), None);
        let s = direction(Vec3::new(1e-200, 3e-210, 0.0)).unwrap();
        assert!(
            s.iter()
                .all(|x| (x / GRID).fract() == 0.0 && x.abs() <= 2.0)
        );
        assert_eq!(COORD_FLOOR, 2f64.powi(-500));
        let n = norm_up([0.75, 0.0, 1.0]);
        assert!(n > 1.25 && n < 1.25 + 1e-14);
        assert_eq!(weight(f64::NAN), 0.0);
        assert_eq!(weight(1.5), 1.0);
        assert_eq!(weight(1e-300), 0.0);
        let w = weight(0.7);
        assert_eq!(VertexFace::valid_weights([0.7, 0.7]), [w, 1.0 - w]);
        assert_eq!(w + (1.0 - w), 1.0);
    }
}
