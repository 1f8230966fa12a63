"""Type stubs of ccdlab's native module (the Rust bindings); the docstrings are the
module's own, copied by scripts/sync_python_stubs.py."""

import os
from typing import (
    Any,
    Dict,
    List,
    Literal,
    Optional,
    Sequence,
    SupportsIndex,
    Tuple,
    Union,
    final,
    overload,
)

import numpy as np
import numpy.typing as npt

from ._types import Toi

__version__: str

_ArrayLike3 = npt.ArrayLike
"""A length-3 array-like of floats (a point)."""

_AnyPath = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]

def vertex_face_ccd(
    v_t0: _ArrayLike3,
    f0_t0: _ArrayLike3,
    f1_t0: _ArrayLike3,
    f2_t0: _ArrayLike3,
    v_t1: _ArrayLike3,
    f0_t1: _ArrayLike3,
    f1_t1: _ArrayLike3,
    f2_t1: _ArrayLike3,
    *,
    solver: str = "exact",
    min_distance: float = 0.0,
) -> Optional[Toi]:
    """Exact continuous collision detection of a vertex and a triangle.

    The vertex and the triangle's corners move linearly from their positions
    at t = 0 to those at t = 1. Arguments in the data sets' row order, each
    a length-3 array-like of coordinates (float64; float32 widened exactly;
    integers of magnitude at most 2**53 converted exactly, larger ones refused).

    Parameters
    ----------
    v_t0, f0_t0, f1_t0, f2_t0 : array_like, shape (3,)
        The vertex and the triangle's corners at t = 0.
    v_t1, f0_t1, f1_t1, f2_t1 : array_like, shape (3,)
        The same at t = 1.
    solver : {"exact", "cubic"}, optional
        "exact" (default): the verdict is the exact one (no false negatives,
        no false positives). "cubic": the floating-point cubic method of
        Provot 1997, which can miss contacts.
    min_distance : float, optional
        A minimum separation d >= 0 (default 0: contact). At d > 0 the
        query is positive when, for some t in [0, 1], the vertex is within
        Euclidean distance d of the closed triangle; the verdict is exact
        (the solver must be "exact"). d = 0 gives the contact answer, bit
        for bit.

    Returns
    -------
    Toi or None
        None when they do not touch (come within d) for any t in [0, 1];
        otherwise the earliest such time as a bracket ``Toi(lower, upper)``
        that holds it with solver="exact" (``lower`` is never later than
        the true time); the "cubic" baseline's is an estimate that may miss
        it.

    Raises
    ------
    ValueError
        A point that is not 3 finite coordinates, an unknown solver, a
        min_distance that is negative, NaN or infinite, or a positive one
        with solver "cubic".
    """

def edge_edge_ccd(
    ea0_t0: _ArrayLike3,
    ea1_t0: _ArrayLike3,
    eb0_t0: _ArrayLike3,
    eb1_t0: _ArrayLike3,
    ea0_t1: _ArrayLike3,
    ea1_t1: _ArrayLike3,
    eb0_t1: _ArrayLike3,
    eb1_t1: _ArrayLike3,
    *,
    solver: str = "exact",
    min_distance: float = 0.0,
) -> Optional[Toi]:
    """Exact continuous collision detection of two edges.

    Both edges' end points move linearly from their positions at t = 0 to
    those at t = 1. Arguments in the data sets' row order, each a length-3
    array-like of coordinates (float64; float32 widened exactly; integers of
    magnitude at most 2**53 converted exactly, larger ones refused).

    Parameters
    ----------
    ea0_t0, ea1_t0, eb0_t0, eb1_t0 : array_like, shape (3,)
        Edge a's and edge b's end points at t = 0.
    ea0_t1, ea1_t1, eb0_t1, eb1_t1 : array_like, shape (3,)
        The same at t = 1.
    solver : {"exact", "cubic"}, optional
        "exact" (default, no false negatives or positives) or "cubic"
        (Provot 1997, the floating-point baseline).
    min_distance : float, optional
        A minimum separation d >= 0 (default 0: contact). At d > 0 the
        query is positive when, for some t in [0, 1], the two closed
        segments come within Euclidean distance d; exact, with solver
        "exact" only. d = 0 gives the contact answer, bit for bit.

    Returns
    -------
    Toi or None
        None when the edges do not touch (come within d) for any t in
        [0, 1]; otherwise ``Toi(lower, upper)``, a bracket of the earliest
        such time.

    Raises
    ------
    ValueError
        A point that is not 3 finite coordinates, an unknown solver, a
        min_distance that is negative, NaN or infinite, or a positive one
        with solver "cubic".
    """

