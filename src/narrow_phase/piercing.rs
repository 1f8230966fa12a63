//! Static exact predicates on double coordinates: the orientation of four
//! points, and whether a segment pierces the relative interior of a triangle
//! transversally.
//!
//! Used at one instant, where every position is an input double: two
//! triangles may interpenetrate there (an edge of one crossing the interior
//! of the other) without any vertex–face or edge–edge pair touching, so the
//! fifteen elementary tests see nothing at that instant. The moving-TIN
//! contact forms (`crate::tin_contact`) flag such contacts at `t = 0`, and
//! [`crate::pipeline::intersections`] looks for them in a mesh
//! (docs/design.md §11).
//!
//! `orient3d` is the sign of `det[a − d, b − d, c − d]` (Shewchuk, "Adaptive
//! precision floating-point arithmetic and fast robust geometric predicates",
//! DCG 18, 1997, §4.3, with the differences as leaves as in his §4.2). The
//! floating-point value carries the crate's rigorous error model
//! ([`crate::math::Bounded`], bounds derived from `f64::EPSILON`); when it
//! cannot certify the sign, or a coordinate is outside the filter range, the
//! determinant is evaluated in big integers on the common scale of the
//! twelve coordinates ([`crate::exact::to_common_scale`]), which is exact.

use std::cmp::Ordering;

use num_bigint::BigInt;

use crate::exact::{SignOrdering, to_common_scale};
use crate::math::{BoundedVec3, Vec3, all_in_filter_range};

/// The exact sign of `det[a − d, b − d, c − d]`.
///
/// # Panics
/// When a coordinate is NaN or infinite (it has no exact value).
pub fn orient3d(a: &Vec3, b: &Vec3, c: &Vec3, d: &Vec3) -> Ordering {
    if all_in_filter_range(&[a, b, c, d]) {
        let ad = BoundedVec3::difference(a, d);
        let bd = BoundedVec3::difference(b, d);
        let cd = BoundedVec3::difference(c, d);
        if let Some(s) = ad.dot(&bd.cross(&cd)).sign() {
            return s.cmp(&0);
        }
    }
    orient3d_exact(a, b, c, d)
}

/// [`orient3d`] in big integers only (the reference of the filter).
///
/// # Panics
/// When a coordinate is NaN or infinite (it has no exact value).
pub fn orient3d_exact(a: &Vec3, b: &Vec3, c: &Vec3, d: &Vec3) -> Ordering {
    let mut xs = [0.0; 12];
    for (k, p) in [a, b, c, d].iter().enumerate() {
        xs[3 * k..3 * k + 3].copy_from_slice(&[p.x, p.y, p.z]);
    }
    let v = to_common_scale(&xs);
    let diff =
        |k: usize| -> [BigInt; 3] { std::array::from_fn(|axis| &v[3 * k + axis] - &v[9 + axis]) };
    let (u, w, z) = (diff(0), diff(1), diff(2));
    let det = &u[0] * (&w[1] * &z[2] - &w[2] * &z[1]) - &u[1] * (&w[0] * &z[2] - &w[2] * &z[0])
        + &u[2] * (&w[0] * &z[1] - &w[1] * &z[0]);
    det.sign_ordering()
}

