//! The `exact` vertex–face solver: floating-point tiers with certified
//! error bounds that decide almost every query, and the exact oracle
//! ([`super::oracle::vertex_face`]) for the rest.
//!
//! Static tier first ([`super::static_tier`]): the same cubic and conditions
//! in plain doubles with error bounds precomputed from per-axis magnitudes;
//! it decides the generic queries and defers every doubt.
//!
//! Fast tier (docs/design.md §1–2, §9; every step certified or abandoned), in
//! [`crate::math::Bounded`] doubles:
//! 1. all coordinates in the filter range ([`crate::math::in_filter_range`]);
//! 2. the coplanarity cubic `det[f1−f0, f2−f0, v−f0]` in Bernstein form
//!    ([`super::certified::coplanarity`]): if all coefficients have the same
//!    certified sign there is no coplanar instant, hence no contact (this is
//!    the DNF test of Tang, Manocha & Tong 2010);
//! 3. its roots in increasing order ([`super::roots::scan`]; structural
//!    zeros at `t = 0` or `1` divided out and visited first, resp. last); at
//!    each, the inside conditions ([`super::conditions`]) evaluated on
//!    relative-position leaves valid over the root's bracket
//!    ([`super::leaf`]): certainly inside (edges and vertices included, where
//!    an exact zero is proven) — contact, at the earliest root, with the
//!    bracket as the time of impact; certainly outside — no contact at this
//!    root.
//!
//! Precise tier, when the fast one cannot decide: the same with the cubic in
//! double-double arithmetic ([`crate::math::BoundedDd`]), which brackets the
//! roots to a few ulps, and the conditions evaluated in double-double at both
//! ends of each bracket ([`super::conditions::vertex_face_precise`]).
//!
//! First of all, a vertex that coincides with a corner at `t = 0` touches
//! at `t = 0` ([`super::start_contact`]), which the tiers would sign slowly
//! or defer. A triangle collapsed onto a line at every time is decided
//! exactly ([`super::collinear`]: the vertex off that line never touches it,
//! one on it is a one-dimensional problem) where the cubic vanishes
//! identically or could not be signed in floating point. Where it vanishes
//! identically (or its coefficients round away from zero while the points
//! move in parallel planes), motion in parallel planes is decided in two
//! coordinates ([`super::planar`]; a triangle turning over in them
//! included), other coplanar motion by [`super::coplanar`].
//!
//! At a root exactly at `t = 0` or `t = 1` the precise tier signs the
//! conditions exactly ([`super::end_conditions`]: a vertex on a slanted edge
//! at the start).
//!
//! Anything else (a contact exactly on an edge or a vertex inside the step
//! that no structural argument proves, a double root, all four points on one line
//! at one instant where the planar tier cannot settle it) goes to the
//! oracle.

use super::certified::{coplanarity, coplanarity_exact};
use super::collinear;
use super::conditions;
use super::coplanar;
use super::end_conditions;
use super::oracle;
use super::planar::{self, Axes};
use super::roots::{Bracket, FAST, PRECISE, Scan, scan};
use super::start_contact;
use super::static_tier;
use super::toi::{SolverTier, Toi};
use crate::math::{Bounded, BoundedDd, RangeCheck, Vec3, scaled_into_range};
use crate::pair_kernel::certified_common_sign;

/// Vertex–face CCD, exact: `Some(toi)` iff the vertex touches the closed
/// triangle for some `t ∈ [0, 1]`, with the earliest contact time in
/// `[toi.lower, toi.upper]`. Arguments: the vertex and the triangle's
/// corners `v, f0, f1, f2` at `t = 0`, then the same at `t = 1` (the data
/// sets' row order). Exact for every finite double (outside
/// [`crate::math::in_filter_range`] scaled into it by a power of two when
/// one does, else on the slower exact path). A non-finite
/// coordinate (NaN, ±∞) gives `None`: check inputs that may blow up with
/// [`crate::mesh::check_finite`]; `Step::new` and `Pipeline::step` refuse them.
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn vertex_face(
    v_t0: &Vec3,
    f0_t0: &Vec3,
    f1_t0: &Vec3,
    f2_t0: &Vec3,
    v_t1: &Vec3,
    f0_t1: &Vec3,
    f1_t1: &Vec3,
    f2_t1: &Vec3,
) -> Option<Toi> {
    vertex_face_traced(v_t0, f0_t0, f1_t0, f2_t0, v_t1, f0_t1, f1_t1, f2_t1).0
}

