#!/usr/bin/env python3
"""ccdlab's and ipctk's (IPC Toolkit, PyPI `ipctk`) static intersection checks on the same meshes, in one process.

Usage: scripts/compare_intersections_ipctk.py [--threads T] [--runs N] [--sheets N]
                                              [--mesh PATH ...] [--json PATH]

Needs `ccdlab` and `ipctk` importable in the running interpreter (scripts/report_python.sh
makes such an environment; this script installs nothing). Run from the repository root, or
with CCDLAB_DATA set, for the data sets' frames.

The meshes: funnel 227 and cloth-ball 92 (frames of the data sets, which interpenetrate),
any --mesh given (PLY or OBJ; the generated scene's frames, say: `ccdlab generate`), and two
wavy N x N sheets 0.05 apart (--sheets, default 300; free of intersections, so that every
check runs to its end; 0 leaves them out).

Each of --runs rounds times, in this order, with `ipctk.set_num_threads(T)`:
  - `ccdlab.has_intersections(V, F, threads=T)` (looks for crossings only when nothing
    touches, and stops at the first);
  - `ipctk.has_intersections(mesh, V)` on `CollisionMesh(V, edges(F), F)` (built apart);
  - `ccdlab.intersections(V, F, threads=T)` (every pair listed).
The fastest and the median round of each are reported. The two answers must agree (exit
code 3 otherwise, after the output): on such meshes they do; where they may not (coplanar
folds, coincident corners, which ipctk decides in floating point), see
docs/notes/intersections.md.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np


def sheets(n: int):
    """Two wavy n x n sheets over the unit square, the second 0.05 above and shifted."""
    x, y = np.meshgrid(np.linspace(0, 1, n), np.linspace(0, 1, n))
    V = np.c_[x.ravel(), y.ravel(), 0.01 * np.sin(20 * x.ravel()) * np.cos(17 * y.ravel())]
    idx = np.arange(n * n).reshape(n, n)
    a, b, c, d = idx[:-1, :-1].ravel(), idx[:-1, 1:].ravel(), idx[1:, :-1].ravel(), idx[1:, 1:].ravel()
    F = np.r_[np.c_[a, b, d], np.c_[a, d, c]]
    return np.r_[V, V + [0.003, 0.002, 0.05]], np.r_[F, F + n * n]


def machine() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def commit() -> str:
    try:
        return subprocess.run([str(Path(__file__).parent / "commit_stamp.sh")], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--sheets", type=int, default=300)
    p.add_argument("--mesh", action="append", default=[], metavar="PATH")
    p.add_argument("--json", metavar="PATH")
    args = p.parse_args()

    import ccdlab
    import ipctk

    data = Path(os.environ.get("CCDLAB_DATA", "datasets")) / "scalable-ccd"
    meshes = [("funnel 227", *ccdlab.read_mesh(data / "cloth-funnel/frames/227.ply")),
              ("cloth-ball 92", *ccdlab.read_mesh(data / "cloth-ball/frames/cloth_ball92.ply"))]
    meshes += [(Path(m).name, *ccdlab.read_mesh(m)) for m in args.mesh]
    if args.sheets > 0:
        meshes.append((f"two sheets {args.sheets} x {args.sheets}", *sheets(args.sheets)))
    ipctk.set_logger_level(ipctk.LoggerLevel.error)
    ipctk.set_num_threads(args.threads)

    rows, disagree = [], []
    for name, V, F in meshes:
        mesh = ipctk.CollisionMesh(V, ccdlab.edges(F), F)
        times = {"ccdlab_has": [], "ipctk_has": [], "ccdlab_list": []}
        for _ in range(args.runs):
            t = time.perf_counter()
            ours = ccdlab.has_intersections(V, F, threads=args.threads)
            times["ccdlab_has"].append(time.perf_counter() - t)
            t = time.perf_counter()
            theirs = ipctk.has_intersections(mesh, V)
            times["ipctk_has"].append(time.perf_counter() - t)
            t = time.perf_counter()
            found = ccdlab.intersections(V, F, threads=args.threads)
            times["ccdlab_list"].append(time.perf_counter() - t)
        touching = sum(len(found[k]) for k in ("vf", "ee", "ve", "vv"))
        row = {"mesh": name, "vertices": len(V), "faces": len(F), "ccdlab": bool(ours),
               "ipctk": bool(theirs), "crossing": len(found["edge_face"]), "touching": touching,
               "ms": {k: {"fastest": 1e3 * min(v), "median": 1e3 * statistics.median(v)}
                      for k, v in times.items()}}
        rows.append(row)
        if ours != theirs:
            disagree.append(name)

    out = {"machine": machine(), "logical_cpus": os.cpu_count(), "threads": args.threads,
           "runs": args.runs, "commit": commit(), "ipctk": ipctk.__version__,
           "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "meshes": rows}
    print(f"{out['machine']}, {out['logical_cpus']} logical CPUs, {args.threads} threads, "
          f"commit {out['commit']}, ipctk {out['ipctk']}, {out['date']}; "
          f"ms: fastest / median of {args.runs}")
    print()
    print("| mesh | faces | answer | ccdlab `has_intersections` | ipctk `has_intersections` "
          "| time: ipctk / ccdlab (fastest) | ccdlab `intersections` (crossing, touching) |")
    print("|---|---:|---|---:|---:|---:|---:|")
    for r in rows:
        ms = r["ms"]
        cell = lambda k: f"{ms[k]['fastest']:.1f} / {ms[k]['median']:.1f}"  # noqa: E731
        print(f"| {r['mesh']} | {r['faces']:,} | {r['ccdlab']} | {cell('ccdlab_has')} | "
              f"{cell('ipctk_has')} | {ms['ipctk_has']['fastest'] / ms['ccdlab_has']['fastest']:.2f}× | "
              f"{cell('ccdlab_list')} ({r['crossing']:,}, {r['touching']:,}) |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    if disagree:
        print(f"CHECK FAILED: ccdlab and ipctk disagree on {', '.join(disagree)}", file=sys.stderr)
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