def vertex_face_ccd_batch(
    queries: npt.NDArray[Union[np.float64, np.float32, np.integer[Any]]],
    *,
    solver: str = "exact",
    min_distance: float = 0.0,
    threads: Optional[SupportsIndex] = None,
) -> Tuple[npt.NDArray[np.bool_], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Vertex–face CCD of many queries at once, in parallel.

    Parameters
    ----------
    queries : ndarray, shape (n, 8, 3), float64, float32 or integer (as the single query)
        Query i's eight points in the data sets' row order (v_t0, f0_t0,
        f1_t0, f2_t0, v_t1, f0_t1, f1_t1, f2_t1). C or Fortran order.
    solver : {"exact", "cubic"}, optional
        As for ``vertex_face_ccd``.
    min_distance : float, optional
        As for ``vertex_face_ccd``: a minimum separation d >= 0 (default 0,
        contact).
    threads : int or None, optional
        Worker threads, 1 to 1024; None (default): all logical CPUs. At
        most one per 64 queries: a batch of 64 or fewer runs on the
        calling thread.

    Returns
    -------
    hit : ndarray of bool, shape (n,)
        Whether query i collides (comes within d) in [0, 1].
    toi_lower, toi_upper : ndarray of float64, shape (n,)
        The bracket of the earliest time of impact; NaN where no hit.

    Raises
    ------
    ValueError
        A wrong shape or dtype, a non-finite coordinate (named by query and
        point), an unknown solver, a bad min_distance (as for the single
        query), or a thread count out of range.
    KeyboardInterrupt
        Ctrl-C (or any exception a signal handler raises, which is raised
        instead) stops the batch when called from the main thread.
    """

def edge_edge_ccd_batch(
    queries: npt.NDArray[Union[np.float64, np.float32, np.integer[Any]]],
    *,
    solver: str = "exact",
    min_distance: float = 0.0,
    threads: Optional[SupportsIndex] = None,
) -> Tuple[npt.NDArray[np.bool_], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Edge–edge CCD of many queries at once, in parallel.

    Parameters
    ----------
    queries : ndarray, shape (n, 8, 3), float64, float32 or integer (as the single query)
        Query i's eight points in the data sets' row order (ea0_t0, ea1_t0,
        eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1). C or Fortran order.
    solver : {"exact", "cubic"}, optional
        As for ``edge_edge_ccd``.
    min_distance : float, optional
        As for ``edge_edge_ccd``: a minimum separation d >= 0 (default 0,
        contact).
    threads : int or None, optional
        Worker threads, 1 to 1024; None (default): all logical CPUs. At
        most one per 64 queries: a batch of 64 or fewer runs on the
        calling thread.

    Returns
    -------
    hit : ndarray of bool, shape (n,)
        Whether query i collides (comes within d) in [0, 1].
    toi_lower, toi_upper : ndarray of float64, shape (n,)
        The bracket of the earliest time of impact; NaN where no hit.

    Raises
    ------
    ValueError
        A wrong shape or dtype, a non-finite coordinate (named by query and
        point), an unknown solver, a bad min_distance (as for the single
        query), or a thread count out of range.
    KeyboardInterrupt
        Ctrl-C (or any exception a signal handler raises, which is raised
        instead) stops the batch when called from the main thread.
    """

def vertex_face_filter_batch(
    queries: npt.NDArray[Union[np.float64, np.float32, np.integer[Any]]],
    *,
    filters: str = "slpf+dnf",
    window: bool = True,
    min_distance: float = 0.0,
    threads: Optional[SupportsIndex] = None,
) -> npt.NDArray[np.str_]:
    """Which of the pipeline's filters culls each vertex–face query of a batch.

    The filters run as ``ccdlab.step`` runs them on its candidates: SLPF on
    the paper's five directions, then DNF and, with ``window``, the
    coplanar-window filter; at ``min_distance`` d > 0, SLPF is left out and
    DNF and the window test within d. A culled pair provably does not touch
    (come within d) on [0, 1]; a pair that passes may or may not. Here SLPF
    bounds each pair's rounding by its own differences, where a step bounds
    it per direction over the whole mesh, so on pairs within about 1e-15 of
    the mesh's largest coordinate magnitude of touching (wherever in the
    mesh that coordinate is) the two can differ; DNF's and the window's
    verdicts are a step's.

    Parameters
    ----------
    queries : ndarray, shape (n, 8, 3), float64, float32 or integer
        As for ``vertex_face_ccd_batch`` (the vertex and the face's corners
        at t = 0, then at t = 1): ``candidates(..., points=True)["vf_points"]``
        gives a real step's.
    filters : {"slpf+dnf", "slpf", "dnf", "none"}, optional
        As for ``step`` (default "slpf+dnf").
    window : bool, optional
        Run the coplanar-window filter after them (default True).
    min_distance : float, optional
        A minimum separation d >= 0 (default 0: contact).
    threads : int or None, optional
        Worker threads, 1 to 1024; None (default): all logical CPUs. At
        most one per 256 queries: a batch of 256 or fewer runs on the
        calling thread.

    Returns
    -------
    ndarray of str (``<U6``), shape (n,)
        The filter that culled query i: ``"slpf"``, ``"dnf"`` or
        ``"window"``; ``""`` where none did.

    Raises
    ------
    ValueError
        A wrong shape or dtype, a non-finite coordinate (named by query and
        point), an unknown filter setting, a min_distance that is negative,
        NaN or infinite, or a thread count out of range.
    KeyboardInterrupt
        Ctrl-C stops the batch when called from the main thread.
    """

def edge_edge_filter_batch(
    queries: npt.NDArray[Union[np.float64, np.float32, np.integer[Any]]],
    *,
    filters: str = "slpf+dnf",
    window: bool = True,
    min_distance: float = 0.0,
    threads: Optional[SupportsIndex] = None,
) -> npt.NDArray[np.str_]:
    """Which of the pipeline's filters culls each edge–edge query of a batch.

    As ``vertex_face_filter_batch``, for queries in the order of
    ``edge_edge_ccd_batch`` (edge a's and edge b's ends at t = 0, then at
    t = 1; ``candidates(..., points=True)["ee_points"]``).

    Parameters
    ----------
    queries : ndarray, shape (n, 8, 3), float64, float32 or integer
        The queries.
    filters, window, min_distance, threads
        As for ``vertex_face_filter_batch``.

    Returns
    -------
    ndarray of str (``<U6``), shape (n,)
        ``"slpf"``, ``"dnf"``, ``"window"``, or ``""`` where no filter culled.

    Raises
    ------
    ValueError, KeyboardInterrupt
        As for ``vertex_face_filter_batch``.
    """

@final
class StepResult:
    """The result of one step (``ccdlab.step``, ``Pipeline.step``).

    Attributes
    ----------
    toi : float or None
        The earliest time of impact over all colliding pairs (the first time
        two features touch, or come within min_distance d > 0), as a
        conservative lower bound: never later than the true one, and it may
        equal it. 0.0 when a pair touches, or is within d, at t = 0; None
        when nothing collides in the step.
    toi_upper : float or None
        An upper bound on the earliest time of impact.
    vf_pairs : ndarray of int64, shape (m, 2), or None
        Colliding vertex–face pairs as (vertex index, face index); None
        unless the step ran with ``collect_pairs=True``.
    ee_pairs : ndarray of int64, shape (m, 2), or None
        Colliding edge–edge pairs as (edge index, edge index), edges in the
        order of ``ccdlab.edges(F, edges)`` (the faces' edges, then the
        codimensional ones); None unless ``collect_pairs=True``.
    ve_pairs : ndarray of int64, shape (m, 2), or None
        Colliding pairs of a point (a vertex in no face and no edge) and a
        codimensional edge, as (vertex index, edge index); None unless
        ``collect_pairs=True``.
    vv_pairs : ndarray of int64, shape (m, 2), or None
        Colliding pairs of two points, as (vertex index, vertex index), the
        smaller first; None unless ``collect_pairs=True``.
    vf_toi, ee_toi, ve_toi, vv_toi : ndarray of float64, shape (m, 2), or None
        Each pair's time-of-impact bracket (lower, upper), row for row with
        the pairs; None unless ``collect_pairs=True``.
    report : dict
        Counts per stage, stage times, what ran: the JSON object of
        ``ccdlab step --json``.
    """

    @property
    def toi(self) -> Optional[float]:
        """Earliest time of impact: a lower bound that may equal the true time
        (with solver="exact"; the "cubic" baseline's is an estimate); 0.0
        when a pair touches, or is within min_distance, at t = 0; None
        without contact.
        """
    @property
    def toi_upper(self) -> Optional[float]:
        """Upper bound on the earliest time of impact, or None."""
    @property
    def vf_pairs(self) -> Optional[npt.NDArray[np.int64]]:
        """Colliding (vertex, face) pairs, int64 (m, 2); None unless collected."""
    @property
    def ee_pairs(self) -> Optional[npt.NDArray[np.int64]]:
        """Colliding (edge, edge) pairs, int64 (m, 2), edges in
        ``edges(F, edges)`` order; None unless collected.
        """
    @property
    def ve_pairs(self) -> Optional[npt.NDArray[np.int64]]:
        """Colliding (point, codimensional edge) pairs, int64 (m, 2); None
        unless collected.
        """
    @property
    def vv_pairs(self) -> Optional[npt.NDArray[np.int64]]:
        """Colliding (point, point) pairs, int64 (m, 2), the smaller vertex
        first; None unless collected.
        """
    @property
    def ve_toi(self) -> Optional[npt.NDArray[np.float64]]:
        """Per point–edge pair (lower, upper) time of impact, float64 (m, 2)."""
    @property
    def vv_toi(self) -> Optional[npt.NDArray[np.float64]]:
        """Per point–point pair (lower, upper) time of impact, float64 (m, 2)."""
    @property
    def vf_toi(self) -> Optional[npt.NDArray[np.float64]]:
        """Per vertex–face pair (lower, upper) time of impact, float64 (m, 2)."""
    @property
    def ee_toi(self) -> Optional[npt.NDArray[np.float64]]:
        """Per edge–edge pair (lower, upper) time of impact, float64 (m, 2)."""
    @property
    def report(self) -> Dict[str, Any]:
        """The step's report: the JSON object of ``ccdlab step --json``, a new
        copy at each access (changing it leaves the result as it was).
        """

def step(
    V0: npt.ArrayLike,
    V1: npt.ArrayLike,
    F: npt.ArrayLike,
    *,
    edges: Optional[npt.ArrayLike] = None,
    k: Union[int, str] = 26,
    filters: str = "slpf+dnf",
    window: bool = True,
    time_aligned: Union[str, bool] = "auto",
    solver: str = "exact",
    threads: Optional[SupportsIndex] = None,
    collect_pairs: bool = False,
    min_distance: float = 0.0,
    bodies: Optional[npt.ArrayLike] = None,
    self_collision: Union[bool, Sequence[bool], npt.NDArray[np.bool_], str] = True,
) -> StepResult:
    """One step of a deforming triangle mesh through the whole pipeline.

    Every vertex moves linearly from ``V0`` (t = 0) to ``V1`` (t = 1). The
    step runs the 26-DOP BVH over swept features, the SLPF and DNF filters
    and the exact vertex–face and edge–edge tests, with the configuration
    and the defaults of ``ccdlab step``; the result is the same as the
    command line's for the same frames.

    Parameters
    ----------
    V0, V1 : ndarray, shape (n, 3), float64, float32 or integer
        Vertex positions at t = 0 and t = 1 (finite; C or Fortran order;
        float32 widened exactly, integers of magnitude at most 2**53
        converted exactly, larger ones refused).
    F : ndarray, shape (m, 3), any integer dtype
        Triangles as vertex indices, from 0; three distinct corners each
        (none, ``numpy.empty((0, 3), int)``, for rods alone, or for points
        alone: particles, without ``edges``).
    edges : ndarray, shape (e, 2), any integer dtype, or None, optional
        Codimensional edges (rods, hair, seams: edges in no triangle), as
        the IPC Toolkit's ``CollisionMesh`` takes them (default None). An
        edge of a triangle, or one listed twice, is dropped; the others
        follow the triangles' edges in ``ccdlab.edges(F, edges)``. Their
        vertices are tested against the faces and the edges against every
        edge. Vertices in no face and no edge (points) are tested against
        the faces, the codimensional edges and each other (``ve_pairs``,
        ``vv_pairs``).
    k : int or str, optional
        Bounding volume of the BVH: 6, 8, 14, 18 or 26 (default).
    filters : {"slpf+dnf", "slpf", "dnf", "none"}, optional
        Low-level filters before the exact tests (SLPF is left out when
        ``time_aligned="auto"`` prunes).
    window : bool, optional
        The coplanar-window filter after the paper's filters (default True).
    time_aligned : {"auto", "on", "off"} or bool, optional
        Time-aligned pruning of the BVH's pairs; "auto" (default) prunes
        when the vertices move far against the edges' length; "off" keeps
        the paper's BVH and filters. The colliding pairs are the same in
        every setting.
    solver : {"exact", "cubic"}, optional
        Narrow-phase solver (default "exact"); at ``min_distance`` > 0 the
        exact one only (the cubic one decides contact only).
    threads : int or None, optional
        Worker threads, 1 to 1024; None (default): all logical CPUs. The
        result is the same for any count.
    collect_pairs : bool, optional
        Keep every colliding pair (``vf_pairs``, ``ee_pairs``, ``ve_pairs``,
        ``vv_pairs`` and their ``*_toi``); default False (counts and time of
        impact only).
    min_distance : float, optional
        Minimum separation d >= 0: features that come within Euclidean
        distance d during the step collide (default 0: contact). At d > 0
        DNF and the window filter keep a margin of d, and SLPF (proven for
        contact only) is off; ``report`` says what ran. The work grows with
        the pairs that come within d: a d of the order of the mesh's edge
        length or more makes most nearby pairs collide and a step take
        seconds to minutes; a d far below the coordinates' rounding (under
        about 1e-16 of them) is slow too, its pairs decided in big
        integers. Called from the main thread, the step's
        traversal gives up on Ctrl-C (or any exception a signal handler
        raises), and that exception is raised.
    bodies : ndarray, shape (n,), any integer dtype, or None, optional
        A body label per vertex, from 0 (default None). Two vertices may
        collide when they are in different bodies, or in one body that
        collides with itself (``self_collision``); a pair of features is
        tested when some vertex of one may collide with some vertex of the
        other (the IPC Toolkit's rule): unless all its vertices are in one
        body that does not collide with itself. A static obstacle is a body
        that does not; patches of one cloth that do not collide with
        themselves are such bodies too (a face on the seam between two
        patches is tested against everything).
    self_collision : bool, sequence of bool or "moving", optional
        Whether bodies collide with themselves: one bool for every body, or
        one per body label (``self_collision[b]`` for body b; entries past
        the largest label are not used). Default True: every pair is
        tested. Without ``bodies``: ``False`` makes each connected
        component a body (only pairs across components are tested), and
        ``"moving"`` makes the components that do not move in the step a
        static obstacle (its pairs with itself are not tested), as
        ``ccdlab step --self-collision off`` and ``moving``.

    Returns
    -------
    StepResult
        ``toi``, ``toi_upper``, the pairs (when collected) and ``report``.

    Raises
    ------
    ValueError
        A wrong shape or dtype, a non-finite coordinate, frames of different
        vertex counts, a face or edge index out of range, a face repeating a
        vertex or with the corners of an earlier face (in any order), an edge
        joining a vertex to itself, a bad option, or ``bodies`` that do not
        fit the mesh; with ``collect_pairs=True``, more than 2**26 pairs to
        keep (a minimum separation as large as the mesh, say), where the
        counts alone (``collect_pairs=False``) have no bound.
    """

def is_step_collision_free(
    V0: npt.ArrayLike,
    V1: npt.ArrayLike,
    F: npt.ArrayLike,
    *,
    edges: Optional[npt.ArrayLike] = None,
    k: Union[int, str] = 26,
    filters: str = "slpf+dnf",
    window: bool = True,
    time_aligned: Union[str, bool] = "auto",
    solver: str = "exact",
    threads: Optional[SupportsIndex] = None,
    min_distance: float = 0.0,
    bodies: Optional[npt.ArrayLike] = None,
    self_collision: Union[bool, Sequence[bool], npt.NDArray[np.bool_], str] = True,
) -> bool:
    """Whether no pair of features of a deforming mesh collides (or comes
    within ``min_distance``) in the step from ``V0`` to ``V1``: what
    ``ccdlab.step(...).report`` would say with no colliding pair, decided as
    exactly, but the step stops at the first colliding pair it finds and
    computes no time of impact (the IPC Toolkit's
    ``is_step_collision_free``). A step that collides ends early; one that
    does not costs what ``ccdlab.step`` costs. The answer is the same for
    any thread count.

    Parameters
    ----------
    V0, V1, F, edges, k, filters, window, time_aligned, solver, threads, min_distance, bodies, self_collision
        As for ``ccdlab.step`` (the same defaults).

    Returns
    -------
    bool
        True when no pair collides.

    Raises
    ------
    ValueError
        As ``ccdlab.step``.
    """

def earliest_toi(
    V0: npt.ArrayLike,
    V1: npt.ArrayLike,
    F: npt.ArrayLike,
    *,
    edges: Optional[npt.ArrayLike] = None,
    k: Union[int, str] = 26,
    filters: str = "slpf+dnf",
    window: bool = True,
    time_aligned: Union[str, bool] = "auto",
    solver: str = "exact",
    threads: Optional[SupportsIndex] = None,
    min_distance: float = 0.0,
    bodies: Optional[npt.ArrayLike] = None,
    self_collision: Union[bool, Sequence[bool], npt.NDArray[np.bool_], str] = True,
) -> Optional[Toi]:
    """The earliest time of impact alone of the step of a deforming mesh from
    ``V0`` to ``V1`` (what the IPC Toolkit's
    ``compute_collision_free_stepsize`` looks for): ``ccdlab.step(...).toi``
    and ``toi_upper`` as a bracket, or one inside it, exactly (the true time
    is in it, its lower end never late), the same for any thread count.
    Once a bracket ending at ``U`` is found, the pairs whose features stay
    apart until just past ``U`` are skipped: faster than ``ccdlab.step``
    where a time is found early (a step that starts within
    ``min_distance``, above all). No counts and no pairs.

    Parameters
    ----------
    V0, V1, F, edges, k, filters, window, time_aligned, solver, threads, min_distance, bodies, self_collision
        As for ``ccdlab.step`` (the same defaults).

    Returns
    -------
    Toi or None
        ``Toi(lower, upper)``; None without contact (no pair within
        ``min_distance``).

    Raises
    ------
    ValueError
        As ``ccdlab.step``.
    """

@final
class Pipeline:
    """A pipeline over the steps of one mesh's frame sequence.

    The first step builds the BVH; the next ones refit it (as
    ``ccdlab replay`` does from step to step), unless ``rebuild_next()`` was
    called. Results are those of fresh steps with the same frames (the same
    pairs in the same order). Steps follow one another: stepping the
    pipeline while another thread runs one of its steps raises
    ``RuntimeError`` (use one pipeline per thread); its properties can be
    read meanwhile. A pipeline pickles as its mesh (faces, edges, vertex
    count) and configuration (the unpickled one builds its BVH at its first
    step).

    Parameters
    ----------
    F : ndarray, shape (m, 3), any integer dtype
        The mesh's triangles (fixed over the sequence).
    edges, k, filters, window, time_aligned, solver, threads, collect_pairs, min_distance, bodies, self_collision
        As for ``ccdlab.step`` (the same defaults); ``bodies`` has a label
        per vertex of the mesh.
    num_vertices : int or None, optional
        The mesh's vertex count; None (default): that of the first step's
        frames. Every step must have this many vertices.

    Raises
    ------
    ValueError
        A wrong shape or dtype of ``F`` or ``edges``, a negative index, a
        face repeating a vertex, an edge joining a vertex to itself, or a bad
        option (with ``num_vertices`` given, also a face with the corners of
        an earlier one, or ``bodies`` that do not fit the mesh).
    """

    def __new__(
        cls,
        F: npt.ArrayLike,
        *,
        edges: Optional[npt.ArrayLike] = None,
        k: Union[int, str] = 26,
        filters: str = "slpf+dnf",
        window: bool = True,
        time_aligned: Union[str, bool] = "auto",
        solver: str = "exact",
        threads: Optional[SupportsIndex] = None,
        collect_pairs: bool = False,
        min_distance: float = 0.0,
        bodies: Optional[npt.ArrayLike] = None,
        self_collision: Union[bool, Sequence[bool], npt.NDArray[np.bool_], str] = True,
        num_vertices: Optional[SupportsIndex] = None,
    ) -> "Pipeline": ...
    def step(self, V0: npt.ArrayLike, V1: npt.ArrayLike) -> StepResult:
        """Runs one step, from ``V0`` (t = 0) to ``V1`` (t = 1).

        Parameters
        ----------
        V0, V1 : ndarray, shape (n, 3), float64, float32 or integer
            Vertex positions (converted as for ``ccdlab.step``); n is the
            mesh's vertex count (set by the first step unless given to the
            constructor).

        Returns
        -------
        StepResult
            As ``ccdlab.step``; ``report["bvh"]`` says whether this step built
            or refitted the BVH.

        Raises
        ------
        ValueError
            Bad frames, frames of another vertex count than the mesh's, (at
            the first step) a face with the corners of an earlier one, or more
            pairs to keep than ``ccdlab.step`` keeps.
        RuntimeError
            The pipeline is already running a step (in another thread, or a
            call further up this thread's stack).
        """
    def is_collision_free(self, V0: npt.ArrayLike, V1: npt.ArrayLike) -> bool:
        """Whether no pair collides in the step from ``V0`` to ``V1``: as
        ``ccdlab.is_step_collision_free`` with this pipeline's mesh and
        configuration, stopping at the first colliding pair. The BVH is
        built or refitted as for ``step`` and kept for the next step.

        Parameters
        ----------
        V0, V1 : ndarray, shape (n, 3), float64, float32 or integer
            Vertex positions, as for ``step``.

        Returns
        -------
        bool
            True when no pair collides.

        Raises
        ------
        ValueError
            As ``step``.
        RuntimeError
            As ``step``.
        """
    def earliest_toi(self, V0: npt.ArrayLike, V1: npt.ArrayLike) -> Optional[Toi]:
        """The earliest time of impact alone of the step from ``V0`` to ``V1``:
        as ``ccdlab.earliest_toi`` with this pipeline's mesh and
        configuration. The BVH is built or refitted as for ``step`` and kept
        for the next step.

        Parameters
        ----------
        V0, V1 : ndarray, shape (n, 3), float64, float32 or integer
            Vertex positions, as for ``step``.

        Returns
        -------
        Toi or None
            As ``ccdlab.earliest_toi``.

        Raises
        ------
        ValueError
            As ``step``.
        RuntimeError
            As ``step``.
        """
    def step_on_candidates(
        self,
        V0: npt.ArrayLike,
        V1: npt.ArrayLike,
        vf: npt.ArrayLike,
        ee: npt.ArrayLike,
    ) -> StepResult:
        """Decides the step from ``V0`` to ``V1`` on the candidate pairs given
        instead of the BVH's: the filters and exact tests of ``step``, on
        pairs found by a broad phase of one's own (or a simulator's), with
        its counts, earliest time of impact and (when collected) pairs. The
        pairs may come in any order, with repeats and either edge first;
        each distinct pair is decided and counted once. The BVH is neither
        used nor touched (the next ``step`` refits it as before).

        For an exact result the pairs must hold every pair whose features'
        swept volumes touch (come within ``min_distance``); more cost the
        filters work, never a wrong verdict. ``k`` and ``time_aligned`` (the
        BVH's) play no part; ``bodies`` and ``self_collision`` drop the
        pairs within a body as in ``step``. The codimensional points' pairs
        (``ve_pairs``, ``vv_pairs``) are not decided. ``ccdlab.candidates``
        with ``filters="none", window=False, time_aligned=False`` gives the
        BVH's own pairs, which give ``step``'s result.

        Parameters
        ----------
        V0, V1 : ndarray, shape (n, 3), float64, float32 or integer
            Vertex positions, as for ``step``.
        vf : ndarray, shape (p, 2), any integer dtype
            Vertex–face pairs, rows ``(vertex, face)``: a vertex that is not a
            corner of the face (``[]``: none).
        ee : ndarray, shape (q, 2), any integer dtype
            Edge–edge pairs, rows of two indices into
            ``ccdlab.edges(F, edges)`` that share no endpoint (``[]``: none).

        Returns
        -------
        StepResult
            As ``step``; ``report["bvh"]`` is ``"given"``, the BVH's counts
            zero, and ``report["vf"]["candidates"]`` the distinct pairs
            decided.

        Raises
        ------
        ValueError
            Bad frames (as ``step``), or a pair that is no candidate: a wrong
            shape or dtype, an index out of range, a vertex that is a corner
            of its face, edges that share an endpoint (naming the first such
            pair by its kind and row).
        RuntimeError
            As ``step``.
        """
    def proximity(
        self, V: npt.ArrayLike, *, distances: bool = False
    ) -> Dict[str, npt.NDArray[Any]]:
        """The pairs within this pipeline's ``min_distance`` of each other at
        the positions ``V``: what ``ccdlab.proximity(V, F, min_distance, ...)``
        answers with this pipeline's ``edges``, ``bodies`` and
        ``self_collision`` (the same pairs in the same order, the same
        distances), from the kept BVH, refitted: a barrier's active set asked
        at every iteration of a solve. It is the step from ``V`` to ``V``
        with every colliding pair kept and decided by the exact solver
        (whatever ``collect_pairs`` and ``solver`` say). A tree it builds
        under ``time_aligned="auto"`` saw no motion, so the next ``step``
        builds anew (and chooses from its own motion).

        Its filters and time-aligned pruning cull nothing more at rest than
        DNF alone (what ``ccdlab.proximity`` runs at ``d > 0``), and cost a
        little: ``filters="dnf", window=False`` makes a pipeline kept for
        this alone run as ``proximity`` does.

        Parameters
        ----------
        V : ndarray, shape (n, 3), float64, float32 or integer
            Vertex positions (converted as for ``ccdlab.step``).
        distances : bool, optional
            Also each pair's Euclidean distance, as ``ccdlab.proximity``
            gives it (default False).

        Returns
        -------
        dict
            As ``ccdlab.proximity``.

        Raises
        ------
        ValueError
            Bad positions, or another vertex count than the mesh's;
            a pipeline made with ``self_collision="moving"`` (at one instant
            nothing moves); more pairs than ``ccdlab.proximity`` lists.
        RuntimeError
            The pipeline is already running a step (in another thread, or a
            call further up this thread's stack).
        """
    def rebuild_next(self) -> None:
        """Makes the next step build its BVH anew instead of refitting it
        (after large deformations, say). Its result is a fresh step's.

        Raises
        ------
        RuntimeError
            The pipeline is running a step (as ``step``).
        """
    @property
    def config(self) -> Dict[str, Any]:
        """The configuration, as the keyword arguments that give it: a new dict
        at each read (changing it changes nothing; a pipeline's configuration
        is fixed when it is made, and its BVH is built for it).
        """
    @property
    def faces(self) -> npt.NDArray[np.int64]:
        """The mesh's triangles, int64 (m, 3), read-only (a copy: the
        pipeline's faces are fixed).
        """
    @property
    def edges(self) -> Optional[npt.NDArray[np.int64]]:
        """The mesh's codimensional edges as given, int64 (e, 2), read-only;
        None when none were given. Edge numbers (``ee_pairs``) are rows of
        ``ccdlab.edges(self.faces, self.edges)``, not of these.
        """
    @property
    def num_vertices(self) -> Optional[int]:
        """The mesh's vertex count, or None before the first step."""

@overload
def read_mesh(
    path: _AnyPath, *, with_edges: Literal[False] = False
) -> Tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """Reads a triangle mesh from a PLY (ASCII or binary) or OBJ file.

    The file is checked as ``ccdlab step`` checks a frame: at least one
    face or edge, indices in range, three distinct corners per face, two
    distinct ends per edge, finite coordinates. float32 files are widened
    exactly.

    Parameters
    ----------
    path : str, bytes or os.PathLike
        A ``.ply`` or ``.obj`` file (extension case-insensitive).
    with_edges : bool, optional
        Also return the file's codimensional edges (OBJ ``l`` polylines, a
        PLY ``edge`` element: rods, hair), as ``ccdlab.step`` takes them.
        Default False, which refuses a file that has some rather than drop
        them.

    Returns
    -------
    V : ndarray of float64, shape (n, 3)
        Vertex positions.
    F : ndarray of int64, shape (m, 3)
        Triangles, 0-based vertex indices.
    E : ndarray of int64, shape (e, 2)
        With ``with_edges=True`` only: the edges, 0-based, as stored.

    Raises
    ------
    OSError
        The file cannot be read (FileNotFoundError when it does not exist,
        IsADirectoryError for a folder).
    ValueError
        The file is malformed (the message names the file and the line or
        element), or it has edges and ``with_edges`` is False.
    TypeError
        ``path`` is no path.
    """
@overload
def read_mesh(
    path: _AnyPath, *, with_edges: Literal[True]
) -> Tuple[npt.NDArray[np.float64], npt.NDArray[np.int64], npt.NDArray[np.int64]]: ...
@overload
def read_mesh(
    path: _AnyPath, *, with_edges: bool
) -> Union[
    Tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]],
    Tuple[npt.NDArray[np.float64], npt.NDArray[np.int64], npt.NDArray[np.int64]],
]: ...

