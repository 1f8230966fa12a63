//! The validated simple polygon every algorithm in [`crate::polygon`] takes.
//!
//! A [`Polygon`] has at least three vertices, finite coordinates, no
//! zero-length edge, nonzero area, and no two edges that meet other than
//! consecutive edges at their shared vertex (so no self-crossing, no
//! self-touching, no collinear back-tracking). All checks use the exact
//! predicates of [`super::predicates`], so "valid" is a statement about the
//! given doubles, not about a rounded computation.
//!
//! Vertices are stored counter-clockwise: a clockwise input is reversed (and
//! [`Polygon::input_was_clockwise`] remembers it). The edge normals of the
//! paper's step 4, `A = (−Y, X)`, are then the *inward* normals.
//!
//! Validation is `O(n²)` (all edge pairs); it runs once per shape, outside
//! any timed query.
//!
//! docs/design.md §3, "2D polygons in the crate".

use std::cmp::Ordering;

use crate::math::Real;

use super::predicates::{orient2d, segments_intersect};

/// A point or direction in the plane.
pub type Vec2 = nalgebra::Vector2<Real>;

/// Why a vertex list is not a valid simple polygon. Vertex and edge indices
/// refer to the input order; edge `i` runs from vertex `i` to vertex
/// `(i + 1) mod n`.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum PolygonError {
    /// Fewer than three vertices. Fix: give at least three.
    #[error("polygon has {count} vertices; at least 3 are needed")]
    TooFewVertices {
        /// Number of vertices given.
        count: usize,
    },
    /// A coordinate is NaN or infinite. Fix: the input data.
    #[error("vertex {index} has a non-finite coordinate ({x}, {y})")]
    NonFinite {
        /// Index of the offending vertex.
        index: usize,
        /// Its x coordinate.
        x: Real,
        /// Its y coordinate.
        y: Real,
    },
    /// Two consecutive vertices coincide, giving a zero-length edge (whose
    /// normal, the paper's step 4–5, is undefined). Fix: drop the repeat.
    #[error("vertices {first} and {second} coincide at ({x}, {y}): zero-length edge {first}")]
    RepeatedVertex {
        /// Index of the first of the two.
        first: usize,
        /// Index of the second of the two.
        second: usize,
        /// Shared x coordinate.
        x: Real,
        /// Shared y coordinate.
        y: Real,
    },
    /// All vertices lie on one line: the polygon has zero area.
    #[error("all {count} vertices are collinear: the polygon has zero area")]
    ZeroArea {
        /// Number of vertices given.
        count: usize,
    },
    /// Two edges cross, touch, or overlap: the polygon is not simple.
    /// Fix: untangle the outline (or split it into simple polygons).
    #[error(
        "edges {first} and {second} cross or touch: the polygon is not simple (self-intersecting)"
    )]
    SelfIntersecting {
        /// The lower edge index.
        first: usize,
        /// The higher edge index.
        second: usize,
    },
}

/// A validated simple polygon, counter-clockwise.
#[derive(Debug, Clone, PartialEq)]
pub struct Polygon {
    vertices: Vec<Vec2>,
    convex: bool,
    centre: Vec2,
    input_was_clockwise: bool,
}

impl Polygon {
    /// Validates `vertices` (in either orientation) as a simple polygon.
    /// The simplicity check compares every pair of edges: time quadratic in
    /// the vertex count (the command line caps polygons at 4096 vertices).
    pub fn new(vertices: Vec<Vec2>) -> Result<Polygon, PolygonError> {
        let n = vertices.len();
        if n < 3 {
            return Err(PolygonError::TooFewVertices { count: n });
        }
        for (index, p) in vertices.iter().enumerate() {
            if !(p.x.is_finite() && p.y.is_finite()) {
                return Err(PolygonError::NonFinite {
                    index,
                    x: p.x,
                    y: p.y,
                });
            }
        }
        for i in 0..n {
            let j = (i + 1) % n;
            if vertices[i] == vertices[j] {
                return Err(PolygonError::RepeatedVertex {
                    first: i.min(j),
                    second: i.max(j),
                    x: vertices[i].x,
                    y: vertices[i].y,
                });
            }
        }
        // Zero area: every vertex on the line through vertices 0 and 1
        // (distinct by the check above).
        if vertices[2..]
            .iter()
            .all(|&p| orient2d(vertices[0], vertices[1], p) == Ordering::Equal)
        {
            return Err(PolygonError::ZeroArea { count: n });
        }
        if let Some((first, second)) = first_self_intersection(&vertices) {
            return Err(PolygonError::SelfIntersecting { first, second });
        }
        // Orientation from the lowest-then-leftmost vertex, which is a
        // strictly convex corner of any simple polygon.
        let low = (0..n)
            .min_by(|&i, &j| {
                let (p, q) = (vertices[i], vertices[j]);
                p.y.total_cmp(&q.y).then(p.x.total_cmp(&q.x))
            })
            .unwrap_or(0);
        let turn = orient2d(
            vertices[(low + n - 1) % n],
            vertices[low],
            vertices[(low + 1) % n],
        );
        let mut vertices = vertices;
        let input_was_clockwise = turn == Ordering::Less;
        if input_was_clockwise {
            vertices.reverse();
        }
        let convex = (0..n).all(|i| {
            orient2d(
                vertices[(i + n - 1) % n],
                vertices[i],
                vertices[(i + 1) % n],
            ) != Ordering::Less
        });
        let centre = vertex_mean(&vertices);
        Ok(Polygon {
            vertices,
            convex,
            centre,
            input_was_clockwise,
        })
    }

