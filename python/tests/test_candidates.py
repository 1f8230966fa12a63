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
