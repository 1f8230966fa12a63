//! The keyword options of `step` and `Pipeline`, checked into a
//! `PipelineConfig` and a thread count (and back, for `Pipeline.config`),
//! and those of the single and batched queries (`solver`, `min_distance`).

use std::str::FromStr;

use ccdlab::bounding_volume::KdopAxes;
use ccdlab::filter::FilterSet;
use ccdlab::math::Vec3;
use ccdlab::narrow_phase::{
    QueryKind, Solver, Toi, edge_edge_within, min_distance_solvers, validate_separation,
    vertex_face_within,
};
use ccdlab::pipeline::{Bodies, BodyLabels, PipelineConfig, SelfColliding, TimeAligned};
use numpy::IntoPyArray;
use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PySlice, PyString};

use crate::arrays::*;

/// The most worker threads `threads=` accepts (as `ccdlab --threads`).
const MAX_THREADS: i64 = 1024;

/// `k=`: an int or a string such as `"26"`.
pub(crate) enum IntOrStr {
    Int(i64),
    Str(String),
}

impl<'a, 'py> FromPyObject<'a, 'py> for IntOrStr {
    type Error = PyErr;

    /// An integer (anything with `__index__`, numpy's included; one beyond
    /// `i64` kept as its digits, for the range error of `k`) or a str;
    /// anything else, a bool included, is a `TypeError` naming `k`.
    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(s) = obj.cast::<PyString>() {
            return Ok(IntOrStr::Str(s.to_str()?.to_owned()));
        }
        if !obj.is_instance_of::<PyBool>() {
            match obj.extract::<i64>() {
                Ok(k) => return Ok(IntOrStr::Int(k)),
                Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => {
                    return Ok(IntOrStr::Str(obj.str()?.to_str()?.to_owned()));
                }
                Err(_) => {}
            }
        }
        Err(PyTypeError::new_err(format!(
            "k: expected an int or a str (6, 8, 14, 18 or 26), got {}",
            obj.get_type().name()?
        )))
    }
}

/// `threads=`: an int (numpy's included); a bool is a `TypeError` (as for
/// `k`), not one thread. Checked by [`parse_threads`].
pub(crate) struct Threads(Result<i64, String>);

impl<'a, 'py> FromPyObject<'a, 'py> for Threads {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        int_arg(&obj, "threads", "an int (1 to 1024) or None").map(Threads)
    }
}

/// `num_vertices=`: a non-negative int (numpy's included); a negative or
/// too large one is a `ValueError`, a bool a `TypeError`.
#[derive(Clone, Copy)]
pub(crate) struct VertexCount(pub(crate) usize);

impl<'a, 'py> FromPyObject<'a, 'py> for VertexCount {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let n = int_arg(&obj, "num_vertices", "an int or None")?;
        n.ok()
            .and_then(|n| usize::try_from(n).ok())
            .map(VertexCount)
            .ok_or_else(|| {
                value_error(format!(
                    "num_vertices: {} is out of range; pass a vertex count (0 to 2**63 - 1) or None",
                    &*obj
                ))
            })
    }
}

/// The int argument `name` (numpy's included): a bool, or anything without
/// `__index__` (a float, a str), is a `TypeError` naming `name` and saying
/// `expected`; an int beyond 64 bits is `Err` with its digits (out
/// of range for every use here: a `ValueError` for the caller to raise, not
/// pyo3's `OverflowError`).
fn int_arg(
    obj: &Borrowed<'_, '_, PyAny>,
    name: &str,
    expected: &str,
) -> PyResult<Result<i64, String>> {
    if is_bool(obj)? {
        return Err(PyTypeError::new_err(format!(
            "{name}: expected {expected}, got bool"
        )));
    }
    match obj.extract::<i64>() {
        Ok(n) => Ok(Ok(n)),
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => Ok(Err(obj.to_string())),
        Err(e) if e.is_instance_of::<PyTypeError>(obj.py()) => Err(PyTypeError::new_err(format!(
            "{name}: expected {expected}, got {}",
            obj.get_type().name()?
        ))),
        Err(e) => Err(e),
    }
}

/// Whether `obj` is a bool: Python's, or numpy's (no `PyBool`; its type is
/// `numpy.bool` from numpy 2, `numpy.bool_` before).
fn is_bool(obj: &Borrowed<'_, '_, PyAny>) -> PyResult<bool> {
    if obj.is_instance_of::<PyBool>() {
        return Ok(true);
    }
    let name = obj.get_type().fully_qualified_name()?;
    Ok(name == "numpy.bool" || name == "numpy.bool_")
}

