//! Codimensional edges (edges in no face: rods, hair, seams;
//! `TriMesh::with_edges`) and points (vertices in no face and no edge)
//! through the whole step: a rod crossing a triangle collides with its
//! edges; a rod chain falling onto a sheet collides with its faces and
//! edges exactly where the exact oracle says; the BVH refuses another set
//! of codimensional edges on refit; bodies keep each codimensional edge in
//! one body. (Every pair of small degenerate meshes with rods and points
//! is checked against the oracle in `pipeline` and `bodies`; the BVH
//! against brute force in `broad_phase`.)

use std::collections::BTreeSet;

use ccdlab::broad_phase::BroadPhaseError;
use ccdlab::harness::replay::replay;
use ccdlab::harness::sequence::FrameSequence;
use ccdlab::math::Vec3;
use ccdlab::mesh::{Step, TriMesh};
use ccdlab::pair_kernel::QueryKind;
use ccdlab::pipeline::{
    Bodies, BodyLabels, ContactPair, Pipeline, PipelineConfig, PipelineError, PointCounts,
    StepOutcome, TimeAligned,
};

use ccdlab::bounding_volume::KdopAxes;
use ccdlab::broad_phase::point_candidates;
use ccdlab::mesh::Feature;
use proptest::prelude::*;

use super::bodies::{allowed, labelled};
use super::pipeline::{keys, oracle_collisions_within, same_report};

fn v(x: f64, y: f64, z: f64) -> Vec3 {
    Vec3::new(x, y, z)
}

fn collecting() -> PipelineConfig {
    PipelineConfig {
        collect_pairs: true,
        ..PipelineConfig::default()
    }
}

/// A step of `step` that collects its pairs, at most `max_pairs` of them.
fn listed_within(step: &Step<'_>, max_pairs: u64) -> Result<StepOutcome, PipelineError> {
    Pipeline::new(PipelineConfig {
        max_pairs,
        ..collecting()
    })
    .step(step)
}

#[test]
fn a_rod_falling_through_a_triangle_hits_two_of_its_edges_at_half_time() {
    // A still triangle at z = 0 and a rod (vertices 3, 4) across it at
    // y = 0.5 falling from z = 1 to z = −1: its ends pass outside the
    // triangle, its middle crosses the edges x = −1 and x + y = 1.
    let x0 = [
        v(-1.0, -1.0, 0.0),
        v(2.0, -1.0, 0.0),
        v(-1.0, 2.0, 0.0),
        v(-2.0, 0.5, 1.0),
        v(3.0, 0.5, 1.0),
    ];
    let mut x1 = x0;
    x1[3].z = -1.0;
    x1[4].z = -1.0;
    let mesh = TriMesh::with_edges(5, vec![[0, 1, 2]], &[[3, 4]]).unwrap();
    let step = Step::new(&mesh, &x0, &x1).unwrap();
    let out = Pipeline::new(collecting()).step(&step).unwrap();
    let rod = mesh.find_edge(3, 4).unwrap();
    let mut hit: Vec<_> = out
        .pairs
        .iter()
        .map(|p| p.edge_edge(&mesh).expect("an edge-edge pair"))
        .collect();
    hit.sort_unstable();
    let hyp = mesh.find_edge(1, 2).unwrap();
    let left = mesh.find_edge(0, 2).unwrap();
    let mut want = vec![(left.min(rod), left.max(rod)), (hyp.min(rod), hyp.max(rod))];
    want.sort_unstable();
    assert_eq!(hit, want);
    let toi = out.report.toi.unwrap();
    assert!(toi <= 0.5 && toi > 0.5 - 1e-9, "{toi}");
    // Without the rod the step has no contact at all.
    let plain = TriMesh::new(5, vec![[0, 1, 2]]).unwrap();
    let out = Pipeline::new(collecting())
        .step(&Step::new(&plain, &x0, &x1).unwrap())
        .unwrap();
    assert!(out.pairs.is_empty() && out.report.toi.is_none());
}

