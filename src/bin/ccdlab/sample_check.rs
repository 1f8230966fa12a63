//! `ccdlab sample-check`: the pipeline at a minimum separation against a
//! plain exact sampler (`harness::separation_sampler`): every candidate
//! pair within d at a sample t = k/n must be reported, no later than that
//! sample. Exits with an error when one is not.

use std::error::Error;
use std::path::PathBuf;
use std::time::Instant;

use ccdlab::broad_phase::CandidateSet;
use ccdlab::filter::FilterSet;
use ccdlab::harness::separation_sampler::{
    DEFAULT_SAMPLES, MAX_SAMPLES, SampleOutcome, SamplerCheck, check_reported, sample_candidates,
};
use ccdlab::harness::stamp::Stamp;
use ccdlab::mesh::{Step, read_step};
use ccdlab::pipeline::{Pipeline, PipelineConfig, candidates};
use serde::Serialize;

use crate::pipeline_args::listing_error;

/// Arguments of `ccdlab sample-check`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The frame at t = 0 (PLY or OBJ).
    frame0: PathBuf,
    /// The frame at t = 1 (same topology).
    frame1: PathBuf,
    /// Minimum separation d ≥ 0.
    #[arg(long, allow_hyphen_values = true, value_parser = crate::pipeline_args::distance)]
    min_distance: f64,
    /// Sample intervals n: the samples are t = k/n, k = 0..=n.
    #[arg(long, default_value_t = DEFAULT_SAMPLES,
          value_parser = crate::limits::whole::<u32>(1, u64::from(MAX_SAMPLES)))]
    samples: u32,
    /// Worker threads, 1 to 1024 (default: RAYON_NUM_THREADS when set, else all logical CPUs).
    #[arg(long, value_parser = crate::limits::whole::<usize>(1, 1024))]
    threads: Option<usize>,
    /// Print one JSON object on stdout, and nothing else.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Output<'a> {
    frames: [String; 2],
    min_distance: f64,
    samples: u32,
    /// Candidates of the BVH grown by d/2 (the pipeline's broad phase).
    candidates: [u64; 2],
    /// Pairs within d at some sample (vertex–face, edge–edge).
    sampled: [u64; 2],
    /// Pair-samples decided exactly.
    exact_evaluations: u64,
    /// The pipeline's colliding pairs (vertex–face, edge–edge).
    reported: [u64; 2],
    check: &'a SamplerCheck,
    passed: bool,
    time_s: Times,
    stamp: Stamp,
}

#[derive(Serialize)]
struct Times {
    pipeline: f64,
    candidates: f64,
    sampler: f64,
}

/// Runs the command.
pub fn run(args: Args) -> Result<(), Box<dyn Error>> {
    let pool = crate::pipeline_args::thread_pool(args.threads)?;
    let (mesh, x_t0, x_t1) = read_step(&args.frame0, &args.frame1)?;
    let step = Step::new(&mesh, &x_t0, &x_t1)?;
    let d = args.min_distance;

    let t = Instant::now();
    let config = PipelineConfig {
        collect_pairs: true,
        min_distance: d,
        ..PipelineConfig::default()
    };
    let outcome = pool
        .install(|| Pipeline::new(config).step(&step))
        .map_err(|e| {
            listing_error(
                e,
                "`ccdlab step FRAME0 FRAME1 --min-distance D` counts them without listing",
            )
        })?;
    let pipeline_s = t.elapsed().as_secs_f64();

    let t = Instant::now();
    // Every pair the 26-DOP BVH grown by d / 2 finds, with no filter.
    let plain = PipelineConfig {
        filters: FilterSet::None,
        window: false,
        min_distance: d,
        ..PipelineConfig::default()
    };
    let found = pool.install(|| candidates(&step, &plain))?;
    let candidates = CandidateSet {
        vertex_face: found.vertex_face,
        edge_edge: found.edge_edge,
    };
    let candidates_s = t.elapsed().as_secs_f64();

    let t = Instant::now();
    let sampled: SampleOutcome =
        pool.install(|| sample_candidates(&step, d, args.samples, &candidates))?;
    let sampler_s = t.elapsed().as_secs_f64();
    let check = check_reported(&step, &sampled, &outcome.pairs)?;

    let r = &outcome.report;
    let out = Output {
        frames: [
            args.frame0.display().to_string(),
            args.frame1.display().to_string(),
        ],
        min_distance: d,
        samples: args.samples,
        candidates: sampled.candidates,
        sampled: sampled.counts().into(),
        exact_evaluations: sampled.exact_evaluations,
        reported: [r.vf.colliding, r.ee.colliding],
        check: &check,
        passed: check.passed(),
        time_s: Times {
            pipeline: pipeline_s,
            candidates: candidates_s,
            sampler: sampler_s,
        },
        stamp: Stamp::new(pool.current_num_threads()),
    };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        print_summary(&out);
    }
    if check.passed() {
        Ok(())
    } else {
        Err(format!(
            "{} pair(s) within d = {d:e} at a sample are missing from the pipeline's report or reported late",
            check.misses.len()
        )
        .into())
    }
}

fn print_summary(o: &Output<'_>) {
    println!(
        "{} -> {}: d = {:e}, samples t = k/{}",
        o.frames[0], o.frames[1], o.min_distance, o.samples
    );
    println!(
        "candidates (26-DOPs grown by d/2): VF {}, EE {}",
        o.candidates[0], o.candidates[1]
    );
    println!(
        "within d at a sample: VF {}, EE {} ({} pair-samples decided exactly)",
        o.sampled[0], o.sampled[1], o.exact_evaluations
    );
    println!(
        "reported by the pipeline: VF {}, EE {} ({} not within d at any sample)",
        o.reported[0], o.reported[1], o.check.reported_not_sampled
    );
    println!(
        "missing or late: {}{}",
        o.check.misses.len(),
        if o.passed { " (passed)" } else { " (FAILED)" }
    );
    for m in o.check.misses.iter().take(20) {
        println!(
            "  {:?} ({}, {}) first within d at sample {}, reported lower bound {:?}",
            m.pair.kind, m.pair.a, m.pair.b, m.pair.first_sample, m.reported_lower
        );
    }
    let t = &o.time_s;
    println!(
        "time s: pipeline {:.2}, candidates {:.2}, sampler {:.2}",
        t.pipeline, t.candidates, t.sampler
    );
}
