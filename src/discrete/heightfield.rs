//! The regular height grid of Strashnov & Torgashev, "Collision detection
//! algorithms of bounding cylinders with terrain model", International
//! Journal of Open Information Technologies, 2020, §II, formula (1) and
//! Fig. 2; docs/design.md §3.
//!
//! Vertices `V_ij = (x₀ + j·d_x, y₀ + i·d_y, H_ij)`, `j = 0..M`, `i = 0..N`
//! (formula (1)): `i` runs along y (rows), `j` along x (columns). The solid
//! terrain is the region **below** the grid. A cell with corners
//! `V₀ = (x, y)`, `V₁ = (x + d_x, y)`, `V₂ = (x, y + d_y)`,
//! `V₃ = (x + d_x, y + d_y)` is one element, the rectangle `V₀V₁V₂V₃`, when its
//! corners are coplanar and `∠V₀ = 90°`, i.e. `(H₁ − H₀)(H₂ − H₀) = 0`; the
//! paper shows that this means `H₁ = H₀ ∧ H₃ = H₂` or `H₂ = H₀ ∧ H₃ = H₁`.
//! Otherwise the cell is the two triangles `V₀V₁V₂` and `V₃V₂V₁` (diagonal
//! `V₁V₂`). The classification compares stored heights for equality only, so
//! it is exact.
//!
//! Element planes follow formula (5): `s(P) = k_P − P·n_P`, with
//! `n_P = V₀V₁ × V₀V₂ / |…|` (upward, since `d_x, d_y > 0`) and
//! `k_P = V₀·n_P`; for `V₃V₂V₁` the same with `V₃V₂ × V₃V₁`. `s(P) ≥ 0` means
//! `P` is on or below the element plane (inside the terrain).

use super::error::DiscreteError;
use crate::math::{Real, Vec3};

/// A regular height grid.
#[derive(Debug, Clone, PartialEq)]
pub struct HeightGrid {
    x0: Real,
    y0: Real,
    dx: Real,
    dy: Real,
    rows: usize,
    cols: usize,
    heights: Vec<Real>,
    max_abs_height: Real,
}

/// How a cell is split into elements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CellKind {
    /// One rectangle `V₀V₁V₃V₂` (coplanar corners, right angle at `V₀`).
    Rectangle,
    /// Two triangles `V₀V₁V₂` and `V₃V₂V₁`.
    Triangles,
}

/// Which element of a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ElementKind {
    /// The whole cell, `V₀V₁V₃V₂`.
    Rectangle,
    /// Triangle `V₀V₁V₂`.
    Lower,
    /// Triangle `V₃V₂V₁`.
    Upper,
}

/// One planar element (rectangle or triangle) with its plane, formula (5).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Element {
    /// Cell row `i` (along y) and column `j` (along x) of its `V₀`.
    pub cell: (usize, usize),
    /// Which element of the cell.
    pub kind: ElementKind,
    /// Corners, counter-clockwise seen from above (`+z`); `len` of them used.
    pub vertices: [Vec3; 4],
    /// Global vertex ids `i·cols + j` of the corners (same order).
    pub vertex_ids: [usize; 4],
    /// 3 (triangle) or 4 (rectangle).
    pub len: usize,
    /// Upward unit normal `n_P`.
    pub normal: Vec3,
    /// Plane constant `k_P = V·n_P`.
    pub k: Real,
}

impl Element {
    /// `s(P) = k_P − P·n_P`, formula (5): ≥ 0 on or below the plane.
    #[inline]
    pub fn s(&self, p: &Vec3) -> Real {
        self.k - p.dot(&self.normal)
    }

    /// The used corners.
    #[inline]
    pub fn corners(&self) -> &[Vec3] {
        &self.vertices[..self.len]
    }

    /// An element from 3 or 4 counter-clockwise corners; the plane is taken at
    /// the first corner with normal `(c₁ − c₀) × (c_last − c₀)`. Used for the
    /// flat patch of the broad phase and by tests.
    pub(crate) fn from_corners(
        cell: (usize, usize),
        kind: ElementKind,
        corners: &[Vec3],
        ids: &[usize],
    ) -> Element {
        let len = corners.len();
        let mut vertices = [Vec3::zeros(); 4];
        let mut vertex_ids = [usize::MAX; 4];
        vertices[..len].copy_from_slice(corners);
        vertex_ids[..len].copy_from_slice(ids);
        let normal = (corners[1] - corners[0])
            .cross(&(corners[len - 1] - corners[0]))
            .normalize();
        Element {
            cell,
            kind,
            vertices,
            vertex_ids,
            len,
            normal,
            k: corners[0].dot(&normal),
        }
    }
}

