//! What one pipeline step reports: counts per stage, culling rates, stage
//! times and the earliest time of impact (serialisable for `--json` and the
//! replay logs).

use serde::{Deserialize, Serialize};

use crate::filter::FilterSet;
use crate::mesh::{Feature, TriMesh};
use crate::narrow_phase::Solver;
use crate::pair_kernel::QueryKind;

/// Counts of one pair kind (vertex–face or edge–edge) through the stages.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct KindCounts {
    /// Candidates from the BVH.
    pub candidates: u64,
    /// Candidates whose two features are in one connected component
    /// (self-collision candidates; the rest are between objects).
    pub candidates_same_component: u64,
    /// Removed by SLPF.
    pub culled_slpf: u64,
    /// Removed by DNF (after SLPF, when both run).
    pub culled_dnf: u64,
    /// Left after the paper's filters (SLPF, DNF).
    pub after_filter: u64,
    /// Removed by the coplanar-window filter, which runs on the
    /// `after_filter` pairs when enabled
    /// ([`super::PipelineConfig::window`]); the exact test runs on the
    /// remaining `after_filter − culled_window`.
    #[serde(default)]
    pub culled_window: u64,
    /// Colliding in `[0, 1]`.
    pub colliding: u64,
    /// Colliding pairs within one connected component.
    pub colliding_same_component: u64,
    /// Share of the candidates the paper's filters removed, in percent (the
    /// paper's "culling rate", Tables 1–2; without the coplanar-window
    /// filter).
    pub culling_rate_percent: f64,
    /// Candidates the exact solver's float fast path left to the exact
    /// fallback. At `min_distance > 0` this depends on
    /// [`PipelineConfig::collect_pairs`](crate::pipeline::PipelineConfig::collect_pairs):
    /// kept pairs each get a narrow bracket of their time, which the fallback
    /// may have to decide; otherwise only the brackets that may hold the
    /// step's earliest time are narrowed.
    pub exact_fallbacks: u64,
}

impl KindCounts {
    pub(crate) fn finish(&mut self) {
        self.culling_rate_percent = culling_rate_percent(self.candidates, self.after_filter);
    }
}

/// The paper's culling rate: the share of `candidates` that the filters
/// removed, leaving `after_filter`, in percent (0 without candidates).
pub(crate) fn culling_rate_percent(candidates: u64, after_filter: u64) -> f64 {
    if candidates > 0 {
        100.0 * (candidates - after_filter) as f64 / candidates as f64
    } else {
        0.0
    }
}

/// What the BVH's traversal did to find the candidates (its tests, not the
/// candidates themselves: those are in [`KindCounts`]). Records made before
/// these counts existed read as zeros.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BvhCounts {
    /// k-DOP tests of a query (a leaf, or a cluster of leaves) against a
    /// tree node or a leaf.
    pub node_tests: u64,
    /// Pairs of leaves (triangles) reached, whose features were then
    /// tested.
    pub leaf_pairs: u64,
    /// Leaf pairs dropped by time-aligned pruning before their features
    /// were tested (besides those dropped with a whole cluster).
    pub leaf_pairs_pruned: u64,
    /// Feature k-DOP tests below the leaves (vertex–face and edge–edge).
    pub feature_tests: u64,
}

/// Candidates and colliding pairs of one kind of the codimensional points'
/// pairs ([`PointCounts`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairCounts {
    /// Pairs whose swept k-DOPs overlap.
    pub candidates: u64,
    /// Colliding in `[0, 1]`.
    pub colliding: u64,
}

/// The pairs of the codimensional points (vertices in no face and no
/// edge; [`crate::broad_phase::point_candidates`]), decided by the
/// edge–edge test with each point as a zero-length edge, without filters.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PointCounts {
    /// A point and a codimensional edge.
    pub vertex_edge: PairCounts,
    /// Two points.
    pub vertex_vertex: PairCounts,
}

impl std::ops::AddAssign for PointCounts {
    /// Sums the counts (a replay's totals over its steps).
    fn add_assign(&mut self, other: Self) {
        for (a, b) in [
            (&mut self.vertex_edge, other.vertex_edge),
            (&mut self.vertex_vertex, other.vertex_vertex),
        ] {
            a.candidates += b.candidates;
            a.colliding += b.colliding;
        }
    }
}

/// How many bodies a step's mesh has ([`super::Bodies`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BodyCounts {
    /// Bodies with a vertex in the mesh.
    pub bodies: u64,
    /// Those that collide with themselves.
    pub self_colliding: u64,
}