/// A 4 × 4 sheet of 32 triangles at z = 0 (vertices 0..25), a zig-zag rod
/// chain of 6 edges (vertices 25..32) falling through it from z = 1 to
/// z = −1 with a twist, and a point (32) falling too.
fn sheet_and_rod() -> (TriMesh, Vec<Vec3>, Vec<Vec3>) {
    let mut x0 = Vec::new();
    let mut faces = Vec::new();
    for j in 0..5 {
        for i in 0..5 {
            x0.push(v(f64::from(i), f64::from(j), 0.0));
        }
    }
    for j in 0..4u32 {
        for i in 0..4u32 {
            let a = 5 * j + i;
            faces.push([a, a + 1, a + 6]);
            faces.push([a, a + 6, a + 5]);
        }
    }
    let mut x1 = x0.clone();
    let mut edges = Vec::new();
    for k in 0..7u32 {
        let t = f64::from(k) * 0.6 + 0.2;
        let y = if k % 2 == 0 { 1.3 } else { 2.1 };
        x0.push(v(t, y, 1.0 + 0.1 * t));
        x1.push(v(t + 0.05, 3.9 - y, -1.0 + 0.1 * t));
        if k > 0 {
            edges.push([24 + k, 25 + k]);
        }
    }
    x0.push(v(2.5, 2.5, 0.5));
    x1.push(v(2.5, 2.5, -0.5));
    (TriMesh::with_edges(33, faces, &edges).unwrap(), x0, x1)
}

#[test]
fn a_rod_chain_and_a_point_falling_through_a_sheet_give_the_oracles_pairs() {
    let (mesh, x0, x1) = sheet_and_rod();
    assert_eq!(mesh.codim_edges().len(), 6);
    assert_eq!(mesh.codim_vertices(), &[32]);
    let step = Step::new(&mesh, &x0, &x1).unwrap();
    for d in [0.0, 0.05] {
        let truth = oracle_collisions_within(&step, d);
        let want: BTreeSet<_> = truth.keys().copied().collect();
        // The rod's vertices and the point hit faces; its edges hit edges.
        let kinds: BTreeSet<_> = want.iter().map(|k| k.0).collect();
        assert_eq!(kinds.len(), 2, "{want:?}");
        let point = mesh.global_id(ccdlab::mesh::Feature::Vertex(32));
        assert!(
            want.iter()
                .any(|k| k.0 == QueryKind::VertexFace && k.1 == point)
        );
        for time_aligned in [TimeAligned::Off, TimeAligned::On] {
            for threads in [1, 2] {
                let config = PipelineConfig {
                    time_aligned,
                    min_distance: d,
                    ..collecting()
                };
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                let out = pool.install(|| Pipeline::new(config).step(&step)).unwrap();
                assert_eq!(keys(&out.pairs), want, "d = {d}, {time_aligned:?}");
                for p in &out.pairs {
                    let [lo, hi] = truth[&(p.kind, p.a, p.b)];
                    assert!(p.toi_lower <= hi && lo <= p.toi_upper, "{p:?}");
                }
            }
        }
    }
}

#[test]
fn a_refit_for_other_codimensional_edges_is_refused() {
    let (mesh, x0, x1) = sheet_and_rod();
    let step = Step::new(&mesh, &x0, &x1).unwrap();
    let mut pipeline = Pipeline::new(PipelineConfig::default());
    pipeline.step(&step).unwrap();
    // The same counts, one rod edge moved to other vertices.
    let mut edges = mesh.codim_edges().to_vec();
    edges[2] = [25, 32];
    let other = TriMesh::with_edges(33, mesh.faces().to_vec(), &edges).unwrap();
    assert_eq!(other.num_edges(), mesh.num_edges());
    let e = pipeline
        .step(&Step::new(&other, &x0, &x1).unwrap())
        .unwrap_err();
    assert!(
        matches!(
            e,
            PipelineError::BroadPhase(BroadPhaseError::EdgesMismatch { edge: 2 })
        ),
        "{e:?}"
    );
    // After a rebuild it runs.
    pipeline.rebuild_next();
    pipeline
        .step(&Step::new(&other, &x0, &x1).unwrap())
        .unwrap();
}

