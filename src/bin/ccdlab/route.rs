//! `ccdlab route`: the application of Yu, Shen & Chang (2000), §3 — a TIN
//! object (an aircraft) flown along a planned route over TIN terrain; prints
//! where along the route it first touches and the contact forms, and with
//! `--out DIR` writes `README.md` (stamped), `result.json` and `route.png`
//! there, all or nothing: into a temporary sibling folder that replaces
//! `DIR` only when everything is written (nothing is written when an input
//! is bad). `DIR` must be absent, empty or a report of this command (its
//! `README.md` starts with the report's title), and hold none of the inputs.
//!
//! `--scenario demo` flies the shipped demonstration
//! ([`ccdlab::tin_contact::route::scenario`]) and also writes its inputs
//! (`terrain.grid`, `aircraft.obj`, one `.route` per route) so that the same
//! flight can be rerun from files.
//!
//! The flights and the report are the library's
//! ([`ccdlab::harness::route_report`]); this module reads the options and
//! prints.

use std::path::PathBuf;

use ccdlab::harness::route_report::{
    Inputs, RouteReportError, RouteRequest, check_out_folder, write_report,
};

/// Arguments of `ccdlab route`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A built-in scenario instead of files: `demo` (terrain, aircraft and
    /// two routes generated in code, with their own heading, speed and turn
    /// step, so `--heading`, `--speed` and `--turn-step` are refused with
    /// it).
    #[arg(long, value_parser = ["demo"], conflicts_with_all = ["terrain", "grid", "object", "route"])]
    pub scenario: Option<String>,
    /// Terrain mesh (`.obj` or `.ply`).
    #[arg(long, conflicts_with = "grid")]
    pub terrain: Option<PathBuf>,
    /// Terrain height grid (text: `grid ROWS COLS X0 Y0 DX DY`, then the
    /// heights row by row).
    #[arg(long)]
    pub grid: Option<PathBuf>,
    /// Object mesh (`.obj` or `.ply`) in its own frame: +x forward, +z up,
    /// the origin follows the route.
    #[arg(long)]
    pub object: Option<PathBuf>,
    /// Route: a file (`x y z [t]` per line) or inline `"x,y,z;x,y,z;…"`.
    #[arg(long)]
    pub route: Option<std::ffi::OsString>,
    /// Heading: `follow` (along each segment, turning at waypoints) or a
    /// fixed yaw in degrees.
    #[arg(long, default_value = "0", conflicts_with = "scenario")]
    pub heading: String,
    /// Largest heading change of one turn sub-step, in degrees (0.01 to
    /// 180).
    #[arg(long, default_value_t = 5.0, conflicts_with = "scenario")]
    pub turn_step: f64,
    /// Speed (length per time unit) when the route gives no times.
    #[arg(long, default_value_t = 1.0, conflicts_with = "scenario")]
    pub speed: f64,
    /// Output folder for README.md, result.json and route.png (with
    /// `--scenario`, also its inputs: terrain.grid, aircraft.obj and one
    /// `.route` per route): absent, empty, or a report of this command
    /// (replaced as a whole).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Runs `ccdlab route …`.
pub fn run(args: Args) -> Result<(), RouteReportError> {
    let request = RouteRequest {
        demo: args.scenario.is_some(),
        terrain: args.terrain,
        grid: args.grid,
        object: args.object,
        route: args.route,
        heading: args.heading,
        turn_step: args.turn_step,
        speed: args.speed,
    };
    let inputs = Inputs::load(&request)?;
    if let Some(out) = &args.out {
        check_out_folder(out, &request)?;
    }
    let threads = rayon::current_num_threads();
    let mut flights = Vec::new();
    for k in 0..inputs.routes() {
        let (flight, seconds) = inputs.fly(k)?;
        print!("{}", inputs.flight_summary(k, &flight));
        flights.push((flight, seconds));
    }
    if let Some(out) = &args.out {
        let [readme, json, png] = write_report(out, &inputs, &flights, threads)?;
        println!(
            "wrote {}, {}, {}",
            readme.display(),
            json.display(),
            png.display()
        );
    }
    Ok(())
}
