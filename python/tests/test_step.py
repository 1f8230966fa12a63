"""Whole steps (funnel 227->228, cloth-ball 92->93) against the command line's
results, thread counts, the Pipeline object, and the API's surface."""

import hashlib
import inspect
import pickle
import pydoc
import tomllib
from pathlib import Path

import numpy as np
import pytest

import ccdlab
from conftest import TESTS

# The keys of `ccdlab step --json` (without --repeat).
REPORT_KEYS = {"vertices", "edges", "faces", "k", "filters", "window", "time_aligned", "solver",
               "threads", "bvh", "vf", "ee", "bvh_tests", "toi", "toi_upper", "time_ms", "peak_rss_mb"}


def global_pairs(result, V, F):
    """The pairs as the CLI's `--pairs` rows (kind, global id a, global id b)."""
    nv, ne = len(V), len(ccdlab.edges(F))
    rows = [("vf", int(v), nv + ne + int(f)) for v, f in result.vf_pairs]
    rows += [("ee", nv + int(a), nv + int(b)) for a, b in result.ee_pairs]
    return rows


def cli_pairs():
    """The funnel's pairs as `ccdlab step --pairs` wrote them."""
    lines = (TESTS / "data" / "funnel_227_228_pairs.csv").read_text().splitlines()
    rows = [line.split(",") for line in lines if not line.startswith("#")][1:]
    return [(k, int(a), int(b), float(lo), float(hi)) for k, a, b, lo, hi in rows]


def test_funnel_equals_the_cli(funnel):
    V0, V1, F = funnel
    r = ccdlab.step(V0, V1, F, collect_pairs=True)
    rep = r.report
    assert set(rep) == REPORT_KEYS
    assert (rep["vertices"], rep["edges"], rep["faces"]) == (9450, 27930, 18484)
    assert (rep["k"], rep["filters"], rep["window"], rep["time_aligned"], rep["solver"], rep["bvh"]) == \
        (26, "slpf+dnf", True, False, "exact", "build")
    assert (rep["vf"]["colliding"], rep["ee"]["colliding"]) == (27, 107)
    assert (rep["vf"]["candidates"], rep["ee"]["candidates"]) == (1803, 5765)
    assert r.toi == rep["toi"] == 0.0452322203750769
    assert r.toi_upper == rep["toi_upper"] == 0.045232220377218114
    assert r.vf_pairs.dtype == np.int64 and r.vf_pairs.shape == (27, 2)
    assert r.ee_pairs.dtype == np.int64 and r.ee_pairs.shape == (107, 2)
    assert r.vf_toi.dtype == np.float64 and r.vf_toi.shape == (27, 2)
    assert r.ee_toi.shape == (107, 2)
    ours = [(k, a, b) + tuple(t) for (k, a, b), t in
            zip(global_pairs(r, V0, F), list(r.vf_toi.tolist()) + list(r.ee_toi.tolist()))]
    assert sorted(ours) == sorted(cli_pairs())
    # Local indices: vertex and face, edge and edge.
    assert r.vf_pairs[:, 0].max() < len(V0) and r.vf_pairs[:, 1].max() < len(F)
    assert r.ee_pairs.max() < rep["edges"]


def test_cloth_ball_equals_the_cli(ball):
    V0, V1, F = ball
    r = ccdlab.step(V0, V1, F, collect_pairs=True)
    rep = r.report
    assert (rep["vertices"], rep["edges"], rep["faces"]) == (46598, 138825, 92230)
    assert (rep["filters"], rep["time_aligned"]) == ("dnf", True)
    assert (rep["vf"]["colliding"], rep["ee"]["colliding"]) == (19_032, 94_822)
    assert (rep["vf"]["candidates"], rep["ee"]["candidates"]) == (123_693, 506_529)
    assert len(r.vf_pairs) == 19_032 and len(r.ee_pairs) == 94_822
    assert (r.toi, r.toi_upper) == (7.492069170551727e-06, 7.49206920310322e-06)
    # sha256 of the CLI's sorted `--pairs` rows "kind,id_a,id_b" (113,854 pairs).
    rows = sorted(f"{k},{a},{b}" for k, a, b in global_pairs(r, V0, F))
    digest = hashlib.sha256("\n".join(rows).encode()).hexdigest()
    assert digest == "bf90356ca1de864c008d03fda0ec97be6ff36ee115c5572a967ec709ad25ac0c"
    # The paper's pipeline finds the same pairs.
    off = ccdlab.step(V0, V1, F, time_aligned="off", collect_pairs=True)
    assert off.report["filters"] == "slpf+dnf" and off.report["time_aligned"] is False
    assert sorted(map(tuple, off.vf_pairs.tolist())) == sorted(map(tuple, r.vf_pairs.tolist()))
    assert off.toi == r.toi


