//! `ccdlab report` from the recorded JSON in `tests/fixtures/report/`: the
//! Markdown holds the paper's tables beside ours and the verdicts, every
//! figure exists as PNG and SVG, a regenerated report from its own `data/`
//! copy is identical, and a bad input is a clear error that writes nothing
//! and leaves an existing report untouched; and `reports/`'s committed
//! records name no machine's folders.

use std::path::{Path, PathBuf};

use ccdlab::harness::reproduction::{ReportError, ReportOptions, generate, read_criterion};

use crate::common::{Scratch, names};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/report")
}

/// The report generated from `from` into `out`: its page.
fn page(from: &Path, out: &Path) -> String {
    generate(&ReportOptions {
        from: from.to_path_buf(),
        criterion: None,
        out: out.to_path_buf(),
    })
    .unwrap();
    std::fs::read_to_string(out.join("README.md")).unwrap()
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
}

/// Asserts that a report from `from` into `out` is refused as invalid
/// data, with a message naming `file` and containing `expect`.
fn refused_as_invalid(from: &Path, out: &Path, file: &str, expect: &str) {
    let err = generate(&ReportOptions {
        from: from.to_path_buf(),
        criterion: None,
        out: out.to_path_buf(),
    })
    .unwrap_err();
    let msg = err.to_string();
    assert!(
        matches!(err, ReportError::Invalid { .. }),
        "{file}: {err:?}"
    );
    assert!(msg.contains(file) && msg.contains(expect), "{file}: {msg}");
}

#[test]
fn a_report_from_the_fixture_has_the_tables_figures_and_data() {
    let root = Scratch::new("report-good");
    let out = root.join("pipeline");
    let summary = generate(&ReportOptions {
        from: fixture(),
        criterion: None,
        out: out.clone(),
    })
    .unwrap();
    assert_eq!(summary.ignored, ["README.md"]);
    assert_eq!(summary.estimates, 5);

    // The page's data: table rows (numbers) and verdicts, not its sentences.
    let md = std::fs::read_to_string(out.join("README.md")).unwrap();
    // The paper's Table 2 beside ours, with both culling rows.
    assert!(md.contains(
        "| | SLPF paper | SLPF ours | DNF paper | DNF ours | SLPF+DNF paper | SLPF+DNF ours |"
    ));
    // funnel 227 → 228 at k = 26: 717 / 1,671 / 1,696 of 1,803 VF candidates.
    assert!(
        md.contains("| VF culling % | 58.88 | 39.77 | 56.46 | 92.68 | 63.17 | 94.07 |"),
        "{md}"
    );
    assert!(md.contains("| EE culling % | 48.01 |"));
    assert!(md.contains("VF: SLPF+DNF 94.07 %, SLPF 39.77 %, DNF 92.68 % — **does not hold**"));
    assert!(md.contains("holds in 0 of 2 cases"));
    // Which frames and machine.
    assert!(
        md.contains("| funnel | 227.ply → 228.ply | 9,450 | 27,930 | 18,484 | 1 | fixture CPU")
    );
    // The parry verdict, the peer, the step runs, the replays (the k-value
    // test is the k_test figure, checked below).
    assert!(md.contains("parry's candidate set equals our 6-DOP BVH's"));
    assert!(md.contains("| funnel | ipctk 1.5.0 (LBVH) | 2 | 20.0 | 40.0 | 60.0 |"));
    assert!(md.contains("| funnel | ccdlab | 2 |"));
    assert!(md.contains("| generated | slpf+dnf | 3 | 2 |"));

    for stem in ["culling_rates", "k_test", "stage_times", "sequence"] {
        for ext in ["png", "svg"] {
            let f = out.join(format!("{stem}.{ext}"));
            let len = std::fs::metadata(&f)
                .unwrap_or_else(|e| panic!("{}: {e}", f.display()))
                .len();
            assert!(len > 1000, "{} is {len} bytes", f.display());
            assert!(
                md.contains(&format!("({stem}.{ext})")),
                "{stem}.{ext} not linked"
            );
        }
    }
    let png = std::fs::read(out.join("k_test.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let svg = std::fs::read_to_string(out.join("culling_rates.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));

    // data/ holds every input; regenerating from it gives the same page.
    let data = names(&out.join("data"));
    assert!(data.contains(&"counts_funnel.json".to_string()));
    assert!(data.contains(&"bench_timings.json".to_string()));
    assert!(data.contains(&"replay_generated_slpf+dnf.jsonl".to_string()));
    let again = root.join("again");
    generate(&ReportOptions {
        from: out.join("data"),
        criterion: None,
        out: again.clone(),
    })
    .unwrap();
    assert_eq!(
        std::fs::read_to_string(again.join("README.md")).unwrap(),
        md
    );
    // Regenerating in place replaces the old report; nothing else is left.
    generate(&ReportOptions {
        from: out.join("data"),
        criterion: None,
        out: out.clone(),
    })
    .unwrap();
    assert_eq!(names(&root), ["again", "pipeline"]);
}

