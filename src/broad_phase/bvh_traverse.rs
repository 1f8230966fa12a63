//! Traversal: one BVH against itself (all pairs within the covered
//! components) or two BVHs of one mesh against each other (pairs across
//! them), down to the paper's feature level (Wan, Fu & Yao 2022, §1.1: the
//! smallest BVs enclose the triangles' vertices and edges, not the triangles).
//!
//! **What is emitted.** For every pair of distinct leaves `A`, `B` reached
//! (below), with `f_A`, `f_B` their faces: `(v, f_B)` for every vertex `v`
//! owned by `A` with `BV(v) ∩ BV(f_B) ≠ ∅` and `v` not a corner of `f_B`;
//! symmetrically `(u, f_A)` for `u` owned by `B`; and `(e, e')` for every edge
//! `e` owned by `A` and `e'` owned by `B` whose k-DOPs overlap and which share
//! no endpoint. All these tests use the exact `f64` k-DOPs.
//!
//! **Which leaf pairs are reached, and why the output is exactly the
//! brute-force set.** Leaf `A` is used as a query: from the root, a child is
//! entered when its (quantized, outward-rounded) k-DOP overlaps `A`'s and its
//! subtree holds a leaf numbered above `A` (leaves below a node are
//! consecutive, so this is one comparison with the subtree's last leaf). Every
//! node's k-DOP contains everything below it, so a leaf `B > A` whose exact
//! k-DOP overlaps `A`'s is always reached, and reached from `A` only. A vertex
//! `v ∉ f` has owner `o(v) ≠ f` and `BV(v) ⊆ BV(o(v))`, so if `BV(v) ∩ BV(f) ≠ ∅`
//! the leaves `o(v)` and `f` overlap and the pair is tested exactly once, from
//! the lower-numbered of the two; two edges sharing no endpoint have different
//! owners (two edges of one triangle share a vertex), likewise. Leaf pairs
//! reached only because of the quantization emit nothing extra: every
//! emitted pair passed its exact test.
//!
//! **Clusters.** In the self traversal, the leaves of one cluster share
//! one descent: the merge of their quantized k-DOPs gathers the union of
//! their partners, and each leaf keeps those numbered above it whose
//! quantized k-DOP (the one its parent node stores) overlaps its own. A
//! descent with a leaf's own k-DOP reaches exactly those leaves (a node's
//! k-DOP contains its children's), so the partner lists, and everything
//! after, are unchanged; only the descents, which cost more than the leaf
//! tests that replace them, are shared. Any run of consecutive leaves would
//! give the same lists; the clusters are the tree's largest subtrees of at
//! most [`CLUSTER`](super::bvh::CLUSTER) leaves (`KdopBvh::clusters`, listed
//! at build), whose merges are as tight as the tree's nodes. They replaced
//! runs of eight leaves from every eighth, which mostly straddle two
//! subtrees (the median split's subtrees are not powers of two: funnel's
//! smallest have nine leaves), with the same pairs and counts except the
//! node tests: funnel 227→228 955 K → 724 K, cloth-ball 92→93 12.0 M →
//! 10.4 M (with time-aligned pruning 9.6 M → 7.8 M). One traversal, one
//! thread (callgrind, `pipeline_profile traverse`): funnel 60.4 M → 51.9 M
//! instructions, cloth-ball 1,160 M → 1,087 M (time-aligned 854 M →
//! 774 M). A whole one-thread `ccdlab step` (callgrind): funnel with the
//! BVH refitted 78.5 M → 69.4 M, cloth-ball (`auto`) with the BVH built
//! 1,753 M → 1,666 M. Funnel, two threads, BVH refitted, six interleaved
//! rounds in a slow period of this machine (unrecorded): best per round
//! 3.79–4.33 ms against 3.89–4.83, faster in five rounds of six. Where the
//! node tests went then (counted, one traversal): funnel made 724 K for
//! 119 K leaf pairs, 258 K in the descents and 467 K in the leaves'
//! filtering of their clusters' partners (before: 345 K and 611 K);
//! cloth-ball 10.4 M for 2.7 M leaf pairs, 2.5 M and 7.9 M (before: 3.6 M
//! and 8.4 M). Since then a cluster's own leaves (all but its first) are
//! tested against its merge directly, and its descent lists only the
//! leaves past its last, which skips the cluster's own subtree: node tests
//! funnel 724 K → 706 K, cloth-ball 10.36 M → 10.26 M; one traversal, one
//! thread, callgrind: funnel 51.9 M → 50.4 M instructions, cloth-ball
//! 1,087 M → 1,079 M (time-aligned 774 M → 766 M).
//! Most of funnel's leaf pairs are neighbours: 109,879 of its 119,334 are
//! two triangles sharing a vertex, which overlap whatever their bounding
//! volumes (cloth-ball: 563,793 of 2,708,361; counted from the topology).
//! Connectivity-based culling (Tang, Curtis, Yoon & Manocha, "ICCD", IEEE
//! TVCG 15(4), 2009: the feature pairs of neighbouring triangles as
//! "orphan sets" listed once from the topology) would move their feature
//! tests to such a list, but not remove them, and the whole feature level
//! is 23 M of funnel's 108 M step instructions (callgrind, one thread,
//! paper defaults): not pursued.
//!
//! **Two descents at a time.** A descent is a chain of dependent loads: the
//! next node comes off a stack whose top depends on the last node's tests,
//! so most of a descent's time is spent waiting for its next node (funnel
//! 227→228, one thread: the descents were a third of the traversal's time,
//! about 40 cycles per node visit). Consecutive clusters are therefore
//! gathered in pairs whose descents take turns, one node each
//! ([`gather_two`]): the processor loads one chain's next node while the
//! other's waits. The partner lists and the node tests are unchanged. One
//! thread, interleaved rounds: funnel 227→228 traversal 6.25–6.56 ms
//! against 6.52–6.92 (quieter, 5.0–5.4 against 5.4–6.1), cloth-ball 92→93
//! 98.9–100.9 against 105.4–107.3; whole step on 2 threads, BVH refitted:
//! funnel 3.52–3.66 against 3.88–3.98, cloth-ball 143–147 against 146–152.
//! Four and eight descents taking turns were no faster than two (the four
//! queries alone fill the sixteen vector registers). Nor was running the
//! next pair of clusters' descents a few node visits at a time between the
//! current pair's leaves, so that their loads would wait while the leaves'
//! tests run (measured, not adopted; the same lists): funnel 227→228, two
//! threads, BVH refitted, interleaved rounds, four visits of each descent
//! per leaf 3.19–3.25 ms against 3.00–3.06 (five rounds); one visit
//! 3.05–3.18 against 3.03–3.24, twelve 3.41–3.56 (the two quiet rounds of
//! three).
//!
//! **Pruning by SLPF's test** (an option, off by default:
//! [`KdopBvh::time_aligned`]). SLPF's test holds for whole leaves: if along
//! one slab direction every corner of `A` lies above every corner of `B` at
//! `t = 0` and again at `t = 1`, no feature pair of the two can touch
//! ([`crate::bounding_volume::aligned_overlap`]). With the option on, each
//! leaf's partners that pass the swept test are filtered once more, on the
//! leaves' quantized k-DOPs at the two times (all the k-DOP's slabs, not
//! only SLPF's five directions), before the feature level; and there, every
//! feature pair that passes the swept tests is also tested on its
//! features' images at the two times (a vertex's, a face's: its leaf's, an
//! edge's: the merge of its ends', in registers). On cloth-ball 92→93
//! (26-DOP) the leaves keep 1,217,951 of the 2,708,361 leaf pairs (8.9 M
//! feature tests → 4.0 M), and the candidates are 630,222 instead of
//! 3,249,720: SLPF then culls 9,680 of them, and 359,019 pass the paper's
//! filters instead of 530,609, with the same collisions. On funnel
//! 227→228, 115,794 of 119,334 leaf pairs are kept (cloth lying on itself:
//! neighbours overlap at both times) and 3,935 of 7,568 candidates.
//! Whole step, two threads, BVH built each run, interleaved rounds
//! (`scripts/ab_step.sh`), the quiet ones: with the leaves alone, cloth-ball
//! 126.3–127.8 ms against 144.6–146.9 off (five rounds, three quiet: build
//! 14.9–15.5 against 11.2–11.3, the images at the two times; traversal
//! 43.3–44.0 against 48.4–49.7; filters 50.0–50.7 against 67.5–68.2); with
//! the feature level too, 116.1–123.9 against 128.2–132.7 for the leaves
//! alone in the same rounds (six rounds, four quiet: traversal 49–51 against
//! 45, filters 34–36 against 51); funnel slower (`reports/time_aligned`:
//! build and traversal about 1 ms more on two threads, nothing pruned to
//! pay for it). Before the leaves' tests, each cluster's partners are
//! filtered once on the merge of its leaves' time-aligned images (at each
//! time): a partner apart from the merge is apart from every leaf of the
//! cluster, so the partner lists stay exactly the same, and the leaves'
//! swept tests of those partners are saved. On cloth-ball 92→93 it drops
//! 432,681 of the clusters' partner entries (node tests 12.0 M → 9.6 M;
//! the leaves then prune 878,289 pairs, `leaf_pairs_pruned`, instead of
//! 1,490,410): 2,193 M → 2,117 M instructions for the whole one-thread
//! step (callgrind, `--filters dnf`), traversal 46.6–47.4 ms against
//! 49.1–49.9 (two threads, interleaved rounds, the quiet ones). (Measured,
//! not adopted: the time-aligned images of every node's children too, so
//! that the clusters' descents themselves skip the subtrees apart at both
//! times, which then reach exactly the pruned lists: node tests 9.6 M →
//! 7.4 M, but 2,104 M → 2,121 M instructions for the whole step, the
//! nodes' images included.) At the feature level, the pairs that pass the
//! swept outer tests are first compacted, without a branch, to those whose
//! time-aligned images overlap, and only those get the inner-image and
//! exact tests (before, every pair got all three, the time-aligned verdict
//! `&`-ed in to keep its coin-toss branch away): 1,833 M → 1,767 M
//! instructions for the whole one-thread step (callgrind, `--filters
//! dnf`; 0.17 M more mispredicted branches in callgrind's model of
//! 5.45 M), traversal 43.3–44.1 ms against 47.3–49.1 (two threads, six
//! interleaved rounds, the quiet ones); the paper's traversal, which has
//! no such pass, makes 0.3 % more instructions than with the old code
//! (code layout). It is off by default
//! because the candidates are then no longer the swept k-DOPs' (the
//! paper's counts), and SLPF has almost nothing left to cull. Only the self
//! traversal prunes (the cross traversal of two trees does not).
//! (Measured earlier as a plain `f64` test per partner on SLPF's five
//! directions, on every reached leaf pair: 42 % fewer candidates but only
//! 6 % fewer instructions, 3.30 G → 3.09 G, callgrind, one thread.)
//! A third image, at `t = ½`, would prune the pairs apart on `[0, ½]` and
//! on `[½, 1]` (along any of the 13 directions on each half). Counted on
//! cloth-ball 92→93's candidates with the exact points, not k-DOPs (an
//! upper bound on what images would prune): 23,405 of the 630,222 (5,460
//! vertex–face, 17,945 edge–edge; a recount of every 50th candidate in
//! Python agrees, 479 of 12,605; an earlier count of 118,638 written here
//! was wrong). Skipping them before the filters saved about 1.3 ms of the
//! filter stage on two threads (one run each, the test computed in both),
//! against 31 ms without the test: not pursued. With pruning on, k = 26
//! is still the fastest BVH (two threads, BVH built each run, fastest of
//! seven: 109.5 ms with 630,222 candidates; k = 18 115.2 ms with 773,114;
//! k = 14 137.6; k = 8 145.9; k = 6 179.5).
//!
//! **Prefetching the right child** (measured, not adopted). `gather`
//! visits a node's right child after the left child's subtree; a software
//! prefetch of its node when the parent is visited took 1–2 % off the
//! traversal (one thread, three interleaved rounds: cloth-ball 92→93
//! 148.7–150.1 ms against 150.7–152.8, funnel 227→228 7.16–7.37 against
//! 7.31–7.48), within this machine's noise: not worth an `unsafe` block.
//! Tried again after the feature level's rework, prefetching both cache
//! lines of the right child's node: cloth-ball 114–159 ms against
//! 115–137, funnel 7.7–10.6 against 7.4–8.8 (five interleaved rounds), no
//! gain. Nor, with clusters of subtrees, a prefetch of both lines of the
//! node on top of the stack after each visit (the next one the descent
//! visits, a turn of the other descent ahead): funnel traversal, fastest
//! of 300–400, five interleaved rounds on one thread 4.90–5.28 ms against
//! 4.82–7.49, four on two 1.83–2.34 against 1.82–1.95 (unrecorded).
//!
//! **The walk down to the cluster untested** (measured, not adopted). A
//! cluster's descent starts at the root, but the nodes on the path down to
//! its first leaf `c₀` always overlap its merge (both contain `c₀`'s
//! k-DOP), and the path itself is known from the nodes' last leaves. A walk
//! down that path that tests only the children right of it (those left of
//! it hold leaves below the bound), pushing them as `visit` does, lists
//! exactly the same partners: funnel 227→228, 2.2 % fewer instructions for
//! a whole step (callgrind, one thread, build and two refits: 306 M → 299 M),
//! but the same time (two threads, BVH refitted, six interleaved rounds:
//! 2.99–3.01 ms against 2.98–3.03; cloth-ball 92→93, three rounds, 131.7–
//! 132.9 against 131.7–133.7). The path's nodes are few and near the root,
//! likely in the cache, so the descents' time is presumably in their
//! dependent loads further down.
//!
//! **Queries in registers.** Every k-DOP tested against many others (a
//! cluster's merge, a leaf in its cluster's partner filter, a query's
//! features in their outer tests) is a [`QKdopQuery`]: loaded once into
//! registers, not copied into a local whose stores the tests' loads then
//! straddle (a failed store-to-load forwarding per copy). One thread, four
//! interleaved rounds: funnel 227→228 5.5–5.8 ms against 6.0–6.1 (one
//! outlier at 7.3), cloth-ball 92→93 104–107 against 107–110.
//!
//! **Adjacent leaves** (measured, not pursued). Most leaf pairs of a
//! cloth are triangles sharing a corner: on funnel 227→228, 109,879 of the
//! 119,334 (92 %), which give 237 of its 1,803 vertex–face and 748 of its
//! 5,765 edge–edge candidates; on cloth-ball 92→93, 563,793 of 2,708,361.
//! Their feature pairs could come from a list made once per topology
//! instead of from the traversal. Dropping them in the leaf filter
//! outright (wrong output, timing only), with a corner test per cluster
//! partner that reads its leaf record: funnel traversal 6.0–6.3 ms against
//! 6.7–6.8 (one thread, three rounds on a busy machine), 62.8 M
//! instructions against 70.5 M (callgrind). The corner tests themselves
//! cost about 9 M of those, so the feature level spends about a quarter of
//! the funnel traversal's instructions on adjacent pairs; an exclusion
//! cheaper than that test (say, a merge of the sorted partner list with a
//! sorted list of the leaf's neighbours) and the list's own cost decide
//! what is left to gain. The list would not be short: funnel 227→228's
//! adjacent face pairs own 64,413 vertex–face and 122,146 edge–edge
//! feature pairs that share no vertex (counted from its topology with the
//! owners above), every one of which a step would still have to test, for
//! the 985 candidates they give. What a list could save is therefore at
//! most the work the outright drop removed (about 17 M instructions,
//! corner tests aside) less those 186 K feature tests: under a tenth of
//! the funnel step's 103 M (callgrind, one thread, BVH built each run:
//! build 34 M, traversal 60 M, filters and solver 10 M), against a goal a
//! third away. Not pursued. Measured again on the refitted step: dropping
//! the adjacent partners outright after the leaf filter (a corner test on
//! the short partner lists; wrong output, timing only) took 0.03–0.17 ms,
//! round by round, off funnel's 3.04–3.12 ms (two threads, five
//! interleaved rounds; the 985 candidates it loses no longer reach the
//! filters either): a bound on what a list could save before its own
//! 186 K feature tests are paid. With time-aligned pruning they are a
//! larger share of what is left (cloth-ball 92→93: 563,793 of the
//! 1,217,951 kept leaf pairs), but not of the work: dropping them the
//! same way after the pruning (wrong output, timing only: 3,063 of the
//! 123,693 vertex–face and 12,857 of the 506,529 edge–edge candidates go
//! with them, and 2,794 of the 113,854 collisions) took a one-thread
//! `ccdlab step --time-aligned auto` (callgrind, reading the frames
//! included) from 2,032 M instructions to 1,950 M, 4 %, the filters' and
//! exact tests' work on the lost candidates included. Not pursued either.
//!
//! **Subtrees that cannot touch themselves** (estimated, not pursued). A
//! patch of triangles whose normals all keep a positive component along
//! one direction `v` over the step, and whose boundary, projected along
//! `v`, stays a star-shaped loop, cannot touch itself (Volino & Thalmann
//! 1994; Schvartzman, Pérez & Otaduy 2010, star contours); a query leaf
//! inside such a subtree would then take partners only above the
//! subtree's last leaf, one comparison in the descent. Counted with
//! uncertified `f64` tests on every subtree (`v` the mean of its normals;
//! the quadratic Bernstein coefficients of each normal and of each
//! boundary edge's orientation about the patch's moving centroid; a disk
//! by Euler characteristic): on funnel 227→228 the largest subtree that
//! passes has 19 leaves, and the leaf pairs would drop from 119,334 to
//! 106,069 (node tests of plain per-leaf descents 1.00 M → 0.96 M); on
//! cloth-ball 92→93, from 2,708,361 to 2,623,398. The cloths are wrinkled
//! at the scale of a few triangles (980 of funnel's 1,023 subtrees of 32
//! leaves or more fail the normal test): an upper bound of 11 % of the
//! leaf pairs is not worth a certified version.
//!
//! **The faces' own normals as slab directions** (counted, not pursued).
//! SLPF's test holds for any constant direction. So a leaf pair that the
//! time-aligned k-DOPs keep could also be tested along the normals of its
//! two faces, each taken at `t = 0` and at `t = 1` and held fixed (at the
//! time it is taken, a face projects to a single value along it). This was
//! counted on cloth-ball 92→93 with uncertified `f64` tests (a relative
//! margin of 10⁻¹²). Of the 1,217,951 leaf pairs kept, 563,793 share a
//! corner and can never be separated. The query face's two normals
//! separate 132,486 of the others. The normals of both faces separate
//! 201,734, and adding their sums at the two times gives 218,048. So the
//! test culls at most 17 % of the kept leaf pairs. The feature level costs
//! about 310 instructions per kept leaf pair (callgrind, one thread: 380 M
//! in `features` for those 1.22 M pairs), so the test would save about 50
//! instructions per kept pair. By an estimate (not measured) it would cost
//! about as much: the partner's six points at the two times, loaded from
//! another array, and twelve to twenty-four dot products. Not pursued.
//!
//! **Breadth first** (measured, not adopted). A descent whose nodes wait
//! in a queue instead of a stack (so that the next nodes' loads do not
//! depend on the current node's test), its leaves sorted at the end: funnel
//! 227→228 7.2–7.7 ms against 6.0–6.7, cloth-ball 92→93 115–117 against
//! 108–111 (one thread, three interleaved rounds); without the sort (wrong
//! order, timing only) no faster than the stack.
//!
//! **A uniform grid instead of the tree** (estimated, not pursued). A grid
//! needs no build beyond binning and one sort: each face is entered in
//! every cell that its swept box covers, and the face pairs of each cell
//! are tested, each pair counted in one cell only (the cell of the low
//! corner of the two boxes' overlap). A throwaway prototype counted how
//! many pairs it tests. The cell edge was a multiple `s` of the faces' mean
//! largest box extent. On funnel 227→228 it tested 1.05 M pairs at `s` = ½
//! (389 K entries) and at `s` = 1 (120 K entries), 1.50 M at 1½ and 2.08 M
//! at 2. Of those pairs, 153,821 have overlapping boxes and 118,282
//! overlapping 26-DOPs. The tree makes 955 K node tests in all, and reaches
//! 119,334 leaf pairs through its quantized k-DOPs. On cloth-ball 92→93 the
//! grid tested at least 31.3 M pairs (`s` = ¾; 35.7 M at ½, 32.2 M at 1,
//! 39.2 M at 1½) for 2,665,965 pairs of 26-DOPs, while the tree makes
//! 12.0 M node tests. So on funnel the grid tests as much as the tree while
//! saving the build, but it loses on cloth-ball. Either way it is not the
//! paper's BVH, and the prototype, with the pairs read from the faces'
//! 26-DOPs in mesh order, took longer on funnel than the tree's build and
//! whole traversal (feature level included) together: one thread, fastest
//! of 50, 25.6 ms against 3.4 + 5.9.
//!
//! **Why queries, not a simultaneous descent of two subtrees.** Measured on
//! cloth-ball 92→93 (1 thread; 6-DOP traversal 365 → 217 ms, 26-DOP
//! 330 → 251 ms when this replaced it): the classic recursion
//! `self(n) = self(l), self(r), pair(l, r)` spent two thirds of its time at
//! the leaves in mispredicted branches (each leaf owns 0–3 vertices and 0–3
//! edges). Here a query first collects all its partner leaves (the two
//! children of a node are tested together and pushed without branches), then
//! tests its features against all partners' features in long, predictable
//! loops, writing candidates without branches into a buffer that goes to the
//! sink in slices.
//!
//! Measured again against today's queries (not adopted): a simultaneous
//! descent that only lists the leaf pairs, with every internal node's two
//! children as one root pair, both sides split at once, and a node pair's
//! child pairs pushed or listed without branches. It makes fewer node tests:
//! funnel 227→228 527 K against the queries' 955 K, cloth-ball 92→93 8.63 M
//! against 12.0 M (the same 119,334 and 2,708,361 leaf pairs; splitting only
//! the larger side, 603 K and 10.4 M). But each of its tests loads two
//! k-DOPs where a query's tests load one against registers, so listing the
//! leaf pairs took longer than the queries take to reach theirs (their
//! feature level skipped, timing only): one thread, three interleaved
//! rounds of 20 runs each, fastest, funnel 3.39–3.52 ms against 2.57–2.62,
//! cloth-ball 65.4–65.5 against 30.0–30.2; and the pairs would still have
//! to be grouped by leaf for the feature level (the recursive form, with a
//! branch on every test, 7.5 and 115 ms).
//!
//! **Order and parallelism.** Queries run in leaf order; within a query,
//! vertex–face pairs (the query's vertices against the partners' faces, then
//! the partners' vertices against its face) and edge–edge pairs come in
//! partner order. The `f64` k-DOPs of faces and edges are merged from their
//! vertices' (see `bvh`): the query's once per query, a partner's once per
//! visit. The parallel variants split the leaves into fixed chunks (the
//! self traversal: runs of whole clusters of at least [`LEAVES_PER_TASK`]
//! leaves; across two trees: runs of [`LEAVES_PER_TASK`] leaves), which do
//! not depend on the thread count, run the chunks on
//! rayon with one sink each and return the sinks in chunk order: concatenated,
//! they hold exactly the sequential output, for any thread count, and the
//! counters are the same.
//!
//! Nothing is allocated per pair; buffers grow per task and are reused.

