//! Stage 3, low-level culling: pure pair predicates that remove vertex–face
//! and edge–edge candidates which provably cannot collide.
//!
//! Every filter states a one-sided guarantee: [`Verdict::Culled`] ⇒ no contact
//! in `[0, 1]`, also under floating-point rounding. Filters may pass pairs that
//! do not collide; they never drop one that does.

mod chain;
mod dnf;
mod slpf;

pub use chain::{CulledBy, FilterSet, UnknownFilterSet};
pub use dnf::{dnf_edge_edge, dnf_vertex_face};
pub use slpf::{PAPER_DIRECTIONS, SlpfProjections, slpf_edge_edge, slpf_vertex_face};

/// A filter's decision on one pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Provably no contact in `[0, 1]`.
    Culled,
    /// Possibly in contact: the exact test decides.
    Pass,
}

impl Verdict {
    /// `Culled` if `culled`, else `Pass`.
    #[inline]
    pub fn culled_if(culled: bool) -> Verdict {
        if culled {
            Verdict::Culled
        } else {
            Verdict::Pass
        }
    }
}
