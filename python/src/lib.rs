//! Python bindings of ccdlab: the `ccdlab._native` extension module, which
//! the `ccdlab` package (python/ccdlab/) re-exports.
//!
//! - single queries ([`vertex_face_ccd`], [`edge_edge_ccd`]) and batches of
//!   them ([`vertex_face_ccd_batch`], [`edge_edge_ccd_batch`], in parallel);
//! - a whole step of a deforming mesh ([`step`]) and a sequence of steps
//!   that refits its BVH ([`PyPipeline`], `ccdlab.Pipeline`), with the
//!   configuration and the defaults of `ccdlab step` (`--time-aligned auto`);
//! - the pairs of a step that reach the exact test ([`candidates::candidates`]);
//! - a mesh's static intersections at one instant ([`intersections`],
//!   [`has_intersections`]) and the pairs within a distance ([`proximity`]);
//! - files: [`read_mesh`] (PLY/OBJ, checked as `ccdlab step` checks a
//!   frame), [`queries`] (the report of `ccdlab queries --json`),
//!   [`load_queries`] (the query sets it scores, as arrays), and [`edges`]
//!   (libigl's edge order, that of the data sets' global IDs).
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

use ccdlab::harness::ground_truth::{QuerySet, discover_query_sets_in, load};
use ccdlab::harness::memory::MeasuredStep;
use ccdlab::harness::query_eval::{
    QueriesReport, ScoreError, SetScore, Totals, WithinOptions, score_within,
};
use ccdlab::harness::stamp::Stamp;
use ccdlab::math::Vec3;
use ccdlab::mesh::{MeshError, Step, TriMesh, check_mesh, read_frame};
use ccdlab::pipeline::{
    Bodies, ContactPair, Pipeline, PipelineError, ProximityOptions, SelfColliding, StepOutcome,
    intersections_with, proximity_distance, proximity_with,
};
use numpy::IntoPyArray;
use numpy::ndarray::Array2;
use pyo3::exceptions::{PyIsADirectoryError, PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

mod arrays;
mod candidates;
mod ccd_queries;
mod options;
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
use ccd_queries::{edge_edge_ccd, edge_edge_ccd_batch, vertex_face_ccd, vertex_face_ccd_batch};
use options::*;
use workers::{Workers, run_interruptible, thread_pool};

// ---------------------------------------------------------------------------
// Steps

/// The result of one step (``ccdlab.step``, ``Pipeline.step``).
///
/// Attributes
/// ----------
/// toi : float or None
///     The earliest time of impact over all colliding pairs (the first time
///     two features touch, or come within min_distance d > 0), as a
///     conservative lower bound: never later than the true one, and it may
///     equal it. 0.0 when a pair touches, or is within d, at t = 0; None
///     when nothing collides in the step.
/// toi_upper : float or None
///     An upper bound on the earliest time of impact.
/// vf_pairs : ndarray of int64, shape (m, 2), or None
///     Colliding vertex–face pairs as (vertex index, face index); None
///     unless the step ran with ``collect_pairs=True``.
/// ee_pairs : ndarray of int64, shape (m, 2), or None
///     Colliding edge–edge pairs as (edge index, edge index), edges in the
///     order of ``ccdlab.edges(F, edges)`` (the faces' edges, then the
///     codimensional ones); None unless ``collect_pairs=True``.
/// ve_pairs : ndarray of int64, shape (m, 2), or None
///     Colliding pairs of a point (a vertex in no face and no edge) and a
///     codimensional edge, as (vertex index, edge index); None unless
///     ``collect_pairs=True``.
/// vv_pairs : ndarray of int64, shape (m, 2), or None
///     Colliding pairs of two points, as (vertex index, vertex index), the
///     smaller first; None unless ``collect_pairs=True``.
/// vf_toi, ee_toi, ve_toi, vv_toi : ndarray of float64, shape (m, 2), or None
///     Each pair's time-of-impact bracket (lower, upper), row for row with
///     the pairs; None unless ``collect_pairs=True``.
/// report : dict
///     Counts per stage, stage times, what ran: the JSON object of
///     ``ccdlab step --json``.
#[pyclass(module = "ccdlab", name = "StepResult", frozen)]
struct StepResult {
    toi: Option<f64>,
    toi_upper: Option<f64>,
    vf_pairs: Option<Py<PyAny>>,
    ee_pairs: Option<Py<PyAny>>,
    vf_toi: Option<Py<PyAny>>,
    ee_toi: Option<Py<PyAny>>,
    report: Py<PyAny>,
    /// For `repr`: colliding pair counts (vf, ee), and (ve, vv) when the
    /// mesh has points.
    colliding: (u64, u64),
    point_colliding: Option<(u64, u64)>,
    /// The codimensional points' pairs and brackets: vertex–edge, then
    /// vertex–vertex.
    point_pairs: [Option<Py<PyAny>>; 2],
    point_toi: [Option<Py<PyAny>>; 2],
}

impl StepResult {
    /// The result of a finished step; its pairs are kept (as arrays of local
    /// indices) when the step collected them.
    fn new(
        py: Python<'_>,
        outcome: StepOutcome,
        mesh: &TriMesh,
        collect_pairs: bool,
    ) -> PyResult<StepResult> {
        let [(vf, vf_toi), (ee, ee_toi), (ve, ve_toi), (vv, vv_toi)] =
            pairs_by_kind(&outcome.pairs, mesh)?;
        let collected = |flat: Vec<i64>| -> PyResult<Option<Py<PyAny>>> {
            collect_pairs
                .then(|| read_only(py, pairs_array(py, flat)?))
                .transpose()
        };
        let collected_toi = |flat: Vec<f64>| -> PyResult<Option<Py<PyAny>>> {
            collect_pairs
                .then(|| read_only(py, pairs_array(py, flat)?))
                .transpose()
        };
        Ok(StepResult {
            toi: outcome.report.toi,
            toi_upper: outcome.report.toi_upper,
            vf_pairs: collected(vf)?,
            ee_pairs: collected(ee)?,
            vf_toi: collected_toi(vf_toi)?,
            ee_toi: collected_toi(ee_toi)?,
            report: to_dict(py, &MeasuredStep::now(outcome.report.clone()))?,
            colliding: (outcome.report.vf.colliding, outcome.report.ee.colliding),
            point_colliding: outcome
                .report
                .points
                .map(|p| (p.vertex_edge.colliding, p.vertex_vertex.colliding)),
            point_pairs: [collected(ve)?, collected(vv)?],
            point_toi: [collected_toi(ve_toi)?, collected_toi(vv_toi)?],
        })
    }
}

/// Pairs of one kind as flat local indices and flat `(lower, upper)`
/// brackets.
type KindPairs = (Vec<i64>, Vec<f64>);

/// Contact pairs by kind, as local indices of `mesh`: vertex–face,
/// edge–edge, point–edge, point–point. The pairs carry the data sets'
/// global IDs (vertex i, edge #V + j, face #V + #E + k).
fn pairs_by_kind(pairs: &[ContactPair], mesh: &TriMesh) -> PyResult<[KindPairs; 4]> {
    let mut out: [KindPairs; 4] = Default::default();
    for p in pairs {
        let (kind, ids) = if let Some((v, f)) = p.vertex_face(mesh) {
            (0, [v, f])
        } else if let Some((a, b)) = p.edge_edge(mesh) {
            (1, [a, b])
        } else if let Some((v, e)) = p.vertex_edge(mesh) {
            (2, [v, e])
        } else if let Some((v, w)) = p.vertex_vertex(mesh) {
            (3, [v, w])
        } else {
            return Err(PyRuntimeError::new_err(format!(
                "internal error: pair IDs ({}, {}) are no vertex–face or edge–edge pair of the \
                 mesh",
                p.a, p.b
            )));
        };
        out[kind].0.extend(ids.map(i64::from));
        out[kind].1.extend([p.toi_lower, p.toi_upper]);
    }
    Ok(out)
}

#[pymethods]
impl StepResult {
    /// Earliest time of impact (lower bound), or None without contact.
    #[getter]
    fn toi(&self) -> Option<f64> {
        self.toi
    }

    /// Upper bound on the earliest time of impact, or None.
    #[getter]
    fn toi_upper(&self) -> Option<f64> {
        self.toi_upper
    }

    /// Colliding (vertex, face) pairs, int64 (m, 2); None unless collected.
    #[getter]
    fn vf_pairs(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.vf_pairs.as_ref().map(|a| a.clone_ref(py))
    }

    /// Colliding (edge, edge) pairs, int64 (m, 2); None unless collected.
    #[getter]
    fn ee_pairs(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.ee_pairs.as_ref().map(|a| a.clone_ref(py))
    }

    /// Per vertex–face pair (lower, upper) time of impact, float64 (m, 2).
    #[getter]
    fn vf_toi(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.vf_toi.as_ref().map(|a| a.clone_ref(py))
    }

    /// Per edge–edge pair (lower, upper) time of impact, float64 (m, 2).
    #[getter]
    fn ee_toi(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.ee_toi.as_ref().map(|a| a.clone_ref(py))
    }

    /// Colliding (point, codimensional edge) pairs, int64 (m, 2); None
    /// unless collected.
    #[getter]
    fn ve_pairs(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.point_pairs[0].as_ref().map(|a| a.clone_ref(py))
    }

    /// Colliding (point, point) pairs, int64 (m, 2); None unless collected.
    #[getter]
    fn vv_pairs(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.point_pairs[1].as_ref().map(|a| a.clone_ref(py))
    }

    /// Per point–edge pair (lower, upper) time of impact, float64 (m, 2).
    #[getter]
    fn ve_toi(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.point_toi[0].as_ref().map(|a| a.clone_ref(py))
    }

    /// Per point–point pair (lower, upper) time of impact, float64 (m, 2).
    #[getter]
    fn vv_toi(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.point_toi[1].as_ref().map(|a| a.clone_ref(py))
    }

    /// The step's report: the JSON object of ``ccdlab step --json``.
    #[getter]
    fn report(&self, py: Python<'_>) -> Py<PyAny> {
        self.report.clone_ref(py)
    }

    /// Pickling (and `copy`): the fields, rebuilt by
    /// `ccdlab._native._restore_step_result`, so that a worker process can
    /// return a whole result.
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let restore = py
            .import("ccdlab._native")?
            .getattr("_restore_step_result")?;
        let state = PyTuple::new(
            py,
            [
                self.toi.into_pyobject(py)?,
                self.toi_upper.into_pyobject(py)?,
                self.vf_pairs(py).into_pyobject(py)?,
                self.ee_pairs(py).into_pyobject(py)?,
                self.vf_toi(py).into_pyobject(py)?,
                self.ee_toi(py).into_pyobject(py)?,
                self.report(py).into_bound(py),
                self.colliding.into_pyobject(py)?.into_any(),
                self.ve_pairs(py).into_pyobject(py)?,
                self.vv_pairs(py).into_pyobject(py)?,
                self.ve_toi(py).into_pyobject(py)?,
                self.vv_toi(py).into_pyobject(py)?,
                self.point_colliding.into_pyobject(py)?,
            ],
        )?;
        Ok((restore, state))
    }

    fn __repr__(&self) -> String {
        let toi = self.toi.map_or("None".to_string(), |t| format!("{t:e}"));
        let points = self.point_colliding.map_or(String::new(), |(ve, vv)| {
            format!(", ve_colliding={ve}, vv_colliding={vv}")
        });
        format!(
            "StepResult(toi={toi}, vf_colliding={}, ee_colliding={}{points})",
            self.colliding.0, self.colliding.1
        )
    }
}

