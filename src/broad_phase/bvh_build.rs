//! Top-down BVH build over the swept triangles (Wan, Fu & Yao 2022, §1.1 and
//! Fig. 2: a binary BVH whose leaves are triangles), followed by the feature
//! level below the leaves (see `bvh`).
//!
//! **Split rule.** Each node splits its leaves at the median of their centroids
//! (mean of the six points `x_t0`, `x_t1` of the corners, taken as a sum) along
//! the axis of largest centroid spread, ties broken by item index (compared
//! as one integer key per item and axis, exact to about 2⁻²⁹ of the
//! coordinate; see `sort_key`; the spreads are read from the same keys). The
//! spread of a node of `n ≥ 32` items is that of a sample, every
//! `min(⌊n/16⌋, 16)`-th item: the axis hardly ever changes, and a spread
//! pass over every item costs almost half as much as the median
//! selections. The items are permuted as contiguous key records, not
//! through an index array (one cache line holds two of them). The paper
//! does not say how it splits. A median split gives a balanced tree of
//! depth ⌈log₂ n⌉ + 1, which bounds the traversal stack and makes parallel
//! subtrees even, and it puts the larger half right, so that a leaf right
//! child always has a leaf sibling: the traversal lists partner leaves in
//! ascending order only in trees of that shape ([`KdopBvh::validate`]
//! checks it). Other split rules (Morton order, binned SAH) build trees of
//! other shapes.
//!
//! Other split rules and selections: docs/notes/bvh-build.md.
//!
//! **Parallelism.** Subtrees above [`PAR_BUILD_CUTOFF`] leaves are built with
//! `rayon::join`; each writes its own disjoint node range (a subtree of `n`
//! leaves occupies `2n − 1` consecutive nodes), so the result does not depend
//! on the thread count. The leaves' records and the feature slots are then
//! assigned in fixed chunks of leaves, each writing its own ranges (see
//! `assign_slots`), so that this assignment, a large share of the build
//! when sequential, runs in parallel too.
//!
//! docs/design.md §6.

use std::sync::atomic::{AtomicU32, Ordering};

use rayon::prelude::*;

use super::bvh::{CLUSTER, Inner, KdopBvh, LEAF, Leaf, NO_FACE, owned_counts};
use super::bvh_refit::{PAR_REFIT_MIN_LEN, par_fill};
use crate::bounding_volume::{Kdop, QuantizedKdop, Quantizer};
use crate::mesh::{Step, TriMesh};

/// Subtrees with more leaves than this are built in parallel.
pub(crate) const PAR_BUILD_CUTOFF: usize = 8192;
// The integration test of the parallel build sizes its mesh by this bound.
const _: () = assert!(PAR_BUILD_CUTOFF <= 8192);

/// The largest step between the items whose centroids give a node's spread
/// (module doc, *Split rule*).
const SPREAD_STRIDE: usize = 16;

/// An item to place in a leaf: a face, an edge in no face, or a vertex in
/// no face and no edge.
#[derive(Debug, Clone, Copy)]
enum Item {
    Face(u32),
    /// A codimensional edge, by its index in the mesh's edges.
    Edge(u32),
    Vertex(u32),
}

impl<const N: usize> KdopBvh<N> {
    /// Builds the BVH of every face of `step` (and codimensional edge and
    /// point: [`TriMesh::codim_edges`], [`TriMesh::codim_vertices`]).
    pub fn build(step: &Step<'_>) -> KdopBvh<N> {
        KdopBvh::build_components(step, &|_| true)
    }

    /// Builds the BVH of the connected components `c` with `keep(c)`.
    ///
    /// # Panics
    /// When the covered part has 2³¹ leaves or more (faces plus
    /// codimensional edges and points), beyond the node encoding.
    pub fn build_components(step: &Step<'_>, keep: &(impl Fn(u32) -> bool + Sync)) -> KdopBvh<N> {
        KdopBvh::build_time_aligned(step, keep, false)
    }

