//! The baseline: the same inputs as parry3d-f64 0.31 shapes (`Ball`,
//! `Cuboid`, `Cylinder`, `HeightField`), its `query::contact` and contact
//! manifolds, and the measures of agreement with ours.
//!
//! Conventions that differ, and how they are mapped:
//! - parry 0.31 uses glam types (`DVec3`, `DQuat`, `Pose3`); ours are
//!   nalgebra. Conversions are exact (same f64s).
//! - parry's `Cuboid` is centred at its pose; Trushin's box origin is the
//!   centre of its bottom face: the pose's translation is the box centre.
//! - parry's `Cylinder` is centred with its axis along local **y**: the pose
//!   rotates `+y` onto `v` (`DQuat::from_rotation_arc`).
//! - parry's `HeightField` is **y-up**, centred on its pose, spans
//!   `[−s_x/2, s_x/2] × [−s_z/2, s_z/2]`, rows along local z and columns
//!   along local x, stored column-major. Our grid is z-up with rows (`i`)
//!   along y and columns (`j`) along x. The pose's rotation maps local
//!   `(x′, y′, z′)` to world `(z′, x′, y′)` (a cyclic permutation, a proper
//!   rotation), so parry's rows are our columns and its columns our rows, and
//!   its column-major `Array2(nrows = M + 1, ncols = N + 1)` holds exactly our
//!   row-major heights; scale `(N·d_y, 1, M·d_x)`.
//! - **Triangulation**: parry splits each cell into `p00 p10 p01` and
//!   `p10 p11 p01` (no `ZIGZAG_SUBDIVISION` flag); mapped to our grid these
//!   are `V₀V₁V₂` and `V₁V₃V₂` = `V₃V₂V₁`: the paper's diagonal `V₁V₂`. A
//!   rectangle element of the paper is two coplanar parry triangles, the same
//!   surface. So both see the same terrain surface (tested).
//! - **Normals and depths**: parry's `normal1` points from shape 1 towards
//!   shape 2 and `dist < 0` is penetration. Our normal is the push-out
//!   direction of the first object, so `N = −normal1`, `D = −dist`.
//! - **Solid vs surface**: parry tests the sphere/cylinder against the
//!   heightfield's *triangles* (one contact per triangle, deepest kept by
//!   `contact`); the paper treats the region below the grid as solid. They
//!   agree while the cylinder crosses the surface; a cylinder entirely below
//!   it is [`Outcome::Buried`] for us and no contact for parry.
//! - **Depth along what**: the paper's depths are measured along the element
//!   normal at base/generatrix points; parry's is the minimal translation
//!   distance against one triangle. They coincide for a flat element and a
//!   lateral or single-point contact, and differ in general: we report the
//!   difference, not a pass/fail.
//!
//! docs/design.md §4 (parry3d-f64, the baseline) and §3 (the detectors compared
//! with it).

use parry3d_f64::math::{Matrix, Pose, Rotation, Vector};
use parry3d_f64::query::{
    self, ContactManifold, DefaultQueryDispatcher, PersistentQueryDispatcher,
};
use parry3d_f64::shape::{Ball, Cuboid as PCuboid, Cylinder as PCylinder, HeightField};
use parry3d_f64::utils::Array2;

use super::cylinder_heightfield::{ContactPoint, Outcome};
use super::heightfield::HeightGrid;
use super::shapes::{Cuboid, Cylinder, Sphere};
use super::sphere_sphere::SphereContact;
use crate::math::{Real, Vec3};

/// nalgebra → glam.
#[inline]
pub fn to_parry(v: &Vec3) -> Vector {
    Vector::new(v.x, v.y, v.z)
}

/// glam → nalgebra.
#[inline]
pub fn from_parry(v: &Vector) -> Vec3 {
    Vec3::new(v.x, v.y, v.z)
}

/// A sphere as a parry `Ball` and its pose.
pub fn ball(s: &Sphere) -> (Pose, Ball) {
    (
        Pose::from_translation(to_parry(&s.centre())),
        Ball::new(s.radius()),
    )
}

/// Trushin's box as a parry `Cuboid` centred at its pose.
pub fn cuboid(b: &Cuboid) -> (Pose, PCuboid) {
    let r = b.frame().rotation();
    let m = Matrix::from_cols(
        Vector::new(r[(0, 0)], r[(1, 0)], r[(2, 0)]),
        Vector::new(r[(0, 1)], r[(1, 1)], r[(2, 1)]),
        Vector::new(r[(0, 2)], r[(1, 2)], r[(2, 2)]),
    );
    let rot = Rotation::from_mat3(&m).normalize();
    (
        Pose::from_parts(to_parry(&b.centre()), rot),
        PCuboid::new(to_parry(&b.half_extents())),
    )
}

/// Our cylinder as a parry `Cylinder` (local y axis) and its pose.
pub fn cylinder(c: &Cylinder) -> (Pose, PCylinder) {
    let rot = Rotation::from_rotation_arc(Vector::Y, to_parry(&c.axis()));
    (
        Pose::from_parts(to_parry(&c.centre()), rot),
        PCylinder::new(0.5 * c.height(), c.radius()),
    )
}

