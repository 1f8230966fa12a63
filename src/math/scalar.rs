//! The scalar and vector types, and the unit roundoff that error bounds are
//! written in.
//!
//! All CCD code is `f64` ([`Real`]); f32 inputs are widened exactly (every f32
//! is an f64). Error bounds are written as expressions of
//! [`UNIT_ROUNDOFF`] `u = ε/2` (Higham, *Accuracy and Stability of Numerical
//! Algorithms*, 2nd ed., 2002, §2.2), never as pasted decimals
//! (docs/design.md §8).

/// The one scalar of the CCD path.
pub type Real = f64;

/// A point or direction in 3D.
pub type Vec3 = nalgebra::Vector3<Real>;

/// Rows of three coordinates (`[x, y, z]`, how most simulators and array
/// libraries store positions) viewed as [`Vec3`]s, without a copy: a
/// `Vector3<f64>` is laid out as `[f64; 3]`. What [`crate::mesh::Step::new`]
/// takes.
///
/// ```
/// use ccdlab::math::vec3_slice;
/// let rows = vec![[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]];
/// let points = vec3_slice(&rows);
/// assert_eq!(points[1].y, 4.0);
/// assert_eq!(points.as_ptr().cast::<f64>(), rows.as_ptr().cast::<f64>());
/// ```
#[inline]
pub fn vec3_slice(rows: &[[Real; 3]]) -> &[Vec3] {
    bytemuck::cast_slice(rows)
}

/// Unit roundoff `u = ε/2 = 2⁻⁵³`: for round-to-nearest,
/// `fl(a ∘ b) = (a ∘ b)(1 + δ)`, `|δ| ≤ u`, without underflow or overflow
/// (Higham 2002, Thm. 2.2).
pub const UNIT_ROUNDOFF: Real = Real::EPSILON / 2.0;

/// The smallest positive normal double. Below it a product's relative error
/// bound no longer holds; filters that rely on relative bounds refuse to
/// decide when a magnitude they track falls under [`TINY`].
pub const TINY: Real = Real::MIN_POSITIVE;

/// A safe upper bound for `γ_n = n·u / (1 − n·u)` (Higham 2002, Lemma 3.1):
/// the relative error of a product or sum evaluated along a path of `n`
/// roundings is at most `γ_n`. Returns `(n + 1)·u`, which is ≥ `γ_n` for every
/// `n < 2²⁵` (since `(n+1)(1−nu) ≥ n` there), and is itself an exact double
/// (a small integer times a power of two).
#[inline]
pub const fn gamma(n: u32) -> Real {
    (n as Real + 1.0) * UNIT_ROUNDOFF
}

/// `true` when every coordinate is finite.
#[inline]
pub fn is_finite(v: &Vec3) -> bool {
    v.x.is_finite() && v.y.is_finite() && v.z.is_finite()
}

/// `[f(0), f(1), f(2)]`: the three coordinates of a vector computed one by
/// one, written out so that the hot certificates do not depend on the
/// inliner seeing through `array::map`.
#[inline(always)]
pub(crate) fn each3<T>(f: impl Fn(usize) -> T) -> [T; 3] {
    [f(0), f(1), f(2)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gamma_bounds_the_textbook_value() {
        for n in [1u32, 2, 3, 7, 16, 64, 1000] {
            let nu = n as f64 * UNIT_ROUNDOFF;
            assert!(gamma(n) >= nu / (1.0 - nu), "n = {n}");
        }
    }

    #[test]
    fn unit_roundoff_is_half_an_ulp_of_one() {
        let one = std::hint::black_box(1.0);
        assert_eq!(one + UNIT_ROUNDOFF, one);
        assert!(one + 2.0 * UNIT_ROUNDOFF > one);
    }
}
