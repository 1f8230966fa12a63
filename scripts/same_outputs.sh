#!/usr/bin/env bash
# Checks that two builds of ccdlab give the same outputs on both real steps (cloth-ball 92->93,
# funnel 227->228) under several settings: `ccdlab step --json` without its times, RSS, thread
# count and `stamp` (machine, commit, date), and the `--pairs` file, compared byte for byte. For
# speed work, where a change must not move a single pair, count or time of impact. Keys that only
# BIN_B's JSON has (a counter added by the change) are listed, not counted as a difference. Every
# setting is run and listed; the exit status is 1 when any of them differs or fails to run.
#
#   scripts/same_outputs.sh BIN_A BIN_B
#
# Build the two binaries first, e.g. `cargo build --release && cp target/release/ccdlab /tmp/a`.
# Data sets: $CCDLAB_DATA, else datasets/ (committed).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

usage="usage: scripts/same_outputs.sh BIN_A BIN_B"
[ $# -eq 2 ] || { echo "$usage" >&2; exit 2; }
for bin in "$@"; do
  [ -x "$bin" ] || { echo "not an executable: $bin" >&2; exit 2; }
done
# shellcheck source=scripts/data_dir.sh
. "$root/scripts/data_dir.sh"
data="$(data_dir "$root")"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The JSON without what may differ from run to run.
strip='import json, sys
j = json.load(sys.stdin)
for k in ("time_ms", "peak_rss_mb", "threads", "stamp"):
    j.pop(k, None)
print(json.dumps(j, sort_keys=True))'
# A's JSON against B's with the keys that only B has left out (exit status 1 when they differ);
# prints those keys.
compare='import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
added = []
def common(a, b, path):
    if isinstance(a, dict) and isinstance(b, dict):
        out = {}
        for k, v in b.items():
            if k in a:
                out[k] = common(a[k], v, path + [k])
            else:
                added.append(".".join(path + [k]))
        return out
    return b
dump = lambda j: json.dumps(j, sort_keys=True)
same = dump(common(a, b, [])) == dump(a)
print(" ".join(sorted(set(added))))
sys.exit(0 if same else 1)'

same=1
for scene in "cloth-ball/frames/cloth_ball92.ply cloth-ball/frames/cloth_ball93.ply" \
             "cloth-funnel/frames/227.ply cloth-funnel/frames/228.ply"; do
  read -r f0 f1 <<< "$scene"
  for opts in "" "--time-aligned off" "--time-aligned on" "--time-aligned on --filters dnf" \
              "--filters none" "--filters slpf" "--window off" "--solver cubic" "--k 6" \
              "--threads 1" "--min-distance 1e-3"; do
    ran=1
    for side in a b; do
      bin="$1"
      [ "$side" = b ] && bin="$2"
      # shellcheck disable=SC2086 # $opts is a list of options
      if ! "$bin" step "$data/scalable-ccd/$f0" "$data/scalable-ccd/$f1" $opts --json \
        --pairs "$work/$side.csv" 2> "$work/err" | python3 -c "$strip" > "$work/$side.json" 2>/dev/null; then
        echo "FAILED     $f0 ${opts:-(defaults)}: $bin: $(head -1 "$work/err")"
        ran=0
      fi
    done
    if [ "$ran" = 0 ]; then
      same=0
    elif added="$(python3 -c "$compare" "$work/a.json" "$work/b.json")" \
      && cmp -s "$work/a.csv" "$work/b.csv"; then
      echo "same       $f0 ${opts:-(defaults)}${added:+ (only B has: $added)}"
    else
      echo "DIFFERENT  $f0 ${opts:-(defaults)}"
      same=0
    fi
  done
done
if [ "$same" = 1 ]; then
  echo "all the same"
else
  exit 1
fi
