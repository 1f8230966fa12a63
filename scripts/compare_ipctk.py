#!/usr/bin/env python3
"""ccdlab and ipctk (IPC Toolkit, PyPI `ipctk`) on the same numpy arrays, in one process.

Usage: scripts/compare_ipctk.py [--threads T] [--runs N] [--pause-ms P] [--sample-cap C]
                                [--min-time-ms MS] [--no-step] [--no-queries] [--json PATH]

Needs `ccdlab` (`pip install .` from the repository root) and `ipctk` importable in the
running interpreter (scripts/report_python.sh makes such an environment); unlike
scripts/peer_ipctk.py this script installs nothing. Prints a table; with --json PATH it also
writes the data (machine stamp, versions, every number) that scripts/render_python_compare.py
turns into reports/python/README.md.

Whole step (funnel 227→228, cloth-ball 92→93): the frames are read once with
`ccdlab.read_mesh`; the same float64 arrays (Fortran order, as ipctk takes them without a
copy) go to both libraries. Each round runs, in this order and with --pause-ms between them
(so that one library's idle worker threads have gone to sleep before the other starts):
  - `ccdlab.Pipeline(F, threads=T)` after `rebuild_next()`: the BVH built anew each step,
    the pipeline's memory and threads kept (wall time of `pipeline.step(V0, V1)`);
  - the same pipeline's `earliest_toi(V0, V1)` after `rebuild_next()`: the earliest time
    alone, the question `compute_collision_free_stepsize` answers (no counts; its bracket
    must lie within the step's, checked);
  - the one-shot `ccdlab.step(V0, V1, F, threads=T)` (mesh topology, thread pool and memory
    made in the call; wall time of the call);
  - ipctk's whole step exactly as `scripts/peer_ipctk.py step` times it (its
    `ipctk_whole_step`): `ipctk.edges` + `CollisionMesh` (`mesh`, apart), the LBVH broad
    phase (`Candidates.build`) and `compute_collision_free_stepsize` with
    `TightInclusionCCD(1e-6, 1e6, 1.0)`, `total` = broad + narrow phase;
    `ipctk.set_num_threads(T)`.
The fastest of --runs rounds of each is reported. The earliest time of impact of both is
printed: ipctk's step size is conservative (at or before the true time), so ccdlab's lower
bound must be at or after it, and ccdlab's upper bound too (both checked; a failed check
exits with code 3 after the output is written).

Per query: every ground-truth query set that `ccdlab queries` finds under the data root
(Sample-Queries CSVs; cloth-ball rebuilt from its frames and boxes, funnel's queries; the
truth from the CSVs or `mma_bool`), loaded by scripts/peer_ipctk.py's readers, one thread:
  - `rust`: `ccdlab.queries(set)`, the Rust solver's own timing (each set solved repeatedly
    for at least 50 ms; mean per query), as `ccdlab queries`;
  - `batch`: `ccdlab.vertex_face_ccd_batch` / `edge_edge_ccd_batch(points, threads=1)` on
    the (n, 8, 3) array, at least 3 calls and --min-time-ms (at least 50 ms) of calls: the mean
    per query (as `rust`), and the fastest call's (`batch_fastest_ns` in the JSON);
  - Tight-Inclusion (`ipctk.tight_inclusion.point_triangle_ccd` / `edge_edge_ccd`, the
    benchmark's settings), timed by peer_ipctk.py's `score_set`: a Python loop calling it once
    per query (`ti_loop`), minus the same loop calling `ipctk.*_aabb_ccd` (argument
    conversion, `aabb_loop`) = `ti` (the solver's own time). ipctk has no batch call, so a
    Python loop is unavoidable; `empty_loop` is a list comprehension over the same argument
    tuples that calls nothing (the loop's own cost).
  Sets above --sample-cap queries are sampled for Tight-Inclusion only: every k-th query
  (k = ceil(n / cap)), from the first; its FP / FN count that sample. ccdlab runs every query.
FP / FN against the exact truth: ours must be 0 / 0 (exit code 3 otherwise); ipctk is
conservative (false positives expected, no false negatives).
"""
from __future__ import annotations

import argparse
import gc
import json
import math
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import numpy as np  # noqa: E402

try:
    import ccdlab  # noqa: E402
    import ipctk  # noqa: E402
except ImportError as e:  # pragma: no cover - environment problem
    sys.exit(f"error: {e}; run scripts/report_python.sh, or pip install . and ipctk==1.6.1 first")

import peer_ipctk  # noqa: E402

