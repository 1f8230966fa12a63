#!/usr/bin/env python3
"""Copies the native module's docstrings into its type stubs.

The Rust doc comments in python/src are the one source of ccdlab's Python
documentation: `help()` shows them, and an editor that reads
python/ccdlab/_native.pyi shows the stub's. This script writes the built
module's docstrings into the stub, in place of those there (the signatures
and types stay as written by hand). python/tests/test_package.py fails when
the two differ, or when a stub's parameters are not the module's.

Run it after building the package into the environment it runs in
(`maturin develop --release -m python/Cargo.toml`); it says which module it
read:

    python scripts/sync_python_stubs.py          # rewrite the stub
    python scripts/sync_python_stubs.py --check  # exit 1 if it would change
"""

import argparse
import ast
import inspect
import sys
from pathlib import Path

STUB = Path(__file__).resolve().parent.parent / "python" / "ccdlab" / "_native.pyi"


def documented(tree):
    """The stub's functions, classes and methods that carry a docstring, as
    (dotted name, node), an overloaded name's first definition only
    (constructors keep the class's docstring)."""
    seen = set()
    for node in tree.body:
        if not isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            continue
        if node.name not in seen:
            seen.add(node.name)
            yield node.name, node
        if isinstance(node, ast.ClassDef):
            for member in node.body:
                if isinstance(member, ast.FunctionDef) and member.name != "__new__":
                    name = f"{node.name}.{member.name}"
                    if name not in seen:
                        seen.add(name)
                        yield name, member


def runtime_doc(module, dotted):
    obj = module
    for part in dotted.split("."):
        obj = getattr(obj, part)
    return inspect.getdoc(obj)


def render(doc, indent):
    """A docstring literal at `indent` columns whose value `inspect.cleandoc`
    turns back into `doc` (backslashes and quotes that would end it
    escaped; `synced` checks the round trip)."""
    pad = " " * indent
    escaped = doc.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    if escaped.endswith('"'):
        escaped = escaped[:-1] + '\\"'
    lines = escaped.split("\n")
    if len(lines) == 1:
        return [f'{pad}"""{lines[0]}"""']
    return [f'{pad}"""{lines[0]}', *[pad + line if line else "" for line in lines[1:]], f'{pad}"""']


def synced(text, module):
    """The stub `text` with the module's docstrings; raises on a stub name
    the module lacks or a module docstring that is missing."""
    lines = text.split("\n")
    edits = []  # (first line, end line, replacement), 0-based, end exclusive
    for name, node in documented(ast.parse(text)):
        doc = runtime_doc(module, name)
        if not doc:
            raise SystemExit(f"{name}: the native module has no docstring for it")
        first = node.body[0]
        is_doc = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
        if is_doc and isinstance(first.value.value, str):
            rendered = render(doc, first.col_offset)
            edits.append((first.lineno - 1, first.end_lineno, rendered))
        elif is_doc and first.value.value is Ellipsis and len(node.body) == 1:
            # `def f(...) -> T: ...`: the `...` gives way to the docstring.
            row = first.lineno - 1
            head = lines[row][: first.col_offset].rstrip() + lines[row][first.end_col_offset :]
            rendered = render(doc, node.col_offset + 4)
            edits.append((row, row + 1, [head, *rendered] if head.strip() else rendered))
        else:
            raise SystemExit(f"{name}: line {node.lineno}: expected a docstring or `...`")
    for start, end, replacement in sorted(edits, reverse=True):
        lines[start:end] = replacement
    new = "\n".join(lines)
    for name, node in documented(ast.parse(new)):
        if ast.get_docstring(node) != runtime_doc(module, name):
            raise SystemExit(f"{name}: the docstring did not round-trip; nothing written")
    return new


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the stub would change")
    args = parser.parse_args()
    import ccdlab._native as native

    print(f"module: {native.__file__}")
    text = STUB.read_text()
    new = synced(text, native)
    if new == text:
        print(f"{STUB}: up to date")
        return 0
    if args.check:
        print(f"{STUB}: docstrings differ from the built module's; run {sys.argv[0]}")
        return 1
    STUB.write_text(new)
    print(f"{STUB}: docstrings written from the built module")
    return 0


if __name__ == "__main__":
    sys.exit(main())
