//! The traversal tasks' sinks and the gathering of their results
//! (docs/design.md §5, "Loose brackets", and §10). Each task of the BVH's traversal has a
//! [`TaskSink`]: it runs the filters on each batch of candidates as the
//! traversal emits it and the exact test on the survivors, counting what
//! each filter culled and keeping the earliest time of impact and (when
//! collected) the colliding pairs. [`collect`] adds the tasks up in task
//! order, so that the result is the same on any number of threads, and
//! narrows the loose brackets of a minimum-separation step that may hold
//! its earliest time.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use super::bodies::within_one_group;
use super::clock::busy_ms;
use super::decide::{KEEP_BATCH, Pair, PairCtx, earliest, solve, solve_verdict};
use super::report::{ContactPair, KindCounts};
use crate::broad_phase::{CandidateSink, EePair, VfPair};
use crate::filter::{CulledBy, apart_until};
use crate::math::Vec3;
use crate::mesh::TriMesh;
use crate::narrow_phase::{
    LOOSE_MARGIN, SolverTier, Toi, WithinVerdict, oracle, touching_lower_end,
};
use crate::pair_kernel::QueryKind;

/// Pairs removed by each filter, in one task.
#[derive(Debug, Default, Clone, Copy)]
struct Culled {
    slpf: u64,
    dnf: u64,
    window: u64,
}

impl Culled {
    #[inline]
    fn count(&mut self, by: CulledBy) {
        match by {
            CulledBy::Slpf => self.slpf += 1,
            CulledBy::Dnf => self.dnf += 1,
            CulledBy::Window => self.window += 1,
        }
    }
}

/// Time a task spent in the filters and in the exact tests, ms.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct Busy {
    pub(super) filter: f64,
    pub(super) solve: f64,
}

/// One kind of pair in one traversal task: the current batch's survivors,
/// what the filters culled, what the exact test found.
struct KindSink<P> {
    survivors: Vec<P>,
    /// Candidates dropped because all their vertices are in one body that
    /// does not collide with itself ([`PairCtx::vertex_group`]), and those
    /// of them within one component: not candidates after all.
    in_one_body: u64,
    in_one_body_same_component: u64,
    culled: Culled,
    /// Survivors so far.
    passed: u64,
    /// Pairs the exact solver's float tiers left to its exact oracle.
    fallbacks: u64,
    /// Colliding pairs, and those within one component.
    colliding: u64,
    colliding_same_component: u64,
    /// The smallest lower and upper bounds of their times of impact.
    toi: Option<Toi>,
    /// The colliding pairs, in candidate order (only when the pairs are
    /// collected: the counts and the earliest time of impact need none).
    hits: Vec<(P, Toi)>,
    /// Colliding pairs whose bracket is loose, with its lower end (not in
    /// `toi`; the step narrows those that may hold its earliest time).
    loose: Vec<(P, f64)>,
    /// The smallest upper end of the loose brackets.
    loose_upper: f64,
    /// The pairs the filters passed, when the step lists them instead of
    /// testing them ([`PairCtx::list_only`]).
    listed: Vec<P>,
    /// Pairs kept (`hits`, `listed`) not yet added to the step's total.
    unreported: u64,
    /// A batch's candidates that may hold the step's earliest time, in a
    /// step that looks for that alone ([`PairCtx::earliest_only`]).
    near: Vec<P>,
}

/// How many loose brackets' pairs one traversal task keeps before it
/// narrows them itself ([`KindSink::keep_loose`]): 16 bytes each.
pub(super) const LOOSE_CAP: usize = 1 << 14;

impl<P: Pair> KindSink<P> {
    fn new() -> KindSink<P> {
        KindSink {
            survivors: Vec::new(),
            in_one_body: 0,
            in_one_body_same_component: 0,
            culled: Culled::default(),
            passed: 0,
            fallbacks: 0,
            colliding: 0,
            colliding_same_component: 0,
            toi: None,
            hits: Vec::new(),
            loose: Vec::new(),
            loose_upper: f64::INFINITY,
            listed: Vec::new(),
            unreported: 0,
            near: Vec::new(),
        }
    }

