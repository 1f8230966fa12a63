//! `ccdlab polygons`: the 2D non-convex SAT paper (Fayzrakhmanov et al.,
//! *Inzhenernyj vestnik Dona*, ≈2015) reproduced and judged.
//!
//! - `ccdlab polygons report` times the three methods over polygon
//!   complexity (the paper's Fig. 3: mean collision-resolution time), checks
//!   every verdict against the exact reference and every translation vector
//!   against the minimum-translation oracle, and writes
//!   `README.md` (stamped), `timing.csv`, `accuracy.csv` and
//!   `fig3_resolution_time.png` to `--out` (each file atomically).
//! - `ccdlab polygons query FILE` resolves one pair given as JSON
//!   `{"a": [[x, y], …], "b": [[x, y], …]}` with every method.

use std::fmt::Write as _;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Instant;

use ccdlab::harness::output::{StageError, StagedFolder, write_atomic};

use crate::limits;
use ccdlab::harness::stamp::Stamp;
use ccdlab::polygon::evaluate::{
    MethodTally, PrepareError, VerdictClass, evaluate_pair, translation_tolerance,
};
use ccdlab::polygon::generate::{PairLayout, Rng, overlapping_pair, random_pair};
use ccdlab::polygon::{DecompositionKind, Method, Polygon, PolygonError, PreparedPair, Relation};
use clap::{Args, Subcommand};

/// Arguments of `ccdlab polygons`.
#[derive(Debug, Args)]
pub struct PolygonsArgs {
    #[command(subcommand)]
    command: PolygonsCommand,
}

#[derive(Debug, Subcommand)]
enum PolygonsCommand {
    /// Reproduce the paper's comparison (Fig. 3: mean resolution time over
    /// polygon complexity) and judge verdicts and translation vectors
    /// against exact oracles; writes a stamped Markdown report, CSVs and a PNG.
    Report(ReportArgs),
    /// Resolve one pair from a JSON file {"a": [[x, y], ...], "b": [[x, y], ...]}
    /// with every method and the oracles.
    Query {
        /// The JSON file (at most 4096 vertices per polygon).
        file: PathBuf,
        /// Run the (slow) minimum-translation oracle only when neither
        /// polygon has more vertices than this; above it the output says
        /// that the oracle was skipped.
        #[arg(long, default_value_t = ORACLE_MAX_VERTICES)]
        oracle_max_vertices: usize,
    },
}

/// Default of `--oracle-max-vertices` (`report` and `query`). The
/// minimum-translation oracle's cost grows steeply with the vertex count: a
/// pair of 64-vertex star polygons takes about 0.5 s, of 128 about 20 s, and
/// 4096 did not finish and held 3.6 GB.
const ORACLE_MAX_VERTICES: usize = 32;

/// Most vertices of a polygon (`report --sizes`, `query` files). The paper's
/// method costs about n³ operations per pair: 2048 vertices take about 6 s,
/// 4096 about 50 s; far beyond, a query would not end.
const MAX_VERTICES: usize = 4096;

/// Most `report --accuracy-pairs`: each pair is generated and resolved by
/// every method (and, up to `--oracle-max-vertices`, the oracles) in turn.
const MAX_ACCURACY_PAIRS: usize = 1_000_000;

/// Most vertices of the timing pairs of one size, `--timing-pairs` times
/// the largest of `--sizes`: the timing keeps its pairs, decomposed, in
/// memory (a few hundred bytes per vertex).
const MAX_TIMING_VERTICES: usize = 1_000_000;

/// Most `report --samples`.
const MAX_SAMPLES: usize = 1_000;

/// Most `report --sample-seconds` (per method, scenario, size and sample).
const MAX_SAMPLE_SECONDS: f64 = 10.0;

#[derive(Debug, Clone, Args)]
struct ReportArgs {
    /// Output folder.
    #[arg(long)]
    out: PathBuf,
    /// Seed of the random polygons.
    #[arg(long, default_value_t = 1, value_parser = crate::limits::whole::<u64>(0, u64::MAX))]
    seed: u64,
    /// Vertex counts of both polygons (comma separated, each ≥ 3).
    #[arg(long, value_delimiter = ',', default_value = "8,16,32,64,128")]
    sizes: Vec<usize>,
    /// Random pairs per scenario and size for the accuracy tables (at most
    /// 1,000,000).
    #[arg(long, default_value_t = 400)]
    accuracy_pairs: usize,
    /// Run the (slow) minimum-translation oracle up to this vertex count.
    #[arg(long, default_value_t = ORACLE_MAX_VERTICES)]
    oracle_max_vertices: usize,
    /// Overlapping pairs per scenario and size for the timing (times the
    /// largest size, at most 1,000,000 vertices).
    #[arg(long, default_value_t = 64)]
    timing_pairs: usize,
    /// Seconds per timing sample (per method, scenario and size; at most 10).
    #[arg(long, default_value_t = 0.05)]
    sample_seconds: f64,
    /// Timing samples (the median is reported; at most 1000).
    #[arg(long, default_value_t = 7)]
    samples: usize,
    /// Spikiness of the star polygons, in [0, 1).
    #[arg(long, default_value_t = 0.7)]
    spikiness: f64,
}

/// Errors of `ccdlab polygons`.
#[derive(Debug, thiserror::Error)]
pub enum PolygonsCliError {
    /// A bad command-line value.
    #[error("invalid --{name}: {message}")]
    Argument {
        /// The option.
        name: &'static str,
        /// What is wrong.
        message: String,
    },
    /// The input file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The input file is not the expected JSON.
    #[error("{path}: line {line}, column {column}: {message}")]
    Json {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What serde_json says.
        message: String,
    },
    /// A polygon in the input is invalid.
    #[error("{path}: polygon \"{which}\": {source}")]
    Polygon {
        /// The file.
        path: PathBuf,
        /// "a" or "b".
        which: &'static str,
        /// The cause (names the vertex or edge).
        source: PolygonError,
    },
    /// A polygon in the input has more than [`MAX_VERTICES`] vertices.
    #[error(
        "{path}: polygon \"{which}\" has {count} vertices; at most {max} are accepted \
         (the paper's method costs about n³ operations)"
    )]
    TooManyVertices {
        /// The file.
        path: PathBuf,
        /// "a" or "b".
        which: &'static str,
        /// Its vertex count.
        count: usize,
        /// The limit.
        max: usize,
    },
    /// A pair could not be prepared.
    #[error("{path}: {source}")]
    Prepare {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: PrepareError,
    },
    /// `--out` cannot be used, or the report could not be moved into it.
    #[error("cannot write {0}")]
    Out(StageError),
    /// An output file could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The figure could not be drawn.
    #[error("cannot draw {path}: {message}")]
    Plot {
        /// The file.
        path: PathBuf,
        /// What plotters says.
        message: String,
    },
}

/// Runs `ccdlab polygons …`.
pub fn run(args: PolygonsArgs) -> Result<(), PolygonsCliError> {
    match args.command {
        PolygonsCommand::Report(r) => report(r),
        PolygonsCommand::Query {
            file,
            oracle_max_vertices,
        } => {
            print!("{}", query(&file, oracle_max_vertices)?);
            Ok(())
        }
    }
}

// ---------------------------------------------------------------- query

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct PairFile {
    a: Vec<[f64; 2]>,
    b: Vec<[f64; 2]>,
}

