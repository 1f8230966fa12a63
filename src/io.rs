//! Input files read whole, and only when they are regular files
//! ([`read_input`]); output files that are either complete or absent: every
//! file the crate writes goes to a temporary sibling first and is renamed
//! into place. A temporary that a run killed by a signal left behind is
//! removed by the next write of that file (or folder) once its process is
//! gone.
//!
//! Only a regular file (or a new one) can be replaced that way. A path that
//! names something else is written as a shell redirection would write it:
//! a symbolic link is followed (its target is replaced, the link stays), a
//! device or FIFO (`/dev/null`, `/dev/stdout`) is written through, without
//! the all-or-nothing guarantee, which a stream cannot give; a folder and a
//! read-only file are refused (a rename would bypass the file's mode). A
//! replaced file keeps its permissions.
//!
//! This sits below every stage (the mesh writers use it as well as the
//! harness), and is re-exported as `harness::output`.

use std::fs::{FileType, Permissions};
use std::io::{BufWriter, Error, ErrorKind, Read, Write};
use std::path::{Path, PathBuf};

/// The largest input file read: 4 GiB, far above a mesh of tens of millions
/// of triangles, and below what a sparse file of any apparent size would
/// make the reader allocate.
pub const MAX_INPUT_BYTES: u64 = 4 << 30;

/// The UTF-8 byte order mark, which the text readers (OBJ, ASCII PLY,
/// query CSVs) skip at a file's start.
pub const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// What the text readers (OBJ, ASCII PLY, query CSVs) say of a line that
/// still holds a carriage return once its `\n` or `\r\n` is taken off:
/// the file's lines end in bare `\r`s, which would otherwise run together
/// and be reported as a wrong token.
pub const BARE_CARRIAGE_RETURN: &str = "a carriage return (`\\r`) inside the line: lines end in \
     `\\n` or `\\r\\n` (a file with bare `\\r` line ends, as old Mac tools write, needs converting)";

/// Reads the whole of the regular file at `path` (symbolic links followed).
///
/// Anything else is refused before it is opened, with an
/// [`ErrorKind::InvalidInput`] error saying what it is: a FIFO would block
/// the read until a writer comes, a device such as `/dev/zero` would grow
/// the buffer without bound, and a folder has no content. A file over
/// [`MAX_INPUT_BYTES`] is refused too ([`ErrorKind::FileTooLarge`]). The
/// read is bounded by the size the file had when it was opened.
pub fn read_input(path: &Path) -> std::io::Result<Vec<u8>> {
    check_regular(path)?;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        // Should the path have become a FIFO since the check, opening it
        // must not block either.
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    let metadata = file.metadata()?;
    refuse_irregular(metadata.file_type())?;
    let len = metadata.len();
    if len > MAX_INPUT_BYTES {
        return Err(Error::new(
            ErrorKind::FileTooLarge,
            format!("{len} bytes; at most {MAX_INPUT_BYTES} are read"),
        ));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    file.take(len).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// [`read_input`] as UTF-8 text ([`ErrorKind::InvalidData`] otherwise).
pub fn read_input_to_string(path: &Path) -> std::io::Result<String> {
    String::from_utf8(read_input(path)?)
        .map_err(|_| Error::new(ErrorKind::InvalidData, "the file is not valid UTF-8 text"))
}

/// `Ok` when `path` is a regular file (symbolic links followed): the check
/// [`read_input`] makes before it opens a file, for a caller that lists
/// files before reading them. The operating system's error when nothing
/// readable is there (a dangling link: [`ErrorKind::NotFound`]).
pub fn check_regular(path: &Path) -> std::io::Result<()> {
    refuse_irregular(std::fs::metadata(path)?.file_type())
}

/// An [`ErrorKind::InvalidInput`] error unless `file_type` is a regular
/// file's.
fn refuse_irregular(file_type: FileType) -> std::io::Result<()> {
    if file_type.is_file() {
        return Ok(());
    }
    Err(Error::new(
        ErrorKind::InvalidInput,
        format!(
            "{}, not a regular file; only regular files are read",
            file_kind(file_type)
        ),
    ))
}

/// What a file that is not regular is, in words ("a FIFO", "a folder", …).
pub fn file_kind(file_type: FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    if file_type.is_dir() {
        "a folder"
    } else if file_type.is_symlink() {
        "a symbolic link"
    } else if file_type.is_file() {
        "a regular file"
    } else {
        "a special file"
    }
}

/// Writes `bytes` to `path` atomically: a temporary file in the same folder,
/// flushed and synced, then renamed over `path`. On error nothing is left at
/// `path` (an older file there stays untouched) and the temporary is removed.
/// Other kinds of `path`: see the module doc.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomic_with(path, |w| w.write_all(bytes))
}

/// Like [`write_atomic`], with the content produced by `fill`.
pub fn write_atomic_with(
    path: &Path,
    fill: impl FnOnce(&mut BufWriter<std::fs::File>) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let (path, permissions) = match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => {
            return Err(Error::new(
                ErrorKind::IsADirectory,
                "is a folder, not a file",
            ));
        }
        Ok(m) if !m.is_file() => {
            // A device, FIFO or socket: nothing to rename over.
            let file = std::fs::OpenOptions::new().write(true).open(path)?;
            let mut w = BufWriter::new(file);
            fill(&mut w)?;
            return w.flush();
        }
        Ok(m) if m.permissions().readonly() => {
            return Err(Error::new(
                ErrorKind::PermissionDenied,
                "the file is read-only; not replaced",
            ));
        }
        // The file the path leads to, through any symbolic links.
        Ok(m) => (std::fs::canonicalize(path)?, Some(m.permissions())),
        Err(e) if e.kind() == ErrorKind::NotFound => (link_target(path)?, None),
        Err(e) => return Err(e),
    };
    replace(&path, permissions, fill)
}

