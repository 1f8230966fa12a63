//! The bounding-volume hierarchy of Wan, Fu & Yao 2022, §1.1: a binary tree of
//! swept k-DOPs over the triangles, with **one extra level below each triangle
//! leaf**: the k-DOPs of the vertices and edges that triangle *owns*
//! ([`TriMesh::vertex_owner`](crate::mesh::TriMesh::vertex_owner),
//! [`TriMesh::edge_owner`](crate::mesh::TriMesh::edge_owner): the
//! lowest-indexed face containing the feature). Since every vertex and edge has
//! exactly one owner, a traversal that visits each overlapping pair of leaves
//! once emits every vertex–face and edge–edge pair at most once
//! (docs/design.md §2.1; the proof that the traversal gives exactly the
//! brute-force set, and the quantized nodes, are §6).
//!
//! **Deviation.** The paper's meshes have every vertex and edge in a face;
//! ours may have edges in no face and vertices in no face and no edge
//! (codimensional features, [`TriMesh::with_edges`]). Each such edge becomes
//! a leaf of its own (a leaf with no face, corners `[a, b, b]`, owning its
//! edge and the ends it owns), and each such vertex too (corners `[v; 3]`,
//! owning `v`), so that they are tested against every face and edge. Two or
//! more points get the root's right subtree, so that their leaves come
//! last and no query starts from one ([`KdopBvh::query_clusters`]): a pair
//! of points' leaves gives no candidate. Across two trees, a point's query
//! skips the other tree's subtrees of points (`bvh_descent::PointSubtrees`).
//!
//! [`TriMesh::with_edges`]: crate::mesh::TriMesh::with_edges
//!
//! **Layout** (chosen by measurement on cloth-ball 92→93; see
//! docs/notes/bvh-layout.md). Internal nodes are stored in depth-first order, each
//! holding the k-DOPs of *both* its children, quantized to 16 bits on a grid
//! over the root's k-DOP and rounded outward ([`QuantizedKdop`]: 52 bytes for
//! k = 26, and the two tests a visit makes read one contiguous record of two
//! cache lines). Leaves are numbered
//! left to right; per leaf, one [`Leaf`] record. The only `f64` k-DOPs stored
//! are those of the owned vertices, contiguously in leaf order ("vertex
//! slots"); an edge's or a face's `f64` k-DOP is the merge of its vertices'
//! (exact: min and max only), computed where it is needed, which costs less
//! than the memory it would take (a 26-DOP is 208 bytes; edges and faces are
//! five times as many as vertices). All indices are `u32`. The quantized node
//! k-DOPs only steer the descent; every candidate is decided as its `f64`
//! feature k-DOPs decide it: pairs whose outer quantized images are apart
//! are not candidates, pairs whose inner images ([`Quantizer::quantize_inner`],
//! 52 more bytes per vertex slot) overlap are, and the rest get the `f64`
//! test.
//!
//! Files: this one holds the types; `bvh_build`, `bvh_refit`,
//! `bvh_traverse` and `bvh_validate` hold one verb each, and
//! `bvh_edge_face` the edge–face traversal of a mesh's static
//! intersections.

use super::bvh_validate::InvalidBvh;
use super::candidate::{BroadPhaseStats, CandidateSet, CandidateSink};
use crate::bounding_volume::{AlignedQuantizedKdop, Kdop, KdopAxes, QuantizedKdop, Quantizer};
use crate::mesh::Step;

/// Leaf flag in a child reference of [`Inner`].
pub(crate) const LEAF: u32 = 1 << 31;
/// "No face" in `Leaf::face` (a leaf for a codimensional edge or point).
pub(crate) const NO_FACE: u32 = u32::MAX;

/// Most internal nodes on a path from the root (the root included) that the
/// traversal's fixed stack takes (`bvh_traverse`); the median split of fewer
/// than 2³¹ leaves makes at most 31.
pub(crate) const MAX_DEPTH: usize = 32;

/// Most leaves in one of the self traversal's clusters (`bvh_traverse`):
/// each cluster is a largest subtree of at most this many leaves
/// ([`KdopBvh`]'s `clusters`): 8 to 16 leaves each in a median-split tree
/// of more than 16 (a smaller tree is one cluster). The size balances the
/// descents a cluster shares against the partners its leaves then filter;
/// the sizes measured: docs/notes/bvh-traversal.md.
pub(crate) const CLUSTER: usize = 16;

/// An internal node: its two children (`LEAF | leaf index`, or the index of
/// an internal node), the largest leaf index below each child (leaves below
/// a node are consecutive), and the children's quantized k-DOPs.
///
/// Aligned to a cache line: for k = 26 a node is 120 bytes, so it takes two
/// lines instead of straddling three.
#[derive(Debug, Clone, Copy, PartialEq)]
#[repr(C, align(64))]
pub(crate) struct Inner<const N: usize> {
    pub(crate) bv: [QuantizedKdop<N>; 2],
    pub(crate) child: [u32; 2],
    pub(crate) last: [u32; 2],
}

/// Everything the traversal needs about one leaf, in one record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Leaf {
    /// The face, or [`NO_FACE`] for a leaf holding a codimensional edge or
    /// point.
    pub(crate) face: u32,
    /// Connected component of the leaf (and of everything it owns).
    pub(crate) component: u32,
    /// The face's corners; `[a, b, b]` for an edge leaf, `[v; 3]` for a
    /// vertex leaf.
    pub(crate) corners: [u32; 3],
    /// The vertex slots of the corners (every corner is owned by some leaf).
    pub(crate) corner_slots: [u32; 3],
    /// Bit `k` (0..3): `corners[k]` is owned; bit `3 + k`: the face's edge
    /// `k` (`[e(c0,c1), e(c1,c2), e(c2,c0)]`, [`TriMesh::face_edges`]) is
    /// owned. An edge leaf owns its edge as edge 0.
    ///
    /// [`TriMesh::face_edges`]: crate::mesh::TriMesh::face_edges
    pub(crate) owned: u8,
}

