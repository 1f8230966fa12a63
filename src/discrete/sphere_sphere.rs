//! Sphere–sphere collision (Trushin, "Collision detection for bounding
//! spheres and rectangular parallelepipeds in 3D modeling systems", Software &
//! Systems 4(112), 2015, pp. 105–109, DOI 10.15827/0236-235X.112.105-109;
//! section «Определение коллизии двух сфер», Fig. 1; docs/design.md §3).
//!
//! The first object is always a sphere (centre `O₁`, radius `r₁`). The
//! collision point `P` is the point of the second object's surface closest to
//! `O₁`; the normal `N` is the unit push-out direction of the first object,
//! formula (1) `N = (O₂O₁, PO₁)·PO₁ / |(O₂O₁, PO₁)·PO₁|`; the depth is formula
//! (2) `D = r₁ − (N, PO₁)`.
//!
//! Two spheres meet iff `|O₁ − O₂| ≤ r₁ + r₂`; then `P = O₂ + r₂·O₂O₁/|O₂O₁|`.
//! The paper shows that (1) gives `N = O₂O₁/|O₂O₁|` both when `O₁` is outside
//! the second sphere (Fig. 1a, `D = r₁ − |PO₁|`) and inside it (Fig. 1b,
//! `D = r₁ + |PO₁|`); in both cases `D = r₁ + r₂ − |O₁O₂|`.
//!
//! Deviations, each because (1) is `0/0` there:
//! - `O₁` on the second sphere's surface (`PO₁ = 0`): `N = O₂O₁/|O₂O₁|`, the
//!   limit of both of the paper's cases, `D = r₁`.
//! - Concentric spheres (`O₁ = O₂`, every surface point is closest): the paper
//!   is silent; we push the first sphere along world `+z`
//!   (`N = (0, 0, 1)`, `P = O₂ + r₂N`, `D = r₁ + r₂`).
//!
//! Rounding: touching within rounding counts as contact (the detector must not
//! miss a contact): the test is `|O₁O₂| ≤ r₁ + r₂ + γ₁₆·S` with `S` bounding
//! every magnitude in the computation (coordinates and radii), since each
//! computed value passes through at most 8 roundings. A contact accepted only
//! thanks to that slack has a depth in `[−γ₁₆·S, 0)`.

use super::shapes::Sphere;
use crate::math::{Real, Vec3, gamma};

/// Where the first sphere's centre lies relative to the second object: the
/// paper's position classes (Fig. 1 for spheres, Fig. 2 for boxes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PositionClass {
    /// Sphere–sphere, Fig. 1a: `O₁` outside the second sphere.
    CentreOutside,
    /// Sphere–sphere: `O₁` exactly on the second sphere's surface.
    CentreOnSurface,
    /// Sphere–sphere, Fig. 1b: `O₁` inside the second sphere.
    CentreInside,
    /// Sphere–sphere: concentric spheres (see the module doc).
    Concentric,
    /// Sphere–box, class 1 (point `Q₁` of Fig. 2): `O₁` straight above a face.
    Face,
    /// Sphere–box, class 2 (`Q₂`): `O₁` diagonally off an edge.
    Edge,
    /// Sphere–box, class 3 (`Q₃`): `O₁` diagonally off a vertex.
    Vertex,
    /// Sphere–box, class 4 (`Q₄`): `O₁` inside the box (on its surface
    /// included); pushed out through the nearest face.
    InsideBox,
}

/// The paper's collision triple plus the position class it came from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SphereContact {
    /// `P`: the point of the second object's surface closest to `O₁`.
    pub point: Vec3,
    /// `N`: unit push-out direction for the first sphere, formula (1).
    pub normal: Vec3,
    /// `D = r₁ − (N, PO₁)`, formula (2); ≥ 0 up to the rounding slack.
    pub depth: Real,
    /// Which case of the paper produced it.
    pub class: PositionClass,
}

/// The rounding slack `γ₁₆·S` for a decision whose inputs are bounded by `s`.
#[inline]
pub(crate) fn slack(s: Real) -> Real {
    gamma(16) * s
}

