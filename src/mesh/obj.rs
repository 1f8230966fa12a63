//! Wavefront OBJ meshes: the `v` and `f` statements of the OBJ format
//! (Wavefront Technologies, *Advanced Visualizer* manual, Appendix B1).
//!
//! **Deviation: not obj-rs.** obj-rs 0.7 (`obj::raw::parse_obj`) stores
//! positions as `f32`, which would round `f64` coordinates (the crate is `f64`
//! throughout), reports no line numbers, and reaches `unimplemented!()` (a
//! panic) on free-form statements such as `curv` or `deg`. This reader is a
//! small line-based parser instead; obj-rs remains a dev-dependency, as the
//! oracle its tests compare index resolution against.
//!
//! Read: `v x y z` (also `v x y z 1` and the `v x y z r g b` colour
//! extension), parsed as `f64` with correct rounding; `f` (and `fo`) corners
//! `p`, `p/t`, `p//n`, `p/t/n`, with 1-based indices and negative indices
//! relative to the vertices defined so far (`-1` is the latest), as the format
//! defines them. A positive index may name a vertex defined further down the
//! file (as libigl's and tinyobjloader's readers allow); one beyond the file's
//! last vertex is an error at the line that uses it. Texture and normal
//! indices must be integers but are otherwise ignored. `l` polylines (`l a b c …`, indices as for faces) are codimensional
//! edges, one per consecutive pair (rods, hair: [`TriMesh::with_edges`]).
//! Attribute, grouping, display and point statements are skipped;
//! free-form geometry (`cstype`, `curv`, `curv2`, `surf`) and unknown
//! statements are errors. Comments start at `#`; a line ending in `\` goes on
//! on the next line.
//!
//! Errors name the file and the (first) line of the statement.
//!
//! Written: `v` with Rust's shortest round-trip formatting (reading the file
//! back gives the same `f64`s) and 1-based `f` lines, atomically
//! ([`crate::io::write_atomic_with`]).

use std::io::Write;
use std::path::Path;

use super::MeshError;
#[cfg(doc)]
use super::TriMesh;
use super::ply::check_indices;
use super::read::{MeshData, read_bytes};
use crate::io::UTF8_BOM;
use crate::math::Vec3;

/// Statements that carry no triangle geometry and are skipped.
const SKIPPED: &[&str] = &[
    "vt",
    "vn",
    "vp",
    "p",
    "g",
    "s",
    "mg",
    "o",
    "usemtl",
    "mtllib",
    "usemap",
    "maplib",
    "bevel",
    "c_interp",
    "d_interp",
    "lod",
    "shadow_obj",
    "trace_obj",
    "ctech",
    "stech",
    "call",
    "csh",
];

/// Free-form geometry statements, which this reader refuses.
const FREE_FORM: &[&str] = &[
    "cstype", "deg", "bmat", "step", "curv", "curv2", "surf", "parm", "trim", "hole", "scrv", "sp",
    "end", "con",
];

/// Reads an OBJ triangle mesh.
pub fn read_obj(path: &Path) -> Result<MeshData, MeshError> {
    let bytes = read_bytes(path)?;
    parse_obj(path, &bytes)
}

fn syntax(path: &Path, line: usize, message: impl Into<String>) -> MeshError {
    MeshError::Syntax {
        path: path.to_path_buf(),
        line,
        message: message.into(),
    }
}

/// Parses the bytes of an OBJ file; `path` only names the file in errors.
/// A UTF-8 byte order mark at the start (as some Windows tools write) is
/// skipped.
pub fn parse_obj(path: &Path, bytes: &[u8]) -> Result<MeshData, MeshError> {
    parse_obj_located(path, bytes).map(|(m, _)| m)
}