/// Why [`replace_folder`] failed; `out` is as it was in every case.
#[derive(Debug)]
#[non_exhaustive]
pub enum FolderError<E> {
    /// The temporary folder could not be made beside `out` (a parent that
    /// cannot be created or written, or `out` without a folder name).
    Create(std::io::Error),
    /// `write` failed.
    Write(E),
    /// The old folder could not be moved aside, or the new one into place.
    Swap(std::io::Error),
}

/// Writes the folder `out` all or nothing: `write` fills a new temporary
/// folder beside it (`.NAME.TAG-PID.tmp`), which then takes the place of
/// `out`. An old `out` is moved aside first, put back if the new folder
/// cannot be moved in, and removed last. On any error, or a panic in
/// `write`, the temporary folder is removed and `out` is left as it was
/// (one that a killed run left goes on the next run: `temp_folder`).
/// Whether an old `out` may be replaced is the caller's to decide.
pub fn replace_folder<T, E>(
    out: &Path,
    tag: &str,
    write: impl FnOnce(&Path) -> Result<T, E>,
) -> Result<T, FolderError<E>> {
    /// Removes the temporary folder when dropped, unless moved into place.
    struct Guard(Option<PathBuf>);
    impl Drop for Guard {
        fn drop(&mut self) {
            if let Some(p) = self.0.take() {
                let _ = std::fs::remove_dir_all(p);
            }
        }
    }
    let parent = parent_or_dot(out);
    let name = out.file_name().ok_or_else(|| {
        FolderError::Create(Error::new(ErrorKind::InvalidInput, "no folder name"))
    })?;
    let name = name.to_string_lossy();
    std::fs::create_dir_all(parent).map_err(FolderError::Create)?;
    let pid = std::process::id();
    let tmp = temp_folder(parent, &format!(".{name}.{tag}-")).map_err(FolderError::Create)?;
    let mut guard = Guard(Some(tmp.clone()));
    let value = write(&tmp).map_err(FolderError::Write)?;
    let old = parent.join(format!(".{name}.{tag}-{pid}.old"));
    let had_old = std::fs::symlink_metadata(out).is_ok();
    if had_old {
        std::fs::rename(out, &old).map_err(FolderError::Swap)?;
    }
    if let Err(e) = std::fs::rename(&tmp, out) {
        if had_old {
            let _ = std::fs::rename(&old, out);
        }
        return Err(FolderError::Swap(e));
    }
    guard.0 = None;
    if had_old {
        let _ = std::fs::remove_dir_all(&old);
    }
    Ok(value)
}

/// Why a [`StagedFolder`] could not begin or commit: the path concerned
/// and the cause.
#[derive(Debug, thiserror::Error)]
#[error("{}: {message}", path.display())]
pub struct StageError {
    /// The folder or file concerned.
    pub path: PathBuf,
    /// What went wrong.
    pub message: String,
}

