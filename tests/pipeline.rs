//! The whole pipeline on the real steps and on random meshes: every pair the
//! exact ground truth marks colliding is found, nothing else is, filters
//! never cull a collision, and the output does not depend on the thread
//! count.

use std::collections::{BTreeSet, HashMap};
use std::sync::OnceLock;

use ccdlab::bounding_volume::KdopAxes;
use ccdlab::broad_phase::brute_force_candidates;
use ccdlab::filter::FilterSet;
use ccdlab::harness::data::require_root;
use ccdlab::harness::ground_truth::{read_boxes, read_mma_bool};
use ccdlab::math::Vec3;
use ccdlab::mesh::{Feature, Step, TriMesh, read_step};
use ccdlab::narrow_phase::{edge_edge, vertex_face};
use ccdlab::pipeline::{ContactPair, Pipeline, PipelineConfig, StepOutcome};
use ccdlab::primitive::QueryKind;
use proptest::prelude::*;

struct Scene {
    mesh: TriMesh,
    x_t0: Vec<Vec3>,
    x_t1: Vec<Vec3>,
    /// (kind, id_a, id_b) → exact truth, for the listed pairs.
    truth: HashMap<(QueryKind, u64, u64), bool>,
}

fn load_scene(dir: &str, f0: &str, f1: &str, step: &str) -> Scene {
    let root = require_root().unwrap_or_else(|e| panic!("{e}"));
    let d = root.join("scalable-ccd").join(dir);
    let (mesh, x_t0, x_t1) =
        read_step(&d.join("frames").join(f0), &d.join("frames").join(f1)).expect("frames");
    let mut truth = HashMap::new();
    for kind in [QueryKind::VertexFace, QueryKind::EdgeEdge] {
        let s = kind.suffix();
        let pairs = read_boxes(&d.join(format!("boxes/{step}{s}.json"))).expect("boxes");
        let bools =
            read_mma_bool(&d.join(format!("mma_bool/{step}{s}_mma_bool.json"))).expect("truth");
        assert_eq!(pairs.len(), bools.len());
        for ([a, b], t) in pairs.into_iter().zip(bools) {
            // Canonical: VF as (vertex, face) — vertex IDs precede face IDs —
            // and EE with the smaller edge ID first, as the pipeline reports.
            truth.insert((kind, a.min(b), a.max(b)), t);
        }
    }
    Scene {
        mesh,
        x_t0,
        x_t1,
        truth,
    }
}

fn cloth_ball() -> &'static Scene {
    static S: OnceLock<Scene> = OnceLock::new();
    S.get_or_init(|| load_scene("cloth-ball", "cloth_ball92.ply", "cloth_ball93.ply", "92"))
}

fn funnel() -> &'static Scene {
    static S: OnceLock<Scene> = OnceLock::new();
    S.get_or_init(|| load_scene("cloth-funnel", "227.ply", "228.ply", "227"))
}

fn run(scene: &Scene, config: PipelineConfig, threads: usize) -> StepOutcome {
    let step = Step::new(&scene.mesh, &scene.x_t0, &scene.x_t1).expect("step");
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| Pipeline::new(config).step(&step))
        .expect("pipeline")
}

fn collecting(filters: FilterSet) -> PipelineConfig {
    PipelineConfig {
        filters,
        collect_pairs: true,
        ..PipelineConfig::default()
    }
}

fn keys(pairs: &[ContactPair]) -> BTreeSet<(QueryKind, u64, u64)> {
    pairs.iter().map(|p| (p.kind, p.a, p.b)).collect()
}

/// Every listed colliding pair is reported, no listed non-colliding pair is,
/// and the earliest time of impact is reported and consistent.
fn check_against_truth(scene: &Scene, name: &str) -> StepOutcome {
    let out = run(scene, collecting(FilterSet::SlpfDnf), 2);
    let found = keys(&out.pairs);
    let missed: Vec<_> = scene
        .truth
        .iter()
        .filter(|(k, t)| **t && !found.contains(k))
        .map(|(k, _)| *k)
        .collect();
    assert!(
        missed.is_empty(),
        "{name}: listed collisions missed: {missed:?}"
    );
    let false_alarms: Vec<_> = scene
        .truth
        .iter()
        .filter(|(k, t)| !**t && found.contains(k))
        .map(|(k, _)| *k)
        .collect();
    assert!(
        false_alarms.is_empty(),
        "{name}: listed non-collisions reported: {false_alarms:?}"
    );
    let toi = out
        .report
        .toi
        .expect("a colliding step has a time of impact");
    let min_pair = out
        .pairs
        .iter()
        .map(|p| p.toi_lower)
        .fold(f64::INFINITY, f64::min);
    assert_eq!(toi, min_pair);
    assert!(out.report.toi_upper.unwrap() >= toi);
    out
}

