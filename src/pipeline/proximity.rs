//! The pairs of a mesh's features within a distance `d` of each other at
//! one instant (docs/design.md §5, "Proximity"): the set that a barrier
//! method keeps active, decided exactly (the IPC Toolkit builds its
//! collisions within `dhat` from such pairs, merging those whose closest
//! points are one vertex–edge or vertex–vertex pair; these are not merged).
//!
//! It is the step that does not move (`x` at `t = 0` and at `t = 1`) at the
//! minimum separation `d` (Wan, Fu & Yao 2022's pipeline with the k-DOPs
//! grown by `d / 2`): a pair is reported when its features come within
//! Euclidean distance `d` during that step, that is, now. Every feature pair
//! at rest is decided at `t = 0` by the minimum-separation fast path's
//! at-rest certificates, and where they fail by the solver's exact path
//! ([`crate::narrow_phase::vertex_face_within`]; docs/design.md §5). At `d > 0` DNF runs with
//! its margin `d` (it removes most candidates when `d` is small against the
//! edges); the coplanar window, SLPF and time-aligned pruning, which cull
//! nothing more here, do not.

use std::sync::atomic::AtomicBool;

use super::step::Run;
use super::{
    Bodies, BodiesError, ContactPair, Pipeline, PipelineConfig, PipelineError, StepOutcome,
    StepReport,
};
use rayon::prelude::*;

use crate::filter::FilterSet;
use crate::math::Vec3;
use crate::mesh::{Step, TriMesh, check_frame};
use crate::narrow_phase::{
    SeparationError, point_triangle_distance, segment_segment_distance, validate_separation,
};

/// The pairs of a mesh's features within a distance of each other
/// ([`proximity`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Proximity {
    /// The step's report: its colliding counts (`vf`, `ee`, `points`) are
    /// the pairs' counts.
    pub report: StepReport,
    /// The pairs within `d`, as the colliding pairs of a step
    /// ([`super::StepOutcome::pairs`]: vertex–face, edge–edge, then the
    /// codimensional points'; each group ascending), every one at time 0;
    /// empty unless collected.
    pub pairs: Vec<ContactPair>,
}

impl Proximity {
    /// How many pairs are within `d`.
    pub fn count(&self) -> u64 {
        self.report.colliding()
    }

    /// The distance of each of [`Proximity::pairs`], in their order, at the
    /// positions `x` of `mesh` they were found at: what a barrier weighs
    /// them by. [`point_triangle_distance`] for a vertex–face pair,
    /// [`segment_segment_distance`] for the others (a codimensional point
    /// as a segment of length zero): in doubles, not certified, while the
    /// set of pairs is exact; at most `d` up to rounding.
    ///
    /// # Panics
    /// When a pair names a feature `mesh` does not have, or a vertex `x`
    /// does not have (another mesh or other positions than the pairs').
    pub fn distances(&self, mesh: &TriMesh, x: &[Vec3]) -> Vec<f64> {
        let at = |v: u32| &x[v as usize];
        let segments = |[a0, a1]: [u32; 2], [b0, b1]: [u32; 2]| {
            segment_segment_distance(at(a0), at(a1), at(b0), at(b1))
        };
        let edge = |e: u32| mesh.edges()[e as usize];
        (self.pairs.par_iter())
            .map(|p| {
                if let Some((v, f)) = p.vertex_face(mesh) {
                    let [a, b, c] = mesh.faces()[f as usize];
                    point_triangle_distance(at(v), at(a), at(b), at(c))
                } else if let Some((a, b)) = p.edge_edge(mesh) {
                    segments(edge(a), edge(b))
                } else if let Some((v, e)) = p.vertex_edge(mesh) {
                    segments([v, v], edge(e))
                } else if let Some((v, w)) = p.vertex_vertex(mesh) {
                    segments([v, v], [w, w])
                } else {
                    panic!("pair ({}, {}) is no pair of the mesh", p.a, p.b)
                }
            })
            .collect()
    }
}

