//! What the broad phase emits: vertex–face and edge–edge candidate pairs (mesh
//! indices, not global IDs), the sink they go to, and the counters of a run.
//!
//! docs/design.md §6 (the candidate set) and §10 (sinks per task, concatenated
//! in order; cancellation through [`CandidateSink::stopped`]).

/// A vertex–face candidate: vertex `v` is not a corner of face `f`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VfPair {
    /// Vertex index.
    pub v: u32,
    /// Face index.
    pub f: u32,
}

/// An edge–edge candidate in canonical order `e0 < e1`; the edges share no
/// endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EePair {
    /// The smaller edge index.
    pub e0: u32,
    /// The larger edge index.
    pub e1: u32,
}

impl EePair {
    /// The pair of two distinct edges, in canonical order.
    #[inline(always)]
    pub fn new(a: u32, b: u32) -> EePair {
        debug_assert_ne!(a, b);
        EePair {
            e0: a.min(b),
            e1: a.max(b),
        }
    }
}

/// Either kind of candidate, for closure sinks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Candidate {
    /// A vertex–face pair.
    VertexFace(VfPair),
    /// An edge–edge pair.
    EdgeEdge(EePair),
}

/// Receives candidates as the broad phase finds them, in batches (slices of a
/// few hundred to a few thousand pairs, so that a consumer can process them in
/// tight loops). Implemented for every `FnMut(Candidate)` closure (called once
/// per pair) and for [`CandidateSet`]; a pipeline stage can implement it
/// directly.
pub trait CandidateSink {
    /// A batch of vertex–face candidates.
    fn vertex_face(&mut self, pairs: &[VfPair]);
    /// A batch of edge–edge candidates.
    fn edge_edge(&mut self, pairs: &[EePair]);

    /// Whether the sink wants no more candidates (a cancelled step): the
    /// parallel traversals then skip the tasks they have not begun. `false`
    /// unless the sink says otherwise.
    fn stopped(&self) -> bool {
        false
    }
}

impl<F: FnMut(Candidate)> CandidateSink for F {
    #[inline]
    fn vertex_face(&mut self, pairs: &[VfPair]) {
        for &p in pairs {
            self(Candidate::VertexFace(p))
        }
    }

    #[inline]
    fn edge_edge(&mut self, pairs: &[EePair]) {
        for &p in pairs {
            self(Candidate::EdgeEdge(p))
        }
    }
}

/// Candidates collected into two lists.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CandidateSet {
    /// Vertex–face pairs.
    pub vertex_face: Vec<VfPair>,
    /// Edge–edge pairs.
    pub edge_edge: Vec<EePair>,
}

impl CandidateSet {
    /// Sorts both lists (vertex then face; `e0` then `e1`), so that sets from
    /// different algorithms compare with `==`.
    pub fn sort(&mut self) {
        self.vertex_face.sort_unstable();
        self.edge_edge.sort_unstable();
    }

    /// This set with both lists sorted ([`CandidateSet::sort`]).
    pub fn sorted(mut self) -> CandidateSet {
        self.sort();
        self
    }

    /// Appends another set's lists to this one's.
    pub fn append(&mut self, other: &mut CandidateSet) {
        self.vertex_face.append(&mut other.vertex_face);
        self.edge_edge.append(&mut other.edge_edge);
    }

    /// Total number of pairs.
    pub fn len(&self) -> usize {
        self.vertex_face.len() + self.edge_edge.len()
    }

    /// Whether both lists are empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl CandidateSink for CandidateSet {
    #[inline]
    fn vertex_face(&mut self, pairs: &[VfPair]) {
        self.vertex_face.extend_from_slice(pairs);
    }

    #[inline]
    fn edge_edge(&mut self, pairs: &[EePair]) {
        self.edge_edge.extend_from_slice(pairs);
    }
}

/// Counters of one broad-phase run, returned by value (no global state).
///
/// `*_same_component` counts the candidates whose two features lie in one
/// connected component of the mesh ([`crate::mesh::TriMesh::component`]):
/// self-collision candidates; the rest are inter-object candidates.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BroadPhaseStats {
    /// Bounding-volume tests between a leaf and a tree node (internal or
    /// leaf).
    pub node_tests: u64,
    /// Leaf pairs reached (triangle–triangle, at the paper's leaf level) whose
    /// node k-DOPs overlap. The node k-DOPs are rounded outward, so this can
    /// exceed the number of pairs whose exact k-DOPs overlap.
    pub leaf_pairs: u64,
    /// Leaf pairs whose node k-DOPs overlap but whose time-aligned k-DOPs
    /// do not, dropped before the feature level (only with
    /// [`KdopBvh::time_aligned`](super::KdopBvh::time_aligned); not in
    /// `leaf_pairs`). Feature pairs dropped there are not counted apart,
    /// nor the pairs of leaves dropped with their whole cluster before
    /// the node k-DOPs' test (`cluster_partners_pruned`): so
    /// `leaf_pairs + leaf_pairs_pruned` is at most the swept traversal's
    /// `leaf_pairs`.
    pub leaf_pairs_pruned: u64,
    /// Partners of a cluster of consecutive leaves (one entry for all the
    /// cluster's leaves) dropped because their time-aligned k-DOPs are
    /// apart from the merge of the cluster's (only with
    /// [`KdopBvh::time_aligned`](super::KdopBvh::time_aligned); the self
    /// traversal's clusters, see `bvh_traverse`).
    pub cluster_partners_pruned: u64,
    /// Feature bounding-volume tests below the leaves (vertex–face and
    /// edge–edge), adjacency excluded or not.
    pub feature_tests: u64,
    /// Vertex–face candidates emitted.
    pub vf_candidates: u64,
    /// Edge–edge candidates emitted.
    pub ee_candidates: u64,
    /// Vertex–face candidates within one connected component.
    pub vf_same_component: u64,
    /// Edge–edge candidates within one connected component.
    pub ee_same_component: u64,
}

impl BroadPhaseStats {
    /// Vertex–face candidates between different components.
    pub fn vf_inter_component(&self) -> u64 {
        self.vf_candidates - self.vf_same_component
    }

    /// Edge–edge candidates between different components.
    pub fn ee_inter_component(&self) -> u64 {
        self.ee_candidates - self.ee_same_component
    }
}

impl std::ops::AddAssign for BroadPhaseStats {
    fn add_assign(&mut self, o: BroadPhaseStats) {
        self.node_tests += o.node_tests;
        self.leaf_pairs += o.leaf_pairs;
        self.leaf_pairs_pruned += o.leaf_pairs_pruned;
        self.cluster_partners_pruned += o.cluster_partners_pruned;
        self.feature_tests += o.feature_tests;
        self.vf_candidates += o.vf_candidates;
        self.ee_candidates += o.ee_candidates;
        self.vf_same_component += o.vf_same_component;
        self.ee_same_component += o.ee_same_component;
    }
}
