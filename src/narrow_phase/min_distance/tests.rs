//! The minimum-separation solvers against the exact oracle: the verdicts
//! agree exactly, and the solvers' bracket contains the oracle's earliest
//! time, on random queries and on the families that stress the fast path's
//! certificates (exact touching at distance `d` in each region, parallel and
//! collinear edges, coplanar motion, degenerate triangles, tiny and huge
//! `d`); `d = 0` is the contact solvers bit for bit; hits are monotone in `d`.

use std::cmp::Ordering;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use super::{
    LOOSE_MARGIN, WithinVerdict, edge_edge_within_traced, edge_edge_within_verdict_with,
    vertex_face_within_traced, vertex_face_within_verdict_with,
};
use crate::exact::{Algebraic, Dyadic};
use crate::math::Vec3;
use crate::narrow_phase::toi::{SolverTier, Toi};
use crate::narrow_phase::{edge_edge_traced, oracle, vertex_face_traced};

/// Eight points in data set row order.
type Query = [Vec3; 8];

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    VertexFace,
    EdgeEdge,
}

fn solve(kind: Kind, q: &Query, d: f64) -> (Option<Toi>, SolverTier) {
    let f = match kind {
        Kind::VertexFace => vertex_face_within_traced,
        Kind::EdgeEdge => edge_edge_within_traced,
    };
    f(&q[0], &q[1], &q[2], &q[3], &q[4], &q[5], &q[6], &q[7], d)
}

fn exact(kind: Kind, q: &Query, d: f64) -> Option<Algebraic> {
    let f = match kind {
        Kind::VertexFace => oracle::vertex_face_within,
        Kind::EdgeEdge => oracle::edge_edge_within,
    };
    f(&q[0], &q[1], &q[2], &q[3], &q[4], &q[5], &q[6], &q[7], d)
}

/// `x` against the algebraic `t`, exactly.
fn compare(x: f64, t: &mut Algebraic) -> Ordering {
    Algebraic::exact(Dyadic::from_f64(x)).compare(t)
}

/// The solver agrees with the oracle: same verdict, and its bracket holds
/// the exact earliest time. Returns the solver's answer and path.
fn agrees(kind: Kind, q: &Query, d: f64) -> Result<(Option<Toi>, SolverTier), TestCaseError> {
    let (fast, path) = solve(kind, q, d);
    match (fast, exact(kind, q, d)) {
        (None, None) => {}
        (Some(toi), Some(mut t)) => {
            prop_assert!(toi.lower <= toi.upper, "{toi:?}");
            // The fast path's brackets are at most 2⁻³⁰ wide, the exact
            // path's 2⁻⁴⁰.
            let widest = if path == SolverTier::Float {
                2f64.powi(-30)
            } else {
                2f64.powi(-40)
            };
            prop_assert!(toi.upper - toi.lower <= widest, "{toi:?} ({path:?})");
            prop_assert!(
                compare(toi.lower, &mut t) != Ordering::Greater,
                "late lower bound {toi:?} ({path:?}), exact {t:?}; {kind:?} {q:?} d = {d:e}"
            );
            prop_assert!(
                compare(toi.upper, &mut t) != Ordering::Less,
                "early upper bound {toi:?} ({path:?}), exact {t:?}; {kind:?} {q:?} d = {d:e}"
            );
            // Time zero exactly when the features start within d.
            if toi.upper == 0.0 || compare(0.0, &mut t) == Ordering::Equal {
                prop_assert_eq!(toi, Toi::exact(0.0));
            }
        }
        (fast, t) => {
            prop_assert!(
                false,
                "verdicts differ: {fast:?} ({path:?}) vs exact {t:?}; {kind:?} {q:?} d = {d:e}"
            );
        }
    }
    verdict_agrees(kind, q, d, fast)?;
    Ok((fast, path))
}

/// The verdict with a loose bracket ([`WithinVerdict`]) against the tight
/// solver's answer `tight`: a tight verdict is that answer; a loose one is
/// a hit whose bracket holds the exact earliest time and whose lower end
/// the tight bracket's lower end undercuts by less than
/// `LOOSE_MARGIN − 2⁻³⁰` (what the pipeline's narrowing relies on).
fn verdict_agrees(kind: Kind, q: &Query, d: f64, tight: Option<Toi>) -> Result<(), TestCaseError> {
    let f = match kind {
        Kind::VertexFace => vertex_face_within_verdict_with,
        Kind::EdgeEdge => edge_edge_within_verdict_with,
    };
    let (verdict, _) = f(
        &q[0], &q[1], &q[2], &q[3], &q[4], &q[5], &q[6], &q[7], d, true,
    );
    match verdict {
        WithinVerdict::Tight(toi) => prop_assert_eq!(toi, tight, "{:?} {:?} d = {:e}", kind, q, d),
        WithinVerdict::Loose(toi) => {
            let Some(tight) = tight else {
                return Err(TestCaseError::fail(format!(
                    "loose hit {toi:?}, no hit; {kind:?} {q:?} d = {d:e}"
                )));
            };
            let mut t = exact(kind, q, d).expect("a hit");
            prop_assert!(
                compare(toi.lower, &mut t) != Ordering::Greater,
                "late loose lower {toi:?}, exact {t:?}"
            );
            prop_assert!(
                compare(toi.upper, &mut t) != Ordering::Less,
                "early loose upper {toi:?}, exact {t:?}"
            );
            prop_assert!(
                tight.lower >= toi.lower - (LOOSE_MARGIN - 2f64.powi(-30)),
                "tight {tight:?} far below loose {toi:?}; {kind:?} {q:?} d = {d:e}"
            );
        }
    }
    Ok(())
}

