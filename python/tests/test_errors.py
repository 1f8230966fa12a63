"""Bad input raises ValueError (OSError for files) with a message, never a
crash: shapes, dtypes, non-finite values, face indices, frames, files,
options."""

import os

import numpy as np
import pytest

import ccdlab

F = np.array([[0, 1, 2], [1, 3, 2]])
V = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]], dtype=float)
W = V + [0, 0, 1]


@pytest.mark.parametrize("bad,match", [
    (V[:, :2], r"V0: expected an array of shape \(n, 3\), got shape \(4, 2\)"),
    (V[:, :, None], r"shape \(4, 3, 1\)"),
    (V.ravel(), r"shape \(12,\)"),
    (np.float64(1.0), r"shape \(\)"),
    (V.astype(np.int64) + 2**53 + 1, r"V0: value 9007199254740993 \(element 0 in C order, from 0\) is an integer beyond 2\*\*53"),
    ([[0, 0, -(2**53) - 1]] * 4, "V0: value -9007199254740993 .* beyond 2\\*\\*53"),
    ([[0, 0, 2**70]] * 4, "V0: dtype object is not supported"),
    (V.astype(bool), "dtype bool is not supported"),
    (V.astype(np.complex128), "dtype complex128 is not supported"),
    (V.astype(object), "dtype object is not supported"),
    (V.astype(np.float16), "dtype float16 is not supported"),
    ([[0, 0, "x"]] * 4, "V0: dtype <U.* is not supported"),
    ([[0, 0], [1, 1, 1]], "V0: cannot be read as an array"),
])
def test_bad_vertex_arrays(bad, match):
    with pytest.raises(ValueError, match=match):
        ccdlab.step(bad, W, F)


