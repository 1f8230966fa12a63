//! Broad phase (Strashnov & Torgashev 2020, §III, formulas (2)–(4), Figs. 4–5
//! and the Algorithm «Широкая фаза определения коллизий»; docs/design.md §3).
//!
//! 1. The cylinder's AABB: `x_max = C_x + (h/2)|v_x| + r√(1 − v_x²)`,
//!    `x_min` symmetric, likewise for y and z (formulas (2), (3)); with the
//!    paper's guards: if `|v_z² − 1| ≤ ε` the axis is vertical and the box is
//!    `C ± (r, r, h/2)`; `√(1 − v_k²)` is taken as 0 when `v_k² > 1` (rounding).
//! 2. The element index range, formula (4): `i_left = ⌊(y_min − y₀)/d_y⌋`,
//!    `i_right = ⌈(y_max − y₀)/d_y⌉`, `j_left = ⌊(x_min − x₀)/d_x⌋`,
//!    `j_right = ⌈(x_max − x₀)/d_x⌉`, clamped to the grid.
//! 3. `H_min`, `H_max` over the range; 4. early out if `H_max < z_min`;
//!    5. flat patch if `|H_max − H_min| ≤ ε_H` (cylinder–plane test).
//!
//! Deviations:
//! - Formula (4) divides the x range by `d_y` (a typo: `j` counts x steps);
//!   we divide by `d_x`.
//! - The vertical shortcut drops the `(h/2)|v_x|` term, which can be as large
//!   as `(h/2)√ε`; and every bound is rounded. The box is therefore widened by
//!   `(h/2)√ε + slack` on every side (conservative: a larger range costs a few
//!   elements, a smaller one could miss a contact).

use super::super::heightfield::HeightGrid;
use super::super::shapes::Cylinder;
use crate::math::{Real, Vec3};

/// An axis-aligned box.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Aabb {
    /// Lower corner.
    pub min: Vec3,
    /// Upper corner.
    pub max: Vec3,
}

/// Closed vertex-index range `i0..=i1` (rows, y) × `j0..=j1` (columns, x);
/// the cells are `i0..i1` × `j0..j1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CellRange {
    /// First vertex row.
    pub i0: usize,
    /// Last vertex row.
    pub i1: usize,
    /// First vertex column.
    pub j0: usize,
    /// Last vertex column.
    pub j1: usize,
}

impl CellRange {
    /// Number of cells.
    pub fn cells(&self) -> usize {
        (self.i1 - self.i0) * (self.j1 - self.j0)
    }

    /// Number of vertices.
    pub fn vertices(&self) -> usize {
        (self.i1 - self.i0 + 1) * (self.j1 - self.j0 + 1)
    }
}

/// Step 1: the cylinder's AABB by the paper's Algorithm, widened by
/// `(h/2)√eps_vertical + slack` (see the module doc).
pub fn cylinder_aabb(cyl: &Cylinder, eps_vertical: Real, slack: Real) -> Aabb {
    let c = cyl.centre();
    let v = cyl.axis();
    let (r, half) = (cyl.radius(), 0.5 * cyl.height());
    let (lo, hi) = if (v.z * v.z - 1.0).abs() <= eps_vertical {
        let e = Vec3::new(r, r, half);
        (c - e, c + e)
    } else {
        let delta = |vk: Real| {
            if vk * vk <= 1.0 {
                (1.0 - vk * vk).sqrt()
            } else {
                0.0
            }
        };
        let e = Vec3::new(
            half * v.x.abs() + r * delta(v.x),
            half * v.y.abs() + r * delta(v.y),
            half * v.z.abs() + r * delta(v.z),
        );
        (c - e, c + e)
    };
    // A negative or NaN `ε` never counts as vertical (above) and widens by
    // nothing: `max` maps both to 0 (a NaN widening would make the box
    // miss every cell).
    let widen = half * eps_vertical.max(0.0).sqrt() + slack;
    let w = Vec3::repeat(widen);
    Aabb {
        min: lo - w,
        max: hi + w,
    }
}

/// Step 2, formula (4): the vertex range covering the box's footprint, or
/// `None` when the footprint misses the grid.
pub fn cell_range(grid: &HeightGrid, aabb: &Aabb) -> Option<CellRange> {
    let [x0, y0] = grid.origin();
    let [dx, dy] = grid.step();
    let [xm, ym] = grid.extent_max();
    if aabb.max.x < x0 || aabb.min.x > xm || aabb.max.y < y0 || aabb.min.y > ym {
        return None;
    }
    let idx = |t: Real, last: usize| -> usize { if t <= 0.0 { 0 } else { (t as usize).min(last) } };
    let (last_i, last_j) = (grid.rows() - 1, grid.cols() - 1);
    let mut i0 = idx(((aabb.min.y - y0) / dy).floor(), last_i);
    let mut i1 = idx(((aabb.max.y - y0) / dy).ceil(), last_i);
    let mut j0 = idx(((aabb.min.x - x0) / dx).floor(), last_j);
    let mut j1 = idx(((aabb.max.x - x0) / dx).ceil(), last_j);
    // A footprint on a grid line still needs the cell(s) beside it.
    if i0 == i1 {
        if i1 < last_i { i1 += 1 } else { i0 -= 1 }
    }
    if j0 == j1 {
        if j1 < last_j { j1 += 1 } else { j0 -= 1 }
    }
    Some(CellRange { i0, i1, j0, j1 })
}

