//! Inputs for tests, benches and the `ccdlab discrete` harness: seeded random
//! configurations (a self-contained SplitMix64 generator, so that a seed
//! means the same inputs everywhere) and the scripted scenes of Strashnov &
//! Torgashev 2020, §VI: barrels on asphalt with a curb (Fig. 9: lying,
//! standing, tilted, and against the curb) and a wheel rolling over a hill
//! (Fig. 10). docs/design.md §3.

use nalgebra::{Matrix4, UnitQuaternion};

use super::heightfield::HeightGrid;
use super::shapes::{Cuboid, Cylinder, Sphere};
use crate::math::{Real, Vec3};

/// SplitMix64 (Steele, Lea & Flood 2014): a tiny, fast, seedable generator.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)` (53 random bits).
    pub fn unit(&mut self) -> Real {
        (self.next_u64() >> 11) as Real / (1u64 << 53) as Real
    }

    /// Uniform in `[lo, hi)`.
    pub fn uniform(&mut self, lo: Real, hi: Real) -> Real {
        lo + (hi - lo) * self.unit()
    }

    /// Uniform on the unit sphere.
    pub fn unit_vector(&mut self) -> Vec3 {
        let z = self.uniform(-1.0, 1.0);
        let phi = self.uniform(0.0, std::f64::consts::TAU);
        let s = (1.0 - z * z).sqrt();
        Vec3::new(s * phi.cos(), s * phi.sin(), z)
    }

    /// A uniformly random rotation.
    pub fn rotation(&mut self) -> UnitQuaternion<Real> {
        let axis = nalgebra::Unit::new_normalize(self.unit_vector());
        UnitQuaternion::from_axis_angle(&axis, self.uniform(0.0, std::f64::consts::TAU))
    }
}

/// A 4×4 world-from-local matrix from a rotation and a translation.
pub fn matrix(rotation: &UnitQuaternion<Real>, origin: &Vec3) -> Matrix4<Real> {
    let mut m = rotation.to_homogeneous();
    m[(0, 3)] = origin.x;
    m[(1, 3)] = origin.y;
    m[(2, 3)] = origin.z;
    m
}

/// `n` random sphere pairs in a 4-unit cube (radii in `[0.1, 1.5]`); about
/// half of them overlap.
pub fn random_sphere_pairs(seed: u64, n: usize) -> Vec<(Sphere, Sphere)> {
    let mut rng = SplitMix64::new(seed);
    (0..n)
        .map(|_| {
            let r1 = rng.uniform(0.1, 1.5);
            let r2 = rng.uniform(0.1, 1.5);
            let o2 = Vec3::new(
                rng.uniform(-2.0, 2.0),
                rng.uniform(-2.0, 2.0),
                rng.uniform(-2.0, 2.0),
            );
            let dist = rng.uniform(0.0, 1.4 * (r1 + r2));
            let o1 = o2 + dist * rng.unit_vector();
            (Sphere::at(o1, r1).unwrap(), Sphere::at(o2, r2).unwrap())
        })
        .collect()
}

/// `n` random sphere–box pairs: a randomly rotated box (`l, w ∈ [0.2, 1.5]`,
/// `h ∈ [0.2, 2]`) and a sphere (`r ∈ [0.05, 1]`) whose centre is placed in
/// every position class of Fig. 2 (inside, and outside at up to 1.5 r from
/// the surface).
pub fn random_sphere_boxes(seed: u64, n: usize) -> Vec<(Sphere, Cuboid)> {
    let mut rng = SplitMix64::new(seed);
    (0..n)
        .map(|_| {
            let rot = rng.rotation();
            let origin = Vec3::new(
                rng.uniform(-2.0, 2.0),
                rng.uniform(-2.0, 2.0),
                rng.uniform(-2.0, 2.0),
            );
            let (l, w, h) = (
                rng.uniform(0.2, 1.5),
                rng.uniform(0.2, 1.5),
                rng.uniform(0.2, 2.0),
            );
            let b = Cuboid::new(&matrix(&rot, &origin), l, w, h).unwrap();
            let r = rng.uniform(0.05, 1.0);
            // A local point in the box inflated by 1.5 r, so that faces,
            // edges, vertices and the inside all occur.
            let m = 1.5 * r;
            let local = Vec3::new(
                rng.uniform(-l - m, l + m),
                rng.uniform(-w - m, w + m),
                rng.uniform(-0.5 * h - m, 0.5 * h + m),
            );
            let centre = b.centre() + rot * local;
            (Sphere::at(centre, r).unwrap(), b)
        })
        .collect()
}

