//! `ccdlab candidates`: a step's pairs that reach the exact test, written as
//! query files with the exact verdicts as their truth (docs/design.md §2.3):
//! the Sample-Queries CSV format that `ccdlab queries` and other CCD
//! benchmarks read, so that another method meets a real step's pairs.

use std::error::Error;
use std::path::{Path, PathBuf};

use ccdlab::bounding_volume::KdopAxes;
use ccdlab::filter::FilterSet;
use ccdlab::harness::data::candidate_roots;
use ccdlab::harness::ground_truth::write_query_csv;
use ccdlab::harness::output::{StagedFolder, check_output, check_replaceable, write_atomic_with};
use ccdlab::math::Vec3;
use ccdlab::mesh::{Step, read_step};
use ccdlab::narrow_phase::Solver;
use ccdlab::pair_kernel::QueryKind;
use ccdlab::pipeline::{Candidates, PipelineConfig, PipelineError, candidates};
use rayon::prelude::*;

use crate::choices::{SelfCollision, Switch, TimeAlignedArg};

/// Arguments of `ccdlab candidates`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The frame at t = 0 (PLY or OBJ).
    frame0: PathBuf,
    /// The frame at t = 1 (same topology).
    frame1: PathBuf,
    /// Folder to write to: `vertex-face/NAME.csv` and `edge-edge/NAME.csv`,
    /// NAME the two frames' stems (`227-228`), each only when that kind has
    /// pairs (an old file of the name is removed otherwise), and
    /// `pairs/NAME.csv`, which features each query is: `kind,query,id_a,id_b`
    /// rows, `query` the query's number in its kind's file (from 0, as
    /// `queries` numbers disagreements), IDs as for `step --pairs` (vertex
    /// and face; two edges). Other files are left alone. All are written in
    /// full before any is put in place, so that a run that fails or is
    /// killed while writing leaves the old files as they were; they are then
    /// renamed into place (and an old file of an empty kind removed) one
    /// after the other, not as one step. Not inside the data sets' folder.
    /// The truth column is contact (`d = 0`), also with `--min-distance`.
    #[arg(long)]
    out: PathBuf,
    /// Bounding volume of the BVH: k = 6, 8, 14, 18 or 26.
    #[arg(long, default_value = "26")]
    k: KdopAxes,
    /// Filters the listed pairs have passed (`none` with `--window off
    /// --time-aligned off`: every pair the BVH finds, those whose swept
    /// k-DOPs overlap).
    #[arg(long, default_value_t = FilterSet::SlpfDnf, value_parser = crate::choices::filters())]
    filters: FilterSet,
    /// The coplanar-window filter after them.
    #[arg(long, value_enum, default_value_t = Switch::On)]
    window: Switch,
    /// Time-aligned pruning in the BVH, as for `step`.
    #[arg(long, value_enum, default_value_t = TimeAlignedArg::Auto)]
    time_aligned: TimeAlignedArg,
    /// Minimum separation d ≥ 0: list the pairs that `step --min-distance d`
    /// decides (the BVH's k-DOPs grown by d/2, DNF and the window filter
    /// with a margin of d, SLPF off). The truth column stays contact:
    /// `ccdlab queries --min-distance d` checks that each contact is
    /// positive at d, no later (and with `--oracle`, every verdict at d).
    #[arg(
        long,
        default_value_t = 0.0,
        allow_hyphen_values = true,
        value_parser = crate::pipeline_args::distance
    )]
    min_distance: f64,
    /// Which pairs are listed, as for `step`.
    #[arg(long, value_enum, default_value_t = SelfCollision::On)]
    self_collision: SelfCollision,
    /// Worker threads, 1 to 1024 (default: RAYON_NUM_THREADS when set, else all logical CPUs).
    #[arg(long, value_parser = crate::limits::whole::<usize>(1, crate::pipeline_args::MAX_THREADS as u64))]
    threads: Option<usize>,
}

