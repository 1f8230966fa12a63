//! `ccdlab replay`: every step of a frame sequence through the pipeline.

use std::error::Error;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use ccdlab::harness::output::{check_output, write_atomic_with};
use ccdlab::harness::replay::{ReplaySummary, StepRecord, replay};
use ccdlab::harness::sequence::FrameSequence;

use crate::pipeline_args::PipelineArgs;

/// Arguments of `ccdlab replay`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A folder of numbered OBJ/PLY frames, a data-set scene (`cloth_ball`,
    /// `funnel`), or the generated scene (`generated`, `generated:RES`,
    /// `generated:RES:FRAMES`, `generated:RES:FRAMES:GAP` with the cloth
    /// resting GAP m above the sphere). Default: the data sets' scenes when
    /// found, else `generated`.
    sequences: Vec<std::ffi::OsString>,
    #[command(flatten)]
    pipeline: PipelineArgs,
    /// Write one JSON line per step to this file (written when the replay
    /// finishes; nothing is left on error).
    #[arg(long)]
    out: Option<PathBuf>,
}

/// Runs the command.
pub fn run(args: Args) -> Result<(), Box<dyn Error>> {
    let config = args.pipeline.config(false)?;
    let specs = if args.sequences.is_empty() {
        default_sequences()?
    } else {
        args.sequences.clone()
    };
    // Open everything first, so that a bad argument fails before any work.
    let sequences = specs
        .iter()
        .map(FrameSequence::open)
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(path) = &args.out {
        let frames: Vec<&std::path::Path> = sequences
            .iter()
            .flat_map(|s| (0..s.num_frames()).filter_map(|i| s.frame_path(i)))
            .collect();
        check_output(path, &frames).map_err(|e| format!("--out {}: {e}", path.display()))?;
    }
    let pool = args.pipeline.thread_pool()?;
    let mut lines: Vec<String> = Vec::new();
    let mut summaries = Vec::new();
    for seq in &sequences {
        for (a, b) in seq.gap_labels() {
            eprintln!(
                "warning: {}: frame numbers jump from {a} to {b}; the step between them is replayed as one",
                seq.name()
            );
        }
        let bar = progress_bar(seq);
        let summary = pool.install(|| {
            replay(seq, config.clone(), |rec: &StepRecord| {
                bar.inc(1);
                lines.push(serde_json::to_string(rec).expect("records serialise"));
            })
        })?;
        bar.finish_and_clear();
        print_summary(&summary);
        summaries.push(summary);
    }
    if let Some(path) = &args.out {
        write_atomic_with(path, |w| {
            for l in &lines {
                writeln!(w, "{l}")?;
            }
            Ok(())
        })
        .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

/// The data sets' scenes whose frames are found, else the generated
/// default scene; says which on stdout. With `CCDLAB_DATA` set, scenes
/// must be found there: a wrong setting is an error, not a fallback.
fn default_sequences() -> Result<Vec<std::ffi::OsString>, Box<dyn Error>> {
    use ccdlab::harness::data;
    let from_env = data::env_root();
    let root = match from_env {
        Some(_) => Some(data::require_root()?),
        None => data::root(),
    };
    if let Some(root) = root {
        let scenes: Vec<String> = [("cloth_ball", "cloth-ball"), ("funnel", "cloth-funnel")]
            .iter()
            .filter(|(_, dir)| root.join("scalable-ccd").join(dir).join("frames").is_dir())
            .map(|(name, _)| name.to_string())
            .collect();
        if !scenes.is_empty() {
            println!(
                "replaying the data sets' scenes ({}) found under {}",
                scenes.join(", "),
                root.display()
            );
            return Ok(scenes.into_iter().map(Into::into).collect());
        }
    }
    if let Some(dir) = from_env {
        return Err(format!(
            "{}: no scene frames (scalable-ccd/cloth-ball/frames or \
             scalable-ccd/cloth-funnel/frames) in {}, the only place looked in while it is set; \
             name a sequence, or unset it",
            data::DATA_ENV,
            dir.display()
        )
        .into());
    }
    let p = ccdlab::harness::generate::SceneParams::default();
    println!(
        "no data-set frames found (they are committed under datasets/; CCDLAB_DATA overrides): \
         replaying the generated scene instead (a {r}x{r} cloth on a spinning sphere, {f} frames)",
        r = p.resolution,
        f = p.frames
    );
    Ok(vec!["generated".into()])
}

fn progress_bar(seq: &FrameSequence) -> indicatif::ProgressBar {
    let steps = (seq.num_frames() - 1) as u64;
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(steps);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} steps, {eta}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    bar.set_message(seq.name().to_string());
    bar
}

fn print_summary(s: &ReplaySummary) {
    println!(
        "{}: {} step{} ({} V, {} E, {} F), {}-DOP, {} solver, {} thread{}",
        s.sequence,
        s.steps,
        if s.steps == 1 { "" } else { "s" },
        s.mesh[0],
        s.mesh[1],
        s.mesh[2],
        s.k,
        s.solver,
        s.stamp.threads,
        if s.stamp.threads == 1 { "" } else { "s" }
    );
    for run in &s.ran {
        println!(
            "ran: {} ({} step{})",
            crate::counts_table::setting(run.filters, run.time_aligned, run.window),
            run.steps,
            if run.steps == 1 { "" } else { "s" }
        );
    }
    if s.min_distance > 0.0 {
        println!("{}", crate::counts_table::min_distance_line(s.min_distance));
    }
    if let Some(b) = &s.bodies {
        println!("{}", crate::counts_table::bodies_line(b));
    }
    crate::counts_table::print((&s.vf).into(), (&s.ee).into());
    if let Some(p) = &s.points {
        println!("{}", crate::counts_table::points_line(p));
    }
    println!(
        "steps with collisions: {}/{}; smallest step TOI: {}",
        s.steps_with_collisions,
        s.steps,
        s.min_step_toi.map_or("-".to_string(), |t| format!("{t:e}"))
    );
    let t = &s.mean_time_ms;
    println!(
        "mean ms/step: bvh {:.2}, traverse {:.2}, filter {:.2}, solve {:.2} (the three estimated from busy times), total {:.2}; wall {:.0} ms; peak RSS {:.1} MiB",
        t.bvh, t.traverse, t.filter, t.solve, t.total, s.wall_ms, s.peak_rss_mb
    );
}
