//! Reading and checking the recorded JSON of a report: a data folder with
//!
//! | file | written by | content |
//! |---|---|---|
//! | `counts_<scene>.json` | `cargo bench --bench pipeline` | [`SceneRecord`] |
//! | `bench_timings.json` | `ccdlab report --criterion …` | [`BenchTimings`] (criterion estimates) |
//! | `step_<scene>_t<N>.json` | `ccdlab step --json --threads N` | [`StepReport`] |
//! | `peer_ipctk_<scene>.json` | `scripts/peer_ipctk.py step … --json` | [`PeerRecord`] |
//! | `replay_<scene>_<filters>.jsonl` | `ccdlab replay --filters … --out` | [`StepRecord`] lines |
//!
//! plus, optionally, criterion's output folder (`target/criterion`), whose
//! `*/new/benchmark.json` + `estimates.json` pairs are read for the bench IDs
//! of the recorded scenes. Every file is parsed and checked before anything
//! is written; an error names the file (and the line of a JSON-lines file)
//! and the field. Times must lie between 0 and [`MAX_TIME_MS`], culling
//! rates between 0 and 100 %. A folder (or anything but a file) named like
//! an input is an error, and so is a name like an input's that is not UTF-8;
//! a scene of [`super::SCENES`] without its `counts_<scene>.json` is left out
//! of the report and listed in [`ReportInputs::missing`].

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::record::{PeerRecord, RECORD_FORMAT, SceneRecord};
use super::report::ReportError;
use super::scenes::{SCENES, scene_order};
use crate::bounding_volume::KdopAxes;
use crate::filter::FilterSet;
use crate::harness::memory::MeasuredStep;
use crate::harness::replay::StepRecord;
use crate::pipeline::StepReport;

/// One criterion estimate, nanoseconds per iteration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BenchEstimate {
    /// Bench ID, `stage/algorithm/dataset`.
    pub id: String,
    /// Mean.
    pub mean_ns: f64,
    /// Lower bound of the mean's confidence interval.
    pub mean_lower_ns: f64,
    /// Upper bound of the mean's confidence interval.
    pub mean_upper_ns: f64,
    /// Median.
    pub median_ns: f64,
}

/// The criterion estimates of the pipeline benches (`bench_timings.json`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct BenchTimings {
    /// Estimates, sorted by ID.
    pub benchmarks: Vec<BenchEstimate>,
}

impl BenchTimings {
    /// The estimate of `id`.
    pub fn get(&self, id: &str) -> Option<&BenchEstimate> {
        self.benchmarks.iter().find(|b| b.id == id)
    }

    /// The mean of `id` in milliseconds.
    pub fn mean_ms(&self, id: &str) -> Option<f64> {
        self.get(id).map(|b| b.mean_ns * 1e-6)
    }
}

/// One recorded `ccdlab step --json` run.
#[derive(Debug, Clone, PartialEq)]
pub struct StepRun {
    /// Scene name (from the file name).
    pub scene: String,
    /// The report (of the fastest run, when there were several).
    pub report: StepReport,
    /// Peak resident memory of the process after the runs, MiB.
    pub peak_rss_mb: f64,
    /// How many runs the report is the fastest of (`ccdlab step --repeat`;
    /// 1 when the record does not say).
    pub runs: u32,
}

/// The run count `ccdlab step --repeat` adds to its JSON.
#[derive(serde::Deserialize)]
struct RunCount {
    #[serde(default = "one")]
    runs: u32,
}

fn one() -> u32 {
    1
}

/// One recorded replay of a sequence with one filter setting.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayRun {
    /// Scene name (from the file name).
    pub scene: String,
    /// Filter setting (from the file name; checked against the records).
    pub filters: FilterSet,
    /// Every step.
    pub steps: Vec<StepRecord>,
}

