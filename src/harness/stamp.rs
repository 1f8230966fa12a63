//! The provenance stamp every recorded measurement carries: machine, thread
//! count, git commit and date.

use serde::{Deserialize, Serialize};

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
    /// git checkout. Recorded at build time (`build.rs`), so that it names
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
            git_commit: env!("CCDLAB_GIT_COMMIT").to_string(),
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
    /// sources are the checkout's; outside one (a crate's sources) it says
    /// `unknown`. Either way a wrong stamp fails.
    #[test]
    fn stamp_names_threads_the_commit_and_the_date() {
        let s = Stamp::new(3);
        assert_eq!(s.threads, 3);
        assert!(s.markdown_line().contains("threads: 3"));
        let root = env!("CARGO_MANIFEST_DIR");
        let checkout = std::path::Path::new(root).join(".git").exists();
        let commit = s.git_commit.trim_end_matches("-dirty");
        let named = commit.len() == 12 && commit.bytes().all(|b| b.is_ascii_hexdigit());
        assert_eq!(
            named, checkout,
            "commit {:?}, checkout {checkout}",
            s.git_commit
        );
        assert_eq!(s.git_commit == "unknown", !checkout, "{:?}", s.git_commit);
        if checkout && !s.git_commit.ends_with("-dirty") {
            // The build script reruns when the sources change, so a clean
            // stamp's commit holds the sources as they are now.
            let same = std::process::Command::new("git")
                .args(["diff", "--quiet", commit, "--"])
                .args(["src", "Cargo.toml", "Cargo.lock", "build.rs"])
                .current_dir(root)
                .status()
                .expect("git runs in a checkout");
            assert!(same.success(), "the sources differ from {commit}");
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
