//! The generated scene through the pipeline: contact-rich, replay equals a
//! fresh `Pipeline::step` of each step, the filters cull no collision, the
//! frames are the same bit for bit as when this test was written, and with
//! a gap the cloth–sphere pairs appear only at separations above it.

use std::collections::BTreeSet;

use ccdlab::bounding_volume::KdopAxes;
use ccdlab::broad_phase::brute_force_candidates_within;
use ccdlab::filter::FilterSet;
use ccdlab::harness::generate::{ClothSphere, SceneParams, generate};
use ccdlab::harness::ground_truth::QueryKind;
use ccdlab::harness::replay::{StepRecord, replay};
use ccdlab::harness::sequence::FrameSequence;
use ccdlab::mesh::{Feature, Step};
use ccdlab::narrow_phase::oracle;
use ccdlab::pipeline::{BvhMode, Pipeline, PipelineConfig, StepReport};

/// The CI-sized scene: a 24 × 24 cloth, 12 frames.
fn small() -> FrameSequence {
    generate(&SceneParams::with_size(24, 12)).expect("small scene")
}

fn records(seq: &FrameSequence, config: PipelineConfig) -> Vec<StepRecord> {
    let mut out = Vec::new();
    let summary = replay(seq, config, |r| out.push(r.clone())).expect("replay");
    assert_eq!(summary.steps, seq.num_frames() - 1);
    assert_eq!(out.len(), summary.steps);
    out
}

/// Cloth–cloth colliding pairs (the cloth is one connected component, the
/// rigid sphere cannot collide with itself) and cloth–sphere ones.
fn self_and_sphere(r: &StepReport) -> (u64, u64) {
    let same = r.vf.colliding_same_component + r.ee.colliding_same_component;
    (same, r.vf.colliding + r.ee.colliding - same)
}

#[test]
fn the_small_scene_is_contact_rich() {
    let seq = small();
    assert_eq!(seq.mesh().num_components(), 2);
    let recs = records(&seq, PipelineConfig::default());
    let counts: Vec<(u64, u64)> = recs.iter().map(|r| self_and_sphere(&r.report)).collect();
    let steps = counts.len();
    let with_self = counts.iter().filter(|c| c.0 > 0).count();
    let with_sphere = counts.iter().filter(|c| c.1 > 0).count();
    // Measured when written: 11/11 and 11/11.
    assert!(
        2 * with_self >= steps,
        "cloth–cloth in {with_self}/{steps}: {counts:?}"
    );
    assert!(
        2 * with_sphere >= steps,
        "cloth–sphere in {with_sphere}/{steps}: {counts:?}"
    );
    for r in &recs {
        if r.report.vf.colliding + r.report.ee.colliding > 0 {
            let t = r.report.toi.expect("a colliding step has a time of impact");
            assert!((0.0..=1.0).contains(&t));
        }
    }
}

#[test]
fn replay_equals_a_fresh_pipeline_step_of_each_step() {
    let seq = small();
    let config = PipelineConfig::default();
    let recs = records(&seq, config.clone());
    for (i, rec) in recs.iter().enumerate() {
        let (x_t0, x_t1) = (seq.frame(i).unwrap(), seq.frame(i + 1).unwrap());
        let step = Step::new(seq.mesh(), &x_t0, &x_t1).unwrap();
        // A new pipeline builds its BVH; the replay refits the one of step 0.
        let fresh = Pipeline::new(config.clone()).step(&step).unwrap().report;
        assert_eq!(rec.step, i);
        assert_eq!(rec.frame_t0, format!("#{i}"));
        assert_eq!(rec.report.vf, fresh.vf, "step {i}: vertex–face counts");
        assert_eq!(rec.report.ee, fresh.ee, "step {i}: edge–edge counts");
        assert_eq!(rec.report.toi, fresh.toi, "step {i}: time of impact");
        assert_eq!(rec.report.toi_upper, fresh.toi_upper, "step {i}");
        assert_eq!(
            rec.report.bvh,
            if i == 0 {
                BvhMode::Build
            } else {
                BvhMode::Refit
            }
        );
    }
}