/// Number of bits set in a 3-bit value (a table: x86-64's baseline has no
/// population count instruction, and its software fallback costs a dozen).
const BITS3: [u8; 8] = [0, 1, 1, 2, 1, 2, 2, 3];

/// The numbers of owned vertices and owned edges in a set of ownership bits
/// (as in [`Leaf::owned`]).
#[inline(always)]
pub(crate) fn owned_counts(owned: u8) -> [usize; 2] {
    [owned, owned >> 3].map(|bits| usize::from(BITS3[usize::from(bits & 0b111)]))
}

impl Leaf {
    /// Whether the leaf holds a codimensional point (no face, no edge).
    #[inline(always)]
    pub(crate) fn is_point(&self) -> bool {
        self.face == NO_FACE && self.num_edges() == 0
    }

    /// Number of owned vertices.
    #[inline(always)]
    pub(crate) fn num_vertices(&self) -> usize {
        owned_counts(self.owned)[0]
    }

    /// Number of owned edges.
    #[inline(always)]
    pub(crate) fn num_edges(&self) -> usize {
        owned_counts(self.owned)[1]
    }
}

/// The BVH of swept 6-DOPs (axis-aligned boxes): [`KdopBvh`] with 3 slabs.
pub type KdopBvh6 = KdopBvh<3>;
/// The BVH of swept 8-DOPs: [`KdopBvh`] with 4 slabs.
pub type KdopBvh8 = KdopBvh<4>;
/// The BVH of swept 14-DOPs: [`KdopBvh`] with 7 slabs.
pub type KdopBvh14 = KdopBvh<7>;
/// The BVH of swept 18-DOPs: [`KdopBvh`] with 9 slabs.
pub type KdopBvh18 = KdopBvh<9>;
/// The BVH of swept 26-DOPs, the paper's: [`KdopBvh`] with 13 slabs.
pub type KdopBvh26 = KdopBvh<13>;

/// A swept k-DOP BVH with a feature level, monomorphic in the slab count `N`
/// (`k = 2N`; [`KdopBvh26`] and the other aliases name it by k; see [`Bvh`]
/// for the run-time choice of k).
#[derive(Debug, Clone, PartialEq)]
pub struct KdopBvh<const N: usize> {
    /// `#V`, `#E`, `#F` of the mesh it was built for (checked on refit).
    pub(crate) mesh_size: [usize; 3],
    /// The faces of the mesh it was built for, which with `#V` fix the
    /// whole topology: a refit for a mesh of other faces (the same counts
    /// after an edge flip, say) is refused, not run on the old features.
    pub(crate) faces: Vec<[u32; 3]>,
    /// The codimensional edges of the mesh it was built for (with the
    /// faces, the rest of the topology).
    pub(crate) codim_edges: Vec<[u32; 2]>,
    /// Connected components covered, ascending.
    pub(crate) components: Vec<u32>,
    /// Internal nodes, depth first; the root is `inner[0]` (none for a tree
    /// of fewer than two leaves).
    pub(crate) inner: Vec<Inner<N>>,
    /// The grid of the node k-DOPs (over the root's k-DOP).
    pub(crate) grid: Quantizer<N>,
    /// The quantized k-DOP of the root (of the single leaf, for a tree of one
    /// leaf).
    pub(crate) root_bv: QuantizedKdop<N>,
    /// Per leaf, in depth-first order.
    pub(crate) leaves: Vec<Leaf>,
    /// The self traversal's clusters of consecutive leaves: the first leaf
    /// of each, ascending, then the number of leaves. Each cluster is a
    /// largest subtree of at most [`CLUSTER`] leaves (its parent has more),
    /// so a query with the merge of its leaves' k-DOPs is as tight as the
    /// tree's own nodes (`bvh_traverse`). Fixed by the tree's shape: a
    /// refit keeps them.
    pub(crate) clusters: Vec<u32>,
    /// The leaves from this one on hold codimensional points only (the
    /// build puts them last): leaves with no face and no edge, which give
    /// no candidate together. Fixed by the tree's shape.
    pub(crate) first_point_leaf: u32,
    /// Per leaf, then once more at the end: its first vertex slot and its
    /// first edge slot. Leaf `l` owns the slots from `leaf_start[l]` up to
    /// `leaf_start[l + 1]`: its vertices in corner order, its edges in
    /// face-edge order. (A dense array rather than fields of [`Leaf`]: the
    /// traversal reads the bounds of runs of partner leaves, two values
    /// per run.)
    pub(crate) leaf_start: Vec<[u32; 2]>,
    /// Per vertex slot (owned vertices in leaf order): its swept k-DOP.
    pub(crate) vertex_bv: Vec<Kdop<N>>,
    /// The same, quantized on `grid` (for the feature level's first test).
    pub(crate) vertex_q: Vec<QuantizedKdop<N>>,
    /// Per leaf: its face's k-DOP quantized on `grid` (the merge of its
    /// corners' `vertex_q`; the bound its parent node stores for it).
    pub(crate) leaf_q: Vec<QuantizedKdop<N>>,
    /// Per edge slot: its edge's k-DOP quantized on `grid` (the merge of its
    /// ends' `vertex_q`), contiguous so that the edge–edge loop streams.
    pub(crate) edge_q: Vec<QuantizedKdop<N>>,
    /// Per vertex slot: the inner image ([`Quantizer::quantize_inner`]) of
    /// its k-DOP on `grid`. An edge's or a face's is the merge of its
    /// vertices', computed where needed rather than stored (why:
    /// docs/notes/bvh-layout.md). Two features whose inner images overlap
    /// are a candidate without the `f64` test.
    pub(crate) vertex_qi: Vec<QuantizedKdop<N>>,
    /// The mesh vertex of each vertex slot.
    pub(crate) slot_vertex: Vec<u32>,
    /// The connected component of each vertex slot.
    pub(crate) slot_vertex_comp: Vec<u32>,
    /// The mesh edge of each edge slot (owned edges in leaf order).
    pub(crate) slot_edge: Vec<u32>,
    /// The endpoints (mesh vertices) of each edge slot's edge.
    pub(crate) slot_edge_ends: Vec<[u32; 2]>,
    /// The vertex slots of each edge slot's endpoints.
    pub(crate) edge_end_slots: Vec<[u32; 2]>,
    /// The connected component of each edge slot.
    pub(crate) slot_edge_comp: Vec<u32>,
    /// Whether the self traversal prunes leaf pairs and feature pairs by
    /// their time-aligned k-DOPs ([`KdopBvh::time_aligned`]).
    pub(crate) time_aligned: bool,
    /// Features within this distance of each other are candidates: every
    /// vertex k-DOP is grown by half of it ([`KdopBvh::min_distance`]).
    pub(crate) min_distance: f64,
    /// With `time_aligned`, per vertex slot: its position's k-DOP at
    /// `t = 0` and at `t = 1`, quantized on `grid`; empty otherwise.
    pub(crate) vertex_qt: Vec<AlignedQuantizedKdop<N>>,
    /// With `time_aligned`, per leaf: its face's k-DOP at `t = 0` and at
    /// `t = 1`, quantized on `grid` (the merges of its corners'
    /// `vertex_qt`); empty otherwise.
    pub(crate) leaf_qt: Vec<AlignedQuantizedKdop<N>>,
}

