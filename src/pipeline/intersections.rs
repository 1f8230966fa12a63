//! A mesh's static intersections at one instant (docs/design.md §11): the
//! check a simulation makes before trusting CCD, whose steps assume a start
//! without interpenetration (Wan, Fu & Yao 2022 and every CCD method
//! decide when features first meet, not whether they already cross).
//!
//! Two kinds of pairs, together every pair of features that share no
//! vertex and have a common point:
//! - **touching**: a vertex on a face, two edges meeting, or a
//!   codimensional point on an edge or another point — the colliding pairs
//!   of the step that does not move (`x` at `t = 0` and at `t = 1`), each at
//!   time 0, decided by the exact tests as in any step;
//! - **crossing**: an edge through a triangle's relative interior,
//!   transversally ([`segment_pierces_triangle`], exact), which no pair of
//!   the first kind sees. The candidates are
//!   [`fold_edge_face_candidates`]'s.
//!
//! A mesh is free of intersections when both lists are empty.

use rayon::prelude::*;

use super::{ContactPair, Pipeline, PipelineConfig, PipelineError};
use crate::broad_phase::fold_edge_face_candidates;
use crate::math::Vec3;
use crate::mesh::{Step, TriMesh};
use crate::narrow_phase::segment_pierces_triangle;

/// The static intersections of a mesh at one instant ([`intersections`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Intersections {
    /// Pairs that touch (distance 0), as the colliding pairs of a step
    /// ([`super::StepOutcome::pairs`]: vertex–face, edge–edge, then the
    /// codimensional points'; each kind ascending), every one at time 0.
    pub touching: Vec<ContactPair>,
    /// `[edge, face]`: an edge (index into [`TriMesh::edges`]) through the
    /// relative interior of a triangle (index into [`TriMesh::faces`]) that
    /// has none of its ends, ascending.
    pub crossing: Vec<[u32; 2]>,
}

impl Intersections {
    /// No pair touches and no edge crosses a triangle.
    pub fn is_empty(&self) -> bool {
        self.touching.is_empty() && self.crossing.is_empty()
    }
}

/// The pairs of features of `mesh` at the positions `x` that share no
/// vertex and have a common point, on the current rayon pool: those that
/// touch, and the edges that cross a triangle (module doc). Exact for
/// every double input; the same for any thread count.
///
/// # Errors
/// [`PipelineError::Frames`] when `x` has another length than the mesh's
/// vertex count or a non-finite coordinate.
pub fn intersections(mesh: &TriMesh, x: &[Vec3]) -> Result<Intersections, PipelineError> {
    let still = Step::new(mesh, x, x).map_err(PipelineError::Frames)?;
    let config = PipelineConfig {
        collect_pairs: true,
        ..PipelineConfig::default()
    };
    let touching = Pipeline::new(config).step(&still)?.pairs;
    let (edges, faces) = (mesh.edges(), mesh.faces());
    let mut crossing = fold_edge_face_candidates(
        mesh,
        x,
        |out: &mut Vec<[u32; 2]>, [e, f]| {
            let [p, q] = edges[e as usize].map(|v| &x[v as usize]);
            let corners = faces[f as usize].map(|v| &x[v as usize]);
            if segment_pierces_triangle(p, q, corners) {
                out.push([e, f]);
            }
        },
        |mut a, b| {
            a.extend(b);
            a
        },
    );
    crossing.par_sort_unstable();
    Ok(Intersections { touching, crossing })
}
