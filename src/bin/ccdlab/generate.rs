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
    check_names(&args.out, &frame_names(&params, args.format))?;
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
        return Err(e.into());
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
    std::fs::create_dir(&tmp).map_err(|e| {
        format!(
            "{}: cannot write beside it in {}: {e}",
            out.display(),
            parent.display()
        )
    })?;
    Ok(tmp)
}

fn write_frames(
    params: &SceneParams,
    format: Format,
    dir: &Path,
) -> Result<ClothSphere, Box<dyn Error>> {
    let mut scene = ClothSphere::new(params)?;
    let faces = scene.mesh().faces().to_vec();
    let mut names = frame_names(params, format).into_iter();
    while let Some(x) = scene.next_frame()? {
        let path = dir.join(names.next().expect("one name per frame"));
        match format {
            Format::Ply => write_ply(&path, x, &faces)?,
            Format::Obj => write_obj(&path, x, &faces)?,
        }
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

/// Moves the frames of `tmp` into `out` and removes `tmp`: the new frames
/// first (each rename replaces an old frame of the same name), then the
/// `old` frame files no new one replaced, so that an error while moving
/// deletes no old frame that has no new one in its place.
fn move_into_place(tmp: &Path, out: &Path, old: &[PathBuf]) -> Result<(), String> {
    if !out.exists() {
        return std::fs::rename(tmp, out).map_err(at(out));
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(tmp)
        .and_then(|d| d.map(|e| e.map(|e| e.path())).collect())
        .map_err(at(tmp))?;
    files.sort();
    let mut moved = Vec::with_capacity(files.len());
    for f in files {
        if let Some(name) = f.file_name() {
            let dest = out.join(name);
            std::fs::rename(&f, &dest).map_err(at(&dest))?;
            moved.push(dest);
        }
    }
    for p in old.iter().filter(|p| !moved.contains(p)) {
        std::fs::remove_file(p).map_err(at(p))?;
    }
    std::fs::remove_dir(tmp).map_err(at(tmp))
}

/// An I/O error, as a message naming `p`.
fn at(p: &Path) -> impl FnOnce(std::io::Error) -> String + '_ {
    move |e| format!("{}: {e}", p.display())
}
