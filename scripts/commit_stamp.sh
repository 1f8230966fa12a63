#!/usr/bin/env bash
# The commit a report's measurements come from, as every report script stamps it: HEAD's 12
# hex digits, with `-dirty` when what the measurements run (src, python, scripts, Cargo.toml,
# Cargo.lock, build.rs) differs from it (an edit, or a file git does not track yet); `unknown`
# outside a git checkout. The `ccdlab` binary stamps its own JSON the same way, at build time,
# over the sources it compiles (build.rs).
#
#   scripts/commit_stamp.sh
set -uo pipefail
cd "$(dirname "$0")/.."
if ! hash=$(git rev-parse --short=12 HEAD 2> /dev/null); then
  echo unknown
  exit 0
fi
if changes=$(git status --porcelain -- src python scripts Cargo.toml Cargo.lock build.rs) \
  && [ -z "$changes" ]; then
  echo "$hash"
else
  echo "$hash-dirty"
fi