/// Everything a report is made from, checked.
#[derive(Debug, Clone, PartialEq)]
pub struct ReportInputs {
    /// Bench records, in scene order.
    pub scenes: Vec<SceneRecord>,
    /// Criterion estimates.
    pub timings: BenchTimings,
    /// Our step runs, by scene then threads.
    pub steps: Vec<StepRun>,
    /// The ipctk peer, by scene.
    pub peers: Vec<(String, PeerRecord)>,
    /// Replays, by scene then filter setting.
    pub replays: Vec<ReplayRun>,
    /// The input files as read (name, bytes), copied into the report's
    /// `data/` folder; `bench_timings.json` is written from [`Self::timings`].
    pub files: Vec<(String, Vec<u8>)>,
    /// Files in the folder that are not report inputs (left out).
    pub ignored: Vec<String>,
    /// Scenes of [`SCENES`] without a `counts_<scene>.json` here: not in
    /// the report.
    pub missing: Vec<String>,
}

/// The longest time a record may hold, in milliseconds: 10⁹ ms, about 11.6
/// days — longer than any run of these benches, and small enough that sums
/// and plot axes of any number of recorded times stay finite (a recorded
/// `1e308` made a figure's axis infinite, and its drawing never ended).
pub const MAX_TIME_MS: f64 = 1e9;

fn invalid(path: &Path, message: impl Into<String>) -> ReportError {
    ReportError::Invalid {
        path: path.to_path_buf(),
        message: message.into(),
    }
}

fn parse<T: serde::de::DeserializeOwned>(path: &Path, bytes: &[u8]) -> Result<T, ReportError> {
    serde_json::from_slice(bytes).map_err(|e| invalid(path, e.to_string()))
}

fn finite_ms(path: &Path, what: &str, v: f64) -> Result<(), ReportError> {
    if (0.0..=MAX_TIME_MS).contains(&v) {
        Ok(())
    } else {
        Err(invalid(
            path,
            format!("{what} = {v:?}: not a time (0 to {MAX_TIME_MS:e} ms)"),
        ))
    }
}

fn percent(path: &Path, what: &str, v: f64) -> Result<(), ReportError> {
    if (0.0..=100.0).contains(&v) {
        Ok(())
    } else {
        Err(invalid(
            path,
            format!("{what} = {v:?}: not a percentage (0 to 100)"),
        ))
    }
}

/// A length or count of the record's [`super::record::Motion`]: finite,
/// not negative.
fn measure(path: &Path, what: &str, v: f64) -> Result<(), ReportError> {
    if v.is_finite() && v >= 0.0 {
        Ok(())
    } else {
        Err(invalid(
            path,
            format!("{what} = {v:?}: must be finite and ≥ 0"),
        ))
    }
}

/// The largest peak memory a record may hold, MiB (a petabyte).
const MAX_MIB: f64 = 1e9;

fn check_memory(path: &Path, what: &str, peak_rss_mb: f64) -> Result<(), ReportError> {
    if !(0.0..=MAX_MIB).contains(&peak_rss_mb) {
        return Err(invalid(
            path,
            format!(
                "{what}: peak_rss_mb = {peak_rss_mb:?}: not a memory size (0 to {MAX_MIB:e} MiB)"
            ),
        ));
    }
    Ok(())
}

fn check_step(path: &Path, what: &str, r: &StepReport) -> Result<(), ReportError> {
    if KdopAxes::from_k(r.k).is_none() {
        return Err(invalid(
            path,
            format!("{what}: k = {} is not 6, 8, 14, 18 or 26", r.k),
        ));
    }
    for (kind, c) in [("vf", &r.vf), ("ee", &r.ee)] {
        percent(
            path,
            &format!("{what}: {kind}.culling_rate_percent"),
            c.culling_rate_percent,
        )?;
        if c.after_filter > c.candidates
            || c.colliding > c.after_filter
            || u128::from(c.culled_slpf) + u128::from(c.culled_dnf) + u128::from(c.after_filter)
                != u128::from(c.candidates)
        {
            return Err(invalid(
                path,
                format!(
                    "{what}: {kind} counts do not add up (candidates {}, culled {} + {}, after filter {}, colliding {})",
                    c.candidates, c.culled_slpf, c.culled_dnf, c.after_filter, c.colliding
                ),
            ));
        }
    }
    let t = &r.time_ms;
    for (name, v) in [
        ("bvh", t.bvh),
        ("traverse", t.traverse),
        ("filter", t.filter),
        ("solve", t.solve),
        ("total", t.total),
    ] {
        finite_ms(path, &format!("{what}: time_ms.{name}"), v)?;
    }
    if r.toi.is_some_and(|t| !(0.0..=1.0).contains(&t)) {
        return Err(invalid(
            path,
            format!("{what}: toi {:?} outside [0, 1]", r.toi),
        ));
    }
    Ok(())
}

