//! A filter's one-sided decision on a pair (docs/design.md §7): culled
//! only when provably free of contact in `[0, 1]`.

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
