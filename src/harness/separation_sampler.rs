//! A plain sampler for minimum-separation CCD, and the check of the pipeline
//! against it: which candidate pairs come within distance `d` at one of the
//! sample times `t = k / n` (`k = 0 ..= n`), decided exactly, and whether the
//! pipeline reports every such pair no later than its first such sample.
//!
//! **Why it is exact.** At a sample the positions `x₀ + (k/n)(x₁ − x₀)` are
//! rational. The pair's 24 coordinates and `d` are put on one integer scale
//! ([`crate::exact::to_common_scale`]; every condition below is homogeneous
//! in them), and multiplied by `n`, so every position is the integer
//! `n·X₀ + k·(X₁ − X₀)`. The distance between a point and a closed triangle
//! (two closed segments) is at most `d` exactly when one of the closest-point
//! regions holds, each a conjunction of sign conditions on integer
//! polynomials, with no division (docs/design.md §5 states them):
//!
//! - a point and a corner: `|q − r|² ≤ d²`;
//! - a point and a segment `a → b` (`u = b − a`, `w = p − a`): `|u|² > 0`,
//!   `0 ≤ w·u ≤ |u|²`, `|w|²|u|² − (w·u)² ≤ d²|u|²`;
//! - a point and the triangle's plane (`n = (b−a)×(c−a)`): `|n|² > 0`, the
//!   three edge functions `((b−a)×(p−a))·n`, … all `≥ 0`, `(w·n)² ≤ d²|n|²`;
//! - two segments' interiors (`u`, `v` their directions, `w = a₀ − b₀`,
//!   `n = u×v`): `|n|² > 0`, both closest parameters' numerators in
//!   `[0, |n|²]`, `(w·n)² ≤ d²|n|²`.
//!
//! Each region, when it holds, names two points of the features within `d`;
//! the closest pair of points lies in one of them (a corner, an edge's
//! interior, the face's or the segments' interiors; where a denominator
//! vanishes the lower regions attain the distance). So the union is exactly
//! `dist ≤ d`. These are evaluated with big integers ([`num_bigint`]); no
//! code is shared with the solvers or the oracle.
//!
//! **The float pre-test only skips.** Over a run of samples `[kₐ, k_b]` a
//! direction `s` (the difference of the closest points at the run's middle
//! sample, in doubles: only a hint) proves the pair apart when every corner
//! pair's gap `s·(b − a)` exceeds `d·|s|` at both ends, with the rounding of
//! the positions, the dot products and `|s|` bounded from above: each gap is
//! linear in `t`, so it exceeds `d|s|` on the whole run, and so does every
//! pair of points of the two features (convex combinations of the corners).
//! A run not proven apart is halved, earliest half first; a single sample
//! not proven apart is decided exactly. The first sample found within `d` is
//! therefore the pair's first sample within `d`.

use std::cmp::Ordering;
use std::collections::HashMap;

use num_bigint::BigInt;
use num_traits::{Signed, Zero};
use rayon::prelude::*;
use serde::Serialize;

use crate::broad_phase::{CandidateSet, EePair, VfPair};
use crate::exact::{decompose, to_common_scale};
use crate::math::Vec3;
use crate::mesh::{Feature, Step};
use crate::pair_kernel::QueryKind;
use crate::pipeline::ContactPair;

/// The default number of sample intervals: `t = k / 1024`, `k = 0 … 1024`.
pub const DEFAULT_SAMPLES: u32 = 1024;

/// The most sample intervals accepted: a bound on the work, as a pair the
/// pre-test cannot separate is evaluated exactly at every sample.
pub const MAX_SAMPLES: u32 = 1 << 20;