@pytest.mark.parametrize("scene", ["funnel", "ball"])
def test_one_and_two_threads_give_identical_results(scene, request):
    V0, V1, F = request.getfixturevalue(scene)
    one = ccdlab.step(V0, V1, F, threads=1, collect_pairs=True)
    two = ccdlab.step(V0, V1, F, threads=2, collect_pairs=True)
    assert one.report["threads"] == 1 and two.report["threads"] == 2
    for name in ("vf_pairs", "ee_pairs", "vf_toi", "ee_toi"):
        np.testing.assert_array_equal(getattr(one, name), getattr(two, name))
    assert (one.toi, one.toi_upper) == (two.toi, two.toi_upper)
    for key in ("vf", "ee", "bvh_tests"):
        a, b = dict(one.report[key]), dict(two.report[key])
        assert a == b


def _pair_sets(r):
    return (sorted(map(tuple, r.vf_pairs.tolist())), sorted(map(tuple, r.ee_pairs.tolist())),
            r.toi, r.toi_upper, r.report["vf"]["colliding"], r.report["ee"]["colliding"])


def test_the_pipeline_refits_and_equals_fresh_steps(funnel):
    V0, V1, F = funnel
    p = ccdlab.Pipeline(F, collect_pairs=True)
    assert p.num_vertices is None
    frames = [(V0, V1), (V1, V0), (V0, V1)]
    for i, (a, b) in enumerate(frames):
        r = p.step(a, b)
        assert r.report["bvh"] == ("build" if i == 0 else "refit")
        assert _pair_sets(r) == _pair_sets(ccdlab.step(a, b, F, collect_pairs=True))
    assert p.num_vertices == len(V0)
    p.rebuild_next()
    r = p.step(V1, V0)
    assert r.report["bvh"] == "build"
    assert _pair_sets(r) == _pair_sets(ccdlab.step(V1, V0, F, collect_pairs=True))
    with pytest.raises(ValueError, match="vertices"):
        p.step(V0[:-1], V1[:-1])


def test_a_step_result_pickles_and_copies(funnel):
    """A worker process can return the whole result, pairs and report included."""
    import copy

    V0, V1, F = funnel
    for collect in (True, False):
        r = ccdlab.step(V0, V1, F, collect_pairs=collect)
        for q in (pickle.loads(pickle.dumps(r)), copy.copy(r), copy.deepcopy(r)):
            assert type(q) is ccdlab.StepResult and repr(q) == repr(r)
            assert (q.toi, q.toi_upper, q.report) == (r.toi, r.toi_upper, r.report)
            for name in ("vf_pairs", "ee_pairs", "vf_toi", "ee_toi"):
                a, b = getattr(q, name), getattr(r, name)
                assert (a is None) == (not collect) and (b is None) == (not collect)
                if collect:
                    assert a.dtype == b.dtype and np.array_equal(a, b) and len(a) > 0
                    # Read-only, restored ones too: an edit would change the result.
                    assert not a.flags.writeable and not b.flags.writeable
                    with pytest.raises(ValueError, match="read-only"):
                        a[0, 0] = 0
        # The report is a copy at each access: editing one leaves the result
        # (and its pickle) as it was.
        edited = r.report
        edited["vf"]["colliding"] = -1
        assert r.report["vf"]["colliding"] >= 0
        assert pickle.loads(pickle.dumps(r)).report == r.report != edited


