//! Top-down BVH build over the swept triangles (Wan, Fu & Yao 2022, §1.1 and
//! Fig. 2: a binary BVH whose leaves are triangles), followed by the feature
//! level below the leaves (see `bvh`).
//!
//! **Split rule.** Each node splits its leaves at the median of their centroids
//! (mean of the six points `x_t0`, `x_t1` of the corners, taken as a sum) along
//! the axis of largest centroid spread, ties broken by item index (compared
//! as one integer key per item and axis, exact to about 2⁻²⁹ of the
//! coordinate; see `sort_key`; the spreads are read from the same keys). The
//! items are permuted as contiguous key records, not through an index array
//! (one cache line holds two of them). The paper does not say how it splits. (A
//! split at the middle of a Morton order was tried: 28% more node tests on
//! cloth-ball 92→93.) A median split gives a balanced tree of depth
//! ⌈log₂ n⌉ + 1, which bounds the traversal stack and makes parallel subtrees
//! even; see the module doc of `broad_phase` for the measurements against a
//! binned SAH split.
//!
//! **Parallelism.** Subtrees above [`PAR_BUILD_CUTOFF`] leaves are built with
//! `rayon::join`; each writes its own disjoint node range (a subtree of `n`
//! leaves occupies `2n − 1` consecutive nodes), so the result does not depend
//! on the thread count.

use rayon::prelude::*;

use super::bvh::{Inner, KdopBvh, LEAF, Leaf, NO_FACE};
use super::bvh_refit::PAR_REFIT_MIN_LEN;
use crate::bounding_volume::{Kdop, QKdop, Quantizer};
use crate::mesh::{NO_OWNER, Step};

/// Subtrees with more leaves than this are built in parallel.
pub const PAR_BUILD_CUTOFF: usize = 8192;

/// An item to place in a leaf: a face, or a vertex in no face.
#[derive(Debug, Clone, Copy)]
enum Item {
    Face(u32),
    Vertex(u32),
}

impl<const N: usize> KdopBvh<N> {
    /// Builds the BVH of every face (and vertex in no face) of `step`.
    pub fn build(step: &Step<'_>) -> KdopBvh<N> {
        KdopBvh::build_components(step, &|_| true)
    }

    /// Builds the BVH of the connected components `c` with `keep(c)`.
    ///
    /// # Panics
    /// When the covered part has 2³¹ leaves or more (faces plus isolated
    /// vertices), beyond the node encoding.
    pub fn build_components(step: &Step<'_>, keep: &(impl Fn(u32) -> bool + Sync)) -> KdopBvh<N> {
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
        for (v, &owner) in mesh.vertex_owner().iter().enumerate() {
            if owner == NO_OWNER && covered[comp[v] as usize] {
                items.push(Item::Vertex(v as u32));
            }
        }
        let n = items.len();
        assert!(
            n < LEAF as usize,
            "{n} leaves: at most 2^31 - 1 are supported"
        );

        let corners = |item: Item| match item {
            Item::Face(f) => mesh.faces()[f as usize],
            Item::Vertex(v) => [v; 3],
        };

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
                for v in corners(it) {
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
            bv: [QKdop::<N>::EMPTY; 2],
            child: [0; 2],
            last: [0; 2],
        };
        let mut inner = par_filled(blank, n.saturating_sub(1));
        if n > 1 {
            build_rec(&mut work, &mut inner, 0, 0);
        }
        // Leaf l (depth-first) holds items[work[l].item].

        let mut bvh = KdopBvh {
            mesh_size: [mesh.num_vertices(), mesh.num_edges(), mesh.num_faces()],
            components,
            inner,
            grid: Quantizer::new(&Kdop::EMPTY),
            root_bv: QKdop::<N>::EMPTY,
            leaves: Vec::with_capacity(n),
            vertex_bv: Vec::new(),
            vertex_q: Vec::new(),
            leaf_q: Vec::new(),
            edge_q: Vec::new(),
            vertex_qi: Vec::new(),
            slot_vertex: Vec::with_capacity(mesh.num_vertices()),
            slot_vertex_comp: Vec::new(),
            slot_edge: Vec::with_capacity(mesh.num_edges()),
            slot_edge_ends: Vec::with_capacity(mesh.num_edges()),
            edge_end_slots: Vec::new(),
            slot_edge_comp: Vec::new(),
        };
        let mut slot_of = vec![u32::MAX; mesh.num_vertices()];
        for w in &work {
            let item = items[w.item as usize];
            let corners = corners(item);
            let mut leaf = Leaf {
                face: NO_FACE,
                component: comp[corners[0] as usize],
                corners,
                corner_slots: [u32::MAX; 3],
                vertex_start: bvh.slot_vertex.len() as u32,
                edge_start: bvh.slot_edge.len() as u32,
                owned: 0,
            };
            match item {
                Item::Face(f) => {
                    leaf.face = f;
                    leaf.owned = mesh.face_owned()[f as usize];
                    for (k, &v) in corners.iter().enumerate() {
                        if leaf.owned & 1 << k != 0 {
                            slot_of[v as usize] = bvh.slot_vertex.len() as u32;
                            bvh.slot_vertex.push(v);
                        }
                    }
                    if leaf.owned >> 3 != 0 {
                        for (k, &e) in mesh.face_edges()[f as usize].iter().enumerate() {
                            if leaf.owned & 8 << k != 0 {
                                bvh.slot_edge_ends.push(mesh.edges()[e as usize]);
                                bvh.slot_edge.push(e);
                            }
                        }
                    }
                }
                Item::Vertex(v) => {
                    leaf.owned = 1;
                    slot_of[v as usize] = bvh.slot_vertex.len() as u32;
                    bvh.slot_vertex.push(v);
                }
            }
            bvh.leaves.push(leaf);
        }
        // Every corner and edge end lies in a covered component, hence is
        // owned by a covered face (its owner contains it) and has a slot.
        for leaf in &mut bvh.leaves {
            leaf.corner_slots = leaf.corners.map(|v| slot_of[v as usize]);
        }
        bvh.slot_vertex_comp = bvh.slot_vertex.iter().map(|&v| comp[v as usize]).collect();
        bvh.slot_edge_comp = bvh
            .slot_edge_ends
            .iter()
            .map(|e| comp[e[0] as usize])
            .collect();
        bvh.edge_end_slots = bvh
            .slot_edge_ends
            .iter()
            .map(|e| e.map(|v| slot_of[v as usize]))
            .collect();
        debug_assert!(
            bvh.leaves
                .iter()
                .all(|l| l.corner_slots.iter().all(|&s| s != u32::MAX))
        );
        debug_assert!(bvh.edge_end_slots.iter().flatten().all(|&s| s != u32::MAX));

        // The k-DOP arrays are left empty: the refit allocates and fills them.
        bvh.refit_positions(step.x_t0, step.x_t1);
        bvh
    }
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
    // the coordinate; their top 40 bits decode to it within 2⁻²⁹ relative).
    let mut lo = [u64::MAX; 3];
    let mut hi = [0u64; 3];
    for w in work.iter() {
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
    let mid = n / 2;
    work.select_nth_unstable_by_key(mid, |w| w.key[axis]);
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

/// `len` copies of `x`, written in parallel: a fresh allocation is mapped
/// in on first touch, and on the funnel 227→228 build those page faults
/// were about a third of the build's time on one thread.
fn par_filled<T: Copy + Send + Sync>(x: T, len: usize) -> Vec<T> {
    let mut v = Vec::with_capacity(len);
    v.par_extend(rayon::iter::repeat_n(x, len).with_min_len(PAR_REFIT_MIN_LEN));
    v
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