/// Sphere–sphere collision: `None` when the spheres are apart.
pub fn sphere_sphere(s1: &Sphere, s2: &Sphere) -> Option<SphereContact> {
    let (o1, o2) = (s1.centre(), s2.centre());
    let (r1, r2) = (s1.radius(), s2.radius());
    let o2o1 = o1 - o2;
    let dist = o2o1.norm();
    let scale = o1.amax() + o2.amax() + r1 + r2;
    if dist > r1 + r2 + slack(scale) {
        return None;
    }
    if dist == 0.0 {
        let normal = Vec3::z();
        return Some(SphereContact {
            point: o2 + r2 * normal,
            normal,
            depth: r1 + r2,
            class: PositionClass::Concentric,
        });
    }
    // N = O₂O₁/|O₂O₁| (what formula (1) reduces to, see the module doc).
    let normal = o2o1 / dist;
    let point = o2 + r2 * normal;
    let class = if dist > r2 {
        PositionClass::CentreOutside
    } else if dist < r2 {
        PositionClass::CentreInside
    } else {
        PositionClass::CentreOnSurface
    };
    // D = r₁ − (N, PO₁), formula (2).
    let depth = r1 - normal.dot(&(o1 - point));
    Some(SphereContact {
        point,
        normal,
        depth,
        class,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(x: Real, y: Real, z: Real, r: Real) -> Sphere {
        Sphere::at(Vec3::new(x, y, z), r).unwrap()
    }

    /// At the edge of the shapes' range the contact stays finite; beyond it
    /// the sphere is refused (it was a NaN contact).
    #[test]
    fn the_largest_spheres_give_a_finite_contact() {
        use crate::discrete::{DiscreteError, MAX_MAGNITUDE};
        let m = MAX_MAGNITUDE;
        // Touching at the origin.
        let c = sphere_sphere(&s(m, 0.0, 0.0, m), &s(-m, 0.0, 0.0, m)).unwrap();
        assert_eq!((c.point, c.normal), (Vec3::zeros(), Vec3::x()), "{c:?}");
        assert_eq!(c.depth, 0.0);
        for (centre, r) in [(Vec3::repeat(1e308), 1.0), (Vec3::zeros(), 1e308)] {
            assert!(matches!(
                Sphere::at(centre, r),
                Err(DiscreteError::TooLarge {
                    shape: "sphere",
                    ..
                })
            ));
        }
    }

    #[test]
    fn fig_1a_centre_outside() {
        // O₁ = (3,0,0), r₁ = 1.5; O₂ = 0, r₂ = 2: P = (2,0,0), N = +x, D = 0.5.
        let c = sphere_sphere(&s(3.0, 0.0, 0.0, 1.5), &s(0.0, 0.0, 0.0, 2.0)).unwrap();
        assert_eq!(c.class, PositionClass::CentreOutside);
        assert_eq!(c.point, Vec3::new(2.0, 0.0, 0.0));
        assert_eq!(c.normal, Vec3::x());
        assert_eq!(c.depth, 0.5);
    }

    #[test]
    fn fig_1b_centre_inside() {
        // O₁ = (0,1,0), r₁ = 0.5, inside O₂ = 0, r₂ = 3: P = (0,3,0), N = +y,
        // D = r₁ + |PO₁| = 0.5 + 2.
        let c = sphere_sphere(&s(0.0, 1.0, 0.0, 0.5), &s(0.0, 0.0, 0.0, 3.0)).unwrap();
        assert_eq!(c.class, PositionClass::CentreInside);
        assert_eq!(c.point, Vec3::new(0.0, 3.0, 0.0));
        assert_eq!(c.normal, Vec3::y());
        assert_eq!(c.depth, 2.5);
    }

    #[test]
    fn centre_on_the_surface_and_concentric() {
        let c = sphere_sphere(&s(0.0, 0.0, 2.0, 1.0), &s(0.0, 0.0, 0.0, 2.0)).unwrap();
        assert_eq!(c.class, PositionClass::CentreOnSurface);
        assert_eq!((c.normal, c.depth), (Vec3::z(), 1.0));
        let c = sphere_sphere(&s(1.0, 1.0, 1.0, 1.0), &s(1.0, 1.0, 1.0, 2.0)).unwrap();
        assert_eq!(c.class, PositionClass::Concentric);
        assert_eq!((c.normal, c.depth), (Vec3::z(), 3.0));
    }

    #[test]
    fn touching_counts_and_just_apart_does_not() {
        let c = sphere_sphere(&s(3.0, 0.0, 0.0, 1.0), &s(0.0, 0.0, 0.0, 2.0)).unwrap();
        assert_eq!(c.depth, 0.0);
        assert_eq!(c.point, Vec3::new(2.0, 0.0, 0.0));
        // 1e-9 apart: far beyond rounding.
        assert!(sphere_sphere(&s(3.0 + 1e-9, 0.0, 0.0, 1.0), &s(0.0, 0.0, 0.0, 2.0)).is_none());
        // One ulp apart: within rounding, reported as a touching contact.
        let x = 3.0_f64.next_up();
        let c = sphere_sphere(&s(x, 0.0, 0.0, 1.0), &s(0.0, 0.0, 0.0, 2.0)).unwrap();
        assert!(c.depth <= 0.0 && c.depth > -1e-14);
    }
}
