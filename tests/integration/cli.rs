//! The `ccdlab` binary end to end: `generate` writes frames that `replay`
//! and `step` read back and agree on; bad arguments and bad sequences give a
//! clear error (naming the parameter or file) and a non-zero exit, never a
//! panic.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use ccdlab::harness::generate::{SceneParams, generate};
use ccdlab::harness::sequence::FrameSequence;
use ccdlab::pipeline::StepReport;
use serde_json::Value;

use crate::common::{Scratch, names};

fn ccdlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ccdlab"))
        .args(args)
        .output()
        .expect("run ccdlab")
}

fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Asserts a clean failure: non-zero exit, `needle` in stderr, no panic.
fn fails_with(args: &[&str], needle: &str) -> String {
    let out = ccdlab(args);
    let (_, err) = text(&out);
    assert!(!out.status.success(), "{args:?} succeeded");
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    assert!(err.contains(needle), "{args:?}: {needle:?} not in {err}");
    err
}

fn succeeds(args: &[&str]) -> (String, String) {
    let out = ccdlab(args);
    let t = text(&out);
    assert!(out.status.success(), "{args:?} failed: {}", t.1);
    t
}

/// Generates a scene of two frames at `resolution` into the new folder
/// `dir`; their paths.
fn two_frames(dir: &str, resolution: &str) -> [PathBuf; 2] {
    succeeds(&[
        "generate",
        "--resolution",
        resolution,
        "--frames",
        "2",
        "--out",
        dir,
    ]);
    ["frame_0000.ply", "frame_0001.ply"].map(|f| Path::new(dir).join(f))
}

#[test]
fn replay_of_a_small_generated_scene_prints_its_summary() {
    let (out, _) = succeeds(&["replay", "generated:16:6", "--threads", "2"]);
    assert!(out.contains("generated-16x16-6f: 5 steps (898 V,"), "{out}");
    assert!(out.contains("steps with collisions: 5/5"), "{out}");
    assert!(out.contains("26-DOP, exact solver, 2 threads"), "{out}");
    // What ran: here `--time-aligned auto` runs the paper's filters.
    assert!(
        out.contains("ran: filters slpf+dnf, window filter on (5 steps)"),
        "{out}"
    );
    // The same columns as `step`, window culls included.
    let d = Scratch::unmade("cli-columns");
    let [f0, f1] = two_frames(d.join("f").to_str().unwrap(), "6");
    let (step, _) = succeeds(&["step", f0.to_str().unwrap(), f1.to_str().unwrap()]);
    let header = |text: &str| {
        text.lines()
            .find(|l| l.contains("candidates"))
            .unwrap()
            .to_string()
    };
    assert_eq!(header(&out), header(&step));
    assert!(header(&out).contains("window cull"), "{out}");
    // Pruning, and the configured filters without SLPF when `auto` prunes.
    let (out, _) = succeeds(&[
        "replay",
        "generated:16:6",
        "--time-aligned",
        "on",
        "--filters",
        "dnf",
        "--window",
        "off",
    ]);
    assert!(
        out.contains("ran: filters dnf with time-aligned pruning, window filter off (5 steps)"),
        "{out}"
    );
}

/// The JSON lines of `ccdlab replay generated:16:4 OPTIONS --out LOG`, the
/// log written into `d` under a name made of the options.
fn replay_lines(d: &Scratch, options: &[&str]) -> Vec<Value> {
    let log = d.join(format!("replay_{}.jsonl", options.join("_")));
    let mut args = vec!["replay", "generated:16:4"];
    args.extend_from_slice(options);
    args.extend_from_slice(&["--out", log.to_str().unwrap()]);
    succeeds(&args);
    std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `--window off` (shared by `step` and `replay`) changes only the window
/// filter's own count: the paper's counts and the collisions stay the same.
#[test]
fn replay_window_off_changes_only_the_window_count() {
    let d = Scratch::new("cli-window");
    let run = |window: &str| replay_lines(&d, &["--window", window]);
    let (on, off) = (run("on"), run("off"));
    assert_eq!((on.len(), off.len()), (3, 3));
    let mut culled_on = 0;
    for (i, (a, b)) in on.iter().zip(&off).enumerate() {
        for kind in ["vf", "ee"] {
            for key in [
                "candidates",
                "culled_slpf",
                "culled_dnf",
                "after_filter",
                "colliding",
            ] {
                assert_eq!(a[kind][key], b[kind][key], "step {i}: {kind}.{key}");
            }
            assert_eq!(b[kind]["culled_window"], 0, "step {i}: {kind}");
            culled_on += a[kind]["culled_window"].as_u64().unwrap();
        }
        assert_eq!(a["toi"], b["toi"], "step {i}");
    }
    assert!(culled_on > 0, "the window filter culled nothing in 3 steps");
    fails_with(
        &["replay", "generated:8:3", "--window", "maybe"],
        "--window",
    );
}

/// `--time-aligned on` (shared by `step` and `replay`) keeps the collisions
/// and the time of impact of every step, with no more candidates; the JSON
/// says which setting ran; `auto` runs one of the two (without SLPF when it
/// prunes) with the same collisions; a bad value is refused.
#[test]
fn replay_time_aligned_keeps_the_collisions() {
    let d = Scratch::new("cli-time-aligned");
    let run = |setting: &str| replay_lines(&d, &["--time-aligned", setting]);
    let (on, off, auto) = (run("on"), run("off"), run("auto"));
    assert_eq!((on.len(), off.len(), auto.len()), (3, 3, 3));
    for (i, (a, b)) in auto.iter().zip(&off).enumerate() {
        let filters = match a["time_aligned"].as_bool() {
            Some(true) => "dnf",
            Some(false) => "slpf+dnf",
            None => panic!("step {i}: no time_aligned"),
        };
        assert_eq!(a["filters"], filters, "step {i}");
        for kind in ["vf", "ee"] {
            assert_eq!(
                a[kind]["colliding"], b[kind]["colliding"],
                "step {i}: {kind}"
            );
        }
        assert_eq!(a["toi"], b["toi"], "step {i}");
    }
    for (i, (a, b)) in on.iter().zip(&off).enumerate() {
        assert_eq!(
            (&a["time_aligned"], &b["time_aligned"]),
            (&Value::Bool(true), &Value::Bool(false))
        );
        for kind in ["vf", "ee"] {
            assert_eq!(
                a[kind]["colliding"], b[kind]["colliding"],
                "step {i}: {kind}"
            );
            let (ca, cb) = (
                a[kind]["candidates"].as_u64(),
                b[kind]["candidates"].as_u64(),
            );
            assert!(ca <= cb, "step {i}: {kind}: {ca:?} > {cb:?}");
        }
        assert_eq!(a["toi"], b["toi"], "step {i}");
        assert_eq!(a["toi_upper"], b["toi_upper"], "step {i}");
    }
    fails_with(
        &["replay", "generated:8:3", "--time-aligned", "maybe"],
        "--time-aligned",
    );
}

/// `ccdlab generate` → `ccdlab replay DIR --out LOG` → `ccdlab step` on each
/// pair of written frames: the same counts and time of impact, and the
/// frames read back equal the generator's in memory, bit for bit.
#[test]
fn generate_replay_and_step_agree_on_every_step() {
    let d = Scratch::unmade("cli-e2e");
    let frames = d.join("frames");
    let (out, _) = succeeds(&[
        "generate",
        "--resolution",
        "16",
        "--frames",
        "5",
        "--out",
        frames.to_str().unwrap(),
    ]);
    assert!(
        out.contains("5 frames, 898 V (256 cloth + 642 sphere)"),
        "{out}"
    );
    let frame_files = names(&frames);
    assert_eq!(
        frame_files,
        [
            "frame_0000.ply",
            "frame_0001.ply",
            "frame_0002.ply",
            "frame_0003.ply",
            "frame_0004.ply"
        ]
    );
    // Nothing left beside the folder.
    assert_eq!(names(&d), ["frames"]);

    let read = FrameSequence::from_dir(&frames).unwrap();
    let mem = generate(&SceneParams::with_size(16, 5)).unwrap();
    assert_eq!(read.mesh(), mem.mesh());
    for i in 0..5 {
        assert_eq!(read.frame(i).unwrap(), mem.frame(i).unwrap(), "frame {i}");
    }

    let log = d.join("replay.jsonl");
    succeeds(&[
        "replay",
        frames.to_str().unwrap(),
        "--out",
        log.to_str().unwrap(),
    ]);
    let lines: Vec<Value> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(line["frame_t0"], frame_files[i]);
        let f0 = frames.join(&frame_files[i]);
        let f1 = frames.join(&frame_files[i + 1]);
        let (json, _) = succeeds(&["step", f0.to_str().unwrap(), f1.to_str().unwrap(), "--json"]);
        let step: StepReport = serde_json::from_str(&json).unwrap();
        for key in ["vf", "ee", "toi", "toi_upper"] {
            assert_eq!(
                line[key],
                serde_json::to_value(&step).unwrap()[key],
                "step {i}: {key}"
            );
        }
    }
}

