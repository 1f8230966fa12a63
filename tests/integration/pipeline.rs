//! The whole pipeline on the real steps and on random meshes: every pair the
//! exact ground truth marks colliding is found, nothing else is, filters
//! never cull a collision, and the output does not depend on the thread
//! count.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::OnceLock;

use ccdlab::bounding_volume::KdopAxes;
use ccdlab::broad_phase::brute_force_candidates;
use ccdlab::filter::FilterSet;
use ccdlab::harness::data::require_root;
use ccdlab::harness::ground_truth::{read_boxes, read_mma_bool};
use ccdlab::math::Vec3;
use ccdlab::mesh::{Feature, Step, TriMesh, read_step};
use ccdlab::narrow_phase::{EXACT_TOI_WIDTH, Solver, edge_edge, oracle, vertex_face};
use ccdlab::pair_kernel::QueryKind;
use ccdlab::pipeline::{
    AUTO_MIN_MOTION, BvhMode, ContactPair, KindCounts, Pipeline, PipelineConfig, PipelineError,
    StepOutcome, StepReport, TimeAligned, motion_ratio,
};
use proptest::prelude::*;

pub(super) struct Scene {
    pub(super) mesh: TriMesh,
    pub(super) x_t0: Vec<Vec3>,
    pub(super) x_t1: Vec<Vec3>,
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

pub(super) fn cloth_ball() -> &'static Scene {
    static S: OnceLock<Scene> = OnceLock::new();
    S.get_or_init(|| load_scene("cloth-ball", "cloth_ball92.ply", "cloth_ball93.ply", "92"))
}

pub(super) fn funnel() -> &'static Scene {
    static S: OnceLock<Scene> = OnceLock::new();
    S.get_or_init(|| load_scene("cloth-funnel", "227.ply", "228.ply", "227"))
}

pub(super) fn run(scene: &Scene, config: PipelineConfig, threads: usize) -> StepOutcome {
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

pub(super) fn keys(pairs: &[ContactPair]) -> BTreeSet<(QueryKind, u64, u64)> {
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
        assert_eq!(a.report.bvh_tests, b.report.bvh_tests, "{name}");
        let t = &a.report.bvh_tests;
        let candidates = a.report.vf.candidates + a.report.ee.candidates;
        assert!(
            t.leaf_pairs > 0 && t.feature_tests >= candidates,
            "{name}: {t:?}"
        );
        assert!(t.node_tests >= t.leaf_pairs, "{name}: {t:?}");
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
                time_aligned: TimeAligned::On,
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
            (&one.report.vf, &one.report.ee, &one.report.bvh_tests),
            (&two.report.vf, &two.report.ee, &two.report.bvh_tests)
        );
        let (t, s) = (&two.report.bvh_tests, &swept.report.bvh_tests);
        assert_eq!(s.leaf_pairs_pruned, 0, "{name}");
        assert!(t.leaf_pairs_pruned > 0, "{name}: no leaf pair pruned");
        assert!(t.leaf_pairs + t.leaf_pairs_pruned <= s.leaf_pairs, "{name}");
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
    assert_eq!(refitted.report.bvh, BvhMode::Refit);
    let fresh = Pipeline::new(collecting(FilterSet::SlpfDnf))
        .step(&step)
        .unwrap();
    assert_eq!(refitted.pairs, fresh.pairs);
    assert_eq!(refitted.report.vf, fresh.report.vf);
    // The same tree, too: it was built on the reversed step, whose
    // centroids (sums of both frames' corners) are this step's.
    assert_eq!(refitted.report.bvh_tests, fresh.report.bvh_tests);
    // Asked to, the next step builds anew (over the old tree's memory),
    // then refits again.
    p.rebuild_next();
    let rebuilt = p.step(&step).unwrap();
    assert_eq!(rebuilt.report.bvh, BvhMode::Build);
    assert_eq!(rebuilt.pairs, fresh.pairs);
    assert_eq!(
        (rebuilt.report.vf, rebuilt.report.ee),
        (fresh.report.vf, fresh.report.ee)
    );
    assert_eq!(p.step(&step).unwrap().report.bvh, BvhMode::Refit);
}

/// `TimeAligned::Auto` on the real steps: funnel 227→228, whose vertices
/// move about a sixth of an edge, runs the paper's BVH and filters;
/// cloth-ball 92→93, whose vertices move more than an edge, prunes and
/// leaves SLPF out. Either way the report and the pairs are those of the
/// setting chosen, on 1 and 2 threads.
#[test]
fn auto_time_aligned_chooses_by_motion_on_the_real_steps() {
    for (scene, name, prunes) in [
        (funnel(), "funnel", false),
        (cloth_ball(), "cloth-ball", true),
    ] {
        let step = Step::new(&scene.mesh, &scene.x_t0, &scene.x_t1).unwrap();
        let ratio = motion_ratio(&step);
        assert_eq!(ratio >= AUTO_MIN_MOTION, prunes, "{name}: ratio {ratio}");
        let auto = PipelineConfig {
            time_aligned: TimeAligned::Auto,
            ..collecting(FilterSet::SlpfDnf)
        };
        let chosen = if prunes {
            PipelineConfig {
                time_aligned: TimeAligned::On,
                ..collecting(FilterSet::Dnf)
            }
        } else {
            collecting(FilterSet::SlpfDnf)
        };
        let want = run(scene, chosen, 2);
        for threads in [1, 2] {
            let got = run(scene, auto.clone(), threads);
            assert_eq!(got.report.time_aligned, prunes, "{name}");
            assert_eq!(got.report.filters, want.report.filters, "{name}");
            assert_eq!(
                (&got.report.vf, &got.report.ee),
                (&want.report.vf, &want.report.ee),
                "{name}"
            );
            assert_eq!(got.pairs, want.pairs, "{name}");
            assert_eq!(
                (got.report.toi, got.report.toi_upper),
                (want.report.toi, want.report.toi_upper),
                "{name}"
            );
        }
    }
}

