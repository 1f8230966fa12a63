//! The pipeline options that `ccdlab step` and `ccdlab replay` share.

use std::error::Error;

use ccdlab::bounding_volume::KdopAxes;
use ccdlab::filter::FilterSet;
use ccdlab::narrow_phase::{Solver, validate_separation};
use ccdlab::pipeline::{PipelineConfig, PipelineError};

use crate::choices::{SelfCollision, Switch, TimeAlignedArg};

/// The most worker threads `--threads` accepts: far more than the outer
/// loops can keep busy, and few enough that starting them stays cheap
/// (docs/notes/pipeline.md).
pub(crate) const MAX_THREADS: usize = 1024;

/// How the pipeline runs: bounding volume, filters, solver, threads.
#[derive(Debug, clap::Args)]
pub struct PipelineArgs {
    /// Bounding volume of the BVH: k = 6, 8, 14, 18 or 26.
    #[arg(long, default_value = "26")]
    pub k: KdopAxes,
    /// Low-level filters (SLPF is left out when `--time-aligned auto`
    /// prunes).
    #[arg(long, default_value_t = FilterSet::SlpfDnf, value_parser = crate::choices::filters())]
    pub filters: FilterSet,
    /// Narrow-phase solver: `exact` is certified (no false negative or
    /// positive); `cubic` is the float baseline of Provot 1997.
    #[arg(long, default_value_t = Solver::Exact, value_parser = crate::choices::solver())]
    pub solver: Solver,
    /// The coplanar-window filter after the paper's filters (not part of
    /// the paper's pipeline; its culls are counted apart).
    #[arg(long, value_enum, default_value_t = Switch::On)]
    pub window: Switch,
    /// Time-aligned pruning: drop the BVH's leaf pairs and feature pairs
    /// that their k-DOPs at t = 0 and t = 1 prove apart (SLPF's theorem on
    /// all the k-DOP's slabs; not part of the paper's pipeline: fewer
    /// candidates, the same collisions).
    #[arg(long, value_enum, default_value_t = TimeAlignedArg::Auto)]
    pub time_aligned: TimeAlignedArg,
    /// Minimum separation d ≥ 0: features that come within Euclidean
    /// distance d during the step collide (0: contact). At d > 0 the BVH's
    /// k-DOPs grow by d/2, DNF and the window filter keep a margin of d, and
    /// SLPF is off (proven for contact only).
    #[arg(long, default_value_t = 0.0, allow_hyphen_values = true, value_parser = distance)]
    pub min_distance: f64,
    /// Which pairs are tested. The library and Python also take bodies
    /// given per vertex.
    #[arg(long, value_enum, default_value_t = SelfCollision::On)]
    pub self_collision: SelfCollision,
    /// Worker threads, 1 to 1024 (default: RAYON_NUM_THREADS when set, else all logical CPUs).
    #[arg(long, value_parser = crate::limits::whole::<usize>(1, MAX_THREADS as u64))]
    pub threads: Option<usize>,
}

impl PipelineArgs {
    /// The pipeline configuration these options choose, checked
    /// ([`PipelineConfig::check`]) before any frame is read; an error names
    /// the options.
    pub fn config(&self, collect_pairs: bool) -> Result<PipelineConfig, String> {
        let config = PipelineConfig {
            axes: self.k,
            filters: self.filters,
            solver: self.solver,
            window: self.window.is_on(),
            time_aligned: self.time_aligned.into(),
            collect_pairs,
            min_distance: self.min_distance,
            bodies: self.self_collision.bodies(),
            ..PipelineConfig::default()
        };
        let d = self.min_distance;
        config.check().map_err(|e| match e {
            PipelineError::NoSeparation(solver) => format!(
                "--solver {solver} with --min-distance {d:?}: the {solver} solver has no minimum \
                 separation (it decides contact only); use --solver {}",
                ccdlab::narrow_phase::min_distance_solvers()
            ),
            PipelineError::MinDistance(e) => format!("--min-distance {d:?}: {e}"),
            e => e.to_string(),
        })?;
        Ok(config)
    }

    /// A rayon pool of `--threads` workers (all logical CPUs by default).
    pub fn thread_pool(&self) -> Result<rayon::ThreadPool, Box<dyn Error>> {
        thread_pool(self.threads)
    }
}