/// Bad input to the sampler or the check.
#[derive(Debug, thiserror::Error, PartialEq)]
#[non_exhaustive]
pub enum SamplerError {
    /// The separation is negative, NaN or infinite.
    #[error("the separation {0} is not a finite distance ≥ 0")]
    BadDistance(f64),
    /// The sample count is outside `1 ..= MAX_SAMPLES`.
    #[error("{0} sample intervals: must be 1 to {MAX_SAMPLES}")]
    BadSamples(u32),
    /// A candidate names a vertex, edge or face the mesh does not have.
    #[error(
        "{} candidate ({a}, {b}): an index out of range for the mesh (local indices: vertex and face, or two edges)",
        kind.folder_name()
    )]
    CandidateOutOfRange {
        /// Its kind.
        kind: QueryKind,
        /// Its first feature's local index (the vertex; the first edge).
        a: u32,
        /// Its second feature's local index (the face; the second edge).
        b: u32,
    },
    /// A reported pair's global IDs do not name a vertex–face or edge–edge
    /// pair of the mesh.
    #[error("reported pair {kind:?} ({a}, {b}): not a pair of the mesh")]
    BadReportedPair {
        /// Its kind.
        kind: QueryKind,
        /// First global ID.
        a: u64,
        /// Second global ID.
        b: u64,
    },
}

/// A candidate pair that comes within `d` at a sample.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct SampledPair {
    /// Vertex–face or edge–edge.
    pub kind: QueryKind,
    /// Global ID of the first feature (the vertex; the smaller edge).
    pub a: u64,
    /// Global ID of the second feature (the face; the larger edge).
    pub b: u64,
    /// The first sample `k` with distance `≤ d` at `t = k / n`.
    pub first_sample: u32,
}

/// What the sampler found on a step.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SampleOutcome {
    /// Sample intervals `n` (samples `k = 0 ..= n`).
    pub samples: u32,
    /// The separation `d`.
    pub min_distance: f64,
    /// Candidate pairs examined (vertex–face, edge–edge).
    pub candidates: [u64; 2],
    /// Pairs within `d` at some sample, sorted (kind, IDs).
    pub pairs: Vec<SampledPair>,
    /// Pair-samples decided in exact arithmetic (the float pre-test could
    /// not prove them apart).
    pub exact_evaluations: u64,
}

impl SampleOutcome {
    /// Pairs within `d` at a sample, by kind: `(vertex–face, edge–edge)`.
    pub fn counts(&self) -> (u64, u64) {
        let vf = self
            .pairs
            .iter()
            .filter(|p| p.kind == QueryKind::VertexFace)
            .count() as u64;
        (vf, self.pairs.len() as u64 - vf)
    }
}

/// Checks that `d` is a finite distance `≥ 0` and `samples` in range.
fn validate(d: f64, samples: u32) -> Result<(), SamplerError> {
    if !(d.is_finite() && d >= 0.0) {
        return Err(SamplerError::BadDistance(d));
    }
    if !(1..=MAX_SAMPLES).contains(&samples) {
        return Err(SamplerError::BadSamples(samples));
    }
    Ok(())
}

/// The pairs of `candidates` within `d` at some sample `t = k / samples`,
/// each with its first such sample, decided exactly (module doc). Runs on
/// the current rayon pool.
pub fn sample_candidates(
    step: &Step<'_>,
    d: f64,
    samples: u32,
    candidates: &CandidateSet,
) -> Result<SampleOutcome, SamplerError> {
    validate(d, samples)?;
    let mesh = step.mesh;
    let (nv, ne, nf) = (mesh.num_vertices(), mesh.num_edges(), mesh.num_faces());
    for p in &candidates.vertex_face {
        if p.v as usize >= nv || p.f as usize >= nf {
            return Err(SamplerError::CandidateOutOfRange {
                kind: QueryKind::VertexFace,
                a: p.v,
                b: p.f,
            });
        }
    }
    for p in &candidates.edge_edge {
        if p.e0 as usize >= ne || p.e1 as usize >= ne {
            return Err(SamplerError::CandidateOutOfRange {
                kind: QueryKind::EdgeEdge,
                a: p.e0,
                b: p.e1,
            });
        }
    }
    let vf: Vec<(Option<SampledPair>, u64)> = candidates
        .vertex_face
        .par_iter()
        .map(|&VfPair { v, f }| {
            let [a, b, c] = mesh.faces()[f as usize];
            let idx = [v, a, b, c];
            let (hit, exact) = first_within(step, idx, 1, d, samples);
            let pair = hit.map(|k| SampledPair {
                kind: QueryKind::VertexFace,
                a: mesh.global_id(Feature::Vertex(v)),
                b: mesh.global_id(Feature::Face(f)),
                first_sample: k,
            });
            (pair, exact)
        })
        .collect();
    let ee: Vec<(Option<SampledPair>, u64)> = candidates
        .edge_edge
        .par_iter()
        .map(|&EePair { e0, e1 }| {
            let (lo, hi) = (e0.min(e1), e0.max(e1));
            let [a0, a1] = mesh.edges()[lo as usize];
            let [b0, b1] = mesh.edges()[hi as usize];
            let (hit, exact) = first_within(step, [a0, a1, b0, b1], 2, d, samples);
            let pair = hit.map(|k| SampledPair {
                kind: QueryKind::EdgeEdge,
                a: mesh.global_id(Feature::Edge(lo)),
                b: mesh.global_id(Feature::Edge(hi)),
                first_sample: k,
            });
            (pair, exact)
        })
        .collect();
    let exact_evaluations = vf.iter().chain(&ee).map(|r| r.1).sum();
    let mut pairs: Vec<SampledPair> = vf.into_iter().chain(ee).filter_map(|r| r.0).collect();
    pairs.sort_unstable();
    Ok(SampleOutcome {
        samples,
        min_distance: d,
        candidates: [
            candidates.vertex_face.len() as u64,
            candidates.edge_edge.len() as u64,
        ],
        pairs,
        exact_evaluations,
    })
}

