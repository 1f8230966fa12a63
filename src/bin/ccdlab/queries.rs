//! `ccdlab queries`: score a narrow-phase solver on query sets with ground
//! truth; with `--min-distance D > 0`, also the exact minimum-separation
//! solvers at `D`, checked against the contact truth (every contact stays
//! positive, no later) and, with `--oracle`, against the exact oracle.

use std::error::Error;
use std::path::PathBuf;
use std::time::Duration;

use ccdlab::harness::ground_truth::{discover_query_sets_in, load};
use ccdlab::harness::query_eval::{
    QueriesReport, ScoreError, SetScore, Totals, WithinOptions, WithinScore, require_truth,
    score_within,
};
use ccdlab::harness::stamp::Stamp;
use ccdlab::narrow_phase::Solver;

/// Arguments of `ccdlab queries`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Solver: `exact` is certified (no false negative or positive: where
    /// it disagrees with the ground truth, the truth is wrong, and the exit
    /// status is 1 after the report); `cubic` is the float baseline of
    /// Provot 1997.
    #[arg(long, default_value_t = Solver::Exact, value_parser = crate::choices::solver())]
    solver: Solver,
    /// Print one JSON object on stdout, and nothing else.
    #[arg(long)]
    json: bool,
    /// Minimum timed duration per query set, in milliseconds, 0 to 60000
    /// (each set is solved repeatedly until this much time has passed; 0:
    /// once).
    #[arg(long, default_value_t = 50, value_parser = crate::limits::whole::<u64>(0, 60_000))]
    min_time_ms: u64,
    /// Minimum separation d ≥ 0: also solve every query at d (positive when
    /// the features come within Euclidean distance d), timed beside d = 0;
    /// every ground-truth contact must stay positive at d, no later (else
    /// the exit status is 1). 0: contact only. Needs `--solver exact`.
    #[arg(
        long,
        default_value_t = 0.0,
        allow_hyphen_values = true,
        value_parser = crate::pipeline_args::distance
    )]
    min_distance: f64,
    /// With `--min-distance` d > 0: compare every verdict at d with the
    /// exact oracle (about a millisecond a query); a disagreement makes the
    /// exit status 1.
    #[arg(long)]
    oracle: bool,
    /// Query CSVs, Sample-Queries scene folders, Scalable-CCD scene folders,
    /// or folders holding several scenes.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
}

/// Runs the command.
pub fn run(args: Args) -> Result<(), Box<dyn Error>> {
    let within = WithinOptions {
        min_distance: args.min_distance,
        oracle: args.oracle,
    }
    .check(args.solver)
    .map_err(|e| option_error(&args, e))?;
    // Load everything first: a bad file fails before any output.
    // A set under two of the paths is scored once.
    let mut sets = Vec::new();
    for source in discover_query_sets_in(&args.paths)? {
        let set = load(&source)?;
        require_truth(&set)?;
        sets.push(set);
    }
    let min_time = Duration::from_millis(args.min_time_ms);
    let scores: Vec<SetScore> = sets
        .iter()
        .map(|s| score_within(s, args.solver, min_time, within))
        .collect::<Result<_, _>>()
        .map_err(|e| option_error(&args, e))?;
    let report = QueriesReport {
        solver: args.solver,
        min_distance: (!within.is_contact()).then_some(within.min_distance),
        total: Totals::of(&scores),
        sets: scores,
        stamp: Stamp::new(1),
    };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print_table(&report);
        if let Some(d) = report.min_distance {
            print_within_table(&report, d);
        }
    }
    // The report is printed first, whatever it says; a broken rule then
    // makes the exit status 1: a certified (exact) solver that disagrees
    // with the ground truth, or a contact lost at d.
    let mut broken = Vec::new();
    let t = &report.total;
    if report.solver.is_exact() && t.false_positives + t.false_negatives > 0 {
        broken.push(format!(
            "the exact solver disagrees with the ground truth on {} queries ({} false positives, \
             {} false negatives): it is certified, so check those queries' truth (named in the \
             report)",
            t.false_positives + t.false_negatives,
            t.false_positives,
            t.false_negatives
        ));
    }
    if let Some(w) = t.within.as_ref().filter(|w| w.failures() > 0) {
        let mut at_d = Vec::new();
        if w.contact_misses > 0 {
            at_d.push(format!(
                "{} ground-truth contacts negative at d",
                w.contact_misses
            ));
        }
        if w.later_than_contact > 0 {
            at_d.push(format!(
                "{} ground-truth contacts positive at d later than they touch",
                w.later_than_contact
            ));
        }
        if let Some(n) = w.oracle_disagreements.filter(|&n| n > 0) {
            at_d.push(format!("{n} verdicts at d unlike the exact oracle's"));
        }
        broken.push(format!(
            "--min-distance {:e}: {}",
            within.min_distance,
            at_d.join("; ")
        ));
    }
    match broken.is_empty() {
        true => Ok(()),
        false => Err(broken.join("\n").into()),
    }
}

