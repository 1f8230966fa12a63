//! # ccdlab
//!
//! Continuous collision detection (CCD) of deforming triangle meshes, built to
//! reproduce, compare and extend CCD culling and exact-test methods, and to be
//! used as a CCD library.
//!
//! The core pipeline follows Wan, Fu & Yao, "Continuous collision detection
//! algorithm based on spatial linear projection", *Intelligent Computer and
//! Applications* 12(2), 2022:
//!
//! ```text
//! mesh ─▶ bounding_volume ─▶ broad_phase ─▶ filter ─▶ narrow_phase ─▶ pipeline ─▶ harness
//! (frames,  (swept k-DOPs)   (BVH with a    (SLPF,    (exact VF / EE   (one step:  (replay,
//!  topology)                  feature level) DNF)      solvers, TOI)    pairs, TOI) reports)
//! ```
//!
//! Data flows one way; only `pipeline` composes stages.
//!
//! Every fast path has a slow oracle in the tree, and tests compare the two.
//! All CCD arithmetic is `f64` ([`math::Real`]). What is computed, which
//! papers it follows and which guarantees the code relies on is the
//! [`design`] page (`docs/design.md`, which the code cites by section).
//!
//! ## Start here
//!
//! - [`mesh`]: a [`mesh::TriMesh`] (faces; edges derived), its frames
//!   ([`mesh::read_step`] from two PLY/OBJ files, your own `Vec<Vec3>`, or
//!   rows `[[f64; 3]]` viewed in place by [`math::vec3_slice`]), and a
//!   checked [`mesh::Step`] (two frames of one mesh).
//! - [`pipeline`]: [`pipeline::Pipeline::step`] runs a step and answers a
//!   [`pipeline::StepReport`] (counts per stage, the earliest time of impact,
//!   stage times) and, if asked for, every colliding [`pipeline::ContactPair`];
//!   [`pipeline::PipelineConfig`] chooses the BVH, filters, solver and the
//!   minimum separation `min_distance`; [`pipeline::Pipeline::step_on_candidates`]
//!   decides candidate pairs found by another broad phase, yours or a
//!   simulator's, with the same filters and exact tests.
//! - [`narrow_phase`]: single queries, [`narrow_phase::vertex_face()`] and
//!   [`narrow_phase::edge_edge()`] (contact), and
//!   [`narrow_phase::vertex_face_within`] and
//!   [`narrow_phase::edge_edge_within`] (within a distance `d`).
//!
//! The other modules are the pipeline's stages, for those who study one or
//! use it alone (`bounding_volume`, `broad_phase`, `filter`, `pair_kernel`,
//! `exact`, `math`), and the [`harness`] that reproduces the papers' tables.
//! The pipeline composes them itself; a broad phase of your own feeds the
//! rest of it through [`pipeline::Pipeline::step_on_candidates`].
//!
//! ## Guarantees
//!
//! - **Exact.** With the default solver ([`narrow_phase::Solver::Exact`]) a
//!   step reports exactly the pairs that touch (or come within
//!   `min_distance`) at some `t ∈ [0, 1]` on the straight paths between the
//!   two frames' doubles, of the pairs it tests (all but those that share a
//!   vertex, and those within a body that [`pipeline::PipelineConfig::bodies`]
//!   says does not collide with itself): no false negative, no false
//!   positive. The filters cull a pair only when it is provably apart under
//!   floating-point rounding; every finite coordinate is accepted, and where
//!   the fast paths' error bounds do not hold (coordinates far from 1 in
//!   magnitude, [`math::in_filter_range`]) a pair is decided by bounds that
//!   hold there or in exact arithmetic.
//! - **Time of impact** ([`narrow_phase::Toi`]): a bracket `[lower, upper]`
//!   of doubles holding the earliest such time; `lower` is never late and is
//!   the value to step by. A step's [`pipeline::StepReport::toi`] is the
//!   least `lower` over its colliding pairs.
//! - **Deterministic**: the same pairs, in the same order, the same counts
//!   and time of impact for any number of threads (a step runs on the
//!   current rayon pool).
//! - **Checked input**: [`mesh::Step::new`] and [`pipeline::Pipeline::step`]
//!   refuse positions that do not fit the mesh or are not finite, with typed
//!   errors ([`mesh::MeshError`], [`pipeline::PipelineError`]); the file
//!   readers name the file and line or element ([`mesh::MeshError`]);
//!   `f32` coordinates (PLY `float`) are widened exactly to `f64`. The single
//!   queries answer `None` for a non-finite coordinate.
//!
//! Build with optimizations: a debug build runs the pipeline many times
//! slower (a dependent crate can optimize `ccdlab` alone in its dev
//! profile, as the README shows).
//!
//! ## Use
//!
//! One query with the exact solver, then a whole step of a mesh through the
//! pipeline (k-DOP BVH, SLPF and DNF, exact tests):
//!
//! ```
//! use ccdlab::math::Vec3;
//! use ccdlab::mesh::{Step, TriMesh};
//! use ccdlab::narrow_phase::{edge_edge, vertex_face};
//! use ccdlab::pipeline::{Pipeline, PipelineConfig};
//!
//! // A vertex falling through a fixed triangle. A query's eight points are
//! // its four points at t = 0, then the same four at t = 1 (the data sets'
//! // order): v, f0, f1, f2 for a vertex and a face.
//! let f0 = Vec3::new(0.0, 0.0, 0.0);
//! let f1 = Vec3::new(1.0, 0.0, 0.0);
//! let f2 = Vec3::new(0.0, 1.0, 0.0);
//! let (v_t0, v_t1) = (Vec3::new(0.2, 0.2, 1.0), Vec3::new(0.2, 0.2, -1.0));
//! let toi = vertex_face(&v_t0, &f0, &f1, &f2, &v_t1, &f0, &f1, &f2).expect("it collides");
//! // The true time of impact (0.5) lies in the bracket; `lower` is never late.
//! assert!(toi.lower <= 0.5 && 0.5 <= toi.upper);
//!
//! // Two edges: a0–a1 fixed on the x axis, b0–b1 along y falling onto it
//! // (ea0, ea1, eb0, eb1 at t = 0, then at t = 1); they meet at t = 0.25.
//! let (a0, a1) = (Vec3::new(-1.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0));
//! let (b0, b1) = (Vec3::new(0.0, -1.0, 1.0), Vec3::new(0.0, 1.0, 1.0));
//! let drop = Vec3::new(0.0, 0.0, 4.0);
//! let toi = edge_edge(&a0, &a1, &b0, &b1, &a0, &a1, &(b0 - drop), &(b1 - drop)).unwrap();
//! assert!(toi.lower <= 0.25 && 0.25 <= toi.upper);
//!
//! // A whole step: a triangle falling through another one.
//! let mesh = TriMesh::new(6, vec![[0, 1, 2], [3, 4, 5]])?;
//! let (a, b, c) = (Vec3::new(0.2, 0.2, 1.0), Vec3::new(0.6, 0.2, 1.0), Vec3::new(0.2, 0.6, 1.0));
//! let down = Vec3::new(0.0, 0.0, 2.0);
//! let x_t0 = vec![f0, f1, f2, a, b, c];
//! let x_t1 = vec![f0, f1, f2, a - down, b - down, c - down];
//! let step = Step::new(&mesh, &x_t0, &x_t1)?;
//! let outcome = Pipeline::new(PipelineConfig::default()).step(&step)?;
//! assert_eq!(outcome.report.vf.colliding, 3); // the three falling vertices
//! assert!(outcome.report.toi.is_some_and(|t| t <= 0.5));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A sequence with a minimum separation, as a simulator runs it: each step's
//! motion is cut short of the earliest time the mesh comes within `d`, and
//! the pipeline keeps its BVH, refitting it for the next frames
//! (`examples/falling_cloth.rs` is a longer such loop):
//!
//! ```
//! use ccdlab::math::Vec3;
//! use ccdlab::mesh::{Step, TriMesh};
//! use ccdlab::pipeline::{BvhMode, Pipeline, PipelineConfig};
//!
//! // A triangle 1 above a fixed one, falling by 0.5 a frame; keep a gap of 0.1.
//! let mesh = TriMesh::new(6, vec![[0, 1, 2], [3, 4, 5]])?;
//! let floor = [Vec3::new(0.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0), Vec3::new(0.0, 1.0, 0.0)];
//! let up = Vec3::new(0.0, 0.0, 1.0);
//! let mut x: Vec<Vec3> = floor.iter().copied().chain(floor.map(|p| p + up)).collect();
//! let d = 0.1;
//! let mut pipeline = Pipeline::new(PipelineConfig { min_distance: d, ..Default::default() });
//! for frame in 0..3 {
//!     let mut target = x.clone();
//!     for p in &mut target[3..] {
//!         *p -= 0.5 * up;
//!     }
//!     let outcome = pipeline.step(&Step::new(&mesh, &x, &target)?)?;
//!     // The first step builds the BVH, later ones refit it.
//!     assert_eq!(outcome.report.bvh, if frame == 0 { BvhMode::Build } else { BvhMode::Refit });
//!     // Move 80 % of the way to the first contact within d, or all the way.
//!     let alpha = outcome.report.toi.map_or(1.0, |t| 0.8 * t);
//!     x = x.iter().zip(&target).map(|(p, q)| p + (q - p) * alpha).collect();
//! }
//! // The falling triangle stopped above the floor, more than d away.
//! assert!(x[3..].iter().all(|p| p.z > d));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The same from files, keeping every colliding pair:
//!
//! ```no_run
//! use ccdlab::mesh::{Step, read_step};
//! use ccdlab::pipeline::{Pipeline, PipelineConfig};
//!
//! let (mesh, x_t0, x_t1) = read_step("frame0.ply".as_ref(), "frame1.ply".as_ref())?;
//! let step = Step::new(&mesh, &x_t0, &x_t1)?;
//! let mut pipeline = Pipeline::new(PipelineConfig { collect_pairs: true, ..Default::default() });
//! let outcome = pipeline.step(&step)?;
//! println!("earliest time of impact: {:?}", outcome.report.toi);
//! for pair in &outcome.pairs {
//!     // The pairs carry global feature IDs (the data sets'); these give the
//!     // mesh's own vertex, face and edge indices.
//!     if let Some((v, f)) = pair.vertex_face(&mesh) {
//!         println!("vertex {v}, face {f} at t >= {}", pair.toi_lower);
//!     } else if let Some((a, b)) = pair.edge_edge(&mesh) {
//!         println!("edges {a} and {b} (of mesh.edges()) at t >= {}", pair.toi_lower);
//!     }
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

