//! Motion in parallel planes: the four points of a query lie in one plane at
//! `t = 0` and in a parallel one (or the same) at `t = 1`, so they lie in
//! the plane `m·x = (1 − t)·a + t·b` at every time, for the planes' common
//! normal `m` (a flat sheet at rest or moving along its normal; a
//! two-dimensional simulation embedded in three). The coplanarity cubic
//! vanishes identically, and contact is a question in two coordinates
//! `(i, j)`: dropping the third, `k`, with `m_k ≠ 0`, maps each of those
//! planes one to one onto the coordinate plane, keeping points, segments,
//! triangles and their contacts (docs/design.md §9, items 4 and 7; the
//! inside conditions are Provot's, 1997, as in [`super::conditions`]).
//! Usually the planes are parallel to two axes (the points share
//! coordinate `k`, found by comparing coordinates); any others are found
//! exactly ([`parallel_planes`]).
//!
//! There the coplanar tier's conditions `cᵢ·n` ([`super::coplanar`]) are
//! the products `γᵢ·ν`, times a positive constant, of the scalar cross
//! products `γᵢ = cᵢ·e_k` (those of the projected points) and `ν = n·e_k`:
//! every cross product of differences in the plane is a multiple of `m`, so
//! `cᵢ·n = γᵢ·ν·|m|²/m_k²`. `ν` vanishes wherever the triangle turns over
//! in the plane (or the edges turn parallel): at that time every `γᵢ·ν` is zero,
//! no interval around it can be excluded, and the tier defers the query.
//! Here contact is decided on the `γᵢ` alone, which are quadratics in `t`
//! (each a cross product of two linearly moving differences). With
//! `Σγᵢ = ν` for vertex–face, and `γ₁ + γ₂ = γ₃ + γ₄ = ν` for edge–edge:
//!
//! - *all `γᵢ ≥ 0` with one `> 0`, or all `≤ 0` with one `< 0`*: then `ν ≠ 0`
//!   has their sign, and the vertex lies in the closed triangle (the
//!   closed segments cross); this is the coplanar tier's `cᵢ·n ≥ 0`;
//! - *one `γᵢ > 0` and one `γⱼ < 0`*: no contact. Where `ν ≠ 0` this is the
//!   same criterion; where `ν = 0`, the triangle's corners lie on one line
//!   and a point with `γ`'s of both signs is off it (the segments lie on
//!   distinct parallel lines, or one is a point off the other's line);
//! - *all `γᵢ = 0`*: the four points on one line at that time, undecided.
//!
//! The earliest contact is searched as in the coplanar tier (increasing
//! subdivision of `[0, 1]`, Bernstein coefficients, Lane & Riesenfeld 1981)
//! with that rule ([`coplanar::SameSign`]); an interval is excluded when one
//! condition is certainly positive on it and another certainly negative.
//! The verdict at `t = 0` is exact: the `γᵢ(0)` are 2×2 determinants of
//! coordinate differences of the input doubles, signed by [`det2_sign`],
//! which decides queries that touch exactly at the start (a vertex on an
//! edge of a flat mesh at rest). Where a condition is not signed at `t = 1`
//! in floating point, the verdict there, exact the same way, closes the
//! search's bracket when it is a contact (an edge's end landing exactly on
//! the other edge: the condition that reaches zero there is never
//! certified at an interval's end). Three kinds of instant at which every
//! `γᵢ` vanishes are found exactly and, where they are a contact, close the
//! search's bracket: two points coinciding ([`first_coincidence`]), all
//! four on one line parallel to an axis with the features meeting on it
//! ([`contact_on_a_line`]), and, once the float search has left the query
//! undecided, all four on a line of any direction where one `γᵢ` is linear
//! in `t` ([`contact_on_any_line`]: features sliding without turning).
//! Requires every coordinate in the filter range
//! ([`crate::math::in_filter_range`]).

use std::cmp::Ordering;

use super::certified::Certified;
use super::collinear::{Time, bracket};
use super::coplanar::{self, Rule, SameSign};
use super::det2::{Diff, det2_sign};
use super::roots::{Bracket, Scan};
use crate::math::{Bounded, BoundedDd, BoundedVec3, I768, Vec3, at_least_ratio, on_common_scale};

/// Two coordinate axes `(i, j)`, `j = i + 1` cyclically: the plane of the
/// coordinates kept when coordinate `k = i + 2` is dropped.
pub(super) type Axes = (usize, usize);

/// The coordinates in which the query's motion is decided, when its four
/// points move in parallel planes (a fixed plane among them) that dropping
/// one coordinate maps one to one onto the other two: first a plane
/// parallel to the axes ([`common_plane`], by comparing coordinates), then
/// any other ([`parallel_planes`]). Such points are coplanar at every time
/// (the coplanarity cubic vanishes identically). Every coordinate must be
/// in the filter range.
pub(super) fn plane_axes(points: &[&Vec3; 8]) -> Option<Axes> {
    common_plane(points).or_else(|| parallel_planes(points))
}

/// The two axes other than one, `k`, in which the first four points share
/// a coordinate and the last four share one.
fn common_plane(points: &[&Vec3; 8]) -> Option<Axes> {
    let shared = |k: usize, ps: &[&Vec3]| ps[1..].iter().all(|p| p[k] == ps[0][k]);
    (0..3)
        .find(|&k| shared(k, &points[..4]) && shared(k, &points[4..]))
        .map(|k| ((k + 1) % 3, (k + 2) % 3))
}

