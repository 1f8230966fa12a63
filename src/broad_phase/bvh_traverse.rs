//! Traversal: one BVH against itself (all pairs within the covered
//! components) or two BVHs of one mesh against each other (pairs across
//! them), down to the paper's feature level (Wan, Fu & Yao 2022, §1.1: the
//! smallest BVs enclose the triangles' vertices and edges, not the triangles).
//!
//! The descent that lists a query's partner leaves is in `bvh_descent`, the
//! feature level below a leaf pair (what is emitted) in
//! `bvh_feature_level`; the clusters and the tasks, and the scratch buffers
//! they and the feature level share, are here.
//!
//! **Which leaf pairs are reached, and why the output is exactly the
//! brute-force set.** Leaf `A` is used as a query: from the root, a child is
//! entered when its (quantized, outward-rounded) k-DOP overlaps `A`'s and its
//! subtree holds a leaf numbered above `A` (leaves below a node are
//! consecutive, so this is one comparison with the subtree's last leaf). Every
//! node's k-DOP contains everything below it, so a leaf `B > A` whose exact
//! k-DOP overlaps `A`'s is always reached, and reached from `A` only. A vertex
//! `v ∉ f` has owner `o(v) ≠ f` and `BV(v) ⊆ BV(o(v))`, so if `BV(v) ∩ BV(f) ≠ ∅`
//! the leaves `o(v)` and `f` overlap and the pair is tested exactly once, from
//! the lower-numbered of the two; two edges sharing no endpoint have different
//! owners (two edges of one triangle share a vertex), likewise. Leaf pairs
//! reached only because of the quantization emit nothing extra: every
//! emitted pair passed its exact test.
//!
//! **Clusters.** In the self traversal, the leaves of one cluster share
//! one descent: the merge of their quantized k-DOPs gathers the union of
//! their partners, and each leaf keeps those numbered above it whose
//! quantized k-DOP (the one its parent node stores) overlaps its own. A
//! descent with a leaf's own k-DOP reaches exactly those leaves (a node's
//! k-DOP contains its children's), so the partner lists, and everything
//! after, are unchanged; only the descents, which cost more than the leaf
//! tests that replace them, are shared. Any run of consecutive leaves would
//! give the same lists; the clusters are the tree's largest subtrees of at
//! most [`CLUSTER`](super::bvh::CLUSTER) leaves (`KdopBvh::clusters`, listed
//! at build), whose merges are as tight as the tree's nodes (runs of a fixed
//! length mostly straddle two subtrees, since the median split's subtrees
//! are not powers of two). A cluster's own leaves (all but its first) are
//! tested against its merge directly, and its descent lists only the
//! leaves past its last, which skips the cluster's own subtree.
//!
//! **Two descents at a time.** A descent is a chain of dependent loads: the
//! next node comes off a stack whose top depends on the last node's tests,
//! so most of a descent's time is spent waiting for its next node.
//! Consecutive clusters are therefore gathered in pairs whose descents take
//! turns, one node each ([`gather_two`]): the processor loads one chain's
//! next node while the other's waits. The partner lists and the node tests
//! are unchanged.
//!
//! **Pruning by SLPF's test** (an option, off by default:
//! [`KdopBvh::time_aligned`]). SLPF's test holds for whole leaves: if along
//! one slab direction every corner of `A` lies above every corner of `B` at
//! `t = 0` and again at `t = 1`, no feature pair of the two can touch
//! ([`crate::bounding_volume::aligned_overlap`]). With the option on, each
//! leaf's partners that pass the swept test are filtered once more, on the
//! leaves' quantized k-DOPs at the two times (all the k-DOP's slabs, not
//! only SLPF's five directions), before the feature level; and there, every
//! feature pair that passes the swept tests is also tested on its
//! features' images at the two times (a vertex's, a face's: its leaf's, an
//! edge's: the merge of its ends', in registers). Before the leaves' tests,
//! each cluster's partners are filtered once on the merge of its leaves'
//! time-aligned images (at each time): a partner apart from the merge is
//! apart from every leaf of the cluster, so the partner lists stay exactly
//! the same, and the leaves' swept tests of those partners are saved. At
//! the feature level, the pairs that pass the swept outer tests are first
//! compacted, without a branch, to those whose time-aligned images overlap,
//! and only those get the inner-image and exact tests. It is off by default
//! because the candidates are then no longer the swept k-DOPs' (the
//! paper's counts), and SLPF has almost nothing left to cull. Only the self
//! traversal prunes (the cross traversal of two trees does not).
//!
//! **Skipped groups** ([`KdopBvh::self_candidates_skipping`]; a pipeline's
//! bodies, `crate::pipeline::Bodies`). Each covered component is in a
//! group, or in none ([`NOT_SKIPPED`]); a leaf's partners in its own group
//! are dropped before the feature level, after the time-aligned test. A
//! leaf owns only features of its own component, so exactly the feature
//! pairs within one group go, and every other pair is emitted as without
//! groups, in the same order. A cluster whose leaves are all in one
//! skipped group also leaves out of its descent every subtree whose leaves
//! are all in that group (each internal node's children's groups are
//! worked out once per traversal, [`Groups`]): those would be dropped
//! anyway, so the lists do not change, and a static obstacle's descents
//! among its own nodes end at once.
//!
//! **Queries in registers.** Every k-DOP tested against many others (a
//! cluster's merge, a leaf in its cluster's partner filter, a query's
//! features in their outer tests) is a [`QuantizedKdopQuery`]: loaded once into
//! registers, not copied into a local whose stores the tests' loads then
//! straddle (a failed store-to-load forwarding per copy).
//!
//! **Why queries, not a simultaneous descent of two subtrees.** The classic
//! recursion `self(n) = self(l), self(r), pair(l, r)` spends most of its
//! time at the leaves in mispredicted branches (each leaf owns 0–3 vertices
//! and 0–3 edges), and each of its node tests loads two k-DOPs where a
//! query's tests load one against registers. Here a query first collects
//! all its partner leaves (the two children of a node are tested together
//! and pushed without branches), then tests its features against all
//! partners' features in long, predictable loops, writing candidates
//! without branches into a buffer that goes to the sink in slices.
//!
//! Other designs: docs/notes/bvh-traversal.md.
//!
//! **Order and parallelism.** Queries run in leaf order; within a query,
//! vertex–face pairs (the query's vertices against the partners' faces, then
//! the partners' vertices against its face) and edge–edge pairs come in
//! partner order. The `f64` k-DOPs of faces and edges are merged from their
//! vertices' (see `bvh`): the query's once per query, a partner's once per
//! visit. The parallel variants split the leaves into fixed chunks (the
//! self traversal: runs of whole clusters of at least [`LEAVES_PER_TASK`]
//! leaves; across two trees: runs of [`LEAVES_PER_TASK`] leaves), which do
//! not depend on the thread count, run the chunks on
//! rayon with one sink each and return the sinks in chunk order: concatenated,
//! they hold exactly the sequential output, for any thread count, and the
//! counters are the same.
//!
//! Nothing is allocated per pair: each task starts with fresh buffers, grows
//! them to its largest cluster and reuses them for the rest of its leaves.
//!
//! docs/design.md §6.