/// A sampled pair that the pipeline did not report, or reported late.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Miss {
    /// The sampled pair.
    pub pair: SampledPair,
    /// The pipeline's lower bound of its time of impact, when it reported
    /// the pair at all (then later than the sample).
    pub reported_lower: Option<f64>,
}

/// The pipeline's reported pairs against the sampler's.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SamplerCheck {
    /// Pairs the sampler found within `d` at a sample.
    pub sampled: u64,
    /// Pairs the pipeline reported.
    pub reported: u64,
    /// Reported pairs that no sample finds within `d` (allowed: a pair can
    /// come within `d` only between two samples).
    pub reported_not_sampled: u64,
    /// Sampled pairs missing from the report, or reported with a lower
    /// bound after their first sample. Must be empty.
    pub misses: Vec<Miss>,
}

impl SamplerCheck {
    /// Whether every sampled pair was reported in time.
    pub fn passed(&self) -> bool {
        self.misses.is_empty()
    }
}

/// Checks `reported` (the pipeline's pairs at the same `d`) against the
/// sampler: every sampled pair must be reported, with `toi_lower` at or
/// before `first_sample / samples` (compared exactly).
pub fn check_reported(
    step: &Step<'_>,
    outcome: &SampleOutcome,
    reported: &[ContactPair],
) -> Result<SamplerCheck, SamplerError> {
    let mesh = step.mesh;
    let mut by_pair: HashMap<(QueryKind, u64, u64), f64> = HashMap::with_capacity(reported.len());
    for p in reported {
        let ok = match (p.kind, mesh.feature(p.a), mesh.feature(p.b)) {
            (QueryKind::VertexFace, Some(Feature::Vertex(_)), Some(Feature::Face(_))) => true,
            (QueryKind::EdgeEdge, Some(Feature::Edge(_)), Some(Feature::Edge(_))) => p.a < p.b,
            // A codimensional point's pair: not sampled (the sampler
            // samples vertex–face and edge–edge pairs), so not checked.
            (
                QueryKind::EdgeEdge,
                Some(Feature::Vertex(_)),
                Some(Feature::Edge(_) | Feature::Vertex(_)),
            ) if !p.toi_lower.is_nan() => {
                continue;
            }
            _ => false,
        };
        if !ok || p.toi_lower.is_nan() {
            return Err(SamplerError::BadReportedPair {
                kind: p.kind,
                a: p.a,
                b: p.b,
            });
        }
        by_pair.insert((p.kind, p.a, p.b), p.toi_lower);
    }
    let mut misses = Vec::new();
    for s in &outcome.pairs {
        match by_pair.get(&(s.kind, s.a, s.b)) {
            None => misses.push(Miss {
                pair: *s,
                reported_lower: None,
            }),
            Some(&lower) => {
                if !at_or_before(lower, s.first_sample, outcome.samples) {
                    misses.push(Miss {
                        pair: *s,
                        reported_lower: Some(lower),
                    });
                }
            }
        }
    }
    let sampled_keys: std::collections::HashSet<_> =
        outcome.pairs.iter().map(|s| (s.kind, s.a, s.b)).collect();
    let reported_not_sampled = by_pair.keys().filter(|k| !sampled_keys.contains(k)).count() as u64;
    Ok(SamplerCheck {
        sampled: outcome.pairs.len() as u64,
        reported: by_pair.len() as u64,
        reported_not_sampled,
        misses,
    })
}

