//! A compact k-DOP for tree nodes: `f32` bounds, each rounded outward from the
//! `f64` k-DOP it stands for, so that it contains that k-DOP (and hence every
//! point the `f64` one contains).
//!
//! **Why `f32`.** A 26-DOP of `f64` bounds is 208 bytes; a BVH node test reads
//! one per test, and on the real frames the node level is limited by memory
//! traffic, not arithmetic. Halving the bytes halves that traffic. A node test
//! on the rounded k-DOPs can only say "overlap" more often than the exact one
//! (never less), so it prunes a subset of what the exact test prunes and the
//! traversal still reaches every leaf pair it must; the feature-level tests
//! that decide the candidates stay in `f64` (see `broad_phase`).
//!
//! **Rounding.** `x as f32` rounds to nearest; if the result lies above `lo`
//! (below `hi`) we step one `f32` down (up). Beyond the `f32` range the cast
//! gives ±∞ and the step gives `±f32::MAX`, still on the safe side.

use super::Kdop;

/// A k-DOP with `N` slabs stored in `f32`, rounded outward.
#[derive(Debug, Clone, Copy, PartialEq)]
#[repr(C)]
pub struct Kdop32<const N: usize> {
    /// Lower bounds, one per slab.
    pub lo: [f32; N],
    /// Upper bounds, one per slab.
    pub hi: [f32; N],
}

/// The largest `f32` that is `≤ x`.
#[inline(always)]
fn f32_down(x: f64) -> f32 {
    let y = x as f32;
    if f64::from(y) > x { y.next_down() } else { y }
}

/// The smallest `f32` that is `≥ x`.
#[inline(always)]
fn f32_up(x: f64) -> f32 {
    let y = x as f32;
    if f64::from(y) < x { y.next_up() } else { y }
}

impl<const N: usize> Kdop32<N> {
    /// The empty k-DOP (identity of [`Kdop32::merge`]).
    pub const EMPTY: Kdop32<N> = Kdop32 {
        lo: [f32::INFINITY; N],
        hi: [f32::NEG_INFINITY; N],
    };

    /// The smallest `f32` k-DOP containing `b`.
    #[inline]
    pub fn from_kdop(b: &Kdop<N>) -> Kdop32<N> {
        Kdop32 {
            lo: b.lo.map(f32_down),
            hi: b.hi.map(f32_up),
        }
    }

    /// The smallest k-DOP containing both (exact).
    #[inline(always)]
    pub fn merge(&self, other: &Kdop32<N>) -> Kdop32<N> {
        let mut out = *self;
        for i in 0..N {
            out.lo[i] = out.lo[i].min(other.lo[i]);
            out.hi[i] = out.hi[i].max(other.hi[i]);
        }
        out
    }

    /// Whether the closed k-DOPs overlap (touching counts); branch-free.
    #[inline(always)]
    pub fn overlaps(&self, other: &Kdop32<N>) -> bool {
        let mut ok = true;
        for i in 0..N {
            ok &= (self.lo[i] <= other.hi[i]) & (other.lo[i] <= self.hi[i]);
        }
        ok
    }

    /// Whether the `f64` k-DOP `b` lies inside (compared exactly).
    pub fn contains_kdop(&self, b: &Kdop<N>) -> bool {
        b.is_empty()
            || (0..N).all(|i| f64::from(self.lo[i]) <= b.lo[i] && b.hi[i] <= f64::from(self.hi[i]))
    }

    /// Whether `other` lies inside.
    pub fn contains(&self, other: &Kdop32<N>) -> bool {
        (0..N).all(|i| self.lo[i] <= other.lo[i] && other.hi[i] <= self.hi[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec3;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn rounding_outward_contains_and_is_tight(
            a in prop::array::uniform3(-1e40..1e40f64),
            b in prop::array::uniform3(-1e3..1e3f64),
        ) {
            let k = Kdop::<13>::from_points(&[Vec3::from(a), Vec3::from(b)]);
            let r = Kdop32::from_kdop(&k);
            prop_assert!(r.contains_kdop(&k));
            for i in 0..13 {
                // Tight: one f32 step inward would no longer contain it.
                if r.lo[i].is_finite() {
                    prop_assert!(f64::from(r.lo[i].next_up()) > k.lo[i]);
                }
                if r.hi[i].is_finite() {
                    prop_assert!(f64::from(r.hi[i].next_down()) < k.hi[i]);
                }
            }
        }

        #[test]
        fn rounded_overlap_is_implied_by_exact_overlap(
            a in prop::array::uniform3(-2.0..2.0f64),
            b in prop::array::uniform3(-2.0..2.0f64),
            c in prop::array::uniform3(-2.0..2.0f64),
        ) {
            let x = Kdop::<13>::from_points(&[Vec3::from(a), Vec3::from(b)]);
            let y = Kdop::<13>::from_points(&[Vec3::from(c)]);
            let (rx, ry) = (Kdop32::from_kdop(&x), Kdop32::from_kdop(&y));
            prop_assert!(!x.overlaps(&y) || rx.overlaps(&ry));
            prop_assert_eq!(rx.overlaps(&ry), ry.overlaps(&rx));
            prop_assert!(rx.merge(&ry).contains(&rx) && rx.merge(&ry).contains(&ry));
        }
    }

    #[test]
    fn out_of_range_values_round_to_the_safe_side() {
        let mut k = Kdop::<3>::EMPTY;
        k.lo = [1e300, -1e300, 0.1];
        k.hi = [1e300, -1e300, 0.1];
        let r = Kdop32::from_kdop(&k);
        assert_eq!(r.lo[0], f32::MAX);
        assert_eq!(r.hi[0], f32::INFINITY);
        assert_eq!(r.lo[1], f32::NEG_INFINITY);
        assert_eq!(r.hi[1], -f32::MAX);
        assert!(f64::from(r.lo[2]) < 0.1 && 0.1 < f64::from(r.hi[2]));
        assert!(r.contains_kdop(&k));
    }
}
