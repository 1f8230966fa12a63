#!/usr/bin/env python3
"""The Python package's overhead against the command line, in one run on one machine.

- Whole step: the fastest of `--runs` warm `ccdlab.step(V0, V1, F, threads=T)` calls (BVH
  built each call; wall time of the call, mesh topology, thread pool and fresh memory
  included), and of a `ccdlab.Pipeline(F)` stepping with `rebuild_next()` (BVH built each
  step over the kept memory and threads), against the fastest run of `ccdlab step FRAME0
  FRAME1 --threads T --repeat N --rebuild --json` (its `total_ms`), on funnel 227→228 and
  cloth-ball 92→93.
- Queries: every ground-truth query set through `vertex_face_ccd_batch` /
  `edge_edge_ccd_batch` (one thread), nanoseconds per query, against `ccdlab queries
  --json` (the Rust solver's mean per query).

Usage: scripts/bench_python.py [--runs N] [--threads T] [--ccdlab PATH] [--json]
Needs the package installed (`pip install .`) and a release build of the command line
(`cargo build --release`). Prints a table, or one JSON object with --json.
"""
import argparse
import json
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np

import ccdlab

ROOT = Path(__file__).resolve().parent.parent
SCENES = {
    "funnel": ("cloth-funnel/frames/227.ply", "cloth-funnel/frames/228.ply"),
    "cloth_ball": ("cloth-ball/frames/cloth_ball92.ply", "cloth-ball/frames/cloth_ball93.ply"),
}


def read_queries(path):
    """(n, 8, 3) float64 queries of a 7-column ground-truth CSV (exact rationals)."""
    rows = [line.split(",") for line in path.read_text().split("\n") if line.strip()]
    pts = [[float(Fraction(int(r[2 * a]), int(r[2 * a + 1]))) for a in range(3)] for r in rows]
    return np.array(pts, dtype=np.float64).reshape(-1, 8, 3)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--ccdlab", default=str(ROOT / "target/release/ccdlab"))
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    data = ROOT / "datasets" / "scalable-ccd"
    out = {"threads": args.threads, "runs": args.runs, "steps": {}, "queries": {}}
    for name, (f0, f1) in SCENES.items():
        V0, F = ccdlab.read_mesh(str(data / f0))
        V1, _ = ccdlab.read_mesh(str(data / f1))
        best = float("inf")
        for _ in range(args.runs + 1):
            t = time.perf_counter()
            r = ccdlab.step(V0, V1, F, threads=args.threads)
            best = min(best, (time.perf_counter() - t) * 1e3)
        # The same with a Pipeline that builds its BVH anew each step (its
        # memory and threads kept, as `--repeat --rebuild` keeps them).
        pipeline = ccdlab.Pipeline(F, threads=args.threads)
        best_pipeline = float("inf")
        for _ in range(args.runs + 1):
            pipeline.rebuild_next()
            t = time.perf_counter()
            pipeline.step(V0, V1)
            best_pipeline = min(best_pipeline, (time.perf_counter() - t) * 1e3)
        cli = json.loads(subprocess.run(
            [args.ccdlab, "step", str(data / f0), str(data / f1), "--threads", str(args.threads),
             "--repeat", str(args.runs), "--rebuild", "--json"],
            check=True, capture_output=True, text=True).stdout)
        out["steps"][name] = {
            "python_ms": best,
            "python_pipeline_rebuild_ms": best_pipeline,
            "python_report_total_ms": r.report["time_ms"]["total"],
            "cli_ms": min(cli["runs_total_ms"]),
        }
    cli = json.loads(subprocess.run(
        [args.ccdlab, "queries", "--json", str(ROOT / "datasets" / "ccd-queries")],
        capture_output=True, text=True).stdout or "{}")
    for kind, batch in (("vertex-face", ccdlab.vertex_face_ccd_batch),
                        ("edge-edge", ccdlab.edge_edge_ccd_batch)):
        qs = np.concatenate([read_queries(p) for p in
                             sorted((ROOT / "datasets" / "ccd-queries").glob(f"*/{kind}/*.csv"))])
        best = float("inf")
        for _ in range(3):
            t = time.perf_counter()
            batch(qs, threads=1)
            best = min(best, time.perf_counter() - t)
        sets = [x for x in cli.get("sets", []) if x["kind"] == {"vertex-face": "vf", "edge-edge": "ee"}[kind]]
        n = sum(x["queries"] for x in sets)
        cli_ns = sum(x["mean_ns"] * x["queries"] for x in sets) / n if n else float("nan")
        out["queries"][kind] = {"queries": len(qs), "python_ns_per_query": best / len(qs) * 1e9,
                                "cli_ns_per_query": cli_ns}
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    for name, s in out["steps"].items():
        print(f"{name}: ccdlab.step {s['python_ms']:.2f} ms (its report {s['python_report_total_ms']:.2f}),"
              f" Pipeline with rebuild {s['python_pipeline_rebuild_ms']:.2f} ms, cli {s['cli_ms']:.2f} ms;"
              f" ratios {s['python_ms'] / s['cli_ms']:.3f}, {s['python_pipeline_rebuild_ms'] / s['cli_ms']:.3f}")
    for kind, q in out["queries"].items():
        print(f"{kind}: {q['queries']} queries, python batch {q['python_ns_per_query']:.0f} ns/query,"
              f" cli {q['cli_ns_per_query']:.0f} ns/query")
    return 0


if __name__ == "__main__":
    sys.exit(main())