use rayon::prelude::*;

use super::bvh::{BroadPhaseError, KdopBvh, LEAF, Leaf, MAX_DEPTH, NO_FACE, check_disjoint};
use super::candidate::{BroadPhaseStats, CandidateSink, EePair, VfPair};
use crate::bounding_volume::{
    AlignedQKdop, Kdop, QKdop, QKdopQuery, aligned_merge, aligned_overlap, aligned_overlap_merge,
};

/// Leaves (queries) per parallel task: across two trees exactly (the last
/// task excepted), in the self traversal at least (a task takes whole
/// clusters; the last may have fewer).
pub const LEAVES_PER_TASK: usize = 256;

/// Most vertices, and most edges, a leaf owns (those of one face).
const MAX_OWNED: usize = 3;

/// A buffer of candidates goes to the sink once it holds this many.
const FLUSH: usize = 4096;

/// Traversal stack size: a node visit pops one entry and pushes at most two,
/// so the stack never holds more than one entry per internal node on the
/// current path plus one, at most [`MAX_DEPTH`] + 1 (checked by
/// [`KdopBvh::validate`]).
const STACK: usize = 2 * MAX_DEPTH;

/// Buffers of one task, reused across its queries.
struct Scratch {
    /// Partner leaves of the current query, ascending.
    partners: Vec<u32>,
    /// Partner leaves of the current cluster of queries, ascending.
    cluster: Vec<u32>,
    /// Those of the next cluster (gathered together with the current).
    cluster_next: Vec<u32>,
    /// The partners' owned vertex slots and edge slots (see `features`).
    vslots: Vec<u32>,
    eslots: Vec<u32>,
    /// Feature pairs of the current query that pass the outer test (see
    /// `features`).
    hits: Vec<u64>,
    vf: Vec<VfPair>,
    vf_len: usize,
    ee: Vec<EePair>,
    ee_len: usize,
}

