//! Stage times of our whole step (1 and 2 threads), the ipctk peer, and the
//! broad phases (ours 6-/26-DOP, parry).

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::drawing::{
    Figure, Res, STAGE_COLOURS, STAGE_NAMES, e, font, sig3, title_area, value_axis,
};
use crate::harness::reproduction::inputs::ReportInputs;

/// Stacked stage times (ms) of several runs, one panel per scene.
pub(crate) struct StageFigure {
    panels: Vec<StagePanel>,
}

struct StagePanel {
    scene: String,
    /// (label, [(stage index, ms)]).
    bars: Vec<(String, Vec<(usize, f64)>)>,
    note: Option<String>,
}

impl StageFigure {
    pub(crate) fn new(inputs: &ReportInputs) -> Option<StageFigure> {
        let mut panels = Vec::new();
        for s in &inputs.scenes {
            let mut bars = Vec::new();
            for run in inputs.steps.iter().filter(|r| r.scene == s.scene) {
                let t = &run.report.time_ms;
                bars.push((
                    format!(
                        "ours, whole step, {} thread{}",
                        run.report.threads,
                        if run.report.threads == 1 { "" } else { "s" }
                    ),
                    vec![(0, t.bvh), (1, t.traverse), (2, t.filter), (3, t.solve)],
                ));
            }
            let peer = inputs.peers.iter().find(|(n, _)| n == &s.scene);
            if let Some((_, p)) = peer {
                bars.push((
                    format!(
                        "ipctk {}, {} thread{}",
                        p.version,
                        p.threads,
                        if p.threads == 1 { "" } else { "s" }
                    ),
                    vec![(4, p.time_ms.broad_phase), (5, p.time_ms.narrow_phase)],
                ));
            }
            for k in [26, 6] {
                if let Some(r) = s.kdop(k) {
                    bars.push((
                        format!("ours, {k}-DOP BVH only ({} thr.)", s.threads),
                        vec![(0, r.times_ms.build), (1, r.times_ms.traverse)],
                    ));
                }
            }
            if let Some(p) = &s.parry {
                bars.push((
                    "parry AABB BVH only (1 thread)".to_string(),
                    vec![(0, p.times_ms.build), (1, p.times_ms.traverse)],
                ));
            }
            if bars.is_empty() {
                continue;
            }
            panels.push(StagePanel {
                scene: s.scene.clone(),
                bars,
                note: peer
                    .is_none()
                    .then(|| "ipctk peer: not measured".to_string()),
            });
        }
        (!panels.is_empty()).then_some(StageFigure { panels })
    }
}

impl Figure for StageFigure {
    fn stem(&self) -> &'static str {
        "stage_times"
    }

    fn size(&self) -> (u32, u32) {
        let bars: usize = self.panels.iter().map(|p| p.bars.len()).sum();
        (1400, 44 + 110 * self.panels.len() as u32 + 46 * bars as u32)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, text: bool) -> Res {
        let rest = title_area(
            root,
            "Stage times, ms: our whole step and the ipctk peer (as in the table), the broad phases alone (best of 3)",
            text,
        )?;
        let weights: Vec<u32> = self
            .panels
            .iter()
            .map(|p| 110 + 46 * p.bars.len() as u32)
            .collect();
        let total: u32 = weights.iter().sum();
        let (_, h) = rest.dim_in_pixel();
        let mut area = rest;
        for (i, p) in self.panels.iter().enumerate() {
            let this = if i + 1 == self.panels.len() {
                area.clone()
            } else {
                let px = (h as u64 * weights[i] as u64 / total as u64) as u32;
                let (a, b) = area.split_vertically(px);
                area = b;
                a
            };
            draw_stage_panel(&this, p, text)?;
        }
        Ok(())
    }
}

fn draw_stage_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    p: &StagePanel,
    text: bool,
) -> Res {
    let n = p.bars.len();
    let max = p
        .bars
        .iter()
        .map(|(_, s)| s.iter().map(|x| x.1).sum::<f64>())
        .fold(0.0, f64::max)
        .max(1e-3);
    let mut builder = ChartBuilder::on(area);
    builder.margin(12);
    if text {
        let title = match &p.note {
            Some(note) => format!("{} ({note})", p.scene),
            None => p.scene.clone(),
        };
        builder
            .caption(title, ("sans-serif", 20))
            .x_label_area_size(36)
            .y_label_area_size(330);
    }
    let mut chart = builder
        .build_cartesian_2d(value_axis(max * 1.3)?, 0.0..n as f64)
        .map_err(e)?;
    if text {
        let names: Vec<String> = p.bars.iter().map(|b| b.0.clone()).collect();
        let fmt = move |y: &f64| {
            let k = (y - 0.5).round();
            if (y - 0.5 - k).abs() < 1e-6 && k >= 0.0 && (k as usize) < names.len() {
                names[names.len() - 1 - k as usize].clone()
            } else {
                String::new()
            }
        };
        chart
            .configure_mesh()
            .disable_y_mesh()
            .light_line_style(WHITE)
            .y_labels(4 * n + 1)
            .y_label_formatter(&fmt)
            .x_desc("ms")
            .label_style(("sans-serif", 15))
            .axis_desc_style(("sans-serif", 15))
            .draw()
            .map_err(e)?;
    } else {
        chart
            .configure_mesh()
            .disable_y_mesh()
            .light_line_style(WHITE)
            .y_labels(0)
            .draw()
            .map_err(e)?;
    }
    let mut used = [false; 6];
    for (i, (_, stages)) in p.bars.iter().enumerate() {
        let y = (n - 1 - i) as f64;
        let mut x = 0.0;
        for &(stage, ms) in stages {
            used[stage] = true;
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(x, y + 0.18), (x + ms, y + 0.82)],
                    STAGE_COLOURS[stage].filled(),
                )))
                .map_err(e)?;
            x += ms;
        }
        if text {
            chart
                .draw_series(std::iter::once(Text::new(
                    format!("{} ms", sig3(x)),
                    (x + max * 0.01, y + 0.5),
                    font(14).pos(Pos::new(HPos::Left, VPos::Center)),
                )))
                .map_err(e)?;
        }
    }
    if text {
        for (stage, _) in used.iter().enumerate().filter(|u| *u.1) {
            let c = STAGE_COLOURS[stage];
            chart
                .draw_series(std::iter::empty::<Rectangle<(f64, f64)>>())
                .map_err(e)?
                .label(STAGE_NAMES[stage])
                .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 14, y + 6)], c.filled()));
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .label_font(("sans-serif", 14))
            .draw()
            .map_err(e)?;
    }
    Ok(())
}
