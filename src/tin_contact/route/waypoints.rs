//! A planned route: a 3D polyline of waypoints with a time at each (Yu et
//! al. 2000, §3: "飞行器沿预先规划好的航线飞行"; docs/design.md §3).
//!
//! Text format (file): one waypoint per line, `x y z` or `x y z t`
//! (whitespace or commas between numbers), `#` starts a comment, blank lines
//! are skipped. Inline: waypoints separated by `;`, numbers by `,` —
//! `"0,0,100;500,0,80"`. Times, when given, are given for every waypoint and
//! increase strictly; otherwise waypoint `k` is reached at (arc length up
//! to `k`) / speed. Coordinates lie within
//! ±[`MAX_COORDINATE`](super::terrain::MAX_COORDINATE).

use std::path::{Path, PathBuf};

use super::error::RouteError;
use super::terrain::{first_out_of_range, out_of_range_message};
use crate::math::{Real, Vec3};

/// A validated route: at least two finite waypoints within
/// ±[`MAX_COORDINATE`](super::terrain::MAX_COORDINATE), times
/// non-decreasing along it (strictly increasing when given).
#[derive(Debug, Clone, PartialEq)]
pub struct Route {
    points: Vec<Vec3>,
    times: Vec<Real>,
    distances: Vec<Real>,
    explicit_times: bool,
}

/// One parsed waypoint: coordinates, optional time, and its line.
type Row = (Vec3, Option<Real>, usize);

impl Route {
    /// A route through `points`, with `times` (one per point, strictly
    /// increasing) or, when `None`, times from the arc length at `speed`.
    /// Errors name `source` as the file.
    pub fn new(
        source: &Path,
        points: Vec<Vec3>,
        times: Option<Vec<Real>>,
        speed: Real,
    ) -> Result<Route, RouteError> {
        let rows: Vec<Row> = match &times {
            Some(t) if t.len() != points.len() => {
                return Err(RouteError::BadTime {
                    path: source.to_path_buf(),
                    waypoint: t.len().min(points.len()),
                    line: t.len().min(points.len()) + 1,
                    message: format!("{} times for {} waypoints", t.len(), points.len()),
                });
            }
            Some(t) => points
                .iter()
                .zip(t)
                .enumerate()
                .map(|(k, (p, &t))| (*p, Some(t), k + 1))
                .collect(),
            None => points
                .iter()
                .enumerate()
                .map(|(k, p)| (*p, None, k + 1))
                .collect(),
        };
        Route::from_rows(source, rows, speed)
    }

    fn from_rows(source: &Path, rows: Vec<Row>, speed: Real) -> Result<Route, RouteError> {
        let path = || source.to_path_buf();
        if !(speed.is_finite() && speed > 0.0) {
            return Err(RouteError::Parameter {
                what: "speed",
                message: format!("must be finite and > 0, got {speed}"),
            });
        }
        for (k, (p, t, line)) in rows.iter().enumerate() {
            for value in [p.x, p.y, p.z].into_iter().chain(*t) {
                if !value.is_finite() {
                    return Err(RouteError::NonFiniteWaypoint {
                        path: path(),
                        waypoint: k,
                        line: *line,
                        value,
                    });
                }
            }
        }
        let points: Vec<Vec3> = rows.iter().map(|r| r.0).collect();
        if let Some((k, value)) = first_out_of_range(&points) {
            return Err(RouteError::OutOfRange {
                path: path(),
                element: format!("waypoint {k} (line {})", rows[k].2),
                message: out_of_range_message(value),
            });
        }
        if rows.len() < 2 {
            return Err(RouteError::TooFewWaypoints {
                path: path(),
                waypoints: rows.len(),
            });
        }
        let explicit_times = rows[0].1.is_some();
        let mut distances = Vec::with_capacity(rows.len());
        let mut acc: Real = 0.0;
        for (k, (p, _, line)) in rows.iter().enumerate() {
            if k > 0 {
                acc += (p - rows[k - 1].0).norm();
            }
            if !acc.is_finite() {
                return Err(RouteError::OutOfRange {
                    path: path(),
                    element: format!("waypoint {k} (line {line})"),
                    message: "the route's length overflows here".into(),
                });
            }
            distances.push(acc);
        }
        let mut times = Vec::with_capacity(rows.len());
        for (k, (_, t, line)) in rows.iter().enumerate() {
            match (explicit_times, t) {
                (true, Some(t)) => {
                    if k > 0 && *t <= times[k - 1] {
                        return Err(RouteError::BadTime {
                            path: path(),
                            waypoint: k,
                            line: *line,
                            message: format!(
                                "time {t} does not increase (previous waypoint: {})",
                                times[k - 1]
                            ),
                        });
                    }
                    times.push(*t);
                }
                (false, None) => {
                    let t = distances[k] / speed;
                    if !t.is_finite() {
                        return Err(RouteError::OutOfRange {
                            path: path(),
                            element: format!("waypoint {k} (line {line})"),
                            message: format!(
                                "the time to reach it at speed {speed} overflows; give a larger speed"
                            ),
                        });
                    }
                    times.push(t);
                }
                _ => {
                    return Err(RouteError::BadTime {
                        path: path(),
                        waypoint: k,
                        line: *line,
                        message: "give a time for every waypoint or for none".into(),
                    });
                }
            }
        }
        Ok(Route {
            points: rows.into_iter().map(|r| r.0).collect(),
            times,
            distances,
            explicit_times,
        })
    }

