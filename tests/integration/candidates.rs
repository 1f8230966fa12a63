//! `Pipeline::candidates`: the pairs of a step that reach the exact test.
//! Without filters they are the brute-force k-DOP candidates; with filters a
//! subset, and the exact test on them gives exactly the step's colliding
//! pairs and brackets, in contact and at a minimum separation; the lists do
//! not depend on the thread count or on a refit; the report's counts add up.

use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;

use ccdlab::bounding_volume::KdopAxes;
use ccdlab::broad_phase::{EePair, VfPair, brute_force_candidates};
use ccdlab::filter::FilterSet;
use ccdlab::mesh::{Feature, Step};
use ccdlab::narrow_phase::{Toi, edge_edge, edge_edge_within, vertex_face, vertex_face_within};
use ccdlab::pair_kernel::QueryKind;
use ccdlab::pipeline::{
    Bodies, BvhMode, Candidates, Pipeline, PipelineConfig, PipelineError, StepOutcome, TimeAligned,
    candidates,
};
use proptest::prelude::*;

use super::common::in_pool;
use super::pipeline::{Scene, cloth_ball, funnel, random_sheet};

/// The exact verdict on every listed pair, keyed as the step's pairs are:
/// `(kind, global id a, global id b) → [lower, upper]`.
fn decided(step: &Step<'_>, c: &Candidates, d: f64) -> BTreeMap<(QueryKind, u64, u64), [f64; 2]> {
    let mesh = step.mesh();
    let vf = |&VfPair { v, f }: &VfPair| {
        let [a, b, c, e, p, q, r, s] = step.vertex_face_points(v, f);
        let toi = if d > 0.0 {
            vertex_face_within(&a, &b, &c, &e, &p, &q, &r, &s, d)
        } else {
            vertex_face(&a, &b, &c, &e, &p, &q, &r, &s)
        };
        let ids = (
            mesh.global_id(Feature::Vertex(v)),
            mesh.global_id(Feature::Face(f)),
        );
        toi.map(|t: Toi| ((QueryKind::VertexFace, ids.0, ids.1), [t.lower, t.upper]))
    };
    let ee = |&EePair { e0, e1 }: &EePair| {
        let [a, b, c, e, p, q, r, s] = step.edge_edge_points(e0, e1);
        let toi = if d > 0.0 {
            edge_edge_within(&a, &b, &c, &e, &p, &q, &r, &s, d)
        } else {
            edge_edge(&a, &b, &c, &e, &p, &q, &r, &s)
        };
        let ids = (
            mesh.global_id(Feature::Edge(e0)),
            mesh.global_id(Feature::Edge(e1)),
        );
        toi.map(|t: Toi| ((QueryKind::EdgeEdge, ids.0, ids.1), [t.lower, t.upper]))
    };
    c.vertex_face
        .iter()
        .filter_map(vf)
        .chain(c.edge_edge.iter().filter_map(ee))
        .collect()
}

fn pairs_of(out: &StepOutcome) -> BTreeMap<(QueryKind, u64, u64), [f64; 2]> {
    out.pairs
        .iter()
        .map(|p| ((p.kind, p.a, p.b), [p.toi_lower, p.toi_upper]))
        .collect()
}

/// The report's counts add up with the lists, and equal a step's.
fn counts_agree(c: &Candidates, out: &StepOutcome) {
    let (r, s) = (&c.report, &out.report);
    assert_eq!(
        c.vertex_face.len() as u64,
        r.vf.after_filter - r.vf.culled_window
    );
    assert_eq!(
        c.edge_edge.len() as u64,
        r.ee.after_filter - r.ee.culled_window
    );
    for (a, b) in [(&r.vf, &s.vf), (&r.ee, &s.ee)] {
        assert_eq!(
            (
                a.candidates,
                a.culled_slpf,
                a.culled_dnf,
                a.culled_window,
                a.after_filter
            ),
            (
                b.candidates,
                b.culled_slpf,
                b.culled_dnf,
                b.culled_window,
                b.after_filter
            )
        );
        assert_eq!(a.colliding, 0);
    }
    assert_eq!(
        (r.filters, r.time_aligned, r.toi),
        (s.filters, s.time_aligned, None)
    );
    assert!(r.points.is_none());
}