fn check_scene(path: &Path, r: &SceneRecord) -> Result<(), ReportError> {
    if r.format != RECORD_FORMAT {
        return Err(invalid(
            path,
            format!(
                "record format {} (this ccdlab reads format {RECORD_FORMAT}); re-run the bench",
                r.format
            ),
        ));
    }
    if r.kdops.is_empty() {
        return Err(invalid(path, "no k-DOP entries (kdops is empty)"));
    }
    if let Some(m) = &r.motion {
        for (name, v) in [
            ("mean_edge_length", m.mean_edge_length),
            ("mean_displacement", m.mean_displacement),
            ("max_displacement", m.max_displacement),
        ] {
            measure(path, &format!("motion.{name}"), v)?;
        }
    }
    let mut seen = Vec::new();
    for e in &r.kdops {
        if KdopAxes::from_k(e.k).is_none() || seen.contains(&e.k) {
            return Err(invalid(
                path,
                format!("kdops: k = {} is not a new k of 6, 8, 14, 18, 26", e.k),
            ));
        }
        seen.push(e.k);
        let t = &e.times_ms;
        for (name, v) in [
            ("build", t.build),
            ("refit", t.refit),
            ("traverse", t.traverse),
        ] {
            finite_ms(path, &format!("kdops[k={}].times_ms.{name}", e.k), v)?;
        }
        for (kind, c) in [("vf", &e.vf), ("ee", &e.ee)] {
            let bad = c.same_component > c.candidates
                || c.culled_slpf > c.candidates
                || c.culled_dnf > c.candidates
                || c.culled_slpf_dnf > c.candidates
                || c.culled_slpf_dnf < c.culled_slpf.max(c.culled_dnf);
            if bad {
                return Err(invalid(
                    path,
                    format!(
                        "kdops[k={}].{kind}: culled counts inconsistent with {} candidates (SLPF {}, DNF {}, SLPF+DNF {}; SLPF+DNF must cull at least what each alone culls)",
                        e.k, c.candidates, c.culled_slpf, c.culled_dnf, c.culled_slpf_dnf
                    ),
                ));
            }
        }
    }
    if let Some(p) = &r.parry {
        let t = &p.times_ms;
        for (name, v) in [
            ("build", t.build),
            ("refit", t.refit),
            ("traverse", t.traverse),
        ] {
            finite_ms(path, &format!("parry.times_ms.{name}"), v)?;
        }
    }
    for (i, s) in r.steps.iter().enumerate() {
        check_step(path, &format!("steps[{i}]"), s)?;
        if (s.vertices, s.edges, s.faces) != (r.vertices, r.edges, r.faces) {
            return Err(invalid(
                path,
                format!("steps[{i}]: another mesh than the record's"),
            ));
        }
    }
    Ok(())
}

/// Whether `name` is the name of a report input (module doc).
pub(super) fn is_input_name(name: &str) -> bool {
    let json = |prefix: &str| name.starts_with(prefix) && name.ends_with(".json");
    json("counts_")
        || name == "bench_timings.json"
        || step_name(name).is_some()
        || json("peer_ipctk_")
        || replay_name(name).is_some()
}