    /// Runs the filters on a batch of candidates, then the exact test on
    /// their survivors. A pair that took the exact fallback (which can take
    /// long on extreme coordinates) is followed by a look at `cancel`: once
    /// set, the rest of the batch is left (the step answers `Cancelled`).
    /// In a step that stops at its first colliding pair
    /// ([`PairCtx::first_hit`]) the batch ends at the first it finds, or
    /// once another task has found one.
    #[inline(always)]
    fn batch(
        &mut self,
        ctx: &PairCtx<'_>,
        pairs: &[P],
        busy: &mut Busy,
        cancel: Option<&AtomicBool>,
    ) {
        if ctx.earliest_only {
            let until = self.earliest_until(ctx);
            if until < 1.0 {
                let t = busy_ms();
                let mut near = std::mem::take(&mut self.near);
                near.clear();
                near.extend(pairs.iter().filter(|p| !apart_until_bound(ctx, *p, until)));
                busy.filter += busy_ms() - t;
                self.test(ctx, &near, busy, cancel);
                self.near = near;
                return;
            }
        }
        self.test(ctx, pairs, busy, cancel);
    }

    /// [`KindSink::batch`] on the pairs left after the step's earliest time
    /// skipped those that cannot hold it.
    #[inline(always)]
    fn test(
        &mut self,
        ctx: &PairCtx<'_>,
        pairs: &[P],
        busy: &mut Busy,
        cancel: Option<&AtomicBool>,
    ) {
        let t = busy_ms();
        self.survivors.clear();
        if let Some(group) = ctx.vertex_group {
            for p in pairs {
                if within_one_group(group, &p.vertices(ctx)) {
                    self.in_one_body += 1;
                    self.in_one_body_same_component += u64::from(p.same_component(ctx));
                    continue;
                }
                match p.cull(ctx) {
                    Some(by) => self.culled.count(by),
                    None => self.survivors.push(*p),
                }
            }
        } else if ctx.filters_off() {
            self.survivors.extend_from_slice(pairs);
        } else {
            for p in pairs {
                match p.cull(ctx) {
                    Some(by) => self.culled.count(by),
                    None => self.survivors.push(*p),
                }
            }
        }
        let t1 = busy_ms();
        self.passed += self.survivors.len() as u64;
        if ctx.list_only {
            self.listed.extend_from_slice(&self.survivors);
            self.unreported += self.survivors.len() as u64;
            self.report_kept(ctx);
            busy.filter += t1 - t;
            return;
        }
        // Taken out for the loop (and put back) so that the loop may update
        // the rest of the sink.
        let survivors = std::mem::take(&mut self.survivors);
        let mut after_exact = false;
        for p in &survivors {
            if (after_exact && is_set(cancel)) || ctx.hit() {
                break;
            }
            if ctx.earliest_only && apart_until_bound(ctx, p, self.earliest_until(ctx)) {
                continue;
            }
            let q = p.points(ctx).map(|[x, y, z]| Vec3::new(x, y, z));
            let (verdict, tier) = if ctx.loose {
                solve_verdict(P::KIND, ctx.range, ctx.min_distance, &q)
            } else {
                let (toi, tier) = solve(ctx.solver, P::KIND, ctx.range, ctx.min_distance, &q);
                (WithinVerdict::Tight(toi), tier)
            };
            after_exact = tier == SolverTier::Exact;
            self.fallbacks += u64::from(after_exact);
            let toi = match verdict {
                WithinVerdict::Tight(toi) => toi,
                WithinVerdict::Loose(Toi { lower, upper }) => {
                    if self.loose_hit(ctx, p, &q, Some(lower), upper, cancel) {
                        break;
                    }
                    continue;
                }
                WithinVerdict::Touching { upper } => {
                    if self.loose_hit(ctx, p, &q, None, upper, cancel) {
                        break;
                    }
                    continue;
                }
            };
            if let Some(mut toi) = toi {
                self.colliding += 1;
                self.colliding_same_component += u64::from(p.same_component(ctx));
                if ctx.earliest_only {
                    if toi.upper - toi.lower > MAX_TIGHT_WIDTH
                        && toi.lower <= self.earliest_until(ctx)
                    {
                        // The minimum-separation solver's tight brackets
                        // are never this wide; the oracle is contact's.
                        debug_assert!(ctx.min_distance == 0.0, "a wide bracket within d");
                        toi = narrowed(P::KIND, &q, toi);
                        self.fallbacks += 1;
                    }
                    ctx.publish_upper(toi.upper);
                }
                self.toi = Some(earliest(self.toi, toi));
                if ctx.first_hit {
                    ctx.record_hit();
                    break;
                }
                if ctx.collect_pairs {
                    self.hits.push((*p, toi));
                    self.unreported += 1;
                    self.report_kept(ctx);
                }
            }
        }
        self.survivors = survivors;
        busy.filter += t1 - t;
        busy.solve += busy_ms() - t1;
    }

