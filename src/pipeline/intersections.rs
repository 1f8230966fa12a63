//! A mesh's static intersections at one instant (docs/design.md §11): the
//! check a simulation makes before trusting CCD, whose steps assume a start
//! without interpenetration (Wan, Fu & Yao 2022 and every CCD method
//! decide when features first meet, not whether they already cross).
//!
//! Two kinds of pairs, which between them account for every common point
//! of a vertex–face, edge–edge or edge–face pair that shares no vertex (and
//! of the codimensional points' pairs):
//! - **touching**: a vertex on a face, two edges meeting, or a
//!   codimensional point on an edge or another point — the colliding pairs
//!   of the step that does not move (`x` at `t = 0` and at `t = 1`), each at
//!   time 0, decided by the exact tests as in any step;
//! - **crossing**: an edge through a triangle's relative interior,
//!   transversally ([`segment_pierces_triangle`], exact), which no pair of
//!   the first kind sees. The candidates are the edge–face pairs of the
//!   still step's BVH that share no vertex and whose k-DOPs overlap
//!   ([`Bvh::fold_edge_face_pairs`]).
//!
//! A mesh is free of intersections when both are empty. Not reported, as
//! no step of CCD sees them either: a vertex on an edge, or on a vertex,
//! that it shares no vertex with while each of its own edges and faces
//! shares one with it (a rod folded back onto itself, a zero-length edge).
//! Two faces that share no vertex and meet have a common point on an edge
//! of one of them, so face pairs add nothing.
//!
//! [`Bvh::fold_edge_face_pairs`]: crate::broad_phase::Bvh::fold_edge_face_pairs

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;

use super::step::Run;
use super::{ContactPair, Pipeline, PipelineConfig, PipelineError, StepReport};
use crate::math::Vec3;
use crate::mesh::{Step, TriMesh, check_frame};
use crate::narrow_phase::segment_pierces_triangle;

/// The static intersections of a mesh at one instant ([`intersections`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Intersections {
    /// The still step's report: its colliding counts (`vf`, `ee`, `points`)
    /// are the touching pairs'.
    pub report: StepReport,
    /// How many edges cross a triangle.
    pub crossing_count: u64,
    /// Pairs that touch (distance 0), as the colliding pairs of a step
    /// ([`super::StepOutcome::pairs`]: vertex–face, edge–edge, then the
    /// codimensional points'; each group ascending), every one at time 0;
    /// empty unless collected.
    pub touching: Vec<ContactPair>,
    /// `[edge, face]`: an edge (index into [`TriMesh::edges`]) through the
    /// relative interior of a triangle (index into [`TriMesh::faces`]) that
    /// has none of its ends, ascending; empty unless collected.
    pub crossing: Vec<[u32; 2]>,
}

impl Intersections {
    /// How many pairs touch.
    pub fn touching_count(&self) -> u64 {
        self.report.colliding()
    }

    /// No pair touches and no edge crosses a triangle.
    pub fn is_empty(&self) -> bool {
        self.touching_count() == 0 && self.crossing_count == 0
    }
}

/// The pairs of features of `mesh` at the positions `x` that touch (a
/// vertex on a face, two edges meeting, a codimensional point on an edge or
/// a point) or cross (an edge through a triangle's relative interior), of
/// those that share no vertex, listed, on the current rayon pool. Exact for every
/// double input; the same for any thread count. The lists are as long as
/// the answer: a mesh of many coincident vertices has quadratically many
/// touching pairs; [`intersections_with`] counts them without keeping any.
/// More than [`super::MAX_PAIRS`] pairs in all are refused
/// ([`PipelineError::TooManyPairs`]).
///
/// # Errors
/// [`PipelineError::Frames`] when `x` has another length than the mesh's
/// vertex count or a non-finite coordinate.
pub fn intersections(mesh: &TriMesh, x: &[Vec3]) -> Result<Intersections, PipelineError> {
    intersections_with(mesh, x, true, None)
}

/// [`intersections`], keeping the pairs only when `collect` (the counts
/// always), and giving up with [`PipelineError::Cancelled`] once `cancel`
/// is set.
///
/// # Errors
/// As [`intersections`], and [`PipelineError::Cancelled`].
pub fn intersections_with(
    mesh: &TriMesh,
    x: &[Vec3],
    collect: bool,
    cancel: Option<&AtomicBool>,
) -> Result<Intersections, PipelineError> {
    let what = if collect { Look::Pairs } else { Look::Counts };
    find(mesh, x, what, cancel, super::MAX_PAIRS)
}

/// Whether some pair of features of `mesh` at the positions `x` touches or
/// crosses ([`Intersections::is_empty`] negated), on the current rayon
/// pool: the touching pairs are looked for until one is found
/// ([`Pipeline::is_collision_free`] of the still step), and the edges
/// through triangles only when nothing touches, also until one is found.
/// Gives up with
/// [`PipelineError::Cancelled`] once `cancel` is set.
///
/// # Errors
/// As [`intersections_with`].
pub fn has_intersections(
    mesh: &TriMesh,
    x: &[Vec3],
    cancel: Option<&AtomicBool>,
) -> Result<bool, PipelineError> {
    Ok(!find(mesh, x, Look::Any, cancel, super::MAX_PAIRS)?.is_empty())
}

/// What [`find`] looks for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Look {
    /// Every pair, listed.
    Pairs,
    /// Every pair, counted.
    Counts,
    /// Whether there is one: the touching pairs, then the crossings only
    /// when nothing touches, each counted up to the first (a task may count
    /// a few more before it sees the others stop).
    Any,
}

