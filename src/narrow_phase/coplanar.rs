//! Coplanar motion: the coplanarity cubic vanishes identically, so the four
//! points are coplanar at every time and contact is decided by the inside
//! conditions alone, as polynomials in `t` (the degenerate family of the
//! `erleben-*` sets, Wang et al. 2021; signs on sub-intervals from Bernstein
//! coefficients, Lane & Riesenfeld, BIT 21, 1981).
//!
//! With `f ≡ 0`, vertex–face contact at `t` is `gᵢ(t) ≥ 0` for all `i` where
//! `n(t) ≠ 0`, and edge–edge contact is `qᵢ(t) ≥ 0` where `m(t) ≠ 0` (see
//! [`super::conditions`]). Each condition `cᵢ·n` is a dot product of two
//! cross products of linearly moving differences: a quartic whose Bernstein
//! coefficients on `[0, 1]` follow from the differences at `t = 0` and
//! `t = 1` (a cross product `x × y` of `x = x₀(1−t) + x₁t`, `y` alike, is
//! `x₀×y₀ (1−t)² + (x₀×y₁ + x₁×y₀)(1−t)t + x₁×y₁ t²`, and a dot product of two
//! such quadratics has the coefficients of a product of polynomials).
//!
//! The earliest contact is found by subdividing `[0, 1]` in increasing order
//! (de Casteljau, exact halving). An interval on which some condition has
//! all its Bernstein coefficients certainly negative holds no contact (the
//! condition is negative throughout: the normal is non-zero and the point
//! outside). Contact at the start is decided as at a root; otherwise, the
//! first interval `[a, b]` not excluded whose right end is a certified
//! contact holds the earliest contact time `τ ∈ (a, b]` (everything before
//! `a` is excluded); it is narrowed until it is at most half of
//! [`super::EXACT_TOI_WIDTH`] wide. An interval that stays open at the depth
//! limit (typically just before the contact, where the conditions are too
//! close to zero to exclude it) becomes the bracket's start: `τ` is not
//! before it, so the first contact certified after it, at most
//! `EXACT_TOI_WIDTH` after its start, closes the bracket. That contact is
//! looked for at the right ends of the intervals still to visit (which lie
//! side by side to its right, each at least as wide as the one before),
//! splitting only those that reach beyond that width. Anything else — a
//! condition that touches zero without crossing it, a normal that vanishes,
//! no such contact, more than `MAX_NODES` intervals — is undecided.
//!
//! The same search serves the planar tier ([`super::planar`]), whose
//! conditions are quadratics and whose contact rule is a common sign
//! ([`SameSign`]); it may also be given a time by which a contact is
//! certain (a touch at one instant that no interval's end can certify),
//! which closes the bracket from an interval left open just before it.
//!
//! (The search does not walk on past an open interval, which spent the
//! node budget on flat sheets moving along their normal; nodes are split
//! in place with the de Casteljau steps in locals (`split_quartic`), avoiding
//! copies and stalled store-to-load forwarding; the stack's slots are empty
//! until a split writes them, rather than each a copy of the first node.
//! Measurements: docs/notes/narrow-phase.md.)
//!
//! docs/design.md §9.

use super::certified::{CVec3, Certified};
use super::roots::{Bracket, Scan};
use super::toi::EXACT_TOI_WIDTH;
use crate::math::Vec3;

/// A quadratic vector `q₀(1−t)² + q₁(1−t)t + q₂t²`.
type Quadratic<N> = [CVec3<N>; 3];

/// Subdivision depth limit (`2⁻⁴⁸` is well below [`EXACT_TOI_WIDTH`]).
const MAX_DEPTH: u32 = 48;

/// Intervals examined before giving up: a contact found by narrowing visits
/// about two per level; conditions that vanish on a whole interval (a
/// degenerate triangle, a vertex sliding along an edge's line) would
/// otherwise make the subdivision exponential.
const MAX_NODES: u32 = 256;

/// `(x₁ − y₁)(1−t) + (x₁' − y₁')t` etc.: the difference `x − y` of two
/// moving points at `t = 0` and `t = 1`.
#[inline]
fn difference<N: Certified>(x: (&Vec3, &Vec3), y: (&Vec3, &Vec3)) -> [CVec3<N>; 2] {
    [CVec3::difference(x.0, y.0), CVec3::difference(x.1, y.1)]
}