/// Our grid as a parry `HeightField` and its pose (see the module doc).
pub fn heightfield(g: &HeightGrid) -> (Pose, HeightField) {
    let (rows, cols) = (g.rows(), g.cols());
    let [dx, dy] = g.step();
    let [x0, y0] = g.origin();
    let heights = Array2::new(cols, rows, g.heights().to_vec());
    let scale = Vector::new((rows - 1) as Real * dy, 1.0, (cols - 1) as Real * dx);
    // Local x′ → world y, y′ → world z, z′ → world x.
    let m = Matrix::from_cols(Vector::Y, Vector::Z, Vector::X);
    let pose = Pose::from_parts(
        Vector::new(
            x0 + 0.5 * (cols - 1) as Real * dx,
            y0 + 0.5 * (rows - 1) as Real * dy,
            0.0,
        ),
        Rotation::from_mat3(&m),
    );
    (pose, HeightField::new(heights, scale))
}

/// parry's contact for a first object (sphere or cylinder), in our
/// conventions.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ParryContact {
    /// `point2`: on the second object.
    pub point: Vec3,
    /// `−normal1`: push-out direction of the first object.
    pub normal: Vec3,
    /// `−dist`.
    pub depth: Real,
}

fn parry_contact(
    p1: &Pose,
    g1: &dyn parry3d_f64::shape::Shape,
    p2: &Pose,
    g2: &dyn parry3d_f64::shape::Shape,
) -> Option<ParryContact> {
    match query::contact(p1, g1, p2, g2, 0.0) {
        Ok(Some(c)) => Some(ParryContact {
            point: from_parry(&c.point2),
            normal: -from_parry(&c.normal1),
            depth: -c.dist,
        }),
        _ => None,
    }
}

/// parry's sphere–sphere contact.
pub fn parry_sphere_sphere(s1: &Sphere, s2: &Sphere) -> Option<ParryContact> {
    let (p1, g1) = ball(s1);
    let (p2, g2) = ball(s2);
    parry_contact(&p1, &g1, &p2, &g2)
}

/// parry's sphere–box contact.
pub fn parry_sphere_cuboid(s: &Sphere, b: &Cuboid) -> Option<ParryContact> {
    let (p1, g1) = ball(s);
    let (p2, g2) = cuboid(b);
    parry_contact(&p1, &g1, &p2, &g2)
}

/// A terrain converted once for repeated parry queries.
pub struct ParryTerrain {
    /// Its pose.
    pub pose: Pose,
    /// The heightfield.
    pub shape: HeightField,
    manifolds: Vec<ContactManifold<(), ()>>,
    workspace: Option<query::ContactManifoldsWorkspace>,
}

impl ParryTerrain {
    /// Converts `g`.
    pub fn new(g: &HeightGrid) -> ParryTerrain {
        let (pose, shape) = heightfield(g);
        ParryTerrain {
            pose,
            shape,
            manifolds: Vec::new(),
            workspace: None,
        }
    }

    /// parry's deepest contact of the cylinder with the terrain.
    pub fn contact(&self, c: &Cylinder) -> Option<ParryContact> {
        let (p1, g1) = cylinder(c);
        parry_contact(&p1, &g1, &self.pose, &self.shape)
    }

    /// parry's contact manifolds (fresh workspace each call, so no
    /// coherence across calls): `(points with dist ≤ 0, manifolds with at
    /// least one point)`.
    pub fn manifold_counts(&mut self, c: &Cylinder) -> (usize, usize) {
        let (p1, g1) = cylinder(c);
        let pos12 = p1.inv_mul(&self.pose);
        self.manifolds.clear();
        self.workspace = None;
        let _ = DefaultQueryDispatcher.contact_manifolds(
            &pos12,
            &g1,
            &self.shape,
            0.0,
            &mut self.manifolds,
            &mut self.workspace,
        );
        let mut points = 0;
        let mut non_empty = 0;
        for m in &self.manifolds {
            let k = m.points.iter().filter(|p| p.dist <= 0.0).count();
            points += k;
            non_empty += usize::from(k > 0);
        }
        (points, non_empty)
    }

    /// World-space contact points of the last [`Self::manifold_counts`] call
    /// (points on the terrain, `dist ≤ 0`), with parry's push-out normal for
    /// the cylinder, for plots.
    pub fn last_manifold_points(&self, c: &Cylinder) -> Vec<(Vec3, Vec3)> {
        let (p1, _) = cylinder(c);
        let mut out = Vec::new();
        for m in &self.manifolds {
            let n = -from_parry(&p1.rotation.mul_vec3(m.local_n1));
            for p in m.points.iter().filter(|p| p.dist <= 0.0) {
                out.push((from_parry(&p1.transform_point(p.local_p1)), n));
            }
        }
        out
    }
}