/// Whether the closed segment `p q` crosses the triangle `x₀x₁x₂`
/// transversally through its relative interior: `p` and `q` strictly on
/// opposite sides of the triangle's plane, and the line `p q` strictly
/// inside the three edges (the three orientations `orient3d(p, q, x_k,
/// x_{k+1})` non-zero and of one sign). A triangle with zero area has no
/// relative interior and is never pierced.
///
/// # Panics
/// When a coordinate is NaN or infinite (it has no exact value).
pub fn segment_pierces_triangle(p: &Vec3, q: &Vec3, x: [&Vec3; 3]) -> bool {
    let sp = orient3d(x[0], x[1], x[2], p);
    let sq = orient3d(x[0], x[1], x[2], q);
    if sp == Ordering::Equal || sq == Ordering::Equal || sp == sq {
        return false;
    }
    let s0 = orient3d(p, q, x[0], x[1]);
    s0 != Ordering::Equal && s0 == orient3d(p, q, x[1], x[2]) && s0 == orient3d(p, q, x[2], x[0])
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn v(x: f64, y: f64, z: f64) -> Vec3 {
        Vec3::new(x, y, z)
    }

    #[test]
    fn orientation_of_a_unit_tetrahedron() {
        let (o, x, y, z) = (
            v(0.0, 0.0, 0.0),
            v(1.0, 0.0, 0.0),
            v(0.0, 1.0, 0.0),
            v(0.0, 0.0, 1.0),
        );
        // det[o − z, x − z, y − z] = det[(0,0,−1), (1,0,−1), (0,1,−1)] = −1.
        assert_eq!(orient3d(&o, &x, &y, &z), Ordering::Less);
        assert_eq!(orient3d(&x, &o, &y, &z), Ordering::Greater);
        assert_eq!(orient3d(&o, &x, &y, &v(0.3, 0.3, 0.0)), Ordering::Equal);
    }

    #[test]
    fn nearly_coplanar_points_need_the_exact_path() {
        let (a, b, c) = (v(0.1, 0.2, 0.3), v(1.1, 0.7, -0.2), v(0.4, 1.9, 0.6));
        // d on the plane up to one ulp in z: the filter gives up, the exact
        // path still answers.
        let d = a + (b - a) * 0.5 + (c - a) * 0.25;
        let s = orient3d(&a, &b, &c, &d);
        assert_eq!(s, orient3d_exact(&a, &b, &c, &d));
    }

    #[test]
    fn piercing_needs_the_interior() {
        let tri = [v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(0.0, 1.0, 0.0)];
        let x = [&tri[0], &tri[1], &tri[2]];
        assert!(segment_pierces_triangle(
            &v(0.2, 0.2, 1.0),
            &v(0.2, 0.2, -1.0),
            x
        ));
        // Through an edge, through a vertex, ending on the plane, beside it.
        assert!(!segment_pierces_triangle(
            &v(0.5, 0.5, 1.0),
            &v(0.5, 0.5, -1.0),
            x
        ));
        assert!(!segment_pierces_triangle(
            &v(0.0, 0.0, 1.0),
            &v(0.0, 0.0, -1.0),
            x
        ));
        assert!(!segment_pierces_triangle(
            &v(0.2, 0.2, 1.0),
            &v(0.2, 0.2, 0.0),
            x
        ));
        assert!(!segment_pierces_triangle(
            &v(0.8, 0.8, 1.0),
            &v(0.8, 0.8, -1.0),
            x
        ));
    }

    proptest! {
        #[test]
        fn filtered_orientation_equals_the_exact_one(
            c in proptest::collection::vec(-4i32..4, 12),
            // Small, and beyond the filter's range at both ends (the exact
            // path alone there).
            scale in prop_oneof![-3i32..3, -1074i32..-1000, 1000i32..1020],
            jitter in 0.0f64..1e-9,
        ) {
            let s = 2f64.powi(scale);
            let p = |k: usize| v(c[3 * k] as f64 * s, c[3 * k + 1] as f64 * s, c[3 * k + 2] as f64 * s + if k == 3 { jitter } else { 0.0 });
            let (a, b, cc, d) = (p(0), p(1), p(2), p(3));
            prop_assert_eq!(orient3d(&a, &b, &cc, &d), orient3d_exact(&a, &b, &cc, &d));
        }
    }

    #[test]
    fn a_segment_on_one_side_of_the_plane_does_not_pierce() {
        // Above the triangle's interior, not reaching its plane: the line
        // through it crosses the interior, the segment does not.
        let tri = [v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(0.0, 1.0, 0.0)];
        let x = [&tri[0], &tri[1], &tri[2]];
        assert!(!segment_pierces_triangle(
            &v(0.2, 0.2, 1.0),
            &v(0.2, 0.2, 2.0),
            x
        ));
        assert!(!segment_pierces_triangle(
            &v(0.2, 0.2, -2.0),
            &v(0.3, 0.1, -1.0),
            x
        ));
    }
}