SCENES = [
    ("funnel", "cloth-funnel/frames/227.ply", "cloth-funnel/frames/228.ply"),
    ("cloth-ball", "cloth-ball/frames/cloth_ball92.ply", "cloth-ball/frames/cloth_ball93.ply"),
]


def data_root() -> Path:
    env = os.environ.get("CCDLAB_DATA")
    return Path(env) if env else ROOT / "datasets"


def loadavg() -> list[float] | None:
    try:
        return [float(x) for x in Path("/proc/loadavg").read_text().split()[:3]]
    except (OSError, ValueError):
        return None


def machine_stamp(threads: int) -> dict:
    s = peer_ipctk.stamp(threads)
    s.update(
        {
            "python": platform.python_version(),
            "numpy": np.__version__,
            "ccdlab": ccdlab.__version__,
            "ipctk": ipctk.__version__,
        }
    )
    return s


# --------------------------------------------------------------------------- whole step


def compare_step(name: str, f0: Path, f1: Path, threads: int, runs: int, pause: float) -> dict:
    V0, F = ccdlab.read_mesh(str(f0))
    V1, F1 = ccdlab.read_mesh(str(f1))
    if V0.shape != V1.shape or not np.array_equal(F, F1):
        raise SystemExit(f"error: {f0}, {f1}: the frames do not share their mesh")
    X0, X1 = np.asfortranarray(V0), np.asfortranarray(V1)
    Fi = np.asfortranarray(F.astype(np.int32))
    ipctk.set_logger_level(ipctk.LoggerLevel.error)
    ipctk.set_num_threads(threads)
    narrow = ipctk.TightInclusionCCD(peer_ipctk.TI_TOLERANCE, peer_ipctk.TI_MAX_ITERATIONS, 1.0)
    pipeline = ccdlab.Pipeline(F, threads=threads)
    best = {"pipeline": math.inf, "earliest": math.inf, "step": math.inf, "ipctk": None}
    report_ms = math.inf
    r_pipe = r_step = r_earliest = None
    for _ in range(runs):
        pipeline.rebuild_next()
        t = time.perf_counter()
        r_pipe = pipeline.step(X0, X1)
        best["pipeline"] = min(best["pipeline"], time.perf_counter() - t)
        time.sleep(pause)
        pipeline.rebuild_next()
        t = time.perf_counter()
        r_earliest = pipeline.earliest_toi(X0, X1)
        best["earliest"] = min(best["earliest"], time.perf_counter() - t)
        time.sleep(pause)
        t = time.perf_counter()
        r_step = ccdlab.step(X0, X1, F, threads=threads)
        best["step"] = min(best["step"], time.perf_counter() - t)
        report_ms = min(report_ms, r_step.report["time_ms"]["total"])
        time.sleep(pause)
        run, E, candidates, stepsize = peer_ipctk.ipctk_whole_step(X0, X1, Fi, narrow)
        if best["ipctk"] is None or run["total"] < best["ipctk"]["total"]:
            best["ipctk"] = run
        time.sleep(pause)
    if (r_pipe.toi, r_pipe.toi_upper) != (r_step.toi, r_step.toi_upper):
        raise SystemExit(f"error: {name}: Pipeline and step disagree on the time of impact")
    ip = best["ipctk"]
    lower, upper = r_pipe.toi, r_pipe.toi_upper
    e_lower, e_upper = (None, None) if r_earliest is None else (r_earliest.lower, r_earliest.upper)
    if (e_lower is None) != (lower is None) or (
        lower is not None and not (lower <= e_lower and e_upper <= upper)
    ):
        raise SystemExit(
            f"error: {name}: earliest_toi's bracket {r_earliest} is not within the step's "
            f"[{lower}, {upper}]"
        )
    if lower is None:
        check = stepsize >= 1.0
    else:
        check = stepsize <= lower and stepsize <= upper
    rep = r_pipe.report
    return {
        "scene": name,
        "frames": [str(f0.relative_to(ROOT)) if f0.is_relative_to(ROOT) else str(f0),
                   str(f1.relative_to(ROOT)) if f1.is_relative_to(ROOT) else str(f1)],
        "vertices": int(len(V0)),
        "faces": int(len(F)),
        "edges": int(len(E)),
        "threads": threads,
        "ipctk_threads": ipctk.get_num_threads(),
        "runs": runs,
        "ms": {
            "ccdlab_pipeline_rebuild": best["pipeline"] * 1e3,
            "ccdlab_pipeline_earliest_toi": best["earliest"] * 1e3,
            "ccdlab_step": best["step"] * 1e3,
            "ccdlab_step_report_total": report_ms,
            "ipctk_total": ip["total"] * 1e3,
            "ipctk_broad_phase": ip["broad_phase"] * 1e3,
            "ipctk_narrow_phase": ip["narrow_phase"] * 1e3,
            "ipctk_mesh": ip["mesh"] * 1e3,
            "ipctk_with_mesh": (ip["total"] + ip["mesh"]) * 1e3,
        },
        "toi": {
            "ccdlab_lower": lower,
            "ccdlab_upper": upper,
            "ccdlab_earliest_toi_lower": e_lower,
            "ccdlab_earliest_toi_upper": e_upper,
            "ipctk_stepsize": stepsize,
        },
        "toi_check": {
            "passed": bool(check),
            "rule": "ipctk's step size (conservative) <= ccdlab's lower and upper bound; "
                    "no contact in ccdlab: ipctk's step size is 1",
        },
        "candidates": {
            "ipctk_vf": len(candidates.fv_candidates),
            "ipctk_ee": len(candidates.ee_candidates),
            "ccdlab_report_counts": {k: rep.get(k) for k in ("vf", "ee") if k in rep},
        },
    }


