//! Test helpers: a scratch folder per test, the sorted names in a folder,
//! random faces and edges, random meshes' faces less their repeats, and a
//! call on a rayon pool of a given size.
//! One file for the library's unit tests (`mod test_util`) and the
//! integration tests (`mod common`, by path): each of those is its own
//! crate and uses only some of these.

#![allow(dead_code)]

use std::ops::Deref;
use std::path::{Path, PathBuf};

/// A folder for one test, `ccdlab-<tag>-<process id>` under the system's
/// temporary folder: what an earlier run left there is removed first, and
/// the folder with everything in it goes when this is dropped. The tests of
/// one file run as threads of one process, so each test needs its own tag.
pub struct Scratch(PathBuf);

impl Scratch {
    /// Makes the empty folder.
    pub fn new(tag: &str) -> Scratch {
        let s = Scratch::unmade(tag);
        if let Err(e) = std::fs::create_dir(&s.0) {
            panic!("cannot make the scratch folder {}: {e}", s.0.display());
        }
        s
    }

    /// The folder not made yet, for a command that must make it (or, on
    /// failure, not). The temporary folder must exist: nothing is made
    /// outside it (a command making the scratch folder would make a missing
    /// `TMPDIR` too).
    pub fn unmade(tag: &str) -> Scratch {
        let tmp = std::env::temp_dir();
        assert!(
            tmp.is_dir(),
            "the temporary folder {} (TMPDIR) is not a folder; the tests make their scratch \
             folders in it",
            tmp.display()
        );
        let dir = tmp.join(format!("ccdlab-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        Scratch(dir)
    }

    /// Writes `content` to the file `name` in the folder (making the folders
    /// on its way) and returns its path.
    pub fn file(&self, name: &str, content: impl AsRef<[u8]>) -> PathBuf {
        let path = self.0.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
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

/// Makes a FIFO (named pipe) at `path`, with the system's `mkfifo`.
pub fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(made.success(), "mkfifo {}", path.display());
}

/// `faces` less those with the corners of an earlier one (in any order),
/// which `TriMesh` refuses: random faces over a few vertices repeat often.
pub fn without_repeated_faces(mut faces: Vec<[u32; 3]>) -> Vec<[u32; 3]> {
    let mut seen = std::collections::HashSet::new();
    faces.retain(|t| {
        let mut key = *t;
        key.sort_unstable();
        seen.insert(key)
    });
    faces
}

/// A random face over the vertices `0..n`: three distinct corners.
pub fn any_face(n: usize) -> impl proptest::strategy::Strategy<Value = [u32; 3]> {
    use proptest::strategy::Strategy;
    let n = n as u32;
    (0..n, 0..n, 0..n)
        .prop_filter("distinct corners", |(a, b, c)| a != b && b != c && a != c)
        .prop_map(|(a, b, c)| [a, b, c])
}

/// A random edge over the vertices `0..n`: two distinct ends.
pub fn any_edge(n: usize) -> impl proptest::strategy::Strategy<Value = [u32; 2]> {
    use proptest::strategy::Strategy;
    let n = n as u32;
    (0..n, 0..n)
        .prop_filter("distinct ends", |(a, b)| a != b)
        .prop_map(|(a, b)| [a, b])
}

/// `f` run on a rayon pool of `threads` workers built for it.
pub fn in_pool<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(f)
}