/// A timed command's JSON carries the provenance stamp: machine, threads,
/// commit and date.
fn assert_stamped(json: &Value) {
    let stamp: ccdlab::harness::stamp::Stamp =
        serde_json::from_value(json["stamp"].clone()).expect("a stamp");
    assert!(stamp.threads >= 1 && stamp.logical_cpus >= 1, "{stamp:?}");
    assert!(
        !stamp.git_commit.is_empty() && !stamp.cpu.is_empty(),
        "{stamp:?}"
    );
}

/// `step --repeat N` reports the fastest of N runs, each with the same
/// counts and time of impact as a single run; runs after the first refit the
/// BVH unless `--rebuild`, and the report says how the reported run's BVH
/// was made (the first run, which builds it, may be the fastest).
#[test]
fn step_repeat_reports_the_same_outcome_and_says_how_the_bvh_was_made() {
    let d = Scratch::unmade("cli-repeat");
    let frames = d.join("frames");
    let dir = frames.to_str().unwrap();
    let [f0, f1] = two_frames(dir, "12");
    let (f0, f1) = (f0.to_str().unwrap(), f1.to_str().unwrap());
    let run = |extra: &[&str]| -> Value {
        let mut args = vec!["step", f0, f1, "--json"];
        args.extend_from_slice(extra);
        serde_json::from_str(&succeeds(&args).0).unwrap()
    };
    let once = run(&[]);
    assert_eq!(once["bvh"], "build");
    assert!(once.get("runs").is_none());
    assert_stamped(&once);
    for (extra, rebuild) in [
        (&["--repeat", "3"][..], false),
        (&["--repeat", "2", "--rebuild"][..], true),
    ] {
        let r = run(extra);
        let runs: u64 = extra[1].parse().unwrap();
        assert_eq!(r["runs"], runs, "{extra:?}");
        let totals: Vec<f64> = r["runs_total_ms"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_f64().unwrap())
            .collect();
        assert_eq!(totals.len() as u64, runs, "{extra:?}");
        let fastest = totals.iter().copied().fold(f64::INFINITY, f64::min);
        // The first of equally fast runs is the one reported.
        let first_fastest = totals.iter().position(|&t| t == fastest).unwrap();
        let bvh = if rebuild || first_fastest == 0 {
            "build"
        } else {
            "refit"
        };
        assert_eq!(
            r["bvh"], bvh,
            "{extra:?}: run {first_fastest} of {totals:?}"
        );
        assert_eq!(
            r["time_ms"]["total"].as_f64().unwrap(),
            fastest,
            "{extra:?}"
        );
        for key in ["vf", "ee", "toi", "toi_upper"] {
            assert_eq!(r[key], once[key], "{extra:?}: {key}");
        }
    }
    fails_with(&["step", f0, f1, "--repeat", "0"], "--repeat");
    fails_with(&["step", f0, f1, "--rebuild"], "--repeat");
}

#[test]
fn generate_writes_obj_refuses_a_full_folder_and_replaces_with_force() {
    let d = Scratch::unmade("cli-force");
    let dir = d.to_str().unwrap().to_string();
    succeeds(&[
        "generate",
        "--resolution",
        "6",
        "--frames",
        "4",
        "--format",
        "obj",
        "--out",
        &dir,
    ]);
    assert_eq!(names(&d).len(), 4);
    let read = FrameSequence::from_dir(&d).unwrap();
    let mem = generate(&SceneParams::with_size(6, 4)).unwrap();
    assert_eq!(
        read.frame(3).unwrap(),
        mem.frame(3).unwrap(),
        "OBJ is exact"
    );

    fails_with(
        &[
            "generate",
            "--resolution",
            "6",
            "--frames",
            "2",
            "--out",
            &dir,
        ],
        "not empty",
    );
    assert_eq!(names(&d).len(), 4, "a refusal touches nothing");

    std::fs::write(d.join("notes.txt"), "kept").unwrap();
    succeeds(&[
        "generate",
        "--resolution",
        "6",
        "--frames",
        "2",
        "--out",
        &dir,
        "--force",
    ]);
    assert_eq!(
        names(&d),
        ["frame_0000.ply", "frame_0001.ply", "notes.txt"],
        "old frames replaced, other files kept"
    );

    // A folder in the way of a new frame: refused before anything is
    // written or removed.
    std::fs::create_dir(d.join("frame_0002.ply")).unwrap();
    let err = fails_with(
        &[
            "generate",
            "--resolution",
            "6",
            "--frames",
            "3",
            "--out",
            &dir,
            "--force",
        ],
        "frame_0002.ply",
    );
    assert!(err.contains("in the way"), "{err}");
    assert_eq!(
        names(&d),
        [
            "frame_0000.ply",
            "frame_0001.ply",
            "frame_0002.ply",
            "notes.txt"
        ]
    );
    assert!(d.join("frame_0002.ply").is_dir());
    let tmp = format!(".{}.generate-", d.file_name().unwrap().to_string_lossy());
    let tmp_left = std::fs::read_dir(d.parent().unwrap())
        .unwrap()
        .filter_map(|e| e.ok())
        .any(|e| e.file_name().to_string_lossy().starts_with(&tmp));
    assert!(!tmp_left, "no temporary folder left");
}

/// A reader that has gone (`ccdlab replay … | head -1` once `head` is
/// done) ends the run quietly, as it ends other Unix tools, without a
/// "Broken pipe" panic.
#[test]
#[cfg(unix)]
fn a_closed_output_pipe_is_not_a_panic() {
    use std::os::unix::process::ExitStatusExt;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_ccdlab"))
        .args(["replay", "generated:8:3"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run ccdlab");
    // Close the read end before ccdlab writes anything.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(out.status.signal(), Some(libc::SIGPIPE), "{err}");
}

#[test]
fn wrong_arguments_fail_cleanly() {
    fails_with(&["replay", "--k", "7"], "error");
    fails_with(&["frobnicate"], "error");
    fails_with(&["replay", "generated:1"], "resolution 1");
    fails_with(&["replay", "generated:8:x"], "generated:8:x");
    fails_with(&["replay", "generated:8:0"], "frames 0");
    fails_with(&["replay", "generated:8:3:-1"], "gap = -1");
    fails_with(&["replay", "generated:8:3:nan"], "generated:8:3:nan");
    fails_with(&["replay", "no/such/folder"], "no/such/folder");
    fails_with(&["replay", "generated:8:3", "--threads", "0"], "--threads");
    let d = Scratch::unmade("cli-args");
    let out = d.join("g");
    let out = out.to_str().unwrap();
    fails_with(
        &["generate", "--resolution", "1", "--out", out],
        "'--resolution <RESOLUTION>': must be a whole number from 2 to 1024",
    );
    fails_with(
        &["generate", "--frames", "1", "--out", out],
        "'--frames <FRAMES>': must be a whole number from 2 to 10000",
    );
    fails_with(
        &["generate", "--gap", "inf", "--out", out],
        "'--gap <GAP>': must be a number of metres from 0 to 100",
    );
    fails_with(&["generate", "--format", "stl", "--out", out], "stl");
    fails_with(&["generate"], "--out");
    assert!(!d.exists(), "failed runs write nothing");
}

/// An output path that cannot take the results is refused before any work,
/// and never written over an input frame; `--threads` is bounded.
#[test]
fn outputs_are_checked_before_the_work_and_never_replace_an_input() {
    let d = Scratch::unmade("cli-outputs");
    let frames = d.join("frames");
    let dir = frames.to_str().unwrap();
    let [f0, f1] = two_frames(dir, "6");
    let before = std::fs::read(&f1).unwrap();
    let (f0, f1) = (f0.to_str().unwrap(), f1.to_str().unwrap());
    let err = fails_with(&["step", f0, f1, "--pairs", f1], "--pairs");
    assert!(err.contains("is the input"), "{err}");
    let err = fails_with(&["replay", dir, "--out", f1], "--out");
    assert!(err.contains("is the input"), "{err}");
    assert_eq!(
        std::fs::read(frames.join("frame_0001.ply")).unwrap(),
        before
    );

    let missing = d.join("no/such/folder/pairs.csv");
    let err = fails_with(
        &["step", f0, f1, "--pairs", missing.to_str().unwrap()],
        "no/such/folder",
    );
    assert!(err.contains("does not exist"), "{err}");
    fails_with(&["step", f0, f1, "--pairs", dir], "is a folder");
    // `-` is not standard output here, nor a file: refused, run in the
    // scratch folder to see that no file `-` appears.
    let out = Command::new(env!("CARGO_BIN_EXE_ccdlab"))
        .args(["step", f0, f1, "--pairs", "-"])
        .current_dir(&d)
        .output()
        .expect("run ccdlab");
    let (_, err) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("--pairs -: not standard output") && err.contains("./-"),
        "{err}"
    );
    assert!(!d.join("-").exists());
    let range = "'--threads <THREADS>': must be a whole number from 1 to 1024";
    fails_with(&["step", f0, f1, "--threads", "100000"], range);
    fails_with(&["replay", dir, "--threads", "1025"], range);
    assert_eq!(names(&frames), ["frame_0000.ply", "frame_0001.ply"]);
}

/// `queries` scores against ground truth: a set without any is an error,
/// not a perfect score of zeros.
#[test]
fn queries_refuse_a_set_without_ground_truth() {
    let d = Scratch::unmade("cli-truth");
    let vf = d.join("vertex-face");
    std::fs::create_dir_all(&vf).unwrap();
    // A vertex through the middle of a still triangle: v_t0, f0_t0, f1_t0,
    // f2_t0, then the same at t = 1.
    let rows = [
        "1,4,1,4,1,1",
        "0,1,0,1,0,1",
        "1,1,0,1,0,1",
        "0,1,1,1,0,1",
        "1,4,1,4,-1,1",
        "0,1,0,1,0,1",
        "1,1,0,1,0,1",
        "0,1,1,1,0,1",
    ];
    let csv = vf.join("q.csv");
    std::fs::write(&csv, rows.map(|r| format!("{r},1\n")).concat()).unwrap();
    let (out, _) = succeeds(&[
        "queries",
        "--min-time-ms",
        "0",
        "--json",
        d.to_str().unwrap(),
    ]);
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["total"]["positives"], 1);
    assert_eq!(report["total"]["false_negatives"], 0);
    std::fs::write(&csv, rows.map(|r| format!("{r}\n")).concat()).unwrap();
    let err = fails_with(&["queries", d.to_str().unwrap()], "no ground truth");
    assert!(err.contains("q.csv"), "{err}");
    fails_with(
        &["queries", "--min-time-ms", "60001", d.to_str().unwrap()],
        "--min-time-ms",
    );
}