/// `step_<scene>_t<N>.json` → (scene, N).
fn step_name(name: &str) -> Option<(String, usize)> {
    let stem = name.strip_prefix("step_")?.strip_suffix(".json")?;
    let (scene, threads) = stem.rsplit_once("_t")?;
    (!scene.is_empty()).then_some(())?;
    Some((scene.to_string(), threads.parse().ok()?))
}

/// `replay_<scene>_<filters>.jsonl` → (scene, filters).
fn replay_name(name: &str) -> Option<(String, FilterSet)> {
    let stem = name.strip_prefix("replay_")?.strip_suffix(".jsonl")?;
    let (scene, filters) = stem.rsplit_once('_')?;
    let filters = filters.parse::<FilterSet>().ok()?;
    (!scene.is_empty()).then(|| (scene.to_string(), filters))
}

impl ReportInputs {
    /// Reads and checks every input in `from`, and the criterion estimates
    /// under `criterion` when given (they replace the IDs they have in
    /// `bench_timings.json`).
    pub fn load(from: &Path, criterion: Option<&Path>) -> Result<ReportInputs, ReportError> {
        let io = |path: &Path, source| ReportError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut names: Vec<String> = Vec::new();
        for entry in std::fs::read_dir(from).map_err(|e| io(from, e))? {
            let entry = entry.map_err(|e| io(from, e))?;
            let path = entry.path();
            let name = match entry.file_name().into_string() {
                Ok(name) => name,
                // An input is read by its name (`from` joined with it) and
                // names its scene, which the records hold as text: a name
                // that is not UTF-8 but reads as an input's (its bytes shown
                // as U+FFFD) is refused, not read from another path or left
                // out unsaid; any other such name is ignored, as others are.
                Err(name) => {
                    let shown = name.to_string_lossy().into_owned();
                    if is_input_name(&shown) {
                        return Err(invalid(
                            &path,
                            "named like a report input, but the name is not UTF-8 (inputs are \
                             named by their scene, which the records hold as text); rename it",
                        ));
                    }
                    shown
                }
            };
            // Through a link, to what it names.
            let meta = std::fs::metadata(&path).map_err(|e| io(&path, e))?;
            if meta.is_file() {
                names.push(name);
            } else if is_input_name(&name) {
                return Err(invalid(
                    &path,
                    if meta.is_dir() {
                        "a folder where a report input file is expected; remove or rename it"
                    } else {
                        "not a regular file, where a report input file is expected; remove or rename it"
                    },
                ));
            }
        }
        names.sort();
        let mut out = ReportInputs {
            scenes: Vec::new(),
            timings: BenchTimings::default(),
            steps: Vec::new(),
            peers: Vec::new(),
            replays: Vec::new(),
            files: Vec::new(),
            ignored: Vec::new(),
            missing: Vec::new(),
        };
        for name in names {
            let path = from.join(&name);
            let read = || crate::io::read_input(&path).map_err(|e| io(&path, e));
            if let Some(scene) = name
                .strip_prefix("counts_")
                .and_then(|s| s.strip_suffix(".json"))
            {
                let bytes = read()?;
                let rec: SceneRecord = parse(&path, &bytes)?;
                check_scene(&path, &rec)?;
                if rec.scene != scene {
                    return Err(invalid(
                        &path,
                        format!("records scene {:?}, named {scene:?}", rec.scene),
                    ));
                }
                out.scenes.push(rec);
                out.files.push((name, bytes));
            } else if name == "bench_timings.json" {
                let bytes = read()?;
                out.timings = parse(&path, &bytes)?;
                check_timings(&path, &out.timings)?;
            } else if let Some((scene, threads)) = step_name(&name) {
                let bytes = read()?;
                let MeasuredStep {
                    report,
                    peak_rss_mb,
                } = parse(&path, &bytes)?;
                check_step(&path, "step", &report)?;
                check_memory(&path, "step", peak_rss_mb)?;
                if report.threads != threads {
                    return Err(invalid(
                        &path,
                        format!("ran on {} threads, named t{threads}", report.threads),
                    ));
                }
                let RunCount { runs } = parse(&path, &bytes)?;
                out.steps.push(StepRun {
                    scene,
                    report,
                    peak_rss_mb,
                    runs,
                });
                out.files.push((name, bytes));
            } else if let Some(scene) = name
                .strip_prefix("peer_ipctk_")
                .and_then(|s| s.strip_suffix(".json"))
            {
                let bytes = read()?;
                let peer: PeerRecord = parse(&path, &bytes)?;
                let t = &peer.time_ms;
                for (n, v) in [
                    ("broad_phase", t.broad_phase),
                    ("narrow_phase", t.narrow_phase),
                    ("total", t.total),
                ] {
                    finite_ms(&path, &format!("time_ms.{n}"), v)?;
                }
                out.peers.push((scene.to_string(), peer));
                out.files.push((name, bytes));
            } else if let Some((scene, filters)) = replay_name(&name) {
                let bytes = read()?;
                let text = String::from_utf8(bytes.clone())
                    .map_err(|_| invalid(&path, "not UTF-8 text"))?;
                let mut steps = Vec::new();
                for (i, line) in text
                    .lines()
                    .enumerate()
                    .filter(|(_, l)| !l.trim().is_empty())
                {
                    let rec: StepRecord = serde_json::from_str(line)
                        .map_err(|e| invalid(&path, format!("line {}: {e}", i + 1)))?;
                    check_step(&path, &format!("line {}", i + 1), &rec.report)?;
                    check_memory(&path, &format!("line {}", i + 1), rec.peak_rss_mb)?;
                    if rec.report.filters != filters {
                        return Err(invalid(
                            &path,
                            format!(
                                "line {}: filters {:?}, named {:?}",
                                i + 1,
                                rec.report.filters.name(),
                                filters.name()
                            ),
                        ));
                    }
                    steps.push(rec);
                }
                if steps.is_empty() {
                    return Err(invalid(&path, "no steps"));
                }
                out.replays.push(ReplayRun {
                    scene,
                    filters,
                    steps,
                });
                out.files.push((name, bytes));
            } else {
                out.ignored.push(name);
            }
        }
        if out.scenes.is_empty() {
            return Err(ReportError::NoRecords(from.to_path_buf()));
        }
        out.missing = SCENES
            .iter()
            .filter(|spec| !out.scenes.iter().any(|s| s.scene == spec.name))
            .map(|spec| spec.name.to_string())
            .collect();
        if let Some(dir) = criterion {
            let found = read_criterion(dir, &expected_ids(&out.scenes))?;
            let mut all: BTreeMap<String, BenchEstimate> = out
                .timings
                .benchmarks
                .drain(..)
                .map(|b| (b.id.clone(), b))
                .collect();
            for b in found.benchmarks {
                all.insert(b.id.clone(), b);
            }
            out.timings.benchmarks = all.into_values().collect();
        }
        out.scenes.sort_by_key(|s| scene_order(&s.scene));
        out.steps
            .sort_by_key(|s| (scene_order(&s.scene), s.report.threads));
        out.peers.sort_by_key(|(s, _)| scene_order(s));
        out.replays
            .sort_by_key(|r| (scene_order(&r.scene), r.filters.name()));
        Ok(out)
    }
}

