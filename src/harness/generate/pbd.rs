//! A small position-based cloth solver: particles of unit mass joined by
//! distance constraints, gravity, linear air drag, and contact with an
//! analytic spinning sphere.
//!
//! Müller, Heidelberger, Hennix & Ratcliff, "Position based dynamics",
//! *J. Vis. Commun. Image Represent.* 18(2), 2007, Alg. 1: predict
//! `p = x + h v` (lines 5–7), project the constraints Gauss–Seidel
//! (lines 9–11, the distance constraint of §3.3), set `v = (p − x)/h`,
//! `x = p` (lines 12–15). Constraint stiffness is given as an XPBD compliance
//! `α` (Macklin, Müller & Chentanez, "XPBD: position-based simulation of
//! compliant constrained dynamics", MIG 2016, Eq. 18 with `α̃ = α/h²` and
//! `λ = 0` at the start of each solve), and each frame is split into
//! substeps with one constraint iteration each (Macklin, Storey, Lu,
//! Terdiman, Chentanez, Jeschke & Müller, "Small steps in physics
//! simulation", SCA 2019, Alg. 1).
//!
//! Deviations: each substep projects the constraints in a *symmetric*
//! Gauss–Seidel sweep, forward then backward through the list. With one
//! forward sweep per substep the error of a constraint mode evolves
//! (linearised, without contact) by the roots `λ` of
//! `λ² − 2gλ + g = 0`, `g` an eigenvalue of the sweep's error propagator
//! (predict, project, `v = (p − x)/h`), which leaves the unit disc when `g`
//! has a real part below about −1/3, as a one-way sweep's propagator may
//! (docs/notes/generator.md).
//! The symmetric sweep's propagator has real eigenvalues in `[0, 1)`, so
//! `|λ| = √g < 1`. The sphere contact is a projection onto the sphere after the
//! constraints (collision constraints generated per substep, §3.4 of Müller
//! et al., with the simplest friction: a share of the tangential slip
//! relative to the moving surface is removed). **Cloth self-collision is not
//! handled**: the sheet folds through itself, which is what makes the
//! generated steps rich in self-collisions for the CCD pipeline to find.
//!
//! Everything runs sequentially in a fixed order, so the result is the same
//! bit for bit on every machine and for any thread count.

use crate::math::Vec3;

/// `|p_i − p_j| = rest`, softened by `compliance` (inverse stiffness,
/// m/N for unit masses; 0 = inextensible).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DistanceConstraint {
    /// First particle.
    pub i: u32,
    /// Second particle.
    pub j: u32,
    /// Rest length.
    pub rest: f64,
    /// XPBD compliance `α`.
    pub compliance: f64,
}

/// A solid sphere spinning about its centre: particles are kept outside it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SphereCollider {
    /// Centre (fixed).
    pub center: Vec3,
    /// Radius.
    pub radius: f64,
    /// Angular velocity, rad/s.
    pub omega: Vec3,
    /// Share of the tangential slip removed at each contact, `[0, 1]`.
    pub friction: f64,
}

/// The particles and constraints of a cloth.
#[derive(Debug, Clone)]
pub struct Cloth {
    x: Vec<Vec3>,
    v: Vec<Vec3>,
    p: Vec<Vec3>,
    constraints: Vec<DistanceConstraint>,
    /// `1/(2 + α/h²)` per constraint, for the step length `scale_h`.
    scale: Vec<f64>,
    scale_h: f64,
}

impl Cloth {
    /// Particles at rest at `x`; every constraint index must be below
    /// `x.len()`.
    pub fn new(x: Vec<Vec3>, constraints: Vec<DistanceConstraint>) -> Cloth {
        debug_assert!(
            constraints
                .iter()
                .all(|c| (c.i as usize) < x.len() && (c.j as usize) < x.len())
        );
        Cloth {
            v: vec![Vec3::zeros(); x.len()],
            p: x.clone(),
            x,
            constraints,
            scale: Vec::new(),
            scale_h: f64::NAN,
        }
    }

    /// Current positions.
    pub fn positions(&self) -> &[Vec3] {
        &self.x
    }

