//! `ccdlab.step` and `ccdlab.Pipeline`: one step of a deforming mesh, and a
//! sequence of steps that keeps its BVH.

use super::*;

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
///     (none, ``numpy.empty((0, 3), int)``, for rods alone, or for points
///     alone: particles, without ``edges``).
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
///     when the vertices move far against the edges' length; "off" keeps
///     the paper's BVH and filters. The colliding pairs are the same in
///     every setting.
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
///     seconds to minutes; a d far below the coordinates' rounding (under
///     about 1e-16 of them) is slow too, its pairs decided in big
///     integers. Called from the main thread, the step's
///     traversal gives up on Ctrl-C (or any exception a signal handler
///     raises), and that exception is raised.
/// bodies : ndarray, shape (n,), any integer dtype, or None, optional
///     A body label per vertex, from 0 (default None). Two vertices may
///     collide when they are in different bodies, or in one body that
///     collides with itself (``self_collision``); a pair of features is
///     tested when some vertex of one may collide with some vertex of the
///     other (the IPC Toolkit's rule): unless all its vertices are in one
///     body that does not collide with itself. A static obstacle is a body
///     that does not; patches of one cloth that do not collide with
///     themselves are such bodies too (a face on the seam between two
///     patches is tested against everything).
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
///     vertex or with the corners of an earlier face (in any order), an edge
///     joining a vertex to itself, a bad option, or ``bodies`` that do not
///     fit the mesh; with ``collect_pairs=True``, more than 2**26 pairs to
///     keep (a minimum separation as large as the mesh, say), where the
///     counts alone (``collect_pairs=False``) have no bound.
#[pyfunction]
#[pyo3(signature = (V0, V1, F, *, edges = None, k = IntOrStr::Int(26), filters = "slpf+dnf",
    window = true, time_aligned = BoolOrStr::Str("auto".to_string()), solver = "exact",
    threads = None, collect_pairs = false, min_distance = Distance(0.0), bodies = None,
    self_collision = SelfCollision::All(true)),
    text_signature = "(V0, V1, F, *, edges=None, k=26, filters='slpf+dnf', window=True, \
        time_aligned='auto', solver='exact', threads=None, collect_pairs=False, min_distance=0.0, \
        bodies=None, self_collision=True)")]
#[allow(non_snake_case, clippy::too_many_arguments)]
pub(crate) fn step(
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
    let (x_t0, x_t1, mesh, pool) =
        step_inputs(py, V0, V1, F, edges, bodies, self_collision, &mut options)?;
    let mut pipeline = Pipeline::new(options.config.clone());
    let outcome = run_step(py, &pool, &mut pipeline, &mesh, &x_t0, &x_t1)?;
    StepResult::new(py, outcome, &mesh, options.config.collect_pairs)
}

/// Whether no pair of features of a deforming mesh collides (or comes
/// within ``min_distance``) in the step from ``V0`` to ``V1``: what
/// ``ccdlab.step(...).report`` would say with no colliding pair, decided as
/// exactly, but the step stops at the first colliding pair it finds and
/// computes no time of impact (the IPC Toolkit's
/// ``is_step_collision_free``). A step that collides ends early; one that
/// does not costs what ``ccdlab.step`` costs. The answer is the same for
/// any thread count.
///
/// Parameters
/// ----------
/// V0, V1, F, edges, k, filters, window, time_aligned, solver, threads, min_distance, bodies, self_collision
///     As for ``ccdlab.step`` (the same defaults).
///
/// Returns
/// -------
/// bool
///     True when no pair collides.
///
/// Raises
/// ------
/// ValueError
///     As ``ccdlab.step``.
#[pyfunction]
#[pyo3(signature = (V0, V1, F, *, edges = None, k = IntOrStr::Int(26), filters = "slpf+dnf",
    window = true, time_aligned = BoolOrStr::Str("auto".to_string()), solver = "exact",
    threads = None, min_distance = Distance(0.0), bodies = None,
    self_collision = SelfCollision::All(true)),
    text_signature = "(V0, V1, F, *, edges=None, k=26, filters='slpf+dnf', window=True, \
        time_aligned='auto', solver='exact', threads=None, min_distance=0.0, bodies=None, \
        self_collision=True)")]
