//! Finding the query sets under a path, for `ccdlab queries PATH...`.
//!
//! Layouts recognised:
//! - a query CSV file; its kind from its folder (`vertex-face`, `edge-edge`)
//!   or its stem's suffix (`vf`, `ee`);
//! - a Sample-Queries scene: `<scene>/{vertex-face,edge-edge}/*.csv` (truth in
//!   the CSVs' 7th column);
//! - a Scalable-CCD scene: `<scene>/queries/<n><vf|ee>.csv` with truth in
//!   `<scene>/mma_bool/<n><vf|ee>_mma_bool.json`; and for steps without a
//!   query CSV (cloth-ball), `<scene>/boxes/<n><vf|ee>.json` resolved against
//!   the frames `<scene>/frames/*<n>.ply` and `*<n+1>.ply`;
//! - any folder above these, searched recursively.
//!
//! Sources come back sorted by path, so the order is deterministic.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use super::boxes::{queries_from_boxes, read_boxes};
use super::truth::attach_truth;
use super::{DataError, QueryKind, QuerySet, read_query_csv};
use crate::mesh::read_step;

/// Where a query set's queries come from.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum QueryOrigin {
    /// A query CSV.
    Csv(PathBuf),
    /// A boxes JSON of candidate pairs, resolved against two frames.
    Boxes {
        /// The boxes file.
        boxes: PathBuf,
        /// The frame at `t = 0`.
        frame_t0: PathBuf,
        /// The frame at `t = 1`.
        frame_t1: PathBuf,
    },
}

/// One query set found on disk, not yet loaded (see [`load`]).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct QuerySetSource {
    /// The queries' file(s).
    pub origin: QueryOrigin,
    /// Vertex–face or edge–edge.
    pub kind: QueryKind,
    /// A separate truth file (`mma_bool`), if any.
    pub truth: Option<PathBuf>,
}

impl QuerySetSource {
    /// The query file: the CSV, or the boxes JSON.
    pub fn path(&self) -> &Path {
        match &self.origin {
            QueryOrigin::Csv(p) => p,
            QueryOrigin::Boxes { boxes, .. } => boxes,
        }
    }
}

/// Reads the queries of `source`, with their truth.
pub fn load(source: &QuerySetSource) -> Result<QuerySet, DataError> {
    let set = match &source.origin {
        QueryOrigin::Csv(path) => read_query_csv(path, source.kind)?,
        QueryOrigin::Boxes {
            boxes,
            frame_t0,
            frame_t1,
        } => {
            let (mesh, x_t0, x_t1) = read_step(frame_t0, frame_t1)?;
            let pairs = read_boxes(boxes)?;
            let points =
                queries_from_boxes(&mesh, &x_t0, &x_t1, &pairs, source.kind).map_err(|e| {
                    DataError::InFile {
                        path: boxes.clone(),
                        source: Box::new(e),
                    }
                })?;
            QuerySet {
                path: boxes.clone(),
                kind: source.kind,
                points,
                truth: None,
            }
        }
    };
    match &source.truth {
        Some(truth) => attach_truth(set, truth),
        None => Ok(set),
    }
}

/// The query sets under each of `paths`, in order, each set once: a set
/// under two of the paths (a folder and a file or folder in it, or one path
/// given twice) is scored once, where it is first found. Sets are the same
/// when their query files are the same file (`std::fs::canonicalize`).
pub fn discover_query_sets_in(
    paths: &[impl AsRef<Path>],
) -> Result<Vec<QuerySetSource>, DataError> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for path in paths {
        for source in discover_query_sets(path.as_ref())? {
            let file = std::fs::canonicalize(source.path()).map_err(io(source.path()))?;
            if seen.insert((file, source.kind)) {
                out.push(source);
            }
        }
    }
    Ok(out)
}

