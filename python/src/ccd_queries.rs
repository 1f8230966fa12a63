//! Single vertex–face and edge–edge queries and batches of them (in
//! parallel), in the data sets' argument order; contact, or within a
//! minimum separation `min_distance` (docs/design.md §5).

use ccdlab::math::Vec3;
use ccdlab::narrow_phase::{QueryKind, Toi};
use numpy::ndarray::Array1;
use numpy::{IntoPyArray, PyArray1};
use pyo3::prelude::*;

use crate::arrays::*;
use crate::options::*;
use crate::workers::map_interruptible;

/// Solves one query of `kind` given as eight array-likes.
pub(crate) fn solve_one(
    py: Python<'_>,
    kind: QueryKind,
    names: [&str; 8],
    args: [&Bound<'_, PyAny>; 8],
    solver: &str,
    min_distance: Distance,
) -> PyResult<Option<Py<PyAny>>> {
    let solver = QuerySolver::parse(solver, min_distance)?;
    let mut q = [Vec3::zeros(); 8];
    for ((p, arg), name) in q.iter_mut().zip(args).zip(names) {
        *p = point(arg, name)?;
    }
    let toi = py.detach(|| solver.solve(kind, &q));
    toi_object(py, toi)
}

type BatchResult<'py> = (
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray1<f64>>,
);

/// The fewest queries a worker of a batch takes at a time.
const QUERIES_PER_TASK: usize = 64;

/// How many queries a one-thread batch solves between two looks at the
/// clock ([`map_interruptible`]).
const CLOCK_EVERY: usize = 16;

/// Solves every query of an `(n, 8, 3)` array, in parallel (on the calling
/// thread when one suffices: `threads=1`, or a batch of at most
/// [`QUERIES_PER_TASK`] queries). Ctrl-C stops it with `KeyboardInterrupt`.
pub(crate) fn solve_batch<'py>(
    py: Python<'py>,
    kind: QueryKind,
    queries: &Bound<'py, PyAny>,
    solver: &str,
    min_distance: Distance,
    threads: Option<Threads>,
) -> PyResult<BatchResult<'py>> {
    let solver = QuerySolver::parse(solver, min_distance)?;
    let threads = parse_threads(threads)?;
    let qs = query_batch(queries, "queries")?;
    // On the calling thread the clock is read after every `CLOCK_EVERY`
    // queries: reading it costs about what the rest of the binding costs per
    // query, and a query that falls to the exact path takes well under a
    // millisecond, so a signal waits a few milliseconds more at most.
    let tois: Vec<Option<Toi>> =
        map_interruptible(py, &qs, threads, QUERIES_PER_TASK, CLOCK_EVERY, |q| {
            solver.solve(kind, q)
        })?;
    let hit: Array1<bool> = tois.iter().map(Option::is_some).collect();
    let lower: Array1<f64> = tois
        .iter()
        .map(|t| t.map_or(f64::NAN, |t| t.lower))
        .collect();
    let upper: Array1<f64> = tois
        .iter()
        .map(|t| t.map_or(f64::NAN, |t| t.upper))
        .collect();
    Ok((
        hit.into_pyarray(py),
        lower.into_pyarray(py),
        upper.into_pyarray(py),
    ))
}

/// Exact continuous collision detection of a vertex and a triangle.
///
/// The vertex and the triangle's corners move linearly from their positions
/// at t = 0 to those at t = 1. Arguments in the data sets' row order, each
/// a length-3 array-like of coordinates (float64; float32 widened exactly;
/// integers of magnitude at most 2**53 converted exactly, larger ones refused).
///
/// Parameters
/// ----------
/// v_t0, f0_t0, f1_t0, f2_t0 : array_like, shape (3,)
///     The vertex and the triangle's corners at t = 0.
/// v_t1, f0_t1, f1_t1, f2_t1 : array_like, shape (3,)
///     The same at t = 1.
/// solver : {"exact", "cubic"}, optional
///     "exact" (default): the verdict is the exact one (no false negatives,
///     no false positives). "cubic": the floating-point cubic method of
///     Provot 1997, which can miss contacts.
/// min_distance : float, optional
///     A minimum separation d >= 0 (default 0: contact). At d > 0 the
///     query is positive when, for some t in [0, 1], the vertex is within
///     Euclidean distance d of the closed triangle; the verdict is exact
///     (the solver must be "exact"). d = 0 gives the contact answer, bit
///     for bit.
///
/// Returns
/// -------
/// Toi or None
///     None when they do not touch (come within d) for any t in [0, 1];
///     otherwise the earliest such time as a bracket ``Toi(lower, upper)``
///     that holds it with solver="exact" (``lower`` is never later than
///     the true time); the "cubic" baseline's is an estimate that may miss
///     it.
///
/// Raises
/// ------
/// ValueError
///     A point that is not 3 finite coordinates, an unknown solver, a
///     min_distance that is negative, NaN or infinite, or a positive one
///     with solver "cubic".
#[pyfunction]
#[pyo3(signature = (v_t0, f0_t0, f1_t0, f2_t0, v_t1, f0_t1, f1_t1, f2_t1, *, solver = "exact", min_distance = Distance(0.0)),
    text_signature = "(v_t0, f0_t0, f1_t0, f2_t0, v_t1, f0_t1, f1_t1, f2_t1, *, solver='exact', min_distance=0.0)")]
