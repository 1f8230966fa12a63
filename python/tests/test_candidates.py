"""The pairs of a step that reach the exact test: ``ccdlab.candidates``."""

import numpy as np
import pytest

import ccdlab
from conftest import FUNNEL


def _funnel():
    V0, F = ccdlab.read_mesh(FUNNEL / "frames" / "227.ply")
    V1, _ = ccdlab.read_mesh(FUNNEL / "frames" / "228.ply")
    return V0, V1, F


def _decided(found, d=0.0):
    """The exact batch verdicts on the listed pairs: the colliding ones and
    their brackets, as a step's ``vf_pairs``/``ee_pairs`` and ``*_toi``."""
    out = {}
    for kind, batch in (("vf", ccdlab.vertex_face_ccd_batch), ("ee", ccdlab.edge_edge_ccd_batch)):
        hit, lower, upper = batch(found[kind + "_points"], min_distance=d)
        out[kind] = (found[kind][hit], np.stack([lower[hit], upper[hit]], axis=1))
    return out


@pytest.mark.parametrize("d", [0.0, 1.911e-5])
def test_the_exact_test_on_the_candidates_gives_the_steps_pairs(d):
    V0, V1, F = _funnel()
    found = ccdlab.candidates(V0, V1, F, min_distance=d, points=True)
    r = ccdlab.step(V0, V1, F, min_distance=d, collect_pairs=True)
    decided = _decided(found, d)
    for kind, pairs, toi in (("vf", r.vf_pairs, r.vf_toi), ("ee", r.ee_pairs, r.ee_toi)):
        assert decided[kind][0].tolist() == pairs.tolist()
        assert np.array_equal(decided[kind][1], toi)
        assert len(pairs) > 0 and len(found[kind]) > len(pairs)
        counts, step_counts = found["report"][kind], r.report[kind]
        assert counts["after_filter"] - counts["culled_window"] == len(found[kind])
        for c in ("candidates", "culled_slpf", "culled_dnf", "culled_window", "after_filter"):
            assert counts[c] == step_counts[c]
        assert counts["colliding"] == 0
    assert found["report"]["toi"] is None


def test_pairs_points_dtypes_and_order():
    V0, V1, F = _funnel()
    found = ccdlab.candidates(V0, V1, F, points=True, threads=1)
    E = ccdlab.edges(F)
    vf, ee = found["vf"], found["ee"]
    assert vf.dtype == np.int64 and ee.dtype == np.int64
    assert not vf.flags.writeable and not found["vf_points"].flags.writeable
    assert found["vf_points"].shape == (len(vf), 8, 3) and found["vf_points"].dtype == np.float64
    # Each ascending, edges the smaller first.
    assert vf.tolist() == sorted(vf.tolist()) and ee.tolist() == sorted(ee.tolist())
    assert np.all(ee[:, 0] < ee[:, 1])
    # The data sets' order: t = 0, then t = 1.
    v, f = vf[:, 0], vf[:, 1]
    expect = np.stack([V0[v], *(V0[F[f, i]] for i in range(3)),
                       V1[v], *(V1[F[f, i]] for i in range(3))], axis=1)
    assert np.array_equal(found["vf_points"], expect)
    a, b = E[ee[:, 0]], E[ee[:, 1]]
    expect = np.stack([V0[a[:, 0]], V0[a[:, 1]], V0[b[:, 0]], V0[b[:, 1]],
                       V1[a[:, 0]], V1[a[:, 1]], V1[b[:, 0]], V1[b[:, 1]]], axis=1)
    assert np.array_equal(found["ee_points"], expect)
    # The same lists on any thread count; no points unless asked for.
    two = ccdlab.candidates(V0, V1, F, threads=2)
    assert set(two) == {"vf", "ee", "report"}
    assert np.array_equal(two["vf"], vf) and np.array_equal(two["ee"], ee)


def test_filters_only_remove_pairs_the_exact_test_rejects():
    V0, V1, F = _funnel()
    plain = ccdlab.candidates(V0, V1, F, filters="none", window=False, time_aligned=False,
                              points=True)
    filtered = ccdlab.candidates(V0, V1, F, time_aligned=False)
    r = plain["report"]["vf"]
    assert r["culled_slpf"] == r["culled_dnf"] == r["culled_window"] == 0
    for kind in ("vf", "ee"):
        every = set(map(tuple, plain[kind].tolist()))
        kept = set(map(tuple, filtered[kind].tolist()))
        assert kept < every
        colliding = set(map(tuple, _decided(plain)[kind][0].tolist()))
        assert colliding <= kept


