//! Stage 2, broad phase: vertex–face and edge–edge candidate pairs from a BVH
//! of swept k-DOPs with the feature level of Wan, Fu & Yao 2022, §1.1, the
//! brute-force oracle it is tested against, the candidates of the
//! codimensional points (`point_pairs`), and those of a mesh's static
//! intersections (edge–face pairs: from the BVH, `bvh_edge_face`, with
//! `brute_force_edge_face`'s sweep as its oracle).

mod brute_force;
mod brute_force_edge_face;
mod bvh;
mod bvh_build;
mod bvh_descent;
mod bvh_edge_face;
mod bvh_feature_level;
mod bvh_refit;
mod bvh_traverse;
mod bvh_validate;
mod candidate;
mod point_pairs;

pub use brute_force::{brute_force_candidates, brute_force_candidates_within};
pub use brute_force_edge_face::fold_edge_face_candidates;
pub use bvh::{
    BroadPhaseError, Bvh, KdopBvh, KdopBvh6, KdopBvh8, KdopBvh14, KdopBvh18, KdopBvh26, concat,
};
pub use bvh_traverse::NOT_SKIPPED;
pub use bvh_validate::InvalidBvh;
pub use candidate::{BroadPhaseStats, Candidate, CandidateSet, CandidateSink, EePair, VfPair};
pub use point_pairs::{PointCandidates, fold_point_candidates, point_candidates};
