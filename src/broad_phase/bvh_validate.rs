//! Validation of a [`KdopBvh`]: every invariant the traversal relies on,
//! checked against the positions it was last built or refitted for (the
//! tests' and debug builds' check of `bvh_build` and `bvh_refit`; the
//! invariants are the module doc of `bvh`'s, docs/design.md §6).

use super::bvh::Leaf;
use super::bvh::{CLUSTER, KdopBvh, LEAF, MAX_DEPTH, NO_FACE};
use crate::bounding_volume::Quantizer;
use crate::bounding_volume::{Kdop, QuantizedKdop};
use crate::mesh::Step;

/// A BVH that breaks an invariant the traversal relies on: what and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid BVH: {0}")]
pub struct InvalidBvh(
    /// The invariant broken, and the node, leaf, slot or feature that
    /// breaks it.
    pub String,
);

impl<const N: usize> KdopBvh<N> {
    /// Checks the invariants the traversal relies on, against `step` (the
    /// positions the BVH was last built or refitted for): every vertex k-DOP
    /// is the swept k-DOP of its vertex, leaves and edge slots name the right
    /// features and slots, the grid is the root's, every node's quantized
    /// k-DOP is the merge of its children's (a leaf's: its face's, quantized),
    /// leaves appear left to right, no node has a leaf right of an internal
    /// node, no path holds more internal nodes than the traversal's stack
    /// takes (32), and every vertex and edge of the covered components is
    /// owned by exactly one leaf.
    pub fn validate(&self, step: &Step<'_>) -> Result<(), InvalidBvh> {
        self.check_invariants(step).map_err(InvalidBvh)
    }

