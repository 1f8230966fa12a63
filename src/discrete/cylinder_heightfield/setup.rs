//! Per-element set-up of the narrow phase (Strashnov & Torgashev 2020, §IV,
//! opening paragraphs and Fig. 6; docs/design.md §3): the base points
//! `A_i = C_i + r·w`, `B_i = C_i − r·w` (`i = 1, 2`) with
//! `w = V₀V₁/|V₀V₁|` if `v ∥ n_P`, else `((v·n_P)v − n_P)/‖…‖`, so that
//! `w·v = 0` and `w·n_P ≤ 0` (`A_i` is the lowest point of base `i` with
//! respect to the element plane), and the case split by the signs of
//! `s(A₁)`, `s(A₂)`, `s(B₁)` (formula (5)): (6) base contact, (9) lateral
//! contact, (11) one-point contact.
//!
//! The paper calls the base with centre `C₁` the **lower** one without saying
//! how `C₁` is chosen. We orient the axis per element, `v′ = ±v` with
//! `v′·n_P ≥ 0`, and take `C₁ = C − (h/2)v′`, `C₂ = C + (h/2)v′`, so that `A₁`
//! is the lowest point of the whole cylinder; then `s(A₁) < 0` means the
//! cylinder is entirely above the element's plane, and (6), (9), (11) are a
//! partition of the rest.

use super::super::heightfield::Element;
use super::super::shapes::Cylinder;
use crate::math::{Real, Vec3};

/// Below this `|(v·n)v − n| = sin∠(v, n_P)` the axis counts as parallel to
/// the normal and `w` is taken along `V₀V₁` (`2⁻²⁶ = √ε`: the normalisation
/// is still accurate above it).
const PARALLEL: Real = 1.0 / (1u64 << 26) as Real;

/// Which of the paper's cases an element is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Case {
    /// `s(A₁) < 0`: the cylinder is above the element's plane.
    Above,
    /// (6): `s(A₁) ≥ 0`, `s(A₂) < 0`, `s(B₁) ≥ 0`.
    Base,
    /// (9): `s(A₁) ≥ 0`, `s(A₂) ≥ 0`.
    Lateral,
    /// (11): `s(A₁) ≥ 0`, `s(A₂) < 0`, `s(B₁) < 0`.
    SinglePoint,
}

/// The oriented cylinder against one element's plane.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Setup {
    /// `C₁`, the lower base centre (`C − (h/2)v′`, `v′·n_P ≥ 0`).
    pub c1: Vec3,
    /// `w`.
    pub w: Vec3,
    /// `u = v′ × w`.
    pub u: Vec3,
    /// `A₁`, `A₂`, `B₁`.
    pub a1: Vec3,
    /// `A₂`.
    pub a2: Vec3,
    /// `s(A₁)`, `s(A₂)`, `s(B₁)`.
    pub s_a1: Real,
    /// `s(A₂)`.
    pub s_a2: Real,
    /// `s(B₁)`.
    pub s_b1: Real,
}

impl Setup {
    pub(crate) fn new(cyl: &Cylinder, el: &Element) -> Setup {
        let n = el.normal;
        let v = if cyl.axis().dot(&n) >= 0.0 {
            cyl.axis()
        } else {
            -cyl.axis()
        };
        let half = 0.5 * cyl.height();
        let c1 = cyl.centre() - half * v;
        let c2 = cyl.centre() + half * v;
        let t = v.dot(&n) * v - n;
        let t_norm = t.norm();
        let w = if t_norm <= PARALLEL {
            (el.vertices[1] - el.vertices[0]).normalize()
        } else {
            t / t_norm
        };
        let u = v.cross(&w);
        let r = cyl.radius();
        let a1 = c1 + r * w;
        let a2 = c2 + r * w;
        let b1 = c1 - r * w;
        Setup {
            c1,
            w,
            u,
            a1,
            a2,
            s_a1: el.s(&a1),
            s_a2: el.s(&a2),
            s_b1: el.s(&b1),
        }
    }

    /// The paper's case, with `slack` of rounding allowed towards contact on
    /// the `s(A₁) ≥ 0` test.
    pub(crate) fn case(&self, slack: Real) -> Case {
        if self.s_a1 < -slack {
            Case::Above
        } else if self.s_a2 >= 0.0 {
            Case::Lateral
        } else if self.s_b1 >= 0.0 {
            Case::Base
        } else {
            Case::SinglePoint
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discrete::heightfield::{Element, ElementKind};

    fn flat() -> Element {
        Element::from_corners(
            (0, 0),
            ElementKind::Rectangle,
            &[
                Vec3::new(-5.0, -5.0, 0.0),
                Vec3::new(5.0, -5.0, 0.0),
                Vec3::new(5.0, 5.0, 0.0),
                Vec3::new(-5.0, 5.0, 0.0),
            ],
            &[0, 1, 2, 3],
        )
    }

    #[test]
    fn w_is_orthogonal_to_v_and_points_down() {
        let axis = Vec3::new(0.3, -0.2, -0.9).normalize();
        let cyl = Cylinder::new(Vec3::new(0.0, 0.0, 0.5), axis, 0.4, 1.0).unwrap();
        let s = Setup::new(&cyl, &flat());
        assert!(s.w.dot(&axis).abs() < 1e-15);
        assert!(s.w.dot(&Vec3::z()) <= 0.0);
        assert!(s.c1.z < 0.5, "axis flipped up: C₁ is the lower base");
        // A₁ is the lowest point of the cylinder.
        let lowest = 0.5 - 0.5 * axis.z.abs() - 0.4 * (1.0 - axis.z * axis.z).sqrt();
        assert!((s.a1.z - lowest).abs() < 1e-15);
    }

    #[test]
    fn the_three_cases_of_fig_6() {
        let el = flat();
        // Standing, sunk 0.1: base contact (6).
        let cyl = Cylinder::new(Vec3::new(0.0, 0.0, 0.4), Vec3::z(), 0.3, 1.0).unwrap();
        assert_eq!(Setup::new(&cyl, &el).case(0.0), Case::Base);
        // Lying, sunk 0.05: lateral (9).
        let cyl = Cylinder::new(Vec3::new(0.0, 0.0, 0.25), Vec3::x(), 0.3, 1.0).unwrap();
        assert_eq!(Setup::new(&cyl, &el).case(0.0), Case::Lateral);
        // Tilted on its rim: one point (11).
        let axis = Vec3::new(1.0, 0.0, 1.0).normalize();
        let lowest = 0.5 * axis.z + 0.3 * axis.x;
        let cyl = Cylinder::new(Vec3::new(0.0, 0.0, lowest - 0.01), axis, 0.3, 1.0).unwrap();
        assert_eq!(Setup::new(&cyl, &el).case(0.0), Case::SinglePoint);
        // Hovering: above.
        let cyl = Cylinder::new(Vec3::new(0.0, 0.0, 0.6), Vec3::z(), 0.3, 1.0).unwrap();
        assert_eq!(Setup::new(&cyl, &el).case(0.0), Case::Above);
    }
}