/// Runs the command.
pub fn run(args: Args) -> Result<(), Box<dyn Error>> {
    // `ccdlab queries` takes a folder of these names for a data set's own
    // layout, and would not find the files in it.
    if let Some(last) = args.out.file_name().and_then(|n| n.to_str())
        && RESERVED.contains(&last)
    {
        return Err(format!(
            "--out {}: `ccdlab queries` reads a folder named `{last}` as part of a data set's \
             layout and would not find these files there; choose another name",
            args.out.display()
        )
        .into());
    }
    if ["queries", "boxes"]
        .iter()
        .any(|d| args.out.join(d).is_dir())
    {
        return Err(format!(
            "--out {}: holds a queries/ or boxes/ folder, so `ccdlab queries` would read it as a \
             Scalable-CCD scene and not find these files; choose another folder",
            args.out.display()
        )
        .into());
    }
    if std::fs::metadata(&args.out).is_ok_and(|m| !m.is_dir()) {
        return Err(format!("--out {}: exists and is not a folder", args.out.display()).into());
    }
    if std::fs::metadata(&args.out).is_err() && std::fs::symlink_metadata(&args.out).is_ok() {
        return Err(format!(
            "--out {}: a symbolic link to nothing; remove it or choose another folder",
            args.out.display()
        )
        .into());
    }
    if let Some(root) = inside_data_root(&args.out) {
        return Err(format!(
            "--out {}: inside the data sets' folder {} (`ccdlab data`), where `ccdlab queries` \
             and the tests would take these files for part of a data set; choose another folder",
            args.out.display(),
            root.display()
        )
        .into());
    }
    let name = format!("{}-{}.csv", stem(&args.frame0)?, stem(&args.frame1)?);
    // The two kinds' query files, then the pairs' IDs.
    let kinds = ["vertex-face", "edge-edge", "pairs"].map(|kind| args.out.join(kind));
    let files = kinds.clone().map(|dir| dir.join(&name));
    // Checked before any work, leaving nothing behind, by the rule of the
    // commits below (a plain file or nothing at each name); the files are
    // staged and put in place together once both are written. A staging
    // folder begun and dropped here shows that each folder can be written
    // (and the folders above it created) before the work, not after.
    for (dir, f) in kinds.iter().zip(&files) {
        if f.parent().is_some_and(Path::is_dir) {
            check_output(f, &[&args.frame0, &args.frame1])
                .map_err(|e| format!("--out: {}: {e}", f.display()))?;
            check_replaceable(f).map_err(|e| format!("--out: {}: {}", f.display(), e.message))?;
        }
        drop(
            StagedFolder::begin(dir, "candidates")
                .map_err(|e| format!("--out: {}: {}", e.path.display(), e.message))?,
        );
    }
    let pool = crate::pipeline_args::thread_pool(args.threads)?;
    let (mesh, x_t0, x_t1) = read_step(&args.frame0, &args.frame1)?;
    let step = Step::new(&mesh, &x_t0, &x_t1)?;
    let config = PipelineConfig {
        axes: args.k,
        filters: args.filters,
        window: args.window.is_on(),
        time_aligned: args.time_aligned.into(),
        min_distance: args.min_distance,
        bodies: args.self_collision.bodies(),
        ..PipelineConfig::default()
    };
    let (found, vf, ee) = pool.install(|| -> Result<_, PipelineError> {
        let found = candidates(&step, &config)?;
        // Each pair's points, and the exact verdict as its truth.
        let with_truth = |kind, q: [Vec3; 8]| (q, Solver::Exact.solve(kind, &q).is_some());
        let vf: Vec<([Vec3; 8], bool)> = (found.vertex_face.par_iter())
            .map(|p| with_truth(QueryKind::VertexFace, step.vertex_face_points(p.v, p.f)))
            .collect();
        let ee: Vec<([Vec3; 8], bool)> = (found.edge_edge.par_iter())
            .map(|p| with_truth(QueryKind::EdgeEdge, step.edge_edge_points(p.e0, p.e1)))
            .collect();
        Ok((found, vf, ee))
    })?;
    // The files staged, then moved into place one after the other (a kill
    // between the renames leaves new files beside old); an error (a full
    // disk) or a kill before then leaves the old files as they were and no
    // folder of this run behind.
    let stage = |dir: &Path| {
        StagedFolder::begin(dir, "candidates")
            .map_err(|e| format!("--out: {}: {}", e.path.display(), e.message))
    };
    let mut staged = Vec::new();
    for (dir, queries) in kinds.iter().zip([&vf, &ee]) {
        if queries.is_empty() {
            continue;
        }
        let stage = stage(dir)?;
        let (points, truth): (Vec<[Vec3; 8]>, Vec<bool>) = queries.iter().copied().unzip();
        write_atomic_with(&stage.path(&name), |w| {
            write_query_csv(w, &points, Some(&truth))
        })
        .map_err(|e| format!("--out: {}: {e}", dir.join(&name).display()))?;
        staged.push(stage);
    }
    let no_pairs = vf.is_empty() && ee.is_empty();
    if !no_pairs {
        let stage = stage(&kinds[2])?;
        write_atomic_with(&stage.path(&name), |w| write_pair_ids(w, &found))
            .map_err(|e| format!("--out: {}: {e}", files[2].display()))?;
        staged.push(stage);
    }
    for stage in staged {
        stage
            .commit()
            .map_err(|e| format!("--out: {}: {}", e.path.display(), e.message))?;
    }
    for (file, empty) in files.iter().zip([vf.is_empty(), ee.is_empty(), no_pairs]) {
        if empty {
            // A query file holds at least one query (the readers refuse an
            // empty one); an older file of this name would tell of another run.
            match std::fs::remove_file(file) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    return Err(format!("--out: {}: {e}", file.display()).into());
                }
                _ => {}
            }
        }
    }
    let r = &found.report;
    let colliding = |q: &[([Vec3; 8], bool)]| q.iter().filter(|(_, t)| *t).count();
    // At a minimum separation the truth is still contact: say so.
    let (separation, truth) = match r.min_distance {
        0.0 => (String::new(), ""),
        d => (
            format!(", min distance {d:?}"),
            " in contact (the truth column)",
        ),
    };
    println!(
        "{} -> {}: {} vertex-face and {} edge-edge pairs reach the exact test (of the BVH's {} and \
         {}; filters {}, window {}, time-aligned {}{separation}); {} and {} collide{truth}",
        args.frame0.display(),
        args.frame1.display(),
        vf.len(),
        ee.len(),
        r.vf.candidates,
        r.ee.candidates,
        r.filters,
        if r.window { "on" } else { "off" },
        if r.time_aligned { "on" } else { "off" },
        colliding(&vf),
        colliding(&ee),
    );
    for (file, queries) in files.iter().zip([&vf, &ee]) {
        if queries.is_empty() {
            println!("no pairs of this kind, not written: {}", file.display());
        } else {
            println!("written: {}", file.display());
        }
    }
    if !no_pairs {
        println!(
            "written: {} (the features of each query)",
            files[2].display()
        );
    }
    Ok(())
}