#[test]
fn a_codimensional_edge_may_cross_bodies() {
    let (mesh, x0, x1) = sheet_and_rod();
    let step = Step::new(&mesh, &x0, &x1).unwrap();
    // The sheet is body 0, the rod body 1 but for its last vertex.
    let mut body: Vec<u32> = (0..33).map(|v| u32::from(v >= 25)).collect();
    body[31] = 0;
    let config = PipelineConfig {
        bodies: Some(Bodies::Labels(
            BodyLabels::new(body.clone(), vec![true, true]).unwrap(),
        )),
        ..collecting()
    };
    // A rod across bodies is tested as the rule says: with both bodies
    // colliding with themselves, every pair of the step without bodies.
    let across = Pipeline::new(config).step(&step).unwrap();
    let all = Pipeline::new(collecting()).step(&step).unwrap();
    assert_eq!(keys(&across.pairs), keys(&all.pairs));
    // The rod as an obstacle that does not collide with itself: the pairs
    // of the step without bodies between the rod and the rest.
    body[31] = 1;
    let config = PipelineConfig {
        bodies: Some(Bodies::Labels(
            BodyLabels::new(body, vec![true, false]).unwrap(),
        )),
        ..collecting()
    };
    let with = Pipeline::new(config).step(&step).unwrap();
    let all = Pipeline::new(collecting()).step(&step).unwrap();
    assert_eq!(keys(&with.pairs), keys(&all.pairs));
}

/// A rod 3–4 and points 0, 1, 2, 5: points 0 and 1 swap places along z
/// (they meet at t = 0.5); point 2 falls through the rod at t = 0.25; point
/// 5 stays far away.
fn points_and_a_rod() -> (TriMesh, Vec<Vec3>, Vec<Vec3>) {
    let x0 = vec![
        v(5.0, 5.0, 5.0),
        v(5.0, 5.0, 6.0),
        v(0.5, 0.0, 1.0),
        v(0.0, 0.0, 0.0),
        v(1.0, 0.0, 0.0),
        v(9.0, 9.0, 9.0),
    ];
    let mut x1 = x0.clone();
    (x1[0].z, x1[1].z, x1[2].z) = (6.0, 5.0, -3.0);
    (TriMesh::with_edges(6, vec![], &[[3, 4]]).unwrap(), x0, x1)
}

#[test]
fn points_meet_points_and_rods_and_bodies_can_skip_them() {
    let (mesh, x0, x1) = points_and_a_rod();
    assert_eq!(mesh.codim_vertices(), &[0, 1, 2, 5]);
    let step = Step::new(&mesh, &x0, &x1).unwrap();
    let out = Pipeline::new(collecting()).step(&step).unwrap();
    let ve: Vec<_> = out
        .pairs
        .iter()
        .filter_map(|p| p.vertex_edge(&mesh))
        .collect();
    let vv: Vec<_> = out
        .pairs
        .iter()
        .filter_map(|p| p.vertex_vertex(&mesh))
        .collect();
    assert_eq!((ve, vv), (vec![(2, 0)], vec![(0, 1)]));
    assert!(out.pairs.iter().all(|p| p.kind == QueryKind::EdgeEdge));
    let points = out.report.points.unwrap();
    assert_eq!(
        (points.vertex_edge.colliding, points.vertex_vertex.colliding),
        (1, 1)
    );
    assert!(points.vertex_vertex.candidates >= 1 && points.vertex_edge.candidates >= 1);
    let toi = out.report.toi.unwrap();
    assert!(toi <= 0.25 && toi > 0.25 - 1e-9, "{toi}");
    // Against the exact oracle, in contact and within d.
    for d in [0.0, 0.5] {
        let out = Pipeline::new(PipelineConfig {
            min_distance: d,
            ..collecting()
        })
        .step(&step)
        .unwrap();
        let want: BTreeSet<_> = oracle_collisions_within(&step, d).into_keys().collect();
        assert_eq!(keys(&out.pairs), want, "d = {d}");
    }
    // Each component its own body that does not collide with itself:
    // every pair here is across components, so all stay.
    let config = PipelineConfig {
        bodies: Some(Bodies::Components),
        ..collecting()
    };
    assert_eq!(Pipeline::new(config).step(&step).unwrap().pairs.len(), 2);
    // Points 0 and 1 in one obstacle body: only the rod's pair is left.
    let body = vec![1, 1, 0, 0, 0, 0];
    let config = PipelineConfig {
        bodies: Some(Bodies::Labels(
            BodyLabels::new(body, vec![true, false]).unwrap(),
        )),
        ..collecting()
    };
    let out = Pipeline::new(config).step(&step).unwrap();
    let left: Vec<_> = out
        .pairs
        .iter()
        .filter_map(|p| p.vertex_edge(&mesh))
        .collect();
    assert_eq!((out.pairs.len(), left), (1, vec![(2, 0)]));
    assert_eq!(out.report.points.unwrap().vertex_vertex.candidates, 0);
    // The rod's ends in two bodies, point 2 in the obstacle body with the
    // rod's end 3 and 4, a third vertex 6 on the rod in the other: the
    // rod's component is in two bodies, and the point's pair with the rod's
    // edge 3–4 is within the obstacle.
    let mut x0_6 = x0.clone();
    x0_6.push(v(2.0, 0.0, 0.0));
    let mut x1_6 = x1.clone();
    x1_6.push(v(2.0, 0.0, 0.0));
    let rods = TriMesh::with_edges(7, vec![], &[[3, 4], [4, 6]]).unwrap();
    let step6 = Step::new(&rods, &x0_6, &x1_6).unwrap();
    let all = Pipeline::new(collecting()).step(&step6).unwrap();
    let body = vec![1, 1, 0, 0, 0, 1, 1];
    let config = PipelineConfig {
        bodies: Some(Bodies::Labels(
            BodyLabels::new(body, vec![false, true]).unwrap(),
        )),
        ..collecting()
    };
    let out = Pipeline::new(config).step(&step6).unwrap();
    let edge34 = rods.find_edge(3, 4).unwrap();
    let rod_pair = |pairs: &[ContactPair]| {
        pairs
            .iter()
            .filter_map(|p| p.vertex_edge(&rods))
            .any(|pair| pair == (2, edge34))
    };
    assert!(rod_pair(&all.pairs) && !rod_pair(&out.pairs));
    assert_eq!(out.pairs.len(), all.pairs.len() - 1);
    let (a, b) = (all.report.points.unwrap(), out.report.points.unwrap());
    assert_eq!(b.vertex_edge.candidates, a.vertex_edge.candidates - 1);
    // The points' pairs count against `max_pairs` when collected.
    assert!(matches!(
        listed_within(&step, 1),
        Err(PipelineError::TooManyPairs { limit: 1 })
    ));
    assert_eq!(listed_within(&step, 2).unwrap().pairs.len(), 2);
    // A mesh without points reports none.
    let plain = TriMesh::new(3, vec![[0, 1, 2]]).unwrap();
    let p = [v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(0.0, 1.0, 0.0)];
    let out = Pipeline::new(collecting())
        .step(&Step::new(&plain, &p, &p).unwrap())
        .unwrap();
    assert_eq!(out.report.points, None);
}