/// The two axes other than `k`, for a query whose four points lie in one
/// plane at `t = 0` and in a parallel plane (or the same) at `t = 1`, not
/// parallel to axis `k`: then at every time they lie in one plane of that
/// family (`n·x = (1 − t)·a + t·b` for the common normal `n`), which the
/// projection that drops coordinate `k` maps one to one onto the other two
/// coordinates, and the question is the same there (module doc). `k` is
/// the axis of the normal's largest component.
///
/// The six differences `pᵢ − p₀` at `t = 0` and at `t = 1` span at most a
/// plane, with normal `n` the first non-zero cross product of two of them;
/// decided exactly in integers on the common scale of the coordinates
/// ([`crate::math::on_common_scale`], [`I768`]), after a filter in
/// [`Bounded`] doubles that rejects the usual case, a triangle that tilts
/// out of its plane (a triple product of differences certified non-zero).
/// `None` when the six are not in one plane, when they all lie on one line
/// (then no normal is fixed; the collinear tier is for that), or when the
/// coordinates span too many binary orders of magnitude for that scale
/// (then the other tiers decide).
fn parallel_planes(points: &[&Vec3; 8]) -> Option<Axes> {
    // Difference `i`: point `p` less point `base` (the first at its end).
    let ends = |i: usize| {
        let base = if i < 3 { 0 } else { 4 };
        (base + 1 + i % 3, base)
    };
    let bounded: [BoundedVec3; 6] = std::array::from_fn(|i| {
        let (p, base) = ends(i);
        BoundedVec3::difference(points[p], points[base])
    });
    let certainly_non_zero = |x: Bounded| x.sign().is_some_and(|s| s != 0);
    let normal = PAIRS
        .iter()
        .map(|&(a, b)| bounded[a].cross(&bounded[b]))
        .find(|n| n.0.into_iter().any(certainly_non_zero));
    if normal.is_some_and(|n| bounded.iter().any(|z| certainly_non_zero(n.dot(z)))) {
        return None;
    }
    let xs: [f64; 24] = std::array::from_fn(|i| points[i / 3][i % 3]);
    let v = on_common_scale(xs)?;
    let exact: [[i128; 3]; 6] = std::array::from_fn(|i| {
        let (p, base) = ends(i);
        std::array::from_fn(|c| v[3 * p + c] - v[3 * base + c])
    });
    let (pair, n) = PAIRS
        .iter()
        .map(|&(a, b)| ((a, b), I768::cross(&exact[a], &exact[b])))
        .find(|(_, n)| n.iter().any(|c| c.signum() != 0))?;
    let dot = |z: &[i128; 3]| n[0].mul_i128(z[0]) + n[1].mul_i128(z[1]) + n[2].mul_i128(z[2]);
    // The pair's own differences are normal to `n` by construction.
    let others = (0..6).filter(|&i| i != pair.0 && i != pair.1);
    if others.into_iter().any(|i| dot(&exact[i]).signum() != 0) {
        return None;
    }
    // The axis of the normal's largest component, as the doubles have it
    // (any axis with a non-zero component would do; the largest keeps the
    // projected triangles widest).
    let (x, y) = (bounded[pair.0].0, bounded[pair.1].0);
    let estimate = |c: usize| {
        let (i, j) = ((c + 1) % 3, (c + 2) % 3);
        (x[i].v * y[j].v - x[j].v * y[i].v).abs()
    };
    let mut axes = [0, 1, 2];
    axes.sort_by(|&a, &b| estimate(b).total_cmp(&estimate(a)));
    let k = axes.into_iter().find(|&k| n[k].signum() != 0)?;
    Some(((k + 1) % 3, (k + 2) % 3))
}

/// The pairs of [`parallel_planes`]'s six differences whose cross product
/// may give the normal: each pair at one end, then across the ends.
const PAIRS: [(usize, usize); 15] = [
    (0, 1),
    (0, 2),
    (1, 2),
    (3, 4),
    (3, 5),
    (4, 5),
    (0, 3),
    (0, 4),
    (0, 5),
    (1, 3),
    (1, 4),
    (1, 5),
    (2, 3),
    (2, 4),
    (2, 5),
];

/// A moving point in the plane's two coordinates: positions at `t = 0` and
/// `t = 1`.
type Track = [[f64; 2]; 2];

/// The scalar cross product `(b − a) × (p − a)` of moving points, as
/// Bernstein coefficients of degree 2 on `[0, 1]`: with `x = b − a` and
/// `y = p − a` linear, `x × y = x₀×y₀ (1−t)² + (x₀×y₁ + x₁×y₀)(1−t)t + x₁×y₁ t²`.
#[inline]
fn side<N: Certified>(a: &Track, b: &Track, p: &Track) -> [N; 3] {
    let d = |u: &Track, v: &Track, end: usize| [0, 1].map(|i| N::difference(u[end][i], v[end][i]));
    let (x0, x1) = (d(b, a, 0), d(b, a, 1));
    let (y0, y1) = (d(p, a, 0), d(p, a, 1));
    let cross = |x: &[N; 2], y: &[N; 2]| x[0] * y[1] - x[1] * y[0];
    [
        cross(&x0, &y0),
        (cross(&x0, &y1) + cross(&x1, &y0)).half(),
        cross(&x1, &y1),
    ]
}

/// The exact sign of `(b − a) × (p − a)` at `t = 0` (`end` 0) or `t = 1`
/// (`end` 1).
#[inline]
fn side_at(a: &Track, b: &Track, p: &Track, end: usize) -> i8 {
    let d = |u: &Track, v: &Track, i: usize| Diff::of(u[end][i], v[end][i]);
    match det2_sign(d(b, a, 0), d(p, a, 1), d(b, a, 1), d(p, a, 0)) {
        Ordering::Less => -1,
        Ordering::Equal => 0,
        Ordering::Greater => 1,
    }
}

