//! The analytic bounding volumes of the discrete detectors, validated at
//! construction: Trushin's (2015) sphere and box, each with a 4×4
//! world-from-local matrix, and Strashnov & Torgashev's (2020, §II, Fig. 1)
//! cylinder given by centre `C`, unit axis `v`, radius `r` and height `h`
//! (docs/design.md §3).

use nalgebra::Matrix4;

use super::error::DiscreteError;
use super::frame::Frame;
use crate::math::{Real, Vec3, is_finite};

/// How far from unit length a cylinder axis may be: `| |v| − 1 |`. A vector
/// normalised in f64 is within a few `ε` of unit length; `√ε` accepts those
/// and refuses vectors that were never normalised.
pub const AXIS_UNIT_TOLERANCE: Real = 1.0 / (1u64 << 26) as Real; // 2⁻²⁶ = √(2⁻⁵²) = √ε

/// The largest magnitude of a coordinate or a size the shapes take (`2⁵⁰⁰ ≈
/// 3.3·10¹⁵⁰`): the detectors' sums, differences, norms and squares of such
/// values stay finite. Larger ones are refused
/// ([`DiscreteError::TooLarge`]): rescale the units.
pub const MAX_MAGNITUDE: Real = f64::from_bits((1023 + 500) << 52);

fn positive(shape: &'static str, what: &'static str, value: Real) -> Result<Real, DiscreteError> {
    if !(value.is_finite() && value > 0.0) {
        Err(DiscreteError::NonPositive { shape, what, value })
    } else {
        in_range(shape, what, value)
    }
}

/// `value` if its magnitude is at most [`MAX_MAGNITUDE`].
pub(super) fn in_range(
    shape: &'static str,
    what: &'static str,
    value: Real,
) -> Result<Real, DiscreteError> {
    if value.abs() <= MAX_MAGNITUDE {
        Ok(value)
    } else {
        Err(DiscreteError::TooLarge { shape, what, value })
    }
}

fn finite_point(shape: &'static str, what: &'static str, p: Vec3) -> Result<Vec3, DiscreteError> {
    if !is_finite(&p) {
        return Err(DiscreteError::NonFinite {
            shape,
            what,
            value: [p.x, p.y, p.z],
        });
    }
    for c in p.iter() {
        in_range(shape, what, *c)?;
    }
    Ok(p)
}

/// A sphere: radius `r`, local origin at its centre (Trushin 2015).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sphere {
    frame: Frame,
    radius: Real,
}

impl Sphere {
    /// A sphere with world-from-local matrix `m` and radius `radius`.
    ///
    /// # Errors
    /// A bad matrix (see [`Frame::from_matrix`]) or a radius that is not
    /// finite and positive; a radius beyond [`MAX_MAGNITUDE`].
    pub fn new(m: &Matrix4<Real>, radius: Real) -> Result<Sphere, DiscreteError> {
        Ok(Sphere {
            frame: Frame::from_matrix("sphere", m)?,
            radius: positive("sphere", "radius", radius)?,
        })
    }

    /// A sphere centred at `centre` (identity orientation).
    ///
    /// # Errors
    /// A non-finite centre or a radius that is not finite and positive; a
    /// coordinate or radius beyond [`MAX_MAGNITUDE`].
    pub fn at(centre: Vec3, radius: Real) -> Result<Sphere, DiscreteError> {
        Ok(Sphere {
            frame: Frame::from_translation(finite_point("sphere", "centre", centre)?),
            radius: positive("sphere", "radius", radius)?,
        })
    }

    /// The frame.
    pub fn frame(&self) -> &Frame {
        &self.frame
    }

    /// The centre `O` (fourth column of the matrix).
    #[inline]
    pub fn centre(&self) -> Vec3 {
        self.frame.origin()
    }

    /// The radius `r`.
    #[inline]
    pub fn radius(&self) -> Real {
        self.radius
    }
}

/// Trushin's box: half-length `l` (local x), half-width `w` (local y), full
/// height `h` (local z); the local origin is the **centre of the bottom
/// face**, so the box is `[−l, l] × [−w, w] × [0, h]` in its frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cuboid {
    frame: Frame,
    half_length: Real,
    half_width: Real,
    height: Real,
}

