//! The polygon report's figure, `fig3_resolution_time.png` (plotters): the
//! paper's Fig. 3 reproduced — time per pair over polygon complexity, and
//! the baselines' time over the paper's, with the claimed speed-up bands —
//! one row per decomposition.

use super::experiment::{KINDS, Scenario, TIMED};
use super::timing::{TimingRow, find_ns, find_ratio};
use std::path::Path;

use plotters::prelude::*;

use crate::polygon::{DecompositionKind, Method};

/// Registers a font for plotters' `ab_glyph` backend (shared loader:
/// `$CCDLAB_FONT`, then DejaVu). Returns the file used, or `None` (the
/// figure is then drawn without text).
pub(super) fn load_font() -> Option<&'static str> {
    crate::harness::figure::load_font()
}

fn colour(m: Method) -> RGBColor {
    match m {
        Method::Paper => RGBColor(200, 30, 30),
        Method::SatDecomposed => RGBColor(30, 90, 200),
        _ => RGBColor(20, 150, 60),
    }
}

fn label(m: Method) -> &'static str {
    match m {
        Method::Paper => "paper: SAT without decomposition",
        Method::SatDecomposed => "SAT + convex decomposition",
        _ => "GJK/EPA + convex decomposition (parry2d)",
    }
}

/// Draws the figure to a temporary `.png` beside `path`, then renames it
/// into place (plotters picks the encoder from the extension).
pub(super) fn figure(path: &Path, rows: &[TimingRow], font: Option<&str>) -> Result<(), String> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let tmp = dir.join(format!(".fig3.{}.tmp.png", std::process::id()));
    let result = draw(&tmp, rows, font.is_some())
        .and_then(|()| std::fs::rename(&tmp, path).map_err(|e| e.to_string()));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Points of one line.
type Series = Vec<(f64, f64)>;

fn err(x: impl std::fmt::Display) -> String {
    x.to_string()
}

