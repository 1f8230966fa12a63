//! Bad input found by fuzzing the command line, one regression test each:
//! every case fails at once with a clear error that names the right file
//! (or option) and quotes at most a short prefix of a bad token; nothing
//! panics, hangs or grows without bound.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use ccdlab::harness::ground_truth::{QueryKind, read_mma_bool, read_query_csv};
use ccdlab::mesh::{read_step, write_obj, write_ply};

use crate::common::{Scratch, mkfifo};

fn ccdlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ccdlab"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run ccdlab")
}

/// Runs `ccdlab args` and asserts a clean failure (exit code 1, or 2 for
/// a command line that does not parse; no panic) whose standard error holds
/// every one of `needles`; returns it.
fn fails_with(args: &[&str], needles: &[&str]) -> String {
    let out = ccdlab(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        matches!(out.status.code(), Some(1 | 2)),
        "{args:?}: {:?} {err}",
        out.status
    );
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    for needle in needles {
        assert!(err.contains(needle), "{args:?}: {needle:?} not in {err}");
    }
    err
}

/// A small valid mesh: two triangles over four vertices.
fn quad(z: f64) -> (Vec<ccdlab::math::Vec3>, Vec<[u32; 3]>) {
    use ccdlab::math::Vec3;
    (
        vec![
            Vec3::new(0.0, 0.0, z),
            Vec3::new(1.0, 0.0, z),
            Vec3::new(1.0, 1.0, z),
            Vec3::new(0.0, 1.0, z),
        ],
        vec![[0, 1, 2], [0, 2, 3]],
    )
}

#[test]
fn a_damaged_first_frame_is_reported_against_itself_not_the_second() {
    let d = Scratch::new("bad-first-frame");
    let (x, faces) = quad(0.0);
    let good = d.join("good.ply");
    write_ply(&good, &x, &faces).unwrap();

    // A face index flipped out of range (written by hand: the writer
    // refuses it).
    let flipped = d.file(
        "flipped.ply",
        "ply\nformat ascii 1.0\nelement vertex 4\nproperty double x\nproperty double y\n\
         property double z\nelement face 2\nproperty list uchar int vertex_indices\n\
         end_header\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n3 0 1 2\n3 0 2 1048579\n",
    );
    // An empty OBJ, a truncated one (vertices, no faces), and a PLY whose
    // header misspells the face element, so that it reads no faces.
    let empty = d.file("empty.obj", "");
    let truncated = d.file("truncated.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n");
    let misspelled = d.file(
        "misspelled.ply",
        "ply\nformat ascii 1.0\nelement vertex 4\nproperty double x\nproperty double y\n\
         property double z\nelement faces 2\nproperty list uchar int vertex_indices\n\
         end_header\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n3 0 1 2\n3 0 2 3\n",
    );
    let good_obj = d.join("good.obj");
    write_obj(&good_obj, &x, &faces).unwrap();
    for (bad, other) in [
        (&flipped, &good),
        (&empty, &good_obj),
        (&truncated, &good_obj),
        (&misspelled, &good),
    ] {
        for (t0, t1) in [(bad, other), (other, bad)] {
            let e = read_step(t0, t1).unwrap_err();
            let message = e.to_string();
            assert!(
                message.starts_with(&bad.display().to_string()),
                "{} -> {}: {message}",
                t0.display(),
                t1.display()
            );
            assert!(
                !message.contains("expected"),
                "a frame's own fault, not a mismatch: {message}"
            );
        }
    }
    let (bad, other) = (flipped.to_str().unwrap(), good.to_str().unwrap());
    fails_with(&["step", bad, other], &[bad, "face 1"]);
}