/// `lower ≤ k / n`, exactly: `m·2^e·n ≤ k`.
fn at_or_before(lower: f64, k: u32, n: u32) -> bool {
    if lower <= 0.0 {
        return true;
    }
    if !lower.is_finite() {
        return false;
    }
    let (m, e) = decompose(lower);
    let (mut lhs, mut rhs) = (BigInt::from(m) * n, BigInt::from(k));
    if e >= 0 {
        lhs <<= e as u32;
    } else {
        rhs <<= (-e) as u32;
    }
    lhs <= rhs
}

// ------------------------------------------------------------- the search

/// The first sample at which the pair `idx` (VF: vertex, then the face's
/// corners, `split = 1`; EE: one edge's ends, then the other's, `split = 2`)
/// is within `d`, and how many samples were decided exactly.
fn first_within(
    step: &Step<'_>,
    idx: [u32; 4],
    split: usize,
    d: f64,
    n: u32,
) -> (Option<u32>, u64) {
    let x0 = idx.map(|i| step.x_t0[i as usize]);
    let x1 = idx.map(|i| step.x_t1[i as usize]);
    let pair = PairMotion::new(x0, x1, split, d, n);
    let mut exact = 0;
    let hit = pair.search(0, n, &mut exact);
    (hit, exact)
}

/// One pair's motion, with the bounds its float pre-test needs and, made on
/// first need, its exact integer form.
struct PairMotion {
    x0: [Vec3; 4],
    x1: [Vec3; 4],
    /// 1 (a vertex and a face) or 2 (two edges).
    split: usize,
    d: f64,
    n: u32,
    /// An upper bound of the rounding error of every float position
    /// coordinate, times 2 (module doc); see [`PairMotion::new`].
    err: f64,
    exact: std::cell::OnceCell<ExactPair>,
}

/// The unit roundoff of doubles.
const U: f64 = f64::EPSILON / 2.0;

impl PairMotion {
    fn new(x0: [Vec3; 4], x1: [Vec3; 4], split: usize, d: f64, n: u32) -> PairMotion {
        // A position x₀ + t(x₁ − x₀) in doubles is off by at most
        // 4.1u(|x₀| + |x₁|) per coordinate (t = k/n rounded, the difference,
        // the product and the sum each add one rounding), plus a few
        // subnormal units; a gap s·(q − p) adds the rounding of the
        // difference and of the dot product, at most 5u·|s|₁·2M. All of it is
        // below |s|₁·(32u·M + 2⁻¹⁰⁰⁰) for M the largest |x₀| + |x₁|, and the
        // bound used is twice that.
        let mut m: f64 = 0.0;
        for i in 0..4 {
            for c in 0..3 {
                m = m.max(x0[i][c].abs() + x1[i][c].abs());
            }
        }
        PairMotion {
            x0,
            x1,
            split,
            d,
            n,
            err: 64.0 * U * m + 1e-300,
            exact: std::cell::OnceCell::new(),
        }
    }

    /// The float positions at sample `k`.
    fn at(&self, k: u32) -> [Vec3; 4] {
        let t = f64::from(k) / f64::from(self.n);
        std::array::from_fn(|i| self.x0[i] + (self.x1[i] - self.x0[i]) * t)
    }

    /// The first sample in `lo ..= hi` within `d`, earliest first.
    fn search(&self, lo: u32, hi: u32, exact: &mut u64) -> Option<u32> {
        let (a, b) = (self.at(lo), self.at(hi));
        let mid = if lo == hi {
            a
        } else {
            self.at(lo + (hi - lo) / 2)
        };
        if let Some(s) = self.direction(&mid)
            && self.apart(&s, &a)
            && (lo == hi || self.apart(&s, &b))
        {
            return None;
        }
        if lo == hi {
            *exact += 1;
            let e = self
                .exact
                .get_or_init(|| ExactPair::new(&self.x0, &self.x1, self.split, self.d, self.n));
            return e.within_at(lo).then_some(lo);
        }
        let m = lo + (hi - lo) / 2;
        self.search(lo, m, exact)
            .or_else(|| self.search(m + 1, hi, exact))
    }

