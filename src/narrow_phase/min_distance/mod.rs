//! Minimum-separation CCD (docs/design.md §5): the earliest time at which a
//! moving vertex comes within a distance `d` of a moving triangle, or two
//! moving edges within `d` of each other; `d = 0` is ordinary contact.
//! Features held exactly `d` apart along a coordinate axis are the contact
//! of their projections ([`axis_planes`]); the rest takes a certified
//! floating-point fast path ([`filtered`]) and, for what it cannot decide,
//! the same query scaled into the filter range where it is out of it, exact
//! steps near the start ([`near_start`]) and the exact oracle
//! ([`super::oracle::min_distance`]). A pipeline step that keeps no pairs
//! asks for verdicts whose brackets may be loose instead ([`verdict`]).
//! docs/design.md §5 lists the tiers in order.

mod axis_planes;
mod certificates;
mod distance_arg;
mod edge_edge;
mod filtered;
mod near_start;
mod nearest;
mod plane;
pub mod search;
mod verdict;
mod vertex_face;
mod within_at_start;

#[cfg(test)]
mod tests;

pub use distance_arg::{SeparationError, validate_separation};
pub(crate) use edge_edge::edge_edge_within_traced_with;
pub use edge_edge::{edge_edge_within, edge_edge_within_traced};
pub(crate) use nearest::on_segment;
pub(crate) use verdict::{
    LOOSE_MARGIN, WithinVerdict, edge_edge_within_verdict_with, touching_lower_end,
    vertex_face_within_verdict_with,
};
pub(crate) use vertex_face::vertex_face_within_traced_with;
pub use vertex_face::{vertex_face_within, vertex_face_within_traced};