impl<const N: usize> KdopBvh<N> {
    /// The k-DOP type.
    pub const AXES: KdopAxes = match KdopAxes::from_k(2 * N) {
        Some(a) => a,
        None => panic!("N must be 3, 4, 7, 9 or 13"),
    };

    /// Whether the self traversal prunes by k-DOPs at `t = 0` and at `t = 1`
    /// ([`crate::bounding_volume::aligned_overlap`]): a pair of leaves that
    /// one slab separates at both times, in the same order, holds no
    /// colliding feature pair and emits none, and neither does a pair of
    /// features (vertex and face, two edges) so separated, though their
    /// swept k-DOPs may overlap. Then the candidates are a subset of the
    /// swept k-DOPs' (the paper's), with the same colliding pairs among
    /// them. At a minimum separation ([`KdopBvh::min_distance`]) the
    /// k-DOPs at both times are grown by `d / 2` too, and a pair so
    /// separated stays farther than `d` apart (docs/design.md §5). Set at
    /// build ([`KdopBvh::build_time_aligned`]); off by default.
    pub fn time_aligned(&self) -> bool {
        self.time_aligned
    }

    /// The minimum separation `d ≥ 0` the tree was built for: its candidates
    /// are the feature pairs whose swept k-DOPs, each grown by `d / 2`
    /// ([`Kdop::inflate_in`], rounded outward), overlap — a superset of the
    /// pairs that come within Euclidean distance `d` during the step. Set
    /// at build ([`KdopBvh::build_within`]); 0 by default (the swept k-DOPs
    /// themselves). Rebuilds and refits keep it.
    pub fn min_distance(&self) -> f64 {
        self.min_distance
    }

    /// The growth of every vertex k-DOP: `d / 2`, rounded up.
    pub(crate) fn vertex_margin(&self) -> f64 {
        half_up(self.min_distance)
    }

    /// The clusters whose leaves the traversals query: those of
    /// [`KdopBvh::clusters`] up to the first that starts at or past
    /// [`KdopBvh::first_point_leaf`], which ends them. The leaves of the
    /// rest, and all their partners (numbered above them), are points:
    /// their pairs give no candidate, and coincident points would have
    /// quadratically many.
    pub(crate) fn query_clusters(&self) -> &[u32] {
        let end = (self.clusters).partition_point(|&s| s < self.first_point_leaf);
        &self.clusters[..(end + 1).min(self.clusters.len())]
    }

    /// Number of tree nodes (`2·leaves − 1`, or 0).
    pub fn num_nodes(&self) -> usize {
        self.inner.len() + self.leaves.len()
    }

    /// Number of leaves: faces plus codimensional edges and points.
    pub fn num_leaves(&self) -> usize {
        self.leaves.len()
    }

    /// The connected components this BVH covers, ascending.
    pub fn components(&self) -> &[u32] {
        &self.components
    }

    /// Depth of the tree (a single leaf has depth 1; empty: 0).
    pub fn depth(&self) -> usize {
        fn depth<const N: usize>(inner: &[Inner<N>], c: u32) -> usize {
            if c & LEAF != 0 {
                1
            } else {
                let n = &inner[c as usize];
                1 + depth(inner, n.child[0]).max(depth(inner, n.child[1]))
            }
        }
        match (self.leaves.len(), self.inner.is_empty()) {
            (0, _) => 0,
            (_, true) => 1,
            _ => depth(&self.inner, 0),
        }
    }

