//! Figures of the discrete report (plotters, PNG): the barrel scenes
//! (Fig. 9), the wheel over the hill (Fig. 10) and the timing bars. Text needs a font: DejaVu
//! Sans (or Liberation Sans) is loaded from the system paths below when
//! present; without one the figures are drawn without any text rather than
//! failing. Files are written to a temporary sibling and renamed.

use std::error::Error;
use std::path::Path;

use crate::discrete::Cylinder;
use crate::discrete::HeightGrid;
use crate::discrete::cylinder_heightfield::ContactPoint;
use crate::discrete::heightfield::CellKind;
use crate::math::Vec3;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Where a TrueType font is looked for (shared with the other reports).
pub(super) use crate::harness::figure::FONT_PATHS;

/// Registers the first font found as plotters' `sans-serif`; `false` when
/// none is usable (then no text is drawn).
pub(super) fn register_font() -> bool {
    crate::harness::figure::load_font().is_some()
}

/// One 3D panel: a cylinder, our manifold and parry's points.
pub(super) struct Panel {
    /// Caption.
    pub(super) title: String,
    /// The cylinder.
    pub(super) cylinder: Cylinder,
    /// Our manifold.
    pub(super) ours: Vec<ContactPoint>,
    /// parry's manifold points (on the cylinder) and push-out normals.
    pub(super) parry: Vec<(Vec3, Vec3)>,
    /// View angle about the vertical (plotters' `yaw`).
    pub(super) yaw: f64,
}

/// One frame of the wheel path.
pub(super) struct WheelSample {
    /// Wheel centre x.
    pub(super) x: f64,
    /// Our deepest depth.
    pub(super) ours_depth: f64,
    /// parry's depth.
    pub(super) parry_depth: Option<f64>,
    /// Our manifold size.
    pub(super) ours_points: usize,
    /// parry's points.
    pub(super) parry_points: usize,
    /// Our manifold size with normals grouped within 5°.
    pub(super) ours_points_5deg: usize,
}

type Res = Result<(), Box<dyn Error>>;

const NORMAL_LEN: f64 = 0.15;
const OURS: RGBColor = RGBColor(30, 90, 220);
const NORMALS: RGBColor = RGBColor(240, 140, 0);
const PARRY: RGBColor = RGBColor(215, 25, 28);

