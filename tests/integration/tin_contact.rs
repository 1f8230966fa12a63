//! Contact classification of moving triangles (Yu, Shen & Chang 2000):
//! hand-built cases for each of the six forms, degeneracies, and the fast
//! path against the brute-force oracle (triangle pairs and small TINs).

use std::cmp::Ordering;

use ccdlab::exact::{Algebraic, Dyadic};
use ccdlab::math::Vec3;
use ccdlab::mesh::{Feature, Step, TriMesh};
use ccdlab::tin_contact::brute_force::{mesh_contacts_brute_force, triangle_pair_brute_force};
use ccdlab::tin_contact::mesh_pair::sub_features;
use ccdlab::tin_contact::{
    Corners, Elementary, Form, MeshContacts, Region, mesh_contacts, triangle_pair,
};
use proptest::prelude::*;

fn v(x: f64, y: f64, z: f64) -> Vec3 {
    Vec3::new(x, y, z)
}

/// B: the fixed triangle (0,0,0), (4,0,0), (0,4,0) in the plane z = 0.
fn floor() -> [Vec3; 3] {
    [v(0.0, 0.0, 0.0), v(4.0, 0.0, 0.0), v(0.0, 4.0, 0.0)]
}

fn shifted(t: &[Vec3; 3], d: Vec3) -> [Vec3; 3] {
    t.map(|p| p + d)
}

/// `Some(x)` when the exact time equals the double `x` (compared exactly).
fn exact_time(t: &Algebraic) -> Option<f64> {
    let mut t = t.clone();
    t.refine_to(f64::EPSILON);
    let x = t.lower_f64();
    (t.compare(&mut Algebraic::exact(Dyadic::from_f64(x))) == Ordering::Equal)
        .then_some(x)
        .or_else(|| {
            let x = t.upper_f64();
            (t.compare(&mut Algebraic::exact(Dyadic::from_f64(x))) == Ordering::Equal).then_some(x)
        })
}

fn close(a: &Vec3, b: &Vec3) -> bool {
    (a - b).norm() < 1e-12
}

/// A falls by 4 along −z over the step (B fixed): contact at t = ½ for
/// A's lowest points at z = 2.
fn falling(a: [Vec3; 3]) -> ccdlab::tin_contact::TriangleContact {
    let b = floor();
    triangle_pair(&a, &shifted(&a, v(0.0, 0.0, -4.0)), &b, &b).expect("contact")
}

#[test]
fn form_c_vertex_face() {
    let c = falling([v(1.0, 1.0, 2.0), v(2.0, 1.0, 3.0), v(1.0, 2.0, 3.0)]);
    assert_eq!(c.form, Form::VertexFace);
    assert_eq!((c.a, c.b), (Corners::vertex(0), Corners::FACE));
    assert_eq!(exact_time(&c.time), Some(0.5));
    assert_eq!(c.time_bounds, [0.5, 0.5]);
    let Region::Point(p) = c.region else {
        panic!("{:?}", c.region)
    };
    assert!(close(&p, &v(1.0, 1.0, 0.0)));
    assert_eq!(
        c.touching.iter().collect::<Vec<_>>(),
        [Elementary::VertexFace(0)]
    );
    assert!(!c.penetrating && !c.degenerate);
}

#[test]
fn form_b_vertex_edge() {
    let c = falling([v(2.0, 0.0, 2.0), v(2.0, -1.0, 3.0), v(3.0, -1.0, 3.0)]);
    assert_eq!(c.form, Form::VertexEdge);
    assert_eq!((c.a, c.b), (Corners::vertex(0), Corners::edge(0)));
    assert!(matches!(c.region, Region::Point(p) if close(&p, &v(2.0, 0.0, 0.0))));
    // The vertex–face pair and the two A edges at the vertex against B's
    // edge 0 all touch there; one contact.
    assert!(c.touching.contains(Elementary::VertexFace(0)));
    assert!(c.touching.contains(Elementary::EdgeEdge(0, 0)));
    assert!(c.touching.contains(Elementary::EdgeEdge(2, 0)));
}

