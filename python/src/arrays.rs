//! Arrays in and out: numpy arrays and array-likes checked into Rust values,
//! results back as numpy arrays and dicts, and the errors they raise.

use ccdlab::math::Vec3;
use ccdlab::mesh::check_finite;
use ccdlab::narrow_phase::Toi;
use ccdlab::pipeline::BodiesError;
use numpy::ndarray::{Array2, Ix2, Ix3};
use numpy::{
    IntoPyArray, PyArrayDescrMethods, PyArrayDyn, PyArrayMethods, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::exceptions::{
    PyFileNotFoundError, PyMemoryError, PyOSError, PyPermissionError, PyRuntimeError, PyTypeError,
    PyValueError,
};
use pyo3::prelude::*;

// ---------------------------------------------------------------------------
// Errors

/// A `ValueError` with `message`.
pub(crate) fn value_error(message: impl Into<String>) -> PyErr {
    PyValueError::new_err(message.into())
}

/// A library error as a Python exception with the error's message:
/// `FileNotFoundError`, `PermissionError` or `OSError` when an operating
/// system error is at its root (a file that cannot be read), `ValueError`
/// otherwise (a file or a value that is wrong).
pub(crate) fn library_error(error: &(dyn std::error::Error + 'static)) -> PyErr {
    let message = error.to_string();
    let mut cause = Some(error);
    while let Some(e) = cause {
        if let Some(io) = e.downcast_ref::<std::io::Error>() {
            return match io.kind() {
                std::io::ErrorKind::NotFound => PyFileNotFoundError::new_err(message),
                std::io::ErrorKind::PermissionDenied => PyPermissionError::new_err(message),
                _ => PyOSError::new_err(message),
            };
        }
        cause = e.source();
    }
    PyValueError::new_err(message)
}

/// An array shape as Python prints it: `(4, 3)`, `(3,)`, `()`.
pub(crate) fn shape_text(shape: &[usize]) -> String {
    match shape {
        [n] => format!("({n},)"),
        _ => {
            let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
            format!("({})", dims.join(", "))
        }
    }
}

// ---------------------------------------------------------------------------
// Arrays in

/// An empty vector with room for `n` rows of the argument `name`, or a
/// `MemoryError` when they do not fit (instead of the allocator aborting the
/// interpreter: a broadcast array may claim far more rows than memory holds).
fn rows_vec<T>(n: usize, name: &str) -> PyResult<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| {
        PyMemoryError::new_err(format!(
            "{name}: {n} rows of {} bytes do not fit in memory",
            std::mem::size_of::<T>()
        ))
    })?;
    Ok(v)
}

/// `obj` as a numpy array: an array as it is, anything else through
/// `numpy.asarray` (with `dtype`, when given). A masked array is refused:
/// its masked entries hold no values, and its data would be read as if
/// they did.
pub(crate) fn as_ndarray<'py>(
    obj: &Bound<'py, PyAny>,
    dtype: Option<&str>,
    name: &str,
) -> PyResult<Bound<'py, PyAny>> {
    if obj.cast::<PyUntypedArray>().is_ok() {
        // Plain arrays skip the subclass check.
        if obj.get_type().name()? != "ndarray" && is_masked(obj)? {
            return Err(value_error(format!(
                "{name}: a masked array is not supported (its masked entries hold no \
                 values); pass {name}.filled(value) or the array of the values to use"
            )));
        }
        return Ok(obj.clone());
    }
    let numpy = obj.py().import("numpy")?;
    let converted = match dtype {
        Some(dtype) => numpy.call_method1("asarray", (obj, dtype)),
        None => numpy.call_method1("asarray", (obj,)),
    };
    // What numpy says of a value it cannot convert (`TypeError`,
    // `ValueError`) becomes a `ValueError` naming the argument, with
    // numpy's as its cause; anything else (`KeyboardInterrupt`,
    // `MemoryError`) passes as it was raised.
    converted.map_err(|e| {
        let py = obj.py();
        if e.is_instance_of::<PyTypeError>(py) || e.is_instance_of::<PyValueError>(py) {
            let error = value_error(format!("{name}: cannot be read as an array ({e})"));
            error.set_cause(py, Some(e));
            error
        } else {
            e
        }
    })
}

