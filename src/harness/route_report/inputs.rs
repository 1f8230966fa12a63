//! The inputs of a route flight (Yu, Shen & Chang 2000, §3): the terrain,
//! the object and the routes, read from files or generated (the demo), and
//! the flights, timed.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::tin_contact::route::scenario::{Scenario, demo};
use crate::tin_contact::route::{
    Flight, FlightOptions, Heading, HeightGridSpec, MIN_TURN_STEP_DEG, Route, Tin, fly,
};

use super::error::{RouteReportError, argument};
use super::text::flight_summary;

/// What to fly: the command line's options (all but `--out`).
#[derive(Debug, Clone)]
pub struct RouteRequest {
    /// Fly the built-in demonstration ([`crate::tin_contact::route::scenario::demo`])
    /// instead of files: terrain, aircraft and two routes generated in
    /// code, with their own heading, speed and turn step.
    pub demo: bool,
    /// Terrain mesh (`.obj` or `.ply`).
    pub terrain: Option<PathBuf>,
    /// Terrain height grid (text: `grid ROWS COLS X0 Y0 DX DY`, then the
    /// heights row by row).
    pub grid: Option<PathBuf>,
    /// Object mesh (`.obj` or `.ply`) in its own frame: +x forward, +z up,
    /// the origin follows the route.
    pub object: Option<PathBuf>,
    /// Route: a file (`x y z [t]` per line) or inline `"x,y,z;x,y,z;…"`.
    /// Not a `String`: a file's path need not be UTF-8 (an inline route is).
    pub route: Option<OsString>,
    /// Heading: `follow` (along each segment, turning at waypoints) or a
    /// fixed yaw in degrees.
    pub heading: String,
    /// Largest heading change of one turn sub-step, in degrees (0.01 to
    /// 180).
    pub turn_step: f64,
    /// Speed (length per time unit) when the route gives no times.
    pub speed: f64,
}

impl RouteRequest {
    /// The input files named (a route given inline is none): the report's
    /// folder must not hold them.
    pub(super) fn files(&self) -> Vec<&Path> {
        let route_file = self.route.as_deref().map(Path::new).filter(|p| p.is_file());
        let files = [
            self.terrain.as_deref(),
            self.grid.as_deref(),
            self.object.as_deref(),
            route_file,
        ];
        files.into_iter().flatten().collect()
    }
}

/// What is flown, and where it came from (for the report).
pub struct Inputs {
    pub(super) scenario: Option<Scenario>,
    pub(super) terrain: Tin,
    pub(super) terrain_source: String,
    pub(super) object: Tin,
    pub(super) object_source: String,
    pub(super) routes: Vec<(String, Route, String)>,
    pub(super) options: FlightOptions,
}

/// `follow`, or a fixed yaw in degrees.
fn parse_heading(s: &str) -> Result<Heading, RouteReportError> {
    if s.eq_ignore_ascii_case("follow") {
        return Ok(Heading::FollowRoute);
    }
    let deg: f64 = s
        .parse()
        .map_err(|_| argument("heading", format!("`{s}` is neither `follow` nor degrees")))?;
    if !deg.is_finite() {
        return Err(argument("heading", format!("{deg} is not finite")));
    }
    Ok(Heading::Fixed(deg.to_radians()))
}

impl Inputs {
    /// Reads (or, for the demo, generates) what `request` asks to fly, checking
    /// every value.
    pub fn load(args: &RouteRequest) -> Result<Inputs, RouteReportError> {
        if args.demo {
            let sc = demo()?;
            return Ok(Inputs {
                terrain: sc.terrain.clone(),
                terrain_source: format!(
                    "generated {} × {} height grid, step {} m (`terrain.grid`)",
                    sc.grid.rows, sc.grid.cols, sc.grid.step[0]
                ),
                object: sc.object.clone(),
                object_source: "generated demo aircraft (`aircraft.obj`)".into(),
                routes: sc
                    .routes
                    .iter()
                    .map(|(n, r)| (n.clone(), r.clone(), format!("generated (`{n}.route`)")))
                    .collect(),
                options: sc.options,
                scenario: Some(sc),
            });
        }
        let (terrain, terrain_source) = match (&args.terrain, &args.grid) {
            (Some(p), None) => (Tin::read("terrain", p)?, format!("mesh `{}`", p.display())),
            (None, Some(p)) => {
                let spec = HeightGridSpec::read(p)?;
                (
                    spec.to_tin(p)?,
                    format!(
                        "height grid `{}` ({} × {} samples)",
                        p.display(),
                        spec.rows,
                        spec.cols
                    ),
                )
            }
            _ => {
                return Err(argument(
                    "terrain",
                    "give --terrain MESH or --grid FILE (or --scenario demo)",
                ));
            }
        };
        let object_path = args
            .object
            .as_ref()
            .ok_or_else(|| argument("object", "give the object mesh (or --scenario demo)"))?;
        let object = Tin::read("object", object_path)?;
        let route_arg = args.route.as_ref().ok_or_else(|| {
            argument(
                "route",
                "give a route file or an inline route (or --scenario demo)",
            )
        })?;
        let path = Path::new(route_arg);
        // A file's path is shown with U+FFFD for bytes that are not UTF-8
        // (as the terrain's and the object's), in the report too.
        let (route, source) = if path.is_file() {
            (
                Route::read(path, args.speed)?,
                format!("file `{}`", path.display()),
            )
        } else if let Some(inline) = route_arg.to_str().filter(|r| r.contains(',')) {
            (
                Route::parse_inline(inline, args.speed)?,
                format!("inline `{inline}`"),
            )
        } else {
            return Err(argument(
                "route",
                format!(
                    "`{}` is not a file, nor an inline route `x,y,z;x,y,z;…`",
                    path.display()
                ),
            ));
        };
        let name = if path.is_file() {
            path.file_stem()
                .map_or("route".into(), |s| s.to_string_lossy().into_owned())
        } else {
            "route".into()
        };
        if !(args.turn_step >= MIN_TURN_STEP_DEG && args.turn_step <= 180.0) {
            return Err(argument(
                "turn-step",
                format!(
                    "{:?} is not in [{MIN_TURN_STEP_DEG}, 180] (degrees; a smaller step costs a CCD step each and gains nothing)",
                    args.turn_step
                ),
            ));
        }
        Ok(Inputs {
            scenario: None,
            terrain,
            terrain_source,
            object: object.clone(),
            object_source: format!("mesh `{}`", object_path.display()),
            routes: vec![(name, route, source)],
            options: FlightOptions {
                heading: parse_heading(&args.heading)?,
                max_turn_step: args.turn_step.to_radians(),
            },
        })
    }

    /// The number of routes.
    pub fn routes(&self) -> usize {
        self.routes.len()
    }

    /// Flies route `k` (in the order given; the demo has two), timed: the
    /// flight and its wall-clock seconds.
    pub fn fly(&self, k: usize) -> Result<(Flight, f64), RouteReportError> {
        let (_, route, _) = &self.routes[k];
        let start = Instant::now();
        let flight = fly(&self.terrain, &self.object, route, &self.options)?;
        Ok((flight, start.elapsed().as_secs_f64()))
    }

    /// What `ccdlab route` prints of the flight of route `k` ([`flight_summary`]).
    pub fn flight_summary(&self, k: usize, flight: &Flight) -> String {
        flight_summary(
            &self.routes[k].0,
            flight,
            &self.object.mesh,
            &self.terrain.mesh,
        )
    }
}
