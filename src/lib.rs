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
//! All CCD arithmetic is `f64` ([`math::Real`]).

#![warn(missing_docs)]

pub mod baseline;
pub mod bounding_volume;
pub mod broad_phase;
pub mod contact;
pub mod discrete;
pub mod exact;
pub mod filter;
pub mod harness;
pub mod io;
pub mod math;
pub mod mesh;
pub mod narrow_phase;
pub mod pipeline;
pub mod polygon;
pub mod primitive;
