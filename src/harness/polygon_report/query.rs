//! `ccdlab polygons query`: one pair from a JSON file resolved with every
//! method, beside the exact reference and (for small polygons) the
//! minimum-translation oracle.

use std::fmt::Write as _;
use std::path::Path;

use crate::polygon::evaluate::evaluate_pair;
use crate::polygon::{Polygon, PreparedPair};

use super::error::PolygonReportError;
use super::experiment::MAX_VERTICES;

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
/// The query file: the two polygons' vertices.
struct PairFile {
    a: Vec<Point>,
    b: Vec<Point>,
}

/// A vertex `[x, y]`, whose error for another number of coordinates says
/// so (a fixed-size array's own is "trailing characters" or "invalid
/// length").
struct Point([f64; 2]);

impl<'de> serde::Deserialize<'de> for Point {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Point, D::Error> {
        struct Coordinates;
        impl<'de> serde::de::Visitor<'de> for Coordinates {
            type Value = Point;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a point [x, y]")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Point, A::Error> {
                let mut xy = [0.0; 2];
                for (k, c) in xy.iter_mut().enumerate() {
                    *c = seq.next_element()?.ok_or_else(|| {
                        serde::de::Error::custom(format!(
                            "a point is [x, y]: this one has {k} coordinate{}",
                            if k == 1 { "" } else { "s" }
                        ))
                    })?;
                }
                if seq.next_element::<serde::de::IgnoredAny>()?.is_some() {
                    return Err(serde::de::Error::custom(
                        "a point is [x, y]: this one has more than 2 coordinates",
                    ));
                }
                Ok(Point(xy))
            }
        }
        d.deserialize_seq(Coordinates)
    }
}

/// The pair in the JSON file `path`, checked and prepared.
fn read_pair(path: &Path) -> Result<PreparedPair, PolygonReportError> {
    let text =
        crate::io::read_input_to_string(path).map_err(|source| PolygonReportError::Read {
            path: path.to_path_buf(),
            source,
        })?;
    let file: PairFile = serde_json::from_str(&text).map_err(|e| PolygonReportError::Json {
        path: path.to_path_buf(),
        line: e.line(),
        column: e.column(),
        // serde_json's message ends with the position, which the error
        // already states first.
        message: {
            let m = e.to_string();
            let at = format!(" at line {} column {}", e.line(), e.column());
            m.strip_suffix(&at).unwrap_or(&m).to_owned()
        },
    })?;
    let poly = |pts: &[Point], which| {
        if pts.len() > MAX_VERTICES {
            return Err(PolygonReportError::TooManyVertices {
                path: path.to_path_buf(),
                which,
                count: pts.len(),
                max: MAX_VERTICES,
            });
        }
        let xy: Vec<[f64; 2]> = pts.iter().map(|p| p.0).collect();
        Polygon::from_xy(&xy).map_err(|source| PolygonReportError::Polygon {
            path: path.to_path_buf(),
            which,
            source,
        })
    };
    let a = poly(&file.a, "a")?;
    let b = poly(&file.b, "b")?;
    PreparedPair::new(a, b).map_err(|source| PolygonReportError::Prepare {
        path: path.to_path_buf(),
        source,
    })
}