    /// Parses the text of a route file (module doc).
    pub fn parse(path: &Path, text: &str, speed: Real) -> Result<Route, RouteError> {
        let mut rows = Vec::new();
        for (k, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            rows.push(parse_row(path, k + 1, line)?);
        }
        Route::from_rows(path, rows, speed)
    }

    /// Reads a route file.
    pub fn read(path: &Path, speed: Real) -> Result<Route, RouteError> {
        let text = crate::io::read_input_to_string(path).map_err(|source| RouteError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Route::parse(path, &text, speed)
    }

    /// Parses an inline route, `"x,y,z[,t];x,y,z[,t];…"`; errors name
    /// `<inline>` and the 1-based waypoint as the line.
    pub fn parse_inline(text: &str, speed: Real) -> Result<Route, RouteError> {
        let path = PathBuf::from("<inline>");
        let mut rows = Vec::new();
        for (k, w) in text.split(';').enumerate() {
            let w = w.trim();
            if w.is_empty() {
                continue;
            }
            rows.push(parse_row(&path, k + 1, w)?);
        }
        Route::from_rows(&path, rows, speed)
    }

    /// The waypoints.
    pub fn points(&self) -> &[Vec3] {
        &self.points
    }

    /// The time at each waypoint.
    pub fn times(&self) -> &[Real] {
        &self.times
    }

    /// The arc length from the start to each waypoint.
    pub fn distances(&self) -> &[Real] {
        &self.distances
    }

    /// Whether the times came with the waypoints (else from the speed).
    pub fn explicit_times(&self) -> bool {
        self.explicit_times
    }

    /// Number of segments (waypoints − 1).
    pub fn num_segments(&self) -> usize {
        self.points.len() - 1
    }

    /// The point at parameter `s ∈ [0, 1]` of segment `k`.
    pub fn point_at(&self, k: usize, s: Real) -> Vec3 {
        self.points[k] + (self.points[k + 1] - self.points[k]) * s
    }

    /// The time at parameter `s` of segment `k` (linear in `s`).
    pub fn time_at(&self, k: usize, s: Real) -> Real {
        self.times[k] + (self.times[k + 1] - self.times[k]) * s
    }

    /// The arc length at parameter `s` of segment `k`.
    pub fn distance_at(&self, k: usize, s: Real) -> Real {
        self.distances[k] + (self.distances[k + 1] - self.distances[k]) * s
    }
}

/// `x y z [t]` with whitespace or commas between the numbers.
fn parse_row(path: &Path, line: usize, text: &str) -> Result<Row, RouteError> {
    let syntax = |message: String| RouteError::Syntax {
        path: path.to_path_buf(),
        line,
        message,
    };
    let nums: Vec<Real> = text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<Real>()
                .map_err(|_| syntax(format!("`{s}` is not a number")))
        })
        .collect::<Result<_, _>>()?;
    match nums.as_slice() {
        [x, y, z] => Ok((Vec3::new(*x, *y, *z), None, line)),
        [x, y, z, t] => Ok((Vec3::new(*x, *y, *z), Some(*t), line)),
        _ => Err(syntax(format!(
            "expected `x y z` or `x y z t`, found {} numbers",
            nums.len()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p() -> &'static Path {
        Path::new("r.txt")
    }

    #[test]
    fn parses_files_with_comments_commas_and_times() {
        let r = Route::parse(p(), "# route\n0 0 10\n\n3,4,10 # corner\n3 4 20\n", 2.0).unwrap();
        assert_eq!(r.num_segments(), 2);
        assert_eq!(r.distances(), &[0.0, 5.0, 15.0]);
        assert_eq!(r.times(), &[0.0, 2.5, 7.5]);
        assert!(!r.explicit_times());
        let r = Route::parse_inline("0,0,0,1; 1,0,0,3", 1.0).unwrap();
        assert_eq!(r.times(), &[1.0, 3.0]);
        assert_eq!(r.time_at(0, 0.5), 2.0);
        assert_eq!(r.point_at(0, 0.25), Vec3::new(0.25, 0.0, 0.0));
    }

    #[test]
    fn bad_routes_are_refused_with_file_and_element() {
        let e = Route::parse(p(), "", 1.0).unwrap_err();
        assert!(
            matches!(e, RouteError::TooFewWaypoints { waypoints: 0, .. }),
            "{e}"
        );
        let e = Route::parse(p(), "1 2 3\n", 1.0).unwrap_err();
        assert!(e.to_string().contains("1 waypoint"), "{e}");
        let e = Route::parse(p(), "0 0 0\n1 NaN 0\n", 1.0).unwrap_err();
        assert!(
            matches!(
                e,
                RouteError::NonFiniteWaypoint {
                    waypoint: 1,
                    line: 2,
                    ..
                }
            ),
            "{e}"
        );
        assert!(e.to_string().contains("r.txt"));
        let e = Route::parse(p(), "0 0 0\n1 x 0\n", 1.0).unwrap_err();
        assert!(matches!(e, RouteError::Syntax { line: 2, .. }), "{e}");
        let e = Route::parse(p(), "0 0 0 1\n1 0 0\n", 1.0).unwrap_err();
        assert!(matches!(e, RouteError::BadTime { waypoint: 1, .. }), "{e}");
        let e = Route::parse(p(), "0 0 0 1\n1 0 0 1\n", 1.0).unwrap_err();
        assert!(e.to_string().contains("does not increase"), "{e}");
        // A speed so small that the times overflow.
        let e = Route::parse(p(), "0 0 0\n# far\n1 0 0\n", 1e-320).unwrap_err();
        assert!(
            matches!(&e, RouteError::OutOfRange { element, .. } if element == "waypoint 1 (line 3)"),
            "{e}"
        );
        let e = Route::parse_inline("0,0,0;inf,0,0", 1.0).unwrap_err();
        assert!(e.to_string().contains("<inline>"), "{e}");
        // Coordinates whose route length overflowed ("invalid route: its
        // length overflows", no file): beyond ±MAX_COORDINATE, named.
        let e = Route::parse(p(), "# far\n-1e308 -1e308 400\n1e308 1e308 390\n", 1.0).unwrap_err();
        assert!(
            matches!(&e, RouteError::OutOfRange { element, .. } if element == "waypoint 0 (line 2)"),
            "{e}"
        );
        assert!(
            e.to_string().starts_with("r.txt: waypoint 0 (line 2): "),
            "{e}"
        );
        let e = Route::parse_inline("0,0,0;0,2e60,0", 1.0).unwrap_err();
        assert!(
            e.to_string().starts_with("<inline>: waypoint 1 (line 2): "),
            "{e}"
        );
        let e = Route::parse_inline("0,0,0;1,0,0", 0.0).unwrap_err();
        assert!(
            matches!(e, RouteError::Parameter { what: "speed", .. }),
            "{e}"
        );
    }
}