/// The features of each query, in the query files' order: `kind,query,id_a,id_b`.
fn write_pair_ids(w: &mut impl std::io::Write, found: &Candidates) -> std::io::Result<()> {
    writeln!(w, "kind,query,id_a,id_b")?;
    for (k, p) in found.vertex_face.iter().enumerate() {
        writeln!(w, "vf,{k},{},{}", p.v, p.f)?;
    }
    for (k, p) in found.edge_edge.iter().enumerate() {
        writeln!(w, "ee,{k},{},{}", p.e0, p.e1)?;
    }
    Ok(())
}

/// Folder names that `ccdlab queries` reads as a data set's layout.
const RESERVED: [&str; 3] = ["queries", "vertex-face", "edge-edge"];

/// The data root (`ccdlab data`'s candidates) that `out` would be inside,
/// if any: compared by their real paths, `out` by its nearest existing
/// folder.
fn inside_data_root(out: &Path) -> Option<PathBuf> {
    let mut existing = out;
    let real = loop {
        if let Ok(real) = std::fs::canonicalize(existing) {
            break real;
        }
        existing = match existing.parent()? {
            p if p.as_os_str().is_empty() => Path::new("."),
            p => p,
        };
    };
    candidate_roots()
        .into_iter()
        .filter_map(|r| std::fs::canonicalize(&r).ok().map(|c| (r, c)))
        .find(|(_, c)| real.starts_with(c))
        .map(|(r, _)| r)
}

/// A frame's file stem, for the query files' name.
fn stem(path: &Path) -> Result<String, String> {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .filter(|s| !s.is_empty())
        .ok_or_else(|| {
            format!(
                "{}: no file name to name the query files by",
                path.display()
            )
        })
}