def test_the_pipeline_pickles_its_configuration(funnel):
    V0, V1, F = funnel
    p = ccdlab.Pipeline(F, k=18, filters="dnf", time_aligned="off", threads=1, collect_pairs=True)
    assert p.config == {"k": 18, "filters": "dnf", "window": True, "time_aligned": "off",
                        "solver": "exact", "threads": 1, "collect_pairs": True, "min_distance": 0.0,
                        "bodies": None, "self_collision": True}
    first = p.step(V0, V1)
    q = pickle.loads(pickle.dumps(p))
    assert q.config == p.config and np.array_equal(q.faces, F)
    assert q.num_vertices == len(V0)
    again = q.step(V0, V1)
    assert again.report["bvh"] == "build"
    assert _pair_sets(again) == _pair_sets(first)
    pickle.loads(pickle.dumps(p.config))
    assert repr(p) == ('Pipeline(18484 faces, k=18, filters="dnf", window=True, time_aligned="off", '
                       'solver="exact", threads=1, min_distance=0.0)')
    assert not p.faces.flags.writeable


def test_options_are_those_of_the_cli(funnel):
    V0, V1, F = funnel
    for k in (6, 8, 14, 18, 26, "26"):
        r = ccdlab.step(V0, V1, F, k=k, collect_pairs=True)
        assert r.report["k"] == int(k)
        assert (r.report["vf"]["colliding"], r.report["ee"]["colliding"]) == (27, 107)
    for filters in ("none", "dnf", "slpf", "slpf+dnf"):
        r = ccdlab.step(V0, V1, F, filters=filters, window=False, time_aligned=True)
        assert r.report["window"] is False and r.report["time_aligned"] is True
        assert (r.report["vf"]["colliding"], r.report["ee"]["colliding"]) == (27, 107)
    r = ccdlab.step(V0, V1, F, solver="cubic")
    assert r.report["solver"] == "cubic"
    r = ccdlab.step(V0, V1, F)
    assert r.vf_pairs is None and r.ee_pairs is None and r.vf_toi is None and r.ee_toi is None
    assert "StepResult(toi=" in repr(r)
    assert float(repr(r).split("toi=")[1].split(",")[0]) == r.toi
    # A vertex resting on a face: toi 0, written as Python writes it.
    V = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [.2, .2, 0], [1, .2, 1], [.2, 1, 1]], float)
    rest = ccdlab.step(V, V, np.array([[0, 1, 2], [3, 4, 5]]))
    assert rest.toi == 0.0 and repr(rest).startswith("StepResult(toi=0.0,"), repr(rest)


def test_dtypes_and_layouts_give_the_same_step(funnel):
    V0, V1, F = funnel
    ref = ccdlab.step(V0, V1, F, collect_pairs=True)
    for F2 in (F.astype(np.int32), F.astype(np.uint32), np.asfortranarray(F), F.tolist()):
        assert _pair_sets(ccdlab.step(V0, V1, F2, collect_pairs=True)) == _pair_sets(ref)
    for a, b in ((np.asfortranarray(V0), np.asfortranarray(V1)), (V0.tolist(), V1.tolist())):
        assert _pair_sets(ccdlab.step(a, b, F, collect_pairs=True)) == _pair_sets(ref)
    # Integer frames are converted exactly: a mesh on an integer grid gives
    # the pairs of the same coordinates as doubles.
    scale = 2.0**20
    i0, i1 = np.round(V0 * scale).astype(np.int64), np.round(V1 * scale).astype(np.int64)
    grid = ccdlab.step(i0, i1, F, collect_pairs=True)
    assert _pair_sets(grid) == _pair_sets(ccdlab.step(i0.astype(float), i1.astype(float), F, collect_pairs=True))
    assert _pair_sets(grid) == _pair_sets(ccdlab.step(i0.astype(np.int32), i1.tolist(), F, collect_pairs=True))
    # float32 frames are widened exactly.
    a32, b32 = V0.astype(np.float32), V1.astype(np.float32)
    assert _pair_sets(ccdlab.step(a32, b32, F, collect_pairs=True)) == \
        _pair_sets(ccdlab.step(a32.astype(np.float64), b32.astype(np.float64), F, collect_pairs=True))