/// Step 3: `(H_min, H_max)` over the range's vertices.
pub fn height_range(grid: &HeightGrid, range: &CellRange) -> (Real, Real) {
    let mut lo = Real::INFINITY;
    let mut hi = Real::NEG_INFINITY;
    for i in range.i0..=range.i1 {
        let row = &grid.heights()[i * grid.cols() + range.j0..=i * grid.cols() + range.j1];
        for &h in row {
            lo = lo.min(h);
            hi = hi.max(h);
        }
    }
    (lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aabb_by_formulas_2_and_3() {
        // v = (0.6, 0, 0.8), h = 2, r = 1 at the origin:
        // x: (h/2)|v_x| + r√(1 − v_x²) = 0.6 + 0.8; y: 0 + 1; z: 0.8 + 0.6.
        let cyl = Cylinder::new(Vec3::zeros(), Vec3::new(0.6, 0.0, 0.8), 1.0, 2.0).unwrap();
        let b = cylinder_aabb(&cyl, 0.0, 0.0);
        assert!((b.max - Vec3::new(1.4, 1.0, 1.4)).norm() < 1e-15);
        assert!((b.min + Vec3::new(1.4, 1.0, 1.4)).norm() < 1e-15);
        // A negative or NaN ε is ε = 0, not a NaN box that misses every cell.
        for eps in [-1.0, Real::NAN] {
            assert_eq!(cylinder_aabb(&cyl, eps, 0.0), b, "{eps}");
        }
        // Vertical guard.
        let cyl = Cylinder::new(Vec3::zeros(), Vec3::z(), 1.0, 2.0).unwrap();
        let b = cylinder_aabb(&cyl, 1e-12, 0.0);
        assert!((b.max - Vec3::new(1.0, 1.0, 1.0)).amax() <= 1e-6);
    }

    #[test]
    fn range_by_formula_4_with_dx() {
        // dx = 1, dy = 2 — the paper's d_y in j_left would give the wrong range.
        let g = HeightGrid::new([0.0, 0.0], [1.0, 2.0], 6, 11, vec![0.0; 66]).unwrap();
        let b = Aabb {
            min: Vec3::new(2.5, 3.0, 0.0),
            max: Vec3::new(4.5, 5.0, 1.0),
        };
        let r = cell_range(&g, &b).unwrap();
        assert_eq!(
            r,
            CellRange {
                i0: 1,
                i1: 3,
                j0: 2,
                j1: 5
            }
        );
        assert_eq!(r.cells(), 6);
        let far = Aabb {
            min: Vec3::new(20.0, 3.0, 0.0),
            max: Vec3::new(21.0, 5.0, 1.0),
        };
        assert!(cell_range(&g, &far).is_none());
    }

    #[test]
    fn footprints_on_the_grid_edges_keep_the_cells_beside_them() {
        // The grid spans x ∈ [0, 10] (11 columns) and y ∈ [0, 10] (6 rows).
        // A footprint that ends exactly on its west edge touches it, and one
        // that starts on the last row's line gets that row and the one
        // before it (there is no row after it), as on the east edge.
        let heights = (0..66).map(f64::from).collect();
        let g = HeightGrid::new([0.0, 0.0], [1.0, 2.0], 6, 11, heights).unwrap();
        let b = |x: [f64; 2], y: [f64; 2]| Aabb {
            min: Vec3::new(x[0], y[0], 0.0),
            max: Vec3::new(x[1], y[1], 1.0),
        };
        let range = |i0, i1, j0, j1| CellRange { i0, i1, j0, j1 };
        let west = cell_range(&g, &b([-1.0, 0.0], [3.0, 5.0]));
        assert_eq!(west, Some(range(1, 3, 0, 1)));
        let north = cell_range(&g, &b([2.5, 4.5], [10.0, 11.0])).unwrap();
        assert_eq!(north, range(4, 5, 2, 5));
        assert_eq!(height_range(&g, &north), (46.0, 60.0));
        let east = cell_range(&g, &b([10.0, 12.0], [3.0, 5.0]));
        assert_eq!(east, Some(range(1, 3, 9, 10)));
        let south_west = cell_range(&g, &b([-1.0, 0.0], [-1.0, 0.0]));
        assert_eq!(south_west, Some(range(0, 1, 0, 1)));
    }
}
