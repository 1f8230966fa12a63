//! A mesh's static intersections (`pipeline::intersections`): two triangles
//! crossing like an X, a vertex on a face, a rod through a sheet; and on
//! random meshes over a small integer grid (full of crossings, touchings
//! and coplanar faces), the crossing edges equal those of every
//! edge–face pair decided by Cramer's rule in integers, and the touching
//! pairs those of the exact oracle at distance 0.

use std::collections::BTreeSet;

use ccdlab::math::Vec3;
use ccdlab::mesh::{Step, TriMesh};
use std::sync::atomic::AtomicBool;

use ccdlab::pipeline::{PipelineError, has_intersections, intersections, intersections_with};
use proptest::prelude::*;

use super::pipeline::{keys, oracle_collisions_within};
use crate::common::{any_edge, any_face, without_repeated_faces};

fn v(x: f64, y: f64, z: f64) -> Vec3 {
    Vec3::new(x, y, z)
}

#[test]
fn crossing_touching_and_apart() {
    // Triangle 0 in z = 0; triangle 1 upright in the plane x = y through
    // its interior: its edge 3–4 from z = 1 to z = −1 crosses triangle 0 at
    // (0.25, 0.25, 0), and triangle 0's edge 1–2 crosses triangle 1 at
    // (0.5, 0.5, 0).
    let mut x = vec![
        v(0.0, 0.0, 0.0),
        v(1.0, 0.0, 0.0),
        v(0.0, 1.0, 0.0),
        v(0.25, 0.25, 1.0),
        v(0.25, 0.25, -1.0),
        v(3.0, 3.0, 0.0),
    ];
    let mesh = TriMesh::new(6, vec![[0, 1, 2], [3, 4, 5]]).unwrap();
    let found = intersections(&mesh, &x).unwrap();
    let (upright, flat) = (mesh.find_edge(3, 4).unwrap(), mesh.find_edge(1, 2).unwrap());
    assert!(flat < upright);
    assert_eq!(found.crossing, vec![[flat, 1], [upright, 0]]);
    assert!(found.touching.is_empty());
    assert!(has_intersections(&mesh, &x, None).unwrap());
    // Vertex 4 on the face instead (triangle 1 now above z = 0): touching
    // (vertex–face), no crossing.
    x[4] = v(0.25, 0.25, 0.0);
    let found = intersections(&mesh, &x).unwrap();
    assert!(found.crossing.is_empty());
    let vf: Vec<_> = found
        .touching
        .iter()
        .filter_map(|p| p.vertex_face(&mesh))
        .collect();
    assert_eq!(vf, vec![(4, 0)]);
    assert!(found.touching.iter().all(|p| p.toi_lower == 0.0));
    assert!(has_intersections(&mesh, &x, None).unwrap());
    // Lifted off: free.
    x[4].z = 0.5;
    assert!(intersections(&mesh, &x).unwrap().is_empty());
    assert!(!has_intersections(&mesh, &x, None).unwrap());
    // A rod (edge 6–7, in no face) through the triangle.
    let mut x = x.clone();
    x.extend([v(0.1, 0.2, -1.0), v(0.1, 0.2, 1.0)]);
    let rods = TriMesh::with_edges(8, vec![[0, 1, 2], [3, 4, 5]], &[[6, 7]]).unwrap();
    let rod = rods.find_edge(6, 7).unwrap();
    assert_eq!(intersections(&rods, &x).unwrap().crossing, vec![[rod, 0]]);
    // Bad positions are refused; a set flag cancels.
    assert!(matches!(
        intersections(&mesh, &x[..5]),
        Err(PipelineError::Frames(_))
    ));
    let stop = AtomicBool::new(true);
    assert!(matches!(
        intersections_with(&rods, &x, true, Some(&stop)),
        Err(PipelineError::Cancelled)
    ));
    assert!(matches!(
        has_intersections(&rods, &x, Some(&stop)),
        Err(PipelineError::Cancelled)
    ));
}

