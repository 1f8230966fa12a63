//! Traversal of the bounding-volume test tree (BVTT): one BVH against itself
//! (all pairs within the covered components) or two BVHs of one mesh against
//! each other (pairs across them), down to the paper's feature level (Wan, Fu
//! & Yao 2022, §1.1: "the BVs enclose the triangles' vertices and edges, not
//! the triangles themselves").
//!
//! **What is emitted.** For every pair of distinct leaves whose k-DOPs overlap
//! (closed), with `A`, `B` their owned features and `f_A`, `f_B` their faces:
//! `(v, f_B)` for `v ∈ A` when `BV(v) ∩ BV(f_B) ≠ ∅` and `v` is not a corner of
//! `f_B`; symmetrically for `B`; and `(e, e')`, `e ∈ A`, `e' ∈ B`, when their
//! k-DOPs overlap and they share no endpoint. Completeness and uniqueness:
//! a vertex `v ∉ f` has owner `o(v) ≠ f`, `BV(v) ⊆ BV(o(v))`, and every node's
//! k-DOP contains its children's, so the leaf pair `{o(v), f}` is reached
//! exactly once when `BV(v) ∩ BV(f) ≠ ∅`; two edges sharing no endpoint have
//! different owners (two edges of one triangle share a vertex), likewise.
//! So the output equals the brute-force set of `brute_force` exactly.
//!
//! **Order and parallelism.** The sequential traversal is a depth-first
//! recursion: `self(n) = self(left), self(right), pair(left, right)`;
//! `pair(x, y)` tests the two k-DOPs and, if they overlap, descends into the
//! node with more leaves (`x` on ties), left child first. The parallel variant
//! unfolds the same recursion breadth-first into at least [`PAR_TASKS`] tasks
//! (a number fixed in advance, not taken from the thread pool), keeping their
//! order, runs the tasks on rayon with one sink each, and returns the sinks in
//! task order. Concatenated, they hold exactly the sequential output, in the
//! same order, for any thread count; the counters are the same too.
//!
//! Nothing is allocated per pair; each task owns one small stack.

use rayon::prelude::*;

use super::bvh::{BroadPhaseError, KdopBvh, Leaf, NO_FACE, check_disjoint};
use super::candidate::{BroadPhaseStats, CandidateSink, EePair, VfPair};

/// The parallel traversals split the BVTT into at least this many tasks (or
/// all there are), independent of the thread count.
pub const PAR_TASKS: usize = 1024;

/// A unit of BVTT work: all pairs below one node, or below a pair of nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Task {
    /// All pairs of leaves below this node (self traversal only).
    Within(u32),
    /// All pairs `(leaf below x in A, leaf below y in B)`.
    Pair(u32, u32),
}

impl<const N: usize> KdopBvh<N> {
    /// Every vertex–face and edge–edge candidate among the covered features
    /// (module doc), pushed to `sink` in traversal order on this thread.
    pub fn self_candidates(&self, sink: &mut impl CandidateSink) -> BroadPhaseStats {
        let mut stats = BroadPhaseStats::default();
        if !self.nodes.is_empty() {
            run(self, self, Task::Within(0), sink, &mut stats);
        }
        stats
    }

    /// [`KdopBvh::self_candidates`] on rayon: one sink per task, in task
    /// order (module doc).
    pub fn self_candidates_par<S: CandidateSink + Send>(
        &self,
        make_sink: impl Fn() -> S + Sync,
    ) -> (Vec<S>, BroadPhaseStats) {
        if self.nodes.is_empty() {
            return (Vec::new(), BroadPhaseStats::default());
        }
        run_par(self, self, Task::Within(0), make_sink)
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
        if !self.nodes.is_empty() && !other.nodes.is_empty() {
            run(self, other, Task::Pair(0, 0), sink, &mut stats);
        }
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
        if self.nodes.is_empty() || other.nodes.is_empty() {
            return Ok((Vec::new(), BroadPhaseStats::default()));
        }
        Ok(run_par(self, other, Task::Pair(0, 0), make_sink))
    }

