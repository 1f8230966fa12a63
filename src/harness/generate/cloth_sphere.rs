//! The generated scene: a square cloth falls onto a spinning sphere, drapes
//! over it and folds through itself. It stands in for the data sets'
//! cloth-ball scene (a cloth dropped on a rotating ball) where those are not
//! available, and gives whole sequences where the data sets hold only two
//! frames per scene.
//!
//! **Mesh.** One triangle mesh of two connected components: vertices
//! `0 .. n²` are the cloth, a regular `n × n` grid in row-major order
//! (row `i` along +z, column `j` along +x), each grid square split along
//! alternating diagonals; the remaining vertices are the sphere, an
//! icosphere ([`super::icosphere()`]). Cloth faces come first, and both are
//! wound outward (cloth normal +y at frame 0).
//!
//! **Motion.** The cloth is simulated by position-based dynamics
//! ([`super::pbd`]): stretch and shear constraints on every grid edge and
//! diagonal, soft bending constraints between vertices two apart along the
//! rows and columns, gravity, air drag, and contact with an analytic
//! collision sphere of radius 0.5 m with friction, spinning about a tilted
//! axis. The sheet is released flat, at rest, just above the sphere; the
//! first [`SceneParams::warmup_frames`] are simulated but not written, so
//! that the sequence starts as the sheet drapes. **Cloth self-collision is not resolved**, so the sheet folds
//! through itself as it drapes: most steps contain true cloth–cloth
//! collisions, which is what a CCD benchmark needs. The sphere mesh moves
//! rigidly with the collision sphere; its vertices lie slightly outside the
//! collision sphere and its face planes slightly inside (the radius is
//! chosen between the two), so that the spinning facets sweep through the
//! cloth resting on the collision sphere: cloth–sphere collisions in every
//! step with contact. With a [`SceneParams::gap`] `G`, the cloth collides
//! with the collision sphere grown by `G` instead, while the sphere mesh
//! keeps its size: the cloth rests about `G` above the mesh (less the
//! vertices' reach beyond the collision sphere and the cloth triangles'
//! sag between their vertices), and cloth–sphere pairs appear only at a
//! minimum separation above that distance.
//!
//! **Determinism.** Sequential `f64` loops in a fixed order, rotations from
//! [`super::rotation`] (no libm transcendental functions), and a fixed-seed
//! xorshift jitter of the initial cloth heights (which breaks the flat
//! sheet's exact coplanarity and the symmetry of the drop): the frames are
//! identical bit for bit on every machine and for any thread count.

use super::icosphere::icosphere;
use super::pbd::{Cloth, DistanceConstraint, SphereCollider};
use super::rotation::Rotation;
use super::scene_params::{GenerateError, SceneParams};
use crate::harness::sequence::FrameSequence;
use crate::math::Vec3;
use crate::mesh::TriMesh;

/// Radius of the collision sphere, m.
pub const SPHERE_RADIUS: f64 = 0.5;
/// Centre of the sphere, m (y is up).
const SPHERE_CENTER: [f64; 3] = [0.0, 1.0, 0.0];
/// Side of the square cloth, m.
pub const CLOTH_SIDE: f64 = 2.0;
/// Height of the cloth above the top of its collider (the collision sphere
/// grown by [`SceneParams::gap`]) at start, m.
const CLOTH_GAP: f64 = 0.02;
/// Horizontal offset of the cloth's centre from the sphere's axis, m
/// (breaks the symmetry of the drop).
const CLOTH_OFFSET: [f64; 2] = [0.06, -0.04];
/// Amplitude of the initial height jitter, as a share of the grid spacing.
const JITTER: f64 = 1e-3;
/// Spin axis of the sphere (normalised at use): tilted from +y.
const SPIN_AXIS: [f64; 3] = [0.3, 1.0, 0.1];
/// Distance from the sphere's centre beyond which the simulation is taken
/// to have diverged, m (the sheet is 2 m across; a free fall of 14 s).
const DIVERGED: f64 = 1000.0;
/// Gravity, m/s².
const GRAVITY: [f64; 3] = [0.0, -9.81, 0.0];
/// Linear air drag, 1/s.
const DRAG: f64 = 0.2;
/// XPBD compliance of stretch/shear constraints (inextensible; the
/// iteration count alone softens them).
const STRETCH_COMPLIANCE: f64 = 0.0;
/// XPBD compliance of the bending constraints per squared grid spacing:
/// `α = BEND_COMPLIANCE_SCALE · spacing²`. Scaling with the spacing makes
/// coarse and fine sheets fold alike (an empirical choice:
/// docs/notes/generator.md).
const BEND_COMPLIANCE_SCALE: f64 = 1.2;

