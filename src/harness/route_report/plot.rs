//! The figure of the route report (plotters, PNG): per route, a top view of the
//! terrain (triangles coloured by height) with the route and the first
//! contact, and a side profile along the route (terrain under the route,
//! the route's altitude, the aircraft's lowest point, the contact). Text
//! needs a font (DejaVu or Liberation Sans from the system); without one the
//! figure is drawn without text. Written to a temporary sibling, then
//! renamed.

use std::error::Error;
use std::path::Path;

use crate::math::Vec3;
use crate::mesh::Feature;
use crate::tin_contact::Region;
use crate::tin_contact::route::{Flight, Route, SurfaceLookup, Tin};
use plotters::coord::Shift;
use plotters::prelude::*;

/// Where a TrueType font is looked for, in order.
const FONT_PATHS: [&str; 3] = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
];

/// Registers the first font found as plotters' `sans-serif`; `false` when
/// none is usable.
pub(super) fn register_font() -> bool {
    static DONE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *DONE.get_or_init(|| {
        for p in FONT_PATHS {
            if let Ok(bytes) = std::fs::read(p) {
                let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
                if plotters::style::register_font("sans-serif", FontStyle::Normal, bytes).is_ok() {
                    return true;
                }
            }
        }
        false
    })
}

type Res = Result<(), Box<dyn Error>>;

/// `lo..hi` as a plot axis; an error when its ends or its span are not
/// finite (plotters' tick placement never ends on an infinite range).
fn axis(name: &str, lo: f64, hi: f64) -> Result<std::ops::Range<f64>, Box<dyn Error>> {
    if lo.is_finite() && hi.is_finite() && (hi - lo).is_finite() {
        Ok(lo..hi)
    } else {
        Err(format!("the {name} axis {lo:e} to {hi:e} has no finite span").into())
    }
}
type Area<'a> = DrawingArea<BitMapBackend<'a>, Shift>;

const ROUTE: RGBColor = RGBColor(20, 60, 200);
const HIT: RGBColor = RGBColor(220, 20, 30);

/// One route's row of the figure.
pub(super) struct RoutePanel<'a> {
    /// Its name.
    pub(super) name: &'a str,
    /// The route.
    pub(super) route: &'a Route,
    /// The flight.
    pub(super) flight: &'a Flight,
    /// The object, in its own frame.
    pub(super) object: &'a Tin,
}