/// Wall time of each stage, milliseconds. Traversal, filters and exact
/// tests run fused, in the traversal's tasks, so only `bvh` and `total` are
/// measured apart: `traverse`, `filter` and `solve` are **estimates** that
/// split the fused stage's wall time by the filters' and the tests' busy
/// times, summed over the tasks and spread over the workers).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct StageTimes {
    /// Building the BVH or refitting it ([`StepReport::bvh`] says which); the
    /// filters' per-vertex arrays are written alongside, on the same
    /// workers, and count here (alone, when the candidates were given).
    /// (Records made before the name read `refit`.)
    #[serde(alias = "refit")]
    pub bvh: f64,
    /// BVH traversal: candidate generation (estimated; with candidates
    /// given, the rest of the fused stage: chunking and gathering).
    pub traverse: f64,
    /// Low-level filters (estimated).
    pub filter: f64,
    /// Exact tests (estimated), with the codimensional points' pairs (their
    /// candidates and tests, measured).
    pub solve: f64,
    /// The whole step.
    pub total: f64,
}

/// What a step did with the BVH.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BvhMode {
    /// Built it from the step's positions.
    Build,
    /// Refitted the one kept from the previous step (same topology).
    Refit,
    /// Used none: the caller gave the candidates
    /// ([`super::Pipeline::step_on_candidates`]).
    Given,
}

impl BvhMode {
    /// Name in reports and JSON.
    pub fn name(self) -> &'static str {
        match self {
            BvhMode::Build => "build",
            BvhMode::Refit => "refit",
            BvhMode::Given => "given",
        }
    }
}

impl std::fmt::Display for BvhMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The report of one step (the JSON of `ccdlab step --json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepReport {
    /// The mesh's vertex count, `#V`.
    pub vertices: usize,
    /// The mesh's edge count, `#E`: the faces' edges, each once, then the
    /// codimensional edges.
    pub edges: usize,
    /// The mesh's face count, `#F`.
    pub faces: usize,
    /// The `k` of the BVH's k-DOPs (26 for the paper's 26-DOP,
    /// [`super::PipelineConfig::axes`]).
    pub k: usize,
    /// Filter setting that ran (with [`super::TimeAligned::Auto`], the
    /// configured one without SLPF when the BVH pruned).
    pub filters: FilterSet,
    /// Whether the coplanar-window filter ran after the paper's filters
    /// ([`super::PipelineConfig::window`]); records made before it existed
    /// read as `false`.
    #[serde(default)]
    pub window: bool,
    /// Whether the BVH pruned by time-aligned k-DOPs
    /// ([`super::PipelineConfig::time_aligned`]; with
    /// [`super::TimeAligned::Auto`], what it chose); records made before it
    /// existed read as `false`.
    #[serde(default)]
    pub time_aligned: bool,
    /// The test that decided the pairs the filters passed
    /// ([`super::PipelineConfig::solver`]; exact unless a baseline was
    /// chosen).
    pub solver: Solver,
    /// The minimum separation the step was decided for
    /// ([`super::PipelineConfig::min_distance`]); absent from the JSON at 0
    /// (contact), as in records made before it existed.
    #[serde(default, skip_serializing_if = "is_zero_distance")]
    pub min_distance: f64,
    /// Worker threads.
    pub threads: usize,
    /// The mesh's bodies, when the step tested pairs by body
    /// ([`super::PipelineConfig::bodies`]); absent from the JSON when it
    /// tested every pair, as in records made before bodies existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bodies: Option<BodyCounts>,
    /// Whether this step built the BVH or refitted it, or was given its
    /// candidates.
    pub bvh: BvhMode,
    /// Vertex–face counts.
    pub vf: KindCounts,
    /// Edge–edge counts.
    pub ee: KindCounts,
    /// The codimensional points' pairs, when the mesh has points; absent
    /// from the JSON otherwise, as in records made before they existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<PointCounts>,
    /// The BVH traversal's tests.
    #[serde(default)]
    pub bvh_tests: BvhCounts,
    /// The lower end of the earliest time of impact's bracket: the least
    /// [`ContactPair::toi_lower`] over all colliding pairs (the first time
    /// two features touch, or come within the minimum separation `d > 0`);
    /// with an exact solver never later than the true time, and it may
    /// equal it. `Some(0.0)`
    /// when a pair touches, or is within `d`, at `t = 0`; `None` without
    /// contact (`null` in the JSON).
    ///
    /// As a simulator's step size along `x_t1 − x_t0` (the README's *time
    /// of impact as a step size*): `None` allows the whole step; otherwise
    /// step to a fraction of it (IPC's `0.8·toi`, say) with
    /// [`super::PipelineConfig::min_distance`] `d > 0` to keep a gap, since
    /// the positions at `toi` itself may touch; `Some(0.0)` means no step
    /// can be taken from these positions. The rounded positions of the
    /// shortened step are certified by a step to them, if need be.
    pub toi: Option<f64>,
    /// The upper end of the earliest time of impact's bracket: with an
    /// exact solver the true time lies in `[toi, toi_upper]` (the least upper end over the
    /// colliding pairs' brackets); `None` without contact.
    pub toi_upper: Option<f64>,
    /// Stage times.
    pub time_ms: StageTimes,
}