#[test]
fn form_a_vertex_vertex() {
    let c = falling([v(0.0, 0.0, 2.0), v(-1.0, -1.0, 3.0), v(-1.0, 0.0, 3.0)]);
    assert_eq!(c.form, Form::VertexVertex);
    assert_eq!((c.a, c.b), (Corners::vertex(0), Corners::vertex(0)));
    assert!(matches!(c.region, Region::Point(p) if close(&p, &v(0.0, 0.0, 0.0))));
    // B's corner 0 also lies in A: both vertex–face directions touch.
    assert!(c.touching.contains(Elementary::VertexFace(0)));
    assert!(c.touching.contains(Elementary::FaceVertex(0)));
}

#[test]
fn form_d_edge_edge_point() {
    // A in the plane x = 2; its lowest edge (corners 0, 1) slopes up in y,
    // so it reaches z = 0 at y < 0 (beside B) first and meets B's edge 0 at
    // (2, 0, 0) when it has fallen by 2.
    let c = falling([v(2.0, -1.0, 1.0), v(2.0, 1.0, 3.0), v(2.0, -1.0, 4.0)]);
    assert_eq!(c.form, Form::EdgeEdge);
    assert_eq!((c.a, c.b), (Corners::edge(0), Corners::edge(0)));
    assert_eq!(exact_time(&c.time), Some(0.5));
    assert!(matches!(c.region, Region::Point(p) if close(&p, &v(2.0, 0.0, 0.0))));
    assert_eq!(
        c.touching.iter().collect::<Vec<_>>(),
        [Elementary::EdgeEdge(0, 0)]
    );
}

#[test]
fn form_d_edge_edge_collinear_segment() {
    let c = falling([v(-2.0, 0.0, 2.0), v(2.0, 0.0, 2.0), v(0.0, -1.0, 4.0)]);
    assert_eq!(c.form, Form::EdgeEdge);
    assert_eq!((c.a, c.b), (Corners::edge(0), Corners::edge(0)));
    let Region::Segment([p, q]) = c.region else {
        panic!("{:?}", c.region)
    };
    let (lo, hi) = if p.x < q.x { (p, q) } else { (q, p) };
    assert!(close(&lo, &v(0.0, 0.0, 0.0)) && close(&hi, &v(2.0, 0.0, 0.0)));
}

#[test]
fn form_e_edge_face_segment() {
    // A vertical triangle in the plane y = 1 whose bottom edge lands flat in
    // B's interior.
    let c = falling([v(1.0, 1.0, 2.0), v(2.0, 1.0, 2.0), v(1.5, 1.0, 4.0)]);
    assert_eq!(c.form, Form::EdgeFace);
    assert_eq!((c.a, c.b), (Corners::edge(0), Corners::FACE));
    let Region::Segment([p, q]) = c.region else {
        panic!("{:?}", c.region)
    };
    assert!(close(&(p + q), &v(3.0, 2.0, 0.0)) && (p - q).norm() > 0.999);
    // Contained lower forms: the two corners on the face (c); marked.
    assert!(c.touching.contains(Elementary::VertexFace(0)));
    assert!(c.touching.contains(Elementary::VertexFace(1)));
}

#[test]
fn form_e_edge_face_through_a_corner_of_the_face() {
    // Exact coplanar edge–face whose segment runs from B's corner 0 into
    // its interior along the diagonal: carriers stay (edge, face).
    let c = falling([v(-1.0, -1.0, 2.0), v(1.0, 1.0, 2.0), v(0.0, 0.0, 5.0)]);
    assert_eq!(c.form, Form::EdgeFace);
    assert_eq!((c.a, c.b), (Corners::edge(0), Corners::FACE));
    let Region::Segment([p, q]) = c.region else {
        panic!("{:?}", c.region)
    };
    assert!(close(&(p + q), &v(1.0, 1.0, 0.0)));
}

#[test]
fn form_f_face_face_triangle() {
    let c = falling([v(1.0, 1.0, 2.0), v(2.0, 1.0, 2.0), v(1.0, 2.0, 2.0)]);
    assert_eq!(c.form, Form::FaceFace);
    assert_eq!((c.a, c.b), (Corners::FACE, Corners::FACE));
    let Region::Polygon(corners) = &c.region else {
        panic!("{:?}", c.region)
    };
    assert_eq!(corners.len(), 3);
    // All 3 A corners in B: the (e), (d), (abc) forms it contains.
    for i in 0..3 {
        assert!(c.touching.contains(Elementary::VertexFace(i)));
    }
}

