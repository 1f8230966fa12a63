//! Bodies (`PipelineConfig::bodies`): a step tests exactly the pairs the
//! rule allows (features in different bodies, or in one body that collides
//! with itself; the IPC Toolkit's `can_collide` on vertex pairs, written
//! out here from the labels) and finds each of them as a step without
//! bodies does, with the same bracket. Checked against the exact oracle on
//! every pair of small degenerate meshes, and against a step without
//! bodies on the real steps; candidate counts against the whole mesh's
//! traversal; bad labels are typed errors.

use std::collections::BTreeSet;

use ccdlab::bounding_volume::KdopAxes;
use ccdlab::broad_phase::{Bvh, CandidateSet};
use ccdlab::harness::generate::{SceneParams, generate};
use ccdlab::mesh::{Feature, Step, TriMesh};
use ccdlab::pair_kernel::QueryKind;
use ccdlab::pipeline::{
    Bodies, BodiesError, BodyCounts, BodyLabels, Pipeline, PipelineConfig, PipelineError,
    StepOutcome, TimeAligned,
};
use proptest::prelude::*;

use super::pipeline::{
    Scene, cloth_ball, funnel, integer_grid_mesh, keys, oracle_collisions_within, run, same_report,
};

/// The vertices of a feature, by global ID.
fn vertices(mesh: &TriMesh, id: u64) -> Vec<u32> {
    match mesh.feature(id).expect("a feature of the mesh") {
        Feature::Vertex(v) => vec![v],
        Feature::Edge(e) => mesh.edges()[e as usize].to_vec(),
        Feature::Face(f) => mesh.faces()[f as usize].to_vec(),
    }
}

/// Whether a pair of features is tested: some vertex of one and some
/// vertex of the other are in different bodies or in one body that
/// collides with itself.
pub(super) fn allowed(
    mesh: &TriMesh,
    body: &[u32],
    self_colliding: &[bool],
    a: u64,
    b: u64,
) -> bool {
    let (va, vb) = (vertices(mesh, a), vertices(mesh, b));
    va.iter().any(|&u| {
        vb.iter().any(|&w| {
            let (bu, bw) = (body[u as usize], body[w as usize]);
            bu != bw || self_colliding[bu as usize]
        })
    })
}

/// Each vertex's body when each component `c` is in body `of_component[c]`.
fn by_component(mesh: &TriMesh, of_component: &[u32]) -> Vec<u32> {
    mesh.component()
        .iter()
        .map(|&c| of_component[c as usize])
        .collect()
}

pub(super) fn labelled(body: Vec<u32>, self_colliding: Vec<bool>) -> Option<Bodies> {
    Some(Bodies::Labels(
        BodyLabels::new(body, self_colliding).unwrap(),
    ))
}

/// The pairs of `all` (a step without bodies) that the rule allows, and
/// their counts: `(keys, vertex–face, edge–edge)`.
type Allowed = (BTreeSet<(QueryKind, u64, u64)>, u64, u64);

fn allowed_pairs(mesh: &TriMesh, all: &StepOutcome, body: &[u32], self_c: &[bool]) -> Allowed {
    let kept: Vec<_> = all
        .pairs
        .iter()
        .filter(|p| allowed(mesh, body, self_c, p.a, p.b))
        .collect();
    let count = |k| kept.iter().filter(|p| p.kind == k).count() as u64;
    (
        kept.iter().map(|p| (p.kind, p.a, p.b)).collect(),
        count(QueryKind::VertexFace),
        count(QueryKind::EdgeEdge),
    )
}