#[test]
fn cloth_ball_92_finds_exactly_the_listed_collisions() {
    let out = check_against_truth(cloth_ball(), "cloth-ball 92");
    // The data set's colliding counts, and the reference solver's
    // conservative earliest time of impact as a lower bound.
    assert_eq!(
        (out.report.vf.colliding, out.report.ee.colliding),
        (19_032, 94_822)
    );
    assert!(out.report.toi.unwrap() >= 3.814697265625e-06);
}

#[test]
fn cloth_funnel_227_finds_exactly_the_listed_collisions() {
    let out = check_against_truth(funnel(), "cloth-funnel 227");
    assert_eq!(
        (out.report.vf.colliding, out.report.ee.colliding),
        (27, 107)
    );
}

#[test]
fn filters_never_cull_a_colliding_candidate_on_the_real_steps() {
    for (scene, name) in [(funnel(), "funnel"), (cloth_ball(), "cloth-ball")] {
        // The exact solver on every candidate: no filter at all.
        let unfiltered = PipelineConfig {
            window: false,
            ..collecting(FilterSet::None)
        };
        let all = keys(&run(scene, unfiltered, 2).pairs);
        for filters in FilterSet::ALL {
            for window in [false, true] {
                let config = PipelineConfig {
                    window,
                    ..collecting(filters)
                };
                let out = run(scene, config, 2);
                assert_eq!(
                    keys(&out.pairs),
                    all,
                    "{name}: {filters}, window {window} changed the collisions"
                );
                for c in [&out.report.vf, &out.report.ee] {
                    assert_eq!(c.candidates, c.culled_slpf + c.culled_dnf + c.after_filter);
                    assert!(c.colliding + c.culled_window <= c.after_filter);
                    assert_eq!(c.culled_window > 0, window, "{name}: {filters}");
                }
            }
        }
    }
}

#[test]
fn one_and_two_threads_give_identical_output() {
    for (scene, name) in [(funnel(), "funnel"), (cloth_ball(), "cloth-ball")] {
        let a = run(scene, collecting(FilterSet::SlpfDnf), 1);
        let b = run(scene, collecting(FilterSet::SlpfDnf), 2);
        assert_eq!(a.pairs, b.pairs, "{name}: pairs differ");
        assert_eq!(a.report.vf, b.report.vf, "{name}");
        assert_eq!(a.report.ee, b.report.ee, "{name}");
        assert_eq!(a.report.toi, b.report.toi, "{name}");
        assert_eq!(a.report.threads, 1);
        assert_eq!(b.report.threads, 2);
    }
}

/// Without the pairs collected, the counts and the time of impact are the
/// same, and they agree with the collected pairs (the tasks count the
/// colliding pairs and keep the earliest time of impact themselves).
#[test]
fn counts_and_toi_do_not_depend_on_collecting_the_pairs() {
    for (scene, name) in [(funnel(), "funnel"), (cloth_ball(), "cloth-ball")] {
        let a = run(scene, collecting(FilterSet::SlpfDnf), 2);
        let config = PipelineConfig {
            collect_pairs: false,
            ..collecting(FilterSet::SlpfDnf)
        };
        let b = run(scene, config, 2);
        assert!(b.pairs.is_empty(), "{name}");
        assert_eq!(a.report.vf, b.report.vf, "{name}");
        assert_eq!(a.report.ee, b.report.ee, "{name}");
        assert_eq!(a.report.toi, b.report.toi, "{name}");
        assert_eq!(a.report.toi_upper, b.report.toi_upper, "{name}");
        let count = |kind| a.pairs.iter().filter(|p| p.kind == kind).count() as u64;
        assert_eq!(
            a.report.vf.colliding,
            count(QueryKind::VertexFace),
            "{name}"
        );
        assert_eq!(a.report.ee.colliding, count(QueryKind::EdgeEdge), "{name}");
        let upper = a
            .pairs
            .iter()
            .map(|p| p.toi_upper)
            .fold(f64::INFINITY, f64::min);
        assert_eq!(a.report.toi_upper, Some(upper), "{name}");
    }
}

