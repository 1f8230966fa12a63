#!/usr/bin/env bash
# Builds and tests the Python package from a clean state: a fresh virtual
# environment in a temporary folder, `pip install .` from the repository root
# (maturin builds the extension module in python/; numpy and the build
# backend come from PyPI), then `pytest python/tests` and mypy's stubtest of
# the type stub, with the newest numpy; pytest again with the oldest numpy
# the package declares. Fails on any failure, and
# when no test is collected (pytest's exit code 5).
#
# Usage: scripts/python_test.sh [pytest arguments...]
# Environment: PYTHON (default python3), CARGO_TARGET_DIR (the Rust build
# folder; default the repository's target/, so that a rerun is incremental),
# CCDLAB_SKIP_OLDEST_NUMPY=1 (no second run with the oldest numpy).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

python=${PYTHON:-python3}
venv=$(mktemp -d "${TMPDIR:-/tmp}/ccdlab-python-test.XXXXXX")
trap 'rm -rf "$venv"' EXIT

"$python" -m venv "$venv"
# shellcheck disable=SC1091
. "$venv/bin/activate"
start=$(date +%s)
python -m pip install --quiet "$repo"
echo "python_test: pip install . took $(( $(date +%s) - start )) s"
python -m pip install --quiet pytest mypy

# Run from outside the source tree, so that `import ccdlab` is the
# installed package, not python/ccdlab without its extension module.
cd "$venv"
status=0
python -m pytest -q -p no:cacheprovider "$repo/python/tests" "$@" || status=$?
if [ "$status" -eq 5 ]; then
    echo "python_test: no tests were collected" >&2
    exit 1
fi
[ "$status" -eq 0 ] || exit "$status"
# The type stub against the installed module: every name, signature and
# default the same (python/stubtest_allowlist.txt: the names left out).
python -m mypy.stubtest ccdlab --allowlist "$repo/python/stubtest_allowlist.txt"
# Again with the oldest numpy the package declares (pyproject.toml's
# `numpy>=X.Y`: the newest X.Y.*), which pip installed the newest of above.
oldest=$(sed -n 's/.*"numpy>=\([0-9]*\.[0-9]*\)".*/\1/p' "$repo/pyproject.toml")
if [ -z "$oldest" ]; then
    echo "python_test: no numpy>=X.Y requirement found in pyproject.toml" >&2
    exit 1
fi
# A Python newer than that numpy has no wheel for it (numpy 1.26: up to
# 3.12): then CCDLAB_SKIP_OLDEST_NUMPY=1 skips this run, said; without it, a
# failed install fails the script.
if [ "${CCDLAB_SKIP_OLDEST_NUMPY:-0}" = 1 ]; then
    echo "python_test: CCDLAB_SKIP_OLDEST_NUMPY=1: not run with numpy $oldest" >&2
    exit 0
fi
if ! python -m pip install --quiet --only-binary=:all: "numpy==$oldest.*"; then
    echo "python_test: no numpy $oldest wheel could be installed for $(python -V) (see pip's message);" \
        "CCDLAB_SKIP_OLDEST_NUMPY=1 skips this run" >&2
    exit 1
fi
echo "python_test: again with numpy $(python -c 'import numpy; print(numpy.__version__)')"
python -m pytest -q -p no:cacheprovider "$repo/python/tests" "$@"