/// [`vertex_face`], also telling which tier decided.
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn vertex_face_traced(
    v_t0: &Vec3,
    f0_t0: &Vec3,
    f1_t0: &Vec3,
    f2_t0: &Vec3,
    v_t1: &Vec3,
    f0_t1: &Vec3,
    f1_t1: &Vec3,
    f2_t1: &Vec3,
) -> (Option<Toi>, SolverTier) {
    vertex_face_traced_with(
        v_t0,
        f0_t0,
        f1_t0,
        f2_t0,
        v_t1,
        f0_t1,
        f1_t1,
        f2_t1,
        RangeCheck::PerQuery,
    )
}

/// [`vertex_face_traced`], with the range check `range` says: per query, or
/// skipped for a pipeline that checked its whole step ([`RangeCheck`]).
/// The same results.
#[allow(clippy::too_many_arguments)]
pub(crate) fn vertex_face_traced_with(
    v_t0: &Vec3,
    f0_t0: &Vec3,
    f1_t0: &Vec3,
    f2_t0: &Vec3,
    v_t1: &Vec3,
    f0_t1: &Vec3,
    f1_t1: &Vec3,
    f2_t1: &Vec3,
    range: RangeCheck,
) -> (Option<Toi>, SolverTier) {
    match vertex_face_certified_with(v_t0, f0_t0, f1_t0, f2_t0, v_t1, f0_t1, f1_t1, f2_t1, range) {
        Some(result) => (result, SolverTier::Float),
        None => {
            let exact = oracle::vertex_face(v_t0, f0_t0, f1_t0, f2_t0, v_t1, f0_t1, f1_t1, f2_t1)
                .map(Toi::of_exact);
            (exact, SolverTier::Exact)
        }
    }
}

/// [`vertex_face_traced_with`] without the oracle: `Some(decision)` when
/// certified in floating point (or by point equality), `None` where the
/// oracle would decide. Non-finite coordinates give `Some(None)`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn vertex_face_certified_with(
    v_t0: &Vec3,
    f0_t0: &Vec3,
    f1_t0: &Vec3,
    f2_t0: &Vec3,
    v_t1: &Vec3,
    f0_t1: &Vec3,
    f1_t1: &Vec3,
    f2_t1: &Vec3,
    range: RangeCheck,
) -> Option<Option<Toi>> {
    // A non-finite coordinate: no contact (documented; the exact path
    // takes finite doubles). A checked step is finite throughout.
    if !range.finite(&[v_t0, f0_t0, f1_t0, f2_t0, v_t1, f0_t1, f1_t1, f2_t1]) {
        return Some(None);
    }
    // Coincident points at the start: contact at t = 0, before any tier
    // (the tiers would sign these slowly or defer them).
    if start_contact::vertex_face_touch_at_start(v_t0, f0_t0, f1_t0, f2_t0) {
        return Some(Some(Toi::exact(0.0)));
    }
    let points = [v_t0, f0_t0, f1_t0, f2_t0, v_t1, f0_t1, f1_t1, f2_t1];
    match filtered(v_t0, f0_t0, f1_t0, f2_t0, v_t1, f0_t1, f1_t1, f2_t1, range) {
        Some(decided) => Some(decided),
        // Outside the filter range: the query scaled by a power of two,
        // exactly, when one brings it in (`scaled_into_range`).
        None if !range.in_range(&points) => {
            let [a, b, c, d, e, f, g, h] = scaled_into_range(&points)?;
            filtered(&a, &b, &c, &d, &e, &f, &g, &h, RangeCheck::PerQuery)
        }
        None => None,
    }
}

