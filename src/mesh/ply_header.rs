//! The PLY header (Turk 1994): format line, elements and their properties,
//! and what each element means to the reader (`ply.rs` reads the body).

use std::path::Path;

use super::MeshError;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Encoding {
    Ascii,
    BinaryLittleEndian,
    BinaryBigEndian,
}

/// The PLY scalar types (both spellings of each).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Scalar {
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    F32,
    F64,
}

impl Scalar {
    pub(super) fn parse(name: &str) -> Option<Scalar> {
        Some(match name {
            "char" | "int8" => Scalar::I8,
            "uchar" | "uint8" => Scalar::U8,
            "short" | "int16" => Scalar::I16,
            "ushort" | "uint16" => Scalar::U16,
            "int" | "int32" => Scalar::I32,
            "uint" | "uint32" => Scalar::U32,
            "float" | "float32" => Scalar::F32,
            "double" | "float64" => Scalar::F64,
            _ => return None,
        })
    }

    pub(super) fn size(self) -> usize {
        match self {
            Scalar::I8 | Scalar::U8 => 1,
            Scalar::I16 | Scalar::U16 => 2,
            Scalar::I32 | Scalar::U32 | Scalar::F32 => 4,
            Scalar::F64 => 8,
        }
    }

    pub(super) fn is_integer(self) -> bool {
        !matches!(self, Scalar::F32 | Scalar::F64)
    }

    /// Decodes `b` (exactly `self.size()` bytes) as a number; every PLY
    /// scalar converts to `f64` exactly.
    pub(super) fn decode_f64(self, b: &[u8], big: bool) -> f64 {
        match self {
            Scalar::F32 => f64::from(f32::from_bits(self.decode_bits(b, big) as u32)),
            Scalar::F64 => f64::from_bits(self.decode_bits(b, big)),
            _ => self.decode_i64(b, big) as f64,
        }
    }

    /// Decodes an integer scalar (sign-extended).
    pub(super) fn decode_i64(self, b: &[u8], big: bool) -> i64 {
        let bits = self.decode_bits(b, big);
        match self {
            Scalar::I8 => i64::from(bits as u8 as i8),
            Scalar::I16 => i64::from(bits as u16 as i16),
            Scalar::I32 => i64::from(bits as u32 as i32),
            _ => bits as i64,
        }
    }

    /// The raw bits, zero-extended.
    pub(super) fn decode_bits(self, b: &[u8], big: bool) -> u64 {
        let n = self.size();
        let mut v = 0u64;
        for k in 0..n {
            let byte = if big { b[k] } else { b[n - 1 - k] };
            v = (v << 8) | u64::from(byte);
        }
        v
    }

    /// Parses an ASCII token as this type and returns it as `f64` (exact for
    /// every type; `float` tokens are rounded to `f32` first).
    pub(super) fn parse_f64(self, token: &str) -> Result<f64, String> {
        match self {
            Scalar::F32 => token
                .parse::<f32>()
                .map(f64::from)
                .map_err(|_| format!("`{token}` is not a number")),
            Scalar::F64 => token
                .parse::<f64>()
                .map_err(|_| format!("`{token}` is not a number")),
            _ => self.parse_i64(token).map(|v| v as f64),
        }
    }

    /// Parses an ASCII token as this integer type, checking its range.
    pub(super) fn parse_i64(self, token: &str) -> Result<i64, String> {
        let v: i64 = token
            .parse()
            .map_err(|_| format!("`{token}` is not an integer"))?;
        let (lo, hi) = match self {
            Scalar::I8 => (i64::from(i8::MIN), i64::from(i8::MAX)),
            Scalar::U8 => (0, i64::from(u8::MAX)),
            Scalar::I16 => (i64::from(i16::MIN), i64::from(i16::MAX)),
            Scalar::U16 => (0, i64::from(u16::MAX)),
            Scalar::I32 => (i64::from(i32::MIN), i64::from(i32::MAX)),
            Scalar::U32 => (0, i64::from(u32::MAX)),
            Scalar::F32 | Scalar::F64 => (i64::MIN, i64::MAX),
        };
        if v < lo || v > hi {
            return Err(format!("`{token}` is out of range for its type {self:?}"));
        }
        Ok(v)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum PropertyType {
    Scalar(Scalar),
    List { count: Scalar, item: Scalar },
}

#[derive(Debug)]
pub(super) struct Property {
    pub(super) name: String,
    pub(super) ty: PropertyType,
}

/// What an element means to the reader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    /// `vertex`: positions of `x`, `y`, `z` among the properties.
    Vertex { xyz: [usize; 3] },
    /// `face`: position of the index list among the properties.
    Face { indices: usize },
    /// `edge`: positions of `vertex1` and `vertex2` among the properties.
    Edge { ends: [usize; 2] },
    /// Anything else: skipped.
    Other,
}

#[derive(Debug)]
pub(super) struct Element {
    pub(super) name: String,
    pub(super) count: usize,
    pub(super) properties: Vec<Property>,
    pub(super) role: Role,
}

impl Element {
    /// The element kind as errors name it.
    pub(super) fn kind(&self) -> &'static str {
        match self.role {
            Role::Vertex { .. } => "vertex",
            Role::Face { .. } => "face",
            Role::Edge { .. } => "edge",
            Role::Other => "element",
        }
    }

