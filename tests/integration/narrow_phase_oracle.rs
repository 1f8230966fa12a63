//! Every exact solver ([`Solver::is_exact`]: the `exact` solver, a certified
//! float fast path + exact fallback, today) against the pure exact oracle,
//! on random and near-degenerate queries: same decision, and the reported
//! time-of-impact bracket contains the exact earliest contact time.

use std::cmp::Ordering;

use ccdlab::exact::{Algebraic, Dyadic};
use ccdlab::math::Vec3;
use ccdlab::narrow_phase::{self, QueryKind, Solver, SolverTier, Toi, oracle};
use proptest::prelude::*;

/// Every exact solver against the oracle on `q` (a vertex–face query when
/// `vf`); the tier that decided it in the `exact` solver.
fn check(q: &[Vec3; 8], vf: bool) -> Result<SolverTier, TestCaseError> {
    check_touching(q, vf).map(|(tier, _)| tier)
}

/// [`check`], and whether the oracle found contact.
fn check_touching(q: &[Vec3; 8], vf: bool) -> Result<(SolverTier, bool), TestCaseError> {
    let [a, b, c, d, e, f, g, h] = q;
    let kind = if vf {
        QueryKind::VertexFace
    } else {
        QueryKind::EdgeEdge
    };
    let want = if vf {
        oracle::vertex_face(a, b, c, d, e, f, g, h)
    } else {
        oracle::edge_edge(a, b, c, d, e, f, g, h)
    };
    let mut exact_tier = None;
    for solver in Solver::ALL.into_iter().filter(|s| s.is_exact()) {
        let (got, path) = solver.solve_traced(kind, q);
        if solver == Solver::Exact {
            exact_tier = Some(path);
        }
        prop_assert_eq!(
            got.is_some(),
            want.is_some(),
            "{} on query {:?} via {:?}",
            solver,
            q,
            path
        );
        if let (Some(Toi { lower, upper }), Some(alpha)) = (got, &want) {
            let mut alpha = alpha.clone();
            prop_assert!(lower <= upper);
            let mut lo = Algebraic::exact(Dyadic::from_f64(lower));
            let mut hi = Algebraic::exact(Dyadic::from_f64(upper));
            prop_assert_ne!(
                lo.compare(&mut alpha),
                Ordering::Greater,
                "{}: lower bound above the TOI: {:?}",
                solver,
                q
            );
            prop_assert_ne!(
                hi.compare(&mut alpha),
                Ordering::Less,
                "{}: upper bound below the TOI: {:?}",
                solver,
                q
            );
        }
    }
    Ok((
        exact_tier.expect("the exact solver is exact"),
        want.is_some(),
    ))
}

/// Coordinates on a coarse grid: many exact coincidences and coplanarities.
fn grid() -> impl Strategy<Value = f64> + Clone {
    (-4i32..=4).prop_map(|k| f64::from(k) * 0.25)
}

/// Any double in a moderate range.
fn wide() -> impl Strategy<Value = f64> + Clone {
    -2.0f64..2.0
}

