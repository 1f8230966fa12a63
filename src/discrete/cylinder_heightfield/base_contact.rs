//! Case (6), contact of the lower base with an element (Strashnov &
//! Torgashev 2020, §IV-A, formulas (6)–(8), Fig. 7; docs/design.md §3).
//!
//! The lower base projects onto the element plane as an ellipse with centre
//! `C̃₁ = C₁ + s(C₁)n_P` and semi-axes `a = |C̃₁Ã₁|`, `b = |C̃₁D̃₁|`
//! (`D₁ = C₁ + r·u`, `u = v × w`), formula (7): `E(x₁, y₁) = 1 − x₁²/a² − y₁²/b²`.
//! Edge crossings of the ellipse solve `k₀t² + 2k₁t + k₂ = 0`; each crossing
//! `P̃` is projected back onto the base circle, formula (8):
//! `P = C₁ + (P̃_x/a)·C₁A₁ + (P̃_y/b)·C₁D₁`, `d = s(P)`, `n = n_P`. All corners of a
//! crossing element go to `G_F`, those inside the ellipse also to `G_I`;
//! elements entirely inside go to `Ω_I`, sorted by their distance to the
//! ellipse boundary.
//!
//! Where we differ from the paper, and why:
//! - **The rejection test.** The paper rejects an element when its point
//!   closest to `C̃₁` is outside the ellipse. That is exact for a circle, not
//!   for an ellipse: with `a = 2`, `b = 1`, the line `x − y = 1.9` passes
//!   through `(1.9, 0)`, inside, while its point closest to the centre,
//!   `(0.95, −0.95)`, has `E = −0.128 < 0`. We test in the coordinates
//!   `(x/a, y/b)`, where the ellipse is the unit disc and the closest point
//!   decides exactly; elements the paper's test would reject are counted.
//! - **Edges with both ends outside** can cross the ellipse twice; the paper
//!   parametrises only inside-to-outside edges. We keep every root in
//!   `[0, 1]`.
//! - **An ellipse inside one element** (a barrel standing on a large facet)
//!   has no edge crossings and no corners inside, so the paper's procedure
//!   yields no point (it hands the flat case to a cylinder–plane test, ref.
//!   \[17\], not in our sources). We add the four ends of the ellipse's axes,
//!   `(±a, 0)`, `(0, ±b)` — i.e. `C₁ ± r·w`, `C₁ ± r·u` by (8) — whenever they lie
//!   in the element.
//! - **The projected base is not the section.** The plane meets the
//!   cylinder in the full section ellipse (semi-axes `r/cos θ` and `r`,
//!   centred on the axis), larger than the projected base (`r·cos θ`, `r`). An
//!   element that meets the section but not the projected base (the uphill
//!   side of a barrel sunk into a slope) meets the cylinder; the paper drops
//!   it, we pass it to `Ω_E` with a point of the element inside the cylinder.

use super::super::heightfield::Element;
use super::super::shapes::Cylinder;
use super::Stats;
use super::manifold::{ContactPoint, PointSource};
use super::planar::{closest_on_polygon, contains};
use super::section::Witness;
use super::setup::Setup;
use super::workspace::{OmegaE, OmegaI, Workspace};
use crate::math::{Real, Vec3};

/// The ellipse frame of one base-contact element.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BaseFrame {
    c1: Vec3,
    c1a1: Vec3,
    c1d1: Vec3,
    ct: Vec3,
    xi: Vec3,
    eta: Vec3,
    a: Real,
    b: Real,
    pub normal: Vec3,
    k: Real,
}

impl BaseFrame {
    fn new(cyl: &Cylinder, el: &Element, s: &Setup) -> BaseFrame {
        let r = cyl.radius();
        let n = el.normal;
        let d1 = s.c1 + r * s.u;
        // C̃₁, Ã₁, D̃₁: projections along n_P (X + s(X)·n_P).
        let ct = s.c1 + el.s(&s.c1) * n;
        let at = s.a1 + s.s_a1 * n;
        let dt = d1 + el.s(&d1) * n;
        let (xa, xd) = (at - ct, dt - ct);
        let (a, b) = (xa.norm(), xd.norm());
        BaseFrame {
            c1: s.c1,
            c1a1: r * s.w,
            c1d1: r * s.u,
            ct,
            xi: xa / a,
            eta: xd / b,
            a,
            b,
            normal: n,
            k: el.k,
        }
    }

    /// `(x₁/a, y₁/b)` of an in-plane point, with `x₁ = C̃₁P·ξ`, `y₁ = C̃₁P·η`.
    #[inline]
    fn scaled(&self, p: &Vec3) -> (Real, Real) {
        let d = p - self.ct;
        (d.dot(&self.xi) / self.a, d.dot(&self.eta) / self.b)
    }

    /// Formula (8) from scaled coordinates, with `d = s(P)`.
    #[inline]
    pub(crate) fn back_project(&self, sx: Real, sy: Real, source: PointSource) -> ContactPoint {
        let point = self.c1 + sx * self.c1a1 + sy * self.c1d1;
        ContactPoint {
            point,
            depth: self.k - point.dot(&self.normal),
            normal: self.normal,
            source,
        }
    }