impl Scratch {
    fn new() -> Scratch {
        Scratch {
            partners: vec![0; 256],
            cluster: vec![0; 256],
            cluster_next: vec![0; 256],
            vslots: Vec::new(),
            eslots: Vec::new(),
            hits: Vec::new(),
            // The candidate buffers grow as a task needs them: a task that
            // finds few candidates (most, on sparse scenes) zeroes little.
            vf: Vec::new(),
            vf_len: 0,
            ee: Vec::new(),
            ee_len: 0,
        }
    }

    fn flush(&mut self, sink: &mut impl CandidateSink) {
        if self.vf_len > 0 {
            sink.vertex_face(&self.vf[..self.vf_len]);
            self.vf_len = 0;
        }
        if self.ee_len > 0 {
            sink.edge_edge(&self.ee[..self.ee_len]);
            self.ee_len = 0;
        }
    }

    /// Makes room for `extra` more vertex–face candidates.
    #[inline(always)]
    fn reserve_vf(&mut self, extra: usize) {
        if self.vf.len() < self.vf_len + extra {
            self.vf.resize(self.vf_len + extra, VfPair { v: 0, f: 0 });
        }
    }

    /// Makes room for `extra` more edge–edge candidates.
    #[inline(always)]
    fn reserve_ee(&mut self, extra: usize) {
        if self.ee.len() < self.ee_len + extra {
            self.ee.resize(self.ee_len + extra, EePair { e0: 0, e1: 0 });
        }
    }
}

