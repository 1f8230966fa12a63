//! The second pass over `Ω_I` and `Ω_E` (Strashnov & Torgashev 2020, §IV-D,
//! formulas (13), (14); docs/design.md §3).
//!
//! `Ω_I` (elements entirely inside the projected base), nearest the ellipse
//! boundary first: each corner not in `G_F` is added to `G_I` and `G_F`; a
//! corner already in `G_F` is removed from `G_I` ("it is surely inside the
//! contact patch"). The corners left in `G_I` are on the patch boundary and
//! give points by the analogue of (8) (back-projection onto the base).
//!
//! `Ω_E` (lateral and one-point elements without clipped points), nearest
//! first: a closest point `Q_i` that does not lie on an edge joining two
//! `G_F` corners belongs to another contact patch. With `z_Q`, `r_Q` its
//! coordinates in the cylinder frame, `Q′ = C + z_Q·v`,
//! `l₁ = h/2 − |z_Q|`, `l₂ = r − r_Q`: if `l₁ < l₂` and `|v·n_P| ≥ ε_v` the point
//! is on a base, (13): `P = Q + sgn(z_Q)·l₁·v`, `d = l₁`, `n = −sgn(z_Q)·v`;
//! else on the lateral surface, (14): `n = QQ′/r_Q`, `P = Q′ − r·n`,
//! `d = l₂`. Then all corners of the element go to `G_F`.
//!
//! Deviations:
//! - The paper does not check that `Q_i` is inside the cylinder; outside,
//!   (13)/(14) give a negative depth. We skip such points, and use the exact
//!   test's witness (the element's deepest point of a few candidates) for an
//!   element none of whose `Q_i` is inside.
//! - When an element edge runs parallel to the projected generatrix, the
//!   paper's `Q₁`, `Q₂` are the ends of that stretch. On a convex crest (the
//!   wheel on the hill's top in Fig. 10) those are its lowest parts: the
//!   depth comes out 6.5 mm for a 10 mm penetration. The witness is added
//!   too when it is deeper than the element's `Q_i` points.
//! - `r_Q ≈ 0` (`Q` on the axis, within the rounding slack) leaves (14)'s normal undefined; there we use
//!   (13) if the axis is not parallel to the element, else `n = n_P`,
//!   `P = Q`, `d = l₂`.
//! - (13) takes the base nearest to `Q`; when `Q` is nearer the **upper**
//!   base (deep penetration, outside the paper's small-penetration
//!   assumption) its normal `−sgn(z_Q)·v` pushes the cylinder into the
//!   terrain (`n·n_P < 0`). The terrain is solid below, so there we use (14).
//! - "At the end of processing" is read as: after each element.

use super::super::heightfield::Element;
use super::super::shapes::Cylinder;
use super::manifold::{ContactPoint, PointSource};
use super::planar::closest_on_segment;
use super::workspace::Workspace;
use crate::math::{Real, Vec3};

/// Formulas (13)/(14) for a point `q` of an element with normal `n_p`;
/// `None` when `q` is outside the cylinder (beyond `2·slack`).
pub(crate) fn contact_13_14(
    cyl: &Cylinder,
    n_p: &Vec3,
    q: &Vec3,
    eps_v: Real,
    slack: Real,
) -> Option<ContactPoint> {
    let v = cyl.axis();
    let c = cyl.centre();
    let d = q - c;
    let z = d.dot(&v);
    let radial = d - z * v;
    let r_q = radial.norm();
    let l1 = 0.5 * cyl.height() - z.abs();
    let l2 = cyl.radius() - r_q;
    // Points from the exact test lie within `slack` of the cylinder and
    // pick up a little more rounding on the way here: allow twice the slack.
    if l1 < -2.0 * slack || l2 < -2.0 * slack {
        return None;
    }
    let q_axis = c + z * v;
    let not_parallel = v.dot(n_p).abs() >= eps_v;
    let sgn = if z >= 0.0 { 1.0 } else { -1.0 };
    // Within the slack of the axis, (14)'s normal QQ′/r_Q is noise.
    let on_axis = r_q <= slack;
    // (13)'s normal −sgn(z_Q)·v must not push the cylinder into the terrain.
    let outward = -sgn * v.dot(n_p) >= 0.0;
    if (l1 < l2 || on_axis) && not_parallel && outward {
        return Some(ContactPoint {
            point: q + sgn * l1 * v,
            depth: l1,
            normal: -sgn * v,
            source: PointSource::SecondPassBase,
        });
    }
    if on_axis {
        return Some(ContactPoint {
            point: *q,
            depth: l2,
            normal: *n_p,
            source: PointSource::SecondPassLateral,
        });
    }
    // n = QQ′/r_Q = −(radial part of CQ)/r_Q.
    let n = -radial / r_q;
    Some(ContactPoint {
        point: q_axis - cyl.radius() * n,
        depth: l2,
        normal: n,
        source: PointSource::SecondPassLateral,
    })
}