@pytest.mark.parametrize("value", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("frame", [0, 1])
def test_non_finite_coordinates(value, frame):
    frames = [V.copy(), W.copy()]
    frames[frame][2, 1] = value
    with pytest.raises(ValueError, match=rf"V{frame}: vertex 2 \(numbered from 0\) has a non-finite"):
        ccdlab.step(frames[0], frames[1], F)
    with pytest.raises(ValueError, match="non-finite"):
        ccdlab.Pipeline(F).step(frames[0], frames[1])


@pytest.mark.parametrize("bad,match", [
    ([[0, 1, 4]], r"F: face 0 refers to vertex 4 .* but the mesh has 4 vertices"),
    ([[0, 1, 2], [0, -1, 2]], "F: face 1 .* negative vertex index -1"),
    ([[0, 1, 2**40]], "refers to vertex 1099511627776"),
    ([[0, 0, 1]], r"F: face 0 repeats a vertex"),
    ([[0, 1, 2], [1, 2, 3], [3, 1, 2]], r"F: face 2 has the corners of face 1 .*: a repeated triangle"),
    (F.astype(float), "dtype float64 is not supported; face indices need an integer dtype"),
    (F.astype(bool), "dtype bool is not supported"),
    (F[:, :2], r"shape \(m, 3\).*got shape \(2, 2\)"),
    (F.ravel(), r"got shape \(6,\)"),
    ([0, 1, 2], r"got shape \(3,\)"),
])
def test_bad_faces(bad, match):
    with pytest.raises(ValueError, match=match):
        ccdlab.step(V, W, bad)


def test_bad_faces_for_edges_and_pipelines():
    with pytest.raises(ValueError, match="negative"):
        ccdlab.edges([[0, -1, 2]])
    with pytest.raises(ValueError, match="repeats a vertex"):
        ccdlab.edges([[0, 1, 1]])
    with pytest.raises(ValueError, match=r"face 0 \(numbered from 0\) refers to vertex 4294967295; at most"):
        ccdlab.edges(np.array([[0, 1, 2**32 - 1]], dtype=np.uint32))
    with pytest.raises(ValueError, match="integer dtype"):
        ccdlab.Pipeline(F.astype(np.float32))
    with pytest.raises(ValueError, match="refers to vertex 3"):
        ccdlab.Pipeline(F, num_vertices=3)
    # A face repeating a vertex is refused at once.
    with pytest.raises(ValueError, match="F: face 1 .*repeats a vertex"):
        ccdlab.Pipeline([[0, 1, 2], [3, 3, 1]])
    p = ccdlab.Pipeline(F)
    with pytest.raises(ValueError, match="refers to vertex 3"):
        p.step(V[:3], W[:3])
    # The pipeline is still usable after a refused step.
    assert p.step(V, W).report["bvh"] == "build"


def test_mismatched_frames():
    with pytest.raises(ValueError, match="V1 has 3 vertices but V0 has 4"):
        ccdlab.step(V, W[:3], F)
    p = ccdlab.Pipeline(F)
    p.step(V, W)
    with pytest.raises(ValueError, match="V0 has 5 vertices but this pipeline's mesh has 4 .*make another"):
        p.step(np.vstack([V, [[2, 2, 2]]]), np.vstack([W, [[2, 2, 2]]]))


def test_a_pipeline_refuses_a_repeated_triangle_at_its_first_step_or_when_made_with_its_vertex_count():
    repeated = [[0, 1, 2], [2, 1, 0]]
    p = ccdlab.Pipeline(repeated)
    with pytest.raises(ValueError, match="F: face 1 has the corners of face 0"):
        p.step(V, W)
    with pytest.raises(ValueError, match="F: face 1 has the corners of face 0"):
        ccdlab.Pipeline(repeated, num_vertices=4)


@pytest.mark.parametrize("kwargs,match", [
    ({"k": 7}, "k: `7` is not a k-DOP"),
    ({"k": "big"}, "k: `big` is not a k-DOP"),
    ({"filters": "fast"}, "filters: unknown filter setting"),
    ({"solver": "magic"}, "solver: unknown solver"),
    ({"time_aligned": "maybe"}, "time_aligned: \"maybe\" is not a setting"),
    ({"threads": 0}, "threads: 0 is out of range"),
    ({"threads": -3}, "threads: -3 is out of range"),
    ({"threads": 5000}, "threads: 5000 is out of range"),
    ({"threads": 2**70}, "threads: 1180591620717411303424 is out of range"),
])
def test_bad_options(kwargs, match):
    with pytest.raises(ValueError, match=match):
        ccdlab.step(V, W, F, **kwargs)
    with pytest.raises(ValueError, match=match):
        ccdlab.Pipeline(F, **kwargs)


@pytest.mark.parametrize("kwargs,match", [
    ({"k": [26]}, r"k: expected an int or a str \(6, 8, 14, 18 or 26\), got list"),
    ({"k": None}, "k: expected an int or a str .*, got NoneType"),
    ({"k": 26.0}, "k: expected an int or a str .*, got float"),
    ({"k": True}, "k: expected an int or a str .*, got bool"),
    ({"time_aligned": 1}, 'time_aligned: expected "auto", "on", "off" or a bool, got int'),
    ({"time_aligned": None}, "time_aligned: expected .*, got NoneType"),
])
def test_bad_option_types_name_the_option(kwargs, match):
    with pytest.raises(TypeError, match=match):
        ccdlab.step(V, W, F, **kwargs)
    with pytest.raises(TypeError, match=match):
        ccdlab.Pipeline(F, **kwargs)


@pytest.mark.parametrize("kwargs,match", [
    ({"bodies": [0, 0, 0]}, "bodies: 3 body labels for a mesh of 4 vertices"),
    ({"bodies": [0, 0, 0, 1], "self_collision": [True]},
     "self_collision: vertex 3: body 1, but only bodies 0 to 0 say whether they collide with themselves"),
    ({"bodies": [0, -1, 0, 0]}, "bodies: element 1 is -1, not a label from 0 to 2\\*\\*32 - 1"),
    ({"bodies": [0, 0, 0, 2**32]}, "bodies: element 3 is 4294967296, not a label"),
    ({"bodies": [0.0, 0.0, 0.0, 0.0]}, "bodies: dtype float64 is not supported; labels need an integer dtype"),
    ({"bodies": [[0, 0, 0, 0]]}, "bodies: expected an array of shape \\(n,\\), one label per vertex, got shape \\(1, 4\\)"),
    ({"self_collision": [True, False]}, "self_collision: a bool per body needs bodies="),
    ({"self_collision": "sometimes"}, 'self_collision: "sometimes" is not a setting'),
    ({"bodies": [0, 0, 0, 0], "self_collision": "moving"}, 'self_collision: "moving" decides the bodies itself'),
    ({"bodies": [0, 0, 0, 0], "self_collision": []}, "self_collision: vertex 0: body 0, but no body says whether it collides with itself"),
    ({"bodies": "0000"}, "bodies: dtype <U4 is not supported; labels need an integer dtype"),
])
def test_bad_bodies_name_the_argument_and_element(kwargs, match):
    with pytest.raises(ValueError, match=match):
        ccdlab.step(V, W, F, **kwargs)
    if "labels for a mesh" not in match:
        with pytest.raises(ValueError, match=match):
            ccdlab.Pipeline(F, **kwargs)
    else:
        # The mesh's vertex count is known at the first step, or at once
        # when given.
        p = ccdlab.Pipeline(F, **kwargs)
        with pytest.raises(ValueError, match=match):
            p.step(V, W)
    # With the vertex count given, a pipeline checks its bodies at once.
    with pytest.raises(ValueError, match="bodies: 3 body labels for a mesh of 4 vertices"):
        ccdlab.Pipeline(F, bodies=[0, 0, 0], num_vertices=4)
    with pytest.raises(TypeError, match="self_collision: expected a bool, .*, got ndarray of dtype int64"):
        ccdlab.step(V, W, F, bodies=[0, 0, 0, 0], self_collision=np.array([1, 0], np.int64))
    with pytest.raises(TypeError, match="self_collision: expected a bool, .*, got float"):
        ccdlab.step(V, W, F, self_collision=0.5)
    with pytest.raises(TypeError, match="self_collision: expected a bool per body, got int at index 0"):
        ccdlab.step(V, W, F, bodies=[0, 0, 0, 1], self_collision=[1, 0])
    with pytest.raises(TypeError, match="self_collision: expected a bool per body, got str at index 1"):
        ccdlab.Pipeline(F, bodies=[0, 0, 0, 1], self_collision=(True, "no"))


def test_self_collision_past_the_largest_label_is_not_read():
    # Ten billion bools as a broadcast view: only the first is converted.
    many = np.broadcast_to(np.False_, (10**10,))
    r = ccdlab.step(V, W, F, bodies=[0, 0, 0, 0], self_collision=many)
    assert r.report["bodies"] == {"bodies": 1, "self_colliding": 0}
    p = ccdlab.Pipeline(F, bodies=[0, 0, 0, 0], self_collision=many)
    assert p.config["self_collision"] == [False]
    # Nor checked: the entries past it are not used.
    r = ccdlab.step(V, W, F, bodies=[0, 0, 0, 0], self_collision=[True, "unused"])
    assert r.report["bodies"] == {"bodies": 1, "self_colliding": 1}


@pytest.mark.parametrize("kwargs,match", [
    ({"threads": True}, "threads: expected an int \\(1 to 1024\\) or None, got bool"),
    ({"threads": np.True_}, "threads: expected an int \\(1 to 1024\\) or None, got bool"),
    ({"min_distance": True}, "min_distance: expected a float, got bool"),
    ({"min_distance": np.False_}, "min_distance: expected a float, got bool"),
    ({"threads": 2.0}, "threads: expected an int \\(1 to 1024\\) or None, got float"),
    ({"threads": "2"}, "threads: expected an int \\(1 to 1024\\) or None, got str"),
    ({"threads": np.float64(2)}, "threads: expected an int \\(1 to 1024\\) or None, got float64"),
])
def test_a_bool_is_not_a_count_or_a_distance(kwargs, match):
    with pytest.raises(TypeError, match=match):
        ccdlab.step(V, W, F, **kwargs)
    with pytest.raises(TypeError, match=match):
        ccdlab.Pipeline(F, **kwargs)
    with pytest.raises(TypeError, match=match):
        ccdlab.vertex_face_ccd_batch(np.zeros((1, 8, 3)), **kwargs)


def test_an_int_beyond_64_bits_is_a_bad_k_not_an_overflow():
    with pytest.raises(ValueError, match="k: `18446744073709551616` is not a k-DOP"):
        ccdlab.step(V, W, F, k=2**64)
    with pytest.raises(ValueError, match="k: `18446744073709551615` is not a k-DOP"):
        ccdlab.step(V, W, F, k=np.uint64(2**64 - 1))


@pytest.mark.parametrize("n,match", [
    (-1, "num_vertices: -1 is out of range"),
    (2**70, "num_vertices: 1180591620717411303424 is out of range"),
])
def test_a_bad_vertex_count_is_a_value_error(n, match):
    with pytest.raises(ValueError, match=match):
        ccdlab.Pipeline(F, num_vertices=n)
    with pytest.raises(TypeError, match="num_vertices: expected an int or None, got bool"):
        ccdlab.Pipeline(F, num_vertices=True)
    with pytest.raises(TypeError, match="num_vertices: expected an int or None, got float"):
        ccdlab.Pipeline(F, num_vertices=4.0)
    assert ccdlab.Pipeline(F, num_vertices=np.int64(4)).num_vertices == 4


def test_a_vertex_count_past_32_bit_indices_is_blamed_on_num_vertices():
    with pytest.raises(ValueError, match=r"^num_vertices: the mesh has 8589934592 vertices; at most 2\^32 - 2"):
        ccdlab.Pipeline(F, num_vertices=2**33)


class _Raises:
    """An array-like whose conversion raises `error`."""

    def __init__(self, error):
        self.error = error

    def __array__(self, dtype=None, copy=None):
        raise self.error


def test_what_numpy_cannot_convert_is_a_value_error_with_numpy_s_as_cause():
    with pytest.raises(ValueError, match="V0: cannot be read as an array") as e:
        ccdlab.step(_Raises(TypeError("no")), W, F)
    assert isinstance(e.value.__cause__, TypeError)


@pytest.mark.parametrize("error", [KeyboardInterrupt, MemoryError, RuntimeError])
def test_other_exceptions_in_a_conversion_pass_unchanged(error):
    # Ctrl-C (or running out of memory) while a list is converted is not
    # a bad value.
    with pytest.raises(error):
        ccdlab.step(_Raises(error()), W, F)
    with pytest.raises(error):
        ccdlab.vertex_face_ccd_batch(_Raises(error()))
    with pytest.raises(error):
        ccdlab.Pipeline(_Raises(error()))


def test_numpy_integers_and_bools_are_ints_and_bools():
    assert ccdlab.Pipeline(F, k=np.int64(18)).config["k"] == 18
    assert ccdlab.step(V, W, F, k=np.int32(14)).report["k"] == 14
    assert ccdlab.Pipeline(F, time_aligned=np.bool_(False)).config["time_aligned"] == "off"


@pytest.mark.parametrize("kwargs", [
    {"window": "yes"}, {"window": 0}, {"collect_pairs": 1}, {"threads": 2.0},
    {"filters": 3}, {"solver": None}, {"min_distance": "a"},
])
def test_other_bad_option_types_are_noted_with_the_argument(kwargs):
    # pyo3 adds the argument's name as a note, which the traceback prints.
    (name,) = kwargs
    with pytest.raises(TypeError) as e:
        ccdlab.step(V, W, F, **kwargs)
    assert f"'{name}'" in " ".join(getattr(e.value, "__notes__", [])), e.value


def test_bad_option_types():
    with pytest.raises(TypeError):
        ccdlab.step(V, W, F, unknown=1)


def test_bad_single_queries():
    p = [0.0, 0.0, 0.0]
    with pytest.raises(ValueError, match=r"f1_t0: expected 3 coordinates \(shape \(3,\)\), got shape \(2,\)"):
        ccdlab.vertex_face_ccd(p, p, [0, 1], p, p, p, p, p)
    with pytest.raises(ValueError, match="eb1_t1: non-finite coordinate NaN"):
        ccdlab.edge_edge_ccd(p, p, p, p, p, p, p, [0, np.nan, 0])
    with pytest.raises(ValueError, match=r"v_t0: value 9007199254740993 \(element 2"):
        ccdlab.vertex_face_ccd(np.array([0, 0, 2**53 + 1]), p, p, p, p, p, p, p)
    with pytest.raises(ValueError, match=r"v_t0: value 18446744073709551615"):
        ccdlab.vertex_face_ccd(np.array([0, 0, 2**64 - 1], dtype=np.uint64), p, p, p, p, p, p, p)
    with pytest.raises(ValueError, match="solver"):
        ccdlab.vertex_face_ccd(p, p, p, p, p, p, p, p, solver="x")
    with pytest.raises(TypeError):
        ccdlab.vertex_face_ccd(p, p, p)


def test_masked_arrays_are_refused_not_read_through_their_mask():
    masked_V = np.ma.masked_array(V, mask=np.zeros_like(V, dtype=bool))
    masked_V.mask[0, 0] = True
    with pytest.raises(ValueError, match="V1: a masked array is not supported"):
        ccdlab.step(V, masked_V, F)
    with pytest.raises(ValueError, match="F: a masked array is not supported"):
        ccdlab.step(V, W, np.ma.masked_array(F))
    q = np.ma.masked_array(np.zeros((2, 8, 3)))
    with pytest.raises(ValueError, match="queries: a masked array is not supported"):
        ccdlab.vertex_face_ccd_batch(q)
    # Other subclasses of ndarray are arrays as any other.
    class Tagged(np.ndarray):
        pass
    assert ccdlab.step(V, W.view(Tagged), F).toi == ccdlab.step(V, W, F).toi


def test_bad_batches():
    q = np.zeros((4, 8, 3))
    with pytest.raises(ValueError, match=r"queries: expected an array of shape \(n, 8, 3\).*\(4, 8, 2\)"):
        ccdlab.vertex_face_ccd_batch(q[:, :, :2])
    with pytest.raises(ValueError, match=r"got shape \(8, 3\)"):
        ccdlab.edge_edge_ccd_batch(q[0])
    with pytest.raises(ValueError, match="dtype float16 is not supported"):
        ccdlab.edge_edge_ccd_batch(q.astype(np.float16))
    # Integers are converted exactly, or refused where a double cannot hold them.
    hit, lower, upper = ccdlab.edge_edge_ccd_batch(q.astype(np.int32))
    assert hit.tolist() == ccdlab.edge_edge_ccd_batch(q)[0].tolist()
    huge = q.astype(np.int64)
    huge[3, 7, 2] = -(2**60) - 1
    with pytest.raises(ValueError, match=r"queries: value -1152921504606846977 \(element 95 in C order"):
        ccdlab.vertex_face_ccd_batch(huge)
    bad = q.copy()
    bad[2, 5, 1] = np.inf
    with pytest.raises(ValueError, match=r"query 2, point 5 \(both numbered from 0\) has a non-finite coordinate inf"):
        ccdlab.vertex_face_ccd_batch(bad)
    # The first bad coordinate in query, point, axis order, read from a C-order array and
    # from a strided one (two paths in the binding) alike.
    bad[2, 6, 0] = np.nan
    bad[3, 0, 0] = -np.inf
    strided = np.zeros((4, 8, 6))
    strided[:, :, ::2] = bad
    for layout in (bad, strided[:, :, ::2], np.asfortranarray(bad)):
        with pytest.raises(ValueError, match=r"query 2, point 5 \(both numbered from 0\) has a non-finite coordinate inf"):
            ccdlab.edge_edge_ccd_batch(layout)
    bad[2, 5, 1] = 0.0
    strided[:, :, ::2] = bad
    for layout in (bad, strided[:, :, ::2]):
        with pytest.raises(ValueError, match=r"query 2, point 6 \(both numbered from 0\) has a non-finite coordinate NaN"):
            ccdlab.vertex_face_ccd_batch(layout)
    with pytest.raises(ValueError, match="threads"):
        ccdlab.vertex_face_ccd_batch(q, threads=0)


def test_arrays_larger_than_memory_raise_memory_error():
    # Broadcast views claim more rows than any address space holds: a
    # MemoryError naming the argument, not an aborted interpreter.
    huge = 10**14
    q = np.zeros((1, 8, 3))
    with pytest.raises(MemoryError, match="queries: 100000000000000 rows"):
        ccdlab.vertex_face_ccd_batch(np.broadcast_to(q, (huge, 8, 3)))
    with pytest.raises(MemoryError, match="V0: 100000000000000 rows"):
        ccdlab.step(np.broadcast_to(V[:1], (huge, 3)), W, F)
    with pytest.raises(MemoryError, match="F: 100000000000000 rows"):
        ccdlab.edges(np.broadcast_to(F[:1], (huge, 3)))
    with pytest.raises(MemoryError, match="F: 100000000000000 rows"):
        ccdlab.Pipeline(np.broadcast_to(F[:1], (huge, 3)))


def test_files(tmp_path):
    with pytest.raises(FileNotFoundError, match="nowhere.ply"):
        ccdlab.read_mesh(tmp_path / "nowhere.ply")
    folder = tmp_path / "folder.ply"
    folder.mkdir()
    with pytest.raises(IsADirectoryError, match="folder.ply: is a folder"):
        ccdlab.read_mesh(folder)
    with pytest.raises(IsADirectoryError, match="is a folder"):
        ccdlab.read_mesh(tmp_path)
    with pytest.raises(TypeError, match="path: expected str, bytes or os.PathLike"):
        ccdlab.read_mesh(None)
    with pytest.raises(ValueError, match="unknown mesh format `stl`"):
        ccdlab.read_mesh(tmp_path / "mesh.stl")
    bad = tmp_path / "bad.ply"
    bad.write_text("ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\nend_header\n1\n")
    with pytest.raises(ValueError, match="bad.ply"):
        ccdlab.read_mesh(bad)
    obj = tmp_path / "bad.obj"
    obj.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n")
    with pytest.raises(ValueError, match="bad.obj"):
        ccdlab.read_mesh(obj)
    # Vertices alone: a file is refused (a misread one, likelier than
    # particles; in memory, F = np.empty((0, 3), int) makes particles).
    points = tmp_path / "points.obj"
    points.write_text("v 0 0 0\nv 1 0 0\n")
    with pytest.raises(ValueError, match="points.obj: the mesh has no faces and no edges"):
        ccdlab.read_mesh(points)
    good = tmp_path / "tri.obj"
    good.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    V, F = ccdlab.read_mesh(str(good))
    assert V.shape == (3, 3) and F.tolist() == [[0, 1, 2]]
    # A path as bytes, and a name that is not UTF-8, read as any other.
    odd = tmp_path / os.fsdecode(b"tri-\xff.obj")
    odd.write_text(good.read_text())
    for path in (bytes(good), os.fsencode(odd), odd):
        V, F = ccdlab.read_mesh(path)
        assert V.shape == (3, 3) and F.tolist() == [[0, 1, 2]]
    # A NUL in a path: ValueError, as Python's own open makes it; bytes
    # paths for queries too.
    for bad in ("tri\0.obj", b"tri\0.obj"):
        with pytest.raises(ValueError, match=r"path: embedded null byte in 'tri\\x00.obj'"):
            ccdlab.read_mesh(bad)
        with pytest.raises(ValueError, match="paths: embedded null byte"):
            ccdlab.queries(bad)
    with pytest.raises(TypeError, match="paths: expected str, bytes or os.PathLike"):
        ccdlab.queries(3)
    with pytest.raises(FileNotFoundError, match="nowhere"):
        ccdlab.queries(os.fsencode(tmp_path / "nowhere"))
    with pytest.raises(FileNotFoundError, match="nowhere"):
        ccdlab.queries(tmp_path / "nowhere")
    with pytest.raises(ValueError, match="at least one path"):
        ccdlab.queries()
    with pytest.raises(ValueError, match="no query files here"):
        ccdlab.queries(tmp_path)
    with pytest.raises(ValueError, match="min_time_ms"):
        ccdlab.queries(tmp_path, min_time_ms=-1)
    # A query file that is a FIFO: OSError, named directly or found in a folder.
    sets = tmp_path / "sets" / "vertex-face"
    sets.mkdir(parents=True)
    os.mkfifo(sets / "data_0_0.csv")
    for path in (sets / "data_0_0.csv", tmp_path / "sets"):
        with pytest.raises(OSError, match="data_0_0.csv.*FIFO"):
            ccdlab.queries(path)
    with pytest.raises(ValueError, match=r"\(empty path\): no file extension"):
        ccdlab.read_mesh("")


def test_signatures_show_the_defaults():
    import inspect
    for f in (ccdlab.vertex_face_ccd, ccdlab.edge_edge_ccd, ccdlab.vertex_face_ccd_batch,
              ccdlab.edge_edge_ccd_batch, ccdlab.queries, ccdlab.step, ccdlab.Pipeline):
        assert inspect.signature(f).parameters["min_distance"].default == 0.0, f
