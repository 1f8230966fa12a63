//! Sphere–box collision (Trushin, Software & Systems 4(112), 2015, pp. 105–109,
//! DOI 10.15827/0236-235X.112.105-109; section «Определение коллизии сферы с
//! прямоугольным параллелепипедом», Fig. 2), plus a slow oracle.
//!
//! The box centre `O₂` is brought in: `u = M₂⁻¹(O₁ − O₂)` (on a direction, so
//! `Rᵀ(O₁ − O₂)` for the rigid frame), and each component is clamped to the
//! half-extents. If any was clamped, `O₁` is outside the box and the clamped
//! vector is `Q` in the box frame (classes 1–3 of Fig. 2: face, edge, vertex
//! by the number of clamped components): the objects meet iff
//! `|O₁ − Q| ≤ r₁`, `P = Q`, `N = PO₁/|PO₁|`, `D = r₁ − |PO₁|` (formulas (1),
//! (2)). Otherwise `O₁` is inside (class 4): the nearest face is found by
//! `min = l − |u.x|`, then `w − |u.y|`, then `h/2 − |u.z|` (strict `>`, so
//! ties keep the earlier axis, as in the paper); `d` is that axis signed
//! like `u`; `P = O₁ + min·d/|d|`, `N = d/|d|`, `D = r₁ + min`.
//!
//! Where the paper is inconsistent or silent, and what we do:
//! - **Half-extents.** The paper defines `l` and `w` as the *half*-length and
//!   *half*-width (and `h` as the full height) but then clamps to `±l/2`,
//!   `±w/2`, `±h/2`. Only `±h/2` is consistent with its own definitions; we
//!   clamp to `(±l, ±w, ±h/2)` (as docs/design.md §3 does).
//! - **The box centre.** The paper adds `h/2` to the z coordinate of `M₂`'s
//!   fourth column, which is right only when the box's local z is the world
//!   z; we use `M₂·(0, 0, h/2, 1)ᵀ` (see [`Cuboid::centre`]).
//! - **Touching.** The paper's sphere–box test is strict (`|O₁ − Q| < r₁`)
//!   while its sphere–sphere test is not (`≤`). Contact sets are closed
//!   throughout ccdlab and a touching contact must not be missed, so we use
//!   `≤`, with the rounding slack of [`super::sphere_sphere()`].
//! - **`u` on a mid-plane** inside the box: `d = (u.x, 0, 0)` would be zero
//!   for `u.x = 0`; we take the sign of `+0` as `+` (any choice is as near).

use super::shapes::{Cuboid, Sphere};
use super::sphere_sphere::{PositionClass, SphereContact, slack};
use crate::math::{Real, Vec3};

/// Sphere–box collision: `None` when they are apart.
pub fn sphere_cuboid(sphere: &Sphere, cuboid: &Cuboid) -> Option<SphereContact> {
    let o1 = sphere.centre();
    let r1 = sphere.radius();
    let o2 = cuboid.centre();
    let half = cuboid.half_extents();
    let frame = cuboid.frame();
    // u_E2 = M₂⁻¹ (O₁ − O₂), on a direction.
    let u = frame.vector_to_local(&(o1 - o2));
    let mut clamped = u;
    let mut outside = 0;
    for k in 0..3 {
        if u[k] < -half[k] {
            clamped[k] = -half[k];
            outside += 1;
        } else if u[k] > half[k] {
            clamped[k] = half[k];
            outside += 1;
        }
    }
    let scale = o1.amax() + o2.amax() + half.x + half.y + half.z + r1;
    if outside > 0 {
        // Q in the box frame is `clamped`; |O₁ − Q| measured there (rigid).
        let dist = (u - clamped).norm();
        if dist > r1 + slack(scale) {
            return None;
        }
        let point = o2 + frame.vector_to_world(&clamped);
        // N = PO₁/|PO₁| (formula (1) with (O₂O₁, PO₁) > 0, as the paper shows).
        let normal = frame.vector_to_world(&((u - clamped) / dist));
        let class = match outside {
            1 => PositionClass::Face,
            2 => PositionClass::Edge,
            _ => PositionClass::Vertex,
        };
        return Some(SphereContact {
            point,
            normal,
            depth: r1 - dist,
            class,
        });
    }
    // Inside: the nearest face, in the paper's order x, y, z.
    let mut axis = 0;
    let mut min = half.x - u.x.abs();
    if min > half.y - u.y.abs() {
        min = half.y - u.y.abs();
        axis = 1;
    }
    if min > half.z - u.z.abs() {
        min = half.z - u.z.abs();
        axis = 2;
    }
    let mut d = Vec3::zeros();
    d[axis] = if u[axis] < 0.0 { -1.0 } else { 1.0 };
    let normal = frame.vector_to_world(&d);
    Some(SphereContact {
        point: o1 + min * normal,
        normal,
        depth: r1 + min,
        class: PositionClass::InsideBox,
    })
}