    fn check_cross(&self, other: &KdopBvh<N>) -> Result<(), BroadPhaseError> {
        for (k, what) in ["vertices", "edges", "faces"].into_iter().enumerate() {
            if self.mesh_size[k] != other.mesh_size[k] {
                return Err(BroadPhaseError::TopologyMismatch {
                    what,
                    expected: self.mesh_size[k],
                    found: other.mesh_size[k],
                });
            }
        }
        check_disjoint(&self.components, &other.components)
    }
}

fn run_par<const N: usize, S: CandidateSink + Send>(
    a: &KdopBvh<N>,
    b: &KdopBvh<N>,
    root: Task,
    make_sink: impl Fn() -> S + Sync,
) -> (Vec<S>, BroadPhaseStats) {
    let mut stats = BroadPhaseStats::default();
    let tasks = unfold(a, b, root, &mut stats);
    let done: Vec<(S, BroadPhaseStats)> = tasks
        .par_iter()
        .with_max_len(1)
        .map(|&t| {
            let mut sink = make_sink();
            let mut st = BroadPhaseStats::default();
            run(a, b, t, &mut sink, &mut st);
            (sink, st)
        })
        .collect();
    let mut sinks = Vec::with_capacity(done.len());
    for (s, st) in done {
        stats += st;
        sinks.push(s);
    }
    (sinks, stats)
}

/// Unfolds the recursion from `root` breadth-first, in order, until there are
/// [`PAR_TASKS`] tasks or nothing left to unfold. The node tests done here are
/// the ones the sequential run does for the same tasks.
fn unfold<const N: usize>(
    a: &KdopBvh<N>,
    b: &KdopBvh<N>,
    root: Task,
    stats: &mut BroadPhaseStats,
) -> Vec<Task> {
    let mut tasks = vec![root];
    loop {
        if tasks.len() >= PAR_TASKS {
            return tasks;
        }
        let mut next = Vec::with_capacity(3 * tasks.len());
        let mut changed = false;
        for t in tasks {
            match t {
                Task::Within(n) => {
                    changed = true;
                    let node = a.nodes[n as usize];
                    if !node.is_leaf() {
                        next.push(Task::Within(n + 1));
                        next.push(Task::Within(node.child));
                        next.push(Task::Pair(n + 1, node.child));
                    }
                }
                Task::Pair(x, y) => {
                    let (nx, ny) = (a.nodes[x as usize], b.nodes[y as usize]);
                    if nx.is_leaf() && ny.is_leaf() {
                        next.push(t);
                        continue;
                    }
                    changed = true;
                    stats.node_tests += 1;
                    if a.node_bv[x as usize].overlaps(&b.node_bv[y as usize]) {
                        if split_x(nx, ny) {
                            next.push(Task::Pair(x + 1, y));
                            next.push(Task::Pair(nx.child, y));
                        } else {
                            next.push(Task::Pair(x, y + 1));
                            next.push(Task::Pair(x, ny.child));
                        }
                    }
                }
            }
        }
        tasks = next;
        if !changed {
            return tasks;
        }
    }
}

/// Whether `pair(x, y)` descends into `x` (else into `y`).
#[inline(always)]
fn split_x(nx: super::bvh::Node, ny: super::bvh::Node) -> bool {
    ny.is_leaf() || (!nx.is_leaf() && nx.count >= ny.count)
}

/// Bound on the traversal stack: `Within` pushes 3 and `Pair` 2 entries per
/// level, and a median-split tree has depth at most 33 (< 2³¹ leaves), so 256
/// entries never overflow.
const STACK: usize = 256;

