//! `ccdlab intersections`: a frame's static intersections (docs/design.md
//! §11): edges through triangles, and pairs that touch.

use std::error::Error;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use ccdlab::harness::output::{check_output, write_atomic_with};
use ccdlab::mesh::{TriMesh, read_frame};
use ccdlab::pipeline::{Intersections, intersections};

/// Arguments of `ccdlab intersections`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The frame (PLY or OBJ).
    frame: PathBuf,
    /// Worker threads, 1 to 1024 (default: all logical CPUs).
    #[arg(long, value_parser = crate::limits::whole::<usize>(1, crate::pipeline_args::MAX_THREADS as u64))]
    threads: Option<usize>,
    /// Write every pair to this CSV: `kind,id_a,id_b` with global IDs (as
    /// `ccdlab step --pairs`), `ef` for an edge through a face, `vf` and
    /// `ee` for pairs that touch.
    #[arg(long)]
    pairs: Option<PathBuf>,
    /// Print one JSON object on stdout, and nothing else.
    #[arg(long)]
    json: bool,
}

/// Runs the command.
pub fn run(args: Args) -> Result<(), Box<dyn Error>> {
    if let Some(path) = &args.pairs {
        check_output(path, &[&args.frame])
            .map_err(|e| format!("--pairs {}: {e}", path.display()))?;
    }
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = args.threads {
        pool = pool.num_threads(n);
    }
    let pool = pool.build()?;
    let frame = read_frame(&args.frame)?;
    let mesh = TriMesh::with_edges(frame.positions.len(), frame.faces, &frame.edges)
        .map_err(|e| e.in_file(&args.frame))?;
    let start = Instant::now();
    let found = pool.install(|| intersections(&mesh, &frame.positions))?;
    let ms = start.elapsed().as_secs_f64() * 1e3;
    if let Some(path) = &args.pairs {
        write_pairs(path, &mesh, &found)?;
    }
    let touching = |kind| found.touching.iter().filter(|p| p.kind == kind).count();
    let (vf, ee) = (
        touching(ccdlab::pair_kernel::QueryKind::VertexFace),
        touching(ccdlab::pair_kernel::QueryKind::EdgeEdge),
    );
    if args.json {
        let json = serde_json::json!({
            "frame": args.frame,
            "vertices": mesh.num_vertices(),
            "edges": mesh.num_edges(),
            "faces": mesh.num_faces(),
            "edge_face_crossing": found.crossing.len(),
            "touching": {"vf": vf, "ee": ee},
            "threads": pool.current_num_threads(),
            "time_ms": ms,
        });
        println!("{}", serde_json::to_string_pretty(&json)?);
    } else {
        println!(
            "{}: {} V, {} E, {} F; {} threads",
            args.frame.display(),
            mesh.num_vertices(),
            mesh.num_edges(),
            mesh.num_faces(),
            pool.current_num_threads()
        );
        println!(
            "edges through triangles: {}; touching pairs: {vf} vertex-face, {ee} edge-edge (with the points'); {:.2} ms",
            found.crossing.len(),
            ms
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
