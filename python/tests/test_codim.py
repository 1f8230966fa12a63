"""Codimensional edges (rods, hair: ``edges=``) and points through ``ccdlab.step``
and ``ccdlab.Pipeline``: the pairs against every pair decided one by one with
the single queries, the edge numbering of ``ccdlab.edges(F, edges)``, and bad
edges as clear errors."""

import pickle

import numpy as np
import pytest

import ccdlab

TRI = np.array([[-1.0, -1, 0], [2, -1, 0], [-1, 2, 0]])


def rod_through_triangle():
    """A still triangle and a rod (3, 4) across it falling from z = 1 to -1."""
    V0 = np.vstack([TRI, [[-2, 0.5, 1], [3, 0.5, 1]]])
    V1 = V0.copy()
    V1[3:, 2] = -1
    return V0, V1, np.array([[0, 1, 2]]), np.array([[3, 4]])


def test_a_rod_through_a_triangle_hits_two_of_its_edges_at_half_time():
    V0, V1, F, E = rod_through_triangle()
    r = ccdlab.step(V0, V1, F, edges=E, collect_pairs=True)
    assert 0.5 - 1e-9 < r.toi <= 0.5 <= r.toi_upper
    edges = ccdlab.edges(F, E)
    assert edges.tolist() == [[0, 1], [0, 2], [1, 2], [3, 4]]
    assert sorted(map(sorted, r.ee_pairs.tolist())) == [[1, 3], [2, 3]]
    assert r.vf_pairs.shape == (0, 2)
    assert (r.report["edges"], r.report["faces"]) == (4, 1)
    # Without the rod nothing collides.
    assert ccdlab.step(V0, V1, F).toi is None


def test_rods_alone_and_points():
    # Two rods crossing at t = 0.25 (no faces at all), and a point.
    V0 = np.array([[0.0, 0, 0], [2, 0, 0], [1, -1, 1], [1, 1, 1], [5, 5, 5]])
    V1 = V0.copy()
    V1[2:4, 2] = -3
    F = np.empty((0, 3), dtype=np.int32)
    r = ccdlab.step(V0, V1, F, edges=[[0, 1], [2, 3]], collect_pairs=True)
    assert r.toi <= 0.25 <= r.toi_upper
    assert r.ee_pairs.tolist() == [[0, 1]]
    assert r.report["faces"] == 0


def test_points_alone_are_particles():
    # No faces and no edges: points 0 and 1 meet at t = 5/6 and come within
    # 0.1 of each other at t = 3/4; point 2 stays far.
    V0 = np.array([[0.0, 0, 0], [1, 0, 0], [5, 5, 5]])
    V1 = np.array([[0.6, 0, 0], [0.4, 0, 0], [5, 5, 6]])
    none = np.empty((0, 3), dtype=np.int64)
    r = ccdlab.step(V0, V1, none, collect_pairs=True)
    assert r.toi <= 5 / 6 <= r.toi_upper and r.toi_upper - r.toi < 1e-12
    assert r.vv_pairs.tolist() == [[0, 1]]
    assert r.vf_pairs.shape == r.ee_pairs.shape == r.ve_pairs.shape == (0, 2)
    near = ccdlab.step(V0, V1, none, min_distance=0.1)
    assert near.toi <= 0.75 <= near.toi_upper
    p = ccdlab.Pipeline(none, min_distance=0.1)
    assert p.step(V0, V1).toi == near.toi and p.step(V0, V1).report["bvh"] == "refit"
    assert ccdlab.proximity(V1, none, 0.2)["vv"].tolist() == [[0, 1]]
    assert not ccdlab.has_intersections(V0, none)
    # Nothing at all: nothing collides.
    assert ccdlab.step(np.empty((0, 3)), np.empty((0, 3)), none).toi is None
    # An empty list (numpy reads it as float shape (0,)) is no faces too, and no edges.
    assert ccdlab.step(V0, V1, [], edges=(), collect_pairs=True).vv_pairs.tolist() == [[0, 1]]
    assert ccdlab.proximity(V1, [], 0.2)["vv"].tolist() == [[0, 1]]


