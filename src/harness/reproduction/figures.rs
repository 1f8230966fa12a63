//! The report's figures (plotters), each drawn twice from the same code: PNG
//! (bitmap backend) and SVG. Text needs a font ([`crate::harness::figure`]);
//! without one the figures are drawn without any text.
//!
//! - `culling_rates`: Tables 1–2 as bars, the paper's beside ours;
//! - `k_test`: Fig. 6, candidates and broad-phase time per k, parry's AABB
//!   BVH as a dashed line;
//! - `stage_times`: stage times of our whole step (1 and 2 threads), the
//!   ipctk peer, and the broad phases (ours 6-/26-DOP, parry);
//! - `sequence` (only with a replay of more than one step): culling rate per
//!   step and filter setting.

use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::inputs::ReportInputs;
use super::paper;

type Res = Result<(), String>;

fn e<E: std::fmt::Display>(err: E) -> String {
    err.to_string()
}

/// `0..max` as a value axis; an error when `max` is not a finite positive
/// number (plotters' tick placement never ends on an infinite range). The
/// checked inputs keep every axis finite; this guards the drawing itself.
fn value_axis(max: f64) -> Result<std::ops::Range<f64>, String> {
    if max.is_finite() && max > 0.0 {
        Ok(0.0..max)
    } else {
        Err(format!("the value axis 0 to {max} has no finite span"))
    }
}

const PAPER: RGBColor = RGBColor(160, 160, 160);
const OURS: RGBColor = RGBColor(30, 90, 220);
const VF: RGBColor = RGBColor(30, 90, 220);
const EE: RGBColor = RGBColor(230, 120, 20);
const PARRY: RGBColor = RGBColor(200, 30, 30);
const STAGE_COLOURS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),  // build / refit
    RGBColor(255, 127, 14),  // traverse
    RGBColor(44, 160, 44),   // filter
    RGBColor(214, 39, 40),   // exact solve
    RGBColor(148, 103, 189), // peer broad phase
    RGBColor(140, 86, 75),   // peer narrow phase
];
const STAGE_NAMES: [&str; 6] = [
    "BVH build",
    "BVH traversal",
    "filters",
    "exact tests",
    "peer broad phase",
    "peer narrow phase",
];
const FILTER_COLOURS: [RGBColor; 4] = [
    RGBColor(120, 120, 120),
    RGBColor(30, 90, 220),
    RGBColor(230, 120, 20),
    RGBColor(44, 160, 44),
];

/// A figure drawable on any plotters backend.
pub(super) trait Figure {
    /// File stem (`culling_rates` → `culling_rates.png`, `.svg`).
    fn stem(&self) -> &'static str;
    /// Pixel size.
    fn size(&self) -> (u32, u32);
    /// Draws onto `root` (already white); no text when `!text`.
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, text: bool) -> Res;
}

/// The stems of every figure a report may hold (each [`Figure::stem`]).
pub(super) const FIGURE_STEMS: [&str; 4] = ["culling_rates", "k_test", "stage_times", "sequence"];

/// Writes `fig` as PNG and SVG into `dir`; returns the two paths.
pub(super) fn write_figure(
    dir: &Path,
    fig: &impl Figure,
    text: bool,
) -> Result<[PathBuf; 2], String> {
    let png = dir.join(format!("{}.png", fig.stem()));
    let svg = dir.join(format!("{}.svg", fig.stem()));
    {
        let root = BitMapBackend::new(&png, fig.size()).into_drawing_area();
        root.fill(&WHITE).map_err(e)?;
        fig.draw(&root, text)?;
        root.present().map_err(e)?;
    }
    {
        let root = SVGBackend::new(&svg, fig.size()).into_drawing_area();
        root.fill(&WHITE).map_err(e)?;
        fig.draw(&root, text)?;
        root.present().map_err(e)?;
    }
    Ok([png, svg])
}

/// Three significant digits, no exponent for the usual ranges; "–" for a
/// value that is not a finite number.
pub(super) fn sig3(v: f64) -> String {
    if !v.is_finite() {
        return "–".to_string();
    }
    if v == 0.0 {
        return format!("{v}");
    }
    let digits = (2 - v.abs().log10().floor() as i32).max(0) as usize;
    format!("{v:.digits$}")
}

/// A count in compact form: 1.66M, 760k, 412.
fn compact(v: f64) -> String {
    if v >= 1e6 {
        format!("{}M", sig3(v / 1e6))
    } else if v >= 1e4 {
        format!("{:.0}k", v / 1e3)
    } else {
        format!("{v:.0}")
    }
}

fn font(size: u32) -> TextStyle<'static> {
    TextStyle::from(("sans-serif", size).into_font())
}

/// Grouped vertical bars: `groups[i] = (label, values per series)`; `None`
/// values are not drawn.
struct Bars<'a> {
    title: String,
    y_desc: &'a str,
    groups: Vec<(String, Vec<Option<f64>>)>,
    series: Vec<(&'a str, RGBColor)>,
    y_max: f64,
    value_label: fn(f64) -> String,
    /// A dashed horizontal reference line (label, value).
    reference: Option<(String, f64)>,
    /// No y labels above this (room for the legend above the data).
    y_label_max: f64,
}