impl Cuboid {
    /// A box with world-from-local matrix `m`, half-length `l`, half-width `w`
    /// and height `h`.
    ///
    /// # Errors
    /// A bad matrix or a size that is not finite and positive; a size beyond
    /// [`MAX_MAGNITUDE`].
    pub fn new(m: &Matrix4<Real>, l: Real, w: Real, h: Real) -> Result<Cuboid, DiscreteError> {
        Ok(Cuboid {
            frame: Frame::from_matrix("box", m)?,
            half_length: positive("box", "half-length l", l)?,
            half_width: positive("box", "half-width w", w)?,
            height: positive("box", "height h", h)?,
        })
    }

    /// The frame.
    pub fn frame(&self) -> &Frame {
        &self.frame
    }

    /// Half-length `l`.
    pub fn half_length(&self) -> Real {
        self.half_length
    }

    /// Half-width `w`.
    pub fn half_width(&self) -> Real {
        self.half_width
    }

    /// Height `h`.
    pub fn height(&self) -> Real {
        self.height
    }

    /// Half-extents about the centre: `(l, w, h/2)`.
    #[inline]
    pub fn half_extents(&self) -> Vec3 {
        Vec3::new(self.half_length, self.half_width, 0.5 * self.height)
    }

    /// The centre `O₂ = M₂·(0, 0, h/2, 1)ᵀ`: the origin moved by `h/2` along
    /// the box's **local** z axis. (The paper says "add h/2 to the z coordinate
    /// of the fourth column", which is the same only for a box whose local z is
    /// the world z.)
    #[inline]
    pub fn centre(&self) -> Vec3 {
        self.frame
            .point_to_world(&Vec3::new(0.0, 0.0, 0.5 * self.height))
    }
}

/// Strashnov & Torgashev's cylinder (§II, Fig. 1): centre `C`, unit axis `v`,
/// radius `r`, height `h`; base centres `C₁ = C − (h/2)v`, `C₂ = C + (h/2)v`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cylinder {
    centre: Vec3,
    axis: Vec3,
    radius: Real,
    height: Real,
}

impl Cylinder {
    /// A cylinder with centre `centre`, unit axis `axis`, radius and height.
    /// The axis is renormalised after validation.
    ///
    /// # Errors
    /// A non-finite centre or axis, a zero axis, an axis whose length is off 1
    /// by more than [`AXIS_UNIT_TOLERANCE`], or a radius or height that is not
    /// finite and positive; a coordinate or size beyond [`MAX_MAGNITUDE`].
    pub fn new(
        centre: Vec3,
        axis: Vec3,
        radius: Real,
        height: Real,
    ) -> Result<Cylinder, DiscreteError> {
        let centre = finite_point("cylinder", "centre", centre)?;
        let axis = finite_point("cylinder", "axis", axis)?;
        let norm = axis.norm();
        if norm == 0.0 {
            return Err(DiscreteError::ZeroAxis);
        }
        if (norm - 1.0).abs() > AXIS_UNIT_TOLERANCE {
            return Err(DiscreteError::NonUnitAxis {
                axis: [axis.x, axis.y, axis.z],
                norm,
            });
        }
        Ok(Cylinder {
            centre,
            axis: axis / norm,
            radius: positive("cylinder", "radius", radius)?,
            height: positive("cylinder", "height", height)?,
        })
    }

    /// The centre `C`.
    #[inline]
    pub fn centre(&self) -> Vec3 {
        self.centre
    }

    /// The unit axis `v`.
    #[inline]
    pub fn axis(&self) -> Vec3 {
        self.axis
    }

    /// The radius `r`.
    #[inline]
    pub fn radius(&self) -> Real {
        self.radius
    }

    /// The height `h`.
    #[inline]
    pub fn height(&self) -> Real {
        self.height
    }