/// What [`proximity_with`] does beyond [`proximity`].
#[derive(Debug, Clone, PartialEq)]
pub struct ProximityOptions {
    /// Keep the pairs, not only their counts.
    pub collect_pairs: bool,
    /// Which pairs are tested ([`PipelineConfig::bodies`]): those of a
    /// simulation's CCD steps, so that its barrier and its steps see the
    /// same pairs. [`Bodies::StillObstacle`], decided by motion, is refused
    /// ([`BodiesError::NoMotion`]): give the obstacle as labels.
    pub bodies: Option<Bodies>,
}

impl Default for ProximityOptions {
    /// Every pair, collected.
    fn default() -> Self {
        ProximityOptions {
            collect_pairs: true,
            bodies: None,
        }
    }
}

/// The pairs of features of `mesh` at the positions `x` that are within
/// Euclidean distance `d` of each other (vertex–face, edge–edge, and the
/// codimensional points' pairs; features that share a vertex are never
/// paired), listed, on the current rayon pool. Exact for every double
/// input; the same for any thread count. `d = 0` gives the pairs that touch
/// ([`super::Intersections::touching`]). Each call builds a BVH; many calls
/// on one mesh may keep a pipeline that refits it instead
/// ([`PipelineConfig::proximity`]).
///
/// # Errors
/// [`PipelineError::Distance`] for a negative, infinite or NaN `d`;
/// [`PipelineError::Frames`] when `x` has another length than the mesh's
/// vertex count or a non-finite coordinate.
pub fn proximity(mesh: &TriMesh, x: &[Vec3], d: f64) -> Result<Proximity, PipelineError> {
    proximity_with(mesh, x, d, &ProximityOptions::default(), None)
}

/// [`proximity`] with `options`, giving up with
/// [`PipelineError::Cancelled`] once `cancel` is set.
///
/// # Errors
/// As [`proximity`]; [`PipelineError::Bodies`] when the bodies do not fit
/// the mesh or are [`Bodies::StillObstacle`]; [`PipelineError::Cancelled`].
pub fn proximity_with(
    mesh: &TriMesh,
    x: &[Vec3],
    d: f64,
    options: &ProximityOptions,
    cancel: Option<&AtomicBool>,
) -> Result<Proximity, PipelineError> {
    let config = PipelineConfig {
        collect_pairs: options.collect_pairs,
        bodies: options.bodies.clone(),
        ..PipelineConfig::proximity(d)?
    };
    if config.bodies == Some(Bodies::StillObstacle) {
        return Err(PipelineError::Bodies(BodiesError::NoMotion));
    }
    config.check()?;
    check_frame(mesh, x, "x")?;
    let still = Step {
        mesh,
        x_t0: x,
        x_t1: x,
    };
    let never = AtomicBool::new(false);
    let outcome = Pipeline::new(config).step_cancellable(&still, cancel.unwrap_or(&never))?;
    Ok(outcome.into())
}

impl Pipeline {
    /// The pairs within this pipeline's minimum separation
    /// ([`PipelineConfig::min_distance`]) of each other at the positions `x`
    /// of `mesh`: what [`proximity_with`] answers with the configuration's
    /// bodies (the same pairs in the same order), from the kept BVH,
    /// refitted — a barrier's active set asked at every iteration of a solve,
    /// on the pipeline that also gives the steps. It is the step from `x` to
    /// `x` with every pair collected and decided by the exact solver, whatever
    /// [`PipelineConfig::collect_pairs`] and [`PipelineConfig::solver`] say
    /// (the cubic solver misses pairs that touch at rest); the configuration
    /// is unchanged after it. A tree it builds under
    /// [`TimeAligned::Auto`](super::TimeAligned::Auto) saw no motion, so the
    /// next [`Pipeline::step`] builds anew and chooses from its own motion.
    ///
    /// # Errors
    /// As [`Pipeline::step`] on `Step::new(mesh, x, x)`; [`PipelineError::Bodies`]
    /// with [`BodiesError::NoMotion`] for [`Bodies::StillObstacle`] (at one
    /// instant nothing moves).
    pub fn proximity(&mut self, mesh: &TriMesh, x: &[Vec3]) -> Result<Proximity, PipelineError> {
        self.proximity_at_rest(mesh, x, None)
    }