/// `numpy.ma.isMaskedArray(obj)`.
fn is_masked(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    obj.py()
        .import("numpy.ma")?
        .call_method1("isMaskedArray", (obj,))?
        .is_truthy()
}

/// `obj` as a float64 array: float64 arrays as they are (C or Fortran
/// order, any strides), float32 ones widened (exactly), integer ones
/// converted when every value is a double exactly (magnitude at most 2⁵³;
/// larger ones refused), other array-likes (lists, tuples) through
/// `numpy.asarray(obj)` and then as the array it gives; arrays of any other
/// dtype are refused.
pub(crate) fn float_array<'py>(
    obj: &Bound<'py, PyAny>,
    name: &str,
) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
    let array = as_ndarray(obj, None, name)?;
    let dtype = array.cast::<PyUntypedArray>()?.dtype();
    match dtype.kind() {
        b'f' if matches!(dtype.itemsize(), 4 | 8) => {
            if let Ok(a) = array.cast::<PyArrayDyn<f64>>() {
                return Ok(a.clone());
            }
        }
        b'i' => exact_integers::<i64>(&array, "int64", name, |v| v.unsigned_abs())?,
        b'u' => exact_integers::<u64>(&array, "uint64", name, |v| v)?,
        _ => {
            return Err(value_error(format!(
                "{name}: dtype {dtype} is not supported; pass float64, float32 or integers \
                 (for example {name}.astype(numpy.float64))"
            )));
        }
    }
    // float32, float64 of the other byte order, or exact integers.
    Ok(array
        .call_method1("astype", ("float64",))?
        .cast_into::<PyArrayDyn<f64>>()?)
}

/// `Ok` when every value of the integer array `array` (read as `wide`,
/// `int64` or `uint64`, which hold every integer dtype's values) has a
/// magnitude of at most 2⁵³, so that it converts to a double exactly.
fn exact_integers<T: numpy::Element + Copy + std::fmt::Display>(
    array: &Bound<'_, PyAny>,
    wide: &str,
    name: &str,
    magnitude: impl Fn(T) -> u64,
) -> PyResult<()> {
    let wide = array.call_method1("astype", (wide,))?;
    let wide = wide.cast::<PyArrayDyn<T>>()?.try_readonly();
    let wide = wide.map_err(|e| value_error(format!("{name}: {e}")))?;
    match wide
        .as_array()
        .iter()
        .enumerate()
        .find(|&(_, &v)| magnitude(v) > 1 << 53)
    {
        None => Ok(()),
        Some((i, v)) => Err(value_error(format!(
            "{name}: value {v} (element {i} in C order, from 0) is an integer beyond 2**53 in \
             magnitude, which a double does not hold exactly; pass float64 values"
        ))),
    }
}

