//! A mesh at one instant: `ccdlab.intersections`, `has_intersections` and
//! `proximity`.

use super::*;

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
///     As ``ccdlab.step`` for bad positions, faces or edges; more than
///     2**26 pairs to list (thousands of coincident points, say;
///     ``ccdlab.has_intersections`` has no bound).
#[pyfunction]
#[pyo3(signature = (V, F, *, edges = None, threads = None))]
#[allow(non_snake_case)]
pub(crate) fn intersections<'py>(
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
pub(crate) fn has_intersections(
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
/// one instant, exactly: the active set of a barrier.
///
/// Vertex–face, edge–edge and the codimensional points' pairs (features
/// that share a vertex are never paired) whose Euclidean distance is at
/// most ``d``: the colliding pairs of ``ccdlab.step(V, V, F,
/// min_distance=d)``, decided at rest. Exact for every float64 input.
/// These are pairs of primitives, as the IPC Toolkit's candidates within
/// ``dhat``; its collisions then merge the pairs whose closest points are
/// the same vertex–edge or vertex–vertex pair (a vertex nearest to an edge
/// of two faces: two vertex–face pairs here, one edge–vertex collision
/// there), so a barrier summed over these pairs weighs such a contact once
/// per pair. A simulation that keeps a ``Pipeline`` asks it
/// (``Pipeline.proximity``) to refit one BVH from call to call.
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
/// distances : bool, optional
///     Also give each pair's Euclidean distance (what a barrier weighs it
///     by), computed in float64: true up to rounding, not certified (the
///     set of pairs is what is exact).
///
/// Returns
/// -------
/// dict
///     ``"vf"``, ``"ee"``, ``"ve"``, ``"vv"``: int64 (m, 2) pairs within
///     ``d``, indexed as ``StepResult.vf_pairs`` and the others. Each
///     ascending. With ``distances=True``, also ``"vf_distance"`` and the
///     others: float64 (m,), one per pair, in the same order.
///
/// Raises
/// ------
/// ValueError
///     As ``ccdlab.step`` for bad positions, faces, edges or bodies; a
///     negative or non-finite ``d``; more than 2**26 pairs to list (``d``
///     as large as the mesh, say; 64 million pairs took 7 GB at peak), where
///     ``ccdlab.step(V, V, F, min_distance=d)`` counts them without a bound.
#[pyfunction]
#[pyo3(signature = (V, F, d, *, edges = None, bodies = None,
    self_collision = SelfCollision::All(true), threads = None, distances = false),
    text_signature = "(V, F, d, *, edges=None, bodies=None, self_collision=True, threads=None, \
    distances=False)")]
#[allow(non_snake_case, clippy::too_many_arguments)]
pub(crate) fn proximity<'py>(
    py: Python<'py>,
    V: &Bound<'py, PyAny>,
    F: &Bound<'py, PyAny>,
    d: &Bound<'py, PyAny>,
    edges: Option<&Bound<'py, PyAny>>,
    bodies: Option<&Bound<'py, PyAny>>,
    self_collision: SelfCollision,
    threads: Option<Threads>,
    distances: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let d = proximity_distance(float_not_bool(d.as_borrowed(), "d")?)
        .map_err(|e| value_error(format!("d: {e}")))?;
    let bodies = parse_bodies(bodies, self_collision, None)?;
    if bodies == Some(Bodies::StillObstacle) {
        return Err(value_error(PROXIMITY_NO_MOTION));
    }
    let options = ProximityOptions {
        collect_pairs: true,
        bodies,
    };
    let (mesh, (found, measured)) =
        static_intersections(py, V, F, edges, threads, |mesh, x, cancel| {
            let found = proximity_with(mesh, x, d, &options, Some(cancel))?;
            let measured = distances.then(|| found.distances(mesh, x));
            Ok((found, measured))
        })?;
    proximity_dict(py, &found, measured, &mesh)
}

/// The refusal of `self_collision="moving"` by [`proximity`] and
/// `Pipeline.proximity`.
pub(crate) const PROXIMITY_NO_MOTION: &str = "self_collision: \"moving\" makes what does not \
    move in a step the obstacle, and at one instant nothing moves; pass bodies= with a bool per \
    body";

/// The dict of [`proximity`] (and `Pipeline.proximity`): the pairs by kind
/// and, when `measured`, their distances in the same order.
pub(crate) fn proximity_dict<'py>(
    py: Python<'py>,
    found: &Proximity,
    measured: Option<Vec<f64>>,
    mesh: &TriMesh,
) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    let pairs = pairs_by_kind(&found.pairs, mesh)?;
    const NAMES: [&str; 4] = ["vf", "ee", "ve", "vv"];
    for (name, (ids, _)) in NAMES.into_iter().zip(pairs) {
        out.set_item(name, read_only(py, pairs_array(py, ids)?)?)?;
    }
    if let Some(measured) = measured {
        let mut by_kind: [Vec<f64>; 4] = Default::default();
        for (p, r) in found.pairs.iter().zip(measured) {
            by_kind[kind_of(p, mesh)?.0].push(r);
        }
        for (name, r) in NAMES.into_iter().zip(by_kind) {
            let array = r.into_pyarray(py).into_any().unbind();
            out.set_item(format!("{name}_distance"), read_only(py, array)?)?;
        }
    }
    Ok(out)
}

/// The mesh of [`intersections`], [`has_intersections`] and [`proximity`]
/// (checked as for [`crate::pipeline::step`]) and what `find` answers for it, on a pool of `threads` with
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
    let mesh = build_mesh(py, &pool, (x.len(), "V"), faces, &edges)?;
    let found = run_interruptible(py, &pool, |cancel| find(&mesh, &x, cancel))?.map_err(|e| {
        value_error(match e {
            // These functions always list their pairs: the library's
            // advice (counts only) is not theirs to take.
            PipelineError::TooManyPairs { limit } => format!(
                "more than {limit} pairs to list (the bound on a step's lists); \
                 ccdlab.step(V, V, F, min_distance=d) counts them without listing, \
                 and ccdlab.has_intersections(V, F) says whether any touch"
            ),
            e => e.to_string(),
        })
    })?;
    Ok((mesh, found))
}
