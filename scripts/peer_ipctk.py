#!/usr/bin/env python3
"""Peer comparison: IPC Toolkit's Tight-Inclusion CCD (PyPI `ipctk`) on ccdlab's data.

Usage:
  scripts/peer_ipctk.py queries [--json] [--min-time-ms MS] [--rounds N] [--min-distance D] PATH...
  scripts/peer_ipctk.py step FRAME0 FRAME1 [--threads N] [--repeat N] [--broad-phase B] [--no-counts]
                             [--min-distance D] [--json]
  scripts/peer_ipctk.py ti-pairs FRAME0 FRAME1 --pairs FILE --min-distance D [--threads N] [--json]

On first use the script creates a virtual environment (`.venv` in the checkout, or
$CCDLAB_PY_VENV, which the other report scripts read too), installs the pinned `ipctk` there
with pip, and re-executes itself inside it. pip's output goes to stderr, so `--json` keeps stdout to one JSON object.

`queries` finds the same query sets as `ccdlab queries PATH...` (query CSVs, Sample-Queries
scene folders, Scalable-CCD scenes with `mma_bool` truth, cloth-ball rebuilt from its PLY
frames and `boxes/*.json` with global IDs vertex i, edge #V+j, face #V+#E+k and libigl
`edges(F)` order) and runs Tight-Inclusion on every query with the settings of the published
benchmark (Wang et al. 2021, the Tight-Inclusion repository's app/main.cpp): minimum
separation 0 (`--min-distance D`: ms = D, its gap in the ∞-norm; the scores stay against the
contact truth, and `hits` counts the queries it reports), tolerance 1e-6, at most 1e6
iterations, t_max = 1, numerical error filter (-1,-1,-1) (computed per query), breadth-first
search, no_zero_toi off. It calls
`ipctk.tight_inclusion.point_triangle_ccd` / `edge_edge_ccd`: the Tight-Inclusion library
itself, without IPC's conservative rescaling. The JSON has the shape of
`ccdlab queries --json`, with `solver` = "ipctk-tight-inclusion" and a `peer` object.

Timing (per set): a pass calls Tight-Inclusion once per query from a Python list
comprehension over pre-built arguments (the first pass's answers are scored, later passes
must agree); a baseline pass calls `ipctk.point_triangle_aabb_ccd` /
`edge_edge_aabb_ccd` (the same eight 3-vectors through the same pybind11/Eigen argument
conversion, and a few comparisons of work) on the same arguments. Passes alternate, at least
--rounds times and until --min-time-ms of Tight-Inclusion passes; `mean_ns` = (fastest
Tight-Inclusion pass - fastest baseline pass) / queries (sets that take seconds per pass
get fewer than --rounds passes). `call_ns` and `overhead_ns` give
both terms. The subtraction removes the interpreter and argument conversion, and also the
baseline's own few nanoseconds of work, so it never overstates Tight-Inclusion's time.

`step` times ipctk's whole step on two frames, on --threads TBB threads: a broad phase
(`Candidates.build(mesh, V0, V1, inflation_radius=0, broad_phase=B())`, which yields
vertex-face and edge-edge candidates for a triangle mesh; B is --broad-phase, one of
BROAD_PHASES below, LBVH by default) and its narrow phase
(`Candidates.compute_collision_free_stepsize` with `TightInclusionCCD(tolerance=1e-6,
max_iterations=1e6, conservative_rescaling=1.0)`, minimum distance 0; rescaling 1.0 makes
it look for contact, as ccdlab does, instead of stopping short of it as IPC's default 0.8
does). That call is ipctk's own whole-step API: it shrinks t_max to the earliest time of
impact found so far, so it does not decide every candidate on [0, 1]; its result is the
earliest (conservative) time of impact. The colliding VF / EE counts come from a separate,
untimed pass that calls the same narrow phase on every candidate with t_max = 1, on
--threads forked processes (skip it with --no-counts: it calls ipctk once per candidate
from Python, minutes on cloth-ball). Building the edges (`ipctk.edges`) and the
`CollisionMesh` is timed apart (`time_ms.mesh`), outside the step's `total`; reading the
frames is not timed.

With `--min-distance D` (D >= 0), `step` asks for a separation of D: the broad phase grows
every box by D/2 (`inflation_radius = D/2`, so boxes within D of each other overlap), and the
narrow phase gets `min_distance = D` (the timed call and the counting pass). Tight-Inclusion's
minimum separation bounds the gap in the infinity norm, so its positives contain the pairs
within Euclidean distance D.

`ti-pairs` is a check of ccdlab, not a timing: it reads the colliding pairs that
`ccdlab step --pairs FILE --min-distance D` wrote (CSV `kind,id_a,id_b,toi_lower,toi_upper`,
global IDs: vertex i, edge #V+j in libigl `edges(F)` order, face #V+#E+k) and runs
`ipctk.tight_inclusion.point_triangle_ccd` / `edge_edge_ccd` on each with ms = D and the
benchmark settings above (t_max 1, tolerance 1e-6, at most 1e6 iterations, BFS), on --threads
forked processes. Every pair ccdlab reports must be reported by Tight-Inclusion (a conservative
peer: its positives contain the exact ones); the pairs it does not report are listed and the
script exits with code 3. For information it also counts the pairs that the narrow phase of
`step` (IPC's `TightInclusionCCD(1e-6, 1e6, 1.0)` wrapper, `min_distance = D`, t_max 1) does
not report; that wrapper is not the check.

Bad input (malformed CSV/JSON/PLY/OBJ, a value that is not exactly a double, a zero
denominator, a row count not divisible by 8, a truth file of the wrong length, indices out
of range, NaN/inf, mismatched frames) stops the script with a message naming the file and
line or element, exit code 1, before anything is printed on stdout.

Standard library + numpy + ipctk; Python >= 3.11.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import re
import struct
import subprocess
import sys
import time
import venv
from fractions import Fraction
from pathlib import Path

IPCTK_VERSION = "1.6.1"
ROOT = Path(__file__).resolve().parent.parent
VENV = Path(os.environ.get("CCDLAB_PY_VENV", ROOT / ".venv"))
_INSTALL_GUARD = "CCDLAB_PEER_IPCTK_INSTALLED"

# Published benchmark settings of Tight-Inclusion (Wang et al. 2021).
TI_TOLERANCE = 1e-6
TI_MAX_ITERATIONS = 1_000_000
TI_MIN_DISTANCE = 0.0
TI_TMAX = 1.0
# A set whose passes already took this long gets no further passes for `--rounds`.
ROUNDS_BUDGET_S = 2.0

# ipctk's broad phases that `step --broad-phase` offers, with what each one is.
BROAD_PHASES = {
    "LBVH": "a linear BVH over the swept boxes, in Morton order (ipctk 1.6.1's default)",
    "SweepAndPrune": "Scalable-CCD's CPU sort and sweep (Belgrod et al. 2023), as ipctk builds it in",
    "HashGrid": "a uniform hash grid (ipctk's default in earlier releases)",
    "SpatialHash": "a spatial hash of the boxes",
}


class InputError(Exception):
    """Bad input; the message names the file and the line or element."""


# --------------------------------------------------------------------------- environment


def _venv_python() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def _in_venv() -> bool:
    try:
        return Path(sys.prefix).resolve() == VENV.resolve()
    except OSError:
        return False


def ensure_environment() -> None:
    """Re-executes inside the venv (creating it and installing ipctk when needed)."""
    if not _in_venv():
        py = _venv_python()
        if not py.exists():
            print(f"peer_ipctk: creating {VENV}", file=sys.stderr)
            try:
                venv.EnvBuilder(with_pip=True).create(VENV)
            except Exception as e:  # noqa: BLE001 - report any failure of venv creation
                sys.exit(f"error: cannot create the virtual environment {VENV}: {e}")
        os.execv(str(py), [str(py), str(Path(__file__).resolve()), *sys.argv[1:]])
    try:
        import ipctk  # noqa: F401

        if getattr(ipctk, "__version__", None) == IPCTK_VERSION:
            return
    except ImportError:
        pass
    if os.environ.get(_INSTALL_GUARD):
        sys.exit(f"error: ipctk=={IPCTK_VERSION} is still not importable in {VENV} after pip install")
    print(f"peer_ipctk: installing ipctk=={IPCTK_VERSION} into {VENV}", file=sys.stderr)
    r = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--disable-pip-version-check", f"ipctk=={IPCTK_VERSION}"],
        stdout=sys.stderr,
        stderr=sys.stderr,
    )
    if r.returncode != 0:
        sys.exit(
            f"error: pip could not install ipctk=={IPCTK_VERSION} into {VENV} "
            f"(Python {platform.python_version()}; no network, or no wheel for this platform?)"
        )
    os.environ[_INSTALL_GUARD] = "1"
    os.execv(sys.executable, [sys.executable, str(Path(__file__).resolve()), *sys.argv[1:]])


# --------------------------------------------------------------------------- provenance


def _command_output(args: list[str]) -> str:
    try:
        r = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    out = r.stdout.strip()
    return out if r.returncode == 0 and out else "unknown"


def stamp(threads: int) -> dict:
    """The fields of ccdlab's `Stamp` (src/harness/stamp.rs)."""
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    arch = {"amd64": "x86_64", "arm64": "aarch64"}.get(platform.machine().lower(), platform.machine())
    return {
        "cpu": cpu,
        "logical_cpus": os.cpu_count() or 1,
        "threads": threads,
        "git_commit": _command_output([str(ROOT / "scripts" / "commit_stamp.sh")]),
        "date": _command_output(["date", "-u", "+%Y-%m-%dT%H:%M:%SZ"]),
        "os": f"{platform.system().lower()}-{arch}",
    }


