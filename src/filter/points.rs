//! A pair's eight points as plain arrays, and the few vector operations the
//! fast paths use on them. (The fast paths work on `[f64; 3]` rather than
//! [`Vec3`]: the same arithmetic, in the same order, without the generic
//! layers that keep a compiler from keeping the values in registers.)
//!
//! The eight points are a query's four points (docs/design.md §1, §2.2; here
//! in the data sets' row order, not §2.2's `a, b, c, d`) at `t = 0` and at
//! `t = 1`.

use crate::math::Vec3;

/// A point or difference.
pub(crate) type P3 = [f64; 3];

/// A pair's eight points in data set row order: `v, f0, f1, f2` (vertex–face)
/// or `ea0, ea1, eb0, eb1` (edge–edge) at `t = 0`, then the same at `t = 1`.
pub type Points = [[f64; 3]; 8];

/// The points of `[&Vec3; 8]` as [`Points`].
#[inline(always)]
pub fn points(q: [&Vec3; 8]) -> Points {
    q.map(|p| [p.x, p.y, p.z])
}

#[inline(always)]
pub(crate) fn sub(a: &P3, b: &P3) -> P3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

#[inline(always)]
pub(crate) fn cross(a: &P3, b: &P3) -> P3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

#[inline(always)]
pub(crate) fn dot(a: &P3, b: &P3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// `a + t·(b − a)`.
#[inline(always)]
pub(crate) fn lerp(a: &P3, b: &P3, t: f64) -> P3 {
    [
        a[0] + (b[0] - a[0]) * t,
        a[1] + (b[1] - a[1]) * t,
        a[2] + (b[2] - a[2]) * t,
    ]
}
