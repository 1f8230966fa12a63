//! Stage 2 against its oracle: the BVH's candidates equal the brute-force
//! candidates exactly, for every k, on random deforming meshes (proptest) and
//! on the real frames of `datasets/scalable-ccd`.

use crate::common::{any_edge, any_face, in_pool, without_repeated_faces};
use ccdlab::bounding_volume::{Kdop, KdopAxes};
use ccdlab::broad_phase::{
    BroadPhaseStats, Bvh, CandidateSet, EePair, NOT_SKIPPED, PointCandidates, VfPair,
    brute_force_candidates, brute_force_candidates_within, concat, point_candidates,
};
use ccdlab::math::Vec3;
use ccdlab::mesh::{Step, TriMesh};
use ccdlab::narrow_phase::{edge_edge_within, vertex_face_within};
use proptest::prelude::*;

/// A random small deforming mesh: positions on a coarse lattice (so that
/// coincident vertices, touching boxes and zero-area triangles are common),
/// some vertices not moving at all.
#[derive(Debug, Clone)]
struct Scene {
    mesh: TriMesh,
    x_t0: Vec<Vec3>,
    x_t1: Vec<Vec3>,
}

impl Scene {
    fn step(&self) -> Step<'_> {
        Step::new(&self.mesh, &self.x_t0, &self.x_t1).unwrap()
    }

    /// Positions for this scene's mesh taken from `other` where it has them
    /// (its `t = 1` positions at `t = 0` and the reverse), this scene's
    /// elsewhere.
    fn positions_from(&self, other: &Scene) -> (Vec<Vec3>, Vec<Vec3>) {
        let take = |from: &[Vec3], own: &[Vec3]| -> Vec<Vec3> {
            (0..own.len())
                .map(|i| *from.get(i).unwrap_or(&own[i]))
                .collect()
        };
        (take(&other.x_t1, &self.x_t1), take(&other.x_t0, &self.x_t0))
    }
}

fn lattice_point() -> impl Strategy<Value = Vec3> {
    (0..5i32, 0..5i32, 0..5i32)
        .prop_map(|(x, y, z)| Vec3::new(x as f64 * 0.5, y as f64 * 0.5, z as f64 * 0.5))
}

fn any_point() -> impl Strategy<Value = Vec3> {
    prop_oneof![
        3 => lattice_point(),
        1 => (-0.2..2.2f64, -0.2..2.2f64, -0.2..2.2f64).prop_map(|(x, y, z)| Vec3::new(x, y, z)),
    ]
}

fn scene() -> impl Strategy<Value = Scene> {
    (4usize..24)
        .prop_flat_map(|nv| {
            let face = any_face(nv);
            // Codimensional edges too (any pair of distinct vertices: some
            // are the faces' edges, dropped), in a scene of faces or of
            // edges alone.
            let edge = any_edge(nv);
            (
                (
                    proptest::collection::vec(face, 0..30),
                    proptest::collection::vec(edge, 0..8),
                )
                    .prop_filter("a face or an edge", |(f, e)| !f.is_empty() || !e.is_empty()),
                proptest::collection::vec(any_point(), nv),
                proptest::collection::vec(
                    prop_oneof![1 => Just(None), 2 => any_point().prop_map(Some)],
                    nv,
                ),
            )
        })
        .prop_map(|((faces, edges), x_t0, moves)| {
            let nv = x_t0.len();
            let x_t1 = x_t0
                .iter()
                .zip(&moves)
                .map(|(p, m)| m.unwrap_or(*p))
                .collect();
            Scene {
                mesh: TriMesh::with_edges(nv, without_repeated_faces(faces), &edges).unwrap(),
                x_t0,
                x_t1,
            }
        })
}

/// The slowest possible oracle: every pair, full k-DOP test, no sweep.
fn all_pairs(step: &Step<'_>, axes: KdopAxes) -> CandidateSet {
    all_pairs_grown(step, axes, 0.0)
}

/// [`all_pairs`] with every vertex k-DOP grown by `r`.
fn all_pairs_grown(step: &Step<'_>, axes: KdopAxes, r: f64) -> CandidateSet {
    fn go<const N: usize>(step: &Step<'_>, r: f64) -> CandidateSet {
        let m = step.mesh();
        let v: Vec<Kdop<N>> = (0..m.num_vertices())
            .map(|i| {
                let mut b = Kdop::from_points(&[step.x_t0()[i], step.x_t1()[i]]);
                b.inflate_in(r);
                b
            })
            .collect();
        let hull = |ids: &[u32]| {
            ids.iter()
                .fold(Kdop::<N>::EMPTY, |b, &i| b.merge(&v[i as usize]))
        };
        let mut out = CandidateSet::default();
        for (f, t) in m.faces().iter().enumerate() {
            let fb = hull(t);
            for (i, vb) in v.iter().enumerate() {
                if !t.contains(&(i as u32)) && vb.overlaps(&fb) {
                    out.vertex_face.push(VfPair {
                        v: i as u32,
                        f: f as u32,
                    });
                }
            }
        }
        for (i, a) in m.edges().iter().enumerate() {
            for (j, b) in m.edges().iter().enumerate().skip(i + 1) {
                if !a.iter().any(|x| b.contains(x)) && hull(a).overlaps(&hull(b)) {
                    out.edge_edge.push(EePair::new(i as u32, j as u32));
                }
            }
        }
        out.sorted()
    }
    match axes {
        KdopAxes::Dop6 => go::<3>(step, r),
        KdopAxes::Dop8 => go::<4>(step, r),
        KdopAxes::Dop14 => go::<7>(step, r),
        KdopAxes::Dop18 => go::<9>(step, r),
        KdopAxes::Dop26 => go::<13>(step, r),
    }
}

fn bvh_set(bvh: &Bvh) -> (CandidateSet, BroadPhaseStats) {
    let mut set = CandidateSet::default();
    let stats = bvh.self_candidates(&mut set);
    (set, stats)
}

