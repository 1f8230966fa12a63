"""Type stubs of ccdlab's native module (the Rust bindings)."""

import os
from typing import Any, Dict, List, Literal, Optional, Sequence, Tuple, Union, final, overload

import numpy as np
import numpy.typing as npt

from ._types import Toi

__version__: str

ArrayLike3 = npt.ArrayLike
"""A length-3 array-like of floats (a point)."""

AnyPath = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]

def vertex_face_ccd(
    v_t0: ArrayLike3,
    f0_t0: ArrayLike3,
    f1_t0: ArrayLike3,
    f2_t0: ArrayLike3,
    v_t1: ArrayLike3,
    f0_t1: ArrayLike3,
    f1_t1: ArrayLike3,
    f2_t1: ArrayLike3,
    *,
    solver: str = "exact",
    min_distance: float = 0.0,
) -> Optional[Toi]:
    """Exact CCD of a vertex and a triangle moving linearly over t in [0, 1].

    Returns None when they never touch, else the bracket ``Toi(lower, upper)``
    of the earliest time of impact. ``solver``: "exact" (default) or "cubic".
    ``min_distance`` d >= 0: positive when the vertex comes within Euclidean
    distance d of the closed triangle (0, the default: contact; d > 0 needs
    the exact solver). Raises ValueError for a point that is not 3 finite
    coordinates, or a negative, NaN or infinite ``min_distance``.
    """

def edge_edge_ccd(
    ea0_t0: ArrayLike3,
    ea1_t0: ArrayLike3,
    eb0_t0: ArrayLike3,
    eb1_t0: ArrayLike3,
    ea0_t1: ArrayLike3,
    ea1_t1: ArrayLike3,
    eb0_t1: ArrayLike3,
    eb1_t1: ArrayLike3,
    *,
    solver: str = "exact",
    min_distance: float = 0.0,
) -> Optional[Toi]:
    """Exact CCD of two edges moving linearly over t in [0, 1].

    Returns None when they never touch (come within ``min_distance``), else
    ``Toi(lower, upper)``. Options as for ``vertex_face_ccd``.
    """

def vertex_face_ccd_batch(
    queries: npt.NDArray[Union[np.float64, np.float32, np.integer[Any]]],
    *,
    solver: str = "exact",
    min_distance: float = 0.0,
    threads: Optional[int] = None,
) -> Tuple[npt.NDArray[np.bool_], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Vertex-face CCD of an (n, 8, 3) array of queries, in parallel.

    ``solver`` and ``min_distance`` as for ``vertex_face_ccd``. Returns ``(hit, toi_lower, toi_upper)``, each of length n (NaN where no hit).
    """

def edge_edge_ccd_batch(
    queries: npt.NDArray[Union[np.float64, np.float32, np.integer[Any]]],
    *,
    solver: str = "exact",
    min_distance: float = 0.0,
    threads: Optional[int] = None,
) -> Tuple[npt.NDArray[np.bool_], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Edge-edge CCD of an (n, 8, 3) array of queries, in parallel.

    ``solver`` and ``min_distance`` as for ``edge_edge_ccd``. Returns ``(hit, toi_lower, toi_upper)``, each of length n (NaN where no hit).
    """

def vertex_face_filter_batch(
    queries: npt.NDArray[Union[np.float64, np.float32, np.integer[Any]]],
    *,
    filters: str = "slpf+dnf",
    window: bool = True,
    min_distance: float = 0.0,
    threads: Optional[int] = None,
) -> npt.NDArray[np.str_]:
    """Which of the pipeline's filters culls each vertex-face query of an (n, 8, 3) array.

    As a step runs them: SLPF (paper's directions), then DNF and, with ``window``, the
    coplanar-window filter; at ``min_distance`` d > 0 SLPF is left out and DNF and the
    window test within d. Returns a ``<U6`` array: ``"slpf"``, ``"dnf"``, ``"window"``,
    or ``""`` where none culled. A culled query provably never touches (comes within d).
    Raises ValueError as ``vertex_face_ccd_batch`` (and for an unknown ``filters``).
    """

def edge_edge_filter_batch(
    queries: npt.NDArray[Union[np.float64, np.float32, np.integer[Any]]],
    *,
    filters: str = "slpf+dnf",
    window: bool = True,
    min_distance: float = 0.0,
    threads: Optional[int] = None,
) -> npt.NDArray[np.str_]:
    """Which of the pipeline's filters culls each edge-edge query; as ``vertex_face_filter_batch``."""

@final
class StepResult:
    """The result of one step: time of impact, colliding pairs, report (arrays read-only)."""

    @property
    def toi(self) -> Optional[float]:
        """Earliest time of impact (a lower bound; it may equal the true time; 0.0 when a pair touches or is within min_distance at t = 0), or None without contact."""
    @property
    def toi_upper(self) -> Optional[float]:
        """An upper bound on the earliest time of impact, or None."""
    @property
    def vf_pairs(self) -> Optional[npt.NDArray[np.int64]]:
        """Colliding (vertex, face) pairs, (m, 2); None unless collect_pairs."""
    @property
    def ee_pairs(self) -> Optional[npt.NDArray[np.int64]]:
        """Colliding (edge, edge) pairs in ``edges(F, edges)`` order, (m, 2); None unless collect_pairs."""
    @property
    def ve_pairs(self) -> Optional[npt.NDArray[np.int64]]:
        """Colliding (point, codimensional edge) pairs, (m, 2); None unless collect_pairs."""
    @property
    def vv_pairs(self) -> Optional[npt.NDArray[np.int64]]:
        """Colliding (point, point) pairs, smaller vertex first, (m, 2); None unless collect_pairs."""
    @property
    def ve_toi(self) -> Optional[npt.NDArray[np.float64]]:
        """Per point-edge pair (lower, upper) time of impact, (m, 2)."""
    @property
    def vv_toi(self) -> Optional[npt.NDArray[np.float64]]:
        """Per point-point pair (lower, upper) time of impact, (m, 2)."""
    @property
    def vf_toi(self) -> Optional[npt.NDArray[np.float64]]:
        """Per vertex-face pair (lower, upper) time of impact, (m, 2)."""
    @property
    def ee_toi(self) -> Optional[npt.NDArray[np.float64]]:
        """Per edge-edge pair (lower, upper) time of impact, (m, 2)."""
    @property
    def report(self) -> Dict[str, Any]:
        """The JSON object of ``ccdlab step --json``."""

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
    threads: Optional[int] = None,
    collect_pairs: bool = False,
    min_distance: float = 0.0,
    bodies: Optional[npt.ArrayLike] = None,
    self_collision: Union[bool, Sequence[bool], npt.NDArray[np.bool_], str] = True,
) -> StepResult:
    """One step of a deforming triangle mesh through the whole pipeline.

    V0, V1: (n, 3) positions at t = 0 and 1 (float64; float32 widened exactly;
    integers up to 2**53 in magnitude converted exactly); F: (m, 3) integer
    triangles; ``edges``: (e, 2) codimensional edges (rods, hair: edges in no
    triangle; a triangle's edge or a repeat is dropped), whose vertices are
    tested against the faces and whose edges against every edge; points
    (vertices in no face and no edge) are also tested against those edges
    and each other (``ve_pairs``, ``vv_pairs``).
    The options and defaults are those of ``ccdlab step``;
    ``min_distance`` is its ``--min-distance`` (features within that
    Euclidean distance collide; 0: contact).
    ``bodies``: a body label per vertex (n,); a pair is tested unless all
    its vertices are in one body that does not collide with itself
    (``self_collision``: one bool, or one per body label), the IPC
    Toolkit's rule. Without ``bodies``: ``self_collision=False`` makes each
    connected component a body (``--self-collision off``), and ``"moving"``
    makes the components that do not move a static obstacle
    (``--self-collision moving``).
    Raises ValueError for bad arrays or options.
    """

