//! Does an element meet the cylinder? An exact test (up to a stated rounding
//! slack) that decides intersection for every element, whichever of the
//! paper's cases it is in (Strashnov & Torgashev 2020; docs/design.md §3).
//!
//! This is **not in the paper**. The paper decides per case with tests that
//! are exact only for small penetrations and particular poses (the closest
//! point to the ellipse centre in case (6), an inscribed trapezoid in case
//! (9), the closest point to `Ã₁` in case (11)), so each can miss a real
//! intersection (see the module doc of [`super`] for the cases). ccdlab
//! must not miss contacts, so the decision is made here and the paper's tests
//! only shape the contact points; the elements a paper test would have
//! rejected are counted in the statistics.
//!
//! Method: the element polygon is clipped to the slab `|(X − C)·v| ≤ h/2`
//! (Sutherland–Hodgman, at most 6 corners), then the distance
//! `ρ(X) = |(X − C) − ((X − C)·v)v|` to the axis, a convex function, is
//! minimised over the clipped polygon: its minimum is 0 at the point where the
//! axis crosses the plane if that point is inside, else it lies on an edge,
//! where `ρ²` is a convex quadratic in the edge parameter (closed form). The
//! element meets the cylinder iff that minimum is `≤ r` (with the slack).

use super::super::heightfield::Element;
use super::super::shapes::Cylinder;
use super::planar::contains;
use crate::math::{Real, Vec3, gamma};

/// A point of the element inside the (slack-inflated) cylinder: of a few
/// candidates (the point closest to the axis, the clipped polygon's corners
/// and centroid, the foot of the centre on the plane), the one with the
/// largest penetration `min(h/2 − |z|, r − ρ)`, so that the second pass's
/// (13)/(14) see a deep point rather than one on the slab's edge.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Witness {
    /// The point (on the element).
    pub point: Vec3,
    /// Its distance to the axis.
    pub rho: Real,
}

