//! Refit: a new step of the same mesh keeps the tree and recomputes every
//! k-DOP bottom-up (vertices, then the grid over the root, then the
//! vertices' outer and inner quantized images, then the leaves', edges' and
//! internal nodes' quantized k-DOPs). The paper (Wan, Fu & Yao 2022, §1.1)
//! weighs "construction and update" time against culling when choosing k;
//! refitting is that update.
//!
//! With time-aligned pruning on ([`KdopBvh::time_aligned`]), the
//! vertices' and leaves' quantized k-DOPs at `t = 0` and `t = 1` are
//! computed the same way, after the swept ones (grown by the same margin at
//! a minimum separation, [`KdopBvh::min_distance`]).
//!
//! Vertex k-DOPs and leaf k-DOPs are independent and computed with rayon in
//! chunks of at least [`PAR_REFIT_MIN_LEN`]; node k-DOPs are merged in reverse
//! depth-first order (children after parents), with `rayon::join` on subtrees
//! above [`PAR_REFIT_CUTOFF`] internal nodes. Every value is a min, a max or a
//! rounding of the same inputs, so the result is bit-identical for any thread
//! count, and identical to a fresh build's k-DOPs on the same step.
//!
//! docs/design.md §6.

use rayon::prelude::*;

use super::bvh::{Inner, KdopBvh, LEAF};
use crate::bounding_volume::{AlignedQuantizedKdop, Inflation, Kdop, QuantizedKdop, Quantizer};
use crate::math::Vec3;
use crate::mesh::Step;

/// Least number of features one rayon task refits (task sizes:
/// docs/notes/bvh-refit.md).
pub(crate) const PAR_REFIT_MIN_LEN: usize = 4096;

/// Subtrees with more nodes than this are refitted with `rayon::join`.
pub(crate) const PAR_REFIT_CUTOFF: usize = 16384;

impl<const N: usize> KdopBvh<N> {
    /// Refits every k-DOP to `step`, which must be a step of the mesh the BVH
    /// was built for (checked: the same vertex count and faces, and a
    /// position per vertex in each frame).
    pub fn refit(&mut self, step: &Step<'_>) -> Result<(), BroadPhaseError> {
        self.check_step(step)?;
        self.refit_positions(step.x_t0, step.x_t1);
        Ok(())
    }

