//! `ccdlab report`: the report folder regenerated from the recorded JSON,
//! all or nothing.
//!
//! Every input is read and checked first; the page, the figures and a copy of
//! the inputs (`data/`) are then written to a temporary sibling folder, which
//! replaces the output folder only when everything is written. On any error
//! (or panic) the temporary folder is removed and the old report stays as it
//! was; errors name the files as they will be in the output folder. A
//! non-empty output folder that is not such a report is never replaced.

use std::path::{Path, PathBuf};

use super::figures::{
    CullingFigure, FIGURE_STEMS, Figure, KTestFigure, SequenceFigure, StageFigure, write_figure,
};
use super::inputs::{ReportInputs, is_input_name};
use super::markdown::{TITLE, render};
use crate::harness::figure::load_font;
use crate::io::{FolderError, replace_folder};

/// Why a report could not be made. Nothing was written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReportError {
    /// A file or folder could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// An input file is malformed or inconsistent; the message says where.
    /// Re-record it (see the message) or remove it from the folder.
    #[error("{}: {message}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong, with the field or line.
        message: String,
    },
    /// The data folder has no bench record: run `cargo bench --bench
    /// pipeline` (or `scripts/reproduce_pipeline.sh`) first.
    #[error(
        "{}: no counts_<scene>.json bench record here; run `cargo bench --bench pipeline` or scripts/reproduce_pipeline.sh first",
        .0.display()
    )]
    NoRecords(PathBuf),
    /// The output folder exists and holds something other than a report made
    /// by this command; choose another `--out` or empty it.
    #[error(
        "{}: exists and is not a report made by `ccdlab report` (no README.md starting with the report title); refusing to replace it",
        .0.display()
    )]
    NotAReport(PathBuf),
    /// The output folder, a previous report, holds a file or folder that is
    /// not part of a report; replacing the folder would delete it. Move it
    /// out, or write the report elsewhere.
    #[error(
        "{}: not part of a report made by `ccdlab report`; replacing the report folder would delete it (move it out, or choose another --out)",
        .0.display()
    )]
    WouldDelete(PathBuf),
    /// The output folder cannot be made where it was asked for (its parent
    /// is not writable, or not a folder).
    #[error("{}: the report folder cannot be created there: {source}", path.display())]
    CannotCreate {
        /// The output folder, as given.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A figure could not be drawn.
    #[error("figure {name}: {message}")]
    Figure {
        /// File stem of the figure.
        name: String,
        /// The plotting error.
        message: String,
    },
}

/// Where a report comes from and goes to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportOptions {
    /// The folder of recorded JSON.
    pub from: PathBuf,
    /// criterion's output folder (`target/criterion`), if its estimates are
    /// to be read.
    pub criterion: Option<PathBuf>,
    /// The report folder to (re)write.
    pub out: PathBuf,
}