# --------------------------------------------------------------------------- per query


def timed(fn, min_time_s: float, rounds: int = 3) -> tuple[float, float]:
    """(fastest, mean) of at least `rounds` calls and `min_time_s` of calls, seconds."""
    best, spent, done = math.inf, 0.0, 0
    while done < rounds or spent < min_time_s:
        t = time.perf_counter_ns()
        fn()
        dt = (time.perf_counter_ns() - t) * 1e-9
        best, spent, done = min(best, dt), spent + dt, done + 1
    return best, spent / done


def fp_fn(hits, truth) -> tuple[int, int, int]:
    pos = fp = fn = 0
    for h, t in zip(hits, truth):
        pos += bool(t)
        fp += bool(h) and not t
        fn += bool(t) and not h
    return pos, fp, fn


def family(path: str) -> str:
    return "simulation" if "scalable-ccd" in path else "handcrafted"


def compare_set(source: dict, cap: int, min_time_s: float) -> dict:
    points, truth = peer_ipctk.load(source)
    points = np.ascontiguousarray(points, dtype=np.float64)
    kind = source["kind"]
    path = source["path"]
    n = len(points)
    root = data_root()
    label = str(path.relative_to(root)) if path.is_relative_to(root) else str(path)
    # The Rust solver's own time, in this process.
    rust = ccdlab.queries(str(path), min_time_ms=50)
    rs = rust["sets"][0]
    # Our batch call, one thread.
    batch = ccdlab.vertex_face_ccd_batch if kind == "vf" else ccdlab.edge_edge_ccd_batch
    hit, _, _ = batch(points, threads=1)
    pos, fp, fn = fp_fn(hit.tolist(), truth)
    batch_best, batch_mean = timed(lambda: batch(points, threads=1), max(min_time_s, 0.05))
    # Tight-Inclusion, on a sample of the biggest sets.
    k = max(1, math.ceil(n / cap))
    sub = points[::k]
    sub_truth = truth[::k]
    ti = peer_ipctk.score_set(label, kind, sub, sub_truth, min_time_s, 3)
    # The loop's own cost over the same argument tuples.
    pts = [tuple(sub[i, j] for j in range(8)) for i in range(len(sub))]
    extra = (peer_ipctk.TI_MIN_DISTANCE, peer_ipctk.TI_TMAX, peer_ipctk.TI_TOLERANCE, peer_ipctk.TI_MAX_ITERATIONS)
    args = [p + extra for p in pts]
    gc_was = gc.isenabled()
    gc.disable()
    try:
        empty_s, _ = timed(lambda: [None for a in args], min(min_time_s, 0.05))
    finally:
        if gc_was:
            gc.enable()
    return {
        "set": label,
        "family": family(str(path)),
        "kind": kind,
        "queries": n,
        "positives": pos,
        "ccdlab": {
            "false_positives": fp,
            "false_negatives": fn,
            "batch_ns": batch_mean / n * 1e9,
            "batch_fastest_ns": batch_best / n * 1e9,
            "rust_ns": rs["mean_ns"],
            "rust_false_positives": rs["false_positives"],
            "rust_false_negatives": rs["false_negatives"],
        },
        "ipctk": {
            "every": k,
            "queries": len(sub),
            "positives": ti["positives"],
            "false_positives": ti["false_positives"],
            "false_negatives": ti["false_negatives"],
            "ti_ns": ti["mean_ns"],
            "ti_loop_ns": ti["call_ns"],
            "aabb_loop_ns": ti["overhead_ns"],
            "empty_loop_ns": empty_s / len(sub) * 1e9,
            "passes": ti["passes"],
        },
    }