#[test]
fn a_replay_totals_the_points_pairs_of_its_steps() {
    // The points and rod over two steps: there (the pairs meet) and back.
    let (mesh, x0, x1) = points_and_a_rod();
    let seq = FrameSequence::from_memory("points", mesh, vec![x0.clone(), x1, x0]).unwrap();
    let mut sum = PointCounts::default();
    let summary = replay(&seq, PipelineConfig::default(), |r| {
        sum += r.report.points.expect("the mesh has points");
    })
    .unwrap();
    assert_eq!(summary.points, Some(sum));
    assert_eq!(
        (sum.vertex_edge.colliding, sum.vertex_vertex.colliding),
        (2, 2)
    );
    assert_eq!(summary.steps_with_collisions, 2);
    // The JSON has them; a mesh without points has none.
    let json = serde_json::to_value(&summary).unwrap();
    assert_eq!(json["points"]["vertex_vertex"]["colliding"], 2);
    let plain = TriMesh::new(3, vec![[0, 1, 2]]).unwrap();
    let x = vec![v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(0.0, 1.0, 0.0)];
    let seq = FrameSequence::from_memory("plain", plain, vec![x.clone(), x]).unwrap();
    let summary = replay(&seq, PipelineConfig::default(), |_| {}).unwrap();
    assert_eq!(summary.points, None);
    let json = serde_json::to_value(&summary).unwrap();
    assert!(json.get("points").is_none());
}

