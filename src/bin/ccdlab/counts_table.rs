//! The pair-count table that `ccdlab step` and `ccdlab replay` print, one
//! row per query kind, with the same columns in the same order, and the
//! line that says which setting ran.

use ccdlab::filter::FilterSet;
use ccdlab::harness::replay::KindTotals;
use ccdlab::pipeline::{BodyCounts, KindCounts, PointCounts};

/// One row: a kind's counts through the filters.
pub struct Row {
    candidates: u64,
    culled_slpf: u64,
    culled_dnf: u64,
    after_filter: u64,
    culling_rate_percent: f64,
    culled_window: u64,
    colliding: u64,
}

impl From<&KindCounts> for Row {
    fn from(c: &KindCounts) -> Row {
        Row {
            candidates: c.candidates,
            culled_slpf: c.culled_slpf,
            culled_dnf: c.culled_dnf,
            after_filter: c.after_filter,
            culling_rate_percent: c.culling_rate_percent,
            culled_window: c.culled_window,
            colliding: c.colliding,
        }
    }
}

impl From<&KindTotals> for Row {
    fn from(t: &KindTotals) -> Row {
        Row {
            candidates: t.candidates,
            culled_slpf: t.culled_slpf,
            culled_dnf: t.culled_dnf,
            after_filter: t.after_filter,
            culling_rate_percent: t.culling_rate_percent,
            culled_window: t.culled_window,
            colliding: t.colliding,
        }
    }
}

/// What ran, in words: "filters dnf with time-aligned pruning, window
/// filter on".
pub fn setting(filters: FilterSet, time_aligned: bool, window: bool) -> String {
    format!(
        "filters {filters}{}, window filter {}",
        if time_aligned {
            " with time-aligned pruning"
        } else {
            ""
        },
        if window { "on" } else { "off" }
    )
}

/// The line that says a step ran at a minimum separation `d > 0`, and what
/// that changes.
pub fn min_distance_line(d: f64) -> String {
    format!(
        "minimum separation: {d:e} (pairs within it collide; where they run, DNF and the window filter keep a margin of d; SLPF is off)"
    )
}

/// The line that says which pairs a step tested, by body.
pub fn bodies_line(b: &BodyCounts) -> String {
    format!(
        "bodies: {}, {} of them colliding with themselves (pairs within the other bodies are not tested)",
        b.bodies, b.self_colliding
    )
}

/// The codimensional points' line: their pairs' candidates and collisions.
pub fn points_line(p: &PointCounts) -> String {
    format!(
        "points: {} point-edge candidates, {} colliding; {} point-point candidates, {} colliding",
        p.vertex_edge.candidates,
        p.vertex_edge.colliding,
        p.vertex_vertex.candidates,
        p.vertex_vertex.colliding
    )
}

/// Prints the header and the `VF` and `EE` rows.
pub fn print(vf: Row, ee: Row) {
    println!(
        "{:>4} {:>13} {:>12} {:>12} {:>12} {:>9} {:>12} {:>10}",
        "",
        "candidates",
        "SLPF culled",
        "DNF culled",
        "after filter",
        "culled %",
        "window cull",
        "colliding"
    );
    for (name, r) in [("VF", vf), ("EE", ee)] {
        println!(
            "{:>4} {:>13} {:>12} {:>12} {:>12} {:>9.2} {:>12} {:>10}",
            name,
            r.candidates,
            r.culled_slpf,
            r.culled_dnf,
            r.after_filter,
            r.culling_rate_percent,
            r.culled_window,
            r.colliding,
        );
    }
}