#[test]
fn face_face_hexagon() {
    // A star of David: B points up, A points down; they become coplanar at
    // t = ½ and overlap in a hexagon (the paper, §2.4, allows up to five
    // corners).
    let b = [v(0.0, 4.0, 0.0), v(-4.0, -2.0, 0.0), v(4.0, -2.0, 0.0)];
    let a = [v(0.0, -4.0, 2.0), v(4.0, 2.0, 2.0), v(-4.0, 2.0, 2.0)];
    let c = triangle_pair(&a, &shifted(&a, v(0.0, 0.0, -4.0)), &b, &b).unwrap();
    assert_eq!(c.form, Form::FaceFace);
    let Region::Polygon(corners) = &c.region else {
        panic!("{:?}", c.region)
    };
    assert_eq!(corners.len(), 6, "{corners:?}");
    let expect = [
        v(4.0 / 3.0, 2.0, 0.0),
        v(-4.0 / 3.0, 2.0, 0.0),
        v(-8.0 / 3.0, 0.0, 0.0),
        v(-4.0 / 3.0, -2.0, 0.0),
        v(4.0 / 3.0, -2.0, 0.0),
        v(8.0 / 3.0, 0.0, 0.0),
    ];
    for e in &expect {
        assert!(
            corners.iter().any(|p| close(p, e)),
            "{e:?} missing in {corners:?}"
        );
    }
    // Touching: the six edge crossings; no corner of either lies in the other.
    assert_eq!(
        c.touching
            .iter()
            .filter(|e| matches!(e, Elementary::EdgeEdge(..)))
            .count(),
        6
    );
    assert!(
        c.touching
            .iter()
            .all(|e| matches!(e, Elementary::EdgeEdge(..)))
    );
}

#[test]
fn coplanar_motion_vertex_edge_and_collinear_edges() {
    // The whole step in the plane z = 0 (the oracle's coplanar branch).
    let b = floor();
    let a = [v(5.0, 1.0, 0.0), v(7.0, 1.0, 0.0), v(6.0, 2.0, 0.0)];
    let c = triangle_pair(&a, &shifted(&a, v(-4.0, 0.0, 0.0)), &b, &b).unwrap();
    assert_eq!(c.form, Form::VertexEdge);
    assert_eq!((c.a, c.b), (Corners::vertex(0), Corners::edge(1)));
    assert_eq!(exact_time(&c.time), Some(0.5));
    // An edge parallel to B's hypotenuse slides onto it: a segment.
    let a = [v(3.0, 3.0, 0.0), v(5.0, 1.0, 0.0), v(5.0, 3.0, 0.0)];
    let c = triangle_pair(&a, &shifted(&a, v(-2.0, -2.0, 0.0)), &b, &b).unwrap();
    assert_eq!(c.form, Form::EdgeEdge);
    assert_eq!((c.a, c.b), (Corners::edge(0), Corners::edge(1)));
    assert!(matches!(c.region, Region::Segment(_)));
}

#[test]
fn irrational_time_of_impact() {
    // A rotates-by-shear: its corner 0 moves on a line while B's corner 2
    // moves too; the coplanarity cubic has an irrational root. Check that
    // the exact time lies in its bracket and the contact is a vertex–face
    // one found by both methods.
    let b0 = [v(0.0, 0.0, 0.0), v(4.0, 0.0, 0.0), v(0.0, 4.0, 0.0)];
    let b1 = [v(0.0, 0.0, 0.0), v(4.0, 0.0, 1.0), v(0.0, 4.0, -1.0)];
    let a0 = [v(1.0, 1.0, 1.0), v(3.0, 3.0, 3.0), v(1.0, 3.0, 3.0)];
    let a1 = [v(1.5, 1.0, -1.0), v(3.0, 3.0, 3.0), v(1.0, 3.0, 3.0)];
    let c = triangle_pair(&a0, &a1, &b0, &b1).unwrap();
    let o = triangle_pair_brute_force(&a0, &a1, &b0, &b1).unwrap();
    let mut t = c.time.clone();
    assert_eq!(t.compare(&mut o.time.clone()), Ordering::Equal);
    assert!(c.time_bounds[0] <= c.time_bounds[1]);
    assert!(c.time_bounds[1] - c.time_bounds[0] <= f64::EPSILON);
    assert_eq!((c.a, c.b), (o.a, o.b));
    assert_eq!(c.form, Form::VertexFace);
}

