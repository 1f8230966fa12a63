#!/usr/bin/env python3
"""Instruction counts per query of a narrow-phase solver, per query set.

Wall-clock timings are noisy on a shared machine; instruction counts from
callgrind are not. Runs examples/narrow_phase_instructions.rs under
`valgrind --tool=callgrind`, dumping the counters before each call of its
`solve_set` (one call per set), and prints a Markdown table: set, kind,
queries, instructions per query.

Usage: scripts/narrow_phase_instructions.py [--solver exact|cubic] PATH...
(needs valgrind; builds the example in release mode; honours CARGO_TARGET_DIR).
"""
import glob
import os
import re
import subprocess
import sys
import tempfile


def main() -> int:
    args = sys.argv[1:]
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    subprocess.run(
        ["cargo", "build", "--release", "--quiet", "--example", "narrow_phase_instructions"],
        check=True,
    )
    target = os.environ.get("CARGO_TARGET_DIR", "target")
    exe = os.path.join(target, "release", "examples", "narrow_phase_instructions")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        run = subprocess.run(
            [
                "valgrind", "--tool=callgrind", "--callgrind-out-file=" + out,
                "--dump-before=*solve_set*", exe, *args,
            ],
            check=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        )
        sets = [line.split(" ", 3) for line in run.stdout.splitlines() if line]
        dumps = sorted(
            glob.glob(out + ".*"), key=lambda p: int(p.rsplit(".", 1)[1])
        )
        # Dump i (1-based) holds the cost since dump i - 1: dump 1 the
        # loading, dump i + 1 the i-th set (the example calls solve_set once
        # more, on an empty set, after the last one).
        costs = []
        for path in dumps[1:]:
            with open(path) as f:
                text = f.read()
            m = re.search(r"^totals:\s*(\d+)", text, re.M)
            costs.append(int(m.group(1)) if m else 0)
    print("| set | kind | queries | instructions / query |")
    print("|---|---|---:|---:|")
    total_q = total_ir = 0
    if len(costs) < len(sets):
        print(f"error: {len(costs)} callgrind dumps for {len(sets)} sets", file=sys.stderr)
        return 1
    for (kind, n, _hits, path), ir in zip(sets, costs):
        n = int(n)
        total_q += n
        total_ir += ir
        print(f"| {path} | {kind} | {n} | {ir / max(n, 1):.0f} |")
    print(f"| total | | {total_q} | {total_ir / max(total_q, 1):.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
