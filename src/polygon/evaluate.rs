//! Judging the three methods against the oracles: verdict agreement with the
//! exact [`super::reference`], a class for every disagreement, and the
//! quality of the translation vectors against [`super::penetration`].
//!
//! Tolerances (all relative to the coordinate scale `s` = largest absolute
//! coordinate of the pair):
//! - [`sat_verdict_tolerance`] `= γ₆₄·s`: a SAT verdict is decided by a
//!   difference of two dot products with a normalised axis, each a handful of
//!   roundings on values `≤ s`; a disagreement with the exact reference
//!   whose Euclidean clearance (disjoint pairs) or penetration depth
//!   (overlapping pairs) is within this is rounding, class
//!   [`VerdictClass::NearTouching`].
//! - [`gjk_verdict_tolerance`] `= √(10ε)·s`: parry's GJK stops when its
//!   bounds agree to `eps_rel = √(eps_tol)`, `eps_tol = 10ε`
//!   (`parry2d_f64::query::gjk::eps_tol`), so touching is decided only to
//!   that relative accuracy.
//! - [`translation_tolerance`] `= 2²³u·s = 2⁻³⁰·s`: when judging a translation
//!   `t`, the shifted polygon is moved a further `±tol` along `t` before the
//!   exact test (a vector that is right up to rounding is accepted; one that
//!   is wrong by more than ~10⁻⁹ of the scale is not), and `|t|` counts as
//!   minimal when within `tol` of the oracle's.
//!
//! docs/design.md §3, "2D polygons in the crate".

use crate::enum_with_all::enum_with_all;
use crate::math::{Real, UNIT_ROUNDOFF, gamma};

use super::decompose::{ConvexDecomposition, DecomposeError, DecompositionKind};
use super::gjk_epa_decomposed::{self, ParryPieceError, ParryPieces};
use super::penetration::{convex_hull, minimum_translation, minimum_translation_from};
use super::polygon::{Polygon, Vec2};
use super::reference::{Relation, polygons_intersect, relation, translated};
use super::resolution::Resolution;
use super::sat_decomposed;
use super::sat_nonconvex::{self, Step11Reading};

/// SAT verdict tolerance at scale `s` (module doc).
pub fn sat_verdict_tolerance(s: Real) -> Real {
    gamma(64) * s
}

/// GJK/EPA verdict tolerance at scale `s` (module doc).
pub fn gjk_verdict_tolerance(s: Real) -> Real {
    (10.0 * Real::EPSILON).sqrt() * s
}

/// Translation-judging tolerance at scale `s` (module doc).
pub fn translation_tolerance(s: Real) -> Real {
    (1u64 << 23) as Real * UNIT_ROUNDOFF * s
}

enum_with_all! {
    /// The resolution methods compared.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum Method {
        /// The paper's SAT without decomposing A (step 11 read as minimum overlap).
        Paper,
        /// The paper's SAT with step 11 taken literally (largest overlap).
        PaperLiteral,
        /// SAT over a convex decomposition of both polygons.
        SatDecomposed,
        /// parry2d GJK/EPA over a convex decomposition of both polygons.
        GjkEpaDecomposed,
    }
    /// All methods, in report order.
    const ALL;
}

impl Method {
    /// Short stable name (bench ids, CSV).
    pub fn name(self) -> &'static str {
        match self {
            Method::Paper => "sat_nonconvex",
            Method::PaperLiteral => "sat_nonconvex_literal",
            Method::SatDecomposed => "sat_decomposed",
            Method::GjkEpaDecomposed => "gjk_epa_decomposed",
        }
    }
}

/// A pair could not be prepared (unreachable for validated polygons).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum PrepareError {
    /// Decomposition failed.
    #[error("polygon {which}: {source}")]
    Decompose {
        /// "A" or "B".
        which: &'static str,
        /// The cause.
        source: DecomposeError,
    },
    /// parry refused a piece.
    #[error("polygon {which}: {source}")]
    Parry {
        /// "A" or "B".
        which: &'static str,
        /// The cause.
        source: ParryPieceError,
    },
}