    /// The smallest number of bytes one instance takes in a binary body.
    pub(super) fn min_binary_size(&self) -> usize {
        self.properties
            .iter()
            .map(|p| match p.ty {
                PropertyType::Scalar(s) => s.size(),
                PropertyType::List { count, .. } => count.size(),
            })
            .sum()
    }
}

pub(super) struct Header {
    pub(super) encoding: Encoding,
    pub(super) elements: Vec<Element>,
    /// Byte offset of the body.
    pub(super) body_start: usize,
    /// 1-based line number of the body's first line (ASCII).
    pub(super) body_line: usize,
    /// Number of vertices (0 without a vertex element).
    pub(super) num_vertices: usize,
}

pub(super) fn syntax(path: &Path, line: usize, message: impl Into<String>) -> MeshError {
    MeshError::Syntax {
        path: path.to_path_buf(),
        line,
        message: message.into(),
    }
}

/// Splits off the next line (without `\n` or `\r\n`); returns it and the
/// offset after it, or `None` at the end of the data.
pub(super) fn next_line(bytes: &[u8], start: usize) -> Option<(&[u8], usize)> {
    if start >= bytes.len() {
        return None;
    }
    let rest = &bytes[start..];
    let (line, next) = match rest.iter().position(|&b| b == b'\n') {
        Some(k) => (&rest[..k], start + k + 1),
        None => (rest, bytes.len()),
    };
    Some((line.strip_suffix(b"\r").unwrap_or(line), next))
}

/// An error at `line_no` when the text line `raw` (its `\n` or `\r\n`
/// taken off) still holds a carriage return: the file's lines end in bare
/// `\r`s, which the tokenizers would take for spaces.
pub(super) fn no_bare_cr(path: &Path, line_no: usize, raw: &[u8]) -> Result<(), MeshError> {
    match raw.contains(&b'\r') {
        false => Ok(()),
        true => Err(syntax(path, line_no, crate::io::BARE_CARRIAGE_RETURN)),
    }
}

