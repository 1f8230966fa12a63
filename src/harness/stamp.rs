//! The provenance stamp every recorded measurement carries: machine, thread
//! count, git commit and date.

use serde::{Deserialize, Serialize};

/// The commit this build's code comes from, as [`Stamp::git_commit`]
/// records it: the build script's stamp (`build.rs`), or `unknown` when
/// that stamp was taken in another checkout. Checkouts of one package that
/// share a target folder share the build script's output, and Cargo reruns
/// the script only when the sources look newer than its last run, so a
/// crate compiled in one checkout can find the stamp of another.
pub const GIT_COMMIT: &str = if same_str(env!("CCDLAB_STAMP_ROOT"), env!("CARGO_MANIFEST_DIR")) {
    env!("CCDLAB_GIT_COMMIT")
} else {
    "unknown"
};

/// `a == b`, in a constant.
const fn same_str(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Where and from which code a measurement came.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stamp {
    /// CPU model (from `/proc/cpuinfo` where available).
    pub cpu: String,
    /// Logical CPUs of the machine.
    pub logical_cpus: usize,
    /// Worker threads the measurement used.
    pub threads: usize,
    /// The commit ccdlab's code comes from (12 hex digits; a crate that
    /// uses ccdlab records its own commit beside the stamp): a commit
    /// whose compiled sources (`src`, `Cargo.toml`, `Cargo.lock`,
    /// `build.rs`) are the ones built, or with `-dirty` the commit they were
    /// changed from; `unknown` when the crate was built outside the top of a
    /// git checkout, where git could not run, or with another checkout's
    /// stamp ([`GIT_COMMIT`]). Recorded at build time (`build.rs`), so that it names
    /// the code measured even when the checkout has moved on.
    pub git_commit: String,
    /// UTC date and time, RFC 3339 (from `date -u`), or `unknown`.
    pub date: String,
    /// Operating system and architecture.
    pub os: String,
}

impl Stamp {
    /// Stamps a measurement that used `threads` worker threads.
    pub fn new(threads: usize) -> Stamp {
        Stamp {
            cpu: cpu_model(),
            logical_cpus: std::thread::available_parallelism().map_or(1, |n| n.get()),
            threads,
            git_commit: GIT_COMMIT.to_string(),
            date: command_output("date", &["-u", "+%Y-%m-%dT%H:%M:%SZ"]),
            os: format!("{}-{}", std::env::consts::OS, std::env::consts::ARCH),
        }
    }

    /// One line for a Markdown report.
    pub fn markdown_line(&self) -> String {
        format!(
            "Machine: {} ({} logical CPUs, {}), threads: {}, commit: `{}`, date: {}",
            self.cpu, self.logical_cpus, self.os, self.threads, self.git_commit, self.date
        )
    }
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".to_string())
}

fn command_output(cmd: &str, args: &[&str]) -> String {
    std::process::Command::new(cmd)
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// In a git checkout the stamp names a commit (12 hex digits, with
    /// `-dirty` for changed sources) and, when clean, one whose compiled
    /// sources are the checkout's; outside one (a crate's sources, a source
    /// archive), or with another checkout's stamp, it says `unknown`. Where
    /// git cannot run now (a checkout owned by another user, say) the build
    /// may or may not have had it: then the stamp is a commit or `unknown`.
    /// Either way a malformed stamp fails.
    #[test]
    fn stamp_names_threads_the_commit_and_the_date() {
        let s = Stamp::new(3);
        assert_eq!(s.threads, 3);
        assert!(s.markdown_line().contains("threads: 3"));
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let commit = s.git_commit.trim_end_matches("-dirty");
        let named = commit.len() == 12 && commit.bytes().all(|b| b.is_ascii_hexdigit());
        assert!(named || s.git_commit == "unknown", "{:?}", s.git_commit);
        let git = |args: &[&str]| {
            let out = std::process::Command::new("git")
                .args(args)
                .current_dir(root)
                .output();
            out.ok().filter(|o| o.status.success())
        };
        let top = git(&["rev-parse", "--show-toplevel"]).map(|o| {
            let top = String::from_utf8_lossy(&o.stdout).trim().to_string();
            std::path::Path::new(&top).canonicalize().ok() == root.canonicalize().ok()
        });
        let own_stamp = env!("CCDLAB_STAMP_ROOT") == root.as_os_str();
        match top {
            _ if !own_stamp => assert_eq!(s.git_commit, "unknown"),
            // Git runs here and this is the top of a checkout: the build's
            // git ran too (a failure there is retried at the next commit).
            Some(true) => assert!(named, "commit {:?} in a checkout", s.git_commit),
            Some(false) => assert_eq!(s.git_commit, "unknown", "inside another checkout"),
            None if !root.join(".git").exists() => assert_eq!(s.git_commit, "unknown"),
            None => {}
        }
        if named && top == Some(true) && !s.git_commit.ends_with("-dirty") {
            // The build script reruns when the sources change, so a clean
            // stamp's commit holds the sources as they are now.
            let mut args = vec!["diff", "--quiet", commit, "--"];
            args.extend(["src", "Cargo.toml", "Cargo.lock", "build.rs"]);
            assert!(git(&args).is_some(), "the sources differ from {commit}");
        }
        // 2026-11-28T07:34:40Z
        let d = s.date.as_bytes();
        assert!(
            d.len() == 20 && d[4] == b'-' && d[10] == b'T' && d[19] == b'Z',
            "date {:?}",
            s.date
        );
    }
}