/// `x × y` for linear vectors.
#[inline]
fn cross<N: Certified>(x: &[CVec3<N>; 2], y: &[CVec3<N>; 2]) -> Quadratic<N> {
    [
        x[0].cross(&y[0]),
        x[0].cross(&y[1]).add(&x[1].cross(&y[0])),
        x[1].cross(&y[1]),
    ]
}

/// `a · b` for quadratic vectors, as Bernstein coefficients of degree 4 on
/// `[0, 1]` times 12 (a positive factor: `12/C(4,k) = 12, 3, 2, 3, 12`, so
/// no division is needed).
#[inline]
fn dot<N: Certified>(a: &Quadratic<N>, b: &Quadratic<N>) -> [N; 5] {
    let d = |i: usize, j: usize| a[i].dot(&b[j]);
    [
        d(0, 0).scale(12.0),
        (d(0, 1) + d(1, 0)).scale(3.0),
        (d(0, 2) + d(1, 1) + d(2, 0)).scale(2.0),
        (d(1, 2) + d(2, 1)).scale(3.0),
        d(2, 2).scale(12.0),
    ]
}

/// Vertex–face conditions `gᵢ = cᵢ·n` for coplanar motion, with
/// `c₁ = (f1 − f0) × (v − f0)`, `c₂ = (f2 − f1) × (v − f1)`,
/// `c₃ = (f0 − f2) × (v − f2)`, `n = (f1 − f0) × (f2 − f0)`.
pub fn vertex_face<N: Certified>(q: [&Vec3; 8]) -> [[N; 5]; 3] {
    let [v, f0, f1, f2] = [0, 1, 2, 3].map(|i| (q[i], q[i + 4]));
    let u = difference::<N>(f1, f0);
    let n = cross(&u, &difference(f2, f0));
    [
        cross(&u, &difference(v, f0)),
        cross(&difference(f2, f1), &difference(v, f1)),
        cross(&difference(f0, f2), &difference(v, f2)),
    ]
    .map(|c| dot(&c, &n))
}

/// Edge–edge conditions `qᵢ = cᵢ·m` for coplanar motion, with
/// `c₁ = (eb0 − ea0) × (eb1 − eb0)`, `c₂ = (ea1 − eb0) × (eb1 − eb0)`,
/// `c₃ = (eb0 − ea0) × (ea1 − ea0)`, `c₄ = (ea1 − ea0) × (eb1 − ea0)`,
/// `m = (ea1 − ea0) × (eb1 − eb0)`.
pub fn edge_edge<N: Certified>(q: [&Vec3; 8]) -> [[N; 5]; 4] {
    let [a0, a1, b0, b1] = [0, 1, 2, 3].map(|i| (q[i], q[i + 4]));
    let e1 = difference::<N>(a1, a0);
    let e2 = difference(b1, b0);
    let ca = difference(b0, a0);
    let m = cross(&e1, &e2);
    [
        cross(&ca, &e2),
        cross(&difference(a1, b0), &e2),
        cross(&ca, &e1),
        cross(&e1, &difference(b1, a0)),
    ]
    .map(|c| dot(&c, &m))
}

/// Bernstein coefficients of one condition on an interval: a quartic
/// (`[N; 5]`, the conditions above) or a quadratic (`[N; 3]`, the planar
/// conditions of [`super::planar`]).
pub(super) trait Bernstein<N: Certified>: Copy {
    /// The coefficients.
    fn coefficients(&self) -> &[N];
    /// The value at the interval's right end (the last coefficient).
    fn last(&self) -> N;
    /// The coefficients on the two halves (de Casteljau at the midpoint).
    fn split(self) -> (Self, Self);
}

impl<N: Certified> Bernstein<N> for [N; 5] {
    #[inline]
    fn coefficients(&self) -> &[N] {
        self
    }
    #[inline]
    fn last(&self) -> N {
        self[4]
    }
    #[inline]
    fn split(self) -> (Self, Self) {
        split_quartic(self)
    }
}

impl<N: Certified> Bernstein<N> for [N; 3] {
    #[inline]
    fn coefficients(&self) -> &[N] {
        self
    }
    #[inline]
    fn last(&self) -> N {
        self[2]
    }
    #[inline]
    fn split(self) -> (Self, Self) {
        let [b0, b1, b2] = self;
        let mid = |x: N, y: N| (x + y).half();
        let (c0, c1) = (mid(b0, b1), mid(b1, b2));
        let d0 = mid(c0, c1);
        ([b0, c0, d0], [d0, c1, b2])
    }
}

