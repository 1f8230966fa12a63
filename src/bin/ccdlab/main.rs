//! `ccdlab`: the command-line front end of the library.

mod discrete;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

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
    /// Discrete detectors (sphere–sphere, sphere–box, cylinder–terrain) vs
    /// parry3d-f64: agreement, timing, figures → reports/discrete.
    Discrete(discrete::Args),
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
        Command::Discrete(args) => discrete::run(args),
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
