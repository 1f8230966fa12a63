//! The traversal's feature level (Wan, Fu & Yao 2022, §1.1: the smallest
//! BVs enclose the triangles' vertices and edges): one query leaf against
//! the partner leaves its descent or its cluster listed (`bvh_traverse`),
//! down to the candidate pairs.
//!
//! **What is emitted.** For every pair of distinct leaves `A`, `B` reached
//! (`bvh_traverse`'s module doc: which, and why the output is exactly the
//! brute-force set), with `f_A`, `f_B` their faces: `(v, f_B)` for every vertex `v`
//! owned by `A` with `BV(v) ∩ BV(f_B) ≠ ∅` and `v` not a corner of `f_B`;
//! symmetrically `(u, f_A)` for `u` owned by `B`; and `(e, e')` for every edge
//! `e` owned by `A` and `e'` owned by `B` whose k-DOPs overlap and which share
//! no endpoint. All these tests use the exact `f64` k-DOPs.
//!
//! docs/design.md §6.

use super::bvh::{KdopBvh, Leaf, NO_FACE};
use super::bvh_traverse::{Scratch, retain};
use super::candidate::{BroadPhaseStats, EePair, VfPair};
use crate::bounding_volume::{
    AlignedQuantizedKdop, Kdop, QuantizedKdop, QuantizedKdopQuery, aligned_merge, aligned_overlap,
    aligned_overlap_merge,
};

/// Most vertices, and most edges, a leaf owns (those of one face).
const MAX_OWNED: usize = 3;

