//! The report's figures (plotters), each drawn twice from the same code: PNG
//! (bitmap backend) and SVG. Text needs a font ([`crate::harness::figure`]);
//! without one the figures are drawn without any text.
//!
//! - `culling_rates`: Tables 1–2 as bars, the paper's beside ours;
//! - `k_test`: Fig. 6, candidates and broad-phase time per k, parry's AABB
//!   BVH as a dashed line;
//! - `stage_times`: stage times of our whole step (1 and 2 threads), the
//!   ipctk peer, and the broad phases (ours 6-/26-DOP, parry);
//! - `sequence` (only with a replay of more than one step): culling rate per
//!   step and filter setting.

mod culling_rates;
mod drawing;
mod k_test;
mod sequence;
mod stage_times;

pub(super) use culling_rates::CullingFigure;
pub(super) use drawing::{FIGURE_STEMS, Figure, sig3, write_figure};
pub(super) use k_test::KTestFigure;
pub(super) use sequence::SequenceFigure;
pub(super) use stage_times::StageFigure;