    /// Adds the pairs kept since the last report to the step's total, in
    /// batches ([`PairCtx::keep`]).
    #[inline]
    fn report_kept(&mut self, ctx: &PairCtx<'_>) {
        if self.unreported >= KEEP_BATCH {
            ctx.keep(self.unreported);
            self.unreported = 0;
        }
    }

    /// Counts a colliding pair whose bracket is loose, `[lower, upper]`
    /// (`lower` not yet known for a pair that touches,
    /// [`WithinVerdict::Touching`]; `q` its eight points), and keeps it
    /// while it may hold the step's earliest time
    /// ([`KindSink::keep_loose`]). Returns whether the batch stops here (a
    /// step that stops at its first colliding pair).
    #[inline]
    fn loose_hit(
        &mut self,
        ctx: &PairCtx<'_>,
        p: &P,
        q: &[Vec3; 8],
        lower: Option<f64>,
        upper: f64,
        cancel: Option<&AtomicBool>,
    ) -> bool {
        self.colliding += 1;
        self.colliding_same_component += u64::from(p.same_component(ctx));
        if ctx.first_hit {
            ctx.record_hit();
            return true;
        }
        if ctx.earliest_only {
            ctx.publish_upper(upper);
        }
        self.loose_upper = self.loose_upper.min(upper);
        let bound = self.loose_bound();
        let lower = match lower {
            Some(lower) => lower,
            // The lower end is worth its advancement step only while the
            // pair may still hold the earliest time: not once this sink
            // holds `[0, 0]`, nor when the features' boxes swept over
            // `[0, bound]` stay more than `d` apart (the earliest time
            // within `d` is then past `bound`, as a lower end past it
            // would show).
            None if apart_until_bound(ctx, p, bound) => return false,
            None => {
                let lower = touching_lower_end(P::KIND, q, ctx.min_distance, ctx.range);
                debug_assert!(lower <= upper, "a contact before the span apart");
                lower
            }
        };
        self.keep_loose(ctx, *p, lower, cancel);
        false
    }