fn kind() -> impl Strategy<Value = Kind> {
    prop_oneof![Just(Kind::VertexFace), Just(Kind::EdgeEdge)]
}

/// A coordinate: a multiple of 1/64 in [−2, 2] (exact sums and products).
fn grid() -> impl Strategy<Value = f64> {
    (-128i32..=128).prop_map(|n| n as f64 / 64.0)
}

fn grid_point() -> impl Strategy<Value = Vec3> {
    [grid(), grid(), grid()].prop_map(|[x, y, z]| Vec3::new(x, y, z))
}

/// A coordinate: an arbitrary double in [−1, 1].
fn real() -> impl Strategy<Value = f64> {
    -1.0f64..1.0
}

fn real_point() -> impl Strategy<Value = Vec3> {
    [real(), real(), real()].prop_map(|[x, y, z]| Vec3::new(x, y, z))
}

fn query<S: Strategy<Value = Vec3>>(point: impl Fn() -> S) -> impl Strategy<Value = Query> {
    std::array::from_fn::<S, 8, _>(|_| point())
}

/// A distance: from tiny against the coordinates to large.
fn distance() -> impl Strategy<Value = f64> {
    prop_oneof![
        0.0f64..0.5,
        (1i32..=64).prop_map(|n| n as f64 / 64.0),
        (1e-12f64..1e-3),
    ]
    .prop_filter("positive", |d| *d > 0.0)
}

/// The same translation, linear in time, added to every point: keeps the
/// configuration's relative motion and the exactness of grid coordinates.
fn translated(mut q: Query, shift0: Vec3, shift1: Vec3) -> Query {
    for p in &mut q[..4] {
        *p += shift0;
    }
    for p in &mut q[4..] {
        *p += shift1;
    }
    q
}

/// Vertex–face, vertex `(x, y, h)` over the triangle `a b c` in `z = 0`:
/// `h(t)` linear from `h0` to `h1`.
fn over_plane(a: Vec3, b: Vec3, c: Vec3, p0: Vec3, p1: Vec3) -> Query {
    [p0, a, b, c, p1, a, b, c]
}

fn flat(x: f64, y: f64) -> Vec3 {
    Vec3::new(x, y, 0.0)
}

