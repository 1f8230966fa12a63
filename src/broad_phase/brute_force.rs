//! The oracle of the broad phase: every vertex–face and edge–edge pair whose
//! swept k-DOPs overlap, found without a tree.
//!
//! The candidate set is, by definition,
//! `{(v, f) : BV(v) ∩ BV(f) ≠ ∅, v not a corner of f}
//!  ∪ {(e, e'), e < e' : BV(e) ∩ BV(e') ≠ ∅, no shared endpoint}`,
//! with the same k-DOPs as the BVH (`bounding_volume::swept_*_kdops`, closed
//! overlap). To stay fast enough for real frames it sorts the k-DOPs by the
//! lower bound of one slab and, for each, scans the later ones only while
//! their lower bound is at most its upper bound (sort and sweep): the
//! skipped pairs are disjoint in that slab, hence do not overlap. Every
//! scanned pair gets the full k-DOP test. Any slab gives the same set; the
//! sweep takes the one with the fewest overlapping intervals, counted
//! beforehand (a binary search per k-DOP and slab).
//!
//! One slab alone scans far more pairs than there are candidates on a
//! sheet (a k-DOP meets every other of its strip across the sheet), so the
//! k-DOPs are first put into cells along a second slab (the next best):
//! equal-width cells over that slab's range, each k-DOP into every cell its
//! interval meets, and each cell swept on its own. Two k-DOPs whose
//! intervals in the second slab overlap share the cell of the larger of
//! their first cells (the cell index is monotone in the coordinate, however
//! it rounds), and the pair is taken there only, so it is found once. Cells
//! are swept in parallel (rayon), each into its own lists, which are merged
//! and sorted: the set and the counts do not depend on the thread count.
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
//!
//! docs/design.md §6 (the set the BVH must reproduce, and the sort and sweep
//! that also gives the codimensional points' pairs).

use super::bvh::half_up;
use super::candidate::{BroadPhaseStats, CandidateSet, EePair, VfPair};
use crate::bounding_volume::{
    Kdop, KdopAxes, swept_edge_kdops, swept_face_kdops, swept_vertex_kdops,
};
use crate::mesh::Step;

/// All candidates of `step` for the k-DOP `axes`, sorted, with their counts.
/// `node_tests` counts the k-DOP tests done; `leaf_pairs` stays 0.
pub fn brute_force_candidates(step: &Step<'_>, axes: KdopAxes) -> (CandidateSet, BroadPhaseStats) {
    brute_force_candidates_within(step, axes, 0.0)
}

/// [`brute_force_candidates`] for a minimum separation `min_distance`: the
/// oracle of [`crate::broad_phase::KdopBvh::build_within`] (every vertex
/// k-DOP grown by `min_distance / 2`, rounded up).
///
/// # Panics
/// When `min_distance` is negative or not finite (as `build_within`).
pub fn brute_force_candidates_within(
    step: &Step<'_>,
    axes: KdopAxes,
    min_distance: f64,
) -> (CandidateSet, BroadPhaseStats) {
    assert!(
        min_distance.is_finite() && min_distance >= 0.0,
        "min_distance {min_distance} is not a finite distance"
    );
    let r = half_up(min_distance);
    match axes {
        KdopAxes::Dop6 => brute_force::<3>(step, r),
        KdopAxes::Dop8 => brute_force::<4>(step, r),
        KdopAxes::Dop14 => brute_force::<7>(step, r),
        KdopAxes::Dop18 => brute_force::<9>(step, r),
        KdopAxes::Dop26 => brute_force::<13>(step, r),
    }
}

/// One entry of a sweep: the swept slab's bounds and what it is.
#[derive(Clone, Copy)]
pub(super) struct Entry {
    lo: f64,
    hi: f64,
    /// 0: vertex or edge; 1: face (the codimensional points' sweep: 0, point;
    /// 1, edge).
    pub(super) kind: u8,
    pub(super) id: u32,
}

/// About the number of pairs a sweep over slab `slab` of `kdops` scans: for
/// each k-DOP, the others whose lower bound lies within its slab interval
/// (exact but for equal lower bounds, counted from both sides).
fn scanned_pairs<const N: usize>(kdops: &[&Kdop<N>], slab: usize) -> u64 {
    let mut lo: Vec<f64> = kdops.iter().map(|b| b.lo[slab]).collect();
    lo.sort_unstable_by(f64::total_cmp);
    kdops
        .iter()
        .map(|b| {
            let up_to = lo.partition_point(|&l| l <= b.hi[slab]);
            let from = lo.partition_point(|&l| l < b.lo[slab]);
            up_to.saturating_sub(from + 1) as u64
        })
        .sum()
}

/// The two slabs of `kdops` whose sweeps scan the fewest pairs, fewest
/// first (the same slab twice when there is one).
pub(super) fn sweep_slabs<const N: usize>(kdops: &[&Kdop<N>]) -> (usize, usize) {
    let mut by_pairs: Vec<(u64, usize)> = (0..N)
        .map(|slab| (scanned_pairs(kdops, slab), slab))
        .collect();
    by_pairs.sort_unstable();
    (by_pairs[0].1, by_pairs.get(1).unwrap_or(&by_pairs[0]).1)
}

