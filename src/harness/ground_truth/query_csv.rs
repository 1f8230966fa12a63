//! Query CSVs of the CCD benchmark (Wang, Ferguson, Schneider, Jiang, Attene
//! & Panozzo 2021, "A Large Scale Benchmark and an Inclusion-Based Algorithm
//! for Continuous Collision Detection", data layout of its §4) and of the
//! Scalable-CCD data (Belgrod et al. 2023).
//!
//! Each row is one point, `x_num, x_den, y_num, y_den, z_num, z_den` with an
//! optional seventh column, the ground truth (`0`/`1`, equal on all eight rows
//! of a query). Eight rows make one query, in the order given by
//! [`QueryKind`]. Coordinates are converted exactly
//! ([`rational_to_f64`]); a value that is not a double is an error, never
//! rounded.

use std::path::Path;

use super::rational::{RationalError, is_integer, rational_to_f64};
use super::{DataError, QueryKind, QuerySet};
use crate::math::Vec3;
use crate::printable::excerpt;

/// Reads a query CSV. With seven columns the truth comes from the file; with
/// six, [`QuerySet::truth`] is `None`.
pub fn read_query_csv(path: &Path, kind: QueryKind) -> Result<QuerySet, DataError> {
    let bytes = crate::io::read_input(path).map_err(|source| DataError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    parse_query_csv(path, &bytes, kind)
}

/// Writes queries (eight points each, in [`QueryKind`]'s row order) as a
/// query CSV that [`read_query_csv`] reads back exactly: one row per point,
/// each coordinate the exact rational of its double
/// ([`super::f64_to_rational`]), and with `truth` (one per query) a seventh
/// column, `0` or `1` on each of a query's eight rows. This is the Sample-
/// Queries format that other CCD benchmarks read.
///
/// # Panics
/// When a coordinate is not finite, or `truth` has another length than
/// `points`.
pub fn write_query_csv(
    out: &mut impl std::io::Write,
    points: &[[Vec3; 8]],
    truth: Option<&[bool]>,
) -> std::io::Result<()> {
    if let Some(t) = truth {
        assert_eq!(t.len(), points.len(), "one truth per query");
    }
    for (i, q) in points.iter().enumerate() {
        let label = truth.map(|t| if t[i] { ",1" } else { ",0" }).unwrap_or("");
        for p in q {
            let [(xn, xd), (yn, yd), (zn, zd)] = [p.x, p.y, p.z].map(super::f64_to_rational);
            writeln!(out, "{xn},{xd},{yn},{yd},{zn},{zd}{label}")?;
        }
    }
    Ok(())
}

/// Parses the bytes of a query CSV; `path` names the file in errors and in
/// the result.
pub fn parse_query_csv(path: &Path, bytes: &[u8], kind: QueryKind) -> Result<QuerySet, DataError> {
    let csv = |line: usize, column: Option<usize>, message: String| DataError::Csv {
        path: path.to_path_buf(),
        line,
        column,
        message,
    };
    let mut points: Vec<[Vec3; 8]> = Vec::new();
    let mut truth: Vec<bool> = Vec::new();
    let mut columns: Option<usize> = None;
    let mut query = [Vec3::zeros(); 8];
    let mut rows = 0usize;
    let mut first_line_of_query = 0usize;
    let mut query_truth: Option<bool> = None;
    let bytes = bytes.strip_prefix(crate::io::UTF8_BOM).unwrap_or(bytes);
    for (k, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let line = k + 1;
        let text = std::str::from_utf8(raw)
            .map_err(|_| csv(line, None, "the line is not valid UTF-8 text".into()))?;
        let text = text.strip_suffix('\r').unwrap_or(text);
        if text.contains('\r') {
            return Err(csv(line, None, crate::io::BARE_CARRIAGE_RETURN.into()));
        }
        if text.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = text.split(',').collect();
        let expected = *columns.get_or_insert(fields.len());
        if fields.len() != 6 && fields.len() != 7 {
            return Err(csv(
                line,
                None,
                format!(
                    "{} fields; a row has 6 (x, y, z as numerator, denominator) or 7 (and the truth)",
                    fields.len()
                ),
            ));
        }
        if fields.len() != expected {
            return Err(csv(
                line,
                None,
                format!(
                    "{} fields, but the rows before have {expected}",
                    fields.len()
                ),
            ));
        }
        let slot = rows % 8;
        if slot == 0 {
            first_line_of_query = line;
        }
        let mut p = [0.0; 3];
        for (axis, value) in p.iter_mut().enumerate() {
            let (n, d) = (fields[2 * axis], fields[2 * axis + 1]);
            *value = rational_to_f64(n, d).map_err(|e| {
                // The field to blame: the denominator when it is zero or the
                // numerator is fine but it is not an integer, else the numerator.
                let column = match e {
                    RationalError::NotAnInteger(_) | RationalError::TooManyDigits(_)
                        if is_integer(n) =>
                    {
                        2 * axis + 2
                    }
                    RationalError::ZeroDenominator => 2 * axis + 2,
                    _ => 2 * axis + 1,
                };
                csv(
                    line,
                    Some(column),
                    format!(
                        "{} = {}/{}: {e}",
                        ["x", "y", "z"][axis],
                        excerpt(n.trim()),
                        excerpt(d.trim())
                    ),
                )
            })?;
        }
        query[slot] = Vec3::new(p[0], p[1], p[2]);
        if expected == 7 {
            let t = match fields[6].trim() {
                "0" => false,
                "1" => true,
                other => {
                    return Err(csv(
                        line,
                        Some(7),
                        format!("the truth must be 0 or 1, not `{other}`"),
                    ));
                }
            };
            match query_truth {
                Some(q) if slot > 0 && q != t => {
                    return Err(csv(
                        line,
                        Some(7),
                        format!(
                            "the truth {} differs from the {} on this query's first row (line {first_line_of_query})",
                            u8::from(t),
                            u8::from(q)
                        ),
                    ));
                }
                _ => query_truth = Some(t),
            }
        }
        rows += 1;
        if slot == 7 {
            points.push(query);
            if let Some(t) = query_truth.take() {
                truth.push(t);
            }
        }
    }
    if rows == 0 {
        return Err(DataError::Empty {
            path: path.to_path_buf(),
        });
    }
    if !rows.is_multiple_of(8) {
        return Err(DataError::IncompleteQuery {
            path: path.to_path_buf(),
            rows,
            line: first_line_of_query,
        });
    }
    Ok(QuerySet {
        path: path.to_path_buf(),
        kind,
        points,
        truth: (columns == Some(7)).then_some(truth),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// One valid query (8 rows), with or without the truth column.
    fn query(truth: Option<u8>) -> String {
        let rows = [
            "0,1,1,1,0,1",
            "-1,1, 0,1,1,1",
            "1,1,0,1,1,1",
            "3,4,-5,8,7,16",
            "1,2596148429267413814265248164610048,1,1,0,1",
            "-1,1,0,1,1,1",
            "1,1,0,1,1,1",
            "3,4,-5,8,7,16",
        ];
        rows.iter()
            .map(|r| match truth {
                Some(t) => format!("{r},{t}\n"),
                None => format!("{r}\n"),
            })
            .collect()
    }

    #[test]
    fn values_and_truth_are_read_exactly() {
        let text = format!("{}{}", query(Some(1)), query(Some(0)));
        let set =
            parse_query_csv(Path::new("q.csv"), text.as_bytes(), QueryKind::EdgeEdge).unwrap();
        assert_eq!(set.len(), 2);
        assert_eq!(set.truth, Some(vec![true, false]));
        assert_eq!(set.points[0][3], Vec3::new(0.75, -0.625, 0.4375));
        assert_eq!(set.points[1][4].x, 2f64.powi(-111));
        let set = parse_query_csv(
            Path::new("q.csv"),
            query(None).as_bytes(),
            QueryKind::VertexFace,
        )
        .unwrap();
        assert_eq!((set.len(), set.truth), (1, None));
    }

    #[test]
    fn spaces_crlf_blank_lines_and_a_byte_order_mark_are_accepted() {
        let plain = query(Some(1));
        let spaced: String = plain
            .lines()
            .map(|l| format!(" {} \r\n\r\n", l.replace(',', " , ")))
            .collect();
        let a = parse_query_csv(Path::new("a.csv"), plain.as_bytes(), QueryKind::VertexFace);
        let b = parse_query_csv(Path::new("a.csv"), spaced.as_bytes(), QueryKind::VertexFace);
        let a = a.unwrap();
        assert_eq!(a, b.unwrap());
        // A UTF-8 byte order mark at the start (a spreadsheet's export).
        let marked = [crate::io::UTF8_BOM, plain.as_bytes()].concat();
        let c = parse_query_csv(Path::new("a.csv"), &marked, QueryKind::VertexFace);
        assert_eq!(a, c.unwrap());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Written queries read back bit for bit (signed zeros as +0), with
        /// their truth or without.
        #[test]
        fn written_queries_read_back(
            bits in prop::collection::vec(prop::array::uniform24(any::<u64>()), 1..6),
            truth in prop::collection::vec(any::<bool>(), 6),
            with_truth: bool,
        ) {
            let finite = |b: u64| {
                let x = f64::from_bits(b);
                if x.is_finite() { x } else { 1.5 }
            };
            let points: Vec<[Vec3; 8]> = bits
                .iter()
                .map(|c| std::array::from_fn(|i| Vec3::new(finite(c[3 * i]), finite(c[3 * i + 1]), finite(c[3 * i + 2]))))
                .collect();
            let truth = &truth[..points.len()];
            let mut bytes = Vec::new();
            write_query_csv(&mut bytes, &points, with_truth.then_some(truth)).unwrap();
            let set = parse_query_csv(Path::new("w.csv"), &bytes, QueryKind::EdgeEdge).unwrap();
            prop_assert_eq!(set.points.len(), points.len());
            for (a, b) in set.points.iter().zip(&points) {
                for (p, q) in a.iter().zip(b) {
                    prop_assert_eq!(p, q);
                }
            }
            prop_assert_eq!(set.truth.as_deref(), with_truth.then_some(truth));
        }

        /// Damaged CSVs never make the reader panic; errors name the file.
        #[test]
        fn damaged_files_never_panic(
            seven: bool,
            edits in prop::collection::vec((any::<prop::sample::Index>(), prop::sample::select(b"0123456789,-+ \n\r/x.".to_vec()), 0u8..3), 0..8),
            cut in any::<prop::sample::Index>(),
            truncate: bool,
        ) {
            let t = seven.then_some(1);
            let mut bytes = format!("{}{}", query(t), query(t)).into_bytes();
            for (at, byte, op) in edits {
                let i = at.index(bytes.len() + 1);
                match op {
                    0 if i < bytes.len() => bytes[i] = byte,
                    1 => bytes.insert(i, byte),
                    _ if i < bytes.len() => {
                        bytes.remove(i);
                    }
                    _ => {}
                }
            }
            if truncate {
                bytes.truncate(cut.index(bytes.len() + 1));
            }
            if let Err(e) = parse_query_csv(Path::new("fuzz.csv"), &bytes, QueryKind::VertexFace) {
                prop_assert!(e.to_string().contains("fuzz.csv"), "{}", e);
            }
        }
    }
}