/// `queries` names the queries whose ground truth the exact solver
/// disagrees with (a wrong hand-made truth): all of them, from 0, in the
/// file's order, and exits with status 1 after its report (with the cubic
/// solver, which is not certified, 0); a set without disagreement lists
/// none.
#[test]
fn queries_name_the_queries_that_disagree_with_the_ground_truth() {
    let d = Scratch::new("cli-queries-disagree");
    let triangle = ["0,1,0,1,0,1", "1,1,0,1,0,1", "0,1,1,1,0,1"];
    // Query 0: through the triangle, truth 1 (right); query 1: still 1
    // above, truth 1 (wrong); query 2: through, truth 0 (wrong); query 3:
    // still, truth 0 (right).
    let mut rows = Vec::new();
    for (p0, p1, truth) in [
        ("1,4,1,4,1,1", "1,4,1,4,-1,1", 1),
        ("1,4,1,4,1,1", "1,4,1,4,1,1", 1),
        ("1,4,1,4,1,1", "1,4,1,4,-1,1", 0),
        ("1,4,1,4,1,1", "1,4,1,4,1,1", 0),
    ] {
        rows.push(format!("{p0},{truth}\n"));
        rows.extend(triangle.map(|t| format!("{t},{truth}\n")));
        rows.push(format!("{p1},{truth}\n"));
        rows.extend(triangle.map(|t| format!("{t},{truth}\n")));
    }
    let csv = d.file("vertex-face/q.csv", rows.concat());
    // The exact solver is certified: its disagreements make the exit status
    // 1, after the whole report; the cubic solver's are only reported.
    let path = csv.to_str().unwrap();
    let out = ccdlab(&["queries", "--json", "--min-time-ms", "0", path]);
    let (stdout, err) = text(&out);
    assert!(!out.status.success() && !err.contains("panicked"), "{err}");
    assert!(
        err.contains(
            "disagrees with the ground truth on 2 queries (1 false positives, 1 false negatives)"
        ),
        "{err}"
    );
    let report: Value = serde_json::from_str(&stdout).unwrap();
    let set = &report["sets"][0];
    assert_eq!(
        (&set["false_positives"], &set["false_negatives"]),
        (&Value::from(1), &Value::from(1))
    );
    assert_eq!(set["disagreements"], serde_json::json!([1, 2]));
    let (text_out, _) = text(&ccdlab(&["queries", "--min-time-ms", "0", path]));
    assert!(
        text_out.contains("the exact solver is certified"),
        "{text_out}"
    );
    let cubic = queries_json(&["--solver", "cubic"], &csv);
    assert_eq!(cubic["sets"][0]["queries"], Value::from(4));
    // The right half alone: nothing to name.
    let right = [&rows[..8], &rows[24..]].concat().concat();
    let csv = d.file("vertex-face/q.csv", right);
    let report = queries_json(&[], &csv);
    assert!(report["sets"][0].get("disagreements").is_none(), "{report}");
}

/// A `CCDLAB_DATA` that holds no data set is the only place looked in, and
/// the error says so (it used to list the fallbacks it did not try).
#[test]
fn a_wrong_data_variable_is_reported_as_the_only_place_looked_in() {
    let out = Command::new(env!("CARGO_BIN_EXE_ccdlab"))
        .arg("data")
        .env("CCDLAB_DATA", "/no/such/data")
        .output()
        .unwrap();
    let (stdout, err) = text(&out);
    assert!(!out.status.success());
    assert!(
        err.contains("/no/such/data") && err.contains("only place"),
        "{err}"
    );
    assert!(!err.contains("shared"), "{err}");
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
}

