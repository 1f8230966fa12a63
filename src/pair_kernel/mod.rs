//! Pair kernels shared by the filters and the solvers: pure functions over a
//! query's eight points (`v_t0, f0_t0, f1_t0, f2_t0, v_t1, …` or `ea0_t0,
//! ea1_t0, eb0_t0, eb1_t0, ea0_t1, …`), defined once: the coplanarity cubic
//! in Bernstein form with certified bounds (DNF and the solvers), separation
//! along a direction (SLPF and the solvers), and the query's kind.

mod coplanarity;
mod query_kind;
mod separation;

pub(crate) use coplanarity::coplanarity_of_differences;
pub use coplanarity::{bernstein_from_scaled, certified_common_sign, coplanarity_scaled};
pub use query_kind::QueryKind;
pub use separation::{edge_edge_apart_along, vertex_face_apart_along};
