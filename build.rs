//! Stamps the build with the commit it was compiled from (`CCDLAB_GIT_COMMIT`, read by
//! `harness::stamp`): `git rev-parse` of the checkout at build time, with `-dirty` when the
//! compiled sources differ from that commit, or `unknown` outside a git checkout (a crate
//! from a registry or a source archive). A stamp taken when a command runs could name a
//! commit the binary was not built from.

use std::path::Path;
use std::process::Command;

/// What the crate compiles: a change to any of them can change a measurement.
const SOURCES: [&str; 4] = ["src", "Cargo.toml", "Cargo.lock", "build.rs"];

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // Rerun when the sources change (edits, or a checkout of other ones) and when the
    // commit moves: a commit writes the current branch's ref under refs/heads (or HEAD itself
    // when it is detached), a checkout rewrites HEAD, and a ref can also live in packed-refs.
    // Remote-tracking refs and tags are not watched: they do not change what is built. Only
    // existing paths: Cargo reruns the script on every build for a path that does not exist.
    let git_paths = ["HEAD", "packed-refs", "refs/heads"]
        .into_iter()
        .filter_map(|name| git(root, &["rev-parse", "--git-path", name]));
    let watched = SOURCES
        .iter()
        .map(|p| root.join(p))
        .chain(git_paths.map(|p| root.join(p)));
    for path in watched.filter(|p| p.exists()) {
        println!("cargo:rerun-if-changed={}", path.display());
    }
    let commit = git(root, &["rev-parse", "--short=12", "HEAD"]).map(|hash| {
        let mut args = vec!["status", "--porcelain", "--"];
        args.extend(SOURCES);
        match git(root, &args) {
            Some(changes) if changes.is_empty() => hash,
            _ => format!("{hash}-dirty"),
        }
    });
    println!(
        "cargo:rustc-env=CCDLAB_GIT_COMMIT={}",
        commit.unwrap_or_else(|| "unknown".to_string())
    );
}

/// `git ARGS` in `dir`: its trimmed standard output, or `None` when git is missing or fails.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}