/// `min_distance=`: a float or an int (numpy's included); a bool is a
/// `TypeError`, not a distance of 0 or 1.
#[derive(Clone, Copy)]
pub(crate) struct Distance(pub(crate) f64);

impl<'a, 'py> FromPyObject<'a, 'py> for Distance {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        float_not_bool(obj, "min_distance").map(Distance)
    }
}

/// A float or an int (numpy's included) given as `name`; anything else (a
/// bool included) is a `TypeError` naming it.
pub(crate) fn float_not_bool(obj: Borrowed<'_, '_, PyAny>, name: &str) -> PyResult<f64> {
    let refused = || -> PyResult<PyErr> {
        let what = if is_bool(&obj)? {
            "bool".to_string()
        } else {
            obj.get_type().name()?.to_string()
        };
        Ok(PyTypeError::new_err(format!(
            "{name}: expected a float, got {what}"
        )))
    };
    if is_bool(&obj)? {
        return Err(refused()?);
    }
    obj.extract().or_else(|_| Err(refused()?))
}

/// `time_aligned=`: `"auto"`, `"on"`, `"off"`, or a bool.
pub(crate) enum BoolOrStr {
    Bool(bool),
    Str(String),
}

impl<'a, 'py> FromPyObject<'a, 'py> for BoolOrStr {
    type Error = PyErr;

    /// A bool (numpy's included) or a str; anything else is a `TypeError`
    /// naming `time_aligned`.
    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(b) = obj.extract::<bool>() {
            return Ok(BoolOrStr::Bool(b));
        }
        if let Ok(s) = obj.cast::<PyString>() {
            return Ok(BoolOrStr::Str(s.to_str()?.to_owned()));
        }
        Err(PyTypeError::new_err(format!(
            "time_aligned: expected \"auto\", \"on\", \"off\" or a bool, got {}",
            obj.get_type().name()?
        )))
    }
}

/// `self_collision=`: one bool for every body, a bool per body, or a
/// named setting (`"moving"`: the components that do not move are a static
/// obstacle; any other name is refused by [`parse_bodies`]).
pub(crate) enum SelfCollision {
    All(bool),
    /// A sequence, converted by [`parse_bodies`] up to the largest body
    /// label (so that a broadcast view of any length is never copied).
    Each(Py<PyAny>),
    Named(String),
}

impl<'a, 'py> FromPyObject<'a, 'py> for SelfCollision {
    type Error = PyErr;

    /// A bool (numpy's included), a str, or a sized object (a list, a
    /// tuple, a numpy array), whose elements [`parse_bodies`] checks;
    /// anything else is a `TypeError` naming `self_collision`.
    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(b) = obj.extract::<bool>() {
            return Ok(SelfCollision::All(b));
        }
        if let Ok(s) = obj.cast::<PyString>() {
            return Ok(SelfCollision::Named(s.to_str()?.to_owned()));
        }
        if obj.len().is_ok() {
            return Ok(SelfCollision::Each(obj.to_owned().unbind()));
        }
        Err(self_collision_type_error(&obj))
    }
}

/// The `TypeError` of a `self_collision` that is not a bool, a str or a
/// sequence of bools (an array of another dtype is named by it).
fn self_collision_type_error(obj: &Bound<'_, PyAny>) -> PyErr {
    let what = || -> PyResult<String> {
        Ok(match obj.getattr("dtype") {
            Ok(dtype) => format!("{} of dtype {}", obj.get_type().name()?, dtype.str()?),
            Err(_) => obj.get_type().name()?.to_string(),
        })
    };
    match what() {
        Ok(what) => PyTypeError::new_err(format!(
            "self_collision: expected a bool, a sequence of bools (one per body) or \"moving\", \
             got {what}"
        )),
        Err(e) => e,
    }
}

/// The `TypeError` of a `self_collision` sequence that is not all bools:
/// it names the first element that is not one (or the sequence's type,
/// when it cannot be iterated).
fn not_bools(each: &Bound<'_, PyAny>) -> PyErr {
    let Ok(items) = each.try_iter() else {
        return self_collision_type_error(each);
    };
    for (i, item) in items.enumerate() {
        match item {
            Ok(item) if item.extract::<bool>().is_ok() => {}
            Ok(item) => {
                return match item.get_type().name() {
                    Ok(name) => PyTypeError::new_err(format!(
                        "self_collision: expected a bool per body, got {name} at index {i}"
                    )),
                    Err(e) => e,
                };
            }
            Err(e) => return e,
        }
    }
    self_collision_type_error(each)
}

