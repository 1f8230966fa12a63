//! `ccdlab generate`: writes the generated scene (a cloth falling onto a
//! spinning sphere) as a folder of numbered frames that `ccdlab replay`
//! reads back.

use std::error::Error;
use std::path::{Path, PathBuf};
use std::time::Instant;

use ccdlab::harness::generate::{ClothSphere, MAX_GAP, SceneParams};
use ccdlab::harness::output::StagedFolder;
use ccdlab::mesh::{MeshError, write_obj, write_ply};

/// Frame file format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Binary little-endian PLY with double coordinates (exact).
    Ply,
    /// Wavefront OBJ (shortest round-trip decimals, exact).
    Obj,
}

impl Format {
    fn extension(self) -> &'static str {
        match self {
            Format::Ply => "ply",
            Format::Obj => "obj",
        }
    }
}

/// Arguments of `ccdlab generate`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Cloth vertices per side, 2 to 1024 (216: about the data sets'
    /// cloth-ball scale, 46,656 cloth vertices).
    #[arg(long, default_value_t = SceneParams::default().resolution,
          value_parser = crate::limits::whole::<usize>(2, 1024))]
    resolution: usize,
    /// Frames to write, 2 to 10000 (steps are one fewer).
    #[arg(long, default_value_t = SceneParams::default().frames,
          value_parser = crate::limits::whole::<usize>(2, 10_000))]
    frames: usize,
    /// Seed of the cloth's initial height jitter.
    #[arg(long, default_value_t = SceneParams::default().seed,
          value_parser = crate::limits::whole::<u64>(0, u64::MAX))]
    seed: u64,
    /// Gap in metres, 0 to 100: the cloth collides with the sphere grown by
    /// this much, so it settles about this far above the sphere mesh
    /// (which is written unchanged). 0: the cloth rests on the sphere.
    #[arg(long, default_value_t = SceneParams::default().gap,
          allow_hyphen_values = true, value_parser = gap)]
    gap: f64,
    /// Frame file format.
    #[arg(long, value_enum, default_value_t = Format::Ply)]
    format: Format,
    /// Output folder (frame_0000.ply, frame_0001.ply, …). Created if
    /// missing; must be empty unless --force.
    #[arg(long)]
    out: PathBuf,
    /// Write into a non-empty folder, replacing the .ply/.obj files
    /// directly in it (other files are left alone).
    #[arg(long)]
    force: bool,
}

/// Runs the command.
pub fn run(args: Args) -> Result<(), Box<dyn Error>> {
    let params = SceneParams {
        resolution: args.resolution,
        frames: args.frames,
        seed: args.seed,
        gap: args.gap,
        ..SceneParams::default()
    };
    params.validate()?;
    let old_frames = check_out(&args.out, args.force)?;
    check_names(&args.out, &frame_names(&params, args.format))?;
    let start = Instant::now();
    // Frames go to a staging folder, moved into place only when all are
    // written: an error leaves no partial sequence behind.
    let stage = StagedFolder::begin(&args.out, "generate")?;
    let scene = write_frames(&params, args.format, &stage)?;
    // The new frames first (each replaces an old frame of its name), then
    // the old frames no new one replaced: an error while moving deletes no
    // old frame that has no new one in its place.
    let placed = stage.commit()?;
    for p in old_frames.iter().filter(|p| !placed.contains(p)) {
        std::fs::remove_file(p).map_err(|e| format!("{}: {e}", p.display()))?;
    }
    let mesh = scene.mesh();
    println!(
        "{}: {} frames, {} V ({} cloth + {} sphere), {} E, {} F, in {:.0} ms -> {}",
        params.name(),
        params.frames,
        mesh.num_vertices(),
        scene.cloth_vertices(),
        mesh.num_vertices() - scene.cloth_vertices(),
        mesh.num_edges(),
        mesh.num_faces(),
        start.elapsed().as_secs_f64() * 1e3,
        args.out.display()
    );
    Ok(())
}

/// The `--gap` value: a finite number of metres in `[0, MAX_GAP]` (clap
/// names the option in the refusal).
fn gap(s: &str) -> Result<f64, String> {
    s.parse::<f64>()
        .ok()
        .filter(|g| (0.0..=MAX_GAP).contains(g))
        .ok_or_else(|| format!("must be a number of metres from 0 to {MAX_GAP}"))
}

/// Refuses a file, or a non-empty folder without `force`; returns the frame
/// files (`.ply`/`.obj`) already there, to be replaced.
fn check_out(out: &Path, force: bool) -> Result<Vec<PathBuf>, Box<dyn Error>> {
    if !out.exists() {
        return Ok(Vec::new());
    }
    if !out.is_dir() {
        return Err(format!("{}: exists and is not a folder", out.display()).into());
    }
    let mut entries = Vec::new();
    for e in std::fs::read_dir(out).map_err(|e| format!("{}: {e}", out.display()))? {
        entries.push(e.map_err(|e| format!("{}: {e}", out.display()))?.path());
    }
    if !entries.is_empty() && !force {
        return Err(format!(
            "{}: folder is not empty ({} entries); pass --force to replace the frames in it, or choose another folder",
            out.display(),
            entries.len()
        )
        .into());
    }
    entries.retain(|p| {
        p.is_file()
            && p.extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| e.eq_ignore_ascii_case("ply") || e.eq_ignore_ascii_case("obj"))
    });
    entries.sort();
    Ok(entries)
}

fn write_frames(
    params: &SceneParams,
    format: Format,
    stage: &StagedFolder,
) -> Result<ClothSphere, Box<dyn Error>> {
    let mut scene = ClothSphere::new(params)?;
    let faces = scene.mesh().faces().to_vec();
    let mut names = frame_names(params, format).into_iter();
    while let Some(x) = scene.next_frame()? {
        let name = names.next().expect("one name per frame");
        let path = stage.path(&name);
        let written = match format {
            Format::Ply => write_ply(&path, x, &faces),
            Format::Obj => write_obj(&path, x, &faces),
        };
        // A write error (a full disk) names the frame in `--out`: the
        // staging folder it names is gone once the error is reported.
        written.map_err(|e| match e {
            MeshError::Io { source, .. } => {
                format!("{}: {source}", stage.out().join(&name).display()).into()
            }
            e => Box::<dyn Error>::from(e),
        })?;
    }
    Ok(scene)
}

/// The file names of the frames of `params`, in order.
fn frame_names(params: &SceneParams, format: Format) -> Vec<String> {
    (0..params.frames)
        .map(|i| format!("frame_{i:04}.{}", format.extension()))
        .collect()
}

/// Refuses, before any work, a folder `out` in which one of the new frame
/// `names` is taken by something that is no file (which no rename could
/// replace: the frames would be half moved in).
fn check_names(out: &Path, names: &[String]) -> Result<(), Box<dyn Error>> {
    for name in names {
        let p = out.join(name);
        if p.symlink_metadata().is_ok_and(|m| !m.is_file()) {
            return Err(format!(
                "{}: is in the way of a new frame (not a plain file); move it away",
                p.display()
            )
            .into());
        }
    }
    Ok(())
}