    /// The signed distance from `p` to the cylinder's surface (negative
    /// inside). Convex in `p`; the slow oracles minimise it.
    pub fn signed_distance(&self, p: &Vec3) -> Real {
        let d = p - self.centre;
        let z = d.dot(&self.axis);
        let rho = (d - z * self.axis).norm();
        let dz = z.abs() - 0.5 * self.height;
        let dr = rho - self.radius;
        if dz <= 0.0 && dr <= 0.0 {
            dz.max(dr)
        } else {
            dz.max(0.0).hypot(dr.max(0.0))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axis_tolerance_is_sqrt_epsilon() {
        assert_eq!(AXIS_UNIT_TOLERANCE, Real::EPSILON.sqrt());
    }

    #[test]
    fn bad_sizes_and_axes_are_refused() {
        let c = Vec3::zeros();
        let z = Vec3::z();
        assert!(matches!(
            Cylinder::new(c, z, 0.0, 1.0),
            Err(DiscreteError::NonPositive { what: "radius", .. })
        ));
        assert!(matches!(
            Cylinder::new(c, z, 1.0, -1.0),
            Err(DiscreteError::NonPositive { what: "height", .. })
        ));
        assert!(matches!(
            Cylinder::new(c, z, Real::NAN, 1.0),
            Err(DiscreteError::NonPositive { .. })
        ));
        assert_eq!(
            Cylinder::new(c, Vec3::zeros(), 1.0, 1.0),
            Err(DiscreteError::ZeroAxis)
        );
        assert!(matches!(
            Cylinder::new(c, Vec3::new(1.0, 1.0, 0.0), 1.0, 1.0),
            Err(DiscreteError::NonUnitAxis { .. })
        ));
        assert!(matches!(
            Cylinder::new(c, Vec3::new(Real::INFINITY, 0.0, 0.0), 1.0, 1.0),
            Err(DiscreteError::NonFinite { what: "axis", .. })
        ));
        assert!(matches!(
            Sphere::at(c, -2.0),
            Err(DiscreteError::NonPositive { what: "radius", .. })
        ));
        assert!(matches!(
            Cuboid::new(&Matrix4::identity(), 1.0, 0.0, 1.0),
            Err(DiscreteError::NonPositive {
                what: "half-width w",
                ..
            })
        ));
    }

    /// Beyond `MAX_MAGNITUDE`, through each constructor's checks.
    #[test]
    fn magnitudes_beyond_the_range_are_refused() {
        let big = 2.0 * MAX_MAGNITUDE;
        let far = Vec3::new(0.0, big, 0.0);
        let mut shifted = Matrix4::identity();
        shifted[(2, 3)] = -big;
        let too_large = |r: Result<(), DiscreteError>, what: &str| {
            assert!(
                matches!(&r, Err(DiscreteError::TooLarge { what: w, .. }) if *w == what),
                "{r:?}"
            );
        };
        too_large(Sphere::new(&shifted, 1.0).map(drop), "matrix translation");
        too_large(
            Cuboid::new(&shifted, 1.0, 1.0, 1.0).map(drop),
            "matrix translation",
        );
        let id = Matrix4::identity();
        too_large(Cuboid::new(&id, 1.0, big, 1.0).map(drop), "half-width w");
        too_large(Cylinder::new(far, Vec3::z(), 1.0, 1.0).map(drop), "centre");
        too_large(
            Cylinder::new(Vec3::zeros(), Vec3::z(), 1.0, big).map(drop),
            "height",
        );
        // At the bound itself, accepted.
        let m = MAX_MAGNITUDE;
        assert!(Cylinder::new(Vec3::repeat(m), Vec3::z(), m, m).is_ok());
    }

    #[test]
    fn box_centre_follows_the_local_z_axis() {
        // Box lying on its side: local z = world x.
        let mut m = Matrix4::identity();
        m[(0, 0)] = 0.0;
        m[(2, 0)] = -1.0;
        m[(0, 2)] = 1.0;
        m[(2, 2)] = 0.0;
        m[(0, 3)] = 5.0;
        let b = Cuboid::new(&m, 1.0, 2.0, 4.0).unwrap();
        assert_eq!(b.centre(), Vec3::new(7.0, 0.0, 0.0));
    }

    #[test]
    fn signed_distance_of_a_cylinder() {
        let cyl = Cylinder::new(Vec3::zeros(), Vec3::z(), 1.0, 2.0).unwrap();
        assert_eq!(cyl.signed_distance(&Vec3::zeros()), -1.0);
        assert_eq!(cyl.signed_distance(&Vec3::new(3.0, 0.0, 0.0)), 2.0);
        assert_eq!(cyl.signed_distance(&Vec3::new(0.0, 0.0, 1.5)), 0.5);
        assert!((cyl.signed_distance(&Vec3::new(4.0, 0.0, 5.0)) - 5.0).abs() < 1e-15);
    }
}