/// The feature level of one query: leaf `la` of `a` (quantized k-DOP `q`
/// on `b`'s grid) against its `np` partner leaves in `sc.partners`.
pub(super) fn features<const N: usize>(
    a: &KdopBvh<N>,
    la: usize,
    b: &KdopBvh<N>,
    q: &QuantizedKdopQuery<N>,
    np: usize,
    sc: &mut Scratch,
    stats: &mut BroadPhaseStats,
) {
    if np == 0 {
        return;
    }
    let leaf = &a.leaves[la];
    stats.leaf_pairs += np as u64;
    let comp = leaf.component;
    let (nva, nea) = (leaf.num_vertices(), leaf.num_edges());
    let partners = &sc.partners[..np];

    // The partners' owned vertex and edge slots, listed without a branch:
    // each partner writes the [`MAX_OWNED`] slots from its first and
    // advances by the number it owns. The loops over them then run once
    // per query, instead of once per run of consecutive partners with short
    // and irregular trip counts, whose branches mispredict.
    let room = MAX_OWNED * np;
    for buf in [&mut sc.vslots, &mut sc.eslots] {
        if buf.len() < room {
            buf.resize(room, 0);
        }
    }
    let (mut n_vslots, mut n_eslots) = (0, 0);
    // Through slices: a store through the `Vec` itself makes the compiler
    // reload its pointer and length for the next one.
    let (vs, es) = (&mut sc.vslots[..room], &mut sc.eslots[..room]);
    let run = |first: u32| -> [u32; MAX_OWNED] { std::array::from_fn(|k| first + k as u32) };
    for &p in partners {
        let (s0, s1) = (b.leaf_start[p as usize], b.leaf_start[p as usize + 1]);
        vs[n_vslots..n_vslots + MAX_OWNED].copy_from_slice(&run(s0[0]));
        es[n_eslots..n_eslots + MAX_OWNED].copy_from_slice(&run(s0[1]));
        n_vslots += (s1[0] - s0[0]) as usize;
        n_eslots += (s1[1] - s0[1]) as usize;
    }
    sc.reserve_vf(nva * np + n_vslots);
    sc.reserve_ee(nea * n_eslots);
    let most = (nva * np).max(n_vslots).max(nea * n_eslots);
    if sc.hits.len() < most {
        sc.hits.resize(most, 0);
    }
    let Scratch {
        partners,
        vslots,
        eslots,
        hits,
        vf,
        vf_len,
        ee,
        ee_len,
        ..
    } = sc;
    let (partners, vslots, eslots) = (&partners[..np], &vslots[..n_vslots], &eslots[..n_eslots]);
    let (hits, vf, ee) = (&mut hits[..], &mut vf[..], &mut ee[..]);

    // Every feature pair is first tested on 16-bit k-DOPs (on `b`'s grid:
    // a superset of the exact overlaps); only pairs that pass, share no
    // vertex and could be candidates get the exact `f64` test, whose k-DOPs
    // are merged only then.
    //
    // Between the two, the inner images (`bvh`): when they overlap, so do
    // the exact k-DOPs, and the pair is a candidate without the `f64` test
    // (almost every pair that passes the outer test is a candidate, and
    // most are proven here, without merging exact k-DOPs). Across two
    // trees the query's features have no inner image on `b`'s grid: `EMPTY`
    // proves nothing.
    //
    // Each kind of pair runs in two passes. The outer tests (which read
    // only feature IDs and outer images) list the pairs that pass in
    // `hits`, without a branch on their verdict (it passes about a third of
    // the pairs); the inner and exact tests then run on the list, where
    // they almost always succeed, on faces' and edges' images merged in
    // registers (`overlaps_merge`: a merge stored to memory and read back
    // by the test stalls on store-to-load forwarding). The order of the
    // pairs is that of a single pass. (Measurements of these choices:
    // docs/notes/bvh-traversal.md.)
    let same_tree = std::ptr::eq(a, b);
    let query = Query {
        a,
        b,
        leaf,
        start: a.leaf_start[la].map(|s| s as usize),
        same_tree,
        aligned: same_tree && a.time_aligned,
    };

    // The query's owned vertices against the partners' faces. This pass
    // and the edges' are unrolled for the query's number of owned features
    // (const generics).
    let (mut nvf, mut vf_same) = (*vf_len, 0u64);
    if nva > 0 {
        let nh = match nva {
            1 => vertex_face_hits::<N, 1>(&query, partners, hits),
            2 => vertex_face_hits::<N, 2>(&query, partners, hits),
            _ => vertex_face_hits::<N, 3>(&query, partners, hits),
        };
        (nvf, vf_same) = if query.aligned {
            vertices_faces::<N, true>(&query, &mut hits[..nh], vf, nvf)
        } else {
            vertices_faces::<N, false>(&query, &mut hits[..nh], vf, nvf)
        };
    }

    // The partners' owned vertices against the query's face.
    if leaf.face != NO_FACE {
        let c = leaf.corners;
        // Local slices, as in `edge_edge_hits`.
        let (slot_vertex, vertex_q) = (&b.slot_vertex[..], &b.vertex_q[..]);
        let mut nh = 0;
        for &s in vslots {
            let (v, vq) = (slot_vertex[s as usize], &vertex_q[s as usize]);
            let hit = q.overlaps_and_not_in(vq, v, &c);
            hits[nh] = u64::from(s);
            nh += usize::from(hit);
        }
        if query.aligned {
            let qt = &a.leaf_qt[la];
            nh = retain(&mut hits[..nh], |h| {
                aligned_overlap(&b.vertex_qt[h as usize], qt)
            });
        }
        if nh > 0 {
            let face_qi = if same_tree {
                a.face_qi(leaf)
            } else {
                QuantizedKdop::<N>::EMPTY
            };
            let mut face_bv = None;
            for &h in &hits[..nh] {
                let s = h as usize;
                let ok = b.vertex_qi[s].overlaps(&face_qi)
                    || b.vertex_bv[s].overlaps(face_bv.get_or_insert_with(|| a.face_kdop(leaf)));
                vf[nvf] = VfPair {
                    v: b.slot_vertex[s],
                    f: leaf.face,
                };
                nvf += usize::from(ok);
                vf_same += u64::from(ok & (b.slot_vertex_comp[s] == comp));
            }
        }
    }
    stats.feature_tests += (nva * np + n_vslots) as u64;
    stats.vf_candidates += (nvf - *vf_len) as u64;
    stats.vf_same_component += vf_same;
    *vf_len = nvf;

    // The query's owned edges against the partners' owned edges.
    if nea > 0 {
        stats.feature_tests += (nea * n_eslots) as u64;
        let nh = match nea {
            1 => edge_edge_hits::<N, 1>(&query, eslots, hits),
            2 => edge_edge_hits::<N, 2>(&query, eslots, hits),
            _ => edge_edge_hits::<N, 3>(&query, eslots, hits),
        };
        let (nee, ee_same) = if query.aligned {
            edges_edges::<N, true>(&query, nea, &mut hits[..nh], ee, *ee_len)
        } else {
            edges_edges::<N, false>(&query, nea, &mut hits[..nh], ee, *ee_len)
        };
        stats.ee_candidates += (nee - *ee_len) as u64;
        stats.ee_same_component += ee_same;
        *ee_len = nee;
    }
}

/// A query leaf `leaf` of `a` with partners in `b`.
struct Query<'t, const N: usize> {
    a: &'t KdopBvh<N>,
    b: &'t KdopBvh<N>,
    leaf: &'t Leaf,
    /// The leaf's first vertex slot and first edge slot in `a`.
    start: [usize; 2],
    /// `a` and `b` are the same tree (the query's inner images are on
    /// `b`'s grid).
    same_tree: bool,
    /// Feature pairs are also tested on their time-aligned images (the
    /// same tree, built with them).
    aligned: bool,
}