# --------------------------------------------------------------------------- readers

_INTEGER = re.compile(r"[+-]?[0-9]+")


def rational_to_float(num: str, den: str) -> float:
    """num/den as the double it equals exactly; ValueError (with the reason) otherwise."""
    n, d = num.strip(), den.strip()
    for field in (n, d):
        if not _INTEGER.fullmatch(field):
            raise ValueError(f"`{field}` is not an integer")
    if int(d) == 0:
        raise ValueError("zero denominator")
    q = Fraction(int(n), int(d))
    if q.denominator & (q.denominator - 1):
        raise ValueError(
            f"not a double: in lowest terms the denominator {q.denominator} is not a power of two"
        )
    try:
        x = float(q)  # correctly rounded; exact when representable
    except OverflowError:
        raise ValueError("not a double: beyond the largest finite double") from None
    if Fraction(x) != q:
        raise ValueError("not a double: more significant bits than a double holds, or below 2^-1074")
    return x + 0.0  # -0.0 -> +0.0, as ccdlab


def read_query_csv(path: Path) -> tuple[list, list | None]:
    """8 rows per query: x_num,x_den,y_num,y_den,z_num,z_den[,truth]."""
    try:
        data = path.read_bytes()
    except OSError as e:
        raise InputError(f"{path}: {e.strerror or e}") from None
    rows: list[tuple[float, float, float]] = []
    truth: list[bool] = []
    columns = None
    query_truth = None
    first_line = 0
    for k, raw in enumerate(data.split(b"\n")):
        line = k + 1
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise InputError(f"{path}:{line}: the line is not valid UTF-8 text") from None
        text = text.removesuffix("\r")
        if not text.strip():
            continue
        fields = text.split(",")
        if len(fields) not in (6, 7):
            raise InputError(
                f"{path}:{line}: {len(fields)} fields; a row has 6 (x, y, z as numerator, "
                "denominator) or 7 (and the truth)"
            )
        if columns is None:
            columns = len(fields)
        elif len(fields) != columns:
            raise InputError(f"{path}:{line}: {len(fields)} fields, but the rows before have {columns}")
        slot = len(rows) % 8
        if slot == 0:
            first_line = line
        p = []
        for axis in range(3):
            try:
                p.append(rational_to_float(fields[2 * axis], fields[2 * axis + 1]))
            except ValueError as e:
                raise InputError(
                    f"{path}:{line}: {'xyz'[axis]} = {fields[2 * axis].strip()}/"
                    f"{fields[2 * axis + 1].strip()}: {e}"
                ) from None
        if columns == 7:
            t = fields[6].strip()
            if t not in ("0", "1"):
                raise InputError(f"{path}:{line}: column 7: the truth must be 0 or 1, not `{t}`")
            t = t == "1"
            if slot > 0 and t != query_truth:
                raise InputError(
                    f"{path}:{line}: column 7: the truth {int(t)} differs from the "
                    f"{int(query_truth)} on this query's first row (line {first_line})"
                )
            query_truth = t
            if slot == 7:
                truth.append(t)
        rows.append((p[0], p[1], p[2]))
    if not rows:
        raise InputError(f"{path}: no queries (the file is empty)")
    if len(rows) % 8:
        raise InputError(
            f"{path}:{first_line}: {len(rows)} rows is not a multiple of 8 "
            f"(the query starting on line {first_line} is incomplete)"
        )
    return rows, (truth if columns == 7 else None)


def read_json(path: Path):
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as e:
        raise InputError(f"{path}: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise InputError(f"{path}: byte {e.start}: not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"{path}:{e.lineno}:{e.colno}: malformed JSON: {e.msg}") from None


def read_mma_bool(path: Path) -> list[bool]:
    value = read_json(path)
    if not isinstance(value, list):
        raise InputError(f"{path}: expected a JSON array of booleans")
    for i, b in enumerate(value):
        if not isinstance(b, bool):
            raise InputError(f"{path}: element {i}: expected true or false, found {json.dumps(b)[:40]}")
    return value


def read_boxes(path: Path) -> list[list[int]]:
    value = read_json(path)
    if not isinstance(value, list):
        raise InputError(f"{path}: expected a JSON array of [id, id] pairs")
    for i, p in enumerate(value):
        if not (
            isinstance(p, list)
            and len(p) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x < 2**64 for x in p)
        ):
            raise InputError(f"{path}: pair {i}: expected [id, id] with non-negative integer IDs")
    return value


_PLY_TYPES = {
    "char": "i1", "int8": "i1", "uchar": "u1", "uint8": "u1",
    "short": "i2", "int16": "i2", "ushort": "u2", "uint16": "u2",
    "int": "i4", "int32": "i4", "uint": "u4", "uint32": "u4",
    "float": "f4", "float32": "f4", "double": "f8", "float64": "f8",
}


