"""The READMEs' Python examples run as written, as the Rust examples run as
doctests: each README's ``python`` blocks in order, in one namespace, from the
repository's root (where their data set paths point). The one block that
calls the IPC Toolkit (not a dependency of ccdlab or its tests) is left out
by name; the test counts the blocks it runs, so that a change of the fences
cannot leave it running none."""

import contextlib
import io
import re

import pytest

from conftest import REPO

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
