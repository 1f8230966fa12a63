#!/usr/bin/env python3
"""ccdlab and ipctk (IPC Toolkit, PyPI `ipctk`) on a scene with rods and particles, in one process.

Usage: scripts/compare_codim_ipctk.py [--threads T] [--runs N] [--strands S] [--segments L]
                                      [--particles P] [--min-distance D] [--seed K] [--json PATH]

Needs `ccdlab` and `ipctk` importable in the running interpreter (scripts/report_python.sh
makes such an environment; this script installs nothing).

The scene (numpy, from --seed): a still sphere of radius 1 (a 48 x 24 UV sphere), S hair
strands of L segments each (codimensional edges: polylines in no face) lying above it at
heights 1.02 to 1.5, and P particles (vertices in no face and no edge) in the box
[-1, 1]^2 x [1.02, 1.6]; between the two frames every strand and particle falls by 0.4 with
a jitter of 0.02 per vertex, so that strands land on the sphere and on one another and
particles hit the sphere and the strands.

Each of --runs rounds times, in this order:
  - `ccdlab.Pipeline(F, edges=E, threads=T)` after `rebuild_next()` (the BVH built anew each
    step; the wall time of `pipeline.step(V0, V1)`);
  - ipctk's whole step as `scripts/peer_ipctk.py step` times it: `CollisionMesh(V0, E_all, F)`
    (apart, `mesh`), then `Candidates.build` with the LBVH (broad phase; with codimensional
    vertices it adds its vertex-vertex and edge-vertex candidates) and
    `compute_collision_free_stepsize` with `TightInclusionCCD(1e-6, 1e6, 1.0)` (narrow
    phase), total = broad + narrow; `ipctk.set_num_threads(T)`.
The fastest round of each is reported, with both earliest times: ipctk's step size is
conservative (at or before the true time), so it must not exceed ccdlab's upper bound
(checked; exit code 3 otherwise, after the output).
"""
from __future__ import annotations

import argparse
import json
import math
import platform
import sys
import time

import numpy as np


def uv_sphere(n_lon: int = 48, n_lat: int = 24, radius: float = 1.0):
    """A closed UV sphere: the poles and n_lat - 1 rings of n_lon vertices."""
    V = [[0.0, 0.0, radius]]
    for i in range(1, n_lat):
        theta = math.pi * i / n_lat
        for j in range(n_lon):
            phi = 2 * math.pi * j / n_lon
            V.append([radius * math.sin(theta) * math.cos(phi), radius * math.sin(theta) * math.sin(phi),
                      radius * math.cos(theta)])
    V.append([0.0, 0.0, -radius])
    south = len(V) - 1
    ring = lambda i, j: 1 + (i - 1) * n_lon + j % n_lon  # noqa: E731
    F = [[0, ring(1, j), ring(1, j + 1)] for j in range(n_lon)]
    for i in range(1, n_lat - 1):
        for j in range(n_lon):
            a, b, c, d = ring(i, j), ring(i, j + 1), ring(i + 1, j), ring(i + 1, j + 1)
            F += [[a, c, b], [b, c, d]]
    F += [[south, ring(n_lat - 1, j + 1), ring(n_lat - 1, j)] for j in range(n_lon)]
    return np.array(V), np.array(F, dtype=np.int64)