    /// [`Pipeline::proximity`], given up when `cancel` is set, as
    /// [`Pipeline::step_cancellable`].
    pub fn proximity_cancellable(
        &mut self,
        mesh: &TriMesh,
        x: &[Vec3],
        cancel: &AtomicBool,
    ) -> Result<Proximity, PipelineError> {
        self.proximity_at_rest(mesh, x, Some(cancel))
    }

    fn proximity_at_rest(
        &mut self,
        mesh: &TriMesh,
        x: &[Vec3],
        cancel: Option<&AtomicBool>,
    ) -> Result<Proximity, PipelineError> {
        if self.config().bodies == Some(Bodies::StillObstacle) {
            return Err(PipelineError::Bodies(BodiesError::NoMotion));
        }
        check_frame(mesh, x, "x")?;
        let still = Step {
            mesh,
            x_t0: x,
            x_t1: x,
        };
        Ok(self.run(&still, cancel, Run::AtRest)?.0.into())
    }
}

impl PipelineConfig {
    /// The configuration [`proximity`] steps with at distance `d`, the pairs
    /// collected: for a simulator that asks for the pairs within `d` at many
    /// positions of one mesh (every iteration of a solve, say). A
    /// [`Pipeline`] kept with it refits its BVH from call to call, where
    /// [`proximity`] builds one each time: [`Pipeline::proximity`] gives the
    /// [`Proximity`] at positions `x`. [`PipelineConfig::bodies`] may be set
    /// on it as [`ProximityOptions`] would ([`PipelineConfig::collect_pairs`]
    /// too, for steps from `x` to `x`; [`Pipeline::proximity`] collects the
    /// pairs whatever it says).
    ///
    /// # Errors
    /// [`DistanceError`] for a negative, infinite or NaN `d`.
    pub fn proximity(d: f64) -> Result<PipelineConfig, DistanceError> {
        let d = proximity_distance(d)?;
        // The stages that pay at separation `d` on a step at rest (module
        // doc): DNF alone at `d > 0`; at `d = 0` the default pipeline, as
        // for `intersections`.
        let stages = if d > 0.0 {
            PipelineConfig {
                filters: FilterSet::Dnf,
                window: false,
                ..PipelineConfig::default()
            }
        } else {
            PipelineConfig::default()
        };
        Ok(PipelineConfig {
            collect_pairs: true,
            min_distance: d,
            ..stages
        })
    }
}

impl From<StepOutcome> for Proximity {
    /// The pairs of a step at rest (`x` at both ends).
    fn from(outcome: StepOutcome) -> Proximity {
        Proximity {
            report: outcome.report,
            pairs: outcome.pairs,
        }
    }
}

/// Why a distance is no distance ([`proximity_distance`]).
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum DistanceError {
    /// Below zero (−0.0 is zero).
    #[error("{0:?} is negative; a distance is at least 0")]
    Negative(f64),
    /// NaN or infinite.
    #[error("{0:?} is not a finite distance")]
    NotFinite(f64),
}

/// `d` when it is a finite double `≥ 0` (what [`proximity`] accepts: the
/// minimum separation's rule, [`crate::narrow_phase::validate_separation`],
/// in a caller's words for a distance).
pub fn proximity_distance(d: f64) -> Result<f64, DistanceError> {
    match validate_separation(d) {
        Ok(d) => Ok(d),
        Err(SeparationError::Negative(d)) => Err(DistanceError::Negative(d)),
        Err(_) => Err(DistanceError::NotFinite(d)),
    }
}
