//! Convex decomposition of a simple polygon: ear-clipping triangulation, then
//! Hertel–Mehlhorn merging.
//!
//! - Triangulation: ear clipping (Meisters, "Polygons have ears", *Amer.
//!   Math. Monthly* 82(6), 1975). A vertex is an ear tip when its corner is
//!   strictly convex and no other remaining vertex lies in the closed triangle
//!   it spans with its neighbours; every simple polygon with ≥ 4 vertices has
//!   such an ear (a "proper" ear, whose diagonal is interior, always passes
//!   this test), also with straight-angle vertices.
//! - Merging: Hertel & Mehlhorn, "Fast triangulation of simple polygons",
//!   FCT 1983, LNCS 158: drop each diagonal whose removal keeps both its
//!   endpoints' angles ≤ 180°. The result has at most 4× the minimum number of
//!   convex pieces.
//!
//! Why not parry's own: parry2d 0.31 has both steps (`TriMesh::from_polygon`,
//! ear clipping, and the public `transformation::hertel_mehlhorn`), but its
//! corner tests are plain floating-point cross products (and
//! `corner_direction` panics on NaN), so a near-collinear outline can be
//! mis-triangulated. Here every orientation is the exact
//! [`super::predicates::orient2d`], so for a validated [`Polygon`] the pieces
//! are exactly a partition of it into (weakly) convex counter-clockwise
//! polygons — which the oracle tests check. Pieces may keep straight-angle
//! vertices (that is what the exact `≤ 180°` rule allows).
//!
//! Cost: `O(n²)` ear clipping (neighbour re-test after each clip),
//! `O(n·d)` merging; run once per shape, outside timed queries.
//!
//! The pieces are those of the paper's method (the second polygon split into
//! convex pieces) and of both baselines (Fayzrakhmanov et al. ≈2015, the text
//! before step 1 and Fig. 1; docs/design.md §3, "2D polygons in the crate").

use std::cmp::Ordering;
use std::collections::HashMap;
use std::ops::Range;

use super::polygon::{Polygon, Vec2, vertex_mean};
use super::predicates::orient2d;

/// Internal failure of the decomposition. Unreachable for a validated
/// [`Polygon`] (the two-ears theorem and exact predicates guarantee an ear);
/// reported instead of panicking.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DecomposeError {
    /// Ear clipping found no ear among the remaining vertices.
    #[error("ear clipping found no ear with {remaining} vertices left (input not simple?)")]
    NoEar {
        /// Vertices left when it stopped.
        remaining: usize,
    },
}

/// Which convex partition to build.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DecompositionKind {
    /// Ear clipping, then Hertel–Mehlhorn merging (few pieces). The default.
    #[default]
    HertelMehlhorn,
    /// Ear clipping only: `n − 2` triangles for a non-convex polygon (a
    /// convex polygon stays one piece). The paper does not say which
    /// decomposition its baselines used; this is the many-pieces end.
    Triangles,
}

/// A partition of a polygon into convex pieces, stored flat.
#[derive(Debug, Clone, PartialEq)]
pub struct ConvexDecomposition {
    vertices: Vec<Vec2>,
    ranges: Vec<Range<usize>>,
    centres: Vec<Vec2>,
}

impl ConvexDecomposition {
    /// Decomposes `polygon` by Hertel–Mehlhorn; a convex polygon is its own
    /// single piece.
    pub fn new(polygon: &Polygon) -> Result<ConvexDecomposition, DecomposeError> {
        ConvexDecomposition::with_kind(polygon, DecompositionKind::HertelMehlhorn)
    }

    /// Decomposes `polygon` as `kind` says; a convex polygon is its own
    /// single piece either way.
    pub fn with_kind(
        polygon: &Polygon,
        kind: DecompositionKind,
    ) -> Result<ConvexDecomposition, DecomposeError> {
        if polygon.is_convex() {
            return Ok(ConvexDecomposition::from_pieces(&[polygon
                .vertices()
                .to_vec()]));
        }
        let v = polygon.vertices();
        let triangles = ear_clip(v)?;
        let pieces = match kind {
            DecompositionKind::HertelMehlhorn => hertel_mehlhorn(v, &triangles),
            DecompositionKind::Triangles => triangles.iter().map(|t| t.to_vec()).collect(),
        };
        let loops: Vec<Vec<Vec2>> = pieces
            .iter()
            .map(|p| p.iter().map(|&i| v[i]).collect())
            .collect();
        Ok(ConvexDecomposition::from_pieces(&loops))
    }