/// The most cells of a sweep.
const MAX_CELLS: usize = 4096;

/// Equal-width cells over one slab's range: `index(x)` is monotone in `x`.
struct Cells {
    min: f64,
    width: f64,
    count: usize,
}

impl Cells {
    /// About one cell per mean interval length over the range of `lo..hi`
    /// (at most [`MAX_CELLS`], and at most one per interval); a single cell
    /// where the range or the lengths are not finite and positive.
    fn new(intervals: impl Iterator<Item = (f64, f64)>) -> Cells {
        let one = Cells {
            min: 0.0,
            width: 1.0,
            count: 1,
        };
        let (mut min, mut max, mut length, mut n) = (f64::INFINITY, f64::NEG_INFINITY, 0.0, 0usize);
        for (lo, hi) in intervals {
            min = min.min(lo);
            max = max.max(hi);
            length += hi - lo;
            n += 1;
        }
        let range = max - min;
        let mean = length / n as f64;
        if !(range.is_finite() && range > 0.0 && mean.is_finite()) {
            return one;
        }
        let count = (range / mean.max(range / MAX_CELLS as f64)).ceil();
        let count = (count as usize).clamp(1, MAX_CELLS.min(n));
        Cells {
            min,
            width: range / count as f64,
            count,
        }
    }

    /// The cell of coordinate `x` (clamped to the cells).
    fn index(&self, x: f64) -> usize {
        // `as` saturates: below the range (or NaN) is cell 0.
        (((x - self.min) / self.width) as usize).min(self.count - 1)
    }
}

/// Sweeps every cell of `entries` (each with its interval in the cells'
/// slab): `visit(out, a, b)` for every pair of entries whose sweep slabs
/// overlap and whose cell intervals first meet in this cell, in parallel;
/// each worker fills its own `T`, merged with `merge`.
pub(super) fn sweep_cells<T: Default + Send>(
    entries: Vec<(Entry, f64, f64)>,
    visit: impl Fn(&mut T, &Entry, &Entry) + Sync,
    merge: impl Fn(T, T) -> T + Sync + Send,
) -> T {
    use rayon::prelude::*;
    let cells = Cells::new(entries.iter().map(|&(_, lo, hi)| (lo, hi)));
    // Each entry with its first cell, listed in every cell it meets.
    let mut members: Vec<Vec<(Entry, usize)>> = (0..cells.count).map(|_| Vec::new()).collect();
    for (e, lo, hi) in entries {
        let (first, last) = (cells.index(lo), cells.index(hi));
        for cell in &mut members[first..=last] {
            cell.push((e, first));
        }
    }
    members
        .into_par_iter()
        .enumerate()
        .map(|(cell, entries)| {
            sweep(
                entries,
                |out: &mut T, (a, a_first), (b, b_first)| {
                    if (*a_first).max(*b_first) == cell {
                        visit(out, a, b);
                    }
                },
                &merge,
            )
        })
        .reduce(T::default, &merge)
}

/// [`sweep_cells`] for the pairs of an entry of kind 0 and one of kind 1
/// only: `visit(out, a, b)` with `a` of kind 0. In each cell the two kinds
/// are sorted apart and swept against each other, so that no pair of one
/// kind is visited: a pair whose sweep slabs overlap is visited from `b`
/// when `a`'s interval starts within `b`'s, and from `a` when `b`'s starts
/// strictly within `a`'s.
pub(super) fn sweep_cells_across<T: Default + Send>(
    entries: Vec<(Entry, f64, f64)>,
    visit: impl Fn(&mut T, &Entry, &Entry) + Sync,
    merge: impl Fn(T, T) -> T + Sync + Send,
) -> T {
    use rayon::prelude::*;
    let cells = Cells::new(entries.iter().map(|&(_, lo, hi)| (lo, hi)));
    let mut members: Vec<[Vec<(Entry, usize)>; 2]> =
        (0..cells.count).map(|_| [Vec::new(), Vec::new()]).collect();
    for (e, lo, hi) in entries {
        let (first, last) = (cells.index(lo), cells.index(hi));
        for cell in &mut members[first..=last] {
            cell[usize::from(e.kind != 0)].push((e, first));
        }
    }
    let by_lo = |x: &(Entry, usize), y: &(Entry, usize)| {
        x.0.lo.total_cmp(&y.0.lo).then(x.0.id.cmp(&y.0.id))
    };
    members
        .into_par_iter()
        .enumerate()
        .map(|(cell, [mut a, mut b])| {
            a.sort_unstable_by(by_lo);
            b.sort_unstable_by(by_lo);
            let mut out = T::default();
            for &(eb, fb) in &b {
                let from = a.partition_point(|x| x.0.lo < eb.lo);
                for &(ea, fa) in a[from..].iter().take_while(|x| x.0.lo <= eb.hi) {
                    if fa.max(fb) == cell {
                        visit(&mut out, &ea, &eb);
                    }
                }
            }
            for &(ea, fa) in &a {
                let from = b.partition_point(|x| x.0.lo <= ea.lo);
                for &(eb, fb) in b[from..].iter().take_while(|x| x.0.lo <= ea.hi) {
                    if fa.max(fb) == cell {
                        visit(&mut out, &ea, &eb);
                    }
                }
            }
            out
        })
        .reduce(T::default, &merge)
}

