"""Which of the pipeline's filters culls each query of a batch:
``ccdlab.vertex_face_filter_batch`` and ``ccdlab.edge_edge_filter_batch``."""

import numpy as np
import pytest

import ccdlab
from conftest import DATA, FUNNEL

BATCH = {"vf": ccdlab.vertex_face_filter_batch, "ee": ccdlab.edge_edge_filter_batch}
CCD = {"vf": ccdlab.vertex_face_ccd_batch, "ee": ccdlab.edge_edge_ccd_batch}
NAMES = ("slpf", "dnf", "window", "")


@pytest.fixture(scope="module")
def funnel_step():
    V0, F = ccdlab.read_mesh(FUNNEL / "frames" / "227.ply")
    V1, _ = ccdlab.read_mesh(FUNNEL / "frames" / "228.ply")
    return V0, V1, F


def _raw(V0, V1, F, d=0.0):
    """The step's BVH pairs at ``d`` with their points, nothing filtered."""
    return ccdlab.candidates(V0, V1, F, points=True, filters="none", window=False,
                             time_aligned=False, min_distance=d)


@pytest.mark.parametrize("d", [0.0, 1.911e-5])
@pytest.mark.parametrize("filters,window", [("dnf", True), ("dnf", False), ("slpf+dnf", True),
                                            ("slpf", False), ("none", True)])
def test_verdicts_are_the_steps_and_cull_no_colliding_pair(funnel_step, filters, window, d):
    found = _raw(*funnel_step, d)
    step = ccdlab.candidates(*funnel_step, filters=filters, window=window, time_aligned=False,
                             min_distance=d)
    for kind in ("vf", "ee"):
        by = BATCH[kind](found[kind + "_points"], filters=filters, window=window,
                         min_distance=d)
        assert by.dtype == np.dtype("<U6") and by.shape == (len(found[kind]),)
        assert set(np.unique(by)) <= set(NAMES)
        report = step["report"][kind]
        assert report["candidates"] == len(found[kind])
        culled = {n: int((by == n).sum()) for n in NAMES[:3]}
        if filters == "dnf" or d > 0:
            # No SLPF here (left out at d > 0): DNF's and the window's verdicts
            # are exactly the step's, pair by pair.
            assert culled["slpf"] == 0
            assert found[kind][by == ""].tolist() == step[kind].tolist()
            assert [culled[n] for n in ("dnf", "window")] == [
                report["culled_dnf"], report["culled_window"]]
        if not window:
            assert culled["window"] == 0
        if filters == "none" and d == 0:
            assert culled["dnf"] == culled["slpf"] == 0 and culled["window"] > 0
        hit = CCD[kind](found[kind + "_points"], min_distance=d)[0]
        assert hit.any() and not (hit & (by != "")).any()


def test_the_default_setting_culls_with_each_filter(funnel_step):
    found = _raw(*funnel_step)
    for kind in ("vf", "ee"):
        by = BATCH[kind](found[kind + "_points"], threads=1)
        two = BATCH[kind](found[kind + "_points"], threads=2)
        assert np.array_equal(by, two)
        assert all((by == n).any() for n in NAMES), kind


def test_no_filter_culls_a_colliding_ground_truth_query():
    sets = [s for s in ccdlab.load_queries(DATA) if s["truth"] is not None]
    assert len(sets) > 0
    for s in sets:
        for filters in ("slpf+dnf", "slpf", "dnf"):
            by = BATCH[s["kind"]](s["queries"], filters=filters)
            assert not (s["truth"] & (by != "")).any(), (s["path"], filters)


def test_widened_float32_and_integers_and_an_empty_batch():
    # A vertex still at height 5 above a still triangle: SLPF culls it (on
    # (1, 1, 1) the vertex projects to 7, the triangle to at most 4); an
    # integer or float32 copy gives the same answer.
    q = np.array([[[1, 1, 5], [0, 0, 0], [4, 0, 0], [0, 4, 0]] * 2])
    for a in (q, q.astype(np.float32), q.astype(np.float64)):
        assert ccdlab.vertex_face_filter_batch(a).tolist() == ["slpf"]
    assert ccdlab.vertex_face_filter_batch(q, filters="dnf").tolist() == ["dnf"]
    assert ccdlab.vertex_face_filter_batch(q, filters="none", window=False).tolist() == [""]
    # Within d = 5 (the gap) it touches: no filter may cull it; within 2, DNF does.
    assert ccdlab.vertex_face_filter_batch(q, min_distance=5.0).tolist() == [""]
    assert ccdlab.vertex_face_filter_batch(q, min_distance=2.0).tolist() == ["dnf"]
    empty = ccdlab.edge_edge_filter_batch(np.zeros((0, 8, 3)))
    assert empty.shape == (0,) and empty.dtype == np.dtype("<U6")


def test_bad_arguments_are_value_errors():
    q = np.zeros((2, 8, 3))
    with pytest.raises(ValueError, match="filters"):
        ccdlab.vertex_face_filter_batch(q, filters="fast")
    with pytest.raises(ValueError, match=r"shape \(n, 8, 3\)"):
        ccdlab.edge_edge_filter_batch(np.zeros((2, 7, 3)))
    bad = q.copy()
    bad[1, 5, 2] = np.nan
    with pytest.raises(ValueError, match="query 1, point 5"):
        ccdlab.edge_edge_filter_batch(bad)
    for d in (-1.0, np.nan, np.inf):
        with pytest.raises(ValueError, match="min_distance"):
            ccdlab.vertex_face_filter_batch(q, min_distance=d)
    with pytest.raises(ValueError, match="threads"):
        ccdlab.vertex_face_filter_batch(q, threads=0)
    with pytest.raises(TypeError):
        ccdlab.vertex_face_filter_batch(q, solver="exact")
