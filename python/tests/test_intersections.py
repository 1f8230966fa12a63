"""A mesh's static intersections: ``ccdlab.intersections`` and ``has_intersections``."""

import numpy as np
import pytest

import ccdlab

# Triangle 0 in z = 0; triangle 1 upright in the plane x = y through it.
V = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [.25, .25, 1], [.25, .25, -1], [3, 3, 0]], float)
F = np.array([[0, 1, 2], [3, 4, 5]])


def test_crossing_triangles():
    found = ccdlab.intersections(V, F)
    E = ccdlab.edges(F)
    rows = {tuple(E[e]): f for e, f in found["edge_face"].tolist()}
    assert rows == {(1, 2): 1, (3, 4): 0}
    assert all(found[k].shape == (0, 2) for k in ("vf", "ee", "ve", "vv"))
    assert found["edge_face"].dtype == np.int64 and not found["edge_face"].flags.writeable
    assert ccdlab.has_intersections(V, F, threads=1)


def test_touching_pairs_are_those_of_a_still_step():
    W = V.copy()
    W[4] = [.25, .25, 0]  # on triangle 0, triangle 1 above it
    found = ccdlab.intersections(W, F)
    assert found["edge_face"].shape == (0, 2)
    r = ccdlab.step(W, W, F, collect_pairs=True)
    assert found["vf"].tolist() == r.vf_pairs.tolist() == [[4, 0]]
    assert found["ee"].tolist() == r.ee_pairs.tolist()
    assert ccdlab.has_intersections(W, F)
    W[4, 2] = 0.5
    assert not ccdlab.has_intersections(W, F)


def test_a_rod_through_a_triangle():
    W = np.vstack([V[:3], [[.1, .2, -1], [.1, .2, 1]]])
    found = ccdlab.intersections(W, F[:1], edges=[[3, 4]])
    assert found["edge_face"].tolist() == [[3, 0]]  # the rod follows the 3 face edges
    assert not ccdlab.has_intersections(W, F[:1])  # without the rod: a triangle alone


@pytest.mark.parametrize("seed", range(3))
def test_random_crossings_against_a_plain_test(seed):
    # Integer grid coordinates: the crossing test in exact integers.
    rng = np.random.default_rng(seed)
    V = rng.integers(-2, 3, (12, 3)).astype(float)
    F = []
    while len(F) < 8:
        t = sorted(rng.choice(12, 3, replace=False).tolist())
        if t not in F:
            F.append(t)
    F = np.array(F)
    E = ccdlab.edges(F)
    want = []
    for e, (p, q) in enumerate(E):
        for f, (a, b, c) in enumerate(F):
            if len({p, q} & {a, b, c}) == 0 and _crosses(V[p], V[q], V[a], V[b], V[c]):
                want.append([e, f])
    assert ccdlab.intersections(V, F)["edge_face"].tolist() == want


def _crosses(p, q, a, b, c):
    """Cramer's rule in Python integers: p + s (q - p) = a + u (b - a) + w (c - a) with
    0 < s < 1, u, w > 0, u + w < 1."""
    p, q, a, b, c = (list(map(int, x)) for x in (p, q, a, b, c))
    cols = [[q[i] - p[i] for i in range(3)], [a[i] - b[i] for i in range(3)],
            [a[i] - c[i] for i in range(3)]]
    rhs = [a[i] - p[i] for i in range(3)]

    def det(m):
        return (m[0][0] * (m[1][1] * m[2][2] - m[2][1] * m[1][2])
                - m[1][0] * (m[0][1] * m[2][2] - m[2][1] * m[0][2])
                + m[2][0] * (m[0][1] * m[1][2] - m[1][1] * m[0][2]))

    d = det(cols)
    if d == 0:
        return False
    s, u, w = (det([rhs if j == k else cols[j] for j in range(3)]) for k in range(3))
    if d < 0:
        s, u, w, d = -s, -u, -w, -d
    return 0 < s < d and u > 0 and w > 0 and u + w < d


def test_bad_input():
    with pytest.raises(ValueError, match="F: face 1 refers to vertex 5"):
        ccdlab.intersections(V[:5], F)
    with pytest.raises(ValueError, match="V: vertex 0"):
        ccdlab.has_intersections(np.full((6, 3), np.nan), F)
    with pytest.raises(TypeError, match="threads"):
        ccdlab.intersections(V, F, threads=True)