impl<const N: usize> KdopBvh<N> {
    /// Every vertex–face and edge–edge candidate among the covered features
    /// (module doc), in query order, on this thread.
    pub fn self_candidates(&self, sink: &mut impl CandidateSink) -> BroadPhaseStats {
        let mut stats = BroadPhaseStats::default();
        let mut scratch = Scratch::new();
        self_range(self, &self.clusters, &mut scratch, &mut stats, sink);
        scratch.flush(sink);
        stats
    }

    /// [`KdopBvh::self_candidates`] on rayon: one sink per task, in task
    /// order (module doc).
    pub fn self_candidates_par<S: CandidateSink + Send>(
        &self,
        make_sink: impl Fn() -> S + Sync,
    ) -> (Vec<S>, BroadPhaseStats) {
        run_par(self, self, true, make_sink)
    }

    /// Every candidate with one feature in `self` and the other in `other`,
    /// two BVHs of the same mesh over disjoint components. Vertex–face pairs
    /// go both ways (vertices of either against faces of the other).
    pub fn cross_candidates(
        &self,
        other: &KdopBvh<N>,
        sink: &mut impl CandidateSink,
    ) -> Result<BroadPhaseStats, BroadPhaseError> {
        self.check_cross(other)?;
        let mut stats = BroadPhaseStats::default();
        let mut scratch = Scratch::new();
        for la in 0..self.leaves.len() {
            query(self, la, other, 0, &mut scratch, &mut stats);
            if scratch.vf_len >= FLUSH || scratch.ee_len >= FLUSH {
                scratch.flush(sink);
            }
        }
        scratch.flush(sink);
        Ok(stats)
    }

    /// [`KdopBvh::cross_candidates`] on rayon: one sink per task, in task
    /// order.
    pub fn cross_candidates_par<S: CandidateSink + Send>(
        &self,
        other: &KdopBvh<N>,
        make_sink: impl Fn() -> S + Sync,
    ) -> Result<(Vec<S>, BroadPhaseStats), BroadPhaseError> {
        self.check_cross(other)?;
        Ok(run_par(self, other, false, make_sink))
    }

    fn check_cross(&self, other: &KdopBvh<N>) -> Result<(), BroadPhaseError> {
        for (k, what) in ["vertices", "edges", "faces"].into_iter().enumerate() {
            if self.mesh_size[k] != other.mesh_size[k] {
                return Err(BroadPhaseError::TopologyMismatch {
                    what,
                    expected: self.mesh_size[k],
                    found: other.mesh_size[k],
                });
            }
        }
        check_disjoint(&self.components, &other.components)
    }
}

/// Queries every leaf of `a` against `b` (only partners numbered above the
/// query when `ordered`, i.e. for a self traversal), in fixed chunks.
fn run_par<const N: usize, S: CandidateSink + Send>(
    a: &KdopBvh<N>,
    b: &KdopBvh<N>,
    ordered: bool,
    make_sink: impl Fn() -> S + Sync,
) -> (Vec<S>, BroadPhaseStats) {
    // Tasks: runs of whole clusters of at least `LEAVES_PER_TASK` leaves
    // each (the last may have fewer), as indices into `a.clusters`; across
    // two trees, runs of `LEAVES_PER_TASK` leaves.
    let mut tasks = vec![0];
    if ordered {
        let starts = &a.clusters;
        for k in 1..starts.len() {
            let task_start = starts[tasks[tasks.len() - 1]] as usize;
            if starts[k] as usize >= task_start + LEAVES_PER_TASK || k + 1 == starts.len() {
                tasks.push(k);
            }
        }
    } else {
        let chunks = a.leaves.len().div_ceil(LEAVES_PER_TASK);
        tasks.extend((1..=chunks).map(|c| (c * LEAVES_PER_TASK).min(a.leaves.len())));
    }
    let done: Vec<(S, BroadPhaseStats)> = tasks
        .par_windows(2)
        .with_max_len(1)
        .map_init(Scratch::new, |scratch, w| {
            let mut sink = make_sink();
            let mut stats = BroadPhaseStats::default();
            if ordered {
                self_range(a, &a.clusters[w[0]..=w[1]], scratch, &mut stats, &mut sink);
            } else {
                for la in w[0]..w[1] {
                    query(a, la, b, 0, scratch, &mut stats);
                    if scratch.vf_len >= FLUSH || scratch.ee_len >= FLUSH {
                        scratch.flush(&mut sink);
                    }
                }
            }
            scratch.flush(&mut sink);
            (sink, stats)
        })
        .collect();
    let mut stats = BroadPhaseStats::default();
    let mut sinks = Vec::with_capacity(done.len());
    for (s, st) in done {
        stats += st;
        sinks.push(s);
    }
    (sinks, stats)
}