/// Draws into a temporary `.png` beside `path`, then renames it into place.
fn atomic_png(
    path: &Path,
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<BitMapBackend<'_>, Shift>) -> Res,
) -> Res {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path.file_name().ok_or("no file name")?.to_string_lossy();
    let tmp = dir.join(format!(".{name}.{}.tmp.png", std::process::id()));
    let result = (|| -> Res {
        let root = BitMapBackend::new(&tmp, size).into_drawing_area();
        root.fill(&WHITE)?;
        draw(&root)?;
        root.present()?;
        Ok(())
    })();
    match result {
        Ok(()) => Ok(std::fs::rename(&tmp, path)?),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// World → plot coordinates: plotters' 3D y axis is vertical.
fn pt(p: &Vec3) -> (f64, f64, f64) {
    (p.x, p.z, p.y)
}

fn panel_3d(
    area: &DrawingArea<BitMapBackend<'_>, Shift>,
    grid: &HeightGrid,
    p: &Panel,
    fonts: bool,
) -> Res {
    let c = p.cylinder.centre();
    let (r, h) = (p.cylinder.radius(), p.cylinder.height());
    let half = 0.5 * h.max(2.0 * r) + 0.3;
    let (xr, yr) = ((c.x - half)..(c.x + half), (c.y - half)..(c.y + half));
    let zr = (c.z - half)..(c.z + half);
    let mut builder = ChartBuilder::on(area);
    builder.margin(8);
    if fonts {
        builder.caption(&p.title, ("sans-serif", 22));
    }
    let mut chart = builder.build_cartesian_3d(xr.clone(), zr.clone(), yr.clone())?;
    chart.with_projection(|mut pb| {
        pb.yaw = p.yaw;
        pb.pitch = 0.45;
        pb.scale = 0.8;
        pb.into_matrix()
    });
    if fonts {
        chart
            .configure_axes()
            .light_grid_style(WHITE.mix(0.0))
            .max_light_lines(0)
            .x_labels(3)
            .y_labels(3)
            .z_labels(3)
            .label_style(("sans-serif", 14))
            .draw()?;
    }
    // Terrain: grid lines (and the diagonal V₁V₂ of triangle cells) in the
    // window; heights clamped to the window so nothing is drawn outside it.
    let inside = |x: f64, y: f64| xr.contains(&x) && yr.contains(&y);
    let clamp = |v: Vec3| Vec3::new(v.x, v.y, v.z.clamp(zr.start, zr.end));
    // Line colour by height over the window's terrain: grey (low) to brown
    // (high), so steps such as the curb stand out.
    let (mut t_lo, mut t_hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for i in 0..grid.rows() {
        for j in 0..grid.cols() {
            let v = grid.vertex(i, j);
            if inside(v.x, v.y) {
                t_lo = t_lo.min(v.z);
                t_hi = t_hi.max(v.z);
            }
        }
    }
    let shade = |a: &Vec3, b: &Vec3, alpha: f64| {
        let t = if t_hi > t_lo {
            (0.5 * (a.z + b.z) - t_lo) / (t_hi - t_lo)
        } else {
            0.0
        };
        let mixc = |lo: f64, hi: f64| (lo + t * (hi - lo)).round() as u8;
        RGBColor(mixc(150.0, 140.0), mixc(150.0, 80.0), mixc(150.0, 20.0)).mix(alpha)
    };
    for i in 0..grid.rows() {
        for j in 0..grid.cols() {
            let v = grid.vertex(i, j);
            if !inside(v.x, v.y) {
                continue;
            }
            if j + 1 < grid.cols() && inside(grid.x(j + 1), v.y) {
                let w = grid.vertex(i, j + 1);
                chart.draw_series(LineSeries::new(
                    [pt(&clamp(v)), pt(&clamp(w))],
                    shade(&v, &w, 0.7),
                ))?;
            }
            if i + 1 < grid.rows() && inside(v.x, grid.y(i + 1)) {
                let w = grid.vertex(i + 1, j);
                chart.draw_series(LineSeries::new(
                    [pt(&clamp(v)), pt(&clamp(w))],
                    shade(&v, &w, 0.7),
                ))?;
            }
            if i + 1 < grid.rows()
                && j + 1 < grid.cols()
                && inside(grid.x(j + 1), grid.y(i + 1))
                && grid.cell_kind(i, j) == CellKind::Triangles
            {
                let a = grid.vertex(i, j + 1);
                let b = grid.vertex(i + 1, j);
                chart.draw_series(LineSeries::new(
                    [pt(&clamp(a)), pt(&clamp(b))],
                    shade(&a, &b, 0.35),
                ))?;
            }
        }
    }
    // Cylinder wireframe.
    let v = p.cylinder.axis();
    let e1 = if v.x.abs() < 0.9 {
        Vec3::x()
    } else {
        Vec3::y()
    };
    let e1 = (e1 - e1.dot(&v) * v).normalize();
    let e2 = v.cross(&e1);
    let ring = |s: f64, t: f64| c + s * 0.5 * h * v + r * (t.cos() * e1 + t.sin() * e2);
    let body = RGBColor(60, 60, 60);
    for s in [-1.0, 1.0] {
        let pts: Vec<_> = (0..=64)
            .map(|k| pt(&ring(s, k as f64 * std::f64::consts::TAU / 64.0)))
            .collect();
        chart.draw_series(LineSeries::new(pts, body.stroke_width(2)))?;
    }
    for k in 0..16 {
        let t = k as f64 * std::f64::consts::TAU / 16.0;
        chart.draw_series(LineSeries::new(
            [pt(&ring(-1.0, t)), pt(&ring(1.0, t))],
            body.mix(0.5),
        ))?;
    }
    // parry's points, then ours (on top), with normals.
    for (q, _) in &p.parry {
        chart.draw_series(std::iter::once(Cross::new(pt(q), 3, PARRY.mix(0.6))))?;
    }
    for cp in &p.ours {
        let tip = cp.point + NORMAL_LEN * cp.normal;
        chart.draw_series(LineSeries::new(
            [pt(&cp.point), pt(&tip)],
            NORMALS.stroke_width(3),
        ))?;
        chart.draw_series(std::iter::once(Circle::new(pt(&tip), 3, NORMALS.filled())))?;
        chart.draw_series(std::iter::once(Circle::new(
            pt(&cp.point),
            6,
            OURS.filled(),
        )))?;
    }
    Ok(())
}

fn legend(area: &DrawingArea<BitMapBackend<'_>, Shift>, fonts: bool) -> Res {
    if !fonts {
        return Ok(());
    }
    let style = ("sans-serif", 20).into_font();
    let y = 18;
    area.draw(&Circle::new((20, y), 6, OURS.filled()))?;
    area.draw(&Text::new(
        "ccdlab contact points (Strashnov & Torgashev 2020)",
        (32, y - 10),
        style.clone(),
    ))?;
    area.draw(&PathElement::new(
        vec![(560, y), (590, y)],
        NORMALS.stroke_width(3),
    ))?;
    area.draw(&Text::new(
        "their normals (push-out, 0.15 m)",
        (598, y - 10),
        style.clone(),
    ))?;
    area.draw(&Cross::new((930, y), 6, PARRY.stroke_width(2)))?;
    area.draw(&Text::new(
        "parry3d-f64 manifold points",
        (944, y - 10),
        style.clone(),
    ))?;
    area.draw(&PathElement::new(
        vec![(1250, y), (1265, y)],
        RGBColor(150, 150, 150).stroke_width(2),
    ))?;
    area.draw(&PathElement::new(
        vec![(1265, y), (1280, y)],
        RGBColor(140, 80, 20).stroke_width(2),
    ))?;
    area.draw(&Text::new("terrain (low → high)", (1288, y - 10), style))?;
    Ok(())
}

/// The barrel scenes, 2 × 2 panels.
pub(super) fn scenes_figure(path: &Path, grid: &HeightGrid, panels: &[Panel], fonts: bool) -> Res {
    atomic_png(path, (1600, 1240), |root| {
        let (top, rest) = root.split_vertically(40);
        legend(&top, fonts)?;
        let areas = rest.split_evenly((2, 2));
        for (a, p) in areas.iter().zip(panels.iter()) {
            panel_3d(a, grid, p, fonts)?;
        }
        Ok(())
    })
}

/// The wheel over the hill: the flank frame in 3D, and depth and manifold
/// size along the path.
pub(super) fn wheel_figure(
    path: &Path,
    grid: &HeightGrid,
    frame: &Panel,
    _wheels: &[Cylinder],
    samples: &[WheelSample],
    fonts: bool,
) -> Res {
    atomic_png(path, (1600, 800), |root| {
        let (top, rest) = root.split_vertically(40);
        legend(&top, fonts)?;
        let (left, right) = rest.split_horizontally(760);
        panel_3d(&left, grid, frame, fonts)?;
        let (upper, lower) = right.split_vertically(380);
        let x0 = samples.first().map_or(0.0, |s| s.x);
        let x1 = samples.last().map_or(1.0, |s| s.x);
        let dmax = samples
            .iter()
            .map(|s| s.ours_depth.max(s.parry_depth.unwrap_or(0.0)))
            .fold(0.0, f64::max)
            * 1.15
            + 1e-3;
        // Depth along the path.
        let mut b = ChartBuilder::on(&upper);
        b.margin(12);
        if fonts {
            b.caption("deepest contact depth along the path", ("sans-serif", 22))
                .x_label_area_size(40)
                .y_label_area_size(70);
        }
        let mut ch = b.build_cartesian_2d(x0..x1, 0.0..dmax * 1000.0)?;
        if fonts {
            ch.configure_mesh()
                .max_light_lines(1)
                .x_desc("wheel centre x [m]")
                .y_desc("depth [mm]")
                .label_style(("sans-serif", 16))
                .draw()?;
        }
        ch.draw_series(LineSeries::new(
            samples.iter().map(|s| (s.x, s.ours_depth * 1000.0)),
            OURS.stroke_width(3),
        ))?
        .label("ccdlab (paper's depth)")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], OURS.stroke_width(3)));
        ch.draw_series(LineSeries::new(
            samples
                .iter()
                .filter_map(|s| s.parry_depth.map(|d| (s.x, d * 1000.0))),
            PARRY.stroke_width(2),
        ))?
        .label("parry (minimal translation)")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], PARRY.stroke_width(2)));
        if fonts {
            ch.configure_series_labels()
                .background_style(WHITE.mix(0.8))
                .border_style(BLACK)
                .label_font(("sans-serif", 16))
                .position(SeriesLabelPosition::LowerRight)
                .draw()?;
        }
        // Manifold sizes along the path.
        let pmax = samples
            .iter()
            .map(|s| s.ours_points.max(s.parry_points))
            .max()
            .unwrap_or(1) as f64
            * 1.7
            + 1.0;
        let mut b = ChartBuilder::on(&lower);
        b.margin(12);
        if fonts {
            b.caption("contact points per query", ("sans-serif", 22))
                .x_label_area_size(40)
                .y_label_area_size(70);
        }
        let mut ch = b.build_cartesian_2d(x0..x1, 0.0..pmax)?;
        if fonts {
            ch.configure_mesh()
                .max_light_lines(1)
                .x_desc("wheel centre x [m]")
                .y_desc("points")
                .label_style(("sans-serif", 16))
                .draw()?;
        }
        ch.draw_series(LineSeries::new(
            samples.iter().map(|s| (s.x, s.ours_points as f64)),
            OURS.stroke_width(3),
        ))?
        .label("ccdlab manifold (≤ 4 per normal)")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], OURS.stroke_width(3)));
        let light = RGBColor(120, 170, 255);
        ch.draw_series(LineSeries::new(
            samples.iter().map(|s| (s.x, s.ours_points_5deg as f64)),
            light.stroke_width(2),
        ))?
        .label("ccdlab, normals grouped within 5°")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], light.stroke_width(2)));
        ch.draw_series(LineSeries::new(
            samples.iter().map(|s| (s.x, s.parry_points as f64)),
            PARRY.stroke_width(2),
        ))?
        .label("parry contact_manifolds")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], PARRY.stroke_width(2)));
        if fonts {
            ch.configure_series_labels()
                .background_style(WHITE.mix(0.8))
                .border_style(BLACK)
                .label_font(("sans-serif", 16))
                .position(SeriesLabelPosition::UpperRight)
                .draw()?;
        }
        Ok(())
    })
}

