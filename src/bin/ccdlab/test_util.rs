//! Helpers for the unit tests of `ccdlab`, the binary: a scratch folder per
//! test and the sorted names in a folder.

use std::ops::Deref;
use std::path::{Path, PathBuf};

/// An empty folder for one test, `ccdlab-<tag>-<process id>` under the
/// system's temporary folder: what an earlier run left there is removed
/// first, and the folder with everything in it goes when this is dropped.
/// The tests of one binary run as threads of one process, so each test
/// needs its own tag.
pub struct Scratch(PathBuf);

impl Scratch {
    /// Makes the empty folder.
    pub fn new(tag: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("ccdlab-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    /// Writes `content` to the file `name` in the folder and returns its path.
    pub fn file(&self, name: &str, content: impl AsRef<[u8]>) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, content).unwrap();
        path
    }
}

impl Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The names of the entries in `dir`, sorted.
pub fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}
