//! The broad phase a Rust user would otherwise reach for: parry's AABB BVH
//! (`parry3d_f64::partitioning::Bvh`, parry3d-f64 0.31, dimforge), over the
//! same swept features as ours (Wan, Fu & Yao 2022, §1.1), so that the
//! high-level cull of our k-DOP BVH can be compared with it on the same steps.
//!
//! **What is built.** Three parry BVHs, one per feature kind, whose leaves are
//! the swept AABBs (the bounds of the feature's vertices at `t = 0` and
//! `t = 1`, exact in `f64`: min/max only) of every vertex, every edge (libigl
//! order) and every face, leaf data = the feature's index. They are built with
//! `Bvh::from_leaves(BvhBuildStrategy::Binned, …)` (parry's default strategy,
//! binned SAH), refitted for a new frame pair with
//! `Bvh::update_partially_if_present` on every leaf followed by `Bvh::refit`
//! (parry's documented bulk-update path), and traversed with parry's own
//! bounding-volume test tree traversals: `Bvh::leaf_pairs` (vertex tree
//! against face tree) for vertex–face pairs and
//! `Bvh::traverse_bvtt_single_tree` (the edge tree against itself) for
//! edge–edge pairs. parry's node test is closed (`mins ≤ maxs` on every axis),
//! like ours.
//!
//! **Same pairs as ours.** Pairs that share a vertex are skipped (a vertex
//! that is a corner of the face; edges with a common endpoint), and every pair
//! is emitted once (`leaf_pairs` reaches each vertex–face leaf pair once, the
//! self traversal each unordered edge pair once), so the candidate set is,
//! by definition, the brute-force swept-AABB set of
//! [`crate::broad_phase::brute_force_candidates`] with k = 6, and equal to our
//! 6-DOP BVH's set (tests: `tests/integration/baseline_parry.rs`). `leaf_pairs` does not
//! test the first pair of root children it starts from, so every leaf pair is
//! re-tested against the stored leaf boxes before it is emitted.
//!
//! **Deviations from what parry offers.** parry's `parallel` feature (parallel
//! traversal and refit) is not enabled in this crate's build, so the baseline
//! runs on one thread whatever the rayon pool; the benches compare it with
//! ours on one thread.

use parry3d_f64::bounding_volume::Aabb;
use parry3d_f64::math::Vector;
use parry3d_f64::partitioning::{Bvh, BvhBuildStrategy, BvhWorkspace};

use crate::broad_phase::{BroadPhaseError, BroadPhaseStats, CandidateSet, EePair, VfPair};
use crate::math::Vec3;
use crate::mesh::{Step, TriMesh};

/// The parry crate and API this baseline is written against.
pub const PARRY_API: &str = "parry3d-f64 0.31 partitioning::Bvh (Binned build, refit, BVTT)";

/// parry's AABB BVHs over the swept vertices, edges and faces of a step.
#[derive(Clone)]
pub struct ParryBroadPhase {
    vertex_tree: Bvh,
    edge_tree: Bvh,
    face_tree: Bvh,
    vertex_aabbs: Vec<Aabb>,
    edge_aabbs: Vec<Aabb>,
    face_aabbs: Vec<Aabb>,
    workspace: BvhWorkspace,
}

impl std::fmt::Debug for ParryBroadPhase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParryBroadPhase")
            .field("vertices", &self.vertex_aabbs.len())
            .field("edges", &self.edge_aabbs.len())
            .field("faces", &self.face_aabbs.len())
            .finish()
    }
}

/// Swept AABBs of every vertex, edge and face of `step`.
fn swept_aabbs(step: &Step<'_>) -> (Vec<Aabb>, Vec<Aabb>, Vec<Aabb>) {
    let v = |p: &Vec3| Vector::new(p.x, p.y, p.z);
    let vertex: Vec<Aabb> = step
        .x_t0
        .iter()
        .zip(step.x_t1)
        .map(|(a, b)| {
            let (a, b) = (v(a), v(b));
            Aabb::new(a.min(b), a.max(b))
        })
        .collect();
    let merge = |a: &Aabb, b: &Aabb| Aabb::new(a.mins.min(b.mins), a.maxs.max(b.maxs));
    let edge = step
        .mesh
        .edges()
        .iter()
        .map(|&[a, b]| merge(&vertex[a as usize], &vertex[b as usize]))
        .collect();
    let face = step
        .mesh
        .faces()
        .iter()
        .map(|&[a, b, c]| {
            merge(
                &merge(&vertex[a as usize], &vertex[b as usize]),
                &vertex[c as usize],
            )
        })
        .collect();
    (vertex, edge, face)
}