/// The state of a generated scene, frame by frame: construct it with
/// [`ClothSphere::new`] and call [`ClothSphere::next_frame`] until it
/// returns `None` (frame 0 is the state after
/// [`SceneParams::warmup_frames`]). Streams the frames; [`generate`]
/// collects them.
#[derive(Debug, Clone)]
pub struct ClothSphere {
    params: SceneParams,
    mesh: TriMesh,
    cloth: Cloth,
    cloth_vertices: usize,
    sphere_rest: Vec<Vec3>,
    collider: SphereCollider,
    orientation: Rotation,
    substep_rotation: Rotation,
    next: usize,
    positions: Vec<Vec3>,
}

impl ClothSphere {
    /// The scene at frame 0; refuses parameters out of range.
    pub fn new(params: &SceneParams) -> Result<ClothSphere, GenerateError> {
        params.validate()?;
        let n = params.resolution;
        let h = params.frame_dt / params.substeps as f64;

        // Sphere mesh: vertices at R_m, face planes at most R_m·ρ from the
        // centre (ρ < 1 the farthest face plane of the unit icosphere);
        // R_m = 2R/(1 + ρ) puts R strictly between R_m·ρ and R_m.
        let (unit, sphere_faces) = icosphere(params.sphere_subdivisions);
        let rho = sphere_faces
            .iter()
            .map(|t| {
                let [a, b, c] = t.map(|i| unit[i as usize]);
                let normal = (b - a).cross(&(c - a));
                normal.dot(&a) / normal.norm()
            })
            .fold(0.0, f64::max);
        let mesh_radius = 2.0 * SPHERE_RADIUS / (1.0 + rho);
        let sphere_rest: Vec<Vec3> = unit.iter().map(|p| p * mesh_radius).collect();

        let center = Vec3::from(SPHERE_CENTER);
        let axis = Vec3::from(SPIN_AXIS).normalize();
        // The cloth's collider is the collision sphere grown by the gap; the
        // sphere mesh above keeps its size (R + 0 is R: a zero gap changes
        // no bit of the scene).
        let collider = SphereCollider {
            center,
            radius: SPHERE_RADIUS + params.gap,
            omega: axis * params.spin,
            friction: params.friction,
        };

        // Cloth grid.
        let spacing = CLOTH_SIDE / (n - 1) as f64;
        let top = center.y + collider.radius + CLOTH_GAP;
        let mut rng = XorShift64::new(params.seed);
        let mut x = Vec::with_capacity(n * n);
        for i in 0..n {
            for j in 0..n {
                x.push(Vec3::new(
                    CLOTH_OFFSET[0] - CLOTH_SIDE / 2.0 + j as f64 * spacing,
                    top + (rng.next_unit() - 0.5) * JITTER * spacing,
                    CLOTH_OFFSET[1] - CLOTH_SIDE / 2.0 + i as f64 * spacing,
                ));
            }
        }
        let cloth_faces = grid_faces(n);
        let constraints = grid_constraints(n, spacing);
        let cloth_vertices = n * n;

        let mut faces = cloth_faces;
        let offset = cloth_vertices as u32;
        faces.extend(sphere_faces.iter().map(|t| t.map(|i| i + offset)));
        let mesh = TriMesh::new(cloth_vertices + sphere_rest.len(), faces)
            .map_err(|e| GenerateError::Internal(e.to_string()))?;

        Ok(ClothSphere {
            params: params.clone(),
            mesh,
            cloth: Cloth::new(x, constraints),
            cloth_vertices,
            sphere_rest,
            collider,
            orientation: Rotation::identity(),
            substep_rotation: Rotation::about(axis, params.spin * h),
            next: 0,
            positions: Vec::new(),
        })
    }