/// Time-aligned pruning (not the paper's) drops candidates
/// but no collision: the same colliding pairs and time of impact as the
/// paper's swept BVH, with or without filters, on 1 and 2 threads.
#[test]
fn time_aligned_pruning_changes_no_collision_on_the_real_steps() {
    for (scene, name) in [(funnel(), "funnel"), (cloth_ball(), "cloth-ball")] {
        let swept = run(scene, collecting(FilterSet::SlpfDnf), 2);
        let aligned = |filters, window, threads| {
            let config = PipelineConfig {
                time_aligned: true,
                window,
                ..collecting(filters)
            };
            run(scene, config, threads)
        };
        let two = aligned(FilterSet::SlpfDnf, true, 2);
        let one = aligned(FilterSet::SlpfDnf, true, 1);
        let unfiltered = aligned(FilterSet::None, false, 2);
        assert!(two.report.time_aligned && !swept.report.time_aligned);
        for out in [&two, &one, &unfiltered] {
            assert_eq!(keys(&out.pairs), keys(&swept.pairs), "{name}");
            assert_eq!(out.report.toi, swept.report.toi, "{name}");
            assert_eq!(out.report.toi_upper, swept.report.toi_upper, "{name}");
        }
        assert_eq!(one.pairs, two.pairs, "{name}");
        assert_eq!(
            (&one.report.vf, &one.report.ee),
            (&two.report.vf, &two.report.ee)
        );
        for (a, s) in [
            (&two.report.vf, &swept.report.vf),
            (&two.report.ee, &swept.report.ee),
        ] {
            assert!(a.candidates < s.candidates, "{name}: nothing pruned");
            assert!(a.after_filter <= s.after_filter, "{name}");
            assert_eq!(a.colliding, s.colliding, "{name}");
        }
    }
}

#[test]
fn refit_gives_the_same_step_as_a_fresh_build() {
    let scene = funnel();
    let step = Step::new(&scene.mesh, &scene.x_t0, &scene.x_t1).unwrap();
    let back = Step::new(&scene.mesh, &scene.x_t1, &scene.x_t0).unwrap();
    let mut p = Pipeline::new(collecting(FilterSet::SlpfDnf));
    let _ = p.step(&back).unwrap();
    let refitted = p.step(&step).unwrap();
    assert_eq!(refitted.report.bvh, "refit");
    let fresh = Pipeline::new(collecting(FilterSet::SlpfDnf))
        .step(&step)
        .unwrap();
    assert_eq!(refitted.pairs, fresh.pairs);
    assert_eq!(refitted.report.vf, fresh.report.vf);
    // Asked to, the next step builds anew (over the old tree's memory),
    // then refits again.
    p.rebuild_next();
    let rebuilt = p.step(&step).unwrap();
    assert_eq!(rebuilt.report.bvh, "build");
    assert_eq!(rebuilt.pairs, fresh.pairs);
    assert_eq!(
        (rebuilt.report.vf, rebuilt.report.ee),
        (fresh.report.vf, fresh.report.ee)
    );
    assert_eq!(p.step(&step).unwrap().report.bvh, "refit");
}