/// Rebuilds a pickled [`StepResult`] from the fields its `__reduce__`
/// gives (not part of the API; the points' pairs are absent from the
/// pickles of versions before them).
#[pyfunction]
#[pyo3(signature = (toi, toi_upper, vf_pairs, ee_pairs, vf_toi, ee_toi, report, colliding,
    ve_pairs = None, vv_pairs = None, ve_toi = None, vv_toi = None, point_colliding = None))]
#[allow(clippy::too_many_arguments)]
fn _restore_step_result(
    py: Python<'_>,
    toi: Option<f64>,
    toi_upper: Option<f64>,
    vf_pairs: Option<Py<PyAny>>,
    ee_pairs: Option<Py<PyAny>>,
    vf_toi: Option<Py<PyAny>>,
    ee_toi: Option<Py<PyAny>>,
    report: Py<PyAny>,
    colliding: (u64, u64),
    ve_pairs: Option<Py<PyAny>>,
    vv_pairs: Option<Py<PyAny>>,
    ve_toi: Option<Py<PyAny>>,
    vv_toi: Option<Py<PyAny>>,
    point_colliding: Option<(u64, u64)>,
) -> PyResult<StepResult> {
    // The arrays come back writable from pickle or `copy.deepcopy`.
    let fixed = |a: Option<Py<PyAny>>| a.map(|a| read_only(py, a)).transpose();
    Ok(StepResult {
        toi,
        toi_upper,
        vf_pairs: fixed(vf_pairs)?,
        ee_pairs: fixed(ee_pairs)?,
        vf_toi: fixed(vf_toi)?,
        ee_toi: fixed(ee_toi)?,
        report,
        colliding,
        point_colliding,
        point_pairs: [fixed(ve_pairs)?, fixed(vv_pairs)?],
        point_toi: [fixed(ve_toi)?, fixed(vv_toi)?],
    })
}