def edges(F: npt.ArrayLike, edges: Optional[npt.ArrayLike] = None) -> npt.NDArray[np.int64]:
    """The unique edges of a mesh: the triangles' in libigl's ``edges(F)``
    order, then the codimensional ones.

    Edge j is ``[min, max]``; the triangles' edges are sorted by their
    larger vertex, then by the smaller one. This is the order of the data
    sets' global IDs (edge j is ``#V + j``) and of ``StepResult.ee_pairs``.
    The codimensional edges (``edges``, as ``ccdlab.step`` takes them)
    follow in the order given, without the triangles' edges and repeats.

    Parameters
    ----------
    F : ndarray, shape (m, 3), any integer dtype
        Triangles, three distinct corners each.
    edges : ndarray, shape (e, 2), any integer dtype, or None, optional
        Codimensional edges (default None).

    Returns
    -------
    ndarray of int64, shape (E, 2)

    Raises
    ------
    ValueError
        A wrong shape or dtype, a negative index, a face repeating a vertex,
        or an edge joining a vertex to itself.
    """

def intersections(
    V: npt.ArrayLike,
    F: npt.ArrayLike,
    *,
    edges: Optional[npt.ArrayLike] = None,
    threads: Optional[SupportsIndex] = None,
) -> Dict[str, npt.NDArray[np.int64]]:
    """A mesh's static intersections at one instant: edges through triangles,
    and the pairs that touch (vertex–face, edge–edge and the points' pairs
    that share no vertex, at distance 0).

    The check to make before trusting CCD, which decides when features
    first meet, not whether they already cross (IPC Toolkit's
    ``has_intersections``). Exact for every float64 input.

    Parameters
    ----------
    V : ndarray, shape (n, 3), float64, float32 or integer
        Vertex positions (converted as for ``ccdlab.step``).
    F : ndarray, shape (m, 3), any integer dtype
        Triangles as vertex indices, as for ``ccdlab.step``.
    edges : ndarray, shape (e, 2), any integer dtype, optional
        Edges in no face (rods), as for ``ccdlab.step``.
    threads : int, optional
        Worker threads (default: all CPUs).

    Returns
    -------
    dict
        ``"edge_face"``: int64 (k, 2) rows ``(edge, face)``, an edge (index
        into ``ccdlab.edges(F, edges)``) through a triangle's interior;
        ``"vf"``, ``"ee"``, ``"ve"``, ``"vv"``: int64 (m, 2) pairs that
        touch (distance 0), indexed as ``StepResult.vf_pairs`` and the
        others (the colliding pairs of a step that does not move). Each
        ascending.

    Raises
    ------
    ValueError
        As ``ccdlab.step`` for bad positions, faces or edges; more than
        2**26 pairs to list (thousands of coincident points, say;
        ``ccdlab.has_intersections`` has no bound).
    """

