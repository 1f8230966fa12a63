//! The polygon report written all or nothing: accuracy and timing measured,
//! then `README.md` (stamped), `timing.csv`, `accuracy.csv` and
//! `fig3_resolution_time.png` staged and moved into the output folder
//! together.

use std::path::PathBuf;

use crate::harness::output::{StagedFolder, write_atomic};
use crate::harness::stamp::Stamp;
use crate::harness::thread_time::Timer;

use super::accuracy::measure_accuracy;
use super::csv::{accuracy_to_csv, timing_to_csv};
use super::error::PolygonReportError;
use super::experiment::ReportConfig;
use super::markdown::markdown;
use super::plot;
use super::timing::measure_timing;

/// The files a report wrote, as named in its output folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportFiles {
    /// `README.md`.
    pub readme: PathBuf,
    /// `timing.csv`.
    pub timing_csv: PathBuf,
    /// `accuracy.csv`.
    pub accuracy_csv: PathBuf,
    /// `fig3_resolution_time.png`.
    pub figure: PathBuf,
}

/// Checks `args`, measures and writes the report into `args.out`;
/// `progress` hears of each scenario and size done (a line each, for
/// standard error). A failed run leaves `args.out` as it was.
pub fn write_report(
    args: &ReportConfig,
    progress: &mut dyn FnMut(&str),
) -> Result<ReportFiles, PolygonReportError> {
    args.check()?;
    // The files go to a staging folder, moved into --out only once all are
    // written: a failed run leaves --out as it was.
    let stage = StagedFolder::begin(&args.out, "polygons").map_err(PolygonReportError::Out)?;
    let stamp = Stamp::new(1);

    let accuracy = measure_accuracy(args, progress)?;
    let timer = Timer::pick();
    let timing = measure_timing(args, timer, progress)?;

    let timing_csv = args.out.join("timing.csv");
    write_file(
        &stage,
        "timing.csv",
        timing_to_csv(&timing, &stamp).as_bytes(),
    )?;
    let accuracy_csv = args.out.join("accuracy.csv");
    write_file(
        &stage,
        "accuracy.csv",
        accuracy_to_csv(&accuracy, &stamp).as_bytes(),
    )?;
    let png = args.out.join("fig3_resolution_time.png");
    let font = plot::load_font();
    plot::figure(&stage.path("fig3_resolution_time.png"), &timing, font).map_err(|message| {
        PolygonReportError::Plot {
            path: png.clone(),
            message,
        }
    })?;
    let md = markdown(args, &stamp, timer, &timing, &accuracy, font);
    let readme = args.out.join("README.md");
    write_file(&stage, "README.md", md.as_bytes())?;
    stage.commit().map_err(PolygonReportError::Out)?;
    Ok(ReportFiles {
        readme,
        timing_csv,
        accuracy_csv,
        figure: png,
    })
}

/// Writes `bytes` as the staged file `name`; an error names it in `--out`.
fn write_file(stage: &StagedFolder, name: &str, bytes: &[u8]) -> Result<(), PolygonReportError> {
    write_atomic(&stage.path(name), bytes).map_err(|source| PolygonReportError::Write {
        path: stage.out().join(name),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::{Scratch, names};

    fn report(args: ReportConfig) -> Result<ReportFiles, PolygonReportError> {
        write_report(&args, &mut |_| {})
    }

    /// The smallest report: one size, one pair, one short sample.
    fn tiny_report(out: PathBuf) -> ReportConfig {
        ReportConfig {
            out,
            seed: 1,
            sizes: vec![8],
            accuracy_pairs: 1,
            oracle_max_vertices: 8,
            timing_pairs: 1,
            sample_seconds: 0.001,
            samples: 1,
            spikiness: 0.5,
        }
    }

    #[test]
    fn a_report_is_written_all_or_nothing() {
        let dir = Scratch::new("polygons-report");
        // A new --out (and the folder above it) appears with the files.
        let out = dir.join("new").join("out");
        report(tiny_report(out.clone())).unwrap();
        let files = [
            "README.md",
            "accuracy.csv",
            "fig3_resolution_time.png",
            "timing.csv",
        ];
        assert_eq!(names(&out), files);
        // Into an existing folder: the files are replaced, others kept.
        std::fs::write(out.join("mine.txt"), "mine").unwrap();
        std::fs::write(out.join("timing.csv"), "old").unwrap();
        report(tiny_report(out.clone())).unwrap();
        assert_eq!(names(&out).len(), files.len() + 1);
        assert_ne!(
            std::fs::read_to_string(out.join("timing.csv")).unwrap(),
            "old"
        );
        // A folder in the way of README.md: the run fails naming it and
        // changes nothing (the CSVs were written into --out before it).
        std::fs::remove_file(out.join("README.md")).unwrap();
        std::fs::create_dir(out.join("README.md")).unwrap();
        std::fs::write(out.join("timing.csv"), "old").unwrap();
        let e = report(tiny_report(out.clone())).unwrap_err().to_string();
        assert!(e.contains("README.md"), "{e}");
        assert_eq!(
            std::fs::read_to_string(out.join("timing.csv")).unwrap(),
            "old"
        );
        assert_eq!(
            names(&out),
            [
                "README.md",
                "accuracy.csv",
                "fig3_resolution_time.png",
                "mine.txt",
                "timing.csv"
            ]
        );
        // A failed run into a new folder leaves none (it used to leave an
        // empty one): a file where its parent folder belongs.
        std::fs::write(dir.join("file"), "").unwrap();
        assert!(report(tiny_report(dir.join("file").join("out"))).is_err());
        assert_eq!(names(&dir), ["file", "new"]);
    }
}
