#!/usr/bin/env bash
# Every report under reports/, one after another, each by the command that reports/README.md
# gives for it: the tables and plots of the whole repository from one command. When one
# report's command fails, the others still run; the script then names the failed ones and
# exits 1.
#
#   scripts/report_all.sh [--list] [REPORT ...]
#
# REPORT: any of the names --list prints (default: all, in that order). About 2 hours on a
# 2-core machine, most of it min_distance (about 55 min) and the ipctk peer's runs.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

reports=(narrow_phase pipeline time_aligned min_distance speed python intersections proximity discrete
  polygons route)

command_of() {
  case "$1" in
    narrow_phase) echo "scripts/report_narrow_phase.sh" ;;
    pipeline) echo "scripts/reproduce_pipeline.sh" ;;
    time_aligned) echo "scripts/report_time_aligned.sh" ;;
    min_distance) echo "scripts/report_min_distance.sh" ;;
    speed) echo "scripts/report_speed.sh" ;;
    python) echo "scripts/report_python.sh" ;;
    intersections) echo "scripts/report_intersections.sh" ;;
    proximity) echo "scripts/report_proximity.sh" ;;
    discrete) echo "cargo run --release --locked -- discrete --out reports/discrete" ;;
    # The command in reports/polygons/README.md's header.
    polygons) echo "cargo run --release --locked -- polygons report --out reports/polygons --seed 1 \
--sizes 8,16,32,64,128 --accuracy-pairs 400 --oracle-max-vertices 32 --timing-pairs 64 \
--sample-seconds 0.05 --samples 7 --spikiness 0.7" ;;
    route) echo "cargo run --release --locked -- route --scenario demo --out reports/route" ;;
    *) return 1 ;;
  esac
}

if [ "${1:-}" = --list ]; then
  for r in "${reports[@]}"; do
    printf '%-13s %s\n' "$r" "$(command_of "$r")"
  done
  exit 0
fi
chosen=("$@")
[ ${#chosen[@]} -gt 0 ] || chosen=("${reports[@]}")
for r in "${chosen[@]}"; do
  command_of "$r" > /dev/null || {
    echo "unknown report '$r'; scripts/report_all.sh --list names them" >&2
    exit 2
  }
done

failed=()
for r in "${chosen[@]}"; do
  cmd="$(command_of "$r")"
  echo "== $r: $cmd ($(date -u +%H:%M:%SZ))"
  # Word splitting of the command is intended: no argument holds a space.
  # shellcheck disable=SC2086
  if ! $cmd; then
    echo "== $r: FAILED" >&2
    failed+=("$r")
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "failed: ${failed[*]}" >&2
  exit 1
fi
echo "all reports regenerated: ${chosen[*]}"