    fn check_invariants(&self, step: &Step<'_>) -> Result<(), String> {
        self.check_step(step).map_err(|e| e.to_string())?;
        let mesh = step.mesh;
        let swept = |v: u32| {
            let mut bv =
                Kdop::<N>::from_swept_point(&step.x_t0[v as usize], &step.x_t1[v as usize]);
            bv.inflate_in(self.vertex_margin());
            bv
        };
        let mut vertex_seen = vec![0u8; mesh.num_vertices()];
        let mut edge_seen = vec![0u8; mesh.num_edges()];
        let mut slot_of = vec![u32::MAX; mesh.num_vertices()];
        if self.slot_vertex_comp.len() != self.slot_vertex.len()
            || self.slot_edge_comp.len() != self.slot_edge.len()
        {
            return Err("slot arrays of different lengths".into());
        }
        let ends = [self.slot_vertex.len(), self.slot_edge.len()].map(|n| n as u32);
        if self.leaf_start.len() != self.leaves.len() + 1
            || self.leaf_start.first() != Some(&[0, 0])
            || self.leaf_start.last() != Some(&ends)
            || self
                .leaf_start
                .windows(2)
                .any(|w| w[1][0] < w[0][0] || w[1][1] < w[0][1])
        {
            return Err("leaf slot starts do not run from 0 up to the slot counts".into());
        }
        for (s, &v) in self.slot_vertex.iter().enumerate() {
            if self.vertex_bv[s] != swept(v) {
                return Err(format!("vertex slot {s} (vertex {v}): stale k-DOP"));
            }
            if self.slot_vertex_comp[s] != mesh.component()[v as usize] {
                return Err(format!("vertex slot {s} (vertex {v}): wrong component"));
            }
            slot_of[v as usize] = s as u32;
        }
        for (l, leaf) in self.leaves.iter().enumerate() {
            let (f, c) = (leaf.face, leaf.corners);
            // What the leaf must be and own: a face (its corners, its edges
            // and the bits the mesh gives it), a codimensional edge (named
            // by its first edge slot: corners `[a, b, b]`, owning itself as
            // edge 0 and the ends it owns) or a point (`[v; 3]`, owning v).
            let (edges, owned) = if f != NO_FACE {
                if mesh.faces().get(f as usize) != Some(&c) {
                    return Err(format!("leaf {l}: face {f} has other corners"));
                }
                (mesh.face_edges()[f as usize], mesh.face_owned()[f as usize])
            } else if c[0] != c[1] {
                let first = mesh.num_face_edges();
                let e = self.slot_edge.get(self.leaf_start[l][1] as usize);
                match e.map(|&e| e as usize) {
                    Some(e) if e >= first && mesh.edges().get(e) == Some(&[c[0], c[1]]) => {
                        if c[2] != c[1] {
                            return Err(format!("leaf {l}: edge leaf with corners {c:?}"));
                        }
                        let owned = 8 | mesh.codim_edge_owned()[e - first];
                        ([e as u32, u32::MAX, u32::MAX], owned)
                    }
                    _ => return Err(format!("leaf {l}: no face and no codimensional edge")),
                }
            } else {
                if c != [c[0]; 3] || mesh.codim_vertices().binary_search(&c[0]).is_err() {
                    return Err(format!("leaf {l}: corners {c:?} are no point's"));
                }
                ([u32::MAX; 3], 1)
            };
            if leaf.owned != owned {
                return Err(format!(
                    "leaf {l}: owns {:#b} instead of {owned:#b}",
                    leaf.owned
                ));
            }
            if leaf.component != mesh.component()[c[0] as usize] {
                return Err(format!("leaf {l}: wrong component"));
            }
            if leaf.corner_slots != c.map(|v| slot_of[v as usize]) {
                return Err(format!("leaf {l}: wrong corner slots"));
            }
            if self.vertex_slots(l, l + 1).len() != leaf.num_vertices()
                || self.edge_slots(l, l + 1).len() != leaf.num_edges()
            {
                return Err(format!("leaf {l}: slot ranges do not match what it owns"));
            }
            let mut slot = self.leaf_start[l][0] as usize;
            for (k, &v) in c.iter().enumerate() {
                if leaf.owned & (1 << k) == 0 {
                    continue;
                }
                if self.slot_vertex.get(slot) != Some(&v) {
                    return Err(format!("leaf {l}: vertex {v}: wrong slot"));
                }
                vertex_seen[v as usize] += 1;
                slot += 1;
            }
            let mut slot = self.leaf_start[l][1] as usize;
            for (k, &e) in edges.iter().enumerate() {
                if leaf.owned & (8 << k) == 0 {
                    continue;
                }
                let [a, b] = mesh.edges()[e as usize];
                if self.slot_edge.get(slot) != Some(&e)
                    || self.slot_edge_ends[slot] != [a, b]
                    || self.slot_edge_comp[slot] != leaf.component
                    || self.edge_end_slots[slot] != [slot_of[a as usize], slot_of[b as usize]]
                {
                    return Err(format!("leaf {l}: edge {e}: wrong slot"));
                }
                edge_seen[e as usize] += 1;
                slot += 1;
            }
        }
        if self.grid != Quantizer::new(&self.root_kdop()) {
            return Err("the grid is not the root's".into());
        }
        self.check_quantized()?;
        self.check_time_aligned(step)?;
        let leaf_q = |l: u32| {
            self.grid
                .quantize(&self.face_kdop(&self.leaves[l as usize]))
        };
        if self.leaves.len() > 1 {
            if self.inner.len() != self.leaves.len() - 1 {
                return Err(format!(
                    "{} internal nodes for {} leaves",
                    self.inner.len(),
                    self.leaves.len()
                ));
            }
            // Depth first from the root: leaves must come out as 0, 1, 2, …
            let mut next_leaf = 0u32;
            self.validate_subtree(0, 1, &mut next_leaf, &leaf_q)?;
            let r = &self.inner[0];
            if self.root_bv != r.bv[0].merge(&r.bv[1]) {
                return Err("stale root k-DOP".into());
            }
        } else if !self.inner.is_empty() {
            return Err("internal nodes without two leaves".into());
        } else if self.leaves.len() == 1 && self.root_bv != leaf_q(0) {
            return Err("stale root k-DOP".into());
        }
        self.check_clusters()?;
        let covered = |v: usize| self.components.binary_search(&mesh.component()[v]).is_ok();
        for (v, &k) in vertex_seen.iter().enumerate() {
            if k != u8::from(covered(v)) {
                return Err(format!("vertex {v} is owned by {k} leaves"));
            }
        }
        for (e, &k) in edge_seen.iter().enumerate() {
            if k != u8::from(covered(mesh.edges()[e][0] as usize)) {
                return Err(format!("edge {e} is owned by {k} leaves"));
            }
        }
        Ok(())
    }