    /// Validates a list of `[x, y]` pairs (f32 data widens exactly with `as f64`).
    pub fn from_xy(points: &[[Real; 2]]) -> Result<Polygon, PolygonError> {
        Polygon::new(points.iter().map(|p| Vec2::new(p[0], p[1])).collect())
    }

    /// The vertices, counter-clockwise.
    #[inline]
    pub fn vertices(&self) -> &[Vec2] {
        &self.vertices
    }

    /// Number of vertices (= number of edges).
    #[inline]
    pub fn len(&self) -> usize {
        self.vertices.len()
    }

    /// Always `false` (a polygon has at least three vertices); present for
    /// the `len`/`is_empty` convention.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.vertices.is_empty()
    }

    /// `true` when no interior angle exceeds 180° (decided exactly; vertices
    /// with a straight angle are allowed).
    #[inline]
    pub fn is_convex(&self) -> bool {
        self.convex
    }

    /// The arithmetic mean of the vertices: the "centre of the object" of the
    /// paper's step 14 (see [`super::sat_nonconvex`] for this reading).
    #[inline]
    pub fn centre(&self) -> Vec2 {
        self.centre
    }

    /// `true` when the input was clockwise and has been reversed.
    #[inline]
    pub fn input_was_clockwise(&self) -> bool {
        self.input_was_clockwise
    }

    /// The polygon translated by `t`, each coordinate rounded as `p + t` is in
    /// every algorithm's inner loop, and validated again (rounding can, in
    /// principle, break simplicity of a nearly degenerate outline).
    pub fn translated(&self, t: Vec2) -> Result<Polygon, PolygonError> {
        Polygon::new(self.vertices.iter().map(|p| p + t).collect())
    }

    /// Twice the signed area (shoelace sum in floating point; positive for a
    /// stored polygon). For reports, not for decisions.
    pub fn doubled_area(&self) -> Real {
        let n = self.vertices.len();
        (0..n)
            .map(|i| {
                let (p, q) = (self.vertices[i], self.vertices[(i + 1) % n]);
                p.x * q.y - p.y * q.x
            })
            .sum()
    }
}

/// Arithmetic mean of a non-empty point list.
pub(crate) fn vertex_mean(points: &[Vec2]) -> Vec2 {
    let sum = points.iter().fold(Vec2::zeros(), |s, p| s + p);
    sum / points.len() as Real
}

/// The first pair of edges (lowest indices) that meet other than at the
/// shared vertex of consecutive edges. Exact.
fn first_self_intersection(v: &[Vec2]) -> Option<(usize, usize)> {
    let n = v.len();
    for i in 0..n {
        let (p0, p1) = (v[i], v[(i + 1) % n]);
        for j in (i + 1)..n {
            let (q0, q1) = (v[j], v[(j + 1) % n]);
            let consecutive = j == i + 1 || (i == 0 && j == n - 1);
            if consecutive {
                // They share one vertex; they must not fold back onto each
                // other (collinear, pointing the same way from the shared
                // vertex). For n = 3 the triangle has positive area, so no
                // pair of its edges can fold.
                let (shared, a, b) = if j == i + 1 {
                    (p1, p0, q1)
                } else {
                    (p0, p1, q0)
                };
                if orient2d(a, shared, b) == Ordering::Equal
                    && same_direction(a - shared, b - shared)
                {
                    return Some((i, j));
                }
            } else if segments_intersect(p0, p1, q0, q1) {
                return Some((i, j));
            }
        }
    }
    None
}