/// Criterion estimates: times from 0 to [`MAX_TIME_MS`] (in ns).
fn check_timings(path: &Path, t: &BenchTimings) -> Result<(), ReportError> {
    t.benchmarks
        .iter()
        .try_for_each(|b| check_estimate(path, b))
}

fn check_estimate(path: &Path, b: &BenchEstimate) -> Result<(), ReportError> {
    for (name, v) in [
        ("mean_ns", b.mean_ns),
        ("mean_lower_ns", b.mean_lower_ns),
        ("mean_upper_ns", b.mean_upper_ns),
        ("median_ns", b.median_ns),
    ] {
        if !(0.0..=MAX_TIME_MS * 1e6).contains(&v) {
            return Err(invalid(
                path,
                format!(
                    "{}: {name} = {v:?}: not a time (0 to {:e} ns)",
                    b.id,
                    MAX_TIME_MS * 1e6
                ),
            ));
        }
    }
    Ok(())
}

/// Every bench ID of `benches/pipeline.rs` for the recorded scenes.
pub fn expected_ids(scenes: &[SceneRecord]) -> Vec<String> {
    let mut ids = Vec::new();
    for s in scenes {
        let n = &s.scene;
        for f in FilterSet::ALL {
            for kind in ["vf", "ee"] {
                ids.push(format!("filter/{}/{n}-{kind}", f.name()));
            }
        }
        for k in KdopAxes::ALL {
            ids.push(format!("broad_phase/kdop{}/{n}", k.k()));
        }
        ids.push(format!("broad_phase/parry-aabb/{n}"));
        ids.push(format!("pipeline/step/{n}"));
    }
    ids
}