    /// Keeps a loose bracket's pair, by its lower end, while it may hold the
    /// step's earliest time (its upper end already folded into
    /// `loose_upper`). `collect` narrows only the pairs whose loose lower
    /// end is at most `U +` [`LOOSE_MARGIN`], `U` the smallest upper end of
    /// all the step's brackets; this sink's own smallest upper end is at least `U`,
    /// so a pair beyond it here is beyond it there too and is dropped at
    /// once. When this sink already holds the tight bracket `[0, 0]`, no
    /// pair can change the step's result, and none is kept. The kept list
    /// is bounded: at [`PairCtx::loose_cap`] pairs it is cut to those
    /// still in reach and, if that leaves more than half, they are narrowed here (their
    /// tight brackets folded into `toi`, as `collect` would fold them), so
    /// that a step whose pairs are all within `d` (a collapsed mesh, a `d`
    /// larger than the mesh) keeps bounded memory.
    /// The narrowing stops (the pairs left are dropped) once `cancel` is
    /// set: the step then answers `Cancelled`.
    fn keep_loose(&mut self, ctx: &PairCtx<'_>, p: P, lower: f64, cancel: Option<&AtomicBool>) {
        if lower <= self.loose_bound() {
            self.loose.push((p, lower));
        }
        if self.loose.len() >= ctx.loose_cap {
            let bound = self.loose_bound();
            self.loose.retain(|&(_, lower)| lower <= bound);
            if self.loose.len() > ctx.loose_cap / 2 {
                for (p, _) in self.loose.drain(..) {
                    if is_set(cancel) {
                        break;
                    }
                    let (t, fallbacks) = tight_bracket(ctx, &p);
                    self.fallbacks += fallbacks;
                    if let Some(t) = t {
                        self.toi = Some(earliest(self.toi, t));
                    }
                }
            }
        }
    }

    /// The end of the span `[0, t]` in which a pair must come within `d` to
    /// hold the step's earliest time, as far as this sink and the tasks'
    /// shared least upper end know: `U + `[`LOOSE_MARGIN`], `U` the smallest
    /// upper end of a bracket found (`∞` before any; `−∞` once `U = 0`, the
    /// step's earliest time then being exactly `0`).
    #[inline]
    fn earliest_until(&self, ctx: &PairCtx<'_>) -> f64 {
        let upper = (self.toi.map_or(f64::INFINITY, |t| t.upper))
            .min(self.loose_upper)
            .min(ctx.least_upper());
        if upper == 0.0 {
            f64::NEG_INFINITY
        } else {
            upper + LOOSE_MARGIN
        }
    }

    /// The largest loose lower end that may still hold the step's earliest
    /// time, as far as this sink knows (`-∞` once its earliest time is
    /// exactly `0`).
    fn loose_bound(&self) -> f64 {
        let tight_upper = self.toi.map_or(f64::INFINITY, |t| t.upper);
        if self.toi.is_some_and(|t| t.lower == 0.0 && t.upper == 0.0) {
            f64::NEG_INFINITY
        } else {
            tight_upper.min(self.loose_upper) + LOOSE_MARGIN
        }
    }
}

/// One traversal task's sink: runs the filters on each batch, then the
/// exact test on the batch's survivors (module doc).
pub(super) struct TaskSink<'c> {
    ctx: &'c PairCtx<'c>,
    /// Set: the step is cancelled, candidates are dropped untested (as
    /// they are once a step that stops at its first hit has one).
    cancel: Option<&'c AtomicBool>,
    vf: KindSink<VfPair>,
    ee: KindSink<EePair>,
    busy: Busy,
}

impl<'c> TaskSink<'c> {
    pub(super) fn new(ctx: &'c PairCtx<'c>, cancel: Option<&'c AtomicBool>) -> TaskSink<'c> {
        TaskSink {
            ctx,
            cancel,
            vf: KindSink::new(),
            ee: KindSink::new(),
            busy: Busy::default(),
        }
    }
}

impl CandidateSink for TaskSink<'_> {
    fn vertex_face(&mut self, pairs: &[VfPair]) {
        if !self.stopped() {
            self.vf.batch(self.ctx, pairs, &mut self.busy, self.cancel);
        }
    }

    fn edge_edge(&mut self, pairs: &[EePair]) {
        if !self.stopped() {
            self.ee.batch(self.ctx, pairs, &mut self.busy, self.cancel);
        }
    }

    fn stopped(&self) -> bool {
        is_set(self.cancel)
            || self.ctx.overflowed()
            || self.ctx.hit()
            || (self.ctx.earliest_only && self.ctx.least_upper() == 0.0)
    }
}

