//! Stanford PLY meshes (Turk, "The PLY Polygon File Format", 1994): ASCII,
//! `binary_little_endian` and `binary_big_endian`.
//!
//! Read: the `vertex` element's `x`, `y`, `z` (any scalar type; `float` is
//! widened exactly, integers convert exactly), the `face` element's
//! `vertex_indices` (or `vertex_index`) list and the `edge` element's
//! integer `vertex1`, `vertex2` (codimensional edges: rods, hair; an `edge`
//! element without them is refused rather than its edges dropped). Every
//! other property, list or element is skipped by its declared type. Faces
//! must be triangles.
//!
//! ASCII bodies are read one element per line, as the format defines; a
//! `float` property written in ASCII is parsed as an `f32` (the value the
//! writer held) and then widened.
//!
//! Errors name the file and the line (header, ASCII body) or the element
//! index (binary body). No input makes the reader panic, and no header count
//! makes it allocate more than the file can hold.
//!
//! Written: `binary_little_endian`, `double` coordinates and
//! `list uchar int vertex_indices`, atomically ([`crate::io::write_atomic_with`]).

use std::io::Write;
use std::path::Path;

use super::MeshError;
use super::ply_header::{
    Encoding, Header, Property, PropertyType, Role, next_line, no_bare_cr, parse_header, syntax,
};
use super::read::{MeshData, read_bytes};
use crate::io::UTF8_BOM;
use crate::math::Vec3;

/// Reads a PLY triangle mesh.
pub fn read_ply(path: &Path) -> Result<MeshData, MeshError> {
    let bytes = read_bytes(path)?;
    parse_ply(path, &bytes)
}

/// Parses the bytes of a PLY file; `path` only names the file in errors.
/// A UTF-8 byte order mark before `ply` is skipped.
pub fn parse_ply(path: &Path, bytes: &[u8]) -> Result<MeshData, MeshError> {
    parse_ply_located(path, bytes).map(|(m, _)| m)
}

/// [`parse_ply`], and, in an ASCII file, the line of the first vertex with
/// a non-finite coordinate, if any (for [`super::read_frame`]'s error; a
/// binary file's vertex is named by its index alone).
pub(crate) fn parse_ply_located(
    path: &Path,
    bytes: &[u8],
) -> Result<(MeshData, Option<usize>), MeshError> {
    let bytes = bytes.strip_prefix(UTF8_BOM).unwrap_or(bytes);
    let header = parse_header(path, bytes)?;
    let body = &bytes[header.body_start..];
    match header.encoding {
        Encoding::Ascii => read_ascii_body(path, &header, body),
        Encoding::BinaryLittleEndian => Ok((read_binary_body(path, &header, body, false)?, None)),
        Encoding::BinaryBigEndian => Ok((read_binary_body(path, &header, body, true)?, None)),
    }
}

