//! Exact arithmetic for the oracles: integer polynomials, dyadic rationals,
//! real algebraic numbers and root isolation.
//!
//! Used where a floating-point filter cannot decide, and as the slow reference
//! that every fast path is tested against.

mod algebraic;
mod dyadic;
mod poly;
mod scale;

pub use algebraic::{Algebraic, roots_in_unit_interval};
pub use dyadic::Dyadic;
pub use poly::{IntPoly, SignOrdering, VecPoly, cross, dot, sign_variations, vsub};
pub use scale::{decompose, to_common_scale};
