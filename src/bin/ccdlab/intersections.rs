//! `ccdlab intersections`: a frame's static intersections (docs/design.md
//! §11): edges through triangles, and pairs that touch.

use std::error::Error;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use ccdlab::harness::output::{check_output, write_atomic_with};
use ccdlab::harness::stamp::Stamp;
use ccdlab::mesh::{TriMesh, read_frame_mesh};
use ccdlab::pipeline::{Intersections, intersections_with};

use crate::frame_line::frame_line;

/// Arguments of `ccdlab intersections`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The frame (PLY or OBJ).
    frame: PathBuf,
    /// Worker threads, 1 to 1024 (default: RAYON_NUM_THREADS when set, else all logical CPUs).
    #[arg(long, value_parser = crate::limits::whole::<usize>(1, crate::pipeline_args::MAX_THREADS as u64))]
    threads: Option<usize>,
    /// Write every pair to this CSV: `kind,id_a,id_b` with global IDs (as
    /// `ccdlab step --pairs`), `ef` for an edge through a face, `vf` and
    /// `ee` for pairs that touch (a point's pair is an `ee` row whose first
    /// ID, or both, are vertices', as in `step --pairs`).
    #[arg(long)]
    pairs: Option<PathBuf>,
    /// Print one JSON object on stdout, and nothing else (with a `stamp`:
    /// machine, threads, commit and date).
    #[arg(long)]
    json: bool,
}

/// Runs the command.
pub fn run(args: Args) -> Result<(), Box<dyn Error>> {
    if let Some(path) = &args.pairs {
        check_output(path, &[&args.frame])
            .map_err(|e| format!("--pairs {}: {e}", path.display()))?;
    }
    let pool = crate::pipeline_args::thread_pool(args.threads)?;
    let (mesh, x) = read_frame_mesh(&args.frame)?;
    let start = Instant::now();
    // The pairs are kept only to be written.
    let collect = args.pairs.is_some();
    let found = pool.install(|| intersections_with(&mesh, &x, collect, None))?;
    let ms = start.elapsed().as_secs_f64() * 1e3;
    if let Some(path) = &args.pairs {
        write_pairs(path, &mesh, &found)?;
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
            "edge_face_crossing": found.crossing_count,
            "touching": {"vf": vf, "ee": ee, "vertex_edge": ve, "vertex_vertex": vv},
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
            "edges through triangles: {}; touching pairs: {vf} vertex-face, {ee} edge-edge, {ve} point-edge, {vv} point-point; {:.2} ms",
            found.crossing_count, ms
        );
        println!(
            "{}",
            if found.is_empty() {
                "free of intersections"
            } else {
                "the mesh interpenetrates or touches itself: CCD from this frame cannot see it"
            }
        );
    }
    Ok(())
}

/// The pairs as CSV (global IDs), written atomically.
fn write_pairs(
    path: &std::path::Path,
    mesh: &TriMesh,
    found: &Intersections,
) -> Result<(), Box<dyn Error>> {
    use ccdlab::mesh::Feature;
    write_atomic_with(path, |w| {
        writeln!(w, "kind,id_a,id_b")?;
        for &[e, f] in &found.crossing {
            let (a, b) = (
                mesh.global_id(Feature::Edge(e)),
                mesh.global_id(Feature::Face(f)),
            );
            writeln!(w, "ef,{a},{b}")?;
        }
        for p in &found.touching {
            writeln!(w, "{},{},{}", p.kind.suffix(), p.a, p.b)?;
        }
        Ok(())
    })
    .map_err(|e| format!("{}: {e}", path.display()).into())
}