/// µs per query, log scale, one bar per measurement id.
pub(super) fn timing_figure(path: &Path, bars: &[(String, f64)], fonts: bool) -> Res {
    atomic_png(path, (1400, 110 + 48 * bars.len() as u32), |root| {
        let lo = bars
            .iter()
            .map(|b| b.1)
            .fold(f64::INFINITY, f64::min)
            .max(1e-3)
            / 2.0;
        let hi = bars.iter().map(|b| b.1).fold(0.0, f64::max) * 2.0;
        let mut b = ChartBuilder::on(root);
        b.margin(16);
        if fonts {
            b.caption(
                "time per query (µs, log scale, one thread)",
                ("sans-serif", 24),
            )
            .x_label_area_size(40)
            .y_label_area_size(420);
        }
        let n = bars.len();
        let mut ch = b.build_cartesian_2d((lo..hi).log_scale(), 0.0..n as f64)?;
        if fonts {
            let names: Vec<String> = bars.iter().map(|b| b.0.clone()).collect();
            let fmt = move |y: &f64| {
                let k = (y - 0.5).round();
                if (y - 0.5 - k).abs() < 1e-6 && k >= 0.0 && (k as usize) < names.len() {
                    names[names.len() - 1 - k as usize].clone()
                } else {
                    String::new()
                }
            };
            ch.configure_mesh()
                .disable_y_mesh()
                .y_labels(2 * n + 1)
                .y_label_formatter(&fmt)
                .x_desc("µs per query")
                .label_style(("sans-serif", 16))
                .draw()?;
        }
        for (k, (id, v)) in bars.iter().enumerate() {
            let y = (n - 1 - k) as f64;
            let color = if id.contains("/ours/") { OURS } else { PARRY };
            ch.draw_series(std::iter::once(Rectangle::new(
                [(lo, y + 0.15), (*v, y + 0.85)],
                color.filled(),
            )))?;
            if fonts {
                ch.draw_series(std::iter::once(Text::new(
                    super::markdown::sig3(*v),
                    (*v * 1.08, y + 0.7),
                    ("sans-serif", 16).into_font(),
                )))?;
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discrete::cylinder_heightfield::contact_manifold;
    use crate::discrete::scenes::{asphalt_with_curb, barrel_scenes};
    use crate::test_util::{Scratch, names};

    /// Without a font every figure is still drawn (no text), and nothing is
    /// left behind but the PNGs.
    #[test]
    fn figures_without_a_font() {
        let dir = Scratch::new("discrete-figures-without-a-font");
        let grid = asphalt_with_curb();
        let panels: Vec<Panel> = barrel_scenes()
            .into_iter()
            .map(|s| Panel {
                title: s.name.into(),
                ours: contact_manifold(&s.cylinder, &grid).1,
                cylinder: s.cylinder,
                parry: Vec::new(),
                yaw: 0.65,
            })
            .collect();
        scenes_figure(&dir.join("s.png"), &grid, &panels, false).unwrap();
        timing_figure(
            &dir.join("t.png"),
            &[("a/ours/b".into(), 1.0), ("a/parry/b".into(), 10.0)],
            false,
        )
        .unwrap();
        assert_eq!(names(&dir), ["s.png", "t.png"]);
        assert!(std::fs::metadata(dir.join("s.png")).unwrap().len() > 1000);
    }
}
