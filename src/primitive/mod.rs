//! Quantities shared by the filters and the solvers, defined once over a
//! query's eight points.

mod coplanarity;
mod query_kind;
mod separation;

pub use coplanarity::{bernstein_from_scaled, certified_common_sign, coplanarity_scaled};
pub use query_kind::QueryKind;
pub use separation::{edge_edge_apart_along, vertex_face_apart_along};