/// A random terrain of `n × n` samples with step `step`: smooth waves, one
/// flat plateau and one ramp along y (so rectangles, flat and tilted, occur
/// beside triangles).
///
/// # Panics
/// When `n < 2` or `step` is not positive and finite: no such grid exists.
pub fn random_terrain(seed: u64, n: usize, step: Real) -> HeightGrid {
    assert!(
        n >= 2 && step.is_finite() && step > 0.0,
        "random_terrain: needs n ≥ 2 samples (got {n}) and a positive, finite step (got {step})"
    );
    let mut rng = SplitMix64::new(seed);
    let (k1, k2, k3) = (
        rng.uniform(0.5, 2.0),
        rng.uniform(0.5, 2.0),
        rng.uniform(0.3, 1.0),
    );
    let (p1, p2) = (rng.uniform(0.0, 6.3), rng.uniform(0.0, 6.3));
    let amp = rng.uniform(0.1, 0.5);
    // Plateau and ramp boxes, in sample indices.
    let q = n / 4;
    let (pi, pj) = (
        rng.next_u64() as usize % (n - q),
        rng.next_u64() as usize % (n - q),
    );
    let (ri, rj) = (
        rng.next_u64() as usize % (n - q),
        rng.next_u64() as usize % (n - q),
    );
    let plateau = rng.uniform(-0.2, 0.2);
    let mut heights = Vec::with_capacity(n * n);
    for i in 0..n {
        for j in 0..n {
            let (x, y) = (j as Real * step, i as Real * step);
            let mut z =
                amp * (k1 * x + p1).sin() * (k2 * y + p2).cos() + 0.3 * amp * (k3 * (x + y)).sin();
            if (pi..=pi + q).contains(&i) && (pj..=pj + q).contains(&j) {
                z = plateau;
            } else if (ri..=ri + q).contains(&i) && (rj..=rj + q).contains(&j) {
                z = 0.05 * (i - ri) as Real;
            }
            heights.push(z);
        }
    }
    HeightGrid::new([0.0, 0.0], [step, step], n, n, heights).unwrap()
}

/// `n` random cylinders near the surface of `grid`: radius in `[0.1, 0.6]`,
/// height in `[0.2, 1.5]`; a quarter with a near-vertical axis, a quarter
/// near-horizontal, the rest uniform; the lowest point placed within
/// `±0.3 r` of the terrain height under the centre. Centres stay one metre
/// (or a quarter of the grid) inside the border.
pub fn random_cylinders(seed: u64, grid: &HeightGrid, n: usize) -> Vec<Cylinder> {
    let mut rng = SplitMix64::new(seed);
    let [x0, y0] = grid.origin();
    let [xm, ym] = grid.extent_max();
    let mx = (0.25 * (xm - x0)).min(1.0);
    let my = (0.25 * (ym - y0)).min(1.0);
    (0..n)
        .map(|k| {
            let r = rng.uniform(0.1, 0.6);
            let h = rng.uniform(0.2, 1.5);
            let axis = match k % 4 {
                0 => (Vec3::z() + 0.05 * rng.unit_vector()).normalize(),
                1 => {
                    let a = rng.uniform(0.0, std::f64::consts::TAU);
                    Vec3::new(a.cos(), a.sin(), rng.uniform(-0.05, 0.05)).normalize()
                }
                _ => rng.unit_vector(),
            };
            let (x, y) = (rng.uniform(x0 + mx, xm - mx), rng.uniform(y0 + my, ym - my));
            let ground = grid.surface_height(x, y).unwrap_or(0.0);
            let drop = 0.5 * h * axis.z.abs() + r * (1.0 - axis.z * axis.z).max(0.0).sqrt();
            let z = ground + drop + rng.uniform(-0.3 * r, 0.3 * r);
            Cylinder::new(Vec3::new(x, y, z), axis, r, h).unwrap()
        })
        .collect()
}

/// A named scripted scene.
#[derive(Debug, Clone)]
pub struct Scene {
    /// Short name (file names, table rows).
    pub name: &'static str,
    /// What it shows.
    pub description: &'static str,
    /// The cylinder.
    pub cylinder: Cylinder,
}

/// Barrel radius and height of the scenes (a 200 l drum).
pub const BARREL: (Real, Real) = (0.29, 0.88);

