//! 2D polygon collision resolution: the separating-axis method for a
//! non-convex polygon without decomposition, with a minimum translation
//! vector (Fayzrakhmanov, Murzakaev, Shvetsov, Mekhonoshin & Khabibulin,
//! *Inzhenernyj vestnik Dona*, ≈2015), its two baselines (SAT and GJK/EPA
//! over a convex decomposition), and the oracles that judge them.
//!
//! ```text
//! polygon (validated) ─▶ decompose (ear clipping + Hertel–Mehlhorn)
//!     ├─▶ sat_nonconvex       (the paper: A whole vs convex pieces of B)
//!     ├─▶ sat_decomposed      (baseline: SAT on piece pairs)
//!     └─▶ gjk_epa_decomposed  (baseline: parry2d GJK/EPA on piece pairs)
//! oracles: reference (exact intersection), penetration (minimum translation)
//! evaluate: agreement, disagreement classes, translation quality
//! ```

pub mod decompose;
pub mod evaluate;
pub mod generate;
pub mod gjk_epa_decomposed;
pub mod penetration;
#[allow(clippy::module_inception)]
pub mod polygon;
pub mod predicates;
pub mod reference;
pub mod resolution;
pub mod sat_decomposed;
pub mod sat_nonconvex;

pub use decompose::{ConvexDecomposition, DecomposeError, DecompositionKind};
pub use evaluate::{Method, PreparedPair};
pub use gjk_epa_decomposed::{BadEdge, ParryPieceError, ParryPieces};
pub use polygon::{Polygon, PolygonError, Vec2};
pub use reference::{Containment, Relation};
pub use resolution::{Resolution, ResolutionStats};
pub use sat_nonconvex::Step11Reading;
