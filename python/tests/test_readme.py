"""The READMEs' Python examples run as written, as the Rust examples run as
doctests: each README's ``python`` blocks in order, in one namespace, from the
repository's root (where their data set paths point); the examples assert
what their comments claim. The one block that calls the IPC Toolkit (not a
dependency of ccdlab or its tests) is left out by name; the test counts the
blocks it runs, so that a change of the fences cannot leave it running none.
The process-pool example does its work only as a script (its workers import
the file), so it also runs as one, on two frames of its own."""

import contextlib
import io
import re
import shutil
import subprocess
import sys

import pytest

import ccdlab
from conftest import FUNNEL, REPO

FENCE = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def blocks(readme):
    return FENCE.findall((REPO / readme).read_text())


@pytest.mark.parametrize(
    ("readme", "runs", "left_out"),
    [("python/README.md", 7, 1), ("README.md", 2, 0)],
)
def test_readme_python_examples_run(readme, runs, left_out, monkeypatch):
    found = blocks(readme)
    kept = [b for b in found if "import ipctk" not in b]
    assert (len(kept), len(found) - len(kept)) == (runs, left_out)
    monkeypatch.chdir(REPO)
    namespace = {"__name__": "readme_example"}
    printed = io.StringIO()
    for i, code in enumerate(kept):
        with contextlib.redirect_stdout(printed):
            exec(compile(code, f"{readme} python block {i}", "exec"), namespace)
    assert printed.getvalue(), "the examples print their results"


def test_readme_process_pool_example_runs_as_a_script(tmp_path):
    [pool] = [b for b in blocks("README.md") if "ProcessPoolExecutor" in b]
    frames = tmp_path / "frames"
    frames.mkdir()
    for i, name in enumerate(["227.ply", "228.ply"]):
        shutil.copy(FUNNEL / "frames" / name, frames / f"frame_{i:04d}.ply")
    script = tmp_path / "pool_example.py"
    script.write_text(pool + "    print(repr(tois))\n")
    out = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=600
    )
    assert out.returncode == 0, out.stderr
    V0, F = ccdlab.read_mesh(FUNNEL / "frames" / "227.ply")
    V1, _ = ccdlab.read_mesh(FUNNEL / "frames" / "228.ply")
    assert out.stdout.strip() == repr([ccdlab.step(V0, V1, F).toi])
