//! The edge–face traversal of a BVH: the candidates of a mesh's static
//! intersections (docs/design.md §11) from the tree a step builds, in place
//! of the oracle's sweep ([`fold_edge_face_candidates`]). Beyond Wan, Fu &
//! Yao 2022, whose CCD assumes meshes that do not interpenetrate at `t = 0`;
//! the tree is theirs (§1.1), the query is new.
//!
//! **What is visited.** Every pair `[e, f]` of an edge and a face that
//! share no vertex and whose exact `f64` k-DOPs overlap (an edge's is the
//! merge of its ends', a face's of its corners'), once. An edge through a
//! triangle meets it at a point of both k-DOPs, so no crossing is missed;
//! for a step that moves, the k-DOPs are the swept ones, and the pairs
//! those of edges and faces whose swept volumes may meet; for a tree built
//! with a minimum separation `d`, the vertices' k-DOPs are grown by `d / 2`
//! (`KdopBvh::build_within`), and so are the pairs.
//!
//! **Why each pair once.** Each edge has one owner leaf, and `BV(e) ⊆
//! BV(o(e))`; an edge that shares no vertex with `f` is not an edge of
//! `f`, so `o(e) ≠ f`, and if `BV(e) ∩ BV(f) ≠ ∅` the leaves `o(e)` and `f`
//! overlap. Each leaf `A` gathers its partners `B > A` whose quantized
//! k-DOPs (rounded outward) overlap its own, as the self traversal's
//! queries do (`bvh_traverse`), and tests `A`'s owned edges against `B`'s
//! face and `B`'s owned edges against `A`'s face: the pair `[e, f]` is
//! tested from the lower-numbered of `o(e)` and `f` only. Every visited
//! pair passed its exact test, so the set does not depend on the
//! quantization: it is exactly that of a test of every pair (checked
//! against one, below).
//!
//! **Order and parallelism.** The leaves are split into the self
//! traversal's tasks (runs of whole clusters, which depend on the tree
//! only); each runs on rayon with its own `T`. The pairs come in no set
//! order; sums and sorted lists do not depend on the thread count.
//!
//! [`fold_edge_face_candidates`]: super::fold_edge_face_candidates

use rayon::prelude::*;

use super::bvh::{KdopBvh, NO_FACE};
use super::bvh_descent::{SubtreeSkip, gather, own_leaves};
use super::bvh_traverse::cluster_tasks;
use crate::bounding_volume::{Kdop, QuantizedKdopQuery};

impl<const N: usize> KdopBvh<N> {
    /// The pairs `[edge, face]` (indices into the mesh's edges and faces)
    /// that share no vertex and whose k-DOPs overlap (module doc), handed
    /// to `visit(out, [edge, face])` in no set order, in parallel: each
    /// task fills its own `T`, merged with `merge`. Tasks not yet started
    /// once `stop()` holds are skipped, and a task stops between clusters.
    pub fn fold_edge_face_pairs<T: Default + Send>(
        &self,
        visit: impl Fn(&mut T, [u32; 2]) + Sync,
        merge: impl Fn(T, T) -> T + Sync + Send,
        stop: impl Fn() -> bool + Sync,
    ) -> T {
        let starts = self.query_clusters();
        let tasks = cluster_tasks(starts);
        tasks
            .par_windows(2)
            .with_max_len(1)
            .map(|w| {
                let mut out = T::default();
                let (mut union, mut partners) = (Vec::new(), Vec::new());
                let mut tests = 0;
                for k in w[0]..w[1] {
                    if stop() {
                        break;
                    }
                    // One descent per cluster, with the merge of its leaves'
                    // quantized k-DOPs; each leaf keeps the partners above
                    // it that overlap its own (as the self traversal's
                    // `cluster`: the same lists as a descent per leaf).
                    let (c0, c1) = (starts[k] as usize, starts[k + 1] as usize);
                    let q = QuantizedKdopQuery::merge_of(&self.leaf_q[c0..c1]);
                    let own = own_leaves(&q, self, c0, c1, &mut union, &mut tests);
                    let nc = gather::<N, false>(
                        &q,
                        self,
                        c1 as u32,
                        own,
                        &mut union,
                        &mut tests,
                        SubtreeSkip::NONE,
                    );
                    partners.resize(nc, 0);
                    let mut first = 0;
                    for la in c0..c1 {
                        while first < nc && union[first] <= la as u32 {
                            first += 1;
                        }
                        let ql = QuantizedKdopQuery::new(&self.leaf_q[la]);
                        let mut np = 0;
                        for &p in &union[first..nc] {
                            partners[np] = p;
                            np += usize::from(ql.overlaps(&self.leaf_q[p as usize]));
                        }
                        for &lb in &partners[..np] {
                            let lb = lb as usize;
                            self.edges_through_face(la, lb, &mut out, &visit);
                            self.edges_through_face(lb, la, &mut out, &visit);
                        }
                    }
                }
                out
            })
            .reduce(T::default, merge)
    }

