//! `ccdlab`: the command-line front end of the library.

use std::io::Write;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

mod candidates;
mod choices;
mod counts_table;
mod discrete;
mod frame_line;
mod generate;
mod intersections;
mod limits;
mod pipeline_args;
mod polygons;
mod proximity;
mod queries;
mod replay;
mod report;
mod route;
mod sample_check;
mod step;

/// Continuous collision detection for deforming triangle meshes.
#[derive(Debug, Parser)]
#[command(
    name = "ccdlab",
    version,
    about,
    long_about = None,
    after_help = "Exit status: 0 on success; 1 on an error (named on standard error) or a failed \
                  check (`sample-check`'s misses, `queries --min-distance` against the ground \
                  truth, `discrete`'s unexplained disagreements); 2 when the command line does \
                  not parse (an unknown option, a missing, malformed or out-of-range value, \
                  options that exclude each other). Options that parse but that the command then \
                  refuses (a solver without a minimum separation, a sequence or an output it \
                  cannot use) are errors: 1. A panic, a bug, exits with 101."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// A step's pairs that reach the exact test, written as query files
    /// (Sample-Queries CSV, the exact verdicts as truth) for `ccdlab
    /// queries` or another CCD benchmark.
    Candidates(candidates::Args),
    /// Print where ccdlab looks for the data sets, and what it finds there.
    Data,
    /// Discrete detectors (sphere–sphere, sphere–box, cylinder–terrain) vs
    /// parry3d-f64: agreement, timing, figures → --out (e.g. reports/discrete).
    Discrete(discrete::Args),
    /// Write the generated scene (a cloth falling onto a spinning sphere)
    /// as numbered frames for `ccdlab replay`.
    Generate(generate::Args),
    /// A frame's static intersections: edges through triangles and pairs
    /// that touch (a mesh that CCD from this frame cannot see crossing).
    Intersections(intersections::Args),
    /// 2D non-convex polygons: the paper's SAT without decomposition vs
    /// SAT and GJK/EPA with decomposition (report, single queries).
    Polygons(polygons::PolygonsArgs),
    /// The pairs of a frame's features within a distance of each other
    /// (a barrier's active set), exactly.
    Proximity(proximity::Args),
    /// Score a narrow-phase solver on query sets with ground truth.
    Queries(queries::Args),
    /// Replay frame sequences through the pipeline: per-step statistics and
    /// a summary.
    Replay(replay::Args),
    /// Regenerate the pipeline reproduction report (paper vs ours vs parry
    /// vs ipctk: Markdown, PNG, SVG) from recorded JSON → --out (e.g.
    /// reports/pipeline).
    Report(report::Args),
    /// Fly a TIN object along a route over TIN terrain: where it first
    /// touches, with the contact forms (Yu et al. 2000); a report with
    /// --out (e.g. reports/route).
    Route(route::Args),
    /// Check a step at a minimum separation against a plain exact sampler:
    /// every pair within d at a sample t = k/n must be reported by then.
    SampleCheck(sample_check::Args),
    /// One frame step through the whole CCD pipeline.
    Step(step::Args),
}

/// Lets a closed output pipe end the process quietly, as it ends other
/// Unix tools (`ccdlab replay … | head`), instead of every `println!`
/// panicking with "Broken pipe": Rust's runtime ignores `SIGPIPE`.
fn restore_sigpipe() {
    #[cfg(unix)]
    // SAFETY: sets the default disposition of one signal at start-up, before
    // any other thread exists; no handler is installed.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// Ends the process with a clean error and exit code 1 when standard output
/// cannot be written (`> /dev/full`): `println!` panics then, and this hook
/// turns that panic into one line on standard error. Output files are
/// written atomically, so none is left half-written. Other panics keep the
/// default report.
fn exit_cleanly_when_stdout_fails() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or_default();
        if let Some(cause) = message.strip_prefix("failed printing to stdout: ") {
            eprintln!("error: cannot write to standard output: {cause}");
            std::process::exit(1);
        }
        default(info);
    }));
}