/// The tracks of the four points in the plane's coordinates `(i, j)`.
fn tracks(points: &[&Vec3; 8], i: usize, j: usize) -> [Track; 4] {
    std::array::from_fn(|p| {
        [
            [points[p][i], points[p][j]],
            [points[p + 4][i], points[p + 4][j]],
        ]
    })
}

/// The features of a query, as indices into its four tracks.
struct Features<const K: usize> {
    /// The triples `(a, b, p)` whose `side` are the conditions `γᵢ`.
    conditions: [[usize; 3]; K],
    /// The pairs of tracks whose coincidence is a contact.
    touching: &'static [[usize; 2]],
    /// Whether the features meet when all four tracks lie on one line,
    /// given `order(p, q)`, the sign of `p − q` along it.
    meet_on_a_line: fn(&dyn Fn(usize, usize) -> Ordering) -> bool,
}

/// Vertex–face, tracks `[v, f0, f1, f2]`: the conditions
/// `(f1 − f0) × (v − f0)`, `(f2 − f1) × (v − f1)`, `(f0 − f2) × (v − f2)`;
/// the vertex at a corner; on a line, the vertex neither after nor before
/// every corner.
const VERTEX_FACE: Features<3> = Features {
    conditions: [[1, 2, 0], [2, 3, 0], [3, 1, 0]],
    touching: &[[0, 1], [0, 2], [0, 3]],
    meet_on_a_line: |order| {
        let s = [1, 2, 3].map(|f| order(0, f));
        s.iter().any(|&x| x != Ordering::Greater) && s.iter().any(|&x| x != Ordering::Less)
    },
};

/// Edge–edge, tracks `[a0, a1, b0, b1]`: the conditions
/// `(b0 − a0) × (b1 − b0) = side(b0, b1, a0)`,
/// `(a1 − b0) × (b1 − b0) = side(b1, b0, a1)`,
/// `(b0 − a0) × (a1 − a0) = side(a1, a0, b0)`,
/// `(a1 − a0) × (b1 − a0) = side(a0, a1, b1)`; an endpoint at an endpoint;
/// on a line, neither segment wholly before the other.
const EDGE_EDGE: Features<4> = Features {
    conditions: [[2, 3, 0], [3, 2, 1], [1, 0, 2], [0, 1, 3]],
    touching: &[[0, 2], [0, 3], [1, 2], [1, 3]],
    meet_on_a_line: |order| {
        let s = [(0, 2), (0, 3), (1, 2), (1, 3)].map(|(a, b)| order(a, b));
        !(s.iter().all(|&x| x == Ordering::Less) || s.iter().all(|&x| x == Ordering::Greater))
    },
};

/// Contact under motion in the planes that `(i, j)` project one to one
/// ([`plane_axes`]): the search's outcome (module doc).
fn decide<const K: usize>(points: [&Vec3; 8], (i, j): Axes, features: &Features<K>) -> Scan {
    let triples = &features.conditions;
    let t = tracks(&points, i, j);
    let verdict_at = |end: usize| {
        SameSign::at_point(&triples.map(|[a, b, p]| Some(side_at(&t[a], &t[b], &t[p], end))))
    };
    let start = verdict_at(0);
    match start {
        Some(true) => Scan::Contact(Bracket { lo: 0.0, hi: 0.0 }),
        None => Scan::Undecided,
        Some(false) => {
            let fast = triples.map(|[a, b, p]| side::<Bounded>(&t[a], &t[b], &t[p]));
            // A touch exactly at `t = 1` (an edge's end landing on the other
            // edge) leaves a condition unsigned there, and no interval's end
            // certifies it: signed exactly, it is a time by which a contact
            // is certain.
            let at_end = fast.iter().any(|c| c[2].sign().is_none()) && verdict_at(1) == Some(true);
            let known = [
                first_coincidence(&t, features.touching),
                contact_on_a_line(&t, features.meet_on_a_line),
                at_end.then_some(1.0),
            ]
            .into_iter()
            .flatten()
            .reduce(f64::min);
            // The search in doubles, then in double-doubles.
            let search = |known: Option<f64>| {
                let scan = coplanar::earliest_after::<Bounded, _, SameSign, K>(fast, start, known);
                if !matches!(scan, Scan::Undecided) {
                    return scan;
                }
                let precise = triples.map(|[a, b, p]| side::<BoundedDd>(&t[a], &t[b], &t[p]));
                coplanar::earliest_after::<BoundedDd, _, SameSign, K>(precise, start, known)
            };
            match search(known) {
                Scan::Undecided => {
                    // Rare, so looked for only now: four points on a line
                    // parallel to no axis, a contact that closes the
                    // bracket sooner than any known before.
                    let line = contact_on_any_line(&t, triples, features.meet_on_a_line);
                    match line.filter(|&l| known.is_none_or(|k| l < k)) {
                        Some(sooner) => search(Some(sooner)),
                        None => Scan::Undecided,
                    }
                }
                decided => decided,
            }
        }
    }
}