/// Two polygons with everything each method needs precomputed (as a physics
/// engine would for rigid shapes): decompositions and parry shapes.
#[derive(Debug, Clone)]
pub struct PreparedPair {
    a: Polygon,
    b: Polygon,
    a_pieces: ConvexDecomposition,
    b_pieces: ConvexDecomposition,
    a_parry: ParryPieces,
    b_parry: ParryPieces,
}

impl PreparedPair {
    /// Decomposes both polygons (Hertel–Mehlhorn) and builds their parry
    /// shapes.
    pub fn new(a: Polygon, b: Polygon) -> Result<PreparedPair, PrepareError> {
        PreparedPair::with_kind(a, b, DecompositionKind::HertelMehlhorn)
    }

    /// Decomposes both polygons as `kind` says and builds their parry shapes.
    pub fn with_kind(
        a: Polygon,
        b: Polygon,
        kind: DecompositionKind,
    ) -> Result<PreparedPair, PrepareError> {
        let dec = |p: &Polygon, which| {
            ConvexDecomposition::with_kind(p, kind)
                .map_err(|source| PrepareError::Decompose { which, source })
        };
        let par = |d: &ConvexDecomposition, which| {
            ParryPieces::new(d).map_err(|source| PrepareError::Parry { which, source })
        };
        let a_pieces = dec(&a, "A")?;
        let b_pieces = dec(&b, "B")?;
        let a_parry = par(&a_pieces, "A")?;
        let b_parry = par(&b_pieces, "B")?;
        Ok(PreparedPair {
            a,
            b,
            a_pieces,
            b_pieces,
            a_parry,
            b_parry,
        })
    }

    /// The first polygon (the one that is shifted).
    pub fn a(&self) -> &Polygon {
        &self.a
    }

    /// The second polygon.
    pub fn b(&self) -> &Polygon {
        &self.b
    }

    /// Convex pieces of A.
    pub fn a_pieces(&self) -> &ConvexDecomposition {
        &self.a_pieces
    }

    /// Convex pieces of B.
    pub fn b_pieces(&self) -> &ConvexDecomposition {
        &self.b_pieces
    }

    /// Runs one method.
    #[inline]
    pub fn resolve(&self, method: Method) -> Resolution {
        match method {
            Method::Paper => {
                sat_nonconvex::resolve(&self.a, &self.b_pieces, Step11Reading::MinimumOverlap)
            }
            Method::PaperLiteral => {
                sat_nonconvex::resolve(&self.a, &self.b_pieces, Step11Reading::Literal)
            }
            Method::SatDecomposed => sat_decomposed::resolve(&self.a_pieces, &self.b_pieces),
            Method::GjkEpaDecomposed => gjk_epa_decomposed::resolve(&self.a_parry, &self.b_parry),
        }
    }

    /// The exact relation of A and B.
    pub fn relation(&self) -> Relation {
        relation(self.a.vertices(), self.b.vertices())
    }

    /// The oracle's minimum translation of A (slow).
    pub fn minimum_translation(&self) -> Vec2 {
        minimum_translation(&self.a_pieces, &self.b_pieces)
    }

    /// Largest absolute coordinate of the pair.
    pub fn scale(&self) -> Real {
        self.a
            .vertices()
            .iter()
            .chain(self.b.vertices())
            .fold(0.0, |s: Real, p| s.max(p.x.abs()).max(p.y.abs()))
    }
}

enum_with_all! {
    /// Why a method's verdict differs from the exact reference.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum VerdictClass {
        /// Same verdict as the reference.
        Agree,
        /// Within rounding of touching (clearance or depth ≤ the method's
        /// verdict tolerance).
        NearTouching,
        /// The paper's false negative: B nested inside non-convex A, no edge line
        /// of A through B (step 10).
        NestedMiss,
        /// The paper's false positive: B in a pocket of A (meets A's convex hull,
        /// not A).
        PocketFalseHit,
        /// The paper's false positive: B outside A's convex hull, but the only
        /// separating directions are normals of hull edges that are not edges of A.
        MissingAxisFalseHit,
        /// None of the above: a bug to investigate.
        Unexplained,
    }
    /// All classes, in report order.
    const ALL;
}