impl StepReport {
    /// How many pairs collide: vertex–face, edge–edge and the codimensional
    /// points'.
    pub fn colliding(&self) -> u64 {
        let points = self
            .points
            .map_or(0, |p| p.vertex_edge.colliding + p.vertex_vertex.colliding);
        self.vf.colliding + self.ee.colliding + points
    }
}

/// Whether a minimum separation is contact (`0` or `-0`): such a
/// `min_distance` is left out of the JSON.
pub(crate) fn is_zero_distance(d: &f64) -> bool {
    *d == 0.0
}

/// One colliding pair, by the data sets' global IDs (vertex `i`, edge
/// `#V + j`, face `#V + #E + k`; [`TriMesh::global_id`]).
/// [`ContactPair::vertex_face`], [`ContactPair::edge_edge`],
/// [`ContactPair::vertex_edge`] and [`ContactPair::vertex_vertex`] give
/// the mesh's own indices.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ContactPair {
    /// The query that decided it: vertex–face, or edge–edge (also for a
    /// codimensional point's pair, the point a zero-length edge).
    pub kind: QueryKind,
    /// Global ID of the first feature (vertex for VF, smaller edge for EE,
    /// the point for a point's pair, the smaller one for two points).
    pub a: u64,
    /// Global ID of the second feature (face for VF).
    pub b: u64,
    /// Lower bound on the pair's earliest contact time.
    pub toi_lower: f64,
    /// Upper bound on the pair's earliest contact time.
    pub toi_upper: f64,
}

impl ContactPair {
    /// A vertex–face pair as `(vertex, face)` indices of `mesh` (the mesh of
    /// the step that found it); `None` for an edge–edge pair, or when the
    /// IDs are no such features of `mesh`.
    pub fn vertex_face(&self, mesh: &TriMesh) -> Option<(u32, u32)> {
        match (self.kind, mesh.feature(self.a)?, mesh.feature(self.b)?) {
            (QueryKind::VertexFace, Feature::Vertex(v), Feature::Face(f)) => Some((v, f)),
            _ => None,
        }
    }

    /// An edge–edge pair as indices into `mesh.edges()` (the mesh of the
    /// step that found it); `None` for another pair, or when the IDs are no
    /// edges of `mesh`.
    pub fn edge_edge(&self, mesh: &TriMesh) -> Option<(u32, u32)> {
        match (self.kind, mesh.feature(self.a)?, mesh.feature(self.b)?) {
            (QueryKind::EdgeEdge, Feature::Edge(a), Feature::Edge(b)) => Some((a, b)),
            _ => None,
        }
    }

    /// A codimensional point and a codimensional edge as `(vertex, edge)`
    /// indices of `mesh` (the edge into `mesh.edges()`); `None` for another
    /// pair.
    pub fn vertex_edge(&self, mesh: &TriMesh) -> Option<(u32, u32)> {
        match (self.kind, mesh.feature(self.a)?, mesh.feature(self.b)?) {
            (QueryKind::EdgeEdge, Feature::Vertex(v), Feature::Edge(e)) => Some((v, e)),
            _ => None,
        }
    }

    /// Two codimensional points as vertex indices of `mesh`, the smaller
    /// first; `None` for another pair.
    pub fn vertex_vertex(&self, mesh: &TriMesh) -> Option<(u32, u32)> {
        match (self.kind, mesh.feature(self.a)?, mesh.feature(self.b)?) {
            (QueryKind::EdgeEdge, Feature::Vertex(v), Feature::Vertex(w)) => Some((v, w)),
            _ => None,
        }
    }
}
