//! `ccdlab report`: regenerates the pipeline reproduction report (Markdown,
//! PNG and SVG figures) from the recorded JSON.

use std::error::Error;
use std::path::{Path, PathBuf};

use ccdlab::harness::figure::no_font_reason;
use ccdlab::harness::reproduction::{ReportOptions, SCENES, generate};
use ccdlab::harness::sequence::FrameSequence;

/// The default `--from`: the recorded JSON in the repository, relative to
/// the current folder.
const DEFAULT_FROM: &str = "reports/pipeline/data";

/// Arguments of `ccdlab report`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Folder of recorded JSON (counts_<scene>.json from `cargo bench --bench
    /// pipeline`, step_<scene>_t<N>.json, peer_ipctk_<scene>.json,
    /// replay_<scene>_<filters>.jsonl, bench_timings.json).
    #[arg(long, default_value = DEFAULT_FROM)]
    from: PathBuf,
    /// criterion's output folder (e.g. target/criterion): its estimates of
    /// the pipeline benches replace those in bench_timings.json.
    #[arg(long)]
    criterion: Option<PathBuf>,
    /// The report folder to (re)write, e.g. `reports/pipeline`; replaced
    /// only when everything is written.
    #[arg(long, required_unless_present = "list_scenes")]
    out: Option<PathBuf>,
    /// Print the measured scenes, one per line — `NAME SEQUENCE STEP FRAME0
    /// FRAME1` (frame files, `-` for generated frames) — and exit; scripts
    /// use this list. A scene whose data is not found is left out, with a
    /// note on stderr.
    #[arg(long)]
    list_scenes: bool,
}

/// Runs the command.
pub fn run(args: Args) -> Result<(), Box<dyn Error>> {
    if args.list_scenes {
        for s in SCENES {
            let frames = match FrameSequence::open(s.sequence) {
                Ok(seq) => [s.step, s.step + 1].map(|i| {
                    seq.frame_path(i)
                        .map_or_else(|| "-".to_string(), |p| p.display().to_string())
                }),
                Err(e) => {
                    eprintln!("note: {} left out: {e}", s.name);
                    continue;
                }
            };
            println!(
                "{} {} {} {} {}",
                s.name, s.sequence, s.step, frames[0], frames[1]
            );
        }
        return Ok(());
    }
    let out = args
        .out
        .ok_or("give --out DIR, the report folder to write")?;
    // The default is relative to the current folder, so it is missing when
    // the command runs outside the repository root; say how to mend that.
    if args.from == Path::new(DEFAULT_FROM)
        && let Err(e) = std::fs::metadata(&args.from)
        && e.kind() == std::io::ErrorKind::NotFound
    {
        return Err(format!(
            "{}: {e}; run from the repository root, or pass --from DIR",
            args.from.display()
        )
        .into());
    }
    let summary = generate(&ReportOptions {
        from: args.from.clone(),
        criterion: args.criterion,
        out,
    })?;
    for name in &summary.ignored {
        eprintln!("note: ignored {name} (not a report input)");
    }
    for scene in &summary.missing {
        eprintln!(
            "note: scene {scene} left out of the report: no {}",
            args.from.join(format!("counts_{scene}.json")).display()
        );
    }
    if summary.font.is_none() {
        eprintln!("note: {}: figures drawn without text", no_font_reason());
    }
    println!(
        "wrote {} ({} files, {} criterion estimates)",
        summary.out.join("README.md").display(),
        summary.files.len(),
        summary.estimates
    );
    Ok(())
}