#[test]
fn interpenetrating_at_the_start_is_flagged() {
    // A (in the plane x = 1) and B (z = 0) are linked like chain links at
    // t = 0: an edge of each pierces the other; no vertex–face or edge–edge
    // pair touches.
    let b = floor();
    let a = [v(1.0, 1.0, -1.0), v(1.0, 1.0, 1.0), v(1.0, -3.0, 0.0)];
    let c = triangle_pair(&a, &a, &b, &b).unwrap();
    assert!(c.penetrating);
    assert_eq!(exact_time(&c.time), Some(0.0));
    assert!(c.touching.is_empty());
    assert_eq!(c.form, Form::FaceFace);
    let Region::Segment([p, q]) = c.region else {
        panic!("{:?}", c.region)
    };
    assert!(close(&(p + q), &v(2.0, 1.0, 0.0)));
    let o = triangle_pair_brute_force(&a, &a, &b, &b).unwrap();
    assert!(o.penetrating);
    assert_eq!((o.a, o.b), (c.a, c.b));
}

#[test]
fn passing_beside_is_no_contact() {
    let b = floor();
    let a = [v(3.0, 3.0, 2.0), v(4.0, 3.0, 2.0), v(3.0, 4.0, 2.0)];
    assert!(triangle_pair(&a, &shifted(&a, v(0.0, 0.0, -4.0)), &b, &b).is_none());
    assert!(triangle_pair_brute_force(&a, &shifted(&a, v(0.0, 0.0, -4.0)), &b, &b).is_none());
}

#[test]
fn zero_area_triangle_is_flagged_degenerate() {
    // A is a segment (collinear corners) falling flat into B's interior.
    let a = [v(1.0, 1.0, 2.0), v(3.0, 1.0, 2.0), v(2.0, 1.0, 2.0)];
    let c = falling(a);
    assert!(c.degenerate);
    assert!(matches!(c.region, Region::Segment(_)));
    let b = floor();
    let o = triangle_pair_brute_force(&a, &shifted(&a, v(0.0, 0.0, -4.0)), &b, &b).unwrap();
    assert_eq!((c.a, c.b), (o.a, o.b));
}

/// The contact of `(a0, a1, b0, b1)` and of the same scene scaled by `2^k`
/// (an exact scaling): the same classification and time, and the region's
/// points scaled by exactly `2^k`. With `k = ∓340` (coordinates near 10⁻¹⁰²
/// or 10¹⁰²) the degree-4 products of the crossing points and normals
/// underflow or overflow unless the floating-point geometry is rescaled.
fn assert_scale_invariant(a0: [Vec3; 3], a1: [Vec3; 3], b0: [Vec3; 3], b1: [Vec3; 3]) {
    let c = triangle_pair(&a0, &a1, &b0, &b1).expect("contact");
    for k in [-340, -60, 60, 340] {
        let s = 2f64.powi(k);
        let sc = |t: [Vec3; 3]| t.map(|p| p * s);
        let d = triangle_pair(&sc(a0), &sc(a1), &sc(b0), &sc(b1)).expect("scaled contact");
        let mut t = c.time.clone();
        assert_eq!(t.compare(&mut d.time.clone()), Ordering::Equal, "2^{k}");
        assert_eq!(
            (c.a, c.b, c.form, c.penetrating, c.degenerate),
            (d.a, d.b, d.form, d.penetrating, d.degenerate),
            "2^{k}"
        );
        assert_eq!(c.touching, d.touching, "2^{k}");
        assert_eq!(c.region.dimension(), d.region.dimension(), "2^{k}");
        let want: Vec<Vec3> = c.region.points().iter().map(|p| p * s).collect();
        assert_eq!(d.region.points(), &want[..], "2^{k}");
    }
}