use rayon::prelude::*;

use super::bvh::{BroadPhaseError, KdopBvh, check_disjoint};
use super::bvh_descent::{Groups, PointSubtrees, SubtreeSkip, gather, gather_two, own_leaves};
use super::bvh_feature_level::features;
use super::candidate::{BroadPhaseStats, CandidateSink, EePair, VfPair};
use crate::bounding_volume::{
    AlignedQuantizedKdop, QuantizedKdopQuery, aligned_merge, aligned_overlap,
};

/// The group of a component whose leaf pairs are all traversed
/// ([`KdopBvh::self_candidates_skipping`]).
pub const NOT_SKIPPED: u32 = u32::MAX;

/// Leaves (queries) per parallel task: across two trees exactly (the last
/// task excepted), in the self traversal at least (a task takes whole
/// clusters; the last may have fewer).
pub(crate) const LEAVES_PER_TASK: usize = 256;

/// A buffer of candidates goes to the sink once it holds this many.
const FLUSH: usize = 4096;

/// Buffers of one task, reused across its queries.
pub(super) struct Scratch {
    /// Partner leaves of the current query, ascending.
    pub(super) partners: Vec<u32>,
    /// Partner leaves of the current cluster of queries, ascending.
    pub(super) cluster: Vec<u32>,
    /// Those of the next cluster (gathered together with the current).
    pub(super) cluster_next: Vec<u32>,
    /// The partners' owned vertex slots and edge slots (see
    /// `bvh_feature_level::features`).
    pub(super) vslots: Vec<u32>,
    pub(super) eslots: Vec<u32>,
    /// Feature pairs of the current query that pass the outer test (see
    /// `bvh_feature_level::features`).
    pub(super) hits: Vec<u64>,
    pub(super) vf: Vec<VfPair>,
    pub(super) vf_len: usize,
    pub(super) ee: Vec<EePair>,
    pub(super) ee_len: usize,
}

