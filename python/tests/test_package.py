"""The package's surface: every public name is exported and typed."""

import ast
from pathlib import Path

import ccdlab
from ccdlab import _native


def test_every_native_name_is_exported_and_in_the_stub():
    stub = ast.parse((Path(_native.__file__).parent / "_native.pyi").read_text())
    typed = {n.name for n in stub.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    typed |= {t.id for n in stub.body if isinstance(n, ast.AnnAssign) for t in [n.target]}
    native = {n for n in dir(_native) if not n.startswith("_")} | {"__version__"}
    assert native <= typed, sorted(native - typed)
    assert native <= set(ccdlab.__all__), sorted(native - set(ccdlab.__all__))
    for name in ccdlab.__all__:
        assert getattr(ccdlab, name) is not None, name