/// `TimeAligned::Auto` decides when the BVH is built: a sequence that
/// starts still and then moves far keeps the paper's BVH through its
/// refits, and prunes once asked to rebuild.
#[test]
fn auto_time_aligned_decides_at_each_build() {
    let scene = funnel();
    let still = Step::new(&scene.mesh, &scene.x_t0, &scene.x_t0).unwrap();
    // Funnel 227→228's motion, ten times over.
    let far: Vec<Vec3> = scene
        .x_t0
        .iter()
        .zip(&scene.x_t1)
        .map(|(a, b)| a + (b - a) * 10.0)
        .collect();
    let moving = Step::new(&scene.mesh, &scene.x_t0, &far).unwrap();
    assert!(motion_ratio(&moving) >= AUTO_MIN_MOTION);
    let mut p = Pipeline::new(PipelineConfig {
        time_aligned: TimeAligned::Auto,
        ..collecting(FilterSet::SlpfDnf)
    });
    let first = p.step(&still).unwrap().report;
    assert_eq!((first.bvh, first.time_aligned), (BvhMode::Build, false));
    let refitted = p.step(&moving).unwrap();
    assert_eq!(refitted.report.bvh, BvhMode::Refit);
    assert!(!refitted.report.time_aligned);
    assert_eq!(refitted.report.filters, FilterSet::SlpfDnf);
    p.rebuild_next();
    let rebuilt = p.step(&moving).unwrap();
    assert_eq!(rebuilt.report.bvh, BvhMode::Build);
    assert!(rebuilt.report.time_aligned);
    assert_eq!(rebuilt.report.filters, FilterSet::Dnf);
    // The same collisions either way, listed in the same order (by
    // feature) though the trees differ.
    assert_ne!(rebuilt.report.bvh_tests, refitted.report.bvh_tests);
    assert!(!rebuilt.pairs.is_empty());
    assert_eq!(rebuilt.pairs, refitted.pairs);
    let sorted = |p: &[ContactPair]| {
        p.windows(2)
            .all(|w| (w[0].kind, w[0].a, w[0].b) < (w[1].kind, w[1].a, w[1].b))
    };
    assert!(sorted(&rebuilt.pairs));
    assert_eq!(rebuilt.report.toi, refitted.report.toi);
    // And the next refit keeps the pruned tree.
    assert!(p.step(&moving).unwrap().report.time_aligned);
}

