//! `ccdlab discrete`: the discrete detectors (Trushin 2015 sphere–sphere and
//! sphere–box; Strashnov & Torgashev 2020 cylinder–terrain) against
//! parry3d-f64 on seeded random configurations and the scripted scenes;
//! writes `results.json`, `summary.md` and figures to the output folder.
//!
//! The work is the library's ([`ccdlab::harness::discrete_report`]); this
//! module reads the options and reports.

use std::path::PathBuf;

use ccdlab::harness::discrete_report::{
    MAX_FRAMES, MAX_PAIRS, MAX_TERRAIN_QUERIES, MAX_TERRAINS, ReportConfig, write_report,
};

/// Arguments of `ccdlab discrete`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Output folder (created if missing; written only when every file is
    /// ready, so a failed run leaves none behind).
    #[arg(long)]
    pub out: PathBuf,
    /// Seed of every random configuration.
    #[arg(long, default_value_t = 2020, value_parser = crate::limits::whole::<u64>(0, u64::MAX))]
    pub seed: u64,
    /// Random terrains (33×33 samples, 0.25 m step), 1 to 1000.
    #[arg(long, default_value_t = 20, value_parser = crate::limits::whole::<usize>(1, MAX_TERRAINS as u64))]
    pub terrains: usize,
    /// Random cylinders per terrain, at least 1; at most 100 000 queries in
    /// all (terrains × cylinders).
    #[arg(long, default_value_t = 200, value_parser = crate::limits::whole::<usize>(1, MAX_TERRAIN_QUERIES as u64))]
    pub cylinders: usize,
    /// Random sphere–sphere and sphere–box pairs (each), 1 to 1 000 000.
    #[arg(long, default_value_t = 20000, value_parser = crate::limits::whole::<usize>(1, MAX_PAIRS as u64))]
    pub pairs: usize,
    /// Frames of the wheel-over-hill path, 1 to 10 000.
    #[arg(long, default_value_t = 121, value_parser = crate::limits::whole::<usize>(1, MAX_FRAMES as u64))]
    pub frames: usize,
    /// Seconds of timing per sample (5 samples per measurement), in
    /// (0, 10].
    #[arg(long, default_value_t = 0.2)]
    pub time_per_sample: f64,
}

/// Runs the whole comparison and writes the report.
pub fn run(args: Args) -> Result<(), Box<dyn std::error::Error>> {
    if cfg!(debug_assertions) {
        eprintln!("warning: debug build; timings are meaningless (use --release)");
    }
    let config = ReportConfig {
        out: args.out,
        seed: args.seed,
        terrains: args.terrains,
        cylinders: args.cylinders,
        pairs: args.pairs,
        frames: args.frames,
        time_per_sample: args.time_per_sample,
    };
    let summary = write_report(&config, &mut |line| eprintln!("{line}"))?;
    eprintln!("wrote {}", config.out.display());
    let unexplained = summary.unexplained;
    if unexplained > 0 {
        return Err(format!("{unexplained} unexplained disagreements (see summary.md)").into());
    }
    Ok(())
}