impl Scratch {
    fn new() -> Scratch {
        Scratch {
            partners: vec![0; 256],
            cluster: vec![0; 256],
            cluster_next: vec![0; 256],
            vslots: Vec::new(),
            eslots: Vec::new(),
            hits: Vec::new(),
            // The candidate buffers grow as a task needs them: a task that
            // finds few candidates (most, on sparse scenes) zeroes little.
            vf: Vec::new(),
            vf_len: 0,
            ee: Vec::new(),
            ee_len: 0,
        }
    }

    fn flush(&mut self, sink: &mut impl CandidateSink) {
        if self.vf_len > 0 {
            sink.vertex_face(&self.vf[..self.vf_len]);
            self.vf_len = 0;
        }
        if self.ee_len > 0 {
            sink.edge_edge(&self.ee[..self.ee_len]);
            self.ee_len = 0;
        }
    }

    /// Makes room for `extra` more vertex–face candidates.
    #[inline(always)]
    pub(super) fn reserve_vf(&mut self, extra: usize) {
        if self.vf.len() < self.vf_len + extra {
            self.vf.resize(self.vf_len + extra, VfPair { v: 0, f: 0 });
        }
    }

    /// Makes room for `extra` more edge–edge candidates.
    #[inline(always)]
    pub(super) fn reserve_ee(&mut self, extra: usize) {
        if self.ee.len() < self.ee_len + extra {
            self.ee.resize(self.ee_len + extra, EePair { e0: 0, e1: 0 });
        }
    }
}

impl<const N: usize> KdopBvh<N> {
    /// Every vertex–face and edge–edge candidate among the covered features
    /// (module doc), in query order, on this thread.
    pub fn self_candidates(&self, sink: &mut impl CandidateSink) -> BroadPhaseStats {
        self.self_candidates_grouped(None, sink)
    }

    /// [`KdopBvh::self_candidates`] without the pairs of features whose
    /// leaves' components are in one group of `skip` (module doc, *Skipped
    /// groups*).
    ///
    /// # Panics
    /// When `skip` has no entry for a covered component.
    pub fn self_candidates_skipping(
        &self,
        skip: &[u32],
        sink: &mut impl CandidateSink,
    ) -> BroadPhaseStats {
        self.self_candidates_grouped(Some(skip), sink)
    }

    fn self_candidates_grouped(
        &self,
        skip: Option<&[u32]>,
        sink: &mut impl CandidateSink,
    ) -> BroadPhaseStats {
        let mut stats = BroadPhaseStats::default();
        let mut scratch = Scratch::new();
        let groups = skip.map(|g| Groups::new(self, g));
        self_range(
            self,
            self.query_clusters(),
            groups.as_ref(),
            &mut scratch,
            &mut stats,
            sink,
        );
        scratch.flush(sink);
        stats
    }