fn read_pair(path: &Path) -> Result<PreparedPair, PolygonsCliError> {
    let text = ccdlab::io::read_input_to_string(path).map_err(|source| PolygonsCliError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let file: PairFile = serde_json::from_str(&text).map_err(|e| PolygonsCliError::Json {
        path: path.to_path_buf(),
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    })?;
    let poly = |pts: &[[f64; 2]], which| {
        if pts.len() > MAX_VERTICES {
            return Err(PolygonsCliError::TooManyVertices {
                path: path.to_path_buf(),
                which,
                count: pts.len(),
                max: MAX_VERTICES,
            });
        }
        Polygon::from_xy(pts).map_err(|source| PolygonsCliError::Polygon {
            path: path.to_path_buf(),
            which,
            source,
        })
    };
    let a = poly(&file.a, "a")?;
    let b = poly(&file.b, "b")?;
    PreparedPair::new(a, b).map_err(|source| PolygonsCliError::Prepare {
        path: path.to_path_buf(),
        source,
    })
}

/// The report of `ccdlab polygons query` on the pair in `path`; the
/// minimum-translation oracle runs only when neither polygon has more than
/// `oracle_max_vertices` vertices.
fn query(path: &Path, oracle_max_vertices: usize) -> Result<String, PolygonsCliError> {
    let pair = read_pair(path)?;
    let most = pair.a().len().max(pair.b().len());
    let oracle = most <= oracle_max_vertices;
    let e = evaluate_pair(&pair, oracle);
    let mut s = String::new();
    let shape = |p: &Polygon| {
        if p.is_convex() {
            "convex"
        } else {
            "non-convex"
        }
    };
    let _ = writeln!(
        s,
        "A: {} vertices ({}), {} convex pieces; B: {} vertices ({}), {} convex pieces",
        pair.a().len(),
        shape(pair.a()),
        pair.a_pieces().len(),
        pair.b().len(),
        shape(pair.b()),
        pair.b_pieces().len(),
    );
    let _ = writeln!(s, "exact reference: {:?}", e.truth);
    if let Some(t) = e.minimal_translation {
        let _ = writeln!(
            s,
            "minimum translation of A (oracle): ({:.12}, {:.12}), |t*| = {:.12}",
            t.x,
            t.y,
            t.norm()
        );
    } else if !oracle && e.truth.intersects() {
        let _ = writeln!(
            s,
            "minimum translation of A (oracle): skipped, {most} vertices > \
             --oracle-max-vertices {oracle_max_vertices} (the oracle is slow; raise the limit to run it)"
        );
    }
    for r in &e.results {
        let t = r.resolution.translation;
        let _ = write!(
            s,
            "{:24} intersects: {:5}  translation: ({:.12}, {:.12})  verdict: {}",
            r.method.name(),
            r.resolution.intersects,
            t.x,
            t.y,
            r.class.name()
        );
        if let Some(c) = r.translation {
            let _ = write!(
                s,
                "  separates: {}  minimal: {}  |t|/|t*| = {:.4}",
                c.separates,
                c.minimal,
                c.length / c.minimal_length
            );
        }
        s.push('\n');
    }
    Ok(s)
}

// ---------------------------------------------------------------- report

/// The two workloads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scenario {
    /// Both polygons non-convex (the paper's method decomposes B).
    NonconvexNonconvex,
    /// A non-convex, B convex (the paper's method makes one pair).
    NonconvexConvex,
}

impl Scenario {
    const ALL: [Scenario; 2] = [Scenario::NonconvexNonconvex, Scenario::NonconvexConvex];

    fn name(self) -> &'static str {
        match self {
            Scenario::NonconvexNonconvex => "nonconvex-nonconvex",
            Scenario::NonconvexConvex => "nonconvex-convex",
        }
    }

    fn layout(self, n: usize, spikiness: f64) -> PairLayout {
        PairLayout {
            n_a: n,
            n_b: n,
            b_convex: self == Scenario::NonconvexConvex,
            spikiness,
        }
    }
}

/// The decompositions timed: Hertel–Mehlhorn (main) and plain triangles
/// (sensitivity: the paper does not say which its baselines used).
const KINDS: [DecompositionKind; 2] = [
    DecompositionKind::HertelMehlhorn,
    DecompositionKind::Triangles,
];

fn kind_name(kind: DecompositionKind) -> &'static str {
    match kind {
        DecompositionKind::HertelMehlhorn => "hertel-mehlhorn",
        DecompositionKind::Triangles => "triangles",
    }
}

/// The methods timed (the literal step-11 reading costs the same as the
/// default one; it is judged for accuracy only).
const TIMED: [Method; 3] = [
    Method::Paper,
    Method::SatDecomposed,
    Method::GjkEpaDecomposed,
];

struct TimingRow {
    kind: DecompositionKind,
    scenario: Scenario,
    n: usize,
    method: Method,
    /// Median over samples of the mean time per pair.
    ns_per_query: f64,
    /// Fastest and slowest sample.
    ns_min: f64,
    ns_max: f64,
    /// Median over samples of (this method's time / the paper's time in the
    /// same sample): paired, so machine drift cancels.
    ratio_to_paper: f64,
    pieces_a: f64,
    pieces_b: f64,
}

struct AccuracyRow {
    scenario: Scenario,
    n: usize,
    truth: [usize; 4],
    oracle: bool,
    tallies: Vec<(Method, MethodTally)>,
}

fn argument(name: &'static str, message: impl Into<String>) -> PolygonsCliError {
    PolygonsCliError::Argument {
        name,
        message: message.into(),
    }
}

fn check_args(a: &ReportArgs) -> Result<(), PolygonsCliError> {
    if a.sizes.is_empty() {
        return Err(argument("sizes", "give at least one vertex count"));
    }
    if let Some(&n) = a.sizes.iter().find(|&&n| !(3..=MAX_VERTICES).contains(&n)) {
        return Err(argument(
            "sizes",
            format!("{n} is outside 3..={MAX_VERTICES}"),
        ));
    }
    let count = |name: &'static str, value: usize, max: usize| {
        limits::count(value, max).map_err(|m| argument(name, m))
    };
    count("accuracy-pairs", a.accuracy_pairs, MAX_ACCURACY_PAIRS)?;
    count("timing-pairs", a.timing_pairs, MAX_TIMING_VERTICES)?;
    count("samples", a.samples, MAX_SAMPLES)?;
    // Both factors are bounded above (sizes by `MAX_VERTICES`): no overflow.
    let largest = a.sizes.iter().copied().max().unwrap_or(0);
    if a.timing_pairs * largest > MAX_TIMING_VERTICES {
        return Err(argument(
            "timing-pairs",
            format!(
                "{} pairs of {largest}-vertex polygons exceed the limit of {MAX_TIMING_VERTICES} \
                 vertices per size (the timing keeps its pairs in memory)",
                a.timing_pairs
            ),
        ));
    }
    limits::seconds(a.sample_seconds, MAX_SAMPLE_SECONDS)
        .map_err(|m| argument("sample-seconds", m))?;
    if !(0.0..1.0).contains(&a.spikiness) {
        return Err(argument("spikiness", "must be in [0, 1)"));
    }
    Ok(())
}

fn seed_for(base: u64, scenario: Scenario, n: usize, purpose: u64) -> u64 {
    base ^ ((n as u64) << 20) ^ ((scenario as u64) << 40) ^ (purpose << 48)
}

