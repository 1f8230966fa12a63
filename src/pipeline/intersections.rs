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
//!   the first kind sees. The candidates are
//!   [`fold_edge_face_candidates`]'s.
//!
//! A mesh is free of intersections when both are empty. Not reported, as
//! no step of CCD sees them either: a vertex on an edge, or on a vertex,
//! that it shares no vertex with while each of its own edges and faces
//! shares one with it (a rod folded back onto itself, a zero-length edge).
//! Two faces that share no vertex and meet have a common point on an edge
//! of one of them, so face pairs add nothing.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use super::{ContactPair, Pipeline, PipelineConfig, PipelineError, StepReport};
use crate::broad_phase::fold_edge_face_candidates;
use crate::math::Vec3;
use crate::mesh::{Step, TriMesh};
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
        let points = self
            .report
            .points
            .map_or(0, |p| p.vertex_edge.colliding + p.vertex_vertex.colliding);
        self.report.vf.colliding + self.report.ee.colliding + points
    }

    /// No pair touches and no edge crosses a triangle.
    pub fn is_empty(&self) -> bool {
        self.touching_count() == 0 && self.crossing_count == 0
    }
}

/// The pairs of features of `mesh` at the positions `x` that touch or
/// cross (module doc), listed, on the current rayon pool. Exact for every
/// double input; the same for any thread count. The lists are as long as
/// the answer: a mesh of many coincident vertices has quadratically many
/// touching pairs; [`intersections_with`] counts them without keeping any.
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
    let still = Step::new(mesh, x, x).map_err(PipelineError::Frames)?;
    let config = PipelineConfig {
        collect_pairs: collect,
        ..PipelineConfig::default()
    };
    let never = AtomicBool::new(false);
    let cancel = cancel.unwrap_or(&never);
    let outcome = Pipeline::new(config).step_cancellable(&still, cancel)?;
    let (edges, faces) = (mesh.edges(), mesh.faces());
    let (crossing_count, mut crossing) = fold_edge_face_candidates(
        mesh,
        x,
        |out: &mut (u64, Vec<[u32; 2]>), [e, f]| {
            if cancel.load(Ordering::Relaxed) {
                return;
            }
            let [p, q] = edges[e as usize].map(|v| &x[v as usize]);
            let corners = faces[f as usize].map(|v| &x[v as usize]);
            if segment_pierces_triangle(p, q, corners) {
                out.0 += 1;
                if collect {
                    out.1.push([e, f]);
                }
            }
        },
        |(n, mut a), (m, b)| {
            a.extend(b);
            (n + m, a)
        },
    );
    if cancel.load(Ordering::Relaxed) {
        return Err(PipelineError::Cancelled);
    }
    crossing.par_sort_unstable();
    Ok(Intersections {
        report: outcome.report,
        crossing_count,
        touching: outcome.pairs,
        crossing,
    })
}
