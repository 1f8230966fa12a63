//! The contact of two moving triangles at their first time of impact,
//! classified into one of the six forms of Yu, Shen & Chang (2000), §1–§2
//! (docs/design.md §3, "Moving TINs in the crate").
//!
//! 1. `t*`, exact ([`super::first_time()`]).
//! 2. At `t*`, exact incidence tests ([`super::incidence`]) find the
//!    *generators* of the contact set `C = A(t*) ∩ B(t*)`: every corner of
//!    one triangle lying in the other (with its carrier there: the paper's
//!    (abc) solutions, Eqs. (1)–(4)); every crossing of two edges at a point
//!    interior to both (the (d) solutions of Eqs. (5)–(8) that are not
//!    corners); and, only at `t* = 0`, every edge piercing the other
//!    triangle's interior. `C` is their convex hull. Only the elementary
//!    pairs whose certified bracket reaches `t*` are tested.
//! 3. The carriers of `C` (the smallest face of A and of B containing it)
//!    are the unions of the generators' carriers; they name the form.
//! 4. The dimension of `C` is decided exactly from the carriers and one more
//!    exact test: an edge–edge contact is a segment iff the edges are
//!    parallel at `t*`; an edge–face contact is a segment iff the edge lies
//!    in the face's plane (always, when `t* > 0`); a face–face contact is a
//!    planar region iff the triangles are coplanar (always, when `t* > 0`).
//!    Where a triangle has zero area at `t*` these rules do not hold, and the
//!    dimension is estimated in floating point (`Region::estimate_dimension`;
//!    the contact is flagged `degenerate`).
//!
//! The elementary pairs touching at `t*` are recorded: they are the lower
//! forms this contact contains, which the paper marks (§1 and §3, the sets
//! `Ω_{f−e}`, `Ω_{f−d}`, … ) so as not to report them again.
//!
//! The region's points (crossings, the hull) are computed in floating point
//! on the scene scaled by a power of two, `2^p`, that brings its largest
//! coordinate into `[1, 2)`, and scaled back: the scaling is exact, and the
//! degree-4 products of a crossing point neither underflow (coordinates
//! near 10⁻¹⁰⁰ gave `NaN` points) nor overflow.

use super::feature::{Corners, Elementary, ElementarySet, FeatureKind, Form};
use super::first_time::{FirstTime, first_time};
use super::incidence::{EdgeMeeting, degenerate, edge_meeting, in_plane, locate_point, parallel};
use super::region::Region;
use super::trajectories::PairTrajectories;
use crate::exact::Algebraic;
use crate::math::{Real, Vec3};
use crate::narrow_phase::segment_pierces_triangle;

/// The contact of a triangle pair at its first time of impact.
#[derive(Debug, Clone)]
pub struct TriangleContact {
    /// The first time of impact `t*`, exact.
    pub time: Algebraic,
    /// Doubles `[lower, upper]` around `t*`, at most `f64::EPSILON` apart
    /// (equal when `t*` is a double).
    pub time_bounds: [Real; 2],
    /// The smallest face of A containing the contact set.
    pub a: Corners,
    /// The smallest face of B containing the contact set.
    pub b: Corners,
    /// The form, from the kinds of [`TriangleContact::a`] and
    /// [`TriangleContact::b`].
    pub form: Form,
    /// The contact set (kind exact unless `degenerate`; coordinates `f64`).
    pub region: Region,
    /// The elementary pairs (6 vertex–face, 9 edge–edge) that touch at `t*`.
    pub touching: ElementarySet,
    /// The triangles interpenetrate at `t* = 0`: an edge pierces the other
    /// triangle's interior, or the two relative interiors cross along a
    /// segment (a face–face contact on distinct planes). The contact is then
    /// not a touch but an overlap present from the start.
    pub penetrating: bool,
    /// A triangle has zero area at `t*`: carriers follow the fixed rule of
    /// [`super::incidence`] and the region's dimension is a floating-point
    /// estimate.
    pub degenerate: bool,
}

