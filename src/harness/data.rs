//! Where the external data sets live.
//!
//! The data sets (Sample-Queries, Sample-Scalable-CCD-Data; see
//! `datasets/manifest.toml`) are never committed. They are found, in order, at
//! `$CCDLAB_DATA`, at `../shared/datasets` beside the current directory or
//! beside the crate, and at `datasets/` inside the crate (where
//! `scripts/fetch_datasets.py` downloads them).

use std::path::{Path, PathBuf};

/// The environment variable naming the data root.
pub const DATA_ENV: &str = "CCDLAB_DATA";

/// A data root must hold at least one of these folders.
const SOURCES: [&str; 2] = ["ccd-queries", "scalable-ccd"];

/// The candidate roots in search order (existing or not).
pub fn candidate_roots() -> Vec<PathBuf> {
    let mut roots = Vec::new();
    if let Some(dir) = std::env::var_os(DATA_ENV) {
        roots.push(PathBuf::from(dir));
    }
    if let Ok(cwd) = std::env::current_dir() {
        roots.push(cwd.join("..").join("shared").join("datasets"));
        roots.push(cwd.join("datasets"));
    }
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    roots.push(crate_dir.join("..").join("shared").join("datasets"));
    roots.push(crate_dir.join("datasets"));
    roots
}

/// The first candidate root that holds a data set, if any. When
/// `$CCDLAB_DATA` is set it is the only candidate, so that a wrong setting is
/// an error rather than a silent fallback.
pub fn root() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os(DATA_ENV) {
        let dir = PathBuf::from(dir);
        return SOURCES.iter().any(|s| dir.join(s).is_dir()).then_some(dir);
    }
    candidate_roots()
        .into_iter()
        .find(|r| SOURCES.iter().any(|s| r.join(s).is_dir()))
}

/// The data root, or a message that says where it was looked for and how to
/// get it. Tests that need the data call this and fail loudly without it.
pub fn require_root() -> Result<PathBuf, String> {
    root().ok_or_else(|| {
        let looked = candidate_roots()
            .iter()
            .map(|p| format!("  {}", p.display()))
            .collect::<Vec<_>>()
            .join("\n");
        format!(
            "no data set found; looked in:\n{looked}\nset {DATA_ENV} or run scripts/fetch_datasets.py"
        )
    })
}