fn data() -> Result<(), Box<dyn std::error::Error>> {
    use ccdlab::harness::data;
    for root in data::candidate_roots() {
        println!("candidate: {}", root.display());
    }
    match data::root() {
        Some(root) => {
            println!("data root: {}", root.display());
            for source in ccdlab::harness::ground_truth::discover_query_sets(&root)? {
                println!("  {} ({})", source.path().display(), source.kind);
            }
            Ok(())
        }
        None => Err(data::require_root().unwrap_err().into()),
    }
}

/// Ends the process when the command line names no command to run: the
/// help or the version on standard output (status 0), or a wrong command
/// line on standard error (status 2). Clap's own `exit` ignores a failed
/// write, so a help or version that never reached a full standard output
/// would count as a success; it is the clean error that every other output
/// gives instead (status 1).
fn exit_without_command(e: clap::Error) -> ! {
    if e.use_stderr() {
        e.exit();
    }
    let written = e.print().and_then(|()| std::io::stdout().flush());
    if let Err(cause) = written {
        eprintln!("error: cannot write to standard output: {cause}");
        std::process::exit(1);
    }
    std::process::exit(e.exit_code());
}

/// The command line's grammar: `Cli`'s, with negative numbers read as
/// values everywhere, so that `--threads -1` is refused by the option's own
/// check (which names the option and its range) rather than taken for an
/// unknown flag `-1`.
fn command() -> clap::Command {
    fn negative_numbers_are_values(cmd: clap::Command) -> clap::Command {
        cmd.allow_negative_numbers(true)
            .mut_subcommands(negative_numbers_are_values)
    }
    static LONG_VERSION: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        let commit = ccdlab::harness::stamp::GIT_COMMIT;
        format!("{} (commit {commit})", env!("CARGO_PKG_VERSION"))
    });
    negative_numbers_are_values(Cli::command().long_version(LONG_VERSION.as_str()))
}

fn main() -> ExitCode {
    restore_sigpipe();
    exit_cleanly_when_stdout_fails();
    let matches = command()
        .try_get_matches()
        .unwrap_or_else(|e| exit_without_command(e));
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| exit_without_command(e));
    if let Err(e) = pipeline_args::check_rayon_threads() {
        eprintln!("error: {}", without_controls(&e));
        return ExitCode::FAILURE;
    }
    let result: Result<(), Box<dyn std::error::Error>> = match cli.command {
        Command::Candidates(args) => candidates::run(args),
        Command::Data => data(),
        Command::Discrete(args) => discrete::run(args),
        Command::Generate(args) => generate::run(args),
        Command::Intersections(args) => intersections::run(args),
        Command::Polygons(args) => polygons::run(args).map_err(Into::into),
        Command::Proximity(args) => proximity::run(args),
        Command::Queries(args) => queries::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Report(args) => report::run(args),
        Command::Route(args) => route::run(args).map_err(Into::into),
        Command::SampleCheck(args) => sample_check::run(args),
        Command::Step(args) => step::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let mut said = e.to_string();
            eprintln!("error: {}", without_controls(&said));
            // Causes that the messages before already quote (most errors
            // say "{path}: {cause}") are not repeated.
            let mut source = e.source();
            while let Some(s) = source {
                let text = s.to_string();
                if !said.contains(&text) {
                    eprintln!("  caused by: {}", without_controls(&text));
                    said.push_str(&text);
                }
                source = s.source();
            }
            ExitCode::FAILURE
        }
    }
}

/// `text` with its control characters other than line breaks escaped
/// (`\u{1b}`): a path named in a message may hold any byte, and an escape
/// sequence in it would otherwise reach the terminal. (Text quoted from
/// files is escaped where it is quoted.)
fn without_controls(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() && c != '\n' {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}