/// The whole-step table says how our step was timed: single runs, or the
/// fastest of the runs `ccdlab step --repeat N --rebuild` recorded; and
/// with which pipeline: the paper's (records without `time_aligned` read as
/// off), or time-aligned pruning.
#[test]
fn the_step_table_says_how_many_runs_were_timed_and_which_pipeline() {
    let root = Scratch::new("report-runs");
    let md_of = |from: &Path, name: &str| page(from, &root.join(name));
    // What is checked: the run count and the pipeline each record states,
    // where the page gives them (the option that ran, the goal line's
    // pipeline), not the sentences around them.
    let single = md_of(&fixture(), "single");
    assert!(single.contains("single runs"), "{single}");
    assert!(!single.contains("--repeat"), "{single}");
    assert!(
        single.contains("`--time-aligned off`")
            && single.contains("- funnel: speed goal ≤ 3 ms on 2 threads, paper's pipeline: "),
        "{single}"
    );

    let from = root.join("data");
    copy_dir(&fixture(), &from);
    let step = from.join("step_funnel_t2.json");
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&step).unwrap()).unwrap();
    json["runs"] = 3.into();
    json["time_aligned"] = true.into();
    std::fs::write(&step, serde_json::to_string(&json).unwrap()).unwrap();
    let repeated = md_of(&from, "repeated");
    assert!(
        repeated.contains("exact solver; time-aligned pruning in some runs")
            && repeated
                .contains("- funnel: speed goal ≤ 3 ms on 2 threads, time-aligned pruning: "),
        "{repeated}"
    );
    assert!(
        repeated.contains("the fastest of 3 runs") && repeated.contains("`--repeat 3 --rebuild`"),
        "{repeated}"
    );
}

#[test]
fn a_bad_record_is_named_and_nothing_is_written() {
    let root = Scratch::new("report-bad");
    let from = root.join("data");
    copy_dir(&fixture(), &from);
    let out = root.join("pipeline");

    // A good report first; a failed regeneration must leave it untouched.
    generate(&ReportOptions {
        from: from.clone(),
        criterion: None,
        out: out.clone(),
    })
    .unwrap();
    let before = std::fs::read_to_string(out.join("README.md")).unwrap();

    let cases: [(&str, &str, &str); 4] = [
        ("counts_funnel.json", "{\"format\": 1, \"scene\": ", "EOF"),
        (
            "counts_funnel.json",
            "\"culled_slpf_dnf\": 6934",
            "culled counts inconsistent",
        ),
        ("replay_generated_dnf.jsonl", "{\"sequence\"", "line 2"),
        ("step_funnel_t2.json", "\"threads\": 2", "named t2"),
    ];
    for (file, needle, expect) in cases {
        let good = std::fs::read_to_string(fixture().join(file)).unwrap();
        let bad = match file {
            "counts_funnel.json" if needle.starts_with('{') => good[..good.len() / 2].to_string(),
            "counts_funnel.json" => good.replacen(needle, "\"culled_slpf_dnf\": 99999999", 1),
            "replay_generated_dnf.jsonl" => {
                let mut lines: Vec<&str> = good.lines().collect();
                lines[1] = "{\"sequence\": \"generated\", \"step\": 1}";
                lines.join("\n")
            }
            _ => good.replacen(needle, "\"threads\": 3", 1),
        };
        assert_ne!(bad, good, "{file}: the fixture changed, update the test");
        std::fs::write(from.join(file), &bad).unwrap();
        refused_as_invalid(&from, &out, file, expect);
        std::fs::write(from.join(file), good).unwrap();
        assert_eq!(
            std::fs::read_to_string(out.join("README.md")).unwrap(),
            before
        );
        assert_eq!(
            names(&root),
            ["data", "pipeline"],
            "a temporary folder was left"
        );
    }

    // No bench record at all; a folder that is not a report.
    let empty = root.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let err = generate(&ReportOptions {
        from: empty.clone(),
        criterion: None,
        out: root.join("new"),
    })
    .unwrap_err();
    assert!(matches!(err, ReportError::NoRecords(_)), "{err:?}");
    assert!(!root.join("new").exists());
    let err = generate(&ReportOptions {
        from: from.clone(),
        criterion: None,
        out: root.to_path_buf(),
    })
    .unwrap_err();
    assert!(matches!(err, ReportError::NotAReport(_)), "{err:?}");
    assert!(from.join("counts_funnel.json").exists());
}