/// A scale for the exact-touching families: `k = 2^e`.
fn scale() -> impl Strategy<Value = f64> {
    (-6i32..=6).prop_map(|e| 2f64.powi(e))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn random_queries_agree(kind in kind(), q in query(real_point), d in distance()) {
        agrees(kind, &q, d)?;
    }

    #[test]
    fn random_grid_queries_agree(kind in kind(), q in query(grid_point), d in distance()) {
        agrees(kind, &q, d)?;
    }

    /// The vertex at height exactly `d` over the face at some time: it
    /// glides (constant height), leaves or arrives.
    #[test]
    fn touching_over_the_face(
        [ax, ay, bx, by, cx, cy] in [grid(), grid(), grid(), grid(), grid(), grid()],
        [x0, y0, x1, y1] in [grid(), grid(), grid(), grid()],
        k in scale(),
        heights in prop_oneof![Just((1.0, 1.0)), Just((1.0, 3.0)), Just((3.0, 1.0)), Just((2.0, 1.0))],
        s0 in grid_point(), s1 in grid_point(),
    ) {
        let d = k;
        let (h0, h1) = heights;
        let q = over_plane(
            flat(ax, ay),
            flat(bx, by),
            flat(cx, cy),
            Vec3::new(x0, y0, h0 * d),
            Vec3::new(x1, y1, h1 * d),
        );
        agrees(Kind::VertexFace, &translated(q, s0, s1), d)?;
    }

    /// The vertex passes an edge at distance exactly `5k` (a 3-4-5 offset,
    /// outside the face region), gliding along it.
    #[test]
    fn touching_an_edge(
        [xa, xb, x0, x1] in [grid(), grid(), grid(), grid()],
        cx in grid(),
        cy in (1i32..=128).prop_map(|n| n as f64 / 64.0),
        k in scale(),
        s0 in grid_point(), s1 in grid_point(),
    ) {
        let q = over_plane(
            flat(xa, 0.0),
            flat(xb, 0.0),
            flat(cx, cy),
            Vec3::new(x0, -3.0 * k, 4.0 * k),
            Vec3::new(x1, -3.0 * k, 4.0 * k),
        );
        agrees(Kind::VertexFace, &translated(q, s0, s1), 5.0 * k)?;
    }

    /// The vertex crosses the sphere of radius `5k` around corner `a` at one
    /// instant, in `a`'s vertex region (the triangle in the first quadrant).
    #[test]
    fn touching_a_corner(
        [bx, by, cx, cy] in [0i32..=128, 0i32..=128, 0i32..=128, 0i32..=128]
            .prop_map(|c| c.map(|n| n as f64 / 64.0)),
        [z0, z1] in [grid(), grid()],
        k in scale(),
        s0 in grid_point(), s1 in grid_point(),
    ) {
        let q = over_plane(
            flat(0.0, 0.0),
            flat(bx, by),
            flat(cx, cy),
            Vec3::new(-3.0 * k, -4.0 * k, z0),
            Vec3::new(-3.0 * k, -4.0 * k, z1),
        );
        agrees(Kind::VertexFace, &translated(q, s0, s1), 5.0 * k)?;
    }

    /// Skew edges, one above the other, the upper at height exactly `d` at
    /// one end of the step or throughout.
    #[test]
    fn touching_skew_edges(
        [xa0, xa1, yb0, yb1, xb, ya] in [grid(), grid(), grid(), grid(), grid(), grid()],
        k in scale(),
        heights in prop_oneof![Just((1.0, 1.0)), Just((1.0, 3.0)), Just((3.0, 1.0))],
        s0 in grid_point(), s1 in grid_point(),
    ) {
        let d = k;
        let (h0, h1) = heights;
        let (a0, a1) = (Vec3::new(xa0, ya, 0.0), Vec3::new(xa1, ya, 0.0));
        let q = [
            a0, a1, Vec3::new(xb, yb0, h0 * d), Vec3::new(xb, yb1, h0 * d),
            a0, a1, Vec3::new(xb, yb0, h1 * d), Vec3::new(xb, yb1, h1 * d),
        ];
        agrees(Kind::EdgeEdge, &translated(q, s0, s1), d)?;
    }

    /// Parallel edges at distance exactly `5k` (3-4-5 offset), sliding
    /// along each other; and collinear edges approaching end to end.
    #[test]
    fn parallel_and_collinear_edges(
        [xa0, xa1, xb0, xb1, xc0, _] in [grid(), grid(), grid(), grid(), grid(), grid()],
        k in scale(),
        collinear in any::<bool>(),
        d in distance(),
        s0 in grid_point(), s1 in grid_point(),
    ) {
        let (oy, oz, d) = if collinear { (0.0, 0.0, d) } else { (3.0 * k, 4.0 * k, 5.0 * k) };
        let (a0, a1) = (Vec3::new(xa0, 0.0, 0.0), Vec3::new(xa1, 0.0, 0.0));
        let b = |x: f64| Vec3::new(x, oy, oz);
        let q = [a0, a1, b(xb0), b(xb0 + xb1), a0, a1, b(xc0), b(xc0 + xb1)];
        agrees(Kind::EdgeEdge, &translated(q, s0, s1), d)?;
    }

    /// Every point in the plane `z = 0` at both times.
    #[test]
    fn coplanar_motion(
        kind in kind(),
        xy in [[grid(), grid()], [grid(), grid()], [grid(), grid()], [grid(), grid()],
               [grid(), grid()], [grid(), grid()], [grid(), grid()], [grid(), grid()]],
        d in distance(),
    ) {
        let q: Query = xy.map(|[x, y]| flat(x, y));
        agrees(kind, &q, d)?;
    }

    /// The triangle's third corner at the midpoint of the other two (or on
    /// the first) at both times.
    #[test]
    fn degenerate_triangles(
        [p0, a0, b0, p1, a1, b1] in [grid_point(), grid_point(), grid_point(), grid_point(), grid_point(), grid_point()],
        on_a in any::<bool>(),
        d in distance(),
    ) {
        let third = |a: Vec3, b: Vec3| if on_a { a } else { (a + b) * 0.5 };
        let q = [p0, a0, b0, third(a0, b0), p1, a1, b1, third(a1, b1)];
        agrees(Kind::VertexFace, &q, d)?;
    }

    /// `d = 0` (and `−0`) is the contact solver, bit for bit and path for path.
    #[test]
    fn zero_is_contact(kind in kind(), q in query(grid_point), negative in any::<bool>()) {
        let d = if negative { -0.0 } else { 0.0 };
        let contact = match kind {
            Kind::VertexFace => vertex_face_traced(&q[0], &q[1], &q[2], &q[3], &q[4], &q[5], &q[6], &q[7]),
            Kind::EdgeEdge => edge_edge_traced(&q[0], &q[1], &q[2], &q[3], &q[4], &q[5], &q[6], &q[7]),
        };
        let within = solve(kind, &q, d);
        prop_assert_eq!(
            within.0.map(|t| (t.lower.to_bits(), t.upper.to_bits())),
            contact.0.map(|t| (t.lower.to_bits(), t.upper.to_bits()))
        );
        prop_assert_eq!(within.1, contact.1);
    }

    /// A `d` far beyond the features' extent: within at the start.
    #[test]
    fn huge_distances(kind in kind(), q in query(real_point), e in 2i32..=300) {
        let d = 2f64.powi(e);
        let (toi, _) = agrees(kind, &q, d)?;
        prop_assert_eq!(toi, Some(Toi::exact(0.0)));
    }

    /// Subnormal and tiny `d`: outside the fast path's range for inclusion.
    #[test]
    fn tiny_distances(
        kind in kind(),
        q in query(grid_point),
        d in prop_oneof![Just(f64::from_bits(1)), Just(1e-310), Just(f64::MIN_POSITIVE), Just(1e-200)],
    ) {
        agrees(kind, &q, d)?;
    }

    /// A hit at `d` is a hit at every `d' > d`, no later.
    #[test]
    fn monotone_in_d(kind in kind(), q in query(real_point), d in distance(), factor in 1.0f64..4.0) {
        let larger = d * factor;
        let (small, small_path) = solve(kind, &q, d);
        let (large, large_path) = solve(kind, &q, larger);
        if let Some(small) = small {
            let large = large.expect("a hit at d is a hit at a larger d");
            // Never after the smaller distance's bracket; on the fast path's
            // common grid of brackets, not after its lower end either.
            prop_assert!(large.lower <= small.upper, "{large:?} after {small:?}");
            if small_path == SolverTier::Float && large_path == SolverTier::Float {
                prop_assert!(large.lower <= small.lower, "{large:?} after {small:?}");
            }
        }
        if let (Some(mut s), Some(mut l)) = (exact(kind, &q, d), exact(kind, &q, larger)) {
            prop_assert!(l.compare(&mut s) != Ordering::Greater);
        }
    }
}

