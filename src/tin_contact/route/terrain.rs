//! TINs for the route application: a triangle mesh with fixed vertex
//! positions, read from a mesh file or built from a regular height grid, and
//! a vertical lookup of the terrain surface (for plots).
//!
//! **Height grid** (text): a header line `grid ROWS COLS X0 Y0 DX DY`, then
//! `ROWS·COLS` heights, row by row (whitespace or newlines between them;
//! `#` comments; [`HeightGridSpec::to_text`] writes one row per line, but
//! the layout is free, so rows are not checked line by line: a height
//! beyond the count is an error at its line, too few name the line of the
//! last). Sample `(i, j)` is the vertex `(X0 + j·DX, Y0 + i·DY,
//! H_ij)` — `i` along y, `j` along x, as in Strashnov & Torgashev (2020),
//! formula (1) (`crate::discrete::heightfield`). Each cell becomes two
//! triangles `V₀V₁V₂` and `V₃V₂V₁` (diagonal `V₁V₂`, the same split as
//! there), always two: a TIN has only triangles (Yu et al. 2000, §1).
//!
//! **Range.** Every coordinate (mesh vertices, grid samples, and the
//! waypoints of [`super::waypoints`]) must lie within ±[`MAX_COORDINATE`].
//!
//! docs/design.md §3 (the route application of Yu et al.; the grid as in the
//! cylinder–terrain detector).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::error::RouteError;
use crate::math::{Real, Vec3};
use crate::mesh::{MeshError, TriMesh, check_finite, read_mesh};

/// The largest coordinate magnitude the route application accepts (mesh
/// vertices, grid samples, waypoints): `1e60`. The posed object (a waypoint
/// plus a rotated object vertex, within ±3e60), the contact regions and
/// the plots are computed in floating point from coordinate differences,
/// with products of up to four of them (the edge crossings of
/// [`crate::tin_contact::Region`]): within this range none of them overflows,
/// whereas coordinates near `f64::MAX` gave infinite extents (a plot that
/// never finished) and NaN region points. Real terrain needs far less (the
/// Earth's radius is 6.4e6 m); rescale the units otherwise.
pub const MAX_COORDINATE: Real = 1e60;

/// The first coordinate of `points` beyond ±[`MAX_COORDINATE`]: (index,
/// value).
pub(super) fn first_out_of_range(points: &[Vec3]) -> Option<(usize, Real)> {
    points.iter().enumerate().find_map(|(i, p)| {
        p.iter()
            .copied()
            .find(|x| x.abs() > MAX_COORDINATE)
            .map(|x| (i, x))
    })
}

/// The message of a coordinate beyond ±[`MAX_COORDINATE`].
pub(super) fn out_of_range_message(value: Real) -> String {
    format!(
        "coordinate {value:?} is beyond ±{MAX_COORDINATE:e}, the route application's limit; rescale the units"
    )
}

/// A triangle mesh with one set of vertex positions.
#[derive(Debug, Clone)]
pub struct Tin {
    /// Topology.
    pub(crate) mesh: TriMesh,
    /// Vertex positions.
    pub(crate) positions: Vec<Vec3>,
}

impl Tin {
    /// The topology.
    pub fn mesh(&self) -> &TriMesh {
        &self.mesh
    }

    /// The vertex positions, one per vertex of [`Tin::mesh`].
    pub fn positions(&self) -> &[Vec3] {
        &self.positions
    }

    /// A TIN from positions and triangles; `role` (`terrain`, `object`) and
    /// `path` name it in errors (no faces, out-of-range or repeated
    /// indices, non-finite coordinates or ones beyond ±[`MAX_COORDINATE`]).
    pub fn new(
        role: &'static str,
        path: &Path,
        positions: Vec<Vec3>,
        faces: Vec<[u32; 3]>,
    ) -> Result<Tin, RouteError> {
        let mesh_err = |source: MeshError| RouteError::Mesh {
            role,
            source: source.in_file(path),
        };
        check_finite(&positions).map_err(mesh_err)?;
        if let Some((v, value)) = first_out_of_range(&positions) {
            return Err(RouteError::OutOfRange {
                path: path.to_path_buf(),
                element: format!("{role} vertex {v}"),
                message: out_of_range_message(value),
            });
        }
        if faces.is_empty() {
            return Err(mesh_err(MeshError::NoFaces));
        }
        let mesh = TriMesh::new(positions.len(), faces).map_err(mesh_err)?;
        Ok(Tin { mesh, positions })
    }

