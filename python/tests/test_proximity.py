"""The pairs within a distance at one instant: ``ccdlab.proximity``."""

from fractions import Fraction

import numpy as np
import pytest

import ccdlab
from conftest import BALL, FUNNEL

# A triangle in z = 0 and a vertex of a second one at height 0.5 over it.
V = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [.25, .25, .5], [2, 2, 2], [3, 2, 2]], float)
F = np.array([[0, 1, 2], [3, 4, 5]])


def test_a_vertex_over_a_face_is_within_its_height_exactly():
    found = ccdlab.proximity(V, F, 0.5)
    assert found["vf"].tolist() == [[3, 0]]
    assert found["vf"].dtype == np.int64 and not found["vf"].flags.writeable
    assert all(found[k].shape == (0, 2) for k in ("ee", "ve", "vv"))
    below = ccdlab.proximity(V, F, np.nextafter(0.5, 0))
    assert all(below[k].shape == (0, 2) for k in ("vf", "ee", "ve", "vv"))
    assert ccdlab.proximity(V, F, 0.0)["vf"].shape == (0, 2)


def test_the_pairs_of_a_step_that_does_not_move():
    V, F = ccdlab.read_mesh(FUNNEL / "frames" / "227.ply")
    E = ccdlab.edges(F)
    d = 0.01 * np.linalg.norm(V[E[:, 0]] - V[E[:, 1]], axis=1).mean()
    found = ccdlab.proximity(V, F, d)
    r = ccdlab.step(V, V, F, min_distance=d, collect_pairs=True)
    assert found["vf"].tolist() == r.vf_pairs.tolist()
    assert found["ee"].tolist() == r.ee_pairs.tolist()
    assert len(found["vf"]) > 0 and len(found["ee"]) > 0
    one = ccdlab.proximity(V, F, d, threads=1)
    assert all(np.array_equal(one[k], found[k]) for k in found)


def test_a_kept_pipeline_answers_proximity_as_the_one_shot_call():
    V0, funnel = ccdlab.read_mesh(FUNNEL / "frames" / "227.ply")
    V1, _ = ccdlab.read_mesh(FUNNEL / "frames" / "228.ply")
    E = ccdlab.edges(funnel)
    d = 0.01 * np.linalg.norm(V0[E[:, 0]] - V0[E[:, 1]], axis=1).mean()
    # Not collecting pairs, default filters: the answer is the same; its
    # configuration is as made after each call.
    kept = ccdlab.Pipeline(funnel, min_distance=d)
    for i, X in enumerate((V0, V1, 0.5 * (V0 + V1))):
        got = kept.proximity(X, distances=True)
        want = ccdlab.proximity(X, funnel, d, distances=True)
        assert sorted(got) == sorted(want)
        assert all(np.array_equal(got[k], want[k]) for k in want), i
        assert not got["vf"].flags.writeable
        assert len(got["vf"]) > 0 and len(got["ee"]) > 0
    assert kept.config["collect_pairs"] is False
    assert kept.step(V0, V1).vf_pairs is None
    assert set(kept.proximity(V0)) == {"vf", "ee", "ve", "vv"}
    # Bodies as the pipeline's: those across the two components only.
    across = ccdlab.Pipeline(F, min_distance=0.5, self_collision=False)
    assert across.proximity(V)["vf"].tolist() == [[3, 0]]
    alone = ccdlab.Pipeline(F, min_distance=0.5, bodies=np.zeros(6, int), self_collision=False)
    assert alone.proximity(V)["vf"].shape == (0, 2)


def test_a_kept_pipeline_decides_exactly_and_chooses_pruning_from_motion():
    # A vertex touching a face at rest: the cubic solver misses such pairs;
    # a pipeline made with it still answers proximity exactly.
    touching = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [.2, .2, 0], [.2, .2, 1],
                         [1.2, .2, 1]], float)
    assert ccdlab.proximity(touching, F, 0.0)["vf"].tolist() == [[3, 0]]
    assert ccdlab.Pipeline(F, solver="cubic").proximity(touching)["vf"].tolist() == [[3, 0]]
    # A tree built at rest under time_aligned="auto" saw no motion: the next
    # step builds anew and prunes as a fresh step does, then refits.
    V0, ball = ccdlab.read_mesh(BALL / "frames" / "cloth_ball92.ply")
    V1, _ = ccdlab.read_mesh(BALL / "frames" / "cloth_ball93.ply")
    fresh = ccdlab.step(V0, V1, ball).report
    assert fresh["time_aligned"] is True
    kept = ccdlab.Pipeline(ball)
    kept.proximity(V0)
    first = kept.step(V0, V1).report
    assert (first["bvh"], first["time_aligned"]) == ("build", True)
    kept.proximity(V0)
    assert kept.step(V0, V1).report["bvh"] == "refit"


