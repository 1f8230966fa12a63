//! The pipeline at a minimum separation against the plain exact sampler
//! (`harness::separation_sampler`) on funnel 227→228: every candidate pair
//! within d at a sample t = k/1024, decided exactly, is reported, with a
//! lower bound of its time no later than that sample. The candidates are
//! the brute-force ones for 26-DOPs grown by d/2 (not the BVH's), all of
//! them.

use ccdlab::bounding_volume::KdopAxes;
use ccdlab::broad_phase::brute_force_candidates_within;
use ccdlab::harness::data::require_root;
use ccdlab::harness::separation_sampler::{check_reported, sample_candidates};
use ccdlab::mesh::{Step, read_step};
use ccdlab::pipeline::{Pipeline, PipelineConfig};

/// Funnel 227's mean edge length.
const FUNNEL_L: f64 = 0.019109353562922374;

/// (d / L, sampled VF, sampled EE, of them first within d after t = 0).
const CASES: [(f64, u64, u64, u64); 2] = [(1e-6, 33, 121, 154), (1e-3, 116, 341, 1)];

#[test]
fn funnel_pipeline_reports_every_pair_the_sampler_finds() {
    let root = require_root().unwrap_or_else(|e| panic!("{e}"));
    let frames = root.join("scalable-ccd/cloth-funnel/frames");
    let (mesh, x_t0, x_t1) =
        read_step(&frames.join("227.ply"), &frames.join("228.ply")).expect("frames");
    let step = Step::new(&mesh, &x_t0, &x_t1).expect("step");
    for (ratio, vf, ee, later) in CASES {
        let d = ratio * FUNNEL_L;
        let config = PipelineConfig {
            collect_pairs: true,
            min_distance: d,
            ..PipelineConfig::default()
        };
        let outcome = Pipeline::new(config).step(&step).expect("pipeline");
        let (candidates, _) = brute_force_candidates_within(&step, KdopAxes::Dop26, d);
        let sampled = sample_candidates(&step, d, 1024, &candidates).expect("sampler");
        let check = check_reported(&step, &sampled, &outcome.pairs).expect("check");
        assert!(
            check.misses.is_empty(),
            "d = {ratio}·L: {} sampled pairs missing or late: {:?}",
            check.misses.len(),
            &check.misses[..check.misses.len().min(10)]
        );
        assert_eq!(sampled.counts(), (vf, ee), "d = {ratio}·L");
        let after_zero = sampled.pairs.iter().filter(|p| p.first_sample > 0).count() as u64;
        assert_eq!(after_zero, later, "d = {ratio}·L");
        assert_eq!(check.sampled, vf + ee);
        assert!(check.reported >= check.sampled);
    }
}
