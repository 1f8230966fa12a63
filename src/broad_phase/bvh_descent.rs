//! The descent that lists a query's partner leaves: from the root of a BVH,
//! the leaves whose (quantized) k-DOPs overlap a query's, numbered at or
//! above a bound, in ascending order, one node test per child and no branch
//! on the tests; two descents at a time ([`gather_two`]), the leaves of a
//! query's own cluster ([`own_leaves`]), and the subtrees a traversal skips
//! by body group ([`Groups`], [`SubtreeSkip`]). The traversal
//! (`bvh_traverse`) and the edge–face pairs (`bvh_edge_face`) descend with
//! it; their module docs state what the descent must list, and why.
//!
//! docs/design.md §6.

use super::bvh::{KdopBvh, LEAF, Leaf, MAX_DEPTH};
use super::bvh_traverse::NOT_SKIPPED;
use crate::bounding_volume::QuantizedKdopQuery;

/// The group of a cluster whose leaves are not all in one skipped group:
/// no subtree has it, so its descent skips none.
const NO_QUERY_GROUP: u32 = u32::MAX - 1;

/// The skipped groups of one traversal (`bvh_traverse`'s module doc,
/// *Skipped groups*).
pub(super) struct Groups<'a> {
    /// Each component's group, or [`NOT_SKIPPED`].
    pub(super) component: &'a [u32],
    /// Each internal node's children's group: the one skipped group every
    /// leaf below is in, or [`NOT_SKIPPED`].
    node: Vec<[u32; 2]>,
}

impl<'a> Groups<'a> {
    /// The groups of `t`'s subtrees, from the components' (children come
    /// after their parent in `t.inner`, so one pass from the end meets
    /// every child before its parent).
    pub(super) fn new<const N: usize>(t: &KdopBvh<N>, component: &'a [u32]) -> Groups<'a> {
        let node = node_labels(t, |leaf| component[leaf.component as usize]);
        Groups { component, node }
    }

    /// The group of leaves `c0..c1`: the skipped group they are all in, or
    /// [`NO_QUERY_GROUP`].
    fn of_leaves<const N: usize>(&self, t: &KdopBvh<N>, c0: usize, c1: usize) -> u32 {
        let group = |l: usize| self.component[t.leaves[l].component as usize];
        let g = group(c0);
        if g != NOT_SKIPPED && (c0 + 1..c1).all(|l| group(l) == g) {
            g
        } else {
            NO_QUERY_GROUP
        }
    }

    /// What the descent of the cluster of leaves `c0..c1` skips: the
    /// subtrees all in the cluster's group.
    pub(super) fn subtrees<const N: usize>(
        &self,
        t: &KdopBvh<N>,
        c0: usize,
        c1: usize,
    ) -> SubtreeSkip<'_> {
        SubtreeSkip {
            node: &self.node,
            query: self.of_leaves(t, c0, c1),
        }
    }
}

/// Each internal node's children's label: the one label `of_leaf` gives
/// every leaf below, or [`NOT_SKIPPED`] (children come after their parent
/// in `t.inner`, so one pass from the end meets every child before its
/// parent).
fn node_labels<const N: usize>(t: &KdopBvh<N>, of_leaf: impl Fn(&Leaf) -> u32) -> Vec<[u32; 2]> {
    let mut node = vec![[NOT_SKIPPED; 2]; t.inner.len()];
    for i in (0..t.inner.len()).rev() {
        for k in 0..2 {
            let c = t.inner[i].child[k];
            node[i][k] = if c & LEAF != 0 {
                of_leaf(&t.leaves[(c & !LEAF) as usize])
            } else {
                let [a, b] = node[c as usize];
                if a == b { a } else { NOT_SKIPPED }
            };
        }
    }
    node
}

/// The label of a codimensional point's leaf in [`PointSubtrees`].
const POINT: u32 = 0;

/// The subtrees of a tree that hold codimensional points' leaves only,
/// which a descent from a point's leaf skips: a pair of points' leaves
/// gives no candidate (the cross traversal; the self traversal queries
/// no point's leaf at all, `KdopBvh::query_clusters`).
pub(super) struct PointSubtrees {
    /// As [`Groups`]' nodes, with [`POINT`] for a subtree of points; none
    /// when the tree has no point.
    node: Option<Vec<[u32; 2]>>,
}