/// The candidates of the whole mesh's BVH (no pruning) that the rule
/// allows: `(vertex–face, edge–edge)`.
fn allowed_candidates(scene: &Scene, d: f64, body: &[u32], self_c: &[bool]) -> (u64, u64) {
    let step = Step::new(&scene.mesh, &scene.x_t0, &scene.x_t1).unwrap();
    let (set, _): (CandidateSet, _) =
        Bvh::build_within(&step, KdopAxes::Dop26, false, d).self_candidate_set_par();
    let mesh = &scene.mesh;
    let ok = |a, b| allowed(mesh, body, self_c, mesh.global_id(a), mesh.global_id(b));
    let vf = (set.vertex_face.iter())
        .filter(|p| ok(Feature::Vertex(p.v), Feature::Face(p.f)))
        .count();
    let ee = (set.edge_edge.iter())
        .filter(|p| ok(Feature::Edge(p.e0), Feature::Edge(p.e1)))
        .count();
    (vf as u64, ee as u64)
}

/// On a real step, with `body`, `self_c` as labels: the pairs (with their
/// brackets), the counts and the earliest time are those of a step without
/// bodies restricted to the allowed pairs, on 1 and 2 threads.
fn check_scene(scene: &Scene, name: &str, d: f64, body: &[u32], self_c: &[bool]) {
    let config = |bodies| PipelineConfig {
        collect_pairs: true,
        min_distance: d,
        bodies,
        ..PipelineConfig::default()
    };
    let all = run(scene, config(None), 2);
    let (want, vf, ee) = allowed_pairs(&scene.mesh, &all, body, self_c);
    let (vf_candidates, ee_candidates) = allowed_candidates(scene, d, body, self_c);
    let got = run(scene, config(labelled(body.to_vec(), self_c.to_vec())), 2);
    let setting = format!("{name}, d = {d:e}, bodies {self_c:?}");
    assert_eq!(keys(&got.pairs), want, "{setting}");
    for p in &got.pairs {
        let q = all
            .pairs
            .iter()
            .find(|q| (q.kind, q.a, q.b) == (p.kind, p.a, p.b));
        assert_eq!(q, Some(p), "{setting}: another bracket");
    }
    let r = &got.report;
    assert_eq!((r.vf.colliding, r.ee.colliding), (vf, ee), "{setting}");
    assert_eq!(
        (r.vf.candidates, r.ee.candidates),
        (vf_candidates, ee_candidates),
        "{setting}"
    );
    for c in [&r.vf, &r.ee] {
        assert_eq!(
            c.candidates,
            c.culled_slpf + c.culled_dnf + c.after_filter,
            "{setting}"
        );
    }
    let lower = got.pairs.iter().map(|p| p.toi_lower).reduce(f64::min);
    let upper = got.pairs.iter().map(|p| p.toi_upper).reduce(f64::min);
    assert_eq!((r.toi, r.toi_upper), (lower, upper), "{setting}");
    let one = run(scene, config(labelled(body.to_vec(), self_c.to_vec())), 1);
    assert_eq!(one.pairs, got.pairs, "{setting}");
    assert_eq!(
        (&one.report.vf, &one.report.ee, &one.report.bvh_tests),
        (&r.vf, &r.ee, &r.bvh_tests),
        "{setting}"
    );
}

/// Funnel's four components (the cloth, the funnel, two more) in every
/// grouping into one, two or four bodies, with every choice of which
/// bodies collide with themselves, in contact and at a minimum separation.
#[test]
fn funnel_tests_exactly_the_pairs_its_bodies_allow() {
    let scene = funnel();
    assert_eq!(scene.mesh.num_components(), 4);
    let groupings: [&[u32]; 3] = [&[0, 0, 0, 0], &[0, 1, 1, 0], &[0, 1, 2, 3]];
    for (g, of_component) in groupings.into_iter().enumerate() {
        let body = by_component(&scene.mesh, of_component);
        let bodies = 1 + *of_component.iter().max().unwrap() as usize;
        for mask in 0..1u32 << bodies {
            let self_c: Vec<bool> = (0..bodies).map(|b| mask >> b & 1 == 1).collect();
            // Every setting in contact; at a minimum separation (funnel's
            // pairs within 1e-3 of its mean edge length), one per grouping.
            check_scene(scene, &format!("funnel {g}"), 0.0, &body, &self_c);
            if mask == 1 {
                check_scene(scene, &format!("funnel {g}"), 2e-5, &body, &self_c);
            }
        }
    }
}