/// For two nonzero collinear vectors given as exact differences' signs:
/// `true` when they point the same way. The component signs of `a − b` equal
/// the comparison of `a` and `b`, so this is exact even though the
/// differences themselves are rounded.
fn same_direction(u: Vec2, w: Vec2) -> bool {
    let sx = u.x.signum() * w.x.signum();
    let sy = u.y.signum() * w.y.signum();
    // Collinear nonzero vectors: same direction iff no component has opposite
    // signs and they share a nonzero component direction.
    let opposite = (u.x != 0.0 && w.x != 0.0 && sx < 0.0) || (u.y != 0.0 && w.y != 0.0 && sy < 0.0);
    !opposite
}

#[cfg(test)]
mod tests {
    use super::*;

    fn poly(p: &[[f64; 2]]) -> Result<Polygon, PolygonError> {
        Polygon::from_xy(p)
    }

    #[test]
    fn square_is_convex_and_counter_clockwise() {
        let cw = poly(&[[0.0, 0.0], [0.0, 1.0], [1.0, 1.0], [1.0, 0.0]]).unwrap();
        assert!(cw.input_was_clockwise());
        assert!(cw.is_convex());
        assert!(cw.doubled_area() > 0.0);
        assert_eq!(cw.centre(), Vec2::new(0.5, 0.5));
    }

    #[test]
    fn notch_is_not_convex() {
        let u = poly(&[
            [0.0, 0.0],
            [3.0, 0.0],
            [3.0, 3.0],
            [2.0, 3.0],
            [2.0, 1.0],
            [1.0, 1.0],
            [1.0, 3.0],
            [0.0, 3.0],
        ])
        .unwrap();
        assert!(!u.is_convex());
        assert!(!u.input_was_clockwise());
    }

    #[test]
    fn straight_angle_vertex_is_allowed() {
        let p = poly(&[[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]]).unwrap();
        assert!(p.is_convex());
    }

    #[test]
    fn bad_inputs_give_typed_errors() {
        assert_eq!(
            poly(&[[0.0, 0.0], [1.0, 0.0]]),
            Err(PolygonError::TooFewVertices { count: 2 })
        );
        assert!(matches!(
            poly(&[[0.0, 0.0], [1.0, f64::NAN], [0.0, 1.0]]),
            Err(PolygonError::NonFinite { index: 1, .. })
        ));
        assert!(matches!(
            poly(&[[0.0, 0.0], [f64::INFINITY, 0.0], [0.0, 1.0]]),
            Err(PolygonError::NonFinite { index: 1, .. })
        ));
        assert!(matches!(
            poly(&[[0.0, 0.0], [1.0, 0.0], [1.0, 0.0], [0.0, 1.0]]),
            Err(PolygonError::RepeatedVertex {
                first: 1,
                second: 2,
                ..
            })
        ));
        assert_eq!(
            poly(&[[0.0, 0.0], [1.0, 1.0], [3.0, 3.0]]),
            Err(PolygonError::ZeroArea { count: 3 })
        );
        assert_eq!(
            poly(&[[0.0, 0.0], [2.0, 0.0], [1.0, 0.0], [3.0, 0.0]]),
            Err(PolygonError::ZeroArea { count: 4 })
        );
        // Bow-tie.
        assert_eq!(
            poly(&[[0.0, 0.0], [1.0, 1.0], [1.0, 0.0], [0.0, 1.0]]),
            Err(PolygonError::SelfIntersecting {
                first: 0,
                second: 2
            })
        );
        // A vertex touching a non-adjacent edge.
        assert!(matches!(
            poly(&[[0.0, 0.0], [4.0, 0.0], [4.0, 4.0], [2.0, 0.0], [0.0, 4.0]]),
            Err(PolygonError::SelfIntersecting { .. })
        ));
        // Consecutive edges folding back onto each other (spike).
        assert!(matches!(
            poly(&[[0.0, 0.0], [4.0, 0.0], [4.0, 4.0], [4.0, 2.0], [0.0, 4.0]]),
            Err(PolygonError::SelfIntersecting { .. })
        ));
        // The messages name the elements.
        let msg = poly(&[[0.0, 0.0], [1.0, 1.0], [1.0, 0.0], [0.0, 1.0]])
            .unwrap_err()
            .to_string();
        assert!(msg.contains("edges 0 and 2"), "{msg}");
    }
}
