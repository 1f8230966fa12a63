//! The oracle's input: a query's four linear trajectories on one common
//! integer scale (docs/design.md §9, the exact oracle), so that every
//! condition on them is an integer polynomial in `t`.

use crate::exact::{IntPoly, VecPoly, to_common_scale};
use crate::math::Vec3;

/// The four linear trajectories of a query given as its eight points in data
/// set row order (four points at `t = 0`, then the same four at `t = 1`).
pub(super) fn trajectories(points: [&Vec3; 8]) -> [VecPoly; 4] {
    let mut xs = [0.0; 24];
    for (i, p) in points.iter().enumerate() {
        xs[3 * i..3 * i + 3].copy_from_slice(&[p.x, p.y, p.z]);
    }
    let ints = to_common_scale(&xs);
    std::array::from_fn(|k| {
        std::array::from_fn(|axis| {
            let x0 = &ints[3 * k + axis];
            let x1 = &ints[3 * (k + 4) + axis];
            IntPoly::linear(x0.clone(), x1 - x0)
        })
    })
}