fn is_subset(a: &CandidateSet, b: &CandidateSet) -> bool {
    a.vertex_face
        .iter()
        .all(|p| b.vertex_face.binary_search(p).is_ok())
        && a.edge_edge
            .iter()
            .all(|p| b.edge_edge.binary_search(p).is_ok())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn bvh_equals_brute_force_for_every_k(s in scene()) {
        let step = s.step();
        let mut per_k = Vec::new();
        for axes in KdopAxes::ALL {
            let (brute, brute_stats) = brute_force_candidates(&step, axes);
            prop_assert_eq!(&brute, &all_pairs(&step, axes), "{} brute force vs all pairs", axes);
            let bvh = Bvh::build(&step, axes);
            prop_assert_eq!(bvh.validate(&step), Ok(()));
            let (found, stats) = bvh_set(&bvh);
            prop_assert_eq!(found.len(), found.clone().sorted().len());
            let found = found.sorted();
            // No duplicates.
            prop_assert!(found.vertex_face.windows(2).all(|w| w[0] != w[1]));
            prop_assert!(found.edge_edge.windows(2).all(|w| w[0] != w[1]));
            prop_assert_eq!(&found, &brute, "{}", axes);
            prop_assert_eq!(stats.vf_candidates, brute_stats.vf_candidates);
            prop_assert_eq!(stats.ee_candidates, brute_stats.ee_candidates);
            prop_assert_eq!(stats.vf_same_component, brute_stats.vf_same_component);
            prop_assert_eq!(stats.ee_same_component, brute_stats.ee_same_component);
            per_k.push((axes, found));
        }
        // More slabs cull more: whenever one k-DOP's directions include
        // another's, its candidates are a subset (6 ⊂ 14 ⊂ 26, 8 ⊂ 14,
        // 6 ⊂ 18 ⊂ 26), since each slab is computed the same way.
        let mut nested = 0;
        for (a, ka) in &per_k {
            for (b, kb) in &per_k {
                let dirs: Vec<_> = b.directions().collect();
                if a != b && a.directions().all(|d| dirs.contains(&d)) {
                    prop_assert!(is_subset(kb, ka), "{} ⊂ {}", a, b);
                    nested += 1;
                }
            }
        }
        // 6 ⊂ 14, 18, 26; 8 ⊂ 14, 26; 14 ⊂ 26; 18 ⊂ 26.
        prop_assert_eq!(nested, 7);
    }

    /// With a minimum separation `d > 0` (vertex k-DOPs grown by `d / 2`),
    /// the BVH still equals brute force and the all-pairs oracle for every
    /// k, before and after a refit; the candidates grow with `d` and hold
    /// every pair of features whose points come within `d` at t = 0 or 1.
    #[test]
    fn bvh_within_d_equals_brute_force_for_every_k(
        s in scene(),
        t in scene(),
        d in prop_oneof![Just(0.25), Just(0.5), Just(1e-9), Just(f64::MIN_POSITIVE), 0.0..3.0f64],
    ) {
        let step = s.step();
        let (x_t0, x_t1) = s.positions_from(&t);
        let step2 = Step::new(&s.mesh, &x_t0, &x_t1).unwrap();
        for axes in KdopAxes::ALL {
            let (brute, _) = brute_force_candidates_within(&step, axes, d);
            prop_assert_eq!(&brute, &all_pairs_grown(&step, axes, half_up(d)), "{} d = {}", axes, d);
            prop_assert!(is_subset(&brute_force_candidates(&step, axes).0, &brute), "{} d = {}", axes, d);
            let mut bvh = Bvh::build_within(&step, axes, false, d);
            prop_assert_eq!(bvh.min_distance(), d);
            prop_assert_eq!(bvh.validate(&step), Ok(()));
            prop_assert_eq!(&bvh_set(&bvh).0.sorted(), &brute, "{} d = {}", axes, d);
            bvh.refit(&step2).unwrap();
            prop_assert_eq!(bvh.validate(&step2), Ok(()));
            prop_assert_eq!(
                bvh_set(&bvh).0.sorted(),
                brute_force_candidates_within(&step2, axes, d).0,
                "{} d = {} after refit", axes, d
            );
        }
        // Vertices within d of a face corner at t = 0 are candidates.
        let (brute, _) = brute_force_candidates_within(&step, KdopAxes::Dop26, d);
        for (f, tri) in s.mesh.faces().iter().enumerate() {
            for v in (0..s.mesh.num_vertices() as u32).filter(|v| !tri.contains(v)) {
                // (A margin below d for the rounding of the norm.)
                let near = tri.iter().any(|&c| (s.x_t0[v as usize] - s.x_t0[c as usize]).norm() <= d * (1.0 - 1e-9));
                if near {
                    let pair = VfPair { v, f: f as u32 };
                    prop_assert!(brute.vertex_face.binary_search(&pair).is_ok(), "{:?} d = {}", pair, d);
                }
            }
        }
    }

    /// A refit to a new step of the same mesh gives a fresh build's
    /// candidates; a rebuild over the old tree (whose arrays it writes over
    /// in place) gives exactly the fresh tree.
    #[test]
    fn refit_equals_rebuild(s in scene(), t in scene()) {
        // Same topology as `s`, positions taken from `t` where it has them.
        let (x_t0, x_t1) = s.positions_from(&t);
        let step2 = Step::new(&s.mesh, &x_t0, &x_t1).unwrap();
        for axes in [KdopAxes::Dop6, KdopAxes::Dop26] {
            let mut bvh = Bvh::build(&s.step(), axes);
            let mut rebuilt = bvh.clone();
            bvh.refit(&step2).unwrap();
            prop_assert_eq!(bvh.validate(&step2), Ok(()));
            let fresh = Bvh::build(&step2, axes);
            prop_assert_eq!(bvh_set(&bvh).0.sorted(), bvh_set(&fresh).0.sorted());
            prop_assert_eq!(bvh_set(&bvh).0.sorted(), brute_force_candidates(&step2, axes).0);
            rebuilt.rebuild(&step2);
            prop_assert_eq!(&rebuilt, &fresh);
        }
    }

    /// A rebuild over a tree of another mesh is exactly a fresh build.
    #[test]
    fn rebuild_over_another_tree_equals_a_fresh_build(s in scene(), t in scene()) {
        for axes in [KdopAxes::Dop6, KdopAxes::Dop26] {
            let mut bvh = Bvh::build(&s.step(), axes);
            bvh.rebuild(&t.step());
            prop_assert_eq!(&bvh, &Bvh::build(&t.step(), axes));
            prop_assert_eq!(bvh.validate(&t.step()), Ok(()));
        }
    }

    #[test]
    fn components_split_into_self_and_cross_traversals(s in scene()) {
        let step = s.step();
        let whole = Bvh::build(&step, KdopAxes::Dop18);
        let (expected, expected_stats) = bvh_set(&whole);
        let n = s.mesh.num_components() as u32;
        let parts: Vec<Bvh> = (0..n).map(|c| Bvh::build_components(&step, KdopAxes::Dop18, |k| k == c)).collect();
        let mut got = CandidateSet::default();
        let mut stats = BroadPhaseStats::default();
        for (i, a) in parts.iter().enumerate() {
            let st = a.self_candidates(&mut got);
            prop_assert_eq!(st.vf_candidates, st.vf_same_component);
            prop_assert_eq!(st.ee_candidates, st.ee_same_component);
            stats += st;
            for b in &parts[i + 1..] {
                let st = a.cross_candidates(b, &mut got).unwrap();
                prop_assert_eq!(st.vf_same_component + st.ee_same_component, 0);
                stats += st;
            }
            prop_assert!(a.cross_candidates(a, &mut CandidateSet::default()).is_err() || a.components().is_empty());
        }
        prop_assert_eq!(got.sorted(), expected.sorted());
        prop_assert_eq!(stats.vf_candidates, expected_stats.vf_candidates);
        prop_assert_eq!(stats.vf_same_component, expected_stats.vf_same_component);
        prop_assert_eq!(stats.ee_same_component, expected_stats.ee_same_component);
    }

    /// Skipped groups: the traversal's candidates are the brute-force ones
    /// less the pairs whose features' components are in one skipped group
    /// (random groups, some components in none), with time-aligned pruning
    /// on or off (then the pruned traversal's less those pairs), in the
    /// order of the traversal without groups, on 1 and 2 threads.
    #[test]
    fn skipped_groups_drop_exactly_the_pairs_within_a_group(
        s in scene(),
        groups in proptest::collection::vec(prop_oneof![1 => Just(NOT_SKIPPED), 2 => 0u32..3], 24),
    ) {
        let step = s.step();
        let group = &groups[..s.mesh.num_components()];
        let comp = s.mesh.component();
        let (faces, edges) = (s.mesh.faces(), s.mesh.edges());
        let skipped = |a: u32, b: u32| {
            let (ga, gb) = (group[comp[a as usize] as usize], group[comp[b as usize] as usize]);
            ga == gb && ga != NOT_SKIPPED
        };
        for (axes, time_aligned) in [(KdopAxes::Dop6, false), (KdopAxes::Dop26, false), (KdopAxes::Dop26, true)] {
            let bvh = Bvh::build_time_aligned(&step, axes, time_aligned);
            let (mut want, _) = bvh_set(&bvh);
            want.vertex_face.retain(|p| !skipped(p.v, faces[p.f as usize][0]));
            want.edge_edge.retain(|p| !skipped(edges[p.e0 as usize][0], edges[p.e1 as usize][0]));
            if !time_aligned {
                let mut brute = brute_force_candidates(&step, axes).0;
                brute.vertex_face.retain(|p| !skipped(p.v, faces[p.f as usize][0]));
                brute.edge_edge.retain(|p| !skipped(edges[p.e0 as usize][0], edges[p.e1 as usize][0]));
                prop_assert_eq!(want.clone().sorted(), brute);
            }
            let mut got = CandidateSet::default();
            let stats = bvh.self_candidates_skipping(group, &mut got);
            prop_assert_eq!(&got, &want);
            prop_assert_eq!(stats.vf_candidates as usize, want.vertex_face.len());
            prop_assert_eq!(stats.ee_candidates as usize, want.edge_edge.len());
            for threads in [1, 2] {
                let (parts, par_stats) = in_pool(threads, || bvh.self_candidates_par_skipping(group, CandidateSet::default));
                prop_assert_eq!(&concat(parts), &want);
                prop_assert_eq!(par_stats, stats);
            }
        }
    }

    /// The codimensional points' candidates are every point–edge and
    /// point–point pair whose grown swept k-DOPs overlap and whose grown
    /// k-DOPs at `t = 0` and `t = 1` no slab separates at both times in the
    /// same order, less the pairs within a skipped group, on 1 and 2
    /// threads.
    #[test]
    fn point_candidates_equal_every_overlapping_pair(
        s in scene(),
        d in prop::sample::select(&[0.0, 0.1][..]),
        groups in proptest::collection::vec(0u32..3, 24),
    ) {
        let step = s.step();
        let mesh = &s.mesh;
        let skip: Vec<u32> = (0..mesh.num_components())
            .map(|c| if groups[c % 24] == 2 { NOT_SKIPPED } else { groups[c % 24] })
            .collect();
        // The features' points at t = 0 and t = 1, and their grown k-DOPs:
        // swept, at t = 0, at t = 1.
        let kdops = |vs: &[u32]| -> [Kdop<13>; 3] {
            let at = |x: &[Vec3]| {
                let mut bv = Kdop::<13>::from_points(vs.iter().map(|&v| &x[v as usize]));
                bv.inflate_in(half_up(d));
                bv
            };
            let (a, b) = (at(&s.x_t0), at(&s.x_t1));
            [a.merge(&b), a, b]
        };
        let meet = |p: &[u32], q: &[u32]| {
            let (a, b) = (kdops(p), kdops(q));
            let apart = (0..13).any(|i| {
                (a[1].hi[i] < b[1].lo[i] && a[2].hi[i] < b[2].lo[i])
                    || (b[1].hi[i] < a[1].lo[i] && b[2].hi[i] < a[2].lo[i])
            });
            a[0].overlaps(&b[0]) && !apart
        };
        let group = |v: u32| skip[mesh.component()[v as usize] as usize];
        let kept = |u: u32, v: u32| group(u) == NOT_SKIPPED || group(u) != group(v);
        let mut want = PointCandidates::default();
        for &p in mesh.codim_vertices() {
            for (i, e) in mesh.codim_edges().iter().enumerate() {
                if meet(&[p], e) && kept(p, e[0]) {
                    want.vertex_edge.push([p, (mesh.num_face_edges() + i) as u32]);
                }
            }
            for &q in mesh.codim_vertices().iter().filter(|&&q| q > p) {
                if meet(&[p], &[q]) && kept(p, q) {
                    want.vertex_vertex.push([p, q]);
                }
            }
        }
        for threads in [1, 2] {
            let got = in_pool(threads, || point_candidates(&step, KdopAxes::Dop26, d, &skip));
            prop_assert_eq!(&got, &want);
        }
    }

    #[test]
    fn parallel_output_is_the_sequential_output_for_any_thread_count(s in scene()) {
        let step = s.step();
        let bvh = Bvh::build(&step, KdopAxes::Dop26);
        let (seq, seq_stats) = bvh_set(&bvh);
        for threads in [1, 2, 3] {
            let (par, par_stats) = in_pool(threads, || bvh.self_candidate_set_par());
            prop_assert_eq!(&par, &seq, "{} threads", threads);
            prop_assert_eq!(par_stats, seq_stats);
        }
    }
}

