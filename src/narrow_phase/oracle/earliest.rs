//! The earliest member of a closed set of times, given a candidate superset:
//! the exact oracle's time of impact (docs/design.md §9, item 8; at a
//! minimum separation, §5).

use std::cmp::Ordering;

use crate::exact::{Algebraic, Dyadic, IntPoly, roots_in_unit_interval};

/// A finite set of times that contains `min S`: optionally `t = 0`, and the
/// roots in `[0, 1]` of some non-zero polynomials.
#[derive(Debug, Default)]
pub(super) struct Candidates {
    pub zero: bool,
    pub polys: Vec<IntPoly>,
}

impl Candidates {
    /// The roots of `p` (which must not be identically zero).
    pub fn roots_of(p: IntPoly) -> Candidates {
        Candidates {
            zero: false,
            polys: vec![p],
        }
    }

    /// `t = 0` and the roots of those of `ps` that are not identically zero.
    pub fn zero_and_roots_of(ps: impl IntoIterator<Item = IntPoly>) -> Candidates {
        Candidates {
            zero: true,
            polys: ps.into_iter().filter(|p| !p.is_zero()).collect(),
        }
    }

    /// The union of two candidate sets.
    pub fn union(mut self, other: Candidates) -> Candidates {
        self.zero |= other.zero;
        self.polys.extend(other.polys);
        self
    }
}

/// The smallest candidate `t` with `member(t)`, or `None`.
///
/// Each polynomial's roots come in increasing order, so the scan of one
/// polynomial stops at its first member, or as soon as its roots reach the
/// best member found so far.
pub(super) fn earliest(
    candidates: Candidates,
    mut member: impl FnMut(&mut Algebraic) -> bool,
) -> Option<Algebraic> {
    if candidates.zero {
        let mut zero = Algebraic::exact(Dyadic::zero());
        if member(&mut zero) {
            return Some(zero);
        }
    }
    let mut best: Option<Algebraic> = None;
    for p in &candidates.polys {
        for mut t in roots_in_unit_interval(p) {
            if let Some(b) = best.as_mut()
                && t.compare(b) != Ordering::Less
            {
                break;
            }
            if member(&mut t) {
                best = Some(t);
                break;
            }
        }
    }
    best
}