    fn from_pieces(pieces: &[Vec<Vec2>]) -> ConvexDecomposition {
        let mut vertices = Vec::new();
        let mut ranges = Vec::with_capacity(pieces.len());
        let mut centres = Vec::with_capacity(pieces.len());
        for p in pieces {
            let start = vertices.len();
            vertices.extend_from_slice(p);
            ranges.push(start..vertices.len());
            centres.push(vertex_mean(p));
        }
        ConvexDecomposition {
            vertices,
            ranges,
            centres,
        }
    }

    /// Number of convex pieces.
    #[inline]
    pub fn len(&self) -> usize {
        self.ranges.len()
    }

    /// Always `false` for a decomposition of a polygon.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// Piece `i`: a convex counter-clockwise vertex loop.
    #[inline]
    pub fn piece(&self, i: usize) -> &[Vec2] {
        &self.vertices[self.ranges[i].clone()]
    }

    /// The vertex mean of piece `i`.
    #[inline]
    pub fn centre(&self, i: usize) -> Vec2 {
        self.centres[i]
    }

    /// Iterates over the pieces.
    pub fn pieces(&self) -> impl ExactSizeIterator<Item = &[Vec2]> + '_ {
        self.ranges.iter().map(|r| &self.vertices[r.clone()])
    }
}

/// Ear-clipping triangulation of a counter-clockwise simple polygon; returns
/// counter-clockwise index triangles. Fewer than three vertices have no
/// ear ([`DecomposeError::NoEar`]).
pub fn ear_clip(v: &[Vec2]) -> Result<Vec<[usize; 3]>, DecomposeError> {
    let n = v.len();
    if n < 3 {
        return Err(DecomposeError::NoEar { remaining: n });
    }
    let mut prev: Vec<usize> = (0..n).map(|i| (i + n - 1) % n).collect();
    let mut next: Vec<usize> = (0..n).map(|i| (i + 1) % n).collect();
    let mut active = vec![true; n];
    let is_ear = |i: usize, prev: &[usize], next: &[usize], active: &[bool]| -> bool {
        let (a, b, c) = (v[prev[i]], v[i], v[next[i]]);
        if orient2d(a, b, c) != Ordering::Greater {
            return false;
        }
        (0..n).all(|k| {
            if !active[k] || k == i || k == prev[i] || k == next[i] {
                return true;
            }
            let p = v[k];
            // Outside the closed triangle a, b, c (counter-clockwise).
            orient2d(a, b, p) == Ordering::Less
                || orient2d(b, c, p) == Ordering::Less
                || orient2d(c, a, p) == Ordering::Less
        })
    };
    let mut ear: Vec<bool> = (0..n).map(|i| is_ear(i, &prev, &next, &active)).collect();
    let mut triangles = Vec::with_capacity(n - 2);
    let mut remaining = n;
    let mut cursor = 0;
    while remaining > 3 {
        // Walk the remaining ring once looking for an ear.
        let mut found = None;
        let mut i = cursor;
        for _ in 0..remaining {
            if ear[i] {
                found = Some(i);
                break;
            }
            i = next[i];
        }
        let i = found.ok_or(DecomposeError::NoEar { remaining })?;
        let (p, q) = (prev[i], next[i]);
        triangles.push([p, i, q]);
        active[i] = false;
        next[p] = q;
        prev[q] = p;
        remaining -= 1;
        ear[p] = is_ear(p, &prev, &next, &active);
        ear[q] = is_ear(q, &prev, &next, &active);
        cursor = q;
    }
    let last = (0..n)
        .find(|&i| active[i])
        .ok_or(DecomposeError::NoEar { remaining })?;
    triangles.push([prev[last], last, next[last]]);
    Ok(triangles)
}

