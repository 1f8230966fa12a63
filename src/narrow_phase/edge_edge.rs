//! The `exact` edge–edge solver: floating-point tiers with certified
//! error bounds that decide almost every query, and the exact oracle
//! ([`super::oracle::edge_edge`]) for the rest (docs/design.md §1–2, §9).
//!
//! Tiers as for [`super::vertex_face()`] (the static tier,
//! [`super::static_tier`], first): the coplanarity cubic
//! `det[ea1−ea0, eb0−ea0, eb1−ea0]` with a certified common sign means no
//! contact (DNF); otherwise, at each root in increasing order, the segment
//! conditions ([`super::conditions`]) on position leaves valid over the
//! root's bracket decide contact or its absence at that root; the precise
//! tier repeats this in double-double arithmetic. Coplanar motion (the
//! cubic vanishes identically) is decided by the coplanar tier
//! ([`super::coplanar`]), motion in parallel planes first in two
//! coordinates ([`super::planar`]; edges turning parallel in them included).
//! Edges that share an endpoint at `t = 0` touch there; that is decided
//! first of all ([`super::start_contact`]). Edges on parallel lines at every
//! time are decided exactly ([`super::collinear`]: lines that stay apart,
//! or one line and a one-dimensional problem), as for vertex–face.
//! At a root exactly at `t = 0` or `t = 1` the precise tier signs the
//! conditions exactly ([`super::end_conditions`]).
//! Everything else — an exact touch inside the step that no structural
//! argument proves, multiple roots, all four points on one line at one instant where the
//! planar tier cannot settle it — goes to
//! the oracle, unless the edges are certified apart along one of their own
//! directions ([`super::separation`]).

use super::certified::{coplanarity, coplanarity_exact};
use super::collinear;
use super::conditions;
use super::coplanar;
use super::end_conditions;
use super::oracle;
use super::planar::{self, Axes};
use super::roots::{Bracket, FAST, PRECISE, Scan, scan};
use super::separation::edge_edge_separated;
use super::start_contact;
use super::static_tier;
use super::toi::{SolverTier, Toi};
use crate::math::{Bounded, BoundedDd, RangeCheck, Vec3, scaled_into_range};
use crate::pair_kernel::certified_common_sign;

/// Edge–edge CCD, exact: `Some(toi)` iff the closed segments touch for some
/// `t ∈ [0, 1]`, with the earliest contact time in `[toi.lower, toi.upper]`.
/// Arguments: the edges' ends `ea0, ea1, eb0, eb1` at `t = 0`, then the
/// same at `t = 1` (the data sets' row order). Exact for every finite
/// double (outside [`crate::math::in_filter_range`] on the slower exact
/// path). A non-finite coordinate (NaN, ±∞) gives
/// `None`: check inputs that may blow up with [`crate::mesh::check_finite`];
/// `Step::new` and `Pipeline::step` refuse them.
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn edge_edge(
    ea0_t0: &Vec3,
    ea1_t0: &Vec3,
    eb0_t0: &Vec3,
    eb1_t0: &Vec3,
    ea0_t1: &Vec3,
    ea1_t1: &Vec3,
    eb0_t1: &Vec3,
    eb1_t1: &Vec3,
) -> Option<Toi> {
    edge_edge_traced(
        ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1,
    )
    .0
}

/// [`edge_edge`], also telling which tier decided.
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn edge_edge_traced(
    ea0_t0: &Vec3,
    ea1_t0: &Vec3,
    eb0_t0: &Vec3,
    eb1_t0: &Vec3,
    ea0_t1: &Vec3,
    ea1_t1: &Vec3,
    eb0_t1: &Vec3,
    eb1_t1: &Vec3,
) -> (Option<Toi>, SolverTier) {
    edge_edge_traced_with(
        ea0_t0,
        ea1_t0,
        eb0_t0,
        eb1_t0,
        ea0_t1,
        ea1_t1,
        eb0_t1,
        eb1_t1,
        RangeCheck::PerQuery,
    )
}