/// One step of a deforming triangle mesh through the whole pipeline.
///
/// Every vertex moves linearly from ``V0`` (t = 0) to ``V1`` (t = 1). The
/// step runs the 26-DOP BVH over swept features, the SLPF and DNF filters
/// and the exact vertex–face and edge–edge tests, with the configuration
/// and the defaults of ``ccdlab step``; the result is the same as the
/// command line's for the same frames.
///
/// Parameters
/// ----------
/// V0, V1 : ndarray, shape (n, 3), float64, float32 or integer
///     Vertex positions at t = 0 and t = 1 (finite; C or Fortran order;
///     float32 widened exactly, integers of magnitude at most 2**53
///     converted exactly, larger ones refused).
/// F : ndarray, shape (m, 3), any integer dtype
///     Triangles as vertex indices, from 0; three distinct corners each
///     (none, ``numpy.empty((0, 3), int)``, for rods alone).
/// edges : ndarray, shape (e, 2), any integer dtype, or None, optional
///     Codimensional edges (rods, hair, seams: edges in no triangle), as
///     the IPC Toolkit's ``CollisionMesh`` takes them (default None). An
///     edge of a triangle, or one listed twice, is dropped; the others
///     follow the triangles' edges in ``ccdlab.edges(F, edges)``. Their
///     vertices are tested against the faces and the edges against every
///     edge. Vertices in no face and no edge (points) are tested against
///     the faces, the codimensional edges and each other (``ve_pairs``,
///     ``vv_pairs``).
/// k : int or str, optional
///     Bounding volume of the BVH: 6, 8, 14, 18 or 26 (default).
/// filters : {"slpf+dnf", "slpf", "dnf", "none"}, optional
///     Low-level filters before the exact tests (SLPF is left out when
///     ``time_aligned="auto"`` prunes).
/// window : bool, optional
///     The coplanar-window filter after the paper's filters (default True).
/// time_aligned : {"auto", "on", "off"} or bool, optional
///     Time-aligned pruning of the BVH's pairs; "auto" (default) prunes
///     when the vertices move far against the edges' length; "off" is the
///     paper's pipeline. The colliding pairs are the same in every setting.
/// solver : {"exact", "cubic"}, optional
///     Narrow-phase solver (default "exact"); at ``min_distance`` > 0 the
///     exact one only (the cubic one decides contact only).
/// threads : int or None, optional
///     Worker threads, 1 to 1024; None (default): all logical CPUs. The
///     result is the same for any count.
/// collect_pairs : bool, optional
///     Keep every colliding pair (``vf_pairs``, ``ee_pairs``, ``ve_pairs``,
///     ``vv_pairs`` and their ``*_toi``); default False (counts and time of
///     impact only).
/// min_distance : float, optional
///     Minimum separation d >= 0: features that come within Euclidean
///     distance d during the step collide (default 0: contact). At d > 0
///     DNF and the window filter keep a margin of d, and SLPF (proven for
///     contact only) is off; ``report`` says what ran. The work grows with
///     the pairs that come within d: a d of the order of the mesh's edge
///     length or more makes most nearby pairs collide and a step take
///     seconds to minutes. Called from the main thread, the step's
///     traversal gives up on Ctrl-C (or any exception a signal handler
///     raises), and that exception is raised.
/// bodies : ndarray, shape (n,), any integer dtype, or None, optional
///     A body label per vertex, from 0 (default None). A pair of features
///     is tested when they are in different bodies, or in one body that
///     collides with itself (``self_collision``): a static obstacle is a
///     body that does not. Each face's corners (and each codimensional
///     edge's ends) must be in one body.
/// self_collision : bool, sequence of bool or "moving", optional
///     Whether bodies collide with themselves: one bool for every body, or
///     one per body label (``self_collision[b]`` for body b; entries past
///     the largest label are not used). Default True: every pair is
///     tested. Without ``bodies``: ``False`` makes each connected
///     component a body (only pairs across components are tested), and
///     ``"moving"`` makes the components that do not move in the step a
///     static obstacle (its pairs with itself are not tested), as
///     ``ccdlab step --self-collision off`` and ``moving``.
///
/// Returns
/// -------
/// StepResult
///     ``toi``, ``toi_upper``, the pairs (when collected) and ``report``.
///
/// Raises
/// ------
/// ValueError
///     A wrong shape or dtype, a non-finite coordinate, frames of different
///     vertex counts, a face or edge index out of range, a face repeating a
///     vertex, an edge joining a vertex to itself, no faces and no edges, a
///     bad option, or ``bodies`` that do not fit the mesh.
#[pyfunction]
#[pyo3(signature = (V0, V1, F, *, edges = None, k = IntOrStr::Int(26), filters = "slpf+dnf",
    window = true, time_aligned = BoolOrStr::Str("auto".to_string()), solver = "exact",
    threads = None, collect_pairs = false, min_distance = Distance(0.0), bodies = None,
    self_collision = SelfCollision::All(true)),
    text_signature = "(V0, V1, F, *, edges=None, k=26, filters='slpf+dnf', window=True, \
        time_aligned='auto', solver='exact', threads=None, collect_pairs=False, min_distance=0.0, \
        bodies=None, self_collision=True)")]
#[allow(non_snake_case, clippy::too_many_arguments)]
fn step(
    py: Python<'_>,
    V0: &Bound<'_, PyAny>,
    V1: &Bound<'_, PyAny>,
    F: &Bound<'_, PyAny>,
    edges: Option<&Bound<'_, PyAny>>,
    k: IntOrStr,
    filters: &str,
    window: bool,
    time_aligned: BoolOrStr,
    solver: &str,
    threads: Option<Threads>,
    collect_pairs: bool,
    min_distance: Distance,
    bodies: Option<&Bound<'_, PyAny>>,
    self_collision: SelfCollision,
) -> PyResult<StepResult> {
    let mut options = Options::parse(
        k,
        filters,
        window,
        time_aligned,
        solver,
        threads,
        collect_pairs,
        min_distance,
        None,
    )?;
    let (x_t0, x_t1) = frames(V0, V1, None)?;
    // The labels are read once the vertex count is known.
    options.config.bodies = parse_bodies(bodies, self_collision, Some(x_t0.len()))?;
    let faces = faces(F, Some(x_t0.len()), "F")?;
    let edges = codim_edges(edges, Some(x_t0.len()))?;
    let pool = thread_pool(options.threads)?;
    let mesh = build_mesh(py, &pool, x_t0.len(), faces, &edges)?;
    let mut pipeline = Pipeline::new(options.config.clone());
    let outcome = run_step(py, &pool, &mut pipeline, &mesh, &x_t0, &x_t1)?;
    StepResult::new(py, outcome, &mesh, options.config.collect_pairs)
}

