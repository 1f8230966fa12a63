//! Features held exactly `d` apart along a coordinate axis (docs/design.md
//! §5, *Features held exactly `d` apart along an axis*): their
//! minimum-separation query is the contact query of their projections onto
//! a plane normal to that axis.
//!
//! If at both ends of the step every point of the first feature has the
//! same coordinate `a₀` (then `a₁`) along axis `k`, every point of the
//! second the same `b₀` (then `b₁`), and `b₀ − a₀ = b₁ − a₁ = ±d` exactly,
//! then at every `t ∈ [0, 1]` the features lie in two planes normal to
//! axis `k` at the constant distance `d` (the linear interpolation of the
//! coordinates keeps the difference `±d`). Any two of their points are then
//! `√(d² + h²)` apart, `h` the distance of the points' projections, so the
//! features are within `d` exactly when their projections touch, at the
//! same times: the earliest time within `d` is the contact solver's time of
//! impact of the projected (coplanar) query. The projection drops
//! coordinate `k` (sets it to `0`): exact, and the other coordinates keep
//! their range.
//!
//! This is the case of a sheet sliding over a floor (or a cloth over a
//! plane grid) at exactly the separation `d`: a vertex entering a new face
//! region closes the gap to `d` only quadratically (`√(d² + h²) − d ≈
//! h²/2d`), below what the fast path's certificates resolve near the entry,
//! while in the projection it crosses an edge transversally.

use crate::math::{RangeCheck, Vec3, two_sum};
use crate::narrow_phase::toi::{SolverTier, Toi};
use crate::narrow_phase::{edge_edge_traced_with, vertex_face_traced_with};

/// Vertex–face: the contact solver's answer on the projections where the
/// features are held exactly `d` apart along an axis, `None` where they
/// are not. Points in data set row order; `d > 0` finite; `range` as for
/// the solvers.
pub(super) fn vertex_face(
    points: [&Vec3; 8],
    d: f64,
    range: RangeCheck,
) -> Option<(Option<Toi>, SolverTier)> {
    let [a, b, c, e, f, g, h, i] = &projected_if_held_apart(points, 1, d)?;
    Some(vertex_face_traced_with(a, b, c, e, f, g, h, i, range))
}

/// [`vertex_face`] for edge–edge.
pub(super) fn edge_edge(
    points: [&Vec3; 8],
    d: f64,
    range: RangeCheck,
) -> Option<(Option<Toi>, SolverTier)> {
    let [a, b, c, e, f, g, h, i] = &projected_if_held_apart(points, 2, d)?;
    Some(edge_edge_traced_with(a, b, c, e, f, g, h, i, range))
}

/// The query's eight points (data set row order) with coordinate `k`
/// dropped, for the first axis `k` along which the features are held
/// exactly `d` apart (module doc); `None` where there is none. `first`: the
/// number of points of the first feature at each time (`1` for vertex–face,
/// `2` for edge–edge). `d > 0` finite.
fn projected_if_held_apart(points: [&Vec3; 8], first: usize, d: f64) -> Option<[Vec3; 8]> {
    (0..3)
        .find(|&k| held_apart_along(&points, first, d, k))
        .map(|k| {
            points.map(|p| {
                let mut p = *p;
                p[k] = 0.0;
                p
            })
        })
}

/// Whether both features lie in planes normal to axis `k` at both times,
/// `±d` apart with the same sign, exactly. The rounded offsets are compared
/// first: almost every query fails there.
#[inline]
fn held_apart_along(points: &[&Vec3; 8], first: usize, d: f64, k: usize) -> bool {
    let (a0, b0) = (points[0][k], points[first][k]);
    let (a1, b1) = (points[4][k], points[4 + first][k]);
    let offset = b0 - a0;
    if offset.abs() != d || b1 - a1 != offset {
        return false;
    }
    // `b − a` exactly: a rounded difference is not `±d`.
    let exact = |a: f64, b: f64| two_sum(b, -a).1 == 0.0;
    let level = |from: usize, c: f64, to: usize| points[from..to].iter().all(|p| p[k] == c);
    exact(a0, b0)
        && exact(a1, b1)
        && level(1, a0, first)
        && level(first + 1, b0, 4)
        && level(5, a1, 4 + first)
        && level(5 + first, b1, 8)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn projected(z: [f64; 8], first: usize, d: f64) -> Option<[Vec3; 8]> {
        let q: [Vec3; 8] = std::array::from_fn(|i| Vec3::new(i as f64, 1.0, z[i]));
        projected_if_held_apart(std::array::from_fn(|i| &q[i]), first, d)
    }

    #[test]
    fn features_held_d_apart_along_z_project_onto_z_zero() {
        let d = 0.25;
        // Vertex above the face, both planes moving up by 1.
        let p = projected([0.25, 0.0, 0.0, 0.0, 1.25, 1.0, 1.0, 1.0], 1, d).expect("held apart");
        assert!(
            p.iter()
                .enumerate()
                .all(|(i, p)| *p == Vec3::new(i as f64, 1.0, 0.0))
        );
        // Edges, the second below the first.
        assert!(projected([3.0, 3.0, 2.75, 2.75, 3.0, 3.0, 2.75, 2.75], 2, d).is_some());
    }

    #[test]
    fn offsets_that_are_not_exactly_d_or_change_sign_are_not_held_apart() {
        let d = 0.25;
        // Crossing: +d at the start, −d at the end.
        assert!(projected([0.25, 0.0, 0.0, 0.0, 0.0, 0.25, 0.25, 0.25], 1, d).is_none());
        // One face corner off the plane.
        assert!(projected([0.25, 0.0, 0.0, 0.5, 0.25, 0.0, 0.0, 0.0], 1, d).is_none());
        // Farther than d.
        assert!(projected([0.5, 0.0, 0.0, 0.0, 0.5, 0.0, 0.0, 0.0], 1, d).is_none());
        // A difference that rounds to d but is not d: 2⁶⁰ − (−1).
        let big = 2f64.powi(60);
        assert!(projected([-1.0, big, big, big, -1.0, big, big, big], 1, big).is_none());
        assert!(projected([0.0, big, big, big, 0.0, big, big, big], 1, big).is_some());
    }
}