/// The contract for non-finite and negative `d`, both kinds.
#[test]
fn the_contract_for_d() {
    let v = Vec3::new;
    let q = [
        v(0.25, 0.25, 1.0),
        v(0.0, 0.0, 0.0),
        v(1.0, 0.0, 0.0),
        v(0.0, 1.0, 0.0),
        v(0.25, 0.25, -1.0),
        v(0.0, 0.0, 0.0),
        v(1.0, 0.0, 0.0),
        v(0.0, 1.0, 0.0),
    ];
    for kind in [Kind::VertexFace, Kind::EdgeEdge] {
        for d in [-1.0, f64::NAN, f64::NEG_INFINITY, -f64::MIN_POSITIVE] {
            assert_eq!(solve(kind, &q, d).0, None);
        }
        assert_eq!(solve(kind, &q, f64::INFINITY).0, Some(Toi::exact(0.0)));
    }
    // The vertex falls through the face: within ¼ at height ¼, t = 3/8.
    let (toi, path) = solve(Kind::VertexFace, &q, 0.25);
    let toi = toi.unwrap();
    assert_eq!(path, SolverTier::Float);
    assert!(toi.lower <= 0.375 && 0.375 <= toi.upper && toi.upper - toi.lower <= 2e-12);
}

/// A deterministic sample of random queries: how many the fast path decides
/// (printed; the notes quote it), and a floor well under that.
#[test]
fn the_fast_path_decides_most_random_queries() {
    // A small xorshift generator, fixed seed.
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    for kind in [Kind::VertexFace, Kind::EdgeEdge] {
        let (mut filtered, mut hits, mut n) = (0, 0, 0);
        for _ in 0..400 {
            let q: Query = std::array::from_fn(|_| Vec3::new(next(), next(), next()));
            let d = 0.1 * (next() + 1.0);
            let (toi, path) = solve(kind, &q, d);
            n += 1;
            filtered += (path == SolverTier::Float) as u32;
            hits += toi.is_some() as u32;
        }
        println!("{kind:?}: {filtered}/{n} decided by the fast path, {hits} hits");
        assert!(filtered * 10 >= n * 9, "{kind:?}: {filtered}/{n}");
    }
}