    /// The difference of the two features' closest points (a hint only).
    fn direction(&self, p: &[Vec3; 4]) -> Option<Vec3> {
        let (q, r) = if self.split == 1 {
            (p[0], closest_on_triangle(p[0], p[1], p[2], p[3]))
        } else {
            closest_between_segments(p[0], p[1], p[2], p[3])
        };
        // Scaled so that its largest component is about 1: |s| cannot
        // underflow in the certificate's bound, whatever the gap.
        let s = r - q;
        let big = s.x.abs().max(s.y.abs()).max(s.z.abs());
        (big.is_finite() && big > 0.0).then(|| s / big)
    }

    /// Whether `s` proves the features at positions `p` more than `d` apart:
    /// every corner gap `s·(b − a)` above `d|s|` plus the error bound.
    fn apart(&self, s: &Vec3, p: &[Vec3; 4]) -> bool {
        let norm1 = s.x.abs() + s.y.abs() + s.z.abs();
        // |s| rounded up: sqrt of the rounded sum of squares, and a margin far
        // above the few roundings in it.
        let norm2 = (s.x * s.x + s.y * s.y + s.z * s.z).sqrt() * (1.0 + 8.0 * U);
        let need = (self.d * norm2 + norm1 * self.err) * (1.0 + 1e-10) + 1e-300;
        let (fa, fb) = p.split_at(self.split);
        fa.iter().all(|a| fb.iter().all(|b| s.dot(&(b - a)) > need))
    }
}