fn report(args: ReportArgs) -> Result<(), PolygonsCliError> {
    check_args(&args)?;
    // The files go to a staging folder, moved into --out only once all are
    // written: a failed run leaves --out as it was.
    let stage = StagedFolder::begin(&args.out, "polygons").map_err(PolygonsCliError::Out)?;
    let stamp = Stamp::new(1);

    // Accuracy.
    let mut accuracy = Vec::new();
    for scenario in Scenario::ALL {
        for &n in &args.sizes {
            let mut rng = Rng::new(seed_for(args.seed, scenario, n, 1));
            let oracle = n <= args.oracle_max_vertices;
            let mut tallies: Vec<(Method, MethodTally)> = Method::ALL
                .iter()
                .map(|&m| (m, MethodTally::default()))
                .collect();
            let mut truth = [0usize; 4];
            for _ in 0..args.accuracy_pairs {
                let (a, b) = random_pair(&mut rng, scenario.layout(n, args.spikiness));
                let pair = PreparedPair::new(a, b).map_err(|source| PolygonsCliError::Prepare {
                    path: PathBuf::from("<generated>"),
                    source,
                })?;
                let e = evaluate_pair(&pair, oracle);
                truth[match e.truth {
                    Relation::Disjoint => 0,
                    Relation::BoundariesMeet => 1,
                    Relation::SecondInsideFirst => 2,
                    Relation::FirstInsideSecond => 3,
                }] += 1;
                for (r, (_, t)) in e.results.iter().zip(tallies.iter_mut()) {
                    t.add(r);
                }
            }
            eprintln!("accuracy: {} n={n} done", scenario.name());
            accuracy.push(AccuracyRow {
                scenario,
                n,
                truth,
                oracle,
                tallies,
            });
        }
    }

    // Timing (Fig. 3), for both decompositions (same pairs: same seed).
    let timer = Timer::pick();
    let mut timing = Vec::new();
    for kind in KINDS {
        for scenario in Scenario::ALL {
            for &n in &args.sizes {
                let mut rng = Rng::new(seed_for(args.seed, scenario, n, 2));
                let pairs: Vec<PreparedPair> = (0..args.timing_pairs)
                    .map(|_| {
                        let (a, b) = overlapping_pair(&mut rng, scenario.layout(n, args.spikiness));
                        PreparedPair::with_kind(a, b, kind)
                    })
                    .collect::<Result<_, _>>()
                    .map_err(|source| PolygonsCliError::Prepare {
                        path: PathBuf::from("<generated>"),
                        source,
                    })?;
                let pieces_a = pairs.iter().map(|p| p.a_pieces().len()).sum::<usize>() as f64
                    / pairs.len() as f64;
                let pieces_b = pairs.iter().map(|p| p.b_pieces().len()).sum::<usize>() as f64
                    / pairs.len() as f64;
                let samples = time_methods(&pairs, timer, args.sample_seconds, args.samples);
                for (k, method) in TIMED.iter().copied().enumerate() {
                    let ratios: Vec<f64> = samples[k]
                        .iter()
                        .zip(&samples[0])
                        .map(|(t, p)| t / p)
                        .collect();
                    timing.push(TimingRow {
                        kind,
                        scenario,
                        n,
                        method,
                        ns_per_query: median(&samples[k]),
                        ns_min: samples[k].iter().cloned().fold(f64::INFINITY, f64::min),
                        ns_max: samples[k].iter().cloned().fold(0.0, f64::max),
                        ratio_to_paper: median(&ratios),
                        pieces_a,
                        pieces_b,
                    });
                }
                eprintln!("timing: {} {} n={n} done", kind_name(kind), scenario.name());
            }
        }
    }

    let timing_csv = args.out.join("timing.csv");
    write_file(
        &stage,
        "timing.csv",
        timing_to_csv(&timing, &stamp).as_bytes(),
    )?;
    let accuracy_csv = args.out.join("accuracy.csv");
    write_file(
        &stage,
        "accuracy.csv",
        accuracy_to_csv(&accuracy, &stamp).as_bytes(),
    )?;
    let png = args.out.join("fig3_resolution_time.png");
    let font = plot::load_font();
    plot::figure(&stage.path("fig3_resolution_time.png"), &timing, font).map_err(|message| {
        PolygonsCliError::Plot {
            path: png.clone(),
            message,
        }
    })?;
    let md = markdown(&args, &stamp, timer, &timing, &accuracy, font);
    let readme = args.out.join("README.md");
    write_file(&stage, "README.md", md.as_bytes())?;
    stage.commit().map_err(PolygonsCliError::Out)?;
    println!(
        "wrote {}, {}, {}, {}",
        readme.display(),
        timing_csv.display(),
        accuracy_csv.display(),
        png.display()
    );
    Ok(())
}

/// Writes `bytes` as the staged file `name`; an error names it in `--out`.
fn write_file(stage: &StagedFolder, name: &str, bytes: &[u8]) -> Result<(), PolygonsCliError> {
    write_atomic(&stage.path(name), bytes).map_err(|source| PolygonsCliError::Write {
        path: stage.out().join(name),
        source,
    })
}

fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(|a, b| a.total_cmp(b));
    if v.is_empty() {
        f64::NAN
    } else {
        v[v.len() / 2]
    }
}

/// Seconds of CPU time used by the calling thread
/// (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)`), or `None` where that clock is
/// unavailable. On a shared machine wall-clock time also counts other jobs'
/// time slices; thread CPU time does not.
#[cfg(unix)]
fn thread_cpu_seconds() -> Option<f64> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec for the duration of the
    // call; clock_gettime writes only into it.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    (rc == 0).then_some(ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9)
}

#[cfg(not(unix))]
fn thread_cpu_seconds() -> Option<f64> {
    None
}

/// The timer of the report: thread CPU time where available, else wall time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Timer {
    ThreadCpu,
    Wall,
}

impl Timer {
    fn pick() -> Timer {
        if thread_cpu_seconds().is_some() {
            Timer::ThreadCpu
        } else {
            Timer::Wall
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Timer::ThreadCpu => "thread CPU time (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)`)",
            Timer::Wall => "wall-clock time (`std::time::Instant`; no thread CPU clock here)",
        }
    }

    /// Seconds `f` took.
    fn time(self, f: impl FnOnce()) -> f64 {
        match self {
            Timer::ThreadCpu => {
                let t0 = thread_cpu_seconds().unwrap_or(f64::NAN);
                f();
                thread_cpu_seconds().unwrap_or(f64::NAN) - t0
            }
            Timer::Wall => {
                let t0 = Instant::now();
                f();
                t0.elapsed().as_secs_f64()
            }
        }
    }
}

/// `samples` samples of the mean time per query (ns) of each timed method
/// (in [`TIMED`] order, the paper's first) on `pairs`; the methods are
/// interleaved within each sample so that drift of a shared machine hits
/// all of them alike.
fn time_methods(
    pairs: &[PreparedPair],
    timer: Timer,
    sample_seconds: f64,
    samples: usize,
) -> Vec<Vec<f64>> {
    let run = |m: Method, reps: usize| {
        timer.time(|| {
            for _ in 0..reps {
                for p in pairs {
                    black_box(p.resolve(black_box(m)));
                }
            }
        })
    };
    let reps: Vec<usize> = TIMED
        .iter()
        .map(|&m| {
            run(m, 1); // warm-up
            let once = run(m, 1).max(1e-9);
            ((sample_seconds / once).ceil() as usize).max(1)
        })
        .collect();
    let mut per_query: Vec<Vec<f64>> = vec![Vec::with_capacity(samples); TIMED.len()];
    for _ in 0..samples {
        for (k, &m) in TIMED.iter().enumerate() {
            let s = run(m, reps[k]);
            per_query[k].push(s * 1e9 / (reps[k] * pairs.len()) as f64);
        }
    }
    per_query
}

fn csv_header(stamp: &Stamp) -> String {
    format!("# {}\n", stamp.markdown_line())
}

fn timing_to_csv(rows: &[TimingRow], stamp: &Stamp) -> String {
    let mut s = csv_header(stamp);
    s.push_str("decomposition,scenario,vertices,method,ns_per_query_median,ns_min,ns_max,time_ratio_to_paper_median,mean_pieces_a,mean_pieces_b\n");
    for r in rows {
        let _ = writeln!(
            s,
            "{},{},{},{},{:.1},{:.1},{:.1},{:.4},{:.2},{:.2}",
            kind_name(r.kind),
            r.scenario.name(),
            r.n,
            r.method.name(),
            r.ns_per_query,
            r.ns_min,
            r.ns_max,
            r.ratio_to_paper,
            r.pieces_a,
            r.pieces_b
        );
    }
    s
}