/// A mesh's static intersections at one instant: edges through triangles,
/// and the pairs that touch (vertex–face, edge–edge and the points' pairs
/// that share no vertex, at distance 0).
///
/// The check to make before trusting CCD, which decides when features
/// first meet, not whether they already cross (IPC Toolkit's
/// ``has_intersections``). Exact for every float64 input.
///
/// Parameters
/// ----------
/// V : ndarray, shape (n, 3), float64, float32 or integer
///     Vertex positions (converted as for ``ccdlab.step``).
/// F : ndarray, shape (m, 3), any integer dtype
///     Triangles as vertex indices, as for ``ccdlab.step``.
/// edges : ndarray, shape (e, 2), any integer dtype, optional
///     Edges in no face (rods), as for ``ccdlab.step``.
/// threads : int, optional
///     Worker threads (default: all CPUs).
///
/// Returns
/// -------
/// dict
///     ``"edge_face"``: int64 (k, 2) rows ``(edge, face)``, an edge (index
///     into ``ccdlab.edges(F, edges)``) through a triangle's interior;
///     ``"vf"``, ``"ee"``, ``"ve"``, ``"vv"``: int64 (m, 2) pairs that
///     touch (distance 0), indexed as ``StepResult.vf_pairs`` and the
///     others (the colliding pairs of a step that does not move). Each
///     ascending.
///
/// Raises
/// ------
/// ValueError
///     As ``ccdlab.step`` for bad positions, faces or edges.
#[pyfunction]
#[pyo3(signature = (V, F, *, edges = None, threads = None))]
#[allow(non_snake_case)]
fn intersections<'py>(
    py: Python<'py>,
    V: &Bound<'py, PyAny>,
    F: &Bound<'py, PyAny>,
    edges: Option<&Bound<'py, PyAny>>,
    threads: Option<Threads>,
) -> PyResult<Bound<'py, PyDict>> {
    let (mesh, found) = static_intersections(py, V, F, edges, threads, |mesh, x, cancel| {
        intersections_with(mesh, x, true, Some(cancel))
    })?;
    let d = PyDict::new(py);
    let flat = found
        .crossing
        .iter()
        .flatten()
        .map(|&i| i64::from(i))
        .collect();
    d.set_item("edge_face", read_only(py, pairs_array(py, flat)?)?)?;
    let touching = pairs_by_kind(&found.touching, &mesh)?;
    for (name, (ids, _)) in ["vf", "ee", "ve", "vv"].into_iter().zip(touching) {
        d.set_item(name, read_only(py, pairs_array(py, ids)?)?)?;
    }
    Ok(d)
}

/// Whether a mesh at one instant has a pair of features that share no
/// vertex and have a common point: an edge through a triangle, or a pair
/// that touches (``ccdlab.intersections``, whose arguments it takes). It
/// looks for edges through triangles only when nothing touches, and stops
/// at the first one.
#[pyfunction]
#[pyo3(signature = (V, F, *, edges = None, threads = None))]
#[allow(non_snake_case)]
fn has_intersections(
    py: Python<'_>,
    V: &Bound<'_, PyAny>,
    F: &Bound<'_, PyAny>,
    edges: Option<&Bound<'_, PyAny>>,
    threads: Option<Threads>,
) -> PyResult<bool> {
    let (_, found) = static_intersections(py, V, F, edges, threads, |mesh, x, cancel| {
        ccdlab::pipeline::has_intersections(mesh, x, Some(cancel))
    })?;
    Ok(found)
}

/// The pairs of a mesh's features within distance ``d`` of each other at
/// one instant, exactly: the active set of a barrier (the IPC Toolkit's
/// collisions within ``dhat``).
///
/// Vertex–face, edge–edge and the codimensional points' pairs (features
/// that share a vertex are never paired) whose Euclidean distance is at
/// most ``d``: the colliding pairs of ``ccdlab.step(V, V, F,
/// min_distance=d)``, decided at rest. Exact for every float64 input.
///
/// Parameters
/// ----------
/// V : ndarray, shape (n, 3), float64, float32 or integer
///     Vertex positions (converted as for ``ccdlab.step``).
/// F : ndarray, shape (m, 3), any integer dtype
///     Triangles as vertex indices, as for ``ccdlab.step``.
/// d : float
///     The distance, >= 0 (0: the pairs that touch).
/// edges : ndarray, shape (e, 2), any integer dtype, optional
///     Edges in no face (rods), as for ``ccdlab.step``.
/// bodies, self_collision : optional
///     Which pairs are tested, as for ``ccdlab.step`` (so that a
///     simulation's barrier and its steps see the same pairs), except
///     ``self_collision="moving"``: at one instant nothing moves.
/// threads : int, optional
///     Worker threads (default: all CPUs).
///
/// Returns
/// -------
/// dict
///     ``"vf"``, ``"ee"``, ``"ve"``, ``"vv"``: int64 (m, 2) pairs within
///     ``d``, indexed as ``StepResult.vf_pairs`` and the others. Each
///     ascending.
///
/// Raises
/// ------
/// ValueError
///     As ``ccdlab.step`` for bad positions, faces, edges or bodies; a
///     negative or non-finite ``d``.
#[pyfunction]
#[pyo3(signature = (V, F, d, *, edges = None, bodies = None,
    self_collision = SelfCollision::All(true), threads = None),
    text_signature = "(V, F, d, *, edges=None, bodies=None, self_collision=True, threads=None)")]
#[allow(non_snake_case, clippy::too_many_arguments)]
fn proximity<'py>(
    py: Python<'py>,
    V: &Bound<'py, PyAny>,
    F: &Bound<'py, PyAny>,
    d: &Bound<'py, PyAny>,
    edges: Option<&Bound<'py, PyAny>>,
    bodies: Option<&Bound<'py, PyAny>>,
    self_collision: SelfCollision,
    threads: Option<Threads>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = proximity_distance(float_not_bool(d.as_borrowed(), "d")?)
        .map_err(|e| value_error(format!("d: {e}")))?;
    let bodies = parse_bodies(bodies, self_collision, None)?;
    if bodies == Some(Bodies::StillObstacle) {
        return Err(value_error(
            "self_collision: \"moving\" makes what does not move in a step the obstacle, and at \
             one instant nothing moves; pass bodies= with a bool per body",
        ));
    }
    let options = ProximityOptions {
        collect_pairs: true,
        bodies,
    };
    let (mesh, found) = static_intersections(py, V, F, edges, threads, |mesh, x, cancel| {
        proximity_with(mesh, x, d, &options, Some(cancel))
    })?;
    let out = PyDict::new(py);
    let pairs = pairs_by_kind(&found.pairs, &mesh)?;
    for (name, (ids, _)) in ["vf", "ee", "ve", "vv"].into_iter().zip(pairs) {
        out.set_item(name, read_only(py, pairs_array(py, ids)?)?)?;
    }
    Ok(out)
}

/// The mesh of [`intersections`], [`has_intersections`] and [`proximity`]
/// (checked as for [`step`]) and what `find` answers for it, on a pool of `threads` with
/// the interpreter lock released; Ctrl-C stops it with
/// `KeyboardInterrupt`.
#[allow(non_snake_case)]
fn static_intersections<T: Send>(
    py: Python<'_>,
    V: &Bound<'_, PyAny>,
    F: &Bound<'_, PyAny>,
    edges: Option<&Bound<'_, PyAny>>,
    threads: Option<Threads>,
    find: impl FnOnce(&TriMesh, &[Vec3], &AtomicBool) -> Result<T, PipelineError> + Send,
) -> PyResult<(TriMesh, T)> {
    let x = points(V, "V")?;
    let faces = faces(F, Some(x.len()), "F")?;
    let edges = codim_edges(edges, Some(x.len()))?;
    let pool = thread_pool(parse_threads(threads)?)?;
    let mesh = build_mesh(py, &pool, x.len(), faces, &edges)?;
    let found = run_interruptible(py, &pool, |cancel| find(&mesh, &x, cancel))?
        .map_err(|e| value_error(e.to_string()))?;
    Ok((mesh, found))
}