    /// The exact k-DOP of a leaf's face (of its vertex, for a vertex leaf):
    /// the merge of its corners' k-DOPs.
    #[inline(always)]
    pub(crate) fn face_kdop(&self, leaf: &Leaf) -> Kdop<N> {
        let [a, b, c] = leaf.corner_slots.map(|s| &self.vertex_bv[s as usize]);
        a.merge(b).merge(c)
    }

    /// The inner image of a leaf's face: the merge of its corners' (the
    /// inner image of a merge is the merge of the inner images).
    #[inline(always)]
    pub(crate) fn face_qi(&self, leaf: &Leaf) -> QuantizedKdop<N> {
        let [a, b, c] = leaf.corner_slots.map(|s| &self.vertex_qi[s as usize]);
        a.merge(b).merge(c)
    }

    /// The vertex slots owned by leaves `l0..l1` (consecutive slots).
    #[inline(always)]
    pub(crate) fn vertex_slots(&self, l0: usize, l1: usize) -> std::ops::Range<usize> {
        self.leaf_start[l0][0] as usize..self.leaf_start[l1][0] as usize
    }

    /// The edge slots owned by leaves `l0..l1` (consecutive slots).
    #[inline(always)]
    pub(crate) fn edge_slots(&self, l0: usize, l1: usize) -> std::ops::Range<usize> {
        self.leaf_start[l0][1] as usize..self.leaf_start[l1][1] as usize
    }

    /// Whether `bv` overlaps the exact k-DOP of a leaf's face
    /// (`bv.overlaps(&self.face_kdop(leaf))`, merged in registers).
    #[inline(always)]
    pub(crate) fn face_kdop_overlaps(&self, leaf: &Leaf, bv: &Kdop<N>) -> bool {
        bv.overlaps_merge(leaf.corner_slots.map(|s| &self.vertex_bv[s as usize]))
    }

    /// Whether `bv` overlaps the exact k-DOP of an edge slot
    /// (`bv.overlaps(&self.edge_kdop(slot))`, merged in registers).
    #[inline(always)]
    pub(crate) fn edge_kdop_overlaps(&self, slot: usize, bv: &Kdop<N>) -> bool {
        bv.overlaps_merge(self.edge_end_slots[slot].map(|s| &self.vertex_bv[s as usize]))
    }

    /// Whether `q` overlaps the inner image of a leaf's face
    /// (`q.overlaps(&self.face_qi(leaf))`, merged in registers).
    #[inline(always)]
    pub(crate) fn face_qi_overlaps(&self, leaf: &Leaf, q: &QuantizedKdop<N>) -> bool {
        q.overlaps_merge(leaf.corner_slots.map(|s| &self.vertex_qi[s as usize]))
    }

    /// Whether `q` overlaps the inner image of an edge slot
    /// (`q.overlaps(&self.edge_qi(slot))`, merged in registers).
    #[inline(always)]
    pub(crate) fn edge_qi_overlaps(&self, slot: usize, q: &QuantizedKdop<N>) -> bool {
        q.overlaps_merge(self.edge_end_slots[slot].map(|s| &self.vertex_qi[s as usize]))
    }

    /// The exact k-DOP of an edge slot: the merge of its endpoints'.
    #[inline(always)]
    pub(crate) fn edge_kdop(&self, slot: usize) -> Kdop<N> {
        let [a, b] = self.edge_end_slots[slot];
        self.vertex_bv[a as usize].merge(&self.vertex_bv[b as usize])
    }

    /// The inner image of an edge slot: the merge of its endpoints'.
    #[inline(always)]
    pub(crate) fn edge_qi(&self, slot: usize) -> QuantizedKdop<N> {
        let [a, b] = self.edge_end_slots[slot];
        self.vertex_qi[a as usize].merge(&self.vertex_qi[b as usize])
    }

    /// The root's exact k-DOP (empty for an empty tree).
    pub fn root_kdop(&self) -> Kdop<N> {
        self.vertex_bv.iter().fold(Kdop::EMPTY, |b, f| b.merge(f))
    }

    /// `Ok` when `step` is a step of the mesh this BVH was built for (the
    /// same vertex count and faces) with a position per vertex in each frame.
    pub(crate) fn check_step(&self, step: &Step<'_>) -> Result<(), BroadPhaseError> {
        let m = step.mesh;
        let found = [m.num_vertices(), m.num_edges(), m.num_faces()];
        for (k, what) in ["vertices", "edges", "faces"].into_iter().enumerate() {
            if found[k] != self.mesh_size[k] {
                return Err(BroadPhaseError::TopologyMismatch {
                    what,
                    expected: self.mesh_size[k],
                    found: found[k],
                });
            }
        }
        check_same_faces(&self.faces, m.faces())?;
        check_same_codim_edges(&self.codim_edges, m.codim_edges())?;
        for (time, x) in [step.x_t0, step.x_t1].into_iter().enumerate() {
            if x.len() != m.num_vertices() {
                return Err(BroadPhaseError::FrameLength {
                    time,
                    expected: m.num_vertices(),
                    found: x.len(),
                });
            }
        }
        Ok(())
    }
}

/// `Ok` when `found` are the faces `built` (those a BVH was built for).
pub(crate) fn check_same_faces(
    built: &[[u32; 3]],
    found: &[[u32; 3]],
) -> Result<(), BroadPhaseError> {
    match crate::mesh::first_face_difference(built, found) {
        None => Ok(()),
        Some(face) => Err(BroadPhaseError::FacesMismatch { face }),
    }
}

