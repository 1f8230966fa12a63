#!/usr/bin/env bash
# Reproduces reports/pipeline (Wan, Fu & Yao 2022, Tables 1-2 and Fig. 6, beside the
# parry3d-f64 baseline and the ipctk peer) in one command:
#
#   1. cargo bench --bench pipeline: criterion timings, and the counts of every scene
#      (counts_<scene>.json: candidates per k, culls per filter setting, parry, whole steps);
#   2. ccdlab step --json on 1 and 2 threads for every scene with frame files (fastest of
#      $STEP_REPEAT runs, each building its BVH anew);
#      steps 2 and 4 run the paper's pipeline: `--time-aligned off` (the CLI's default, `auto`,
#      prunes the BVH on scenes that move far, and then leaves SLPF out);
#   3. the ipctk peer (scripts/peer_ipctk.py step, fastest of as many) on 2 threads, when it
#      runs here;
#   4. ccdlab replay of every scene with each filter setting (sequence-level statistics;
#      the two-frame UNC scenes give one step each);
#   5. ccdlab report: reports/pipeline/{README.md, *.png, *.svg, data/}, replaced only when
#      everything is written.
#
# Fresh records go to $CARGO_TARGET_DIR/ccdlab-bench (default target/ccdlab-bench) first;
# reports/ is touched only by the last step. Environment: CCDLAB_DATA (data sets),
# CCDLAB_BENCH_THREADS (bench threads, default 1), STEP_REPEAT (runs of every whole step,
# ours and the peer's, of which the fastest is reported; default 10), PEER_COUNTS=1 (let the
# peer also count its colliding pairs: an untimed pass of minutes on cloth-ball).
# Takes about 7 minutes on a quiet 2-core machine with the data sets, beside the build.
set -euo pipefail
cd "$(dirname "$0")/.."

target="${CARGO_TARGET_DIR:-target}"
# Absolute: the bench runs in its own package's folder (benches/), where a
# relative path would name another place.
case "$target" in /*) ;; *) target="$PWD/$target" ;; esac
work="$target/ccdlab-bench"
rm -rf "$work"
mkdir -p "$work"
export CCDLAB_BENCH_OUT="$work"
STEP_REPEAT="${STEP_REPEAT:-10}"

echo "== 1/5 cargo bench --bench pipeline (records in $work)"
cargo bench --bench pipeline

echo "== 2/5 ccdlab step (1 and 2 threads)"
cargo build --release --bin ccdlab
bin="$target/release/ccdlab"
# The scenes' frames are named under the data root as data_dir gives it, so that the
# peer's records of them are rewritten to `datasets/…` below.
# shellcheck source=scripts/data_dir.sh
source scripts/data_dir.sh
if data_root="$(data_dir "$PWD" 2> /dev/null)"; then export CCDLAB_DATA="$data_root"; fi
scenes="$("$bin" report --list-scenes)"
# Generated scenes have no frame files: write the measured step's two frames
# (`ccdlab generate` with the spec's resolution and frame count) so that the
# step runs and the peer see the same step as the bench.
resolved=""
while read -r name sequence step frame0 frame1; do
  [ -n "$name" ] || continue
  if [ "$frame0" = "-" ] && [[ "$sequence" == generated* ]]; then
    IFS=: read -r _ res nframes <<< "$sequence"
    gen_args=()
    [ -n "$res" ] && gen_args+=(--resolution "$res")
    [ -n "$nframes" ] && gen_args+=(--frames "$nframes")
    "$bin" generate "${gen_args[@]}" --out "$work/frames_$name" --force > /dev/null
    frame0="$work/frames_$name/$(printf 'frame_%04d.ply' "$step")"
    frame1="$work/frames_$name/$(printf 'frame_%04d.ply' "$((step + 1))")"
  fi
  resolved+="$name $sequence $step $frame0 $frame1"$'\n'
done <<< "$scenes"
scenes="$resolved"
while read -r name sequence step frame0 frame1; do
  [ -n "$name" ] || continue
  if [ "$frame0" = "-" ]; then
    echo "   $name: no frame files: no step run"
    continue
  fi
  for threads in 1 2; do
    # Fastest of $STEP_REPEAT runs, each building its BVH anew (the peer's is also its
    # fastest of as many): single runs on a shared machine vary (docs/notes/pipeline.md).
    "$bin" step "$frame0" "$frame1" --time-aligned off --threads "$threads" --repeat "$STEP_REPEAT" --rebuild --json \
      > "$work/step_${name}_t${threads}.json.tmp"
    mv "$work/step_${name}_t${threads}.json.tmp" "$work/step_${name}_t${threads}.json"
  done
done <<< "$scenes"

echo "== 3/5 ipctk peer (2 threads)"
# The peer makes its own virtual environment (.venv, or $CCDLAB_PY_VENV) on first use.
counts=(--no-counts)
[ "${PEER_COUNTS:-0}" = 1 ] && counts=()
if [ -f scripts/peer_ipctk.py ]; then
  while read -r name sequence step frame0 frame1; do
    [ -n "$name" ] && [ "$frame0" != "-" ] || continue
    if python3 scripts/peer_ipctk.py step "$frame0" "$frame1" --threads 2 --repeat "$STEP_REPEAT" "${counts[@]}" --json \
        > "$work/peer_ipctk_${name}.json.tmp" 2> "$work/peer_ipctk_${name}.log"; then
      mv "$work/peer_ipctk_${name}.json.tmp" "$work/peer_ipctk_${name}.json"
    else
      rm -f "$work/peer_ipctk_${name}.json.tmp"
      echo "   $name: the peer did not run (see $work/peer_ipctk_${name}.log); the report says 'not measured'"
    fi
  done <<< "$scenes"
else
  echo "   scripts/peer_ipctk.py not found; the report says 'not measured'"
fi

# The step records (`frames`) and the peer's name data files relative to the data root and
# the generated frames by their names in the work folder, not by this machine's folders.
shopt -s nullglob
frame_records=("$work"/step_*.json "$work"/peer_ipctk_*.json)
shopt -u nullglob
if [ ${#frame_records[@]} -gt 0 ]; then
  rules=("$work=")
  # Generated scenes run without the data sets; then no record names them.
  if [ -n "$data_root" ]; then rules+=("$data_root=datasets"); fi
  python3 scripts/portable_paths.py "${rules[@]}" -- "${frame_records[@]}"
fi

echo "== 4/5 ccdlab replay (each filter setting)"
while read -r name sequence step frame0 frame1; do
  [ -n "$name" ] || continue
  for filters in slpf dnf slpf+dnf; do
    "$bin" replay "$sequence" --time-aligned off --filters "$filters" --threads 2 --out "$work/replay_${name}_${filters}.jsonl" > /dev/null
  done
done <<< "$scenes"

echo "== 5/5 ccdlab report"
"$bin" report --from "$work" --criterion "$target/criterion" --out reports/pipeline
