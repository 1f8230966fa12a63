//! Stage 4, exact CCD: vertex–face and edge–edge solvers.
//!
//! - [`vertex_face()`], [`edge_edge()`]: the `exact` solver — a certified
//!   floating-point fast path with an exact fallback; zero false negatives and
//!   zero false positives.
//! - [`vertex_face_within()`], [`edge_edge_within()`]: the same with a
//!   minimum separation `d` (docs/design.md §5), a certified fast path with
//!   the exact fallback [`oracle::min_distance`].
//! - [`oracle`]: the exact big-integer method alone (the reference in tests).
//! - [`point_triangle_distance()`], [`segment_segment_distance()`]: the
//!   distance of two features at one instant, in doubles (not certified),
//!   to weigh the pairs that proximity finds exactly.
//! - [`segment_pierces_triangle()`] and [`orient3d()`]: static exact
//!   predicates at one instant, for meshes that already interpenetrate
//!   (an edge through a triangle, which no vertex–face or edge–edge pair
//!   touches).
//! - [`provot`]: the classical floating-point cubic solver (Provot 1997), the
//!   reproduction baseline; it can miss collisions.

mod certified;
mod collinear;
pub(crate) mod conditions;
mod coplanar;
mod det2;
mod distance;
mod edge_edge;
mod end_conditions;
mod leaf;
mod min_distance;
pub mod oracle;
mod piercing;
mod planar;
pub mod provot;
pub(crate) mod roots;
mod separation;
mod solver;
mod start_contact;
mod static_tier;
mod toi;
mod vertex_face;

pub use crate::pair_kernel::QueryKind;
pub use distance::{point_triangle_distance, segment_segment_distance};
pub use edge_edge::{edge_edge, edge_edge_traced};
pub(crate) use edge_edge::{edge_edge_certified_with, edge_edge_traced_with};
pub(crate) use min_distance::{
    LOOSE_MARGIN, WithinVerdict, edge_edge_within_traced_with, edge_edge_within_verdict_with,
    touching_lower_end, vertex_face_within_traced_with, vertex_face_within_verdict_with,
};
pub use min_distance::{
    SeparationError, edge_edge_within, edge_edge_within_traced, validate_separation,
    vertex_face_within, vertex_face_within_traced,
};
pub use piercing::{orient3d, orient3d_exact, segment_pierces_triangle};
pub use solver::{Solver, UnknownSolver, min_distance_solvers};
pub use toi::{EXACT_TOI_WIDTH, SolverTier, Toi};
pub use vertex_face::{vertex_face, vertex_face_traced};
pub(crate) use vertex_face::{vertex_face_certified_with, vertex_face_traced_with};