@final
class Pipeline:
    """A pipeline over a frame sequence of one mesh; refits its BVH between steps.

    Its steps follow one another: stepping it while another thread runs one of
    its steps raises RuntimeError (use one Pipeline per thread)."""

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
        threads: Optional[int] = None,
        collect_pairs: bool = False,
        min_distance: float = 0.0,
        bodies: Optional[npt.ArrayLike] = None,
        self_collision: Union[bool, Sequence[bool], npt.NDArray[np.bool_], str] = True,
        num_vertices: Optional[int] = None,
    ) -> "Pipeline": ...
    def step(self, V0: npt.ArrayLike, V1: npt.ArrayLike) -> StepResult:
        """Runs one step (the first builds the BVH, the next ones refit it)."""
    def proximity(
        self, V: npt.ArrayLike, *, distances: bool = False
    ) -> Dict[str, npt.NDArray[Any]]:
        """The pairs within this pipeline's ``min_distance`` at the positions ``V``:
        ``proximity(V, F, min_distance, ...)``'s answer (with this pipeline's edges and
        bodies), from the kept BVH refitted. Raises ValueError for bad positions and for
        ``self_collision="moving"``."""
    def rebuild_next(self) -> None:
        """Makes the next step build its BVH anew."""
    @property
    def config(self) -> Dict[str, Any]:
        """The configuration, as the keyword arguments that give it: a new dict at each
        read (changing it changes nothing; the configuration is fixed)."""
    @property
    def faces(self) -> npt.NDArray[np.int64]:
        """The mesh's triangles, (m, 3), read-only."""
    @property
    def edges(self) -> Optional[npt.NDArray[np.int64]]:
        """The codimensional edges as given, (e, 2), read-only; None when none were."""
    @property
    def num_vertices(self) -> Optional[int]:
        """The mesh's vertex count, or None before the first step."""

@overload
def read_mesh(
    path: AnyPath, *, with_edges: Literal[False] = False
) -> Tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """Reads a PLY or OBJ mesh: ``(V (n, 3) float64, F (m, 3) int64)``, and
    with ``with_edges=True`` its codimensional edges ``E (e, 2) int64`` (OBJ
    ``l`` lines, a PLY ``edge`` element), which are refused without it.

    Raises OSError (FileNotFoundError) for unreadable files, ValueError for
    malformed ones.
    """