    /// The parameters.
    pub fn params(&self) -> &SceneParams {
        &self.params
    }

    /// The fixed topology (cloth, then sphere).
    pub fn mesh(&self) -> &TriMesh {
        &self.mesh
    }

    /// Number of cloth vertices (`resolution²`, the first ones); the rest
    /// are the sphere's.
    pub fn cloth_vertices(&self) -> usize {
        self.cloth_vertices
    }

    /// The positions of the next frame (frame 0 first), or `None` after the
    /// last one.
    pub fn next_frame(&mut self) -> Result<Option<&[Vec3]>, GenerateError> {
        if self.next == self.params.frames {
            return Ok(None);
        }
        // Frame 0 comes after the warm-up frames; each later one, one frame
        // of substeps after the previous.
        let frames = if self.next == 0 {
            self.params.warmup_frames
        } else {
            1
        };
        let h = self.params.frame_dt / self.params.substeps as f64;
        let gravity = Vec3::from(GRAVITY);
        for _ in 0..frames * self.params.substeps {
            self.cloth.substep(h, gravity, DRAG, &self.collider);
            self.orientation = self.substep_rotation.then_after(self.orientation);
        }
        // A blown-up solver is refused rather than written: no cloth vertex
        // may leave the ball of radius DIVERGED around the sphere.
        let cloth = self.cloth.positions();
        let c = self.collider.center;
        if cloth
            .iter()
            .any(|p| !crate::math::is_finite(p) || (p - c).norm() > DIVERGED)
        {
            return Err(GenerateError::Diverged { frame: self.next });
        }
        self.positions.clear();
        self.positions.extend_from_slice(cloth);
        self.positions.extend(
            self.sphere_rest
                .iter()
                .map(|&p| c + self.orientation.apply(p)),
        );
        self.next += 1;
        Ok(Some(&self.positions))
    }
}

/// Generates the whole scene in memory, as a sequence named
/// [`SceneParams::name`].
pub fn generate(params: &SceneParams) -> Result<FrameSequence, GenerateError> {
    params.validate_in_memory()?;
    let mut scene = ClothSphere::new(params)?;
    let mut frames = Vec::with_capacity(params.frames);
    while let Some(x) = scene.next_frame()? {
        frames.push(x.to_vec());
    }
    FrameSequence::from_memory(params.name(), scene.mesh, frames)
        .map_err(|e| GenerateError::Internal(e.to_string()))
}

/// Triangles of the `n × n` grid, each square split along alternating
/// diagonals, wound with normal +y.
fn grid_faces(n: usize) -> Vec<[u32; 3]> {
    let mut faces = Vec::with_capacity(2 * (n - 1) * (n - 1));
    for i in 0..n - 1 {
        for j in 0..n - 1 {
            let a = (i * n + j) as u32;
            let (b, c) = (a + 1, a + n as u32);
            let d = c + 1;
            if (i + j).is_multiple_of(2) {
                faces.extend([[a, c, b], [b, c, d]]);
            } else {
                faces.extend([[a, c, d], [a, d, b]]);
            }
        }
    }
    faces
}