/// Hertel–Mehlhorn: merges the triangles across every diagonal whose removal
/// keeps the two endpoint angles ≤ 180° (exact). Returns counter-clockwise
/// index loops.
pub fn hertel_mehlhorn(v: &[Vec2], triangles: &[[usize; 3]]) -> Vec<Vec<usize>> {
    let mut pieces: Vec<Option<Vec<usize>>> = triangles.iter().map(|t| Some(t.to_vec())).collect();
    // Directed edge (u → w) → the piece that has it.
    let mut owner: HashMap<(usize, usize), usize> = HashMap::new();
    for (k, t) in triangles.iter().enumerate() {
        for e in 0..3 {
            owner.insert((t[e], t[(e + 1) % 3]), k);
        }
    }
    // Diagonals: triangle edges whose reverse belongs to another triangle,
    // each taken once (u < w), in triangle order.
    let mut diagonals = Vec::new();
    for t in triangles {
        for e in 0..3 {
            let (u, w) = (t[e], t[(e + 1) % 3]);
            if u < w && owner.contains_key(&(w, u)) {
                diagonals.push((u, w));
            }
        }
    }
    for (u, w) in diagonals {
        let (Some(&pi), Some(&qi)) = (owner.get(&(u, w)), owner.get(&(w, u))) else {
            continue;
        };
        if pi == qi {
            continue;
        }
        let (Some(p), Some(q)) = (pieces[pi].as_ref(), pieces[qi].as_ref()) else {
            continue;
        };
        // In P the edge runs u → w; in Q it runs w → u.
        let pu = position(p, u);
        let qw = position(q, w);
        let qu = (qw + 1) % q.len();
        debug_assert_eq!(q[qu], u);
        let pw = (pu + 1) % p.len();
        // Merged corner at u: P's predecessor of u, u, Q's successor of u.
        let u_prev = p[(pu + p.len() - 1) % p.len()];
        let u_next = q[(qu + 1) % q.len()];
        // Merged corner at w: Q's predecessor of w, w, P's successor of w.
        let w_prev = q[(qw + q.len() - 1) % q.len()];
        let w_next = p[(pw + 1) % p.len()];
        if orient2d(v[u_prev], v[u], v[u_next]) == Ordering::Less
            || orient2d(v[w_prev], v[w], v[w_next]) == Ordering::Less
        {
            continue;
        }
        // Merged loop: P from w around to u, then Q from u's successor
        // around to w's predecessor.
        let mut merged = Vec::with_capacity(p.len() + q.len() - 2);
        let mut k = pw;
        loop {
            merged.push(p[k]);
            if k == pu {
                break;
            }
            k = (k + 1) % p.len();
        }
        let mut k = (qu + 1) % q.len();
        while k != qw {
            merged.push(q[k]);
            k = (k + 1) % q.len();
        }
        owner.remove(&(u, w));
        owner.remove(&(w, u));
        for e in 0..merged.len() {
            let key = (merged[e], merged[(e + 1) % merged.len()]);
            if let Some(o) = owner.get_mut(&key) {
                *o = pi;
            }
        }
        pieces[pi] = Some(merged);
        pieces[qi] = None;
    }
    pieces.into_iter().flatten().collect()
}

