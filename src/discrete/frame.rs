//! Rigid world-from-local frames given as 4×4 matrices (Trushin 2015,
//! «Понятие коллизии»: "for every bounding volume a matrix of the transition
//! from its local frame to the world frame is given; its first three columns
//! give the orientation, the fourth the position of the local origin";
//! docs/design.md §3).
//!
//! The paper inverts these matrices (`M₂⁻¹`) and measures distances in the
//! local frame, which is only right for rigid frames; so a [`Frame`] must be a
//! right-handed rotation plus a translation, and its inverse rotation is the
//! transpose.

use nalgebra::{Matrix3, Matrix4};

use super::error::DiscreteError;
use super::shapes::in_range;
use crate::math::{Real, Vec3};

/// How far from orthonormal the rotation block may be: `max |RᵀR − I|`.
///
/// Rotations written in f32 and widened to f64 carry errors of a few f32 ulps
/// (`f32::EPSILON` ≈ 1.2e-7); 16 of them are accepted. Anything beyond is a
/// scaled or sheared matrix and is refused with [`DiscreteError::NotRigid`].
pub const RIGID_TOLERANCE: Real = 16.0 * f32::EPSILON as Real;

/// A validated rigid world-from-local transform.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Frame {
    rotation: Matrix3<Real>,
    translation: Vec3,
}

impl Frame {
    /// The identity frame.
    pub fn identity() -> Frame {
        Frame {
            rotation: Matrix3::identity(),
            translation: Vec3::zeros(),
        }
    }

    /// A pure translation: the local origin sits at `origin`.
    pub fn from_translation(origin: Vec3) -> Frame {
        Frame {
            rotation: Matrix3::identity(),
            translation: origin,
        }
    }

    /// Validates a 4×4 world-from-local matrix for the shape named `shape`
    /// (used in error messages).
    ///
    /// # Errors
    /// [`DiscreteError::NonFiniteMatrix`], [`DiscreteError::NotAffine`],
    /// [`DiscreteError::SingularMatrix`] (|det| ≤ [`RIGID_TOLERANCE`]),
    /// [`DiscreteError::LeftHanded`], [`DiscreteError::NotRigid`],
    /// [`DiscreteError::TooLarge`] (a translation beyond
    /// [`super::MAX_MAGNITUDE`]).
    pub fn from_matrix(shape: &'static str, m: &Matrix4<Real>) -> Result<Frame, DiscreteError> {
        for row in 0..4 {
            for col in 0..4 {
                let value = m[(row, col)];
                if !value.is_finite() {
                    return Err(DiscreteError::NonFiniteMatrix {
                        shape,
                        row,
                        col,
                        value,
                    });
                }
            }
        }
        let bottom = [m[(3, 0)], m[(3, 1)], m[(3, 2)], m[(3, 3)]];
        if bottom != [0.0, 0.0, 0.0, 1.0] {
            return Err(DiscreteError::NotAffine { shape, row: bottom });
        }
        let rotation: Matrix3<Real> = m.fixed_view::<3, 3>(0, 0).into_owned();
        let det = rotation.determinant();
        if det.abs() <= RIGID_TOLERANCE {
            return Err(DiscreteError::SingularMatrix { shape, det });
        }
        if det < 0.0 {
            return Err(DiscreteError::LeftHanded { shape, det });
        }
        let gram = rotation.transpose() * rotation - Matrix3::identity();
        let error = gram.abs().max();
        if error > RIGID_TOLERANCE {
            return Err(DiscreteError::NotRigid { shape, error });
        }
        let translation = Vec3::new(m[(0, 3)], m[(1, 3)], m[(2, 3)]);
        for c in translation.iter() {
            in_range(shape, "matrix translation", *c)?;
        }
        Ok(Frame {
            rotation,
            translation,
        })
    }

    /// The 4×4 matrix.
    pub fn matrix(&self) -> Matrix4<Real> {
        let mut m = Matrix4::identity();
        m.fixed_view_mut::<3, 3>(0, 0).copy_from(&self.rotation);
        m[(0, 3)] = self.translation.x;
        m[(1, 3)] = self.translation.y;
        m[(2, 3)] = self.translation.z;
        m
    }

    /// The rotation block (first three columns).
    #[inline]
    pub fn rotation(&self) -> &Matrix3<Real> {
        &self.rotation
    }

    /// The local origin in world coordinates (fourth column).
    #[inline]
    pub fn origin(&self) -> Vec3 {
        self.translation
    }

    /// World coordinates of a local point.
    #[inline]
    pub fn point_to_world(&self, p: &Vec3) -> Vec3 {
        self.rotation * p + self.translation
    }

    /// World components of a local direction.
    #[inline]
    pub fn vector_to_world(&self, d: &Vec3) -> Vec3 {
        self.rotation * d
    }

    /// Local components of a world direction: `M⁻¹` on a direction, i.e. `Rᵀ d`
    /// for a rigid frame.
    #[inline]
    pub fn vector_to_local(&self, d: &Vec3) -> Vec3 {
        self.rotation.tr_mul(d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::Rotation3;

    #[test]
    fn rigid_matrix_round_trips() {
        let r = Rotation3::from_euler_angles(0.3, -1.1, 2.0);
        let mut m = Matrix4::identity();
        m.fixed_view_mut::<3, 3>(0, 0).copy_from(r.matrix());
        m[(0, 3)] = 1.0;
        m[(1, 3)] = -2.0;
        m[(2, 3)] = 3.5;
        let f = Frame::from_matrix("box", &m).unwrap();
        assert_eq!(f.matrix(), m);
        let p = Vec3::new(0.2, 0.7, -0.4);
        let w = f.point_to_world(&p);
        let back = f.vector_to_local(&(w - f.origin()));
        assert!((back - p).norm() < 1e-15);
    }

    #[test]
    fn bad_matrices_are_refused_by_name() {
        let mut m = Matrix4::identity();
        m[(1, 2)] = Real::NAN;
        assert!(matches!(
            Frame::from_matrix("box", &m),
            Err(DiscreteError::NonFiniteMatrix { row: 1, col: 2, .. })
        ));
        let mut m = Matrix4::identity();
        m[(2, 2)] = 0.0;
        assert!(matches!(
            Frame::from_matrix("sphere", &m),
            Err(DiscreteError::SingularMatrix {
                shape: "sphere",
                ..
            })
        ));
        let mut m = Matrix4::identity();
        m[(0, 0)] = 2.0;
        assert!(matches!(
            Frame::from_matrix("box", &m),
            Err(DiscreteError::NotRigid { .. })
        ));
        let mut m = Matrix4::identity();
        m[(0, 0)] = -1.0;
        assert!(matches!(
            Frame::from_matrix("box", &m),
            Err(DiscreteError::LeftHanded { .. })
        ));
        let mut m = Matrix4::identity();
        m[(3, 0)] = 0.5;
        assert!(matches!(
            Frame::from_matrix("box", &m),
            Err(DiscreteError::NotAffine { .. })
        ));
    }
}