def test_a_kept_pipeline_refuses_what_proximity_refuses():
    with pytest.raises(ValueError, match="moving"):
        ccdlab.Pipeline(F, min_distance=0.5, self_collision="moving").proximity(V)
    p = ccdlab.Pipeline(F, min_distance=0.5)
    with pytest.raises(ValueError, match=r"^V: vertex 1 \(numbered from 0\) has a non-finite"):
        p.proximity(np.where(np.arange(6)[:, None] == 1, np.nan, V))
    with pytest.raises(ValueError, match="F: face 1 refers to vertex 5"):
        p.proximity(V[:5])
    assert p.proximity(V)["vf"].tolist() == [[3, 0]]
    # Bodies that do not fit the first call's vertex count do not fix it.
    labelled = ccdlab.Pipeline(F, min_distance=0.5, bodies=[0, 0, 0, 1, 1, 1], self_collision=False)
    with pytest.raises(ValueError, match="bodies: 6 body labels for a mesh of 7 vertices"):
        labelled.proximity(np.vstack([V, [[9, 9, 9]]]))
    assert labelled.num_vertices is None
    assert labelled.proximity(V)["vf"].tolist() == [[3, 0]]
    with pytest.raises(ValueError, match="V has 5 vertices but this pipeline's mesh has 6"):
        p.proximity(V[:5])
    assert p.proximity(V)["vf"].tolist() == [[3, 0]]


def _sq(v):
    return sum(x * x for x in v)


def _sub(a, b):
    return [x - y for x, y in zip(a, b)]


def _dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def _cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def _point_segment(p, a, b):
    """Squared distance, exact (Fractions)."""
    u, w = _sub(b, a), _sub(p, a)
    uu = _sq(u)
    t = min(max(_dot(w, u) / uu, 0), 1) if uu else 0
    return _sq(_sub(w, [t * x for x in u]))


def _point_triangle(p, a, b, c):
    best = min(_point_segment(p, a, b), _point_segment(p, b, c), _point_segment(p, c, a))
    n = _cross(_sub(b, a), _sub(c, a))
    if _sq(n) and all(_dot(_cross(_sub(y, x), _sub(p, x)), n) >= 0
                      for x, y in ((a, b), (b, c), (c, a))):
        best = min(best, _dot(_sub(p, a), n) ** 2 / _sq(n))
    return best


def _segment_segment(a0, a1, b0, b1):
    best = min(_point_segment(a0, b0, b1), _point_segment(a1, b0, b1),
               _point_segment(b0, a0, a1), _point_segment(b1, a0, a1))
    u, v, w = _sub(a1, a0), _sub(b1, b0), _sub(a0, b0)
    uu, vv, uv, uw, vw = _sq(u), _sq(v), _dot(u, v), _dot(u, w), _dot(v, w)
    den = uu * vv - uv * uv
    if den:
        s, r = (uv * vw - vv * uw) / den, (uu * vw - uv * uw) / den
        if 0 <= s <= 1 and 0 <= r <= 1:
            best = min(best, _sq(_sub([x + s * y for x, y in zip(w, u)], [r * y for y in v])))
    return best


@pytest.mark.parametrize("seed", range(4))
def test_random_meshes_against_exact_rational_distances(seed):
    # Integer grid coordinates: many pairs exactly d apart, coplanar or touching.
    rng = np.random.default_rng(seed)
    V = rng.integers(-2, 3, (12, 3)).astype(float)
    F = []
    while len(F) < 6:
        t = sorted(rng.choice(12, 3, replace=False).tolist())
        if t not in F:
            F.append(t)
    F = np.array(F)
    E = ccdlab.edges(F)
    P = [[Fraction(int(x)) for x in p] for p in V]
    # Vertices in no face are points: tested against the faces and each other.
    points = sorted(set(range(12)) - set(F.ravel().tolist()))
    for d in (0.0, 0.5, 1.0, 1.25, 2.0):
        dd = Fraction(d) ** 2
        vf = [[v, f] for v in range(12) for f, tri in enumerate(F)
              if v not in tri and _point_triangle(P[v], *(P[i] for i in tri)) <= dd]
        ee = [[i, j] for i, (p, q) in enumerate(E) for j, (r, s) in enumerate(E)
              if i < j and not {p, q} & {r, s}
              and _segment_segment(P[p], P[q], P[r], P[s]) <= dd]
        vv = [[v, w] for v in points for w in points if v < w and _sq(_sub(P[v], P[w])) <= dd]
        found = ccdlab.proximity(V, F, d)
        assert found["vf"].tolist() == vf, d
        assert found["ee"].tolist() == ee, d
        assert found["vv"].tolist() == vv, d
        # Their distances, against the exact squared ones (integer coordinates:
        # the float64 values are within a few ulps).
        measured = ccdlab.proximity(V, F, d, distances=True)
        exact = {
            "vf": [_point_triangle(P[v], *(P[i] for i in F[f])) for v, f in vf],
            "ee": [_segment_segment(P[E[i][0]], P[E[i][1]], P[E[j][0]], P[E[j][1]])
                   for i, j in ee],
            "vv": [_sq(_sub(P[v], P[w])) for v, w in vv],
        }
        for kind, squares in exact.items():
            got = measured[kind + "_distance"]
            assert got.dtype == np.float64 and got.shape == (len(squares),)
            assert not got.flags.writeable
            assert np.array_equal(measured[kind], found[kind])
            for r, sq in zip(got.tolist(), squares):
                assert abs(r - float(sq) ** 0.5) <= 1e-14 * (1 + r), (kind, r, sq)
        assert "vf_distance" not in found