def scene(strands: int, segments: int, particles: int, seed: int):
    """(V0, V1, F, E): the sphere's faces F, the strands' edges E (codimensional)."""
    rng = np.random.default_rng(seed)
    S, F = uv_sphere()
    parts, edges, n = [S], [], len(S)
    for _ in range(strands):
        start = np.array([*rng.uniform(-1.0, 1.0, 2), rng.uniform(1.02, 1.5)])
        angle = rng.uniform(0, 2 * math.pi)
        step = 1.5 / segments * np.array([math.cos(angle), math.sin(angle), 0.0])
        parts.append(start + np.arange(segments + 1)[:, None] * step)
        edges += [[n + k, n + k + 1] for k in range(segments)]
        n += segments + 1
    parts.append(np.column_stack([rng.uniform(-1, 1, (particles, 2)), rng.uniform(1.02, 1.6, particles)]))
    V0 = np.vstack(parts)
    V1 = V0.copy()
    moving = slice(len(S), len(V0))
    V1[moving, 2] -= 0.4
    V1[moving] += rng.uniform(-0.02, 0.02, V1[moving].shape)
    return V0, V1, F, np.array(edges, dtype=np.int64).reshape(-1, 2)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--strands", type=int, default=2000)
    p.add_argument("--segments", type=int, default=30)
    p.add_argument("--particles", type=int, default=5000)
    p.add_argument("--min-distance", type=float, default=0.0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", metavar="PATH")
    args = p.parse_args()

    import ccdlab
    import ipctk

    V0, V1, F, E = scene(args.strands, args.segments, args.particles, args.seed)
    d = args.min_distance
    pipeline = ccdlab.Pipeline(F, edges=E, threads=args.threads, min_distance=d)
    ipctk.set_logger_level(ipctk.LoggerLevel.error)
    ipctk.set_num_threads(args.threads)
    X0, X1 = np.asfortranarray(V0), np.asfortranarray(V1)
    Fi = np.asfortranarray(F.astype(np.int32))
    E_all = np.asfortranarray(np.vstack([ipctk.edges(Fi), E]).astype(np.int32))
    narrow = ipctk.TightInclusionCCD(1e-6, 1_000_000, 1.0)

    ours, theirs = [], []
    for _ in range(args.runs):
        pipeline.rebuild_next()
        t = time.perf_counter()
        r = pipeline.step(V0, V1)
        ours.append(time.perf_counter() - t)
        time.sleep(0.2)
        t0 = time.perf_counter()
        mesh = ipctk.CollisionMesh(X0, E_all, Fi)
        t1 = time.perf_counter()
        candidates = ipctk.Candidates()
        candidates.build(mesh, X0, X1, inflation_radius=d / 2, broad_phase=ipctk.LBVH())
        t2 = time.perf_counter()
        stepsize = candidates.compute_collision_free_stepsize(mesh, X0, X1, d, narrow)
        t3 = time.perf_counter()
        theirs.append({"mesh": t1 - t0, "broad": t2 - t1, "narrow": t3 - t2, "total": t3 - t1})
        time.sleep(0.2)
    best = min(theirs, key=lambda x: x["total"])
    rep = r.report
    out = {
        "machine": platform.processor() or platform.machine(),
        "threads": args.threads,
        "scene": {"vertices": len(V0), "faces": len(F), "codim_edges": len(E),
                  "particles": args.particles, "seed": args.seed, "min_distance": d},
        "ccdlab": {"ms": 1e3 * min(ours), "toi": r.toi, "toi_upper": r.toi_upper,
                   "vf": rep["vf"]["colliding"], "ee": rep["ee"]["colliding"],
                   "points": rep.get("points")},
        "ipctk": {"version": ipctk.__version__, "ms": {k: 1e3 * v for k, v in best.items()},
                  "stepsize": stepsize, "candidates": len(candidates),
                  "vv_candidates": len(candidates.vv_candidates),
                  "ev_candidates": len(candidates.ev_candidates)},
    }
    c, i = out["ccdlab"], out["ipctk"]
    print(f"scene: {len(V0)} vertices, {len(F)} faces, {len(E)} codimensional edges, "
          f"{args.particles} particles; d = {d}; {args.threads} threads, fastest of {args.runs}")
    print(f"ccdlab: {c['ms']:.1f} ms (BVH built), toi {c['toi']} (upper {c['toi_upper']}); "
          f"colliding vf {c['vf']}, ee {c['ee']}, points {c['points']}")
    print(f"ipctk {i['version']}: broad {i['ms']['broad']:.1f} + narrow {i['ms']['narrow']:.1f} = "
          f"{i['ms']['total']:.1f} ms (mesh {i['ms']['mesh']:.1f} apart); step size {stepsize}; "
          f"{i['candidates']} candidates ({i['ev_candidates']} edge-vertex, {i['vv_candidates']} vertex-vertex)")
    print(f"ratio ipctk / ccdlab: {i['ms']['total'] / c['ms']:.1f}x")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    upper = c["toi_upper"] if c["toi_upper"] is not None else 1.0
    if stepsize > upper:
        print(f"CHECK FAILED: ipctk's step size {stepsize} is after ccdlab's upper bound {upper}",
              file=sys.stderr)
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