/// Closed overlap of two boxes (touching counts), as parry's node test.
#[inline]
fn overlaps(a: &Aabb, b: &Aabb) -> bool {
    a.mins.cmple(b.maxs).all() && a.maxs.cmpge(b.mins).all()
}

fn check_count(what: &'static str, expected: usize, found: usize) -> Result<(), BroadPhaseError> {
    if expected == found {
        Ok(())
    } else {
        Err(BroadPhaseError::TopologyMismatch {
            what,
            expected,
            found,
        })
    }
}

impl ParryBroadPhase {
    /// Builds the three BVHs for `step` (swept AABBs, then parry's binned
    /// build).
    pub fn build(step: &Step<'_>) -> ParryBroadPhase {
        let (vertex_aabbs, edge_aabbs, face_aabbs) = swept_aabbs(step);
        let tree = |leaves: &[Aabb]| Bvh::from_leaves(BvhBuildStrategy::Binned, leaves);
        ParryBroadPhase {
            vertex_tree: tree(&vertex_aabbs),
            edge_tree: tree(&edge_aabbs),
            face_tree: tree(&face_aabbs),
            vertex_aabbs,
            edge_aabbs,
            face_aabbs,
            workspace: BvhWorkspace::default(),
        }
    }

    /// Refits the BVHs to a new frame pair of the same mesh: new leaf boxes,
    /// then `Bvh::refit` (the tree topology is kept).
    pub fn refit(&mut self, step: &Step<'_>) -> Result<(), BroadPhaseError> {
        let mesh = step.mesh;
        check_count("vertices", self.vertex_aabbs.len(), mesh.num_vertices())?;
        check_count("edges", self.edge_aabbs.len(), mesh.num_edges())?;
        check_count("faces", self.face_aabbs.len(), mesh.num_faces())?;
        let (vertex, edge, face) = swept_aabbs(step);
        for (tree, boxes) in [
            (&mut self.vertex_tree, &vertex),
            (&mut self.edge_tree, &edge),
            (&mut self.face_tree, &face),
        ] {
            for (i, b) in boxes.iter().enumerate() {
                let updated = tree.update_partially_if_present(*b, i as u32, 0.0);
                debug_assert!(updated.is_some(), "every leaf was inserted by build");
            }
            tree.refit(&mut self.workspace);
        }
        (self.vertex_aabbs, self.edge_aabbs, self.face_aabbs) = (vertex, edge, face);
        Ok(())
    }

