#!/usr/bin/env bash
# Interleaved A/B timing of whole steps for builds of ccdlab on a shared machine (one build alone:
# how fast it is now, round by round):
# every round runs each binary once, `ccdlab step --rebuild --repeat N --json` (the BVH built
# anew every run), and prints its fastest and median run and the stage times of its fastest.
# With --refit: `ccdlab step --repeat N+1 --json`, whose first run builds the BVH and the others
# refit it, as a sequence's steps do; the first run is left out of the fastest and median.
# Interleaving spreads the machine's disturbances over all binaries; compare the rounds' best
# values, not single runs. (What the project measured this way is in docs/notes/; the
# numbers for reports/ come from scripts/reproduce_pipeline.sh.)
#
#   scripts/ab_step.sh [--rounds R] [--threads T] [--refit] cloth-ball|funnel BIN [BIN...]
#
# Build the binaries first, e.g. `cargo build --release && cp target/release/ccdlab /tmp/a`.
# Data sets: $CCDLAB_DATA, else datasets/ (committed).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

usage="usage: scripts/ab_step.sh [--rounds R] [--threads T] [--refit] cloth-ball|funnel BIN [BIN...]"
rounds=5
threads=2
refit=0
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds="${2:?$usage}"; shift 2 ;;
    --threads) threads="${2:?$usage}"; shift 2 ;;
    --refit) refit=1; shift ;;
    -h|--help) echo "$usage"; exit 0 ;;
    *) break ;;
  esac
done
[ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
case "$rounds$threads" in
  *[!0-9]*) echo "--rounds and --threads take positive integers" >&2; exit 2 ;;
esac
scene="$1"
shift

# shellcheck source=scripts/data_dir.sh
. "$root/scripts/data_dir.sh"
data="$(data_dir "$root")"
case "$scene" in
  # Runs per round: enough for a few hundred milliseconds to a second per binary.
  cloth-ball) f0="$data/scalable-ccd/cloth-ball/frames/cloth_ball92.ply"
              f1="$data/scalable-ccd/cloth-ball/frames/cloth_ball93.ply"; runs=7 ;;
  funnel) f0="$data/scalable-ccd/cloth-funnel/frames/227.ply"
          f1="$data/scalable-ccd/cloth-funnel/frames/228.ply"; runs=30 ;;
  *) echo "unknown scene '$scene' (cloth-ball or funnel)" >&2; exit 2 ;;
esac
for bin in "$@"; do
  [ -x "$bin" ] || { echo "not an executable: $bin" >&2; exit 2; }
done

if [ "$refit" = 1 ]; then
  mode=(--repeat "$((runs + 1))")
else
  mode=(--repeat "$runs" --rebuild)
fi
for r in $(seq "$rounds"); do
  echo "round $r"
  for bin in "$@"; do
    "$bin" step "$f0" "$f1" --threads "$threads" "${mode[@]}" --json |
      python3 -c '
import json, sys
d = json.load(sys.stdin)
refit = sys.argv[2] == "1"
runs = d["runs_total_ms"]
if refit:
    # The first run builds the BVH; the fastest run, whose stages are reported, must be a refit.
    runs = runs[1:]
    if d["bvh"] != "refit":
        sys.exit("%s: the fastest run built its BVH" % sys.argv[1])
runs = sorted(runs)
t = d["time_ms"]  # the BVH stage is "bvh" ("refit" in binaries before the name)
print("  %-24s best %8.2f  median %8.2f ms | %s %.2f  traverse %.2f  filter %.2f  solve %.2f"
      % (sys.argv[1], runs[0], runs[len(runs) // 2], "refit" if refit else "build", t.get("bvh", t.get("refit")),
         t["traverse"], t["filter"], t["solve"]))
' "$bin" "$refit"
  done
done