/// Asphalt with a curb, after Fig. 9: 4 m × 2.5 m, 5 cm step; flat asphalt
/// at `z = 0` for `y ≤ 1.5`, the curb's face rising to 0.15 m over
/// `1.5 ≤ y ≤ 1.6` (a row of tilted rectangles), flat curb top beyond.
pub fn asphalt_with_curb() -> HeightGrid {
    HeightGrid::from_fn([0.0, 0.0], [0.05, 0.05], 51, 81, |_, y| {
        if y <= 1.5 + 1e-9 {
            0.0
        } else if y >= 1.6 - 1e-9 {
            0.15
        } else {
            0.15 * ((y - 1.5) / 0.1)
        }
    })
    .unwrap()
}

/// The barrel scenes on [`asphalt_with_curb`], each sunk 5 mm.
pub fn barrel_scenes() -> Vec<Scene> {
    let (r, h) = BARREL;
    let sink = 0.005;
    let tilt = 20.0_f64.to_radians();
    let tilted_axis = Vec3::new(tilt.sin(), 0.0, tilt.cos());
    let tilted_drop = 0.5 * h * tilt.cos() + r * tilt.sin();
    // Lying against the curb: the circle (y, z) of radius r resting on the
    // asphalt touches the curb's top edge (y = 1.6, z = 0.15) when
    // (1.6 − y)² + (r − 0.15)² = r².
    let y_curb = 1.6 - (r * r - (r - 0.15) * (r - 0.15)).sqrt();
    vec![
        Scene {
            name: "standing",
            description: "barrel standing on asphalt (base contact, flat patch)",
            cylinder: Cylinder::new(Vec3::new(0.8, 0.6, 0.5 * h - sink), Vec3::z(), r, h).unwrap(),
        },
        Scene {
            name: "lying",
            description: "barrel lying on asphalt (lateral contact)",
            cylinder: Cylinder::new(Vec3::new(2.0, 0.5, r - sink), Vec3::x(), r, h).unwrap(),
        },
        Scene {
            name: "tilted",
            description: "barrel tilted 20° on its rim (one-point contact)",
            cylinder: Cylinder::new(Vec3::new(3.3, 0.6, tilted_drop - sink), tilted_axis, r, h)
                .unwrap(),
        },
        Scene {
            name: "curb",
            description: "barrel lying against the curb (asphalt and curb edge)",
            cylinder: Cylinder::new(Vec3::new(2.0, y_curb + sink, r - sink), Vec3::x(), r, h)
                .unwrap(),
        },
    ]
}

/// A sand hill on flat ground, after Fig. 10: 6 m × 2 m, 5 cm step, a
/// Gaussian bump 0.35 m high at `(3, 1)`.
pub fn hill() -> HeightGrid {
    HeightGrid::from_fn([0.0, 0.0], [0.05, 0.05], 41, 121, |x, y| {
        0.35 * (-((x - 3.0).powi(2) + 0.5 * (y - 1.0).powi(2)) / 0.5).exp()
    })
    .unwrap()
}

/// Wheel radius and width of the hill scene.
pub const WHEEL: (Real, Real) = (0.3, 0.22);

/// `n` poses of a wheel (axis along y) rolling along `y = 1` over
/// [`hill`], each resting on the terrain and sunk 1 cm. The resting height
/// is found by sampling the terrain under the wheel.
///
/// # Panics
/// When `grid` has no height anywhere under some pose: the wheel's path
/// spans `0.3 ≤ x ≤ 5.7` along `y = 1`, which [`hill`] covers.
pub fn wheel_path(grid: &HeightGrid, n: usize) -> Vec<Cylinder> {
    let (r, w) = WHEEL;
    (0..n)
        .map(|k| {
            let x = 0.6 + 4.8 * k as Real / (n.max(2) - 1) as Real;
            let mut rest = Real::NEG_INFINITY;
            for a in 0..=200 {
                let xs = x - r + 2.0 * r * a as Real / 200.0;
                let lift = (r * r - (xs - x) * (xs - x)).max(0.0).sqrt();
                for b in 0..=4 {
                    let ys = 1.0 - 0.5 * w + w * b as Real / 4.0;
                    if let Some(hg) = grid.surface_height(xs, ys) {
                        rest = rest.max(hg + lift);
                    }
                }
            }
            assert!(
                rest.is_finite(),
                "wheel_path: the grid has no height under the wheel at x = {x}, y = 1"
            );
            Cylinder::new(Vec3::new(x, 1.0, rest - 0.01), Vec3::y(), r, w).unwrap()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_are_reproducible() {
        let a = random_sphere_pairs(7, 5);
        let b = random_sphere_pairs(7, 5);
        assert_eq!(a, b);
        let g = random_terrain(3, 17, 0.25);
        assert_eq!(g, random_terrain(3, 17, 0.25));
        assert_eq!(random_cylinders(9, &g, 10), random_cylinders(9, &g, 10));
    }
}
