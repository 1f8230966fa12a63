//! The `exact` edge–edge solver: a floating-point fast path with certified
//! error bounds that decides almost every query, and the exact oracle
//! ([`super::oracle::edge_edge`]) for the rest.
//!
//! Fast path, as for [`super::vertex_face`]: the coplanarity cubic
//! `det[ea1−ea0, eb0−ea0, eb1−ea0]` with a certified common sign means no
//! contact (DNF); otherwise, at each root in increasing order, the segment
//! parameters' conditions `q₁…q₄ > 0` ([`super::conditions`]) on position
//! leaves valid over the root's bracket decide contact (all certainly
//! positive) or its absence at that root (one certainly negative).
//! Everything else — touching at an end point, parallel or collinear edges,
//! coplanar motion, roots at `t = 0`/`1` or multiple roots — goes to the
//! oracle.

use super::conditions;
use super::oracle;
use super::roots::{Bracket, Scan, scan};
use super::toi::{EXACT_TOI_WIDTH, Path, Toi};
use crate::math::{Vec3, in_filter_range};
use crate::primitive::{bernstein_from_scaled, certified_common_sign, coplanarity_scaled};

/// Edge–edge CCD, exact: `Some(toi)` iff the closed segments touch for some
/// `t ∈ [0, 1]`, with the earliest contact time in `[toi.lower, toi.upper]`.
/// Arguments in data set row order.
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

/// [`edge_edge`], also telling which path decided.
#[allow(clippy::too_many_arguments)]
pub fn edge_edge_traced(
    ea0_t0: &Vec3,
    ea1_t0: &Vec3,
    eb0_t0: &Vec3,
    eb1_t0: &Vec3,
    ea0_t1: &Vec3,
    ea1_t1: &Vec3,
    eb0_t1: &Vec3,
    eb1_t1: &Vec3,
) -> (Option<Toi>, Path) {
    if let Some(result) = filtered(
        ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1,
    ) {
        return (result, Path::Filtered);
    }
    let exact = oracle::edge_edge(
        ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1,
    )
    .map(|mut t| {
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
    ea0_t0: &Vec3,
    ea1_t0: &Vec3,
    eb0_t0: &Vec3,
    eb1_t0: &Vec3,
    ea0_t1: &Vec3,
    ea1_t1: &Vec3,
    eb0_t1: &Vec3,
    eb1_t1: &Vec3,
) -> Option<Option<Toi>> {
    let points = [
        ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1,
    ];
    if !points.iter().all(|p| p.iter().all(|&x| in_filter_range(x))) {
        return None;
    }
    let c = coplanarity_scaled(
        ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1,
    );
    if certified_common_sign(&c).is_some() {
        return Some(None);
    }
    let crossing = |br: Bracket| {
        conditions::edge_edge(
            ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1, &br,
        )
        .and_then(|q| conditions::decide(&q))
    };
    match scan(&bernstein_from_scaled(&c), crossing) {
        Scan::NoContact => Some(None),
        Scan::Contact(br) => Some(Some(Toi {
            lower: br.lo,
            upper: br.hi,
        })),
        Scan::Undecided => None,
    }
}