/// Stretch (grid edges), shear (the faces' diagonals) and bending (two
/// apart along rows and columns) constraints.
///
/// They are listed in colour groups: within a group no two constraints
/// share a particle (horizontal edges by column parity, vertical ones by
/// row parity, diagonals by both, bending pairs by `⌊j/2⌋` or `⌊i/2⌋`
/// parity), row-major inside a group. The sweep is still Gauss–Seidel, in
/// this fixed order, but consecutive projections no longer wait on each
/// other's result (docs/notes/generator.md).
fn grid_constraints(n: usize, spacing: f64) -> Vec<DistanceConstraint> {
    let idx = |i: usize, j: usize| (i * n + j) as u32;
    let diagonal = spacing * std::f64::consts::SQRT_2;
    let bend = BEND_COMPLIANCE_SCALE * spacing * spacing;
    // Constraint `kind` at grid point (i, j), if any: its colour and
    // (a, b, rest, compliance).
    let at = |kind: usize, i: usize, j: usize| -> Option<(usize, [u32; 2], f64, f64)> {
        match kind {
            0 if j + 1 < n => Some((
                j % 2,
                [idx(i, j), idx(i, j + 1)],
                spacing,
                STRETCH_COMPLIANCE,
            )),
            1 if i + 1 < n => Some((
                i % 2,
                [idx(i, j), idx(i + 1, j)],
                spacing,
                STRETCH_COMPLIANCE,
            )),
            // The diagonal of `grid_faces`' split of square (i, j).
            2 if i + 1 < n && j + 1 < n => Some((
                2 * (i % 2) + j % 2,
                if (i + j).is_multiple_of(2) {
                    [idx(i, j + 1), idx(i + 1, j)]
                } else {
                    [idx(i, j), idx(i + 1, j + 1)]
                },
                diagonal,
                STRETCH_COMPLIANCE,
            )),
            3 if j + 2 < n => Some(((j / 2) % 2, [idx(i, j), idx(i, j + 2)], 2.0 * spacing, bend)),
            4 if i + 2 < n => Some(((i / 2) % 2, [idx(i, j), idx(i + 2, j)], 2.0 * spacing, bend)),
            _ => None,
        }
    };
    let mut out = Vec::with_capacity(5 * n * n);
    for (kind, colours) in [(0, 2), (1, 2), (2, 4), (3, 2), (4, 2)] {
        for colour in 0..colours {
            for i in 0..n {
                for j in 0..n {
                    if let Some((c, [a, b], rest, compliance)) = at(kind, i, j)
                        && c == colour
                    {
                        out.push(DistanceConstraint {
                            i: a,
                            j: b,
                            rest,
                            compliance,
                        });
                    }
                }
            }
        }
    }
    out
}

/// Marsaglia's xorshift64 ("Xorshift RNGs", J. Stat. Softw. 8(14), 2003,
/// the 13/7/17 triple), seeded through one SplitMix64 step so that any
/// seed (0 included) gives a non-zero state.
#[derive(Debug, Clone)]
struct XorShift64(u64);

impl XorShift64 {
    fn new(seed: u64) -> XorShift64 {
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        XorShift64(if z == 0 { 1 } else { z })
    }