impl PointSubtrees {
    pub(super) fn new<const N: usize>(t: &KdopBvh<N>) -> PointSubtrees {
        let any = t.leaves.last().is_some_and(|l| l.is_point());
        PointSubtrees {
            node: any.then(|| node_labels(t, |l| if l.is_point() { POINT } else { NOT_SKIPPED })),
        }
    }

    /// What the descent of a query from `leaf` skips: the subtrees of
    /// points when it is a point's and the tree has some, else nothing
    /// (`None`: a descent that skips nothing).
    pub(super) fn skip(&self, leaf: &Leaf) -> Option<SubtreeSkip<'_>> {
        match &self.node {
            Some(node) if leaf.is_point() => Some(SubtreeSkip { node, query: POINT }),
            _ => None,
        }
    }
}

/// What a descent skips: the subtrees whose leaves are all in `query`, the
/// group of the query's leaves ([`Groups`]); nothing when the descent's
/// `SKIP` parameter is off.
#[derive(Clone, Copy)]
pub(super) struct SubtreeSkip<'a> {
    node: &'a [[u32; 2]],
    query: u32,
}

impl SubtreeSkip<'_> {
    /// Skips nothing.
    pub(super) const NONE: SubtreeSkip<'static> = SubtreeSkip {
        node: &[],
        query: NO_QUERY_GROUP,
    };
}

/// Traversal stack size: a node visit pops one entry and pushes at most two,
/// so the stack never holds more than one entry per internal node on the
/// current path plus one, at most [`MAX_DEPTH`] + 1 (checked by
/// [`KdopBvh::validate`]).
const STACK: usize = 2 * MAX_DEPTH;

/// Lists at the front of `out` the leaves `c0 + 1..c1` of the cluster
/// `c0..c1` whose k-DOPs overlap `q`, the merge of the cluster's (all of
/// them, unless a leaf's k-DOP is empty), as [`gather`] would list them;
/// returns their number. Counts the tests. The cluster's descent then
/// starts at `c1` and skips the cluster's own subtree.
#[inline(always)]
pub(super) fn own_leaves<const N: usize>(
    q: &QuantizedKdopQuery<N>,
    t: &KdopBvh<N>,
    c0: usize,
    c1: usize,
    out: &mut Vec<u32>,
    tests: &mut u64,
) -> usize {
    if out.len() < c1 - c0 {
        out.resize(c1 - c0, 0);
    }
    let mut n = 0;
    for l in c0 + 1..c1 {
        out[n] = l as u32;
        n += usize::from(q.overlaps(&t.leaf_q[l]));
    }
    *tests += (c1 - c0 - 1) as u64;
    n
}

/// Collects into `out`, after the `listed` entries at its front, the leaves
/// of `t` numbered `bound` or above whose node k-DOPs overlap `q` (quantized
/// on `t`'s grid), in ascending order; returns the length of the list.
/// Counts the node tests.
///
/// A leaf child is listed when its parent is visited, an internal child's
/// leaves later, so the order is ascending only because no node has a leaf
/// right of an internal node (the median split's shape, checked by
/// [`KdopBvh::validate`]). `cluster` relies on it: in a tree of another
/// shape it would list some leaf pairs twice (docs/notes/bvh-build.md).
#[inline(always)]
pub(super) fn gather<const N: usize, const SKIP: bool>(
    q: &QuantizedKdopQuery<N>,
    t: &KdopBvh<N>,
    bound: u32,
    listed: usize,
    out: &mut Vec<u32>,
    tests: &mut u64,
    skip: SubtreeSkip<'_>,
) -> usize {
    if t.inner.is_empty() {
        // Zero or one leaf.
        if t.leaves.len() == 1 && bound == 0 {
            *tests += 1;
            if q.overlaps(&t.root_bv) {
                out.resize(out.len().max(listed + 1), 0);
                out[listed] = 0;
                return listed + 1;
            }
        }
        return listed;
    }
    let mut d = Descent::from_root(listed);
    while d.top > 0 {
        d.visit::<N, SKIP>(q, t, bound, out, skip);
    }
    *tests += d.tests;
    d.n_out
}