    /// [`KdopBvh::build_components`], with the self traversal's pruning by
    /// time-aligned k-DOPs on or off (see
    /// [`KdopBvh::time_aligned`]; rebuilds and refits keep the setting).
    ///
    /// # Panics
    /// As [`KdopBvh::build_components`].
    pub fn build_time_aligned(
        step: &Step<'_>,
        keep: &(impl Fn(u32) -> bool + Sync),
        time_aligned: bool,
    ) -> KdopBvh<N> {
        KdopBvh::build_within(step, keep, time_aligned, 0.0)
    }

    /// [`KdopBvh::build_time_aligned`] for a minimum separation
    /// `min_distance` ([`KdopBvh::min_distance`]).
    ///
    /// # Panics
    /// As [`KdopBvh::build_components`]; and when `min_distance` is
    /// negative or not finite.
    pub fn build_within(
        step: &Step<'_>,
        keep: &(impl Fn(u32) -> bool + Sync),
        time_aligned: bool,
        min_distance: f64,
    ) -> KdopBvh<N> {
        assert!(
            min_distance.is_finite() && min_distance >= 0.0,
            "min_distance {min_distance} is not a finite distance"
        );
        let mut bvh = KdopBvh::empty();
        bvh.time_aligned = time_aligned;
        bvh.min_distance = min_distance;
        bvh.rebuild_components(step, keep);
        bvh
    }

    /// Builds a new tree of every face (and codimensional edge and point) of `step`, a
    /// step of any mesh, in place of this one, reusing its arrays.
    pub fn rebuild(&mut self, step: &Step<'_>) {
        self.rebuild_components(step, &|_| true);
    }

    /// [`KdopBvh::build_components`] in place of this tree, reusing its
    /// arrays: the result equals a fresh build's, and the arrays' memory,
    /// already mapped, is written over instead of being returned to the
    /// system and faulted in anew (page faults, measured in
    /// docs/notes/bvh-build.md).
    ///
    /// # Panics
    /// As [`KdopBvh::build_components`].
    pub fn rebuild_components(&mut self, step: &Step<'_>, keep: &(impl Fn(u32) -> bool + Sync)) {
        let mesh = step.mesh;
        let comp = mesh.component();
        let covered: Vec<bool> = (0..mesh.num_components() as u32).map(keep).collect();
        let components: Vec<u32> = (0..mesh.num_components() as u32)
            .filter(|&c| covered[c as usize])
            .collect();

        let mut items: Vec<Item> = Vec::with_capacity(mesh.num_faces());
        for (f, t) in mesh.faces().iter().enumerate() {
            if covered[comp[t[0] as usize] as usize] {
                items.push(Item::Face(f as u32));
            }
        }
        let first_codim = mesh.num_face_edges();
        for (i, e) in mesh.codim_edges().iter().enumerate() {
            if covered[comp[e[0] as usize] as usize] {
                items.push(Item::Edge((first_codim + i) as u32));
            }
        }
        let mut points = 0;
        for &v in mesh.codim_vertices() {
            if covered[comp[v as usize] as usize] {
                items.push(Item::Vertex(v));
                points += 1;
            }
        }
        let n = items.len();
        assert!(
            n < LEAF as usize,
            "{n} leaves: at most 2^31 - 1 are supported"
        );

        // Sort keys: per axis, the centroid coordinate's bits in an order
        // that sorts like the coordinate (sign flipped; all bits flipped
        // for negatives), the low 24 bits replaced by the item index, so
        // that comparing one integer orders by coordinate (to about 2⁻²⁹
        // relative), ties broken by index. The build permutes these records
        // in place (contiguous, no indirection).
        let mut work: Vec<Work> = items
            .par_iter()
            .with_min_len(PAR_REFIT_MIN_LEN)
            .enumerate()
            .map(|(i, &it)| {
                let mut c = [0.0; 3];
                for v in item_corners(mesh, it) {
                    let (p, q) = (&step.x_t0[v as usize], &step.x_t1[v as usize]);
                    for k in 0..3 {
                        c[k] += p[k] + q[k];
                    }
                }
                Work {
                    key: c.map(|x| sort_key(x, i as u32)),
                    item: i as u32,
                }
            })
            .collect();
        let blank = Inner {
            bv: [QuantizedKdop::<N>::EMPTY; 2],
            child: [0; 2],
            last: [0; 2],
        };
        par_sized(&mut self.inner, blank, n.saturating_sub(1));
        // The codimensional points (the items from `faces_and_edges` on)
        // get the root's right subtree when there are two or more, so that
        // their leaves come last: a pair of them gives no candidate, and
        // the traversals query none of them (`KdopBvh::query_clusters`).
        let faces_and_edges = n - points;
        if faces_and_edges > 0 && points > 1 {
            split(&mut work, &mut self.inner, 0, 0, faces_and_edges);
        } else if n > 1 {
            build_rec(&mut work, &mut self.inner, 0, 0);
        }
        // Leaf l (depth-first) holds items[work[l].item].
        cluster_starts(&self.inner, n, &mut self.clusters);

        assign_slots(mesh, &items, &work, self);
        self.first_point_leaf = (self.leaves.iter())
            .rposition(|l| !l.is_point())
            .map_or(0, |l| l as u32 + 1);
        self.mesh_size = [mesh.num_vertices(), mesh.num_edges(), mesh.num_faces()];
        self.faces.clear();
        self.faces.extend_from_slice(mesh.faces());
        self.codim_edges.clear();
        self.codim_edges.extend_from_slice(mesh.codim_edges());
        self.components = components;
        // The k-DOP arrays keep their old contents (or none): the refit
        // writes them all.
        self.refit_positions(step.x_t0, step.x_t1);
    }