    /// Recomputes every k-DOP from the positions (the feature arrays may be
    /// empty, as after the build's topology pass: they are then allocated
    /// and written once, in parallel).
    pub(crate) fn refit_positions(&mut self, x_t0: &[Vec3], x_t1: &[Vec3]) {
        // Slot order is the tree's, so the positions are read in no useful
        // order, and without help the vertex pass (half of the refit) spent
        // half its time waiting for them. Each task prefetches them
        // [`PREFETCH_AHEAD`] slots ahead.
        let grow = Inflation::<N>::new(self.vertex_margin());
        let grow = grow.as_ref();
        let bv_of = |v: u32| {
            let mut bv = Kdop::from_swept_point(&x_t0[v as usize], &x_t1[v as usize]);
            if let Some(by) = grow {
                bv.inflate_by(by);
            }
            bv
        };
        if self.vertex_bv.len() == self.slot_vertex.len() {
            prefetched_slots(
                &mut self.vertex_bv,
                &self.slot_vertex,
                x_t0,
                x_t1,
                |d, v| {
                    d.set_swept_point(&x_t0[v as usize], &x_t1[v as usize]);
                    if let Some(by) = grow {
                        d.inflate_by(by);
                    }
                },
            );
        } else {
            par_fill(&mut self.vertex_bv, &self.slot_vertex, |&v| bv_of(v));
        }
        // The root's k-DOP: a reduction of min/max, the same for any split.
        // Merged in place per chunk: a fold passes its accumulator by value,
        // which copies the k-DOP (208 bytes at k = 26) for every vertex.
        let root = self
            .vertex_bv
            .par_chunks(PAR_REFIT_MIN_LEN)
            .map(|chunk| {
                let mut m = Kdop::EMPTY;
                for bv in chunk {
                    m.merge_in(bv);
                }
                m
            })
            .reduce(|| Kdop::EMPTY, |a, b| a.merge(&b));
        self.grid = Quantizer::new(&root);
        let grid = self.grid;
        // The quantized k-DOPs are written in place (`quantize_to`,
        // `set_merge`: vectors, and no copy through a local).
        if self.time_aligned {
            // The vertex's k-DOPs at the two times, projected together
            // (`Kdop::set_points`: the same bits as `Kdop::from_point` of
            // each, without its branches); positions prefetched as in the
            // first vertex pass.
            // At a minimum separation each is grown by the same margin as
            // the swept k-DOP (growing commutes with merging: both round
            // monotonically, so the merge of the grown images is the grown
            // swept k-DOP, bit for bit).
            let image = |v: u32, q: &mut AlignedQuantizedKdop<N>| {
                let v = v as usize;
                let mut bv = [Kdop::EMPTY; 2];
                Kdop::set_points(&mut bv, &x_t0[v], &x_t1[v]);
                if let Some(by) = grow {
                    bv[0].inflate_by(by);
                    bv[1].inflate_by(by);
                }
                grid.quantize_to(&bv[0], &mut q[0]);
                grid.quantize_to(&bv[1], &mut q[1]);
            };
            if self.vertex_qt.len() == self.slot_vertex.len() {
                prefetched_slots(
                    &mut self.vertex_qt,
                    &self.slot_vertex,
                    x_t0,
                    x_t1,
                    |d, v| image(v, d),
                );
            } else {
                par_set(&mut self.vertex_qt, &self.slot_vertex, |q, &v| image(v, q));
            }
            // The swept image is the merge of the two (quantizing is
            // monotone, and the swept `f64` k-DOP is the merge of the
            // points' bit for bit): the same bits as quantizing it, at the
            // cost of a merge (`validate` checks it).
            par_set(&mut self.vertex_q, &self.vertex_qt, |q, qt| {
                q.set_merge([&qt[0], &qt[1]])
            });
            // A leaf's images: the merges of its corners' at each time.
            let vertex_qt = &self.vertex_qt;
            par_set(&mut self.leaf_qt, &self.leaves, |q, l| {
                for (t, qt) in q.iter_mut().enumerate() {
                    qt.set_merge(l.corner_slots.map(|s| &vertex_qt[s as usize][t]));
                }
            });
        } else {
            self.vertex_qt = Vec::new();
            self.leaf_qt = Vec::new();
            par_set(&mut self.vertex_q, &self.vertex_bv, |q, bv| {
                grid.quantize_to(bv, q)
            });
        }
        // (Merged passes: docs/notes/bvh-refit.md.)
        par_set(&mut self.vertex_qi, &self.vertex_bv, |q, bv| {
            grid.quantize_inner_to(bv, q)
        });
        // A leaf's quantized k-DOP: its face's, quantized, which is the merge
        // of its corners' quantized k-DOPs (quantizing is monotone); an
        // edge's likewise.
        let vertex_q = &self.vertex_q;
        par_set(&mut self.leaf_q, &self.leaves, |q, l| {
            q.set_merge(l.corner_slots.map(|s| &vertex_q[s as usize]))
        });
        par_set(&mut self.edge_q, &self.edge_end_slots, |q, e| {
            q.set_merge(e.map(|s| &vertex_q[s as usize]))
        });
        let leaf_bv = &self.leaf_q;
        if self.inner.is_empty() {
            self.root_bv = leaf_bv
                .first()
                .copied()
                .unwrap_or(QuantizedKdop::<N>::EMPTY);
        } else {
            refit_subtree(&mut self.inner, 0, leaf_bv);
            let r = &self.inner[0];
            self.root_bv = r.bv[0].merge(&r.bv[1]);
        }
    }
}

use super::bvh::BroadPhaseError;

/// How many slots ahead the vertex pass prefetches positions.
const PREFETCH_AHEAD: usize = 8;

/// `f(&mut dst[s], slots[s])` for every vertex slot `s` (`dst` as long as
/// `slots`), in parallel chunks of [`PAR_REFIT_MIN_LEN`], each task
/// prefetching the positions of the vertex [`PREFETCH_AHEAD`] slots on.
fn prefetched_slots<T: Send>(
    dst: &mut [T],
    slots: &[u32],
    x_t0: &[Vec3],
    x_t1: &[Vec3],
    f: impl Fn(&mut T, u32) + Sync + Send,
) {
    dst.par_chunks_mut(PAR_REFIT_MIN_LEN)
        .zip(slots.par_chunks(PAR_REFIT_MIN_LEN))
        .for_each(|(dst, src)| {
            for (i, (d, &v)) in dst.iter_mut().zip(src).enumerate() {
                if let Some(&w) = src.get(i + PREFETCH_AHEAD) {
                    prefetch(&x_t0[w as usize]);
                    prefetch(&x_t1[w as usize]);
                }
                f(d, v);
            }
        });
}

