#!/usr/bin/env bash
# Regenerates reports/narrow_phase/ from scratch: builds ccdlab (release), scores both solvers
# on every query set under the data root with `ccdlab queries --json` (one thread), runs IPC
# Toolkit's Tight-Inclusion on the same sets (scripts/peer_ipctk.py, which installs the pinned
# ipctk into .venv on first use), and renders README.md from the three JSON files.
#
# Usage: scripts/report_narrow_phase.sh [DATA_ROOT]
# DATA_ROOT defaults to $CCDLAB_DATA, else datasets/ (as ccdlab).
# Every output is written to a temporary folder first and renamed into place only when all
# steps succeeded: a failed run leaves the previous report untouched.
set -euo pipefail

cd "$(dirname "$0")/.."
out=reports/narrow_phase

data="${1:-}"
if [[ -z "$data" ]]; then
    for candidate in "${CCDLAB_DATA:-}" datasets; do
        if [[ -n "$candidate" && ( -d "$candidate/ccd-queries" || -d "$candidate/scalable-ccd" ) ]]; then
            data="$candidate"
            break
        fi
    done
fi
if [[ -z "$data" ]]; then
    echo "error: no data set found (they are committed under datasets/; CCDLAB_DATA overrides)" >&2
    exit 1
fi
data="$(cd "$data" && pwd)"

mkdir -p "$out"
tmp="$(mktemp -d "$out/.tmp.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

echo "building ccdlab (release)" >&2
cargo build --release --quiet --bin ccdlab
bin="${CARGO_TARGET_DIR:-target}/release/ccdlab"

export RAYON_NUM_THREADS=1
for solver in exact cubic; do
    echo "ccdlab queries --solver $solver $data" >&2
    "$bin" queries --json --solver "$solver" "$data" > "$tmp/$solver.json"
done
echo "peer_ipctk.py queries $data" >&2
python3 scripts/peer_ipctk.py queries --json "$data" > "$tmp/ipctk.json"

# The records name the query files relative to the data root, not by this machine's folders.
python3 scripts/portable_paths.py "$data=datasets" -- "$tmp/exact.json" "$tmp/cubic.json" "$tmp/ipctk.json"
python3 scripts/render_narrow_phase.py "$tmp/exact.json" "$tmp/cubic.json" "$tmp/ipctk.json" "$tmp/README.md"

for f in exact.json cubic.json ipctk.json README.md; do
    mv -f "$tmp/$f" "$out/$f"
done
echo "wrote $out/README.md" >&2