    /// [`KdopBvh::self_candidates`] on rayon: one sink per task, in task
    /// order (module doc).
    pub fn self_candidates_par<S: CandidateSink + Send>(
        &self,
        make_sink: impl Fn() -> S + Sync,
    ) -> (Vec<S>, BroadPhaseStats) {
        run_par(self, self, true, None, make_sink)
    }

    /// [`KdopBvh::self_candidates_skipping`] on rayon, as
    /// [`KdopBvh::self_candidates_par`].
    ///
    /// # Panics
    /// As [`KdopBvh::self_candidates_skipping`].
    pub fn self_candidates_par_skipping<S: CandidateSink + Send>(
        &self,
        skip: &[u32],
        make_sink: impl Fn() -> S + Sync,
    ) -> (Vec<S>, BroadPhaseStats) {
        run_par(self, self, true, Some(skip), make_sink)
    }

    /// Every candidate with one feature in `self` and the other in `other`,
    /// two BVHs of the same mesh over disjoint components. Vertex–face pairs
    /// go both ways (vertices of either against faces of the other).
    pub fn cross_candidates(
        &self,
        other: &KdopBvh<N>,
        sink: &mut impl CandidateSink,
    ) -> Result<BroadPhaseStats, BroadPhaseError> {
        self.check_cross(other)?;
        let mut stats = BroadPhaseStats::default();
        let mut scratch = Scratch::new();
        let points = PointSubtrees::new(other);
        for la in 0..self.leaves.len() {
            query(self, la, other, &points, &mut scratch, &mut stats);
            if scratch.vf_len >= FLUSH || scratch.ee_len >= FLUSH {
                scratch.flush(sink);
            }
        }
        scratch.flush(sink);
        Ok(stats)
    }

    /// [`KdopBvh::cross_candidates`] on rayon: one sink per task, in task
    /// order.
    pub fn cross_candidates_par<S: CandidateSink + Send>(
        &self,
        other: &KdopBvh<N>,
        make_sink: impl Fn() -> S + Sync,
    ) -> Result<(Vec<S>, BroadPhaseStats), BroadPhaseError> {
        self.check_cross(other)?;
        Ok(run_par(self, other, false, None, make_sink))
    }

    fn check_cross(&self, other: &KdopBvh<N>) -> Result<(), BroadPhaseError> {
        if self.min_distance != other.min_distance {
            return Err(BroadPhaseError::MinDistanceMismatch(
                self.min_distance,
                other.min_distance,
            ));
        }
        for (k, what) in ["vertices", "edges", "faces"].into_iter().enumerate() {
            if self.mesh_size[k] != other.mesh_size[k] {
                return Err(BroadPhaseError::TopologyMismatch {
                    what,
                    expected: self.mesh_size[k],
                    found: other.mesh_size[k],
                });
            }
        }
        super::bvh::check_same_faces(&self.faces, &other.faces)?;
        super::bvh::check_same_codim_edges(&self.codim_edges, &other.codim_edges)?;
        check_disjoint(&self.components, &other.components)
    }
}

