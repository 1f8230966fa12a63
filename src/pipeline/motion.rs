//! How far a step's vertices move against the size of its features: the
//! choice of [`TimeAligned::Auto`](super::TimeAligned::Auto). Not from the
//! paper (Wan, Fu & Yao 2022 build every BVH of swept k-DOPs); a cost
//! model's input, never a verdict on a pair (docs/design.md §6,
//! "Time-aligned pruning").
//!
//! **Why the ratio decides.** Time-aligned pruning drops a leaf or feature
//! pair whose swept k-DOPs overlap but whose k-DOPs at `t = 0` and at
//! `t = 1` one slab separates ([`crate::broad_phase::KdopBvh::time_aligned`]).
//! A swept k-DOP exceeds the union of its two images by about the
//! distance its feature travels, so the pairs it can drop are those whose
//! features pass within about that distance of each other: when the
//! vertices move a small fraction of an edge, the swept k-DOPs are their
//! images, nearly nothing is dropped, and the images cost their refit and
//! their tests for nothing. The ratio
//!
//! `ρ = mean ‖x_t1 − x_t0‖ over the vertices / mean ‖b − a‖ over the edges at t = 0`
//!
//! is scale-free, and each mean is taken over at most [`SAMPLES`] evenly
//! spaced vertices or edges (fixed by the mesh's counts, so the choice is
//! the same for any thread count).
//!
//! **Threshold.** [`AUTO_MIN_MOTION`], between the data sets' steps
//! (cloth-funnel 227→228: `ρ` = 0.18; cloth-ball 92→93: 1.41; the
//! generated scene's steps about 3.3–6.4) and near where pruning starts to
//! pay, measured on cloth-ball 92→93 with its motion scaled down
//! (docs/notes/pipeline.md; `reports/time_aligned`).

use crate::mesh::Step;

/// The least motion ratio `ρ` ([`motion_ratio`]) at which
/// [`TimeAligned::Auto`](super::TimeAligned::Auto) prunes: between the data
/// sets' steps (cloth-funnel 227→228 moves `ρ = 0.18`, cloth-ball 92→93
/// `ρ = 1.41`), near where pruning starts to pay (docs/notes/pipeline.md).
pub const AUTO_MIN_MOTION: f64 = 0.5;

/// The most vertices, and the most edges, the ratio reads: a build pays for
/// at most `2 × 1024` distances; more samples move the ratios by only a
/// few percent.
pub const SAMPLES: usize = 1024;

/// The motion ratio `ρ` of `step`: the mean distance a vertex moves,
/// `‖x_t1 − x_t0‖`, over the mean edge length at `t = 0`, each mean over at
/// most 1024 evenly spaced vertices or edges (so the same for any
/// thread count). Scale-free; time-aligned pruning pays when vertices move
/// far against their edges ([`AUTO_MIN_MOTION`]). `+∞` when the sampled
/// vertices move but the sampled edges have no length (or there are no
/// edges), `0` when nothing moves.
pub fn motion_ratio(step: &Step<'_>) -> f64 {
    let stride = |n: usize| n.div_ceil(SAMPLES).max(1);
    let (x_t0, x_t1) = (step.x_t0, step.x_t1);
    let (mut moved, mut vertices) = (0.0, 0usize);
    for i in (0..x_t0.len()).step_by(stride(x_t0.len())) {
        moved += (x_t1[i] - x_t0[i]).norm();
        vertices += 1;
    }
    let edges = step.mesh.edges();
    let (mut length, mut sampled) = (0.0, 0usize);
    for &[a, b] in edges.iter().step_by(stride(edges.len())) {
        length += (x_t0[b as usize] - x_t0[a as usize]).norm();
        sampled += 1;
    }
    if moved == 0.0 {
        return 0.0;
    }
    let moved = moved / vertices as f64;
    if length == 0.0 {
        return f64::INFINITY;
    }
    moved / (length / sampled as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec3;
    use crate::mesh::TriMesh;

    /// A strip of `n` unit right triangles along x.
    fn strip(n: u32) -> (TriMesh, Vec<Vec3>) {
        let x: Vec<Vec3> = (0..=n)
            .flat_map(|i| [Vec3::new(i as f64, 0.0, 0.0), Vec3::new(i as f64, 1.0, 0.0)])
            .collect();
        let faces = (0..n)
            .flat_map(|i| {
                [
                    [2 * i, 2 * i + 2, 2 * i + 1],
                    [2 * i + 1, 2 * i + 2, 2 * i + 3],
                ]
            })
            .collect();
        (TriMesh::new(x.len(), faces).unwrap(), x)
    }

    #[test]
    fn the_ratio_is_the_mean_motion_over_the_mean_edge() {
        let (mesh, x0) = strip(3);
        let mean_edge = mesh
            .edges()
            .iter()
            .map(|&[a, b]| (x0[b as usize] - x0[a as usize]).norm())
            .sum::<f64>()
            / mesh.num_edges() as f64;
        let x1: Vec<Vec3> = x0.iter().map(|p| p + Vec3::new(0.0, 0.0, 0.25)).collect();
        let step = Step::new(&mesh, &x0, &x1).unwrap();
        assert!((motion_ratio(&step) - 0.25 / mean_edge).abs() < 1e-12);
        // Scale-free: the same step ten times larger.
        let (y0, y1): (Vec<Vec3>, Vec<Vec3>) = x0
            .iter()
            .zip(&x1)
            .map(|(a, b)| (a * 10.0, b * 10.0))
            .unzip();
        let big = Step::new(&mesh, &y0, &y1).unwrap();
        assert!((motion_ratio(&big) - motion_ratio(&step)).abs() < 1e-12);
    }

    #[test]
    fn a_still_step_has_ratio_zero_and_a_pointlike_moving_one_infinity() {
        let (mesh, x0) = strip(2);
        let still = Step::new(&mesh, &x0, &x0).unwrap();
        assert_eq!(motion_ratio(&still), 0.0);
        let p0 = vec![Vec3::zeros(); x0.len()];
        let p1 = vec![Vec3::new(1.0, 0.0, 0.0); x0.len()];
        let collapsed = Step::new(&mesh, &p0, &p1).unwrap();
        assert_eq!(motion_ratio(&collapsed), f64::INFINITY);
    }

    #[test]
    fn large_meshes_are_sampled_evenly() {
        let (mesh, x0) = strip(5000);
        assert!(mesh.num_vertices() > SAMPLES && mesh.num_edges() > SAMPLES);
        // Every vertex moves by the same amount, so any sample gives it.
        let x1: Vec<Vec3> = x0.iter().map(|p| p + Vec3::new(0.0, 0.5, 0.0)).collect();
        let step = Step::new(&mesh, &x0, &x1).unwrap();
        let r = motion_ratio(&step);
        // Edges are 1 or √2 long: the sampled mean lies between (evenly
        // spaced samples of this regular strip may all be one kind).
        assert!((0.5 / 2f64.sqrt()..=0.5).contains(&r), "{r}");
    }
}