#[test]
fn criterion_estimates_are_read_for_the_pipeline_ids_only() {
    let root = Scratch::new("report-criterion");
    let write = |dir: &str, id: &str, mean: f64| {
        let d = root.join(dir).join("new");
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(
            d.join("benchmark.json"),
            format!("{{\"group_id\":\"x\",\"function_id\":null,\"value_str\":null,\"throughput\":null,\"full_id\":\"{id}\",\"directory_name\":\"{dir}\",\"title\":\"{id}\"}}"),
        )
        .unwrap();
        let est = |v: f64| {
            format!(
                "{{\"confidence_interval\":{{\"confidence_level\":0.95,\"lower_bound\":{},\"upper_bound\":{}}},\"point_estimate\":{v},\"standard_error\":1.0}}",
                v - 1.0,
                v + 1.0
            )
        };
        std::fs::write(
            d.join("estimates.json"),
            format!(
                "{{\"mean\":{},\"median\":{},\"median_abs_dev\":{},\"slope\":null,\"std_dev\":{}}}",
                est(mean),
                est(mean),
                est(1.0),
                est(1.0)
            ),
        )
        .unwrap();
    };
    write(
        "filter/slpf+dnf/funnel-vf",
        "filter/slpf+dnf/funnel-vf",
        2e6,
    );
    write("pipeline/step/funnel", "pipeline/step/funnel", 7e7);
    write(
        "sphere_sphere/ccdlab/random",
        "sphere_sphere/ccdlab/random",
        5.0,
    );
    let ids = [
        "filter/slpf+dnf/funnel-vf".to_string(),
        "pipeline/step/funnel".to_string(),
    ];
    let t = read_criterion(&root, &ids).unwrap();
    assert_eq!(t.benchmarks.len(), 2);
    assert_eq!(t.mean_ms("pipeline/step/funnel"), Some(70.0));
    assert_eq!(
        t.get("filter/slpf+dnf/funnel-vf").unwrap().mean_lower_ns,
        2e6 - 1.0
    );

    // With the report: criterion's estimate replaces the recorded one.
    let out = root.join("report-out");
    generate(&ReportOptions {
        from: fixture(),
        criterion: Some(root.to_path_buf()),
        out: out.clone(),
    })
    .unwrap();
    let timings = std::fs::read_to_string(out.join("data/bench_timings.json")).unwrap();
    assert!(timings.contains("\"mean_ns\": 70000000.0"), "{timings}");
    assert!(timings.contains("filter/slpf+dnf/funnel-vf"));
    assert!(!timings.contains("sphere_sphere"));
    // A missing criterion folder is an error naming it.
    let err = generate(&ReportOptions {
        from: fixture(),
        criterion: Some(root.join("nowhere")),
        out: root.join("other"),
    })
    .unwrap_err();
    assert!(err.to_string().contains("nowhere"), "{err}");
}

