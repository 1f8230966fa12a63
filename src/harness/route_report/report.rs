//! The route report written: `result.json`, `route.png` and `README.md`
//! (stamped), and with the demo its inputs, into the folder that replaces
//! `--out`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::harness::stamp::Stamp;
use crate::mesh::write_obj;
use crate::tin_contact::route::{Flight, Route};

use super::error::RouteReportError;
use super::inputs::Inputs;
use super::json::{JsonFirst, JsonReport, JsonRoute, json_contact};
use super::markdown::markdown;
use super::output::{publish, write_file};
use super::plot;
use super::text::heading_text;

/// A route as a `.route` file (`x y z t` per line).
fn route_text(route: &Route) -> String {
    let mut s = String::from("# x y z t\n");
    for (p, t) in route.points().iter().zip(route.times()) {
        let _ = writeln!(s, "{:?} {:?} {:?} {:?}", p.x, p.y, p.z, t);
    }
    s
}

/// Writes the report of `flights` (one per route of `inputs`, with its
/// seconds) into `out`, all or nothing, stamped with `threads`; returns the
/// paths of `README.md`, `result.json` and `route.png` in `out`. With the
/// demo it also writes the inputs (`terrain.grid`, `aircraft.obj`, one
/// `.route` per route) so that the same flight can be rerun from files.
pub fn write_report(
    out: &Path,
    inputs: &Inputs,
    flights: &[(Flight, f64)],
    threads: usize,
) -> Result<[PathBuf; 3], RouteReportError> {
    publish(out, |dir| write_files(dir, out, inputs, flights, threads))?;
    Ok(["README.md", "result.json", "route.png"].map(|name| out.join(name)))
}

/// Writes the report's files into `dir`, which will become `out`.
fn write_files(
    dir: &Path,
    out: &Path,
    inputs: &Inputs,
    flights: &[(Flight, f64)],
    threads: usize,
) -> Result<(), RouteReportError> {
    let stamp = Stamp::new(threads);
    let (om, tm) = (&inputs.object.mesh, &inputs.terrain.mesh);
    if let Some(sc) = &inputs.scenario {
        write_file(dir, out, "terrain.grid", sc.grid.to_text().as_bytes())?;
        write_obj(
            &dir.join("aircraft.obj"),
            &sc.object.positions,
            sc.object.mesh.faces(),
        )
        .map_err(|e| RouteReportError::Write {
            path: out.join("aircraft.obj"),
            message: e.to_string(),
        })?;
        for (name, route) in &sc.routes {
            write_file(
                dir,
                out,
                &format!("{name}.route"),
                route_text(route).as_bytes(),
            )?;
        }
    }
    let routes: Vec<JsonRoute> = inputs
        .routes
        .iter()
        .zip(flights)
        .map(|((name, route, source), (f, seconds))| JsonRoute {
            name: name.clone(),
            source: source.clone(),
            waypoints: route
                .points()
                .iter()
                .zip(route.times())
                .map(|(p, t)| [p.x, p.y, p.z, *t])
                .collect(),
            ccd_steps: f.steps.len(),
            steps_flown: f.stats.steps_flown,
            face_pairs_tested: f.stats.face_pairs_tested,
            seconds: *seconds,
            first_contact: f.first.as_ref().map(|fc| JsonFirst {
                segment: fc.segment,
                turn: fc.turn,
                parameter: fc.parameter,
                time: fc.time,
                distance: fc.distance,
                position: [fc.position.x, fc.position.y, fc.position.z],
                heading_deg: fc.heading.to_degrees(),
                contacts: fc
                    .contacts
                    .iter()
                    .map(|c| json_contact(c, om, tm))
                    .collect(),
            }),
        })
        .collect();
    let report = JsonReport {
        stamp: stamp.clone(),
        terrain: inputs.terrain_source.clone(),
        terrain_faces: tm.num_faces(),
        object: inputs.object_source.clone(),
        object_faces: om.num_faces(),
        heading: heading_text(&inputs.options),
        routes,
    };
    let json = serde_json::to_string_pretty(&report).map_err(|e| RouteReportError::Write {
        path: out.join("result.json"),
        message: e.to_string(),
    })?;
    write_file(dir, out, "result.json", json.as_bytes())?;

    let text = plot::register_font();
    let panels: Vec<plot::RoutePanel<'_>> = inputs
        .routes
        .iter()
        .zip(flights)
        .map(|((name, route, _), (flight, _))| plot::RoutePanel {
            name,
            route,
            flight,
            object: &inputs.object,
        })
        .collect();
    plot::figure(&dir.join("route.png"), &inputs.terrain, &panels, text).map_err(|e| {
        RouteReportError::Write {
            path: out.join("route.png"),
            message: e.to_string(),
        }
    })?;
    let md = markdown(inputs, flights, &stamp, out);
    write_file(dir, out, "README.md", md.as_bytes())
}