/// `replay` without a sequence and with `CCDLAB_DATA` set replays the data
/// sets' scenes found there, or fails naming it: a missing folder, or a
/// data root without scene frames, is not a silent fallback to the
/// generated scene.
#[test]
fn replay_with_a_wrong_data_variable_fails_instead_of_falling_back() {
    let d = Scratch::new("replay_data_variable");
    let queries_only = d.join("data");
    std::fs::create_dir_all(queries_only.join("ccd-queries")).unwrap();
    for (dir, needle) in [
        (Path::new("/no/such/data"), "only place looked in"),
        (queries_only.as_path(), "no scene frames"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_ccdlab"))
            .arg("replay")
            .env("CCDLAB_DATA", dir)
            .output()
            .unwrap();
        let (stdout, err) = text(&out);
        assert!(!out.status.success(), "{dir:?}: {stdout}");
        assert!(
            err.contains(needle) && err.contains(dir.to_str().unwrap()),
            "{err}"
        );
        assert!(!stdout.contains("generated"), "{stdout}");
    }
}

/// `RAYON_NUM_THREADS`, which sets every pool's size without `--threads`,
/// is held to `--threads`' limit: a huge value is refused before any work
/// (it used to start that many threads), and so is one that is no count.
#[test]
fn a_bad_rayon_thread_count_is_refused() {
    let out = Command::new(env!("CARGO_BIN_EXE_ccdlab"))
        .args(["replay", "generated"])
        .env("RAYON_NUM_THREADS", "100000")
        .output()
        .unwrap();
    let (stdout, err) = text(&out);
    assert!(!out.status.success(), "{stdout}");
    assert!(
        err.contains("RAYON_NUM_THREADS=100000: at most 1024"),
        "{err}"
    );
    assert!(stdout.is_empty(), "{stdout}");
    // A value that is no count is refused too (rayon would ignore it);
    // `0`, rayon's "all logical CPUs", is not.
    for (value, refused) in [("abc", true), ("-1", true), ("0", false)] {
        let out = Command::new(env!("CARGO_BIN_EXE_ccdlab"))
            .args(["data"])
            .env("RAYON_NUM_THREADS", value)
            .output()
            .unwrap();
        let (_, err) = text(&out);
        assert_eq!(!out.status.success(), refused, "{value}: {err}");
        if refused {
            assert!(
                err.contains(&format!(
                    "RAYON_NUM_THREADS=\"{value}\": not a thread count"
                )),
                "{err}"
            );
        }
    }
}

/// A folder of frames whose name is not UTF-8 replays as any other (as
/// `step` reads such frames).
#[cfg(unix)]
#[test]
fn replay_reads_a_folder_whose_name_is_not_utf8() {
    use std::os::unix::ffi::OsStrExt;
    let d = Scratch::new("cli-non-utf8");
    let dir = d.join(std::ffi::OsStr::from_bytes(b"frames-\xff"));
    let out = Command::new(env!("CARGO_BIN_EXE_ccdlab"))
        .args(["generate", "--resolution", "8", "--frames", "3", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out).1);
    let out = Command::new(env!("CARGO_BIN_EXE_ccdlab"))
        .args(["replay", "--threads", "1"])
        .arg(&dir)
        .output()
        .unwrap();
    let (stdout, err) = text(&out);
    assert!(out.status.success(), "{err}");
    assert!(
        stdout.contains("frames-\u{fffd}: 2 steps (706 V,"),
        "{stdout}"
    );
}

/// The JSON of the commands that read frames names them as given; a name
/// that is not UTF-8 (JSON holds UTF-8 only) with U+FFFD in place of the
/// bytes it cannot show, as the text outputs show it.
#[cfg(unix)]
#[test]
fn json_outputs_name_frames_whose_names_are_not_utf8() {
    use std::os::unix::ffi::OsStrExt;
    let d = Scratch::new("cli-non-utf8-json");
    let dir = d.join(std::ffi::OsStr::from_bytes(b"frames-\xff"));
    let run = |args: &[&std::ffi::OsStr]| {
        let out = Command::new(env!("CARGO_BIN_EXE_ccdlab"))
            .args(args)
            .output()
            .unwrap();
        let (stdout, err) = text(&out);
        assert!(out.status.success(), "{args:?}: {err}");
        stdout
    };
    let os = |s: &'static str| std::ffi::OsStr::new(s);
    run(&[
        os("generate"),
        os("--resolution"),
        os("6"),
        os("--frames"),
        os("2"),
        os("--out"),
        dir.as_os_str(),
    ]);
    let [f0, f1] = ["frame_0000.ply", "frame_0001.ply"].map(|f| dir.join(f));
    let shown = |f: &Path| f.to_string_lossy().into_owned();
    assert!(shown(&f0).contains("frames-\u{fffd}"));
    let json = |args: &[&std::ffi::OsStr]| -> Value {
        serde_json::from_str(&run(&[args, &[os("--json")]].concat())).unwrap()
    };
    let step = json(&[os("step"), f0.as_os_str(), f1.as_os_str()]);
    assert_eq!(step["frames"], serde_json::json!([shown(&f0), shown(&f1)]));
    let check = json(&[
        os("sample-check"),
        f0.as_os_str(),
        f1.as_os_str(),
        os("--samples"),
        os("4"),
        os("--min-distance"),
        os("0.001"),
    ]);
    assert_eq!(check["frames"], step["frames"]);
    let touching = json(&[os("intersections"), f0.as_os_str()]);
    assert_eq!(touching["frame"], shown(&f0));
    let near = json(&[
        os("proximity"),
        f0.as_os_str(),
        os("--distance"),
        os("0.01"),
    ]);
    assert_eq!(near["frame"], shown(&f0));
}

/// A Scalable-CCD scene whose folder and file stems are not UTF-8 scores as
/// the same sets named in UTF-8: each set finds its truth file
/// (`mma_bool/<stem>_mma_bool.json`) by the stem's own bytes, as a query
/// CSV and as a boxes file; `queries --json` names the sets with U+FFFD in
/// place of the bytes, in valid JSON, as the table does.
#[cfg(unix)]
#[test]
fn queries_score_sets_whose_names_are_not_utf8() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let funnel = ccdlab::harness::data::require_root()
        .unwrap_or_else(|e| panic!("{e}"))
        .join("scalable-ccd/cloth-funnel");
    let d = Scratch::new("cli-non-utf8-queries");
    let scene = d.join(OsStr::from_bytes(b"scene-\xff"));
    let copy = |from: &str, to: &[u8]| {
        let to = scene.join(OsStr::from_bytes(to));
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(funnel.join(from), to).unwrap();
    };
    copy("queries/227ee.csv", b"queries/\xff227ee.csv");
    copy(
        "mma_bool/227ee_mma_bool.json",
        b"mma_bool/\xff227ee_mma_bool.json",
    );
    copy("boxes/227vf.json", b"boxes/\xfe227vf.json");
    copy(
        "mma_bool/227vf_mma_bool.json",
        b"mma_bool/\xfe227vf_mma_bool.json",
    );
    copy("frames/227.ply", b"frames/227.ply");
    copy("frames/228.ply", b"frames/228.ply");
    let json = |path: &Path| -> Value {
        let out = Command::new(env!("CARGO_BIN_EXE_ccdlab"))
            .args(["queries", "--json", "--min-time-ms", "0"])
            .arg(path)
            .output()
            .unwrap();
        let (stdout, err) = text(&out);
        assert!(out.status.success(), "{path:?}: {err}");
        serde_json::from_str(&stdout).unwrap()
    };
    let (ours, theirs) = (json(&scene), json(&funnel));
    let sets = |report: &Value| -> Vec<Value> {
        let mut sets = report["sets"].as_array().unwrap().clone();
        sets.sort_by_key(|s| s["kind"].to_string());
        sets
    };
    let shown = |p: &[u8]| {
        scene
            .join(OsStr::from_bytes(p))
            .to_string_lossy()
            .into_owned()
    };
    let paths: Vec<Value> = sets(&ours).iter().map(|s| s["path"].clone()).collect();
    assert_eq!(
        paths,
        [
            shown(b"queries/\xff227ee.csv"),
            shown(b"boxes/\xfe227vf.json")
        ]
    );
    assert!(
        paths
            .iter()
            .all(|p| p.as_str().unwrap().contains("scene-\u{fffd}"))
    );
    for (a, b) in sets(&ours).iter().zip(&sets(&theirs)) {
        for key in [
            "kind",
            "queries",
            "positives",
            "false_positives",
            "false_negatives",
        ] {
            assert_eq!(a[key], b[key], "{key}");
        }
    }
    // Boxes are skipped for a query CSV of the same stem, by its bytes: a
    // stem that only reads alike (`\xfe` for `\xff`) is another step's.
    copy("boxes/227ee.json", b"boxes/\xff227ee.json");
    copy("boxes/227ee.json", b"boxes/\xfe227ee.json");
    copy(
        "mma_bool/227ee_mma_bool.json",
        b"mma_bool/\xfe227ee_mma_bool.json",
    );
    let mut paths: Vec<Value> = (json(&scene)["sets"].as_array().unwrap())
        .iter()
        .map(|s| s["path"].clone())
        .collect();
    paths.sort_by_key(|p| p.to_string());
    let mut expected = [
        shown(b"boxes/\xfe227ee.json"),
        shown(b"boxes/\xfe227vf.json"),
        shown(b"queries/\xff227ee.csv"),
    ];
    expected.sort();
    assert_eq!(paths, expected);
}

/// A cause already quoted by the error message is not printed again.
#[test]
fn errors_do_not_repeat_their_cause() {
    let d = Scratch::new("cli-cause");
    // A vertex index out of range: the reader's error quotes its cause.
    let bad = d.join("bad.ply");
    let ply = "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n\
               property float z\nelement face 1\nproperty list uchar int vertex_indices\n\
               end_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 7\n";
    std::fs::write(&bad, ply).unwrap();
    let bad = bad.to_str().unwrap();
    let err = fails_with(
        &["step", bad, bad],
        "refers to vertex 7 (both numbered from 0)",
    );
    assert_eq!(err.matches("refers to vertex 7").count(), 1, "{err}");
    let missing = d.join("missing.ply");
    let missing = missing.to_str().unwrap();
    let err = fails_with(&["step", missing, missing], "missing.ply");
    assert!(!err.contains("caused by"), "{err}");
}

#[test]
fn bad_sequences_name_the_folder_or_file() {
    let d = Scratch::new("cli-bad");
    let dir = d.to_str().unwrap().to_string();
    std::fs::write(d.join("readme.txt"), "no frames here").unwrap();
    fails_with(&["replay", &dir], "no frames");

    // Frames 0, 1, 3: a gap, warned about by file name; the replay runs.
    succeeds(&[
        "generate",
        "--resolution",
        "6",
        "--frames",
        "4",
        "--out",
        &dir,
        "--force",
    ]);
    std::fs::remove_file(d.join("frame_0002.ply")).unwrap();
    let (_, err) = succeeds(&["replay", &dir]);
    assert!(
        err.contains("warning") && err.contains("frame_0001.ply") && err.contains("frame_0003.ply"),
        "{err}"
    );

    // An unreadable frame, and one of another topology: errors name them,
    // and --out is not written.
    let log = d.join("log.jsonl");
    let log = log.to_str().unwrap();
    std::fs::write(
        d.join("frame_0004.ply"),
        "ply\nformat ascii 1.0\nelement vertex 3\n",
    )
    .unwrap();
    fails_with(&["replay", &dir, "--out", log], "frame_0004.ply");
    let other = generate(&SceneParams::with_size(5, 2)).unwrap();
    let x = other.frame(0).unwrap();
    ccdlab::mesh::write_ply(&d.join("frame_0004.ply"), &x, other.mesh().faces()).unwrap();
    fails_with(&["replay", &dir, "--out", log], "frame_0004.ply");
    assert!(!Path::new(log).exists());
}

