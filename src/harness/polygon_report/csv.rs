//! The polygon report's CSV files (`timing.csv`, `accuracy.csv`): every
//! count and time behind its tables, stamped.

use std::fmt::Write as _;

use crate::harness::stamp::Stamp;
use crate::polygon::evaluate::VerdictClass;

use super::accuracy::AccuracyRow;
use super::experiment::kind_name;
use super::timing::TimingRow;

/// The stamp as the files' first (comment) line.
fn csv_header(stamp: &Stamp) -> String {
    format!("# {}\n", stamp.markdown_line())
}

/// `timing.csv`: one line per timing row.
pub(super) fn timing_to_csv(rows: &[TimingRow], stamp: &Stamp) -> String {
    let mut s = csv_header(stamp);
    s.push_str("decomposition,scenario,vertices,method,ns_per_query_median,ns_min,ns_max,time_ratio_to_paper_median,mean_pieces_a,mean_pieces_b\n");
    for r in rows {
        let _ = writeln!(
            s,
            "{},{},{},{},{:.1},{:.1},{:.1},{:.4},{:.2},{:.2}",
            kind_name(r.kind),
            r.scenario.name(),
            r.n,
            r.method.name(),
            r.ns_per_query,
            r.ns_min,
            r.ns_max,
            r.ratio_to_paper,
            r.pieces_a,
            r.pieces_b
        );
    }
    s
}

/// `accuracy.csv`: one line per method, scenario and size, with every
/// verdict class and the translation checks.
pub(super) fn accuracy_to_csv(rows: &[AccuracyRow], stamp: &Stamp) -> String {
    let mut s = csv_header(stamp);
    s.push_str("scenario,vertices,method,pairs,truth_disjoint,truth_boundaries_meet,truth_b_in_a,truth_a_in_b");
    for c in VerdictClass::ALL {
        let _ = write!(s, ",{}", c.name());
    }
    s.push_str(",mtv_checked,mtv_separates,mtv_tight,mtv_minimal,mtv_ratio_mean,mtv_ratio_max\n");
    for r in rows {
        for (m, t) in &r.tallies {
            let _ = write!(
                s,
                "{},{},{},{},{},{},{},{}",
                r.scenario.name(),
                r.n,
                m.name(),
                t.pairs,
                r.truth[0],
                r.truth[1],
                r.truth[2],
                r.truth[3]
            );
            for c in VerdictClass::ALL {
                let _ = write!(s, ",{}", t.count(c));
            }
            let mean = if t.checked > 0 {
                t.ratio_sum / t.checked as f64
            } else {
                f64::NAN
            };
            let _ = writeln!(
                s,
                ",{},{},{},{},{:.4},{:.4}",
                t.checked, t.separates, t.tight, t.minimal, mean, t.ratio_max
            );
        }
    }
    s
}