    /// Uniform in `[0, 1)`, 53 random bits.
    fn next_unit(&mut self) -> f64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        (x >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(params: &SceneParams) -> Vec<Vec<Vec3>> {
        let mut scene = ClothSphere::new(params).unwrap();
        let mut out = Vec::new();
        while let Some(x) = scene.next_frame().unwrap() {
            out.push(x.to_vec());
        }
        out
    }

    fn bits(frames: &[Vec<Vec3>]) -> Vec<[u64; 3]> {
        frames
            .iter()
            .flatten()
            .map(|p| [p.x.to_bits(), p.y.to_bits(), p.z.to_bits()])
            .collect()
    }

    #[test]
    fn two_runs_are_identical_bit_for_bit() {
        let p = SceneParams::with_size(12, 6);
        let (a, b) = (frames(&p), frames(&p));
        assert_eq!(a.len(), 6);
        assert_eq!(bits(&a), bits(&b));
        // Another seed moves the jitter, and so every frame.
        let c = frames(&SceneParams { seed: 7, ..p });
        assert_ne!(bits(&a[..1]), bits(&c[..1]));
    }

    #[test]
    fn mesh_layout_and_sphere_radii() {
        let p = SceneParams::with_size(5, 2);
        let scene = ClothSphere::new(&p).unwrap();
        let mesh = scene.mesh();
        assert_eq!(scene.cloth_vertices(), 25);
        assert_eq!(mesh.num_vertices(), 25 + 642);
        assert_eq!(mesh.num_faces(), 2 * 16 + 1280);
        assert_eq!(mesh.num_components(), 2);
        let comp = mesh.component();
        assert!(comp[..25].iter().all(|&c| c == comp[0]));
        assert!(comp[25..].iter().all(|&c| c == comp[25]));
        assert_ne!(comp[0], comp[25]);
        // Sphere vertices outside the collision sphere, face planes inside.
        let center = Vec3::from(SPHERE_CENTER);
        let x: Vec<Vec3> = frames(&p)[1].clone();
        for t in &mesh.faces()[32..] {
            let [a, b, c] = t.map(|i| x[i as usize] - center);
            assert!(a.norm() > SPHERE_RADIUS);
            let normal = (b - a).cross(&(c - a)).normalize();
            let plane = normal.dot(&a);
            assert!(plane > 0.0 && plane < SPHERE_RADIUS, "{plane}");
        }
    }

    #[test]
    fn the_cloth_falls_and_the_sphere_turns_rigidly() {
        let p = SceneParams {
            warmup_frames: 0,
            ..SceneParams::with_size(8, 4)
        };
        let f = frames(&p);
        let nc = 64;
        let mean_y = |x: &[Vec3]| x[..nc].iter().map(|p| p.y).sum::<f64>() / nc as f64;
        assert!(mean_y(&f[3]) < mean_y(&f[0]));
        // Sphere: distances between its vertices are kept.
        let d = |x: &[Vec3], a: usize, b: usize| (x[nc + a] - x[nc + b]).norm();
        for (a, b) in [(0, 1), (3, 7), (100, 400)] {
            assert!((d(&f[0], a, b) - d(&f[3], a, b)).abs() < 1e-12);
        }
        assert_ne!(f[0][nc], f[3][nc], "the sphere spins");
    }

    #[test]
    fn constraint_groups_share_no_particle() {
        let n = 9;
        let cs = grid_constraints(n, 0.25);
        // 2(n−1)n stretch + (n−1)² shear + 2(n−2)n bending.
        assert_eq!(
            cs.len(),
            2 * (n - 1) * n + (n - 1) * (n - 1) + 2 * (n - 2) * n
        );
        // Split into maximal runs without a shared particle: 12 groups.
        let mut groups = 1;
        let mut seen = std::collections::BTreeSet::new();
        for c in &cs {
            if seen.contains(&c.i) || seen.contains(&c.j) {
                groups += 1;
                seen.clear();
            }
            seen.insert(c.i);
            seen.insert(c.j);
        }
        assert_eq!(groups, 12);
        // Every face edge is constrained at its rest length.
        let mesh = TriMesh::new(n * n, grid_faces(n)).unwrap();
        let pairs: std::collections::BTreeSet<[u32; 2]> =
            cs.iter().map(|c| [c.i.min(c.j), c.i.max(c.j)]).collect();
        for e in mesh.edges() {
            assert!(pairs.contains(e), "{e:?}");
        }
    }

    #[test]
    fn xorshift_is_fixed() {
        let mut r = XorShift64::new(0);
        let a: Vec<f64> = (0..3).map(|_| r.next_unit()).collect();
        let mut r = XorShift64::new(0);
        let b: Vec<f64> = (0..3).map(|_| r.next_unit()).collect();
        assert_eq!(a, b);
        assert!(a.iter().all(|u| (0.0..1.0).contains(u)));
        assert_ne!(a[0], a[1]);
    }
}