def test_bad_arguments_are_value_errors():
    V0, V1, F = _funnel()
    with pytest.raises(ValueError, match="V1"):
        ccdlab.candidates(V0, V1[:-1], F)
    with pytest.raises(ValueError, match="filters"):
        ccdlab.candidates(V0, V1, F, filters="fast")
    with pytest.raises(ValueError, match="min_distance"):
        ccdlab.candidates(V0, V1, F, min_distance=-1.0)
    with pytest.raises(TypeError):
        ccdlab.candidates(V0, V1, F, solver="exact")


# ---------------------------------------------------------------------------
# Pipeline.step_on_candidates: a step decided on given pairs


def _bvh_pairs(V0, V1, F, **options):
    """The BVH's own candidates: nothing filtered, nothing pruned."""
    return ccdlab.candidates(V0, V1, F, filters="none", window=False, time_aligned=False, **options)


@pytest.mark.parametrize("d", [0.0, 1.911e-5])
def test_the_bvh_pairs_given_back_give_the_steps_result(d):
    V0, V1, F = _funnel()
    found = _bvh_pairs(V0, V1, F, min_distance=d)
    pipeline = ccdlab.Pipeline(F, min_distance=d, collect_pairs=True, time_aligned=False)
    given = pipeline.step_on_candidates(V0, V1, found["vf"], found["ee"])
    r = ccdlab.step(V0, V1, F, min_distance=d, collect_pairs=True, time_aligned=False)
    for kind in ("vf", "ee"):
        assert getattr(given, kind + "_pairs").tolist() == getattr(r, kind + "_pairs").tolist()
        assert np.array_equal(getattr(given, kind + "_toi"), getattr(r, kind + "_toi"))
        for c in ("candidates", "culled_slpf", "culled_dnf", "culled_window", "after_filter",
                  "colliding"):
            assert given.report[kind][c] == r.report[kind][c], (kind, c)
    assert (given.toi, given.toi_upper) == (r.toi, r.toi_upper) and r.toi is not None
    assert given.report["bvh"] == "given" and r.report["bvh"] == "build"
    # The pipeline's BVH was not touched: its first step builds it.
    assert pipeline.step(V0, V1).report["bvh"] == "build"


def test_given_pairs_in_any_order_with_repeats_and_swapped_edges():
    V0, V1, F = _funnel()
    found = _bvh_pairs(V0, V1, F)
    pipeline = ccdlab.Pipeline(F, collect_pairs=True)
    plain = pipeline.step_on_candidates(V0, V1, found["vf"], found["ee"])
    vf = np.concatenate([found["vf"][::-1], found["vf"]]).astype(np.uint32)
    ee = np.concatenate([found["ee"][:, ::-1], found["ee"]]).astype(np.int32)
    messy = pipeline.step_on_candidates(V0, V1, vf, ee)
    assert messy.ee_pairs.tolist() == plain.ee_pairs.tolist()
    assert messy.vf_pairs.tolist() == plain.vf_pairs.tolist()
    assert messy.report["ee"]["candidates"] == len(found["ee"])
    none = pipeline.step_on_candidates(V0, V1, [], np.empty((0, 2), np.int64))
    assert none.toi is None and none.report["vf"]["candidates"] == 0


def test_pairs_that_are_no_candidates_are_refused():
    V = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0], [2, 1, 0]], float)
    F = np.array([[0, 1, 2], [2, 3, 4]])
    pipeline = ccdlab.Pipeline(F)
    E = ccdlab.edges(F).tolist()
    e01, e34, e12 = E.index([0, 1]), E.index([3, 4]), E.index([1, 2])
    bad = [
        ([[3, 0], [5, 0]], [], "vf: vertex–face pair 1 (numbered from 0): vertex 5, face 0: out of range"),
        ([[2, 1]], [], "vf: vertex–face pair 0 (numbered from 0): vertex 2 is a corner of face 1"),
        ([], [[e01, e34], [e12, e01]], f"ee: edge–edge pair 1 (numbered from 0): edges {e12} and {e01} share"),
        ([], [[0, 99]], "ee: edge–edge pair 0 (numbered from 0): edges 0, 99: out of range"),
        ([[-1, 0]], [], "vf: row 0 (numbered from 0) has index -1, not one from 0 to 2**32 - 2"),
        ([], [[0, 2**32]], "ee: row 0 (numbered from 0) has index 4294967296"),
        ([[0, 1, 2]], [], "vf: expected an array of shape (m, 2) of indices, got shape (1, 3)"),
        ([[0.5, 1]], [], "vf: dtype float64 is not supported"),
    ]
    for vf, ee, message in bad:
        with pytest.raises(ValueError) as e:
            pipeline.step_on_candidates(V, V, vf, ee)
        assert message in str(e.value), (message, str(e.value))
    # A valid call still runs on the same pipeline.
    ok = pipeline.step_on_candidates(V, V, [[3, 0]], [[e01, e34]])
    assert ok.report["vf"]["candidates"] + ok.report["ee"]["candidates"] == 2