impl HeightGrid {
    /// A grid with origin `(x₀, y₀)`, steps `d_x`, `d_y`, `rows` samples along y
    /// and `cols` along x; `heights[i·cols + j] = H_ij`.
    ///
    /// # Errors
    /// Fewer than 2×2 samples, a length mismatch, a non-finite origin, a step
    /// that is not finite and positive, or a NaN/infinite height (named by
    /// its `(i, j)`).
    pub fn new(
        origin: [Real; 2],
        step: [Real; 2],
        rows: usize,
        cols: usize,
        heights: Vec<Real>,
    ) -> Result<HeightGrid, DiscreteError> {
        if rows < 2 || cols < 2 {
            return Err(DiscreteError::GridTooSmall { rows, cols });
        }
        if rows.checked_mul(cols) != Some(heights.len()) {
            return Err(DiscreteError::GridSizeMismatch {
                rows,
                cols,
                len: heights.len(),
            });
        }
        if !(origin[0].is_finite() && origin[1].is_finite()) {
            return Err(DiscreteError::NonFinite {
                shape: "height grid",
                what: "origin",
                value: [origin[0], origin[1], 0.0],
            });
        }
        for (what, value) in [("step dx", step[0]), ("step dy", step[1])] {
            if !(value.is_finite() && value > 0.0) {
                return Err(DiscreteError::NonPositive {
                    shape: "height grid",
                    what,
                    value,
                });
            }
        }
        if let Some(k) = heights.iter().position(|h| !h.is_finite()) {
            return Err(DiscreteError::NonFiniteHeight {
                i: k / cols,
                j: k % cols,
                value: heights[k],
            });
        }
        let max_abs_height = heights.iter().fold(0.0, |m: Real, h| m.max(h.abs()));
        let (dx, dy) = (step[0], step[1]);
        if dx * dy < Real::MIN_POSITIVE || !(4.0 * max_abs_height * dx.max(dy)).is_finite() {
            return Err(DiscreteError::GridOutOfRange {
                dx,
                dy,
                max_abs_height,
            });
        }
        Ok(HeightGrid {
            max_abs_height,
            x0: origin[0],
            y0: origin[1],
            dx: step[0],
            dy: step[1],
            rows,
            cols,
            heights,
        })
    }

    /// A grid sampled from `f(x, y)` (convenience for scenes and tests).
    ///
    /// # Errors
    /// As [`HeightGrid::new`] (e.g. `f` returning NaN), and
    /// [`DiscreteError::GridTooLarge`] when `rows × cols` heights cannot be
    /// allocated.
    pub fn from_fn(
        origin: [Real; 2],
        step: [Real; 2],
        rows: usize,
        cols: usize,
        f: impl Fn(Real, Real) -> Real,
    ) -> Result<HeightGrid, DiscreteError> {
        let mut heights = Vec::new();
        rows.checked_mul(cols)
            .and_then(|n| heights.try_reserve_exact(n).ok())
            .ok_or(DiscreteError::GridTooLarge { rows, cols })?;
        for i in 0..rows {
            for j in 0..cols {
                heights.push(f(
                    origin[0] + j as Real * step[0],
                    origin[1] + i as Real * step[1],
                ));
            }
        }
        HeightGrid::new(origin, step, rows, cols, heights)
    }

    /// Origin `(x₀, y₀)`.
    pub fn origin(&self) -> [Real; 2] {
        [self.x0, self.y0]
    }

    /// Steps `(d_x, d_y)`.
    pub fn step(&self) -> [Real; 2] {
        [self.dx, self.dy]
    }

    /// Samples along y (`N + 1`).
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Samples along x (`M + 1`).
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// All heights, row-major (`i·cols + j`).
    pub fn heights(&self) -> &[Real] {
        &self.heights
    }

    /// `max |H_ij|` (for rounding bounds).
    pub fn max_abs_height(&self) -> Real {
        self.max_abs_height
    }

    /// `H_ij`.
    #[inline]
    pub fn height(&self, i: usize, j: usize) -> Real {
        self.heights[i * self.cols + j]
    }

    /// `x₀ + j·d_x`.
    #[inline]
    pub fn x(&self, j: usize) -> Real {
        self.x0 + j as Real * self.dx
    }

    /// `y₀ + i·d_y`.
    #[inline]
    pub fn y(&self, i: usize) -> Real {
        self.y0 + i as Real * self.dy
    }

    /// `V_ij`, formula (1).
    #[inline]
    pub fn vertex(&self, i: usize, j: usize) -> Vec3 {
        Vec3::new(self.x(j), self.y(i), self.height(i, j))
    }

