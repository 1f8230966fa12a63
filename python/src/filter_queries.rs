//! `ccdlab.vertex_face_filter_batch` and `ccdlab.edge_edge_filter_batch`:
//! which of the pipeline's filters culls each pair of a batch
//! (`ccdlab::filter::FilterSet::cull`), to compare a filter of one's own
//! with the paper's pair by pair (docs/design.md §2).

use std::str::FromStr;

use ccdlab::filter::{CulledBy, FilterSet, PAPER_DIRECTIONS};
use ccdlab::narrow_phase::QueryKind;
use numpy::ndarray::Array1;
use numpy::{IntoPyArray, PyArray1, PyFixedUnicode};
use pyo3::prelude::*;

use crate::arrays::{query_batch, value_error};
use crate::options::{Distance, Threads, parse_min_distance, parse_threads};
use crate::workers::map_interruptible;

/// A filter's name as a numpy `<U6` element: `""` for a pair no filter
/// culls.
type Name = PyFixedUnicode<NAME_WIDTH>;
const NAME_WIDTH: usize = 6;

// Every filter's name fits the element (a longer one would be cut short).
const _: () = {
    let mut i = 0;
    while i < CulledBy::ALL.len() {
        assert!(
            CulledBy::ALL[i].name().len() <= NAME_WIDTH,
            "a filter's name is longer than NAME_WIDTH"
        );
        i += 1;
    }
};

fn name(by: Option<CulledBy>) -> Name {
    let text = by.map_or("", CulledBy::name);
    let mut out = [0; NAME_WIDTH];
    for (o, c) in out.iter_mut().zip(text.chars()) {
        *o = c as u32;
    }
    PyFixedUnicode(out)
}

/// The fewest queries a worker of a batch takes at a time (the filters'
/// cost per query is small and bounded: on the calling thread the clock is
/// read every 64).
const QUERIES_PER_TASK: usize = 256;

/// Runs the filters on every query of an `(n, 8, 3)` array, in parallel (on
/// the calling thread when one suffices). Ctrl-C stops it with
/// `KeyboardInterrupt`.
fn cull_batch<'py>(
    py: Python<'py>,
    kind: QueryKind,
    queries: &Bound<'py, PyAny>,
    filters: &str,
    window: bool,
    min_distance: Distance,
    threads: Option<Threads>,
) -> PyResult<Bound<'py, PyArray1<Name>>> {
    let filters = FilterSet::from_str(filters).map_err(|e| value_error(format!("filters: {e}")))?;
    let d = parse_min_distance(min_distance)?;
    let threads = parse_threads(threads)?;
    let qs = query_batch(queries, "queries")?;
    let culled: Vec<Option<CulledBy>> =
        map_interruptible(py, &qs, threads, QUERIES_PER_TASK, 64, |q| {
            filters.cull(kind, &PAPER_DIRECTIONS, window, d, q)
        })?;
    Ok(culled
        .into_iter()
        .map(name)
        .collect::<Array1<Name>>()
        .into_pyarray(py))
}

/// Which of the pipeline's filters culls each vertex–face query of a batch.
///
/// The filters run as ``ccdlab.step`` runs them on its candidates: SLPF on
/// the paper's five directions, then DNF and, with ``window``, the
/// coplanar-window filter; at ``min_distance`` d > 0, SLPF is left out and
/// DNF and the window test within d. A culled pair provably does not touch
/// (come within d) on [0, 1]; a pair that passes may or may not. Here SLPF
/// bounds each pair's rounding by its own differences, where a step bounds
/// it per direction over the whole mesh, so on pairs within about 1e-15 of
/// the mesh's largest coordinate magnitude of touching (wherever in the
/// mesh that coordinate is) the two can differ; DNF's and the window's
/// verdicts are a step's.
///
/// Parameters
/// ----------
/// queries : ndarray, shape (n, 8, 3), float64, float32 or integer
///     As for ``vertex_face_ccd_batch`` (the vertex and the face's corners
///     at t = 0, then at t = 1): ``candidates(..., points=True)["vf_points"]``
///     gives a real step's.
/// filters : {"slpf+dnf", "slpf", "dnf", "none"}, optional
///     As for ``step`` (default "slpf+dnf").
/// window : bool, optional
///     Run the coplanar-window filter after them (default True).
/// min_distance : float, optional
///     A minimum separation d >= 0 (default 0: contact).
/// threads : int or None, optional
///     Worker threads, 1 to 1024; None (default): all logical CPUs. At
///     most one per 256 queries: a batch of 256 or fewer runs on the
///     calling thread.
///
/// Returns
/// -------
/// ndarray of str (``<U6``), shape (n,)
///     The filter that culled query i: ``"slpf"``, ``"dnf"`` or
///     ``"window"``; ``""`` where none did.
///
/// Raises
/// ------
/// ValueError
///     A wrong shape or dtype, a non-finite coordinate (named by query and
///     point), an unknown filter setting, a min_distance that is negative,
///     NaN or infinite, or a thread count out of range.
/// KeyboardInterrupt
///     Ctrl-C stops the batch when called from the main thread.
#[pyfunction]
#[pyo3(signature = (queries, *, filters = "slpf+dnf", window = true, min_distance = Distance(0.0), threads = None),
    text_signature = "(queries, *, filters='slpf+dnf', window=True, min_distance=0.0, threads=None)")]
pub(crate) fn vertex_face_filter_batch<'py>(
    py: Python<'py>,
    queries: &Bound<'py, PyAny>,
    filters: &str,
    window: bool,
    min_distance: Distance,
    threads: Option<Threads>,
) -> PyResult<Bound<'py, PyArray1<Name>>> {
    cull_batch(
        py,
        QueryKind::VertexFace,
        queries,
        filters,
        window,
        min_distance,
        threads,
    )
}

/// Which of the pipeline's filters culls each edge–edge query of a batch.
///
/// As ``vertex_face_filter_batch``, for queries in the order of
/// ``edge_edge_ccd_batch`` (edge a's and edge b's ends at t = 0, then at
/// t = 1; ``candidates(..., points=True)["ee_points"]``).
///
/// Parameters
/// ----------
/// queries : ndarray, shape (n, 8, 3), float64, float32 or integer
///     The queries.
/// filters, window, min_distance, threads
///     As for ``vertex_face_filter_batch``.
///
/// Returns
/// -------
/// ndarray of str (``<U6``), shape (n,)
///     ``"slpf"``, ``"dnf"``, ``"window"``, or ``""`` where no filter culled.
///
/// Raises
/// ------
/// ValueError, KeyboardInterrupt
///     As for ``vertex_face_filter_batch``.
#[pyfunction]
#[pyo3(signature = (queries, *, filters = "slpf+dnf", window = true, min_distance = Distance(0.0), threads = None),
    text_signature = "(queries, *, filters='slpf+dnf', window=True, min_distance=0.0, threads=None)")]
pub(crate) fn edge_edge_filter_batch<'py>(
    py: Python<'py>,
    queries: &Bound<'py, PyAny>,
    filters: &str,
    window: bool,
    min_distance: Distance,
    threads: Option<Threads>,
) -> PyResult<Bound<'py, PyArray1<Name>>> {
    cull_batch(
        py,
        QueryKind::EdgeEdge,
        queries,
        filters,
        window,
        min_distance,
        threads,
    )
}