impl StageError {
    fn new(path: &Path, message: impl Into<String>) -> StageError {
        StageError {
            path: path.to_path_buf(),
            message: message.into(),
        }
    }
}

/// The output files of one run into a folder `out` that may already hold
/// other files (a report folder, a folder of frames): written into a hidden
/// staging folder ([`StagedFolder::path`]) and moved into `out` by
/// [`StagedFolder::commit`] once all are written. Dropped without a commit
/// (an error, a panic), it removes the staging folder and every folder it
/// created on the way to `out`, so a failed run leaves neither a partial
/// nor an empty `out` behind, and an existing `out` as it was; a staging
/// folder that a run killed by a signal left goes on the next run.
///
/// When `out` is an existing folder, the staging folder is inside it
/// (`.TAG-PID.tmp`) and the files are moved in one by one, each replacing
/// an older file of its name, other files left alone; otherwise the staging
/// folder is a sibling of `out` (`.NAME.TAG-PID.tmp`), renamed into place.
/// Unlike [`replace_folder`], nothing of an old `out` is removed.
#[derive(Debug)]
pub struct StagedFolder {
    out: PathBuf,
    /// The staging folder, until committed.
    dir: Option<PathBuf>,
    /// Whether `out` was an existing folder.
    into_existing: bool,
    /// Folders created on the way to `out`, outermost first.
    created: Vec<PathBuf>,
}

impl StagedFolder {
    /// Checks `out` (a folder, or nothing yet: not a file, not a dangling
    /// symbolic link) and creates the staging folder, and any missing
    /// folders above `out`. `tag` names the command in the staging
    /// folder's name.
    pub fn begin(out: &Path, tag: &str) -> Result<StagedFolder, StageError> {
        let bad = |message: String| StageError::new(out, message);
        let mut stage = StagedFolder {
            out: out.to_path_buf(),
            dir: None,
            into_existing: false,
            created: Vec::new(),
        };
        match std::fs::metadata(out) {
            Ok(m) if m.is_dir() => {
                stage.into_existing = true;
                let dir = temp_folder(out, &format!(".{tag}-"))
                    .map_err(|e| bad(format!("cannot create a folder in it: {e}")))?;
                stage.dir = Some(dir);
                return Ok(stage);
            }
            Ok(_) => return Err(bad("exists and is not a folder".into())),
            // A file above `out`: the walk below names it.
            Err(e) if e.kind() == ErrorKind::NotADirectory => {}
            Err(e) if e.kind() == ErrorKind::NotFound => {
                if std::fs::symlink_metadata(out).is_ok() {
                    return Err(bad("is a symbolic link to nothing".into()));
                }
            }
            Err(e) => return Err(bad(format!("cannot be inspected: {e}"))),
        }
        let name = out
            .file_name()
            .ok_or_else(|| bad("does not end in a folder name".into()))?;
        let parent = parent_or_dot(out);
        // The missing folders above `out`, innermost first.
        let mut missing = Vec::new();
        let mut p = parent;
        loop {
            match std::fs::metadata(p) {
                Ok(m) if m.is_dir() => break,
                Ok(_) => return Err(bad(format!("{} is not a folder", p.display()))),
                // Missing, or below a file: the walk goes on up to the file.
                Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => {
                    missing.push(p.to_path_buf());
                    match p.parent() {
                        Some(q) if !q.as_os_str().is_empty() => p = q,
                        _ => break,
                    }
                }
                Err(e) => return Err(bad(format!("cannot inspect {}: {e}", p.display()))),
            }
        }
        for d in missing.into_iter().rev() {
            std::fs::create_dir(&d)
                .map_err(|e| bad(format!("cannot create {}: {e}", d.display())))?;
            stage.created.push(d);
        }
        let prefix = format!(".{}.{tag}-", name.to_string_lossy());
        let dir = temp_folder(parent, &prefix).map_err(|e| {
            bad(format!(
                "cannot create a folder in {}: {e}",
                parent.display()
            ))
        })?;
        stage.dir = Some(dir);
        Ok(stage)
    }

    /// The folder the staged files replace or join on
    /// [`StagedFolder::commit`].
    pub fn out(&self) -> &Path {
        &self.out
    }