/// A hint to load the cache line of `r`; no effect on any value.
#[inline(always)]
fn prefetch<T>(r: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing the program sees and cannot fault;
    // the pointer is a valid reference anyway. SSE is part of x86-64.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>((r as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = r;
}

/// `dst[i] = f(&src[i])` for every `i`, in parallel chunks of at least
/// [`PAR_REFIT_MIN_LEN`]; `dst` is overwritten in place when it has the
/// right length, else refilled (each element written once, by the task
/// that computes it, so a fresh allocation is also first touched in
/// parallel).
pub(crate) fn par_fill<T: Send, S: Sync>(
    dst: &mut Vec<T>,
    src: &[S],
    f: impl Fn(&S) -> T + Sync + Send,
) {
    if dst.len() == src.len() {
        dst.par_iter_mut()
            .with_min_len(PAR_REFIT_MIN_LEN)
            .zip(src.par_iter())
            .for_each(|(d, s)| *d = f(s));
    } else {
        dst.clear();
        dst.par_extend(src.par_iter().with_min_len(PAR_REFIT_MIN_LEN).map(f));
    }
}

/// `dst[i]` set to `f(src[i])` by `f(&mut dst[i], &src[i])` for every `i`,
/// in place, in parallel chunks of at least [`PAR_REFIT_MIN_LEN`]; a `dst`
/// of another length is refilled (as by [`par_fill`]).
pub(crate) fn par_set<T: Send + Default, S: Sync>(
    dst: &mut Vec<T>,
    src: &[S],
    f: impl Fn(&mut T, &S) + Sync + Send,
) {
    if dst.len() == src.len() {
        dst.par_iter_mut()
            .with_min_len(PAR_REFIT_MIN_LEN)
            .zip(src.par_iter())
            .for_each(|(d, s)| f(d, s));
    } else {
        par_fill(dst, src, |s| {
            let mut d = T::default();
            f(&mut d, s);
            d
        });
    }
}

/// Sets `out` to the quantized k-DOP of child reference `r` of a node in
/// `inner` (whose first entry has absolute index `base`).
#[inline(always)]
fn set_child_bv<const N: usize>(
    out: &mut QuantizedKdop<N>,
    r: u32,
    inner: &[Inner<N>],
    base: usize,
    leaf_bv: &[QuantizedKdop<N>],
) {
    if r & LEAF != 0 {
        *out = leaf_bv[(r & !LEAF) as usize];
    } else {
        let m = &inner[r as usize - base];
        out.set_merge([&m.bv[0], &m.bv[1]]);
    }
}

/// Refits the subtree of internal nodes `inner` (exactly one subtree, its root
/// first, at absolute index `base`): children after parents, so in reverse.
fn refit_subtree<const N: usize>(
    inner: &mut [Inner<N>],
    base: usize,
    leaf_bv: &[QuantizedKdop<N>],
) {
    if inner.len() > PAR_REFIT_CUTOFF {
        let child = inner[0].child;
        let (head, rest) = inner.split_at_mut(1);
        // The left child's internal nodes come first, then the right's.
        let split = if child[1] & LEAF == 0 {
            child[1] as usize - base - 1
        } else {
            rest.len()
        };
        let (left, right) = rest.split_at_mut(split);
        rayon::join(
            || {
                if !left.is_empty() {
                    refit_subtree(left, base + 1, leaf_bv)
                }
            },
            || {
                if !right.is_empty() {
                    refit_subtree(right, base + 1 + split, leaf_bv)
                }
            },
        );
        for (c, &r) in child.iter().enumerate() {
            let out = &mut head[0].bv[c];
            if (r as usize) < base + 1 + split {
                set_child_bv(out, r, left, base + 1, leaf_bv);
            } else {
                set_child_bv(out, r, right, base + 1 + split, leaf_bv);
            }
        }
        return;
    }
    for i in (0..inner.len()).rev() {
        // The children come after their parent.
        let (head, tail) = inner.split_at_mut(i + 1);
        let node = &mut head[i];
        for c in 0..2 {
            set_child_bv(&mut node.bv[c], node.child[c], tail, base + i + 1, leaf_bv);
        }
    }
}