def scene(seed):
    """A 3 x 3 sheet and a zig-zag rod chain falling through it, a rod edge
    given as one of the sheet's too, and a point; random jitter."""
    rng = np.random.default_rng(seed)
    grid = np.array([[i, j, 0.0] for j in range(4) for i in range(4)])
    F = []
    for j in range(3):
        for i in range(3):
            a = 4 * j + i
            F += [[a, a + 1, a + 5], [a, a + 5, a + 4]]
    rod0 = np.array([[0.3 + 0.5 * k, 1.0 + (k % 2), 1.0] for k in range(6)])
    V0 = np.vstack([grid, rod0, [[1.5, 1.5, 0.4]]]) + rng.uniform(-0.2, 0.2, (23, 3))
    V1 = V0 + np.hstack([rng.uniform(-0.5, 0.5, (23, 2)), rng.uniform(-2.5, -1.5, (23, 1))])
    V1[:16] = V0[:16]
    E = [[16 + k, 17 + k] for k in range(5)] + [[1, 0]]
    return V0, V1, np.array(F), np.array(E)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("min_distance", [0.0, 0.1])
def test_a_step_with_rods_finds_the_pairs_the_single_queries_find(seed, min_distance):
    V0, V1, F, E = scene(seed)
    edges = ccdlab.edges(F, E)
    assert len(edges) == 33 + 5  # the sheet's 33, then the rod's 5
    want_vf, want_ee = set(), set()
    for v in range(len(V0)):
        for f, tri in enumerate(F):
            if v not in tri and ccdlab.vertex_face_ccd(
                    V0[v], *V0[tri], V1[v], *V1[tri], min_distance=min_distance) is not None:
                want_vf.add((v, f))
    for a in range(len(edges)):
        for b in range(a + 1, len(edges)):
            ea, eb = edges[a], edges[b]
            if set(ea) & set(eb):
                continue
            if ccdlab.edge_edge_ccd(*V0[ea], *V0[eb], *V1[ea], *V1[eb],
                                    min_distance=min_distance) is not None:
                want_ee.add((a, b))
    for threads in (1, 2):
        r = ccdlab.step(V0, V1, F, edges=E, collect_pairs=True, threads=threads,
                        min_distance=min_distance)
        assert {tuple(p) for p in r.vf_pairs.tolist()} == want_vf
        assert {tuple(sorted(p)) for p in r.ee_pairs.tolist()} == want_ee
    # The rod's vertices (16..22) and the point (22) reach the sheet's
    # faces, and its edges (33..38) the sheet's edges.
    assert any(v >= 16 for v, _ in want_vf)
    assert any(b >= 33 for _, b in want_ee)


def test_a_pipeline_keeps_its_edges():
    V0, V1, F, E = scene(0)
    p = ccdlab.Pipeline(F, edges=E, collect_pairs=True)
    assert p.edges.tolist() == E.tolist() and not p.edges.flags.writeable
    assert "18 faces, 6 edges" in repr(p)
    first = p.step(V0, V1)
    again = p.step(V0, V1)  # a refit
    assert again.report["bvh"] == "refit"
    assert sorted(map(tuple, again.ee_pairs.tolist())) == sorted(map(tuple, first.ee_pairs.tolist()))
    q = pickle.loads(pickle.dumps(p))
    assert q.edges.tolist() == E.tolist() and q.num_vertices == 23
    assert q.step(V0, V1).toi == first.toi
    assert ccdlab.Pipeline(F).edges is None
    fresh = ccdlab.step(V0, V1, F, edges=E)
    assert fresh.toi == first.toi


def test_bad_edges_are_clear_errors():
    V0, V1, F, E = rod_through_triangle()
    cases = [
        (np.array([[3, 5]]), "edges: edge 0 refers to vertex 5 (both numbered from 0), but the mesh has 5 vertices"),
        (np.array([[3, 4], [4, 4]]), "edges: edge 1 joins vertex 4 to itself"),
        (np.array([[3, -1]]), "edges: edge 0 (numbered from 0) has a negative vertex index -1"),
        (np.array([[3, 4, 0]]), "edges: expected an array of shape (m, 2)"),
        (np.array([[3.0, 4.0]]), "edges: dtype float64 is not supported; edge indices need an integer dtype"),
    ]
    for bad, message in cases:
        with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
            ccdlab.step(V0, V1, F, edges=bad)
        if "vertex 5" not in message:
            with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
                ccdlab.Pipeline(F, edges=bad)
    # Out of range for the first step's vertex count, found at that step.
    p = ccdlab.Pipeline(F, edges=np.array([[3, 5]]))
    with pytest.raises(ValueError, match="edges: edge 0 refers to vertex 5"):
        p.step(V0, V1)
    # A rod may cross bodies (both here colliding with themselves: every pair).
    across = ccdlab.step(V0, V1, F, edges=E, bodies=[0, 0, 0, 1, 0], self_collision=True, collect_pairs=True)
    plain = ccdlab.step(V0, V1, F, edges=E, collect_pairs=True)
    assert across.toi == plain.toi and np.array_equal(across.ee_pairs, plain.ee_pairs)
    with pytest.raises(ValueError, match="edges: edge 0 joins vertex 1 to itself"):
        ccdlab.edges(F, [[1, 1]])


