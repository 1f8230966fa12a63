//! Quantities shared by the filters and the solvers, defined once over a
//! query's eight points.

mod coplanarity;

pub use coplanarity::{bernstein_from_scaled, certified_common_sign, coplanarity_scaled};