    /// Checks the clusters: consecutive runs of 1 to [`CLUSTER`] leaves that
    /// cover every leaf once (what the self traversal needs to emit each
    /// pair once), and the tree's largest subtrees of at most [`CLUSTER`]
    /// leaves (what makes them tight).
    fn check_clusters(&self) -> Result<(), String> {
        let n = self.leaves.len() as u32;
        let c = &self.clusters;
        if c.first() != Some(&0) || c.last() != Some(&n) {
            return Err(format!("the clusters do not run from leaf 0 to leaf {n}"));
        }
        if let Some(w) = c
            .windows(2)
            .find(|w| w[1] <= w[0] || (w[1] - w[0]) as usize > CLUSTER)
        {
            return Err(format!(
                "cluster of leaves {}..{}: not 1 to {CLUSTER} leaves",
                w[0], w[1]
            ));
        }
        let mut subtrees = Vec::new();
        super::bvh_build::cluster_starts(&self.inner, self.leaves.len(), &mut subtrees);
        if *c != subtrees {
            return Err("the clusters are not the tree's largest subtrees".into());
        }
        // The traversals query no cluster past the first point leaf.
        let points = self.leaves.get(self.first_point_leaf as usize..);
        if let Some(l) = points.and_then(|p| p.iter().position(|l| !l.is_point())) {
            let l = self.first_point_leaf as usize + l;
            return Err(format!(
                "leaf {l} holds a face or an edge, past the first point leaf {}",
                self.first_point_leaf
            ));
        }
        if points.is_none() {
            return Err(format!(
                "the first point leaf {} is past the {n} leaves",
                self.first_point_leaf
            ));
        }
        Ok(())
    }

    /// Checks the quantized k-DOPs of vertex slots (outer and inner images),
    /// leaves and edge slots against the vertex k-DOPs and their merges.
    fn check_quantized(&self) -> Result<(), String> {
        let (vertex_q, leaf_q, edge_q) = (&self.vertex_q, &self.leaf_q, &self.edge_q);
        let stale = |images: &[QuantizedKdop<N>], image: &dyn Fn(&Kdop<N>) -> QuantizedKdop<N>| {
            images.len() != self.vertex_bv.len()
                || images
                    .iter()
                    .zip(&self.vertex_bv)
                    .any(|(q, bv)| *q != image(bv))
        };
        if stale(vertex_q, &|bv| self.grid.quantize(bv)) {
            return Err("stale quantized vertex k-DOPs".into());
        }
        if stale(&self.vertex_qi, &|bv| self.grid.quantize_inner(bv)) {
            return Err("stale inner vertex k-DOPs".into());
        }
        let merged = |s: &[u32]| {
            s.iter().fold(QuantizedKdop::<N>::EMPTY, |m, &x| {
                m.merge(&vertex_q[x as usize])
            })
        };
        if leaf_q.len() != self.leaves.len()
            || leaf_q
                .iter()
                .zip(&self.leaves)
                .any(|(q, l)| *q != merged(&l.corner_slots))
        {
            return Err("stale quantized leaf k-DOPs".into());
        }
        if edge_q.len() != self.edge_end_slots.len()
            || edge_q
                .iter()
                .zip(&self.edge_end_slots)
                .any(|(q, e)| *q != merged(e))
        {
            return Err("stale quantized edge k-DOPs".into());
        }
        Ok(())
    }

