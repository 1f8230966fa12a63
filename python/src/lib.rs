//! Python bindings of ccdlab: the `ccdlab._native` extension module, which
//! the `ccdlab` package (python/ccdlab/) re-exports.
//!
//! - single queries (`vertex_face_ccd`, `edge_edge_ccd`) and batches of
//!   them (`vertex_face_ccd_batch`, `edge_edge_ccd_batch`, in parallel);
//! - a whole step of a deforming mesh (`step`) and a sequence of steps
//!   that refits its BVH (`PyPipeline`, `ccdlab.Pipeline`), with the
//!   configuration and the defaults of `ccdlab step` (`--time-aligned auto`);
//! - the pairs of a step that reach the exact test (`candidates`), and
//!   which filter culls each pair of a batch (`vertex_face_filter_batch`,
//!   `edge_edge_filter_batch`);
//! - a mesh's static intersections at one instant (`intersections`,
//!   `has_intersections`) and the pairs within a distance (`proximity`);
//! - files: `read_mesh` (PLY/OBJ, checked as `ccdlab step` checks a
//!   frame), `queries` (the report of `ccdlab queries --json`),
//!   `load_queries` (the query sets it scores, as arrays), and `edges`
//!   (libigl's edge order, that of the data sets' global IDs).
//!
//! One file per kind of call: `ccd_queries` (single queries and batches),
//! `filter_queries`, `pipeline` (`step`, `Pipeline`) with `step_result`,
//! `candidates`, `static_queries` (one instant) and `files`; `arrays`, `options` and
//! `workers` convert the arguments and run the work. This file keeps what
//! they share (the frames, the mesh, a step's run) and the module's
//! definition; `step_result`, `pipeline`, `static_queries` and `files`
//! (once part of this file) take its imports with `use super::*`.
//!
//! Every array is checked before Rust works on it (shape, dtype, finite
//! coordinates, face indices), and every fault is a Python exception with
//! the library's message: `ValueError` for bad values, `OSError` (or its
//! subclasses `FileNotFoundError`, `PermissionError`) for files. The inputs
//! are copied into Rust vectors while the interpreter lock is held; the
//! work then runs with it released, on a rayon pool built for the call (or
//! kept by a pipeline, and built anew in a forked child), so that nothing
//! global is shared with worker processes.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::{Mutex, MutexGuard, OnceLock, TryLockError};