    /// A tree of no leaves, with no arrays allocated.
    fn empty() -> KdopBvh<N> {
        KdopBvh {
            mesh_size: [0; 3],
            faces: Vec::new(),
            codim_edges: Vec::new(),
            components: Vec::new(),
            inner: Vec::new(),
            grid: Quantizer::new(&Kdop::EMPTY),
            root_bv: QuantizedKdop::<N>::EMPTY,
            leaves: Vec::new(),
            clusters: Vec::new(),
            first_point_leaf: 0,
            leaf_start: Vec::new(),
            vertex_bv: Vec::new(),
            vertex_q: Vec::new(),
            leaf_q: Vec::new(),
            edge_q: Vec::new(),
            vertex_qi: Vec::new(),
            slot_vertex: Vec::new(),
            slot_vertex_comp: Vec::new(),
            slot_edge: Vec::new(),
            slot_edge_ends: Vec::new(),
            edge_end_slots: Vec::new(),
            slot_edge_comp: Vec::new(),
            time_aligned: false,
            min_distance: 0.0,
            vertex_qt: Vec::new(),
            leaf_qt: Vec::new(),
        }
    }
}

/// Writes into `out` the first leaf of every largest subtree of at most
/// [`CLUSTER`] leaves of the tree `inner` over `n` leaves, in leaf order,
/// then `n` (`KdopBvh::clusters`).
pub(super) fn cluster_starts<const N: usize>(inner: &[Inner<N>], n: usize, out: &mut Vec<u32>) {
    out.clear();
    if n <= CLUSTER {
        out.extend((n > 0).then_some(0));
    } else {
        subtree_clusters(inner, 0, 0, out);
    }
    out.push(n as u32);
}

/// [`cluster_starts`] below internal node `i`, whose first leaf is `first`
/// and which has more than [`CLUSTER`] leaves.
fn subtree_clusters<const N: usize>(inner: &[Inner<N>], i: usize, first: u32, out: &mut Vec<u32>) {
    let node = &inner[i];
    for (c, first) in [first, node.last[0] + 1].into_iter().enumerate() {
        if ((node.last[c] - first) as usize) < CLUSTER {
            out.push(first);
        } else {
            subtree_clusters(inner, node.child[c] as usize, first, out);
        }
    }
}

/// The corners of an item's leaf: the face's, `[a, b, b]` for an edge
/// `[a, b]`, or `[v; 3]` for a vertex.
#[inline]
fn item_corners(mesh: &TriMesh, item: Item) -> [u32; 3] {
    match item {
        Item::Face(f) => mesh.faces()[f as usize],
        Item::Edge(e) => {
            let [a, b] = mesh.edges()[e as usize];
            [a, b, b]
        }
        Item::Vertex(v) => [v; 3],
    }
}

