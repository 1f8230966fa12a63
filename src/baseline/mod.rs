//! Comparison: the same stage computed by a library users would otherwise
//! reach for. Sits after `pipeline` in the one-way stage order; nothing in the
//! stages depends on it.

pub mod parry;

pub use parry::{PARRY_API, ParryBroadPhase};