/// [`parse_obj`], and the line of the first vertex with a non-finite
/// coordinate, if any (for [`super::read_frame`]'s error).
pub(crate) fn parse_obj_located(
    path: &Path,
    bytes: &[u8],
) -> Result<(MeshData, Option<usize>), MeshError> {
    let bytes = bytes.strip_prefix(UTF8_BOM).unwrap_or(bytes);
    let mut non_finite_line = None;
    let mut positions: Vec<Vec3> = Vec::new();
    let mut faces: Vec<[u32; 3]> = Vec::new();
    let mut edges: Vec<[u32; 2]> = Vec::new();
    // The faces and edges with an index beyond the vertices defined so far,
    // and their lines: checked at the end, against all the vertices.
    let mut forward: Vec<(usize, Forward)> = Vec::new();
    let mut lines = bytes.split(|&b| b == b'\n').enumerate().peekable();
    let mut statement = String::new();
    while let Some((k, raw)) = lines.next() {
        let line_no = k + 1;
        // One index of a face or a line, 0-based, and whether it is beyond
        // the vertices defined so far; or the error at this line.
        let resolve = |corner: &str, defined: usize, what| {
            let index = resolve_corner(corner, defined, what)
                .map_err(|message| syntax(path, line_no, message))?;
            let v = u32::try_from(index).map_err(|_| {
                let message = format!("{what} `{corner}`: index beyond 2^32 vertices");
                syntax(path, line_no, message)
            })?;
            Ok::<_, MeshError>((v, index >= defined as u64))
        };
        // Join continuation lines; the statement keeps its first line number.
        statement.clear();
        let mut raw = raw;
        loop {
            let text = std::str::from_utf8(raw)
                .map_err(|_| syntax(path, line_no, "the line is not valid UTF-8 text"))?;
            let text = text.strip_suffix('\r').unwrap_or(text);
            if text.contains('\r') {
                return Err(syntax(path, line_no, crate::io::BARE_CARRIAGE_RETURN));
            }
            let text = match text.find('#') {
                Some(c) => &text[..c],
                None => text,
            };
            match text.strip_suffix('\\') {
                Some(head) => {
                    statement.push_str(head);
                    statement.push(' ');
                    match lines.next() {
                        Some((_, next)) => raw = next,
                        None => {
                            return Err(syntax(
                                path,
                                line_no,
                                "the file ends after a line continuation `\\`",
                            ));
                        }
                    }
                }
                None => {
                    statement.push_str(text);
                    break;
                }
            }
        }
        let mut tokens = statement.split_ascii_whitespace();
        let Some(keyword) = tokens.next() else {
            continue;
        };
        let args: Vec<&str> = tokens.collect();
        match keyword {
            "v" => {
                let mut c = [0.0f64; 4];
                for (slot, a) in c.iter_mut().zip(&args) {
                    *slot = a.parse().map_err(|_| {
                        syntax(
                            path,
                            line_no,
                            format!("vertex coordinate `{a}` is not a number"),
                        )
                    })?;
                }
                match args.len() {
                    3 | 6 => {}
                    4 if c[3] == 1.0 => {}
                    4 => {
                        return Err(syntax(
                            path,
                            line_no,
                            format!("vertex weight w = {} (only w = 1 is supported)", args[3]),
                        ));
                    }
                    n => {
                        return Err(syntax(
                            path,
                            line_no,
                            format!(
                                "a vertex needs 3 coordinates (or x y z w, or x y z r g b); found {n} values"
                            ),
                        ));
                    }
                }
                for a in args.iter().skip(4) {
                    a.parse::<f64>().map_err(|_| {
                        syntax(
                            path,
                            line_no,
                            format!("vertex colour `{a}` is not a number"),
                        )
                    })?;
                }
                if non_finite_line.is_none() && !c[..3].iter().all(|x| x.is_finite()) {
                    non_finite_line = Some(line_no);
                }
                positions.push(Vec3::new(c[0], c[1], c[2]));
            }
            "f" | "fo" => {
                let face = faces.len();
                if args.len() != 3 {
                    return Err(MeshError::NotATriangle {
                        face,
                        corners: args.len(),
                    }
                    .at_line(path, line_no));
                }
                let mut t = [0u32; 3];
                let mut ahead = false;
                for (slot, corner) in t.iter_mut().zip(&args) {
                    let (v, beyond) = resolve(corner, positions.len(), "face corner")?;
                    *slot = v;
                    ahead |= beyond;
                }
                if ahead {
                    forward.push((line_no, Forward::Face(face)));
                }
                faces.push(t);
            }
            "l" => {
                if args.len() < 2 {
                    return Err(syntax(
                        path,
                        line_no,
                        format!("a line needs at least 2 vertices; found {}", args.len()),
                    ));
                }
                let mut previous: Option<(u32, bool)> = None;
                for corner in &args {
                    let (v, beyond) = resolve(corner, positions.len(), "line vertex")?;
                    if let Some((a, a_beyond)) = previous {
                        if a_beyond || beyond {
                            forward.push((line_no, Forward::Edge(edges.len())));
                        }
                        edges.push([a, v]);
                    }
                    previous = Some((v, beyond));
                }
            }
            k if SKIPPED.contains(&k) => {}
            k if FREE_FORM.contains(&k) => {
                return Err(syntax(
                    path,
                    line_no,
                    format!("free-form geometry (`{k}`) is not supported; triangulate the mesh"),
                ));
            }
            k => {
                return Err(syntax(path, line_no, format!("unknown statement `{k}`")));
            }
        }
    }
    // In file order: the first line with an index beyond the file's
    // vertices is the one named.
    let num_vertices = positions.len();
    let missing = |v: &u32| *v as usize >= num_vertices;
    for (line, at) in forward {
        let e =
            match at {
                Forward::Face(face) => faces[face].iter().find(|v| missing(v)).map(|&v| {
                    MeshError::FaceIndexOutOfRange {
                        face,
                        index: v.into(),
                        num_vertices,
                    }
                }),
                Forward::Edge(edge) => edges[edge].iter().find(|v| missing(v)).map(|&v| {
                    MeshError::EdgeIndexOutOfRange {
                        edge,
                        index: v.into(),
                        num_vertices,
                    }
                }),
            };
        if let Some(e) = e {
            return Err(e.at_line(path, line));
        }
    }
    let data = MeshData {
        positions,
        faces,
        edges,
    };
    Ok((data, non_finite_line))
}

