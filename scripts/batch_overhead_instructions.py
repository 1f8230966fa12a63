#!/usr/bin/env python3
"""The Python batch call's cost per query beyond the Rust solver's, in instruction counts.

Wall-clock times on a shared machine move by more than the 50 ns in question; callgrind's
instruction counts do not. Two runs under `valgrind --tool=callgrind`:

- the solver: examples/narrow_phase_instructions.rs (as scripts/narrow_phase_instructions.py
  runs it) on the query sets, a dump before each set's `solve_set`: instructions per query
  of the solver alone (a loop over the queries, nothing else);
- the batch call: this script's `--child` mode in the same interpreter (ccdlab installed),
  which loads the same sets (scripts/peer_ipctk.py's readers), calls
  `vertex_face_ccd_batch` / `edge_edge_ccd_batch(points, threads=1)` once per set, with a
  dump before every call of the binding (`__pyfunction_*_ccd_batch`: argument parsing, the
  copy of the array, the solves, the result arrays), so that an interval holds one call and
  the loop's step to the next. Empty batches (0 queries) give the fixed cost of a call and
  of that step (the least of five is subtracted); warm-up calls come first.

Per set: overhead = (batch call - empty call) / queries - solver per query, in instructions;
in nanoseconds at the solver's own rate (its instructions per query over its wall time per
query, `ccdlab.queries` in this process without valgrind, the least of five runs). That
rate is the solver's; the
overhead's code (copies, allocation) may run at another, so the nanoseconds are indicative,
the instructions exact.

Usage: scripts/batch_overhead_instructions.py [--json PATH] [PATH...]
(default PATHs: the data root's ccd-queries/ and scalable-ccd/; needs valgrind, cargo, and
`ccdlab` importable; honours CARGO_TARGET_DIR).
"""
from __future__ import annotations

import argparse
import gc
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
PATTERN = "*__pyfunction_*_ccd_batch"


def data_root() -> Path:
    env = os.environ.get("CCDLAB_DATA")
    return Path(env) if env else ROOT / "datasets"


def loadavg() -> list[float] | None:
    try:
        return [float(x) for x in Path("/proc/loadavg").read_text().split()[:3]]
    except (OSError, ValueError):
        return None


def dump_costs(prefix: str) -> list[tuple[str, int]]:
    """(trigger, instructions) of every callgrind dump file `prefix.N`, in order."""
    out = []
    for path in sorted(glob.glob(prefix + ".*"), key=lambda p: int(p.rsplit(".", 1)[1])):
        text = Path(path).read_text(errors="replace")
        m = re.search(r"^totals:\s*(\d+)", text, re.M)
        trig = re.search(r"^desc: Trigger: (.*)$", text, re.M)
        out.append((trig.group(1) if trig else "", int(m.group(1)) if m else 0))
    return out


def child(paths: list[str]) -> int:
    import numpy as np

    import ccdlab
    import peer_ipctk

    sources = [s for p in paths for s in peer_ipctk.discover(Path(p))]
    loaded = [(s, np.ascontiguousarray(peer_ipctk.load(s)[0], dtype=np.float64)) for s in sources]
    fns = {"vf": ccdlab.vertex_face_ccd_batch, "ee": ccdlab.edge_edge_ccd_batch}
    empty = np.zeros((0, 8, 3))
    one = loaded[0][1][:1]
    # Warm-up calls (lazy initialisation inside the binding), empty calls (the fixed cost of a
    # call), one call per set, and a last empty call that closes the last set's interval.
    work = [("warmup", "vf", one), ("warmup", "ee", one)]
    work += [("empty", kind, empty) for kind in ("vf", "ee") for _ in range(5)]
    work += [(str(s["path"]), s["kind"], pts) for s, pts in loaded]
    work += [("end", "vf", empty)]
    calls = [(fns[kind], pts) for _, kind, pts in work]
    gc.disable()
    for fn, pts in calls:
        fn(pts, threads=1)
    gc.enable()
    for name, kind, pts in work:
        print(f"{name}\t{kind}\t{len(pts)}")
    return 0


