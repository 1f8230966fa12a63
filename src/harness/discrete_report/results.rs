//! The discrete report's results (`results.json`): the agreement
//! statistics, the scenes, the wheel path and the timings of one run.

use serde::Serialize;

use crate::harness::stamp::Stamp;

use super::statistics::{PairFamily, TerrainFamily};
use super::timing::TimingRow;

/// One scripted barrel scene: both detectors' answers and times.
#[derive(Debug, Serialize)]
pub(super) struct SceneRow {
    pub(super) name: String,
    pub(super) description: String,
    pub(super) outcome: String,
    pub(super) ours_points: usize,
    pub(super) ours_groups: usize,
    pub(super) ours_max_depth: f64,
    pub(super) ours_sources: Vec<String>,
    pub(super) parry_depth: Option<f64>,
    pub(super) parry_points: usize,
    pub(super) parry_manifolds: usize,
    pub(super) normal_angle_deepest: Option<f64>,
    pub(super) ours_us: f64,
    pub(super) parry_contact_us: f64,
    pub(super) parry_manifold_us: f64,
}

/// One frame of the wheel over the hill.
#[derive(Debug, Serialize)]
pub(super) struct WheelRow {
    pub(super) x: f64,
    pub(super) ours_points: usize,
    pub(super) ours_groups: usize,
    pub(super) ours_max_depth: f64,
    pub(super) parry_depth: Option<f64>,
    pub(super) parry_points: usize,
    /// Our manifold size with `normal_tolerance = 1 − cos 5°`.
    pub(super) ours_points_5deg: usize,
}

/// Everything measured: `results.json`, and what `summary.md` is written from.
#[derive(Debug, Serialize)]
pub(super) struct Results {
    pub(super) stamp: Stamp,
    pub(super) seed: u64,
    pub(super) sphere_sphere: PairFamily,
    pub(super) sphere_box: PairFamily,
    pub(super) cylinder_terrain: TerrainFamily,
    pub(super) scenes: Vec<SceneRow>,
    pub(super) wheel: Vec<WheelRow>,
    pub(super) timing: Vec<TimingRow>,
    pub(super) figures: Vec<String>,
    pub(super) figure_note: String,
}
