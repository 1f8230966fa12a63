#!/usr/bin/env bash
# Minimum-separation CCD on funnel 227->228 and cloth-ball 92->93 at d = 0 and d/L = 1e-6,
# 1e-4, 1e-3, 1e-2 (L the frame's mean edge length): ccdlab's colliding pairs, earliest time of
# impact and step time (`ccdlab step --rebuild --min-distance D`, fastest of N) beside ipctk's
# (`scripts/peer_ipctk.py step --min-distance D`, fastest of M) in the same run, and two checks
# that fail loudly (the script stops, the report is not written):
#   - the plain sampler (`ccdlab sample-check`): every candidate pair within d at a sample
#     t = k/1024, decided exactly, is reported by ccdlab no later than that sample;
#   - the conservative peer (`scripts/peer_ipctk.py ti-pairs`): Tight-Inclusion with ms = d
#     reports every pair ccdlab reports.
# Writes reports/min_distance/{README.md,pairs_time.svg,data/*.json}, stamped with machine,
# threads and commit.
#
#   scripts/report_min_distance.sh [--threads T] [--funnel-repeat N] [--ball-repeat N]
#                                  [--ipctk-funnel-repeat M] [--ipctk-ball-repeat M]
#
# Cloth-ball dominates the run, mostly the Tight-Inclusion check (over 10^5 pairs per d from
# Python); ipctk's colliding counts are taken on funnel only (on cloth-ball the counting pass
# would call Tight-Inclusion once per candidate from Python, 3 M calls per d).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
threads=2
funnel_repeat=5
ball_repeat=2
ipctk_funnel_repeat=3
ipctk_ball_repeat=1
usage="usage: scripts/report_min_distance.sh [--threads T] [--funnel-repeat N] [--ball-repeat N] [--ipctk-funnel-repeat M] [--ipctk-ball-repeat M]"
while [ $# -gt 0 ]; do
  case "$1" in
    --threads) threads="${2:?$usage}"; shift 2 ;;
    --funnel-repeat) funnel_repeat="${2:?$usage}"; shift 2 ;;
    --ball-repeat) ball_repeat="${2:?$usage}"; shift 2 ;;
    --ipctk-funnel-repeat) ipctk_funnel_repeat="${2:?$usage}"; shift 2 ;;
    --ipctk-ball-repeat) ipctk_ball_repeat="${2:?$usage}"; shift 2 ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
done

cargo build --release --locked
# shellcheck source=scripts/data_dir.sh
source scripts/data_dir.sh
data_root="$(data_dir "$root")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp target/release/ccdlab "$work/ccdlab"
out=reports/min_distance
data="$work/data"
mkdir -p "$data"

ratios="0 1e-6 1e-4 1e-3 1e-2"
run_scene() {
  local scene="$1" f0="$2" f1="$3" L="$4" repeat="$5" ipctk_repeat="$6" counts="$7"
  for r in $ratios; do
    local d
    d="$(python3 -c "print(repr($r * $L))")"
    local tag="${scene}_$r"
    echo "== $scene d/L = $r (d = $d)" >&2
    "$work/ccdlab" step "$f0" "$f1" --threads "$threads" --repeat "$repeat" --rebuild \
      --min-distance "$d" --pairs "$work/pairs_$tag.csv" --json > "$data/ccdlab_$tag.json"
    local count_flag=(--no-counts)
    [ "$counts" = counts ] && count_flag=()
    python3 scripts/peer_ipctk.py step "$f0" "$f1" --threads "$threads" --repeat "$ipctk_repeat" \
      "${count_flag[@]}" --min-distance "$d" --json > "$data/ipctk_$tag.json"
    "$work/ccdlab" sample-check "$f0" "$f1" --threads "$threads" --min-distance "$d" --json \
      > "$data/sampler_$tag.json"
    python3 scripts/peer_ipctk.py ti-pairs "$f0" "$f1" --pairs "$work/pairs_$tag.csv" \
      --min-distance "$d" --threads "$threads" --json > "$data/ti_$tag.json"
  done
}
fun="$data_root/scalable-ccd/cloth-funnel/frames"
ball="$data_root/scalable-ccd/cloth-ball/frames"
run_scene funnel "$fun/227.ply" "$fun/228.ply" 0.019109353562922374 "$funnel_repeat" "$ipctk_funnel_repeat" counts
run_scene cloth-ball "$ball/cloth_ball92.ply" "$ball/cloth_ball93.ply" 0.21639446265508272 "$ball_repeat" "$ipctk_ball_repeat" no-counts

machine="$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)"
commit="$(git rev-parse --short=12 HEAD)$(git diff --quiet HEAD -- src scripts || echo ' (modified)')"
mkdir -p "$out.tmp"
python3 scripts/render_min_distance.py "$data" "$out.tmp" \
  --machine "${machine:-unknown}" --cpus "$(nproc)" --threads "$threads" --commit "$commit" \
  --date "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
  --repeats "$funnel_repeat,$ball_repeat,$ipctk_funnel_repeat,$ipctk_ball_repeat"
mkdir -p "$out.tmp/data"
cp "$data"/*.json "$out.tmp/data/"
rm -rf "$out"
mv "$out.tmp" "$out"
echo "wrote $out/README.md"