/// The closest point of triangle `abc` to `p` (Ericson 2005, §5.1.5), in
/// doubles.
fn closest_on_triangle(p: Vec3, a: Vec3, b: Vec3, c: Vec3) -> Vec3 {
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(&ap), ac.dot(&ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return a;
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(&bp), ac.dot(&bp));
    if d3 >= 0.0 && d4 <= d3 {
        return b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return a + ab * (d1 / (d1 - d3));
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(&cp), ac.dot(&cp));
    if d6 >= 0.0 && d5 <= d6 {
        return c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return a + ac * (d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    let denom = 1.0 / (va + vb + vc);
    a + ab * (vb * denom) + ac * (vc * denom)
}

/// The closest points of segments `p₁q₁` and `p₂q₂` (Ericson 2005, §5.1.9),
/// in doubles.
fn closest_between_segments(p1: Vec3, q1: Vec3, p2: Vec3, q2: Vec3) -> (Vec3, Vec3) {
    let (d1, d2, r) = (q1 - p1, q2 - p2, p1 - p2);
    let (a, e, f) = (d1.dot(&d1), d2.dot(&d2), d2.dot(&r));
    let (s, t);
    if a <= f64::MIN_POSITIVE && e <= f64::MIN_POSITIVE {
        return (p1, p2);
    }
    if a <= f64::MIN_POSITIVE {
        s = 0.0;
        t = (f / e).clamp(0.0, 1.0);
    } else {
        let c = d1.dot(&r);
        if e <= f64::MIN_POSITIVE {
            t = 0.0;
            s = (-c / a).clamp(0.0, 1.0);
        } else {
            let b = d1.dot(&d2);
            let denom = a * e - b * b;
            let mut s0 = if denom > 0.0 {
                ((b * f - c * e) / denom).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let mut t0 = (b * s0 + f) / e;
            if t0 < 0.0 {
                t0 = 0.0;
                s0 = (-c / a).clamp(0.0, 1.0);
            } else if t0 > 1.0 {
                t0 = 1.0;
                s0 = ((b - c) / a).clamp(0.0, 1.0);
            }
            s = s0;
            t = t0;
        }
    }
    (p1 + d1 * s, p2 + d2 * t)
}

// ------------------------------------------------------- exact predicates

type IVec = [BigInt; 3];

fn sub(a: &IVec, b: &IVec) -> IVec {
    [&a[0] - &b[0], &a[1] - &b[1], &a[2] - &b[2]]
}

fn dot(a: &IVec, b: &IVec) -> BigInt {
    &a[0] * &b[0] + &a[1] * &b[1] + &a[2] * &b[2]
}

fn cross(a: &IVec, b: &IVec) -> IVec {
    [
        &a[1] * &b[2] - &a[2] * &b[1],
        &a[2] * &b[0] - &a[0] * &b[2],
        &a[0] * &b[1] - &a[1] * &b[0],
    ]
}

/// A pair on one integer scale: `X₀`, `X₁ − X₀` and `D`, so that the
/// position at sample `k` is `n·X₀ + k·(X₁ − X₀)` and the separation `n·D`.
struct ExactPair {
    start: [IVec; 4],
    delta: [IVec; 4],
    /// `(n·D)²`.
    d2: BigInt,
    split: usize,
    n: BigInt,
}

impl ExactPair {
    fn new(x0: &[Vec3; 4], x1: &[Vec3; 4], split: usize, d: f64, n: u32) -> ExactPair {
        let mut all = [0.0; 25];
        for i in 0..4 {
            for c in 0..3 {
                all[3 * i + c] = x0[i][c];
                all[12 + 3 * i + c] = x1[i][c];
            }
        }
        all[24] = d;
        let ints = to_common_scale(&all);
        let nb = BigInt::from(n);
        let start: [IVec; 4] =
            std::array::from_fn(|i| std::array::from_fn(|c| ints[3 * i + c].clone()));
        let delta: [IVec; 4] = std::array::from_fn(|i| {
            std::array::from_fn(|c| &ints[12 + 3 * i + c] - &ints[3 * i + c])
        });
        let dn = &ints[24] * &nb;
        ExactPair {
            start,
            delta,
            d2: &dn * &dn,
            split,
            n: nb,
        }
    }

    /// Whether the features are within `d` at sample `k`, exactly.
    fn within_at(&self, k: u32) -> bool {
        let kb = BigInt::from(k);
        let p: [IVec; 4] = std::array::from_fn(|i| {
            std::array::from_fn(|c| &self.n * &self.start[i][c] + &kb * &self.delta[i][c])
        });
        if self.split == 1 {
            point_triangle_within(&p[0], &p[1], &p[2], &p[3], &self.d2)
        } else {
            segments_within(&p[0], &p[1], &p[2], &p[3], &self.d2)
        }
    }
}

fn point_point_within(p: &IVec, q: &IVec, d2: &BigInt) -> bool {
    let w = sub(p, q);
    dot(&w, &w) <= *d2
}

/// Point `p` within `d` of the interior of segment `ab` (its projection
/// inside, the segment not a point).
fn point_segment_within(p: &IVec, a: &IVec, b: &IVec, d2: &BigInt) -> bool {
    let u = sub(b, a);
    let uu = dot(&u, &u);
    if uu.is_zero() {
        return false;
    }
    let w = sub(p, a);
    let wu = dot(&w, &u);
    if wu.is_negative() || wu > uu {
        return false;
    }
    let ww = dot(&w, &w);
    &ww * &uu - &wu * &wu <= d2 * &uu
}

fn point_triangle_within(p: &IVec, a: &IVec, b: &IVec, c: &IVec, d2: &BigInt) -> bool {
    if [a, b, c].iter().any(|q| point_point_within(p, q, d2)) {
        return true;
    }
    if [(a, b), (b, c), (c, a)]
        .iter()
        .any(|(q, r)| point_segment_within(p, q, r, d2))
    {
        return true;
    }
    let n = cross(&sub(b, a), &sub(c, a));
    let nn = dot(&n, &n);
    if nn.is_zero() {
        return false;
    }
    let inside = [(a, b), (b, c), (c, a)]
        .iter()
        .all(|(q, r)| dot(&cross(&sub(r, q), &sub(p, q)), &n).sign() != num_bigint::Sign::Minus);
    if !inside {
        return false;
    }
    let wn = dot(&sub(p, a), &n);
    &wn * &wn <= d2 * &nn
}

fn segments_within(a0: &IVec, a1: &IVec, b0: &IVec, b1: &IVec, d2: &BigInt) -> bool {
    for (p, q) in [(a0, b0), (a0, b1), (a1, b0), (a1, b1)] {
        if point_point_within(p, q, d2) {
            return true;
        }
    }
    if point_segment_within(a0, b0, b1, d2)
        || point_segment_within(a1, b0, b1, d2)
        || point_segment_within(b0, a0, a1, d2)
        || point_segment_within(b1, a0, a1, d2)
    {
        return true;
    }
    let (u, v, w) = (sub(a1, a0), sub(b1, b0), sub(a0, b0));
    let n = cross(&u, &v);
    let nn = dot(&n, &n);
    if nn.is_zero() {
        return false;
    }
    let (uu, vv, uv) = (dot(&u, &u), dot(&v, &v), dot(&u, &v));
    let (uw, vw) = (dot(&u, &w), dot(&v, &w));
    let s_num = &uv * &vw - &vv * &uw;
    let t_num = &uu * &vw - &uv * &uw;
    let in_range = |x: &BigInt| x.cmp(&BigInt::zero()) != Ordering::Less && *x <= nn;
    if !(in_range(&s_num) && in_range(&t_num)) {
        return false;
    }
    let wn = dot(&w, &n);
    &wn * &wn <= d2 * &nn
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::TriMesh;

    fn v(x: f64, y: f64, z: f64) -> Vec3 {
        Vec3::new(x, y, z)
    }

    fn first(x0: [Vec3; 4], x1: [Vec3; 4], split: usize, d: f64, n: u32) -> Option<u32> {
        let m = PairMotion::new(x0, x1, split, d, n);
        m.search(0, n, &mut 0)
    }

    /// A vertex falling straight onto the middle of a triangle in the plane
    /// z = 0, from z = 1 to z = -1: at sample k its height is 1 − k/512,
    /// exactly d = 2⁻⁸ at k = 510, so it is within d from sample 510 on.
    #[test]
    fn vertex_reaches_the_face_at_exactly_d_on_a_sample() {
        let tri = [v(-1.0, -1.0, 0.0), v(2.0, -1.0, 0.0), v(-1.0, 2.0, 0.0)];
        let x0 = [v(0.0, 0.0, 1.0), tri[0], tri[1], tri[2]];
        let x1 = [v(0.0, 0.0, -1.0), tri[0], tri[1], tri[2]];
        assert_eq!(first(x0, x1, 1, 2f64.powi(-8), 1024), Some(510));
        // d = 0: the vertex touches the face at exactly sample 512.
        assert_eq!(first(x0, x1, 1, 0.0, 1024), Some(512));
        // Just below 2⁻⁸: first within at 511, not 510.
        let below = 2f64.powi(-8) * (1.0 - f64::EPSILON);
        assert_eq!(first(x0, x1, 1, below, 1024), Some(511));
    }

    /// A pair at distance exactly d at sample 512 only: a vertex passing
    /// over an edge's end, its height over the triangle's plane fixed at d,
    /// sliding along x so that it is over the triangle only at t = 1/2.
    #[test]
    fn tangent_at_one_sample_only() {
        let d = 0.25;
        // Triangle with its corner a at the origin, extending to x < 0.
        let tri = [v(0.0, 0.0, 0.0), v(-1.0, -1.0, 0.0), v(-1.0, 1.0, 0.0)];
        // The vertex at height d, moving in x from -1 to 1: over a at t = 1/2,
        // farther than d from the triangle for every t > 1/2.
        let x0 = [v(-1.0, 0.0, d), tri[0], tri[1], tri[2]];
        let x1 = [v(1.0, 0.0, d), tri[0], tri[1], tri[2]];
        assert_eq!(first(x0, x1, 1, d, 1024), Some(0));
        // Reversed: from x = 1 to x = -1; within d from t = 1/2 on.
        assert_eq!(first(x1, x0, 1, d, 1024), Some(512));
        // A hair less: never within (the height is d all along).
        assert_eq!(first(x1, x0, 1, d * (1.0 - f64::EPSILON), 1024), None);
    }

    /// Two edges that come within d only between two samples: one sweeps
    /// across the other, passing it between samples 512 and 513; the
    /// sampler must not report the pair, the exact solver must.
    #[test]
    fn a_dip_between_samples_is_not_sampled() {
        let d = 1e-3;
        // Edge a along y, moving in x from -1 to +1 (its x at sample k is
        // -1 + 2k/1024: 0 at 512, 2⁻⁹ at 513); edge b along y at x = 2⁻¹⁰,
        // in the same plane z = 0.
        let a = [v(-1.0, -1.0, 0.0), v(-1.0, 1.0, 0.0)];
        let a1 = [v(1.0, -1.0, 0.0), v(1.0, 1.0, 0.0)];
        let x = 2f64.powi(-10);
        let b = [v(x, -1.0, 0.0), v(x, 1.0, 0.0)];
        let x0 = [a[0], a[1], b[0], b[1]];
        let x1 = [a1[0], a1[1], b[0], b[1]];
        // At sample 512 a is at x = 0, b at 2⁻¹⁰ ≈ 9.8e-4 < d: within.
        assert_eq!(first(x0, x1, 2, d, 1024), Some(512));
        // With d smaller than the gap at both samples 512 (2⁻¹⁰) and 513
        // (2⁻⁹ − 2⁻¹⁰ = 2⁻¹⁰): no sample within, though they cross at
        // t = (1 + 2⁻¹⁰)/2.
        assert_eq!(first(x0, x1, 2, 2f64.powi(-11), 1024), None);
        // The exact solver finds the crossing.
        let toi = crate::narrow_phase::edge_edge_within(
            &x0[0],
            &x0[1],
            &x0[2],
            &x0[3],
            &x1[0],
            &x1[1],
            &x1[2],
            &x1[3],
            2f64.powi(-11),
        );
        assert!(toi.is_some());
    }

    /// Every candidate pair of a small random mesh against a brute-force
    /// exact evaluation of every sample (no pre-test): the same first
    /// samples.
    #[test]
    fn pre_test_skips_nothing_that_is_within() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut rnd = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let n = 64;
        for case in 0..300 {
            let x0: [Vec3; 4] = std::array::from_fn(|_| v(rnd(), rnd(), rnd()));
            let x1: [Vec3; 4] = std::array::from_fn(|_| v(rnd(), rnd(), rnd()));
            let split = 1 + case % 2;
            let d = [0.0, 1e-3, 0.05, 0.2][case % 4];
            let e = ExactPair::new(&x0, &x1, split, d, n);
            let brute = (0..=n).find(|&k| e.within_at(k));
            assert_eq!(first(x0, x1, split, d, n), brute, "case {case}");
        }
    }

    #[test]
    fn bad_input_is_an_error() {
        let mesh = TriMesh::new(3, vec![[0, 1, 2]]).unwrap();
        let x = [v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(0.0, 1.0, 0.0)];
        let step = Step::new(&mesh, &x, &x).unwrap();
        let none = CandidateSet::default();
        assert_eq!(
            sample_candidates(&step, -1.0, 1024, &none),
            Err(SamplerError::BadDistance(-1.0))
        );
        assert!(sample_candidates(&step, f64::NAN, 1024, &none).is_err());
        assert_eq!(
            sample_candidates(&step, 0.0, 0, &none),
            Err(SamplerError::BadSamples(0))
        );
        let bad = CandidateSet {
            vertex_face: vec![VfPair { v: 7, f: 0 }],
            edge_edge: vec![],
        };
        assert_eq!(
            sample_candidates(&step, 0.0, 8, &bad),
            Err(SamplerError::CandidateOutOfRange {
                kind: QueryKind::VertexFace,
                a: 7,
                b: 0
            })
        );
        let bad = CandidateSet {
            vertex_face: vec![],
            edge_edge: vec![EePair { e0: 0, e1: 3 }],
        };
        assert_eq!(
            sample_candidates(&step, 0.0, 8, &bad),
            Err(SamplerError::CandidateOutOfRange {
                kind: QueryKind::EdgeEdge,
                a: 0,
                b: 3
            })
        );
    }

    #[test]
    fn lower_bound_compared_exactly() {
        assert!(at_or_before(0.5, 512, 1024));
        assert!(!at_or_before(0.5f64.next_up(), 512, 1024));
        assert!(at_or_before(1.0 / 3.0, 1, 3));
        assert!(!at_or_before((1.0f64 / 3.0).next_up(), 1, 3));
        assert!(at_or_before(0.0, 0, 1024));
        assert!(!at_or_before(f64::INFINITY, 1024, 1024));
    }
}