    /// The far corner `(x₀ + M·d_x, y₀ + N·d_y)`.
    pub fn extent_max(&self) -> [Real; 2] {
        [self.x(self.cols - 1), self.y(self.rows - 1)]
    }

    /// Rectangle or two triangles (§II; exact, see the module doc).
    #[inline]
    pub fn cell_kind(&self, i: usize, j: usize) -> CellKind {
        let h0 = self.height(i, j);
        let h1 = self.height(i, j + 1);
        let h2 = self.height(i + 1, j);
        let h3 = self.height(i + 1, j + 1);
        if (h1 == h0 && h3 == h2) || (h2 == h0 && h3 == h1) {
            CellKind::Rectangle
        } else {
            CellKind::Triangles
        }
    }

    /// The elements of cell `(i, j)` (`i < rows − 1`, `j < cols − 1`): one
    /// rectangle or two triangles, with their planes (formula (5)).
    pub fn cell_elements(&self, i: usize, j: usize) -> ([Element; 2], usize) {
        let id = |a: usize, b: usize| a * self.cols + b;
        let v0 = self.vertex(i, j);
        let v1 = self.vertex(i, j + 1);
        let v2 = self.vertex(i + 1, j);
        let v3 = self.vertex(i + 1, j + 1);
        let (i0, i1, i2, i3) = (id(i, j), id(i, j + 1), id(i + 1, j), id(i + 1, j + 1));
        // n_P = V₀V₁ × V₀V₂ / |…|, k_P = V₀·n_P.
        let n_low = (v1 - v0).cross(&(v2 - v0)).normalize();
        let low = |kind, vertices, vertex_ids, len| Element {
            cell: (i, j),
            kind,
            vertices,
            vertex_ids,
            len,
            normal: n_low,
            k: v0.dot(&n_low),
        };
        match self.cell_kind(i, j) {
            CellKind::Rectangle => (
                [
                    low(
                        ElementKind::Rectangle,
                        [v0, v1, v3, v2],
                        [i0, i1, i3, i2],
                        4,
                    ),
                    low(
                        ElementKind::Rectangle,
                        [v0, v1, v3, v2],
                        [i0, i1, i3, i2],
                        4,
                    ),
                ],
                1,
            ),
            CellKind::Triangles => {
                let n_up = (v2 - v3).cross(&(v1 - v3)).normalize();
                (
                    [
                        low(
                            ElementKind::Lower,
                            [v0, v1, v2, v2],
                            [i0, i1, i2, usize::MAX],
                            3,
                        ),
                        Element {
                            cell: (i, j),
                            kind: ElementKind::Upper,
                            vertices: [v3, v2, v1, v1],
                            vertex_ids: [i3, i2, i1, usize::MAX],
                            len: 3,
                            normal: n_up,
                            k: v3.dot(&n_up),
                        },
                    ],
                    2,
                )
            }
        }
    }