pub(super) fn parse_header(path: &Path, bytes: &[u8]) -> Result<Header, MeshError> {
    let mut pos = 0;
    let mut line_no = 0;
    let mut encoding = None;
    let mut elements: Vec<Element> = Vec::new();
    loop {
        let Some((raw, next)) = next_line(bytes, pos) else {
            return Err(syntax(
                path,
                line_no.max(1),
                if line_no == 0 {
                    "empty file: not a PLY file".to_string()
                } else {
                    "the header has no `end_header` line (truncated file?)".to_string()
                },
            ));
        };
        pos = next;
        line_no += 1;
        // A last line with no newline: the file ends inside the header
        // (`end_header` itself must be followed by one, or by nothing).
        if line_no > 1
            && next == bytes.len()
            && bytes.last() != Some(&b'\n')
            && raw != b"end_header"
        {
            return Err(syntax(
                path,
                line_no,
                "the file ends inside the header, before `end_header` (truncated file?)",
            ));
        }
        if line_no == 1 {
            no_bare_cr(path, 1, raw)?;
            if raw != b"ply" {
                return Err(syntax(
                    path,
                    1,
                    "not a PLY file: the first line must be `ply`",
                ));
            }
            continue;
        }
        // A carriage return inside a line is a line end of another
        // convention (the rest of the header would read as this line).
        no_bare_cr(path, line_no, raw)?;
        // Comments may hold any other bytes; everything else must be text.
        if raw.starts_with(b"comment") || raw.starts_with(b"obj_info") {
            continue;
        }
        let line = std::str::from_utf8(raw)
            .map_err(|_| syntax(path, line_no, "the header line is not valid text"))?;
        let tokens: Vec<&str> = line.split_ascii_whitespace().collect();
        match tokens.as_slice() {
            [] => continue,
            ["format", format, version] => {
                if encoding.is_some() {
                    return Err(syntax(path, line_no, "a second `format` line"));
                }
                // 1.0 is the only version of PLY there is.
                if !matches!(*version, "1.0" | "1") {
                    return Err(syntax(
                        path,
                        line_no,
                        format!("PLY version `{version}`; ccdlab reads version 1.0"),
                    ));
                }
                encoding = Some(match *format {
                    "ascii" => Encoding::Ascii,
                    "binary_little_endian" => Encoding::BinaryLittleEndian,
                    "binary_big_endian" => Encoding::BinaryBigEndian,
                    other => {
                        return Err(syntax(path, line_no, format!("unknown format `{other}`")));
                    }
                });
            }
            ["format", ..] => {
                return Err(syntax(
                    path,
                    line_no,
                    "expected `format <ascii|binary_little_endian|binary_big_endian> <version>`",
                ));
            }
            ["element", name, count] => {
                let count: usize = count.parse().map_err(|_| {
                    let what = if !count.is_empty() && count.bytes().all(|b| b.is_ascii_digit()) {
                        format!("is too large (at most {})", usize::MAX)
                    } else {
                        "is not a non-negative integer".to_string()
                    };
                    syntax(path, line_no, format!("element count `{count}` {what}"))
                })?;
                if elements.iter().any(|e| e.name == *name) {
                    return Err(syntax(path, line_no, format!("a second `{name}` element")));
                }
                elements.push(Element {
                    name: (*name).to_string(),
                    count,
                    properties: Vec::new(),
                    role: Role::Other,
                });
            }
            ["element", ..] => {
                return Err(syntax(path, line_no, "expected `element <name> <count>`"));
            }
            ["property", rest @ ..] => {
                let Some(element) = elements.last_mut() else {
                    return Err(syntax(path, line_no, "a property before any element"));
                };
                let scalar = |name: &str| {
                    Scalar::parse(name).ok_or_else(|| {
                        syntax(path, line_no, format!("unknown property type `{name}`"))
                    })
                };
                let (ty, name) = match rest {
                    ["list", count, item, name] => {
                        let count = scalar(count)?;
                        if !count.is_integer() {
                            return Err(syntax(
                                path,
                                line_no,
                                "a list's count type must be an integer type",
                            ));
                        }
                        (
                            PropertyType::List {
                                count,
                                item: scalar(item)?,
                            },
                            name,
                        )
                    }
                    [ty, name] if *ty != "list" => (PropertyType::Scalar(scalar(ty)?), name),
                    _ => {
                        return Err(syntax(
                            path,
                            line_no,
                            "expected `property <type> <name>` or \
                             `property list <count type> <item type> <name>`",
                        ));
                    }
                };
                if element.properties.iter().any(|p| p.name == *name) {
                    return Err(syntax(
                        path,
                        line_no,
                        format!("a second property `{name}` in element `{}`", element.name),
                    ));
                }
                element.properties.push(Property {
                    name: (*name).to_string(),
                    ty,
                });
            }
            ["end_header"] => break,
            [keyword, ..] => {
                return Err(syntax(
                    path,
                    line_no,
                    format!("unexpected header keyword `{keyword}`"),
                ));
            }
        }
    }
    let Some(encoding) = encoding else {
        return Err(syntax(path, line_no, "the header has no `format` line"));
    };
    // Assign roles now that all properties are known.
    let mut num_vertices = 0;
    let mut has_vertex = false;
    for element in &mut elements {
        let find = |name: &str| element.properties.iter().position(|p| p.name == name);
        match element.name.as_str() {
            "vertex" => {
                let mut xyz = [0; 3];
                for (k, axis) in ["x", "y", "z"].into_iter().enumerate() {
                    let Some(i) = find(axis) else {
                        return Err(syntax(
                            path,
                            line_no,
                            format!("the vertex element has no scalar property `{axis}`"),
                        ));
                    };
                    if !matches!(element.properties[i].ty, PropertyType::Scalar(_)) {
                        return Err(syntax(
                            path,
                            line_no,
                            format!("vertex property `{axis}` must be a scalar, not a list"),
                        ));
                    }
                    xyz[k] = i;
                }
                element.role = Role::Vertex { xyz };
                num_vertices = element.count;
                has_vertex = true;
            }
            "face" => {
                let (indices, index) = (find("vertex_indices"), find("vertex_index"));
                if indices.is_some() && index.is_some() {
                    return Err(syntax(
                        path,
                        line_no,
                        "the face element has both a `vertex_indices` and a `vertex_index` \
                         property; which holds the triangles is ambiguous",
                    ));
                }
                let Some(i) = indices.or(index) else {
                    return Err(syntax(
                        path,
                        line_no,
                        "the face element has no `vertex_indices` (or `vertex_index`) list",
                    ));
                };
                match element.properties[i].ty {
                    PropertyType::List { item, .. } if item.is_integer() => {}
                    _ => {
                        return Err(syntax(
                            path,
                            line_no,
                            "the face element's vertex indices must be a list of integers",
                        ));
                    }
                }
                element.role = Role::Face { indices: i };
            }
            "edge" => {
                let mut ends = [0; 2];
                for (k, name) in ["vertex1", "vertex2"].into_iter().enumerate() {
                    match find(name).map(|i| (i, element.properties[i].ty)) {
                        Some((i, PropertyType::Scalar(s))) if s.is_integer() => ends[k] = i,
                        _ => {
                            return Err(syntax(
                                path,
                                line_no,
                                format!(
                                    "the edge element has no integer scalar property `{name}` \
                                     (edges are `vertex1`, `vertex2`)"
                                ),
                            ));
                        }
                    }
                }
                element.role = Role::Edge { ends };
            }
            _ => {}
        }
    }
    if !has_vertex {
        return Err(syntax(
            path,
            line_no,
            "the header declares no `vertex` element",
        ));
    }
    Ok(Header {
        encoding,
        elements,
        body_start: pos,
        body_line: line_no + 1,
        num_vertices,
    })
}