/// The self traversal of the clusters of `t` whose first leaves and end
/// are `starts` (a window of `t.clusters`), two clusters' descents at a
/// time ([`gather_two`]).
fn self_range<const N: usize>(
    t: &KdopBvh<N>,
    starts: &[u32],
    sc: &mut Scratch,
    stats: &mut BroadPhaseStats,
    sink: &mut impl CandidateSink,
) {
    let mut k = 0;
    while k + 1 < starts.len() {
        let (c0, c1) = (starts[k] as usize, starts[k + 1] as usize);
        let qa = QKdopQuery::merge_of(&t.leaf_q[c0..c1]);
        let la = own_leaves(&qa, t, c0, c1, &mut sc.cluster, &mut stats.node_tests);
        if k + 2 == starts.len() {
            let nc = gather(
                &qa,
                t,
                c1 as u32,
                la,
                &mut sc.cluster,
                &mut stats.node_tests,
            );
            cluster(t, c0, c1, nc, sc, stats, sink);
            return;
        }
        let c2 = starts[k + 2] as usize;
        let qb = QKdopQuery::merge_of(&t.leaf_q[c1..c2]);
        let lb = own_leaves(&qb, t, c1, c2, &mut sc.cluster_next, &mut stats.node_tests);
        let [na, nb] = gather_two(
            [&qa, &qb],
            t,
            [c1 as u32, c2 as u32],
            [la, lb],
            [&mut sc.cluster, &mut sc.cluster_next],
            &mut stats.node_tests,
        );
        cluster(t, c0, c1, na, sc, stats, sink);
        std::mem::swap(&mut sc.cluster, &mut sc.cluster_next);
        cluster(t, c1, c2, nb, sc, stats, sink);
        k += 2;
    }
}

/// Lists at the front of `out` the leaves `c0 + 1..c1` of the cluster
/// `c0..c1` whose k-DOPs overlap `q`, the merge of the cluster's (all of
/// them, unless a leaf's k-DOP is empty), as [`gather`] would list them;
/// returns their number. Counts the tests. The cluster's descent then
/// starts at `c1` and skips the cluster's own subtree.
#[inline(always)]
fn own_leaves<const N: usize>(
    q: &QKdopQuery<N>,
    t: &KdopBvh<N>,
    c0: usize,
    c1: usize,
    out: &mut Vec<u32>,
    tests: &mut u64,
) -> usize {
    if out.len() < c1 - c0 {
        out.resize(c1 - c0, 0);
    }
    let mut n = 0;
    for l in c0 + 1..c1 {
        out[n] = l as u32;
        n += usize::from(q.overlaps(&t.leaf_q[l]));
    }
    *tests += (c1 - c0 - 1) as u64;
    n
}

/// Collects into `out`, after the `listed` entries at its front, the leaves
/// of `t` numbered `bound` or above whose node k-DOPs overlap `q` (quantized
/// on `t`'s grid), in ascending order; returns the length of the list.
/// Counts the node tests.
///
/// A leaf child is listed when its parent is visited, an internal child's
/// leaves later, so the order is ascending only because no node has a leaf
/// right of an internal node (the median split's shape, checked by
/// [`KdopBvh::validate`]). `cluster` relies on it: in a tree of another
/// shape it would list some leaf pairs twice (as it did for a trial binned
/// SAH split, see `bvh_build`).
#[inline(always)]
fn gather<const N: usize>(
    q: &QKdopQuery<N>,
    t: &KdopBvh<N>,
    bound: u32,
    listed: usize,
    out: &mut Vec<u32>,
    tests: &mut u64,
) -> usize {
    if t.inner.is_empty() {
        // Zero or one leaf.
        if t.leaves.len() == 1 && bound == 0 {
            *tests += 1;
            if q.overlaps(&t.root_bv) {
                out.resize(out.len().max(listed + 1), 0);
                out[listed] = 0;
                return listed + 1;
            }
        }
        return listed;
    }
    let mut d = Descent::from_root(listed);
    while d.top > 0 {
        d.visit(q, t, bound, out);
    }
    *tests += d.tests;
    d.n_out
}

/// [`gather`] for two queries at once, each with its own bound and output:
/// their descents take turns, one node each, so that the processor overlaps
/// their latencies (module doc: "Two descents at a time"). Each output is
/// exactly [`gather`]'s for its query, and so is the count of node tests.
#[inline(always)]
fn gather_two<const N: usize>(
    q: [&QKdopQuery<N>; 2],
    t: &KdopBvh<N>,
    bound: [u32; 2],
    listed: [usize; 2],
    [out_a, out_b]: [&mut Vec<u32>; 2],
    tests: &mut u64,
) -> [usize; 2] {
    if t.inner.is_empty() {
        return [
            gather(q[0], t, bound[0], listed[0], out_a, tests),
            gather(q[1], t, bound[1], listed[1], out_b, tests),
        ];
    }
    let (mut a, mut b) = (Descent::from_root(listed[0]), Descent::from_root(listed[1]));
    while a.top > 0 && b.top > 0 {
        a.visit(q[0], t, bound[0], out_a);
        b.visit(q[1], t, bound[1], out_b);
    }
    while a.top > 0 {
        a.visit(q[0], t, bound[0], out_a);
    }
    while b.top > 0 {
        b.visit(q[1], t, bound[1], out_b);
    }
    *tests += a.tests + b.tests;
    [a.n_out, b.n_out]
}

/// A depth-first descent in progress ([`gather`]): the nodes still to
/// visit, the leaves listed so far and the node tests made.
struct Descent {
    stack: [u32; STACK],
    top: usize,
    n_out: usize,
    tests: u64,
}

impl Descent {
    /// A descent about to visit the root (`inner[0]`), with `listed`
    /// leaves already in its output.
    #[inline(always)]
    fn from_root(listed: usize) -> Descent {
        Descent {
            stack: [0; STACK],
            top: 1,
            n_out: listed,
            tests: 0,
        }
    }

    /// Visits the node on top of the stack (there is one): lists its leaf
    /// children numbered `bound` or above that overlap `q` in `out`, and
    /// pushes its internal ones that do, without a branch on the tests.
    #[inline(always)]
    fn visit<const N: usize>(
        &mut self,
        q: &QKdopQuery<N>,
        t: &KdopBvh<N>,
        bound: u32,
        out: &mut Vec<u32>,
    ) {
        self.top -= 1;
        let n = &t.inner[self.stack[self.top] as usize];
        if out.len() < self.n_out + 2 {
            out.resize(2 * out.len() + 2, 0);
        }
        let (in0, in1) = (n.last[0] >= bound, n.last[1] >= bound);
        self.tests += u64::from(in0) + u64::from(in1);
        let h0 = in0 & q.overlaps(&n.bv[0]);
        let h1 = in1 & q.overlaps(&n.bv[1]);
        let [c0, c1] = n.child;
        let (leaf0, leaf1) = (c0 & LEAF != 0, c1 & LEAF != 0);
        // Right first, so that the left child is visited first (leaves come
        // out in ascending order).
        self.stack[self.top] = c1;
        self.top += usize::from(h1 & !leaf1);
        self.stack[self.top] = c0;
        self.top += usize::from(h0 & !leaf0);
        out[self.n_out] = c0 & !LEAF;
        self.n_out += usize::from(h0 & leaf0);
        out[self.n_out] = c1 & !LEAF;
        self.n_out += usize::from(h1 & leaf1);
    }
}

/// One query: leaf `la` of `a` against the leaves of `b` numbered `bound` or
/// above (module doc).
fn query<const N: usize>(
    a: &KdopBvh<N>,
    la: usize,
    b: &KdopBvh<N>,
    bound: u32,
    sc: &mut Scratch,
    stats: &mut BroadPhaseStats,
) {
    let q = QKdopQuery::new(&b.grid.quantize(&a.face_kdop(&a.leaves[la])));
    let np = gather(&q, b, bound, 0, &mut sc.partners, &mut stats.node_tests);
    features(a, la, b, &q, np, sc, stats);
}