def test_read_mesh_returns_edges_only_when_asked(tmp_path):
    obj = tmp_path / "rod.obj"
    obj.write_text("v -1 -1 0\nv 2 -1 0\nv -1 2 0\nv -2 0.5 1\nv 3 0.5 1\nf 1 2 3\nl 4 5\n")
    V, F, E = ccdlab.read_mesh(obj, with_edges=True)
    assert V.shape == (5, 3) and F.tolist() == [[0, 1, 2]] and E.tolist() == [[3, 4]]
    assert E.dtype == np.int64
    with pytest.raises(ValueError, match=r"rod.obj: the file lists edges \(1 of them.*with_edges=True"):
        ccdlab.read_mesh(obj)
    plain = tmp_path / "tri.obj"
    plain.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    assert len(ccdlab.read_mesh(plain)) == 2
    V, F, E = ccdlab.read_mesh(plain, with_edges=True)
    assert E.shape == (0, 2)
    # The edges read go straight to a step.
    V0, F, E = ccdlab.read_mesh(obj, with_edges=True)
    V1 = V0.copy()
    V1[3:, 2] = -1
    assert ccdlab.step(V0, V1, F, edges=E).toi == pytest.approx(0.5)


def test_points_meet_points_and_rods():
    # The reviewer's case: two particles swapping places along z meet at
    # t = 0.5; a third falls through the rod 3-4 at t = 0.25.
    V0 = np.array([[5.0, 5, 5], [5, 5, 6], [0.5, 0, 1], [0, 0, 0], [1, 0, 0], [9, 9, 9]])
    V1 = V0.copy()
    V1[0, 2], V1[1, 2], V1[2, 2] = 6, 5, -3
    F = np.empty((0, 3), dtype=np.int64)
    r = ccdlab.step(V0, V1, F, edges=[[3, 4]], collect_pairs=True)
    assert r.ve_pairs.tolist() == [[2, 0]] and r.vv_pairs.tolist() == [[0, 1]]
    assert r.ve_toi[0, 0] <= 0.25 <= r.ve_toi[0, 1]
    assert r.vv_toi[0, 0] <= 0.5 <= r.vv_toi[0, 1]
    assert r.toi <= 0.25 <= r.toi_upper
    assert r.report["points"] == {"vertex_edge": {"candidates": 1, "colliding": 1},
                                  "vertex_vertex": {"candidates": 1, "colliding": 1}}
    assert r.vf_pairs.shape == r.ee_pairs.shape == (0, 2)
    # Pickled with the points' pairs.
    q = pickle.loads(pickle.dumps(r))
    assert q.vv_pairs.tolist() == [[0, 1]] and not q.vv_pairs.flags.writeable
    assert repr(r) == repr(q) and repr(r).endswith(
        "vf_colliding=0, ee_colliding=0, ve_colliding=1, vv_colliding=1)")
    # Without collect_pairs: the time only; a mesh without points reports none.
    r = ccdlab.step(V0, V1, F, edges=[[3, 4]])
    assert r.ve_pairs is None and r.toi <= 0.25
    tri = ccdlab.step(TRI, TRI, np.array([[0, 1, 2]]))
    assert "points" not in tri.report and "ve_colliding" not in repr(tri)
    # Points in one body that does not collide with itself skip each other.
    r = ccdlab.step(V0, V1, F, edges=[[3, 4]], collect_pairs=True,
                    bodies=[1, 1, 0, 0, 0, 0], self_collision=[True, False])
    assert r.vv_pairs.shape == (0, 2) and r.ve_pairs.tolist() == [[2, 0]]