/// `bodies=` and `self_collision=` as the pipeline's bodies: `None` when
/// every pair is tested. `expected`: the mesh's vertex count, when known,
/// which the labels' count must be (checked before they are converted).
pub(crate) fn parse_bodies(
    bodies: Option<&Bound<'_, PyAny>>,
    self_collision: SelfCollision,
    expected: Option<usize>,
) -> PyResult<Option<Bodies>> {
    if let SelfCollision::Named(s) = &self_collision {
        return match (s.as_str(), bodies) {
            ("moving", None) => Ok(Some(Bodies::StillObstacle)),
            ("moving", Some(_)) => Err(value_error(
                "self_collision: \"moving\" decides the bodies itself (the components that do \
                 not move are the obstacle); pass bodies=None, or a bool per body with bodies",
            )),
            (s, _) => Err(value_error(format!(
                "self_collision: {s:?} is not a setting; pass True, False, a bool per body, or \
                 \"moving\""
            ))),
        };
    }
    let Some(bodies) = bodies else {
        return match self_collision {
            SelfCollision::All(false) => Ok(Some(Bodies::Components)),
            SelfCollision::Each(_) => Err(value_error(
                "self_collision: a bool per body needs bodies= (a body label per vertex); \
                 without bodies, pass True, False (each connected component is a body) or \
                 \"moving\"",
            )),
            _ => Ok(None),
        };
    };
    let of_vertex = labels(bodies, "bodies", expected)?;
    let labels = match self_collision {
        SelfCollision::Each(each) => {
            let each = each.bind(bodies.py());
            // An array of another dtype is refused before its length.
            if let Ok(dtype) = each.getattr("dtype")
                && dtype.getattr("kind")?.ne("b")?
            {
                return Err(self_collision_type_error(each));
            }
            // Entries past the largest label are not used, nor converted.
            let count = of_vertex.iter().max().map_or(0, |&b| b as usize + 1);
            let each = if each.len()? > count {
                &each
                    .get_item(PySlice::new(each.py(), 0, count as isize, 1))
                    .map_err(|_| self_collision_type_error(each))?
            } else {
                each
            };
            let flags: Vec<bool> = each.extract().map_err(|_| not_bools(each))?;
            // Too few flags for the labels: `self_collision` is what is short.
            BodyLabels::new(of_vertex, flags)
                .map_err(|e| value_error(format!("self_collision: {e}")))?
        }
        SelfCollision::All(b) => BodyLabels::uniform(of_vertex, b),
        SelfCollision::Named(_) => unreachable!("returned above"),
    };
    Ok(Some(Bodies::Labels(labels)))
}

pub(crate) fn parse_solver(solver: &str) -> PyResult<Solver> {
    Solver::from_str(solver).map_err(|e| value_error(format!("solver: {e}")))
}

/// `min_distance=`: a finite distance `≥ 0`.
pub(crate) fn parse_min_distance(Distance(d): Distance) -> PyResult<f64> {
    validate_separation(d).map_err(|e| value_error(format!("min_distance: {e}")))
}

/// What a query call solves with: `solver=` at `min_distance = 0`, the exact
/// minimum-separation solvers at `min_distance > 0`.
#[derive(Clone, Copy, Debug)]
pub(crate) enum QuerySolver {
    /// Contact, with this solver (the answers of `solver.solve`).
    Contact(Solver),
    /// Within this distance `d > 0`, with this solver (one with a minimum
    /// separation; the exact minimum-separation functions decide).
    Within(Solver, f64),
}

impl QuerySolver {
    /// `solver=` and `min_distance=`, checked: a finite `d ≥ 0`, and at
    /// `d > 0` the exact solver only (the cubic one decides contact only).
    pub(crate) fn parse(solver: &str, min_distance: Distance) -> PyResult<QuerySolver> {
        let solver = parse_solver(solver)?;
        let d = parse_min_distance(min_distance)?;
        if d == 0.0 {
            Ok(QuerySolver::Contact(solver))
        } else if solver.has_min_distance() {
            Ok(QuerySolver::Within(solver, d))
        } else {
            Err(value_error(format!(
                "solver: the {solver} solver has no minimum separation (it decides contact \
                 only); pass solver=\"{}\" with min_distance={d:?}",
                min_distance_solvers()
            )))
        }
    }

    /// Solves one query given as its eight points in data set row order.
    #[inline]
    pub(crate) fn solve(self, kind: QueryKind, q: &[Vec3; 8]) -> Option<Toi> {
        let [a, b, c, d, e, f, g, h] = q;
        match (self, kind) {
            (QuerySolver::Contact(solver), kind) => solver.solve(kind, q),
            (QuerySolver::Within(_, dist), QueryKind::VertexFace) => {
                vertex_face_within(a, b, c, d, e, f, g, h, dist)
            }
            (QuerySolver::Within(_, dist), QueryKind::EdgeEdge) => {
                edge_edge_within(a, b, c, d, e, f, g, h, dist)
            }
        }
    }
}