/// What was written.
#[derive(Debug, Clone, PartialEq)]
pub struct ReportSummary {
    /// The report folder.
    pub out: PathBuf,
    /// Files written, relative to [`Self::out`].
    pub files: Vec<String>,
    /// The font the figures' text used, if any.
    pub font: Option<&'static str>,
    /// Files in the data folder that are not report inputs.
    pub ignored: Vec<String>,
    /// Scenes without a bench record in the data folder, left out of the
    /// report (the page says so too).
    pub missing: Vec<String>,
    /// Number of criterion estimates used.
    pub estimates: usize,
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> ReportError + '_ {
    move |source| ReportError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Whether `out` may be replaced: absent, empty, or a previous report.
fn replaceable(out: &Path) -> Result<bool, ReportError> {
    if !out.exists() {
        return Ok(true);
    }
    if !out.is_dir() {
        return Ok(false);
    }
    if std::fs::read_dir(out)
        .map_err(io_err(out))?
        .next()
        .is_none()
    {
        return Ok(true);
    }
    Ok(std::fs::read_to_string(out.join("README.md"))
        .map(|s| s.lines().next() == Some(TITLE))
        .unwrap_or(false))
}

/// The first entry of the report folder `out` (which exists) that a report
/// does not hold: anything but `README.md`, the figures (`STEM.png`,
/// `STEM.svg`) and the `data/` folder of report inputs.
fn foreign_entry(out: &Path) -> Result<Option<PathBuf>, ReportError> {
    let entries = |dir: &Path| -> Result<Vec<(String, bool)>, ReportError> {
        let mut names = Vec::new();
        for entry in std::fs::read_dir(dir).map_err(io_err(dir))? {
            let entry = entry.map_err(io_err(dir))?;
            let is_file = entry.file_type().map_err(io_err(dir))?.is_file();
            names.push((entry.file_name().to_string_lossy().into_owned(), is_file));
        }
        names.sort();
        Ok(names)
    };
    let figure = |name: &str| {
        FIGURE_STEMS.iter().any(|stem| {
            name.strip_prefix(stem)
                .is_some_and(|ext| ext == ".png" || ext == ".svg")
        })
    };
    for (name, is_file) in entries(out)? {
        let ours = match name.as_str() {
            "data" if !is_file => {
                let data = out.join("data");
                if let Some((inner, _)) = entries(&data)?
                    .into_iter()
                    .find(|(n, f)| !(*f && is_input_name(n)))
                {
                    return Ok(Some(data.join(inner)));
                }
                true
            }
            "README.md" => is_file,
            n => is_file && figure(n),
        };
        if !ours {
            return Ok(Some(out.join(name)));
        }
    }
    Ok(None)
}

/// Reads the inputs and writes the report (see the module doc).
pub fn generate(opts: &ReportOptions) -> Result<ReportSummary, ReportError> {
    let inputs = ReportInputs::load(&opts.from, opts.criterion.as_deref())?;
    if !replaceable(&opts.out)? {
        return Err(ReportError::NotAReport(opts.out.clone()));
    }
    if opts.out.is_dir()
        && let Some(path) = foreign_entry(&opts.out)?
    {
        return Err(ReportError::WouldDelete(path));
    }
    if opts.out.file_name().is_none() {
        return Err(ReportError::Io {
            path: opts.out.clone(),
            source: std::io::Error::new(std::io::ErrorKind::InvalidInput, "no folder name"),
        });
    }
    let files = replace_folder(&opts.out, "report", |tmp| {
        // Errors name the files as they would be in the output folder.
        write_all(tmp, &inputs).map_err(|e| match e {
            ReportError::Io { path, source } => ReportError::Io {
                path: path
                    .strip_prefix(tmp)
                    .map_or(path.clone(), |rel| opts.out.join(rel)),
                source,
            },
            e => e,
        })
    })
    .map_err(|e| match e {
        FolderError::Create(source) => ReportError::CannotCreate {
            path: opts.out.clone(),
            source,
        },
        FolderError::Write(e) => e,
        FolderError::Swap(e) => io_err(&opts.out)(e),
    })?;
    Ok(ReportSummary {
        out: opts.out.clone(),
        files,
        font: load_font(),
        ignored: inputs.ignored.clone(),
        missing: inputs.missing.clone(),
        estimates: inputs.timings.benchmarks.len(),
    })
}

/// Writes the whole report into the (new) folder `dir`; returns the files.
fn write_all(dir: &Path, inputs: &ReportInputs) -> Result<Vec<String>, ReportError> {
    let data = dir.join("data");
    std::fs::create_dir_all(&data).map_err(io_err(&data))?;
    let mut files = Vec::new();
    for (name, bytes) in &inputs.files {
        let path = data.join(name);
        std::fs::write(&path, bytes).map_err(io_err(&path))?;
        files.push(format!("data/{name}"));
    }
    if !inputs.timings.benchmarks.is_empty() {
        let path = data.join("bench_timings.json");
        let json = serde_json::to_string_pretty(&inputs.timings).expect("timings serialise");
        std::fs::write(&path, json + "\n").map_err(io_err(&path))?;
        files.push("data/bench_timings.json".to_string());
    }
    let font = load_font();
    let text = font.is_some();
    let mut stems = Vec::new();
    fn one(
        dir: &Path,
        fig: Option<impl Figure>,
        text: bool,
        stems: &mut Vec<&'static str>,
        files: &mut Vec<String>,
    ) -> Result<(), ReportError> {
        let Some(fig) = fig else { return Ok(()) };
        write_figure(dir, &fig, text).map_err(|message| ReportError::Figure {
            name: fig.stem().to_string(),
            message,
        })?;
        stems.push(fig.stem());
        files.push(format!("{}.png", fig.stem()));
        files.push(format!("{}.svg", fig.stem()));
        Ok(())
    }
    one(
        dir,
        CullingFigure::new(inputs),
        text,
        &mut stems,
        &mut files,
    )?;
    one(dir, KTestFigure::new(inputs), text, &mut stems, &mut files)?;
    one(dir, StageFigure::new(inputs), text, &mut stems, &mut files)?;
    one(
        dir,
        SequenceFigure::new(inputs),
        text,
        &mut stems,
        &mut files,
    )?;
    let md = render(inputs, &stems, font);
    let path = dir.join("README.md");
    std::fs::write(&path, md).map_err(io_err(&path))?;
    files.push("README.md".to_string());
    // Make sure it is all on disk before the folder is swapped in.
    for f in &files {
        let p = dir.join(f);
        std::fs::File::open(&p)
            .and_then(|f| f.sync_all())
            .map_err(io_err(&p))?;
    }
    Ok(files)
}
