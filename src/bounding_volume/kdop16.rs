//! A compact k-DOP for tree nodes: every slab's bounds quantized to 16 bits
//! on a per-slab grid over a reference k-DOP (the root's), rounded outward,
//! so that it contains the `f64` k-DOP it stands for.
//!
//! **Why 16 bits.** A BVH node test reads the k-DOPs of two children; on the
//! real frames the node level is limited by how many bytes and instructions a
//! test costs, not by arithmetic. A 26-DOP in `f64` is 208 bytes, in `f32` 104;
//! quantized, its 13 lower and 13 upper bounds fit in two 16-lane `i16`
//! vectors (64 bytes with padding), and an overlap test is four vector
//! comparisons. The grid has 65,536 steps per slab over the scene's extent, so
//! on the cloth frames a step is well under a percent of a triangle: the node
//! tests prune almost exactly as well as `f64` ones would. Node tests only
//! steer the descent; every candidate is decided by the exact `f64` feature
//! k-DOPs (see `broad_phase`).
//!
//! **Rounding.** A bound `x` of slab `i` maps to `f(x) = (x − oᵢ)·sᵢ` with
//! `sᵢ = 65,000 / (extent of slab i)`. `f` is increasing, so `x ≤ y` implies
//! `f(x) ≤ f(y)`. The computed `f̃(x) = fl(fl(x − oᵢ)·sᵢ)` is within
//! `2u·|f(x)|(1 + u) + …` of `f(x)`: well under one step while
//! `|f(x)| < 2⁵⁰` (an exact zero difference maps to exactly 0). A lower bound
//! is stored as `⌊f̃⌋ − 1` and an upper bound as `⌈f̃⌉ + 1`, both clamped to
//! `[0, 65535]` (clamping is monotone too, and `f̃` outside `±2⁵⁰`, including
//! ±∞, clamps to the end of the range on the safe side). Hence if two `f64`
//! k-DOPs overlap in slab `i` (`a.lo ≤ b.hi`), their quantized images do
//! (`qlo(a) ≤ f(a.lo) ≤ f(b.hi) ≤ qhi(b)`): the quantized test never prunes
//! an overlapping pair. The same holds for k-DOPs outside the reference one
//! (they clamp), which is what a traversal of two trees with different grids
//! needs: a query is quantized on the grid of the tree it descends. A slab
//! of zero (or non-finite) extent gets `sᵢ = 0`: everything overlaps there.
//!
//! Stored values are offset by 32,768 into `i16`, so that the comparisons are
//! the signed 16-bit ones every x86-64 has; lanes beyond `N` hold the widest
//! interval and always overlap.

use super::Kdop;

/// Lanes of a quantized k-DOP (slabs `N ≤ 13` padded to 16).
pub const QLANES: usize = 16;

/// Grid steps per slab span of the reference k-DOP (a little under 65,535,
/// so that the reference's own bounds stay inside after the ±1 margins).
const STEPS: f64 = 65_000.0;

/// A k-DOP with its bounds quantized on a [`Quantizer`]'s grid, stored as
/// `i16` (value − 32,768), 16 lanes (module doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C, align(32))]
pub struct QKdop {
    /// Lower bounds.
    pub lo: [i16; QLANES],
    /// Upper bounds.
    pub hi: [i16; QLANES],
}

impl QKdop {
    /// The empty k-DOP (identity of [`QKdop::merge`]; overlaps nothing).
    pub const EMPTY: QKdop = QKdop {
        lo: [i16::MAX; QLANES],
        hi: [i16::MIN; QLANES],
    };

    /// Whether the closed quantized k-DOPs overlap in every lane;
    /// branch-free, so that it compiles to a few vector comparisons.
    #[inline(always)]
    pub fn overlaps(&self, other: &QKdop) -> bool {
        let mut apart = 0i16;
        for i in 0..QLANES {
            // −1 where lane i is disjoint, else 0.
            apart |= -i16::from((self.lo[i] > other.hi[i]) | (other.lo[i] > self.hi[i]));
        }
        apart == 0
    }

    /// The smallest quantized k-DOP containing both.
    #[inline(always)]
    pub fn merge(&self, other: &QKdop) -> QKdop {
        let mut out = *self;
        for i in 0..QLANES {
            out.lo[i] = out.lo[i].min(other.lo[i]);
            out.hi[i] = out.hi[i].max(other.hi[i]);
        }
        out
    }
}

/// The grid of one tree: per slab an origin and a scale (module doc).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Quantizer<const N: usize> {
    origin: [f64; N],
    scale: [f64; N],
}