    /// Formula (8) for a vertex position (the second pass's `G_I` points).
    pub(crate) fn back_project_point(&self, p: &Vec3) -> ContactPoint {
        let (sx, sy) = self.scaled(p);
        self.back_project(sx, sy, PointSource::BaseVertex)
    }
}

/// Processes one element in case (6). `witness` is the exact test's point of
/// the element inside the cylinder.
pub(crate) fn base_contact(
    cyl: &Cylinder,
    el: &Element,
    setup: &Setup,
    witness: &Witness,
    slack: Real,
    ws: &mut Workspace,
    stats: &mut Stats,
) {
    stats.base += 1;
    let frame = BaseFrame::new(cyl, el, setup);
    if !(frame.a > 0.0 && frame.b > 0.0) {
        // The axis is parallel to the plane: (6) cannot hold; defensive.
        push_fallback(el, witness, ws);
        return;
    }
    // Scaled corners, as in-plane points of a frame where the ellipse is the
    // unit circle; orientation kept with the sign of (ξ × η)·n_P.
    let m = el.len;
    let mut sc = [Vec3::zeros(); 4];
    let mut inside = [false; 4];
    let mut e_min = Real::INFINITY;
    for k in 0..m {
        let (x, y) = frame.scaled(&el.vertices[k]);
        sc[k] = Vec3::new(x, y, 0.0);
        let e = 1.0 - x * x - y * y; // E of formula (7) in scaled form
        inside[k] = e > 0.0;
        e_min = e_min.min(e);
    }
    let sc = &sc[..m];
    let zn = if frame.xi.cross(&frame.eta).dot(&el.normal) >= 0.0 {
        Vec3::z()
    } else {
        -Vec3::z()
    };
    let tol = slack / frame.a.min(frame.b);
    // The paper's test: the point closest to C̃₁ in the unscaled plane must
    // be inside the ellipse. The element meets the cylinder (exact test), so
    // a rejection here is a miss of the paper's.
    let q_paper = closest_on_polygon(el.corners(), &el.normal, &frame.ct);
    let (px, py) = frame.scaled(&q_paper);
    if 1.0 - px * px - py * py < -tol {
        stats.paper_misses[0] += 1;
    }
    // Exact element–ellipse test: closest point of the scaled polygon to 0.
    let q = closest_on_polygon(sc, &zn, &Vec3::zeros());
    if q.norm() > 1.0 + tol {
        stats.outside_projection += 1;
        push_fallback(el, witness, ws);
        return;
    }
    let f = ws.frames.len();
    ws.frames.push(frame);
    if inside[..m].iter().all(|&b| b) {
        ws.omega_i.push(OmegaI {
            key: e_min,
            element: *el,
            frame: f,
        });
        return;
    }
    // Edge crossings: P(t) = V_i + t(V_j − V_i), k₀t² + 2k₁t + k₂ = 0.
    for k in 0..m {
        let vi = sc[k];
        let dv = sc[(k + 1) % m] - vi;
        let k0 = dv.norm_squared();
        let k1 = vi.dot(&dv);
        let k2 = vi.norm_squared() - 1.0;
        if k0 == 0.0 {
            continue;
        }
        let disc = k1 * k1 - k0 * k2;
        if disc < 0.0 {
            continue;
        }
        // Stable roots: q = −(k₁ + sgn(k₁)√disc), t = q/k₀ and k₂/q.
        let sq = disc.sqrt();
        let qq = -(k1 + if k1 >= 0.0 { sq } else { -sq });
        let roots = [qq / k0, if qq != 0.0 { k2 / qq } else { qq / k0 }];
        let n_roots = if disc == 0.0 { 1 } else { 2 };
        for &t in &roots[..n_roots] {
            if (0.0..=1.0).contains(&t) {
                let p = vi + t * dv;
                let cp = frame.back_project(p.x, p.y, PointSource::BaseEdgeCrossing);
                ws.raw.push(cp);
            }
        }
    }
    // Ends of the ellipse axes lying in the element (our addition).
    for (sx, sy) in [(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)] {
        if contains(sc, &zn, &Vec3::new(sx, sy, 0.0), tol) {
            ws.raw
                .push(frame.back_project(sx, sy, PointSource::BaseRim));
        }
    }
    ws.add_all_g_f(el);
    for (k, _) in inside[..m]
        .iter()
        .enumerate()
        .filter(|(_, inside)| **inside)
    {
        ws.add_g_i(el.vertex_ids[k], el.vertices[k], f);
    }
}

/// An element that meets the cylinder but not through this case's geometry:
/// to `Ω_E`, with the exact test's witness as its point.
pub(crate) fn push_fallback(el: &Element, witness: &Witness, ws: &mut Workspace) {
    ws.omega_e.push(OmegaE {
        d_min: 0.0,
        element: *el,
        q: [witness.point; 2],
        nq: 1,
        witness: witness.point,
    });
}
