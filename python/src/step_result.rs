//! `ccdlab.StepResult`: the result of a step as Python sees it (arrays of
//! mesh indices, brackets, the report), and its pickling.

use super::*;

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
#[pyclass(module = "ccdlab", name = "StepResult", frozen, weakref)]
pub(crate) struct StepResult {
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
    pub(crate) fn new(
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
pub(crate) fn pairs_by_kind(pairs: &[ContactPair], mesh: &TriMesh) -> PyResult<[KindPairs; 4]> {
    let mut out: [KindPairs; 4] = Default::default();
    for p in pairs {
        let (kind, ids) = kind_of(p, mesh)?;
        out[kind].0.extend(ids.map(i64::from));
        out[kind].1.extend([p.toi_lower, p.toi_upper]);
    }
    Ok(out)
}

/// A pair's kind (0 vertex–face, 1 edge–edge, 2 point–edge, 3
/// point–point) and its two local indices of `mesh`.
pub(crate) fn kind_of(p: &ContactPair, mesh: &TriMesh) -> PyResult<(usize, [u32; 2])> {
    Ok(if let Some((v, f)) = p.vertex_face(mesh) {
        (0, [v, f])
    } else if let Some((a, b)) = p.edge_edge(mesh) {
        (1, [a, b])
    } else if let Some((v, e)) = p.vertex_edge(mesh) {
        (2, [v, e])
    } else if let Some((v, w)) = p.vertex_vertex(mesh) {
        (3, [v, w])
    } else {
        return Err(PyRuntimeError::new_err(format!(
            "internal error: pair IDs ({}, {}) are no vertex–face or edge–edge pair of the mesh",
            p.a, p.b
        )));
    })
}

#[pymethods]
impl StepResult {
    /// Earliest time of impact: a lower bound that may equal the true time
    /// (with solver="exact"; the "cubic" baseline's is an estimate); 0.0
    /// when a pair touches, or is within min_distance, at t = 0; None
    /// without contact.
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

    /// Colliding (edge, edge) pairs, int64 (m, 2), edges in
    /// ``edges(F, edges)`` order; None unless collected.
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

    /// Colliding (point, point) pairs, int64 (m, 2), the smaller vertex
    /// first; None unless collected.
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

    /// The step's report: the JSON object of ``ccdlab step --json``, a new
    /// copy at each access (changing it leaves the result as it was).
    #[getter]
    fn report(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let copy = py
            .import("copy")?
            .call_method1("deepcopy", (&self.report,))?;
        Ok(copy.unbind())
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
                self.report.clone_ref(py).into_bound(py),
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
        // The shortest digits that read back as the double (`0.0`, not `0e0`).
        let toi = self.toi.map_or("None".to_string(), |t| format!("{t:?}"));
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
pub(crate) fn _restore_step_result(
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