/// A small random deforming mesh: a jittered grid sheet whose vertices move
/// randomly, so that it crosses itself.
fn random_sheet() -> impl Strategy<Value = (TriMesh, Vec<Vec3>, Vec<Vec3>)> {
    (3usize..7, proptest::collection::vec(-1.0f64..1.0, 6 * 49)).prop_map(|(n, r)| {
        let mut faces = Vec::new();
        for i in 0..n - 1 {
            for j in 0..n - 1 {
                let v = |a: usize, b: usize| (a * n + b) as u32;
                faces.push([v(i, j), v(i + 1, j), v(i + 1, j + 1)]);
                faces.push([v(i, j), v(i + 1, j + 1), v(i, j + 1)]);
            }
        }
        let mesh = TriMesh::new(n * n, faces).unwrap();
        let mut x0 = Vec::new();
        let mut x1 = Vec::new();
        for k in 0..n * n {
            let (i, j) = ((k / n) as f64, (k % n) as f64);
            let g = |s: usize| r[(6 * k + s) % r.len()];
            x0.push(Vec3::new(i + 0.3 * g(0), j + 0.3 * g(1), 0.5 * g(2)));
            x1.push(Vec3::new(i + 1.5 * g(3), j + 1.5 * g(4), 2.0 * g(5)));
        }
        (mesh, x0, x1)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// On random meshes, for every k: filters and time-aligned pruning
    /// change nothing but the work, and 1 and 2 threads agree.
    #[test]
    fn random_meshes_filters_and_threads_do_not_change_collisions(
        (mesh, x0, x1) in random_sheet(),
        k in prop::sample::select(KdopAxes::ALL.to_vec()),
    ) {
        let step = Step::new(&mesh, &x0, &x1).unwrap();
        let cfg = |filters| PipelineConfig { axes: k, filters, collect_pairs: true, ..PipelineConfig::default() };
        let base = Pipeline::new(PipelineConfig { window: false, ..cfg(FilterSet::None) }).step(&step).unwrap();
        for filters in FilterSet::ALL {
            for window in [false, true] {
                let out = Pipeline::new(PipelineConfig { window, ..cfg(filters) }).step(&step).unwrap();
                prop_assert_eq!(keys(&out.pairs), keys(&base.pairs));
            }
        }
        let aligned = Pipeline::new(PipelineConfig { time_aligned: true, ..cfg(FilterSet::SlpfDnf) }).step(&step).unwrap();
        prop_assert_eq!(keys(&aligned.pairs), keys(&base.pairs));
        prop_assert_eq!(aligned.report.toi, base.report.toi);
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let two = pool.install(|| Pipeline::new(cfg(FilterSet::SlpfDnf)).step(&step)).unwrap();
        let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap()
            .install(|| Pipeline::new(cfg(FilterSet::SlpfDnf)).step(&step)).unwrap();
        prop_assert_eq!(one.pairs, two.pairs);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// A step with a coordinate outside the exact solver's filter range (a
    /// tiny nonzero one, `in_filter_range` false): every pair the pipeline
    /// reports, with its time of impact, is the exact solver's on the
    /// brute-force candidates, and no other. (The solver then checks the
    /// range of each query itself; on steps wholly in range the pipeline
    /// skips that check, and debug builds assert the range wherever it is
    /// skipped.)
    #[test]
    fn a_coordinate_outside_the_filter_range_changes_no_collision(
        (mesh, mut x0, mut x1) in random_sheet(),
        v in 0usize..9,
    ) {
        x0[v].z = 1e-30;
        x1[v].z = -3e-31;
        prop_assert!(!ccdlab::math::in_filter_range(1e-30));
        let step = Step::new(&mesh, &x0, &x1).unwrap();
        let cfg = PipelineConfig { filters: FilterSet::None, window: false, collect_pairs: true, ..PipelineConfig::default() };
        let out = Pipeline::new(cfg).step(&step).unwrap();
        let got: BTreeSet<_> = out.pairs.iter().map(|p| (p.kind, p.a, p.b, p.toi_lower.to_bits(), p.toi_upper.to_bits())).collect();
        let (cands, _) = brute_force_candidates(&step, KdopAxes::Dop26);
        let (a, b) = (&x0, &x1);
        let mut want = BTreeSet::new();
        for p in &cands.vertex_face {
            let [f0, f1, f2] = mesh.faces()[p.f as usize].map(|i| i as usize);
            let q = p.v as usize;
            if let Some(t) = vertex_face(&a[q], &a[f0], &a[f1], &a[f2], &b[q], &b[f0], &b[f1], &b[f2]) {
                let ids = (mesh.global_id(Feature::Vertex(p.v)), mesh.global_id(Feature::Face(p.f)));
                want.insert((QueryKind::VertexFace, ids.0, ids.1, t.lower.to_bits(), t.upper.to_bits()));
            }
        }
        for p in &cands.edge_edge {
            let [c, d] = mesh.edges()[p.e0 as usize].map(|i| i as usize);
            let [e, f] = mesh.edges()[p.e1 as usize].map(|i| i as usize);
            if let Some(t) = edge_edge(&a[c], &a[d], &a[e], &a[f], &b[c], &b[d], &b[e], &b[f]) {
                let ids = (mesh.global_id(Feature::Edge(p.e0)), mesh.global_id(Feature::Edge(p.e1)));
                want.insert((QueryKind::EdgeEdge, ids.0, ids.1, t.lower.to_bits(), t.upper.to_bits()));
            }
        }
        prop_assert_eq!(got, want);
    }
}

#[test]
fn a_mismatched_frame_is_an_error() {
    let scene = funnel();
    let mut p = Pipeline::new(PipelineConfig::default());
    let step = Step::new(&scene.mesh, &scene.x_t0, &scene.x_t1).unwrap();
    let _ = p.step(&step).unwrap();
    let small = TriMesh::new(3, vec![[0, 1, 2]]).unwrap();
    let x = vec![Vec3::zeros(); 3];
    let other = Step::new(&small, &x, &x).unwrap();
    assert!(p.step(&other).is_err());
}