#[test]
fn contacts_of_tiny_and_huge_scenes_are_the_scaled_contacts() {
    // Each form that computes points: an edge–edge crossing, an edge–face
    // segment, the face–face hexagon (crossings and a hull), edges
    // piercing a face at the start.
    let b = floor();
    let fall = |a: [Vec3; 3]| (a, shifted(&a, v(0.0, 0.0, -4.0)));
    let (a0, a1) = fall([v(2.0, -1.0, 1.0), v(2.0, 1.0, 3.0), v(2.0, -1.0, 4.0)]);
    assert_scale_invariant(a0, a1, b, b);
    let (a0, a1) = fall([v(1.0, 1.0, 2.0), v(2.0, 1.0, 2.0), v(1.5, 1.0, 4.0)]);
    assert_scale_invariant(a0, a1, b, b);
    let star = [v(0.0, 4.0, 0.0), v(-4.0, -2.0, 0.0), v(4.0, -2.0, 0.0)];
    let (a0, a1) = fall([v(0.0, -4.0, 2.0), v(4.0, 2.0, 2.0), v(-4.0, 2.0, 2.0)]);
    assert_scale_invariant(a0, a1, star, star);
    let a = [v(1.0, 1.0, -1.0), v(1.0, 1.0, 1.0), v(1.0, -3.0, 0.0)];
    assert_scale_invariant(a, a, b, b);
}

// ------------------------------------------------------------ meshes

fn grid_mesh(n: usize, h: impl Fn(usize, usize) -> f64) -> (TriMesh, Vec<Vec3>) {
    let mut pos = Vec::new();
    for i in 0..=n {
        for j in 0..=n {
            pos.push(v(j as f64, i as f64, h(i, j)));
        }
    }
    let id = |i: usize, j: usize| (i * (n + 1) + j) as u32;
    let mut faces = Vec::new();
    for i in 0..n {
        for j in 0..n {
            faces.push([id(i, j), id(i, j + 1), id(i + 1, j)]);
            faces.push([id(i + 1, j + 1), id(i + 1, j), id(i, j + 1)]);
        }
    }
    (TriMesh::new(pos.len(), faces).unwrap(), pos)
}

/// A square pyramid with apex down at `apex`, base 1 × 1 one unit above.
fn pyramid(apex: Vec3) -> (TriMesh, Vec<Vec3>) {
    let pos = vec![
        apex,
        apex + v(-0.5, -0.5, 1.0),
        apex + v(0.5, -0.5, 1.0),
        apex + v(0.5, 0.5, 1.0),
        apex + v(-0.5, 0.5, 1.0),
    ];
    let faces = vec![
        [0, 2, 1],
        [0, 3, 2],
        [0, 4, 3],
        [0, 1, 4],
        [1, 2, 3],
        [1, 3, 4],
    ];
    (TriMesh::new(5, faces).unwrap(), pos)
}

fn check_against_oracle(a: &Step<'_>, b: &Step<'_>) -> MeshContacts {
    let fast = mesh_contacts(a, b);
    let slow = mesh_contacts_brute_force(a, b);
    // Same reported contacts (carriers), at exactly the same times.
    let mut got: Vec<(Feature, Feature)> = fast.contacts.iter().map(|c| (c.a, c.b)).collect();
    got.sort();
    let want: Vec<(Feature, Feature)> = slow.contacts.iter().map(|c| (c.a, c.b)).collect();
    assert_eq!(got, want, "reported carrier pairs");
    for c in &fast.contacts {
        let o = slow
            .contacts
            .iter()
            .find(|o| (o.a, o.b) == (c.a, c.b))
            .unwrap();
        assert_eq!(c.time.clone().compare(&mut o.time.clone()), Ordering::Equal);
    }
    // Each elementary contact covered exactly once, and exactly the oracle's.
    let mut covered: Vec<_> = fast
        .contacts
        .iter()
        .flat_map(|c| c.covers.iter().copied())
        .collect();
    let n = covered.len();
    covered.sort();
    covered.dedup();
    assert_eq!(covered.len(), n, "an elementary contact is covered twice");
    assert_eq!(covered, slow.elementary.iter().copied().collect::<Vec<_>>());
    // No contact reported twice, none contained in another at the same time.
    for (i, c) in fast.contacts.iter().enumerate() {
        for d in &fast.contacts[i + 1..] {
            assert_ne!((c.a, c.b), (d.a, d.b));
            let nested = |x: &ccdlab::tin_contact::MeshContact,
                          y: &ccdlab::tin_contact::MeshContact| {
                sub_features(a.mesh(), y.a).contains(&x.a)
                    && sub_features(b.mesh(), y.b).contains(&x.b)
            };
            if nested(c, d) || nested(d, c) {
                assert_ne!(c.time.clone().compare(&mut d.time.clone()), Ordering::Equal);
            }
        }
    }
    fast
}

