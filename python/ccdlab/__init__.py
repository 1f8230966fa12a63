"""ccdlab: exact continuous collision detection (CCD) of deforming triangle meshes.

The Rust library ccdlab, from Python:

- ``vertex_face_ccd`` / ``edge_edge_ccd``: one query, eight points in the data
  sets' order, with the exact solver (no false negatives or positives);
  ``None`` or a ``Toi(lower, upper)`` bracket of the earliest time of impact.
- ``vertex_face_ccd_batch`` / ``edge_edge_ccd_batch``: an ``(n, 8, 3)`` array of
  queries at once, in parallel.
- ``step(V0, V1, F, ...)``: one step of a deforming mesh through the whole
  pipeline (26-DOP BVH, SLPF and DNF filters, exact tests), as ``ccdlab step``.
- ``Pipeline(F, ...)``: a sequence of steps that refits its BVH, as
  ``ccdlab replay``.
- ``is_step_collision_free(V0, V1, F, ...)`` / ``Pipeline.is_collision_free``:
  whether a step is free of collisions, stopping at the first colliding pair,
  as ``ccdlab step --any``.
- ``earliest_toi(V0, V1, F, ...)`` / ``Pipeline.earliest_toi``: a step's
  earliest time of impact alone, skipping the pairs that cannot hold it, as
  ``ccdlab step --toi-only``.
- ``candidates(V0, V1, F, ...)``: the pairs of a step that reach the exact test
  (those the BVH finds and the filters pass), with their points: to give
  another narrow phase or filter a real step's pairs.
- ``vertex_face_filter_batch`` / ``edge_edge_filter_batch``: which of the
  pipeline's filters (SLPF, DNF, the coplanar window) culls each query of a
  batch, to compare a filter of one's own with them pair by pair.
- ``intersections(V, F, ...)`` / ``has_intersections``: a mesh's static
  intersections at one instant (edges through triangles, touching pairs),
  exact: the check before trusting CCD.
- ``proximity(V, F, d, ...)``: the pairs within distance ``d`` at one instant,
  exact (a barrier's active set).
- ``referenced_vertices``: a full mesh's vertices that faces or edges use,
  and the mesh over them alone (other vertices would be particles).
- ``read_mesh``, ``edges``, ``queries``: PLY/OBJ frames, libigl's edge order,
  and the ground-truth scores of ``ccdlab queries``; ``load_queries``: the
  ground-truth query sets as arrays, to score another solver.

Bad input raises ``ValueError`` (``OSError`` for files) with the library's
message; the interpreter lock is released while Rust works.
"""

from ._mesh import referenced_vertices
from ._types import Toi
from ._native import (
    Pipeline,
    StepResult,
    __version__,
    candidates,
    edge_edge_ccd,
    edge_edge_ccd_batch,
    edge_edge_filter_batch,
    earliest_toi,
    edges,
    has_intersections,
    intersections,
    is_step_collision_free,
    load_queries,
    proximity,
    queries,
    read_mesh,
    step,
    vertex_face_ccd,
    vertex_face_ccd_batch,
    vertex_face_filter_batch,
)

__all__ = [
    "Pipeline",
    "StepResult",
    "Toi",
    "__version__",
    "candidates",
    "edge_edge_ccd",
    "edge_edge_ccd_batch",
    "edge_edge_filter_batch",
    "earliest_toi",
    "edges",
    "has_intersections",
    "intersections",
    "is_step_collision_free",
    "load_queries",
    "proximity",
    "queries",
    "read_mesh",
    "referenced_vertices",
    "step",
    "vertex_face_ccd",
    "vertex_face_ccd_batch",
    "vertex_face_filter_batch",
]
