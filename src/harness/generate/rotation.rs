//! Rigid rotations as unit quaternions (Hamilton's convention,
//! `v' = q v q*`), built with `+ − × ÷` and `sqrt` only.
//!
//! `f64::sin`/`cos` come from the platform's libm, whose last bit is not
//! specified and differs between libraries; the generator promises the same
//! frames on every machine, so the half-angle sine and cosine are evaluated
//! here by their Taylor series (every term below one ulp is dropped for
//! `|x| ≤ 1`; larger angles are refused by the caller).

use crate::math::Vec3;

/// `(sin x, cos x)` for `|x| ≤ 1` by Taylor series to the `x²¹` / `x²⁰`
/// terms (the first omitted term is below `1/22! < 2⁻⁶⁹`).
pub fn sin_cos_small(x: f64) -> (f64, f64) {
    debug_assert!(x.abs() <= 1.0);
    let x2 = x * x;
    // Horner in x², from the highest term down.
    let (mut s, mut c) = (0.0, 0.0);
    for k in (0..=10u32).rev() {
        // sin: x^(2k+1)/(2k+1)! ; cos: x^(2k)/(2k)!.
        let sign = if k.is_multiple_of(2) { 1.0 } else { -1.0 };
        s = s * x2 + sign / factorial(2 * k + 1);
        c = c * x2 + sign / factorial(2 * k);
    }
    (s * x, c)
}

/// `n!` as `f64` (exact for `n ≤ 22`).
fn factorial(n: u32) -> f64 {
    (1..=n).fold(1.0, |p, k| p * f64::from(k))
}

/// A unit quaternion `w + x i + y j + z k`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rotation {
    w: f64,
    v: Vec3,
}

impl Rotation {
    /// No rotation.
    pub fn identity() -> Rotation {
        Rotation {
            w: 1.0,
            v: Vec3::zeros(),
        }
    }

    /// Rotation by `angle` (`|angle| ≤ 2`) about the unit vector `axis`.
    pub fn about(axis: Vec3, angle: f64) -> Rotation {
        let (s, c) = sin_cos_small(angle / 2.0);
        Rotation {
            w: c,
            v: Vec3::new(axis.x * s, axis.y * s, axis.z * s),
        }
    }

    /// `self` after `first` (`self · first`), renormalised so that rounding
    /// does not accumulate over many products.
    pub fn then_after(self, first: Rotation) -> Rotation {
        let (a, b) = (self, first);
        let w = a.w * b.w - (a.v.x * b.v.x + a.v.y * b.v.y + a.v.z * b.v.z);
        let v = Vec3::new(
            a.w * b.v.x + b.w * a.v.x + (a.v.y * b.v.z - a.v.z * b.v.y),
            a.w * b.v.y + b.w * a.v.y + (a.v.z * b.v.x - a.v.x * b.v.z),
            a.w * b.v.z + b.w * a.v.z + (a.v.x * b.v.y - a.v.y * b.v.x),
        );
        let n = (w * w + v.x * v.x + v.y * v.y + v.z * v.z).sqrt();
        Rotation {
            w: w / n,
            v: Vec3::new(v.x / n, v.y / n, v.z / n),
        }
    }

    /// `q p q*`, as `p + 2w (v × p) + 2 v × (v × p)`.
    pub fn apply(&self, p: Vec3) -> Vec3 {
        let v = self.v;
        let t = Vec3::new(
            2.0 * (v.y * p.z - v.z * p.y),
            2.0 * (v.z * p.x - v.x * p.z),
            2.0 * (v.x * p.y - v.y * p.x),
        );
        Vec3::new(
            p.x + self.w * t.x + (v.y * t.z - v.z * t.y),
            p.y + self.w * t.y + (v.z * t.x - v.x * t.z),
            p.z + self.w * t.z + (v.x * t.y - v.y * t.x),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn taylor_matches_libm_to_an_ulp_or_two() {
        for i in -100..=100 {
            let x = f64::from(i) / 100.0;
            let (s, c) = sin_cos_small(x);
            assert!((s - x.sin()).abs() <= 2.0 * f64::EPSILON, "{x}");
            assert!((c - x.cos()).abs() <= 2.0 * f64::EPSILON, "{x}");
        }
    }

    #[test]
    fn quarter_turns_compose() {
        let y = Vec3::new(0.0, 1.0, 0.0);
        let eighth = Rotation::about(y, std::f64::consts::FRAC_PI_4);
        let quarter = eighth.then_after(eighth);
        let p = quarter.apply(Vec3::new(1.0, 0.0, 0.0));
        // +x turns to −z about +y.
        assert!(
            (p - Vec3::new(0.0, 0.0, -1.0)).norm() < 4.0 * f64::EPSILON,
            "{p}"
        );
        assert_eq!(Rotation::identity().apply(p), p);
    }
}