    /// Reads a `.obj` or `.ply` mesh.
    pub fn read(role: &'static str, path: &Path) -> Result<Tin, RouteError> {
        let data = read_mesh(path).map_err(|source| RouteError::Mesh { role, source })?;
        if data.faces.is_empty() && !data.edges.is_empty() {
            return Err(RouteError::NoTriangles {
                role,
                path: path.to_path_buf(),
                edges: data.edges.len(),
            });
        }
        Tin::new(role, path, data.positions, data.faces)
    }

    /// Smallest and largest coordinates.
    pub fn bounds(&self) -> (Vec3, Vec3) {
        self.positions.iter().fold(
            (
                Vec3::repeat(Real::INFINITY),
                Vec3::repeat(Real::NEG_INFINITY),
            ),
            |(lo, hi), p| (lo.inf(p), hi.sup(p)),
        )
    }
}

/// A regular height grid (module doc).
#[derive(Debug, Clone, PartialEq)]
pub struct HeightGridSpec {
    /// `(X0, Y0)`.
    pub origin: [Real; 2],
    /// `(DX, DY)`, finite and > 0.
    pub step: [Real; 2],
    /// Samples along y (≥ 2).
    pub rows: usize,
    /// Samples along x (≥ 2).
    pub cols: usize,
    /// `H_ij` at `i·cols + j`.
    pub heights: Vec<Real>,
}

impl HeightGridSpec {
    /// Checks the grid; errors name `path` and the offending sample.
    pub fn validate(&self, path: &Path) -> Result<(), RouteError> {
        let grid = |message: String| RouteError::Grid {
            path: path.to_path_buf(),
            message,
        };
        if self.rows < 2 || self.cols < 2 {
            return Err(grid(format!(
                "{} × {} samples; at least 2 × 2 are needed",
                self.rows, self.cols
            )));
        }
        let n = sample_count(self.rows, self.cols).map_err(grid)?;
        if self.heights.len() != n {
            return Err(grid(format!(
                "{} × {} samples need {n} heights, found {}",
                self.rows,
                self.cols,
                self.heights.len()
            )));
        }
        if !self.origin.iter().all(|x| x.is_finite()) {
            return Err(grid(format!("origin {:?} is not finite", self.origin)));
        }
        if !self.step.iter().all(|x| x.is_finite() && *x > 0.0) {
            return Err(grid(format!(
                "steps {:?} must be finite and > 0",
                self.step
            )));
        }
        if let Some(k) = self.heights.iter().position(|h| !h.is_finite()) {
            return Err(grid(format!(
                "height at row {}, column {} is {}",
                k / self.cols,
                k % self.cols,
                self.heights[k]
            )));
        }
        if let Some(k) = self.heights.iter().position(|h| h.abs() > MAX_COORDINATE) {
            return Err(grid(format!(
                "height at row {}, column {}: {}",
                k / self.cols,
                k % self.cols,
                out_of_range_message(self.heights[k])
            )));
        }
        let far = [
            self.origin[0] + self.step[0] * (self.cols - 1) as Real,
            self.origin[1] + self.step[1] * (self.rows - 1) as Real,
        ];
        for (corner, [x, y]) in [("first", self.origin), ("last", far)] {
            if let Some(v) = [x, y].into_iter().find(|v| v.abs() > MAX_COORDINATE) {
                return Err(grid(format!(
                    "the {corner} sample's position ({x:?}, {y:?}): {}",
                    out_of_range_message(v)
                )));
            }
        }
        Ok(())
    }