/// `--self-collision off`: each connected component is a body, and the step
/// tests the pairs across components only: the candidates and collisions a
/// step with self-collision counts as between components; the summary and
/// the JSON say so; `replay` takes the option too, and a bad value is
/// refused naming it.
#[test]
fn step_without_self_collision_tests_the_pairs_between_components() {
    let frames = ccdlab::harness::data::require_root()
        .unwrap()
        .join("scalable-ccd/cloth-funnel/frames");
    let (f0, f1) = (frames.join("227.ply"), frames.join("228.ply"));
    let (f0, f1) = (f0.to_str().unwrap(), f1.to_str().unwrap());
    let report = |setting: &str| -> StepReport {
        let (out, _) = succeeds(&[
            "step",
            "--json",
            "--time-aligned",
            "off",
            "--self-collision",
            setting,
            f0,
            f1,
        ]);
        serde_json::from_str(&out).unwrap()
    };
    let (all, across) = (report("on"), report("off"));
    for (a, c) in [(&all.vf, &across.vf), (&all.ee, &across.ee)] {
        assert_eq!(c.candidates, a.candidates - a.candidates_same_component);
        assert_eq!(c.colliding, a.colliding - a.colliding_same_component);
        assert_eq!(c.candidates_same_component, 0);
    }
    assert!(across.vf.candidates + across.ee.candidates > 0);
    let bodies = across.bodies.expect("bodies in the report");
    assert_eq!((bodies.bodies, bodies.self_colliding), (4, 0));
    assert!(all.bodies.is_none());
    let (text, _) = succeeds(&["step", "--self-collision", "off", f0, f1]);
    assert!(
        text.contains("bodies: 4, 0 of them colliding with themselves"),
        "{text}"
    );
    // `moving`: funnel's still funnel is the obstacle; the cloth's pairs
    // with itself, which hold the step's contacts, are tested.
    let moving = report("moving");
    assert_eq!(moving.toi, all.toi);
    assert_eq!(
        (moving.vf.colliding, moving.ee.colliding),
        (all.vf.colliding, all.ee.colliding)
    );
    let bodies = moving.bodies.expect("bodies in the report");
    assert_eq!((bodies.bodies, bodies.self_colliding), (2, 1));
    fails_with(
        &["step", "--self-collision", "maybe", f0, f1],
        "--self-collision",
    );
    let dir = frames.to_str().unwrap();
    let (text, _) = succeeds(&["replay", dir, "--self-collision", "off", "--threads", "2"]);
    assert!(text.contains("bodies: 4, 0 of them"), "{text}");
}

/// `--min-distance`: a distance that is no finite `d ≥ 0` is refused naming
/// the option; a positive one finds the contacts and more, and says so.
#[test]
fn step_min_distance_is_checked_and_finds_more_pairs() {
    let frames = ccdlab::harness::data::require_root()
        .unwrap()
        .join("scalable-ccd/cloth-funnel/frames");
    let (f0, f1) = (frames.join("227.ply"), frames.join("228.ply"));
    // 1e-400 parses as 0, which would silently mean contact.
    for bad in ["-1", "nan", "inf", "-inf", "x", "1e-400", "0.3e-330"] {
        let out = Command::new(env!("CARGO_BIN_EXE_ccdlab"))
            .args(["step"])
            .arg(&f0)
            .arg(&f1)
            .args(["--min-distance", bad])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && err.contains("--min-distance"),
            "{bad}: {err}"
        );
    }
    let json = |d: &str| -> Value {
        let out = Command::new(env!("CARGO_BIN_EXE_ccdlab"))
            .args(["step", "--json", "--threads", "2", "--min-distance", d])
            .arg(&f0)
            .arg(&f1)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    };
    // The cubic solver decides contact only: refused at d > 0, before any
    // frame is read (a missing frame would be reported otherwise), in step
    // and replay alike.
    for args in [
        &["step", "no-such-frame.ply", "no-such-frame.ply"][..],
        &["replay", "no-such-folder"],
    ] {
        let mut args = args.to_vec();
        args.extend(["--solver", "cubic", "--min-distance", "1e-300"]);
        let err = fails_with(
            &args,
            "--solver cubic with --min-distance 1e-300: the cubic solver has no minimum separation",
        );
        assert!(!err.contains("no-such"), "{err}");
    }
    let (contact, near) = (json("0"), json("1e-4"));
    assert!(contact.get("min_distance").is_none());
    assert_eq!(near["min_distance"], 1e-4);
    assert_eq!(
        (near["filters"].as_str(), near["window"].as_bool()),
        (Some("dnf"), Some(true))
    );
    for kind in ["vf", "ee"] {
        let c = |r: &Value| r[kind]["colliding"].as_u64().unwrap();
        assert!(c(&near) > c(&contact), "{kind}");
        // The window filter runs with its margin, and culls.
        assert!(near[kind]["culled_window"].as_u64().unwrap() > 0, "{kind}");
    }
}

/// `step --any` answers whether the step collides, as the full step's count
/// says: funnel 227→228 collides at contact and within d, the step from 227
/// to itself does not at contact; `--toi-only` gives the step's bracket; the
/// JSON is stamped and names its frames; `--pairs` (nothing to list) is
/// refused with either, and the two with each other.
#[test]
fn step_any_answers_whether_the_step_collides() {
    let frames = ccdlab::harness::data::require_root()
        .unwrap()
        .join("scalable-ccd/cloth-funnel/frames");
    let (f0, f1) = (frames.join("227.ply"), frames.join("228.ply"));
    let (f0, f1) = (f0.to_str().unwrap(), f1.to_str().unwrap());
    let json = |args: &[&str]| -> Value {
        let (out, _) = succeeds(args);
        serde_json::from_str(&out).unwrap()
    };
    for (to, d, free) in [(f1, "0", false), (f1, "1e-4", false), (f0, "0", true)] {
        let step = json(&["step", f0, to, "--min-distance", d, "--json"]);
        let colliding = |k: &str| step[k]["colliding"].as_u64().unwrap();
        assert_eq!(colliding("vf") + colliding("ee") == 0, free, "{to} at {d}");
        let args = ["step", f0, to, "--min-distance", d, "--any", "--json"];
        let any = json(&[&args[..], &["--threads", "1"]].concat());
        assert_eq!(any["collision_free"].as_bool(), Some(free), "{to} at {d}");
        assert_eq!(any["min_distance"], step["min_distance"]);
        assert_eq!(any["vertices"], step["vertices"]);
        assert_eq!(any["frames"][1].as_str(), Some(to));
        assert_eq!(
            any["options"],
            serde_json::json!({"k": 26, "filters": "slpf+dnf", "window": "on",
                "time_aligned": "auto", "self_collision": "on"})
        );
        assert_stamped(&any);
        let repeated = json(&[&args[..], &["--repeat", "3", "--rebuild"]].concat());
        assert_eq!(repeated["collision_free"].as_bool(), Some(free));
        assert_eq!(repeated["runs_total_ms"].as_array().map(Vec::len), Some(3));
        let (text, _) = succeeds(&args[..6]);
        let said = match free {
            true => "collision-free: no pair collides",
            false => "not collision-free: a pair collides",
        };
        assert!(text.contains(said), "{text}");
        // The time alone: the step's bracket, null without contact.
        let toi = json(&["step", f0, to, "--min-distance", d, "--toi-only", "--json"]);
        assert_eq!(
            (&toi["toi"], &toi["toi_upper"]),
            (&step["toi"], &step["toi_upper"])
        );
        assert!(toi.get("collision_free").is_none());
        assert_stamped(&toi);
    }
    fails_with(&["step", f0, f1, "--any", "--pairs", "x.csv"], "--pairs");
    fails_with(
        &["step", f0, f1, "--toi-only", "--pairs", "x.csv"],
        "--pairs",
    );
    fails_with(&["step", f0, f1, "--toi-only", "--any"], "--any");
}

/// A `queries --json` report without what changes from run to run: the
/// mean times and the stamp.
fn without_times(mut report: Value) -> Value {
    fn strip(v: &mut Value) {
        if let Some(o) = v.as_object_mut() {
            o.remove("mean_ns");
            o.remove("stamp");
            o.values_mut().for_each(strip);
        } else if let Some(a) = v.as_array_mut() {
            a.iter_mut().for_each(strip);
        }
    }
    strip(&mut report);
    report
}

/// `ccdlab queries --json --min-time-ms 0 OPTIONS PATH`, which must succeed.
fn queries_json(options: &[&str], path: &Path) -> Value {
    let mut args = vec!["queries", "--json", "--min-time-ms", "0"];
    args.extend_from_slice(options);
    args.push(path.to_str().unwrap());
    serde_json::from_str(&succeeds(&args).0).unwrap()
}