impl VerdictClass {
    /// Short stable name.
    pub fn name(self) -> &'static str {
        match self {
            VerdictClass::Agree => "agree",
            VerdictClass::NearTouching => "near_touching",
            VerdictClass::NestedMiss => "nested_miss",
            VerdictClass::PocketFalseHit => "pocket_false_hit",
            VerdictClass::MissingAxisFalseHit => "missing_axis_false_hit",
            VerdictClass::Unexplained => "unexplained",
        }
    }
}

/// Distance between two points sets' boundaries (floating point): the
/// smallest segment–segment distance.
pub fn boundary_distance(a: &[Vec2], b: &[Vec2]) -> Real {
    let (n, m) = (a.len(), b.len());
    let mut d = Real::INFINITY;
    for i in 0..n {
        let (p0, p1) = (a[i], a[(i + 1) % n]);
        for j in 0..m {
            let (q0, q1) = (b[j], b[(j + 1) % m]);
            d = d
                .min(point_segment_distance(p0, q0, q1))
                .min(point_segment_distance(p1, q0, q1))
                .min(point_segment_distance(q0, p0, p1))
                .min(point_segment_distance(q1, p0, p1));
        }
    }
    d
}

fn point_segment_distance(p: Vec2, a: Vec2, b: Vec2) -> Real {
    let e = b - a;
    let len2 = e.norm_squared();
    let t = if len2 > 0.0 {
        ((p - a).dot(&e) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (a + e * t - p).norm()
}

/// Classifies `method`'s verdict on `pair`, given the exact relation.
pub fn classify_verdict(
    pair: &PreparedPair,
    method: Method,
    verdict: bool,
    truth: Relation,
) -> VerdictClass {
    if verdict == truth.intersects() {
        return VerdictClass::Agree;
    }
    let s = pair.scale();
    let tol = match method {
        Method::GjkEpaDecomposed => gjk_verdict_tolerance(s),
        _ => sat_verdict_tolerance(s),
    };
    let (a, b) = (pair.a.vertices(), pair.b.vertices());
    let paper = matches!(method, Method::Paper | Method::PaperLiteral);
    if truth.intersects() {
        // A missed contact.
        if truth == Relation::BoundariesMeet && pair.minimum_translation().norm() <= tol {
            return VerdictClass::NearTouching;
        }
        if paper && !pair.a.is_convex() && truth == Relation::SecondInsideFirst {
            return VerdictClass::NestedMiss;
        }
        VerdictClass::Unexplained
    } else {
        // A reported contact that is not there.
        if boundary_distance(a, b) <= tol {
            return VerdictClass::NearTouching;
        }
        if paper && !pair.a.is_convex() {
            let hull = convex_hull(&mut a.to_vec());
            return if polygons_intersect(&hull, b) {
                VerdictClass::PocketFalseHit
            } else {
                VerdictClass::MissingAxisFalseHit
            };
        }
        VerdictClass::Unexplained
    }
}

/// How good a translation `t` of A is, judged exactly (up to
/// [`translation_tolerance`]) against the oracle's minimal one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TranslationCheck {
    /// `|t|`.
    pub length: Real,
    /// The oracle's minimum `|t*|`.
    pub minimal_length: Real,
    /// A shifted by `t` overlaps B by at most `tol`: a further shift of at
    /// most `tol` leaves their interiors apart. Checked first by shifting A
    /// `tol` further along `t` (the closed polygons then no longer meet),
    /// else by the oracle's depth at `t`: a non-convex pair can touch at the
    /// mouth of a notch, where going further along `t` enters again.
    pub separates: bool,
    /// A shifted by `t` (minus `tol` along `t`) still meets B: `t` stops at
    /// contact instead of overshooting.
    pub tight: bool,
    /// `separates` and `|t| ≤ |t*| + tol`.
    pub minimal: bool,
}

/// Judges translation `t` for `pair` given the oracle's `t_star`.
pub fn check_translation(pair: &PreparedPair, t: Vec2, t_star: Vec2) -> TranslationCheck {
    let tol = translation_tolerance(pair.scale());
    let length = t.norm();
    let dir = if length > 0.0 {
        t / length
    } else {
        Vec2::zeros()
    };
    let (a, b) = (pair.a.vertices(), pair.b.vertices());
    let separates = length > 0.0
        && (!polygons_intersect(&translated(a, t + dir * tol), b)
            || minimum_translation_from(&pair.a_pieces, &pair.b_pieces, t).norm() <= tol);
    let tight = length > 0.0 && polygons_intersect(&translated(a, t - dir * tol), b);
    let minimal_length = t_star.norm();
    TranslationCheck {
        length,
        minimal_length,
        separates,
        tight,
        minimal: separates && length <= minimal_length + tol,
    }
}

/// One method's result on one pair.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MethodResult {
    /// The method.
    pub method: Method,
    /// Its resolution.
    pub resolution: Resolution,
    /// Its verdict's class.
    pub class: VerdictClass,
    /// The translation check, for pairs whose interiors overlap (oracle
    /// `|t*| > 0`) that the method found intersecting, when the oracle ran.
    pub translation: Option<TranslationCheck>,
}

