//! Where the public data sets live.
//!
//! The data sets (Sample-Queries, Sample-Scalable-CCD-Data; see
//! `datasets/README.md`) are committed under `datasets/`. They are found at
//! `$CCDLAB_DATA` when it is set, else at `datasets/` in the current directory
//! or in the crate.

use std::path::{Path, PathBuf};

/// The environment variable naming the data root.
pub const DATA_ENV: &str = "CCDLAB_DATA";

/// A data root must hold at least one of these folders.
const SOURCES: [&str; 2] = ["ccd-queries", "scalable-ccd"];

/// `$CCDLAB_DATA`, when it is set and not empty: then the only place
/// looked in.
pub fn env_root() -> Option<PathBuf> {
    std::env::var_os(DATA_ENV)
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
}

/// The candidate roots in search order (existing or not). When
/// `$CCDLAB_DATA` is set (and not empty) it is the only candidate, so that a
/// wrong setting is an error rather than a silent fallback.
pub fn candidate_roots() -> Vec<PathBuf> {
    if let Some(dir) = env_root() {
        return vec![dir];
    }
    let mut roots = Vec::new();
    if let Ok(cwd) = std::env::current_dir() {
        roots.push(cwd.join("datasets"));
    }
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets");
    if !roots.contains(&crate_dir) {
        roots.push(crate_dir);
    }
    roots
}

/// The first candidate root that holds a data set, if any.
pub fn root() -> Option<PathBuf> {
    candidate_roots()
        .into_iter()
        .find(|r| SOURCES.iter().any(|s| r.join(s).is_dir()))
}

/// No data set where the data root was looked for ([`require_root`]); the
/// message says where that was and how to get the data.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", missing_message(.looked, *.from_env))]
pub struct MissingData {
    /// The candidate roots, in search order ([`candidate_roots`]).
    pub looked: Vec<PathBuf>,
    /// Whether `$CCDLAB_DATA` was set (then it was the only place looked in).
    pub from_env: bool,
}

fn missing_message(looked: &[PathBuf], from_env: bool) -> String {
    let looked = looked
        .iter()
        .map(|p| format!("  {}", p.display()))
        .collect::<Vec<_>>()
        .join("\n");
    if from_env {
        format!(
            "no data set found in {DATA_ENV}, the only place looked in while it is set:\n\
             {looked}\n(it should hold {} or {}); unset it to use the data sets committed under datasets/",
            SOURCES[0], SOURCES[1]
        )
    } else {
        format!(
            "no data set found; looked in:\n{looked}\nthe data sets are committed under datasets/ \
             in ccdlab's repository (run from a clone's root, or restore them there with \
             `git checkout -- datasets`), not in the published crate; or set {DATA_ENV} to a copy"
        )
    }
}

/// The data root, or where it was looked for. Tests that need the data call
/// this and fail loudly without it.
pub fn require_root() -> Result<PathBuf, MissingData> {
    root().ok_or_else(|| MissingData {
        looked: candidate_roots(),
        from_env: env_root().is_some(),
    })
}