/// A triangle (vertices 0–2), a rod (3–4) and `n` points (from 5 on), each
/// on one of `pool`'s trajectories (integer points in `[-1, 1]³` at both
/// times), so that most points coincide with others at both times, and
/// some pass through each other, the rod or the triangle.
fn coincident_points(
    pool: &[[i8; 6]],
    of_point: &[usize],
    n: usize,
) -> (TriMesh, Vec<Vec3>, Vec<Vec3>) {
    let at = |c: &[i8]| v(f64::from(c[0]), f64::from(c[1]), f64::from(c[2]));
    let mut x0 = vec![v(-1.0, -1.0, 0.0), v(1.0, -1.0, 0.0), v(-1.0, 1.0, 0.0)];
    x0.extend([v(-1.0, 0.0, 1.0), v(1.0, 0.0, -1.0)]);
    let mut x1 = x0.clone();
    for &k in &of_point[..n] {
        let t = &pool[k % pool.len()];
        x0.push(at(&t[..3]));
        x1.push(at(&t[3..]));
    }
    let mesh = TriMesh::with_edges(5 + n, vec![[0, 1, 2]], &[[3, 4]]).unwrap();
    (mesh, x0, x1)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// A mesh of points alone (no faces, no edges: particles) steps as
    /// points beside a mesh do: exactly the oracle's pairs with brackets
    /// that meet its own, at d = 0 and within d (each point then a ball of
    /// diameter d), on 1 and 2 threads; proximity and intersections at one
    /// instant give the pairs within d and touching at the start.
    #[test]
    fn points_alone_step_as_particles(
        pool in proptest::collection::vec(proptest::array::uniform6(-2i8..=2), 2..=6),
        of_point in proptest::collection::vec(0usize..6, 12),
        n in 0usize..=12,
        d in prop::sample::select(&[0.0, 0.5][..]),
    ) {
        let at = |c: &[i8]| v(f64::from(c[0]), f64::from(c[1]), f64::from(c[2]));
        let x0: Vec<Vec3> = of_point[..n].iter().map(|&k| at(&pool[k % pool.len()][..3])).collect();
        let x1: Vec<Vec3> = of_point[..n].iter().map(|&k| at(&pool[k % pool.len()][3..])).collect();
        let mesh = TriMesh::new(n, vec![]).unwrap();
        prop_assert_eq!(mesh.codim_vertices().len(), n);
        let step = Step::new(&mesh, &x0, &x1).unwrap();
        let truth = oracle_collisions_within(&step, d);
        let config = PipelineConfig { min_distance: d, ..collecting() };
        for threads in [1, 2] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            let out = pool.install(|| Pipeline::new(config.clone()).step(&step)).unwrap();
            prop_assert_eq!(keys(&out.pairs), truth.keys().copied().collect::<BTreeSet<_>>());
            for p in &out.pairs {
                let [lo, hi] = truth[&(p.kind, p.a, p.b)];
                prop_assert!(p.toi_lower <= hi && lo <= p.toi_upper, "{:?}", p);
            }
            prop_assert_eq!(out.report.toi.is_none(), truth.is_empty());
        }
        let still = Step::new(&mesh, &x0, &x0).unwrap();
        let at_start = oracle_collisions_within(&still, d);
        let near = ccdlab::pipeline::proximity(&mesh, &x0, d).unwrap();
        prop_assert_eq!(keys(&near.pairs), at_start.keys().copied().collect::<BTreeSet<_>>());
        let touching = ccdlab::pipeline::intersections(&mesh, &x0).unwrap();
        prop_assert_eq!(
            keys(&touching.touching),
            oracle_collisions_within(&still, 0.0).keys().copied().collect::<BTreeSet<_>>()
        );
        prop_assert!(touching.crossing.is_empty());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Points drawn from two or three trajectories, with or without bodies
    /// by vertex, in contact and within d: the step reports exactly the
    /// exact oracle's allowed pairs, with brackets that meet the oracle's;
    /// its points' candidates are the broad phase's listing of every point
    /// pair less those the bodies skip; on 1 and 2 threads, with the pairs
    /// collected or only counted. (A step decides one point of each
    /// coincident class and multiplies.)
    #[test]
    fn coincident_points_give_the_oracles_pairs_and_the_listed_candidates(
        pool in proptest::collection::vec(proptest::array::uniform6(-1i8..=1), 2..=3),
        of_point in proptest::collection::vec(0usize..3, 24),
        n in 2usize..=24,
        labels in proptest::option::of((proptest::collection::vec(0u32..3, 29), proptest::collection::vec(any::<bool>(), 3))),
        d in prop::sample::select(&[0.0, 0.5][..]),
    ) {
        let (mesh, x0, x1) = coincident_points(&pool, &of_point, n);
        let step = Step::new(&mesh, &x0, &x1).unwrap();
        let (body, self_c) = match &labels {
            Some((body, self_c)) => (body[..mesh.num_vertices()].to_vec(), self_c.clone()),
            None => (vec![0; mesh.num_vertices()], vec![true]),
        };
        let ok = |a, b| allowed(&mesh, &body, &self_c, a, b);
        let truth = oracle_collisions_within(&step, d);
        let want: BTreeSet<_> = truth.keys().copied().filter(|&(_, a, b)| ok(a, b)).collect();
        for axes in [KdopAxes::Dop6, KdopAxes::Dop26] {
            let listed = point_candidates(&step, axes, d, &[]);
            let global = |f| mesh.global_id(f);
            let vertex_edge = (listed.vertex_edge.iter())
                .filter(|[p, e]| ok(global(Feature::Vertex(*p)), global(Feature::Edge(*e))))
                .count() as u64;
            let vertex_vertex = (listed.vertex_vertex.iter())
                .filter(|[p, q]| ok(global(Feature::Vertex(*p)), global(Feature::Vertex(*q))))
                .count() as u64;
            let config = PipelineConfig {
                axes,
                min_distance: d,
                bodies: labelled(body.clone(), self_c.clone()),
                ..collecting()
            };
            for threads in [1, 2] {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
                let out = pool.install(|| Pipeline::new(config.clone()).step(&step)).unwrap();
                let setting = format!("k = {axes:?}, d = {d}, {threads} threads");
                prop_assert_eq!(keys(&out.pairs), want.clone(), "{}", setting);
                for p in &out.pairs {
                    let [lo, hi] = truth[&(p.kind, p.a, p.b)];
                    prop_assert!(p.toi_lower <= hi && lo <= p.toi_upper, "{}: {:?}", setting, p);
                }
                let points = out.report.points.unwrap();
                prop_assert_eq!(
                    (points.vertex_edge.candidates, points.vertex_vertex.candidates),
                    (vertex_edge, vertex_vertex),
                    "{}", setting
                );
                let counted = PipelineConfig { collect_pairs: false, ..config.clone() };
                let counted = pool.install(|| Pipeline::new(counted).step(&step)).unwrap();
                prop_assert_eq!(same_report(&counted.report), same_report(&out.report), "{}", setting);
            }
        }
    }
}