/// On a real step with the command line's defaults: the exact test on the
/// candidates gives the step's pairs, with no exact fallback needed to say so.
fn check_scene(scene: &Scene, d: f64) {
    let step = Step::new(&scene.mesh, &scene.x_t0, &scene.x_t1).unwrap();
    let cfg = PipelineConfig {
        time_aligned: TimeAligned::Auto,
        min_distance: d,
        collect_pairs: true,
        ..PipelineConfig::default()
    };
    let c = in_pool(2, || candidates(&step, &cfg)).unwrap();
    let out = in_pool(2, || Pipeline::new(cfg.clone()).step(&step)).unwrap();
    counts_agree(&c, &out);
    assert!(!out.pairs.is_empty());
    assert_eq!(decided(&step, &c, d), pairs_of(&out));
}

#[test]
fn funnel_candidates_give_the_steps_pairs() {
    check_scene(funnel(), 0.0);
    // At 10⁻³ of funnel's mean edge length.
    check_scene(funnel(), 1.911e-5);
}

#[test]
fn cloth_ball_candidates_give_the_steps_pairs() {
    check_scene(cloth_ball(), 0.0);
}

/// The codimensional points' pairs are not listed: the listed pairs give
/// the step's vertex–face and edge–edge pairs, not its points'. Here point 5
/// falls through the still rod 3–4 (a point's pair) and then through the
/// still triangle (a vertex–face pair).
#[test]
fn the_points_pairs_are_not_listed() {
    let p = |x, y, z| ccdlab::math::Vec3::new(x, y, z);
    let x0 = vec![
        p(0.0, 0.0, 0.0),
        p(4.0, 0.0, 0.0),
        p(0.0, 4.0, 0.0),
        p(0.5, 1.0, 1.0),
        p(3.0, 1.0, 1.0),
        p(1.0, 1.0, 2.0),
    ];
    let mut x1 = x0.clone();
    x1[5].z = -1.0;
    let mesh = ccdlab::mesh::TriMesh::with_edges(6, vec![[0, 1, 2]], &[[3, 4]]).unwrap();
    let step = Step::new(&mesh, &x0, &x1).unwrap();
    let cfg = PipelineConfig {
        collect_pairs: true,
        ..PipelineConfig::default()
    };
    let c = candidates(&step, &cfg).unwrap();
    let out = Pipeline::new(cfg).step(&step).unwrap();
    assert!(c.report.points.is_none());
    let points = out.report.points.expect("the mesh has a point");
    assert_eq!(points.vertex_edge.colliding, 1);
    // A point's pair is an edge–edge pair whose first ID is a vertex's.
    let v = mesh.num_vertices() as u64;
    let mut want = pairs_of(&out);
    want.retain(|&(kind, a, _), _| kind == QueryKind::VertexFace || a >= v);
    assert!(!want.is_empty());
    assert_eq!(decided(&step, &c, 0.0), want);
}