#[test]
fn filters_cull_no_collision_of_the_generated_steps() {
    let seq = generate(&SceneParams::with_size(16, 8)).unwrap();
    let with = records(&seq, PipelineConfig::default());
    let without = records(
        &seq,
        PipelineConfig {
            filters: FilterSet::None,
            ..PipelineConfig::default()
        },
    );
    for (a, b) in with.iter().zip(&without) {
        assert_eq!(a.report.vf.candidates, b.report.vf.candidates);
        assert_eq!(
            (a.report.vf.colliding, a.report.ee.colliding),
            (b.report.vf.colliding, b.report.ee.colliding),
            "step {}",
            a.step
        );
        assert_eq!(a.report.toi, b.report.toi, "step {}", a.step);
    }
}

/// FNV-1a over the bits of every coordinate of every frame.
fn fingerprint(params: &SceneParams) -> u64 {
    let mut scene = ClothSphere::new(params).unwrap();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    while let Some(x) = scene.next_frame().unwrap() {
        for p in x {
            for c in [p.x, p.y, p.z] {
                for b in c.to_bits().to_le_bytes() {
                    h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
                }
            }
        }
    }
    h
}

/// The generator promises the same frames on every machine: this value was
/// computed when the test was written. A deliberate change of the scene
/// (parameters, solver) changes it; update it then, and say so.
#[test]
fn frames_match_the_recorded_fingerprint() {
    let p = SceneParams::with_size(10, 4);
    assert_eq!(fingerprint(&p), fingerprint(&p));
    assert_eq!(fingerprint(&p), FINGERPRINT_10_4);
}

const FINGERPRINT_10_4: u64 = 2_454_743_236_631_160_210;

/// A pair's kind and the global IDs of its features, as the pipeline
/// reports them.
type PairKey = (QueryKind, u64, u64);

/// The pairs within `d` during `step` by the exact minimum-separation
/// oracle, among the brute-force candidates of 26-DOPs grown by `d/2`
/// (every pair within `d` is among them); each with whether it joins the
/// cloth and the sphere (two components).
fn oracle_pairs_within(step: &Step<'_>, d: f64) -> BTreeSet<(PairKey, bool)> {
    let (mesh, a, b) = (step.mesh(), step.x_t0(), step.x_t1());
    let comp = mesh.component();
    let (candidates, _) = brute_force_candidates_within(step, KdopAxes::Dop26, d);
    let mut out = BTreeSet::new();
    for c in &candidates.vertex_face {
        let q = c.v as usize;
        let [c0, c1, c2] = mesh.faces()[c.f as usize].map(|i| i as usize);
        if oracle::vertex_face_within(
            &a[q], &a[c0], &a[c1], &a[c2], &b[q], &b[c0], &b[c1], &b[c2], d,
        )
        .is_some()
        {
            let key = (
                QueryKind::VertexFace,
                mesh.global_id(Feature::Vertex(c.v)),
                mesh.global_id(Feature::Face(c.f)),
            );
            out.insert((key, comp[q] != comp[c0]));
        }
    }
    let edges = mesh.edges();
    for c in &candidates.edge_edge {
        let [p, q] = edges[c.e0 as usize].map(|i| i as usize);
        let [r, s] = edges[c.e1 as usize].map(|i| i as usize);
        if oracle::edge_edge_within(&a[p], &a[q], &a[r], &a[s], &b[p], &b[q], &b[r], &b[s], d)
            .is_some()
        {
            let key = (
                QueryKind::EdgeEdge,
                mesh.global_id(Feature::Edge(c.e0)),
                mesh.global_id(Feature::Edge(c.e1)),
            );
            out.insert((key, comp[p] != comp[r]));
        }
    }
    out
}

