#!/usr/bin/env bash
# Minimum-separation CCD on funnel 227->228 and cloth-ball 92->93 at d = 0 and d/L = 1e-6,
# 1e-4, 1e-3, 1e-2 (L the frame's mean edge length): ccdlab's colliding pairs, earliest time of
# impact and step time (`ccdlab step --rebuild --min-distance D`, fastest of N, no pairs kept; and
# with `--toi-only`, the earliest time alone) beside ipctk's
# (`scripts/peer_ipctk.py step --min-distance D`, fastest of M) in the same run, and two checks
# that fail loudly (the script stops, the report is not written):
#   - the plain sampler (`ccdlab sample-check`): every candidate pair within d at a sample
#     t = k/1024, decided exactly, is reported by ccdlab no later than that sample;
#   - the conservative peer (`scripts/peer_ipctk.py ti-pairs`): Tight-Inclusion with ms = d
#     reports every pair ccdlab reports.
# A second stage ("gap") replays a generated sequence whose cloth rests a gap G above the
# sphere (`ccdlab generate --resolution 64 --frames 40 --gap 0.02`) at d = 0 ... 2G
# (`ccdlab replay --min-distance D`: cloth-sphere and cloth-cloth pairs per step, which must not
# fall as d grows), with the same two checks on settled steps at d = 0.9G and 1.1G.
# Writes reports/min_distance/{README.md,pairs_time.svg,gap_pairs.svg,data/*.json}, each stage
# stamped with machine, threads and commit (data/stamp.json, data/gap_stamp.json).
#
#   scripts/report_min_distance.sh [--threads T] [--funnel-repeat N] [--ball-repeat N]
#                                  [--ipctk-funnel-repeat M] [--ipctk-ball-repeat M]
#                                  [--only gap|queries]
#
# A third stage ("queries") times the narrow phase alone, one thread, on the ground-truth query
# sets (Sample-Queries, funnel 227's, cloth-ball 92's): `ccdlab queries --min-distance D`
# (each query solved at d and, timed beside, in contact) and Tight-Inclusion with ms = d
# (`scripts/peer_ipctk.py queries --min-distance D`), per-query means at the same d / L
# (L: the frames' mean edge length, or for Sample-Queries its queries' at t = 0).
#
# `--only gap` or `--only queries` (or ONLY=... in the environment) runs that stage alone and
# renders the page with the other stages' data already in reports/min_distance/data/.
#
# Cloth-ball dominates the run, mostly the Tight-Inclusion check (over 10^5 pairs per d from
# Python); ipctk's colliding counts are taken on funnel only (on cloth-ball the counting pass
# would call Tight-Inclusion once per candidate from Python, 3 M calls per d).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
threads=2
# As many runs as reports/speed takes (fastest reported): on a shared machine a run of five
# funnel steps is often disturbed throughout (docs/notes/pipeline.md).
funnel_repeat=10
ball_repeat=10
ipctk_funnel_repeat=3
ipctk_ball_repeat=3
only="${ONLY:-}"
usage="usage: scripts/report_min_distance.sh [--threads T] [--funnel-repeat N] [--ball-repeat N] [--ipctk-funnel-repeat M] [--ipctk-ball-repeat M] [--only gap|queries]"
while [ $# -gt 0 ]; do
  case "$1" in
    --threads) threads="${2:?$usage}"; shift 2 ;;
    --funnel-repeat) funnel_repeat="${2:?$usage}"; shift 2 ;;
    --ball-repeat) ball_repeat="${2:?$usage}"; shift 2 ;;
    --ipctk-funnel-repeat) ipctk_funnel_repeat="${2:?$usage}"; shift 2 ;;
    --ipctk-ball-repeat) ipctk_ball_repeat="${2:?$usage}"; shift 2 ;;
    --only) only="${2:?$usage}"; shift 2 ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
done
case "$only" in
  "" | gap | queries) ;;
  *) echo "--only $only: the stages that run alone are gap and queries" >&2; echo "$usage" >&2; exit 2 ;;