fn accuracy_to_csv(rows: &[AccuracyRow], stamp: &Stamp) -> String {
    let mut s = csv_header(stamp);
    s.push_str("scenario,vertices,method,pairs,truth_disjoint,truth_boundaries_meet,truth_b_in_a,truth_a_in_b");
    for c in VerdictClass::ALL {
        let _ = write!(s, ",{}", c.name());
    }
    s.push_str(",mtv_checked,mtv_separates,mtv_tight,mtv_minimal,mtv_ratio_mean,mtv_ratio_max\n");
    for r in rows {
        for (m, t) in &r.tallies {
            let _ = write!(
                s,
                "{},{},{},{},{},{},{},{}",
                r.scenario.name(),
                r.n,
                m.name(),
                t.pairs,
                r.truth[0],
                r.truth[1],
                r.truth[2],
                r.truth[3]
            );
            for c in VerdictClass::ALL {
                let _ = write!(s, ",{}", t.count(c));
            }
            let mean = if t.checked > 0 {
                t.ratio_sum / t.checked as f64
            } else {
                f64::NAN
            };
            let _ = writeln!(
                s,
                ",{},{},{},{},{:.4},{:.4}",
                t.checked, t.separates, t.tight, t.minimal, mean, t.ratio_max
            );
        }
    }
    s
}

fn find_row(
    rows: &[TimingRow],
    kind: DecompositionKind,
    scenario: Scenario,
    n: usize,
    m: Method,
) -> Option<&TimingRow> {
    rows.iter()
        .find(|r| r.kind == kind && r.scenario == scenario && r.n == n && r.method == m)
}

fn find_ns(
    rows: &[TimingRow],
    kind: DecompositionKind,
    scenario: Scenario,
    n: usize,
    m: Method,
) -> f64 {
    find_row(rows, kind, scenario, n, m).map_or(f64::NAN, |r| r.ns_per_query)
}

fn find_ratio(
    rows: &[TimingRow],
    kind: DecompositionKind,
    scenario: Scenario,
    n: usize,
    m: Method,
) -> f64 {
    find_row(rows, kind, scenario, n, m).map_or(f64::NAN, |r| r.ratio_to_paper)
}

fn pct(k: usize, n: usize) -> String {
    if n == 0 {
        "–".to_string()
    } else {
        format!("{:.1}%", 100.0 * k as f64 / n as f64)
    }
}