/// Whether the pair `p` cannot come within the step's minimum separation
/// (contact at `d = 0`) in `[0, until]`: `true` for every pair when
/// `until < 0` (none can matter), `false` when `until ≥ 1` (the whole
/// step).
#[inline(always)]
fn apart_until_bound<P: Pair>(ctx: &PairCtx<'_>, p: &P, until: f64) -> bool {
    until < 0.0 || (until < 1.0 && apart_until(P::KIND, &p.points(ctx), until, ctx.min_distance))
}

/// A bracket wider than this is narrowed by the exact oracle in a step that
/// looks for its earliest time alone: with every bracket at most this wide,
/// a pair that stays apart until `U + `[`LOOSE_MARGIN`] has a bracket
/// wholly after `U` (docs/design.md §10, *The earliest time alone*). The
/// minimum-separation solver's tight brackets are never wider.
const MAX_TIGHT_WIDTH: f64 = LOOSE_MARGIN / 2.0;

/// The bracket `toi` of a pair in contact, wider than [`MAX_TIGHT_WIDTH`],
/// cut to its overlap with the exact oracle's (at most
/// [`crate::narrow_phase::EXACT_TOI_WIDTH`] wide, rounded outward, so that
/// alone it might reach past `toi`'s ends): both hold the true time.
#[cold]
fn narrowed(kind: QueryKind, q: &[Vec3; 8], toi: Toi) -> Toi {
    let [a, b, c, d, e, f, g, h] = q;
    let t = match kind {
        QueryKind::VertexFace => oracle::vertex_face(a, b, c, d, e, f, g, h),
        QueryKind::EdgeEdge => oracle::edge_edge(a, b, c, d, e, f, g, h),
    };
    match t.map(Toi::of_exact) {
        Some(exact) => Toi {
            lower: toi.lower.max(exact.lower),
            upper: toi.upper.min(exact.upper),
        },
        None => {
            debug_assert!(false, "the oracle finds no contact where the solver did");
            toi
        }
    }
}

/// Whether the step is cancelled.
#[inline]
pub(super) fn is_set(cancel: Option<&AtomicBool>) -> bool {
    cancel.is_some_and(|c| c.load(Ordering::Relaxed))
}

/// One kind's counts from all tasks, added up into `counts`; its earliest
/// time of impact; its colliding pairs (when collected) by global ID
/// appended to `pairs`, ascending by `(a, b)` (the tasks' order follows the
/// tree, which a refit keeps and a build changes). Returns its loose brackets' pairs and the
/// smallest of their upper ends.
fn collect_kind<P: Pair>(
    parts: impl Iterator<Item = KindSink<P>>,
    counts: &mut KindCounts,
    mesh: &TriMesh,
    toi: &mut Option<Toi>,
    pairs: &mut Vec<ContactPair>,
) -> (Vec<(P, f64)>, f64) {
    let mut passed = 0;
    let (mut loose, mut loose_upper) = (Vec::new(), f64::INFINITY);
    let first = pairs.len();
    for mut k in parts {
        passed += k.passed;
        counts.candidates -= k.in_one_body;
        counts.candidates_same_component -= k.in_one_body_same_component;
        counts.exact_fallbacks += k.fallbacks;
        counts.culled_slpf += k.culled.slpf;
        counts.culled_dnf += k.culled.dnf;
        counts.culled_window += k.culled.window;
        counts.colliding += k.colliding;
        counts.colliding_same_component += k.colliding_same_component;
        if let Some(t) = k.toi {
            *toi = Some(earliest(*toi, t));
        }
        pairs.extend(k.hits.iter().map(|(p, t)| p.contact(mesh, t)));
        loose.append(&mut k.loose);
        loose_upper = loose_upper.min(k.loose_upper);
    }
    counts.after_filter = passed + counts.culled_window;
    pairs[first..].sort_unstable_by_key(|p| (p.a, p.b));
    (loose, loose_upper)
}