/// The k-value verdict on time names the fastest k, and says that k = 26
/// is not told apart from it when within 5 % (the noise between runs of a
/// shared machine), and that it is not k = 26 only beyond that.
#[test]
fn a_k_within_five_percent_of_the_fastest_is_not_told_apart() {
    let root = Scratch::new("report-close");
    let line_with = |k6_over_k26: f64| {
        let from = root.join(format!("data-{k6_over_k26}"));
        copy_dir(&fixture(), &from);
        edit_json(&from, "bench_timings.json", |json| {
            let benchmarks = json["benchmarks"].as_array_mut().unwrap();
            let index =
                |id: &str, b: &[serde_json::Value]| b.iter().position(|x| x["id"] == id).unwrap();
            let (i6, i26) = (
                index("broad_phase/kdop6/funnel", benchmarks),
                index("broad_phase/kdop26/funnel", benchmarks),
            );
            let t26 = benchmarks[i26]["mean_ns"].as_f64().unwrap();
            benchmarks[i6]["mean_ns"] = (t26 * k6_over_k26).into();
        });
        let md = page(&from, &root.join(format!("out-{k6_over_k26}")));
        (md.lines())
            .find(|l| l.starts_with("- Time (criterion, build + traversal)"))
            .unwrap_or_else(|| panic!("{md}"))
            .to_string()
    };
    let close = line_with(0.97);
    assert!(
        close.contains("fastest is k = 6 (69.2 ms), k = 26 within 5 % of it"),
        "{close}"
    );
    let apart = line_with(0.9);
    assert!(
        apart.contains("fastest is k = 6 (64.2 ms), not k = 26"),
        "{apart}"
    );
    let itself = line_with(1.2);
    assert!(
        itself.contains("fastest is k = 26 (71.3 ms), k = 26 itself"),
        "{itself}"
    );
}

/// `file` of the fixture copied into `from`, changed by `edit` (as JSON).
fn edit_json(from: &Path, file: &str, edit: impl FnOnce(&mut serde_json::Value)) {
    let path = from.join(file);
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    edit(&mut json);
    std::fs::write(&path, serde_json::to_string(&json).unwrap()).unwrap();
}

/// Recorded numbers out of range (times beyond MAX_TIME_MS: a sum of two
/// `1e308` made a figure's axis infinite and the report never finished;
/// rates beyond 100 %; a frames array of another length) are errors naming
/// the file and the field; nothing is written, no temporary folder is left.
#[test]
fn out_of_range_numbers_are_named_with_file_and_field() {
    type Edit = fn(&mut serde_json::Value);
    let cases: [(&str, Edit, &str); 7] = [
        (
            "counts_funnel.json",
            |j| j["kdops"][0]["times_ms"]["build"] = 1e10.into(),
            "kdops[k=6].times_ms.build = 10000000000.0: not a time",
        ),
        (
            "counts_funnel.json",
            |j| j["parry"]["times_ms"]["traverse"] = 1e308.into(),
            "parry.times_ms.traverse = 1e308: not a time",
        ),
        (
            "counts_funnel.json",
            |j| j["motion"]["mean_displacement"] = (-1.0).into(),
            "motion.mean_displacement = -1.0: must be finite and ≥ 0",
        ),
        (
            "step_funnel_t2.json",
            |j| j["vf"]["culling_rate_percent"] = 1e300.into(),
            "vf.culling_rate_percent = 1e300: not a percentage",
        ),
        (
            "bench_timings.json",
            |j| j["benchmarks"][0]["mean_ns"] = 1e300.into(),
            "broad_phase/kdop26/funnel: mean_ns = 1e300: not a time",
        ),
        (
            "counts_funnel.json",
            |j| j["frames"] = serde_json::json!(["a", "b", "c", "d", "e"]),
            "frames: expected 2 items (the step's two frames), found 5",
        ),
        (
            "peer_ipctk_funnel.json",
            |j| j["frames"] = serde_json::json!(["a"]),
            "frames: expected 2 items (the step's two frames), found 1",
        ),
    ];
    for (file, edit, expect) in cases {
        let root = Scratch::new("report-range");
        let from = root.join("data");
        copy_dir(&fixture(), &from);
        edit_json(&from, file, edit);
        refused_as_invalid(&from, &root.join("pipeline"), file, expect);
        assert_eq!(names(&root), ["data"], "{file}: something was written");
    }
}