/// `Ok` when `found` are the codimensional edges `built` (those a BVH was
/// built for).
pub(crate) fn check_same_codim_edges(
    built: &[[u32; 2]],
    found: &[[u32; 2]],
) -> Result<(), BroadPhaseError> {
    match built.iter().zip(found).position(|(a, b)| a != b) {
        None if built.len() == found.len() => Ok(()),
        i => Err(BroadPhaseError::EdgesMismatch {
            edge: i.unwrap_or(built.len().min(found.len())),
        }),
    }
}

/// `d / 2` rounded up: exact unless `d` is an odd multiple of the smallest
/// subnormal, where the next double up is taken.
pub(crate) fn half_up(d: f64) -> f64 {
    let h = d * 0.5;
    if h * 2.0 == d { h } else { h.next_up() }
}

/// Why a BVH operation was refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum BroadPhaseError {
    /// The step's mesh is not the one the BVH was built for. Rebuild the BVH
    /// for the new topology.
    #[error(
        "the step's mesh has {found} {what}, the BVH was built for {expected}; rebuild the BVH \
         for the new topology"
    )]
    TopologyMismatch {
        /// `vertices`, `edges` or `faces`.
        what: &'static str,
        /// The count the BVH was built for.
        expected: usize,
        /// The step's count.
        found: usize,
    },
    /// The step's mesh has the counts of the one the BVH was built for but
    /// other faces (an edge flip keeps every count). Rebuild the BVH for the
    /// new topology.
    #[error(
        "the step's mesh has other faces than the BVH was built for (first difference at face \
         {face}); rebuild the BVH for the new topology"
    )]
    FacesMismatch {
        /// The first face that differs.
        face: usize,
    },
    /// The step's mesh has the faces and counts of the one the BVH was
    /// built for but other codimensional edges. Rebuild the BVH for the new
    /// topology.
    #[error(
        "the step's mesh has other edges in no face than the BVH was built for (first \
         difference at codimensional edge {edge}); rebuild the BVH for the new topology"
    )]
    EdgesMismatch {
        /// The first codimensional edge that differs (numbered from 0 among
        /// them).
        edge: usize,
    },
    /// A frame of the step holds another number of positions than its mesh
    /// has vertices: a safeguard, since [`Step::new`], the only way to make
    /// a [`Step`], refuses such frames.
    #[error("the step's positions at t = {time} are {found}, its mesh has {expected} vertices")]
    FrameLength {
        /// 0 or 1.
        time: usize,
        /// The mesh's vertex count.
        expected: usize,
        /// The frame's length.
        found: usize,
    },
    /// Two BVHs of different k-DOPs cannot be traversed together. Build both
    /// with the same [`KdopAxes`].
    #[error("the BVHs use different k-DOPs ({0} and {1})")]
    AxesMismatch(KdopAxes, KdopAxes),
    /// Two BVHs that share a component would report its pairs twice (and miss
    /// none); traverse a BVH with itself through its self traversal instead.
    #[error("both BVHs cover component {0}; a cross traversal needs disjoint components")]
    OverlappingComponents(u32),
    /// Two BVHs built for different minimum separations
    /// ([`KdopBvh::min_distance`]) cannot be traversed together: their pairs
    /// would be those of neither.
    #[error("the BVHs were built for different minimum separations ({0:e} and {1:e})")]
    MinDistanceMismatch(f64, f64),
}

/// A swept k-DOP BVH with the k chosen at run time: one variant per k, each
/// monomorphic in its slab count. Match on it for static dispatch.
#[derive(Debug, Clone, PartialEq)]
pub enum Bvh {
    /// k = 6 (swept AABBs).
    Dop6(KdopBvh6),
    /// k = 8.
    Dop8(KdopBvh8),
    /// k = 14.
    Dop14(KdopBvh14),
    /// k = 18.
    Dop18(KdopBvh18),
    /// k = 26 (the paper's choice).
    Dop26(KdopBvh26),
}

/// Runs `$body` with `$b` bound to the monomorphic BVH inside a [`Bvh`].
macro_rules! with_bvh {
    ($bvh:expr, $b:ident => $body:expr) => {
        match $bvh {
            Bvh::Dop6($b) => $body,
            Bvh::Dop8($b) => $body,
            Bvh::Dop14($b) => $body,
            Bvh::Dop18($b) => $body,
            Bvh::Dop26($b) => $body,
        }
    };
}

impl Bvh {
    /// Builds the BVH of every face and every vertex in no face of `step`.
    pub fn build(step: &Step<'_>, axes: KdopAxes) -> Bvh {
        Bvh::build_components(step, axes, |_| true)
    }

    /// Builds the BVH of the connected components `c` with `keep(c)` (whole
    /// components, so that every feature's owner is inside). Pairs within and
    /// across such BVHs come from [`Bvh::self_candidates`] and
    /// [`Bvh::cross_candidates`].
    pub fn build_components(
        step: &Step<'_>,
        axes: KdopAxes,
        keep: impl Fn(u32) -> bool + Sync,
    ) -> Bvh {
        Bvh::build_with(step, axes, &keep, false, 0.0)
    }

    /// [`Bvh::build`] with the self traversal's time-aligned pruning on or
    /// off (see [`KdopBvh::time_aligned`]).
    pub fn build_time_aligned(step: &Step<'_>, axes: KdopAxes, time_aligned: bool) -> Bvh {
        Bvh::build_with(step, axes, &|_| true, time_aligned, 0.0)
    }