/// Runs one task depth-first with an explicit, fixed-size stack.
fn run<const N: usize, S: CandidateSink>(
    a: &KdopBvh<N>,
    b: &KdopBvh<N>,
    task: Task,
    sink: &mut S,
    stats_out: &mut BroadPhaseStats,
) {
    let mut stats = BroadPhaseStats::default();
    let mut stack = [Task::Within(0); STACK];
    stack[0] = task;
    let mut top = 1;
    while top > 0 {
        top -= 1;
        match stack[top] {
            Task::Within(n) => {
                let node = a.nodes[n as usize];
                if !node.is_leaf() {
                    // Popped in the order Within(left), Within(right), Pair.
                    stack[top] = Task::Pair(n + 1, node.child);
                    stack[top + 1] = Task::Within(node.child);
                    stack[top + 2] = Task::Within(n + 1);
                    top += 3;
                }
            }
            Task::Pair(x, y) => {
                stats.node_tests += 1;
                if !a.node_bv[x as usize].overlaps(&b.node_bv[y as usize]) {
                    continue;
                }
                let (nx, ny) = (a.nodes[x as usize], b.nodes[y as usize]);
                if nx.is_leaf() && ny.is_leaf() {
                    leaf_pair(a, x as usize, nx.leaf(), b, y as usize, ny.leaf(), sink, &mut stats);
                } else if split_x(nx, ny) {
                    stack[top] = Task::Pair(nx.child, y);
                    stack[top + 1] = Task::Pair(x + 1, y);
                    top += 2;
                } else {
                    stack[top] = Task::Pair(x, ny.child);
                    stack[top + 1] = Task::Pair(x, y + 1);
                    top += 2;
                }
            }
        }
    }
    *stats_out += stats;
}

/// The feature level below two overlapping leaves `la` (node `na` of `a`) and
/// `lb` (node `nb` of `b`).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn leaf_pair<const N: usize, S: CandidateSink>(
    a: &KdopBvh<N>,
    na: usize,
    la: usize,
    b: &KdopBvh<N>,
    nb: usize,
    lb: usize,
    sink: &mut S,
    stats: &mut BroadPhaseStats,
) {
    stats.leaf_pairs += 1;
    let (la, lb) = (&a.leaves[la], &b.leaves[lb]);
    let same = u64::from(la.component == lb.component);
    vertices_face(a, la, b, nb, lb, same, sink, stats);
    vertices_face(b, lb, a, na, la, same, sink, stats);
    let (nea, neb) = (la.num_edges(), lb.num_edges());
    stats.feature_tests += (nea * neb) as u64;
    if neb == 0 {
        return;
    }
    let ea = &a.edge_bv[la.edge_start as usize..][..nea];
    let eb = &b.edge_bv[lb.edge_start as usize..][..neb];
    let mut i = 0;
    for k in 0..3 {
        if la.owned & (8 << k) == 0 {
            continue;
        }
        let bv = &ea[i];
        i += 1;
        let (p, q) = (la.corners[k], la.corners[(k + 1) % 3]);
        let mut j = 0;
        for m in 0..3 {
            if lb.owned & (8 << m) == 0 {
                continue;
            }
            let hit = bv.overlaps(&eb[j]);
            j += 1;
            if hit {
                let (r, s) = (lb.corners[m], lb.corners[(m + 1) % 3]);
                if p != r && p != s && q != r && q != s {
                    sink.edge_edge(EePair::new(la.edges[k], lb.edges[m]));
                    stats.ee_candidates += 1;
                    stats.ee_same_component += same;
                }
            }
        }
    }
}

/// The vertices owned by leaf `la` of `a` against the face of leaf `lb`
/// (node `nb`) of `b`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn vertices_face<const N: usize, S: CandidateSink>(
    a: &KdopBvh<N>,
    la: &Leaf,
    b: &KdopBvh<N>,
    nb: usize,
    lb: &Leaf,
    same: u64,
    sink: &mut S,
    stats: &mut BroadPhaseStats,
) {
    let f = lb.face;
    if f == NO_FACE {
        return;
    }
    let face_bv = &b.node_bv[nb];
    let c = lb.corners;
    let nv = la.num_vertices();
    stats.feature_tests += nv as u64;
    let vs = &a.vertex_bv[la.vertex_start as usize..][..nv];
    let mut i = 0;
    for k in 0..3 {
        if la.owned & (1 << k) == 0 {
            continue;
        }
        let hit = vs[i].overlaps(face_bv);
        i += 1;
        if hit {
            let v = la.corners[k];
            if v != c[0] && v != c[1] && v != c[2] {
                sink.vertex_face(VfPair { v, f });
                stats.vf_candidates += 1;
                stats.vf_same_component += same;
            }
        }
    }
}