/// A face or an edge (0-based) with an index beyond the vertices defined
/// before it.
#[derive(Clone, Copy)]
enum Forward {
    Face(usize),
    Edge(usize),
}

/// Resolves one face corner `p[/t[/n]]` to a 0-based vertex index, given the
/// `defined` vertices so far: a negative index counts back from them, a
/// positive one may be beyond them (a vertex further down the file), which
/// the caller checks.
fn resolve_corner(corner: &str, defined: usize, what: &str) -> Result<u64, String> {
    let mut parts = corner.split('/');
    let p = parts.next().unwrap_or_default();
    let rest: Vec<&str> = parts.collect();
    // p, p/t, p//n, p/t/n
    let well_formed = match rest.as_slice() {
        [] => true,
        [t] => !t.is_empty(),
        [_, n] => !n.is_empty(),
        _ => false,
    } && rest
        .iter()
        .all(|s| s.is_empty() || s.parse::<i64>().is_ok());
    if !well_formed {
        return Err(format!(
            "{what} `{corner}` is not of the form p, p/t, p//n or p/t/n"
        ));
    }
    let i: i64 = p
        .parse()
        .map_err(|e: std::num::ParseIntError| match e.kind() {
            std::num::IntErrorKind::PosOverflow | std::num::IntErrorKind::NegOverflow => {
                format!("{what} `{corner}`: index `{p}` is out of range (beyond 2^63)")
            }
            _ => format!("{what} `{corner}`: `{p}` is not an integer index"),
        })?;
    let index = if i > 0 {
        (i - 1) as u64
    } else if i < 0 {
        // -1 is the latest vertex: defined + i.
        let back = i.unsigned_abs();
        if back > defined as u64 {
            return Err(format!(
                "{what} `{corner}` reaches {back} vertices back, but only {defined} are defined"
            ));
        }
        defined as u64 - back
    } else {
        return Err(format!(
            "{what} `{corner}`: OBJ indices start at 1 (0 is not an index)"
        ));
    };
    Ok(index)
}