/// A path argument (`name` in messages): `os.fsdecode` takes str, bytes
/// and path-like objects alike (a name that is not UTF-8 kept through the
/// file system's encoding); a NUL byte in it is a `ValueError`, as Python's
/// own `open` makes it.
fn path_argument(py: Python<'_>, path: &Bound<'_, PyAny>, name: &str) -> PyResult<PathBuf> {
    let decoded = py
        .import("os")?
        .call_method1("fsdecode", (path,))
        .map_err(|e| PyTypeError::new_err(format!("{name}: {}", e.value(py))))?;
    let path: PathBuf = decoded.extract()?;
    if path.as_os_str().as_encoded_bytes().contains(&0) {
        return Err(value_error(format!(
            "{name}: embedded null byte in {}",
            decoded.repr()?
        )));
    }
    Ok(path)
}

/// The `*paths` of `function` (`queries`, `load_queries`): at least one,
/// each read by [`path_argument`].
fn query_paths(
    py: Python<'_>,
    paths: &Bound<'_, PyTuple>,
    function: &str,
) -> PyResult<Vec<PathBuf>> {
    if paths.is_empty() {
        return Err(value_error(format!("{function}: pass at least one path")));
    }
    paths
        .iter()
        .map(|p| path_argument(py, &p, "paths"))
        .collect()
}

/// Reads the two frames of a step, checking that they have the same number
/// of vertices (and `num_vertices`, when given).
#[allow(non_snake_case)]
fn frames(
    V0: &Bound<'_, PyAny>,
    V1: &Bound<'_, PyAny>,
    num_vertices: Option<usize>,
) -> PyResult<(Vec<Vec3>, Vec<Vec3>)> {
    let x_t0 = points(V0, "V0")?;
    let x_t1 = points(V1, "V1")?;
    if x_t1.len() != x_t0.len() {
        return Err(value_error(format!(
            "V1 has {} vertices but V0 has {}: the two frames of a step need the same vertices",
            x_t1.len(),
            x_t0.len()
        )));
    }
    if let Some(n) = num_vertices
        && x_t0.len() != n
    {
        return Err(value_error(format!(
            "V0 has {} vertices but this pipeline's mesh has {n}",
            x_t0.len()
        )));
    }
    Ok((x_t0, x_t1))
}

/// The topology of `faces` and `edges` over `num_vertices` vertices, built
/// on `pool` (it runs parts of it in parallel) with the interpreter lock
/// released; a fault is a `ValueError` naming the argument ([`mesh_error`]).
fn build_mesh(
    py: Python<'_>,
    pool: &rayon::ThreadPool,
    num_vertices: usize,
    faces: Vec<[u32; 3]>,
    edges: &[[u32; 2]],
) -> PyResult<TriMesh> {
    py.detach(|| pool.install(|| TriMesh::with_edges(num_vertices, faces, edges)))
        .map_err(|e| mesh_error(&e))
}