/// [`edge_edge_traced`], with the range check `range` says: per query, or
/// skipped for a pipeline that checked its whole step ([`RangeCheck`]).
/// The same results.
#[allow(clippy::too_many_arguments)]
pub(crate) fn edge_edge_traced_with(
    ea0_t0: &Vec3,
    ea1_t0: &Vec3,
    eb0_t0: &Vec3,
    eb1_t0: &Vec3,
    ea0_t1: &Vec3,
    ea1_t1: &Vec3,
    eb0_t1: &Vec3,
    eb1_t1: &Vec3,
    range: RangeCheck,
) -> (Option<Toi>, SolverTier) {
    if let Some(result) = edge_edge_certified_with(
        ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1, range,
    ) {
        return (result, SolverTier::Float);
    }
    let exact = oracle::edge_edge(
        ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1,
    )
    .map(Toi::of_exact);
    (exact, SolverTier::Exact)
}

/// [`edge_edge_traced_with`] without the oracle: `Some(decision)` when
/// certified in floating point (or by point equality, or apart along an
/// edge's direction), `None` where the oracle would decide. Non-finite
/// coordinates give `Some(None)`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn edge_edge_certified_with(
    ea0_t0: &Vec3,
    ea1_t0: &Vec3,
    eb0_t0: &Vec3,
    eb1_t0: &Vec3,
    ea0_t1: &Vec3,
    ea1_t1: &Vec3,
    eb0_t1: &Vec3,
    eb1_t1: &Vec3,
    range: RangeCheck,
) -> Option<Option<Toi>> {
    let points = [
        ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1,
    ];
    // A non-finite coordinate: no contact (documented; the exact path
    // takes finite doubles). A checked step is finite throughout.
    if !range.finite(&points) {
        return Some(None);
    }
    // Coincident endpoints at the start: contact at t = 0, before any tier
    // (the tiers would sign these slowly or defer them).
    if start_contact::edge_edge_touch_at_start(ea0_t0, ea1_t0, eb0_t0, eb1_t0) {
        return Some(Some(Toi::exact(0.0)));
    }
    if range.in_range(&points) {
        return in_range(points, range);
    }
    // Outside the filter range: the query scaled by a power of two,
    // exactly, when one brings it in (`scaled_into_range`).
    let q = scaled_into_range(&points)?;
    in_range(std::array::from_fn(|i| &q[i]), RangeCheck::PerQuery)
}

/// The float tiers, then the separation along the edges' own directions
/// ([`super::separation`]), for a query in the filter range (`range` as
/// for the tiers).
fn in_range(points: [&Vec3; 8], range: RangeCheck) -> Option<Option<Toi>> {
    let [a, b, c, d, e, f, g, h] = points;
    filtered(a, b, c, d, e, f, g, h, range)
        .or_else(|| edge_edge_separated(a, b, c, d, e, f, g, h).then_some(None))
}