fn point(s: impl Strategy<Value = f64> + Clone) -> impl Strategy<Value = Vec3> {
    (s.clone(), s.clone(), s).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

fn query(s: impl Strategy<Value = f64> + Clone + 'static) -> impl Strategy<Value = [Vec3; 8]> {
    proptest::array::uniform8(point(s))
}

/// Moves a double by `k` ulps.
fn ulps(x: f64, k: i32) -> f64 {
    let mut y = x;
    for _ in 0..k.abs() {
        y = if k > 0 { y.next_up() } else { y.next_down() };
    }
    y
}

/// A grid query with a few coordinates nudged by a few ulps.
fn nudged() -> impl Strategy<Value = [Vec3; 8]> {
    (
        query(grid()),
        proptest::collection::vec((0usize..24, -3i32..=3), 1..4),
    )
        .prop_map(|(mut q, nudges)| {
            for (i, k) in nudges {
                let p = &mut q[i / 3];
                p[i % 3] = ulps(p[i % 3], k);
            }
            q
        })
}

/// All eight points in the plane z = 0: the coplanarity cubic vanishes.
fn coplanar() -> impl Strategy<Value = [Vec3; 8]> {
    query(grid()).prop_map(|mut q| {
        for p in &mut q {
            p.z = 0.0;
        }
        q
    })
}

/// Motion in an axis-aligned plane: coordinate `k` the same for the four
/// points at `t = 0`, and for the four at `t = 1` (a flat sheet at rest or
/// moving along its normal); triangles turn over and edges turn parallel
/// within the plane.
fn axis_plane(s: impl Strategy<Value = f64> + Clone + 'static) -> impl Strategy<Value = [Vec3; 8]> {
    (query(s.clone()), 0usize..3, s.clone(), s).prop_map(|(mut q, k, a, b)| {
        for (i, p) in q.iter_mut().enumerate() {
            p[k] = if i < 4 { a } else { b };
        }
        q
    })
}

/// A query scaled by `2ᵏ` far outside the filtered paths' range (every
/// coordinate tiny, or huge): exactly as decidable as the unscaled one, by
/// the same scaling back.
fn far_scaled(q: impl Strategy<Value = [Vec3; 8]>) -> impl Strategy<Value = [Vec3; 8]> {
    let k = prop::sample::select(&[-1000, -600, -300, -150, 250, 400, 900][..]);
    (q, k).prop_map(|(q, k)| q.map(|p| p * 2f64.powi(k)))
}

/// Multiples of `2⁻²⁰` in `[−2, 2]`: sums and differences of two are exact.
fn fine() -> impl Strategy<Value = f64> + Clone {
    (-(1i32 << 21)..=(1 << 21)).prop_map(|k| f64::from(k) / f64::from(1 << 20))
}

/// [`axis_plane`] on [`fine`] coordinates with the first point (the vertex;
/// the first edge's first endpoint) meeting another at one instant: at
/// `t = 0` it is `c + w` for the other point `c`, at `t = 1` it is
/// `c − s·w`, so the two coincide at `t = 1/(1 + s)` (`1/2`, or not a
/// dyadic), and pass on.
fn through_a_point(vf: bool) -> impl Strategy<Value = [Vec3; 8]> {
    let others = if vf { 1usize..4 } else { 2usize..4 };
    let s = prop_oneof![Just(1.0), Just(0.5), Just(2.0), Just(3.0), Just(5.0)];
    (axis_plane(fine()), others, point(fine()), s).prop_map(|(mut q, c, w, s)| {
        // The plane's axis: the one coordinate the four points share.
        let k = (0..3)
            .find(|&k| (1..4).all(|i| q[i][k] == q[0][k]))
            .unwrap_or(2);
        let mut w = w;
        w[k] = 0.0;
        q[0] = q[c] + w;
        q[4] = q[c + 4] - w * s;
        q
    })
}

/// `q` (motion in an axis-aligned plane, on [`fine`] coordinates) sheared
/// into planes that are parallel to no axis: `x_k += s·x_m` for the shared
/// coordinate `k` and another `m`, exact on those coordinates, so that the
/// points lie in the plane `x_k − s·x_m = a` at `t = 0` and in a parallel one
/// at `t = 1` (a flat sheet tilted in space, at rest or moving along its
/// normal), sharing no coordinate.
fn slanted(q: impl Strategy<Value = [Vec3; 8]>) -> impl Strategy<Value = [Vec3; 8]> {
    let s = prop_oneof![Just(1.0), Just(-1.0), Just(0.5), Just(2.0), Just(-0.25)];
    (q, any::<bool>(), s).prop_map(|(mut q, second, s)| {
        let k = (0..3)
            .find(|&k| (1..4).all(|i| q[i][k] == q[0][k]))
            .unwrap_or(2);
        let m = (k + if second { 2 } else { 1 }) % 3;
        for p in &mut q {
            p[k] += s * p[m];
        }
        q
    })
}

/// [`fine`] coordinates with one point of a feature at the midpoint of an
/// edge of the other at one end of the step (`t = 0` when `start`, else
/// `t = 1`): the vertex on the triangle's edge `f0 f1`, or the second
/// edge's first end on the first edge (exact on those coordinates), the rest
/// anywhere, the edge slanted: a touch at that end that no shared
/// coordinate proves.
fn on_an_edge_at_an_end(vf: bool, start: bool) -> impl Strategy<Value = [Vec3; 8]> {
    query(fine()).prop_map(move |mut q| {
        let end = if start { 0 } else { 4 };
        let (on, a, b) = if vf { (0, 1, 2) } else { (2, 0, 1) };
        q[end + on] = (q[end + a] + q[end + b]) * 0.5;
        q
    })
}

/// [`axis_plane`] on [`fine`] coordinates with the vertex (the second
/// edge's first end) at `t = 1` on the midpoint of the triangle's edge
/// `f0 f1` (of the first edge): motion in a plane that touches at the end,
/// where the condition reaching zero is never certified in floating point.
fn on_an_edge_at_the_end_in_a_plane(vf: bool) -> impl Strategy<Value = [Vec3; 8]> {
    axis_plane(fine()).prop_map(move |mut q| {
        let (on, a, b) = if vf { (0, 1, 2) } else { (2, 0, 1) };
        q[4 + on] = (q[4 + a] + q[4 + b]) * 0.5;
        q
    })
}

/// [`axis_plane`] on [`fine`] coordinates with the points on two rows that
/// cross: in one in-plane coordinate, the first and third points at `a(t)`,
/// the second and fourth at `b(t)`, with `a − b` going from `δ` to `−s·δ`.
/// At `t = 1/(1 + s)` all four lie on one line parallel to an axis (two
/// rows of a flat grid crossing), where every planar condition vanishes.
fn rows_crossing() -> impl Strategy<Value = [Vec3; 8]> {
    let s = prop_oneof![Just(1.0), Just(0.5), Just(2.0), Just(3.0)];
    (axis_plane(fine()), any::<bool>(), fine(), fine(), fine(), s).prop_map(
        |(mut q, second, a0, b0, a1, s)| {
            let k = (0..3)
                .find(|&k| (1..4).all(|i| q[i][k] == q[0][k]))
                .unwrap_or(2);
            let c = (k + if second { 2 } else { 1 }) % 3;
            let b1 = a1 + s * (a0 - b0);
            for (i, row) in [
                (0, a0),
                (1, b0),
                (2, a0),
                (3, b0),
                (4, a1),
                (5, b1),
                (6, a1),
                (7, b1),
            ] {
                q[i][c] = row;
            }
            q
        },
    )
}

/// Motion in an axis-aligned plane with the points on two parallel lines
/// of a direction `u` parallel to no axis (`(1, 1)`, `(1, −1)`, `(1, 2)` or
/// `(2, −3)` in the plane's coordinates): the first feature's points (the
/// triangle's corners; the first edge's ends) on one, the second's on the
/// other, the lines' offset along the normal going from `δ` to `−s·δ`, so
/// that all four points lie on one diagonal line at `t = 1/(1 + s)`, where
/// every planar condition vanishes (two flat sheets meeting edge to edge).
/// Along the lines each point moves freely or, when `rigid`, each feature
/// slides as a whole (its conditions are then linear in `t`). Exact on
/// [`fine`] coordinates.
fn lines_meeting(vf: bool, rigid: bool) -> impl Strategy<Value = [Vec3; 8]> {
    let s = prop_oneof![Just(1.0), Just(0.5), Just(2.0), Just(3.0)];
    let u = prop_oneof![
        Just((1.0, 1.0)),
        Just((1.0, -1.0)),
        Just((1.0, 2.0)),
        Just((2.0, -3.0))
    ];
    let fine4 = || proptest::array::uniform4(fine());
    (
        (fine4(), fine4(), fine(), fine()),
        (fine(), fine(), fine(), s, u),
        (0usize..3, fine(), fine()),
    )
        .prop_map(
            move |((at0, mut at1, shift_a, shift_b), (h_a0, h_b0, h_a1, s, u), (k, z0, z1))| {
                let first = |i: usize| if vf { i > 0 } else { i < 2 };
                if rigid {
                    for i in 0..4 {
                        at1[i] = at0[i] + if first(i) { shift_a } else { shift_b };
                    }
                }
                let h_b1 = h_a1 + s * (h_a0 - h_b0);
                let (c1, c2) = ((k + 1) % 3, (k + 2) % 3);
                let mut q = [Vec3::zeros(); 8];
                for (end, (at, h_a, h_b, z)) in [(at0, h_a0, h_b0, z0), (at1, h_a1, h_b1, z1)]
                    .into_iter()
                    .enumerate()
                {
                    for i in 0..4 {
                        let h = if first(i) { h_a } else { h_b };
                        let p = &mut q[4 * end + i];
                        p[c1] = at[i] * u.0 - h * u.1;
                        p[c2] = at[i] * u.1 + h * u.0;
                        p[k] = z;
                    }
                }
                q
            },
        )
}

/// The four points at `t = 0` on one line and the four at `t = 1` on a
/// parallel one (or the same), exactly: grid points plus multiples of 1/8
/// of a small integer direction (axis-parallel or not), so that the
/// coplanarity cubic and every normal vanish; many coincidences.
fn collinear() -> impl Strategy<Value = [Vec3; 8]> {
    let direction = (-3i32..=3, -3i32..=3, -3i32..=3)
        .prop_filter("a direction", |&(x, y, z)| (x, y, z) != (0, 0, 0))
        .prop_map(|(x, y, z)| Vec3::new(f64::from(x), f64::from(y), f64::from(z)));
    let along = proptest::array::uniform8((-16i32..=16).prop_map(|k| f64::from(k) / 8.0));
    let scale = prop_oneof![Just(1.0), Just(-2.0), Just(0.5)];
    (
        point(grid()),
        point(grid()),
        any::<bool>(),
        direction,
        scale,
        along,
    )
        .prop_map(|(base, other, moves, u, scale, s)| {
            let end = if moves { other } else { base };
            std::array::from_fn(|i| {
                if i < 4 {
                    base + u * s[i]
                } else {
                    end + u * (scale * s[i])
                }
            })
        })
}

/// [`collinear`] with the second feature (the vertex; the second edge)
/// moved by a grid offset at each end: on a parallel line, on the same
/// line, or crossing it.
fn parallel_lines(vf: bool) -> impl Strategy<Value = [Vec3; 8]> {
    (collinear(), point(grid()), point(grid())).prop_map(move |(mut q, off0, off1)| {
        let second = if vf { 0..1 } else { 2..4 };
        for i in second {
            q[i] += off0;
            q[i + 4] += off1;
        }
        q
    })
}

/// [`collinear`] with a few coordinates nudged off the line by ulps.
fn nearly_collinear() -> impl Strategy<Value = [Vec3; 8]> {
    (
        collinear(),
        proptest::collection::vec((0usize..24, -2i32..=2), 1..3),
    )
        .prop_map(|(mut q, nudges)| {
            for (i, k) in nudges {
                let p = &mut q[i / 3];
                p[i % 3] = ulps(p[i % 3], k);
            }
            q
        })
}

/// Tiny motions: t = 1 positions within 1e-9 of t = 0.
fn tiny_motion() -> impl Strategy<Value = [Vec3; 8]> {
    (
        query(wide()),
        proptest::array::uniform4(point(-1e-9f64..1e-9)),
    )
        .prop_map(|(mut q, d)| {
            for i in 0..4 {
                q[i + 4] = q[i] + d[i];
            }
            q
        })
}

/// The vertex (VF) or an endpoint (EE) coincides with another point.
fn shared() -> impl Strategy<Value = [Vec3; 8]> {
    query(grid()).prop_map(|mut q| {
        q[0] = q[1];
        q[4] = q[5];
        q
    })
}

/// A point of one feature equal to a point of the other at `t = 0` (the
/// vertex and a corner; an endpoint of each edge), the rest anywhere:
/// contact at `t = 0`, decided without the oracle.
fn coincident_at_start(vf: bool) -> impl Strategy<Value = [Vec3; 8]> {
    let (a, b) = if vf {
        (0..1usize, 1..4usize)
    } else {
        (0..2usize, 2..4usize)
    };
    (query(wide()), a, b).prop_map(|(mut q, a, b)| {
        q[a] = q[b];
        q
    })
}

/// Falls through the middle: contact is generic and must take the fast path.
fn generic_hit() -> impl Strategy<Value = [Vec3; 8]> {
    (0.05f64..0.3, 0.05f64..0.3, 0.1f64..2.0, -2.0f64..-0.1).prop_map(|(x, y, z0, z1)| {
        let (a, b, c) = (
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
        );
        [Vec3::new(x, y, z0), a, b, c, Vec3::new(x, y, z1), a, b, c]
    })
}

/// Three of the four points share one coordinate (a value at `t = 0`, another
/// at `t = 1`), the rest random: a cloth lying in a plane, the configuration
/// of the structural-zero lemma (a contact exactly on an edge, an end point
/// exactly on a line; cloth-funnel).
fn shared_coordinate() -> impl Strategy<Value = [Vec3; 8]> {
    (query(wide()), 0usize..3, 0usize..4, wide(), wide()).prop_map(|(mut q, axis, odd, y0, y1)| {
        for i in (0..4).filter(|&i| i != odd) {
            q[i][axis] = y0;
            q[i + 4][axis] = y1;
        }
        q
    })
}

/// A flat sheet moving along its normal: all four points at `y = y₀` at
/// `t = 0` and at `y = y₁` at `t = 1` (coplanar motion), the third point
/// within about `10⁻⁵` of the first at both times: the second edge's first
/// end next to the first edge's, or the vertex next to the face's corner
/// `f1`, so that the features meet near a corner, where the inside
/// conditions stay close to zero (cloth-funnel 227→228's slowest edge–edge
/// pairs).
fn flat_sheet_near_corner() -> impl Strategy<Value = [Vec3; 8]> {
    (
        query(wide()),
        proptest::array::uniform2(point(-1e-5f64..1e-5)),
        wide(),
        wide(),
    )
        .prop_map(|(mut q, [d0, d1], y0, y1)| {
            q[2] = q[0] + d0;
            q[6] = q[4] + d1;
            for p in &mut q[..4] {
                p.y = y0;
            }
            for p in &mut q[4..] {
                p.y = y1;
            }
            q
        })
}

/// Two edges end to end along one line (ends at `s₀ < s₁ ≤ s₂ < s₃` on a
/// random line, rounded, on a grid of quarters so that the edges may share
/// an end), moving in a random direction, the second also sliding along the
/// line (by `Δ` quarters, so that it may reach back over the first): nearly
/// collinear motion, which the float tiers mostly cannot sign and the
/// separation test decides when the edges stay apart along the line.
fn end_to_end() -> impl Strategy<Value = [Vec3; 8]> {
    (
        point(wide()),
        point(wide()),
        point(wide()),
        proptest::array::uniform4(0i32..6),
        -12i32..=4,
    )
        .prop_map(|(o, u, m, gaps, slide)| {
            // Ends at cumulative gaps: s₁ − s₀ and s₃ − s₂ at least one
            // quarter, s₂ − s₁ possibly zero.
            let mut s = [0.0; 4];
            let mut at = 0.0;
            for (k, g) in gaps.into_iter().enumerate() {
                at += 0.25 * f64::from(g + i32::from(k != 2));
                s[k] = at;
            }
            let p = |x: f64| o + u * x;
            let back = u * (0.25 * f64::from(slide));
            [
                p(s[0]),
                p(s[1]),
                p(s[2]),
                p(s[3]),
                p(s[0]) + m,
                p(s[1]) + m,
                p(s[2]) + m + back,
                p(s[3]) + m + back,
            ]
        })
}

/// cloth-ball 92→93, edges 7 and 9: two boundary edges of the cloth lying
/// flat on the floor, end to end along one line. Coplanar motion that the
/// float tiers could not sign, so it went to the oracle; the edges are
/// apart along their own direction.
#[test]
fn cloth_ball_92_edges_7_9_end_to_end_are_decided_without_the_oracle() {
    let v = Vec3::new;
    let y = 0.4000000059604645;
    let q = [
        v(4.304768085479736, y, -12.661364555358887),
        v(4.149477005004883, y, -12.597922325134277),
        v(3.994227886199951, y, -12.53443717956543),
        v(3.838848114013672, y, -12.470834732055664),
        v(4.0505690574646, y, -12.546154975891113),
        v(3.89695405960083, y, -12.478972434997559),
        v(3.7433230876922607, y, -12.41187572479248),
        v(3.5895559787750244, y, -12.344768524169922),
    ];
    assert_eq!(check(&q, false).unwrap(), SolverTier::Float);
}

/// Grid coordinates with a little noise (multiples of `2⁻⁶⁰` added to a few
/// coordinates): nearly degenerate as in the erleben scenes (`1` next to
/// `1e-17`), beyond what doubles resolve.
fn noised() -> impl Strategy<Value = [Vec3; 8]> {
    (
        query(grid()),
        proptest::collection::vec((0usize..24, -64i32..=64), 1..5),
    )
        .prop_map(|(mut q, noise)| {
            for (i, k) in noise {
                q[i / 3][i % 3] += f64::from(k) * 2f64.powi(-60);
            }
            q
        })
}

/// Edges that stay nearly parallel: the second is the first translated, with
/// noise of a few `2⁻⁵⁰`.
fn nearly_parallel() -> impl Strategy<Value = [Vec3; 8]> {
    (
        proptest::array::uniform4(point(wide())),
        proptest::array::uniform2(point(-0.5f64..0.5)),
        proptest::array::uniform4(point(
            (-8i32..=8).prop_map(|k| f64::from(k) * 2f64.powi(-50)),
        )),
    )
        .prop_map(|([a0, a1, b0, b1], [d0, d1], noise)| {
            [
                a0,
                a1,
                a0 + d0 + noise[0],
                a1 + d0 + noise[1],
                b0,
                b1,
                b0 + d1 + noise[2],
                b1 + d1 + noise[3],
            ]
        })
}

/// All points on the tilted plane `z = x`: the cubic vanishes exactly, yet no
/// coordinate difference is zero (the cubic rounds away from zero; the
/// motion is decided in two of the coordinates).
fn tilted_coplanar() -> impl Strategy<Value = [Vec3; 8]> {
    query(wide()).prop_map(|mut q| {
        for p in &mut q {
            p.z = p.x;
        }
        q
    })
}

/// All four points in the plane `z = 0` at `t = 0`: a root exactly at the
/// start, with contact there or not.
fn flat_start() -> impl Strategy<Value = [Vec3; 8]> {
    query(grid()).prop_map(|mut q| {
        for p in &mut q[..4] {
            p.z = 0.0;
        }
        q
    })
}

/// Coordinates `k · 2^e`, `e` drawn per coordinate from both ends of the
/// double range and from around the edges of the filtered paths' range
/// (multiples of `2⁻¹⁴⁰` up to `2²⁰⁰`): queries that mix magnitudes go to
/// the exact path, with times of impact anywhere down to the subnormals.
fn mixed_magnitude() -> impl Strategy<Value = f64> + Clone {
    const EXPONENTS: &[i32] = &[
        -1074, -1030, -1000, -600, -200, -141, -140, -139, -88, -87, -30, 0, 30, 150, 199, 200,
        201, 600, 1000, 1020,
    ];
    (-4i32..=4, prop::sample::select(EXPONENTS)).prop_map(|(k, e)| f64::from(k) * 2f64.powi(e))
}

/// Regression (`vertex_face_mixed_magnitudes`): a time of impact near
/// 9.3e−302, which the exact path bracketed as `[0, 2⁻¹⁰²²]`, its upper end
/// below the time: the exact dyadic bound was rounded "up" to `2⁻¹⁰²²`
/// whatever its size below about `2⁻⁹⁷⁰` (`Dyadic::to_f64_up`).
#[test]
fn vertex_face_toi_near_1e_minus_302_is_bracketed() {
    let v = Vec3::new;
    let q = [
        v(0.0, 9.313225746154785e-10, 0.0),
        v(1.2676506002282294e30, 0.0, -1073741824.0),
        v(-9.332636185032189e-302, 0.0, 0.0),
        v(0.0, 0.0, -1073741824.0),
        v(0.0, 0.0, -1.0715086071862673e301),
        v(0.0, 0.0, 0.0),
        v(0.0, 0.0, 1.5692754338466702e57),
        v(0.0, 1.0715086071862673e301, 0.0),
    ];
    assert_eq!(check(&q, true).unwrap(), SolverTier::Exact);
    let [a, b, c, d, e, f, g, h] = &q;
    let toi = narrow_phase::vertex_face(a, b, c, d, e, f, g, h).unwrap();
    assert!(toi.lower > 9e-302 && toi.upper < 1e-301, "{toi:?}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    #[test]
    fn vertex_face_mixed_magnitudes(q in query(mixed_magnitude())) { check(&q, true)?; }
    #[test]
    fn edge_edge_mixed_magnitudes(q in query(mixed_magnitude())) { check(&q, false)?; }
    #[test]
    fn vertex_face_random(q in query(wide())) { check(&q, true)?; }
    #[test]
    fn edge_edge_random(q in query(wide())) { check(&q, false)?; }
    #[test]
    fn vertex_face_grid(q in query(grid())) { check(&q, true)?; }
    #[test]
    fn edge_edge_grid(q in query(grid())) { check(&q, false)?; }
    #[test]
    fn vertex_face_nudged_by_ulps(q in nudged()) { check(&q, true)?; }
    #[test]
    fn edge_edge_nudged_by_ulps(q in nudged()) { check(&q, false)?; }
    #[test]
    fn vertex_face_coplanar_motion(q in coplanar()) { check(&q, true)?; }
    #[test]
    fn edge_edge_coplanar_motion(q in coplanar()) { check(&q, false)?; }
    #[test]
    fn vertex_face_tiny_motion(q in tiny_motion()) { check(&q, true)?; }
    #[test]
    fn edge_edge_tiny_motion(q in tiny_motion()) { check(&q, false)?; }
    #[test]
    fn vertex_face_shared_vertex(q in shared()) { check(&q, true)?; }
    #[test]
    fn edge_edge_shared_endpoint(q in shared()) { check(&q, false)?; }

    #[test]
    fn vertex_face_coincident_at_start(q in coincident_at_start(true)) {
        prop_assert_eq!(check(&q, true)?, SolverTier::Float);
    }
    #[test]
    fn edge_edge_coincident_at_start(q in coincident_at_start(false)) {
        prop_assert_eq!(check(&q, false)?, SolverTier::Float);
    }

    /// Points on one line are decided without the oracle.
    #[test]
    fn vertex_face_collinear(q in collinear()) {
        prop_assert_eq!(check(&q, true)?, SolverTier::Float);
    }
    #[test]
    fn edge_edge_collinear(q in collinear()) {
        prop_assert_eq!(check(&q, false)?, SolverTier::Float);
    }
    /// Motion in an axis-aligned plane is decided without the oracle,
    /// triangles turning over and edges turning parallel included.
    #[test]
    fn vertex_face_axis_plane(q in axis_plane(wide())) {
        prop_assert_eq!(check(&q, true)?, SolverTier::Float);
    }
    #[test]
    fn edge_edge_axis_plane(q in axis_plane(wide())) {
        prop_assert_eq!(check(&q, false)?, SolverTier::Float);
    }
    #[test]
    fn vertex_face_axis_plane_grid(q in axis_plane(grid())) { check(&q, true)?; }
    #[test]
    fn edge_edge_axis_plane_grid(q in axis_plane(grid())) { check(&q, false)?; }
    /// A vertex through a corner, endpoints through each other: a touch at
    /// one instant, decided without the oracle.
    #[test]
    fn vertex_face_through_a_corner(q in through_a_point(true)) {
        prop_assert_eq!(check(&q, true)?, SolverTier::Float);
    }
    #[test]
    fn edge_edge_through_an_endpoint(q in through_a_point(false)) {
        prop_assert_eq!(check(&q, false)?, SolverTier::Float);
    }
    /// The same in planes parallel to no axis (projected one to one onto
    /// an axis plane): decided without the oracle.
    #[test]
    fn vertex_face_slanted_plane(q in slanted(axis_plane(fine()))) {
        prop_assert_eq!(check(&q, true)?, SolverTier::Float);
    }
    #[test]
    fn edge_edge_slanted_plane(q in slanted(axis_plane(fine()))) {
        prop_assert_eq!(check(&q, false)?, SolverTier::Float);
    }
    #[test]
    fn vertex_face_through_a_corner_in_a_slanted_plane(q in slanted(through_a_point(true))) {
        prop_assert_eq!(check(&q, true)?, SolverTier::Float);
    }
    #[test]
    fn edge_edge_through_an_endpoint_in_a_slanted_plane(q in slanted(through_a_point(false))) {
        prop_assert_eq!(check(&q, false)?, SolverTier::Float);
    }
    #[test]
    fn vertex_face_rows_crossing_in_a_slanted_plane(q in slanted(rows_crossing())) {
        check(&q, true)?;
    }
    #[test]
    fn edge_edge_rows_crossing_in_a_slanted_plane(q in slanted(rows_crossing())) {
        check(&q, false)?;
    }
    /// A touch exactly on an edge at the start is decided without the
    /// oracle, whatever the motion after it.
    #[test]
    fn vertex_face_on_an_edge_at_the_start(q in on_an_edge_at_an_end(true, true)) {
        prop_assert_eq!(check(&q, true)?, SolverTier::Float);
    }
    #[test]
    fn edge_edge_on_an_edge_at_the_start(q in on_an_edge_at_an_end(false, true)) {
        prop_assert_eq!(check(&q, false)?, SolverTier::Float);
    }
    #[test]
    fn vertex_face_on_an_edge_at_the_end(q in on_an_edge_at_an_end(true, false)) {
        check(&q, true)?;
    }
    #[test]
    fn edge_edge_on_an_edge_at_the_end(q in on_an_edge_at_an_end(false, false)) {
        check(&q, false)?;
    }
    #[test]
    fn vertex_face_on_an_edge_at_the_end_in_a_plane(q in on_an_edge_at_the_end_in_a_plane(true)) {
        check(&q, true)?;
    }
    #[test]
    fn edge_edge_on_an_edge_at_the_end_in_a_plane(q in on_an_edge_at_the_end_in_a_plane(false)) {
        check(&q, false)?;
    }
    #[test]
    fn vertex_face_on_an_edge_at_the_end_in_a_slanted_plane(
        q in slanted(on_an_edge_at_the_end_in_a_plane(true))
    ) {
        check(&q, true)?;
    }
    #[test]
    fn edge_edge_on_an_edge_at_the_end_in_a_slanted_plane(
        q in slanted(on_an_edge_at_the_end_in_a_plane(false))
    ) {
        check(&q, false)?;
    }
    /// Far from 1 in magnitude, a generic query is decided without the
    /// oracle.
    #[test]
    fn vertex_face_far_scaled(q in far_scaled(generic_hit())) {
        prop_assert_eq!(check(&q, true)?, SolverTier::Float);
    }
    #[test]
    fn vertex_face_far_scaled_random(q in far_scaled(query(wide()))) { check(&q, true)?; }
    #[test]
    fn edge_edge_far_scaled_random(q in far_scaled(query(wide()))) { check(&q, false)?; }
    #[test]
    fn vertex_face_rows_crossing(q in rows_crossing()) { check(&q, true)?; }
    #[test]
    fn vertex_face_lines_meeting_on_a_diagonal(q in lines_meeting(true, false)) {
        check(&q, true)?;
    }
    #[test]
    fn edge_edge_lines_meeting_on_a_diagonal(q in lines_meeting(false, false)) {
        check(&q, false)?;
    }
    /// Sliding without turning, features that touch on the diagonal line
    /// do so at an instant the planar tier finds exactly: decided without
    /// the oracle, tilted or not.
    #[test]
    fn vertex_face_sheets_sliding_onto_a_diagonal(q in lines_meeting(true, true)) {
        let (tier, touching) = check_touching(&q, true)?;
        prop_assert!(tier == SolverTier::Float || !touching, "{:?}", q);
    }
    #[test]
    fn edge_edge_sheets_sliding_onto_a_diagonal(q in lines_meeting(false, true)) {
        let (tier, touching) = check_touching(&q, false)?;
        prop_assert!(tier == SolverTier::Float || !touching, "{:?}", q);
    }
    #[test]
    fn edge_edge_sheets_sliding_onto_a_diagonal_in_a_slanted_plane(
        q in slanted(lines_meeting(false, true))
    ) {
        let (tier, touching) = check_touching(&q, false)?;
        prop_assert!(tier == SolverTier::Float || !touching, "{:?}", q);
    }
    #[test]
    fn edge_edge_rows_crossing(q in rows_crossing()) { check(&q, false)?; }
    #[test]
    fn vertex_face_collapsed_triangle(q in parallel_lines(true)) { check(&q, true)?; }
    #[test]
    fn edge_edge_parallel_lines(q in parallel_lines(false)) { check(&q, false)?; }
    #[test]
    fn vertex_face_nearly_collinear(q in nearly_collinear()) { check(&q, true)?; }
    #[test]
    fn edge_edge_nearly_collinear(q in nearly_collinear()) { check(&q, false)?; }

    #[test]
    fn vertex_face_shared_coordinate(q in shared_coordinate()) { check(&q, true)?; }
    #[test]
    fn edge_edge_shared_coordinate(q in shared_coordinate()) { check(&q, false)?; }
    #[test]
    fn vertex_face_noised(q in noised()) { check(&q, true)?; }
    #[test]
    fn edge_edge_noised(q in noised()) { check(&q, false)?; }
    #[test]
    fn edge_edge_nearly_parallel(q in nearly_parallel()) { check(&q, false)?; }
    /// One fixed tilted plane: decided without the oracle.
    #[test]
    fn vertex_face_tilted_coplanar(q in tilted_coplanar()) {
        prop_assert_eq!(check(&q, true)?, SolverTier::Float);
    }
    #[test]
    fn edge_edge_tilted_coplanar(q in tilted_coplanar()) {
        prop_assert_eq!(check(&q, false)?, SolverTier::Float);
    }
    #[test]
    fn vertex_face_flat_sheet_near_a_corner(q in flat_sheet_near_corner()) { check(&q, true)?; }
    #[test]
    fn edge_edge_flat_sheet_near_a_corner(q in flat_sheet_near_corner()) { check(&q, false)?; }
    #[test]
    fn edge_edge_end_to_end(q in end_to_end()) { check(&q, false)?; }
    #[test]
    fn vertex_face_flat_start(q in flat_start()) { check(&q, true)?; }
    #[test]
    fn edge_edge_flat_start(q in flat_start()) { check(&q, false)?; }

    #[test]
    fn generic_contact_is_decided_by_the_fast_path(q in generic_hit()) {
        let path = check(&q, true)?;
        prop_assert_eq!(path, SolverTier::Float);
    }
}