/// A mesh fault as a `ValueError` naming the argument it is in: `edges`
/// for an edge's, `F` for the rest.
fn mesh_error(e: &MeshError) -> PyErr {
    match e {
        MeshError::EdgeIndexOutOfRange { .. } | MeshError::DegenerateEdge { .. } => {
            value_error(format!("edges: {e}"))
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
    run_interruptible(py, pool, |cancel| pipeline.step_cancellable(&step, cancel))?
        .map_err(|e| value_error(e.to_string()))
}

/// A pipeline over the steps of one mesh's frame sequence.
///
/// The first step builds the BVH; the next ones refit it (as
/// ``ccdlab replay`` does from step to step), unless ``rebuild_next()`` was
/// called. Results are those of fresh steps with the same frames (the same
/// pairs in the same order). Steps follow one another: stepping the
/// pipeline while another thread runs one of its steps raises
/// ``RuntimeError`` (use one pipeline per thread); its properties can be
/// read meanwhile.
///
/// Parameters
/// ----------
/// F : ndarray, shape (m, 3), any integer dtype
///     The mesh's triangles (fixed over the sequence).
/// edges, k, filters, window, time_aligned, solver, threads, collect_pairs, min_distance, bodies, self_collision
///     As for ``ccdlab.step`` (the same defaults); ``bodies`` has a label
///     per vertex of the mesh.
/// num_vertices : int or None, optional
///     The mesh's vertex count; None (default): that of the first step's
///     frames. Every step must have this many vertices.
///
/// Raises
/// ------
/// ValueError
///     A wrong shape or dtype of ``F`` or ``edges``, a negative index, no
///     faces and no edges, a face repeating a vertex, an edge joining a
///     vertex to itself, or a bad option (with ``num_vertices`` given,
///     ``bodies`` that do not fit the mesh too).
#[pyclass(module = "ccdlab", name = "Pipeline", frozen)]
struct PyPipeline {
    faces: Vec<[u32; 3]>,
    /// The codimensional edges, as given (validated).
    edges: Vec<[u32; 2]>,
    options: Options,
    /// The mesh's vertex count, once known (readable while a step runs).
    num_vertices: OnceLock<usize>,
    /// What a step changes, held by one step at a time.
    state: Mutex<PipelineState>,
}

/// The part of a [`PyPipeline`] that its steps change.
struct PipelineState {
    /// Built by the first step (or at once, with `num_vertices`).
    mesh: Option<TriMesh>,
    inner: Pipeline,
    /// The worker pool (a forked child builds its own: the parent's
    /// workers do not exist in it).
    pool: Option<Workers>,
}

impl PyPipeline {
    /// The state, held to change it; a `RuntimeError` that says so when
    /// another thread is running one of its steps (the interpreter lock is
    /// released during a step, and a pipeline's steps follow one another).
    fn busy_checked(&self) -> PyResult<MutexGuard<'_, PipelineState>> {
        match self.state.try_lock() {
            Ok(state) => Ok(state),
            // A step that panicked (pyo3 raised it as an exception) may
            // have left its tree half refitted: the next step builds anew.
            Err(TryLockError::Poisoned(p)) => {
                let mut state = p.into_inner();
                state.inner.rebuild_next();
                self.state.clear_poison();
                Ok(state)
            }
            Err(TryLockError::WouldBlock) => Err(PyRuntimeError::new_err(
                "this Pipeline is running a step in another thread: a pipeline's steps follow \
                 one another (each refits the BVH of the one before); use one Pipeline per \
                 thread",
            )),
        }
    }
}

#[pymethods]
impl PyPipeline {
    #[new]
    #[pyo3(signature = (F, *, edges = None, k = IntOrStr::Int(26), filters = "slpf+dnf",
        window = true, time_aligned = BoolOrStr::Str("auto".to_string()), solver = "exact",
        threads = None, collect_pairs = false, min_distance = Distance(0.0), bodies = None,
        self_collision = SelfCollision::All(true), num_vertices = None),
        text_signature = "(F, *, edges=None, k=26, filters='slpf+dnf', window=True, \
            time_aligned='auto', solver='exact', threads=None, collect_pairs=False, \
            min_distance=0.0, bodies=None, self_collision=True, num_vertices=None)")]
    #[allow(non_snake_case, clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        F: &Bound<'_, PyAny>,
        edges: Option<&Bound<'_, PyAny>>,
        k: IntOrStr,
        filters: &str,
        window: bool,
        time_aligned: BoolOrStr,
        solver: &str,
        threads: Option<Threads>,
        collect_pairs: bool,
        min_distance: Distance,
        bodies: Option<&Bound<'_, PyAny>>,
        self_collision: SelfCollision,
        num_vertices: Option<usize>,
    ) -> PyResult<PyPipeline> {
        let options = Options::parse(
            k,
            filters,
            window,
            time_aligned,
            solver,
            threads,
            collect_pairs,
            min_distance,
            parse_bodies(bodies, self_collision, num_vertices)?,
        )?;
        let faces = faces(F, num_vertices, "F")?;
        let edges = codim_edges(edges, num_vertices)?;
        // No faces and no edges, a face repeating a vertex or an edge
        // joining one to itself is refused at once, not at the first step
        // (the indices' range needs the vertex count).
        let bound = faces.iter().flatten().chain(edges.iter().flatten());
        let bound = bound.max().map_or(0, |&i| i as usize + 1);
        check_mesh(num_vertices.unwrap_or(bound), &faces, &edges).map_err(|e| mesh_error(&e))?;
        let (mesh, pool) = match num_vertices {
            Some(n) => {
                let pool = thread_pool(options.threads)?;
                let mesh = build_mesh(py, &pool, n, faces.clone(), &edges)?;
                // Bodies that do not fit the mesh are refused at once too.
                if let Some(bodies) = &options.config.bodies {
                    bodies
                        .check(&mesh)
                        .map_err(|e| value_error(format!("bodies: {e}")))?;
                }
                (Some(mesh), Some(pool))
            }
            None => (None, None),
        };
        Ok(PyPipeline {
            faces,
            edges,
            num_vertices: num_vertices.map_or_else(OnceLock::new, OnceLock::from),
            state: Mutex::new(PipelineState {
                mesh,
                inner: Pipeline::new(options.config.clone()),
                pool,
            }),
            options,
        })
    }

    /// Runs one step, from ``V0`` (t = 0) to ``V1`` (t = 1).
    ///
    /// Parameters
    /// ----------
    /// V0, V1 : ndarray, shape (n, 3), float64, float32 or integer
    ///     Vertex positions (converted as for ``ccdlab.step``); n is the
    ///     mesh's vertex count (set by the first step unless given to the
    ///     constructor).
    ///
    /// Returns
    /// -------
    /// StepResult
    ///     As ``ccdlab.step``; ``report["bvh"]`` says whether this step built
    ///     or refitted the BVH.
    ///
    /// Raises
    /// ------
    /// ValueError
    ///     Bad frames, or frames of another vertex count than the mesh's.
    /// RuntimeError
    ///     The pipeline is running a step in another thread.
    #[allow(non_snake_case)]
    fn step(
        &self,
        py: Python<'_>,
        V0: &Bound<'_, PyAny>,
        V1: &Bound<'_, PyAny>,
    ) -> PyResult<StepResult> {
        let mut state = self.busy_checked()?;
        let PipelineState { mesh, inner, pool } = &mut *state;
        let (x_t0, x_t1) = frames(V0, V1, mesh.as_ref().map(TriMesh::num_vertices))?;
        if pool.as_ref().is_none_or(Workers::is_foreign) {
            // An inherited pool is leaked by its drop.
            *pool = Some(thread_pool(self.options.threads)?);
        }
        let pool = pool.as_ref().expect("built above");
        if mesh.is_none() {
            // Its topology checks the indices against the first step's count.
            let n = x_t0.len();
            *mesh = Some(build_mesh(py, pool, n, self.faces.clone(), &self.edges)?);
            let _ = self.num_vertices.set(n);
        }
        let mesh = mesh.as_ref().expect("built above");
        let outcome = run_step(py, pool, inner, mesh, &x_t0, &x_t1)?;
        StepResult::new(py, outcome, mesh, self.options.config.collect_pairs)
    }

    /// Makes the next step build its BVH anew instead of refitting it
    /// (after large deformations, say). Its result is a fresh step's.
    fn rebuild_next(&self) -> PyResult<()> {
        self.busy_checked()?.inner.rebuild_next();
        Ok(())
    }

    /// The configuration, as the keyword arguments that give it.
    #[getter]
    fn config<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.options.to_dict(py)
    }

    /// The mesh's triangles, int64 (m, 3), read-only (a copy: the
    /// pipeline's faces are fixed).
    #[getter]
    fn faces<'py>(&self, py: Python<'py>) -> PyResult<Py<PyAny>> {
        read_only(py, faces_array(py, &self.faces)?)
    }

    /// The mesh's codimensional edges as given, int64 (e, 2), read-only;
    /// None when none were given.
    #[getter]
    fn edges<'py>(&self, py: Python<'py>) -> PyResult<Option<Py<PyAny>>> {
        if self.edges.is_empty() {
            return Ok(None);
        }
        let flat = self.edges.iter().flatten().map(|&i| i64::from(i)).collect();
        Ok(Some(read_only(py, pairs_array(py, flat)?)?))
    }

    /// The mesh's vertex count, or None before the first step.
    #[getter]
    fn num_vertices(&self) -> Option<usize> {
        self.num_vertices.get().copied()
    }

    /// Pickling: the faces and the configuration (a new BVH is built by the
    /// unpickled pipeline's first step).
    fn __getnewargs_ex__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, PyDict>)> {
        let args = PyTuple::new(py, [faces_array(py, &self.faces)?])?;
        let kwargs = self.options.to_dict(py)?;
        kwargs.set_item("edges", self.edges(py)?)?;
        kwargs.set_item("num_vertices", self.num_vertices())?;
        Ok((args, kwargs))
    }

    fn __repr__(&self) -> String {
        let bodies = match &self.options.config.bodies {
            None => String::new(),
            Some(Bodies::Components) => ", self_collision=False".to_string(),
            Some(Bodies::StillObstacle) => ", self_collision=\"moving\"".to_string(),
            Some(Bodies::Labels(labels)) => format!(
                ", bodies=<{} labels>, self_collision={}",
                labels.of_vertex().len(),
                match labels.self_colliding() {
                    SelfColliding::All(true) => "True".to_string(),
                    SelfColliding::All(false) => "False".to_string(),
                    SelfColliding::Each(each) => format!("<{} bools>", each.len()),
                }
            ),
        };
        let edges = match self.edges.len() {
            0 => String::new(),
            n => format!(", {n} edges"),
        };
        format!(
            "Pipeline({} faces{edges}, k={}, filters={:?}, window={}, time_aligned={:?}, \
             solver={:?}, threads={}, min_distance={:?}{bodies})",
            self.faces.len(),
            self.options.config.axes.k(),
            self.options.config.filters.to_string(),
            if self.options.config.window {
                "True"
            } else {
                "False"
            },
            format!("{:?}", self.options.config.time_aligned).to_lowercase(),
            self.options.config.solver.name(),
            self.options
                .threads
                .map_or("None".to_string(), |n| n.to_string()),
            self.options.config.min_distance
        )
    }
}