/// Whether `q` lies (within `tol`) on an edge of `el` whose ends are both in
/// `G_F`.
fn on_g_f_edge(el: &Element, q: &Vec3, tol: Real, ws: &Workspace) -> bool {
    let m = el.len;
    (0..m).any(|k| {
        let k1 = (k + 1) % m;
        ws.in_g_f(el.vertex_ids[k])
            && ws.in_g_f(el.vertex_ids[k1])
            && (closest_on_segment(&el.vertices[k], &el.vertices[k1], q).0 - q).norm() <= tol
    })
}

/// Runs the second pass, appending to `ws.raw`; returns the number of points
/// it added.
pub(crate) fn second_pass(cyl: &Cylinder, eps_v: Real, slack: Real, ws: &mut Workspace) -> usize {
    let before = ws.raw.len();
    // Ω_I: sort by the distance to the ellipse boundary (stable: ties keep
    // element order, so the result is deterministic).
    ws.omega_i.sort_by(|a, b| a.key.total_cmp(&b.key));
    for k in 0..ws.omega_i.len() {
        let entry = ws.omega_i[k];
        let el = &entry.element;
        for c in 0..el.len {
            let id = el.vertex_ids[c];
            if !ws.in_g_f(id) {
                ws.add_g_i(id, el.vertices[c], entry.frame);
                ws.add_g_f(id);
            } else {
                ws.remove_g_i(id);
            }
        }
    }
    for k in 0..ws.g_i.len() {
        let g = ws.g_i[k];
        if g.alive {
            let cp = ws.frames[g.frame].back_project_point(&g.position);
            ws.raw.push(cp);
        }
    }
    // Ω_E: nearest first.
    ws.omega_e.sort_by(|a, b| a.d_min.total_cmp(&b.d_min));
    for k in 0..ws.omega_e.len() {
        let entry = ws.omega_e[k];
        let el = &entry.element;
        // Covered: some Q_i is on a G_F edge (another patch has it) or gave
        // a point. `deepest`: the largest depth this element gave.
        let mut covered = false;
        let mut deepest = Real::NEG_INFINITY;
        for q in &entry.q[..entry.nq] {
            if on_g_f_edge(el, q, slack, ws) {
                covered = true;
            } else if let Some(cp) = contact_13_14(cyl, &el.normal, q, eps_v, slack) {
                deepest = deepest.max(cp.depth);
                ws.raw.push(cp);
                covered = true;
            }
        }
        // The element's deepest point from the exact test, when no Q_i gave a
        // point or it is deeper than theirs (a convex crest under a lateral
        // surface: the Q_i are the ends of the crest edge, its lowest parts).
        let w = &entry.witness;
        if (!covered || deepest > Real::NEG_INFINITY)
            && !on_g_f_edge(el, w, slack, ws)
            && let Some(cp) = contact_13_14(cyl, &el.normal, w, eps_v, slack)
            && cp.depth > deepest + slack
        {
            ws.raw.push(cp);
        }
        ws.add_all_g_f(el);
    }
    ws.raw.len() - before
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formula_13_near_a_base_and_14_near_the_side() {
        let cyl = Cylinder::new(Vec3::zeros(), Vec3::z(), 1.0, 2.0).unwrap();
        // Q just above the bottom base, near the axis: l₁ = 0.1 < l₂ = 0.8.
        let q = Vec3::new(0.2, 0.0, -0.9);
        let cp = contact_13_14(&cyl, &Vec3::z(), &q, 1e-3, 0.0).unwrap();
        assert_eq!(cp.source, PointSource::SecondPassBase);
        assert!((cp.point - Vec3::new(0.2, 0.0, -1.0)).norm() < 1e-15);
        assert!((cp.depth - 0.1).abs() < 1e-15);
        assert_eq!(cp.normal, Vec3::z());
        // Just under the top base with the terrain's normal up: (13) would
        // push the cylinder down into the terrain; (14) is used.
        let q = Vec3::new(0.2, 0.0, 0.9);
        let cp = contact_13_14(&cyl, &Vec3::z(), &q, 1e-3, 0.0).unwrap();
        assert_eq!(cp.source, PointSource::SecondPassLateral);
        assert_eq!(cp.normal, -Vec3::x());
        assert!((cp.depth - 0.8).abs() < 1e-15);
        // With a downward element normal (impossible on a height grid, but
        // the formula allows it) (13) applies.
        let cp = contact_13_14(&cyl, &-Vec3::z(), &q, 1e-3, 0.0).unwrap();
        assert_eq!(
            (cp.source, cp.normal),
            (PointSource::SecondPassBase, -Vec3::z())
        );
        // Q near the side: l₂ = 0.05 < l₁ = 1.
        let q = Vec3::new(0.0, 0.95, 0.0);
        let cp = contact_13_14(&cyl, &Vec3::x(), &q, 1e-3, 0.0).unwrap();
        assert_eq!(cp.source, PointSource::SecondPassLateral);
        assert!((cp.point - Vec3::new(0.0, 1.0, 0.0)).norm() < 1e-15);
        assert!((cp.depth - 0.05).abs() < 1e-15);
        assert_eq!(cp.normal, -Vec3::y());
        // Outside: no point.
        assert!(contact_13_14(&cyl, &Vec3::z(), &Vec3::new(1.1, 0.0, 0.0), 1e-3, 0.0).is_none());
    }
}
