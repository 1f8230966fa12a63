//! `ccdlab step`: one frame step through the whole pipeline.

use std::error::Error;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use ccdlab::harness::memory::{MeasuredStep, peak_rss_mb};
use ccdlab::harness::output::{check_output, write_atomic_with};
use ccdlab::harness::stamp::Stamp;
use ccdlab::mesh::{Step, read_step};
use ccdlab::narrow_phase::Toi;
use ccdlab::pipeline::{ContactPair, Pipeline, PipelineConfig, StepOutcome};

use crate::pipeline_args::{PipelineArgs, listing_error};

/// Arguments of `ccdlab step`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The frame at t = 0 (PLY or OBJ).
    frame0: PathBuf,
    /// The frame at t = 1 (same topology).
    frame1: PathBuf,
    #[command(flatten)]
    pipeline: PipelineArgs,
    /// Write every colliding pair (global IDs, time of impact) to this CSV.
    #[arg(long, conflicts_with_all = ["any", "toi_only"])]
    pairs: Option<PathBuf>,
    /// Answer only whether any pair collides (or comes within
    /// `--min-distance`), stopping at the first colliding pair found: no
    /// counts and no time of impact (the IPC Toolkit's
    /// `is_step_collision_free`). A step that collides ends early, one that
    /// does not costs what a step costs. The JSON has `collision_free`, the
    /// options asked for and the total time; the exit status is 0 either
    /// way.
    #[arg(long, conflicts_with = "toi_only")]
    any: bool,
    /// Look only for the earliest time of impact (the IPC Toolkit's
    /// `compute_collision_free_stepsize`): once a bracket is found, the
    /// pairs that stay apart until past it are skipped. No counts; the
    /// bracket is the step's or one inside it. The JSON has `toi`,
    /// `toi_upper`, the options asked for and the total time.
    #[arg(long)]
    toi_only: bool,
    /// Print one JSON object on stdout, and nothing else (with `frames`, the
    /// two frames' paths as given, and a `stamp`: machine, threads, commit
    /// and date).
    #[arg(long)]
    json: bool,
    /// Run the step this many times in this process and report the fastest
    /// run (by total time); counts, pairs and time of impact are the same in
    /// every run. Runs after the first refit the BVH built by the first, as
    /// the steps of a sequence do (the report's `bvh` says which; `--any`
    /// and `--toi-only` have no report), unless `--rebuild`. The JSON adds
    /// `runs` and `runs_total_ms` (every run's total).
    #[arg(long, default_value_t = 1, value_parser = crate::limits::whole::<u32>(1, 1000))]
    repeat: u32,
    /// With `--repeat`: build a fresh BVH in every run (over the previous
    /// run's memory, as a simulation that rebuilds would).
    #[arg(long, requires = "repeat")]
    rebuild: bool,
}

/// Runs the command.
pub fn run(args: Args) -> Result<(), Box<dyn Error>> {
    if let Some(path) = &args.pairs {
        check_output(path, &[&args.frame0, &args.frame1])
            .map_err(|e| format!("--pairs {}: {e}", path.display()))?;
    }
    let config = args.pipeline.config(args.pairs.is_some())?;
    let pool = args.pipeline.thread_pool()?;
    let (mesh, x_t0, x_t1) = read_step(&args.frame0, &args.frame1)?;
    let step = Step::new(&mesh, &x_t0, &x_t1)?;
    if args.any || args.toi_only {
        return run_question(&args, config, &pool, &step);
    }
    let mut pipeline = Pipeline::new(config.clone());
    let mut best: Option<StepOutcome> = None;
    let mut totals = Vec::with_capacity(args.repeat as usize);
    for _ in 0..args.repeat {
        if args.rebuild {
            pipeline.rebuild_next();
        }
        let outcome = pool
            .install(|| pipeline.step(&step))
            .map_err(|e| listing_error(e, "without --pairs, `ccdlab step` counts them"))?;
        totals.push(outcome.report.time_ms.total);
        if best
            .as_ref()
            .is_none_or(|b| outcome.report.time_ms.total < b.report.time_ms.total)
        {
            best = Some(outcome);
        }
    }
    let outcome = best.expect("at least one run");
    let measured = MeasuredStep::now(outcome.report.clone());
    if let Some(path) = &args.pairs {
        write_pairs(path, &outcome.pairs)?;
    }
    if args.json {
        let mut json = serde_json::to_value(&measured)?;
        // The step's frames as given (as `sample-check --json` names them).
        json["frames"] = [&args.frame0, &args.frame1]
            .map(|f| f.to_string_lossy().into_owned())
            .into();
        if args.repeat > 1 {
            json["runs"] = args.repeat.into();
            json["runs_total_ms"] = totals.into();
        }
        json["stamp"] = serde_json::to_value(Stamp::new(pool.current_num_threads()))?;
        println!("{}", serde_json::to_string_pretty(&json)?);
    } else {
        print_summary(&args, &measured);
        if args.repeat > 1 {
            let list: Vec<String> = totals.iter().map(|t| format!("{t:.2}")).collect();
            println!(
                "fastest of {} runs (total ms: {})",
                args.repeat,
                list.join(", ")
            );
        }
    }
    Ok(())
}

/// What `--any` and `--toi-only` answer.
enum Answer {
    CollisionFree(bool),
    Toi(Option<Toi>),
}