/// Triangles as an int64 `(m, 3)` array.
fn faces_array(py: Python<'_>, faces: &[[u32; 3]]) -> PyResult<Py<PyAny>> {
    let flat: Vec<i64> = faces.iter().flatten().map(|&i| i64::from(i)).collect();
    let array = Array2::from_shape_vec((faces.len(), 3), flat)
        .map_err(|e| PyRuntimeError::new_err(format!("internal error: {e}")))?;
    Ok(array.into_pyarray(py).into_any().unbind())
}

// ---------------------------------------------------------------------------
// Files and topology

/// Reads a triangle mesh from a PLY (ASCII or binary) or OBJ file.
///
/// The file is checked as ``ccdlab step`` checks a frame: at least one
/// face or edge, indices in range, three distinct corners per face, two
/// distinct ends per edge, finite coordinates. float32 files are widened
/// exactly.
///
/// Parameters
/// ----------
/// path : str, bytes or os.PathLike
///     A ``.ply`` or ``.obj`` file (extension case-insensitive).
/// with_edges : bool, optional
///     Also return the file's codimensional edges (OBJ ``l`` polylines, a
///     PLY ``edge`` element: rods, hair), as ``ccdlab.step`` takes them.
///     Default False, which refuses a file that has some rather than drop
///     them.
///
/// Returns
/// -------
/// V : ndarray of float64, shape (n, 3)
///     Vertex positions.
/// F : ndarray of int64, shape (m, 3)
///     Triangles, 0-based vertex indices.
/// E : ndarray of int64, shape (e, 2)
///     With ``with_edges=True`` only: the edges, 0-based, as stored.
///
/// Raises
/// ------
/// OSError
///     The file cannot be read (FileNotFoundError when it does not exist,
///     IsADirectoryError for a folder).
/// ValueError
///     The file is malformed (the message names the file and the line or
///     element), or it has edges and ``with_edges`` is False.
/// TypeError
///     ``path`` is no path.
#[pyfunction]
#[pyo3(signature = (path, *, with_edges = false))]
fn read_mesh<'py>(
    py: Python<'py>,
    path: &Bound<'_, PyAny>,
    with_edges: bool,
) -> PyResult<Bound<'py, PyTuple>> {
    let path = path_argument(py, path, "path")?;
    if path.is_dir() {
        return Err(PyIsADirectoryError::new_err(format!(
            "{}: is a folder; read_mesh reads a .ply or .obj file",
            path.display()
        )));
    }
    let mesh = py
        .detach(|| read_frame(&path))
        .map_err(|e| library_error(&e))?;
    let flat: Vec<f64> = mesh
        .positions
        .iter()
        .flat_map(|p| [p.x, p.y, p.z])
        .collect();
    let v = Array2::from_shape_vec((mesh.positions.len(), 3), flat)
        .map_err(|e| PyRuntimeError::new_err(format!("internal error: {e}")))?;
    let (v, f) = (
        v.into_pyarray(py).into_any().unbind(),
        faces_array(py, &mesh.faces)?,
    );
    if with_edges {
        let flat = mesh.edges.iter().flatten().map(|&i| i64::from(i)).collect();
        return PyTuple::new(py, [v, f, pairs_array(py, flat)?]);
    }
    if !mesh.edges.is_empty() {
        return Err(value_error(format!(
            "{}: the file has edges in no face ({} of them: rods, hair, from OBJ `l` lines or a \
             PLY `edge` element); read_mesh(path, with_edges=True) returns them too, for \
             ccdlab.step(..., edges=E)",
            path.display(),
            mesh.edges.len()
        )));
    }
    PyTuple::new(py, [v, f])
}

/// The unique edges of a mesh: the triangles' in libigl's ``edges(F)``
/// order, then the codimensional ones.
///
/// Edge j is ``[min, max]``; the triangles' edges are sorted by their
/// larger vertex, then by the smaller one. This is the order of the data
/// sets' global IDs (edge j is ``#V + j``) and of ``StepResult.ee_pairs``.
/// The codimensional edges (``edges``, as ``ccdlab.step`` takes them)
/// follow in the order given, without the triangles' edges and repeats.
///
/// Parameters
/// ----------
/// F : ndarray, shape (m, 3), any integer dtype
///     Triangles, three distinct corners each.
/// edges : ndarray, shape (e, 2), any integer dtype, or None, optional
///     Codimensional edges (default None).
///
/// Returns
/// -------
/// ndarray of int64, shape (E, 2)
///
/// Raises
/// ------
/// ValueError
///     A wrong shape or dtype, a negative index, a face repeating a vertex,
///     an edge joining a vertex to itself, or no faces and no edges.
#[pyfunction]
#[pyo3(signature = (F, edges = None))]
#[allow(non_snake_case)]
fn edges(
    py: Python<'_>,
    F: &Bound<'_, PyAny>,
    edges: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let faces = faces(F, None, "F")?;
    let edges = codim_edges(edges, None)?;
    let num_vertices = faces
        .iter()
        .flatten()
        .chain(edges.iter().flatten())
        .map(|&i| i as usize + 1)
        .max()
        .unwrap_or(0);
    // The topology runs on two threads at most.
    let mesh = build_mesh(py, &*thread_pool(Some(2))?, num_vertices, faces, &edges)?;
    let flat: Vec<i64> = mesh
        .edges()
        .iter()
        .flatten()
        .map(|&i| i64::from(i))
        .collect();
    pairs_array(py, flat)
}

/// Scores a solver on query sets with ground truth, as ``ccdlab queries``.
///
/// Parameters
/// ----------
/// *paths : str, bytes or os.PathLike
///     Query CSVs, Sample-Queries scene folders, Scalable-CCD scene folders,
///     or folders holding several scenes (for example ``"datasets"``).
/// solver : {"exact", "cubic"}, optional
///     The solver to score (default "exact").
/// min_time_ms : int, optional
///     Minimum timed duration per query set, 0 to 60000 ms (default 50, as
///     the command line; 0: each set is solved once more for the timing).
/// min_distance : float, optional
///     ``--min-distance``: a minimum separation d >= 0 (default 0, contact
///     only). At d > 0 every query is also solved at d with the exact
///     minimum-separation solver (solver must be "exact"), timed beside
///     d = 0, and checked against the contact truth.
/// oracle : bool, optional
///     ``--oracle``: at d > 0, compare every verdict at d with the exact
///     oracle (slow: about a millisecond a query).
///
/// Returns
/// -------
/// dict
///     The JSON object of ``ccdlab queries --json``: ``solver``, ``sets``
///     (per set: path, kind, queries, positives, false_positives,
///     false_negatives, mean_ns, exact_fallbacks), ``total`` and ``stamp``.
///     At d > 0 also ``min_distance``, and per set and in ``total`` a
///     ``within`` dict: positives (at d), contact_misses and
///     later_than_contact (ground-truth contacts negative at d, or
///     bracketed later than their contact: both must be 0), mean_ns (at
///     d), exact_fallbacks, and with ``oracle`` oracle_disagreements (must
///     be 0). The report is returned whatever it says, as the command line
///     prints it; the command line's exit status is 1 where those counts
///     are not 0.
///
/// Raises
/// ------
/// OSError
///     A path that cannot be read.
/// ValueError
///     A malformed file, a path without query sets, a set without ground
///     truth, or a bad option (a min_distance that is negative, NaN or
///     infinite; a positive one with solver "cubic"; oracle at d = 0).
#[pyfunction]
#[pyo3(signature = (*paths, solver = "exact", min_time_ms = 50, min_distance = Distance(0.0), oracle = false),
    text_signature = "(*paths, solver='exact', min_time_ms=50, min_distance=0.0, oracle=False)")]