/// Queries leaves `c0..c1` of `t` against `t` (partners numbered above each
/// query) as one cluster, given the `nc` leaves in `sc.cluster` that one
/// descent with the merge of their quantized k-DOPs gathered (numbered above
/// `c0`, ascending; module doc): each leaf keeps those numbered above it
/// whose quantized k-DOP overlaps its own. That is exactly the partner list
/// [`gather`] would find for the leaf alone (a node k-DOP contains its
/// children's, so a descent reaches precisely the leaves whose own
/// quantized k-DOP overlaps the query), in the same ascending order; only
/// the number of node tests differs. With time-aligned pruning, the lists
/// then lose the partners whose time-aligned images are apart from the
/// leaf's (tested first on the merge of the cluster's; module doc).
fn cluster<const N: usize>(
    t: &KdopBvh<N>,
    c0: usize,
    c1: usize,
    nc: usize,
    sc: &mut Scratch,
    stats: &mut BroadPhaseStats,
    sink: &mut impl CandidateSink,
) {
    let mut nc = nc;
    if t.time_aligned {
        // Drop the partners whose time-aligned k-DOPs are apart from the
        // merge of the cluster's (at each time): each leaf of the cluster
        // lies inside that merge, so the test below would drop them for
        // every leaf; the partner lists stay exactly the same.
        let m = t.leaf_qt[c0 + 1..c1]
            .iter()
            .fold(t.leaf_qt[c0], |m, q| aligned_merge(&m, q));
        let kept = retain_aligned(&mut sc.cluster[..nc], &m, &t.leaf_qt);
        stats.node_tests += nc as u64;
        stats.cluster_partners_pruned += (nc - kept) as u64;
        nc = kept;
    }
    if sc.partners.len() < nc {
        sc.partners.resize(nc, 0);
    }
    // The cluster's partners numbered at most `la` (leaves of the cluster
    // itself, ascending at the front) are no partners of `la`: each leaf
    // starts past them.
    let mut first = 0;
    for la in c0..c1 {
        while first < nc && sc.cluster[first] <= la as u32 {
            first += 1;
        }
        // In registers, and local copies of the buffers: the stores into
        // `partners` do not make the compiler reload the query or the
        // buffers' headers.
        let ql = QKdopQuery::new(&t.leaf_q[la]);
        let (cluster, partners) = (&sc.cluster[first..nc], &mut sc.partners[..nc]);
        let mut np = 0;
        for &p in cluster {
            partners[np] = p;
            np += usize::from(ql.overlaps(&t.leaf_q[p as usize]));
        }
        stats.node_tests += cluster.len() as u64;
        if t.time_aligned {
            // Drop the partners whose time-aligned k-DOPs are apart (see
            // `KdopBvh::time_aligned`).
            let kept = retain_aligned(&mut partners[..np], &t.leaf_qt[la], &t.leaf_qt);
            stats.leaf_pairs_pruned += (np - kept) as u64;
            np = kept;
        }
        features(t, la, t, &ql, np, sc, stats);
        if sc.vf_len >= FLUSH || sc.ee_len >= FLUSH {
            sc.flush(sink);
        }
    }
}

/// Keeps, in order at the front of `leaves`, those whose time-aligned
/// images `leaf_qt` overlap `q`'s, without a branch on the test; returns
/// their number.
#[inline(always)]
fn retain_aligned<const N: usize>(
    leaves: &mut [u32],
    q: &AlignedQKdop<N>,
    leaf_qt: &[AlignedQKdop<N>],
) -> usize {
    retain(leaves, |p| aligned_overlap(q, &leaf_qt[p as usize]))
}

/// Keeps, in order at the front of `xs`, those for which `keep` holds,
/// without a branch on it; returns their number.
#[inline(always)]
fn retain<T: Copy>(xs: &mut [T], keep: impl Fn(T) -> bool) -> usize {
    let mut kept = 0;
    for i in 0..xs.len() {
        let x = xs[i];
        xs[kept] = x;
        kept += usize::from(keep(x));
    }
    kept
}

/// The feature level of one query: leaf `la` of `a` (quantized k-DOP `q`
/// on `b`'s grid) against its `np` partner leaves in `sc.partners`.
fn features<const N: usize>(
    a: &KdopBvh<N>,
    la: usize,
    b: &KdopBvh<N>,
    q: &QKdopQuery<N>,
    np: usize,
    sc: &mut Scratch,
    stats: &mut BroadPhaseStats,
) {
    if np == 0 {
        return;
    }
    let leaf = &a.leaves[la];
    stats.leaf_pairs += np as u64;
    let comp = leaf.component;
    let (nva, nea) = (leaf.num_vertices(), leaf.num_edges());
    let partners = &sc.partners[..np];

    // The partners' owned vertex and edge slots, listed without a branch:
    // each partner writes the [`MAX_OWNED`] slots from its first and
    // advances by the number it owns. The loops over them then run once
    // per query. Measured on cloth-ball 92→93 against loops over runs of
    // consecutive partners (one loop per run, with short and irregular
    // trip counts): 1.25 G → 1.35 G instructions but 4.6 M → 1.6 M
    // mispredicted branches per traversal (callgrind); traversal 114–117
    // ms against 122–133, funnel 227→228 7.5–7.8 against 8.4–8.7 (one
    // thread, six interleaved rounds, best four).
    let room = MAX_OWNED * np;
    for buf in [&mut sc.vslots, &mut sc.eslots] {
        if buf.len() < room {
            buf.resize(room, 0);
        }
    }
    let (mut n_vslots, mut n_eslots) = (0, 0);
    // Through slices: a store through the `Vec` itself makes the compiler
    // reload its pointer and length for the next one. (With the local
    // slices in the loops below: cloth-ball 92→93, one traversal, 4 %
    // fewer instructions, 1.32 G → 1.26 G; times within this machine's
    // noise.)
    let (vs, es) = (&mut sc.vslots[..room], &mut sc.eslots[..room]);
    let run = |first: u32| -> [u32; MAX_OWNED] { std::array::from_fn(|k| first + k as u32) };
    for &p in partners {
        let (s0, s1) = (b.leaf_start[p as usize], b.leaf_start[p as usize + 1]);
        vs[n_vslots..n_vslots + MAX_OWNED].copy_from_slice(&run(s0[0]));
        es[n_eslots..n_eslots + MAX_OWNED].copy_from_slice(&run(s0[1]));
        n_vslots += (s1[0] - s0[0]) as usize;
        n_eslots += (s1[1] - s0[1]) as usize;
    }
    sc.reserve_vf(nva * np + n_vslots);
    sc.reserve_ee(nea * n_eslots);
    let most = (nva * np).max(n_vslots).max(nea * n_eslots);
    if sc.hits.len() < most {
        sc.hits.resize(most, 0);
    }
    let Scratch {
        partners,
        vslots,
        eslots,
        hits,
        vf,
        vf_len,
        ee,
        ee_len,
        ..
    } = sc;
    let (partners, vslots, eslots) = (&partners[..np], &vslots[..n_vslots], &eslots[..n_eslots]);
    let (hits, vf, ee) = (&mut hits[..], &mut vf[..], &mut ee[..]);

    // Every feature pair is first tested on 16-bit k-DOPs (on `b`'s grid:
    // a superset of the exact overlaps); only pairs that pass, share no
    // vertex and could be candidates get the exact `f64` test, whose k-DOPs
    // are merged only then.
    //
    // Between the two, the inner images (`bvh`): when they overlap, so do
    // the exact k-DOPs, and the pair is a candidate without the `f64` test.
    // On cloth-ball 92→93, 97% of the pairs that pass the outer test are
    // candidates and 93% are proven here (cachegrind, one traversal: 7%
    // fewer instructions, 20% fewer loads, 16% fewer L1 misses). Across two
    // trees the query's features have no inner image on `b`'s grid: `EMPTY`
    // proves nothing.
    //
    // Each kind of pair runs in two passes. The outer tests (which read
    // only feature IDs and outer images) list the pairs that pass in
    // `hits`, without a branch on their verdict (it passes about a third of
    // the pairs); the inner and exact tests then run on the list, where
    // they almost always succeed, on faces' and edges' images merged in
    // registers (`overlaps_merge`: a merge stored to memory and read back
    // by the test stalls on store-to-load forwarding). The order of the
    // pairs is that of a single pass. Measured on cloth-ball 92→93 against
    // one pass branching on the outer verdict (one thread, five
    // interleaved rounds): traversal 121–126 ms against 154–162 (callgrind:
    // 1.33 G → 1.25 G instructions, 7.3 M → 4.6 M mispredicted branches);
    // funnel 227→228 8.1–8.3 ms against 8.4–8.7. Two passes with the
    // merges through memory were slower than one pass.
    let same_tree = std::ptr::eq(a, b);
    let query = Query {
        a,
        b,
        leaf,
        start: a.leaf_start[la].map(|s| s as usize),
        same_tree,
        aligned: same_tree && a.time_aligned,
    };

    // The query's owned vertices against the partners' faces. This pass
    // and the edges' are unrolled for the query's number of owned features
    // (const generics).
    let (mut nvf, mut vf_same) = (*vf_len, 0u64);
    if nva > 0 {
        let nh = match nva {
            1 => vertex_face_hits::<N, 1>(&query, partners, hits),
            2 => vertex_face_hits::<N, 2>(&query, partners, hits),
            _ => vertex_face_hits::<N, 3>(&query, partners, hits),
        };
        (nvf, vf_same) = if query.aligned {
            vertices_faces::<N, true>(&query, &mut hits[..nh], vf, nvf)
        } else {
            vertices_faces::<N, false>(&query, &mut hits[..nh], vf, nvf)
        };
    }

    // The partners' owned vertices against the query's face.
    if leaf.face != NO_FACE {
        let c = leaf.corners;
        // Local slices, as in `edge_edge_hits`.
        let (slot_vertex, vertex_q) = (&b.slot_vertex[..], &b.vertex_q[..]);
        let mut nh = 0;
        for &s in vslots {
            let (v, vq) = (slot_vertex[s as usize], &vertex_q[s as usize]);
            let hit = q.overlaps_and_not_in(vq, v, &c);
            hits[nh] = u64::from(s);
            nh += usize::from(hit);
        }
        if query.aligned {
            let qt = &a.leaf_qt[la];
            nh = retain(&mut hits[..nh], |h| {
                aligned_overlap(&b.vertex_qt[h as usize], qt)
            });
        }
        if nh > 0 {
            let face_qi = if same_tree {
                a.face_qi(leaf)
            } else {
                QKdop::<N>::EMPTY
            };
            let mut face_bv = None;
            for &h in &hits[..nh] {
                let s = h as usize;
                let ok = b.vertex_qi[s].overlaps(&face_qi)
                    || b.vertex_bv[s].overlaps(face_bv.get_or_insert_with(|| a.face_kdop(leaf)));
                vf[nvf] = VfPair {
                    v: b.slot_vertex[s],
                    f: leaf.face,
                };
                nvf += usize::from(ok);
                vf_same += u64::from(ok & (b.slot_vertex_comp[s] == comp));
            }
        }
    }
    stats.feature_tests += (nva * np + n_vslots) as u64;
    stats.vf_candidates += (nvf - *vf_len) as u64;
    stats.vf_same_component += vf_same;
    *vf_len = nvf;

    // The query's owned edges against the partners' owned edges.
    if nea > 0 {
        stats.feature_tests += (nea * n_eslots) as u64;
        let nh = match nea {
            1 => edge_edge_hits::<N, 1>(&query, eslots, hits),
            2 => edge_edge_hits::<N, 2>(&query, eslots, hits),
            _ => edge_edge_hits::<N, 3>(&query, eslots, hits),
        };
        let (nee, ee_same) = if query.aligned {
            edges_edges::<N, true>(&query, nea, &mut hits[..nh], ee, *ee_len)
        } else {
            edges_edges::<N, false>(&query, nea, &mut hits[..nh], ee, *ee_len)
        };
        stats.ee_candidates += (nee - *ee_len) as u64;
        stats.ee_same_component += ee_same;
        *ee_len = nee;
    }
}