/// Queries every leaf of `a` against `b` (only partners numbered above the
/// query when `ordered`, i.e. for a self traversal, whose leaf pairs within
/// one group of `skip` are skipped), in fixed chunks.
fn run_par<const N: usize, S: CandidateSink + Send>(
    a: &KdopBvh<N>,
    b: &KdopBvh<N>,
    ordered: bool,
    skip: Option<&[u32]>,
    make_sink: impl Fn() -> S + Sync,
) -> (Vec<S>, BroadPhaseStats) {
    // Tasks: runs of whole clusters (`cluster_tasks`), as indices into
    // `a.clusters`; across two trees, runs of `LEAVES_PER_TASK` leaves.
    let tasks = if ordered {
        cluster_tasks(a.query_clusters())
    } else {
        let n = a.leaves.len();
        let chunks = n.div_ceil(LEAVES_PER_TASK);
        (0..=chunks).map(|c| (c * LEAVES_PER_TASK).min(n)).collect()
    };
    let groups = skip.map(|g| Groups::new(a, g));
    let groups = groups.as_ref();
    let points = (!ordered).then(|| PointSubtrees::new(b));
    let done: Vec<(S, BroadPhaseStats)> = tasks
        .par_windows(2)
        .with_max_len(1)
        .map_init(Scratch::new, |scratch, w| {
            let mut sink = make_sink();
            let mut stats = BroadPhaseStats::default();
            if sink.stopped() {
                return (sink, stats);
            }
            if ordered {
                let starts = &a.query_clusters()[w[0]..=w[1]];
                self_range(a, starts, groups, scratch, &mut stats, &mut sink);
            } else {
                let points = points.as_ref().expect("built for a cross traversal");
                for la in w[0]..w[1] {
                    query(a, la, b, points, scratch, &mut stats);
                    if scratch.vf_len >= FLUSH || scratch.ee_len >= FLUSH {
                        scratch.flush(&mut sink);
                    }
                }
            }
            scratch.flush(&mut sink);
            (sink, stats)
        })
        .collect();
    let mut stats = BroadPhaseStats::default();
    let mut sinks = Vec::with_capacity(done.len());
    for (s, st) in done {
        stats += st;
        sinks.push(s);
    }
    (sinks, stats)
}

/// The self traversal's tasks: runs of whole clusters of at least
/// [`LEAVES_PER_TASK`] leaves each (the last may have fewer), as the
/// boundaries of windows of `starts` (a tree's `clusters`).
pub(super) fn cluster_tasks(starts: &[u32]) -> Vec<usize> {
    let mut tasks = vec![0];
    for k in 1..starts.len() {
        let task_start = starts[tasks[tasks.len() - 1]] as usize;
        if starts[k] as usize >= task_start + LEAVES_PER_TASK || k + 1 == starts.len() {
            tasks.push(k);
        }
    }
    tasks
}

/// The self traversal of the clusters of `t` whose first leaves and end
/// are `starts` (a window of `t.clusters`), two clusters' descents at a
/// time ([`gather_two`]), without the leaf pairs within one group of
/// `skip`.
fn self_range<const N: usize>(
    t: &KdopBvh<N>,
    starts: &[u32],
    groups: Option<&Groups<'_>>,
    sc: &mut Scratch,
    stats: &mut BroadPhaseStats,
    sink: &mut impl CandidateSink,
) {
    match groups {
        Some(g) => self_range_with::<N, true>(t, starts, Some(g), sc, stats, sink),
        None => self_range_with::<N, false>(t, starts, None, sc, stats, sink),
    }
}

/// [`self_range`], its descents skipping the subtrees in their cluster's
/// group when `SKIP` (and `groups` is given).
fn self_range_with<const N: usize, const SKIP: bool>(
    t: &KdopBvh<N>,
    starts: &[u32],
    groups: Option<&Groups<'_>>,
    sc: &mut Scratch,
    stats: &mut BroadPhaseStats,
    sink: &mut impl CandidateSink,
) {
    let skip = groups.map(|g| g.component);
    let subtrees = |c0: usize, c1: usize| match groups {
        Some(g) if SKIP => g.subtrees(t, c0, c1),
        _ => SubtreeSkip::NONE,
    };
    let mut k = 0;
    while k + 1 < starts.len() {
        let (c0, c1) = (starts[k] as usize, starts[k + 1] as usize);
        let qa = QuantizedKdopQuery::merge_of(&t.leaf_q[c0..c1]);
        let la = own_leaves(&qa, t, c0, c1, &mut sc.cluster, &mut stats.node_tests);
        if k + 2 == starts.len() {
            let nc = gather::<N, SKIP>(
                &qa,
                t,
                c1 as u32,
                la,
                &mut sc.cluster,
                &mut stats.node_tests,
                subtrees(c0, c1),
            );
            cluster(t, c0, c1, nc, skip, sc, stats, sink);
            return;
        }
        let c2 = starts[k + 2] as usize;
        let qb = QuantizedKdopQuery::merge_of(&t.leaf_q[c1..c2]);
        let lb = own_leaves(&qb, t, c1, c2, &mut sc.cluster_next, &mut stats.node_tests);
        let [na, nb] = gather_two::<N, SKIP>(
            [&qa, &qb],
            t,
            [c1 as u32, c2 as u32],
            [la, lb],
            [&mut sc.cluster, &mut sc.cluster_next],
            &mut stats.node_tests,
            [subtrees(c0, c1), subtrees(c1, c2)],
        );
        cluster(t, c0, c1, na, skip, sc, stats, sink);
        std::mem::swap(&mut sc.cluster, &mut sc.cluster_next);
        cluster(t, c1, c2, nb, skip, sc, stats, sink);
        k += 2;
    }
}