    /// The terrain height at `(x, y)` (the element surface over that point),
    /// or `None` outside the grid.
    pub fn surface_height(&self, x: Real, y: Real) -> Option<Real> {
        let [xm, ym] = self.extent_max();
        if !(x >= self.x0 && x <= xm && y >= self.y0 && y <= ym) {
            return None;
        }
        let fx = (x - self.x0) / self.dx;
        let fy = (y - self.y0) / self.dy;
        let j = (fx.floor() as usize).min(self.cols - 2);
        let i = (fy.floor() as usize).min(self.rows - 2);
        let (sx, sy) = (fx - j as Real, fy - i as Real);
        let h0 = self.height(i, j);
        let h1 = self.height(i, j + 1);
        let h2 = self.height(i + 1, j);
        let h3 = self.height(i + 1, j + 1);
        // Rectangles are planar, so the lower-triangle formula holds on the
        // whole cell when h3 = h1 + h2 − h0; triangles split at sx + sy = 1.
        Some(if sx + sy <= 1.0 {
            h0 + sx * (h1 - h0) + sy * (h2 - h0)
        } else {
            h3 + (1.0 - sx) * (h2 - h3) + (1.0 - sy) * (h1 - h3)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_grids_are_refused() {
        assert_eq!(
            HeightGrid::new([0.0, 0.0], [1.0, 1.0], 1, 3, vec![0.0; 3]),
            Err(DiscreteError::GridTooSmall { rows: 1, cols: 3 })
        );
        assert!(matches!(
            HeightGrid::new([0.0, 0.0], [1.0, 1.0], 2, 2, vec![0.0; 3]),
            Err(DiscreteError::GridSizeMismatch { .. })
        ));
        // A size whose product wraps to the heights' length.
        assert!(matches!(
            HeightGrid::new([0.0, 0.0], [1.0, 1.0], 2, (1 << 63) + 2, vec![0.0; 4]),
            Err(DiscreteError::GridSizeMismatch { .. })
        ));
        for (rows, cols) in [(2, (1 << 63) + 2), (1 << 31, 1 << 31)] {
            assert_eq!(
                HeightGrid::from_fn([0.0, 0.0], [1.0, 1.0], rows, cols, |_, _| 0.0),
                Err(DiscreteError::GridTooLarge { rows, cols })
            );
        }
        assert!(matches!(
            HeightGrid::new([0.0, 0.0], [1.0, 1.0], 2, 2, vec![0.0, 0.0, Real::NAN, 0.0]),
            Err(DiscreteError::NonFiniteHeight { i: 1, j: 0, .. })
        ));
        assert!(matches!(
            HeightGrid::new([0.0, 0.0], [0.0, 1.0], 2, 2, vec![0.0; 4]),
            Err(DiscreteError::NonPositive {
                what: "step dx",
                ..
            })
        ));
        assert!(matches!(
            HeightGrid::new([Real::NAN, 0.0], [1.0, 1.0], 2, 2, vec![0.0; 4]),
            Err(DiscreteError::NonFinite { .. })
        ));
        assert!(matches!(
            HeightGrid::new([0.0, 0.0], [1e-200, 1e-200], 2, 2, vec![0.0; 4]),
            Err(DiscreteError::GridOutOfRange { .. })
        ));
        assert!(matches!(
            HeightGrid::new([0.0, 0.0], [1e10, 1.0], 2, 2, vec![1e300, 0.0, 0.0, 0.0]),
            Err(DiscreteError::GridOutOfRange { .. })
        ));
    }

    #[test]
    fn fig_2_rectangles_and_triangles() {
        // Row-major H_ij: i along y. Cell (0,0): flat → rectangle. Cell (0,1):
        // tilted about x only (H₁ = H₀, H₃ = H₂) → rectangle. Cell (1,0):
        // a ridge → triangles.
        let h = vec![
            0.0, 0.0, 0.0, //
            0.0, 0.0, 0.0, //
            0.0, 1.0, 0.5,
        ];
        let g = HeightGrid::new([0.0, 0.0], [1.0, 2.0], 3, 3, h).unwrap();
        assert_eq!(g.cell_kind(0, 0), CellKind::Rectangle);
        assert_eq!(g.cell_kind(1, 0), CellKind::Triangles);
        let (els, n) = g.cell_elements(1, 0);
        assert_eq!(n, 2);
        assert_eq!(els[0].kind, ElementKind::Lower);
        assert_eq!(els[1].kind, ElementKind::Upper);
        // V₀V₁V₂ of cell (1,0) is flat (z = 0); V₃V₂V₁ = (1,4,1),(0,4,0),(1,2,0).
        assert_eq!(els[0].normal, Vec3::z());
        for e in &els[..n] {
            assert!(e.normal.z > 0.0);
            for v in e.corners() {
                assert!(e.s(v).abs() < 1e-15);
            }
        }
        // Counter-clockwise from above.
        let c = els[1].corners();
        assert!((c[1] - c[0]).xy().perp(&(c[2] - c[0]).xy()) > 0.0);
        // A tilted rectangle: H = (0, 0, 1, 1) along y.
        let g = HeightGrid::new([0.0, 0.0], [1.0, 1.0], 2, 2, vec![0.0, 0.0, 1.0, 1.0]).unwrap();
        assert_eq!(g.cell_kind(0, 0), CellKind::Rectangle);
        let (els, n) = g.cell_elements(0, 0);
        assert_eq!(n, 1);
        assert!((els[0].normal - Vec3::new(0.0, -1.0, 1.0) / 2f64.sqrt()).norm() < 1e-15);
        // Coplanar but not right-angled: H = (0, 1, 1, 2) → two triangles.
        let g = HeightGrid::new([0.0, 0.0], [1.0, 1.0], 2, 2, vec![0.0, 1.0, 1.0, 2.0]).unwrap();
        assert_eq!(g.cell_kind(0, 0), CellKind::Triangles);
    }

    #[test]
    fn surface_height_interpolates_the_elements() {
        let g = HeightGrid::new([1.0, 2.0], [1.0, 1.0], 2, 2, vec![0.0, 1.0, 2.0, 0.0]).unwrap();
        assert_eq!(g.surface_height(1.0, 2.0), Some(0.0));
        assert_eq!(g.surface_height(2.0, 3.0), Some(0.0));
        assert_eq!(g.surface_height(1.5, 2.0), Some(0.5));
        assert_eq!(g.surface_height(0.9, 2.0), None);
    }
}