    /// Parses a grid file (module doc).
    pub fn parse(path: &Path, text: &str) -> Result<HeightGridSpec, RouteError> {
        let syntax = |line: usize, message: String| RouteError::Syntax {
            path: path.to_path_buf(),
            line,
            message,
        };
        let mut header: Option<(usize, usize, [Real; 2], [Real; 2])> = None;
        // Heights the header asks for (`None` when too many to count: the
        // validation names that), and the last line that gave one.
        let mut wanted: Option<usize> = None;
        let mut last_line = 0;
        let mut heights = Vec::new();
        for (k, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let mut tokens = line.split_ascii_whitespace().peekable();
            if header.is_none() {
                if tokens.next() != Some("grid") {
                    return Err(syntax(
                        k + 1,
                        "expected the header `grid ROWS COLS X0 Y0 DX DY`".into(),
                    ));
                }
                let rest: Vec<&str> = tokens.collect();
                if rest.len() != 6 {
                    return Err(syntax(
                        k + 1,
                        format!(
                            "the header needs 6 values after `grid`, found {}",
                            rest.len()
                        ),
                    ));
                }
                let count = |s: &str| {
                    s.parse::<usize>()
                        .map_err(|_| syntax(k + 1, format!("`{s}` is not a sample count")))
                };
                let num = |s: &str| {
                    s.parse::<Real>()
                        .map_err(|_| syntax(k + 1, format!("`{s}` is not a number")))
                };
                let (rows, cols) = (count(rest[0])?, count(rest[1])?);
                wanted = sample_count(rows, cols).ok();
                header = Some((
                    rows,
                    cols,
                    [num(rest[2])?, num(rest[3])?],
                    [num(rest[4])?, num(rest[5])?],
                ));
                continue;
            }
            for s in tokens {
                let h = s
                    .parse::<Real>()
                    .map_err(|_| syntax(k + 1, format!("`{s}` is not a height")))?;
                if let (Some(n), Some((rows, cols, ..))) = (wanted, header)
                    && heights.len() == n
                {
                    return Err(syntax(
                        k + 1,
                        format!("height `{s}` is one too many: {rows} × {cols} samples need {n}"),
                    ));
                }
                heights.push(h);
                last_line = k + 1;
            }
        }
        let Some((rows, cols, origin, step)) = header else {
            return Err(syntax(1, "empty file: no `grid …` header".into()));
        };
        if let Some(n) = wanted
            && heights.len() < n
            && rows >= 2
            && cols >= 2
        {
            let end = if last_line == 0 {
                "none".to_string()
            } else {
                format!("the last on line {last_line}")
            };
            return Err(RouteError::Grid {
                path: path.to_path_buf(),
                message: format!(
                    "{rows} × {cols} samples need {n} heights, found {} ({end})",
                    heights.len()
                ),
            });
        }
        let spec = HeightGridSpec {
            origin,
            step,
            rows,
            cols,
            heights,
        };
        spec.validate(path)?;
        Ok(spec)
    }

    /// Reads a grid file.
    pub fn read(path: &Path) -> Result<HeightGridSpec, RouteError> {
        let text = crate::io::read_input_to_string(path).map_err(|source| RouteError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        HeightGridSpec::parse(path, &text)
    }

    /// The file text (heights with shortest round-trip formatting, so that
    /// [`HeightGridSpec::parse`] gives back the same grid).
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "# ccdlab height grid: vertex (i, j) = (X0 + j·DX, Y0 + i·DY, H_ij)\ngrid {} {} {:?} {:?} {:?} {:?}\n",
            self.rows, self.cols, self.origin[0], self.origin[1], self.step[0], self.step[1]
        );
        for row in self.heights.chunks(self.cols) {
            let line: Vec<String> = row.iter().map(|h| format!("{h:?}")).collect();
            let _ = writeln!(s, "{}", line.join(" "));
        }
        s
    }

    /// The TIN: vertex `i·cols + j` at `(X0 + j·DX, Y0 + i·DY, H_ij)`, two
    /// triangles per cell. `path` names the grid in errors.
    pub fn to_tin(&self, path: &Path) -> Result<Tin, RouteError> {
        self.validate(path)?;
        let (rows, cols) = (self.rows, self.cols);
        let n = self.heights.len();
        let mut positions = Vec::with_capacity(n);
        for i in 0..rows {
            for j in 0..cols {
                positions.push(Vec3::new(
                    self.origin[0] + j as Real * self.step[0],
                    self.origin[1] + i as Real * self.step[1],
                    self.heights[i * cols + j],
                ));
            }
        }
        let id = |i: usize, j: usize| (i * cols + j) as u32;
        let mut faces = Vec::with_capacity(2 * (rows - 1) * (cols - 1));
        for i in 0..rows - 1 {
            for j in 0..cols - 1 {
                // V₀ = (i, j), V₁ = (i, j+1), V₂ = (i+1, j), V₃ = (i+1, j+1).
                faces.push([id(i, j), id(i, j + 1), id(i + 1, j)]);
                faces.push([id(i + 1, j + 1), id(i + 1, j), id(i, j + 1)]);
            }
        }
        Tin::new("terrain", path, positions, faces)
    }
}

