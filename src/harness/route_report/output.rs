//! The route report's folder, all or nothing: an `--out` is accepted only
//! when absent, empty or a report of this command holding none of the
//! inputs, and the report is written into a temporary sibling folder that
//! replaces it only when everything is written.

use std::path::Path;

use crate::harness::output::{FolderError, replace_folder, write_atomic};

use super::error::{RouteReportError, argument, write_error};
use super::inputs::RouteRequest;
use super::markdown::TITLE;

/// Refuses an `out` folder that the report of `request` may not replace:
/// one that is not absent, empty or a report of this command
/// ([`RouteReportError::NotARouteReport`]), or that holds one of the input
/// files (the report replaces the whole folder).
pub fn check_out_folder(out: &Path, request: &RouteRequest) -> Result<(), RouteReportError> {
    check_out(out)?;
    check_inputs_outside(out, request.files())
}

/// Refuses an `--out` that is not absent, an empty folder or a report of
/// this command (module doc).
fn check_out(out: &Path) -> Result<(), RouteReportError> {
    let not_ours = |why: &str| RouteReportError::NotARouteReport {
        path: out.to_path_buf(),
        why: why.to_string(),
    };
    match std::fs::symlink_metadata(out) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(write_error(out, e)),
        Ok(m) if !m.is_dir() => return Err(not_ours("exists and is not a folder")),
        Ok(_) => {}
    }
    let mut entries = std::fs::read_dir(out).map_err(|e| write_error(out, e))?;
    if entries.next().is_none() {
        return Ok(());
    }
    let readme = std::fs::read_to_string(out.join("README.md")).unwrap_or_default();
    if readme.lines().next() != Some(TITLE) {
        return Err(not_ours(
            "the folder is not empty and has no README.md starting with the route report's title",
        ));
    }
    // A report of this command: it may be replaced only when it holds
    // nothing else, which the replacement would delete.
    for entry in std::fs::read_dir(out).map_err(|e| write_error(out, e))? {
        let entry = entry.map_err(|e| write_error(out, e))?;
        let is_file = entry.file_type().is_ok_and(|t| t.is_file());
        let name = entry.file_name().to_string_lossy().into_owned();
        if !(is_file && is_report_file(&name)) {
            return Err(not_ours(&format!(
                "it holds `{name}`, which is not part of a route report, and replacing the \
                 folder would delete it (move it out, or choose another folder)"
            )));
        }
    }
    Ok(())
}

/// Whether a route report writes a file of this name: its page, result,
/// figure, and copies of its inputs (`terrain.grid`, `aircraft.obj`,
/// `NAME.route`).
fn is_report_file(name: &str) -> bool {
    matches!(
        name,
        "README.md" | "result.json" | "route.png" | "terrain.grid" | "aircraft.obj"
    ) || name.ends_with(".route")
}

/// Refuses an `--out` folder that holds one of the input `files`: the
/// report replaces the whole folder.
fn check_inputs_outside<'a>(
    out: &Path,
    files: impl IntoIterator<Item = &'a Path>,
) -> Result<(), RouteReportError> {
    let Ok(dir) = out.canonicalize() else {
        return Ok(());
    };
    for f in files {
        if f.canonicalize().is_ok_and(|f| f.starts_with(&dir)) {
            return Err(argument(
                "out",
                format!(
                    "`{}` holds the input `{}`, and the report replaces the whole folder; choose another folder",
                    out.display(),
                    f.display()
                ),
            ));
        }
    }
    Ok(())
}

/// Runs `write` on a new temporary folder beside `out`, then puts that
/// folder in place of `out` (an old report is replaced only now). On any
/// error the temporary folder is removed and `out` is left as it was.
pub(super) fn publish(
    out: &Path,
    write: impl FnOnce(&Path) -> Result<(), RouteReportError>,
) -> Result<(), RouteReportError> {
    if out.file_name().is_none() {
        return Err(argument(
            "out",
            format!("`{}` does not name a folder", out.display()),
        ));
    }
    replace_folder(out, "route", |tmp| {
        write(tmp)?;
        // On disk before the swap.
        for entry in std::fs::read_dir(tmp).map_err(|e| write_error(out, e))? {
            let p = entry.map_err(|e| write_error(out, e))?.path();
            std::fs::File::open(&p)
                .and_then(|f| f.sync_all())
                .map_err(|e| write_error(&out.join(p.file_name().unwrap_or_default()), e))?;
        }
        Ok(())
    })
    .map_err(|e| match e {
        FolderError::Create(e) => RouteReportError::Write {
            path: out.to_path_buf(),
            message: format!("the report folder cannot be created there: {e}"),
        },
        FolderError::Write(e) => e,
        FolderError::Swap(e) => write_error(out, e),
    })
}