/// What contact at a time means for the conditions' values there.
pub(super) trait Rule {
    /// `Some(true)` for certain contact, `Some(false)` for certainly none,
    /// `None` when the signs do not decide.
    fn at_point(signs: &[Option<i8>]) -> Option<bool>;
    /// Whether conditions whose coefficients have these certain common
    /// signs (`Some(±1)`: every coefficient of the sign; `None`: neither)
    /// leave no contact anywhere on the interval.
    fn excluded(common: &[Option<i8>]) -> bool;
}

/// Contact where every condition is non-negative (the conditions above,
/// products with the normal): a certainly negative one excludes contact;
/// all certainly positive or structural zeros, at least one positive,
/// certify it.
pub(super) struct NonNegative;

impl Rule for NonNegative {
    #[inline]
    fn at_point(signs: &[Option<i8>]) -> Option<bool> {
        if signs.contains(&Some(-1)) {
            Some(false)
        } else if signs.contains(&Some(1)) && !signs.contains(&None) {
            Some(true)
        } else {
            None
        }
    }
    #[inline]
    fn excluded(common: &[Option<i8>]) -> bool {
        common.contains(&Some(-1))
    }
}

/// Contact where the conditions share a sign, not all zero (the planar
/// conditions, [`super::planar`]): one certainly positive and one
/// certainly negative exclude contact.
pub(super) struct SameSign;

impl Rule for SameSign {
    #[inline]
    fn at_point(signs: &[Option<i8>]) -> Option<bool> {
        let (pos, neg) = (signs.contains(&Some(1)), signs.contains(&Some(-1)));
        if pos && neg {
            Some(false)
        } else if (pos || neg) && !signs.contains(&None) {
            Some(true)
        } else {
            None
        }
    }
    #[inline]
    fn excluded(common: &[Option<i8>]) -> bool {
        common.contains(&Some(1)) && common.contains(&Some(-1))
    }
}

#[derive(Clone, Copy)]
struct Node<C, const K: usize> {
    l: f64,
    r: f64,
    g: [C; K],
    depth: u32,
}

/// The earliest time in `[0, 1]` at which every condition is non-negative,
/// for conditions given by their Bernstein coefficients (module doc).
pub fn earliest<N: Certified, const K: usize>(g: [[N; 5]; K]) -> Scan {
    let start = NonNegative::at_point(&g.map(|c| c[0].sign()));
    earliest_after::<N, _, NonNegative, K>(g, start, None)
}

/// The earliest contact time in `[0, 1]` under rule `R`, given the verdict
/// at `t = 0` (`None`: undecided there); the search of the module doc.
/// `known`, when given, is a time at or after a certain contact: an
/// interval left open at the depth limit within [`EXACT_TOI_WIDTH`] before
/// it closes the bracket there (a touch at one instant, which no right end
/// certifies).
pub(super) fn earliest_after<N: Certified, C: Bernstein<N>, R: Rule, const K: usize>(
    g: [C; K],
    start: Option<bool>,
    known: Option<f64>,
) -> Scan {
    match start {
        Some(true) => return Scan::Contact(Bracket { lo: 0.0, hi: 0.0 }),
        Some(false) => {}
        None => return Scan::Undecided,
    }
    // The slots below `top` hold nodes; the others are empty, so that a
    // call writes no more nodes than it visits (module doc).
    let mut stack: [Option<Node<C, K>>; MAX_DEPTH as usize + 2] = [None; MAX_DEPTH as usize + 2];
    stack[0] = Some(Node {
        l: 0.0,
        r: 1.0,
        g,
        depth: 0,
    });
    let mut top = 1;
    // The start of the first interval that was neither excluded nor decided
    // at the depth limit: the earliest contact is not before it.
    let mut open: Option<f64> = None;
    let mut budget = MAX_NODES;
    while top > 0 {
        if budget == 0 {
            return Scan::Undecided;
        }
        budget -= 1;
        // The node on top, read in place: it is split in place too (its
        // right half written over it, its left half into the slot above),
        // so that no node is copied whole (module doc). The slot is never
        // empty; were it, "undecided" would still be sound.
        let i = top - 1;
        let Some(node) = &stack[i] else {
            return Scan::Undecided;
        };
        let (l, r, depth) = (node.l, node.r, node.depth);
        let contact_at_r = |g: &[C; K]| R::at_point(&g.map(|c| c.last().sign())) == Some(true);
        match open {
            None => {
                if R::excluded(&node.g.map(|c| common_sign(c.coefficients()))) {
                    top = i;
                    continue;
                }
                if contact_at_r(&node.g) {
                    // Contact at r; nothing before l has any.
                    if r - l <= 0.5 * EXACT_TOI_WIDTH || depth >= MAX_DEPTH {
                        return Scan::Contact(Bracket { lo: l, hi: r });
                    }
                } else if depth >= MAX_DEPTH {
                    if let Some(c) = known.filter(|&c| c - l <= EXACT_TOI_WIDTH) {
                        // Nothing before l, a contact by c (so c ≥ l: no
                        // interval holding a contact is ever excluded).
                        debug_assert!(c >= l, "a known contact at {c} before {l}");
                        return Scan::Contact(Bracket { lo: l, hi: c });
                    }
                    open = Some(l);
                    top = i;
                    continue;
                }
            }
            Some(lo) => {
                // Past the interval left open: the first right end within
                // `EXACT_TOI_WIDTH` of its start where contact is certified
                // closes the bracket (module doc). The stack holds the
                // consecutive intervals to its right; only those reaching
                // beyond that width are split.
                if r - lo <= EXACT_TOI_WIDTH {
                    if contact_at_r(&node.g) {
                        return Scan::Contact(Bracket { lo, hi: r });
                    }
                    top = i;
                    continue;
                }
                if depth >= MAX_DEPTH || l - lo >= EXACT_TOI_WIDTH {
                    return Scan::Undecided;
                }
            }
        }
        // Right half at `i`, left half at `i + 1` (visited first).
        let m = 0.5 * (l + r);
        let (below, above) = stack.split_at_mut(i + 1);
        let Some(right) = &mut below[i] else {
            return Scan::Undecided;
        };
        let left_g = std::array::from_fn(|j| {
            let (lo, hi) = right.g[j].split();
            right.g[j] = hi;
            lo
        });
        right.l = m;
        right.depth = depth + 1;
        above[0] = Some(Node {
            l,
            r: m,
            g: left_g,
            depth: depth + 1,
        });
        top = i + 2;
    }
    if open.is_some() {
        Scan::Undecided
    } else {
        Scan::NoContact
    }
}

