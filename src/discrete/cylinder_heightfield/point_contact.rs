//! Case (11), contact of the lower base with an element in one point
//! (Strashnov & Torgashev 2020, §IV-C, formulas (11), (12), Fig. 6;
//! docs/design.md §3).
//!
//! `Q` is the element's point closest to `Ã₁`, the projection of `A₁` onto the
//! element plane. If `Q` is outside the cylinder (`|z_Q| > h/2` or
//! `r_Q > r` in the cylinder's frame) the paper rejects the element. If
//! `Q = Ã₁`, the contact is (12): `P = A₁`, `d = s(A₁)`, `n = n_P`, and the
//! corners go to `G_F`; otherwise the element goes to `Ω_E` with `Q`.
//!
//! Deviations:
//! - The paper writes `Ã₁ = A₁ − s(A₁)n_P`; with `s(P) = k_P − P·n_P` the
//!   projection is `A₁ + s(A₁)n_P` (as it writes `C̃₁ = C₁ + s(C₁)n_P` in
//!   §IV-A). A sign typo; we use `+`.
//! - The region where the plane cuts the cylinder is a thin cap that reaches
//!   far along `u`; an element can cross it while its point closest to `Ã₁`
//!   lies outside the cylinder. The paper rejects it; the exact test keeps
//!   it (counted, and passed to `Ω_E` with a point inside the cylinder).

use super::super::heightfield::Element;
use super::super::shapes::Cylinder;
use super::Stats;
use super::base_contact::push_fallback;
use super::manifold::{ContactPoint, PointSource};
use super::planar::closest_on_polygon;
use super::section::Witness;
use super::setup::Setup;
use super::workspace::{OmegaE, Workspace};
use crate::math::Real;

/// Processes one element in case (11).
pub(crate) fn point_contact(
    cyl: &Cylinder,
    el: &Element,
    setup: &Setup,
    witness: &Witness,
    slack: Real,
    ws: &mut Workspace,
    stats: &mut Stats,
) {
    stats.single_point += 1;
    let n = el.normal;
    let at1 = setup.a1 + setup.s_a1 * n;
    let q = closest_on_polygon(el.corners(), &n, &at1);
    let d = q - cyl.centre();
    let z = d.dot(&cyl.axis());
    let rho = (d - z * cyl.axis()).norm();
    if z.abs() > 0.5 * cyl.height() + slack || rho > cyl.radius() + slack {
        stats.paper_misses[2] += 1;
        push_fallback(el, witness, ws);
        return;
    }
    let d_min = (q - at1).norm();
    if d_min <= slack {
        ws.raw.push(ContactPoint {
            point: setup.a1,
            depth: setup.s_a1,
            normal: n,
            source: PointSource::SinglePoint,
        });
        ws.add_all_g_f(el);
    } else {
        ws.omega_e.push(OmegaE {
            d_min,
            element: *el,
            q: [q, q],
            nq: 1,
            witness: witness.point,
        });
    }
}