/// A query leaf `leaf` of `a` with partners in `b`.
struct Query<'t, const N: usize> {
    a: &'t KdopBvh<N>,
    b: &'t KdopBvh<N>,
    leaf: &'t Leaf,
    /// The leaf's first vertex slot and first edge slot in `a`.
    start: [usize; 2],
    /// `a` and `b` are the same tree (the query's inner images are on
    /// `b`'s grid).
    same_tree: bool,
    /// Feature pairs are also tested on their time-aligned images (the
    /// same tree, built with them).
    aligned: bool,
}

/// A feature slot of a query's tree.
enum Feature {
    Vertex(usize),
    Edge(usize),
}

/// The `f64` k-DOP of `feature` of `a` quantized on `b`'s grid, for the
/// cross traversal. Out of line: inlined, the merge and quantization made
/// the closures building a query's features too large to inline in turn,
/// and the self traversal, which never quantizes there, paid a call per
/// query (about 3 % of funnel 227→228's traversal time).
#[inline(never)]
fn requantized<const N: usize>(b: &KdopBvh<N>, a: &KdopBvh<N>, feature: Feature) -> QKdopQuery<N> {
    let bv = match feature {
        Feature::Vertex(s) => a.vertex_bv[s],
        Feature::Edge(s) => a.edge_kdop(s),
    };
    QKdopQuery::new(&b.grid.quantize(&bv))
}

/// The outer tests of the `NEA` edges owned by the query against the edges
/// in the slots `eslots` of `b`: no shared endpoint and overlapping outer
/// images. Lists the pairs that pass in `hits` as `4 × slot + k` (the
/// partner's edge slot, the query's edge `k`), in the order of `eslots`;
/// returns their number.
#[inline(always)]
fn edge_edge_hits<const N: usize, const NEA: usize>(
    query: &Query<'_, N>,
    eslots: &[u32],
    hits: &mut [u64],
) -> usize {
    let (a, b, es) = (query.a, query.b, query.start[1]);
    let qends: [[u32; 2]; NEA] = std::array::from_fn(|k| a.slot_edge_ends[es + k]);
    let qq: [QKdopQuery<N>; NEA] = std::array::from_fn(|k| {
        if query.same_tree {
            QKdopQuery::new(&a.edge_q[es + k])
        } else {
            requantized(b, a, Feature::Edge(es + k))
        }
    });
    // Local slices: the stores into `hits` could alias the vectors' headers
    // as far as the compiler knows, which made it reload them every pair.
    let (ends, edge_q) = (&b.slot_edge_ends[..], &b.edge_q[..]);
    let mut nh = 0;
    for &s in eslots {
        let (tends, tq) = (&ends[s as usize], &edge_q[s as usize]);
        for k in 0..NEA {
            let hit = qq[k].overlaps_and_disjoint(tq, qends[k], tends);
            hits[nh] = encode_hit(s, k);
            nh += usize::from(hit);
        }
    }
    nh
}

/// A feature pair that passed the outer tests, as `hits` lists it: a slot
/// or leaf of the partner tree and the query's feature `k < 4`.
#[inline(always)]
fn encode_hit(partner: u32, k: usize) -> u64 {
    u64::from(partner) << 2 | k as u64
}

/// The partner and the query's feature of an [`encode_hit`] entry.
#[inline(always)]
fn split_hit(h: u64) -> (usize, usize) {
    ((h >> 2) as usize, (h & 3) as usize)
}

