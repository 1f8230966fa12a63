//! The pairs within a distance at one instant (`pipeline::proximity`): on
//! random meshes over a small integer grid (features touching, coplanar,
//! and exactly `d` apart), exactly the pairs that the exact
//! minimum-separation oracle finds among all pairs of the mesh, each at
//! time 0; the same with bodies, without collecting, on 1 and 3 threads;
//! on the real frames, the same pairs as the still step with every filter;
//! bad arguments are typed errors.

use std::collections::BTreeSet;
use std::sync::atomic::AtomicBool;

use ccdlab::math::Vec3;
use ccdlab::mesh::{MeshError, Step, TriMesh};
use ccdlab::narrow_phase::Solver;
use ccdlab::narrow_phase::oracle;
use ccdlab::pipeline::{
    Bodies, BodiesError, BodyLabels, BvhMode, DistanceError, Pipeline, PipelineConfig,
    PipelineError, Proximity, ProximityOptions, StepReport, TimeAligned, proximity,
    proximity_distance, proximity_with,
};
use proptest::prelude::*;

use super::pipeline::{cloth_ball, funnel, integer_grid_mesh, keys, oracle_collisions_within};
use crate::common::in_pool;

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// At `d = 0`, a quarter, half or all of the mesh's extent (features
    /// exactly `d` apart are common on the grid), or a tiny `d`: exactly
    /// the oracle's pairs at rest, every one at time 0, on 1 and 3
    /// threads; the counts without the pairs are the same.
    #[test]
    fn random_meshes_give_the_oracles_pairs_within_d(
        (mesh, x, _) in integer_grid_mesh(),
        m in prop::sample::select(&[0.0, 0.25, 0.5, 1.0, 1e-300][..]),
    ) {
        let extent = x.iter().flat_map(|p| [p.x.abs(), p.y.abs(), p.z.abs()]).fold(0.0, f64::max);
        let d = extent * m;
        let still = Step::new(&mesh, &x, &x).unwrap();
        let want: BTreeSet<_> = oracle_collisions_within(&still, d).into_keys().collect();
        for threads in [1, 3] {
            let found = in_pool(threads, || proximity(&mesh, &x, d)).unwrap();
            prop_assert_eq!(keys(&found.pairs), want.clone(), "d = {:e}, {} threads", d, threads);
            prop_assert!(found.pairs.iter().all(|p| p.toi_lower == 0.0 && p.toi_upper == 0.0));
            prop_assert_eq!(found.count(), want.len() as u64);
            let options = ProximityOptions { collect_pairs: false, ..ProximityOptions::default() };
            let counted = in_pool(threads, || proximity_with(&mesh, &x, d, &options, None)).unwrap();
            prop_assert!(counted.pairs.is_empty());
            prop_assert_eq!(counted.count(), want.len() as u64);
        }
    }

    /// With bodies, the pairs of a still step with the same bodies (whose
    /// every filter is on): the rule is the step's.
    #[test]
    fn bodies_keep_the_steps_pairs(
        (mesh, x, _) in integer_grid_mesh(),
        of_component in proptest::collection::vec(0u32..2, 9),
        self_colliding in [any::<bool>(), any::<bool>()],
    ) {
        let extent = x.iter().flat_map(|p| [p.x.abs(), p.y.abs(), p.z.abs()]).fold(0.0, f64::max);
        let d = 0.5 * extent;
        let body: Vec<u32> = mesh.component().iter().map(|&c| of_component[c as usize]).collect();
        let bodies = Some(Bodies::Labels(BodyLabels::new(body, self_colliding.to_vec()).unwrap()));
        let still = Step::new(&mesh, &x, &x).unwrap();
        let config = PipelineConfig { min_distance: d, collect_pairs: true, bodies: bodies.clone(), ..PipelineConfig::default() };
        let step = Pipeline::new(config).step(&still).unwrap();
        let options = ProximityOptions { bodies, ..ProximityOptions::default() };
        let found = proximity_with(&mesh, &x, d, &options, None).unwrap();
        prop_assert_eq!(keys(&found.pairs), keys(&step.pairs));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// The distances of the pairs within `d` (`Proximity::distances`, in
    /// doubles) on meshes full of degeneracies (touching, coplanar and
    /// parallel features, degenerate triangles, points): each is within
    /// rounding of the true distance, which the exact oracle brackets: the
    /// pair is within `D + slack` and, when `D > slack`, not within
    /// `D − slack`, where the slack is `2⁻³⁰·D`, plus `2⁻⁴⁰` of the mesh's
    /// extent (rounding in the features' own coordinates), plus 2⁻¹⁰⁶⁰
    /// (subnormal scales).
    #[test]
    fn distances_are_the_oracles_up_to_rounding(
        (mesh, x, _) in integer_grid_mesh(),
        m in prop::sample::select(&[0.25, 0.5, 1.0][..]),
    ) {
        let extent = x.iter().flat_map(|p| [p.x.abs(), p.y.abs(), p.z.abs()]).fold(0.0, f64::max);
        let d = extent * m;
        let found = proximity(&mesh, &x, d).unwrap();
        let distances = found.distances(&mesh, &x);
        prop_assert_eq!(distances.len(), found.pairs.len());
        let within = |p: &ccdlab::pipeline::ContactPair, r: f64| {
            let (a, b) = (&x, &x);
            let [q, s, t, u] = if let Some((v, f)) = p.vertex_face(&mesh) {
                let [c0, c1, c2] = mesh.faces()[f as usize];
                return oracle::vertex_face_within(
                    &a[v as usize], &a[c0 as usize], &a[c1 as usize], &a[c2 as usize],
                    &b[v as usize], &b[c0 as usize], &b[c1 as usize], &b[c2 as usize], r,
                ).is_some();
            } else if let Some((e, f)) = p.edge_edge(&mesh) {
                let ([q, s], [t, u]) = (mesh.edges()[e as usize], mesh.edges()[f as usize]);
                [q, s, t, u]
            } else if let Some((v, e)) = p.vertex_edge(&mesh) {
                let [t, u] = mesh.edges()[e as usize];
                [v, v, t, u]
            } else {
                let (v, w) = p.vertex_vertex(&mesh).unwrap();
                [v, v, w, w]
            }
            .map(|i| i as usize);
            oracle::edge_edge_within(&a[q], &a[s], &a[t], &a[u], &b[q], &b[s], &b[t], &b[u], r).is_some()
        };
        for (p, &dist) in found.pairs.iter().zip(&distances) {
            let slack = dist * 2f64.powi(-30) + extent * 2f64.powi(-40) + 2f64.powi(-1060);
            prop_assert!(dist.is_finite() && dist >= 0.0, "{:?}: {}", p, dist);
            prop_assert!(dist <= d + slack, "{:?}: {} beyond d = {}", p, dist, d);
            prop_assert!(within(p, dist + slack), "{:?}: not within {} + {}", p, dist, slack);
            if dist > slack {
                prop_assert!(!within(p, dist - slack), "{:?}: within {} − {}", p, dist, slack);
            }
        }
    }
}

