//! `ccdlab proximity`: the pairs of a frame's features within a distance of
//! each other (docs/design.md §5, "Proximity").

use std::error::Error;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use ccdlab::harness::output::{check_output, write_atomic_with};
use ccdlab::harness::stamp::Stamp;
use ccdlab::mesh::read_frame_mesh;
use ccdlab::pipeline::{Bodies, Proximity, ProximityOptions, proximity_with};

use crate::choices::Switch;
use crate::frame_line::frame_line;
use crate::pipeline_args::listing_error;

/// Arguments of `ccdlab proximity`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The frame (PLY or OBJ).
    frame: PathBuf,
    /// The distance d ≥ 0: pairs whose features are within Euclidean
    /// distance d of each other are listed (0: pairs that touch).
    #[arg(long, allow_hyphen_values = true, value_parser = distance)]
    distance: f64,
    /// Which pairs are tested: on (every pair), or off (only pairs of
    /// features in different connected components), as for `step`.
    #[arg(long, value_enum, default_value_t = Switch::On)]
    self_collision: Switch,
    /// Worker threads, 1 to 1024 (default: RAYON_NUM_THREADS when set, else all logical CPUs).
    #[arg(long, value_parser = crate::limits::whole::<usize>(1, crate::pipeline_args::MAX_THREADS as u64))]
    threads: Option<usize>,
    /// Write every pair to this CSV: `kind,id_a,id_b,distance` with global
    /// IDs, as `ccdlab step --pairs` (a point's pair is an `ee` row whose
    /// first ID, or both, are vertices'), and the features' distance in
    /// doubles (true up to rounding, not certified; the set is exact).
    #[arg(long)]
    pairs: Option<PathBuf>,
    /// Print one JSON object on stdout, and nothing else (with a `stamp`:
    /// machine, threads, commit and date).
    #[arg(long)]
    json: bool,
}

/// A finite distance `≥ 0` (`--distance`).
fn distance(s: &str) -> Result<f64, String> {
    let d = crate::pipeline_args::parse_distance(s)?;
    ccdlab::pipeline::proximity_distance(d).map_err(|e| e.to_string())
}

/// Runs the command.
pub fn run(args: Args) -> Result<(), Box<dyn Error>> {
    if let Some(path) = &args.pairs {
        check_output(path, &[&args.frame])
            .map_err(|e| format!("--pairs {}: {e}", path.display()))?;
    }
    let pool = crate::pipeline_args::thread_pool(args.threads)?;
    let (mesh, x) = read_frame_mesh(&args.frame)?;
    let options = ProximityOptions {
        // The pairs are kept only to be written.
        collect_pairs: args.pairs.is_some(),
        bodies: (!args.self_collision.is_on()).then_some(Bodies::Components),
    };
    let start = Instant::now();
    let found = pool
        .install(|| proximity_with(&mesh, &x, args.distance, &options, None))
        .map_err(|e| listing_error(e, "without --pairs, `ccdlab proximity` counts them"))?;
    let ms = start.elapsed().as_secs_f64() * 1e3;
    if let Some(path) = &args.pairs {
        let distances = pool.install(|| found.distances(&mesh, &x));
        write_pairs(path, &found, &distances)?;
    }
    let (vf, ee) = (found.report.vf.colliding, found.report.ee.colliding);
    let points = found.report.points.unwrap_or_default();
    let (ve, vv) = (points.vertex_edge.colliding, points.vertex_vertex.colliding);
    if args.json {
        let json = serde_json::json!({
            "frame": args.frame.to_string_lossy(),
            "vertices": mesh.num_vertices(),
            "edges": mesh.num_edges(),
            "faces": mesh.num_faces(),
            "distance": args.distance,
            "self_collision": if args.self_collision.is_on() { "on" } else { "off" },
            "within": {"vf": vf, "ee": ee, "vertex_edge": ve, "vertex_vertex": vv},
            "candidates": {"vf": found.report.vf.candidates, "ee": found.report.ee.candidates},
            "threads": pool.current_num_threads(),
            "time_ms": ms,
            "stamp": Stamp::new(pool.current_num_threads()),
        });
        println!("{}", serde_json::to_string_pretty(&json)?);
    } else {
        println!(
            "{}",
            frame_line(&args.frame, &mesh, pool.current_num_threads())
        );
        println!(
            "pairs within {:?}: {vf} vertex-face, {ee} edge-edge, {ve} point-edge, {vv} point-point; {:.2} ms",
            args.distance, ms
        );
    }
    Ok(())
}

/// The pairs as CSV (global IDs) with their `distances` (shortest
/// round-trip decimals), written atomically.
fn write_pairs(
    path: &std::path::Path,
    found: &Proximity,
    distances: &[f64],
) -> Result<(), Box<dyn Error>> {
    write_atomic_with(path, |w| {
        writeln!(w, "kind,id_a,id_b,distance")?;
        for (p, r) in found.pairs.iter().zip(distances) {
            writeln!(w, "{},{},{},{r:?}", p.kind.suffix(), p.a, p.b)?;
        }
        Ok(())
    })
    .map_err(|e| format!("{}: {e}", path.display()).into())
}
