//! What the report's figures share: the [`Figure`] trait and its writer
//! (PNG and SVG from the same code), colours, number formats, grouped bars
//! and the title strip.

use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

pub(super) type Res = Result<(), String>;

pub(super) fn e<E: std::fmt::Display>(err: E) -> String {
    err.to_string()
}

/// `0..max` as a value axis; an error when `max` is not a finite positive
/// number (plotters' tick placement never ends on an infinite range). The
/// checked inputs keep every axis finite; this guards the drawing itself.
pub(super) fn value_axis(max: f64) -> Result<std::ops::Range<f64>, String> {
    if max.is_finite() && max > 0.0 {
        Ok(0.0..max)
    } else {
        Err(format!("the value axis 0 to {max} has no finite span"))
    }
}

pub(super) const PAPER: RGBColor = RGBColor(160, 160, 160);
pub(super) const OURS: RGBColor = RGBColor(30, 90, 220);
pub(super) const VF: RGBColor = RGBColor(30, 90, 220);
pub(super) const EE: RGBColor = RGBColor(230, 120, 20);
const PARRY: RGBColor = RGBColor(200, 30, 30);
pub(super) const STAGE_COLOURS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),  // build / refit
    RGBColor(255, 127, 14),  // traverse
    RGBColor(44, 160, 44),   // filter
    RGBColor(214, 39, 40),   // exact solve
    RGBColor(148, 103, 189), // peer broad phase
    RGBColor(140, 86, 75),   // peer narrow phase
];
pub(super) const STAGE_NAMES: [&str; 6] = [
    "BVH build",
    "BVH traversal",
    "filters",
    "exact tests",
    "peer broad phase",
    "peer narrow phase",
];
pub(super) const FILTER_COLOURS: [RGBColor; 4] = [
    RGBColor(120, 120, 120),
    RGBColor(30, 90, 220),
    RGBColor(230, 120, 20),
    RGBColor(44, 160, 44),
];

/// A figure drawable on any plotters backend.
pub(crate) trait Figure {
    /// File stem (`culling_rates` → `culling_rates.png`, `.svg`).
    fn stem(&self) -> &'static str;
    /// Pixel size.
    fn size(&self) -> (u32, u32);
    /// Draws onto `root` (already white); no text when `!text`.
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, text: bool) -> Res;
}

/// The stems of every figure a report may hold (each [`Figure::stem`]).
pub(crate) const FIGURE_STEMS: [&str; 4] = ["culling_rates", "k_test", "stage_times", "sequence"];

/// Writes `fig` as PNG and SVG into `dir`; returns the two paths.
pub(crate) fn write_figure(
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
pub(crate) fn sig3(v: f64) -> String {
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
pub(super) fn compact(v: f64) -> String {
    if v >= 1e6 {
        format!("{}M", sig3(v / 1e6))
    } else if v >= 1e4 {
        format!("{:.0}k", v / 1e3)
    } else {
        format!("{v:.0}")
    }
}

pub(super) fn font(size: u32) -> TextStyle<'static> {
    TextStyle::from(("sans-serif", size).into_font())
}

/// Grouped vertical bars: `groups[i] = (label, values per series)`; `None`
/// values are not drawn.
pub(super) struct Bars<'a> {
    pub(super) title: String,
    pub(super) y_desc: &'a str,
    pub(super) groups: Vec<(String, Vec<Option<f64>>)>,
    pub(super) series: Vec<(&'a str, RGBColor)>,
    pub(super) y_max: f64,
    pub(super) value_label: fn(f64) -> String,
    /// A dashed horizontal reference line (label, value).
    pub(super) reference: Option<(String, f64)>,
    /// No y labels above this (room for the legend above the data).
    pub(super) y_label_max: f64,
}

pub(super) fn draw_bars<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    b: &Bars<'_>,
    text: bool,
) -> Res {
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

pub(super) fn percent(v: f64) -> String {
    format!("{v:.1}")
}

pub(super) fn title_area<DB: DrawingBackend>(
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
