//! Stage 3, low-level culling: pure pair predicates that remove vertex–face
//! and edge–edge candidates which provably cannot collide.
//!
//! Every filter states a one-sided guarantee: [`Verdict::Culled`] ⇒ no contact
//! in `[0, 1]`, also under floating-point rounding. Filters may pass pairs that
//! do not collide; they never drop one that does.

mod apart_until;
mod chain;
mod codim_points;
mod cubic;
mod dnf;
mod dnf_within;
mod points;
mod slpf;
mod slpf_table;
mod verdict;
mod window;

pub use apart_until::apart_until;
pub use chain::{CulledBy, FilterSet, UnknownFilterSet};
pub use codim_points::{point_point_apart, point_segment_apart};
pub use dnf::{dnf_edge_edge, dnf_vertex_face};
pub use dnf_within::dnf_within;
pub use points::{Points, points};
pub use slpf::{PAPER_DIRECTIONS, slpf_edge_edge, slpf_vertex_face};
pub use slpf_table::SlpfTable;
pub use verdict::Verdict;
pub use window::{
    WINDOW_DEPTH, WITHIN_WINDOW_DEPTH, dnf_window_edge_edge, dnf_window_vertex_face,
    dnf_window_within, window_edge_edge, window_vertex_face, window_within,
};