/// The mean length of `mesh`'s edges at the positions `x`.
fn mean_edge_length(mesh: &TriMesh, x: &[Vec3]) -> f64 {
    let lengths = mesh
        .edges()
        .iter()
        .map(|&[a, b]| (x[a as usize] - x[b as usize]).norm());
    lengths.sum::<f64>() / mesh.num_edges() as f64
}

/// On the real frames at `d` = 10⁻⁴, 10⁻² and 10⁻¹ of the mean edge length:
/// the pairs of the still step with SLPF off and DNF and the window on, at
/// rest decided at time 0; more pairs at a larger `d`.
#[test]
fn the_real_frames_give_the_still_steps_pairs() {
    for scene in [funnel(), cloth_ball()] {
        let (mesh, x) = (&scene.mesh, &scene.x_t0);
        let mean_edge = mean_edge_length(mesh, x);
        let mut last = 0;
        for m in [1e-4, 1e-2, 1e-1] {
            let d = m * mean_edge;
            let found = proximity(mesh, x, d).unwrap();
            let config = PipelineConfig {
                min_distance: d,
                collect_pairs: true,
                ..PipelineConfig::default()
            };
            let still = Step::new(mesh, x, x).unwrap();
            let step = Pipeline::new(config).step(&still).unwrap();
            assert_eq!(keys(&found.pairs), keys(&step.pairs), "d = {d:e}");
            assert!(found.pairs.iter().all(|p| p.toi_upper == 0.0));
            assert!(found.pairs.len() > last, "d = {d:e}: {}", found.pairs.len());
            last = found.pairs.len();
            let r = &found.report;
            assert_eq!(r.vf.exact_fallbacks + r.ee.exact_fallbacks, 0, "d = {d:e}");
            // Their distances, all within d up to rounding.
            let distances = found.distances(mesh, x);
            let most = d * (1.0 + 2f64.powi(-30));
            assert!(
                distances.iter().all(|&r| (0.0..=most).contains(&r)),
                "d = {d:e}"
            );
        }
    }
}

