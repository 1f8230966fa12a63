//! `ccdlab generate`: writes the generated scene (a cloth falling onto a
//! spinning sphere) as a folder of numbered frames that `ccdlab replay`
//! reads back.

use std::error::Error;
use std::path::{Path, PathBuf};
use std::time::Instant;

use ccdlab::harness::generate::{ClothSphere, SceneParams};
use ccdlab::mesh::{write_obj, write_ply};

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
    #[arg(long, default_value_t = SceneParams::default().resolution)]
    resolution: usize,
    /// Frames to write, 2 to 10000 (steps are one fewer).
    #[arg(long, default_value_t = SceneParams::default().frames)]
    frames: usize,
    /// Seed of the cloth's initial height jitter.
    #[arg(long, default_value_t = SceneParams::default().seed)]
    seed: u64,
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
        ..SceneParams::default()
    };
    params.validate()?;
    let old_frames = check_out(&args.out, args.force)?;
    let start = Instant::now();
    // Frames go to a temporary sibling folder, moved into place only when
    // all are written: an error leaves no partial sequence behind.
    let tmp = tmp_sibling(&args.out)?;
    let written = write_frames(&params, args.format, &tmp);
    let scene = match written {
        Ok(scene) => scene,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&tmp);
            return Err(e);
        }
    };
    if let Err(e) = move_into_place(&tmp, &args.out, &old_frames) {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(format!("{}: {e}", args.out.display()).into());
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

/// A new empty folder beside `out`.
fn tmp_sibling(out: &Path) -> Result<PathBuf, Box<dyn Error>> {
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    let name = out
        .file_name()
        .ok_or_else(|| format!("{}: not a folder name", out.display()))?;
    let tmp = parent.join(format!(
        ".{}.generate-{}.tmp",
        name.to_string_lossy(),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
    Ok(tmp)
}

fn write_frames(
    params: &SceneParams,
    format: Format,
    dir: &Path,
) -> Result<ClothSphere, Box<dyn Error>> {
    let mut scene = ClothSphere::new(params)?;
    let faces = scene.mesh().faces().to_vec();
    let mut i = 0;
    while let Some(x) = scene.next_frame()? {
        let path = dir.join(format!("frame_{i:04}.{}", format.extension()));
        match format {
            Format::Ply => write_ply(&path, x, &faces)?,
            Format::Obj => write_obj(&path, x, &faces)?,
        }
        i += 1;
    }
    Ok(scene)
}

/// Moves the frames of `tmp` into `out` (replacing `old` frame files) and
/// removes `tmp`.
fn move_into_place(tmp: &Path, out: &Path, old: &[PathBuf]) -> std::io::Result<()> {
    if !out.exists() {
        return std::fs::rename(tmp, out);
    }
    for p in old {
        std::fs::remove_file(p)?;
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(tmp)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    files.sort();
    for f in files {
        if let Some(name) = f.file_name() {
            std::fs::rename(&f, out.join(name))?;
        }
    }
    std::fs::remove_dir(tmp)
}
