"""Shared paths and loaders of the Python tests: the data sets committed under
datasets/ and the frames of the two whole-step scenes."""

import json
from pathlib import Path

import numpy as np
import pytest

import ccdlab

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "datasets"
TESTS = Path(__file__).resolve().parent
FUNNEL = DATA / "scalable-ccd" / "cloth-funnel"
BALL = DATA / "scalable-ccd" / "cloth-ball"


def load_query_csv(path):
    """A query CSV as ``(queries (n, 8, 3) float64, truth bool[n] or None)``.

    Each row is x = c1/c2, y = c3/c4, z = c5/c6 (exact rationals that are
    doubles), and, with 7 columns, the truth (equal on a query's 8 rows).
    ``int / int`` is correctly rounded in Python, hence exact here; the test
    checks that too.
    """
    values, truth = [], []
    for line in Path(path).read_text().splitlines():
        if not line.strip():
            continue
        cols = line.split(",")
        assert len(cols) in (6, 7), f"{path}: {line!r}"
        values.append([int(cols[0]) / int(cols[1]), int(cols[2]) / int(cols[3]), int(cols[4]) / int(cols[5])])
        if len(cols) == 7:
            truth.append(cols[6].strip() == "1")
    assert len(values) % 8 == 0, path
    q = np.array(values, dtype=np.float64).reshape(-1, 8, 3)
    t = np.array(truth[::8], dtype=bool) if truth else None
    return q, t


def load_mma_bool(path):
    with open(path) as f:
        return np.array(json.load(f), dtype=bool)


@pytest.fixture(scope="session")
def funnel():
    """Funnel 227 -> 228: (V0, V1, F)."""
    V0, F = ccdlab.read_mesh(FUNNEL / "frames" / "227.ply")
    V1, F1 = ccdlab.read_mesh(FUNNEL / "frames" / "228.ply")
    assert np.array_equal(F, F1)
    return V0, V1, F


@pytest.fixture(scope="session")
def ball():
    """Cloth-ball 92 -> 93: (V0, V1, F)."""
    V0, F = ccdlab.read_mesh(BALL / "frames" / "cloth_ball92.ply")
    V1, F1 = ccdlab.read_mesh(BALL / "frames" / "cloth_ball93.ply")
    assert np.array_equal(F, F1)
    return V0, V1, F