/// The upper end of a bracket of the earliest time in `(0, 1]` at which the
/// tracks of a pair in `pairs` coincide, if any. `w = p − q` is linear;
/// when it is not constant, it vanishes at a time in `(0, 1]` iff
/// `w(0) × w(1) = 0` (exactly) and a coordinate in which it is not
/// constant has its root there (`w(0) ≠ 0`, `w(1)` zero or of the other
/// sign); then `w(1) = λ·w(0)` with `λ ≤ 0` and every coordinate vanishes
/// at that root. (A coincidence at `t = 0`, constant or not, is the start
/// verdict's.)
/// A vertex at a corner of the triangle, or an endpoint of one edge at
/// one of the other, is a contact: the search's conditions all vanish at
/// that instant, and no right end of an interval can certify it.
fn first_coincidence(t: &[Track; 4], pairs: &[[usize; 2]]) -> Option<f64> {
    pairs
        .iter()
        .filter_map(|&[p, q]| {
            let w = |end: usize| [0, 1].map(|i| Diff::of(t[p][end][i], t[q][end][i]));
            let (w0, w1) = (w(0), w(1));
            if det2_sign(w0[0], w1[1], w0[1], w1[0]) != Ordering::Equal {
                return None;
            }
            let c = (0..2).find(|&c| w0[c].pair() != w1[c].pair())?;
            let (g0, g1) = (w0[c], w1[c]);
            // A root in (0, 1]: `g0 ≠ 0` and `g1` zero or of the other sign.
            (g0.sign() != Ordering::Equal && g1.sign() != g0.sign())
                .then(|| bracket(Time::Root { g0, g1 }))
                .flatten()
                .map(|toi| toi.upper)
        })
        .reduce(f64::min)
}

/// The upper end of a bracket of a time in `(0, 1]` at which the four
/// tracks lie on one line parallel to a coordinate axis of the plane and
/// the features meet on it, if there is one. Every `γᵢ` vanishes at such an
/// instant (two rows of a flat grid crossing each other), so no interval
/// around it can be excluded or certified.
///
/// In coordinate `c`, the differences `g = (pᵢ − p₀)_c` are linear; the
/// points share that coordinate at a time `τ` iff every `g` that is not
/// identically zero has its root at `τ` (compared exactly). There the
/// points are ordered by the other coordinate `o`: for `e = (p − q)_o`,
/// `e(τ) = (e₁·g₀ − e₀·g₁)/(g₀ − g₁)` for a root `τ = g₀/(g₀ − g₁)`, whose
/// denominator has the sign of `g₀`; `meet` decides from that order
/// ([`Features::meet_on_a_line`]).
fn contact_on_a_line(
    t: &[Track; 4],
    meet: fn(&dyn Fn(usize, usize) -> Ordering) -> bool,
) -> Option<f64> {
    (0..2)
        .filter_map(|c| {
            let g = |i: usize| {
                let end = |e: usize| Diff::of(t[i][e][c], t[0][e][c]);
                (end(0), end(1))
            };
            let mut root: Option<Time> = None;
            for (g0, g1) in (1..4).map(g) {
                if g0.sign() == Ordering::Equal && g1.sign() == Ordering::Equal {
                    continue;
                }
                // A root in (0, 1], the same for every such difference.
                if g0.sign() == Ordering::Equal || g1.sign() == g0.sign() {
                    return None;
                }
                let this = Time::Root { g0, g1 };
                match root {
                    Some(r) if r.cmp(&this) != Ordering::Equal => return None,
                    _ => root = Some(this),
                }
            }
            let Time::Root { g0, g1 } = root? else {
                return None;
            };
            let o = 1 - c;
            // The sign of (p − q)_o at the root.
            let order = |p: usize, q: usize| {
                let (e0, e1) = (
                    Diff::of(t[p][0][o], t[q][0][o]),
                    Diff::of(t[p][1][o], t[q][1][o]),
                );
                let s = det2_sign(e1, g0, e0, g1);
                if g0.sign() == Ordering::Less {
                    s.reverse()
                } else {
                    s
                }
            };
            meet(&order)
                .then(|| bracket(Time::Root { g0, g1 }))
                .flatten()
                .map(|toi| toi.upper)
        })
        .reduce(f64::min)
}

/// The upper end of a bracket of a time in `(0, 1]` at which the four
/// tracks lie on one line of any direction and the features meet on it,
/// found where one condition `γ` is linear in `t`: two flat sheets sliding
/// in a plane without turning, whose edges on a diagonal line come to lie
/// end to end. Every `γᵢ` vanishes at such an instant, so the search can
/// neither exclude nor certify the intervals around it; it runs only after
/// the search has left a query undecided.
///
/// A linear `γ` that is not constant vanishes only at its root `τ = p/q`,
/// so `τ` is the one candidate: it must lie in `(0, 1]` and every other
/// `γᵢ` must vanish there (`γᵢ(τ)·q² = 0`). With all of them zero the four
/// points lie on one line (for edge–edge, `b0` and `b1` on `a`'s line, or
/// `a` a point on `b`'s; for vertex–face, the triangle's corners on one
/// line with the vertex), and they are ordered along it by a coordinate in
/// which they are not all equal (`q·x(τ) = q·x₀ + p·(x₁ − x₀)`).
///
/// Exact, in integers on the common scale of the coordinates
/// ([`on_common_scale`], below `2¹⁰⁰`): differences below `2¹⁰²`, the
/// conditions' coefficients, `p` and `q` below `2²⁰⁶`, `γ(τ)·q²` below
/// `2⁶²⁰` and `q·x(τ)` below `2³¹⁰`, inside [`I768`]. `None` where no
/// condition is linear (turning features, whose common root need not be
/// rational), where the coordinates do not fit that scale, or where `τ` is
/// too small to bracket in that range.
fn contact_on_any_line<const K: usize>(
    t: &[Track; 4],
    conditions: &[[usize; 3]; K],
    meet: fn(&dyn Fn(usize, usize) -> Ordering) -> bool,
) -> Option<f64> {
    let xs: [f64; 16] = std::array::from_fn(|i| t[i / 4][(i / 2) % 2][i % 2]);
    let v = on_common_scale(xs)?;
    // Track `p`'s coordinate `c` at `t = 0` and its change over the step.
    let at = |p: usize, c: usize| v[4 * p + c];
    let change = |p: usize, c: usize| v[4 * p + 2 + c] - v[4 * p + c];
    let cross = |x: [i128; 2], y: [i128; 2]| I768::product(x[0], y[1]) - I768::product(x[1], y[0]);
    // `γ = (b − a) × (x − a) = c₀ + c₁t + c₂t²`.
    let gamma = conditions.map(|[a, b, x]| {
        let (u0, du) = (
            [0, 1].map(|c| at(b, c) - at(a, c)),
            [0, 1].map(|c| change(b, c) - change(a, c)),
        );
        let (w0, dw) = (
            [0, 1].map(|c| at(x, c) - at(a, c)),
            [0, 1].map(|c| change(x, c) - change(a, c)),
        );
        [cross(u0, w0), cross(u0, dw) + cross(du, w0), cross(du, dw)]
    });
    let [c0, c1, _] = gamma
        .iter()
        .find(|[_, c1, c2]| c2.signum() == 0 && c1.signum() != 0)?;
    let (p, q) = if c1.signum() > 0 {
        (-*c0, *c1)
    } else {
        (*c0, -*c1)
    };
    if p.signum() <= 0 || (q - p).signum() < 0 {
        return None;
    }
    if gamma
        .iter()
        .any(|&[c0, c1, c2]| (c0 * q * q + c1 * p * q + c2 * p * p).signum() != 0)
    {
        return None;
    }
    let position: [[I768; 2]; 4] =
        std::array::from_fn(|i| [0, 1].map(|c| q.mul_i128(at(i, c)) + p.mul_i128(change(i, c))));
    let c = usize::from((1..4).all(|i| position[i][0] == position[0][0]));
    let order = |a: usize, b: usize| (position[a][c] - position[b][c]).signum().cmp(&0);
    if !meet(&order) {
        return None;
    }
    // The least double at or above `τ`, stepped to from an estimate.
    let mut upper = (p.approx() / q.approx()).min(1.0);
    let above = |x: f64| x > 0.0 && at_least_ratio(x, p, q) == Some(true);
    if above(upper) {
        for _ in 0..MAX_STEPS {
            let down = upper.next_down();
            if !above(down) {
                return Some(upper);
            }
            upper = down;
        }
    } else {
        for _ in 0..MAX_STEPS {
            upper = upper.next_up();
            if above(upper) {
                return Some(upper);
            }
        }
    }
    None
}