def read_ply(path: Path):
    """PLY (ASCII, binary little/big endian): vertex x, y, z and triangle faces."""
    import numpy as np

    try:
        data = path.read_bytes()
    except OSError as e:
        raise InputError(f"{path}: {e.strerror or e}") from None
    pos = 0
    elements: list[dict] = []
    fmt = None
    line_no = 0
    header_done = False
    while pos < len(data):
        end = data.find(b"\n", pos)
        if end < 0:
            break
        line_no += 1
        line = data[pos:end].decode("ascii", errors="replace").strip()
        pos = end + 1
        words = line.split()
        if line_no == 1:
            if line != "ply":
                raise InputError(f"{path}:1: not a PLY file (the first line must be `ply`)")
            continue
        if not words or words[0] in ("comment", "obj_info"):
            continue
        if words[0] == "format":
            if len(words) != 3 or words[1] not in ("ascii", "binary_little_endian", "binary_big_endian"):
                raise InputError(f"{path}:{line_no}: unsupported format line `{line}`")
            fmt = words[1]
        elif words[0] == "element":
            if len(words) != 3 or not words[2].isdigit():
                raise InputError(f"{path}:{line_no}: malformed element line `{line}`")
            elements.append({"name": words[1], "count": int(words[2]), "props": [], "line": line_no})
        elif words[0] == "property":
            if not elements:
                raise InputError(f"{path}:{line_no}: a property before any element")
            if len(words) == 5 and words[1] == "list":
                if words[2] not in _PLY_TYPES or words[3] not in _PLY_TYPES:
                    raise InputError(f"{path}:{line_no}: unknown type in `{line}`")
                elements[-1]["props"].append(("list", words[2], words[3], words[4]))
            elif len(words) == 3 and words[1] in _PLY_TYPES:
                elements[-1]["props"].append(("scalar", words[1], None, words[2]))
            else:
                raise InputError(f"{path}:{line_no}: malformed property line `{line}`")
        elif words[0] == "end_header":
            header_done = True
            break
        else:
            raise InputError(f"{path}:{line_no}: unknown header keyword `{words[0]}`")
    if not header_done:
        raise InputError(f"{path}: the header has no `end_header` line (truncated file?)")
    if fmt is None:
        raise InputError(f"{path}: the header has no `format` line")
    vertex = next((e for e in elements if e["name"] == "vertex"), None)
    face = next((e for e in elements if e["name"] == "face"), None)
    if vertex is None or face is None:
        raise InputError(f"{path}: the header declares no `vertex` or no `face` element")
    vnames = [p[3] for p in vertex["props"]]
    for c in "xyz":
        if c not in vnames:
            raise InputError(f"{path}:{vertex['line']}: the vertex element has no property `{c}`")
        if vertex["props"][vnames.index(c)][0] != "scalar":
            raise InputError(f"{path}:{vertex['line']}: vertex property `{c}` is a list")
    fidx = [i for i, p in enumerate(face["props"]) if p[0] == "list" and p[3] in ("vertex_indices", "vertex_index")]
    if not fidx:
        raise InputError(f"{path}:{face['line']}: the face element has no `vertex_indices` list")
    fidx = fidx[0]
    if fmt == "ascii":
        V, F = _ply_ascii(path, data[pos:], line_no, elements, vertex, face, fidx)
    else:
        V, F = _ply_binary(path, data, pos, fmt == "binary_big_endian", elements, vertex, face, fidx)
    return np.ascontiguousarray(V, dtype=np.float64), np.ascontiguousarray(F, dtype=np.int64)


def _ascii_scalar(word: str, dtype: str):
    """An ASCII PLY value: `float` is parsed as a float32 and widened, as the writer held it."""
    import numpy as np

    if dtype == "f4":
        return float(np.float32(word))
    if dtype == "f8":
        return float(word)
    return int(word)


def _ply_ascii(path, body: bytes, header_lines: int, elements, vertex, face, fidx):
    import numpy as np

    lines = body.decode("ascii", errors="replace").split("\n")
    li = 0
    V = F = None

    def next_line():
        nonlocal li
        while li < len(lines) and not lines[li].strip():
            li += 1
        if li >= len(lines):
            return None, header_lines + li + 1
        li += 1
        return lines[li - 1].split(), header_lines + li

    for el in elements:
        out = []
        for index in range(el["count"]):
            words, line_no = next_line()
            if words is None:
                raise InputError(f"{path}:{line_no}: {el['name']} {index}: the file ends early")
            values = []
            w = 0
            try:
                for kind, t, it, name in el["props"]:
                    if kind == "scalar":
                        s = words[w]
                        w += 1
                        values.append(_ascii_scalar(s, _PLY_TYPES[t]))
                    else:
                        n = int(words[w])
                        w += 1
                        values.append([int(x) for x in words[w : w + n]])
                        if len(values[-1]) != n:
                            raise IndexError
                        w += n
            except (IndexError, ValueError):
                raise InputError(f"{path}:{line_no}: {el['name']} {index}: malformed values") from None
            out.append(values)
        if el is vertex:
            names = [p[3] for p in el["props"]]
            V = np.array([[v[names.index(c)] for c in "xyz"] for v in out], dtype=np.float64).reshape(-1, 3)
        elif el is face:
            tris = []
            for k, v in enumerate(out):
                if len(v[fidx]) != 3:
                    raise InputError(f"{path}: face {k} has {len(v[fidx])} corners; triangles are needed")
                tris.append(v[fidx])
            F = np.array(tris, dtype=np.int64).reshape(-1, 3)
    return V, F


def _ply_binary(path, data: bytes, pos: int, big: bool, elements, vertex, face, fidx):
    import numpy as np

    e = ">" if big else "<"
    V = F = None
    for el in elements:
        count = el["count"]
        props = el["props"]
        lists = [p for p in props if p[0] == "list"]
        if el is face and len(lists) == 1:
            # Fast path: every face a triangle (checked below, at the first face that is not).
            fields = []
            for i, (kind, t, it, name) in enumerate(props):
                if kind == "scalar":
                    fields.append((f"s{i}", e + _PLY_TYPES[t]))
                else:
                    fields.append(("n", e + _PLY_TYPES[t]))
                    fields.append(("idx", e + _PLY_TYPES[it], (3,)))
            dt = np.dtype(fields)
            need = count * dt.itemsize
            if len(data) - pos < need:
                # Either truncated, or faces that are not triangles: walk to find out.
                n_ok = (len(data) - pos) // dt.itemsize
                arr = np.frombuffer(data, dtype=dt, count=n_ok, offset=pos)
                bad = np.nonzero(arr["n"] != 3)[0]
                k = int(bad[0]) if bad.size else n_ok
                if bad.size:
                    raise InputError(f"{path}: face {k} has {int(arr['n'][k])} corners; triangles are needed")
                raise InputError(f"{path}: face {k}: the file ends early (truncated)")
            arr = np.frombuffer(data, dtype=dt, count=count, offset=pos)
            bad = np.nonzero(arr["n"] != 3)[0]
            if bad.size:
                k = int(bad[0])
                raise InputError(f"{path}: face {k} has {int(arr['n'][k])} corners; triangles are needed")
            F = arr["idx"].astype(np.int64)
            pos += need
        elif not lists:
            dt = np.dtype([(f"s{i}", e + _PLY_TYPES[p[1]]) for i, p in enumerate(props)])
            need = count * dt.itemsize
            if len(data) - pos < need:
                k = (len(data) - pos) // max(dt.itemsize, 1)
                raise InputError(f"{path}: {el['name']} {k}: the file ends early (truncated)")
            arr = np.frombuffer(data, dtype=dt, count=count, offset=pos)
            if el is vertex:
                names = [p[3] for p in props]
                V = np.stack([arr[f"s{names.index(c)}"].astype(np.float64) for c in "xyz"], axis=1)
            pos += need
        else:
            # Generic element with lists: walk it (rare; not in the data sets).
            for k in range(count):
                for kind, t, it, name in props:
                    size = np.dtype(_PLY_TYPES[t]).itemsize
                    if pos + size > len(data):
                        raise InputError(f"{path}: {el['name']} {k}: the file ends early (truncated)")
                    if kind == "scalar":
                        pos += size
                    else:
                        n = int(np.frombuffer(data, dtype=e + _PLY_TYPES[t], count=1, offset=pos)[0])
                        pos += size + n * np.dtype(_PLY_TYPES[it]).itemsize
                        if pos > len(data):
                            raise InputError(f"{path}: {el['name']} {k}: the file ends early (truncated)")
                        if el is face and name == props[fidx][3]:
                            raise InputError(f"{path}: face {k}: faces with several lists are not supported")
    if pos != len(data):
        raise InputError(
            f"{path}: {len(data) - pos} bytes follow the last element the header declares "
            "(element counts do not match the data)"
        )
    return V, F