def test_edges_are_in_libigl_order(funnel):
    _, _, F = funnel
    E = ccdlab.edges(F)
    assert E.dtype == np.int64 and E.shape == (27930, 2)
    assert np.all(E[:, 0] < E[:, 1])
    keys = E[:, 1] * (E.max() + 1) + E[:, 0]
    assert np.all(np.diff(keys) > 0)
    assert ccdlab.edges([[0, 1, 2]]).tolist() == [[0, 1], [0, 2], [1, 2]]
    # Spread-out vertex numbers: the same edges as the mesh numbered densely
    # in the same order, named by the numbers given (and a far index costs
    # no memory of its own).
    spread = np.array([3, 7, 10, 2**27, 2**31 + 5, 2**32 - 3])  # ascending
    G = np.array([[0, 1, 2], [2, 1, 3], [4, 5, 0]])
    assert ccdlab.edges(spread[G]).tolist() == spread[ccdlab.edges(G)].tolist()
    with pytest.raises(ValueError, match=r"F: face 1 repeats a vertex: \[134217728, 10, 134217728\]"):
        ccdlab.edges([[0, 1, 2**27], [2**27, 10, 2**27]])
    with pytest.raises(ValueError, match="edges: edge 0 joins vertex 4294967293 to itself"):
        ccdlab.edges([[0, 1, 2]], [[2**32 - 3, 2**32 - 3]])


def test_a_small_step():
    F = np.array([[0, 1, 2], [3, 4, 5]])
    V0 = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [.2, .2, 1], [.6, .2, 1], [.2, .6, 1]], float)
    V1 = V0.copy()
    V1[3:, 2] -= 2
    r = ccdlab.step(V0, V1, F, collect_pairs=True)
    assert r.report["vf"]["colliding"] == 3
    assert sorted(map(tuple, r.vf_pairs.tolist())) == [(3, 0), (4, 0), (5, 0)]
    assert r.toi is not None and r.toi <= 0.5 <= r.toi_upper
    none = ccdlab.step(V0, V0, F, collect_pairs=True)
    assert none.toi is None and none.vf_pairs.shape == (0, 2) and none.ee_pairs.shape == (0, 2)


def test_results_and_pipelines_take_weak_references():
    """A cache keyed weakly by pipeline (or result) works, and lets go."""
    import gc
    import weakref

    F = np.array([[0, 1, 2]])
    V = np.eye(3)
    p = ccdlab.Pipeline(F)
    r = p.step(V, V)
    refs = [weakref.ref(p), weakref.ref(r)]
    assert refs[0]() is p and refs[1]() is r
    del p, r
    gc.collect()
    assert [ref() for ref in refs] == [None, None]


def test_read_mesh_returns_arrays(funnel):
    V0, _, F = funnel
    assert V0.dtype == np.float64 and V0.shape == (9450, 3)
    assert F.dtype == np.int64 and F.shape == (18484, 3)


def test_help_shows_docstrings():
    for f in (ccdlab.step, ccdlab.vertex_face_ccd, ccdlab.edge_edge_ccd, ccdlab.vertex_face_ccd_batch,
              ccdlab.edge_edge_ccd_batch, ccdlab.read_mesh, ccdlab.edges, ccdlab.queries,
              ccdlab.Pipeline, ccdlab.Pipeline.step, ccdlab.StepResult):
        assert f.__doc__ and len(f.__doc__) > 40, f
    text = pydoc.render_doc(ccdlab.step)
    assert "Parameters" in text and "collect_pairs" in text and "time_aligned" in text
    # The workspace's one version (the root Cargo.toml).
    cargo = tomllib.loads((Path(__file__).resolve().parents[2] / "Cargo.toml").read_text())
    assert ccdlab.__version__ == cargo["workspace"]["package"]["version"]
    sig = inspect.signature(ccdlab.step)
    assert sig.parameters["k"].default == 26 and sig.parameters["time_aligned"].default == "auto"
    assert inspect.signature(ccdlab.Pipeline).parameters["num_vertices"].default is None