/// `Some(s)` when every coefficient certainly has the strict sign `s`.
#[inline]
fn common_sign<N: Certified>(c: &[N]) -> Option<i8> {
    let s = c[0].sign().filter(|&s| s != 0)?;
    c[1..].iter().all(|x| x.sign() == Some(s)).then_some(s)
}

/// de Casteljau subdivision of a quartic at the midpoint.
///
/// Written out level by level, in locals: an array updated in place was
/// kept in memory, and each coefficient's rounding count, stored alone,
/// was read back with its neighbour by a wider load, which stalled on
/// store-to-load forwarding.
#[inline]
fn split_quartic<N: Certified>([b0, b1, b2, b3, b4]: [N; 5]) -> ([N; 5], [N; 5]) {
    let mid = |x: N, y: N| (x + y).half();
    let (c0, c1, c2, c3) = (mid(b0, b1), mid(b1, b2), mid(b2, b3), mid(b3, b4));
    let (d0, d1, d2) = (mid(c0, c1), mid(c1, c2), mid(c2, c3));
    let (e0, e1) = (mid(d0, d1), mid(d1, d2));
    let f0 = mid(e0, e1);
    ([b0, c0, d0, e0, f0], [f0, e1, d2, c3, b4])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Bounded, BoundedDd};

    fn v(x: f64, y: f64, z: f64) -> Vec3 {
        Vec3::new(x, y, z)
    }

    fn refs(q: &[Vec3; 8]) -> [&Vec3; 8] {
        std::array::from_fn(|i| &q[i])
    }

    #[test]
    fn a_point_sliding_into_the_triangle_enters_at_the_edge() {
        // In the plane z = 0, the vertex slides from x = 2 to x = 0 at
        // y = 0.25 and enters the triangle (0,0) (1,0) (0,1) at x = 0.75,
        // t = 0.625.
        let (a, b, c) = (v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(0.0, 1.0, 0.0));
        let q = [v(2.0, 0.25, 0.0), a, b, c, v(0.0, 0.25, 0.0), a, b, c];
        for precise in [false, true] {
            let s = if precise {
                earliest(vertex_face::<BoundedDd>(refs(&q)))
            } else {
                earliest(vertex_face::<Bounded>(refs(&q)))
            };
            match s {
                Scan::Contact(br) => {
                    assert!(br.lo <= 0.625 && 0.625 <= br.hi, "{br:?}");
                    assert!(br.hi - br.lo <= EXACT_TOI_WIDTH, "{precise} {br:?}");
                }
                other => panic!("{other:?}"),
            }
        }
        // Sliding past above the triangle: never inside.
        let q = [v(2.0, 1.5, 0.0), a, b, c, v(1.0, 1.5, 0.0), a, b, c];
        assert_eq!(earliest(vertex_face::<Bounded>(refs(&q))), Scan::NoContact);
        // Inside from the start.
        let q = [v(0.25, 0.25, 0.0), a, b, c, v(2.0, 2.0, 0.0), a, b, c];
        assert_eq!(
            earliest(vertex_face::<Bounded>(refs(&q))),
            Scan::Contact(Bracket { lo: 0.0, hi: 0.0 })
        );
    }

    /// cloth-funnel 227→228, edges 25487 and 25568 (34937 and 35018 in
    /// `ccdlab step --pairs`): a flat sheet moving along its normal, the
    /// edges meeting next to a corner they nearly share. In doubles the
    /// search leaves an interval open at the depth limit just before the
    /// contact, and a contact certified within `EXACT_TOI_WIDTH` after it
    /// closes the bracket. (The search used to walk on at the depth limit,
    /// 2⁻⁴⁸ at a time, until its budget ran out: undecided in doubles.)
    #[test]
    fn cloth_funnel_227_edges_25487_25568_are_decided_in_doubles() {
        // The sheet's plane: y = y0 at t = 0, y1 at t = 1.
        let (y0, y1) = (-0.04202850162982941, -0.04211580008268356);
        let q = [
            v(0.03579220175743103, y0, -0.6008790135383606),
            v(0.03061540052294731, y0, -0.6114889979362488),
            v(0.03579460084438324, y0, -0.6008710265159607),
            v(0.03784260153770447, y0, -0.5892450213432312),
            v(0.035869501531124115, y1, -0.6039440035820007),
            v(0.030679000541567802, y1, -0.6145840287208557),
            v(0.03586610034108162, y1, -0.603954017162323),
            v(0.037921298295259476, y1, -0.5922949910163879),
        ];
        let (Scan::Contact(d), Scan::Contact(dd)) = (
            earliest(edge_edge::<Bounded>(refs(&q))),
            earliest(edge_edge::<BoundedDd>(refs(&q))),
        ) else {
            panic!("undecided");
        };
        assert!(d.hi - d.lo <= EXACT_TOI_WIDTH, "{d:?}");
        // Both bracket the one earliest contact.
        assert!(d.lo <= dd.hi && dd.lo <= d.hi, "{d:?} {dd:?}");
    }

    #[test]
    fn crossing_edges_in_a_common_plane() {
        // Edge b sweeps along x through the fixed edge a = (0,0)–(0,2) in the
        // plane z = 0; they touch from x = 0, at t = ½.
        let (a0, a1) = (v(0.0, 0.0, 0.0), v(0.0, 2.0, 0.0));
        let q = [
            a0,
            a1,
            v(1.0, 1.0, 0.0),
            v(2.0, 1.0, 0.0),
            a0,
            a1,
            v(-1.0, 1.0, 0.0),
            v(0.0, 1.0, 0.0),
        ];
        match earliest(edge_edge::<Bounded>(refs(&q))) {
            Scan::Contact(br) => assert!(br.lo <= 0.5 && 0.5 <= br.hi, "{br:?}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_touch_at_the_end_that_no_sign_certifies_is_not_a_miss() {
        // In z = 0 the vertex moves from (0.5, 0.1) onto (0.3, 0.3), on the
        // edge y = x of the triangle (0,0) (1,1) (0,1), at t = 1 exactly,
        // from outside. That edge's condition is zero at t = 1 but computed
        // with rounding (0.3 − 0.3), so no interval's end certifies the
        // touch and the intervals just before t = 1 stay open: the search
        // must not answer "no contact".
        let (a, b, c) = (v(0.0, 0.0, 0.0), v(1.0, 1.0, 0.0), v(0.0, 1.0, 0.0));
        let q = [v(0.5, 0.1, 0.0), a, b, c, v(0.3, 0.3, 0.0), a, b, c];
        for s in [
            earliest(vertex_face::<Bounded>(refs(&q))),
            earliest(vertex_face::<BoundedDd>(refs(&q))),
        ] {
            match s {
                Scan::NoContact => panic!("a touch at t = 1 missed"),
                Scan::Contact(br) => assert!(br.lo <= 1.0 && br.hi == 1.0, "{br:?}"),
                Scan::Identical | Scan::Undecided => {}
            }
        }
    }
}