/// A cloth resting on the sphere grown by a gap `G`: at a separation
/// clearly below `G` the last step reports no cloth–sphere pair, above it
/// many; the pairs grow with `d` (each set inside the next), and
/// at `d > 0` they are exactly the exact oracle's. Without the gap the same
/// scene has cloth–sphere contact at `d = 0`.
#[test]
fn a_gap_keeps_the_cloth_sphere_pairs_until_the_separation_exceeds_it() {
    // A 12 × 12 cloth (spacing 0.18 m: its triangles dip well inside the
    // 0.55 m collider between their vertices) on a 162-vertex sphere mesh
    // (its vertices a few mm outside the collision sphere): the cloth–sphere
    // distance lies between G/2 and 5G/4, G = 50 mm.
    let gap = 0.05;
    let params = SceneParams {
        gap,
        sphere_subdivisions: 2,
        ..SceneParams::with_size(12, 4)
    };
    let seq = generate(&params).unwrap();
    let last = seq.num_frames() - 2;
    let (x_t0, x_t1) = (seq.frame(last).unwrap(), seq.frame(last + 1).unwrap());
    let step = Step::new(seq.mesh(), &x_t0, &x_t1).unwrap();
    let comp = seq.mesh().component();
    let cloth_sphere = |p: &ccdlab::pipeline::ContactPair| {
        let first_vertex = |id: u64| match seq.mesh().feature(id).expect("a feature ID") {
            Feature::Vertex(v) => v as usize,
            Feature::Edge(e) => seq.mesh().edges()[e as usize][0] as usize,
            Feature::Face(f) => seq.mesh().faces()[f as usize][0] as usize,
        };
        comp[first_vertex(p.a)] != comp[first_vertex(p.b)]
    };
    let mut previous: BTreeSet<PairKey> = BTreeSet::new();
    let mut sphere_counts = Vec::new();
    for d in [0.0, 0.5 * gap, 1.25 * gap, 2.0 * gap] {
        let config = PipelineConfig {
            min_distance: d,
            collect_pairs: true,
            ..PipelineConfig::default()
        };
        let out = Pipeline::new(config).step(&step).unwrap();
        let pairs: BTreeSet<PairKey> = out.pairs.iter().map(|p| (p.kind, p.a, p.b)).collect();
        let sphere = out.pairs.iter().filter(|p| cloth_sphere(p)).count();
        let (_, reported_sphere) = self_and_sphere(&out.report);
        assert_eq!(sphere as u64, reported_sphere, "d = {d}");
        assert!(
            previous.is_subset(&pairs),
            "d = {d}: {} pairs of a smaller d are missing",
            previous.difference(&pairs).count()
        );
        if d > 0.0 {
            let truth = oracle_pairs_within(&step, d);
            let want: BTreeSet<PairKey> = truth.iter().map(|(k, _)| *k).collect();
            assert_eq!(pairs, want, "d = {d}: the pipeline against the oracle");
            let want_sphere = truth.iter().filter(|(_, s)| *s).count();
            assert_eq!(sphere, want_sphere, "d = {d}");
        }
        sphere_counts.push(sphere);
        previous = pairs;
    }
    // Measured when written: [0, 0, 1081, 3238] cloth–sphere pairs.
    assert_eq!(sphere_counts[..2], [0, 0], "{sphere_counts:?}");
    assert!(sphere_counts[2] >= 100, "{sphere_counts:?}");
    assert!(sphere_counts[3] > sphere_counts[2], "{sphere_counts:?}");
    // The same scene without the gap: the cloth touches the sphere mesh.
    let touching = generate(&SceneParams { gap: 0.0, ..params }).unwrap();
    let (y_t0, y_t1) = (
        touching.frame(last).unwrap(),
        touching.frame(last + 1).unwrap(),
    );
    let contact = Pipeline::new(PipelineConfig::default())
        .step(&Step::new(touching.mesh(), &y_t0, &y_t1).unwrap())
        .unwrap();
    assert!(self_and_sphere(&contact.report).1 > 0);
}