/// One query of the cross traversal: leaf `la` of `a` against the leaves
/// of `b` (module doc), skipping `b`'s subtrees of points when `la` is a
/// point's (`points`, `b`'s).
fn query<const N: usize>(
    a: &KdopBvh<N>,
    la: usize,
    b: &KdopBvh<N>,
    points: &PointSubtrees,
    sc: &mut Scratch,
    stats: &mut BroadPhaseStats,
) {
    let leaf = &a.leaves[la];
    let q = QuantizedKdopQuery::new(&b.grid.quantize(&a.face_kdop(leaf)));
    let (tests, partners) = (&mut stats.node_tests, &mut sc.partners);
    let np = match points.skip(leaf) {
        Some(skip) => gather::<N, true>(&q, b, 0, 0, partners, tests, skip),
        None => gather::<N, false>(&q, b, 0, 0, partners, tests, SubtreeSkip::NONE),
    };
    features(a, la, b, &q, np, sc, stats);
}

/// Queries leaves `c0..c1` of `t` against `t` (partners numbered above each
/// query) as one cluster, given the `nc` leaves in `sc.cluster` that one
/// descent with the merge of their quantized k-DOPs gathered (numbered above
/// `c0`, ascending; module doc): each leaf keeps those numbered above it
/// whose quantized k-DOP overlaps its own. That is exactly the partner list
/// [`gather`] would find for the leaf alone (a node k-DOP contains its
/// children's, so a descent reaches precisely the leaves whose own
/// quantized k-DOP overlaps the query), in the same ascending order; only
/// the number of node tests differs. With time-aligned pruning, the lists
/// then lose the partners whose time-aligned images are apart from the
/// leaf's (tested first on the merge of the cluster's; module doc), and
/// the partners in the leaf's group of `skip`.
#[allow(clippy::too_many_arguments)]
fn cluster<const N: usize>(
    t: &KdopBvh<N>,
    c0: usize,
    c1: usize,
    nc: usize,
    skip: Option<&[u32]>,
    sc: &mut Scratch,
    stats: &mut BroadPhaseStats,
    sink: &mut impl CandidateSink,
) {
    let mut nc = nc;
    if t.time_aligned {
        // Drop the partners whose time-aligned k-DOPs are apart from the
        // merge of the cluster's (at each time): each leaf of the cluster
        // lies inside that merge, so the test below would drop them for
        // every leaf; the partner lists stay exactly the same.
        let m = t.leaf_qt[c0 + 1..c1]
            .iter()
            .fold(t.leaf_qt[c0], |m, q| aligned_merge(&m, q));
        let kept = retain_aligned(&mut sc.cluster[..nc], &m, &t.leaf_qt);
        stats.node_tests += nc as u64;
        stats.cluster_partners_pruned += (nc - kept) as u64;
        nc = kept;
    }
    if sc.partners.len() < nc {
        sc.partners.resize(nc, 0);
    }
    // The cluster's partners numbered at most `la` (leaves of the cluster
    // itself, ascending at the front) are no partners of `la`: each leaf
    // starts past them.
    let mut first = 0;
    for la in c0..c1 {
        while first < nc && sc.cluster[first] <= la as u32 {
            first += 1;
        }
        // In registers, and local copies of the buffers: the stores into
        // `partners` do not make the compiler reload the query or the
        // buffers' headers.
        let ql = QuantizedKdopQuery::new(&t.leaf_q[la]);
        let (cluster, partners) = (&sc.cluster[first..nc], &mut sc.partners[..nc]);
        let mut np = 0;
        for &p in cluster {
            partners[np] = p;
            np += usize::from(ql.overlaps(&t.leaf_q[p as usize]));
        }
        stats.node_tests += cluster.len() as u64;
        if t.time_aligned {
            // Drop the partners whose time-aligned k-DOPs are apart (see
            // `KdopBvh::time_aligned`).
            let kept = retain_aligned(&mut partners[..np], &t.leaf_qt[la], &t.leaf_qt);
            stats.leaf_pairs_pruned += (np - kept) as u64;
            np = kept;
        }
        if let Some(group) = skip {
            let own = group[t.leaves[la].component as usize];
            if own != NOT_SKIPPED {
                let leaves = &t.leaves;
                np = retain(&mut partners[..np], |p| {
                    group[leaves[p as usize].component as usize] != own
                });
            }
        }
        features(t, la, t, &ql, np, sc, stats);
        if sc.vf_len >= FLUSH || sc.ee_len >= FLUSH {
            sc.flush(sink);
        }
    }
}

