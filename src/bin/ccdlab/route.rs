//! `ccdlab route`: the application of Yu, Shen & Chang (2000), §3 — a TIN
//! object (an aircraft) flown along a planned route over TIN terrain; prints
//! where along the route it first touches and the contact forms, and with
//! `--out DIR` writes `README.md` (stamped), `result.json` and `route.png`
//! there, all or nothing: into a temporary sibling folder that replaces
//! `DIR` only when everything is written (nothing is written when an input
//! is bad). `DIR` must be absent, empty or a report of this command (its
//! `README.md` starts with [`TITLE`]), and hold none of the inputs.
//!
//! `--scenario demo` flies the shipped demonstration
//! ([`ccdlab::contact::route::scenario`]) and also writes its inputs
//! (`terrain.grid`, `aircraft.obj`, one `.route` per route) so that the same
//! flight can be rerun from files.

mod plot;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use ccdlab::contact::route::scenario::{Scenario, demo};
use ccdlab::contact::route::{
    Flight, FlightOptions, Heading, HeightGridSpec, MIN_TURN_STEP_DEG, Route, RouteError, Tin, fly,
};
use ccdlab::contact::{MeshContact, Region};
use ccdlab::harness::output::{FolderError, replace_folder, write_atomic};
use ccdlab::harness::stamp::Stamp;
use ccdlab::math::Vec3;
use ccdlab::mesh::{Feature, TriMesh, write_obj};
use serde::Serialize;

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
    pub route: Option<String>,
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
    /// Output folder for README.md, result.json and route.png: absent,
    /// empty, or a report of this command (replaced as a whole).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Errors of `ccdlab route`.
#[derive(Debug, thiserror::Error)]
pub enum RouteCliError {
    /// A bad input file or value.
    #[error(transparent)]
    Input(#[from] RouteError),
    /// A bad command-line combination.
    #[error("invalid --{name}: {message}")]
    Argument {
        /// The option.
        name: &'static str,
        /// What is wrong.
        message: String,
    },
    /// An output file could not be written.
    #[error("cannot write {path}: {message}", path = path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The cause.
        message: String,
    },
    /// The `--out` folder holds something that is not a report of this
    /// command; choose another folder or empty it.
    #[error(
        "{path}: {why}, so it is not a report of `ccdlab route`; refusing to replace it: choose another --out",
        path = path.display()
    )]
    NotARouteReport {
        /// The folder.
        path: PathBuf,
        /// What is there.
        why: String,
    },
}

/// The first line of the README of every report (a folder whose README
/// starts with it may be replaced).
const TITLE: &str = "# TIN object along a planned route: first contact with TIN terrain";

fn argument(name: &'static str, message: impl Into<String>) -> RouteCliError {
    RouteCliError::Argument {
        name,
        message: message.into(),
    }
}

/// What is flown, and where it came from (for the report).
struct Inputs {
    scenario: Option<Scenario>,
    terrain: Tin,
    terrain_source: String,
    object: Tin,
    object_source: String,
    routes: Vec<(String, Route, String)>,
    options: FlightOptions,
}