#[test]
fn special_files_are_refused_at_once_as_frames_queries_and_truth() {
    let d = Scratch::new("bad-special-files");
    let (x, faces) = quad(0.0);
    let good = d.join("good.ply");
    write_ply(&good, &x, &faces).unwrap();
    let fifo = d.join("pipe.ply");
    mkfifo(&fifo);
    let zero = d.join("zero.ply");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    for bad in [&fifo, &zero] {
        let e = read_step(bad, &good).unwrap_err().to_string();
        assert!(e.contains("not a regular file"), "{e}");
        let b = bad.to_str().unwrap();
        fails_with(
            &["step", b, good.to_str().unwrap()],
            &[b, "not a regular file"],
        );
    }
    let csv = d.join("pipe.csv");
    mkfifo(&csv);
    let e = read_query_csv(&csv, QueryKind::VertexFace)
        .unwrap_err()
        .to_string();
    assert!(e.contains("FIFO") && e.contains("pipe.csv"), "{e}");
    let json = d.join("pipe.json");
    mkfifo(&json);
    let e = read_mma_bool(&json).unwrap_err().to_string();
    assert!(e.contains("FIFO") && e.contains("pipe.json"), "{e}");
    fails_with(&["queries", csv.to_str().unwrap()], &["pipe.csv"]);
    // Inside a folder that `queries` scores, such a file is refused too,
    // not left out of the score.
    let sets = d.join("sets/vertex-face");
    std::fs::create_dir_all(&sets).unwrap();
    mkfifo(&sets.join("data_0_1.csv"));
    let folder = d.join("sets");
    fails_with(
        &["queries", folder.to_str().unwrap()],
        &["data_0_1.csv", "FIFO"],
    );
}

#[test]
fn replay_refuses_frames_that_are_no_regular_files() {
    for (tag, make) in [
        (
            "dangling",
            (|p: &Path| std::os::unix::fs::symlink("nothing.ply", p).unwrap()) as fn(&Path),
        ),
        ("pipe", |p: &Path| mkfifo(p)),
        ("zero", |p: &Path| {
            std::os::unix::fs::symlink("/dev/zero", p).unwrap()
        }),
    ] {
        let d = Scratch::new(&format!("bad-replay-{tag}"));
        for (n, z) in [(1, 0.0), (2, 0.5), (3, 1.0)] {
            let (x, faces) = quad(z);
            write_ply(&d.join(format!("f{n}.ply")), &x, &faces).unwrap();
        }
        make(&d.join("f4.ply"));
        fails_with(
            &["replay", d.to_str().unwrap()],
            &["f4.ply", "regular file"],
        );
    }
}

#[test]
fn long_tokens_are_refused_early_and_quoted_short() {
    let d = Scratch::new("bad-long-tokens");
    // A million-digit numerator: refused before any conversion.
    let digits = "7".repeat(1_000_000);
    let mut csv = String::new();
    for row in 0..8 {
        let n = if row == 3 { digits.as_str() } else { "1" };
        csv += &format!("{n},2,1,2,1,2,0\n");
    }
    let path = d.file("long_vf.csv", &csv);
    let e = read_query_csv(&path, QueryKind::VertexFace)
        .unwrap_err()
        .to_string();
    assert!(e.contains(":4") && e.contains("1000000 digits"), "{e}");
    assert!(e.len() < 400, "{} bytes: {}", e.len(), &e[..400]);
    let err = fails_with(&["queries", path.to_str().unwrap()], &["1000000 digits"]);
    assert!(err.len() < 600, "{} bytes of error", err.len());

    // A header line of 10 MB without a newline.
    let mut ply = b"ply\nformat ascii 1.0\nelement vertex 4 ".to_vec();
    ply.extend(std::iter::repeat_n(b'x', 10_000_000));
    let big = d.file("long.ply", &ply);
    let other = d.join("good.ply");
    let (x, faces) = quad(0.0);
    write_ply(&other, &x, &faces).unwrap();
    let e = read_step(&big, &other).unwrap_err().to_string();
    assert!(e.contains("long.ply"), "{e}");
    assert!(e.len() < 2_000, "{} bytes", e.len());
}

