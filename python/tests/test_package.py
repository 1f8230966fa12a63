"""The package's surface: every public name is exported and typed."""

import ast
import inspect
import re
from pathlib import Path

import numpy as np

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


STUB_PATH = Path(_native.__file__).parent / "_native.pyi"


def stub_definitions():
    """The stub's functions, classes and methods as (dotted name, node), in
    order (an overloaded name once per definition)."""
    for node in ast.parse(STUB_PATH.read_text()).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            yield node.name, node
        if isinstance(node, ast.ClassDef):
            for member in node.body:
                if isinstance(member, ast.FunctionDef):
                    yield f"{node.name}.{member.name}", member


def runtime(dotted):
    obj = _native
    for part in dotted.split("."):
        obj = getattr(obj, part)
    return obj


def test_every_public_member_of_a_class_is_in_the_stub():
    classes = {}
    for name, node in stub_definitions():
        if "." in name:
            cls, member = name.split(".")
            classes.setdefault(cls, set()).add(member)
    assert {"Pipeline", "StepResult"} <= set(classes)
    for cls, typed in classes.items():
        public = {m for m in dir(getattr(_native, cls)) if not m.startswith("_")}
        assert public <= typed, (cls, sorted(public - typed))


def test_the_stub_carries_the_modules_docstrings():
    # An editor shows the stub's docstrings, help() the module's: one text.
    firsts = {}
    for name, node in stub_definitions():
        firsts.setdefault(name, node)
    checked = 0
    for name, node in firsts.items():
        if name.endswith(".__new__"):
            continue
        want = inspect.getdoc(runtime(name))
        assert want, f"{name} has no docstring in the module"
        assert ast.get_docstring(node) == want, (
            f"{name}: the stub's docstring is not the module's; "
            "run scripts/sync_python_stubs.py after building"
        )
        checked += 1
    assert checked >= 30


def stub_parameters(node):
    """(name, kind, default or `inspect.Parameter.empty`) of a stub
    definition's parameters, the first of a method (self, cls) left out."""
    a = node.args
    P = inspect.Parameter
    positional = [(p, P.POSITIONAL_ONLY) for p in a.posonlyargs]
    positional += [(p, P.POSITIONAL_OR_KEYWORD) for p in a.args]
    defaults = [P.empty] * (len(positional) - len(a.defaults)) + list(a.defaults)
    out = [(p.arg, kind, d) for (p, kind), d in zip(positional, defaults)]
    if a.vararg:
        out.append((a.vararg.arg, P.VAR_POSITIONAL, P.empty))
    out += [
        (p.arg, P.KEYWORD_ONLY, P.empty if d is None else d)
        for p, d in zip(a.kwonlyargs, a.kw_defaults)
    ]
    if a.kwarg:
        out.append((a.kwarg.arg, P.VAR_KEYWORD, P.empty))
    return [
        (name, kind, d if d is P.empty else ast.literal_eval(d))
        for name, kind, d in out
        if name not in ("self", "cls")
    ]


def test_the_stubs_parameters_are_the_modules():
    P = inspect.Parameter
    checked = 0
    for name, node in stub_definitions():
        if isinstance(node, ast.ClassDef) or any(
            isinstance(d, ast.Name) and d.id == "property" for d in node.decorator_list
        ):
            continue
        target = runtime(name.removesuffix(".__new__"))
        params = [
            (p.name, p.kind, p.default)
            for p in inspect.signature(target).parameters.values()
            if p.name not in ("self", "cls")
        ]
        overloaded = any(isinstance(d, ast.Name) and d.id == "overload" for d in node.decorator_list)
        stub = stub_parameters(node)
        # A method's `self` is positional-only at run time (`self, /`): only
        # the names and kinds of the others, and every default, must agree.
        assert [(n, k) for n, k, _ in stub] == [(n, k) for n, k, _ in params], name
        for (n, _, got), (_, _, want) in zip(stub, params):
            if overloaded and got is P.empty:
                continue  # an overload narrows a parameter to one literal value
            assert type(got) is type(want) and got == want, f"{name}({n}): {got!r} != {want!r}"
        checked += 1
    assert checked >= 20


def accepted_names(keyword):
    """The names `keyword` accepts, as the error for an unknown one lists
    them (the library's own list)."""
    try:
        ccdlab.Pipeline(np.array([[0, 1, 2]]), **{keyword: "no such name"})
    except ValueError as e:
        message = str(e)
    else:
        raise AssertionError(f"{keyword}: an unknown name was taken")
    if "expected one of:" in message:
        return set(message.split("expected one of:")[1].replace(" ", "").split(","))
    return set(re.findall(r'"([a-z+]+)"', message.split("pass", 1)[1]))


def test_every_docstring_lists_exactly_the_accepted_names():
    # Written by hand in each docstring: a solver or filter setting added to
    # the library must be added to every docstring that lists them.
    accepted = {k: accepted_names(k) for k in ("solver", "filters", "time_aligned")}
    assert accepted["solver"] >= {"exact", "cubic"}
    assert accepted["time_aligned"] == {"auto", "on", "off"}
    seen = {k: 0 for k in accepted}
    for name, _ in stub_definitions():
        doc = inspect.getdoc(runtime(name)) or ""
        for keyword, listed in re.findall(r"^(\w+) : \{([^}]*)\}", doc, re.M):
            if keyword in accepted:
                names = {n.strip().strip('"') for n in listed.split(",")}
                assert names == accepted[keyword], (name, keyword, sorted(names))
                seen[keyword] += 1
    assert all(seen.values()), seen