/// The tasks' counts added up into `vf` and `ee`; returns the summed busy
/// times, the earliest time of impact's bracket, and the
/// colliding pairs (vertex–face, then edge–edge, each ascending; empty
/// unless collected).
///
/// Loose brackets (a minimum-separation step that does not collect its
/// pairs, [`WithinVerdict`]) are narrowed here where they may hold the
/// earliest time: a pair whose loose lower end is at most `U +`
/// [`LOOSE_MARGIN`], `U` the smallest upper end of all brackets, tight or
/// loose, gets its tight bracket from [`solve`]. Every other pair's tight
/// bracket would lie wholly after the smallest tight upper end, so the
/// result is that of a step with every bracket tight. Once `cancel` is set
/// the narrowing skips the pairs left (the caller then answers
/// `Cancelled`).
pub(super) fn collect(
    ctx: &PairCtx<'_>,
    cancel: Option<&AtomicBool>,
    sinks: Vec<TaskSink<'_>>,
    vf: &mut KindCounts,
    ee: &mut KindCounts,
    mesh: &TriMesh,
) -> (Busy, Option<Toi>, Vec<ContactPair>) {
    let mut busy = Busy::default();
    let (mut vf_parts, mut ee_parts) = (Vec::new(), Vec::new());
    for s in sinks {
        busy.filter += s.busy.filter;
        busy.solve += s.busy.solve;
        vf_parts.push(s.vf);
        ee_parts.push(s.ee);
    }
    let (mut toi, mut pairs) = (None, Vec::new());
    let (vf_loose, vf_upper) = collect_kind(vf_parts.into_iter(), vf, mesh, &mut toi, &mut pairs);
    let (ee_loose, ee_upper) = collect_kind(ee_parts.into_iter(), ee, mesh, &mut toi, &mut pairs);
    if !(vf_loose.is_empty() && ee_loose.is_empty()) {
        let t = busy_ms();
        let bound = toi
            .map_or(f64::INFINITY, |t| t.upper)
            .min(vf_upper)
            .min(ee_upper)
            + LOOSE_MARGIN;
        vf.exact_fallbacks += narrow(ctx, cancel, &vf_loose, bound, &mut toi);
        ee.exact_fallbacks += narrow(ctx, cancel, &ee_loose, bound, &mut toi);
        // Spread over the workers like the tasks' busy times.
        busy.solve += (busy_ms() - t) * rayon::current_num_threads() as f64;
    }
    (busy, toi, pairs)
}