    /// [`KdopBvh::build_within`] for the k of `axes`, over every component.
    ///
    /// # Panics
    /// As [`KdopBvh::build_within`].
    pub fn build_within(
        step: &Step<'_>,
        axes: KdopAxes,
        time_aligned: bool,
        min_distance: f64,
    ) -> Bvh {
        Bvh::build_with(step, axes, &|_| true, time_aligned, min_distance)
    }

    /// [`KdopBvh::build_within`] for the k of `axes`.
    fn build_with(
        step: &Step<'_>,
        axes: KdopAxes,
        keep: &(impl Fn(u32) -> bool + Sync),
        time_aligned: bool,
        min_distance: f64,
    ) -> Bvh {
        let (k, t, d) = (keep, time_aligned, min_distance);
        match axes {
            KdopAxes::Dop6 => Bvh::Dop6(KdopBvh::build_within(step, k, t, d)),
            KdopAxes::Dop8 => Bvh::Dop8(KdopBvh::build_within(step, k, t, d)),
            KdopAxes::Dop14 => Bvh::Dop14(KdopBvh::build_within(step, k, t, d)),
            KdopAxes::Dop18 => Bvh::Dop18(KdopBvh::build_within(step, k, t, d)),
            KdopAxes::Dop26 => Bvh::Dop26(KdopBvh::build_within(step, k, t, d)),
        }
    }

    /// See [`KdopBvh::time_aligned`].
    pub fn time_aligned(&self) -> bool {
        with_bvh!(self, b => b.time_aligned())
    }

    /// See [`KdopBvh::min_distance`].
    pub fn min_distance(&self) -> f64 {
        with_bvh!(self, b => b.min_distance())
    }

    /// The k-DOP type.
    pub fn axes(&self) -> KdopAxes {
        match self {
            Bvh::Dop6(_) => KdopAxes::Dop6,
            Bvh::Dop8(_) => KdopAxes::Dop8,
            Bvh::Dop14(_) => KdopAxes::Dop14,
            Bvh::Dop18(_) => KdopAxes::Dop18,
            Bvh::Dop26(_) => KdopAxes::Dop26,
        }
    }

    /// Number of tree nodes.
    pub fn num_nodes(&self) -> usize {
        with_bvh!(self, b => b.num_nodes())
    }

    /// Number of leaves.
    pub fn num_leaves(&self) -> usize {
        with_bvh!(self, b => b.num_leaves())
    }

    /// Depth of the tree.
    pub fn depth(&self) -> usize {
        with_bvh!(self, b => b.depth())
    }

    /// Components covered, ascending.
    pub fn components(&self) -> &[u32] {
        with_bvh!(self, b => b.components())
    }

    /// Refits every k-DOP to a new step of the same mesh, keeping the tree.
    pub fn refit(&mut self, step: &Step<'_>) -> Result<(), BroadPhaseError> {
        with_bvh!(self, b => b.refit(step))
    }

    /// Builds a new tree of every face of `step` (a step of any mesh) with
    /// the same k, in place of this one, reusing its memory (see
    /// [`KdopBvh::rebuild_components`]); equal to [`Bvh::build`]'s.
    pub fn rebuild(&mut self, step: &Step<'_>) {
        with_bvh!(self, b => b.rebuild(step))
    }

    /// See [`KdopBvh::validate`].
    pub fn validate(&self, step: &Step<'_>) -> Result<(), InvalidBvh> {
        with_bvh!(self, b => b.validate(step))
    }

    /// Every candidate among the covered features, in traversal order, on the
    /// calling thread. See [`KdopBvh::self_candidates`].
    pub fn self_candidates(&self, sink: &mut impl CandidateSink) -> BroadPhaseStats {
        with_bvh!(self, b => b.self_candidates(sink))
    }

    /// The same candidates, found in parallel: one sink per task, returned in
    /// task order (see [`KdopBvh::self_candidates_par`]).
    pub fn self_candidates_par<S: CandidateSink + Send>(
        &self,
        make_sink: impl Fn() -> S + Sync,
    ) -> (Vec<S>, BroadPhaseStats) {
        with_bvh!(self, b => b.self_candidates_par(make_sink))
    }

    /// [`Bvh::self_candidates`] without the pairs within one group of
    /// `skip` (see [`KdopBvh::self_candidates_skipping`]).
    pub fn self_candidates_skipping(
        &self,
        skip: &[u32],
        sink: &mut impl CandidateSink,
    ) -> BroadPhaseStats {
        with_bvh!(self, b => b.self_candidates_skipping(skip, sink))
    }

    /// [`Bvh::self_candidates_skipping`] in parallel, as
    /// [`Bvh::self_candidates_par`].
    pub fn self_candidates_par_skipping<S: CandidateSink + Send>(
        &self,
        skip: &[u32],
        make_sink: impl Fn() -> S + Sync,
    ) -> (Vec<S>, BroadPhaseStats) {
        with_bvh!(self, b => b.self_candidates_par_skipping(skip, make_sink))
    }

    /// [`Bvh::self_candidates_par`] collected into one set, in exactly the
    /// order [`Bvh::self_candidates`] emits.
    pub fn self_candidate_set_par(&self) -> (CandidateSet, BroadPhaseStats) {
        let (parts, stats) = self.self_candidates_par(CandidateSet::default);
        (concat(parts), stats)
    }