#[allow(non_snake_case, clippy::too_many_arguments)]
pub(crate) fn is_step_collision_free(
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
    min_distance: Distance,
    bodies: Option<&Bound<'_, PyAny>>,
    self_collision: SelfCollision,
) -> PyResult<bool> {
    let mut options = Options::parse(
        k,
        filters,
        window,
        time_aligned,
        solver,
        threads,
        false,
        min_distance,
        None,
    )?;
    let (x_t0, x_t1, mesh, pool) =
        step_inputs(py, V0, V1, F, edges, bodies, self_collision, &mut options)?;
    let mut pipeline = Pipeline::new(options.config);
    run_asking(py, &pool, &mesh, &x_t0, &x_t1, |step, cancel| {
        pipeline.is_collision_free(step, Some(cancel))
    })
}

/// The earliest time of impact alone of the step of a deforming mesh from
/// ``V0`` to ``V1`` (what the IPC Toolkit's
/// ``compute_collision_free_stepsize`` looks for): ``ccdlab.step(...).toi``
/// and ``toi_upper`` as a bracket, or one inside it, exactly (the true time
/// is in it, its lower end never late), the same for any thread count.
/// Once a bracket ending at ``U`` is found, the pairs whose features stay
/// apart until just past ``U`` are skipped: faster than ``ccdlab.step``
/// where a time is found early (a step that starts within
/// ``min_distance``, above all). No counts and no pairs.
///
/// Parameters
/// ----------
/// V0, V1, F, edges, k, filters, window, time_aligned, solver, threads, min_distance, bodies, self_collision
///     As for ``ccdlab.step`` (the same defaults).
///
/// Returns
/// -------
/// Toi or None
///     ``Toi(lower, upper)``; None without contact (no pair within
///     ``min_distance``).
///
/// Raises
/// ------
/// ValueError
///     As ``ccdlab.step``.
#[pyfunction]
#[pyo3(signature = (V0, V1, F, *, edges = None, k = IntOrStr::Int(26), filters = "slpf+dnf",
    window = true, time_aligned = BoolOrStr::Str("auto".to_string()), solver = "exact",
    threads = None, min_distance = Distance(0.0), bodies = None,
    self_collision = SelfCollision::All(true)),
    text_signature = "(V0, V1, F, *, edges=None, k=26, filters='slpf+dnf', window=True, \
        time_aligned='auto', solver='exact', threads=None, min_distance=0.0, bodies=None, \
        self_collision=True)")]
#[allow(non_snake_case, clippy::too_many_arguments)]
pub(crate) fn earliest_toi(
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
    min_distance: Distance,
    bodies: Option<&Bound<'_, PyAny>>,
    self_collision: SelfCollision,
) -> PyResult<Option<Py<PyAny>>> {
    let mut options = Options::parse(
        k,
        filters,
        window,
        time_aligned,
        solver,
        threads,
        false,
        min_distance,
        None,
    )?;
    let (x_t0, x_t1, mesh, pool) =
        step_inputs(py, V0, V1, F, edges, bodies, self_collision, &mut options)?;
    let mut pipeline = Pipeline::new(options.config);
    let toi = run_asking(py, &pool, &mesh, &x_t0, &x_t1, |step, cancel| {
        pipeline.earliest_toi(step, Some(cancel))
    })?;
    toi_object(py, toi)
}

