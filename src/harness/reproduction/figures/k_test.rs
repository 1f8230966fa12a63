//! Fig. 6: candidates and broad-phase time per k, parry's AABB BVH as a
//! dashed line.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::drawing::{Bars, EE, Figure, OURS, Res, VF, compact, draw_bars, sig3, title_area};
use crate::harness::reproduction::inputs::ReportInputs;

/// Candidates and broad-phase time per k, one row per scene.
pub(crate) struct KTestFigure {
    rows: Vec<KRow>,
}

struct KRow {
    scene: String,
    ks: Vec<usize>,
    vf: Vec<f64>,
    ee: Vec<f64>,
    time_ms: Vec<f64>,
    time_source: &'static str,
    parry_ms: Option<f64>,
}

impl KTestFigure {
    pub(crate) fn new(inputs: &ReportInputs) -> Option<KTestFigure> {
        let rows: Vec<_> = inputs
            .scenes
            .iter()
            .map(|s| {
                let ks: Vec<usize> = s.kdops.iter().map(|r| r.k).collect();
                let crit: Option<Vec<f64>> = ks
                    .iter()
                    .map(|k| {
                        inputs
                            .timings
                            .mean_ms(&format!("broad_phase/kdop{k}/{}", s.scene))
                    })
                    .collect();
                let (time_ms, time_source) = match crit {
                    Some(t) => (t, "criterion mean"),
                    None => (
                        s.kdops
                            .iter()
                            .map(|r| r.times_ms.build + r.times_ms.traverse)
                            .collect(),
                        "single run",
                    ),
                };
                let parry_ms = inputs
                    .timings
                    .mean_ms(&format!("broad_phase/parry-aabb/{}", s.scene))
                    .or_else(|| {
                        s.parry
                            .as_ref()
                            .map(|p| p.times_ms.build + p.times_ms.traverse)
                    });
                KRow {
                    scene: s.scene.clone(),
                    vf: s.kdops.iter().map(|r| r.vf.candidates as f64).collect(),
                    ee: s.kdops.iter().map(|r| r.ee.candidates as f64).collect(),
                    ks,
                    time_ms,
                    time_source,
                    parry_ms,
                }
            })
            .collect();
        (!rows.is_empty()).then_some(KTestFigure { rows })
    }
}

impl Figure for KTestFigure {
    fn stem(&self) -> &'static str {
        "k_test"
    }

    fn size(&self) -> (u32, u32) {
        (1400, 44 + 400 * self.rows.len() as u32)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, text: bool) -> Res {
        let rest = title_area(
            root,
            "Fig. 6, k-value test: candidate pairs left by the k-DOP BVH, and BVH build + traversal time",
            text,
        )?;
        let areas = rest.split_evenly((self.rows.len(), 2));
        for (i, r) in self.rows.iter().enumerate() {
            let max_c = r.vf.iter().chain(&r.ee).cloned().fold(0.0, f64::max);
            let counts = Bars {
                title: format!("{}: candidates per k", r.scene),
                y_desc: "candidate pairs",
                groups: r
                    .ks
                    .iter()
                    .enumerate()
                    .map(|(j, k)| (format!("k = {k}"), vec![Some(r.vf[j]), Some(r.ee[j])]))
                    .collect(),
                series: vec![("VF", VF), ("EE", EE)],
                y_max: (max_c * 1.3).max(1.0),
                value_label: compact,
                reference: None,
                y_label_max: max_c.max(1.0),
            };
            draw_bars(&areas[2 * i], &counts, text)?;
            let max_t = r
                .time_ms
                .iter()
                .chain(r.parry_ms.iter())
                .cloned()
                .fold(0.0, f64::max);
            let times = Bars {
                title: format!("{}: BVH build + traversal, ms ({})", r.scene, r.time_source),
                y_desc: "ms",
                groups: r
                    .ks
                    .iter()
                    .enumerate()
                    .map(|(j, k)| (format!("k = {k}"), vec![Some(r.time_ms[j])]))
                    .collect(),
                series: vec![("ours, k-DOP BVH", OURS)],
                y_max: (max_t * 1.4).max(1e-3),
                value_label: sig3,
                y_label_max: max_t.max(1e-3),
                reference: r
                    .parry_ms
                    .map(|p| (format!("parry AABB BVH: {} ms", sig3(p)), p)),
            };
            draw_bars(&areas[2 * i + 1], &times, text)?;
        }
        Ok(())
    }
}