/// Zero times (criterion estimates of 0 ns, a whole step of 0 ms, a zero
/// mean edge length) make no NaN or inf on the page: the ratios they would
/// divide by zero are shown as "–".
#[test]
fn zero_times_give_dashes_not_nan_or_inf() {
    let root = Scratch::new("report-zeros");
    let from = root.join("data");
    copy_dir(&fixture(), &from);
    edit_json(&from, "bench_timings.json", |j| {
        for b in j["benchmarks"].as_array_mut().unwrap() {
            for f in ["mean_ns", "mean_lower_ns", "mean_upper_ns", "median_ns"] {
                b[f] = 0.0.into();
            }
        }
    });
    edit_json(&from, "step_funnel_t2.json", |j| {
        for f in ["refit", "traverse", "filter", "solve", "total"] {
            j["time_ms"][f] = 0.0.into();
        }
    });
    edit_json(&from, "counts_funnel.json", |j| {
        j["motion"]["mean_edge_length"] = 0.0.into();
    });
    let md = page(&from, &root.join("pipeline"));
    for bad in ["NaN", "inf"] {
        assert!(!md.contains(bad), "{bad} in:\n{md}");
    }
    assert!(md.contains("(–×)"), "{md}");
    assert!(md.contains("ours –× faster"), "{md}");
    assert!(md.contains("(– mean edge lengths"), "{md}");
}

/// A folder where an input file is expected is an error naming it; a scene
/// without its bench record is listed (summary and page), not silently
/// dropped.
#[test]
fn a_folder_for_an_input_is_an_error_and_a_missing_scene_is_said() {
    let root = Scratch::new("report-missing");
    let from = root.join("data");
    copy_dir(&fixture(), &from);
    let out = root.join("pipeline");
    let summary = generate(&ReportOptions {
        from: from.clone(),
        criterion: None,
        out: out.clone(),
    })
    .unwrap();
    // The fixture records funnel only.
    assert_eq!(summary.missing, ["cloth_ball", "generated"]);
    let md = std::fs::read_to_string(out.join("README.md")).unwrap();
    assert!(
        md.contains("**Not in this report:** cloth_ball (no `counts_cloth_ball.json`), generated (no `counts_generated.json`)"),
        "{md}"
    );

    std::fs::rename(from.join("step_funnel_t2.json"), root.join("step.json")).unwrap();
    std::fs::create_dir(from.join("step_funnel_t2.json")).unwrap();
    let err = generate(&ReportOptions {
        from: from.clone(),
        criterion: None,
        out: out.clone(),
    })
    .unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, ReportError::Invalid { .. }), "{err:?}");
    assert!(
        msg.contains("step_funnel_t2.json")
            && msg.contains("a folder where a report input file is expected"),
        "{msg}"
    );
}

/// A file in `--from` whose name is not UTF-8: ignored, shown with U+FFFD
/// as other names are, unless it reads as an input's name, when it is
/// refused, named so (inputs are named by their scene, held as text), and
/// nothing is written; not opened by the shown name, which names nothing.
#[cfg(unix)]
#[test]
fn input_names_that_are_not_utf8_are_ignored_or_refused() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let root = Scratch::new("report-non-utf8");
    let from = root.join("data");
    copy_dir(&fixture(), &from);
    let out = root.join("pipeline");
    std::fs::write(from.join(OsStr::from_bytes(b"notes-\xff.txt")), "mine").unwrap();
    let summary = generate(&ReportOptions {
        from: from.clone(),
        criterion: None,
        out: out.clone(),
    })
    .unwrap();
    assert_eq!(summary.ignored, ["README.md", "notes-\u{fffd}.txt"]);
    let before = std::fs::read_to_string(out.join("README.md")).unwrap();
    for name in [&b"counts_funnel-\xff.json"[..], b"step_funnel-\xff_t2.json"] {
        let file = from.join(OsStr::from_bytes(name));
        std::fs::write(&file, "{}").unwrap();
        let shown = String::from_utf8_lossy(name);
        refused_as_invalid(&from, &out, &shown, "not UTF-8");
        assert_eq!(
            std::fs::read_to_string(out.join("README.md")).unwrap(),
            before
        );
        std::fs::remove_file(file).unwrap();
    }
}

