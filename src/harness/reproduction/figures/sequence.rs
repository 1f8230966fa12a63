//! Culling rate per step and filter setting, for a replay of more than one
//! step.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::drawing::{FILTER_COLOURS, Figure, Res, e, title_area};
use crate::harness::reproduction::inputs::ReportInputs;

/// One filter setting's line: (filters, per-step VF %, per-step EE %).
type SequenceLine = (String, Vec<f64>, Vec<f64>);

/// Culling rate per step and filter setting over replayed sequences.
pub(crate) struct SequenceFigure {
    /// (scene, its lines).
    rows: Vec<(String, Vec<SequenceLine>)>,
}

impl SequenceFigure {
    pub(crate) fn new(inputs: &ReportInputs) -> Option<SequenceFigure> {
        let mut rows: Vec<(String, Vec<SequenceLine>)> = Vec::new();
        for r in inputs.replays.iter().filter(|r| r.steps.len() > 1) {
            let vf = r
                .steps
                .iter()
                .map(|s| s.report.vf.culling_rate_percent)
                .collect();
            let ee = r
                .steps
                .iter()
                .map(|s| s.report.ee.culling_rate_percent)
                .collect();
            match rows.iter_mut().find(|(s, _)| *s == r.scene) {
                Some((_, lines)) => lines.push((r.filters.name().to_string(), vf, ee)),
                None => rows.push((
                    r.scene.clone(),
                    vec![(r.filters.name().to_string(), vf, ee)],
                )),
            }
        }
        (!rows.is_empty()).then_some(SequenceFigure { rows })
    }
}

impl Figure for SequenceFigure {
    fn stem(&self) -> &'static str {
        "sequence"
    }

    fn size(&self) -> (u32, u32) {
        (1400, 44 + 380 * self.rows.len() as u32)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, text: bool) -> Res {
        let rest = title_area(
            root,
            "Sequence-level: culling rate of each filter setting per step (26-DOP candidates)",
            text,
        )?;
        let areas = rest.split_evenly((self.rows.len(), 2));
        for (i, (scene, lines)) in self.rows.iter().enumerate() {
            for (j, kind) in ["VF", "EE"].into_iter().enumerate() {
                let steps = lines.iter().map(|l| l.1.len()).max().unwrap_or(1);
                let mut builder = ChartBuilder::on(&areas[2 * i + j]);
                builder.margin(12);
                if text {
                    builder
                        .caption(format!("{scene} ({kind})"), ("sans-serif", 20))
                        .x_label_area_size(36)
                        .y_label_area_size(60);
                }
                let mut chart = builder
                    .build_cartesian_2d(0.0..(steps.max(2) - 1) as f64, 0.0..100.0)
                    .map_err(e)?;
                let mut mesh = chart.configure_mesh();
                mesh.light_line_style(WHITE);
                let integer = |x: &f64| {
                    if (x - x.round()).abs() < 1e-9 {
                        format!("{x:.0}")
                    } else {
                        String::new()
                    }
                };
                if text {
                    mesh.x_desc("step")
                        .x_label_formatter(&integer)
                        .y_desc("culled, %")
                        .label_style(("sans-serif", 15))
                        .axis_desc_style(("sans-serif", 15));
                } else {
                    mesh.x_labels(0).y_labels(0);
                }
                mesh.draw().map_err(e)?;
                for (filters, vf, ee) in lines {
                    let values = if j == 0 { vf } else { ee };
                    let c = match filters.as_str() {
                        "none" => FILTER_COLOURS[0],
                        "slpf" => FILTER_COLOURS[1],
                        "dnf" => FILTER_COLOURS[2],
                        _ => FILTER_COLOURS[3],
                    };
                    if values.len() <= 40 {
                        chart
                            .draw_series(
                                values
                                    .iter()
                                    .enumerate()
                                    .map(|(s, v)| Circle::new((s as f64, *v), 3, c.filled())),
                            )
                            .map_err(e)?;
                    }
                    let anno = chart
                        .draw_series(LineSeries::new(
                            values.iter().enumerate().map(|(s, v)| (s as f64, *v)),
                            c.stroke_width(2),
                        ))
                        .map_err(e)?;
                    if text {
                        anno.label(filters.as_str()).legend(move |(x, y)| {
                            PathElement::new(vec![(x, y), (x + 14, y)], c.stroke_width(2))
                        });
                    }
                }
                if text {
                    chart
                        .configure_series_labels()
                        .position(SeriesLabelPosition::LowerRight)
                        .background_style(WHITE.mix(0.85))
                        .border_style(BLACK)
                        .label_font(("sans-serif", 14))
                        .draw()
                        .map_err(e)?;
                }
            }
        }
        Ok(())
    }
}