esac

cargo build --release --locked
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp target/release/ccdlab "$work/ccdlab"
out=reports/min_distance
data="$work/data"
mkdir -p "$data"

ratios="0 1e-6 1e-4 1e-3 1e-2"
# The frames' mean edge lengths L (funnel 227, cloth-ball 92): d = r * L.
funnel_L=0.019109353562922374
ball_L=0.21639446265508272
run_scene() {
  local scene="$1" f0="$2" f1="$3" L="$4" repeat="$5" ipctk_repeat="$6" counts="$7"
  for r in $ratios; do
    local d
    d="$(python3 -c "print(repr($r * $L))")"
    local tag="${scene}_$r"
    echo "== $scene d/L = $r (d = $d)" >&2
    # Timed as ipctk's step is used: counts and the earliest time, no pairs kept (loose
    # brackets, docs/design.md §5). The pairs for the Tight-Inclusion check come from a second,
    # untimed run that keeps them, whose counts and earliest time must be the same.
    "$work/ccdlab" step "$f0" "$f1" --threads "$threads" --repeat "$repeat" --rebuild \
      --min-distance "$d" --json > "$data/ccdlab_$tag.json"
    # The earliest time alone, the question ipctk's compute_collision_free_stepsize answers
    # (`--toi-only`): timed the same way; the renderer checks its bracket lies within the step's.
    "$work/ccdlab" step "$f0" "$f1" --threads "$threads" --repeat "$repeat" --rebuild \
      --min-distance "$d" --toi-only --json > "$data/ccdlab_toi_$tag.json"
    "$work/ccdlab" step "$f0" "$f1" --threads "$threads" --min-distance "$d" \
      --pairs "$work/pairs_$tag.csv" --json > "$work/kept_$tag.json"
    python3 - "$data/ccdlab_$tag.json" "$work/kept_$tag.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
same = lambda r: ([r[k][c] for k in ("vf", "ee") for c in ("candidates", "colliding")], r.get("toi"), r.get("toi_upper"))
if same(a) != same(b):
    sys.exit(f"the step that keeps its pairs differs: {same(a)} against {same(b)}")
PY
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
# The generated sequence with a gap: the cloth rests GAP m above the sphere mesh. Every step
# is replayed at d = r * GAP; the checks run on two settled steps (the cloth lies on the grown
# sphere in every frame) at d just below and just above the gap.
gap=0.02
gap_resolution=64
gap_frames=40
gap_ratios="0 0.25 0.5 0.75 0.9 0.95 1 1.05 1.1 1.5 2"
gap_check_steps="30 38"
gap_check_ratios="0.9 1.1"
gap_ti_step=30
run_gap() {
  local dir="$work/gap_frames"
  "$work/ccdlab" generate --resolution "$gap_resolution" --frames "$gap_frames" --gap "$gap" \
    --out "$dir" >&2
  for r in $gap_ratios; do
    local d
    d="$(python3 -c "print(repr($r * $gap))")"
    echo "== gap: d/G = $r (d = $d)" >&2
    "$work/ccdlab" replay "$dir" --threads "$threads" --min-distance "$d" \
      --out "$work/gap_$r.jsonl" >&2
    # The per-step counts, times of impact and stage times; the run's settings once.
    python3 - "$work/gap_$r.jsonl" "$r" "$d" > "$data/gap_replay_$r.json" <<'PY'
import json, sys
path, ratio, d = sys.argv[1], sys.argv[2], float(sys.argv[3])
recs = [json.loads(line) for line in open(path)]
keep_kind = ("candidates", "colliding", "colliding_same_component")
# The records leave out a minimum separation of 0 and a missing time of impact.
settings = {k: recs[0].get(k) for k in ("vertices", "edges", "faces", "k", "filters", "window", "time_aligned", "solver", "min_distance", "threads")}
steps = [
    {"step": r["step"], "vf": {k: r["vf"][k] for k in keep_kind}, "ee": {k: r["ee"][k] for k in keep_kind},
     "toi": r.get("toi"), "toi_upper": r.get("toi_upper"), "time_ms": r["time_ms"]}
    for r in recs
]
json.dump({"ratio": ratio, "min_distance": d, "settings": settings, "steps": steps}, sys.stdout, indent=1)
PY
  done
  for s in $gap_check_steps; do
    local f0 f1
    f0="$dir/$(printf 'frame_%04d.ply' "$s")"
    f1="$dir/$(printf 'frame_%04d.ply' "$((s + 1))")"
    for r in $gap_check_ratios; do
      local d
      d="$(python3 -c "print(repr($r * $gap))")"
      echo "== gap: checks, step $s, d/G = $r" >&2
      "$work/ccdlab" sample-check "$f0" "$f1" --threads "$threads" --min-distance "$d" --json \
        > "$data/gap_sampler_${s}_$r.json"
      if [ "$s" = "$gap_ti_step" ]; then
        "$work/ccdlab" step "$f0" "$f1" --threads "$threads" --min-distance "$d" \
          --pairs "$work/gap_pairs_${s}_$r.csv" --json > "$data/gap_step_${s}_$r.json"
        python3 scripts/peer_ipctk.py ti-pairs "$f0" "$f1" --pairs "$work/gap_pairs_${s}_$r.csv" \
          --min-distance "$d" --threads "$threads" --json > "$data/gap_ti_${s}_$r.json"
      fi
    done
  done
  # The frame's mean edge length, for d / L.
  local mean_edge
  mean_edge="$(python3 - "$dir/frame_0000.ply" <<'PY'
import math, struct, sys
b = open(sys.argv[1], "rb").read()
end = b.index(b"end_header\n") + len(b"end_header\n")
head = b[:end].decode().split()
nv, nf = int(head[head.index("vertex") + 1]), int(head[head.index("face") + 1])
x = [struct.unpack_from("<3d", b, end + 24 * i) for i in range(nv)]
edges, at = set(), end + 24 * nv
for _ in range(nf):
    n = b[at]
    f = struct.unpack_from(f"<{n}i", b, at + 1)
    at += 1 + 4 * n
    edges.update((min(f[i], f[i - 1]), max(f[i], f[i - 1])) for i in range(n))
print(repr(sum(math.dist(x[i], x[j]) for i, j in edges) / len(edges)))
PY
)"
  write_stamp "$data/gap_stamp.json" gap="$gap" resolution="$gap_resolution" \
    frames="$gap_frames" mean_edge_length="$mean_edge" check_steps="[${gap_check_steps// /,}]" \
    check_ratios="[\"${gap_check_ratios// /\",\"}\"]" ti_step="$gap_ti_step"
}