fn position(loop_: &[usize], x: usize) -> usize {
    loop_.iter().position(|&y| y == x).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::polygon::generate::{Rng, star_polygon};
    use crate::polygon::reference::{Containment, point_in_polygon};

    fn poly(p: &[[f64; 2]]) -> Polygon {
        Polygon::from_xy(p).unwrap()
    }

    /// Exact convexity of a counter-clockwise loop.
    fn is_convex_ccw(p: &[Vec2]) -> bool {
        let n = p.len();
        (0..n).all(|i| orient2d(p[(i + n - 1) % n], p[i], p[(i + 1) % n]) != Ordering::Less)
            && (0..n)
                .any(|i| orient2d(p[(i + n - 1) % n], p[i], p[(i + 1) % n]) == Ordering::Greater)
    }

    fn area(p: &[Vec2]) -> f64 {
        let n = p.len();
        (0..n)
            .map(|i| p[i].x * p[(i + 1) % n].y - p[i].y * p[(i + 1) % n].x)
            .sum::<f64>()
            / 2.0
    }

    /// Pieces are convex, counter-clockwise, cover the polygon's area, and
    /// every piece's vertex mean lies inside the polygon.
    fn check_partition(polygon: &Polygon, d: &ConvexDecomposition) {
        let mut total = 0.0;
        for piece in d.pieces() {
            assert!(piece.len() >= 3);
            assert!(is_convex_ccw(piece), "non-convex piece {piece:?}");
            total += area(piece);
            let c = vertex_mean(piece);
            assert_eq!(point_in_polygon(c, polygon.vertices()), Containment::Inside);
        }
        let a = polygon.doubled_area() / 2.0;
        assert!((total - a).abs() <= 1e-9 * a.abs(), "area {total} vs {a}");
    }

    #[test]
    fn u_shape_splits_into_three_pieces() {
        let u = poly(&[
            [0.0, 0.0],
            [3.0, 0.0],
            [3.0, 3.0],
            [2.0, 3.0],
            [2.0, 1.0],
            [1.0, 1.0],
            [1.0, 3.0],
            [0.0, 3.0],
        ]);
        let d = ConvexDecomposition::new(&u).unwrap();
        check_partition(&u, &d);
        // Two reflex vertices: Hertel–Mehlhorn gives at most 2·2 + 1 pieces;
        // the optimum is 3.
        assert!(d.len() >= 3 && d.len() <= 5, "{} pieces", d.len());
    }

    #[test]
    fn convex_polygon_is_one_piece() {
        let sq = poly(&[[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]);
        let d = ConvexDecomposition::new(&sq).unwrap();
        assert_eq!(d.len(), 1);
        assert_eq!(d.piece(0), sq.vertices());
    }

    #[test]
    fn straight_angles_and_comb() {
        // A comb with collinear vertices along its base.
        let comb = poly(&[
            [0.0, 0.0],
            [1.0, 0.0],
            [2.0, 0.0],
            [3.0, 0.0],
            [3.0, 2.0],
            [2.5, 2.0],
            [2.5, 1.0],
            [2.0, 1.0],
            [2.0, 2.0],
            [1.0, 2.0],
            [1.0, 1.0],
            [0.5, 1.0],
            [0.5, 2.0],
            [0.0, 2.0],
        ]);
        let d = ConvexDecomposition::new(&comb).unwrap();
        check_partition(&comb, &d);
    }

    #[test]
    fn triangles_partition_too() {
        let mut rng = Rng::new(9);
        for n in [4usize, 9, 30] {
            let p = star_polygon(&mut rng, n, Vec2::zeros(), 1.0, 0.8);
            let d = ConvexDecomposition::with_kind(&p, DecompositionKind::Triangles).unwrap();
            check_partition(&p, &d);
            if !p.is_convex() {
                assert_eq!(d.len(), n - 2);
            }
        }
    }

    #[test]
    fn random_star_polygons_partition() {
        let mut rng = Rng::new(7);
        for n in [4usize, 5, 8, 16, 33, 64] {
            for _ in 0..20 {
                let p = star_polygon(&mut rng, n, Vec2::zeros(), 1.0, 0.8);
                let d = ConvexDecomposition::new(&p).unwrap();
                check_partition(&p, &d);
                // Hertel–Mehlhorn bound: at most 2r + 1 pieces for r reflex
                // vertices (each surviving diagonal is essential at a reflex
                // endpoint).
                let v = p.vertices();
                let reflex = (0..n)
                    .filter(|&i| {
                        orient2d(v[(i + n - 1) % n], v[i], v[(i + 1) % n]) == Ordering::Less
                    })
                    .count();
                assert!(
                    d.len() <= 2 * reflex + 1,
                    "n={n}: {} pieces, {reflex} reflex",
                    d.len()
                );
            }
        }
    }
}