#[test]
fn negative_numbers_to_options_name_the_option_and_its_range() {
    let d = Scratch::new("bad-negative");
    let (x, faces) = quad(0.0);
    let f0 = d.join("a.ply");
    write_ply(&f0, &x, &faces).unwrap();
    let f0 = f0.to_str().unwrap();
    let out: PathBuf = d.join("out");
    let out = out.to_str().unwrap();
    for (args, option) in [
        (vec!["step", f0, f0, "--k", "-1"], "'--k <K>'"),
        (
            vec!["step", f0, f0, "--threads", "-1"],
            "'--threads <THREADS>': must be a whole number from 1 to 1024",
        ),
        (
            vec!["step", f0, f0, "--repeat", "-1"],
            "'--repeat <REPEAT>': must be a whole number from 1 to 1000",
        ),
        (
            vec!["generate", "--out", out, "--resolution", "-1"],
            "'--resolution <RESOLUTION>': must be a whole number from 2 to 1024",
        ),
        (
            vec!["generate", "--out", out, "--gap", "-1"],
            "'--gap <GAP>': must be a number of metres from 0 to 100",
        ),
        (
            vec!["generate", "--out", out, "--seed", "-1"],
            "'--seed <SEED>': must be a whole number from 0 to",
        ),
        (
            vec!["queries", "--min-time-ms", "-1", f0],
            "'--min-time-ms <MIN_TIME_MS>': must be a whole number from 0 to 60000",
        ),
        // The polygon oracle's memory grows with the square of its size.
        (
            vec!["polygons", "query", f0, "--oracle-max-vertices", "4096"],
            "'--oracle-max-vertices <ORACLE_MAX_VERTICES>': must be a whole number from 0 to 1024",
        ),
        (
            vec![
                "polygons",
                "report",
                "--out",
                out,
                "--oracle-max-vertices",
                "-1",
            ],
            "'--oracle-max-vertices <ORACLE_MAX_VERTICES>': must be a whole number from 0 to 1024",
        ),
        (
            vec![
                "route",
                "--terrain",
                f0,
                "--object",
                f0,
                "--route",
                "0,0,1;1,0,1",
                "--speed",
                "-1",
            ],
            "speed",
        ),
    ] {
        let err = fails_with(&args, &[option]);
        assert!(!err.contains("unexpected argument"), "{args:?}: {err}");
    }
    assert!(!Path::new(out).exists());
}

#[test]
fn the_demo_route_refuses_the_options_it_would_ignore() {
    for (option, value) in [
        ("--turn-step", "0"),
        ("--turn-step", "181"),
        ("--speed", "nan"),
        ("--heading", "abc"),
    ] {
        fails_with(
            &["route", "--scenario", "demo", option, value],
            &[option, "--scenario"],
        );
    }
}

#[test]
fn a_full_standard_output_is_a_clean_error() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_ccdlab"))
        .args(["replay", "generated:6:3", "--threads", "1"])
        .stdout(full)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains("cannot write to standard output"), "{err}");
}

