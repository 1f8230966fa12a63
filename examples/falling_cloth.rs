//! A simulation loop with ccdlab as its collision detection, in memory: a
//! tilted sheet of independent particles (a cloth without springs) falls
//! under gravity onto a fixed floor, and every frame's motion is cut short
//! by continuous collision detection so that no feature ever comes within
//! a gap `d` of another.
//!
//! Each frame proposes the explicit step `x₁ = x₀ + v·dt` and runs one step
//! of a kept [`Pipeline`] (its BVH refitted frame to frame) with
//! `min_distance = d`: the sheet is one body that collides with itself, the
//! floor an obstacle body. With no contact (`toi = None`) the whole step is
//! taken; otherwise the particles move to `0.8·toi` of it, as an IPC line
//! search does, and the particle of each earliest vertex–face pair (whose
//! bracket reaches the step's earliest time) comes to rest there for good:
//! a sticky contact, the simplest response that leaves no particle stepping
//! ever closer to the floor in ever smaller steps. (The floor's edges lie in
//! its plane: an edge of the sheet comes within the gap of one no sooner
//! than its lower end comes within the gap of the floor, a vertex–face
//! pair.) The sheet lands particle by particle, each less than a fifth of
//! a frame's fall above the gap.
//!
//! `cargo run --release --example falling_cloth` prints a line per frame
//! with contact; `cargo test --example falling_cloth` checks the outcome
//! (every particle landed, and no two features within the gap at the end).

use ccdlab::math::Vec3;
use ccdlab::mesh::{Step, TriMesh};
use ccdlab::pipeline::{Bodies, BodyLabels, Pipeline, PipelineConfig, PipelineError, proximity};

/// Particles per side of the sheet.
const SIDE: usize = 12;
/// The gap kept between any two features (the minimum separation).
const GAP: f64 = 1e-3;
/// Frame length, seconds.
const DT: f64 = 1.0 / 60.0;
/// Gravity, metres per second squared, along `-z`.
const G: f64 = 9.81;

/// The sheet (`SIDE × SIDE` particles over `[-0.5, 0.5]²`, tilted along
/// `x` from 0.1 up to 0.4 above the floor) and the floor (the square
/// `[-1, 1]²` at `z = 0`, its last four vertices): the mesh and positions.
fn scene() -> (TriMesh, Vec<Vec3>, Vec<u32>) {
    let mut x = Vec::new();
    for j in 0..SIDE {
        for i in 0..SIDE {
            let (u, v) = (i as f64 / (SIDE - 1) as f64, j as f64 / (SIDE - 1) as f64);
            x.push(Vec3::new(u - 0.5, v - 0.5, 0.1 + 0.3 * u));
        }
    }
    let at = |i: usize, j: usize| (j * SIDE + i) as u32;
    let mut faces = Vec::new();
    for j in 0..SIDE - 1 {
        for i in 0..SIDE - 1 {
            faces.push([at(i, j), at(i + 1, j), at(i + 1, j + 1)]);
            faces.push([at(i, j), at(i + 1, j + 1), at(i, j + 1)]);
        }
    }
    let f = x.len() as u32;
    x.extend(
        [[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]].map(|[a, b]| Vec3::new(a, b, 0.0)),
    );
    faces.extend([[f, f + 1, f + 2], [f, f + 2, f + 3]]);
    let body = (0..x.len()).map(|v| u32::from(v >= SIDE * SIDE)).collect();
    let mesh = TriMesh::new(x.len(), faces).expect("a valid mesh");
    (mesh, x, body)
}

/// What a run ends with.
struct Outcome {
    mesh: TriMesh,
    x: Vec<Vec3>,
    /// Frames whose step was cut short by a contact.
    frames_with_contact: usize,
}

/// Runs `frames` frames; `report` is called for each frame with contact
/// with the frame's index, its time of impact and its colliding pairs.
fn simulate(
    frames: usize,
    mut report: impl FnMut(usize, f64, usize),
) -> Result<Outcome, PipelineError> {
    let (mesh, mut x, body) = scene();
    let sheet = SIDE * SIDE;
    let bodies = BodyLabels::new(body, vec![true, false])?;
    let mut pipeline = Pipeline::new(PipelineConfig {
        min_distance: GAP,
        bodies: Some(Bodies::Labels(bodies)),
        collect_pairs: true,
        ..PipelineConfig::default()
    });
    let mut v = vec![Vec3::zeros(); x.len()];
    let mut resting: Vec<bool> = (0..x.len()).map(|p| p >= sheet).collect();
    let mut frames_with_contact = 0;
    for frame in 0..frames {
        for (vel, &rests) in v.iter_mut().zip(&resting) {
            if !rests {
                vel.z -= G * DT;
            }
        }
        let x1: Vec<Vec3> = x.iter().zip(&v).map(|(p, vel)| p + vel * DT).collect();
        let outcome = pipeline.step(&Step::new(&mesh, &x, &x1)?)?;
        let Some(toi) = outcome.report.toi else {
            x = x1;
            continue;
        };
        frames_with_contact += 1;
        report(frame, toi, outcome.pairs.len());
        let alpha = 0.8 * toi;
        x = x
            .iter()
            .zip(&x1)
            .map(|(p0, p1)| p0 + (p1 - p0) * alpha)
            .collect();
        let toi_upper = outcome.report.toi_upper.unwrap_or(toi);
        for pair in outcome.pairs.iter().filter(|p| p.toi_lower <= toi_upper) {
            if let Some((p, _)) = pair.vertex_face(&mesh) {
                v[p as usize] = Vec3::zeros();
                resting[p as usize] = true;
            }
        }
    }
    Ok(Outcome {
        mesh,
        x,
        frames_with_contact,
    })
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let outcome = simulate(120, |frame, toi, pairs| {
        println!("frame {frame:3}: contact at toi {toi:.4}, {pairs} pairs within the gap");
    })?;
    let sheet = &outcome.x[..SIDE * SIDE];
    let highest = sheet.iter().map(|p| p.z).fold(f64::MIN, f64::max);
    println!(
        "{} frames with contact; the sheet's highest particle is {highest:.2e} above the floor",
        outcome.frames_with_contact
    );
    let near = proximity(&outcome.mesh, &outcome.x, GAP)?;
    println!("{} pairs within the gap at the end", near.count());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ccdlab::pipeline::intersections;

    /// Every particle lands (within ten gaps of the floor, from 0.1–0.4
    /// above it), none comes within the gap of the floor, and at the end no
    /// two features touch or are within half the gap of each other.
    #[test]
    fn the_sheet_lands_and_keeps_its_gap() {
        let mut first_contact = None;
        let outcome = simulate(120, |frame, toi, _| {
            assert!((0.0..1.0).contains(&toi), "frame {frame}: {toi}");
            first_contact.get_or_insert(frame);
        })
        .unwrap();
        assert!(first_contact.is_some_and(|f| f > 0));
        let sheet = &outcome.x[..SIDE * SIDE];
        assert!(sheet.iter().all(|p| p.z > GAP && p.z < 10.0 * GAP));
        assert!(intersections(&outcome.mesh, &outcome.x).unwrap().is_empty());
        assert_eq!(
            proximity(&outcome.mesh, &outcome.x, GAP / 2.0)
                .unwrap()
                .count(),
            0
        );
    }
}