/// A small random deforming mesh: a jittered grid sheet whose vertices move
/// randomly, so that it crosses itself.
pub(super) fn random_sheet() -> impl Strategy<Value = (TriMesh, Vec<Vec3>, Vec<Vec3>)> {
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
        let aligned = Pipeline::new(PipelineConfig { time_aligned: TimeAligned::On, ..cfg(FilterSet::SlpfDnf) }).step(&step).unwrap();
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

/// A tiny mesh on an integer grid: two or three separate triangles, a
/// 3 × 3 sheet, a triangle with codimensional edges and points beside it,
/// or rods alone, whose vertices sit at integer points in `[-r, r]³` at both
/// times (some of them still), scaled by `2^e`, with up to three
/// coordinates then moved by a few ulps. Exact degeneracies are the rule
/// here: coplanar motion, contacts exactly at `t = 0` or `t = 1`, touching
/// bounding volumes, parallel edges, coincident vertices; the nudged ones
/// miss or cross them by a rounding error. One scale in four is from
/// [`EXTREME_EXPONENTS`].
pub(super) fn integer_grid_mesh() -> impl Strategy<Value = (TriMesh, Vec<Vec3>, Vec<Vec3>)> {
    (
        0usize..5,
        1i32..=2,
        prop_oneof![3 => -30i32..=30, 1 => prop::sample::select(EXTREME_EXPONENTS)],
        proptest::collection::vec(-2i32..=2, 2 * 3 * 9),
        proptest::collection::vec(any::<bool>(), 9),
        proptest::collection::vec((0usize..2 * 3 * 9, -3i32..=3), 0..4),
    )
        .prop_map(|(kind, r, e, coords, still, nudges)| {
            // Codimensional edges (kind 3: beside a triangle, one of them
            // at its corner, with a face edge and a repeat given too, which
            // are dropped; kind 4: rods alone) and points (kind 3: 7, 8).
            let edges: &[[u32; 2]] = match kind {
                3 => &[[2, 3], [3, 4], [5, 6], [1, 0], [6, 5]],
                4 => &[[0, 1], [1, 2], [2, 3], [4, 5], [6, 7], [8, 7]],
                _ => &[],
            };
            let (nv, faces) = match kind {
                0 => (6, vec![[0, 1, 2], [3, 4, 5]]),
                1 => (9, vec![[0, 1, 2], [3, 4, 5], [6, 7, 8]]),
                3 => (9, vec![[0, 1, 2]]),
                4 => (9, vec![]),
                _ => (
                    9,
                    vec![
                        [0, 3, 4],
                        [0, 4, 1],
                        [1, 4, 5],
                        [1, 5, 2],
                        [3, 6, 7],
                        [3, 7, 4],
                        [4, 7, 8],
                        [4, 8, 5],
                    ],
                ),
            };
            let scale = 2f64.powi(e);
            let at = |i: usize| {
                let x = f64::from(coords[i].clamp(-r, r)) * scale;
                nudges
                    .iter()
                    .filter(|(j, _)| *j == i)
                    .fold(x, |x, &(_, k)| ulps(x, k))
            };
            let x0: Vec<Vec3> = (0..nv)
                .map(|v| Vec3::new(at(3 * v), at(3 * v + 1), at(3 * v + 2)))
                .collect();
            let x1: Vec<Vec3> = (0..nv)
                .map(|v| {
                    if still[v] {
                        x0[v]
                    } else {
                        Vec3::new(at(27 + 3 * v), at(28 + 3 * v), at(29 + 3 * v))
                    }
                })
                .collect();
            (TriMesh::with_edges(nv, faces, edges).unwrap(), x0, x1)
        })
}

/// Exponents `e` of scales `2^e` at the ends of the double range: subnormal
/// and barely normal points (`2⁻¹⁰⁷⁴` is the least subnormal), points whose
/// differences' products underflow, and points whose products overflow
/// (beyond the filters' `2²⁰⁰` and the solver's filter range), up to `2¹⁰²¹`
/// (times the meshes' coordinates of at most 2, still finite).
const EXTREME_EXPONENTS: &[i32] = &[
    -1074, -1060, -1040, -1022, -1000, -700, -540, -500, -300, 190, 200, 210, 300, 340, 500, 1000,
    1015, 1021,
];

/// `x` moved by `k` ulps (up if `k > 0`).
fn ulps(x: f64, k: i32) -> f64 {
    (0..k.abs()).fold(x, |y, _| if k > 0 { y.next_up() } else { y.next_down() })
}

/// Every vertex–face and edge–edge pair of the mesh (no shared vertex), and
/// every pair of a codimensional point with a codimensional edge or another
/// point, that the exact oracle finds colliding, with a bracket of its
/// earliest time of impact: the slowest possible reference, with no
/// bounding volume, filter or fast solver in it.
fn oracle_collisions(step: &Step<'_>) -> BTreeMap<(QueryKind, u64, u64), [f64; 2]> {
    oracle_collisions_within(step, 0.0)
}

/// [`oracle_collisions`] for a minimum separation `d` (the exact
/// minimum-separation oracle when `d > 0`).
pub(super) fn oracle_collisions_within(
    step: &Step<'_>,
    d: f64,
) -> BTreeMap<(QueryKind, u64, u64), [f64; 2]> {
    let (mesh, a, b) = (step.mesh(), step.x_t0(), step.x_t1());
    let bracket = |mut t: ccdlab::exact::Algebraic| {
        t.refine_to(EXACT_TOI_WIDTH);
        [t.lower_f64(), t.upper_f64()]
    };
    let mut hits = BTreeMap::new();
    for (f, tri) in mesh.faces().iter().enumerate() {
        let [c0, c1, c2] = tri.map(|i| i as usize);
        for v in (0..mesh.num_vertices() as u32).filter(|v| !tri.contains(v)) {
            let q = v as usize;
            let hit = if d > 0.0 {
                oracle::vertex_face_within(
                    &a[q], &a[c0], &a[c1], &a[c2], &b[q], &b[c0], &b[c1], &b[c2], d,
                )
            } else {
                oracle::vertex_face(&a[q], &a[c0], &a[c1], &a[c2], &b[q], &b[c0], &b[c1], &b[c2])
            };
            if let Some(t) = hit {
                let ids = (Feature::Vertex(v), Feature::Face(f as u32));
                let key = (
                    QueryKind::VertexFace,
                    mesh.global_id(ids.0),
                    mesh.global_id(ids.1),
                );
                hits.insert(key, bracket(t));
            }
        }
    }
    let edges = mesh.edges();
    for (i, &[p, q]) in edges.iter().enumerate() {
        for (j, &[r, s]) in edges.iter().enumerate().skip(i + 1) {
            if [p, q].iter().any(|x| *x == r || *x == s) {
                continue;
            }
            let [p, q, r, s] = [p, q, r, s].map(|x| x as usize);
            let hit = if d > 0.0 {
                oracle::edge_edge_within(&a[p], &a[q], &a[r], &a[s], &b[p], &b[q], &b[r], &b[s], d)
            } else {
                oracle::edge_edge(&a[p], &a[q], &a[r], &a[s], &b[p], &b[q], &b[r], &b[s])
            };
            if let Some(t) = hit {
                let ids = (Feature::Edge(i as u32), Feature::Edge(j as u32));
                let key = (
                    QueryKind::EdgeEdge,
                    mesh.global_id(ids.0),
                    mesh.global_id(ids.1),
                );
                hits.insert(key, bracket(t));
            }
        }
    }
    // Each codimensional point against every codimensional edge and every
    // other point, as a zero-length edge.
    let points = mesh.codim_vertices();
    let codim =
        (mesh.num_face_edges()..mesh.num_edges()).map(|e| (Feature::Edge(e as u32), edges[e]));
    let others: Vec<_> = codim
        .chain(points.iter().map(|&w| (Feature::Vertex(w), [w, w])))
        .collect();
    for &v in points {
        for &(other, [r, s]) in &others {
            if other == Feature::Vertex(v) || (matches!(other, Feature::Vertex(w) if w < v)) {
                continue;
            }
            let (p, [r, s]) = (v as usize, [r as usize, s as usize]);
            let hit = if d > 0.0 {
                oracle::edge_edge_within(&a[p], &a[p], &a[r], &a[s], &b[p], &b[p], &b[r], &b[s], d)
            } else {
                oracle::edge_edge(&a[p], &a[p], &a[r], &a[s], &b[p], &b[p], &b[r], &b[s])
            };
            if let Some(t) = hit {
                let key = (
                    QueryKind::EdgeEdge,
                    mesh.global_id(Feature::Vertex(v)),
                    mesh.global_id(other),
                );
                hits.insert(key, bracket(t));
            }
        }
    }
    hits
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// On meshes full of exact degeneracies, the whole pipeline (every k
    /// with time-aligned pruning on and off; with k = 26, also every filter
    /// setting with the window filter on and off: the filters do not depend
    /// on k; and every exact solver) reports exactly the pairs that the
    /// exact oracle finds colliding among all pairs of the mesh, each with
    /// a time-of-impact bracket that meets the oracle's: the closed
    /// bounding-volume tests, the filters' rounding bounds and the solver's
    /// tiers meet touching contacts without a miss.
    #[test]
    fn degenerate_meshes_report_exactly_the_oracles_collisions(
        (mesh, x0, x1) in integer_grid_mesh(),
    ) {
        let step = Step::new(&mesh, &x0, &x1).unwrap();
        let truth = oracle_collisions(&step);
        let want: BTreeSet<_> = truth.keys().copied().collect();
        for (solver, axes) in Solver::ALL.into_iter().filter(|s| s.is_exact()).flat_map(|s| KdopAxes::ALL.map(|k| (s, k))) {
            for filters in FilterSet::ALL {
                for (window, time_aligned) in [(false, TimeAligned::Off), (true, TimeAligned::Off), (false, TimeAligned::On), (true, TimeAligned::On), (true, TimeAligned::Auto)] {
                    if axes != KdopAxes::Dop26 && (filters != FilterSet::None || window) {
                        continue;
                    }
                    let config = PipelineConfig { axes, filters, window, time_aligned, solver, collect_pairs: true, ..PipelineConfig::default() };
                    let out = Pipeline::new(config).step(&step).unwrap();
                    let setting = format!("{solver}, k = {axes:?}, {filters:?}, window {window}, time-aligned {time_aligned:?}");
                    prop_assert_eq!(keys(&out.pairs), want.clone(), "{}", setting);
                    for p in &out.pairs {
                        let [lo, hi] = truth[&(p.kind, p.a, p.b)];
                        prop_assert!(
                            p.toi_lower <= hi && lo <= p.toi_upper,
                            "{}: {:?} at [{}, {}], the oracle's [{}, {}]", setting, p, p.toi_lower, p.toi_upper, lo, hi
                        );
                    }
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Minimum separation `d > 0` (a quarter, half or all of the mesh's
    /// extent, so that features touch at exactly `d` and the integer grid's
    /// degeneracies meet the distance): for both ends of k and every
    /// time-aligned setting, the pipeline reports exactly the exact
    /// minimum-separation oracle's pairs among all pairs of the mesh, with
    /// brackets that meet the oracle's, with every filter setting (DNF and,
    /// with the 26-DOP, the window filter on and off, both with a margin of
    /// d; SLPF off, as the report says) and every time-aligned setting; the
    /// pairs include the contact pairs, none later.
    #[test]
    fn degenerate_meshes_within_d_report_exactly_the_oracles_pairs(
        (mesh, x0, x1) in integer_grid_mesh(),
        m in prop::sample::select(&[0.25, 0.5, 1.0][..]),
    ) {
        let extent = x0.iter().chain(&x1).flat_map(|p| [p.x.abs(), p.y.abs(), p.z.abs()]).fold(0.0, f64::max);
        let d = if extent * m > 0.0 { extent * m } else { 1.0 };
        let step = Step::new(&mesh, &x0, &x1).unwrap();
        let truth = oracle_collisions_within(&step, d);
        let want: BTreeSet<_> = truth.keys().copied().collect();
        let contact = Pipeline::new(PipelineConfig { collect_pairs: true, ..PipelineConfig::default() })
            .step(&step)
            .unwrap();
        for axes in [KdopAxes::Dop6, KdopAxes::Dop26] {
            let windows: &[bool] = if axes == KdopAxes::Dop26 { &[true, false] } else { &[true] };
            for (time_aligned, filters, &window) in [TimeAligned::Off, TimeAligned::On, TimeAligned::Auto]
                .into_iter()
                .flat_map(|t| FilterSet::ALL.map(|f| (t, f)))
                .flat_map(|(t, f)| windows.iter().map(move |w| (t, f, w)))
            {
                let config = PipelineConfig { axes, time_aligned, filters, window, min_distance: d, collect_pairs: true, ..PipelineConfig::default() };
                let out = Pipeline::new(config.clone()).step(&step).unwrap();
                let setting = format!("d = {d:e}, k = {axes:?}, time-aligned {time_aligned:?}, {filters}, window {window}");
                prop_assert_eq!(keys(&out.pairs), want.clone(), "{}", setting);
                let r = &out.report;
                prop_assert!(r.filters == filters.without_slpf() && r.window == window, "{}", setting);
                prop_assert!(time_aligned != TimeAligned::On || r.time_aligned, "{}", setting);
                prop_assert!(time_aligned != TimeAligned::Off || !r.time_aligned, "{}", setting);
                prop_assert_eq!(r.min_distance, d);
                for p in &out.pairs {
                    let [lo, hi] = truth[&(p.kind, p.a, p.b)];
                    prop_assert!(
                        p.toi_lower <= hi && lo <= p.toi_upper,
                        "{}: {:?} at [{}, {}], the oracle's [{}, {}]", setting, p, p.toi_lower, p.toi_upper, lo, hi
                    );
                }
                for c in &contact.pairs {
                    let p = out.pairs.iter().find(|p| (p.kind, p.a, p.b) == (c.kind, c.a, c.b));
                    prop_assert!(p.is_some_and(|p| p.toi_lower <= c.toi_upper), "{}: contact {:?}", setting, c);
                }
                // Without the pairs, loose brackets narrowed only where they
                // may hold the earliest time: the same report.
                let counted = Pipeline::new(PipelineConfig { collect_pairs: false, ..config }).step(&step).unwrap();
                prop_assert_eq!(same_report(&counted.report), same_report(r), "{}", setting);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// `is_collision_free`, which stops at the first colliding pair, says
    /// "free" exactly when the exact oracle finds no pair among all pairs
    /// of a mesh full of degeneracies, at contact and at a `d` where
    /// features touch at exactly `d`, on 1 and 2 threads, with the default
    /// filters and with none.
    #[test]
    fn is_collision_free_is_the_oracles_answer_on_degenerate_meshes(
        (mesh, x0, x1) in integer_grid_mesh(),
        m in prop::sample::select(&[0.0, 0.25, 1.0][..]),
    ) {
        let extent = x0.iter().chain(&x1).flat_map(|p| [p.x.abs(), p.y.abs(), p.z.abs()]).fold(0.0, f64::max);
        let d = extent * m;
        let step = Step::new(&mesh, &x0, &x1).unwrap();
        let free = oracle_collisions_within(&step, d).is_empty();
        for filters in [FilterSet::SlpfDnf, FilterSet::None] {
            for threads in [1, 2] {
                let config = PipelineConfig { filters, min_distance: d, ..PipelineConfig::default() };
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
                let got = pool.install(|| Pipeline::new(config).is_collision_free(&step, None)).unwrap();
                prop_assert_eq!(got, free, "d = {:e}, {:?}, {} threads", d, filters, threads);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// `earliest_toi`, which skips the pairs that stay apart past the
    /// earliest time found so far, gives a bracket inside the full step's
    /// that meets the exact oracle's earliest time, the same on 1 and 2
    /// threads, and `None` exactly when the oracle finds no pair, on meshes
    /// full of degeneracies at contact and at a `d` where features touch at
    /// exactly `d`.
    #[test]
    fn earliest_toi_meets_the_oracles_earliest_time_on_degenerate_meshes(
        (mesh, x0, x1) in integer_grid_mesh(),
        m in prop::sample::select(&[0.0, 0.25, 1.0][..]),
    ) {
        let extent = x0.iter().chain(&x1).flat_map(|p| [p.x.abs(), p.y.abs(), p.z.abs()]).fold(0.0, f64::max);
        let d = extent * m;
        let step = Step::new(&mesh, &x0, &x1).unwrap();
        let truth = oracle_collisions_within(&step, d);
        let lo = truth.values().map(|b| b[0]).fold(f64::INFINITY, f64::min);
        let hi = truth.values().map(|b| b[1]).fold(f64::INFINITY, f64::min);
        let config = PipelineConfig { min_distance: d, ..PipelineConfig::default() };
        let full = Pipeline::new(config.clone()).step(&step).unwrap().report;
        let mut answers = Vec::new();
        for threads in [1, 2] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            answers.push(pool.install(|| Pipeline::new(config.clone()).earliest_toi(&step, None)).unwrap());
        }
        prop_assert_eq!(answers[0], answers[1]);
        match answers[0] {
            None => prop_assert!(truth.is_empty() && full.toi.is_none()),
            Some(t) => {
                prop_assert!(t.lower <= hi && lo <= t.upper, "{:?} against the oracle's [{}, {}]", t, lo, hi);
                let (l, u) = (full.toi.unwrap(), full.toi_upper.unwrap());
                prop_assert!(l <= t.lower && t.upper <= u, "{:?} outside the step's [{}, {}]", t, l, u);
            }
        }
    }
}

/// On the real steps `earliest_toi` gives the full step's bracket, on 1
/// and 2 threads, at contact and within `d` (where the earliest time is
/// positive, and where it is 0).
#[test]
fn earliest_toi_on_the_real_steps_is_the_steps_bracket() {
    for (scene, mean_edge) in [
        (funnel(), 0.019109353562922374),
        (cloth_ball(), 0.21639446265508272),
    ] {
        let step = Step::new(&scene.mesh, &scene.x_t0, &scene.x_t1).unwrap();
        for m in [0.0, 1e-6, 1e-4] {
            let config = PipelineConfig {
                min_distance: m * mean_edge,
                ..PipelineConfig::default()
            };
            let full = Pipeline::new(config.clone()).step(&step).unwrap().report;
            for threads in [1, 2] {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                let got = pool
                    .install(|| Pipeline::new(config.clone()).earliest_toi(&step, None))
                    .unwrap();
                let got = got.map(|t| (t.lower, t.upper));
                assert_eq!(
                    got,
                    full.toi.zip(full.toi_upper),
                    "d = {m} L, {threads} threads"
                );
            }
        }
    }
}

/// On the real steps, which collide at contact and within `d`,
/// `is_collision_free` says so on 1 and 2 threads.
#[test]
fn is_collision_free_on_the_real_steps() {
    for scene in [funnel(), cloth_ball()] {
        let step = Step::new(&scene.mesh, &scene.x_t0, &scene.x_t1).unwrap();
        for d in [0.0, 1e-4] {
            for threads in [1, 2] {
                let config = PipelineConfig {
                    min_distance: d,
                    ..PipelineConfig::default()
                };
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                let got = pool.install(|| Pipeline::new(config).is_collision_free(&step, None));
                assert!(!got.unwrap(), "d = {d}, {threads} threads");
            }
        }
    }
}

/// What a step reports apart from its times and how many pairs the exact
/// path decided.
pub(super) fn same_report(r: &StepReport) -> impl PartialEq + std::fmt::Debug {
    // Every field named (no `..`): a new count is compared, or left out
    // here on purpose.
    let counts = |k: &KindCounts| {
        let KindCounts {
            candidates,
            candidates_same_component: _,
            culled_slpf,
            culled_dnf,
            after_filter,
            culled_window,
            colliding,
            colliding_same_component,
            culling_rate_percent: _,
            exact_fallbacks: _,
        } = *k;
        (
            candidates,
            culled_slpf,
            culled_dnf,
            after_filter,
            culled_window,
            colliding,
            colliding_same_component,
        )
    };
    (
        counts(&r.vf),
        counts(&r.ee),
        r.toi,
        r.toi_upper,
        r.filters,
        r.window,
        r.time_aligned,
    )
}

/// Funnel 227→228 at separations from 10⁻⁶ to 10⁻² of its mean edge
/// length, on 1 and 2 threads: a step that does not collect its pairs
/// (loose brackets, narrowed only where they may hold the earliest time)
/// reports the counts and the earliest time's bracket of one that does, and
/// the earliest pair's bracket is among the collected ones.
#[test]
fn a_step_without_its_pairs_reports_the_same_at_a_min_distance() {
    let scene = funnel();
    let mean_edge = 0.019109353562922374;
    for ratio in [1e-6, 1e-3, 1e-2] {
        let config = PipelineConfig {
            min_distance: ratio * mean_edge,
            ..PipelineConfig::default()
        };
        let collected = run(
            scene,
            PipelineConfig {
                collect_pairs: true,
                ..config.clone()
            },
            2,
        );
        let r = &collected.report;
        assert!(r.vf.colliding + r.ee.colliding > 0, "d/L = {ratio}");
        let lowest = collected
            .pairs
            .iter()
            .map(|p| p.toi_lower)
            .fold(f64::INFINITY, f64::min);
        assert_eq!(r.toi, Some(lowest), "d/L = {ratio}");
        for threads in [1, 2] {
            let counted = run(scene, config.clone(), threads);
            assert!(counted.pairs.is_empty());
            assert_eq!(
                same_report(&counted.report),
                same_report(r),
                "d/L = {ratio}, {threads} threads"
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// Random deforming sheets scaled to the ends of the double range
    /// ([`EXTREME_EXPONENTS`]; coordinates of at most 7.5, so the largest
    /// scale is capped at `2¹⁰²⁰`): every filter setting, with the window
    /// filter and time-aligned pruning, reports exactly the exact oracle's
    /// collisions among all pairs of the mesh, with time-of-impact brackets
    /// that meet the oracle's. At the small end the points collapse onto a
    /// few subnormal values (coincident and coplanar features everywhere);
    /// at the large end every filter's products overflow.
    #[test]
    fn sheets_at_the_ends_of_the_double_range_report_exactly_the_oracles_collisions(
        (mesh, x0, x1) in random_sheet(),
        e in prop::sample::select(EXTREME_EXPONENTS),
    ) {
        let scale = 2f64.powi(e.min(1020));
        let x0: Vec<Vec3> = x0.iter().map(|p| p * scale).collect();
        let x1: Vec<Vec3> = x1.iter().map(|p| p * scale).collect();
        let step = Step::new(&mesh, &x0, &x1).unwrap();
        let truth = oracle_collisions(&step);
        let want: BTreeSet<_> = truth.keys().copied().collect();
        for filters in FilterSet::ALL {
            for (window, time_aligned) in [(false, TimeAligned::Off), (true, TimeAligned::Off), (true, TimeAligned::On), (true, TimeAligned::Auto)] {
                let config = PipelineConfig { filters, window, time_aligned, collect_pairs: true, ..PipelineConfig::default() };
                let out = Pipeline::new(config).step(&step).unwrap();
                let setting = format!("2^{e}, {filters:?}, window {window}, time-aligned {time_aligned:?}");
                prop_assert_eq!(keys(&out.pairs), want.clone(), "{}", setting);
                for p in &out.pairs {
                    let [lo, hi] = truth[&(p.kind, p.a, p.b)];
                    prop_assert!(p.toi_lower <= hi && lo <= p.toi_upper, "{}: {:?}", setting, p);
                }
            }
        }
    }
}

/// Two triangles at mixed tiny scales: a static triangle of size `2⁻³⁰⁰`
/// and a small one (size `2⁻³⁰²`) whose first corner, at `2⁻⁴⁷⁴`, falls
/// through it. The coplanarity products underflow, so DNF's per-operation
/// bounds do not hold (it once culled this pair with the default filters):
/// every filter setting reports exactly the exact oracle's collisions.
#[test]
fn a_fall_through_whose_coplanarity_products_underflow_is_reported() {
    let (s, t) = (2f64.powi(-300), 2f64.powi(-474));
    let p0 = Vec3::new(1.375 * t, 1.375 * t, (2.75 - 2f64.powi(-50)) * t);
    let p1 = Vec3::new(1.375 * t, 1.375 * t, 102.75 * t);
    let (up, side) = (Vec3::new(0.0, 0.0, s), Vec3::new(s / 4.0, 0.0, s));
    let triangle = [Vec3::zeros(), Vec3::new(s, 0.0, s), Vec3::new(0.0, s, s)];
    let x0 = [triangle.as_slice(), &[p0, p0 + up, p0 + side]].concat();
    let x1 = [triangle.as_slice(), &[p1, p1 + up, p1 + side]].concat();
    let mesh = TriMesh::new(6, vec![[0, 1, 2], [3, 4, 5]]).unwrap();
    let step = Step::new(&mesh, &x0, &x1).unwrap();
    let want: BTreeSet<_> = oracle_collisions(&step).keys().copied().collect();
    let vertex_through_face = (
        QueryKind::VertexFace,
        mesh.global_id(Feature::Vertex(3)),
        mesh.global_id(Feature::Face(0)),
    );
    assert!(want.contains(&vertex_through_face), "{want:?}");
    for filters in FilterSet::ALL {
        for window in [false, true] {
            let config = PipelineConfig {
                window,
                ..collecting(filters)
            };
            let out = Pipeline::new(config).step(&step).unwrap();
            assert_eq!(keys(&out.pairs), want, "{filters:?}, window {window}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Random sheets flattened into an axis-aligned plane that moves along
    /// its normal (`z = 0` at `t = 0`, `z = 1/2` at `t = 1`): triangles
    /// overlap, turn over and slide through each other within the plane.
    /// The pipeline reports exactly the exact oracle's collisions among all
    /// pairs of the mesh, with brackets that meet the oracle's, and decides
    /// them without the exact fallback (the planar tier, docs/design.md §9).
    #[test]
    fn sheets_moving_in_a_plane_report_the_oracles_collisions_without_the_fallback(
        (mesh, x0, x1) in random_sheet(),
    ) {
        let flat = |x: &[Vec3], z: f64| -> Vec<Vec3> { x.iter().map(|p| Vec3::new(p.x, p.y, z)).collect() };
        let (x0, x1) = (flat(&x0, 0.0), flat(&x1, 0.5));
        let step = Step::new(&mesh, &x0, &x1).unwrap();
        let truth = oracle_collisions(&step);
        let want: BTreeSet<_> = truth.keys().copied().collect();
        let out = Pipeline::new(PipelineConfig { collect_pairs: true, ..PipelineConfig::default() }).step(&step).unwrap();
        prop_assert_eq!(keys(&out.pairs), want);
        for p in &out.pairs {
            let [lo, hi] = truth[&(p.kind, p.a, p.b)];
            prop_assert!(p.toi_lower <= hi && lo <= p.toi_upper, "{:?}, the oracle's [{}, {}]", p, lo, hi);
        }
        prop_assert_eq!((out.report.vf.exact_fallbacks, out.report.ee.exact_fallbacks), (0, 0));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// Two random sheets held exactly `d` apart along `z` (the lower in the
    /// plane `z = 0` at `t = 0` and `z = 1/2` at `t = 1`, the upper `d` above
    /// it), the upper sliding across the lower: features of different
    /// sheets come within `d` exactly where their projections touch, often
    /// by a tangent entry. At `d`, the pipeline reports exactly the exact
    /// oracle's pairs among all pairs of the mesh, with brackets that meet
    /// the oracle's, and the same counts and time without its pairs.
    #[test]
    fn sheets_held_exactly_d_apart_report_the_oracles_pairs(
        (mesh, x0, x1) in random_sheet().prop_filter("small", |(m, _, _)| m.num_vertices() == 9),
        slide in [-1.0f64..1.0, -1.0f64..1.0],
    ) {
        let d = 0.0625;
        let (n, faces) = (mesh.num_vertices(), mesh.faces());
        let both: Vec<[u32; 3]> = faces.iter().copied().chain(faces.iter().map(|f| f.map(|v| v + n as u32))).collect();
        let mesh = TriMesh::new(2 * n, both).unwrap();
        let sheets = |x: &[Vec3], z: f64, shift: [f64; 2]| -> Vec<Vec3> {
            let lower = x.iter().map(|p| Vec3::new(p.x, p.y, z));
            let upper = x.iter().map(|p| Vec3::new(p.x + shift[0], p.y + shift[1], z + d));
            lower.chain(upper).collect()
        };
        let (x0, x1) = (sheets(&x0, 0.0, [0.0, 0.0]), sheets(&x1, 0.5, slide));
        let step = Step::new(&mesh, &x0, &x1).unwrap();
        let truth = oracle_collisions_within(&step, d);
        let want: BTreeSet<_> = truth.keys().copied().collect();
        let config = PipelineConfig { min_distance: d, collect_pairs: true, ..PipelineConfig::default() };
        let out = Pipeline::new(config.clone()).step(&step).unwrap();
        prop_assert_eq!(keys(&out.pairs), want);
        for p in &out.pairs {
            let [lo, hi] = truth[&(p.kind, p.a, p.b)];
            prop_assert!(p.toi_lower <= hi && lo <= p.toi_upper, "{:?}, the oracle's [{}, {}]", p, lo, hi);
        }
        let counted = Pipeline::new(PipelineConfig { collect_pairs: false, ..config }).step(&step).unwrap();
        prop_assert_eq!(same_report(&counted.report), same_report(&out.report));
    }
}

/// Two 3 × 3 grid sheets, the lower one at heights that differ by
/// subnormal amounts (coordinates spanning more bits than the filter range,
/// with no exact scale into it), the upper one descending to within `d`
/// while it slides. The pipeline reports exactly the oracle's pairs among
/// all pairs, with brackets that meet the oracle's, and decides them on the
/// query snapped into the range: no exact fallback (docs/design.md §5,
/// tier 4).
#[test]
fn sheets_at_subnormal_heights_report_the_oracles_pairs_without_the_fallback() {
    let side = 3u32;
    let mut faces = Vec::new();
    for sheet in 0..2 {
        let o = sheet * side * side;
        for r in 0..side - 1 {
            for c in 0..side - 1 {
                let i = o + r * side + c;
                faces.push([i, i + 1, i + side + 1]);
                faces.push([i, i + side + 1, i + side]);
            }
        }
    }
    let n = (side * side) as usize;
    let mesh = TriMesh::new(2 * n, faces).unwrap();
    let heights = [0.0, 5e-324, 1e-320, -3e-315, 2.5e-310];
    let d = 0.0625;
    let sheet = |z: &dyn Fn(usize) -> f64, shift: [f64; 2]| -> Vec<Vec3> {
        (0..n)
            .map(|i| {
                let (r, c) = ((i / side as usize) as f64, (i % side as usize) as f64);
                Vec3::new(0.5 * c + shift[0], 0.5 * r + shift[1], z(i))
            })
            .collect()
    };
    let lower = sheet(&|i| heights[i % heights.len()], [0.0, 0.0]);
    let x0: Vec<Vec3> = lower
        .iter()
        .copied()
        .chain(sheet(&|_| 0.25, [0.125, 0.0625]))
        .collect();
    let x1: Vec<Vec3> = lower
        .iter()
        .copied()
        .chain(sheet(&|_| 0.03125, [0.25, 0.1875]))
        .collect();
    let step = Step::new(&mesh, &x0, &x1).unwrap();
    let truth = oracle_collisions_within(&step, d);
    assert!(!truth.is_empty());
    let want: BTreeSet<_> = truth.keys().copied().collect();
    for collect_pairs in [true, false] {
        let config = PipelineConfig {
            min_distance: d,
            collect_pairs,
            ..PipelineConfig::default()
        };
        let out = Pipeline::new(config).step(&step).unwrap();
        assert_eq!(
            (out.report.vf.exact_fallbacks, out.report.ee.exact_fallbacks),
            (0, 0)
        );
        if collect_pairs {
            assert_eq!(keys(&out.pairs), want);
            for p in &out.pairs {
                let [lo, hi] = truth[&(p.kind, p.a, p.b)];
                assert!(
                    p.toi_lower <= hi && lo <= p.toi_upper,
                    "{p:?}, the oracle's [{lo}, {hi}]"
                );
            }
        } else {
            let counted = out.report.vf.colliding + out.report.ee.colliding;
            assert_eq!(counted as usize, want.len());
        }
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

/// A frame whose vertices all sit at one point (a 4 × 4 grid sheet and a
/// separate triangle, collapsed at `t = 0` onto one point, spread out at
/// `t = 1`): every vertex–face and edge–edge pair touches at `t = 0`. The
/// pipeline reports exactly the oracle's pairs, each at time 0, in every
/// setting, and decides them without the exact fallback (coincident points
/// at the start are a fast path).
#[test]
fn a_collapsed_frame_collides_everywhere_at_time_zero_without_the_fallback() {
    let side = 4u32;
    let mut faces = Vec::new();
    for r in 0..side - 1 {
        for c in 0..side - 1 {
            let i = r * side + c;
            faces.push([i, i + 1, i + side + 1]);
            faces.push([i, i + side + 1, i + side]);
        }
    }
    let n = side * side;
    faces.push([n, n + 1, n + 2]);
    let mesh = TriMesh::new(n as usize + 3, faces).unwrap();
    let x_t1: Vec<Vec3> = (0..n)
        .map(|i| Vec3::new(f64::from(i % side), f64::from(i / side), 0.5))
        .chain([
            Vec3::new(0.2, 0.3, 0.0),
            Vec3::new(2.5, 0.1, 1.0),
            Vec3::new(0.7, 2.9, -1.0),
        ])
        .collect();
    let x_t0 = vec![Vec3::new(1.25, 0.75, 0.5); x_t1.len()];
    let step = Step::new(&mesh, &x_t0, &x_t1).unwrap();
    let truth = oracle_collisions(&step);
    let want: BTreeSet<_> = truth.keys().copied().collect();
    let (v, e, f) = (mesh.num_vertices(), mesh.num_edges(), mesh.num_faces());
    // Every pair without a shared vertex: all of them touch at t = 0.
    assert!(want.len() > (v * f + e * e / 2) / 2, "{} pairs", want.len());
    assert!(truth.values().all(|&[lo, hi]| lo == 0.0 && hi == 0.0));
    for filters in FilterSet::ALL {
        for time_aligned in [TimeAligned::Off, TimeAligned::On, TimeAligned::Auto] {
            let config = PipelineConfig {
                filters,
                time_aligned,
                collect_pairs: true,
                ..PipelineConfig::default()
            };
            let out = Pipeline::new(config).step(&step).unwrap();
            assert_eq!(keys(&out.pairs), want, "{filters:?}, {time_aligned:?}");
            assert!(
                out.pairs
                    .iter()
                    .all(|p| p.toi_lower == 0.0 && p.toi_upper == 0.0)
            );
            assert_eq!(out.report.toi, Some(0.0));
            assert_eq!(
                (out.report.vf.exact_fallbacks, out.report.ee.exact_fallbacks),
                (0, 0),
                "{filters:?}, {time_aligned:?}"
            );
        }
    }
}

/// A minimum separation that is no finite distance is a typed error, before
/// any work; `-0` is contact, with the same report as the default; the
/// smallest positive one runs the minimum-separation path and finds the
/// contacts, and is refused with the cubic solver (contact only).
#[test]
fn a_bad_min_distance_is_refused_and_zero_is_contact() {
    let mesh = TriMesh::new(6, vec![[0, 1, 2], [3, 4, 5]]).unwrap();
    let x0: Vec<Vec3> = (0..6)
        .map(|i| Vec3::new(i as f64, (i % 3) as f64, 0.0))
        .collect();
    let x1: Vec<Vec3> = x0.iter().map(|p| p + Vec3::new(0.0, 0.0, 1.0)).collect();
    let step = Step::new(&mesh, &x0, &x1).unwrap();
    for d in [f64::NAN, -1.0, -f64::MIN_POSITIVE, f64::INFINITY] {
        let config = PipelineConfig {
            min_distance: d,
            ..PipelineConfig::default()
        };
        let err = Pipeline::new(config).step(&step).unwrap_err();
        assert!(matches!(err, PipelineError::MinDistance(_)), "{d}: {err:?}");
        assert!(err.to_string().starts_with("min_distance: "), "{err}");
    }
    let zero = PipelineConfig {
        min_distance: -0.0,
        ..PipelineConfig::default()
    };
    let (a, b) = (
        Pipeline::new(zero).step(&step).unwrap().report,
        Pipeline::new(PipelineConfig::default())
            .step(&step)
            .unwrap()
            .report,
    );
    assert_eq!(
        (a.vf, a.ee, a.toi, a.filters, a.min_distance),
        (b.vf, b.ee, b.toi, b.filters, 0.0)
    );
    let tiny = PipelineConfig {
        min_distance: f64::from_bits(1),
        ..PipelineConfig::default()
    };
    // The cubic solver decides contact only: refused at any d > 0.
    let cubic = PipelineConfig {
        solver: ccdlab::narrow_phase::Solver::Cubic,
        ..tiny.clone()
    };
    let err = Pipeline::new(cubic).step(&step).unwrap_err();
    assert!(
        matches!(
            err,
            PipelineError::NoSeparation(ccdlab::narrow_phase::Solver::Cubic)
        ),
        "{err:?}"
    );
    let c = Pipeline::new(tiny).step(&step).unwrap().report;
    assert_eq!(
        (c.filters, c.window, c.solver),
        (FilterSet::Dnf, true, ccdlab::narrow_phase::Solver::Exact)
    );
    assert!(c.vf.colliding >= b.vf.colliding && c.ee.colliding >= b.ee.colliding);
    assert!(c.toi <= b.toi);
}

/// A step with more pairs to keep than `max_pairs` (collected colliding
/// pairs, listed candidates) fails with a typed error on any thread count,
/// and at exactly the limit it succeeds; its counts alone need no list and
/// run whatever the limit. Then the pipeline carries on.
#[test]
fn more_pairs_to_keep_than_max_pairs_is_a_typed_error() {
    let scene = funnel();
    let step = Step::new(&scene.mesh, &scene.x_t0, &scene.x_t1).unwrap();
    let full = run(scene, collecting(FilterSet::SlpfDnf), 2);
    let n = full.pairs.len() as u64;
    assert_eq!(n, 134);
    let with = |max_pairs, collect_pairs| PipelineConfig {
        max_pairs,
        collect_pairs,
        ..PipelineConfig::default()
    };
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let mut p = Pipeline::new(with(n - 1, true));
            let e = p.step(&step).unwrap_err();
            assert!(
                matches!(e, PipelineError::TooManyPairs { limit } if limit == n - 1),
                "{e:?}"
            );
            assert!(e.to_string().contains("more than 133 pairs"), "{e}");
            let at = Pipeline::new(with(n, true)).step(&step).unwrap();
            assert_eq!(at.pairs, full.pairs);
            let counted = Pipeline::new(with(0, false)).step(&step).unwrap();
            assert_eq!(counted.report.vf, full.report.vf);
            assert_eq!(counted.report.ee, full.report.ee);
            // The listing: its pairs count too.
            let listed = Pipeline::new(with(u64::MAX, false))
                .candidates(&step)
                .unwrap();
            let m = (listed.vertex_face.len() + listed.edge_edge.len()) as u64;
            let e = Pipeline::new(with(m - 1, false))
                .candidates(&step)
                .unwrap_err();
            assert!(matches!(e, PipelineError::TooManyPairs { .. }), "{e:?}");
            assert!(Pipeline::new(with(m, false)).candidates(&step).is_ok());
        });
    }
}