def has_intersections(
    V: npt.ArrayLike,
    F: npt.ArrayLike,
    *,
    edges: Optional[npt.ArrayLike] = None,
    threads: Optional[SupportsIndex] = None,
) -> bool:
    """Whether a mesh at one instant has a pair of features that share no
    vertex and have a common point: an edge through a triangle, or a pair
    that touches (``ccdlab.intersections``, whose arguments it takes). It
    looks for edges through triangles only when nothing touches, and stops
    at the first one.
    """

def proximity(
    V: npt.ArrayLike,
    F: npt.ArrayLike,
    d: float,
    *,
    edges: Optional[npt.ArrayLike] = None,
    bodies: Optional[npt.ArrayLike] = None,
    self_collision: Union[bool, Sequence[bool], npt.NDArray[np.bool_]] = True,
    threads: Optional[SupportsIndex] = None,
    distances: bool = False,
) -> Dict[str, npt.NDArray[Any]]:
    """The pairs of a mesh's features within distance ``d`` of each other at
    one instant, exactly: the active set of a barrier.

    Vertex–face, edge–edge and the codimensional points' pairs (features
    that share a vertex are never paired) whose Euclidean distance is at
    most ``d``: the colliding pairs of ``ccdlab.step(V, V, F,
    min_distance=d)``, decided at rest. Exact for every float64 input.
    These are pairs of primitives, as the IPC Toolkit's candidates within
    ``dhat``; its collisions then merge the pairs whose closest points are
    the same vertex–edge or vertex–vertex pair (a vertex nearest to an edge
    of two faces: two vertex–face pairs here, one edge–vertex collision
    there), so a barrier summed over these pairs weighs such a contact once
    per pair. A simulation that keeps a ``Pipeline`` asks it
    (``Pipeline.proximity``) to refit one BVH from call to call.

    Parameters
    ----------
    V : ndarray, shape (n, 3), float64, float32 or integer
        Vertex positions (converted as for ``ccdlab.step``).
    F : ndarray, shape (m, 3), any integer dtype
        Triangles as vertex indices, as for ``ccdlab.step``.
    d : float
        The distance, >= 0 (0: the pairs that touch).
    edges : ndarray, shape (e, 2), any integer dtype, optional
        Edges in no face (rods), as for ``ccdlab.step``.
    bodies, self_collision : optional
        Which pairs are tested, as for ``ccdlab.step`` (so that a
        simulation's barrier and its steps see the same pairs), except
        ``self_collision="moving"``: at one instant nothing moves.
    threads : int, optional
        Worker threads (default: all CPUs).
    distances : bool, optional
        Also give each pair's Euclidean distance (what a barrier weighs it
        by), computed in float64: true up to rounding, not certified (the
        set of pairs is what is exact).

    Returns
    -------
    dict
        ``"vf"``, ``"ee"``, ``"ve"``, ``"vv"``: int64 (m, 2) pairs within
        ``d``, indexed as ``StepResult.vf_pairs`` and the others. Each
        ascending. With ``distances=True``, also ``"vf_distance"`` and the
        others: float64 (m,), one per pair, in the same order.

    Raises
    ------
    ValueError
        As ``ccdlab.step`` for bad positions, faces, edges or bodies; a
        negative or non-finite ``d``; more than 2**26 pairs to list (``d``
        as large as the mesh, say; 64 million pairs took 7 GB at peak), where
        ``ccdlab.step(V, V, F, min_distance=d)`` counts them without a bound.
    """

