//! A step on candidates the caller gives (`Pipeline::step_on_candidates`)
//! against the pipeline's own step: on the BVH's candidate set it reports
//! the step's counts, pairs and earliest time of impact; on a superset (a
//! 6-DOP brute force) the step's colliding pairs and time; in any order,
//! with repeats; with bodies; at a minimum separation; on 1 and 2 threads;
//! and a pair that is no candidate is refused, named by its index.

use std::sync::atomic::AtomicBool;

use ccdlab::bounding_volume::KdopAxes;
use ccdlab::broad_phase::{EePair, VfPair, brute_force_candidates};
use ccdlab::filter::FilterSet;
use ccdlab::mesh::{Step, TriMesh};
use ccdlab::pipeline::{
    Bodies, BodyLabels, BvhMode, CandidateError, Pipeline, PipelineConfig, PipelineError,
    StepOutcome, TimeAligned, candidates, step_on_candidates,
};
use proptest::prelude::*;

use super::pipeline::{Scene, cloth_ball, funnel, random_sheet, same_report};

/// The BVH's candidates of `step` for `config`'s separation and bodies:
/// nothing filtered, nothing pruned.
fn bvh_candidates(step: &Step<'_>, config: &PipelineConfig) -> (Vec<VfPair>, Vec<EePair>) {
    let listing = PipelineConfig {
        filters: FilterSet::None,
        window: false,
        time_aligned: TimeAligned::Off,
        ..config.clone()
    };
    let c = candidates(step, &listing).expect("candidates");
    (c.vertex_face, c.edge_edge)
}

/// `step` decided on the given pairs and by the pipeline itself (no
/// time-aligned pruning, which changes the candidates), on `threads`
/// workers.
fn both(
    step: &Step<'_>,
    config: &PipelineConfig,
    (vf, ee): (&[VfPair], &[EePair]),
    threads: usize,
) -> (StepOutcome, StepOutcome) {
    let config = PipelineConfig {
        time_aligned: TimeAligned::Off,
        ..config.clone()
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| {
        let given = step_on_candidates(step, &config, vf, ee).expect("given");
        let own = Pipeline::new(config.clone()).step(step).expect("step");
        (given, own)
    })
}

fn scene_step(scene: &Scene) -> Step<'_> {
    Step::new(&scene.mesh, &scene.x_t0, &scene.x_t1).expect("step")
}

/// Funnel 227→228: the BVH's candidates, given back, are decided as the
/// step decides them (every count, the pairs, the time of impact), with
/// pairs collected or not, at contact and at a minimum separation, on 1
/// and 2 threads; the report says no BVH ran.
#[test]
fn the_bvh_candidates_given_back_give_the_step() {
    let step = scene_step(funnel());
    for min_distance in [0.0, 1e-4] {
        for collect_pairs in [true, false] {
            let config = PipelineConfig {
                min_distance,
                collect_pairs,
                ..PipelineConfig::default()
            };
            let (vf, ee) = bvh_candidates(&step, &config);
            for threads in [1, 2] {
                let (given, own) = both(&step, &config, (&vf, &ee), threads);
                let what =
                    format!("d = {min_distance}, collect {collect_pairs}, {threads} threads");
                assert_eq!(
                    same_report(&given.report),
                    same_report(&own.report),
                    "{what}"
                );
                assert_eq!(given.pairs, own.pairs, "{what}");
                assert_eq!(given.report.bvh, BvhMode::Given);
                assert_eq!(given.report.bvh_tests, Default::default());
                assert_eq!(given.report.threads, threads);
                assert_eq!(
                    given.report.vf.candidates_same_component,
                    own.report.vf.candidates_same_component
                );
                assert_eq!(
                    given.report.ee.candidates_same_component,
                    own.report.ee.candidates_same_component
                );
                assert!(own.report.colliding() > 0, "{what}: a step with collisions");
            }
        }
    }
}

/// Cloth-ball 92→93 on a superset of the BVH's candidates (the 6-DOP
/// brute force, about twice as many): the same colliding pairs and time of
/// impact as the step; more candidates, culled by the filters.
#[test]
fn a_superset_of_candidates_gives_the_same_collisions() {
    let step = scene_step(cloth_ball());
    let (set, _) = brute_force_candidates(&step, KdopAxes::Dop6);
    let config = PipelineConfig {
        collect_pairs: true,
        ..PipelineConfig::default()
    };
    let (given, own) = both(&step, &config, (&set.vertex_face, &set.edge_edge), 2);
    assert_eq!(given.pairs, own.pairs);
    assert_eq!(
        (given.report.toi, given.report.toi_upper),
        (own.report.toi, own.report.toi_upper)
    );
    assert_eq!(given.report.vf.colliding, own.report.vf.colliding);
    assert!(given.report.vf.candidates > own.report.vf.candidates);
    assert!(given.report.ee.candidates > own.report.ee.candidates);
    assert_eq!(given.report.vf.candidates, set.vertex_face.len() as u64);
}