fn queries(
    py: Python<'_>,
    paths: &Bound<'_, PyTuple>,
    solver: &str,
    min_time_ms: i64,
    min_distance: Distance,
    oracle: bool,
) -> PyResult<Py<PyAny>> {
    let solver = parse_solver(solver)?;
    let Distance(min_distance) = min_distance;
    let within = WithinOptions {
        min_distance,
        oracle,
    }
    .check(solver)
    .map_err(|e| match e {
        ScoreError::Separation(e) => value_error(format!("min_distance: {e}")),
        ScoreError::NoSeparation(_) => value_error(format!(
            "solver: {e}; pass solver=\"exact\" with min_distance={min_distance:?}"
        )),
        ScoreError::OracleWithoutSeparation => value_error(format!("oracle: {e}")),
    })?;
    if !(0..=60_000).contains(&min_time_ms) {
        return Err(value_error(format!(
            "min_time_ms: {min_time_ms} is out of range; pass 0 to 60000"
        )));
    }
    let paths = query_paths(py, paths, "queries")?;
    let min_time = std::time::Duration::from_millis(min_time_ms as u64);
    let report = py.detach(|| -> Result<QueriesReport, PyErrText> {
        // Load everything first: a bad file fails before any scoring.
        // A set under two of the paths is scored once.
        let mut sets = Vec::new();
        for source in discover_query_sets_in(&paths).map_err(PyErrText::library)? {
            let set = load(&source).map_err(PyErrText::library)?;
            if set.truth.is_none() {
                return Err(PyErrText::Value(format!(
                    "{}: no ground truth to score against (a query CSV needs the seventh \
                     column; a Scalable-CCD set, its mma_bool/<name>_mma_bool.json)",
                    set.path.display()
                )));
            }
            sets.push(set);
        }
        let scores: Vec<SetScore> = sets
            .iter()
            .map(|s| score_within(s, solver, min_time, within))
            .collect::<Result<_, _>>()
            .map_err(|e| PyErrText::Value(e.to_string()))?;
        Ok(QueriesReport {
            solver,
            min_distance: (!within.is_contact()).then_some(within.min_distance),
            total: Totals::of(&scores),
            sets: scores,
            stamp: Stamp::new(1),
        })
    });
    match report {
        Ok(report) => to_dict(py, &report),
        Err(e) => Err(e.into_py_err()),
    }
}

/// The ground-truth query sets under some paths, as arrays: what
/// ``queries`` scores, for scoring another solver.
///
/// Parameters
/// ----------
/// *paths : str, bytes or os.PathLike
///     As for ``ccdlab.queries``: query CSVs, scene folders, or folders
///     holding several scenes (for example ``"datasets"``).
///
/// Returns
/// -------
/// list of dict
///     One per set, in ``queries``'s order: ``path`` (str), ``kind``
///     (``"vf"`` or ``"ee"``), ``queries`` (float64 (n, 8, 3), the eight
///     points in the data sets' order, as ``vertex_face_ccd_batch`` and
///     ``edge_edge_ccd_batch`` take them — v, f0, f1, f2 or ea0, ea1, eb0,
///     eb1 at t = 0, then the same at t = 1: the files' exact rationals
///     rounded to nearest, or a Scalable-CCD step's candidate pairs resolved
///     against its two frames) and ``truth`` (bool (n,), the exact answer:
///     they collide in [0, 1]; None for a set without one). Every set is
///     in memory at once.
///
/// Raises
/// ------
/// OSError
///     A path that cannot be read.
/// ValueError
///     A malformed file, or a path without query sets.
#[pyfunction]
#[pyo3(signature = (*paths))]
fn load_queries<'py>(
    py: Python<'py>,
    paths: &Bound<'py, PyTuple>,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let paths = query_paths(py, paths, "load_queries")?;
    let sets = py
        .detach(|| -> Result<Vec<QuerySet>, PyErrText> {
            let sources = discover_query_sets_in(&paths).map_err(PyErrText::library)?;
            sources
                .iter()
                .map(|source| load(source).map_err(PyErrText::library))
                .collect()
        })
        .map_err(PyErrText::into_py_err)?;
    let mut out = Vec::with_capacity(sets.len());
    for set in sets {
        let d = PyDict::new(py);
        d.set_item("path", set.path.to_string_lossy())?;
        d.set_item("kind", set.kind.suffix())?;
        let flat: Vec<f64> = (set.points.iter().flatten())
            .flat_map(|p| [p.x, p.y, p.z])
            .collect();
        let queries = numpy::ndarray::Array3::from_shape_vec((set.points.len(), 8, 3), flat)
            .map_err(|e| PyRuntimeError::new_err(format!("internal error: {e}")))?;
        let queries = queries.into_pyarray(py).into_any().unbind();
        d.set_item("queries", read_only(py, queries)?)?;
        match set.truth {
            Some(truth) => {
                let truth = truth.into_pyarray(py).into_any().unbind();
                d.set_item("truth", read_only(py, truth)?)?;
            }
            None => d.set_item("truth", py.None())?,
        }
        out.push(d);
    }
    Ok(out)
}

/// An error made while the interpreter lock is released, turned into a
/// Python exception once it is held again.
enum PyErrText {
    /// A library error (its kind is decided by [`library_error`]).
    Library(Box<dyn std::error::Error + Send + Sync>),
    /// A `ValueError`.
    Value(String),
}

impl PyErrText {
    fn library(e: impl std::error::Error + Send + Sync + 'static) -> PyErrText {
        PyErrText::Library(Box::new(e))
    }

    fn into_py_err(self) -> PyErr {
        match self {
            PyErrText::Library(e) => library_error(e.as_ref()),
            PyErrText::Value(m) => value_error(m),
        }
    }
}

/// Exact continuous collision detection (CCD) of deforming triangle meshes:
/// the native module of the ``ccdlab`` package.
#[pymodule]
mod _native {
    #[pymodule_export]
    use super::candidates::candidates;
    #[pymodule_export]
    use super::{
        _restore_step_result, PyPipeline, StepResult, edge_edge_ccd, edge_edge_ccd_batch, edges,
        has_intersections, intersections, load_queries, proximity, queries, read_mesh, step,
        vertex_face_ccd, vertex_face_ccd_batch,
    };
    use pyo3::prelude::*;

    #[pymodule_init]
    fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
        m.add("__version__", env!("CARGO_PKG_VERSION"))
    }
}