def read_obj(path: Path):
    """OBJ: `v x y z` and triangular `f a b c` (a, a/b, a/b/c, a//c; negative = relative)."""
    import numpy as np

    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as e:
        raise InputError(f"{path}: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise InputError(f"{path}: byte {e.start}: not UTF-8 text") from None
    V, F = [], []
    for line_no, line in enumerate(text.splitlines(), 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        if words[0] == "v":
            try:
                V.append([float(w) for w in words[1:4]])
                if len(V[-1]) != 3:
                    raise ValueError
            except ValueError:
                raise InputError(f"{path}:{line_no}: a vertex needs three numbers") from None
        elif words[0] == "f":
            if len(words) != 4:
                raise InputError(f"{path}:{line_no}: face has {len(words) - 1} corners; triangles are needed")
            tri = []
            for w in words[1:]:
                try:
                    i = int(w.split("/")[0])
                except ValueError:
                    raise InputError(f"{path}:{line_no}: bad face index `{w}`") from None
                if i == 0:
                    raise InputError(f"{path}:{line_no}: face index 0 (OBJ indices start at 1)")
                tri.append(i - 1 if i > 0 else len(V) + i)
            F.append(tri)
    return np.array(V, dtype=np.float64).reshape(-1, 3), np.array(F, dtype=np.int64).reshape(-1, 3)


def read_mesh(path: Path):
    suffix = path.suffix.lower()
    if suffix == ".ply":
        V, F = read_ply(path)
    elif suffix == ".obj":
        V, F = read_obj(path)
    else:
        raise InputError(f"{path}: unsupported mesh format (expected .ply or .obj)")
    return V, F


def read_step(path0: Path, path1: Path):
    """Two frames of one mesh: (V0, V1, F); checks as ccdlab's `read_step`."""
    import numpy as np

    V0, F = read_mesh(path0)
    V1, F1 = read_mesh(path1)
    for path, V, faces in ((path0, V0, F), (path1, V1, F1)):
        bad = np.nonzero(~np.isfinite(V).all(axis=1))[0]
        if bad.size:
            raise InputError(f"{path}: vertex {int(bad[0])} has a coordinate that is NaN or infinite")
        if len(faces) == 0:
            raise InputError(f"{path}: the mesh has no faces")
        out = np.nonzero(((faces < 0) | (faces >= len(V))).any(axis=1))[0]
        if out.size:
            k = int(out[0])
            raise InputError(
                f"{path}: face {k} refers to vertex {faces[k].tolist()}, but the mesh has {len(V)} vertices"
            )
        rep = np.nonzero((faces[:, 0] == faces[:, 1]) | (faces[:, 1] == faces[:, 2]) | (faces[:, 2] == faces[:, 0]))[0]
        if rep.size:
            k = int(rep[0])
            raise InputError(f"{path}: face {k} repeats a vertex: {faces[k].tolist()}")
    if len(V0) != len(V1):
        raise InputError(f"{path1}: {len(V1)} vertices, but {path0} has {len(V0)}")
    if len(F) != len(F1):
        raise InputError(f"{path1}: {len(F1)} faces, but {path0} has {len(F)} (the frames must share their faces)")
    diff = np.nonzero((F != F1).any(axis=1))[0]
    if diff.size:
        raise InputError(f"{path1}: face {int(diff[0])} differs from {path0} (the frames must share their faces)")
    return V0, V1, F


def libigl_edges(F, num_vertices: int):
    """Unique edges [min, max] in libigl `edges(F)` order: sorted by max, then min."""
    import numpy as np

    e = F[:, [0, 1, 1, 2, 2, 0]].reshape(-1, 2)
    lo, hi = e.min(axis=1), e.max(axis=1)
    keys = np.unique(hi * np.int64(num_vertices) + lo)
    return np.stack([keys % num_vertices, keys // num_vertices], axis=1)


# --------------------------------------------------------------------------- discovery


def _kind_from_folder(name: str):
    return {"vertex-face": "vf", "edge-edge": "ee"}.get(name)


def _kind_from_stem(path: Path) -> str:
    for k in ("vf", "ee"):
        if path.stem.endswith(k):
            return k
    raise InputError(
        f"{path}: cannot tell vertex-face from edge-edge queries: the file's name should end in "
        "`vf` or `ee`, or it should lie in a `vertex-face` or `edge-edge` folder"
    )


def _entries(d: Path) -> list[Path]:
    try:
        return sorted(d.iterdir())
    except OSError as e:
        raise InputError(f"{d}: {e.strerror or e}") from None


def _files(d: Path, ext: str) -> list[Path]:
    return [p for p in _entries(d) if p.is_file() and p.suffix.lower() == "." + ext]


def _mma_bool(scene: Path, stem: str):
    p = scene / "mma_bool" / f"{stem}_mma_bool.json"
    return p if p.is_file() else None


def _trailing_number(stem: str):
    m = re.search(r"[0-9]+$", stem)
    return int(m.group()) if m else None


def _boxes_source(scene: Path, boxes: Path) -> dict:
    kind = _kind_from_stem(boxes)
    step = _trailing_number(boxes.stem[: -len(kind)])
    if step is None:
        raise InputError(f"{boxes}: the name should be <frame number><vf|ee>.json")
    frames_dir = scene / "frames"
    frames = (
        [p for p in _entries(frames_dir) if p.is_file() and p.suffix.lower() in (".ply", ".obj")]
        if frames_dir.is_dir()
        else []
    )

    def frame(n):
        found = [p for p in frames if _trailing_number(p.stem) == n]
        if len(found) != 1:
            what = "no frame" if not found else "several files for frame"
            raise InputError(f"{boxes}: {what} {n} in {frames_dir}")
        return found[0]

    return {"path": boxes, "kind": kind, "csv": None, "boxes": boxes,
            "frames": (frame(step), frame(step + 1)), "truth": _mma_bool(scene, boxes.stem)}


def _file_source(path: Path) -> dict:
    parent = path.parent
    if path.suffix.lower() == ".csv":
        kind = _kind_from_folder(parent.name)
        if kind:
            return {"path": path, "kind": kind, "csv": path, "truth": None}
        kind = _kind_from_stem(path)
        truth = _mma_bool(parent.parent, path.stem) if parent.name == "queries" else None
        return {"path": path, "kind": kind, "csv": path, "truth": truth}
    if path.suffix.lower() == ".json" and parent.name == "boxes":
        return _boxes_source(parent.parent, path)
    raise InputError(f"{path}: not a query file (expected a .csv of queries, or a boxes/*.json)")


def _walk(d: Path, depth: int, out: list) -> None:
    if depth > 16:
        return
    kind = _kind_from_folder(d.name)
    if kind:
        out.extend({"path": p, "kind": kind, "csv": p, "truth": None} for p in _files(d, "csv"))
        return
    if (d / "queries").is_dir() or (d / "boxes").is_dir():
        stems = []
        if (d / "queries").is_dir():
            for csv in _files(d / "queries", "csv"):
                stems.append(csv.stem)
                out.append(_file_source(csv))
        if (d / "boxes").is_dir():
            for js in _files(d / "boxes", "json"):
                if js.stem not in stems:
                    out.append(_boxes_source(d, js))
        return
    if d.name == "queries":
        out.extend(_file_source(p) for p in _files(d, "csv"))
        return
    for p in _entries(d):
        if p.is_dir():
            _walk(p, depth + 1, out)


def discover(path: Path) -> list[dict]:
    """The query sets under `path`, as `ccdlab queries` finds them, sorted by path."""
    if not path.exists():
        raise InputError(f"{path}: no such file or folder")
    out: list[dict] = []
    if path.is_dir():
        _walk(path, 0, out)
    else:
        out.append(_file_source(path))
    if not out:
        raise InputError(
            f"{path}: no query files here (expected vertex-face/ or edge-edge/ folders of CSVs, "
            "or a scene with queries/ or boxes/ and frames/)"
        )
    out.sort(key=lambda s: str(s["path"]))
    return out


def load(source: dict):
    """(points (n, 8, 3) float64 in the data sets' row order, truth list or None)."""
    import numpy as np

    if source["csv"] is not None:
        rows, truth = read_query_csv(source["csv"])
        points = np.array(rows, dtype=np.float64).reshape(-1, 8, 3)
    else:
        V0, V1, F = read_step(*source["frames"])
        points = queries_from_boxes(source["boxes"], V0, V1, F, source["kind"])
        truth = None
    if source["truth"] is not None:
        t = read_mma_bool(source["truth"])
        if len(t) != len(points):
            raise InputError(f"{source['truth']}: {len(t)} truth values for the {len(points)} queries of {source['path']}")
        if truth is not None and t != truth:
            q = next(i for i, (a, b) in enumerate(zip(truth, t)) if a != b)
            raise InputError(f"{source['truth']}: query {q}: the truth disagrees with {source['path']}")
        truth = t
    return points, truth


def queries_from_boxes(boxes: Path, V0, V1, F, kind: str):
    """Boxes (global IDs: vertex i, edge #V+j, face #V+#E+k) -> query points."""
    import numpy as np

    pairs = read_boxes(boxes)
    nv = len(V0)
    E = libigl_edges(F, nv)
    ne, nf = len(E), len(F)
    limit = nv + ne + nf
    corners = np.empty((len(pairs), 4), dtype=np.int64)
    for i, (a, b) in enumerate(pairs):
        for x in (a, b):
            if x >= limit:
                raise InputError(f"{boxes}: pair {i} {[a, b]}: global ID {x} is out of range (the mesh has {limit} features)")
        if kind == "vf":
            if a < nv <= nv + ne <= b:
                v, f = a, b - nv - ne
            elif b < nv <= nv + ne <= a:
                v, f = b, a - nv - ne
            else:
                raise InputError(f"{boxes}: pair {i} {[a, b]}: not a vertex and a face")
            corners[i] = (v, *F[f])
        else:
            if not (nv <= a < nv + ne and nv <= b < nv + ne):
                raise InputError(f"{boxes}: pair {i} {[a, b]}: not two edges")
            corners[i] = (*E[a - nv], *E[b - nv])
    return np.ascontiguousarray(np.concatenate([V0[corners], V1[corners]], axis=1))


# --------------------------------------------------------------------------- queries


def ti_settings(min_distance: float = TI_MIN_DISTANCE) -> dict:
    return {
        "functions": ["ipctk.tight_inclusion.point_triangle_ccd", "ipctk.tight_inclusion.edge_edge_ccd"],
        "min_distance": min_distance,
        "tmax": TI_TMAX,
        "tolerance": TI_TOLERANCE,
        "max_iterations": TI_MAX_ITERATIONS,
        "filter": [-1.0, -1.0, -1.0],
        "no_zero_toi": False,
        "ccd_method": "BREADTH_FIRST_SEARCH",
        "conservative_rescaling": "none (the Tight-Inclusion library, not IPC's TightInclusionCCD wrapper)",
        "source": "Wang et al. 2021 benchmark (Tight-Inclusion app/main.cpp): ms = 0, tolerance 1e-6, max_itr 1e6, BFS",
    }


def score_set(path: str, kind: str, points, truth, min_time_s: float, rounds: int,
              min_distance: float = TI_MIN_DISTANCE) -> dict:
    """Tight-Inclusion on one set with `ms = min_distance`. The scores are against the contact
    truth: at `min_distance > 0` pairs within it count as false positives, and `hits` says how
    many queries Tight-Inclusion reports."""
    import ipctk

    ti = ipctk.tight_inclusion
    fn = ti.point_triangle_ccd if kind == "vf" else ti.edge_edge_ccd
    base = ipctk.point_triangle_aabb_ccd if kind == "vf" else ipctk.edge_edge_aabb_ccd
    n = len(points)
    pts = [tuple(points[i, j] for j in range(8)) for i in range(n)]
    extra = (min_distance, TI_TMAX, TI_TOLERANCE, TI_MAX_ITERATIONS)
    args = [p + extra for p in pts]
    base_args = [p + (0.0,) for p in pts]
    # Every pass keeps the answers (the first pass gives the scores, later ones must agree);
    # the baseline pass builds a list of the same length in the same way.
    hits = None
    best_call = best_base = float("inf")
    spent = 0.0
    done = 0
    gc_was = gc.isenabled()
    gc.disable()
    try:
        # At least one pass, at least min_time_s of Tight-Inclusion passes, and `rounds`
        # passes unless a few seconds have already gone into this set.
        while done == 0 or spent < min_time_s or (done < rounds and spent < ROUNDS_BUDGET_S):
            t0 = time.perf_counter_ns()
            answers = [fn(*a)[0] for a in args]
            t1 = time.perf_counter_ns()
            baseline = [base(*a) for a in base_args]
            t2 = time.perf_counter_ns()
            del baseline
            if hits is None:
                hits = answers
            elif answers != hits:
                raise RuntimeError(f"{path}: Tight-Inclusion gave different answers in two passes")
            best_call = min(best_call, t1 - t0)
            best_base = min(best_base, t2 - t1)
            spent += (t1 - t0) * 1e-9
            done += 1
    finally:
        if gc_was:
            gc.enable()
    positives = fp = fneg = 0
    if truth is not None:
        for h, t in zip(hits, truth):
            positives += t
            fp += h and not t
            fneg += t and not h
    call_ns = best_call / n
    overhead_ns = best_base / n
    return {
        "path": path,
        "kind": kind,
        "queries": n,
        "positives": positives,
        "false_positives": fp,
        "false_negatives": fneg,
        "hits": sum(1 for h in hits if h),
        "mean_ns": max(call_ns - overhead_ns, 0.0),
        "call_ns": call_ns,
        "overhead_ns": overhead_ns,
        "passes": done,
    }


def totals(sets: list[dict]) -> dict:
    q = sum(s["queries"] for s in sets)
    return {
        "queries": q,
        "positives": sum(s["positives"] for s in sets),
        "false_positives": sum(s["false_positives"] for s in sets),
        "false_negatives": sum(s["false_negatives"] for s in sets),
        "hits": sum(s["hits"] for s in sets),
        "mean_ns": sum(s["mean_ns"] * s["queries"] for s in sets) / q if q else 0.0,
    }


def cmd_queries(args) -> dict:
    import ipctk

    sources = []
    for p in args.paths:
        sources.extend(discover(Path(p)))
    loaded = [(s, *load(s)) for s in sources]  # every file read before anything is solved
    ipctk.set_num_threads(1)
    sets = []
    progress = sys.stderr.isatty()
    for i, (s, pts, truth) in enumerate(loaded):
        if progress:
            print(f"\r[{i + 1}/{len(loaded)}] {s['path']}\x1b[K", end="", file=sys.stderr, flush=True)
        sets.append(
            score_set(str(s["path"]), s["kind"], pts, truth, args.min_time_ms / 1000.0, args.rounds, args.min_distance)
        )
    if progress:
        print("\r\x1b[K", end="", file=sys.stderr, flush=True)
    return {
        "solver": "ipctk-tight-inclusion",
        "min_distance": args.min_distance,
        "sets": sets,
        "total": totals(sets),
        "stamp": stamp(1),
        "peer": {
            "package": "ipctk",
            "version": ipctk.__version__,
            "python": platform.python_version(),
            "numpy": __import__("numpy").__version__,
            "settings": ti_settings(args.min_distance),
            "timing": (
                "per set: fastest of the passes of a Python loop calling Tight-Inclusion once per "
                "query, minus the fastest pass of the same loop calling ipctk's point_triangle_aabb_ccd / "
                "edge_edge_aabb_ccd on the same arguments (interpreter + argument conversion), divided "
                "by the number of queries; one thread"
            ),
            "min_time_ms": args.min_time_ms,
            "rounds": args.rounds,
        },
    }


def print_queries_table(r: dict) -> None:
    s0 = r["stamp"]
    print(
        f"solver: {r['solver']} (ipctk {r['peer']['version']})   (Machine: {s0['cpu']} ({s0['logical_cpus']} logical CPUs, "
        f"{s0['os']}), threads: {s0['threads']}, commit: `{s0['git_commit']}`, date: {s0['date']})"
    )
    print(f"{'set':<64} {'kind':>4} {'queries':>8} {'positives':>9} {'FP':>6} {'FN':>6} {'mean ns':>11} {'call ns':>11}")
    for s in r["sets"]:
        p = s["path"] if len(s["path"]) <= 64 else "…" + s["path"][-63:]
        print(
            f"{p:<64} {s['kind']:>4} {s['queries']:>8} {s['positives']:>9} {s['false_positives']:>6} "
            f"{s['false_negatives']:>6} {s['mean_ns']:>11.1f} {s['call_ns']:>11.1f}"
        )
    t = r["total"]
    print(
        f"{'total':<64} {'':>4} {t['queries']:>8} {t['positives']:>9} {t['false_positives']:>6} "
        f"{t['false_negatives']:>6} {t['mean_ns']:>11.1f}"
    )


# --------------------------------------------------------------------------- step


# The state a forked counting worker reads (set before the fork).
_COUNT_STATE: tuple = ()


def _count_range(bounds: tuple[int, int]) -> tuple[int, int, float]:
    """Candidates [lo, hi) through the narrow phase on [0, 1]: (VF hits, EE hits, earliest TOI)."""
    import ipctk

    E, F, X0, X1, candidates, narrow, ms = _COUNT_STATE
    pt, ee = narrow.point_triangle_ccd, narrow.edge_edge_ccd
    EE, FV = ipctk.EdgeEdgeCandidate, ipctk.FaceVertexCandidate
    vf_hits = ee_hits = 0
    earliest = float("inf")
    for i in range(*bounds):
        s = candidates[i]
        if isinstance(s, EE):
            a, b = E[s.edge0_id], E[s.edge1_id]
            hit, toi = ee(X0[a[0]], X0[a[1]], X0[b[0]], X0[b[1]], X1[a[0]], X1[a[1]], X1[b[0]], X1[b[1]], ms, 1.0)
            ee_hits += hit
        elif isinstance(s, FV):
            v, f = s.vertex_id, F[s.face_id]
            hit, toi = pt(X0[v], X0[f[0]], X0[f[1]], X0[f[2]], X1[v], X1[f[0]], X1[f[1]], X1[f[2]], ms, 1.0)
            vf_hits += hit
        else:
            continue
        if hit:
            earliest = min(earliest, toi)
    return vf_hits, ee_hits, earliest


def _count_colliding(E, F, V0, V1, candidates, narrow, workers: int, ms: float = 0.0) -> dict:
    """Every candidate through `narrow` on [0, 1]: colliding VF / EE counts and the earliest
    TOI. With workers > 1 the candidates are split over forked processes (the pass calls
    ipctk once per candidate from Python, so threads would not run in parallel)."""
    import multiprocessing

    global _COUNT_STATE
    _COUNT_STATE = (E, F, V0, V1, candidates, narrow, ms)
    n = len(candidates)
    chunk = max(1_000, -(-n // (8 * workers)))
    ranges = [(lo, min(lo + chunk, n)) for lo in range(0, n, chunk)]
    try:
        if workers > 1 and len(ranges) > 1 and "fork" in multiprocessing.get_all_start_methods():
            with multiprocessing.get_context("fork").Pool(workers) as pool:
                parts = pool.map(_count_range, ranges, chunksize=1)
        else:
            parts = [_count_range(r) for r in ranges]
    finally:
        _COUNT_STATE = ()
    return {
        "vf": sum(p[0] for p in parts),
        "ee": sum(p[1] for p in parts),
        "toi": min((p[2] for p in parts), default=float("inf")),
    }


def ipctk_whole_step(X0, X1, Fi, narrow, inflation: float = 0.0, ms: float = 0.0, broad_phase: str = "LBVH"):
    """One run of ipctk's whole step on Fortran-ordered float64 positions X0, X1 and int32
    faces Fi: the mesh (`ipctk.edges`, `CollisionMesh`), the broad phase `broad_phase` (a
    name in BROAD_PHASES; `Candidates.build`) and the narrow phase
    (`compute_collision_free_stepsize` with
    `narrow`). Returns (seconds {mesh, broad_phase, narrow_phase, total = broad + narrow},
    edges, candidates, stepsize). Also used by scripts/compare_ipctk.py."""
    import ipctk
    import numpy as np

    t0 = time.perf_counter()
    E = ipctk.edges(Fi)
    mesh = ipctk.CollisionMesh(X0, np.asfortranarray(E), Fi)
    t1 = time.perf_counter()
    candidates = ipctk.Candidates()
    broad = getattr(ipctk, broad_phase)()
    t2 = time.perf_counter()
    candidates.build(mesh, X0, X1, inflation_radius=inflation, broad_phase=broad)
    t3 = time.perf_counter()
    stepsize = candidates.compute_collision_free_stepsize(mesh, X0, X1, ms, narrow)
    t4 = time.perf_counter()
    run = {"mesh": t1 - t0, "broad_phase": t3 - t2, "narrow_phase": t4 - t3, "total": (t3 - t2) + (t4 - t3)}
    return run, E, candidates, stepsize


def cmd_step(args) -> dict:
    import ipctk
    import numpy as np

    f0, f1 = Path(args.frame0), Path(args.frame1)
    V0, V1, F = read_step(f0, f1)
    # At a minimum separation ipctk logs a warning for every pair already
    # within it at t = 0 (thousands on cloth-ball); errors still show.
    ipctk.set_logger_level(ipctk.LoggerLevel.error)
    ipctk.set_num_threads(args.threads)
    threads = ipctk.get_num_threads()
    Fi = np.asfortranarray(F.astype(np.int32))
    X0, X1 = np.asfortranarray(V0), np.asfortranarray(V1)
    narrow = ipctk.TightInclusionCCD(TI_TOLERANCE, TI_MAX_ITERATIONS, 1.0)
    ms = args.min_distance
    inflation = ms / 2
    best = None
    for _ in range(args.repeat):
        run, E, candidates, stepsize = ipctk_whole_step(X0, X1, Fi, narrow, inflation, ms, args.broad_phase)
        if best is None or run["total"] < best["total"]:
            best = run
    vf_c, ee_c = len(candidates.fv_candidates), len(candidates.ee_candidates)
    other_c = len(candidates) - vf_c - ee_c
    counted = None
    count_s = None
    if not args.no_counts:
        tc = time.perf_counter()
        counted = _count_colliding(E, F, V0, V1, candidates, narrow, threads, ms)
        count_s = time.perf_counter() - tc
    colliding_any = counted is not None and (counted["vf"] + counted["ee"]) > 0
    toi = stepsize if (stepsize < 1.0 or colliding_any) else None
    return {
        "peer": "ipctk",
        "version": ipctk.__version__,
        "threads": threads,
        "frames": [str(f0), str(f1)],
        "vertices": len(V0),
        "edges": int(len(E)),
        "faces": len(F),
        "broad_phase": args.broad_phase,
        "narrow_phase": "TightInclusionCCD",
        "vf": {"candidates": vf_c, "colliding": counted["vf"] if counted else None},
        "ee": {"candidates": ee_c, "colliding": counted["ee"] if counted else None},
        "other_candidates": other_c,
        "toi": toi,
        "toi_all_candidates": (
            counted["toi"] if counted and colliding_any else None
        ),
        "time_ms": {k: v * 1e3 for k, v in best.items()},
        "repeat": args.repeat,
        "count_pass_s": count_s,
        "settings": {
            "inflation_radius": inflation,
            "min_distance": ms,
            "tolerance": TI_TOLERANCE,
            "max_iterations": TI_MAX_ITERATIONS,
            "conservative_rescaling": 1.0,
            "timed": (
                f"broad_phase = Candidates.build(mesh, V0, V1, inflation_radius=min_distance/2, broad_phase={args.broad_phase}()); "
                "narrow_phase = Candidates.compute_collision_free_stepsize(mesh, V0, V1, min_distance, "
                "TightInclusionCCD(1e-6, 1e6, 1.0)), which lowers t_max to the earliest TOI found so far; "
                "total = broad_phase + narrow_phase; mesh (ipctk.edges + CollisionMesh) apart; "
                "the fastest of `repeat` runs"
            ),
            "counts": (
                "untimed pass: the same TightInclusionCCD on every VF and EE candidate with t_max = 1, "
                "split over `threads` forked processes"
            ),
        },
        "stamp": stamp(threads),
    }


def print_step_table(r: dict) -> None:
    t = r["time_ms"]
    print(f"ipctk {r['version']} step {r['frames'][0]} -> {r['frames'][1]}  ({r['threads']} threads)")
    print(f"  mesh: {r['vertices']} vertices, {r['edges']} edges, {r['faces']} faces (built in {t['mesh']:.1f} ms, not in total)")
    for k in ("vf", "ee"):
        c = r[k]
        print(f"  {k}: {c['candidates']} candidates ({r['broad_phase']}), colliding: {c['colliding'] if c['colliding'] is not None else '-'}")
    if r["settings"]["min_distance"] > 0:
        print(f"  minimum separation: {r['settings']['min_distance']!r} (boxes grown by half of it)")
    print(f"  earliest toi: {r['toi']}")
    print(f"  time ms: broad phase {t['broad_phase']:.1f}, narrow phase {t['narrow_phase']:.1f}, total {t['total']:.1f}")


# --------------------------------------------------------------------------- ti-pairs


def read_pairs_csv(path: Path, nv: int, ne: int, nf: int) -> list[tuple[str, int, int, float, float]]:
    """`ccdlab step --pairs` CSV: kind,id_a,id_b,toi_lower,toi_upper with global IDs."""
    try:
        lines = path.read_bytes().decode("utf-8").splitlines()
    except OSError as e:
        raise InputError(f"{path}: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise InputError(f"{path}: byte {e.start}: not UTF-8 text") from None
    if not lines or lines[0].strip() != "kind,id_a,id_b,toi_lower,toi_upper":
        raise InputError(f"{path}:1: expected the header `kind,id_a,id_b,toi_lower,toi_upper`")
    out = []
    for k, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        f = line.split(",")
        if len(f) != 5 or f[0] not in ("vf", "ee"):
            raise InputError(f"{path}:{k}: expected `vf|ee,id_a,id_b,toi_lower,toi_upper`")
        try:
            a, b = int(f[1]), int(f[2])
            lo, hi = float(f[3]), float(f[4])
        except ValueError:
            raise InputError(f"{path}:{k}: an ID or a time is not a number") from None
        if f[0] == "vf":
            ok = 0 <= a < nv and nv + ne <= b < nv + ne + nf
        else:
            ok = nv <= a < b < nv + ne
        if not ok:
            raise InputError(f"{path}:{k}: ({a}, {b}) is not a {f[0]} pair of this mesh")
        out.append((f[0], a, b, lo, hi))
    return out


_TI_STATE: tuple = ()


def _ti_range(bounds: tuple[int, int]) -> list[tuple[int, bool, float, bool]]:
    """Tight-Inclusion with ms on pairs [lo, hi): (index, reported, toi, reported by the
    narrow phase of `step`) for each."""
    import ipctk

    pairs, E, F, X0, X1, nv, ne, ms = _TI_STATE
    ti = ipctk.tight_inclusion
    wrapper = ipctk.TightInclusionCCD(TI_TOLERANCE, TI_MAX_ITERATIONS, 1.0)
    out = []
    for i in range(*bounds):
        kind, a, b, _, _ = pairs[i]
        if kind == "vf":
            v, f = a, F[b - nv - ne]
            hit, toi, _ = ti.point_triangle_ccd(
                X0[v], X0[f[0]], X0[f[1]], X0[f[2]], X1[v], X1[f[0]], X1[f[1]], X1[f[2]],
                ms, TI_TMAX, TI_TOLERANCE, TI_MAX_ITERATIONS,
            )
            step_hit, _ = wrapper.point_triangle_ccd(
                X0[v], X0[f[0]], X0[f[1]], X0[f[2]], X1[v], X1[f[0]], X1[f[1]], X1[f[2]], ms, 1.0
            )
        else:
            ea, eb = E[a - nv], E[b - nv]
            hit, toi, _ = ti.edge_edge_ccd(
                X0[ea[0]], X0[ea[1]], X0[eb[0]], X0[eb[1]], X1[ea[0]], X1[ea[1]], X1[eb[0]], X1[eb[1]],
                ms, TI_TMAX, TI_TOLERANCE, TI_MAX_ITERATIONS,
            )
            step_hit, _ = wrapper.edge_edge_ccd(
                X0[ea[0]], X0[ea[1]], X0[eb[0]], X0[eb[1]], X1[ea[0]], X1[ea[1]], X1[eb[0]], X1[eb[1]], ms, 1.0
            )
        out.append((i, bool(hit), float(toi), bool(step_hit)))
    return out


def cmd_ti_pairs(args) -> dict:
    import multiprocessing

    import numpy as np

    global _TI_STATE
    f0, f1 = Path(args.frame0), Path(args.frame1)
    V0, V1, F = read_step(f0, f1)
    nv, nf = len(V0), len(F)
    E = libigl_edges(F, nv)
    ne = len(E)
    pairs = read_pairs_csv(Path(args.pairs), nv, ne, nf)
    ms = args.min_distance
    import ipctk

    ipctk.set_logger_level(ipctk.LoggerLevel.error)
    X0, X1 = np.ascontiguousarray(V0), np.ascontiguousarray(V1)
    n = len(pairs)
    workers = args.threads
    chunk = max(500, -(-n // (8 * workers)))
    ranges = [(lo, min(lo + chunk, n)) for lo in range(0, n, chunk)]
    _TI_STATE = (pairs, E, F, X0, X1, nv, ne, ms)
    t0 = time.perf_counter()
    try:
        if workers > 1 and len(ranges) > 1 and "fork" in multiprocessing.get_all_start_methods():
            with multiprocessing.get_context("fork").Pool(workers) as pool:
                parts = pool.map(_ti_range, ranges, chunksize=1)
        else:
            parts = [_ti_range(r) for r in ranges]
    finally:
        _TI_STATE = ()
    seconds = time.perf_counter() - t0
    results = [r for part in parts for r in part]
    misses = []
    after_upper = 0
    step_misses = 0
    for i, hit, toi, step_hit in results:
        kind, a, b, lo, hi = pairs[i]
        step_misses += not step_hit
        if not hit:
            misses.append({"kind": kind, "id_a": a, "id_b": b, "toi_lower": lo, "toi_upper": hi})
        elif toi > hi:
            after_upper += 1
    counts = {k: sum(1 for p in pairs if p[0] == k) for k in ("vf", "ee")}
    return {
        "peer": "ipctk",
        "version": ipctk.__version__,
        "check": "every pair ccdlab reports at d is reported by Tight-Inclusion with ms = d",
        "frames": [str(f0), str(f1)],
        "pairs_file": str(args.pairs),
        "min_distance": ms,
        "ccdlab_pairs": counts,
        "ti_reported": len(results) - len(misses),
        "misses": misses,
        "passed": not misses,
        "ti_toi_after_ccdlab_upper": after_upper,
        "step_narrow_phase_not_reported": step_misses,
        "seconds": seconds,
        "workers": workers,
        "settings": ti_settings(ms),
        "stamp": stamp(workers),
    }


def print_ti_pairs(r: dict) -> None:
    c = r["ccdlab_pairs"]
    print(f"Tight-Inclusion (ipctk {r['version']}) with ms = {r['min_distance']!r} on ccdlab's pairs of {r['frames'][0]} -> {r['frames'][1]}")
    print(f"  ccdlab pairs: vf {c['vf']}, ee {c['ee']}; reported by Tight-Inclusion: {r['ti_reported']}")
    print(f"  not reported by Tight-Inclusion: {len(r['misses'])} ({'passed' if r['passed'] else 'FAILED'})")
    for m in r["misses"][:20]:
        print(f"    {m['kind']} ({m['id_a']}, {m['id_b']}) ccdlab toi [{m['toi_lower']!r}, {m['toi_upper']!r}]")
    print(f"  Tight-Inclusion's toi after ccdlab's upper bound (information): {r['ti_toi_after_ccdlab_upper']}")
    print(
        "  not reported by `step`'s narrow phase, TightInclusionCCD(1e-6, 1e6, 1.0) with min_distance "
        f"(information): {r['step_narrow_phase_not_reported']}"
    )
    print(f"  {r['seconds']:.1f} s on {r['workers']} processes")


# --------------------------------------------------------------------------- main


def _distance(text: str) -> float:
    """A finite distance >= 0 (argparse type)."""
    try:
        d = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"`{text}` is not a number") from None
    if not (d >= 0.0 and d != float("inf")):
        raise argparse.ArgumentTypeError(f"{text}: must be a finite distance >= 0")
    return d + 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    q = sub.add_parser("queries", help="Tight-Inclusion on the query sets `ccdlab queries` finds")
    q.add_argument("--json", action="store_true", help="print one JSON object on stdout, and nothing else")
    q.add_argument("--min-time-ms", type=int, default=200, help="minimum timed Tight-Inclusion time per set (default 200)")
    q.add_argument("--rounds", type=int, default=3, help="minimum number of timed passes per set (default 3)")
    q.add_argument(
        "--min-distance",
        type=_distance,
        default=TI_MIN_DISTANCE,
        help="Tight-Inclusion's ms (default 0); positives are still scored against the contact truth",
    )
    q.add_argument("paths", nargs="+", metavar="PATH")
    s = sub.add_parser("step", help="ipctk's whole step (a broad phase + Tight-Inclusion) on two frames")
    s.add_argument("frame0")
    s.add_argument("frame1")
    s.add_argument("--threads", type=int, default=1, help="TBB threads (default 1)")
    s.add_argument("--repeat", type=int, default=1, help="timed runs; the fastest is reported (default 1)")
    s.add_argument(
        "--broad-phase", choices=list(BROAD_PHASES), default="LBVH",
        help="; ".join(f"{k}: {v}" for k, v in BROAD_PHASES.items()) + " (default LBVH)",
    )
    s.add_argument("--no-counts", action="store_true", help="skip the untimed pass that counts colliding pairs")
    s.add_argument(
        "--min-distance", type=_distance, default=0.0,
        help="minimum separation D >= 0: boxes grown by D/2, narrow phase with min_distance D (default 0)",
    )
    s.add_argument("--json", action="store_true", help="print one JSON object on stdout, and nothing else")
    t = sub.add_parser("ti-pairs", help="check: Tight-Inclusion with ms = D reports every pair of `ccdlab step --pairs`")
    t.add_argument("frame0")
    t.add_argument("frame1")
    t.add_argument("--pairs", required=True, help="the CSV of `ccdlab step --pairs FILE --min-distance D`")
    t.add_argument("--min-distance", type=_distance, required=True, help="the D that ccdlab ran at")
    t.add_argument("--threads", type=int, default=1, help="forked worker processes (default 1)")
    t.add_argument("--json", action="store_true", help="print one JSON object on stdout, and nothing else")
    args = parser.parse_args()
    for name in ("threads", "repeat", "rounds"):
        if getattr(args, name, 1) < 1:
            parser.error(f"--{name} must be at least 1")
    if getattr(args, "min_time_ms", 0) < 0:
        parser.error("--min-time-ms must not be negative")
    ensure_environment()
    try:
        commands = {"queries": cmd_queries, "step": cmd_step, "ti-pairs": cmd_ti_pairs}
        result = commands[args.command](args)
    except InputError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if args.json:
        sys.stdout.write(json.dumps(result, indent=2) + "\n")
    elif args.command == "queries":
        print_queries_table(result)
    elif args.command == "ti-pairs":
        print_ti_pairs(result)
    else:
        print_step_table(result)
    if args.command == "ti-pairs" and not result["passed"]:
        print(f"error: Tight-Inclusion does not report {len(result['misses'])} of ccdlab's pairs", file=sys.stderr)
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
