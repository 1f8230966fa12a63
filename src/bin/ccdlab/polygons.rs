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
//!
//! Both are the library's ([`ccdlab::harness::polygon_report`]); this module
//! reads the options and prints.

use std::path::PathBuf;

use ccdlab::harness::polygon_report::{
    ORACLE_MAX_VERTICES, PolygonReportError, ReportConfig, query, write_report,
};
use clap::{Args, Subcommand};

/// The largest `--oracle-max-vertices`: the minimum-translation oracle's
/// memory grows with the square of the vertex count (a few hundred MB here).
const ORACLE_LIMIT: usize = 1024;

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
        /// that the oracle was skipped. At most 1024 (its memory grows with
        /// the square of the vertex count, its time faster).
        #[arg(long, default_value_t = ORACLE_MAX_VERTICES,
              value_parser = crate::limits::whole::<usize>(0, ORACLE_LIMIT as u64))]
        oracle_max_vertices: usize,
    },
}

#[derive(Debug, Args)]
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
    /// Run the (slow) minimum-translation oracle up to this vertex count, at
    /// most 1024 (its memory grows with the square of the vertex count).
    #[arg(long, default_value_t = ORACLE_MAX_VERTICES,
          value_parser = crate::limits::whole::<usize>(0, ORACLE_LIMIT as u64))]
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

impl From<ReportArgs> for ReportConfig {
    fn from(a: ReportArgs) -> ReportConfig {
        ReportConfig {
            out: a.out,
            seed: a.seed,
            sizes: a.sizes,
            accuracy_pairs: a.accuracy_pairs,
            oracle_max_vertices: a.oracle_max_vertices,
            timing_pairs: a.timing_pairs,
            sample_seconds: a.sample_seconds,
            samples: a.samples,
            spikiness: a.spikiness,
        }
    }
}

/// Runs `ccdlab polygons …`.
pub fn run(args: PolygonsArgs) -> Result<(), PolygonReportError> {
    match args.command {
        PolygonsCommand::Report(r) => {
            let files = write_report(&r.into(), &mut |line| eprintln!("{line}"))?;
            println!(
                "wrote {}, {}, {}, {}",
                files.readme.display(),
                files.timing_csv.display(),
                files.accuracy_csv.display(),
                files.figure.display()
            );
            Ok(())
        }
        PolygonsCommand::Query {
            file,
            oracle_max_vertices,
        } => {
            print!("{}", query(&file, oracle_max_vertices)?);
            Ok(())
        }
    }
}