# The narrow phase alone on the ground-truth query sets, one thread: per-query means at each
# d = r * L beside contact, ccdlab and Tight-Inclusion.
queries_min_time_ms=200
run_queries() {
  local sample="$data_root/ccd-queries"
  local funnel="$data_root/scalable-ccd/cloth-funnel"
  local ball="$data_root/scalable-ccd/cloth-ball"
  # Sample-Queries has no frames: L is the mean length of its queries' edges at t = 0 (a
  # vertex-face query's triangle sides, an edge-edge query's two edges).
  local sample_L
  sample_L="$(python3 - "$sample" <<'PY'
import csv, math, sys
from fractions import Fraction
from pathlib import Path
total, count = 0.0, 0
for path in sorted(Path(sys.argv[1]).rglob("*.csv")):
    kind = "vf" if "vertex-face" in path.parts else "ee" if "edge-edge" in path.parts else None
    if kind is None:
        continue
    rows = [[float(Fraction(int(r[2 * i]), int(r[2 * i + 1]))) for i in range(3)] for r in csv.reader(open(path))]
    for q in range(0, len(rows) - 7, 8):
        p = rows[q:q + 4]
        sides = [(1, 2), (2, 3), (3, 1)] if kind == "vf" else [(0, 1), (2, 3)]
        for i, j in sides:
            total += math.dist(p[i], p[j])
            count += 1
print(repr(total / count))
PY
)"
  local group path L lengths=""
  for entry in "sample $sample $sample_L" "funnel $funnel $funnel_L" \
    "cloth-ball $ball $ball_L"; do
    read -r group path L <<< "$entry"
    echo "== queries: $group, Tight-Inclusion in contact" >&2
    python3 scripts/peer_ipctk.py queries "$path" --min-time-ms "$queries_min_time_ms" --json \
      > "$data/queries_ti_${group}_0.json"
    local r d
    for r in $ratios; do
      [ "$r" = 0 ] && continue
      d="$(python3 -c "print(repr($r * $L))")"
      echo "== queries: $group d/L = $r (d = $d)" >&2
      "$work/ccdlab" queries "$path" --min-time-ms "$queries_min_time_ms" --min-distance "$d" \
        --json > "$data/queries_ccdlab_${group}_$r.json"
      python3 scripts/peer_ipctk.py queries "$path" --min-time-ms "$queries_min_time_ms" \
        --min-distance "$d" --json > "$data/queries_ti_${group}_$r.json"
    done
    lengths="${lengths:+$lengths,}\"$group\":$L"
  done
  write_stamp "$data/queries_stamp.json" mean_edge_length="{$lengths}" \
    min_time_ms="$queries_min_time_ms"
}

