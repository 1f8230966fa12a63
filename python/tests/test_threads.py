"""The interpreter lock is released while Rust works, and a forked worker
process (multiprocessing's "fork") runs steps: nothing global is inherited."""

import multiprocessing
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import ccdlab
from conftest import BALL, FUNNEL


def test_other_python_threads_run_during_a_step(ball):
    V0, V1, F = ball
    state = {"started": False, "done": False, "ticks": 0}

    def work():
        state["started"] = True
        ccdlab.step(V0, V1, F, threads=1, time_aligned="off")
        state["done"] = True

    t = threading.Thread(target=work)
    t.start()
    while not state["started"]:
        time.sleep(0)
    while not state["done"]:
        state["ticks"] += 1
        time.sleep(0.001)
    t.join()
    # With the lock held for the whole step this loop could not have run.
    assert state["ticks"] > 5


# What a forked child inherits: a pipeline whose pool the parent built.
_INHERITED = None


def _child_step(queries):
    pipeline, V0, V1, F = _INHERITED
    r = pipeline.step(V0, V1)
    fresh = ccdlab.step(V0, V1, F, threads=2)
    hit, _, _ = ccdlab.vertex_face_ccd_batch(queries, threads=2)
    return r.toi, fresh.toi, int(hit.sum())


@pytest.mark.skipif(sys.platform != "linux", reason="fork start method")
def test_a_forked_worker_runs_steps(funnel):
    global _INHERITED
    V0, V1, F = funnel
    p = ccdlab.Pipeline(F, threads=2)
    toi = p.step(V0, V1).toi  # the parent's pool exists before the fork
    queries = np.stack([np.stack([V0[F[i, 0]], V0[F[i, 0]], V0[F[i, 1]], V0[F[i, 2]]] * 2) for i in range(50)])
    hits = int(ccdlab.vertex_face_ccd_batch(queries, threads=2)[0].sum())
    _INHERITED = (p, V0, V1, F)
    try:
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(1) as pool:
            got = pool.apply_async(_child_step, (queries,)).get(timeout=120)
    finally:
        _INHERITED = None
    assert got == (toi, toi, hits)


def _child_drops_its_inherited_pipeline():
    global _INHERITED
    _INHERITED = None  # the pipeline, and the pool its parent built, dropped
    return "dropped"


@pytest.mark.skipif(sys.platform != "linux", reason="fork start method")
def test_a_forked_worker_drops_an_inherited_pipeline(funnel):
    # The child has the parent's pool but not its threads: dropping it must
    # not wait for them.
    global _INHERITED
    V0, V1, F = funnel
    p = ccdlab.Pipeline(F, threads=2)
    p.step(V0, V1)
    _INHERITED = p
    try:
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(1) as pool:
            got = pool.apply_async(_child_drops_its_inherited_pipeline).get(timeout=120)
    finally:
        _INHERITED = None
    assert got == "dropped"


def test_a_pipeline_stepping_in_another_thread_says_so(ball):
    V0, V1, F = ball
    p = ccdlab.Pipeline(F, threads=1, time_aligned="off")
    state = {"started": False, "done": False, "busy": []}

    def work():
        state["started"] = True
        p.step(V0, V1)
        state["done"] = True

    t = threading.Thread(target=work)
    t.start()
    while not state["started"]:
        time.sleep(0)
    # The step releases the interpreter lock, so this thread runs while it
    # holds the pipeline.
    while not state["done"]:
        try:
            p.rebuild_next()
        except RuntimeError as e:
            state["busy"].append(str(e))
        # Its properties can be read meanwhile.
        assert p.num_vertices in (None, len(V0)) and p.faces.shape == F.shape
        assert p.config["threads"] == 1 and repr(p).startswith("Pipeline(")
        time.sleep(0.001)
    t.join()
    assert state["busy"], "the step ended before this thread saw it running"
    assert all("is already running a step" in m for m in state["busy"])
    assert p.num_vertices == len(V0)
    # Free again: it takes changes and steps.
    p.rebuild_next()
    assert p.step(V0, V1).report["bvh"] == "build"