/// The pairs in reverse order, each twice, edges swapped: decided once
/// each, as the sorted list is.
#[test]
fn order_repeats_and_swapped_edges_change_nothing() {
    let step = scene_step(funnel());
    let config = PipelineConfig {
        collect_pairs: true,
        ..PipelineConfig::default()
    };
    let (vf, ee) = bvh_candidates(&step, &config);
    let messy_vf: Vec<VfPair> = vf.iter().rev().flat_map(|&p| [p, p]).collect();
    let messy_ee: Vec<EePair> = (ee.iter().rev())
        .flat_map(|p| {
            let swapped = EePair { e0: p.e1, e1: p.e0 };
            [swapped, *p]
        })
        .collect();
    let sorted = step_on_candidates(&step, &config, &vf, &ee).unwrap();
    let messy = step_on_candidates(&step, &config, &messy_vf, &messy_ee).unwrap();
    assert_eq!(messy.pairs, sorted.pairs);
    assert_eq!(same_report(&messy.report), same_report(&sorted.report));
    assert_eq!(messy.report.vf.candidates, vf.len() as u64);
    assert_eq!(messy.report.ee.candidates, ee.len() as u64);
}

/// Bodies on the candidates found without them: the pairs within one body
/// that does not collide with itself are dropped, uncounted, so the
/// outcome is the step's with those bodies.
#[test]
fn bodies_drop_the_pairs_within_a_body_as_in_a_step() {
    let step = scene_step(funnel());
    let plain = PipelineConfig {
        collect_pairs: true,
        ..PipelineConfig::default()
    };
    let (vf, ee) = bvh_candidates(&step, &plain);
    // Whole components as bodies, and bodies cutting across components
    // (the vertices by parity, neither colliding with itself).
    let parity = (0..step.mesh().num_vertices() as u32)
        .map(|v| v % 2)
        .collect();
    let labels = Bodies::Labels(BodyLabels::new(parity, vec![false, false]).unwrap());
    for bodies in [Bodies::Components, Bodies::StillObstacle, labels] {
        let config = PipelineConfig {
            bodies: Some(bodies.clone()),
            ..plain.clone()
        };
        let (given, own) = both(&step, &config, (&vf, &ee), 2);
        assert_eq!(
            same_report(&given.report),
            same_report(&own.report),
            "{bodies:?}"
        );
        assert_eq!(given.pairs, own.pairs, "{bodies:?}");
        assert_eq!(given.report.bodies, own.report.bodies);
        if !matches!(bodies, Bodies::StillObstacle) {
            let dropped = given.report.vf.candidates < vf.len() as u64;
            assert!(dropped, "{:?}: some dropped", given.report.bodies);
        }
    }
}

/// A pair that is no candidate is refused, naming the list and the first
/// such index; a valid list on another pipeline is still decided.
#[test]
fn pairs_that_are_no_candidates_are_refused_by_index() {
    let mesh = TriMesh::new(5, vec![[0, 1, 2], [2, 3, 4]]).unwrap();
    let x: Vec<_> = (0..5)
        .map(|i| ccdlab::math::Vec3::new(f64::from(i), f64::from(i % 2), 0.0))
        .collect();
    let step = Step::new(&mesh, &x, &x).unwrap();
    let edges = mesh.num_edges() as u32;
    let (e01, e34) = (edge(&mesh, 0, 1), edge(&mesh, 3, 4));
    let e12 = edge(&mesh, 1, 2);
    let ok_vf = VfPair { v: 3, f: 0 };
    let ok_ee = EePair::new(e01, e34);
    let cases: Vec<(Vec<VfPair>, Vec<EePair>, CandidateError, &str)> = vec![
        (
            vec![ok_vf, VfPair { v: 5, f: 0 }, VfPair { v: 9, f: 9 }],
            vec![],
            CandidateError::VertexFaceOutOfRange {
                index: 1,
                v: 5,
                f: 0,
                vertices: 5,
                faces: 2,
            },
            "candidates: vertex–face pair 1 (numbered from 0): vertex 5, face 0: out of range (the mesh has 5 vertices, 2 faces)",
        ),
        (
            vec![ok_vf, VfPair { v: 4, f: 2 }],
            vec![],
            CandidateError::VertexFaceOutOfRange {
                index: 1,
                v: 4,
                f: 2,
                vertices: 5,
                faces: 2,
            },
            "candidates: vertex–face pair 1 (numbered from 0): vertex 4, face 2: out of range (the mesh has 5 vertices, 2 faces)",
        ),
        (
            vec![ok_vf, VfPair { v: 2, f: 1 }],
            vec![ok_ee],
            CandidateError::CornerOfFace {
                index: 1,
                v: 2,
                f: 1,
            },
            "candidates: vertex–face pair 1 (numbered from 0): vertex 2 is a corner of face 1, not a candidate",
        ),
        (
            vec![ok_vf],
            vec![ok_ee, EePair { e0: 0, e1: edges }],
            CandidateError::EdgeOutOfRange {
                index: 1,
                e0: 0,
                e1: edges,
                edges: edges as usize,
            },
            "candidates: edge–edge pair 1 (numbered from 0): edges 0, 6: out of range (the mesh has 6 edges)",
        ),
        (
            vec![],
            vec![EePair { e0: e12, e1: e01 }],
            CandidateError::SharedEndpoint {
                index: 0,
                e0: e12,
                e1: e01,
            },
            "",
        ),
        (
            vec![],
            vec![ok_ee, EePair { e0: e34, e1: e34 }],
            CandidateError::SharedEndpoint {
                index: 1,
                e0: e34,
                e1: e34,
            },
            "",
        ),
    ];
    let mut pipeline = Pipeline::new(PipelineConfig::default());
    for (vf, ee, expected, message) in cases {
        let e = pipeline
            .step_on_candidates(&step, &vf, &ee)
            .expect_err("refused");
        match &e {
            PipelineError::Candidates(found) => assert_eq!(*found, expected),
            other => panic!("{other}"),
        }
        if !message.is_empty() {
            assert_eq!(e.to_string(), message);
        }
    }
    let fine = pipeline
        .step_on_candidates(&step, &[ok_vf], &[ok_ee])
        .expect("valid pairs");
    assert_eq!(fine.report.vf.candidates + fine.report.ee.candidates, 2);
    assert_eq!(fine.report.colliding(), 0);
}