/// The edge–edge pairs of `hits` ([`edge_edge_hits`]; the query owns `nea`
/// edges) whose inner images or exact k-DOPs overlap (and, with `ALIGNED`,
/// `query.aligned`, whose time-aligned images do: a parameter, so that the
/// paper's traversal pays nothing for the test; `hits` is first compacted
/// in place to those, and only they get the other tests): writes them into
/// `ee` from `ee_len` on; returns the new length and how many are within
/// one component.
#[inline(always)]
fn edges_edges<const N: usize, const ALIGNED: bool>(
    query: &Query<'_, N>,
    nea: usize,
    hits: &mut [u64],
    ee: &mut [EePair],
    ee_len: usize,
) -> (usize, u64) {
    let (a, b, es) = (query.a, query.b, query.start[1]);
    let comp = query.leaf.component;
    if hits.is_empty() {
        return (ee_len, 0);
    }
    // The query's edges: IDs and inner images once; exact k-DOPs when
    // first needed.
    let qids: [u32; 3] = std::array::from_fn(|k| if k < nea { a.slot_edge[es + k] } else { 0 });
    // (A loop, not `array::from_fn`, whose closure was not inlined.)
    let mut qi = [QKdop::<N>::EMPTY; 3];
    if query.same_tree {
        for (k, q) in qi.iter_mut().enumerate().take(nea) {
            *q = a.edge_qi(es + k);
        }
    }
    let mut qe: [Option<Kdop<N>>; 3] = [None; 3];
    // The time-aligned images of an edge slot's ends.
    fn ends_qt<const N: usize>(t: &KdopBvh<N>, s: usize) -> [&AlignedQKdop<N>; 2] {
        t.edge_end_slots[s].map(|x| &t.vertex_qt[x as usize])
    }
    let mut qt = [[QKdop::<N>::EMPTY; 2]; 3];
    if ALIGNED {
        for (k, q) in qt.iter_mut().enumerate().take(nea) {
            let [u, v] = ends_qt(a, es + k);
            *q = aligned_merge(u, v);
        }
    }
    let hits = if ALIGNED {
        let n = retain(hits, |h| {
            let (s, k) = split_hit(h);
            aligned_overlap_merge(&qt[k], ends_qt(b, s))
        });
        &hits[..n]
    } else {
        &hits[..]
    };
    let (mut nee, mut ee_same) = (ee_len, 0u64);
    for &h in hits {
        let (s, k) = split_hit(h);
        let ok = b.edge_qi_overlaps(s, &qi[k])
            || b.edge_kdop_overlaps(s, qe[k].get_or_insert_with(|| a.edge_kdop(es + k)));
        ee[nee] = EePair::new(qids[k], b.slot_edge[s]);
        nee += usize::from(ok);
        ee_same += u64::from(ok & (b.slot_edge_comp[s] == comp));
    }
    (nee, ee_same)
}

/// The outer tests of the `NVA` vertices owned by the query against the
/// faces of its `partners`: the partner has a face, the vertex is not one
/// of its corners, and their outer images overlap. Lists the pairs that
/// pass in `hits` as `4 × partner + i` (the partner leaf, the query's
/// vertex `i`), in partner order; returns their number.
#[inline(always)]
fn vertex_face_hits<const N: usize, const NVA: usize>(
    query: &Query<'_, N>,
    partners: &[u32],
    hits: &mut [u64],
) -> usize {
    let (a, b, vs) = (query.a, query.b, query.start[0]);
    let qv: [u32; NVA] = std::array::from_fn(|i| a.slot_vertex[vs + i]);
    let qq: [QKdopQuery<N>; NVA] = std::array::from_fn(|i| {
        if query.same_tree {
            QKdopQuery::new(&a.vertex_q[vs + i])
        } else {
            requantized(b, a, Feature::Vertex(vs + i))
        }
    });
    // Local slices, as in `edge_edge_hits`.
    let (leaves, leaf_q) = (&b.leaves[..], &b.leaf_q[..]);
    let mut nh = 0;
    for &p in partners {
        let lp = &leaves[p as usize];
        let (face, c) = (lp.face != NO_FACE, lp.corners);
        let fq = &leaf_q[p as usize];
        for i in 0..NVA {
            let v = qv[i];
            let hit = face & qq[i].overlaps_and_not_in(fq, v, &c);
            hits[nh] = encode_hit(p, i);
            nh += usize::from(hit);
        }
    }
    nh
}

/// The vertex–face pairs of `hits` ([`vertex_face_hits`]) whose inner
/// images or exact k-DOPs overlap (and, with `ALIGNED`, as in
/// [`edges_edges`], whose time-aligned images do, tested first): writes
/// them into `vf` from `vf_len` on; returns the new length and how many
/// are within one component.
#[inline(always)]
fn vertices_faces<const N: usize, const ALIGNED: bool>(
    query: &Query<'_, N>,
    hits: &mut [u64],
    vf: &mut [VfPair],
    vf_len: usize,
) -> (usize, u64) {
    let (a, b, vs) = (query.a, query.b, query.start[0]);
    let comp = query.leaf.component;
    let hits = if ALIGNED {
        let n = retain(hits, |h| {
            let (p, i) = split_hit(h);
            aligned_overlap(&a.vertex_qt[vs + i], &b.leaf_qt[p])
        });
        &hits[..n]
    } else {
        &hits[..]
    };
    let (mut nvf, mut vf_same) = (vf_len, 0u64);
    for &h in hits {
        let (p, i) = split_hit(h);
        let lp = &b.leaves[p];
        let s = vs + i;
        let ok = (query.same_tree && b.face_qi_overlaps(lp, &a.vertex_qi[s]))
            || b.face_kdop_overlaps(lp, &a.vertex_bv[s]);
        vf[nvf] = VfPair {
            v: a.slot_vertex[s],
            f: lp.face,
        };
        nvf += usize::from(ok);
        vf_same += u64::from(ok & (lp.component == comp));
    }
    (nvf, vf_same)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec3;
    use crate::mesh::{Step, TriMesh};
    use proptest::prelude::*;

    /// Discards candidates.
    struct Discard;

    impl CandidateSink for Discard {
        fn vertex_face(&mut self, _: &[VfPair]) {}
        fn edge_edge(&mut self, _: &[EePair]) {}
    }

    fn point() -> impl Strategy<Value = Vec3> {
        (0.0..4.0f64, 0.0..4.0f64, 0.0..4.0f64).prop_map(|(x, y, z)| Vec3::new(x, y, z))
    }

    fn motion() -> impl Strategy<Value = Vec3> {
        (-1.5..1.5f64, -1.5..1.5f64, -1.5..1.5f64).prop_map(|(x, y, z)| Vec3::new(x, y, z))
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

        /// The self traversal reaches exactly the leaf pairs whose
        /// quantized k-DOPs overlap (brute force over all pairs of
        /// leaves), and with time-aligned pruning exactly those whose
        /// time-aligned k-DOPs overlap too: the clusters' pruning drops no
        /// pair the leaves' own test would keep.
        #[test]
        fn leaf_pairs_are_the_brute_force_ones(
            corners in proptest::collection::vec((point(), motion()), 3..180),
        ) {
            let n = corners.len() / 3 * 3;
            let x0: Vec<Vec3> = corners[..n].iter().map(|c| c.0).collect();
            let x1: Vec<Vec3> = corners[..n].iter().map(|c| c.0 + c.1).collect();
            let faces = (0..n as u32 / 3).map(|i| [3 * i, 3 * i + 1, 3 * i + 2]).collect();
            let mesh = TriMesh::new(n, faces).unwrap();
            let step = Step::new(&mesh, &x0, &x1).unwrap();
            for time_aligned in [false, true] {
                let t = KdopBvh::<13>::build_time_aligned(&step, &|_| true, time_aligned);
                let stats = t.self_candidates(&mut Discard);
                let (mut swept, mut kept) = (0, 0);
                for i in 0..t.leaves.len() {
                    for j in i + 1..t.leaves.len() {
                        if t.leaf_q[i].overlaps(&t.leaf_q[j]) {
                            swept += 1;
                            kept += u64::from(
                                !time_aligned || aligned_overlap(&t.leaf_qt[i], &t.leaf_qt[j]),
                            );
                        }
                    }
                }
                prop_assert_eq!(stats.leaf_pairs, kept, "time-aligned {}", time_aligned);
                prop_assert!(stats.leaf_pairs + stats.leaf_pairs_pruned <= swept);
                if !time_aligned {
                    prop_assert_eq!(stats.leaf_pairs_pruned + stats.cluster_partners_pruned, 0);
                }
            }
        }
    }
}