def test_points_and_rods():
    # A rod at x = 0.5, 0.25 above the triangle's plane, across edges (0, 1) and
    # (1, 2); its end 4 is 0.433 from the triangle's edge (1, 2), its end 3 and
    # the edge (0, 2) are farther than 0.5; the point 5, exactly 0.5 from end 4.
    V = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [.5, -1, .25], [.5, 1, .25],
                  [.5, 1.5, .25]], float)
    assert ccdlab.edges(F[:1], [[3, 4]]).tolist() == [[0, 1], [0, 2], [1, 2], [3, 4]]
    found = ccdlab.proximity(V, F[:1], 0.5, edges=[[3, 4]])
    assert found["vf"].tolist() == [[4, 0]]
    assert found["ee"].tolist() == [[0, 3], [2, 3]]
    assert found["ve"].tolist() == [[5, 3]]
    assert found["vv"].shape == (0, 2)
    measured = ccdlab.proximity(V, F[:1], 0.5, edges=[[3, 4]], distances=True)
    assert measured["ve_distance"].tolist() == [0.5]
    assert measured["vv_distance"].shape == (0,)
    assert ccdlab.proximity(V, F[:1], np.nextafter(0.5, 0), edges=[[3, 4]])["ve"].shape == (0, 2)


def test_bodies_and_bad_arguments():
    # Two components within 0.5 of each other: a pair across bodies.
    assert ccdlab.proximity(V, F, 0.5, self_collision=False)["vf"].tolist() == [[3, 0]]
    bodies = np.zeros(6, int)
    assert ccdlab.proximity(V, F, 0.5, bodies=bodies, self_collision=False)["vf"].shape == (0, 2)
    assert ccdlab.proximity(V, F, 0.5, bodies=bodies, self_collision=[True])["vf"].tolist() == [[3, 0]]
    with pytest.raises(ValueError, match="moving"):
        ccdlab.proximity(V, F, 0.5, self_collision="moving")
    with pytest.raises(ValueError, match="bodies"):
        ccdlab.proximity(V, F, 0.5, bodies=bodies[:4])
    for d in (-1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="^d: "):
            ccdlab.proximity(V, F, d)
    with pytest.raises(TypeError, match="^d: expected a float, got bool"):
        ccdlab.proximity(V, F, True)
    with pytest.raises(TypeError, match="^d: expected a float, got str"):
        ccdlab.proximity(V, F, "0.5")
    assert ccdlab.proximity(V, F, np.float32(0.5))["vf"].tolist() == [[3, 0]]
    with pytest.raises(ValueError, match="F: face 1 refers to vertex 5"):
        ccdlab.proximity(V[:5], F, 0.5)


def test_too_many_pairs_to_list_are_refused_with_advice_these_functions_can_take():
    # 11,997 coincident points: 71,958,006 touching pairs, past the lists'
    # bound of 2**26; refused at once, naming what counts them instead.
    V = np.zeros((12_000, 3))
    V[:3] = [[1, 0, 0], [2, 0, 0], [1, 1, 0]]
    F = np.array([[0, 1, 2]])
    for call in (lambda: ccdlab.intersections(V, F), lambda: ccdlab.proximity(V, F, 0.0)):
        with pytest.raises(ValueError, match=r"more than 67108864 pairs to list.*min_distance=d"):
            call()
    r = ccdlab.step(V, V, F)
    assert r.report["points"]["vertex_vertex"]["colliding"] == 11_997 * 11_996 // 2
    # A step keeping its pairs meets the same bound; its counts alone, above, do not.
    keep = r"more than 67108864 pairs to keep.*collect_pairs=False counts"
    with pytest.raises(ValueError, match=keep):
        ccdlab.step(V, V, F, collect_pairs=True)