/// An `(n, 3)` array's rows as points, every coordinate finite.
pub(crate) fn points(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Vec<Vec3>> {
    let array = float_array(obj, name)?;
    let array = array
        .try_readonly()
        .map_err(|e| value_error(format!("{name}: {e}")))?;
    let view = array.as_array();
    if view.ndim() != 2 || view.shape()[1] != 3 {
        return Err(value_error(format!(
            "{name}: expected an array of shape (n, 3), got shape {}",
            shape_text(view.shape())
        )));
    }
    let view = view
        .into_dimensionality::<Ix2>()
        .map_err(|e| value_error(format!("{name}: {e}")))?;
    let mut out = rows_vec(view.nrows(), name)?;
    out.extend(view.outer_iter().map(|r| Vec3::new(r[0], r[1], r[2])));
    check_finite(&out).map_err(|e| value_error(format!("{name}: {e}")))?;
    Ok(out)
}

/// A length-3 array-like as a point with finite coordinates.
pub(crate) fn point(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Vec3> {
    let array = float_array(obj, name)?;
    let array = array
        .try_readonly()
        .map_err(|e| value_error(format!("{name}: {e}")))?;
    let view = array.as_array();
    if view.shape() != [3] {
        return Err(value_error(format!(
            "{name}: expected 3 coordinates (shape (3,)), got shape {}",
            shape_text(view.shape())
        )));
    }
    let p: Vec<f64> = view.iter().copied().collect();
    if let Some(x) = p.iter().find(|x| !x.is_finite()) {
        return Err(value_error(format!("{name}: non-finite coordinate {x}")));
    }
    Ok(Vec3::new(p[0], p[1], p[2]))
}

/// An `(n, 8, 3)` array as `n` queries of eight points in the data sets'
/// row order, every coordinate finite.
pub(crate) fn query_batch(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Vec<[Vec3; 8]>> {
    let array = float_array(obj, name)?;
    let array = array
        .try_readonly()
        .map_err(|e| value_error(format!("{name}: {e}")))?;
    let view = array.as_array();
    if view.ndim() != 3 || view.shape()[1..] != [8, 3] {
        return Err(value_error(format!(
            "{name}: expected an array of shape (n, 8, 3) (eight points per query), got shape {}",
            shape_text(view.shape())
        )));
    }
    let view = view
        .into_dimensionality::<Ix3>()
        .map_err(|e| value_error(format!("{name}: {e}")))?;
    let non_finite = |i: usize, row: usize, v: f64| {
        value_error(format!(
            "{name}: query {i}, point {row} (both numbered from 0) has a non-finite coordinate {v}"
        ))
    };
    if let Some(flat) = view.as_slice() {
        // C order (the usual case): each query is 24 consecutive doubles, read
        // as a slice instead of 24 indexed (bounds-checked) elements.
        let mut out = rows_vec(view.shape()[0], name)?;
        for (i, q) in flat.chunks_exact(24).enumerate() {
            if !q.iter().fold(true, |ok, v| ok & v.is_finite()) {
                let k = q.iter().position(|v| !v.is_finite()).unwrap_or(0);
                return Err(non_finite(i, k / 3, q[k]));
            }
            out.push(std::array::from_fn(|row| {
                Vec3::new(q[3 * row], q[3 * row + 1], q[3 * row + 2])
            }));
        }
        return Ok(out);
    }
    let mut out = rows_vec(view.shape()[0], name)?;
    for (i, q) in view.outer_iter().enumerate() {
        let mut pts = [Vec3::zeros(); 8];
        for (row, p) in pts.iter_mut().enumerate() {
            let (x, y, z) = (q[[row, 0]], q[[row, 1]], q[[row, 2]]);
            if let Some(v) = [x, y, z].into_iter().find(|v| !v.is_finite()) {
                return Err(non_finite(i, row, v));
            }
            *p = Vec3::new(x, y, z);
        }
        out.push(pts);
    }
    Ok(out)
}

/// What an index array's entries number, for their range and messages.
#[derive(Debug, Clone, Copy)]
enum Indexed {
    /// Vertices of a mesh of this many, when known (faces, edges).
    Vertices(Option<usize>),
    /// Any elements of a mesh (candidate pairs): each below 2³² − 1, the
    /// library checking them against the mesh.
    Elements,
}

impl Indexed {
    /// One past the largest index allowed.
    fn limit(self) -> i128 {
        match self {
            Indexed::Vertices(Some(n)) => n as i128,
            Indexed::Vertices(None) => i128::from(u32::MAX - 1),
            Indexed::Elements => i128::from(u32::MAX),
        }
    }

    /// The message for `index`, negative or past the limit, in row
    /// `element` of the array `name` of `what`s.
    fn refused(self, name: &str, what: &str, element: usize, index: i128) -> String {
        match self {
            Indexed::Vertices(_) if index < 0 => format!(
                "{name}: {what} {element} (numbered from 0) has a negative vertex index {index}"
            ),
            Indexed::Vertices(Some(num_vertices)) => format!(
                "{name}: {what} {element} refers to vertex {index} (both numbered from 0), but \
                 the mesh has {num_vertices} vertices"
            ),
            Indexed::Vertices(None) => format!(
                "{name}: {what} {element} (numbered from 0) refers to vertex {index}; at most \
                 2^32 - 2 vertices are supported"
            ),
            Indexed::Elements => format!(
                "{name}: {what} {element} (numbered from 0) has index {index}, not one from 0 \
                 to 2**32 - 2"
            ),
        }
    }
}

/// The rows of an `(m, K)` index array of element type `T` as `what`s
/// (faces, edges, pairs), every index checked to be at least 0 and in the
/// range `indexed` allows.
fn index_rows<T: Copy + Into<i128> + numpy::Element, const K: usize>(
    array: &Bound<'_, PyAny>,
    indexed: Indexed,
    name: &str,
    what: &str,
) -> PyResult<Vec<[u32; K]>> {
    let array = array.cast::<PyArrayDyn<T>>()?;
    let array = array
        .try_readonly()
        .map_err(|e| value_error(format!("{name}: {e}")))?;
    let view = array
        .as_array()
        .into_dimensionality::<Ix2>()
        .map_err(|e| value_error(format!("{name}: {e}")))?;
    let mut out = rows_vec(view.nrows(), name)?;
    let limit = indexed.limit();
    for (element, r) in view.outer_iter().enumerate() {
        let row: [i128; K] = std::array::from_fn(|c| r[c].into());
        if let Some(&index) = row.iter().find(|&&i| i < 0 || i >= limit) {
            return Err(value_error(indexed.refused(name, what, element, index)));
        }
        out.push(row.map(|i| i as u32));
    }
    Ok(out)
}

/// An `(m, 3)` array of vertex indices (any integer dtype) as faces; an
/// empty one-dimensional array (`[]`) as none. With `num_vertices`, every
/// index must be below it; without, below 2³² − 2.
pub(crate) fn faces(
    obj: &Bound<'_, PyAny>,
    num_vertices: Option<usize>,
    name: &str,
) -> PyResult<Vec<[u32; 3]>> {
    index_array(obj, Indexed::Vertices(num_vertices), name, "face")
}

/// An `(m, 2)` array of vertex indices (any integer dtype) as edges, as
/// [`faces`] checks them.
pub(crate) fn edges(
    obj: &Bound<'_, PyAny>,
    num_vertices: Option<usize>,
    name: &str,
) -> PyResult<Vec<[u32; 2]>> {
    index_array(obj, Indexed::Vertices(num_vertices), name, "edge")
}

/// An `(m, 2)` array of element indices (any integer dtype) as candidate
/// pairs, `(vertex, face)` or `(edge, edge)`: each from 0 to 2³² − 2 (the
/// library checks them against the mesh).
pub(crate) fn pairs(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Vec<[u32; 2]>> {
    index_array(obj, Indexed::Elements, name, "row")
}

/// An `(m, K)` array of indices (any integer dtype) as rows of `what`s.
fn index_array<const K: usize>(
    obj: &Bound<'_, PyAny>,
    indexed: Indexed,
    name: &str,
    what: &str,
) -> PyResult<Vec<[u32; K]>> {
    let array = as_ndarray(obj, None, name)?;
    let untyped = array.cast::<PyUntypedArray>()?;
    // `[]` and `()` read as shape (0,) (and as floats): no rows, as for shape (0, K).
    if untyped.shape() == [0] {
        return Ok(Vec::new());
    }
    let dtype = untyped.dtype();
    let entries = match indexed {
        Indexed::Vertices(_) => "vertex indices",
        Indexed::Elements => "indices",
    };
    if untyped.ndim() != 2 || untyped.shape()[1] != K {
        return Err(value_error(format!(
            "{name}: expected an array of shape (m, {K}) of {entries}, got shape {}",
            shape_text(untyped.shape())
        )));
    }
    match dtype.kind() {
        b'i' => {
            let a = match array.cast::<PyArrayDyn<i64>>() {
                Ok(a) => a.clone().into_any(),
                Err(_) => array.call_method1("astype", ("int64",))?,
            };
            index_rows::<i64, K>(&a, indexed, name, what)
        }
        b'u' => {
            let a = match array.cast::<PyArrayDyn<u64>>() {
                Ok(a) => a.clone().into_any(),
                Err(_) => array.call_method1("astype", ("uint64",))?,
            };
            index_rows::<u64, K>(&a, indexed, name, what)
        }
        _ => Err(value_error(format!(
            "{name}: dtype {dtype} is not supported; {what} indices need an integer dtype \
             (for example {name}.astype(numpy.int64))"
        ))),
    }
}

/// A one-dimensional array of labels (any integer dtype; lists and tuples
/// through `numpy.asarray`), every value from 0 to 2³² − 1; `expected`
/// of them, when given (checked before any is converted).
pub(crate) fn labels(
    obj: &Bound<'_, PyAny>,
    name: &str,
    expected: Option<usize>,
) -> PyResult<Vec<u32>> {
    let array = as_ndarray(obj, None, name)?;
    let untyped = array.cast::<PyUntypedArray>()?;
    let dtype = untyped.dtype();
    if !matches!(dtype.kind(), b'i' | b'u') {
        return Err(value_error(format!(
            "{name}: dtype {dtype} is not supported; labels need an integer dtype \
             (for example {name}.astype(numpy.int64))"
        )));
    }
    if untyped.ndim() != 1 {
        return Err(value_error(format!(
            "{name}: expected an array of shape (n,), one label per vertex, got shape {}",
            shape_text(untyped.shape())
        )));
    }
    if let Some(expected) = expected
        && untyped.shape()[0] != expected
    {
        let e = BodiesError::Length {
            expected,
            found: untyped.shape()[0],
        };
        return Err(value_error(format!("{name}: {e}")));
    }
    // Read as int64, or as uint64 when unsigned (which holds every value).
    let wide = if dtype.kind() == b'u' {
        "uint64"
    } else {
        "int64"
    };
    let wide = array.call_method1("astype", (wide,))?;
    let mut out = rows_vec(untyped.shape()[0], name)?;
    let mut push = |i: usize, v: i128| {
        u32::try_from(v).map(|v| out.push(v)).map_err(|_| {
            value_error(format!(
                "{name}: element {i} is {v}, not a label from 0 to 2**32 - 1"
            ))
        })
    };
    if let Ok(a) = wide.cast::<PyArrayDyn<i64>>() {
        let a = a
            .try_readonly()
            .map_err(|e| value_error(format!("{name}: {e}")))?;
        for (i, &v) in a.as_array().iter().enumerate() {
            push(i, v.into())?;
        }
    } else {
        let a = wide.cast::<PyArrayDyn<u64>>()?;
        let a = a
            .try_readonly()
            .map_err(|e| value_error(format!("{name}: {e}")))?;
        for (i, &v) in a.as_array().iter().enumerate() {
            push(i, v.into())?;
        }
    }
    Ok(out)
}

// ---------------------------------------------------------------------------
// Arrays out

/// `array` made read-only (`setflags(write=False)`): a result's arrays are
/// its own, and an edit would change it where it is kept.
pub(crate) fn read_only(py: Python<'_>, array: Py<PyAny>) -> PyResult<Py<PyAny>> {
    let kwargs = pyo3::types::PyDict::new(py);
    kwargs.set_item("write", false)?;
    array.bind(py).call_method("setflags", (), Some(&kwargs))?;
    Ok(array)
}

/// `flat` as an `(len / 2, 2)` array.
pub(crate) fn pairs_array<T: numpy::Element>(py: Python<'_>, flat: Vec<T>) -> PyResult<Py<PyAny>> {
    let n = flat.len() / 2;
    let array = Array2::from_shape_vec((n, 2), flat)
        .map_err(|e| PyRuntimeError::new_err(format!("internal error: {e}")))?;
    Ok(array.into_pyarray(py).into_any().unbind())
}

/// A serialisable report as a Python dict (through JSON, so that the dict
/// is exactly what the command line prints with `--json`).
pub(crate) fn to_dict<T: serde::Serialize>(py: Python<'_>, value: &T) -> PyResult<Py<PyAny>> {
    let text = serde_json::to_string(value)
        .map_err(|e| PyRuntimeError::new_err(format!("internal error: {e}")))?;
    Ok(py.import("json")?.call_method1("loads", (text,))?.unbind())
}

/// A time of impact as `ccdlab.Toi`.
pub(crate) fn toi_object(py: Python<'_>, toi: Option<Toi>) -> PyResult<Option<Py<PyAny>>> {
    match toi {
        None => Ok(None),
        Some(t) => {
            let class = py.import("ccdlab._types")?.getattr("Toi")?;
            Ok(Some(class.call1((t.lower, t.upper))?.unbind()))
        }
    }
}

/// Triangles as an int64 `(m, 3)` array.
pub(crate) fn faces_array(py: Python<'_>, faces: &[[u32; 3]]) -> PyResult<Py<PyAny>> {
    let flat: Vec<i64> = faces.iter().flatten().map(|&i| i64::from(i)).collect();
    let array = Array2::from_shape_vec((faces.len(), 3), flat)
        .map_err(|e| PyRuntimeError::new_err(format!("internal error: {e}")))?;
    Ok(array.into_pyarray(py).into_any().unbind())
}
