"""Mesh helpers in numpy around the native functions."""

from typing import Optional, Tuple

import numpy as np
import numpy.typing as npt

from ._native import edges as _edges

__all__ = ["referenced_vertices"]


def referenced_vertices(
    F: npt.ArrayLike, edges: Optional[npt.ArrayLike] = None
) -> Tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The vertices that a face or an edge uses, and the mesh over them alone.

    Every vertex in no face and no edge is a point to ``step``, tested as a
    particle against the faces, the edges and the other points. A full mesh
    whose other vertices are not particles (the interior vertices of a
    tetrahedral mesh, say) keeps them out with this, as the IPC Toolkit's
    ``CollisionMesh.build_from_full_mesh`` does.

    Parameters
    ----------
    F : ndarray, shape (m, 3), any integer dtype
        Triangles as indices into the full mesh's vertices.
    edges : ndarray, shape (e, 2), any integer dtype, optional
        Edges in no face (rods), likewise.

    Returns
    -------
    (ids, F, E)
        ``ids``: int64 (k,), the vertices used, ascending; the positions of
        the reduced mesh are ``V[ids]``, and its vertex ``i`` is the full
        mesh's ``ids[i]``. ``F`` (m, 3) and ``E`` (e, 2), int64: the faces
        and the edges renumbered over ``ids``, in their order. The
        renumbering keeps the vertices' order, so ``ccdlab.edges`` lists the
        reduced mesh's edges in the full mesh's order: edge and face indices
        in results are the same in both.

    Raises
    ------
    ValueError
        As ``ccdlab.edges`` for bad faces or edges.
    """
    _edges(F, edges)  # checks the arrays, with the library's messages
    faces = np.asarray(F).astype(np.int64, copy=False).reshape(-1, 3)
    rods = np.zeros((0, 2), np.int64)
    if edges is not None:
        rods = np.asarray(edges).astype(np.int64, copy=False).reshape(-1, 2)
    ids = np.unique(np.concatenate([faces.ravel(), rods.ravel()]))
    return ids, np.searchsorted(ids, faces), np.searchsorted(ids, rods)
