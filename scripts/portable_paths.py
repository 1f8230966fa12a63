#!/usr/bin/env python3
"""Rewrites a report's recorded JSON so that it names no machine's folders.

    scripts/portable_paths.py FOLDER=STANDIN [FOLDER=STANDIN ...] -- FILE [FILE ...]

Every JSON string that begins with FOLDER/ is made to begin with STANDIN/ instead (or with
nothing, for an empty STANDIN): the report scripts map the data root to `datasets` (the
committed copy, or whatever $CCDLAB_DATA named: the same files, by the sha256 manifest) and
their temporary work folder to nothing, so a recorded `/tmp/tmp.X/pairs_funnel_0.csv` reads
`pairs_funnel_0.csv` and `/home/me/ccdlab/datasets/scalable-ccd/...` reads
`datasets/scalable-ccd/...`. Rules apply in the order given, so list nested folders (a work
folder inside the repository) before the folders that hold them.

The rewrite is textual (the JSON-escaped folder after a string's opening quote), so the
files keep their layout byte for byte apart from the paths. Each file must parse before and
after; a file with a string that still names a rule's folder afterwards (the folder itself,
or a path inside a longer string) stops the script with its name. Files are replaced
atomically, and only when they changed.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path


def parse_rules(args: list[str]) -> list[tuple[str, str]]:
    rules = []
    for arg in args:
        folder, sep, standin = arg.partition("=")
        if not sep or not folder:
            raise SystemExit(f"error: {arg!r}: a rule is FOLDER=STANDIN")
        folder = folder.rstrip("/")
        if not folder.startswith("/"):
            raise SystemExit(f"error: {arg!r}: FOLDER must be absolute")
        rules.append((folder, standin.strip("/")))
    return rules


def rewrite(text: str, rules: list[tuple[str, str]]) -> str:
    """`text` with every string literal that starts with a rule's folder rewritten, rule by
    rule in order (a string rewritten by one rule no longer starts with a later one's folder).
    A JSON string literal starts with a quote, so the needle is the quote and the folder, as
    the writer spelled it: raw UTF-8 (serde_json) or with non-ASCII escaped (Python's json);
    the only other place it can occur is after an escaped quote inside a string, where the
    rewrite is just as right."""
    for folder, standin in rules:
        replacement = '"' + (standin + "/" if standin else "")
        for spelled in {json.dumps(folder + "/")[1:-1],
                        json.dumps(folder + "/", ensure_ascii=False)[1:-1]}:
            text = text.replace('"' + spelled, replacement)
    return text


def strings(value):
    """Every string in a parsed JSON value, keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from strings(v)


def main(argv: list[str]) -> int:
    if "--" not in argv:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    cut = argv.index("--")
    rules, files = parse_rules(argv[:cut]), argv[cut + 1:]
    for name in files:
        path = Path(name)
        text = path.read_text(encoding="utf-8")
        try:
            json.loads(text)
        except json.JSONDecodeError as e:
            raise SystemExit(f"error: {path}: not JSON before the rewrite: {e}")
        new = rewrite(text, rules)
        for s in strings(json.loads(new)):
            for folder, _ in rules:
                if s == folder or folder + "/" in s:
                    raise SystemExit(f"error: {path}: still names {folder} in {s!r}")
        if new != text:
            tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
            tmp.write_text(new, encoding="utf-8")
            os.replace(tmp, path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