impl<const N: usize> Quantizer<N> {
    /// The grid over `reference` (usually the root's k-DOP). An empty
    /// reference gives a grid on which everything overlaps.
    pub fn new(reference: &Kdop<N>) -> Quantizer<N> {
        let mut origin = [0.0; N];
        let mut scale = [0.0; N];
        for i in 0..N {
            let (lo, hi) = (reference.lo[i], reference.hi[i]);
            let s = STEPS / (hi - lo);
            if lo.is_finite() && s.is_finite() && s > 0.0 {
                origin[i] = lo;
                scale[i] = s;
            }
        }
        Quantizer { origin, scale }
    }

    /// The quantized k-DOP containing `b` (rounded outward, module doc).
    #[inline]
    pub fn quantize(&self, b: &Kdop<N>) -> QKdop {
        // Bounds beyond ±2⁵⁰ steps are clamped before the integer
        // conversion (which saturates anyway; NaN would give 0).
        const LIMIT: f64 = (1u64 << 50) as f64;
        let q = |x: f64, i: usize| ((x - self.origin[i]) * self.scale[i]).clamp(-LIMIT, LIMIT);
        let mut out = QKdop {
            lo: [i16::MIN; QLANES],
            hi: [i16::MAX; QLANES],
        };
        for i in 0..N {
            // An empty slab (lo > hi) stays empty; NaN bounds become the full
            // range (safe).
            let lo = q(b.lo[i], i).floor() - 1.0;
            let hi = q(b.hi[i], i).ceil() + 1.0;
            let lo = if lo >= 0.0 { lo.min(65535.0) } else { 0.0 };
            let hi = if hi <= 65535.0 { hi.max(0.0) } else { 65535.0 };
            out.lo[i] = (lo as i32 - 32768) as i16;
            out.hi[i] = (hi as i32 - 32768) as i16;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec3;
    use proptest::prelude::*;

    fn kdop(points: &[[f64; 3]]) -> Kdop<13> {
        Kdop::from_points(
            points
                .iter()
                .map(|p| Vec3::from(*p))
                .collect::<Vec<_>>()
                .iter(),
        )
    }

    proptest! {
        /// Quantized k-DOPs overlap whenever the exact ones do, on the grid
        /// of a reference that need not contain them.
        #[test]
        fn exact_overlap_implies_quantized_overlap(
            a in proptest::collection::vec(prop::array::uniform3(-2.0..2.0f64), 1..4),
            b in proptest::collection::vec(prop::array::uniform3(-2.0..2.0f64), 1..4),
            r in proptest::collection::vec(prop::array::uniform3(-1.0..1.0f64), 1..4),
            tiny in prop::bool::ANY,
        ) {
            let (ka, kb) = (kdop(&a), kdop(&b));
            let mut reference = kdop(&r);
            if tiny {
                // A reference of (almost) no extent: huge scales.
                reference = kdop(&r[..1]);
                reference.hi[0] = reference.lo[0].next_up();
            }
            let g = Quantizer::new(&reference);
            let (qa, qb) = (g.quantize(&ka), g.quantize(&kb));
            prop_assert!(!ka.overlaps(&kb) || qa.overlaps(&qb));
            prop_assert_eq!(qa.overlaps(&qb), qb.overlaps(&qa));
            prop_assert!(qa.overlaps(&qa));
            let m = qa.merge(&qb);
            prop_assert!(m.overlaps(&qa) && m.overlaps(&qb));
            // The merge of the exact ones quantizes inside the merged ones.
            let qm = g.quantize(&ka.merge(&kb));
            for i in 0..QLANES {
                prop_assert!(m.lo[i] <= qm.lo[i] && qm.hi[i] <= m.hi[i]);
            }
        }
    }

    #[test]
    fn separated_boxes_stay_separated_on_a_fine_grid() {
        let g = Quantizer::new(&kdop(&[[0.0, 0.0, 0.0], [1.0, 1.0, 1.0]]));
        let a = g.quantize(&kdop(&[[0.1, 0.1, 0.1], [0.2, 0.2, 0.2]]));
        let b = g.quantize(&kdop(&[[0.3, 0.1, 0.1], [0.4, 0.2, 0.2]]));
        assert!(!a.overlaps(&b));
        assert!(!QKdop::EMPTY.overlaps(&a));
        // On a degenerate grid everything overlaps.
        let flat = Quantizer::new(&Kdop::<13>::EMPTY);
        let (c, d) = (kdop(&[[5.0, 5.0, 5.0]]), kdop(&[[-5.0, 0.0, 1.0]]));
        assert!(flat.quantize(&c).overlaps(&flat.quantize(&d)));
    }
}