    /// Advances by one substep of length `h`.
    pub fn substep(&mut self, h: f64, gravity: Vec3, drag: f64, sphere: &SphereCollider) {
        let keep = 1.0 - drag * h;
        // Predict (Müller et al. 2007, Alg. 1, lines 5–7).
        for ((p, x), v) in self.p.iter_mut().zip(&self.x).zip(&mut self.v) {
            *v = *v * keep + gravity * h;
            *p = x + *v * h;
        }
        // Distance constraints; unit masses (w_i = w_j = 1), so
        // Δλ = −C / (w_i + w_j + α̃), α̃ = α/h² (XPBD Eq. 18), and each end
        // moves by Δλ·∇C = Δλ·d/|d|. The factors 1/(2 + α̃) depend on h
        // only, and are computed once per step length.
        if self.scale_h != h {
            let inv_h2 = 1.0 / (h * h);
            self.scale = self
                .constraints
                .iter()
                .map(|c| 1.0 / (2.0 + c.compliance * inv_h2))
                .collect();
            self.scale_h = h;
        }
        let project = |p: &mut [Vec3], c: &DistanceConstraint, k: f64| {
            let (i, j) = (c.i as usize, c.j as usize);
            let d = p[i] - p[j];
            let l2 = d.x * d.x + d.y * d.y + d.z * d.z;
            if l2 <= 0.0 {
                return;
            }
            // −(|d| − rest)/(2 + α̃) along d/|d|.
            let step = d * ((c.rest / l2.sqrt() - 1.0) * k);
            p[i] += step;
            p[j] -= step;
        };
        // Symmetric Gauss–Seidel: forward, then backward.
        for (c, &k) in self.constraints.iter().zip(&self.scale) {
            project(&mut self.p, c, k);
        }
        for (c, &k) in self.constraints.iter().zip(&self.scale).rev() {
            project(&mut self.p, c, k);
        }
        // Sphere contact: project out, then remove a share of the slip
        // relative to the surface, which moves by h (ω × r).
        let r2 = sphere.radius * sphere.radius;
        for (p, x) in self.p.iter_mut().zip(&self.x) {
            let r = *p - sphere.center;
            let d2 = r.x * r.x + r.y * r.y + r.z * r.z;
            if d2 >= r2 || d2 == 0.0 {
                continue;
            }
            let n = r / d2.sqrt();
            *p = sphere.center + n * sphere.radius;
            let surface = sphere.omega.cross(&(*p - sphere.center)) * h;
            let slip = (*p - x) - surface;
            let tangential = slip - n * slip.dot(&n);
            *p -= tangential * sphere.friction;
        }
        // Velocities and positions (lines 12–15).
        let inv_h = 1.0 / h;
        for ((p, x), v) in self.p.iter().zip(&mut self.x).zip(&mut self.v) {
            *v = (p - *x) * inv_h;
            *x = *p;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn far_sphere() -> SphereCollider {
        SphereCollider {
            center: Vec3::new(0.0, -100.0, 0.0),
            radius: 1.0,
            omega: Vec3::zeros(),
            friction: 0.0,
        }
    }

    #[test]
    fn a_free_particle_falls_as_symplectic_euler() {
        let g = Vec3::new(0.0, -10.0, 0.0);
        let mut c = Cloth::new(vec![Vec3::zeros()], vec![]);
        for _ in 0..4 {
            c.substep(0.1, g, 0.0, &far_sphere());
        }
        // y_n = −g h² n(n+1)/2 = −10·0.01·10.
        assert!((c.positions()[0].y + 1.0).abs() < 1e-12);
    }

    #[test]
    fn a_stiff_constraint_restores_its_length() {
        let mut c = Cloth::new(
            vec![Vec3::zeros(), Vec3::new(2.0, 0.0, 0.0)],
            vec![DistanceConstraint {
                i: 0,
                j: 1,
                rest: 1.0,
                compliance: 0.0,
            }],
        );
        c.substep(0.01, Vec3::zeros(), 0.0, &far_sphere());
        let x = c.positions();
        assert!(((x[1] - x[0]).norm() - 1.0).abs() < 1e-12);
        assert!((x[0].x + x[1].x - 2.0).abs() < 1e-12, "centre kept");
    }

    #[test]
    fn particles_end_outside_the_sphere() {
        let sphere = SphereCollider {
            center: Vec3::zeros(),
            radius: 1.0,
            omega: Vec3::new(0.0, 3.0, 0.0),
            friction: 0.5,
        };
        let mut c = Cloth::new(vec![Vec3::new(0.1, 1.01, 0.0)], vec![]);
        for _ in 0..20 {
            c.substep(0.01, Vec3::new(0.0, -9.81, 0.0), 0.0, &sphere);
            assert!(c.positions()[0].norm() >= 1.0 - 1e-12);
        }
        // Friction drags the particle along the spin (+y spin moves +x
        // towards −z).
        assert!(c.positions()[0].z < 0.0);
    }
}