/// Draws the figure to `path` (complete or absent).
pub(super) fn figure(path: &Path, terrain: &Tin, panels: &[RoutePanel<'_>], text: bool) -> Res {
    let rows = panels.len().max(1) as u32;
    let size = (1600u32, 560 * rows);
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path.file_name().ok_or("no file name")?.to_string_lossy();
    let tmp = dir.join(format!(".{name}.{}.tmp.png", std::process::id()));
    let result = (|| -> Res {
        let root = BitMapBackend::new(&tmp, size).into_drawing_area();
        root.fill(&WHITE)?;
        let lookup = SurfaceLookup::new(terrain);
        let row_areas = root.split_evenly((panels.len().max(1), 1));
        for (area, p) in row_areas.iter().zip(panels) {
            let (left, rest) = area.split_horizontally(500);
            let (middle, right) = rest.split_horizontally(440);
            top_view(&left, terrain, p, text)?;
            close_up(&middle, terrain, p, text)?;
            profile(&right, &lookup, p, text)?;
        }
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

/// Terrain colours from low (green) through brown to high (white).
fn terrain_colour(f: f64) -> RGBColor {
    const STOPS: [(f64, [f64; 3]); 5] = [
        (0.0, [38.0, 115.0, 60.0]),
        (0.35, [125.0, 175.0, 85.0]),
        (0.6, [205.0, 185.0, 115.0]),
        (0.8, [150.0, 110.0, 80.0]),
        (1.0, [245.0, 245.0, 245.0]),
    ];
    let f = f.clamp(0.0, 1.0);
    let k = STOPS.iter().position(|s| s.0 >= f).unwrap_or(4).max(1);
    let (a, b) = (STOPS[k - 1], STOPS[k]);
    let w = ((f - a.0) / (b.0 - a.0)).clamp(0.0, 1.0);
    let c = |i: usize| (a.1[i] + w * (b.1[i] - a.1[i])).round() as u8;
    RGBColor(c(0), c(1), c(2))
}

fn top_view(area: &Area<'_>, terrain: &Tin, p: &RoutePanel<'_>, text: bool) -> Res {
    let (lo, hi) = terrain.bounds();
    let mut b = ChartBuilder::on(area);
    b.margin(12);
    if text {
        b.caption(format!("{}: top view", p.name), ("sans-serif", 22))
            .x_label_area_size(36)
            .y_label_area_size(56);
    }
    let mut chart = b.build_cartesian_2d(axis("x", lo.x, hi.x)?, axis("y", lo.y, hi.y)?)?;
    if text {
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc("x (m)")
            .y_desc("y (m)")
            .label_style(("sans-serif", 14))
            .draw()?;
    }
    let span = (hi.z - lo.z).max(f64::MIN_POSITIVE);
    chart.draw_series(terrain.mesh.faces().iter().map(|f| {
        let c: Vec<Vec3> = f.iter().map(|&v| terrain.positions[v as usize]).collect();
        let z = (c[0].z + c[1].z + c[2].z) / 3.0;
        Polygon::new(
            c.iter().map(|q| (q.x, q.y)).collect::<Vec<_>>(),
            terrain_colour((z - lo.z) / span).filled(),
        )
    }))?;
    let pts: Vec<(f64, f64)> = p.route.points().iter().map(|q| (q.x, q.y)).collect();
    chart
        .draw_series(LineSeries::new(pts.clone(), ROUTE.stroke_width(3)))?
        .label("route")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], ROUTE.stroke_width(3)));
    chart.draw_series(pts.iter().map(|&q| Circle::new(q, 5, ROUTE.filled())))?;
    if let Some(fc) = &p.flight.first {
        // Flown part of the route up to the contact, and the contact.
        let mut flown: Vec<(f64, f64)> = pts[..=fc.segment].to_vec();
        flown.push((fc.position.x, fc.position.y));
        chart.draw_series(LineSeries::new(flown, BLACK.stroke_width(2)))?;
        for c in &fc.contacts {
            chart.draw_series(
                c.region
                    .points()
                    .iter()
                    .map(|q| Circle::new((q.x, q.y), 3, HIT.filled())),
            )?;
        }
        let at = (fc.position.x, fc.position.y);
        chart
            .draw_series([Circle::new(at, 12, HIT.stroke_width(3))])?
            .label("first contact")
            .legend(|(x, y)| Circle::new((x + 10, y), 6, HIT.stroke_width(3)));
    }
    if text {
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .label_font(("sans-serif", 15))
            .draw()?;
    }
    Ok(())
}

/// The object's vertices at a pose (as in the flight: `R_z(ψ)·x + p`).
fn posed(object: &Tin, p: &Vec3, psi: f64) -> Vec<Vec3> {
    let (s, c) = if psi == 0.0 {
        (0.0, 1.0)
    } else {
        psi.sin_cos()
    };
    object
        .positions
        .iter()
        .map(|x| Vec3::new(c * x.x - s * x.y + p.x, s * x.x + c * x.y + p.y, x.z + p.z))
        .collect()
}

/// A top view zoomed on the first contact: terrain triangles (coloured by
/// height, edges grey), the terrain features in contact (red), the object
/// at the contact pose (blue), the contact regions (red).
fn close_up(area: &Area<'_>, terrain: &Tin, p: &RoutePanel<'_>, text: bool) -> Res {
    let Some(fc) = &p.flight.first else {
        if text {
            area.draw(&Text::new(
                format!("{}: no contact", p.name),
                (120, 260),
                ("sans-serif", 22),
            ))?;
        }
        return Ok(());
    };
    // A window holding the posed object and the contact points, with the
    // aspect of the plotting area (so that shapes are not distorted).
    let x = posed(p.object, &fc.position, fc.heading);
    let region_pts = fc.contacts.iter().flat_map(|c| c.region.points().iter());
    let (mut x0, mut x1, mut y0, mut y1) = (
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
    );
    for q in x.iter().chain(region_pts) {
        (x0, x1, y0, y1) = (x0.min(q.x), x1.max(q.x), y0.min(q.y), y1.max(q.y));
    }
    let (w_px, h_px) = area.dim_in_pixel();
    let (w_px, h_px) = (
        (w_px as f64 - 90.0).max(50.0),
        (h_px as f64 - 100.0).max(50.0),
    );
    let (cx, cy) = (0.5 * (x0 + x1), 0.5 * (y0 + y1));
    let hx = (0.75 * (x1 - x0))
        .max(0.75 * (y1 - y0) * w_px / h_px)
        .max(1.0);
    let hy = hx * h_px / w_px;
    let (xr, yr) = (
        axis("close-up x", cx - hx, cx + hx)?,
        axis("close-up y", cy - hy, cy + hy)?,
    );
    let mut b = ChartBuilder::on(area);
    b.margin(12);
    if text {
        b.caption(
            "close-up at the first contact (top view)",
            ("sans-serif", 20),
        )
        .x_label_area_size(36)
        .y_label_area_size(56);
    }
    let mut chart = b.build_cartesian_2d(xr.clone(), yr.clone())?;
    if text {
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc("x (m)")
            .y_desc("y (m)")
            .x_labels(4)
            .y_labels(6)
            .label_style(("sans-serif", 13))
            .draw()?;
    }
    let (lo, hi) = terrain.bounds();
    let span = (hi.z - lo.z).max(f64::MIN_POSITIVE);
    let inside = |c: &[Vec3]| {
        let (x0, x1) = c
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), q| {
                (a.min(q.x), b.max(q.x))
            });
        let (y0, y1) = c
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), q| {
                (a.min(q.y), b.max(q.y))
            });
        x1 >= xr.start && x0 <= xr.end && y1 >= yr.start && y0 <= yr.end
    };
    let tris: Vec<Vec<Vec3>> = terrain
        .mesh
        .faces()
        .iter()
        .map(|f| {
            f.iter()
                .map(|&v| terrain.positions[v as usize])
                .collect::<Vec<_>>()
        })
        .filter(|c| inside(c))
        .collect();
    let window = [xr.start, xr.end, yr.start, yr.end];
    let clip = |q: &Vec3| (q.x, q.y);
    chart.draw_series(tris.iter().filter_map(|c| {
        let z = (c[0].z + c[1].z + c[2].z) / 3.0;
        let poly = clip_polygon(&c.iter().map(clip).collect::<Vec<_>>(), window);
        (poly.len() >= 3)
            .then(|| Polygon::new(poly, terrain_colour((z - lo.z) / span).mix(0.8).filled()))
    }))?;
    let grey = RGBColor(90, 90, 90);
    for c in &tris {
        for k in 0..3 {
            if let Some(seg) = clip_segment(clip(&c[k]), clip(&c[(k + 1) % 3]), window) {
                chart.draw_series(LineSeries::new(seg, grey.stroke_width(1)))?;
            }
        }
    }
    // The object at the contact pose.
    let dark = RGBColor(10, 30, 120);
    for f in p.object.mesh.faces() {
        let c: Vec<(f64, f64)> = f.iter().map(|&v| clip(&x[v as usize])).collect();
        chart.draw_series([Polygon::new(c.clone(), ROUTE.mix(0.35).filled())])?;
        let mut ring = c.clone();
        ring.push(c[0]);
        chart.draw_series(LineSeries::new(ring, dark.stroke_width(1)))?;
    }
    // Terrain features in contact, and the contact regions.
    for c in &fc.contacts {
        let ring: Vec<(f64, f64)> = match c.b {
            Feature::Face(k) => {
                let f = terrain.mesh.faces()[k as usize];
                [f[0], f[1], f[2], f[0]]
                    .iter()
                    .map(|&v| clip(&terrain.positions[v as usize]))
                    .collect()
            }
            Feature::Edge(e) => terrain.mesh.edges()[e as usize]
                .iter()
                .map(|&v| clip(&terrain.positions[v as usize]))
                .collect(),
            Feature::Vertex(v) => vec![clip(&terrain.positions[v as usize])],
        };
        for w in ring.windows(2) {
            if let Some(seg) = clip_segment(w[0], w[1], window) {
                chart.draw_series(LineSeries::new(seg, HIT.stroke_width(3)))?;
            }
        }
        if ring.len() == 1 {
            chart.draw_series([Circle::new(ring[0], 7, HIT.stroke_width(2))])?;
        }
        let pts: Vec<(f64, f64)> = c.region.points().iter().map(clip).collect();
        match &c.region {
            Region::Point(_) => {}
            Region::Segment(_) => {
                chart.draw_series(LineSeries::new(pts.clone(), HIT.stroke_width(4)))?;
            }
            Region::Polygon(_) => {
                chart.draw_series([Polygon::new(pts.clone(), HIT.mix(0.5).filled())])?;
            }
        }
        chart.draw_series(pts.iter().map(|&q| Circle::new(q, 5, HIT.filled())))?;
    }
    if text {
        let more = fc.contacts.len().saturating_sub(4);
        let mut lines: Vec<String> = fc
            .contacts
            .iter()
            .take(4)
            .map(|c| format!("({}) {}", c.form.letter(), c.form.name()))
            .collect();
        if more > 0 {
            lines.push(format!("… and {more} more"));
        }
        for (i, l) in lines.iter().enumerate() {
            let at = (
                xr.start + 0.04 * (xr.end - xr.start),
                yr.end - (0.05 + 0.06 * i as f64) * (yr.end - yr.start),
            );
            chart.draw_series([Text::new(
                l.clone(),
                at,
                ("sans-serif", 17).into_font().color(&HIT),
            )])?;
        }
    }
    Ok(())
}