def test_min_distance_finds_the_contacts_and_more_and_says_what_ran(funnel):
    V0, V1, F = funnel
    contact = ccdlab.step(V0, V1, F, collect_pairs=True, threads=2)
    pairs = lambda r: {("vf", int(v), int(f)) for v, f in r.vf_pairs} | {
        ("ee", int(a), int(b)) for a, b in r.ee_pairs}
    mean_edge = 0.019109353562922374  # funnel 227's mean edge length
    last = pairs(contact)
    for m in (1e-4, 1e-2):
        d = m * mean_edge
        r = ccdlab.step(V0, V1, F, collect_pairs=True, threads=2, min_distance=d)
        assert r.report["min_distance"] == d
        # DNF and the window filter with a margin of d; SLPF off; funnel
        # moves too little for `auto` to prune by time-aligned k-DOPs.
        assert r.report["filters"] == "dnf" and r.report["window"]
        assert not r.report["time_aligned"]
        got = pairs(r)
        assert last <= got and len(got) > len(last), m  # more pairs as d grows
        assert r.toi <= contact.toi
        last = got
    p = ccdlab.Pipeline(F, min_distance=1e-4)
    assert p.config["min_distance"] == 1e-4
    assert pickle.loads(pickle.dumps(p)).config == p.config
    for bad in (-1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="min_distance"):
            ccdlab.step(V0, V1, F, min_distance=bad)


def test_the_time_of_impact_as_a_line_search_step(funnel):
    # As the README says a simulator may use it, with a gap d > 0: no pair
    # within d before `toi`; a shorter step along the same direction has
    # its time of impact at toi / alpha; toi = 0 when a pair starts within d.
    V0, V1, F = funnel
    d = 1e-6 * 0.019109353562922374  # funnel 227's mean edge length
    full = ccdlab.step(V0, V1, F, min_distance=d)
    assert 0 < full.toi < 0.5
    for alpha in (0.5, 0.9):
        part = ccdlab.step(V0, V0 + alpha * (V1 - V0), F, min_distance=d)
        # Equal up to the rounding of the shorter step's end positions.
        assert part.toi * alpha == pytest.approx(full.toi, rel=1e-9, abs=0)
    safe = V0 + 0.8 * full.toi * (V1 - V0)
    assert ccdlab.step(V0, safe, F, min_distance=d).toi is None
    # At 1e-4 mean edges, some pairs are within d at t = 0: toi = 0, and a
    # step that does not move lists them.
    d = 1e-4 * 0.019109353562922374
    assert ccdlab.step(V0, V1, F, min_distance=d).toi == 0.0
    still = ccdlab.step(V0, V0, F, min_distance=d, collect_pairs=True)
    assert still.toi == 0.0 and len(still.vf_pairs) + len(still.ee_pairs) > 0


def test_is_step_collision_free_answers_what_a_step_counts(funnel):
    # The line search above asks a yes or no: the full step collides (at
    # contact and within d), the shortened one is free; on any thread count,
    # one-shot and from a pipeline, which keeps its tree for the next step.
    V0, V1, F = funnel
    d = 1e-6 * 0.019109353562922374
    full = ccdlab.step(V0, V1, F, min_distance=d)
    safe = V0 + 0.8 * full.toi * (V1 - V0)
    for V, dist, free in ((V1, 0.0, False), (V1, d, False), (safe, d, True), (safe, 0.0, True)):
        counted = ccdlab.step(V0, V, F, min_distance=dist).report
        assert (counted["vf"]["colliding"] + counted["ee"]["colliding"] == 0) is free
        for threads in (1, 2):
            got = ccdlab.is_step_collision_free(V0, V, F, min_distance=dist, threads=threads)
            assert got is free, (dist, threads)
    pipe = ccdlab.Pipeline(F, min_distance=d)
    assert pipe.is_collision_free(V0, V1) is False
    assert pipe.is_collision_free(V0, safe) is True
    assert pipe.step(V0, safe).report["bvh"] == "refit"
    with pytest.raises(ValueError, match="min_distance"):
        ccdlab.is_step_collision_free(V0, V1, F, min_distance=-1.0)
    with pytest.raises(ValueError, match="the same vertices"):
        ccdlab.is_step_collision_free(V0[:-1], V1, F)
    with pytest.raises(ValueError):
        pipe.is_collision_free(V0[:-1], V1[:-1])


