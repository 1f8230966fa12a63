//! Quantities shared by the filters and the solvers, defined once over a
//! query's eight points.

mod coplanarity;
mod query_kind;

pub use coplanarity::{bernstein_from_scaled, certified_common_sign, coplanarity_scaled};
pub use query_kind::QueryKind;