/// The float tiers: `Some(decision)` when certified, `None` to fall back.
#[allow(clippy::too_many_arguments)]
#[inline]
fn filtered(
    ea0_t0: &Vec3,
    ea1_t0: &Vec3,
    eb0_t0: &Vec3,
    eb1_t0: &Vec3,
    ea0_t1: &Vec3,
    ea1_t1: &Vec3,
    eb0_t1: &Vec3,
    eb1_t1: &Vec3,
    range: RangeCheck,
) -> Option<Option<Toi>> {
    let points = [
        ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1,
    ];
    if !range.in_range(&points) {
        return None;
    }
    if let Some(decided) = static_tier::edge_edge(
        ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1,
    ) {
        return Some(decided.map(toi));
    }
    let c: [Bounded; 4] = coplanarity(
        ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1,
    );
    if certified_common_sign(&c).is_some() {
        return Some(None);
    }
    let crossing = |br: Bracket| {
        conditions::edge_edge(
            ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1, &br,
        )
    };
    match scan::<_, FAST>(&c, crossing) {
        Scan::NoContact => return Some(None),
        Scan::Contact(br) => return Some(Some(toi(br))),
        Scan::Identical => return coplanar(points, || planar::plane_axes(&points)),
        Scan::Undecided => {}
    }
    // The precise tier: the cubic and, where needed, the conditions in
    // double-double arithmetic.
    let c: [BoundedDd; 4] = coplanarity(
        ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1,
    );
    let crossing = |br: Bracket| {
        crossing(br)
            .or_else(|| {
                conditions::edge_edge_precise(
                    ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1, &br,
                )
            })
            .or_else(|| end_conditions::edge_edge(points, &br))
    };
    match scan::<_, PRECISE>(&c, crossing) {
        Scan::NoContact => return Some(None),
        Scan::Contact(br) => return Some(Some(toi(br))),
        Scan::Identical => return coplanar(points, || planar::plane_axes(&points)),
        Scan::Undecided => {}
    }
    // A coefficient too close to zero to sign: compute them exactly, unless
    // the edges lie on parallel lines (then the cubic vanishes identically
    // and the collinear tier decides without it).
    if c.iter().all(|x| x.sign().is_some()) {
        return None;
    }
    if let Some(decided) = collinear::edge_edge(points) {
        return Some(decided);
    }
    // Points in parallel planes (a flat sheet in a plane that is not
    // parallel to the axes, whose cubic rounds away from zero): the cubic
    // vanishes identically, without computing it.
    if let Some(axes) = planar::plane_axes(&points) {
        return coplanar(points, || Some(axes));
    }
    // Only the cubic's values at the ends unsigned, and exactly zero there
    // (a root exactly at the start or the end): those two signed exactly
    // from the input points, rather than the whole cubic.
    if let Some(c) = end_conditions::zero_ends(
        &c,
        [ea0_t0, ea1_t0, eb0_t0, eb1_t0],
        [ea0_t1, ea1_t1, eb0_t1, eb1_t1],
    ) {
        match scan::<_, PRECISE>(&c, crossing) {
            Scan::NoContact => return Some(None),
            Scan::Contact(br) => return Some(Some(toi(br))),
            Scan::Identical => return coplanar(points, || None),
            Scan::Undecided => {}
        }
    }
    let c = coplanarity_exact(
        ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1,
    )?;
    match scan::<_, PRECISE>(&c, crossing) {
        Scan::NoContact => Some(None),
        Scan::Contact(br) => Some(Some(toi(br))),
        Scan::Identical => coplanar(points, || None),
        Scan::Undecided => None,
    }
}

/// The coplanar-motion tier ([`super::coplanar`]), in doubles, then in
/// double-doubles; first edges apart along one line, edges on parallel
/// lines ([`super::collinear`]), and motion in parallel planes, in the two
/// coordinates that `axes` gives when it does ([`super::planar`]).
fn coplanar(points: [&Vec3; 8], axes: impl FnOnce() -> Option<Axes>) -> Option<Option<Toi>> {
    // Edges end to end along one line leave the conditions too close to
    // zero to sign: they are apart along their own directions
    // ([`super::separation`]), a far cheaper test than a subdivision
    // that fails.
    let [a, b, c, d, e, f, g, h] = points;
    if edge_edge_separated(a, b, c, d, e, f, g, h) {
        return Some(None);
    }
    // Edges on parallel lines leave the coplanar tier no normal to sign with.
    if let Some(decided) = collinear::edge_edge(points) {
        return Some(decided);
    }
    let decided = |s: Scan| match s {
        Scan::NoContact => Some(None),
        Scan::Contact(br) => Some(Some(toi(br))),
        Scan::Identical | Scan::Undecided => None,
    };
    // In parallel planes, edges that turn parallel leave the coplanar
    // tier's conditions all zero at once (`planar`).
    if let Some(decision) = axes().and_then(|axes| decided(planar::edge_edge(points, axes))) {
        return Some(decision);
    }
    decided(coplanar::earliest(coplanar::edge_edge::<Bounded>(points)))
        .or_else(|| decided(coplanar::earliest(coplanar::edge_edge::<BoundedDd>(points))))
}

/// The time of impact of a contact at the root in `br`.
#[inline]
fn toi(br: Bracket) -> Toi {
    Toi {
        lower: br.lo,
        upper: br.hi,
    }
}