/// `e`, naming the option it is about.
fn option_error(args: &Args, e: ScoreError) -> Box<dyn Error> {
    match e {
        ScoreError::Separation(_) => format!("--min-distance {:?}: {e}", args.min_distance),
        ScoreError::NoSeparation(solver) => format!(
            "--solver {solver} with --min-distance {:?}: {e}",
            args.min_distance
        ),
        ScoreError::OracleWithoutSeparation => {
            format!("--oracle with --min-distance {:?}: {e}", args.min_distance)
        }
        // `NoTruth`, and any variant to come: the error names its file.
        _ => e.to_string(),
    }
    .into()
}

fn print_table(r: &QueriesReport) {
    println!(
        "solver: {}   ({})",
        r.solver.name(),
        r.stamp.markdown_line()
    );
    println!(
        "{:<64} {:>4} {:>8} {:>9} {:>6} {:>6} {:>11} {:>10}",
        "set", "kind", "queries", "positives", "FP", "FN", "mean ns", "fallbacks"
    );
    for s in &r.sets {
        println!(
            "{:<64} {:>4} {:>8} {:>9} {:>6} {:>6} {:>11.1} {:>10}",
            shorten(&s.path, 64),
            s.kind.suffix(),
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
    print_disagreements(r);
}

/// How many of a set's disagreeing queries are named (all are in `--json`).
const NAMED_DISAGREEMENTS: usize = 10;

/// Which queries each set's FP and FN are: the file's query numbers (from
/// 0; query k is rows 8k+1 to 8k+8 of a CSV, pair k of a boxes file).
fn print_disagreements(r: &QueriesReport) {
    let sets: Vec<&SetScore> = r
        .sets
        .iter()
        .filter(|s| !s.disagreements.is_empty())
        .collect();
    if sets.is_empty() {
        return;
    }
    println!();
    if r.solver.is_exact() {
        println!(
            "the exact solver is certified: where it disagrees with the ground truth, check that \
             query's truth"
        );
    }
    println!(
        "queries whose verdict differs from the ground truth (numbered from 0: query k is rows \
         8k+1 to 8k+8 of a CSV, pair k of a boxes file):"
    );
    for s in sets {
        let named: Vec<String> = s
            .disagreements
            .iter()
            .take(NAMED_DISAGREEMENTS)
            .map(usize::to_string)
            .collect();
        let more = s.disagreements.len().saturating_sub(NAMED_DISAGREEMENTS);
        let more = if more > 0 {
            format!(" and {more} more (--json lists all)")
        } else {
            String::new()
        };
        println!("  {}: {}{more}", s.path, named.join(", "));
    }
}

/// The verdicts at `d > 0`, each set's mean time beside its time at `d = 0`.
fn print_within_table(r: &QueriesReport, d: f64) {
    println!();
    println!(
        "minimum separation {d:e}: the exact minimum-separation solver; every ground-truth \
         contact must be positive at d, no later"
    );
    println!(
        "{:<64} {:>4} {:>8} {:>11} {:>7} {:>6} {:>11} {:>11} {:>10} {:>7}",
        "set",
        "kind",
        "queries",
        "positive@d",
        "missed",
        "later",
        "mean ns@d",
        "mean ns@0",
        "fallbacks",
        "oracle≠"
    );
    let row = |name: &str, kind: &str, queries: usize, mean0: f64, w: &WithinScore| {
        println!(
            "{:<64} {:>4} {:>8} {:>11} {:>7} {:>6} {:>11.1} {:>11.1} {:>10} {:>7}",
            name,
            kind,
            queries,
            w.positives,
            w.contact_misses,
            w.later_than_contact,
            w.mean_ns,
            mean0,
            w.exact_fallbacks,
            w.oracle_disagreements
                .map_or("-".to_string(), |n| n.to_string())
        );
    };
    for s in &r.sets {
        if let Some(w) = &s.within {
            row(
                &shorten(&s.path, 64),
                s.kind.suffix(),
                s.queries,
                s.mean_ns,
                w,
            );
        }
    }
    if let Some(w) = &r.total.within {
        row("total", "", r.total.queries, r.total.mean_ns, w);
    }
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
