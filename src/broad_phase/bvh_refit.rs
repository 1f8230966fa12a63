//! Refit: a new step of the same mesh keeps the tree and recomputes every
//! k-DOP bottom-up (features, then leaves, then internal nodes). The paper
//! (Wan, Fu & Yao 2022, §1.1) weighs "construction and update" time against
//! culling when choosing k; refitting is that update.
//!
//! Vertex and edge k-DOPs are independent and computed with rayon in chunks of
//! at least [`PAR_REFIT_MIN_LEN`]; node k-DOPs are merged in reverse
//! depth-first order (children after parents), with `rayon::join` on subtrees
//! above [`PAR_REFIT_CUTOFF`] nodes. Every value is a min or max of the same
//! inputs, so the result is bit-identical for any thread count, and identical
//! to a fresh build's k-DOPs on the same step.

use rayon::prelude::*;

use super::bvh::{BroadPhaseError, KdopBvh, Node};
use crate::bounding_volume::Kdop;
use crate::math::Vec3;
use crate::mesh::Step;

/// Least number of features one rayon task refits.
pub const PAR_REFIT_MIN_LEN: usize = 4096;

/// Subtrees with more nodes than this are refitted with `rayon::join`.
pub const PAR_REFIT_CUTOFF: usize = 16384;

impl<const N: usize> KdopBvh<N> {
    /// Refits every k-DOP to `step`, which must be a step of the mesh the BVH
    /// was built for (checked by counts of vertices, edges and faces).
    pub fn refit(&mut self, step: &Step<'_>) -> Result<(), BroadPhaseError> {
        self.check_step(step)?;
        self.refit_positions(step.x_t0, step.x_t1);
        Ok(())
    }

    pub(crate) fn refit_positions(&mut self, x_t0: &[Vec3], x_t1: &[Vec3]) {
        self.vertex_bv
            .par_iter_mut()
            .with_min_len(PAR_REFIT_MIN_LEN)
            .zip(self.slot_vertex.par_iter())
            .for_each(|(bv, &v)| {
                *bv = Kdop::from_swept_point(&x_t0[v as usize], &x_t1[v as usize])
            });
        let vertex_bv = &self.vertex_bv;
        self.edge_bv
            .par_iter_mut()
            .with_min_len(PAR_REFIT_MIN_LEN)
            .zip(self.edge_end_slots.par_iter())
            .for_each(|(bv, &[a, b])| *bv = vertex_bv[a as usize].merge(&vertex_bv[b as usize]));
        if !self.nodes.is_empty() {
            refit_subtree(
                &self.nodes,
                &mut self.node_bv,
                0,
                &self.leaf_corner_slots,
                vertex_bv,
            );
        }
    }
}

/// Refits the subtree whose root is `nodes[0]` (absolute index `base`);
/// `nodes` and `bvs` cover exactly that subtree.
fn refit_subtree<const N: usize>(
    nodes: &[Node],
    bvs: &mut [Kdop<N>],
    base: usize,
    corner_slots: &[[u32; 3]],
    vertex_bv: &[Kdop<N>],
) {
    let leaf_bv = |l: usize| {
        let [a, b, c] = corner_slots[l];
        vertex_bv[a as usize]
            .merge(&vertex_bv[b as usize])
            .merge(&vertex_bv[c as usize])
    };
    let root = nodes[0];
    if nodes.len() > PAR_REFIT_CUTOFF && !root.is_leaf() {
        let r = root.child as usize - base;
        let (head, rest) = bvs.split_at_mut(1);
        let (left, right) = rest.split_at_mut(r - 1);
        rayon::join(
            || refit_subtree(&nodes[1..r], left, base + 1, corner_slots, vertex_bv),
            || refit_subtree(&nodes[r..], right, base + r, corner_slots, vertex_bv),
        );
        head[0] = left[0].merge(&right[0]);
        return;
    }
    for i in (0..nodes.len()).rev() {
        let n = nodes[i];
        bvs[i] = if n.is_leaf() {
            leaf_bv(n.leaf())
        } else {
            bvs[i + 1].merge(&bvs[n.child as usize - base])
        };
    }
}