/// Two rows (Hertel–Mehlhorn pieces, triangle pieces) of two panels
/// (time per pair; speed ratios). x is log₂ n on a linear axis, labelled
/// with n, so the ticks fall on the measured sizes.
fn draw(path: &Path, rows: &[TimingRow], text: bool) -> Result<(), String> {
    let root = BitMapBackend::new(path, (1500, 1240)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let halves = root.split_evenly((2, 1));
    for (area, kind) in halves.iter().zip(KINDS) {
        let kind_rows: Vec<&TimingRow> = rows.iter().filter(|r| r.kind == kind).collect();
        if kind_rows.is_empty() {
            continue;
        }
        draw_row(area, rows, kind, text)?;
    }
    root.present().map_err(err)?;
    Ok(())
}

fn draw_row(
    area: &DrawingArea<BitMapBackend<'_>, plotters::coord::Shift>,
    rows: &[TimingRow],
    kind: DecompositionKind,
    text: bool,
) -> Result<(), String> {
    let (left, right) = area.split_horizontally(800);
    let mut sizes: Vec<usize> = rows
        .iter()
        .filter(|r| r.kind == kind)
        .map(|r| r.n)
        .collect();
    sizes.sort_unstable();
    sizes.dedup();
    let lg = |n: usize| (n as f64).log2();
    let x_lo = lg(*sizes.first().unwrap_or(&4)) - 0.3;
    let x_hi = lg(*sizes.last().unwrap_or(&8)) + 0.3;
    let x_fmt = |v: &f64| {
        if (v - v.round()).abs() < 1e-6 {
            format!("{:.0}", v.exp2())
        } else {
            String::new()
        }
    };
    let pieces = match kind {
        DecompositionKind::HertelMehlhorn => "Hertel–Mehlhorn pieces",
        DecompositionKind::Triangles => "triangle pieces",
    };

    // Left: µs per pair (log y).
    let us: Vec<f64> = rows
        .iter()
        .filter(|r| r.kind == kind)
        .map(|r| r.ns_per_query / 1e3)
        .filter(|v| v.is_finite() && *v > 0.0)
        .collect();
    let y_lo = us.iter().cloned().fold(f64::INFINITY, f64::min).max(1e-3) / 2.0;
    let y_hi = us.iter().cloned().fold(0.0, f64::max).max(y_lo * 4.0) * 6.0;
    let mut b = ChartBuilder::on(&left);
    b.margin(16);
    if text {
        b.caption(
            format!("Mean resolution time per pair ({pieces})"),
            ("sans-serif", 24),
        )
        .x_label_area_size(50)
        .y_label_area_size(70);
    }
    let mut chart = b
        .build_cartesian_2d(x_lo..x_hi, (y_lo..y_hi).log_scale())
        .map_err(err)?;
    if text {
        chart
            .configure_mesh()
            .x_desc("vertices per polygon, n")
            .y_desc("µs per pair (log)")
            .x_labels(sizes.len() * 2 + 1)
            .x_label_formatter(&x_fmt)
            .y_label_formatter(&|v| format!("{v}"))
            .label_style(("sans-serif", 18))
            .axis_desc_style(("sans-serif", 20))
            .draw()
            .map_err(err)?;
    } else {
        chart
            .plotting_area()
            .draw(&Rectangle::new(
                [(x_lo, y_lo), (x_hi, y_hi)],
                BLACK.stroke_width(1),
            ))
            .map_err(err)?;
    }
    for scenario in Scenario::ALL {
        for m in TIMED {
            let pts: Vec<(f64, f64)> = sizes
                .iter()
                .map(|&n| (lg(n), find_ns(rows, kind, scenario, n, m) / 1e3))
                .filter(|p| p.1.is_finite() && p.1 > 0.0)
                .collect();
            let c = colour(m);
            let solid = scenario == Scenario::NonconvexNonconvex;
            let style = if solid {
                c.stroke_width(3)
            } else {
                c.mix(0.5).stroke_width(2)
            };
            let series = chart
                .draw_series(LineSeries::new(pts.clone(), style))
                .map_err(err)?;
            if text {
                let name = format!(
                    "{} ({})",
                    label(m),
                    if solid {
                        "B non-convex"
                    } else {
                        "B convex, faint"
                    }
                );
                series
                    .label(name)
                    .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], style));
            }
            if solid {
                chart
                    .draw_series(pts.iter().map(|&p| Circle::new(p, 5, c.filled())))
                    .map_err(err)?;
            } else {
                chart
                    .draw_series(
                        pts.iter()
                            .map(|&p| TriangleMarker::new(p, 6, c.mix(0.5).filled())),
                    )
                    .map_err(err)?;
            }
        }
    }
    if text {
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .label_font(("sans-serif", 15))
            .draw()
            .map_err(err)?;
    }

    // Right: baseline time / paper time (log y), with the claimed bands.
    let mut ratio_pts: Vec<(Scenario, Method, Series)> = Vec::new();
    let mut r_lo: f64 = 0.5;
    let mut r_hi: f64 = 40.0;
    for scenario in Scenario::ALL {
        for m in [Method::SatDecomposed, Method::GjkEpaDecomposed] {
            let pts: Vec<(f64, f64)> = sizes
                .iter()
                .map(|&n| (lg(n), find_ratio(rows, kind, scenario, n, m)))
                .filter(|p| p.1.is_finite() && p.1 > 0.0)
                .collect();
            for p in &pts {
                r_lo = r_lo.min(p.1 / 1.5);
                r_hi = r_hi.max(p.1 * 4.0);
            }
            ratio_pts.push((scenario, m, pts));
        }
    }
    let mut b = ChartBuilder::on(&right);
    b.margin(16);
    if text {
        b.caption(
            format!("Speed-up of the paper's method ({pieces})"),
            ("sans-serif", 24),
        )
        .x_label_area_size(50)
        .y_label_area_size(60);
    }
    let mut chart = b
        .build_cartesian_2d(x_lo..x_hi, (r_lo..r_hi).log_scale())
        .map_err(err)?;
    if text {
        chart
            .configure_mesh()
            .x_desc("vertices per polygon, n")
            .y_desc("baseline time / paper time (log)")
            .x_labels(sizes.len() * 2 + 1)
            .x_label_formatter(&x_fmt)
            .y_label_formatter(&|v| format!("{v}"))
            .label_style(("sans-serif", 18))
            .axis_desc_style(("sans-serif", 20))
            .draw()
            .map_err(err)?;
    } else {
        chart
            .plotting_area()
            .draw(&Rectangle::new(
                [(x_lo, r_lo), (x_hi, r_hi)],
                BLACK.stroke_width(1),
            ))
            .map_err(err)?;
    }
    for (lo, hi, c) in [
        (3.0, 4.0, colour(Method::SatDecomposed)),
        (8.0, 10.0, colour(Method::GjkEpaDecomposed)),
    ] {
        chart
            .draw_series(std::iter::once(Rectangle::new(
                [(x_lo, lo), (x_hi, hi)],
                c.mix(0.18).filled(),
            )))
            .map_err(err)?;
    }
    chart
        .draw_series(LineSeries::new(
            vec![(x_lo, 1.0), (x_hi, 1.0)],
            BLACK.stroke_width(1),
        ))
        .map_err(err)?;
    for (scenario, m, pts) in ratio_pts {
        let c = colour(m);
        let solid = scenario == Scenario::NonconvexNonconvex;
        let style = if solid {
            c.stroke_width(3)
        } else {
            c.mix(0.5).stroke_width(2)
        };
        let series = chart
            .draw_series(LineSeries::new(pts.clone(), style))
            .map_err(err)?;
        if text {
            let name = format!(
                "{} / paper ({})",
                if m == Method::SatDecomposed {
                    "SAT+decomp."
                } else {
                    "GJK/EPA+decomp."
                },
                if solid {
                    "B non-convex"
                } else {
                    "B convex, faint"
                }
            );
            series
                .label(name)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], style));
        }
        chart
            .draw_series(pts.iter().map(|&p| Circle::new(p, 4, c.filled())))
            .map_err(err)?;
    }
    if text {
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .label_font(("sans-serif", 15))
            .draw()
            .map_err(err)?;
        let style = ("sans-serif", 15).into_font().color(&BLACK);
        chart
            .draw_series([
                Text::new("claim vs SAT: 3–4×", (x_lo + 0.05, 3.9), style.clone()),
                Text::new("claim vs GJK/EPA: 8–10×", (x_lo + 0.05, 9.8), style.clone()),
                Text::new("parity", (x_lo + 0.05, 0.97), style),
            ])
            .map_err(err)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::Scratch;

    fn rows() -> Vec<TimingRow> {
        let mut v = Vec::new();
        for (kind, scenario) in KINDS
            .into_iter()
            .flat_map(|k| Scenario::ALL.map(|s| (k, s)))
        {
            for n in [8, 16, 32] {
                for (k, m) in TIMED.into_iter().enumerate() {
                    v.push(TimingRow {
                        kind,
                        scenario,
                        n,
                        method: m,
                        ns_per_query: (n * n * (k + 1)) as f64,
                        ns_min: (n * n * (k + 1)) as f64,
                        ns_max: (n * n * (k + 1)) as f64,
                        ratio_to_paper: (k + 1) as f64,
                        pieces_a: 1.0,
                        pieces_b: 1.0,
                    });
                }
            }
        }
        v
    }

    /// Without any font the figure is still drawn (no text), no panic.
    #[test]
    fn figure_without_font_draws_without_text() {
        let dir = Scratch::new("polygons-figure-without-font");
        let path = dir.join("fig.png");
        figure(&path, &rows(), None).unwrap();
        assert!(std::fs::metadata(&path).unwrap().len() > 1000);
    }
}
