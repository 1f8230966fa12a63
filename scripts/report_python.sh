#!/usr/bin/env bash
# ccdlab's Python package beside ipctk in one process, and the batch call's cost per query
# beyond the Rust solver: builds and installs the package (`pip install .`, as
# scripts/python_test.sh does) with ipctk into a virtual environment, runs
# scripts/compare_ipctk.py (whole step of funnel 227->228 and cloth-ball 92->93; every
# ground-truth query through the batch API and through Tight-Inclusion) and
# scripts/batch_overhead_instructions.py (callgrind instruction counts), and renders
# reports/python/README.md from reports/python/data/*.json. Stops (and leaves the previous
# report as it was) when a check fails: ccdlab not 0 / 0 against the truth, ipctk's
# conservative time of impact after ccdlab's, or `Pipeline.earliest_toi`'s bracket not within
# the step's.
#
#   scripts/report_python.sh [compare_ipctk.py arguments...]
#
# Environment: PYTHON (default python3); CCDLAB_PY_VENV: use (and keep) this virtual
# environment instead of a fresh temporary one (created when missing; the package is
# reinstalled from the checkout every time). Needs the network once for ipctk and the build
# backend, valgrind, and cargo. Takes ~15 min on 2 cores (the build ~5 of them).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
python=${PYTHON:-python3}
work=$(mktemp -d "${TMPDIR:-/tmp}/ccdlab-report-python.XXXXXX")
trap 'rm -rf "$work"' EXIT
venv=${CCDLAB_PY_VENV:-$work/venv}
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "ipctk==1.6.1" numpy
# Not stripped (pyproject.toml strips the published module): the instruction counts find the
# binding's functions by their symbols. The code is the same either way.
MATURIN_STRIP=false "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
  --force-reinstall --no-deps "$repo"

data="$work/data"
mkdir -p "$data"
"$venv/bin/python" scripts/compare_ipctk.py --json "$data/compare.json" "$@"
"$venv/bin/python" scripts/batch_overhead_instructions.py --json "$data/overhead.json"

out=reports/python
mkdir -p "$out.tmp/data"
cp "$data"/*.json "$out.tmp/data/"
python3 scripts/render_python_compare.py "$out.tmp/data" "$out.tmp/README.md"
rm -rf "$out"
mv "$out.tmp" "$out"
echo "wrote $out/README.md"