#[allow(clippy::too_many_arguments)]
pub(crate) fn vertex_face_ccd(
    py: Python<'_>,
    v_t0: &Bound<'_, PyAny>,
    f0_t0: &Bound<'_, PyAny>,
    f1_t0: &Bound<'_, PyAny>,
    f2_t0: &Bound<'_, PyAny>,
    v_t1: &Bound<'_, PyAny>,
    f0_t1: &Bound<'_, PyAny>,
    f1_t1: &Bound<'_, PyAny>,
    f2_t1: &Bound<'_, PyAny>,
    solver: &str,
    min_distance: Distance,
) -> PyResult<Option<Py<PyAny>>> {
    solve_one(
        py,
        QueryKind::VertexFace,
        [
            "v_t0", "f0_t0", "f1_t0", "f2_t0", "v_t1", "f0_t1", "f1_t1", "f2_t1",
        ],
        [v_t0, f0_t0, f1_t0, f2_t0, v_t1, f0_t1, f1_t1, f2_t1],
        solver,
        min_distance,
    )
}

/// Exact continuous collision detection of two edges.
///
/// Both edges' end points move linearly from their positions at t = 0 to
/// those at t = 1. Arguments in the data sets' row order, each a length-3
/// array-like of coordinates (float64; float32 widened exactly; integers of
/// magnitude at most 2**53 converted exactly, larger ones refused).
///
/// Parameters
/// ----------
/// ea0_t0, ea1_t0, eb0_t0, eb1_t0 : array_like, shape (3,)
///     Edge a's and edge b's end points at t = 0.
/// ea0_t1, ea1_t1, eb0_t1, eb1_t1 : array_like, shape (3,)
///     The same at t = 1.
/// solver : {"exact", "cubic"}, optional
///     "exact" (default, no false negatives or positives) or "cubic"
///     (Provot 1997, the floating-point baseline).
/// min_distance : float, optional
///     A minimum separation d >= 0 (default 0: contact). At d > 0 the
///     query is positive when, for some t in [0, 1], the two closed
///     segments come within Euclidean distance d; exact, with solver
///     "exact" only. d = 0 gives the contact answer, bit for bit.
///
/// Returns
/// -------
/// Toi or None
///     None when the edges do not touch (come within d) for any t in
///     [0, 1]; otherwise ``Toi(lower, upper)``, a bracket of the earliest
///     such time.
///
/// Raises
/// ------
/// ValueError
///     A point that is not 3 finite coordinates, an unknown solver, a
///     min_distance that is negative, NaN or infinite, or a positive one
///     with solver "cubic".
#[pyfunction]
#[pyo3(signature = (ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1, *, solver = "exact", min_distance = Distance(0.0)),
    text_signature = "(ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1, *, solver='exact', min_distance=0.0)")]
#[allow(clippy::too_many_arguments)]
pub(crate) fn edge_edge_ccd(
    py: Python<'_>,
    ea0_t0: &Bound<'_, PyAny>,
    ea1_t0: &Bound<'_, PyAny>,
    eb0_t0: &Bound<'_, PyAny>,
    eb1_t0: &Bound<'_, PyAny>,
    ea0_t1: &Bound<'_, PyAny>,
    ea1_t1: &Bound<'_, PyAny>,
    eb0_t1: &Bound<'_, PyAny>,
    eb1_t1: &Bound<'_, PyAny>,
    solver: &str,
    min_distance: Distance,
) -> PyResult<Option<Py<PyAny>>> {
    solve_one(
        py,
        QueryKind::EdgeEdge,
        [
            "ea0_t0", "ea1_t0", "eb0_t0", "eb1_t0", "ea0_t1", "ea1_t1", "eb0_t1", "eb1_t1",
        ],
        [
            ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1,
        ],
        solver,
        min_distance,
    )
}