/// The help and the version are output like any other: written in full
/// (status 0), or, to a full standard output, the same clean error (status
/// 1) rather than a success that printed nothing.
#[test]
fn help_and_version_to_a_full_standard_output_are_a_clean_error() {
    for args in [
        &["--help"][..],
        &["--version"],
        &["-V"],
        &["step", "--help"],
        &["help", "replay"],
    ] {
        let out = ccdlab(args);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert!(
            text.starts_with("ccdlab") || text.contains("Usage: ccdlab"),
            "{args:?}: {text}"
        );
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_ccdlab"))
            .args(args)
            .stdout(full)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("cannot write to standard output"),
            "{args:?}: {err}"
        );
    }
    // A wrong command line still goes to standard error with status 2.
    let out = ccdlab(&["step", "--no-such-option"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}

#[test]
fn report_commands_write_only_where_told() {
    // Without --out they refuse before any work, rather than write into
    // reports/.
    fails_with(&["discrete"], &["--out"]);
    fails_with(&["polygons", "report"], &["--out"]);
    fails_with(&["report"], &["--out"]);
}

/// The single queries answer `None` (no contact) for a non-finite
/// coordinate in any of the eight points, without a panic: the documented
/// contract, which `Step::new` and `Pipeline::step` turn into an error.
#[test]
fn single_queries_answer_none_for_a_non_finite_coordinate() {
    use ccdlab::math::Vec3;
    use ccdlab::narrow_phase::{edge_edge, edge_edge_within, vertex_face, vertex_face_within};
    // Touching queries: without the bad value each answers Some.
    let vf = [
        Vec3::new(0.2, 0.2, 1.0),
        Vec3::new(0.0, 0.0, 0.0),
        Vec3::new(1.0, 0.0, 0.0),
        Vec3::new(0.0, 1.0, 0.0),
        Vec3::new(0.2, 0.2, -1.0),
        Vec3::new(0.0, 0.0, 0.0),
        Vec3::new(1.0, 0.0, 0.0),
        Vec3::new(0.0, 1.0, 0.0),
    ];
    let ee = [
        Vec3::new(0.0, 0.0, 1.0),
        Vec3::new(1.0, 0.0, 1.0),
        Vec3::new(0.5, -1.0, 0.0),
        Vec3::new(0.5, 1.0, 0.0),
        Vec3::new(0.0, 0.0, -1.0),
        Vec3::new(1.0, 0.0, -1.0),
        Vec3::new(0.5, -1.0, 0.0),
        Vec3::new(0.5, 1.0, 0.0),
    ];
    let vf_q = |p: &[Vec3; 8]| vertex_face(&p[0], &p[1], &p[2], &p[3], &p[4], &p[5], &p[6], &p[7]);
    let ee_q = |p: &[Vec3; 8]| edge_edge(&p[0], &p[1], &p[2], &p[3], &p[4], &p[5], &p[6], &p[7]);
    assert!(vf_q(&vf).is_some() && ee_q(&ee).is_some());
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        for point in 0..8 {
            for axis in 0..3 {
                let (mut a, mut b) = (vf, ee);
                a[point][axis] = bad;
                b[point][axis] = bad;
                assert_eq!(
                    vf_q(&a),
                    None,
                    "vertex–face, point {point}, axis {axis}: {bad}"
                );
                assert_eq!(
                    ee_q(&b),
                    None,
                    "edge–edge, point {point}, axis {axis}: {bad}"
                );
                // Within a separation, even one met by every finite pair.
                for d in [1e-3, f64::INFINITY] {
                    let vf_d = vertex_face_within(
                        &a[0], &a[1], &a[2], &a[3], &a[4], &a[5], &a[6], &a[7], d,
                    );
                    let ee_d =
                        edge_edge_within(&b[0], &b[1], &b[2], &b[3], &b[4], &b[5], &b[6], &b[7], d);
                    assert_eq!(
                        (vf_d, ee_d),
                        (None, None),
                        "point {point}, axis {axis}: {bad}, d {d}"
                    );
                }
            }
        }
    }
}

/// A file name with control characters (an escape sequence) is named in the
/// error with them escaped, so that none reaches the terminal.
#[cfg(unix)]
#[test]
fn control_characters_in_a_path_are_escaped_in_the_error() {
    let d = Scratch::new("bad-control-path");
    let (x, faces) = quad(0.0);
    let good = d.join("good.ply");
    write_ply(&good, &x, &faces).unwrap();
    let bad = d.file("bad\u{1b}[31m.ply", "ply\nformat ascii 1.0\nend_header\n");
    let err = fails_with(
        &["step", bad.to_str().unwrap(), good.to_str().unwrap()],
        &["bad\\u{1b}[31m.ply"],
    );
    assert!(!err.contains('\u{1b}'), "{err:?}");
}

/// Runs `ccdlab args` as a user whom folder modes bind: the current user,
/// or, for root (whom they do not bind), `nobody` through `setpriv`; `None`
/// when root cannot change its user here.
#[cfg(unix)]
fn ccdlab_unprivileged(args: &[&str]) -> Option<Output> {
    let bin = env!("CARGO_BIN_EXE_ccdlab");
    // SAFETY: `geteuid` only reads the process's user id.
    if unsafe { libc::geteuid() } != 0 {
        return Some(ccdlab(args));
    }
    let nobody = ["--reuid=65534", "--regid=65534", "--clear-groups"];
    let can = Command::new("setpriv")
        .args(nobody)
        .arg("true")
        .status()
        .is_ok_and(|s| s.success());
    if !can {
        return None;
    }
    let out = Command::new("setpriv")
        .args(nobody)
        .arg(bin)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run ccdlab through setpriv");
    Some(out)
}