@overload
def read_mesh(
    path: AnyPath, *, with_edges: Literal[True]
) -> Tuple[npt.NDArray[np.float64], npt.NDArray[np.int64], npt.NDArray[np.int64]]: ...

def edges(F: npt.ArrayLike, edges: Optional[npt.ArrayLike] = None) -> npt.NDArray[np.int64]:
    """The unique edges, (E, 2): F's in libigl's ``edges(F)`` order, then the
    codimensional ``edges`` (without F's and repeats), in the order given."""

def intersections(
    V: npt.ArrayLike,
    F: npt.ArrayLike,
    *,
    edges: Optional[npt.ArrayLike] = None,
    threads: Optional[int] = None,
) -> Dict[str, npt.NDArray[np.int64]]:
    """A mesh's static intersections at one instant, exact: edges through triangles, and
    the pairs that touch (vertex-face, edge-edge, the points' pairs; sharing no vertex).

    ``"edge_face"``: (k, 2) rows (edge, face), an edge (index into ``edges(F, edges)``)
    through a triangle's interior; ``"vf"``, ``"ee"``, ``"ve"``, ``"vv"``: (m, 2) pairs
    that touch (distance 0), indexed as ``StepResult.vf_pairs`` and the others. Each
    ascending. Raises ValueError as ``step`` for bad positions, faces or edges.
    """

def has_intersections(
    V: npt.ArrayLike,
    F: npt.ArrayLike,
    *,
    edges: Optional[npt.ArrayLike] = None,
    threads: Optional[int] = None,
) -> bool:
    """Whether ``intersections(V, F, ...)`` finds a pair (IPC Toolkit's ``has_intersections``);
    stops at the first edge through a triangle."""

def proximity(
    V: npt.ArrayLike,
    F: npt.ArrayLike,
    d: float,
    *,
    edges: Optional[npt.ArrayLike] = None,
    bodies: Optional[npt.ArrayLike] = None,
    self_collision: Union[bool, Sequence[bool], npt.NDArray[np.bool_]] = True,
    threads: Optional[int] = None,
    distances: bool = False,
) -> Dict[str, npt.NDArray[Any]]:
    """The pairs of a mesh's features within Euclidean distance ``d`` of each other at
    one instant, exact (a barrier's active set): the colliding pairs of
    ``step(V, V, F, min_distance=d)``. These are pairs of primitives, before the IPC
    Toolkit's merge of those whose closest points are one vertex-edge or vertex-vertex
    pair into one collision.

    ``"vf"``, ``"ee"``, ``"ve"``, ``"vv"``: int64 (m, 2) pairs, indexed as
    ``StepResult.vf_pairs`` and the others, each ascending. With ``distances=True``,
    also ``"vf_distance"`` and the others: float64 (m,), each pair's Euclidean
    distance in float64 (true up to rounding, not certified; the set is exact).
    ``bodies`` and ``self_collision`` as for ``step`` (not ``"moving"``: nothing
    moves at one instant). Raises ValueError as ``step`` for bad arrays, and for a
    negative or non-finite ``d``.
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
    threads: Optional[int] = None,
    min_distance: float = 0.0,
    bodies: Optional[npt.ArrayLike] = None,
    self_collision: Union[bool, Sequence[bool], npt.NDArray[np.bool_], str] = True,
    points: bool = False,
) -> Dict[str, Any]:
    """The candidate pairs of one step that reach the exact test: those the BVH finds
    and the filters pass, listed instead of tested (options as for ``step``;
    ``filters="none", window=False, time_aligned=False``: every pair the BVH finds,
    those whose swept k-DOPs overlap).

    ``"vf"``: (n, 2) ``(vertex, face)``; ``"ee"``: (m, 2) ``(edge, edge)`` into
    ``edges(F, edges)``; each ascending. ``"report"``: the step's report of what ran
    and culled (nothing tested: ``colliding`` 0, ``toi`` None). With ``points=True``,
    ``"vf_points"`` and ``"ee_points"``: (n, 8, 3) float64 in the data sets' order,
    as the batch queries take them. The codimensional points' pairs are not listed.
    Raises ValueError as ``step``.
    """

def queries(
    *paths: AnyPath,
    solver: str = "exact",
    min_time_ms: int = 50,
    min_distance: float = 0.0,
    oracle: bool = False,
) -> Dict[str, Any]:
    """Scores a solver on ground-truth query sets: the JSON of ``ccdlab queries --json``.

    ``min_distance``, ``oracle``: ``--min-distance``, ``--oracle`` (at d > 0 each
    set and the total also have ``within``: positives at d, contact_misses,
    later_than_contact, mean_ns, exact_fallbacks, oracle_disagreements).
    """

def load_queries(*paths: AnyPath) -> List[Dict[str, Any]]:
    """The ground-truth query sets under the paths, as arrays, one dict per set
    in ``queries``'s order: ``path``, ``kind`` ("vf" or "ee"), ``queries``
    (float64 (n, 8, 3), as the batch functions take them) and ``truth`` (bool
    (n,), or None). For scoring another solver against the ground truth.
    """