    /// Checks the time-aligned images: none without `time_aligned`; else
    /// each vertex slot's are its positions' quantized k-DOPs, each leaf's
    /// the merges of its corners', and their merge is the leaf's swept
    /// image (so the time-aligned test never passes what the swept one
    /// refutes).
    fn check_time_aligned(&self, step: &Step<'_>) -> Result<(), String> {
        if !self.time_aligned {
            return if self.vertex_qt.is_empty() && self.leaf_qt.is_empty() {
                Ok(())
            } else {
                Err("time-aligned images without time-aligned pruning".into())
            };
        }
        // Each position's k-DOP, grown by the vertex margin as the swept
        // one is.
        let point = |x: &[crate::math::Vec3], v: u32| {
            let mut bv = Kdop::from_point(&x[v as usize]);
            bv.inflate_in(self.vertex_margin());
            self.grid.quantize(&bv)
        };
        if self.vertex_qt.len() != self.slot_vertex.len()
            || self
                .vertex_qt
                .iter()
                .zip(&self.slot_vertex)
                .any(|(q, &v)| *q != [point(step.x_t0, v), point(step.x_t1, v)])
        {
            return Err("stale time-aligned vertex images".into());
        }
        let merged = |l: &Leaf, t: usize| {
            l.corner_slots
                .iter()
                .fold(QuantizedKdop::<N>::EMPTY, |m, &s| {
                    m.merge(&self.vertex_qt[s as usize][t])
                })
        };
        if self.leaf_qt.len() != self.leaves.len()
            || self
                .leaf_qt
                .iter()
                .zip(&self.leaves)
                .any(|(q, l)| *q != [merged(l, 0), merged(l, 1)])
        {
            return Err("stale time-aligned leaf images".into());
        }
        if self
            .leaf_qt
            .iter()
            .zip(&self.leaf_q)
            .any(|(a, q)| a[0].merge(&a[1]) != *q)
        {
            return Err("time-aligned leaf images do not merge into the swept ones".into());
        }
        Ok(())
    }

    /// Checks internal node `i`, the `depth`-th internal node on its path
    /// from the root, and below; advances `next_leaf` past the leaves below.
    fn validate_subtree(
        &self,
        i: usize,
        depth: usize,
        next_leaf: &mut u32,
        leaf_q: &impl Fn(u32) -> QuantizedKdop<N>,
    ) -> Result<(), String> {
        if depth > MAX_DEPTH {
            return Err(format!(
                "node {i}: {depth} internal nodes deep, more than the traversal's stack takes ({MAX_DEPTH})"
            ));
        }
        let n = &self.inner[i];
        // A descent lists a leaf child as soon as it meets it, and the
        // leaves of an internal child when it gets to them: only if a right
        // leaf child has a leaf sibling do partner lists come out ascending
        // (`bvh_traverse::gather`; the median split guarantees it).
        if n.child[1] & LEAF != 0 && n.child[0] & LEAF == 0 {
            return Err(format!(
                "node {i}: a leaf right of an internal node (a descent would list it before the leaves left of it)"
            ));
        }
        for c in 0..2 {
            let r = n.child[c];
            if r & LEAF != 0 {
                let l = r & !LEAF;
                if l != *next_leaf {
                    return Err(format!("node {i}: leaf {l} out of order"));
                }
                *next_leaf += 1;
                if n.bv[c] != leaf_q(l) {
                    return Err(format!("node {i}: stale k-DOP of leaf {l}"));
                }
            } else {
                if r as usize <= i || r as usize >= self.inner.len() {
                    return Err(format!("node {i}: bad child {r}"));
                }
                self.validate_subtree(r as usize, depth + 1, next_leaf, leaf_q)?;
                let m = &self.inner[r as usize];
                if n.bv[c] != m.bv[0].merge(&m.bv[1]) {
                    return Err(format!("node {i}: stale k-DOP of node {r}"));
                }
            }
            if n.last[c] + 1 != *next_leaf {
                return Err(format!("node {i}: wrong last leaf of child {c}"));
            }
        }
        Ok(())
    }
}