/// An output whose folder cannot be written is refused before any work
/// (nothing on standard output, where the commands print their results),
/// naming the folder, and nothing is left in it.
#[cfg(unix)]
#[test]
fn an_output_folder_that_cannot_be_written_is_refused_before_any_work() {
    use std::os::unix::fs::PermissionsExt;
    let d = Scratch::new("bad-unwritable-out");
    let (x0, faces) = quad(0.0);
    let (x1, _) = quad(1.0);
    let (f0, f1) = (d.join("f0.ply"), d.join("f1.ply"));
    write_ply(&f0, &x0, &faces).unwrap();
    write_ply(&f1, &x1, &faces).unwrap();
    let ro = d.join("ro");
    std::fs::create_dir(&ro).unwrap();
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).unwrap();
    let (f0, f1, dir) = (
        f0.to_str().unwrap(),
        f1.to_str().unwrap(),
        ro.to_str().unwrap(),
    );
    let (log, pairs, sets) = (
        format!("{dir}/x.jsonl"),
        format!("{dir}/pairs.csv"),
        format!("{dir}/sets"),
    );
    for (args, needles) in [
        (
            vec!["replay", "generated:6:3", "--out", &log],
            vec!["--out", log.as_str(), "cannot be written"],
        ),
        (
            vec!["step", f0, f1, "--pairs", &pairs],
            vec!["--pairs", pairs.as_str(), "cannot be written"],
        ),
        (
            vec!["candidates", f0, f1, "--out", &sets],
            vec!["--out", sets.as_str(), "cannot create"],
        ),
    ] {
        let Some(out) = ccdlab_unprivileged(&args) else {
            eprintln!("skipped: running as root, and setpriv cannot drop to nobody here");
            return;
        };
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}: work was done first");
        for needle in needles {
            assert!(err.contains(needle), "{args:?}: {needle:?} not in {err}");
        }
    }
    assert_eq!(std::fs::read_dir(&ro).unwrap().count(), 0);
}

/// `report`'s default `--from` is relative to the current folder: run
/// elsewhere, the error says to run from the repository root or to pass
/// `--from`; a `--from` given and missing gets no such hint.
#[test]
fn report_outside_the_checkout_says_where_to_run_it() {
    let d = Scratch::new("bad-report-from");
    let out = d.join("report");
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_ccdlab"))
            .args(args)
            .current_dir(&d)
            .stdin(Stdio::null())
            .output()
            .expect("run ccdlab")
    };
    let out_arg = out.to_str().unwrap();
    let given = run(&["report", "--out", out_arg]);
    let err = String::from_utf8_lossy(&given.stderr);
    assert_eq!(given.status.code(), Some(1), "{err}");
    assert!(err.contains("reports/pipeline/data"), "{err}");
    assert!(
        err.contains("run from the repository root, or pass --from DIR"),
        "{err}"
    );
    let given = run(&["report", "--from", "elsewhere", "--out", out_arg]);
    let err = String::from_utf8_lossy(&given.stderr);
    assert_eq!(given.status.code(), Some(1), "{err}");
    assert!(err.contains("elsewhere"), "{err}");
    assert!(!err.contains("--from DIR"), "{err}");
    assert!(!out.exists());
}

/// A `CCDLAB_FONT` that names no readable file: the report is written
/// without text, and the note names the file, not "set CCDLAB_FONT".
#[test]
fn an_unreadable_font_file_is_named_in_the_note() {
    let d = Scratch::new("bad-report-font");
    let out = d.join("report");
    let missing = d.join("no-such-font.ttf");
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/pipeline/data");
    let run = Command::new(env!("CARGO_BIN_EXE_ccdlab"))
        .args(["report", "--from", from.to_str().unwrap()])
        .args(["--out", out.to_str().unwrap()])
        .env("CCDLAB_FONT", &missing)
        .stdin(Stdio::null())
        .output()
        .expect("run ccdlab");
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{err}");
    assert!(out.join("README.md").is_file());
    let note = err
        .lines()
        .find(|l| l.contains("figures drawn without text"))
        .unwrap_or_else(|| panic!("no font note in {err}"));
    assert!(note.contains(missing.to_str().unwrap()), "{note}");
    assert!(note.contains("cannot be read"), "{note}");
    assert!(!note.contains("set CCDLAB_FONT"), "{note}");
}
