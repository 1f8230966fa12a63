//! Case (9), contact of the lateral surface with an element (Strashnov &
//! Torgashev 2020, §IV-B, formulas (9), (10), Fig. 8; docs/design.md §3).
//!
//! The plane cuts the cylinder in the trapezoid `KLMN` with half-widths
//! `w_i = √(s(A_i)(2r − s(A_i)))` at the projections `Ã_i = A_i + s(A_i)n_P`
//! of the lowest generatrix's ends, height `h̃ = |Ã₁Ã₂|`. The trapezoid is
//! tested against the element by SAT (ref. \[3\]; 3 axes of the trapezoid plus
//! the element's). If they overlap, the projected axis segment `Ã₁Ã₂` is
//! clipped by the element (Cyrus–Beck, ref. \[18\]) to `[t₁, t₂]` and the ends
//! give contact points (10): `P_i = A₁ + t_i·A₁A₂`, `d_i = s(P_i)`, `n = n_P`; the
//! element's corners go to `G_F`. If the segment misses the element, its
//! closest points `Q_i` and distance `d_min` go to `Ω_E`.
//!
//! Deviations and remarks:
//! - `w_i` is the half-chord of base `i` at the plane only when the axis is
//!   parallel to the element (the case of Fig. 8); for a tilted axis the
//!   chord lies at `s(A_i)/|w·n_P|` from `A_i` along `w`, not at `Ã_i`, and the
//!   section's sides are elliptic arcs, so the trapezoid is an inscribed
//!   approximation: an element touching only the bulge is rejected by SAT
//!   though it meets the cylinder. The decision is the exact test's (see
//!   `section`); such elements are counted and passed to `Ω_E` with a point
//!   inside the cylinder.
//! - `s(A_i) > 2r` (the whole base below the plane; outside the paper's
//!   small-penetration assumption) makes `w_i` imaginary; we clamp `s(A_i)`
//!   to `[0, 2r]`.

use super::super::heightfield::Element;
use super::super::shapes::Cylinder;
use super::Stats;
use super::base_contact::push_fallback;
use super::manifold::{ContactPoint, PointSource};
use super::planar::{closest_to_segment, cyrus_beck, separated};
use super::section::Witness;
use super::setup::Setup;
use super::workspace::{OmegaE, Workspace};
use crate::math::Real;

/// Processes one element in case (9).
pub(crate) fn lateral_contact(
    cyl: &Cylinder,
    el: &Element,
    setup: &Setup,
    witness: &Witness,
    slack: Real,
    ws: &mut Workspace,
    stats: &mut Stats,
) {
    stats.lateral += 1;
    let n = el.normal;
    let r = cyl.radius();
    let at1 = setup.a1 + setup.s_a1 * n;
    let at2 = setup.a2 + setup.s_a2 * n;
    let half_width = |s: Real| {
        let s = s.clamp(0.0, 2.0 * r);
        (s * (2.0 * r - s)).sqrt()
    };
    let (w1, w2) = (half_width(setup.s_a1), half_width(setup.s_a2));
    let mut trap = [
        at1 - w1 * setup.u,
        at2 - w2 * setup.u,
        at2 + w2 * setup.u,
        at1 + w1 * setup.u,
    ];
    if (trap[1] - trap[0]).cross(&(trap[3] - trap[0])).dot(&n) < 0.0 {
        trap.reverse();
    }
    if separated(&trap, el.corners(), &n, slack) {
        stats.paper_misses[1] += 1;
        push_fallback(el, witness, ws);
        return;
    }
    if let Some((t1, t2)) = cyrus_beck(&at1, &at2, el.corners(), &n, slack) {
        let a12 = setup.a2 - setup.a1;
        for t in [t1, t2] {
            let point = setup.a1 + t * a12;
            ws.raw.push(ContactPoint {
                point,
                depth: el.s(&point),
                normal: n,
                source: PointSource::LateralClip,
            });
        }
        ws.add_all_g_f(el);
    } else {
        let (d_min, q, nq) = closest_to_segment(&at1, &at2, el.corners(), &n, slack);
        ws.omega_e.push(OmegaE {
            d_min,
            element: *el,
            q,
            nq,
            witness: witness.point,
        });
    }
}