/// The query sets under `path` (see the module doc for the layouts).
/// A path with none is an error naming it.
pub fn discover_query_sets(path: &Path) -> Result<Vec<QuerySetSource>, DataError> {
    let meta = std::fs::metadata(path).map_err(|source| DataError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let mut out = Vec::new();
    if meta.is_dir() {
        walk(path, 0, &mut out)?;
    } else {
        out.push(file_source(path)?);
    }
    if out.is_empty() {
        return Err(DataError::Discovery {
            path: path.to_path_buf(),
            message: "no query files here (expected vertex-face/ or edge-edge/ folders of CSVs, \
                      or a scene with queries/ or boxes/ and frames/)"
                .into(),
        });
    }
    out.sort_by(|a, b| a.path().cmp(b.path()).then_with(|| a.cmp(b)));
    out.dedup();
    Ok(out)
}

/// Folder depth beyond which the search stops (guards symlink cycles).
const MAX_DEPTH: usize = 16;

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> DataError + '_ {
    move |source| DataError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The entries of `dir`, sorted by name.
fn sorted_entries(dir: &Path) -> Result<Vec<PathBuf>, DataError> {
    let mut entries = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io(dir))? {
        entries.push(entry.map_err(io(dir))?.path());
    }
    entries.sort();
    Ok(entries)
}

/// Files of `dir` with one of the extensions `exts` (case-insensitive),
/// sorted. An entry so named that is no regular file (a FIFO, a device, a
/// folder, a dangling or looping link) is refused, not skipped, so that a
/// folder's score never leaves a set out silently.
fn files_with_extension(dir: &Path, exts: &[&str]) -> Result<Vec<PathBuf>, DataError> {
    let mut files = Vec::new();
    for path in sorted_entries(dir)? {
        if !exts.iter().any(|ext| has_extension(&path, ext)) {
            continue;
        }
        // The error reading such a file directly gives (Python raises
        // OSError for both); nothing readable there is a dangling link.
        match crate::io::check_regular(&path) {
            Ok(()) => files.push(path),
            Err(e) if e.kind() == std::io::ErrorKind::InvalidInput => {
                return Err(io(&path)(e));
            }
            Err(e) => {
                let message = format!("a link to nothing readable ({e})");
                return Err(io(&path)(std::io::Error::new(e.kind(), message)));
            }
        }
    }
    Ok(files)
}