/// A pipeline kept with `PipelineConfig::proximity(d)` and stepped at rest
/// at one position, then at another (its BVH refitted), gives `proximity`'s
/// pairs and counts at each.
#[test]
fn a_kept_pipeline_gives_proximitys_pairs_at_each_position() {
    let scene = funnel();
    let mesh = &scene.mesh;
    let d = 1e-3;
    let mut pipeline = Pipeline::new(PipelineConfig::proximity(d).unwrap());
    for (i, x) in [&scene.x_t0, &scene.x_t1].into_iter().enumerate() {
        let kept = Proximity::from(pipeline.step(&Step::new(mesh, x, x).unwrap()).unwrap());
        let fresh = proximity(mesh, x, d).unwrap();
        assert!(!fresh.pairs.is_empty());
        assert_eq!(keys(&kept.pairs), keys(&fresh.pairs), "position {i}");
        assert_eq!(
            (kept.report.vf, kept.report.ee),
            (fresh.report.vf, fresh.report.ee)
        );
        let mode = if i == 0 {
            BvhMode::Build
        } else {
            BvhMode::Refit
        };
        assert_eq!(kept.report.bvh, mode);
    }
    assert!(PipelineConfig::proximity(-1.0).is_err());
    assert!(PipelineConfig::proximity(f64::NAN).is_err());
}

/// `Pipeline::proximity` on a pipeline made for steps (not collecting its
/// pairs, time-aligned pruning chosen automatically) gives `proximity`'s
/// pairs at each position from its kept tree, leaves its configuration as it
/// was, and a tree it built at rest is built anew by the next step (whose
/// outcome is then a fresh pipeline's: on cloth-ball the step prunes, which
/// a tree built at rest does not), also when a later proximity call was
/// cancelled; not a tree a step built, nor under a configuration changed to
/// `TimeAligned::Off`, which the tree built at rest fits.
#[test]
fn a_steps_pipeline_answers_proximity_and_its_next_step_builds_anew() {
    let scene = cloth_ball();
    let (mesh, x0, x1) = (&scene.mesh, &scene.x_t0, &scene.x_t1);
    let d = 1e-3 * mean_edge_length(mesh, x0);
    let config = PipelineConfig {
        min_distance: d,
        time_aligned: TimeAligned::Auto,
        collect_pairs: false,
        ..PipelineConfig::default()
    };
    let step = Step::new(mesh, x0, x1).unwrap();
    let fresh_step = Pipeline::new(config.clone()).step(&step).unwrap().report;
    assert!(fresh_step.time_aligned);
    let same_step = |r: &StepReport| {
        (r.vf, r.ee, r.time_aligned, r.toi)
            == (
                fresh_step.vf,
                fresh_step.ee,
                fresh_step.time_aligned,
                fresh_step.toi,
            )
    };
    let fresh: Vec<_> = [x0, x1]
        .map(|x| keys(&proximity(mesh, x, d).unwrap().pairs))
        .into();
    assert!(fresh.iter().all(|k| !k.is_empty()));
    let answered = |pipeline: &mut Pipeline, i: usize, mode: BvhMode| {
        let kept = pipeline.proximity(mesh, [x0, x1][i]).unwrap();
        assert_eq!(keys(&kept.pairs), fresh[i]);
        assert_eq!(kept.report.bvh, mode);
        assert_eq!(pipeline.config(), &config);
    };
    let cancelled = AtomicBool::new(true);

    let mut pipeline = Pipeline::new(config.clone());
    answered(&mut pipeline, 0, BvhMode::Build);
    answered(&mut pipeline, 1, BvhMode::Refit);
    let stopped = pipeline.proximity_cancellable(mesh, x1, &cancelled);
    assert!(matches!(stopped, Err(PipelineError::Cancelled)));
    let report = pipeline.step(&step).unwrap().report;
    assert_eq!(report.bvh, BvhMode::Build);
    assert!(same_step(&report));
    // A tree built by a step is refitted by proximity and by the next step.
    answered(&mut pipeline, 1, BvhMode::Refit);
    let report = pipeline.step(&step).unwrap().report;
    assert_eq!(report.bvh, BvhMode::Refit);
    assert!(same_step(&report));

    // A proximity call cancelled after building its tree still marks it.
    let mut pipeline = Pipeline::new(config.clone());
    let stopped = pipeline.proximity_cancellable(mesh, x0, &cancelled);
    assert!(matches!(stopped, Err(PipelineError::Cancelled)));
    let report = pipeline.step(&step).unwrap().report;
    assert_eq!(report.bvh, BvhMode::Build);
    assert!(same_step(&report));

    // Under `Off` the tree built at rest (without pruning) fits: refitted.
    let mut pipeline = Pipeline::new(config.clone());
    answered(&mut pipeline, 0, BvhMode::Build);
    pipeline.set_config(PipelineConfig {
        time_aligned: TimeAligned::Off,
        ..config.clone()
    });
    assert_eq!(pipeline.step(&step).unwrap().report.bvh, BvhMode::Refit);
}