/// Cloth-ball with the ball a static obstacle (a body that does not collide
/// with itself), with neither colliding with itself, and with the cloth the
/// obstacle: the pairs allowed.
#[test]
fn cloth_ball_with_the_ball_as_an_obstacle_tests_the_pairs_it_allows() {
    let scene = cloth_ball();
    assert_eq!(scene.mesh.num_components(), 2);
    let body = by_component(&scene.mesh, &[0, 1]);
    for self_c in [[true, false], [false, false], [false, true]] {
        check_scene(scene, "cloth-ball", 0.0, &body, &self_c);
    }
}

/// The generated scene (a cloth falling onto a spinning sphere, contact
/// between the two in most steps) replayed with refits: with the sphere an
/// obstacle, and with neither body colliding with itself, every step
/// reports the pairs of a replay without bodies that the rule allows, with
/// the same brackets and earliest time.
#[test]
fn the_generated_scene_with_the_sphere_as_an_obstacle_keeps_its_contacts() {
    let seq = generate(&SceneParams::with_size(24, 12)).expect("small scene");
    let mesh = seq.mesh();
    assert_eq!(mesh.num_components(), 2);
    let body = by_component(mesh, &[0, 1]);
    for self_c in [vec![true, false], vec![false, false]] {
        let config = |bodies| PipelineConfig {
            collect_pairs: true,
            bodies,
            ..PipelineConfig::default()
        };
        let mut all = Pipeline::new(config(None));
        let mut with = Pipeline::new(config(labelled(body.clone(), self_c.clone())));
        let mut across = 0;
        for i in 0..seq.num_frames() - 1 {
            let (x_t0, x_t1) = (seq.frame(i).unwrap(), seq.frame(i + 1).unwrap());
            let step = Step::new(mesh, &x_t0, &x_t1).unwrap();
            let (a, b) = (all.step(&step).unwrap(), with.step(&step).unwrap());
            let (want, _, _) = allowed_pairs(mesh, &a, &body, &self_c);
            assert_eq!(keys(&b.pairs), want, "step {i}, {self_c:?}");
            for p in &b.pairs {
                assert!(a.pairs.contains(p), "step {i}: {p:?} has another bracket");
            }
            let lower = b.pairs.iter().map(|p| p.toi_lower).reduce(f64::min);
            assert_eq!(b.report.toi, lower, "step {i}");
            across += b.report.vf.colliding - b.report.vf.colliding_same_component;
            across += b.report.ee.colliding - b.report.ee.colliding_same_component;
        }
        assert!(across > 0, "no contact between the bodies to test");
    }
}

/// `Bodies::StillObstacle` is the labels that put the components that do
/// not move in the step in one body that does not collide with itself and
/// the others in one that does: on funnel (its funnel still), and on
/// cloth-ball with the cloth held still and with nothing moving.
#[test]
fn still_components_are_an_obstacle_decided_at_each_step() {
    let ball = cloth_ball();
    let cloth = by_component(&ball.mesh, &[0, 1]);
    let held: Vec<_> = (ball.x_t0.iter().zip(&ball.x_t1).zip(&cloth))
        .map(|((&a, &b), &c)| if c == 0 { a } else { b })
        .collect();
    let scenes = [
        (
            "funnel",
            funnel().mesh.clone(),
            funnel().x_t0.clone(),
            funnel().x_t1.clone(),
        ),
        ("cloth held", ball.mesh.clone(), ball.x_t0.clone(), held),
        (
            "nothing moving",
            ball.mesh.clone(),
            ball.x_t0.clone(),
            ball.x_t0.clone(),
        ),
    ];
    for (name, mesh, x_t0, x_t1) in scenes {
        let mut moves = vec![false; mesh.num_components()];
        for (v, &c) in mesh.component().iter().enumerate() {
            moves[c as usize] |= x_t0[v] != x_t1[v];
        }
        let of_component: Vec<u32> = moves.iter().map(|&m| u32::from(!m)).collect();
        let body = by_component(&mesh, &of_component);
        let step = Step::new(&mesh, &x_t0, &x_t1).unwrap();
        let run = |bodies| {
            Pipeline::new(PipelineConfig {
                collect_pairs: true,
                bodies,
                ..PipelineConfig::default()
            })
            .step(&step)
            .unwrap()
        };
        let still = run(Some(Bodies::StillObstacle));
        let labels = run(labelled(body.clone(), vec![true, false]));
        assert_eq!(still.pairs, labels.pairs, "{name}");
        assert_eq!(still.report.vf, labels.report.vf, "{name}");
        assert_eq!(still.report.ee, labels.report.ee, "{name}");
        assert_eq!(still.report.bodies, labels.report.bodies, "{name}");
        let all = run(None);
        let (want, _, _) = allowed_pairs(&mesh, &all, &body, &[true, false]);
        assert_eq!(keys(&still.pairs), want, "{name}");
    }
}