fn markdown(
    args: &ReportArgs,
    stamp: &Stamp,
    timer: Timer,
    timing: &[TimingRow],
    accuracy: &[AccuracyRow],
    font: Option<&'static str>,
) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# 2D non-convex polygons: SAT without decomposition vs SAT / GJK-EPA with decomposition\n"
    );
    let _ = writeln!(s, "{}\n", stamp.markdown_line());
    let sizes: Vec<String> = args.sizes.iter().map(|n| n.to_string()).collect();
    let _ = writeln!(
        s,
        "Generated by `ccdlab polygons report --out reports/polygons --seed {} --sizes {} --accuracy-pairs {} --oracle-max-vertices {} --timing-pairs {} --sample-seconds {} --samples {} --spikiness {}` (release build). \
Do not edit by hand: rerun the command.\n",
        args.seed,
        sizes.join(","),
        args.accuracy_pairs,
        args.oracle_max_vertices,
        args.timing_pairs,
        args.sample_seconds,
        args.samples,
        args.spikiness
    );
    let _ = writeln!(
        s,
        "Paper: R.A. Fayzrakhmanov, R.T. Murzakaev, M.D. Shvetsov, A.S. Mekhonoshin, A.F. Khabibulin, \
\"Collision detection algorithms for flat two-dimensional objects of arbitrary shape\" (Russian), \
*Inzhenernyj vestnik Dona*, ≈2015 (`docs/design.md` §3). \
Implementation: `src/polygon/` (the paper: `sat_nonconvex.rs`; baselines: `sat_decomposed.rs`, \
`gjk_epa_decomposed.rs` (parry2d-f64 0.31); oracles: `reference.rs` (exact), `penetration.rs`).\n"
    );
    let _ = writeln!(s, "## Setup\n");
    let _ = writeln!(
        s,
        "- Polygons: random star-shaped polygons (`generate.rs`), A of radius 1 with spikiness {}; \
B the same (scenario `nonconvex-nonconvex`) or convex on a circle (`nonconvex-convex`), \
both with the same vertex count *n*.\n\
- The paper's method keeps A whole and tests it against each convex piece of B (the paper's own \
composition for two non-convex objects); the baselines test every piece of A against every piece \
of B. Decompositions (exact ear clipping + Hertel–Mehlhorn) and parry shapes are precomputed, as for \
rigid shapes in an engine; the timings are the query only. All three shift A after each \
intersecting pair (the paper's step 15), one pass.\n\
- Timing: {} overlapping pairs (exact reference says they intersect) per scenario and *n*; median of {} \
samples of ≥ {} s each, methods interleaved; one thread; timer: {}. Times are sample medians; the \
ratios are medians of per-sample ratios (each sample times the three methods back to back, so machine \
drift cancels); `timing.csv` has the fastest and slowest sample. The machine is shared with other \
jobs (2 cores), so even CPU times carry cache and frequency noise.\n\
- Accuracy: {} random pairs per scenario and *n* (B's centre uniform in a disc of radius 1 + r_B \
around A's: nested, crossing and disjoint pairs); verdicts against the exact reference, translation \
vectors against the minimum-translation oracle (for *n* ≤ {}).\n",
        args.spikiness,
        args.timing_pairs,
        args.samples,
        args.sample_seconds,
        timer.describe(),
        args.accuracy_pairs,
        args.oracle_max_vertices
    );

    // Timing table.
    let _ = writeln!(s, "## Mean resolution time (the paper's Fig. 3)\n");
    let _ = writeln!(s, "![Fig. 3 reproduction](fig3_resolution_time.png)\n");
    if font.is_none() {
        let _ = writeln!(
            s,
            "(No font file was found, so the figure has no text: left panel time per query, log axes; right panel speed ratios.)\n"
        );
    }
    for kind in KINDS {
        let _ = writeln!(
            s,
            "### Pieces: {}\n",
            match kind {
                DecompositionKind::HertelMehlhorn =>
                    "ear clipping + Hertel–Mehlhorn (main; top row of the figure)",
                DecompositionKind::Triangles =>
                    "ear-clipping triangles, no merging (sensitivity; bottom row)",
            }
        );
        let _ = writeln!(
            s,
            "| scenario | n | pieces A | pieces B | paper µs | SAT+decomp. µs | GJK/EPA+decomp. µs | SAT+decomp. time / paper time | GJK/EPA time / paper time |"
        );
        let _ = writeln!(s, "|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        let mut ratios: Vec<(Scenario, usize, f64, f64)> = Vec::new();
        for scenario in Scenario::ALL {
            for &n in &args.sizes {
                let p = find_ns(timing, kind, scenario, n, Method::Paper);
                let sd = find_ns(timing, kind, scenario, n, Method::SatDecomposed);
                let g = find_ns(timing, kind, scenario, n, Method::GjkEpaDecomposed);
                let rs = find_ratio(timing, kind, scenario, n, Method::SatDecomposed);
                let rg = find_ratio(timing, kind, scenario, n, Method::GjkEpaDecomposed);
                let row = timing
                    .iter()
                    .find(|r| r.kind == kind && r.scenario == scenario && r.n == n)
                    .map_or((f64::NAN, f64::NAN), |r| (r.pieces_a, r.pieces_b));
                let _ = writeln!(
                    s,
                    "| {} | {} | {:.1} | {:.1} | {:.3} | {:.3} | {:.3} | {:.2}× | {:.2}× |",
                    scenario.name(),
                    n,
                    row.0,
                    row.1,
                    p / 1e3,
                    sd / 1e3,
                    g / 1e3,
                    rs,
                    rg
                );
                ratios.push((scenario, n, rs, rg));
            }
        }
        let _ = writeln!(s);
        let _ = writeln!(
            s,
            "**The paper's claim** (\"3–4× faster than SAT with convex decomposition, 8–10× faster than GJK/EPA\"), with these pieces:"
        );
        for scenario in Scenario::ALL {
            let r: Vec<&(Scenario, usize, f64, f64)> =
                ratios.iter().filter(|r| r.0 == scenario).collect();
            let (lo_s, hi_s) = min_max(r.iter().map(|r| r.2));
            let (lo_g, hi_g) = min_max(r.iter().map(|r| r.3));
            let within_s = r.iter().filter(|r| (3.0..=4.0).contains(&r.2)).count();
            let within_g = r.iter().filter(|r| (8.0..=10.0).contains(&r.3)).count();
            let faster_s = r.iter().filter(|r| r.2 > 1.0).count();
            let faster_g = r.iter().filter(|r| r.3 > 1.0).count();
            let _ = writeln!(
                s,
                "- `{}`: the paper's method is {:.2}–{:.2}× as fast as SAT+decomposition (faster at {} of {} sizes, \
within the claimed 3–4× at {}) and {:.2}–{:.2}× as fast as GJK/EPA+decomposition (faster at {} of {}, \
within the claimed 8–10× at {}).",
                scenario.name(),
                lo_s,
                hi_s,
                faster_s,
                r.len(),
                within_s,
                lo_g,
                hi_g,
                faster_g,
                r.len(),
                within_g
            );
        }
        let _ = writeln!(s);
    }
    let _ = writeln!(
        s,
        "\nCost model: the paper's method projects all of A (n vertices) on every axis of every (A, piece of B) \
pair, O(n²) per piece and O(n²·p_B) in all, while the baselines pay O(k²) per piece pair of k-gons, \
O(p_A·p_B·k²) in all; early exits on a separating axis cut both.\n"
    );

    // Accuracy table.
    let _ = writeln!(s, "## Verdicts against the exact reference\n");
    let _ = writeln!(
        s,
        "Every disagreement is classified (`src/polygon/evaluate.rs`): *near touching* (clearance or depth within \
the method's rounding tolerance: γ₆₄·scale for SAT, √(10ε)·scale for parry's GJK), and the paper's three \
structural failures — *nested miss* (B inside non-convex A, clear of all of A's edge lines: step 10 says \
\"certainly apart\"), *pocket false hit* (B in a pocket of A's hull, not touching A, while an edge line of A \
crosses B), *missing-axis false hit* (B outside A's hull, separable only along a hull-bridge normal that is \
no edge of A). *Unexplained* would be a bug.\n"
    );
    let _ = writeln!(
        s,
        "| scenario | n | pairs | truth: disjoint / meet / B⊂A / A⊂B | method | agree | near touching | nested miss | pocket false hit | missing-axis false hit | unexplained |"
    );
    let _ = writeln!(s, "|---|---:|---:|---|---|---:|---:|---:|---:|---:|---:|");
    for row in accuracy {
        for (m, t) in &row.tallies {
            if *m == Method::PaperLiteral {
                continue; // same verdicts as Method::Paper
            }
            let _ = write!(
                s,
                "| {} | {} | {} | {} / {} / {} / {} | {} ",
                row.scenario.name(),
                row.n,
                t.pairs,
                row.truth[0],
                row.truth[1],
                row.truth[2],
                row.truth[3],
                m.name()
            );
            for c in VerdictClass::ALL {
                let _ = write!(s, "| {} ", t.count(c));
            }
            let _ = writeln!(s, "|");
        }
    }
    let _ = writeln!(s);
    for scenario in Scenario::ALL {
        let rows: Vec<&AccuracyRow> = accuracy.iter().filter(|r| r.scenario == scenario).collect();
        let sum = |m: Method, f: &dyn Fn(&MethodTally) -> usize| -> usize {
            rows.iter()
                .flat_map(|r| r.tallies.iter())
                .filter(|(mm, _)| *mm == m)
                .map(|(_, t)| f(t))
                .sum()
        };
        let total = sum(Method::Paper, &|t| t.pairs);
        let wrong_paper = total - sum(Method::Paper, &|t| t.count(VerdictClass::Agree));
        let fn_paper = sum(Method::Paper, &|t| t.count(VerdictClass::NestedMiss));
        let wrong_sd = total - sum(Method::SatDecomposed, &|t| t.count(VerdictClass::Agree));
        let wrong_g = total - sum(Method::GjkEpaDecomposed, &|t| t.count(VerdictClass::Agree));
        let _ = writeln!(
            s,
            "- `{}`: over {} pairs the paper's verdict is wrong in {} ({}), of which {} are missed collisions \
(nested); SAT+decomposition is wrong in {}, GJK/EPA+decomposition in {}.",
            scenario.name(),
            total,
            wrong_paper,
            pct(wrong_paper, total),
            fn_paper,
            wrong_sd,
            wrong_g
        );
    }
    let _ = writeln!(s);

    // Translation table.
    let _ = writeln!(
        s,
        "## Translation vectors against the minimum-translation oracle\n"
    );
    let tol = translation_tolerance(1.0);
    let _ = writeln!(
        s,
        "For pairs whose interiors overlap and that the method finds intersecting: *separates* = A shifted by the \
method's total vector t overlaps B by at most {tol:.1e}·scale: shifted that much further along t it no longer \
meets B (exact test), or else (B touching A at the mouth of a notch, where going further along t enters \
again) the oracle's depth at t is at most that; *tight* = shifted by \
the vector minus that amount it still meets B (the vector stops at contact); *minimal* = separates and \
|t| ≤ |t*| + tolerance, t* from `penetration.rs`. Ratios are |t| / |t*|. `sat_nonconvex_literal` is the \
paper's step 11 read literally (keeps the largest overlap).\n"
    );
    let _ = writeln!(
        s,
        "| scenario | n | method | checked | separates | tight | minimal | mean \\|t\\|/\\|t*\\| | max \\|t\\|/\\|t*\\| |"
    );
    let _ = writeln!(s, "|---|---:|---|---:|---:|---:|---:|---:|---:|");
    for row in accuracy.iter().filter(|r| r.oracle) {
        for (m, t) in &row.tallies {
            let mean = if t.checked > 0 {
                t.ratio_sum / t.checked as f64
            } else {
                f64::NAN
            };
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {} | {} | {:.3} | {:.3} |",
                row.scenario.name(),
                row.n,
                m.name(),
                t.checked,
                pct(t.separates, t.checked),
                pct(t.tight, t.checked),
                pct(t.minimal, t.checked),
                mean,
                t.ratio_max
            );
        }
    }
    let _ = writeln!(s);
    let _ = writeln!(s, "## What the tables rest on\n");
    let _ = writeln!(
        s,
        "Readings of the paper (details in the module doc of `src/polygon/sat_nonconvex.rs`): step 11's \
`if (I < D) D = I` with a signed `I ≤ 0` literally keeps the *largest* overlap, so the default reading keeps \
the smallest (`sat_nonconvex`) and the literal one is measured separately (`sat_nonconvex_literal`); step 14's \
\"centres\" are vertex means; vertices are stored counter-clockwise, so step 4's `A = (−Y, X)` is the inward \
normal; step 15 is applied after each convex piece of B (one pass).\n\n\
Failure modes of the paper's method, each pinned by a named regression test in \
`src/polygon/sat_nonconvex.rs` that asserts the paper's actual output and the exact reference's:\n\
- `regression_paper_nested_false_negative_u_arm`: B inside a non-convex A, away from all of A's edge lines \
(step 10 declares \"certainly not intersecting\"): a **missed collision**.\n\
- `regression_paper_pocket_false_positive_u_notch`: B in A's notch, not touching A, crossed by the line of \
A's top edges: a false collision.\n\
- `regression_paper_missing_axis_false_positive_dart`: B outside A's convex hull, separable only along the \
normal of a hull edge that bridges A's pocket (never tried, as it is no edge of A): a false collision.\n\
- `regression_paper_step7_one_sided_distance_on_nested_intervals`: step 7's one-sided distance on nested \
projection intervals makes the vector longer than the minimum.\n\
- `regression_paper_step14_centre_sign_pushes_the_wrong_way`: step 14 takes the direction from the centres, \
not from the overlap, and can push A deeper.\n\n\
The baselines' vectors are not minimal either when several convex pairs overlap: each pair's SAT vector is \
that pair's minimum up to rounding and parry's EPA vector up to its tolerance (both tested against the \
oracle in `tests/polygons.rs`), but one pass of \
\"shift after each pair\" neither guarantees separation nor minimality — the same combination rule is used \
for all methods, as the paper gives no other.\n\n\
Implementation details move the timings: both SATs project with the same branch-free min/max selection; \
with the paper's literal `if s < min … else if s > max` branch the paper's method ran markedly slower \
on these zig-zag outlines in development runs (branch mispredictions; not recorded here), which would have \
tilted the comparison for reasons that are not the algorithm's.\n"
    );
    let _ = writeln!(
        s,
        "Files: `timing.csv`, `accuracy.csv` (all counts), `fig3_resolution_time.png`."
    );
    s
}

