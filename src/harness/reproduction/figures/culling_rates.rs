//! Tables 1–2 as bars: the culling rate of each filter, vertex–face and
//! edge–edge, the paper's beside ours, one group per scene.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::drawing::{Bars, Figure, OURS, PAPER, Res, draw_bars, percent, title_area};
use crate::harness::reproduction::inputs::ReportInputs;
use crate::harness::reproduction::paper;

/// Culling rate per filter, VF and EE, paper vs ours, one row per scene.
pub(crate) struct CullingFigure {
    rows: Vec<CullingRow>,
}

struct CullingRow {
    scene: String,
    frames: String,
    paper: Option<&'static paper::PaperTable>,
    vf: [f64; 3],
    ee: [f64; 3],
}

impl CullingFigure {
    pub(crate) fn new(inputs: &ReportInputs) -> Option<CullingFigure> {
        let rows: Vec<_> = inputs
            .scenes
            .iter()
            .filter_map(|s| {
                let k26 = s.kdop(26)?;
                let rate = |c: &crate::harness::reproduction::record::FilterCounts| {
                    paper::FILTER_COLUMNS.map(|f| c.rate(f).unwrap_or(0.0))
                };
                Some(CullingRow {
                    scene: s.scene.clone(),
                    frames: format!("{} → {}", s.frames[0], s.frames[1]),
                    paper: paper::table(&s.scene),
                    vf: rate(&k26.vf),
                    ee: rate(&k26.ee),
                })
            })
            .collect();
        (!rows.is_empty()).then_some(CullingFigure { rows })
    }
}

impl Figure for CullingFigure {
    fn stem(&self) -> &'static str {
        "culling_rates"
    }

    fn size(&self) -> (u32, u32) {
        (1400, 44 + 400 * self.rows.len() as u32)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, text: bool) -> Res {
        let rest = title_area(
            root,
            "Tables 1–2: share of the 26-DOP BVH candidates each filter culls (%), paper (sequence average) vs ours (one step)",
            text,
        )?;
        let rows = rest.split_evenly((self.rows.len(), 2));
        for (i, row) in self.rows.iter().enumerate() {
            for (j, (kind, ours, paper_rates)) in [
                ("VF", row.vf, row.paper.map(|p| p.vf_culling)),
                ("EE", row.ee, row.paper.map(|p| p.ee_culling)),
            ]
            .into_iter()
            .enumerate()
            {
                let names = ["SLPF", "DNF", "SLPF+DNF"];
                let groups = (0..3)
                    .map(|c| {
                        (
                            names[c].to_string(),
                            vec![paper_rates.map(|p| p[c]), Some(ours[c])],
                        )
                    })
                    .collect();
                let bars = Bars {
                    title: format!("{} {} ({kind})", row.scene, row.frames),
                    y_desc: "culled, % of candidates",
                    groups,
                    series: vec![
                        (
                            if row.paper.is_some() {
                                "paper"
                            } else {
                                "paper: no table"
                            },
                            PAPER,
                        ),
                        ("ours", OURS),
                    ],
                    y_max: 132.0,
                    value_label: percent,
                    reference: None,
                    y_label_max: 100.0,
                };
                draw_bars(&rows[2 * i + j], &bars, text)?;
            }
        }
        Ok(())
    }
}