/// `Bodies::Components` tests the pairs across components: the candidates
/// and collisions a step without bodies counts as between components, with
/// time-aligned pruning or without.
#[test]
fn components_as_bodies_give_the_pairs_between_components() {
    for scene in [funnel(), cloth_ball()] {
        for time_aligned in [TimeAligned::Off, TimeAligned::On] {
            let config = |bodies| PipelineConfig {
                time_aligned,
                bodies,
                ..PipelineConfig::default()
            };
            let all = run(scene, config(None), 2).report;
            let across = run(scene, config(Some(Bodies::Components)), 2).report;
            for (a, c) in [(&all.vf, &across.vf), (&all.ee, &across.ee)] {
                assert_eq!(c.candidates, a.candidates - a.candidates_same_component);
                assert_eq!(c.candidates_same_component, 0);
                assert_eq!(c.colliding, a.colliding - a.colliding_same_component);
            }
            let n = scene.mesh.num_components() as u64;
            assert_eq!(
                across.bodies,
                Some(BodyCounts {
                    bodies: n,
                    self_colliding: 0
                })
            );
            assert_eq!(all.bodies, None);
        }
    }
}

/// A pipeline with bodies refits its tree: the same step as a fresh
/// one, and again after a rebuild.
#[test]
fn a_pipeline_with_bodies_refits_to_the_same_step() {
    let scene = funnel();
    let body = by_component(&scene.mesh, &[0, 1, 1, 2]);
    let config = PipelineConfig {
        collect_pairs: true,
        bodies: labelled(body, vec![true, false, false]),
        ..PipelineConfig::default()
    };
    let step = Step::new(&scene.mesh, &scene.x_t0, &scene.x_t1).unwrap();
    let back = Step::new(&scene.mesh, &scene.x_t1, &scene.x_t0).unwrap();
    let mut p = Pipeline::new(config.clone());
    p.step(&back).unwrap();
    let refitted = p.step(&step).unwrap();
    let fresh = Pipeline::new(config).step(&step).unwrap();
    assert_eq!(refitted.pairs, fresh.pairs);
    assert_eq!(refitted.report.vf, fresh.report.vf);
    assert_eq!(refitted.report.ee, fresh.report.ee);
    p.rebuild_next();
    let rebuilt = p.step(&step).unwrap();
    assert_eq!(rebuilt.pairs, fresh.pairs);
    assert_eq!(rebuilt.report.bvh_tests, fresh.report.bvh_tests);
}

#[test]
fn labels_that_do_not_fit_the_mesh_are_typed_errors() {
    let scene = funnel();
    let step = Step::new(&scene.mesh, &scene.x_t0, &scene.x_t1).unwrap();
    let step_with = |body: Vec<u32>| {
        Pipeline::new(PipelineConfig {
            bodies: labelled(body, vec![true, false]),
            ..PipelineConfig::default()
        })
        .step(&step)
    };
    let n = scene.mesh.num_vertices();
    let short = step_with(vec![0; n - 1]).unwrap_err();
    assert!(
        matches!(
            short,
            PipelineError::Bodies(BodiesError::Length { expected, found }) if expected == n && found == n - 1
        ),
        "{short:?}"
    );
}