#[derive(Deserialize)]
struct CriterionBenchmark {
    full_id: String,
}

#[derive(Deserialize)]
struct CriterionInterval {
    lower_bound: f64,
    upper_bound: f64,
}

#[derive(Deserialize)]
struct CriterionEstimate {
    confidence_interval: CriterionInterval,
    point_estimate: f64,
}

#[derive(Deserialize)]
struct CriterionEstimates {
    mean: CriterionEstimate,
    median: CriterionEstimate,
}

/// The latest criterion estimates (`<dir>/**/new/estimates.json`) of the
/// bench IDs in `ids`. A missing folder is an error; IDs not found are left
/// out.
pub fn read_criterion(dir: &Path, ids: &[String]) -> Result<BenchTimings, ReportError> {
    fn walk(dir: &Path, found: &mut Vec<PathBuf>) -> std::io::Result<()> {
        for entry in std::fs::read_dir(dir)? {
            let entry = entry?;
            let path = entry.path();
            if entry.file_type()?.is_dir() {
                if entry.file_name() == "new" {
                    let b = path.join("benchmark.json");
                    if b.is_file() {
                        found.push(b);
                    }
                } else {
                    walk(&path, found)?;
                }
            }
        }
        Ok(())
    }
    let mut files = Vec::new();
    walk(dir, &mut files).map_err(|source| ReportError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    files.sort();
    let mut benchmarks = Vec::new();
    for file in files {
        let bytes = crate::io::read_input(&file).map_err(|source| ReportError::Io {
            path: file.clone(),
            source,
        })?;
        let b: CriterionBenchmark = parse(&file, &bytes)?;
        if !ids.contains(&b.full_id) {
            continue;
        }
        let est_path = file.with_file_name("estimates.json");
        let bytes = crate::io::read_input(&est_path).map_err(|source| ReportError::Io {
            path: est_path.clone(),
            source,
        })?;
        let e: CriterionEstimates = parse(&est_path, &bytes)?;
        let estimate = BenchEstimate {
            id: b.full_id,
            mean_ns: e.mean.point_estimate,
            mean_lower_ns: e.mean.confidence_interval.lower_bound,
            mean_upper_ns: e.mean.confidence_interval.upper_bound,
            median_ns: e.median.point_estimate,
        };
        check_estimate(&est_path, &estimate)?;
        benchmarks.push(estimate);
    }
    benchmarks.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(BenchTimings { benchmarks })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names() {
        assert_eq!(
            step_name("step_cloth_ball_t2.json"),
            Some(("cloth_ball".into(), 2))
        );
        assert_eq!(step_name("step_t2.json"), None);
        assert_eq!(step_name("step_funnel_tx.json"), None);
        assert_eq!(
            replay_name("replay_cloth_ball_slpf+dnf.jsonl"),
            Some(("cloth_ball".into(), FilterSet::SlpfDnf))
        );
        assert_eq!(replay_name("replay_generated_fast.jsonl"), None);
    }
}
