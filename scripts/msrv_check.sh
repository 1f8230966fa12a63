#!/usr/bin/env bash
# The declared minimum Rust version (`rust-version` in Cargo.toml's
# [workspace.package]) checked with that toolchain: the whole workspace
# (library, command line, tests, benches, the Python package's crate) with
# the locked dependencies. rustup installs the toolchain (minimal profile)
# when it is missing; where it cannot be fetched, the check says so and is
# not run (the rest of CI does not depend on it).
set -euo pipefail
cd "$(dirname "$0")/.."

msrv=$(sed -n '/^\[workspace.package\]/,/^\[/s/^rust-version = "\(.*\)"/\1/p' Cargo.toml)
if [[ -z "$msrv" ]]; then
    echo "msrv_check: no rust-version in Cargo.toml's [workspace.package]" >&2
    exit 1
fi
if ! rustup run "$msrv" rustc --version >/dev/null 2>&1; then
    if ! rustup toolchain install "$msrv" --profile minimal --no-self-update; then
        echo "msrv_check: NOT RUN: Rust $msrv could not be installed here" >&2
        exit 0
    fi
fi
# A target folder of its own: the main toolchain's builds stay as they are.
CARGO_TARGET_DIR=target/msrv cargo "+$msrv" check --locked --workspace --all-targets
echo "msrv_check: the workspace builds with Rust $msrv"
