#!/usr/bin/env bash
# Speed against ipctk, as issue "Speed, decided" measures it, in one run on one machine and
# thread count: ipctk's whole step (a broad phase + `compute_collision_free_stepsize`, fastest
# of its runs, `scripts/peer_ipctk.py step`; each of ipctk's broad phases in turn, Scalable-CCD's
# CPU sort and sweep among them, and the fastest one is the reference) against ours (`ccdlab
# step` with the CLI's defaults, fastest of `--repeat N --rebuild`: the BVH built each step),
# with beside it
#   - the refitted step (`--repeat N` without `--rebuild`: the first run builds, the others
#     refit the tree to the same step, as a sequence does);
#   - the earliest time alone (`--toi-only`, BVH built each step: the question ipctk's
#     `compute_collision_free_stepsize` answers);
#   - one-shot steps, each in a fresh process (`ccdlab step` once: what a command-line user
#     sees, fresh memory and a new thread pool included);
#   - peak memory;
# on funnel 227->228, cloth-ball 92->93 and the generated cloth (`ccdlab generate`, frames
# 20->21) at resolutions 216 (about cloth-ball's vertex count), 432 (4x) and 864 (16x).
# Writes reports/speed/{README.md,scaling.svg,data/*.json}, stamped with machine, threads and
# commit; rendered by scripts/render_speed.py (standard library only).
#
#   scripts/report_speed.sh [--threads T] [--repeat N] [--ipctk-repeat M] [--fresh K]
#                           [--resolutions "216 432 864"]
#                           [--ipctk-broad-phases "LBVH SweepAndPrune HashGrid SpatialHash"]
#
# The peer script makes its own environment with ipctk on first use. Needs about 2 GB of
# scratch space for the generated frames.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
threads=2
repeat=10
ipctk_repeat=3
fresh=7
resolutions="216 432 864"
broad_phases="LBVH SweepAndPrune HashGrid SpatialHash"
usage="usage: scripts/report_speed.sh [--threads T] [--repeat N] [--ipctk-repeat M] [--fresh K] [--resolutions \"R ...\"] [--ipctk-broad-phases \"B ...\"]"
while [ $# -gt 0 ]; do
  case "$1" in
    --threads) threads="${2:?$usage}"; shift 2 ;;
    --repeat) repeat="${2:?$usage}"; shift 2 ;;
    --ipctk-repeat) ipctk_repeat="${2:?$usage}"; shift 2 ;;
    --fresh) fresh="${2:?$usage}"; shift 2 ;;
    --resolutions) resolutions="${2:?$usage}"; shift 2 ;;
    --ipctk-broad-phases) broad_phases="${2:?$usage}"; shift 2 ;;
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
out=reports/speed
data="$work/data"
mkdir -p "$data"

# The scene on which each of ipctk's broad phases failed, if any.
declare -A ipctk_failed=()
run_scene() {
  local scene="$1" f0="$2" f1="$3"
  echo "== $scene" >&2
  "$work/ccdlab" step "$f0" "$f1" --threads "$threads" --repeat "$repeat" --rebuild --json \
    > "$data/built_$scene.json"
  "$work/ccdlab" step "$f0" "$f1" --threads "$threads" --repeat "$repeat" --json \
    > "$data/refit_$scene.json"
  "$work/ccdlab" step "$f0" "$f1" --threads "$threads" --repeat "$repeat" --rebuild --toi-only \
    --json > "$data/toi_only_$scene.json"
  local i
  for i in $(seq "$fresh"); do
    "$work/ccdlab" step "$f0" "$f1" --threads "$threads" --json > "$data/fresh_${scene}_$i.json"
  done
  # ipctk may not fit in memory on the larger cloths: a broad phase's failure is recorded,
  # not fatal, and that broad phase is not run on a larger cloth after it.
  local bp
  for bp in $broad_phases; do
    local out_json="$data/ipctk_${scene}_$bp.json"
    if [ -n "${ipctk_failed[$bp]:-}" ]; then
      printf '{"broad_phase": "%s", "failed": "not run (failed on %s)"}\n' "$bp" "${ipctk_failed[$bp]}" \
        > "$out_json"
      continue
    fi
    local status=0
    python3 scripts/peer_ipctk.py step "$f0" "$f1" --threads "$threads" --repeat "$ipctk_repeat" \
      --broad-phase "$bp" --no-counts --json > "$out_json" || status=$?
    if [ "$status" -ne 0 ]; then
      local why="exit status $status"
      [ "$status" -eq 137 ] && why="killed (exit status 137; out of memory here)"
      echo "   ipctk ($bp) failed on $scene: $why" >&2
      printf '{"broad_phase": "%s", "failed": "%s"}\n' "$bp" "$why" > "$out_json"
      ipctk_failed[$bp]="$scene"
    fi
  done
}

fun="$data_root/scalable-ccd/cloth-funnel/frames"
ball="$data_root/scalable-ccd/cloth-ball/frames"
run_scene funnel "$fun/227.ply" "$fun/228.ply"
run_scene cloth-ball "$ball/cloth_ball92.ply" "$ball/cloth_ball93.ply"
scenes="funnel cloth-ball"
for r in $resolutions; do
  echo "== generating the cloth at resolution $r" >&2
  "$work/ccdlab" generate --resolution "$r" --frames 22 --out "$work/gen_$r" > /dev/null
  # Only frames 20 and 21 are measured.
  find "$work/gen_$r" -name 'frame_*.ply' ! -name frame_0020.ply ! -name frame_0021.ply -delete
  run_scene "generated-$r" "$work/gen_$r/frame_0020.ply" "$work/gen_$r/frame_0021.ply"
  rm -rf "$work/gen_$r"
  scenes="$scenes generated-$r"
done

machine="$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)"
commit="$(scripts/commit_stamp.sh)"
mkdir -p "$out.tmp"
# The records name data files relative to the data root and work files by their own names.
python3 scripts/portable_paths.py "$work=" "$data_root=datasets" -- "$data"/*.json
python3 scripts/render_speed.py "$data" "$out.tmp" --scenes "$scenes" \
  --machine "${machine:-unknown}" --cpus "$(nproc)" --threads "$threads" --commit "$commit" \
  --date "$(date -u +%Y-%m-%dT%H:%M:%SZ)" --repeats "$repeat,$ipctk_repeat,$fresh" \
  --broad-phases "$broad_phases"
mkdir -p "$out.tmp/data"
cp "$data"/*.json "$out.tmp/data/"
rm -rf "$out"
mv "$out.tmp" "$out"
echo "wrote $out/README.md"