/// Leaves per task of [`assign_slots`] (each task writes exactly what the
/// sequential loop writes for its leaves, so the result depends neither on
/// this size nor on the thread count). Small enough that two threads get
/// even shares of a funnel-sized mesh (18,484 leaves: in chunks of 4096,
/// one of two threads got three of the five).
const SLOT_CHUNK: usize = 1024;

/// Gives leaf `l` (holding `items[work[l].item]`) its record and its owned
/// vertices and edges their slots, consecutive in leaf order; then the
/// corners' and edge ends' slots and the slots' components.
///
/// In parallel: the leaves are cut into chunks of [`SLOT_CHUNK`], each
/// chunk's number of owned vertices and edges is counted, and their prefix
/// sums give every chunk its own ranges of slots, which it fills as the
/// sequential loop would. The slot of each vertex goes into a table
/// indexed by vertex (each vertex has one owner, so every entry is written
/// once; relaxed atomic stores, read after the parallel loop has joined).
///
/// Writes `bvh`'s leaf and slot arrays (all of every one, reusing them).
fn assign_slots<const N: usize>(
    mesh: &TriMesh,
    items: &[Item],
    work: &[Work],
    bvh: &mut KdopBvh<N>,
) {
    let comp = mesh.component();
    // An edge leaf owns its edge (as a face leaf its edge 0) and the ends
    // its codimensional edge owns (as corners 0 and 1).
    let owned_bits = |item: Item| match item {
        Item::Face(f) => mesh.face_owned()[f as usize],
        Item::Edge(e) => 8 | mesh.codim_edge_owned()[e as usize - mesh.num_face_edges()],
        Item::Vertex(_) => 1,
    };
    // Owned vertices and edges per chunk, then each chunk's first slots.
    let counts: Vec<[usize; 2]> = work
        .par_chunks(SLOT_CHUNK)
        .map(|ws| {
            ws.iter().fold([0, 0], |[nv, ne], w| {
                let [v, e] = owned_counts(owned_bits(items[w.item as usize]));
                [nv + v, ne + e]
            })
        })
        .collect();
    let (total_v, total_e) = counts.iter().fold((0, 0), |(v, e), c| (v + c[0], e + c[1]));

    let blank = Leaf {
        face: NO_FACE,
        component: 0,
        corners: [0; 3],
        corner_slots: [u32::MAX; 3],
        owned: 0,
    };
    let KdopBvh {
        leaves,
        leaf_start,
        slot_vertex,
        slot_edge,
        slot_edge_ends,
        slot_vertex_comp,
        slot_edge_comp,
        edge_end_slots,
        ..
    } = bvh;
    par_sized(leaves, blank, work.len());
    par_sized(leaf_start, [0u32; 2], work.len() + 1);
    leaf_start[work.len()] = [total_v, total_e].map(|n| n as u32);
    par_sized(slot_vertex, 0u32, total_v);
    par_sized(slot_edge, 0u32, total_e);
    par_sized(slot_edge_ends, [0u32; 2], total_e);
    let slot_of: Vec<AtomicU32> = (0..mesh.num_vertices())
        .into_par_iter()
        .with_min_len(PAR_REFIT_MIN_LEN)
        .map(|_| AtomicU32::new(u32::MAX))
        .collect();

    // Each chunk's share of the outputs.
    let mut tasks = Vec::with_capacity(counts.len());
    let mut rest = (
        &mut leaves[..],
        &mut leaf_start[..work.len()],
        &mut slot_vertex[..],
        &mut slot_edge[..],
        &mut slot_edge_ends[..],
    );
    let (mut v0, mut e0) = (0, 0);
    for (c, &[nv, ne]) in counts.iter().enumerate() {
        let nl = SLOT_CHUNK.min(rest.0.len());
        let (l, lr) = std::mem::take(&mut rest.0).split_at_mut(nl);
        let (s, sr) = std::mem::take(&mut rest.1).split_at_mut(nl);
        let (v, vr) = std::mem::take(&mut rest.2).split_at_mut(nv);
        let (e, er) = std::mem::take(&mut rest.3).split_at_mut(ne);
        let (d, dr) = std::mem::take(&mut rest.4).split_at_mut(ne);
        rest = (lr, sr, vr, er, dr);
        tasks.push((c * SLOT_CHUNK, [v0, e0], l, s, v, e, d));
        v0 += nv;
        e0 += ne;
    }
    tasks.into_par_iter().with_max_len(1).for_each(
        |(l0, [v0, e0], leaves, starts, vs, es, ends)| {
            let (mut nv, mut ne) = (0, 0);
            for ((leaf, start), w) in leaves.iter_mut().zip(starts).zip(&work[l0..]) {
                let item = items[w.item as usize];
                let corners = item_corners(mesh, item);
                let owned = owned_bits(item);
                *leaf = Leaf {
                    face: NO_FACE,
                    component: comp[corners[0] as usize],
                    corners,
                    corner_slots: [u32::MAX; 3],
                    owned,
                };
                *start = [v0 + nv, e0 + ne].map(|n| n as u32);
                let mut own_vertex = |v: u32| {
                    slot_of[v as usize].store((v0 + nv) as u32, Ordering::Relaxed);
                    vs[nv] = v;
                    nv += 1;
                };
                match item {
                    Item::Face(f) => {
                        leaf.face = f;
                        for (k, &v) in corners.iter().enumerate() {
                            if owned & 1 << k != 0 {
                                own_vertex(v);
                            }
                        }
                        for (k, &e) in mesh.face_edges()[f as usize].iter().enumerate() {
                            if owned & 8 << k != 0 {
                                ends[ne] = mesh.edges()[e as usize];
                                es[ne] = e;
                                ne += 1;
                            }
                        }
                    }
                    Item::Edge(e) => {
                        for (k, &v) in corners[..2].iter().enumerate() {
                            if owned & 1 << k != 0 {
                                own_vertex(v);
                            }
                        }
                        ends[ne] = mesh.edges()[e as usize];
                        es[ne] = e;
                        ne += 1;
                    }
                    Item::Vertex(v) => own_vertex(v),
                }
            }
            debug_assert_eq!((nv, ne), (vs.len(), es.len()));
        },
    );

    // Every corner and edge end lies in a covered component, hence is
    // owned by a covered leaf (its owner contains it) and has a slot.
    let slot = |v: u32| slot_of[v as usize].load(Ordering::Relaxed);
    leaves
        .par_iter_mut()
        .with_min_len(PAR_REFIT_MIN_LEN)
        .for_each(|l| l.corner_slots = l.corners.map(slot));
    par_fill(slot_vertex_comp, slot_vertex, |&v| comp[v as usize]);
    par_fill(slot_edge_comp, slot_edge_ends, |e| comp[e[0] as usize]);
    par_fill(edge_end_slots, slot_edge_ends, |e| e.map(slot));
    debug_assert!(
        leaves
            .iter()
            .all(|l| l.corner_slots.iter().all(|&s| s != u32::MAX))
    );
    debug_assert!(edge_end_slots.iter().flatten().all(|&s| s != u32::MAX));
}