/// The index of the edge `{a, b}` of `mesh`.
fn edge(mesh: &TriMesh, a: u32, b: u32) -> u32 {
    let e = mesh
        .edges()
        .iter()
        .position(|&[p, q]| (p, q) == (a.min(b), a.max(b)));
    e.expect("an edge of the mesh") as u32
}

/// A cancelled call answers `Cancelled`; the pipeline's BVH is untouched
/// by these calls (its next step refits the tree of its last step), and
/// its next call on the candidates is a fresh one's.
#[test]
fn a_cancelled_call_says_so_and_the_bvh_is_untouched() {
    let step = scene_step(funnel());
    let config = PipelineConfig::default();
    let (vf, ee) = bvh_candidates(&step, &config);
    let mut pipeline = Pipeline::new(config.clone());
    assert_eq!(pipeline.step(&step).unwrap().report.bvh, BvhMode::Build);
    let e = pipeline
        .step_on_candidates_cancellable(&step, &vf, &ee, &AtomicBool::new(true))
        .expect_err("cancelled");
    assert!(matches!(e, PipelineError::Cancelled), "{e}");
    let again = pipeline.step_on_candidates(&step, &vf, &ee).unwrap();
    let fresh = step_on_candidates(&step, &config, &vf, &ee).unwrap();
    assert_eq!(same_report(&again.report), same_report(&fresh.report));
    assert_eq!(pipeline.step(&step).unwrap().report.bvh, BvhMode::Refit);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// Random self-crossing sheets, at contact and at a minimum separation:
    /// the BVH's candidates given back give the step's report and pairs,
    /// and every pair of features that shares no vertex, given, gives the
    /// step's colliding pairs and time of impact.
    #[test]
    fn random_meshes_on_given_candidates_decide_as_the_step(
        (mesh, x0, x1) in random_sheet(),
        min_distance in prop::sample::select(vec![0.0, 0.05]),
    ) {
        let step = Step::new(&mesh, &x0, &x1).unwrap();
        let config = PipelineConfig { min_distance, collect_pairs: true, ..PipelineConfig::default() };
        let (vf, ee) = bvh_candidates(&step, &config);
        let (given, own) = both(&step, &config, (&vf, &ee), 2);
        prop_assert_eq!(same_report(&given.report), same_report(&own.report));
        prop_assert_eq!(&given.pairs, &own.pairs);
        let all_vf: Vec<VfPair> = (0..mesh.num_vertices() as u32)
            .flat_map(|v| (0..mesh.num_faces() as u32).map(move |f| VfPair { v, f }))
            .filter(|p| !mesh.faces()[p.f as usize].contains(&p.v))
            .collect();
        let edges = mesh.edges();
        let all_ee: Vec<EePair> = (0..edges.len() as u32)
            .flat_map(|a| (a + 1..edges.len() as u32).map(move |b| EePair::new(a, b)))
            .filter(|p| !edges[p.e0 as usize].iter().any(|v| edges[p.e1 as usize].contains(v)))
            .collect();
        let (every, _) = both(&step, &config, (&all_vf, &all_ee), 2);
        prop_assert_eq!(&every.pairs, &own.pairs);
        prop_assert_eq!(every.report.toi, own.report.toi);
        prop_assert_eq!(every.report.toi_upper, own.report.toi_upper);
    }
}