/// The contact of triangles A and B (corners `a_t0` → `a_t1`, `b_t0` →
/// `b_t1`, linear in `t ∈ [0, 1]`) at their first time of impact, or `None`
/// when they never meet. Coordinates must be finite (as
/// [`crate::mesh::Step::new`] and the route readers check).
pub fn triangle_pair(
    a_t0: &[Vec3; 3],
    a_t1: &[Vec3; 3],
    b_t0: &[Vec3; 3],
    b_t1: &[Vec3; 3],
) -> Option<TriangleContact> {
    let first = first_time(a_t0, a_t1, b_t0, b_t1)?;
    classify(first, a_t0, a_t1, b_t0, b_t1)
}

/// A point of `C` with its carriers.
struct Generator {
    a: Corners,
    b: Corners,
    point: Vec3,
}

fn lerp(x0: &Vec3, x1: &Vec3, t: Real) -> Vec3 {
    x0 + (x1 - x0) * t
}

/// The power of two `2^p` that brings the largest absolute coordinate `m` of
/// `points` into `[1, 2)`; 1 when all are 0. `p` is limited to the normal
/// exponents `−1022..=1023`, so that `2^p` and `2^−p` are doubles: `m ≥ 2¹⁰²³`
/// comes to `[2, 4)`, a subnormal `m` stays below 1.
fn unit_scale<'a>(points: impl IntoIterator<Item = &'a Vec3>) -> Real {
    let m = points
        .into_iter()
        .flat_map(|x| x.iter())
        .fold(0.0, |m: Real, c| m.max(c.abs()));
    if m == 0.0 {
        return 1.0;
    }
    // ⌊log₂ m⌋ from the bits: the biased exponent, or for a subnormal the
    // position of its leading one.
    let bits = m.to_bits();
    let biased = (bits >> 52) as i32;
    let e = if biased == 0 {
        -1011 - bits.leading_zeros() as i32
    } else {
        biased - 1023
    };
    let p = (-e).clamp(-1022, 1023);
    Real::from_bits(((p + 1023) as u64) << 52)
}

/// The fraction `num / den` clamped to `[0, 1]`; ½ when `den` is zero (the
/// lines are parallel in floating point although not exactly).
fn fraction(num: Real, den: Real) -> Real {
    if den != 0.0 {
        (num / den).clamp(0.0, 1.0)
    } else {
        0.5
    }
}

/// The crossing point of two non-parallel coplanar segments, in floating
/// point: `p₀ + s(p₁ − p₀)` with `s = ((q₀ − p₀) × (q₁ − q₀))·m / |m|²`.
fn crossing_point(p0: Vec3, p1: Vec3, q0: Vec3, q1: Vec3) -> Vec3 {
    let (e1, e2) = (p1 - p0, q1 - q0);
    let m = e1.cross(&e2);
    p0 + e1 * fraction((q0 - p0).cross(&e2).dot(&m), m.norm_squared())
}

/// Where segment `p q` crosses the plane of `x`, in floating point.
fn plane_crossing(p: &Vec3, q: &Vec3, x: &[Vec3; 3]) -> Vec3 {
    let n = (x[1] - x[0]).cross(&(x[2] - x[0]));
    let (dp, dq) = (n.dot(&(p - x[0])), n.dot(&(q - x[0])));
    p + (q - p) * fraction(dp, dp - dq)
}