# Writes FILE: a JSON object of the machine, threads, commit and date, and KEY=VALUE pairs
# (a VALUE that parses as JSON is stored as such, else as a string).
write_stamp() {
  local file="$1"
  shift
  python3 - "$file" machine="$machine" cpus="$(nproc)" threads="$threads" commit="$commit" \
    date="$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$@" <<'PY'
import json, sys
stamp = {}
for arg in sys.argv[2:]:
    key, value = arg.split("=", 1)
    try:
        stamp[key] = json.loads(value)
    except json.JSONDecodeError:
        stamp[key] = value
with open(sys.argv[1], "w") as f:
    json.dump(stamp, f, indent=1)
    f.write("\n")
PY
}

machine="$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)"
machine="${machine:-unknown}"
commit="$(scripts/commit_stamp.sh)"
# shellcheck source=scripts/data_dir.sh
source scripts/data_dir.sh
data_root="$(data_dir "$root")"
if [ -n "$only" ]; then
  # The other stages' data as they are; only this stage's is replaced.
  cp reports/min_distance/data/*.json "$data/"
  rm -f "$data/${only}"_*.json
else
  fun="$data_root/scalable-ccd/cloth-funnel/frames"
  ball="$data_root/scalable-ccd/cloth-ball/frames"
  run_scene funnel "$fun/227.ply" "$fun/228.ply" "$funnel_L" "$funnel_repeat" "$ipctk_funnel_repeat" counts
  run_scene cloth-ball "$ball/cloth_ball92.ply" "$ball/cloth_ball93.ply" "$ball_L" "$ball_repeat" "$ipctk_ball_repeat" no-counts
  write_stamp "$data/stamp.json" \
    repeats="\"$funnel_repeat,$ball_repeat,$ipctk_funnel_repeat,$ipctk_ball_repeat\""
fi
if [ -z "$only" ] || [ "$only" = gap ]; then run_gap; fi
if [ -z "$only" ] || [ "$only" = queries ]; then run_queries; fi

# The records name data files relative to the data root and work files by their own names.
python3 scripts/portable_paths.py "$work=" "$data_root=datasets" -- "$data"/*.json
mkdir -p "$out.tmp"
python3 scripts/render_min_distance.py "$data" "$out.tmp"
mkdir -p "$out.tmp/data"
cp "$data"/*.json "$out.tmp/data/"
rm -rf "$out"
mv "$out.tmp" "$out"
echo "wrote $out/README.md"