fn min_max(it: impl Iterator<Item = f64>) -> (f64, f64) {
    it.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
        (lo.min(x), hi.max(x))
    })
}

// ---------------------------------------------------------------- plot

mod plot {
    use super::{KINDS, Scenario, TIMED, TimingRow, find_ns, find_ratio};
    use ccdlab::polygon::{DecompositionKind, Method};
    use plotters::prelude::*;
    use std::path::Path;

    /// Registers a font for plotters' `ab_glyph` backend (shared loader:
    /// `$CCDLAB_FONT`, then DejaVu). Returns the file used, or `None` (the
    /// figure is then drawn without text).
    pub fn load_font() -> Option<&'static str> {
        ccdlab::harness::figure::load_font()
    }

    fn colour(m: Method) -> RGBColor {
        match m {
            Method::Paper => RGBColor(200, 30, 30),
            Method::SatDecomposed => RGBColor(30, 90, 200),
            _ => RGBColor(20, 150, 60),
        }
    }

    fn label(m: Method) -> &'static str {
        match m {
            Method::Paper => "paper: SAT without decomposition",
            Method::SatDecomposed => "SAT + convex decomposition",
            _ => "GJK/EPA + convex decomposition (parry2d)",
        }
    }

    /// Draws the figure to a temporary `.png` beside `path`, then renames it
    /// into place (plotters picks the encoder from the extension).
    pub fn figure(path: &Path, rows: &[TimingRow], font: Option<&str>) -> Result<(), String> {
        let dir = path.parent().unwrap_or(Path::new("."));
        let tmp = dir.join(format!(".fig3.{}.tmp.png", std::process::id()));
        let result = draw(&tmp, rows, font.is_some())
            .and_then(|()| std::fs::rename(&tmp, path).map_err(|e| e.to_string()));
        if result.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        result
    }

    /// Points of one line.
    type Series = Vec<(f64, f64)>;

    fn err(x: impl std::fmt::Display) -> String {
        x.to_string()
    }

    /// Two rows (Hertel–Mehlhorn pieces, triangle pieces) of two panels
    /// (time per pair; speed ratios). x is log₂ n on a linear axis, labelled
    /// with n, so the ticks fall on the measured sizes.
    fn draw(path: &Path, rows: &[TimingRow], text: bool) -> Result<(), String> {
        let root = BitMapBackend::new(path, (1500, 1240)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let halves = root.split_evenly((2, 1));
        for (area, kind) in halves.iter().zip(KINDS) {
            let kind_rows: Vec<&TimingRow> = rows.iter().filter(|r| r.kind == kind).collect();
            if kind_rows.is_empty() {
                continue;
            }
            draw_row(area, rows, kind, text)?;
        }
        root.present().map_err(err)?;
        Ok(())
    }

    fn draw_row(
        area: &DrawingArea<BitMapBackend<'_>, plotters::coord::Shift>,
        rows: &[TimingRow],
        kind: DecompositionKind,
        text: bool,
    ) -> Result<(), String> {
        let (left, right) = area.split_horizontally(800);
        let mut sizes: Vec<usize> = rows
            .iter()
            .filter(|r| r.kind == kind)
            .map(|r| r.n)
            .collect();
        sizes.sort_unstable();
        sizes.dedup();
        let lg = |n: usize| (n as f64).log2();
        let x_lo = lg(*sizes.first().unwrap_or(&4)) - 0.3;
        let x_hi = lg(*sizes.last().unwrap_or(&8)) + 0.3;
        let x_fmt = |v: &f64| {
            if (v - v.round()).abs() < 1e-6 {
                format!("{:.0}", v.exp2())
            } else {
                String::new()
            }
        };
        let pieces = match kind {
            DecompositionKind::HertelMehlhorn => "Hertel–Mehlhorn pieces",
            DecompositionKind::Triangles => "triangle pieces",
        };

        // Left: µs per pair (log y).
        let us: Vec<f64> = rows
            .iter()
            .filter(|r| r.kind == kind)
            .map(|r| r.ns_per_query / 1e3)
            .filter(|v| v.is_finite() && *v > 0.0)
            .collect();
        let y_lo = us.iter().cloned().fold(f64::INFINITY, f64::min).max(1e-3) / 2.0;
        let y_hi = us.iter().cloned().fold(0.0, f64::max).max(y_lo * 4.0) * 6.0;
        let mut b = ChartBuilder::on(&left);
        b.margin(16);
        if text {
            b.caption(
                format!("Mean resolution time per pair ({pieces})"),
                ("sans-serif", 24),
            )
            .x_label_area_size(50)
            .y_label_area_size(70);
        }
        let mut chart = b
            .build_cartesian_2d(x_lo..x_hi, (y_lo..y_hi).log_scale())
            .map_err(err)?;
        if text {
            chart
                .configure_mesh()
                .x_desc("vertices per polygon, n")
                .y_desc("µs per pair (log)")
                .x_labels(sizes.len() * 2 + 1)
                .x_label_formatter(&x_fmt)
                .y_label_formatter(&|v| format!("{v}"))
                .label_style(("sans-serif", 18))
                .axis_desc_style(("sans-serif", 20))
                .draw()
                .map_err(err)?;
        } else {
            chart
                .plotting_area()
                .draw(&Rectangle::new(
                    [(x_lo, y_lo), (x_hi, y_hi)],
                    BLACK.stroke_width(1),
                ))
                .map_err(err)?;
        }
        for scenario in Scenario::ALL {
            for m in TIMED {
                let pts: Vec<(f64, f64)> = sizes
                    .iter()
                    .map(|&n| (lg(n), find_ns(rows, kind, scenario, n, m) / 1e3))
                    .filter(|p| p.1.is_finite() && p.1 > 0.0)
                    .collect();
                let c = colour(m);
                let solid = scenario == Scenario::NonconvexNonconvex;
                let style = if solid {
                    c.stroke_width(3)
                } else {
                    c.mix(0.5).stroke_width(2)
                };
                let series = chart
                    .draw_series(LineSeries::new(pts.clone(), style))
                    .map_err(err)?;
                if text {
                    let name = format!(
                        "{} ({})",
                        label(m),
                        if solid {
                            "B non-convex"
                        } else {
                            "B convex, faint"
                        }
                    );
                    series
                        .label(name)
                        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], style));
                }
                if solid {
                    chart
                        .draw_series(pts.iter().map(|&p| Circle::new(p, 5, c.filled())))
                        .map_err(err)?;
                } else {
                    chart
                        .draw_series(
                            pts.iter()
                                .map(|&p| TriangleMarker::new(p, 6, c.mix(0.5).filled())),
                        )
                        .map_err(err)?;
                }
            }
        }
        if text {
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperLeft)
                .background_style(WHITE.mix(0.9))
                .border_style(BLACK)
                .label_font(("sans-serif", 15))
                .draw()
                .map_err(err)?;
        }

        // Right: baseline time / paper time (log y), with the claimed bands.
        let mut ratio_pts: Vec<(Scenario, Method, Series)> = Vec::new();
        let mut r_lo: f64 = 0.5;
        let mut r_hi: f64 = 40.0;
        for scenario in Scenario::ALL {
            for m in [Method::SatDecomposed, Method::GjkEpaDecomposed] {
                let pts: Vec<(f64, f64)> = sizes
                    .iter()
                    .map(|&n| (lg(n), find_ratio(rows, kind, scenario, n, m)))
                    .filter(|p| p.1.is_finite() && p.1 > 0.0)
                    .collect();
                for p in &pts {
                    r_lo = r_lo.min(p.1 / 1.5);
                    r_hi = r_hi.max(p.1 * 4.0);
                }
                ratio_pts.push((scenario, m, pts));
            }
        }
        let mut b = ChartBuilder::on(&right);
        b.margin(16);
        if text {
            b.caption(
                format!("Speed-up of the paper's method ({pieces})"),
                ("sans-serif", 24),
            )
            .x_label_area_size(50)
            .y_label_area_size(60);
        }
        let mut chart = b
            .build_cartesian_2d(x_lo..x_hi, (r_lo..r_hi).log_scale())
            .map_err(err)?;
        if text {
            chart
                .configure_mesh()
                .x_desc("vertices per polygon, n")
                .y_desc("baseline time / paper time (log)")
                .x_labels(sizes.len() * 2 + 1)
                .x_label_formatter(&x_fmt)
                .y_label_formatter(&|v| format!("{v}"))
                .label_style(("sans-serif", 18))
                .axis_desc_style(("sans-serif", 20))
                .draw()
                .map_err(err)?;
        } else {
            chart
                .plotting_area()
                .draw(&Rectangle::new(
                    [(x_lo, r_lo), (x_hi, r_hi)],
                    BLACK.stroke_width(1),
                ))
                .map_err(err)?;
        }
        for (lo, hi, c) in [
            (3.0, 4.0, colour(Method::SatDecomposed)),
            (8.0, 10.0, colour(Method::GjkEpaDecomposed)),
        ] {
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(x_lo, lo), (x_hi, hi)],
                    c.mix(0.18).filled(),
                )))
                .map_err(err)?;
        }
        chart
            .draw_series(LineSeries::new(
                vec![(x_lo, 1.0), (x_hi, 1.0)],
                BLACK.stroke_width(1),
            ))
            .map_err(err)?;
        for (scenario, m, pts) in ratio_pts {
            let c = colour(m);
            let solid = scenario == Scenario::NonconvexNonconvex;
            let style = if solid {
                c.stroke_width(3)
            } else {
                c.mix(0.5).stroke_width(2)
            };
            let series = chart
                .draw_series(LineSeries::new(pts.clone(), style))
                .map_err(err)?;
            if text {
                let name = format!(
                    "{} / paper ({})",
                    if m == Method::SatDecomposed {
                        "SAT+decomp."
                    } else {
                        "GJK/EPA+decomp."
                    },
                    if solid {
                        "B non-convex"
                    } else {
                        "B convex, faint"
                    }
                );
                series
                    .label(name)
                    .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], style));
            }
            chart
                .draw_series(pts.iter().map(|&p| Circle::new(p, 4, c.filled())))
                .map_err(err)?;
        }
        if text {
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperRight)
                .background_style(WHITE.mix(0.9))
                .border_style(BLACK)
                .label_font(("sans-serif", 15))
                .draw()
                .map_err(err)?;
            let style = ("sans-serif", 15).into_font().color(&BLACK);
            chart
                .draw_series([
                    Text::new("claim vs SAT: 3–4×", (x_lo + 0.05, 3.9), style.clone()),
                    Text::new("claim vs GJK/EPA: 8–10×", (x_lo + 0.05, 9.8), style.clone()),
                    Text::new("parity", (x_lo + 0.05, 0.97), style),
                ])
                .map_err(err)?;
        }
        Ok(())
    }

    #[cfg(test)]
    mod tests {
        use super::*;
        use crate::polygons::TimingRow;
        use crate::test_util::Scratch;

        fn rows() -> Vec<TimingRow> {
            let mut v = Vec::new();
            for (kind, scenario) in KINDS
                .into_iter()
                .flat_map(|k| Scenario::ALL.map(|s| (k, s)))
            {
                for n in [8, 16, 32] {
                    for (k, m) in TIMED.into_iter().enumerate() {
                        v.push(TimingRow {
                            kind,
                            scenario,
                            n,
                            method: m,
                            ns_per_query: (n * n * (k + 1)) as f64,
                            ns_min: (n * n * (k + 1)) as f64,
                            ns_max: (n * n * (k + 1)) as f64,
                            ratio_to_paper: (k + 1) as f64,
                            pieces_a: 1.0,
                            pieces_b: 1.0,
                        });
                    }
                }
            }
            v
        }

        /// Without any font the figure is still drawn (no text), no panic.
        #[test]
        fn figure_without_font_draws_without_text() {
            let dir = Scratch::new("polygons-figure-without-font");
            let path = dir.join("fig.png");
            figure(&path, &rows(), None).unwrap();
            assert!(std::fs::metadata(&path).unwrap().len() > 1000);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::{Scratch, names};

    #[test]
    fn query_file_errors_name_file_line_and_element() {
        let dir = Scratch::new("polygons-query-errors");
        let p = dir.file(
            "bad_json.json",
            "{\"a\": [[0, 0], [1, 0],\n [1, 1]], \"b\": [[0, 0]",
        );
        let e = read_pair(&p).unwrap_err();
        assert!(matches!(e, PolygonsCliError::Json { line: 2, .. }), "{e}");
        let p = dir.file(
            "bowtie.json",
            r#"{"a": [[0, 0], [1, 1], [1, 0], [0, 1]], "b": [[0, 0], [1, 0], [0, 1]]}"#,
        );
        let msg = read_pair(&p).unwrap_err().to_string();
        assert!(
            msg.contains("bowtie.json") && msg.contains("\"a\"") && msg.contains("edges 0 and 2"),
            "{msg}"
        );
        let p = dir.file(
            "short.json",
            r#"{"a": [[0, 0], [1, 0], [0, 1]], "b": [[0, 0], [1, 0]]}"#,
        );
        let msg = read_pair(&p).unwrap_err().to_string();
        assert!(msg.contains("\"b\"") && msg.contains("2 vertices"), "{msg}");
        let p = dir.file(
            "huge.json",
            r#"{"a": [[0, 0], [1e999, 0], [0, 1]], "b": [[0, 0], [1, 0], [0, 1]]}"#,
        );
        assert!(matches!(
            read_pair(&p).unwrap_err(),
            PolygonsCliError::Json { .. }
        ));
        let missing = read_pair(Path::new("/nonexistent/pair.json")).unwrap_err();
        assert!(matches!(missing, PolygonsCliError::Read { .. }));
        let p = dir.file(
            "ok.json",
            r#"{"a": [[0, 0], [2, 0], [2, 2], [0, 2]], "b": [[1, 1], [3, 1], [3, 3], [1, 3]]}"#,
        );
        let pair = read_pair(&p).unwrap();
        assert_eq!(pair.relation(), Relation::BoundariesMeet);
    }

    /// Star polygons as in the fuzzing that found the uncapped oracle: `n`
    /// vertices at angles 2πi/n and radii in [3, 10], centred at `c`.
    fn star_json(n: usize, seed: u64) -> String {
        let mut rng = Rng::new(seed);
        let star = |c: [f64; 2], rng: &mut Rng| {
            (0..n)
                .map(|i| {
                    let a = std::f64::consts::TAU * i as f64 / n as f64;
                    let r = 10.0 * (1.0 - 0.7 * rng.unit());
                    format!("[{:?}, {:?}]", c[0] + r * a.cos(), c[1] + r * a.sin())
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        let a = star([0.0, 0.0], &mut rng);
        let b = star([3.0, 1.0], &mut rng);
        format!("{{\"a\": [{a}], \"b\": [{b}]}}")
    }

    #[test]
    fn query_skips_the_oracle_above_the_vertex_limit() {
        let dir = Scratch::new("polygons-oracle-limit");
        // The oracle ran uncapped: 128 vertices took 21 s, 4096 held 3.6 GB.
        let p = dir.file("star64.json", star_json(64, 1));
        let out = query(&p, ORACLE_MAX_VERTICES).unwrap();
        assert!(
            out.contains(
                "minimum translation of A (oracle): skipped, 64 vertices > \
                 --oracle-max-vertices 32"
            ),
            "{out}"
        );
        assert!(!out.contains("|t|/|t*|"), "{out}");
        assert_eq!(out.lines().count(), 3 + Method::ALL.len(), "{out}");
        // At or under the limit the oracle runs.
        let p = dir.file("star16.json", star_json(16, 1));
        let out = query(&p, 16).unwrap();
        assert!(
            out.contains("minimum translation of A (oracle): (") && out.contains("|t|/|t*|"),
            "{out}"
        );
        assert!(!out.contains("skipped"), "{out}");
    }

    #[test]
    fn query_files_with_too_many_vertices_are_refused() {
        let dir = Scratch::new("polygons-too-many-vertices");
        // The paper's method is cubic: 4096 vertices take about 50 s, and
        // nothing stopped a file of a million.
        let p = dir.file("star4097.json", star_json(MAX_VERTICES + 1, 1));
        let e = read_pair(&p).unwrap_err();
        std::fs::remove_file(&p).unwrap();
        assert!(
            matches!(
                e,
                PolygonsCliError::TooManyVertices {
                    which: "a",
                    count: 4097,
                    max: 4096,
                    ..
                }
            ),
            "{e}"
        );
        let m = e.to_string();
        assert!(
            m.contains("star4097.json") && m.contains("polygon \"a\" has 4097 vertices"),
            "{m}"
        );
        let p = dir.file("star4096.json", star_json(MAX_VERTICES, 1));
        let pair = read_pair(&p);
        std::fs::remove_file(&p).unwrap();
        assert_eq!(pair.unwrap().a().len(), MAX_VERTICES);
    }

    #[test]
    fn coordinates_parry_cannot_handle_are_refused_with_the_edge() {
        let dir = Scratch::new("polygons-far-and-tiny");
        // Was "polygon A: parry2d rejected convex piece 0 (3 vertices)".
        let p = dir.file(
            "far.json",
            r#"{"a": [[-1e308, -1e308], [1e308, -1e308], [0, 1e308]], "b": [[0, 0], [1, 0], [0, 1]]}"#,
        );
        let m = read_pair(&p).unwrap_err().to_string();
        assert!(
            m.contains("far.json: polygon A: ")
                && m.contains("the edge from (-1e308, -1e308) to (1e308, -1e308) is too long"),
            "{m}"
        );
        let p = dir.file(
            "tiny.json",
            r#"{"a": [[0, 0], [1, 0], [0, 1]], "b": [[0, 0], [5e-324, 0], [0, 5e-324]]}"#,
        );
        let m = read_pair(&p).unwrap_err().to_string();
        assert!(
            m.contains("tiny.json: polygon B: ") && m.contains("is too short"),
            "{m}"
        );
    }

    /// The smallest report: one size, one pair, one short sample.
    fn tiny_report(out: PathBuf) -> ReportArgs {
        ReportArgs {
            out,
            seed: 1,
            sizes: vec![8],
            accuracy_pairs: 1,
            oracle_max_vertices: 8,
            timing_pairs: 1,
            sample_seconds: 0.001,
            samples: 1,
            spikiness: 0.5,
        }
    }

    #[test]
    fn a_report_is_written_all_or_nothing() {
        let dir = Scratch::new("polygons-report");
        // A new --out (and the folder above it) appears with the files.
        let out = dir.join("new").join("out");
        report(tiny_report(out.clone())).unwrap();
        let files = [
            "README.md",
            "accuracy.csv",
            "fig3_resolution_time.png",
            "timing.csv",
        ];
        assert_eq!(names(&out), files);
        // Into an existing folder: the files are replaced, others kept.
        std::fs::write(out.join("mine.txt"), "mine").unwrap();
        std::fs::write(out.join("timing.csv"), "old").unwrap();
        report(tiny_report(out.clone())).unwrap();
        assert_eq!(names(&out).len(), files.len() + 1);
        assert_ne!(
            std::fs::read_to_string(out.join("timing.csv")).unwrap(),
            "old"
        );
        // A folder in the way of README.md: the run fails naming it and
        // changes nothing (the CSVs were written into --out before it).
        std::fs::remove_file(out.join("README.md")).unwrap();
        std::fs::create_dir(out.join("README.md")).unwrap();
        std::fs::write(out.join("timing.csv"), "old").unwrap();
        let e = report(tiny_report(out.clone())).unwrap_err().to_string();
        assert!(e.contains("README.md"), "{e}");
        assert_eq!(
            std::fs::read_to_string(out.join("timing.csv")).unwrap(),
            "old"
        );
        assert_eq!(
            names(&out),
            [
                "README.md",
                "accuracy.csv",
                "fig3_resolution_time.png",
                "mine.txt",
                "timing.csv"
            ]
        );
        // A failed run into a new folder leaves none (it used to leave an
        // empty one): a file where its parent folder belongs.
        std::fs::write(dir.join("file"), "").unwrap();
        assert!(report(tiny_report(dir.join("file").join("out"))).is_err());
        assert_eq!(names(&dir), ["file", "new"]);
    }

    #[test]
    fn report_arguments_are_checked() {
        let ok = ReportArgs {
            out: PathBuf::from("x"),
            seed: 1,
            sizes: vec![8],
            accuracy_pairs: 1,
            oracle_max_vertices: 8,
            timing_pairs: 1,
            sample_seconds: 0.01,
            samples: 1,
            spikiness: 0.5,
        };
        assert!(check_args(&ok).is_ok());
        assert!(
            check_args(&ReportArgs {
                sizes: vec![2],
                ..ok.clone()
            })
            .is_err()
        );
        assert!(
            check_args(&ReportArgs {
                spikiness: 1.0,
                ..ok.clone()
            })
            .is_err()
        );
        assert!(
            check_args(&ReportArgs {
                sample_seconds: f64::NAN,
                ..ok.clone()
            })
            .is_err()
        );
        assert!(
            check_args(&ReportArgs {
                samples: 0,
                ..ok.clone()
            })
            .is_err()
        );
        // Upper limits: counts and times that would never finish or
        // exhaust memory.
        let refused = |a: ReportArgs| check_args(&a).unwrap_err().to_string();
        for (name, a) in [
            (
                "accuracy-pairs",
                ReportArgs {
                    accuracy_pairs: MAX_ACCURACY_PAIRS + 1,
                    ..ok.clone()
                },
            ),
            (
                "samples",
                ReportArgs {
                    samples: usize::MAX,
                    ..ok.clone()
                },
            ),
            (
                "sample-seconds",
                ReportArgs {
                    sample_seconds: 1e300,
                    ..ok.clone()
                },
            ),
            (
                "timing-pairs",
                ReportArgs {
                    timing_pairs: usize::MAX,
                    ..ok.clone()
                },
            ),
            (
                "timing-pairs",
                ReportArgs {
                    sizes: vec![8, MAX_VERTICES],
                    timing_pairs: MAX_TIMING_VERTICES / MAX_VERTICES + 1,
                    ..ok.clone()
                },
            ),
        ] {
            let e = refused(a);
            assert!(e.starts_with(&format!("invalid --{name}: ")), "{e}");
        }
        for a in [
            ReportArgs {
                accuracy_pairs: MAX_ACCURACY_PAIRS,
                samples: MAX_SAMPLES,
                sample_seconds: MAX_SAMPLE_SECONDS,
                ..ok.clone()
            },
            ReportArgs {
                sizes: vec![MAX_VERTICES],
                timing_pairs: MAX_TIMING_VERTICES / MAX_VERTICES,
                ..ok.clone()
            },
        ] {
            assert!(check_args(&a).is_ok());
        }
    }
}