/// `queries --min-distance D` on the unit-test sets of `ccd-queries`: at
/// `D = 0` (or −0) the report of today; at `D > 0` the same contact scores,
/// and per set the positives at `D` (the library's own verdicts, counted
/// here), every ground-truth contact among them, none later than its
/// contact, no disagreement with the exact oracle, and positives growing
/// with `D`.
#[test]
fn queries_at_a_min_distance_keep_every_contact() {
    use ccdlab::harness::ground_truth::{QueryKind, read_query_csv};
    use ccdlab::narrow_phase::{edge_edge_within, vertex_face_within};

    let sets = ccdlab::harness::data::require_root()
        .unwrap()
        .join("ccd-queries/unit-tests");
    let contact = queries_json(&[], &sets);
    assert!(contact.get("min_distance").is_none(), "{contact}");
    assert!(contact["total"].get("within").is_none(), "{contact}");
    let n = contact["sets"].as_array().unwrap().len();
    assert_eq!(n, 4);
    assert!(contact["sets"][0].get("within").is_none());
    for zero in ["0", "-0"] {
        let again = queries_json(&["--min-distance", zero], &sets);
        assert_eq!(
            without_times(again),
            without_times(contact.clone()),
            "{zero}"
        );
    }
    let count = |v: &Value| v.as_u64().unwrap();
    let mut before: Vec<u64> = contact["sets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| count(&s["positives"]))
        .collect();
    let mut grew = false;
    for d in [1e-6, 1e-3, 0.05] {
        let at = queries_json(&["--min-distance", &d.to_string(), "--oracle"], &sets);
        assert_eq!(at["min_distance"], d);
        // The contact scores are the same as without the option.
        let mut contact_part = without_times(at.clone());
        contact_part.as_object_mut().unwrap().remove("min_distance");
        contact_part["total"]
            .as_object_mut()
            .unwrap()
            .remove("within");
        for s in contact_part["sets"].as_array_mut().unwrap() {
            s.as_object_mut().unwrap().remove("within");
        }
        assert_eq!(contact_part, without_times(contact.clone()), "d = {d}");
        let mut total = 0;
        for (i, s) in at["sets"].as_array().unwrap().iter().enumerate() {
            let w = &s["within"];
            assert_eq!(
                (
                    count(&w["contact_misses"]),
                    count(&w["later_than_contact"]),
                    count(&w["oracle_disagreements"])
                ),
                (0, 0, 0),
                "{s}"
            );
            let path = Path::new(s["path"].as_str().unwrap());
            let kind = match s["kind"].as_str().unwrap() {
                "vf" => QueryKind::VertexFace,
                _ => QueryKind::EdgeEdge,
            };
            let set = read_query_csv(path, kind).unwrap();
            let hits = set
                .points
                .iter()
                .filter(|[a, b, c, e, f, g, h, k]| {
                    match kind {
                        QueryKind::VertexFace => vertex_face_within(a, b, c, e, f, g, h, k, d),
                        QueryKind::EdgeEdge => edge_edge_within(a, b, c, e, f, g, h, k, d),
                    }
                    .is_some()
                })
                .count() as u64;
            let positives = count(&w["positives"]);
            assert_eq!(positives, hits, "{} at d = {d}", path.display());
            assert!(positives >= before[i], "{} at d = {d}", path.display());
            grew |= positives > before[i];
            before[i] = positives;
            total += positives;
        }
        let w = &at["total"]["within"];
        assert_eq!(count(&w["positives"]), total);
        assert_eq!(
            (
                count(&w["contact_misses"]),
                count(&w["oracle_disagreements"])
            ),
            (0, 0)
        );
    }
    assert!(grew, "no set has more positives at d > 0 than in contact");
}

/// A ground-truth contact that the verdict at `D` misses is an error: here
/// the truth is wrong (a vertex far from a still triangle marked as
/// colliding), which `queries` reports at `D = 0` as a false negative (the
/// exact solver's: exit status 1) and at `D > 0` also as a contact miss,
/// named in the error, the report printed all the same. Bad distances and options are refused, naming the option.
#[test]
fn queries_min_distance_fails_on_a_missed_contact_and_bad_options() {
    let d = Scratch::new("cli-queries-within");
    let triangle = ["0,1,0,1,0,1", "1,1,0,1,0,1", "0,1,1,1,0,1"];
    // A vertex through the triangle (a contact), then one 1 above it, still.
    let mut rows = Vec::new();
    for (p0, p1, truth) in [
        ("1,4,1,4,1,1", "1,4,1,4,-1,1", 1),
        ("1,4,1,4,1,1", "1,4,1,4,1,1", 1),
    ] {
        rows.push(format!("{p0},{truth}\n"));
        rows.extend(triangle.map(|t| format!("{t},{truth}\n")));
        rows.push(format!("{p1},{truth}\n"));
        rows.extend(triangle.map(|t| format!("{t},{truth}\n")));
    }
    let csv = d.file("vertex-face/q.csv", rows.concat());
    let path = csv.to_str().unwrap();
    // Every run fails on the wrong truth at contact; at d, a contact lost is
    // named besides.
    let failed = |options: &[&str]| -> (Value, String) {
        let mut args = vec!["queries", "--json", "--min-time-ms", "0"];
        args.extend_from_slice(options);
        args.push(path);
        let out = ccdlab(&args);
        let (stdout, err) = text(&out);
        assert!(!out.status.success(), "{options:?}");
        assert!(!err.contains("panicked"), "{err}");
        assert!(
            err.contains("disagrees with the ground truth on 1 queries"),
            "{err}"
        );
        (serde_json::from_str(&stdout).unwrap(), err)
    };
    let (contact, err) = failed(&[]);
    assert!(!err.contains("--min-distance"), "{err}");
    assert_eq!(
        (
            contact["total"]["positives"].as_u64(),
            contact["total"]["false_negatives"].as_u64()
        ),
        (Some(2), Some(1))
    );
    for options in [
        &["--min-distance", "0.5"][..],
        &["--min-distance", "0.5", "--oracle"],
    ] {
        let (report, err) = failed(options);
        assert!(
            err.contains("--min-distance 5e-1: 1 ground-truth contacts negative at d"),
            "{err}"
        );
        let w = report["total"]["within"].clone();
        assert_eq!(
            (w["positives"].as_u64(), w["contact_misses"].as_u64()),
            (Some(1), Some(1)),
            "{w}"
        );
        // The verdicts themselves are right: the oracle agrees.
        if options.len() == 3 {
            assert_eq!(w["oracle_disagreements"].as_u64(), Some(0));
        }
    }
    // At a distance above the gap of 1 both are positive: no miss at d.
    let (far, err) = failed(&["--min-distance", "1"]);
    assert!(!err.contains("--min-distance"), "{err}");
    assert_eq!(far["total"]["within"]["positives"].as_u64(), Some(2));
    assert_eq!(far["total"]["within"]["contact_misses"].as_u64(), Some(0));
    for bad in ["-1", "nan", "inf", "-inf", "x", ""] {
        fails_with(&["queries", "--min-distance", bad, path], "--min-distance");
    }
    fails_with(
        &[
            "queries",
            "--solver",
            "cubic",
            "--min-distance",
            "1e-3",
            path,
        ],
        "--solver cubic",
    );
    fails_with(&["queries", "--oracle", path], "--oracle");
    fails_with(
        &["queries", "--oracle", "--min-distance", "0", path],
        "--oracle",
    );
}

#[test]
fn step_reads_rods_from_obj_and_ply_frames() {
    let dir = Scratch::new("cli-rods");
    let obj = dir.file(
        "a.obj",
        "v -1 -1 0\nv 2 -1 0\nv -1 2 0\nv -2 0.5 1\nv 3 0.5 1\nf 1 2 3\nl 4 5\n",
    );
    let ply = dir.file(
        "b.ply",
        "ply\nformat ascii 1.0\nelement vertex 5\nproperty double x\nproperty double y\n\
         property double z\nelement face 1\nproperty list uchar int vertex_indices\n\
         element edge 1\nproperty int vertex1\nproperty int vertex2\nend_header\n\
         -1 -1 0\n2 -1 0\n-1 2 0\n-2 0.5 -1\n3 0.5 -1\n3 0 1 2\n3 4\n",
    );
    let (json, _) = succeeds(&[
        "step",
        obj.to_str().unwrap(),
        ply.to_str().unwrap(),
        "--json",
    ]);
    let v: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        (v["edges"].as_u64(), v["faces"].as_u64()),
        (Some(4), Some(1))
    );
    assert_eq!(v["ee"]["colliding"].as_u64(), Some(2));
    assert_eq!(v["vf"]["colliding"].as_u64(), Some(0));
    let toi = v["toi"].as_f64().unwrap();
    assert!(toi <= 0.5 && toi > 0.5 - 1e-9, "{toi}");
}

/// `ccdlab intersections` on funnel 227: the 285 edges through triangles
/// that Cramer's rule in exact rationals finds on every edge–face pair
/// (docs/notes/intersections.md) and no touching pair, in the summary, the
/// JSON and the pairs' CSV; a bad thread count is refused naming it.
#[test]
fn intersections_of_a_funnel_frame() {
    let frame = ccdlab::harness::data::require_root()
        .unwrap()
        .join("scalable-ccd/cloth-funnel/frames/227.ply");
    let frame = frame.to_str().unwrap();
    let (out, _) = succeeds(&["intersections", frame]);
    assert!(
        out.contains("edges through triangles: 285; touching pairs: 0 vertex-face, 0 edge-edge"),
        "{out}"
    );
    let (out, _) = succeeds(&["intersections", "--json", "--threads", "1", frame]);
    let json: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["edge_face_crossing"], 285);
    assert_eq!(json["stamp"]["threads"], 1);
    assert_stamped(&json);
    assert_eq!(json["touching"]["ee"], 0);
    let d = Scratch::new("cli-intersections");
    let csv = d.join("pairs.csv");
    succeeds(&["intersections", "--pairs", csv.to_str().unwrap(), frame]);
    let text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(text.lines().next(), Some("kind,id_a,id_b"));
    assert_eq!(text.lines().filter(|l| l.starts_with("ef,")).count(), 285);
    fails_with(&["intersections", "--threads", "0", frame], "--threads");
}