    /// Every vertex–face and edge–edge candidate of `mesh` (the mesh the BVHs
    /// were built for), in traversal order, with counts. `node_tests` and
    /// `leaf_pairs` are not counted (parry does not report them);
    /// `feature_tests` counts the leaf pairs parry reached.
    pub fn candidates(
        &mut self,
        mesh: &TriMesh,
    ) -> Result<(CandidateSet, BroadPhaseStats), BroadPhaseError> {
        check_count("vertices", self.vertex_aabbs.len(), mesh.num_vertices())?;
        check_count("edges", self.edge_aabbs.len(), mesh.num_edges())?;
        check_count("faces", self.face_aabbs.len(), mesh.num_faces())?;
        let comp = mesh.component();
        let (faces, edges) = (mesh.faces(), mesh.edges());
        let mut out = CandidateSet::default();
        let mut stats = BroadPhaseStats::default();

        for (v, f) in self
            .vertex_tree
            .leaf_pairs(&self.face_tree, |a, b| a.intersects(b))
        {
            stats.feature_tests += 1;
            let corners = faces[f as usize];
            if corners.contains(&v)
                || !overlaps(&self.vertex_aabbs[v as usize], &self.face_aabbs[f as usize])
            {
                continue;
            }
            out.vertex_face.push(VfPair { v, f });
            stats.vf_candidates += 1;
            stats.vf_same_component += u64::from(comp[v as usize] == comp[corners[0] as usize]);
        }

        let edge_aabbs = &self.edge_aabbs;
        self.edge_tree
            .traverse_bvtt_single_tree::<false>(&mut self.workspace, &mut |a, b| {
                stats.feature_tests += 1;
                let ([p, q], [r, s]) = (edges[a as usize], edges[b as usize]);
                if a == b
                    || p == r
                    || p == s
                    || q == r
                    || q == s
                    || !overlaps(&edge_aabbs[a as usize], &edge_aabbs[b as usize])
                {
                    return;
                }
                out.edge_edge.push(EePair::new(a, b));
                stats.ee_candidates += 1;
                stats.ee_same_component += u64::from(comp[p as usize] == comp[r as usize]);
            });
        Ok((out, stats))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bounding_volume::KdopAxes;
    use crate::broad_phase::brute_force_candidates;

    /// Two stacked 2×2-quad sheets moving towards each other, plus a lone
    /// triangle far away: shared-vertex pairs, touching boxes, both kinds.
    fn sheets() -> (TriMesh, Vec<Vec3>, Vec<Vec3>) {
        let mut faces = Vec::new();
        let mut x0 = Vec::new();
        let mut x1 = Vec::new();
        for (sheet, z0, z1) in [(0u32, 0.0, 0.3), (1, 0.5, 0.1)] {
            let base = sheet * 9;
            for j in 0..3 {
                for i in 0..3 {
                    let (x, y) = (i as f64 * 0.5, j as f64 * 0.5 + 0.1 * sheet as f64);
                    x0.push(Vec3::new(x, y, z0));
                    x1.push(Vec3::new(x + 0.05, y, z1));
                }
            }
            for j in 0..2 {
                for i in 0..2 {
                    let a = base + j * 3 + i;
                    faces.push([a, a + 1, a + 4]);
                    faces.push([a, a + 4, a + 3]);
                }
            }
        }
        let n = x0.len() as u32;
        for p in [[5.0, 5.0, 5.0], [6.0, 5.0, 5.0], [5.0, 6.0, 5.0]] {
            x0.push(Vec3::new(p[0], p[1], p[2]));
            x1.push(Vec3::new(p[0], p[1], p[2] + 1.0));
        }
        faces.push([n, n + 1, n + 2]);
        let mesh = TriMesh::new(x0.len(), faces).unwrap();
        (mesh, x0, x1)
    }

    #[test]
    fn parry_finds_the_brute_force_set_and_keeps_it_after_a_refit() {
        let (mesh, x0, x1) = sheets();
        let step = Step::new(&mesh, &x0, &x1).unwrap();
        let (oracle, ostats) = brute_force_candidates(&step, KdopAxes::Dop6);
        let mut parry = ParryBroadPhase::build(&step);
        let (set, stats) = parry.candidates(&mesh).unwrap();
        assert!(!oracle.vertex_face.is_empty() && !oracle.edge_edge.is_empty());
        assert_eq!(set.clone().sorted(), oracle);
        assert_eq!(stats.vf_candidates, ostats.vf_candidates);
        assert_eq!(stats.ee_same_component, ostats.ee_same_component);
        // Reversed step: new boxes, same tree.
        let back = Step::new(&mesh, &x1, &x0).unwrap();
        parry.refit(&back).unwrap();
        assert_eq!(
            parry.candidates(&mesh).unwrap().0.sorted(),
            brute_force_candidates(&back, KdopAxes::Dop6).0
        );
    }

    #[test]
    fn another_mesh_is_refused() {
        let (mesh, x0, x1) = sheets();
        let step = Step::new(&mesh, &x0, &x1).unwrap();
        let mut parry = ParryBroadPhase::build(&step);
        let small = TriMesh::new(3, vec![[0, 1, 2]]).unwrap();
        let p = [Vec3::zeros(), Vec3::x(), Vec3::y()];
        let other = Step::new(&small, &p, &p).unwrap();
        assert!(matches!(
            parry.refit(&other),
            Err(BroadPhaseError::TopologyMismatch { .. })
        ));
        assert!(parry.candidates(&small).is_err());
    }
}