/// Vertex–face CCD of many queries at once, in parallel.
///
/// Parameters
/// ----------
/// queries : ndarray, shape (n, 8, 3), float64, float32 or integer (as the single query)
///     Query i's eight points in the data sets' row order (v_t0, f0_t0,
///     f1_t0, f2_t0, v_t1, f0_t1, f1_t1, f2_t1). C or Fortran order.
/// solver : {"exact", "cubic"}, optional
///     As for ``vertex_face_ccd``.
/// min_distance : float, optional
///     As for ``vertex_face_ccd``: a minimum separation d >= 0 (default 0,
///     contact).
/// threads : int or None, optional
///     Worker threads, 1 to 1024; None (default): all logical CPUs. At
///     most one per 64 queries: a batch of 64 or fewer runs on the
///     calling thread.
///
/// Returns
/// -------
/// hit : ndarray of bool, shape (n,)
///     Whether query i collides (comes within d) in [0, 1].
/// toi_lower, toi_upper : ndarray of float64, shape (n,)
///     The bracket of the earliest time of impact; NaN where no hit.
///
/// Raises
/// ------
/// ValueError
///     A wrong shape or dtype, a non-finite coordinate (named by query and
///     point), an unknown solver, a bad min_distance (as for the single
///     query), or a thread count out of range.
/// KeyboardInterrupt
///     Ctrl-C (or any exception a signal handler raises, which is raised
///     instead) stops the batch when called from the main thread.
#[pyfunction]
#[pyo3(signature = (queries, *, solver = "exact", min_distance = Distance(0.0), threads = None),
    text_signature = "(queries, *, solver='exact', min_distance=0.0, threads=None)")]
pub(crate) fn vertex_face_ccd_batch<'py>(
    py: Python<'py>,
    queries: &Bound<'py, PyAny>,
    solver: &str,
    min_distance: Distance,
    threads: Option<Threads>,
) -> PyResult<BatchResult<'py>> {
    solve_batch(
        py,
        QueryKind::VertexFace,
        queries,
        solver,
        min_distance,
        threads,
    )
}

/// Edge–edge CCD of many queries at once, in parallel.
///
/// Parameters
/// ----------
/// queries : ndarray, shape (n, 8, 3), float64, float32 or integer (as the single query)
///     Query i's eight points in the data sets' row order (ea0_t0, ea1_t0,
///     eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1). C or Fortran order.
/// solver : {"exact", "cubic"}, optional
///     As for ``edge_edge_ccd``.
/// min_distance : float, optional
///     As for ``edge_edge_ccd``: a minimum separation d >= 0 (default 0,
///     contact).
/// threads : int or None, optional
///     Worker threads, 1 to 1024; None (default): all logical CPUs. At
///     most one per 64 queries: a batch of 64 or fewer runs on the
///     calling thread.
///
/// Returns
/// -------
/// hit : ndarray of bool, shape (n,)
///     Whether query i collides (comes within d) in [0, 1].
/// toi_lower, toi_upper : ndarray of float64, shape (n,)
///     The bracket of the earliest time of impact; NaN where no hit.
///
/// Raises
/// ------
/// ValueError
///     A wrong shape or dtype, a non-finite coordinate (named by query and
///     point), an unknown solver, a bad min_distance (as for the single
///     query), or a thread count out of range.
/// KeyboardInterrupt
///     Ctrl-C (or any exception a signal handler raises, which is raised
///     instead) stops the batch when called from the main thread.
#[pyfunction]
#[pyo3(signature = (queries, *, solver = "exact", min_distance = Distance(0.0), threads = None),
    text_signature = "(queries, *, solver='exact', min_distance=0.0, threads=None)")]
pub(crate) fn edge_edge_ccd_batch<'py>(
    py: Python<'py>,
    queries: &Bound<'py, PyAny>,
    solver: &str,
    min_distance: Distance,
    threads: Option<Threads>,
) -> PyResult<BatchResult<'py>> {
    solve_batch(
        py,
        QueryKind::EdgeEdge,
        queries,
        solver,
        min_distance,
        threads,
    )
}