/// The report of `ccdlab polygons query` on the pair in `path`, one line
/// per method after the pair and the oracles; the
/// minimum-translation oracle runs only when neither polygon has more than
/// `oracle_max_vertices` vertices.
pub fn query(path: &Path, oracle_max_vertices: usize) -> Result<String, PolygonReportError> {
    let pair = read_pair(path)?;
    let most = pair.a().len().max(pair.b().len());
    let oracle = most <= oracle_max_vertices;
    let e = evaluate_pair(&pair, oracle);
    let mut s = String::new();
    let shape = |p: &Polygon| {
        if p.is_convex() {
            "convex"
        } else {
            "non-convex"
        }
    };
    let _ = writeln!(
        s,
        "A: {} vertices ({}), {} convex pieces; B: {} vertices ({}), {} convex pieces",
        pair.a().len(),
        shape(pair.a()),
        pair.a_pieces().len(),
        pair.b().len(),
        shape(pair.b()),
        pair.b_pieces().len(),
    );
    let _ = writeln!(s, "exact reference: {:?}", e.truth);
    if let Some(t) = e.minimal_translation {
        let _ = writeln!(
            s,
            "minimum translation of A (oracle): ({:.12}, {:.12}), |t*| = {:.12}",
            t.x,
            t.y,
            t.norm()
        );
    } else if !oracle && e.truth.intersects() {
        let _ = writeln!(
            s,
            "minimum translation of A (oracle): skipped, {most} vertices > \
             --oracle-max-vertices {oracle_max_vertices} (the oracle is slow; raise the limit to run it)"
        );
    }
    for r in &e.results {
        let t = r.resolution.translation;
        let _ = write!(
            s,
            "{:24} intersects: {:5}  translation: ({:.12}, {:.12})  verdict: {}",
            r.method.name(),
            r.resolution.intersects,
            t.x,
            t.y,
            r.class.name()
        );
        if let Some(c) = r.translation {
            let _ = write!(
                s,
                "  separates: {}  minimal: {}  |t|/|t*| = {:.4}",
                c.separates,
                c.minimal,
                c.length / c.minimal_length
            );
        }
        s.push('\n');
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::super::experiment::ORACLE_MAX_VERTICES;
    use super::*;
    use crate::polygon::generate::Rng;
    use crate::polygon::{Method, Relation};
    use crate::test_util::Scratch;

    #[test]
    fn query_file_errors_name_file_line_and_element() {
        let dir = Scratch::new("polygons-query-errors");
        let p = dir.file(
            "bad_json.json",
            "{\"a\": [[0, 0], [1, 0],\n [1, 1]], \"b\": [[0, 0]",
        );
        let e = read_pair(&p).unwrap_err();
        assert!(matches!(e, PolygonReportError::Json { line: 2, .. }), "{e}");
        let p = dir.file(
            "bowtie.json",
            r#"{"a": [[0, 0], [1, 1], [1, 0], [0, 1]], "b": [[0, 0], [1, 0], [0, 1]]}"#,
        );
        let msg = read_pair(&p).unwrap_err().to_string();
        assert!(
            msg.contains("bowtie.json") && msg.contains("\"a\"") && msg.contains("edges 0 and 2"),
            "{msg}"
        );
        let p = dir.file(
            "short.json",
            r#"{"a": [[0, 0], [1, 0], [0, 1]], "b": [[0, 0], [1, 0]]}"#,
        );
        let msg = read_pair(&p).unwrap_err().to_string();
        assert!(msg.contains("\"b\"") && msg.contains("2 vertices"), "{msg}");
        let p = dir.file(
            "huge.json",
            r#"{"a": [[0, 0], [1e999, 0], [0, 1]], "b": [[0, 0], [1, 0], [0, 1]]}"#,
        );
        assert!(matches!(
            read_pair(&p).unwrap_err(),
            PolygonReportError::Json { .. }
        ));
        // A point of three coordinates, or of one: said so, at its line,
        // and the position not repeated.
        for (name, text, what) in [
            (
                "xyz.json",
                "{\"a\": [[0, 0], [1, 0], [0, 1]],\n\"b\": [[0, 0], [1, 0, 5], [0, 1]]}",
                "more than 2 coordinates",
            ),
            (
                "x.json",
                "{\"a\": [[0, 0], [1], [0, 1]], \"b\": [[0, 0], [1, 0], [0, 1]]}",
                "has 1 coordinate",
            ),
        ] {
            let e = read_pair(&dir.file(name, text)).unwrap_err();
            let msg = e.to_string();
            assert!(
                msg.contains("a point is [x, y]") && msg.contains(what),
                "{msg}"
            );
            assert_eq!(msg.matches("line").count(), 1, "{msg}");
            let line = if name == "xyz.json" { 2 } else { 1 };
            assert!(
                matches!(e, PolygonReportError::Json { line: l, .. } if l == line),
                "{e}"
            );
        }
        let missing = read_pair(Path::new("/nonexistent/pair.json")).unwrap_err();
        assert!(matches!(missing, PolygonReportError::Read { .. }));
        let p = dir.file(
            "ok.json",
            r#"{"a": [[0, 0], [2, 0], [2, 2], [0, 2]], "b": [[1, 1], [3, 1], [3, 3], [1, 3]]}"#,
        );
        let pair = read_pair(&p).unwrap();
        assert_eq!(pair.relation(), Relation::BoundariesMeet);
    }

    /// Star polygons as in the fuzzing that found the uncapped oracle: `n`
    /// vertices at angles 2πi/n and radii in [3, 10], centred at `c`.
    fn star_json(n: usize, seed: u64) -> String {
        let mut rng = Rng::new(seed);
        let star = |c: [f64; 2], rng: &mut Rng| {
            (0..n)
                .map(|i| {
                    let a = std::f64::consts::TAU * i as f64 / n as f64;
                    let r = 10.0 * (1.0 - 0.7 * rng.unit());
                    format!("[{:?}, {:?}]", c[0] + r * a.cos(), c[1] + r * a.sin())
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        let a = star([0.0, 0.0], &mut rng);
        let b = star([3.0, 1.0], &mut rng);
        format!("{{\"a\": [{a}], \"b\": [{b}]}}")
    }

    #[test]
    fn query_skips_the_oracle_above_the_vertex_limit() {
        let dir = Scratch::new("polygons-oracle-limit");
        // The oracle is capped: its cost grows steeply with the vertices
        // (docs/notes/side-track-limits.md).
        let p = dir.file("star64.json", star_json(64, 1));
        let out = query(&p, ORACLE_MAX_VERTICES).unwrap();
        assert!(
            out.contains(
                "minimum translation of A (oracle): skipped, 64 vertices > \
                 --oracle-max-vertices 32"
            ),
            "{out}"
        );
        assert!(!out.contains("|t|/|t*|"), "{out}");
        assert_eq!(out.lines().count(), 3 + Method::ALL.len(), "{out}");
        // At or under the limit the oracle runs.
        let p = dir.file("star16.json", star_json(16, 1));
        let out = query(&p, 16).unwrap();
        assert!(
            out.contains("minimum translation of A (oracle): (") && out.contains("|t|/|t*|"),
            "{out}"
        );
        assert!(!out.contains("skipped"), "{out}");
    }

    #[test]
    fn query_files_with_too_many_vertices_are_refused() {
        let dir = Scratch::new("polygons-too-many-vertices");
        // The paper's method is cubic in the vertices, so a file's size is
        // capped (docs/notes/side-track-limits.md).
        let p = dir.file("star4097.json", star_json(MAX_VERTICES + 1, 1));
        let e = read_pair(&p).unwrap_err();
        std::fs::remove_file(&p).unwrap();
        assert!(
            matches!(
                e,
                PolygonReportError::TooManyVertices {
                    which: "a",
                    count: 4097,
                    max: 4096,
                    ..
                }
            ),
            "{e}"
        );
        let m = e.to_string();
        assert!(
            m.contains("star4097.json") && m.contains("polygon \"a\" has 4097 vertices"),
            "{m}"
        );
        let p = dir.file("star4096.json", star_json(MAX_VERTICES, 1));
        let pair = read_pair(&p);
        std::fs::remove_file(&p).unwrap();
        assert_eq!(pair.unwrap().a().len(), MAX_VERTICES);
    }

    #[test]
    fn coordinates_parry_cannot_handle_are_refused_with_the_edge() {
        let dir = Scratch::new("polygons-far-and-tiny");
        // Was "polygon A: parry2d rejected convex piece 0 (3 vertices)".
        let p = dir.file(
            "far.json",
            r#"{"a": [[-1e308, -1e308], [1e308, -1e308], [0, 1e308]], "b": [[0, 0], [1, 0], [0, 1]]}"#,
        );
        let m = read_pair(&p).unwrap_err().to_string();
        assert!(
            m.contains("far.json: polygon A: ")
                && m.contains("the edge from (-1e308, -1e308) to (1e308, -1e308) is too long"),
            "{m}"
        );
        let p = dir.file(
            "tiny.json",
            r#"{"a": [[0, 0], [1, 0], [0, 1]], "b": [[0, 0], [5e-324, 0], [0, 5e-324]]}"#,
        );
        let m = read_pair(&p).unwrap_err().to_string();
        assert!(
            m.contains("tiny.json: polygon B: ") && m.contains("is too short"),
            "{m}"
        );
    }
}