/// Sutherland–Hodgman clip of a polygon to `[x0, x1] × [y0, y1]`.
fn clip_polygon(poly: &[(f64, f64)], [x0, x1, y0, y1]: [f64; 4]) -> Vec<(f64, f64)> {
    let mut out = poly.to_vec();
    let edges: [(usize, f64, bool); 4] =
        [(0, x0, true), (0, x1, false), (1, y0, true), (1, y1, false)];
    for (axis, bound, keep_above) in edges {
        let coord = |p: &(f64, f64)| if axis == 0 { p.0 } else { p.1 };
        let inside = |p: &(f64, f64)| {
            if keep_above {
                coord(p) >= bound
            } else {
                coord(p) <= bound
            }
        };
        let input = std::mem::take(&mut out);
        for i in 0..input.len() {
            let (a, b) = (input[i], input[(i + 1) % input.len()]);
            let cut = |a: (f64, f64), b: (f64, f64)| {
                let t = (bound - coord(&a)) / (coord(&b) - coord(&a));
                (a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1))
            };
            match (inside(&a), inside(&b)) {
                (true, true) => out.push(b),
                (true, false) => out.push(cut(a, b)),
                (false, true) => {
                    out.push(cut(a, b));
                    out.push(b);
                }
                (false, false) => {}
            }
        }
    }
    out
}

