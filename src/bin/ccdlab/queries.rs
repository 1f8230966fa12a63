//! `ccdlab queries`: score a narrow-phase solver on query sets with ground
//! truth.

use std::error::Error;
use std::path::PathBuf;
use std::time::Duration;

use ccdlab::harness::ground_truth::{discover_query_sets, load};
use ccdlab::harness::query_eval::{QueriesReport, SetScore, Totals, score};
use ccdlab::harness::stamp::Stamp;
use ccdlab::narrow_phase::Solver;

/// Arguments of `ccdlab queries`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Solver: `exact` (certified, zero false negatives) or `cubic` (the
    /// float baseline of Provot 1997).
    #[arg(long, default_value_t = Solver::Exact)]
    solver: Solver,
    /// Print one JSON object on stdout, and nothing else.
    #[arg(long)]
    json: bool,
    /// Minimum timed duration per query set, in milliseconds, 0 to 60000
    /// (each set is solved repeatedly until this much time has passed; 0:
    /// once).
    #[arg(long, default_value_t = 50, value_parser = crate::limits::whole::<u64>(0, 60_000))]
    min_time_ms: u64,
    /// Query CSVs, Sample-Queries scene folders, Scalable-CCD scene folders,
    /// or folders holding several scenes.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
}

/// Runs the command.
pub fn run(args: Args) -> Result<(), Box<dyn Error>> {
    // Load everything first: a bad file fails before any output.
    let mut sets = Vec::new();
    for path in &args.paths {
        for source in discover_query_sets(path)? {
            let set = load(&source)?;
            // Without truth every count would read 0: a perfect score.
            if set.truth.is_none() {
                return Err(format!(
                    "{}: no ground truth to score against (a query CSV needs the seventh \
                     column; a Scalable-CCD set, its mma_bool/<name>_mma_bool.json)",
                    set.path.display()
                )
                .into());
            }
            sets.push(set);
        }
    }
    let min_time = Duration::from_millis(args.min_time_ms);
    let scores: Vec<SetScore> = sets
        .iter()
        .map(|s| score(s, args.solver, min_time))
        .collect();
    let report = QueriesReport {
        solver: args.solver.name().to_string(),
        total: Totals::of(&scores),
        sets: scores,
        stamp: Stamp::new(1),
    };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print_table(&report);
    }
    Ok(())
}

fn print_table(r: &QueriesReport) {
    println!("solver: {}   ({})", r.solver, r.stamp.markdown_line());
    println!(
        "{:<64} {:>4} {:>8} {:>9} {:>6} {:>6} {:>11} {:>10}",
        "set", "kind", "queries", "positives", "FP", "FN", "mean ns", "fallbacks"
    );
    for s in &r.sets {
        println!(
            "{:<64} {:>4} {:>8} {:>9} {:>6} {:>6} {:>11.1} {:>10}",
            shorten(&s.path, 64),
            s.kind,
            s.queries,
            s.positives,
            s.false_positives,
            s.false_negatives,
            s.mean_ns,
            s.exact_fallbacks.map_or("-".to_string(), |n| n.to_string())
        );
    }
    let t = &r.total;
    println!(
        "{:<64} {:>4} {:>8} {:>9} {:>6} {:>6} {:>11.1}",
        "total", "", t.queries, t.positives, t.false_positives, t.false_negatives, t.mean_ns
    );
}

/// The last `width` characters of a path, marked with `…` when cut.
fn shorten(path: &str, width: usize) -> String {
    let n = path.chars().count();
    if n <= width {
        path.to_string()
    } else {
        let tail: String = path.chars().skip(n - (width - 1)).collect();
        format!("…{tail}")
    }
}