def test_earliest_toi_is_the_steps_bracket(funnel):
    # The time alone, as compute_collision_free_stepsize asks it: the
    # step's bracket at contact and within d (positive at 1e-6 mean edges,
    # 0 at 1e-4), None for the safe step; on any thread count, one-shot and
    # from a pipeline.
    V0, V1, F = funnel
    L = 0.019109353562922374
    full = ccdlab.step(V0, V1, F, min_distance=1e-6 * L)
    safe = V0 + 0.8 * full.toi * (V1 - V0)
    for V, d in ((V1, 0.0), (V1, 1e-6 * L), (V1, 1e-4 * L), (safe, 1e-6 * L)):
        r = ccdlab.step(V0, V, F, min_distance=d)
        want = None if r.toi is None else ccdlab.Toi(r.toi, r.toi_upper)
        for threads in (1, 2):
            assert ccdlab.earliest_toi(V0, V, F, min_distance=d, threads=threads) == want, (d, threads)
        assert ccdlab.Pipeline(F, min_distance=d).earliest_toi(V0, V) == want
    assert ccdlab.earliest_toi(V0, safe, F, min_distance=1e-6 * L) is None
    pipe = ccdlab.Pipeline(F)
    assert isinstance(pipe.earliest_toi(V0, V1), ccdlab.Toi)
    assert pipe.step(V0, V1).report["bvh"] == "refit"
    with pytest.raises(ValueError, match="min_distance"):
        ccdlab.earliest_toi(V0, V1, F, min_distance=float("nan"))


def _components(n, F):
    """Each vertex's connected component (a union-find over the faces)."""
    parent = list(range(n))

    def root(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b, c in F.tolist():
        for u in (b, c):
            ra, rb = root(a), root(u)
            if ra != rb:
                parent[ra] = rb
    roots = [root(v) for v in range(n)]
    _, labels = np.unique(roots, return_inverse=True)
    return labels


def _pairs(r):
    """The pairs of a result: (vertex-face set, edge-edge set)."""
    return set(map(tuple, r.vf_pairs.tolist())), set(map(tuple, r.ee_pairs.tolist()))


def _allowed(result, F, body, self_collision):
    """The result's pairs (as `_pair_sets`) whose features may collide: some
    vertex of one and some vertex of the other in different bodies, or in
    one that collides with itself (the IPC Toolkit's rule)."""
    E = ccdlab.edges(F)
    ok = lambda a, b: a != b or self_collision[a]
    may = lambda us, ws: any(ok(body[u], body[w]) for u in us for w in ws)
    vf = {(v, f) for v, f in map(tuple, result.vf_pairs.tolist()) if may([v], F[f])}
    ee = {(a, b) for a, b in map(tuple, result.ee_pairs.tolist()) if may(E[a], E[b])}
    return vf, ee


def test_bodies_test_the_pairs_their_rule_allows():
    # Triangle 1 falls through triangle 0: three vertex-face pairs across
    # the two; they stay when the triangles are bodies that do not collide
    # with themselves, and go when both are one such body.
    F = np.array([[0, 1, 2], [3, 4, 5]])
    V0 = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [.2, .2, 1], [.6, .2, 1], [.2, .6, 1]], float)
    V1 = V0.copy()
    V1[3:, 2] -= 2
    full = ccdlab.step(V0, V1, F, collect_pairs=True)
    assert _pairs(full) == ({(3, 0), (4, 0), (5, 0)}, set())
    for kwargs in ({"bodies": [0, 0, 0, 1, 1, 1], "self_collision": False},
                   {"bodies": np.array([1, 1, 1, 0, 0, 0], np.uint8), "self_collision": [False, False]},
                   {"self_collision": False}):
        r = ccdlab.step(V0, V1, F, collect_pairs=True, **kwargs)
        assert _pair_sets(r) == _pair_sets(full) and r.toi == full.toi, kwargs
        assert r.report["bodies"] == {"bodies": 2, "self_colliding": 0}
    for kwargs in ({"bodies": [0] * 6, "self_collision": False},
                   {"bodies": [0] * 6, "self_collision": [False, True]}):
        r = ccdlab.step(V0, V1, F, collect_pairs=True, **kwargs)
        assert r.toi is None and r.vf_pairs.shape == (0, 2), kwargs
        assert r.report["vf"]["candidates"] == 0
    assert "bodies" not in full.report
    # Labels are any integers from 0 to 2**32 - 1; with one bool for every
    # body they need no entry each.
    far = ccdlab.step(V0, V1, F, collect_pairs=True, bodies=[2**32 - 1] * 3 + [5] * 3, self_collision=False)
    assert _pair_sets(far) == _pair_sets(full)
    p = ccdlab.Pipeline(F, bodies=[2**32 - 1] * 3 + [5] * 3, self_collision=False)
    assert p.config["self_collision"] is False and p.config["bodies"].tolist() == [2**32 - 1] * 3 + [5] * 3