/// Writes a triangle mesh as OBJ (`v` lines with shortest round-trip
/// formatting, 1-based `f` lines). The file is complete or absent.
pub fn write_obj(path: &Path, positions: &[Vec3], faces: &[[u32; 3]]) -> Result<(), MeshError> {
    check_indices(positions.len(), faces).map_err(|e| e.in_file(path))?;
    crate::io::write_atomic_with(path, |w| {
        writeln!(w, "# written by ccdlab")?;
        for p in positions {
            writeln!(w, "v {:?} {:?} {:?}", p.x, p.y, p.z)?;
        }
        for f in faces {
            let [a, b, c] = f.map(|i| u64::from(i) + 1);
            writeln!(w, "f {a} {b} {c}")?;
        }
        Ok(())
    })
    .map_err(|source| MeshError::Io {
        path: path.to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::Scratch;
    use proptest::prelude::*;

    fn parse(text: &str) -> Result<MeshData, MeshError> {
        parse_obj(Path::new("t.obj"), text.as_bytes())
    }

    #[test]
    fn reads_vertices_faces_and_skips_the_rest() {
        let text = "# a comment\r\nmtllib x.mtl\no thing\nv 0 0 0\nv 1 0 0 # trailing comment\n\
                    v 0 1 0 1\nv 0 0 1 0.5 0.5 0.5\nvt 0 0\nvn 0 0 1\ng part\ns off\nusemtl m\n\
                    f 1 2 3\nf -1/1 -2/1/1 -3//1\nv 0.1 \\\n 2e-300 -0\nf 5 1 \\\n2\nl 1 2\np 4\n\
                    l 5/1 -2/1 3/1\n";
        let m = parse(text).unwrap();
        // The same after a UTF-8 byte order mark.
        let marked = parse(&format!("\u{feff}{text}")).unwrap();
        assert_eq!((&marked.faces, &marked.edges), (&m.faces, &m.edges));
        assert_eq!(m.positions.len(), 5);
        assert_eq!(m.positions[4].x.to_bits(), 0.1f64.to_bits());
        assert_eq!(m.positions[4].y, 2e-300);
        assert_eq!(m.positions[4].z.to_bits(), (-0.0f64).to_bits());
        // -1 is the latest vertex at the time of the face (vertex 4, index 3).
        assert_eq!(m.faces, vec![[0, 1, 2], [3, 2, 1], [4, 0, 1]]);
        // Polylines: one edge per consecutive pair.
        assert_eq!(m.edges, vec![[0, 1], [4, 3], [3, 2]]);
    }

    fn err(text: &str) -> (MeshError, usize) {
        let e = parse(text).unwrap_err();
        let s = e.to_string();
        assert!(s.contains("t.obj"), "{s}");
        match &e {
            MeshError::Syntax { line, .. } | MeshError::AtLine { line, .. } => {
                let line = *line;
                (e, line)
            }
            _ => panic!("no line: {s}"),
        }
    }

    #[test]
    fn errors_name_the_line() {
        let v3 = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
        let (e, line) = err(&format!("{v3}f 1 2 3 1\n"));
        assert_eq!(line, 4);
        assert!(matches!(
            e.innermost(),
            MeshError::NotATriangle {
                face: 0,
                corners: 4
            }
        ));
        let (e, line) = err(&format!("{v3}f 1 2 3\n\nf 1 2 4\n"));
        assert_eq!(line, 6);
        assert!(matches!(
            e.innermost(),
            MeshError::FaceIndexOutOfRange {
                face: 1,
                index: 3,
                num_vertices: 3
            }
        ));
        for (bad, line) in [
            (format!("{v3}f 0 1 2\n"), 4),
            (format!("{v3}f -4 1 2\n"), 4),
            (format!("{v3}f 1 x 2\n"), 4),
            (format!("{v3}f 1 2/ 3\n"), 4),
            (format!("{v3}f 1 2/1/1/1 3\n"), 4),
            (format!("{v3}f 1 2/a 3\n"), 4),
            ("v 1 2\n".to_string(), 1),
            ("v 1 2 3 2\n".to_string(), 1),
            ("\nv 1 two 3\n".to_string(), 2),
            ("v 1 2 3\nbogus 1\n".to_string(), 2),
            ("curv 0 1 1 2\n".to_string(), 1),
            (format!("{v3}l 1\n"), 4),
            (format!("{v3}l 1 0\n"), 4),
            (format!("{v3}l 1 -4\n"), 4),
            ("v 1 2 3 \\".to_string(), 1),
            ("v 0 0 0\r\nv 1 0 0\rv 0 1 0\r".to_string(), 2),
        ] {
            assert_eq!(err(&bad).1, line, "{bad:?}");
        }
        // Bare carriage returns as line ends are named as such, not as the
        // bad number the next line's keyword would make.
        let (e, _) = err("v 0 0 0\rv 1 0 0\rv 0 1 0\rf 1 2 3\r");
        assert!(e.to_string().contains("carriage return"), "{e}");
        let (e, line) = err(&format!("{v3}l 1 2\nl 2 3 4\n"));
        assert_eq!(line, 5);
        assert!(matches!(
            e.innermost(),
            MeshError::EdgeIndexOutOfRange {
                edge: 2,
                index: 3,
                num_vertices: 3
            }
        ));
        let e = parse_obj(Path::new("t.obj"), b"v 1 2 \xff\n").unwrap_err();
        assert!(matches!(e, MeshError::Syntax { line: 1, .. }), "{e}");
        // An index too large for any file: out of range, not "not an integer".
        for huge in ["99999999999999999999999", "-99999999999999999999999"] {
            let (e, line) = err(&format!("{v3}f 1 2 {huge}\n"));
            assert_eq!(line, 4);
            assert!(e.to_string().contains("out of range"), "{e}");
        }
    }

    /// A positive index may name a vertex further down the file (libigl's
    /// and tinyobjloader's readers read such files); one beyond the file's
    /// last vertex is an error at the line that uses it, against the
    /// file's vertex count. Negative indices still count back from the
    /// vertices defined so far.
    #[test]
    fn indices_may_name_vertices_further_down() {
        let m = parse("f 1 2 3\nl 4 1 2\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf -1 2 3\n").unwrap();
        assert_eq!(m.positions.len(), 4);
        assert_eq!(m.faces, vec![[0, 1, 2], [3, 1, 2]]);
        assert_eq!(m.edges, vec![[3, 0], [0, 1]]);
        let (e, line) = err("v 0 0 0\nf 1 2 3\nf 1 2 5\nv 1 0 0\nv 0 1 0\nv 0 0 1\n");
        assert_eq!(line, 3);
        assert!(matches!(
            e.innermost(),
            MeshError::FaceIndexOutOfRange {
                face: 1,
                index: 4,
                num_vertices: 4
            }
        ));
        let (e, line) = err("l 1 2\nl 2 3 9\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
        assert_eq!(line, 2);
        assert!(matches!(
            e.innermost(),
            MeshError::EdgeIndexOutOfRange {
                edge: 2,
                index: 8,
                num_vertices: 3
            }
        ));
        assert_eq!(err("f -1 2 3\nv 0 0 0\nv 1 0 0\nv 0 1 0\n").1, 1);
    }

    /// Found by mutating a real frame: a control byte inside a coordinate
    /// (here a decimal point with one bit flipped, `.` → `\u{e}`) was
    /// printed as it is, so the message quoted what looked like a valid
    /// number.
    #[test]
    fn quoted_tokens_show_their_control_characters() {
        let (e, line) = err("v 0 0 0\nv -0\u{e}1468 0 0\n");
        assert_eq!(line, 2);
        let s = e.to_string();
        assert_eq!(
            s,
            "t.obj:2: vertex coordinate `-0\\u{e}1468` is not a number"
        );
        // An escape sequence in a file does not reach the terminal.
        let s = err("v 0 0 0\n\u{1b}[2J 1 2\n").0.to_string();
        assert!(!s.chars().any(char::is_control), "{s:?}");
        assert!(s.contains("\\u{1b}[2J"), "{s}");
    }

    #[test]
    fn write_then_read_is_bit_exact() {
        let dir = Scratch::new("obj-round-trip");
        let path = dir.join("m.obj");
        let positions = vec![
            Vec3::new(0.1, -0.0, f64::MAX),
            Vec3::new(f64::from_bits(1), 1.0 / 3.0, -7.25e-200),
            Vec3::new(1e-310, 2.0, 3.0),
        ];
        let faces = vec![[0, 1, 2], [2, 1, 0]];
        write_obj(&path, &positions, &faces).unwrap();
        let m = read_obj(&path).unwrap();
        for (a, b) in m.positions.iter().zip(&positions) {
            assert_eq!(a.map(f64::to_bits), b.map(f64::to_bits));
        }
        assert_eq!(m.faces, faces);
        let bad = dir.join("bad.obj");
        assert!(write_obj(&bad, &positions, &[[0, 1, 5]]).is_err());
        assert!(!bad.exists());
    }

    /// An OBJ of `v` lines with small dyadic coordinates (exact in f32, so
    /// obj-rs reads them exactly too), triangles whose corners use positive
    /// or negative indices and every corner form, and polylines (`l`, forms
    /// `p` and `p/t`).
    fn generated_obj() -> impl Strategy<Value = String> {
        let corners = |n| prop::collection::vec((any::<prop::sample::Index>(), any::<bool>()), n);
        let statement = prop_oneof![
            3 => (-64i32..64, -64i32..64, -64i32..64).prop_map(|(x, y, z)| Step::Vertex(x, y, z)),
            2 => (corners(3..4), 0u8..4).prop_map(|(c, form)| Step::Element("f", c, form)),
            1 => (corners(2..5), 0u8..2).prop_map(|(c, form)| Step::Element("l", c, form)),
        ];
        prop::collection::vec(statement, 1..40).prop_map(|steps| {
            let mut text = String::from("vt 0 0\nvn 0 0 1\n");
            let mut defined = 0usize;
            for s in steps {
                match s {
                    Step::Vertex(x, y, z) => {
                        defined += 1;
                        text += &format!(
                            "v {} {} {}\n",
                            x as f32 / 4.0,
                            y as f32 / 4.0,
                            z as f32 / 4.0
                        );
                    }
                    // obj-rs wants one corner form per element.
                    Step::Element(keyword, corners, form) if defined > 0 => {
                        text += keyword;
                        for (at, negative) in corners {
                            let i = at.index(defined);
                            let p = if negative {
                                format!("-{}", defined - i)
                            } else {
                                format!("{}", i + 1)
                            };
                            text += &match form {
                                0 => format!(" {p}"),
                                1 => format!(" {p}/1"),
                                2 => format!(" {p}//1"),
                                _ => format!(" {p}/1/1"),
                            };
                        }
                        text += "\n";
                    }
                    Step::Element(..) => {}
                }
            }
            text
        })
    }

    #[derive(Debug, Clone)]
    enum Step {
        Vertex(i32, i32, i32),
        /// `f` (forms 0 to 3) or `l` (forms 0 and 1), with its corners.
        Element(&'static str, Vec<(prop::sample::Index, bool)>, u8),
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]

        /// obj-rs (an independent reader) is the oracle for positions,
        /// index resolution and polylines on files both can read.
        #[test]
        fn agrees_with_obj_rs(text in generated_obj()) {
            let ours = parse(&text).unwrap();
            let theirs = obj::raw::parse_obj(text.as_bytes()).unwrap();
            let positions: Vec<Vec3> = theirs
                .positions
                .iter()
                .map(|&(x, y, z, _)| Vec3::new(x.into(), y.into(), z.into()))
                .collect();
            prop_assert_eq!(&ours.positions, &positions);
            let faces: Vec<Vec<usize>> = theirs
                .polygons
                .iter()
                .map(|p| match p {
                    obj::raw::object::Polygon::P(v) => v.clone(),
                    obj::raw::object::Polygon::PT(v) | obj::raw::object::Polygon::PN(v) => {
                        v.iter().map(|c| c.0).collect()
                    }
                    obj::raw::object::Polygon::PTN(v) => v.iter().map(|c| c.0).collect(),
                })
                .collect();
            let ours_faces: Vec<Vec<usize>> = ours
                .faces
                .iter()
                .map(|f| f.iter().map(|&i| i as usize).collect())
                .collect();
            prop_assert_eq!(ours_faces, faces);
            // Each polyline's consecutive pairs, in order.
            let edges: Vec<[u32; 2]> = theirs
                .lines
                .iter()
                .flat_map(|l| {
                    let v: Vec<usize> = match l {
                        obj::raw::object::Line::P(v) => v.clone(),
                        obj::raw::object::Line::PT(v) => v.iter().map(|c| c.0).collect(),
                    };
                    v.windows(2).map(|w| [w[0] as u32, w[1] as u32]).collect::<Vec<_>>()
                })
                .collect();
            prop_assert_eq!(ours.edges, edges);
        }

        /// Damaged files (byte flips, insertions, deletions, truncation)
        /// never make the reader panic; errors name the file.
        #[test]
        fn damaged_files_never_panic(
            text in generated_obj(),
            edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 0..6),
            cut in any::<prop::sample::Index>(),
        ) {
            let mut bytes = text.into_bytes();
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
            bytes.truncate(cut.index(bytes.len() + 1));
            if let Err(e) = parse_obj(Path::new("fuzz.obj"), &bytes) {
                prop_assert!(e.to_string().contains("fuzz.obj"), "{}", e);
            }
        }
    }
}