#[test]
fn pyramid_apex_on_a_grid_vertex_is_one_vertex_vertex_contact() {
    let (tm, tp) = grid_mesh(2, |_, _| 0.0);
    // The apex reaches the grid vertex (1, 1, 0) at t = 1, the end of the
    // step: nothing else touches.
    let (pm, p0) = pyramid(v(1.0, 1.0, 1.0));
    let p1: Vec<Vec3> = p0.iter().map(|p| p + v(0.0, 0.0, -1.0)).collect();
    let a = Step::new(&pm, &p0, &p1).unwrap();
    let b = Step::new(&tm, &tp, &tp).unwrap();
    let r = check_against_oracle(&a, &b);
    assert_eq!(r.contacts.len(), 1, "{:#?}", r.contacts);
    let c = &r.contacts[0];
    assert_eq!(c.form, Form::VertexVertex);
    assert_eq!((c.a, c.b), (Feature::Vertex(0), Feature::Vertex(4)));
    // Found by every face pair around the apex and the grid vertex: 4 × 6.
    assert_eq!(c.face_pairs.len(), 24);
    assert_eq!(r.first().len(), 1);
    assert_eq!(exact_time(&c.time), Some(1.0));
}

#[test]
fn flat_square_landing_on_flat_terrain_reports_face_face_only() {
    // A 1 × 1 square (two triangles) at z = 1 drops flat onto a 2 × 2 grid
    // whose cell (0, 0) it matches triangle for triangle: only the two
    // face–face contacts remain; the edge–edge and vertex contacts with the
    // neighbouring grid triangles, and the diagonal's, are contained in them
    // and marked.
    let (tm, tp) = grid_mesh(2, |_, _| 0.0);
    let (sm, s0) = grid_mesh(1, |_, _| 1.0);
    let s1: Vec<Vec3> = s0.iter().map(|p| p + v(0.0, 0.0, -2.0)).collect();
    let a = Step::new(&sm, &s0, &s1).unwrap();
    let b = Step::new(&tm, &tp, &tp).unwrap();
    let r = check_against_oracle(&a, &b);
    assert_eq!(r.contacts.len(), 2, "{:#?}", r.contacts);
    assert!(
        r.contacts.iter().all(|c| c.form == Form::FaceFace),
        "{:#?}",
        r.contacts
    );
    assert!(r.contacts.iter().all(|c| c.region.points().len() == 3));
    assert!(r.stats.marked > 0);
    assert!(r.contacts.iter().any(|c| !c.contains.is_empty()));
    assert_eq!(r.first().len(), r.contacts.len());
    let t = Algebraic::exact(Dyadic::new(1.into(), 1));
    assert!(
        r.contacts
            .iter()
            .all(|c| c.time.clone().compare(&mut t.clone()) == Ordering::Equal)
    );
}

// ------------------------------------------------------------ oracle

/// Small integer coordinates, so that touching, coplanar and parallel
/// configurations are frequent.
fn small_point() -> impl Strategy<Value = Vec3> {
    (-3i32..=3, -3i32..=3, -3i32..=3).prop_map(|(x, y, z)| v(x as f64, y as f64, z as f64))
}