/// The float tiers: `Some(decision)` when certified, `None` to fall back.
#[allow(clippy::too_many_arguments)]
#[inline]
fn filtered(
    v_t0: &Vec3,
    f0_t0: &Vec3,
    f1_t0: &Vec3,
    f2_t0: &Vec3,
    v_t1: &Vec3,
    f0_t1: &Vec3,
    f1_t1: &Vec3,
    f2_t1: &Vec3,
    range: RangeCheck,
) -> Option<Option<Toi>> {
    let points = [v_t0, f0_t0, f1_t0, f2_t0, v_t1, f0_t1, f1_t1, f2_t1];
    if !range.in_range(&points) {
        return None;
    }
    if let Some(decided) =
        static_tier::vertex_face(v_t0, f0_t0, f1_t0, f2_t0, v_t1, f0_t1, f1_t1, f2_t1)
    {
        return Some(decided.map(toi));
    }
    let c: [Bounded; 4] = coplanarity(f0_t0, f1_t0, f2_t0, v_t0, f0_t1, f1_t1, f2_t1, v_t1);
    if certified_common_sign(&c).is_some() {
        return Some(None);
    }
    let inside = |br: Bracket| {
        conditions::vertex_face(v_t0, f0_t0, f1_t0, f2_t0, v_t1, f0_t1, f1_t1, f2_t1, &br)
    };
    match scan::<_, FAST>(&c, inside) {
        Scan::NoContact => return Some(None),
        Scan::Contact(br) => return Some(Some(toi(br))),
        Scan::Identical => return coplanar(points, || planar::plane_axes(&points)),
        Scan::Undecided => {}
    }
    // The precise tier: the cubic and, where needed, the conditions in
    // double-double arithmetic.
    let c: [BoundedDd; 4] = coplanarity(f0_t0, f1_t0, f2_t0, v_t0, f0_t1, f1_t1, f2_t1, v_t1);
    let inside = |br: Bracket| {
        inside(br)
            .or_else(|| {
                conditions::vertex_face_precise(
                    v_t0, f0_t0, f1_t0, f2_t0, v_t1, f0_t1, f1_t1, f2_t1, &br,
                )
            })
            .or_else(|| end_conditions::vertex_face(points, &br))
    };
    match scan::<_, PRECISE>(&c, inside) {
        Scan::NoContact => return Some(None),
        Scan::Contact(br) => return Some(Some(toi(br))),
        Scan::Identical => return coplanar(points, || planar::plane_axes(&points)),
        Scan::Undecided => {}
    }
    // A coefficient too close to zero to sign: compute them exactly, unless
    // the triangle lies on a line (then the cubic vanishes identically and
    // the collinear tier decides without it).
    if c.iter().all(|x| x.sign().is_some()) {
        return None;
    }
    if let Some(decided) = collinear::vertex_face(points) {
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
    if let Some(c) =
        end_conditions::zero_ends(&c, [f0_t0, f1_t0, f2_t0, v_t0], [f0_t1, f1_t1, f2_t1, v_t1])
    {
        match scan::<_, PRECISE>(&c, inside) {
            Scan::NoContact => return Some(None),
            Scan::Contact(br) => return Some(Some(toi(br))),
            Scan::Identical => return coplanar(points, || None),
            Scan::Undecided => {}
        }
    }
    let c = coplanarity_exact(f0_t0, f1_t0, f2_t0, v_t0, f0_t1, f1_t1, f2_t1, v_t1)?;
    match scan::<_, PRECISE>(&c, inside) {
        Scan::NoContact => Some(None),
        Scan::Contact(br) => Some(Some(toi(br))),
        Scan::Identical => coplanar(points, || None),
        Scan::Undecided => None,
    }
}

/// The coplanar-motion tier ([`super::coplanar`]), in doubles, then in
/// double-doubles; first, a triangle collapsed onto a line, which leaves
/// it no normal to sign with ([`super::collinear`]), then motion in
/// parallel planes, in the two coordinates that `axes` gives when it does
/// ([`super::planar`]).
fn coplanar(points: [&Vec3; 8], axes: impl FnOnce() -> Option<Axes>) -> Option<Option<Toi>> {
    if let Some(decided) = collinear::vertex_face(points) {
        return Some(decided);
    }
    let decided = |s: Scan| match s {
        Scan::NoContact => Some(None),
        Scan::Contact(br) => Some(Some(toi(br))),
        Scan::Identical | Scan::Undecided => None,
    };
    // In parallel planes, a triangle that turns over leaves the coplanar
    // tier's conditions all zero at once (`planar`).
    if let Some(decision) = axes().and_then(|axes| decided(planar::vertex_face(points, axes))) {
        return Some(decision);
    }
    decided(coplanar::earliest(coplanar::vertex_face::<Bounded>(points))).or_else(|| {
        decided(coplanar::earliest(coplanar::vertex_face::<BoundedDd>(
            points,
        )))
    })
}

/// The time of impact of a contact at the root in `br`.
#[inline]
fn toi(br: Bracket) -> Toi {
    Toi {
        lower: br.lo,
        upper: br.hi,
    }
}