/// Our sphere contact against parry's: both decisions and the differences.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SphereComparison {
    /// Ours.
    pub ours: Option<SphereContact>,
    /// parry's.
    pub parry: Option<ParryContact>,
}

impl SphereComparison {
    /// Whether both say the same (contact or not).
    pub fn agree(&self) -> bool {
        self.ours.is_some() == self.parry.is_some()
    }

    /// `(|ΔD|, angle between normals, |ΔP|)` when both report a contact.
    pub fn differences(&self) -> Option<(Real, Real, Real)> {
        let (o, p) = (self.ours?, self.parry?);
        Some((
            (o.depth - p.depth).abs(),
            angle(&o.normal, &p.normal),
            (o.point - p.point).norm(),
        ))
    }
}

/// Our cylinder–terrain result against parry's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TerrainComparison {
    /// Our outcome.
    pub ours: Outcome,
    /// Our manifold size.
    pub ours_points: usize,
    /// Our normal groups.
    pub ours_groups: usize,
    /// Our deepest point.
    pub ours_deepest: Option<ContactPoint>,
    /// parry's deepest contact.
    pub parry: Option<ParryContact>,
    /// Points in parry's manifolds (`dist ≤ 0`).
    pub parry_points: usize,
    /// parry manifolds (one per triangle) with points.
    pub parry_manifolds: usize,
}

impl TerrainComparison {
    /// Builds the comparison from our manifold and parry's answers.
    pub fn new(
        ours: Outcome,
        manifold: &[ContactPoint],
        groups: usize,
        parry: Option<ParryContact>,
        parry_counts: (usize, usize),
    ) -> TerrainComparison {
        let ours_deepest = manifold
            .iter()
            .copied()
            .reduce(|a, b| if b.depth > a.depth { b } else { a });
        TerrainComparison {
            ours,
            ours_points: manifold.len(),
            ours_groups: groups,
            ours_deepest,
            parry,
            parry_points: parry_counts.0,
            parry_manifolds: parry_counts.1,
        }
    }

    /// Whether we report a surface contact.
    pub fn ours_contact(&self) -> bool {
        self.ours == Outcome::Contact
    }

    /// Whether both agree on contact with the surface.
    pub fn agree(&self) -> bool {
        self.ours_contact() == self.parry.is_some()
    }

    /// `(|Δdepth| of the deepest points, angle between their normals)` when
    /// both report a contact.
    pub fn differences(&self) -> Option<(Real, Real)> {
        let (o, p) = (self.ours_deepest?, self.parry?);
        Some(((o.depth - p.depth).abs(), angle(&o.normal, &p.normal)))
    }
}

/// The angle between two unit vectors (robust near 0 and π).
pub fn angle(a: &Vec3, b: &Vec3) -> Real {
    a.cross(b).norm().atan2(a.dot(b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discrete::heightfield::{CellKind, HeightGrid};

    #[test]
    fn heightfield_triangles_are_the_papers_elements() {
        // A bumpy grid with dx ≠ dy, offset origin, one rectangle cell.
        let g = HeightGrid::from_fn([1.5, -2.0], [0.5, 0.25], 4, 5, |x, y| {
            if x < 2.1 && y < -1.7 {
                0.0
            } else {
                (3.0 * x).sin() * (2.0 * y).cos()
            }
        })
        .unwrap();
        assert_eq!(g.cell_kind(0, 0), CellKind::Rectangle);
        let (pose, hf) = heightfield(&g);
        let (nr, nc) = hf.num_cells_ij();
        assert_eq!((nr, nc), (g.cols() - 1, g.rows() - 1));
        for i in 0..g.rows() - 1 {
            for j in 0..g.cols() - 1 {
                // parry cell (row = our j, col = our i).
                let (t1, t2) = hf.triangles_at(j, i);
                let w = |p: Vector| from_parry(&pose.transform_point(p));
                let (t1, t2) = (t1.unwrap(), t2.unwrap());
                let ours1 = [g.vertex(i, j), g.vertex(i, j + 1), g.vertex(i + 1, j)];
                let ours2 = [
                    g.vertex(i, j + 1),
                    g.vertex(i + 1, j + 1),
                    g.vertex(i + 1, j),
                ];
                for (t, o) in [(t1, ours1), (t2, ours2)] {
                    for (p, q) in [t.a, t.b, t.c].into_iter().zip(o) {
                        assert!((w(p) - q).norm() < 1e-12, "cell ({i},{j})");
                    }
                }
            }
        }
    }

    #[test]
    fn sphere_conventions_match_parry() {
        let s1 = Sphere::at(Vec3::new(3.0, 0.0, 0.0), 1.5).unwrap();
        let s2 = Sphere::at(Vec3::zeros(), 2.0).unwrap();
        let p = parry_sphere_sphere(&s1, &s2).unwrap();
        let o = crate::discrete::sphere_sphere(&s1, &s2).unwrap();
        assert!((p.depth - o.depth).abs() < 1e-12);
        assert!(angle(&p.normal, &o.normal) < 1e-12);
        assert!((p.point - o.point).norm() < 1e-12);
    }
}