/// `ccdlab proximity` on funnel 227 at `d = 1.911e-4` (a hundredth of its
/// mean edge length): the pairs of the still step at that separation (its
/// CSV without the times), in the summary, the JSON and the CSV; the cloth
/// is one component, so `--self-collision off` leaves no pair; bad
/// arguments name the option.
#[test]
fn proximity_of_a_funnel_frame() {
    let frame = ccdlab::harness::data::require_root()
        .unwrap()
        .join("scalable-ccd/cloth-funnel/frames/227.ply");
    let frame = frame.to_str().unwrap();
    let d = Scratch::new("cli-proximity");
    let (step_csv, csv) = (d.join("step.csv"), d.join("pairs.csv"));
    let (step_csv, csv) = (step_csv.to_str().unwrap(), csv.to_str().unwrap());
    let distance = "1.911e-4";
    succeeds(&[
        "step",
        frame,
        frame,
        "--min-distance",
        distance,
        "--pairs",
        step_csv,
    ]);
    let step_text = std::fs::read_to_string(step_csv).unwrap();
    let want: Vec<String> = step_text
        .lines()
        .skip(1)
        .map(|l| l.splitn(4, ',').take(3).collect::<Vec<_>>().join(","))
        .collect();
    let (vf, ee) = (
        want.iter().filter(|l| l.starts_with("vf,")).count(),
        want.iter().filter(|l| l.starts_with("ee,")).count(),
    );
    assert!(vf > 0 && ee > 0, "{vf} {ee}");
    let (out, _) = succeeds(&["proximity", frame, "--distance", distance, "--pairs", csv]);
    assert!(
        out.contains(&format!("{vf} vertex-face, {ee} edge-edge, 0 point-edge")),
        "{out}"
    );
    let text = std::fs::read_to_string(csv).unwrap();
    assert_eq!(text.lines().next(), Some("kind,id_a,id_b,distance"));
    let (pairs, distances): (Vec<_>, Vec<f64>) = (text.lines().skip(1))
        .map(|l| {
            let (pair, r) = l.rsplit_once(',').unwrap();
            (pair.to_string(), r.parse::<f64>().unwrap())
        })
        .unzip();
    assert_eq!(pairs, want);
    // Each pair's distance, as the library gives it: at most d.
    let read = ccdlab::mesh::read_frame(std::path::Path::new(frame)).unwrap();
    let (x, mesh) = (
        &read.positions,
        ccdlab::mesh::TriMesh::new(read.positions.len(), read.faces).unwrap(),
    );
    let found = ccdlab::pipeline::proximity(&mesh, x, distance.parse().unwrap()).unwrap();
    assert_eq!(distances, found.distances(&mesh, x));
    assert!(distances.iter().all(|&r| r <= 1.911e-4), "{distances:?}");
    let (out, _) = succeeds(&[
        "proximity",
        "--json",
        "--threads",
        "1",
        frame,
        "--distance",
        distance,
    ]);
    let json: Value = serde_json::from_str(&out).unwrap();
    assert_stamped(&json);
    assert_eq!(json["within"]["vf"], vf);
    assert_eq!(json["within"]["ee"], ee);
    let args = [
        "proximity",
        "--json",
        frame,
        "--distance",
        distance,
        "--self-collision",
        "off",
    ];
    let (out, _) = succeeds(&args);
    let json: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (json["within"]["vf"].clone(), json["within"]["ee"].clone()),
        (0.into(), 0.into())
    );
    fails_with(&["proximity", frame, "--distance", "-1"], "--distance");
    fails_with(&["proximity", frame, "--distance", "nan"], "--distance");
    fails_with(
        &["proximity", frame, "--distance", "1e-400"],
        "would round to 0",
    );
    fails_with(&["proximity", frame], "--distance");
}

/// `sample-check` on funnel at a small distance: its candidates are the
/// BVH's at that distance (the step's candidates without time-aligned
/// pruning), every pair within d at a sample is reported, and it passes.
#[test]
fn sample_check_of_a_funnel_step() {
    let frames = ccdlab::harness::data::require_root()
        .unwrap()
        .join("scalable-ccd/cloth-funnel/frames");
    let (f0, f1) = (frames.join("227.ply"), frames.join("228.ply"));
    let (f0, f1) = (f0.to_str().unwrap(), f1.to_str().unwrap());
    let d = "1.911e-5";
    let args = [
        "sample-check",
        f0,
        f1,
        "--min-distance",
        d,
        "--samples",
        "16",
    ];
    let (out, _) = succeeds(&[&args[..], &["--json", "--threads", "2"]].concat());
    let check: Value = serde_json::from_str(&out).unwrap();
    let args = ["step", f0, f1, "--min-distance", d, "--time-aligned", "off"];
    let (out, _) = succeeds(&[&args[..], &["--json"]].concat());
    let step: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(check["candidates"][0], step["vf"]["candidates"]);
    assert_eq!(check["candidates"][1], step["ee"]["candidates"]);
    assert_eq!(check["reported"][0], step["vf"]["colliding"]);
    assert_eq!(check["passed"], true);
    assert!(check["sampled"][0].as_u64().unwrap() > 0, "{check}");
}

/// `candidates --min-distance d` lists the pairs that `step --min-distance
/// d` decides (its filters' survivors, more than at contact), with contact
/// as their truth: `queries --min-distance d` finds among them exactly the
/// step's colliding pairs at `d`, every contact kept. `--self-collision off`
/// lists the pairs across connected components that `step --self-collision
/// off` tests.
#[test]
fn candidates_at_a_min_distance_are_the_steps_pairs() {
    use ccdlab::harness::ground_truth::{QueryKind, read_query_csv};
    let frames = ccdlab::harness::data::require_root()
        .unwrap()
        .join("scalable-ccd/cloth-funnel/frames");
    let (f0, f1) = (frames.join("227.ply"), frames.join("228.ply"));
    let (p0, p1) = (f0.to_str().unwrap(), f1.to_str().unwrap());
    let dir = Scratch::new("cli-candidates-within");
    let d = "1.9e-5";
    let listed = |out: &Path, options: &[&str]| {
        let mut args = vec!["candidates", p0, p1, "--out", out.to_str().unwrap()];
        args.extend_from_slice(options);
        let (text, _) = succeeds(&args);
        let count = |kind: &str, q| {
            let file = out.join(kind).join("227-228.csv");
            // No file: no pair of the kind.
            if file.exists() {
                read_query_csv(&file, q).unwrap().points.len()
            } else {
                0
            }
        };
        (
            text,
            count("vertex-face", QueryKind::VertexFace),
            count("edge-edge", QueryKind::EdgeEdge),
        )
    };
    let step = |options: &[&str]| -> Value {
        let mut args = vec!["step", "--json", p0, p1];
        args.extend_from_slice(options);
        serde_json::from_str(&succeeds(&args).0).unwrap()
    };
    let passed = |s: &Value, kind: &str| {
        s[kind]["after_filter"].as_u64().unwrap() - s[kind]["culled_window"].as_u64().unwrap()
    };
    let within = dir.join("within");
    let (text, vf, ee) = listed(&within, &["--min-distance", d]);
    assert!(text.contains("min distance 1.9e-5"), "{text}");
    assert!(text.contains("in contact (the truth column)"), "{text}");
    let at_d = step(&["--min-distance", d]);
    assert_eq!(
        (vf as u64, ee as u64),
        (passed(&at_d, "vf"), passed(&at_d, "ee"))
    );
    let at_contact = step(&[]);
    assert!(vf as u64 > passed(&at_contact, "vf") && ee as u64 > passed(&at_contact, "ee"));
    let scored = queries_json(&["--min-distance", d], &within);
    // The truth column is contact: the step's contacts, scored without a
    // miss at d = 0.
    assert_eq!(scored["total"]["false_negatives"], 0);
    assert_eq!(scored["total"]["false_positives"], 0);
    let touching = at_contact["vf"]["colliding"].as_u64().unwrap()
        + at_contact["ee"]["colliding"].as_u64().unwrap();
    assert_eq!(scored["total"]["positives"].as_u64(), Some(touching));
    assert_eq!(scored["total"]["within"]["contact_misses"], 0);
    let colliding =
        at_d["vf"]["colliding"].as_u64().unwrap() + at_d["ee"]["colliding"].as_u64().unwrap();
    assert_eq!(
        scored["total"]["within"]["positives"].as_u64(),
        Some(colliding)
    );
    let apart = dir.join("apart");
    let (text, vf, ee) = listed(&apart, &["--self-collision", "off"]);
    let off = step(&["--self-collision", "off"]);
    assert_eq!(
        (vf as u64, ee as u64),
        (passed(&off, "vf"), passed(&off, "ee"))
    );
    let bvh = |kind: &str| off[kind]["candidates"].as_u64().unwrap();
    assert!(
        text.contains(&format!("of the BVH's {} and {}", bvh("vf"), bvh("ee"))),
        "{text}"
    );
    assert!(bvh("vf") < at_contact["vf"]["candidates"].as_u64().unwrap());
}