/// `rows · cols`, or why it cannot be a grid's sample count: it overflows,
/// or a TIN's `u32` vertex indices cannot reach every sample.
fn sample_count(rows: usize, cols: usize) -> Result<usize, String> {
    rows.checked_mul(cols)
        .filter(|&n| n < u32::MAX as usize)
        .ok_or_else(|| {
            format!(
                "{rows} × {cols} samples are too many (at most {} in all)",
                u32::MAX - 1
            )
        })
}

/// A vertical lookup of a TIN's surface: the highest point of the mesh
/// above `(x, y)`. Faces are bucketed on a uniform grid over their xy
/// bounding boxes. For plots and profiles only (floating point).
///
/// The grid has about one cell per face (at most 1024 × 1024), coarsened
/// until the faces' entries number at most
/// [`SurfaceLookup::MAX_ENTRIES_PER_FACE`] per face on average (in all, at
/// most that many times the face count): long slivers, each of whose boxes
/// covers much of the terrain, would otherwise cost memory in faces × cells.
#[derive(Debug, Clone)]
pub struct SurfaceLookup {
    grid: Grid,
    buckets: Vec<Vec<u32>>,
    tris: Vec<[Vec3; 3]>,
}

/// A grid of `side × side` cells over `lo..hi`, and the cell of a coordinate.
#[derive(Debug, Clone, Copy)]
struct Grid {
    lo: [Real; 2],
    cell: [Real; 2],
    side: usize,
}

impl Grid {
    fn new(lo: [Real; 2], hi: [Real; 2], side: usize) -> Grid {
        let cell = [0, 1].map(|d| ((hi[d] - lo[d]) / side as Real).max(Real::MIN_POSITIVE));
        Grid { lo, cell, side }
    }

    /// The cell along axis `d` that holds `x` (the last one beyond the
    /// grid), or `None` before the grid (or for NaN).
    fn index(&self, x: Real, d: usize) -> Option<usize> {
        let k = ((x - self.lo[d]) / self.cell[d]).floor();
        (k >= 0.0).then(|| (k as usize).min(self.side - 1))
    }

    /// The cells `[first, last]` along axis `d` that `[x0, x1]` meets.
    fn span(&self, x0: Real, x1: Real, d: usize) -> [usize; 2] {
        [x0, x1].map(|x| self.index(x, d).unwrap_or(0))
    }
}

impl SurfaceLookup {
    /// The most bucket entries per face, on average, the grid is coarsened
    /// to (see the type's doc).
    pub const MAX_ENTRIES_PER_FACE: usize = 16;

    /// Buckets the faces of `tin`.
    pub fn new(tin: &Tin) -> SurfaceLookup {
        let (lo, hi) = tin.bounds();
        let (lo, hi) = ([lo.x, lo.y], [hi.x, hi.y]);
        let nf = tin.mesh.num_faces().max(1);
        let tris: Vec<[Vec3; 3]> = tin
            .mesh
            .faces()
            .iter()
            .map(|f| f.map(|v| tin.positions[v as usize]))
            .collect();
        let boxes: Vec<[[Real; 2]; 2]> = tris
            .iter()
            .map(|t| {
                [0, 1].map(|d| {
                    let c = t.map(|p| p[d]);
                    [c[0].min(c[1]).min(c[2]), c[0].max(c[1]).max(c[2])]
                })
            })
            .collect();
        let spans =
            |grid: &Grid, b: &[[Real; 2]; 2]| [0, 1].map(|d| grid.span(b[d][0], b[d][1], d));
        let mut grid = Grid::new(lo, hi, ((nf as Real).sqrt().ceil() as usize).clamp(1, 1024));
        while grid.side > 1 {
            let entries: usize = boxes
                .iter()
                .map(|b| {
                    let [[x0, x1], [y0, y1]] = spans(&grid, b);
                    (x1 - x0 + 1) * (y1 - y0 + 1)
                })
                .sum();
            if entries <= Self::MAX_ENTRIES_PER_FACE * nf {
                break;
            }
            grid = Grid::new(lo, hi, grid.side / 2);
        }
        let side = grid.side;
        let mut buckets = vec![Vec::new(); side * side];
        for (f, b) in boxes.iter().enumerate() {
            let [[x0, x1], [y0, y1]] = spans(&grid, b);
            for i in y0..=y1 {
                for j in x0..=x1 {
                    buckets[i * side + j].push(f as u32);
                }
            }
        }
        SurfaceLookup {
            grid,
            buckets,
            tris,
        }
    }