/// Keeps, in order at the front of `leaves`, those whose time-aligned
/// images `leaf_qt` overlap `q`'s, without a branch on the test; returns
/// their number.
#[inline(always)]
fn retain_aligned<const N: usize>(
    leaves: &mut [u32],
    q: &AlignedQuantizedKdop<N>,
    leaf_qt: &[AlignedQuantizedKdop<N>],
) -> usize {
    retain(leaves, |p| aligned_overlap(q, &leaf_qt[p as usize]))
}

/// Keeps, in order at the front of `xs`, those for which `keep` holds,
/// without a branch on it; returns their number.
#[inline(always)]
pub(super) fn retain<T: Copy>(xs: &mut [T], keep: impl Fn(T) -> bool) -> usize {
    let mut kept = 0;
    for i in 0..xs.len() {
        let x = xs[i];
        xs[kept] = x;
        kept += usize::from(keep(x));
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::broad_phase::KdopBvh26;
    use crate::math::Vec3;
    use crate::mesh::{Step, TriMesh};
    use proptest::prelude::*;
    use std::sync::atomic::{AtomicBool, Ordering};

    /// Discards candidates.
    struct Discard;

    impl CandidateSink for Discard {
        fn vertex_face(&mut self, _: &[VfPair]) {}
        fn edge_edge(&mut self, _: &[EePair]) {}
    }

    fn point() -> impl Strategy<Value = Vec3> {
        (0.0..4.0f64, 0.0..4.0f64, 0.0..4.0f64).prop_map(|(x, y, z)| Vec3::new(x, y, z))
    }

    fn motion() -> impl Strategy<Value = Vec3> {
        (-1.5..1.5f64, -1.5..1.5f64, -1.5..1.5f64).prop_map(|(x, y, z)| Vec3::new(x, y, z))
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

        /// The self traversal reaches exactly the leaf pairs whose
        /// quantized k-DOPs overlap (brute force over all pairs of
        /// leaves), and with time-aligned pruning exactly those whose
        /// time-aligned k-DOPs overlap too: the clusters' pruning drops no
        /// pair the leaves' own test would keep.
        #[test]
        fn leaf_pairs_are_the_brute_force_ones(
            corners in proptest::collection::vec((point(), motion()), 3..180),
        ) {
            let n = corners.len() / 3 * 3;
            let x0: Vec<Vec3> = corners[..n].iter().map(|c| c.0).collect();
            let x1: Vec<Vec3> = corners[..n].iter().map(|c| c.0 + c.1).collect();
            let faces = (0..n as u32 / 3).map(|i| [3 * i, 3 * i + 1, 3 * i + 2]).collect();
            let mesh = TriMesh::new(n, faces).unwrap();
            let step = Step::new(&mesh, &x0, &x1).unwrap();
            for time_aligned in [false, true] {
                let t = KdopBvh26::build_time_aligned(&step, &|_| true, time_aligned);
                let stats = t.self_candidates(&mut Discard);
                let (mut swept, mut kept) = (0, 0);
                for i in 0..t.leaves.len() {
                    for j in i + 1..t.leaves.len() {
                        if t.leaf_q[i].overlaps(&t.leaf_q[j]) {
                            swept += 1;
                            kept += u64::from(
                                !time_aligned || aligned_overlap(&t.leaf_qt[i], &t.leaf_qt[j]),
                            );
                        }
                    }
                }
                prop_assert_eq!(stats.leaf_pairs, kept, "time-aligned {}", time_aligned);
                prop_assert!(stats.leaf_pairs + stats.leaf_pairs_pruned <= swept);
                if !time_aligned {
                    prop_assert_eq!(stats.leaf_pairs_pruned + stats.cluster_partners_pruned, 0);
                }
            }
        }
    }

    /// Counts candidates; stops (all sinks, through `stop`) at its first
    /// batch when `stop` is given.
    struct StopAtFirst<'a> {
        stop: Option<&'a AtomicBool>,
        pairs: u64,
    }

    impl StopAtFirst<'_> {
        fn take(&mut self, n: usize) {
            self.pairs += n as u64;
            if let Some(stop) = self.stop {
                stop.store(true, Ordering::Relaxed);
            }
        }
    }

    impl CandidateSink for StopAtFirst<'_> {
        fn vertex_face(&mut self, pairs: &[VfPair]) {
            self.take(pairs.len());
        }
        fn edge_edge(&mut self, pairs: &[EePair]) {
            self.take(pairs.len());
        }
        fn stopped(&self) -> bool {
            self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
        }
    }

    /// A sink that says it has stopped makes the parallel traversal skip the
    /// tasks not begun: on one thread, only the tasks before the first batch
    /// and the task that sent it run.
    #[test]
    fn tasks_after_a_sink_stopped_are_skipped() {
        // A flat 40 × 40 grid shrinking to half its size, each vertex
        // sweeping over its neighbours' faces: 3,042 faces, a dozen tasks,
        // every one with candidates.
        let n = 40u32;
        let x: Vec<Vec3> = (0..n * n)
            .map(|i| Vec3::new(f64::from(i % n), f64::from(i / n), 0.0))
            .collect();
        let mut faces = Vec::new();
        for j in 0..n - 1 {
            for i in 0..n - 1 {
                let v = j * n + i;
                faces.push([v, v + 1, v + n + 1]);
                faces.push([v, v + n + 1, v + n]);
            }
        }
        let mesh = TriMesh::new(x.len(), faces).unwrap();
        let x1: Vec<Vec3> = x.iter().map(|p| p * 0.5).collect();
        let step = Step::new(&mesh, &x, &x1).unwrap();
        let t = KdopBvh26::build(&step);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let count = |stop| {
            let (sinks, stats) =
                pool.install(|| t.self_candidates_par(|| StopAtFirst { stop, pairs: 0 }));
            let pairs: u64 = sinks.iter().map(|s| s.pairs).sum();
            (pairs, stats.leaf_pairs, sinks.len())
        };
        let (all, all_leaf_pairs, tasks) = count(None);
        assert!(tasks > 4, "{tasks} tasks");
        let stop = AtomicBool::new(false);
        let (some, some_leaf_pairs, _) = count(Some(&stop));
        assert!(stop.load(Ordering::Relaxed));
        assert!(0 < some && some < all, "{some} of {all} candidates");
        assert!(some_leaf_pairs < all_leaf_pairs);
    }
}