/// An output folder that cannot be created is named as given (not the
/// temporary folder beside it), and nothing is left behind.
#[test]
fn an_out_folder_that_cannot_be_created_is_named_as_given() {
    let root = Scratch::new("report-cannot");
    let blocker = root.join("file");
    std::fs::write(&blocker, "not a folder").unwrap();
    let out = blocker.join("report");
    let err = generate(&ReportOptions {
        from: fixture(),
        criterion: None,
        out: out.clone(),
    })
    .unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, ReportError::CannotCreate { .. }), "{err:?}");
    assert!(
        msg.starts_with(&format!(
            "{}: the report folder cannot be created there",
            out.display()
        )),
        "{msg}"
    );
    assert_eq!(names(&root), ["file"]);
}

/// A report regenerated in place (from its own `data/`, as
/// `scripts/reproduce_pipeline.sh` and the command line's defaults do) is
/// replaced; a file of one's own in the report folder or in its `data/`
/// (a note, a backup of an input, a folder) is never deleted: the command
/// refuses, names it, and leaves everything as it was.
#[test]
fn a_report_folder_holding_other_files_is_not_replaced() {
    let root = Scratch::new("report-foreign");
    let out = root.join("pipeline");
    let opts = |from: PathBuf| ReportOptions {
        from,
        criterion: None,
        out: out.clone(),
    };
    generate(&opts(fixture())).unwrap();
    let data = out.join("data");
    let first = generate(&opts(data.clone())).unwrap();
    assert!(first.ignored.is_empty(), "{:?}", first.ignored);
    let readme = std::fs::read(out.join("README.md")).unwrap();
    for foreign in [
        out.join("keep.txt"),
        out.join("k_test.pdf"),
        data.join("my_notes.txt"),
        data.join("counts_funnel.json.bak"),
        data.join("sub"),
    ] {
        if foreign.ends_with("sub") {
            std::fs::create_dir(&foreign).unwrap();
        } else {
            std::fs::write(&foreign, "mine").unwrap();
        }
        let err = generate(&opts(data.clone())).unwrap_err();
        assert!(
            matches!(&err, ReportError::WouldDelete(p) if *p == foreign),
            "{foreign:?}: {err:?}"
        );
        assert!(
            err.to_string()
                .contains("replacing the report folder would delete it")
        );
        assert!(foreign.exists(), "{foreign:?}");
        assert_eq!(std::fs::read(out.join("README.md")).unwrap(), readme);
        if foreign.is_dir() {
            std::fs::remove_dir(&foreign).unwrap();
        } else {
            std::fs::remove_file(&foreign).unwrap();
        }
    }
    // Without them, the report is replaced again.
    generate(&opts(data)).unwrap();
}

/// Every string in `reports/`'s committed JSON and JSON Lines records that
/// names a file names it portably: relative to the data root (`datasets/…`)
/// or to the run's work folder, never by a machine's absolute folder (the
/// report scripts rewrite those with `scripts/portable_paths.py`).
#[test]
fn committed_records_name_no_machine_folder() {
    fn strings<'a>(v: &'a serde_json::Value, out: &mut Vec<&'a str>) {
        match v {
            serde_json::Value::String(s) => out.push(s),
            serde_json::Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
            serde_json::Value::Object(o) => o.values().for_each(|x| strings(x, out)),
            _ => {}
        }
    }
    let reports = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports");
    let mut under = std::collections::BTreeSet::new();
    crate::datasets::files_under(&reports, Path::new(""), &mut under);
    let files: Vec<PathBuf> = (under.iter())
        .filter(|f| {
            matches!(
                f.extension().and_then(|e| e.to_str()),
                Some("json" | "jsonl")
            )
        })
        .map(|f| reports.join(f))
        .collect();
    assert!(files.len() > 100, "{} records found", files.len());
    let mut absolute = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let values: Vec<serde_json::Value> = if file.extension().unwrap() == "jsonl" {
            text.lines()
                .map(|line| serde_json::from_str(line).unwrap())
                .collect()
        } else {
            vec![serde_json::from_str(&text).unwrap()]
        };
        let mut found = Vec::new();
        values.iter().for_each(|v| strings(v, &mut found));
        absolute.extend(
            found
                .into_iter()
                .filter(|s| {
                    s.starts_with('/')
                        || s.starts_with('~')
                        || matches!(s.get(1..3), Some(":\\" | ":/"))
                })
                .map(|s| format!("{}: {s}", file.display())),
        );
    }
    assert!(absolute.is_empty(), "{absolute:#?}");
}