/// One item during the build: its sort keys (see `sort_key`) and its index.
#[derive(Debug, Clone, Copy)]
struct Work {
    key: [u64; 3],
    item: u32,
}

/// Builds the subtree over `work` (at least two leaves, positions
/// `leaf_base..` of the global order) into `inner` (its `work.len() − 1`
/// internal nodes, depth first, the first at absolute index `inner_base`).
/// Leaves are referenced as `LEAF | position in the global order`, so that
/// depth-first leaf order is `work`'s final order. Bounds are left empty
/// (refit fills them).
fn build_rec<const N: usize>(
    work: &mut [Work],
    inner: &mut [Inner<N>],
    inner_base: usize,
    leaf_base: usize,
) {
    let n = work.len();
    debug_assert!(n >= 2 && inner.len() == n - 1);
    // The axis of largest centroid spread, read from the keys (monotone in
    // the coordinate; their top 40 bits decode to it within 2⁻²⁹ relative),
    // over every item of a node of fewer than 32 and a sample of the
    // larger ones: every `n/16`-th item, at most every 16th (module doc).
    let mut lo = [u64::MAX; 3];
    let mut hi = [0u64; 3];
    let stride = (n / 16).clamp(1, SPREAD_STRIDE);
    for w in work.iter().step_by(stride) {
        for k in 0..3 {
            lo[k] = lo[k].min(w.key[k]);
            hi[k] = hi[k].max(w.key[k]);
        }
    }
    let spread = |k: usize| key_value(hi[k]) - key_value(lo[k]);
    let mut axis = 0;
    for k in 1..3 {
        if spread(k) > spread(axis) {
            axis = k;
        }
    }
    // The larger half goes right: a leaf right child then has a leaf
    // sibling, which the traversal's partner order needs (`gather`).
    let mid = n / 2;
    work.select_nth_unstable_by_key(mid, |w| w.key[axis]);
    split(work, inner, inner_base, leaf_base, mid);
}