/// The pairs the tasks listed ([`PairCtx::list_only`]), taken out of their
/// sinks: vertex–face, then edge–edge, each ascending (the tasks' order
/// follows the tree, which a refit keeps and a build changes).
pub(super) fn take_listed(sinks: &mut [TaskSink<'_>]) -> (Vec<VfPair>, Vec<EePair>) {
    let (mut vf, mut ee) = (Vec::new(), Vec::new());
    for s in sinks {
        vf.append(&mut s.vf.listed);
        ee.append(&mut s.ee.listed);
    }
    vf.par_sort_unstable();
    ee.par_sort_unstable();
    (vf, ee)
}

/// The tight bracket of a pair whose loose one said it comes within `d`,
/// and whether the exact path decided it (`1`) or not (`0`).
fn tight_bracket<P: Pair>(ctx: &PairCtx<'_>, p: &P) -> (Option<Toi>, u64) {
    let q = p.points(ctx).map(|[x, y, z]| Vec3::new(x, y, z));
    let (t, tier) = solve(ctx.solver, P::KIND, ctx.range, ctx.min_distance, &q);
    debug_assert!(t.is_some(), "a pair within d without a time of impact");
    (t, u64::from(tier == SolverTier::Exact))
}

/// The tight brackets of the `loose` pairs whose lower end is at most
/// `bound`, folded into `toi`; returns how many of them the exact path
/// decided. Once `cancel` is set the pairs left are skipped.
fn narrow<P: Pair + Sync>(
    ctx: &PairCtx<'_>,
    cancel: Option<&AtomicBool>,
    loose: &[(P, f64)],
    bound: f64,
    toi: &mut Option<Toi>,
) -> u64 {
    let (found, fallbacks) = loose
        .par_iter()
        .filter(|(_, lower)| *lower <= bound && !is_set(cancel))
        .map(|(p, _)| tight_bracket(ctx, p))
        .reduce(
            || (None, 0),
            |(a, f), (b, g)| (b.map(|b| earliest(a, b)).or(a), f + g),
        );
    if let Some(t) = found {
        *toi = Some(earliest(*toi, t));
    }
    fallbacks
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::filter::FilterSet;
    use crate::mesh::{Step, TriMesh};
    use crate::pipeline::PipelineConfig;
    use crate::pipeline::decide::PairBuffers;
    use crate::pipeline::report::KindCounts;
    use crate::pipeline::step::Run;

    /// Six vertices falling through a triangle, the coordinates beyond the
    /// filter range (`2²⁵⁰`) but for one corner's tiny height (`2⁻¹⁰⁰`), a
    /// span that no power of two brings into it, so that each pair takes the
    /// exact fallback: the mesh, its two frames and the six vertex–face
    /// pairs.
    fn far_falling_vertices() -> (TriMesh, Vec<Vec3>, Vec<Vec3>, Vec<VfPair>) {
        let s = 2f64.powi(250);
        let mut faces = vec![[0, 1, 2]];
        let mut x0 = vec![
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(8.0, 0.0, 0.0),
            Vec3::new(0.0, 8.0, 0.0),
        ];
        for k in 0..2u32 {
            let n = x0.len() as u32;
            faces.push([n, n + 1, n + 2]);
            let y = 1.0 + 2.0 * k as f64;
            x0.extend([
                Vec3::new(1.0, y, 1.0),
                Vec3::new(2.0, y, 1.0),
                Vec3::new(1.0, y + 1.0, 1.0),
            ]);
        }
        let down = Vec3::new(0.0, 0.0, 2.0);
        let x1: Vec<Vec3> = (x0.iter().enumerate())
            .map(|(i, p)| if i < 3 { *p } else { p - down })
            .collect();
        let scaled = |x: Vec<Vec3>| {
            let mut x: Vec<Vec3> = x.into_iter().map(|p| p * s).collect();
            x[0].z = 2f64.powi(-100);
            x
        };
        let mesh = TriMesh::new(x0.len(), faces).unwrap();
        let pairs = (3..9).map(|v| VfPair { v, f: 0 }).collect();
        (mesh, scaled(x0), scaled(x1), pairs)
    }

    /// A still sheet of `n × n` vertices at z = 0 and a tilted one falling
    /// through it (each pair of the two sheets touches at its own time):
    /// the mesh, its frames and every vertex–face and edge–edge pair across
    /// the two sheets.
    fn falling_sheet(n: u32) -> (TriMesh, Vec<Vec3>, Vec<Vec3>, Vec<VfPair>, Vec<EePair>) {
        let (mut faces, mut x0, mut x1) = (Vec::new(), Vec::new(), Vec::new());
        for sheet in 0..2 {
            for j in 0..n {
                for i in 0..n {
                    let (x, y) = (f64::from(i), f64::from(j));
                    let tilt = 0.05 * x + 0.03 * y;
                    let (z0, z1) = if sheet == 0 {
                        (0.0, 0.0)
                    } else {
                        (1.5 + tilt, -1.5 + tilt)
                    };
                    x0.push(Vec3::new(
                        x + 0.3 * f64::from(sheet),
                        y + 0.2 * f64::from(sheet),
                        z0,
                    ));
                    x1.push(Vec3::new(
                        x + 0.3 * f64::from(sheet),
                        y + 0.2 * f64::from(sheet),
                        z1,
                    ));
                }
            }
            for j in 0..n - 1 {
                for i in 0..n - 1 {
                    let a = sheet * n * n + j * n + i;
                    faces.push([a, a + 1, a + n + 1]);
                    faces.push([a, a + n + 1, a + n]);
                }
            }
        }
        let mesh = TriMesh::new(x0.len(), faces).unwrap();
        let sheet = |v: u32| v / (n * n);
        let (mut vf, mut ee) = (Vec::new(), Vec::new());
        for (f, face) in mesh.faces().iter().enumerate() {
            for v in 0..x0.len() as u32 {
                if sheet(v) != sheet(face[0]) {
                    vf.push(VfPair { v, f: f as u32 });
                }
            }
        }
        let edges = mesh.edges();
        for (e0, a) in edges.iter().enumerate() {
            for (e1, b) in edges.iter().enumerate().skip(e0 + 1) {
                if sheet(a[0]) != sheet(b[0]) {
                    ee.push(EePair {
                        e0: e0 as u32,
                        e1: e1 as u32,
                    });
                }
            }
        }
        (mesh, x0, x1, vf, ee)
    }

    /// The earliest time alone, with the most skipping any schedule could
    /// do (the tasks' least upper end seeded with the step's own) and with
    /// none seeded, equals a full test's: on every pair of two sheets, one
    /// falling through the other, at contact and within `d`. The seeded
    /// run skips most pairs.
    #[test]
    fn the_earliest_time_alone_is_the_full_tests_however_much_is_skipped() {
        let (mesh, x0, x1, vf, ee) = falling_sheet(6);
        let step = Step::new(&mesh, &x0, &x1).unwrap();
        for d in [0.0, 0.05] {
            let cfg = PipelineConfig {
                filters: FilterSet::None,
                window: false,
                min_distance: d,
                ..PipelineConfig::default()
            };
            let run = |kind: Run, seed: Option<f64>| {
                let ctx = PairCtx::new(
                    &cfg,
                    FilterSet::None,
                    &step,
                    None,
                    PairBuffers::default(),
                    LOOSE_CAP,
                    kind,
                );
                if let Some(u) = seed {
                    ctx.publish_upper(u);
                }
                let mut sink = TaskSink::new(&ctx, None);
                sink.vertex_face(&vf);
                sink.edge_edge(&ee);
                let (mut c_vf, mut c_ee) = (KindCounts::default(), KindCounts::default());
                let (_, toi, _) = collect(&ctx, None, vec![sink], &mut c_vf, &mut c_ee, &mesh);
                (toi, c_vf.colliding + c_ee.colliding)
            };
            let (full, colliding) = run(Run::Test, None);
            let full = full.expect("the sheets collide");
            assert!(full.lower > 0.3, "d = {d}: {full:?}");
            let (alone, _) = run(Run::Earliest, None);
            let (seeded, tested) = run(Run::Earliest, Some(full.upper));
            assert_eq!(alone, Some(full), "d = {d}");
            assert_eq!(seeded, Some(full), "d = {d}");
            assert!(
                4 * tested < colliding,
                "d = {d}: {tested} of {colliding} tested"
            );
        }
    }

    /// A batch reads the cancel flag after each pair that took the exact
    /// fallback: cancelled, it stops after the first; not cancelled, it
    /// tests all six.
    #[test]
    fn a_cancelled_batch_stops_after_one_exact_fallback() {
        let (mesh, x0, x1, pairs) = far_falling_vertices();
        let step = Step::new(&mesh, &x0, &x1).unwrap();
        let cfg = PipelineConfig {
            filters: FilterSet::None,
            window: false,
            ..PipelineConfig::default()
        };
        let ctx = PairCtx::new(
            &cfg,
            FilterSet::None,
            &step,
            None,
            PairBuffers::default(),
            LOOSE_CAP,
            Run::Test,
        );
        for (cancelled, tested) in [(true, 1), (false, 6)] {
            let mut sink = KindSink::<VfPair>::new();
            let cancel = AtomicBool::new(cancelled);
            sink.batch(&ctx, &pairs, &mut Busy::default(), Some(&cancel));
            assert_eq!((sink.fallbacks, sink.colliding), (tested, tested));
        }
    }
}