#[test]
fn thousands_of_coincident_points_are_counted_and_listed_up_to_the_limit() {
    // A simulator's unused vertices parked at the origin: 3,000 points
    // beside a triangle, every pair of them touching at t = 0.
    let n = 3_000u64;
    let mut x0 = vec![v(1.0, 0.0, 0.0), v(2.0, 0.0, 0.0), v(1.0, 1.0, 0.0)];
    x0.resize(3 + n as usize, v(0.0, 0.0, 0.0));
    let mesh = TriMesh::new(x0.len(), vec![[0, 1, 2]]).unwrap();
    let step = Step::new(&mesh, &x0, &x0).unwrap();
    let counted = Pipeline::new(PipelineConfig::default())
        .step(&step)
        .unwrap();
    let points = counted.report.points.unwrap();
    let pairs = n * (n - 1) / 2;
    assert_eq!(
        (
            points.vertex_vertex.candidates,
            points.vertex_vertex.colliding
        ),
        (pairs, pairs)
    );
    assert_eq!(counted.report.toi, Some(0.0));
    // Listed, they pass a limit below their number, and are refused.
    assert!(matches!(
        listed_within(&step, pairs - 1),
        Err(PipelineError::TooManyPairs { limit }) if limit == pairs - 1
    ));
    // A few of them listed: every pair, ascending, each at [0, 0].
    let few = TriMesh::new(3 + 40, vec![[0, 1, 2]]).unwrap();
    let step = Step::new(&few, &x0[..43], &x0[..43]).unwrap();
    let out = Pipeline::new(collecting()).step(&step).unwrap();
    let got: Vec<_> = out
        .pairs
        .iter()
        .map(|p| p.vertex_vertex(&few).expect("a point pair"))
        .collect();
    let want: Vec<_> = (3..43u32)
        .flat_map(|p| (p + 1..43).map(move |q| (p, q)))
        .collect();
    assert_eq!(got, want);
    assert!(
        out.pairs
            .iter()
            .all(|p| p.toi_lower == 0.0 && p.toi_upper >= 0.0)
    );
}
