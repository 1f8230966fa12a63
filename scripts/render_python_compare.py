#!/usr/bin/env python3
"""Render reports/python/README.md from the JSON that scripts/report_python.sh records:
`compare.json` (scripts/compare_ipctk.py --json) and, when present, `overhead.json`
(scripts/batch_overhead_instructions.py --json).

Usage: scripts/render_python_compare.py DATA_DIR OUT_FILE
Standard library only.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path


def load(path: Path):
    try:
        return json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as e:
        sys.exit(f"error: {path}: {e}")


def ns(x: float) -> str:
    """A time per query given in ns, with its unit."""
    if x >= 10_000_000:
        return f"{x / 1e6:,.1f} ms"
    if x >= 100_000:
        return f"{x / 1e3:,.0f} µs"
    if x >= 10_000:
        return f"{x / 1e3:,.1f} µs"
    return f"{x:,.0f} ns"


def ms(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:.2f}"


def toi(x) -> str:
    return "none" if x is None else f"{x:.9g}"


def render(data: Path) -> str:
    c = load(data / "compare.json")
    st = c["stamp"]
    L = []
    L.append("# Python: ccdlab beside ipctk, in one process")
    L.append("")
    L.append(
        "ccdlab's Python package and IPC Toolkit's (PyPI `ipctk`) on the same numpy arrays in one "
        "Python process: the whole step of two scenes and every ground-truth query. Regenerate with "
        "`scripts/report_python.sh` (it builds and installs the package into a fresh virtual "
        "environment with ipctk, runs `scripts/compare_ipctk.py` and "
        "`scripts/batch_overhead_instructions.py`, and renders this page with "
        "`scripts/render_python_compare.py` from `data/`). Do not edit by hand."
    )
    L.append("")
    L.append(
        f"- Machine: {st['cpu']} ({st['logical_cpus']} logical CPUs, {st['os']}); load averages "
        f"{c['load_before']} before, {c['load_after']} after"
    )
    L.append(
        f"- ccdlab {st['ccdlab']}, ipctk {st['ipctk']}, Python {st['python']}, numpy {st['numpy']}; "
        f"commit `{st['git_commit']}`, {st['date']}"
    )
    L.append("")
    steps = c.get("steps") or []
    if steps:
        s0 = c["settings"]
        L.append("## Whole step")
        L.append("")
        L.append(
            f"{s0['threads']} threads in both libraries (`threads=` and `ipctk.set_num_threads`), the "
            f"fastest of {s0['runs']} interleaved rounds (a {s0['pause_ms']:.0f} ms pause between two "
            "timed calls), wall time of each call in ms. ccdlab: a `Pipeline` that builds its BVH anew "
            "each step (`rebuild_next()`; its memory and threads kept) for the whole step (`step`: every "
            "pair decided) and for the earliest time alone (`earliest_toi`: the question ipctk's call "
            "answers; its bracket lies within the step's, checked), and the one-shot `ccdlab.step` "
            "(topology, thread pool and memory made in the call). ipctk: LBVH broad phase + "
            "`compute_collision_free_stepsize` with `TightInclusionCCD(1e-6, 1e6, 1.0)` as "
            "`scripts/peer_ipctk.py step` runs it (that call stops at the earliest time of impact found "
            "so far: it does not decide every candidate); its mesh (`ipctk.edges`, `CollisionMesh`) "
            "apart. The ratios are ipctk's time over ccdlab's."
        )
        L.append("")
        L.append(
            "| scene | ccdlab `Pipeline.step` (rebuild) | ccdlab `Pipeline.earliest_toi` (rebuild) | "
            "ccdlab `step` | ipctk broad + narrow | ipctk mesh | ipctk / `Pipeline.step` | "
            "ipctk / `earliest_toi` | ipctk + mesh / `step` | ccdlab earliest TOI [lower, upper] | "
            "ipctk step size | check |"
        )
        L.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|:---:|")
        for s in steps:
            m, t = s["ms"], s["toi"]
            L.append(
                f"| {s['scene']} ({s['vertices']:,} V, {s['faces']:,} F) | {ms(m['ccdlab_pipeline_rebuild'])} | "
                f"{ms(m['ccdlab_pipeline_earliest_toi'])} | "
                f"{ms(m['ccdlab_step'])} | {ms(m['ipctk_total'])} | {ms(m['ipctk_mesh'])} | "
                f"{m['ipctk_total'] / m['ccdlab_pipeline_rebuild']:.2f}× | "
                f"{m['ipctk_total'] / m['ccdlab_pipeline_earliest_toi']:.2f}× | "
                f"{m['ipctk_with_mesh'] / m['ccdlab_step']:.2f}× | "
                f"[{toi(t['ccdlab_lower'])}, {toi(t['ccdlab_upper'])}] | {toi(t['ipctk_stepsize'])} | "
                f"{'✓' if s['toi_check']['passed'] else '✗'} |"
            )
        L.append("")
        L.append(
            "Check: ipctk's step size is conservative (at or before the true earliest time of impact), so "
            "it must not exceed ccdlab's lower bound (nor its upper bound); ✓ where it holds."
        )
        L.append("")
        L.append(
            "Candidate pairs (vertex–face + edge–edge): ccdlab's after its BVH (26-DOP), and the pairs "
            "it finds colliding on [0, 1]; ipctk's after its LBVH (swept AABBs)."
        )
        L.append("")
        L.append("| scene | ccdlab candidates | ccdlab colliding | ipctk candidates |")
        L.append("|---|---:|---:|---:|")
        for s in steps:
            cc = s["candidates"]["ccdlab_report_counts"]
            L.append(
                f"| {s['scene']} | {cc['vf']['candidates']:,} + {cc['ee']['candidates']:,} | "
                f"{cc['vf']['colliding']:,} + {cc['ee']['colliding']:,} | "
                f"{s['candidates']['ipctk_vf']:,} + {s['candidates']['ipctk_ee']:,} |"
            )
        L.append("")
    q = c.get("queries")
    if q:
        cap = q["settings"]["sample_cap"]
        L.append("## Per query")
        L.append("")
        L.append(
            "Every ground-truth query set under the data root, one thread, time per query. "
            "*rust*: the Rust solver's own mean (`ccdlab.queries`, each set repeated for at least 50 ms). "
            "*batch*: `ccdlab.vertex_face_ccd_batch` / `edge_edge_ccd_batch(points, threads=1)` on the "
            f"(n, 8, 3) array, the mean of repeated calls (at least 3 and "
            f"{max(q['settings']['min_time_ms'], 50):.0f} ms of them). "
            "Tight-Inclusion's columns: the fastest of its passes (one pass where a pass takes seconds). *TI*: `ipctk.tight_inclusion.point_triangle_ccd` / "
            "`edge_edge_ccd` with the benchmark's settings (tolerance 1e-6, at most 10⁶ iterations, "
            "minimum separation 0); ipctk has no batch call, so it is called from a Python loop once per "
            "query (*TI loop*); *aabb loop*, the same loop calling `ipctk.*_aabb_ccd` (argument "
            "conversion, almost no work); *TI* = TI loop − aabb loop, the solver's own time; *empty "
            "loop*: the same list comprehension calling nothing. "
            f"Tight-Inclusion runs on every k-th query of the sets above {cap:,} queries (k in the table); "
            "its FP / FN count that sample. FP / FN against the exact truth."
        )
        L.append("")
        L.append(
            "| family | kind | queries (TI) | ccdlab FP / FN | TI FP / FN | rust | batch | TI | TI loop | "
            "aabb loop | empty loop | TI / rust | TI loop / batch |"
        )
        L.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for r in q["summary"]:
            L.append(
                f"| {r['family']} | {r['kind']} | {r['queries']:,} ({r['ti_queries']:,}) | "
                f"{r['ccdlab_fp']} / {r['ccdlab_fn']} | {r['ti_fp']} / {r['ti_fn']} | {ns(r['rust_ns'])} | "
                f"{ns(r['batch_ns'])} | {ns(r['ti_ns'])} | {ns(r['ti_loop_ns'])} | {ns(r['aabb_loop_ns'])} | "
                f"{ns(r['empty_loop_ns'])} | {r['ti_ns'] / r['rust_ns']:,.0f}× | "
                f"{r['ti_loop_ns'] / r['batch_ns']:,.0f}× |"
            )
        L.append("")
        L.append("Means weighted by each set's query count. Per set:")
        L.append("")
        L.append("| set | kind | queries | k | ccdlab FP / FN | TI FP / FN | rust | batch | TI | TI loop | aabb loop | empty loop |")
        L.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for s in q["sets"]:
            cc, p = s["ccdlab"], s["ipctk"]
            L.append(
                f"| {s['set']} | {s['kind']} | {s['queries']:,} | {p['every']} | "
                f"{cc['false_positives']} / {cc['false_negatives']} | {p['false_positives']} / {p['false_negatives']} | "
                f"{ns(cc['rust_ns'])} | {ns(cc['batch_ns'])} | {ns(p['ti_ns'])} | {ns(p['ti_loop_ns'])} | "
                f"{ns(p['aabb_loop_ns'])} | {ns(p['empty_loop_ns'])} |"
            )
        L.append("")
    ov_path = data / "overhead.json"
    if ov_path.exists():
        o = load(ov_path)
        L.append("## The batch call's cost per query beyond the solver (instruction counts)")
        L.append("")
        L.append(o["method"])
        L.append("")
        if "stamp" in o:
            so = o["stamp"]
            L.append(
                f"Measured {so['date']} at commit `{so['git_commit']}`; load averages {o['load_before']} "
                f"before, {o['load_after']} after."
            )
            L.append("")
        L.append(
            "| set | kind | queries | solver instr. / query | batch call instr. / query (net of the empty call) | "
            "overhead instr. / query | solver ns / query (wall) | overhead ns / query (at the solver's rate) |"
        )
        L.append("|---|---|---:|---:|---:|---:|---:|---:|")
        for s in o["sets"]:
            L.append(
                f"| {s['set']} | {s['kind']} | {s['queries']:,} | {s['solver_ir_per_query']:,.0f} | "
                f"{s['batch_ir_per_query']:,.0f} | {s['overhead_ir_per_query']:,.0f} | "
                f"{s['solver_ns_per_query']:,.0f} | {s['overhead_ns_per_query']:.1f} |"
            )
        L.append("")
        L.append(
            f"Fixed cost of one call (empty batch, instructions): vf {o['empty_call_ir']['vf']:,}, "
            f"ee {o['empty_call_ir']['ee']:,}. Goal: at most 50 ns a query beyond the solver on the "
            f"simulation sets; {o['verdict']}"
        )
        L.append("")
    return "\n".join(L)


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    text = render(Path(sys.argv[1]))
    Path(sys.argv[2]).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
