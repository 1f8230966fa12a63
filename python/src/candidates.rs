//! `ccdlab.candidates`: the pairs of a step that reach the exact test
//! (`ccdlab::pipeline::Pipeline::candidates`), as arrays, with their points
//! when asked for: what a researcher gives another narrow phase or filter.

use ccdlab::harness::memory::MeasuredStep;
use ccdlab::math::Vec3;
use ccdlab::mesh::Step;
use ccdlab::pipeline::Pipeline;
use numpy::IntoPyArray;
use numpy::ndarray::Array3;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rayon::prelude::*;

use crate::arrays::{pairs_array, read_only, to_dict, value_error};
use crate::options::{BoolOrStr, Distance, IntOrStr, Options, SelfCollision, Threads};
use crate::step_inputs;
use crate::workers::run_interruptible;

/// The candidate pairs of one step that reach the exact test: those the
/// BVH finds and the filters pass, listed instead of tested.
///
/// A step with the same options decides exactly these pairs; tested one by
/// one with the exact solver (``vertex_face_ccd_batch`` and
/// ``edge_edge_ccd_batch`` on ``vf_points`` and ``ee_points``, with
/// ``min_distance``) they give its colliding pairs. They are the pairs to
/// give another narrow phase, or a filter of one's own, to compare it with
/// the exact one on a real step. The codimensional points' pairs are not
/// listed.
///
/// Parameters
/// ----------
/// V0, V1, F, edges, k, filters, window, time_aligned, threads, min_distance, bodies, self_collision
///     As for ``ccdlab.step`` (the same defaults): ``filters="none",
///     window=False`` lists every pair the BVH finds; with
///     ``time_aligned="auto"`` (the default) the BVH may prune pairs by
///     their motion, and ``time_aligned=False`` lists the paper's BVH
///     candidates.
/// points : bool, optional
///     Also return each pair's eight points (default False).
///
/// Returns
/// -------
/// dict
///     ``"vf"``: int64 (n, 2) rows ``(vertex, face)``; ``"ee"``: int64
///     (m, 2) rows ``(edge, edge)``, indices into ``ccdlab.edges(F, edges)``,
///     the smaller first; each ascending. ``"report"``: the step's report
///     (``StepResult.report``) of what ran and what each stage removed:
///     ``report["vf"]["candidates"]`` pairs from the BVH,
///     ``culled_slpf``, ``culled_dnf``, ``culled_window``; nothing was
///     tested, so ``colliding`` is 0 and ``toi`` None. With
///     ``points=True``, ``"vf_points"`` (n, 8, 3) and ``"ee_points"``
///     (m, 8, 3) float64: each pair's points in the data sets' order (the
///     vertex and the face's corners, or the two edges' ends, at t = 0, then
///     at t = 1), as the batch queries take them.
///
/// Raises
/// ------
/// ValueError
///     As ``ccdlab.step``; more than 2**26 pairs to list.
#[pyfunction]
#[pyo3(signature = (V0, V1, F, *, edges = None, k = IntOrStr::Int(26), filters = "slpf+dnf",
    window = true, time_aligned = BoolOrStr::Str("auto".to_string()), threads = None,
    min_distance = Distance(0.0), bodies = None, self_collision = SelfCollision::All(true),
    points = false),
    text_signature = "(V0, V1, F, *, edges=None, k=26, filters='slpf+dnf', window=True, \
        time_aligned='auto', threads=None, min_distance=0.0, bodies=None, self_collision=True, \
        points=False)")]
#[allow(non_snake_case, clippy::too_many_arguments)]
pub(crate) fn candidates<'py>(
    py: Python<'py>,
    V0: &Bound<'py, PyAny>,
    V1: &Bound<'py, PyAny>,
    F: &Bound<'py, PyAny>,
    edges: Option<&Bound<'py, PyAny>>,
    k: IntOrStr,
    filters: &str,
    window: bool,
    time_aligned: BoolOrStr,
    threads: Option<Threads>,
    min_distance: Distance,
    bodies: Option<&Bound<'py, PyAny>>,
    self_collision: SelfCollision,
    points: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let mut options = Options::parse(
        k,
        filters,
        window,
        time_aligned,
        "exact",
        threads,
        false,
        min_distance,
        None,
    )?;
    let (x_t0, x_t1, mesh, pool) =
        step_inputs(py, V0, V1, F, edges, bodies, self_collision, &mut options)?;
    let step = Step::new(&mesh, &x_t0, &x_t1).map_err(|e| value_error(e.to_string()))?;
    let mut pipeline = Pipeline::new(options.config);
    let found = run_interruptible(py, &pool, |cancel| {
        pipeline.candidates_cancellable(&step, cancel)
    })?
    .map_err(|e| value_error(e.to_string()))?;
    let out = PyDict::new(py);
    let vf: Vec<i64> = (found.vertex_face.iter())
        .flat_map(|p| [i64::from(p.v), i64::from(p.f)])
        .collect();
    let ee: Vec<i64> = (found.edge_edge.iter())
        .flat_map(|p| [i64::from(p.e0), i64::from(p.e1)])
        .collect();
    out.set_item("vf", read_only(py, pairs_array(py, vf)?)?)?;
    out.set_item("ee", read_only(py, pairs_array(py, ee)?)?)?;
    if points {
        // Gathered in parallel with the interpreter lock released.
        let (vf_points, ee_points) = py.detach(|| {
            pool.install(|| {
                let vf = (found.vertex_face.par_iter())
                    .flat_map_iter(|p| flat(step.vertex_face_points(p.v, p.f)))
                    .collect::<Vec<f64>>();
                let ee = (found.edge_edge.par_iter())
                    .flat_map_iter(|p| flat(step.edge_edge_points(p.e0, p.e1)))
                    .collect::<Vec<f64>>();
                (vf, ee)
            })
        });
        out.set_item("vf_points", read_only(py, points_array(py, vf_points)?)?)?;
        out.set_item("ee_points", read_only(py, points_array(py, ee_points)?)?)?;
    }
    out.set_item("report", to_dict(py, &MeasuredStep::now(found.report))?)?;
    Ok(out)
}

/// A query's eight points, their coordinates one after another.
fn flat(q: [Vec3; 8]) -> impl Iterator<Item = f64> {
    q.into_iter().flat_map(|p| [p.x, p.y, p.z])
}

/// Queries' coordinates, 24 per query, as an `(n, 8, 3)` float64 array.
fn points_array(py: Python<'_>, flat: Vec<f64>) -> PyResult<Py<PyAny>> {
    let n = flat.len() / 24;
    let array = Array3::from_shape_vec((n, 8, 3), flat)
        .map_err(|e| PyRuntimeError::new_err(format!("internal error: {e}")))?;
    Ok(array.into_pyarray(py).into_any().unbind())
}