/// A rayon pool of `threads` workers (`--threads`; all logical CPUs for
/// `None`).
pub fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool, Box<dyn Error>> {
    if let Some(n) = threads
        && !(1..=MAX_THREADS).contains(&n)
    {
        return Err(format!("--threads {n}: must be 1 to {MAX_THREADS}").into());
    }
    let mut b = rayon::ThreadPoolBuilder::new();
    if let Some(n) = threads {
        b = b.num_threads(n);
    }
    // The system may refuse threads (a memory or process limit): say which
    // option asked for them.
    b.build().map_err(|e| {
        match threads {
            Some(n) => format!("--threads {n}: cannot start the worker threads: {e}"),
            None => format!(
                "cannot start a worker thread per logical CPU (fewer with --threads N): {e}"
            ),
        }
        .into()
    })
}

/// `RAYON_NUM_THREADS` checked as `--threads` is (every pool without
/// `--threads`, the global one included, takes that many workers): a value
/// above [`MAX_THREADS`] is refused, and so is one that is no count, which
/// rayon would ignore silently. `0` means all logical CPUs, as in rayon;
/// an empty value counts as unset.
pub fn check_rayon_threads() -> Result<(), String> {
    let Some(value) = std::env::var_os("RAYON_NUM_THREADS") else {
        return Ok(());
    };
    if value.is_empty() {
        return Ok(());
    }
    match value.to_str().and_then(|v| v.parse::<usize>().ok()) {
        Some(n) if n > MAX_THREADS => Err(format!(
            "RAYON_NUM_THREADS={n}: at most {MAX_THREADS} worker threads (unset it, or give \
             --threads N)"
        )),
        Some(_) => Ok(()),
        None => {
            // Quoted, and cut short: the value may be anything.
            let shown: String = value.to_string_lossy().chars().take(32).collect();
            Err(format!(
                "RAYON_NUM_THREADS={shown:?}: not a thread count (0 to {MAX_THREADS}; 0 for all \
                 logical CPUs); unset it, or give --threads N"
            ))
        }
    }
}

/// A finite distance `≥ 0` (`--min-distance` of `step`, `replay`,
/// `queries` and `sample-check`).
pub fn distance(s: &str) -> Result<f64, String> {
    validate_separation(parse_distance(s)?).map_err(|e| e.to_string())
}

/// `s` as a double, refusing a nonzero number so small that it rounds to
/// `0`: a distance of `0` means contact, which such an argument does not ask
/// for.
pub fn parse_distance(s: &str) -> Result<f64, String> {
    let d: f64 = s.parse().map_err(|e| format!("{e}"))?;
    let mantissa = s.split(['e', 'E']).next().unwrap_or(s);
    if d == 0.0 && mantissa.bytes().any(|b| matches!(b, b'1'..=b'9')) {
        if s.trim_start().starts_with('-') {
            return Err(format!("{s} is negative; a distance is at least 0"));
        }
        return Err(format!(
            "{s} is below the smallest positive double (about 4.9e-324) and would round to 0, \
             which means contact; give 0 for contact, or a distance of at least 5e-324"
        ));
    }
    Ok(d)
}

/// A step's error for a command that lists its pairs: the library's advice
/// for [`PipelineError::TooManyPairs`] (count without listing) may not be
/// this command's to take, so `instead` says how this user counts them.
pub fn listing_error(e: PipelineError, instead: &str) -> Box<dyn Error> {
    match e {
        PipelineError::TooManyPairs { limit } => {
            format!("more than {limit} pairs to list (the bound on a step's lists); {instead}")
                .into()
        }
        e => e.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pair limit's advice names the command that counts; any other
    /// error is passed on as it is.
    #[test]
    fn a_listing_command_names_the_one_that_counts() {
        let e =
            listing_error(PipelineError::TooManyPairs { limit: 7 }, "count instead").to_string();
        assert!(
            e.contains("more than 7 pairs") && e.ends_with("; count instead"),
            "{e}"
        );
        assert!(!e.contains("counts only"), "{e}");
        let other = listing_error(PipelineError::Cancelled, "count instead").to_string();
        assert_eq!(other, PipelineError::Cancelled.to_string());
    }
}