/// A listing cancelled before it starts is an error, and the pipeline's next
/// listing refits its tree and lists what a fresh one does; bodies skip
/// their pairs in a listing as in a step.
#[test]
fn cancelled_listings_and_bodies() {
    let scene = funnel();
    let step = Step::new(&scene.mesh, &scene.x_t0, &scene.x_t1).unwrap();
    let cfg = PipelineConfig::default();
    let mut kept = Pipeline::new(cfg.clone());
    let cancel = AtomicBool::new(true);
    assert!(matches!(
        kept.candidates_cancellable(&step, &cancel),
        Err(PipelineError::Cancelled)
    ));
    let next = kept.candidates(&step).unwrap();
    let fresh = candidates(&step, &cfg).unwrap();
    assert_eq!(next.report.bvh, BvhMode::Refit);
    assert_eq!(
        (&next.vertex_face, &next.edge_edge),
        (&fresh.vertex_face, &fresh.edge_edge)
    );
    for bodies in [Bodies::Components, Bodies::StillObstacle] {
        let cfg = PipelineConfig {
            bodies: Some(bodies.clone()),
            collect_pairs: true,
            ..PipelineConfig::default()
        };
        let c = candidates(&step, &cfg).unwrap();
        let out = Pipeline::new(cfg).step(&step).unwrap();
        counts_agree(&c, &out);
        // The BVH skips pairs within a body before any test (with
        // `Components`, those within a connected component).
        assert!(c.report.vf.candidates <= fresh.report.vf.candidates);
        if bodies == Bodies::Components {
            assert!(c.report.vf.candidates < fresh.report.vf.candidates);
        }
        assert!(
            c.vertex_face
                .iter()
                .all(|p| fresh.vertex_face.binary_search(p).is_ok())
        );
        assert_eq!(decided(&step, &c, 0.0), pairs_of(&out));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn candidates_are_the_bvh_pairs_the_filters_pass(
        (mesh, x0, x1) in random_sheet(),
        k in prop::sample::select(KdopAxes::ALL.to_vec()),
        filters in prop::sample::select(FilterSet::ALL.to_vec()),
        window in any::<bool>(),
        pruned in any::<bool>(),
        d in prop::sample::select(vec![0.0, 1e-3, 0.25]),
    ) {
        let step = Step::new(&mesh, &x0, &x1).unwrap();
        let cfg = PipelineConfig {
            axes: k,
            filters,
            window,
            time_aligned: if pruned { TimeAligned::On } else { TimeAligned::Off },
            min_distance: d,
            collect_pairs: true,
            ..PipelineConfig::default()
        };
        // Without filters or pruning, in contact: the brute-force set.
        let plain = PipelineConfig { filters: FilterSet::None, window: false, time_aligned: TimeAligned::Off, min_distance: 0.0, ..cfg.clone() };
        let all = candidates(&step, &plain).unwrap();
        let (mut brute, _) = brute_force_candidates(&step, k);
        brute.sort();
        prop_assert_eq!(&all.vertex_face, &brute.vertex_face);
        prop_assert_eq!(&all.edge_edge, &brute.edge_edge);
        // With them: the pairs the step decides, on any thread count, built
        // or refitted.
        let c = in_pool(1, || candidates(&step, &cfg)).unwrap();
        let out = in_pool(3, || Pipeline::new(cfg.clone()).step(&step)).unwrap();
        counts_agree(&c, &out);
        prop_assert_eq!(decided(&step, &c, d), pairs_of(&out));
        let mut kept = Pipeline::new(cfg.clone());
        let first = in_pool(3, || kept.candidates(&step)).unwrap();
        prop_assert_eq!(&first.vertex_face, &c.vertex_face);
        prop_assert_eq!(&first.edge_edge, &c.edge_edge);
        // The kept tree refitted for the step backwards: a fresh listing's.
        let back = Step::new(&mesh, &x1, &x0).unwrap();
        let refitted = in_pool(2, || kept.candidates(&back)).unwrap();
        let fresh = candidates(&back, &cfg).unwrap();
        prop_assert_eq!(refitted.report.bvh, BvhMode::Refit);
        prop_assert_eq!(&refitted.vertex_face, &fresh.vertex_face);
        prop_assert_eq!(&refitted.edge_edge, &fresh.edge_edge);
        if d == 0.0 {
            // Filters only remove pairs: a subset of the plain set.
            prop_assert!(c.vertex_face.iter().all(|p| all.vertex_face.binary_search(p).is_ok()));
            prop_assert!(c.edge_edge.iter().all(|p| all.edge_edge.binary_search(p).is_ok()));
        }
    }
}