/// A pipeline with the cubic solver still answers `Pipeline::proximity`
/// exactly (a vertex lying on a triangle at rest, which the cubic solver
/// need not see); self-collision `moving` is refused, as by `proximity`.
#[test]
fn pipeline_proximity_decides_exactly_and_refuses_a_still_obstacle() {
    let p = |x, y, z| Vec3::new(x, y, z);
    let x = [
        p(0., 0., 0.),
        p(1., 0., 0.),
        p(0., 1., 0.),
        p(0.25, 0.25, 0.),
        p(2., 2., 2.),
        p(3., 2., 2.),
    ];
    let mesh = TriMesh::new(6, vec![[0, 1, 2], [3, 4, 5]]).unwrap();
    let cubic = PipelineConfig {
        solver: Solver::Cubic,
        ..PipelineConfig::default()
    };
    let found = Pipeline::new(cubic).proximity(&mesh, &x).unwrap();
    assert_eq!(
        keys(&found.pairs),
        keys(&proximity(&mesh, &x, 0.0).unwrap().pairs)
    );
    assert_eq!(found.pairs.len(), 1);
    let still = PipelineConfig {
        bodies: Some(Bodies::StillObstacle),
        ..PipelineConfig::default()
    };
    let err = Pipeline::new(still).proximity(&mesh, &x).unwrap_err();
    assert!(
        matches!(err, PipelineError::Bodies(BodiesError::NoMotion)),
        "{err:?}"
    );
}

#[test]
fn bad_arguments_are_typed_errors() {
    let mesh = TriMesh::new(3, vec![[0, 1, 2]]).unwrap();
    let x = vec![Vec3::zeros(), Vec3::x(), Vec3::y()];
    for d in [-1.0, f64::NAN, f64::INFINITY] {
        let err = proximity(&mesh, &x, d).unwrap_err();
        assert!(
            matches!(
                err,
                PipelineError::Distance(DistanceError::Negative(_) | DistanceError::NotFinite(_))
            ),
            "{err:?}"
        );
        assert!(err.to_string().starts_with("distance: "), "{err}");
    }
    assert_eq!(proximity_distance(-0.0), Ok(-0.0));
    assert_eq!(
        proximity_distance(-1.0).unwrap_err().to_string(),
        "-1.0 is negative; a distance is at least 0"
    );
    let short = proximity(&mesh, &x[..2], 0.1).unwrap_err();
    assert!(
        matches!(
            &short,
            PipelineError::Frames(MeshError::InFrame { frame: "x", source })
                if matches!(**source, MeshError::VertexCountMismatch { found: 2, .. })
        ),
        "{short}"
    );
    let mut bad = x.clone();
    bad[1].y = f64::NAN;
    let nan = proximity(&mesh, &bad, 0.1).unwrap_err();
    assert_eq!(
        nan.to_string(),
        "the positions: x: vertex 1 (numbered from 0) has a non-finite coordinate NaN"
    );
    let options = ProximityOptions {
        bodies: Some(Bodies::StillObstacle),
        ..ProximityOptions::default()
    };
    let err = proximity_with(&mesh, &x, 0.1, &options, None).unwrap_err();
    assert!(matches!(err, PipelineError::Bodies(BodiesError::NoMotion)));
    assert!(err.to_string().contains("per vertex"), "{err}");
    let options = ProximityOptions {
        bodies: Some(Bodies::Labels(BodyLabels::uniform(vec![0; 2], true))),
        ..ProximityOptions::default()
    };
    assert!(matches!(
        proximity_with(&mesh, &x, 0.1, &options, None),
        Err(PipelineError::Bodies(BodiesError::Length { .. }))
    ));
}