    /// Where the output file `name` is written before the commit.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.as_deref().unwrap_or(&self.out).join(name)
    }

    /// Moves the staged files into `out`; returns their paths there, sorted.
    /// Into an existing `out`, every destination is checked first: a name
    /// taken by something that is no plain file (a folder) fails the commit
    /// before anything moves.
    pub fn commit(mut self) -> Result<Vec<PathBuf>, StageError> {
        let Some(dir) = self.dir.clone() else {
            return Ok(Vec::new());
        };
        fn at(p: &Path) -> impl FnOnce(Error) -> StageError + '_ {
            move |e| StageError::new(p, e.to_string())
        }
        let mut staged: Vec<PathBuf> = std::fs::read_dir(&dir)
            .and_then(|d| d.map(|e| e.map(|e| e.path())).collect())
            .map_err(at(&dir))?;
        staged.sort();
        let names: Vec<_> = staged.iter().filter_map(|p| p.file_name()).collect();
        let placed: Vec<PathBuf> = names.iter().map(|n| self.out.join(n)).collect();
        if self.into_existing {
            for p in &placed {
                check_replaceable(p)?;
            }
            for (from, to) in staged.iter().zip(&placed) {
                std::fs::rename(from, to).map_err(at(to))?;
            }
            std::fs::remove_dir(&dir).map_err(at(&dir))?;
        } else {
            std::fs::rename(&dir, &self.out).map_err(at(&self.out))?;
        }
        self.dir = None;
        self.created.clear();
        Ok(placed)
    }
}

/// Whether [`StagedFolder::commit`] may put a file at `path`: nothing is
/// there, or a plain file (not a folder, a symbolic link, a FIFO or a
/// device). The commit checks every destination before it moves anything; a
/// caller that commits several folders checks them all with this before the
/// first commit, so that a refusal leaves no folder's files in place.
pub fn check_replaceable(path: &Path) -> Result<(), StageError> {
    if path.symlink_metadata().is_ok_and(|m| !m.is_file()) {
        return Err(StageError::new(
            path,
            "is in the way of an output file (not a plain file); move it away",
        ));
    }
    Ok(())
}

impl Drop for StagedFolder {
    fn drop(&mut self) {
        if let Some(dir) = self.dir.take() {
            let _ = std::fs::remove_dir_all(dir);
        }
        // Innermost first; `remove_dir` leaves a folder that someone else
        // has meanwhile put something in.
        for d in self.created.iter().rev() {
            let _ = std::fs::remove_dir(d);
        }
    }
}

/// A new empty folder `dir/PREFIX<pid>.tmp` for this process. Folders
/// `PREFIX<n>.tmp` that a run killed by a signal left there (a run that
/// ends by an error or a panic removes its own) are removed first, when no
/// process `n` exists any more; a folder of a live process is left alone.
fn temp_folder(dir: &Path, prefix: &str) -> std::io::Result<PathBuf> {
    remove_stale(dir, prefix);
    let tmp = dir.join(format!("{prefix}{}.tmp", std::process::id()));
    std::fs::create_dir(&tmp)?;
    Ok(tmp)
}

/// Removes the temporaries `dir/PREFIX<n>.tmp` (folders or files) of this
/// process and of processes `n` that no longer exist: what a run killed by
/// a signal left (a run that ends by an error or a panic removes its own).
/// A temporary of a live process is left alone.
fn remove_stale(dir: &Path, prefix: &str) {
    let own = std::process::id();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let pid = name
            .to_str()
            .and_then(|n| n.strip_prefix(prefix))
            .and_then(|n| n.strip_suffix(".tmp"))
            .and_then(|n| n.parse::<u32>().ok());
        if pid.is_some_and(|p| p == own || !process_exists(p)) {
            let _ = match e.file_type() {
                Ok(t) if t.is_dir() => std::fs::remove_dir_all(e.path()),
                _ => std::fs::remove_file(e.path()),
            };
        }
    }
}

