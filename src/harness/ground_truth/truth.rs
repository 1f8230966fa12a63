//! Separate truth files: `mma_bool/<step><vf|ee>_mma_bool.json` of the
//! Scalable-CCD data (Belgrod et al. 2023), one boolean per query, computed in
//! exact arithmetic (Mathematica).

use std::path::Path;

use super::{DataError, QuerySet};

/// Reads a JSON array of booleans. Malformed JSON is reported with its line
/// and column.
pub fn read_mma_bool(path: &Path) -> Result<Vec<bool>, DataError> {
    read_json(path)
}

/// Parses the bytes of a truth file; `path` names it in errors.
pub fn parse_mma_bool(path: &Path, bytes: &[u8]) -> Result<Vec<bool>, DataError> {
    parse_json(path, bytes)
}

/// Reads a JSON file into `T`, naming the file in errors.
pub(crate) fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, DataError> {
    let bytes = crate::io::read_input(path).map_err(|source| DataError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    parse_json(path, &bytes)
}

/// Parses JSON bytes into `T`, naming the file in errors.
fn parse_json<T: serde::de::DeserializeOwned>(path: &Path, bytes: &[u8]) -> Result<T, DataError> {
    serde_json::from_slice(bytes).map_err(|source| DataError::Json {
        path: path.to_path_buf(),
        source,
    })
}

/// Attaches the truth in `mma_path` to `set`: one entry per query. When the
/// set already has a truth (a 7-column CSV), both must agree.
pub fn attach_truth(set: QuerySet, mma_path: &Path) -> Result<QuerySet, DataError> {
    let truth = read_mma_bool(mma_path)?;
    with_truth(set, truth, mma_path)
}

/// [`attach_truth`] with the truth already read from `mma_path`.
pub(crate) fn with_truth(
    mut set: QuerySet,
    truth: Vec<bool>,
    mma_path: &Path,
) -> Result<QuerySet, DataError> {
    if truth.len() != set.len() {
        return Err(DataError::TruthCount {
            queries: set.path.clone(),
            truth: mma_path.to_path_buf(),
            num_queries: set.len(),
            num_truth: truth.len(),
        });
    }
    if let Some(own) = &set.truth
        && let Some(query) = own.iter().zip(&truth).position(|(a, b)| a != b)
    {
        return Err(DataError::TruthConflict {
            queries: set.path.clone(),
            truth: mma_path.to_path_buf(),
            query,
            in_queries: own[query],
            in_truth: truth[query],
        });
    }
    set.truth = Some(truth);
    Ok(set)
}