def candidates(
    V0: npt.ArrayLike,
    V1: npt.ArrayLike,
    F: npt.ArrayLike,
    *,
    edges: Optional[npt.ArrayLike] = None,
    k: Union[int, str] = 26,
    filters: str = "slpf+dnf",
    window: bool = True,
    time_aligned: Union[str, bool] = "auto",
    threads: Optional[SupportsIndex] = None,
    min_distance: float = 0.0,
    bodies: Optional[npt.ArrayLike] = None,
    self_collision: Union[bool, Sequence[bool], npt.NDArray[np.bool_], str] = True,
    points: bool = False,
) -> Dict[str, Any]:
    """The candidate pairs of one step that reach the exact test: those the
    BVH finds and the filters pass, listed instead of tested.

    A step with the same options decides exactly these pairs; tested one by
    one with the exact solver (``vertex_face_ccd_batch`` and
    ``edge_edge_ccd_batch`` on ``vf_points`` and ``ee_points``, with
    ``min_distance``) they give its colliding pairs. They are the pairs to
    give another narrow phase, or a filter of one's own, to compare it with
    the exact one on a real step. The codimensional points' pairs are not
    listed.

    Parameters
    ----------
    V0, V1, F, edges, k, filters, window, time_aligned, threads, min_distance, bodies, self_collision
        As for ``ccdlab.step`` (the same defaults): ``filters="none",
        window=False`` lists every pair the BVH finds; with
        ``time_aligned="auto"`` (the default) the BVH may prune pairs by
        their motion, and ``time_aligned=False`` lists the paper's BVH
        candidates.
    points : bool, optional
        Also return each pair's eight points (default False).

    Returns
    -------
    dict
        ``"vf"``: int64 (n, 2) rows ``(vertex, face)``; ``"ee"``: int64
        (m, 2) rows ``(edge, edge)``, indices into ``ccdlab.edges(F, edges)``,
        the smaller first; each ascending. ``"report"``: the step's report
        (``StepResult.report``) of what ran and what each stage removed:
        ``report["vf"]["candidates"]`` pairs from the BVH,
        ``culled_slpf``, ``culled_dnf``, ``culled_window``; nothing was
        tested, so ``colliding`` is 0 and ``toi`` None. With
        ``points=True``, ``"vf_points"`` (n, 8, 3) and ``"ee_points"``
        (m, 8, 3) float64: each pair's points in the data sets' order (the
        vertex and the face's corners, or the two edges' ends, at t = 0, then
        at t = 1), as the batch queries take them.

    Raises
    ------
    ValueError
        As ``ccdlab.step``; more than 2**26 pairs to list.
    """