/// Whether a process `pid` exists (signal 0 checks without sending
/// anything; `EPERM`: it exists but belongs to another user). Where that
/// cannot be asked, every process is taken to exist.
#[cfg(unix)]
fn process_exists(pid: u32) -> bool {
    let Ok(p) = libc::pid_t::try_from(pid) else {
        return true;
    };
    if p <= 0 {
        return true;
    }
    // SAFETY: `kill` with signal 0 only checks that `p` could be signalled.
    let rc = unsafe { libc::kill(p, 0) };
    rc == 0 || Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

#[cfg(not(unix))]
fn process_exists(_pid: u32) -> bool {
    true
}

/// Checks, before any work, that an output file can go to `path`: its
/// folder exists and can be written, it is no folder itself, no read-only
/// file, and none of `inputs` (a run would otherwise write its results over
/// what it read). Leaves nothing behind (the writability is tried with the
/// write's own temporary file, removed at once); the write itself may still
/// fail (a full disk). The path `-` is refused: command-line tools read it
/// as standard output, which carries the command's own results here, and a
/// file named `-` would surprise (`./-` names one).
pub fn check_output(path: &Path, inputs: &[&Path]) -> std::io::Result<()> {
    if path.as_os_str() == "-" {
        return Err(Error::new(
            ErrorKind::InvalidInput,
            "not standard output here (that carries the results); give a file name (./- for a \
             file named -)",
        ));
    }
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => Err(Error::new(
            ErrorKind::IsADirectory,
            "is a folder, not a file",
        )),
        Ok(m) if m.is_file() => {
            if m.permissions().readonly() {
                return Err(Error::new(
                    ErrorKind::PermissionDenied,
                    "the file is read-only",
                ));
            }
            let real = std::fs::canonicalize(path)?;
            match inputs
                .iter()
                .find(|i| std::fs::canonicalize(i).is_ok_and(|c| c == real))
            {
                Some(i) => Err(Error::new(
                    ErrorKind::InvalidInput,
                    format!("is the input {}; choose another output file", i.display()),
                )),
                None => check_writable(&real),
            }
        }
        // A device or FIFO: written through.
        Ok(_) => Ok(()),
        Err(e) if e.kind() == ErrorKind::NotFound => {
            let target = link_target(path)?;
            let dir = parent_or_dot(&target);
            if dir.is_dir() {
                check_writable(&target)
            } else {
                Err(Error::new(
                    ErrorKind::NotFound,
                    format!("folder {} does not exist", dir.display()),
                ))
            }
        }
        Err(e) => Err(e),
    }
}

/// Whether the regular file `path` (its symbolic links resolved) can be
/// written as [`replace`] writes it: creates its temporary sibling and
/// removes it again. A folder that cannot be written (its mode, a read-only
/// file system) would otherwise fail the write only after all the work.
fn check_writable(path: &Path) -> std::io::Result<()> {
    let (dir, _, tmp) = temp_sibling(path)?;
    match std::fs::File::create(&tmp) {
        Ok(_) => std::fs::remove_file(&tmp),
        Err(e) => Err(Error::new(
            e.kind(),
            format!("folder {} cannot be written: {e}", dir.display()),
        )),
    }
}

/// The folder of the regular file `path`, the prefix of its temporaries
/// (`.NAME.`) and this process's temporary (`.NAME.PID.tmp`), which
/// [`replace`] writes and renames into place.
fn temp_sibling(path: &Path) -> std::io::Result<(&Path, String, PathBuf)> {
    let dir = parent_or_dot(path);
    let name = path
        .file_name()
        .ok_or_else(|| Error::new(ErrorKind::InvalidInput, "output path has no file name"))?;
    let prefix = format!(".{}.", name.to_string_lossy());
    let tmp = dir.join(format!("{prefix}{}.tmp", std::process::id()));
    Ok((dir, prefix, tmp))
}

/// The folder of `path` (`.` for a bare file name).
fn parent_or_dot(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// Where a path that leads to nothing would be created: the path itself, or
/// the end of its chain of (dangling) symbolic links.
fn link_target(path: &Path) -> std::io::Result<PathBuf> {
    let mut p = path.to_path_buf();
    // As many links as Linux follows (`ELOOP` beyond).
    for _ in 0..40 {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let t = std::fs::read_link(&p)?;
                p = match p.parent() {
                    Some(dir) if t.is_relative() => dir.join(t),
                    _ => t,
                };
            }
            _ => return Ok(p),
        }
    }
    Err(Error::other("too many levels of symbolic links"))
}