/// A feature slot of a query's tree.
enum Feature {
    Vertex(usize),
    Edge(usize),
}

/// The `f64` k-DOP of `feature` of `a` quantized on `b`'s grid, for the
/// cross traversal. Out of line: inlined, the merge and quantization made
/// the closures building a query's features too large to inline in turn,
/// and the self traversal, which never quantizes there, paid a call per
/// query (docs/notes/bvh-traversal.md).
#[inline(never)]
fn requantized<const N: usize>(
    b: &KdopBvh<N>,
    a: &KdopBvh<N>,
    feature: Feature,
) -> QuantizedKdopQuery<N> {
    let bv = match feature {
        Feature::Vertex(s) => a.vertex_bv[s],
        Feature::Edge(s) => a.edge_kdop(s),
    };
    QuantizedKdopQuery::new(&b.grid.quantize(&bv))
}

/// The outer tests of the `NEA` edges owned by the query against the edges
/// in the slots `eslots` of `b`: no shared endpoint and overlapping outer
/// images. Lists the pairs that pass in `hits` as `4 × slot + k` (the
/// partner's edge slot, the query's edge `k`), in the order of `eslots`;
/// returns their number.
#[inline(always)]
fn edge_edge_hits<const N: usize, const NEA: usize>(
    query: &Query<'_, N>,
    eslots: &[u32],
    hits: &mut [u64],
) -> usize {
    let (a, b, es) = (query.a, query.b, query.start[1]);
    let qends: [[u32; 2]; NEA] = std::array::from_fn(|k| a.slot_edge_ends[es + k]);
    let qq: [QuantizedKdopQuery<N>; NEA] = std::array::from_fn(|k| {
        if query.same_tree {
            QuantizedKdopQuery::new(&a.edge_q[es + k])
        } else {
            requantized(b, a, Feature::Edge(es + k))
        }
    });
    // Local slices: the stores into `hits` could alias the vectors' headers
    // as far as the compiler knows, which made it reload them every pair.
    let (ends, edge_q) = (&b.slot_edge_ends[..], &b.edge_q[..]);
    let mut nh = 0;
    for &s in eslots {
        let (tends, tq) = (&ends[s as usize], &edge_q[s as usize]);
        for k in 0..NEA {
            let hit = qq[k].overlaps_and_disjoint(tq, qends[k], tends);
            hits[nh] = encode_hit(s, k);
            nh += usize::from(hit);
        }
    }
    nh
}

/// A feature pair that passed the outer tests, as `hits` lists it: a slot
/// or leaf of the partner tree and the query's feature `k < 4`.
#[inline(always)]
fn encode_hit(partner: u32, k: usize) -> u64 {
    u64::from(partner) << 2 | k as u64
}

/// The partner and the query's feature of an [`encode_hit`] entry.
#[inline(always)]
fn split_hit(h: u64) -> (usize, usize) {
    ((h >> 2) as usize, (h & 3) as usize)
}

/// The edge–edge pairs of `hits` ([`edge_edge_hits`]; the query owns `nea`
/// edges) whose inner images or exact k-DOPs overlap (and, with `ALIGNED`,
/// `query.aligned`, whose time-aligned images do: a parameter, so that the
/// paper's traversal pays nothing for the test; `hits` is first compacted
/// in place to those, and only they get the other tests): writes them into
/// `ee` from `ee_len` on; returns the new length and how many are within
/// one component.
#[inline(always)]
fn edges_edges<const N: usize, const ALIGNED: bool>(
    query: &Query<'_, N>,
    nea: usize,
    hits: &mut [u64],
    ee: &mut [EePair],
    ee_len: usize,
) -> (usize, u64) {
    let (a, b, es) = (query.a, query.b, query.start[1]);
    let comp = query.leaf.component;
    if hits.is_empty() {
        return (ee_len, 0);
    }
    // The query's edges: IDs and inner images once; exact k-DOPs when
    // first needed.
    let qids: [u32; 3] = std::array::from_fn(|k| if k < nea { a.slot_edge[es + k] } else { 0 });
    // (A loop, not `array::from_fn`, whose closure was not inlined.)
    let mut qi = [QuantizedKdop::<N>::EMPTY; 3];
    if query.same_tree {
        for (k, q) in qi.iter_mut().enumerate().take(nea) {
            *q = a.edge_qi(es + k);
        }
    }
    let mut qe: [Option<Kdop<N>>; 3] = [None; 3];
    // The time-aligned images of an edge slot's ends.
    fn ends_qt<const N: usize>(t: &KdopBvh<N>, s: usize) -> [&AlignedQuantizedKdop<N>; 2] {
        t.edge_end_slots[s].map(|x| &t.vertex_qt[x as usize])
    }
    let mut qt = [[QuantizedKdop::<N>::EMPTY; 2]; 3];
    if ALIGNED {
        for (k, q) in qt.iter_mut().enumerate().take(nea) {
            let [u, v] = ends_qt(a, es + k);
            *q = aligned_merge(u, v);
        }
    }
    let hits = if ALIGNED {
        let n = retain(hits, |h| {
            let (s, k) = split_hit(h);
            aligned_overlap_merge(&qt[k], ends_qt(b, s))
        });
        &hits[..n]
    } else {
        &hits[..]
    };
    let (mut nee, mut ee_same) = (ee_len, 0u64);
    for &h in hits {
        let (s, k) = split_hit(h);
        let ok = b.edge_qi_overlaps(s, &qi[k])
            || b.edge_kdop_overlaps(s, qe[k].get_or_insert_with(|| a.edge_kdop(es + k)));
        ee[nee] = EePair::new(qids[k], b.slot_edge[s]);
        nee += usize::from(ok);
        ee_same += u64::from(ok & (b.slot_edge_comp[s] == comp));
    }
    (nee, ee_same)
}