def queries(
    *paths: _AnyPath,
    solver: str = "exact",
    min_time_ms: int = 50,
    min_distance: float = 0.0,
    oracle: bool = False,
) -> Dict[str, Any]:
    """Scores a solver on query sets with ground truth, as ``ccdlab queries``.

    Parameters
    ----------
    *paths : str, bytes or os.PathLike
        Query CSVs, Sample-Queries scene folders, Scalable-CCD scene folders,
        or folders holding several scenes (for example ``"datasets"``).
    solver : {"exact", "cubic"}, optional
        The solver to score (default "exact").
    min_time_ms : int, optional
        Minimum timed duration per query set, 0 to 60000 ms (default 50, as
        the command line; 0: each set is solved once more for the timing).
    min_distance : float, optional
        ``--min-distance``: a minimum separation d >= 0 (default 0, contact
        only). At d > 0 every query is also solved at d with the exact
        minimum-separation solver (solver must be "exact"), timed beside
        d = 0, and checked against the contact truth.
    oracle : bool, optional
        ``--oracle``: at d > 0, compare every verdict at d with the exact
        oracle (slow: about a millisecond a query).

    Returns
    -------
    dict
        The JSON object of ``ccdlab queries --json``: ``solver``, ``sets``
        (per set: path, kind, queries, positives, false_positives,
        false_negatives, mean_ns, exact_fallbacks, and where there are false
        positives or negatives ``disagreements``, the indices of those
        queries in the file's order), ``total`` and ``stamp``.
        At d > 0 also ``min_distance``, and per set and in ``total`` a
        ``within`` dict: positives (at d), contact_misses and
        later_than_contact (ground-truth contacts negative at d, or
        bracketed later than their contact: both must be 0), mean_ns (at
        d), exact_fallbacks, and with ``oracle`` oracle_disagreements (must
        be 0). The report is returned whatever it says, as the command line
        prints it; the command line's exit status is 1 where those counts
        are not 0.

    Raises
    ------
    OSError
        A path that cannot be read.
    ValueError
        A malformed file, a path without query sets, a set without ground
        truth, or a bad option (a min_distance that is negative, NaN or
        infinite; a positive one with solver "cubic"; oracle at d = 0).
    """

def load_queries(*paths: _AnyPath) -> List[Dict[str, Any]]:
    """The ground-truth query sets under some paths, as arrays: what
    ``queries`` scores, for scoring another solver.

    Parameters
    ----------
    *paths : str, bytes or os.PathLike
        As for ``ccdlab.queries``: query CSVs, scene folders, or folders
        holding several scenes (for example ``"datasets"``).

    Returns
    -------
    list of dict
        One per set, in ``queries``'s order: ``path`` (str), ``kind``
        (``"vf"`` or ``"ee"``), ``queries`` (float64 (n, 8, 3), the eight
        points in the data sets' order, as ``vertex_face_ccd_batch`` and
        ``edge_edge_ccd_batch`` take them — v, f0, f1, f2 or ea0, ea1, eb0,
        eb1 at t = 0, then the same at t = 1: the files' exact rationals
        rounded to nearest, or a Scalable-CCD step's candidate pairs resolved
        against its two frames) and ``truth`` (bool (n,), the exact answer:
        they collide in [0, 1]; None for a set without one). Every set is
        in memory at once.

    Raises
    ------
    OSError
        A path that cannot be read.
    ValueError
        A malformed file, or a path without query sets.
    """