/// Slow oracle: the closest point of the box surface to the sphere centre by
/// projecting `O₁` on each of the six face rectangles in world coordinates,
/// and an inside test by the six half-spaces. Independent of
/// [`sphere_cuboid`]'s clamping; returns `(closest surface point, signed
/// distance of O₁ to the box: negative inside)`.
pub fn closest_surface_point_oracle(cuboid: &Cuboid, p: &Vec3) -> (Vec3, Real) {
    let frame = cuboid.frame();
    let c = cuboid.centre();
    let half = cuboid.half_extents();
    let axes = [
        frame.vector_to_world(&Vec3::x()),
        frame.vector_to_world(&Vec3::y()),
        frame.vector_to_world(&Vec3::z()),
    ];
    let mut best = (c, Real::INFINITY);
    let mut inside = true;
    for k in 0..3 {
        let (a, b) = ((k + 1) % 3, (k + 2) % 3);
        for sign in [-1.0, 1.0] {
            let face_centre = c + sign * half[k] * axes[k];
            let rel = p - face_centre;
            if rel.dot(&(sign * axes[k])) > 0.0 {
                inside = false;
            }
            let sa = rel.dot(&axes[a]).clamp(-half[a], half[a]);
            let sb = rel.dot(&axes[b]).clamp(-half[b], half[b]);
            let q = face_centre + sa * axes[a] + sb * axes[b];
            let dist = (p - q).norm();
            if dist < best.1 {
                best = (q, dist);
            }
        }
    }
    if inside { (best.0, -best.1) } else { best }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Matrix4, Rotation3};

    /// The unit box of the tests: l = 2, w = 1, h = 2, origin at (0,0,0) so
    /// the box is [−2,2]×[−1,1]×[0,2] and its centre is (0,0,1).
    fn unit_box() -> Cuboid {
        Cuboid::new(&Matrix4::identity(), 2.0, 1.0, 2.0).unwrap()
    }

    fn ball(x: Real, y: Real, z: Real, r: Real) -> Sphere {
        Sphere::at(Vec3::new(x, y, z), r).unwrap()
    }

    #[test]
    fn class_1_face() {
        // Above the top face z = 2 by 0.5, r = 1: Q₁ = (0.5, 0.2, 2).
        let c = sphere_cuboid(&ball(0.5, 0.2, 2.5, 1.0), &unit_box()).unwrap();
        assert_eq!(c.class, PositionClass::Face);
        assert_eq!(c.point, Vec3::new(0.5, 0.2, 2.0));
        assert_eq!(c.normal, Vec3::z());
        assert_eq!(c.depth, 0.5);
    }

    #[test]
    fn class_2_edge() {
        // Off the edge x = 2, z = 2 by (0.3, 0.4): |PO₁| = 0.5, r = 1.
        let c = sphere_cuboid(&ball(2.3, 0.0, 2.4, 1.0), &unit_box()).unwrap();
        assert_eq!(c.class, PositionClass::Edge);
        assert_eq!(c.point, Vec3::new(2.0, 0.0, 2.0));
        assert!((c.normal - Vec3::new(0.6, 0.0, 0.8)).norm() < 1e-15);
        assert!((c.depth - 0.5).abs() < 1e-15);
    }

    #[test]
    fn class_3_vertex() {
        // Off the vertex (−2, −1, 0) by (−1, −2, −2)/3·3 = |3|, r = 4.
        let c = sphere_cuboid(&ball(-3.0, -3.0, -2.0, 4.0), &unit_box()).unwrap();
        assert_eq!(c.class, PositionClass::Vertex);
        assert_eq!(c.point, Vec3::new(-2.0, -1.0, 0.0));
        assert!((c.normal - Vec3::new(-1.0, -2.0, -2.0) / 3.0).norm() < 1e-15);
        assert!((c.depth - 1.0).abs() < 1e-15);
    }

    #[test]
    fn class_4_inside_through_the_nearest_face() {
        // Centre (1.5, 0.1, 1): distances to faces x: 0.5, y: 0.9, z: 1.
        let c = sphere_cuboid(&ball(1.5, 0.1, 1.0, 0.25), &unit_box()).unwrap();
        assert_eq!(c.class, PositionClass::InsideBox);
        assert_eq!(c.point, Vec3::new(2.0, 0.1, 1.0));
        assert_eq!(c.normal, Vec3::x());
        assert_eq!(c.depth, 0.75);
        // Nearest face is the bottom one (z = 0): distance 0.2.
        let c = sphere_cuboid(&ball(0.0, 0.0, 0.2, 0.25), &unit_box()).unwrap();
        assert!(c.point.norm() < 1e-15);
        assert_eq!(c.normal, -Vec3::z());
        assert!((c.depth - 0.45).abs() < 1e-15);
    }

    #[test]
    fn touching_and_just_apart() {
        let c = sphere_cuboid(&ball(3.0, 0.0, 1.0, 1.0), &unit_box()).unwrap();
        assert_eq!((c.class, c.depth), (PositionClass::Face, 0.0));
        assert!(sphere_cuboid(&ball(3.0 + 1e-9, 0.0, 1.0, 1.0), &unit_box()).is_none());
        // Centre exactly on the face: class 4 with min = 0, D = r₁.
        let c = sphere_cuboid(&ball(2.0, 0.0, 1.0, 1.0), &unit_box()).unwrap();
        assert_eq!(
            (c.class, c.depth, c.normal),
            (PositionClass::InsideBox, 1.0, Vec3::x())
        );
    }

    #[test]
    fn centre_on_the_lower_face_is_class_4() {
        // Centre exactly on the face x = −2: class 4 with min = 0, D = r₁ and
        // N = −x (on the face is not outside; a distance of 0 has no normal).
        let c = sphere_cuboid(&ball(-2.0, 0.0, 1.0, 1.0), &unit_box()).unwrap();
        assert_eq!(
            (c.class, c.depth, c.normal),
            (PositionClass::InsideBox, 1.0, -Vec3::x())
        );
    }

    #[test]
    fn one_ulp_apart_is_a_touching_contact() {
        // The centre one ulp past x = 3: |PO₁| = 1 + 2⁻⁵¹, beyond r₁ = 1 by
        // less than the rounding slack, so it is reported as touching, as for
        // two spheres.
        let c = sphere_cuboid(&ball(3.0_f64.next_up(), 0.0, 1.0, 1.0), &unit_box()).unwrap();
        assert_eq!(c.class, PositionClass::Face);
        assert!(c.depth <= 0.0 && c.depth > -1e-14);
    }

    #[test]
    fn rotated_box_matches_the_oracle() {
        let r = Rotation3::from_euler_angles(0.4, -0.7, 1.9);
        let mut m = Matrix4::identity();
        m.fixed_view_mut::<3, 3>(0, 0).copy_from(r.matrix());
        m[(0, 3)] = 1.0;
        m[(1, 3)] = 2.0;
        m[(2, 3)] = -0.5;
        let b = Cuboid::new(&m, 0.7, 0.4, 1.3).unwrap();
        let mut hits = 0;
        for k in 0..2000 {
            let t = k as Real;
            let p = Vec3::new(1.0, 2.0, 0.0)
                + 1.6 * Vec3::new((t * 0.37).sin(), (t * 0.91).cos(), (t * 0.13).sin());
            let (q, sd) = closest_surface_point_oracle(&b, &p);
            let ours = sphere_cuboid(&Sphere::at(p, 0.3).unwrap(), &b);
            match ours {
                Some(c) => {
                    hits += 1;
                    assert!(sd <= 0.3 + 1e-12, "k={k}");
                    assert!((c.point - q).norm() < 1e-12, "k={k}");
                    assert!((c.depth - (0.3 - sd)).abs() < 1e-12, "k={k}");
                }
                None => assert!(sd > 0.3, "k={k}"),
            }
        }
        assert!(hits > 100 && hits < 1900, "{hits}");
    }
}