/// Writes `bytes` as `dir/name`; an error names `out/name`, the file the
/// user asked for.
pub(super) fn write_file(
    dir: &Path,
    out: &Path,
    name: &str,
    bytes: &[u8],
) -> Result<(), RouteReportError> {
    write_atomic(&dir.join(name), bytes).map_err(|e| write_error(&out.join(name), e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::route_report::{Inputs, write_report};
    use crate::test_util::{Scratch, names};

    fn demo() -> RouteRequest {
        RouteRequest {
            demo: true,
            terrain: None,
            grid: None,
            object: None,
            route: None,
            heading: "0".into(),
            turn_step: 5.0,
            speed: 1.0,
        }
    }

    /// What `ccdlab route --out` does: the checks, the flights, the report.
    fn run(request: RouteRequest, out: &Path) -> Result<(), RouteReportError> {
        let inputs = Inputs::load(&request)?;
        check_out_folder(out, &request)?;
        let flights = (0..inputs.routes())
            .map(|k| inputs.fly(k))
            .collect::<Result<Vec<_>, _>>()?;
        write_report(out, &inputs, &flights, 1).map(|_| ())
    }

    #[test]
    fn a_folder_that_is_not_a_route_report_is_refused_and_left_alone() {
        let d = Scratch::new("route-not-ours");
        let proj = d.join("userproj");
        std::fs::create_dir(&proj).unwrap();
        let precious = "# My precious project README\n";
        std::fs::write(proj.join("README.md"), precious).unwrap();
        let e = run(demo(), &proj).unwrap_err();
        assert!(
            matches!(&e, RouteReportError::NotARouteReport { path, .. } if *path == proj),
            "{e}"
        );
        assert!(e.to_string().contains("refusing to replace it"), "{e}");
        assert_eq!(
            std::fs::read_to_string(proj.join("README.md")).unwrap(),
            precious
        );
        assert_eq!(names(&proj), ["README.md"]);
        assert_eq!(names(&d), ["userproj"]);
        // A file, and a non-empty folder without a README: refused too.
        let file = d.join("notes.txt");
        std::fs::write(&file, "x").unwrap();
        assert!(matches!(
            check_out(&file),
            Err(RouteReportError::NotARouteReport { .. })
        ));
        std::fs::remove_file(proj.join("README.md")).unwrap();
        std::fs::write(proj.join("data.csv"), "1,2\n").unwrap();
        assert!(check_out(&proj).is_err());
        // Absent, empty, or a report of this command: accepted.
        assert!(check_out(&d.join("absent")).is_ok());
        let empty = d.join("empty");
        std::fs::create_dir(&empty).unwrap();
        assert!(check_out(&empty).is_ok());
        std::fs::write(empty.join("README.md"), format!("{TITLE}\n\nold\n")).unwrap();
        assert!(check_out(&empty).is_ok());
        // A report that also holds a file of one's own, or a folder: the
        // replacement would delete it, so it is refused.
        for name in [
            "result.json",
            "route.png",
            "terrain.grid",
            "aircraft.obj",
            "a.route",
        ] {
            std::fs::write(empty.join(name), "x").unwrap();
        }
        assert!(check_out(&empty).is_ok());
        std::fs::write(empty.join("notes.txt"), "mine").unwrap();
        let e = check_out(&empty).unwrap_err();
        assert!(e.to_string().contains("it holds `notes.txt`"), "{e}");
        std::fs::remove_file(empty.join("notes.txt")).unwrap();
        std::fs::create_dir(empty.join("old")).unwrap();
        assert!(check_out(&empty).is_err());
    }

    #[test]
    fn the_report_folder_is_written_all_or_nothing() {
        let d = Scratch::new("route-publish");
        let out = d.join("report");
        // A failure after the first file: no folder, no temporary left.
        let e = publish(&out, |dir| {
            std::fs::write(dir.join("result.json"), "{}").unwrap();
            Err(argument("out", "figure failed"))
        })
        .unwrap_err();
        assert!(e.to_string().contains("figure failed"), "{e}");
        assert!(names(&d).is_empty(), "{:?}", names(&d));
        // A success replaces an old report as a whole.
        std::fs::create_dir(&out).unwrap();
        std::fs::write(out.join("README.md"), format!("{TITLE}\n")).unwrap();
        std::fs::write(out.join("stale.route"), "0 0 0\n").unwrap();
        publish(&out, |dir| {
            std::fs::write(dir.join("README.md"), "new").unwrap();
            Ok(())
        })
        .unwrap();
        assert_eq!(names(&out), ["README.md"]);
        assert_eq!(names(&d), ["report"]);
        // A failure leaves the old report as it was.
        publish(&out, |dir| {
            std::fs::write(dir.join("README.md"), "newer").unwrap();
            Err(argument("out", "failed"))
        })
        .unwrap_err();
        assert_eq!(
            std::fs::read_to_string(out.join("README.md")).unwrap(),
            "new"
        );
        assert_eq!(names(&d), ["report"]);
        // A folder that cannot be created is named as given.
        let blocked = d.join("report/README.md/sub");
        let e = publish(&blocked, |_| Ok(())).unwrap_err();
        let msg = e.to_string();
        assert!(
            msg.contains(&*blocked.to_string_lossy()) && msg.contains("cannot be created there"),
            "{msg}"
        );
    }

    #[test]
    fn an_out_folder_holding_an_input_is_refused() {
        let d = Scratch::new("route-inputs");
        let out = d.join("report");
        std::fs::create_dir(&out).unwrap();
        let inside = out.join("terrain.grid");
        let outside = d.join("terrain.grid");
        std::fs::write(&inside, "grid").unwrap();
        std::fs::write(&outside, "grid").unwrap();
        let e = check_inputs_outside(&out, [outside.as_path(), inside.as_path()]).unwrap_err();
        assert!(
            matches!(e, RouteReportError::Argument { name: "out", .. })
                && e.to_string().contains("holds the input"),
            "{e}"
        );
        assert!(check_inputs_outside(&out, [outside.as_path()]).is_ok());
        assert!(check_inputs_outside(&d.join("absent"), [inside.as_path()]).is_ok());
    }
}