    /// See [`KdopBvh::fold_edge_face_pairs`].
    pub fn fold_edge_face_pairs<T: Default + Send>(
        &self,
        visit: impl Fn(&mut T, [u32; 2]) + Sync,
        merge: impl Fn(T, T) -> T + Sync + Send,
        stop: impl Fn() -> bool + Sync,
    ) -> T {
        with_bvh!(self, b => b.fold_edge_face_pairs(visit, merge, stop))
    }

    /// Every candidate with one feature in `self` and one in `other` (two BVHs
    /// of the same mesh over disjoint components).
    pub fn cross_candidates(
        &self,
        other: &Bvh,
        sink: &mut impl CandidateSink,
    ) -> Result<BroadPhaseStats, BroadPhaseError> {
        macro_rules! arm {
            ($($v:ident),*) => {
                match (self, other) {
                    $((Bvh::$v(a), Bvh::$v(b)) => a.cross_candidates(b, sink),)*
                    _ => Err(BroadPhaseError::AxesMismatch(self.axes(), other.axes())),
                }
            };
        }
        arm!(Dop6, Dop8, Dop14, Dop18, Dop26)
    }

    /// The cross candidates, found in parallel, one sink per task in task
    /// order.
    pub fn cross_candidates_par<S: CandidateSink + Send>(
        &self,
        other: &Bvh,
        make_sink: impl Fn() -> S + Sync,
    ) -> Result<(Vec<S>, BroadPhaseStats), BroadPhaseError> {
        macro_rules! arm {
            ($($v:ident),*) => {
                match (self, other) {
                    $((Bvh::$v(a), Bvh::$v(b)) => a.cross_candidates_par(b, make_sink),)*
                    _ => Err(BroadPhaseError::AxesMismatch(self.axes(), other.axes())),
                }
            };
        }
        arm!(Dop6, Dop8, Dop14, Dop18, Dop26)
    }
}

/// Concatenates per-task sets in order.
pub fn concat(parts: Vec<CandidateSet>) -> CandidateSet {
    let vf = parts.iter().map(|p| p.vertex_face.len()).sum();
    let ee = parts.iter().map(|p| p.edge_edge.len()).sum();
    let mut out = CandidateSet {
        vertex_face: Vec::with_capacity(vf),
        edge_edge: Vec::with_capacity(ee),
    };
    for p in parts {
        out.vertex_face.extend_from_slice(&p.vertex_face);
        out.edge_edge.extend_from_slice(&p.edge_edge);
    }
    out
}