/// A triangle of small integer points; one in three lies in a horizontal
/// plane and one in three in a vertical one, so that coplanar, edge-in-plane
/// and parallel configurations (face–face, edge–face, collinear edges) occur
/// often.
fn small_triangle() -> impl Strategy<Value = [Vec3; 3]> {
    let general = [small_point(), small_point(), small_point()];
    let horizontal = ([small_point(), small_point(), small_point()], -3i32..=3)
        .prop_map(|(t, z)| t.map(|p| v(p.x, p.y, z as f64)));
    let vertical = ([small_point(), small_point(), small_point()], -3i32..=3)
        .prop_map(|(t, x)| t.map(|p| v(x as f64, p.y, p.z)));
    prop_oneof![general, horizontal, vertical]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Scaling a scene by a power of two (exact) changes nothing but the
    /// region's coordinates, which scale exactly: the classification is
    /// exact, and the floating-point geometry runs on the scene brought to
    /// unit size either way.
    #[test]
    fn triangle_pair_is_invariant_under_power_of_two_scaling(
        a0 in small_triangle(), a1 in small_triangle(),
        b0 in small_triangle(), b1 in small_triangle(),
        k in -800i32..=800,
    ) {
        let s = 2f64.powi(k);
        let sc = |t: [Vec3; 3]| t.map(|p| p * s);
        let c = triangle_pair(&a0, &a1, &b0, &b1);
        let d = triangle_pair(&sc(a0), &sc(a1), &sc(b0), &sc(b1));
        prop_assert_eq!(c.is_some(), d.is_some());
        if let (Some(c), Some(d)) = (c, d) {
            let mut t = c.time.clone();
            prop_assert_eq!(t.compare(&mut d.time.clone()), Ordering::Equal);
            prop_assert_eq!(
                (c.a, c.b, c.form, c.penetrating, c.degenerate),
                (d.a, d.b, d.form, d.penetrating, d.degenerate)
            );
            prop_assert_eq!(c.touching, d.touching);
            let want: Vec<Vec3> = c.region.points().iter().map(|p| p * s).collect();
            prop_assert_eq!(d.region.points(), &want[..]);
            prop_assert!(d.region.points().iter().all(|p| p.iter().all(|x| x.is_finite())));
        }
    }

    /// The fast classification of a triangle pair equals the oracle's: time,
    /// carriers, touching elementary pairs, penetration.
    #[test]
    fn triangle_pair_matches_brute_force(
        a0 in small_triangle(), a1 in small_triangle(),
        b0 in small_triangle(), b1 in small_triangle(),
        half in proptest::bool::ANY,
    ) {
        // Half the cases with B fixed and A translated (rigid motion).
        let (a1, b1) = if half { (shifted(&a0, a1[0] - a0[0]), b0) } else { (a1, b1) };
        let fast = triangle_pair(&a0, &a1, &b0, &b1);
        let slow = triangle_pair_brute_force(&a0, &a1, &b0, &b1);
        prop_assert_eq!(fast.is_some(), slow.is_some());
        if let (Some(f), Some(s)) = (fast, slow) {
            prop_assert_eq!(f.time.clone().compare(&mut s.time.clone()), Ordering::Equal);
            prop_assert_eq!((f.a, f.b), (s.a, s.b));
            prop_assert_eq!(f.touching, s.touching);
            prop_assert_eq!(f.penetrating, s.penetrating);
            prop_assert_eq!(f.form, Form::of(s.a.kind(), s.b.kind()));
        }
    }
}

/// A small TIN: the 2 × 2 grid with integer heights in `-1..=1`.
fn small_terrain() -> impl Strategy<Value = Vec<i32>> {
    proptest::collection::vec(-1i32..=1, 9)
}

/// A small object: a fan of three triangles around a centre, integer
/// coordinates, translated by an integer vector over the step.
fn small_object() -> impl Strategy<Value = (Vec<Vec3>, Vec3)> {
    let flat = (proptest::collection::vec(small_point(), 4), -2i32..=3).prop_map(|(p, z)| {
        p.into_iter()
            .map(|q| v(q.x, q.y, z as f64))
            .collect::<Vec<_>>()
    });
    let pts = prop_oneof![proptest::collection::vec(small_point(), 4), flat];
    let vertical_drop = (-4i32..=0).prop_map(|z| v(0.0, 0.0, z as f64));
    (pts, prop_oneof![small_point(), vertical_drop])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// On random small TIN pairs the reported contacts are exactly the
    /// oracle's maximal ones, every elementary contact is covered exactly
    /// once, and no contact is reported twice.
    #[test]
    fn mesh_contacts_match_brute_force((pts, d) in small_object(), h in small_terrain()) {
        let (tm, tp) = grid_mesh(2, |i, j| h[i * 3 + j] as f64 - 1.0);
        let tp: Vec<Vec3> = tp.iter().map(|p| p - v(1.0, 1.0, 0.0)).collect();
        let faces = vec![[0, 1, 2], [0, 2, 3], [0, 3, 1]];
        let om = TriMesh::new(4, faces).unwrap();
        let o1: Vec<Vec3> = pts.iter().map(|p| p + d).collect();
        let a = Step::new(&om, &pts, &o1).unwrap();
        let b = Step::new(&tm, &tp, &tp).unwrap();
        check_against_oracle(&a, &b);
    }
}