fn parse_heading(s: &str) -> Result<Heading, RouteCliError> {
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

fn load(args: &Args) -> Result<Inputs, RouteCliError> {
    if args.scenario.is_some() {
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
    let (route, source) = if path.is_file() {
        (
            Route::read(path, args.speed)?,
            format!("file `{route_arg}`"),
        )
    } else if route_arg.contains(',') {
        (
            Route::parse_inline(route_arg, args.speed)?,
            format!("inline `{route_arg}`"),
        )
    } else {
        return Err(argument(
            "route",
            format!("`{route_arg}` is not a file, nor an inline route `x,y,z;x,y,z;…`"),
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

/// Runs `ccdlab route …`.
pub fn run(args: Args) -> Result<(), RouteCliError> {
    let inputs = load(&args)?;
    if let Some(out) = &args.out {
        check_out(out)?;
        let route_file = args.route.as_deref().map(Path::new).filter(|p| p.is_file());
        let files = [
            args.terrain.as_deref(),
            args.grid.as_deref(),
            args.object.as_deref(),
            route_file,
        ];
        check_inputs_outside(out, files.into_iter().flatten())?;
    }
    let threads = rayon::current_num_threads();
    let mut flights = Vec::new();
    for (name, route, _) in &inputs.routes {
        let start = Instant::now();
        let flight = fly(&inputs.terrain, &inputs.object, route, &inputs.options)?;
        let seconds = start.elapsed().as_secs_f64();
        print_summary(name, &flight, &inputs.object.mesh, &inputs.terrain.mesh);
        flights.push((flight, seconds));
    }
    if let Some(out) = &args.out {
        write_report(out, &inputs, &flights, threads)?;
    }
    Ok(())
}

fn feature_name(mesh: &TriMesh, f: Feature) -> String {
    match f {
        Feature::Vertex(v) => format!("vertex {v}"),
        Feature::Edge(e) => {
            let [a, b] = mesh.edges()[e as usize];
            format!("edge {e} (v{a}–v{b})")
        }
        Feature::Face(k) => {
            let [a, b, c] = mesh.faces()[k as usize];
            format!("face {k} (v{a}, v{b}, v{c})")
        }
    }
}

fn region_kind(r: &Region) -> &'static str {
    match r {
        Region::Point(_) => "point",
        Region::Segment(_) => "segment",
        Region::Polygon(_) => "polygon",
    }
}

fn fmt_point(p: &Vec3) -> String {
    format!("({:.3}, {:.3}, {:.3})", p.x, p.y, p.z)
}

fn print_summary(name: &str, flight: &Flight, object: &TriMesh, terrain: &TriMesh) {
    match &flight.first {
        None => println!(
            "{name}: no contact — the route clears the terrain ({} CCD steps)",
            flight.steps.len()
        ),
        Some(fc) => {
            println!(
                "{name}: first contact on segment {} ({}), parameter {:.12}, reference point {}, time {:.6}, distance {:.3}",
                fc.segment,
                if fc.turn {
                    "turning at its first waypoint"
                } else {
                    "in flight"
                },
                0.5 * (fc.parameter[0] + fc.parameter[1]),
                fmt_point(&fc.position),
                0.5 * (fc.time[0] + fc.time[1]),
                fc.distance
            );
            for c in &fc.contacts {
                println!(
                    "  ({}) {}: object {} / terrain {}, {} {}",
                    c.form.letter(),
                    c.form.name(),
                    feature_name(object, c.a),
                    feature_name(terrain, c.b),
                    region_kind(&c.region),
                    c.region
                        .points()
                        .iter()
                        .map(fmt_point)
                        .collect::<Vec<_>>()
                        .join(" ")
                );
            }
        }
    }
}

// ---------------------------------------------------------------- report

#[derive(Serialize)]
struct JsonContact {
    form: &'static str,
    letter: char,
    object_feature: String,
    terrain_feature: String,
    step_time: [f64; 2],
    region: &'static str,
    points: Vec<[f64; 3]>,
    contains: usize,
    face_pairs: usize,
    penetrating: bool,
    degenerate: bool,
}

#[derive(Serialize)]
struct JsonFirst {
    segment: usize,
    turn: bool,
    parameter: [f64; 2],
    time: [f64; 2],
    distance: f64,
    position: [f64; 3],
    heading_deg: f64,
    contacts: Vec<JsonContact>,
}

#[derive(Serialize)]
struct JsonRoute {
    name: String,
    source: String,
    waypoints: Vec<[f64; 4]>,
    ccd_steps: usize,
    steps_flown: usize,
    face_pairs_tested: usize,
    seconds: f64,
    first_contact: Option<JsonFirst>,
}

#[derive(Serialize)]
struct JsonReport {
    stamp: Stamp,
    terrain: String,
    terrain_faces: usize,
    object: String,
    object_faces: usize,
    heading: String,
    routes: Vec<JsonRoute>,
}

fn json_contact(c: &MeshContact, object: &TriMesh, terrain: &TriMesh) -> JsonContact {
    JsonContact {
        form: c.form.name(),
        letter: c.form.letter(),
        object_feature: feature_name(object, c.a),
        terrain_feature: feature_name(terrain, c.b),
        step_time: c.time_bounds,
        region: region_kind(&c.region),
        points: c.region.points().iter().map(|p| [p.x, p.y, p.z]).collect(),
        contains: c.contains.len(),
        face_pairs: c.face_pairs.len(),
        penetrating: c.penetrating,
        degenerate: c.degenerate,
    }
}

fn heading_text(o: &FlightOptions) -> String {
    match o.heading {
        Heading::FollowRoute => format!(
            "follows the route (turns at waypoints in sub-steps of at most {:.1}°)",
            o.max_turn_step.to_degrees()
        ),
        Heading::Fixed(h) => format!("fixed at {:.3}° (translation only)", h.to_degrees()),
    }
}

/// Refuses an `--out` that is not absent, an empty folder or a report of
/// this command (module doc).
fn check_out(out: &Path) -> Result<(), RouteCliError> {
    let not_ours = |why: &str| RouteCliError::NotARouteReport {
        path: out.to_path_buf(),
        why: why.to_string(),
    };
    match std::fs::symlink_metadata(out) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(write_error(out, e)),
        Ok(m) if !m.is_dir() => return Err(not_ours("exists and is not a folder")),
        Ok(_) => {}
    }
    let mut entries = std::fs::read_dir(out).map_err(|e| write_error(out, e))?;
    if entries.next().is_none() {
        return Ok(());
    }
    let readme = std::fs::read_to_string(out.join("README.md")).unwrap_or_default();
    if readme.lines().next() == Some(TITLE) {
        Ok(())
    } else {
        Err(not_ours(
            "the folder is not empty and has no README.md starting with the route report's title",
        ))
    }
}

/// Refuses an `--out` folder that holds one of the input `files`: the
/// report replaces the whole folder.
fn check_inputs_outside<'a>(
    out: &Path,
    files: impl IntoIterator<Item = &'a Path>,
) -> Result<(), RouteCliError> {
    let Ok(dir) = out.canonicalize() else {
        return Ok(());
    };
    for f in files {
        if f.canonicalize().is_ok_and(|f| f.starts_with(&dir)) {
            return Err(argument(
                "out",
                format!(
                    "`{}` holds the input `{}`, and the report replaces the whole folder; choose another folder",
                    out.display(),
                    f.display()
                ),
            ));
        }
    }
    Ok(())
}

fn write_error(path: &Path, e: std::io::Error) -> RouteCliError {
    RouteCliError::Write {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// Runs `write` on a new temporary folder beside `out`, then puts that
/// folder in place of `out` (an old report is replaced only now). On any
/// error the temporary folder is removed and `out` is left as it was.
fn publish(
    out: &Path,
    write: impl FnOnce(&Path) -> Result<(), RouteCliError>,
) -> Result<(), RouteCliError> {
    if out.file_name().is_none() {
        return Err(argument(
            "out",
            format!("`{}` does not name a folder", out.display()),
        ));
    }
    replace_folder(out, "route", |tmp| {
        write(tmp)?;
        // On disk before the swap.
        for entry in std::fs::read_dir(tmp).map_err(|e| write_error(out, e))? {
            let p = entry.map_err(|e| write_error(out, e))?.path();
            std::fs::File::open(&p)
                .and_then(|f| f.sync_all())
                .map_err(|e| write_error(&out.join(p.file_name().unwrap_or_default()), e))?;
        }
        Ok(())
    })
    .map_err(|e| match e {
        FolderError::Create(e) => RouteCliError::Write {
            path: out.to_path_buf(),
            message: format!("the report folder cannot be created there: {e}"),
        },
        FolderError::Write(e) => e,
        FolderError::Swap(e) => write_error(out, e),
    })
}

/// Writes `bytes` as `dir/name`; an error names `out/name`, the file the
/// user asked for.
fn write_file(dir: &Path, out: &Path, name: &str, bytes: &[u8]) -> Result<(), RouteCliError> {
    write_atomic(&dir.join(name), bytes).map_err(|e| write_error(&out.join(name), e))
}

fn route_text(route: &Route) -> String {
    let mut s = String::from("# x y z t\n");
    for (p, t) in route.points().iter().zip(route.times()) {
        let _ = writeln!(s, "{:?} {:?} {:?} {:?}", p.x, p.y, p.z, t);
    }
    s
}

fn write_report(
    out: &Path,
    inputs: &Inputs,
    flights: &[(Flight, f64)],
    threads: usize,
) -> Result<(), RouteCliError> {
    publish(out, |dir| write_files(dir, out, inputs, flights, threads))?;
    println!(
        "wrote {}, {}, {}",
        out.join("README.md").display(),
        out.join("result.json").display(),
        out.join("route.png").display()
    );
    Ok(())
}

/// Writes the report's files into `dir`, which will become `out`.
fn write_files(
    dir: &Path,
    out: &Path,
    inputs: &Inputs,
    flights: &[(Flight, f64)],
    threads: usize,
) -> Result<(), RouteCliError> {
    let stamp = Stamp::new(threads);
    let (om, tm) = (&inputs.object.mesh, &inputs.terrain.mesh);
    if let Some(sc) = &inputs.scenario {
        write_file(dir, out, "terrain.grid", sc.grid.to_text().as_bytes())?;
        write_obj(
            &dir.join("aircraft.obj"),
            &sc.object.positions,
            sc.object.mesh.faces(),
        )
        .map_err(|e| RouteCliError::Write {
            path: out.join("aircraft.obj"),
            message: e.to_string(),
        })?;
        for (name, route) in &sc.routes {
            write_file(
                dir,
                out,
                &format!("{name}.route"),
                route_text(route).as_bytes(),
            )?;
        }
    }
    let routes: Vec<JsonRoute> = inputs
        .routes
        .iter()
        .zip(flights)
        .map(|((name, route, source), (f, seconds))| JsonRoute {
            name: name.clone(),
            source: source.clone(),
            waypoints: route
                .points()
                .iter()
                .zip(route.times())
                .map(|(p, t)| [p.x, p.y, p.z, *t])
                .collect(),
            ccd_steps: f.steps.len(),
            steps_flown: f.stats.steps_flown,
            face_pairs_tested: f.stats.face_pairs_tested,
            seconds: *seconds,
            first_contact: f.first.as_ref().map(|fc| JsonFirst {
                segment: fc.segment,
                turn: fc.turn,
                parameter: fc.parameter,
                time: fc.time,
                distance: fc.distance,
                position: [fc.position.x, fc.position.y, fc.position.z],
                heading_deg: fc.heading.to_degrees(),
                contacts: fc
                    .contacts
                    .iter()
                    .map(|c| json_contact(c, om, tm))
                    .collect(),
            }),
        })
        .collect();
    let report = JsonReport {
        stamp: stamp.clone(),
        terrain: inputs.terrain_source.clone(),
        terrain_faces: tm.num_faces(),
        object: inputs.object_source.clone(),
        object_faces: om.num_faces(),
        heading: heading_text(&inputs.options),
        routes,
    };
    let json = serde_json::to_string_pretty(&report).map_err(|e| RouteCliError::Write {
        path: out.join("result.json"),
        message: e.to_string(),
    })?;
    write_file(dir, out, "result.json", json.as_bytes())?;

    let text = plot::register_font();
    let panels: Vec<plot::RoutePanel<'_>> = inputs
        .routes
        .iter()
        .zip(flights)
        .map(|((name, route, _), (flight, _))| plot::RoutePanel {
            name,
            route,
            flight,
            object: &inputs.object,
        })
        .collect();
    plot::figure(&dir.join("route.png"), &inputs.terrain, &panels, text).map_err(|e| {
        RouteCliError::Write {
            path: out.join("route.png"),
            message: e.to_string(),
        }
    })?;
    let md = markdown(inputs, flights, &stamp, out);
    write_file(dir, out, "README.md", md.as_bytes())
}

fn markdown(inputs: &Inputs, flights: &[(Flight, f64)], stamp: &Stamp, out: &Path) -> String {
    let (om, tm) = (&inputs.object.mesh, &inputs.terrain.mesh);
    let mut s = String::new();
    let _ = writeln!(s, "{TITLE}\n");
    let _ = writeln!(
        s,
        "The application of Yu, Shen & Chang (2000), §3 and Fig. 2: an aircraft flown along a planned route \
         over terrain, both triangle meshes; where along the route does it first touch, and how? \
         Each route segment is one continuous-collision step; contacts are classified exactly into the \
         paper's six forms, solved in its order (f) → (e) → (d) → (abc), lower forms contained in higher \
         ones marked and left out (`src/contact/`).\n"
    );
    let _ = writeln!(s, "{}\n", stamp.markdown_line());
    if inputs.scenario.is_some() {
        let _ = writeln!(
            s,
            "Regenerate: `cargo run --release -- route --scenario demo --out {}`\n",
            out.display()
        );
        let _ = writeln!(
            s,
            "The same flight from the files written here: `cargo run --release -- route --grid {0}/terrain.grid \
             --object {0}/aircraft.obj --route {0}/ridge-strike.route --heading follow`\n",
            out.display()
        );
    }
    let _ = writeln!(s, "| input | |\n|---|---|");
    let _ = writeln!(
        s,
        "| terrain | {} — {} vertices, {} triangles |",
        inputs.terrain_source,
        inputs.terrain.positions.len(),
        tm.num_faces()
    );
    let _ = writeln!(
        s,
        "| object | {} — {} vertices, {} triangles |",
        inputs.object_source,
        inputs.object.positions.len(),
        om.num_faces()
    );
    let _ = writeln!(s, "| heading | {} |", heading_text(&inputs.options));
    for (name, route, source) in &inputs.routes {
        let _ = writeln!(
            s,
            "| route `{name}` | {source}: {} waypoints, {:.1} long |",
            route.points().len(),
            route.distances().last().copied().unwrap_or(0.0)
        );
    }
    let _ = writeln!(s, "\n![route and first contact](route.png)\n");
    for ((name, route, _), (flight, seconds)) in inputs.routes.iter().zip(flights) {
        let _ = writeln!(s, "## `{name}`\n");
        match &flight.first {
            None => {
                let _ = writeln!(
                    s,
                    "**No contact**: the route clears the terrain ({} CCD steps, {} face pairs reached the narrow phase, {:.3} s).\n",
                    flight.steps.len(),
                    flight.stats.face_pairs_tested,
                    seconds
                );
            }
            Some(fc) => {
                let [a, b] = [route.points()[fc.segment], route.points()[fc.segment + 1]];
                let _ = writeln!(s, "| first contact | |\n|---|---|");
                let _ = writeln!(
                    s,
                    "| route segment | {} (waypoint {} {} → waypoint {} {}){} |",
                    fc.segment,
                    fc.segment,
                    fmt_point(&a),
                    fc.segment + 1,
                    fmt_point(&b),
                    if fc.turn {
                        ", while turning at its first waypoint"
                    } else {
                        ""
                    }
                );
                let _ = writeln!(
                    s,
                    "| parameter along the step | [{:.15}, {:.15}] (exact time bracketed) |",
                    fc.parameter[0], fc.parameter[1]
                );
                let _ = writeln!(s, "| reference point | {} |", fmt_point(&fc.position));
                let _ = writeln!(s, "| heading | {:.3}° |", fc.heading.to_degrees());
                let _ = writeln!(
                    s,
                    "| route time | {:.6} |\n| distance along the route | {:.3} |",
                    0.5 * (fc.time[0] + fc.time[1]),
                    fc.distance
                );
                let _ = writeln!(
                    s,
                    "| CCD steps flown | {} of {} ({} face pairs reached the narrow phase, {:.3} s) |\n",
                    flight.stats.steps_flown,
                    flight.steps.len(),
                    flight.stats.face_pairs_tested,
                    seconds
                );
                let _ = writeln!(
                    s,
                    "Contacts at the first time of impact (each reported once; *contains*: lower-form contacts \
                     at the same time marked and left out; *face pairs*: triangle pairs that found it):\n"
                );
                let _ = writeln!(
                    s,
                    "| form | object feature | terrain feature | region | contains | face pairs |\n|---|---|---|---|---|---|"
                );
                for c in &fc.contacts {
                    let _ = writeln!(
                        s,
                        "| ({}) {} | {} | {} | {} {} | {} | {} |",
                        c.form.letter(),
                        c.form.name(),
                        feature_name(om, c.a),
                        feature_name(tm, c.b),
                        region_kind(&c.region),
                        c.region
                            .points()
                            .iter()
                            .map(fmt_point)
                            .collect::<Vec<_>>()
                            .join(" "),
                        c.contains.len(),
                        c.face_pairs.len()
                    );
                }
                let _ = writeln!(s);
            }
        }
    }
    let _ = writeln!(
        s,
        "## How it is computed\n\n\
         - Motion: every vertex moves linearly within a step (a segment: pure translation; a turn sub-step: \
         each vertex on the chord of its arc). Broad phase: swept coordinate boxes (exact).\n\
         - Per triangle pair: the first time of impact `t*` (certified vertex–face / edge–edge solvers, exact \
         oracle where their brackets cannot separate the candidates), then exact incidence tests at the algebraic \
         `t*` give the smallest features of both triangles that contain the contact set: they name the form.\n\
         - Per mesh pair: contacts with the same features are one; visiting (f), (e), (d), (abc) in turn, a \
         contact whose features lie inside those of an accepted one at the same exact time is marked and left out \
         (the paper's Ψ, §3 step 5).\n\
         - Exact: time of impact, forms, marking. Floating point: region coordinates, and the route time, \
         distance and position derived from the bracket of `t*`.\n\
         - Checked by `tests/contact.rs` (six forms by hand, proptests against the brute-force oracle) and \
         `tests/route.rs` (first contact where expected; clear routes; bad input).\n"
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::{Scratch, names};

    fn demo_into(out: &Path) -> Args {
        Args {
            scenario: Some("demo".into()),
            terrain: None,
            grid: None,
            object: None,
            route: None,
            heading: "0".into(),
            turn_step: 5.0,
            speed: 1.0,
            out: Some(out.to_path_buf()),
        }
    }

    #[test]
    fn a_folder_that_is_not_a_route_report_is_refused_and_left_alone() {
        let d = Scratch::new("route-not-ours");
        let proj = d.join("userproj");
        std::fs::create_dir(&proj).unwrap();
        let precious = "# My precious project README\n";
        std::fs::write(proj.join("README.md"), precious).unwrap();
        let e = run(demo_into(&proj)).unwrap_err();
        assert!(
            matches!(&e, RouteCliError::NotARouteReport { path, .. } if *path == proj),
            "{e}"
        );
        assert!(e.to_string().contains("refusing to replace it"), "{e}");
        assert_eq!(
            std::fs::read_to_string(proj.join("README.md")).unwrap(),
            precious
        );
        assert_eq!(names(&proj), ["README.md"]);
        assert_eq!(names(&d), ["userproj"]);
        // A file, and a non-empty folder without a README: refused too.
        let file = d.join("notes.txt");
        std::fs::write(&file, "x").unwrap();
        assert!(matches!(
            check_out(&file),
            Err(RouteCliError::NotARouteReport { .. })
        ));
        std::fs::remove_file(proj.join("README.md")).unwrap();
        std::fs::write(proj.join("data.csv"), "1,2\n").unwrap();
        assert!(check_out(&proj).is_err());
        // Absent, empty, or a report of this command: accepted.
        assert!(check_out(&d.join("absent")).is_ok());
        let empty = d.join("empty");
        std::fs::create_dir(&empty).unwrap();
        assert!(check_out(&empty).is_ok());
        std::fs::write(empty.join("README.md"), format!("{TITLE}\n\nold\n")).unwrap();
        assert!(check_out(&empty).is_ok());
    }

    #[test]
    fn the_report_folder_is_written_all_or_nothing() {
        let d = Scratch::new("route-publish");
        let out = d.join("report");
        // A failure after the first file: no folder, no temporary left.
        let e = publish(&out, |dir| {
            std::fs::write(dir.join("result.json"), "{}").unwrap();
            Err(argument("out", "figure failed"))
        })
        .unwrap_err();
        assert!(e.to_string().contains("figure failed"), "{e}");
        assert!(names(&d).is_empty(), "{:?}", names(&d));
        // A success replaces an old report as a whole.
        std::fs::create_dir(&out).unwrap();
        std::fs::write(out.join("README.md"), format!("{TITLE}\n")).unwrap();
        std::fs::write(out.join("stale.route"), "0 0 0\n").unwrap();
        publish(&out, |dir| {
            std::fs::write(dir.join("README.md"), "new").unwrap();
            Ok(())
        })
        .unwrap();
        assert_eq!(names(&out), ["README.md"]);
        assert_eq!(names(&d), ["report"]);
        // A failure leaves the old report as it was.
        publish(&out, |dir| {
            std::fs::write(dir.join("README.md"), "newer").unwrap();
            Err(argument("out", "failed"))
        })
        .unwrap_err();
        assert_eq!(
            std::fs::read_to_string(out.join("README.md")).unwrap(),
            "new"
        );
        assert_eq!(names(&d), ["report"]);
        // A folder that cannot be created is named as given.
        let blocked = d.join("report/README.md/sub");
        let e = publish(&blocked, |_| Ok(())).unwrap_err();
        let msg = e.to_string();
        assert!(
            msg.contains(&*blocked.to_string_lossy()) && msg.contains("cannot be created there"),
            "{msg}"
        );
    }

    #[test]
    fn an_out_folder_holding_an_input_is_refused() {
        let d = Scratch::new("route-inputs");
        let out = d.join("report");
        std::fs::create_dir(&out).unwrap();
        let inside = out.join("terrain.grid");
        let outside = d.join("terrain.grid");
        std::fs::write(&inside, "grid").unwrap();
        std::fs::write(&outside, "grid").unwrap();
        let e = check_inputs_outside(&out, [outside.as_path(), inside.as_path()]).unwrap_err();
        assert!(
            matches!(e, RouteCliError::Argument { name: "out", .. })
                && e.to_string().contains("holds the input"),
            "{e}"
        );
        assert!(check_inputs_outside(&out, [outside.as_path()]).is_ok());
        assert!(check_inputs_outside(&d.join("absent"), [inside.as_path()]).is_ok());
    }
}
