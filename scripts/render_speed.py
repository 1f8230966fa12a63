#!/usr/bin/env python3
"""Render reports/speed/ (README.md and scaling.svg) from the JSON that scripts/report_speed.sh
records per scene: `ccdlab step --repeat N --rebuild --json` (built_*), the same without
`--rebuild` (refit_*), the same with `--toi-only` (toi_only_*), one-shot `ccdlab step --json` in fresh processes (fresh_*_K) and
`scripts/peer_ipctk.py step --broad-phase B --json` (ipctk_SCENE_B), one per broad phase of
ipctk; the fastest of them is the reference.

Usage: scripts/render_speed.py DATA_DIR OUT_DIR --scenes "S ..." --machine M --cpus N
       --threads T --commit C --date D --repeats N,M,K --broad-phases "B ..."


Standard library only.
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from pathlib import Path

# The same bracket check as the minimum-separation report's (this folder is on the path of a
# script run from it).
from render_min_distance import within_bracket

# The goals of issue "Speed, decided" (ratio of ipctk's step to ours, BVH built each step).
RATIO_GOAL = {"cloth-ball": 40.0, "funnel": 30.0}
OTHER_RATIO_GOAL = 20.0
FUNNEL_BUILD_GOAL_MS = 1.0
FRESH_GOAL = 1.5
SCALING_GOALS = {4: 4.4, 16: 18.0}
MEMORY_GOAL_KB = 2.0


def load(path: Path) -> dict:
    try:
        return json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as e:
        sys.exit(f"error: {path}: {e}")


def fmt_ms(x: float) -> str:
    return f"{x:.3g}" if x < 100 else f"{x:,.0f}"


def met(ok: bool) -> str:
    return "met" if ok else "**not met**"


def fastest_peer(runs: dict) -> dict:
    """The run of the broad phase whose whole step was fastest; when every one failed, the
    first one's failure."""
    ok = [r for r in runs.values() if "failed" not in r]
    if not ok:
        return next(iter(runs.values()))
    return min(ok, key=lambda r: r["time_ms"]["total"])


def scene_rows(data: Path, scenes: list[str], broad_phases: list[str]) -> dict:
    rows = {}
    for s in scenes:
        built = load(data / f"built_{s}.json")
        refit = load(data / f"refit_{s}.json")
        toi_only = load(data / f"toi_only_{s}.json")
        fresh = [load(p) for p in sorted(data.glob(f"fresh_{s}_*.json"))]
        peers = {b: load(data / f"ipctk_{s}_{b}.json") for b in broad_phases}
        # The first run builds the BVH, the others refit it: the refitted step is the
        # fastest of those.
        refit_runs = refit.get("runs_total_ms", [])[1:]
        if not refit_runs:
            sys.exit(f"error: refit_{s}.json: no refitted run (--repeat 2 or more)")
        if not fresh:
            sys.exit(f"error: no fresh_{s}_*.json")
        # The earliest time alone is the step's, or a bracket inside it.
        if not within_bracket(toi_only, built):
            sys.exit(f"error: {s}: the time-only bracket [{toi_only.get('toi')}, {toi_only.get('toi_upper')}] "
                     f"is not within the step's [{built.get('toi')}, {built.get('toi_upper')}]")
        # ipctk's time of impact is conservative: never after ours, whatever its broad phase.
        for b, p in peers.items():
            if "failed" not in p and p["toi"] is not None and built["toi"] is not None and p["toi"] > built["toi"]:
                sys.exit(f"error: {s}: ipctk's earliest time {p['toi']} ({b}) is after ours {built['toi']}")
        rows[s] = {
            "vertices": built["vertices"],
            "built": built,
            "refit_ms": min(refit_runs),
            "toi_only_ms": toi_only["time_ms"]["total"],
            "fresh": [f["time_ms"]["total"] for f in fresh],
            "fresh_build": [f["time_ms"]["bvh"] for f in fresh],
            "ipctk": fastest_peer(peers),
            "peers": peers,
        }
    return rows