/// [`gather`] for two queries at once, each with its own bound and output:
/// their descents take turns, one node each, so that the processor overlaps
/// their latencies (`bvh_traverse`'s module doc: "Two descents at a
/// time"). Each output is
/// exactly [`gather`]'s for its query, and so is the count of node tests.
#[inline(always)]
pub(super) fn gather_two<const N: usize, const SKIP: bool>(
    q: [&QuantizedKdopQuery<N>; 2],
    t: &KdopBvh<N>,
    bound: [u32; 2],
    listed: [usize; 2],
    [out_a, out_b]: [&mut Vec<u32>; 2],
    tests: &mut u64,
    [skip_a, skip_b]: [SubtreeSkip<'_>; 2],
) -> [usize; 2] {
    if t.inner.is_empty() {
        return [
            gather::<N, SKIP>(q[0], t, bound[0], listed[0], out_a, tests, skip_a),
            gather::<N, SKIP>(q[1], t, bound[1], listed[1], out_b, tests, skip_b),
        ];
    }
    let (mut a, mut b) = (Descent::from_root(listed[0]), Descent::from_root(listed[1]));
    while a.top > 0 && b.top > 0 {
        a.visit::<N, SKIP>(q[0], t, bound[0], out_a, skip_a);
        b.visit::<N, SKIP>(q[1], t, bound[1], out_b, skip_b);
    }
    while a.top > 0 {
        a.visit::<N, SKIP>(q[0], t, bound[0], out_a, skip_a);
    }
    while b.top > 0 {
        b.visit::<N, SKIP>(q[1], t, bound[1], out_b, skip_b);
    }
    *tests += a.tests + b.tests;
    [a.n_out, b.n_out]
}

/// A depth-first descent in progress ([`gather`]): the nodes still to
/// visit, the leaves listed so far and the node tests made.
struct Descent {
    stack: [u32; STACK],
    top: usize,
    n_out: usize,
    tests: u64,
}

impl Descent {
    /// A descent about to visit the root (`inner[0]`), with `listed`
    /// leaves already in its output.
    #[inline(always)]
    fn from_root(listed: usize) -> Descent {
        Descent {
            stack: [0; STACK],
            top: 1,
            n_out: listed,
            tests: 0,
        }
    }

    /// Visits the node on top of the stack (there is one): lists its leaf
    /// children numbered `bound` or above that overlap `q` in `out`, and
    /// pushes its internal ones that do, without a branch on the tests;
    /// with `SKIP`, not the children whose leaves are all in `skip`'s
    /// query group.
    #[inline(always)]
    fn visit<const N: usize, const SKIP: bool>(
        &mut self,
        q: &QuantizedKdopQuery<N>,
        t: &KdopBvh<N>,
        bound: u32,
        out: &mut Vec<u32>,
        skip: SubtreeSkip<'_>,
    ) {
        self.top -= 1;
        let i = self.stack[self.top] as usize;
        let n = &t.inner[i];
        if out.len() < self.n_out + 2 {
            out.resize(2 * out.len() + 2, 0);
        }
        let (mut in0, mut in1) = (n.last[0] >= bound, n.last[1] >= bound);
        if SKIP {
            let [g0, g1] = skip.node[i];
            in0 &= g0 != skip.query;
            in1 &= g1 != skip.query;
        }
        self.tests += u64::from(in0) + u64::from(in1);
        let h0 = in0 & q.overlaps(&n.bv[0]);
        let h1 = in1 & q.overlaps(&n.bv[1]);
        let [c0, c1] = n.child;
        let (leaf0, leaf1) = (c0 & LEAF != 0, c1 & LEAF != 0);
        // Right first, so that the left child is visited first (leaves come
        // out in ascending order).
        self.stack[self.top] = c1;
        self.top += usize::from(h1 & !leaf1);
        self.stack[self.top] = c0;
        self.top += usize::from(h0 & !leaf0);
        out[self.n_out] = c0 & !LEAF;
        self.n_out += usize::from(h0 & leaf0);
        out[self.n_out] = c1 & !LEAF;
        self.n_out += usize::from(h1 & leaf1);
    }
}