/// Whether segment `p q` crosses the relative interior of triangle `a b c`
/// transversally, by Cramer's rule on `p + s (q − p) = a + u (b − a) + w (c −
/// a)` in integers: a non-zero determinant (not parallel), and `0 < s < 1`,
/// `u, w > 0`, `u + w < 1` strictly.
fn crosses_by_cramer(p: [i64; 3], q: [i64; 3], a: [i64; 3], b: [i64; 3], c: [i64; 3]) -> bool {
    let sub = |x: [i64; 3], y: [i64; 3]| [x[0] - y[0], x[1] - y[1], x[2] - y[2]];
    let det = |c0: [i64; 3], c1: [i64; 3], c2: [i64; 3]| -> i128 {
        let m = |i: usize, col: [i64; 3]| col[i] as i128;
        m(0, c0) * (m(1, c1) * m(2, c2) - m(2, c1) * m(1, c2))
            - m(0, c1) * (m(1, c0) * m(2, c2) - m(2, c0) * m(1, c2))
            + m(0, c2) * (m(1, c0) * m(2, c1) - m(2, c0) * m(1, c1))
    };
    // s (q − p) − u (b − a) − w (c − a) = a − p.
    let neg = |x: [i64; 3]| [-x[0], -x[1], -x[2]];
    let (d0, d1, d2, rhs) = (sub(q, p), neg(sub(b, a)), neg(sub(c, a)), sub(a, p));
    let d = det(d0, d1, d2);
    if d == 0 {
        return false;
    }
    let (s, u, w) = (det(rhs, d1, d2), det(d0, rhs, d2), det(d0, d1, rhs));
    // Each ratio x / d against 0 and 1, with d's sign.
    let (s, u, w, d) = if d < 0 {
        (-s, -u, -w, -d)
    } else {
        (s, u, w, d)
    };
    0 < s && s < d && u > 0 && w > 0 && u + w < d
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_meshes_give_the_oracles_intersections(
        (n, faces, rods) in (5usize..14).prop_flat_map(|n| {
            let tri = any_face(n);
            let rod = any_edge(n);
            (Just(n), proptest::collection::vec(tri, 1..10), proptest::collection::vec(rod, 0..3))
        }),
        grid in proptest::collection::vec(proptest::collection::vec(-2i64..3, 3), 14),
    ) {
        let mesh = TriMesh::with_edges(n, without_repeated_faces(faces), &rods).unwrap();
        let at: Vec<[i64; 3]> = grid[..n].iter().map(|c| [c[0], c[1], c[2]]).collect();
        let x: Vec<Vec3> = at.iter().map(|c| v(c[0] as f64, c[1] as f64, c[2] as f64)).collect();
        let found = intersections(&mesh, &x).unwrap();
        let mut want = Vec::new();
        for (e, &[p, q]) in mesh.edges().iter().enumerate() {
            for (f, t) in mesh.faces().iter().enumerate() {
                if t.contains(&p) || t.contains(&q) {
                    continue;
                }
                let [a, b, c] = t.map(|i| at[i as usize]);
                if crosses_by_cramer(at[p as usize], at[q as usize], a, b, c) {
                    want.push([e as u32, f as u32]);
                }
            }
        }
        prop_assert_eq!(&found.crossing, &want);
        let still = Step::new(&mesh, &x, &x).unwrap();
        let touching: BTreeSet<_> = oracle_collisions_within(&still, 0.0).into_keys().collect();
        prop_assert_eq!(keys(&found.touching), touching);
        // The counts without the lists, on one and on two threads.
        prop_assert_eq!(found.crossing_count, want.len() as u64);
        prop_assert_eq!(found.touching_count(), found.touching.len() as u64);
        for threads in [1, 2] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            let counted = pool.install(|| intersections_with(&mesh, &x, false, None)).unwrap();
            prop_assert!(counted.touching.is_empty() && counted.crossing.is_empty());
            prop_assert_eq!(counted.crossing_count, found.crossing_count);
            prop_assert_eq!(counted.touching_count(), found.touching_count());
            prop_assert_eq!(counted.is_empty(), found.is_empty());
            let any = pool.install(|| has_intersections(&mesh, &x, None)).unwrap();
            prop_assert_eq!(any, !found.is_empty());
            let listed = pool.install(|| intersections(&mesh, &x)).unwrap();
            prop_assert_eq!((&listed.touching, &listed.crossing), (&found.touching, &found.crossing));
        }
    }
}