fn has_extension(path: &Path, ext: &str) -> bool {
    path.extension()
        .is_some_and(|e| e.to_string_lossy().eq_ignore_ascii_case(ext))
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn is_scalable_scene(dir: &Path) -> bool {
    dir.join("queries").is_dir() || dir.join("boxes").is_dir()
}

fn walk(dir: &Path, depth: usize, out: &mut Vec<QuerySetSource>) -> Result<(), DataError> {
    if depth > MAX_DEPTH {
        return Ok(());
    }
    let name = file_name(dir);
    if let Some(kind) = QueryKind::from_folder_name(&name) {
        for csv in files_with_extension(dir, &["csv"])? {
            out.push(QuerySetSource {
                origin: QueryOrigin::Csv(csv),
                kind,
                truth: None,
            });
        }
        return Ok(());
    }
    if is_scalable_scene(dir) {
        return scalable_scene(dir, out);
    }
    if name == "queries" {
        for csv in files_with_extension(dir, &["csv"])? {
            out.push(file_source(&csv)?);
        }
        return Ok(());
    }
    for entry in sorted_entries(dir)? {
        if entry.is_dir() {
            walk(&entry, depth + 1, out)?;
        }
    }
    Ok(())
}

/// The truth file of the Scalable-CCD query file or boxes file `queries`,
/// named by its stem, if there is anything at its path (something that is
/// no readable file is then an error naming it). The stem is the file's own,
/// not the lossy text the kind is read from, so that a stem that is not
/// UTF-8 finds its truth file.
fn mma_bool(scene: &Path, queries: &Path) -> Option<PathBuf> {
    let mut name = queries.file_stem()?.to_os_string();
    name.push("_mma_bool.json");
    let p = scene.join("mma_bool").join(name);
    // `symlink_metadata`: a dangling link is something at the path too.
    p.symlink_metadata().is_ok().then_some(p)
}

fn kind_from_stem(path: &Path) -> Result<QueryKind, DataError> {
    QueryKind::from_stem(&stem(path)).ok_or_else(|| DataError::Discovery {
        path: path.to_path_buf(),
        message: "cannot tell vertex-face from edge-edge queries: the file's name should end \
                  in `vf` or `ee`, or it should lie in a `vertex-face` or `edge-edge` folder"
            .into(),
    })
}

/// A single file given by the user: a query CSV or a boxes JSON.
fn file_source(path: &Path) -> Result<QuerySetSource, DataError> {
    let parent = path.parent().unwrap_or(Path::new(""));
    let parent_name = file_name(parent);
    if has_extension(path, "csv") {
        if let Some(kind) = QueryKind::from_folder_name(&parent_name) {
            return Ok(QuerySetSource {
                origin: QueryOrigin::Csv(path.to_path_buf()),
                kind,
                truth: None,
            });
        }
        let kind = kind_from_stem(path)?;
        let truth = if parent_name == "queries" {
            parent.parent().and_then(|scene| mma_bool(scene, path))
        } else {
            None
        };
        return Ok(QuerySetSource {
            origin: QueryOrigin::Csv(path.to_path_buf()),
            kind,
            truth,
        });
    }
    if has_extension(path, "json") && parent_name == "boxes" {
        let scene = parent.parent().unwrap_or(Path::new(""));
        return boxes_source(scene, path);
    }
    Err(DataError::Discovery {
        path: path.to_path_buf(),
        message: "not a query file (expected a .csv of queries, or a boxes/*.json)".into(),
    })
}

/// The trailing decimal number of a file stem (`cloth_ball92` → 92).
fn trailing_number(stem: &str) -> Option<u64> {
    let digits = stem.len() - stem.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    stem[stem.len() - digits..].parse().ok()
}

/// A boxes file and the frames of its step.
fn boxes_source(scene: &Path, boxes: &Path) -> Result<QuerySetSource, DataError> {
    let kind = kind_from_stem(boxes)?;
    let s = stem(boxes);
    let step = trailing_number(&s[..s.len() - kind.suffix().len()]).ok_or_else(|| {
        DataError::Discovery {
            path: boxes.to_path_buf(),
            message: "the name should be <frame number><vf|ee>.json".into(),
        }
    })?;
    let frames_dir = scene.join("frames");
    let frames = if frames_dir.is_dir() {
        files_with_extension(&frames_dir, &["ply", "obj"])?
    } else {
        Vec::new()
    };
    let frame = |n: u64| {
        let found: Vec<&PathBuf> = frames
            .iter()
            .filter(|p| trailing_number(&stem(p)) == Some(n))
            .collect();
        match found.as_slice() {
            [one] => Ok((*one).clone()),
            [] => Err(DataError::Discovery {
                path: boxes.to_path_buf(),
                message: format!("no frame {n} in {}", frames_dir.display()),
            }),
            _ => Err(DataError::Discovery {
                path: boxes.to_path_buf(),
                message: format!("several files for frame {n} in {}", frames_dir.display()),
            }),
        }
    };
    Ok(QuerySetSource {
        origin: QueryOrigin::Boxes {
            boxes: boxes.to_path_buf(),
            frame_t0: frame(step)?,
            frame_t1: frame(step.checked_add(1).ok_or_else(|| DataError::Discovery {
                path: boxes.to_path_buf(),
                message: "the frame number is too large".into(),
            })?)?,
        },
        kind,
        truth: mma_bool(scene, boxes),
    })
}

/// A Scalable-CCD scene: its query CSVs, and its boxes for steps without one.
fn scalable_scene(scene: &Path, out: &mut Vec<QuerySetSource>) -> Result<(), DataError> {
    let queries = scene.join("queries");
    // The files' own stems, not their lossy text: two stems that are not
    // UTF-8 may read alike and still name two steps.
    let mut csv_stems = Vec::new();
    if queries.is_dir() {
        for csv in files_with_extension(&queries, &["csv"])? {
            csv_stems.push(csv.file_stem().map(OsStr::to_os_string));
            out.push(file_source(&csv)?);
        }
    }
    let boxes = scene.join("boxes");
    if boxes.is_dir() {
        for json in files_with_extension(&boxes, &["json"])? {
            if !csv_stems.contains(&json.file_stem().map(OsStr::to_os_string)) {
                out.push(boxes_source(scene, &json)?);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trailing_numbers_of_frame_names() {
        assert_eq!(trailing_number("cloth_ball92"), Some(92));
        assert_eq!(trailing_number("227"), Some(227));
        assert_eq!(trailing_number("frame"), None);
        assert_eq!(trailing_number(""), None);
    }

    #[cfg(unix)]
    #[test]
    fn entries_named_like_query_files_that_are_no_regular_files_are_refused() {
        use crate::test_util::Scratch;
        use crate::test_util::mkfifo;
        use std::os::unix::fs::symlink;
        type Case = (&'static str, fn(&Path), &'static str);
        let cases: [Case; 4] = [
            ("dangling", |p| symlink("nothing", p).unwrap(), "link"),
            ("fifo", mkfifo, "FIFO"),
            (
                "dev-zero",
                |p| symlink("/dev/zero", p).unwrap(),
                "character device",
            ),
            ("folder", |p| std::fs::create_dir(p).unwrap(), "folder"),
        ];
        // Where a folder is searched: a query-kind folder, a scene's queries/
        // and boxes/, and the frames a boxes file needs.
        let places = [
            "sets/vertex-face/data_0_1.csv",
            "scene/queries/227vf.csv",
            "scene/boxes/227ee.json",
            "scene/frames/228.ply",
        ];
        for (tag, make, says) in cases {
            for (k, place) in places.iter().enumerate() {
                let d = Scratch::new(&format!("discover-irregular-{tag}-{k}"));
                d.file("sets/vertex-face/data_0_0.csv", "1,1,1,1,1,1\n");
                d.file("scene/boxes/227vf.json", "[]");
                d.file("scene/frames/227.ply", "");
                d.file("scene/frames/228.ply", "");
                let bad = d.join(place);
                let _ = std::fs::remove_file(&bad);
                std::fs::create_dir_all(bad.parent().unwrap()).unwrap();
                make(&bad);
                let e = discover_query_sets(&d).unwrap_err();
                let message = e.to_string();
                assert!(
                    message.contains(place) && message.contains(says),
                    "{tag} at {place}: {message}"
                );
            }
        }
    }

    #[test]
    fn a_set_under_several_paths_is_found_once() {
        let d = crate::test_util::Scratch::new("discover-overlapping");
        let a = d.file("sets/vertex-face/data_0_0.csv", "");
        let b = d.file("sets/edge-edge/data_0_0.csv", "");
        let sets = d.join("sets");
        let dotted = d.join("sets/./vertex-face/data_0_0.csv");
        let found = discover_query_sets_in(&[&a, &sets, &dotted, &sets]).unwrap();
        let files: Vec<&Path> = found.iter().map(QuerySetSource::path).collect();
        assert_eq!(files, [a.as_path(), b.as_path()]);
    }

    #[cfg(unix)]
    #[test]
    fn a_dangling_truth_link_is_taken_so_that_reading_it_names_it() {
        let d = crate::test_util::Scratch::new("discover-dangling-truth");
        let csv = d.file("scene/queries/227vf.csv", "");
        std::fs::create_dir_all(d.join("scene/mma_bool")).unwrap();
        let truth = d.join("scene/mma_bool/227vf_mma_bool.json");
        std::os::unix::fs::symlink("nothing", &truth).unwrap();
        let sets = discover_query_sets(&csv).unwrap();
        assert_eq!(sets.len(), 1);
        assert_eq!(sets[0].truth.as_deref(), Some(truth.as_path()));
    }
}