def summarize(sets: list[dict]) -> list[dict]:
    """Weighted means per family and kind (weights: each set's query count)."""
    rows = []
    for fam in ("handcrafted", "simulation"):
        for kind in ("vf", "ee"):
            group = [s for s in sets if s["family"] == fam and s["kind"] == kind]
            if not group:
                continue
            n = sum(s["queries"] for s in group)

            def mean(get):
                return sum(get(s) * s["queries"] for s in group) / n

            rows.append({
                "family": fam,
                "kind": kind,
                "sets": len(group),
                "queries": n,
                "ti_queries": sum(s["ipctk"]["queries"] for s in group),
                "ccdlab_fp": sum(s["ccdlab"]["false_positives"] for s in group),
                "ccdlab_fn": sum(s["ccdlab"]["false_negatives"] for s in group),
                "ti_fp": sum(s["ipctk"]["false_positives"] for s in group),
                "ti_fn": sum(s["ipctk"]["false_negatives"] for s in group),
                "rust_ns": mean(lambda s: s["ccdlab"]["rust_ns"]),
                "batch_ns": mean(lambda s: s["ccdlab"]["batch_ns"]),
                "ti_ns": mean(lambda s: s["ipctk"]["ti_ns"]),
                "ti_loop_ns": mean(lambda s: s["ipctk"]["ti_loop_ns"]),
                "aabb_loop_ns": mean(lambda s: s["ipctk"]["aabb_loop_ns"]),
                "empty_loop_ns": mean(lambda s: s["ipctk"]["empty_loop_ns"]),
            })
    return rows


# --------------------------------------------------------------------------- output