use ccdlab::broad_phase::{EePair, VfPair};
use ccdlab::harness::ground_truth::{QuerySet, discover_query_sets_in, load};
use ccdlab::harness::memory::MeasuredStep;
use ccdlab::harness::query_eval::{
    QueriesReport, ScoreError, SetScore, Totals, WithinOptions, require_truth, score_within,
};
use ccdlab::harness::stamp::Stamp;
use ccdlab::math::Vec3;
use ccdlab::mesh::{MeshError, Step, TriMesh, check_mesh, read_frame};
use ccdlab::pipeline::{
    Bodies, CandidateError, ContactPair, Pipeline, PipelineError, Proximity, ProximityOptions,
    SelfColliding, StepOutcome, intersections_with, proximity_distance, proximity_with,
};
use numpy::IntoPyArray;
use numpy::ndarray::Array2;
use pyo3::exceptions::{PyIsADirectoryError, PyMemoryError, PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

mod arrays;
mod candidates;
mod ccd_queries;
mod files;
mod filter_queries;
mod options;
mod pipeline;
mod static_queries;
mod step_result;
mod workers;

/// The extension's Rust allocations (not Python's) go to mimalloc on Linux.
/// It keeps memory freed by one call for the next, where glibc hands the large
/// blocks of a step back to the system and the next one-shot `step` touches
/// fresh pages again (docs/notes/python.md). Only this extension's memory is
/// concerned: nothing of the process's allocator is changed.
#[cfg(target_os = "linux")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use arrays::*;
use options::*;
use static_queries::{PROXIMITY_NO_MOTION, proximity_dict};
use step_result::{StepResult, kind_of, pairs_by_kind};
use workers::{Workers, run_interruptible, thread_pool};

// What every kind of call shares: the frames, the mesh and a step's run.

/// Reads the two frames of a step, checking that they have the same number
/// of vertices (and `num_vertices`, when given).
#[allow(non_snake_case)]
fn frames(
    V0: &Bound<'_, PyAny>,
    V1: &Bound<'_, PyAny>,
    num_vertices: Option<usize>,
) -> PyResult<(Vec<Vec3>, Vec<Vec3>)> {
    let x_t0 = mesh_points(V0, "V0", num_vertices)?;
    let x_t1 = points(V1, "V1")?;
    if x_t1.len() != x_t0.len() {
        return Err(value_error(format!(
            "V1 has {} vertices but V0 has {}: the two frames of a step need the same vertices",
            x_t1.len(),
            x_t0.len()
        )));
    }
    Ok((x_t0, x_t1))
}

/// Reads the positions `name` of a pipeline's mesh, checking their count
/// against `num_vertices`, when known.
fn mesh_points(
    obj: &Bound<'_, PyAny>,
    name: &str,
    num_vertices: Option<usize>,
) -> PyResult<Vec<Vec3>> {
    let x = points(obj, name)?;
    if let Some(n) = num_vertices
        && x.len() != n
    {
        return Err(value_error(format!(
            "{name} has {} vertices but this pipeline's mesh has {n} (a pipeline \
             steps one mesh: make another for a new mesh)",
            x.len()
        )));
    }
    Ok(x)
}

/// What a one-shot step's call is given, read and checked as for
/// `ccdlab.step`: the frames, the bodies (into `options`, once the vertex
/// count is known), the mesh, and a pool of `options.threads`.
#[allow(non_snake_case, clippy::too_many_arguments)]
fn step_inputs(
    py: Python<'_>,
    V0: &Bound<'_, PyAny>,
    V1: &Bound<'_, PyAny>,
    F: &Bound<'_, PyAny>,
    edges: Option<&Bound<'_, PyAny>>,
    bodies: Option<&Bound<'_, PyAny>>,
    self_collision: SelfCollision,
    options: &mut Options,
) -> PyResult<(Vec<Vec3>, Vec<Vec3>, TriMesh, Workers)> {
    let (x_t0, x_t1) = frames(V0, V1, None)?;
    options.config.bodies = parse_bodies(bodies, self_collision, Some(x_t0.len()))?;
    let faces = faces(F, Some(x_t0.len()), "F")?;
    let edges = codim_edges(edges, Some(x_t0.len()))?;
    let pool = thread_pool(options.threads)?;
    let mesh = build_mesh(py, &pool, (x_t0.len(), "V0"), faces, &edges)?;
    Ok((x_t0, x_t1, mesh, pool))
}

/// The topology of `faces` and `edges` over `num_vertices` vertices (the
/// count, and the argument that gives it), built on `pool` (it runs parts
/// of it in parallel) with the interpreter lock released; a fault is an
/// exception naming the argument ([`mesh_error`]).
fn build_mesh(
    py: Python<'_>,
    pool: &rayon::ThreadPool,
    (num_vertices, vertices_arg): (usize, &str),
    faces: Vec<[u32; 3]>,
    edges: &[[u32; 2]],
) -> PyResult<TriMesh> {
    py.detach(|| pool.install(|| TriMesh::with_edges(num_vertices, faces, edges)))
        .map_err(|e| mesh_error(&e, vertices_arg))
}

/// A mesh fault as an exception naming the argument it is in: `edges` for
/// an edge's, `vertices_arg` (the argument that gives the vertex count) for
/// too many vertices, `F` for the rest; a `MemoryError` for a topology that
/// does not fit in memory, a `ValueError` otherwise.
fn mesh_error(e: &MeshError, vertices_arg: &str) -> PyErr {
    match e {
        MeshError::EdgeIndexOutOfRange { .. } | MeshError::DegenerateEdge { .. } => {
            value_error(format!("edges: {e}"))
        }
        MeshError::TooLarge {
            what: "vertices", ..
        } => value_error(format!("{vertices_arg}: {e}")),
        MeshError::OutOfMemory { what, .. } => {
            let arg = if *what == "vertices" {
                vertices_arg
            } else {
                "F"
            };
            PyMemoryError::new_err(format!("{arg}: {e}"))
        }
        _ => value_error(format!("F: {e}")),
    }
}

/// The codimensional edges given as `edges=` (none for `None`), their
/// indices checked against `num_vertices` when given.
fn codim_edges(
    edges: Option<&Bound<'_, PyAny>>,
    num_vertices: Option<usize>,
) -> PyResult<Vec<[u32; 2]>> {
    edges.map_or(Ok(Vec::new()), |e| arrays::edges(e, num_vertices, "edges"))
}

/// Runs one step on `pool` with the interpreter lock released; a signal
/// handler's exception (Ctrl-C) cancels it and is raised instead
/// ([`run_interruptible`]).
fn run_step(
    py: Python<'_>,
    pool: &rayon::ThreadPool,
    pipeline: &mut Pipeline,
    mesh: &TriMesh,
    x_t0: &[Vec3],
    x_t1: &[Vec3],
) -> PyResult<StepOutcome> {
    let step = Step::new(mesh, x_t0, x_t1).map_err(|e| value_error(e.to_string()))?;
    run_interruptible(py, pool, |cancel| pipeline.step_cancellable(&step, cancel))?.map_err(|e| {
        value_error(match e {
            // The library's advice names its own settings; these are the
            // keywords a Python caller has.
            PipelineError::TooManyPairs { limit } => format!(
                "more than {limit} pairs to keep (the bound on a step's lists); \
                 collect_pairs=False counts them without listing, and a smaller \
                 min_distance keeps fewer"
            ),
            e => e.to_string(),
        })
    })
}

/// The step from `x_t0` to `x_t1` asked one thing by `ask` (whether it is
/// collision-free, its earliest time alone) on `pool`, as [`run_step`]
/// runs a step: the interpreter lock released, Ctrl-C cancelling it.
fn run_asking<T: Send>(
    py: Python<'_>,
    pool: &rayon::ThreadPool,
    mesh: &TriMesh,
    x_t0: &[Vec3],
    x_t1: &[Vec3],
    ask: impl FnOnce(&Step<'_>, &AtomicBool) -> Result<T, PipelineError> + Send,
) -> PyResult<T> {
    let step = Step::new(mesh, x_t0, x_t1).map_err(|e| value_error(e.to_string()))?;
    run_interruptible(py, pool, |cancel| ask(&step, cancel))?
        .map_err(|e| value_error(e.to_string()))
}

/// Exact continuous collision detection (CCD) of deforming triangle meshes:
/// the native module of the ``ccdlab`` package.
#[pymodule]
mod _native {
    #[pymodule_export]
    use super::candidates::candidates;
    #[pymodule_export]
    use super::ccd_queries::{
        edge_edge_ccd, edge_edge_ccd_batch, vertex_face_ccd, vertex_face_ccd_batch,
    };
    #[pymodule_export]
    use super::files::{edges, load_queries, queries, read_mesh};
    #[pymodule_export]
    use super::filter_queries::{edge_edge_filter_batch, vertex_face_filter_batch};
    #[pymodule_export]
    use super::pipeline::{PyPipeline, earliest_toi, is_step_collision_free, step};
    #[pymodule_export]
    use super::static_queries::{has_intersections, intersections, proximity};
    #[pymodule_export]
    use super::step_result::{_restore_step_result, StepResult};
    use pyo3::prelude::*;

    #[pymodule_init]
    fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
        m.add("__version__", env!("CARGO_PKG_VERSION"))
    }
}