/// The pairs `look` asks for; at most `max_pairs` of them listed.
fn find(
    mesh: &TriMesh,
    x: &[Vec3],
    look: Look,
    cancel: Option<&AtomicBool>,
    max_pairs: u64,
) -> Result<Intersections, PipelineError> {
    check_frame(mesh, x, "x")?;
    let still = Step {
        mesh,
        x_t0: x,
        x_t1: x,
    };
    let collect = look == Look::Pairs;
    let config = PipelineConfig {
        collect_pairs: collect,
        max_pairs,
        ..PipelineConfig::default()
    };
    let never = AtomicBool::new(false);
    let cancel = cancel.unwrap_or(&never);
    let mut pipeline = Pipeline::new(config.clone());
    let run = match look {
        Look::Any => Run::FirstHit,
        Look::Pairs | Look::Counts => Run::Test,
    };
    let (outcome, _) = pipeline.run(&still, Some(cancel), run)?;
    let mut found = Intersections {
        report: outcome.report,
        crossing_count: 0,
        touching: outcome.pairs,
        crossing: Vec::new(),
    };
    if look == Look::Any && found.touching_count() > 0 {
        return Ok(found);
    }
    let (edges, faces) = (mesh.edges(), mesh.faces());
    let bvh = pipeline.bvh().expect("a step that succeeded built its BVH");
    let crossed = AtomicBool::new(false);
    // The crossings listed count against the same limit as the touching
    // pairs (`PipelineConfig::max_pairs`).
    let room = config.max_pairs - found.touching.len() as u64;
    let (kept, overflowed) = (AtomicU64::new(0), AtomicBool::new(false));
    let (count, crossing) = bvh.fold_edge_face_pairs(
        |out: &mut (u64, Vec<[u32; 2]>), [e, f]| {
            let [p, q] = edges[e as usize].map(|v| &x[v as usize]);
            let corners = faces[f as usize].map(|v| &x[v as usize]);
            if segment_pierces_triangle(p, q, corners) {
                out.0 += 1;
                if collect {
                    if kept.fetch_add(1, Ordering::Relaxed) < room {
                        out.1.push([e, f]);
                    } else {
                        overflowed.store(true, Ordering::Relaxed);
                    }
                }
                if look == Look::Any {
                    crossed.store(true, Ordering::Relaxed);
                }
            }
        },
        |(n, mut a), (m, b)| {
            a.extend(b);
            (n + m, a)
        },
        || {
            cancel.load(Ordering::Relaxed)
                || crossed.load(Ordering::Relaxed)
                || overflowed.load(Ordering::Relaxed)
        },
    );
    if cancel.load(Ordering::Relaxed) {
        return Err(PipelineError::Cancelled);
    }
    if overflowed.load(Ordering::Relaxed) {
        return Err(PipelineError::TooManyPairs {
            limit: config.max_pairs,
        });
    }
    found.crossing_count = count;
    found.crossing = crossing;
    found.crossing.par_sort_unstable();
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fan of `n` triangles around the z axis, and a vertical rod through
    /// all of them (not touching their edges): `n` crossings.
    fn fan_and_rod(n: u32) -> (TriMesh, Vec<Vec3>) {
        let mut x = vec![Vec3::new(0.1, 0.05, -1.0), Vec3::new(0.1, 0.05, 1.0)];
        let mut faces = Vec::new();
        for k in 0..n {
            let z = f64::from(k) / f64::from(n) - 0.5;
            let base = x.len() as u32;
            x.extend([
                Vec3::new(-1.0, -1.0, z),
                Vec3::new(2.0, -1.0, z),
                Vec3::new(-1.0, 2.0, z),
            ]);
            faces.push([base, base + 1, base + 2]);
        }
        let mesh = TriMesh::with_edges(x.len(), faces, &[[0, 1]]).unwrap();
        (mesh, x)
    }

    #[test]
    fn more_crossings_to_list_than_max_pairs_is_a_typed_error() {
        let (mesh, x) = fan_and_rod(5);
        let all = find(&mesh, &x, Look::Pairs, None, 5).unwrap();
        assert_eq!((all.crossing_count, all.crossing.len()), (5, 5));
        assert!(matches!(
            find(&mesh, &x, Look::Pairs, None, 4),
            Err(PipelineError::TooManyPairs { limit: 4 })
        ));
        // Counted, not listed: no limit.
        let counted = find(&mesh, &x, Look::Counts, None, 0).unwrap();
        assert_eq!(counted.crossing_count, 5);
    }

    /// The touching pairs and the crossings count against one limit: five
    /// crossings and one touching pair fit in 6, not in 5, though neither
    /// kind alone exceeds it.
    #[test]
    fn touching_pairs_and_crossings_share_max_pairs() {
        let (fan, mut x) = fan_and_rod(5);
        // Far above: a triangle with a point lying on it.
        let base = x.len() as u32;
        x.extend([
            Vec3::new(0.0, 0.0, 5.0),
            Vec3::new(1.0, 0.0, 5.0),
            Vec3::new(0.0, 1.0, 5.0),
            Vec3::new(0.25, 0.25, 5.0),
        ]);
        let mut faces = fan.faces().to_vec();
        faces.push([base, base + 1, base + 2]);
        let mesh = TriMesh::with_edges(x.len(), faces, &[[0, 1]]).unwrap();
        let all = find(&mesh, &x, Look::Pairs, None, 6).unwrap();
        assert_eq!((all.touching.len(), all.crossing.len()), (1, 5));
        assert!(matches!(
            find(&mesh, &x, Look::Pairs, None, 5),
            Err(PipelineError::TooManyPairs { limit: 5 })
        ));
    }
}
