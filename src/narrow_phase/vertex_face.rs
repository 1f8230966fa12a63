//! The `exact` vertex–face solver: a floating-point fast path with certified
//! error bounds that decides almost every query, and the exact oracle
//! ([`super::oracle::vertex_face`]) for the rest.
//!
//! Fast path (SPEC §1–2; every step certified or abandoned):
//! 1. all coordinates in the filter range ([`crate::math::in_filter_range`]);
//! 2. the coplanarity cubic `det[f1−f0, f2−f0, v−f0]` in Bernstein form
//!    ([`crate::primitive::coplanarity_scaled`]): if all coefficients have the
//!    same certified sign there is no coplanar instant, hence no contact
//!    (this is the DNF test of Tang, Manocha & Tong 2010);
//! 3. its roots in increasing order ([`super::roots::scan`]); at each, the
//!    inside conditions `g₁, g₂, g₃ > 0` ([`super::conditions`]) evaluated on
//!    relative-position leaves valid over the root's bracket
//!    ([`super::leaf`]); all
//!    certainly positive — contact, at the earliest root, with the bracket as
//!    the time of impact; one certainly negative — no contact at this root.
//!
//! Anything else (contact on an edge or vertex, coplanar motion, a root at
//! `t = 0` or `1`, a double root, a degenerate triangle) goes to the oracle.

use super::conditions;
use super::oracle;
use super::roots::{Bracket, Scan, scan};
use super::toi::{EXACT_TOI_WIDTH, Path, Toi};
use crate::math::{Vec3, in_filter_range};
use crate::primitive::{bernstein_from_scaled, certified_common_sign, coplanarity_scaled};

/// Vertex–face CCD, exact: `Some(toi)` iff the vertex touches the closed
/// triangle for some `t ∈ [0, 1]`, with the earliest contact time in
/// `[toi.lower, toi.upper]`. Arguments in data set row order.
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

/// [`vertex_face`], also telling which path decided.
#[allow(clippy::too_many_arguments)]
pub fn vertex_face_traced(
    v_t0: &Vec3,
    f0_t0: &Vec3,
    f1_t0: &Vec3,
    f2_t0: &Vec3,
    v_t1: &Vec3,
    f0_t1: &Vec3,
    f1_t1: &Vec3,
    f2_t1: &Vec3,
) -> (Option<Toi>, Path) {
    if let Some(result) = filtered(v_t0, f0_t0, f1_t0, f2_t0, v_t1, f0_t1, f1_t1, f2_t1) {
        return (result, Path::Filtered);
    }
    let exact =
        oracle::vertex_face(v_t0, f0_t0, f1_t0, f2_t0, v_t1, f0_t1, f1_t1, f2_t1).map(|mut t| {
            t.refine_to(EXACT_TOI_WIDTH);
            Toi {
                lower: t.lower_f64(),
                upper: t.upper_f64(),
            }
        });
    (exact, Path::Exact)
}

/// The fast path: `Some(decision)` when certified, `None` to fall back.
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
) -> Option<Option<Toi>> {
    let points = [v_t0, f0_t0, f1_t0, f2_t0, v_t1, f0_t1, f1_t1, f2_t1];
    if !points.iter().all(|p| p.iter().all(|&x| in_filter_range(x))) {
        return None;
    }
    let c = coplanarity_scaled(f0_t0, f1_t0, f2_t0, v_t0, f0_t1, f1_t1, f2_t1, v_t1);
    if certified_common_sign(&c).is_some() {
        return Some(None);
    }
    let inside = |br: Bracket| {
        conditions::vertex_face(v_t0, f0_t0, f1_t0, f2_t0, v_t1, f0_t1, f1_t1, f2_t1, &br)
            .and_then(|g| conditions::decide(&g))
    };
    match scan(&bernstein_from_scaled(&c), inside) {
        Scan::NoContact => Some(None),
        Scan::Contact(br) => Some(Some(Toi {
            lower: br.lo,
            upper: br.hi,
        })),
        Scan::Undecided => None,
    }
}