def label(path: str) -> str:
    root = data_root()
    p = Path(path)
    return str(p.relative_to(root)) if p.is_relative_to(root) else path


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--json", metavar="PATH")
    ap.add_argument("paths", nargs="*")
    args = ap.parse_args()
    paths = args.paths or [str(data_root() / d) for d in ("ccd-queries", "scalable-ccd") if (data_root() / d).is_dir()]
    if args.child:
        return child(paths)
    import ccdlab
    import peer_ipctk

    load_before = loadavg()
    subprocess.run(["cargo", "build", "--release", "--quiet", "--example", "narrow_phase_instructions"],
                   check=True, cwd=ROOT)
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    exe = target / "release" / "examples" / "narrow_phase_instructions"
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "solver.out")
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", "--dump-before=*solve_set*",
             str(exe), *paths],
            check=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        )
        solver_sets = [line.split(" ", 3) for line in run.stdout.splitlines() if line]
        costs = [c for _, c in dump_costs(out)][1:]
        if len(costs) < len(solver_sets):
            sys.exit(f"error: {len(costs)} callgrind dumps for {len(solver_sets)} sets (solver)")
        solver = {label(p): (int(n), ir) for (kind, n, _hits, p), ir in zip(solver_sets, costs)}

        out = os.path.join(tmp, "batch.out")
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", f"--dump-before={PATTERN}",
             sys.executable, str(Path(__file__).resolve()), "--child", *paths],
            check=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        )
        calls = [line.split("\t") for line in run.stdout.splitlines() if line]
        # Dump k + 1 (a dump before each call) holds call k and the loop's step to the next;
        # the last call ("end") is in the final dump (`out` itself), not read.
        dumps = [ir for _, ir in dump_costs(out)][1:]
        if len(dumps) != len(calls) - 1:
            sys.exit(f"error: {len(dumps)} callgrind dumps for {len(calls)} batch calls")
        per_call = dumps
    empty = {}
    for (name, kind, n), ir in zip(calls, per_call):
        if name == "empty":
            empty[kind] = min(empty.get(kind, ir), ir)
    # The solver's wall time per query, for the rate (not under valgrind).
    sets = []
    for (name, kind, n), ir in zip(calls, per_call):
        if name in ("warmup", "empty", "end"):
            continue
        n = int(n)
        key = label(name)
        sn, sir = solver[key]
        if sn != n:
            sys.exit(f"error: {key}: {n} queries in Python, {sn} in Rust")
        # The least of five means (each over at least 100 ms): the run least slowed by other
        # processes on a shared machine.
        wall = min(ccdlab.queries(name, min_time_ms=100)["sets"][0]["mean_ns"] for _ in range(5))
        solver_ir = sir / n
        batch_ir = (ir - empty[kind]) / n
        rate = solver_ir / wall if wall > 0 else float("nan")
        sets.append({
            "set": key,
            "family": "simulation" if "scalable-ccd" in name else "handcrafted",
            "kind": kind,
            "queries": n,
            "solver_ir_per_query": solver_ir,
            "batch_ir_per_query": batch_ir,
            "overhead_ir_per_query": batch_ir - solver_ir,
            "solver_ns_per_query": wall,
            "solver_ir_per_ns": rate,
            "overhead_ns_per_query": (batch_ir - solver_ir) / rate,
        })
    # Handcrafted sets summed per kind (many small sets); simulation sets one by one.
    rows = [s for s in sets if s["family"] == "simulation"]
    for kind in ("vf", "ee"):
        group = [s for s in sets if s["family"] == "handcrafted" and s["kind"] == kind]
        if not group:
            continue
        n = sum(s["queries"] for s in group)
        sir = sum(s["solver_ir_per_query"] * s["queries"] for s in group)
        bir = sum(s["batch_ir_per_query"] * s["queries"] for s in group)
        wall = sum(s["solver_ns_per_query"] * s["queries"] for s in group)
        rate = sir / wall
        rows.append({
            "set": f"handcrafted (all {len(group)} sets)", "family": "handcrafted", "kind": kind, "queries": n,
            "solver_ir_per_query": sir / n, "batch_ir_per_query": bir / n,
            "overhead_ir_per_query": (bir - sir) / n, "solver_ns_per_query": wall / n,
            "solver_ir_per_ns": rate, "overhead_ns_per_query": (bir - sir) / n / rate,
        })
    sim = [s for s in rows if s["family"] == "simulation"]
    worst = max((s["overhead_ns_per_query"] for s in sim), default=float("nan"))
    verdict = (f"the largest on a simulation set is {worst:.1f} ns: "
               + ("met." if worst <= 50 else "not met."))
    result = {
        "method": (
            "Instructions (callgrind) of one `*_ccd_batch(points, threads=1)` call per set, from the "
            "binding's entry (`__pyfunction_*_ccd_batch`) to the next call's entry, minus an empty call's "
            "(which also removes the loop's step between two calls), per query; minus the solver's instructions per query (examples/narrow_phase_instructions.rs, a "
            "bare loop over the same queries). Nanoseconds: the overhead's instructions at the solver's "
            "own instructions per ns (its instruction count over its wall time, the least of five "
            "`ccdlab.queries` runs, on this machine); indicative, the instruction counts are exact."
        ),
        "empty_call_ir": empty,
        "sets": rows,
        "all_sets": sets,
        "verdict": verdict,
        "load_before": load_before,
        "load_after": loadavg(),
        "stamp": peer_ipctk.stamp(1),
    }
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    print("| set | kind | queries | solver Ir/q | batch Ir/q | overhead Ir/q | solver ns/q | overhead ns/q |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for s in rows:
        print(f"| {s['set']} | {s['kind']} | {s['queries']} | {s['solver_ir_per_query']:.0f} | "
              f"{s['batch_ir_per_query']:.0f} | {s['overhead_ir_per_query']:.0f} | "
              f"{s['solver_ns_per_query']:.0f} | {s['overhead_ns_per_query']:.1f} |")
    print(f"empty call: {empty}; {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