/// Exact element–cylinder test; `slack` widens the cylinder by the rounding
/// allowance so that touching within rounding counts.
pub(crate) fn element_meets_cylinder(el: &Element, cyl: &Cylinder, slack: Real) -> Option<Witness> {
    let c = cyl.centre();
    let v = cyl.axis();
    let half = 0.5 * cyl.height() + slack;
    // Clip by z ≤ half, then by −z ≤ half (z = (X − C)·v).
    let mut buf_a = [Vec3::zeros(); 8];
    let mut buf_b = [Vec3::zeros(); 8];
    let n_a = clip(el.corners(), &mut buf_a, |p| (p - c).dot(&v) - half);
    if n_a == 0 {
        return None;
    }
    let n_b = clip(&buf_a[..n_a], &mut buf_b, |p| -(p - c).dot(&v) - half);
    if n_b == 0 {
        return None;
    }
    let poly = &buf_b[..n_b];
    let rho_of = |p: &Vec3| {
        let d = p - c;
        (d - d.dot(&v) * v).norm()
    };
    let mut best = Witness {
        point: poly[0],
        rho: rho_of(&poly[0]),
    };
    // The axis crosses the plane at X = C + t·v, t = s(C)/(v·n).
    // (Skipped for a sliver: `contains` cannot tell the ends of a segment.)
    let vn = v.dot(&el.normal);
    let twice_area = (0..n_b)
        .map(|k| poly[k].cross(&poly[(k + 1) % n_b]))
        .sum::<Vec3>()
        .dot(&el.normal);
    let perimeter2 = (0..n_b)
        .map(|k| (poly[(k + 1) % n_b] - poly[k]).norm())
        .sum::<Real>()
        .powi(2);
    let solid = n_b >= 3 && twice_area > gamma(16) * perimeter2;
    if vn != 0.0 && solid {
        let x = c + (el.s(&c) / vn) * v;
        if x.iter().all(|t| t.is_finite()) && contains(poly, &el.normal, &x, 0.0) {
            best = Witness {
                point: x,
                rho: rho_of(&x),
            };
        }
    }
    for k in 0..n_b {
        let p0 = poly[k];
        let p1 = poly[(k + 1) % n_b];
        let d0 = p0 - c;
        let d0p = d0 - d0.dot(&v) * v;
        let e = p1 - p0;
        let ep = e - e.dot(&v) * v;
        let len2 = ep.norm_squared();
        let t = if len2 > 0.0 {
            (-d0p.dot(&ep) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let q = p0 + t * e;
        let rho = rho_of(&q);
        if rho < best.rho {
            best = Witness { point: q, rho };
        }
    }
    if best.rho > cyl.radius() + slack {
        return None;
    }
    // The deepest of a few candidates (all in the clipped polygon).
    let depth_of = |p: &Vec3| {
        let d = p - c;
        let z = d.dot(&v);
        (0.5 * cyl.height() - z.abs()).min(cyl.radius() - (d - z * v).norm())
    };
    let centroid = poly.iter().sum::<Vec3>() / n_b as Real;
    let foot = c + el.s(&c) * el.normal;
    let mut deepest = (best.point, depth_of(&best.point));
    let foot_inside = solid && contains(poly, &el.normal, &foot, 0.0);
    for q in poly
        .iter()
        .chain([&centroid])
        .chain(foot_inside.then_some(&foot))
    {
        let d = depth_of(q);
        if d > deepest.1 {
            deepest = (*q, d);
        }
    }
    Some(Witness {
        point: deepest.0,
        rho: rho_of(&deepest.0),
    })
}

/// Sutherland–Hodgman: keeps `f ≤ 0` of the convex polygon `inp` (at most 6
/// corners); returns the number of corners written to `out`. A convex input
/// gains at most one corner per clip; the buffer has room for two, in case
/// rounding makes the signs of `f` alternate on a sliver.
fn clip(inp: &[Vec3], out: &mut [Vec3; 8], f: impl Fn(&Vec3) -> Real) -> usize {
    let m = inp.len();
    let mut n = 0;
    for k in 0..m {
        let p = inp[k];
        let q = inp[(k + 1) % m];
        let (fp, fq) = (f(&p), f(&q));
        if fp <= 0.0 && n < out.len() {
            out[n] = p;
            n += 1;
        }
        if ((fp < 0.0 && fq > 0.0) || (fp > 0.0 && fq < 0.0)) && n < out.len() {
            let t = fp / (fp - fq);
            out[n] = p + t * (q - p);
            n += 1;
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discrete::cylinder_heightfield::oracle::min_over_triangle;
    use crate::discrete::heightfield::ElementKind;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// The exact test against the golden-section oracle, per element
        /// (triangles and rectangles): they agree except within 1e-9 of
        /// touching (the oracle's own resolution is far below that).
        #[test]
        fn agrees_with_the_oracle_per_element(
            c in prop::array::uniform3(-1.0..1.0f64),
            a in prop::array::uniform3(-1.0..1.0f64),
            r in 0.05..0.8f64,
            h in 0.05..1.5f64,
            z in prop::array::uniform4(-0.8..0.8f64),
            rect in any::<bool>(),
        ) {
            let axis = Vec3::from(a);
            prop_assume!(axis.norm() > 0.1);
            let cyl = Cylinder::new(Vec3::from(c), axis.normalize(), r, h).unwrap();
            let p = [
                Vec3::new(-0.5, -0.5, z[0]),
                Vec3::new(0.5, -0.5, z[1]),
                Vec3::new(0.5, 0.5, if rect { z[1] + z[2] - z[0] } else { z[3] }),
                Vec3::new(-0.5, 0.5, z[2]),
            ];
            let el = if rect {
                Element::from_corners((0, 0), ElementKind::Rectangle, &p, &[0, 1, 2, 3])
            } else {
                Element::from_corners((0, 0), ElementKind::Lower, &[p[0], p[1], p[3]], &[0, 1, 3])
            };
            let (mut sd, _) = min_over_triangle(&cyl, el.vertices[0], el.vertices[1], el.vertices[el.len - 1]);
            if rect {
                sd = sd.min(min_over_triangle(&cyl, p[1], p[2], p[3]).0);
            }
            let ours = element_meets_cylinder(&el, &cyl, 0.0).is_some();
            if sd.abs() > 1e-9 {
                prop_assert_eq!(ours, sd <= 0.0, "sd = {}", sd);
            }
        }
    }

    fn tri(a: [Real; 3], b: [Real; 3], c: [Real; 3]) -> Element {
        Element::from_corners(
            (0, 0),
            ElementKind::Lower,
            &[a.into(), b.into(), c.into()],
            &[0, 1, 2],
        )
    }

    #[test]
    fn axis_through_the_element_and_a_corner_grazing_the_side() {
        let cyl = Cylinder::new(Vec3::new(0.0, 0.0, 0.0), Vec3::z(), 1.0, 2.0).unwrap();
        let t = tri([-1.0, -1.0, 0.5], [1.0, -1.0, 0.5], [-1.0, 1.0, 0.5]);
        let w = element_meets_cylinder(&t, &cyl, 0.0).unwrap();
        assert_eq!(w.rho, 0.0);
        // A triangle whose nearest point (0.6, 0.8) is exactly on the side.
        let t = tri([0.6, 0.8, 0.0], [3.0, 0.8, 0.0], [0.6, 3.0, 0.0]);
        let w = element_meets_cylinder(&t, &cyl, 0.0).unwrap();
        assert!((w.rho - 1.0).abs() < 1e-15);
        let t = tri([0.61, 0.8, 0.0], [3.0, 0.8, 0.0], [0.61, 3.0, 0.0]);
        assert!(element_meets_cylinder(&t, &cyl, 0.0).is_none());
        // Above the top base: clipped away.
        let t = tri([-1.0, -1.0, 1.01], [1.0, -1.0, 1.01], [-1.0, 1.0, 1.01]);
        assert!(element_meets_cylinder(&t, &cyl, 0.0).is_none());
        // A steep triangle that only enters through the top cap.
        let t = tri([0.0, 0.0, 1.5], [0.5, 0.0, 0.9], [0.0, 0.5, 0.9]);
        assert!(element_meets_cylinder(&t, &cyl, 0.0).is_some());
    }
}