/// Writes the regular file `path` (new, or replaced with `permissions`)
/// through a temporary sibling (`.NAME.PID.tmp`; one that a killed run
/// left goes first, [`remove_stale`]).
fn replace(
    path: &Path,
    permissions: Option<Permissions>,
    fill: impl FnOnce(&mut BufWriter<std::fs::File>) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let (dir, prefix, tmp) = temp_sibling(path)?;
    remove_stale(dir, &prefix);
    let result = (|| {
        let file = std::fs::File::create(&tmp)?;
        let mut w = BufWriter::new(file);
        fill(&mut w)?;
        let file = w.into_inner().map_err(|e| e.into_error())?;
        if let Some(p) = permissions {
            file.set_permissions(p)?;
        }
        file.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::{Scratch, names};

    #[cfg(unix)]
    #[test]
    fn only_regular_files_are_read_and_others_refused_at_once() {
        let dir = Scratch::new("io-read-input");
        let file = dir.join("frame.ply");
        std::fs::write(&file, b"content").unwrap();
        assert_eq!(read_input(&file).unwrap(), b"content");
        // Through a symbolic link too.
        let link = dir.join("link.ply");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        assert_eq!(read_input(&link).unwrap(), b"content");

        // A FIFO with no writer: opening it for reading would block forever.
        let fifo = dir.join("pipe.ply");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let fifo_link = dir.join("pipe-link.ply");
        std::os::unix::fs::symlink(&fifo, &fifo_link).unwrap();
        // `/dev/zero` never ends: read whole, it would fill the memory.
        for (path, kind) in [
            (fifo.as_path(), "a FIFO"),
            (fifo_link.as_path(), "a FIFO"),
            (Path::new("/dev/zero"), "a character device"),
            (dir.as_ref(), "a folder"),
        ] {
            let e = read_input(path).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::InvalidInput, "{}", path.display());
            let message = e.to_string();
            assert!(message.starts_with(kind), "{}: {message}", path.display());
            assert!(message.contains("not a regular file"), "{message}");
        }
        // A sparse file of a huge apparent size is refused, not allocated.
        let sparse = dir.join("sparse.ply");
        std::fs::File::create(&sparse)
            .unwrap()
            .set_len(1 << 40)
            .unwrap();
        let e = read_input(&sparse).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::FileTooLarge);
        assert!(e.to_string().contains("1099511627776 bytes"), "{e}");
        // A dangling link and a missing file are "not found".
        let dangling = dir.join("dangling.ply");
        std::os::unix::fs::symlink(dir.join("nothing"), &dangling).unwrap();
        assert_eq!(
            read_input(&dangling).unwrap_err().kind(),
            ErrorKind::NotFound
        );
    }

    #[test]
    fn a_failed_fill_leaves_no_file() {
        let dir = Scratch::new("io-failed");
        let path = dir.join("x.json");
        let err = write_atomic_with(&path, |w| {
            w.write_all(b"{\"half\":")?;
            Err(std::io::Error::other("boom"))
        });
        assert!(err.is_err());
        assert!(!path.exists());
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        write_atomic(&path, b"ok").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"ok");
    }

    #[test]
    fn a_folder_is_refused() {
        let dir = Scratch::new("io-folder");
        let err = write_atomic(&dir, b"x").unwrap_err();
        assert_eq!(err.kind(), ErrorKind::IsADirectory);
        assert!(dir.is_dir());
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_is_followed_and_kept() {
        use std::os::unix::fs::symlink;
        let dir = Scratch::new("io-link");
        let (target, link) = (dir.join("target.txt"), dir.join("link.csv"));
        std::fs::write(&target, b"keep").unwrap();
        symlink("target.txt", &link).unwrap();
        write_atomic(&link, b"new").unwrap();
        assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read(&target).unwrap(), b"new");
        // A dangling link: its target is created.
        let (missing, dangling) = (dir.join("missing.txt"), dir.join("dangling.csv"));
        symlink("missing.txt", &dangling).unwrap();
        write_atomic(&dangling, b"made").unwrap();
        assert!(
            dangling
                .symlink_metadata()
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read(&missing).unwrap(), b"made");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 4);
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_written_through_not_replaced() {
        use std::os::unix::fs::FileTypeExt;
        let dir = Scratch::new("io-fifo");
        let fifo = dir.join("pipe");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read(fifo).unwrap())
        };
        write_atomic(&fifo, b"through").unwrap();
        // Checked before joining: a replaced FIFO would leave the reader
        // waiting for a writer.
        assert!(fifo.metadata().unwrap().file_type().is_fifo());
        assert_eq!(reader.join().unwrap(), b"through");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn a_replaced_file_keeps_its_mode_and_a_read_only_one_is_refused() {
        use std::os::unix::fs::PermissionsExt;
        let dir = Scratch::new("io-mode");
        let path = dir.join("x.csv");
        std::fs::write(&path, b"old").unwrap();
        std::fs::set_permissions(&path, Permissions::from_mode(0o640)).unwrap();
        write_atomic(&path, b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        assert_eq!(path.metadata().unwrap().permissions().mode() & 0o777, 0o640);
        std::fs::set_permissions(&path, Permissions::from_mode(0o444)).unwrap();
        let err = write_atomic(&path, b"newer").unwrap_err();
        assert_eq!(err.kind(), ErrorKind::PermissionDenied);
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    }

    #[test]
    fn check_output_refuses_inputs_folders_and_missing_folders() {
        let dir = Scratch::new("io-check");
        let (input, out) = (dir.join("in.ply"), dir.join("out.csv"));
        std::fs::write(&input, b"frame").unwrap();
        check_output(&out, &[&input]).unwrap();
        std::fs::write(&out, b"old").unwrap();
        check_output(&out, &[&input]).unwrap();
        let err = check_output(&input, &[&input]).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidInput);
        assert!(err.to_string().contains("in.ply"), "{err}");
        // The same file by another name.
        let err = check_output(&dir.join(".").join("in.ply"), &[&input]).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidInput);
        let err = check_output(&dir, &[]).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::IsADirectory);
        let err = check_output(&dir.join("no").join("x.csv"), &[]).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::NotFound);
        assert!(err.to_string().contains("does not exist"), "{err}");
        assert_eq!(std::fs::read(&input).unwrap(), b"frame");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);
    }

    #[test]
    fn an_uncommitted_stage_leaves_nothing_behind() {
        let dir = Scratch::new("io-uncommitted");
        let out = dir.join("new").join("deeper").join("out");
        let stage = StagedFolder::begin(&out, "t").unwrap();
        write_atomic(&stage.path("results.json"), b"{}").unwrap();
        assert!(dir.join("new").join("deeper").is_dir());
        drop(stage);
        assert!(names(&dir).is_empty(), "{:?}", names(&dir));
        // An existing folder keeps what it had, and gets nothing.
        std::fs::write(dir.join("old.txt"), "old").unwrap();
        let stage = StagedFolder::begin(&dir, "t").unwrap();
        write_atomic(&stage.path("summary.md"), b"new").unwrap();
        drop(stage);
        assert_eq!(names(&dir), ["old.txt"]);
    }

    #[test]
    fn a_commit_moves_in_the_files_and_keeps_the_others() {
        let dir = Scratch::new("io-commit");
        // A new folder (and the one above it) appears whole.
        let out = dir.join("new").join("out");
        let stage = StagedFolder::begin(&out, "t").unwrap();
        std::fs::write(stage.path("b.md"), b"b").unwrap();
        std::fs::write(stage.path("a.md"), b"a").unwrap();
        assert_eq!(
            stage.commit().unwrap(),
            [out.join("a.md"), out.join("b.md")]
        );
        assert_eq!(names(&dir), ["new"]);
        assert_eq!(names(&out), ["a.md", "b.md"]);
        // Into it again: a.md replaced, b.md and mine.txt kept.
        std::fs::write(out.join("mine.txt"), b"mine").unwrap();
        let stage = StagedFolder::begin(&out, "t").unwrap();
        std::fs::write(stage.path("a.md"), b"A").unwrap();
        assert_eq!(stage.commit().unwrap(), [out.join("a.md")]);
        assert_eq!(names(&out), ["a.md", "b.md", "mine.txt"]);
        assert_eq!(std::fs::read(out.join("a.md")).unwrap(), b"A");
        // A folder in the way of one file: nothing moves.
        std::fs::create_dir(out.join("c.md")).unwrap();
        let stage = StagedFolder::begin(&out, "t").unwrap();
        std::fs::write(stage.path("a.md"), b"never").unwrap();
        std::fs::write(stage.path("c.md"), b"never").unwrap();
        let err = stage.commit().unwrap_err();
        assert_eq!(err.path, out.join("c.md"));
        assert_eq!(names(&out), ["a.md", "b.md", "c.md", "mine.txt"]);
        assert_eq!(std::fs::read(out.join("a.md")).unwrap(), b"A");
        // A file where the folder belongs is refused at the start.
        let err = StagedFolder::begin(&out.join("b.md"), "t").unwrap_err();
        assert!(err.message.contains("not a folder"), "{err}");
        // And so is a folder below a file, naming the file.
        let file = out.join("b.md");
        let err = StagedFolder::begin(&file.join("deeper").join("x"), "t").unwrap_err();
        let named = format!("{} is not a folder", file.display());
        assert_eq!(err.message, named, "{err}");
        assert_eq!(names(&out), ["a.md", "b.md", "c.md", "mine.txt"]);
    }

    /// The pid of a process that has ended (and been reaped).
    #[cfg(unix)]
    fn ended_pid() -> u32 {
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        pid
    }

    #[test]
    #[cfg(unix)]
    fn staging_folders_of_killed_runs_go_and_of_live_ones_stay() {
        let dir = Scratch::new("io-stale");
        let (dead, live) = (ended_pid(), std::os::unix::process::parent_id());
        assert!(!process_exists(dead) && process_exists(live));
        let out = dir.join("out");
        std::fs::create_dir(&out).unwrap();
        for d in [
            format!(".t-{dead}.tmp"),
            format!(".t-{live}.tmp"),
            format!(".u-{dead}.tmp"),
        ] {
            std::fs::create_dir(out.join(&d)).unwrap();
            std::fs::write(out.join(d).join("half.md"), b"half").unwrap();
        }
        for d in [format!(".out.t-{dead}.tmp"), format!(".out.t-{live}.tmp")] {
            std::fs::create_dir(dir.join(d)).unwrap();
        }
        // Into the existing folder: its own tag's dead staging goes.
        let stage = StagedFolder::begin(&out, "t").unwrap();
        drop(stage);
        assert_eq!(
            names(&out),
            [format!(".t-{live}.tmp"), format!(".u-{dead}.tmp")]
        );
        // Beside it, for replace_folder: likewise.
        replace_folder(&out, "t", |_| Ok::<(), Error>(())).unwrap();
        assert_eq!(names(&dir), [format!(".out.t-{live}.tmp"), "out".into()]);
    }

    #[test]
    #[cfg(unix)]
    fn temporary_files_of_killed_runs_go_and_of_live_ones_stay() {
        let dir = Scratch::new("io-stale-files");
        let (dead, live) = (ended_pid(), std::os::unix::process::parent_id());
        let out = dir.join("pairs.csv");
        // A killed run's half-written temporary, a live run's, another
        // file's, and a user's file that only looks alike.
        for f in [
            format!(".pairs.csv.{dead}.tmp"),
            format!(".pairs.csv.{live}.tmp"),
            format!(".other.csv.{dead}.tmp"),
            format!(".pairs.csv.{dead}.tmp.keep"),
        ] {
            std::fs::write(dir.join(f), b"half").unwrap();
        }
        write_atomic(&out, b"whole").unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), b"whole");
        let mut kept = vec![
            format!(".other.csv.{dead}.tmp"),
            format!(".pairs.csv.{dead}.tmp.keep"),
            format!(".pairs.csv.{live}.tmp"),
            "pairs.csv".into(),
        ];
        kept.sort();
        assert_eq!(names(&dir), kept);
    }

    #[test]
    fn replace_folder_is_all_or_nothing() {
        let dir = Scratch::new("io-folder-swap");
        let out = dir.join("report");
        std::fs::create_dir(&out).unwrap();
        std::fs::write(out.join("old.md"), b"old").unwrap();
        // A failed write leaves the old folder and no temporary.
        let err = replace_folder(&out, "t", |tmp| {
            std::fs::write(tmp.join("half.md"), b"half")?;
            Err::<(), _>(Error::other("boom"))
        })
        .unwrap_err();
        assert!(matches!(err, FolderError::Write(_)), "{err:?}");
        assert_eq!(std::fs::read(out.join("old.md")).unwrap(), b"old");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        // A successful one replaces it whole.
        let n = replace_folder(&out, "t", |tmp| {
            std::fs::write(tmp.join("new.md"), b"new").map(|()| 1)
        })
        .unwrap();
        assert_eq!(n, 1);
        assert!(!out.join("old.md").exists());
        assert_eq!(std::fs::read(out.join("new.md")).unwrap(), b"new");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    }
}
