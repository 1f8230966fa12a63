#!/usr/bin/env python3
"""ccdlab's and ipctk's (IPC Toolkit, PyPI `ipctk`) pairs within a distance d, on the same meshes, in one process.

Usage: scripts/compare_proximity_ipctk.py [--threads T] [--runs N] [--relative R ...]
                                          [--mesh PATH ...] [--json PATH]

Needs `ccdlab` and `ipctk` importable in the running interpreter (scripts/report_python.sh
makes such an environment; this script installs nothing). Run from the repository root, or
with CCDLAB_DATA set, for the data sets' frames.

The meshes: funnel 227 and cloth-ball 92 (frames of the data sets) and any --mesh given (PLY
or OBJ; the generated scene's frames, say: `ccdlab generate`); d is each --relative R (default
1e-3, 1e-2, 1e-1, 0.2) times the mesh's mean edge length (ipctk's usual dhat, 1e-3 times the
bounding box's diagonal, is about 0.2 of it on the data sets' frames).

Each of --runs rounds times, with `ipctk.set_num_threads(T)`:
  - `ccdlab.proximity(V, F, d, threads=T)`: the pairs within d, exact;
  - `pipeline.step(V, V)` on a `ccdlab.Pipeline(F, min_distance=d, filters="dnf",
    window=False, collect_pairs=True, threads=T)` kept from the previous round (the same
    stages, its BVH refitted and its memory reused: what a simulation that asks at every
    iteration sees; a first step before the rounds builds it);
  - `ipctk.Candidates().build(mesh, V, d / 2)`: ipctk's broad phase alone (boxes grown by d/2);
  - `ipctk.NormalCollisions().build(mesh, V, d)`: its barrier's collisions within d (the same
    broad phase, then each candidate's distance in floating point and its distance type, pairs
    sharing a closest feature merged), on `CollisionMesh(V, edges(F), F)` (built apart).
The fastest and the median round of each are reported.

The check (untimed): every vertex-face and edge-edge candidate of ipctk's broad phase whose
squared distance by ipctk's `point_triangle_distance` / `edge_edge_distance` is at most d^2,
against ccdlab's pairs. Each pair on which they disagree is decided again in exact rational
arithmetic (Python's fractions: closest-point regions, no rounding); ccdlab must be right on
every one, and no pair of ccdlab's may be missing from ipctk's candidates (exit code 3
otherwise, after the output).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare_intersections_ipctk import commit, machine  # noqa: E402


def sq(v):
    return sum(x * x for x in v)


def sub(a, b):
    return [x - y for x, y in zip(a, b)]


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def point_segment(p, a, b):
    """Squared distance, exact for Fractions."""
    u, w = sub(b, a), sub(p, a)
    uu = sq(u)
    t = min(max(dot(w, u) / uu, 0), 1) if uu else 0
    return sq(sub(w, [t * x for x in u]))


def point_triangle(p, a, b, c):
    best = min(point_segment(p, a, b), point_segment(p, b, c), point_segment(p, c, a))
    n = cross(sub(b, a), sub(c, a))
    if sq(n) and all(dot(cross(sub(y, x), sub(p, x)), n) >= 0 for x, y in ((a, b), (b, c), (c, a))):
        best = min(best, dot(sub(p, a), n) ** 2 / sq(n))
    return best


def segment_segment(a0, a1, b0, b1):
    best = min(point_segment(a0, b0, b1), point_segment(a1, b0, b1),
               point_segment(b0, a0, a1), point_segment(b1, a0, a1))
    u, v, w = sub(a1, a0), sub(b1, b0), sub(a0, b0)
    uu, vv, uv, uw, vw = sq(u), sq(v), dot(u, v), dot(u, w), dot(v, w)
    den = uu * vv - uv * uv
    if den:
        s, r = (uv * vw - vv * uw) / den, (uu * vw - uv * uw) / den
        if 0 <= s <= 1 and 0 <= r <= 1:
            best = min(best, sq(sub([x + s * y for x, y in zip(w, u)], [r * y for y in v])))
    return best


def exact_within(V, kind, pair, F, E, d):
    """Whether the pair is within d, in exact rationals."""
    P = lambda i: [Fraction(float(x)) for x in V[i]]  # noqa: E731
    if kind == "vf":
        v, f = pair
        dist2 = point_triangle(P(v), *(P(i) for i in F[f]))
    else:
        (a0, a1), (b0, b1) = E[pair[0]], E[pair[1]]
        dist2 = segment_segment(P(a0), P(a1), P(b0), P(b1))
    return dist2 <= Fraction(d) ** 2


def check(ipctk, V, F, E, mesh, d, ours):
    """ipctk's float verdicts on its broad phase's candidates against ccdlab's pairs."""
    cands = ipctk.Candidates()
    cands.build(mesh, V, d / 2)
    dd = d * d
    theirs = {"vf": set(), "ee": set()}
    listed = {"vf": set(), "ee": set()}
    for c in cands.fv_candidates:
        f, v = c.face_id, c.vertex_id
        listed["vf"].add((v, f))
        t = F[f]
        if ipctk.point_triangle_distance(V[v], V[t[0]], V[t[1]], V[t[2]]) <= dd:
            theirs["vf"].add((v, f))
    for c in cands.ee_candidates:
        i, j = sorted((c.edge0_id, c.edge1_id))
        listed["ee"].add((i, j))
        (a0, a1), (b0, b1) = E[i], E[j]
        if ipctk.edge_edge_distance(V[a0], V[a1], V[b0], V[b1]) <= dd:
            theirs["ee"].add((i, j))
    out = {"ipctk_candidates": len(listed["vf"]) + len(listed["ee"]), "both": 0,
           "ccdlab_only": 0, "ipctk_only": 0, "ccdlab_right": 0, "ccdlab_wrong": 0,
           "missing_from_ipctk_candidates": 0}
    for kind in ("vf", "ee"):
        mine = {tuple(p) for p in ours[kind].tolist()}
        out["both"] += len(mine & theirs[kind])
        out["missing_from_ipctk_candidates"] += len(mine - listed[kind])
        for pair, ccdlab_says in [(p, True) for p in mine - theirs[kind]] + \
                                 [(p, False) for p in theirs[kind] - mine]:
            out["ccdlab_only" if ccdlab_says else "ipctk_only"] += 1
            right = exact_within(V, kind, pair, F, E, d) == ccdlab_says
            out["ccdlab_right" if right else "ccdlab_wrong"] += 1
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--relative", type=float, action="append", metavar="R")
    p.add_argument("--mesh", action="append", default=[], metavar="PATH")
    p.add_argument("--json", metavar="PATH")
    args = p.parse_args()
    relative = args.relative or [1e-3, 1e-2, 1e-1, 0.2]

    import ccdlab
    import ipctk

    data = Path(os.environ.get("CCDLAB_DATA", "datasets")) / "scalable-ccd"
    meshes = [("funnel 227", *ccdlab.read_mesh(data / "cloth-funnel/frames/227.ply")),
              ("cloth-ball 92", *ccdlab.read_mesh(data / "cloth-ball/frames/cloth_ball92.ply"))]
    meshes += [(Path(m).name, *ccdlab.read_mesh(m)) for m in args.mesh]
    ipctk.set_logger_level(ipctk.LoggerLevel.error)
    ipctk.set_num_threads(args.threads)

    rows, failed = [], []
    for name, V, F in meshes:
        E = ccdlab.edges(F)
        mesh = ipctk.CollisionMesh(V, E, F)
        mean_edge = float(np.linalg.norm(V[E[:, 0]] - V[E[:, 1]], axis=1).mean())
        for r in relative:
            d = r * mean_edge
            times = {"ccdlab": [], "ccdlab_refit": [], "ipctk_candidates": [],
                     "ipctk_collisions": []}
            pipeline = ccdlab.Pipeline(F, min_distance=d, filters="dnf", window=False,
                                       collect_pairs=True, threads=args.threads)
            pipeline.step(V, V)
            for _ in range(args.runs):
                t = time.perf_counter()
                ours = ccdlab.proximity(V, F, d, threads=args.threads)
                times["ccdlab"].append(time.perf_counter() - t)
                t = time.perf_counter()
                kept = pipeline.step(V, V)
                times["ccdlab_refit"].append(time.perf_counter() - t)
                if (kept.vf_pairs.tolist(), kept.ee_pairs.tolist()) != \
                        (ours["vf"].tolist(), ours["ee"].tolist()):
                    failed.append(f"{name} at d = {d:.3g}: the kept pipeline's pairs differ")
                t = time.perf_counter()
                ipctk.Candidates().build(mesh, V, d / 2)
                times["ipctk_candidates"].append(time.perf_counter() - t)
                t = time.perf_counter()
                collisions = ipctk.NormalCollisions()
                collisions.build(mesh, V, d)
                times["ipctk_collisions"].append(time.perf_counter() - t)
            row = {"mesh": name, "faces": len(F), "relative": r, "d": d,
                   "ccdlab_pairs": {k: len(ours[k]) for k in ("vf", "ee", "ve", "vv")},
                   "ipctk_collisions": len(collisions),
                   "check": check(ipctk, V, F, E, mesh, d, ours),
                   "ms": {k: {"fastest": 1e3 * min(v), "median": 1e3 * statistics.median(v)}
                          for k, v in times.items()}}
            rows.append(row)
            c = row["check"]
            if c["ccdlab_wrong"] or c["missing_from_ipctk_candidates"]:
                failed.append(f"{name} at d = {d:.3g}")

    out = {"machine": machine(), "logical_cpus": os.cpu_count(), "threads": args.threads,
           "runs": args.runs, "commit": commit(), "ipctk": ipctk.__version__,
           "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "rows": rows}
    print(f"{out['machine']}, {out['logical_cpus']} logical CPUs, {args.threads} threads, "
          f"commit {out['commit']}, ipctk {out['ipctk']}, {out['date']}; "
          f"ms: fastest / median of {args.runs}; L: the mesh's mean edge length")
    print()
    print("| mesh | d / L | ccdlab pairs (vf + ee) | ccdlab `proximity` | ccdlab, a `Pipeline` "
          "kept (refit) | ipctk `Candidates.build` | ipctk `NormalCollisions.build` (collisions) "
          "| time: ipctk collisions / ccdlab `proximity` | time: ipctk collisions / ccdlab kept |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        ms = r["ms"]
        cell = lambda k: f"{ms[k]['fastest']:.1f} / {ms[k]['median']:.1f}"  # noqa: E731
        ratio = lambda k: ms["ipctk_collisions"]["fastest"] / ms[k]["fastest"]  # noqa: E731
        pairs = r["ccdlab_pairs"]
        print(f"| {r['mesh']} | {r['relative']:g} | {pairs['vf']:,} + {pairs['ee']:,} | "
              f"{cell('ccdlab')} | {cell('ccdlab_refit')} | {cell('ipctk_candidates')} | "
              f"{cell('ipctk_collisions')} ({r['ipctk_collisions']:,}) | "
              f"{ratio('ccdlab'):.2f}× | {ratio('ccdlab_refit'):.2f}× |")
    print()
    print("Check: ipctk's float distances on its own candidates against ccdlab's pairs; every "
          "disagreement decided in exact rationals.")
    print()
    print("| mesh | d / L | ipctk candidates | pairs both report | ccdlab only | ipctk only "
          "| disagreements where ccdlab is exact | where it is not | ccdlab's pairs not among "
          "ipctk's candidates |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        c = r["check"]
        print(f"| {r['mesh']} | {r['relative']:g} | {c['ipctk_candidates']:,} | {c['both']:,} | "
              f"{c['ccdlab_only']:,} | {c['ipctk_only']:,} | {c['ccdlab_right']:,} | "
              f"**{c['ccdlab_wrong']}** | **{c['missing_from_ipctk_candidates']}** |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    if failed:
        print(f"CHECK FAILED: {', '.join(failed)}", file=sys.stderr)
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
