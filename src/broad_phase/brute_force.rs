//! The oracle of the broad phase: every vertex–face and edge–edge pair whose
//! swept k-DOPs overlap, found without a tree.
//!
//! The candidate set is, by definition,
//! `{(v, f) : BV(v) ∩ BV(f) ≠ ∅, v not a corner of f}
//!  ∪ {(e, e'), e < e' : BV(e) ∩ BV(e') ≠ ∅, no shared endpoint}`,
//! with the same k-DOPs as the BVH (`bounding_volume::swept_*_kdops`, closed
//! overlap). To stay fast enough for real frames it sorts the k-DOPs by the
//! lower bound of their first slab and, for each, scans the later ones only
//! while their lower bound is at most its upper bound (sort and sweep):
//! the skipped pairs are disjoint in that slab, hence do not overlap. Every
//! scanned pair gets the full k-DOP test.
//!
//! **Convention, and the published counts.** With k = 6 (swept AABBs, exact
//! in `f64`: coordinates are not rounded) this reproduces the counts that the
//! data set's reference code (Belgrod et al. 2023, scalable-ccd, CPU sort and
//! sweep) publishes for cloth-ball 92→93: 1,655,541 vertex–face and 5,197,332
//! edge–edge pairs. That code builds boxes from the two frames' vertex
//! positions (float32 in the file, widened), nudges each bound outward by one
//! ulp (`nextafter`), counts touching boxes as overlapping (`min ≤ max` on
//! every axis) and drops pairs that share a vertex. On this frame pair the
//! one-ulp nudge, in f32 or f64, changes no count; touching does: with
//! strict overlap the counts would be 1,619,113 and 5,096,837.

use super::candidate::{BroadPhaseStats, CandidateSet, EePair, VfPair};
use crate::bounding_volume::{
    Kdop, KdopAxes, swept_edge_kdops, swept_face_kdops, swept_vertex_kdops,
};
use crate::mesh::Step;

/// All candidates of `step` for the k-DOP `axes`, sorted, with their counts.
/// `node_tests` counts the k-DOP tests done; `leaf_pairs` stays 0.
pub fn brute_force_candidates(step: &Step<'_>, axes: KdopAxes) -> (CandidateSet, BroadPhaseStats) {
    match axes {
        KdopAxes::Dop6 => brute_force::<3>(step),
        KdopAxes::Dop8 => brute_force::<4>(step),
        KdopAxes::Dop14 => brute_force::<7>(step),
        KdopAxes::Dop18 => brute_force::<9>(step),
        KdopAxes::Dop26 => brute_force::<13>(step),
    }
}

/// One entry of a sweep: the first slab's bounds and what it is.
struct Entry {
    lo: f64,
    hi: f64,
    /// 0: vertex or edge; 1: face.
    kind: u8,
    id: u32,
}

/// Sorts by the first slab's lower bound (ties by kind and id, so the sweep
/// is deterministic) and calls `visit(a, b)` for every pair of entries whose
/// first slabs overlap, `a` before `b` in that order.
fn sweep(mut entries: Vec<Entry>, mut visit: impl FnMut(&Entry, &Entry)) {
    entries.sort_unstable_by(|a, b| {
        a.lo.total_cmp(&b.lo)
            .then(a.kind.cmp(&b.kind))
            .then(a.id.cmp(&b.id))
    });
    for (i, a) in entries.iter().enumerate() {
        for b in &entries[i + 1..] {
            if b.lo > a.hi {
                break;
            }
            visit(a, b);
        }
    }
}

fn entry<const N: usize>(bv: &Kdop<N>, kind: u8, id: usize) -> Entry {
    Entry {
        lo: bv.lo[0],
        hi: bv.hi[0],
        kind,
        id: id as u32,
    }
}

fn brute_force<const N: usize>(step: &Step<'_>) -> (CandidateSet, BroadPhaseStats) {
    let mesh = step.mesh;
    let comp = mesh.component();
    let vertex = swept_vertex_kdops::<N>(step);
    let edge = swept_edge_kdops(step, &vertex);
    let face = swept_face_kdops(step, &vertex);
    let mut out = CandidateSet::default();
    let mut stats = BroadPhaseStats::default();

    let entries = (vertex.iter().enumerate().map(|(i, b)| entry(b, 0, i)))
        .chain(face.iter().enumerate().map(|(i, b)| entry(b, 1, i)))
        .collect();
    sweep(entries, |a, b| {
        if a.kind == b.kind {
            return;
        }
        let (v, f) = if a.kind == 0 {
            (a.id, b.id)
        } else {
            (b.id, a.id)
        };
        stats.node_tests += 1;
        let corners = mesh.faces()[f as usize];
        if vertex[v as usize].overlaps(&face[f as usize]) && !corners.contains(&v) {
            out.vertex_face.push(VfPair { v, f });
            stats.vf_candidates += 1;
            stats.vf_same_component += u64::from(comp[v as usize] == comp[corners[0] as usize]);
        }
    });

    let entries = edge
        .iter()
        .enumerate()
        .map(|(i, b)| entry(b, 0, i))
        .collect();
    sweep(entries, |a, b| {
        stats.node_tests += 1;
        let ([p, q], [r, s]) = (mesh.edges()[a.id as usize], mesh.edges()[b.id as usize]);
        if edge[a.id as usize].overlaps(&edge[b.id as usize])
            && p != r
            && p != s
            && q != r
            && q != s
        {
            out.edge_edge.push(EePair::new(a.id, b.id));
            stats.ee_candidates += 1;
            stats.ee_same_component += u64::from(comp[p as usize] == comp[r as usize]);
        }
    });
    out.sort();
    (out, stats)
}