/// Sorts by the sweep slab's lower bound (ties by kind and id, so the sweep
/// is deterministic) and calls `visit(out, a, b)` for every pair of entries
/// whose sweep slabs overlap, `a` before `b` in that order, in parallel:
/// each worker fills its own `T`, and the results are merged with `merge`.
fn sweep<T: Default + Send, X: Sync + Send>(
    mut entries: Vec<(Entry, X)>,
    visit: impl Fn(&mut T, &(Entry, X), &(Entry, X)) + Sync,
    merge: impl Fn(T, T) -> T + Sync + Send,
) -> T {
    use rayon::prelude::*;
    entries.sort_unstable_by(|(a, _), (b, _)| {
        a.lo.total_cmp(&b.lo)
            .then(a.kind.cmp(&b.kind))
            .then(a.id.cmp(&b.id))
    });
    let entries = &entries;
    (0..entries.len())
        .into_par_iter()
        .with_min_len(256)
        .fold(T::default, |mut out, i| {
            let a = &entries[i];
            for b in &entries[i + 1..] {
                if b.0.lo > a.0.hi {
                    break;
                }
                visit(&mut out, a, b);
            }
            out
        })
        .reduce(T::default, merge)
}

/// A k-DOP's entry for a sweep over slab `sweep`, with its interval in
/// slab `cell` (that of the cells).
pub(super) fn entry<const N: usize>(
    bv: &Kdop<N>,
    (sweep, cell): (usize, usize),
    kind: u8,
    id: usize,
) -> (Entry, f64, f64) {
    let e = Entry {
        lo: bv.lo[sweep],
        hi: bv.hi[sweep],
        kind,
        id: id as u32,
    };
    (e, bv.lo[cell], bv.hi[cell])
}

/// Candidates and counts found by one worker of a sweep.
#[derive(Default)]
struct Found {
    set: CandidateSet,
    stats: BroadPhaseStats,
}

impl Found {
    fn merge(mut self, other: Found) -> Found {
        self.set.vertex_face.extend(other.set.vertex_face);
        self.set.edge_edge.extend(other.set.edge_edge);
        let (s, o) = (&mut self.stats, &other.stats);
        s.node_tests += o.node_tests;
        s.vf_candidates += o.vf_candidates;
        s.vf_same_component += o.vf_same_component;
        s.ee_candidates += o.ee_candidates;
        s.ee_same_component += o.ee_same_component;
        self
    }
}

fn brute_force<const N: usize>(step: &Step<'_>, margin: f64) -> (CandidateSet, BroadPhaseStats) {
    let mesh = step.mesh;
    let comp = mesh.component();
    let mut vertex = swept_vertex_kdops::<N>(step);
    for bv in &mut vertex {
        bv.inflate_in(margin);
    }
    let edge = swept_edge_kdops(step, &vertex);
    let face = swept_face_kdops(step, &vertex);

    let vf: Vec<&Kdop<N>> = vertex.iter().chain(&face).collect();
    let slabs = sweep_slabs(&vf);
    let entries = (vertex
        .iter()
        .enumerate()
        .map(|(i, b)| entry(b, slabs, 0, i)))
    .chain(face.iter().enumerate().map(|(i, b)| entry(b, slabs, 1, i)))
    .collect();
    let vf = sweep_cells(
        entries,
        |out: &mut Found, a, b| {
            if a.kind == b.kind {
                return;
            }
            let (v, f) = if a.kind == 0 {
                (a.id, b.id)
            } else {
                (b.id, a.id)
            };
            out.stats.node_tests += 1;
            let corners = mesh.faces()[f as usize];
            if vertex[v as usize].overlaps(&face[f as usize]) && !corners.contains(&v) {
                out.set.vertex_face.push(VfPair { v, f });
                out.stats.vf_candidates += 1;
                out.stats.vf_same_component +=
                    u64::from(comp[v as usize] == comp[corners[0] as usize]);
            }
        },
        Found::merge,
    );

    let slabs = sweep_slabs(&edge.iter().collect::<Vec<_>>());
    let entries = edge
        .iter()
        .enumerate()
        .map(|(i, b)| entry(b, slabs, 0, i))
        .collect();
    let ee = sweep_cells(
        entries,
        |out: &mut Found, a, b| {
            out.stats.node_tests += 1;
            let ([p, q], [r, s]) = (mesh.edges()[a.id as usize], mesh.edges()[b.id as usize]);
            if edge[a.id as usize].overlaps(&edge[b.id as usize])
                && p != r
                && p != s
                && q != r
                && q != s
            {
                out.set.edge_edge.push(EePair::new(a.id, b.id));
                out.stats.ee_candidates += 1;
                out.stats.ee_same_component += u64::from(comp[p as usize] == comp[r as usize]);
            }
        },
        Found::merge,
    );
    let Found { mut set, stats } = vf.merge(ee);
    set.sort();
    (set, stats)
}