/// Writes a triangle mesh as `binary_little_endian` PLY with `double`
/// coordinates. The file is complete or absent: it is written to a temporary
/// sibling and renamed into place.
pub fn write_ply(path: &Path, positions: &[Vec3], faces: &[[u32; 3]]) -> Result<(), MeshError> {
    if positions.len() > i32::MAX as usize {
        return Err(MeshError::TooLarge {
            what: "vertices",
            count: positions.len(),
        });
    }
    check_indices(positions.len(), faces).map_err(|e| e.in_file(path))?;
    crate::io::write_atomic_with(path, |w| {
        write!(
            w,
            "ply\nformat binary_little_endian 1.0\ncomment written by ccdlab\n\
             element vertex {}\nproperty double x\nproperty double y\nproperty double z\n\
             element face {}\nproperty list uchar int vertex_indices\nend_header\n",
            positions.len(),
            faces.len()
        )?;
        for p in positions {
            for c in [p.x, p.y, p.z] {
                w.write_all(&c.to_le_bytes())?;
            }
        }
        for f in faces {
            w.write_all(&[3])?;
            for &i in f {
                // Checked above: every index is below positions.len() ≤ i32::MAX.
                w.write_all(&(i as i32).to_le_bytes())?;
            }
        }
        Ok(())
    })
    .map_err(|source| MeshError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Every index of `faces` must name one of `num_vertices` vertices.
pub(crate) fn check_indices(num_vertices: usize, faces: &[[u32; 3]]) -> Result<(), MeshError> {
    for (face, f) in faces.iter().enumerate() {
        for &i in f {
            if i as usize >= num_vertices {
                return Err(MeshError::FaceIndexOutOfRange {
                    face,
                    index: u64::from(i),
                    num_vertices,
                });
            }
        }
    }
    Ok(())
}

/// A capacity no larger than what `available` bytes can hold.
fn bounded_capacity(count: usize, available: usize, min_size: usize) -> usize {
    count.min(available / min_size.max(1))
}

/// The triangle of one face's three corners, or the first corner that names
/// no vertex (negative, or not below `num_vertices`).
fn triangle(corners: &[i64], num_vertices: usize) -> Result<[u32; 3], i64> {
    let mut t = [0u32; 3];
    for (slot, &i) in t.iter_mut().zip(corners) {
        if i < 0 || i as u64 >= num_vertices as u64 {
            return Err(i);
        }
        *slot = i as u32;
    }
    Ok(t)
}

/// The edge of two ends, or the first end that names no vertex.
fn edge(ends: [i64; 2], num_vertices: usize) -> Result<[u32; 2], i64> {
    match ends
        .into_iter()
        .find(|&i| i < 0 || i as u64 >= num_vertices as u64)
    {
        Some(i) => Err(i),
        None => Ok(ends.map(|i| i as u32)),
    }
}

/// The error for an edge end that names no vertex, as [`bad_corner`].
fn bad_end(edge: usize, index: i64, num_vertices: usize) -> Result<MeshError, String> {
    if index < 0 {
        Err(format!("negative vertex index {index}"))
    } else {
        Ok(MeshError::EdgeIndexOutOfRange {
            edge,
            index: index as u64,
            num_vertices,
        })
    }
}

/// The error for a corner that names no vertex: `Ok` holds the typed
/// out-of-range error, `Err` the message for a negative index.
fn bad_corner(face: usize, index: i64, num_vertices: usize) -> Result<MeshError, String> {
    if index < 0 {
        Err(format!("negative vertex index {index}"))
    } else {
        Ok(MeshError::FaceIndexOutOfRange {
            face,
            index: index as u64,
            num_vertices,
        })
    }
}

/// An ASCII body, and the line of its first vertex with a non-finite
/// coordinate, if any.
fn read_ascii_body(
    path: &Path,
    header: &Header,
    body: &[u8],
) -> Result<(MeshData, Option<usize>), MeshError> {
    let mut non_finite_line = None;
    let mut positions = Vec::new();
    let mut faces = Vec::new();
    let mut edges = Vec::new();
    let mut pos = 0;
    let mut line_no = header.body_line - 1;
    // The next non-blank body line, as text, with its number.
    let mut next_data_line = |what: &str, index: usize| -> Result<(usize, &str), MeshError> {
        loop {
            let Some((raw, next)) = next_line(body, pos) else {
                return Err(syntax(
                    path,
                    line_no.max(1),
                    format!(
                        "the file ends before {what} {index} (the header declares more; truncated?)"
                    ),
                ));
            };
            pos = next;
            line_no += 1;
            no_bare_cr(path, line_no, raw)?;
            let line = std::str::from_utf8(raw)
                .map_err(|_| syntax(path, line_no, "the line is not valid text"))?;
            if !line.trim().is_empty() {
                return Ok((line_no, line));
            }
        }
    };
    let mut corners: Vec<i64> = Vec::with_capacity(3);
    for element in &header.elements {
        let kind = element.kind();
        match element.role {
            Role::Vertex { .. } => {
                positions.reserve(bounded_capacity(element.count, body.len(), 6));
            }
            Role::Face { .. } => faces.reserve(bounded_capacity(element.count, body.len(), 8)),
            Role::Edge { .. } => edges.reserve(bounded_capacity(element.count, body.len(), 4)),
            Role::Other => {}
        }
        for index in 0..element.count {
            let (line, text) = next_data_line(kind, index)?;
            let at = |message: String| {
                syntax(
                    path,
                    line,
                    format!("{kind} {index} (`{}`): {message}", element.name),
                )
            };
            let mut tokens = text.split_ascii_whitespace();
            let mut next_token = |p: &Property| {
                tokens
                    .next()
                    .ok_or_else(|| at(format!("a value is missing for property `{}`", p.name)))
            };
            let mut xyz = [0.0; 3];
            let mut ends = [0i64; 2];
            corners.clear();
            for (k, property) in element.properties.iter().enumerate() {
                match property.ty {
                    PropertyType::Scalar(s) => {
                        let token = next_token(property)?;
                        let v = s.parse_f64(token).map_err(&at)?;
                        match element.role {
                            Role::Vertex { xyz: axes } => {
                                for (axis, &slot) in axes.iter().enumerate() {
                                    if slot == k {
                                        xyz[axis] = v;
                                    }
                                }
                            }
                            Role::Edge { ends: slots } => {
                                for (end, &slot) in slots.iter().enumerate() {
                                    if slot == k {
                                        ends[end] = s.parse_i64(token).map_err(&at)?;
                                    }
                                }
                            }
                            Role::Face { .. } | Role::Other => {}
                        }
                    }
                    PropertyType::List { count, item } => {
                        let n = count.parse_i64(next_token(property)?).map_err(&at)?;
                        if n < 0 {
                            return Err(at(format!("negative list length {n}")));
                        }
                        let is_indices = element.role == Role::Face { indices: k };
                        if is_indices && n != 3 {
                            return Err(MeshError::NotATriangle {
                                face: index,
                                corners: n as usize,
                            }
                            .at_line(path, line));
                        }
                        for _ in 0..n {
                            let token = next_token(property)?;
                            if is_indices {
                                corners.push(item.parse_i64(token).map_err(&at)?);
                            } else {
                                item.parse_f64(token).map_err(&at)?;
                            }
                        }
                    }
                }
            }
            if tokens.next().is_some() {
                return Err(at(format!(
                    "more values than the header declares for element `{}`",
                    element.name
                )));
            }
            match element.role {
                Role::Vertex { .. } => {
                    if non_finite_line.is_none() && !xyz.iter().all(|x| x.is_finite()) {
                        non_finite_line = Some(line);
                    }
                    positions.push(Vec3::new(xyz[0], xyz[1], xyz[2]));
                }
                Role::Face { .. } => {
                    let t =
                        triangle(&corners, header.num_vertices).map_err(|i| {
                            match bad_corner(index, i, header.num_vertices) {
                                Ok(e) => e.at_line(path, line),
                                Err(message) => at(message),
                            }
                        })?;
                    faces.push(t);
                }
                Role::Edge { .. } => {
                    let e = edge(ends, header.num_vertices).map_err(|i| {
                        match bad_end(index, i, header.num_vertices) {
                            Ok(e) => e.at_line(path, line),
                            Err(message) => at(message),
                        }
                    })?;
                    edges.push(e);
                }
                Role::Other => {}
            }
        }
    }
    // Only blank lines may follow.
    while let Some((raw, next)) = next_line(body, pos) {
        pos = next;
        line_no += 1;
        if !raw.iter().all(u8::is_ascii_whitespace) {
            return Err(syntax(
                path,
                line_no,
                "data after the last element the header declares (element counts do not match)",
            ));
        }
    }
    let data = MeshData {
        positions,
        faces,
        edges,
    };
    Ok((data, non_finite_line))
}

fn read_binary_body(
    path: &Path,
    header: &Header,
    body: &[u8],
    big: bool,
) -> Result<MeshData, MeshError> {
    let mut positions = Vec::new();
    let mut faces = Vec::new();
    let mut edges = Vec::new();
    let mut pos = 0usize;
    let mut corners: Vec<i64> = Vec::with_capacity(3);
    for element in &header.elements {
        let kind = element.kind();
        let min_size = element.min_binary_size();
        match element.role {
            Role::Vertex { .. } => {
                positions.reserve(bounded_capacity(element.count, body.len() - pos, min_size));
            }
            Role::Face { .. } => {
                faces.reserve(bounded_capacity(element.count, body.len() - pos, min_size));
            }
            Role::Edge { .. } => {
                edges.reserve(bounded_capacity(element.count, body.len() - pos, min_size));
            }
            Role::Other => {
                // Fixed-size elements are skipped in one step.
                if element
                    .properties
                    .iter()
                    .all(|p| matches!(p.ty, PropertyType::Scalar(_)))
                {
                    let size = element.count.checked_mul(min_size);
                    match size.and_then(|s| pos.checked_add(s)) {
                        Some(end) if end <= body.len() => {
                            pos = end;
                            continue;
                        }
                        _ => {
                            let index = (body.len() - pos) / min_size.max(1);
                            return Err(MeshError::Element {
                                path: path.to_path_buf(),
                                element: kind,
                                index,
                                message: format!(
                                    "the file ends inside element `{}` (truncated?)",
                                    element.name
                                ),
                            });
                        }
                    }
                }
            }
        }
        for index in 0..element.count {
            let at = |message: String| MeshError::Element {
                path: path.to_path_buf(),
                element: kind,
                index,
                message,
            };
            let truncated = || {
                at(format!(
                    "the file ends inside element `{}` (truncated?)",
                    element.name
                ))
            };
            let mut take = |n: usize| -> Result<&[u8], MeshError> {
                let end = pos.checked_add(n).filter(|&e| e <= body.len());
                let end = end.ok_or_else(truncated)?;
                let b = &body[pos..end];
                pos = end;
                Ok(b)
            };
            let mut xyz = [0.0; 3];
            let mut ends = [0i64; 2];
            corners.clear();
            for (k, property) in element.properties.iter().enumerate() {
                match property.ty {
                    PropertyType::Scalar(s) => {
                        let b = take(s.size())?;
                        match element.role {
                            Role::Vertex { xyz: axes } => {
                                for (axis, &slot) in axes.iter().enumerate() {
                                    if slot == k {
                                        xyz[axis] = s.decode_f64(b, big);
                                    }
                                }
                            }
                            Role::Edge { ends: slots } => {
                                for (end, &slot) in slots.iter().enumerate() {
                                    if slot == k {
                                        ends[end] = s.decode_i64(b, big);
                                    }
                                }
                            }
                            Role::Face { .. } | Role::Other => {}
                        }
                    }
                    PropertyType::List { count, item } => {
                        let n = count.decode_i64(take(count.size())?, big);
                        if n < 0 {
                            return Err(at(format!(
                                "negative list length {n} in property `{}`",
                                property.name
                            )));
                        }
                        let is_indices = element.role == Role::Face { indices: k };
                        if is_indices && n != 3 {
                            return Err(MeshError::NotATriangle {
                                face: index,
                                corners: n as usize,
                            }
                            .in_file(path));
                        }
                        let len = usize::try_from(n)
                            .ok()
                            .and_then(|n| n.checked_mul(item.size()))
                            .ok_or_else(truncated)?;
                        let b = take(len)?;
                        if is_indices {
                            corners.extend(
                                b.chunks_exact(item.size()).map(|c| item.decode_i64(c, big)),
                            );
                        }
                    }
                }
            }
            match element.role {
                Role::Vertex { .. } => positions.push(Vec3::new(xyz[0], xyz[1], xyz[2])),
                Role::Face { .. } => {
                    let t =
                        triangle(&corners, header.num_vertices).map_err(|i| {
                            match bad_corner(index, i, header.num_vertices) {
                                Ok(e) => e.in_file(path),
                                Err(message) => at(message),
                            }
                        })?;
                    faces.push(t);
                }
                Role::Edge { .. } => {
                    let e = edge(ends, header.num_vertices).map_err(|i| {
                        match bad_end(index, i, header.num_vertices) {
                            Ok(e) => e.in_file(path),
                            Err(message) => at(message),
                        }
                    })?;
                    edges.push(e);
                }
                Role::Other => {}
            }
        }
    }
    if pos != body.len() {
        return Err(MeshError::TrailingData {
            path: path.to_path_buf(),
            bytes: body.len() - pos,
        });
    }
    Ok(MeshData {
        positions,
        faces,
        edges,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::ply_header::Scalar;
    use crate::test_util::Scratch;
    use proptest::prelude::*;

    const FORMATS: [&str; 3] = ["ascii", "binary_little_endian", "binary_big_endian"];

    /// Encodes a PLY body: each row is a sequence of typed values (list
    /// counts included), written in `format`.
    fn ply_bytes(format: &str, header: &str, rows: &[Vec<(Scalar, f64)>]) -> Vec<u8> {
        let mut out = format!("ply\nformat {format} 1.0\n{header}end_header\n").into_bytes();
        for row in rows {
            if format == "ascii" {
                let text: Vec<String> = row
                    .iter()
                    .map(|&(s, v)| match s {
                        Scalar::F32 => format!("{}", v as f32),
                        Scalar::F64 => format!("{v:?}"),
                        _ => format!("{}", v as i64),
                    })
                    .collect();
                out.extend_from_slice(text.join(" ").as_bytes());
                out.push(b'\n');
            } else {
                let big = format == "binary_big_endian";
                for &(s, v) in row {
                    let bits: u64 = match s {
                        Scalar::F32 => u64::from((v as f32).to_bits()),
                        Scalar::F64 => v.to_bits(),
                        _ => v as i64 as u64,
                    };
                    let n = s.size();
                    let le = bits.to_le_bytes();
                    let mut b = le[..n].to_vec();
                    if big {
                        b.reverse();
                    }
                    out.extend_from_slice(&b);
                }
            }
        }
        out
    }

    /// A mesh with every feature the reader must handle: mixed scalar
    /// types, vertex and face lists to skip, edges (their ends among other
    /// properties) and an element to skip between vertex and face, comments
    /// and obj_info.
    fn rich(format: &str) -> Vec<u8> {
        use Scalar::*;
        let header = "comment made by a test\nobj_info anything\n\
            element vertex 4\n\
            property uchar nx\nproperty float x\nproperty double y\n\
            property list ushort short extra\nproperty int z\nproperty float64 w\n\
            element edge 2\nproperty int vertex1\nproperty list uint8 float32 stuff\n\
            property ushort vertex2\n\
            element link 1\nproperty list uint8 float32 stuff\nproperty int vertex1\n\
            comment in the middle\n\
            element face 2\nproperty char flags\nproperty list uint16 uint vertex_index\n\
            property list int double normal\n";
        let v = |x: f64, y: f64, z: f64| {
            vec![
                (U8, 7.0),
                (F32, x),
                (F64, y),
                (U16, 2.0),
                (I16, -5.0),
                (I16, 300.0),
                (I32, z),
                (F64, 1.5),
            ]
        };
        let rows = vec![
            v(0.1, 0.1, -3.0),
            v(1.0, f64::MIN_POSITIVE / 8.0, 0.0),
            v(-2.5e-3, 1e300, 2147483647.0),
            v(3.0, -0.0, -2147483648.0),
            vec![(I32, 1.0), (U8, 1.0), (F32, 0.5), (U16, 3.0)],
            vec![(I32, 2.0), (U8, 0.0), (U16, 0.0)],
            vec![(U8, 2.0), (F32, 0.5), (F32, 1.5), (I32, 7.0)],
            vec![
                (I8, -1.0),
                (U16, 3.0),
                (U32, 0.0),
                (U32, 1.0),
                (U32, 2.0),
                (I32, 0.0),
            ],
            vec![
                (I8, 0.0),
                (U16, 3.0),
                (U32, 3.0),
                (U32, 2.0),
                (U32, 1.0),
                (I32, 1.0),
                (F64, 2.0),
            ],
        ];
        ply_bytes(format, header, &rows)
    }

    fn rich_expected() -> MeshData {
        MeshData {
            positions: vec![
                Vec3::new(f64::from(0.1f32), 0.1, -3.0),
                Vec3::new(1.0, f64::MIN_POSITIVE / 8.0, 0.0),
                Vec3::new(f64::from(-2.5e-3f32), 1e300, 2147483647.0),
                Vec3::new(3.0, -0.0, -2147483648.0),
            ],
            faces: vec![[0, 1, 2], [3, 2, 1]],
            edges: vec![[1, 3], [2, 0]],
        }
    }

    fn bits(m: &MeshData) -> Vec<[u64; 3]> {
        m.positions
            .iter()
            .map(|p| [p.x.to_bits(), p.y.to_bits(), p.z.to_bits()])
            .collect()
    }

    #[test]
    fn every_encoding_reads_the_rich_file_exactly() {
        let expected = rich_expected();
        for format in FORMATS {
            let m = parse_ply(Path::new("rich.ply"), &rich(format))
                .unwrap_or_else(|e| panic!("{format}: {e}"));
            assert_eq!(bits(&m), bits(&expected), "{format}");
            assert_eq!(m.faces, expected.faces, "{format}");
            assert_eq!(m.edges, expected.edges, "{format}");
            // The same after a UTF-8 byte order mark.
            let marked = [UTF8_BOM, &rich(format)].concat();
            let m = parse_ply(Path::new("rich.ply"), &marked).unwrap();
            assert_eq!((bits(&m), &m.faces), (bits(&expected), &expected.faces));
        }
    }

    #[test]
    fn bad_edges_are_errors_naming_the_edge() {
        use Scalar::*;
        let header = |props: &str| {
            format!(
                "element vertex 3\nproperty float x\nproperty float y\nproperty float z\n\
                 element edge 1\n{props}"
            )
        };
        let verts = vec![vec![(F32, 0.0); 3]; 3];
        for format in FORMATS {
            let with = |edge: Vec<(Scalar, f64)>| {
                let mut rows = verts.clone();
                rows.push(edge);
                ply_bytes(
                    format,
                    &header("property int vertex1\nproperty int vertex2\n"),
                    &rows,
                )
            };
            let e = parse_ply(Path::new("e.ply"), &with(vec![(I32, 0.0), (I32, 3.0)])).unwrap_err();
            assert!(
                matches!(
                    e.innermost(),
                    MeshError::EdgeIndexOutOfRange {
                        edge: 0,
                        index: 3,
                        num_vertices: 3
                    }
                ),
                "{format}: {e}"
            );
            let e =
                parse_ply(Path::new("e.ply"), &with(vec![(I32, -1.0), (I32, 1.0)])).unwrap_err();
            assert!(e.to_string().contains("edge 0"), "{format}: {e}");
            assert!(
                e.to_string().contains("negative vertex index -1"),
                "{format}: {e}"
            );
            // An edge element without its second end, or with float ends.
            for props in [
                "property int vertex1\n",
                "property int vertex1\nproperty float vertex2\n",
            ] {
                let bytes = ply_bytes(format, &header(props), &verts);
                let e = parse_ply(Path::new("e.ply"), &bytes).unwrap_err();
                assert!(
                    e.to_string()
                        .contains("the edge element has no integer scalar property `vertex2`"),
                    "{format}: {e}"
                );
            }
        }
    }

    #[test]
    fn scalars_decode_in_both_byte_orders() {
        use Scalar::*;
        let cases: [(Scalar, &[u8], f64); 8] = [
            (I8, &[0xff], -1.0),
            (U8, &[0xff], 255.0),
            (I16, &[0xfe, 0xff], -257.0),
            (U16, &[0x01, 0x02], 258.0),
            (I32, &[0xff, 0xff, 0xff, 0xfe], -2.0),
            (U32, &[0xff, 0xff, 0xff, 0xfe], 4294967294.0),
            (F32, &[0x3f, 0xc0, 0x00, 0x00], 1.5),
            (F64, &[0xbf, 0xf8, 0, 0, 0, 0, 0, 0], -1.5),
        ];
        for (s, big_endian, value) in cases {
            assert_eq!(s.decode_f64(big_endian, true), value, "{s:?} BE");
            let le: Vec<u8> = big_endian.iter().rev().copied().collect();
            assert_eq!(s.decode_f64(&le, false), value, "{s:?} LE");
        }
    }

    #[test]
    fn write_then_read_is_bit_exact() {
        let dir = Scratch::new("ply-round-trip");
        let path = dir.join("m.ply");
        let positions = vec![
            Vec3::new(0.1, -0.0, f64::MAX),
            Vec3::new(f64::from_bits(1), 1.0 / 3.0, -7.25),
            Vec3::new(1e-310, 2.0, 3.0),
        ];
        let faces = vec![[0, 1, 2], [2, 1, 0]];
        write_ply(&path, &positions, &faces).unwrap();
        let m = read_ply(&path).unwrap();
        let expected = MeshData {
            positions,
            faces,
            edges: Vec::new(),
        };
        assert_eq!(bits(&m), bits(&expected));
        assert_eq!(m.faces, expected.faces);
        // A face out of range is refused and leaves no file behind.
        let bad = dir.join("bad.ply");
        let e = write_ply(&bad, &expected.positions, &[[0, 1, 3]]).unwrap_err();
        assert!(matches!(
            e.innermost(),
            MeshError::FaceIndexOutOfRange { index: 3, .. }
        ));
        assert!(!bad.exists());
    }

    fn parse_err(bytes: &[u8]) -> MeshError {
        match parse_ply(Path::new("bad.ply"), bytes) {
            Ok(m) => panic!("accepted: {m:?}"),
            Err(e) => {
                let text = e.to_string();
                assert!(text.contains("bad.ply"), "no file name in `{text}`");
                e
            }
        }
    }

    fn line_of(e: &MeshError) -> Option<usize> {
        match e {
            MeshError::Syntax { line, .. } | MeshError::AtLine { line, .. } => Some(*line),
            _ => None,
        }
    }

    const TRI: &str = "element vertex 3\nproperty float x\nproperty float y\nproperty float z\n\
                       element face 1\nproperty list uchar int vertex_indices\n";

    fn tri(format: &str, corners: &[i64]) -> Vec<u8> {
        use Scalar::*;
        let mut face = vec![(U8, corners.len() as f64)];
        face.extend(corners.iter().map(|&c| (I32, c as f64)));
        let p = |x: f64| vec![(F32, x), (F32, 0.0), (F32, 1.0)];
        ply_bytes(format, TRI, &[p(0.0), p(1.0), p(2.0), face])
    }

    #[test]
    fn header_errors_name_the_line() {
        let cases: [(&str, usize); 9] = [
            ("", 1),
            ("plx\n", 1),
            ("ply\nformat ascii 1.0\nelement vertex 1\n", 3),
            ("ply\nformat utf8 1.0\n", 2),
            ("ply\nformat ascii 1.0\nproperty float x\n", 3),
            ("ply\nformat ascii 1.0\nelement vertex -1\n", 3),
            (
                "ply\nformat ascii 1.0\nelement vertex 1\nproperty float128 x\n",
                4,
            ),
            (
                "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nend_header\n",
                5,
            ),
            ("ply\nformat ascii 1.0\nbogus line\n", 3),
        ];
        for (text, line) in cases {
            let e = parse_err(text.as_bytes());
            assert_eq!(line_of(&e), Some(line), "{text:?}: {e}");
        }
    }

    /// Lines that end in bare carriage returns (old Mac tools), in the
    /// header or in an ASCII body, are named as such, at their line.
    #[test]
    fn bare_carriage_returns_are_named() {
        let header = format!("ply\nformat ascii 1.0\n{TRI}end_header\n");
        for (text, line) in [
            (
                format!("ply\rformat ascii 1.0\r{}", TRI.replace('\n', "\r")),
                1,
            ),
            ("ply\r\nformat ascii 1.0\relement vertex 3\n".to_string(), 2),
            // From a comment on: the rest would read as the comment.
            (
                format!(
                    "ply\nformat ascii 1.0\ncomment x\r{}\n",
                    TRI.replace('\n', "\r")
                ),
                3,
            ),
            (format!("{header}0 0 0\n1 0 0\r0 1 0\r3 0 1 2\r"), 11),
        ] {
            let e = parse_err(text.as_bytes());
            assert_eq!(line_of(&e), Some(line), "{text:?}: {e}");
            assert!(e.to_string().contains("carriage return"), "{e}");
        }
        // `\r\n` line ends are read.
        let crlf = format!("{header}0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n").replace('\n', "\r\n");
        assert!(parse_ply(Path::new("crlf.ply"), crlf.as_bytes()).is_ok());
    }

    #[test]
    fn faces_must_be_triangles() {
        for format in FORMATS {
            let e = parse_err(&tri(format, &[0, 1, 2, 0]));
            assert!(
                matches!(
                    e.innermost(),
                    MeshError::NotATriangle {
                        face: 0,
                        corners: 4
                    }
                ),
                "{format}: {e}"
            );
            if format == "ascii" {
                assert_eq!(line_of(&e), Some(13), "{e}");
            }
        }
    }

    #[test]
    fn face_indices_must_name_vertices() {
        for format in FORMATS {
            let e = parse_err(&tri(format, &[0, 1, 3]));
            assert!(
                matches!(
                    e.innermost(),
                    MeshError::FaceIndexOutOfRange {
                        face: 0,
                        index: 3,
                        num_vertices: 3
                    }
                ),
                "{format}: {e}"
            );
            let e = parse_err(&tri(format, &[0, -1, 2]));
            assert!(e.to_string().contains("negative"), "{format}: {e}");
        }
    }

    #[test]
    fn truncated_bodies_name_the_element() {
        for format in FORMATS {
            let full = tri(format, &[0, 1, 2]);
            // Cut inside vertex 1 (binary: 12 bytes per vertex; ascii: a line).
            let header_len = full.windows(11).position(|w| w == b"end_header\n").unwrap() + 11;
            let cut = if format == "ascii" {
                header_len + 6
            } else {
                header_len + 12 + 5
            };
            let e = parse_err(&full[..cut]);
            match &e {
                MeshError::Element { element, index, .. } => {
                    assert_eq!((*element, *index), ("vertex", 1), "{e}")
                }
                MeshError::Syntax { line, .. } => assert_eq!(*line, 10, "{e}"),
                _ => panic!("{format}: {e}"),
            }
        }
    }

    #[test]
    fn a_file_cut_inside_its_header_is_called_truncated_at_that_line() {
        for format in FORMATS {
            let full = tri(format, &[0, 1, 2]);
            let header_len = full.windows(11).position(|w| w == b"end_header\n").unwrap() + 11;
            let first_line = full.iter().position(|&b| b == b'\n').unwrap() + 1;
            // Every cut from inside line 2 to inside `end_header`, but not
            // right after a newline (the header then lacks its next line).
            for cut in first_line + 1..header_len - 1 {
                if full[cut - 1] == b'\n' {
                    continue;
                }
                let e = parse_err(&full[..cut]);
                let line = full[..cut].iter().filter(|&&b| b == b'\n').count() + 1;
                assert_eq!(line_of(&e), Some(line), "{format} cut at {cut}: {e}");
                assert!(
                    e.to_string().contains("truncated"),
                    "{format} cut at {cut}: {e}"
                );
            }
        }
    }

    #[test]
    fn counts_that_do_not_match_the_data_are_refused() {
        // Too much data.
        for format in FORMATS {
            let mut bytes = tri(format, &[0, 1, 2]);
            bytes.extend_from_slice(b"1 2 3\n");
            let e = parse_err(&bytes);
            match format {
                "ascii" => assert_eq!(line_of(&e), Some(14), "{e}"),
                _ => assert!(matches!(e, MeshError::TrailingData { bytes: 6, .. }), "{e}"),
            }
        }
        // Too many or too few values on an ASCII line; values that are not
        // numbers or out of their type's range.
        let text = String::from_utf8(tri("ascii", &[0, 1, 2])).unwrap();
        for (from, to) in [
            ("1 0 1\n", "1 0 1 4\n"),
            ("1 0 1\n", "1 0\n"),
            ("1 0 1\n", "1 zero 1\n"),
            ("3 0 1 2", "256 0 1 2"),
            ("3 0 1 2", "3 0 1 2.0"),
        ] {
            let e = parse_err(text.replacen(from, to, 1).as_bytes());
            let expected = if from.starts_with('3') { 13 } else { 11 };
            assert_eq!(line_of(&e), Some(expected), "{to:?}: {e}");
        }
    }

    #[test]
    fn missing_vertex_or_index_properties_are_header_errors() {
        let no_z = TRI.replace("property float z\n", "");
        let e = parse_err(&ply_bytes("ascii", &no_z, &[]));
        assert!(e.to_string().contains("`z`"), "{e}");
        let no_list = TRI.replace("vertex_indices", "corners");
        let e = parse_err(&ply_bytes("ascii", &no_list, &[]));
        assert!(e.to_string().contains("vertex_indices"), "{e}");
        let no_vertex = "element face 0\nproperty list uchar int vertex_indices\n";
        parse_err(&ply_bytes("binary_little_endian", no_vertex, &[]));
        let both = TRI.replace(
            "property list uchar int vertex_indices\n",
            "property list uchar int vertex_indices\nproperty list uchar int vertex_index\n",
        );
        assert_ne!(both, TRI);
        let e = parse_err(&ply_bytes("ascii", &both, &[]));
        assert!(e.to_string().contains("ambiguous"), "{e}");
    }

    #[test]
    fn huge_declared_counts_fail_without_allocating() {
        for format in FORMATS {
            let header = TRI.replace("element vertex 3", "element vertex 18446744073709551615");
            let e = parse_err(&ply_bytes(format, &header, &[]));
            assert!(
                matches!(e, MeshError::Element { .. } | MeshError::Syntax { .. }),
                "{e}"
            );
            // A skipped fixed-size element whose byte size overflows.
            let header = format!("{TRI}element junk 9223372036854775807\nproperty double a\n");
            parse_err(&ply_bytes(format, &header, &[]));
            // A count beyond any integer the machine holds is called too
            // large, not malformed; a count that is no integer, malformed.
            let header = TRI.replace("element vertex 3", "element vertex 99999999999999999999");
            let e = parse_err(&ply_bytes(format, &header, &[])).to_string();
            assert!(e.contains("is too large"), "{e}");
            let header = TRI.replace("element vertex 3", "element vertex -3");
            let e = parse_err(&ply_bytes(format, &header, &[])).to_string();
            assert!(e.contains("is not a non-negative integer"), "{e}");
        }
    }

    /// Valid files, then random damage: truncation, byte flips, insertions.
    fn damaged() -> impl Strategy<Value = Vec<u8>> {
        let base = prop::sample::select(vec![
            rich("ascii"),
            rich("binary_little_endian"),
            rich("binary_big_endian"),
            tri("ascii", &[0, 1, 2]),
            tri("binary_big_endian", &[0, 1, 2]),
        ]);
        (
            base,
            prop::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 0..6),
            any::<prop::sample::Index>(),
            any::<bool>(),
        )
            .prop_map(|(mut bytes, edits, cut, truncate)| {
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
                bytes
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        /// No byte input makes the reader panic; it answers Ok or a typed
        /// error that names the file.
        #[test]
        fn damaged_files_never_panic(bytes in damaged()) {
            if let Err(e) = parse_ply(Path::new("fuzz.ply"), &bytes) {
                prop_assert!(e.to_string().contains("fuzz.ply"), "{}", e);
            }
        }

        #[test]
        fn random_bytes_after_a_header_never_panic(
            format in prop::sample::select(FORMATS.to_vec()),
            body in prop::collection::vec(any::<u8>(), 0..200),
        ) {
            let mut bytes = ply_bytes(format, TRI, &[]);
            bytes.extend_from_slice(&body);
            let _ = parse_ply(Path::new("fuzz.ply"), &bytes);
        }
    }
}