def print_tables(out: dict) -> None:
    st = out["stamp"]
    print(f"ccdlab {st['ccdlab']} vs ipctk {st['ipctk']} — {st['cpu']} ({st['logical_cpus']} logical CPUs), "
          f"commit {st['git_commit']}, {st['date']}, load {out['load_before']} -> {out['load_after']}")
    for s in out.get("steps", []):
        m = s["ms"]
        t = s["toi"]
        print(f"\nstep {s['scene']} ({s['vertices']} vertices, {s['faces']} faces), {s['threads']} threads, "
              f"fastest of {s['runs']} interleaved rounds, ms:")
        print(f"  ccdlab Pipeline (rebuild) {m['ccdlab_pipeline_rebuild']:9.2f}   "
              f"ccdlab.step {m['ccdlab_step']:9.2f} (its report: {m['ccdlab_step_report_total']:.2f})")
        print(f"  ccdlab Pipeline.earliest_toi (rebuild) {m['ccdlab_pipeline_earliest_toi']:9.2f}")
        print(f"  ipctk broad+narrow        {m['ipctk_total']:9.2f}   (broad {m['ipctk_broad_phase']:.2f}, "
              f"narrow {m['ipctk_narrow_phase']:.2f}; mesh {m['ipctk_mesh']:.2f} apart)")
        print(f"  ratios ipctk/ccdlab: total/Pipeline {m['ipctk_total'] / m['ccdlab_pipeline_rebuild']:.2f}x, "
              f"(total+mesh)/step {m['ipctk_with_mesh'] / m['ccdlab_step']:.2f}x, "
              f"total/earliest_toi {m['ipctk_total'] / m['ccdlab_pipeline_earliest_toi']:.2f}x")
        print(f"  earliest toi: ccdlab [{t['ccdlab_lower']!r}, {t['ccdlab_upper']!r}], "
              f"ipctk {t['ipctk_stepsize']!r}: {'ok' if s['toi_check']['passed'] else 'FAILED'} "
              "(ipctk's conservative step size <= ccdlab's bounds)")
    if out.get("queries"):
        print("\nper query, one thread, ns (TI sampled: every k-th query of the set)")
        print(f"{'set':<58} {'kind':>4} {'n':>6} {'k':>3} {'FP/FN':>7} {'rust':>8} {'batch':>8} "
              f"{'TI FP/FN':>9} {'TI':>11} {'TI loop':>11} {'aabb':>7} {'empty':>6}")
        for s in out["queries"]["sets"]:
            c, p = s["ccdlab"], s["ipctk"]
            name = s["set"] if len(s["set"]) <= 58 else "…" + s["set"][-57:]
            print(f"{name:<58} {s['kind']:>4} {s['queries']:>6} {p['every']:>3} "
                  f"{c['false_positives']:>3}/{c['false_negatives']:<3} {c['rust_ns']:>8.0f} {c['batch_ns']:>8.0f} "
                  f"{p['false_positives']:>5}/{p['false_negatives']:<3} {p['ti_ns']:>11.0f} {p['ti_loop_ns']:>11.0f} "
                  f"{p['aabb_loop_ns']:>7.0f} {p['empty_loop_ns']:>6.0f}")
        print()
        for r in out["queries"]["summary"]:
            print(f"{r['family']:<11} {r['kind']}: {r['queries']} queries (TI {r['ti_queries']}), "
                  f"ccdlab FP/FN {r['ccdlab_fp']}/{r['ccdlab_fn']}, TI {r['ti_fp']}/{r['ti_fn']}; "
                  f"rust {r['rust_ns']:.0f} ns, batch {r['batch_ns']:.0f} ns, TI {r['ti_ns']:.0f} ns "
                  f"(loop {r['ti_loop_ns']:.0f}, aabb loop {r['aabb_loop_ns']:.0f}, empty loop {r['empty_loop_ns']:.0f}); "
                  f"TI/batch {r['ti_ns'] / r['batch_ns']:.0f}x, TI loop/batch {r['ti_loop_ns'] / r['batch_ns']:.0f}x")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--threads", type=int, default=2, help="threads of both libraries for the whole step (default 2)")
    ap.add_argument("--runs", type=int, default=10, help="interleaved rounds of the whole step (default 10)")
    ap.add_argument("--pause-ms", type=float, default=100.0, help="pause between two timed steps (default 100)")
    ap.add_argument("--sample-cap", type=int, default=20000,
                    help="Tight-Inclusion runs on every k-th query of a set, k = ceil(n / cap) (default 20000)")
    ap.add_argument("--min-time-ms", type=float, default=200.0,
                    help="minimum time of the timed passes per set and library (default 200)")
    ap.add_argument("--no-step", action="store_true", help="skip the whole step")
    ap.add_argument("--no-queries", action="store_true", help="skip the per-query comparison")
    ap.add_argument("--json", metavar="PATH", help="also write the data to PATH")
    args = ap.parse_args()
    if args.threads < 1 or args.runs < 1 or args.sample_cap < 1 or args.min_time_ms < 0 or args.pause_ms < 0:
        ap.error("--threads, --runs and --sample-cap must be at least 1; times not negative")
    out = {"load_before": loadavg()}
    data = data_root()
    failed = []
    if not args.no_step:
        out["steps"] = []
        for name, f0, f1 in SCENES:
            print(f"step {name} ...", file=sys.stderr, flush=True)
            s = compare_step(name, data / "scalable-ccd" / f0, data / "scalable-ccd" / f1,
                             args.threads, args.runs, args.pause_ms / 1e3)
            out["steps"].append(s)
            if not s["toi_check"]["passed"]:
                failed.append(f"step {name}: time of impact check")
    if not args.no_queries:
        ipctk.set_num_threads(1)
        sources = []
        for sub in ("ccd-queries", "scalable-ccd"):
            if (data / sub).is_dir():
                sources.extend(peer_ipctk.discover(data / sub))
        sets = []
        for i, src in enumerate(sources):
            print(f"[{i + 1}/{len(sources)}] {src['path']}", file=sys.stderr, flush=True)
            s = compare_set(src, args.sample_cap, args.min_time_ms / 1e3)
            sets.append(s)
            c = s["ccdlab"]
            if c["false_positives"] or c["false_negatives"]:
                failed.append(f"{s['set']}: ccdlab FP/FN {c['false_positives']}/{c['false_negatives']}")
        out["queries"] = {"sets": sets, "summary": summarize(sets), "settings": {
            "sample_cap": args.sample_cap,
            "min_time_ms": args.min_time_ms,
            "ti": peer_ipctk.ti_settings(),
        }}
    out["load_after"] = loadavg()
    out["settings"] = {"threads": args.threads, "runs": args.runs, "pause_ms": args.pause_ms}
    out["stamp"] = machine_stamp(args.threads)
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(out, indent=2) + "\n")
    print_tables(out)
    for f in failed:
        print(f"error: {f}", file=sys.stderr)
    return 3 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
