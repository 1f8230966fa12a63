//! Files and their arguments: `ccdlab.read_mesh`, `edges` (libigl's edge
//! order), and the ground-truth query sets, scored (`queries`) or as arrays
//! (`load_queries`).

use super::*;

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
pub(crate) fn read_mesh<'py>(
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
            "{}: the file lists edges ({} of them, from OBJ `l` lines or a PLY `edge` element: \
             rods, hair, or faces' edges); read_mesh(path, with_edges=True) returns them too, for \
             ccdlab.step(..., edges=E), which drops those that are faces' edges",
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
///     or an edge joining a vertex to itself.
#[pyfunction]
#[pyo3(signature = (F, edges = None))]
#[allow(non_snake_case)]
pub(crate) fn edges(
    py: Python<'_>,
    F: &Bound<'_, PyAny>,
    edges: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let faces = faces(F, None, "F")?;
    let edges = codim_edges(edges, None)?;
    // The mesh over the vertices used, numbered in their order (so that the
    // edges come in the same order): its memory is that of the faces and
    // edges, whatever the largest index.
    let mut ids: Vec<u32> = faces
        .iter()
        .flatten()
        .chain(edges.iter().flatten())
        .copied()
        .collect();
    ids.sort_unstable();
    ids.dedup();
    let local = |i: &u32| ids.binary_search(i).expect("listed above") as u32;
    let local_faces: Vec<[u32; 3]> = faces
        .iter()
        .map(|f| [0, 1, 2].map(|k| local(&f[k])))
        .collect();
    let local_edges: Vec<[u32; 2]> = edges.iter().map(|e| [0, 1].map(|k| local(&e[k]))).collect();
    // The topology runs on two threads at most.
    let pool = thread_pool(Some(2))?;
    let mesh = py
        .detach(|| pool.install(|| TriMesh::with_edges(ids.len(), local_faces, &local_edges)))
        .map_err(|e| {
            // Faults named by the caller's vertex numbers.
            let full = |i: u32| ids[i as usize];
            mesh_error(
                &match e {
                    MeshError::DegenerateFace { face, indices } => MeshError::DegenerateFace {
                        face,
                        indices: indices.map(full),
                    },
                    MeshError::DegenerateEdge { edge, vertex } => MeshError::DegenerateEdge {
                        edge,
                        vertex: full(vertex),
                    },
                    e => e,
                },
                "F",
            )
        })?;
    let flat: Vec<i64> = mesh
        .edges()
        .iter()
        .flatten()
        .map(|&i| i64::from(ids[i as usize]))
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
///     false_negatives, mean_ns, exact_fallbacks, and where there are false
///     positives or negatives ``disagreements``, the indices of those
///     queries in the file's order), ``total`` and ``stamp``.
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
pub(crate) fn queries(
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
        // `NoTruth`, and any variant to come: the error names its file.
        _ => value_error(e.to_string()),
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
            require_truth(&set).map_err(|e| PyErrText::Value(e.to_string()))?;
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
pub(crate) fn load_queries<'py>(
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
