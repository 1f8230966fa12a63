//! `ccdlab`: the command-line front end of the library.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod polygons;

/// Continuous collision detection for deforming triangle meshes.
#[derive(Debug, Parser)]
#[command(name = "ccdlab", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print where ccdlab looks for the data sets, and what it finds there.
    Data,
    /// 2D non-convex polygons: the paper's SAT without decomposition vs
    /// SAT and GJK/EPA with decomposition (report, single queries).
    Polygons(polygons::PolygonsArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result: Result<(), Box<dyn std::error::Error>> = match cli.command {
        Command::Data => {
            println!(
                "CCDLAB_DATA: {}",
                std::env::var("CCDLAB_DATA").unwrap_or_default()
            );
            Ok(())
        }
        Command::Polygons(args) => polygons::run(args).map_err(Into::into),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            let mut source = e.source();
            while let Some(s) = source {
                eprintln!("  caused by: {s}");
                source = s.source();
            }
            ExitCode::FAILURE
        }
    }
}