/// Whether the `f64` k-DOPs of two sets of moving points at `t = 0` and at
/// `t = 1`, each grown by `half` ([`Kdop::inflate_in`]), overlap in the
/// time-aligned sense: no slab separates them at both times in the same
/// order.
fn aligned_f64<const N: usize>(step: &Step<'_>, half: f64, a: &[u32], b: &[u32]) -> bool {
    let at = |ids: &[u32], x: &[Vec3]| {
        let mut k = Kdop::<N>::from_points(ids.iter().map(|&i| &x[i as usize]));
        k.inflate_in(half);
        k
    };
    let (a0, a1, b0, b1) = (
        at(a, step.x_t0()),
        at(a, step.x_t1()),
        at(b, step.x_t0()),
        at(b, step.x_t1()),
    );
    (0..N).all(|i| {
        let below = a0.hi[i] < b0.lo[i] && a1.hi[i] < b1.lo[i];
        let above = b0.hi[i] < a0.lo[i] && b1.hi[i] < a1.lo[i];
        !(below || above)
    })
}

/// `d / 2`, rounded up (the BVH's growth of every vertex k-DOP).
fn half_up(d: f64) -> f64 {
    if (d * 0.5) * 2.0 == d {
        d * 0.5
    } else {
        (d * 0.5).next_up()
    }
}

