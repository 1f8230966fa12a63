//! The exact oracle for minimum-separation CCD (docs/design.md §5): the
//! earliest `t ∈ [0, 1]` at which two moving features come within a distance
//! `d`, decided in exact arithmetic for every configuration, degenerate ones
//! included. The reference that [`crate::narrow_phase::vertex_face_within`]
//! and [`crate::narrow_phase::edge_edge_within`] fall back to and are tested
//! against; it shares no code with their floating-point tiers.

mod edge_edge;
mod regions;
mod vertex_face;

pub use edge_edge::edge_edge_within;
pub use vertex_face::vertex_face_within;