//! ## Features
//!
//! All on by default; `default-features = false` leaves the CCD library alone
//! (mesh → pipeline, and the harness's data sets, ground truth, generator and
//! replay) with its core dependencies.
//!
//! | feature | gives | adds |
//! |---|---|---|
//! | `cli` | the `ccdlab` binary; all of the below | clap, indicatif |
//! | `reports` | `harness::figure`, `harness::reproduction` (written and plotted reports); with a side track, its report (`harness::discrete_report`, `polygon_report`, `route_report`) | plotters |
//! | `baselines` | `baseline` (parry3d's BVH) and, with `discrete`, parry's discrete queries | parry3d-f64 |
//! | `discrete` | `discrete`: sphere–sphere, sphere–box, cylinder–height grid | |
//! | `polygon` | `polygon`: 2D non-convex SAT, beside GJK/EPA | parry2d-f64 |
//! | `tin-contact` | `tin_contact`: contact forms of moving TINs, the route over terrain | |

#![warn(missing_docs)]
// docs.rs (`--cfg docsrs`, Cargo.toml's metadata) labels feature-gated items.
#![cfg_attr(docsrs, feature(doc_cfg))]

/// The nalgebra whose `Vector3<f64>` is [`math::Vec3`], the type of every
/// position the library takes: a crate that builds its frames with it needs
/// no nalgebra of its own (nor one of another version).
pub use nalgebra;
/// The rayon whose pool a step runs on (the current one): a crate that runs
/// steps on a pool of its own ([`rayon::ThreadPoolBuilder`]) needs no rayon
/// of its own.
pub use rayon;

#[cfg(feature = "baselines")]
pub mod baseline;
pub mod bounding_volume;
pub mod broad_phase;
/// The design: `docs/design.md`, the page that the code's `docs/design.md §N`
/// citations refer to.
#[doc = include_str!("../docs/design.md")]
pub mod design {}
#[cfg(feature = "discrete")]
pub mod discrete;
mod enum_with_all;
pub mod exact;
pub mod filter;
pub mod harness;
pub mod io;
pub mod math;
pub mod mesh;
pub mod narrow_phase;
pub mod pair_kernel;
pub mod pipeline;
#[cfg(feature = "polygon")]
pub mod polygon;
pub(crate) mod printable;
#[cfg(test)]
pub(crate) mod test_util;
#[cfg(feature = "tin-contact")]
pub mod tin_contact;

/// The README's Rust examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