/// `threads=`: `None` (all CPUs) or 1 to [`MAX_THREADS`].
pub(crate) fn parse_threads(threads: Option<Threads>) -> PyResult<Option<usize>> {
    match threads.map(|Threads(n)| n) {
        None => Ok(None),
        Some(Ok(n)) if (1..=MAX_THREADS).contains(&n) => Ok(Some(n as usize)),
        Some(n) => Err(value_error(format!(
            "threads: {} is out of range; pass 1 to {MAX_THREADS}, or None for all CPUs",
            n.map_or_else(|digits| digits, |n| n.to_string())
        ))),
    }
}

/// A pipeline configuration and a thread count, checked; also kept as the
/// plain values they were given as (for `Pipeline.config` and pickling).
#[derive(Clone, Debug)]
pub(crate) struct Options {
    pub(crate) config: PipelineConfig,
    pub(crate) threads: Option<usize>,
}

impl Options {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn parse(
        k: IntOrStr,
        filters: &str,
        window: bool,
        time_aligned: BoolOrStr,
        solver: &str,
        threads: Option<Threads>,
        collect_pairs: bool,
        min_distance: Distance,
        bodies: Option<Bodies>,
    ) -> PyResult<Options> {
        let min_distance = parse_min_distance(min_distance)?;
        let k = match k {
            IntOrStr::Int(k) => k.to_string(),
            IntOrStr::Str(k) => k,
        };
        let axes = KdopAxes::from_str(&k).map_err(|e| value_error(format!("k: {e}")))?;
        let filters =
            FilterSet::from_str(filters).map_err(|e| value_error(format!("filters: {e}")))?;
        let time_aligned = match time_aligned {
            BoolOrStr::Bool(true) => TimeAligned::On,
            BoolOrStr::Bool(false) => TimeAligned::Off,
            BoolOrStr::Str(s) => match s.as_str() {
                "on" => TimeAligned::On,
                "off" => TimeAligned::Off,
                "auto" => TimeAligned::Auto,
                _ => {
                    return Err(value_error(format!(
                        "time_aligned: {s:?} is not a setting; pass \"auto\", \"on\" or \"off\" \
                         (or True / False)"
                    )));
                }
            },
        };
        // At d > 0 a solver with a minimum separation only, as for the
        // queries.
        let (QuerySolver::Contact(solver) | QuerySolver::Within(solver, _)) =
            QuerySolver::parse(solver, Distance(min_distance))?;
        Ok(Options {
            config: PipelineConfig {
                axes,
                filters,
                solver,
                window,
                time_aligned,
                collect_pairs,
                min_distance,
                bodies,
                ..PipelineConfig::default()
            },
            threads: parse_threads(threads)?,
        })
    }

    /// The options as plain Python values (the keyword arguments that
    /// give them).
    pub(crate) fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let c = &self.config;
        let d = PyDict::new(py);
        d.set_item("k", c.axes.k())?;
        d.set_item("filters", c.filters.to_string())?;
        d.set_item("window", c.window)?;
        d.set_item(
            "time_aligned",
            match c.time_aligned {
                TimeAligned::On => "on",
                TimeAligned::Off => "off",
                TimeAligned::Auto => "auto",
            },
        )?;
        d.set_item("solver", c.solver.name())?;
        d.set_item("threads", self.threads)?;
        d.set_item("collect_pairs", c.collect_pairs)?;
        d.set_item("min_distance", c.min_distance)?;
        match &c.bodies {
            None => {
                d.set_item("bodies", py.None())?;
                d.set_item("self_collision", true)?;
            }
            Some(Bodies::Components) => {
                d.set_item("bodies", py.None())?;
                d.set_item("self_collision", false)?;
            }
            Some(Bodies::StillObstacle) => {
                d.set_item("bodies", py.None())?;
                d.set_item("self_collision", "moving")?;
            }
            Some(Bodies::Labels(labels)) => {
                d.set_item("bodies", labels.of_vertex().to_vec().into_pyarray(py))?;
                match labels.self_colliding() {
                    SelfColliding::All(b) => d.set_item("self_collision", *b)?,
                    SelfColliding::Each(each) => d.set_item("self_collision", each.to_vec())?,
                }
            }
        }
        Ok(d)
    }
}
