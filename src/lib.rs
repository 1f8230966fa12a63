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
//! ## Use
//!
//! One query with the exact solver, then a whole step of a mesh through the
//! pipeline (k-DOP BVH, SLPF and DNF, exact tests):
//!
//! ```
//! use ccdlab::math::Vec3;
//! use ccdlab::mesh::{Step, TriMesh};
//! use ccdlab::narrow_phase::vertex_face;
//! use ccdlab::pipeline::{Pipeline, PipelineConfig};
//!
//! // A vertex falling through a fixed triangle; arguments in the data sets'
//! // order: v_t0, f0_t0, f1_t0, f2_t0, v_t1, f0_t1, f1_t1, f2_t1.
//! let f0 = Vec3::new(0.0, 0.0, 0.0);
//! let f1 = Vec3::new(1.0, 0.0, 0.0);
//! let f2 = Vec3::new(0.0, 1.0, 0.0);
//! let (v_t0, v_t1) = (Vec3::new(0.2, 0.2, 1.0), Vec3::new(0.2, 0.2, -1.0));
//! let toi = vertex_face(&v_t0, &f0, &f1, &f2, &v_t1, &f0, &f1, &f2).expect("it collides");
//! // The true time of impact (0.5) lies in the bracket; `lower` is never late.
//! assert!(toi.lower <= 0.5 && 0.5 <= toi.upper);
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
//! A sequence from files, keeping every colliding pair (the pipeline keeps
//! its BVH and refits it on the next step):
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
//!     println!("{:?} {} {} at t >= {}", pair.kind, pair.a, pair.b, pair.toi_lower);
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
