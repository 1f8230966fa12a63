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
    # Batches too small to share (one worker's share or less run on the
    # calling thread) and just large enough: the same answers.
    many = np.concatenate([q] * (600 // len(q) + 1))
    solved = [np.concatenate([a] * (600 // len(q) + 1)) for a in ref]
    for n in (1, 64, 65, 256, 257, 600):
        for threads in (None, 2, 7):
            for a, b in zip(solved, ccdlab.vertex_face_ccd_batch(many[:n], threads=threads)):
                np.testing.assert_array_equal(a[:n], b)
        culled = ccdlab.vertex_face_filter_batch(many[:n], threads=1)
        for threads in (None, 2, 7):
            np.testing.assert_array_equal(culled, ccdlab.vertex_face_filter_batch(many[:n], threads=threads))
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
    # A set under several of the paths is scored once.
    again = ccdlab.queries(SAMPLE_SETS[0], str(SAMPLE_SETS[0]), SAMPLE_SETS[0].parent, min_time_ms=0)
    paths = [s["path"] for s in again["sets"]]
    assert len(paths) == len(set(paths)) == len(list(SAMPLE_SETS[0].parent.glob("*.csv")))


# Minimum separation: `min_distance=d` (docs/design.md section 5).

DISTANCES = (1e-6, 1e-3, 0.05)


@pytest.mark.parametrize("path,kind,truth_file", CASES, ids=[str(c[0].relative_to(DATA)) for c in CASES])
def test_min_distance_zero_is_contact_and_positives_grow_with_d(path, kind, truth_file):
    q, truth = _load(path, truth_file)
    contact = BATCH[kind](q)
    for zero in (0.0, -0.0, 0):
        for a, b in zip(contact, BATCH[kind](q, min_distance=zero)):
            np.testing.assert_array_equal(a, b)
    hit0, _, upper0 = contact
    before = hit0
    for d in DISTANCES:
        hit, lower, upper = BATCH[kind](q, min_distance=d)
        # A pair that touches comes within every d > 0, and no later.
        assert np.all(hit[truth]), f"{path}: {int(np.sum(truth & ~hit))} contacts negative at d = {d}"
        assert np.all(lower[truth] <= upper0[truth]), f"{path}: later than contact at d = {d}"
        # Within d implies within every larger d: the positives only grow.
        assert np.all(hit[before]), f"{path}: a positive lost from d = {d}"
        assert np.all((0.0 <= lower[hit]) & (lower[hit] <= upper[hit]) & (upper[hit] <= 1.0))
        assert np.all(np.isnan(lower[~hit]))
        before = hit


@pytest.mark.parametrize("d", [0.5, 0.25, 2.0**-20, 3.0])
def test_a_pair_exactly_d_apart_is_a_hit_and_a_hair_further_a_miss(d):
    f0, f1, f2 = [0, 0, 0], [1, 0, 0], [0, 1, 0]
    above = np.nextafter(d, np.inf)
    # A vertex falling onto the triangle's interior, stopping at height d
    # (then just above it) at t = 1.
    toi = ccdlab.vertex_face_ccd([0.2, 0.2, 4], f0, f1, f2, [0.2, 0.2, d], f0, f1, f2, min_distance=d)
    assert toi is not None and toi.lower <= 1.0 == toi.upper
    assert ccdlab.vertex_face_ccd([0.2, 0.2, 4], f0, f1, f2, [0.2, 0.2, above], f0, f1, f2,
                                  min_distance=d) is None
    # Still, exactly d above a corner: within d at once; within a bit less, never.
    assert ccdlab.vertex_face_ccd([0, 0, d], f0, f1, f2, [0, 0, d], f0, f1, f2,
                                  min_distance=d).lower == 0.0
    assert ccdlab.vertex_face_ccd([0, 0, d], f0, f1, f2, [0, 0, d], f0, f1, f2,
                                  min_distance=np.nextafter(d, 0)) is None
    # Crossing edges: a along x falling from z = 4 to z = d (then just above)
    # over b along y at z = 0.
    b0, b1 = [0, -1, 0], [0, 1, 0]
    toi = ccdlab.edge_edge_ccd([-1, 0, 4], [1, 0, 4], b0, b1, [-1, 0, d], [1, 0, d], b0, b1, min_distance=d)
    assert toi is not None and toi.lower <= 1.0 == toi.upper
    assert ccdlab.edge_edge_ccd([-1, 0, 4], [1, 0, 4], b0, b1, [-1, 0, above], [1, 0, above], b0, b1,
                                min_distance=d) is None
    # The batches give the same answers.
    vf = np.array([[[0.2, 0.2, 4], f0, f1, f2, [0.2, 0.2, z], f0, f1, f2] for z in (d, above)], dtype=float)
    ee = np.array([[[-1, 0, 4], [1, 0, 4], b0, b1, [-1, 0, z], [1, 0, z], b0, b1] for z in (d, above)],
                  dtype=float)
    for batch, qs in ((ccdlab.vertex_face_ccd_batch, vf), (ccdlab.edge_edge_ccd_batch, ee)):
        hit, _, upper = batch(qs, min_distance=d, threads=1)
        assert hit.tolist() == [True, False] and upper[0] == 1.0


@pytest.mark.parametrize("bad,match", [
    (-1.0, "min_distance: the minimum separation -1.0 is negative"),
    (-1e-300, "the minimum separation -1e-300 is negative"),
    (float("nan"), "min_distance: the minimum separation is not a number"),
    (float("inf"), "min_distance: the minimum separation is infinite"),
    (float("-inf"), "is negative"),
])
def test_a_bad_min_distance_raises(bad, match):
    q = np.zeros((1, 8, 3))
    with pytest.raises(ValueError, match=match):
        ccdlab.vertex_face_ccd(*q[0], min_distance=bad)
    with pytest.raises(ValueError, match=match):
        ccdlab.edge_edge_ccd(*q[0], min_distance=bad)
    with pytest.raises(ValueError, match=match):
        ccdlab.vertex_face_ccd_batch(q, min_distance=bad)
    with pytest.raises(ValueError, match=match):
        ccdlab.edge_edge_ccd_batch(q, min_distance=bad)
    with pytest.raises(ValueError, match=match):
        ccdlab.queries(SAMPLE_SETS[0], min_distance=bad)
    with pytest.raises(TypeError):
        ccdlab.vertex_face_ccd_batch(q, min_distance="0.1")


def test_the_cubic_solver_has_no_min_distance():
    q = np.zeros((1, 8, 3))
    with pytest.raises(ValueError, match="solver: the cubic solver has no minimum separation"):
        ccdlab.vertex_face_ccd_batch(q, solver="cubic", min_distance=1e-3)
    with pytest.raises(ValueError, match="solver: the cubic solver has no minimum separation"):
        ccdlab.edge_edge_ccd(*q[0], solver="cubic", min_distance=1e-3)
    with pytest.raises(ValueError, match="solver: the cubic solver has no minimum separation"):
        ccdlab.queries(SAMPLE_SETS[0], solver="cubic", min_distance=1e-3)
    # At d = 0 it is the contact baseline, as before.
    assert ccdlab.vertex_face_ccd_batch(q, solver="cubic", min_distance=0.0)[0].shape == (1,)
    # The whole step and the pipeline likewise, before any array is read.
    with pytest.raises(ValueError, match="solver: the cubic solver has no minimum separation"):
        ccdlab.step(None, None, None, solver="cubic", min_distance=1e-3)
    with pytest.raises(ValueError, match="solver: the cubic solver has no minimum separation"):
        ccdlab.Pipeline(np.array([[0, 1, 2]]), solver="cubic", min_distance=1e-3)
    with pytest.raises(ValueError, match="oracle: "):
        ccdlab.queries(SAMPLE_SETS[0], oracle=True)


def test_queries_at_a_min_distance_score_every_set_against_the_contact_truth():
    unit = DATA / "ccd-queries" / "unit-tests"
    contact = ccdlab.queries(unit, min_time_ms=0)
    assert "min_distance" not in contact and "within" not in contact["total"]
    assert all("within" not in s for s in contact["sets"])
    report = ccdlab.queries(unit, min_time_ms=0, min_distance=1e-3, oracle=True)
    assert report["min_distance"] == 1e-3
    total = report["total"]["within"]
    assert (total["contact_misses"], total["later_than_contact"], total["oracle_disagreements"]) == (0, 0, 0)
    assert total["positives"] == sum(s["within"]["positives"] for s in report["sets"])
    for s, c in zip(report["sets"], contact["sets"]):
        assert (s["path"], s["positives"], s["false_negatives"]) == (c["path"], c["positives"], c["false_negatives"])
        q, truth = load_query_csv(s["path"])
        hit, _, _ = BATCH[s["kind"]](q, min_distance=1e-3)
        assert s["within"]["positives"] == int(np.sum(hit)) >= int(np.sum(truth)) == s["positives"]


def test_load_queries_gives_the_sets_queries_scores():
    sets = ccdlab.load_queries(DATA)
    scored = ccdlab.queries(DATA, min_time_ms=0)["sets"]
    assert [(s["path"], s["kind"], len(s["queries"])) for s in sets] == [
        (s["path"], s["kind"], s["queries"]) for s in scored
    ]
    by_path = {str(p): (p, kind, truth_file) for p, kind, truth_file in CASES}
    compared = 0
    for s in sets:
        q, truth = s["queries"], s["truth"]
        assert q.dtype == np.float64 and q.shape == (len(q), 8, 3) and not q.flags.writeable
        assert truth.dtype == np.bool_ and truth.shape == (len(q),) and not truth.flags.writeable
        # Another solver scored on the arrays: the exact batch, with no miss.
        hit, _, _ = BATCH[s["kind"]](q)
        assert np.array_equal(hit, truth), s["path"]
        # The same queries and truth as this file's own parser of the CSVs.
        if s["path"] in by_path:
            path, kind, truth_file = by_path[s["path"]]
            want_q, want_truth = _load(path, truth_file)
            assert kind == s["kind"]
            assert np.array_equal(q, want_q) and np.array_equal(truth, want_truth), path
            compared += 1
    assert compared == len(CASES)


def test_load_queries_without_truth_and_what_it_refuses(tmp_path):
    with pytest.raises(ValueError, match="at least one path"):
        ccdlab.load_queries()
    with pytest.raises(FileNotFoundError, match="nowhere"):
        ccdlab.load_queries(tmp_path / "nowhere")
    with pytest.raises(ValueError, match="no query files here"):
        ccdlab.load_queries(tmp_path)
    with pytest.raises(ValueError, match="paths: embedded null byte"):
        ccdlab.load_queries("a\0b")
    folder = tmp_path / "vertex-face"
    folder.mkdir()
    # A query without its truth column: truth None.
    (folder / "data_0_0.csv").write_text("".join(f"{k},1,0,1,0,1\n" for k in range(8)))
    (s,) = ccdlab.load_queries(tmp_path)
    assert s["kind"] == "vf" and s["truth"] is None
    assert s["queries"][0, :, 0].tolist() == list(range(8))
    # Scoring it would count every answer right: queries refuses it, naming it.
    with pytest.raises(ValueError, match="data_0_0.csv: no ground truth"):
        ccdlab.queries(tmp_path)
    (folder / "data_0_0.csv").write_text("1,2,3\n")
    with pytest.raises(ValueError, match="data_0_0.csv"):
        ccdlab.load_queries(tmp_path)


def test_queries_name_the_queries_whose_truth_is_wrong(tmp_path):
    # A vertex above a triangle, moving through it (0, 2) or staying (1, 3);
    # the truth of queries 1 and 2 is wrong.
    folder = tmp_path / "vertex-face"
    folder.mkdir()
    triangle = ["0,1,0,1,0,1", "1,1,0,1,0,1", "0,1,1,1,0,1"]
    rows = []
    for end, truth in [("-1", 1), ("1", 1), ("-1", 0), ("1", 0)]:
        rows.append(f"1,4,1,4,1,1,{truth}\n")
        rows += [f"{t},{truth}\n" for t in triangle]
        rows.append(f"1,4,1,4,{end},1,{truth}\n")
        rows += [f"{t},{truth}\n" for t in triangle]
    (folder / "q.csv").write_text("".join(rows))
    (s,) = ccdlab.queries(tmp_path)["sets"]
    assert (s["false_positives"], s["false_negatives"]) == (1, 1)
    assert s["disagreements"] == [1, 2]
    # Right truth only: the key is left out.
    (folder / "q.csv").write_text("".join(rows[:8] + rows[24:]))
    (s,) = ccdlab.queries(tmp_path)["sets"]
    assert "disagreements" not in s and s["false_positives"] == s["false_negatives"] == 0