    /// Visits the pairs of an edge owned by leaf `le` and the face of leaf
    /// `lf` (none for a leaf without one) that share no vertex and whose
    /// k-DOPs overlap.
    #[inline(always)]
    fn edges_through_face<T>(
        &self,
        le: usize,
        lf: usize,
        out: &mut T,
        visit: &impl Fn(&mut T, [u32; 2]),
    ) {
        let leaf = &self.leaves[lf];
        if leaf.face == NO_FACE {
            return;
        }
        let face_q = &self.leaf_q[lf];
        let mut face_bv: Option<Kdop<N>> = None;
        for s in self.edge_slots(le, le + 1) {
            let ends = self.slot_edge_ends[s];
            if ends.iter().any(|v| leaf.corners.contains(v)) || !self.edge_q[s].overlaps(face_q) {
                continue;
            }
            let face = face_bv.get_or_insert_with(|| self.face_kdop(leaf));
            if self.edge_kdop_overlaps(s, face) {
                visit(out, [self.slot_edge[s], leaf.face]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::bounding_volume::{swept_edge_kdops, swept_face_kdops, swept_vertex_kdops};
    use crate::broad_phase::{KdopBvh, KdopBvh6, KdopBvh26, fold_edge_face_candidates};
    use crate::math::Vec3;
    use crate::mesh::{Step, TriMesh};
    use crate::test_util::{any_edge, any_face, without_repeated_faces};
    use proptest::prelude::*;

    /// Every pair that shares no vertex and whose swept k-DOPs overlap,
    /// sorted: a test of every pair.
    fn every_pair<const N: usize>(step: &Step<'_>) -> Vec<[u32; 2]> {
        let vertex = swept_vertex_kdops::<N>(step);
        let (edge, face) = (
            swept_edge_kdops(step, &vertex),
            swept_face_kdops(step, &vertex),
        );
        let mut pairs = Vec::new();
        for (e, ends) in step.mesh.edges().iter().enumerate() {
            for (f, corners) in step.mesh.faces().iter().enumerate() {
                if !ends.iter().any(|v| corners.contains(v)) && edge[e].overlaps(&face[f]) {
                    pairs.push([e as u32, f as u32]);
                }
            }
        }
        pairs
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

        /// The tree's edge–face pairs are exactly those of a test of every
        /// pair, for 6-DOPs and 26-DOPs, in a step that moves or not, with
        /// rods and lone points; for a still step's boxes, exactly the
        /// oracle sweep's too. Meshes of up to 150 faces, so that trees
        /// have many clusters.
        #[test]
        fn pairs_are_those_of_every_pair(
            (n, faces, rods) in (8usize..90).prop_flat_map(|n| {
                let tri = any_face(n);
                let rod = any_edge(n);
                (Just(n), proptest::collection::vec(tri, 1..150), proptest::collection::vec(rod, 0..6))
            }),
            at in proptest::collection::vec((0.0..3.0f64, 0.0..3.0f64, 0.0..3.0f64), 90),
            moves in proptest::collection::vec((-0.5..0.5f64, -0.5..0.5f64, -0.5..0.5f64), 90),
            still in any::<bool>(),
        ) {
            let mesh = TriMesh::with_edges(n, without_repeated_faces(faces), &rods).unwrap();
            let x0: Vec<Vec3> = at[..n].iter().map(|&(x, y, z)| Vec3::new(x, y, z)).collect();
            let x1: Vec<Vec3> = if still {
                x0.clone()
            } else {
                x0.iter().zip(&moves).map(|(p, &(x, y, z))| p + Vec3::new(x, y, z)).collect()
            };
            let step = Step::new(&mesh, &x0, &x1).unwrap();
            let boxes = pairs_on(&KdopBvh6::build(&step), 2);
            prop_assert_eq!(&boxes, &every_pair::<3>(&step));
            prop_assert_eq!(pairs_on(&KdopBvh26::build(&step), 2), every_pair::<13>(&step));
            if still {
                let mut swept = fold_edge_face_candidates(
                    &mesh,
                    &x0,
                    |out: &mut Vec<[u32; 2]>, pair| out.push(pair),
                    |mut a, b| {
                        a.extend(b);
                        a
                    },
                );
                swept.sort_unstable();
                prop_assert_eq!(boxes, swept);
            }
        }
    }

    /// The pairs of a tree, sorted, on a pool of `threads`.
    fn pairs_on<const N: usize>(t: &KdopBvh<N>, threads: usize) -> Vec<[u32; 2]> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let mut pairs = pool.install(|| {
            t.fold_edge_face_pairs(
                |out: &mut Vec<[u32; 2]>, pair| out.push(pair),
                |mut a, b| {
                    a.extend(b);
                    a
                },
                || false,
            )
        });
        pairs.sort_unstable();
        pairs
    }

    /// A test of every pair among the components `keep` takes, on vertex
    /// k-DOPs grown by `margin`.
    fn every_kept_pair<const N: usize>(
        step: &Step<'_>,
        margin: f64,
        keep: &dyn Fn(u32) -> bool,
    ) -> Vec<[u32; 2]> {
        let mut vertex = swept_vertex_kdops::<N>(step);
        vertex.iter_mut().for_each(|bv| bv.inflate_in(margin));
        let (edge, face) = (
            swept_edge_kdops(step, &vertex),
            swept_face_kdops(step, &vertex),
        );
        let comp = step.mesh.component();
        let mut pairs = Vec::new();
        for (e, ends) in step.mesh.edges().iter().enumerate() {
            for (f, corners) in step.mesh.faces().iter().enumerate() {
                if keep(comp[ends[0] as usize])
                    && keep(comp[corners[0] as usize])
                    && !ends.iter().any(|v| corners.contains(v))
                    && edge[e].overlaps(&face[f])
                {
                    pairs.push([e as u32, f as u32]);
                }
            }
        }
        pairs
    }

    /// Trees of several tasks (more leaves than a task takes), for every
    /// k: built with a minimum separation and time-aligned pruning, built
    /// over some components, refitted from other positions, or plain. The
    /// pairs are those of a test of every pair among the covered
    /// components, on 1 and 3 threads.
    fn check_every_way_to_build<const N: usize>(step: &Step<'_>, other: &Step<'_>, way: usize) {
        let all = |_: u32| true;
        // Components are numbered by their smallest vertex: the first and
        // the last of three groups, and the lone points after them.
        let some = |c: u32| !(300..600).contains(&c);
        let (tree, margin, keep): (KdopBvh<N>, f64, &dyn Fn(u32) -> bool) = match way {
            0 => (
                KdopBvh::build_within(step, &all, true, 0.1),
                super::super::bvh::half_up(0.1),
                &all,
            ),
            1 => (KdopBvh::build_components(step, &some), 0.0, &some),
            2 => {
                let mut t = KdopBvh::build(other);
                t.refit(step).unwrap();
                (t, 0.0, &all)
            }
            _ => (KdopBvh::build(step), 0.0, &all),
        };
        assert!(tree.leaves.len() > 2 * super::super::bvh_traverse::LEAVES_PER_TASK);
        let want = every_kept_pair::<N>(step, margin, keep);
        assert!(want.len() > 1000, "{}", want.len());
        for threads in [1, 3] {
            assert_eq!(
                pairs_on(&tree, threads),
                want,
                "k = {}, way {way}, {threads} threads",
                2 * N
            );
        }
    }

    #[test]
    fn many_tasks_every_k_and_every_way_to_build() {
        let mut seed = 7u64;
        let mut unit = move || {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        // Three groups of 300 vertices, each with 250 random faces and 10
        // rods within it; 30 lone points after them.
        let (mut faces, mut rods) = (Vec::new(), Vec::new());
        for g in 0..3 {
            let mut pick = || 300 * g + (unit() * 300.0) as u32;
            while faces.len() < 250 * (g as usize + 1) {
                let f = [pick(), pick(), pick()];
                if f[0] != f[1] && f[1] != f[2] && f[0] != f[2] {
                    faces = without_repeated_faces([faces, vec![f]].concat());
                }
            }
            while rods.len() < 10 * (g as usize + 1) {
                let e = [pick(), pick()];
                if e[0] != e[1] {
                    rods.push(e);
                }
            }
        }
        let n = 930;
        let mesh = TriMesh::with_edges(n, faces, &rods).unwrap();
        let mut point = |scale: f64| Vec3::new(unit() * scale, unit() * scale, unit() * scale);
        let x0: Vec<Vec3> = (0..n).map(|_| point(4.0)).collect();
        let x1: Vec<Vec3> = x0
            .iter()
            .map(|p| p + point(0.6) - Vec3::repeat(0.3))
            .collect();
        let y: Vec<Vec3> = (0..n).map(|_| point(4.0)).collect();
        let step = Step::new(&mesh, &x0, &x1).unwrap();
        let other = Step::new(&mesh, &y, &y).unwrap();
        for way in 0..4 {
            check_every_way_to_build::<3>(&step, &other, way);
            check_every_way_to_build::<4>(&step, &other, (way + 1) % 4);
            check_every_way_to_build::<7>(&step, &other, (way + 2) % 4);
            check_every_way_to_build::<9>(&step, &other, (way + 3) % 4);
            check_every_way_to_build::<13>(&step, &other, way);
        }
    }

    #[test]
    fn a_stop_skips_the_rest() {
        // A strip of triangles folded onto itself: many pairs, none after a
        // stop that holds from the start.
        let n = 200;
        let x: Vec<Vec3> = (0..n)
            .map(|i| Vec3::new((i / 2) as f64 * 0.01, (i % 2) as f64, 0.0))
            .collect();
        let faces = (0..n as u32 - 2).map(|i| [i, i + 1, i + 2]).collect();
        let mesh = TriMesh::new(n, faces).unwrap();
        let step = Step::new(&mesh, &x, &x).unwrap();
        let bvh = KdopBvh26::build(&step);
        assert!(!pairs_on(&bvh, 1).is_empty());
        let count =
            |stop: bool| bvh.fold_edge_face_pairs(|n: &mut u64, _| *n += 1, |a, b| a + b, || stop);
        assert!(count(false) > 0);
        assert_eq!(count(true), 0);
    }
}