/// Checks that two BVHs of one mesh cover disjoint components.
pub(crate) fn check_disjoint(a: &[u32], b: &[u32]) -> Result<(), BroadPhaseError> {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => return Err(BroadPhaseError::OverlappingComponents(a[i])),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec3;
    use crate::mesh::TriMesh;

    /// A strip of `n` triangles over `n + 2` vertices, moving up by `dz`.
    fn strip(n: u32, dz: f64) -> (TriMesh, Vec<Vec3>, Vec<Vec3>) {
        let faces = (0..n).map(|i| [i, i + 1, i + 2]).collect();
        let x0: Vec<Vec3> = (0..n + 2)
            .map(|i| Vec3::new(f64::from(i / 2), f64::from(i % 2), 0.0))
            .collect();
        let x1 = x0.iter().map(|p| p + Vec3::new(0.0, 0.0, dz)).collect();
        (TriMesh::new(x0.len(), faces).unwrap(), x0, x1)
    }

    #[test]
    fn validate_reports_broken_slot_ranges() {
        let (mesh, x0, x1) = strip(6, 0.25);
        let step = Step::new(&mesh, &x0, &x1).unwrap();
        let bvh = KdopBvh26::build(&step);
        assert_eq!(bvh.validate(&step), Ok(()));
        assert_eq!(bvh.leaf_start.len(), bvh.leaves.len() + 1);

        // A start past the next leaf's (swapped with it), a missing end, a
        // wrong total, corner slots out of order.
        let l = (1..bvh.leaves.len())
            .find(|&l| bvh.leaf_start[l] != bvh.leaf_start[l + 1])
            .expect("some leaf after the first owns a feature");
        let mut broken = bvh.clone();
        broken.leaf_start.swap(l, l + 1);
        assert!(broken.validate(&step).is_err());
        let mut broken = bvh.clone();
        broken.leaf_start.pop();
        assert!(broken.validate(&step).is_err());
        let mut broken = bvh.clone();
        *broken.leaf_start.last_mut().unwrap() = [0, 0];
        assert!(broken.validate(&step).is_err());
        let mut broken = bvh.clone();
        // A face's corners are distinct vertices, so their slots differ.
        broken.leaves[0].corner_slots.swap(0, 1);
        assert!(broken.validate(&step).is_err());
    }

    /// The median split puts the larger half right, so a leaf right child
    /// always has a leaf sibling; a tree of another shape, otherwise valid,
    /// is refused (the traversal lists partners in ascending order only for
    /// that shape).
    #[test]
    fn validate_refuses_a_leaf_right_of_an_internal_node() {
        let (mesh, x0, x1) = strip(3, 0.25);
        let step = Step::new(&mesh, &x0, &x1).unwrap();
        let bvh = KdopBvh26::build(&step);
        assert_eq!(bvh.validate(&step), Ok(()));
        // Median split of 3 leaves: root = [0, node 1 = [1, 2]].
        assert_eq!(bvh.inner[0].child, [LEAF, 1]);
        assert_eq!(bvh.inner[1].child, [LEAF | 1, LEAF | 2]);

        // The same leaves as root = [node 1 = [0, 1], 2].
        let mut other = bvh.clone();
        let q = &bvh.leaf_q;
        other.inner[1].child = [LEAF, LEAF | 1];
        other.inner[1].last = [0, 1];
        other.inner[1].bv = [q[0], q[1]];
        other.inner[0].child = [1, LEAF | 2];
        other.inner[0].last = [1, 2];
        other.inner[0].bv = [q[0].merge(&q[1]), q[2]];
        let err = other.validate(&step).unwrap_err().0;
        assert!(
            err.starts_with("node 0: a leaf right of an internal node"),
            "{err}"
        );
    }

    /// The tree of `bvh`'s leaves in which every internal node has its
    /// leaf on the left and the rest on the right: `n − 1` internal nodes
    /// deep.
    fn caterpillar(bvh: &KdopBvh26) -> KdopBvh26 {
        let (q, n) = (&bvh.leaf_q, bvh.leaves.len() as u32);
        let mut t = bvh.clone();
        let mut right = q[n as usize - 1];
        for i in (0..n - 1).rev() {
            let next = if i + 2 == n { LEAF | (n - 1) } else { i + 1 };
            t.inner[i as usize] = Inner {
                bv: [q[i as usize], right],
                child: [LEAF | i, next],
                last: [i, n - 1],
            };
            right = right.merge(&q[i as usize]);
        }
        super::super::bvh_build::cluster_starts(&t.inner, n as usize, &mut t.clusters);
        t
    }

    /// The clusters of a median-split tree are its subtrees of `CLUSTER / 2`
    /// to `CLUSTER` leaves, in leaf order; a tree of at most `CLUSTER`
    /// leaves is one cluster. Clusters that are no partition, or not the
    /// tree's subtrees, are refused.
    #[test]
    fn clusters_are_the_largest_subtrees_of_at_most_cluster_leaves() {
        let (mesh, x0, x1) = strip(CLUSTER as u32, 0.25);
        let step = Step::new(&mesh, &x0, &x1).unwrap();
        assert_eq!(KdopBvh26::build(&step).clusters, [0, CLUSTER as u32]);

        let (mesh, x0, x1) = strip(300, 0.25);
        let step = Step::new(&mesh, &x0, &x1).unwrap();
        let bvh = KdopBvh26::build(&step);
        assert_eq!(bvh.validate(&step), Ok(()));
        // The leaf ranges `(first, last)` of the internal nodes.
        fn ranges(t: &KdopBvh26, i: usize, first: u32, out: &mut Vec<(u32, u32)>) {
            let n = &t.inner[i];
            out.push((first, n.last[1]));
            for (c, f) in [(0, first), (1, n.last[0] + 1)] {
                if n.child[c] & LEAF == 0 {
                    ranges(t, n.child[c] as usize, f, out);
                }
            }
        }
        let mut subtrees = Vec::new();
        ranges(&bvh, 0, 0, &mut subtrees);
        let c = &bvh.clusters;
        assert_eq!((c[0], c[c.len() - 1]), (0, 300));
        for w in c.windows(2) {
            let size = (w[1] - w[0]) as usize;
            assert!((CLUSTER / 2..=CLUSTER).contains(&size), "{w:?}");
            assert!(subtrees.contains(&(w[0], w[1] - 1)), "{w:?}");
        }

        let mut broken = bvh.clone();
        broken.clusters[1] += 1;
        let err = broken.validate(&step).unwrap_err().0;
        assert!(err.contains("not the tree's largest subtrees"), "{err}");
        let mut broken = bvh.clone();
        broken.clusters.remove(1);
        let err = broken.validate(&step).unwrap_err().0;
        assert!(err.contains("not 1 to"), "{err}");
        let mut broken = bvh;
        broken.clusters.pop();
        let err = broken.validate(&step).unwrap_err().0;
        assert!(err.contains("do not run from leaf 0"), "{err}");
    }

    /// The leaves past the first point leaf must be points' (the
    /// traversals query none of them), and it must lie within the leaves.
    #[test]
    fn validate_refuses_faces_past_the_first_point_leaf() {
        let (mesh, x0, x1) = strip(40, 0.25);
        let step = Step::new(&mesh, &x0, &x1).unwrap();
        let bvh = KdopBvh26::build(&step);
        assert_eq!(bvh.first_point_leaf as usize, bvh.leaves.len());
        assert_eq!(bvh.query_clusters(), &bvh.clusters[..]);
        let mut broken = bvh.clone();
        broken.first_point_leaf = 7;
        let err = broken.validate(&step).unwrap_err().0;
        assert!(err.contains("leaf 7 holds a face or an edge"), "{err}");
        let mut broken = bvh;
        broken.first_point_leaf += 1;
        let err = broken.validate(&step).unwrap_err().0;
        assert!(err.contains("is past the"), "{err}");
    }

    /// A tree as deep as the traversal's stack takes passes; one internal
    /// node deeper is refused.
    #[test]
    fn validate_refuses_a_tree_deeper_than_the_traversal_stack() {
        for (n, ok) in [(MAX_DEPTH + 1, true), (MAX_DEPTH + 2, false)] {
            let (mesh, x0, x1) = strip(n as u32, 0.25);
            let step = Step::new(&mesh, &x0, &x1).unwrap();
            let bvh = KdopBvh26::build(&step);
            let deep = caterpillar(&bvh);
            assert_eq!(deep.root_bv, bvh.root_bv);
            match deep.validate(&step) {
                Ok(()) => assert!(ok, "{n} leaves"),
                Err(e) => {
                    assert!(!ok, "{n} leaves: {e}");
                    assert!(e.0.contains("internal nodes deep"), "{e}");
                }
            }
        }
    }
}