/// All methods on one pair.
#[derive(Debug, Clone, PartialEq)]
pub struct PairEvaluation {
    /// Exact relation.
    pub truth: Relation,
    /// The oracle's minimum translation, when it ran.
    pub minimal_translation: Option<Vec2>,
    /// Per method, in [`Method::ALL`] order.
    pub results: Vec<MethodResult>,
}

/// Runs every method on `pair`; with `with_oracle`, also the (slow)
/// minimum-translation oracle and the translation checks.
pub fn evaluate_pair(pair: &PreparedPair, with_oracle: bool) -> PairEvaluation {
    let truth = pair.relation();
    let t_star = (with_oracle && truth.intersects()).then(|| pair.minimum_translation());
    let results = Method::ALL
        .iter()
        .map(|&method| {
            let resolution = pair.resolve(method);
            let class = classify_verdict(pair, method, resolution.intersects, truth);
            let translation = match t_star {
                Some(ts) if ts.norm() > 0.0 && resolution.intersects => {
                    Some(check_translation(pair, resolution.translation, ts))
                }
                _ => None,
            };
            MethodResult {
                method,
                resolution,
                class,
                translation,
            }
        })
        .collect();
    PairEvaluation {
        truth,
        minimal_translation: t_star,
        results,
    }
}

/// Counts over many pairs for one method.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MethodTally {
    /// Pairs seen.
    pub pairs: usize,
    /// Pairs per verdict class, in [`VerdictClass::ALL`] order.
    pub classes: [usize; 6],
    /// Pairs whose translation was checked.
    pub checked: usize,
    /// … whose translation separates.
    pub separates: usize,
    /// … whose translation is tight (stops at contact).
    pub tight: usize,
    /// … whose translation is minimal.
    pub minimal: usize,
    /// Sum of `|t| / |t*|` over checked pairs.
    pub ratio_sum: Real,
    /// Largest `|t| / |t*|`.
    pub ratio_max: Real,
}

impl MethodTally {
    /// Adds one pair's result.
    pub fn add(&mut self, r: &MethodResult) {
        self.pairs += 1;
        let k = VerdictClass::ALL
            .iter()
            .position(|&c| c == r.class)
            .unwrap_or(VerdictClass::ALL.len() - 1);
        self.classes[k] += 1;
        if let Some(t) = r.translation {
            self.checked += 1;
            self.separates += t.separates as usize;
            self.tight += t.tight as usize;
            self.minimal += t.minimal as usize;
            let ratio = t.length / t.minimal_length;
            self.ratio_sum += ratio;
            self.ratio_max = self.ratio_max.max(ratio);
        }
    }

    /// Pairs in `class`.
    pub fn count(&self, class: VerdictClass) -> usize {
        VerdictClass::ALL
            .iter()
            .position(|&c| c == class)
            .map_or(0, |k| self.classes[k])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tolerances_are_ordered() {
        let s = 1.0;
        assert!(sat_verdict_tolerance(s) < gjk_verdict_tolerance(s));
        assert!(sat_verdict_tolerance(s) < translation_tolerance(s));
        assert!(translation_tolerance(s) < 1e-8);
    }
}