/// Liang–Barsky clip of a segment to `[x0, x1] × [y0, y1]`.
fn clip_segment(
    a: (f64, f64),
    b: (f64, f64),
    [x0, x1, y0, y1]: [f64; 4],
) -> Option<Vec<(f64, f64)>> {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [
        (-dx, a.0 - x0),
        (dx, x1 - a.0),
        (-dy, a.1 - y0),
        (dy, y1 - a.1),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else {
            let r = q / p;
            if p < 0.0 {
                t0 = t0.max(r);
            } else {
                t1 = t1.min(r);
            }
        }
    }
    (t0 <= t1).then(|| {
        vec![
            (a.0 + t0 * dx, a.1 + t0 * dy),
            (a.0 + t1 * dx, a.1 + t1 * dy),
        ]
    })
}

fn profile(area: &Area<'_>, lookup: &SurfaceLookup, p: &RoutePanel<'_>, text: bool) -> Res {
    let r = p.route;
    let object_bottom = p.object.bounds().0.z;
    let total = *r.distances().last().unwrap_or(&0.0);
    let n = 600usize;
    let mut ground = Vec::with_capacity(n + 1);
    let mut flight = Vec::with_capacity(n + 1);
    let mut bottom = Vec::with_capacity(n + 1);
    let mut k = 0;
    for i in 0..=n {
        let d = total * i as f64 / n as f64;
        while k + 1 < r.num_segments() && r.distances()[k + 1] < d {
            k += 1;
        }
        let (d0, d1) = (r.distances()[k], r.distances()[k + 1]);
        let s = if d1 > d0 {
            ((d - d0) / (d1 - d0)).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let q = r.point_at(k, s);
        if let Some(h) = lookup.height(q.x, q.y) {
            ground.push((d, h));
        }
        flight.push((d, q.z));
        bottom.push((d, q.z + object_bottom));
    }
    let zs = ground.iter().chain(&flight).chain(&bottom).map(|q| q.1);
    let (zmin, zmax) = zs.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), z| {
        (a.min(z), b.max(z))
    });
    let pad = 0.08 * (zmax - zmin).max(1.0);
    let (zlo, zhi) = (zmin - pad, zmax + pad);
    let mut b = ChartBuilder::on(area);
    b.margin(12);
    if text {
        b.caption(
            format!("{}: profile along the route", p.name),
            ("sans-serif", 22),
        )
        .x_label_area_size(36)
        .y_label_area_size(56);
    }
    let mut chart = b.build_cartesian_2d(
        axis("distance", 0.0, total.max(1.0))?,
        axis("altitude", zlo, zhi)?,
    )?;
    if text {
        chart
            .configure_mesh()
            .x_desc("distance along the route (m)")
            .y_desc("altitude (m)")
            .label_style(("sans-serif", 14))
            .draw()?;
    }
    let brown = RGBColor(150, 110, 80);
    if let (Some(first), Some(last)) = (ground.first(), ground.last()) {
        let mut fill = ground.clone();
        fill.push((last.0, zlo));
        fill.push((first.0, zlo));
        chart.draw_series([Polygon::new(fill, brown.mix(0.35).filled())])?;
    }
    chart
        .draw_series(LineSeries::new(ground, brown.stroke_width(2)))?
        .label("terrain under the route")
        .legend(move |(x, y)| {
            Rectangle::new([(x, y - 5), (x + 20, y + 5)], brown.mix(0.5).filled())
        });
    chart
        .draw_series(LineSeries::new(flight, ROUTE.stroke_width(2)))?
        .label("route (reference point)")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], ROUTE.stroke_width(2)));
    let light = RGBColor(110, 150, 240);
    chart
        .draw_series(LineSeries::new(bottom, light.stroke_width(1)))?
        .label("aircraft's lowest point")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], light.stroke_width(1)));
    if let Some(fc) = &p.flight.first {
        let zc = fc
            .contacts
            .iter()
            .flat_map(|c| c.region.points().iter().map(|q| q.z))
            .fold(f64::INFINITY, f64::min);
        let zc = if zc.is_finite() { zc } else { fc.position.z };
        chart.draw_series(LineSeries::new(
            vec![(fc.distance, zlo), (fc.distance, zhi)],
            HIT.mix(0.6).stroke_width(1),
        ))?;
        chart
            .draw_series([Circle::new((fc.distance, zc), 8, HIT.filled())])?
            .label("first contact")
            .legend(|(x, y)| Circle::new((x + 10, y), 5, HIT.filled()));
    }
    if text {
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .label_font(("sans-serif", 15))
            .draw()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes_without_a_finite_span_are_refused() {
        assert_eq!(axis("x", -1.0, 2.0).unwrap(), -1.0..2.0);
        assert!(axis("x", -1e60, 1e60).is_ok());
        let e = axis("x", -1e308, 1e308).unwrap_err();
        assert!(e.to_string().contains("x axis"), "{e}");
        assert!(axis("z", 0.0, f64::INFINITY).is_err());
        assert!(axis("z", f64::NAN, 0.0).is_err());
    }
}