/// A pipeline over the steps of one mesh's frame sequence.
///
/// The first step builds the BVH; the next ones refit it (as
/// ``ccdlab replay`` does from step to step), unless ``rebuild_next()`` was
/// called. Results are those of fresh steps with the same frames (the same
/// pairs in the same order). Steps follow one another: stepping the
/// pipeline while another thread runs one of its steps raises
/// ``RuntimeError`` (use one pipeline per thread); its properties can be
/// read meanwhile. A pipeline pickles as its mesh (faces, edges, vertex
/// count) and configuration (the unpickled one builds its BVH at its first
/// step).
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
///     A wrong shape or dtype of ``F`` or ``edges``, a negative index, a
///     face repeating a vertex, an edge joining a vertex to itself, or a bad
///     option (with ``num_vertices`` given, also a face with the corners of
///     an earlier one, or ``bodies`` that do not fit the mesh).
#[pyclass(module = "ccdlab", name = "Pipeline", frozen, weakref)]
pub(crate) struct PyPipeline {
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
    /// The pool and the mesh of a step on `n` vertices (the count, and the
    /// argument that gives it), made when missing (the mesh by the first
    /// step, its indices checked against `n`; the pool anew in a forked
    /// child), with the inner pipeline.
    fn ready<'s>(
        &self,
        py: Python<'_>,
        state: &'s mut PipelineState,
        (n, vertices_arg): (usize, &str),
    ) -> PyResult<(&'s Workers, &'s TriMesh, &'s mut Pipeline)> {
        let PipelineState {
            mesh, inner, pool, ..
        } = state;
        if pool.as_ref().is_none_or(Workers::is_foreign) {
            // An inherited pool is leaked by its drop.
            *pool = Some(thread_pool(self.options.threads)?);
        }
        let pool = pool.as_ref().expect("built above");
        if mesh.is_none() {
            let built = build_mesh(py, pool, (n, vertices_arg), self.faces.clone(), &self.edges)?;
            // Bodies that do not fit are refused before the vertex count is
            // kept: a later call with the right count still works.
            if let Some(bodies) = &self.options.config.bodies {
                bodies
                    .check(&built)
                    .map_err(|e| value_error(format!("bodies: {e}")))?;
            }
            *mesh = Some(built);
            let _ = self.num_vertices.set(n);
        }
        Ok((pool, mesh.as_ref().expect("built above"), inner))
    }

    /// The state, held to change it; a `RuntimeError` that says so when
    /// another thread is running one of its steps (the interpreter lock is
    /// released during a step, and a pipeline's steps follow one another).
    fn busy_checked(&self) -> PyResult<MutexGuard<'_, PipelineState>> {
        match self.state.try_lock() {
            Ok(state) => Ok(state),
            // A step that panicked (pyo3 raised it as an exception) may
            // have left its tree half refitted, and a `proximity` call its
            // configuration changed: the next step builds anew, with the
            // pipeline's own configuration.
            Err(TryLockError::Poisoned(p)) => {
                let mut state = p.into_inner();
                state.inner.set_config(self.options.config.clone());
                state.inner.rebuild_next();
                self.state.clear_poison();
                Ok(state)
            }
            Err(TryLockError::WouldBlock) => Err(PyRuntimeError::new_err(
                "this Pipeline is already running a step (in another thread, or further up \
                 this thread's stack: an __array__ method or a signal handler that calls it \
                 again): a pipeline's steps follow one another (each refits the BVH of the one \
                 before); use one Pipeline per thread",
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
        num_vertices: Option<VertexCount>,
    ) -> PyResult<PyPipeline> {
        let num_vertices = num_vertices.map(|VertexCount(n)| n);
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
        // A face repeating a vertex or an edge joining one to itself is
        // refused at once, not at the first step (the indices' range needs
        // the vertex count).
        let bound = faces.iter().flatten().chain(edges.iter().flatten());
        let bound = bound.max().map_or(0, |&i| i as usize + 1);
        check_mesh(num_vertices.unwrap_or(bound), &faces, &edges)
            .map_err(|e| mesh_error(&e, "num_vertices"))?;
        let (mesh, pool) = match num_vertices {
            Some(n) => {
                let pool = thread_pool(options.threads)?;
                let mesh = build_mesh(py, &pool, (n, "num_vertices"), faces.clone(), &edges)?;
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
    ///     Bad frames, frames of another vertex count than the mesh's, (at
    ///     the first step) a face with the corners of an earlier one, or more
    ///     pairs to keep than ``ccdlab.step`` keeps.
    /// RuntimeError
    ///     The pipeline is already running a step (in another thread, or a
    ///     call further up this thread's stack).
    #[allow(non_snake_case)]
    fn step(
        &self,
        py: Python<'_>,
        V0: &Bound<'_, PyAny>,
        V1: &Bound<'_, PyAny>,
    ) -> PyResult<StepResult> {
        let mut state = self.busy_checked()?;
        let (x_t0, x_t1) = frames(V0, V1, state.mesh.as_ref().map(TriMesh::num_vertices))?;
        let (pool, mesh, inner) = self.ready(py, &mut state, (x_t0.len(), "V0"))?;
        let outcome = run_step(py, pool, inner, mesh, &x_t0, &x_t1)?;
        StepResult::new(py, outcome, mesh, self.options.config.collect_pairs)
    }

    /// Whether no pair collides in the step from ``V0`` to ``V1``: as
    /// ``ccdlab.is_step_collision_free`` with this pipeline's mesh and
    /// configuration, stopping at the first colliding pair. The BVH is
    /// built or refitted as for ``step`` and kept for the next step.
    ///
    /// Parameters
    /// ----------
    /// V0, V1 : ndarray, shape (n, 3), float64, float32 or integer
    ///     Vertex positions, as for ``step``.
    ///
    /// Returns
    /// -------
    /// bool
    ///     True when no pair collides.
    ///
    /// Raises
    /// ------
    /// ValueError
    ///     As ``step``.
    /// RuntimeError
    ///     As ``step``.
    #[allow(non_snake_case)]
    fn is_collision_free(
        &self,
        py: Python<'_>,
        V0: &Bound<'_, PyAny>,
        V1: &Bound<'_, PyAny>,
    ) -> PyResult<bool> {
        let mut state = self.busy_checked()?;
        let (x_t0, x_t1) = frames(V0, V1, state.mesh.as_ref().map(TriMesh::num_vertices))?;
        let (pool, mesh, inner) = self.ready(py, &mut state, (x_t0.len(), "V0"))?;
        run_asking(py, pool, mesh, &x_t0, &x_t1, |step, cancel| {
            inner.is_collision_free(step, Some(cancel))
        })
    }

    /// The earliest time of impact alone of the step from ``V0`` to ``V1``:
    /// as ``ccdlab.earliest_toi`` with this pipeline's mesh and
    /// configuration. The BVH is built or refitted as for ``step`` and kept
    /// for the next step.
    ///
    /// Parameters
    /// ----------
    /// V0, V1 : ndarray, shape (n, 3), float64, float32 or integer
    ///     Vertex positions, as for ``step``.
    ///
    /// Returns
    /// -------
    /// Toi or None
    ///     As ``ccdlab.earliest_toi``.
    ///
    /// Raises
    /// ------
    /// ValueError
    ///     As ``step``.
    /// RuntimeError
    ///     As ``step``.
    #[allow(non_snake_case)]
    fn earliest_toi(
        &self,
        py: Python<'_>,
        V0: &Bound<'_, PyAny>,
        V1: &Bound<'_, PyAny>,
    ) -> PyResult<Option<Py<PyAny>>> {
        let mut state = self.busy_checked()?;
        let (x_t0, x_t1) = frames(V0, V1, state.mesh.as_ref().map(TriMesh::num_vertices))?;
        let (pool, mesh, inner) = self.ready(py, &mut state, (x_t0.len(), "V0"))?;
        let toi = run_asking(py, pool, mesh, &x_t0, &x_t1, |step, cancel| {
            inner.earliest_toi(step, Some(cancel))
        })?;
        toi_object(py, toi)
    }

    /// Decides the step from ``V0`` to ``V1`` on the candidate pairs given
    /// instead of the BVH's: the filters and exact tests of ``step``, on
    /// pairs found by a broad phase of one's own (or a simulator's), with
    /// its counts, earliest time of impact and (when collected) pairs. The
    /// pairs may come in any order, with repeats and either edge first;
    /// each distinct pair is decided and counted once. The BVH is neither
    /// used nor touched (the next ``step`` refits it as before).
    ///
    /// For an exact result the pairs must hold every pair whose features'
    /// swept volumes touch (come within ``min_distance``); more cost the
    /// filters work, never a wrong verdict. ``k`` and ``time_aligned`` (the
    /// BVH's) play no part; ``bodies`` and ``self_collision`` drop the
    /// pairs within a body as in ``step``. The codimensional points' pairs
    /// (``ve_pairs``, ``vv_pairs``) are not decided. ``ccdlab.candidates``
    /// with ``filters="none", window=False, time_aligned=False`` gives the
    /// BVH's own pairs, which give ``step``'s result.
    ///
    /// Parameters
    /// ----------
    /// V0, V1 : ndarray, shape (n, 3), float64, float32 or integer
    ///     Vertex positions, as for ``step``.
    /// vf : ndarray, shape (p, 2), any integer dtype
    ///     Vertex–face pairs, rows ``(vertex, face)``: a vertex that is not a
    ///     corner of the face (``[]``: none).
    /// ee : ndarray, shape (q, 2), any integer dtype
    ///     Edge–edge pairs, rows of two indices into
    ///     ``ccdlab.edges(F, edges)`` that share no endpoint (``[]``: none).
    ///
    /// Returns
    /// -------
    /// StepResult
    ///     As ``step``; ``report["bvh"]`` is ``"given"``, the BVH's counts
    ///     zero, and ``report["vf"]["candidates"]`` the distinct pairs
    ///     decided.
    ///
    /// Raises
    /// ------
    /// ValueError
    ///     Bad frames (as ``step``), or a pair that is no candidate: a wrong
    ///     shape or dtype, an index out of range, a vertex that is a corner
    ///     of its face, edges that share an endpoint (naming the first such
    ///     pair by its kind and row).
    /// RuntimeError
    ///     As ``step``.
    #[allow(non_snake_case)]
    fn step_on_candidates(
        &self,
        py: Python<'_>,
        V0: &Bound<'_, PyAny>,
        V1: &Bound<'_, PyAny>,
        vf: &Bound<'_, PyAny>,
        ee: &Bound<'_, PyAny>,
    ) -> PyResult<StepResult> {
        let vf: Vec<VfPair> = (pairs(vf, "vf")?.into_iter())
            .map(|[v, f]| VfPair { v, f })
            .collect();
        let ee: Vec<EePair> = (pairs(ee, "ee")?.into_iter())
            .map(|[e0, e1]| EePair { e0, e1 })
            .collect();
        let mut state = self.busy_checked()?;
        let (x_t0, x_t1) = frames(V0, V1, state.mesh.as_ref().map(TriMesh::num_vertices))?;
        let (pool, mesh, inner) = self.ready(py, &mut state, (x_t0.len(), "V0"))?;
        let step = Step::new(mesh, &x_t0, &x_t1).map_err(|e| value_error(e.to_string()))?;
        let outcome = run_interruptible(py, pool, |cancel| {
            inner.step_on_candidates_cancellable(&step, &vf, &ee, cancel)
        })?
        .map_err(|e| match e {
            // Named by the argument that holds the pair.
            PipelineError::Candidates(
                c @ (CandidateError::VertexFaceOutOfRange { .. }
                | CandidateError::CornerOfFace { .. }),
            ) => value_error(format!("vf: {c}")),
            PipelineError::Candidates(c) => value_error(format!("ee: {c}")),
            e => value_error(e.to_string()),
        })?;
        StepResult::new(py, outcome, mesh, self.options.config.collect_pairs)
    }

    /// The pairs within this pipeline's ``min_distance`` of each other at
    /// the positions ``V``: what ``ccdlab.proximity(V, F, min_distance, ...)``
    /// answers with this pipeline's ``edges``, ``bodies`` and
    /// ``self_collision`` (the same pairs in the same order, the same
    /// distances), from the kept BVH, refitted: a barrier's active set asked
    /// at every iteration of a solve. It is the step from ``V`` to ``V``
    /// with every colliding pair kept and decided by the exact solver
    /// (whatever ``collect_pairs`` and ``solver`` say). A tree it builds
    /// under ``time_aligned="auto"`` saw no motion, so the next ``step``
    /// builds anew (and chooses from its own motion).
    ///
    /// Its filters and time-aligned pruning cull nothing more at rest than
    /// DNF alone (what ``ccdlab.proximity`` runs at ``d > 0``), and cost a
    /// little: ``filters="dnf", window=False`` makes a pipeline kept for
    /// this alone run as ``proximity`` does.
    ///
    /// Parameters
    /// ----------
    /// V : ndarray, shape (n, 3), float64, float32 or integer
    ///     Vertex positions (converted as for ``ccdlab.step``).
    /// distances : bool, optional
    ///     Also each pair's Euclidean distance, as ``ccdlab.proximity``
    ///     gives it (default False).
    ///
    /// Returns
    /// -------
    /// dict
    ///     As ``ccdlab.proximity``.
    ///
    /// Raises
    /// ------
    /// ValueError
    ///     Bad positions, or another vertex count than the mesh's;
    ///     a pipeline made with ``self_collision="moving"`` (at one instant
    ///     nothing moves); more pairs than ``ccdlab.proximity`` lists.
    /// RuntimeError
    ///     The pipeline is already running a step (in another thread, or a
    ///     call further up this thread's stack).
    #[pyo3(signature = (V, *, distances = false))]
    #[allow(non_snake_case)]
    fn proximity<'py>(
        &self,
        py: Python<'py>,
        V: &Bound<'py, PyAny>,
        distances: bool,
    ) -> PyResult<Bound<'py, PyDict>> {
        if self.options.config.bodies == Some(Bodies::StillObstacle) {
            return Err(value_error(PROXIMITY_NO_MOTION));
        }
        let mut state = self.busy_checked()?;
        let x = mesh_points(V, "V", state.mesh.as_ref().map(TriMesh::num_vertices))?;
        let (pool, mesh, inner) = self.ready(py, &mut state, (x.len(), "V"))?;
        let found = run_interruptible(py, pool, |cancel| {
            inner.proximity_cancellable(mesh, &x, cancel)
        })?
        .map_err(|e| value_error(e.to_string()))?;
        let measured = distances.then(|| py.detach(|| pool.install(|| found.distances(mesh, &x))));
        proximity_dict(py, &found, measured, mesh)
    }

    /// Makes the next step build its BVH anew instead of refitting it
    /// (after large deformations, say). Its result is a fresh step's.
    ///
    /// Raises
    /// ------
    /// RuntimeError
    ///     The pipeline is running a step (as ``step``).
    fn rebuild_next(&self) -> PyResult<()> {
        self.busy_checked()?.inner.rebuild_next();
        Ok(())
    }

    /// The configuration, as the keyword arguments that give it: a new dict
    /// at each read (changing it changes nothing; a pipeline's configuration
    /// is fixed when it is made, and its BVH is built for it).
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
    /// None when none were given. Edge numbers (``ee_pairs``) are rows of
    /// ``ccdlab.edges(self.faces, self.edges)``, not of these.
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