/// Classifies the contact at the first time of impact `first`. `None` only
/// if no generator is found, which the argument of [`super`] rules out (a
/// debug assertion checks it).
pub(crate) fn classify(
    first: FirstTime,
    a_t0: &[Vec3; 3],
    a_t1: &[Vec3; 3],
    b_t0: &[Vec3; 3],
    b_t1: &[Vec3; 3],
) -> Option<TriangleContact> {
    let FirstTime { mut time, tois, .. } = first;
    let mut narrow = time.clone();
    narrow.refine_to(Real::EPSILON);
    let time_bounds = [narrow.lower_f64(), narrow.upper_f64()];
    let tt = (0.5 * (time_bounds[0] + time_bounds[1])).clamp(0.0, 1.0);
    let at_start = time
        .as_exact()
        .is_some_and(|d| *d == crate::exact::Dyadic::zero());

    let traj = PairTrajectories::new(a_t0, a_t1, b_t0, b_t1);
    let (ta, tb) = (traj.a_refs(), traj.b_refs());
    // The floating-point geometry runs on the scene scaled by `g` (module
    // doc); the exact tests on the original.
    let g = unit_scale(a_t0.iter().chain(a_t1).chain(b_t0).chain(b_t1));
    let scaled = |x: &[Vec3; 3]| x.map(|p| p * g);
    let (ga_t0, gb_t0) = (scaled(a_t0), scaled(b_t0));
    let pa: [Vec3; 3] = std::array::from_fn(|i| lerp(&ga_t0[i], &(a_t1[i] * g), tt));
    let pb: [Vec3; 3] = std::array::from_fn(|j| lerp(&gb_t0[j], &(b_t1[j] * g), tt));

    let mut touching = ElementarySet::default();
    let mut gens: Vec<Generator> = Vec::new();
    for e in Elementary::all() {
        // A pair touches at t* iff its own time of impact is t*; its
        // certified bracket holds that time, so one starting after t* cannot.
        let Some(toi) = tois[e.index()] else { continue };
        if toi.lower > time_bounds[1] {
            continue;
        }
        match e {
            Elementary::VertexFace(i) => {
                if let Some(loc) = locate_point(&traj.a[i], tb, &mut time) {
                    touching.insert(e);
                    gens.push(Generator {
                        a: Corners::vertex(i),
                        b: loc,
                        point: pa[i],
                    });
                }
            }
            Elementary::FaceVertex(j) => {
                if let Some(loc) = locate_point(&traj.b[j], ta, &mut time) {
                    touching.insert(e);
                    gens.push(Generator {
                        a: loc,
                        b: Corners::vertex(j),
                        point: pb[j],
                    });
                }
            }
            Elementary::EdgeEdge(k, l) => {
                let (k1, l1) = ((k + 1) % 3, (l + 1) % 3);
                match edge_meeting(ta[k], ta[k1], tb[l], tb[l1], &mut time) {
                    EdgeMeeting::Apart => {}
                    // Its common points are corners on the other edge:
                    // generated by the vertex–face pairs.
                    EdgeMeeting::Touching => touching.insert(e),
                    EdgeMeeting::Crossing => {
                        touching.insert(e);
                        gens.push(Generator {
                            a: Corners::edge(k),
                            b: Corners::edge(l),
                            point: crossing_point(pa[k], pa[k1], pb[l], pb[l1]),
                        });
                    }
                }
            }
        }
    }
    let mut penetrating = false;
    if at_start {
        for k in 0..3 {
            let k1 = (k + 1) % 3;
            if segment_pierces_triangle(&a_t0[k], &a_t0[k1], [&b_t0[0], &b_t0[1], &b_t0[2]]) {
                penetrating = true;
                gens.push(Generator {
                    a: Corners::edge(k),
                    b: Corners::FACE,
                    point: plane_crossing(&ga_t0[k], &ga_t0[k1], &gb_t0),
                });
            }
            if segment_pierces_triangle(&b_t0[k], &b_t0[k1], [&a_t0[0], &a_t0[1], &a_t0[2]]) {
                penetrating = true;
                gens.push(Generator {
                    a: Corners::FACE,
                    b: Corners::edge(k),
                    point: plane_crossing(&gb_t0[k], &gb_t0[k1], &ga_t0),
                });
            }
        }
    }
    debug_assert!(!gens.is_empty(), "a contact has at least one generator");
    let first_gen = gens.first()?;
    let (a, b) = gens.iter().fold((first_gen.a, first_gen.b), |(a, b), g| {
        (a.union(g.a), b.union(g.b))
    });
    let form = Form::of(a.kind(), b.kind());
    let is_degenerate = degenerate(ta, &mut time) || degenerate(tb, &mut time);
    let points: Vec<Vec3> = gens.iter().map(|g| g.point).collect();
    let dim = if is_degenerate {
        Region::estimate_dimension(&points)
    } else {
        match (a.kind(), b.kind()) {
            (FeatureKind::Vertex, _) | (_, FeatureKind::Vertex) => 0,
            (FeatureKind::Edge, FeatureKind::Edge) => {
                let (k, l) = (a.as_edge().unwrap_or(0), b.as_edge().unwrap_or(0));
                let (k1, l1) = ((k + 1) % 3, (l + 1) % 3);
                usize::from(parallel(ta[k], ta[k1], tb[l], tb[l1], &mut time))
            }
            (FeatureKind::Edge, FeatureKind::Face) => {
                let k = a.as_edge().unwrap_or(0);
                let lies =
                    in_plane(ta[k], tb, &mut time) && in_plane(ta[(k + 1) % 3], tb, &mut time);
                usize::from(lies)
            }
            (FeatureKind::Face, FeatureKind::Edge) => {
                let l = b.as_edge().unwrap_or(0);
                let lies =
                    in_plane(tb[l], ta, &mut time) && in_plane(tb[(l + 1) % 3], ta, &mut time);
                usize::from(lies)
            }
            (FeatureKind::Face, FeatureKind::Face) => {
                let coplanar = (0..3).all(|j| in_plane(tb[j], ta, &mut time));
                if coplanar { 2 } else { 1 }
            }
        }
    };
    // Interpenetration at t* = 0: an edge pierced an interior, or the
    // relative interiors cross along a segment (face–face carriers on
    // distinct planes) although only edges cross at its ends.
    penetrating |= !is_degenerate && form == Form::FaceFace && dim == 1;
    let normal = (pa[1] - pa[0]).cross(&(pa[2] - pa[0]));
    let normal = if normal.norm_squared() > 0.0 {
        normal
    } else {
        (pb[1] - pb[0]).cross(&(pb[2] - pb[0]))
    };
    Some(TriangleContact {
        time,
        time_bounds,
        a,
        b,
        form,
        region: Region::from_points(dim, &points, normal).scaled(1.0 / g),
        touching,
        penetrating,
        degenerate: is_degenerate,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_scale_brings_the_largest_coordinate_into_one_to_two() {
        let v = |x: Real| Vec3::new(0.25 * x, -x, 0.0);
        for m in [1.0, 1.5, 3.0, 1e-100, 7e-300, 1e300, Real::MIN_POSITIVE] {
            let g = unit_scale([&v(m), &v(0.5 * m)]);
            assert!((1.0..2.0).contains(&(m * g)), "{m:e}: {g:e}");
            assert_eq!(g.to_bits() & ((1 << 52) - 1), 0, "{m:e}: a power of two");
        }
        assert_eq!(unit_scale([&Vec3::zeros()]), 1.0);
        assert_eq!(
            Real::MAX * unit_scale([&v(Real::MAX)]),
            Real::MAX / 2f64.powi(1022)
        );
        // Subnormal: 2^1023 is the largest factor, and leaves it below 1.
        let tiny = Real::from_bits(3);
        let g = unit_scale([&v(tiny)]);
        assert_eq!(g, 2f64.powi(1023));
        assert_eq!(tiny * g, 3.0 * 2f64.powi(-51));
    }

    #[test]
    fn a_touch_at_the_start_is_read_from_the_pairs_touching_then() {
        // A rests a corner on B's interior at t = 0 and lifts off: every
        // pair touching at t* = 0 has a bracket starting at t*'s own upper
        // bound (0).
        let v = Vec3::new;
        let b = [v(0.0, 0.0, 0.0), v(4.0, 0.0, 0.0), v(0.0, 4.0, 0.0)];
        let a0 = [v(1.0, 1.0, 0.0), v(2.0, 1.0, 1.0), v(1.0, 2.0, 1.0)];
        let a1 = a0.map(|p| p + v(0.0, 0.0, 1.0));
        let c = triangle_pair(&a0, &a1, &b, &b).expect("contact");
        assert_eq!(c.time_bounds, [0.0, 0.0]);
        assert_eq!(
            (c.form, c.a, c.b),
            (Form::VertexFace, Corners::vertex(0), Corners::FACE)
        );
        assert_eq!(
            c.touching.iter().collect::<Vec<_>>(),
            [Elementary::VertexFace(0)]
        );
        assert_eq!(c.region, Region::Point(v(1.0, 1.0, 0.0)));
        assert!(!c.penetrating && !c.degenerate);
    }

    #[test]
    fn parallel_lines_in_floating_point_cross_halfway() {
        let p = |x: Real| Vec3::new(x, 0.0, 0.0);
        assert_eq!(crossing_point(p(0.0), p(2.0), p(1.0), p(3.0)), p(1.0));
        let x = [Vec3::zeros(), Vec3::x(), Vec3::y()];
        assert_eq!(
            plane_crossing(&Vec3::new(0.0, 0.0, 1.0), &Vec3::new(2.0, 0.0, 1.0), &x),
            Vec3::new(1.0, 0.0, 1.0)
        );
    }
}