    /// The largest height of the surface above `(x, y)`, or `None` outside.
    pub fn height(&self, x: Real, y: Real) -> Option<Real> {
        let (j, i) = (self.grid.index(x, 0)?, self.grid.index(y, 1)?);
        let mut best: Option<Real> = None;
        for &f in &self.buckets[i * self.grid.side + j] {
            let [a, b, c] = self.tris[f as usize];
            let det = (b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y);
            if det == 0.0 {
                continue;
            }
            let u = ((x - a.x) * (c.y - a.y) - (c.x - a.x) * (y - a.y)) / det;
            let v = ((b.x - a.x) * (y - a.y) - (x - a.x) * (b.y - a.y)) / det;
            let tol = 64.0 * Real::EPSILON;
            if u >= -tol && v >= -tol && u + v <= 1.0 + tol {
                let z = a.z + u * (b.z - a.z) + v * (c.z - a.z);
                best = Some(best.map_or(z, |m: Real| m.max(z)));
            }
        }
        best
    }
}

/// A grid spec's source name in errors when it was built in code.
pub fn generated() -> PathBuf {
    PathBuf::from("<generated>")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_text_round_trips_and_builds_a_tin() {
        let spec = HeightGridSpec {
            origin: [-1.0, 2.0],
            step: [0.5, 0.25],
            rows: 3,
            cols: 2,
            heights: vec![0.0, 1.0, 0.1, -2.5, 3.0, 1e-7],
        };
        let back = HeightGridSpec::parse(Path::new("g.txt"), &spec.to_text()).unwrap();
        assert_eq!(back, spec);
        let tin = spec.to_tin(Path::new("g.txt")).unwrap();
        assert_eq!(tin.mesh.num_faces(), 4);
        assert_eq!(tin.positions[3], Vec3::new(-0.5, 2.25, -2.5));
        let look = SurfaceLookup::new(&tin);
        // Over vertex (1, 1) exactly, and a point in cell (0, 0).
        assert_eq!(look.height(-0.5, 2.25), Some(-2.5));
        assert!(look.height(-0.9, 2.05).is_some());
        assert_eq!(look.height(5.0, 5.0), None);
    }

    /// Slivers whose boxes each cover the whole terrain: the grid coarsens
    /// until the entries are bounded per face (they would be faces × cells,
    /// about `n²`), and the lookup still finds each sliver's height.
    #[test]
    fn slivers_keep_the_lookup_small() {
        let n = 2000u32;
        let mut positions = Vec::new();
        for k in 0..n {
            let z = f64::from(k);
            let y = 1.0 - 1e-7 * f64::from(k + 1);
            positions.extend([
                Vec3::new(0.0, 0.0, z),
                Vec3::new(1.0, 1.0, z),
                Vec3::new(1.0, y, z),
            ]);
        }
        let faces = (0..n).map(|k| [3 * k, 3 * k + 1, 3 * k + 2]).collect();
        let tin = Tin::new("terrain", Path::new("slivers.obj"), positions, faces).unwrap();
        let look = SurfaceLookup::new(&tin);
        let entries: usize = look.buckets.iter().map(Vec::len).sum();
        assert!(
            entries <= SurfaceLookup::MAX_ENTRIES_PER_FACE * n as usize,
            "{entries}"
        );
        // Just below the diagonal near (1, 1), inside every sliver wider
        // than the point's offset: the topmost of them.
        let h = look.height(0.999_999_9, 0.999_999_9 - 1e-8).unwrap();
        assert!(h >= f64::from(n - 1) - 1e-6, "{h}");
    }

    #[test]
    fn bad_grids_name_file_line_and_sample() {
        let p = Path::new("g.txt");
        let e = HeightGridSpec::parse(p, "").unwrap_err();
        assert!(matches!(e, RouteError::Syntax { .. }), "{e}");
        let e = HeightGridSpec::parse(p, "grid 2 2 0 0 1\n").unwrap_err();
        assert!(e.to_string().contains("6 values"), "{e}");
        let e = HeightGridSpec::parse(p, "grid 2 2 0 0 1 1\n0 0 0\n").unwrap_err();
        assert!(e.to_string().contains("need 4 heights, found 3"), "{e}");
        let e = HeightGridSpec::parse(p, "grid 2 2 0 0 1 1\n0 0\n0 nan\n").unwrap_err();
        assert!(e.to_string().contains("row 1, column 1"), "{e}");
        assert!(e.to_string().contains("g.txt"), "{e}");
        let e = HeightGridSpec::parse(p, "grid 2 2 0 0 0 1\n0 0 0 0\n").unwrap_err();
        assert!(e.to_string().contains("steps"), "{e}");
        let e = HeightGridSpec::parse(p, "grid 2 2 0 0 1 1\n0 0 0 x\n").unwrap_err();
        assert!(
            matches!(
                e,
                RouteError::Syntax { line: 3, .. } | RouteError::Syntax { line: 2, .. }
            ),
            "{e}"
        );
    }

    #[test]
    fn grids_with_miscounted_or_out_of_range_samples_are_refused() {
        let p = Path::new("g.txt");
        // rows · cols overflows: named, not "need 0 heights".
        let e = HeightGridSpec::parse(p, "grid 4294967296 4294967296 0 0 1 1\n0 0\n").unwrap_err();
        assert!(
            matches!(e, RouteError::Grid { .. }) && e.to_string().contains("too many"),
            "{e}"
        );
        // A height beyond the samples: the line that holds it.
        let e = HeightGridSpec::parse(p, "grid 2 2 0 0 1 1\n0 0\n0 0\n\n7\n").unwrap_err();
        assert!(
            matches!(e, RouteError::Syntax { line: 5, .. })
                && e.to_string().contains("one too many"),
            "{e}"
        );
        // Too few: where they end.
        let e = HeightGridSpec::parse(p, "grid 2 2 0 0 1 1\n0 0\n0\n# end\n").unwrap_err();
        assert!(
            e.to_string()
                .contains("need 4 heights, found 3 (the last on line 3)"),
            "{e}"
        );
        // Heights and sample positions beyond ±MAX_COORDINATE.
        let e = HeightGridSpec::parse(p, "grid 2 2 0 0 1 1\n0 0\n0 1e300\n").unwrap_err();
        assert!(
            e.to_string().contains("row 1, column 1") && e.to_string().contains("beyond"),
            "{e}"
        );
        let e = HeightGridSpec::parse(p, "grid 2 2 -1e61 0 1 1\n0 0 0 0\n").unwrap_err();
        assert!(e.to_string().contains("first sample"), "{e}");
        let e = HeightGridSpec::parse(p, "grid 2 2 0 0 1e300 1\n0 0 0 0\n").unwrap_err();
        assert!(e.to_string().contains("last sample"), "{e}");
    }

    #[test]
    fn mesh_coordinates_beyond_the_limit_are_refused() {
        // The one-triangle terrain whose plot never finished, and ±1.7e308
        // (NaN contact regions).
        let p = Path::new("big.ply");
        for x in [1e308, 1.7e308, 2e60] {
            let tri = vec![
                Vec3::new(-x, -x, 0.0),
                Vec3::new(x, -x, 0.0),
                Vec3::new(0.0, x, 0.0),
            ];
            let e = Tin::new("terrain", p, tri, vec![[0, 1, 2]]).unwrap_err();
            assert!(
                matches!(&e, RouteError::OutOfRange { element, .. } if element == "terrain vertex 0"),
                "{e}"
            );
            assert!(
                e.to_string()
                    .starts_with("big.ply: terrain vertex 0: coordinate -"),
                "{e}"
            );
        }
        let tri = vec![
            Vec3::new(-1e60, 0.0, 0.0),
            Vec3::new(1e60, 0.0, 0.0),
            Vec3::new(0.0, 1e60, 0.0),
        ];
        assert!(Tin::new("object", p, tri, vec![[0, 1, 2]]).is_ok());
    }

    #[test]
    fn meshes_with_bad_indices_or_no_faces_are_refused() {
        let p = Path::new("m.obj");
        let e = Tin::new("object", p, vec![Vec3::zeros(); 3], vec![[0, 1, 3]]).unwrap_err();
        assert!(
            e.to_string().contains("m.obj") && e.to_string().contains("vertex 3"),
            "{e}"
        );
        let e = Tin::new("object", p, vec![], vec![]).unwrap_err();
        assert!(e.to_string().contains("no faces"), "{e}");
        let e = Tin::new(
            "terrain",
            p,
            vec![Vec3::new(0.0, f64::NAN, 0.0); 3],
            vec![[0, 1, 2]],
        )
        .unwrap_err();
        assert!(e.to_string().contains("non-finite"), "{e}");
    }
}