@pytest.mark.parametrize("seed", range(4))
def test_random_points_give_the_pairs_the_single_queries_find(seed):
    rng = np.random.default_rng(seed)
    n = 12
    V0 = rng.uniform(0, 2, (n, 3))
    V1 = V0 + rng.uniform(-1.5, 1.5, (n, 3))
    E = np.array([[0, 1], [1, 2], [3, 4]])
    F = np.array([[5, 6, 7]])
    points = [8, 9, 10, 11]
    edges = ccdlab.edges(F, E)
    want_ve, want_vv = set(), set()
    for d in (0.0, 0.3, 1.0):
        want_ve = {(p, e) for p in points for e in range(3, 6)
                   if ccdlab.edge_edge_ccd(V0[p], V0[p], *V0[edges[e]], V1[p], V1[p], *V1[edges[e]],
                                           min_distance=d) is not None}
        want_vv = {(p, q) for p in points for q in points if p < q
                   if ccdlab.edge_edge_ccd(V0[p], V0[p], V0[q], V0[q], V1[p], V1[p], V1[q], V1[q],
                                           min_distance=d) is not None}
        r = ccdlab.step(V0, V1, F, edges=E, collect_pairs=True, min_distance=d)
        assert {tuple(p) for p in r.ve_pairs.tolist()} == want_ve
        assert {tuple(p) for p in r.vv_pairs.tolist()} == want_vv
        # Random points meet only within a distance: d = 1 finds both kinds.
        assert d < 1.0 or (want_ve and want_vv)


@pytest.mark.parametrize("seed", range(5))
def test_referenced_vertices_renumber_faces_and_edges(seed):
    rng = np.random.default_rng(seed)
    n = 40
    # Faces and rods over a random third of the vertices, so that most are
    # unreferenced.
    used = rng.choice(n, size=14, replace=False)
    F = np.array([rng.choice(used, 3, replace=False) for _ in range(12)], dtype=np.int32)
    E = np.array([rng.choice(used, 2, replace=False) for _ in range(3)], dtype=np.uint16)
    ids, F_local, E_local = ccdlab.referenced_vertices(F, E)
    assert ids.dtype == F_local.dtype == E_local.dtype == np.int64
    assert np.array_equal(ids, np.unique(np.concatenate([F.ravel(), E.ravel()])))
    assert np.array_equal(ids[F_local], F) and np.array_equal(ids[E_local], E)
    # The same edges in the same order: edge indices mean the same in both.
    assert np.array_equal(ids[ccdlab.edges(F_local, E_local)], ccdlab.edges(F, E))
    ids_f, F_only, E_none = ccdlab.referenced_vertices(F)
    assert np.array_equal(ids_f, np.unique(F)) and E_none.shape == (0, 2)
    assert np.array_equal(ids_f[F_only], F)


def test_referenced_vertices_keep_unused_vertices_out_of_a_step():
    # A triangle and a vertex in no face falling through it (an interior
    # vertex of a volume mesh, say): a particle in the full mesh, gone in the
    # reduced one.
    V0 = np.vstack([TRI, [[0.2, 0.2, 1.0]]])
    V1 = V0.copy()
    V1[3, 2] = -1
    F = np.array([[0, 1, 2]])
    full = ccdlab.step(V0, V1, F, collect_pairs=True)
    assert full.vf_pairs.tolist() == [[3, 0]] and full.toi <= 0.5
    ids, F_local, _ = ccdlab.referenced_vertices(F)
    assert ids.tolist() == [0, 1, 2]
    reduced = ccdlab.step(V0[ids], V1[ids], F_local, collect_pairs=True)
    assert reduced.toi is None and reduced.vf_pairs.shape == (0, 2)
    with pytest.raises(ValueError, match="F: face 0 .* negative vertex index"):
        ccdlab.referenced_vertices([[0, 1, -2]])
    with pytest.raises(ValueError, match="F: dtype float64 is not supported"):
        ccdlab.referenced_vertices(np.zeros((1, 3)))
    with pytest.raises(ValueError, match="edges"):
        ccdlab.referenced_vertices(F, [[0, 1, 2]])