def test_funnel_with_bodies_keeps_the_allowed_pairs_in_a_pipeline(funnel):
    V0, V1, F = funnel
    body = _components(len(V0), F)
    assert body.max() == 3
    full = ccdlab.step(V0, V1, F, collect_pairs=True)
    # Which pairs each choice keeps: one, all but one, all of funnel's.
    kept = [tuple(map(len, _allowed(full, F, body, s)))
            for s in ([True, False, False, False], [False, True, True, False], [True] * 4)]
    assert kept == [(0, 1), (27, 106), (27, 107)]
    for self_collision in ([True, False, False, False], [False, True, True, False], [True] * 4):
        p = ccdlab.Pipeline(F, bodies=body, self_collision=self_collision, collect_pairs=True)
        steps = [p.step(V1, V0), p.step(V0, V1)]
        assert steps[1].report["bvh"] == "refit"
        r = steps[1]
        assert _pairs(r) == _allowed(full, F, body, self_collision), self_collision
        assert r.report["bodies"] == {"bodies": 4, "self_colliding": sum(self_collision)}
        lower = min((t for t in r.vf_toi[:, 0].tolist() + r.ee_toi[:, 0].tolist()), default=None)
        assert r.toi == lower
        # The configuration gives the labels back, and pickles.
        assert np.array_equal(p.config["bodies"], body) and p.config["self_collision"] == self_collision
        q = pickle.loads(pickle.dumps(p))
        assert _pair_sets(q.step(V0, V1)) == _pair_sets(r)


def test_patches_of_one_cloth_are_bodies(funnel):
    # Funnel's cloth (its largest component) in three patches, stripes of
    # 64 vertices, with faces on the seams: the pairs the rule allows, by
    # vertex, whatever the patches' settings.
    V0, V1, F = funnel
    component = _components(len(V0), F)
    cloth = np.bincount(component).argmax()
    body = np.where(component == cloth, 1 + (np.arange(len(V0)) // 64) % 3, 0)
    seams = np.any(body[F] != body[F][:, :1], axis=1).sum()
    assert seams > 100
    full = ccdlab.step(V0, V1, F, collect_pairs=True)
    for self_collision in ([True, False, False, False], [False, True, False, True]):
        r = ccdlab.step(V0, V1, F, collect_pairs=True, bodies=body, self_collision=self_collision)
        assert _pairs(r) == _allowed(full, F, body, self_collision), self_collision
        # Fewer candidates: the pairs within a patch that does not collide
        # with itself are not tested.
        for kind in ("vf", "ee"):
            assert r.report[kind]["candidates"] < full.report[kind]["candidates"]
        assert r.report["bodies"] == {"bodies": 4, "self_colliding": sum(self_collision)}


def test_moving_makes_the_still_components_an_obstacle(funnel):
    V0, V1, F = funnel
    body = _components(len(V0), F)
    moves = np.zeros(body.max() + 1, bool)
    np.logical_or.at(moves, body, np.any(V0 != V1, axis=1))
    still = (~moves[body]).astype(np.int64)
    labelled = ccdlab.step(V0, V1, F, collect_pairs=True, bodies=still, self_collision=[True, False])
    r = ccdlab.step(V0, V1, F, collect_pairs=True, self_collision="moving")
    assert _pair_sets(r) == _pair_sets(labelled)
    assert r.report["bodies"] == {"bodies": 2, "self_colliding": 1}
    assert r.toi == 0.0452322203750769
    p = ccdlab.Pipeline(F, self_collision="moving")
    assert p.config["self_collision"] == "moving" and p.config["bodies"] is None
    assert repr(p).endswith('min_distance=0.0, self_collision="moving")')
    assert repr(ccdlab.Pipeline(F, bodies=still, self_collision=[True, False])).endswith(
        "bodies=<9450 labels>, self_collision=<2 bools>)")
    assert pickle.loads(pickle.dumps(p)).step(V0, V1).toi == r.toi
    # Nothing moves: every component is the obstacle, no pair is tested.
    none = ccdlab.step(V0, V0, F, self_collision="moving")
    assert none.report["vf"]["candidates"] + none.report["ee"]["candidates"] == 0