def figure(rows: dict, scenes: list[str]) -> str:
    """Log-log plot of step time against vertex count for the generated cloth."""
    gen = [s for s in scenes if s.startswith("generated-")]
    w, h, left, right, top, bottom = 560, 360, 70, 150, 30, 50
    pts = {
        "ccdlab, BVH built": [(rows[s]["vertices"], rows[s]["built"]["time_ms"]["total"]) for s in gen],
        "ccdlab, refitted": [(rows[s]["vertices"], rows[s]["refit_ms"]) for s in gen],
        "ipctk, fastest broad phase": [(rows[s]["vertices"], rows[s]["ipctk"]["time_ms"]["total"]) for s in gen if "failed" not in rows[s]["ipctk"]],
    }
    colors = {"ccdlab, BVH built": "#1f77b4", "ccdlab, refitted": "#2ca02c", "ipctk, fastest broad phase": "#d62728"}
    xs = [x for p in pts.values() for x, _ in p]
    ys = [y for p in pts.values() for _, y in p]
    if not xs:
        return '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>\n'
    lx0, lx1 = math.floor(math.log10(min(xs))), math.ceil(math.log10(max(xs)))
    ly0, ly1 = math.floor(math.log10(min(ys))), math.ceil(math.log10(max(ys)))

    def px(x):
        return left + (math.log10(x) - lx0) / max(lx1 - lx0, 1) * (w - left - right)

    def py(y):
        return h - bottom - (math.log10(y) - ly0) / max(ly1 - ly0, 1) * (h - top - bottom)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<text x="{left}" y="18" font-size="14">generated cloth, frames 20→21: step time against vertices</text>']
    for e in range(lx0, lx1 + 1):
        x = px(10**e)
        out.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{h - bottom}" stroke="#ddd"/>')
        out.append(f'<text x="{x:.1f}" y="{h - bottom + 16}" text-anchor="middle">1e{e}</text>')
    for e in range(ly0, ly1 + 1):
        y = py(10**e)
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{w - right}" y2="{y:.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">1e{e}</text>')
    out.append(f'<text x="{(left + w - right) / 2}" y="{h - 12}" text-anchor="middle">vertices</text>')
    out.append(f'<text x="16" y="{(top + h - bottom) / 2}" transform="rotate(-90 16 {(top + h - bottom) / 2})" '
               'text-anchor="middle">ms</text>')
    # Linear reference through the smallest generated cloth's built step.
    (x0, y0) = pts["ccdlab, BVH built"][0]
    xe = max(xs)
    out.append(f'<line x1="{px(x0):.1f}" y1="{py(y0):.1f}" x2="{px(xe):.1f}" y2="{py(y0 * xe / x0):.1f}" '
               'stroke="#999" stroke-dasharray="4 3"/>')
    legend = list(pts.items()) + [("linear from the smallest", [])]
    for i, (name, p) in enumerate(legend):
        c = colors.get(name, "#999")
        if p:
            out.append('<polyline fill="none" stroke="{}" stroke-width="2" points="{}"/>'.format(
                c, " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in p)))
            out.extend(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3" fill="{c}"/>' for x, y in p)
        ly = top + 10 + 18 * i
        dash = ' stroke-dasharray="4 3"' if not p else ""
        out.append(f'<line x1="{w - right + 10}" y1="{ly}" x2="{w - right + 30}" y2="{ly}" stroke="{c}" stroke-width="2"{dash}/>')
        out.append(f'<text x="{w - right + 34}" y="{ly + 4}">{name}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("data")
    ap.add_argument("out")
    for name in ("scenes", "machine", "cpus", "threads", "commit", "date", "repeats", "broad-phases"):
        ap.add_argument(f"--{name}", required=True)
    a = ap.parse_args()
    data, out = Path(a.data), Path(a.out)
    scenes = a.scenes.split()
    broad_phases = a.broad_phases.split()
    if not broad_phases:
        sys.exit("error: --broad-phases names no broad phase")
    repeat, ipctk_repeat, fresh_n = a.repeats.split(",")
    rows = scene_rows(data, scenes, broad_phases)

    ratio_lines, goal_lines = [], []
    for s in scenes:
        r = rows[s]
        b, p = r["built"], r["ipctk"]
        bt, ft, ot = b["time_ms"]["total"], r["refit_ms"], r["toi_only_ms"]
        goal = RATIO_GOAL.get(s, OTHER_RATIO_GOAL)
        fresh_med = statistics.median(r["fresh"])
        if "failed" in p:
            peer = f"failed: {p['failed']} | – | – | – | ≥ {goal:g}×: not measured"
        else:
            pt = p["time_ms"]["total"]
            ratio = pt / bt
            peer = (f"{p['broad_phase']}: {fmt_ms(p['time_ms']['broad_phase'])} + "
                    f"{fmt_ms(p['time_ms']['narrow_phase'])} = {fmt_ms(pt)} | "
                    f"**{ratio:.1f}×** | {pt / ft:.1f}× | {pt / ot:.1f}× | ≥ {goal:g}×: {met(ratio >= goal)}")
        ratio_lines.append(
            f"| {s} | {r['vertices']:,} | {'on' if b['time_aligned'] else 'off'} | {fmt_ms(b['time_ms']['bvh'])} | "
            f"{fmt_ms(bt)} | {fmt_ms(ft)} | {fmt_ms(ot)} | {fmt_ms(min(r['fresh']))} / {fmt_ms(fresh_med)} | {peer} |"
        )
    peer_lines = []
    for s in scenes:
        r = rows[s]
        bt = r["built"]["time_ms"]["total"]
        cells = [s, f"{r['vertices']:,}"]
        for b in broad_phases:
            p = r["peers"][b]
            if "failed" in p:
                cells.append(f"failed: {p['failed']}")
            else:
                t = p["time_ms"]
                cells.append(f"{fmt_ms(t['broad_phase'])} + {fmt_ms(t['narrow_phase'])} = {fmt_ms(t['total'])} "
                             f"({t['total'] / bt:.1f}×)")
        peer_lines.append("| " + " | ".join(cells) + " |")

    fun = rows.get("funnel")
    if fun:
        bms = fun["built"]["time_ms"]["bvh"]
        goal_lines.append(f"- Funnel's BVH build on {a.threads} threads: {fmt_ms(bms)} ms (goal ≤ "
                          f"{FUNNEL_BUILD_GOAL_MS:g} ms): {met(bms <= FUNNEL_BUILD_GOAL_MS)}.")
        warm = fun["built"]["time_ms"]["total"]
        med = statistics.median(fun["fresh"])
        goal_lines.append(
            f"- A one-shot `ccdlab step` on funnel in a fresh process: median {fmt_ms(med)} ms of its "
            f"{len(fun['fresh'])} processes (their BVH build: median {fmt_ms(statistics.median(fun['fresh_build']))} "
            f"ms) against {fmt_ms(warm)} ms warm, {med / warm:.2f}× (goal ≤ {FRESH_GOAL:g}×): "
            f"{met(med <= FRESH_GOAL * warm)}.")

    scale_lines = []
    gen = [s for s in scenes if s.startswith("generated-")]
    base = rows.get("cloth-ball")
    gbase = rows[gen[0]] if gen else None
    for s in gen:
        r = rows[s]
        b = r["built"]
        cand = b["vf"]["candidates"] + b["ee"]["candidates"]
        kb = b["peak_rss_mb"] * 1024 / r["vertices"]
        cells = [s, f"{r['vertices']:,}", f"{fmt_ms(b['time_ms']['total'])}"]
        if base:
            cells.append(f"{r['vertices'] / base['vertices']:.2f}× / {b['time_ms']['total'] / base['built']['time_ms']['total']:.2f}×")
        gb = gbase["built"]
        gcand = gb["vf"]["candidates"] + gb["ee"]["candidates"]
        cells += [
            f"{r['vertices'] / gbase['vertices']:.2f}× / {b['time_ms']['total'] / gb['time_ms']['total']:.2f}×",
            f"{cand:,} ({cand / gcand:.1f}×)",
            f"{b['bvh_tests']['node_tests']:,} ({b['bvh_tests']['node_tests'] / gb['bvh_tests']['node_tests']:.1f}×)",
            f"{b['vf']['colliding'] + b['ee']['colliding']:,}",
            f"{b['peak_rss_mb']:,.0f} MiB, {kb:.2f} KB ({met(kb <= MEMORY_GOAL_KB)})",
        ]
        scale_lines.append("| " + " | ".join(cells) + " |")
    if base and len(gen) > 1:
        for s in gen[1:]:
            vr = rows[s]["vertices"] / base["vertices"]
            tr = rows[s]["built"]["time_ms"]["total"] / base["built"]["time_ms"]["total"]
            want = min(SCALING_GOALS, key=lambda k: abs(k - vr))
            if abs(vr - want) > 0.25 * want:
                continue
            goal_lines.append(f"- Scaling, {s} against cloth-ball ({vr:.1f}× the vertices): {tr:.1f}× the time "
                              f"(goal ≤ {SCALING_GOALS[want]:g}× at {want}×): {met(tr <= SCALING_GOALS[want])}.")

    md = [
        "# Speed against ipctk, BVH built each step",
        "",
        "Generated by `scripts/report_speed.sh`; do not edit by hand.",
        "",
        "| machine | logical CPUs | threads | commit | date |",
        "|---|---|---|---|---|",
        f"| {a.machine} | {a.cpus} | {a.threads} | `{a.commit}` | {a.date} |",
        "",
        "The measure of issue \"Speed, decided\": in one run on one machine and thread count, ipctk's",
        f"whole step (`scripts/peer_ipctk.py step`: a broad phase, then `compute_collision_free_stepsize`",
        f"with Tight-Inclusion; the fastest of {ipctk_repeat} runs, with the broad phase fastest on the",
        "scene, below) against ours (`ccdlab step` with the command line's defaults,",
        f"`--time-aligned auto` among them, the fastest of `--repeat {repeat} --rebuild`:",
        "the BVH built anew each run, over the memory of the last run). Beside it: the refitted step",
        f"(`--repeat {repeat}` without `--rebuild`, its fastest run a refit, as in a sequence), the",
        f"earliest time alone (`--toi-only --repeat {repeat} --rebuild`: the question ipctk's step",
        "answers, without our counts; its bracket is the step's or one inside it, which the script",
        f"checks), and {fresh_n} one-shot `ccdlab step` runs, each in a fresh process (what a",
        "command-line user sees: fresh memory and a new thread pool). ipctk's stepsize search",
        "lowers its time bound to the earliest time of impact found so far, so it does not decide",
        "every candidate as ours does.",
        "Absolute times hold for the stamped machine only.",
        "",
        "## Whole step",
        "",
        "| scene | vertices | time-aligned (auto) | our build ms | ours, built ms | ours, refitted ms | ours, time only ms | fresh process ms (fastest / median) | ipctk's fastest broad phase: broad + narrow = total ms | ipctk / ours built | ipctk / ours refitted | ipctk / ours time only | goal |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
        *ratio_lines,
        "",
        "## ipctk's broad phases",
        "",
        "ipctk's whole step with each of the broad phases it ships (`scripts/peer_ipctk.py step",
        "--broad-phase B`), the same narrow phase after each; in brackets, its time over ours (BVH built).",
        "`SweepAndPrune` is Scalable-CCD's CPU broad phase (Belgrod et al. 2023: sort and sweep over",
        "the swept boxes) as ipctk builds it in; with Tight-Inclusion, the narrow phase that",
        "Scalable-CCD's own builds on, after it, it is the nearest to Scalable-CCD on a CPU that ipctk",
        "offers. Scalable-CCD on a GPU is not measured here (no GPU on this machine).",
        "",
        "| scene | vertices | " + " | ".join(f"{b} ms" for b in broad_phases) + " |",
        "|---|---:|" + "---:|" * len(broad_phases),
        *peer_lines,
        "",
        "## Scaling: the generated cloth (`ccdlab generate --resolution R`, frames 20→21)",
        "",
        "![step time against vertices](scaling.svg)",
        "",
        "| scene | vertices | ours, built ms | × cloth-ball: vertices / time | × the smallest: vertices / time | candidates (×) | BVH node tests (×) | colliding pairs | peak memory, per vertex (goal ≤ 2 KB) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
        *scale_lines,
        "",
        "The finer cloth is not the same problem at a larger size: the same motion per step",
        "crosses more, smaller elements, and the candidates and BVH node tests (the work) grow",
        "faster than the vertex count; the columns give both.",
        "",
        "## Goals",
        "",
        *goal_lines,
        "",
        "The JSON of every run is in `data/`.",
    ]
    out.mkdir(parents=True, exist_ok=True)
    (out / "README.md").write_text("\n".join(md) + "\n")
    (out / "scaling.svg").write_text(figure(rows, scenes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