/// Time-aligned pruning at separation `d` against its oracles, for one k:
/// the pruned candidates are a subset of the swept ones (the brute force's
/// at `d`); every candidate whose two features' exact time-aligned k-DOPs,
/// grown by `d / 2`, overlap is kept (the quantized images of the features,
/// and of the leaves that own them, only widen them); every dropped
/// candidate stays farther than `d` apart (the exact solver; at `d = 0`,
/// free of contact); and the parallel output is the sequential one.
fn check_time_aligned<const N: usize>(step: &Step<'_>, d: f64) -> Result<(), TestCaseError> {
    let axes = KdopAxes::from_k(2 * N).unwrap();
    let swept = brute_force_candidates_within(step, axes, d).0;
    let bvh = Bvh::build_within(step, axes, true, d);
    prop_assert!(bvh.time_aligned());
    prop_assert_eq!(bvh.validate(step), Ok(()));
    let (kept, stats) = bvh_set(&bvh);
    let (par, par_stats) = in_pool(2, || bvh.self_candidate_set_par());
    prop_assert_eq!(&par, &kept);
    prop_assert_eq!(par_stats, stats);
    let (_, swept_stats) = bvh_set(&Bvh::build_within(step, axes, false, d));
    // Leaf pairs dropped with their whole cluster are not counted as
    // pruned (`BroadPhaseStats::leaf_pairs_pruned`).
    prop_assert!(stats.leaf_pairs + stats.leaf_pairs_pruned <= swept_stats.leaf_pairs);
    let kept = kept.sorted();
    prop_assert!(is_subset(&kept, &swept));
    let (m, half) = (step.mesh(), half_up(d));
    let (x0, x1) = (step.x_t0(), step.x_t1());
    let p = |i: u32| [&x0[i as usize], &x1[i as usize]];
    for c in &swept.vertex_face {
        let f = m.faces()[c.f as usize];
        let is_kept = kept.vertex_face.binary_search(c).is_ok();
        if aligned_f64::<N>(step, half, &[c.v], &f) {
            prop_assert!(is_kept, "{:?} dropped, its features overlap (d = {})", c, d);
        }
        if !is_kept {
            let ([v0, v1], [a0, a1], [b0, b1], [c0, c1]) = (p(c.v), p(f[0]), p(f[1]), p(f[2]));
            prop_assert!(
                vertex_face_within(v0, a0, b0, c0, v1, a1, b1, c1, d).is_none(),
                "{:?} dropped, within d = {}",
                c,
                d
            );
        }
    }
    for c in &swept.edge_edge {
        let (ea, eb) = (m.edges()[c.e0 as usize], m.edges()[c.e1 as usize]);
        let is_kept = kept.edge_edge.binary_search(c).is_ok();
        if aligned_f64::<N>(step, half, &ea, &eb) {
            prop_assert!(is_kept, "{:?} dropped, its features overlap (d = {})", c, d);
        }
        if !is_kept {
            let ([a0, a1], [b0, b1], [c0, c1], [d0, d1]) = (p(ea[0]), p(ea[1]), p(eb[0]), p(eb[1]));
            prop_assert!(
                edge_edge_within(a0, b0, c0, d0, a1, b1, c1, d1, d).is_none(),
                "{:?} dropped, within d = {}",
                c,
                d
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Time-aligned pruning (`Bvh::build_within` with it on) against its
    /// oracles (`check_time_aligned`), for every k, at contact and at a
    /// minimum separation; a refit keeps the setting and gives a fresh
    /// build's tree.
    #[test]
    fn time_aligned_pruning_keeps_every_collision(
        s in scene(),
        t in scene(),
        d in prop_oneof![2 => Just(0.0), 1 => Just(0.25), 1 => Just(1e-9), 1 => 0.0..2.0f64],
    ) {
        let step = s.step();
        check_time_aligned::<3>(&step, d)?;
        check_time_aligned::<4>(&step, d)?;
        check_time_aligned::<7>(&step, d)?;
        check_time_aligned::<9>(&step, d)?;
        check_time_aligned::<13>(&step, d)?;
        let (x_t0, x_t1) = s.positions_from(&t);
        let step2 = Step::new(&s.mesh, &x_t0, &x_t1).unwrap();
        let mut bvh = Bvh::build_within(&step, KdopAxes::Dop26, true, d);
        bvh.refit(&step2).unwrap();
        prop_assert!(bvh.time_aligned());
        let fresh = Bvh::build_within(&step2, KdopAxes::Dop26, true, d);
        prop_assert_eq!(bvh_set(&bvh).0.sorted(), bvh_set(&fresh).0.sorted());
        let mut rebuilt = Bvh::build_within(&step, KdopAxes::Dop26, true, d);
        rebuilt.rebuild(&step2);
        prop_assert_eq!(&rebuilt, &fresh);
    }
}

/// A fine cloth-like grid (many leaves) falling onto a second grid, so that
/// the parallel paths (build, refit, task split) are exercised for real.
fn two_grids(n: usize, lift: f64) -> (TriMesh, Vec<Vec3>, Vec<Vec3>) {
    let mut faces = Vec::new();
    let mut x0 = Vec::new();
    let mut x1 = Vec::new();
    for g in 0..2 {
        let base = (g * n * n) as u32;
        for i in 0..n {
            for j in 0..n {
                let (x, y) = (i as f64 / n as f64, j as f64 / n as f64);
                // A gentle wave so that the grids are not flat planes.
                let z = 0.02 * (7.0 * x).sin() * (5.0 * y).cos() + if g == 0 { 0.0 } else { lift };
                x0.push(Vec3::new(x, y, z));
                let dz = if g == 0 { 0.0 } else { -1.5 * lift };
                x1.push(Vec3::new(x + 0.1 * y * y, y, z + dz));
            }
        }
        for i in 0..n as u32 - 1 {
            for j in 0..n as u32 - 1 {
                let v = |a: u32, b: u32| base + a * n as u32 + b;
                faces.push([v(i, j), v(i + 1, j), v(i + 1, j + 1)]);
                faces.push([v(i, j), v(i + 1, j + 1), v(i, j + 1)]);
            }
        }
    }
    // Two vertices in no face: one between the grids, one far away.
    x0.push(Vec3::new(0.5, 0.5, 0.5 * lift));
    x1.push(Vec3::new(0.5, 0.5, 0.5 * lift));
    x0.push(Vec3::new(9.0, 9.0, 9.0));
    x1.push(Vec3::new(9.0, 9.0, 9.0));
    (TriMesh::new(x0.len(), faces).unwrap(), x0, x1)
}

#[test]
fn large_grids_match_brute_force_in_parallel_and_after_refit() {
    let (mesh, x0, x1) = two_grids(80, 0.05);
    let step = Step::new(&mesh, &x0, &x1).unwrap();
    // More leaves than the parallel build's cutoff (`bvh_build.rs` keeps it at
    // or under 8192), so that both builds below run in parallel.
    assert!(mesh.num_faces() > 8192);
    for axes in [KdopAxes::Dop6, KdopAxes::Dop26] {
        let (brute, brute_stats) = brute_force_candidates(&step, axes);
        assert!(brute_stats.vf_inter_component() > 0 && brute_stats.ee_inter_component() > 0);
        assert!(brute_stats.vf_same_component > 0 && brute_stats.ee_same_component > 0);
        let (one, two) = (
            in_pool(1, || Bvh::build(&step, axes)),
            in_pool(2, || Bvh::build(&step, axes)),
        );
        let (s1, st1) = in_pool(1, || one.self_candidate_set_par());
        let (s2, st2) = in_pool(2, || two.self_candidate_set_par());
        assert_eq!(s1, s2, "{axes}: 1 vs 2 threads");
        assert_eq!(st1, st2);
        assert_eq!(s1.clone().sorted(), brute, "{axes}");
        assert_eq!(st1.vf_same_component, brute_stats.vf_same_component);
        assert_eq!(st1.ee_same_component, brute_stats.ee_same_component);

        // Refit a BVH built on the reversed step to this one.
        let back = Step::new(&mesh, &x1, &x0).unwrap();
        let mut refitted = in_pool(2, || Bvh::build(&back, axes));
        in_pool(2, || refitted.refit(&step)).unwrap();
        assert_eq!(refitted.validate(&step), Ok(()));
        let (s3, _) = in_pool(2, || refitted.self_candidate_set_par());
        assert_eq!(s3.sorted(), brute, "{axes}: refit");
    }
}

/// Skipped groups on two large grids, half their width apart in height
/// (many clusters, and subtrees wholly in one grid, so that the descents
/// skip subtrees; grids closer than their cells are wide share every
/// cluster) and two loose vertices
/// (components 2 and 3): every grouping gives the whole traversal's
/// candidates less the pairs within a skipped group, in its order, on 1
/// and 2 threads, with time-aligned pruning on and off, and skipping a
/// grid's pairs with itself saves node tests.
#[test]
fn skipped_groups_on_large_grids_drop_exactly_the_pairs_within_a_group() {
    let (mesh, x0, x1) = two_grids(48, 0.5);
    let step = Step::new(&mesh, &x0, &x1).unwrap();
    assert_eq!(mesh.num_components(), 4);
    let comp = mesh.component();
    let (faces, edges) = (mesh.faces(), mesh.edges());
    let n = NOT_SKIPPED;
    for time_aligned in [false, true] {
        let bvh = Bvh::build_time_aligned(&step, KdopAxes::Dop26, time_aligned);
        let (all, all_stats) = bvh_set(&bvh);
        for group in [
            [0, 1, 2, 3],
            [0, 0, 0, 0],
            [0, n, n, 0],
            [n, 0, 0, n],
            [n, n, n, n],
        ] {
            let skipped = |a: u32, b: u32| {
                let (ga, gb) = (
                    group[comp[a as usize] as usize],
                    group[comp[b as usize] as usize],
                );
                ga == gb && ga != n
            };
            let mut want = all.clone();
            want.vertex_face
                .retain(|p| !skipped(p.v, faces[p.f as usize][0]));
            want.edge_edge
                .retain(|p| !skipped(edges[p.e0 as usize][0], edges[p.e1 as usize][0]));
            for threads in [1, 2] {
                let (parts, stats) = in_pool(threads, || {
                    bvh.self_candidates_par_skipping(&group, CandidateSet::default)
                });
                assert_eq!(concat(parts), want, "{group:?}, {threads} threads");
                assert_eq!(stats.vf_candidates as usize, want.vertex_face.len());
                if group[0] != n {
                    assert!(
                        stats.node_tests < all_stats.node_tests,
                        "{group:?}: {} node tests, {} without groups",
                        stats.node_tests,
                        all_stats.node_tests
                    );
                } else if group == [n; 4] {
                    assert_eq!(stats, all_stats);
                }
            }
        }
    }
}

#[test]
fn a_vertex_in_no_face_is_tested_against_faces() {
    // Triangle A static at z = 0; triangle B falls through it; vertex 6 (in
    // no face) sits between them; vertex 7 (in no face) is far away.
    let x0 = [
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, 0.0, 1.0],
        [1.0, 0.0, 1.0],
        [0.0, 1.0, 1.0],
        [0.2, 0.2, 0.5],
        [10.0, 10.0, 10.0],
    ]
    .map(|[x, y, z]| Vec3::new(x, y, z));
    let mut x1 = x0;
    for p in &mut x1[3..6] {
        p.z = -1.0;
    }
    let mesh = TriMesh::new(8, vec![[0, 1, 2], [3, 4, 5]]).unwrap();
    let step = Step::new(&mesh, &x0, &x1).unwrap();
    let bvh = Bvh::build(&step, KdopAxes::Dop6);
    assert_eq!(bvh.num_leaves(), 4);
    let (set, stats) = bvh_set(&bvh);
    let set = set.sorted();
    let vf: Vec<(u32, u32)> = set.vertex_face.iter().map(|p| (p.v, p.f)).collect();
    assert_eq!(
        vf,
        vec![(0, 1), (1, 1), (2, 1), (3, 0), (4, 0), (5, 0), (6, 1)]
    );
    // Every edge of A against every edge of B: their boxes all meet.
    assert_eq!(set.edge_edge.len(), 9);
    assert_eq!(stats.vf_inter_component(), 7);
    assert_eq!(stats.ee_same_component, 0);
    assert_eq!(set, brute_force_candidates(&step, KdopAxes::Dop6).0);
}

/// Two grids and 2,000 codimensional points, half of them at one vertex of
/// the lower grid (touching its faces), half far away (a simulator's
/// unused vertices parked at one place): the candidates are the brute
/// force's on 1 and 2 threads, and the traversal reaches no pair of two
/// points (the build puts their leaves last and no query starts there):
/// it reaches at most the grids' own leaf pairs and one per point and
/// face.
#[test]
fn coincident_points_give_the_brute_force_candidates_and_no_pair_of_points() {
    let (grids, mut x0, mut x1) = two_grids(8, 0.5);
    let points = 2000;
    for k in 0..points {
        let p = if k % 2 == 0 {
            x0[10]
        } else {
            Vec3::new(5.0, 5.0, 5.0)
        };
        x0.push(p);
        x1.push(p);
    }
    let mesh = TriMesh::new(x0.len(), grids.faces().to_vec()).unwrap();
    let step = Step::new(&mesh, &x0, &x1).unwrap();
    let without = Step::new(
        &grids,
        &x0[..grids.num_vertices()],
        &x1[..grids.num_vertices()],
    )
    .unwrap();
    for axes in [KdopAxes::Dop6, KdopAxes::Dop26] {
        let bvh = in_pool(2, || Bvh::build(&step, axes));
        assert_eq!(bvh.validate(&step), Ok(()));
        let (set, stats) = bvh_set(&bvh);
        let (brute, _) = brute_force_candidates(&step, axes);
        assert_eq!(set.clone().sorted(), brute, "{axes}");
        assert!(set.vertex_face.len() >= points / 2, "{axes}");
        for threads in [1, 2] {
            let (parts, _) = in_pool(threads, || bvh.self_candidates_par(CandidateSet::default));
            assert_eq!(concat(parts), set, "{axes}, {threads} threads");
        }
        let (_, grids_only) = bvh_set(&Bvh::build(&without, axes));
        let most = grids_only.leaf_pairs + (points * grids.num_faces()) as u64;
        assert!(
            stats.leaf_pairs <= most,
            "{axes}: {} leaf pairs",
            stats.leaf_pairs
        );

        // Split into trees (the grids, the even points, the odd points):
        // their own and cross candidates together are the whole set, and
        // the cross traversal of the two trees of points reaches no pair.
        let comp = mesh.component();
        let last_face = grids.faces()[grids.num_faces() - 1];
        let grid = |c: u32| c == comp[0] || c == comp[last_face[0] as usize];
        let trees = [
            Bvh::build_components(&step, axes, grid),
            Bvh::build_components(&step, axes, |c| !grid(c) && c % 2 == 0),
            Bvh::build_components(&step, axes, |c| !grid(c) && c % 2 == 1),
        ];
        let mut got = CandidateSet::default();
        for (i, a) in trees.iter().enumerate() {
            a.self_candidates(&mut got);
            for b in &trees[i + 1..] {
                let mut one = CandidateSet::default();
                let st = a.cross_candidates(b, &mut one).unwrap();
                let (parts, st_par) = in_pool(2, || {
                    a.cross_candidates_par(b, CandidateSet::default).unwrap()
                });
                assert_eq!((concat(parts), st_par), (one.clone(), st), "{axes}");
                if i == 1 {
                    assert_eq!(st.leaf_pairs, 0, "{axes}: points against points");
                }
                got.vertex_face.extend(one.vertex_face);
                got.edge_edge.extend(one.edge_edge);
            }
        }
        assert_eq!(got.sorted(), brute, "{axes}: split into trees");
    }
}

#[test]
fn errors_are_typed() {
    let (mesh, x0, x1) = two_grids(4, 0.1);
    let step = Step::new(&mesh, &x0, &x1).unwrap();
    let other = TriMesh::new(3, vec![[0, 1, 2]]).unwrap();
    let p = [Vec3::zeros(); 3];
    let small = Step::new(&other, &p, &p).unwrap();
    let mut bvh = Bvh::build(&step, KdopAxes::Dop26);
    assert!(matches!(
        bvh.refit(&small),
        Err(ccdlab::broad_phase::BroadPhaseError::TopologyMismatch {
            what: "vertices",
            ..
        })
    ));
    let b6 = Bvh::build(&step, KdopAxes::Dop6);
    assert!(matches!(
        bvh.cross_candidates(&b6, &mut CandidateSet::default()),
        Err(ccdlab::broad_phase::BroadPhaseError::AxesMismatch(
            KdopAxes::Dop26,
            KdopAxes::Dop6
        ))
    ));
    assert!(matches!(
        bvh.cross_candidates(&bvh, &mut CandidateSet::default()),
        Err(ccdlab::broad_phase::BroadPhaseError::OverlappingComponents(
            0
        ))
    ));
    // An empty selection is a valid, empty BVH.
    let none = Bvh::build_components(&step, KdopAxes::Dop26, |_| false);
    assert_eq!(none.num_nodes(), 0);
    assert!(bvh_set(&none).0.is_empty());
    assert_eq!(none.self_candidate_set_par().0, CandidateSet::default());
    assert!(
        bvh.cross_candidates(&none, &mut CandidateSet::default())
            .unwrap()
            == BroadPhaseStats::default()
    );
    let _ = concat(vec![]);
}

// ---------------------------------------------------------------------------
// Real frames: datasets/scalable-ccd (Belgrod et al. 2023).

struct Frames {
    mesh: TriMesh,
    x_t0: Vec<Vec3>,
    x_t1: Vec<Vec3>,
}

impl Frames {
    fn load(scene: &str, f0: &str, f1: &str) -> Frames {
        let root = ccdlab::harness::data::require_root().unwrap_or_else(|e| panic!("{e}"));
        let dir = root.join("scalable-ccd").join(scene).join("frames");
        let (mesh, x_t0, x_t1) = ccdlab::mesh::read_step(&dir.join(f0), &dir.join(f1))
            .unwrap_or_else(|e| panic!("{scene}: {e}"));
        Frames { mesh, x_t0, x_t1 }
    }

    fn cloth_ball() -> Frames {
        Frames::load("cloth-ball", "cloth_ball92.ply", "cloth_ball93.ply")
    }

    fn cloth_funnel() -> Frames {
        Frames::load("cloth-funnel", "227.ply", "228.ply")
    }

    fn step(&self) -> Step<'_> {
        Step::new(&self.mesh, &self.x_t0, &self.x_t1).unwrap()
    }
}

/// Pairs of `boxes/<name>.json` whose `mma_bool/<name>_mma_bool.json` entry is
/// true, as candidates.
fn colliding_listed_pairs(scene: &str, name: &str, mesh: &TriMesh) -> CandidateSet {
    use ccdlab::harness::ground_truth::{read_boxes, read_mma_bool};
    use ccdlab::mesh::Feature;
    let dir = ccdlab::harness::data::require_root()
        .unwrap()
        .join("scalable-ccd")
        .join(scene);
    let boxes = read_boxes(&dir.join("boxes").join(format!("{name}.json"))).unwrap();
    let truth = read_mma_bool(&dir.join("mma_bool").join(format!("{name}_mma_bool.json"))).unwrap();
    assert_eq!(boxes.len(), truth.len(), "{scene}/{name}");
    let mut out = CandidateSet::default();
    for (i, (ids, hit)) in boxes.iter().zip(&truth).enumerate() {
        if !hit {
            continue;
        }
        match ids.map(|id| mesh.feature(id).unwrap()) {
            [Feature::Vertex(v), Feature::Face(f)] | [Feature::Face(f), Feature::Vertex(v)] => {
                out.vertex_face.push(VfPair { v, f })
            }
            [Feature::Edge(a), Feature::Edge(b)] => out.edge_edge.push(EePair::new(a, b)),
            other => panic!("{scene}/{name} pair {i}: {other:?}"),
        }
    }
    out.sorted()
}

#[test]
fn cloth_ball_92_aabb_candidates_reproduce_the_published_counts() {
    // The data set's reference code (scalable-ccd, CPU sort and sweep) reports
    // 1,655,541 VF and 5,197,332 EE overlapping swept-AABB pairs for this step.
    let frames = Frames::cloth_ball();
    let step = frames.step();
    let (brute, brute_stats) = brute_force_candidates(&step, KdopAxes::Dop6);
    assert_eq!(brute.vertex_face.len(), 1_655_541);
    assert_eq!(brute.edge_edge.len(), 5_197_332);
    let bvh = in_pool(2, || Bvh::build(&step, KdopAxes::Dop6));
    assert_eq!(bvh.validate(&step), Ok(()));
    let (par2, stats2) = in_pool(2, || bvh.self_candidate_set_par());
    let (par1, stats1) = in_pool(1, || bvh.self_candidate_set_par());
    assert_eq!(par1, par2, "1 vs 2 threads");
    assert_eq!(stats1, stats2);
    let (seq, seq_stats) = bvh_set(&bvh);
    assert_eq!(seq, par1, "sequential vs parallel");
    assert_eq!(seq_stats, stats1);
    assert_eq!(seq.sorted(), brute);
    assert_eq!(stats1.vf_same_component, brute_stats.vf_same_component);
    assert_eq!(stats1.ee_same_component, brute_stats.ee_same_component);
    // cloth (self) and cloth–ball (inter-object) pairs are both there.
    assert_eq!(frames.mesh.num_components(), 2);
    assert!(brute_stats.vf_inter_component() > 0 && brute_stats.ee_inter_component() > 0);
}

#[test]
fn cloth_ball_92_bvh_equals_brute_force_for_every_k() {
    let frames = Frames::cloth_ball();
    let step = frames.step();
    let truth_vf = colliding_listed_pairs("cloth-ball", "92vf", &frames.mesh);
    let truth_ee = colliding_listed_pairs("cloth-ball", "92ee", &frames.mesh);
    assert_eq!(
        (truth_vf.vertex_face.len(), truth_ee.edge_edge.len()),
        (19_032, 94_822)
    );
    let mut counts = Vec::new();
    for axes in KdopAxes::ALL {
        let (brute, _) = brute_force_candidates(&step, axes);
        let bvh = in_pool(2, || Bvh::build(&step, axes));
        let (found, _) = in_pool(2, || bvh.self_candidate_set_par());
        let found = found.sorted();
        assert!(found == brute, "{axes}: BVH and brute force differ");
        // Every colliding pair the data set lists is a candidate.
        assert!(
            is_subset(&truth_vf, &found),
            "{axes}: a colliding VF pair is missing"
        );
        assert!(
            is_subset(&truth_ee, &found),
            "{axes}: a colliding EE pair is missing"
        );
        counts.push((axes, (found.vertex_face.len(), found.edge_edge.len())));
    }
    // More slabs, fewer candidates: 26 ≤ 18 ≤ 6, 26 ≤ 14 ≤ 6.
    let n = |k: KdopAxes| counts.iter().find(|(a, _)| *a == k).unwrap().1;
    use KdopAxes::{Dop6, Dop14, Dop18, Dop26};
    assert!(n(Dop26).0 <= n(Dop18).0 && n(Dop18).0 <= n(Dop6).0);
    assert!(n(Dop26).1 <= n(Dop14).1 && n(Dop14).1 <= n(Dop6).1);
}

#[test]
fn cloth_funnel_227_bvh_equals_brute_force_for_every_k_and_after_refit() {
    let frames = Frames::cloth_funnel();
    let step = frames.step();
    let truth_vf = colliding_listed_pairs("cloth-funnel", "227vf", &frames.mesh);
    let truth_ee = colliding_listed_pairs("cloth-funnel", "227ee", &frames.mesh);
    assert_eq!(
        (truth_vf.vertex_face.len(), truth_ee.edge_edge.len()),
        (27, 107)
    );
    let back = Step::new(&frames.mesh, &frames.x_t1, &frames.x_t0).unwrap();
    for axes in KdopAxes::ALL {
        let (brute, _) = brute_force_candidates(&step, axes);
        let bvh = in_pool(2, || Bvh::build(&step, axes));
        assert_eq!(bvh.validate(&step), Ok(()));
        let (seq, seq_stats) = bvh_set(&bvh);
        let (par, par_stats) = in_pool(2, || bvh.self_candidate_set_par());
        assert_eq!(seq, par, "{axes}: sequential vs 2 threads");
        assert_eq!(seq_stats, par_stats);
        assert!(
            seq.clone().sorted() == brute,
            "{axes}: BVH and brute force differ"
        );
        assert!(
            is_subset(&truth_vf, &brute) && is_subset(&truth_ee, &brute),
            "{axes}"
        );
        // Refit a BVH built for the reversed step.
        let mut refitted = Bvh::build(&back, axes);
        refitted.refit(&step).unwrap();
        assert_eq!(refitted.validate(&step), Ok(()));
        assert!(bvh_set(&refitted).0.sorted() == brute, "{axes}: refit");
    }
    let (brute6, _) = brute_force_candidates(&step, KdopAxes::Dop6);
    assert_eq!(
        (brute6.vertex_face.len(), brute6.edge_edge.len()),
        (7_319, 33_770)
    );
}