/// How many neighbouring doubles [`contact_on_any_line`] steps through from
/// its estimate of `τ` (good to a few units in the last place).
const MAX_STEPS: usize = 16;

/// Vertex–face contact for motion in the planes that `axes` project one to
/// one ([`plane_axes`]; points in data set order).
pub(super) fn vertex_face(points: [&Vec3; 8], axes: Axes) -> Scan {
    decide(points, axes, &VERTEX_FACE)
}

/// Edge–edge contact for motion in the planes that `axes` project one to
/// one ([`plane_axes`]; points in data set order).
pub(super) fn edge_edge(points: [&Vec3; 8], axes: Axes) -> Scan {
    decide(points, axes, &EDGE_EDGE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::narrow_phase::EXACT_TOI_WIDTH;

    fn v(x: f64, y: f64, z: f64) -> Vec3 {
        Vec3::new(x, y, z)
    }

    fn refs(q: &[Vec3; 8]) -> [&Vec3; 8] {
        std::array::from_fn(|i| &q[i])
    }

    /// The planar tier's vertex–face verdict, `None` when the points move
    /// in no parallel planes.
    fn vf(q: &[Vec3; 8]) -> Option<Scan> {
        plane_axes(&refs(q)).map(|axes| vertex_face(refs(q), axes))
    }

    /// [`vf`] for edge–edge.
    fn ee(q: &[Vec3; 8]) -> Option<Scan> {
        plane_axes(&refs(q)).map(|axes| edge_edge(refs(q), axes))
    }

    #[test]
    fn tilted_parallel_planes_are_projected_along_the_normals_largest_axis() {
        // The plane z = x + 1/2 at t = 0 and z = x + 3 at t = 1 (normal
        // (1, 0, −1), the tie broken towards x): decided in (y, z).
        let tilt = |x: f64, y: f64, c: f64| v(x, y, x + c);
        let q = [
            tilt(0.25, 0.25, 0.5),
            tilt(0.0, 0.0, 0.5),
            tilt(1.0, 0.0, 0.5),
            tilt(0.0, 1.0, 0.5),
            tilt(0.25, 0.25, 3.0),
            tilt(0.0, 0.0, 3.0),
            tilt(1.0, 0.0, 3.0),
            tilt(0.0, 1.0, 3.0),
        ];
        assert_eq!(plane_axes(&refs(&q)), Some((1, 2)));
        assert_eq!(vf(&q), Some(Scan::Contact(Bracket { lo: 0.0, hi: 0.0 })));
        // Steeper (z = 4x): the normal (4, 0, −1) is largest in x as well.
        let steep: [Vec3; 8] = std::array::from_fn(|i| v(q[i].x, q[i].y, 4.0 * q[i].x));
        assert_eq!(plane_axes(&refs(&steep)), Some((1, 2)));
        // Flatter (z = x/4): dropped z, decided in (x, y).
        let flat: [Vec3; 8] = std::array::from_fn(|i| v(q[i].x, q[i].y, 0.25 * q[i].x));
        assert_eq!(plane_axes(&refs(&flat)), Some((0, 1)));
        // The vertex moved off the triangle within the plane: no contact.
        let mut off = q;
        off[0] = tilt(2.0, 2.0, 0.5);
        off[4] = tilt(2.0, 2.5, 3.0);
        assert_eq!(vf(&off), Some(Scan::NoContact));
    }

    #[test]
    fn a_plane_that_turns_or_a_line_fixes_no_projection() {
        // Coplanar at both ends, in z = 0 and then in z = x: not parallel.
        let (a, b, c) = (v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(0.0, 1.0, 0.0));
        let on = |p: Vec3| v(p.x, p.y, p.x);
        let q = [
            v(0.25, 0.25, 0.0),
            a,
            b,
            c,
            on(v(0.25, 0.25, 0.0)),
            on(a),
            on(b),
            on(c),
        ];
        assert_eq!(parallel_planes(&refs(&q)), None);
        // All eight on one line (no normal is fixed).
        let line: [Vec3; 8] = std::array::from_fn(|i| {
            let s = i as f64;
            v(s, 2.0 * s, 3.0 * s)
        });
        assert_eq!(parallel_planes(&refs(&line)), None);
        // One point a rounding off the plane z = x.
        let mut q = [a, b, c, v(0.5, 0.5, 0.0), a, b, c, v(0.5, 0.5, 0.0)].map(on);
        q[7].z = q[7].z.next_up();
        assert_eq!(parallel_planes(&refs(&q)), None);
        q[7].z = q[7].x;
        assert_eq!(parallel_planes(&refs(&q)), Some((1, 2)));
    }

    #[test]
    fn a_triangle_turning_over_beside_the_vertex_is_decided() {
        // In the plane z = 0 (at both ends), corner f2 crosses the line
        // through f0 and f1 at t = 1/2 (the triangle turns over; the
        // coplanar tier's conditions all vanish there), while the vertex
        // stays far to the left.
        let (f0, f1) = (v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0));
        let q = [
            v(-3.0, 0.5, 0.0),
            f0,
            f1,
            v(0.5, 1.0, 0.0),
            v(-3.0, 0.25, 0.0),
            f0,
            f1,
            v(0.5, -1.0, 0.0),
        ];
        assert_eq!(vf(&q), Some(Scan::NoContact));
        let conditions = coplanar::vertex_face::<Bounded>(refs(&q));
        assert_eq!(coplanar::earliest(conditions), Scan::Undecided);
        // The same, moved along the plane's normal (z = 2 → z = 3).
        let lift = |p: Vec3, z: f64| v(p.x, p.y, z);
        let lifted: [Vec3; 8] = std::array::from_fn(|i| lift(q[i], if i < 4 { 2.0 } else { 3.0 }));
        assert_eq!(vf(&lifted), Some(Scan::NoContact));
        // A vertex inside the triangle at the start: contact at 0.
        let q = [
            v(0.5, 0.5, 0.0),
            f0,
            f1,
            q[3],
            v(0.5, 0.5, 0.0),
            f0,
            f1,
            q[7],
        ];
        assert_eq!(vf(&q), Some(Scan::Contact(Bracket { lo: 0.0, hi: 0.0 })));
    }

    #[test]
    fn edges_turning_parallel_apart_are_decided() {
        // In the plane y = 1 (coordinates x, z), edge b turns about its
        // midpoint (2, 0) from slope +1 to −1: at t = 1/2 it is parallel
        // to edge a, the segment x = 0 from z = 0 to 1, and it stays at
        // least 1.5 to the right of a all along.
        let (a0, a1) = (v(0.0, 1.0, 0.0), v(0.0, 1.0, 1.0));
        let q = [
            a0,
            a1,
            v(1.5, 1.0, -0.5),
            v(2.5, 1.0, 0.5),
            a0,
            a1,
            v(2.5, 1.0, -0.5),
            v(1.5, 1.0, 0.5),
        ];
        assert_eq!(ee(&q), Some(Scan::NoContact));
    }

    #[test]
    fn a_vertex_through_a_corner_touches_at_that_instant() {
        // In z = 0, the vertex goes from (−1, 1) to (2, −2) along the line
        // y = −x, which meets the closed triangle (0,0) (1,0) (0,1) only at
        // the corner f0, where the vertex is at t = 1/3.
        let (f0, f1, f2) = (v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(0.0, 1.0, 0.0));
        let q = [v(-1.0, 1.0, 0.0), f0, f1, f2, v(2.0, -2.0, 0.0), f0, f1, f2];
        match vf(&q) {
            Some(Scan::Contact(br)) => {
                assert!(br.lo <= 1.0 / 3.0 && 1.0 / 3.0 <= br.hi, "{br:?}");
                assert!(br.hi - br.lo <= EXACT_TOI_WIDTH, "{br:?}");
            }
            other => panic!("{other:?}"),
        }
        // Passing below the corner instead: no contact.
        let q = [
            v(-1.0, 1.0, 0.0),
            f0,
            f1,
            f2,
            v(2.0, -2.25, 0.0),
            f0,
            f1,
            f2,
        ];
        assert_eq!(vf(&q), Some(Scan::NoContact));
    }

    #[test]
    fn endpoints_meeting_at_one_instant_touch_then() {
        // In the plane z = 5, edge a = (0,0)–(1,0) rests; edge b, from
        // its first endpoint one unit along −x, moves down from y = 1 to
        // y = −1: its first endpoint passes a's first endpoint at t = 1/2,
        // the only point the segments share.
        let (a0, a1) = (v(0.0, 0.0, 5.0), v(1.0, 0.0, 5.0));
        let q = [
            a0,
            a1,
            v(0.0, 1.0, 5.0),
            v(-1.0, 1.0, 5.0),
            a0,
            a1,
            v(0.0, -1.0, 5.0),
            v(-1.0, -1.0, 5.0),
        ];
        match ee(&q) {
            Some(Scan::Contact(br)) => assert!(br.lo <= 0.5 && 0.5 <= br.hi, "{br:?}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn edges_on_two_crossing_rows_touch_where_the_rows_meet() {
        // cloth-funnel 227→228 flattened onto z = 0: a0 and b0 on one row
        // of the sheet (a shared y at both ends), a1 and b1 on another; the
        // rows cross during the step, and there the segments overlap on
        // the common line. Every condition vanishes at that instant.
        let q = [
            v(-0.0020889700390398502, -0.05578260123729706, 0.0),
            v(-0.005673550069332123, -0.05578169971704483, 0.0),
            v(-0.0035725899506360292, -0.05578260123729706, 0.0),
            v(-0.006064990069717169, -0.05578169971704483, 0.0),
            v(-0.0020855399779975414, -0.05589739978313446, 0.0),
            v(-0.005676319822669029, -0.055898699909448624, 0.0),
            v(-0.0035745298955589533, -0.05589739978313446, 0.0),
            v(-0.006064829882234335, -0.055898699909448624, 0.0),
        ];
        // The rows meet where y0(t) = y1(t).
        let (a, b) = (q[0].y - q[1].y, q[4].y - q[5].y);
        let meet = a / (a - b);
        match ee(&q) {
            Some(Scan::Contact(br)) => {
                assert!(br.hi - br.lo <= EXACT_TOI_WIDTH, "{br:?}");
                assert!(
                    (br.lo - 1e-12..=br.hi + 1e-12).contains(&meet),
                    "{br:?} {meet}"
                );
            }
            other => panic!("{other:?}"),
        }
        // Without the instant on the line, undecided.
        let conditions = EDGE_EDGE.conditions.map(|[a, b, p]| {
            let t = tracks(&refs(&q), 0, 1);
            side::<Bounded>(&t[a], &t[b], &t[p])
        });
        assert_eq!(
            coplanar::earliest_after::<Bounded, _, SameSign, 4>(conditions, Some(false), None),
            Scan::Undecided
        );
    }

    #[test]
    fn a_vertex_exactly_on_an_edge_of_a_resting_triangle_touches_at_the_start() {
        // cloth-funnel 227 flattened onto z = 0: a vertex on the diagonal
        // edge of a resting triangle, where the float conditions are zero
        // but uncertain; the verdict at t = 0 is exact. With two corners
        // swapped the conditions are (−, −, 0) instead of (0, +, +).
        let p = v(-0.5247700214385986, -0.5247700214385986, 0.0);
        let (f0, a, b) = (
            v(-0.75, -0.75, 0.0),
            v(-0.5, -0.5, 0.0),
            v(-0.75, -0.5, 0.0),
        );
        for (f1, f2) in [(a, b), (b, a)] {
            let q = [p, f0, f1, f2, p, f0, f1, f2];
            assert_eq!(
                vf(&q),
                Some(Scan::Contact(Bracket { lo: 0.0, hi: 0.0 })),
                "{q:?}"
            );
        }
    }

    #[test]
    fn points_in_no_common_axis_plane_are_left_to_the_other_tiers() {
        let q = [
            v(0.0, 0.0, 0.0),
            v(1.0, 0.0, 0.0),
            v(0.0, 1.0, 0.0),
            v(0.0, 0.0, 1.0),
            v(0.0, 0.0, 0.0),
            v(1.0, 0.0, 0.0),
            v(0.0, 1.0, 0.0),
            v(0.0, 0.0, 1.0),
        ];
        assert_eq!(vf(&q), None);
        assert_eq!(ee(&q), None);
    }

    #[test]
    fn coincidences_need_a_common_root_in_the_step() {
        // p from (0, 0) to (1, 1) and q resting at (1, 0): p − q goes from
        // (−1, 0) to (0, 1), vanishing in x at t = 1 but never in y.
        let q: Track = [[1.0, 0.0], [1.0, 0.0]];
        let p: Track = [[0.0, 0.0], [1.0, 1.0]];
        assert_eq!(first_coincidence(&[p, q, q, q], &[[0, 1]]), None);
        // p − q from (1, 1) to (2⁻⁵², 2⁻⁵²): they would meet just after
        // t = 1, not within the step.
        let e = f64::EPSILON;
        let p: Track = [[2.0, 1.0], [1.0 + e, e]];
        assert_eq!(first_coincidence(&[p, q, q, q], &[[0, 1]]), None);
        // From (1, 1) to (−1, −1): at t = ½.
        let p: Track = [[2.0, 1.0], [0.0, -1.0]];
        assert_eq!(first_coincidence(&[p, q, q, q], &[[0, 1]]), Some(0.5));
    }

    #[test]
    fn a_line_contact_needs_one_common_time_in_the_step() {
        // The vertex rests at the origin; the corners at x = −1, 1, 2 move
        // in y from 1 to −1, all reaching y = 0 at t = ½, where the vertex
        // lies between them on that line.
        let corner = |x: f64, y1: f64| -> Track { [[x, 1.0], [x, y1]] };
        let o: Track = [[0.0, 0.0], [0.0, 0.0]];
        let meet = VERTEX_FACE.meet_on_a_line;
        let t = [o, corner(-1.0, -1.0), corner(1.0, -1.0), corner(2.0, -1.0)];
        assert_eq!(contact_on_a_line(&t, meet), Some(0.5));
        // One corner reaches the line at t = ¼ instead: never all on it.
        let t = [o, corner(-1.0, -1.0), corner(1.0, -3.0), corner(2.0, -1.0)];
        assert_eq!(contact_on_a_line(&t, meet), None);
        // All reach it just after the step (y from 1 to 2⁻⁵²).
        let e = f64::EPSILON;
        let t = [o, corner(-1.0, e), corner(1.0, e), corner(2.0, e)];
        assert_eq!(contact_on_a_line(&t, meet), None);
    }

    #[test]
    fn edges_sliding_onto_one_diagonal_line_touch_where_the_lines_meet() {
        // In z = 0 the first edge rests on y = x, (0, 0)–(1, 1); the second
        // slides without turning from y = x + 1 to y = x − 1, on y = x at
        // t = ½, where it overlaps the first from x = ½ to 1. Every
        // condition vanishes then; the first is linear in t.
        let q = [
            v(0.0, 0.0, 0.0),
            v(1.0, 1.0, 0.0),
            v(0.5, 1.5, 0.0),
            v(1.5, 2.5, 0.0),
            v(0.0, 0.0, 0.0),
            v(1.0, 1.0, 0.0),
            v(0.5, -0.5, 0.0),
            v(1.5, 0.5, 0.0),
        ];
        let t = tracks(&refs(&q), 0, 1);
        let meet = EDGE_EDGE.meet_on_a_line;
        assert_eq!(contact_on_a_line(&t, meet), None);
        assert_eq!(
            contact_on_any_line(&t, &EDGE_EDGE.conditions, meet),
            Some(0.5)
        );
        match ee(&q) {
            Some(Scan::Contact(br)) => {
                assert!(br.lo <= 0.5 && br.hi == 0.5, "{br:?}");
                assert!(br.hi - br.lo <= EXACT_TOI_WIDTH, "{br:?}");
            }
            other => panic!("{other:?}"),
        }
        // Three steps further along the line, past the first: on the line
        // at ½ but apart on it.
        let mut apart = q;
        for i in [2, 3, 6, 7] {
            apart[i] += v(3.0, 3.0, 0.0);
        }
        let t = tracks(&refs(&apart), 0, 1);
        assert_eq!(contact_on_any_line(&t, &EDGE_EDGE.conditions, meet), None);
        // Turning instead (its end at (1.5, 2.5) swings to (2.5, 0.5)): no
        // condition is linear, and none is looked for.
        let mut turning = q;
        turning[7] = v(2.5, 0.5, 0.0);
        let t = tracks(&refs(&turning), 0, 1);
        assert_eq!(contact_on_any_line(&t, &EDGE_EDGE.conditions, meet), None);
        // Meeting at τ = 1/3, not a double: the bracket's upper end is the
        // least double above it.
        let mut third = q;
        for p in &mut third[6..8] {
            *p += v(0.0, -1.0, 0.0);
        }
        let t = tracks(&refs(&third), 0, 1);
        // (The double nearest ⅓, 0x3FD5555555555555, is below it.)
        let upper = contact_on_any_line(&t, &EDGE_EDGE.conditions, meet);
        assert_eq!(upper, Some((1.0f64 / 3.0).next_up()));
    }

    #[test]
    fn a_known_touch_closes_no_bracket_wider_than_the_exact_width() {
        // In z = 0 the vertex moves from (−1, 1 + ε) to (1, −1 + ε), ε = 2⁻⁵²:
        // along the edge f0 f1 of the triangle (0, 0) (½, −½ + ε) (0, −1),
        // within a few ε of its line but outside, until it passes through
        // the corner f1 at t = ¾ (an exact coincidence, known in advance).
        // The conditions stay too close to zero to decide long before
        // that, so an interval is left open at the depth limit far more
        // than `EXACT_TOI_WIDTH` before ¾: the known touch must not close
        // a bracket from there.
        let e = f64::EPSILON;
        let (f0, f1, f2) = (v(0.0, 0.0, 0.0), v(0.5, -0.5 + e, 0.0), v(0.0, -1.0, 0.0));
        let q = [
            v(-1.0, 1.0 + e, 0.0),
            f0,
            f1,
            f2,
            v(1.0, -1.0 + e, 0.0),
            f0,
            f1,
            f2,
        ];
        match vf(&q) {
            Some(Scan::Contact(br)) => {
                assert!(br.lo <= 0.75 && 0.75 <= br.hi, "{br:?}");
                assert!(br.hi - br.lo <= EXACT_TOI_WIDTH, "{br:?}");
            }
            Some(Scan::Undecided) => {}
            other => panic!("{other:?}"),
        }
    }

    /// In the plane `z = 0`, and in `z = x`, edge b's end b0 slides from
    /// (1, 2) onto the midpoint (1, 1) of the diagonal edge a, reaching it
    /// exactly at `t = 1`: a contact there only, which the search leaves
    /// open just before 1 and the exact verdict at 1 closes. Stopping one
    /// ulp short of the edge, it never touches.
    #[test]
    fn an_edge_end_landing_on_the_other_edge_at_the_end_touches_then() {
        for lift in [0.0, 1.0] {
            let p = |x: f64, y: f64| v(x, y, lift * x);
            let q = [
                p(0.0, 0.0),
                p(2.0, 2.0),
                p(1.0, 2.0),
                p(1.0, 4.0),
                p(0.0, 0.0),
                p(2.0, 2.0),
                p(1.0, 1.0),
                p(1.0, 3.0),
            ];
            match ee(&q) {
                Some(Scan::Contact(br)) => {
                    assert!(br.hi == 1.0 && 1.0 - br.lo <= EXACT_TOI_WIDTH, "{br:?}");
                }
                other => panic!("{lift}: {other:?}"),
            }
            let mut short = q;
            short[6] = p(1.0, 1.0 + f64::EPSILON);
            assert!(matches!(ee(&short), Some(Scan::NoContact)), "{lift}");
        }
    }

    #[test]
    fn a_plane_at_the_start_only_is_no_common_plane() {
        // All four in z = 0 at t = 0, not in any axis plane at t = 1.
        let (a, b, c) = (v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(0.0, 1.0, 0.0));
        let q = [
            v(0.2, 0.2, 0.0),
            a,
            b,
            c,
            v(0.2, 0.2, -1.0),
            a,
            b,
            v(0.0, 1.0, 1.0),
        ];
        assert_eq!(vf(&q), None);
        assert_eq!(ee(&q), None);
    }
}
