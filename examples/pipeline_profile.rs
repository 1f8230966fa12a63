//! Runs one part of the pipeline on one frame step, `--runs N` times in this
//! process, and prints the fastest wall time: for A/B comparisons of two
//! builds on a shared machine (the best of many runs is the least disturbed
//! one), and, with `--runs 1` under
//! `valgrind --tool=callgrind` or `--tool=cachegrind --cache-sim=yes`, for
//! instruction and cache-miss counts, which a shared machine does not
//! disturb at all (run it with `--runs 1` and `--runs 3` and take half the
//! difference to cancel reading the frames).
//!
//! Usage: `pipeline_profile build|refit|traverse|step FRAME0 FRAME1 [--runs N] [--time-aligned] [--k K]`
//!
//! - `build`: a new BVH (k = 26, or `--k`) of the step, built over the last run's
//!   tree (as `ccdlab step --rebuild` does; the first run's is fresh);
//! - `refit`: a BVH built once, refitted to the step;
//! - `traverse`: the self traversal of a BVH built once, candidates
//!   discarded (no filters); prints the broad-phase counters;
//! - `step`: a whole step with the default configuration, the BVH built
//!   anew every run (over the last run's, as `ccdlab step --rebuild`);
//!   prints the stage times of the fastest run.
//!
//! With `--time-aligned`, the BVH is built with time-aligned pruning
//! (`PipelineConfig::time_aligned`). `--k K` picks the k-DOP (as
//! `ccdlab step --k`; default 26) for every part.
//!
//! Threads: `RAYON_NUM_THREADS` (a pool of that size; the runs execute on one
//! of its workers, as `ccdlab step` does).

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use ccdlab::bounding_volume::KdopAxes;
use ccdlab::broad_phase::{BroadPhaseStats, Bvh, CandidateSink, EePair, VfPair};
use ccdlab::mesh::{Step, read_step};
use ccdlab::pipeline::{Pipeline, PipelineConfig, StepReport, TimeAligned};

/// Discards candidates.
struct Discard;

impl CandidateSink for Discard {
    fn vertex_face(&mut self, _: &[VfPair]) {}
    fn edge_edge(&mut self, _: &[EePair]) {}
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: pipeline_profile build|refit|traverse|step FRAME0 FRAME1 \
                 [--runs N] [--time-aligned] [--k K]";
    let (what, f0, f1) = match &args[..] {
        [w, a, b, ..] if ["build", "refit", "traverse", "step"].contains(&w.as_str()) => (w, a, b),
        _ => {
            eprintln!("{usage}");
            return ExitCode::FAILURE;
        }
    };
    let (mut runs, mut time_aligned) = (1, false);
    let mut axes = KdopAxes::Dop26;
    let mut rest = &args[3..];
    while !rest.is_empty() {
        rest = match rest {
            [flag, tail @ ..] if flag == "--time-aligned" => {
                time_aligned = true;
                tail
            }
            [flag, k, tail @ ..] if flag == "--k" => match k.parse::<KdopAxes>() {
                Ok(a) => {
                    axes = a;
                    tail
                }
                Err(e) => {
                    eprintln!("--k: {e}");
                    return ExitCode::FAILURE;
                }
            },
            [flag, n, tail @ ..] if flag == "--runs" => match n.parse::<usize>() {
                Ok(n) if n > 0 => {
                    runs = n;
                    tail
                }
                _ => {
                    eprintln!("--runs needs a positive integer, got {n:?}");
                    return ExitCode::FAILURE;
                }
            },
            _ => {
                eprintln!("{usage}");
                return ExitCode::FAILURE;
            }
        };
    }
    let (mesh, x_t0, x_t1) = match read_step(f0.as_ref(), f1.as_ref()) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let step = match Step::new(&mesh, &x_t0, &x_t1) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    // Run on a worker of a pool, as `ccdlab step` does (`install`): from
    // outside, every parallel call would wake a worker and wait for it.
    let pool = match rayon::ThreadPoolBuilder::new().build() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    pool.install(|| run(what, &step, runs, time_aligned, axes))
}

/// The timed runs (module doc).
fn run(what: &str, step: &Step<'_>, runs: usize, time_aligned: bool, axes: KdopAxes) -> ExitCode {
    let config = PipelineConfig {
        time_aligned: if time_aligned {
            TimeAligned::On
        } else {
            TimeAligned::Off
        },
        axes,
        ..PipelineConfig::default()
    };
    let build = || Bvh::build_time_aligned(step, config.axes, time_aligned);
    let mut bvh = ["refit", "traverse"].contains(&what).then(build);
    let mut pipeline = Pipeline::new(config.clone());
    let mut best = f64::INFINITY;
    let mut stats: Option<BroadPhaseStats> = None;
    let mut report: Option<StepReport> = None;
    for _ in 0..runs {
        pipeline.rebuild_next();
        let t = Instant::now();
        match (what, &mut bvh) {
            ("build", Some(bvh)) => std::hint::black_box(bvh).rebuild(step),
            ("build", None) => bvh = Some(std::hint::black_box(build())),
            ("refit", Some(bvh)) => {
                if let Err(e) = std::hint::black_box(bvh).refit(step) {
                    eprintln!("{e}");
                    return ExitCode::FAILURE;
                }
            }
            ("traverse", Some(bvh)) => stats = Some(bvh.self_candidates_par(|| Discard).1),
            _ => match pipeline.step(step) {
                Ok(o) => {
                    let ms = t.elapsed().as_secs_f64() * 1e3;
                    if ms < best {
                        report = Some(o.report);
                    }
                }
                Err(e) => {
                    eprintln!("{e}");
                    return ExitCode::FAILURE;
                }
            },
        }
        best = best.min(t.elapsed().as_secs_f64() * 1e3);
    }
    let mut text = format!(
        "{what} ({axes}): fastest of {runs} runs {best:.3} ms ({} threads)\n",
        rayon::current_num_threads()
    );
    if let Some(s) = stats {
        text += &format!("{s:?}\n");
    }
    if let Some(r) = report {
        let t = &r.time_ms;
        text += &format!(
            "stages ms: {} {:.2}, traverse {:.2}, filter {:.2}, solve {:.2}, total {:.2}\n",
            r.bvh, t.bvh, t.traverse, t.filter, t.solve, t.total
        );
    }
    // A reader that stops early (`| head -1`) is not an error.
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    ExitCode::SUCCESS
}
