//! Stamps the build with the commit its code comes from (`CCDLAB_GIT_COMMIT`, read by
//! `harness::stamp`): the checkout's commit at build time (12 hex digits), with `-dirty` when
//! the compiled sources differ from it, or `unknown` when the crate is not the top of a git
//! checkout (a registry copy, a source archive, a copy vendored inside another repository).
//! A stamp taken when a command runs could name a commit the binary was not built from.
//!
//! The stamp names *a* commit whose compiled sources are exactly the ones built: a later
//! commit that leaves them alone (documentation, reports, scripts) keeps the stamp, and so
//! does not rebuild the crate.

use std::path::{Path, PathBuf};
use std::process::Command;

/// What the crate compiles: a change to any of them can change a measurement.
const SOURCES: [&str; 4] = ["src", "Cargo.toml", "Cargo.lock", "build.rs"];

fn main() {
    // Read when the script runs, not when it was compiled: one compiled script serves every
    // checkout that shares the target folder.
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by Cargo"));
    let root = root.as_path();
    // Edits to the sources, or a checkout of other ones, rerun the script. Only existing
    // paths: Cargo reruns the script on every build for a path that does not exist.
    let mut watched: Vec<PathBuf> = SOURCES.iter().map(|p| root.join(p)).collect();
    let commit = match checkout_commit(root) {
        None => {
            // A checkout where git failed (missing, or a transient failure
            // under load): the next commit or `git add` reruns the script,
            // so that the stamp is not left `unknown` until the sources
            // change.
            let dot_git = root.join(".git");
            if dot_git.is_dir() {
                watched.extend(["HEAD", "index"].map(|f| dot_git.join(f)));
            }
            "unknown".to_string()
        }
        Some((hash, false)) => hash,
        Some((hash, true)) => {
            // Dirty: committing the sources as they are makes the stamp clean, so the
            // commit's move reruns the script too. Where it is recorded: HEAD itself when
            // detached, else the branch's loose ref, packed-refs, or the reftable.
            let mut refs = vec!["HEAD".to_string(), "packed-refs".to_string()];
            refs.extend(git(root, &["symbolic-ref", "-q", "HEAD"]));
            refs.push("reftable/tables.list".to_string());
            watched.extend(
                refs.iter()
                    .filter_map(|name| git(root, &["rev-parse", "--git-path", name]))
                    .map(|p| root.join(p)),
            );
            format!("{hash}-dirty")
        }
    };
    // Paths inside the crate relative to it (Cargo resolves them against the package being
    // built): checkouts that share a target folder share this script's output (Cargo gives
    // every checkout of one package the same build-script unit), and absolute paths would
    // watch the first checkout's files for all of them.
    for path in watched.iter().filter(|p| p.exists()) {
        let shown = path.strip_prefix(root).unwrap_or(path);
        println!("cargo:rerun-if-changed={}", shown.display());
    }
    println!("cargo:rustc-env=CCDLAB_GIT_COMMIT={commit}");
    // The checkout this stamp was taken in: a crate compiled in another one (sharing the
    // target folder, with sources no newer than this script's run) reads `unknown` instead
    // (`harness::stamp::GIT_COMMIT`).
    println!("cargo:rustc-env=CCDLAB_STAMP_ROOT={}", root.display());
}

/// The commit of the checkout whose top is `root`, and whether the sources differ from it;
/// `None` when git is missing or `root` is not the top of a checkout.
fn checkout_commit(root: &Path) -> Option<(String, bool)> {
    let top = git(root, &["rev-parse", "--show-toplevel"])?;
    if Path::new(&top).canonicalize().ok()? != root.canonicalize().ok()? {
        return None;
    }
    let hash = git(root, &["rev-parse", "--short=12", "HEAD"])?;
    let mut args = vec!["status", "--porcelain", "--"];
    args.extend(SOURCES);
    let dirty = git(root, &args).is_none_or(|changes| !changes.is_empty());
    Some((hash, dirty))
}

/// `git ARGS` in `dir` (without taking optional locks, so that a build never holds
/// `index.lock`): its trimmed standard output, or `None` when git is missing or fails.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("--no-optional-locks")
        .args(args)
        .current_dir(dir)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}