_THREADS_LEFT = """
import sys
import numpy as np
import ccdlab

def threads():
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("Threads:"))

V0, F = ccdlab.read_mesh(sys.argv[1])
V1 = V0 + 0.01
before = threads()
ccdlab.edges(F)
ccdlab.step(V0, V1, F, threads=2)
ccdlab.Pipeline(F, threads=2, num_vertices=len(V0))
ccdlab.vertex_face_ccd_batch(np.zeros((4, 8, 3)), threads=2)
print(before, threads())
"""


@pytest.mark.skipif(sys.platform != "linux", reason="/proc/self/status")
def test_one_shot_calls_leave_no_worker_threads_behind():
    # In a fresh interpreter, so that no earlier test's objects hold a pool:
    # every call's workers are its own and have exited when it returns (a
    # global pool would stay, and a forked child would inherit it without
    # its threads).
    out = subprocess.run([sys.executable, "-c", _THREADS_LEFT, str(FUNNEL / "frames" / "227.ply")],
                         capture_output=True, text=True, timeout=120, check=True).stdout
    before, after = map(int, out.split())
    assert after == before


_INTERRUPTED = """
import _thread, signal, sys, threading
import ccdlab

# Ctrl-C's handler, also where the test runner was started with SIGINT
# ignored (a background job): interrupt_main() does nothing without it.
signal.signal(signal.SIGINT, signal.default_int_handler)
V0, F = ccdlab.read_mesh(sys.argv[1])
V1, _ = ccdlab.read_mesh(sys.argv[2])
# Features within d = 10 of each other (cloth-ball is about 26 across):
# billions of candidate pairs to decide, far beyond the timeout below unless
# interrupted.
p = ccdlab.Pipeline(F, threads=2, min_distance=10.0)
for run in (lambda: p.step(V0, V1), lambda: ccdlab.step(V0, V1, F, threads=2, min_distance=10.0)):
    threading.Timer(0.5, _thread.interrupt_main).start()  # as Ctrl-C does
    try:
        run()
        print("finished")
    except KeyboardInterrupt:
        print("interrupted")
# The interrupted pipeline is free again (not held by the cancelled step).
p.rebuild_next()
print(p.num_vertices == len(V0))
"""


def test_ctrl_c_interrupts_a_long_step():
    # A fresh interpreter, so that the interrupt reaches no other test. The
    # timeout guards against a step that was not interrupted.
    out = subprocess.run([sys.executable, "-c", _INTERRUPTED, str(BALL / "frames" / "cloth_ball92.ply"),
                          str(BALL / "frames" / "cloth_ball93.ply")],
                         capture_output=True, text=True, timeout=120, check=True).stdout
    assert out.split() == ["interrupted", "interrupted", "True"]


_BATCH_INTERRUPTED = """
import _thread, signal, threading
import numpy as np
import ccdlab

signal.signal(signal.SIGINT, signal.default_int_handler)
# A vertex passing an edge of a fixed triangle at a distance that rounds to
# 0.5 (the line x = -0.3, z = 0.4 against the y axis; the doubles nearest
# -0.3 and 0.4 put it a hair farther): a near-tangency that takes the exact
# path, a fraction of a millisecond each, so 100,000 take several seconds
# unless interrupted.
q = np.zeros((100_000, 8, 3))
q[:, 1:4] = q[:, 5:8] = [[0, 0, 0], [1, 0, 0], [0, 1, 0]]
q[:, 0], q[:, 4] = [-0.3, -1, 0.4], [-0.3, 2, 0.4]
for threads in (1, 2):
    threading.Timer(0.5, _thread.interrupt_main).start()
    try:
        ccdlab.vertex_face_ccd_batch(q, min_distance=0.5, threads=threads)
        print("finished")
    except KeyboardInterrupt:
        print("interrupted")
# A few of the same queries still answer (they do not come within 0.5).
print(not ccdlab.vertex_face_ccd_batch(q[:4], min_distance=0.5)[0].any())
"""


def test_ctrl_c_interrupts_a_long_batch():
    # On the calling thread (threads=1) and on a pool (threads=2).
    out = subprocess.run([sys.executable, "-c", _BATCH_INTERRUPTED],
                         capture_output=True, text=True, timeout=120, check=True).stdout
    assert out.split() == ["interrupted", "interrupted", "True"]