/// The outer tests of the `NVA` vertices owned by the query against the
/// faces of its `partners`: the partner has a face, the vertex is not one
/// of its corners, and their outer images overlap. Lists the pairs that
/// pass in `hits` as `4 × partner + i` (the partner leaf, the query's
/// vertex `i`), in partner order; returns their number.
#[inline(always)]
fn vertex_face_hits<const N: usize, const NVA: usize>(
    query: &Query<'_, N>,
    partners: &[u32],
    hits: &mut [u64],
) -> usize {
    let (a, b, vs) = (query.a, query.b, query.start[0]);
    let qv: [u32; NVA] = std::array::from_fn(|i| a.slot_vertex[vs + i]);
    let qq: [QuantizedKdopQuery<N>; NVA] = std::array::from_fn(|i| {
        if query.same_tree {
            QuantizedKdopQuery::new(&a.vertex_q[vs + i])
        } else {
            requantized(b, a, Feature::Vertex(vs + i))
        }
    });
    // Local slices, as in `edge_edge_hits`.
    let (leaves, leaf_q) = (&b.leaves[..], &b.leaf_q[..]);
    let mut nh = 0;
    for &p in partners {
        let lp = &leaves[p as usize];
        let (face, c) = (lp.face != NO_FACE, lp.corners);
        let fq = &leaf_q[p as usize];
        for i in 0..NVA {
            let v = qv[i];
            let hit = face & qq[i].overlaps_and_not_in(fq, v, &c);
            hits[nh] = encode_hit(p, i);
            nh += usize::from(hit);
        }
    }
    nh
}

/// The vertex–face pairs of `hits` ([`vertex_face_hits`]) whose inner
/// images or exact k-DOPs overlap (and, with `ALIGNED`, as in
/// [`edges_edges`], whose time-aligned images do, tested first): writes
/// them into `vf` from `vf_len` on; returns the new length and how many
/// are within one component.
#[inline(always)]
fn vertices_faces<const N: usize, const ALIGNED: bool>(
    query: &Query<'_, N>,
    hits: &mut [u64],
    vf: &mut [VfPair],
    vf_len: usize,
) -> (usize, u64) {
    let (a, b, vs) = (query.a, query.b, query.start[0]);
    let comp = query.leaf.component;
    let hits = if ALIGNED {
        let n = retain(hits, |h| {
            let (p, i) = split_hit(h);
            aligned_overlap(&a.vertex_qt[vs + i], &b.leaf_qt[p])
        });
        &hits[..n]
    } else {
        &hits[..]
    };
    let (mut nvf, mut vf_same) = (vf_len, 0u64);
    for &h in hits {
        let (p, i) = split_hit(h);
        let lp = &b.leaves[p];
        let s = vs + i;
        let ok = (query.same_tree && b.face_qi_overlaps(lp, &a.vertex_qi[s]))
            || b.face_kdop_overlaps(lp, &a.vertex_bv[s]);
        vf[nvf] = VfPair {
            v: a.slot_vertex[s],
            f: lp.face,
        };
        nvf += usize::from(ok);
        vf_same += u64::from(ok & (lp.component == comp));
    }
    (nvf, vf_same)
}