/// The node `inner[0]` of [`build_rec`] over `work`, with `work[..mid]`
/// below its left child and `work[mid..]` below its right (`0 < mid < n`,
/// and a right half of one leaf only when the left half is one leaf too),
/// and the two subtrees.
fn split<const N: usize>(
    work: &mut [Work],
    inner: &mut [Inner<N>],
    inner_base: usize,
    leaf_base: usize,
    mid: usize,
) {
    let n = work.len();
    debug_assert!(0 < mid && mid < n && (n - mid > 1 || mid == 1));
    // Left subtree: `mid` leaves, `mid − 1` internal nodes right after this
    // one; right subtree: the rest.
    let child = |size: usize, first_inner: usize, first_leaf: usize| {
        if size == 1 {
            LEAF | first_leaf as u32
        } else {
            first_inner as u32
        }
    };
    inner[0].child = [
        child(mid, inner_base + 1, leaf_base),
        child(n - mid, inner_base + mid, leaf_base + mid),
    ];
    inner[0].last = [(leaf_base + mid - 1) as u32, (leaf_base + n - 1) as u32];
    let (left_work, right_work) = work.split_at_mut(mid);
    let (left_inner, right_inner) = inner[1..].split_at_mut(mid - 1);
    let mut left = || {
        if mid > 1 {
            build_rec(left_work, left_inner, inner_base + 1, leaf_base);
        }
    };
    let mut right = || {
        if n - mid > 1 {
            build_rec(right_work, right_inner, inner_base + mid, leaf_base + mid);
        }
    };
    if n > PAR_BUILD_CUTOFF {
        rayon::join(left, right);
    } else {
        left();
        right();
    }
}

/// Makes `v` `len` elements long, for a caller that then writes every one
/// of them: when it already has that length (a rebuild for the same mesh)
/// it is left as it is, else it is refilled with copies of `x`, written in
/// parallel (a fresh allocation is mapped in on first touch, so its page
/// faults are spread over the threads).
fn par_sized<T: Copy + Send + Sync>(v: &mut Vec<T>, x: T, len: usize) {
    if v.len() != len {
        v.clear();
        v.par_extend(rayon::iter::repeat_n(x, len).with_min_len(PAR_REFIT_MIN_LEN));
    }
}

/// A key that sorts like `x` in its high 40 bits, with `index` (taken mod
/// 2²⁴) in the low 24 bits: the order of `(x, index)` up to coordinates
/// closer than about 2⁻²⁹ relative, deterministic in every case.
fn sort_key(x: f64, index: u32) -> u64 {
    let bits = x.to_bits();
    let ordered = if bits >> 63 == 1 {
        !bits
    } else {
        bits | 1 << 63
    };
    (ordered & !0xff_ffff) | u64::from(index & 0xff_ffff)
}

/// The coordinate a key stands for, its low 24 bits cleared (the inverse of
/// `sort_key` up to those bits; monotone in the key).
fn key_value(key: u64) -> f64 {
    let ordered = key & !0xff_ffff;
    f64::from_bits(if ordered >> 63 == 1 {
        ordered & !(1 << 63)
    } else {
        !ordered
    })
}