/// Funnel's cloth (its largest component) cut into patches by vertex
/// number, so that faces and edges along the cuts have vertices in two or
/// three bodies (a seam): with patches that do not collide with
/// themselves, in contact and at a minimum separation, the step tests
/// exactly the pairs the rule allows, by vertex.
#[test]
fn funnel_with_its_cloth_in_patches_tests_the_pairs_the_rule_allows() {
    let scene = funnel();
    let component = scene.mesh.component();
    let sizes = (0..4).map(|c| component.iter().filter(|&&k| k == c).count());
    let cloth = sizes.enumerate().max_by_key(|&(_, n)| n).unwrap().0 as u32;
    // Patches 1, 2, 3 in stripes of 64 vertices; the rest body 0.
    let body: Vec<u32> = (0..scene.mesh.num_vertices())
        .map(|v| match component[v] == cloth {
            true => 1 + (v as u32 / 64) % 3,
            false => 0,
        })
        .collect();
    let across = (scene.mesh.faces().iter())
        .filter(|f| f.iter().any(|&v| body[v as usize] != body[f[0] as usize]))
        .count();
    assert!(across > 100, "{across} faces across patches");
    for self_c in [
        [true, false, false, false],
        [false, true, false, true],
        [true, false, true, true],
    ] {
        check_scene(scene, "funnel patches", 0.0, &body, &self_c);
    }
    check_scene(
        scene,
        "funnel patches",
        2e-5,
        &body,
        &[true, false, false, false],
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// On meshes full of exact degeneracies, with their components or
    /// their vertices in random bodies: for both ends of k and every time-aligned setting, in
    /// contact and at a minimum separation, the step reports exactly the
    /// exact oracle's pairs among all pairs of the mesh that the rule
    /// allows, with or without the pairs collected.
    #[test]
    fn degenerate_meshes_with_bodies_report_exactly_the_allowed_oracle_pairs(
        (mesh, x0, x1) in integer_grid_mesh(),
        of_component in proptest::collection::vec(0u32..3, 4),
        of_vertex in proptest::collection::vec(0u32..3, 64),
        by_vertex in any::<bool>(),
        self_c in proptest::collection::vec(any::<bool>(), 3),
        m in prop::sample::select(&[0.0, 0.5][..]),
    ) {
        let extent = x0.iter().chain(&x1).flat_map(|p| [p.x.abs(), p.y.abs(), p.z.abs()]).fold(0.0, f64::max);
        let d = if m == 0.0 { 0.0 } else if extent > 0.0 { extent * m } else { 1.0 };
        let step = Step::new(&mesh, &x0, &x1).unwrap();
        let body = match by_vertex {
            true => (0..mesh.num_vertices()).map(|v| of_vertex[v % 64]).collect(),
            false => by_component(&mesh, &of_component),
        };
        let want: BTreeSet<_> = oracle_collisions_within(&step, d)
            .into_keys()
            .filter(|&(_, a, b)| allowed(&mesh, &body, &self_c, a, b))
            .collect();
        for axes in [KdopAxes::Dop6, KdopAxes::Dop26] {
            for time_aligned in [TimeAligned::Off, TimeAligned::On, TimeAligned::Auto] {
                let config = PipelineConfig {
                    axes,
                    time_aligned,
                    min_distance: d,
                    collect_pairs: true,
                    bodies: labelled(body.clone(), self_c.clone()),
                    ..PipelineConfig::default()
                };
                let out = Pipeline::new(config.clone()).step(&step).unwrap();
                let setting = format!("d = {d:e}, k = {axes:?}, time-aligned {time_aligned:?}, bodies {body:?} {self_c:?}");
                prop_assert_eq!(keys(&out.pairs), want.clone(), "{}", setting);
                let counted = Pipeline::new(PipelineConfig { collect_pairs: false, ..config }).step(&step).unwrap();
                prop_assert_eq!(same_report(&counted.report), same_report(&out.report), "{}", setting);
            }
        }
    }
}