/// `candidates` writes a step's pairs as query files whose truth is the
/// exact verdict: `queries` reads them back and scores the exact solver
/// without a miss, with the step's colliding pairs as positives; the pairs
/// and points are the library's `candidates`, and `pairs/` names each
/// query's features; a file where the folder should be is refused, naming
/// `--out`.
#[test]
fn candidates_are_written_as_query_files() {
    use ccdlab::harness::ground_truth::{QueryKind, read_query_csv};
    use ccdlab::mesh::{Step, read_step};
    use ccdlab::pipeline::{PipelineConfig, TimeAligned, candidates};
    let frames = ccdlab::harness::data::require_root()
        .unwrap()
        .join("scalable-ccd/cloth-funnel/frames");
    let (f0, f1) = (frames.join("227.ply"), frames.join("228.ply"));
    let (p0, p1) = (f0.to_str().unwrap(), f1.to_str().unwrap());
    let d = Scratch::new("cli-candidates");
    let out = d.join("sets");
    let (text, _) = succeeds(&["candidates", p0, p1, "--out", out.to_str().unwrap()]);
    assert!(text.contains("reach the exact test"), "{text}");
    let scored = queries_json(&[], &out);
    let (step, _) = succeeds(&["step", "--json", p0, p1]);
    let step: Value = serde_json::from_str(&step).unwrap();
    assert_eq!(scored["total"]["false_negatives"], 0);
    assert_eq!(scored["total"]["false_positives"], 0);
    let positives = |kind: &str| {
        let sets = scored["sets"].as_array().unwrap();
        sets.iter().find(|s| s["kind"] == kind).unwrap()["positives"].clone()
    };
    assert_eq!(positives("vf"), step["vf"]["colliding"]);
    assert_eq!(positives("ee"), step["ee"]["colliding"]);
    // The library's pairs, point for point.
    let (mesh, x0, x1) = read_step(&f0, &f1).unwrap();
    let step = Step::new(&mesh, &x0, &x1).unwrap();
    let config = PipelineConfig {
        time_aligned: TimeAligned::Auto,
        ..PipelineConfig::default()
    };
    let found = candidates(&step, &config).unwrap();
    let vf = read_query_csv(&out.join("vertex-face/227-228.csv"), QueryKind::VertexFace).unwrap();
    let want: Vec<_> = (found.vertex_face.iter())
        .map(|p| step.vertex_face_points(p.v, p.f))
        .collect();
    assert_eq!(vf.points, want);
    let ee = read_query_csv(&out.join("edge-edge/227-228.csv"), QueryKind::EdgeEdge).unwrap();
    assert_eq!(ee.points.len(), found.edge_edge.len());
    // Each query's features, numbered as in its kind's file.
    let ids = std::fs::read_to_string(out.join("pairs/227-228.csv")).unwrap();
    let mut want = vec!["kind,query,id_a,id_b".to_string()];
    for (k, p) in found.vertex_face.iter().enumerate() {
        want.push(format!("vf,{k},{},{}", p.v, p.f));
    }
    for (k, p) in found.edge_edge.iter().enumerate() {
        assert_eq!(ee.points[k], step.edge_edge_points(p.e0, p.e1));
        want.push(format!("ee,{k},{},{}", p.e0, p.e1));
    }
    assert_eq!(ids.lines().collect::<Vec<_>>(), want);
    // A frame against itself: the filters cull every pair (nothing moves,
    // nothing touches), so no file is written, and an old one of the name
    // goes.
    let stale = d.file("sets/vertex-face/227-227.csv", "stale");
    let stale_ids = d.file("sets/pairs/227-227.csv", "stale");
    let (text, _) = succeeds(&["candidates", p0, p0, "--out", out.to_str().unwrap()]);
    assert!(text.contains("not written"), "{text}");
    assert!(!stale.exists() && !out.join("edge-edge/227-227.csv").exists());
    assert!(!stale_ids.exists());
    // A file in the way of the folder; a folder `queries` reads as a data
    // set's own layout.
    let blocked = d.file("blocked", "x");
    let b = blocked.to_str().unwrap();
    for out in [b, "/dev/full"] {
        let err = fails_with(&["candidates", p0, p1, "--out", out], "--out");
        assert!(
            err.contains(&format!("{out}: exists and is not a folder")),
            "{err}"
        );
    }
    // Below a file: the file is named, not the folder it cannot hold.
    let below = blocked.join("sets");
    let err = fails_with(
        &["candidates", p0, p1, "--out", below.to_str().unwrap()],
        &format!("{b} is not a folder"),
    );
    assert!(!err.contains("cannot be inspected"), "{err}");
    let reserved = d.join("queries");
    fails_with(
        &["candidates", p0, p1, "--out", reserved.to_str().unwrap()],
        "choose another name",
    );
    // Inside the data sets' folder: refused, nothing created.
    let in_data = frames.join("mine");
    fails_with(
        &["candidates", p0, p1, "--out", in_data.to_str().unwrap()],
        "inside the data sets' folder",
    );
    assert!(!in_data.exists());
    // A frame that cannot be read: no folder of the run is left behind.
    let fresh = d.join("fresh/sets");
    let missing = d.join("missing.ply");
    fails_with(
        &[
            "candidates",
            missing.to_str().unwrap(),
            p1,
            "--out",
            fresh.to_str().unwrap(),
        ],
        "missing.ply",
    );
    assert!(!d.join("fresh").exists());
    // A symbolic link to nothing as the folder: said so.
    #[cfg(unix)]
    {
        let dangling = d.join("dangling");
        std::os::unix::fs::symlink(d.join("nowhere"), &dangling).unwrap();
        fails_with(
            &["candidates", p0, p1, "--out", dangling.to_str().unwrap()],
            "a symbolic link to nothing",
        );
        // A link where the second kind's file goes (a commit would refuse
        // it): refused before any work, so the first kind's file is not
        // put in place either.
        let linked = d.join("linked");
        std::fs::create_dir_all(linked.join("edge-edge")).unwrap();
        std::os::unix::fs::symlink(&blocked, linked.join("edge-edge/227-228.csv")).unwrap();
        fails_with(
            &["candidates", p0, p1, "--out", linked.to_str().unwrap()],
            "in the way of an output file",
        );
        assert!(!linked.join("vertex-face").exists());
        assert_eq!(std::fs::read_to_string(&blocked).unwrap(), "x");
    }
    // Only the two query files, the pairs' IDs and their folders are left
    // in `--out`.
    let mut left = std::collections::BTreeSet::new();
    super::datasets::files_under(&out, std::path::Path::new(""), &mut left);
    let left: Vec<_> = left.iter().map(|p| p.to_str().unwrap()).collect();
    assert_eq!(
        left,
        [
            "edge-edge/227-228.csv",
            "pairs/227-228.csv",
            "vertex-face/227-228.csv"
        ]
    );
}

/// `--solver` and `--filters` take the library's names (`Solver::ALL`,
/// `FilterSet::ALL`): a wrong one is refused with every name listed, and
/// `--help` lists them too.
#[test]
fn solver_and_filter_names_come_from_the_library() {
    use ccdlab::filter::FilterSet;
    use ccdlab::narrow_phase::Solver;
    let solvers = Solver::ALL.map(|s| s.name()).join(", ");
    let filters = FilterSet::ALL.map(|f| f.name()).join(", ");
    let listed = |names: &str| format!("[possible values: {names}]");
    for command in ["step", "replay", "queries", "candidates"] {
        let (help, _) = succeeds(&[command, "--help"]);
        if command != "candidates" {
            assert!(help.contains(&listed(&solvers)), "{command}: {help}");
            fails_with(&[command, "--solver", "fast", "x"], &listed(&solvers));
        }
        if command != "queries" {
            assert!(help.contains(&listed(&filters)), "{command}: {help}");
            fails_with(&[command, "--filters", "all", "x"], &listed(&filters));
        }
    }
}

/// `--version` names the commit the binary was built from, as the JSON
/// outputs' stamps do; wrong arguments exit with status 2 (the help's exit
/// statuses).
#[test]
fn the_version_names_the_build_commit_and_wrong_arguments_exit_2() {
    let (out, _) = succeeds(&["--version"]);
    let stamp = ccdlab::harness::stamp::Stamp::new(1).git_commit;
    assert_eq!(
        out.trim(),
        format!("ccdlab {} (commit {stamp})", env!("CARGO_PKG_VERSION"))
    );
    let out = ccdlab(&["step", "--no-such-option"]);
    assert_eq!(out.status.code(), Some(2));
    // A value out of its range does not parse either; options that parse
    // but are refused together are an error, 1.
    let d = Scratch::unmade("cli-exit-status");
    let [f0, f1] = two_frames(d.join("f").to_str().unwrap(), "4");
    let (f0, f1) = (f0.to_str().unwrap(), f1.to_str().unwrap());
    let out = ccdlab(&["step", f0, f1, "--threads", "0"]);
    assert_eq!(out.status.code(), Some(2));
    let cubic_at_d = [
        "step",
        f0,
        f1,
        "--solver",
        "cubic",
        "--min-distance",
        "1e-3",
    ];
    let out = ccdlab(&cubic_at_d);
    let (_, err) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("--solver cubic with --min-distance"), "{err}");
}