fn draw_bars<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, b: &Bars<'_>, text: bool) -> Res {
    let n = b.groups.len().max(1);
    let ns = b.series.len().max(1);
    let mut builder = ChartBuilder::on(area);
    builder.margin(12);
    if text {
        builder
            .caption(&b.title, ("sans-serif", 20))
            .x_label_area_size(36)
            .y_label_area_size(78);
    }
    let mut chart = builder
        .build_cartesian_2d(0.0..n as f64, value_axis(b.y_max)?)
        .map_err(e)?;
    if text {
        let names: Vec<String> = b.groups.iter().map(|g| g.0.clone()).collect();
        let fmt = move |x: &f64| {
            let k = (x - 0.5).round();
            if (x - 0.5 - k).abs() < 1e-6 && k >= 0.0 && (k as usize) < names.len() {
                names[k as usize].clone()
            } else {
                String::new()
            }
        };
        let (yfmt, ymax) = (b.value_label, b.y_label_max);
        let yfmt = move |y: &f64| {
            if *y <= ymax * (1.0 + 1e-9) {
                yfmt(*y)
            } else {
                String::new()
            }
        };
        chart
            .configure_mesh()
            .disable_x_mesh()
            .light_line_style(WHITE)
            .x_labels(4 * n + 1)
            .x_label_formatter(&fmt)
            .y_label_formatter(&yfmt)
            .y_desc(b.y_desc)
            .label_style(("sans-serif", 15))
            .axis_desc_style(("sans-serif", 15))
            .draw()
            .map_err(e)?;
    } else {
        chart
            .configure_mesh()
            .disable_x_mesh()
            .light_line_style(WHITE)
            .x_labels(0)
            .y_labels(6)
            .draw()
            .map_err(e)?;
    }
    // The reference line first: bars and their labels are drawn over it.
    if let Some((label, v)) = &b.reference {
        let anno = chart
            .draw_series(DashedLineSeries::new(
                vec![(0.0, *v), (n as f64, *v)],
                10,
                6,
                PARRY.stroke_width(2),
            ))
            .map_err(e)?;
        if text {
            anno.label(label.as_str()).legend(|(x, y)| {
                PathElement::new(vec![(x, y), (x + 14, y)], PARRY.stroke_width(2))
            });
        }
    }
    let width = 0.8 / ns as f64;
    for (s, (name, colour)) in b.series.iter().enumerate() {
        let colour = *colour;
        let rects: Vec<_> = b
            .groups
            .iter()
            .enumerate()
            .filter_map(|(g, (_, values))| {
                let v = values.get(s).copied().flatten()?;
                let x0 = g as f64 + 0.1 + s as f64 * width;
                Some(Rectangle::new(
                    [(x0, 0.0), (x0 + width * 0.92, v)],
                    colour.filled(),
                ))
            })
            .collect();
        let anno = chart.draw_series(rects).map_err(e)?;
        if text {
            anno.label(*name).legend(move |(x, y)| {
                Rectangle::new([(x, y - 6), (x + 14, y + 6)], colour.filled())
            });
        }
        if text {
            let style = font(13).pos(Pos::new(HPos::Center, VPos::Bottom));
            let labels: Vec<_> = b
                .groups
                .iter()
                .enumerate()
                .filter_map(|(g, (_, values))| {
                    let v = values.get(s).copied().flatten()?;
                    let x = g as f64 + 0.1 + (s as f64 + 0.46) * width;
                    Some(Text::new((b.value_label)(v), (x, v), style.clone()))
                })
                .collect();
            chart.draw_series(labels).map_err(e)?;
        }
    }
    if text {
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .label_font(("sans-serif", 14))
            .draw()
            .map_err(e)?;
    }
    Ok(())
}

fn percent(v: f64) -> String {
    format!("{v:.1}")
}

fn title_area<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    text: bool,
) -> Result<DrawingArea<DB, Shift>, String> {
    let (top, rest) = root.split_vertically(44);
    if text {
        top.draw(&Text::new(
            title.to_string(),
            (14, 12),
            ("sans-serif", 22).into_font(),
        ))
        .map_err(e)?;
    }
    Ok(rest)
}

// ------------------------------------------------------------ Tables 1–2

/// Culling rate per filter, VF and EE, paper vs ours, one row per scene.
pub(super) struct CullingFigure {
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
    pub(super) fn new(inputs: &ReportInputs) -> Option<CullingFigure> {
        let rows: Vec<_> = inputs
            .scenes
            .iter()
            .filter_map(|s| {
                let k26 = s.kdop(26)?;
                let rate = |c: &super::record::FilterCounts| {
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

// ------------------------------------------------------------------ Fig. 6

/// Candidates and broad-phase time per k, one row per scene.
pub(super) struct KTestFigure {
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
    pub(super) fn new(inputs: &ReportInputs) -> Option<KTestFigure> {
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

// ------------------------------------------------------------- stage times

/// Stacked stage times (ms) of several runs, one panel per scene.
pub(super) struct StageFigure {
    panels: Vec<StagePanel>,
}

struct StagePanel {
    scene: String,
    /// (label, [(stage index, ms)]).
    bars: Vec<(String, Vec<(usize, f64)>)>,
    note: Option<String>,
}

impl StageFigure {
    pub(super) fn new(inputs: &ReportInputs) -> Option<StageFigure> {
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

// ----------------------------------------------------------------- sequence

/// One filter setting's line: (filters, per-step VF %, per-step EE %).
type SequenceLine = (String, Vec<f64>, Vec<f64>);

/// Culling rate per step and filter setting over replayed sequences.
pub(super) struct SequenceFigure {
    /// (scene, its lines).
    rows: Vec<(String, Vec<SequenceLine>)>,
}

impl SequenceFigure {
    pub(super) fn new(inputs: &ReportInputs) -> Option<SequenceFigure> {
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
