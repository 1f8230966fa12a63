//! Differential, the broad phase on a tiny deforming mesh: for every k the
//! BVH's candidates equal brute force's (at `d = 0` and at a minimum
//! separation `d`, before and after a refit to other positions), the tree
//! validates, and every pair that the exact oracle finds colliding (within
//! `d`) is a candidate of brute force and of the time-aligned BVH.
#![no_main]

mod common;

use ccdlab::bounding_volume::KdopAxes;
use ccdlab::broad_phase::{Bvh, CandidateSet, brute_force_candidates_within};
use ccdlab::mesh::{Feature, Step};
use ccdlab::narrow_phase::QueryKind;
use common::{Src, bits, distance, mesh, oracle_collisions, points_spread};
use libfuzzer_sys::fuzz_target;

fn set(bvh: &Bvh) -> CandidateSet {
    let mut s = CandidateSet::default();
    bvh.self_candidates(&mut s);
    s.sorted()
}

fn keys(m: &ccdlab::mesh::TriMesh, s: &CandidateSet) -> Vec<(QueryKind, u64, u64)> {
    let vf = s.vertex_face.iter().map(|p| {
        (
            QueryKind::VertexFace,
            m.global_id(Feature::Vertex(p.v)),
            m.global_id(Feature::Face(p.f)),
        )
    });
    let ee = s.edge_edge.iter().map(|p| {
        let (a, b) = (
            m.global_id(Feature::Edge(p.e0)),
            m.global_id(Feature::Edge(p.e1)),
        );
        (QueryKind::EdgeEdge, a.min(b), a.max(b))
    });
    let mut k: Vec<_> = vf.chain(ee).collect();
    k.sort_unstable();
    k
}

fuzz_target!(|bytes: &[u8]| {
    let mut src = Src(bytes);
    let d = distance(&mut src);
    let (m, x0, x1) = mesh(&mut src, 10);
    let step = Step::new(&m, &x0, &x1).unwrap();
    let other = points_spread(&mut src, 2 * m.num_vertices(), false);
    let (y0, y1) = other.split_at(m.num_vertices());
    let step2 = Step::new(&m, y0, y1).unwrap();
    // Colliding feature pairs (codimensional points have their own broad
    // phase, left out here).
    let truth = oracle_collisions(&step, d);
    let is_point =
        |id: u64| id < m.num_vertices() as u64 && m.codim_vertices().contains(&(id as u32));
    let want: Vec<_> = truth
        .keys()
        .filter(|(k, a, b)| *k == QueryKind::VertexFace || !(is_point(*a) || is_point(*b)))
        .copied()
        .collect();
    for axes in KdopAxes::ALL {
        let (brute, _) = brute_force_candidates_within(&step, axes, d);
        let mut bvh = Bvh::build_within(&step, axes, false, d);
        assert_eq!(bvh.validate(&step), Ok(()), "{axes:?} d {d:?}");
        assert_eq!(
            set(&bvh),
            brute,
            "{axes:?} d {d:?}: BVH vs brute force on {:?} {:?}",
            bits(&x0),
            bits(&x1)
        );
        let brute_keys = keys(&m, &brute);
        for k in &want {
            assert!(
                brute_keys.binary_search(k).is_ok(),
                "{axes:?} d {d:?}: brute force misses {k:?} on {:?} {:?}",
                bits(&x0),
                bits(&x1)
            );
        }
        let aligned = Bvh::build_within(&step, axes, true, d);
        assert_eq!(
            aligned.validate(&step),
            Ok(()),
            "{axes:?} time-aligned d {d:?}"
        );
        let aligned_keys = keys(&m, &set(&aligned));
        for k in &want {
            assert!(
                aligned_keys.binary_search(k).is_ok(),
                "{axes:?} d {d:?}: time-aligned BVH misses {k:?} on {:?} {:?}",
                bits(&x0),
                bits(&x1)
            );
        }
        bvh.refit(&step2).unwrap();
        assert_eq!(bvh.validate(&step2), Ok(()));
        assert_eq!(
            set(&bvh),
            brute_force_candidates_within(&step2, axes, d).0,
            "{axes:?} d {d:?} after refit"
        );
    }
});