/// `--any` (whether the step is collision-free) or `--toi-only` (its
/// earliest time of impact alone), the fastest of `--repeat` runs.
fn run_question(
    args: &Args,
    config: PipelineConfig,
    pool: &rayon::ThreadPool,
    step: &Step<'_>,
) -> Result<(), Box<dyn Error>> {
    let mut pipeline = Pipeline::new(config);
    let mut totals = Vec::with_capacity(args.repeat as usize);
    let mut answer = Answer::CollisionFree(true);
    for _ in 0..args.repeat {
        if args.rebuild {
            pipeline.rebuild_next();
        }
        let start = Instant::now();
        answer = match args.any {
            true => Answer::CollisionFree(pool.install(|| pipeline.is_collision_free(step, None))?),
            false => Answer::Toi(pool.install(|| pipeline.earliest_toi(step, None))?),
        };
        totals.push(start.elapsed().as_secs_f64() * 1e3);
    }
    let best = totals.iter().copied().fold(f64::INFINITY, f64::min);
    let (mesh, d) = (step.mesh(), pipeline.config().min_distance);
    if args.json {
        let frames = [&args.frame0, &args.frame1].map(|f| f.to_string_lossy().into_owned());
        let mut json = serde_json::json!({
            "vertices": mesh.num_vertices(),
            "edges": mesh.num_edges(),
            "faces": mesh.num_faces(),
            "solver": pipeline.config().solver,
            "threads": pool.current_num_threads(),
            "time_ms": { "total": best },
            "peak_rss_mb": peak_rss_mb(),
            "frames": frames,
        });
        // What was asked for (these steps return no report saying what ran).
        let p = &args.pipeline;
        json["options"] = serde_json::json!({
            "k": p.k.k(),
            "filters": p.filters.name(),
            "window": arg_name(p.window),
            "time_aligned": arg_name(p.time_aligned),
            "self_collision": arg_name(p.self_collision),
        });
        match answer {
            Answer::CollisionFree(free) => json["collision_free"] = free.into(),
            Answer::Toi(toi) => {
                json["toi"] = toi.map(|t| t.lower).into();
                json["toi_upper"] = toi.map(|t| t.upper).into();
            }
        }
        // As in a step's report: absent at contact.
        if d > 0.0 {
            json["min_distance"] = d.into();
        }
        if args.repeat > 1 {
            json["runs"] = args.repeat.into();
            json["runs_total_ms"] = totals.into();
        }
        json["stamp"] = serde_json::to_value(Stamp::new(pool.current_num_threads()))?;
        println!("{}", serde_json::to_string_pretty(&json)?);
        return Ok(());
    }
    println!(
        "{} -> {}: {} V, {} E, {} F; {} threads",
        args.frame0.display(),
        args.frame1.display(),
        mesh.num_vertices(),
        mesh.num_edges(),
        mesh.num_faces(),
        pool.current_num_threads()
    );
    if d > 0.0 {
        println!("{}", crate::counts_table::min_distance_line(d));
    }
    match answer {
        Answer::CollisionFree(true) => println!("collision-free: no pair collides in this step"),
        Answer::CollisionFree(false) => {
            println!("not collision-free: a pair collides (the search stopped at the first)")
        }
        Answer::Toi(Some(t)) => println!(
            "earliest time of impact: {:e} (bracket up to {:e})",
            t.lower, t.upper
        ),
        Answer::Toi(None) => println!("no collision in this step"),
    }
    match args.repeat {
        1 => println!("time ms: total {best:.2}"),
        n => println!("time ms: total {best:.2} (fastest of {n} runs)"),
    }
    Ok(())
}

/// A choice's name on the command line.
fn arg_name(choice: impl clap::ValueEnum) -> String {
    choice
        .to_possible_value()
        .map_or_else(String::new, |v| v.get_name().to_string())
}

/// Colliding pairs as CSV, written atomically.
fn write_pairs(path: &std::path::Path, pairs: &[ContactPair]) -> Result<(), Box<dyn Error>> {
    write_atomic_with(path, |w| {
        writeln!(w, "kind,id_a,id_b,toi_lower,toi_upper")?;
        for p in pairs {
            writeln!(
                w,
                "{},{},{},{:e},{:e}",
                p.kind.suffix(),
                p.a,
                p.b,
                p.toi_lower,
                p.toi_upper
            )?;
        }
        Ok(())
    })
    .map_err(|e| format!("{}: {e}", path.display()).into())
}

fn print_summary(args: &Args, m: &MeasuredStep) {
    let r = &m.report;
    println!(
        "{} -> {}: {} V, {} E, {} F; {}-DOP, {} solver, {} threads",
        args.frame0.display(),
        args.frame1.display(),
        r.vertices,
        r.edges,
        r.faces,
        r.k,
        r.solver,
        r.threads
    );
    println!(
        "ran: {}",
        crate::counts_table::setting(r.filters, r.time_aligned, r.window)
    );
    if r.min_distance > 0.0 {
        println!("{}", crate::counts_table::min_distance_line(r.min_distance));
    }
    if let Some(b) = &r.bodies {
        println!("{}", crate::counts_table::bodies_line(b));
    }
    crate::counts_table::print((&r.vf).into(), (&r.ee).into());
    if let Some(p) = &r.points {
        println!("{}", crate::counts_table::points_line(p));
    }
    let b = &r.bvh_tests;
    println!(
        "BVH: {} node tests, {} leaf pairs ({} pruned), {} feature tests",
        b.node_tests, b.leaf_pairs, b.leaf_pairs_pruned, b.feature_tests
    );
    match r.toi {
        Some(t) => println!(
            "earliest time of impact: {t:e} (bracket up to {:e})",
            r.toi_upper.unwrap_or(t)
        ),
        None => println!("no collision in this step"),
    }
    let t = &r.time_ms;
    println!(
        "time ms: {} {:.2}, traverse {:.2}, filter {:.2}, solve {:.2} (the three estimated from busy times), total {:.2}; peak RSS {:.1} MiB",
        r.bvh, t.bvh, t.traverse, t.filter, t.solve, t.total, m.peak_rss_mb
    );
}
