"""Every ground-truth query set of datasets/ through the batch API (0 false
positives, 0 false negatives), and the single-query API against it."""

from fractions import Fraction

import numpy as np
import pytest

import ccdlab
from conftest import DATA, FUNNEL, load_mma_bool, load_query_csv

SAMPLE_SETS = sorted((DATA / "ccd-queries").glob("*/*/*.csv"))
KIND = {"vertex-face": "vf", "edge-edge": "ee"}
BATCH = {"vf": ccdlab.vertex_face_ccd_batch, "ee": ccdlab.edge_edge_ccd_batch}
SINGLE = {"vf": ccdlab.vertex_face_ccd, "ee": ccdlab.edge_edge_ccd}


def _cases():
    cases = [(p, KIND[p.parent.name], None) for p in SAMPLE_SETS]
    for kind in ("vf", "ee"):
        cases.append((FUNNEL / "queries" / f"227{kind}.csv", kind, FUNNEL / "mma_bool" / f"227{kind}_mma_bool.json"))
    return cases


CASES = _cases()


def _load(path, truth_file):
    q, truth = load_query_csv(path)
    if truth_file is not None:
        assert truth is None
        truth = load_mma_bool(truth_file)
    assert truth is not None and len(truth) == len(q), path
    return q, truth


def test_the_data_sets_are_all_there():
    assert len(SAMPLE_SETS) == 42
    assert len(CASES) == 44
    assert all(kind in ("vf", "ee") for _, kind, _ in CASES)


@pytest.mark.parametrize("path,kind,truth_file", CASES, ids=[str(c[0].relative_to(DATA)) for c in CASES])
def test_batch_matches_the_ground_truth(path, kind, truth_file):
    q, truth = _load(path, truth_file)
    hit, lower, upper = BATCH[kind](q)
    assert hit.dtype == np.bool_ and lower.dtype == np.float64 and upper.dtype == np.float64
    assert hit.shape == lower.shape == upper.shape == (len(q),)
    fp = int(np.sum(hit & ~truth))
    fn = int(np.sum(~hit & truth))
    assert (fp, fn) == (0, 0), f"{path}: {fp} false positives, {fn} false negatives"
    assert np.all(np.isnan(lower[~hit])) and np.all(np.isnan(upper[~hit]))
    assert np.all((0.0 <= lower[hit]) & (lower[hit] <= upper[hit]) & (upper[hit] <= 1.0))


def test_the_conversion_of_the_rationals_is_exact():
    path = SAMPLE_SETS[0]
    q, _ = load_query_csv(path)
    rows = [line.split(",") for line in path.read_text().splitlines() if line.strip()]
    flat = q.reshape(-1, 3)
    for row, point in zip(rows, flat):
        for j in range(3):
            assert Fraction(point[j]) == Fraction(int(row[2 * j]), int(row[2 * j + 1]))


@pytest.mark.parametrize("kind", ["vf", "ee"])
def test_single_queries_equal_the_batch(kind):
    q, truth = _load(FUNNEL / "queries" / f"227{kind}.csv", FUNNEL / "mma_bool" / f"227{kind}_mma_bool.json")
    q = q[:300]
    hit, lower, upper = BATCH[kind](q)
    for i in range(len(q)):
        toi = SINGLE[kind](*q[i])
        if hit[i]:
            assert toi == ccdlab.Toi(lower[i], upper[i])
            assert isinstance(toi, ccdlab.Toi) and toi.lower == lower[i]
        else:
            assert toi is None
    # Lists and tuples are array-likes too.
    assert SINGLE[kind](*[tuple(p) for p in q[0]]) == SINGLE[kind](*[list(p) for p in q[0]])


def test_a_falling_vertex():
    f0, f1, f2 = [0, 0, 0], [1, 0, 0], [0, 1, 0]
    toi = ccdlab.vertex_face_ccd([0.2, 0.2, 1], f0, f1, f2, [0.2, 0.2, -1], f0, f1, f2)
    assert toi is not None and toi.lower <= 0.5 <= toi.upper
    assert ccdlab.vertex_face_ccd([0.2, 0.2, 1], f0, f1, f2, [0.2, 0.2, 0.5], f0, f1, f2) is None
    # Crossing edges: a along x at z = 1 falling to z = -1, b along y at z = 0.
    toi = ccdlab.edge_edge_ccd([-1, 0, 1], [1, 0, 1], [0, -1, 0], [0, 1, 0],
                               [-1, 0, -1], [1, 0, -1], [0, -1, 0], [0, 1, 0])
    assert toi is not None and toi.lower <= 0.5 <= toi.upper
    assert ccdlab.vertex_face_ccd([0.2, 0.2, 1], f0, f1, f2, [0.2, 0.2, -1], f0, f1, f2,
                                  solver="cubic") is not None


def test_layouts_dtypes_and_threads_give_the_same_answers():
    q, _ = load_query_csv(SAMPLE_SETS[0])
    ref = ccdlab.vertex_face_ccd_batch(q, threads=1)
    strided = np.zeros((len(q), 8, 6))
    strided[:, :, ::2] = q
    for variant in (np.asfortranarray(q), strided[:, :, ::2], list(q.tolist())):
        out = ccdlab.vertex_face_ccd_batch(variant, threads=2)
        for a, b in zip(ref, out):
            np.testing.assert_array_equal(a, b)
    # float32 is widened exactly: the same answers as its float64 values.
    q32 = q.astype(np.float32)
    for a, b in zip(ccdlab.vertex_face_ccd_batch(q32), ccdlab.vertex_face_ccd_batch(q32.astype(np.float64))):
        np.testing.assert_array_equal(a, b)
    # An empty batch.
    hit, lower, upper = ccdlab.edge_edge_ccd_batch(np.zeros((0, 8, 3)))
    assert hit.shape == lower.shape == upper.shape == (0,)


def test_cubic_runs_on_a_batch():
    q, truth = load_query_csv(SAMPLE_SETS[0])
    hit, _, _ = ccdlab.vertex_face_ccd_batch(q, solver="cubic")
    assert hit.shape == truth.shape


def test_queries_scores_every_data_set_as_the_cli_does():
    report = ccdlab.queries(DATA, min_time_ms=0)
    assert report["solver"] == "exact"
    total = report["total"]
    assert (total["false_positives"], total["false_negatives"]) == (0, 0)
    assert total["queries"] == 121_493
    # The 44 query CSVs and cloth-ball's two boxes files.
    assert len(report["sets"]) == 46
    assert set(report["sets"][0]) >= {"path", "kind", "queries", "positives", "false_positives",
                                      "false_negatives", "mean_ns", "exact_fallbacks"}
    assert report["stamp"]["threads"] == 1
    one = ccdlab.queries(str(SAMPLE_SETS[0]), solver="cubic", min_time_ms=0)
    assert one["solver"] == "cubic" and len(one["sets"]) == 1
